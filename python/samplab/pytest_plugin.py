"""samplab's pytest plugin (the pytest11 entry point samplab.pytest_plugin; a `make install` copy: -p samplab.pytest_plugin):

- the `samplab` fixture: the samplab module, whose assertions (samplab.testing.assert_distribution,
  assert_matches) write their seed and N into the report of a test that fails;
- the `statistical` marker: `-m statistical` runs only the tests marked so, `-m "not statistical"`
  skips them (a statistical test fails at rate alpha on a right sampler)."""

import functools
import types

import pytest

import samplab as _samplab
import samplab.testing as _testing

_RECORDS = pytest.StashKey()


def pytest_configure(config):
    config.addinivalue_line("markers", "statistical: a statistical test (it fails at rate alpha on a right "
                                       "sampler): -m statistical selects them, -m 'not statistical' skips them")


def _describe(name, kw, n):
    seed = kw.get("seed")
    parts = ["%s:" % name, "seed=%s" % (seed if seed is not None else "(none: the sampler's own)"),
             "N = %s" % (n if n is not None else "?")]
    for k in ("alpha", "framework", "independence", "effect"):
        if kw.get(k) not in (None, False):
            parts.append("%s=%s" % (k, kw[k]))
    return " ".join(parts)


def _draw_count(name, args, kw):
    if name == "assert_matches":
        try:
            return len(args[0]) if args else None
        except TypeError:
            return None
    if kw.get("samples") is not None:
        try:
            return len(kw["samples"])
        except TypeError:
            return None
    if kw.get("sampler") is not None:
        return kw.get("n") or 100_000
    if kw.get("counts") is not None:
        try:
            return int(sum(kw["counts"]))
        except TypeError:
            return None
    return kw.get("n")


def _recording(fn, records):
    @functools.wraps(fn)
    def call(*args, **kw):
        __tracebackhide__ = True
        records.append(_describe(fn.__name__, kw, _draw_count(fn.__name__, args, kw)))
        return fn(*args, **kw)

    return call


class _Testing(types.SimpleNamespace):
    pass


class _Module:
    """The samplab module, its testing assertions recording their calls for the report."""

    def __init__(self, records):
        rec = {name: _recording(getattr(_testing, name), records) for name in ("assert_distribution", "assert_matches")}
        self.testing = _Testing(PowerWarning=_testing.PowerWarning, **rec)
        self.assert_distribution = rec["assert_distribution"]
        self.assert_matches = rec["assert_matches"]

    def __getattr__(self, name):
        return getattr(_samplab, name)

    def __dir__(self):
        return sorted(set(dir(_samplab)) | {"assert_distribution", "assert_matches"})

    def __repr__(self):
        return "<samplab module (pytest fixture), %s>" % _samplab.version


@pytest.fixture
def samplab(request):
    """The samplab module; samplab.testing.assert_distribution / assert_matches (also
    samplab.assert_distribution / samplab.assert_matches) write their seed and N into the
    failure report (section "samplab")."""
    records = request.node.stash.setdefault(_RECORDS, [])
    return _Module(records)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    records = item.stash.get(_RECORDS, None)
    if records and report.failed:
        report.sections.append(("samplab", "\n".join(records)))
