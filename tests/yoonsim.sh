#!/bin/sh
# yoonsim.sh: bin/yoon-sim and scripts/yoon-figs as a user runs them: the
# help and the strategies' list, one run described, a small sweep printed
# exactly (golden, below), the same bytes twice, every bad value refused
# with one line naming it and exit status 2; scripts/yoon-figs --quick
# into a fresh folder makes its figures, CSVs and claims.md.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
Y=$BIN/yoon-sim

run "--help" 0 "^usage: yoon-sim" "$Y" --help
run "--help names the CSV columns" 0 "dgain_ci95" "$Y" --help
run "--list: yoon" 0 "^yoon " "$Y" --list
run "--list: none" 0 "^none " "$Y" --list
run "one run: ET, G" 0 "^ET [0-9.]* s with yoon, [0-9.]* s with none: G = " "$Y" -P 8 -n 30
run "one run: a line per node" 0 "^   8 " "$Y" -P 8 -n 30
run "one run, strategy none: G = 0, nothing moved" 0 "G = 0.0000" "$Y" -P 8 -n 30 -s none
run "one run, given r_i" 0 "r_i given" "$Y" --rbar 0.5,1,2 -n 10

# The golden sweep: 4 and 8 nodes, 20 and 40 tasks, C_msg 1% and 5%, yoon
# and none, seeds 1..3 (regenerate with the command below after a change
# of the model, and say why in the commit).
cat >sweep.want <<'EOF'
nodes,tasks,cmsg,ctask,period_frac,strategy,seeds,gain_mean,gain_sd,gain_ci95,et_nolb,et_lb,moved,migrations,balancings,messages,dgain_mean,dgain_ci95
4,20,0.01,0.1,0.1,yoon,3,1.60714,1.22162,3.03468,40.0781,19.0534,52,12.6667,5.33333,32,0,0
4,20,0.01,0.1,0.1,none,3,0,0,0,40.0781,40.0781,0,0,18.3333,0,-1.60714,3.03468
4,20,0.05,0.5,0.1,yoon,3,0.436035,0.456483,1.13397,40.0781,30.3267,38,9.33333,5,30,0,0
4,20,0.05,0.5,0.1,none,3,0,0,0,40.0781,40.0781,0,0,18.3333,0,-0.436035,1.13397
4,40,0.01,0.1,0.1,yoon,3,1.91765,2.12189,5.27106,71.0225,36.0439,132.667,14.3333,5,30,0,0
4,40,0.01,0.1,0.1,none,3,0,0,0,71.0225,71.0225,0,0,17,0,-1.91765,5.27106
4,40,0.05,0.5,0.1,yoon,3,0.42963,0.762517,1.8942,71.0225,61.0525,90.3333,10,3.66667,22,0,0
4,40,0.05,0.5,0.1,none,3,0,0,0,71.0225,71.0225,0,0,17,0,-0.42963,1.8942
8,20,0.01,0.1,0.1,yoon,3,1.88912,0.435564,1.082,40.7625,14.151,72.3333,18,3,42,0,0
8,20,0.01,0.1,0.1,none,3,0,0,0,40.7625,40.7625,0,0,18.6667,0,-1.88912,1.082
8,20,0.05,0.5,0.1,yoon,3,0.632106,0.116678,0.289845,40.7625,24.9165,43,11,2.33333,32.6667,0,0
8,20,0.05,0.5,0.1,none,3,0,0,0,40.7625,40.7625,0,0,18.6667,0,-0.632106,0.289845
8,40,0.01,0.1,0.1,yoon,3,2.07187,0.867068,2.15392,75.4007,25.1233,149.333,20,2.66667,37.3333,0,0
8,40,0.01,0.1,0.1,none,3,0,0,0,75.4007,75.4007,0,0,18,0,-2.07187,2.15392
8,40,0.05,0.5,0.1,yoon,3,0.614856,0.442591,1.09946,75.4007,47.6329,103.333,13.6667,2,28,0,0
8,40,0.05,0.5,0.1,none,3,0,0,0,75.4007,75.4007,0,0,18,0,-0.614856,1.09946
EOF
"$Y" -P 4,8 -n 20,40 -c 0.01,0.05 -s yoon,none -k 3 >sweep.out 2>&1
check "the golden sweep: exit 0" $?
diff sweep.want sweep.out >sweep.diff; check "the golden sweep: the exact output ($(head -c 300 sweep.diff))" $?
"$Y" -P 4,8 -n 20,40 -c 0.01,0.05 -s yoon,none -k 3 >sweep2.out 2>&1
cmp -s sweep.out sweep2.out; check "the same sweep twice: the same bytes" $?
awk -F, 'NF != 18 { exit 1 }' sweep.out; check "every sweep line has 18 fields" $?
awk -F, '$6 == "none" && ($8 != 0 || $13 != 0) { exit 1 }' sweep.out
check "none: G = 0 and no task moved at every point" $?
"$Y" -P 8 -n 30 --csv >one.csv 2>&1
[ "$(wc -l <one.csv)" -eq 2 ] && grep -q '^8,30,0.03,0.3,0.1,yoon,1,.*,nan,nan,' one.csv
check "--csv for one point: the header and one line, sd and ci nan" $?
"$Y" -P 8 -n 20,40 -k 2 --progress >/dev/null 2>progress.err
grep -q "^yoon-sim: nodes 8, tasks 40: 1 points x 2 seeds done (2 of 2)$" progress.err
check "--progress: a line per (nodes, tasks)" $?

