#!/bin/sh
# make test-live: `samplab audit` against real llama-servers on this machine.
# Builds llama-server 0.4.0 once (mk/llama-server.sh, cached outside the tree),
# writes the tiny model (analysis/golden/audit/make_model.py), starts servers
# with the defaults the audit claims and with faults, and checks the verdicts'
# exit statuses: the correct server 0, each faulty one 1, a dead one 2. The
# servers are always stopped (trap). About a minute once llama-server is cached.
# Usage: sh mk/test-live.sh [SAMPLAB]   (default bin/samplab)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sl=${1:-bin/samplab}
py=/usr/bin/python3
servers=""
work=$(mktemp -d)
cleanup() {
  for u in $servers; do sh "$here/live-server.sh" stop "$u" || true; done
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Until the command lands there is nothing to audit with: said, and the slow build skipped.
if ! "$sl" audit --help >/dev/null 2>&1; then
  echo "test-live: samplab audit is not built ($sl audit --help failed); skipping the live audits and the llama-server build"
  exit 0
fi
# SL_LLAMA_SERVER: another llama-server to audit (analysis/golden/audit/record_sid.sh runs Debian sid's)
bin=${SL_LLAMA_SERVER:-$(sh "$here/llama-server.sh")}
echo "test-live: $("$bin" --version 2>&1 | grep -m1 '^version')"
start() { # FLAGS...: starts a server, sets url
  url=$(SL_LLAMA_SERVER=$bin sh "$here/live-server.sh" start "$@")
  servers="$servers $url"
}
stop() { # URL
  sh "$here/live-server.sh" stop "$1"
  servers=$(echo "$servers" | sed "s# $1##")
}

fails=0
n=0
check() { # EXPECTED NAME COMMAND...: runs it, compares its exit status
  want=$1 name=$2
  shift 2
  n=$((n + 1))
  rc=0
  "$@" >"$work/$n.out" 2>"$work/$n.err" || rc=$?
  if [ "$rc" = "$want" ]; then
    echo "test-live: ok   $name: exit $rc"
  else
    echo "test-live: FAIL $name: exit $rc, expected $want"
    sed 's/^/  | /' "$work/$n.err" "$work/$n.out" | tail -n 15
    fails=$((fails + 1))
  fi
}

prompt=" ba ko mi nu te"

audit() { # URL SEED ARGS...
  u=$1 s=$2
  shift 2
  "$sl" audit --server "$u" --api llama-server --prompt "$prompt" --seed "$s" --n-predict 16 --trials 50 "$@"
}

# At how many requests (of 2, 4, 8, 16, 32) a faulty server is first rejected: printed, so the
# power each fault meets is stated; the check is that it is rejected by 32.
first_reject() { # NAME URL SEED ARGS...
  name=$1 u=$2 s=$3
  shift 3
  at=none
  for k in 2 4 8 16 32; do
    rc=0
    audit "$u" "$s" --requests $k --concurrent 0 "$@" >/dev/null 2>"$work/fr.err" || rc=$?
    [ $rc = 2 ] && { sed 's/^/  | /' "$work/fr.err"; break; }
    [ $rc = 1 ] && { at=$k; break; }
  done
  n=$((n + 1))
  if [ "$at" = none ]; then
    echo "test-live: FAIL $name: not rejected at 32 requests"
    fails=$((fails + 1))
  else
    echo "test-live: ok   $name: rejected at $at requests"
  fi
}

# The default server: the claim (llama-server's defaults) sent, and only the seed sent. Requests
# go one at a time here (--concurrent 0); the two-slots check below sends them side by side.
start
check 0 "default server, settings sent" audit "$url" 1000 --requests 30 --concurrent 0 --out "$work/correct"
check 0 "default server, only the seed sent" audit "$url" 2000 --requests 30 --concurrent 0 --send seed
check 0 "the recording of the first, judged again" "$sl" audit --log "$work/correct/audit.jsonl"
check 0 "openai route" "$sl" audit --server "$url" --api openai --prompt "$prompt" --seed 4000 \
  --n-predict 16 --requests 10 --concurrent 0
first_reject "penalties claimed, off on the server" "$url" 3000 --send seed --repetition-penalty 1.3
# calibration: the correct server over 10 seed ranges is rejected at most once (alpha 0.01)
rej=0
for r in 0 1 2 3 4 5 6 7 8 9; do
  rc=0
  audit "$url" $((10000 + 100 * r)) --requests 12 --concurrent 0 --send seed >/dev/null 2>&1 || rc=$?
  [ $rc = 0 ] || rej=$((rej + 1))
done
n=$((n + 1))
if [ $rej -le 1 ]; then echo "test-live: ok   calibration: $rej of 10 audits of the correct server rejected"
else echo "test-live: FAIL calibration: $rej of 10 audits of the correct server rejected"; fails=$((fails + 1)); fi
stop "$url"

# penalties on, claimed on: consistent
start --repeat-penalty 1.3
check 0 "penalties on and claimed" audit "$url" 3500 --requests 16 --concurrent 0 --send seed --repetition-penalty 1.3
stop "$url"

# top-k off (min-p too: its 0.05 alone would hide the fault), the defaults claimed
start --top-k 0 --top-p 1 --min-p 0 --temp 1.5
first_reject "top-k off, defaults claimed" "$url" 5000 --send seed
stop "$url"

# Ollama v0.32.10 on: llama-server with the values Ollama sends (api.DefaultOptions: top_p 0.9,
# min_p 0), claimed as --framework ollama; llama-server's own defaults claimed there are rejected.
# On the OpenAI route, Ollama's temperature and top_p 1.0 for a body that leaves them out (40
# entries asked for: llama-server answers them, Ollama would answer 20 at most).
start --top-p 0.9 --min-p 0
check 0 "Ollama's defaults on the server, claimed by --framework ollama" audit "$url" 8000 --requests 16 \
  --concurrent 0 --send seed --framework ollama --ollama 0.32 --out "$work/ollama"
check 0 "its recording judged again (the engine from its header)" "$sl" audit --log "$work/ollama/audit.jsonl"
first_reject "Ollama's defaults on the server, llama-server's claimed" "$url" 8000 --send seed
stop "$url"
start --temp 1 --top-p 1 --min-p 0
check 0 "Ollama's OpenAI route, only the seed sent" "$sl" audit --server "$url" --api openai --prompt "$prompt" \
  --seed 8500 --n-predict 16 --requests 10 --concurrent 0 --send seed --framework ollama --ollama 0.32 --n-probs 40
check 1 "Ollama's OpenAI route, llama-server's defaults claimed" "$sl" audit --server "$url" --api openai \
  --prompt "$prompt" --seed 8500 --n-predict 16 --requests 10 --concurrent 0 --send seed
stop "$url"

# temperature 1.2 claimed as 0.8
start --temp 1.2
first_reject "temperature 1.2 claimed 0.8" "$url" 6000 --send seed --temperature 0.8
stop "$url"

# two slots: the same seeded request alone and beside another. Batched beside another, a request
# may meet other kernels and other logits (llama.cpp's batched matrix products), and then draw
# other tokens: the audit says so (concurrency false, cause "values"), and its seeded replay on
# the request's own values must still predict every step. Anything else fails.
start --parallel 2
n=$((n + 1))
rc=0
audit "$url" 7000 --requests 8 --concurrent 8 --json >"$work/slots.json" 2>"$work/slots.err" || rc=$?
why=$($py - "$work/slots.json" "$rc" <<'EOF'
import json, sys
rc = int(sys.argv[2])
try:
    o = json.load(open(sys.argv[1]))
except Exception:
    print("FAIL two slots: exit %d, no JSON" % rc)
    sys.exit()
c = o.get("concurrent") or {}
rp = c.get("replayed") or {}
f = c.get("first_unequal") or {}
replayed = rp.get("steps", 0) > 0 and rp.get("exact") == rp.get("steps")
others = all(o.get(k) is not False for k in ("seed_honoured", "settings_honoured")) and \
    (o.get("p_value") is None or o["p_value"] >= o.get("alpha", 0.01))
if rc == 0 and o.get("concurrency") is True and replayed:
    print("ok   two slots: %d of %d equal beside another" % (c["equal"], c["requests"]))
elif rc == 1 and o.get("concurrency") is False and f.get("cause") == "values" and replayed and others:
    print("ok   two slots: %d of %d equal beside another; request %d's values moved (up to %.3g), its replay exact"
          % (c["equal"], c["requests"], f["request"], f["values_moved"]))
else:
    print("FAIL two slots: exit %d, concurrency %s, cause %s, replayed %s" % (rc, o.get("concurrency"), f.get("cause"), rp))
EOF
)
case $why in
ok*) echo "test-live: $why" ;;
*) echo "test-live: $why"; sed 's/^/  | /' "$work/slots.err" | tail -n 5; fails=$((fails + 1)) ;;
esac
stop "$url"

# a dead server: the last one's port, now closed
check 2 "dead server" audit "$url" 1 --requests 2

# the committed recordings, judged offline
g=$here/../data/golden/audit
for f in correct sendseed_ok penalties_on concurrent openai ollama_defaults ollama_openai; do
  check 0 "log $f.jsonl" "$sl" audit --log "$g/$f.jsonl"
done
for f in topk_off temp12 penalties_off; do
  check 1 "log $f.jsonl" "$sl" audit --log "$g/$f.jsonl"
done

echo "test-live: $((n - fails)) of $n passed"
[ $fails = 0 ]
