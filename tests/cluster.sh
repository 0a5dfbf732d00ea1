#!/bin/sh
# cluster.sh: the emulated cluster as a user runs it: scripts/cluster up,
# status and down on the two paper hostfiles, workers spawned through PVM
# reporting their host, cgroup and Q, scripts/load, the one-host fallback, and
# clear errors for bad hostfiles. Works on a private cluster (its own
# CLUSTER_DIR, cluster number, namespaces, cgroups), removed even on failure;
# a cluster the user has up is not touched. The emulation checks need root,
# network namespaces and the cpu cgroup controller: without them they are
# skipped (counted, with the reason), and the rest still runs.
set -u
BIN=${BIN:-bin}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
cl=$here/scripts/cluster
load=$here/scripts/load
tmp=$(mktemp -d)
export CLUSTER_DIR="$tmp/cluster" DTSS_BIN="$BIN" CLUSTER_CORES=1
trap '"$cl" down >/dev/null 2>&1; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
. "$here/tests/lib.sh"

# pvmc CMD...: the PVM console on the test cluster, one command a line.
pvmc() { printf '%s\n' "$@" | (. "$CLUSTER_DIR/env" && timeout 20 pvm 2>&1); }

# ev NAME: a variable of the cluster's env file (not sourced here, so that
# nothing of it leaks into the commands this script runs).
ev() { (. "$CLUSTER_DIR/env" && eval "printf '%s\\n' \"\$$1\""); }

# spawn_probes HOST...: spawns `worker --probe` (or `$PROBER --probe`) on each HOST through PVM (the
# console's `spawn ->`, one host after the other) and prints each one's line
# "host=... backend=... cgroup=... Q=... cpus=...", prefixed by the HOST asked for. The
# console shows a remote task's output only when it reads a line of input, so
# it gets empty lines while we wait; a host whose line has not come in 10 s
# (a loaded 1/9-CPU host starting a sanitizer build takes seconds) gets
# another try (3 in all).
spawn_probes() {
    out=$tmp/spawn.out
    : >"$out"
    (
        job=0
        for h in "$@"; do
            for _ in 1 2 3; do
                echo "spawn -> -$h ${PROBER:-worker} --probe"
                job=$((job + 1))
                i=0
                while [ "$i" -lt 100 ] && ! grep -q "\[$job:t[0-9a-f]*\] host=" "$out"; do
                    sleep 0.1; echo; i=$((i + 1))
                done
                grep -q "\[$job:t[0-9a-f]*\] host=" "$out" && { echo "$job $h" >>"$tmp/jobs"; break; }
            done
        done
        echo quit
    ) | (. "$CLUSTER_DIR/env" && timeout 150 pvm) >"$out" 2>&1
    : >>"$tmp/jobs"
    while read -r job h; do
        echo "$h $(sed -n "s/.*\[$job:t[0-9a-f]*\] \(host=.*\)/\1/p" "$out" | head -n 1)"
    done <"$tmp/jobs"
    rm -f "$tmp/jobs"
}

# q_of HOST: Q read by `worker --probe` run inside HOST (not through PVM).
q_of() { "$cl" run "$1" "$BIN/worker" --probe 2>&1 | sed -n 's/.* Q=\([0-9]*\).*/\1/p'; }

# our_pids RUN: the live (not zombie) processes marked as the cluster's
# (scripts/cluster and scripts/load start theirs with DTSS_MARK=RUN).
our_pids() {
    for d in /proc/[0-9]*; do
        [ "$(awk '{ print $3 }' "$d/stat" 2>/dev/null)" = Z ] && continue
        { tr '\0' '\n' <"$d/environ"; } 2>/dev/null | grep -qxF "DTSS_MARK=$1" && echo "${d#/proc/}"
    done
}

