#!/bin/sh
# lb_pvm.sh: load balancing by migration on real PVM (runtime/lb/master.c,
# lb_worker.c) through bin/yoon-tasks, on a private one-host PVM: every
# task's result comes once, wherever it ran; the equal first shares; rounds
# that move tasks (the record's round lines against its task lines); none
# asks nothing; a worker killed, stopped for good, or stopped then resumed:
# the run ends right; the master killed: its workers end; options refused by
# name. The journal: the pvmd killed -9 mid-run, then --resume, killed again,
# resumed again: the fresh run's checksum; another run's journal refused
# naming the field; a torn tail, a damaged entry: exact; a crafted entry not
# of the run refused; a journal that cannot be written: the run goes on.
set -u
BIN=${BIN:-bin}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
. "$here/tests/lib.sh"
. "$here/tests/pvmlib.sh"
orphans=""
trap 'for w in $orphans; do kill -9 "$w" 2>/dev/null; done; pvm_down >/dev/null 2>&1; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
yt=$BIN/yoon-tasks

run "--help lists the strategies" 0 "strategy NAME .*yoon none clb dlb mclb" "$yt" --help
run "unknown strategy named" 2 "strategy: .*'bogus'" "$yt" --strategy bogus
run "--period 0 named" 2 "period '0'" "$yt" --period 0
run "--ct -1 named" 2 "ct '-1'" "$yt" --ct -1
run "--late 0.5 named" 2 "late '0.5'" "$yt" --late 0.5
run "--tasks 0 named" 2 "tasks .*'0'" "$yt" --tasks 0
run "--mean x named" 2 "mean .*'x'" "$yt" --mean x
run "stray argument" 2 "unexpected argument" "$yt" w1
mkdir -p "$tmp/nopvm"
run "no pvmd: said, exit 1" 1 "pvmd\|PVM" env PVM_TMP="$tmp/nopvm" PVM_ALLOW_ROOT=yes "$yt" --tasks 4

# record_ok FILE N P: the record's task lines are N, each task once, every
# task ran on a worker 1..P; the workers' tasks_ran add up to N; the dealt
# shares are N/P (+1).
record_ok() {
    awk -F, -v n="$2" -v p="$3" '
        $1 == "task" { t++; if (seen[$2]++) bad = "task " $2 " twice"; if ($4 < 1 || $4 > p) bad = "task " $2 " ran on " $4 }
        $1 == "worker" { ran += $5; d = $4; if (d < int(n / p) || d > int(n / p) + 1) bad = "worker " $2 " dealt " d }
        END { if (t != n) bad = t " task lines"; if (ran != n) bad = "tasks_ran add to " ran; if (bad) { print bad; exit 1 } }' "$1"
}

mkdir -p "$tmp/vm"
if ! pvm_up "$tmp/vm" "$BIN"; then
    bad "a private pvmd (pvmd.out: $(head -c 200 "$tmp/vm/pvmd.out" 2>/dev/null))"
    finish
    exit
fi
for s in yoon clb dlb mclb none; do
    "$yt" --local 4 --tasks 60 --mean 0.01 --bytes 1000 --period 0.1 --strategy "$s" \
        -o "$tmp/$s.csv" >"$tmp/$s.out" 2>&1
    check "$s: a run of 60 tasks on 4 workers (exit $?: $(head -c 200 "$tmp/$s.out"))" $?
    why=$(record_ok "$tmp/$s.csv" 60 4)
    check "$s: every task once, on a worker; 15 dealt each; ran adds to 60 ($why)" $?
done
# Rounds: asked every 0.1 s; moved = the sum of the moves' counts; the
# tasks that ran away from home are at most those moved (a task can move
# twice) and some did when tasks moved.
awk -F, '$1 == "round" { r++; n = split($11, m, ";"); s = 0; for (i = 1; i <= n; i++) if (m[i] != "") { split(m[i], a, ":"); s += a[2] }; if (s != $10) bad = 1; moved += $10 }
         $1 == "task" && $3 != $4 { away++ }
         END { print r, moved, away + 0; exit !(r >= 2 && !bad && moved > 0 && away > 0 && away <= moved) }' "$tmp/yoon.csv" >"$tmp/rounds"
