#!/bin/sh
# reproduce.sh: the QUICK reproduction end to end (scripts/reproduce --quick
# into a temporary results folder) and `make run`'s script: the files exist,
# parse and hold sane values: every row computed once, times positive,
# imbalance = max - min of the W_i.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/dtss-repro.XXXXXX)
# Ends the clusters it may have up (its own folders), whatever happened.
trap 'for d in "$tmp/cl" "$tmp/cluster"; do [ -e "$d/env" ] && CLUSTER_DIR=$d "$REPO/scripts/cluster" down >/dev/null 2>&1; done; rm -rf "$tmp"' EXIT
trap 'exit 1' INT TERM
. "$(dirname "$0")/lib.sh"

if [ "$(id -u)" -ne 0 ] || ! command -v ip >/dev/null 2>&1; then
    skip "the reproduction needs the emulated cluster (root, namespaces)"
    finish
    exit
fi

# The programs the reproduction runs: bin's, but heat-pvm failing once, on
# the plate sweep's first run with re-cuts (256 x 1024, dedicated): a failed
# sweep run is named and left out with its pair, the reproduction goes on.
mkdir "$tmp/bin"
for f in "$BIN"/*; do ln -s "$f" "$tmp/bin/"; done
# (The wrapper finds the real program and its marker beside itself: no path
# is written into its text.)
mv "$tmp/bin/heat-pvm" "$tmp/bin/heat-pvm.real"
cat >"$tmp/bin/heat-pvm" <<'EOF'
#!/bin/sh
here=$(dirname "$0")
case " $* " in
*" --nx 256 --ny 1024 "*" --strategy yoon "*)
    if mkdir "$here/../failed-once" 2>/dev/null; then
        echo "heat-pvm: a failure made by tests/reproduce.sh" >&2
        exit 1
    fi ;;
esac
exec "$here/heat-pvm.real" "$@"
EOF
chmod +x "$tmp/bin/heat-pvm"
# Its own cluster (not build/reproduce-cluster, which make reproduce-tables uses).
REPRODUCE_CLUSTER_DIR=$tmp/cluster BIN=$tmp/bin RESULTS=$tmp/results PLOT_LOG=$tmp/plots.log \
    "$REPO/scripts/reproduce" --quick \
    >"$tmp/log" 2>&1
rc=$?
check "reproduce --quick finishes (exit $rc)" $rc
[ $rc -eq 0 ] || tail -n 20 "$tmp/log"
R=$tmp/results
grep -q "^\[24/24\] .* elapsed .* left$" "$tmp/log"; check "progress: run count, elapsed, time left" $?

for f in README.md table1.md table1.csv table1-runs.csv table2.md table2.csv table2-runs.csv \
         midrun.md sampling.md fig3.png fig3-costs.csv fig3-costs-columns.csv chunks-tss.png \
         chunks-dtss.png chunks-tree.png readings.md readings.png w4-load.md \
         readings/readings-claims.csv readings/readings-runs.csv; do
    [ -s "$R/$f" ]; check "results/$f exists" $?
done
for f in "$R"/runs/table[12]*/*/*.csv "$R"/runs/midrun*/*.csv "$R"/runs/sampling/*.csv; do
    [ -s "${f%.csv}.png" ]; check "timeline for $(basename "$(dirname "$f")")/$(basename "$f")" $?
done
# Tables 1 and 2 in both loops (4 runs a table a loop), the mid-run load in
# both (2 each), R = 32 (2), Table 2 loaded with W4 + 6 (2); the W4 + 6
# reading's dedicated case is a link to Table 2's rows (its 2 records: 2 more
# names).
n=$(ls "$R"/runs/*/*.csv "$R"/runs/*/*/*.csv 2>/dev/null | wc -l)
[ "$n" = 26 ]; check "24 run records, 26 names (got $n)" $?
[ -L "$R/runs/table2-w4+6/dedicated" ] && [ "$(readlink "$R/runs/table2-w4+6/dedicated")" = ../table2/dedicated ]
check "W4 + 6's dedicated case: Table 2's rows' runs, linked" $?
bad=0
for f in "$R"/runs/table[12]-columns/*/*.csv "$R"/runs/midrun-columns/*.csv; do
    [ "$("$BIN/record" "$f" run loop)" = columns ] || bad=$((bad + 1))
done
for f in "$R"/runs/table[12]/*/*.csv "$R"/runs/midrun/*.csv; do
    [ "$("$BIN/record" "$f" run loop)" = rows ] || bad=$((bad + 1))
done
[ "$bad" = 0 ]; check "the column runs' records say loop=columns, the others rows" $?

# Every record (its fields by name, bin/record): the image's checksum is
# bin/mandel's (every row computed, once, right); done chunks cover every row
# once; times positive; the run line's imbalance is max - min of the workers'
# finish times.
size=600 maxiter=8000
want=$("$BIN/mandel" -S $size -m $maxiter |
       sed 's/.*checksum \([0-9a-f]*\).*/\1/')