# gone RUN ID CGDIR: checks that nothing of cluster ID is left (namespaces,
# bridge and veths, cgroups, processes, files) and /etc/hosts is as it was.
gone() {
    r=$1 id=$2 cg=$3
    n=$(ip netns list 2>/dev/null | grep -c "^dtss-$id-")
    [ "$n" = 0 ]; check "down leaves no network namespace of $id (found $n)" $?
    n=$(ip -o link show 2>/dev/null | grep -c "dtss-${id}[:@-]")
    [ "$n" = 0 ]; check "down leaves no bridge or veth of $id (found $n)" $?
    [ ! -e "$cg" ]; check "down leaves no cgroup ($cg)" $?
    i=0
    while [ -n "$(our_pids "$r")" ] && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    left=$(our_pids "$r" | tr '\n' ' ')
    [ -z "$left" ]; check "down leaves no process of $id (pvmds, loaders: $left)" $?
    left=$(for p in $pvmds; do [ -d "/proc/$p" ] && [ "$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)" != Z ] && echo "$p"; done | tr '\n' ' ')
    [ -z "$left" ]; check "down leaves none of the cluster's pvmds ($left)" $?
    [ ! -e "$r" ] && [ ! -e "$CLUSTER_DIR" ]; check "down leaves no file ($r, $CLUSTER_DIR)" $?
    [ "$(md5sum </etc/hosts)" = "$hosts_md5" ]; check "/etc/hosts is as it was" $?
}

hosts_md5=$(md5sum </etc/hosts)

# ---- without a cluster: help, hostfile errors ------------------------------------
run "cluster --help" 0 "cluster up" "$cl" --help
run "load --help" 0 "scripts/load HOST N" "$load" --help
run "unknown command" 2 "unknown command 'upp'" "$cl" upp
printf '* ep=/x\nw1 sp=1000\nw2 sp=abc\n' >"$tmp/bad1"
run "bad sp= names the line" 2 "bad1:3: bad option 'sp=abc'" "$cl" up "$tmp/bad1"
[ ! -e "$CLUSTER_DIR" ]; check "a bad hostfile makes nothing" $?
printf 'w1\nw2 sp=100 speed=2\n' >"$tmp/bad2"
run "unknown option names the line" 2 "bad2:2: unknown option 'speed=2'" "$cl" up "$tmp/bad2"
printf '# two\nw1\n\nw1 sp=5\n' >"$tmp/bad3"
run "duplicate host names both lines" 2 "bad3:4: host 'w1' is listed twice (first on line 2)" "$cl" up "$tmp/bad3"
printf 'w1\n10.0.0.7\n' >"$tmp/bad4"
run "numeric host name" 2 "bad4:2: bad host name '10.0.0.7'" "$cl" up "$tmp/bad4"
printf 'w1 sp\n' >"$tmp/bad5"
run "option without a value" 2 "bad5:1: bad option 'sp'" "$cl" up "$tmp/bad5"
printf '# only a comment\n* sp=1000\n' >"$tmp/bad6"
run "no hosts" 2 "bad6: no hosts" "$cl" up "$tmp/bad6"
run "sp=0" 2 "bad option 'sp=0'" sh -c "printf 'w1 sp=0\n' >'$tmp/bad7'; '$cl' check '$tmp/bad7'"
run "missing hostfile" 1 "no hostfile" "$cl" up "$tmp/nonesuch"
run "check: Table 2 quotas, 6/9 of a core for w4" 0 "w4 *sp=6000 *66.7% of a core" "$cl" check "$here/hostfiles/table2"
run "check a real hostfile: speeds and addresses, no quotas" 0 "delta.example.org *sp=6000 *does not resolve" \
    "$cl" check "$here/hostfiles/real.example"
! grep -q "of a core" "$tmp/out"; check "check a real hostfile prints no CPU quota" $?
# speeds on a real hostfile: the work timed on each host (this machine here).
printf '# dtss: real\n* ep=%s\n%s sp=1000\n' "$BIN" "$(hostname)" >"$tmp/real-self"
run "speeds on a real hostfile: this machine timed, sp=1000" 0 "$(hostname) .* s   sp=1000" \
    "$cl" speeds "$tmp/real-self"
run "speeds on an emulated hostfile without a cluster up: said what to do" 1 "make cluster-up first" \
    "$cl" speeds "$here/hostfiles/table2"
# A real hostfile naming a host that does not resolve: up fails at once,
# naming it (it used to wait 60 s).
printf '# dtss: real\n* ep=%s\nno-such-host.invalid sp=1000\n' "$BIN" >"$tmp/real-bad"
CLUSTER_DIR=$tmp/realbad timeout 20 "$cl" up "$tmp/real-bad" >"$tmp/out" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "host 'no-such-host.invalid' does not resolve" "$tmp/out" && [ ! -e "$tmp/realbad/env" ]
check "up with a host that does not resolve: fails now, naming it (exit $rc: $(head -c 200 "$tmp/out"))" $?
run "check: Table 1 quotas, 1/4 each" 0 "w1 *sp=1000 *25.0% of a core" "$cl" check "$here/hostfile"
# The period: 10 ms, longer so the smallest quota is 5 ms (docs/cluster.md,
# "CPU quotas: the scale"); a period the user gives is kept down to 1 ms quotas.
run "check: Table 1's period 20 ms (5 ms quotas)" 0 "w1 *sp=1000 *25.0% of a core (5000 us every 20000 us)" \
    "$cl" check "$here/hostfile"
