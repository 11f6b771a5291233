#!/bin/sh
# vocab.sh — llama.cpp's test vocabularies (models/ggml-vocab-*.gguf) for the
# DRY tests and golden, fetched at test time and never committed: the npm
# package node-llama-cpp@3.21.1 ships llama.cpp v0.4.0 as a git bundle
# (llama/gitRelease.bundle); `npm pack` fetches the package (no install, no
# scripts), git reads the five files out of the bundle, and each file is
# checked against mk/vocab.sha256. Prints the folder; on any failure one line
# on stderr and exit 1.
# Usage: sh mk/vocab.sh [DIR]   (default ${XDG_CACHE_HOME:-$HOME/.cache}/samplab/vocab)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
sums="$here/vocab.sha256"
pkg=node-llama-cpp@3.21.1
tgz=node-llama-cpp-3.21.1.tgz
dir=${1:-${XDG_CACHE_HOME:-$HOME/.cache}/samplab/vocab}
fail() { echo "mk/vocab.sh: $*" >&2; exit 1; }
ok() { # every file of sums other than the package, present and with its sha256
  [ -d "$dir" ] || return 1
  grep -v "  $tgz\$" "$sums" | (cd "$dir" && sha256sum -c --status -) 2>/dev/null
}
if ok; then echo "$dir"; exit 0; fi
command -v git >/dev/null 2>&1 || fail "git is needed to read llama.cpp's vocabularies out of $pkg's bundle"
command -v sha256sum >/dev/null 2>&1 || fail "sha256sum is needed to check llama.cpp's vocabularies"
mkdir -p "$dir" || fail "cannot make $dir"
work=$(mktemp -d "$dir/.fetch.XXXXXX") || fail "cannot make a scratch folder in $dir"
trap 'rm -rf "$work"' EXIT
if [ ! -f "$dir/$tgz" ] || ! (cd "$dir" && grep "  $tgz\$" "$sums" | sha256sum -c --status -); then
  rm -f "$dir/$tgz"
  command -v npm >/dev/null 2>&1 || fail "npm is needed to fetch $pkg (llama.cpp's vocabularies for the DRY tests)"
  (cd "$work" && npm pack "$pkg" --loglevel=error >npm.log 2>&1) ||
    fail "npm pack $pkg failed (no network?): $(grep -m 1 . "$work/npm.log" 2>/dev/null)"
  (cd "$work" && grep "  $tgz\$" "$sums" | sha256sum -c --status -) ||
    fail "$tgz from npm is not the package whose sha256 mk/vocab.sha256 holds"
  mv "$work/$tgz" "$dir/$tgz"
fi
tar -xzf "$dir/$tgz" -C "$work" package/llama/gitRelease.bundle ||
  fail "$dir/$tgz holds no package/llama/gitRelease.bundle"
git init -q --bare "$work/llama.git" && git -C "$work/llama.git" fetch -q "$work/package/llama/gitRelease.bundle" HEAD:refs/heads/release ||
  fail "git cannot read $pkg's llama/gitRelease.bundle"
for f in $(grep -v "  $tgz\$" "$sums" | sed 's/^[0-9a-f]*  //'); do
  git -C "$work/llama.git" cat-file blob "release:models/$f" > "$work/$f" || fail "the bundle has no models/$f"
done
(cd "$work" && grep -v "  $tgz\$" "$sums" | sha256sum -c --status -) ||
  fail "the vocabularies read from $pkg differ from the sha256 in mk/vocab.sha256"
for f in $(grep -v "  $tgz\$" "$sums" | sed 's/^[0-9a-f]*  //'); do mv "$work/$f" "$dir/$f"; done
rm -f "$dir/$tgz" # the five files are all the tests read
echo "$dir"