for f in "$R"/runs/*/*/*.csv "$R"/runs/midrun*/*.csv "$R"/runs/sampling/*.csv; do
    name=$(echo "$f" | sed "s|$R/runs/||")
    ck=$("$BIN/record" "$f" run checksum)
    [ "$ck" = "$want" ]; check "$name: image checksum is bin/mandel's" $?
    "$BIN/record" "$f" chunk done,start,size,started,finished,received >"$tmp/chunks" &&
        "$BIN/record" "$f" worker finish >"$tmp/workers" &&
        "$BIN/record" "$f" run finish,imbalance >"$tmp/run" &&
        awk -F, -v rows=$size -v chunks="$tmp/chunks" -v workers="$tmp/workers" '
        FILENAME == chunks && $1 == 1 { for (k = $2; k < $2 + $3; k++) c[k]++
                                        if ($4 < 0 || $5 < $4 || $6 <= 0) bad = 1 }
        FILENAME == workers && $1 != "" { if (!n || $1 > hi) hi = $1; if (!n || $1 < lo) lo = $1; n++ }
        FILENAME != chunks && FILENAME != workers { fin = $1; imb = $2 }
        END { for (k = 0; k < rows; k++) if (c[k] != 1) bad = 1
              if (fin <= 0 || n < 1) bad = 1
              d = hi - lo - imb; if (d > 1e-5 || d < -1e-5) bad = 1
              exit bad }' "$tmp/chunks" "$tmp/workers" "$tmp/run"
    check "$name: rows once, times positive, imbalance = max - min" $?
done

# The tables parse (columns by the header's names): four rows of ours, four
# of the paper's, numbers sane.
for t in 1 2; do
    nr=$([ $t = 1 ] && echo 2 || echo 3)
    awk -F, -v nr="$nr" 'NR == 1 { for (k = 1; k <= NF; k++) col[$k] = k; next }
             $col["source"] == "ours" { n++; r[$col["reading"]]++; if (!($col["finish"] > 0) || $col["runs"] < 1) bad = 1 }
             $col["source"] == "paper" { p++ }
             END { for (x in r) { m++; if (r[x] != 4) bad = 1 }
                   exit !(n == 4 * nr && m == nr && p == 4 && !bad) }' "$R/table$t.csv"
    check "table$t.csv: 4 rows ours in each of $nr readings, 4 paper, finish times > 0" $?
    grep -q "^- \*\*\(held\|did not hold\)\*\*" "$R/table$t.md"; check "table$t.md states the shape checks" $?
    grep -q "| DTSS | Not dedicated |" "$R/table$t.md"; check "table$t.md has the DTSS rows" $?
    n=$(grep -c "^- Table $t .*: \*\*held in [0-9] of $nr readings\*\* (rows: " "$R/table$t.md")
    [ "$n" = $([ $t = 1 ] && echo 4 || echo 5) ]; check "table$t.md: each claim held in X of $nr readings (got $n)" $?
    grep -q "^| TSS | Dedicated | [0-9.]* / [0-9.]* | [0-9.]* / [0-9.]* | 29 / 2 |$\|^| Tree | Dedicated | [0-9.]* / [0-9.]* | [0-9.]* / [0-9.]* | [0-9.]* / [0-9.]* | 12 / 0 |$" "$R/table$t.md"
    check "table$t.md: the readings side by side, the paper beside" $?
done
n=$(grep -c "^| \(rows\|columns\) | \(TSS\|DTSS\) | [0-9.]* | " "$R/midrun.md")
[ "$n" = 4 ]; check "midrun.md: TSS and DTSS in both loops (got $n)" $?
n=$(grep -c "^- \*\*\(held\|did not hold\)\*\*, loop over \(rows\|columns\): DTSS re-plans" "$R/midrun.md")
[ "$n" = 2 ]; check "midrun.md: the claim in each loop (got $n)" $?
n=$(grep -c "^| \(rows\|columns\) | \(TSS\|DTSS\) | [0-9.]* ± [0-9.]* | [0-9.]*\.\.[0-9.]* | [0-9.]* s |$" "$R/midrun.md")
[ "$n" = 4 ]; check "midrun.md: the finish over the runs, mean ± sd, in both loops (got $n)" $?
# The claim is judged on the means: its DTSS / TSS is the means' quotient.
awk '/^\| (rows|columns) \| (TSS|DTSS) \| [0-9.]+ ± / { m[$2 $4] = $6 }
     /^- \*\*(held|did not hold)\*\*, loop over / { l = ($0 ~ /loop over rows/) ? "rows" : "columns"
         v = $NF; sub(/\)$/, "", v); got[l] = v }
     END { for (l in got) { q = m[l "DTSS"] / m[l "TSS"]; d = got[l] - q
               if (!(m[l "TSS"] > 0) || d > 0.01 || d < -0.01) { printf "%s: %s against the means %.3f; ", l, got[l], q; bad = 1 } }
           exit bad || length(got) != 2 }' "$R/midrun.md" >"$tmp/mq" 2>&1
check "midrun.md: the claim on the means of the runs ($(head -c 200 "$tmp/mq"))" $?
n=$(grep -c "^| 1 | columns |\|^| 2 | columns |\|^| 2 | rows-W4+6 |" "$R/sim-xu.md")
[ "$n" = 10 ]; check "sim-xu.md: the columns' cases and Table 2 with W4 + 6, simulated (got $n)" $?
grep -q "Made by .make reproduce-tables QUICK=1. on" "$R/README.md"; check "README.md says how and when" $?

# Part 1b, the matrix products on the emulated cluster (bin/matrix on libdtss).
for f in matrix/README.md matrix/table.md matrix/table.csv matrix/finish.png matrix/sequential.txt \
         matrix/platform.plat matrix/sim/scenario.scn; do
    [ -s "$R/$f" ]; check "results/$f exists (part 1b)" $?
done
# Per scheme: a measured finish and imbalance, chunks, and the simulator's.
rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["finish_mean"] > 0 && $c["imbalance_mean"] != "" && $c["chunks_mean"] >= 1 &&
    $c["sim_finish"] > 0 { n++ } END { print n + 0 }' "$R/matrix/table.csv")
[ "$rows" = 8 ]; check "matrix/table.csv: the seven Díaz schemes and DTSS, measured and simulated (got $rows)" $?
sum=$(sed -n 's/^checksum \([0-9a-f]*\)$/\1/p' "$R/matrix/sequential.txt")
bad=0
for f in "$R"/matrix/runs/*.csv; do
    [ "$("$BIN/record" "$f" run checksum)" = "$sum" ] || bad=$((bad + 1))
done
[ -n "$sum" ] && [ "$bad" = 0 ]; check "matrix: every run's checksum is the sequential one ($sum)" $?
# The workers ran in their hosts' CPU shares: the records name each host's
# cgroup (inherited from the host's pvmd).
in_cg=$(for f in "$R"/matrix/runs/*.csv; do "$BIN/record" "$f" worker backend,cgroup; done |
        awk -F, '$1 == "cgroup" && $2 ~ "^/dtss/" && $2 !~ "/_pvmd/" { n++ } END { print n + 0 }')
[ "$in_cg" = 32 ]; check "matrix: every worker ran in its host's cgroup (got $in_cg of 32)" $?

# Part 1c, Heymann et al.'s thinning on the self-adjusting pool (quick: the
# Figures image at 8 and 32 parts, both strategies).
for f in heymann/README.md heymann/table.md heymann/table.csv heymann/fig4.2-emulated.png \
         heymann/fig4.2-simulated.png heymann/images/figures.pbm; do
    [ -s "$R/$f" ]; check "results/$f exists (part 1c)" $?
done
rows=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["runs"] == 1 && $c["workers"] > 0 && $c["efficiency"] > 0 && $c["efficiency"] <= 1 &&
    $c["time"] > 0 && $c["sim_time"] > 0 && $c["paper_time"] > 0 { n++ } END { print n + 0 }' "$R/heymann/table.csv")
[ "$rows" = 4 ]; check "heymann/table.csv: Figures at 8 and 32 parts, both strategies, emulated, simulated and the paper's (got $rows)" $?
n=$(ls "$R"/heymann/runs/figures-*.csv 2>/dev/null | wc -l)
[ "$n" = 4 ]; check "heymann/runs: four run records (got $n)" $?
grep -q "^- self-adjusting efficiency >= 0.8: [0-9] of 2 " "$R/heymann/table.md"
check "heymann/table.md: the paper's claims counted" $?
awk -F, '$1 == "worker" && $9 == "released" { r++ } $1 == "worker" { n++ } END { exit !(n > 1 && r > 0) }' \
    "$R/heymann/runs/figures-32-adjust-1.csv"
check "heymann: the adjusting run's record shows workers started and released" $?

# Part 1d, Yoon et al. (quick: Figures 4-7 with few seeds, NetPIPE to 16 KiB,
# the task model, the heat conduction and its plate sweep once each).
for f in yoon/README.md yoon/table.md yoon/netpipe.csv yoon/fig8-9.png yoon/tasks.csv \
         yoon/heat.csv yoon/sim/fig4.png yoon/sim/fig5.png yoon/sim/fig6.png yoon/sim/fig7.png \
         yoon/sim/claims.md; do
    [ -s "$R/$f" ]; check "results/$f exists (part 1d)" $?
done
n=$(awk -F, 'NR > 1 && $4 > 0 { n++ } END { print n + 0 }' "$R/yoon/tasks.csv")
[ "$n" = 6 ]; check "yoon/tasks.csv: dedicated and loaded, none, yoon and clb, a time each (got $n)" $?
n=$(awk -F, 'NR > 1 && $4 > 0 && $9 == "yes" { n++ } END { print n + 0 }' "$R/yoon/heat.csv")
[ "$n" = 4 ]; check "yoon/heat.csv: 4 runs, each field bit for bit bin/heat's (got $n)" $?
# The plate sweep (quick: 2 plates x dedicated, loaded x none, yoon, a run
# each, the first with re-cuts failed, its pair left out): a time, every
# field bit for bit, each host's step measured in CPU periods (the shortest
# no longer than the longest), the figure, the verdict.
n=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    $c["time"] > 0 && $c["identical"] == "yes" && $c["period_ms"] > 0 && $c["step_min_periods"] > 0 &&
    $c["step_min_periods"] <= $c["step_max_periods"] { n++ } END { print n + 0 }' "$R/yoon/heat-sweep.csv")
[ "$n" = 6 ]; check "yoon/heat-sweep.csv: 6 runs, each a time, the field bit for bit, steps in periods (got $n)" $?
n=$(awk -F, '$1 == "dedicated" && $2 == 256 { n++ } END { print n + 0 }' "$R/yoon/heat-sweep.csv")
[ "$n" = 0 ]; check "yoon/heat-sweep.csv: the failed run's pair left out (got $n rows of it)" $?
[ "$(cat "$R/yoon/heat-sweep-failed.csv")" = "scenario,nx,ny,strategy,run,log
dedicated,256,1024,yoon,1,runs/sweep-dedicated-256x1024-yoon-1.out" ]
check "yoon/heat-sweep-failed.csv names the failed run and its log ($(tr '\n' ' ' <"$R/yoon/heat-sweep-failed.csv"))" $?
grep -qxF "**1 run(s) of the sweep failed**, each left out above with its pair (heat-sweep-failed.csv; the log's last line):" "$R/yoon/table.md" &&
    grep -qxF -- "- dedicated, 256 x 1024, yoon, run 1 (runs/sweep-dedicated-256x1024-yoon-1.out): heat-pvm: a failure made by tests/reproduce.sh" "$R/yoon/table.md" &&
    grep -q "reproduce-yoon: 1 run(s) of the plate sweep FAILED" "$tmp/log"
check "the failed sweep run on the page (its log's last line) and the log" $?
# The longest host's step is the busiest worker's computing over the steps.
why=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
    { want = 1000 * $c["busy_max"] / $c["steps"]; d = want - $c["step_max_ms"]; if (d < 0) d = -d
      if (d > 0.05 + 1e-3 * want) { printf "%s: %s ms, %s s over %s steps", NR, $c["step_max_ms"], $c["busy_max"], $c["steps"]; exit 1 } }' \
    "$R/yoon/heat-sweep.csv")
check "yoon/heat-sweep.csv: the longest step = the busiest worker's seconds / the steps ($why)" $?
[ -s "$R/yoon/heat-sweep.png" ]; check "results/yoon/heat-sweep.png exists" $?
n=$(grep -c "^- \(dedicated\|loaded\)[:,] .*10 periods or more" "$R/yoon/table.md")
[ "$n" = 2 ]; check "yoon/table.md: the verdict at 10 periods, dedicated and loaded (got $n)" $?
grep -q "^# fit: C_t = [0-9.]* + [0-9.]* m us" "$R/yoon/netpipe.csv"
check "yoon/netpipe.csv: the fit C_t = a + b m" $?
grep -q "^Emulated against simulated time: [0-9]*% apart" "$R/yoon/table.md"
check "yoon/table.md: the task model beside the simulator" $?

# Part 1e, the league (quick: every scheme on the simulator, four schemes on
# Table 1 dedicated and loaded and Fig. 1's increasing loop on the emulated
# cluster).
for f in league.md league.png league/sim.csv league/emu.csv league/sweep-R.png league/sweep-P.png; do
    [ -s "$R/$f" ]; check "results/$f exists (part 1e)" $?
done
n=$(awk -F, 'NR > 1 && $1 == "emu" && $5 > 0 && $9 > 0 { n++ } END { print n + 0 }' "$R/league/emu.csv")
[ "$n" = 12 ]; check "league/emu.csv: 4 schemes x 3 scenarios (Fig. 1's increasing loop by bin/loop) emulated, each a finish and chunks (got $n)" $?
grep -q "^- Emulated within 3% of simulated (finish / ideal) on every scenario: " "$R/league.md"
check "league.md: emulated beside simulated" $?

# Part 2, the simulator.
for f in sim-xu.md diaz/README.md diaz/table1.md diaz/table2.md diaz/table2.csv diaz/table2-optimum.csv \
         diaz/fig2-qss.png diaz/fig3-ess.png diaz/fig4-rss.png diaz/fig5-speedup.png; do
    [ -s "$R/$f" ]; check "results/$f exists" $?
done
grep -q "| 5608/26 | 26 / 26 | 152 / 152 | 95 / 95 | 200 / 200 | 129 / 129 | 175 / 175 | 57 / 57 |" \
    "$R/diaz/table1.md"; check "diaz/table1.md: the 5608/26 chunk counts as the paper's" $?
awk -F, 'NR > 1 { n++; if (!($3 > 0) || !($6 > 0) || !($8 > 0)) bad = 1 } END { exit !(n == 21 && !bad) }' \
    "$R/diaz/table2.csv"; check "diaz/table2.csv: 21 rows, times and speedups > 0" $?
for f in dag/README.md dag/fig5-running-time.png dag/fig6-slr.png dag/fig7-speedup.png; do
    [ -s "$R/$f" ]; check "results/$f exists (part 3)" $?
done
! grep -l "±" "$R/table1.md" "$R/table2.md" "$R/sampling.md" "$R/matrix/table.md" "$R/heymann/table.md" >/dev/null 2>&1
check "one-run tables print no '± 0.00' ($(grep -l "±" "$R/table1.md" "$R/table2.md" "$R/sampling.md" "$R/matrix/table.md" "$R/heymann/table.md" 2>/dev/null | tr '\n' ' '))" $?
grep -q "the 600-line image at maxiter 8000 in" "$R/sim-xu.md"
check "sim-xu.md names this run's image (600 lines, maxiter 8000)" $?
# Tables 1 and 2 in both loops (16 cases) and Table 2 loaded with W4 + 6
# (2), simulated beside emulated.
n=$(grep -c '^| [12] | [a-zW46+-]* | [A-Z]* | [a-z]* | [0-9.]* / [0-9.]* | [0-9.]* / [0-9.]* (one run) ' "$R/sim-xu.md")
[ "$n" = 18 ]; check "sim-xu.md: 18 cases, simulated beside emulated (got $n)" $?
# Emulated against simulated (issue 15): each case's difference, the mid-run
# load simulated when it arrived in each emulated run (its record's started=).
n=$(grep -c '^| [12] | [a-zW46+-]* | [A-Z]* | [a-z]* | .* | [-+][0-9.]*% | [0-9]* / [0-9]* |$' "$R/sim-xu.md")
[ "$n" = 18 ]; check "sim-xu.md: emulated / simulated on the 18 cases (got $n)" $?
for loop in rows columns; do
    md=$R/runs/midrun$([ $loop = columns ] && echo -columns)
    for s in tss dtss; do
        st=$("$BIN/record" "$md/$s.csv" run started)
        fin=$("$BIN/record" "$md/$s.csv" run finish)
        la=$(cat "$md/$s.load_at" 2>/dev/null)
        # the load was asked for at 30% of the dedicated finish (about 0.3 s
        # here) on the run's clock, the start-up of the runs before added; it
        # lands mid-run, after the schedule's start and before its finish
        # (measured: scripts/load's .since)
        awk -v st="$st" -v la="$la" -v f="$fin" 'BEGIN { exit !(st > 1.7e9 && la > 0 && la < f) }'
        check "midrun $loop $s: started=$st, the load at $la s of the run (finish $fin s)" $?
        grep -q "^| $loop | $(echo $s | tr a-z A-Z) | [0-9.]* / [0-9.]* (load at [0-9.]* s) | [0-9]* | $la s | [0-9.]* | [0-9.]* | [-+][0-9.]*% | [0-9.]* ± [0-9.]* (1) |$" "$R/sim-xu.md"
        check "sim-xu.md: midrun $loop $s simulated with the load at $la s, its run beside its twin" $?
        # its timeline marks the load where it landed (scripts/plot's PLOT_LOG;
        # drawn in the folder the results are made in, then put in place)
        grep -F "/${md#"$R"/}/$s.png | " "$tmp/plots.log" | grep -F " | $la | " |
            grep -q "(measured on the schedule's clock)"
        check "midrun $loop $s: the timeline marks the load where it landed ($la s, measured)" $?
    done
done
grep -q "^Emulated within 3% of simulated (finish) on every Xu case: \*\*[a-z ]*\*\* ([0-9]* of 22; " "$R/sim-xu.md"
check "sim-xu.md: the target measured over the 22 Xu cases" $?
n=$(grep -c '^| [A-Za-z]* | [A-Za-z ]* | .* | [0-9.]* s | [0-9.]* | [0-9.]* s | [0-9.]* |$' "$R/table1.md")
[ "$n" = 8 ]; check "table1.md: the ideal of the delivered speeds on the 4 cases of both loops (got $n)" $?
n=$(grep -c '^delivered w[1-4] 0\.[0-9]*$' "$R/runs/table2/nondedicated/info")
[ "$n" = 4 ]; check "table2's info: what the 4 hosts delivered (got $n)" $?

# make run's script: one run with a load, its own cluster brought up and down.
CLUSTER_DIR=$tmp/cl BIN=$BIN "$REPO/scripts/run-one" --scheme tss --load "w1:3 w2:2" \
    --out "$tmp/one" -- -S 200 -m 1500 -q >"$tmp/one.log" 2>&1
check "run-one with a load finishes" $?
grep -q "^tss: W1 .* Finish .* Imbalance" "$tmp/one.log"; check "run-one prints the paper's line" $?
[ -s "$tmp/one/run-tss.png" ] && [ -s "$tmp/one/run-tss.csv" ]; check "run-one writes the timeline and record" $?
"$BIN/record" "$tmp/one/run-tss.csv" report worker,Q >"$tmp/reports" &&
    grep -qx '1,4' "$tmp/reports" && grep -qx '2,3' "$tmp/reports"
check "run-one: the loaded hosts report Q = 4 and 3" $?
[ ! -e "$tmp/cl/env" ]; check "run-one takes down the cluster it brought up" $?
# With Table 1's cluster up, asking for Table 2's refuses (make run
# HOSTFILE=hostfiles/table2), the same cluster runs, and no hostfile means
# the one that is up; a failed run leaves no record behind.
CLUSTER_DIR=$tmp/cl DTSS_BIN=$BIN "$REPO/scripts/cluster" up --emulate "$REPO/hostfile" >/dev/null 2>&1
CLUSTER_DIR=$tmp/cl BIN=$BIN "$REPO/scripts/run-one" --hostfile "$REPO/hostfiles/table2" \
    --out "$tmp/two" -- -S 100 -m 200 -q >"$tmp/two.log" 2>&1
rc=$?
[ $rc = 1 ] && grep -q "up with another hostfile" "$tmp/two.log" && [ ! -e "$tmp/two/run-dtss.csv" ]
check "run-one --hostfile table2 with table1's cluster up: refused, saying why (exit $rc)" $?
CLUSTER_DIR=$tmp/cl BIN=$BIN "$REPO/scripts/run-one" --hostfile "$REPO/hostfile" \
    --out "$tmp/two" -- -S 100 -m 200 -q >"$tmp/two.log" 2>&1
check "run-one --hostfile of the cluster that is up: runs" $?
CLUSTER_DIR=$tmp/cl BIN=$BIN "$REPO/scripts/run-one" --out "$tmp/two" -- -S 100 -m 200 --bogus \
    >"$tmp/two.log" 2>&1
rc=$?
[ $rc != 0 ] && [ ! -e "$tmp/two/run-dtss.csv" ]
check "run-one: a failed coordinator fails the run and leaves no older record (exit $rc)" $?
# --after P%: the load at P% of the run's ideal dedicated length, the image
# (800 x 600, maxiter 3000) timed on a sixteenth of it (200 x 150) over the
# cluster's CPU shares (4 x 25%: 1 core).
CLUSTER_DIR=$tmp/cl BIN=$BIN "$REPO/scripts/run-one" --scheme dtss --load "w1:3 w2:2 w3:1" --after 30% \
    --out "$tmp/two" -- -W 800 -H 600 -m 3000 -q >"$tmp/two.log" 2>&1
rc=$?
seq16=$("$BIN/mandel" -W 200 -H 150 -m 3000 | sed -n 's/.*seconds \([0-9.]*\).*/\1/p')
line=$(grep "^run-one: the load arrives at [0-9.]* s: 30% of the dedicated run's ideal length, [0-9.]* s (the 800x600 image at maxiter 3000, timed on a 200x150 one, over the cluster's 1 cores)$" "$tmp/two.log")
at=$(echo "$line" | sed 's/.* arrives at \([0-9.]*\) s.*/\1/') ideal=$(echo "$line" | sed 's/.* length, \([0-9.]*\) s.*/\1/')
[ $rc = 0 ] && [ -n "$line" ] && awk -v a="$at" -v i="$ideal" -v s="$seq16" \
    'BEGIN { exit !(a == sprintf("%.1f", 0.3 * i) && i > 8 * s && i < 32 * s) }'
