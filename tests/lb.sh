#!/bin/sh
# lb.sh: bin/yoon-plan as a user runs it: the examples worked by hand in
# tests/test_lb.c (test_hand, and one per rival strategy), printed exactly;
# a node with d_i = 0; bad values refused with one line naming the value,
# exit status 2.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
Y=$BIN/yoon-plan

# T_task 2, 4, 6; target 7, 3, 2; node 1 sends 2 tasks to node 3, then 1 to
# node 2: max E 20 -> 17 (the arithmetic: tests/test_lb.c, test_hand).
cat >hand.want <<'EOF2'
# yoon: 3 nodes, N_total 12, elapsed 12 s, C_t 1 s
node remaining   done     T_task      share target   E_before    E_after  after
   1        10      6          2    6.54545      7         20         17      7
   2         2      3          4    3.27273      3          8         13      3
   3         0      2          6    2.18182      2          0         14      2
moves (from,to,count):
1,3,2
1,2,1
max E: before 20, after 17
EOF2
"$Y" --remaining 10,2,0 --done 6,3,2 --elapsed 12 --ct 1 >hand.out 2>&1
check "the hand example: exit 0" $?
diff hand.want hand.out >hand.diff; check "the hand example: the exact output ($(head -c 300 hand.diff))" $?
run "C_t 3 >= T_task 2 of the latest node: nothing moves" 0 "^moves: none$" \
    "$Y" -r 10,2,0 -d 6,3,2 -t 12 -c 3
run "strategy none: nothing moves, max E kept" 0 "^max E: before 20, after 20$" \
    "$Y" -r 10,2,0 -d 6,3,2 -t 12 -c 0 --strategy none
run "d_i = 0: '-' for T_task, share, E; the node keeps its queue" 0 \
    "^   2         5      0          -          -      5          -          -      5$" \
    "$Y" -r 9,5,0 -d 3,0,3 -t 3 -c 0
run "--help" 0 "^usage: yoon-plan" "$Y" --help
for s in yoon none clb dlb mclb; do
    run "--help lists $s" 0 "^  $s  " "$Y" --help
done

# The rivals of Yoon et al. Sec. 4.1 (sched/lb/clb.c, dlb.c, mclb.c), each
# on the example worked by hand in tests/test_lb.c.
# want NAME ARGS...: the exact output in $tmp/want, exit 0.
want() {
    name=$1
    shift
    "$Y" "$@" >"$tmp/got" 2>&1
    check "$name: exit 0" $?
    diff "$tmp/want" "$tmp/got" >"$tmp/diff"
    check "$name: the exact output ($(head -c 300 "$tmp/diff"))" $?
}
# clb (test_hand_clb): the mean, 4 tasks each, speeds ignored: 6 tasks leave
# node 1, the slowest node ends last: max E 20 -> 28.
cat >"$tmp/want" <<'EOF2'
# clb: 3 nodes, N_total 12, elapsed 12 s, C_t 1 s
node remaining   done     T_task      share target   E_before    E_after  after
   1        10      6          2    6.54545      7         20         14      4
   2         2      3          4    3.27273      3          8         18      4
   3         0      2          6    2.18182      2          0         28      4
moves (from,to,count):
1,2,2
1,3,4
max E: before 20, after 28
EOF2
want "clb, the hand example" -r 10,2,0 -d 6,3,2 -t 12 -c 1 --strategy clb
run "clb, d_i = 0: the unmeasured node 2 receives 4 tasks" 0 \
    "^   2         0      0          -          -      0          -          -      4$" \
    "$Y" -r 9,0,3 -d 3,0,3 -t 3 -c 0.5 -s clb
# dlb (test_hand_dlb): sender-initiated diffusion on the 4-node hypercube;
# nodes 1 and 4 are not neighbours.
cat >"$tmp/want" <<'EOF2'
# dlb: 4 nodes, N_total 17, elapsed 1 s, C_t 0.5 s
node remaining   done     T_task      share target   E_before    E_after  after
   1        11      1          1       4.25      5         11        7.5      4
   2         0      1          1       4.25      4          0          9      6
   3         0      1          1       4.25      4          0        7.5      5
   4         6      1          1       4.25      4          6          4      2
moves (from,to,count):
1,2,4
1,3,3
4,3,2
4,2,2
max E: before 11, after 9
EOF2
want "dlb, the hand example" -r 11,0,0,6 -d 1,1,1,1 -t 1 -c 0.5 --strategy dlb
# mclb (test_hand_mclb): to the target when it pays (C_t 0.25), nothing when
# node 3 would end at 7 > 6 (C_t 0.75).
cat >"$tmp/want" <<'EOF2'
# mclb: 3 nodes, N_total 12, elapsed 1 s, C_t 0.25 s
node remaining   done     T_task      share target   E_before    E_after  after
   1         6      1          1          4      4          6        4.5      4
   2         6      1          1          4      4          6        4.5      4
   3         0      1          1          4      4          0          5      4
