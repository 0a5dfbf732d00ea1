#!/bin/sh
# outputs.sh: what the programs write and how much a job may ask for
# (issue 12). An output that cannot be written is refused before anything
# is computed or PVM is contacted; outputs are written whole or not at all
# (a full disk, on a small tmpfs as root: the previous file byte for byte,
# no temporary file left); an image over mandel_check's limits is refused by
# the coordinator (exit 2, nothing started) and by a worker sent one; a
# worker inside a long row stops when its coordinator is killed. Starts its
# own pvmd (own PVM_TMP) and halts it, mounts and unmounts its own tmpfs,
# ends only the processes it started.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/dtss-outputs.XXXXXX)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pvmlib.sh"
mnt=
cleanup() {
    pvm_down
    [ -n "$mnt" ] && umount "$mnt" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
# No pvmd under this PVM_TMP yet: a program that contacted PVM would say
# "no PVM daemon" instead of what is checked.
export PVM_ALLOW_ROOT=yes PVM_TMP="$tmp/pvm"
mkdir -p "$PVM_TMP"
umask 022
now_ms() { date +%s%N | cut -b1-13; }
# quick NAME STATUS PATTERN CMD...: run, and within a second.
quick() {
    t0=$(now_ms)
    run "$@"
    ms=$(($(now_ms) - t0))
    [ "$ms" -lt 1000 ]; check "$1: within a second (${ms} ms)" $?
}
# The files of a folder, one line: temporary files (NAME.XXXXXX) show.
files() { (cd "$1" && ls -A | tr '\n' ' '); }

# ---- outputs checked before anything starts (no PVM) ------------------------
quick "--out in a missing folder: exit 1 naming the file and the error" 1 \
    "coordinator: --out $tmp/nonexist/x.pgm: cannot write there: No such file or directory" \
    timeout 10 "$BIN/coordinator" --local 1 -o "$tmp/nonexist/x.pgm" -r none
: >"$tmp/plain"
quick "--record under a file: exit 1 naming the file and the error" 1 \
    "coordinator: --record $tmp/plain/r.csv: cannot write there: Not a directory" \
    timeout 10 "$BIN/coordinator" --local 1 -o none -r "$tmp/plain/r.csv"
quick "--out a folder: exit 1" 1 "coordinator: --out $tmp: cannot write there: Is a directory" \
    timeout 10 "$BIN/coordinator" --local 1 -o "$tmp" -r none
mkdir "$tmp/ro"
if [ "$(id -u)" = 0 ]; then
    mount -t tmpfs -o size=64k,ro tmpfs "$tmp/ro"; ro=$?
    check "a read-only folder (tmpfs mounted ro)" $ro
    err="Read-only file system"
else
    chmod 555 "$tmp/ro"; ro=0
    err="Permission denied"
fi
quick "--out in an unwritable folder: exit 1" 1 \
    "coordinator: --out $tmp/ro/x.pgm: cannot write there: $err" \
    timeout 10 "$BIN/coordinator" --local 1 -o "$tmp/ro/x.pgm"
quick "--record in an unwritable folder: exit 1" 1 \
    "coordinator: --record $tmp/ro/x.csv: cannot write there: $err" \
    timeout 10 "$BIN/coordinator" --local 1 -o none -r "$tmp/ro/x.csv"
quick "matrix --record in an unwritable folder: exit 1" 1 \
    "matrix: --record $tmp/ro/x.csv: cannot write there: $err" \
    timeout 10 "$BIN/matrix" --local 1 -r "$tmp/ro/x.csv"
[ "$(id -u)" = 0 ] && [ "$ro" = 0 ] && umount "$tmp/ro"
# A good path passes the check: then the missing pvmd is what stops it.
mkdir "$tmp/good"
run "good outputs: the run goes on to PVM" 1 "no PVM daemon" \
    timeout 10 "$BIN/coordinator" --local 1 -o "$tmp/good/x.pgm" -r "$tmp/good/x.csv" -q
[ "$(files "$tmp/good")" = "" ]
check "the check leaves no file behind ($(files "$tmp/good"))" $?

# ---- the image's limits ------------------------------------------------------
quick "a row over the limit: exit 2 before anything starts" 2 \
    "coordinator: width 2147483647 is over the limit of 65536 pixels a row" \
    timeout 10 "$BIN/coordinator" -W 2147483647 --local 1
quick "an image over the limit: exit 2" 2 \
    "coordinator: 8193x8193 = 67125249 pixels is over the limit of 67108864" \
    timeout 10 "$BIN/coordinator" -S 8193 --local 1
run "the largest row is allowed (then: no pvmd)" 1 "no PVM daemon" \
    timeout 10 "$BIN/coordinator" -W 65536 -H 1024 --local 1 -o none -r none -q
run "bin/mandel has the same limits" 2 "over the limit of 65536" \
    timeout 10 "$BIN/mandel" -W 65537 -H 1 -q

# ---- a full disk: a 64 KiB tmpfs ---------------------------------------------
full=
if [ "$(id -u)" = 0 ] && mkdir "$tmp/full" && mount -t tmpfs -o size=64k tmpfs "$tmp/full"; then
    full=1
    mnt=$tmp/full
    "$BIN/mandel" -S 100 -m 50 -o "$mnt/img.pgm" -q && cp "$mnt/img.pgm" "$tmp/prev.pgm"
    check "a previous image (10 KB) on the tmpfs" $?
    run "bin/mandel, a 90 KB image on a full disk: exit 1, the error said" 1 \
        "mandel: writing $mnt/img.pgm: No space left on device" \
        "$BIN/mandel" -S 300 -m 50 -o "$mnt/img.pgm" -q
    cmp -s "$tmp/prev.pgm" "$mnt/img.pgm"
    check "full disk: the previous image is byte for byte as it was" $?
    [ "$(files "$mnt")" = "img.pgm " ]
    check "full disk: no temporary file left ($(files "$mnt"))" $?
else
    skip "not root or no tmpfs: the full-disk checks need a mount"
fi

# ---- a private virtual machine ---------------------------------------------------
pvm_up "$tmp" "$BIN"
check "private pvmd started (pid $pvmd_pid)" $?
cd "$tmp" || exit 1
workers() { pvm_tasks worker; }

mkdir res
"$BIN/mandel" -S 96 -m 400 -o ref.pgm -q
run "a run writes its image and record" 0 "^dtss: W1" \
    timeout 60 "$BIN/coordinator" --local 2 -S 96 -m 400 -o res/img.pgm -r res/rec.csv -q
[ "$(files res)" = "img.pgm rec.csv " ]
check "a run leaves its two files and no temporary one ($(files res))" $?
cmp -s ref.pgm res/img.pgm; check "its image is bin/mandel's" $?
[ "$("$BIN/record" --count res/rec.csv chunk 2>/dev/null)" -gt 0 ] 2>/dev/null
check "its record reads back" $?
[ "$(stat -c %a res/img.pgm res/rec.csv | tr '\n' ' ')" = "644 644 " ]
check "new files get the usual mode under umask 022 ($(stat -c %a res/img.pgm res/rec.csv | tr '\n' ' '))" $?
run "matrix: a run writes its record" 0 "^checksum" \
    timeout 60 "$BIN/matrix" --local 1 -n 8 --scale 0.1 -r res/m.csv -q
[ "$(files res)" = "img.pgm m.csv rec.csv " ]
check "matrix: its record and no temporary file ($(files res))" $?

if [ -n "$full" ]; then
    run "coordinator, a 90 KB image on a full disk: exit 1, the error said" 1 \
        "coordinator: writing $mnt/img.pgm: No space left on device" \
        timeout 60 "$BIN/coordinator" --local 2 -S 300 -m 50 -o "$mnt/img.pgm" -r "$mnt/rec.csv" -q
    [ "$(files "$mnt")" = "rec.csv " ]
    check "coordinator, full disk: no half image, no temporary file, the record written ($(files "$mnt"))" $?
    "$BIN/record" --count "$mnt/rec.csv" chunk >/dev/null 2>&1
    check "coordinator, full disk: the record is whole" $?
    rm -f "$mnt"/*
    cp res/m.csv "$mnt/rec.csv" && [ -s "$mnt/rec.csv" ]
    check "an earlier matrix record on the tmpfs" $?
    dd if=/dev/zero of="$mnt/filler" bs=1k count=1024 2>/dev/null   # the rest of the disk
    run "matrix, its record on a full disk: exit 1, the error said" 1 \
        "matrix: writing $mnt/rec.csv: No space left on device" \
        timeout 60 "$BIN/matrix" --local 1 -n 8 --scale 0.1 -r "$mnt/rec.csv" -q
    cmp -s res/m.csv "$mnt/rec.csv"
    check "matrix, full disk: the previous record is byte for byte as it was" $?
    [ "$(files "$mnt")" = "filler rec.csv " ]
    check "matrix, full disk: no temporary file left ($(files "$mnt"))" $?
    umount "$mnt" && mnt=
    check "tmpfs unmounted" $?
fi

# ---- a worker refuses a job over the limits ------------------------------------------
# A master that sends bin/worker the job it is given, as is (the
# coordinator would refuse to send this one).
case $BIN in
    */build/san/bin) lib=${BIN%/bin}/libdtss.a; san="-fsanitize=address,undefined" ;;
    *) lib=$root/build/obj/libdtss.a; san= ;;
