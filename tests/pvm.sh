#!/bin/sh
# pvm.sh: the PVM coordinator and workers on a private one-host virtual
# machine: every scheme with 1-4 workers gives bin/mandel's image bit for
# bit and a run record covering every row once; a killed worker's chunk is
# served again; workers of a killed coordinator exit; the console's
# `spawn -> coordinator` works; clear errors. Starts its own pvmd (own
# PVM_TMP) and halts it; ends only the processes it started.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
tmp=$(mktemp -d /tmp/dtss-pvmtest.XXXXXX)
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/pvmlib.sh"
cleanup() {
    pvm_down
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
export PVM_ALLOW_ROOT=yes PVM_TMP="$tmp/pvm"    # (no pvmd yet)

# Workers running under our pvmd (its children named worker).
workers() { pvm_tasks worker; }

# ---- errors before any pvmd runs ----------------------------------------------
run "no pvmd: one clear line" 1 "no PVM daemon" "$BIN/coordinator" --local 1 -q
lines=$(wc -l <"$tmp/out")
[ "$lines" -eq 1 ]; check "no pvmd: exactly one line of error (got $lines)" $?
if [ "$(id -u)" = 0 ]; then
    run "as root without PVM_ALLOW_ROOT: one line saying what to do" 1 "source the cluster's env file" \
        env -u PVM_ALLOW_ROOT "$BIN/coordinator" --local 1 -q
    lines=$(wc -l <"$tmp/out")
    [ "$lines" -eq 1 ]; check "as root: not PVM's banner ($lines lines)" $?
else
    skip "not root: the root banner check needs root"
fi
run "bad option" 2 "unknown option '--bogus'" "$BIN/coordinator" --bogus
run "unknown scheme lists the valid ones, tree and auto" 2 "af, dtss, dtss-m), tree or auto" "$BIN/coordinator" -s nosuch
run "bad scheme parameter" 2 "F=0.5" "$BIN/coordinator" -s tss --F 0.5
run "--local with --hosts" 2 "does not go with" "$BIN/coordinator" --local 2 --hosts a
run "coordinator --help" 0 "spawn" "$BIN/coordinator" --help
run "worker outside PVM" 1 "not spawned by a coordinator\|no PVM daemon" "$BIN/worker"
run "worker --probe on one CPU" 0 " backend=proc .* cpus=1$" taskset -c 0 "$BIN/worker" --probe --backend proc
if [ "$(nproc)" -ge 2 ]; then
    run "worker --probe counts the CPUs it may use" 0 " cpus=2$" taskset -c 0,1 "$BIN/worker" --probe --backend proc
else
    skip "one CPU: the probe's count of two CPUs not checked"
fi

# ---- a private virtual machine --------------------------------------------------
pvm_up "$tmp" "$BIN"
check "private pvmd started (pid $pvmd_pid)" $?
cd "$tmp" || exit 1

run "one-host VM without --local: no hosts" 1 "no hosts to use" "$BIN/coordinator" -q
run "worker not in the search path" 1 "not in PVM's search path" \
    "$BIN/coordinator" --local 1 --worker no-such-worker -q
run "--hosts names an unknown host: bad input" 2 "no host 'nohost'" "$BIN/coordinator" --hosts nohost -q

# ---- every scheme, 1-4 workers ---------------------------------------------------
"$BIN/mandel" -S 96 -m 400 -o ref.pgm -q
for s in dtss tss gss fss css pss qss ess rss auto tree; do
    for n in 1 2 3 4; do
        rm -f img.pgm rec.csv
        timeout 60 "$BIN/coordinator" -s "$s" --local "$n" -S 96 -m 400 -o img.pgm \
            -r rec.csv -q >out.txt 2>&1
        rc=$?
        cmp -s ref.pgm img.pgm
        check "$s with $n workers: image identical to bin/mandel's (exit $rc)" $?
        # Done chunks cover the 96 rows of the sampled loop exactly once.
        cover=$("$BIN/record" rec.csv chunk start,size,done 2>/dev/null |
                awk -F, '$3 == 1 { for (k = $1; k < $1 + $2; k++) c[k]++ }
                 END { bad = 0; for (k = 0; k < 96; k++) if (c[k] != 1) bad++; print bad }')
        [ "$cover" = 0 ]; check "$s with $n workers: record covers every row once" $?
        grep -q "^$s: W1 .* Finish .* Imbalance " out.txt
        check "$s with $n workers: summary line" $?
        if [ "$s" = auto ]; then        # the choice and when (sim/select.h)
            grep -q "^run,auto,$n,96,.*,auto=css@0;[a-z-]*@[0-9.e-]*[;,]" rec.csv
            check "auto with $n workers: the record names the scheme chosen ($(grep -o 'auto=[^,]*' rec.csv))" $?
        fi
    done
done
nw=$("$BIN/record" --count rec.csv worker)
[ "$nw" = 4 ]; check "record has a line per worker" $?
# The loop over columns (issue 25): a 96 x 72 image, so that the 96 columns
# are not the 72 rows; the same image for every scheme.
"$BIN/mandel" -W 96 -H 72 -m 400 -o refc.pgm -q
for s in dtss tss tree; do
    rm -f img.pgm rec.csv
    timeout 60 "$BIN/coordinator" -s "$s" --local 3 -W 96 -H 72 -m 400 --columns -o img.pgm \
        -r rec.csv -q >out.txt 2>&1
    rc=$?
    cmp -s refc.pgm img.pgm; check "$s --columns: image identical to bin/mandel's (exit $rc)" $?
    [ "$("$BIN/record" rec.csv run iterations)" = 96 ] && [ "$("$BIN/record" rec.csv run loop)" = columns ]
    check "$s --columns: 96 iterations, loop=columns in the record" $?
done
"$BIN/coordinator" -s tss --local 2 -W 96 -H 72 -m 400 -o img.pgm -r rec.csv -q >/dev/null 2>&1
[ "$("$BIN/record" rec.csv run iterations)" = 72 ] && [ "$("$BIN/record" rec.csv run loop)" = rows ]
check "without --columns: 72 rows, loop=rows in the record" $?
"$BIN/coordinator" -s dtss --local 2 -S 64 -m 100 -o img.pgm -r rec.csv -q >/dev/null 2>&1
"$BIN/record" rec.csv report Q,A | awk -F, '$1 >= 1 && $2 > 0 { n++ } END { exit !(n >= 2) }'
check "record holds the workers' A_i reports" $?
"$BIN/record" rec.csv worker backend,host,seen_host |
    awk -F, '$1 == "proc" && $2 == $3 { n++ } END { exit !(n == 2) }'
check "workers say hello: host name, probe back-end" $?

# A Tree worker asked for work before its own job came (PVM orders messages
# only between two tasks, so a partner's STEAL can pass the master's JOB), and
# while it computes lines that end in a cheap span (bin/tree_early plays the
# master and the thief of one bin/integral, then one bin/worker).
timeout 120 "$BIN/tree_early" integral worker >early.txt 2>&1
rc=$?
[ $rc = 0 ] && grep -qx "12 passed, 0 failed" early.txt
check "tree: a STEAL before the job, and one between lines, answered with part of the range (exit $rc; $(tail -n 1 early.txt)$(grep -m1 '^FAIL' early.txt | sed 's/^/; /'))" $?

# A fifth model, written by docs/runtime.md's "Adding a model" on core/ and
# transport.h only: its sums add up, the base verbs take its handle.
timeout 120 "$BIN/toy_model" --local 3 --n 100000 >toy.txt 2>&1
rc=$?
[ $rc = 0 ] && grep -qx "7 passed, 0 failed" toy.txt
check "a toy fifth model on core/ and transport.h (exit $rc; $(tail -n 1 toy.txt)$(grep -m1 '^FAIL' toy.txt | sed 's/^/; /'))" $?

# ---- the PVM console's spawn -> coordinator -----------------------------------------
rm -f con.pgm
(echo "spawn -> coordinator --local 2 -S 96 -m 400 -o con.pgm -r con.csv"
 for _ in $(seq 100); do [ -e con.csv ] && break; sleep 0.1; done
 sleep 0.5; echo quit) |
    timeout 20 pvm >console.txt 2>&1
grep -q "dtss: W1 .* Finish" console.txt; check "console spawn prints the summary" $?
cmp -s ref.pgm con.pgm; check "console spawn writes the same image" $?

# ---- a worker killed mid-run ------------------------------------------------------
"$BIN/mandel" -S 640 -m 20000 -o big.pgm -q
for s in dtss tree; do
    rm -f kill.pgm kill.csv
    "$BIN/coordinator" -s $s --local 3 -S 640 -m 20000 -o kill.pgm -r kill.csv >kill.txt 2>&1 &
    coord=$!
    victim=
    for _ in $(seq 100); do
        victim=$(workers | head -n 1)
        [ -n "$victim" ] && break
        sleep 0.05
    done
    sleep 0.5
    [ -n "$victim" ] && kill -9 "$victim"
    wait_for "$coord" 120
    [ "$rc" = 0 ]; check "$s, killed worker: the coordinator finishes (exit $rc)" $?
    grep -q "worker [0-9] on .* exited" kill.txt
    check "$s, killed worker: the coordinator noticed" $?
    cmp -s big.pgm kill.pgm; check "$s, killed worker: image identical to bin/mandel's" $?
    "$BIN/record" kill.csv chunk reissue,done | awk -F, '$1 == 1 && $2 == 1 { n++ } END { exit !(n >= 1) }'
    check "$s, killed worker: the record shows its rows served again" $?
    cover=$("$BIN/record" kill.csv chunk start,size,done |
            awk -F, '$3 == 1 { for (k = $1; k < $1 + $2; k++) c[k]++ }
             END { bad = 0; for (k = 0; k < 640; k++) if (c[k] != 1) bad++; print bad }')
    [ "$cover" = 0 ]; check "$s, killed worker: done chunks cover every row once" $?
done

# ---- the coordinator killed mid-run: its workers exit ---------------------------------
# The whole run takes seconds (1000x1000 at 20000 iterations on 2 workers);
# the workers must be gone within 1.5 s of the kill, long before it would end.
"$BIN/coordinator" --local 2 -S 1000 -m 20000 -o x.pgm -r x.csv >/dev/null 2>&1 &
coord=$!
for _ in $(seq 100); do
    [ -n "$(workers)" ] && break
    sleep 0.05
done
sleep 0.3
kill -9 "$coord"
wait "$coord" 2>/dev/null
left=1
for _ in $(seq 15); do
    [ -z "$(workers)" ] && { left=0; break; }
    sleep 0.1
done
check "coordinator killed: its workers exit within 1.5 s" $left
[ ! -e x.csv ]; check "coordinator killed: it had not finished (no run record)" $?

# ---- Ctrl-C: says what was lost, leaves no file of an earlier run -------------------
echo "an earlier run" >old.csv
echo "an earlier image" >old.pgm
"$BIN/coordinator" --local 2 -S 1000 -m 20000 -o old.pgm -r old.csv >int.out 2>int.err &
coord=$!
for _ in $(seq 100); do
    [ -n "$(workers)" ] && break
    sleep 0.05
done
sleep 0.5
kill -INT "$coord"
wait_for "$coord" 10
[ "$rc" = 130 ] && grep -q "interrupted: [0-9]* of 1000 rows were in; no image, no run record" int.err
check "Ctrl-C: exit 130, the rows lost said (exit $rc: $(tail -n 1 int.err))" $?
[ ! -e old.csv ] && [ ! -e old.pgm ]
check "Ctrl-C: no earlier run's record or image left to pass for this one's" $?
left=1
for _ in $(seq 20); do
    [ -z "$(workers)" ] && { left=0; break; }
    sleep 0.1
done
check "Ctrl-C: the workers exit too" $left

# ---- progress on a terminal only ---------------------------------------------------
if command -v script >/dev/null 2>&1; then
    script -q -c "$BIN/coordinator --local 2 -S 300 -m 2000 -o none -r none" /dev/null |
        tr '\r' '\n' >tty.out 2>&1
    grep -q "^coordinator: 300 of 300 rows in, [0-9]* chunks, [0-9.]* s" tty.out
    check "on a terminal: progress (rows in, chunks, time)" $?
    "$BIN/coordinator" --local 2 -S 300 -m 2000 -o none -r none >pipe.out 2>&1
    ! grep -q "rows in" pipe.out; check "not a terminal: no progress lines" $?
else
    skip "no script(1): progress on a terminal not checked"
fi

# ---- halt --------------------------------------------------------------------------
# More workers than PVM carries (its pvmd's select(): 505 ran, 510 aborted
# it): refused before anything starts, the virtual machine alive.
for prog in coordinator thin-pool yoon-tasks heat-pvm; do
    run "$prog --local 501: refused, naming the limit" 2 "local '501' must be an integer in \[1, 500\] (the most workers the pvm transport carries)" \
        "$BIN/$prog" --local 501
done
kill -0 "$pvmd_pid" 2>/dev/null && [ -z "$(pvm_tasks coordinator)$(pvm_tasks thin-pool)$(pvm_tasks yoon-tasks)$(pvm_tasks heat-pvm)" ]
check "the virtual machine alive after them, no task spawned" $?
pvm_down; check "pvmd halted" $?
finish
