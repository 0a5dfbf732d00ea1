#!/bin/sh
# faults.sh: a hung worker (SIGSTOP: a frozen host) on a private one-host
# virtual machine, self-scheduled and under Tree-Scheduling. The master serves its late chunk again to a waiting
# worker (--late) and finishes: the image is bin/mandel's bit for bit, the
# run record shows the chunk served again and every row counted once; the
# hung worker is neither waited for nor killed. Stopped, then continued: the
# late result is refused, no row counted twice. --late 0: the old behaviour
# (the master waits). Starts its own pvmd (own PVM_TMP) and halts it; every
# process it stops it continues and ends, by PID.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
tmp=$(mktemp -d /tmp/dtss-faults.XXXXXX)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pvmlib.sh"
stopped=""                      # worker PIDs this test stopped
cleanup() {
    for pid in $stopped; do
        kill -CONT "$pid" 2>/dev/null
        kill "$pid" 2>/dev/null
    done
    pvm_down
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
export PVM_ALLOW_ROOT=yes PVM_TMP="$tmp/pvm"    # (no pvmd yet)

# ---- the option ------------------------------------------------------------------
run "--help lists --late" 0 "--late F\[,MIN\]" "$BIN/coordinator" --help
run "--late 0.5 refused" 2 "--late '0.5' must be FACTOR\[,MIN\]" "$BIN/coordinator" --late 0.5
run "--late 3,-1 refused" 2 "--late '3,-1'" "$BIN/coordinator" --late 3,-1
run "--late x refused" 2 "--late 'x'" "$BIN/coordinator" --late x
run "--late 3, refused" 2 "--late '3,'" "$BIN/coordinator" --late 3,

pvm_up "$tmp" "$BIN"
check "private pvmd started (pid $pvmd_pid)" $?
cd "$tmp" || exit 1

S=640 M=20000                   # 2-4 s of work: the stop lands mid-run
"$BIN/mandel" -S $S -m $M -o ref.pgm -q

# Done chunks cover the S rows exactly once: prints the rows that are not.
cover() {
    "$BIN/record" "$1" chunk start,size,done |
        awk -F, -v n=$S '$3 == 1 { for (k = $1; k < $1 + $2; k++) c[k]++ }
             END { bad = 0; for (k = 0; k < n; k++) if (c[k] != 1) bad++; print bad }'
}
# start NAME ARGS...: the coordinator in the background (timeout 60 s:
# a regression fails instead of hanging), $coord its PID, $victim the PID of
# one of its workers (the first found), stopped 0.6 s into the run.
start() {
    name=$1
    shift
    rm -f "$name.pgm" "$name.csv"
    timeout 60 "$BIN/coordinator" --local 3 -S $S -m $M -o "$name.pgm" -r "$name.csv" \
        "$@" >"$name.txt" 2>&1 &
    coord=$!
    victim=
    for _ in $(seq 100); do
        # (started after the run: a worker of the run before may be exiting)
        victim=$(pvm_tasks_since "$coord" worker | head -n 1)
        [ -n "$victim" ] && break
        sleep 0.05
    done
    sleep 0.6
    if [ -n "$victim" ] && kill -STOP "$victim"; then
        stopped="$stopped $victim"
    else
        victim=
    fi
}
# cont PID: continues a worker this test stopped.
cont() {
    kill -CONT "$1" 2>/dev/null
    stopped=$(echo "$stopped" | tr ' ' '\n' | grep -vx "$1" | tr '\n' ' ')
}

# ---- a worker stopped for good -----------------------------------------------------
start hung --late 3,1
[ -n "$victim" ]; check "hung: a worker stopped mid-run (pid $victim)" $?
wait "$coord"
rc=$?
[ "$rc" = 0 ]; check "hung: the coordinator finishes (exit $rc: $(tail -n 1 hung.txt))" $?
cmp -s ref.pgm hung.pgm; check "hung: image identical to bin/mandel's" $?
grep -q "late at worker [0-9]: out [0-9.]* s; served again to worker [0-9] as chunk" hung.txt
check "hung: the log says which chunk was served again" $?
late=$("$BIN/record" hung.csv chunk reissue,done 2>/dev/null |
       awk -F, '$1 == 1 && $2 == 1 { n++ } END { print n + 0 }')
[ "$late" -ge 1 ]; check "hung: the record shows the chunk served again and done ($late)" $?
[ "$(cover hung.csv)" = 0 ]; check "hung: done chunks cover every row once" $?
grep -q "still silent, its chunk done elsewhere: not waited for" hung.txt
check "hung: the master did not wait for the hung worker" $?
[ -n "$victim" ] && kill -0 "$victim" 2>/dev/null
check "hung: the hung worker was not killed" $?
if [ -n "$victim" ]; then
    cont "$victim"              # resumed after the run: it sees the stop, exits
    gone=1
    for _ in $(seq 50); do
        kill -0 "$victim" 2>/dev/null || { gone=0; break; }
        sleep 0.1
    done
    check "hung: continued after the run, it exits by itself within 5 s" $gone
    kill "$victim" 2>/dev/null
fi
hung_chunks=$late

# ---- stopped, then continued: the late result refused -------------------------------
start slow --late 3,1
[ -n "$victim" ]; check "stopped then continued: a worker stopped (pid $victim)" $?
for _ in $(seq 150); do         # until its chunk is served again (at most 15 s)
    grep -q "served again" slow.txt && break
    sleep 0.1
done
grep -q "served again" slow.txt
check "stopped then continued: its chunk served again while it was stopped" $?
[ -n "$victim" ] && cont "$victim"
wait "$coord"
rc=$?
[ "$rc" = 0 ]; check "stopped then continued: the coordinator finishes (exit $rc)" $?
cmp -s ref.pgm slow.pgm; check "stopped then continued: image identical" $?
# The run ends with the first result of the late range. The copy's worker,
# second, is waited for: its result comes in and is refused. The original's,
# second, is not waited for (still silent at the end): it is never counted.
if grep -q "results of chunk [0-9]* refused: not outstanding there" slow.txt; then
    second="the copy's, refused"
elif grep -q "still silent, its chunk done elsewhere: not waited for" slow.txt; then
    second="the original's, not waited for"
else
    second=
fi
[ -n "$second" ]; check "stopped then continued: the result second in not counted ($second)" $?
refused=$("$BIN/record" slow.csv chunk reissue,done |
          awk -F, '$2 == 0 { n++ } END { print n + 0 }')
[ "$refused" -ge 1 ]
check "stopped then continued: the record has the copy not counted ($refused)" $?
[ "$(cover slow.csv)" = 0 ]; check "stopped then continued: no row counted twice" $?
left=1
for _ in $(seq 50); do
    [ -z "$(pvm_tasks worker)" ] && { left=0; break; }
    sleep 0.1
done
check "stopped then continued: every worker exits at the end" $left

# ---- Tree-Scheduling: a worker stopped for good ------------------------------------
# Taken for hung once silent past the limit, ended (its partner's thief
# would wait for it), lost: its range served again once every live worker
# is idle.
start tree --scheme tree --late 3,1
[ -n "$victim" ]; check "tree: a worker stopped mid-run (pid $victim)" $?
wait "$coord"
rc=$?
[ "$rc" = 0 ]; check "tree: the coordinator finishes (exit $rc: $(tail -n 1 tree.txt))" $?
cmp -s ref.pgm tree.pgm; check "tree: image identical to bin/mandel's" $?
grep -q "silent past the late limit (hung?): ended, its range to be served again" tree.txt
check "tree: the log says the hung worker was ended" $?
[ "$(cover tree.csv)" = 0 ]; check "tree: done chunks cover every row once" $?
gone=1
for _ in $(seq 30); do [ -n "$victim" ] && ! kill -0 "$victim" 2>/dev/null && { gone=0; break; }; sleep 0.1; done
check "tree: the stopped worker was ended" $gone
[ -n "$victim" ] && { cont "$victim"; kill "$victim" 2>/dev/null; }

# ---- Tree-Scheduling: a worker stopped, then continued -----------------------------
# Continued once taken for hung: it was ended then (SIGTERM, then SIGCONT:
# a stopped peer ends too), so it sends nothing late; its range served
# again, every row once.
start treec --scheme tree --late 3,1
[ -n "$victim" ]; check "tree, stopped then continued: a worker stopped (pid $victim)" $?
for _ in $(seq 300); do
    grep -q "silent past the late limit" treec.txt && break
    sleep 0.1
done
[ -n "$victim" ] && cont "$victim"
wait "$coord"
rc=$?
[ "$rc" = 0 ] && cmp -s ref.pgm treec.pgm && [ "$(cover treec.csv)" = 0 ] &&
    grep -q "silent past the late limit (hung?): ended" treec.txt
check "tree, stopped then continued: ended when taken for hung, exit $rc, bin/mandel's image, every row once" $?
gone=1
for _ in $(seq 30); do [ -n "$victim" ] && ! kill -0 "$victim" 2>/dev/null && { gone=0; break; }; sleep 0.1; done
check "tree, stopped then continued: the worker is gone" $gone

# ---- Tree-Scheduling: a worker killed ----------------------------------------------
# Lost: its range is served again once every live worker is idle.
start treek --scheme tree --late 0
[ -n "$victim" ] && kill -9 "$victim" && cont "$victim"
[ -n "$victim" ]; check "tree: a worker killed mid-run (pid $victim)" $?
wait "$coord"
rc=$?
[ "$rc" = 0 ]; check "tree, killed: the coordinator finishes (exit $rc: $(tail -n 1 treek.txt))" $?
cmp -s ref.pgm treek.pgm; check "tree, killed: image identical to bin/mandel's" $?
again=$("$BIN/record" treek.csv chunk reissue,done 2>/dev/null |
        awk -F, '$1 == 1 && $2 == 1 { n++ } END { print n + 0 }')
grep -q "worker [0-9] on .* exited" treek.txt && [ "$again" -ge 1 ]
check "tree, killed: the log says it exited; its range served again and done ($again)" $?
[ "$(cover treek.csv)" = 0 ]; check "tree, killed: done chunks cover every row once" $?

# ---- --late 0: the master waits for the hung worker (as before) ----------------------
start off --late 0
sleep 6
kill -0 "$coord" 2>/dev/null
check "--late 0: still waiting for the hung worker after 6 s" $?
kill "$coord" 2>/dev/null       # the timeout wrapper: ends the coordinator
wait "$coord" 2>/dev/null
[ -n "$victim" ] && { cont "$victim"; kill "$victim" 2>/dev/null; }
for pid in $(pvm_tasks worker); do
    kill "$pid" 2>/dev/null     # the workers of the coordinator ended above
done

# ---- the default leaves a fault-free run alone -----------------------------------------
"$BIN/coordinator" --local 3 -S 320 -m 4000 -o free.pgm -r free.csv -q >free.txt 2>&1
rc=$?
n=$("$BIN/record" free.csv chunk reissue | grep -c '^1$')
[ "$rc" = 0 ] && [ "$n" = 0 ]; check "fault-free, the default --late: nothing served again ($n)" $?

echo "faults: hung: $hung_chunks chunk(s) served again; continued: $refused copy(ies) not" \
    "counted, second in: $second"
pvm_down; check "pvmd halted" $?
finish
