"""samplab: verify LLM token samplers, from Python.

Each call is the samplab command of the same name, run by libsamplab.so in
this process: the same checks, the same numbers and the same fields as the
command's --json output. Keyword settings are the command's options with
'_' for '-' (top_k=40 is --top-k 40). Vectors are a list, a NumPy array, or a
string the command line would take (a path, or an inline list "3,2,2,1").
Bad input raises samplab.Error with the command's one-line message.

    import samplab
    r = samplab.gof(probs=[0.5, 0.3, 0.2], counts=[5010, 2995, 1995])
    r.verdict, r.p_value, r.tv
"""

import ctypes

from ._error import Error
from . import _lib

__all__ = ["Error", "Result", "draw", "gof", "pipeline", "replay", "check", "exact", "version"]
__version__ = _lib.version
version = _lib.version

# keyword -> (field of sl_api_settings or of its cfg, kind)
_SETTINGS = {
    "temperature": ("cfg.temperature", "double"),
    "top_k": ("cfg.top_k", "long"),
    "top_p": ("cfg.top_p", "double"),
    "min_p": ("cfg.min_p", "double"),
    "typical": ("cfg.typical", "double"),
    "repetition_penalty": ("cfg.penalty", "double"),
    "frequency_penalty": ("cfg.freq", "double"),
    "presence_penalty": ("cfg.presence", "double"),
    "penalty_last_n": ("cfg.last_n", "long"),
    "min_keep": ("cfg.min_keep", "long"),
    "defaults": ("cfg.defaults", "flag"),
    "num_samples": ("num_samples", "size"),
    "replacement": ("replacement", "flag"),
    "simd_sum": ("simd_sum", "flag"),
    "counts": ("counts", "flag"),
    "dtype": ("dtype", "str"),
    "torch": ("torch", "str"),
    "torch_build": ("torch_build", "str"),
    "llamacpp": ("llamacpp", "str"),
    "rand": ("rand", "str"),
    "cpu": ("cpu", "str"),
    "framework": ("framework", "str"),
    "method": ("method", "str"),
    "rng": ("rng", "str"),
    "seed": ("seed", "str"),
    "stream": ("stream", "str"),
    "n": ("n", "size"),
    "alpha": ("alpha", "double"),
    "null_reps": ("null_reps", "size"),
    "trials": ("trials", "size"),
}
_CFG_HAS = {"temperature": "has_temperature", "top_k": "has_top_k", "top_p": "has_top_p", "min_p": "has_min_p",
            "typical": "has_typical", "penalty": "has_penalty", "freq": "has_freq", "presence": "has_presence",
            "last_n": "has_last_n", "min_keep": "has_min_keep"}


class Result:
    """A command's --json object: every field as an attribute (r.verdict), the
    whole object as r.json. gof adds r.p_value (Pearson's) and r.tv (the value)."""

    def __init__(self, obj, command):
        self.json = obj
        self.command = command

    def __getattr__(self, name):
        obj = self.__dict__.get("json", {})
        if name in obj:
            return obj[name]
        raise AttributeError("samplab %s result has no field %r (fields: %s)"
                             % (self.__dict__.get("command"), name, ", ".join(obj)))

    def __getitem__(self, key):
        return self.json[key]

    def __repr__(self):
        return "samplab.Result(%s: %s)" % (self.command, ", ".join(sorted(self.json)))


class Draw(Result):
    """draw: .tokens (or .counts), .words (random words consumed), .rng, .version."""

    @property
    def tokens(self):
        return self.json.get("tokens")

    @property
    def words(self):
        return self.json["rng"]["words"]


class Gof(Result):
    @property
    def p_value(self):
        return self.json["chi2"]["p"]

    @property
    def tv(self):
        return self.json["tv"]["value"]

    @property
    def passed(self):
        return self.json["verdict"] == "PASS"


def _is_numpy(x):
    return type(x).__module__.split(".")[0] == "numpy"


def _npy_bytes(a):
    import io
    import numpy as np
    b = io.BytesIO()
    np.save(b, np.ascontiguousarray(a), allow_pickle=False)
    return b.getvalue()


def _num(x):
    if isinstance(x, bool):
        return "1" if x else "0"
    if isinstance(x, int):
        return str(x)
    return repr(float(x))


