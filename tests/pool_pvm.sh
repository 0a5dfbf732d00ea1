#!/bin/sh
# pool_pvm.sh: the iterative pool of libdtss (dtss_pool_*) on a private
# one-host virtual machine, through bin/thin-pool: the skeleton is
# bin/thin's bit for bit for both strategies and many part counts; the run
# record shows the pool growing and shrinking (every join and release with
# its time) and agrees with the run; a worker killed mid-iteration has its
# task run again and the result is unchanged; a worker stopped (for good,
# or then resumed: its late result refused) is taken for hung by --late;
# the master killed, its workers end; clear errors. Starts its own
# pvmd (own PVM_TMP) and halts it; ends only the processes it started.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
ROOT=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/dtss-pooltest.XXXXXX)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pvmlib.sh"
master=
cleanup() {
    [ -n "$master" ] && kill "$master" 2>/dev/null
    pvm_down
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
export PVM_ALLOW_ROOT=yes PVM_TMP="$tmp/pvm"    # (no pvmd yet)
TP="$BIN/thin-pool"

# ---- images -------------------------------------------------------------------
"$BIN/thin-images" figures -z 0.3 -q -o "$tmp/figures.pbm"
"$BIN/thin-images" boyball -z 0.25 -q -o "$tmp/boyball.pbm"
"$BIN/thin-images" figures -q -o "$tmp/big.pbm"
# a random blobby image, plain PBM: 90 x 70
awk 'BEGIN { srand(7); print "P1"; print "90 70";
     for (y = 0; y < 70; y++) { l = ""; for (x = 0; x < 90; x++) {
         v = (int(x / 9) + int(y / 7)) % 3 != 0 || rand() < 0.1; l = l (v ? "1" : "0") }
     print l } }' >"$tmp/blobs.pbm"
for i in figures boyball blobs big; do
    [ -s "$tmp/$i.pbm" ]; check "test image $i made" $?
done

# ---- errors before any pvmd runs ----------------------------------------------
run "no pvmd: one clear line" 1 "no PVM daemon" "$TP" "$tmp/figures.pbm" --parts 4 --local 2 -q
lines=$(wc -l <"$tmp/out")
[ "$lines" -eq 1 ]; check "no pvmd: exactly one line of error (got $lines)" $?
run "--help names the pool options" 0 "--strategy NAME" "$TP" --help
run "--parts is needed" 2 "--parts M is needed" "$TP" "$tmp/figures.pbm" --local 2
run "--parts 0" 2 "--parts '0' must be" "$TP" "$tmp/figures.pbm" --parts 0
run "--parts 65" 2 "--parts '65' must be" "$TP" "$tmp/figures.pbm" --parts 65
run "unknown strategy lists the valid ones" 2 "adjust, static" "$TP" "$tmp/figures.pbm" --parts 2 --strategy greedy
run "--delay -1" 2 "--delay '-1'" "$TP" "$tmp/figures.pbm" --parts 2 --delay -1
run "--delay nan" 2 "--delay 'nan'" "$TP" "$tmp/figures.pbm" --parts 2 --delay nan
run "--asp bad" 2 "asp" "$TP" "$tmp/figures.pbm" --parts 2 --asp round
run "--efficiency 2" 2 "efficiency" "$TP" "$tmp/figures.pbm" --parts 2 --efficiency 2
run "--slow 0" 2 "--slow '0' must be" "$TP" "$tmp/figures.pbm" --parts 2 --slow 0
run "--slow nan" 2 "--slow 'nan' must be" "$TP" "$tmp/figures.pbm" --parts 2 --slow nan
run "--local with --hosts" 2 "does not go with" "$TP" "$tmp/figures.pbm" --parts 2 --local 2 --hosts a
run "--local 0" 2 "--local '0'" "$TP" "$tmp/figures.pbm" --parts 2 --local 0
run "a value missing" 2 "needs a value" "$TP" "$tmp/figures.pbm" --parts 2 --delay
run "two images" 2 "one input image" "$TP" "$tmp/figures.pbm" "$tmp/blobs.pbm" --parts 2
printf 'P1\n3 2\n1 0 2\n0 0 0\n' >"$tmp/bad.pbm"
run "a bad PBM: named, exit 2" 2 "bad.pbm" "$TP" "$tmp/bad.pbm" --parts 2 --local 1
run "an output that cannot be written: before the run (exit 1)" 1 "cannot write there" \
    "$TP" "$tmp/figures.pbm" --parts 2 --local 1 -o "$tmp/no/such/dir/x.pbm"
