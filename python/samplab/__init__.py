"""samplab: verify LLM token samplers, from Python.

Each call is the samplab command of the same name, run by libsamplab.so in
this process: the same checks, the same numbers and the same fields as the
command's --json output. Settings are keyword-only, named as the command's
options with '_' for '-' (top_k=40 is --top-k 40); an unknown keyword raises
TypeError, a value samplab refuses raises samplab.Error (a ValueError).
Vectors are a list, a NumPy array or torch tensor, or a string the command
line would take (a path, or an inline list "3,2,2,1").

    import samplab
    r = samplab.gof(probs=[0.5, 0.3, 0.2], counts=[5010, 2995, 1995])
    r.verdict, r.p_value, r.tv
"""

from ._error import Error
from ._calls import Result, Draw, Gof, draw, gof, pipeline, replay, check, exact, compare, power, calibrate, audit
from ._lib import version

__all__ = ["Error", "Result", "Draw", "Gof", "draw", "gof", "pipeline", "replay", "check", "exact", "compare",
           "power", "calibrate", "audit", "version", "testing"]
__version__ = version
for _c in (Error, Result, Draw, Gof):
    _c.__module__ = __name__  # tracebacks and reprs say samplab.Error, the name to catch
del _c


def __getattr__(name):
    # samplab.testing without an import of its own, loaded on first use (it imports this package)
    if name == "testing":
        import importlib
        return importlib.import_module(".testing", __name__)
    raise AttributeError("module 'samplab' has no attribute %r" % name)


def __dir__():
    return sorted(set(__all__) | {"__version__"})