class _Src:
    """Keeps alive what an sl_api_src points at."""

    def __init__(self, x, what, two_d=False, tensor=None, row=None):
        self.s = _lib.Src()
        self.keep = []
        self.s.row = -1 if row is None else int(row)
        if tensor is not None:
            self.s.tensor = self._c(tensor)
        if isinstance(x, (str, bytes)) and not isinstance(x, bytes):
            self.s.spec = self._c(x)
            return
        if _is_numpy(x):
            data = _npy_bytes(x)
        elif two_d:
            data = "\n".join(",".join(_num(v) for v in step) for step in x).encode() + b"\n"
        else:
            # a list is what the command line's inline list is
            self.s.spec = self._c(",".join(_num(v) for v in x))
            return
        buf = ctypes.create_string_buffer(data, len(data))
        self.keep.append(buf)
        self.s.data = ctypes.cast(buf, ctypes.c_void_p)
        self.s.len = len(data)
        self.s.name = self._c("<%s>" % what)

    def _c(self, text):
        b = ctypes.c_char_p(str(text).encode())
        self.keep.append(b)
        return b

    def ref(self):
        return ctypes.byref(self.s)


def _settings(cmd, kw, keep):
    s = _lib.Settings()
    s.size = ctypes.sizeof(_lib.Settings)
    for key, value in kw.items():
        if value is None:
            continue
        if key not in _SETTINGS:
            raise Error("samplab %s: unknown option '--%s' (samplab %s --help)" % (cmd, key.replace("_", "-"), cmd))
        field, kind = _SETTINGS[key]
        target = s
        if field.startswith("cfg."):
            target, field = s.cfg, field[4:]
        if kind == "flag":
            if value:
                setattr(target, field, 1)
            continue
        if kind == "str":
            b = ctypes.c_char_p(str(value).encode())
            keep.append(b)
            setattr(target, field, b)
            continue
        if kind in ("long", "size"):
            if isinstance(value, bool) or int(value) != value or (kind == "size" and value < 0):
                raise Error("samplab %s: --%s takes a%s integer" % (cmd, key.replace("_", "-"),
                                                                    " non-negative" if kind == "size" else "n"))
            value = int(value)
        else:
            value = float(value)
            if value != value:
                raise Error("samplab %s: --%s takes a number, not 'nan'" % (cmd, key.replace("_", "-")))
        setattr(target, field, value)
        has = _CFG_HAS.get(field) if target is s.cfg else "has_" + field
        if has and has in dict(type(target)._fields_):
            setattr(target, has, 1)
    return s


def _source(probs, logits, cmd, two_d=False, tensor=None, row=None):
    if (probs is None) == (logits is None):
        raise Error("samplab %s: give exactly one of --probs SRC and --logits SRC" % cmd)
    x = logits if logits is not None else probs
    return _Src(x, "logits" if logits is not None else "probs", two_d, tensor, row), logits is not None


def _ids(x):
    if x is None:
        return None, 0
    xs = [int(v) for v in (x.tolist() if _is_numpy(x) else x)]
    arr = (ctypes.c_long * max(1, len(xs)))(*xs)
    return arr, len(xs)


def draw(framework=None, method=None, rng=None, probs=None, logits=None, seed=42, n=1, tensor=None, row=None,
         **settings):
    """`samplab draw`: n tokens with a method over a random source (method=, rng=), or as a framework
    draws them (framework=, its settings as keywords). Returns .tokens (.counts with counts=True) and .words."""
    src, is_logits = _source(probs, logits, "draw", tensor=tensor, row=row)
    keep = []
    ctx = settings.pop("context", None)
    s = _settings("draw", dict(settings, framework=framework, method=method, rng=rng, seed=seed, n=n), keep)
    if ctx is not None:
        text = ctx if isinstance(ctx, str) else ",".join(str(int(v)) for v in ctx)
        b = ctypes.c_char_p(text.encode())
        keep.append(b)
        s.context = b
    return Draw(_lib.call("sl_api_draw", src.ref(), int(is_logits), ctypes.byref(s)), "draw")


def _context_setting(settings, keep, s):
    ctx = settings.pop("context", None)
    if ctx is None:
        return None, 0
    if isinstance(ctx, str):
        b = ctypes.c_char_p(ctx.encode())
        keep.append(b)
        s.context = b
        return None, 0
    return _ids(ctx)