check "yoon: rounds that move tasks, each line's moves adding to its count, tasks run away from home (rounds, moved, away: $(cat "$tmp/rounds"))" $?
n=$(grep -c '^round,' "$tmp/none.csv"); away=$(awk -F, '$1 == "task" && $3 != $4' "$tmp/none.csv" | wc -l)
[ "$n" = 0 ] && [ "$away" = 0 ]; check "none: no round, every task on its home worker ($n rounds, $away away)" $?
grep -q "^yoon: 4 workers, 60 tasks, time [0-9.]* s, imbalance [0-9.]* s, [0-9]* balancings, [0-9]* tasks moved" "$tmp/yoon.out"
check "the summary line" $?

# Faults (runtime/lb/master.c "Faults"). first_worker: the PID of a worker
# our pvmd spawned for the master just started ($pid), in $victim. Only the
# ones started after the master: a worker of the run before may still be
# exiting (slow under the sanitizers), and killing it tests nothing.
this_run() { pvm_tasks_since "$pid" yoon-tasks; }
first_worker() {
    victim=""
    for _ in $(seq 50); do
        victim=$(this_run | head -n 1)
        [ -n "$victim" ] && break
        sleep 0.1
    done
}
# waitline FILE PATTERN SECONDS: until FILE has a line matching PATTERN.
waitline() {
    n=$(($3 * 10))
    while [ "$n" -gt 0 ] && ! grep -q -- "$2" "$1" 2>/dev/null; do sleep 0.1; n=$((n - 1)); done
    grep -q -- "$2" "$1" 2>/dev/null
}

# A worker killed mid-run: its tasks are dealt again, the run ends right.
"$yt" --local 3 --tasks 60 --mean 0.05 --period 0.2 -o "$tmp/kill.csv" >"$tmp/kill.out" 2>&1 &
pid=$!
first_worker
sleep 0.5
[ -n "$victim" ] && kill -9 "$victim"
wait_for "$pid" 60
why=$(record_ok "$tmp/kill.csv" 60 3)
[ "$rc" = 0 ] && [ -z "$why" ] && grep -q "exited: its [0-9]* tasks\? not done dealt again" "$tmp/kill.out" &&
    grep -q '^lost,[0-9],[0-9.]*,exited,[0-9]*$' "$tmp/kill.csv" &&
    grep -q '1 worker lost, [0-9]* tasks dealt again' "$tmp/kill.out"
check "a worker killed: its tasks dealt again, every task once, exit 0 (exit $rc; $why: $(head -c 300 "$tmp/kill.out"))" $?

# A worker stopped and never resumed: taken for hung by the late rule
# (--late 2,1: past max(2 x a task's time, 1 s) silent), its tasks dealt
# again; the run ends without waiting for it, and it is killed.
"$yt" --local 3 --tasks 60 --mean 0.05 --period 0.2 --late 2,1 -o "$tmp/stop.csv" \
    >"$tmp/stop.out" 2>&1 &
pid=$!
first_worker
sleep 0.5
[ -n "$victim" ] && kill -STOP "$victim"
wait_for "$pid" 60
why=$(record_ok "$tmp/stop.csv" 60 3)
gone=no
for _ in $(seq 30); do kill -0 "$victim" 2>/dev/null || { gone=yes; break; }; sleep 0.1; done
[ "$rc" = 0 ] && [ -z "$why" ] && grep -q "silent past the late limit" "$tmp/stop.out" &&
    grep -q '^lost,[0-9],[0-9.]*,silent past the late limit (hung?),[0-9]*$' "$tmp/stop.csv" &&
    [ "$gone" = yes ]
check "a worker stopped for good: taken for hung, every task once, exit 0, the stopped worker ended (exit $rc; $why; ended: $gone: $(head -c 300 "$tmp/stop.out"))" $?
[ "$gone" = no ] && kill -9 "$victim" 2>/dev/null

# Stopped, then resumed once taken for hung: it was ended then (a worker
# sending it tasks would wait for it), so it sends nothing; every task once.
"$yt" --local 3 --tasks 120 --mean 0.05 --period 0.2 --late 2,1 -o "$tmp/cont.csv" \
    >"$tmp/cont.out" 2>&1 &
