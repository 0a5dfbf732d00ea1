#!/bin/sh
# lb_pvm.sh: load balancing by migration on real PVM (runtime/lb/master.c,
# lb_worker.c) through bin/yoon-tasks, on a private one-host PVM: every
# task's result comes once, wherever it ran; the equal first shares; rounds
# that move tasks (the record's round lines against its task lines); none
# asks nothing; a worker killed, stopped for good, or stopped then resumed:
# the run ends right; the master killed: its workers end; options refused by
# name.
set -u
BIN=${BIN:-bin}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
. "$here/tests/lib.sh"
. "$here/tests/pvmlib.sh"
trap 'pvm_down >/dev/null 2>&1; rm -rf "$tmp"' EXIT
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
# our pvmd spawned (in $victim).
first_worker() {
    victim=""
    for _ in $(seq 50); do
        victim=$(pvm_tasks yoon-tasks | head -n 1)
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
workers=$(pvm_tasks yoon-tasks)
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
pvm_down
finish
