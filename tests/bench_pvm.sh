#!/bin/sh
# bench_pvm.sh: PVM benchmarks, measured as ratios in one run on a private
# one-host virtual machine (make bench):
#  1. per-chunk overhead: the runtime serving one-iteration chunks (PSS) to
#     one local worker (bin/bench_runtime), next to a raw PVM ping-pong of
#     the same messages (bin/pingpong); target ratio <= 1.2; and the
#     Mandelbrot coordinator serving one-row chunks (one iteration a pixel);
#  2. one host, two workers: a whole DTSS run of the default image next to
#     the sequential bin/mandel and an OpenMP schedule(guided) build of the
#     same kernel (bin/bench_omp); target within 5% of OpenMP.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
tmp=$(mktemp -d /tmp/dtss-bench.XXXXXX)
. "$(dirname "$0")/pvmlib.sh"
trap 'pvm_down; rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT PIPE TERM
cd "$tmp" || exit 1

now() { date +%s.%N; }
# need FILE N WHAT: FILE holds N numbers, one a line, or the benchmark stops
# (exit 1) saying what is missing: a ratio is never printed over no runs.
need() {
    got=$(grep -c '^[0-9][0-9.e+-]*$' "$1" 2>/dev/null)
    [ "${got:-0}" = "$2" ] && [ "$(wc -l <"$1")" = "$2" ] && return 0
    echo "bench_pvm: $3: ${got:-0} of $2 measurements (is every program built? 'make bench' builds them)" >&2
    exit 1
}

echo "PVM per-chunk overhead (one local worker, one-iteration chunks of 200 32-bit words)"
# Everything on one CPU: on this VM a wake-up across CPUs takes 100 to 800 us
# and varies from run to run, drowning what is measured; on one CPU a round
# trip takes about 30 us. Measured alternately, 7 times each, medians and
# minimums compared:
#   pingpong       the same two messages, packed by the runtime's wire
#                  functions, without the runtime around them;
#   bench_runtime  the runtime: a master and a worker on the public API whose
#                  iterations cost nothing (what the runtime adds per chunk);
#   coordinator    the Mandelbrot application, 200-pixel rows at maxiter 1:
#                  the runtime plus computing, converting and storing a row.
pvm_up "$tmp" "$BIN" 1 || { echo "bench_pvm: could not start a pvmd"; exit 1; }
rows=3000
: >pp.txt; : >rt.txt; : >co.txt
for _ in 1 2 3 4 5 6 7; do
    taskset -c 1 "$BIN/pingpong" -n $rows -W 200 >>pp.txt
    taskset -c 1 "$BIN/bench_runtime" -n $rows -w 200 >>rt.txt
    taskset -c 1 "$BIN/coordinator" -s pss --local 1 -W 200 -H $rows -m 1 -R 1 -o none -r rec.csv -q >/dev/null
    "$BIN/record" rec.csv run finish | awk -v n=$rows '{ printf "%.1f\n", $1 / n * 1e6 }' >>co.txt
done
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
minimum() { sort -n "$1" | head -n 1; }
need pp.txt 7 "bin/pingpong"
need rt.txt 7 "bin/bench_runtime"
need co.txt 7 "bin/coordinator (its record's finish)"
pp=$(median pp.txt)
echo "  raw ping-pong round trip    $pp us  (median; runs: $(tr '\n' ' ' <pp.txt))"
for f in rt co; do
    name=$([ $f = rt ] && echo "runtime, per chunk        " || echo "Mandelbrot coordinator    ")
    echo "  $name  $(median $f.txt) us  (median; runs: $(tr '\n' ' ' <$f.txt))"
done
echo "$(median rt.txt) $pp $(minimum rt.txt) $(minimum pp.txt) $(median co.txt)" |
    awk '{ printf "  ratio runtime/ping-pong = %.2f of the medians, %.2f of the minimums (target <= 1.2)\n", $1 / $2, $3 / $4
           printf "  ratio Mandelbrot coordinator/ping-pong = %.2f of the medians (its rows computed and stored too)\n", $5 / $2 }'

pvm_down
pvm_up "$tmp" "$BIN" || { echo "bench_pvm: could not start a pvmd"; exit 1; }

echo "One host, two workers, default image (1200x1200, maxiter 16000), alternated 5 times"
# DTSS's finish varies from run to run: the first A_i reports read Q = 2 or 3
# (the coordinator runnable or not at that instant), which changes the chunks;
# with R = 4 the rows come in four humps of cost, and an unlucky last chunk
# leaves one worker alone for 0.5 s. So: medians of 5 alternated runs, and
# the range.
seq=$("$BIN/mandel" | sed 's/.*seconds \([0-9.]*\).*/\1/')
: >omp.txt; : >dtss.txt; : >wall.txt
for _ in 1 2 3 4 5; do
    OMP_NUM_THREADS=2 "$BIN/bench_omp" | awk '{ print $1 }' >>omp.txt
    t0=$(now)
    "$BIN/coordinator" -s dtss --local 2 -o none -r dtss.csv -q >/dev/null
    t1=$(now)
    "$BIN/record" dtss.csv run finish >>dtss.txt
    echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }' >>wall.txt
done
need omp.txt 5 "bin/bench_omp"
need dtss.txt 5 "bin/coordinator -s dtss (its record's finish)"
[ -n "$seq" ] && [ -z "$(printf '%s' "$seq" | tr -d '0-9.')" ] ||
    { echo "bench_pvm: bin/mandel: no sequential time" >&2; exit 1; }
omp=$(median omp.txt) fin=$(median dtss.txt) wall=$(median wall.txt)
echo "  sequential bin/mandel       $seq s"
echo "  OpenMP guided, 2 threads    $omp s  (median; runs: $(tr '\n' ' ' <omp.txt))"
echo "  DTSS on PVM, 2 workers      $fin s finish, $wall s whole command, spawn included"
echo "                              (medians; finish: $(tr '\n' ' ' <dtss.txt))"
echo "$seq $omp $fin $wall $(minimum dtss.txt) $(sort -n dtss.txt | tail -n 1)" | awk '{
    printf "  speedup over sequential: DTSS %.2f, OpenMP %.2f\n", $1 / $3, $1 / $2
    printf "  ratio DTSS/OpenMP = %.3f finish, %.3f whole command, of the medians (target <= 1.05);\n", $3 / $2, $4 / $2
    printf "  the runs range %.3f-%.3f\n", $5 / $2, $6 / $2 }'