pid=$!
first_worker
sleep 0.5
[ -n "$victim" ] && kill -STOP "$victim"
waitline "$tmp/cont.out" "dealt again" 30
[ -n "$victim" ] && kill -CONT "$victim" 2>/dev/null
wait_for "$pid" 60
why=$(record_ok "$tmp/cont.csv" 120 3)
n=$(grep -c '^lost,' "$tmp/cont.csv")
[ "$rc" = 0 ] && [ -z "$why" ] && [ "$n" = 1 ] && ! kill -0 "$victim" 2>/dev/null
check "a worker stopped, then resumed: ended when taken for hung, every task once, exit 0, one worker lost (exit $rc; $why; $n lost: $(grep -v '^t=' "$tmp/cont.out" | head -c 400))" $?
# The master killed: its workers end within 2 s.
"$yt" --local 3 --tasks 200 --mean 0.05 --period 0.2 >"$tmp/mk.out" 2>&1 &
pid=$!
first_worker
workers=$(this_run)
sleep 0.3
kill -9 "$pid"
wait "$pid" 2>/dev/null
left=""
for _ in $(seq 20); do
    left=""
    for w in $workers; do kill -0 "$w" 2>/dev/null && left="$left $w"; done
    [ -z "$left" ] && break
    sleep 0.1
done
[ -n "$workers" ] && [ -z "$left" ]
check "the master killed: its workers ended within 2 s (workers: $workers; left: $left)" $?
for w in $left; do kill -9 "$w" 2>/dev/null; done

# ---- the journal and --resume (runtime/lb/journal.c) ------------------------------------
# yoon-tasks sets no job: a header is 48 bytes ("DTSS-LBJ", version, N, the
# tasks' sum, job length 0, its sum), an entry 41 ('T', task, length 16, a
# result of 16 bytes, its sum).
J="--local 3 --tasks 40 --mean 0.01 --bytes 1000 --period 0.1"
sumof() { sed -n 's/^results: FNV-1a \([0-9a-f]*\) .*/\1/p' "$1"; }
# shellcheck disable=SC2086 (J: options, no spaces in them)
"$yt" $J --journal "$tmp/j40" >"$tmp/j40.out" 2>&1
rc=$?
ref=$(sumof "$tmp/j40.out")
size=$(wc -c <"$tmp/j40")
[ "$rc" = 0 ] && [ -n "$ref" ] && [ "$size" = $((48 + 40 * 41)) ]
check "--journal: a run of 40 tasks journals a header and 40 results ($size bytes), exit $rc, checksum $ref" $?
cp "$tmp/j40" "$tmp/j40.keep"
# shellcheck disable=SC2086
"$yt" $J --resume "$tmp/j40" -o "$tmp/r40.csv" >"$tmp/r40.out" 2>&1
rc=$?
ran=$(awk -F, '$1 == "worker" { n += $5 } END { print n + 0 }' "$tmp/r40.csv")
[ "$rc" = 0 ] && [ "$(sumof "$tmp/r40.out")" = "$ref" ] && [ "$ran" = 0 ] &&
    grep -q "resuming .*j40: 40 of 40 results journaled" "$tmp/r40.out" &&
    grep -q "; 40 results from the journal$" "$tmp/r40.out" &&
    grep -q '^run,yoon,3,40,.*,40$' "$tmp/r40.csv"
check "a complete journal resumed: nothing run ($ran), the same checksum, 40 from the journal in the summary and the record (exit $rc: $(head -c 300 "$tmp/r40.out"))" $?
cmp -s "$tmp/j40" "$tmp/j40.keep"; check "a complete journal resumed: the file unchanged" $?
# another run's journal: refused before anything runs, naming the field, exit 2
cp "$tmp/j40.keep" "$tmp/j"
run "another run's journal (41 tasks): refused, named" 2 "resume .*: the journal's run has 40 tasks, this one 41" \
    "$yt" --local 3 --tasks 41 --mean 0.01 --bytes 1000 --resume "$tmp/j"
run "another run's journal (another seed: other tasks): refused, named" 2 \
    "the journal's run has other tasks (their FNV-1a [0-9a-f]*, this one's [0-9a-f]*)" \
    "$yt" --local 3 --tasks 40 --mean 0.01 --bytes 1000 --seed 2 --resume "$tmp/j"
