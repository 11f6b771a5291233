"""The wheel's tag only (the metadata is pyproject.toml's): `make wheel` puts libsamplab.so
inside the package, so that wheel is a platform wheel (py3-none-linux_x86_64, the library at
the wheel's root) rather than pure Python; without the library (pip install ./python) the
package stays pure."""
import os

from setuptools import Distribution, setup

_BUNDLED = os.path.exists(os.path.join(os.path.dirname(os.path.abspath(__file__)), "samplab", "libsamplab.so"))


class _Dist(Distribution):
    def has_ext_modules(self):  # a shared library inside: install to platlib, tag the platform
        return _BUNDLED or super().has_ext_modules()


cmdclass = {}
try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # no wheel package: pip install ./python needs none
    bdist_wheel = None

if bdist_wheel is not None and _BUNDLED:
    class _PlatformWheel(bdist_wheel):
        def get_tag(self):
            # ctypes, no extension module: any Python 3, any ABI, this platform only
            return ("py3", "none", super().get_tag()[2])

    cmdclass["bdist_wheel"] = _PlatformWheel

setup(distclass=_Dist, cmdclass=cmdclass)
