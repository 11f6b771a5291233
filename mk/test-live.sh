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
bin=$(sh "$here/llama-server.sh")
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
  "$sl" audit --server "$u" --api llama-server --prompt "$prompt" --seed "$s" --n-predict 16 "$@"
}

# The default server: the claim (llama-server's defaults) sent, and only the seed sent.
start
check 0 "default server, settings sent" audit "$url" 1000 --requests 30 --out "$work/correct"
check 0 "default server, only the seed sent" audit "$url" 2000 --requests 30 --send seed
check 1 "penalties claimed, off on the server" audit "$url" 3000 --requests 30 --send seed \
  --repetition-penalty 1.3
check 0 "openai route" "$sl" audit --server "$url" --api openai --prompt "$prompt" --seed 4000 \
  --n-predict 16 --requests 10
stop "$url"

# top-k off (min-p too: its 0.05 alone would hide the fault), the defaults claimed
start --top-k 0 --top-p 1 --min-p 0 --temp 1.5
check 1 "top-k off, defaults claimed" audit "$url" 5000 --requests 10 --send seed
stop "$url"

# temperature 1.2 claimed as 0.8: only the distribution test can see it
start --temp 1.2
check 1 "temperature 1.2 claimed 0.8" audit "$url" 6000 --requests 60 --send seed --temperature 0.8
stop "$url"

# two slots: the same seeded request alone and beside another
start --parallel 2
check 0 "two slots" audit "$url" 7000 --requests 20
stop "$url"

# a dead server: the last one's port, now closed
check 2 "dead server" audit "$url" 1 --requests 2

# the committed recordings, judged offline
g=$here/../data/golden/audit
check 0 "log correct.jsonl" "$sl" audit --log "$g/correct.jsonl"
check 0 "log sendseed_ok.jsonl" "$sl" audit --log "$g/sendseed_ok.jsonl"
check 1 "log topk_off.jsonl" "$sl" audit --log "$g/topk_off.jsonl"
check 1 "log temp12.jsonl" "$sl" audit --log "$g/temp12.jsonl"
check 1 "log penalties_off.jsonl" "$sl" audit --log "$g/penalties_off.jsonl"

echo "test-live: $((n - fails)) of $n passed"
[ $fails = 0 ]
