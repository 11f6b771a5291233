"""The Python package against the command line on the same inputs: every call's
JSON must be the command's --json, field for field, and errors the command's
stderr line. Run from the repository root (make test does): SL_BIN names the
samplab binary (default bin/samplab), the package finds lib/libsamplab.so.0 or
SAMPLAB_LIB. The golden cases are data/golden/current/hf_generate*.txt (39
transformers 5.12.1 generations on torch 2.14.1, AVX2 and AVX-512): each replayed
through Python must be the CLI's JSON and transformers' own tokens and words; and
the vectors under data/golden/. Also: Python values (lists, NumPy arrays, bytes)
read as the files and inline lists they stand for, option values checked as the
CLI checks their text, and samplab.testing's assert_distribution (a right sampler
passes, one drawing 0.28 for a 0.3 fails) and assert_matches."""

import json
import os
import random
import re
import subprocess

import pytest

import samplab
from samplab.testing import assert_distribution, assert_matches

BIN = os.environ.get("SL_BIN", "bin/samplab")
CUR = "data/golden/current"


def cli(*args, rc=0):
    p = subprocess.run([BIN] + [str(a) for a in args], capture_output=True, text=True)
    assert p.returncode == rc, (args, p.returncode, p.stderr)
    return p


def cli_json(*args, rc=0):
    return json.loads(cli(*args, "--json", rc=rc).stdout)


def cli_error(*args):
    p = subprocess.run([BIN] + [str(a) for a in args], capture_output=True, text=True)
    assert p.returncode == 2 and p.stdout == "", (args, p.returncode, p.stdout)
    return p.stderr.rstrip("\n")


def py_error(*args):
    """The command's stderr line as Python words it (samplab._calls._pythonic): no command-line
    option (--top-k is top_k) and no pointer to --help is left in it."""
    from samplab._calls import _pythonic
    want = _pythonic(cli_error(*args))
    assert "--help" not in want and not re.search(r"--[a-z]", want), want
    return want


# ---------------------------------------------------------------- draw

DRAW_CASES = [
    (dict(method="cdf", probs="3,2,2,1", n=5), ["--method", "cdf", "--probs", "3,2,2,1", "--n", 5]),
    (dict(method="alias", logits="data/weather.txt", n=1000, rng="mt19937", seed=7, counts=True),
     ["--method", "alias", "--logits", "data/weather.txt", "--n", 1000, "--rng", "mt19937", "--seed", 7, "--counts"]),
    (dict(method="exprace", logits="data/weather.txt", temperature=0.7, rng="mt19937", seed=7, n=20),
     ["--method", "exprace", "--logits", "data/weather.txt", "--temperature", 0.7, "--rng", "mt19937", "--seed", 7,
      "--n", 20]),
    (dict(framework="torch", probs="data/golden/torch_vec_zipf49152.txt", seed=42, n=3),
     ["--framework", "torch", "--probs", "data/golden/torch_vec_zipf49152.txt", "--seed", 42, "--n", 3]),
    (dict(framework="candle", probs="data/golden/torch_vec_zipf49152.txt", seed=42, n=3),
     ["--framework", "candle", "--probs", "data/golden/torch_vec_zipf49152.txt", "--seed", 42, "--n", 3]),
    (dict(framework="numpy", probs="data/golden/torch_vec_zipf49152.txt", seed=42, n=3),
     ["--framework", "numpy", "--probs", "data/golden/torch_vec_zipf49152.txt", "--seed", 42, "--n", 3]),
    (dict(framework="numpy-legacy", probs=[0.5, 0.25, 0.25], seed=3, n=8, num_samples=2),
     ["--framework", "numpy-legacy", "--probs", "0.5,0.25,0.25", "--seed", 3, "--n", 8, "--num-samples", 2]),
    (dict(framework="gsl", probs=[3, 2, 2, 1], seed=1, n=10),
     ["--framework", "gsl", "--probs", "3,2,2,1", "--seed", 1, "--n", 10]),
    (dict(framework="torch", probs=[3, 2, 2, 1], seed=5, n=4, num_samples=3, replacement=True, torch="1.13"),
     ["--framework", "torch", "--probs", "3,2,2,1", "--seed", 5, "--n", 4, "--num-samples", 3, "--replacement",
      "--torch", "1.13"]),
    (dict(framework="numpy", probs=[0.1, 0.2, 0.3, 0.4], seed=42, n=2, num_samples=4, no_replacement=True,
          shuffle="false"),
     ["--framework", "numpy", "--probs", "0.1,0.2,0.3,0.4", "--seed", 42, "--n", 2, "--num-samples", 4,
      "--no-replacement", "--shuffle", "false"]),
    (dict(framework="numpy-legacy", probs=[0.1, 0.2, 0.3, 0.4], seed=7, num_samples=3, no_replacement=True),
     ["--framework", "numpy-legacy", "--probs", "0.1,0.2,0.3,0.4", "--seed", 7, "--num-samples", 3,
      "--no-replacement"]),
    (dict(framework="rand", probs=[3, 2, 2, 1], seed=42, n=2, num_samples=5, rand="0.10"),
     ["--framework", "rand", "--probs", "3,2,2,1", "--seed", 42, "--n", 2, "--num-samples", 5, "--rand", "0.10"]),
    (dict(framework="rand", probs=[3, 2, 2, 1], seed=42, n=3, dtype="float32"),
     ["--framework", "rand", "--probs", "3,2,2,1", "--seed", 42, "--n", 3, "--dtype", "float32"]),
    (dict(framework="llamacpp", logits="data/weather.txt", seed=9, n=6, top_k=4, temperature=0.8),
     ["--framework", "llamacpp", "--logits", "data/weather.txt", "--seed", 9, "--n", 6, "--top-k", 4,
      "--temperature", 0.8]),
    (dict(framework="node-llama-cpp", logits="data/weather.txt", seed=9, n=6, temperature=0.8, xtc_probability=0.5,
          xtc_threshold=0.1),
     ["--framework", "node-llama-cpp", "--logits", "data/weather.txt", "--seed", 9, "--n", 6, "--temperature", 0.8,
      "--xtc-probability", 0.5, "--xtc-threshold", 0.1]),
    (dict(framework="hf", logits="data/k40p09.txt", seed=42, n=5, top_k=40, top_p=0.9, temperature=0.7, cpu="avx2"),
     ["--framework", "hf", "--logits", "data/k40p09.txt", "--seed", 42, "--n", 5, "--top-k", 40, "--top-p", 0.9,
      "--temperature", 0.7, "--cpu", "avx2"]),
    (dict(framework="vllm", logits="data/weather.txt", seed=1, n=3, top_p=0.8, cpu="avx512"),
     ["--framework", "vllm", "--logits", "data/weather.txt", "--seed", 1, "--n", 3, "--top-p", 0.8, "--cpu", "avx512"]),
    (dict(framework="sglang", logits="data/weather.txt", seed=7, n=6, position=4, top_k=3, cpu="avx2",
          sglang="0.5.12"),
     ["--framework", "sglang", "--logits", "data/weather.txt", "--seed", 7, "--n", 6, "--position", 4, "--top-k", 3,
      "--cpu", "avx2", "--sglang", "0.5.12"]),
    (dict(framework="sglang", logits="data/weather.txt", n=4, context=[1, 2, 3], sglang_sorted=True, cpu="avx2"),
     ["--framework", "sglang", "--logits", "data/weather.txt", "--n", 4, "--context", "1,2,3", "--sglang-sorted",
      "--cpu", "avx2"]),
    (dict(framework="transformers-js", logits="data/weather.txt", seed=9, n=8, top_k=3, top_p=0.9,
          repetition_penalty=1.3, no_repeat_ngram_size=2, context=[0, 1], transformersjs="4.3"),
     ["--framework", "transformers-js", "--logits", "data/weather.txt", "--seed", 9, "--n", 8, "--top-k", 3,
      "--top-p", 0.9, "--repetition-penalty", 1.3, "--no-repeat-ngram-size", 2, "--context", "0,1",
      "--transformersjs", "4.3"]),
    (dict(framework="tfjs", probs=[0.2, 0.3, 0.1], seed=42, n=2, num_samples=10, tfjs="4.22"),
     ["--framework", "tfjs", "--probs", "0.2,0.3,0.1", "--seed", 42, "--n", 2, "--num-samples", 10, "--tfjs", "4.22"]),
    (dict(framework="candle", logits="data/weather.txt", seed=4, n=5, temperature=0.9, top_k=3, rand="0.8"),
     ["--framework", "candle", "--logits", "data/weather.txt", "--seed", 4, "--n", 5, "--temperature", 0.9,
      "--top-k", 3, "--rand", "0.8"]),
    # a framework's counts (its calls stream through the session: no tokens kept; this crashed)
    (dict(framework="torch", probs=[3, 2, 2, 1], seed=5, n=50, counts=True),
     ["--framework", "torch", "--probs", "3,2,2,1", "--seed", 5, "--n", 50, "--counts"]),
    (dict(framework="hf", logits="data/weather.txt", seed=2, n=40, top_k=4, cpu="avx2", counts=True),
     ["--framework", "hf", "--logits", "data/weather.txt", "--seed", 2, "--n", 40, "--top-k", 4, "--cpu", "avx2",
      "--counts"]),
    (dict(framework="numpy-legacy", probs=[0.5, 0.25, 0.25], seed=3, n=8, num_samples=2, counts=True),
     ["--framework", "numpy-legacy", "--probs", "0.5,0.25,0.25", "--seed", 3, "--n", 8, "--num-samples", 2,
      "--counts"]),
]


