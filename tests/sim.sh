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

# The coordinator's record format (sched/record.h), columns found by the
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
run "nonexistent scenario" 2 "cannot open" "$BIN/sim" nothere.scn
run "bad option" 2 "unknown option" "$BIN/sim" run.scn --bogus
finish
