#!/bin/sh
# readings.sh: the loop over columns in the simulator, and bin/readings (Xu &
# Chronopoulos's claims under every reading of the paper) and
# scripts/reproduce-readings as a user runs them.
here=$(cd "$(dirname "$0")/.." && pwd)
BIN=${BIN:-$here/bin}
BIN=$(cd "$BIN" && pwd) || exit 2
. "$here/tests/lib.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1

# ---- the simulator's mandel workload over columns -----------------------------
printf 'host w1 speed=1e6\nhost w2 speed=1e6\n' >two.plat
for l in rows columns; do
    printf 'platform two.plat\nworkload mandel size=60 maxiter=200 loop=%s\nscheme tss\nsample 4\n' $l >$l.scn
    "$BIN/sim" $l.scn -r $l.csv -q; check "sim: mandel loop=$l runs" $?
done
[ "$("$BIN/record" columns.csv run loop)" = columns ] && [ "$("$BIN/record" rows.csv run loop)" = rows ]
check "sim: the record's loop= field" $?
"$BIN/mandel" -S 60 -m 200 --columns -c cc.csv -q
printf 'platform two.plat\nworkload mandel costs=cc.csv\nscheme tss\nsample 4\n' >cf.scn
"$BIN/sim" cf.scn -r cf.csv -q
a=$("$BIN/record" columns.csv run finish) b=$("$BIN/record" cf.csv run finish)
[ -n "$a" ] && [ "$a" = "$b" ]; check "sim: loop=columns is bin/mandel --columns's costs ($a, $b)" $?
a=$("$BIN/record" rows.csv run finish)
[ "$a" != "$b" ]; check "sim: the column loop is another loop than the rows' ($a, $b)" $?
run "sim: a bad loop named" 2 "loop=diagonal must be rows or columns" \
    "$BIN/sim" rows.scn -w "mandel size=60 maxiter=200 loop=diagonal"

# ---- bin/readings ----------------------------------------------------------------
mkdir sw
"$BIN/readings" --out sw -S 80 -m 100,300 -R 1,4 -q
check "readings: a small sweep runs" $?
for f in readings.md readings-runs.csv readings-claims.csv readings.dat readings-x.dat \
         readings-y.dat readings-groups.dat; do
    [ -s sw/$f ]; check "readings: writes $f" $?
done
# Readings: 2 loops x 2 R x 2 F x 2 maxiter = 16; Table 1 loaded and mid-run
# in 24 orders each, Table 2 at 4 positions of the fast host.
cnt() { awk -F, -v c="$1" '$1 == c { n++ } END { print n + 0 }' sw/readings-claims.csv; }
[ "$(cnt t1-ded-same)" = 16 ] && [ "$(cnt t1-load-faster)" = 384 ] &&
    [ "$(cnt midrun-replans-wins)" = 384 ] && [ "$(cnt t2-ded-tree-faster)" = 64 ] &&
    [ "$(cnt t2-load-tree-2x)" = 64 ]
check "readings: 16 readings; x24 orders on Table 1 loaded and mid-run, x4 on Table 2" $?
[ "$(awk -F, 'NR > 1 { n++ } END { print n }' sw/readings-runs.csv)" = $((16 * 2 + 16 * 24 * 4 + 16 * 4 * 4)) ]
check "readings: every run in readings-runs.csv (two schemes a case)" $?
# Each claim's "held in X of Y" is its verdicts' sum, and each verdict its
# runs': DTSS before TSS, recomputed from readings-runs.csv.
good=1
for c in t1-ded-same t1-load-faster t1-load-tss-3x t2-load-tree-2x midrun-replans-wins; do
    x=$(awk -F, -v c="$c" '$1 == c { s += $8 } END { print s + 0 }' sw/readings-claims.csv)
    y=$(cnt "$c")
    text=$(awk -v c="$c" 'BEGIN { t["t1-ded-same"] = "Table 1 dedicated: TSS and DTSS"
        t["t1-load-faster"] = "Table 1 not dedicated: DTSS finishes before TSS"
        t["t1-load-tss-3x"] = "Table 1 not dedicated: TSS.s imbalance at least 3x"
        t["t2-load-tree-2x"] = "Table 2 not dedicated: Tree.s finish at least 2x"
        t["midrun-replans-wins"] = "Load arriving mid-run"; print t[c] }')
    grep -q "^| $text.* | \*\*$x of $y\*\* |" sw/readings.md || { good=0; echo "   $c: $x of $y not in readings.md"; }
done
[ "$good" = 1 ]; check "readings.md: held in X of Y as the verdicts add up" $?
awk -F, 'NR > 1 && $1 == "t1-load" { k = $3 "," $4 "," $5 "," $6 "," $7; f[k, $2] = $9; keys[k] = 1 }
    END { for (k in keys) print k "," (f[k, "dtss"] < f[k, "tss"] ? 1 : 0) }' sw/readings-runs.csv | sort >want
awk -F, 'NR > 1 && $1 == "t1-load-faster" { print $2 "," $3 "," $4 "," $5 "," $6 "," $8 }' \
    sw/readings-claims.csv | sort >got
cmp -s want got; check "readings: 'DTSS before TSS' is each reading's runs' (384 verdicts)" $?
[ "$(wc -l <got)" = 384 ]; check "readings: 384 such verdicts compared" $?
# F = I/2P changes DTSS only: TSS's runs the same under both F.
awk -F, 'NR > 1 && $2 == "tss" { k = $1 "," $3 "," $4 "," $6 "," $7; if (k in f && f[k] != $9) bad = 1; f[k] = $9 }
    END { exit bad }' sw/readings-runs.csv
