#!/bin/sh
# strips_pvm.sh: row strips re-cut by load balancing on real PVM
# (runtime/strips/master.c, strips_worker.c) through bin/heat-pvm, on a
# private one-host PVM: the field bit for bit bin/heat's with every
# strategy, with rows moving (C_t = 0) and without re-cuts; the record's
# re-cuts keep every row, a row at least a strip; options refused by name;
# the run's time from the last worker holding its rows; faults: a worker
# killed, a worker stopped and never resumed, a worker stopped then resumed
# (its late messages refused), each run ending with bin/heat's field, and the
# master killed (its workers gone); scripts/plot heatsweep on a sweep of
# scripts/reproduce-yoon's form.
set -u
BIN=${BIN:-bin}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
. "$here/tests/lib.sh"
. "$here/tests/pvmlib.sh"
orphans=""                      # workers of a killed pvmd
trap 'for p in $orphans; do kill "$p" 2>/dev/null; done; pvm_down >/dev/null 2>&1; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
hp=$BIN/heat-pvm

run "--help: the plate's and the strips' options" 0 "every K" "$hp" --help
run "--every 0 named" 2 "every '0'" "$hp" --nx 8 --ny 8 --steps 1 --every 0
run "--checkpoint -1 named" 2 "checkpoint '-1'" "$hp" --nx 8 --ny 8 --steps 1 --checkpoint -1
run "--late 0.5 named" 2 "late '0.5'" "$hp" --nx 8 --ny 8 --steps 1 --late 0.5
run "--strategy named" 2 "strategy: .*'x'" "$hp" --nx 8 --ny 8 --steps 1 --strategy x
run "--r 0.3 named" 2 "r=0.3" "$hp" --nx 8 --ny 8 --steps 1 --r 0.3
run "--nx missing" 2 "nx, --ny and --steps are needed" "$hp" --ny 8 --steps 1
mkdir -p "$tmp/nopvm"
run "no pvmd: said, exit 1" 1 "pvmd\|PVM" env PVM_TMP="$tmp/nopvm" PVM_ALLOW_ROOT=yes \
    "$hp" --nx 8 --ny 8 --steps 1

# scripts/plot heatsweep: a sweep's CSV (the columns scripts/reproduce-yoon
# writes) to a figure; the title reaches gnuplot as data; another CSV refused.
cat >"$tmp/sweep.csv" <<'EOF'
scenario,nx,ny,steps,every,period_ms,strategy,run,time,recuts,moved,gain,busy_max,gain_computing,step_min_ms,step_max_ms,step_min_periods,step_max_periods,identical
dedicated,64,256,8,2,20,none,1,0.10,0,0,0.0000,0.05,0.0000,1.0,1.2,0.05,0.06,yes
dedicated,64,256,8,2,20,yoon,1,0.12,3,10,-0.1667,0.05,0.0000,1.0,1.3,0.05,0.07,yes
dedicated,256,1024,8,2,20,none,1,2.00,0,0,0.0000,1.90,0.0000,230,240,11.5,12.0,yes
dedicated,256,1024,8,2,20,yoon,1,2.10,3,40,-0.0476,1.90,0.0000,230,240,11.5,12.0,yes
loaded,64,256,8,2,20,none,1,0.40,0,0,0.0000,0.20,0.0000,1.0,4.0,0.05,0.20,yes
loaded,64,256,8,2,20,yoon,1,0.50,3,50,-0.2000,0.15,0.3333,1.0,3.0,0.05,0.15,yes
loaded,256,1024,8,2,20,none,1,8.00,0,0,0.0000,7.60,0.0000,230,900,11.5,45.0,yes
loaded,256,1024,8,2,20,yoon,1,6.00,3,900,0.3333,5.00,0.5200,300,500,15.0,25.0,yes
EOF
evil='a"; system("touch PWNED"); "'
(cd "$tmp" && PLOT_TRACE=$tmp/trace "$here/scripts/plot" heatsweep sweep.csv sweep.png "$evil" >"$tmp/plot.out" 2>&1)
check "plot heatsweep: a figure from a sweep ($(head -c 200 "$tmp/plot.out"))" $?
[ -s "$tmp/sweep.png" ] && [ ! -e "$tmp/PWNED" ] && grep -qxF "$evil" "$tmp/trace"
check "plot heatsweep: the PNG; the title given to gnuplot as data, never run" $?
run "plot heatsweep refuses another CSV" 1 "is not scripts/reproduce-yoon's heat-sweep.csv" \
    "$here/scripts/plot" heatsweep "$here/tests/golden/chunks-dtss-acp" "$tmp/x.png"
