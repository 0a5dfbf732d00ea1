#!/bin/sh
# figures.sh: what the figures are given (scripts/plot's fig2, fig3, gantt
# and compare; scripts/league-plot's heat map), seen through PLOT_TRACE (the
# gnuplot arguments and data files), and scripts/reproduce-xu-extra --dry-run
# (Xu Fig. 2 and the Sec. 3.1 example on the simulator) as a user runs it.
# The emulated part of reproduce-xu-extra: tests/xu_extra_cluster.sh.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
if ! command -v gnuplot >/dev/null 2>&1; then
    skip "gnuplot not found (make deps installs gnuplot-nox): the figures not tested"
    finish
    exit
fi
P=$REPO/scripts/plot
png() { [ -s "$1" ] && head -c 8 "$1" | od -An -c | grep -q 'P   N   G'; }

# ---- fig2: Xu Fig. 2 from bin/sim --costs --------------------------------------------
"$BIN/sim" --costs inc.csv -w 'increasing n=10 from=1 to=10' -R 4
"$BIN/sim" --costs dec.csv -w 'decreasing n=10 from=10 to=1' -R 4
PLOT_TRACE=tr "$P" fig2 inc.csv dec.csv f2.png >out 2>&1
png f2.png; check "plot fig2 draws a PNG ($(head -c 200 out))" $?
[ "$(sed -n 6p tr)" = 4 ]; check "fig2: R = 4 found from the sampled order (got '$(sed -n 6p tr)')" $?
# Each sample's mean cost, worked by hand (Xu Sec. 4.2, n 10, R 4: the
# samples 0,4,8 | 1,5,9 | 2,6 | 3,7 of cost i + 1): 5, 6, 5, 6.
awk '{ print $4, $5 }' tr.d/fig21 | uniq | tr '\n' ' ' >means
[ "$(cat means)" = "0 5 1 6 2 5 3 6 " ]
check "fig2: the samples and their mean costs, by hand ($(cat means))" $?
awk '{ print $3 }' tr.d/fig22 | tr '\n' ' ' >dsc
[ "$(cat dsc)" = "10 6 2 9 5 1 8 4 7 3 " ]; check "fig2: the decreasing loop's sampled costs ($(cat dsc))" $?
"$BIN/sim" --costs inc2.csv -w 'increasing n=10 from=1 to=10' -R 2
run "fig2: two loops sampled with different R refused" 1 "not sampled with the same R" \
    "$P" fig2 inc2.csv dec.csv x.png
"$BIN/mandel" -S 16 -m 50 -R 4 -c m.csv -q
run "fig2: bin/mandel's costs refused (not bin/sim --costs)" 1 "m.csv is not bin/sim --costs output" \
    "$P" fig2 m.csv dec.csv x.png
run "fig2: one file is not enough (the usage)" 2 "scripts/plot fig2 " "$P" fig2 inc.csv x.png
[ ! -e x.png ]; check "fig2: nothing drawn after an error" $?

# ---- fig3: one tick format, the costs' unit and R ------------------------------------
"$BIN/mandel" -S 64 -m 2000 -R 4 -c m64.csv -q
PLOT_TRACE=tr "$P" fig3 m64.csv f3.png >out 2>&1 && png f3.png
check "plot fig3 draws a PNG ($(head -c 200 out))" $?
max=$(awk -F, 'NR > 1 && $3 > m { m = $3 } END { print m }' m64.csv)
want=$(awk -v m="$max" 'BEGIN { if (m >= 1e6) print "1000000 millions"; else print "1000 thousands" }')
[ "$(sed -n 4p tr) $(sed -n 5p tr | cut -d' ' -f1)" = "$want" ] && [ "$(sed -n 7p tr)" = 4 ] &&
    sed -n 6p tr | grep -qx '%\.[01]f'