@pytest.mark.parametrize("kw,args", DRAW_CASES)
def test_draw_is_the_cli(kw, args):
    r = samplab.draw(**kw)
    assert r.json == cli_json("draw", *args)
    if "tokens" in r.json:
        assert r.tokens == r.json["tokens"] and r.words == r.json["rng"]["words"]


def test_draw_readme_tokens():
    # the README's numbers: torch draws 0, 306, 26 spending 294,912 words
    r = samplab.draw(framework="torch", probs="data/golden/torch_vec_zipf49152.txt", seed=42, n=3)
    assert r.tokens == [[0], [306], [26]] and r.words == 294912


def test_draw_list_is_the_inline_list():
    assert samplab.draw(method="cdf", probs=[3, 2, 2, 1], n=50).json == \
        samplab.draw(method="cdf", probs="3,2,2,1", n=50).json


def test_draw_numpy_array_is_the_npy_file(tmp_path):
    np = pytest.importorskip("numpy")
    a = np.array([0.1, 0.2, 0.3, 0.4], dtype=np.float32)
    path = tmp_path / "p.npy"
    np.save(path, a)
    r = samplab.draw(framework="torch", probs=a, seed=11, n=6)
    cl = cli_json("draw", "--framework", "torch", "--probs", path, "--seed", 11, "--n", 6)
    assert r.json == cl


@pytest.mark.parametrize("kw,args", [
    (dict(framework="candle", probs=[1, 2], min_p=0.1), ["--framework", "candle", "--probs", "1,2", "--min-p", 0.1]),
    (dict(method="cdf", probs=[1, -2]), ["--method", "cdf", "--probs", "1,-2"]),
    (dict(method="nope", probs=[1, 2]), ["--method", "nope", "--probs", "1,2"]),
    (dict(framework="nope", probs=[1, 2]), ["--framework", "nope", "--probs", "1,2"]),
    (dict(framework="torch", probs="data/no-such-file.txt"), ["--framework", "torch", "--probs",
                                                              "data/no-such-file.txt"]),
    (dict(framework="torch", probs=[1, 2], dtype="float16"), ["--framework", "torch", "--probs", "1,2", "--dtype",
                                                             "float16"]),
    (dict(method="cdf", probs=[1, 2], seed="x"), ["--method", "cdf", "--probs", "1,2", "--seed", "x"]),
    (dict(framework="hf", logits=[1, 2], temperature=0), ["--framework", "hf", "--logits", "1,2", "--temperature",
                                                          0]),
])
def test_draw_errors_are_the_cli_lines(kw, args):
    with pytest.raises(samplab.Error) as e:
        samplab.draw(**kw)
    assert str(e.value) == py_error("draw", *args)


# ---------------------------------------------------------------- gof

def test_gof_method_is_the_cli():
    for kw, args in [
        (dict(probs="3,2,2,1", method="cdf", n=1000), ["--probs", "3,2,2,1", "--method", "cdf", "--n", 1000]),
        (dict(logits="data/weather.txt", method="alias", n=100000, temperature=0.7),
         ["--logits", "data/weather.txt", "--method", "alias", "--n", 100000, "--temperature", 0.7]),
        (dict(probs="0,1,1", method="linear", n=5000, seed=7, null_reps=300),
         ["--probs", "0,1,1", "--method", "linear", "--n", 5000, "--seed", 7, "--null-reps", 300]),
    ]:
        r = samplab.gof(**kw)
        assert r.json == cli_json("gof", *args)
        assert r.p_value == r.json["chi2"]["p"] and r.tv == r.json["tv"]["value"]


