#!/bin/sh
# tests/sweep/tamper.sh BIN — `sweep --resume` takes only the checkpoint lines that
# verify: a record edited, a bare {"point","study"}, another point's line, a line of
# another samplab, a line of the old format and an input file changed since are each
# run again (stderr names how many, and why), and the set ends byte-identical to an
# uninterrupted run; a CRLF-edited checkpoint is kept whole; a checkpoint that is a
# FIFO or a folder is refused at once (exit 2, one line) and the folder left as it
# was; a second sweep or report on a folder in use is refused at once, naming the
# lock and the holder's pid, and the first run finishes whole; a run killed over an
# old set, or stopped by a file-size limit, leaves the folder all old (its checkpoint
# kept beside it until the set goes in), and a report under the limit leaves nothing
# beside its folder. Usage: tamper.sh BIN
# [REL] (REL: a faster build for the long run). One line per check; exit 1 on the
# first failure. Run by tests/test_cli_sweep.c.
set -u
BIN=${1:-bin/samplab}
T=$(mktemp -d /tmp/sl-tamper-XXXXXX)
trap 'rm -rf "$T"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
ok() { echo "ok: $*"; }
same() { diff -r "$1" "$2" >"$T/diff" 2>&1 || { head -20 "$T/diff"; fail "$3"; }; ok "$3"; }
has() { grep -qF -- "$2" "$1" || fail "$3: stderr lacks '$2': $(cat "$1")"; }

printf '0.4\n0.3\n0.2\n0.1\n' >"$T/p.txt"
cat >"$T/spec.json" <<EOF
{"studies": [
  {"name": "a", "job": "gof", "inputs": [{"probs": "$T/p.txt"}], "methods": ["cdf", "alias"],
   "seeds": {"first": 1, "count": 3}, "options": {"n": 2000, "null_reps": 0}},
  {"name": "b", "job": "draw", "inputs": [{"probs": "3,2,2,1"}], "methods": ["cdf"],
   "seeds": [4, 5], "options": {"n": 20}}
]}
EOF
"$BIN" sweep --spec "$T/spec.json" --out "$T/ref" 2>"$T/err" || fail "first run: $(cat "$T/err")"
ck=checkpoint/rank-0.jsonl
[ "$(wc -l <"$T/ref/$ck")" = 8 ] || fail "the checkpoint holds $(wc -l <"$T/ref/$ck") lines, 8 points expected"
grep -q '"inputs":{"'"$T"'/p.txt":"sha256:' "$T/ref/$ck" || fail "no input digest in the checkpoint"

# resume DIR WANT CHECK: --resume on a copy of the reference changed by the caller
resume() {
  "$BIN" sweep --spec "$T/spec.json" --out "$T/w" --resume 2>"$T/err" || fail "$3: exit $?: $(cat "$T/err")"
  [ "$(wc -l <"$T/err")" = 1 ] || fail "$3: stderr is not one line: $(cat "$T/err")"
  has "$T/err" "$2" "$3"
  same "$T/ref" "$T/w" "$3: same bytes as the uninterrupted run"
}
fresh() { rm -rf "$T/w"; cp -r "$T/ref" "$T/w"; }

fresh
resume w "kept 8 of 8 points" "nothing changed: every record kept"

fresh
sed -i 's/$/\r/' "$T/w/$ck"
resume w "kept 8 of 8 points" "CRLF line ends: every record kept"

fresh # a digit of point 6's tokens, inside its record
sed -i '7s/\(\\"tokens\\":\[\)\([0-9]\)/\1\2\2/' "$T/w/$ck"
cmp -s "$T/ref/$ck" "$T/w/$ck" && fail "the edit did not change the checkpoint"
resume w "running 1 (0 with no record, 1 whose record does not verify); lines not taken: 1 its result does not match its checksum" "a record's tokens edited"

fresh
sed -i '4c {"point":3,"study":"a"}' "$T/w/$ck"
resume w "1 not a record" "a bare {point, study}"

fresh # point 1's line, renumbered as point 2
sed -n '2s/^{"point":1,/{"point":2,/p' "$T/w/$ck" >"$T/l2"
sed -i "3r $T/l2" "$T/w/$ck" && sed -i '3d' "$T/w/$ck"
resume w "1 a record of other settings or another point" "another point's line"

