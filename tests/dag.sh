#!/bin/sh
# dag.sh: bin/dagsched, bin/daggen, bin/dagexp and scripts/reproduce-dag as a
# user runs them: known schedules of the example files, the generators'
# graphs read back (random, FFT, Gaussian elimination), an experiment line
# regenerated, bad input refused with
# one line naming it, bin/stats --groups (reproduce-dag's statistics), the
# quick reproduction end to end.
set -u
BIN=${BIN:-bin}
REPO=$(cd "$(dirname "$0")/.." && pwd)
EX=$REPO/dag/examples
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

# makespan ALGO FILE: the makespan dagsched prints.
makespan() { "$BIN/dagsched" --summary -a "$1" "$2" 2>/dev/null | awk '$1 == "makespan" { print $2 }'; }

# ---- dagsched on the examples ----------------------------------------------------
run "dagsched --help lists the algorithms" 0 "dcpop" "$BIN/dagsched" --help
for a in heft cpop dcpop; do
    "$BIN/dagsched" --help | grep -q "^ *$a " ; check "dagsched --help lists $a" $?
done

# Topcuoglu et al. 2002 Fig. 4: HEFT 80, CPOP 86; DCPOP 77 worked by hand
# (docs/dag.md). The text and DOT files are the same graph.
for f in topcuoglu.dag topcuoglu.dot; do
    for pair in heft:80 cpop:86 dcpop:77; do
        a=${pair%%:*} want=${pair#*:}
        got=$(makespan "$a" "$EX/$f")
        [ "$got" = "$want" ]; check "$f $a makespan $want (got $got)" $?
    done
done
# By hand (the sums are in each file's comments).
for t in chain:heft:8 chain:cpop:7 chain:dcpop:7 forkjoin:heft:8 forkjoin:cpop:9 \
         forkjoin:dcpop:8 dup-pays:heft:9 dup-pays:cpop:9 dup-pays:dcpop:7 \
         dup-nopay:heft:9 dup-nopay:cpop:9 dup-nopay:dcpop:9; do
    f=${t%%:*} rest=${t#*:}; a=${rest%%:*} want=${rest#*:}
    got=$(makespan "$a" "$EX/$f.dag")
    [ "$got" = "$want" ]; check "$f.dag $a makespan $want (got $got)" $?
done

"$BIN/dagsched" -a heft "$EX/topcuoglu.dag" >"$tmp/heft.txt"
check "dagsched heft runs" $?
rows=$(awk '$1 ~ /^n[0-9]+$/' "$tmp/heft.txt" | wc -l)
[ "$rows" = 10 ]; check "one line per task (got $rows)" $?
awk '$1 == "n10" && $2 == "P2" && $3 == 73 && $4 == 80' "$tmp/heft.txt" | grep -q .
check "n10 on P2 from 73 to 80 (Topcuoglu Fig. 4a)" $?
grep -qx "slr 1.95122" "$tmp/heft.txt"; check "HEFT SLR 80/41 = 1.95122" $?
grep -qx "speedup 1.5875" "$tmp/heft.txt"; check "HEFT speedup 127/80 = 1.5875" $?
"$BIN/dagsched" -a dcpop "$EX/topcuoglu.dag" >"$tmp/dcpop.txt"
d=$(grep -c " duplicate$" "$tmp/dcpop.txt")
[ "$d" = 2 ] && grep -qx "duplicates 2" "$tmp/dcpop.txt"
check "DCPOP marks its 2 duplicates (got $d)" $?
run "--ranks prints the critical path" 0 "critical path (|CP| = 108) on P2: n1 n2 n9 n10" \
    "$BIN/dagsched" --ranks -a cpop "$EX/topcuoglu.dag"
a=$("$BIN/dagsched" --summary -a cpop - <"$EX/topcuoglu.dot" | head -n 1)
[ "$a" = "makespan 86" ]; check "FILE '-' reads standard input ($a)" $?
run "--format text on a DOT file is refused (bad input)" 2 "unknown statement" \
    "$BIN/dagsched" -f text "$EX/topcuoglu.dot"

if command -v gnuplot >/dev/null 2>&1; then
    "$BIN/dagsched" -a dcpop -g "$tmp/g.png" "$EX/topcuoglu.dag" >/dev/null
    check "--gantt runs" $?
    [ "$(head -c 4 "$tmp/g.png" | od -An -c | tr -d ' ')" = "211PNG" ]
    check "--gantt writes a PNG" $?
    run "--gantt into a missing folder: refused before the work" 1 \
        "dagsched: --gantt /nonexistent/dir/g.png: cannot write there: No such file" \
        "$BIN/dagsched" -g /nonexistent/dir/g.png "$EX/chain.dag"
else
    skip "gnuplot not found: --gantt not tested"
fi

# ---- daggen ---------------------------------------------------------------------
run "daggen --help" 0 "children per task" "$BIN/daggen" --help
"$BIN/daggen" -v 40 --alpha 0.5 --ccr 5 --procs 3 --seed 11 >"$tmp/a.dag" &&
    "$BIN/daggen" -v 40 --alpha 0.5 --ccr 5 --procs 3 --seed 11 >"$tmp/b.dag" &&
    "$BIN/daggen" -v 40 --alpha 0.5 --ccr 5 --procs 3 --seed 12 >"$tmp/c.dag"
check "daggen runs" $?
cmp -s "$tmp/a.dag" "$tmp/b.dag"; check "daggen: the same seed gives the same graph" $?
! cmp -s "$tmp/a.dag" "$tmp/c.dag"; check "daggen: another seed, another graph" $?
run "daggen: a seed past mt19937's 32 bits refused (it would repeat a smaller one's graph)" 2 \
    "--seed '4294967297' is not an integer in 0..4294967295" "$BIN/daggen" -v 5 --seed 4294967297
n=$(grep -c "^task " "$tmp/a.dag")
[ "$n" = 40 ]; check "daggen -v 40 writes 40 tasks (got $n)" $?
"$BIN/daggen" -v 40 --alpha 0.5 --ccr 5 --procs 3 --seed 11 -f dot -o "$tmp/a.dot"
check "daggen --format dot -o" $?
for a in heft cpop dcpop; do
    x=$(makespan $a "$tmp/a.dag") y=$(makespan $a "$tmp/a.dot")
    [ -n "$x" ] && [ "$x" = "$y" ]; check "daggen text and DOT schedule alike ($a: $x, $y)" $?
done
# The structured generators: counts (Topcuoglu et al. 2002: FFT 2m-1 + m log2 m
# tasks, Gaussian elimination (m^2+m-2)/2), the command in the header.
run "daggen --help lists the graph types" 0 "gauss .*(m^2+m-2)/2 tasks" "$BIN/daggen" --help
for t in fft:4:15:22 fft:16:95:158 gauss:5:14:19 gauss:13:90:155; do
    g=${t%%:*} rest=${t#*:}; m=${rest%%:*} rest=${rest#*:}; n=${rest%%:*} e=${rest#*:}
    "$BIN/daggen" --graph "$g" -S "$m" --procs 3 --seed 2 >"$tmp/s.dag"
    nt=$(grep -c "^task " "$tmp/s.dag") ne=$(grep -c "^edge " "$tmp/s.dag")
    [ "$nt" = "$n" ] && [ "$ne" = "$e" ] && grep -qx "# daggen --graph $g --size $m --ccr 1 --wdag 50 --beta 0.5 --procs 3 --seed 2" "$tmp/s.dag"
    check "daggen --graph $g -S $m: $n tasks, $e edges, its command in the header (got $nt, $ne)" $?
    for a in heft cpop dcpop; do
        [ -n "$(makespan $a "$tmp/s.dag")" ] || { check "dagsched $a schedules daggen's $g graph" 1; continue 2; }
    done
done
"$BIN/daggen" --graph gauss -S 4 --procs 2 --seed 3 | grep "^edge " | awk '{ print $2 ">" $3 }' | sort | tr '\n' ' ' >"$tmp/ge4"
[ "$(cat "$tmp/ge4")" = "T1_1>T1_2 T1_1>T1_3 T1_1>T1_4 T1_2>T2_2 T1_3>T2_3 T1_4>T2_4 T2_2>T2_3 T2_2>T2_4 T2_3>T3_3 T2_4>T3_4 T3_3>T3_4 " ]
check "daggen --graph gauss -S 4: the 11 edges of Gaussian elimination on a 4 x 4 matrix ($(cat "$tmp/ge4"))" $?
"$BIN/daggen" --graph fft -S 8 --procs 4 --seed 9 -f dot -o "$tmp/f.dot" &&
    "$BIN/daggen" --graph fft -S 8 --procs 4 --seed 9 >"$tmp/f.dag"
check "daggen --graph fft, text and DOT" $?
for a in heft cpop dcpop; do
    x=$(makespan $a "$tmp/f.dag") y=$(makespan $a "$tmp/f.dot")
    [ -n "$x" ] && [ "$x" = "$y" ]; check "daggen fft text and DOT schedule alike ($a: $x, $y)" $?
done
run "daggen --graph fft -S 12 refused" 2 "size=12: the FFT's input points must be a power of 2 from 2 to 262144" \
    "$BIN/daggen" --graph fft -S 12
run "daggen --graph gauss -S 1 refused" 2 "size=1: the matrix size must be 2 to 4471" "$BIN/daggen" --graph gauss -S 1
run "daggen --graph gauss -S 5000 refused" 2 "size=5000: the matrix size must be 2 to 4471" "$BIN/daggen" --graph gauss -S 5000
run "daggen --graph fft with --alpha refused" 2 "--alpha is for --graph random" "$BIN/daggen" --graph fft --alpha 2
run "daggen --size on a random graph refused" 2 "--size is for --graph fft or gauss" "$BIN/daggen" -S 8
run "daggen unknown --graph" 2 "unknown graph type 'cholesky' (valid: random, fft, gauss)" "$BIN/daggen" --graph cholesky
run "daggen --size not a number" 2 "--size 'x' must be a positive integer" "$BIN/daggen" --graph fft --size x
run "daggen bad alpha" 2 "--alpha '0' must be a number in (0, 10000\]" "$BIN/daggen" -v 10 --alpha 0
# alpha 3e9: a level's width 3e9 sqrt(v) cast to int, then GSL's
# gsl_rng_uniform_int(r, n > 2^32) aborted the program (exit 134).
run "daggen --alpha 3e9 refused (GSL aborted)" 2 "daggen: --alpha '3e9' must be a number in (0, 10000\]" \
    timeout 10 "$BIN/daggen" -v 10 --alpha 3e9
run "daggen --alpha 1e4 taken" 0 "^task t10 " timeout 10 "$BIN/daggen" -v 10 --alpha 1e4
run "dagexp --alpha 3e9 refused (GSL aborted)" 2 "dagexp: --alpha: '3e+09' must be a number in (0, 10000\]" \
    timeout 10 "$BIN/dagexp" -v 10 --alpha 3e9 -n 1
run "daggen -v 3e9 (not an integer)" 2 "--tasks '3e9' must be an integer in \[1, 10000000\]" "$BIN/daggen" -v 3e9
run "daggen -v 2^32 + 10 (was 10 through an int)" 2 "--tasks '4294967306' must be an integer" \
    "$BIN/daggen" -v 4294967306
run "daggen --procs 2^31" 2 "--procs '2147483648' must be an integer in \[1, 1000000\]" \
    "$BIN/daggen" --procs 2147483648
run "daggen --outdeg 0" 2 "--outdeg '0' must be 'v' or an integer in \[1, 2147483647\]" "$BIN/daggen" --outdeg 0
run "daggen --outdeg 2^31 - 1 taken" 0 "^task t3 " "$BIN/daggen" -v 3 --outdeg 2147483647
# Parameters whose costs add up past 1e300: bad input (2), as daggen says, not a failure (1).
run "daggen --wdag 2e299: costs past 1e300 refused" 2 "costs add up to more than 1e+300" \
    "$BIN/daggen" -q --wdag 2e299 -v 200
run "dagexp --wdag 2e299: costs past 1e300 refused" 2 "dagexp: task 't[0-9]*' .*costs add up to more than 1e+300" \
    "$BIN/dagexp" --wdag 2e299 -v 200 -n 1
run "dagexp --procs 1e8 refused" 2 "--procs: '1e+08' must be a whole number in \[0, 10000000\]" \
    "$BIN/dagexp" --procs 1e8
# The header is the command that writes this very graph: only options daggen
# takes, each value as it reads back (with %g, 0.123456789 came back as
# 0.123457: another graph), and the graph it writes is read by dagsched.
rt=1
for opts in "-v 40 --alpha 0.123456789 --outdeg 4 --ccr 0.3333333333333333 --wdag 12.3456789 --beta 1.23456789012345 --procs 3 --seed 77" \
            "--graph fft --size 8 --ccr 0.7071067811865476 --procs 5 --seed 4 -f dot" \
            "--graph gauss --size 6 --wdag 33.33333333 --seed 9"; do
    # shellcheck disable=SC2086
    "$BIN/daggen" $opts -o "$tmp/rt1.dag" || rt=0
    cmd=$(head -n 1 "$tmp/rt1.dag" | sed -e 's,^# daggen ,,' -e 's,^// daggen ,,')
    # shellcheck disable=SC2086
    "$BIN/daggen" $cmd -o "$tmp/rt2.dag" || { rt=0; echo "   the header's command failed: $cmd"; }
    cmp -s "$tmp/rt1.dag" "$tmp/rt2.dag" || { rt=0; echo "   another graph from: $cmd"; }
    [ -n "$(makespan heft "$tmp/rt2.dag")" ] || rt=0
done
[ $rt = 1 ]; check "daggen's header writes the very same graph again (text and DOT), which dagsched reads" $?
# The costs' total: at most DAG_MAX_TOTAL = 1e300 (dag/dag.h), refused past it as
# bad input naming the task or edge (two tasks of 1e308 once summed to inf and
# every schedule failed its check, "produced an invalid schedule (a bug)").
printf 'processors 2\ntask a 1e308 1e308\ntask b 1e308 1e308\nedge a b 1e308\n' >"$tmp/huge.dag"
printf 'processors 1\ntask a 5e299\ntask b 5e299\nedge a b 0\n' >"$tmp/limit.dag"
printf 'processors 1\ntask a 5e299\ntask b 5e299\nedge a b 1e285\n' >"$tmp/past.dag"
for a in heft cpop dcpop; do
    run "dagsched -a $a: costs of 1e308 refused as bad input, named (not 'a bug')" 2 \
        "^dagsched: $tmp/huge.dag: task 'a' (largest cost 1e+308): the costs add up to more than 1e+300" \
        "$BIN/dagsched" -a $a "$tmp/huge.dag"
    ! grep -q "a bug" "$tmp/out"; check "dagsched -a $a: 1e308 is not called a bug" $?
    run "dagsched -a $a: costs adding up to 1e300 taken, makespan 1e+300" 0 "^makespan 1e+300$" \
        "$BIN/dagsched" --summary -a $a "$tmp/limit.dag"
done
run "dagsched: an edge taking the total past 1e300 refused, named" 2 \
    "edge a -> b (communication cost 1e+285): the costs add up to more than 1e+300" \
    "$BIN/dagsched" "$tmp/past.dag"
run "daggen --wdag 2.5e299 (costs up to 4 wdag = 1e300) taken" 0 "^task t3 " \
    "$BIN/daggen" -v 3 --wdag 2.5e299 --ccr 0
run "daggen --wdag 1e308 refused, named" 2 "wdag=1e+308: the mean cost must be at most 2.5e+299" \
    "$BIN/daggen" -v 3 --wdag 1e308
run "daggen --ccr 1e10 --wdag 2.5e299 refused, named" 2 \
    "ccr=1e+10 with wdag=2.5e+299: the edges' costs, drawn up to 2 ccr wdag = inf" \
    "$BIN/daggen" -v 3 --wdag 2.5e299 --ccr 1e10
run "daggen bad beta" 2 "beta=3" "$BIN/daggen" -v 10 --beta 3
run "daggen -v not a number" 2 "--tasks 'ten'" "$BIN/daggen" -v ten
run "daggen bad outdeg" 2 "--outdeg 'w'" "$BIN/daggen" --outdeg w
run "daggen unwritable output" 1 "daggen: --output /nonexistent/g.dag: cannot write there: No such file or directory" "$BIN/daggen" -o /nonexistent/g.dag

# ---- dagexp: a line of the experiment is its graph, regenerated ------------------
"$BIN/dagexp" -v 30 --ccr 2 -n 5 --seed 3 >"$tmp/exp.csv" 2>"$tmp/exp.err"
check "dagexp runs" $?
lines=$(wc -l <"$tmp/exp.csv")
[ "$lines" = 6 ]; check "dagexp: header and 5 graphs (got $lines lines)" $?
grep -q "^dagexp: \[1/1\] v=30 .*5 graphs" "$tmp/exp.err"; check "dagexp reports progress" $?
# graph,size,v,alpha,ccr,outdeg,beta,q,wdag,seed,...,heft_makespan (15), cpop (20), dcpop (25)
sed -n 3p "$tmp/exp.csv" | awk -F, '{ print $3, $4, $5, $6, $7, $8, $9, $10, $15, $20, $25 }' >"$tmp/line"
read -r v al cc od be q w seed mh mc md <"$tmp/line"
"$BIN/daggen" -v "$v" --alpha "$al" --ccr "$cc" --outdeg "$od" --beta "$be" --procs "$q" \
    --wdag "$w" --seed "$seed" >"$tmp/line.dag"
ok=1
for pair in heft:$mh cpop:$mc dcpop:$md; do
    a=${pair%%:*} want=${pair#*:}
    got=$(makespan "$a" "$tmp/line.dag")
    awk -v x="$got" -v y="$want" 'BEGIN { exit !(x != "" && (x - y) ^ 2 < 1e-12 * y * y) }' || ok=0
done
[ $ok = 1 ]; check "dagexp's graph (seed $seed), rewritten by daggen, schedules to the same makespans" $?
head -n 1 "$tmp/exp.csv" | grep -q '^graph,size,v,alpha,ccr,outdeg,beta,q,wdag,seed,height,edges,'
check "dagexp's header names the graph type and size first" $?

# The same for an FFT and a Gaussian-elimination experiment: a line's graph,
# rewritten by daggen --graph, schedules to the same makespans.
for kind in fft:8:39 gauss:7:27; do
    g=${kind%%:*} rest=${kind#*:}; m=${rest%%:*} n=${rest#*:}
    "$BIN/dagexp" --graph "$g" -S "$m" --ccr 1 --procs 3,5 -n 4 --seed 5 >"$tmp/$g.csv" 2>/dev/null
    check "dagexp --graph $g runs" $?
    awk -F, -v g="$g" -v m="$m" -v n="$n" 'NR > 1 && !($1 == g && $2 == m && $3 == n && $4 == "" && $6 == "") { bad++ }
        END { exit !(NR == 5 && bad == 0) }' "$tmp/$g.csv"
    check "dagexp --graph $g -S $m: 4 lines of $n tasks, alpha and outdeg empty" $?
    sed -n 2p "$tmp/$g.csv" | awk -F, '{ print $5, $7, $8, $9, $10, $15, $20, $25 }' >"$tmp/line"
    read -r cc be q w seed mh mc md <"$tmp/line"
    "$BIN/daggen" --graph "$g" --size "$m" --ccr "$cc" --beta "$be" --procs "$q" --wdag "$w" \
        --seed "$seed" >"$tmp/line.dag"
    ok=1
    for pair in heft:$mh cpop:$mc dcpop:$md; do
        a=${pair%%:*} want=${pair#*:}
        got=$(makespan "$a" "$tmp/line.dag")
        awk -v x="$got" -v y="$want" 'BEGIN { exit !(x != "" && (x - y) ^ 2 < 1e-12 * y * y) }' || ok=0
    done
    [ $ok = 1 ]; check "dagexp's $g graph (seed $seed), rewritten by daggen, schedules to the same makespans" $?
done
run "dagexp --graph fft without --size" 2 "--graph fft needs --size LIST" "$BIN/dagexp" --graph fft
run "dagexp --graph gauss with --tasks" 2 "--tasks is for --graph random" \
    "$BIN/dagexp" --graph gauss -S 5 -v 20
run "dagexp --size on random graphs" 2 "--size is for --graph fft or gauss" "$BIN/dagexp" -S 5
run "dagexp --graph fft -S 6 (not a power of 2)" 2 "size=6: the FFT's input points must be a power of 2" \
    "$BIN/dagexp" --graph fft -S 8,6
run "dagexp unknown --graph" 2 "unknown graph type 'lu' (valid: random, fft, gauss)" \
    "$BIN/dagexp" --graph lu
run "dagexp bad list" 2 "--ccr 'x'" "$BIN/dagexp" --ccr x
run "dagexp bad beta value" 2 "beta=4" "$BIN/dagexp" -b 0.5,4

# ---- bad input: one line naming it, exit 2 --------------------------------------
printf 'processors 2\ntask a 1 1\ntask b 2 2\ntask c 3 3\nedge a b 1\nedge b c 1\nedge c a 1\n' >"$tmp/cycle.dag"
printf 'processors 3\ntask a 1 2 3\ntask b 4 5\nedge a b 1\n' >"$tmp/missing.dag"
printf 'processors 2\ntask a 1 1\ntask b 1 -4\nedge a b 1\n' >"$tmp/negative.dag"
printf 'processors 2\ntask a 1 1\nedge a ghost 1\n' >"$tmp/unknown.dag"
printf 'digraph { a [cost="1,2"]; b [cost="3"]; a -> b [comm=1] }\n' >"$tmp/missing.dot"
for t in "cycle.dag:cycle: a -> b -> c -> a" \
         "missing.dag:missing.dag:3: task 'b' has 2 costs, expected 3" \
         "negative.dag:negative.dag:3: task 'b': cost -4 on processor 2 is negative" \
         "unknown.dag:unknown.dag:3: edge a -> ghost: unknown task 'ghost'" \
         "missing.dot:task 'b' has 1 cost, expected 2"; do
    f=${t%%:*} msg=${t#*:}
    "$BIN/dagsched" "$tmp/$f" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    [ $rc = 2 ] && [ "$(wc -l <"$tmp/err")" = 1 ] && grep -qF -- "$msg" "$tmp/err" && [ ! -s "$tmp/out" ]
    check "bad input $f: exit 2, one line '$msg' (exit $rc: $(head -c 200 "$tmp/err"))" $?
done
run "missing file: bad input, exit 2" 2 "dagsched: /nonexistent.dag: No such file or directory" "$BIN/dagsched" /nonexistent.dag
run "unknown algorithm" 2 "valid: heft, cpop, dcpop" "$BIN/dagsched" -a peft "$EX/chain.dag"
run "no FILE" 2 "no task graph FILE" "$BIN/dagsched" -a heft
run "two FILEs" 2 "one FILE only" "$BIN/dagsched" "$EX/chain.dag" "$EX/chain.dag"
run "bad --format" 2 "--format 'xml'" "$BIN/dagsched" -f xml "$EX/chain.dag"
run "unknown option" 2 "unknown option '--bogus'" "$BIN/dagsched" --bogus

# ---- bin/stats --groups: reproduce-dag's means and standard deviations ----------------
got=$(printf 'a 1\na 3\nb 2\n\nb 4\na 5\n' | "$BIN/stats" --groups | tr '\n' ';')
[ "$got" = "a 2 1.41421 2 1 3;b 3 1.41421 2 2 4;a 5 0 1 5 5;" ]
check "stats --groups: one line per run of a key (got $got)" $?
run "stats --groups: a line without its number" 2 "line 2: expected KEY NUMBER" \
    sh -c "printf 'a 1\nb\n' | '$BIN/stats' --groups"
run "stats: unknown option" 2 "unknown option '--bogus'" "$BIN/stats" --bogus
run "stats: NaN refused, naming the line" 2 "stats: line 2: 'nan' is not a finite number" \
    sh -c "printf '1\nnan\n' | '$BIN/stats'"
run "stats: 1e999 (infinite) refused" 2 "'1e999' is not a finite number" sh -c "echo 1e999 | '$BIN/stats'"
run "stats: 1e308 taken" 0 "^1e+308 0 1 1e+308 1e+308" sh -c "echo 1e308 | '$BIN/stats'"

# ---- the quick reproduction ---------------------------------------------------------
if command -v gnuplot >/dev/null 2>&1; then
    BIN=$BIN RESULTS=$tmp/results "$REPO/scripts/reproduce-dag" --quick >"$tmp/repro.log" 2>&1
    rc=$?
    check "reproduce-dag --quick finishes (exit $rc)" $rc
    [ $rc = 0 ] || tail -n 5 "$tmp/repro.log"
    R=$tmp/results/dag
    for f in README.md figures-tasks.csv figures-procs.csv times-tasks.csv times-procs.csv \
             sweep.csv graphs-tasks.csv graphs-procs.csv graphs-sweep.csv fig5-running-time.png \
             fig5b-scheduler-time.png fig6-slr.png fig7-speedup.png gain.png; do
        [ -s "$R/$f" ]; check "reproduce-dag: $f" $?
    done
    # x = tasks: random v = 20 .. 90 (8), FFT 4, 8, 16 points (15, 39, 95
    # tasks), Gaussian elimination m = 6 .. 13 (20 .. 90 tasks).
    got=$(awk -F, 'NR > 1 { printf "%s:%s ", $1, $2 }' "$R/figures-tasks.csv")
    [ "$got" = "random:20 random:30 random:40 random:50 random:60 random:70 random:80 random:90 fft:15 fft:39 fft:95 gauss:20 gauss:27 gauss:35 gauss:44 gauss:54 gauss:65 gauss:77 gauss:90 " ]
    check "figures-tasks.csv: the kinds and numbers of tasks (got $got)" $?
    n=$(awk -F, 'NR > 1' "$R/graphs-tasks.csv" | wc -l)
    [ "$n" = 570 ]; check "graphs-tasks.csv: 19 x 30 graphs (got $n)" $?
    got=$(awk -F, 'NR > 1 { n[$1]++; if ($1 == "random") q = q $2 " " } END { print n["random"], n["fft"], n["gauss"], q }' "$R/figures-procs.csv")
    [ "$got" = "8 8 8 20 30 40 50 60 70 80 90 " ]
    check "figures-procs.csv: q = 20 .. 90 for each kind (got $got)" $?
    # The processors reading schedules the same graphs at every q.
    got=$(awk -F, 'NR > 1 { s[$8] = s[$8] $1 $2 $10 "," } END { for (q in s) print s[q] }' "$R/graphs-procs.csv" | sort -u | wc -l)
    [ "$got" = 1 ]; check "graphs-procs.csv: the same graphs (kind, size, seed) at every q (got $got sets)" $?
    n=$(grep -c "^| .* | [0-9]* of 6 readings |$" "$R/README.md")
    [ "$n" = 10 ] && grep -q "^| DCPOP 30-40% better than CPOP" "$R/README.md" &&
        grep -q '^\*\*Which reading gives the "decreasing average time"?\*\* .* in$' "$R/README.md"
    check "README.md: the paper's claims under the six readings, 'held in X of 6' ($n rows)" $?
    # Every SLR at least 1, in every graph of every experiment.
    bad=$(awk -F, 'FNR == 1 { delete s; for (i = 1; i <= NF; i++) if ($i ~ /_slr$/) s[i] = 1; next }
                   { for (i in s) if ($i < 1 - 1e-9) n++ } END { print n + 0 }' \
          "$R/graphs-tasks.csv" "$R/graphs-procs.csv" "$R/graphs-sweep.csv")
    [ "$bad" = 0 ]; check "SLR >= 1 in every experiment line (got $bad below)" $?
    # A gain column is the mean of the graphs' own gains: recomputed here
    # for the first point.
    want=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
           $1 == "random" && $3 == 20 { s += 100 * ($c["cpop_makespan"] - $c["dcpop_makespan"]) / $c["cpop_makespan"]; n++ }
           END { printf "%.4f", s / n }' "$R/graphs-tasks.csv")
    got=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next } NR == 2 { printf "%.4f", $c["dcpop_gain_cpop"] }' "$R/figures-tasks.csv")
    [ -n "$want" ] && awk -v a="$want" -v b="$got" 'BEGIN { exit !((a - b) ^ 2 < 1e-6) }'
    check "figures-tasks.csv: DCPOP's gain over CPOP is the mean per-graph gain ($got, recomputed $want)" $?
else
    skip "gnuplot not found: reproduce-dag not tested"
fi

# Tiny and huge communication costs in DOT: written so they read back
# (a DOT numeral has no exponent; tests/fuzz/crashes/dag_dot-1).
"$BIN/daggen" -v 8 --ccr 1e-7 -f dot -o "$tmp/tiny.dot" &&
    grep -q 'comm="[0-9.]*e-' "$tmp/tiny.dot" && "$BIN/dagsched" "$tmp/tiny.dot" >/dev/null
check "daggen --ccr 1e-7 -f dot: the exponent costs written quoted, read back by dagsched" $?

# A task name that tries to end gnuplot's data block and run a command: a
# name with a line break is refused (it is one field of one line), naming the
# line; names with quotes, backquotes, $, ; and spaces are drawn as data.
# Nothing runs, whatever the name.
if command -v gnuplot >/dev/null 2>&1; then
    cat >"$tmp/evil.dot" <<EOF
digraph g {
  processors = 2;
  "a
EOD
system('touch $tmp/pwned')
\$copies << EOD" [cost="3,4"];
}
EOF
    "$BIN/dagsched" -g "$tmp/evil.png" "$tmp/evil.dot" >"$tmp/evil.out" 2>&1
    rc=$?
    [ $rc = 2 ] && [ ! -e "$tmp/evil.png" ] && [ ! -e "$tmp/pwned" ] &&
        [ "$(wc -l <"$tmp/evil.out")" = 1 ] &&
        grep -q "evil.dot:[0-9]*: task 'a\\\\nEOD\\\\nsystem(.*control character" "$tmp/evil.out"
    check "a task name with a line break is refused in one line, the name quoted; nothing runs (exit $rc)" $?
    cat >"$tmp/evil2.dot" <<EOF
digraph g {
  processors = 2;
  "a'); system('touch $tmp/pwned'); print('" [cost="3,4"];
  "b\\\";\`touch $tmp/pwned2\` \$(touch $tmp/pwned3); x" [cost="2,2"];
  "a'); system('touch $tmp/pwned'); print('" -> "b\\\";\`touch $tmp/pwned2\` \$(touch $tmp/pwned3); x" [comm=1];
}
EOF
    "$BIN/dagsched" -g "$tmp/evil 'x\".png" "$tmp/evil2.dot" >"$tmp/evil2.out" 2>&1
    rc=$?
    [ $rc = 0 ] && [ -s "$tmp/evil 'x\".png" ] && [ ! -e "$tmp/pwned" ] && [ ! -e "$tmp/pwned2" ] &&
        [ ! -e "$tmp/pwned3" ] && grep -q "system('touch" "$tmp/evil2.out"
    check "hostile task names (quotes, backquotes, \$(), ;) and output name are drawn as data (exit $rc)" $?
    # -g on an existing folder: refused, the folder left alone.
    mkdir "$tmp/adir"
    "$BIN/dagsched" -g "$tmp/adir" "$REPO/dag/examples/topcuoglu.dag" >"$tmp/adir.out" 2>&1
    rc=$?
    [ $rc = 1 ] && [ -d "$tmp/adir" ] && grep -q "cannot write there: Is a directory" "$tmp/adir.out"
    check "-g naming an existing folder is refused and the folder kept (exit $rc)" $?
    # gnuplot failing (a folder that does not exist): nothing is made.
    "$BIN/dagsched" -g "$tmp/nodir/x.png" "$REPO/dag/examples/topcuoglu.dag" >"$tmp/nodir.out" 2>&1
    rc=$?
    [ $rc = 1 ] && [ ! -e "$tmp/nodir" ]
    check "-g into a missing folder fails (exit $rc) and makes nothing" $?
    leftover=$(find "${TMPDIR:-/tmp}" -maxdepth 1 -name 'dagsched.*' -newer "$tmp/evil.dot" 2>/dev/null)
    [ -z "$leftover" ]; check "no temporary folder of dagsched left behind ($leftover)" $?
fi

finish