def test_gof_counts_and_draws_are_the_cli(tmp_path):
    counts = tmp_path / "c.tsv"
    counts.write_text(cli("draw", "--probs", "3,2,2,1", "--method", "cdf", "--n", 2000, "--counts").stdout)
    draws = tmp_path / "d.txt"
    draws.write_text(cli("draw", "--probs", "3,2,2,2", "--method", "alias", "--n", 3000).stdout)
    assert samplab.gof(probs="1,2,2,3", counts=str(counts)).json == \
        cli_json("gof", "--probs", "1,2,2,3", "--counts", counts, rc=1)
    r = samplab.gof(probs="3,2,2,2", draws=str(draws))
    assert r.json == cli_json("gof", "--probs", "3,2,2,2", "--draws", draws)
    # counts and ids in memory give the same statistics (only "draws" names them otherwise)
    ids = [int(x) for x in draws.read_text().split()]
    c = [ids.count(i) for i in range(4)]
    for m in (samplab.gof(probs=[3, 2, 2, 2], counts=c), samplab.gof(probs=[3, 2, 2, 2], draws=ids)):
        a, b = dict(m.json), dict(r.json)
        a.pop("draws"), b.pop("draws")
        assert a == b


def test_gof_rejects_a_broken_sampler():
    rnd = random.Random(1)
    probs = [0.5, 0.3, 0.2]
    # the off-by-one cdf: u < 0.5 -> 0, u < 0.7 -> 1 (should be 0.8)
    ids = [0 if u < 0.5 else 1 if u < 0.7 else 2 for u in (rnd.random() for _ in range(100000))]
    r = samplab.gof(probs=probs, draws=ids)
    assert r.verdict == "FAIL" and "Pearson" in r.rule


def test_gof_errors_are_the_cli_lines():
    with pytest.raises(samplab.Error) as e:
        samplab.gof(probs=[1, 2], method="cdf")
    assert str(e.value) == py_error("gof", "--probs", "1,2", "--method", "cdf")
    with pytest.raises(samplab.Error) as e:
        samplab.gof(probs=[1, float("nan")], method="cdf", n=10)
    assert str(e.value) == py_error("gof", "--probs", "1,nan", "--method", "cdf", "--n", 10)


# ---------------------------------------------------------------- pipeline and exact

PIPE = [
    ("hf", "data/ties.txt", dict(top_k=2), ["--top-k", 2]),
    ("candle", "data/ties.txt", dict(top_k=2, temperature=1), ["--top-k", 2, "--temperature", 1]),
    ("llamacpp", "data/weather.txt", dict(top_k=3, temperature=0.7), ["--top-k", 3, "--temperature", 0.7]),
    ("vllm", "data/k40p09.txt", dict(top_k=40, top_p=0.9, cpu="avx2"), ["--top-k", 40, "--top-p", 0.9, "--cpu",
                                                                        "avx2"]),
    ("tutorial", "data/weather.txt", dict(temperature=0.5, top_p=0.9), ["--temperature", 0.5, "--top-p", 0.9]),
    ("transformers-js", "data/weather.txt", dict(temperature=0.7, top_k=3, top_p=0.5),
     ["--temperature", 0.7, "--top-k", 3, "--top-p", 0.5]),
    ("sglang", "data/weather.txt", dict(temperature=0.7, top_k=5, top_p=0.9, cpu="avx2"),
     ["--temperature", 0.7, "--top-k", 5, "--top-p", 0.9, "--cpu", "avx2"]),
    ("node-llama-cpp", "data/weather.txt", dict(temperature=0.7, top_k=0, min_p=0.1),
     ["--temperature", 0.7, "--top-k", 0, "--min-p", 0.1]),
    ("hf", "data/weather.txt", dict(repetition_penalty=1.3, context=[0, 1, 1]),
     ["--repetition-penalty", 1.3, "--context", "0,1,1"]),
    ("llamacpp", "data/weather.txt", dict(temperature=0.5, min_p=0.2, samplers="temperature;min_p"),
     ["--temperature", 0.5, "--min-p", 0.2, "--samplers", "temperature;min_p"]),
    ("llamacpp", "data/weather.txt", dict(top_k=2, top_p=0.5, sampling_seq="pk"),
     ["--top-k", 2, "--top-p", 0.5, "--sampling-seq", "pk"]),
]


def test_pipeline_stage_order_refusal_is_the_cli_line():
    with pytest.raises(samplab.Error) as e:
        samplab.pipeline(framework="llamacpp", logits="data/weather.txt", samplers="top_k;infill")
    assert str(e.value) == py_error("pipeline", "--framework", "llamacpp", "--logits", "data/weather.txt",
                                     "--samplers", "top_k;infill")


@pytest.mark.parametrize("fw,src,kw,args", PIPE)
def test_pipeline_is_the_cli(fw, src, kw, args):
    assert samplab.pipeline(framework=fw, logits=src, **kw).json == \
        cli_json("pipeline", "--framework", fw, "--logits", src, *args)


EXACT = [
    (dict(framework="candle", logits="data/weather.txt"), ["--framework", "candle", "--logits", "data/weather.txt"]),
    (dict(framework="numpy", probs="3,2,2,1"), ["--framework", "numpy", "--probs", "3,2,2,1"]),
    (dict(framework="torch", probs="3,2,2,1", replacement=True), ["--framework", "torch", "--probs", "3,2,2,1",
                                                                 "--replacement"]),
    (dict(framework="llamacpp", logits="data/weather.txt", temperature=0.8),
     ["--framework", "llamacpp", "--logits", "data/weather.txt", "--temperature", 0.8]),
    (dict(method="cdf", probs=[0.3] * 7), ["--method", "cdf", "--probs", ",".join(["0.3"] * 7)]),
    (dict(framework="gsl", probs="3,2,2,1", rng="gsl:taus2"), ["--framework", "gsl", "--probs", "3,2,2,1", "--rng",
                                                              "gsl:taus2"]),
]


@pytest.mark.parametrize("kw,args", EXACT)
def test_exact_is_the_cli(kw, args):
    assert samplab.exact(**kw).json == cli_json("exact", *args)


def test_exact_errors_are_the_cli_lines():
    with pytest.raises(samplab.Error) as e:
        samplab.exact(framework="llamacpp", probs="3,2,2,1")
    assert str(e.value) == py_error("exact", "--framework", "llamacpp", "--probs", "3,2,2,1")


# ---------------------------------------------------------------- compare, power, calibrate

