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
import numbers

from ._error import Error
from . import _lib

__all__ = ["Error", "Result", "draw", "gof", "pipeline", "replay", "check", "exact", "compare", "power", "calibrate",
           "version"]
__version__ = _lib.version
version = _lib.version

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
    """draw: .tokens (or .counts), .words (random words consumed), .rng, .version; a batch ([B, V]
    rows) adds .rows and .row_words (row b's running total after each of its calls)."""

    @property
    def tokens(self):
        return self.json.get("tokens")

    @property
    def words(self):
        return self.json["rng"]["words"]

    @property
    def row_words(self):
        return self.json.get("words")


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


def _num(x, what="vector"):
    """An entry as the text of an inline list: the reader then refuses what the
    command line refuses in that text (a string entry is passed as typed)."""
    if isinstance(x, bool):
        return "1" if x else "0"
    if isinstance(x, numbers.Integral):
        return str(int(x))
    if isinstance(x, numbers.Real):
        return repr(float(x))
    if isinstance(x, str):
        return x
    raise Error("samplab: <%s>: an entry is a %s, not a number" % (what, type(x).__name__))


def _is_row(x):
    return isinstance(x, (list, tuple)) or (_is_numpy(x) and getattr(x, "ndim", 0) >= 1)


class _Src:
    """Keeps alive what an sl_api_src points at."""

    def __init__(self, x, what, two_d=False, tensor=None, row=None, cmd="draw"):
        self.s = _lib.Src()
        self.keep = []
        self.s.row = -1 if row is None else int(_checked(cmd, "row", row))
        if tensor is not None:
            self.s.tensor = self._c(tensor)
        if x is None:               # no source: the call refuses it with the command's line
            return
        if isinstance(x, str):
            self.s.spec = self._c(x)
            return
        if isinstance(x, (list, tuple)) and len(x) > 1 and all(isinstance(r, str) for r in x):
            # a batch given one source per row (replay, check: --logits once per row)
            self.s.spec = self._c(x[0])
            arr = (ctypes.c_char_p * len(x))(*[str(r).encode() for r in x])
            self.keep.append(arr)
            self.s.rows = ctypes.cast(arr, ctypes.POINTER(ctypes.c_char_p))
            self.s.n_rows = len(x)
            return
        if not two_d and isinstance(x, (list, tuple)) and len(x) and all(_is_row(r) for r in x):
            # a [B, V] batch for draw: the command line's inline rows separated by ';'
            self.s.spec = self._c(";".join(",".join(_num(v, what) for v in r) for r in x))
            return
        if two_d and isinstance(x, (list, tuple)) and any(_is_row(r) and any(_is_row(v) for v in r) for r in x):
            raise Error("samplab: <%s>: a list of steps of rows: give a [T, B, V] batch as a NumPy array, a .npy or "
                        ".safetensors file, or one source per row" % what)
        if isinstance(x, (bytes, bytearray, memoryview)):
            data = bytes(x)         # a file's contents: a .npy image or text, read as the file would be
        elif _is_numpy(x):
            data = _npy_bytes(x)
        elif two_d and len(x) and all(_is_row(step) for step in x):
            data = "\n".join(",".join(_num(v, what) for v in step) for step in x).encode() + b"\n"
        elif two_d and any(_is_row(step) for step in x):
            raise Error("samplab: <%s>: rows mixed with numbers: a 2-D list is a list of rows" % what)
        else:
            # a list is what the command line's inline list is (rows: a flat list is one step)
            self.s.spec = self._c(",".join(_num(v, what) for v in x))
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


_LONG_MIN, _LONG_MAX = -2 ** 63, 2 ** 63 - 1


def _option_text(value, kind):
    """The word the command line would be given for value (an integral float counts as its
    integer where the option takes one)."""
    if isinstance(value, str):
        return value
    if isinstance(value, numbers.Real) and not isinstance(value, (bool, numbers.Integral)) and \
            float(value).is_integer() and kind in ("long", "size", "index"):
        value = int(value)
    if isinstance(value, numbers.Integral) and not isinstance(value, bool):
        return str(int(value))
    if isinstance(value, numbers.Real) and not isinstance(value, bool):
        return repr(float(value))
    return str(value)


