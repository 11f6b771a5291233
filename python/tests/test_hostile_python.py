"""The Python class of the hostile battery: tests/hostile/python.tsv (written by
tests/hostile/make_cases.py), one call a line that must raise the named exception
with a one-line message containing the expected text, never return a result, crash
or print. A C caller's hostile arguments are tests/test_capi_hostile.c."""
import math  # noqa: F401 (the expressions may use it)
import os

import pytest

import samplab

TSV = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tests", "hostile", "python.tsv")
EXC = {"Error": samplab.Error, "TypeError": TypeError, "ValueError": ValueError}


def _cases():
    with open(TSV) as f:
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            group, exc, want, expr = line.rstrip("\n").split("\t")
            yield pytest.param(exc, want, expr, id="%s: %s" % (group, expr))


def test_the_battery_is_there():
    assert sum(1 for _ in _cases()) >= 40


@pytest.mark.parametrize("exc,want,expr", list(_cases()))
def test_hostile_call_is_refused(exc, want, expr, capfd):
    with pytest.raises(EXC[exc]) as e:
        result = eval(expr, {"samplab": samplab, "math": math})
        pytest.fail("accepted, gave %r" % (result,))
    text = str(e.value)
    assert want in text, "%s raised %r, which lacks %r" % (expr, text, want)
    assert "\n" not in text, "a message of more than one line: %r" % text
    out, err = capfd.readouterr()
    assert out == "" and err == "", "the call printed: %r %r" % (out, err)
