#!/bin/sh
# bench_strips_journal.sh: what the row strips' journal costs
# (runtime/strips/journal.c; make bench): bin/heat-pvm on a private one-host
# virtual machine, 3 workers, each plate run with a checkpoint at every
# report (the default) without --journal, with --journal (a barrier a
# second at most, the default), with --journal --journal-every 0 (every
# checkpoint), and with a checkpoint every 4th report without and with
# --journal --journal-every 0, alternated RUNS times (default 5); prints the medians of
# the wall time (the program, start to exit) and of the run's time (its
# summary: from every worker holding its rows to the last step), the
# journal's size at the end, and with/without. Plates: 512 x 600 cells
# (a field of 2.4 MiB), 3000 steps, a report every 50 (60 barriers, the file
# begun anew past 32 MiB); 2048 x 2048 (32 MiB), 300 steps, a report every
# 50 (6 barriers: begun anew at every other). A measure, never an assertion;
# exit 1 when a run fails or a time is missing. "wall x": against the same --checkpoint
# without a journal. Use under the cluster lock:
#   flock /tmp/dtss-cluster.lock tests/bench_strips_journal.sh [RUNS]
set -u
case "${1:-}" in -h|--help)
    sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
RUNS=${1:-5}
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
tmp=$(mktemp -d /tmp/dtss-benchj.XXXXXX)
. "$(dirname "$0")/pvmlib.sh"
trap 'pvm_down; rm -rf "$tmp"' EXIT
trap 'exit 1' HUP INT PIPE TERM
cd "$tmp" || exit 1
pvm_up "$tmp" "$BIN" || { echo "bench_strips_journal: no private pvmd" >&2; exit 1; }
now() { date +%s.%N; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
failed=0
# one NAME ARGS: a run; appends its wall and run times to NAME.wall, NAME.run
one() {
    name=$1
    shift
    rm -f j.jnl
    t0=$(now)
    "$BIN/heat-pvm" --local 3 "$@" >out 2>&1 || { echo "run failed: $(head -c 300 out)"; failed=1; }
    t1=$(now)
    echo "$t1 - $t0" | bc -l >>"$name.wall"
    sed -n 's/.* time \([0-9.]*\) s,.*/\1/p' out >>"$name.run"
    [ -f j.jnl ] && wc -c <j.jnl >"$name.size"
}
plate() {
    label=$1
    shift
    rm -f none.* dflt.* every.* none4.* every4.*
    for _ in $(seq "$RUNS"); do
        one none "$@"
        one dflt "$@" --journal j.jnl
        one every "$@" --journal j.jnl --journal-every 0
        one none4 "$@" --checkpoint 4
        one every4 "$@" --checkpoint 4 --journal j.jnl --journal-every 0
    done
    for k in none dflt every none4 every4; do
        for x in wall run; do
            if [ "$(wc -l <$k.$x 2>/dev/null || echo 0)" != "$RUNS" ]; then
                echo "bench_strips_journal: $label, $k: $RUNS $x times wanted, $(wc -l <$k.$x 2>/dev/null || echo 0) measured" >&2
                exit 1
            fi
        done
    done
    base=$(median <none.wall)
    echo "$label"
    printf '  %-34s %8s %8s %12s %8s\n' "" "wall s" "run s" "journal B" "wall x"
    for k in none dflt every none4 every4; do
        case $k in none) what="no journal" ;; dflt) what="--journal (1 s)" ;;
                   every) what="--journal-every 0" ;; none4) what="--checkpoint 4, no journal" ;;
                   every4) what="--checkpoint 4 --journal-every 0" ;; esac
        [ $k = none4 ] && base=$(median <none4.wall)
        w=$(median <$k.wall)
        printf '  %-34s %8.3f %8.3f %12s %8.3f\n' "$what" "$w" "$(median <$k.run)" \
            "$(cat $k.size 2>/dev/null || echo -)" "$(echo "$w / $base" | bc -l)"
    done
}
echo "row strips' journal: medians of $RUNS runs each, alternated (3 workers, one host)"
plate "512 x 600 cells (2.4 MiB), 3000 steps, --every 50" --nx 512 --ny 600 --steps 3000 --every 50
plate "2048 x 2048 cells (32 MiB), 300 steps, --every 50" --nx 2048 --ny 2048 --steps 300 --every 50
exit $failed
