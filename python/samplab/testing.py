"""Assertions for a test suite (pytest or unittest), in the manner of numpy.testing: does my
sampler draw from the distribution it claims, and does it draw the very tokens a framework does.

    from samplab.testing import assert_distribution
    def test_my_sampler():
        assert_distribution(probs, sampler=lambda: my_sample(probs), n=100_000)
"""

import numbers
import os
import warnings
from typing import Any, Callable, List, Optional, Sequence

from . import _calls
from ._calls import Gof, draw, gof, power, replay

__all__ = ["assert_distribution", "assert_matches", "PowerWarning"]


class PowerWarning(UserWarning):
    """assert_distribution's n gives under 50 % power against the effect it was told to detect."""


def _flat(tokens):
    out = []
    for t in _calls._as_numpy(tokens) if not isinstance(tokens, (list, tuple)) else tokens:
        if isinstance(t, (list, tuple)) or getattr(t, "ndim", 0) >= 1:
            out.extend(_flat(t))
        else:
            out.append(int(t))
    return out


def _token(x, i, V):
    """Draw i as a token id in 0..V-1: a whole number (int() would turn 1.7 into token 1 without a word)."""
    if isinstance(x, bool) or not isinstance(x, numbers.Integral) and \
            not (isinstance(x, numbers.Real) and float(x).is_integer()):
        raise AssertionError("draw %d: %r is not a token id (a whole number)" % (i, x))
    t = int(x)
    if not 0 <= t < V:
        raise AssertionError("draw %d: token %d is not in 0..%d" % (i, t, V - 1))
    return t


def _weights(probs):
    """probs as a list of floats, for the independence check's cells (a path or an inline list is
    read as the command line reads a text or .npy file; the library then checks the same vector)."""
    x = _calls._as_numpy(probs)
    if isinstance(x, str):
        if x.endswith(".npy"):
            import numpy as np
            return [float(v) for v in np.load(x).ravel()]
        text = open(x).read() if os.path.exists(x) else x
        return [float(v) for v in text.replace(",", " ").split()]
    if hasattr(x, "ravel"):
        return [float(v) for v in x.ravel()]
    return [float(v) for v in x]


def _collect(sampler, n):
    """n draws from sampler(): each call returns one token id, or an array or list of them (a batch)."""
    out = []
    while len(out) < n:
        x = _calls._as_numpy(sampler())
        if isinstance(x, (list, tuple)) or getattr(x, "ndim", 0) >= 1:
            batch = x.ravel().tolist() if hasattr(x, "ravel") else list(x)
            if not batch:
                raise AssertionError("the sampler returned an empty batch after %d draws" % len(out))
            out.extend(batch)
        else:
            out.append(x.item() if hasattr(x, "item") else x)
    return out[:n]


def _groups(p, most=16):
    """Token -> group: consecutive ids with about equal mass, at most `most` groups, so the pair
    table has at most most^2 cells whatever V is (a zero-probability token joins its neighbours)."""
    total = sum(p)
    g, acc, out = 0, 0.0, []
    for w in p:
        out.append(g)
        acc += w / total
        if acc >= (g + 1) / most and g < most - 1:
            g += 1
    return out, max(out) + 1


def _independence(draws, p, alpha):
    """The serial test over non-overlapping pairs (x1, x2), (x3, x4), ...: under independent draws
    from p a pair falls in cell (a, b) with probability P(a) P(b); samplab's gof tests those cells
    (its pooling, its rule). A sampler that cycles through a fixed sequence fails it however well
    its frequencies match."""
    group, G = _groups(p)
    mass = [0.0] * G
    for t, w in enumerate(p):
        mass[group[t]] += w
    cells = [a * b for a in mass for b in mass]
    counts = [0] * (G * G)
    for i in range(0, len(draws) - 1, 2):
        counts[group[draws[i]] * G + group[draws[i + 1]]] += 1
    return gof(probs=cells, counts=counts, alpha=alpha)


def _power_check(probs, n, alpha, effect, underpowered):
    """Under 50 % power at n draws against a fault of TV `effect`: samplab power's smallest TV its gof
    detects with power 0.5, per fault family of continuous size (shift, leak, temper), above effect
    -> PowerWarning (or AssertionError)."""
    r = power(probs=probs, n=n, alpha=alpha, target=0.5, trials=100)
    weak = []
    for family, f in r.faults.items():
        # topk's sizes are whole k: its smallest fault may be larger than effect, and then no n helps
        if not f.get("applies") or family == "topk":
            continue
        s = f["smallest"]["gof"]
        if not s["detected"] or s["tv"] > effect:
            weak.append("%s (smallest TV detected half the time: %s)" % (family, "none" if not s["detected"] else
                                                                          "%.3g" % s["tv"]))
    if not weak:
        return
    msg = ("n = %d draws detect a fault of TV %g with under 50 %% power: %s; samplab power(probs=..., n=...) "
           "finds the n that does" % (n, effect, "; ".join(weak)))
    if underpowered == "fail":
        raise AssertionError(msg)
    warnings.warn(msg, PowerWarning, stacklevel=3)


