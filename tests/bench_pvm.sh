#!/bin/sh
# bench_pvm.sh: PVM benchmarks, measured as ratios in one run on a private
# one-host virtual machine (make bench):
#  1. per-chunk overhead: the coordinator serving one-row chunks (PSS, one
#     iteration a pixel) to one local worker, next to a raw PVM ping-pong of
#     the same message sizes (bin/pingpong); target ratio <= 1.2;
#  2. one host, two workers: a whole DTSS run of the default image next to
#     the sequential bin/mandel and an OpenMP schedule(guided) build of the
#     same kernel (bin/bench_omp); target within 5% of OpenMP.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
tmp=$(mktemp -d /tmp/dtss-bench.XXXXXX)
. "$(dirname "$0")/pvmlib.sh"
trap 'pvm_down; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
cd "$tmp" || exit 1

now() { date +%s.%N; }

echo "PVM per-chunk overhead (one local worker, 200-pixel rows, 1 iteration a pixel)"
# Everything on one CPU: on this VM a wake-up across CPUs takes 100 to 800 us
# and varies from run to run, drowning what is measured; on one CPU a round
# trip takes about 30 us. The two are measured alternately, 7 times each,
# and their medians and minimums compared.
pvm_up "$tmp" "$BIN" 1 || { echo "bench_pvm: could not start a pvmd"; exit 1; }
rows=3000
: >pp.txt; : >co.txt
for _ in 1 2 3 4 5 6 7; do
    taskset -c 1 "$BIN/pingpong" -n $rows -w 200 >>pp.txt
    taskset -c 1 "$BIN/coordinator" -s pss --local 1 -W 200 -H $rows -m 1 -R 1 -o none -r rec.csv -q >/dev/null
    "$BIN/record" rec.csv run finish | awk -v n=$rows '{ printf "%.1f\n", $1 / n * 1e6 }' >>co.txt
done
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
minimum() { sort -n "$1" | head -n 1; }
rtt=$(median pp.txt)
per=$(median co.txt)
echo "  raw ping-pong round trip    $rtt us  (median; runs: $(tr '\n' ' ' <pp.txt))"
echo "  coordinator, per chunk      $per us  (median; runs: $(tr '\n' ' ' <co.txt))"
echo "$per $rtt $(minimum co.txt) $(minimum pp.txt)" |
    awk '{ printf "  ratio per-chunk/ping-pong = %.2f of the medians, %.2f of the minimums (target <= 1.2)\n", $1 / $2, $3 / $4 }'

pvm_down
pvm_up "$tmp" "$BIN" || { echo "bench_pvm: could not start a pvmd"; exit 1; }

echo "One host, two workers, default image (1200x1200, maxiter 16000)"
seq=$("$BIN/mandel" | sed 's/.*seconds \([0-9.]*\).*/\1/')
omp=$(OMP_NUM_THREADS=2 "$BIN/bench_omp" | awk '{ print $1 }')
t0=$(now)
"$BIN/coordinator" -s dtss --local 2 -o none -r dtss.csv -q >/dev/null
t1=$(now)
fin=$("$BIN/record" dtss.csv run finish)
wall=$(echo "$t0 $t1" | awk '{ printf "%.3f", $2 - $1 }')
echo "  sequential bin/mandel       $seq s"
echo "  OpenMP guided, 2 threads    $omp s"
echo "  DTSS on PVM, 2 workers      $fin s (finish time), $wall s (whole command, spawn included)"
echo "$seq $omp $fin $wall" | awk '{
    printf "  speedup over sequential: DTSS %.2f, OpenMP %.2f\n", $1 / $3, $1 / $2
    printf "  ratio DTSS/OpenMP = %.3f finish, %.3f whole command (target <= 1.05)\n", $3 / $2, $4 / $2 }'
