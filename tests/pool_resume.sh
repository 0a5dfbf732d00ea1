#!/bin/sh
# pool_resume.sh: the pool's journal and --resume (runtime/pool/journal.c),
# through bin/thin-pool on a private one-host virtual machine. A run's pvmd
# is killed (-9) mid-run, after some iterations are journaled: thin-pool
# fails and says how to resume; a new pvmd, --resume, its pvmd killed in
# turn; a new one, --resume again: the skeleton is bin/thin's bit for bit,
# every result came once (journaled + computed = a fresh run's tasks) and
# no task of an iteration wholly journaled went to a worker. Also: a
# complete run's journal resumed computes nothing; another run's journal
# (another job, part count or image) is refused naming what differs; a torn
# tail and a damaged entry end the journal there (still exact); crafted
# entries whose checksums hold but that are no run's are refused naming the
# entry and its byte; a journal that cannot be written (a full device) is
# said and the run goes on. Starts its own pvmds (own PVM_TMP) and ends
# them, and every process it started, by PID.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
tmp=$(mktemp -d /tmp/dtss-poolresume.XXXXXX)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pvmlib.sh"
orphans=""                      # workers of a killed pvmd
master=
cleanup() {
    [ -n "$master" ] && kill "$master" 2>/dev/null
    for pid in $orphans; do
        kill "$pid" 2>/dev/null
    done
    pvm_down
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
export PVM_ALLOW_ROOT=yes PVM_TMP="$tmp/pvm"    # (no pvmd yet)
TP="$BIN/thin-pool"
cd "$tmp" || exit 1

"$BIN/thin-images" figures -z 0.3 -q -o fig.pbm
"$BIN/thin-images" boyball -z 0.25 -q -o boy.pbm
"$BIN/thin-images" figures -q -o big.pbm
[ -s fig.pbm ] && [ -s boy.pbm ] && [ -s big.pbm ]; check "test images made" $?

# ---- options and journals refused, without PVM ------------------------------------
run "--help lists --journal and --resume" 0 "--resume FILE" "$TP" --help
run "--journal with --resume: refused (2)" 2 "a resumed run appends to the journal it resumes" \
    "$TP" fig.pbm --parts 2 --local 1 --journal a.j --resume b.j
run "--resume then --journal: refused (2)" 2 "--journal with --resume: a resumed run appends" \
    "$TP" fig.pbm --parts 2 --local 1 --resume b.j --journal a.j
run "--journal '': refused (2)" 2 "name a file, or none" "$TP" fig.pbm --parts 2 --journal ''
run "--resume of no file: refused before PVM (2)" 2 "resume none.j: No such file" \
    "$TP" fig.pbm --parts 2 --local 1 --resume none.j
echo keep >nj.j
run "--journal with no pvmd: the run fails (1)" 1 "no PVM daemon" \
    "$TP" fig.pbm --parts 2 --local 1 --journal nj.j
[ "$(cat nj.j)" = keep ]; check "  the file named is left as it was (a journal begins with the run)" $?
printf 'P1\n1 1\n1\n' >notj.j
run "--resume of a file that is no journal: refused (2)" 2 "not a journal of this kind" \
    "$TP" fig.pbm --parts 2 --local 1 --resume notj.j

# Crafted byte by byte (runtime/pool/journal.c's format): fig.pbm's run with
# --parts 2 (ntasks 2, job "slow=1"); every checksum right, worked out once
# (FNV-1a 64, written as its 8 bytes). u N: N (< 256) as 8 bytes, little-endian.
u() { printf "\\$(printf %03o "$1")\\000\\000\\000\\000\\000\\000\\000"; }
head2() { printf 'DTSS-POL'; u 1; u 2; u 6; printf 'slow=1'
          printf '\163\337\327\230\154\074\223\151'; }            # 46 bytes
# e IT TASK [SECONDS]: an entry of payload hash 0, no result bytes (49 bytes)
e() { printf R; u "$1"; u "$2"; u 0
      if [ "${3:-0}" = -1 ]; then printf '\000\000\000\000\000\000\360\277'; else u 0; fi
      u 0; case "$1,$2,${3:-0}" in
      1,5,0) printf '\061\312\236\003\332\045\035\353' ;;
      1,0,0) printf '\264\213\201\354\215\076\047\373' ;;
      3,1,0) printf '\167\001\035\165\011\003\270\075' ;;
      2,0,0) printf '\227\133\371\104\355\130\373\326' ;;
      1,1,0) printf '\065\314\167\217\164\361\177\000' ;;
      1,0,-1) printf '\251\150\366\147\017\152\032\121' ;;
      esac; }
{ head2; e 1 0; } >good.j
{ head2; e 1 5; } >task.j
{ head2; e 1 0; e 3 1; } >skip.j
{ head2; e 1 0; e 2 0; e 1 1; } >back.j
{ head2; e 1 0 -1; } >secs.j
{ head2; e 1 0; e 1 1; e 1 0; } >twice.j
{ head -c 45 good.j; printf 'x'; } >hsum.j
run "a crafted good journal: taken (then: no pvmd)" 1 "no PVM daemon" \
    "$TP" fig.pbm --parts 2 --local 1 -q --resume good.j
