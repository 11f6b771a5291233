"""The calls: each is the samplab command of the same name, run by libsamplab in this process,
with the command's checks, numbers and --json fields; settings are keyword-only, named as the
command's options with '_' for '-'."""

import ctypes
import dataclasses
import functools
import numbers
import re
import reprlib
from typing import Any, Dict, List, Optional, Sequence, Union

from ._error import Error
from . import _lib
from . import _run

Vector = Union[str, bytes, Sequence[float], Any]  # a list, a NumPy array or torch tensor, bytes, a path or inline list


def _short(value):
    r = reprlib.Repr()
    r.maxlist = r.maxtuple = 6
    r.maxdict = 6
    r.maxstring = r.maxother = 60
    r.maxlevel = 3
    return r.repr(value)


@dataclasses.dataclass(frozen=True, repr=False)
class Result:
    """A command's --json object: every field as an attribute (r.verdict), the whole object as
    r.json; the repr shows the values (long lists shortened)."""

    command: str
    json: Dict[str, Any]

    def __getattr__(self, name):
        obj = self.__dict__.get("json", {})
        if name in obj:
            return obj[name]
        raise AttributeError("samplab %s result has no field %r (fields: %s)"
                             % (self.__dict__.get("command"), name, ", ".join(obj)))

    def __getitem__(self, key):
        return self.json[key]

    def _extra(self):
        return []

    def __repr__(self):
        extra = self._extra()
        parts = ["%s=%s" % (k, _short(v)) for k, v in extra]
        parts += ["%s=%s" % (k, _short(v)) for k, v in self.json.items() if k not in dict(extra)]
        return "samplab.%s(%s)" % (type(self).__name__ if type(self) is not Result else "Result[%s]" % self.command,
                                   ", ".join(parts))


@dataclasses.dataclass(frozen=True, repr=False)
class Draw(Result):
    """draw: .tokens (or .counts), .words (random words consumed), .rng, .version; a batch ([B, V]
    rows) adds .rows and .row_words (row b's running total after each of its calls)."""

    @property
    def tokens(self) -> Optional[list]:
        return self.json.get("tokens")

    @property
    def words(self) -> int:
        return self.json["rng"]["words"]

    @property
    def row_words(self) -> Optional[list]:
        return self.json.get("words")


@dataclasses.dataclass(frozen=True, repr=False)
class Gof(Result):
    """gof: .verdict, .passed, .p_value (Pearson's), .tv (the value), .rule, and every --json field."""

    @property
    def p_value(self) -> float:
        return self.json["chi2"]["p"]

    @property
    def tv(self) -> float:
        return self.json["tv"]["value"]

    @property
    def passed(self) -> bool:
        return self.json["verdict"] == "PASS"

    def _extra(self):
        return [("verdict", self.json.get("verdict")), ("p_value", self.p_value), ("tv", self.tv)]


_OPT = re.compile(r"--([a-z0-9][a-z0-9-]*)( (?=[A-Z0-9])[A-Z0-9][A-Za-z0-9._]*)?")
_HELP = re.compile(r"\s*\(samplab [a-z-]+ --help\)")
_CMD = re.compile(r"^samplab ([a-z-]+): ")


def _pythonic(msg):
    """The library's line worded for Python: an option --top-k is the keyword top_k (--vocab FILE is
    vocab=FILE), the command `samplab draw:` is samplab.draw(), and the pointer to --help goes."""
    by_option = {v.get("option"): k for k, v in _lib.schema.items()}

    def key(m):
        k = m.group(1).replace("-", "_")
        if k not in _lib.schema:
            k = by_option.get("--" + m.group(1), k)
        return k + ("=" + m.group(2)[1:] if m.group(2) else "")

    msg = _HELP.sub("", msg)
    msg = _CMD.sub(lambda m: "samplab.%s(): " % m.group(1).replace("-", "_"), msg)
    return _OPT.sub(key, msg)


def _translated(fn):
    """fn, its samplab.Error worded for Python (_pythonic)."""

    @functools.wraps(fn)
    def call(*args, **kw):
        __tracebackhide__ = True  # pytest shows the caller's line, not this wrapper
        try:
            return fn(*args, **kw)
        except Error as e:
            raise Error(_pythonic(str(e))) from None

    return call


def _no_nul(text, what):
    if "\0" in text:
        raise Error("samplab: %s: %r holds a NUL character, which would end the text early" % (what, text))
    return text


