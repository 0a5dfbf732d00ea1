#!/bin/sh
# pool.sh: bin/pooltrace as a user runs it: a hand-made trace whose every
# decision is worked out in tests/test_pool.c (test_replay_adjust,
# test_replay_static), printed exactly; the trace format's errors, each
# naming the file, the line and the field; options refused naming the value.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
P=$BIN/pooltrace

cat >tiny.trace <<'EOF'
# thin trace: image tiny, 16 x 8, parts 4, unit seconds
# part 4 is done after iteration 1, part 3 after iteration 2
1 4 2 1 1
2 4 2 1 -

3 3 2 - -
EOF
# adjust, delay 1: workers at 1, 2, 3, 4; iteration 1 ends at 5 with the
# 4th come during it (unstable: Nworkers kept, capped to 3 tasks);
# iteration 2: 7 / 12 < 0.8, release; iteration 3 keeps, then 0.
cat >adjust.want <<'EOF'
# tiny.trace: image tiny, 16 x 8, 4 parts, 3 iterations, unit seconds, scale 1 s per second
# strategy adjust (asp floor1), allocation delay 1 s, border update 0 s
  iter tasks held  req stable       time    eff       max       min     asp rule         next
     1     4    4    4     no       5.00  0.800      4.00      1.00    2.00 unstable/cap    3
     2     3    3    3    yes       4.00  0.583      4.00      1.00    1.75 release         2
     3     2    2    2    yes       3.00  0.833      3.00      2.00    1.67 keep/cap        0
total: time 12.00 s, workers 2.33 on average, efficiency 0.714, time/efficiency 16.80
workers: at most 4 held (first in iteration 1), 4 requested, 0 cancelled before they came, 4 released
EOF
"$P" tiny.trace --delay 1 >adjust.out 2>&1
diff adjust.want adjust.out >adjust.diff; check "adjust on the hand trace: the exact output ($(head -c 300 adjust.diff))" $?
# static: a worker released with each converged task when nothing is left
# for it (at 5, 6, 11, 12): 24 worker-seconds in 12 s.
cat >static.want <<'EOF'
#run,strategy,asp,delay,border,scale,parts,iterations
run,static,,1,0,1,4,3
#iteration,number,tasks,held,requested,pending,most,stable,begin,time,efficiency,sum,max,min,asp,rule,capped,next
iteration,1,4,3,3,0,4,0,0,5,0.8,8,4,1,2,tasks,0,3
iteration,2,3,2,2,0,3,0,5,4,0.777777778,7,4,1,1.75,tasks,0,2
iteration,3,2,0,0,0,2,0,9,3,1,5,3,2,1.66666667,tasks,0,0
#total,time,workers,efficiency,time_per_efficiency,held,useful,peak,peak_iteration,requested,cancelled,released
total,12,2,0.833333333,14.4,24,20,4,1,4,0,4
EOF
"$P" tiny.trace -d 1 -s static --csv >static.out 2>&1
diff static.want static.out >static.diff; check "static on the hand trace, CSV: the exact output ($(head -c 300 static.diff))" $?
# --together (a batch scheduler): the 4 workers all come at 1, so iteration 1
# holds 4 x 4 worker-seconds for its 8 (efficiency 0.5, not 8 / 10); from
# then on as above: 34 worker-seconds in 12 s. Static: the worker of part 4
# released at 2 (1 s held), the other three held 1..5: 8 / 13.
cat >together.want <<'EOF'
# tiny.trace: image tiny, 16 x 8, 4 parts, 3 iterations, unit seconds, scale 1 s per second
# strategy adjust (asp floor1), allocation delay 1 s (requests served together), border update 0 s
  iter tasks held  req stable       time    eff       max       min     asp rule         next
     1     4    4    4     no       5.00  0.500      4.00      1.00    2.00 unstable/cap    3
     2     3    3    3    yes       4.00  0.583      4.00      1.00    1.75 release         2
     3     2    2    2    yes       3.00  0.833      3.00      2.00    1.67 keep/cap        0
total: time 12.00 s, workers 2.83 on average, efficiency 0.588, time/efficiency 20.40
workers: at most 4 held (first in iteration 1), 4 requested, 0 cancelled before they came, 4 released
EOF
"$P" tiny.trace --delay 1 --together >together.out 2>&1
diff together.want together.out >together.diff; check "--together on the hand trace: the exact output ($(head -c 300 together.diff))" $?
"$P" tiny.trace -d 1 --together -s static --csv | awk -F, '$1 == "iteration" && $2 == 1 { e = $11 }
    $1 == "total" { h = $6 } END { exit !(e == 0.615384615 && h == 27) }'