run "entry 1: task 5 of a run of 2: refused (2), entry and byte named" 2 \
    "resume task.j: entry 1 (at byte 46): task 5 (the run has tasks 0 .. 1): a damaged journal, or another run's" \
    "$TP" fig.pbm --parts 2 --local 1 -q --resume task.j
run "entry 2: iteration 3 after 1: refused (2)" 2 \
    "entry 2 (at byte 95): iteration 3 after iteration 1 (a run's iterations come one by one" \
    "$TP" fig.pbm --parts 2 --local 1 -q --resume skip.j
run "entry 3: iteration 1 after 2: refused (2)" 2 \
    "entry 3 (at byte 144): iteration 1 after iteration 2 (a run's results come iteration by iteration)" \
    "$TP" fig.pbm --parts 2 --local 1 -q --resume back.j
run "entry 1: a time of -1 s: refused (2)" 2 "entry 1 (at byte 46): an execution time of -1 s" \
    "$TP" fig.pbm --parts 2 --local 1 -q --resume secs.j
run "entry 3 holds what entry 1 holds: refused (2)" 2 \
    "entry 3 (at byte 144): iteration 1, task 0: entry 1 holds it too" \
    "$TP" fig.pbm --parts 2 --local 1 -q --resume twice.j
run "a header whose checksum fails: refused (2)" 2 "its header is damaged (checksum)" \
    "$TP" fig.pbm --parts 2 --local 1 -q --resume hsum.j
run "a journal of 2 tasks, a run of 3: refused (2), named" 2 \
    "the journal's run has 2 tasks, this one 3" "$TP" fig.pbm --parts 3 --local 1 -q --resume good.j
run "a journal of job slow=1, a run of slow=2: refused (2), named" 2 \
    "the journal's run has another job (\"slow=1\"; this one \"slow=2\")" \
    "$TP" fig.pbm --parts 2 --local 1 -q --slow 2 --resume good.j
! grep -q "PVM\|worker" out
check "the refusals blame no worker and come before PVM is asked" $?

# ---- a private virtual machine ------------------------------------------------------
pvm_up "$tmp" "$BIN"
check "private pvmd started (pid $pvmd_pid)" $?

run "the crafted journal's payload hash is not fig.pbm's: refused at iteration 1, task 0 (2)" 2 \
    "resume good.j: iteration 1, task 0: its payload is not the journal's (FNV-1a [0-9a-f]*, the journal's 0000000000000000, entry 1): another run's journal" \
    "$TP" fig.pbm --parts 2 --local 1 --delay 0 -q --resume good.j

# The encoding, a known answer: fig.pbm's run with --parts 2 writes the
# header above byte for byte, then entries of iteration 1 ('R', u 1, u task).
"$TP" fig.pbm --parts 2 --local 1 --delay 0 --journal w.j -q -o w.pbm
rc=$?
head2 >w.want
[ "$rc" = 0 ] && [ "$(head -c 46 w.j | od -An -tx1)" = "$(od -An -tx1 <w.want)" ]
check "the header written: DTSS-POL, u 1, u 2 (tasks), u 6, slow=1, its FNV-1a (exit $rc)" $?
first=$(tail -c +47 w.j | head -c 17 | od -An -tu1 | tr -s ' \n' ' ')
case "$first" in
" 82 1 0 0 0 0 0 0 0 "[01]" 0 0 0 0 0 0 0 ") true ;;
*) false ;;
esac
check "the first entry: 'R', iteration 1, task 0 or 1 ($first)" $?