run "check: Table 2's period 45 ms (the 1/9 hosts' quotas 5 ms)" 0 "w4 *sp=6000 *66.7% of a core (30000 us every 45000 us)" \
    "$cl" check "$here/hostfiles/table2"
run "check: CLUSTER_PERIOD_US=10000 kept" 0 "w1 *sp=1000 *11.1% of a core (1111 us every 10000 us)" \
    env CLUSTER_PERIOD_US=10000 "$cl" check "$here/hostfiles/table2"
run "check: CLUSTER_PERIOD_US=2000 grows to keep 1 ms quotas" 0 "w1 *sp=1000 *11.1% of a core (1000 us every 9000 us)" \
    env CLUSTER_PERIOD_US=2000 "$cl" check "$here/hostfiles/table2"
run "CLUSTER_PERIOD_US not a number: named" 2 "CLUSTER_PERIOD_US='20ms' is not a period" \
    env CLUSTER_PERIOD_US=20ms "$cl" check "$here/hostfile"
run "CLUSTER_PERIOD_US below 1 ms: named" 2 "CLUSTER_PERIOD_US='999' is not a period" \
    env CLUSTER_PERIOD_US=999 "$cl" check "$here/hostfile"
run "check: ep= is the checkout's bin" 0 "ep=$BIN wd=$here" "$cl" check "$here/hostfile"
run "down when down" 0 "not up" "$cl" down
run "status when down" 1 "not up" "$cl" status
run "load when down" 1 "no cluster is up" "$load" w1 2
run "load N not a number" 1 "N 'x' is not a number" "$load" w1 x
run "load --for not a number" 1 "'soon' is not a number" "$load" w1 1 --for soon

# ---- the emulated cluster: Table 2 -------------------------------------------------
"$cl" up --emulate "$here/hostfiles/table2" >"$tmp/up.out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] && grep -q "cannot emulate hosts here" "$tmp/up.out"; then
    skip "emulated-cluster checks: $(sed 's/^cluster: //' "$tmp/up.out" | head -n 1)"
    emulate=0
else
    emulate=1
    check "up hostfiles/table2 (exit $rc: $(tail -n 1 "$tmp/up.out"))" "$rc"
fi

