"""Drives a running llama-server with seeded requests and writes what it
answered as audit.jsonl, the log format `samplab audit --log` reads (its
header line, then one line per HTTP request: body, status, parsed response,
times). Python standard library only (urllib), so it runs wherever the server
does, and the committed logs under data/golden/audit/ name what made them.

The claim is llama-server 0.4.0's own defaults (common/common.h,
common_params_sampling; GET /props default_generation_settings agrees) with
--claim KEY=VALUE overriding; --send says which of it goes into the bodies:
  all   seed, n_predict and every claimed setting
  seed  seed and n_predict only: the server's defaults must match the claim
  none  n_predict only
--engine ollama-0.32 makes the claim Ollama's defaults instead (OLLAMA_032 below),
named in the header as --framework ollama --ollama 0.32, for a llama-server started
with the values Ollama sends.
Requests, in send order: --requests N samples with seeds S..S+N-1, each alone;
--repeat R: the bodies of requests 0..R-1 again, alone (--post-repeats: with
post_sampling_probs true, so that each answer holds the chain's own probabilities
beside its twin's raw ones; the same seed draws the same tokens); --concurrent C (even): the
bodies of requests 0..C-1 again, two at a time started together (a server
with --parallel 2 batches them: 0 beside 1, 2 beside 3, ...), each line
naming the request it repeats.

Usage:
  record.py --server URL --out FILE [--api llama-server|openai] [--model M]
            [--prompt TEXT] --seed S [--requests N] [--n-predict T] [--n-probs K]
            [--send all|seed|none] [--claim KEY=VALUE ...] [--repeat R] [--post-repeats]
            [--concurrent C] [--engine llama-server|ollama-0.32]
Exit 0 written, 2 bad usage or a server that does not answer (nothing written).
"""
import argparse
import json
import os
import sys
import threading
import time
import urllib.error
import urllib.request

RECORDER = "analysis/golden/audit/record.py"

# llama-server 0.4.0's defaults for what a claim names (common/common.h).
DEFAULTS = {
    "temperature": 0.8, "top_k": 40, "top_p": 0.95, "min_p": 0.05, "typical_p": 1.0,
    "repeat_penalty": 1.0, "repeat_last_n": 64, "presence_penalty": 0.0,
    "frequency_penalty": 0.0,
    "samplers": ["penalties", "dry", "top_n_sigma", "top_k", "typ_p", "top_p", "min_p",
                 "xtc", "temperature"],
}
# --engine ollama-0.32: the claim is what Ollama v0.32.10 on sends llama-server for a
# request that sets nothing (api/types.go DefaultOptions, read at v0.33.0-rc2; it sends no
# samplers, so llama-server's order holds). Ollama's OpenAI-compatible /v1/completions
# puts temperature and top_p 1.0 in the options when a body leaves them out
# (openai/openai.go FromCompleteRequest): with --api openai those are the claim's.
OLLAMA_032 = {
    "temperature": 0.8, "top_k": 40, "top_p": 0.9, "min_p": 0.0, "typical_p": 1.0,
    "repeat_penalty": 1.0, "repeat_last_n": 64, "presence_penalty": 0.0,
    "frequency_penalty": 0.0,
}
OLLAMA_OPENAI_ROUTE = {"temperature": 1.0, "top_p": 1.0}
TIMEOUT = 60.0  # seconds per request; a tiny model answers in well under one


def die(msg):
    print("record.py: " + msg, file=sys.stderr)
    sys.exit(2)


