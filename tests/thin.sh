#!/bin/sh
# thin.sh: bin/thin (Guo & Hall thinning) and scripts/heymann-images: a
# hand-worked golden skeleton and trace, the parts giving the sequential
# bytes, bad options and bad PBM files refused by name with exit 2, and the
# three test images: deterministic, their sizes and the iterations they
# converge in (docs/thin.md).
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1
T=$BIN/thin

# ---- the golden skeleton: a 3-pixel-thick bar, 7 long (hand-worked in
# tests/test_thin.c: its centre row less the two end pixels, 2 iterations)
cat >bar.pbm <<'EOF'
P1
# a 3-pixel-thick bar
9 5
0 0 0 0 0 0 0 0 0
0 1 1 1 1 1 1 1 0
0 1 1 1 1 1 1 1 0
0 1 1 1 1 1 1 1 0
0 0 0 0 0 0 0 0 0
EOF
cat >bar-skel.pbm <<'EOF'
P1
9 5
000000000
000000000
001111100
000000000
000000000
EOF
run "golden: bar thins in 2 iterations, 5 of 21 pixels left" 0 \
    "^image 9 x 5: 2 iterations, converged, 5 of 21 pixels left, [0-9.]* s$" \
    "$T" bar.pbm -o out.pbm --plain
cmp -s out.pbm bar-skel.pbm; check "golden: the skeleton, as P1" $?
"$T" bar.pbm -q -o out4.pbm
printf 'P4\n9 5\n\000\000\000\000\076\000\000\000\000\000' >bar-skel4.pbm
cmp -s out4.pbm bar-skel4.pbm; check "golden: the skeleton, as P4 (rows of 2 bytes)" $?
"$T" - -q -o out-stdin.pbm <bar.pbm
cmp -s out-stdin.pbm out4.pbm; check "'-' reads standard input" $?
"$T" out4.pbm -q -o out-p4.pbm
cmp -s out-p4.pbm out4.pbm; check "the skeleton, read as P4, thins to itself" $?
"$T" bar.pbm -q -o - >out-stdout.pbm
cmp -s out-stdout.pbm out4.pbm; check "-o - writes standard output" $?
run "--iterations 1: not converged" 0 "1 iterations, not converged, 5 of 21" \
    "$T" bar.pbm --iterations 1

# The parts: the same bytes for M = 1, 2, 3, 5 and 64 (more parts than rows:
# the parts past row 5 are empty).
for m in 1 2 3 5 64; do
    run "--parts $m: the summary" 0 "2 iterations, converged, 5 of 21 pixels left, $m parts" \
        "$T" bar.pbm --parts "$m" -o "p$m.pbm"
    cmp -s "p$m.pbm" out4.pbm; check "--parts $m: the sequential skeleton's bytes" $?
done

# The trace, worked by hand: parts of rows 0-2 and 3-4; iteration 1 part 0
# examines rows 0-3 (21 pixels) then row 2 after subiteration 1 (6), part 1
# rows 2-4 (14) then row 3 (6); iteration 2: part 0 rows 0-3 (5) and 0-2
# (5), part 1 rows 2-4 (5) and 3-4 (0).
"$T" bar.pbm --parts 2 --trace trace.txt -q
printf '# thin trace: image bar, 9 x 5, parts 2, unit pixels\n1 27 20\n2 10 5\n' >trace-want.txt
cmp -s trace.txt trace-want.txt; check "golden trace, unit pixels (hand-worked)" $?
"$T" bar.pbm --parts 7 --trace trace7.txt -q
sed -n 2p trace7.txt | grep -q '^1 [0-9]* [0-9]* [0-9]* [0-9]* [0-9]* - -$'
check "7 parts of 5 rows: parts 5 and 6 never have a task ('-')" $?
"$T" bar.pbm --parts 3 --trace traces.txt --trace-unit seconds -q
head -n 1 traces.txt | grep -q '^# thin trace: image bar, 9 x 5, parts 3, unit seconds$' &&
    [ "$(sed -n '2,$p' traces.txt | grep -c '^[0-9]* [0-9]*\.[0-9]\{6\} [0-9]*\.[0-9]\{6\} [0-9]*\.[0-9]\{6\}$')" = 2 ]