def _is_numpy(x):
    return type(x).__module__.split(".")[0] == "numpy"


def _as_numpy(x):
    """A torch tensor as the NumPy array of its values (on the CPU, detached); anything else as is."""
    if type(x).__module__.split(".")[0] == "torch" and hasattr(x, "detach"):
        return x.detach().cpu().numpy()
    return x


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
        # a string entry is passed as typed; one holding a separator would splice itself into several
        if any(c in x for c in ",;\n\r\0"):
            raise Error("samplab: <%s>: entry %r holds a comma, semicolon, newline or NUL: one entry is one number"
                        % (what, x))
        return x
    raise Error("samplab: <%s>: an entry is a %s, not a number" % (what, type(x).__name__))


def _is_row(x):
    return isinstance(x, (list, tuple)) or (_is_numpy(x) and getattr(x, "ndim", 0) >= 1)


class _Src:
    """Keeps alive what an sl_api_src points at."""

    def __init__(self, x, what, two_d=False, tensor=None, row=None, cmd="draw"):
        self.s = _lib.Src()
        self.keep = []
        self.what = what
        self.s.row = -1 if row is None else int(_checked(cmd, "row", row))
        x = _as_numpy(x)
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
            arr = (ctypes.c_char_p * len(x))(*[_no_nul(str(r), "<%s>" % what).encode() for r in x])
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
        b = ctypes.c_char_p(_no_nul(str(text), self.what).encode())
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
    text = _no_nul(_option_text(value, _kind(key)), key)
    try:
        with _run.c_locale():
            _lib.check(cmd, key, text)
    except Error as e:
        if _not_taken(e):
            raise TypeError("samplab.%s() got an unexpected keyword argument %r" % (cmd, key)) from None
        raise
    return text


def _not_taken(e):
    """Whether the library's refusal e says the command has no such option (a command-line-only
    option such as --json, or one of another command): a keyword the call does not have."""
    return "unknown option" in str(e) or " is not an option of " in str(e)


def _settings(cmd, kw):
    """The library's settings for cmd with each keyword set as the command line sets its option
    (the library's schema names, parses and refuses them)."""
    s = _lib.Settings(cmd)
    for key, value in kw.items():
        if value is None:
            continue
        if key not in _lib.schema:
            raise TypeError("samplab.%s() got an unexpected keyword argument %r" % (cmd, key))
        if _kind(key) == "flag":
            if value:
                _set(s, cmd, key, None)
            continue
        if _kind(key) == "list" and isinstance(value, (list, tuple)):
            for v in value:  # a repeatable option (dry_sequence_breaker=["\n", ":"]): each use in order
                _set(s, cmd, key, _option_text(v, "string"))
            continue
        _set(s, cmd, key, _option_text(value, _kind(key)))
    return s


def _set(s, cmd, key, text):
    """s.set under the C locale; a key the library knows but no call of cmd takes (--json, --out)
    is a keyword cmd does not have: TypeError, as Python says of any unknown keyword."""
    if text is not None:
        _no_nul(text, key)
    try:
        with _run.c_locale():
            s.set(key, text)
    except Error as e:
        if _not_taken(e):
            raise TypeError("samplab.%s() got an unexpected keyword argument %r" % (cmd, key)) from None
        raise


def _call(name, *args, keep=()):
    """_lib.call(name, args) in an interruptible worker under the C locale (_run)."""
    return _run.interruptible(_lib.call, name, *args, keep=keep)


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
    x = _as_numpy(x)
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


def _one_d(x, what, rule):
    """x as a list: a numpy array or torch tensor must be 1-D (rule says why)."""
    x = _as_numpy(x)
    if _is_numpy(x):
        if getattr(x, "ndim", 1) != 1:
            raise Error("samplab: %s: a %d-D array; %s" % (what, x.ndim, rule))
        x = x.tolist()
    return x


def _draw_ids(x):
    """gof's draws as token ids, each a whole number (what a draws file holds)."""
    x = _one_d(x, "<draws>", "draws are a 1-D list of token ids")
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
    x = _one_d(x, "<counts>", "counts are a 1-D list, one per token id")
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


def _with_context(settings, **more):
    """settings and more, the prompt's token ids (context=) as the inline list the command takes."""
    kw = dict(settings, **more)
    if kw.get("context") is not None:
        kw["context"] = _ids_text(kw["context"], "context")
    return kw