if [ "$emulate" = 1 ] && [ "$rc" = 0 ]; then
    r=$(ev DTSS_RUN) id=$(ev DTSS_CLUSTER)
    cgdir=$(sed -n 's/^CG_DIR=//p' "$r/state")
    pvmds=$(our_pids "$r" | while read -r p; do [ "$(cat "/proc/$p/comm")" = pvmd ] && echo "$p"; done | tr '\n' ' ')
    n=$(echo "$pvmds" | wc -w)
    [ "$n" = 5 ]; check "a master and 4 slave pvmds run ($n: $pvmds)" $?
    # Each slave pvmd lives in its host (cgroup and CPU), so that whatever it
    # spawns does too; the master pvmd in none.
    cgs=$(for p in $pvmds; do sed -n 's/^[0-9]*:\(.*,\)\{0,1\}cpu\(,.*\)\{0,1\}:\(.*\)/\3/p; s/^0::\(.*\)/\1/p' "/proc/$p/cgroup" | head -n 1; done | sort | tr '\n' ' ')
    [ "$(echo "$cgs" | tr ' ' '\n' | grep -v '^/dtss/' | grep -c .)" = 1 ] &&
        [ "$(echo "$cgs" | tr ' ' '\n' | grep '^/dtss/' | tr '\n' ' ')" = "/dtss/$id/w1 /dtss/$id/w2 /dtss/$id/w3 /dtss/$id/w4 " ]
    check "the master pvmd is in no host, each slave in its host's cgroup ($cgs)" $?
    pinned=0
    for p in $pvmds; do
        c=$(sed -n 's/^[0-9]*:\(.*,\)\{0,1\}cpu\(,.*\)\{0,1\}:\(.*\)/\3/p; s/^0::\(.*\)/\1/p' "/proc/$p/cgroup" | head -n 1)
        h=${c##*/}
        [ "$c" = "/dtss/$id/$h" ] || continue
        want=$(awk -v h="$h" '$1 == h { print $2 }' "$r/cpus")
        [ "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "/proc/$p/status")" = "$want" ] &&
            pinned=$((pinned + 1))
    done
    [ "$pinned" = 4 ]; check "each slave pvmd on its host's CPU ($pinned of 4)" $?

    grep -q "wd=$here/results/console\( \|\$\)" "$r/hostfile" && [ -d "$here/results/console" ]
    check "the console's runs go to results/console/ (wd=, created), not the checkout's top" $?

    pvmc conf >"$tmp/conf"
    for hs in master:1000 w1:1000 w2:1000 w3:1000 w4:6000; do
        awk -v h="${hs%:*}" -v s="${hs#*:}" '$1 == h && $4 == s { f = 1 } END { exit !f }' "$tmp/conf"
        check "conf lists ${hs%:*} with speed ${hs#*:}" $?
    done

    spawn_probes w1 w2 w3 w4 >"$tmp/probes"
    for h in w1 w2 w3 w4; do
        grep -q "^$h host=$h backend=cgroup cgroup=/dtss/$id/$h Q=1 cpus=1\$" "$tmp/probes"
        check "a worker spawned on $h reports host $h, cgroup /dtss/$id/$h, Q=1: $(grep "^$h " "$tmp/probes")" $?
    done

    # A program PVM does not find through ep=, copied after the cluster came
    # up and spawned by its absolute path, still runs in its host's cgroup
    # and on its host's CPU: it inherits them from the pvmd.
    mkdir -p "$tmp/elsewhere" && cp "$BIN/worker" "$tmp/elsewhere/prober"
    PROBER=$tmp/elsewhere/prober spawn_probes w2 >"$tmp/abs.out"
    grep -q "^w2 host=w2 backend=cgroup cgroup=/dtss/$id/w2 Q=1 cpus=1\$" "$tmp/abs.out"
    check "a program from elsewhere, spawned by absolute path, runs in its host: $(cat "$tmp/abs.out")" $?

    "$cl" speeds >"$tmp/speeds" 2>&1
    awk '$1 == "w4" { v = substr($4, 4) + 0; exit !(v >= 4500 && v <= 7500) }' "$tmp/speeds" &&
        awk '$1 == "w1" { v = substr($4, 4) + 0; exit !(v >= 850 && v <= 1150) }' "$tmp/speeds"
    check "speeds inside the emulated Table 2 hosts: w1 about 1000, w4 about 6000 ($(grep 'sp=' "$tmp/speeds" | tr -s ' ' | tr '\n' ';'))" $?

    run "up twice is harmless" 0 "is up already" "$cl" up "$here/hostfiles/table2"
    n=$(our_pids "$r" | while read -r p; do [ "$(cat "/proc/$p/comm")" = pvmd ] && echo "$p"; done | wc -l)
    [ "$n" = 5 ]; check "up twice starts no pvmd ($n)" $?
    run "up with another hostfile while up" 1 "up with another hostfile" "$cl" up "$here/hostfile"

    run "load w1 3" 0 "w1: 3 busy" "$load" w1 3
    spawn_probes w1 w2 w3 w4 >"$tmp/probes"
    grep -q "^w1 host=w1 .* Q=4 cpus=1\$" "$tmp/probes"; check "after load w1 3, Q=4 on w1: $(grep '^w1 ' "$tmp/probes")" $?
    for h in w2 w3 w4; do
        grep -q "^$h host=$h .* Q=1 cpus=1\$" "$tmp/probes"; check "after load w1 3, Q=1 on $h: $(grep "^$h " "$tmp/probes")" $?
    done
    "$cl" status >"$tmp/status" 2>&1
    check "status runs" $?
    awk '$1 == "w1" && $3 == 1000 && $4 == "11.1%" && $5 == "yes" && $6 == 3 && $7 == 4 { f = 1 } END { exit !f }' "$tmp/status"
    check "status: w1 sp 1000, 11.1%, in PVM, 3 loaders, Q 4: $(grep '^w1 ' "$tmp/status")" $?
    awk '$1 == "w4" && $3 == 6000 && $4 == "66.7%" && $6 == 0 && $7 == 1 { f = 1 } END { exit !f }' "$tmp/status"
    check "status: w4 sp 6000, 66.7%, no loaders, Q 1: $(grep '^w4 ' "$tmp/status")" $?
    run "load w1 0: says how many it stopped" 0 "w1: no loaders (3 busy processes stopped)" "$load" w1 0
    q=$(q_of w1); [ "$q" = 1 ]; check "after load w1 0, Q=1 on w1 (got $q)" $?
    run "load w3 1: one busy process (singular)" 0 "w3: 1 busy process\$" "$load" w3 1
    run "load w3 0 again: 1 stopped" 0 "w3: no loaders (1 busy process stopped)" "$load" w3 0
    run "load an unknown host" 1 "no host 'w9'" "$load" w9 1

    # Load that changes during a run: 2 loaders on w2 from +1 s for 4 s (a
    # window long enough for a probe to start on a loaded 1/9-CPU host,
    # also under the sanitizers).
    start=$(date +%s.%N)
    run "load --after --for" 0 "w2: 2 busy processes from +1s for 4s" "$load" w2 2 --after 1 --for 4
    q=$(q_of w2); [ "$q" = 1 ]; check "load --after 1: Q=1 on w2 at first (got $q)" $?
    i=0; q=""
    while [ "$i" -lt 40 ] && [ "$q" != 3 ]; do sleep 0.1; q=$(q_of w2); i=$((i + 1)); done
    [ "$q" = 3 ]; check "load --after 1: Q=3 on w2 then (got $q)" $?
    i=0
    while [ "$i" -lt 100 ] && [ "$q" != 1 ]; do sleep 0.1; q=$(q_of w2); i=$((i + 1)); done
    secs=$(awk -v a="$start" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
    [ "$q" = 1 ] && awk -v s="$secs" 'BEGIN { exit !(s >= 4.5) }'
    check "load --for 4: Q=1 on w2 again, ~5 s after the start ($secs s, Q=$q)" $?

    # --at T: the loaders forked at the call wait out of the run-queue until
    # T; when they started is in run/load/HOST.since. Refused: --at with
    # --after, and a T that is not seconds.
    at=$(awk -v n="$(date +%s.%N)" 'BEGIN { printf "%.6f", n + 1.5 }')
    run "load --at T" 0 "w3: 2 busy processes from $at" "$load" w3 2 --at "$at"
    q=$(q_of w3); [ "$q" = 1 ]; check "load --at T: Q=1 on w3 before T, its 2 loaders waiting (got $q)" $?
    i=0
    while [ "$i" -lt 40 ] && [ "$q" != 3 ]; do sleep 0.1; q=$(q_of w3); i=$((i + 1)); done
    since=$(cat "$r/load/w3.since" 2>/dev/null)
    [ "$q" = 3 ] && awk -v s="$since" -v t="$at" 'BEGIN { exit !(s + 0 == s && s >= t - 0.001 && s < t + 0.5) }'
    check "load --at T: Q=3 on w3 then, started at T$(awk -v s="$since" -v t="$at" 'BEGIN { printf "%+.3f", s - t }') s (got Q=$q)" $?
    run "load w3 0 after --at" 0 "w3: no loaders (2 busy processes stopped)" "$load" w3 0
    [ ! -e "$r/load/w3.since" ] && [ ! -e "$r/load/w3.go" ]; check "load w3 0: its .since and FIFO gone" $?
    # replaced before its start: the waiting loaders go too (no process of
    # the cluster left in w3's cgroup, no load at T)
    at=$(awk -v n="$(date +%s.%N)" 'BEGIN { printf "%.6f", n + 1 }')
    "$load" w3 2 --at "$at" >/dev/null 2>&1
    run "load w3 0 before its --at" 0 "w3: no loaders (0 busy processes stopped)" "$load" w3 0
    sleep 1.2
    q=$(q_of w3); [ "$q" = 1 ]; check "load w3 0 before T: no load at T (Q=$q)" $?
    run "load --at with --after refused" 1 "--after and --at: one or the other" "$load" w3 1 --at "$at" --after 1
    run "load --at not seconds refused, named" 1 "--at 'soon' is not a number of seconds" "$load" w3 1 --at soon

    # Several hosts at one instant (HOST:N ..., the calls side by side, their
    # lines in the order given) and --landed, their mean start.
    at=$(awk -v n="$(date +%s.%N)" 'BEGIN { printf "%.6f", n + 1.5 }')
    "$load" w3:2 w2:1 --at "$at" >"$tmp/several" 2>&1; rc=$?
    [ "$rc" = 0 ] && [ "$(wc -l <"$tmp/several")" = 2 ] &&
        [ "$(sed -n 1p "$tmp/several")" = "load: w3: 2 busy processes from $at" ] &&
        [ "$(sed -n 2p "$tmp/several")" = "load: w2: 1 busy process from $at" ]
    check "load w3:2 w2:1 --at T: a line each, in the order given (exit $rc: $(head -c 200 "$tmp/several"))" $?
    q2=$(q_of w2) q3=$(q_of w3)
    [ "$q2" = 1 ] && [ "$q3" = 1 ]; check "load w3:2 w2:1 --at T: Q=1 on both before T (got $q2, $q3)" $?
    i=0
    while [ "$i" -lt 40 ] && { [ "$q2" != 2 ] || [ "$q3" != 3 ]; }; do sleep 0.1; q2=$(q_of w2) q3=$(q_of w3); i=$((i + 1)); done
    [ "$q2" = 2 ] && [ "$q3" = 3 ]; check "load w3:2 w2:1 --at T: Q=2 on w2 and Q=3 on w3 then (got $q2, $q3)" $?
    s2=$(cat "$r/load/w2.since" 2>/dev/null) s3=$(cat "$r/load/w3.since" 2>/dev/null)
    landed=$("$load" --landed w2 w3 2>"$tmp/landed.err"); rc=$?
    [ "$rc" = 0 ] && [ ! -s "$tmp/landed.err" ] &&
        awk -v l="$landed" -v a="$s2" -v b="$s3" -v t="$at" \
            'BEGIN { exit !(l + 0 == l && a >= t - 0.001 && b >= t - 0.001 && a < t + 0.5 && b < t + 0.5 &&
                            l - (a + b) / 2 < 1e-5 && (a + b) / 2 - l < 1e-5) }'
    check "load --landed w2 w3: the mean of their starts, at T (T$(awk -v l="$landed" -v t="$at" 'BEGIN { printf "%+.3f", l - t }') s; w2 $s2, w3 $s3, exit $rc)" $?
    before=$(date +%s.%N)
    landed=$("$load" --landed w4 2>"$tmp/landed.err"); rc=$?
    [ "$rc" = 0 ] && grep -q "w4: its load has not started (counted as now)" "$tmp/landed.err" &&
        awk -v l="$landed" -v b="$before" -v e="$(date +%s.%N)" 'BEGIN { exit !(l >= b - 0.001 && l <= e + 0.001) }'
    check "load --landed w4 (no load): now, and w4 named on stderr (exit $rc, $landed)" $?
    run "load w3:0 w2:0" 0 "w2: no loaders (1 busy process stopped)" "$load" w3:0 w2:0
    run "load HOST:N with a bad N refused, named" 1 "'w2:x': N 'x' is not a number of processes" "$load" w2:x w3:1
    run "load HOST:N beside HOST refused, named" 1 "'w3': several hosts are each HOST:N" "$load" w2:1 w3
    run "load --landed of no host refused, named" 1 "no host 'w9' in the cluster" "$load" --landed w2 w9
    run "load --landed with --at refused" 2 "usage: scripts/load" "$load" --landed w2 --at "$at"

    # Loaders still running at down go with it.
    "$load" w3 2 >/dev/null 2>&1
    "$load" w4 1 --after 60 >/dev/null 2>&1
    run "down" 0 "down in" "$cl" down
    gone "$r" "$id" "$cgdir"
    run "down twice is harmless" 0 "not up" "$cl" down
