#!/bin/sh
# link.sh: the emulated cluster's shaped links and bin/netpipe, as a user runs
# them: a hostfile's '# dtss: link' line checked (errors name the line), a
# two-host cluster up with a 10 Mbit/s link (tc on both ends of every host's
# port, shown by status), NetPIPE's ping-pong between the hosts over PVM
# (no message faster than the rate allows), Figs. 8-9 drawn (the link's rate,
# the fit in µs and its sizes), a delay= line (netem) applied or refused by
# name, and down leaving nothing; bin/netpipe's
# options and its run on a private one-host PVM. A private cluster (its own
# CLUSTER_DIR), removed even on failure; without root/namespaces/cgroups the
# cluster checks are skipped (counted, with the reason).
set -u
BIN=${BIN:-bin}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
cl=$here/scripts/cluster
tmp=$(mktemp -d)
export CLUSTER_DIR="$tmp/cluster" DTSS_BIN="$BIN" CLUSTER_CORES=1
. "$here/tests/lib.sh"
. "$here/tests/pvmlib.sh"
trap '"$cl" down >/dev/null 2>&1; pvm_down >/dev/null 2>&1; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

# ---- the link line, checked ----------------------------------------------------
hf() { printf '%s\n' "$@" >"$tmp/hf"; }
hf '# dtss: link rate=10mbps' 'w1'
run "rate without a tc unit: named, with its line" 2 "hf:1: bad link option 'rate=10mbps'" "$cl" check "$tmp/hf"
hf 'w1' '# dtss: link rate=5kbit'
run "rate below 10kbit" 2 "hf:2: bad link option 'rate=5kbit'" "$cl" check "$tmp/hf"
hf '# dtss: link rate=10mbit jitter=1ms' 'w1'
run "unknown link option" 2 "unknown link option 'jitter=1ms'" "$cl" check "$tmp/hf"
hf '# dtss: link' 'w1'
run "link line without options" 2 "link line without rate= or delay=" "$cl" check "$tmp/hf"
hf '# dtss: link delay=2s' 'w1'
run "delay in seconds refused (us or ms, at most 1000ms)" 2 "bad link option 'delay=2s'" "$cl" check "$tmp/hf"
hf '# dtss: link rate=10mbit' 'w1' '# dtss: link rate=1mbit'
run "two link lines" 2 "hf:3: a second link line (the first is line 1)" "$cl" up "$tmp/hf"
[ ! -e "$CLUSTER_DIR" ]; check "a bad link line makes nothing" $?
run "check prints the link" 0 "link: rate 10mbit on every emulated host's port" "$cl" check "$here/hostfiles/yoon"
hf '# dtss: link rate=1.5mbit delay=0.1ms' 'w1'
run "check: a decimal rate and a delay" 0 "link: rate 1.5mbit, delay 0.1ms" "$cl" check "$tmp/hf"

# ---- bin/netpipe without a cluster ---------------------------------------------
run "netpipe --help" 0 "usage: netpipe" "$BIN/netpipe" --help
run "netpipe --max 0 names it" 2 "max '0'" "$BIN/netpipe" --max 0
run "netpipe --route names it" 2 "route 'udp'" "$BIN/netpipe" --route udp
run "netpipe --time 0" 2 "time '0'" "$BIN/netpipe" --time 0
run "netpipe stray argument" 2 "unexpected argument 'w2'" "$BIN/netpipe" w2
mkdir -p "$tmp/nopvm"
run "netpipe without a pvmd: said, exit 1" 1 "no PVM daemon" \
    env PVM_TMP="$tmp/nopvm" PVM_ALLOW_ROOT=yes "$BIN/netpipe" --max 8