run "a record that cannot be written: before the run (exit 1)" 1 "cannot write there" \
    "$TP" "$tmp/figures.pbm" --parts 2 --local 1 -r "$tmp/no/such/dir/x.csv"
run "a worker outside PVM" 1 "not spawned by a master\|no PVM daemon" "$TP" --dtss-worker

# ---- a private virtual machine --------------------------------------------------
pvm_up "$tmp" "$BIN"
check "private pvmd started (pid $pvmd_pid)" $?
cd "$tmp" || exit 1

run "a one-host VM without --local: no hosts" 1 "no hosts to use" "$TP" figures.pbm --parts 2 -q
run "--hosts names a host PVM cannot add: the host and PVM's reason" 1 "pvm_addhosts(nohost): " "$TP" figures.pbm --parts 2 --hosts nohost --delay 0 -q
run "a worker program PVM cannot find" 1 "not in PVM's search path" \
    "$TP" figures.pbm --parts 2 --local 2 --delay 0 --worker no-such-program -q

# ---- the skeleton, bit for bit -----------------------------------------------------
# bin/thin's image for each image; the pool's for both strategies and many M.
for i in figures boyball blobs; do
    "$BIN/thin" "$i.pbm" -o "$i.seq.pbm" -q
done
n=0 same=0
for i in figures boyball blobs; do
    for M in 1 2 3 5 8 13 16 33 64; do
        for s in adjust static; do
            n=$((n + 1))
            "$TP" "$i.pbm" --parts "$M" --local "$M" --delay 0 --strategy "$s" \
                -o "$i.$M.$s.pbm" -q >"out.$n" 2>&1 &&
                cmp -s "$i.$M.$s.pbm" "$i.seq.pbm" && same=$((same + 1))
            [ "$same" = "$n" ] || { bad "$i, $M parts, $s: not bin/thin's skeleton: $(head -c 300 "out.$n")"; same=$n; }
        done
    done
done
check "$n pool runs (3 images, 9 part counts, 2 strategies): each bin/thin's skeleton bit for bit" 0
"$TP" figures.pbm --parts 8 --local 8 --delay 0 --asp ceil -o ceil.pbm -q &&
    cmp -s ceil.pbm figures.seq.pbm
check "--asp ceil: the same skeleton" $?
"$TP" figures.pbm --parts 8 --local 8 --delay 0 --iterations 3 -o k3.pbm -q &&
    "$BIN/thin" figures.pbm --iterations 3 -o k3.seq.pbm -q && cmp -s k3.pbm k3.seq.pbm
check "--iterations 3: bin/thin --iterations 3's image" $?
run "the summary: iterations and pixels as bin/thin says them" 0 \
    "iterations, converged, .* pixels left, 8 parts" "$TP" figures.pbm --parts 8 --local 8 --delay 0
grep -q "^adjust: iterations [0-9]*, workers [0-9.]*, efficiency 0\.[0-9]*, time" out
check "the summary line: strategy, iterations, workers, efficiency, time" $?
[ -z "$(pvm_tasks thin-pool)" ]
check "no worker left running after the runs" $?

# ---- the run record: the pool grows and shrinks ------------------------------------
# 16 parts of the full-size Figures, workers requested 0.05 s apart: they
# join one by one, and the adjusting strategy releases some before the end.
"$TP" big.pbm --parts 16 --local 16 --delay 0.05 -o big.pool.pbm -r adjust.csv -q
check "Figures, 16 parts, adjust, delay 0.05 s: ran" $?
"$BIN/thin" big.pbm --parts 16 -o big.seq.pbm -q >big.thin 2>&1
cmp -s big.pool.pbm big.seq.pbm
check "  its skeleton is bin/thin's" $?
grep -q '^#run,strategy,asp,delay,border,scale,parts,iterations$' adjust.csv &&
    grep -q '^run,adjust,floor1,0.05,[0-9.e-]*,1,16,92$' adjust.csv
