#!/bin/sh
# pool_cluster.sh: the iterative pool (bin/thin-pool) on an emulated
# cluster: workers spawned on the hosts of the virtual machine, each inside
# its host (its namespace: the host's own name for itself), one worker per
# host at a time; a host deleted mid-run (pvm_notify PvmHostDelete) loses
# its worker, the task it held runs again, the host is used no more, and the
# skeleton is unchanged. Brings up its own cluster (own CLUSTER_DIR) and
# takes it down.
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
"$BIN/thin-pool" fig.pbm --parts 4 --delay 0 --slow 20 --strategy static -v \
    -o del.pbm -r del.csv >del.out 2>&1 &
master=$!
n=0
while [ "$n" -lt 200 ] && ! grep -q "iteration 2:" del.out; do sleep 0.1; n=$((n + 1)); done
grep -q "iteration 2:" del.out
check "the run is under way (iteration 2 done)" $?
(echo "delete w3"; sleep 1) | pvm >/dev/null 2>&1
wait_for "$master" 180
master=
[ "$rc" = 0 ]
check "host w3 deleted mid-run: the run completes (exit $rc)" $?
cmp -s del.pbm ref.pbm
check "  the skeleton is unchanged" $?
grep -q "worker [0-9]* on w3 lost" del.out
check "  the master noticed w3's worker lost" $?
awk -F, '$1 == "worker" && $3 == "w3" && $9 == "lost" { n++ } END { exit n != 1 }' del.csv
check "  the record: w3's worker lost" $?
t=$(awk -F, '$1 == "worker" && $3 == "w3" && $9 == "lost" { print $8 }' del.csv)
awk -F, -v t="$t" '$1 == "worker" && $3 == "w3" && $6 > t { bad++ } END { exit bad }' del.csv
check "  no worker started on w3 after it left" $?
if grep -q "on w3 lost: its task" del.out; then
    awk -F, '$1 == "task" && $10 == 2 { n++ } END { exit n != 1 }' del.csv
    check "  the task it held ran again (tries 2)" $?
else
    skip "w3's worker held no task when its host left (nothing to run again)"
fi

cd / || exit 1
finish