printf '%s\n' "$(head -n 1 "$tmp/sweep.csv")" "dedicated,64,256,8,2,20,yoon,1,0.12,3,10,-0.1667,0.05,0.0000,1.0,1.3,0.05,0.07,yes" \
    >"$tmp/half.csv"
run "plot heatsweep: runs with re-cuts only, refused by name" 1 "has no runs without re-cuts" \
    "$here/scripts/plot" heatsweep "$tmp/half.csv" "$tmp/x.png"

mkdir -p "$tmp/vm"
if ! pvm_up "$tmp/vm" "$BIN"; then
    bad "a private pvmd (pvmd.out: $(head -c 200 "$tmp/vm/pvmd.out" 2>/dev/null))"
    finish
    exit
fi
ref=$("$BIN/heat" --nx 128 --ny 300 --steps 120 --checksum | sed -n 's/^checksum //p')
[ -n "$ref" ]; check "bin/heat's checksum ($ref)" $?
run "more workers than rows: refused, bad input" 2 "5 workers for 4 rows" "$hp" --local 5 --nx 8 --ny 4 --steps 1
for s in none yoon clb dlb mclb; do
    "$hp" --local 4 --nx 128 --ny 300 --steps 120 --every 10 --ct 0 --strategy "$s" \
        --checksum --record "$tmp/$s.csv" -v >"$tmp/$s.out" 2>&1
    check "$s: a run on 4 workers (exit $?: $(head -c 200 "$tmp/$s.out"))" $?
    ck=$(sed -n 's/^checksum //p' "$tmp/$s.out")
    [ "$ck" = "$ref" ]; check "$s: the field bit for bit bin/heat's ($ck)" $?
    # Every re-cut: its rows and targets add to 300, each strip >= 1 row.
    why=$(awk -F, '$1 == "recut" { n = split($3, a, ";"); split($5, b, ";"); s = 0; t = 0
            for (i = 1; i <= n; i++) { s += a[i]; t += b[i]; if (a[i] < 1 || b[i] < 1) bad = "an empty strip at step " $2 }
            if (s != 300 || t != 300) bad = "rows " s ", targets " t " at step " $2 }
          END { if (bad) { print bad; exit 1 } }' "$tmp/$s.csv")
    check "$s: every re-cut keeps the 300 rows, a row at least a strip ($why)" $?
done
n=$(grep -c '^recut,' "$tmp/none.csv")
[ "$n" = 0 ]; check "none: no re-cut ($n)" $?
n=$(grep -c '^recut,' "$tmp/yoon.csv")
[ "$n" = 11 ]; check "yoon: a re-cut every 10 steps but after the last (11: $n)" $?
moved=$(awk -F, '$1 == "run" { print $11 }' "$tmp/yoon.csv")
[ "${moved:-0}" -gt 0 ]; check "yoon with C_t = 0: rows moved ($moved)" $?
# The late rule's allowance for a re-cut's row moves (master.c): on the log,
# the most seconds a worker's moves are expected to take at its rows'
# dealing's rate, above 0 after every re-cut that moves rows, 0 after one
# that moves none.
why=$(awk '/^heat-pvm: after step [0-9]*: predicted rest / {
        n++; r = $0; sub(/.* s, /, "", r); rows = r + 0
        x = $0; sub(/.*at most /, "", x); secs = x + 0
        if (x == $0 || (rows > 0) != (secs > 0)) { print "this line: " $0; exit 1 } }
      END { if (n != 11) { print n " re-cut lines, 11 expected"; exit 1 } }' "$tmp/yoon.out")