run "another run's journal (other bytes): refused, named" 2 "the journal's run has other tasks" \
    "$yt" --local 3 --tasks 40 --mean 0.01 --bytes 999 --resume "$tmp/j"
cmp -s "$tmp/j" "$tmp/j40.keep"; check "a refused journal is left as it was" $?
run "--resume of no file: bad input, named" 2 "resume .*nosuch: No such file" \
    "$yt" $J --resume "$tmp/nosuch"
printf 'DTSS-JNL' >"$tmp/loopj"
run "--resume of another model's journal: bad input" 2 "not a journal of this kind (no DTSS-LBJ" \
    "$yt" $J --resume "$tmp/loopj"
head -c 40 "$tmp/j40.keep" >"$tmp/j"
run "--resume of a journal whose header is cut: bad input" 2 "its header is damaged" \
    "$yt" $J --resume "$tmp/j"
run "--journal in a missing folder: bad input" 2 "journal .*/none/j: cannot create it" \
    "$yt" $J --journal "$tmp/none/j"
run "--journal with --resume: refused" 2 "appends to the journal it resumes" \
    "$yt" $J --journal "$tmp/j" --resume "$tmp/j"
# a crafted entry, its checksum right, not of this run's: entry 1 again (task
# 0's result twice): refused, naming entry 41 and its byte
{ cat "$tmp/j40.keep"; head -c 89 "$tmp/j40.keep" | tail -c 41; } >"$tmp/j"
run "a crafted entry (task 0 twice, checksum right): refused, named" 2 \
    "entry 41 (at byte 1688): a result of task [0-9]*, which entry 1 holds too: a damaged journal, or another run's" \
    "$yt" $J --resume "$tmp/j"
# resumed(NAME FILE WANT): the resumed run from FILE: exit 0, the fresh
# run's checksum, WANT results from the journal (said in the log, the summary
# and the record), and only the others run.
resumed() {
    # shellcheck disable=SC2086
    "$yt" $J --resume "$2" -o "$tmp/$1.csv" >"$tmp/$1.out" 2>&1
    rc=$?
    ran=$(awk -F, '$1 == "worker" { n += $5 } END { print n + 0 }' "$tmp/$1.csv" 2>/dev/null)
    [ "$rc" = 0 ] && [ "$(sumof "$tmp/$1.out")" = "$ref" ] && [ "$ran" = $((40 - $3)) ] &&
        grep -q ": $3 of 40 results journaled" "$tmp/$1.out" &&
        grep -q "; $3 results\? from the journal$" "$tmp/$1.out" &&
        grep -q "^run,.*,$3\$" "$tmp/$1.csv"
}
# a torn tail (a crash mid-write): the last entry cut, its task run again
head -c $((48 + 40 * 41 - 5)) "$tmp/j40.keep" >"$tmp/j"
resumed torn "$tmp/j" 39
check "a torn tail: 39 journaled, 1 run, the same checksum (exit $rc, ran $ran: $(grep -v '^t=' "$tmp/torn.out" | head -c 300))" $?
grep -q "; the last [0-9]* bytes\? (from byte [0-9]* on) ignored and cut: an entry cut short or damaged" "$tmp/torn.out" && [ "$(wc -c <"$tmp/j")" = "$size" ]
check "a torn tail: said, cut, and the journal whole again ($(wc -c <"$tmp/j") bytes)" $?
# a damaged entry (a byte of entry 11's result flipped: its checksum fails):
# the journal ends there, the tasks after it run again
cp "$tmp/j40.keep" "$tmp/j"
at=$((48 + 10 * 41 + 20))
b=$(od -An -tu1 -j "$at" -N1 "$tmp/j" | tr -d ' ')
printf "\\$(printf %03o $(((b + 1) % 256)))" | dd of="$tmp/j" bs=1 seek="$at" conv=notrunc 2>/dev/null
resumed damaged "$tmp/j" 10
check "a damaged entry 11: the journal ends there, 10 journaled, 30 run, the same checksum (exit $rc, ran $ran: $(grep -v '^t=' "$tmp/damaged.out" | head -c 300))" $?
# the journal cannot be written (/dev/full): said, the run goes on, exact
if [ -c /dev/full ]; then
    # shellcheck disable=SC2086
    "$yt" $J --journal /dev/full >"$tmp/full.out" 2>&1
    rc=$?
    [ "$rc" = 0 ] && [ "$(sumof "$tmp/full.out")" = "$ref" ] && [ -c /dev/full ] &&
        grep -q "journal /dev/full: cannot write (No space left on device): the run goes on without it (closed)" "$tmp/full.out"
    check "--journal /dev/full: said, the run goes on, the same checksum, /dev/full left alone (exit $rc: $(head -c 300 "$tmp/full.out"))" $?