fi

# ---- the emulated cluster: Table 1 (the default hostfile), and make clean ---------
if [ "$emulate" = 1 ]; then
    printf '* ep=/x\nw1\nmaster sp=2\n' >"$tmp/bad8"
    run "a host called master" 2 "bad8:3: 'master' is the master pvmd's name" "$cl" up --emulate "$tmp/bad8"
    printf 'w1 ip=w1.example.org\n' >"$tmp/bad9"
    run "ip= on an emulated host" 2 "bad9:1: ip= is not for emulated hosts" "$cl" up --emulate "$tmp/bad9"
    run "up hostfile (Table 1)" 0 "w4 (sp=1000, 25.0% of a core)" "$cl" up "$here/hostfile"
    if [ -f "$CLUSTER_DIR/env" ]; then
        r=$(ev DTSS_RUN) id=$(ev DTSS_CLUSTER)
        cgdir=$(sed -n 's/^CG_DIR=//p' "$r/state")
        pvmds=$(our_pids "$r" | while read -r p; do [ "$(cat "/proc/$p/comm")" = pvmd ] && echo "$p"; done | tr '\n' ' ')
        n=$(pvmc conf | awk '$1 ~ /^w[1-4]$/ && $4 == 1000' | wc -l)
        [ "$n" = 4 ]; check "Table 1: conf lists w1..w4 with speed 1000 ($n)" $?
        # As after `make clean` while up: the env file is gone, down still finds the cluster.
        rm -rf "$CLUSTER_DIR"
        run "down after the env file was removed" 0 "down in" "$cl" down
        gone "$r" "$id" "$cgdir"
    fi