check "run-one --after 30%: the load at 0.3 x the ideal ($at of $ideal s; 16 x a sixteenth here: $seq16 s x 16)" $?
# Where it landed on the run's clock, said: AT after the launch, less the
# workers' start (0 when they took longer: this small image's 30% is 0.1 s),
# within 0.1 s.
line=$(grep "^run-one: the load landed at [0-9.]* s on the run's clock (asked for at $at s after the launch; the workers' start took [0-9.]* s)\$" "$tmp/two.log")
landed=$(echo "$line" | sed 's/.* landed at \([0-9.]*\) s.*/\1/') took=$(echo "$line" | sed 's/.* start took \([0-9.]*\) s.*/\1/')
[ -n "$line" ] && awk -v l="$landed" -v a="$at" -v t="$took" \
    'BEGIN { w = a - t; if (w < 0) w = 0; d = l - w; exit !(d <= 0.1 && d >= -0.1) }'
check "run-one --after 30%: the load landed at ${landed:-?} s on the run's clock: $at s after the launch less the workers' start, ${took:-?} s" $?
[ -e "$tmp/cl/env" ]; check "run-one leaves up a cluster it did not bring up" $?
CLUSTER_DIR=$tmp/cl "$REPO/scripts/cluster" down >/dev/null 2>&1
for a in 0% 150% 3x -1; do
    "$REPO/scripts/run-one" --after "$a" >"$tmp/bad.log" 2>&1
    [ $? -eq 2 ] && grep -q "run-one: --after '$a'" "$tmp/bad.log"; check "run-one refuses --after $a, naming it" $?
done
"$REPO/scripts/run-one" --load "w1:x" >/dev/null 2>&1
[ $? -eq 2 ]; check "run-one refuses a bad load" $?
finish
