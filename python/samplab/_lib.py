"""The ctypes view of libsamplab.so: where the library is found, the structs of
src/api/sl_api.h (sl_api_src, sl_api_settings with its sl_logits_cfg), and the
calls, each returning the JSON object the matching `samplab CMD --json` prints."""

import ctypes
import ctypes.util
import json
import os

from ._error import Error

_SONAME = "libsamplab.so.0"


def _candidates():
    env = os.environ.get("SAMPLAB_LIB")
    if env:
        yield env
    here = os.path.dirname(os.path.abspath(__file__))
    # installed: PREFIX/lib/python3/dist-packages/samplab -> PREFIX/lib
    yield os.path.join(here, "..", "..", "..", _SONAME)
    # the source tree: python/samplab -> lib/ (make lib)
    yield os.path.join(here, "..", "..", "lib", _SONAME)
    found = ctypes.util.find_library("samplab")
    if found:
        yield found
    yield _SONAME


def _load():
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
                ("data", ctypes.c_void_p), ("len", ctypes.c_size_t), ("name", ctypes.c_char_p)]


class LogitsCfg(ctypes.Structure):
    _fields_ = [("has_temperature", ctypes.c_int), ("temperature", ctypes.c_double),
                ("has_top_k", ctypes.c_int), ("top_k", ctypes.c_long),
                ("has_top_p", ctypes.c_int), ("top_p", ctypes.c_double),
                ("has_min_p", ctypes.c_int), ("min_p", ctypes.c_double),
                ("has_typical", ctypes.c_int), ("typical", ctypes.c_double),
                ("has_penalty", ctypes.c_int), ("penalty", ctypes.c_double),
                ("has_freq", ctypes.c_int), ("freq", ctypes.c_double),
                ("has_presence", ctypes.c_int), ("presence", ctypes.c_double),
                ("context", ctypes.POINTER(ctypes.c_long)), ("context_n", ctypes.c_size_t),
                ("has_last_n", ctypes.c_int), ("last_n", ctypes.c_long),
                ("has_min_keep", ctypes.c_int), ("min_keep", ctypes.c_long),
                ("defaults", ctypes.c_int), ("cpu", ctypes.c_int), ("transformers", ctypes.c_int),
                ("work", ctypes.c_void_p),  # the C caller's scratch across runs: NULL here
                ("has_order", ctypes.c_int), ("n_order", ctypes.c_size_t),
                ("order", ctypes.c_void_p * 32),  # set by the library from samplers / sampling_seq
                ("has_mirostat", ctypes.c_int), ("mirostat", ctypes.c_long),
                ("has_mirostat_tau", ctypes.c_int), ("mirostat_tau", ctypes.c_double),
                ("has_mirostat_eta", ctypes.c_int), ("mirostat_eta", ctypes.c_double),
                ("has_adaptive_target", ctypes.c_int), ("adaptive_target", ctypes.c_double),
                ("has_adaptive_decay", ctypes.c_int), ("adaptive_decay", ctypes.c_double)]


class Settings(ctypes.Structure):
    _fields_ = [("framework", ctypes.c_char_p), ("method", ctypes.c_char_p), ("rng", ctypes.c_char_p),
                ("seed", ctypes.c_char_p), ("stream", ctypes.c_char_p),
                ("has_n", ctypes.c_int), ("n", ctypes.c_size_t),
                ("has_num_samples", ctypes.c_int), ("num_samples", ctypes.c_size_t),
                ("replacement", ctypes.c_int), ("simd_sum", ctypes.c_int), ("counts", ctypes.c_int),
                ("dtype", ctypes.c_char_p), ("torch", ctypes.c_char_p), ("torch_build", ctypes.c_char_p),
                ("llamacpp", ctypes.c_char_p), ("rand", ctypes.c_char_p), ("cpu", ctypes.c_char_p),
                ("context", ctypes.c_char_p),
                ("cfg", LogitsCfg),
                ("has_alpha", ctypes.c_int), ("alpha", ctypes.c_double),
                ("has_null_reps", ctypes.c_int), ("null_reps", ctypes.c_size_t),
                ("has_trials", ctypes.c_int), ("trials", ctypes.c_size_t),
                ("tokens", ctypes.c_char_p), ("draws_file", ctypes.c_char_p), ("counts_file", ctypes.c_char_p),
                ("alpha_text", ctypes.c_char_p), ("samplers", ctypes.c_char_p), ("sampling_seq", ctypes.c_char_p),
                ("size", ctypes.c_size_t)]


lib = _load()
_P = ctypes.POINTER
_out = _P(ctypes.c_void_p)
_cl = _P(ctypes.c_long)
lib.sl_api_settings_size.restype = ctypes.c_size_t
lib.sl_api_settings_size.argtypes = []
lib.sl_api_version.restype = ctypes.c_char_p
lib.sl_api_version.argtypes = []
lib.sl_api_free.argtypes = [ctypes.c_void_p]
lib.sl_api_free.restype = None
_SIGS = {
    "sl_api_draw": [_P(Src), ctypes.c_int, _P(Settings), _out, _P(_Error)],
    "sl_api_gof": [_P(Src), ctypes.c_int, _P(ctypes.c_uint64), ctypes.c_size_t, _cl, ctypes.c_size_t,
                   _P(Settings), _out, _P(_Error)],
    "sl_api_pipeline": [_P(Src), _P(Settings), _out, _P(_Error)],
    "sl_api_replay": [_P(Src), ctypes.c_int, _cl, ctypes.c_size_t, _P(Settings), _out, _P(_Error)],
    "sl_api_check": [_P(Src), ctypes.c_int, _cl, ctypes.c_size_t, _cl, ctypes.c_size_t, _P(Settings), _out,
                     _P(_Error)],
    "sl_api_exact": [_P(Src), ctypes.c_int, _P(Settings), _out, _P(_Error)],
}
for _name, _args in _SIGS.items():
    getattr(lib, _name).argtypes = _args
    getattr(lib, _name).restype = ctypes.c_int

if lib.sl_api_settings_size() != ctypes.sizeof(Settings):
    raise ImportError("samplab: this package's sl_api_settings (%d bytes) is not the library's (%d bytes): "
                      "install the package and the library of one version"
                      % (ctypes.sizeof(Settings), lib.sl_api_settings_size()))

version = lib.sl_api_version().decode()


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
