#!/bin/sh
# tests/sweep/run.sh BIN — `samplab sweep` end to end: serial, 2- and 3-rank
# runs byte-identical; kill -9 then --resume identical (serial, and a rank
# killed under mpirun, resumed on another number of ranks); a killed rank
# stops the run with a message instead of hanging. Prints one line per check;
# exit 1 on the first failure. Needs Open MPI's mpirun (make deps-test). Run by
# tests/test_cli_sweep.c (suite sweep_cli) on the release binary; its specs are
# tests/sweep/small.json and slow.json. Against samplab itself: no golden file.
set -u
BIN=${1:-bin/samplab}
T=$(mktemp -d /tmp/sl-sweep-XXXXXX)
trap 'rm -rf "$T"' EXIT
MPI="mpirun --allow-run-as-root --oversubscribe"
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }
same() { diff -r "$1" "$2" >"$T/diff" 2>&1 || { head -20 "$T/diff"; fail "$3"; }; ok "$3"; }

command -v mpirun >/dev/null || fail "mpirun not found (Debian: openmpi-bin libopenmpi-dev)"

"$BIN" sweep --spec tests/sweep/small.json --out "$T/serial" >"$T/out" 2>"$T/err" || fail "serial run: $(cat "$T/err")"
[ -s "$T/out" ] && fail "sweep printed on stdout"
[ -f "$T/serial/summary.md" ] || fail "no summary.md"
n=$(cat "$T"/serial/*.jsonl | wc -l)
[ "$n" = 40 ] || fail "serial run: $n records, 40 points expected"
ok "serial: 40 records, summary.md"
for np in 2 3; do
  timeout 120 $MPI -np $np "$BIN" sweep --spec tests/sweep/small.json --out "$T/np$np" >"$T/out" 2>"$T/err" \
    || fail "mpirun -np $np: $(tail -3 "$T/err")"
  same "$T/serial" "$T/np$np" "mpirun -np $np: same bytes as the serial run"
done

# the uninterrupted reference of the slow study
"$BIN" sweep --spec tests/sweep/slow.json --out "$T/ref" 2>"$T/err" || fail "slow serial: $(cat "$T/err")"

# wait_lines FILE N: until FILE has N complete lines (at most 60 s)
wait_lines() {
  i=0
  while [ "$(cat $1 2>/dev/null | wc -l)" -lt "$2" ]; do
    i=$((i + 1)); [ $i -gt 600 ] && fail "no progress in $1"; sleep 0.1
  done
}

# serial: kill -9 mid-run, a cut-off line appended as a kill leaves it, resume
"$BIN" sweep --spec tests/sweep/slow.json --out "$T/kill" 2>/dev/null &
pid=$!
wait_lines "$T/.kill.checkpoint/rank-0.jsonl" 5
kill -9 $pid; wait $pid 2>/dev/null
[ -f "$T/kill/summary.md" ] && fail "a killed run left a summary"
done_before=$(wc -l <"$T/.kill.checkpoint/rank-0.jsonl")
printf '{"point":3,"study":"fit","job":"gof","inp' >>"$T/.kill.checkpoint/rank-0.jsonl"
"$BIN" sweep --spec tests/sweep/slow.json --out "$T/kill" --resume 2>"$T/err" || fail "resume: $(cat "$T/err")"
same "$T/ref" "$T/kill" "serial kill -9 after $done_before points, then --resume: same bytes"

# Ctrl-C inside a point (SIGINT with its default action, as a terminal sends it):
# exit 130, the cut point not recorded, and a resume gives the same bytes
cat >"$T/int.json" <<'SPEC'
{"studies": [{"job": "calibrate", "inputs": [{"logits": "data/weather.txt"}], "methods": ["cdf", "exprace", "cdf"],
  "options": {"n": 25000, "seeds": 1000}}]}
SPEC
"$BIN" sweep --spec "$T/int.json" --out "$T/int-ref" 2>"$T/err" || fail "int serial: $(cat "$T/err")"
/usr/bin/python3 - "$BIN" "$T" <<'PY' || fail "Ctrl-C inside a point"
import os, signal, subprocess, sys, time
b, t = sys.argv[1], sys.argv[2]
p = subprocess.Popen([b, "sweep", "--spec", t + "/int.json", "--out", t + "/int"], stderr=subprocess.PIPE,
                     restore_signals=True, preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
def catches_sigint():  # SigCgt of /proc/PID/status: the point's handler is in place
    for line in open("/proc/%d/status" % p.pid):
        if line.startswith("SigCgt:"):
            return int(line.split()[1], 16) >> (signal.SIGINT - 1) & 1
def recorded():
    try:
        return open(t + "/.int.checkpoint/rank-0.jsonl").read().count("\n")
    except OSError:
        return 0
# one SIGINT inside the second point: after the first is recorded, once the handler is armed
end = time.time() + 120
while p.poll() is None and time.time() < end and not (recorded() >= 1 and catches_sigint()):
    time.sleep(0.005)
p.send_signal(signal.SIGINT)
err = p.communicate()[1].decode()
ok = p.returncode == 130 and "interrupted (Ctrl-C)" in err
if not ok:
    print("exit %s, %d points recorded, stderr %r" % (p.returncode, recorded(), err))
sys.exit(0 if ok else 1)
PY
[ -f "$T/int/summary.md" ] && fail "an interrupted run left a summary"
"$BIN" sweep --spec "$T/int.json" --out "$T/int" --resume 2>"$T/err" || fail "resume after Ctrl-C: $(cat "$T/err")"
same "$T/int-ref" "$T/int" "Ctrl-C inside a point: exit 130, then --resume: same bytes"

# under mpirun, its stderr a terminal: rank 0 writes straight to it (not through the pipe
# mpirun gives the ranks), so its progress line and, on Ctrl-C, which mpirun turns into
# SIGTERM for every rank, the serial run's one line reach it; mpirun itself then exits 1 (Open MPI 4.1) whatever the ranks say
/usr/bin/python3 - "$BIN" "$T" "$MPI" <<'PY' || fail "Ctrl-C under mpirun"
import os, pty, signal, subprocess, sys, threading, time
b, t, mpi = sys.argv[1], sys.argv[2], sys.argv[3].split()
master, slave = pty.openpty()
p = subprocess.Popen(mpi + ["-np", "2", b, "sweep", "--spec", t + "/int.json", "--out", t + "/mint"],
                     stdin=subprocess.DEVNULL, stdout=slave, stderr=slave, restore_signals=True,
                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
os.close(slave)
out = []
def drain():
    while True:
        try:
            d = os.read(master, 4096)
        except OSError:
            return
        if not d:
            return
        out.append(d)
th = threading.Thread(target=drain)
th.start()
def recorded():
    n = 0
    for r in ("rank-0.jsonl", "rank-1.jsonl"):
        try:
            n += open(t + "/.mint.checkpoint/" + r).read().count("\n")
        except OSError:
            pass
    return n
end = time.time() + 120
while p.poll() is None and time.time() < end and recorded() < 1:
    time.sleep(0.01)
p.send_signal(signal.SIGINT)
rc = p.wait(timeout=60)
th.join(timeout=10)
text = b"".join(out).decode(errors="replace")
ok = ("samplab sweep: " in text and " points" in text and
      "interrupted (Ctrl-C: mpirun stopped the ranks)" in text and "run again with --resume" in text and rc != 0)
if not ok:
    print("mpirun exit %s, %d points recorded, its terminal %r" % (rc, recorded(), text[-600:]))
sys.exit(0 if ok else 1)
PY
[ -f "$T/mint/summary.md" ] && fail "an interrupted mpirun run left a summary"
timeout 120 $MPI -np 2 "$BIN" sweep --spec "$T/int.json" --out "$T/mint" --resume >"$T/out" 2>"$T/err" ||
  fail "resume after Ctrl-C under mpirun: $(tail -3 "$T/err")"
grep -q "kept" "$T/err" || fail "resume under mpirun does not say what it kept: $(cat "$T/err")"
same "$T/int-ref" "$T/mint" "Ctrl-C under mpirun (progress on its terminal, the serial line), then --resume: same bytes"

# a resume with another spec is refused
sed 's/"count": 3/"count": 2/' tests/sweep/slow.json >"$T/other.json"
"$BIN" sweep --spec "$T/other.json" --out "$T/kill" --resume >"$T/out" 2>"$T/err"
[ $? = 2 ] && grep -q "another spec" "$T/err" || fail "resume with another spec: $(cat "$T/err")"
same "$T/ref" "$T/kill" "--resume with another spec: refused, folder untouched"

# under mpirun: kill rank 1, the run must stop (not hang) with a message
timeout 60 $MPI -np 2 "$BIN" sweep --spec tests/sweep/slow.json --out "$T/rank" >"$T/out" 2>"$T/err" &
mp=$!
wait_lines "$T/.rank.checkpoint/rank-1.jsonl" 2
victim=
for p in /proc/[0-9]*; do
  if { tr '\0' '\n' <"$p/environ"; } 2>/dev/null | grep -qx 'OMPI_COMM_WORLD_RANK=1' &&
     { tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null | grep -q "$T/rank"; then victim=${p#/proc/}; fi
done
[ -n "$victim" ] || fail "rank 1 not found"
kill -9 "$victim"
wait $mp; rc=$?
[ $rc = 124 ] && fail "mpirun hung after rank 1 was killed"
[ $rc = 0 ] && fail "mpirun exited 0 after rank 1 was killed"
[ -s "$T/err" ] || fail "no message after rank 1 was killed"
[ -f "$T/rank/summary.md" ] && fail "a run with a dead rank left a summary"
ok "rank 1 killed: mpirun stops with status $rc: $(grep -m1 -i -e killed -e signal "$T/err" | tr -s ' ')"
timeout 120 $MPI -np 3 "$BIN" sweep --spec tests/sweep/slow.json --out "$T/rank" --resume 2>"$T/err" \
  || fail "resume on 3 ranks: $(tail -3 "$T/err")"
same "$T/ref" "$T/rank" "rank killed, then --resume on 3 ranks: same bytes"
echo "all sweep checks passed"