def assert_distribution(probs: Any, *, samples: Optional[Sequence[int]] = None,
                        counts: Optional[Sequence[int]] = None, sampler: Optional[Callable[[], Any]] = None,
                        n: Optional[int] = None, alpha: float = 0.01, independence: bool = False,
                        effect: Optional[float] = None, underpowered: str = "warn") -> Gof:
    """The draws are from probs, by samplab's gof (chi-square, G and TV; AssertionError with the
    deciding rule and the largest residuals on FAIL). Give exactly one of:
      samples=  the token ids drawn, in the order drawn (a list or 1-D array);
      counts=   how many times each token was drawn (V of them);
      sampler=  a function; each call returns one token id or an array of them (a batch); it is
                called until n draws are in (n=, default 100_000).
    independence=True also runs a serial test over the order of the draws (samples= or sampler=),
    each test then at alpha/2: a sampler cycling through a fixed sequence fails it. effect=TV: when n
    gives under 50 % power to detect a fault of that size (samplab power), a PowerWarning, or with
    underpowered="fail" an AssertionError. Returns the gof result."""
    __tracebackhide__ = True
    given = [k for k, v in (("samples", samples), ("counts", counts), ("sampler", sampler)) if v is not None]
    if len(given) != 1:
        raise TypeError("assert_distribution() takes exactly one of samples=, counts=, sampler= (%s given)"
                        % (", ".join(given) or "none"))
    if underpowered not in ("warn", "fail"):
        raise _calls.Error("samplab: underpowered=%r: 'warn' or 'fail'" % (underpowered,))
    if independence and counts is not None:
        raise TypeError("assert_distribution(): independence=True needs the draws in order (samples= or "
                        "sampler=), not counts=")
    if n is not None and samples is not None:
        raise TypeError("assert_distribution(): n= is the number of sampler calls; samples= has its own length")
    draws = None
    if counts is not None:
        r = gof(probs=probs, counts=counts, alpha=alpha)
        n = int(r.json["n"])
    else:
        p = _weights(probs)
        V = len(p)
        if sampler is not None:
            n = 100_000 if n is None else int(n)
            raw = _collect(sampler, n)
        else:
            raw = _flat(samples) if not isinstance(samples, (list, tuple)) else list(samples)
            n = len(raw)
        draws = [_token(x, i, V) for i, x in enumerate(raw)]
        tally = [0] * V
        for t in draws:
            tally[t] += 1
        r = gof(probs=probs, counts=tally, alpha=alpha / 2 if independence else alpha)
    if effect is not None:
        _power_check(probs, n, alpha, effect, underpowered)
    if r.verdict != "PASS":
        worst = ", ".join("token %d: %d drawn, %.1f expected" % (x["token"], x["count"], x["expected"])
                          for x in r.residuals[:3])
        raise AssertionError("sampler does not draw from probs: %s (N = %d; %s)" % (r.rule, n, worst))
    if independence:
        s = _independence(draws, p, alpha / 2)
        if s.verdict != "PASS":
            raise AssertionError("draws are not independent: the pairs (x1, x2), (x3, x4), ... fail samplab's "
                                 "serial test: %s (N = %d draws, %d pairs)" % (s.rule, n, n // 2))
    return r


def assert_matches(tokens: Any, *, seed: int, framework: str, logits: Any = None, probs: Any = None,
                   context: Any = None, **settings: Any) -> List[int]:
    """The observed tokens are those framework draws with this seed (required: there is no default
    seed to match by accident; failures name it):
      one vector (1-D logits or probs): the first draws of a session on it;
      framework="torch" with 2-D probs or logits [B, V] (a torch tensor, array or list of rows): a
        batch, torch.multinomial(P, k) called n times; tokens is the list of what each call returned
        ([B, k] each), so tokens[i][b] is call i's tokens for row b;
      otherwise rows (2-D, or a file samplab replay reads with tensor=): a generation, the replay
        of every step.
    Raises AssertionError at the first difference."""
    __tracebackhide__ = True
    x = _calls._as_numpy(logits if logits is not None else probs)
    src = dict(logits=x) if logits is not None else dict(probs=x)
    obs = _calls._as_numpy(tokens)
    if isinstance(x, str):
        two_d = not ("," in x and "\n" not in x) and settings.get("tensor") is not None
    elif hasattr(x, "ndim"):
        two_d = x.ndim == 2
    else:
        two_d = len(x) > 0 and hasattr(x[0], "__len__")
    where = "%s with seed=%s" % (framework, seed)
    if two_d and framework == "torch":
        calls = obs.tolist() if hasattr(obs, "tolist") else list(obs)
        rows = [r.tolist() if hasattr(r, "tolist") else r for r in calls]
        k = len(rows[0][0]) if rows and rows[0] and isinstance(rows[0][0], (list, tuple)) else 1
        got = draw(framework=framework, seed=seed, n=len(rows), num_samples=k if k > 1 else None,
                   context=context, **src, **settings).tokens  # [B][call][k]
        for i, call in enumerate(rows):
            for b, want in enumerate(call):
                want = want if isinstance(want, (list, tuple)) else [want]
                have = got[b][i] if b < len(got) else None
                if have is None or [int(v) for v in want] != [int(v) for v in have]:
                    raise AssertionError("call %d, row %d: observed %s, %s draws %s (n = %d calls)"
                                         % (i, b, want, where, have, len(rows)))
        return _flat(rows)
    want = _flat(obs)
    if two_d:
        got = replay(framework=framework, seed=seed, context=context, **src, **settings).tokens
    else:
        if context is not None:
            settings["context"] = context
        got = _flat(draw(framework=framework, seed=seed, n=len(want), **src, **settings).tokens)[:len(want)]
    got = _flat(got)
    for i, (a, b) in enumerate(zip(want, got)):
        if a != b:
            raise AssertionError("token %d: observed %d, %s draws %d" % (i, a, where, b))
    if len(got) != len(want):
        raise AssertionError("%d tokens observed, %s gives %d" % (len(want), where, len(got)))
    return got