def gof(probs=None, logits=None, counts=None, draws=None, method=None, n=None, rng=None, seed=None,
        alpha=None, null_reps=None, temperature=None, tensor=None, row=None):
    """`samplab gof`: counts (V of them, or a counts file) or draws (token ids, or a draws file), or
    n draws of method, against probs or logits. Returns .verdict, .p_value, .tv and every --json field."""
    src, is_logits = _source(probs, logits, "gof", tensor=tensor, row=row)
    keep = []
    s = _settings("gof", dict(method=method, n=n, rng=rng, seed=seed, alpha=alpha, null_reps=null_reps,
                              temperature=temperature), keep)
    carr, nc, darr, nd = None, 0, None, 0
    if isinstance(counts, str):
        s.counts_file = counts.encode()
        keep.append(s.counts_file)
    elif counts is not None:
        cs = [int(v) for v in (counts.tolist() if _is_numpy(counts) else counts)]
        if any(c < 0 for c in cs):
            raise Error("samplab gof: counts must be non-negative")
        carr, nc = (ctypes.c_uint64 * max(1, len(cs)))(*cs), len(cs)
    if isinstance(draws, str):
        s.draws_file = draws.encode()
        keep.append(s.draws_file)
    elif draws is not None:
        darr, nd = _ids(draws)
    r = _lib.call("sl_api_gof", src.ref(), int(is_logits),
                  ctypes.cast(carr, ctypes.POINTER(ctypes.c_uint64)) if carr is not None else None, nc,
                  ctypes.cast(darr, ctypes.POINTER(ctypes.c_long)) if darr is not None else None, nd,
                  ctypes.byref(s))
    return Gof(r, "gof")


def pipeline(framework=None, logits=None, tensor=None, row=None, **settings):
    """`samplab pipeline`: the final distribution of framework's logits pipeline: .kept, .probs, .steps."""
    src = _Src(logits, "logits", False, tensor, row) if logits is not None else None
    if src is None:
        raise Error("samplab pipeline: --logits SRC is required")
    keep = []
    ctx = settings.pop("context", None)
    s = _settings("pipeline", dict(settings, framework=framework), keep)
    if ctx is not None:
        text = ctx if isinstance(ctx, str) else ",".join(str(int(v)) for v in ctx)
        b = ctypes.c_char_p(text.encode())
        keep.append(b)
        s.context = b
    return Result(_lib.call("sl_api_pipeline", src.ref(), ctypes.byref(s)), "pipeline")


def replay(framework=None, logits=None, probs=None, context=None, seed=None, tensor=None, **settings):
    """`samplab replay`: one sampler session across a generation's [T, V] rows, the prompt (context)
    as its history: .tokens, .words (cumulative), .kept, .rng; framework="all" gives .frameworks."""
    src, is_logits = _source(probs, logits, "replay", two_d=True, tensor=tensor)
    keep = []
    s = _settings("replay", dict(settings, framework=framework, seed=seed), keep)
    carr, cn = _context_setting({"context": context}, keep, s)
    return Result(_lib.call("sl_api_replay", src.ref(), int(is_logits),
                            ctypes.cast(carr, ctypes.POINTER(ctypes.c_long)) if carr is not None else None, cn,
                            ctypes.byref(s)), "replay")


def check(framework=None, logits=None, probs=None, tokens=None, context=None, seed=None, tensor=None, alpha=None,
          **settings):
    """`samplab check`: with seed=, the first step where the seeded sampler, replayed with the observed
    history, draws another token than tokens (.first_divergence, None if never; .observed, .predicted);
    without, the test of the whole log: .verdict, .p_value, .outside_kept, .loglik, .pit_ks, .power
    (trials=K simulated logs per fault, default 200)."""
    src, is_logits = _source(probs, logits, "check", two_d=True, tensor=tensor)
    keep = []
    s = _settings("check", dict(settings, framework=framework, seed=seed, alpha=alpha), keep)
    carr, cn = _context_setting({"context": context}, keep, s)
    tarr, tn = None, 0
    if isinstance(tokens, str):
        s.tokens = tokens.encode()
        keep.append(s.tokens)
    else:
        tarr, tn = _ids(tokens)
    return Result(_lib.call("sl_api_check", src.ref(), int(is_logits),
                            ctypes.cast(carr, ctypes.POINTER(ctypes.c_long)) if carr is not None else None, cn,
                            ctypes.cast(tarr, ctypes.POINTER(ctypes.c_long)) if tarr is not None else None, tn,
                            ctypes.byref(s)), "check")


def exact(framework=None, method=None, probs=None, logits=None, tensor=None, row=None, **settings):
    """`samplab exact`: the distribution a sampler induces, counted exactly: .tv, .induced (rationals),
    .never, .zero_drawn, .paths."""
    src, is_logits = _source(probs, logits, "exact", tensor=tensor, row=row)
    keep = []
    s = _settings("exact", dict(settings, framework=framework, method=method), keep)
    return Result(_lib.call("sl_api_exact", src.ref(), int(is_logits), ctypes.byref(s)), "exact")