check "fig3: costs in $want of iterations (largest $max), one format $(sed -n 6p tr), R $(sed -n 7p tr)" $?
"$BIN/mandel" -S 64 -m 2000 -R 1 -c m1.csv -q
PLOT_TRACE=tr "$P" fig3 m1.csv f3.png && [ "$(sed -n 7p tr)" = 1 ]
check "fig3: R = 1 when the order is the original" $?
[ "$(sed -n 8p tr)" = row ]; check "fig3: the rows' costs drawn as rows" $?
"$BIN/mandel" -S 64 -m 2000 -R 4 --columns -c mc.csv -q
PLOT_TRACE=tr "$P" fig3 mc.csv f3c.png >out 2>&1 && png f3c.png && [ "$(sed -n 8p tr)" = column ] &&
    [ "$(sed -n 7p tr)" = 4 ]
check "fig3: the columns' costs (bin/mandel --columns) drawn as columns, R 4" $?
printf 'index,diagonal,cost,sampled_diagonal,sampled_cost\n0,0,1,0,1\n' >bad3.csv
run "fig3: another header refused" 1 "is not bin/mandel --costs output" "$P" fig3 bad3.csv f3b.png

# ---- timelines: each lane named once ------------------------------------------------------
printf 'host w1 speed=1\nhost w2 speed=2\nhost w3 speed=2\nlink * * latency=0.001 bandwidth=1e9\n' >w.plat
printf 'host w2 speed=2\nhost w3 speed=2\nlink * * latency=0.001 bandwidth=1e9\n' >v.plat
printf 'platform w.plat\nworkload uniform n=300\nscheme tss\n' >w.scn
printf 'platform v.plat\nworkload uniform n=300\nscheme tss\n' >v.scn
"$BIN/sim" w.scn -r w.csv -q && "$BIN/sim" v.scn -r v.csv -q
PLOT_TRACE=tr "$P" gantt w.csv g.png >out 2>&1 && png g.png
check "plot gantt draws a simulated record ($(head -c 200 out))" $?
cut -d'"' -f2 tr.d/lanes | tr '\n' '|' >lanes
[ "$(cat lanes)" = "W1, V=1, Q=1|W2, V=2, Q=1|W3, V=2, Q=1|" ]
check "gantt: a lane W_i on host w<i> is named once ($(cat lanes))" $?
sed -n 6p tr | grep -q 'W[0-9]'; [ $? = 1 ]; check "gantt: the default title names no lane ($(sed -n 6p tr))" $?
grep -q "the time at a lane's end = W_i" tr; check "gantt: the footnote says what the time at a lane's end is" $?
# A load's time as asked (the script's clock) or measured (the schedule's).
PLOT_TRACE=tr "$P" gantt w.csv g2.png "t" 0.5 >out 2>&1 && png g2.png &&
    grep -q "red dashes = the load was started (about: the script's clock, not the schedule's)" tr
check "gantt LOAD_AT: the load marked, as asked ($(head -c 200 out))" $?
PLOT_TRACE=tr "$P" gantt w.csv g3.png "t" 0.5 measured >out 2>&1 && png g3.png &&
    grep -q "red dashes = the load came (measured on the schedule's clock)" tr
check "gantt LOAD_AT measured: the load marked, measured ($(head -c 200 out))" $?
rm -f pl
PLOT_LOG=pl "$P" gantt w.csv g5.png "t" 0.25 >out 2>&1 && PLOT_LOG=pl "$P" gantt w.csv g6.png "t" 0.5 measured >>out 2>&1
[ "$(wc -l <pl)" = 2 ] && grep "g5\.png | " pl | grep -q " | 0\.25 | .*the script's clock" &&
    grep "g6\.png | " pl | grep -q " | 0\.5 | .*(measured on the schedule's clock)"
check "PLOT_LOG: a line a figure, its file, its load and legend ($(head -c 300 pl))" $?
run "gantt: LOAD_AT's how other than 'measured' refused, named" 1 "LOAD_AT's 'guessed' is not 'measured'" \
    "$P" gantt w.csv g4.png "t" 0.5 guessed