check "--together, static: iteration 1's efficiency 8 / 13, 27 worker-seconds in all" $?
"$P" tiny.trace -d 1 --border 2 --csv | awk -F, '$1 == "iteration" { b[$2] = $9 }
    END { exit !(b[1] == 0 && b[2] == 7 && b[3] == 13) }'
check "--border 2: iteration 2 begins at 5 + 2, iteration 3 at 11 + 2" $?
"$P" - -d 1 <tiny.trace >stdin.out 2>&1 && grep -q '^total: time 12.00 s' stdin.out
check "the trace from standard input ('-')" $?

# The default delay: on the calibration trace (the Figures image's thinning
# in 32 parts) the non-self-adjusting run reaches 23 of 32 workers, first in
# iteration 15 (Heymann Fig. 4.2); 3 s less or more, in iteration 11 or 19.
"$P" "$REPO/sim/examples/figures32.trace" -s static --csv |
    awk -F, '$1 == "total" { exit !($8 == 23 && $9 == 15) }'
check "default delay: static peaks at 23 workers in iteration 15 on figures32.trace" $?
"$P" "$REPO/sim/examples/figures32.trace" -s static -d 10 --csv |
    awk -F, '$1 == "total" { exit !($8 == 23 && $9 == 11) }'
check "delay 10 s: 23 workers already in iteration 11" $?
"$P" "$REPO/sim/examples/figures32.trace" -s static -d 16 --csv |
    awk -F, '$1 == "total" { exit !($8 == 23 && $9 == 19) }'
check "delay 16 s: 23 workers only in iteration 19" $?
# docs/pool.md's simulated Table 4.1, its Figures row at 32 parts.
run "figures32, static: docs/pool.md's totals" 0 \
    "^total: time 910.42 s, workers 15.25 on average, efficiency 0.387, time/efficiency 2352.70$" \
    "$P" "$REPO/sim/examples/figures32.trace" -s static
run "figures32, adjust: docs/pool.md's totals" 0 \
    "^total: time 921.29 s, workers 6.83 on average, efficiency 0.854, time/efficiency 1078.61$" \
    "$P" "$REPO/sim/examples/figures32.trace"
run "--asp ceil on the calibration trace runs" 0 "strategy adjust (asp ceil)" \
    "$P" "$REPO/sim/examples/figures32.trace" --asp ceil

# A trace in pixels: the default scale makes the largest 8-part task 50 s.
printf '# thin trace: image px, 8 x 8, parts 8, unit pixels\n1 10 20 100 5 - 0 0 0\n2 10 20 100 5 - 0 0 0\n' >px.trace
"$P" px.trace -d 0 --csv | awk -F, '$1 == "run" { s = $6 } $1 == "iteration" && $2 == 1 { m = $13 }
    END { exit !(s == 0.5 && m == 50) }'
check "pixels: default scale 50 s / 100 px, the largest task 50 s" $?
run "pixels: --scale overrides" 0 "scale 0.01 s per pixel" "$P" px.trace --scale 0.01
printf '# thin trace: image px, 8 x 8, parts 2, unit pixels\n1 0 0\n' >zero.trace
run "pixels, a first iteration of no cost: --scale asked for" 2 \
    "zero.trace: the first iteration's tasks cost nothing.*--scale" "$P" zero.trace

run "--help" 0 "usage: pooltrace TRACE" "$P" --help
run "--help names the delay default" 0 "S seconds each (default 13)" "$P" --help
run "no trace" 2 "a trace file is needed" "$P"
run "two traces" 2 "unexpected argument 'b'" "$P" a b
run "bad strategy named" 2 "unknown pool strategy 'greedy' (valid: adjust, static)" \
    "$P" tiny.trace -s greedy
run "bad asp reading named" 2 "asp 'round'" "$P" tiny.trace --asp round
run "--asp with static refused" 2 "--asp applies to --strategy adjust only" \
    "$P" tiny.trace -s static --asp ceil
run "negative delay named" 2 "--delay '-1' must be a number of seconds" "$P" tiny.trace -d -1
run "delay not a number" 2 "--delay 'soon'" "$P" tiny.trace --delay soon
run "border beyond 1e9 s" 2 "--border '2e9'" "$P" tiny.trace --border 2e9
run "scale 0 refused" 2 "--scale '0' must be a number > 0" "$P" tiny.trace --scale 0
run "unknown option" 2 "unknown option '--bogus'" "$P" tiny.trace --bogus
run "option without its value" 2 "option '--delay' needs a value" "$P" tiny.trace --delay
run "missing file" 2 "nothere.trace: No such file" "$P" nothere.trace
run "a cost scaled past 1e9 s" 2 "iteration 1, part 1: cost 4 x scale 1e+09" \
    "$P" tiny.trace --scale 1e9
