#!/bin/sh
# longrun.sh: long work as a user meets it (issue 27, points 5 and 8): what
# could never end in a lifetime is refused before anything is done, naming
# the limit; bad input and unwritable outputs are refused before the work;
# progress shows on a terminal and nowhere else; Ctrl-C (SIGINT, sent by
# PID to the process started here) ends a run with status 130, a message,
# and no output file, whole or partial, left behind. No assertion on a
# time: the runs are long enough for a signal to find them at work, and
# every wait is bounded (wait_for ends a run that hangs, a failure).
# The memory of a long run is measured by make bench (tests/bench_sim.sh).
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1

printf 'host a speed=1\nhost b speed=2\nlink * * latency=0.001\n' >two.plat
printf 'platform two.plat\nworkload uniform n=100 cost=1\nscheme tss\n' >two.scn

# interrupt PID SECONDS: SIGINT to PID after SECONDS, then waits for it
# (ended by SIGKILL if it has not stopped within 60 s: a failure); its exit
# status is in $rc.
interrupt() {
    sleep "$2"
    kill -INT "$1" 2>/dev/null
    n=600
    while [ $n -gt 0 ] && kill -0 "$1" 2>/dev/null; do
        sleep 0.1
        n=$((n - 1))
    done
    kill -KILL "$1" 2>/dev/null
    wait "$1"
    rc=$?
}

# appears DIR PREFIX PID: waits (at most 60 s) until a file named PREFIX...
# is in folder DIR, or PID has ended; 0 if it is there.
appears() {
    n=6000
    while [ $n -gt 0 ]; do
        ls "$1" 2>/dev/null | grep -q "^$2" && return 0
        kill -0 "$3" 2>/dev/null || return 1
        sleep 0.01
        n=$((n - 1))
    done
    return 1
}

# ---- bin/sim ---------------------------------------------------------------------
# Checks before anything is built or run.
run "sim: an unknown workload key is refused before the costs are built (exit 2)" 2 \
    "sim: workload matrix: unknown key 'bogus' (matrix takes n=, min=, max=, scale=)" \
    "$BIN/sim" two.scn -w "matrix n=100000000 bogus=1"
run "sim: a key given twice is refused" 2 "workload uniform: key 'n' given twice" \
    "$BIN/sim" two.scn -w "uniform n=10 n=20"
"$BIN/sim" two.scn -w "matrix n=100000000" -r nodir/rec.csv >out.txt 2>err.txt
rc=$?
[ $rc = 1 ] && grep -q "^sim: --record nodir/rec.csv: cannot write there: No such file or directory$" err.txt &&
    [ ! -s out.txt ] && [ ! -e nodir ] && [ "$(wc -l <err.txt)" = 1 ]
check "sim: an unwritable --record is refused before the costs are built: one line, no summary, no record (exit $rc)" $?
"$BIN/sim" --costs nodir/c.csv -w "matrix n=100000000" >out.txt 2>err.txt
rc=$?
[ $rc = 1 ] && grep -q "^sim: --costs nodir/c.csv: cannot write there: No such file or directory$" err.txt
check "sim: an unwritable --costs is refused before the costs are built (exit $rc)" $?

# The limits, refused before the run with their numbers.
run "sim: pss over 10^13 iterations: more than the 1e12 chunks, refused" 2 \
    "pss over 10000000000000 iterations makes 1e+13 chunks at least (its largest is its first, 1), more than the simulator's limit of 1e+12" \
    "$BIN/sim" two.scn -s pss -w "uniform n=1e13 cost=1e-9"
run "sim: css --k 10^10 over 10^13 iterations (1,000 chunks): the bound lets it run" 0 "^css: " \
    "$BIN/sim" two.scn -s css --k 10000000000 -w "uniform n=1e13 cost=1e-9"