COMPARE = [
    (dict(logits="data/k40p09.txt", temperature=0.7, top_k=40, top_p=0.9, top=3),
     ["--logits", "data/k40p09.txt", "--temperature", 0.7, "--top-k", 40, "--top-p", 0.9, "--top", 3]),
    (dict(logits="data/weather.txt", temperature=0.7),
     ["--logits", "data/weather.txt", "--temperature", 0.7]),
    (dict(logits="data/weather.txt", min_p=0.1, temperature=0.5, frameworks=["hf", "llamacpp"]),
     ["--logits", "data/weather.txt", "--min-p", 0.1, "--temperature", 0.5, "--frameworks", "hf,llamacpp"]),
    (dict(logits="data/weather.txt", repetition_penalty=1.3, context=[1, 2, 3]),
     ["--logits", "data/weather.txt", "--repetition-penalty", 1.3, "--context", "1,2,3"]),
]


@pytest.mark.parametrize("kw,args", COMPARE)
def test_compare_is_the_cli(kw, args):
    assert samplab.compare(**kw).json == cli_json("compare", *args)


def test_compare_errors_are_the_cli_lines():
    for kw, args in [(dict(logits="data/weather.txt", frameworks="hf,bogus"),
                      ["--logits", "data/weather.txt", "--frameworks", "hf,bogus"]),
                     (dict(logits="data/weather.txt", frameworks="hf,candle", typical=0.5),
                      ["--logits", "data/weather.txt", "--frameworks", "hf,candle", "--typical", 0.5]),
                     (dict(logits="data/weather.txt", frameworks="hf"),
                      ["--logits", "data/weather.txt", "--frameworks", "hf"])]:
        with pytest.raises(samplab.Error) as e:
            samplab.compare(**kw)
        assert str(e.value) == py_error("compare", *args)


POWER = [
    (dict(probs="3,2,2,1", n=1000, trials=20), ["--probs", "3,2,2,1", "--n", 1000, "--trials", 20]),
    (dict(logits="data/weather.txt", n=1000, trials=20, temperature=0.7, fault="temper"),
     ["--logits", "data/weather.txt", "--n", 1000, "--trials", 20, "--temperature", 0.7, "--fault", "temper"]),
    (dict(fault="mkl-seed-collision", n=100000), ["--fault", "mkl-seed-collision", "--n", 100000]),
]


@pytest.mark.parametrize("kw,args", POWER)
def test_power_is_the_cli(kw, args):
    assert samplab.power(**kw).json == cli_json("power", *args)


def test_power_errors_are_the_cli_lines():
    for kw, args in [(dict(probs="1,2", n=10, target=1.5), ["--probs", "1,2", "--n", 10, "--target", 1.5]),
                     (dict(probs="1,2"), ["--probs", "1,2"]),
                     (dict(probs="1,2", n=10, fault="bogus"), ["--probs", "1,2", "--n", 10, "--fault", "bogus"]),
                     (dict(fault="mkl-seed-collision", logits="1,2"),
                      ["--fault", "mkl-seed-collision", "--logits", "1,2"])]:
        with pytest.raises(samplab.Error) as e:
            samplab.power(**kw)
        assert str(e.value) == py_error("power", *args)


CALIBRATE = [
    (dict(probs="3,2,2,1", method="cdf", n=1000, seeds=20),
     ["--probs", "3,2,2,1", "--method", "cdf", "--n", 1000, "--seeds", 20], 0),
    (dict(logits="data/weather.txt", method="alias", n=1000, seeds=30, first_seed=5, temperature=0.5, rng="mt19937"),
     ["--logits", "data/weather.txt", "--method", "alias", "--n", 1000, "--seeds", 30, "--first-seed", 5,
      "--temperature", 0.5, "--rng", "mt19937"], 0),
]


@pytest.mark.parametrize("kw,args,rc", CALIBRATE)
def test_calibrate_is_the_cli(kw, args, rc):
    assert samplab.calibrate(**kw).json == cli_json("calibrate", *args, rc=rc)


def test_calibrate_errors_are_the_cli_lines():
    for kw, args in [(dict(probs="3,2,2,1", method="bogus", n=10, seeds=3),
                      ["--probs", "3,2,2,1", "--method", "bogus", "--n", 10, "--seeds", 3]),
                     (dict(probs="3,2,2,1", method="cdf", n=10),
                      ["--probs", "3,2,2,1", "--method", "cdf", "--n", 10]),
                     (dict(probs="3,2,2,1", method="cdf", n=10, seeds=3, first_seed="abc"),
                      ["--probs", "3,2,2,1", "--method", "cdf", "--n", 10, "--seeds", 3, "--first-seed", "abc"]),
                     (dict(probs="1,0", method="cdf", n=1000, seeds=3),
                      ["--probs", "1,0", "--method", "cdf", "--n", 1000, "--seeds", 3])]:
        with pytest.raises(samplab.Error) as e:
            samplab.calibrate(**kw)
        assert str(e.value) == py_error("calibrate", *args)


# ---------------------------------------------------------------- generations: the golden runs

def golden_runs(name):
    runs = []
    for line in open(os.path.join(CUR, name)):
        if not line.startswith("run "):
            continue
        f = dict(kv.split("=", 1) for kv in line.split()[2:])
        runs.append(f)
    return runs


HF_NAMES = {"temperature": "temperature", "top_k": "top_k", "top_p": "top_p", "min_p": "min_p",
            "typical_p": "typical", "repetition_penalty": "repetition_penalty"}


def hf_settings(text, genconfig=None):
    """generate()'s keyword arguments as samplab's options, then what the model's generation_config set
    (generate() takes it for the ones the call leaves unset; samplab takes the library's defaults, so it is
    given); the rest stays unset, for samplab's defaults (top_k 50)"""
    kw, args = {}, []
    for part in (text, genconfig):
        if not part or part == "default":
            continue
        for item in part.split(","):
            k, v = item.split(":")
            key = HF_NAMES[k]
            if key in kw:
                continue
            kw[key] = int(v) if key == "top_k" else float(v)
            args += ["--" + key.replace("_", "-"), v]
    return kw, args


GEN = [(f, "hf_generate.safetensors", "avx2") for f in golden_runs("hf_generate.txt")] + \
      [(f, "hf_generate_avx512.safetensors", "avx512") for f in golden_runs("hf_generate_avx512.txt")] + \
      [(f, "hf_defaults.safetensors", "avx2") for f in golden_runs("hf_defaults.txt")]