esac
cat >sender.c <<'EOF'
#include <stdio.h>
#include <string.h>
#include "runtime/dtss.h"
int main(int argc, char **argv)
{
    dtss_master *m = dtss_master_new();
    dtss_piece p;
    int rc;
    if (!m || argc != 2)
        return 2;
    dtss_master_set(m, "worker", "worker");
    dtss_master_set(m, "local", "1");
    dtss_master_set(m, "iterations", "1");
    dtss_master_job(m, argv[1], strlen(argv[1]) + 1);
    if ((rc = dtss_master_start(m)) == DTSS_OK)
        while ((rc = dtss_master_next(m, &p)) == DTSS_PIECE)
            ;
    printf("%s\n", rc == DTSS_DONE ? "done" : dtss_master_errmsg(m));
    dtss_master_free(m);
    return rc == DTSS_DONE ? 0 : 1;
}
EOF
if [ -f "$lib" ] && cc -std=c11 $san -I"$root" -o sender sender.c "$lib" -lpvm3 -lgsl -lgslcblas -lm \
        >cc.out 2>&1; then
    region="-0x1p+1 -0x1p+1 0x1p+1 0x1p+1"
    run "a job of one 64-pixel row: done (the sender works)" 0 "^done" \
        timeout 20 ./sender "mandel1 64 1 100 $region"
    quick "a job of a 2147483647-pixel row: the worker refuses it at once" 1 \
        "worker 0: width 2147483647 is over the limit of 65536 pixels a row" \
        timeout 20 ./sender "mandel1 2147483647 1 100 $region"
    quick "a job of 2^31 pixels in all: refused" 1 "over the limit of 67108864" \
        timeout 20 ./sender "mandel1 1024 2097152 100 $region"