printf '# thin trace: image t, 1 x 1, parts 1, unit seconds\n1 4e8\n2 4e8\n3 4e8\n' >long.trace
run "a run past 1e9 s: exit 1, saying why" 1 "the run cannot end" "$P" long.trace

# Bad traces: each error names the file, the line and the field.
H='# thin trace: image t, 16 x 8, parts 3, unit seconds'
badtrace() {     # NAME CONTENT PATTERN
    printf '%b' "$2" >"$1"
    run "bad trace $1" 2 "$3" "$P" "$1"
}
badtrace empty.trace '' "empty.trace: empty"
badtrace nohead.trace '1 1 2 3\n' "nohead.trace:1: not a thin trace"
badtrace head1.trace '# thin trace: image t, 16 x 8, parts 3\n1 1 2 3\n' "head1.trace:1: the header must read"
badtrace head2.trace '# thin trace: image t, 16 by 8, parts 3, unit seconds\n' "head2.trace:1: image size '16'"
badtrace head3.trace '# thin trace: image t, 16 x 8, parts 5000, unit seconds\n' \
    "head3.trace:1: parts '5000' must be an integer in 1..4096"
badtrace head4.trace '# thin trace: image t, 16 x 8, parts 0, unit seconds\n' "head4.trace:1: parts '0'"
badtrace head5.trace '# thin trace: image t, 16 x 8, parts 3, unit bytes\n' \
    "head5.trace:1: unit 'bytes' must be pixels or seconds"
badtrace head6.trace '# thin trace: image , 16 x 8, parts 3, unit seconds\n' "head6.trace:1: the header must read"
badtrace none.trace "$H\n# only comments\n" "none.trace: no iteration lines"
badtrace short.trace "$H\n1 1 2 3\n2 1 2\n" "short.trace:3: 3 fields, expected 4"
badtrace long.trace "$H\n1 1 2 3 4\n" "long.trace:2: 5 fields, expected 4"
badtrace longer.trace "$H\n1 1 2 3 4 5 6 7\n" "longer.trace:2: more than 5 fields, expected 4"
badtrace word.trace "$H\n1 1 abc 3\n" "word.trace:2: field 3 'abc' (part 2): a cost must be a number >= 0 or '-'"
badtrace neg.trace "$H\n1 1 2 -3\n" "neg.trace:2: field 4 '-3' (part 3)"
badtrace nan.trace "$H\n1 nan 2 3\n" "nan.trace:2: field 2 'nan' (part 1)"
badtrace inf.trace "$H\n1 1 inf 3\n" "inf.trace:2: field 3 'inf' (part 2)"
badtrace iter.trace "$H\n1.5 1 2 3\n" "iter.trace:2: field 1: iteration '1.5' must be an integer >= 0"
badtrace gap.trace "$H\n1 1 2 3\n\n3 1 2 3\n" "gap.trace:4: field 1: iteration 3 after 1 (expected 2)"
badtrace dup.trace "$H\n7 1 2 3\n7 1 2 3\n" "dup.trace:3: field 1: iteration 7 after 7 (expected 8)"
badtrace dash.trace "$H\n1 1 2 3\n2 - - -\n" "dash.trace:3: iteration 2 has no task"
printf '# thin trace: image t, 1 x 1, parts 4097, unit seconds\n' >wide.trace
run "4097 parts refused" 2 "wide.trace:1: parts '4097' must be an integer in 1..4096" "$P" wide.trace
# 10^6 iterations are accepted, the next refused (one part each: 8 MB).
awk 'BEGIN { print "# thin trace: image t, 1 x 1, parts 1, unit seconds"
             for (k = 1; k <= 1000001; k++) print k, 0 }' >many.trace
run "more than 10^6 iterations refused with the line" 2 \
    "many.trace:1000002: more than 1000000 iterations" "$P" many.trace
# A NUL byte, and a 10,000-byte comment line read whole.
printf '%s\n1 1 2\0 3\n' "$H" >nul.trace
run "a NUL byte named with its line" 2 "nul.trace:2: a NUL byte" "$P" nul.trace
pad=$(awk 'BEGIN { while (n++ < 10000) printf "x" }')
printf '%s\n# %s 9 9 9\n1 1 2 3\n' "$H" "$pad" >pad.trace
run "a long comment line is read whole" 0 "^total: time 3.00 s" "$P" pad.trace -d 0
printf '%s\r\n1 1 2 3\r\n' "$H" >crlf.trace
run "CRLF line ends" 0 "^total: time 3.00 s" "$P" crlf.trace -d 0
finish