check "trace in seconds: the header, 2 lines of 3 costs" $?
cp bar.pbm 'odd name,x y.pbm'
"$T" 'odd name,x y.pbm' --parts 1 --trace - -q >tracen.txt
head -n 1 tracen.txt | grep -q '^# thin trace: image odd_name_x_y, 9 x 5, parts 1, unit pixels$'
check "trace header: the image name's blanks and commas become _" $?

# ---- usage and input errors: exit 2, the bad value named ------------------
run "--help" 0 "trace-unit" "$T" --help
run "no input" 2 "no input image" "$T"
run "--parts 0" 2 "parts '0' must be an integer in \[1, 64\]" "$T" bar.pbm --parts 0
run "--parts 65" 2 "parts '65'" "$T" bar.pbm --parts 65
run "--parts x" 2 "parts 'x'" "$T" bar.pbm --parts x
run "--iterations 0" 2 "iterations '0'" "$T" bar.pbm --iterations 0
run "--iterations 2.5" 2 "iterations '2.5'" "$T" bar.pbm -k 2.5
run "--trace-unit bogus" 2 "trace-unit 'bogus' must be pixels or seconds" \
    "$T" bar.pbm --parts 2 --trace t --trace-unit bogus
run "--trace without --parts" 2 "trace needs --parts" "$T" bar.pbm --trace t
run "unknown option" 2 "unknown option '--bogus'" "$T" bar.pbm --bogus
run "option without its value" 2 "needs a value" "$T" bar.pbm --parts
run "unexpected argument" 2 "unexpected argument 'extra'" "$T" bar.pbm extra
run "missing file" 2 "nope.pbm: No such file" "$T" nope.pbm
run "output in a missing folder: refused before reading (exit 1)" 1 "thin: --out no/dir/o.pbm: cannot write there" \
    "$T" nope.pbm -o no/dir/o.pbm
printf 'P5\n3 2\n255\n' >grey.pgm
run "a PGM" 2 "a P5 file (PGM, PPM or PAM): only PBM" "$T" grey.pgm
printf 'P1\n3 2\n1 0 0\n0 7 1\n' >seven.pbm
run "a 7 in a P1 raster: the line" 2 "seven.pbm: line 4: '7' in a plain (P1) raster" \
    "$T" seven.pbm
printf 'P1\n3 2\n1 0 0\n0' >short.pbm
run "a truncated P1" 2 "short.pbm: line 4: truncated raster: 4 of 6 pixels" "$T" short.pbm
printf 'P4\n16 3\n\001\002\003' >short4.pbm
run "a truncated P4: the byte" 2 "truncated raster at byte 11: row 2 of 3" "$T" short4.pbm
printf 'P4\n70000 2\n' >wide.pbm
run "a width over the limit" 2 "width 70000 must be in \[1, 65536\]" "$T" wide.pbm
printf 'P4\n40000 40000\n' >big.pbm
run "too many pixels" 2 "40000 x 40000 = 1600000000 pixels is over the limit of 268435456" \
    "$T" big.pbm
printf 'P1\n3 x\n' >badh.pbm
run "a bad height" 2 "line 2: the height is not a number (found 'x')" "$T" badh.pbm
: >empty.pbm
run "an empty file" 2 "empty file" "$T" empty.pbm
[ ! -e o.pbm ] && "$T" seven.pbm -o o.pbm >/dev/null 2>&1; [ ! -e o.pbm ]
check "a bad input writes no output file" $?
I=$BIN/thin-images
run "thin-images --help" 0 "boyball" "$I" --help
run "thin-images: unknown scene" 2 "unknown scene 'cat'" "$I" cat -o x.pbm
run "thin-images: --copies 0" 2 "copies '0'" "$I" figures --copies 0 -o x.pbm
run "thin-images: --zoom 9" 2 "zoom '9'" "$I" figures --zoom 9 -o x.pbm
run "thin-images: letters without a font" 2 "need a PSF font" "$I" letters -o x.pbm
run "thin-images: not a font" 2 "not a PSF font" "$I" letters --font bar.pbm -o x.pbm