run "sim: a record of more than 1e8 chunks, refused before the run" 2 \
    "--record r.csv: the run makes 2e+08 chunks at least, more than the 1e+08 a run record holds" \
    "$BIN/sim" two.scn -s pss -w "uniform n=2e8 cost=1e-6" -r r.csv
[ ! -e r.csv ]; check "sim: no record made by the refusal" $?
run "sim: a run the hosts cannot finish in 1e9 s, refused before it" 2 \
    "the workload's cost 1e+12 over the hosts' total speed 3 is 3.33333e+11 s at least" \
    "$BIN/sim" two.scn -w "uniform n=1e12 cost=1"

# A streamed record and the summary: the summary line without --record is
# the one printed with it, and the record's numbers are the summary's.
"$BIN/sim" two.scn -s pss -w "uniform n=20000 cost=1" >plain.txt 2>&1
"$BIN/sim" two.scn -s pss -w "uniform n=20000 cost=1" -r big.csv >rec.txt 2>&1
cmp -s plain.txt rec.txt && grep -q "^pss: W1 .* Finish $("$BIN/record" big.csv run finish | awk '{ printf "%.2f", $1 }') " plain.txt
check "sim: the summary kept alone is the streamed record's (pss, 20,000 chunks)" $?
[ "$(awk -F, '$1 == "chunk"' big.csv | wc -l)" = 20000 ] && [ "$(ls -A | grep -c spool)" = 0 ]
check "sim: the streamed record holds every chunk; no spool file is left" $?

# Ctrl-C while the run goes on: status 130, the message, nothing printed.
mkdir recs
"$BIN/sim" two.scn -s pss -w "uniform n=9e7 cost=1e-6" -r recs/rec.csv >out.txt 2>err.txt &
interrupt $! 1
[ $rc = 130 ] && grep -q "^sim: interrupted (SIGINT): no run record written$" err.txt &&
    [ ! -s out.txt ] && [ -z "$(ls -A recs)" ]
check "sim: Ctrl-C in the run: exit 130, said, no record, no spool file left (exit $rc)" $?
# Ctrl-C while the record is written: the new file beside it goes too.
"$BIN/sim" two.scn -s pss -w "uniform n=2000000 cost=1e-6" -r recs/rec.csv >out.txt 2>err.txt &
pid=$!
appears recs rec.csv. $pid
seen=$?
interrupt $pid 0
[ $seen = 0 ] && [ $rc = 130 ] && grep -q "interrupted (SIGINT)" err.txt && [ -z "$(ls -A recs)" ]
check "sim: Ctrl-C while the record is written: exit 130, no record, whole or partial (seen $seen, exit $rc)" $?

# Progress on a terminal only (script(1) gives the run one).
if command -v script >/dev/null 2>&1; then
    script -qfec "'$BIN/sim' two.scn -s pss -w 'uniform n=1e7 cost=1e-6'" /dev/null >tty.txt 2>&1
    rc=$?
    tr '\r' '\n' <tty.txt | grep -q "^sim: [0-9]* of 10000000 iterations in (.*%), [0-9]* chunks, simulated [0-9.e+]* s, [0-9]* s" &&
        grep -q "^pss: " tty.txt
    check "sim: progress on a terminal, then the summary (exit $rc)" $?
else
    skip "script(1) missing: the progress on a terminal not tested"
fi
"$BIN/sim" two.scn -s pss -w "uniform n=1e7 cost=1e-6" >out.txt 2>err.txt
[ ! -s err.txt ] && grep -q "^pss: " out.txt
check "sim: no progress when stderr is not a terminal" $?

# ---- bin/chunks ----------------------------------------------------------------------
run "chunks: pss over 9e18 iterations (1,800 years of counting): refused before the first chunk" 2 \
    "chunks: pss over 9000000000000000000 iterations makes 9e+18 chunks at least (its largest is its first, 1), more than the 1e+12 a run may make" \
    "$BIN/chunks" -s pss -I 9000000000000000000 -P 2 --count