check "  the run line: adjust, floor1, delay 0.05, 16 parts, 92 iterations" $?
[ "$(grep -c '^iteration,' adjust.csv)" = 92 ]
check "  92 iteration lines (bin/thin's iterations)" $?
ntask=$(grep -c '^task,' adjust.csv)
"$BIN/thin" big.pbm --parts 16 >big.tasks 2>&1
want=$(sed -n 's/.*16 parts, \([0-9]*\) tasks.*/\1/p' big.tasks)
[ "$ntask" = "$want" ]
check "  a task line per task: $ntask (bin/thin --parts 16: $want tasks)" $?
awk -F, '$1 == "iteration" { s += $3 } END { exit s != n }' n="$ntask" adjust.csv
check "  the iterations' task counts add up to the task lines" $?
awk -F, '$1 == "worker" && $9 != "" { j[$7]++; if ($7 != "" && $8 != "" && $8 < $7) bad++ }
         END { exit (length(j) < 3 || bad) }' adjust.csv
check "  workers joined at different times (the pool grew), none left before it joined" $?
last=$(awk -F, '$1 == "iteration" { b = $9 } END { print b }' adjust.csv)
awk -F, -v last="$last" '$1 == "worker" && $9 == "released" && $8 < last { n++ } END { exit !n }' adjust.csv
check "  a worker released before the last iteration (the pool shrank)" $?
awk -F, '$1 == "iteration" { if ($4 > peak) peak = $4; end = $4 } END { exit !(peak > end && peak > 1) }' adjust.csv
check "  more workers held in some iteration than at the end" $?
awk -F, '$1 == "total" { exit !($3 > 0 && $4 > 0 && $4 <= 1 && $2 > 0) }' adjust.csv
check "  the total line: time, workers > 0, efficiency in (0, 1]" $?
awk -F, '$1 == "task" { if ($9 < 0 || $8 < $5 || $10 != 1) bad++ } END { exit bad }' adjust.csv
check "  every task: a time >= 0, received after sent, one try (no worker lost)" $?
awk -F, '$1 == "field" && $2 == "lost" { exit $3 != 0 } ' adjust.csv &&
    grep -q '^field,image,big.pbm$' adjust.csv && grep -q '^field,pixels,' adjust.csv
check "  the fields: lost 0, the image, the pixels left" $?
# Held time as the meter defines it: the workers' (left - joined) add up to
# the total's held time plus what they were held after the last result.
awk -F, '$1 == "worker" && $7 != "" { h += $8 - $7 } $1 == "total" { t = $6; tt = $2 }
         END { exit !(h >= t - 1e-3 && h <= t + 0.5) }' adjust.csv
check "  the workers' held times add up to the total's held time" $?

"$TP" big.pbm --parts 16 --local 16 --delay 0.05 --strategy static -o big.static.pbm -r static.csv -q &&
    cmp -s big.static.pbm big.seq.pbm
check "Figures, 16 parts, static: bin/thin's skeleton" $?
awk -F, '$1 == "iteration" && $2 == 1 { exit $5 != 16 }' static.csv
check "  static: 16 workers requested in the first iteration (one per task)" $?
last=$(awk -F, '$1 == "iteration" { b = $9 } END { print b }' static.csv)
awk -F, -v last="$last" '$1 == "worker" && $9 == "released" && $8 < last { n++ } END { exit !n }' static.csv
check "  static: workers released before the end (their tasks converged)" $?
awk -F, '$1 == "iteration" && $5 > $3 { bad++ } END { exit bad }' static.csv
check "  static: never more workers requested than the iteration's tasks" $?
if command -v gnuplot >/dev/null 2>&1; then
    "$ROOT/scripts/plot" pool static.csv adjust.csv pool.png >plot.out 2>&1 && [ -s pool.png ]
    check "scripts/plot pool draws Figure 4.2 from two PVM run records" $?