def http(url, body=None):
    """(status, parsed response or None, error or None, started, seconds)."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method="GET" if body is None else "POST",
                                 headers={"Content-Type": "application/json"})
    t0 = time.monotonic()
    status, resp, err = None, None, None
    try:
        with urllib.request.urlopen(req, timeout=TIMEOUT) as r:
            status, raw = r.status, r.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    except (urllib.error.URLError, OSError) as e:
        return None, None, "%s: %s" % (url, getattr(e, "reason", e)), t0, time.monotonic() - t0
    try:
        resp = json.loads(raw)
    except ValueError:
        err = "%s: the body is not JSON (%d bytes)" % (url, len(raw))
    return status, resp, err, t0, time.monotonic() - t0


def parse_value(key, text):
    if key == "samplers":
        return [s for s in text.split(",") if s]
    try:
        v = float(text)
    except ValueError:
        die("--claim %s=%s: not a number" % (key, text))
    return int(v) if key in ("top_k", "repeat_last_n") else v


def main():
    ap = argparse.ArgumentParser(description="record a llama-server audit log")
    ap.add_argument("--server", required=True)
    ap.add_argument("--out", required=True)
    ap.add_argument("--api", choices=("llama-server", "openai"), default="llama-server")
    ap.add_argument("--model")
    ap.add_argument("--prompt", default=" ba ko mi nu te")
    ap.add_argument("--seed", type=int, required=True)
    ap.add_argument("--requests", type=int, default=8)
    ap.add_argument("--n-predict", type=int, default=16)
    ap.add_argument("--n-probs", type=int, default=40)
    ap.add_argument("--send", choices=("all", "seed", "none"), default="all")
    ap.add_argument("--claim", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--repeat", type=int, default=0)
    ap.add_argument("--post-repeats", action="store_true")
    ap.add_argument("--concurrent", type=int, default=0)
    ap.add_argument("--engine", choices=("llama-server", "ollama-0.32"), default="llama-server")
    a = ap.parse_args()
    if a.requests < 1 or a.repeat > a.requests or a.concurrent > a.requests or a.concurrent % 2:
        die("--repeat R and --concurrent C (even) count requests among the --requests %d" % a.requests)
    base = a.server.rstrip("/")

    claim = dict(DEFAULTS)
    if a.engine == "ollama-0.32":
        claim = dict(OLLAMA_032)
        if a.api == "openai":
            claim.update(OLLAMA_OPENAI_ROUTE)
    for kv in a.claim:
        k, sep, v = kv.partition("=")
        if not sep or k not in claim:
            die("--claim %s: expected KEY=VALUE with KEY one of %s" % (kv, ", ".join(claim)))
        claim[k] = parse_value(k, v)
    sent = dict(claim)
    if a.engine == "ollama-0.32":
        claim.update({"framework": "ollama", "ollama": "0.32"})
    claim["seed"] = a.seed
    claim["n_predict"] = a.n_predict

    st, props, err, _, _ = http(base + "/props")
    if st != 200 or err:
        die(err or "%s/props: status %s" % (base, st))
    # the ids the server evaluates: /completion tokenises with the BOS token
    st, tok, err, _, _ = http(base + "/tokenize", {"content": a.prompt, "add_special": True})
    if st != 200 or err:
        die(err or "%s/tokenize: status %s" % (base, st))
    prompt_ids = tok["tokens"]

    route = "/completion" if a.api == "llama-server" else "/v1/completions"

    def body(seed):
        if a.api == "llama-server":
            b = {"prompt": a.prompt, "n_predict": a.n_predict, "n_probs": a.n_probs,
                 "post_sampling_probs": False, "return_tokens": True, "cache_prompt": False}
        else:
            # llama-server reads "logprobs" as n_probs on this route (an alias) and
            # answers per token in its own {content: [...]} form, not OpenAI's
            b = {"prompt": a.prompt, "max_tokens": a.n_predict, "logprobs": a.n_probs,
                 "post_sampling_probs": False, "cache_prompt": False}
            if a.model:
                b["model"] = a.model
        if a.send != "none":
            b["seed"] = seed
        if a.send == "all":
            b.update(sent)
        return b

    lines = []
    t_first = None

    def send(b, purpose, same_as):
        nonlocal t_first
        st, resp, err, t0, dt = http(base + route, b)
        if t_first is None:
            t_first = t0
        if err is None and st != 200:
            err = "status %d" % st
        return {"purpose": purpose, "same_as": same_as, "seed": b.get("seed"), "body": b,
                "status": st, "response": resp, "error": err,
                "started_ms": round((t0 - t_first) * 1e3, 3), "time_ms": round(dt * 1e3, 3)}

    for i in range(a.requests):
        lines.append(send(body(a.seed + i), "sample", None))
    for k in range(a.repeat):
        b = dict(lines[k]["body"])
        if a.post_repeats:
            b["post_sampling_probs"] = True
        lines.append(send(b, "repeat", k))
    for k in range(0, a.concurrent, 2):
        out = [None, None]
        go = threading.Barrier(2)

        def run(slot, j):
            go.wait()
            out[slot] = send(lines[j]["body"], "concurrent", j)

        ts = [threading.Thread(target=run, args=(s, k + s)) for s in (0, 1)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()
        lines.extend(sorted(out, key=lambda ln: ln["started_ms"]))  # send order
    # started_ms relative to the first request, in send order
    for i, ln in enumerate(lines):
        ln["request"] = i
    bad = [ln for ln in lines if ln["error"]]
    if bad:
        die("%d of %d requests failed, the first: %s" % (len(bad), len(lines), bad[0]["error"]))

    header = {"samplab_audit": 1, "api": a.api, "server": base, "route": route,
              "model": a.model, "props": props, "send": a.send, "claim": claim,
              "prompt_tokens": prompt_ids, "recorder": RECORDER}
    keys = ("request", "purpose", "same_as", "seed", "body", "status", "response", "error",
            "started_ms", "time_ms")
    header = local_paths_out(header)
    lines = [local_paths_out(ln) for ln in lines]
    tmp = a.out + ".tmp"
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(header, ensure_ascii=False, separators=(",", ":")) + "\n")
        for ln in lines:
            f.write(json.dumps({k: ln[k] for k in keys}, ensure_ascii=False,
                               separators=(",", ":")) + "\n")
    os.replace(tmp, a.out)
    print("%s: %d requests" % (a.out, len(lines)))


def local_paths_out(x):
    """x with every absolute path of a file on this machine that the server echoes (its model_path, model_alias, model)
    cut to the file's name: a recorded log names no folder of the machine that made it."""
    if isinstance(x, dict):
        return {k: local_paths_out(v) for k, v in x.items()}
    if isinstance(x, list):
        return [local_paths_out(v) for v in x]
    # a file here, or a model file named inside a chroot the server runs in; not a route such as /v1/completions
    if isinstance(x, str) and os.path.isabs(x) and (os.path.isfile(x) or x.endswith(".gguf")):
        return os.path.basename(x)
    return x


if __name__ == "__main__":
    main()
