#!/bin/sh
# bench_league.sh: the league's targets (make bench), measured, never
# asserted: the best scheme of the library within 1.03 x ideal on the
# simulator (and 1.05 on the emulated cluster) on every scenario and both
# link kinds, and emulated within 3% of simulated on the Xu scenarios.
# Runs scripts/league --sim-only (about 10 s); BENCH_EMU=1: the whole
# league, the emulated cluster too (about 10 min, needs root).
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "${BENCH_EMU:-}" = 1 ]; then
    BIN=$BIN LEAGUE_CLUSTER_DIR=$tmp/cluster "$REPO/scripts/league" --out "$tmp" >"$tmp/log" 2>&1
else
    BIN=$BIN "$REPO/scripts/league" --sim-only --out "$tmp" >"$tmp/log" 2>&1
fi || { cat "$tmp/log"; exit 1; }
echo "league ($(sed -n 's/^league: \(image .*\)/\1/p' "$tmp/log" | head -n 1); results/league.md for the whole page):"
sed -n '/^## Best scheme per scenario/,/^## Targets/p' "$tmp/league.md" | grep '^| [n1]' |
    awk -F'|' '{ printf "  %-7s %-8s best sim %-14s dtss sim %-6s best emu %-14s dtss emu %s\n", $2, $3, $4, $5, $6, $7 }' |
    tr -s ' '
sed -n '/^## Targets/,/^## Simulated/p' "$tmp/league.md" | grep '^- ' | sed 's/^/  /'