mkdir -p "$tmp/vm"
if pvm_up "$tmp/vm" "$BIN"; then
    run "netpipe on one host" 0 "fit: C_t = " "$BIN/netpipe" --max 4096 --time 0.01 -q -o "$tmp/local.csv"
    # 1 2 3; 4 7; 8 11 (1 and 5 are not above the size before); 13 16 19
    # ... 2045 2048 2051; 4093 4096: 3 + 2 + 2 + 8 x 3 + 2 = 33 sizes.
    n=$(grep -c '^[0-9]' "$tmp/local.csv")
    [ "$(head -n 1 "$tmp/local.csv")" = "bytes,seconds,mbps,repeats" ] && [ "$n" = 33 ] &&
        [ "$(awk -F, 'NR > 1 && /^[0-9]/ { printf "%s ", $1 }' "$tmp/local.csv")" = "1 2 3 4 7 8 11 13 16 19 29 32 35 61 64 67 125 128 131 253 256 259 509 512 515 1021 1024 1027 2045 2048 2051 4093 4096 " ]
    check "netpipe's CSV: the header and NetPIPE's 33 sizes up to 4096 ($n)" $?
    awk -F, 'NR > 1 && /^[0-9]/ { if ($2 <= 0 || ($1 * 8 / $2 / 1e6 - $3) ^ 2 > 1e-4 * $3 ^ 2) bad = 1 } END { exit bad }' "$tmp/local.csv"
    check "netpipe: every time > 0, throughput = bytes x 8 / time" $?
    run "netpipe --to a host not in the machine: bad input" 2 "cannot start the echo task on nosuchhost" \
        "$BIN/netpipe" --to nosuchhost --max 8 -q
    "$here/scripts/plot" netpipe "$tmp/local.csv" "$tmp/local.png" >"$tmp/out" 2>&1 && [ -s "$tmp/local.png" ]
    check "plot netpipe wrote a PNG ($(head -c 200 "$tmp/out"))" $?
    pvm_down
else
    bad "a private pvmd for netpipe (pvmd.out: $(head -c 200 "$tmp/vm/pvmd.out" 2>/dev/null))"
fi
run "plot netpipe refuses another CSV" 1 "is not bin/netpipe output" \
    "$here/scripts/plot" netpipe "$here/tests/golden/chunks-dtss-acp" "$tmp/x.png"
# Figs. 8-9 with the link's rate, from a measurement of bin/netpipe's form
# (a token bucket at 10 Mbit/s: 1 KiB above the rate): the fit's formula in
# µs, naming the sizes b was fitted on; a bad rate refused by name.
cat >"$tmp/np.csv" <<'EOF'
bytes,seconds,mbps,repeats
1,0.000045825,0.1746,78
64,0.000072797,7.0333,655
1024,0.000456663,17.9388,109
4096,0.002370226,13.8248,20
16384,0.012631933,10.3762,3
65536,0.053916097,9.7241,1
262144,0.215873000,9.7146,1
1048576,0.880000000,9.5325,1
# the most throughput: 17.939 Mbit/s (1024-byte messages); with the largest message: 9.533 Mbit/s
# fit: C_t = 45.8 + 0.84015 m us (m in bytes; a: the 1-byte time; b: gsl_fit_linear over the 3 sizes of 65536 to 1048576 bytes)
EOF
PLOT_TRACE=$tmp/trace "$here/scripts/plot" netpipe "$tmp/np.csv" "$tmp/np.png" "a title" 10 >"$tmp/out" 2>&1 &&
    [ -s "$tmp/np.png" ]
check "plot netpipe with the link's rate wrote a PNG ($(head -c 200 "$tmp/out"))" $?
grep -qxF "C_t = 45.8 + 0.84015 m µs (m: bytes)" "$tmp/trace" && sed -n 8p "$tmp/trace" | grep -q "range"
check "plot netpipe: the fit in µs, the sizes of its slope given ($(sed -n 6p "$tmp/trace"))" $?
run "plot netpipe: a bad rate named" 1 "RATE 'fast' is not a positive number" \
    "$here/scripts/plot" netpipe "$tmp/np.csv" "$tmp/x.png" "a title" fast
run "plot netpipe: a zero rate named" 1 "RATE '0' is not a positive number" \
    "$here/scripts/plot" netpipe "$tmp/np.csv" "$tmp/x.png" "a title" 0

# ---- a shaped cluster ----------------------------------------------------------
links0=$(ip -o link show 2>/dev/null | grep -c "dtss-"); ns0=$(ip netns list 2>/dev/null | grep -c "^dtss-")
hf '# dtss: link rate=10mbit' "* ep=$BIN wd=$tmp" 'w1 sp=1000' 'w2 sp=1000'
"$cl" up --emulate "$tmp/hf" >"$tmp/up.out" 2>&1
rc=$?
if [ "$rc" -ne 0 ] && grep -q "cannot emulate hosts here" "$tmp/up.out"; then
    skip "shaped-link checks: $(sed 's/^cluster: //' "$tmp/up.out" | head -n 1)"
