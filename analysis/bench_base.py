#!/usr/bin/python3
"""bench_base.py — this build's bin/samplab against the one built from another
commit (BENCH_BASE, e.g. the commit before a refactor), the same commands on the
same inputs in one run, as ratios: what "no slowdown" is measured by.

The base is built once per commit into build/bench-base/SHA/ (a detached git
worktree of the repository, `make bin/samplab`), so a second run reuses it.
Inputs are made here with NumPy (seeded): one float32 logits row at V = 151,936
(Qwen's vocabulary) and a [100, 151936] float32 generation. Every command gives
its settings explicitly, so a change of defaults does not change the work. Each
is run 7 times per binary, alternating binaries; the least wall time of the whole
process is printed (the least: other work on the machine only adds) (start, reading and printing included). The last column says
whether both printed the same bytes (a changed default or a new JSON field shows there).
A command that fails in either build is named with its exit status."""
import os
import subprocess
import sys
import tempfile
import time

import numpy as np

REPS = 7


def build_base(ref):
    sha = subprocess.run(["git", "rev-parse", "--verify", ref + "^{commit}"], capture_output=True, text=True)
    if sha.returncode:
        sys.exit("bench_base: BENCH_BASE=%s is not a commit of this repository" % ref)
    sha = sha.stdout.strip()
    root = os.path.join("build", "bench-base", sha)
    binary = os.path.join(root, "src", "bin", "samplab")
    if not os.path.exists(binary):
        os.makedirs(root, exist_ok=True)
        src = os.path.join(root, "src")
        if not os.path.isdir(src):
            subprocess.run(["git", "worktree", "add", "--detach", "-f", src, sha], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["make", "-C", src, "-j2", "bin/samplab"], check=True, stdout=subprocess.DEVNULL)
    return sha, binary


def write_npy(path, a):
    np.save(path, np.ascontiguousarray(a, dtype=np.float32))


def inputs(d):
    rng = np.random.default_rng(20261201)
    big = (rng.standard_normal(151936) * 3).astype(np.float32)
    gen = (rng.standard_normal((100, 151936)) * 3).astype(np.float32)
    write_npy(os.path.join(d, "row.npy"), big)
    write_npy(os.path.join(d, "gen.npy"), gen)
    probs = np.exp(big - big.max())
    np.savetxt(os.path.join(d, "probs.txt"), probs / probs.sum(), fmt="%.9g")
    return os.path.join(d, "row.npy"), os.path.join(d, "gen.npy"), os.path.join(d, "probs.txt")


def commands(row, gen, probs):
    llama = ["--top-k", "40", "--top-p", "0.95", "--min-p", "0.05", "--temperature", "0.8"]
    hf = ["--temperature", "0.7", "--top-k", "50", "--top-p", "0.9"]
    return [
        ("pipeline llamacpp, V 151,936", ["pipeline", "--framework", "llamacpp", "--logits", row] + llama + ["--json"]),
        ("pipeline hf, V 151,936", ["pipeline", "--framework", "hf", "--logits", row] + hf + ["--json"]),
        ("draw llamacpp x 2000, V 151,936", ["draw", "--framework", "llamacpp", "--logits", row, "--n", "2000",
                                             "--seed", "7", "--counts"] + llama),
        ("replay hf 100 x 151,936", ["replay", "--framework", "hf", "--logits", gen, "--seed", "7"] + hf),
        ("replay llamacpp 100 x 151,936", ["replay", "--framework", "llamacpp", "--logits", gen, "--seed", "7"] + llama),
        # the four frameworks that take every setting, each given (none left to a default)
        ("compare, V 151,936", ["compare", "--logits", row, "--frameworks", "hf,llamacpp,vllm,tutorial",
                                "--temperature", "0.8", "--top-k", "40", "--top-p", "1", "--min-p", "0"]),
        ("exact torch, V 151,936", ["exact", "--framework", "torch", "--probs", probs]),
        ("gof alias 10^7 draws, V 151,936", ["gof", "--probs", probs, "--method", "alias", "--n", "10000000",
                                             "--null-reps", "0"]),
    ]


def run(binary, args):
    t0 = time.perf_counter()
    p = subprocess.run([binary] + args, capture_output=True)
    return time.perf_counter() - t0, p.returncode, p.stdout, p.stderr


def main():
    ref = os.environ.get("BENCH_BASE", "")
    print("## This build against another commit (same commands, same run; least of %d whole runs)" % REPS)
    print()
    if not ref:
        print("Set BENCH_BASE=<commit> (`make bench BENCH_BASE=HEAD~5`) to time this build against that one.")
        return
    sha, base = build_base(ref)
    with tempfile.TemporaryDirectory() as d:
        row, gen, probs = inputs(d)
        print("base: %s (%s); this: bin/samplab" % (sha[:12], ref))
        print()
        print("| command | base s | this s | this / base | same output |")
        print("|---|---:|---:|---:|---|")
        for name, args in commands(row, gen, probs):
            tb, tt = [], []
            for _ in range(REPS):
                b = run(base, args)
                t = run("bin/samplab", args)
                tb.append(b[0])
                tt.append(t[0])
            if b[1] or t[1]:
                print("| %s | - | - | - | exit %d (base) / %d (this): %s |" % (name, b[1], t[1],
                      (t[3] or b[3]).decode(errors="replace").strip()[:120]))
                continue
            mb, mt = min(tb), min(tt)
            print("| %s | %.3f | %.3f | %.2f | %s |" % (name, mb, mt, mt / mb, "yes" if b[1:] == t[1:] else "no"))


if __name__ == "__main__":
    main()