moves (from,to,count):
1,3,2
2,3,2
max E: before 6, after 5
EOF2
want "mclb, C_t 0.25: the target" -r 6,6,0 -d 1,1,1 -t 1 -c 0.25 --strategy mclb
run "mclb, C_t 0.75: it would not pay, nothing moves" 0 "^moves: none$" \
    "$Y" -r 6,6,0 -d 1,1,1 -t 1 -c 0.75 -s mclb
run "mclb, C_t 0.75: max E kept" 0 "^max E: before 6, after 6$" \
    "$Y" -r 6,6,0 -d 1,1,1 -t 1 -c 0.75 -s mclb
run "yoon there moves 3 tasks: max E 5.75" 0 "^max E: before 6, after 5.75$" \
    "$Y" -r 6,6,0 -d 1,1,1 -t 1 -c 0.75 -s yoon

# err NAME PATTERN ARGS...: exit 2, one line, matching PATTERN.
err() {
    name=$1 pat=$2
    shift 2
    run "$name" 2 "$pat" "$Y" "$@"
    [ "$(wc -l <"$tmp/out")" -eq 1 ]; check "$name: one line" $?
}
err "negative count" "^yoon-plan: --remaining: node 2's -2 must be a whole number in 0..1000000$" \
    -r 1,-2 -d 1,1 -t 1 -c 0
err "fractional done" "^yoon-plan: --done: node 1's 1.5 must be a whole number" \
    -r 1,2 -d 1.5,1 -t 1 -c 0
err "not a list" "^yoon-plan: --remaining '1,,2' is not a list" -r 1,,2 -d 1,1 -t 1 -c 0
err "lists of different lengths" "^yoon-plan: --done '1' has 1 values, --remaining 2$" \
    -r 1,2 -d 1 -t 1 -c 0
err "elapsed 0" "^yoon-plan: --elapsed '0' must be a time > 0" -r 1,2 -d 1,1 -t 0 -c 0
err "negative C_t" "^yoon-plan: --ct '-1' must be a time in \[0, 1e+15\]" -r 1,2 -d 1,1 -t 1 -c -1
err "C_t not a number" "^yoon-plan: --ct 'fast' must be a time" -r 1,2 -d 1,1 -t 1 -c fast
err "unknown strategy" \
    "^yoon-plan: unknown load-balancing strategy 'foo' (valid: yoon, none, clb, dlb, mclb)$" \
    -r 1,2 -d 1,1 -t 1 -c 0 -s foo
err "too many tasks" "^yoon-plan: N_total=1000001 remaining tasks is more than 1000000$" \
    -r 1000000,1 -d 1,1 -t 1 -c 0
err "a required option missing" "^yoon-plan: --remaining, --done, --elapsed and --ct are required" \
    -r 1,2 -d 1,1 -t 1
err "unknown option" "unknown option '--bogus'" -r 1 -d 1 -t 1 -c 0 --bogus

# T_task = T / d_i and C_t within [1e-15, 1e15] s (sched/lb/lb.h): the limits
# taken, past them refused naming the value, never a spin (an extreme period
# made an infinite share, a target of -2^63 and a loop of 9.2e18 steps:
# 100% CPU forever). timeout guards each; its 124 is a failure.
limit() {
    name=$1 want=$2 pat=$3
    shift 3
    run "$name" "$want" "$pat" timeout 20 "$Y" "$@"
    [ "$rc" != 124 ]; check "$name: ends (no spin; exit $rc)" $?
}
limit "elapsed 1e-306 on one node: refused, named, no spin" 2 \
    "^yoon-plan: T_task\[0\] = elapsed / done\[0\] = 1e-306 / 1 = 1e-306 s must be in \[1e-15, 1e+15\]" \
    -r 1000 -d 1 -t 1e-306 -c 0
limit "elapsed 1e308: refused, named" 2 "= 1e+308 s must be in" -r 1000,5 -d 1,1 -t 1e308 -c 0
limit "T_task 1e15 (the largest) taken" 0 "^max E: before 1e+18, after 1e+18$" \
    -r 1000 -d 1 -t 1e15 -c 0
limit "T_task 1e15 + 0.125 (the next double) refused, named exactly" 2 \
    "= 1000000000000000.1 s must be in" -r 1000 -d 1 -t 1000000000000000.125 -c 0
limit "T_task 1e-15 (the smallest) taken" 0 "^max E: before 1e-12, after 1e-12$" \
    -r 1000 -d 1 -t 1e-15 -c 0
limit "T_task 1e-15 / 2 refused" 2 "= 5e-16 s must be in" -r 1000 -d 2 -t 1e-15 -c 0
limit "C_t 1e15 taken" 0 "^moves: none$" -r 1000,0 -d 1,1 -t 1 -c 1e15
limit "C_t 1e16 refused, named" 2 "^yoon-plan: --ct '1e16' must be a time in \[0, 1e+15\]" \
    -r 1000 -d 1 -t 1 -c 1e16
limit "elapsed inf: refused" 2 "^yoon-plan: --elapsed 'inf' must be a time > 0" \
    -r 1000 -d 1 -t inf -c 0
limit "C_t nan: refused" 2 "^yoon-plan: --ct 'nan' must be a time" -r 1000 -d 1 -t 1 -c nan
finish
