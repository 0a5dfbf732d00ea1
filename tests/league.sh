#!/bin/sh
# league.sh: scripts/league as a user runs it, on the simulator (--sim-only,
# QUICK=1: seconds): every scheme x scenario x link written, no scheme beating
# the ideal, dtss-m equal to dtss where the simulated rates are exactly the
# reported A_i's, the page's sections, the figures, and bad input refused by
# name. The emulated part is checked by tests/reproduce.sh (QUICK=1).
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

run "league --help" 0 "every self-scheduling scheme" "$REPO/scripts/league" --help
run "league: an unknown argument refused, named" 2 "unknown argument '--bogus'" \
    "$REPO/scripts/league" --bogus
run "league: SIZE=12x refused, named" 2 "SIZE/WIDTH/MAXITER '12x'" \
    env SIZE=12x BIN="$BIN" "$REPO/scripts/league" --sim-only --out "$tmp/bad"
[ ! -e "$tmp/bad/league.md" ]; check "league: nothing written after bad input" $?

QUICK=1 BIN="$BIN" "$REPO/scripts/league" --sim-only --out "$tmp/o" >"$tmp/log" 2>&1
check "league --sim-only QUICK=1 runs ($(tail -n 2 "$tmp/log" | tr '\n' ' '))" $?
O=$tmp/o
for f in league.md league.png league/sim.csv league/emu.csv league/sweep-R.csv \
         league/sweep-P.csv league/sweep-R.png league/sweep-P.png league/costs.csv; do
    [ -s "$O/$f" ]; check "league: $f written" $?
done
for f in league.png league/sweep-R.png league/sweep-P.png; do
    head -c 8 "$O/$f" | od -An -c | grep -q 'P   N   G'; check "league: $f is a PNG" $?
done
ls "$O" | grep -q 'league.new' && bad "league: its work folder left behind" || ok "league: no work folder left"

# 17 schemes x 7 scenarios x 2 links on the simulator.
n=$(awk -F, 'NR > 1 && $1 == "sim" { n++ } END { print n + 0 }' "$O/league/sim.csv")
[ "$n" = 238 ]; check "league: 238 simulated cells (got $n)" $?
for s in pss css gss tss fss qss ess rss dtss tree wf awf-b awf-c awf-d awf-e af dtss-m; do
    k=$(awk -F, -v s="$s" 'NR > 1 && $4 == s { n++ } END { print n + 0 }' "$O/league/sim.csv")
    [ "$k" = 14 ]; check "league: $s in every scenario and link ($k)" $?
done
# Nothing beats the ideal (a finish below the loop's work over the hosts'
# total speed would be a wrong ideal or a wrong simulator).
awk -F, 'NR > 1 && $7 < 0.999 { bad = 1; print } END { exit bad }' "$O/league/sim.csv" >"$tmp/below"
check "league: no simulated finish below the ideal ($(head -c 200 "$tmp/below"))" $?
# In the simulator a worker's measured rate is its host's speed / (1 + load)
# exactly, proportional to A_i: dtss-m must be dtss on the static scenarios.
awk -F, 'NR > 1 && ($4 == "dtss" || $4 == "dtss-m") && $3 != "midrun" { f[$2 $3 $4] = $5; k[$2 $3] = 1 }
    END { for (x in k) if (f[x "dtss"] != f[x "dtss-m"]) { print x; bad = 1 } exit bad }' \
    "$O/league/sim.csv" >"$tmp/diff"
check "league: dtss-m = dtss where rates are exact ($(head -c 200 "$tmp/diff"))" $?
# The ideal of the dedicated Table 1 cluster is the sequential time (the four
# quarter-cores make one core).
awk -F, 'NR > 1 && $3 == "t1-ded" { print $6; exit }' "$O/league/sim.csv" >"$tmp/ideal"
seq=$(sed -n 's/.*sequential time \([0-9.]*\) s.*/\1/p' "$tmp/log")
awk -v a="$(cat "$tmp/ideal")" -v b="$seq" 'BEGIN { exit !(b > 0 && a / b > 0.99 && a / b < 1.01) }'
check "league: t1-ded's ideal is the sequential time ($(cat "$tmp/ideal") vs $seq s)" $?
# The sweeps: R = 1..64 and P = 4..64, TSS and DTSS, three loops.
n=$(awk 'END { print NR - 1 }' "$O/league/sweep-R.csv"); [ "$n" = 42 ]
check "league: sweep-R has 3 loops x 7 R x 2 schemes ($n)" $?
n=$(awk 'END { print NR - 1 }' "$O/league/sweep-P.csv"); [ "$n" = 30 ]
check "league: sweep-P has 3 loops x 5 P x 2 schemes ($n)" $?
# The ideal with the results' transfer: at 1 GB/s within 1% of the ideal; at
# 10 Mbit/s above it (the t1-ded image's results alone take B / (P bw)).
head -n 1 "$O/league/sim.csv" | grep -q ',ideal_tx,ratio_tx,loss_gaps,loss_tail,loss_speed$'
check "league: sim.csv has ideal_tx, ratio_tx and the loss's three parts" $?
# The loss's parts add up to finish / ideal exactly (they split F S - W),
# the speed part is 0 in the simulator (a host computes at its speed), none
# is below 0 but speed, and mid-run they are not split.
awk -F, 'NR > 1 && $3 != "midrun" { d = 1 + $12 + $13 + $14 - $7
        if (d > 2e-3 || d < -2e-3 || $14 > 1e-3 || $14 < -1e-3 || $12 < -1e-3 || $13 < -1e-3) { bad = 1; print } }
    NR > 1 && $3 == "midrun" && $12 != "-" { bad = 1; print }
    END { exit bad }' "$O/league/sim.csv" >"$tmp/loss"
