#!/bin/sh
# install.sh: libdtss as a user gets it. `make install PREFIX=...` puts the
# header, library, pkg-config file and man page there; a user's program --
# examples/integral.c, copied away from the source tree -- compiles with
# nothing but `cc $(pkg-config --cflags --libs dtss)` and runs on a private
# PVM with every scheme and 1-4 workers, giving pi (every iteration counted
# once: a lost or doubled iteration moves the sum by 1.6e-3); `make
# uninstall` removes exactly what install put there. The installed man page
# dtss(3) renders without a groff warning and lists the whole interface, each
# list taken from the library itself, not copied: every function the
# installed dtss.h declares (in its SYNOPSIS), every scheme the library
# accepts (its own list, in the error for an unknown one: in SCHEMES) and
# every option each model's master takes (dtss_master_usage, dtss_pool_usage,
# dtss_lb_usage, dtss_strips_usage: in OPTIONS, under the model). Ends only
# what it started.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/dtss-install.XXXXXX)
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/pvmlib.sh"
cleanup() {
    pvm_down
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

# The library a user installs is the plain build (umake, tests/lib.sh).
prefix="$tmp/pre fix"               # a space, to keep the prefix data
mkdir -p "$tmp/before" && : >"$tmp/before/keep"
umake -s -C "$REPO" install PREFIX="$prefix" >"$tmp/inst.out" 2>&1
check "make install PREFIX=... (a space in it)" $?
for f in include/dtss.h lib/libdtss.a lib/libdtss-mpi.a lib/pkgconfig/dtss.pc \
         lib/pkgconfig/dtss-mpi.pc share/man/man3/dtss.3; do
    [ -f "$prefix/$f" ]; check "installed $f" $?
done
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
flags=$(pkg-config --cflags --libs dtss 2>&1)
check "pkg-config --cflags --libs dtss: $flags" $?
pkg-config --modversion dtss | grep -qx "1.0"; check "pkg-config knows the version" $?
man -l "$prefix/share/man/man3/dtss.3" 2>/dev/null | grep -q "dtss_master_next"
check "man page dtss(3) renders" $?

# The user's program, away from the source tree: only the installed files.
mkdir -p "$tmp/user" && cp "$REPO/examples/integral.c" "$tmp/user/"
cd "$tmp/user" || exit 1
# The prefix holds a space: pkg-config's output is split at it, so the
# flags are given by hand from pkg-config's variables (as a user would).
inc=$(pkg-config --variable=includedir dtss)
lib=$(pkg-config --variable=libdir dtss)
libs=$(pkg-config --libs-only-l dtss)
# shellcheck disable=SC2086
cc -std=c11 -Wall -Wextra -o integral integral.c -I"$inc" -L"$lib" $libs >cc.out 2>&1
check "the example compiles against the installed header and library: $(head -c 300 cc.out)" $?
grep -q "warning" cc.out; [ $? -ne 0 ]; check "without warnings" $?

# ---- dtss(3) lists the whole interface ----------------------------------------
# What the library says it has, from a program built on the installed files.
cat >iface.c <<'EOF'
#include <stdio.h>
#include <string.h>
#include <dtss.h>

int main(int argc, char **argv)
{
    const char *what = argc == 2 ? argv[1] : "";
    if (!strcmp(what, "schemes")) {         /* the error names the valid ones */
        dtss_master *m = dtss_master_new();
        if (!m || dtss_master_set(m, "scheme", "no-such-scheme") == DTSS_OK)
            return 1;
        puts(dtss_master_errmsg(m));
        dtss_master_free(m);
    } else if (!strcmp(what, "master"))
        dtss_master_usage(stdout);
    else if (!strcmp(what, "pool"))
        dtss_pool_usage(stdout);
    else if (!strcmp(what, "lb"))
        dtss_lb_usage(stdout);
    else if (!strcmp(what, "strips"))
        dtss_strips_usage(stdout);
    else
        return 2;
    return 0;
}
EOF
# shellcheck disable=SC2086
cc -std=c11 -Wall -Wextra -o iface iface.c -I"$inc" -L"$lib" $libs >cc.out 2>&1
check "a program asking the installed library for its lists compiles: $(head -c 300 cc.out)" $?
page="$prefix/share/man/man3/dtss.3"
groff -man -Tutf8 -ww -z "$page" >groff.out 2>&1 && [ ! -s groff.out ]
check "dtss(3): groff -man -ww renders it without a warning: $(head -c 300 groff.out)" $?
# page_tags SECTION [SUBSECTION]: the first word of every .TP tag of the
# page's section (.SH), or of that section's subsection (.SS), "\-" read "-".
page_tags() {
    awk -v sh="$1" -v ss="${2:-}" '
        /^\.SH / { t = substr($0, 5); gsub(/"/, "", t); insh = t == sh; inss = 0; tag = 0; next }
        /^\.SS / { t = substr($0, 5); gsub(/"/, "", t); inss = t == ss; tag = 0; next }
        tag && insh && (ss == "" || inss) { w = $2; gsub(/\\-/, "-", w); gsub(/"/, "", w); print w }
        { tag = /^\.TP/ }' "$page"
}
# Every function the installed header declares, in the page's SYNOPSIS.
fns=$(grep -E '^[a-z].* \**dtss_[a-z_]*\(' "$prefix/include/dtss.h" |
      sed -E 's/^[^(]*[ *](dtss_[a-z_]*)\(.*/\1/')
nfn=$(echo "$fns" | wc -w)
sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$page" >synopsis
missing=
for f in $fns; do
    grep -qE "(^|[^a-z_])$f\(" synopsis || missing="$missing $f"
done
[ "$nfn" -ge 50 ] && [ -z "$missing" ]
check "dtss(3)'s SYNOPSIS declares each of the $nfn functions of dtss.h (missing:${missing:- none})" $?
# Every scheme the library accepts, as the library lists them, in SCHEMES.
./iface schemes >schemes.out 2>&1
schemes=$(sed -n 's/.*(valid: \(.*\)), \(tree\) or \(auto\)$/\1, \2, \3/p' schemes.out | tr -d ' ' | tr ',' ' ')
page_tags SCHEMES >tags
missing=
for sc in $schemes; do
    grep -qx -- "$sc" tags || missing="$missing $sc"
done
[ "$(echo "$schemes" | wc -w)" -ge 10 ] && [ -z "$missing" ]
check "dtss(3)'s SCHEMES has each scheme the library lists ($(echo $schemes); missing:${missing:- none})" $?
# Every option each master's usage prints, in OPTIONS under its model.
for m in "master:The self-scheduled loop" "pool:The self-adjusting pool" "lb:Migration" \
         "strips:Row strips"; do
    ./iface "${m%%:*}" >usage.out 2>&1
    # an option begins a line; the scheme's parameters follow "--PARAM VALUE"
    opts=$(awk '/^ *--PARAM / { p = 1; sub(/.*:/, "") }
                p && $1 !~ /^--/ { p = 0 }
                p { for (i = 1; i <= NF; i++) if ($i ~ /^--[A-Za-z]/) print $i; next }
                /^ *--[A-Za-z]/ { print $1 }' usage.out | sort -u)
    page_tags OPTIONS "${m#*:}" >tags
    missing=
    for o in $opts; do
        grep -qx -- "$o" tags || missing="$missing $o"
    done
    [ "$(echo "$opts" | wc -w)" -ge 6 ] && [ -z "$missing" ]
    check "dtss(3)'s OPTIONS, ${m#*:}: each option of dtss_${m%%:*}_usage ($(echo $opts | wc -w); missing:${missing:- none})" $?
done
PVM_ALLOW_ROOT=yes PVM_TMP="$tmp/nopvm" run "the example outside PVM: one clear error" 1 "no PVM daemon" ./integral -n 10

pvm_up "$tmp" "$BIN"
check "private pvmd started" $?
# pi to 1e-9: an iteration lost or counted twice moves the sum by pi/n.
for s in dtss tss gss fss css pss qss ess rss tree; do
    for n in 1 2 3 4; do
        timeout 60 ./integral -n 300 --scheme "$s" --local "$n" >out.txt 2>&1
        rc=$?
        err=$(sed -n 's/^pi = .* (error \(.*\))$/\1/p' out.txt)
        awk -v e="$err" 'BEGIN { exit !(e != "" && e + 0 < 1e-9) }'
        check "$s, $n workers: pi to 1e-9 (exit $rc, error ${err:-none})" $?
    done
done
timeout 60 ./integral -n 300 --scheme dtss --local 3 --sample 4 >out.txt 2>&1
grep -q "^dtss: W1 .* W3 .* Finish" out.txt; check "sampling R = 4: summary line" $?
awk '/^pi/ { e = $NF; gsub(/[()]/, "", e); exit !(e + 0 < 1e-9) }' out.txt
check "sampling R = 4: pi" $?
# A worker killed mid-run: its chunk is served again, pi comes out all the same.
for s in dtss tree; do
    ./integral -n 60000 --scheme "$s" --local 3 >kill.txt 2>&1 &
    master=$!
    victim=
    for _ in $(seq 100); do
        victim=$(pvm_tasks integral | head -n 1)
        [ -n "$victim" ] && break
        sleep 0.05
    done
    sleep 0.3
    [ -n "$victim" ] && kill -9 "$victim"
    wait_for "$master" 60
    err=$(sed -n 's/^pi = .* (error \(.*\))$/\1/p' kill.txt)
    grep -q "worker [0-9] on .* exited" kill.txt &&
        awk -v e="$err" 'BEGIN { exit !(e != "" && e + 0 < 1e-9) }'
    check "$s, a worker killed mid-run: noticed, pi to 1e-9 all the same (exit $rc, error ${err:-none})" $?
done
run "a bad runtime option: named, exit 2 (bad input)" 2 "unknown scheme 'nosuch'" ./integral --scheme nosuch
run "a bad argument: usage, exit 2" 2 "usage: integral" ./integral -x
pvm_down; check "pvmd halted" $?

# The same source on MPI: linked against libdtss-mpi by dtss-mpi.pc alone
# (Open MPI's flags come through its Requires: ompi-c), run under mpirun.
mlibs=$(pkg-config --libs-only-l dtss-mpi) && mother=$(pkg-config --libs-only-L --cflags ompi-c)
check "pkg-config --libs dtss-mpi: $mlibs" $?
# shellcheck disable=SC2086
cc -std=c11 -Wall -Wextra -o integral-mpi integral.c -I"$inc" -L"$lib" $mother $mlibs >cc.out 2>&1
check "the unchanged example compiles against libdtss-mpi: $(head -c 300 cc.out)" $?
grep -q "warning" cc.out; [ $? -ne 0 ]; check "without warnings (MPI)" $?
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
for s in dtss tss tree; do
    for np in 2 4; do
        timeout 60 mpirun --oversubscribe -np "$np" ./integral-mpi -n 300 --scheme "$s" >out.txt 2>&1
        rc=$?
        err=$(sed -n 's/^pi = .* (error \(.*\))$/\1/p' out.txt)
        [ "$rc" -eq 0 ] && awk -v e="$err" 'BEGIN { exit !(e != "" && e + 0 < 1e-9) }'
        check "MPI, $s, $((np - 1)) worker rank(s): pi to 1e-9 (exit $rc, error ${err:-none})" $?
    done
done
cd "$tmp" || exit 1

# uninstall: exactly what install put there, and again is harmless.
umake -s -C "$REPO" install PREFIX="$prefix" >/dev/null 2>&1
check "install again over an install" $?
umake -s -C "$REPO" uninstall PREFIX="$prefix" >"$tmp/un.out" 2>&1
check "make uninstall" $?
[ ! -e "$prefix" ]; check "uninstall leaves nothing (the prefix it created is gone)" $?
umake -s -C "$REPO" uninstall PREFIX="$prefix" >/dev/null 2>&1
check "uninstall again: nothing to do, no error" $?
mkdir -p "$tmp/own/include" && : >"$tmp/own/include/other.h"
umake -s -C "$REPO" install PREFIX="$tmp/own" >/dev/null 2>&1 &&
    umake -s -C "$REPO" uninstall PREFIX="$tmp/own" >/dev/null 2>&1
[ -f "$tmp/own/include/other.h" ] && [ ! -e "$tmp/own/include/dtss.h" ] &&
    [ ! -e "$tmp/own/lib" ]
check "uninstall keeps what was there before and removes the folders it made" $?
finish
