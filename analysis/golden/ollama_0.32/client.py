"""client.py — what Ollama v0.32.10 to v0.33.0-rc2 sends llama-server, and the tokens it streams back.

Ollama's llamaServerRunner.Completion (llm/llama_server.go, read at v0.33.0-rc2) posts
llamaServerCompletionRequest to llama-server's /completion: api.DefaultOptions() (temperature 0.8,
top_k 40, top_p 0.9, min_p 0, typical_p 1, repeat_last_n 64, repeat_penalty 1, presence and
frequency 0, seed -1, num_keep 4) merged with the request's options, typical_p left out when 0
(omitempty), stream true, cache_prompt true. This client posts those bodies for each run below, with
the prompt as token ids and return_tokens so the stream names each sampled id, and prints
`run ID`, `opts ID k=v ...` (the options the run changed), `prompt ID ...` and `tokens ID ...`
(the ids streamed before the stream ended or the server's output parser stopped it; `stop ID why`).
Ollama v0.30.0 to v0.32.9 post the same bodies with RepeatPenalty 1.1 by default (api/types.go before
Ollama commit 6a261db7): `--line 0.30` sends that default, and a few more runs whose chains leave one
candidate at some steps (where llama.cpp before b10355 draws no uniform).
Usage: python3 client.py PORT [--line 0.30] > generations.txt
"""
import json
import sys
import urllib.request

DEFAULTS = dict(temperature=0.8, top_k=40, top_p=0.9, min_p=0.0, typical_p=1.0, repeat_last_n=64,
                repeat_penalty=1.0, presence_penalty=0.0, frequency_penalty=0.0, seed=-1, num_keep=4)

RUNS = [
    dict(seed=42), dict(seed=0), dict(seed=1), dict(seed=7), dict(seed=123456789), dict(seed=4294967294),
    dict(seed=3, temperature=0.5), dict(seed=4, temperature=1.5), dict(seed=5, temperature=0.0),
    dict(seed=6, temperature=-1.0), dict(seed=8, top_k=0), dict(seed=9, top_k=1), dict(seed=10, top_k=5),
    dict(seed=11, top_k=-3), dict(seed=12, top_k=600), dict(seed=13, top_p=0.5), dict(seed=14, top_p=1.0),
    dict(seed=15, top_p=1.2), dict(seed=16, top_p=0.0), dict(seed=17, min_p=0.05), dict(seed=18, min_p=0.2),
    dict(seed=19, min_p=1.5), dict(seed=20, typical_p=0.7), dict(seed=21, typical_p=0.0),
    dict(seed=22, repeat_penalty=1.3), dict(seed=23, repeat_penalty=1.3, repeat_last_n=16),
    dict(seed=24, repeat_penalty=1.5, repeat_last_n=0), dict(seed=25, frequency_penalty=0.5),
    dict(seed=26, presence_penalty=0.8, repeat_last_n=8), dict(seed=27, temperature=1.2, top_k=100, top_p=0.95,
                                                            min_p=0.02, repeat_penalty=1.1),
    dict(seed=28, temperature=0.3, top_k=10, top_p=0.8), dict(seed=29, top_k=0, top_p=1.0, temperature=1.0),
]
PROMPTS = [[1, 300, 301, 302, 303, 304, 305, 306], [1, 10, 400, 10, 400, 10], [1, 260, 261]]


def body(o, prompt):
    # llamaServerCompletionRequest's fields in its order; omitempty: n_predict, n_keep, typical_p
    b = {"prompt": prompt, "stream": True, "cache_prompt": True, "n_predict": 24, "n_keep": o["num_keep"],
         "temperature": o["temperature"], "top_k": o["top_k"], "top_p": o["top_p"], "min_p": o["min_p"],
         "repeat_penalty": o["repeat_penalty"], "repeat_last_n": o["repeat_last_n"],
         "frequency_penalty": o["frequency_penalty"], "presence_penalty": o["presence_penalty"]}
    if o["typical_p"] != 0:
        b["typical_p"] = o["typical_p"]
    b["seed"] = o["seed"]
    b["return_tokens"] = True  # not Ollama's: it names each id in the stream
    return b


# one candidate left at some steps and not others: the dist rule of the older builds shows
LONE_RUNS = [dict(seed=30, top_p=0.6), dict(seed=31, min_p=0.3), dict(seed=32, top_k=2, temperature=0.7),
             dict(seed=33, top_p=0.7, temperature=1.3), dict(seed=34, min_p=0.5, temperature=1.5),
             dict(seed=35, top_p=0.5, repeat_penalty=1.0)]


def main():
    port = int(sys.argv[1])
    runs = RUNS
    if sys.argv[2:] == ["--line", "0.30"]:
        DEFAULTS["repeat_penalty"] = 1.1
        runs = RUNS + LONE_RUNS
    elif sys.argv[2:]:
        sys.exit("usage: client.py PORT [--line 0.30]")
    for i, run in enumerate(runs):
        o = dict(DEFAULTS, **run)
        prompt = PROMPTS[i % len(PROMPTS)]
        req = urllib.request.Request("http://127.0.0.1:%d/completion" % port, json.dumps(body(o, prompt)).encode(),
                                     {"Content-Type": "application/json"})
        toks, why = [], "end"
        with urllib.request.urlopen(req, timeout=120) as r:
            for line in r:
                line = line.decode().strip()
                if not line.startswith("data: "):
                    continue
                ev = json.loads(line[6:])
                if "error" in ev:
                    why = "parser"  # the random model's bytes are no valid text; the ids before stand
                    break
                toks += ev.get("tokens", [])
                if ev.get("stop"):
                    break
        print("run %d" % i)
        print("opts %d %s" % (i, " ".join("%s=%s" % (k, run[k]) for k in run)))
        print("prompt %d %s" % (i, " ".join(map(str, prompt))))
        print("tokens %d %s" % (i, " ".join(map(str, toks))))
        print("stop %d %s" % (i, why))


if __name__ == "__main__":
    main()