def _kind(key):
    return _lib.schema.get(key, {}).get("kind")


def _checked(cmd, key, value):
    """value as the text the option keyed key takes, checked by the library's parser (the
    command line's, with its message)."""
    text = _option_text(value, _kind(key))
    _lib.check(cmd, key, text)
    return text


def _settings(cmd, kw):
    """The library's settings for cmd with each keyword set as the command line sets its option
    (the library's schema names, parses and refuses them)."""
    s = _lib.Settings(cmd)
    for key, value in kw.items():
        if value is None:
            continue
        if _kind(key) == "flag":
            if value:
                s.set(key, None)
            continue
        if _kind(key) == "list" and isinstance(value, (list, tuple)):
            for v in value:  # a repeatable option (dry_sequence_breaker=["\n", ":"]): each use in order
                s.set(key, _option_text(v, "string"))
            continue
        s.set(key, _option_text(value, _kind(key)))
    return s


def _source(probs, logits, cmd, two_d=False, tensor=None, row=None):
    if (probs is None) == (logits is None):
        return _Src(None, "probs", two_d, tensor, row, cmd), False
    x = logits if logits is not None else probs
    return _Src(x, "logits" if logits is not None else "probs", two_d, tensor, row, cmd), \
        logits is not None


def _ids_text(x, what):
    """Token ids as the inline list the command line takes (--context 1,2 / --tokens 1,2): the
    library reads and checks them as it does that text, with the same message."""
    if isinstance(x, str):
        return x
    if _is_numpy(x):
        if getattr(x, "ndim", 1) not in (1, 2):
            raise Error("samplab: <%s>: a %d-D array; token ids are a 1-D list (a batch: a 2-D list of rows)"
                        % (what, x.ndim))
        x = x.tolist()
    if len(x) and all(_is_row(r) for r in x):
        # a batch: one row of ids per prompt (or per row of observed tokens), as --context "1,2;3,4"
        return ";".join(",".join(_num(v, what) for v in r) for r in x)
    return ",".join(_num(v, what) for v in x)


def _whole(v):
    """v as an int when it is a whole number (an int, or a float such as 3.0), else None."""
    if isinstance(v, bool) or not isinstance(v, numbers.Real):
        return None
    if isinstance(v, numbers.Integral):
        return int(v)
    return int(v) if float(v).is_integer() else None


def _draw_ids(x):
    """gof's draws as token ids, each a whole number (what a draws file holds)."""
    if _is_numpy(x):
        if getattr(x, "ndim", 1) != 1:
            raise Error("samplab: <draws>: a %d-D array; draws are a 1-D list of token ids" % x.ndim)
        x = x.tolist()
    out = []
    for i, v in enumerate(x):
        w = _whole(v)
        if w is None:
            raise Error("samplab: <draws>: draw %d: '%s' is not a token id: token ids are integers" % (i, v))
        v = w
        if not _LONG_MIN <= int(v) <= _LONG_MAX:
            raise Error("samplab: <draws>: draw %d: token %d is not a token id" % (i, v))
        out.append(int(v))
    return (ctypes.c_long * max(1, len(out)))(*out), len(out)


def _counts(x):
    """gof's V counts, each a whole number >= 0 (what a counts file holds)."""
    if _is_numpy(x):
        if getattr(x, "ndim", 1) != 1:
            raise Error("samplab: <counts>: a %d-D array; counts are a 1-D list, one per token id" % x.ndim)
        x = x.tolist()
    out = []
    for i, v in enumerate(x):
        w = _whole(v)
        if w is None:
            raise Error("samplab: <counts>: token %d: '%s' is not a count: a count is a whole number" % (i, v))
        v = w
        if v < 0:
            raise Error("samplab gof: counts must be non-negative")
        if v > 2 ** 53:
            raise Error("samplab: <counts>: token %d: %d is not a count: larger than 2^53, the most samplab's "
                        "statistics hold exactly" % (i, v))
        out.append(int(v))
    return (ctypes.c_uint64 * max(1, len(out)))(*out), len(out)


