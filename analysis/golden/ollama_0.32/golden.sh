#!/bin/sh
# Golden generations of llama-server as Ollama v0.32.10 to v0.33.0-rc2 drive it (client.py: the
# request bodies of Ollama's llamaServerRunner.Completion, llm/llama_server.go at v0.33.0-rc2), on
# llama.cpp v0.4.0's llama-server built here from the source node-llama-cpp 3.21.1 bundles (its
# llama/gitRelease.bundle; ../../../shared recipes: cmake -DGGML_NATIVE=OFF, target llama-server):
#   OUTDIR/generations.txt  the runs (options, prompt ids, streamed ids), then logits.c's records
#   OUTDIR/logits.npy       float32 [T, V]: the logits of each step, teacher forced through the
#                           same build's libllama (../node_llama_cpp/logits.c)
# The model is make_tiny_gguf.py's tiny random GGUF with --text (valid UTF-8 pieces: the server's
# output parser stops a stream at an invalid byte). Ollama pins llama.cpp b10380 to b10488 in these
# releases; their sampler sources lie between b10361 (node-llama-cpp 3.20.0's bundle) and v0.4.0,
# whose src/llama-sampler.cpp, common/sampling.cpp and server request schema are the same.
# With LINE 0.30, the same for Ollama v0.30.0 to v0.32.9 (client.py --line 0.30: RepeatPenalty 1.1 by
# default), on llama.cpp b10353's llama-server, the build Ollama v0.32.8 and v0.32.9 pin.
# SL_LLAMA_DESC, when set, names the source in the header (a source without git reports version 0).
# Usage: sh analysis/golden/ollama_0.32/golden.sh LLAMADIR OUTDIR [LINE]   (LLAMADIR: the built clone)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "${1:?usage: golden.sh LLAMADIR OUTDIR}" && pwd)
mkdir -p "${2:?usage: golden.sh LLAMADIR OUTDIR}"
out=$(cd "$2" && pwd)
line=${3:-0.32}
case $line in
0.32) drive="Ollama v0.32.10 to v0.33.0-rc2"; lineargs= ;;
0.30) drive="Ollama v0.30.0 to v0.32.9"; lineargs="--line 0.30" ;;
*) echo "golden.sh: LINE is 0.32 or 0.30" >&2; exit 2 ;;
esac
bins=$src/build/bin
work=$(mktemp -d)
pid=
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; rm -rf "$work"' EXIT
PYTHONPATH=$src/gguf-py /usr/bin/python3 "$here/../current/make_tiny_gguf.py" "$work/tiny.gguf" --text
gcc -std=c11 -O2 -Wall -Wextra -Werror -I"$src/include" -I"$src/ggml/include" -o "$work/logits" \
  "$here/../node_llama_cpp/logits.c" -L"$bins" -Wl,-rpath,"$bins" -lllama -lggml -lggml-base
port=$((20000 + $$ % 10000))
"$bins/llama-server" -m "$work/tiny.gguf" --host 127.0.0.1 --port "$port" -c 256 --parallel 1 \
  --no-webui > "$work/server.log" 2>&1 &
pid=$!
i=0
until curl -sf "http://127.0.0.1:$port/health" >/dev/null 2>&1; do
  i=$((i + 1))
  [ "$i" -lt 120 ] || { echo "golden.sh: llama-server did not start:" >&2; tail -5 "$work/server.log" >&2; exit 1; }
  sleep 0.5
done
/usr/bin/python3 "$here/client.py" "$port" $lineargs > "$work/gen.txt"
kill "$pid"
wait "$pid" 2>/dev/null || true
pid=
(cd "$work" && ./logits tiny.gguf gen.txt logits.npy > rows.txt)
cpu=$(grep -m1 '^model name' /proc/cpuinfo | sed 's/^[^:]*: *//')
{
  echo "# llama-server $("$bins/llama-server" --version 2>&1 | grep -m1 '^version' || true)${SL_LLAMA_DESC:+ ($SL_LLAMA_DESC)} built with $(gcc --version | head -n 1); driven as $drive drives it (client.py${lineargs:+ $lineargs})"
  echo "# tiny.gguf (make_tiny_gguf.py --text) sha256 $(sha256sum "$work/tiny.gguf" | cut -d' ' -f1); cpu: $cpu"
  cat "$work/gen.txt" "$work/rows.txt"
} > "$out/generations.tmp"
mv "$out/generations.tmp" "$out/generations.txt"
mv "$work/logits.npy" "$out/logits.npy"
