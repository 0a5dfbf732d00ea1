#!/bin/sh
# bench_sim.sh: the simulator's own cost (make bench): DTSS with up to 10,000
# workers and 10^8 iterations (target: under 2 s), and how the cost grows
# with the workers P and the iterations I: with the chunks, not the
# iterations.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
echo "simulator: DTSS, uniform iterations, 1 ms links"
printf '  %8s %11s %8s %8s %10s %10s\n' workers iterations chunks "cpu s" "us/chunk" "peak KiB"
worst=0
for P in 100 1000 10000; do
    printf 'host w speed=1e6 count=%s\nlink * * latency=0.001\n' $P >p.plat
    for I in 1000000 10000000 100000000; do
        printf 'platform p.plat\nworkload uniform n=%s cost=1\nscheme dtss\n' $I >s.scn
        "$BIN/sim" s.scn -q --stats >out.txt || exit 1
        awk -v P=$P -v I=$I '{ printf "  %8d %11d %8d %8.3f %10.2f %10d\n", P, I, $6, $8, $8 / $6 * 1e6, $11 }' out.txt
        [ $P = 10000 ] && [ $I = 100000000 ] && worst=$(awk '{ print $8 }' out.txt)
    done
done
echo "$worst" | awk '{ printf "  10,000 workers, 10^8 iterations: %.3f s (target < 2 s): %s\n", $1, $1 < 2 ? "met" : "NOT met" }'