@pytest.mark.parametrize("run,st,cpu", GEN, ids=["%s-%s" % (g[2], g[0]["logits"]) for g in GEN])
def test_replay_golden_generation_is_the_cli_and_transformers(run, st, cpu):
    kw, args = hf_settings(run["settings"], run.get("genconfig"))
    path = os.path.join(CUR, st)
    r = samplab.replay(framework="hf", logits=path, tensor=run["logits"], context=run["prompt"], seed=run["seed"],
                       cpu=cpu, **kw)
    c = cli_json("replay", "--framework", "hf", "--logits", path, "--tensor", run["logits"], "--context",
                 run["prompt"], "--seed", run["seed"], "--cpu", cpu, *args)
    assert r.json == c
    # and both are what transformers drew, word for word
    assert r.tokens == [int(t) for t in run["tokens"].split(",")]
    assert r.words == [int(w) for w in run["words"].split(",")]
    # the settings in force: what was left unset is transformers' default, and named as such
    unset = [k for k in HF_NAMES.values() if k not in kw]
    assert r.defaulted == unset + ["min_keep"]
    assert r.settings["top_k"] == kw.get("top_k", 50) and r.settings["min_p"] == kw.get("min_p")
    # the prompt as a list is the prompt as an inline list
    r2 = samplab.replay(framework="hf", logits=path, tensor=run["logits"],
                        context=[int(t) for t in run["prompt"].split(",")], seed=run["seed"], cpu=cpu, **kw)
    assert r2.json == r.json


def test_defaults_keyword_is_refused_as_the_cli_refuses_it():
    """the frameworks' defaults always apply: defaults=True is refused with the command's message"""
    with pytest.raises(samplab.Error) as e:
        samplab.pipeline(framework="hf", logits=[3, 2, 2, 1], defaults=True)
    err = subprocess.run([BIN, "pipeline", "--framework", "hf", "--logits", "3,2,2,1", "--defaults"],
                         capture_output=True, text=True)
    assert err.returncode == 2 and str(e.value) == py_error("pipeline", "--framework", "hf", "--logits", "3,2,2,1",
                                                            "--defaults")
    assert str(e.value).startswith("samplab.pipeline(): defaults: refused") and "(top_k=0)" in str(e.value)
    r = samplab.pipeline(framework="llamacpp", logits=[3, 2, 2, 1], top_k=0)
    assert r.settings["top_k"] == 0 and r.settings["temperature"] == 0.8 and "top_k" not in r.defaulted


def test_check_seeded_is_the_cli():
    run = golden_runs("hf_generate.txt")[1]
    kw, args = hf_settings(run["settings"])
    path = os.path.join(CUR, "hf_generate.safetensors")
    tokens = [int(t) for t in run["tokens"].split(",")]
    base = ["--framework", "hf", "--logits", path, "--tensor", run["logits"], "--context", run["prompt"],
            "--seed", run["seed"], "--cpu", "avx2"] + args
    r = samplab.check(framework="hf", logits=path, tensor=run["logits"], context=run["prompt"], seed=run["seed"],
                      tokens=tokens, cpu="avx2", **kw)
    assert r.first_divergence is None
    assert r.json == cli_json("check", *base, "--tokens", ",".join(map(str, tokens)))
    bad = list(tokens)
    bad[5] = (bad[5] + 1) % 512
    r = samplab.check(framework="hf", logits=path, tensor=run["logits"], context=run["prompt"], seed=run["seed"],
                      tokens=bad, cpu="avx2", **kw)
    assert r.first_divergence == 5
    assert r.json == cli_json("check", *base, "--tokens", ",".join(map(str, bad)), rc=1)


@pytest.mark.parametrize("kw,args,rc", [
    (dict(framework="hf", tensor="r002.logits", context="1,17,300,42,7,99,5,250", cpu="avx2",
          trials=20), ["--tensor", "r002.logits", "--context", "1,17,300,42,7,99,5,250", "--cpu",
                       "avx2", "--trials", 20], 0),
    (dict(framework="hf", tensor="r002.logits", context="1,17,300,42,7,99,5,250", top_k=3, cpu="avx2", trials=10),
     ["--tensor", "r002.logits", "--context", "1,17,300,42,7,99,5,250", "--top-k", 3, "--cpu", "avx2",
      "--trials", 10], 1),
])
def test_check_without_seed_is_the_cli(kw, args, rc):
    run = golden_runs("hf_generate.txt")[1]
    path = os.path.join(CUR, "hf_generate.safetensors")
    r = samplab.check(logits=path, tokens=run["tokens"], **kw)
    assert r.json == cli_json("check", "--framework", "hf", "--logits", path, "--tokens", run["tokens"], *args, rc=rc)
    assert r.verdict == ("consistent" if rc == 0 else "rejected")


def test_replay_in_memory_rows_are_the_text_file(tmp_path):
    rows = [[1.0, 2.0, 0.5, -1.0], [0.0, 0.0, 3.0, 1.0], [2.5, 2.5, -0.5, 0.25]]
    path = tmp_path / "rows.txt"
    path.write_text("\n".join(" ".join(repr(v) for v in r) for r in rows) + "\n")
    for fw in ("hf", "llamacpp", "candle", "vllm"):
        a = samplab.replay(framework=fw, logits=rows, seed=3, temperature=0.9).json
        b = cli_json("replay", "--framework", fw, "--logits", path, "--seed", 3, "--temperature", 0.9)
        assert a["tokens"] == b["tokens"] and a["words"] == b["words"] and a["kept"] == b["kept"]
    assert samplab.replay(framework="all", logits=str(path), seed=3).json == \
        cli_json("replay", "--framework", "all", "--logits", path, "--seed", 3)


MIROSTAT_ROWS = [[1.0, 2.0, 0.5, -1.0, 0.25, 1.5], [0.0, 0.0, 3.0, 1.0, -2.0, 0.5], [2.5, 2.5, -0.5, 0.25, 1.0, 2.0],
                 [0.5, 1.0, 1.5, 2.0, 2.5, 3.0]]


