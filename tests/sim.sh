#!/bin/sh
# sim.sh: bin/sim as a user runs it: scenario files, the same run record as
# the coordinator's, byte-identical reruns, and clear errors naming the line.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1

cat >grid.plat <<'P'
master here
host a speed=1e6 cluster=here count=3
host b speed=2e6 cluster=there load=0:1
link here here latency=1e-4 bandwidth=1.25e7
link here there latency=0.05 bandwidth=1e6
P
cat >run.scn <<'S'
# a scenario
platform grid.plat
workload matrix n=500 min=300 max=1000 scale=0.01
scheme qss delta=4 cn=6
seed 3
result-bytes 8000
S
run "sim --help" 0 "scenario" "$BIN/sim" --help
run "a scenario runs" 0 "^qss: W1 .* Finish .* Imbalance" "$BIN/sim" run.scn
# One determinism check; what a run prints is pinned by tests/golden.sh.
"$BIN/sim" run.scn -r a.csv -q && "$BIN/sim" run.scn -r b.csv -q
cmp -s a.csv b.csv; check "same scenario and seed: byte-identical record" $?
"$BIN/sim" run.scn --seed 4 -r c.csv -q
! cmp -s a.csv c.csv; check "another seed: another record" $?
mkdir ro.d
run "--seed past mt19937's 32 bits refused" 2 "--seed '4294967296' must be an integer in 0..4294967295" \
    "$BIN/sim" run.scn -q --seed 4294967296
run "a record path it cannot write: refused before the run" 1 \
    "--record nodir/x.csv: cannot write there: No such file or directory" \
    "$BIN/sim" run.scn -q -r nodir/x.csv
run "a directory as the record: refused" 1 "--record ro.d: cannot write there: Is a directory" \
    "$BIN/sim" run.scn -q -r ro.d

# The coordinator's record format (sched/records/record.h), columns found by the
# names in each kind's header line: has KIND NAME... checks they are there.
has() {
    kind=$1
    shift
    awk -F, -v kind="#$kind" -v want="$*" '
        $1 == kind { for (i = 2; i <= NF; i++) got[$i] = 1; seen = 1; exit }
        END { if (!seen) exit 1
              n = split(want, w, " ")
              for (i = 1; i <= n; i++) if (!(w[i] in got)) exit 1 }' a.csv
}
has run scheme workers iterations sample finish imbalance replans date &&
    has worker worker host seen_host tid V backend cgroup chunks iterations finish &&
    ! has worker rows &&
    has report worker time Q A &&
    has chunk id worker start size acp sent recv started finished received reissue "done"
check "the coordinator's record format: the header lines' field names" $?
# The run line: the header's fields, then the workload's as key=value; a
# simulated run has no date.
awk -F, '$1 == "#run" { for (i = 2; i <= NF; i++) col[$i] = i; n = NF }
    $1 == "run" { runs++
        if ($col["scheme"] != "qss" || $col["workers"] != 4 ||
            $col["iterations"] != 500 || $col["date"] != "") bad = 1
        for (i = n + 1; i <= NF; i++) if ($i !~ /^[A-Za-z0-9_.-]+=/) bad = 1
        if (NF <= n || $(n + 1) == "") bad = 1 }
    END { exit !(runs == 1 && !bad) }' a.csv
check "the run line: scheme, workers, iterations, no date, then key=value workload fields" $?
awk -F, '$1 == "#chunk" { for (i = 2; i <= NF; i++) col[$i] = i }
    $1 == "#worker" { for (i = 2; i <= NF; i++) wcol[$i] = i }
    $1 == "chunk" && $col["done"] == 1 { s += $col["size"] }
    $1 == "worker" { w += $wcol["iterations"] }
    END { exit !(s == 500 && w == 500) }' a.csv
check "done chunks, and the workers' iterations, add up to the 500 iterations" $?
"$REPO/scripts/plot" gantt a.csv a.png && [ -s a.png ]; check "scripts/plot draws a simulated record" $?
PLOT_TRACE=tr "$REPO/scripts/plot" gantt a.csv b.png && grep -q '^a box = a chunk' tr &&
    ! grep -q 'red dashes' tr
check "a timeline's footnote explains only what it draws (no load marked: no red dashes)" $?
hostile='x" ; system("touch pwned") ; `touch pwned` $(touch pwned) #'
PLOT_TRACE=tr "$REPO/scripts/plot" gantt a.csv b.png "$hostile" 1.5 && grep -qxF "$hostile" tr &&
    grep -q 'red dashes = the load was started' tr && [ ! -e pwned ] && [ -s b.png ]
check "a hostile title reaches gnuplot as a string argument, verbatim, and runs nothing" $?
run "options override: --scheme tree" 0 "^tree: " "$BIN/sim" run.scn -s tree
run "--scheme with parameters" 0 "^ess: " "$BIN/sim" run.scn -s ess --k 0.001
run "--chunks" 0 "^chunks [0-9]* replans 0" "$BIN/sim" run.scn --chunks
run "--workload" 0 "^qss: " "$BIN/sim" run.scn -w "uniform n=100 cost=0.01"
"$BIN/mandel" -S 48 -m 200 -c costs.csv -q
run "workload from bin/mandel --costs" 0 "^dtss: " "$BIN/sim" run.scn -s dtss -w "mandel costs=costs.csv" -R 4

