#!/usr/bin/python3
"""exact_live.py — samplab's torch 2.x exact audit against the live torch in a chroot,
on cases the tests do not hold (fresh random vectors and seeds). Not a golden
generator: it prints what it compared and how many differ.

  1. cdf path, exact: for random vectors (float32 and float64, with zeros, ties and
     tiny weights), `samplab exact --framework torch --replacement --num-samples 2`
     gives the exact counts; torch.multinomial(p, 2, replacement=True) is fed both
     sides of every boundary they imply (crafted MT19937 state) and must draw the
     token the counts give.
  2. cdf path, statistical: N samples from torch (seeded) against the audit's exact
     induced distribution and against the ideal, Pearson chi-square by `samplab gof`;
     two float32 vectors are built so that the float32 running sum erases one token
     (never drawn) or doubles it, where the ideal is rejected and the audit is not.
  3. the race, statistical: N calls of torch.multinomial(p, 1) (rows of a batch) against
     the ideal, which the audit bounds within its TV bound.
  4. seeds, token for token: torch.manual_seed(S) then calls of multinomial against
     `samplab draw --framework torch --seed S`.

Usage (host): python3 exact_live.py CHROOT SAMPLAB WORKDIR
  CHROOT: a Debian sid chroot with python3-torch; SAMPLAB: the samplab binary;
  WORKDIR: scratch folder (created), which must lie inside CHROOT.
The torch side runs as: python3 exact_live.py --torch JOB IN OUT (inside the chroot).
"""
import json
import os
import random
import shutil
import subprocess
import sys

N53 = 1 << 53
SEED = 20260601  # the vectors and seeds here are drawn from this, not from the tests'


# ---------------------------------------------------------------- the torch side (in the chroot)

def torch_side(job, src, dst):
    import numpy as np
    import torch
    from exact_crafted import torch_set_words, torch_words
    DT = {"float32": torch.float32, "float64": torch.float64}
    jobs = json.load(open(src))
    out = []
    for j in jobs:
        p = torch.tensor(j["p"], dtype=DT[j["dtype"]])
        if job == "probe":
            torch_set_words(torch_words(j["ks"]))
            out.append(torch.multinomial(p, len(j["ks"]), replacement=True).tolist())
        elif job == "count":
            torch.manual_seed(j["seed"])
            c = np.zeros(len(j["p"]), dtype=np.int64)
            for _ in range(j["calls"]):
                if j["repl"]:
                    x = torch.multinomial(p, j["n"], replacement=True)
                else:
                    x = torch.multinomial(p.expand(j["n"], len(j["p"])).contiguous(), 1).flatten()
                c += np.bincount(x.numpy(), minlength=len(j["p"]))
            out.append(c.tolist())
        elif job == "seeds":
            torch.manual_seed(j["seed"])
            out.append([torch.multinomial(p, j["n"], replacement=bool(j["repl"])).tolist() for _ in range(j["calls"])])
    json.dump({"torch": torch.__version__, "out": out}, open(dst, "w"))


# ---------------------------------------------------------------- the host side

def run_torch(chroot, work, job, jobs):
    inner = "/" + os.path.relpath(work, chroot)
    json.dump(jobs, open(os.path.join(work, job + ".in.json"), "w"))
    subprocess.run(["chroot", chroot, "/usr/bin/env", "-u", "ATEN_CPU_CAPABILITY", "/usr/bin/python3",
                    inner + "/exact_live.py", "--torch", job, inner + "/" + job + ".in.json",
                    inner + "/" + job + ".out.json"], check=True)
    r = json.load(open(os.path.join(work, job + ".out.json")))
    return r["torch"], r["out"]


def write_vec(work, name, p):
    path = os.path.join(work, name)
    with open(path, "w") as f:
        f.write("\n".join(repr(v) for v in p) + "\n")
    return path


def samplab(binary, *args):
    r = subprocess.run([binary] + list(args), capture_output=True, text=True)
    return r.returncode, r.stdout, r.stderr


def rand_vec(rng, dtype):
    V = rng.randint(2, 48)
    tiny = 1e-45 if dtype == "float32" else 5e-324
    pick = [0.0, 1.0, 0.5, tiny, 1e-7, None, None, None, None]
    p = [rng.random() if x is None else x for x in (rng.choice(pick) for _ in range(V))]
    if not any(v > 1e-30 for v in p):
        p[rng.randrange(V)] = 1.0
    if dtype == "float32":
        import struct
        p = [struct.unpack("f", struct.pack("f", v))[0] for v in p]
    return p


def induced(binary, work, name, p, dtype, extra):
    path = write_vec(work, name, p)
    rc, out, err = samplab(binary, "exact", "--framework", "torch", "--dtype", dtype, "--probs", path, "--json",
                           *extra)
    assert rc == 0, err
    return json.loads(out)


