#!/bin/sh
# resume.sh: a broken run resumed from its journal (--resume), on a private
# one-host virtual machine. A run's pvmd is killed (-9) mid-run, after some
# rows are journaled: the coordinator fails and says how to resume; a new
# pvmd, coordinator --resume, its pvmd killed in turn; a new one, --resume
# again: the image is bin/mandel's bit for bit and the rows computed again
# are at most those that were out at the (last) crash; the same under Tree-
# Scheduling (-s tree), whose journal another scheme may not resume. Also: a
# complete run's journal (--keep-journal) resumed redoes nothing; a torn
# journal tail is ignored (its rows computed again); a journal that is not
# the run's is refused, naming what differs. Starts its own pvmds (own
# PVM_TMP) and ends them, and every process it started, by PID.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
tmp=$(mktemp -d /tmp/dtss-resume.XXXXXX)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pvmlib.sh"
orphans=""                      # workers of the killed pvmd
mounted=""                      # the full disk's tmpfs
cleanup() {
    [ -n "$mounted" ] && umount "$mounted"
    for pid in $orphans; do
        kill "$pid" 2>/dev/null
    done
    pvm_down
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
export PVM_ALLOW_ROOT=yes PVM_TMP="$tmp/pvm"    # (no pvmd yet)
cd "$tmp" || exit 1

# ---- options, without PVM ------------------------------------------------------------
run "--help lists --resume" 0 "--resume RECORD" "$BIN/coordinator" --help
run "--resume without a journal: nothing to resume, bad input" 2 "nothing to resume" \
    "$BIN/coordinator" --resume none.csv
run "--resume of a file that is not a journal: bad input" 2 "not a journal" \
    sh -c "echo 'run,x' > bad.csv.journal && exec '$BIN/coordinator' --resume bad.csv"

# ---- journals whose checksums hold but whose numbers are not the run's -------------
# Crafted byte by byte (runtime/loop/journal.c's format; tests/test_runtime.c has
# every case): bin/loop's run -w "uniform n=10 cost=1" (10 iterations, scheme
# dtss, R = 1, its job "loop1 1 8\nuniform n=10 cost=1" and a NUL: 30 bytes), 8
# bytes an iteration. u N: N (< 256) as 8 bytes, little-endian. The FNV-1a 64 of
# each part, worked out once, is written as its 8 bytes.
u() { printf "\\$(printf %03o "$1")\\000\\000\\000\\000\\000\\000\\000"; }
head10() { printf 'DTSS-JNL'; u 1; u 10; u 1; u 4; printf dtss; u 0
           u 30; printf 'loop1 1 8\nuniform n=10 cost=1\000'
           printf '\171\351\163\143\031\074\060\057'; }              # 98 bytes
# R [START, +4) in one piece of BYTES zero bytes: R START BYTES, then its FNV
r4() { printf R; u "$1"; u 4; u 1; u "$1"; u 4; u "$2"; head -c "$2" /dev/zero; }
{ head10; r4 0 32; printf '\324\136\332\232\203\063\165\156'; } >good.journal
{ head10; r4 0 24; printf '\154\230\142\255\335\055\250\301'; } >bytes.journal
{ cat good.journal; r4 2 32; printf '\224\333\223\155\067\122\341\274'; } >twice.journal
L="uniform n=10 cost=1"
# the good one passes the checks: the run gets as far as PVM (none here)
run "a crafted good journal: taken (then: no pvmd)" 1 "no PVM daemon" \
    "$BIN/loop" -w "$L" --local 1 -q --resume good.journal
run "entry 1 holds 24 bytes for 4 iterations of 8: refused as a bad journal (2), named" 2 \
    "resume bytes.journal: entry 1 (at byte 98): a piece's results are not its iterations times the result bytes: a damaged journal, or another run's" \
    "$BIN/loop" -w "$L" --local 1 -q --resume bytes.journal
! grep -q "worker\|PVM\|came back" "$tmp/out"
check "the bad journal blames no worker, and is refused before PVM is asked" $?
run "entry 2 holds iterations entry 1 holds: refused (2), named" 2 \
    "resume twice.journal: entry 2 (at byte 187): results of iterations entry 1 holds too" \
    "$BIN/loop" -w "$L" --local 1 -q --resume twice.journal
run "a journal of another I (10; the loop 12): refused before the run (2)" 2 \
    "the journal's run has 10 iterations, this one 12" \
    "$BIN/loop" -w "uniform n=12 cost=1" --local 1 -q --resume good.journal

pvm_up "$tmp" "$BIN"
check "private pvmd started (pid $pvmd_pid)" $?

# Done chunks' iterations in a record.
done_iters() {
    "$BIN/record" "$1" chunk size,done | awk -F, '$2 == 1 { n += $1 } END { print n + 0 }'
}

# ---- a complete run's journal, kept: resumed, nothing is redone --------------------------
"$BIN/mandel" -S 200 -m 4000 -o ref200.pgm -q
"$BIN/coordinator" --local 2 -S 200 -m 4000 -o c.pgm -r c.csv -q >c.txt 2>&1
rc=$?
[ "$rc" = 0 ] && [ ! -e c.csv.journal ]
check "a complete run removes its journal (exit $rc)" $?
timeout 60 "$BIN/coordinator" --local 2 -S 200 -m 4000 -o c.pgm -r c.csv -q --keep-journal \
    >c.txt 2>&1
rc=$?
[ "$rc" = 0 ] && [ -s c.csv.journal ]; check "--keep-journal keeps it (exit $rc)" $?
cp c.csv.journal keep.journal
rm -f c.pgm
timeout 60 "$BIN/coordinator" --local 2 --resume c.csv -o c.pgm >c2.txt 2>&1
rc=$?
[ "$rc" = 0 ]; check "resume of a complete run: exit $rc" $?
grep -q "resuming c.csv.journal: 200 of 200 iterations done" c2.txt
check "resume of a complete run: the log says every row is in" $?
n=$(done_iters c.csv)
[ "$n" = 0 ]; check "resume of a complete run: no row computed again ($n)" $?
cmp -s ref200.pgm c.pgm; check "resume of a complete run: image identical" $?
[ "$("$BIN/record" c.csv run resumed)" = 200 ]
check "resume of a complete run: the record says resumed=200" $?
[ ! -e c.csv.journal ]; check "resume of a complete run: the journal removed at the end" $?

# ---- the loop over columns: its journal says so, resumed as columns ---------------------
"$BIN/mandel" -W 150 -H 100 -m 2000 -o refc.pgm -q
timeout 60 "$BIN/coordinator" --local 2 -W 150 -H 100 -m 2000 --columns -o cc.pgm -r cc.csv -q \
    --keep-journal >cc.txt 2>&1
rm -f cc.pgm
timeout 60 "$BIN/coordinator" --local 2 --resume cc.csv -o cc.pgm >cc2.txt 2>&1
rc=$?
[ "$rc" = 0 ] && grep -q "resuming cc.csv.journal: 150 of 150 iterations done" cc2.txt
check "a column loop's journal resumes as columns: 150 of 150 (exit $rc)" $?
cmp -s refc.pgm cc.pgm && [ "$("$BIN/record" cc.csv run loop)" = columns ]
check "the resumed column loop: image identical, loop=columns" $?
timeout 60 "$BIN/coordinator" --local 2 -W 150 -H 100 -m 2000 -o rr.pgm -r rr.csv -q \
    --keep-journal >/dev/null 2>&1
run "--resume a row loop's journal with --columns: refused" 2 "the broken run's loop is over rows, not columns" \
    "$BIN/coordinator" --local 2 --resume rr.csv --columns -o rr.pgm

# ---- not the run's journal: refused, naming what differs ---------------------------
cp keep.journal c.csv.journal
run "--resume with another size: refused" 2 "image is 200x200, not 300x300" \
    "$BIN/coordinator" --local 2 --resume c.csv -S 300
run "--resume with another maxiter: refused" 2 "maxiter is 4000, not 100" \
    "$BIN/coordinator" --local 2 --resume c.csv -m 100
run "--resume with another scheme: refused" 2 "has scheme dtss, this one tss" \
    "$BIN/coordinator" --local 2 --resume c.csv -s tss
run "--resume with another sampling: refused" 2 "has sample 4, this one 2" \
    "$BIN/coordinator" --local 2 --resume c.csv -R 2
run "--resume with a scheme parameter added: refused" 2 "has no parameter F=10" \
    "$BIN/coordinator" --local 2 --resume c.csv --F 10
run "--resume with -r elsewhere: refused" 2 "writes its record there" \
    "$BIN/coordinator" --local 2 --resume c.csv -r other.csv
run "--resume with --journal: refused" 2 "appends to the journal it resumes" \
    "$BIN/coordinator" --local 2 --resume c.csv --journal none
run "--journal elsewhere: refused (RECORD.journal, for --resume RECORD)" 2 \
    "the journal is RECORD.journal" "$BIN/coordinator" --local 2 --journal x.journal
run "another program's loop (integral, 300 iterations): refused, bad input" 2 \
    "the journal's run has 200 iterations, this one 300" \
    "$BIN/integral" --local 1 --resume c.csv.journal -n 300
[ -s c.csv.journal ] && cmp -s c.csv.journal keep.journal
check "a refused resume leaves the journal as it was" $?

# ---- a torn tail (a crash mid-write): ignored, its rows computed again ----------------
size=$(wc -c <keep.journal)
head -c $((size - 100)) keep.journal >c.csv.journal
rm -f c.pgm
timeout 60 "$BIN/coordinator" --local 2 --resume c.csv -o c.pgm >c3.txt 2>&1
rc=$?
[ "$rc" = 0 ]; check "torn tail: exit $rc" $?
grep -q "; the last [0-9]* bytes\? (from byte [0-9]* on) ignored and cut" c3.txt; check "torn tail: the log says so" $?
journaled=$("$BIN/record" c.csv run resumed)
n=$(done_iters c.csv)
[ "$n" -ge 1 ] && [ $((journaled + n)) = 200 ]
check "torn tail: the last result's rows computed again ($n; $journaled journaled)" $?
cmp -s ref200.pgm c.pgm; check "torn tail: image identical" $?

# ---- the pvmd killed mid-run, then resumed (twice) ------------------------------------
S=640 M=80000                   # about 5 s of work with 3 workers on 2 cores
"$BIN/mandel" -S $S -m $M -o ref.pgm -q
rm -f b.pgm b.csv b.csv.journal
# crash NAME BYTES ARGS...: the coordinator with ARGS in the background;
# once BYTES are journaled, kill -9 the pvmd (and so the run); checks the
# aftermath; starts a new pvmd.
crash() {
    name=$1 want=$2
    shift 2
    timeout 120 "$BIN/coordinator" --local 3 "$@" -o b.pgm >"$name.txt" 2>&1 &
    coord=$!
    for _ in $(seq 1500); do    # (at most 30 s)
        [ -f b.csv.journal ] && [ "$(wc -c <b.csv.journal)" -ge "$want" ] && break
        sleep 0.02
    done
    orphans=$(pvm_tasks worker)
    kill -9 "$pvmd_pid"
    killed=$pvmd_pid
    wait "$coord"
    rc=$?
    [ "$rc" = 1 ]; check "$name: pvmd killed mid-run: the coordinator fails (exit $rc)" $?
    grep -q "coordinator --resume b.csv continues the run" "$name.txt"
    said=$?
    check "$name: it says how to resume" $said
    [ "$said" = 0 ] || sed "s/^/$name.txt: /" "$name.txt" | head -20
    [ ! -e b.pgm ] && [ ! -e b.csv ]; check "$name: no image, no record" $?
    [ -s b.csv.journal ]; check "$name: the journal is there" $?
    pvm_gone $orphans; check "$name: the workers of the killed pvmd exit (left:$pvm_left)" $?
    pvm_reborn "$tmp" "$BIN"       # a new virtual machine
    check "$name: a new pvmd started (pid $pvmd_pid; the killed one was $killed)" $?
}
crash b1 $((S * S * 4 * 25 / 100)) -S $S -m $M -r b.csv
crash b2 $((S * S * 4 * 60 / 100)) --resume b.csv
grep -q "resuming b.csv.journal: [1-9][0-9]* of $S iterations done" b2.txt
check "b2: the first resume took the journal's rows" $?
timeout 120 "$BIN/coordinator" --local 3 --resume b.csv -o b.pgm >b3.txt 2>&1
rc=$?
[ "$rc" = 0 ]; check "resumed: exit $rc" $?
cmp -s ref.pgm b.pgm; check "resumed: image identical to bin/mandel's" $?
line=$(grep "resuming b.csv.journal" b3.txt)
journaled=$(echo "$line" | sed -n 's/.*: \([0-9]*\) of [0-9]* iterations done.*/\1/p')
out=$(echo "$line" | sed -n 's/.*; \([0-9]*\) were out when the run broke.*/\1/p')
never=$(echo "$line" | sed -n 's/.*, \([0-9]*\) never handed out.*/\1/p')
[ -n "$journaled" ] && [ "$journaled" -ge 1 ] && [ "$journaled" -lt $S ]
check "resumed: the journal had some rows ($journaled of $S)" $?
[ "$("$BIN/record" b.csv run resumed)" = "$journaled" ]
check "resumed: the record says resumed=$journaled" $?
n=$(done_iters b.csv)
[ "$n" = $((S - journaled)) ]
check "resumed: only the rows not journaled computed ($n = $S - $journaled)" $?
again=$((n - never))
[ -n "$out" ] && [ "$again" -le "$out" ]
check "resumed: rows computed again $again <= rows out at the crash $out" $?
cmp -s ref.pgm b.pgm && [ ! -e b.csv.journal ]
check "resumed: the journal removed after the complete run" $?

echo "resume: after the first crash: $(sed -n 's/.*resuming b.csv.journal: //p' b2.txt)"
echo "resume: after the second: $journaled of $S rows journaled, $out out, $never never" \
    "handed out; recomputed $again; checksum $("$BIN/record" b.csv run checksum)"

# ---- Tree-Scheduling: its journal, resumed (the rest split by speed) -----------------
# The same crash twice, under -s tree: a worker sends its results when its
# range is done, so the first kill comes once one range is journaled (more
# than the header and A entries: two rows' bytes), the second once the
# resumed run has journaled one more.
rm -f b.pgm b.csv b.csv.journal
crash t1 $((S * 4 * 2)) -S $S -m $M -r b.csv -s tree
grep -q "tree over 3 workers" t1.txt; check "t1: the run was Tree-Scheduled" $?
before=$(wc -c <b.csv.journal)
crash t2 $((before + S * 4 * 2)) --resume b.csv
j2=$(sed -n 's/.*resuming b.csv.journal: \([0-9]*\) of [0-9]* iterations done.*/\1/p' t2.txt)
[ -n "$j2" ] && [ "$j2" -ge 1 ] && [ "$j2" -lt $S ] && grep -q "tree over 3 workers" t2.txt
check "t2: the resume took scheme tree and the journal's rows (${j2:-none} of $S)" $?
timeout 120 "$BIN/coordinator" --local 3 --resume b.csv -o b.pgm >t3.txt 2>&1
rc=$?
[ "$rc" = 0 ]; check "tree resumed: exit $rc" $?
cmp -s ref.pgm b.pgm; check "tree resumed: image identical to bin/mandel's" $?
j3=$(sed -n 's/.*resuming b.csv.journal: \([0-9]*\) of [0-9]* iterations done.*/\1/p' t3.txt)
[ -n "$j3" ] && [ -n "$j2" ] && [ "$j3" -gt "$j2" ] && [ "$j3" -lt $S ]
check "tree resumed: the killed resumed run had journaled more (${j2:-?} -> ${j3:-?} of $S)" $?
out=$(sed -n 's/.*; \([0-9]*\) were out when the run broke, \([0-9]*\) never handed out.*/\1 \2/p' t3.txt)
[ -n "$j3" ] && [ "$out" = "$((S - j3)) 0" ]
check "tree resumed: the A entries say every row not journaled was out, none never handed out ($out)" $?
[ "$("$BIN/record" b.csv run scheme)" = tree ] && [ "$("$BIN/record" b.csv run resumed)" = "$j3" ]
check "tree resumed: the record says scheme=tree, resumed=$j3" $?
n=$(done_iters b.csv)
[ -n "$j3" ] && [ "$n" = $((S - j3)) ]
check "tree resumed: only the rows not journaled computed ($n = $S - ${j3:-?})" $?
[ ! -e b.csv.journal ]; check "tree resumed: the journal removed after the complete run" $?
echo "resume: tree: $j2 then $j3 of $S rows journaled; checksum $("$BIN/record" b.csv run checksum)"

# ---- a tree journal of two gaps: a share over both is a range plus a queued piece -----
# Crafted as above, scheme tree (its header's FNV worked out once), the
# loop's 8 bytes an iteration its index: R [0,+2) and R [5,+2). One worker
# (V = 1) gets the 6 left: [2,+3) as its range, [7,+3) queued for it and
# served once it is idle (sched/loop/tree.c, point 6).
headtree() { printf 'DTSS-JNL'; u 1; u 10; u 1; u 4; printf tree; u 0
             u 30; printf 'loop1 1 8\nuniform n=10 cost=1\000'
             printf '\263\014\363\142\333\161\202\141'; }
r2() { printf R; u "$1"; u 2; u 1; u "$1"; u 2; u 16; u "$1"; u $(($1 + 1)); }
{ headtree; r2 0; printf '\105\230\140\056\122\252\340\376'
  r2 5; printf '\207\276\264\257\060\120\210\321'; } >gaps.journal
timeout 60 "$BIN/loop" -w "$L" --local 1 --resume gaps.journal -r gaps.csv >gaps.txt 2>&1
rc=$?
[ "$rc" = 0 ] && grep -q "resuming gaps.journal: 4 of 10 iterations done (2 results)" gaps.txt &&
    [ "$("$BIN/record" gaps.csv run scheme,resumed)" = "tree,4" ]
check "a crafted tree journal of two gaps resumed under tree (exit $rc), resumed=4" $?
chunks=$("$BIN/record" gaps.csv chunk start,size,reissue,done | tr '\n' ' ')
[ "$chunks" = "2,3,0,1 7,3,0,1 " ]
check "its one worker: [2,+3) first, then the queued [7,+3), not as a reissue ($chunks)" $?
timeout 60 "$BIN/loop" -w "$L" --local 1 --resume gaps.journal -r gaps.csv >gaps2.txt 2>&1
rc=$?
[ "$rc" = 0 ] && [ "$("$BIN/record" gaps.csv run resumed)" = 10 ] &&
    [ "$(done_iters gaps.csv)" = 0 ]
check "resumed again: every iteration from the journal, none computed (exit $rc)" $?
run "a tree journal resumed by bin/loop -s dtss: refused, naming the scheme" 2 \
    "the journal's run has scheme tree, this one dtss" \
    "$BIN/loop" -w "$L" --local 1 -q --resume gaps.journal -s dtss

# ---- a tree journal is tree's: another scheme refused, and a dtss one not tree's -------
timeout 60 "$BIN/coordinator" --local 2 -S 200 -m 4000 -o t.pgm -r t.csv -q -s tree \
    --keep-journal >/dev/null 2>&1
[ -s t.csv.journal ] && cmp -s ref200.pgm t.pgm; check "a tree run keeps its journal, image exact" $?
run "--resume a tree journal with -s dtss: refused, naming the scheme" 2 \
    "the journal's run has scheme tree, this one dtss" \
    "$BIN/coordinator" --local 2 --resume t.csv -s dtss
cp keep.journal c.csv.journal
run "--resume a dtss journal with -s tree: refused, naming the scheme" 2 \
    "the journal's run has scheme dtss, this one tree" \
    "$BIN/coordinator" --local 2 --resume c.csv -s tree
# a torn tail: the last range's rows computed again, under tree
cp t.csv.journal tkeep.journal
size=$(wc -c <tkeep.journal)
head -c $((size - 100)) tkeep.journal >t.csv.journal
rm -f t.pgm
timeout 60 "$BIN/coordinator" --local 2 --resume t.csv -o t.pgm >t4.txt 2>&1
rc=$?
journaled=$("$BIN/record" t.csv run resumed)
n=$(done_iters t.csv)
[ "$rc" = 0 ] && grep -q "; the last [0-9]* bytes\? (from byte [0-9]* on) ignored and cut" t4.txt && [ "$n" -ge 1 ] &&
    [ $((journaled + n)) = 200 ] && cmp -s ref200.pgm t.pgm
check "tree, a torn tail: ignored, its rows computed again ($n; $journaled journaled), exact" $?

# ---- the journal's disk full mid-run: logged, the run goes on without it ---------------
# (a 64 KiB tmpfs: the header fits, the results -- 20000 iterations of 8
# bytes -- do not)
if [ "$(id -u)" = 0 ] && mkdir disk && mount -t tmpfs -o size=64k tmpfs disk; then
    mounted=$tmp/disk
    for s in dtss tree; do
        timeout 60 "$BIN/loop" -w "uniform n=20000 cost=1" --local 2 -s $s --journal disk/j \
            >full-$s.txt 2>&1
        rc=$?
        [ "$rc" = 0 ] && grep -q "journal disk/j: cannot write .*the run goes on without it" \
            full-$s.txt && [ ! -e disk/j ]
        check "$s, the journal's disk full: the run goes on (exit $rc), said, journal removed" $?
    done
else
    skip "the journal's disk full: a tmpfs of our own needs root"
fi
# A device as the journal (our own node, like /dev/full): its header cannot
# be written; said, the run goes on, and the device is never removed.
if [ "$(id -u)" = 0 ] && mknod fulldev c 1 7; then
    timeout 60 "$BIN/loop" -w "uniform n=200 cost=1" --local 2 --journal fulldev >dev.txt 2>&1
    rc=$?
    [ "$rc" = 0 ] && [ -c fulldev ] &&
        grep -q "journal fulldev: cannot write (No space left on device): the run goes on without it (closed)" dev.txt
    check "a device as the journal: said, the run goes on (exit $rc), the device left alone: $(head -c 300 dev.txt)" $?
    rm -f fulldev
else
    skip "a device as the journal: mknod needs root"
fi

pvm_down; check "pvmd halted" $?
finish