printf 'platform grid.plat\nworkload uniform n=10\nscheme tss\ncolour blue\n' >bad1.scn
run "unknown scenario line names the line" 2 "bad1.scn:4: unknown line 'colour'" "$BIN/sim" bad1.scn
printf 'platform grid.plat\nworkload uniform n=10\nscheme tss\nsample 0\n' >bad2.scn
run "bad sample names the line" 2 "bad2.scn:4: sample '0'" "$BIN/sim" bad2.scn
printf 'platform nowhere.plat\nworkload uniform n=10\nscheme tss\n' >bad3.scn
run "missing platform file" 2 "nowhere.plat" "$BIN/sim" bad3.scn
printf 'host a speed=1\nhost b speed=fast\n' >bad.plat
printf 'platform bad.plat\nworkload uniform n=10\nscheme tss\n' >bad4.scn
run "bad platform line named" 2 "bad.plat:2: speed=fast" "$BIN/sim" bad4.scn
printf 'platform grid.plat\nworkload uniform n=10\nscheme tss F=0.5\n' >bad5.scn
run "bad scheme parameter" 2 "F=0.5" "$BIN/sim" bad5.scn
printf 'platform grid.plat\nworkload uniform n=10\nscheme spiral\n' >bad6.scn
run "unknown scheme" 2 "unknown scheme 'spiral'" "$BIN/sim" bad6.scn
printf 'platform grid.plat\nscheme tss\n' >bad7.scn
run "no workload" 2 "no 'workload" "$BIN/sim" bad7.scn
run "no scenario" 2 "a scenario file is needed" "$BIN/sim"
run "nonexistent scenario" 2 "sim: nothere.scn: No such file or directory" "$BIN/sim" nothere.scn
run "bad option" 2 "unknown option" "$BIN/sim" run.scn --bogus

# Inputs that hang or lie (issue 12): every one ends within seconds, exit 2
# naming the value or exit 1 saying why the run cannot end. 'timeout 20':
# a regression shows as a failure (status 124), not as a hung test.
T="timeout 20 $BIN/sim"
printf 'host a speed=1 load=0:1,5:0\nhost b speed=2 load=1:2\n' >two.plat
printf 'platform two.plat\nworkload uniform n=100\nscheme dtss\n' >two.scn
run "a linear workload growing to 1e307: refused, naming it" 2 "to=1e+307 cost more than" \
    $T two.scn -w "increasing n=1000 from=1 to=1e307"
run "costs that add up to infinity: refused" 2 "n=1000000000000000000 times cost=1e+300" \
    $T two.scn -w "uniform n=1e18 cost=1e300"
printf 'host a speed=1\nlink * * latency=1e300\n' >lat.plat
run "a link of latency 1e300: refused with its line" 2 "lat.plat:2: latency=1e300" \
    $T two.scn -p lat.plat
run "a run whose hosts cannot do its work in 1e9 s: refused before it, naming the numbers" 2 \
    "the run cannot end within the limit of 1e+09 simulated seconds: the workload's cost 1e+12 over the hosts' total speed 3 is 3.33333e+11 s at least" \
    $T two.scn -w "uniform n=1e12 cost=1"
# Loads the bound above cannot see (it takes the hosts unloaded): the run
# itself stops at the limit.
printf 'host a speed=1 load=0:1000000\n' >slow.plat
run "a run past 1e9 simulated seconds: stopped, saying why" 1 \
    "the run cannot end: simulated time .* past the limit of 1e+09 s" $T two.scn -p slow.plat \
    -w "uniform n=100000 cost=1"
run "mandel size=1e20: refused before any conversion" 2 "size=1e+20" \
    $T two.scn -w "mandel size=1e20 maxiter=10"
run "--sample beyond an int: refused" 2 "sample '4294967297'" $T two.scn -R 4294967297
printf 'host a speed=1 load=0:5\nhost b speed=1 load=0:5\n' >zero.plat
run "--acp-int, every A_i 0 for good: stopped, saying why" 1 \
    "the run cannot end: under the integer rule A_i .* stays 0 for good on 2 worker" \
    $T two.scn -p zero.plat --acp-int
printf 'host a speed=1 load=5:5\nhost b speed=1\n' >zero2.plat
run "--acp-int, a worker holding results with A_i 0 for good: stopped" 1 \
    "stays 0 for good on 1 worker.*host a" $T two.scn -p zero2.plat --acp-int
printf 'host a speed=1 load=0:5,1e8:0\nhost b speed=1 load=0:5\n' >late.plat
run "--acp-int, the load lifting at t = 1e8: one measure then, not 5e8" 0 "^dtss: W1 100.00 " \
    $T two.scn -p late.plat --acp-int
printf 'host %070d speed=1\n' 0 >name.plat
run "a host name over 63 characters: refused, not cut short" 2 "name.plat:1: host name" \
    $T two.scn -p name.plat

# Cost files: only the first line may be a header; no number is skipped.
printf 'index,row,cost\n0,0,5\n1,1,6\n' >ok.csv
run "a cost file with its header" 0 "^dtss: " $T two.scn -w "mandel costs=ok.csv"
costs() {   # NAME CONTENT PATTERN
    printf "$2" >"$1"
    run "cost file $1: refused naming its line" 2 "$3" $T two.scn -w "mandel costs=$1"
}
costs nan.csv 'index,row,cost\n0,0,5\n1,1,nan\n' "nan.csv:3: cost 'nan' is not a finite number"
costs inf.csv 'index,row,cost\n0,0,inf\n1,1,6\n' "inf.csv:2: cost 'inf' is not a finite number"
costs nanrow.csv 'index,row,cost\n0,0,5\n1,nan,6\n' "nanrow.csv:3: iteration 'nan' is not an integer"
costs frac.csv 'index,row,cost\n0,0,5\n1,0.5,6\n' "frac.csv:3: iteration '0.5' is not an integer"
costs dup.csv 'index,row,cost\n0,0,5\n1,0,6\n' "dup.csv:3: iteration 0 again (first on line 2)"
costs huge.csv 'index,row,cost\n0,0,5\n1,1e30,6\n' "huge.csv:3: iteration '1e30' is not an integer"
costs big.csv 'index,row,cost\n0,0,5\n1,9223372036854775807,6\n' "big.csv:3: iteration '9223372036854775807'"
costs gap.csv 'index,row,cost\n0,0,5\n1,7,6\n' "gap.csv:3: iteration 7 out of 0..1"
costs head2.csv 'index,row,cost\n0,0,5\nindex,row,cost\n1,1,6\n' "head2.csv:3: cost 'cost' is not a number"
costs short.csv 'index,row,cost\n0,0,5\n1,1\n' "short.csv:3: 2 fields"
printf '1\n2\nabc\n' >word.txt
run "costs file=: a word after the first line is refused" 2 "word.txt:3: cost 'abc' is not a number" \
    $T two.scn -w "costs file=word.txt"