@pytest.mark.parametrize("kw,args", [
    (dict(mirostat=2), ["--mirostat", 2]),
    (dict(mirostat=1, mirostat_ent=3.0, mirostat_lr=0.2, temperature=0.7),
     ["--mirostat", 1, "--mirostat-ent", 3.0, "--mirostat-lr", 0.2, "--temperature", 0.7]),
    (dict(samplers="top_k;adaptive_p;temperature", adaptive_target=0.4, adaptive_decay=0.5),
     ["--samplers", "top_k;adaptive_p;temperature", "--adaptive-target", 0.4, "--adaptive-decay", 0.5]),
])
def test_replay_and_draw_with_mirostat_and_adaptive_p_are_the_cli(tmp_path, kw, args):
    # the keywords reach the chain through the library's schema (no mirror of the C settings struct)
    path = tmp_path / "rows.txt"
    path.write_text("\n".join(" ".join(repr(v) for v in r) for r in MIROSTAT_ROWS) + "\n")
    a = samplab.replay(framework="llamacpp", logits=MIROSTAT_ROWS, seed=5, **kw).json
    b = cli_json("replay", "--framework", "llamacpp", "--logits", path, "--seed", 5, *args)
    assert a["tokens"] == b["tokens"] and a["words"] == b["words"] and a["kept"] == b["kept"]
    assert a["settings"] == b["settings"] and a["defaulted"] == b["defaulted"]
    assert a["settings"]["mirostat"] == kw.get("mirostat", 0)
    r = samplab.draw(framework="llamacpp", logits=MIROSTAT_ROWS[0], seed=5, n=20, **kw)
    assert r.json == cli_json("draw", "--framework", "llamacpp", "--logits", ",".join(map(repr, MIROSTAT_ROWS[0])),
                              "--seed", 5, "--n", 20, *args)


def test_mirostat_with_a_stage_it_replaces_is_the_cli_line():
    with pytest.raises(samplab.Error) as e:
        samplab.draw(framework="llamacpp", logits="data/weather.txt", seed=1, mirostat=2, top_k=5)
    assert str(e.value) == py_error("draw", "--framework", "llamacpp", "--logits", "data/weather.txt", "--seed", 1,
                                     "--mirostat", 2, "--top-k", 5)
    assert "llama.cpp ignores it" in str(e.value)


# ---------------------------------------------------------------- what a user hands in

@pytest.mark.parametrize("kw,args", [
    (dict(top_k="abc"), ["--top-k", "abc"]),
    (dict(top_k=2.5), ["--top-k", 2.5]),
    (dict(temperature="hot"), ["--temperature", "hot"]),
    (dict(temperature=float("inf")), ["--temperature", "inf"]),
    (dict(top_p=float("nan")), ["--top-p", "nan"]),
    (dict(n=-1), ["--n", -1]),
    (dict(n=10 ** 13), ["--n", 10 ** 13]),
    (dict(n=2 ** 64), ["--n", 2 ** 64]),          # wrapped to 0 through ctypes: "--n must be at least 1"
    (dict(num_samples=2 ** 64), ["--num-samples", 2 ** 64]),
])
def test_option_values_are_checked_as_the_cli_checks_their_text(kw, args):
    # a str or a number that is not an integer raised ValueError or a shorter line than the command's
    with pytest.raises(samplab.Error) as e:
        samplab.draw(framework="hf", logits="data/weather.txt", **kw)
    assert str(e.value) == py_error("draw", "--framework", "hf", "--logits", "data/weather.txt", *args)


@pytest.mark.parametrize("call,kw,args", [
    ("draw", dict(framework="hf", logits="data/weather.txt", epsilon_cutoff=3e-4),
     ["draw", "--framework", "hf", "--logits", "data/weather.txt", "--epsilon-cutoff", "3e-4"]),
    ("pipeline", dict(framework="vllm", logits="data/weather.txt", allowed_token_ids="1,2"),
     ["pipeline", "--framework", "vllm", "--logits", "data/weather.txt", "--allowed-token-ids", "1,2"]),
    ("replay", dict(framework="vllm", logits="data/weather.txt", logit_bias="1+2"),
     ["replay", "--framework", "vllm", "--logits", "data/weather.txt", "--logit-bias", "1+2"]),
])
def test_a_setting_samplab_does_not_model_is_refused_by_name(call, kw, args):
    # the library's schema refuses it as the command line does: never ignored, never "unknown option"
    with pytest.raises(samplab.Error) as e:
        getattr(samplab, call)(**kw)
    assert str(e.value) == py_error(*args)
    assert "not modelled by samplab" in str(e.value)


def test_keywords_are_the_librarys_schema():
    # the package holds no option table: its keys and kinds come from libsamplab
    from samplab import _lib
    assert _lib.schema["top_k"]["option"] == "--top-k" and _lib.schema["top_k"]["kind"] == "long"
    assert _lib.schema["eta_cutoff"]["kind"] == "not_modelled"
    with pytest.raises(TypeError) as e:
        samplab.draw(framework="hf", logits="data/weather.txt", top_kk=3)
    assert str(e.value) == "samplab.draw() got an unexpected keyword argument 'top_kk'"


def test_option_values_as_text_and_integral_floats():
    a = samplab.draw(framework="hf", logits="data/weather.txt", n=5, top_k="3", temperature="0.7")
    b = samplab.draw(framework="hf", logits="data/weather.txt", n=5.0, top_k=3.0, temperature=0.7)
    assert a.json == b.json == cli_json("draw", "--framework", "hf", "--logits", "data/weather.txt", "--n", 5,
                                        "--top-k", 3, "--temperature", 0.7)


def test_draw_without_seed_is_the_command_without_seed():
    # gsl's default seed is gsl_rng_default_seed 0, not 42: draw() passed 42 always
    for kw, args in [(dict(framework="gsl", probs=[3, 2, 2, 1], n=6), ["--framework", "gsl", "--probs", "3,2,2,1"]),
                     (dict(method="cdf", probs=[3, 2, 2, 1], n=6), ["--method", "cdf", "--probs", "3,2,2,1"])]:
        assert samplab.draw(**kw).json == cli_json("draw", *args, "--n", 6)


def test_bytes_are_a_files_contents(tmp_path):
    # bytes were iterated as their byte values (b"3,2" drew from [51, 44, 50])
    path = tmp_path / "w.txt"
    path.write_bytes(b"3 2 2 1\n")
    assert samplab.draw(method="cdf", probs=b"3 2 2 1\n", n=20).tokens == \
        cli_json("draw", "--method", "cdf", "--probs", path, "--n", 20)["tokens"]