# err NAME PATTERN ARGS...: exit 2, one line, matching PATTERN.
err() {
    name=$1 pat=$2
    shift 2
    run "$name" 2 "$pat" "$Y" "$@"
    [ "$(wc -l <"$tmp/out")" -eq 1 ]; check "$name: one line" $?
}
err "nodes 0" "^yoon-sim: --nodes: 0 must be a whole number in 1..1024$" -P 0
err "nodes fractional" "^yoon-sim: --nodes: 2.5 must be a whole number" -P 4,2.5
err "tasks not a list" "^yoon-sim: --tasks '10,,20' is not a list of at most 64 numbers$" -n 10,,20
err "too many tasks" "^yoon-sim: --tasks 600000 x 2 nodes is more than 1000000 tasks in all$" \
    -P 2 -n 600000
err "C_msg < 0" "^yoon-sim: --cmsg: -0.01 must be a fraction of E(r) in 0..1000$" -c 0.01,-0.01
err "C_msg not a number" "^yoon-sim: --cmsg 'cheap' is not a list" -c cheap
err "C_task ratio" "^yoon-sim: --ctask-ratio 'ten' must be a number in 0..1e6$" --ctask-ratio ten
err "unknown strategy" "^yoon-sim: --strategy: unknown load-balancing strategy 'best' (valid: yoon, none" \
    -s yoon,best
err "empty strategy" "^yoon-sim: --strategy 'yoon,' is not a list of names" -s yoon,
err "period 0" "^yoon-sim: --period-frac: 0 must be a fraction of n E(r) in 1e-6..1e6$" -f 0
err "seeds 0" "^yoon-sim: --seeds '0' must be a whole number in 1..100000$" -k 0
err "seed negative" "^yoon-sim: --seed '-1' must be a whole number in 0..4294967295$" --seed -1
err "seed range past 2^32" "^yoon-sim: --seed 4294967295 + --seeds 2 passes 4294967295$" \
    --seed 4294967295 -k 2
err "r_i 0" "^yoon-sim: --rbar: node 2's 0 must be a time in seconds, > 0" --rbar 1,0
err "r_i and nodes disagree" "^yoon-sim: --rbar gives 2 nodes, --nodes '3'$" --rbar 1,2 -P 3
err "a period too short for the run" "^yoon-sim: more than 100000 balancings: period=" \
    -P 2 -n 1000 -f 1e-6 -c 0
err "unknown option" "^yoon-sim: unknown option '--bogus' (try --help)$" --bogus
err "option without its value" "^yoon-sim: option '--nodes' needs a value" --nodes
err "stray argument" "^yoon-sim: unexpected argument 'extra' (try --help)$" extra

# scripts/yoon-figs --quick: every file, real PNGs, the claims.
F=$REPO/scripts/yoon-figs
run "yoon-figs --help" 0 "^usage: scripts/yoon-figs OUTDIR" "$F" --help
run "yoon-figs without OUTDIR" 2 "^usage:" "$F"
run "yoon-figs --seeds bad" 2 "^yoon-figs: --seeds 'x' must be a whole number" "$F" out --seeds x
if command -v gnuplot >/dev/null 2>&1; then
    # A folder name that would run commands if pasted into gnuplot's or a
    # shell's text: it must stay a name.
    D="figs o'\"\$(touch pwned)\`touch pwned2\`"
    BIN=$BIN "$F" "$tmp/$D" --quick >figs.log 2>&1
    check "yoon-figs --quick: exit 0 ($(tail -c 300 figs.log))" $?
    for f in fig4.png fig5.png fig6.png fig7.png fig4.csv fig5.csv fig6.csv fig7.csv \
             period.csv claims.md; do
        [ -s "$D/$f" ]; check "yoon-figs --quick made $f" $?
    done
    for f in "$D"/fig*.png; do
        [ "$(head -c 4 "$f" | od -An -c | tr -d ' ')" = '211PNG' ]
        check "$(basename "$f") is a PNG" $?
    done
    [ ! -e pwned ] && [ ! -e pwned2 ] && [ ! -e "$REPO/pwned" ] && [ ! -e "$REPO/pwned2" ]
    check "yoon-figs: a hostile folder name ran nothing" $?
    for c in "## C1" "## C2" "## C3" "## C4" "10 seeds per point"; do
        grep -q "$c" "$D/claims.md"; check "claims.md has '$c'" $?
    done
    grep -q "^yoon-figs: done in" figs.log; check "yoon-figs prints its progress" $?
else
    skip "gnuplot not found: scripts/yoon-figs not run"
fi
finish