# Lines longer than any buffer are read whole, never split in two.
pad=$(awk 'BEGIN { while (n++ < 10000) printf "x" }')
printf 'platform two.plat\n#%s scheme tss\nworkload uniform n=100\n' "$pad" >long.scn
run "a 10,000-byte comment line in a scenario does not change the scheme" 0 "^dtss: " $T long.scn
printf 'host a speed=1\n#%s host c speed=3\nhost b speed=2\n' "$pad" >long.plat
run "a 10,000-byte comment line in a platform adds no host" 0 "^dtss: W1 [0-9.]* W2 [0-9.]* Finish" \
    $T two.scn -p long.plat
blanks=$(awk 'BEGIN { while (n++ < 3000) printf " " }')
printf 'platform two.plat\nworkload uniform%sn=7 cost=2\n' "$blanks" >wide.scn
run "a 3000-byte workload line in a scenario is read whole" 0 "iterations 7 chunks" \
    $T wide.scn --stats
run "a 3000-byte --workload is read whole" 0 "Finish 5.00 " \
    $T two.scn -p long.plat -w "uniform n=7$blanks cost=2"
# ---- scripts/reproduce-diaz --quick (Díaz et al. on the simulator) -----------------
# The optima the sweeps found are in Table 2: each row's parameters are the
# best point of its .dat file (computed again here), its numbers are those of
# table2-runs.csv's runs; the RSS sweep covers the paper's k = 1..41 step 2.
if command -v gnuplot >/dev/null 2>&1; then
    BIN=$BIN RESULTS=$tmp/results "$REPO/scripts/reproduce-diaz" --quick >"$tmp/diaz.log" 2>&1
    rc=$?
    check "reproduce-diaz --quick finishes (exit $rc)" $rc
    [ $rc = 0 ] || tail -n 5 "$tmp/diaz.log"
    D=$tmp/results/diaz
    for f in README.md table1.md table2.md table2.csv table2-optimum.csv table2-runs.csv \
             fig2-qss.dat fig3-ess.dat fig4-rss.dat fig2-qss.png fig3-ess.png fig4-rss.png fig5-speedup.png; do
        [ -s "$D/$f" ]; check "reproduce-diaz: $f" $?
    done
    # RSS over the paper's range (every odd k in 1..41) and past it, each case
    n=$(awk '$2 <= 41 && $2 % 2 == 1 { p[$1]++ } $2 > 41 { w[$1]++ }
             END { for (c in p) if (p[c] == 21 && w[c] >= 4) n++; print n + 0 }' "$D/fig4-rss.dat")
    [ "$n" = 3 ]; check "fig4-rss.dat: k = 1..41 step 2 and k > 41 in the 3 cases (got $n)" $?
    # the best points of the sweeps, found again from the .dat files
    awk 'FILENAME ~ /fig2/ && NF == 4 { if (!($1 in q) || $4 < q[$1]) { q[$1] = $4; qp[$1] = "delta=" $2 " cn=" $3 } }
         FILENAME ~ /fig3/ { if (!($1 in e) || $3 < e[$1]) { e[$1] = $3; ep[$1] = "k=" $2 } }
         FILENAME ~ /fig4/ { if (!($1 in w) || $3 < w[$1]) { w[$1] = $3; wp[$1] = "k=" $2 }
                             if ($2 <= 41 && (!($1 in r) || $3 < r[$1])) { r[$1] = $3; rp[$1] = "k=" $2 } }
         END { for (c in q) printf "%s,qss,sweep,%s,%s\n%s,ess,sweep,%s,%s\n%s,rss,paper,%s,%s\n%s,rss,wide,%s,%s\n",
                                   c, qp[c], q[c], c, ep[c], e[c], c, rp[c], r[c], c, wp[c], w[c] }' \
        "$D/fig2-qss.dat" "$D/fig3-ess.dat" "$D/fig4-rss.dat" | sort >"$tmp/best"
    awk -F, -v OFS=, 'NR > 1 { print $1, $2, $3, $7, $8 }' "$D/table2-optimum.csv" | sort >"$tmp/opt"
    n=$(wc -l <"$tmp/opt")
    [ "$n" = 12 ] && awk -F, -v OFS=, 'NR == FNR { b[$1 FS $2 FS $3] = $4 FS $5; next }
                                       { k = $1 FS $2 FS $3; split(b[k], x, ",")
                                         if (x[1] != $4 || x[2] + 0 != $5 + 0) bad++ } END { exit bad > 0 }' "$tmp/best" "$tmp/opt"
    check "table2-optimum.csv: 12 rows, each the best point of its sweep (.dat) and its time (got $n rows)" $?
    # each row's numbers from table2-runs.csv: means, the CSS speedup, the
    # paired change (seed by seed) and the held-out seed (2: the sweep used 1)
    awk -F, 'FILENAME ~ /runs/ { if (FNR > 1) { t[$1 FS $2 FS $3 FS $4] = $5; s[$1 FS $2 FS $3] += $5; n[$1 FS $2 FS $3]++ }; next }
             FILENAME ~ /table2.csv/ { if ($2 == "css") css[$1] = $3; if (FNR > 1) pm[$1 FS $2] = $3; next }
             FNR > 1 { p = $1 FS $2 FS $4; f = $1 FS $2 FS $7; m = s[f] / n[f]
                       ch = 0; for (k = 1; k <= n[f]; k++) ch += 100 * (t[f FS k] / t[p FS k] - 1); ch /= n[f]
                       h = 100 * (t[f FS 2] / t[p FS 2] - 1)
                       if (n[f] != 2 || $11 != 2 || r($9, m) > 1e-5 || r($5, s[p] / n[p]) > 1e-5 || r($5, pm[$1 FS $2]) > 1e-5 ||
                           r($12, css[$1] / m) > 1e-4 || d($13, ch) > 0.01 || $15 != 1 || d($18, h) > 0.01) { bad++; print "row " FNR ": " $0 }
                       rows++ }
             function d(a, b) { a -= b; return a < 0 ? -a : a }
             function r(a, b) { return d(a, b) / b }     # (the files hold 6 significant digits)
             END { exit !(rows == 12 && !bad) }' "$D/table2-runs.csv" "$D/table2.csv" "$D/table2-optimum.csv"
    check "table2-optimum.csv: means, speedups, paired changes and the held-out seed from table2-runs.csv" $?
    # table2.md carries those rows, their parameters and means
    awk -F, 'NR > 1 { p = $7; gsub(/delta=/, "δ = ", p); gsub(/ cn=/, ", C_N = ", p); gsub(/k=/, "k = ", p)
                      printf "| %s | %s%s |\t%s (%.0f) | %.0f ± %.0f |\n", $1, toupper($2),
                             ($3 == "paper" ? ", k ≤ 41" : $3 == "wide" ? ", k ≤ 241" : ""), p, $8, $9, $10 }' \
        "$D/table2-optimum.csv" >"$tmp/rows"
    n=0
    tab=$(printf '\t')
    while IFS=$tab read -r head rest; do
        grep -F -- "$head" "$D/table2.md" | grep -qF -- "$rest" && n=$((n + 1))
    done <"$tmp/rows"
    [ "$n" = 12 ]; check "table2.md: the 12 rows at the optima found, parameters and times (got $n)" $?
    n=$(grep -c '^- [0-9]*/[0-9]*: [A-Z]* < [A-Z]* < [A-Z]* < [A-Z]* < [A-Z]* < [A-Z]* < [A-Z]*$' "$D/table2.md")
    [ "$n" = 3 ]; check "table2.md: the orderings at the optima found (got $n)" $?
    grep -q "^What the optima change in the paper's claims" "$D/table2.md"
    check "table2.md: what the optima change in the paper's claims" $?
    n=$(grep -c '^- [0-9/]*: the best k in 1\.\.41 is [0-9]* ([0-9]* s), in 1\.\.241 [0-9]* ([0-9]* s); k = 35 takes [0-9]* s, ' "$D/table2.md")
    [ "$n" = 3 ]; check "table2.md: RSS's best k in each range and k = 35's time, 3 cases (got $n)" $?
    n=$(grep -c '^- [0-9/]*: QSS δ = [0-9]*, C_N = [0-9]* ([0-9]* s); ESS k = 0\.[0-9]* ([0-9]* s); RSS k = [0-9]* in 1\.\.41 ' "$D/README.md")
    [ "$n" = 3 ]; check "diaz/README.md: the best parameters found, 3 cases (got $n)" $?