check "league: 1 + gaps + tail + speed = finish / ideal, speed 0 simulated ($(head -c 200 "$tmp/loss"))" $?
# PSS pays its round trips (gaps), CSS on the loaded Table 1 its end (tail).
awk -F, 'NR > 1 && $2 == "none" && $3 == "t1-ded" && $4 == "pss" { g = $12 }
    NR > 1 && $2 == "none" && $3 == "t1-load" && $4 == "css" { t = $13 }
    END { exit !(g > 0.05 && t > 0.5) }' "$O/league/sim.csv"
check "league: PSS loses to gaps, CSS loaded to its tail" $?
awk -F, 'NR > 1 && $3 != "midrun" { if ($2 == "none" && ($10 / $6 > 1.01 || $10 / $6 < 0.999)) bad = 1
    if ($2 == "10mbit" && !($10 > $6)) bad = 1 } NR > 1 && $3 == "midrun" && $10 != "-" { bad = 1 }
    END { exit bad }' "$O/league/sim.csv"
check "league: ideal_tx ~ ideal on unshaped links, above it at 10 Mbit/s, '-' mid-run" $?
for h in "## On the 10 Mbit/s link, against the ideal with the transfer" \
         "## Best scheme per scenario" "## Targets" "## Simulated, link none" \
         "## Simulated, link 10mbit" "## When does Xu Table 1's claim hold" "not run" \
         "## Where the time goes (unshaped links)"; do
    grep -q "$h" "$O/league.md"; check "league.md: '$h'" $?
done
n=$(grep -c '^| \(none\|10mbit\) | ' "$O/league.md"); [ "$n" = 14 ]
check "league.md: a best-scheme row per scenario and link ($n)" $?

# --columns: the image's loop over its columns (issue 25); the image is SIZE
# wide and WIDTH tall, so the loop keeps its SIZE iterations of WIDTH pixels.
QUICK=1 BIN="$BIN" "$REPO/scripts/league" --sim-only --columns --out "$tmp/c" >"$tmp/clog" 2>&1
check "league --sim-only --columns runs" $?
grep -q "^league: the image's 600 columns of 300 pixels" "$tmp/clog" && grep -q "600 columns of 300 pixels" "$tmp/c/league.md"
check "league --columns: says the loop, the log and the page" $?
head -n 1 "$tmp/c/league/costs.csv" | grep -qx "index,column,cost,sampled_column,sampled_cost" &&
    [ "$(awk 'END { print NR - 1 }' "$tmp/c/league/costs.csv")" = 600 ]
check "league --columns: 600 column costs" $?
a=$(awk -F, '$3 == "t1-load" && $4 == "tss" { print $5 }' "$O/league/sim.csv" | head -n 1)
b=$(awk -F, '$3 == "t1-load" && $4 == "tss" { print $5 }' "$tmp/c/league/sim.csv" | head -n 1)
c=$(awk -F, '$3 == "inc" && $4 == "tss" { print $7 }' "$O/league/sim.csv" | head -n 1)
d=$(awk -F, '$3 == "inc" && $4 == "tss" { print $7 }' "$tmp/c/league/sim.csv" | head -n 1)
# The Fig. 1 loops are scaled to the image's total cost, which the transposed
# image changes a little: their finish over the ideal stays within 0.5%.
[ -n "$a" ] && [ "$a" != "$b" ] && [ -n "$c" ] && [ -n "$d" ] &&
    awk -v c="$c" -v d="$d" 'BEGIN { r = c / d; exit !(r > 0.995 && r < 1.005) }'
check "league --columns: another Mandelbrot loop ($a, $b), the same Fig. 1 loop ($c, $d)" $?
finish
