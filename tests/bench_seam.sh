#!/bin/sh
# bench_seam.sh: an older build and this one side by side, in one run, on
# what a change of the runtime can slow (make bench-compare OLD=REV):
#  1. per chunk on one CPU: bin/pingpong (the two messages of a chunk through
#     the wire functions, no runtime around them), bin/bench_runtime (the
#     runtime serving one-iteration chunks) and the Mandelbrot coordinator
#     (one-row chunks), each old and new alternated 7 times, medians;
#  2. one host, two workers, the default image: the DTSS run's finish, old
#     and new alternated 5 times, medians;
#  3. the simulator: DTSS on 100,000 workers over 10^9 iterations (CPU
#     seconds), and the Mandelbrot kernel (iterations a second), 3 each.
# Prints each pair and new/old (above 1: the new build is slower; the
# target: none above 1.03). A measure, never an assertion; it fails (exit 1)
# only when a measurement is missing.
#
#   tests/bench_seam.sh OLD_REV     e.g. a72b13d (before the transport seam)
set -u
case "${1:-}" in
    -h|--help|"")
        echo "usage: tests/bench_seam.sh OLD_REV   (a git revision of this repository;"
        echo "       builds it in a temporary worktree and measures it beside bin/)"
        [ -n "${1:-}" ]; exit $? ;;
esac
OLD=$1
REPO=$(cd "$(dirname "$0")/.." && pwd)
BIN=$(cd "${BIN:-$REPO/bin}" && pwd) || exit 1
tmp=$(mktemp -d /tmp/dtss-seam.XXXXXX)
. "$(dirname "$0")/pvmlib.sh"
cleanup() {
    pvm_down
    git -C "$REPO" worktree remove --force "$tmp/old" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' HUP INT PIPE TERM

rev=$(git -C "$REPO" rev-parse --verify --quiet "$OLD^{commit}") ||
    { echo "bench_seam: '$OLD' is not a revision of this repository"; exit 1; }
echo "old: $(git -C "$REPO" log -1 --format='%h %s' "$rev" | cut -c1-70)"
echo "new: this tree's $BIN"
git -C "$REPO" worktree add --detach -q "$tmp/old" "$rev" || exit 1
echo "building the old revision (a minute or two) ..."
make -C "$tmp/old" -j2 -s bin/pingpong bin/bench_runtime bin/coordinator bin/worker \
    bin/record bin/sim bin/bench_mandel >"$tmp/build.log" 2>&1 ||
    { tail -5 "$tmp/build.log"; echo "bench_seam: the old revision did not build"; exit 1; }
OLDBIN=$tmp/old/bin
for p in pingpong bench_runtime coordinator worker record sim bench_mandel; do
    [ -x "$BIN/$p" ] || { echo "bench_seam: $BIN/$p missing: run make bench first"; exit 1; }
done
cd "$tmp" || exit 1

median() { sort -n "$1" | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }
# pair NAME UNIT OLDFILE NEWFILE LOWER_IS_BETTER: one line of the table.
missing=0
pair() {
    o=$(median "$3") n=$(median "$4")
    if [ -z "$o" ] || [ -z "$n" ]; then
        echo "  $1: a measurement is missing"; missing=1; return
    fi
    echo "$o $n" | awk -v name="$1" -v unit="$2" -v low="$5" '{
        r = low ? $2 / $1 : $1 / $2
        over = r > 1.03 ? "  (over 1.03)" : ""
        printf "  %-34s old %10.4g %s  new %10.4g %s  new/old cost %.3f%s\n", name, $1, unit, $2, unit, r, over }'
}

pvm_up "$tmp" "$BIN" 1 || { echo "bench_seam: could not start a pvmd"; exit 1; }
echo "per chunk, one local worker on one CPU, 3000 one-iteration chunks, 7 alternations ($(date +%T))"
rows=3000
for b in old new; do : >pp.$b; : >rt.$b; : >co.$b; done
for _ in 1 2 3 4 5 6 7; do
    for b in old new; do
        d=$([ $b = old ] && echo "$OLDBIN" || echo "$BIN")
        taskset -c 1 "$d/pingpong" -n $rows -W 200 >>pp.$b
        taskset -c 1 "$d/bench_runtime" -n $rows -w 200 >>rt.$b
        taskset -c 1 "$d/coordinator" -s pss --local 1 -W 200 -H $rows -m 1 -R 1 -o none \
            --worker "$d/worker" -r rec.csv -q >/dev/null &&
            "$d/record" rec.csv run finish | awk -v n=$rows '{ printf "%.1f\n", $1 / n * 1e6 }' >>co.$b
    done
done
pair "raw ping-pong round trip" us pp.old pp.new 1
pair "runtime, per chunk" us rt.old rt.new 1
pair "Mandelbrot coordinator, per chunk" us co.old co.new 1
for b in old new; do
    echo "$(median rt.$b) $(median pp.$b)" |
        awk -v b=$b '{ if ($2 > 0) printf "  %s: runtime/ping-pong %.2f\n", b, $1 / $2 }'
done
pvm_down

pvm_up "$tmp" "$BIN" || { echo "bench_seam: could not start a pvmd"; exit 1; }
echo "one host, two workers, the default image (1200x1200, maxiter 16000), 5 alternations ($(date +%T))"
: >run.old; : >run.new
for _ in 1 2 3 4 5; do
    for b in old new; do
        d=$([ $b = old ] && echo "$OLDBIN" || echo "$BIN")
        "$d/coordinator" -s dtss --local 2 -o none --worker "$d/worker" -r run.csv -q >/dev/null &&
            "$d/record" run.csv run finish >>run.$b
    done
done
pair "DTSS, 2 workers, finish" s run.old run.new 1
pvm_down

echo "the simulator and the kernel, 3 alternations ($(date +%T))"
printf 'host w speed=1e6 count=100000\nlink * * latency=0.001\n' >p.plat
printf 'platform p.plat\nworkload uniform n=1000000000 cost=1\nscheme dtss\n' >s.scn
: >sim.old; : >sim.new; : >ker.old; : >ker.new
for _ in 1 2 3; do
    for b in old new; do
        d=$([ $b = old ] && echo "$OLDBIN" || echo "$BIN")
        "$d/sim" s.scn -q --stats | awk '{ print $8 }' >>sim.$b
        "$d/bench_mandel" | awk '/^  kernel/ { print $2 }' >>ker.$b
    done
done
pair "simulator, 10^5 workers, 10^9 it." "cpu s" sim.old sim.new 1
pair "Mandelbrot kernel" "it/s" ker.old ker.new 0
[ $missing = 0 ] || { echo "bench_seam: a measurement is missing"; exit 1; }