check "readings: TSS's runs do not depend on DTSS's F" $?
# Table 2's fast host: its position in the ACPSA and Tree's split.
grep -q ',fast=w1,' sw/readings-runs.csv && grep -q ',fast=w4,' sw/readings-runs.csv
check "readings: Table 2's fast host at w1..w4" $?
# The paper's reading is one per maxiter.
grep -q "^| Table 1 not dedicated: DTSS finishes before TSS | \*\*[0-9]* of 384\*\* | [0-9]*% | [0-2] of 2 |" sw/readings.md
check "readings.md: the paper's own reading, over the 2 maxiters" $?
# The same inputs, the same bytes.
mkdir sw2
"$BIN/readings" --out sw2 -S 80 -m 100,300 -R 1,4 -q
cmp -s sw/readings-runs.csv sw2/readings-runs.csv && cmp -s sw/readings.md sw2/readings.md
check "readings: deterministic" $?
# --orders paper, one loop, one F.
mkdir sw3
"$BIN/readings" --out sw3 -S 80 -m 100 -R 4 --loops columns --F p --orders paper -q
[ "$(cnt_in() { awk -F, '$1 == "t1-load-faster" { n++ } END { print n + 0 }' sw3/readings-claims.csv; }; cnt_in)" = 1 ] &&
    grep -q '^t1-load-faster,columns,4,I/2P,100,3210,,' sw3/readings-claims.csv
check "readings: --orders paper --loops columns --F p: one reading, the paper's order" $?
"$BIN/readings" --out sw3 -S 80 -m 100 -R 4 --w4-extra 3,7 -q
[ "$(awk -F, '$1 == "t2-load-tree-2x" && $7 == 7 { n++ } END { print n + 0 }' sw3/readings-claims.csv)" = 16 ]
check "readings: --w4-extra 3,7: Table 2 loaded with 7 extra, 2 loops x 2 F x 4 positions" $?
grep -q '^| t2-load-tree-2x | [0-9]*% | [0-9]*% | [0-9]* |$' sw3/readings.md
check "readings.md: the W4 load's marginal effect" $?

run "readings --help" 0 "every reading" "$BIN/readings" --help
run "readings without --out" 2 "need --out DIR" "$BIN/readings"
run "readings: a bad loop" 2 "--loops 'rows,diagonals' must be rows, columns" "$BIN/readings" --out sw --loops rows,diagonals
run "readings: a loop twice" 2 "each once" "$BIN/readings" --out sw --loops rows,rows
run "readings: a bad F" 2 "--F 'b' must be a, p" "$BIN/readings" --out sw --F b
run "readings: R over the lines" 2 "--sample 128 is more than the image's 100 lines" \
    "$BIN/readings" --out sw -S 100 -R 4,128
run "readings: R 0" 2 "--sample '0,4': 0 is not an integer in \[1, 1000000\]" "$BIN/readings" --out sw -R 0,4
run "readings: a bad maxiter" 2 "--maxiter '1e10'" "$BIN/readings" --out sw -m 1e10
run "readings: a bad rate" 2 "--rate 'fast'" "$BIN/readings" --out sw --rate fast
run "readings: a bad order" 2 "--orders 'some' must be all or paper" "$BIN/readings" --out sw --orders some
run "readings: a bad mid-run time" 2 "--midrun-at '-1'" "$BIN/readings" --out sw --midrun-at -1
run "readings: no such folder" 1 "nowhere/readings-runs.csv" "$BIN/readings" --out nowhere -S 40 -m 50 -R 4
[ ! -e nowhere ]; check "readings: the folder is not made up" $?
run "readings: an unknown option" 2 "unknown option '--seeds'" "$BIN/readings" --out sw --seeds 3

# ---- scripts/reproduce-readings --quick ---------------------------------------------
RESULTS=$tmp/res BIN=$BIN RATE=3e8 "$here/scripts/reproduce-readings" --quick >log 2>&1
check "reproduce-readings --quick runs" $?
for f in readings.md readings.png w4-load.md readings/readings-claims.csv; do
    [ -s "res/$f" ]; check "reproduce-readings writes $f" $?
done
head -c 8 res/readings.png | od -An -c | grep -q 'P   N   G'; check "readings.png is a PNG" $?
n=$(grep -c '^| [0-9]* ([0-9]*) | [0-9.]*x | [0-9.]*x | [0-9.]*x | [0-9.]*x |$' res/w4-load.md)
[ "$n" = 10 ]; check "w4-load.md: 1 to 10 extra processes, four ratios each (got $n)" $?
grep -q "^- Tree, rows: the paper's 7.17x is nearest at [0-9]* extra processes" res/w4-load.md
check "w4-load.md: the count nearest the paper's Tree ratio" $?
ls -d res/readings.new.* >/dev/null 2>&1; [ $? != 0 ]; check "reproduce-readings leaves no work folder" $?
run "reproduce-readings: a bad RATE" 2 "RATE 'x' is not a number" env RESULTS=$tmp/res RATE=x "$here/scripts/reproduce-readings" --quick
run "reproduce-readings: an unknown argument" 2 "unknown argument '--full'" "$here/scripts/reproduce-readings" --full

finish