else
    skip "gnuplot not found: reproduce-diaz not tested"
fi

# ---- --costs: each iteration's cost, original and scheduled order (Xu Fig. 2) ----
# Xu & Chronopoulos Sec. 4.2: the sampled loop takes the iterations with
# i mod R = 0 first, then i mod R = 1, ...; worked by hand for n = 10, R = 4
# (classes 0,4,8 | 1,5,9 | 2,6 | 3,7) on the loop of cost i + 1.
$T --costs inc.csv -w 'increasing n=10 from=1 to=10' -R 4 >out 2>&1
check "--costs with -w alone (no scenario file): exit 0, nothing printed" $(($? + $(wc -c <out)))
printf '%s\n' index,iteration,cost,sampled_iteration,sampled_cost 0,0,1,0,1 1,1,2,4,5 2,2,3,8,9 \
    3,3,4,1,2 4,4,5,5,6 5,5,6,9,10 6,6,7,2,3 7,7,8,6,7 8,8,9,3,4 9,9,10,7,8 >inc.want
cmp -s inc.csv inc.want; check "--costs: Xu Sec. 4.2's order worked by hand (n 10, R 4)" $?
$T --costs - -w 'decreasing n=6 from=6 to=1' -R 2 | awk -F, 'NR > 1 { printf "%s:%s ", $4, $5 }' >dec.got
[ "$(cat dec.got)" = "0:6 2:4 4:2 1:5 3:3 5:1 " ]
check "--costs: the decreasing loop, R 2, by hand: $(cat dec.got)" $?
$T --costs - -w 'increasing n=5 from=1 to=5' | awk -F, 'NR > 1 && ($2 != $4 || $3 != $5) { b++ } END { exit b }'
check "--costs without -R: the scheduled order is the original (R = 1)" $?
# The linear kinds sample in closed form (workload.c), a costs file by its
# array: the same costs give the same scheduled loop, for an R that does not
# divide n.
$T --costs lin.csv -w 'increasing n=50 from=3 to=101' -R 7
awk -F, 'NR > 1 { print $3 }' lin.csv >lin.txt
$T --costs arr.csv -w "costs file=$tmp/lin.txt" -R 7
cmp -s lin.csv arr.csv; check "--costs: the closed form's sampled costs = a costs file's (n 50, R 7)" $?
awk -F, 'NR == FNR { if (FNR > 1) c[$2] = $3; next } FNR > 1 && c[$4] != $5 { b++ } END { exit b }' \
    arr.csv arr.csv
check "--costs: the k-th scheduled cost is the cost of the k-th scheduled iteration" $?
# bin/mandel --costs prints the same rows, costs and order for the same image.
"$BIN/mandel" -S 48 -m 300 -R 4 -c mandel.csv -q
$T --costs sim.csv -w 'mandel size=48 maxiter=300' -R 4
tail -n +2 mandel.csv >m.body && tail -n +2 sim.csv >s.body
cmp -s m.body s.body; check "--costs of 'mandel size=48 maxiter=300' -R 4 = bin/mandel --costs" $?
# A scenario file gives the workload and R; -R overrides it.
printf 'platform nowhere.plat\nworkload uniform n=8 cost=2\nsample 4\n' >c.scn
$T c.scn --costs c4.csv && $T c.scn --costs c2.csv -R 2
[ "$(awk -F, 'NR == 3 { print $4 }' c4.csv),$(awk -F, 'NR == 3 { print $4 }' c2.csv)" = "4,2" ] &&
    [ "$(awk -F, 'NR == 3 { print $3 }' c4.csv)" = 2 ]
