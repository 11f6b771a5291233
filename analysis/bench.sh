#!/bin/sh
# bench.sh — `make bench`: runs every analysis/bench_*.sh in turn.
set -eu
status=0
for b in analysis/bench_*.sh; do
  [ -f "$b" ] || continue
  echo "== $b"
  sh "$b" || status=1
done
exit $status