def draw(framework=None, method=None, rng=None, probs=None, logits=None, seed=None, n=1, tensor=None, row=None,
         **settings):
    """`samplab draw`: n tokens with a method over a random source (method=, rng=), or as a framework
    draws them (framework=, its settings as keywords). Returns .tokens (.counts with counts=True) and .words.
    seed=None is the command's default: 42, except gsl's gsl_rng_default_seed 0 (as samplab draw
    without --seed). A batch (hf, torch): probs or logits a list of rows, or a 2-D array or file
    ([B, V]): .tokens[b], .row_words[b]."""
    src, is_logits = _source(probs, logits, "draw", tensor=tensor, row=row)
    s = _settings("draw", _with_context(settings, framework=framework, method=method, rng=rng, seed=seed, n=n))
    return Draw(_lib.call("sl_api_draw", src.ref(), int(is_logits), s.p), "draw")


def _with_context(settings, **more):
    """settings and more, the prompt's token ids (context=) as the inline list the command takes."""
    kw = dict(settings, **more)
    if kw.get("context") is not None:
        kw["context"] = _ids_text(kw["context"], "context")
    return kw


def gof(probs=None, logits=None, counts=None, draws=None, method=None, n=None, rng=None, seed=None,
        alpha=None, null_reps=None, temperature=None, tensor=None, row=None):
    """`samplab gof`: counts (V of them, or a counts file) or draws (token ids, or a draws file), or
    n draws of method, against probs or logits. Returns .verdict, .p_value, .tv and every --json field."""
    src, is_logits = _source(probs, logits, "gof", tensor=tensor, row=row)
    s = _settings("gof", dict(method=method, n=n, rng=rng, seed=seed, alpha=alpha, null_reps=null_reps,
                              temperature=temperature, counts_file=counts if isinstance(counts, str) else None,
                              draws=draws if isinstance(draws, str) else None))
    carr, nc, darr, nd = None, 0, None, 0
    if counts is not None and not isinstance(counts, str):
        carr, nc = _counts(counts)
    if draws is not None and not isinstance(draws, str):
        darr, nd = _draw_ids(draws)
    r = _lib.call("sl_api_gof", src.ref(), int(is_logits),
                  ctypes.cast(carr, ctypes.POINTER(ctypes.c_uint64)) if carr is not None else None, nc,
                  ctypes.cast(darr, ctypes.POINTER(ctypes.c_long)) if darr is not None else None, nd,
                  s.p)
    return Gof(r, "gof")


def pipeline(framework=None, logits=None, tensor=None, row=None, **settings):
    """`samplab pipeline`: the final distribution of framework's logits pipeline: .kept, .probs, .steps."""
    return _logits_command("pipeline", logits, tensor, row, dict(settings, framework=framework))


def _logits_command(cmd, logits, tensor, row, settings):
    """pipeline and compare: a --logits source, the settings, the context as the inline list."""
    src = _Src(logits, "logits", False, tensor, row, cmd)
    s = _settings(cmd, _with_context(settings))
    return Result(_lib.call("sl_api_" + cmd, src.ref(), s.p), cmd)


def replay(framework=None, logits=None, probs=None, context=None, seed=None, tensor=None, **settings):
    """`samplab replay`: one sampler session across a generation's [T, V] rows, the prompt (context)
    as its history: .tokens, .words (cumulative), .kept, .rng; framework="all" gives .frameworks.
    A batch (hf, torch): logits a [T, B, V] array or file, or a list of one source per row; context a
    list of prompt rows; num_return_sequences=, eos_token_id=, pad_token_id= (hf): .tokens[b][t],
    .words[b][t] (the generator's running total after row b's draw at step t), .kept[b][t]."""
    src, is_logits = _source(probs, logits, "replay", two_d=True, tensor=tensor)
    s = _settings("replay", _with_context(settings, framework=framework, seed=seed, context=context))
    return Result(_lib.call("sl_api_replay", src.ref(), int(is_logits), None, 0, s.p), "replay")


