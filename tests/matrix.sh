#!/bin/sh
# matrix.sh: bin/matrix (Díaz et al.'s matrix products on libdtss) on a
# private one-host virtual machine: every scheme with 1-4 workers gives the
# checksum of --sequential, as does a run that loses a worker; the simulator
# prices the same sizes; bad options are refused by name with exit 2.
# Starts its own pvmd (own PVM_TMP) and halts it; ends only the processes it
# started.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
tmp=$(mktemp -d /tmp/dtss-matrixtest.XXXXXX)
. "$(dirname "$0")/lib.sh"

. "$(dirname "$0")/pvmlib.sh"
cleanup() {
    pvm_down
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
export PVM_ALLOW_ROOT=yes PVM_TMP="$tmp/pvm"    # (no pvmd yet)
cd "$tmp" || exit 1

# checksum_of FILE: the hex of the "checksum HEX" line.
checksum_of() { sed -n 's/^checksum \([0-9a-f]\{16\}\)$/\1/p' "$1"; }

# Workers running under our pvmd (its children named matrix).
workers() { pvm_tasks matrix; }

# ---- usage errors: exit 2, the bad value named -----------------------------------------
run "--help" 0 "min-size" "$BIN/matrix" --help
run "--count not a number" 2 "count 'abc'" "$BIN/matrix" --count abc
run "-n 0" 2 "count '0'" "$BIN/matrix" -n 0
run "--scale negative" 2 "scale '-1'" "$BIN/matrix" --scale -1
run "--scale too large" 2 "scale '11'" "$BIN/matrix" --scale 11
# --scale at its limits (matrix/main.c, scaled(): the paper's 300..1000 times F,
# rounded): F = 10.0004 gives a largest size of round(10000.4) = 10000
# (MATRIX_MAX_SIZE), 0.5 / 300 a smallest of round(0.5) = 1; both taken (the run
# then gets as far as PVM: none here, exit 1); 10.0006 (10001) and 0.00166 (0),
# and NaN, refused by name.
run "--scale 10.0004 (sizes 3000..10000) taken" 1 "no PVM daemon" \
    "$BIN/matrix" --scale 10.0004 --local 1 -q
run "--scale 0.5/300 (sizes 1..2) taken" 1 "no PVM daemon" \
    "$BIN/matrix" --scale 0.0016666666666666668 --local 1 -q
run "--scale 10.0006 (a largest size of 10001) refused" 2 "scale '10.0006' must be a number in" \
    "$BIN/matrix" --scale 10.0006
run "--scale 0.00166 (a smallest size of 0) refused" 2 "scale '0.00166' must be a number in" \
    "$BIN/matrix" --scale 0.00166
run "--scale nan refused" 2 "scale 'nan' must be a number in" "$BIN/matrix" --scale nan
run "--min-size 0" 2 "min-size '0'" "$BIN/matrix" --min-size 0
run "--max-size beyond the limit" 2 "max-size '20000'" "$BIN/matrix" --max-size 20000
run "min-size above max-size" 2 "sizes 50..10" "$BIN/matrix" --min-size 50 --max-size 10
run "--min is ambiguous" 2 "min-size N for the smallest" "$BIN/matrix" --min 300
run "--max names --max-size" 2 "max-size N" "$BIN/matrix" --max=300
run "--iterations: the count is -n" 2 "products are -n/--count" "$BIN/matrix" --iterations 5
run "--seed negative" 2 "seed '-1'" "$BIN/matrix" --seed -1
run "unknown long option" 2 "unknown option '--bogus'" "$BIN/matrix" --bogus
run "unknown short option" 2 "unknown option '-Z'" "$BIN/matrix" -Z
run "option without its value" 2 "needs a value" "$BIN/matrix" -n
run "unexpected argument" 2 "unexpected argument 'extra'" "$BIN/matrix" extra
run "unknown scheme" 2 "unknown scheme 'nosuch'" "$BIN/matrix" -s nosuch
run "bad scheme parameter" 2 "F=0.5" "$BIN/matrix" -s tss --F 0.5
run "--chunk-min reaches the runtime" 2 "min" "$BIN/matrix" --chunk-min 0
run "no pvmd: exit 1" 1 "no PVM daemon" "$BIN/matrix" --local 1 -q -n 10

# ---- the known answer ------------------------------------------------------------------
SMALL="-n 120 --min-size 20 --max-size 120 --seed 3"
# shellcheck disable=SC2086
"$BIN/matrix" --sequential $SMALL >seq.txt 2>&1
ref=$(checksum_of seq.txt)
[ -n "$ref" ]; check "--sequential prints a checksum ($ref)" $?
# shellcheck disable=SC2086
"$BIN/matrix" --sequential $SMALL >seq2.txt 2>&1
[ "$(checksum_of seq2.txt)" = "$ref" ]; check "--sequential: the same again" $?
# shellcheck disable=SC2086
"$BIN/matrix" --sequential $SMALL --seed 4 >seq3.txt 2>&1
[ "$(checksum_of seq3.txt)" != "$ref" ]; check "--sequential: another seed, another checksum" $?
run "--sequential: the checksum tests/test_matrix.c pins" 0 "^checksum a24f3c61c084efa5$" \
    "$BIN/matrix" --sequential -n 50 --min-size 5 --max-size 20 --seed 1
grep -q "^checksum a24f3c61c084efa5$" "$tmp/out" && grep -q "OpenBLAS" "$tmp/out"
check "bin/matrix links OpenBLAS and agrees with GSL's CBLAS (test_matrix)" $?

# The simulator prices the same sizes: with scale 2e9, one host of speed 1
# and one chunk, its finish time is sum 2 s_i^3, bin/matrix's flop count.
printf 'host a speed=1\n' >one.plat
printf 'platform one.plat\nworkload matrix n=120 min=20 max=120 scale=2e9\nscheme css\nseed 3\n' >m.scn
sim_flops=$("$BIN/sim" m.scn | sed -n 's/.* Finish \([0-9]*\)\.00 .*/\1/p')
seq_flops=$(sed -n 's/.* s, \([0-9]*\) flops .*/\1/p' seq.txt)
[ -n "$sim_flops" ] && [ "$sim_flops" = "$seq_flops" ]
check "bin/sim's matrix workload: the same sizes (sum 2 s^3 = $seq_flops, sim $sim_flops)" $?

# ---- a private virtual machine: every scheme, 1-4 workers ------------------------------
pvm_up "$tmp" "$BIN"
check "private pvmd started (pid $pvmd_pid)" $?
for s in dtss tss gss fss css pss qss ess rss tree; do
    for n in 1 2 3 4; do
        rm -f rec.csv
        # shellcheck disable=SC2086
        timeout 60 "$BIN/matrix" -s "$s" --local "$n" $SMALL -r rec.csv -q >out.txt 2>&1
        rc=$?
        got=$(checksum_of out.txt)
        [ "$rc" = 0 ] && [ "$got" = "$ref" ]
        check "$s with $n workers: the sequential checksum (exit $rc, $got)" $?
        grep -q "^$s: W1 .* Finish .* Imbalance " out.txt
        check "$s with $n workers: summary line" $?
        grep -q "^run,.*,count=120,min=20,max=120,seed=3,checksum=$ref" rec.csv
        check "$s with $n workers: the record's workload fields" $?
    done
done
[ "$("$BIN/record" --count rec.csv worker 2>/dev/null)" = 4 ]
check "the record has a line per worker" $?

# ---- a worker killed mid-run ------------------------------------------------------------
# The paper's sizes, 160 products: about 3 s on 3 workers here.
"$BIN/matrix" --sequential -n 160 >bigseq.txt 2>&1
big=$(checksum_of bigseq.txt)
for s in dtss tree; do
    rm -f kill.csv
    "$BIN/matrix" -s $s --local 3 -n 160 -r kill.csv >kill.txt 2>&1 &
    master=$!
    victim=
    for _ in $(seq 100); do
        victim=$(workers | head -n 1)
        [ -n "$victim" ] && break
        sleep 0.05
    done
    sleep 0.7
    [ -n "$victim" ] && kill -9 "$victim"
    wait_for "$master" 120
    [ "$rc" = 0 ]; check "$s, killed worker: the master finishes (exit $rc)" $?
    grep -q "worker [0-9] on .* exited" kill.txt
    check "$s, killed worker: the master noticed" $?
    [ "$(checksum_of kill.txt)" = "$big" ]
    check "$s, killed worker: the sequential checksum ($big)" $?
    "$BIN/record" kill.csv chunk reissue,done 2>/dev/null | grep -q '^1,1$'
    check "$s, killed worker: the record shows its iterations served again" $?
done

# ---- halt ------------------------------------------------------------------------------
pvm_down; check "pvmd halted" $?
finish
