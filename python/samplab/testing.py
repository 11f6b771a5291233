"""Assertions for a test suite (pytest or unittest): does my sampler draw from
the distribution it claims, and does it draw the very tokens a framework does.

    from samplab.testing import assert_distribution
    def test_my_sampler():
        assert_distribution(lambda: my_sample(probs), probs, n=100_000)
"""

import numbers

from . import draw, gof, replay


def _flat(tokens):
    out = []
    for t in tokens:
        if isinstance(t, (list, tuple)):
            out.extend(int(x) for x in t)
        else:
            out.append(int(t))
    return out


def assert_distribution(sampler_fn, probs, n=100_000, alpha=0.01):
    """Calls sampler_fn() n times (each call returns one token id), counts the ids and tests them
    against probs with samplab's gof; raises AssertionError with the deciding rule on FAIL.
    Returns the gof result."""
    V = len(probs)
    counts = [0] * V
    for i in range(n):
        x = sampler_fn()
        # a token id is a whole number: int() would turn 1.7 into token 1 without a word
        if isinstance(x, bool) or not isinstance(x, numbers.Integral) and \
                not (isinstance(x, numbers.Real) and float(x).is_integer()):
            raise AssertionError("draw %d: %r is not a token id (a whole number)" % (i, x))
        t = int(x)
        if not 0 <= t < V:
            raise AssertionError("draw %d: token %d is not in 0..%d" % (i, t, V - 1))
        counts[t] += 1
    r = gof(probs=probs, counts=counts, alpha=alpha)
    if r.verdict != "PASS":
        worst = ", ".join("token %d: %d drawn, %.1f expected" % (x["token"], x["count"], x["expected"])
                          for x in r.residuals[:3])
        raise AssertionError("sampler does not draw from probs: %s (N = %d; %s)" % (r.rule, n, worst))
    return r


def assert_matches(tokens, framework=None, logits=None, probs=None, seed=None, context=None, **settings):
    """The observed tokens are those framework draws with this seed: for one vector (1-D logits or
    probs) the first len(tokens) draws of a session on it; for a generation (2-D rows, or a file
    samplab replay reads) the replay of every step. Raises AssertionError at the first difference."""
    tokens = _flat(tokens)
    x = logits if logits is not None else probs
    two_d = isinstance(x, str) and not ("," in x and "\n" not in x) and settings.get("tensor") is not None
    if not isinstance(x, str):
        first = x[0] if len(x) else None
        two_d = hasattr(first, "__len__")
        if hasattr(x, "ndim"):
            two_d = x.ndim == 2
    if two_d:
        got = replay(framework=framework, logits=logits, probs=probs, seed=seed, context=context, **settings).tokens
    else:
        if context is not None:
            settings["context"] = context
        got = _flat(draw(framework=framework, logits=logits, probs=probs, seed=seed, n=len(tokens),
                         **settings).tokens)
        got = got[:len(tokens)]
    for i, (a, b) in enumerate(zip(tokens, got)):
        if a != b:
            raise AssertionError("token %d: observed %d, %s with seed %s draws %d" % (i, a, framework, seed, b))
    if len(got) != len(tokens):
        raise AssertionError("%d tokens observed, %s gives %d" % (len(tokens), framework, len(got)))
    return got