else
    check "up with a 10 Mbit/s link (exit $rc: $(tail -n 2 "$tmp/up.out" | head -c 300))" "$rc"
    grep -q "links: rate 10mbit on every host's port, both ways" "$tmp/up.out"
    check "up says the link" $?
    r=$(. "$CLUSTER_DIR/env" && printf %s "$DTSS_RUN") id=${r##*/}
    shaped=0
    while read -r _ _ ns veth _; do
        tc qdisc show dev "$veth" | grep -q "tbf .*rate 10Mbit" &&
            tc -n "$ns" qdisc show dev eth0 | grep -q "tbf .*rate 10Mbit" && shaped=$((shaped + 1))
    done <"$r/hosts.tab"
    [ "$shaped" = 2 ]; check "tbf at 10 Mbit/s on both ends of both hosts' ports ($shaped of 2)" $?
    run "status shows the link and its tc" 0 "links: rate 10mbit .*tc on w1's port: qdisc tbf .*rate 10Mbit" "$cl" status
    (. "$CLUSTER_DIR/env" && "$cl" run w1 "$BIN/netpipe" --to w2 --max 32768 --time 0.02 -q \
        -o "$tmp/w1w2.csv") >"$tmp/np.out" 2>&1
    check "netpipe from w1 to w2 (exit $?: $(head -c 300 "$tmp/np.out"))" $?
    # No message beyond the token bucket's one frame (1600 bytes) can arrive
    # sooner than its bytes take at 10 Mbit/s over the two ports: a lower
    # bound, whatever the machine's speed.
    slow=$(awk -F, 'NR > 1 && /^[0-9]/ && $1 >= 8192 { n++; if ($2 >= ($1 - 1600) * 8 / 10e6) k++ } END { printf "%d of %d", k, n }' "$tmp/w1w2.csv")
    [ "${slow%% of *}" = "${slow##* of }" ] && [ "${slow##* of }" -ge 6 ]
    check "every message of 8 KiB or more took at least its bytes at 10 Mbit/s ($slow)" $?
    "$here/scripts/plot" netpipe "$tmp/w1w2.csv" "$tmp/w1w2.png" "w1 -> w2" 10 >"$tmp/out" 2>&1 && [ -s "$tmp/w1w2.png" ]
    check "plot netpipe of the shaped link ($(head -c 200 "$tmp/out"))" $?
    pvmds=""
    run "down" 0 "cluster $id down" "$cl" down
    n=$(ip -o link show 2>/dev/null | grep -c "dtss-${id}[:@-]")
    [ "$n" = 0 ]; check "down leaves no bridge or veth of $id, so no qdisc (found $n)" $?
    n=$(ip netns list 2>/dev/null | grep -c "^dtss-$id-")
    [ "$n" = 0 ]; check "down leaves no namespace of $id (found $n)" $?
    run "down again: harmless" 0 "not up" "$cl" down

    # delay= needs netem: applied where the kernel has it, else up refuses,
    # naming it, and leaves nothing.
    hf '# dtss: link rate=10mbit delay=1ms' "* ep=$BIN wd=$tmp" 'w1 sp=1000'
    "$cl" up --emulate "$tmp/hf" >"$tmp/up.out" 2>&1
    rc=$?
    if [ "$rc" = 0 ]; then
        r=$(. "$CLUSTER_DIR/env" && printf %s "$DTSS_RUN")
        read -r _ _ ns veth _ <"$r/hosts.tab"
        tc qdisc show dev "$veth" | grep -q "netem .*delay 1ms.*rate 10Mbit"
        check "delay=: netem with the delay and the rate on the port" $?
        "$cl" down >/dev/null 2>&1
    else
        grep -q "needs tc's netem qdisc; this kernel has none" "$tmp/up.out"
        check "delay= on a kernel without netem: refused by name (exit $rc: $(head -c 300 "$tmp/up.out"))" $?
    fi
    n=$(ip -o link show 2>/dev/null | grep -c "dtss-"); m=$(ip netns list 2>/dev/null | grep -c "^dtss-")
    [ ! -e "$CLUSTER_DIR/env" ] && [ "$n" = "$links0" ] && [ "$m" = "$ns0" ]
    check "after the delay= case nothing of it is left (dtss links $n, before $links0; namespaces $m, before $ns0)" $?
fi
finish
