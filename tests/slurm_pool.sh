#!/bin/sh
# slurm_pool.sh: Heymann's pool on a resource manager (docs/slurm.md, "The
# pool on Slurm"): bin/thin-pool --allocator slurm on an emulated cluster
# with Slurm whose hosts w2..w4 are not in the virtual machine: every worker
# a Slurm allocation of one node (sbatch), granted by Slurm (the delay
# measured and logged), its node added to the virtual machine for it and
# deleted after, the allocation ended (scancel) when the worker goes; sacct
# lists the allocations with their start and end; the skeleton is bin/thin's;
# a node set DOWN mid-run ends its allocation, the master takes its worker
# for lost and its task runs again elsewhere; nothing is left (no job, no
# worker). A private cluster, taken down at the end.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/dtss-sp.XXXXXX)
. "$(dirname "$0")/lib.sh"
export CLUSTER_DIR=$tmp/cluster DTSS_BIN=$BIN
master=
cleanup() {
    [ -n "$master" ] && kill "$master" 2>/dev/null
    "$REPO/scripts/cluster" down >/dev/null 2>&1
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
cd "$tmp" || exit 1

run "--allocator bogus: refused, naming it (exit 2)" 2 "--allocator 'bogus': unknown (valid: delay, slurm)" \
    "$BIN/thin-pool" /dev/null --allocator bogus
if [ "$(id -u)" -ne 0 ]; then
    skip "the emulated cluster (and its batch system) needs root"
    finish
    exit
fi
"$BIN/thin-images" figures -q -o fig.pbm
"$BIN/thin" fig.pbm --iterations 6 -o ref6.pbm -q

# Four hosts, Slurm on each; only w1 in the virtual machine at the start
# (the '&' of a PVM hostfile: a host to be added later).
printf '%s\n' '# dtss: slurm' '* ep=$DTSS_BIN' 'w1 sp=1000' '&w2 sp=1000' '&w3 sp=1000' '&w4 sp=1000' >hf
"$REPO/scripts/cluster" up --emulate hf >up.log 2>&1
check "cluster up, Slurm on 4 nodes, w2..w4 not in the virtual machine: $(grep '^slurm:' up.log)" $?
. "$CLUSTER_DIR/env"
# jobs_left: the pool's allocations squeue still lists, after up to 10 s
# for those just cancelled to finish completing.
jobs_left() {
    for _ in $(seq 100); do
        [ -z "$(squeue -h -n dtss-pool -o %i)" ] && return 0
        sleep 0.1
    done
    squeue -h -n dtss-pool -o '%i:%T' | tr '\n' ' '
}

# ---- a run ------------------------------------------------------------------------
"$BIN/thin-pool" fig.pbm --parts 4 --allocator slurm --hosts w1,w2,w3,w4 --slow 30 \
    --iterations 6 --strategy static -v -o run.pbm -r run.csv >run.out 2>&1
check "thin-pool --allocator slurm: the run completes (exit $?)" $?
cmp -s run.pbm ref6.pbm; check "  the skeleton is bin/thin --iterations 6's" $?
n=$(grep -c "Slurm granted w[1-4] (job [0-9]*) [0-9.]* s after the request" run.out)
[ "$n" -ge 4 ]; check "  $n allocations granted by Slurm, the delay of each measured" $?
grep -q "added host w[2-4] to the virtual machine" run.out &&
    grep -q "deleted host w[2-4] from the virtual machine" run.out
check "  a node granted is added to the virtual machine for its worker, deleted after" $?
grep -q "ended the allocation of w[1-4] (job [0-9]*)" run.out
check "  each worker gone, its allocation ended" $?
awk -F, '$1 == "worker" { n++; if ($3 != $4) bad++ } END { exit !(n >= 4 && !bad) }' run.csv
check "  every worker ran inside its node (seen_host = host)" $?
acct=$(sacct -c -n -X --name dtss-pool -o JobID,State,NodeList,Start,End 2>&1)
na=$(printf '%s\n' "$acct" | awk 'NF >= 5 && $2 == "CANCELLED" && $4 != "Unknown" && $5 != "Unknown"' | wc -l)
[ "$na" -eq "$n" ]
check "  sacct -c: the $n allocations, each with its start and end ($na CANCELLED by the pool)" $?
left=$(jobs_left)
[ -z "$left" ]; check "  no allocation left in squeue (${left:-none})" $?
grep -q "Slurm granted $n allocations, [0-9.]* s after the request on average" run.out
check "  the mean allocation delay said ($(grep -o 'Slurm granted [0-9]* allocations.*' run.out))" $?
said=$(sed -n 's/.*Slurm granted [0-9]* allocations, \([0-9.]*\) s after the request on average.*/\1/p' run.out)
rec=$(awk -F, '$1 == "run" { print $4 }' run.csv)
awk -v a="$said" -v b="$rec" 'BEGIN { d = a - b; exit !(a > 0 && d < 0.0005 && d > -0.0005) }'
check "  the record's delay is that mean, measured ($rec; said $said)" $?

# ---- a node DOWN mid-run ------------------------------------------------------------
# Tasks of about 1.5 s (--slow 1000); once two iterations are done, the node
# of a worker busy with a task is set DOWN. The pool looks at the allocations
# it holds once a second (alloc_slurm.c, LOOK_HELD): with tasks of 0.3 s the
# worker had often finished its task by then (lost without one: seen on a
# slower machine), so a task outlasts the look.
"$BIN/thin-pool" fig.pbm --parts 4 --allocator slurm --hosts w1,w2,w3,w4 --slow 1000 \
    --iterations 6 --strategy static -v -o down.pbm -r down.csv >down.out 2>&1 &
master=$!
n=0
while [ "$n" -lt 600 ] && ! grep -q "iteration 2:" down.out; do sleep 0.1; n=$((n + 1)); done
host=$(busy_worker_host thin-pool "$master")
[ -n "$host" ] && scontrol update nodename="$host" state=down reason=dtss-test
check "node ${host:-none} (a worker busy there) set DOWN mid-run" $?
wait_for "$master" 120
master=
[ "$rc" = 0 ]; check "the run completes without ${host:-?} (exit $rc)" $?
cmp -s down.pbm ref6.pbm; check "  the skeleton is bin/thin --iterations 6's" $?
grep -q "the allocation of ${host:-?} (job [0-9]*) ended: its worker is lost" down.out &&
    grep -q "worker [0-9]* on ${host:-?} lost: its task .* runs again" down.out
check "  its allocation ended, its worker taken for lost, its task run again ($(grep -e "${host:-?}" down.out | grep -v '^thin-pool: t=[0-9.]* iteration' | tail -n 6 | tr '\n' '|' | tail -c 700))" $?
awk -F, '$1 == "task" && $10 == 2 { n++ } END { exit n != 1 }' down.csv
check "  the task it held ran twice (tries 2), every other once ($(awk -F, '$1 == "task" && $10 != 1' down.csv | head -n 3 | tr '\n' ' '))" $?
left=$(jobs_left)
[ -z "$left" ]; check "  no allocation left in squeue (${left:-none})" $?
left=$(pgrep -x thin-pool | tr '\n' ' ')
[ -z "$left" ]; check "  no worker left (${left:-none})" $?
scontrol update nodename="${host:-w2}" state=resume >/dev/null 2>&1

# ---- the same pool on MPI ---------------------------------------------------------
# Under mpirun a worker is a rank: an idle rank on each node (rank 0, the
# master, here), started as the pool's worker once Slurm grants the node.
before=$(sacct -c -n -X --name dtss-pool -o JobID 2>/dev/null | wc -l)
timeout 120 "$REPO/scripts/cluster-mpirun" -np 5 "$BIN/mpi/thin-pool" fig.pbm --parts 4 \
    --allocator slurm --slow 30 --iterations 6 --strategy static -v -o mpi.pbm -r mpi.csv >mpi.out 2>&1
check "MPI (scripts/cluster-mpirun -np 5): thin-pool --allocator slurm completes (exit $?; $(grep -v '^thin-pool: \(t=\|iteration\)' mpi.out | head -c 300))" $?
cmp -s mpi.pbm ref6.pbm; check "  the skeleton is bin/thin --iterations 6's" $?
ok=0
for w in w1 w2 w3 w4; do
    grep -q "Slurm granted $w (job [0-9]*) [0-9.]* s after the request" mpi.out &&
        grep -q "spawned worker [0-9]* on $w " mpi.out &&
        grep -q "ended the allocation of $w (job [0-9]*)" mpi.out && ok=$((ok + 1))
done
[ "$ok" = 4 ]; check "  each of w1..w4 granted by Slurm, its rank started as the worker, the allocation ended ($ok of 4)" $?
after=$(sacct -c -n -X --name dtss-pool -o JobID 2>/dev/null | wc -l)
[ $((after - before)) -ge 4 ]; check "  sacct -c lists its $((after - before)) allocations" $?
n=$(grep -c "Slurm granted [0-9]* allocations, [0-9.]* s after the request on average" mpi.out)
[ "$n" = 1 ]; check "  the mean allocation delay said once ($n)" $?
left=$(jobs_left)
[ -z "$left" ]; check "  no allocation left in squeue (${left:-none})" $?
left=$(pgrep -x thin-pool | tr '\n' ' ')
[ -z "$left" ]; check "  no rank left (${left:-none})" $?

cd / || exit 1
finish