V = Optional[Vector]
S = Optional[str]


@_translated
def draw(*, framework: S = None, method: S = None, rng: S = None, probs: V = None, logits: V = None,
         seed: Optional[int] = None, n: int = 1, tensor: S = None, row: Optional[int] = None, **settings: Any) -> Draw:
    """`samplab draw`: n tokens with a method over a random source (method=, rng=), or as a framework
    draws them (framework=, its settings as keywords). Returns .tokens (.counts with counts=True) and .words.
    seed=None is the command's default: 42, except gsl's gsl_rng_default_seed 0 (as samplab draw
    without --seed). A batch (hf, torch): probs or logits a list of rows, or a 2-D array or file
    ([B, V]): .tokens[b], .row_words[b]."""
    src, is_logits = _source(probs, logits, "draw", tensor=tensor, row=row)
    s = _settings("draw", _with_context(settings, framework=framework, method=method, rng=rng, seed=seed, n=n))
    return Draw("draw", _call("sl_api_draw", src.ref(), int(is_logits), s.p, keep=(src, s)))


@_translated
def gof(*, probs: V = None, logits: V = None, counts: V = None, draws: V = None, method: S = None,
        n: Optional[int] = None, rng: S = None, seed: Optional[int] = None, alpha: Optional[float] = None,
        null_reps: Optional[int] = None, temperature: Optional[float] = None, tensor: S = None,
        row: Optional[int] = None) -> Gof:
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
    r = _call("sl_api_gof", src.ref(), int(is_logits),
              ctypes.cast(carr, ctypes.POINTER(ctypes.c_uint64)) if carr is not None else None, nc,
              ctypes.cast(darr, ctypes.POINTER(ctypes.c_long)) if darr is not None else None, nd,
              s.p, keep=(src, s, carr, darr))
    return Gof("gof", r)


@_translated
def pipeline(*, framework: S = None, logits: V = None, tensor: S = None, row: Optional[int] = None,
             **settings: Any) -> Result:
    """`samplab pipeline`: the final distribution of framework's logits pipeline: .kept, .probs, .steps."""
    return _logits_command("pipeline", logits, tensor, row, dict(settings, framework=framework))


def _logits_command(cmd, logits, tensor, row, settings):
    """pipeline and compare: a --logits source, the settings, the context as the inline list."""
    src = _Src(logits, "logits", False, tensor, row, cmd)
    s = _settings(cmd, _with_context(settings))
    return Result(cmd, _call("sl_api_" + cmd, src.ref(), s.p, keep=(src, s)))


@_translated
def replay(*, framework: S = None, logits: V = None, probs: V = None, context: Any = None,
           seed: Optional[int] = None, tensor: S = None, **settings: Any) -> Result:
    """`samplab replay`: one sampler session across a generation's [T, V] rows, the prompt (context)
    as its history: .tokens, .words (cumulative), .kept, .rng; framework="all" gives .frameworks.
    A batch (hf, torch): logits a [T, B, V] array or file, or a list of one source per row; context a
    list of prompt rows; num_return_sequences=, eos_token_id=, pad_token_id= (hf): .tokens[b][t],
    .words[b][t] (the generator's running total after row b's draw at step t), .kept[b][t]."""
    src, is_logits = _source(probs, logits, "replay", two_d=True, tensor=tensor)
    s = _settings("replay", _with_context(settings, framework=framework, seed=seed, context=context))
    return Result("replay", _call("sl_api_replay", src.ref(), int(is_logits), None, 0, s.p, keep=(src, s)))


@_translated
def check(*, framework: S = None, logits: V = None, probs: V = None, tokens: Any = None, context: Any = None,
          seed: Optional[int] = None, tensor: S = None, alpha: Optional[float] = None, **settings: Any) -> Result:
    """`samplab check`: with seed=, the first step where the seeded sampler, replayed with the observed
    history, draws another token than tokens (.first_divergence, None if never; .observed, .predicted);
    without, the test of the whole log: .verdict, .p_value, .outside_kept, .loglik, .pit_ks, .power
    (trials=K simulated logs per fault, default 200). A batch takes the rows as replay does, tokens a
    list of rows, and a seed: .first_divergence and .row."""
    src, is_logits = _source(probs, logits, "check", two_d=True, tensor=tensor)
    s = _settings("check", _with_context(settings, framework=framework, seed=seed, alpha=alpha, context=context,
                                         tokens=None if tokens is None else _ids_text(tokens, "tokens")))
    return Result("check", _call("sl_api_check", src.ref(), int(is_logits), None, 0, None, 0, s.p, keep=(src, s)))