run "chunks: css --k 10^6 over 9e18 iterations: 9e12 chunks at least, refused (any scheme whose chunks never grow)" 2 \
    "css over 9000000000000000000 iterations makes 9e+12 chunks at least (its largest is its first, 1000000)" \
    "$BIN/chunks" -s css --k 1000000 -I 9000000000000000000 -P 2 --count
"$BIN/chunks" -s tss --F 1 --L 1 -I 900000000000 -P 2 >ch.csv 2>err.txt &
interrupt $! 1
fields=$(awk -F, '{ print NF }' ch.csv | sort -u | tr '\n' ' ')
[ $rc = 130 ] && [ "$fields" = "3 " ] && [ "$(tail -c 1 ch.csv | od -An -c | tr -d ' ')" = '\n' ] &&
    grep -q "^chunks: interrupted (SIGINT): the lines printed are whole chunks" err.txt
check "chunks: Ctrl-C on 9e11 chunks: exit 130, the lines printed whole (fields: $fields, exit $rc)" $?
rm -f ch.csv
"$BIN/chunks" -s dtss --F 1 --L 1 -I 9000000000000000000 -P 2 --count >out.txt 2>err.txt &
interrupt $! 1
[ $rc = 130 ] && [ ! -s out.txt ] && grep -q "^chunks: interrupted (SIGINT): no count printed$" err.txt
check "chunks: Ctrl-C on a count that cannot be bounded (dtss, F = L = 1): exit 130, no count (exit $rc)" $?

# ---- bin/daggen --------------------------------------------------------------------
run "daggen: 10^6 tasks with --outdeg v: refused before it is made, naming the limit" 2 \
    "v=1000000 tasks with out_degree=1000000 may make 1e+12 edges, more than the 100000000 a generated graph holds" \
    "$BIN/daggen" -v 1000000 --outdeg v
run "daggen: 10^6 tasks on 1000 processors: too many costs" 2 \
    "1000000 tasks on q=1000 processors are 1e+09 costs, more than the 100000000" \
    "$BIN/daggen" -v 1000000 --procs 1000
mkdir g
"$BIN/daggen" -v 1000000 -o g/big.dag 2>err.txt &
pid=$!
appears g big.dag. $pid
seen=$?
interrupt $pid 0
[ $seen = 0 ] && [ $rc = 130 ] && grep -q "^daggen: interrupted (SIGINT): no graph written$" err.txt &&
    [ -z "$(ls -A g)" ]
check "daggen: Ctrl-C while 10^6 tasks are written: exit 130, said, no file (seen $seen, exit $rc)" $?
"$BIN/daggen" -v 1000000 -o g/big.dag 2>err.txt &
interrupt $! 0.5
[ $rc = 130 ] && grep -q "interrupted (SIGINT)" err.txt && [ -z "$(ls -A g)" ]
check "daggen: Ctrl-C while 10^6 tasks are made: exit 130, no file (exit $rc)" $?

# ---- bin/heat ------------------------------------------------------------------------
run "heat: more than 1e17 cell updates refused before the run" 2 \
    "--steps 100000000001 on 1000 x 1000 cells: more than the 1e+17 cell updates (nx ny steps) a run may make" \
    "$BIN/heat" --nx 1000 --ny 1000 --steps 100000000001
mkdir field
"$BIN/heat" --nx 1 --ny 1 --steps 100000000000 -o field/f.pgm --raw field/f.raw >out.txt 2>err.txt &
interrupt $! 1
[ $rc = 130 ] && grep -q "^heat: interrupted (SIGINT): nothing written$" err.txt && [ -z "$(ls -A field)" ] &&
    [ ! -s out.txt ]
check "heat: Ctrl-C on 10^11 steps: exit 130, said, no picture or cells (exit $rc)" $?
run "heat: an unwritable -o refused before the run" 1 "heat: --out nodir/f.pgm: cannot write there" \
    "$BIN/heat" --nx 1 --ny 1 --steps 100000000000 -o nodir/f.pgm
