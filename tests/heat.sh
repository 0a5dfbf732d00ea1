#!/bin/sh
# heat.sh: bin/heat (the 2-D heat equation, heat/heat.h): a hand-worked
# field's bytes, a golden checksum, strips and random re-cuts giving the
# sequential checksum and bytes, the PGM picture, and bad options and values
# refused by name with exit 2 (docs/heat.md).
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
H=$BIN/heat

# ---- known answers ------------------------------------------------------------
# 3 x 3, top edge 100, r 1/4, 2 steps (worked by hand in tests/test_heat.c):
# 31.25 37.5 31.25 / 6.25 6.25 6.25 / 0 0 0, as little-endian doubles
# (31.25 = 0x403f400000000000, 37.5 = 0x4042c00000000000, 6.25 =
# 0x4019000000000000).
run "3x3, r 0.25, 2 steps: the summary" 0 \
    "^plate 3 x 3, r 0.25, 2 steps: min 0, max 37.5, mean 13.1944$" \
    "$H" --nx 3 --ny 3 --steps 2 --r 0.25 --raw f3.raw
z='\000\000\000\000\000'
a="$z\100\077\100" b="$z\300\102\100" c="$z\000\031\100" o="$z\000\000\000"
printf "$a$b$a$c$c$c$o$o$o" >want3.raw
cmp -s f3.raw want3.raw; check "3x3, 2 steps: --raw writes the hand-worked doubles" $?

# The golden run: the default plate (top 100, r 0.2), 64 x 48, 500 steps.
# tests/test_heat.c checks the same checksum; a build that fuses
# multiply-adds (clang -march=haswell without -ffp-contract=off) gives
# ce97912bbc795e49.
gold=bc059d4f7c98a1dd
run "golden: 64 x 48, 500 steps: the summary" 0 \
    "^plate 64 x 48, r 0.2, 500 steps: min 0.00173164, max 94.3292, mean 18.691$" \
    "$H" --nx 64 --ny 48 --steps 500 --checksum --raw seq.raw -o seq.pgm
grep -q "^checksum $gold$" "$tmp/out"; check "golden: checksum $gold" $?
[ "$(wc -c <seq.raw)" -eq $((64 * 48 * 8)) ]; check "--raw: 8 bytes a cell" $?

# ---- strips: the sequential bytes, whatever the cut -------------------------------
for args in "--strips 1" "--strips 4" "--strips 48" \
            "--strips 4 --rebalance-every 3" \
            "--strips 4 --rebalance-every 3 --seed 7" \
            "--strips 7 --rebalance-every 1 --seed 2" \
            "--strips 2 --rebalance-every 499" \
            "--strips 48 --rebalance-every 5"; do
    # shellcheck disable=SC2086
    "$H" --nx 64 --ny 48 --steps 500 --checksum $args >s.out 2>&1
    grep -q "^checksum $gold$" s.out; check "$args: the sequential checksum" $?
done
run "--strips 4 --rebalance-every 3: re-cuts and rows moved reported" 0 \
    ", 4 strips, 166 re-cuts ([0-9]* rows moved in [0-9]* transfers, [0-9]* rounds): min" \
    "$H" --nx 64 --ny 48 --steps 500 --strips 4 --rebalance-every 3 --raw st.raw
cmp -s st.raw seq.raw; check "--strips 4 --rebalance-every 3: the sequential bytes" $?
"$H" --nx 64 --ny 48 --steps 500 --strips 4 --rebalance-every 3 >a.out
"$H" --nx 64 --ny 48 --steps 500 --strips 4 --rebalance-every 3 --seed 1 >b.out
cmp -s a.out b.out; check "the default seed is 1 (the same re-cuts)" $?
"$H" --nx 64 --ny 48 --steps 500 --strips 4 --rebalance-every 3 --seed 9 >c.out
! cmp -s a.out c.out; check "another seed, other re-cuts (rows moved differ)" $?
run "--steps 0: the initial field, all 0" 0 ": min 0, max 0, mean 0$" \
    "$H" --nx 5 --ny 4 --steps 0 --strips 2 --rebalance-every 1

