#!/bin/sh
# golden.sh: golden-output tests, in the style of SimGrid's examples: each
# folder under tests/golden/ is one run of one of our programs and the exact
# output it must print.
#
#   args          the command, one argument per line (no quoting, no
#                 expansion: each line is one argument, as it stands); the
#                 first is the program, a name in $BIN (e.g. "sim"). Paths
#                 are relative to the repository's root, where the command
#                 runs: the repo's own inputs (sim/examples/two.scn) or the
#                 folder's (tests/golden/NAME/fail.scn).
#   expected      the exact standard output
#   status        the exit status, when it is not 0
#   expected.err  the exact standard error, when it is worth pinning
#                 (without this file standard error is not compared; to
#                 start pinning it, create it empty and run --update)
#
# Usage: sh tests/golden.sh [NAME...]            run every case, or these
#        sh tests/golden.sh --update [NAME...]   rewrite their expected files
# --update is for a deliberate change of behaviour only: it freezes whatever
# the programs print now, so read the diff (git diff tests/golden) before
# committing it. Ends with "N passed, N failed, N skipped".
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd) || exit 2
REPO=$(cd "$(dirname "$0")/.." && pwd)
GOLDEN=$REPO/tests/golden
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$REPO/tests/lib.sh"
cd "$REPO" || exit 2

update=0
if [ "${1:-}" = --update ]; then
    update=1
    shift
fi
if [ $# -eq 0 ]; then
    for d in "$GOLDEN"/*/; do
        [ -f "$d/args" ] && set -- "$@" "$(basename "$d")"
    done
    [ $# -gt 0 ] || { bad "no cases in $GOLDEN"; finish; exit; }
fi

# golden NAME: runs case NAME; output in $tmp/out, $tmp/err, status in $rc.
# Returns 1 (with the reason in $why) when the case cannot be run at all.
golden() {
    dir=$GOLDEN/$1
    why=
    [ -f "$dir/args" ] || { why="no file $dir/args"; return 1; }
    set --
    while IFS= read -r arg || [ -n "$arg" ]; do
        set -- "$@" "$arg"
    done <"$dir/args"
    case ${1:-} in
        "" | */* | . | ..) why="args: the first line must be a program in BIN, not '${1:-}'"; return 1 ;;
    esac
    [ -x "$BIN/$1" ] || { why="no program $BIN/$1"; return 1; }
    prog=$BIN/$1
    shift
    timeout 120 "$prog" "$@" >"$tmp/out" 2>"$tmp/err"
    rc=$?
    return 0
}

for name in "$@"; do
    dir=$GOLDEN/$name
    if ! golden "$name"; then
        bad "$name: $why"
        continue
    fi
    if [ "$update" = 1 ]; then
        cp "$tmp/out" "$dir/expected"
        if [ "$rc" = 0 ]; then rm -f "$dir/status"; else echo "$rc" >"$dir/status"; fi
        [ -f "$dir/expected.err" ] && cp "$tmp/err" "$dir/expected.err"
        echo "updated $name (exit $rc)"
        ok "$name"
        continue
    fi
    if [ ! -f "$dir/expected" ]; then
        bad "$name: no file expected (sh tests/golden.sh --update $name writes it)"
        continue
    fi
    want=0
    [ -f "$dir/status" ] && want=$(cat "$dir/status")
    why=
    if [ "$rc" != "$want" ]; then
        why="exit $rc, expected $want"
        if [ -s "$tmp/err" ]; then
            echo "-- $name: standard error:"
            head -n 20 "$tmp/err"
        fi
    fi
    if ! diff -u --label "$name/expected" --label "$name (now)" "$dir/expected" "$tmp/out"; then
        why="${why:+$why; }standard output differs (diff above)"
    fi
    if [ -f "$dir/expected.err" ] &&
        ! diff -u --label "$name/expected.err" --label "$name (now)" "$dir/expected.err" "$tmp/err"; then
        why="${why:+$why; }standard error differs (diff above)"
    fi
    if [ -z "$why" ]; then ok "$name"; else bad "$name: $why"; fi
done
finish
