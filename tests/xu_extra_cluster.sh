#!/bin/sh
# xu_extra_cluster.sh: scripts/reproduce-xu-extra --quick on the emulated
# cluster of hostfiles/sec31 (Xu Sec. 3.1: w1 at 1/28 of a core, w2-w4 at
# 9/28) into a temporary results folder: every case ran, every run's record
# covers the loop once, TSS served w1 the chunk its place in the worker order
# gives (150 = I/8 first, 120 fourth), each host computed at its quota's
# share, and the cluster is down after. (The simulated part and the figures
# without a cluster: tests/figures.sh.)
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/dtss-xu-extra.XXXXXX)
trap '[ -e "$tmp/cluster/env" ] && CLUSTER_DIR=$tmp/cluster "$REPO/scripts/cluster" down >/dev/null 2>&1; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null 2>&1; then
    skip "reproduce-xu-extra's emulated part needs the emulated cluster (root, namespaces)"
    finish
    exit
fi
REPRODUCE_CLUSTER_DIR=$tmp/cluster BIN=$BIN RESULTS=$tmp/res "$REPO/scripts/reproduce-xu-extra" --quick \
    >"$tmp/log" 2>&1
rc=$?
check "reproduce-xu-extra --quick on the emulated cluster (exit $rc: $(tail -n 2 "$tmp/log" | tr '\n' ' '))" $rc
R=$tmp/res
grep -q '^\[8/8\] mandel dtss4 ' "$tmp/log"; check "8 emulated runs, counted" $?
n=$(awk -F, 'NR > 1 && $6 == 1 && $7 > 0 { n++ } END { print n + 0 }' "$R/sec31.csv")
[ "$n" = 8 ]; check "sec31.csv: every case has its emulated run ($n of 8)" $?
for f in "$R"/sec31/runs/*.csv; do
    "$BIN/record" "$f" chunk done,start,size | awk -F, '$1 == 1 { for (i = $2; i < $2 + $3; i++) c[i]++ }
        END { for (i = 0; i < 1200; i++) if (c[i] != 1) exit 1; for (i in c) if (i + 0 < 0 || i + 0 >= 1200) exit 1 }'
    check "$(basename "$f"): every iteration done once" $?
done
# TSS hands out its first round in the worker order (sched/loop/policy.h): w1
# first gets F = I/8 = 150, w1 fourth F - 3D = 120, on PVM as simulated.
awk -F, '$2 == "tss4-first" && ($9 != 150 || $11 != 150) { bad = 1 }
    $2 == "tss4-last" && ($9 != 120 || $11 != 120) { bad = 1 } END { exit bad }' "$R/sec31.csv"
check "w1's first chunk: 150 served first, 120 fourth, emulated and simulated" $?
# Each host's speed over the uniform loop's chunks against its quota's share
# (w1's 5 ms every 140 ms, the smallest quota scripts/cluster gives), said
# for the four hosts. How close the emulation comes is a measurement, not a
# test (on a loaded machine it drifts: +1.7% to +13.6% seen): make bench
# (tests/bench_cluster.sh) measures it.
grep '^w1 .* of a core (its quota' "$R/sec31.md" | tr ';' '\n' |
    sed -n 's/.*(its quota [0-9.]*, \([-+][0-9.]*\)%).*/\1/p' >"$tmp/dev"
[ "$(wc -l <"$tmp/dev")" = 4 ]
check "sec31.md says each host's speed against its quota's share ($(tr '\n' ' ' <"$tmp/dev"))" $?
grep -q '"TSS on four is slower than on three", emulated: held in [0-4] of 4 readings' "$R/sec31.md"
check "sec31.md says in how many readings the claim held, emulated" $?
[ ! -e "$tmp/cluster/env" ]; check "the cluster is down after" $?
finish