check "--costs: the scenario's sample 4 (no platform read), -R 2 over it" $?
run "--costs needs a workload" 2 "--costs needs a scenario file or --workload" $T --costs x.csv
run "--costs with an empty --workload" 2 "--workload '' is empty" $T --costs x.csv -w ''
run "--costs: a bad workload named" 2 "unknown kind 'steep'" $T --costs x.csv -w 'steep n=4'
cp inc.csv keep.csv
run "--costs into a folder that does not exist" 1 "--costs nodir/x.csv: cannot write there: No such file or directory" \
    $T --costs nodir/x.csv -w 'uniform n=4'
run "--costs into a directory" 1 "--costs ro.d: cannot write there: Is a directory" $T --costs ro.d -w 'uniform n=4'
[ ! -e x.csv ] && cmp -s inc.csv keep.csv
check "--costs: nothing written on an error" $?
# ---- request-ahead (sched/loop/ahead.h) -----------------------------------------------
# One host of speed 1, latency 10 ms, CSS chunks of 200 iterations of 0.01 s
# (5 chunks of 2 s), worked by hand: without it each chunk after the first
# waits a round trip, 20 ms: the last ends at 0.02 + 4 x 2.02 + 2 = 10.10,
# its results reach the master at 10.11, finish (from the plan at 0.01) 10.10.
# F = 0.5 asks 1 s into each chunk: each reply comes before the worker runs
# dry, so the chunks follow one another: finish 10.02. rtt asks 2 x 0.02 s
# before a chunk's end once it has measured a reply's wait: not the first's
# (no round trip: the plan waits for every report), so the first chunk's
# successor is asked at its end (0.02 s lost), the rest ahead: 10.04. The
# record says ahead=; the iterations are the same.
printf 'host h speed=1\nlink * * latency=0.01 bandwidth=1e300\n' >ah.plat
printf 'platform ah.plat\nworkload uniform n=1000 cost=0.01\nscheme css k=200\n' >ah.scn
for a in 0 0.5 rtt; do $T ah.scn --ahead "$a" -r "ah-$a.csv" -q; done
[ "$("$BIN/record" ah-0.csv run finish)" = 10.100000 ]
check "request-ahead off: a round trip a chunk, finish 10.10 s (worked by hand)" $?
[ "$("$BIN/record" ah-0.5.csv run finish)" = 10.020000 ] && [ "$("$BIN/record" ah-rtt.csv run finish)" = 10.040000 ]
check "request-ahead 0.5 and rtt: the round trips hidden, finish 10.02 s and 10.04 s (worked by hand)" $?
grep -q ',ahead=0.5,' ah-0.5.csv && grep -q ',ahead=rtt,' ah-rtt.csv && ! grep -q 'ahead=' ah-0.csv
check "request-ahead: the record says ahead=F (rtt), nothing when off" $?
printf 'ahead 0.5\n' >>ah.scn
$T ah.scn -r ah-scn.csv -q && [ "$("$BIN/record" ah-scn.csv run finish)" = 10.020000 ] &&
    $T ah.scn --ahead 0 -r ah-off.csv -q && [ "$("$BIN/record" ah-off.csv run finish)" = 10.100000 ]
check "request-ahead: the scenario's 'ahead 0.5', --ahead 0 over it" $?
run "--ahead 1 refused by name" 2 "--ahead '1': rtt, or a fraction" $T ah.scn --ahead 1
run "a scenario's 'ahead x' refused by name" 2 "ah-bad.scn:1: --ahead 'x'" sh -c \
    'printf "ahead x\n" >ah-bad.scn && "$1" ah-bad.scn' sh "$BIN/sim"
# Every scheme, both rules, the loaded example: every iteration once (the
# record's iterations), under the rules' every path (ask, wait, result alone).
n=0
for s in tss dtss fss af awf-c dtss-m; do
    for a in 0.25 rtt; do
        $T "$REPO/sim/examples/loaded.scn" -s "$s" --ahead "$a" -r ahl.csv -q &&
            [ "$(awk -F, '$1 == "worker" { t += $10 } END { print t }' ahl.csv)" = 400 ] || n=$((n + 1))
    done
done
check "request-ahead: six schemes x two rules, every iteration done once ($n not)" "$n"
# ---- what messages cost a host, and CPU quotas (sim.h) ---------------------------------
# One host of speed 1, free links, CSS chunks of one iteration of cost 1,
# 10 result bytes, send-cost 0.1 a byte, wake 0.5 (worked by hand): chunk 0
# reaches the idle worker at 0, runs at 0.5 (wake), ends at 1.5; sending its
# 10 bytes costs 1 unit: its results leave at 2.5; chunk 1 arrives at 2.5,
# runs at 3.0, ends at 4.0, its results leave at 5.0: finish 5.0 (the plan at 0).
printf 'host h speed=1\nlink * * latency=0 bandwidth=1e300\n' >mc.plat
printf 'platform mc.plat\nworkload uniform n=2 cost=1\nscheme css k=1\nresult-bytes 10\nmessage-bytes 0\nsend-cost 0.1\nwake 0.5\n' >mc.scn
$T mc.scn -r mc.csv -q && [ "$("$BIN/record" mc.csv run finish)" = 5.000000 ]
check "send-cost 0.1 a byte and wake 0.5: finish 5.0 (worked by hand)" $?
# wake's second term counts the host's other busy processes: with one from
# the start (speed 1/2 for the worker), wake 0.5,1 costs (0.5 + 1) / 1 = 1.5
# s a chunk, computing 2 s, sending 10 bytes x 0.1 at speed 1/2 another 2 s:
# 1.5 + 2 + 2 = 5.5 a chunk, 11 in all.
printf 'host h speed=1 load=0:1\nlink * * latency=0 bandwidth=1e300\n' >mc2.plat
sed -e 's/mc.plat/mc2.plat/' -e 's/^wake 0.5$/wake 0.5,1/' mc.scn >mc2.scn
$T mc2.scn -r mc2.csv -q && [ "$("$BIN/record" mc2.csv run finish)" = 11.000000 ]
check "wake 0.5,1 on a host with one other process: finish 11.0 (worked by hand)" $?
run "a bad wake refused by name" 2 "wake 'x' must be U" sh -c \
    'printf "wake x\n" >mc-bad.scn && "$1" mc-bad.scn' sh "$BIN/sim"
