#!/bin/sh
# make bench: every speed measurement, side by side with the peers in one run.
# The core table first, then each area's own script (analysis/bench_*.sh).
set -u
echo "## Draw methods (samplab bench, pcg32, best of 3)"
bin/samplab bench || exit 1
for s in analysis/bench_*.sh; do
  [ -e "$s" ] || continue
  echo
  sh "$s" || echo "bench: $s failed (exit $?)"
done
