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
for ln in lines:
    b = ln["body"]
    k = (b.get("seed"), bool(b.get("post_sampling_probs")))
    by_key.setdefault(k, ln["response"])
    if b.get("seed") not in seeds:
        seeds.append(b.get("seed"))


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
        if self.path == "/props":
            self.send_json(200, (header or {}).get("props") or {"total_slots": 1})
        else:
            self.send_json(404, {"error": {"message": "no route " + self.path}})

    def do_POST(self):
        b = self.body()
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
