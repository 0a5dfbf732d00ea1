#!/bin/sh
# bench_ahead.sh: request-ahead against none, side by side on the emulated
# cluster (sched/loop/ahead.h; docs/performance.md). Brings up a private
# cluster of Xu Table 1's four equal hosts (TABLE=2: Table 2's three slow
# hosts and a 6x faster one) and runs bin/coordinator on the league's image
# (1200 rows of 600 pixels, maxiter 3000, R = 4; PAPER=1: the paper's,
# 1200 x 1200 at bin/coordinator's default maxiter), dedicated and with the
# table's load (Table 1: 3, 2, 1 extra processes on w1..w3; Table 2: 5 on
# w4), for each
# scheme under --ahead 0 (off), a fraction and rtt, the modes interleaved
# run by run; prints each cell's median finish over the runs and its ratio
# to off (below 1: request-ahead gained). A run that fails, or a missing
# number, fails the benchmark (exit 1): nothing passes unmeasured.
#   usage: tests/bench_ahead.sh   (BIN: programs, default bin; REPS: runs a
#          cell, default 3; SCHEMES, default "tss dtss fss af"; MODES,
#          default "0 0.1 rtt"; LINKS, default "none 10mbit": each host's
#          link unshaped, or at 10 Mbit/s by tc as in the league)
set -u
BIN=${BIN:-bin}
REPS=${REPS:-3}
SCHEMES=${SCHEMES:-tss dtss fss af}
MODES=${MODES:-0 0.1 rtt}
LINKS=${LINKS:-none 10mbit}
TABLE=${TABLE:-1}
case $TABLE in 1) LOADS="w1=3 w2=2 w3=1" ;; 2) LOADS="w4=5" ;;
*) echo "bench_ahead: TABLE '$TABLE' must be 1 or 2" >&2; exit 2 ;; esac
IMAGE="-W 600 -H 1200 -m 3000"
[ "${PAPER:-}" = 1 ] && IMAGE="-S 1200"
here=$(cd "$(dirname "$0")/.." && pwd)
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
case $REPS in [1-9]|[1-9][0-9]) ;; *) echo "bench_ahead: REPS '$REPS' must be 1..99" >&2; exit 2 ;; esac
if [ "$(id -u)" -ne 0 ]; then
    echo "bench_ahead: not root (the emulated cluster needs root): nothing measured" >&2
    exit 1
fi
for p in coordinator record; do
    [ -x "$BIN/$p" ] || { echo "bench_ahead: no $BIN/$p (make)" >&2; exit 1; }
done
tmp=$(mktemp -d)
export CLUSTER_DIR="$tmp/cluster" DTSS_BIN="$BIN"
trap '"$here/scripts/cluster" down >/dev/null 2>&1; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
: >"$tmp/runs"
for link in $LINKS; do
case $link in none|10mbit) ;; *) echo "bench_ahead: LINKS: '$link' is not none or 10mbit" >&2; exit 2 ;; esac
cp "$here/hostfiles/table$TABLE" "$tmp/hostfile"
[ "$link" = 10mbit ] && echo "# dtss: link rate=10mbit" >>"$tmp/hostfile"
"$here/scripts/cluster" down >/dev/null 2>&1
if ! "$here/scripts/cluster" up --emulate "$tmp/hostfile" >"$tmp/up.out" 2>&1; then
    echo "bench_ahead: the cluster did not come up, nothing measured: $(tail -n 1 "$tmp/up.out")" >&2
    exit 1
fi
# shellcheck disable=SC1091
. "$CLUSTER_DIR/env"
for sc in dedicated loaded; do
    if [ "$sc" = loaded ]; then
        for hl in $LOADS; do
            "$here/scripts/load" "${hl%=*}" "${hl#*=}" >/dev/null ||
                { echo "bench_ahead: scripts/load $hl failed" >&2; exit 1; }
        done
    fi
    for r in $(seq "$REPS"); do
        for s in $SCHEMES; do
            for a in $MODES; do
                rec=$tmp/run.csv
                # shellcheck disable=SC2086
                if ! "$BIN/coordinator" $IMAGE -o none -s "$s" --ahead "$a" \
                        -r "$rec" -q >"$tmp/out" 2>&1; then
                    echo "bench_ahead: $link $sc $s --ahead $a failed: $(tail -n 1 "$tmp/out")" >&2
                    exit 1
                fi
                f=$("$BIN/record" "$rec" run finish) ||
                    { echo "bench_ahead: no finish in the record of $link $sc $s --ahead $a" >&2; exit 1; }
                echo "$link/$sc $s $a $f" >>"$tmp/runs"
            done
        done
        printf 'bench_ahead: %s %s, run %d of %d done\n' "$link" "$sc" "$r" "$REPS" >&2
    done
done
for hl in $LOADS; do "$here/scripts/load" "${hl%=*}" 0 >/dev/null; done
done
echo "== request-ahead on the emulated Table $TABLE cluster ($IMAGE): median finish (s) of $REPS runs, ratio to off"
sort -k1,1 -k2,2 -k3,3 -k4,4n "$tmp/runs" | awk -v modes="$MODES" '
    { k = $1 " " $2 " " $3; v[k, ++n[k]] = $4; if (!($1 " " $2 in seen)) { seen[$1 " " $2] = 1; row[++nr] = $1 " " $2 } }
    function med(k,  m) { m = n[k]; return m % 2 ? v[k, (m + 1) / 2] : (v[k, m / 2] + v[k, m / 2 + 1]) / 2 }
    END {
        nm = split(modes, M, " ")
        printf "  %-16s %-6s", "link/scenario", "scheme"
        for (i = 1; i <= nm; i++) printf " %15s", "ahead " M[i]
        printf "\n"
        for (r = 1; r <= nr; r++) {
            split(row[r], a, " ")
            base = med(row[r] " " M[1])
            printf "  %-16s %-6s", a[1], a[2]
            for (i = 1; i <= nm; i++) {
                m = med(row[r] " " M[i])
                if (i == 1) printf " %15.3f", m
                else printf " %8.3f %6.3f", m, m / base
            }
            printf "\n"
        }
    }'
