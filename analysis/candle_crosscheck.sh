#!/bin/sh
# Cross-check `samplab draw --framework candle` against the real Rust rand
# 0.8.5 on inputs that appear nowhere in the golden files: random weight and
# logit vectors (ties, zeros, -0, tiny and huge weights, -inf logits), random
# seeds (incl. 0, 2^32-1, 2^32, 2^63, 2^64-1), V up to 100003, random temperature / top-k / top-p / SIMD
# sum, draw by draw. Errors must match too (rand's error -> exit 2 naming it).
# Usage: sh analysis/candle_crosscheck.sh [CASES] (default 300)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
cases=${1:-300}
oracle=$(GOLDEN_ORIGIN="Debian librust-rand-dev" \
  sh analysis/golden/rand_golden/build.sh rand08 "$root/build/rand_golden" 0.8.5)
[ -x bin/samplab ] || make -s bin/samplab
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0 draws=0 errs=0
i=0
while [ $i -lt "$cases" ]; do
  i=$((i + 1))
  # one random case: kind, seed, vector file, options
  awk -v s="$i" -v dir="$tmp" 'BEGIN {
    srand(s * 7919 + 17)
    kind = (rand() < 0.5) ? "probs" : "logits"
    r = rand()
    seed = (r < 0.05) ? "0" : (r < 0.1) ? "9223372036854775808" : (r < 0.15) ? "18446744073709551615" : (r < 0.18) ? "4294967295" : (r < 0.21) ? "4294967296" : sprintf("%.0f", int(rand() * 2^53))
    r = rand()
    V = (r < 0.02) ? 100003 : (r < 0.04) ? 49152 : 1 + int(rand() * (rand() < 0.1 ? 3000 : 60))
    mode = int(rand() * 6)
    for (j = 0; j < V; j++) {
      u = rand()
      if (kind == "probs") {
        if (mode == 0) x = sprintf("%.9g", u)
        else if (mode == 1) x = (u < 0.4) ? "0" : sprintf("%.9g", rand())
        else if (mode == 2) x = sprintf("%d", int(u * 4))
        else if (mode == 3) x = sprintf("%.9g", 2^(60 * u - 30))
        else if (mode == 4) x = (u < 0.02) ? "-0" : (u < 0.05) ? "nan" : (u < 0.06) ? "-1" : sprintf("%.9g", rand() * 1e-3)
        else x = (u < 0.01) ? "inf" : sprintf("%.9g", rand() * 1e37)
      } else {
        if (mode == 0) x = sprintf("%.9g", 30 * u - 15)
        else if (mode == 1) x = sprintf("%d", int(u * 5) - 2)
        else if (mode == 2) x = (u < 0.2) ? "-inf" : sprintf("%.9g", 20 * rand() - 10)
        else x = sprintf("%.9g", 8 * u)
      }
      printf "%s\n", x > (dir "/v.txt")
    }
    t = "-"; k = "-"; p = "-"; simd = 0
    if (kind == "logits") {
      r = rand(); t = (r < 0.1) ? "-" : (r < 0.15) ? "1e-8" : sprintf("%.9g", 0.05 + 2.5 * rand())
      if (rand() < 0.5) k = int(rand() * (V + 3))
      if (rand() < 0.5) { r = rand(); p = (r < 0.1) ? "0" : (r < 0.2) ? "1" : (r < 0.25) ? "1.5" : sprintf("%.9g", rand()) }
      simd = (rand() < 0.5) ? 1 : 0
    }
    printf "%s %s %s %s %s %s\n", kind, seed, t, k, p, simd > (dir "/case.txt")
  }'
  read -r kind seed t k p simd < "$tmp/case.txt"
  n=64
  if [ "$kind" = probs ]; then
    "$oracle" probs "@$tmp/v.txt" "$seed" $n > "$tmp/want.txt"
    set -- --probs "$tmp/v.txt"
  else
    "$oracle" logits "@$tmp/v.txt" "$seed" $n "$t" "$k" "$p" "$simd" > "$tmp/want.txt"
    set -- --logits "$tmp/v.txt"
    [ "$t" != - ] && set -- "$@" --temperature "$t"
    [ "$k" != - ] && set -- "$@" --top-k "$k"
    [ "$p" != - ] && set -- "$@" --top-p "$p"
    [ "$simd" = 1 ] && set -- "$@" --simd-sum
  fi
  rc=0
  bin/samplab draw --framework candle "$@" --seed "$seed" --n $n > "$tmp/got.txt" 2> "$tmp/err.txt" || rc=$?
  first=$(head -n 1 "$tmp/want.txt")
  case "$first" in
    err*|panic*)
      what=$(echo "$first" | sed 's/^err //; s/^panic .*/range overflow/')
      # a run that errs at step 0 consumes nothing; candle errs at step 0 or never
      if [ $rc -ne 2 ] || ! grep -q "$what" "$tmp/err.txt" || [ -s "$tmp/got.txt" ]; then
        echo "case $i ($kind seed $seed t=$t k=$k p=$p simd=$simd): rand says '$first', samplab exit $rc: $(cat "$tmp/err.txt")"
        fail=$((fail + 1))
      fi
      errs=$((errs + 1)) ;;
    *)
      if [ $rc -ne 0 ] || ! cmp -s "$tmp/want.txt" "$tmp/got.txt"; then
        echo "case $i ($kind seed $seed t=$t k=$k p=$p simd=$simd V=$(wc -l < "$tmp/v.txt")): draws differ (exit $rc) $(cat "$tmp/err.txt")"
        cp "$tmp/v.txt" "build/crosscheck_case_$i.txt"
        fail=$((fail + 1))
      fi
      draws=$((draws + n)) ;;
  esac
done
echo "candle crosscheck: $cases cases, $draws draws compared, $errs errors compared, $fail failed"
[ $fail -eq 0 ]
