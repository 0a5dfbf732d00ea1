#!/bin/sh
# cli.sh: bin/chunks and bin/mandel as a user runs them: output, --help,
# and clear errors with a non-zero exit for bad input.
set -u
BIN=${BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

# ---- chunks -----------------------------------------------------------------
run "chunks --help lists every scheme" 0 "rss" "$BIN/chunks" --help
for s in pss css gss tss fss qss ess rss dtss; do
    "$BIN/chunks" --help | grep -q "^  $s " ; check "chunks --help lists $s" $?
done
"$BIN/chunks" --help | grep -q -- "--delta"; check "chunks --help lists scheme parameters" $?

"$BIN/chunks" -s tss -I 1000 -P 4 >"$tmp/tss.csv"
check "chunks tss runs" $?
head -n 1 "$tmp/tss.csv" | grep -qx "step,start,size"; check "chunks CSV header" $?
sum=$(awk -F, 'NR > 1 { s += $3 } END { print s }' "$tmp/tss.csv")
[ "$sum" = 1000 ]; check "chunks sizes sum to I (got $sum)" $?
tiles=$(awk -F, 'NR > 1 { if ($2 != pos) bad = 1; pos += $3 } END { print bad + 0 }' "$tmp/tss.csv")
[ "$tiles" = 0 ]; check "chunks starts follow each other" $?

n=$("$BIN/chunks" -s gss -I 2804 -P 20 --count)
[ "$n" = 108 ]; check "chunks --count: Díaz Table 1 GSS 2804/20 = 108 (got $n)" $?
n=$("$BIN/chunks" -s qss -I 5608 -P 20 --delta 4 --cn 6 --count)
[ "$n" = 98 ]; check "chunks qss --delta 4 --cn 6: Díaz 5608/20 = 98 (got $n)" $?

"$BIN/chunks" -s dtss -I 100 --acp 1,4,2,3 >"$tmp/dtss.csv"
check "chunks dtss --acp runs" $?
head -n 1 "$tmp/dtss.csv" | grep -qx "step,start,size,worker,acp"; check "dtss CSV header" $?
# ACPSA order: decreasing A_i, so worker 2 (A=4), 4 (A=3), 3 (A=2), 1 (A=1).
order=$(awk -F, 'NR > 1 && NR < 6 { printf "%s", $4 }' "$tmp/dtss.csv")
[ "$order" = 2431 ]; check "dtss serves requests in ACPSA order (got $order)" $?
first=$(awk -F, 'NR == 2 { print $3 }' "$tmp/dtss.csv")
[ "$first" = 20 ]; check "dtss first chunk A_1 (F - D (A_1-1)/2) = 20 (got $first)" $?
sum=$(awk -F, 'NR > 1 { s += $3 } END { print s }' "$tmp/dtss.csv")
[ "$sum" = 100 ]; check "dtss chunks sum to I" $?

run "unknown scheme lists the valid ones" 2 "valid: pss, css" "$BIN/chunks" -s xyz -I 10 -P 2
run "missing -I" 2 "-I ITERATIONS is required" "$BIN/chunks" -s tss -P 2
run "missing -P" 2 "-P WORKERS is required" "$BIN/chunks" -s tss -I 10
run "-I not a number" 2 "'12x'" "$BIN/chunks" -s tss -I 12x -P 2
run "negative I" 2 "I=-5" "$BIN/chunks" -s tss -I -5 -P 2
run "P = 0" 2 "P=0" "$BIN/chunks" -s gss -I 10 -P 0
run "TSS F < L" 2 "F=2" "$BIN/chunks" -s tss -I 100 -P 2 --F 2 --L 5
run "ESS 2Pk >= 1" 2 "2\*P\*k < 1" "$BIN/chunks" -s ess -I 100 -P 20 --k 0.03
run "QSS delta <= 0" 2 "delta=0" "$BIN/chunks" -s qss -I 100 -P 2 --delta 0
run "parameter of another scheme" 2 "takes no parameter 'delta'" "$BIN/chunks" -s tss -I 10 -P 2 --delta 3
run "parameter value not a number" 2 "'abc' is not a number" "$BIN/chunks" -s tss -I 10 -P 2 --F abc
run "--acp with a non-dtss scheme" 2 "dtss only" "$BIN/chunks" -s tss -I 10 --acp 1,2
run "--acp with a zero" 2 "A_2 = 0" "$BIN/chunks" -s dtss -I 10 --acp 1,0
run "--acp malformed" 2 "not a list" "$BIN/chunks" -s dtss -I 10 --acp 1,,2
run "-P disagrees with --acp" 2 "does not match" "$BIN/chunks" -s dtss -I 10 -P 3 --acp 1,2
run "unknown option" 2 "unknown option '--bogus'" "$BIN/chunks" --bogus
run "option without value" 2 "needs a value" "$BIN/chunks" -s tss -I 10 -P
run "stray argument" 2 "unexpected argument 'extra'" "$BIN/chunks" -s tss -I 10 -P 2 extra
run "-I beyond a long (ERANGE)" 2 "-I '99999999999999999999'" "$BIN/chunks" -s tss -I 99999999999999999999 -P 2
run "-P beyond an int" 2 "-P '4294967297'" "$BIN/chunks" -s tss -I 10 -P 4294967297

# ---- mandel -----------------------------------------------------------------
run "mandel --help" 0 "pseudo-uniformly" "$BIN/mandel" --help
run "mandel small image" 0 "size 64x32 maxiter 100" "$BIN/mandel" -W 64 -H 32 -m 100 -o "$tmp/m.pgm"
size=$(wc -c <"$tmp/m.pgm")
[ "$size" -eq $((13 + 64 * 32)) ]; check "mandel PGM has header + 64x32 bytes (got $size)" $?
"$BIN/mandel" -S 40 -m 50 -R 4 -c "$tmp/c.csv" -q
check "mandel --costs runs" $?
head -n 1 "$tmp/c.csv" | grep -qx "index,row,cost,sampled_row,sampled_cost"; check "costs CSV header" $?
rows=$(awk 'END { print NR - 1 }' "$tmp/c.csv")
[ "$rows" = 40 ]; check "costs CSV has one line per row (got $rows)" $?
same=$(awk -F, 'NR > 1 { a += $3; b += $5; seen[$4]++ } END { n = 0; for (r in seen) n++; print (a == b && n == 40) }' "$tmp/c.csv")
[ "$same" = 1 ]; check "sampled order visits every row once, same total cost" $?
second=$(awk -F, 'NR == 3 { print $4 }' "$tmp/c.csv")
[ "$second" = 4 ]; check "R = 4: the second sampled row is row 4 (got $second)" $?
# The summary's checksum agrees between two runs, and the costs total equals
# the reported iteration count.
a=$("$BIN/mandel" -S 50 -m 80 | sed 's/ seconds.*//')
b=$("$BIN/mandel" -S 50 -m 80 -c "$tmp/c2.csv" | sed 's/ seconds.*//')
[ -n "$a" ] && [ "$a" = "$b" ]; check "mandel is deterministic" $?
it=$(echo "$a" | sed 's/.*iterations \([0-9]*\).*/\1/')
tot=$(awk -F, 'NR > 1 { s += $3 } END { printf "%d", s }' "$tmp/c2.csv")
[ "$it" = "$tot" ]; check "row costs sum to the reported iterations ($tot vs $it)" $?
"$BIN/mandel" -S 20 -m 10 -c - >"$tmp/stdout.csv" 2>"$tmp/stderr"
head -n 1 "$tmp/stdout.csv" | grep -qx "index,row,cost,sampled_row,sampled_cost" &&
    grep -q "^size" "$tmp/stderr"
check "--costs - writes CSV to stdout and the summary to stderr" $?

# The loop over columns (issue 25): the same image, a cost a column.
"$BIN/mandel" -W 60 -H 45 -m 200 -o "$tmp/r.pgm" -c "$tmp/rc.csv" >"$tmp/rs" &&
    "$BIN/mandel" -W 60 -H 45 -m 200 --columns -o "$tmp/cc.pgm" -c "$tmp/cc.csv" >"$tmp/cs"
check "mandel --columns runs" $?
cmp -s "$tmp/r.pgm" "$tmp/cc.pgm"; check "mandel --columns: the same image, byte for byte" $?
rsum=$(sed 's/.*checksum \([0-9a-f]*\).*/\1/' "$tmp/rs") csum=$(sed 's/.*checksum \([0-9a-f]*\).*/\1/' "$tmp/cs")
[ -n "$rsum" ] && [ "$rsum" = "$csum" ]; check "mandel --columns: the same checksum ($rsum, $csum)" $?
grep -q " loop rows " "$tmp/rs" && grep -q " loop columns " "$tmp/cs"; check "mandel says its loop" $?
head -n 1 "$tmp/cc.csv" | grep -qx "index,column,cost,sampled_column,sampled_cost"; check "column costs CSV header" $?
n=$(awk 'END { print NR - 1 }' "$tmp/cc.csv")
[ "$n" = 60 ]; check "a cost line a column: 60 (got $n)" $?
# Column 17's cost by hand: the rows' pixels of column 17 summed, from the
# row loop's image (bin/mandel -o writes grey levels; so from two 1-column
# images: the region of column 17 alone, 1 pixel wide, 45 tall).
x0=$(awk 'BEGIN { printf "%.17g", -2 + 17 * 4 / 60 }') x1=$(awk 'BEGIN { printf "%.17g", -2 + 18 * 4 / 60 }')
one=$("$BIN/mandel" -W 1 -H 45 -m 200 --region "$x0,-2,$x1,2" | sed 's/.*iterations \([0-9]*\).*/\1/')
c17=$(awk -F, '$2 == 17 { print $3 }' "$tmp/cc.csv")
[ -n "$one" ] && [ "$one" = "$c17" ]; check "column 17's cost is that column's pixels' counts ($c17, by a 1x45 image: $one)" $?
tr=$(awk -F, 'NR > 1 { s += $3 } END { print s }' "$tmp/rc.csv") tc=$(awk -F, 'NR > 1 { s += $3 } END { print s }' "$tmp/cc.csv")
[ "$tr" = "$tc" ]; check "the columns' costs add up to the rows' ($tc, $tr)" $?
run "mandel --columns over a column too tall" 2 "height 70000 is over the limit of 65536 pixels a column" \
    "$BIN/mandel" -W 10 -H 70000 --columns -q

run "mandel bad size" 2 "--size '0' must be an integer in \[1, 2147483647\]" "$BIN/mandel" -S 0
run "mandel bad maxiter" 2 "--maxiter '0'" "$BIN/mandel" -m 0
run "mandel bad sample" 2 "--sample '0'" "$BIN/mandel" -R 0
# Numbers out of their type's range are refused, never narrowed or wrapped.
run "mandel --size 3e9 (was width -2147483648)" 2 "--size '3000000000' must be an integer in \[1, 2147483647\]" \
    "$BIN/mandel" -S 3000000000
run "mandel --width 2^31" 2 "--width '2147483648' must be an integer in \[1, 2147483647\]" "$BIN/mandel" -W 2147483648
run "mandel --height -1" 2 "--height '-1' must be an integer in \[1, 2147483647\]" "$BIN/mandel" -H -1
run "mandel --maxiter -1 (was 4294967295)" 2 "--maxiter '-1' must be an integer in \[1, 4294967295\]" \
    "$BIN/mandel" -m -1
run "mandel --maxiter 2^32" 2 "--maxiter '4294967296'" "$BIN/mandel" -m 4294967296
run "mandel --maxiter 2^32 - 1 taken (a region that escapes at once)" 0 "maxiter 4294967295" \
    "$BIN/mandel" -S 4 -m 4294967295 --region 10,10,11,11
run "mandel --sample 2^32 + 1 (was 1 in the coordinator)" 2 "--sample '4294967297' must be an integer in \[1, 1000000\]" \
    "$BIN/mandel" -R 4294967297
"$BIN/mandel" -S 8 -m 5 -R 1000000 -c "$tmp/r.csv" -q; check "mandel --sample 10^6 taken" $?

# ---- coordinator and matrix: their options, checked before PVM ------------------
run "coordinator --maxiter -1" 2 "coordinator: --maxiter '-1' must be an integer in \[1, 4294967295\]" \
    "$BIN/coordinator" --maxiter -1
run "coordinator --size 3e9" 2 "--size '3000000000' must be an integer in \[1, 2147483647\]" \
    "$BIN/coordinator" -S 3000000000
run "coordinator -R 2^32 + 1" 2 "--sample '4294967297' must be an integer in \[1, 1000000\]" \
    "$BIN/coordinator" -R 4294967297
run "coordinator --min 0" 2 "--min '0' must be an integer in \[1, 9007199254740992\]" "$BIN/coordinator" --min 0
run "coordinator --iterations 2^53 + 1" 2 "--iterations '9007199254740993'" "$BIN/coordinator" --iterations 9007199254740993
run "matrix --chunk-min 2^31" 2 "--chunk-min '2147483648' must be an integer in \[1, 2147483647\]" \
    "$BIN/matrix" --chunk-min 2147483648
run "matrix --seed 2^64" 2 "--seed '18446744073709551616' must be an integer in \[0, " \
    "$BIN/matrix" --seed 18446744073709551616
run "matrix --max-size 10001" 2 "--max-size '10001' must be an integer in \[1, 10000\]" \
    "$BIN/matrix" --max-size 10001
run "matrix --count 0" 2 "--count '0'" "$BIN/matrix" --count 0
run "matrix: the edges taken (--sequential)" 0 "^checksum " "$BIN/matrix" --sequential -q -n 2 \
    --min-size 1 --max-size 2 --chunk-min 2147483647 --seed 9223372036854775807
run "mandel bad region" 2 "four numbers" "$BIN/mandel" --region 1,2,3
run "mandel empty region" 2 "xmin < xmax" "$BIN/mandel" --region 1,0,0,1
run "mandel unwritable output: exit 1 before the run" 1 "mandel: --out /nonexistent/m.pgm: cannot write there: No such file or directory" "$BIN/mandel" -S 8 -m 5 -o /nonexistent/m.pgm
run "mandel unknown option" 2 "unknown option" "$BIN/mandel" --colour

# scripts/run-tests, which make test runs
rt="$(dirname "$0")/../scripts/run-tests"
run "run-tests --help" 0 "usage: scripts/run-tests TEST" "$rt" --help
run "run-tests: an unknown option named" 2 "unknown option '--bogus'" "$rt" --bogus
run "run-tests: a missing test is a failure" 1 "^0 passed, 1 failed, 0 skipped$" "$rt" /nonexistent/test_x

finish