def test_ids_and_counts_are_whole_numbers():
    # non-integer draws, counts and tokens were truncated by int(); counts past 2^64 wrapped
    for kw in [dict(draws=[0.5, 1, 2]), dict(draws=["a"]), dict(counts=[1.5, 2, 3]), dict(counts=[2 ** 64, 1, 1]),
               dict(counts=[2 ** 53 + 1, 0, 0])]:
        with pytest.raises(samplab.Error):
            samplab.gof(probs=[0.5, 0.3, 0.2], **kw)
    assert samplab.gof(probs=[0.5, 0.3, 0.2], draws=[0.0, 1.0, 2.0]).json == \
        samplab.gof(probs=[0.5, 0.3, 0.2], draws=[0, 1, 2]).json
    rows = [[1.0, 2.0, 3.0, 0.5], [0.1, 0.2, 3.0, 1.0]]
    with pytest.raises(samplab.Error) as e:
        samplab.check(framework="hf", logits=rows, tokens=[2.7, 0], seed=1)
    assert "entry 0: '2.7' is not a token id: token ids are integers" in str(e.value)


def test_context_and_tokens_errors_are_the_cli_lines(tmp_path):
    rows = [[1.0, 2.0, 3.0, 0.5], [0.1, 0.2, 3.0, 1.0]]
    path = tmp_path / "rows.txt"
    path.write_text("\n".join(",".join(repr(v) for v in r) for r in rows) + "\n")
    with pytest.raises(samplab.Error) as e:
        samplab.replay(framework="llamacpp", logits=rows, seed=1, context=[9])
    assert str(e.value) == py_error("replay", "--framework", "llamacpp", "--logits", path, "--seed", 1,
                                     "--context", 9)
    with pytest.raises(samplab.Error) as e:
        samplab.check(framework="hf", logits=rows, tokens=[2], seed=1)
    # the rows are named as given: the file, or <logits> for the list
    assert str(e.value) == py_error("check", "--framework", "hf", "--logits", path, "--tokens", 2, "--seed",
                                     1).replace(str(path), "<logits>")


def test_rows_in_memory_are_checked_as_a_file(tmp_path):
    path = tmp_path / "nan.txt"
    path.write_text("1.0,nan\n1.0,2.0\n")
    want = py_error("replay", "--framework", "candle", "--logits", path, "--seed", 1)
    with pytest.raises(samplab.Error) as e:
        samplab.replay(framework="candle", logits=[[1.0, float("nan")], [1.0, 2.0]], seed=1)
    assert str(e.value) == want.replace(str(path), "<logits>")
    # a flat list is the command line's inline list: one step
    assert samplab.replay(framework="candle", logits=[1.0, 2.0, 3.0], seed=1).json == \
        cli_json("replay", "--framework", "candle", "--logits", "1,2,3", "--seed", 1)


def test_a_float64_array_is_the_float64_npy_file(tmp_path):
    np = pytest.importorskip("numpy")
    a = np.array([3.0, 2.0, 2.0, 1.0])
    path = tmp_path / "p.npy"
    np.save(path, a)
    r = samplab.exact(framework="torch", probs=a).json
    c = cli_json("exact", "--framework", "torch", "--probs", path)
    r.pop("source"), c.pop("source")
    assert r == c and "float64 p" in r["model"]


# ---------------------------------------------------------------- samplab.testing

def test_assert_distribution_passes_a_right_sampler_and_fails_a_wrong_one():
    probs = [0.5, 0.3, 0.2]
    rnd = random.Random(2)

    def right():
        u = rnd.random()
        return 0 if u < 0.5 else 1 if u < 0.8 else 2

    def wrong():
        u = rnd.random()
        return 0 if u < 0.5 else 1 if u < 0.78 else 2

    assert assert_distribution(probs, sampler=right, n=100_000).verdict == "PASS"
    with pytest.raises(AssertionError, match="Pearson"):
        assert_distribution(probs, sampler=wrong, n=100_000)
    # a sampler returning a float is not rounded into a token
    with pytest.raises(AssertionError, match="1.7 is not a token id"):
        assert_distribution(probs, sampler=lambda: 1.7, n=10)


def test_assert_matches():
    assert_matches([[0], [306], [26]], framework="torch", probs="data/golden/torch_vec_zipf49152.txt", seed=42)
    with pytest.raises(AssertionError, match="token 1"):
        assert_matches([0, 307, 26], framework="torch", probs="data/golden/torch_vec_zipf49152.txt", seed=42)
    run = golden_runs("hf_generate.txt")[0]
    tokens = [int(t) for t in run["tokens"].split(",")]
    assert_matches(tokens, framework="hf", logits=os.path.join(CUR, "hf_generate.safetensors"), tensor=run["logits"],
                   context=run["prompt"], seed=run["seed"], cpu="avx2")


# ---------------------------------------------------------------- llama.cpp's DRY (make test sets SL_VOCAB_DIR)

def _dry_logits(tmp_path):
    import numpy as np
    x = np.random.default_rng(1).standard_normal(32000).astype(np.float32)
    x[[5, 6, 7]] += 6  # the repeat 5, 6 -> 7 the context sets up
    path = tmp_path / "dry.npy"
    np.save(path, x)
    vocab = os.path.join(os.environ["SL_VOCAB_DIR"], "ggml-vocab-llama-spm.gguf")
    return str(path), vocab


def test_pipeline_dry_is_the_cli(tmp_path):
    path, vocab = _dry_logits(tmp_path)
    kw = dict(dry_multiplier=0.8, dry_base=1.75, dry_allowed_length=1, dry_penalty_last_n=64,
              dry_sequence_breaker=["\\n", ":"], vocab=vocab, context=[5, 6, 7, 5, 6], top_k=0, top_p=1, min_p=0)
    r = samplab.pipeline(framework="llamacpp", logits=path, **kw)
    assert r.json == cli_json("pipeline", "--framework", "llamacpp", "--logits", path, "--dry-multiplier", 0.8,
                              "--dry-base", 1.75, "--dry-allowed-length", 1, "--dry-penalty-last-n", 64,
                              "--dry-sequence-breaker", "\\n", "--dry-sequence-breaker", ":", "--vocab", vocab,
                              "--context", "5,6,7,5,6", "--top-k", 0, "--top-p", 1, "--min-p", 0)
    assert r.json["settings"]["dry_multiplier"] == 0.8 and r.json["settings"]["dry_allowed_length"] == 1
    assert "dry" in r.json["steps"]
    off = samplab.pipeline(framework="llamacpp", logits=path, **dict(kw, dry_multiplier=0))
    assert r.json["probs"][7] < off.json["probs"][7]  # 7 would extend the repeat 5, 6


def test_dry_without_vocabulary_is_the_cli_refusal(tmp_path):
    path, _ = _dry_logits(tmp_path)
    with pytest.raises(samplab.Error) as e:
        samplab.pipeline(framework="llamacpp", logits=path, dry_multiplier=0.8)
    assert str(e.value) == py_error("pipeline", "--framework", "llamacpp", "--logits", path, "--dry-multiplier", 0.8)
    assert "vocab=FILE.gguf" in str(e.value)