run "a negative send-cost refused by name" 2 "send-cost '-1' must be a number" sh -c \
    'printf "send-cost -1\n" >mc-bad.scn && "$1" mc-bad.scn' sh "$BIN/sim"
# A CPU quota of 5 ms every 20 ms on a host of speed 1 (its core: speed 4),
# worked by hand: 0.03 units alone take 7.5 ms of the core: 5 ms in the
# first period, then (throttled to 0.02) 2.5 ms: 0.0225 s; with one other
# busy process the two share the core for the first 5 ms of each period
# (0.01 units each period): the third period's 5 ms end it at 0.045 s.
printf 'host a speed=1 quota=0.005,0.02\nlink * * latency=0 bandwidth=1e300\n' >q.plat
printf 'host a speed=1 quota=0.005,0.02 load=0:1\nlink * * latency=0 bandwidth=1e300\n' >q2.plat
printf 'platform q.plat\nworkload uniform n=1 cost=0.03\nscheme css k=1\n' >q.scn
sed 's/q.plat/q2.plat/' q.scn >q2.scn
$T q.scn -r q.csv -q && $T q2.scn -r q2.csv -q &&
    [ "$("$BIN/record" q.csv run finish),$("$BIN/record" q2.csv run finish)" = 0.022500,0.045000 ]
check "quota=0.005,0.02: 0.0225 s alone, 0.045 s with another process (worked by hand)" $?
# --bound (sim/bound.c), worked by hand. Hosts of speed 1 and 3, 8
# iterations of cost 1: 8 / 4 = 2 s. With 2 result bytes an iteration at
# send-cost 0.5: 16 units, 4 s. With wake 1 too, each host starts after its
# wake (1 s and 1/3 s): 1 (T - 1) + 3 (T - 1/3) = 16, T = 4.5. With a link
# latency of 0.1 s each way besides: 1 (T - 1.2) + 3 (T - 0.2 - 1/3) = 16,
# T = 4.7.
printf 'host a speed=1\nhost b speed=3\nlink * * latency=0 bandwidth=1e300\n' >bd.plat
sed 's/latency=0 /latency=0.1 /' bd.plat >bd4.plat
printf 'platform bd.plat\nworkload uniform n=8 cost=1\nscheme css\n' >bd1.scn
printf 'result-bytes 2\nsend-cost 0.5\n' | cat bd1.scn - >bd2.scn
printf 'wake 1,0\n' | cat bd2.scn - >bd3.scn
sed 's/bd.plat/bd4.plat/' bd3.scn >bd4.scn
[ "$($T bd1.scn --bound) $($T bd2.scn --bound) $($T bd3.scn --bound) $($T bd4.scn --bound)" = "2 4 4.5 4.7" ]
check "--bound: 2, 4, 4.5 and 4.7 s with the work, the sending, the wakes, the latency (worked by hand)" $?
# The quota's burst: a host of speed 1 under quota=0.25,1 runs at 4 for the
# first 0.25 s of each period: 2 units by 1.25 s (the plain ideal: 2 s); with
# one other process, 1 unit (2 each period's first 0.25 s) by 1.25 s too.
printf 'host a speed=1 quota=0.25,1\nlink * * latency=0 bandwidth=1e300\n' >bq.plat
printf 'host a speed=1 quota=0.25,1 load=0:1\nlink * * latency=0 bandwidth=1e300\n' >bq2.plat
printf 'platform bq.plat\nworkload uniform n=2 cost=1\nscheme css\n' >bq.scn
printf 'platform bq2.plat\nworkload uniform n=2 cost=0.5\nscheme css\n' >bq2.scn
[ "$($T bq.scn --bound) $($T bq2.scn --bound)" = "1.25 1.25" ]
check "--bound under a quota: 1.25 s alone and loaded (its bursts; worked by hand)" $?
# No scheme beats it: ten schemes on four hosts under quotas, loaded from
# 0.05 s on (3, 2, 1 other processes), with result bytes, send-cost and
# wakes of the league's size.
{ for n in 3 2 1 0; do printf 'host w%s speed=2.5e7 quota=0.005,0.02%s\n' "$n" "$([ $n = 0 ] || echo " load=0.05:$n")"; done
  printf 'link * * latency=0.0002 bandwidth=1e9\n'; } >bm.plat
printf 'platform bm.plat\nworkload mandel size=300 maxiter=2000\nsample 4\nresult-bytes 1200\nsend-cost 4\nwake 50000,150000\n' >bm.scn
b=$($T bm.scn --bound) && below=0 && for s in pss css gss tss fss dtss af awf-b tree dtss-m; do
    f=$($T bm.scn -s "$s" -r bm.csv -q && "$BIN/record" bm.csv run finish) || { below=1; break; }
    awk -v f="$f" -v b="$b" 'BEGIN { exit !(f + 0 >= b + 0) }' || { echo "  $s: finish $f below the bound $b"; below=1; }
done && [ "$below" = 0 ]
check "--bound: no scheme's finish below it (10 schemes, sending, wakes, a loaded platform)" $?
run "--bound with --record refused" 2 "--bound runs nothing: it takes neither --record" \
    $T bd1.scn --bound --record x.csv