# K iterations of big.pbm, 8 parts (bin/thin's skeleton), tasks made long
# enough (--slow) that the run lasts some seconds.
K=40 SLOW=150
"$BIN/thin" big.pbm --iterations $K -o ref.pbm -q
tasks() { awk -F, '$1 == "iteration" { n += $3 } END { print n + 0 }' "$1"; }
computed() { awk -F, '$1 == "task" && $8 != "" { n++ } END { print n + 0 }' "$1"; }
resumed() { awk -F, '$1 == "field" && $2 == "resumed" { print $3 }' "$1"; }

# ---- a complete run's journal: resumed, nothing is computed ---------------------------
"$TP" fig.pbm --parts 4 --local 2 --delay 0 --journal c.j -o c.pbm -r c.csv -q
rc=$?
"$BIN/thin" fig.pbm -o fig.seq.pbm -q
[ "$rc" = 0 ] && [ -s c.j ] && cmp -s c.pbm fig.seq.pbm
check "a run with --journal: exit $rc, the journal written, bin/thin's skeleton" $?
[ "$(resumed c.csv)" = 0 ]; check "  its record says resumed=0" $?
cp c.j keep.j
rm -f c2.pbm
"$TP" fig.pbm --parts 4 --local 2 --delay 0 --resume c.j -o c2.pbm -r c2.csv -v >c2.txt 2>&1
rc=$?
n=$(tasks c.csv)
[ "$rc" = 0 ] && cmp -s c2.pbm fig.seq.pbm
check "the complete journal resumed: exit $rc, the same skeleton" $?
[ "$(resumed c2.csv)" = "$n" ] && [ "$(computed c2.csv)" = 0 ]
check "  every result from the journal ($(resumed c2.csv) of $n), none computed ($(computed c2.csv))" $?
! grep -q "spawned worker" c2.txt
check "  no worker spawned: a journaled iteration sends nothing" $?
grep -q "resuming c.j: $n results journaled, of iterations 1 \.\. [0-9]*$" c2.txt &&
    grep -q "resumed $n (results from the journal; 0 computed)" c2.txt
check "  the log and the summary say so" $?
cmp -s c.j keep.j; check "  nothing appended to the journal" $?

# ---- another run's journal: refused, naming what differs ---------------------------
"$TP" boy.pbm --parts 4 --local 2 --delay 0 --resume c.j -o x.pbm -q >x.txt 2>&1
rc=$?
[ "$rc" = 2 ] && grep -q "iteration 1, task [0-3]: its payload is not the journal's" x.txt &&
    [ ! -e x.pbm ]
check "another image, same parts and job: refused at its first task (exit $rc: $(head -c 200 x.txt))" $?
run "another part count: refused (2)" 2 "the journal's run has 4 tasks, this one 5" \
    "$TP" fig.pbm --parts 5 --local 2 --delay 0 --resume c.j -q
run "another --slow (the job): refused (2)" 2 "another job (\"slow=1\"; this one \"slow=3\")" \
    "$TP" fig.pbm --parts 4 --local 2 --delay 0 --slow 3 --resume c.j -q
"$TP" fig.pbm --parts 4 --local 2 --delay 0 --strategy static --asp ceil --resume c.j -o s.pbm -q
rc=$?
[ "$rc" = 0 ] && cmp -s s.pbm fig.seq.pbm
check "another strategy (no result depends on it): taken, the same skeleton (exit $rc)" $?
cmp -s c.j keep.j; check "refused resumes leave the journal as it was" $?
[ -z "$(pvm_tasks thin-pool)" ]; check "no worker left running" $?