# ---------------------------------------------------------------- batches (data/golden/current/hf_batch.txt)

def batch_runs():
    runs = []
    with open(os.path.join(CUR, "hf_batch.txt")) as f:
        for line in f:
            if line.startswith("run "):
                runs.append(dict(kv.split("=", 1) for kv in line.split()[2:]))
    return runs


def batch_kw(run):
    kw = dict(framework="hf", cpu="avx2", seed=run["seed"], context=run["prompts"], tensor=run["logits"])
    args = ["--framework", "hf", "--cpu", "avx2", "--seed", run["seed"], "--context", run["prompts"], "--tensor",
            run["logits"]]
    if run["N"] != "1":
        kw["num_return_sequences"] = int(run["N"])
        args += ["--num-return-sequences", run["N"]]
    for key in ("eos", "pad"):
        if run[key] != "none":
            kw[key + "_token_id"] = int(run[key])
            args += ["--%s-token-id" % key, run[key]]
    if run["settings"] != "default":
        for kv in run["settings"].split(","):
            k, v = kv.split(":")
            kw[k] = int(v) if k == "top_k" else float(v)
            args += ["--" + k.replace("_", "-"), v]
    return kw, args


def rows(text):
    return [[int(x) for x in r.split(",")] for r in text.split(";")]


# one in seven runs: every shape, EOS and pad case, settings
BATCH = batch_runs()[::7]


@pytest.mark.parametrize("run", BATCH, ids=[r["logits"] for r in BATCH])
def test_replay_batch_is_the_cli_and_transformers(run):
    kw, args = batch_kw(run)
    path = os.path.join(CUR, "hf_batch.safetensors")
    r = samplab.replay(logits=path, **kw)
    assert r.json == cli_json("replay", "--logits", path, *args)
    assert r.tokens == rows(run["tokens"]) and r.words == rows(run["words"])
    assert r.rows == int(run["B"]) * int(run["N"])
    # the prompts as a list of rows are the inline rows
    kw["context"] = rows(run["prompts"])
    assert samplab.replay(logits=path, **kw).json == r.json
    # check with the seed: no divergence; one token changed in the last row: found there
    c = samplab.check(logits=path, tokens=r.tokens, **kw)
    assert c.first_divergence is None and c.json == cli_json("check", "--logits", path, *args, "--tokens",
                                                             run["tokens"])
    bad = [list(t) for t in r.tokens]
    bad[-1][0] = (bad[-1][0] + 1) % 128 if run["model"] == "llama128" else (bad[-1][0] + 1) % 512
    c = samplab.check(logits=path, tokens=bad, **kw)
    assert c.first_divergence == 0 and c.row == len(bad) - 1


def test_batch_keywords_from_the_schema_refuse_as_the_cli(tmp_path):
    path = os.path.join(CUR, "hf_batch.safetensors")
    base = dict(framework="hf", logits=path, tensor="b001.logits", context=[[1, 17, 30, 42, 7, 99, 5, 25],
                                                                            [0, 0, 0, 0, 0, 1, 3, 9]])
    for kw, args in [(dict(eos_token_id=128), ["--eos-token-id", 128]),
                     (dict(num_return_sequences=2), ["--num-return-sequences", 2]),
                     (dict(eos_token_id=1, pad_token_id=999), ["--eos-token-id", 1, "--pad-token-id", 999])]:
        with pytest.raises(samplab.Error) as e:
            samplab.replay(**base, **kw)
        assert str(e.value) == py_error("replay", "--framework", "hf", "--logits", path, "--tensor", "b001.logits",
                                         "--context", "1,17,30,42,7,99,5,25;0,0,0,0,0,1,3,9", *args)
    # --context-file as a keyword: the same rows
    f = tmp_path / "prompts.txt"
    f.write_text("1,17,30,42,7,99,5,25\n0,0,0,0,0,1,3,9\n")
    a = samplab.replay(framework="hf", logits=path, tensor="b001.logits", context_file=str(f), seed=0, cpu="avx2")
    b = samplab.replay(**base, seed=0, cpu="avx2")
    assert a.json == b.json and a.tokens[0][:2] == [74, 48]


def test_draw_batch_is_the_cli():
    probs = [[5, 1, 1, 1, 1], [1, 1, 1, 1, 5], [1, 2, 3, 4, 5]]
    inline = ";".join(",".join(map(str, r)) for r in probs)
    for repl in (False, True):
        d = samplab.draw(framework="torch", probs=probs, seed=7, n=3, num_samples=2, replacement=repl)
        c = cli_json("draw", "--framework", "torch", "--probs", inline, "--seed", 7, "--n", 3, "--num-samples", 2,
                     *(["--replacement"] if repl else []))
        assert d.json == c and d.rows == 3 and len(d.tokens) == 3 and len(d.tokens[0]) == 3
        assert d.row_words[-1][-1] == d.words
    with pytest.raises(samplab.Error) as e:
        samplab.draw(framework="torch", probs=[[1, 2], [3, 4, 5]])
    assert str(e.value) == py_error("draw", "--framework", "torch", "--probs", "1,2;3,4,5")


# ---------------------------------------------------------------- llama.cpp's --logit-bias

def test_logit_bias_is_the_cli():
    kw = dict(framework="llamacpp", logits=[1, 2, 3, 4, 5, 6], seed=3, n=20)
    r = samplab.draw(logit_bias=["5-inf", "4-inf", "0+2.5"], **kw)
    assert r.json == cli_json("draw", "--framework", "llamacpp", "--logits", "1,2,3,4,5,6", "--seed", 3, "--n", 20,
                              "--logit-bias", "5-inf", "--logit-bias", "4-inf", "--logit-bias", "0+2.5")
    assert 4 not in r.tokens and 5 not in r.tokens  # -inf: never drawn
    assert r.json["settings"]["logit_bias"] == [[5, "-inf"], [4, "-inf"], [0, 2.5]]
    assert samplab.draw(**kw).tokens != r.tokens


@pytest.mark.parametrize("bias", ["9+1", "-1+1", "1+x", "1*2", "1-nan", "1+1e50"])
def test_logit_bias_refusals_are_the_cli(bias):
    with pytest.raises(samplab.Error) as e:
        samplab.draw(framework="llamacpp", logits=[1, 2, 3], seed=3, logit_bias=bias)
    assert str(e.value) == py_error("draw", "--framework", "llamacpp", "--logits", "1,2,3", "--seed", 3,
                                     "--logit-bias", bias)
