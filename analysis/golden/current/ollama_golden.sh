#!/bin/sh
# ollama_golden.sh CHROOT OLLAMA_GIT_DIR OUTDIR [COMMIT]
# Runs Ollama's own Go sampler (sample/samplers.go, sample/transforms.go at
# COMMIT, default v0.24.0 = c28ddc0a7b273cd286b680a6db0bef0c17bc0ec0) with the
# Go toolchain of CHROOT (Debian sid's golang-go, Go 1.27.3: apt-get -o
# Acquire::Check-Valid-Until=false install golang-go) on the cases of
# analysis/golden/current/ollama/golden_test.go, and writes ollama_0.24.tsv,
# ollama_exp.tsv and ollama_pcg.tsv into OUTDIR. OLLAMA_GIT_DIR is a git directory of
# github.com/ollama/ollama (a clone or a bare mirror); the two files are copied
# from it at run time into a temporary module inside CHROOT, never into this
# repository. The llama and tokenizer packages the sampler imports for grammars
# are replaced by the stubs beside golden_test.go. Nothing is fetched: GOPROXY=off.
set -eu
[ $# -ge 3 ] || { echo "usage: $0 CHROOT OLLAMA_GIT_DIR OUTDIR [COMMIT]" >&2; exit 2; }
CHROOT=$1 GITDIR=$2 OUT=$3 COMMIT=${4:-c28ddc0a7b273cd286b680a6db0bef0c17bc0ec0}
HERE=$(cd "$(dirname "$0")" && pwd)
TMP=$(chroot "$CHROOT" mktemp -d)
trap 'rm -rf "$CHROOT$TMP"' EXIT
M=$CHROOT$TMP/mod
mkdir -p "$M/sample" "$M/llama" "$M/tokenizer" "$CHROOT$TMP/out"
for f in samplers.go transforms.go; do
    git --git-dir="$GITDIR" show "$COMMIT:sample/$f" > "$M/sample/$f"
done
echo "sample/samplers.go  blob $(git --git-dir="$GITDIR" rev-parse "$COMMIT:sample/samplers.go")" >&2
echo "sample/transforms.go blob $(git --git-dir="$GITDIR" rev-parse "$COMMIT:sample/transforms.go")" >&2
cp "$HERE/ollama/golden_test.go" "$M/sample/"
cp "$HERE/ollama/stub_llama.go" "$M/llama/llama.go"
cp "$HERE/ollama/stub_tokenizer.go" "$M/tokenizer/tokenizer.go"
printf 'module github.com/ollama/ollama\n\ngo 1.24\n' > "$M/go.mod"
chroot "$CHROOT" env HOME="$TMP" GOCACHE="$TMP/cache" GOPATH="$TMP/gopath" GOPROXY=off GOTOOLCHAIN=local \
    GOFLAGS=-mod=mod GOLDEN_OUT="$TMP/out" sh -c "cd $TMP/mod && go version >&2 && go test -count=1 -run TestGolden ./sample/ >&2"
mkdir -p "$OUT"
cp "$CHROOT$TMP/out/ollama_0.24.tsv" "$CHROOT$TMP/out/ollama_pcg.tsv" "$CHROOT$TMP/out/ollama_exp.tsv" "$OUT/"
grep -c -v '^#' "$OUT/ollama_0.24.tsv" >&2