else
    skip "no gnuplot: the pool figure from PVM records not drawn"
fi

# ---- a worker lost mid-iteration --------------------------------------------------
# Tasks made long (--slow 300: 0.1-0.5 s each, 8 iterations) and a worker
# holding one killed; its task runs again and the image is unchanged.
"$BIN/thin" big.pbm --iterations 8 -o big.seq8.pbm -q
"$TP" big.pbm --parts 8 --local 8 --delay 0 --slow 300 --iterations 8 -v -o lost.pbm -r lost.csv \
    >lost.out 2>&1 &
master=$!
n=0
while [ "$n" -lt 300 ] && ! grep -q "iteration 3:" lost.out; do sleep 0.1; n=$((n + 1)); done
# a busy worker: one computing (running) or sleeping out its task (--slow),
# not one waiting for a message
victim=
for p in $(pvm_tasks thin-pool); do
    case "$(cat "/proc/$p/wchan" 2>/dev/null) $(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)" in
    *nanosleep*|*" R") victim=$p; break ;;
    esac
done
[ -n "$victim" ] && kill -9 "$victim"
check "a worker killed mid-run (pid ${victim:-none})" $?
wait_for "$master" 120
master=
[ "$rc" = 0 ]
check "  the run completes (exit $rc)" $?
cmp -s lost.pbm big.seq8.pbm
check "  the image is unchanged (bin/thin --iterations 8's)" $?
grep -q "lost: its task .* runs again\|lost$" lost.out
check "  the log says the worker was lost" $?
awk -F, '$1 == "worker" && $9 == "lost" { n++ } END { exit n != 1 }' lost.csv &&
    awk -F, '$1 == "field" && $2 == "lost" { exit $3 != 1 }' lost.csv
check "  the record: one worker lost" $?
if grep -q "runs again" lost.out; then
    awk -F, '$1 == "task" && $10 == 2 { n++ } END { exit n != 1 }' lost.csv
    check "  its task ran a second time (tries 2 in the record)" $?
    it=$(awk -F, '$1 == "task" && $10 == 2 { print $2 }' lost.csv)
    k=$(awk -F, '$1 == "task" && $10 == 2 { print $3 }' lost.csv)
    awk -F, -v it="$it" -v k="$k" '$1 == "task" && $2 == it && $3 == k && $8 != "" { n++ } END { exit n != 1 }' lost.csv
    check "  that task's result counted once" $?
else
    skip "the killed worker held no task at that moment (its task was not re-run)"
fi
[ -z "$(pvm_tasks thin-pool)" ]
check "no worker left running after the lost-worker run" $?

# ---- a worker hung (--late, sched/late/late.h) -------------------------------------
# busy_worker: a worker computing or sleeping out its task (in $victim).
busy_worker() {
    victim=
    for p in $(pvm_tasks thin-pool); do
        case "$(cat "/proc/$p/wchan" 2>/dev/null) $(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)" in
        *nanosleep*|*" R") victim=$p; break ;;
        esac
    done
}
# Stopped for good: taken for hung, its task runs again, the run ends
# without it (and ends it), the image unchanged.
"$TP" big.pbm --parts 8 --local 8 --delay 0 --slow 300 --iterations 8 --late 2,1 -v \
    -o hung.pbm -r hung.csv >hung.out 2>&1 &
master=$!
n=0
while [ "$n" -lt 300 ] && ! grep -q "iteration 3:" hung.out; do sleep 0.1; n=$((n + 1)); done
busy_worker
[ -n "$victim" ] && kill -STOP "$victim"
check "a worker stopped mid-task (pid ${victim:-none})" $?
wait_for "$master" 120
master=
[ "$rc" = 0 ] && cmp -s hung.pbm big.seq8.pbm
check "  the run completes, the image unchanged (exit $rc)" $?
grep -q "silent past the late limit (hung?): its task [0-9]* of iteration [0-9]* runs again" hung.out
check "  the log says it was taken for hung" $?
awk -F, '$1 == "worker" && $9 == "hung" { n++ } END { exit n != 1 }' hung.csv &&
    awk -F, '$1 == "field" && $2 == "hung" { exit $3 != 1 }' hung.csv
