#!/bin/sh
# conventions.sh: what every program of the Makefile's PROGRAMS promises
# about its outputs, its messages and its exit status (issue 27, points 6
# and 7; docs/testing.md, "Outputs, messages, exit status"):
#  - standard output on /dev/full, or a pipe whose reader is gone: exit 1 and
#    "PROG: writing standard output: REASON", never 0 after a failed write
#    (sched/util/closeout.c);
#  - every output path on a full device, on a full disk (a 64 KiB tmpfs, as
#    root), in a read-only folder: exit 1, a message naming the program and
#    the path, the earlier file byte for byte as it was and no temporary file
#    (sched/util/outfile.c);
#  - a hostile value (an ESC byte and 100 KB) quoted into a message escaped
#    and cut at 80 characters with "..." (sched/util/quote.c), exit 2;
#  - exit 2 for bad input (a missing or bad input file, a --resume journal
#    that is missing or damaged), 1 for a failure (no pvmd), and every
#    --help says which.
# Starts its own pvmd (tests/pvmlib.sh; run under the cluster lock) and halts
# it, makes its own device nodes and tmpfs (root) and removes them, ends only
# the processes it started.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/dtss-conventions.XXXXXX)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pvmlib.sh"
mounts=
cleanup() {
    pvm_down
    for m in $mounts; do umount "$m" 2>/dev/null; done
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
export PVM_ALLOW_ROOT=yes PVM_TMP="$tmp/pvm"
mkdir -p "$PVM_TMP"
cd "$tmp" || exit 1
ENOSPC="No space left on device"

# The files of a folder, one line (temporary files, NAME.XXXXXX, show).
files() { (cd "$1" && ls -A | tr '\n' ' '); }
# with_out PATH CMD...: runs CMD, each argument '@' replaced by PATH.
with_out() {
    p=$1
    shift
    n=$#
    while [ "$n" -gt 0 ]; do
        a=$1
        shift
        [ "$a" = @ ] && a=$p
        set -- "$@" "$a"
        n=$((n - 1))
    done
    "$@"
}
# said NAME STATUS PATTERN CMD...: as run, the grep pattern fixed (-F).
said() {
    name=$1 want=$2 pat=$3
    shift 3
    "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        bad "$name: exit $rc, expected $want: $(head -c 300 "$tmp/err")"
    elif ! grep -qF -- "$pat" "$tmp/err"; then
        bad "$name: stderr lacks '$pat': $(head -c 300 "$tmp/err")"
    else
        ok "$name"
    fi
}

# ---- the inputs -----------------------------------------------------------------
"$BIN/thin-images" figures -o fig.pbm -q &&
    "$BIN/thin" fig.pbm -m 4 --trace trace.txt -q &&
    "$BIN/sim" "$root/sim/examples/two.scn" -r rec.csv -q &&
    cp "$root/dag/examples/topcuoglu.dag" g.dag
check "the inputs made (a PBM, a thin trace, a run record, a DAG)" $?

# A full device of our own (as root; /dev/full itself is never named as an
# output: a program that removed its outputs first would remove it).
mkdir fulldir
if [ "$(id -u)" = 0 ] && mknod fulldir/full c 1 7 2>/dev/null; then
    FULL=$tmp/fulldir/full
else
    FULL=/dev/full
fi
# A read-only folder: a tmpfs mounted read-only as root (root writes through
# mode bits), mode 555 otherwise.
mkdir ro
if [ "$(id -u)" = 0 ]; then
    mount -t tmpfs -o size=64k,ro tmpfs ro && mounts="$mounts $tmp/ro"
    ROERR="Read-only file system"
else
    chmod 555 ro
    ROERR="Permission denied"
fi
# A full disk: a 64 KiB tmpfs (root only), filled to the last page after
# each output's earlier file is put there.
disk=
if [ "$(id -u)" = 0 ] && mkdir disk && mount -t tmpfs -o size=64k tmpfs disk; then
    disk=$tmp/disk
    mounts="$mounts $disk"
fi

# ---- standard output ------------------------------------------------------------
# stdout_pipe NAME PROG ARGS...: standard output a pipe whose reader is gone
# (a FIFO opened read-write, then its only reader closed: every write is
# EPIPE, whatever the timing).
stdout_pipe() {
    name=$1 prog=$2
    shift 2
    rm -f fifo
    mkfifo fifo
    exec 3<>fifo 4>fifo
    exec 3<&-
    "$BIN/$prog" "$@" <"${STDIN:-/dev/null}" >&4 2>"$tmp/err"
    rc=$?
    exec 4>&-
    [ "$rc" = 1 ] && grep -qF "$prog: writing standard output: Broken pipe" "$tmp/err"
    check "$name, standard output a pipe without a reader: exit 1, said ($rc: $(head -c 200 "$tmp/err"))" $?
}
# stdout_full NAME PROG ARGS...: standard output on a full device (standard
# input: $STDIN, /dev/null by default).
stdout_full() {
    name=$1 prog=$2
    shift 2
    "$BIN/$prog" "$@" <"${STDIN:-/dev/null}" >/dev/full 2>"$tmp/err"
    rc=$?
    [ "$rc" = 1 ] && grep -qF "$prog: writing standard output: $ENOSPC" "$tmp/err"
    check "$name, standard output on /dev/full: exit 1, said ($rc: $(head -c 200 "$tmp/err"))" $?
}
stdout_both() { stdout_full "$@"; stdout_pipe "$@"; }

stdout_both chunks chunks -s tss -I 1000 -P 4
stdout_both "chunks --help" chunks --help
stdout_both "chunks, a long sequence (stops at the first failed line)" chunks -s pss -I 100000000 -P 1
stdout_both mandel mandel -S 40 -m 50
stdout_both "mandel -c -" mandel -S 40 -m 50 -c - -q
stdout_both "worker --probe" worker --probe
stdout_both tabulate tabulate --claim t1-ded-same 1,0 1,0
stdout_both record record rec.csv chunk id,size
stdout_both sim sim "$root/sim/examples/two.scn"
stdout_both "sim -c -" sim -w 'uniform n=100 cost=10' -c -
stdout_both "sim -r -" sim "$root/sim/examples/two.scn" -r - -q
stdout_both dagsched dagsched g.dag
stdout_both daggen daggen
stdout_both dagexp dagexp -n 2 -v 20
stdout_both "matrix --sequential" matrix --sequential -n 4 --scale 0.05
stdout_both thin thin fig.pbm
stdout_both "thin -o -" thin fig.pbm -o - -q
stdout_both "thin --trace -" thin fig.pbm -m 4 --trace - -q
stdout_both thin-images thin-images figures -o fig2.pbm
stdout_both "thin-images -o -" thin-images figures -o - -q
stdout_both pooltrace pooltrace trace.txt
stdout_both yoon-plan yoon-plan --remaining 5,5 --done 1,2 --elapsed 1 --ct 0
stdout_both heat heat --nx 8 --ny 8 --steps 2
stdout_both "heat --raw -" heat --nx 8 --ny 8 --steps 2 --raw -
stdout_both yoon-sim yoon-sim -P 4 -n 10
stdout_both "yoon-sim, a sweep" yoon-sim -P 4,8 -n 10 -k 3
stdout_both "loop --sequential" loop --sequential -w 'uniform n=100 cost=10'
stdout_both "jacobi --sequential" jacobi --sequential
stdout_both "readings --help" readings --help
stdout_both "integral --help" integral --help
echo 1 2 3 >nums.txt
STDIN=nums.txt
stdout_both stats stats
STDIN=/dev/null

# ---- output paths ---------------------------------------------------------------
# path_cases NAME PROG OPT FILE ARGS... (ARGS with @ for the output path):
# the path on a full device, on a full disk (the earlier file kept byte for
# byte, no temporary file) and in a read-only folder, each exit 1 with a
# message naming the program and the path. With KEEP=0 the program removes
# an earlier output when its run starts (bin/coordinator: no earlier run's
# file passes for this one's): then no file at all is left. With JOURNAL=1
# the run's journal stays beside a record that could not be written (to
# resume the run, bin/coordinator --resume).
path_cases() {
    name=$1 prog=$2 opt=$3 file=$4
    shift 4
    with_out "$FULL" "$BIN/$prog" "$@" </dev/null >/dev/null 2>"$tmp/err"
    rc=$?
    left=$(files fulldir)
    [ "$rc" = 1 ] && grep -qF "$prog: writing $FULL: $ENOSPC" "$tmp/err" &&
        [ "$left" = "$(basename "$FULL") ${JOURNAL:+$(basename "$FULL").journal }" -o \
          "$FULL" = /dev/full ]
    check "$name: $opt on a full device: exit 1, said, nothing left ($rc: $(head -c 200 "$tmp/err"); $left)" $?
    rm -f "$FULL.journal"
    with_out "$tmp/ro/$file" "$BIN/$prog" "$@" </dev/null >/dev/null 2>"$tmp/err"
    rc=$?
    [ "$rc" = 1 ] && grep -q "^$prog: .*$tmp/ro/$file.*: $ROERR" "$tmp/err" &&
        [ "$(files ro)" = "" ]
    check "$name: $opt in a read-only folder: exit 1, said ($rc: $(head -c 200 "$tmp/err"))" $?
    if [ -n "$disk" ]; then
        rm -rf "${disk:?}"/*
        printf 'the earlier file\n' >"$disk/$file"
        dd if=/dev/zero of="$disk/filler" bs=4k 2>/dev/null     # to the last page
        with_out "$disk/$file" "$BIN/$prog" "$@" </dev/null >/dev/null 2>"$tmp/err"
        rc=$?
        if [ "${KEEP:-1}" = 1 ]; then
            [ "$(cat "$disk/$file" 2>/dev/null)" = "the earlier file" ] &&
                [ "$(files "$disk")" = "filler $file " ]
        else
            [ "$(files "$disk")" = "filler " ]
        fi
        kept=$?
        [ "$rc" = 1 ] && grep -qF "$prog: writing $disk/$file: $ENOSPC" "$tmp/err" && [ $kept = 0 ]
        check "$name: $opt on a full disk: exit 1, said, the earlier file kept, no temporary file ($rc: $(head -c 200 "$tmp/err"); $(files "$disk"))" $?
    else
        skip "$name: $opt on a full disk: not root (no tmpfs)"
    fi
}

path_cases mandel mandel --out x.pgm -S 40 -m 50 -o @ -q
path_cases "mandel --costs" mandel --costs x.csv -S 40 -m 50 -c @ -q
path_cases "sim --record" sim --record x.csv "$root/sim/examples/two.scn" -r @ -q
path_cases "sim --costs" sim --costs x.csv -w 'uniform n=100 cost=10' -c @
path_cases daggen daggen --output x.dag -o @
path_cases thin thin --out x.pbm fig.pbm -o @ -q
path_cases "thin --trace" thin --trace x.txt fig.pbm -m 4 --trace @ -q
path_cases thin-images thin-images --out x.pbm figures -o @ -q
path_cases heat heat --out x.pgm --nx 8 --ny 8 --steps 2 -o @
path_cases "heat --raw" heat --raw x.raw --nx 8 --ny 8 --steps 2 --raw @
if command -v gnuplot >/dev/null 2>&1; then
    path_cases "dagsched --gantt" dagsched --gantt x.png g.dag -g @
else
    skip "dagsched --gantt: no gnuplot"
fi
# tabulate writes PREFIX.md, .csv, -runs.csv: the first on the full device.
"$BIN/mandel" -S 40 -m 100 -R 4 -c costs.csv -q
for scen in dedicated nondedicated; do
    mkdir -p t1/$scen
    printf 'host w1 speed=1e5\nhost w2 speed=1e5\n' >t1/$scen/plat
    printf 'seq 1\nhost w1 0.5 1\nhost w2 0.5 1\n' >t1/$scen/info
    for s in tss dtss; do
        printf 'platform plat\nworkload mandel costs=%s\nscheme %s\nsample 4\n' "$tmp/costs.csv" \
            $s >t1/$scen/$s.scn
        "$BIN/sim" t1/$scen/$s.scn -r t1/$scen/$s-1.csv -q
    done
done
"$BIN/tabulate" --table 1 --dir t1 --costs costs.csv --out tab
check "tabulate: its inputs read (simulated Table 1)" $?
if [ "$FULL" != /dev/full ]; then
    mknod fulldir/tab.md c 1 7
    "$BIN/tabulate" --table 1 --dir t1 --costs costs.csv --out fulldir/tab >/dev/null 2>"$tmp/err"
    rc=$?
    [ "$rc" = 1 ] && grep -qF "tabulate: writing fulldir/tab.md: $ENOSPC" "$tmp/err" &&
        [ "$(files fulldir)" = "full tab.md " ]
    check "tabulate: PREFIX.md on a full device: exit 1, said, nothing left ($rc: $(head -c 200 "$tmp/err"))" $?
    rm -f fulldir/tab.md
else
    skip "tabulate: a device of our own needs root"
fi
said "tabulate: --out in a read-only folder: exit 1 before the work" 1 \
    "tabulate: --out $tmp/ro/tab.md: cannot write there: $ROERR" \
    "$BIN/tabulate" --table 1 --dir t1 --costs costs.csv --out "$tmp/ro/tab"
if [ -n "$disk" ]; then
    rm -rf "${disk:?}"/*
    printf 'the earlier file\n' >"$disk/tab.md"
    dd if=/dev/zero of="$disk/filler" bs=4k 2>/dev/null
    said "tabulate: on a full disk: exit 1, said" 1 "tabulate: writing $disk/tab.md: $ENOSPC" \
        "$BIN/tabulate" --table 1 --dir t1 --costs costs.csv --out "$disk/tab"
    [ "$(cat "$disk/tab.md")" = "the earlier file" ] && [ "$(files "$disk")" = "filler tab.md " ]
    check "tabulate: on a full disk, the earlier file kept, no temporary file ($(files "$disk"))" $?
fi
# readings writes six files into DIR.
said "readings: --out a read-only folder: exit 1 before the work" 1 \
    "readings: cannot write $tmp/ro/readings-runs.csv: $ROERR" \
    "$BIN/readings" --out "$tmp/ro" -S 40 -m 100 -R 1 --loops rows --F a --orders paper -q
if [ -n "$disk" ]; then
    rm -rf "${disk:?}"/*
    dd if=/dev/zero of="$disk/filler" bs=4k 2>/dev/null
    "$BIN/readings" --out "$disk" -S 40 -m 100 -R 1 --loops rows --F a --orders paper -q \
        >/dev/null 2>"$tmp/err"
    rc=$?
    [ "$rc" = 1 ] && grep -q "^readings: writing $disk/readings[^ ]*: $ENOSPC" "$tmp/err" &&
        [ "$(files "$disk")" = "filler " ]
    check "readings: on a full disk: exit 1, said, no file ($rc: $(head -c 200 "$tmp/err"); $(files "$disk"))" $?
fi

# The scripts' pictures (scripts/plot, and the same publish_png in
# yoon-figs and league-plot): gnuplot exits 0 on a full disk, so the PNG is
# checked whole and put in place whole or not at all.
if command -v gnuplot >/dev/null 2>&1; then
    plot_case() {   # NAME PATH MESSAGE KEEP
        "$root/scripts/plot" fig3 costs.csv "$2" >/dev/null 2>"$tmp/err"
        rc=$?
        [ "$rc" = 1 ] && grep -qF "$3" "$tmp/err"
        check "scripts/plot, $1: exit 1, said ($rc: $(head -c 200 "$tmp/err"))" $?
    }
    plot_case "a full device" "$FULL" "plot: cannot write $FULL"
    plot_case "a read-only folder" "$tmp/ro/x.png" "plot: cannot write $tmp/ro/x.png"
    if [ -n "$disk" ]; then
        rm -rf "${disk:?}"/*
        printf 'the earlier file\n' >"$disk/x.png"
        dd if=/dev/zero of="$disk/filler" bs=4k 2>/dev/null
        plot_case "a full disk" "$disk/x.png" "plot: cannot write $disk/x.png"
        [ "$(cat "$disk/x.png")" = "the earlier file" ] && [ "$(files "$disk")" = "filler x.png " ]
        check "scripts/plot, a full disk: the earlier picture kept, no temporary file ($(files "$disk"))" $?
    fi
    TMPDIR=$disk "$root/scripts/plot" fig3 costs.csv "$tmp/y.png" >/dev/null 2>"$tmp/err"
    rc=$?
    [ -z "$disk" ] || { [ "$rc" != 0 ] && [ ! -e "$tmp/y.png" ]; }
    check "scripts/plot, its temporary folder on a full disk: refused, nothing made ($rc: $(head -c 200 "$tmp/err"))" $?
else
    skip "scripts/plot: no gnuplot"
fi

# ---- a hostile value in a message ------------------------------------------------
# An ESC (a terminal's colour code) and 100 KB: shown as its first 80
# characters, escaped, then "..."; the message one short line; exit 2.
x70=$(printf '%070d' 0 | tr 0 x)
big=$(printf 'a\033[31mb'; head -c 102400 /dev/zero | tr '\0' x)
want="a\\x1b[31mb$x70..."
esc=$(printf '\033')
# hostile NAME PROG ARGS... (ARGS with @ for the value)
hostile() {
    name=$1 prog=$2
    shift 2
    with_out "$big" "$BIN/$prog" "$@" </dev/null >/dev/null 2>"$tmp/err"
    rc=$?
    size=$(wc -c <"$tmp/err")
    [ "$rc" = 2 ] && grep -qF -- "$want" "$tmp/err" && ! grep -q "$esc" "$tmp/err" &&
        [ "$size" -lt 1000 ] && grep -q "^$prog: " "$tmp/err"
    check "$name: a 100 KB value with an ESC byte quoted and cut, exit 2 ($rc, $size bytes: $(head -c 200 "$tmp/err"))" $?
}
hostile chunks chunks -I @ -P 1
hostile mandel mandel --size @
hostile worker worker --probe --backend @
hostile coordinator coordinator --size @
hostile integral integral -n @
hostile loop loop --seed @ -w 'uniform n=10' 
hostile tabulate tabulate --table @ --dir t1 --out tab
hostile record record rec.csv @ finish
hostile sim sim "$root/sim/examples/two.scn" --sample @
hostile "sim, a scheme" sim "$root/sim/examples/two.scn" --scheme @
hostile dagsched dagsched --format @ g.dag
hostile daggen daggen --tasks @
hostile dagexp dagexp --graphs @
hostile matrix matrix --count @
hostile thin thin fig.pbm --iterations @
hostile thin-images thin-images figures -o x.pbm --copies @
hostile thin-pool thin-pool fig.pbm --parts @
hostile pooltrace pooltrace trace.txt --delay @
hostile yoon-plan yoon-plan --remaining 1 --done 1 --ct 0 --elapsed @
hostile heat heat --nx @
hostile readings readings --out . --size @
hostile yoon-sim yoon-sim --seed @
hostile netpipe netpipe --max @
hostile yoon-tasks yoon-tasks --tasks @
hostile heat-pvm heat-pvm --nx @
hostile jacobi jacobi --delay @
hostile "jacobi, the runtime's --hosts" jacobi --local @
hostile "coordinator, the runtime's --late" coordinator --late @
hostile "an unexpected argument" chunks @
printf '%s\n' "$big" >bigline.txt
"$BIN/stats" <bigline.txt >/dev/null 2>"$tmp/err"
rc=$?
[ "$rc" = 2 ] && grep -qF -- "$want" "$tmp/err" && [ "$(wc -c <"$tmp/err")" -lt 1000 ]
check "stats: a 100 KB line with an ESC quoted and cut, exit 2 ($rc: $(head -c 200 "$tmp/err"))" $?
# A value read from a file: a platform line's.
printf 'host %s speed=1\n' "$big" >plat.txt
printf 'platform plat.txt\nworkload uniform n=10\nscheme tss\n' >bad.scn
said "sim: a host name of 100 KB with an ESC from a platform file, quoted and cut" 2 "$want" \
    "$BIN/sim" bad.scn
printf 'processors 1\ntask %s 1\n' "$big" >bad.dag
said "dagsched: a task name of 100 KB from a file, quoted and cut" 2 "$want" "$BIN/dagsched" bad.dag
printf 'processors 1\ntask a\033b 1\n' >esc.dag
said "dagsched: a task name with an ESC from a file: escaped" 2 "task 'a\\x1bb': a task name may not" \
    "$BIN/dagsched" esc.dag
printf '\377\376 binary\n' >bin.pbm
said "thin: raw binary as a PBM: escaped" 2 "not a PBM image" "$BIN/thin" bin.pbm
printf 'P1\n2 2\n1 \001 0 1\n' >ctl.pbm
said "thin: a control byte in a PBM raster, escaped" 2 "'\\x01' in a plain (P1) raster" \
    "$BIN/thin" ctl.pbm

# ---- exit status: 2 for bad input, 1 for a failure --------------------------------
said "sim: a missing scenario: 2" 2 "sim: nothere.scn: No such file or directory" \
    "$BIN/sim" nothere.scn
said "record: not a run record: 2" 2 "record: costs.csv:1: unknown record kind 'index'" \
    "$BIN/record" costs.csv run finish
said "tabulate: a missing folder: 2" 2 "tabulate: nodir/dedicated: No such file or directory" \
    "$BIN/tabulate" --table 1 --dir nodir --out tab
said "dagsched: a missing file: 2" 2 "dagsched: nothere.dag: No such file or directory" \
    "$BIN/dagsched" nothere.dag
said "thin: a missing image: 2" 2 "thin: nothere.pbm: No such file or directory" \
    "$BIN/thin" nothere.pbm
said "pooltrace: not a trace: 2" 2 "pooltrace: costs.csv:1: not a thin trace" \
    "$BIN/pooltrace" costs.csv
said "stats: no numbers: 2" 2 "stats: no numbers" sh -c "'$BIN/stats' </dev/null"
said "thin-images: a missing font: 2" 2 "thin-images: font 'nofont': No such file or directory" \
    "$BIN/thin-images" letters --font nofont -o x.pbm
# No pvmd yet (this PVM_TMP has none): a failure, 1.
said "coordinator: no pvmd: 1" 1 "no PVM daemon" "$BIN/coordinator" --local 1 -S 8 -o none -r none -q
said "matrix: no pvmd: 1" 1 "no PVM daemon" "$BIN/matrix" --local 1 -n 2 --scale 0.05 -q
# ... with what libpvm could not do (its own line, which it printed on stderr)
said "coordinator: no pvmd: libpvm's reason in the message" 1 \
    "(pvm_mytid: Can't contact local daemon; libpvm: $PVM_TMP/pvmd.$(id -u): No such file or directory)" \
    "$BIN/coordinator" --local 1 -S 8 -o none -r none -q
mkdir -p emptyaddr && : >emptyaddr/pvmd."$(id -u)"
said "coordinator: an empty address file: libpvm's reason" 1 \
    "libpvm: mksocs() read addr file: wrong length read)" \
    env PVM_TMP="$PWD/emptyaddr" "$BIN/coordinator" --local 1 -S 8 -o none -r none -q
said "pvm_ready: no pvmd: 1, said" 1 "pvm_ready: no PVM daemon to talk to" "$BIN/pvm_ready"
# --resume: a journal missing or not a journal is bad input, 2.
said "coordinator --resume: no journal: 2" 2 "coordinator: --resume nojournal.csv.journal" \
    "$BIN/coordinator" --resume nojournal.csv
head -c 300 /dev/urandom >junk.csv.journal
said "coordinator --resume: a damaged journal: 2" 2 "not a journal" "$BIN/coordinator" --resume junk.csv
said "loop --resume: a damaged journal: 2" 2 "not a journal" "$BIN/loop" --resume junk.csv.journal \
    -w 'uniform n=10 cost=1'
said "matrix --resume: a damaged journal: 2" 2 "not a journal" "$BIN/matrix" --resume junk.csv.journal
said "integral --resume: no journal: 2" 2 "--resume nojournal" "$BIN/integral" --resume nojournal

# Every program's --help: on standard output, exit 0, and it says which
# status means what (1 and 2).
for p in chunks mandel worker coordinator integral loop tabulate record sim stats dagsched daggen \
         dagexp matrix thin thin-images thin-pool pooltrace yoon-plan heat readings yoon-sim \
         netpipe yoon-tasks heat-pvm jacobi; do
    "$BIN/$p" --help >"$tmp/out" 2>"$tmp/err"
    rc=$?
    text=$(tr '\n' ' ' <"$tmp/out" | grep -io "exit status:.\{0,300\}")
    [ "$rc" = 0 ] && [ ! -s "$tmp/err" ] && echo "$text" | grep -q " 1 " &&
        echo "$text" | grep -q "; 2 \|, 2 \| 2 for "
    check "$p --help: on standard output, exit 0, says what 1 and 2 mean ($rc: ${text:-no 'exit status'})" $?
done

# ---- the PVM programs, on a private virtual machine -------------------------------
pvm_up "$tmp" "$BIN"
check "private pvmd started (pid $pvmd_pid)" $?
stdout_both coordinator coordinator --local 1 -S 40 -m 50 -o none -r none
stdout_both integral integral --local 1 -n 20
# --resume without -n: the journal's iterations, not the default 2000.
"$BIN/integral" --local 1 -n 20 --journal "$tmp/int.jnl" >"$tmp/int1" 2>&1
"$BIN/integral" --local 1 --resume "$tmp/int.jnl" >"$tmp/int2" 2>"$tmp/int2.err"
rc=$?
[ "$rc" = 0 ] && [ -n "$(grep '^pi = ' "$tmp/int1")" ] &&
    [ "$(grep '^pi = ' "$tmp/int1")" = "$(grep '^pi = ' "$tmp/int2")" ]
check "integral --resume without -n: the journal's 20 iterations, the same pi (exit $rc: $(head -c 200 "$tmp/int2.err"))" $?
stdout_both loop loop --local 1 -w 'uniform n=20 cost=10'
stdout_both matrix matrix --local 1 -n 4 --scale 0.05 -q
stdout_both thin-pool thin-pool fig.pbm --parts 2 --local 1 --delay 0
stdout_both netpipe netpipe --max 16 --trials 1 --time 0.001 -q
stdout_both yoon-tasks yoon-tasks --local 2 -n 10 -m 0.001
stdout_both heat-pvm heat-pvm --nx 8 --ny 8 --steps 2 --local 2
stdout_both jacobi jacobi --local 1
# (an image and a record larger than the page the coordinator frees when it
# removes the earlier file)
KEEP=0
path_cases coordinator coordinator --out x.pgm --local 1 -S 300 -m 50 -o @ -r none -q
JOURNAL=1
path_cases "coordinator --record" coordinator --record x.csv --local 1 -S 300 -m 50 -s pss -o none \
    -r @ -q
JOURNAL=
KEEP=1
path_cases "loop --record" loop --record x.csv --local 1 -w 'uniform n=20 cost=10' -r @ -q
path_cases "matrix --record" matrix --record x.csv --local 1 -n 4 --scale 0.05 -r @ -q
path_cases thin-pool thin-pool --out x.pbm fig.pbm --parts 2 --local 1 --delay 0 -o @ -q
path_cases "thin-pool --record" thin-pool --record x.csv fig.pbm --parts 2 --local 1 --delay 0 -r @ -q
path_cases netpipe netpipe --output x.csv --max 16 --trials 1 --time 0.001 -q -o @
path_cases yoon-tasks yoon-tasks --record x.csv --local 2 -n 10 -m 0.001 -q -o @
path_cases heat-pvm heat-pvm --out x.pgm --nx 8 --ny 8 --steps 2 --local 2 -o @
path_cases "heat-pvm --raw" heat-pvm --raw x.raw --nx 8 --ny 8 --steps 2 --local 2 --raw @
path_cases "heat-pvm --record" heat-pvm --record x.csv --nx 8 --ny 8 --steps 2 --local 2 --record @
said "coordinator: an unknown host is bad input: 2" 2 "--hosts: no host 'nosuchhost'" \
    "$BIN/coordinator" --hosts nosuchhost -S 8 -o none -r none -q
said "yoon-tasks: an unknown host is bad input: 2" 2 "nosuchhost" \
    "$BIN/yoon-tasks" --hosts nosuchhost -n 4 -q
pvm_down; check "pvmd halted" $?
finish