# ---- the test images (scripts/heymann-images) ------------------------------
H=$REPO/scripts/heymann-images
run "heymann-images: no OUTDIR" 2 "no OUTDIR" env BIN="$BIN" "$H"
run "heymann-images: unknown option" 2 "unknown option '--size'" env BIN="$BIN" "$H" x --size 2
if [ ! -f /usr/share/consolefonts/Lat15-TerminusBold32x16.psf.gz ]; then
    skip "no console font (Debian's console-setup-linux): the test images not checked"
else
    run "heymann-images: --scale 0" 2 "copies '0'" env BIN="$BIN" "$H" imgs0 --scale 0
    BIN=$BIN "$H" imgs >imgs.txt 2>&1; check "heymann-images writes the three images" $?
    BIN=$BIN "$H" imgs2 >/dev/null 2>&1
    same=0
    for s in figures letters boyball; do cmp -s "imgs/$s.pbm" "imgs2/$s.pbm" || same=1; done
    check "the images are the same bits every time" $same
    # image, size, pixels, iterations, pixels left (docs/thin.md); not
    # "name": lib.sh's run uses it
    while IFS='|' read -r img size pixels iters left; do
        grep -q "^$img: $size, $pixels pixels$" imgs.txt
        check "$img: $size, $pixels pixels" $?
        run "$img converges in $iters iterations" 0 \
            ": $iters iterations, converged, $left of $pixels pixels left" \
            "$T" "imgs/$img.pbm" -o "imgs/$img-skel.pbm"
        "$T" "imgs/$img.pbm" --parts 8 -q -o "imgs/$img-p8.pbm"
        cmp -s "imgs/$img-skel.pbm" "imgs/$img-p8.pbm"
        check "$img: 8 parts give the sequential skeleton" $?
    done <<'EOF'
figures|1800 x 1000|508019|92|7141
letters|3432 x 1587|1091300|105|16246
boyball|1400 x 1400|277138|97|3849
EOF
    BIN=$BIN "$H" imgs3 --scale 2 >imgs3.txt 2>&1
    grep -q "^boyball: 2800 x 1400, 554276 pixels$" imgs3.txt
    check "--scale 2: two copies side by side" $?
    run "--scale 2: the same iterations" 0 ": 97 iterations, converged, 7698 of 554276" \
        "$T" imgs3/boyball.pbm
    # The border strips finish first (docs/thin.md): of Figures' 32 parts, the
    # 4 at the top and the 5 at the bottom have their last task by iteration
    # 11, every other one after iteration 20.
    "$T" imgs/figures.pbm --parts 32 --trace f32.trace -q
    awk 'NR > 1 { for (i = 2; i <= NF; i++) if ($i != "-") last[i - 2] = $1 }
         END { for (j = 0; j < 32; j++) {
                   border = j < 4 || j >= 27
                   if (border ? last[j] > 11 : last[j] <= 20) exit 1 }
               exit 0 }' f32.trace
    check "figures, 32 parts: the 9 border parts done by iteration 11, the 23 others after 20" $?
    # sim/examples holds the traces of the three images at 8, 16 and 32 parts
    # (docs/pool.md's Table 4.1): bin/thin writes them again byte for byte.
    for img in figures letters boyball; do
        for m in 8 16 32; do
            "$T" "imgs/$img.pbm" --parts "$m" --trace "$img$m.trace" -q
            cmp -s "$img$m.trace" "$REPO/sim/examples/$img$m.trace"
            check "sim/examples/$img$m.trace is bin/thin's trace of $img.pbm, $m parts" $?
        done
    done
fi
finish
