#!/bin/sh
# Records data/golden/audit/*.jsonl: llama.cpp v0.4.0's llama-server (mk/llama-server.sh, or SL_LLAMA_SERVER)
# serving make_model.py's tiny model on this machine, driven by record.py, a server
# started per fault (mk/live-server.sh). The claim is llama-server's defaults unless said.
#   correct.jsonl        default server, every claimed setting sent
#   sendseed_ok.jsonl    default server, only the seed sent (its defaults are the claim)
#   penalties_off.jsonl  default server, only the seed sent, repeat_penalty 1.3 claimed
#   penalties_on.jsonl   --repeat-penalty 1.3, claimed, only the seed sent
#   openai.jsonl         default server, /v1/completions with logprobs
#   topk_off.jsonl       --top-k 0 --top-p 1 --min-p 0 --temp 1.5, only the seed sent
#   temp12.jsonl         --temp 1.2, temperature 0.8 claimed, only the seed sent
#   concurrent.jsonl     --parallel 2: requests alone, then the same bodies two at a time
#   ollama_defaults.jsonl  --top-p 0.9 --min-p 0 (the values Ollama v0.32.10 on sends), Ollama's
#                        defaults claimed (record.py --engine ollama-0.32), only the seed sent
#   ollama_openai.jsonl  --temp 1 --top-p 1 --min-p 0: Ollama's /v1/completions with only the seed
# and prints the server's version, build, the model's sha256 and the CPU (for the README).
# Usage: sh analysis/golden/audit/record_all.sh OUTDIR [GROUP...]
#   GROUP: default penalties topk temp concurrent ollama (all when none is named)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
mk=$here/../../../mk
out=${1:?usage: record_all.sh OUTDIR [GROUP...]}
shift
groups=" ${*:-default penalties topk temp concurrent ollama} "
want() { case $groups in *" $1 "*) return 0 ;; esac; return 1; }
mkdir -p "$out"
py=/usr/bin/python3
# SL_LLAMA_SERVER: another llama-server (record_sid.sh: Debian sid's 0.7.0 in a chroot)
bin=${SL_LLAMA_SERVER:-$(sh "$mk/llama-server.sh" -q)}
url=
trap '[ -z "$url" ] || sh "$mk/live-server.sh" stop "$url"' EXIT
rec() { $py "$here/record.py" --server "$url" "$@"; }
up() { url=$(SL_LLAMA_SERVER=$bin sh "$mk/live-server.sh" start "$@"); }
down() { sh "$mk/live-server.sh" stop "$url"; url=; }

# n_probs 40 covers the claimed top-k; n_predict 8 keeps each file small
if want default; then
  up
  rec --out "$out/correct.jsonl" --send all --seed 1000 --requests 24 --repeat 24 --post-repeats --n-predict 8
  rec --out "$out/sendseed_ok.jsonl" --send seed --seed 2000 --requests 24 --repeat 24 --post-repeats --n-predict 8
  rec --out "$out/penalties_off.jsonl" --send seed --claim repeat_penalty=1.3 --seed 3000 --requests 24 \
    --repeat 24 --post-repeats --n-predict 8
  rec --out "$out/openai.jsonl" --api openai --send all --seed 4000 --requests 6 --repeat 6 --post-repeats --n-predict 8
  down
fi
if want penalties; then
  up --repeat-penalty 1.3
  rec --out "$out/penalties_on.jsonl" --send seed --claim repeat_penalty=1.3 --seed 3500 --requests 24 \
    --repeat 24 --post-repeats --n-predict 8
  down
fi
if want topk; then
  up --top-k 0 --top-p 1 --min-p 0 --temp 1.5
  rec --out "$out/topk_off.jsonl" --send seed --seed 5000 --requests 24 --repeat 24 --post-repeats --n-predict 8
  down
fi
if want temp; then
  up --temp 1.2
  rec --out "$out/temp12.jsonl" --send seed --claim temperature=0.8 --seed 6000 --requests 24 --repeat 24 \
    --post-repeats --n-predict 8
  down
fi
if want concurrent; then
  up --parallel 2
  rec --out "$out/concurrent.jsonl" --send all --seed 7000 --requests 8 --repeat 8 --post-repeats --concurrent 8 \
    --n-predict 8
  down
fi
if want ollama; then
  up --top-p 0.9 --min-p 0
  rec --out "$out/ollama_defaults.jsonl" --engine ollama-0.32 --send seed --seed 8000 --requests 24 --repeat 24 \
    --post-repeats --n-predict 8
  down
  up --temp 1 --top-p 1 --min-p 0
  rec --out "$out/ollama_openai.jsonl" --engine ollama-0.32 --api openai --send seed --seed 8500 --requests 6 \
    --repeat 6 --post-repeats --n-predict 8
  down
fi

model=$(dirname "$(dirname "$bin")")/audit-tiny.gguf
{
  echo "llama-server: $("$bin" --version 2>&1 | grep -m1 '^version')"
  stamp=$(dirname "$(dirname "$bin")")/stamp
  [ ! -f "$stamp" ] || sed -n '1p;3,5p' "$stamp"
  echo "model: make_model.py, sha256 $(sha256sum "$model" | cut -d' ' -f1)"
  echo "cpu: $(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//')"
}
ls -l "$out"
