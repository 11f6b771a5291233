#!/bin/sh
# make bench: `samplab sweep` on examples/sweep.json, serially, on 1 rank and on
# 2 ranks (mpirun), wall time and speed-up, the outputs compared byte for byte;
# then the cost and traffic per point that docs/sweep.md extrapolates from.
set -u
echo "## samplab sweep (examples/sweep.json), wall time"
command -v mpirun >/dev/null || { echo "bench: mpirun not found (Debian: openmpi-bin libopenmpi-dev)"; exit 1; }
T=$(mktemp -d /tmp/sl-bench-sweep-XXXXXX)
trap 'rm -rf "$T"' EXIT
MPI="mpirun --allow-run-as-root --oversubscribe"
wall() { # wall NAME CMD...: seconds of one run
  name=$1; shift
  t0=$(date +%s.%N); "$@" >/dev/null 2>"$T/err" || { echo "bench: $name failed: $(tail -2 "$T/err")"; exit 1; }
  t1=$(date +%s.%N); awk "BEGIN { print $t1 - $t0 }"
}
s=$(wall serial bin/samplab sweep --spec examples/sweep.json --out "$T/serial")
r1=$(wall np1 $MPI -np 1 bin/samplab sweep --spec examples/sweep.json --out "$T/np1")
r2=$(wall np2 $MPI -np 2 bin/samplab sweep --spec examples/sweep.json --out "$T/np2")
diff -r "$T/serial" "$T/np2" >/dev/null && diff -r "$T/serial" "$T/np1" >/dev/null || { echo "bench: outputs differ"; exit 1; }
points=$(cat "$T"/serial/*.jsonl | wc -l)
bytes=$(cat "$T"/serial/*.jsonl | wc -c)
printf '%-28s %10s %10s\n' "run" "wall s" "speed-up"
printf '%-28s %10.2f %10s\n' "serial (no MPI)" "$s" "1.00"
printf '%-28s %10.2f %10.2f\n' "mpirun -np 1" "$r1" "$(awk "BEGIN { print $s / $r1 }")"
printf '%-28s %10.2f %10.2f\n' "mpirun -np 2" "$r2" "$(awk "BEGIN { print $s / $r2 }")"
printf 'points %d; mean cost %.1f ms per point (serial); mean record %d bytes per point (the traffic to rank 0, plus 8 bytes each way)\n' \
  "$points" "$(awk "BEGIN { print 1000 * $s / $points }")" "$((bytes / points))"
echo "outputs of the three runs: byte-identical"
