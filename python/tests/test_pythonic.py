"""The package as Python code is expected to behave (numpy.testing, scipy.stats, pytest): keyword-only
settings, TypeError for an unknown keyword, samplab.Error a ValueError worded for Python, dataclass
results, __all__; samplab.testing's assertions and the pytest plugin; and the call's robustness: Ctrl-C
within a second, NUL and separators refused, SAMPLAB_LIB strict, the caller's locale without effect.
Run from the repository root as test_samplab.py is (SL_BIN, SAMPLAB_LIB)."""

import ctypes
import ctypes.util
import dataclasses
import inspect
import os
import random
import re
import signal
import subprocess
import sys
import textwrap
import time
import warnings

import pytest

import samplab
import samplab.testing
from samplab.testing import PowerWarning, assert_distribution, assert_matches

PY = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else sys.executable
ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
PKG = os.path.join(ROOT, "python")
PROBS = [0.4, 0.3, 0.2, 0.1]


def env(**more):
    e = dict(os.environ, PYTHONPATH=PKG)
    if "SAMPLAB_LIB" in e:
        e["SAMPLAB_LIB"] = os.path.abspath(e["SAMPLAB_LIB"])
    e.update(more)
    return e


def run_py(code, **more):
    return subprocess.run([PY, "-c", textwrap.dedent(code)], capture_output=True, text=True, env=env(**more),
                          timeout=120)


# ---------------------------------------------------------------- conventions

def test_settings_are_keyword_only():
    for fn in (samplab.draw, samplab.gof, samplab.pipeline, samplab.replay, samplab.check, samplab.exact,
               samplab.compare, samplab.power, samplab.calibrate):
        params = inspect.signature(fn).parameters.values()
        assert all(p.kind in (p.KEYWORD_ONLY, p.VAR_KEYWORD) for p in params), fn.__name__
    with pytest.raises(TypeError, match="positional"):
        samplab.draw("torch")
    with pytest.raises(TypeError, match="positional"):
        assert_distribution(PROBS, lambda: 0)


