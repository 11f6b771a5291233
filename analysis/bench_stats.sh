#!/bin/sh
# bench_stats.sh — speed and memory of `samplab gof` (part of make bench).
# 1. gof on V = 49,152 (data/synthetic_49152.txt) with N = 100,000 counts given:
#    wall time, best of 3, beside NumPy doing the bare arithmetic of the same
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
best=""
for i in 1 2 3; do
  /usr/bin/time -f "%e %U" -o "$T/t.txt" "$BIN" gof --logits "$V" --counts "$T/counts.txt" > "$T/gof.txt"
  set -- $(tail -n 1 "$T/t.txt")
  if [ -z "$best" ] || [ "$(echo "$1 < $best" | bc -l)" = 1 ]; then best=$1; cpu=$2; fi
done
printf "samplab gof (read logits, softmax, pool, chi2, G, TV, TV null q99): %.3f s wall, %.2f s CPU (best of 3; load %s)\n" \
  "$best" "$cpu" "$(cut -d' ' -f1 /proc/loadavg)"
/usr/bin/time -f "%e %U" -o "$T/t.txt" "$BIN" gof --logits "$V" --counts "$T/counts.txt" --null-reps 0 > /dev/null
set -- $(tail -n 1 "$T/t.txt")
printf "samplab gof --null-reps 0 (the same without the TV null simulation): %.3f s wall, %.2f s CPU\n" "$1" "$2"
nonull=$1
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