fresh
sed -i '1s/"samplab":"[^"]*"/"samplab":"0.0.1"/' "$T/w/$ck"
resume w "1 written by another samplab" "a line of another samplab"

fresh # the format before proofs: the bare record
sed -n '5s/.*"record":"\(.*\)"}$/\1/p' "$T/w/$ck" | sed 's/\\"/"/g' >"$T/old"
sed -i "5r $T/old" "$T/w/$ck" && sed -i '5d' "$T/w/$ck"
resume w "1 not a record" "a record without its proof"

fresh
sed -i '3d' "$T/w/$ck"
resume w "running 1 (1 with no record, 0 whose record does not verify)" "a line deleted"

# an input changed: the 6 points that read it run again, on the new content
fresh
printf '0.1\n0.2\n0.3\n0.4\n' >"$T/p.txt"
"$BIN" sweep --spec "$T/spec.json" --out "$T/ref2" 2>"$T/err" || fail "run on the new input: $(cat "$T/err")"
"$BIN" sweep --spec "$T/spec.json" --out "$T/w" --resume 2>"$T/err" || fail "resume after the input changed: $(cat "$T/err")"
has "$T/err" "kept 2 of 8 points" "an input changed"
has "$T/err" "6 an input file changed since" "an input changed"
same "$T/ref2" "$T/w" "an input changed: its 6 points rerun, the set is the new input's"
printf '0.4\n0.3\n0.2\n0.1\n' >"$T/p.txt"

for kind in fifo folder; do
  fresh
  rm "$T/w/$ck"
  if [ $kind = fifo ]; then mkfifo "$T/w/$ck"; else mkdir "$T/w/$ck"; fi
  ls -lR "$T/w" >"$T/before"
  timeout 20 "$BIN" sweep --spec "$T/spec.json" --out "$T/w" --resume >"$T/out" 2>"$T/err"
  rc=$?
  [ $rc = 2 ] || fail "a $kind checkpoint: exit $rc (2 expected): $(cat "$T/err")"
  [ "$(wc -l <"$T/err")" = 1 ] || fail "a $kind checkpoint: not one line: $(cat "$T/err")"
  has "$T/err" "rank-0.jsonl: not a regular file" "a $kind checkpoint"
  ls -lR "$T/w" | cmp -s - "$T/before" || fail "a $kind checkpoint: the folder changed"
  ok "a $kind checkpoint: refused at once, exit 2, folder as it was"
done

# two runs on one folder: the second sweep and a report refuse at once, naming the
# lock and the pid holding it; the first finishes whole and removes its lock.
# The holder is REL (the release build, for speed), the refused ones BIN.
REL=${2:-$BIN}
cat >"$T/busy.json" <<EOF2
{"studies": [{"name": "busy", "job": "gof", "inputs": [{"probs": "3,2,2,1"}], "methods": ["cdf"],
   "seeds": {"first": 1, "count": 6}, "options": {"n": 100000000, "null_reps": 0}}]}
EOF2
"$REL" sweep --spec "$T/busy.json" --out "$T/busy" 2>"$T/busy.err" &
pid=$!
i=0
while [ ! -e "$T/.busy.lock" ]; do
  i=$((i + 1)); [ $i -gt 1000 ] && fail "no lock beside the folder"; sleep 0.01
done
for cmd in "sweep --spec $T/spec.json --out $T/busy" "report --out $T/busy --n 1000 --no-plot"; do
  "$BIN" $cmd >"$T/out" 2>"$T/err"
  rc=$?
  kill -0 $pid 2>/dev/null || fail "the first run ended before '$cmd' was tried: no concurrency tested"
  [ $rc = 2 ] || fail "a second ${cmd%% *} on a busy folder: exit $rc: $(cat "$T/err")"
  [ "$(wc -l <"$T/err")" = 1 ] || fail "a second ${cmd%% *}: not one line: $(cat "$T/err")"
  has "$T/err" "$T/.busy.lock is held by samplab process $pid" "a second ${cmd%% *}"
  ok "a second ${cmd%% *} on a busy folder: refused at once, naming the lock and pid $pid"