# ---- a torn tail: ignored, its result computed again ----------------------------------
size=$(wc -c <keep.j)
head -c $((size - 10)) keep.j >t.j
"$TP" fig.pbm --parts 4 --local 2 --delay 0 --resume t.j -o t.pbm -r t.csv >t.txt 2>&1
rc=$?
[ "$rc" = 0 ] && cmp -s t.pbm fig.seq.pbm
check "torn tail: exit $rc, the same skeleton" $?
grep -q "; the last [0-9]* bytes\? (from byte [0-9]* on) ignored and cut" t.txt; check "  the log says so" $?
[ "$(resumed t.csv)" = $((n - 1)) ] && [ "$(computed t.csv)" = 1 ]
check "  the last result computed again, the others journaled ($(resumed t.csv) + $(computed t.csv) = $n)" $?
"$TP" fig.pbm --parts 4 --local 2 --delay 0 --resume t.j -o t2.pbm -r t2.csv -q
[ "$?" = 0 ] && [ "$(resumed t2.csv)" = "$n" ] && cmp -s t2.pbm fig.seq.pbm
check "  the torn end was cut and the result appended: resumed again, all $n journaled" $?

# ---- a damaged entry mid-file: its checksum fails, the journal ends there -----------
# The byte in the middle of the file flipped: it is in a result's bytes (the
# journal is mostly results), its entry's length intact.
cp keep.j d.j
mid=$((size / 2))
old=$(od -An -tu1 -j "$mid" -N1 d.j | tr -d ' ')
printf "\\$(printf %03o $(((old + 1) % 256)))" | dd of=d.j bs=1 seek="$mid" conv=notrunc 2>/dev/null
! cmp -s d.j keep.j; check "a byte flipped at byte $mid" $?
"$TP" fig.pbm --parts 4 --local 2 --delay 0 --resume d.j -o d.pbm -r d.csv >d.txt 2>&1
rc=$?
r=$(resumed d.csv) k=$(computed d.csv)
[ "$rc" = 0 ] && cmp -s d.pbm fig.seq.pbm
check "damaged entry: exit $rc, the same skeleton" $?
[ -n "$r" ] && [ "$r" -ge 1 ] && [ "$r" -lt "$n" ] && [ $((r + k)) = "$n" ] &&
    grep -q "; the last [0-9]* bytes\? (from byte [0-9]* on) ignored and cut" d.txt
check "  the journal ended at it: $r journaled, $k computed again (of $n)" $?

# ---- a crafted entry of the run's kind, checksum right, not the run's ----------------
# Copies of entry 1 (its bytes): after entry 1, the same iteration and task
# twice; at the end, iteration 1 after the last.
hl=$((8 + 8 + 8 + 8 + 6 + 8))               # the header: "slow=1"
len=$(od -An -tu8 -j $((hl + 33)) -N8 keep.j | tr -d ' ')
el=$((1 + 5 * 8 + len + 8))
{ head -c $((hl + el)) keep.j; tail -c +$((hl + 1)) keep.j | head -c "$el"; } >dup.j
run "entry 1's bytes twice: refused (2), naming the entry, its byte and entry 1" 2 \
    "resume dup.j: entry 2 (at byte $((hl + el))): iteration 1, task [0-9]*: entry 1 holds it too" \
    "$TP" fig.pbm --parts 4 --local 2 --delay 0 -q --resume dup.j
{ cat keep.j; tail -c +$((hl + 1)) keep.j | head -c "$el"; } >end.j
run "entry 1's bytes appended at the end: refused (2), named" 2 \
    "resume end.j: entry $((n + 1)) (at byte $size): iteration 1 after iteration [0-9]* (a run's results come iteration by iteration)" \
    "$TP" fig.pbm --parts 4 --local 2 --delay 0 -q --resume end.j

# ---- the journal cannot be written: said, the run goes on ---------------------------
# A full device of our own (as root; /dev/full is never named: a program
# that removed its journal would remove it).
mkdir fulldir
if [ "$(id -u)" = 0 ] && mknod fulldir/full c 1 7 2>/dev/null; then
    "$TP" fig.pbm --parts 4 --local 2 --delay 0 --journal fulldir/full -o f.pbm -r f.csv >f.txt 2>&1
    rc=$?
    [ "$rc" = 0 ] && cmp -s f.pbm fig.seq.pbm
    check "a journal on a full device: the run goes on (exit $rc), the same skeleton" $?
    grep -q "journal fulldir/full: cannot write (No space left on device): the run goes on without it" f.txt
    check "  it says so ($(head -c 200 f.txt))" $?
    [ -c fulldir/full ]; check "  the device is left where it was" $?