PLOT_TRACE=tr "$P" compare w.csv v.csv c.png >out 2>&1 && png c.png
check "plot compare draws two records ($(head -c 200 out))" $?
[ "$(sed -n 3p tr)" = "3 2" ]; check "compare: each panel its own lanes (got '$(sed -n 3p tr)')" $?
cut -d'"' -f2 tr.d/lanes2 | tr '\n' '|' >lanes
[ "$(cat lanes)" = "W1 on w2, V=1, Q=1|W2 on w3, V=1, Q=1|" ]
check "compare: a worker on another host says which ($(cat lanes))" $?
sed -n 7,8p tr | grep -c '^TSS, [23] workers: finish' | grep -qx 2
check "compare: the titles say each run's workers ($(sed -n 7,8p tr | tr '\n' '|'))" $?

# ---- league-plot: every column and row labelled, cells below 1 explained ---------------
# A league of two scenarios x three schemes; the emulated part ran two
# schemes on one scenario, one of them below the ideal.
mkdir lg
{
    echo "source,link,scenario,scheme,finish,ideal,ratio,imbalance_ratio,chunks,ideal_tx,ratio_tx,loss_gaps,loss_tail,loss_speed"
    for l in none 10mbit; do for sc in t1-ded midrun; do for s in tss dtss af; do
        tx=1.1; [ $sc = midrun ] && tx=-
        echo "sim,$l,$sc,$s,1,1,1.2,0,10,1,$tx,0,0,0"
    done; done; done
} >lg/sim.csv
{
    echo "source,link,scenario,scheme,finish,ideal,ratio,imbalance_ratio,chunks,ideal_tx,ratio_tx,loss_gaps,loss_tail,loss_speed"
    echo "emu,none,t1-ded,tss,1,1,0.962,0,10,1,1,0,0,0"
    echo "emu,none,t1-ded,dtss,1,1,1.31,0,10,1,1,0,0,0"
} >lg/emu.csv
# The 10 Mbit/s cells against the lower bound (scripts/league-bound): finish
# 1 over 0.9; the mid-run load has none.
printf 'source,link,scenario,bound,binds\nsim,10mbit,t1-ded,0.9,links\nsim,10mbit,midrun,-,-\n' >lg/bound.csv
printf 'loop,R,scheme,ratio\nmandel,1,tss,1.5\nmandel,1,dtss,1.2\nmandel,2,tss,1.1\nmandel,2,dtss,1.1\n' >lg/sweep-R.csv
printf 'loop,P,scheme,ratio\nmandel,4,tss,1.5\nmandel,4,dtss,1.2\nmandel,8,tss,1.1\nmandel,8,dtss,1.1\n' >lg/sweep-P.csv
PLOT_TRACE=$tmp/lt "$REPO/scripts/league-plot" lg lg.png >out 2>&1 && png lg.png && png lg/sweep-R.png
check "league-plot draws the heat map and the sweeps ($(head -c 200 out))" $?
[ "$(awk '{ print $2 }' lt/axes.x | tr '\n' ' ')" = "t1-ded midrun " ] &&
    [ "$(awk '{ print $2 }' lt/axes.y | tr '\n' ' ')" = "tss dtss af " ]
check "league-plot: every scenario and scheme has its label, in every panel" $?
[ "$(sed -n 4,6p lt/args | tr '\n' ' ')" = "1110 2 3 " ]; check "league-plot: panels run, columns, rows ($(sed -n 4,6p lt/args | tr '\n' ' '))" $?
[ "$(sort lt/m2.dat | tr '\n' ' ')" = "1 0 1 1 1 2 " ]
check "league-plot: the mid-run column on 10 Mbit/s drawn as not run ($(sort lt/m2.dat | tr '\n' ' '))" $?
[ "$(sort lt/m3.dat | tr '\n' ' ')" = "0 2 1 0 1 1 1 2 " ]
check "league-plot: the emulated cells not run listed ($(sort lt/m3.dat | tr '\n' ' '))" $?
[ "$(sed -n 7,10p lt/args | tr '\n' ' ')" = "0.95 1 1 0 " ]
check "league-plot: the colour bar from 0.95, the emulated cell below 1 explained, none against the transfer ($(sed -n 7,10p lt/args | tr '\n' ' '))" $?
sed 's/0.962/1.01/' lg/emu.csv >lg/e2 && mv lg/e2 lg/emu.csv
PLOT_TRACE=$tmp/lt "$REPO/scripts/league-plot" lg lg.png >out 2>&1
[ "$(sed -n 7,10p lt/args | tr '\n' ' ')" = "1.00 1 0 0 " ]
check "league-plot: nothing below 1: the bar from 1, nothing to explain ($(sed -n 7,10p lt/args | tr '\n' ' '))" $?
awk '$4 == "t1-ded" && $3 != "1.1111" { bad = 1 } END { exit bad + (NR != 3) }' lt/p2.dat
check "league-plot: on 10 Mbit/s, finish / the lower bound of bound.csv ($(tr '\n' '|' <lt/p2.dat))" $?
mv lg/bound.csv lg/b
run "league-plot: 10 Mbit/s runs without bound.csv refused, named" 1 "cannot read lg/bound.csv" \
    "$REPO/scripts/league-plot" lg lg.png

