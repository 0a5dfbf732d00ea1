#!/bin/sh
# bench_cluster.sh: the emulated hosts' speeds. Brings up a private cluster per
# hostfile (default: hostfile and hostfiles/table2), times the same CPU-bound
# work (bin/mandel) on every host at once, and compares the speed ratios with
# the sp= ratios; fails if one is off by more than 10%. Each host's speed is
# also compared with the share of a core its quota promises (the same work
# alone on the hosts' CPU, unthrottled, over the host's time): the ratios
# above cannot see a deficit every host shares (a 10 ms period left each of
# Table 1's hosts 2-6% short; docs/cluster.md). Also times bring-up and
# teardown. Needs root (else it says so and fails: a benchmark never passes unmeasured).
#   usage: tests/bench_cluster.sh [HOSTFILE...]   (BIN: programs, default bin;
#          BENCH_WORK: mandel options, default "-S 600 -m 3000")
set -u
BIN=${BIN:-bin}
WORK=${BENCH_WORK:--S 600 -m 3000}
here=$(cd "$(dirname "$0")/.." && pwd)
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac

if [ "$(id -u)" -ne 0 ]; then
    echo "bench_cluster: not root (the emulated cluster needs root): nothing measured" >&2
    exit 1
fi
[ -x "$BIN/mandel" ] || { echo "bench_cluster: no $BIN/mandel (make)"; exit 1; }
[ $# -gt 0 ] || set -- "$here/hostfile" "$here/hostfiles/table2"

tmp=$(mktemp -d)
export CLUSTER_DIR="$tmp/cluster" DTSS_BIN="$BIN"
trap '"$here/scripts/cluster" down >/dev/null 2>&1; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

now() { date +%s.%N; }
worst=0 dworst=0
# The work alone on the last CPU (where the hosts are pinned on a 2-core
# machine), unthrottled: a whole core's time.
cpu=$(($(nproc) - 1))
# shellcheck disable=SC2086
bare=$(taskset -c "$cpu" "$BIN/mandel" $WORK | sed -n 's/.*seconds \([0-9.]*\).*/\1/p')
[ -n "$bare" ] || { echo "bench_cluster: $BIN/mandel $WORK printed no time" >&2; exit 1; }
for hf in "$@"; do
    t0=$(now)
    if ! "$here/scripts/cluster" up --emulate "$hf" >"$tmp/up.out" 2>&1; then
        echo "bench_cluster: the cluster of $hf did not come up, nothing measured: $(tail -n 1 "$tmp/up.out")" >&2
        exit 1
    fi
    t1=$(now)
    cp "$(cat "$CLUSTER_DIR/run")/hosts.tab" "$tmp/hosts.tab"
    hosts=$(awk '{ print $1 }' "$tmp/hosts.tab")
    for h in $hosts; do
        # shellcheck disable=SC2086
        "$here/scripts/cluster" run "$h" "$BIN/mandel" $WORK >"$tmp/$h.out" 2>&1 &
    done
    wait
    t2=$(now)
    "$here/scripts/cluster" down >/dev/null
    t3=$(now)
    echo "== $hf: mandel $WORK on every host at once"
    awk -v bare="$bare" -v up="$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
        -v down="$(awk -v a="$t2" -v b="$t3" 'BEGIN { print b - a }')" -v tmp="$tmp" '
        { name[NR] = $1; sp[NR] = $5; share[NR] = $9
          f = tmp "/" $1 ".out"; t = ""
          while ((getline l < f) > 0) if (match(l, /seconds [0-9.]+/)) t = substr(l, RSTART + 8, RLENGTH - 8)
          secs[NR] = t + 0 }
        END {
            printf "  bring-up %.2f s, teardown %.2f s\n", up, down
            printf "  %-8s %8s %7s %9s %11s %9s %7s %11s %7s\n", "host", "sp", "cpu", "seconds", "speed/w1", "sp/w1", "error", "delivered", "error"
            worst = 0; dworst = 0
            for (i = 1; i <= NR; i++) {
                if (secs[i] <= 0) { printf "  %-8s no time (see %s/%s.out)\n", name[i], tmp, name[i]; worst = 1e9; continue }
                r = secs[1] / secs[i]; want = sp[i] / sp[1]; e = 100 * (r / want - 1)
                if (e < 0 ? -e > worst : e > worst) worst = e < 0 ? -e : e
                d = bare / secs[i]; de = 100 * (d / share[i] - 1)
                if (de < 0 ? -de > dworst : de > dworst) dworst = de < 0 ? -de : de
                printf "  %-8s %8d %6.1f%% %9.3f %11.3f %9.3f %+6.1f%% %10.1f%% %+6.1f%%\n", name[i], sp[i], 100 * share[i], secs[i], r, want, e, 100 * d, de
            }
            printf "  worst speed-ratio error %.1f%% (limit 10%%); worst delivered against promised %.1f%% (the work alone: %.3f s)\n", worst, dworst, bare
            print worst > (tmp "/worst")
            print dworst > (tmp "/dworst")
        }' "$tmp/hosts.tab"
    w=$(cat "$tmp/worst")
    worst=$(awk -v a="$worst" -v b="$w" 'BEGIN { print (b > a) ? b : a }')
    w=$(cat "$tmp/dworst")
    dworst=$(awk -v a="$dworst" -v b="$w" 'BEGIN { print (b > a) ? b : a }')
done
# A loaded host: the same work alone and among N = 1, 2, 3 loaders should take
# N + 1 times as long (the worker gets 1/Q of its host: A_i = V_i / Q_i).
"$here/scripts/cluster" up --emulate "$here/hostfile" >"$tmp/up.out" 2>&1 ||
    { echo "bench_cluster: the cluster did not come up again: $(tail -n 1 "$tmp/up.out")" >&2; exit 1; }
echo "== a loaded host (w1 of hostfile): mandel $WORK alone and among N loaders"
# shellcheck disable=SC2086
alone=$("$here/scripts/cluster" run w1 "$BIN/mandel" $WORK | sed -n 's/.*seconds \([0-9.]*\).*/\1/p')
[ -n "$alone" ] || { echo "bench_cluster: mandel on w1 printed no time" >&2; exit 1; }
printf '  %-8s %9s %9s %7s\n' loaders seconds "x alone" error
printf '  %-8s %9.3f %9.2f\n' 0 "$alone" 1
for n in 1 2 3; do
    "$here/scripts/load" w1 $n >/dev/null
    # shellcheck disable=SC2086
    t=$("$here/scripts/cluster" run w1 "$BIN/mandel" $WORK | sed -n 's/.*seconds \([0-9.]*\).*/\1/p')
    [ -n "$t" ] || { echo "bench_cluster: mandel on w1 among $n loaders printed no time" >&2; exit 1; }
    e=$(awk -v t="$t" -v a="$alone" -v n=$n 'BEGIN { e = 100 * (t / a / (n + 1) - 1); printf "%+.1f", e }')
    printf '  %-8s %9.3f %9.2f %6s%%\n' $n "$t" "$(awk -v t="$t" -v a="$alone" 'BEGIN { print t / a }')" "$e"
    worst=$(awk -v a="$worst" -v e="$e" 'BEGIN { if (e < 0) e = -e; print (e > a) ? e : a }')
done
"$here/scripts/cluster" down >/dev/null

awk -v w="$worst" 'BEGIN { exit !(w <= 10) }' || { printf "bench_cluster: FAIL speed ratios off by more than 10%% (worst %.1f%%)\n" "$worst"; exit 1; }
printf "bench_cluster: speed ratios within 10%% of the sp= and load ratios (worst %.1f%%); each host's speed within %.1f%% of its quota's promise\n" "$worst" "$dworst"
