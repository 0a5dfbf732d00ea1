#!/bin/sh
# mpi.sh: libdtss on MPI (runtime/transport/mpi.c, docs/mpi.md): the
# applications of bin/mpi/ -- the same sources as bin/, linked against
# libdtss-mpi -- under mpirun on this host with 1-4 worker ranks. Each
# result is the sequential program's bit for bit (so the PVM run's, which
# tests/pvm.sh, pool_pvm.sh, lb_pvm.sh, strips_pvm.sh hold to the same):
# the loop model (every scheme the library lists, Tree-Scheduling
# included) through the integral, the Mandelbrot coordinator and its worker
# program (two programs: mpirun's MPMD form), the matrix products and the
# synthetic loops; the pool (Jacobi, the thinning); migration (Yoon's
# tasks); strips (heat). Then what differs from PVM: ranks the run does not
# need end without work; the errors that name what to change (one rank,
# --include-self, too few ranks, --speeds); a worker rank stopped mid-run
# (the late-chunk rule serves its chunk again; the master ends the job, with
# its own exit status, by MPI_Abort); a rank killed (mpirun ends the job)
# and --resume under a new mpirun. Last, make bench's raw MPI ping-pong
# (bin/mpi/pingpong): the runtime's messages, one round trip time, a wrong
# rank count refused. Ends only the processes it started.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
tmp=$(mktemp -d /tmp/dtss-mpi.XXXXXX)
. "$(dirname "$0")/lib.sh"
jobs_started=""
cleanup() {
    for p in $jobs_started; do
        kill -CONT "$p" 2>/dev/null
        kill -KILL "$p" 2>/dev/null
    done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
cd "$tmp" || exit 1

# Open MPI refuses root unless told twice (docs/mpi.md).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# More ranks than the host's cores: --oversubscribe. Timeout: a regression
# fails instead of hanging.
mpi() { timeout -k 5 120 mpirun --oversubscribe "$@"; }
M=$BIN/mpi
for p in integral loop coordinator worker matrix thin-pool yoon-tasks heat-pvm jacobi pingpong; do
    [ -x "$M/$p" ]; check "bin/mpi/$p built" $?
done

# ---- the loop model ---------------------------------------------------------------
# Every scheme the library accepts, from its own list (the error for an unknown one).
"$BIN/integral" --scheme nosuch >schemes.out 2>&1
schemes=$(sed -n 's/.*(valid: \(.*\)), \(tree\) or \(auto\)$/\1, \2, \3/p' schemes.out |
          tr -d ' ' | tr ',' ' ')
[ "$(echo "$schemes" | wc -w)" -ge 12 ]
check "the library's schemes: $schemes" $?
# pi to 1e-9: an iteration lost or counted twice moves the sum by pi/n.
for s in $schemes; do
    for w in 1 2 3 4; do
        mpi -np $((w + 1)) "$M/integral" -n 300 --scheme "$s" >out.txt 2>&1
        rc=$?
        err=$(sed -n 's/^pi = .* (error \(.*\))$/\1/p' out.txt)
        nw=$(grep -o ' W[0-9]*' out.txt | wc -l)
        [ "$rc" -eq 0 ] && [ "$nw" -eq "$w" ] &&
            awk -v e="$err" 'BEGIN { exit !(e != "" && e + 0 < 1e-9) }'
        check "integral, $s, $w worker rank(s): pi to 1e-9 ($w W_i; exit $rc, error ${err:-none})" $?
    done
done

S=240 MX=4000
"$BIN/mandel" -S $S -m $MX -o ref.pgm -q
for s in dtss tss tree; do
    for w in 1 4; do
        rm -f img.pgm
        mpi -np 1 "$M/coordinator" -S $S -m $MX -s "$s" -o img.pgm -r run.csv -q : \
            -np "$w" "$M/worker" >out.txt 2>&1
        rc=$?
        [ "$rc" -eq 0 ] && cmp -s ref.pgm img.pgm
        check "Mandelbrot (coordinator : worker), $s, $w worker rank(s): bin/mandel's image (exit $rc: $(head -c 200 out.txt))" $?
    done
done

want=$("$BIN/matrix" --sequential -n 6 --scale 0.05 -q | grep '^checksum')
for w in 1 3; do
    got=$(mpi -np $((w + 1)) "$M/matrix" -n 6 --scale 0.05 -q 2>&1 | grep '^checksum')
    [ -n "$want" ] && [ "$got" = "$want" ]
    check "matrix products, $w worker rank(s): the sequential checksum ($got)" $?
done

wl="increasing n=40 from=100 to=4000"
want=$("$BIN/loop" -w "$wl" --sequential | head -n 1)
for w in 1 3; do
    got=$(mpi -np $((w + 1)) "$M/loop" -w "$wl" -s fss 2>&1 | head -n 1)
    [ "$got" = "$want" ]; check "synthetic loop, $w worker rank(s): '$got'" $?
done

# ---- the pool, migration, strips --------------------------------------------------------
# The pool grows into idle ranks only: a rank it released has ended (its
# process cannot be started again), so a pool that shrinks and grows again
# needs spare ranks -- said when there are none, and the pool goes on.
want=$("$BIN/jacobi" --sequential)
for w in 1 3 6; do
    mpi -np $((w + 1)) "$M/jacobi" --delay 0 >out.txt 2>&1
    rc=$?
    [ "$rc" -eq 0 ] && grep -qxF "$want" out.txt
    check "pool (Jacobi), $w worker rank(s): the sequential line (exit $rc: $(grep -v '^dtss' out.txt | head -n 1))" $?
done

"$BIN/thin-images" figures -z 0.3 -q -o fig.pbm && "$BIN/thin" fig.pbm -o ref.pbm -q
mpi -np 4 "$M/thin-pool" fig.pbm --parts 4 --delay 0 -o thin.pbm -q >out.txt 2>&1
rc=$?
[ "$rc" -eq 0 ] && cmp -s ref.pbm thin.pbm
check "pool (thinning), 3 worker ranks: bin/thin's skeleton (exit $rc: $(head -c 200 out.txt))" $?

for w in 1 3; do
    mpi -np $((w + 1)) "$M/yoon-tasks" -n 24 --seed 5 >out.txt 2>&1
    rc=$?
    got=$(grep '^results: ' out.txt)
    [ "$w" -eq 1 ] && first=$got
    [ "$rc" -eq 0 ] && [ -n "$got" ] && [ "$got" = "$first" ]
    check "migration (Yoon's tasks), $w worker rank(s): the same results ($got)" $?
done

want=$("$BIN/heat" --nx 24 --ny 24 --steps 40 | tail -n 1)
for w in 1 2 4; do
    got=$(mpi -np $((w + 1)) "$M/heat-pvm" --nx 24 --ny 24 --steps 40 2>&1 | tail -n 1)
    [ "$got" = "$want" ]; check "strips (heat), $w worker rank(s): bin/heat's plate ($got)" $?
done

# ---- what differs from PVM ------------------------------------------------------------
mpi -np 6 "$M/integral" -n 300 --local 2 >out.txt 2>&1
rc=$?
[ "$rc" -eq 0 ] && grep -q '^dtss: W1 [0-9.]* W2 [0-9.]* Finish' out.txt && grep -q '^pi = ' out.txt
check "6 ranks, --local 2: two workers, the 3 idle ranks end without work (exit $rc)" $?
# A master that ends before it runs (its --help, a bad option) ends its
# worker ranks too: no job waits for ever.
run "coordinator --help : worker: the help, exit 0" 0 "usage: coordinator" \
    mpi -np 1 "$M/coordinator" --help : -np 2 "$M/worker"
run "coordinator with a bad option : worker: named, exit 2" 2 "size '0'" \
    mpi -np 1 "$M/coordinator" -S 0 : -np 2 "$M/worker"
run "one rank: no workers, said how (exit 1)" 1 "no workers: the launcher started only the master" \
    mpi -np 1 "$M/integral" -n 10
run "--include-self: refused by name (exit 2)" 2 "--include-self: under mpi" \
    mpi -np 3 "$M/integral" -n 10 --include-self
run "--local 4 on 3 ranks: too few, said how" 1 "no idle rank on host .* start more ranks" \
    mpi -np 3 "$M/integral" -n 10 --local 4
run "--hosts of a host not in the world: named" 2 "no host 'nosuchhost'" \
    mpi -np 3 "$M/integral" -n 10 --hosts nosuchhost
host=$(mpi -np 1 hostname)
printf '# speeds\n* sp=500\n%s sp=2000\n' "$host" >speeds
run "--speeds FILE: taken" 0 "^pi = " mpi -np 3 "$M/integral" -n 100 --speeds speeds
printf 'otherhost sp=2000\n' >speeds.bad
run "--speeds FILE without this host: named" 2 "no line for host $host" \
    mpi -np 3 "$M/integral" -n 10 --speeds speeds.bad
printf '%s sp=fast\n' "$host" >speeds.bad
run "--speeds FILE with a bad sp=: the line and value named" 2 "speeds.bad line 1: 'sp=fast'" \
    mpi -np 3 "$M/integral" -n 10 --speeds speeds.bad

# the ranks of one mpirun (its children here), with their rank numbers
ranks_of() {
    for c in $(ps -o pid= --ppid "$1"); do
        r=$(tr '\0' '\n' <"/proc/$c/environ" 2>/dev/null | sed -n 's/^OMPI_COMM_WORLD_RANK=//p')
        [ -n "$r" ] && echo "$c $r"
    done
}
# start_big NAME ARGS: the coordinator on 3 worker ranks in the background,
# $job mpirun's PID, $victim a worker rank's PID, 0.6 s into the run.
start_big() {
    name=$1
    shift
    mpirun --oversubscribe -np 1 "$M/coordinator" -S 640 -m 20000 -o "$name.pgm" \
        -r "$name.csv" "$@" : -np 3 "$M/worker" >"$name.txt" 2>&1 &
    job=$!
    jobs_started="$jobs_started $job"
    victim=
    for _ in $(seq 100); do
        victim=$(ranks_of "$job" | awk '$2 == 2 { print $1 }')
        [ -n "$victim" ] && break
        sleep 0.05
    done
    [ -n "$victim" ] && jobs_started="$jobs_started $victim"
    sleep 0.6
}
"$BIN/mandel" -S 640 -m 20000 -o big.pgm -q
start_big hung --late 3,1
[ -n "$victim" ] && kill -STOP "$victim"
check "hung: a worker rank stopped mid-run (pid ${victim:-none})" $?
wait_for "$job" 60
[ "$rc" -eq 0 ]; check "hung: the job ends with the master's status (exit $rc)" $?
cmp -s big.pgm hung.pgm; check "hung: bin/mandel's image all the same" $?
grep -q "late at worker [0-9]: out [0-9.]* s; served again" hung.txt &&
    grep -q "did not end (hung or stopped): ending the job with MPI_Abort" hung.txt
check "hung: the chunk served again; the master said why it ends the job: $(grep -m1 'MPI_Abort' hung.txt)" $?
# gone PID: the process has ended (a zombie whose parent, mpirun, is gone
# counts: this machine's init may not reap it)
gone() { ! kill -0 "$1" 2>/dev/null || [ "$(awk '{ print $3 }' "/proc/$1/stat" 2>/dev/null)" = Z ]; }
sleep 0.5
[ -n "$victim" ] && gone "$victim"
check "hung: the stopped rank is gone with the job" $?

start_big crash
[ -n "$victim" ] && kill -KILL "$victim"
check "killed: a worker rank killed mid-run (pid ${victim:-none})" $?
wait_for "$job" 60
[ "$rc" -ne 0 ]; check "killed: mpirun ends the job, non-zero (exit $rc)" $?
[ -s crash.csv.journal ]; check "killed: the journal keeps what arrived" $?
mpi -np 1 "$M/coordinator" --resume crash.csv -o resumed.pgm -q : -np 2 "$M/worker" >resume.txt 2>&1
rc=$?
[ "$rc" -eq 0 ] && cmp -s big.pgm resumed.pgm
check "killed: --resume under a new mpirun: bin/mandel's image (exit $rc: $(tail -c 200 resume.txt))" $?

# ---- make bench's raw MPI ping-pong (tests/bench_mpi.sh) -----------------------------
# Its messages are the runtime's bytes, framed as mpi.c frames them: an
# 8-byte length, then buf.h's 4-byte head and 8-byte fields -- WORK three
# (36), a REQUEST with one result of W words 4 + 10 fields + the result's
# 3 + 3 + 1 + 3 and the 8-byte length of its 4W bytes (180 + 4W).
for w in 1 200; do
    got=$("$M/pingpong" --sizes -W $w 2>&1)
    [ "$got" = "work 36 request $((180 + 4 * w))" ]
    check "bin/mpi/pingpong --sizes -W $w: wire.c's WORK and REQUEST, framed ($got)" $?
done
mpi -np 2 "$M/pingpong" -n 200 >pp.txt 2>&1
rc=$?
[ "$rc" -eq 0 ] && awk '{ exit !(NR == 1 && $0 ~ /^[0-9]+\.[0-9]$/ && $1 > 0) } END { exit NR != 1 }' pp.txt
check "bin/mpi/pingpong on 2 ranks: one round trip time (exit $rc: $(head -c 200 pp.txt))" $?
mpi -np 3 "$M/pingpong" -n 10 >pp.txt 2>&1
rc=$?
[ "$rc" -ne 0 ] && grep -q 'needs exactly 2 ranks (mpirun -np 2), not 3' pp.txt
check "bin/mpi/pingpong on 3 ranks: refused, naming the count (exit $rc: $(head -c 200 pp.txt))" $?
finish