# ---- reproduce-xu-extra --dry-run: Fig. 2 and Sec. 3.1 on the simulator ---------------
X=$REPO/scripts/reproduce-xu-extra
run "reproduce-xu-extra --help" 0 "Sec. 3.1" "$X" --help
run "reproduce-xu-extra: an unknown argument named" 2 "unknown argument '--bogus'" "$X" --bogus
run "reproduce-xu-extra: --reps 0 refused" 2 "--reps '0' must be a positive integer" "$X" --reps 0
mkdir res && echo keep >res/other.md
BIN=$BIN RESULTS=$tmp/res "$X" --dry-run --quick >log 2>&1
check "reproduce-xu-extra --dry-run --quick runs ($(tail -n 3 log | tr '\n' ' '))" $?
R=$tmp/res
for f in fig2.png fig2-increasing.csv fig2-decreasing.csv sec31.md sec31.csv sec31.png sec31-timeline.png; do
    [ -s "$R/$f" ]; check "reproduce-xu-extra: $f written" $?
done
for f in fig2.png sec31.png sec31-timeline.png; do png "$R/$f"; check "reproduce-xu-extra: $f is a PNG" $?; done
[ "$(cat res/other.md)" = keep ] && ! ls -a res | grep -q 'xu-extra.new'
check "reproduce-xu-extra: other files kept, no work folder left" $?
"$BIN/sim" --costs inc100.csv -w 'increasing n=100 from=1 to=100' -R 4
cmp -s inc100.csv "$R/fig2-increasing.csv"; check "Fig. 2's data is bin/sim --costs's (the one sampling order)" $?
# Xu Sec. 3.1, by hand: TSS's first chunk on four, I = 1200, is I/8 = 150
# and the fourth 120 (F = 150, N = 16, D = 149/15: 150 - 3D rounded up);
# w1 at 1/28 of a core computing it takes 28 x 150/1200 = 3.5 sequential
# times, 28 x 120/1200 = 2.8; three at 9/28 take 28/27 (the paper's I/27).
awk -F, '$1 == "loop" { print $2, $9 == "-" ? "-" : $9, $11, $12 }' "$R/sec31.csv" >pred
[ "$(tr '\n' '|' <pred)" = "tss4-first - 150 3.5000|tss4-last - 120 2.8000|tss3 - - 1.0370|dtss4 - 17 1.0000|" ]
check "sec31: w1's first chunk and the prediction, by hand ($(tr '\n' '|' <pred))" $?
# The simulator beside the prediction: w1's one chunk alone decides TSS on four.
awk -F, '$1 == "loop" && $2 ~ /^tss4/ { d = $14 / $12 - 1; if (d > 0.01 || d < -0.01) bad = 1 }
    END { exit bad }' "$R/sec31.csv"
check "sec31: simulated TSS on four within 1% of w1's chunk at 1/28 of a core" $?
grep -q '"TSS on four is slower than on three", simulated: held in 4 of 4 readings' "$R/sec31.md" &&
    ! grep -q 'emulated: held' "$R/sec31.md"
check "sec31.md: the claim over the readings, simulated; nothing emulated in a dry run" $?
finish