else
    skip "no compiler or no $lib: the worker's own refusal not checked ($(head -c 200 cc.out 2>/dev/null))"
fi

# ---- the coordinator killed inside a long row: its worker stops ---------------------------
# One row of 65536 pixels along the real axis at maxiter 10^6: more than half
# its pixels take 10^6 iterations, a minute or more of one piece. The worker
# must be gone within 3 s of the kill (self-scheduling and Tree alike).
for s in dtss tree; do
    rm -f long.pgm long.csv long.csv.journal
    "$BIN/coordinator" -s $s --local 1 -W 65536 -H 1 -m 1000000 -R 1 -o long.pgm -r long.csv \
        >long.out 2>&1 &
    coord=$!
    w=
    for _ in $(seq 100); do
        w=$(workers | head -n 1)
        [ -n "$w" ] && break
        sleep 0.05
    done
    sleep 1
    state=$(awk '{ print $3 }' /proc/"${w:-0}"/stat 2>/dev/null)
    [ "$state" = R ]
    check "$s, a long row: the worker computes it (pid ${w:-none}, state ${state:-gone})" $?
    rss=$(awk '/^VmRSS/ { print $2 }' /proc/"${w:-0}"/status 2>/dev/null)
    [ -n "$rss" ] && [ "$rss" -lt 65536 ]
    check "$s, a long row: the worker holds little memory (${rss:-?} KiB)" $?
    kill -9 "$coord"
    wait "$coord" 2>/dev/null
    t0=$(now_ms)
    timeout 3 sh -c "while kill -0 ${w:-0} 2>/dev/null; do sleep 0.05; done"
    gone=$?
    check "$s, coordinator killed: its worker stops inside the row within 3 s ($(($(now_ms) - t0)) ms)" $gone
    [ "$gone" = 0 ] || kill "$w" 2>/dev/null
    [ ! -e long.pgm ] && [ "$(ls long.pgm.* long.csv.* 2>/dev/null | grep -v '\.journal$')" = "" ]
    check "$s, coordinator killed: no image, no temporary file" $?
    [ -s long.csv.journal ]
    check "$s, coordinator killed: its journal stays, for --resume" $?
done

pvm_down; check "pvmd halted" $?
finish
