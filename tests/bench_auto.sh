#!/bin/sh
# bench_auto.sh: what --scheme auto's decisions cost (sim/select.h; make
# bench). A decision simulates every candidate three times (the costs x 1,
# 10, 100) on the loop's tail; it must cost less than it gains. Prints, per
# case, the decisions, their CPU time each and in all, and the ratio of that
# CPU time to the run's finish:
#   - simulated (bin/sim --stats: the decisions' CPU, not charged to the
#     simulated run): the league's image on Xu Table 1's loaded hosts (1200
#     rows of 600 pixels, maxiter 3000, R = 4), and 16 loaded hosts over
#     10^5 and 10^6 uniform iterations (how the cost grows with the tail);
#   - on PVM (bin/coordinator -s auto --local 2, a private pvmd; the
#     master's log says each decision's CPU): the same image, where the
#     master spends that time before it serves the next request.
# A run that fails, or a number missing, fails the benchmark (exit 1):
# nothing passes unmeasured. Take the emulated cluster's lock around it
# (flock /tmp/dtss-cluster.lock), as every timing benchmark.
#   usage: tests/bench_auto.sh   (BIN: programs, default bin)
set -u
case ${1:-} in -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
for p in sim mandel coordinator record; do
    [ -x "$BIN/$p" ] || { echo "bench_auto: no $BIN/$p (make)" >&2; exit 1; }
done
tmp=$(mktemp -d /tmp/dtss-benchauto.XXXXXX)
. "$(dirname "$0")/pvmlib.sh"
cleanup() {
    pvm_down
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
cd "$tmp" || exit 1
die() { echo "bench_auto: $*: nothing passes unmeasured" >&2; exit 1; }

"$BIN/mandel" -W 600 -H 1200 -m 3000 -R 4 -c costs.csv -q >/dev/null 2>&1 ||
    die "bin/mandel --costs failed"
echo "--scheme auto: the decisions' CPU against the run's finish"
printf '  %-34s %9s %12s %12s %10s %10s\n' case decisions "cpu/decision" "cpu in all" finish ratio
# sim_case NAME SCENARIO
sim_case() {
    "$BIN/sim" "$2" -s auto --stats >out.txt 2>&1 || die "$1: bin/sim failed: $(head -c 300 out.txt)"
    f=$(sed -n 's/.* Finish \([0-9.e+-]*\) .*/\1/p' out.txt)
    d=$(sed -n 's/^auto decisions \([0-9]*\) cpu .*/\1/p' out.txt)
    c=$(sed -n 's/^auto decisions [0-9]* cpu \([0-9.e+-]*\) s$/\1/p' out.txt)
    [ -n "$f" ] && [ -n "$d" ] && [ -n "$c" ] && [ "$d" -ge 1 ] || die "$1: no decision or no finish measured"
    awk -v n="$1" -v d="$d" -v c="$c" -v f="$f" 'BEGIN {
        printf "  %-34s %9d %10.3f ms %10.3f ms %8.3f s %10.5f\n", n, d, c / d * 1e3, c * 1e3, f, c / f }'
}
printf 'host w1 speed=6.64e7 load=0:3\nhost w2 speed=6.64e7 load=0:2\nhost w3 speed=6.64e7 load=0:1\nhost w4 speed=6.64e7\nlink * * latency=0.0002 bandwidth=1e9\n' >t1.plat
printf 'platform t1.plat\nworkload mandel costs=costs.csv\nsample 4\nresult-bytes 2400\n' >t1.scn
sim_case "sim: image, Table 1 loaded" t1.scn
printf 'host a speed=1e6 count=12\nhost b speed=1e6 load=0:2 count=4\nlink * * latency=0.001 bandwidth=1e9\n' >p16.plat
for I in 100000 1000000; do
    printf 'platform p16.plat\nworkload uniform n=%s cost=10\n' "$I" >u.scn
    sim_case "sim: 16 hosts, $I uniform" u.scn
done

pvm_up "$tmp" "$BIN" || die "no private pvmd"
"$BIN/coordinator" -s auto --local 2 -W 600 -H 1200 -m 3000 -R 4 -r rec.csv >out.txt 2>&1 ||
    die "bin/coordinator -s auto failed: $(head -c 300 out.txt)"
f=$("$BIN/record" rec.csv run finish 2>/dev/null)
cs=$(sed -n 's/.*(decided in \([0-9.e+-]*\) ms of CPU;.*/\1/p' out.txt | tr '\n' ' ')
[ -n "$f" ] && [ -n "$cs" ] || die "PVM: no decision or no finish measured"
echo "$cs" | awk -v f="$f" '{ for (i = 1; i <= NF; i++) c += $i
    printf "  %-34s %9d %10.3f ms %10.3f ms %8.3f s %10.5f\n", "PVM: image, 2 local workers", NF, c / NF, c, f, c / 1e3 / f }'
echo "  (ratio: the decisions' CPU over the run's finish; the league's auto"
echo "   column says what they gained: docs/performance.md, \"--scheme auto\")"