def check(framework=None, logits=None, probs=None, tokens=None, context=None, seed=None, tensor=None, alpha=None,
          **settings):
    """`samplab check`: with seed=, the first step where the seeded sampler, replayed with the observed
    history, draws another token than tokens (.first_divergence, None if never; .observed, .predicted);
    without, the test of the whole log: .verdict, .p_value, .outside_kept, .loglik, .pit_ks, .power
    (trials=K simulated logs per fault, default 200). A batch takes the rows as replay does, tokens a
    list of rows, and a seed: .first_divergence and .row."""
    src, is_logits = _source(probs, logits, "check", two_d=True, tensor=tensor)
    s = _settings("check", _with_context(settings, framework=framework, seed=seed, alpha=alpha, context=context,
                                         tokens=None if tokens is None else _ids_text(tokens, "tokens")))
    return Result(_lib.call("sl_api_check", src.ref(), int(is_logits), None, 0, None, 0, s.p), "check")


def exact(framework=None, method=None, probs=None, logits=None, tensor=None, row=None, **settings):
    """`samplab exact`: the distribution a sampler induces, counted exactly: .tv, .induced (rationals),
    .never, .zero_drawn, .paths."""
    src, is_logits = _source(probs, logits, "exact", tensor=tensor, row=row)
    s = _settings("exact", dict(settings, framework=framework, method=method))
    return Result(_lib.call("sl_api_exact", src.ref(), int(is_logits), s.p), "exact")


def compare(logits=None, frameworks=None, tensor=None, row=None, **settings):
    """`samplab compare`: the same logits and settings through several frameworks' pipelines
    (frameworks: a list or "a,b,..."; default every one that has the settings): .frameworks (kept,
    entropy, top), .pairs (TV, ids one keeps and the other drops, translations), .skipped, .notes."""
    if frameworks is not None and not isinstance(frameworks, str):
        frameworks = ",".join(frameworks)
    return _logits_command("compare", logits, tensor, row, dict(settings, frameworks=frameworks))


def power(probs=None, logits=None, n=None, alpha=None, trials=None, target=None, fault=None, temperature=None,
          tensor=None, row=None):
    """`samplab power`: for each fault family, the smallest fault each test detects with power
    target (default 0.9) at n draws: .faults; fault="mkl-seed-collision" takes no vector (.needed, .at_n)."""
    s = _settings("power", dict(n=n, alpha=alpha, trials=trials, target=target, fault=fault,
                                temperature=temperature))
    if probs is None and logits is None and fault == "mkl-seed-collision":
        return Result(_lib.call("sl_api_power", None, 0, s.p), "power")
    src, is_logits = _source(probs, logits, "power", tensor=tensor, row=row)
    return Result(_lib.call("sl_api_power", src.ref(), int(is_logits), s.p), "power")


def calibrate(probs=None, logits=None, method=None, n=None, seeds=None, first_seed=None, rng=None, temperature=None,
              tensor=None, row=None):
    """`samplab calibrate`: gof's chi-square p-value for each of seeds seeds (first_seed, +1, ...)
    of n draws of method, and their KS test of uniformity: .verdict (PASS or SUSPECT), .ks, .pvalues."""
    src, is_logits = _source(probs, logits, "calibrate", tensor=tensor, row=row)
    s = _settings("calibrate", dict(method=method, n=n, seeds=seeds, first_seed=first_seed, rng=rng,
                                    temperature=temperature))
    return Result(_lib.call("sl_api_calibrate", src.ref(), int(is_logits), s.p), "calibrate")
