"""The ctypes view of libsamplab.so: where the library is found, sl_api_src, the
settings as the library's opaque handle (set by key through the library's own
schema and parser: sl_api_settings_set), and the calls, each returning the JSON
object the matching `samplab CMD --json` prints."""

import ctypes
import ctypes.util
import json
import os

from ._error import Error

_SONAME = "libsamplab.so.0"


def _candidates():
    here = os.path.dirname(os.path.abspath(__file__))
    # the wheel's own copy (make wheel), before any library the loader would find elsewhere
    yield os.path.join(here, "libsamplab.so")
    # installed: PREFIX/lib/python3.N/dist-packages/samplab -> PREFIX/lib
    yield os.path.join(here, "..", "..", "..", _SONAME)
    # the source tree: python/samplab -> lib/ (make lib)
    yield os.path.join(here, "..", "..", "lib", _SONAME)
    found = ctypes.util.find_library("samplab")
    if found:
        yield found
    yield _SONAME


def _load():
    env = os.environ.get("SAMPLAB_LIB")
    if env:
        # what SAMPLAB_LIB names is the library, or the import fails naming it (never another copy found elsewhere)
        try:
            found = ctypes.CDLL(env)
        except OSError as e:
            raise ImportError("samplab: SAMPLAB_LIB=%s: cannot load it as a library (%s)" % (env, e)) from None
        if not hasattr(found, "sl_api_version"):
            raise ImportError("samplab: SAMPLAB_LIB=%s is a library but not libsamplab (no sl_api_version)" % env)
        return found
    tried = []
    for path in _candidates():
        if os.path.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("samplab: libsamplab.so not found; set SAMPLAB_LIB to its path (tried: %s)" % "; ".join(tried))


class _Error(ctypes.Structure):
    _fields_ = [("msg", ctypes.c_char * 512)]


class Src(ctypes.Structure):
    _fields_ = [("spec", ctypes.c_char_p), ("tensor", ctypes.c_char_p), ("row", ctypes.c_long),
                ("data", ctypes.c_void_p), ("len", ctypes.c_size_t), ("name", ctypes.c_char_p),
                ("rows", ctypes.POINTER(ctypes.c_char_p)), ("n_rows", ctypes.c_size_t)]


lib = _load()
_P = ctypes.POINTER
_out = _P(ctypes.c_void_p)
_cl = _P(ctypes.c_long)
lib.sl_api_settings_new.restype = ctypes.c_void_p
lib.sl_api_settings_new.argtypes = [ctypes.c_char_p]
lib.sl_api_settings_free.restype = None
lib.sl_api_settings_free.argtypes = [ctypes.c_void_p]
lib.sl_api_settings_set.restype = ctypes.c_int
lib.sl_api_settings_set.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_char_p, _P(_Error)]
lib.sl_api_option_check.restype = ctypes.c_int
lib.sl_api_option_check.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_char_p, _P(_Error)]
lib.sl_api_schema_json.restype = ctypes.c_void_p
lib.sl_api_schema_json.argtypes = []
lib.sl_api_version.restype = ctypes.c_char_p
lib.sl_api_version.argtypes = []
lib.sl_api_free.argtypes = [ctypes.c_void_p]
lib.sl_api_free.restype = None
_SIGS = {
    "sl_api_draw": [_P(Src), ctypes.c_int, ctypes.c_void_p, _out, _P(_Error)],
    "sl_api_gof": [_P(Src), ctypes.c_int, _P(ctypes.c_uint64), ctypes.c_size_t, _cl, ctypes.c_size_t,
                   ctypes.c_void_p, _out, _P(_Error)],
    "sl_api_pipeline": [_P(Src), ctypes.c_void_p, _out, _P(_Error)],
    "sl_api_replay": [_P(Src), ctypes.c_int, _cl, ctypes.c_size_t, ctypes.c_void_p, _out, _P(_Error)],
    "sl_api_check": [_P(Src), ctypes.c_int, _cl, ctypes.c_size_t, _cl, ctypes.c_size_t, ctypes.c_void_p, _out,
                     _P(_Error)],
    "sl_api_exact": [_P(Src), ctypes.c_int, ctypes.c_void_p, _out, _P(_Error)],
    "sl_api_compare": [_P(Src), ctypes.c_void_p, _out, _P(_Error)],
    "sl_api_power": [_P(Src), ctypes.c_int, ctypes.c_void_p, _out, _P(_Error)],
    "sl_api_calibrate": [_P(Src), ctypes.c_int, ctypes.c_void_p, _out, _P(_Error)],
    "sl_api_audit": [ctypes.c_void_p, _out, _P(_Error)],
}
for _name, _args in _SIGS.items():
    getattr(lib, _name).argtypes = _args
    getattr(lib, _name).restype = ctypes.c_int

version = lib.sl_api_version().decode()


def _schema():
    p = lib.sl_api_schema_json()
    if not p:
        raise ImportError("samplab: out of memory reading the library's settings schema")
    try:
        return json.loads(ctypes.string_at(p).decode())
    finally:
        lib.sl_api_free(p)


# key -> {"option", "kind", "group", "settings", "help", ...}: the library's schema
schema = _schema()


class Settings:
    """An sl_api_settings handle of the library for command cmd, set by key."""

    def __init__(self, cmd):
        self.cmd = cmd.encode()
        self.p = lib.sl_api_settings_new(self.cmd)
        if not self.p:
            raise MemoryError("samplab: out of memory for the settings")

    def __del__(self):
        if getattr(self, "p", None):
            lib.sl_api_settings_free(self.p)
            self.p = None

    def set(self, key, text):
        err = _Error()
        if lib.sl_api_settings_set(self.p, str(key).encode(), None if text is None else text.encode(),
                                   ctypes.byref(err)):
            raise Error(err.msg.decode("utf-8", "replace"))


def check(cmd, key, text):
    """Raises Error with the command's line unless text is a value of the option keyed key."""
    err = _Error()
    if lib.sl_api_option_check(cmd.encode(), key.encode(), text.encode(), ctypes.byref(err)):
        raise Error(err.msg.decode("utf-8", "replace"))


def call(name, *args):
    """Calls sl_api_NAME(args..., &json, &err): the parsed JSON, or Error with the command's line."""
    out = ctypes.c_void_p()
    err = _Error()
    rc = getattr(lib, name)(*args, ctypes.byref(out), ctypes.byref(err))
    if rc:
        raise Error(err.msg.decode("utf-8", "replace"))
    try:
        return json.loads(ctypes.string_at(out.value).decode())
    finally:
        lib.sl_api_free(out)
