#!/bin/sh
# bench_stats.sh — speed and memory of `samplab gof` (part of make bench).
# 1. gof on V = 49,152 (data/synthetic_49152.txt) with N = 100,000 counts given:
#    wall time with and without the TV null (best of 5 each, alternated) and
#    their ratio, beside NumPy doing the bare arithmetic of the same
#    statistics (chi-square and G without pooling, TV; no null simulation) in the
#    same run, as a floor for what any implementation pays.
# 2. a draws file is a stream: max RSS for 10^6 and 10^8 draws piped into
#    `gof --draws -` must be the same O(V) few megabytes.
set -u
BIN=${SL_BIN:-bin/samplab}
V=data/synthetic_49152.txt
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT

echo "## samplab gof (V = 49152, N = 100000 counts given)"
"$BIN" draw --logits "$V" --method alias --seed 1 --n 100000 --counts > "$T/counts.txt" || exit 1
# with and without the TV null, alternated, best of 5 wall times each in
# microseconds (date +%s%N: /usr/bin/time's 10 ms steps are the size of the
# run without the null); the ratio is the null's price, issue 27 asks for at most 5
us() { o=$1; shift; s=$(date +%s%N); "$@" > "$o"; e=$(date +%s%N); echo $(((e - s) / 1000)); }
best=""
nonull=""
for i in 1 2 3 4 5; do
  t=$(us "$T/gof.txt" "$BIN" gof --logits "$V" --counts "$T/counts.txt")
  if [ -z "$best" ] || [ "$t" -lt "$best" ]; then best=$t; fi
  t=$(us /dev/null "$BIN" gof --logits "$V" --counts "$T/counts.txt" --null-reps 0)
  if [ -z "$nonull" ] || [ "$t" -lt "$nonull" ]; then nonull=$t; fi
done
printf "samplab gof (read logits, softmax, pool, chi2, G, TV, TV null q99): %.1f ms wall (best of 5; load %s)\n" \
  "$(echo "$best / 1000" | bc -l)" "$(cut -d' ' -f1 /proc/loadavg)"
printf "samplab gof --null-reps 0 (the same without the TV null simulation): %.1f ms wall (best of 5)\n" \
  "$(echo "$nonull / 1000" | bc -l)"
printf "ratio gof with TV null / without: %.2f (at most 5 wanted)\n" "$(echo "$best / $nonull" | bc -l)"
nonull=$(echo "$nonull / 1000000" | bc -l)
grep -E "^(chi-square|TV =|verdict)" "$T/gof.txt"

if /usr/bin/python3 -c "import numpy" 2>/dev/null; then
  np=$(/usr/bin/python3 - "$V" "$T/counts.txt" <<'EOF'
import sys, time
import numpy as np
best = 1e9
for _ in range(3):
    t0 = time.perf_counter()
    l = np.loadtxt(sys.argv[1], comments="#")
    c = np.loadtxt(sys.argv[2], dtype=np.int64)[:, 1]
    p = np.exp(l - l.max()); p /= p.sum()
    n = c.sum(); e = n * p
    chi2 = ((c - e) ** 2 / e).sum()
    nz = c > 0
    g = 2 * (c[nz] * np.log(c[nz] / e[nz])).sum()
    tv = 0.5 * np.abs(c / n - p).sum()
    best = min(best, time.perf_counter() - t0)
print("%.3f %s" % (best, np.__version__))
EOF
)
  npt=${np% *}
  printf "NumPy %s (loadtxt, softmax, chi2, G, TV; no pooling, no null): %.3f s; ratio samplab --null-reps 0 / NumPy %.2f\n" \
    "${np#* }" "$npt" "$(echo "$nonull / $npt" | bc -l)"
fi

echo
echo "## samplab gof --draws - (streamed): max RSS"
for n in 1000000 100000000; do
  lines=$((n / 10))
  yes "17 4 3000 49151 0 12 7 8 9 10" | head -n "$lines" |
    /usr/bin/time -f "%M %e" -o "$T/time.txt" "$BIN" gof --logits "$V" --draws - > /dev/null
  set -- $(tail -n 1 "$T/time.txt")
  printf "N = %10d draws: max RSS %6d KiB, %s s\n" "$n" "$1" "$2"
done