done
wait $pid || fail "the first run failed: $(cat "$T/busy.err")"
[ -e "$T/.busy.lock" ] && fail "the lock outlived its run"
[ -e "$T/.busy.checkpoint" ] && fail "the run's checkpoint was left beside its folder"
"$REL" sweep --spec "$T/busy.json" --out "$T/busy-ref" 2>"$T/err" || fail "reference run: $(cat "$T/err")"
same "$T/busy-ref" "$T/busy" "the first run finished whole, its lock removed"

# a run over an old set that is killed, or refused at its end, leaves the folder
# all old, the old results with their own checkpoint; --resume then finishes it
cp -r "$T/busy" "$T/old-set"
sed 's/"first": 1/"first": 2/' "$T/busy.json" >"$T/busy2.json"
"$REL" sweep --spec "$T/busy2.json" --out "$T/busy" 2>/dev/null &
pid=$!
i=0
while [ "$(cat "$T/.busy.checkpoint/rank-0.jsonl" 2>/dev/null | wc -l)" -lt 1 ]; do
  i=$((i + 1)); [ $i -gt 3000 ] && fail "no progress in $T/.busy.checkpoint"; sleep 0.01
done
kill -9 $pid; wait $pid 2>/dev/null
same "$T/old-set" "$T/busy" "a run killed over an old set: the folder all old, with its own checkpoint"
"$REL" sweep --spec "$T/busy2.json" --out "$T/busy" --resume 2>"$T/err" || fail "resume: $(cat "$T/err")"
has "$T/err" "kept 1 of 6 points" "resume after the kill"
"$REL" sweep --spec "$T/busy2.json" --out "$T/busy2-ref" 2>"$T/err" || fail "reference run: $(cat "$T/err")"
same "$T/busy2-ref" "$T/busy" "then --resume: the new set, whole"
[ -e "$T/.busy.checkpoint" ] && fail "the resumed run's checkpoint was left beside its folder"
ok "the resumed run removed its checkpoint from beside the folder"

# a file-size limit mid-run (ulimit -f): one line naming the file and the reason,
# exit 2, the folder all old with its own checkpoint; a report the same
"$REL" sweep --spec tests/sweep/small.json --out "$T/fz" 2>"$T/err" || fail "small run: $(cat "$T/err")"
cp -r "$T/fz" "$T/fz-old"
(ulimit -f 40; "$REL" sweep --spec tests/sweep/small.json --out "$T/fz") >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 2 ] || fail "a file-size limit: exit $rc: $(cat "$T/err")"
[ "$(wc -l <"$T/err")" = 1 ] || fail "a file-size limit: not one line: $(cat "$T/err")"
has "$T/err" ".fz.checkpoint/rank-0.jsonl: cannot append a record: File too large" "a file-size limit"
same "$T/fz-old" "$T/fz" "a sweep stopped by a file-size limit: one line, exit 2, the folder all old"
(ulimit -f 40; "$REL" report --out "$T/rep" --n 1000 --no-plot) >"$T/out" 2>"$T/err"
rc=$?
[ $rc = 2 ] && grep -q "File too large" "$T/err" || fail "a report under a file-size limit: exit $rc: $(cat "$T/err")"
ls -a "$T" | grep -q '^\.rep\.' && fail "a report under a file-size limit left $(ls -a "$T" | grep '^\.rep\.')"
ok "a report stopped by a file-size limit: exit 2, 'File too large', nothing left beside"

# a folder name with a newline and a byte that is not UTF-8 works, and messages stay one line
odd=$(printf '%s/odd\nname\377' "$T")
"$BIN" sweep --spec "$T/spec.json" --out "$odd" >"$T/out" 2>"$T/err" || fail "an odd folder name: $(cat "$T/err")"
same "$T/ref" "$odd" "a sweep into a folder named with a newline and byte 0xff"
"$BIN" report --out "$odd-r" --n 1000 --no-plot >"$T/out" 2>"$T/err" || fail "report, odd name: $(cat "$T/err")"
[ "$(wc -l <"$T/out")" = 1 ] && grep -qF 'odd\x0aname\xff-r/REPORT.md' "$T/out" || fail "report's line: $(cat "$T/out")"
ok "a report into the same kind of name: written, its one line escapes the name"