def test_an_unknown_keyword_is_a_type_error_naming_it():
    with pytest.raises(TypeError, match="unexpected keyword argument 'top_kk'"):
        samplab.draw(framework="hf", logits=[1, 2], top_kk=3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'json'"):  # an option only the CLI has
        samplab.draw(method="cdf", probs=[1, 2], json=True)
    with pytest.raises(TypeError, match="unexpected keyword argument 'top_k'"):  # gof has no such setting
        samplab.gof(probs=[1, 2], counts=[1, 1], top_k=3)


def test_a_wrong_value_is_a_value_error_worded_for_python():
    assert issubclass(samplab.Error, ValueError)
    with pytest.raises(ValueError) as e:
        samplab.draw(framework="hf", logits=[1, 2], top_k=2.5)
    assert str(e.value) == "samplab.draw(): top_k takes an integer, not '2.5'"
    with pytest.raises(samplab.Error) as e:
        samplab.draw(framework="candle", probs=[1, 2], min_p=0.1)
    assert str(e.value) == "samplab.draw(): min_p is not an option of framework candle"
    with pytest.raises(samplab.Error) as e:
        samplab.draw(framework="hf", logits=[1, 2], epsilon_cutoff=3e-4)
    assert "--" not in str(e.value) and "epsilon_cutoff" in str(e.value) and "not modelled by samplab" in str(e.value)


def test_results_are_dataclasses_whose_repr_shows_values():
    r = samplab.gof(probs=PROBS, counts=[400, 300, 200, 100])
    assert dataclasses.is_dataclass(r) and isinstance(r, samplab.Gof) and isinstance(r, samplab.Result)
    text = repr(r)
    assert text.startswith("samplab.Gof(verdict='PASS', p_value=1.0, tv=") and "n=1000" in text
    d = samplab.draw(method="cdf", probs=PROBS, n=3)
    assert repr(d).startswith("samplab.Draw(tokens=%r" % (d.tokens,))
    p = samplab.pipeline(framework="hf", logits=[3, 2, 2, 1])
    assert repr(p).startswith("samplab.Result[pipeline](") and "kept=" in repr(p)
    assert dataclasses.asdict(r)["json"] == r.json


def test_type_hints_and_py_typed():
    assert os.path.exists(os.path.join(os.path.dirname(samplab.__file__), "py.typed"))
    hints = inspect.signature(samplab.draw).parameters
    assert hints["seed"].annotation is not inspect.Parameter.empty
    assert inspect.signature(samplab.gof).return_annotation is samplab.Gof
    assert inspect.signature(assert_matches).parameters["seed"].annotation is int


def test_the_namespace_is_all():
    public = {n for n in dir(samplab) if not n.startswith("_")}
    assert public == set(samplab.__all__)
    for leaked in ("ctypes", "numbers", "re", "functools", "Vector"):
        assert not hasattr(samplab, leaked), leaked
    ns = {}
    exec("from samplab import *", ns)
    assert {n for n in ns if not n.startswith("__")} == set(samplab.__all__)
    assert samplab.testing.__all__ == ["assert_distribution", "assert_matches", "PowerWarning"]


# ---------------------------------------------------------------- assert_distribution

def test_assert_distribution_takes_samples_counts_or_a_sampler():
    np = pytest.importorskip("numpy")
    gen = np.random.default_rng(3)
    samples = gen.choice(4, size=50_000, p=PROBS)
    assert assert_distribution(PROBS, samples=samples).passed
    assert assert_distribution(np.array(PROBS), counts=np.bincount(samples, minlength=4)).json["n"] == 50_000
    # a batched sampler returns an array per call; exactly n draws are tested
    r = assert_distribution(PROBS, sampler=lambda: gen.choice(4, size=1000, p=PROBS), n=25_500)
    assert r.json["n"] == 25_500
    bad = gen.choice(4, size=50_000, p=[0.45, 0.25, 0.2, 0.1])
    with pytest.raises(AssertionError, match="Pearson"):
        assert_distribution(PROBS, samples=bad)
    with pytest.raises(TypeError, match="exactly one of"):
        assert_distribution(PROBS, samples=samples, counts=[1, 2, 3, 4])
    with pytest.raises(AssertionError, match="token 4 is not in 0..3"):
        assert_distribution(PROBS, samples=[0, 1, 4])


def test_a_cycling_sampler_passes_frequencies_and_fails_independence():
    cycle = [0, 0, 0, 0, 1, 1, 1, 2, 2, 3]  # exactly PROBS' frequencies, deterministically
    state = {"i": 0}

    def cycling():
        state["i"] += 1
        return cycle[state["i"] % len(cycle)]

    assert assert_distribution(PROBS, sampler=cycling, n=20_000).passed  # the frequency test cannot see it
    with pytest.raises(AssertionError, match="not independent"):
        assert_distribution(PROBS, sampler=cycling, n=20_000, independence=True)
    with pytest.raises(AssertionError, match="not independent"):
        assert_distribution(PROBS, samples=cycle * 2000, independence=True)
    rnd = random.Random(5)
    assert assert_distribution(PROBS, sampler=lambda: rnd.choices(range(4), PROBS, k=500), n=20_000,
                               independence=True).passed
    with pytest.raises(TypeError, match="in order"):
        assert_distribution(PROBS, counts=[4, 3, 2, 1], independence=True)


def test_a_large_vocabulary_keeps_the_independence_table_small():
    rnd = random.Random(9)
    V = 1000
    p = [1.0 / V] * V
    assert assert_distribution(p, sampler=lambda: rnd.choices(range(V), k=1000), n=50_000, independence=True).passed
    cyc = list(range(V)) * 50
    with pytest.raises(AssertionError, match="not independent"):
        assert_distribution(p, samples=cyc, independence=True)


def test_low_power_warns_or_fails_by_option():
    rnd = random.Random(2)

    def right():
        return rnd.choices(range(4), PROBS)[0]

    with pytest.warns(PowerWarning, match="n = 300 draws detect a fault of TV 0.01 with under 50 % power"):
        assert_distribution(PROBS, sampler=right, n=300, effect=0.01)
    with pytest.raises(AssertionError, match="under 50 % power"):
        assert_distribution(PROBS, sampler=right, n=300, effect=0.01, underpowered="fail")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert_distribution(PROBS, sampler=right, n=100_000, effect=0.05)
    with pytest.raises(samplab.Error, match="underpowered"):
        assert_distribution(PROBS, sampler=right, n=10, underpowered="maybe")


def test_pytest_shows_the_users_line(tmp_path):
    (tmp_path / "test_user.py").write_text(textwrap.dedent("""
        from samplab.testing import assert_distribution, assert_matches
        def test_wrong():
            assert_distribution([0.5, 0.5], samples=[0] * 900 + [1] * 100)  # the user's line
        def test_other_tokens():
            assert_matches([0, 1, 1, 0, 1], framework="torch", probs=[0.5, 0.5], seed=7)
        """))
    p = subprocess.run([PY, "-m", "pytest", "-p", "no:cacheprovider", "-q", "test_user.py"], cwd=tmp_path,
                       capture_output=True, text=True, env=env(), timeout=120)
    assert "2 failed" in p.stdout, p.stdout + p.stderr
    assert "# the user's line" in p.stdout
    assert "testing.py" not in p.stdout, p.stdout  # __tracebackhide__: no frame of samplab's own


# ---------------------------------------------------------------- assert_matches

def test_assert_matches_requires_the_seed_and_names_it():
    with pytest.raises(TypeError, match="seed"):
        assert_matches([0], framework="torch", probs=PROBS)
    got = samplab.draw(framework="torch", probs=PROBS, seed=11, n=4).tokens
    assert_matches(got, framework="torch", probs=PROBS, seed=11)
    wrong = [[t[0] ^ 1] for t in got]
    with pytest.raises(AssertionError, match=r"token 0: observed \d, torch with seed=11 draws \d"):
        assert_matches(wrong, framework="torch", probs=PROBS, seed=11)


def test_assert_matches_takes_torch_rows():
    torch = pytest.importorskip("torch")
    P = torch.tensor([[0.4, 0.3, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4], [0.25, 0.25, 0.25, 0.25]])
    torch.manual_seed(3)
    drawn = [torch.multinomial(P, 1) for _ in range(5)]  # the real torch: five calls, [3, 1] each
    assert_matches(drawn, framework="torch", probs=P, seed=3)
    drawn[2] = drawn[2].clone()
    drawn[2][1, 0] = (drawn[2][1, 0] + 1) % 4
    with pytest.raises(AssertionError, match="call 2, row 1: .* torch with seed=3 draws"):
        assert_matches(drawn, framework="torch", probs=P, seed=3)


# ---------------------------------------------------------------- the pytest plugin

def test_plugin_entry_point_is_declared():
    import tomllib
    with open(os.path.join(PKG, "pyproject.toml"), "rb") as f:
        meta = tomllib.load(f)
    # named as the module, so -p samplab.pytest_plugin on an installed package loads it once
    assert meta["project"]["entry-points"]["pytest11"] == {"samplab.pytest_plugin": "samplab.pytest_plugin"}


def test_plugin_fixture_reports_seed_and_n_and_the_marker_selects(tmp_path):
    (tmp_path / "test_fixture.py").write_text(textwrap.dedent("""
        import pytest
        def test_matches(samplab):
            samplab.testing.assert_matches([[0], [1], [2]], framework="torch", probs=[1, 1, 1, 1], seed=42)
        @pytest.mark.statistical
        def test_distribution(samplab):
            samplab.assert_distribution([0.5, 0.5], samples=[0, 1] * 50)
        def test_module(samplab):
            assert samplab.gof(probs=[1, 1], counts=[5, 5]).passed and samplab.version
        """))
    base = [PY, "-m", "pytest", "-p", "no:cacheprovider", "-p", "samplab.pytest_plugin", "-q", "-rN"]
    p = subprocess.run(base + ["test_fixture.py"], cwd=tmp_path, capture_output=True, text=True, env=env(),
                       timeout=120)
    assert "1 failed, 2 passed" in p.stdout, p.stdout + p.stderr
    section = p.stdout[p.stdout.index("- samplab -"):]
    assert "assert_matches: seed=42 N = 3 framework=torch" in section, section
    p = subprocess.run(base + ["-m", "statistical", "test_fixture.py"], cwd=tmp_path, capture_output=True,
                       text=True, env=env(), timeout=120)
    assert "1 passed, 2 deselected" in p.stdout, p.stdout
    p = subprocess.run(base + ["-m", "not statistical", "--strict-markers", "test_fixture.py"], cwd=tmp_path,
                       capture_output=True, text=True, env=env(), timeout=120)
    assert "1 failed, 1 passed, 1 deselected" in p.stdout, p.stdout


def _python_blocks(md):
    return re.findall(r"```python\n(# (test_\w+\.py)\n.*?)```", open(md).read(), re.S)


def test_the_docs_examples_run_from_any_folder(tmp_path):
    blocks = _python_blocks(os.path.join(ROOT, "docs", "python.md"))
    assert blocks
    for text, name in blocks:
        (tmp_path / name).write_text(text)
    p = subprocess.run([PY, "-m", "pytest", "-p", "no:cacheprovider", "-p", "samplab.pytest_plugin", "-q"]
                       + [name for _, name in blocks], cwd=tmp_path, capture_output=True, text=True, env=env(),
                       timeout=300)
    assert p.returncode == 0 and " failed" not in p.stdout, p.stdout + p.stderr


# ---------------------------------------------------------------- robustness

def test_ctrl_c_interrupts_a_long_call_within_a_second():
    code = """
        import sys, time, samplab
        print("start", flush=True)
        try:
            samplab.draw(method="cdf", probs=[3, 2, 2, 1], n=3_000_000_000, counts=True)
        except KeyboardInterrupt:
            print("interrupted %.6f" % time.monotonic(), flush=True)
            sys.exit(3)
        print("finished", flush=True)
        """
    p = subprocess.Popen([PY, "-c", textwrap.dedent(code)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         env=env())
    assert p.stdout.readline().strip() == "start"
    time.sleep(1.0)  # well inside the call (about 30 s of drawing)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=30)
    assert p.returncode == 3 and out.startswith("interrupted"), (out, err)
    # CLOCK_MONOTONIC is the machine's: the time to the except clause, not to the interpreter's exit
    took = float(out.split()[1]) - sent
    assert 0 <= took < 1.0, took


def test_a_nul_in_a_string_is_refused():
    with pytest.raises(samplab.Error, match="NUL"):
        samplab.draw(method="cdf", probs="3,2\0,1")  # the C string would end at 3,2
    with pytest.raises(samplab.Error, match="framework: 'hf\\\\x00x' holds a NUL"):
        samplab.draw(framework="hf\0x", logits=[1, 2])
    with pytest.raises(samplab.Error, match="NUL"):
        samplab.replay(framework="hf", logits=["data/weather.txt", "data/weather.txt\0"], seed=1)


@pytest.mark.parametrize("entry", ["1,2", "1\n2", "1;2"])
def test_a_string_entry_holding_a_separator_is_refused(entry):
    with pytest.raises(samplab.Error, match="one entry is one number"):
        samplab.draw(method="cdf", probs=[3, entry, 1])
    with pytest.raises(samplab.Error, match="one entry is one number"):
        samplab.check(framework="hf", logits=[[1, 2, 3]], tokens=[entry], seed=1)
    assert samplab.draw(method="cdf", probs=[3, "2", 1]).json == samplab.draw(method="cdf", probs=[3, 2, 1]).json


def test_samplab_lib_naming_nothing_or_no_library_is_an_import_error(tmp_path):
    not_lib = tmp_path / "not-a-library.so"
    not_lib.write_text("text\n")
    other = ctypes.util.find_library("m")  # a library, but not libsamplab
    for name, why in [(str(tmp_path / "missing.so.0"), "cannot load it"), (str(not_lib), "cannot load it"),
                      (other, "not libsamplab")]:
        p = run_py("import samplab", SAMPLAB_LIB=name)
        assert p.returncode != 0
        last = p.stderr.strip().splitlines()[-1]
        assert last.startswith("ImportError: samplab: SAMPLAB_LIB=%s" % name) and why in last, p.stderr


def test_results_do_not_depend_on_the_callers_locale():
    code = """
        import ctypes, json, locale, sys, samplab
        if sys.argv[1] == "de":
            locale.setlocale(locale.LC_ALL, "de_DE.UTF-8")
            libc = ctypes.CDLL(None)
            libc.strtod.restype = ctypes.c_double
            libc.strtod.argtypes = [ctypes.c_char_p, ctypes.c_void_p]
            assert libc.strtod(b"0.5", None) == 0.0  # this thread's C library now stops at the '.'
        out = [samplab.draw(framework="hf", logits="2.5,1.25,0.5,-0.75", temperature=0.7, top_p=0.9, seed=3, n=20).json,
               samplab.pipeline(framework="llamacpp", logits=[2.5, 1.25, 0.5], temperature="0.8").json,
               samplab.gof(probs="0.4,0.3,0.2,0.1", counts=[41, 29, 19, 11], alpha=0.05).json]
        print(json.dumps(out))
        """
    if subprocess.run([PY, "-c", "import locale; locale.setlocale(locale.LC_ALL, 'de_DE.UTF-8')"]).returncode:
        pytest.skip("no locale de_DE.UTF-8 on this machine (mk/deps.sh test makes it with localedef)")
    c = subprocess.run([PY, "-c", textwrap.dedent(code), "c"], capture_output=True, text=True, env=env(), timeout=60)
    de = subprocess.run([PY, "-c", textwrap.dedent(code), "de"], capture_output=True, text=True, env=env(), timeout=60)
    assert c.returncode == 0 and de.returncode == 0, c.stderr + de.stderr
    assert de.stdout == c.stdout
    assert '"temperature": 0.7' in c.stdout


def test_another_commands_keyword_is_a_type_error():
    # alpha is gof's: draw would otherwise take it and ignore it
    with pytest.raises(TypeError, match=r"samplab.draw\(\) got an unexpected keyword argument 'alpha'"):
        samplab.draw(probs=[0.5, 0.5], n=3, seed=1, method="exprace", alpha=0.1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'context'"):
        samplab.gof(probs=[0.5, 0.5], counts=[3, 4], context=[1, 2])
    # the command's own keyword is still taken
    assert samplab.gof(probs=[0.5, 0.5], counts=[3, 4], alpha=0.1).p_value > 0