# The PVM programs' outputs, refused before a virtual machine is looked for
# (there is none here: the check is what stops them).
for o in "--out nodir/f.pgm" "--raw nodir/f.raw" "--record nodir/r.csv"; do
    # shellcheck disable=SC2086
    run "heat-pvm: $o refused before the run" 1 "heat-pvm: ${o% *} ${o#* }: cannot write there: No such file or directory" \
        "$BIN/heat-pvm" --nx 8 --ny 8 --steps 10 $o
done
run "loop: -r refused before the costs are built and PVM is looked for" 1 \
    "loop: --record nodir/r.csv: cannot write there: No such file or directory" \
    "$BIN/loop" -w "matrix n=100000000" -r nodir/r.csv

# ---- bin/dagsched, bin/dagexp -----------------------------------------------------------
"$BIN/daggen" -v 200000 -o g/mid.dag
mkdir tmpd pic
TMPDIR=$tmp/tmpd "$BIN/dagsched" -a heft -g pic/gantt.png g/mid.dag >out.txt 2>err.txt &
interrupt $! 1
[ $rc = 130 ] && grep -q "^dagsched: interrupted (SIGINT): no picture drawn$" err.txt &&
    [ -z "$(ls -A pic)" ] && [ -z "$(ls -A tmpd)" ] && [ ! -s out.txt ]
check "dagsched: Ctrl-C on 200,000 tasks: exit 130, no picture, no temporary file (exit $rc)" $?
"$BIN/dagsched" -g nodir/g.png g/mid.dag >out.txt 2>err.txt
rc=$?
[ $rc = 1 ] && grep -q "^dagsched: --gantt nodir/g.png: cannot write there: No such file or directory$" err.txt &&
    [ ! -s out.txt ]
check "dagsched: an unwritable --gantt refused before the graph is read (exit $rc)" $?
"$BIN/dagexp" -v 200 -n 100000 >exp.csv 2>err.txt &
interrupt $! 1
fields=$(awk -F, '{ print NF }' exp.csv | sort -u | tr '\n' ' ')
[ $rc = 130 ] && [ "$fields" = "29 " ] && [ "$(tail -c 1 exp.csv | od -An -c | tr -d ' ')" = '\n' ] &&
    grep -q "^dagexp: stopping at the next whole line of output" err.txt &&
    grep -q "^dagexp: interrupted (SIGINT): the lines printed are whole graphs" err.txt
check "dagexp: Ctrl-C: exit 130, the lines printed whole (fields per line: $fields, exit $rc)" $?

# ---- bin/readings, bin/yoon-sim ----------------------------------------------------------
mkdir rdg
"$BIN/readings" --out rdg >out.txt 2>err.txt &
interrupt $! 1
[ $rc = 130 ] && grep -q "^readings: interrupted (SIGINT): no file written in the output folder$" err.txt &&
    [ -z "$(ls -A rdg)" ]
check "readings: Ctrl-C: exit 130, no file in the output folder (exit $rc)" $?
"$BIN/readings" --out rdg -S 60 -m 100 -R 1 --loops rows >out.txt 2>err.txt
[ $? = 0 ] && [ ! -s err.txt ]
check "readings: no progress lines when stderr is not a terminal" $?
"$BIN/yoon-sim" -P 64,128 -n 100 -k 100000 -s yoon,clb >ys.csv 2>err.txt &
interrupt $! 1
fields=$(awk -F, '{ print NF }' ys.csv | sort -u | tr '\n' ' ')
[ $rc = 130 ] && [ "$fields" = "18 " ] && grep -q "^yoon-sim: interrupted (SIGINT)" err.txt
check "yoon-sim: Ctrl-C on a sweep: exit 130, its lines whole (fields: $fields, exit $rc)" $?
finish
