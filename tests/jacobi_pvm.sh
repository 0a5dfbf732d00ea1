#!/bin/sh
# jacobi_pvm.sh: examples/jacobi.c, a user's own iterative program on the
# self-adjusting pool (dtss_pool_*), on a private one-host virtual machine.
# Known answer: an awk reference of the same sweeps (below: same formula, same
# order of operations, IEEE doubles) gives 32 sweeps and sum(x) =
# 84.9601951570247; bin/jacobi --sequential must print exactly that line, and
# every pool run (both strategies, 1 to 8 workers, workers trickling in) too,
# with the pool's own summary counting 32 iterations. Clear errors before any
# pvmd runs. Starts its own pvmd (own PVM_TMP) and halts it; ends only the
# processes it started.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
tmp=$(mktemp -d /tmp/dtss-jacobi.XXXXXX)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pvmlib.sh"
cleanup() {
    pvm_down
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
export PVM_ALLOW_ROOT=yes PVM_TMP="$tmp/pvm"    # (no pvmd yet)
J="$BIN/jacobi"

# ---- the known answer ------------------------------------------------------------
# The sweeps of examples/jacobi.c written again in awk: a_ii = 8,
# a_ij = 1/(i-j)^2, b_i = 1 + i mod 7, from x = 0 until no x_i moves by 1e-12.
awk 'BEGIN {
    n = 240
    for (i = 0; i < n; i++) x[i] = 0
    for (it = 1; ; it++) {
        for (i = 0; i < n; i++) {
            s = 1 + i % 7
            for (j = 0; j < n; j++) if (j != i) { d = i - j; s -= x[j] / (d * d) }
            nx[i] = s / 8
        }
        c = 0; sum = 0
        for (i = 0; i < n; i++) {
            e = nx[i] - x[i]; if (e < 0) e = -e; if (e > c) c = e
            x[i] = nx[i]; sum += x[i]
        }
        if (c < 1e-12) break
    }
    printf "240 unknowns, 8 tasks: %d sweeps, sum(x) = %.17g\n", it, sum
}' >"$tmp/ref"
answer="240 unknowns, 8 tasks: 32 sweeps, sum(x) = 84.9601951570247"
[ "$(cat "$tmp/ref")" = "$answer" ]
check "the awk reference: 32 sweeps, sum(x) = 84.9601951570247 ($(cat "$tmp/ref"))" $?
"$J" --sequential >"$tmp/seq" 2>&1
check "jacobi --sequential runs without PVM" $?
[ "$(cat "$tmp/seq")" = "$answer" ]
check "jacobi --sequential: exactly the reference's line ($(head -c 200 "$tmp/seq"))" $?

# ---- errors before any pvmd runs ----------------------------------------------
run "no pvmd: one clear line, exit 1" 1 "no PVM daemon" "$J"
lines=$(wc -l <"$tmp/out")
[ "$lines" -eq 1 ]; check "no pvmd: exactly one line of error (got $lines)" $?
run "--help names its own option and the pool's" 0 "--sequential" "$J" --help
grep -q -- "--strategy NAME" "$tmp/out" && grep -q -- "--delay S" "$tmp/out"
check "--help lists the pool options (dtss_pool_usage)" $?
run "--help after a pool option" 0 "usage: jacobi" "$J" --local 2 --help
run "an argument that is not an option: named, exit 2" 2 "not an option: 'x'" "$J" x
run "--sequential twice: the second named, exit 2" 2 "not an option: '--sequential'" \
    "$J" --sequential --sequential
run "a bad pool option value: named, exit 2" 2 "--delay '-1'" "$J" --delay -1
run "an unknown pool strategy: the valid ones, exit 2" 2 "adjust, static" "$J" --strategy greedy
run "a worker outside PVM" 1 "not spawned by a master\|no PVM daemon" "$J" --dtss-worker

# ---- on a private virtual machine ---------------------------------------------
pvm_up "$tmp" "$BIN"
check "private pvmd started (pid $pvmd_pid)" $?
cd "$tmp" || exit 1
run "a one-host VM without --local: no hosts" 1 "no hosts to use" "$J"
for s in adjust static; do
    for n in 1 2 3 8; do
        # (stdout alone: the sanitizers' leak report may follow on stderr)
        timeout 120 "$J" --local "$n" --strategy "$s" >"run.$s.$n" 2>"err.$s.$n"
        rc=$?
        [ "$rc" = 0 ] && [ "$(head -n 1 "run.$s.$n")" = "$answer" ]
        check "$s, $n workers: exactly the sequential line (exit $rc: $(head -c 200 "run.$s.$n") $(head -c 200 "err.$s.$n"))" $?
        cat "err.$s.$n" >>"run.$s.$n"
        grep -q "^$s: iterations 32, workers [0-9.]*, efficiency" "run.$s.$n"
        check "$s, $n workers: the pool's summary counts 32 iterations" $?
    done
done
# The journal (--journal, --resume: runtime/pool/journal.c): a complete run's
# journal resumed computes nothing; half of it (a torn cut) resumed computes
# the rest; the line is the sequential one each time.
timeout 120 "$J" --local 2 --journal jac.j >run.j 2>err.j
rc=$?
[ "$rc" = 0 ] && [ "$(head -n 1 run.j)" = "$answer" ] && [ -s jac.j ]
check "--journal: exactly the sequential line, the journal written (exit $rc)" $?
cp jac.j jac.keep
timeout 120 "$J" --local 2 --resume jac.j >run.r 2>&1
rc=$?
[ "$rc" = 0 ] && grep -qxF "$answer" run.r &&
    grep -q "resumed [1-9][0-9]* (results from the journal; 0 computed)" run.r
check "its journal resumed: exactly the sequential line, nothing computed (exit $rc: $(tail -n 1 run.r))" $?
head -c $(($(wc -c <jac.keep) / 2)) jac.keep >jac.half
timeout 120 "$J" --local 2 --resume jac.half >run.h 2>&1
rc=$?
[ "$rc" = 0 ] && grep -qxF "$answer" run.h &&
    grep -q "resumed [1-9][0-9]* (results from the journal; [1-9][0-9]* computed)" run.h
check "half of it resumed: exactly the sequential line, the rest computed (exit $rc: $(tail -n 1 run.h))" $?
# Workers asked for 0.05 s apart: they come during the run (the pool grows
# mid-sweep), and the numbers stay the same.
timeout 120 "$J" --local 8 --delay 0.05 >run.delay 2>err.delay
rc=$?
[ "$rc" = 0 ] && [ "$(head -n 1 run.delay)" = "$answer" ]
check "workers trickling in (delay 0.05 s): exactly the sequential line (exit $rc)" $?
[ -z "$(pvm_tasks jacobi)" ]
check "no worker left running after the runs" $?

cd / || exit 1
finish