printf 'host a speed=1 quota=0.03,0.02\nlink * * latency=0 bandwidth=1e300\n' >qb.plat
printf 'platform qb.plat\nworkload uniform n=1 cost=1\n' >qb.scn
run "a quota over its period refused by name" 2 "quota=0.03,0.02 must be Q,P" $T qb.scn
# Tree-Scheduling's messages cost the same (sim/tree.c; worked by hand):
# hosts a (speed 1) and b (speed 1, one other process: 0.5 for the worker),
# 16 iterations of cost 1 split 8/8 by V (a [0,8), b [8,16); a's partner
# b), 1 result byte an iteration, 2 bytes every message, send-cost 0.25 a
# byte, wake 0.25, free links. Both ranges reach their waiting workers at 0
# and start at 0.25 (wake 0.25 / speed 1). a ends at 8.25; its results
# (8 + 2 bytes: 2.5 units at 1) leave at 10.75, its request (0.5) at 11.25.
# b, from 0.25 at 2 s an iteration, is then in iteration 13 (ends 12.25):
# 2 left after it, it gives the upper one ([15,16)); its answer (0.5 units
# at 0.5) leaves at 13.25 and it goes on with 14, done at 15.25. a, woken,
# starts 15 at 13.5, ends 14.5; results (3 bytes: 0.75) at 15.25. b's
# results [8,15) (9 bytes: 2.25 units at 0.5, 4.5 s) leave at 19.75:
# the finish.
printf 'host a speed=1\nhost b speed=1 load=0:1\nlink * * latency=0 bandwidth=1e300\n' >tk.plat
printf 'platform tk.plat\nworkload uniform n=16 cost=1\nscheme tree\nresult-bytes 1\nmessage-bytes 2\nsend-cost 0.25\nwake 0.25\n' >tk.scn
$T tk.scn -r tk.csv -q &&
    [ "$("$BIN/record" tk.csv run finish)" = 19.750000 ] &&
    [ "$("$BIN/record" tk.csv chunk worker,start,size,recv,started,finished,received | tr '\n' ' ')" = \
      "1,0,8,0.000000,0.250000,8.250000,10.750000 1,15,1,13.250000,13.500000,14.500000,15.250000 2,8,7,0.000000,0.250000,15.250000,19.750000 " ]
check "tree: send-cost 0.25 and wake 0.25 charged to results, steals and answers: finish 19.75 (worked by hand)" $?
# A quota of its whole period is no quota: Tree's steals (where the partner
# is when asked: a search under the quota model, sim_reach without) and its
# messages' costs give the same record (16 chunks: steals that gave).
printf 'host w1 speed=2.5e7\nhost w2 speed=2.5e7 load=0:1\nhost w3 speed=2.5e7 load=0:2\nhost w4 speed=2.5e7 load=0:3\nlink * * latency=0.0002 bandwidth=1e8\n' >tr.plat
sed '/^host/s/$/ quota=0.02,0.02/' tr.plat >trq.plat
for p in tr trq; do
    printf 'platform %s.plat\nworkload mandel size=400 maxiter=2000\nscheme tree\nsample 4\nresult-bytes 1600\nsend-cost 2\nwake 5000,20000\n' "$p" >"$p.scn"
done
$T tr.scn -r tr.csv -q && $T trq.scn -r trq.csv -q && cmp -s tr.csv trq.csv &&
    [ "$("$BIN/record" --count tr.csv chunk)" -gt 4 ]
check "tree: a host's quota of its whole period gives the record without one ($("$BIN/record" --count tr.csv chunk) chunks)" $?
# scripts/xu-platform cfs: scripts/cluster's rule (10 ms periods grown until
# the smallest quota is 5 ms): quarter-core hosts get 5 ms every 20 ms.
"$REPO/scripts/xu-platform" 100 "0.25 0.5" "" 1e9 cfs >xq.plat &&
    grep -qx 'host w1 speed=25 quota=0.005,0.02' xq.plat && grep -qx 'host w2 speed=50 quota=0.01,0.02' xq.plat
check "scripts/xu-platform cfs: the emulated cluster's quotas (5 ms of 20, 10 ms of 20)" $?
# scripts/sim-calibrate on made-up records whose gaps follow its model
# exactly: send gap = 1e-8 s x bytes / (share / Q), reply wait = (0.001 +
# 0.002 (Q - 1)) / share; it finds 1e-08, 0.001 and 0.002.
mkdir -p cal/runs
printf 'scenario,host,share,Q\nt1-ded,w1,0.25,1\nt1-ded,w2,0.5,1\nt1-load,w1,0.25,3\nt1-load,w2,0.5,2\n' >cal/hosts.csv
for sc in t1-ded t1-load; do
    awk -F, -v sc="$sc" 'NR > 1 && $1 == sc { s[$2] = $3; q[$2] = $4 } END {
        print "worker,1,w1,w1,1,1,x,x,4,40,1"; print "worker,2,w2,w2,2,1,x,x,4,40,1"
        id = 0
        for (w = 1; w <= 2; w++) for (k = 1; k <= 4; k++) {
            h = "w" w; size = 3 * k + w; sent = 10 * k
            recv = sent + (0.001 + 0.002 * (q[h] - 1)) / s[h]; fin = recv + 1
            rcv = fin + 1e-8 * (size * 100 + 64) / (s[h] / q[h])
            printf "chunk,%d,%d,0,%d,1,%.9f,%.9f,%.9f,%.9f,%.9f,0,1\n", id++, w, size, sent, recv, recv, fin, rcv
        } }' cal/hosts.csv >"cal/runs/none-$sc-fss.csv"
done
"$REPO/scripts/sim-calibrate" cal 100 >cal.out &&
    awk '$1 == "send_s_per_byte" { a = $2 } $1 == "wake_s" { b = $2 } $1 == "wake_load_s" { c = $2 }
         END { d = a / 1e-8 - 1; e = b / 0.001 - 1; f = c / 0.002 - 1
               exit !(d * d < 1e-6 && e * e < 1e-6 && f * f < 1e-6) }' cal.out
check "scripts/sim-calibrate recovers 1e-8 s a byte, 0.001 and 0.002 s from exact records ($(tr '\n' ' ' <cal.out))" $?
# --quotas: the same records with each reply wait on a host with other
# processes longer by the quota model's expected wait (worked by hand: the
# smallest share 0.25 grows the 10 ms period to 20 ms; w1's quota 5 ms waits
# (20 - 5)^2 / (2 x 20) = 5.625 ms, w2's 10 ms (20 - 10)^2 / 40 = 2.5 ms);
# it finds 0.001 and 0.002 again, and the plain fit does not.
mkdir -p calq/runs && cp cal/hosts.csv calq/
cp cal/runs/none-t1-ded-fss.csv calq/runs/
awk -F, -v OFS=, '$1 == "chunk" { d = $3 == 1 ? 0.005625 : 0.0025; $8 += d; $9 += d; $10 += d; $11 += d
    $8 = sprintf("%.9f", $8); $9 = sprintf("%.9f", $9); $10 = sprintf("%.9f", $10); $11 = sprintf("%.9f", $11) } 1' \
    cal/runs/none-t1-load-fss.csv >calq/runs/none-t1-load-fss.csv