@_translated
def exact(*, framework: S = None, method: S = None, probs: V = None, logits: V = None, tensor: S = None,
          row: Optional[int] = None, **settings: Any) -> Result:
    """`samplab exact`: the distribution a sampler induces, counted exactly: .tv, .induced (rationals),
    .never, .zero_drawn, .paths."""
    src, is_logits = _source(probs, logits, "exact", tensor=tensor, row=row)
    s = _settings("exact", dict(settings, framework=framework, method=method))
    return Result("exact", _call("sl_api_exact", src.ref(), int(is_logits), s.p, keep=(src, s)))


@_translated
def compare(*, logits: V = None, frameworks: Union[None, str, Sequence[str]] = None, tensor: S = None,
            row: Optional[int] = None, **settings: Any) -> Result:
    """`samplab compare`: the same logits and settings through several frameworks' pipelines
    (frameworks: a list or "a,b,..."; default every one that has the settings): .frameworks (kept,
    entropy, top), .pairs (TV, ids one keeps and the other drops, translations), .skipped, .notes."""
    if frameworks is not None and not isinstance(frameworks, str):
        frameworks = ",".join(frameworks)
    return _logits_command("compare", logits, tensor, row, dict(settings, frameworks=frameworks))


@_translated
def power(*, probs: V = None, logits: V = None, n: Optional[int] = None, alpha: Optional[float] = None,
          trials: Optional[int] = None, target: Optional[float] = None, fault: S = None,
          temperature: Optional[float] = None, tensor: S = None, row: Optional[int] = None) -> Result:
    """`samplab power`: for each fault family, the smallest fault each test detects with power
    target (default 0.9) at n draws: .faults; fault="mkl-seed-collision" takes no vector (.needed, .at_n)."""
    s = _settings("power", dict(n=n, alpha=alpha, trials=trials, target=target, fault=fault,
                                temperature=temperature))
    if probs is None and logits is None and fault == "mkl-seed-collision":
        return Result("power", _call("sl_api_power", None, 0, s.p, keep=(s,)))
    src, is_logits = _source(probs, logits, "power", tensor=tensor, row=row)
    return Result("power", _call("sl_api_power", src.ref(), int(is_logits), s.p, keep=(src, s)))


@_translated
def calibrate(*, probs: V = None, logits: V = None, method: S = None, n: Optional[int] = None,
              seeds: Optional[int] = None, first_seed: Optional[int] = None, rng: S = None,
              temperature: Optional[float] = None, tensor: S = None, row: Optional[int] = None) -> Result:
    """`samplab calibrate`: gof's chi-square p-value for each of seeds seeds (first_seed, +1, ...)
    of n draws of method, and their KS test of uniformity: .verdict (PASS or SUSPECT), .ks, .pvalues."""
    src, is_logits = _source(probs, logits, "calibrate", tensor=tensor, row=row)
    s = _settings("calibrate", dict(method=method, n=n, seeds=seeds, first_seed=first_seed, rng=rng,
                                    temperature=temperature))
    return Result("calibrate", _call("sl_api_calibrate", src.ref(), int(is_logits), s.p, keep=(src, s)))


@_translated
def audit(*, server: S = None, log: S = None, **settings: Any) -> Result:
    """`samplab audit`: a serving engine's sampler judged through its HTTP API (server="http://...",
    with prompt= or prompt_ids=, seed=, n_predict=, requests=, send=, api=, model=, out=, ...) or a
    recorded log (log=FILE: samplab audit's audit.jsonl, or one response body a line), against
    llama.cpp's chain with the settings given and llama-server's defaults: .verdict ("consistent" or
    "rejected", returned, not raised), .seed_honoured, .settings_honoured, .outside_kept, .post_sampling,
    .distribution, .p_value, .predicted, .sufficed, .concurrency (each True, False or None)."""
    kw = _with_context(settings, server=server, log=log)
    if kw.get("prompt_ids") is not None:
        kw["prompt_ids"] = _ids_text(kw["prompt_ids"], "prompt_ids")
    s = _settings("audit", kw)
    return Result("audit", _call("sl_api_audit", s.p, keep=(s,)))