check "  the record: one worker hung" $?
it=$(awk -F, '$1 == "task" && $10 == 2 { print $2; exit }' hung.csv)
k=$(awk -F, '$1 == "task" && $10 == 2 { print $3; exit }' hung.csv)
[ -n "$it" ] && awk -F, -v it="$it" -v k="$k" '$1 == "task" && $2 == it && $3 == k && $8 != "" { n++ } END { exit n != 1 }' hung.csv
check "  its task ran a second time (tries 2), its result counted once (iteration ${it:-?}, task ${k:-?})" $?
gone=no
for _ in $(seq 30); do [ -n "$victim" ] && ! kill -0 "$victim" 2>/dev/null && { gone=yes; break; }; sleep 0.1; done
[ "$gone" = yes ]
check "  the stopped worker was ended at the end, not waited for" $?
[ "$gone" = no ] && [ -n "$victim" ] && kill -9 "$victim" 2>/dev/null

# Stopped, then resumed once its task ran again: its result comes second
# and is refused (a spare host, so that none is wanted from it; 16
# iterations, so that the run lasts past the resumption).
"$BIN/thin" big.pbm --iterations 16 -o big.seq16.pbm -q
"$TP" big.pbm --parts 8 --local 10 --delay 0 --slow 300 --iterations 16 --late 2,1 -v \
    -o cont.pbm -r cont.csv >cont.out 2>&1 &
master=$!
n=0
while [ "$n" -lt 300 ] && ! grep -q "iteration 3:" cont.out; do sleep 0.1; n=$((n + 1)); done
busy_worker
[ -n "$victim" ] && kill -STOP "$victim"
n=0
while [ "$n" -lt 300 ] && ! grep -q "silent past the late limit" cont.out; do sleep 0.1; n=$((n + 1)); done
sleep 1
[ -n "$victim" ] && kill -CONT "$victim"
wait_for "$master" 120
master=
[ "$rc" = 0 ] && cmp -s cont.pbm big.seq16.pbm
check "a worker stopped, then resumed: the run completes, the image unchanged (exit $rc)" $?
grep -q "worker [0-9]* on .* answered again after" cont.out &&
    grep -q "came second (refused)" cont.out
check "  it answered again, and its late result was refused ($(grep -i 'hung\|answered\|refused\|ended\|lost' cont.out | head -5))" $?
it=$(awk -F, '$1 == "task" && $10 == 2 { print $2; exit }' cont.csv)
k=$(awk -F, '$1 == "task" && $10 == 2 { print $3; exit }' cont.csv)
[ -n "$it" ] && awk -F, -v it="$it" -v k="$k" '$1 == "task" && $2 == it && $3 == k && $8 != "" { n++ } END { exit n != 1 }' cont.csv
check "  that task's result counted once" $?
[ -z "$(pvm_tasks thin-pool)" ]
check "no worker left running after the hung-worker runs" $?

# ---- the master killed: its workers end within 2 s -----------------------------------
"$TP" big.pbm --parts 8 --local 8 --delay 0 --slow 300 --iterations 8 -o mk.pbm >mk.out 2>&1 &
master=$!
n=0
while [ "$n" -lt 300 ] && [ "$(pvm_tasks thin-pool | wc -l)" -lt 8 ]; do sleep 0.1; n=$((n + 1)); done
workers=$(pvm_tasks thin-pool)
kill -9 "$master"
wait "$master" 2>/dev/null
master=
left=
for _ in $(seq 20); do
    left=
    for w in $workers; do kill -0 "$w" 2>/dev/null && left="$left $w"; done
    [ -z "$left" ] && break
    sleep 0.1
done
[ -n "$workers" ] && [ -z "$left" ]
check "the master killed: its workers ended within 2 s (left:${left:- none})" $?
for w in $left; do kill -9 "$w" 2>/dev/null; done

cd / || exit 1
finish