"$REPO/scripts/sim-calibrate" --quotas calq 100 >calq.out &&
    "$REPO/scripts/sim-calibrate" calq 100 >calq0.out &&
    awk '$1 == "send_s_per_byte" { a = $2 } $1 == "wake_s" { b = $2 } $1 == "wake_load_s" { c = $2 }
         END { d = a / 1e-8 - 1; e = b / 0.001 - 1; f = c / 0.002 - 1
               exit !(d * d < 1e-6 && e * e < 1e-6 && f * f < 1e-6) }' calq.out &&
    ! cmp -s calq.out calq0.out
check "scripts/sim-calibrate --quotas: the quota model's waits taken off ($(tr '\n' ' ' <calq.out); plain: $(tr '\n' ' ' <calq0.out))" $?
mkdir -p cal2 && cp cal/hosts.csv cal2/
run "scripts/sim-calibrate: a folder without runs" 1 "no emulated runs" "$REPO/scripts/sim-calibrate" cal2 100
# ---- --scheme auto (sim/select.h) --------------------------------------------------
# Where one scheme is clearly best, auto chooses it and comes within 5% of its
# finish (the probe's cost): the best computed here from bin/sim runs of each
# candidate, not typed. Four equal dedicated hosts, uniform costs, 2 ms
# latency: CSS (one chunk each) is ideal; one of them loaded with three other
# processes: GSS and CSS (blind to loads) lose, DTSS wins.
printf 'host h speed=1000 count=4\nlink * * latency=0.002 bandwidth=1e9\n' >au-eq.plat
printf 'host a speed=1000 count=3\nhost b speed=1000 load=0:3\nlink * * latency=0.002 bandwidth=1e9\n' >au-ld.plat
for case in "eq css,gss,tss,fss" "ld css,gss,dtss"; do
    set -- $case
    printf 'platform au-%s.plat\nworkload uniform n=4000 cost=1\nscheme auto candidates=%s\n' "$1" "$2" >au.scn
    best= bestf=
    for s in $(echo "$2" | tr , ' '); do
        $T au.scn -s "$s" -r au-s.csv -q
        f=$("$BIN/record" au-s.csv run finish)
        if [ -z "$best" ] || awk -v a="$f" -v b="$bestf" 'BEGIN { exit !(a < b) }'; then
            best=$s bestf=$f
        fi
    done
    $T au.scn -r au.csv -q
    af=$("$BIN/record" au.csv run finish)
    chose=$(grep -o ',auto=css@0;[a-z-]*@' au.csv | sed 's/.*;//; s/@$//')
    [ "$chose" = "$best" ] && awk -v a="$af" -v b="$bestf" 'BEGIN { exit !(a <= 1.05 * b) }'
    check "auto on $1 hosts ($2): chooses $best (the best of bin/sim's runs, $bestf s), finish $af s within 5% (chose '$chose')" $?
done
grep -q '^run,auto,4,4000,1,.*,auto=css@0;dtss@0\.[0-9]*' au.csv
check "auto: the record's scheme auto and field auto=css@0;dtss@T" $?
$T au.scn -r au2.csv -q && cmp -s au.csv au2.csv
check "auto: deterministic (the same record twice)" $?
$T au.scn -s auto --candidates gss -r au3.csv -q && grep -q ',auto=css@0;gss@' au3.csv
check "auto --candidates gss over the scenario's list: gss" $?
run "auto: an unknown candidate named" 2 "auto: candidate 'nosuch': unknown scheme 'nosuch'" \
    $T au.scn --candidates css,nosuch
run "auto: tree is no candidate" 2 "candidate 'tree' cannot be one" $T au.scn --candidates tree
run "auto: a candidate twice" 2 "candidate 'gss' listed twice" $T au.scn --candidates gss,css,gss
run "auto: an empty name" 2 "an empty name" $T au.scn --candidates css,,gss
run "--candidates without auto" 2 "--candidates is for --scheme auto only (the scheme is gss)" \
    $T au.scn -s gss --candidates css
printf 'platform au-eq.plat\nworkload uniform n=40 cost=1\nscheme auto k=3\n' >au-bad.scn
run "auto: a scheme parameter in the scenario named" 2 "auto takes candidates=LIST only, not 'k'" \
    $T au-bad.scn
run "auto: a scheme parameter on the command line named" 2 "auto takes no scheme parameter (--k)" \
    $T au.scn -s auto --k 3
printf 'platform au-eq.plat\nworkload uniform n=40 cost=1\nscheme auto candidates=css,bogus\n' >au-bad.scn
run "auto: the scenario's bad candidate named" 2 "candidate 'bogus'" $T au-bad.scn
# AWF-D and AWF-E take a chunk's time from its assignment to its result
# (Cariño & Banicescu), AWF-B and AWF-C its computing time: where messages
# cost nothing (latency 0, no result bytes) the two are the same times, so
# D makes B's chunks and E C's, chunk for chunk; the simulator once gave D
# and E a time of 0 (no policy_now) and they made WF's chunks instead.
sed 's/latency=0.0002 bandwidth=1e8/latency=0 bandwidth=1e300/' "$REPO/sim/examples/loaded.plat" >free.plat
printf 'platform free.plat\nworkload mandel size=400 maxiter=2000\nsample 4\n' >free.scn
for s in awf-b awf-c awf-d awf-e wf; do
    $T free.scn -s "$s" -r "free-$s.csv" -q
    awk -F, '$1 == "chunk" { printf "%s %s %s\n", $3, $4, $5 }' "free-$s.csv" >"free-$s.txt"
done
cmp -s free-awf-b.txt free-awf-d.txt && cmp -s free-awf-c.txt free-awf-e.txt && ! cmp -s free-awf-d.txt free-wf.txt
check "AWF-D makes AWF-B's chunks and AWF-E AWF-C's where messages are free (not WF's)" $?
finish
