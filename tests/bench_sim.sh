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

# A platform of 10^6 hosts (read in O(n log n): names sorted for the
# duplicate check) and DTSS over 10^9 iterations on it: wall time (read,
# run, record) and peak memory, against the target of at most 10 s and
# 1 GiB. A measure, never an assertion.
echo "simulator: 10^6 hosts read and DTSS over 10^9 iterations"
printf 'host w speed=1e6 count=1000000\nlink * * latency=0.001\n' >big.plat
printf 'platform big.plat\nworkload uniform n=1000000000 cost=1\nscheme dtss\n' >big.scn
t0=$(date +%s.%N)
if "$BIN/sim" big.scn -q --stats >out.txt; then
    t1=$(date +%s.%N)
    awk -v t0="$t0" -v t1="$t1" '{ wall = t1 - t0; mib = $11 / 1024
        printf "  %d workers, %d iterations, %d chunks: wall %.2f s (cpu %.2f s), peak %.0f MiB\n", $2, $4, $6, wall, $8, mib
        printf "  target <= 10 s, <= 1 GiB: %s\n", wall <= 10 && mib <= 1024 ? "met" : "NOT met" }' out.txt
else
    echo "  bin/sim failed: target NOT met"
fi

# Memory against the run's length (issue 27): PSS (a chunk per iteration,
# the most chunks a scheme makes) over 10^5 to 10^7 iterations on two
# hosts. Without --record only the summary is kept; with it the record's
# entries go to spool files beside it. Peak memory (getrusage's maxrss,
# --stats) should not grow with the iterations: the ratio of the longest
# run's peak to the shortest's says so. A measure, never an assertion.
echo "simulator: peak memory against the iterations (pss, 2 hosts)"
printf 'host a speed=1\nhost b speed=2\nlink * * latency=0.001\n' >two.plat
printf 'platform two.plat\nworkload uniform n=100 cost=1\nscheme pss\n' >two.scn
printf '  %-16s %11s %10s %10s\n' run iterations "cpu s" "peak KiB"
for rec in none record; do
    first= last=
    for I in 100000 1000000 10000000; do
        [ $rec = record ] && [ $I = 10000000 ] && continue     # a 1.2 GB file: enough at 10^6
        if [ $rec = record ]; then
            "$BIN/sim" two.scn -w "uniform n=$I cost=1e-6" -q --stats -r rec.csv >out.txt || exit 1
            rm -f rec.csv
        else
            "$BIN/sim" two.scn -w "uniform n=$I cost=1e-6" -q --stats >out.txt || exit 1
        fi
        peak=$(awk '{ print $11 }' out.txt)
        awk -v r="$rec" -v I=$I '{ printf "  %-16s %11d %10.3f %10d\n", (r == "none" ? "no --record" : "--record FILE"), I, $8, $11 }' out.txt
        [ -z "$first" ] && first=$peak fi=$I
        last=$peak la=$I
    done
    awk -v a="$first" -v b="$last" -v i="$fi" -v j="$la" -v r="$rec" 'BEGIN {
        printf "  %s: peak x%.2f for x%d iterations (%d -> %d KiB)\n",
               r == "none" ? "no --record" : "--record FILE", b / a, j / i, a, b }'
done
