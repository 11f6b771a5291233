"""A stand-in for llama-server in samplab's tests of `samplab audit`: it answers
what a recorded log holds, or misbehaves on purpose. Python standard library only.

  fake_server.py MODE PORTFILE [LOG]
MODE:
  replay       /props, /tokenize and /completion from LOG (samplab audit's audit.jsonl):
               a /completion body is answered with the recorded response of the line
               whose body has its seed and post_sampling_probs
  ignore-seed  the same, but a /completion gets the response of the next recorded seed,
               and one with post_sampling_probs that of the seed after (a server that
               draws its own randomness: a repeat draws other tokens)
  garbage      /props answers text that is not JSON
  error        /props is fine, /completion answers status 500 with an error object
  cut          /completion announces a body longer than it sends, then closes
  hang         accepts connections and never answers
  ollama       Ollama's GET /api/version (OLLAMA_VERSION, default 0.32.10) and POST
               /api/generate (server/routes.go, api/types.go at v0.33.0-rc2): the body must
               name a model, stream false, logprobs true, top_logprobs 0 to 20 (else status
               400 {"error": ...}) and only Ollama's option names; options.seed picks the
               recorded raw answer, turned into Ollama's form as llm/llama_server.go's
               convertLogprobs does it (token texts, top_logprobs cut to what was asked)
  ollama-ignore-seed  the same, but the k-th request with a seed gets the answer of the seed
               k places on (a repeat draws other tokens)
The port it listens on (127.0.0.1) is written to PORTFILE once it listens.
"""
import json
import os
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

mode, portfile = sys.argv[1], sys.argv[2]
log = sys.argv[3] if len(sys.argv) > 3 else None
header, lines = None, []
if log:
    with open(log, encoding="utf-8") as f:
        for ln in f:
            o = json.loads(ln)
            if "samplab_audit" in o:
                header = o
            else:
                lines.append(o)
by_key = {}
seeds = []
asked = {}
for ln in lines:
    b = ln["body"]
    k = (b.get("seed"), bool(b.get("post_sampling_probs")))
    by_key.setdefault(k, ln["response"])
    if b.get("seed") not in seeds:
        seeds.append(b.get("seed"))


# api.Options' JSON names (api/types.go): a body with another name is a mistake of the client
OLLAMA_OPTIONS = {"num_keep", "seed", "num_predict", "top_k", "top_p", "min_p", "typical_p",
                  "repeat_last_n", "temperature", "repeat_penalty", "presence_penalty",
                  "frequency_penalty", "stop", "num_ctx", "num_batch", "num_gpu", "main_gpu",
                  "use_mmap", "num_thread"}


def ollama_answer(b, resp):
    n = b.get("top_logprobs", 0)
    lps = []
    for e in resp["completion_probabilities"]:
        x = {"token": e["token"], "logprob": e["logprob"], "bytes": e.get("bytes")}
        if n > 0:
            x["top_logprobs"] = [{"token": t["token"], "logprob": t["logprob"], "bytes": t.get("bytes")}
                                 for t in e["top_logprobs"][:n]]
        lps.append(x)
    return {"model": b["model"], "created_at": "2026-12-03T00:00:00Z",
            "response": "".join(e["token"] for e in resp["completion_probabilities"]),
            "done": True, "done_reason": "length", "logprobs": lps}


class H(BaseHTTPRequestHandler):
    def log_message(self, *a):
        pass

    def send_json(self, status, obj):
        data = json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def body(self):
        n = int(self.headers.get("Content-Length", "0"))
        return json.loads(self.rfile.read(n) or b"{}")

    def do_GET(self):
        if mode == "hang":
            time.sleep(3600)
        if mode == "garbage":
            data = b"<html>hello</html>"
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            return
        if self.path == "/api/version" and mode.startswith("ollama"):
            self.send_json(200, {"version": os.environ.get("OLLAMA_VERSION", "0.32.10")})
        elif self.path == "/props" and not mode.startswith("ollama"):
            self.send_json(200, (header or {}).get("props") or {"total_slots": 1})
        else:
            self.send_json(404, {"error": {"message": "no route " + self.path}})

    def do_POST(self):
        b = self.body()
        if mode.startswith("ollama"):
            self.ollama(b)
            return
        if self.path == "/tokenize":
            self.send_json(200, {"tokens": (header or {}).get("prompt_tokens") or [1, 2, 3]})
            return
        if self.path != "/completion":
            self.send_json(404, {"error": {"message": "no route " + self.path}})
            return
        if mode == "error":
            self.send_json(500, {"error": {"code": 500, "message": "the model is not loaded"}})
            return
        if mode == "cut":
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", "100000")
            self.end_headers()
            self.wfile.write(b'{"completion_probabilities": [')
            self.wfile.flush()
            self.connection.shutdown(socket.SHUT_RDWR)
            return
        seed = b.get("seed")
        if mode == "ignore-seed" and seed in seeds:
            step = 2 if b.get("post_sampling_probs") else 1
            seed = seeds[(seeds.index(seed) + step) % len(seeds)]
        resp = by_key.get((seed, bool(b.get("post_sampling_probs"))))
        if resp is None:
            self.send_json(400, {"error": {"message": "no recorded answer for seed %r" % (seed,)}})
            return
        self.send_json(200, resp)


    def ollama(self, b):
        if self.path != "/api/generate":
            self.send_json(404, {"error": "404 page not found"})
            return
        opts = b.get("options", {})
        bad = sorted(set(opts) - OLLAMA_OPTIONS)
        n = b.get("top_logprobs", 0)
        if not b.get("model") or b.get("stream") is not False or b.get("logprobs") is not True or bad:
            self.send_json(400, {"error": "fake Ollama: model, stream false, logprobs true, Ollama's "
                                          "option names (not %s)" % bad})
            return
        if not isinstance(n, int) or n < 0 or n > 20:
            self.send_json(400, {"error": "top_logprobs must be between 0 and 20"})
            return
        seed = opts.get("seed")
        if mode == "ollama-ignore-seed" and seed in seeds:  # the k-th ask of a seed: k seeds on
            asked[seed] = asked.get(seed, 0) + 1
            seed = seeds[(seeds.index(seed) + asked[seed]) % len(seeds)]
        resp = by_key.get((seed, False))
        if resp is None:
            self.send_json(400, {"error": "no recorded answer for seed %r" % (seed,)})
            return
        self.send_json(200, ollama_answer(b, resp))


srv = ThreadingHTTPServer(("127.0.0.1", 0), H)
srv.daemon_threads = True
tmp = portfile + ".tmp"
with open(tmp, "w") as f:
    f.write(str(srv.server_address[1]))
os.replace(tmp, portfile)
threading.Thread(target=srv.serve_forever, daemon=True).start()
try:
    while True:
        time.sleep(1)
except KeyboardInterrupt:
    pass