else
    skip "a full device (mknod, root only): the journal's write failure not tried"
fi

# ---- the pvmd killed mid-run, then resumed (twice) ----------------------------------
# crash NAME ITER ARGS...: thin-pool with ARGS in the background; once it
# logs iteration ITER's end, kill -9 the pvmd (and so the run); checks the
# aftermath; starts a new pvmd.
crash() {
    name=$1 at=$2
    shift 2
    "$TP" big.pbm --parts 8 --local 3 --delay 0 --slow $SLOW --iterations $K -v \
        -o b.pbm -r b.csv "$@" >"$name.txt" 2>&1 &
    master=$!
    for _ in $(seq 600); do     # (at most 60 s)
        grep -q "iteration $at:" "$name.txt" && break
        sleep 0.1
    done
    orphans=$(pvm_tasks thin-pool)
    kill -9 "$pvmd_pid"
    killed=$pvmd_pid
    wait "$master"
    rc=$?
    master=
    [ "$rc" = 1 ]; check "$name: pvmd killed after iteration $at: thin-pool fails (exit $rc)" $?
    grep -q "the journal b.j holds [0-9]* results: the same run with --resume b.j continues it" "$name.txt"
    check "$name: it says how to resume ($(grep -v '^thin-pool: t=\|iteration [0-9]*:\|resuming' "$name.txt" | head -c 300))" $?
    [ ! -e b.pbm ] && [ ! -e b.csv ]; check "$name: no image, no record" $?
    [ -s b.j ]; check "$name: the journal is there" $?
    pvm_gone $orphans; check "$name: the workers of the killed pvmd exit (left:$pvm_left)" $?
    pvm_reborn "$tmp" "$BIN"
    check "$name: a new pvmd started (pid $pvmd_pid; the killed one was $killed)" $?
}
rm -f b.j b.pbm b.csv
"$TP" big.pbm --parts 8 --local 3 --delay 0 --slow $SLOW --iterations $K -o fresh.pbm \
    -r fresh.csv -q
rc=$?
[ "$rc" = 0 ] && cmp -s fresh.pbm ref.pbm
check "a fresh run of $K iterations: bin/thin's skeleton (exit $rc)" $?
total=$(tasks fresh.csv)
crash k1 12 --journal b.j
crash k2 25 --resume b.j
grep -q "resuming b.j: [1-9][0-9]* results journaled, of iterations 1 \.\. 1[2-9]" k2.txt
check "k2: the first resume took the journal's results ($(grep resuming k2.txt))" $?
"$TP" big.pbm --parts 8 --local 3 --delay 0 --slow $SLOW --iterations $K --resume b.j \
    -o b.pbm -r b.csv >k3.txt 2>&1
rc=$?
[ "$rc" = 0 ]; check "resumed again: exit $rc" $?
cmp -s b.pbm ref.pbm && cmp -s b.pbm fresh.pbm
check "resumed: the skeleton is bin/thin's and the fresh run's, byte for byte" $?
r=$(resumed b.csv) k=$(computed b.csv)
[ -n "$r" ] && [ "$r" -ge 1 ] && [ $((r + k)) = "$total" ] && [ "$(tasks b.csv)" = "$total" ]
check "resumed: every result once: $r journaled + $k computed = a fresh run's $total" $?
last=$(sed -n 's/.*of iterations 1 \.\. \([0-9]*\).*/\1/p' k3.txt)
first=$(awk -F, '$1 == "task" { print $2; exit }' b.csv)
[ -n "$last" ] && [ -n "$first" ] && [ "$first" -ge "$last" ] && [ "$last" -ge 25 ]
check "resumed: no task of iterations 1 .. $((last - 1)) (wholly journaled) went to a worker (the first: iteration $first)" $?
grep -q "resumed $r (results from the journal; $k computed)" k3.txt
check "resumed: the summary says so" $?
echo "pool_resume: $(grep resuming k2.txt | sed 's/^thin-pool: //'); then" \
    "$(grep resuming k3.txt | sed 's/^thin-pool: //'); $r journaled + $k computed = $total"
pvm_down; check "pvmd halted" $?
finish