fi

# ---- 32 equal hosts (Heymann et al.'s pool): up, a worker on each, down -------------
if [ "$emulate" = 1 ]; then
    run "up hostfiles/heymann (32 hosts)" 0 "w32 (sp=1000, 3.1% of a core)" "$cl" up \
        "$here/hostfiles/heymann"
    if [ -f "$CLUSTER_DIR/env" ]; then
        r=$(ev DTSS_RUN) id=$(ev DTSS_CLUSTER)
        cgdir=$(sed -n 's/^CG_DIR=//p' "$r/state")
        pvmds=$(our_pids "$r" | while read -r p; do [ "$(cat "/proc/$p/comm")" = pvmd ] && echo "$p"; done | tr '\n' ' ')
        n=$(pvmc conf | awk '$1 ~ /^w[0-9]+$/ && $4 == 1000' | wc -l)
        [ "$n" = 32 ]; check "32 hosts: conf lists w1..w32 with speed 1000 ($n)" $?
        (. "$CLUSTER_DIR/env" && cd "$tmp" && timeout 120 "$BIN/coordinator" -s dtss -S 64 \
            -m 200 -o none -r h32.csv -q) >"$tmp/h32.out" 2>&1
        hosts=$("$BIN/record" "$tmp/h32.csv" worker host 2>/dev/null | sort -u | wc -l)
        [ "$hosts" = 32 ]; check "32 hosts: the coordinator runs a worker on each ($hosts distinct hosts; $(head -c 200 "$tmp/h32.out"))" $?
        run "32 hosts: down" 0 "down in" "$cl" down
        gone "$r" "$id" "$cgdir"
    fi
