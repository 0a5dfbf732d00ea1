#!/bin/sh
# pool_cluster.sh: the iterative pool (bin/thin-pool) on an emulated
# cluster: workers spawned on the hosts of the virtual machine, each inside
# its host (its namespace: the host's own name for itself), one worker per
# host at a time; a host deleted mid-run (pvm_notify PvmHostDelete) loses
# its worker, the task it held runs again, the host is used no more, and the
# skeleton is unchanged; a host of --hosts not in the virtual machine is
# added for a worker and deleted once it is released. Brings up its own
# cluster (own CLUSTER_DIR) and takes it down.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/dtss-pc.XXXXXX)
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

if [ "$(id -u)" -ne 0 ]; then
    skip "the emulated cluster needs root"
    finish
    exit
fi
cd "$tmp" || exit 1
"$BIN/thin-images" figures -q -o fig.pbm
"$BIN/thin" fig.pbm -o ref.pbm -q

"$REPO/scripts/cluster" up --emulate "$REPO/hostfiles/table1" >up.log 2>&1
check "table1 cluster up (4 hosts)" $?
. "$CLUSTER_DIR/env"

# ---- a run: a worker per host, inside its host ----------------------------------
"$BIN/thin-pool" fig.pbm --parts 8 --delay 0 --strategy static -o static.pbm -r static.csv -q
check "static, 8 parts on 4 hosts: runs" $?
cmp -s static.pbm ref.pbm
check "  the skeleton is bin/thin's" $?
awk -F, '$1 == "worker" { n++; if ($3 != $4 || $3 !~ /^w[1-4]$/) bad++ } END { exit !(n >= 4 && !bad) }' static.csv
check "  every worker ran inside its host (seen_host = host, w1..w4)" $?
awk -F, '$1 == "iteration" && $4 > 4 { bad++ } END { exit bad }' static.csv
check "  never more than 4 workers held: one per host" $?
awk -F, '$1 == "iteration" && $2 == 1 { exit !($5 == 8 && $6 >= 4) }' static.csv
check "  8 requested, at least 4 of them pending for want of a host" $?

# ---- a host deleted mid-run -----------------------------------------------------------
# Tasks made long (--slow 300: about 0.5 s each), six iterations; once two
# are done, the host of a worker that holds a task (sleeping it out) is
# deleted from the virtual machine.
"$BIN/thin" fig.pbm --iterations 6 -o ref6.pbm -q
"$BIN/thin-pool" fig.pbm --parts 4 --delay 0 --slow 300 --iterations 6 --strategy static -v \
    -o del.pbm -r del.csv >del.out 2>&1 &
master=$!
n=0
while [ "$n" -lt 300 ] && ! grep -q "iteration 2:" del.out; do sleep 0.1; n=$((n + 1)); done
grep -q "iteration 2:" del.out
check "the run is under way (iteration 2 done)" $?
host=$(busy_worker_host thin-pool "$master")
[ -n "$host" ]
check "a worker busy with a task, on host ${host:-none}" $?
(echo "delete ${host:-w3}"; sleep 1) | pvm >/dev/null 2>&1
wait_for "$master" 120
master=
[ "$rc" = 0 ]
check "host ${host:-w3} deleted mid-run: the run completes (exit $rc)" $?
cmp -s del.pbm ref6.pbm
check "  the image is bin/thin --iterations 6's" $?
grep -q "worker [0-9]* on ${host:-w3} lost: its task .* runs again" del.out
check "  the master noticed the worker lost, its task to run again" $?
awk -F, -v h="${host:-w3}" '$1 == "worker" && $3 == h && $9 == "lost" { n++ } END { exit n != 1 }' del.csv
check "  the record: ${host:-w3}'s worker lost" $?
t=$(awk -F, -v h="${host:-w3}" '$1 == "worker" && $3 == h && $9 == "lost" { print $8 }' del.csv)
awk -F, -v h="${host:-w3}" -v t="$t" '$1 == "worker" && $3 == h && $6 > t { bad++ } END { exit bad }' del.csv
check "  no worker started on ${host:-w3} after it left" $?
awk -F, '$1 == "task" && $10 == 2 { n++ } END { exit n != 1 }' del.csv
check "  the task it held ran again (tries 2)" $?

# ---- a host not in the virtual machine: added for a worker, deleted after -------------
# The host just deleted is named in --hosts: the runtime adds it
# (pvm_addhosts) when a worker is to run there and deletes it (pvm_delhosts)
# once that worker is released.
gone_host=${host:-w3}
others=$(echo "w1 w2 w3 w4" | tr ' ' '\n' | grep -vx "$gone_host" | head -n 1)
"$BIN/thin-pool" fig.pbm --parts 2 --delay 0 --slow 50 --iterations 4 --strategy static \
    --hosts "$others,$gone_host" -v -o add.pbm -r add.csv >add.out 2>&1
check "--hosts with $gone_host, not in the virtual machine: the run completes" $?
"$BIN/thin" fig.pbm --iterations 4 -o ref4.pbm -q
cmp -s add.pbm ref4.pbm
check "  the image is bin/thin --iterations 4's" $?
grep -q "added host $gone_host to the virtual machine" add.out
check "  $gone_host added (pvm_addhosts)" $?
grep -q "deleted host $gone_host from the virtual machine" add.out
check "  $gone_host deleted once its worker was released (pvm_delhosts)" $?
awk -F, -v h="$gone_host" '$1 == "worker" && $3 == h && $4 == h && $9 == "released" { n++ } END { exit !n }' add.csv
check "  a worker ran on $gone_host, inside it, and was released" $?
(echo conf; sleep 1) | pvm 2>/dev/null | grep -q "^ *$gone_host " && inside=1 || inside=0
[ "$inside" = 0 ]
check "  $gone_host is no longer in the virtual machine" $?

cd / || exit 1
finish
