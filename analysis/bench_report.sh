#!/bin/sh
# bench_report.sh — times the whole `samplab report` (the `make report`
# workload) into a scratch directory, on all cores and on one, and prints
# the wall time, the speed-up, and the per-section breakdown the report
# writes to timings.txt. Target: under 60 s on a 2-core machine.
set -eu
BIN=${SL_BIN:-bin/samplab}
OUT=${BENCH_REPORT_DIR:-build/bench-report}
rm -rf "$OUT"
mkdir -p "$OUT"
now() { date +%s.%N; }
t0=$(now)
"$BIN" report --out "$OUT/all" >/dev/null
t1=$(now)
"$BIN" report --jobs 1 --no-plot --out "$OUT/one" >/dev/null
t2=$(now)
all=$(awk "BEGIN{print $t1 - $t0}")
one=$(awk "BEGIN{print $t2 - $t1}")
cores=$(nproc 2>/dev/null || echo '?')
printf 'bench report: samplab report (studies + %s figures), %s cores: %.2f s wall (target < 60 s)\n' \
  "$(ls "$OUT/all/figures"/*.png | wc -l)" "$cores" "$all"
printf 'bench report: same studies on 1 thread, no figures: %.2f s wall; speed-up %.2fx\n' \
  "$one" "$(awk "BEGIN{print $one / $all}")"
sed 's/^/bench report:   /' "$OUT/all/timings.txt"
cmp -s "$OUT/all/REPORT.md" "$OUT/one/REPORT.md" \
  && echo "bench report: REPORT.md identical on 1 and $cores threads" \
  || { echo "bench report: REPORT.md differs between thread counts" >&2; exit 1; }