fi

# ---- the fallback: a one-host PVM --------------------------------------------------
run "up --local" 0 "one-host PVM" "$cl" up --local "$here/hostfiles/table2"
if [ -f "$CLUSTER_DIR/env" ]; then
    r=$(ev DTSS_RUN) id=$(ev DTSS_CLUSTER) mode=$(ev DTSS_MODE) hosts=$(ev DTSS_HOSTS)
    pvmds=$(our_pids "$r" | tr '\n' ' ')
    [ "$mode" = local ] && [ "$hosts" = "w1 w2 w3 w4" ]
    check "fallback env: DTSS_MODE=local, DTSS_HOSTS='w1 w2 w3 w4' ($mode, $hosts)" $?
    n=$(pvmc conf | grep -c '0x[0-9a-f]*$')
    [ "$n" = 1 ]; check "fallback: conf lists one host ($n)" $?
    spawn_probes "$(ev DTSS_MASTER)" >"$tmp/probes"
    grep -q "host=$(hostname) backend=proc .* Q=[0-9]" "$tmp/probes"
    check "fallback: a spawned worker runs here, proc back-end: $(cat "$tmp/probes")" $?
    run "fallback: load refuses" 1 "not emulated" "$load" w1 1
    run "fallback: down" 0 "down in" "$cl" down
    i=0
    while [ -n "$(our_pids "$r")" ] && [ "$i" -lt 50 ]; do sleep 0.1; i=$((i + 1)); done
    [ -z "$(our_pids "$r")" ]; check "fallback: down leaves no pvmd" $?
    [ ! -e "$r" ] && [ ! -e "$CLUSTER_DIR" ]; check "fallback: down leaves no file" $?
fi

finish