check "yoon: each re-cut's row moves given seconds at the dealing's rate, 0 only when none move ($why)" $?
grep -q "^yoon: 4 workers, 300 rows, 120 steps, time [0-9.]* s, 11 re-cuts, [0-9]* rows moved; rows at the end: [0-9]* [0-9]* [0-9]* [0-9]*$" "$tmp/yoon.out"
check "the summary line" $?
# The run's time: from the last worker holding its rows (the start every
# worker waits for) to the last one's end, the record's begin and end
# columns (times from the first worker's start).
for s in none yoon; do
    why=$(awk -F, '$1 == "run" { t = $9 } $1 == "worker" { if ($7 > b) b = $7; if ($8 > e) e = $8; if ($6 <= 0) z = 1 }
        END { d = e - b - t; if (d < 0) d = -d; if (d > 2e-6 || z || t <= 0) { printf "time %s, last begin %s, last end %s%s", t, b, e, z ? ", a worker busy 0 s" : ""; exit 1 } }' "$tmp/$s.csv")
    check "$s: time = the last end - the last begin, every worker computed ($why)" $?
done
"$hp" --local 3 --nx 64 --ny 9 --steps 7 --every 2 --ct 0 --checksum >"$tmp/small.out" 2>&1
ck=$(sed -n 's/^checksum //p' "$tmp/small.out")
[ "$ck" = "$("$BIN/heat" --nx 64 --ny 9 --steps 7 --checksum | sed -n 's/^checksum //p')" ]
check "3 workers, 3 rows each, re-cut every 2 steps: bin/heat's field ($(head -c 200 "$tmp/small.out"))" $?

# Faults. bin/heat's field for the plate of the fault runs; a run in the
# background (faultrun NAME STEPS STRATEGY [OPTIONS]: its pid in $pid, output
# in $tmp/NAME.out, record $tmp/NAME.csv, its workers' PIDs in $workers once
# all $nw run: 3 unless set); waitlog NAME TEXT: waits (at most 60 s) for TEXT on its log.
# `timeout` only guards against a hang (124: the run hung).
fref() { "$BIN/heat" --nx 512 --ny 600 --steps "$1" --checksum | sed -n 's/^checksum //p'; }
faultrun() {
    name=$1 steps=$2 strat=$3
    shift 3
    timeout 120 "$hp" --local "${nw:-3}" --nx 512 --ny 600 --steps "$steps" --every 50 --strategy "$strat" \
        --checksum -v --record "$tmp/$name.csv" "$@" >"$tmp/$name.out" 2>&1 &
    pid=$!
    workers=""
    for _ in $(seq 100); do
        # (started after the run: a worker of the run before may be exiting;
        # in the order they started, which is the workers' order)
        workers=$(pvm_tasks_since "$pid" heat-pvm | tr '\n' ' ')
        [ "$(echo $workers | wc -w)" = "${nw:-3}" ] && break
        sleep 0.1
    done
}
waitlog() {
    for _ in $(seq 600); do
        grep -q "$2" "$tmp/$1.out" 2>/dev/null && return 0
        kill -0 "$pid" 2>/dev/null || return 1
        sleep 0.1
    done
    return 1
}
# ended NAME REF: waits for the run; rc its exit, ck its checksum; true when
# it ended with exit 0 and the checksum REF.
ended() {
    wait "$pid"
    rc=$?
    ck=$(sed -n 's/^checksum //p' "$tmp/$1.out")
    [ "$rc" = 0 ] && [ "$ck" = "$2" ]
}
ref6=$(fref 6000)

# A worker killed mid-run (after its report of step 100): its rows come back
# from the last checkpoint, re-cut among the other two; the run goes on. With
# yoon (re-cuts at every report) and none (no re-cut: a barrier only where a
# report carries the checkpoint; --checkpoint 2: every other report).
for s in yoon none; do
    opts=""
    [ $s = none ] && opts="--checkpoint 2"
    faultrun kill 6000 $s $opts
    if [ $s = yoon ]; then waitlog kill "after step 100:"; else sleep 1; fi
    victim=$(echo $workers | cut -d' ' -f2)
    kill -9 "$victim"
    ended kill "$ref6"
    check "$s: a worker killed: exit 0, bin/heat's field (exit $rc, $ck; $(grep -v '^after' "$tmp/kill.out" | head -c 300))" $?
    grep -q "^heat-pvm: worker 2 on .* exited (the workers had reported step [0-9]*): the rows of step [0-9]* restored on the 2 left, re-cut: [0-9]* [0-9]*$" "$tmp/kill.out" &&
        grep -q "^restore,1,[0-9]*,2,exited,[0-9]*,[0-9]*;0;[0-9]*$" "$tmp/kill.csv" 2>/dev/null &&
        grep -q "^worker,2,.*,exited$" "$tmp/kill.csv"
    check "$s: a worker killed: the log and the record name the restore ($(grep '^restore' "$tmp/kill.csv" 2>/dev/null))" $?
    sleep 0.5
    left=$(pvm_tasks heat-pvm | tr '\n' ' ')
    [ -z "$left" ]; check "$s: a worker killed: no worker left after the run ($left)" $?
done

# A worker stopped and never resumed: taken for hung by the late rule (a
# small one, 2,1: its report overdue, silent 1 s), its rows restored without
# it; the run ends without it, and it is killed (once resumed, it is gone).
faultrun stop 6000 yoon --late 2,1
waitlog stop "after step 100:"
victim=$(echo $workers | cut -d' ' -f2)
kill -STOP "$victim"
ended stop "$ref6"
check "a worker stopped for good: the run ends, exit 0, bin/heat's field (exit $rc, 124: hung; $ck; $(grep -v '^after' "$tmp/stop.out" | head -c 300) ... $(grep -v '^after' "$tmp/stop.out" | tail -n 4 | tail -c 400))" $?
# (A neighbour blocked in a transfer of rows to it is silent too and may be
# taken for hung first, docs/runtime.md "A hung worker": the run still ends,
# the stopped one taken for hung in turn, one restore more.)
grep -q "^heat-pvm: worker 2 on .*: \(its report after\|holding its rows of\) step [0-9]* overdue, silent" "$tmp/stop.out" &&
    grep -q "^heat-pvm: worker 2 on .* taken for hung (the workers had reported step [0-9]*): the rows of step [0-9]* restored on the [12] left" "$tmp/stop.out" &&
    grep -q "^restore,[12],[0-9]*,2,hung," "$tmp/stop.csv" &&
    [ "$(grep -c '^restore,' "$tmp/stop.csv")" -le 2 ]
check "a worker stopped for good: taken for hung, named on the log and the record, at most one neighbour before it ($(grep '^heat-pvm: worker' "$tmp/stop.out" | head -n 4 | tr '\n' ' '); $(grep '^restore,' "$tmp/stop.csv" 2>/dev/null | tr '\n' ' '))" $?
kill -CONT "$victim" 2>/dev/null
pvm_gone "$victim"; check "a worker stopped for good: killed at the end (gone once resumed)" $?

# Two neighbours stopped for good (4 workers, strips of 150 rows of 4 KB):
# the one taken for hung first is lost, and the restore gives the other one
# more rows (600 to 900 KB) that it will never read. Pushed with the START,
# they filled its socket and blocked the master for good; a worker now asks
# for its rows (FETCH), so the second stopped one, silent, is taken for hung
# in turn, and the run ends on the two left. (A neighbour blocked in a
# transfer of rows to a stopped one is silent too and may be taken for hung
# as well: seen in 1 of 3 runs, worker 1 first; the checks name 2 and 3.)
nw=4
faultrun stop2 6000 yoon --late 2,1
nw=3
waitlog stop2 "after step 100:"
v2=$(echo $workers | cut -d' ' -f2)
v3=$(echo $workers | cut -d' ' -f3)
kill -STOP "$v2" "$v3"
ended stop2 "$ref6"
check "two neighbours stopped for good: the run ends, exit 0, bin/heat's field (exit $rc, 124: hung; $ck; $(grep -v '^after' "$tmp/stop2.out" | tail -n 6 | tail -c 600))" $?
grep -q "^heat-pvm: worker 2 on .* taken for hung (the workers had reported step [0-9]*): the rows of step [0-9]* restored on the [1-3] left" "$tmp/stop2.out" &&
    grep -q "^heat-pvm: worker 3 on .* taken for hung (the workers had reported step [0-9]*): the rows of step [0-9]* restored on the [1-3] left" "$tmp/stop2.out" &&
    [ "$(grep -c '^restore,[0-9]*,[0-9]*,2,hung,' "$tmp/stop2.csv")" = 1 ] &&
    [ "$(grep -c '^restore,[0-9]*,[0-9]*,3,hung,' "$tmp/stop2.csv")" = 1 ] &&
    [ "$(grep -c '^restore,' "$tmp/stop2.csv")" -le 3 ]
check "two neighbours stopped for good: both taken for hung, a restore each, at most one neighbour as well ($(grep '^restore,' "$tmp/stop2.csv" 2>/dev/null | tr '\n' ' '))" $?
kill -CONT "$v2" "$v3" 2>/dev/null
pvm_gone "$v2" "$v3"
check "two neighbours stopped for good: both killed at the end" $?

# A worker stopped, then resumed once the master has restored its rows on
# the other two: its late messages refused, nothing counted twice. (Under a
# loaded machine the small rule may take another worker for hung as well: the
# run waits for worker 2's line, and the checks name worker 2.)
ref8=$(fref 8000)
faultrun cont 8000 yoon --late 2,1
waitlog cont "after step 100:"
victim=$(echo $workers | cut -d' ' -f2)
kill -STOP "$victim"
waitlog cont "^heat-pvm: worker 2 on .* taken for hung"
kill -CONT "$victim"
ended cont "$ref8"
check "a worker stopped then resumed: exit 0, bin/heat's field (exit $rc, $ck; $(grep -v '^after' "$tmp/cont.out" | head -c 300))" $?
refused=$(awk -F, '$1 == "run" { print $15 }' "$tmp/cont.csv" 2>/dev/null)
grep -q "^heat-pvm: worker 2's [A-Z]*\( of step [0-9]* (epoch [0-9]*)\)\? refused: it was taken for hung" "$tmp/cont.out" &&
    [ "${refused:-0}" -gt 0 ]
check "a worker stopped then resumed: its late messages refused, on the log and the record ($refused; $(grep refused "$tmp/cont.out" | head -n 3 | tr "\n" " "))" $?
pvm_gone "$victim"; check "a worker stopped then resumed: killed at the end" $?

# The journal (runtime/strips/journal.c): the whole field at a barrier, for
# --resume. A run of 3000 steps (60 barriers of 600 rows x 4096 bytes) keeps
# its last barriers in a file begun anew past 32 MiB; resumed, with another
# strategy, cadence or crew, it ends with bin/heat's field. jrun NAME ARGS:
# heat-pvm on the 512 x 600 plate, output in $tmp/NAME.out; ck NAME: its
# checksum.
jrun() {
    name=$1
    shift
    timeout 120 "$hp" --nx 512 --ny 600 --checksum -v "$@" >"$tmp/$name.out" 2>&1
}
ck() { sed -n 's/^checksum //p' "$tmp/$1.out"; }
ref3=$(fref 3000)
E=$((25 + 600 * 4096))                 # an entry: 'F', step, bytes, the field, sum
cd "$tmp" || exit 1
jrun j1 --local 3 --steps 3000 --every 50 --journal j1.jnl --journal-every 0 --record j1.csv
rc=$?
[ -n "$ref3" ] && [ "$rc" = 0 ] && [ "$(ck j1)" = "$ref3" ]
check "--journal: exit 0, bin/heat's field (exit $rc, $(ck j1))" $?
size=$(wc -c <j1.jnl)
H=$((size % E)) n=$((size / E))
grep -q "journal j1.jnl: 60 barriers written by this run, the last of step 3000; $size bytes, $n barriers (begun anew [1-9][0-9]* times)" j1.out &&
    [ "$size" -le $((32 * 1048576 + E)) ] && [ "$n" -ge 2 ] && [ "$H" = 104 ]
check "--journal --journal-every 0: 60 barriers written; the file holds the last $n ($size bytes, header $H), at most 32 MiB + a barrier ($(grep '^heat-pvm: journal' j1.out | tail -n 1))" $?
[ "$(awk -F, '$1 == "run" { print $16 }' j1.csv)" = -1 ] && ! grep -q resumed j1.out
check "--journal: not resumed (record: resumed -1)" $?
cp j1.jnl keep.jnl
# By default a barrier a second at most (and the last step's).
jrun j0 --local 3 --steps 3000 --every 50 --journal j0.jnl
rc=$?
w=$(sed -n 's/^heat-pvm: journal j0.jnl: \([0-9]*\) barriers written by this run, the last of step 3000;.*/\1/p' j0.out)
[ "$rc" = 0 ] && [ "$(ck j0)" = "$ref3" ] && [ -n "$w" ] && [ "$w" -ge 1 ] && [ "$w" -lt 60 ]
check "--journal (a barrier a second at most): bin/heat's field, $w of 60 barriers journaled, the last step's among them (exit $rc)" $?
run "--journal-every -1 named" 2 "journal-every '-1'" "$hp" --nx 8 --ny 8 --steps 1 --journal-every -1

jrun j2 --local 2 --steps 3000 --resume j1.jnl --record j2.csv
rc=$?
[ "$rc" = 0 ] && [ "$(ck j2)" = "$ref3" ] &&
    grep -q "^heat-pvm: resuming j1.jnl: from step 3000 of 3000, its last barrier (of $n whole)$" j2.out &&
    grep -q "nothing to compute" j2.out && grep -q "; resumed from step 3000$" j2.out &&
    [ "$(awk -F, '$1 == "run" { print $16 }' j2.csv)" = 3000 ]
check "--resume of a complete run: nothing computed, bin/heat's field, resumed from step 3000 (summary, record) (exit $rc; $(head -c 300 j2.out))" $?

# Not this run's journal: refused before anything runs (2), naming the field;
# the journal left as it was.
run "--resume, another --ny: refused, named" 2 "resume j1.jnl: the journal's run has 600 rows, this one 601" \
    "$hp" --local 2 --nx 512 --ny 601 --steps 3000 --resume j1.jnl
run "--resume, another --nx: refused, named" 2 "the journal's run has rows of 4096 bytes, this one's 2048" \
    "$hp" --local 2 --nx 256 --ny 600 --steps 3000 --resume j1.jnl
run "--resume, another --steps: refused, named" 2 "the journal's run has 3000 steps, this one 2000" \
    "$hp" --local 2 --nx 512 --ny 600 --steps 2000 --resume j1.jnl
run "--resume, another --r: refused (another job, its byte named)" 2 \
    "the journal's run has another job (its 48 bytes differ from byte [0-9]* on)" \
    "$hp" --local 2 --nx 512 --ny 600 --steps 3000 --r 0.1 --resume j1.jnl
cmp -s j1.jnl keep.jnl; check "a refused journal is left as it was" $?
echo "run,x" >text.jnl
run "--resume of a file that is not a journal: refused (2)" 2 "resume text.jnl: not a journal of this kind" \
    "$hp" --local 2 --nx 512 --ny 600 --steps 3000 --resume text.jnl
run "--resume of a file that is not there: refused (2)" 2 "resume none.jnl: No such file" \
    "$hp" --local 2 --nx 512 --ny 600 --steps 3000 --resume none.jnl
run "--journal with --checkpoint 0: refused (2), named" 2 "journal c0.jnl: with --checkpoint 0 the master holds no barrier" \
    "$hp" --local 2 --nx 8 --ny 8 --steps 10 --checkpoint 0 --journal c0.jnl
run "--journal in a folder that is not there: refused (2)" 2 "journal no/such.jnl: cannot create it" \
    "$hp" --local 2 --nx 8 --ny 8 --steps 10 --journal no/such.jnl

# A torn tail (a crash mid-write: 7 bytes cut): the barrier before it resumed.
head -c $((size - 7)) keep.jnl >t.jnl
jrun t --local 3 --steps 3000 --every 30 --strategy none --resume t.jnl
rc=$?
[ "$rc" = 0 ] && [ "$(ck t)" = "$ref3" ] &&
    grep -q "^heat-pvm: resuming t.jnl: from step 2950 of 3000, its last barrier (of $((n - 1)) whole); the last $((E - 7)) bytes (from byte [0-9]* on) ignored and cut: an entry cut short or damaged, and any after it$" t.out &&
    grep -q "; resumed from step 2950$" t.out
check "a torn tail: cut, resumed from the barrier before (2950), with another cadence and strategy: bin/heat's field (exit $rc; $(grep resum t.out | head -c 300))" $?

# A damaged entry (a byte of entry 2's field flipped: its checksum fails):
# the journal ends there, entry 1 resumed; the entries after it cut off.
cp keep.jnl d.jnl
at=$((H + E + 1000))
old=$(od -An -tu1 -j "$at" -N 1 d.jnl | tr -d ' ')
printf "\\$(printf %03o $(((old + 1) % 256)))" | dd of=d.jnl bs=1 seek="$at" conv=notrunc 2>/dev/null
s1=$((3000 - (n - 1) * 50))
jrun d --local 2 --steps 3000 --resume d.jnl
rc=$?
[ "$rc" = 0 ] && [ "$(ck d)" = "$ref3" ] &&
    grep -q "^heat-pvm: resuming d.jnl: from step $s1 of 3000, its last barrier (of 1 whole); the last $(((n - 1) * E)) bytes (from byte [0-9]* on) ignored and cut: an entry cut short or damaged, and any after it$" d.out
check "a damaged entry: the journal ends before it, resumed from step $s1: bin/heat's field (exit $rc; $(grep resum d.out | head -c 300))" $?

# Whole entries with right checksums that are not this run's: refused (2),
# naming the entry and its byte. A small plate (64 x 40: entries of 20505
# bytes); a 100-step run's header before a 200-step run's entries (its
# steps 110.. are past 100); an entry twice.
"$hp" --local 2 --nx 64 --ny 40 --steps 200 --every 10 --journal c200.jnl --journal-every 0 >/dev/null 2>&1 &&
    "$hp" --local 2 --nx 64 --ny 40 --steps 100 --every 10 --journal c100.jnl --journal-every 0 >/dev/null 2>&1
check "two small journaled runs" $?
e=$((25 + 40 * 512))
{ head -c "$H" c100.jnl; tail -c +$((H + 1)) c200.jnl; } >past.jnl
run "an entry of step 110 in a 100-step run's journal: refused (2), named" 2 \
    "resume past.jnl: entry 11 (at byte $((H + 10 * e))): its step 110 is outside the run's 1 .. 100: a damaged journal, or another run's" \
    "$hp" --local 2 --nx 64 --ny 40 --steps 100 --resume past.jnl
{ head -c $((H + 2 * e)) c100.jnl; tail -c +$((H + e + 1)) c100.jnl | head -c "$e"; } >twice.jnl
run "an entry twice: refused (2), named" 2 \
    "resume twice.jnl: entry 3 (at byte $((H + 2 * e))): its step 20 is not after entry 2's 20" \
    "$hp" --local 2 --nx 64 --ny 40 --steps 100 --resume twice.jnl

# The journal cannot be written (/dev/full): said, the run goes on without it.
jrun full --local 2 --steps 300 --journal /dev/full
rc=$?
[ "$rc" = 0 ] && [ "$(ck full)" = "$(fref 300)" ] &&
    grep -q "^heat-pvm: journal /dev/full: cannot write (No space left on device): the run goes on without it (closed)$" full.out &&
    [ -c /dev/full ]
check "--journal /dev/full: said, the run goes on, bin/heat's field; /dev/full left a device (exit $rc; $(head -c 300 full.out))" $?
cd "$here" || exit 1

# The master killed: its workers (computing without barriers: none) see it
# gone and leave.
faultrun master 100000 none
sleep 1
master=$(ps -o pid= --ppid "$pid")      # heat-pvm, under timeout
kill -9 $master
pvm_gone $workers; check "the master killed: its workers gone within 5 s (after $pvm_waited_ms ms; left:$pvm_left)" $?
wait "$pid" 2>/dev/null

# The pvmd killed (-9) mid-run, journaled: the master fails (1) and says
# from where --resume goes on; a new pvmd, --resume, its pvmd killed in
# turn; a new one, --resume again: bin/heat's field, resumed from a later
# barrier each time (a barrier a second, the default). crash NAME AFTER ARGS: heat-pvm with ARGS in the
# background; once its log says "after step AFTER:", kill -9 the pvmd.
steps=10000
refk=$(fref $steps)
crash() {
    name=$1 after=$2
    shift 2
    jrun "$name" --local 3 --steps $steps --every 50 "$@" &
    pid=$!
    waitlog "$name" "after step $after:"
    orphans=$(pvm_tasks heat-pvm)
    kill -9 "$pvmd_pid"
    wait "$pid"
    rc=$?
    [ "$rc" = 1 ]; check "$name: the pvmd killed after step $after: exit 1 ($rc)" $?
    grep -q "^heat-pvm: the journal k.jnl holds the field of step [1-9][0-9]*: --resume k.jnl (the same job and steps) goes on from there$" "$tmp/$name.out"
    check "$name: it says from where --resume goes on ($(grep 'holds the field' "$tmp/$name.out"))" $?
    pvm_gone $orphans; check "$name: the killed pvmd's workers exit" $?
    pvm_reborn "$tmp/vm" "$BIN"; check "$name: a new pvmd" $?
}
cd "$tmp" || exit 1
crash k1 4000 --journal k.jnl
at1=$(sed -n 's/^heat-pvm: the journal k.jnl holds the field of step \([0-9]*\):.*/\1/p' k1.out)
crash k2 8000 --resume k.jnl
grep -q "^heat-pvm: resuming k.jnl: from step $at1 of $steps" k2.out
check "k2: resumed from the step k1 said ($at1)" $?
at2=$(sed -n 's/^heat-pvm: the journal k.jnl holds the field of step \([0-9]*\):.*/\1/p' k2.out)
jrun k3 --local 3 --steps $steps --every 50 --resume k.jnl --record k3.csv
rc=$?
[ -n "$refk" ] && [ "$rc" = 0 ] && [ "$(ck k3)" = "$refk" ]
check "resumed twice: exit 0, bin/heat's field (exit $rc, $(ck k3); $refk)" $?
[ -n "$at2" ] && [ "$at2" -gt "$at1" ] &&
    grep -q "^heat-pvm: resuming k.jnl: from step $at2 of $steps" k3.out &&
    grep -q "; resumed from step $at2$" k3.out &&
    [ "$(awk -F, '$1 == "run" { print $16 }' k3.csv)" = "$at2" ]
check "resumed twice: from the step k2 said ($at2 > $at1), said on the log, the summary and the record" $?
echo "strips journal: pvmd killed at step >= 4000, journaled $at1; killed again at >= 8000, journaled $at2; resumed: $(ck k3)"
cd "$here" || exit 1
pvm_down
finish
