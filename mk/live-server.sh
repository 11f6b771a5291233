#!/bin/sh
# Starts and stops a llama-server on 127.0.0.1 for the live audits (mk/test-live.sh,
# analysis/golden/audit/record.py), serving the tiny model of
# analysis/golden/audit/make_model.py.
#   sh mk/live-server.sh start [LLAMA-SERVER FLAGS...]   prints the URL, http://127.0.0.1:PORT
#   sh mk/live-server.sh stop URL                         stops the server started at URL
# start picks a free port, waits (bounded: SL_LIVE_TIMEOUT seconds, default 60)
# for GET /health to answer {"status":"ok"}, and keeps PORT.pid and PORT.log in
# ${TMPDIR:-/tmp}/samplab-live-server/. A server that does not come up is stopped
# and reported in one line, status 2.
#   SL_LLAMA_SERVER  the llama-server binary (default: what mk/llama-server.sh built;
#                    it builds it when it is missing)
#   SL_LIVE_MODEL    the model (default: the cache's audit-tiny.gguf, written when missing)
# The flags given come after the defaults here (-c 512, one thread, no web UI), so they win.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${XDG_CACHE_HOME:-$HOME/.cache}/samplab
state=${TMPDIR:-/tmp}/samplab-live-server
timeout=${SL_LIVE_TIMEOUT:-60}
py=/usr/bin/python3
die() { echo "live-server.sh: $*" >&2; exit 2; }

cmd=${1:-}
[ $# -gt 0 ] && shift
case $cmd in
start)
  bin=${SL_LLAMA_SERVER:-}
  if [ -z "$bin" ]; then bin=$(sh "$here/llama-server.sh" -q) || die "could not build llama-server"; fi
  [ -x "$bin" ] || die "$bin: not an executable"
  model=${SL_LIVE_MODEL:-$(dirname "$(dirname "$bin")")/audit-tiny.gguf}
  if [ ! -f "$model" ]; then
    gguf=${NLCDIR:-$cache/nlc}/llama.cpp/gguf-py
    [ -d "$gguf" ] || die "$gguf: no gguf-py to write the model with (run sh mk/llama-server.sh)"
    PYTHONPATH=$gguf $py "$here/../analysis/golden/audit/make_model.py" "$model" ||
      die "$model: could not write the model"
  fi
  mkdir -p "$state"
  # The port is free when probed; another process may take it before the
  # server binds, so a bind failure is retried on a new port.
  for try in 1 2 3; do
    port=$($py -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    log=$state/$port.log
    "$bin" -m "$model" --host 127.0.0.1 --port "$port" -c 512 -t 1 --no-webui "$@" >"$log" 2>&1 &
    pid=$!
    echo "$pid" >"$state/$port.pid"
    url=http://127.0.0.1:$port
    # one process waits for /health, bounded; 0 ok, 1 the server died, 2 timed out
    rc=0
    $py - "$url" "$pid" "$timeout" <<'EOF' || rc=$?
import json, os, sys, time, urllib.request
url, pid, limit = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
end = time.monotonic() + limit
while time.monotonic() < end:
    # gone, or a zombie its parent (this script's shell) has not reaped yet
    try:
        with open("/proc/%d/stat" % pid) as f:
            if f.read().rsplit(")", 1)[1].split()[0] == "Z":
                sys.exit(1)
    except OSError:
        sys.exit(1)
    try:
        with urllib.request.urlopen(url + "/health", timeout=2) as r:
            if json.load(r).get("status") == "ok":
                sys.exit(0)
    except Exception:
        pass
    time.sleep(0.2)
sys.exit(2)
EOF
    if [ $rc = 0 ]; then
      echo "$url"
      exit 0
    fi
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
    rm -f "$state/$port.pid"
    if [ $rc = 2 ]; then
      die "llama-server on port $port did not answer /health within ${timeout} s (log: $log)"
    fi
    grep -q -i "bind\|address already in use" "$log" || break
  done
  line=$(grep -i -m1 "error\|failed\|invalid\|unknown" "$log" || tail -n 1 "$log")
  die "llama-server did not start: ${line:-it exited without a message} (log: $log)"
  ;;
stop)
  url=${1:?usage: live-server.sh stop URL}
  port=${url##*:}
  port=${port%%/*}
  pidf=$state/$port.pid
  [ -f "$pidf" ] || die "$url: no server started here ($pidf missing)"
  pid=$(cat "$pidf")
  kill "$pid" 2>/dev/null || true
  # bounded wait for it to go, then the hard way
  i=0
  while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
  kill -9 "$pid" 2>/dev/null || true
  rm -f "$pidf"
  ;;
*)
  echo "usage: live-server.sh start [LLAMA-SERVER FLAGS...] | stop URL" >&2
  exit 2
  ;;
esac
