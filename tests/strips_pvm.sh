#!/bin/sh
# strips_pvm.sh: row strips re-cut by load balancing on real PVM
# (runtime/strips/master.c, strips_worker.c) through bin/heat-pvm, on a
# private one-host PVM: the field bit for bit bin/heat's with every
# strategy, with rows moving (C_t = 0) and without re-cuts; the record's
# re-cuts keep every row, a row at least a strip; options refused by name; a
# worker killed mid-run ends the run naming it; the run's time from the last
# worker holding its rows; scripts/plot heatsweep on a sweep of
# scripts/reproduce-yoon's form.
set -u
BIN=${BIN:-bin}
case $BIN in /*) ;; *) BIN=$PWD/$BIN ;; esac
here=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
. "$here/tests/lib.sh"
. "$here/tests/pvmlib.sh"
trap 'pvm_down >/dev/null 2>&1; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
hp=$BIN/heat-pvm

run "--help: the plate's and the strips' options" 0 "every K" "$hp" --help
run "--every 0 named" 2 "every '0'" "$hp" --nx 8 --ny 8 --steps 1 --every 0
run "--strategy named" 2 "strategy: .*'x'" "$hp" --nx 8 --ny 8 --steps 1 --strategy x
run "--r 0.3 named" 2 "r=0.3" "$hp" --nx 8 --ny 8 --steps 1 --r 0.3
run "--nx missing" 2 "nx, --ny and --steps are needed" "$hp" --ny 8 --steps 1
mkdir -p "$tmp/nopvm"
run "no pvmd: said, exit 1" 1 "pvmd\|PVM" env PVM_TMP="$tmp/nopvm" PVM_ALLOW_ROOT=yes \
    "$hp" --nx 8 --ny 8 --steps 1

# scripts/plot heatsweep: a sweep's CSV (the columns scripts/reproduce-yoon
# writes) to a figure; the title reaches gnuplot as data; another CSV refused.
cat >"$tmp/sweep.csv" <<'EOF'
scenario,nx,ny,steps,every,period_ms,strategy,run,time,recuts,moved,gain,busy_max,gain_computing,step_min_ms,step_max_ms,step_min_periods,step_max_periods,identical
dedicated,64,256,8,2,20,none,1,0.10,0,0,0.0000,0.05,0.0000,1.0,1.2,0.05,0.06,yes
dedicated,64,256,8,2,20,yoon,1,0.12,3,10,-0.1667,0.05,0.0000,1.0,1.3,0.05,0.07,yes
dedicated,256,1024,8,2,20,none,1,2.00,0,0,0.0000,1.90,0.0000,230,240,11.5,12.0,yes
dedicated,256,1024,8,2,20,yoon,1,2.10,3,40,-0.0476,1.90,0.0000,230,240,11.5,12.0,yes
loaded,64,256,8,2,20,none,1,0.40,0,0,0.0000,0.20,0.0000,1.0,4.0,0.05,0.20,yes
loaded,64,256,8,2,20,yoon,1,0.50,3,50,-0.2000,0.15,0.3333,1.0,3.0,0.05,0.15,yes
loaded,256,1024,8,2,20,none,1,8.00,0,0,0.0000,7.60,0.0000,230,900,11.5,45.0,yes
loaded,256,1024,8,2,20,yoon,1,6.00,3,900,0.3333,5.00,0.5200,300,500,15.0,25.0,yes
EOF
evil='a"; system("touch PWNED"); "'
(cd "$tmp" && PLOT_TRACE=$tmp/trace "$here/scripts/plot" heatsweep sweep.csv sweep.png "$evil" >"$tmp/plot.out" 2>&1)
check "plot heatsweep: a figure from a sweep ($(head -c 200 "$tmp/plot.out"))" $?
[ -s "$tmp/sweep.png" ] && [ ! -e "$tmp/PWNED" ] && grep -qxF "$evil" "$tmp/trace"
check "plot heatsweep: the PNG; the title given to gnuplot as data, never run" $?
run "plot heatsweep refuses another CSV" 1 "is not scripts/reproduce-yoon's heat-sweep.csv" \
    "$here/scripts/plot" heatsweep "$here/tests/golden/chunks-dtss-acp" "$tmp/x.png"
printf '%s\n' "$(head -n 1 "$tmp/sweep.csv")" "dedicated,64,256,8,2,20,yoon,1,0.12,3,10,-0.1667,0.05,0.0000,1.0,1.3,0.05,0.07,yes" \
    >"$tmp/half.csv"
run "plot heatsweep: runs with re-cuts only, refused by name" 1 "has no runs without re-cuts" \
    "$here/scripts/plot" heatsweep "$tmp/half.csv" "$tmp/x.png"

mkdir -p "$tmp/vm"
if ! pvm_up "$tmp/vm" "$BIN"; then
    bad "a private pvmd (pvmd.out: $(head -c 200 "$tmp/vm/pvmd.out" 2>/dev/null))"
    finish
    exit
fi
ref=$("$BIN/heat" --nx 128 --ny 300 --steps 120 --checksum | sed -n 's/^checksum //p')
[ -n "$ref" ]; check "bin/heat's checksum ($ref)" $?
run "more workers than rows: refused, bad input" 2 "5 workers for 4 rows" "$hp" --local 5 --nx 8 --ny 4 --steps 1
for s in none yoon clb dlb mclb; do
    "$hp" --local 4 --nx 128 --ny 300 --steps 120 --every 10 --ct 0 --strategy "$s" \
        --checksum --record "$tmp/$s.csv" >"$tmp/$s.out" 2>&1
    check "$s: a run on 4 workers (exit $?: $(head -c 200 "$tmp/$s.out"))" $?
    ck=$(sed -n 's/^checksum //p' "$tmp/$s.out")
    [ "$ck" = "$ref" ]; check "$s: the field bit for bit bin/heat's ($ck)" $?
    # Every re-cut: its rows and targets add to 300, each strip >= 1 row.
    why=$(awk -F, '$1 == "recut" { n = split($3, a, ";"); split($5, b, ";"); s = 0; t = 0
            for (i = 1; i <= n; i++) { s += a[i]; t += b[i]; if (a[i] < 1 || b[i] < 1) bad = "an empty strip at step " $2 }
            if (s != 300 || t != 300) bad = "rows " s ", targets " t " at step " $2 }
          END { if (bad) { print bad; exit 1 } }' "$tmp/$s.csv")
    check "$s: every re-cut keeps the 300 rows, a row at least a strip ($why)" $?
done
n=$(grep -c '^recut,' "$tmp/none.csv")
[ "$n" = 0 ]; check "none: no re-cut ($n)" $?
n=$(grep -c '^recut,' "$tmp/yoon.csv")
[ "$n" = 11 ]; check "yoon: a re-cut every 10 steps but after the last (11: $n)" $?
moved=$(awk -F, '$1 == "run" { print $11 }' "$tmp/yoon.csv")
[ "${moved:-0}" -gt 0 ]; check "yoon with C_t = 0: rows moved ($moved)" $?
grep -q "^yoon: 4 workers, 300 rows, 120 steps, time [0-9.]* s, 11 re-cuts, [0-9]* rows moved; rows at the end: [0-9]* [0-9]* [0-9]* [0-9]*$" "$tmp/yoon.out"
check "the summary line" $?
# The run's time: from the last worker holding its rows (the start every
# worker waits for) to the last one's end, the record's begin and end
# columns (times from the first worker's start).
for s in none yoon; do
    why=$(awk -F, '$1 == "run" { t = $9 } $1 == "worker" { if ($7 > b) b = $7; if ($8 > e) e = $8; if ($6 <= 0) z = 1 }
        END { d = e - b - t; if (d < 0) d = -d; if (d > 2e-6 || z || t <= 0) { printf "time %s, last begin %s, last end %s%s", t, b, e, z ? ", a worker busy 0 s" : ""; exit 1 } }' "$tmp/$s.csv")
    check "$s: time = the last end - the last begin, every worker computed ($why)" $?
done
"$hp" --local 3 --nx 64 --ny 9 --steps 7 --every 2 --ct 0 --checksum >"$tmp/small.out" 2>&1
ck=$(sed -n 's/^checksum //p' "$tmp/small.out")
[ "$ck" = "$("$BIN/heat" --nx 64 --ny 9 --steps 7 --checksum | sed -n 's/^checksum //p')" ]
check "3 workers, 3 rows each, re-cut every 2 steps: bin/heat's field ($(head -c 200 "$tmp/small.out"))" $?

# A worker killed mid-run.
"$hp" --local 3 --nx 512 --ny 600 --steps 100000 --every 50 >"$tmp/kill.out" 2>&1 &
pid=$!
victim=""
for _ in $(seq 50); do
    victim=$(pvm_tasks heat-pvm | head -n 1)
    [ -n "$victim" ] && break
    sleep 0.1
done
sleep 0.5
[ -n "$victim" ] && kill -9 "$victim"
wait_for "$pid" 30
[ "$rc" = 1 ] && grep -q "exited before its last rows were in" "$tmp/kill.out"
check "a worker killed: exit 1 naming it (exit $rc: $(head -c 200 "$tmp/kill.out"))" $?
sleep 0.5
left=$(pvm_tasks heat-pvm | tr '\n' ' ')
[ -z "$left" ]; check "the other workers are gone ($left)" $?
pvm_down
finish
