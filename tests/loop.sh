#!/bin/sh
# loop.sh: bin/loop, Xu Fig. 1's synthetic loops on PVM (examples/loop.c):
# clear errors; --sequential's units are the simulator's costs of the same
# workload line (the conditional loop's draws included: bin/sim on one host
# of speed 1 finishes at the loop's total); on a private one-host virtual
# machine every kind under several schemes covers each iteration once, with
# the bytes asked for. Starts its own pvmd (own PVM_TMP) and halts it.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
tmp=$(mktemp -d /tmp/dtss-looptest.XXXXXX)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pvmlib.sh"
cleanup() {
    pvm_down
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
export PVM_ALLOW_ROOT=yes PVM_TMP="$tmp/pvm"    # (no pvmd yet)

# ---- errors, no PVM needed ---------------------------------------------------------
run "--help" 0 "conditional n=N lo=A hi=B p=P" "$BIN/loop" --help
run "no workload: said how" 2 "no loop: -w WORKLOAD" "$BIN/loop"
run "an image is not a synthetic loop" 2 "workload 'mandel size=30': bin/loop runs uniform" \
    "$BIN/loop" -w "mandel size=30"
run "a bad cost: named" 2 "cost=-1 must be > 0" "$BIN/loop" -w "uniform n=10 cost=-1"
run "a bad key value: named" 2 "from=x is not a number" "$BIN/loop" -w "increasing n=10 from=x to=3"
run "--result-bytes below 8: named" 2 "result-bytes '4' must be an integer in 8..1048576" \
    "$BIN/loop" -w "uniform n=10 cost=1" -b 4
run "--seed out of range: named" 2 "seed '-3'" "$BIN/loop" -w "uniform n=10 cost=1" --seed -3
run "an unknown option: named" 2 "unknown option '--bogus'" "$BIN/loop" --bogus
run "an unknown scheme: the valid ones" 2 "unknown scheme 'nosuch'" \
    "$BIN/loop" -w "uniform n=10 cost=1" -s nosuch
run "a stray argument: named" 2 "unexpected argument 'extra'" "$BIN/loop" -w "uniform n=10 cost=1" extra
run "no pvmd: one clear line" 1 "no PVM daemon" "$BIN/loop" -w "uniform n=10 cost=1" --local 1 -q
# The units: at most 2^53 = 9007199254740992 in all (examples/loop.c); past
# 2^63, llround gave garbage: no work, exit 0, an absurd rate. The limit is
# taken (the run gets as far as PVM: exit 1, no pvmd); the next double past
# it (2^53 + 2), 10^19, NaN and inf are refused naming the value, the loop
# sequential or not, and none spins (timeout guards; its 124 fails).
units() {
    name=$1 want=$2 pat=$3
    shift 3
    run "$name" "$want" "$pat" timeout 20 "$BIN/loop" "$@"
    [ "$rc" != 124 ]; check "$name: ends (exit $rc)" $?
}
units "2^53 units taken (then: no pvmd)" 1 "no PVM daemon" \
    -w "uniform n=1 cost=9007199254740992" --local 1 -q
units "2^53 + 2 units refused, named" 2 \
    "9007199254740994 units in all, more than the 9007199254740992 (2^53) a loop may cost" \
    -w "uniform n=1 cost=9007199254740994" --local 1 -q
units "10^19 units, --sequential: refused, named (no work, exit 0 before)" 2 \
    "1e+19 units in all, more than the 9007199254740992" \
    -w "uniform n=10 cost=1e18" --sequential
units "increasing to 2^62: refused, named" 2 "units in all, more than the 9007199254740992" \
    -w "increasing n=1000 from=1 to=4611686018427387904" --sequential
units "cost=nan refused" 2 "cost=nan is not a number" -w "uniform n=10 cost=nan" --sequential
units "cost=inf refused" 2 "cost=inf is not a number" -w "uniform n=10 cost=inf" --sequential

# ---- the costs: the simulator's, iteration by iteration ---------------------------
# Known answers worked by hand: uniform 10 x 1000 = 10000 units; increasing
# from 100 to 300 over n = 3: 100, 200, 300 = 600 (sim/workload.c: the linear
# kinds run from 'from' at i = 0 to 'to' at i = n - 1).
run "uniform: 10 x 1000 units" 0 "10000 units" "$BIN/loop" -w "uniform n=10 cost=1000" --sequential
run "increasing 100..300, n = 3: 600 units" 0 "increasing n=3 from=100 to=300, 600 units" \
    "$BIN/loop" -w "increasing n=3 from=100 to=300" --sequential
run "--sequential prints its seconds" 0 "^sequential seconds [0-9.]* (" \
    "$BIN/loop" -w "uniform n=10 cost=1000" --sequential
# The conditional loop's total against bin/sim's for the same line and seed.
printf 'host h speed=1\nlink * * latency=0 bandwidth=1e300\n' >"$tmp/one.plat"
for seed in 1 7; do
    wl="conditional n=500 lo=1 hi=10 p=0.5"
    printf 'platform %s\nworkload %s\nscheme gss\nseed %s\n' "$tmp/one.plat" "$wl" "$seed" >"$tmp/one.scn"
    "$BIN/sim" "$tmp/one.scn" -r "$tmp/one.csv" -q >/dev/null 2>&1
    simt=$("$BIN/record" "$tmp/one.csv" run finish 2>/dev/null)
    units=$("$BIN/loop" -w "$wl" --seed "$seed" --sequential | sed -n 's/.*, \([0-9.e+]*\) units$/\1/p')
    [ -n "$simt" ] && [ -n "$units" ] && awk -v a="$simt" -v b="$units" 'BEGIN { exit !(a == b && a > 500 && a < 5000) }'
    check "conditional, seed $seed: bin/loop's $units units = bin/sim's finish $simt on one host of speed 1" $?
done
u1=$("$BIN/loop" -w "conditional n=500 lo=1 hi=10 p=0.5" --sequential | sed -n 's/.*, \([0-9.e+]*\) units$/\1/p')
u7=$("$BIN/loop" -w "conditional n=500 lo=1 hi=10 p=0.5" --seed 7 --sequential | sed -n 's/.*, \([0-9.e+]*\) units$/\1/p')
[ -n "$u1" ] && [ "$u1" != "$u7" ]; check "the seed changes the conditional loop's draws ($u1 vs $u7)" $?

# ---- on a private virtual machine -----------------------------------------------
pvm_up "$tmp" "$BIN"
check "private pvmd started (pid $pvmd_pid)" $?

# Results a message cannot carry (2147483647 bytes, runtime/core/wire.h): bin/loop
# tells the runtime its result bytes, so a chunk over the limit is refused as it
# is handed out, before it is computed -- gss's first chunk on one worker is the
# whole loop: 2048 x 1 MiB = 2^31 bytes, one past (2047 x 1 MiB would be taken:
# 2 GiB in flight, not run here); on main it was found after 2048 pieces of work.
run "gss, 2048 iterations of 1 MiB on one worker: refused before computed (2), named" 2 \
    "chunk 0 of 2048 iterations would return 2048 x 1048576 = 2147483648 bytes, more than the 2147483647 one message carries: refused before it was computed" \
    timeout 120 "$BIN/loop" -w "uniform n=2048 cost=1" -b 1048576 -s gss --local 1 -q
[ "$rc" != 124 ]; check "the refused chunk: no spin, no wait (exit $rc)" $?
# Under tree the same limit, on the ranges (one worker: its range is the loop).
run "tree, 2048 iterations of 1 MiB on one worker: the range refused before computed (2), named" 2 \
    "range 1 of 2048 iterations would return 2048 x 1048576 = 2147483648 bytes, more than the 2147483647 one message carries: refused before it was computed" \
    timeout 120 "$BIN/loop" -w "uniform n=2048 cost=1" -b 1048576 -s tree --local 1 -q
run "css, chunks of 8 x 1 MiB: taken, done" 0 "^css: W1 .* Finish" \
    timeout 120 "$BIN/loop" -w "uniform n=40 cost=1" -b 1048576 -s css --k 8 --local 2 -q
# A program that does not tell its result bytes (bin/integral: 8 an iteration):
# its worker stops at the first piece of a chunk whose results, at that piece's
# bytes per iteration, would be over the limit -- gss's first chunk on one worker,
# 3 x 10^8 iterations x 8 = 2.4e9 bytes (before: hours of work, then refused).
run "integral -n 3e8, gss, one worker: the worker stops at its first piece" 1 \
    "every worker was lost; 0 of 300000000 iterations done" \
    timeout 120 "$BIN/integral" -n 300000000 --scheme gss --local 1
[ "$rc" != 124 ]; check "the worker's stop: no hours of work (exit $rc)" $?
grep -q "^integral worker: a chunk of 300000000 iterations would return about 2400000000 bytes (its first piece 8 bytes for 1 iterations), more than the 2147483647 one message carries: stopped at its first piece" "$tmp/out"
check "the worker said why (its output relayed to the master's)" $?
cd "$tmp" || exit 1
# covers REC N: every iteration 0..N-1 in exactly one done chunk
covers() {
    "$BIN/record" "$1" chunk start,size,done | awk -F, -v n="$2" '
        $3 == 1 { for (i = $1; i < $1 + $2; i++) { if (seen[i]++) exit 1; k++ } }
        END { exit !(k == n) }'
}
for wl in "uniform n=200 cost=20000" "increasing n=300 from=1000 to=60000" \
          "decreasing n=300 from=60000 to=1000" "conditional n=250 lo=2000 hi=40000 p=0.3"; do
    kind=${wl%% *}
    for s in dtss tss af dtss-m auto tree; do
        rm -f r.csv
        timeout 120 "$BIN/loop" -w "$wl" -s "$s" -R 4 --local 3 -b 64 -r r.csv >out.txt 2>&1
        rc=$?
        n=$(echo "$wl" | sed 's/.*n=\([0-9]*\).*/\1/')
        [ "$rc" = 0 ] && grep -q "^$s: W1 .* Finish [0-9.]* Imbalance" out.txt && covers r.csv "$n"
        check "$kind under $s, 3 workers: done, summary line, each of the $n iterations once (exit $rc: $(head -c 200 out.txt))" $?
    done
done
grep -q "^run,tree,.*,result_bytes=64,started=[0-9]*\.[0-9]*$" r.csv; check "the record's run line names the result bytes (set before the start), then started=" $?
# dtss-m sizes by the rates the workers measure: they told the cost of what they did.
rm -f r.csv
timeout 120 "$BIN/loop" -w "increasing n=400 from=1000 to=60000" -s dtss-m --local 2 -r r.csv -q >out.txt 2>&1
[ $? = 0 ] && covers r.csv 400 && grep -q "^run,dtss-m,2,400,.*,result_bytes=8,started=[0-9]*\.[0-9]*$" r.csv
check "dtss-m, 2 workers: each iteration once, the record's run line" $?
# Request-ahead (--ahead, sched/loop/ahead.h): a worker asks before its chunk
# is done and sends the chunk's results on their own; every iteration once,
# the record's ahead=, under a scheme of each kind, both rules; Tree takes
# no ahead (its own protocol: nothing in its record).
for a in 0.5 rtt; do
    for s in tss af dtss; do
        rm -f r.csv
        timeout 120 "$BIN/loop" -w "increasing n=300 from=1000 to=60000" -s "$s" --ahead "$a" -R 4 \
            --local 3 -b 64 -r r.csv >out.txt 2>&1
        rc=$?
        [ "$rc" = 0 ] && covers r.csv 300 && grep -q "^run,$s,3,300,.*,ahead=$a," r.csv
        check "--ahead $a under $s, 3 workers: each iteration once, the record's ahead=$a (exit $rc: $(head -c 200 out.txt))" $?
    done
done
rm -f r.csv
timeout 120 "$BIN/loop" -w "uniform n=100 cost=20000" -s tree --ahead 0.5 --local 2 -r r.csv -q >out.txt 2>&1
[ $? = 0 ] && covers r.csv 100 && ! grep -q "ahead=" r.csv
check "--ahead under tree: taken, unused (each iteration once, no ahead= in the record)" $?
run "--ahead 1 refused by name" 2 "--ahead '1': rtt, or a fraction" \
    "$BIN/loop" -w "uniform n=10 cost=1" --ahead 1 --local 1 -q

# --scheme auto (sim/select.h): the scheme chosen by simulation after the
# probe; the record names the choice and when, every iteration once.
rm -f r.csv
timeout 120 "$BIN/loop" -w "increasing n=400 from=1000 to=60000" -s auto --local 2 -r r.csv \
    >out.txt 2>&1
[ $? = 0 ] && covers r.csv 400 && grep -q "^run,auto,2,400,.*,auto=css@0;[a-z-]*@[0-9.]*[;,]" r.csv
check "auto, 2 workers: each iteration once, the record's auto=css@0;SCHEME@T ($(grep -o 'auto=[^,]*' r.csv))" $?
run "auto: a bad candidate named" 2 "candidate 'nosuch'" \
    "$BIN/loop" -w "uniform n=10 cost=1" -s auto --candidates css,nosuch --local 1 -q
run "auto: tree is no candidate" 2 "candidate 'tree' cannot be one" \
    "$BIN/loop" -w "uniform n=10 cost=1" -s auto --candidates tree --local 1 -q
run "--candidates without auto: said" 2 "--candidates is for --scheme auto only" \
    "$BIN/loop" -w "uniform n=10 cost=1" -s gss --candidates css --local 1 -q
finish
