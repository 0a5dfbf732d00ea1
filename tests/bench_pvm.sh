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
pvm_up "$tmp" "$BIN" || { echo "bench_pvm: could not start a pvmd"; exit 1; }
cd "$tmp" || exit 1

now() { date +%s.%N; }

echo "PVM per-chunk overhead (one local worker, 200-pixel rows, 1 iteration a pixel)"
rtt=$("$BIN/pingpong" -n 3000 -w 200)
rows=3000
"$BIN/coordinator" -s pss --local 1 -W 200 -H $rows -m 1 -R 1 -o none -r rec.csv -q >sum.txt
finish=$(awk -F, '$1 == "run" { print $9 }' rec.csv)
per=$(echo "$finish $rows" | awk '{ printf "%.1f", $1 / $2 * 1e6 }')
echo "  raw ping-pong round trip    $rtt us"
echo "  coordinator, per chunk      $per us  ($rows chunks in $finish s)"
echo "$per $rtt" | awk '{ printf "  ratio per-chunk/ping-pong = %.2f (target <= 1.2)\n", $1 / $2 }'

echo "One host, two workers, default image (1200x1200, maxiter 16000)"
seq=$("$BIN/mandel" | sed 's/.*seconds \([0-9.]*\).*/\1/')
omp=$(OMP_NUM_THREADS=2 "$BIN/bench_omp" | awk '{ print $1 }')
t0=$(now)
"$BIN/coordinator" -s dtss --local 2 -o none -r dtss.csv -q >/dev/null
t1=$(now)
fin=$(awk -F, '$1 == "run" { print $9 }' dtss.csv)
wall=$(echo "$t0 $t1" | awk '{ printf "%.3f", $2 - $1 }')
echo "  sequential bin/mandel       $seq s"
echo "  OpenMP guided, 2 threads    $omp s"
echo "  DTSS on PVM, 2 workers      $fin s (finish time), $wall s (whole command, spawn included)"
echo "$seq $omp $fin $wall" | awk '{
    printf "  speedup over sequential: DTSS %.2f, OpenMP %.2f\n", $1 / $3, $1 / $2
    printf "  ratio DTSS/OpenMP = %.3f finish, %.3f whole command (target <= 1.05)\n", $3 / $2, $4 / $2 }'