# ---- the picture ---------------------------------------------------------------
head -c 2 seq.pgm | grep -q '^P5$'; check "-o: a binary PGM (P5)" $?
sed -n 3,4p seq.pgm | tr '\n' ' ' | grep -q '^64 48 255 $'; check "-o: 64 x 48, maxval 255" $?
hdr=$(head -n 4 seq.pgm | wc -c)
[ "$(wc -c <seq.pgm)" -eq $((hdr + 64 * 48)) ]; check "-o: one byte a cell" $?
# top row (next to the 100 edge) bright, bottom row dark: the middle column's
# first and last pixels.
top=$(tail -c $((64 * 48)) seq.pgm | od -An -tu1 -j 32 -N 1 | tr -d ' ')
bot=$(tail -c $((64 * 48)) seq.pgm | od -An -tu1 -j $((47 * 64 + 32)) -N 1 | tr -d ' ')
[ "$top" -ge 240 ] && [ "$bot" -le 5 ]; check "-o: hot at the top ($top), cold at the bottom ($bot)" $?
"$H" --nx 64 --ny 48 --steps 500 -o - >stdout.pgm 2>stderr.txt
cmp -s stdout.pgm seq.pgm && grep -q '^plate 64 x 48' stderr.txt
check "-o -: the picture on stdout, the summary on stderr" $?

# ---- usage errors: exit 2, the bad value named ----------------------------------
run "--help" 0 "rebalance-every" "$H" --help
run "no options" 2 "--nx, --ny and --steps are required" "$H"
run "--steps missing" 2 "are required" "$H" --nx 4 --ny 4
run "--nx 0" 2 "nx '0' must be an integer in \[1, 65536\]" "$H" --nx 0 --ny 4 --steps 1
run "--nx x" 2 "nx 'x'" "$H" --nx x --ny 4 --steps 1
run "--ny 70000" 2 "ny '70000' must be an integer in \[1, 65536\]" "$H" --nx 4 --ny 70000 --steps 1
run "too many cells" 2 "65536 x 65536 = 4294967296 cells is over the limit of 134217728" \
    "$H" --nx 65536 --ny 65536 --steps 1
run "a cell over 2^27 (1 GiB a field)" 2 "4096 x 32769 = 134221824 cells is over the limit of 134217728" \
    "$H" --nx 4096 --ny 32769 --steps 1
run "--steps -1" 2 "steps '-1' must be an integer >= 0" "$H" --nx 4 --ny 4 --steps -1
run "--steps 1.5" 2 "steps '1.5'" "$H" --nx 4 --ny 4 --steps 1.5
run "--r 0.3: unstable" 2 "r '0.3': r=0.3 must be in (0, 0.25\]" "$H" --nx 4 --ny 4 --steps 1 --r 0.3
run "--r 0" 2 "r '0': r=0 must be in (0, 0.25\]" "$H" --nx 4 --ny 4 --steps 1 --r 0
run "--r abc" 2 "r 'abc' is not a number" "$H" --nx 4 --ny 4 --steps 1 --r abc
run "--r nan" 2 "r 'nan' is not a number" "$H" --nx 4 --ny 4 --steps 1 --r nan
run "--strips 0" 2 "strips '0' must be an integer in \[1, 1024\]" "$H" --nx 4 --ny 4 --steps 1 --strips 0
run "--strips 5 of 4 rows" 2 "strips 5 is more than the 4 rows" "$H" --nx 4 --ny 4 --steps 1 --strips 5
run "--rebalance-every 0" 2 "rebalance-every '0' must be an integer >= 1" \
    "$H" --nx 4 --ny 4 --steps 1 --strips 2 --rebalance-every 0
run "--rebalance-every without --strips" 2 "rebalance-every needs --strips" \
    "$H" --nx 4 --ny 4 --steps 1 --rebalance-every 2
run "--seed without --rebalance-every" 2 "seed needs --rebalance-every" \
    "$H" --nx 4 --ny 4 --steps 1 --strips 2 --seed 3
run "--seed -1" 2 "seed '-1' must be an integer >= 0" \
    "$H" --nx 4 --ny 4 --steps 1 --strips 2 --rebalance-every 1 --seed -1
run "unknown option" 2 "unknown option '--bogus'" "$H" --nx 4 --ny 4 --steps 1 --bogus
run "option without its value" 2 "needs a value" "$H" --nx 4 --ny 4 --steps
run "unexpected argument" 2 "unexpected argument 'extra'" "$H" --nx 4 --ny 4 --steps 1 extra
run "-o and --raw both stdout" 2 "cannot both write standard output" \
    "$H" --nx 4 --ny 4 --steps 1 -o - --raw -
run "-o in a missing folder: refused before the run (exit 1)" 1 "heat: --out no/dir/f.pgm: cannot write there" \
    "$H" --nx 4 --ny 4 --steps 1 -o no/dir/f.pgm
run "--raw in a missing folder (exit 1)" 1 "heat: --raw no/dir/f.raw: cannot write there" \
    "$H" --nx 4 --ny 4 --steps 1 --raw no/dir/f.raw
[ ! -e bad.pgm ] && "$H" --nx 4 --ny 4 --steps 1 --r 0.3 -o bad.pgm >/dev/null 2>&1
[ ! -e bad.pgm ]; check "a bad value writes no output file" $?
finish