else
    skip "no /dev/full here"
fi

# The pvmd killed -9 mid-run, twice; resumed each time: exact.
K="--local 3 --tasks 120 --mean 0.05 --bytes 1000 --period 0.2"
# shellcheck disable=SC2086
"$yt" $K >"$tmp/kref.out" 2>&1
kref=$(sumof "$tmp/kref.out")
[ -n "$kref" ]; check "the pvmd-kill run's fresh checksum ($kref)" $?
# crash NAME PERCENT ARGS...: yoon-tasks ARGS in the background; once PERCENT
# of the 120 results are journaled, kill -9 the pvmd; checks the aftermath;
# starts a new pvmd.
crash() {
    name=$1 want=$((48 + 41 * 120 * $2 / 100))
    shift 2
    # shellcheck disable=SC2086
    "$yt" $K "$@" >"$tmp/$name.out" 2>&1 &
    pid=$!
    for _ in $(seq 300); do
        [ -f "$tmp/k.j" ] && [ "$(wc -c <"$tmp/k.j")" -ge "$want" ] && break
        sleep 0.1
    done
    workers=$(pvm_tasks yoon-tasks)
    kill -9 "$pvmd_pid"
    wait_for "$pid" 30
    [ "$rc" = 1 ] && grep -q "journal .*k.j keeps [0-9]* of 120 results: --resume .*k.j continues the run" "$tmp/$name.out"
    check "$name: the pvmd killed mid-run: exit 1, how to resume said (exit $rc: $(grep -v '^t=' "$tmp/$name.out" | head -c 300))" $?
    pvm_gone $workers; check "$name: the killed pvmd's workers exit (left:$pvm_left)" $?
    orphans="$orphans $pvm_left"
    pvm_reborn "$tmp/vm" "$BIN"; check "$name: a new pvmd ($pvmd_pid)" $?
}
rm -f "$tmp/k.j"
crash k1 25 --journal "$tmp/k.j"
crash k2 60 --resume "$tmp/k.j"
n2=$(sed -n 's/.*: \([0-9]*\) of 120 results journaled.*/\1/p' "$tmp/k2.out")
[ -n "$n2" ] && [ "$n2" -ge 1 ]; check "k2: the first resume took the journal's results ($n2)" $?
# shellcheck disable=SC2086
"$yt" $K --resume "$tmp/k.j" -o "$tmp/k3.csv" >"$tmp/k3.out" 2>&1
rc=$?
n3=$(sed -n 's/.*: \([0-9]*\) of 120 results journaled.*/\1/p' "$tmp/k3.out")
ran=$(awk -F, '$1 == "worker" { n += $5 } END { print n + 0 }' "$tmp/k3.csv" 2>/dev/null)
[ "$rc" = 0 ] && [ "$(sumof "$tmp/k3.out")" = "$kref" ]
check "killed twice, resumed: exit $rc, the fresh run's checksum ($(sumof "$tmp/k3.out") = $kref)" $?
[ -n "$n3" ] && [ -n "$n2" ] && [ "$n3" -gt "$n2" ] && [ "$n3" -lt 120 ] && [ "$ran" = $((120 - n3)) ] &&
    grep -q "; $n3 results from the journal$" "$tmp/k3.out" && grep -q "^run,.*,$n3\$" "$tmp/k3.csv"
check "killed twice, resumed: $n3 results from the journal (after the first crash $n2), only the $ran others run, said in the summary and the record" $?
echo "lb_pvm: pvmd killed twice: $n2 then $n3 of 120 results from the journal; checksum $kref"
for w in $orphans; do kill -9 "$w" 2>/dev/null; done
pvm_down
finish