def main():
    chroot, binary, work = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
    os.makedirs(work, exist_ok=True)
    here = os.path.dirname(os.path.abspath(__file__))
    shutil.copy(os.path.join(here, "exact_live.py"), work)
    shutil.copy(os.path.join(os.path.dirname(here), "exact_crafted.py"), work)
    rng = random.Random(SEED)

    # 1. cdf path: both sides of every boundary of the exact counts
    jobs, expect = [], []
    nvec = 0
    for i in range(300):
        dtype = ("float32", "float64")[i % 2]
        p = rand_vec(rng, dtype)
        j = induced(binary, work, "cdf_%d.txt" % i, p, dtype, ["--replacement", "--num-samples", "2"])
        nvec += 1
        counts = [int(s.split("/")[0]) for s in j["induced"]]
        hi, edges = 0, []
        for c in counts[:-1]:
            hi += c
            if 0 < hi < N53:
                edges.append(hi)
        edges = sorted(set(edges))
        for K in edges or [N53 // 2]:
            ks = [K - 1, K]
            jobs.append({"dtype": dtype, "p": p, "ks": ks})
            exp = []
            for k in ks:
                acc = 0
                for t, c in enumerate(counts):
                    acc += c
                    if k < acc:
                        exp.append(t)
                        break
            expect.append(exp)
    ver, got = run_torch(chroot, work, "probe", jobs)
    bad = sum(g != e for g, e in zip(got, expect))
    print("1. cdf boundaries, torch %s: %d vectors, %d uniforms on both sides of %d boundaries, %d differ"
          % (ver, nvec, 2 * len(jobs), len(jobs), bad))

    # 2. cdf path, statistics: torch's draws against the exact induced distribution and the ideal
    cases = [("never", "float32", [0.75, 2.9e-8, 0.25], 10 ** 7, 100),
             ("doubled", "float32", [0.75, 3.0e-8, 0.25], 10 ** 7, 100)]
    for i in range(4):
        dtype = ("float32", "float64")[i % 2]
        cases.append(("random%d" % i, dtype, rand_vec(rng, dtype), 10 ** 7, 10))
    jobs = [{"dtype": d, "p": p, "seed": rng.randrange(1 << 62), "calls": calls, "n": n, "repl": 1}
            for _, d, p, n, calls in cases]
    ver, got = run_torch(chroot, work, "count", jobs)
    for (name, dtype, p, n, calls), j, c in zip(cases, jobs, got):
        ind = induced(binary, work, "stat_%s.txt" % name, p, dtype, ["--replacement", "--num-samples", "2"])
        wts = write_vec(work, "stat_%s_induced.txt" % name, [int(s.split("/")[0]) * 2.0 ** -53 for s in ind["induced"]])
        cnt = os.path.join(work, "stat_%s_counts.txt" % name)
        open(cnt, "w").write("\n".join(str(x) for x in c) + "\n")
        ideal = write_vec(work, "stat_%s_ideal.txt" % name, p)
        res = []
        for ref in (wts, ideal):
            rc, out, err = samplab(binary, "gof", "--probs", ref, "--counts", cnt, "--null-reps", "0", "--json")
            g = json.loads(out) if out else {}
            res.append((rc, g.get("chi2", {}).get("p"), g.get("verdict")))
        print("2. cdf %-8s %s V=%-2d N=%d (seed %d): induced TV %.3g; vs the audit's induced: %s p=%s; "
              "vs the ideal: %s p=%s" % (name, dtype, len(p), n * calls, j["seed"], ind["tv"], res[0][2], res[0][1],
                                         res[1][2], res[1][1]))

    # 3. the race, statistics: torch's draws against the ideal (the audit bounds the TV)
    cases = []
    for i in range(4):
        dtype = ("float32", "float64")[i % 2]
        cases.append(("race%d" % i, dtype, rand_vec(rng, dtype)[:16], 10 ** 6, 10))
    jobs = [{"dtype": d, "p": p, "seed": rng.randrange(1 << 62), "calls": calls, "n": n, "repl": 0}
            for _, d, p, n, calls in cases]
    ver, got = run_torch(chroot, work, "count", jobs)
    for (name, dtype, p, n, calls), j, c in zip(cases, jobs, got):
        aud = induced(binary, work, "race_%s.txt" % name, p, dtype, [])
        cnt = os.path.join(work, "race_%s_counts.txt" % name)
        open(cnt, "w").write("\n".join(str(x) for x in c) + "\n")
        ideal = write_vec(work, "race_%s_ideal.txt" % name, p)
        rc, out, err = samplab(binary, "gof", "--probs", ideal, "--counts", cnt, "--null-reps", "0", "--json")
        g = json.loads(out) if out else {}
        print("3. race %s %s V=%-2d N=%d (seed %d): audit TV <= %.3g; vs the ideal: %s p=%s"
              % (name, dtype, len(p), n * calls, j["seed"], aud["tv_bound"], g.get("verdict"),
                 g.get("chi2", {}).get("p")))

    # 4. seeds: token for token against samplab draw
    jobs = []
    for i in range(400):
        dtype = ("float32", "float64")[i % 2]
        repl = i % 4 >= 2
        n = 1 if not repl or i % 8 < 6 else 3
        jobs.append({"dtype": dtype, "p": rand_vec(rng, dtype), "seed": rng.randrange(1 << 62), "calls": 3, "n": n,
                     "repl": int(repl)})
    ver, got = run_torch(chroot, work, "seeds", jobs)
    bad = 0
    for i, (j, g) in enumerate(zip(jobs, got)):
        path = write_vec(work, "seed_%d.txt" % i, j["p"])
        args = ["draw", "--framework", "torch", "--dtype", j["dtype"], "--probs", path, "--seed", str(j["seed"]),
                "--n", "3", "--num-samples", str(j["n"])] + (["--replacement"] if j["repl"] else [])
        rc, out, err = samplab(binary, *args)
        mine = [[int(t) for t in line.split()] for line in out.split("\n") if line.strip()]
        bad += mine != g
    print("4. seeds, torch %s: %d (vector, seed) cases x 3 calls, %d differ" % (ver, len(jobs), bad))


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--torch":
        torch_side(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 4:
        main()
    else:
        sys.exit(__doc__)
