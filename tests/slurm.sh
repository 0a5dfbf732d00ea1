#!/bin/sh
# slurm.sh: the batch system of the emulated cluster (hostfiles/slurm,
# scripts/cluster-slurm, docs/slurm.md), as a user runs it: a private
# cluster up with Slurm (four nodes idle, their sp= as features; the daemons
# listening on the cluster's bridge addresses only; the munge key 0400 in the
# 0700 run directory; status shows Slurm); examples/dtss.sbatch through
# sbatch -N 4 (the W_i line, bin/mandel's checksum, squeue showing the job
# running, sacct -c listing it completed); a node set DOWN mid-run (the run
# completes on the others, every row once, the image exact); scancel of a
# running job leaving no process of it; down leaving nothing (no process,
# no state, no socket).
# Ends only what it started (the cluster, by scripts/cluster down).
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/dtss-slurm.XXXXXX)
. "$(dirname "$0")/lib.sh"
export CLUSTER_DIR=$tmp/cluster DTSS_BIN=$BIN
cleanup() {
    "$REPO/scripts/cluster" down >/dev/null 2>&1
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
CS=$REPO/scripts/cluster-slurm
cd "$tmp" || exit 1

run "cluster-slurm --help" 0 "slurmctld on the master" "$CS" --help
run "cluster-slurm without a cluster: named (exit 1)" 1 "no emulated cluster in '$tmp'" "$CS" up "$tmp"
printf '# dtss: slurm\nw1\n' >hf
if [ "$(id -u)" -ne 0 ]; then
    skip "the emulated cluster (and its batch system) needs root"
    finish
    exit
fi

# ---- up ----------------------------------------------------------------------------
"$REPO/scripts/cluster" up --emulate "$REPO/hostfiles/slurm" >up.log 2>&1
check "cluster up with Slurm: $(tail -n 2 up.log | head -n 1)" $?
grep -q "^slurm: 4 nodes idle in partition dtss" up.log
check "up says the four nodes are idle ($(grep '^slurm:' up.log))" $?
. "$CLUSTER_DIR/env"
# The jobs' temporary files (the job script's speeds and rank files) go to
# a folder of this test's (sbatch passes TMPDIR on), checked empty after.
export TMPDIR=$tmp/jobtmp
mkdir -p "$TMPDIR"
[ -f "$SLURM_CONF" ]; check "the env file sets SLURM_CONF ($SLURM_CONF)" $?
nodes=$(sinfo -h -N -o '%N %T %f %c' | sort | tr '\n' ';')
[ "$nodes" = "w1 idle sp1000 1;w2 idle sp1000 1;w3 idle sp1000 1;w4 idle sp1000 1;" ]
check "sinfo: w1..w4 idle, one CPU each, feature sp1000 ($nodes)" $?
"$REPO/scripts/cluster" status >status.txt 2>&1 && grep -q "^slurm: slurmctld pid" status.txt &&
    grep -q "^w1 *idle" status.txt
check "cluster status shows Slurm and its nodes" $?

S=$DTSS_RUN/slurm
[ "$(stat -c %a "$S/munge.key")" = 400 ] && [ "$(stat -c %a "$S")" = 700 ] &&
    [ "$(stat -c %a "$(dirname "$DTSS_RUN")")" = 700 ]
check "the munge key 0400, in the 0700 run directories ($(stat -c %a "$S/munge.key") $(stat -c %a "$S") $(stat -c %a "$(dirname "$DTSS_RUN")"))" $?
# Listening sockets of the cluster's daemons: in the root namespace,
# slurmctld's (TCP) on the master's bridge address only; in each host's
# namespace, slurmd's on the host's address only.
subnet=$(awk 'NR == 1 { split($2, a, "."); printf "%s.%s.%s.", a[1], a[2], a[3] }' "$DTSS_RUN/hosts.tab")
ctld=$(cat "$S/slurmctld.own")
lst=$(ss -Hltnp | grep "pid=$ctld," | awk '{ print $4 }' | sort -u | tr '\n' ' ')
[ -n "$lst" ] && [ "$(echo "$lst" | tr ' ' '\n' | grep -v "^${subnet}1:" | grep -c .)" -eq 0 ]
check "slurmctld listens on the master's bridge address only ($lst)" $?
bad_ns=""
while read -r name addr ns _; do
    l=$(ip netns exec "$ns" ss -Hltn | awk '{ print $4 }' | grep -v "^$addr:" | grep -v '^127\.' | tr '\n' ' ')
    [ -z "$l" ] || bad_ns="$bad_ns $name:$l"
done <"$DTSS_RUN/hosts.tab"
[ -z "$bad_ns" ]; check "each slurmd listens on its host's address only (${bad_ns:-ok})" $?
[ -z "$(ss -Hlnptu | grep -E "pid=($ctld|$(cat "$S/munged.own"))," | grep -v "${subnet}1:")" ]
check "munged and slurmctld listen on no other TCP or UDP port in the root namespace" $?

# ---- a batch job -------------------------------------------------------------------
want=$("$BIN/mandel" -S 300 -m 4000 | sed -n 's/.* checksum \([0-9a-f]*\) .*/\1/p')
# wait_state JOB STATE SECONDS: until squeue shows JOB in STATE (or, for
# GONE, no longer).
wait_state() {
    for _ in $(seq $(($3 * 10))); do
        st=$(squeue -h -j "$1" -o %T 2>/dev/null)
        [ "$2" = GONE ] && [ -z "$st" ] && return 0
        [ "$st" = "$2" ] && return 0
        sleep 0.1
    done
    return 1
}
job=$(sbatch --parsable -N 4 -D "$tmp" -o "$tmp/job-%j.out" "$REPO/examples/dtss.sbatch" -S 300 -m 4000 2>sb.err)
check "sbatch -N 4 examples/dtss.sbatch: job $job ($(head -c 200 sb.err))" $?
wait_state "$job" RUNNING 30
check "squeue shows job $job running" $?
wait_state "$job" GONE 120
check "job $job ended within 2 minutes" $?
out=$tmp/job-$job.out
got=$(sed -n 's/^checksum \([0-9a-f]*\).*/\1/p' "$out" 2>/dev/null)
grep -q "^dtss: W1 .* W4 .* Finish .* Imbalance" "$out" 2>/dev/null && [ -n "$want" ] && [ "$got" = "$want" ]
check "the job's output: the W_i line and bin/mandel's checksum ($got; $(grep -m1 '^dtss:' "$out" 2>/dev/null | head -c 120))" $?
grep -q "^coordinator: 4 workers: w1(V=1) w2(V=1) w3(V=1) w4(V=1)$" "$out"
check "the speeds came from the nodes' features ($(grep -m1 'workers:' "$out"))" $?
acct=$(sacct -c -n -X -j "$job" -o JobID,JobName,State,NNodes 2>&1 | awk '{ $1 = $1; print }')
[ "$acct" = "$job dtss COMPLETED 4" ]
check "sacct -c lists the job completed on 4 nodes ($acct)" $?

# ---- a node lost mid-run -------------------------------------------------------------
# w2 set DOWN while the paper's image is computed: Slurm kills the job's task
# there; the late-chunk rule (--late 2,1 here) serves its chunk again and the
# image is complete, every row once (the record's iterations add up to 1200).
"$BIN/mandel" -S 1200 -m 20000 -o ref1200.pgm -q
job=$(sbatch --parsable -N 4 -D "$tmp" -o "$tmp/job-%j.out" "$REPO/examples/dtss.sbatch" \
    -S 1200 -m 20000 -o "$tmp/down.pgm" -r "$tmp/down.csv" --late 2,1 2>sb.err)
for _ in $(seq 300); do
    grep -q "workers reported" "$tmp/job-$job.out" 2>/dev/null && break
    sleep 0.1
done
sleep 2
scontrol update nodename=w2 state=down reason=dtss-test
check "w2 set DOWN during job $job ($(sinfo -h -n w2 -o %T))" $?
wait_state "$job" GONE 120
out=$tmp/job-$job.out
grep -q "Node failure on w2" "$out" && grep -q "late at worker 2" "$out" && cmp -s ref1200.pgm down.pgm
check "the run completes without w2: its chunk served again, bin/mandel's image ($(grep -m1 '^dtss:' "$out"))" $?
its=$("$BIN/record" down.csv worker iterations | awk '{ s += $1 } END { print s + 0 }')
[ "$its" -eq 1200 ]
check "every row once: the workers' iterations add up to $its of 1200 ($("$BIN/record" down.csv worker host,iterations | tr '\n' ' '))" $?
scontrol update nodename=w2 state=resume >/dev/null 2>&1
for _ in $(seq 100); do [ "$(sinfo -h -n w2 -o %T)" = idle ] && break; sleep 0.1; done
[ "$(sinfo -h -n w2 -o %T)" = idle ]; check "w2 back (resumed): idle" $?

# ---- scancel -----------------------------------------------------------------------
job=$(sbatch --parsable -N 4 -D "$tmp" -o "$tmp/job-%j.out" "$REPO/examples/dtss.sbatch" -S 1200 -m 20000 2>sb.err)
wait_state "$job" RUNNING 30 && sleep 3
# The processes in the hosts besides their slurmd: the job's (its batch
# script, mpirun, orted, the ranks).
job_procs() {
    while read -r name _ ns _; do
        d=$(cat "$S/nodes/$name.own")
        for p in $(ip netns pids "$ns"); do
            c=$(cat "/proc/$p/comm" 2>/dev/null)
            [ "$p" = "$d" ] || [ "$c" = pvmd ] || printf '%s:%s ' "$name" "$c"
        done
    done <"$DTSS_RUN/hosts.tab"
}
running=$(job_procs)
scancel "$job"
wait_state "$job" GONE 30
check "scancel ends job $job (running in the hosts: $(echo "$running" | head -c 200))" $?
left=""
for _ in $(seq 50); do
    left=$(job_procs)
    [ -z "$left" ] && break
    sleep 0.1
done
echo "$running" | grep -q "w4:worker" && [ -z "$left" ]
check "scancel leaves no process of the job in the hosts (left: ${left:-none})" $?
files=$(ls -A "$TMPDIR")
[ -z "$files" ]; check "the jobs left no temporary file (${files:-none})" $?

# ---- down --------------------------------------------------------------------------
daemons="$(cat "$S/munged.own") $ctld $(cat "$S"/nodes/*.own | tr '\n' ' ')"
"$REPO/scripts/cluster" down >down.log 2>&1
check "cluster down: $(tail -n 1 down.log)" $?
alive=""
# (a zombie is ended: this machine's init may reap late)
for p in $daemons; do
    [ -d "/proc/$p" ] && [ "$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)" != Z ] && alive="$alive $p"
done
[ -z "$alive" ] && [ ! -e "$S" ] && [ ! -e "$DTSS_RUN" ]
check "down leaves no daemon ($daemons: alive${alive:- none}), no state, no socket" $?
finish
