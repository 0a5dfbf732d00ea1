#!/bin/sh
# security.sh: no input runs code (issue "reliability and security", 1-3).
# - scripts/plot with hostile names in a run record (scheme, host) and in a
#   title: drawn as data, nothing runs;
# - scripts/cluster as a user who is not root: its state lives in a private
#   run directory (0700, its own); one another user made is refused; a state
#   file is read as data, never run;
# - the fallback cluster (not root: a one-host PVM) runs make run's
#   coordinator with a worker per hostfile host;
# - no script writes a predictable temporary file name.
# The user switch needs root (setpriv to nobody); without it those checks
# are skipped, and said.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
chmod 755 "$tmp"
pvmd_pid=""
cleanup() {
    [ -z "$pvmd_pid" ] || kill "$pvmd_pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
. "$REPO/tests/lib.sh"
cd "$tmp" || exit 1

# ---- scripts/plot: hostile names in the record and the title -----------------
"$BIN/sim" "$REPO/sim/examples/loaded.scn" -s tss -r rec.csv -q >/dev/null 2>&1
check "bin/sim writes a record to draw" $?
evil='x"; system("touch '"$tmp"'/pwned") ; `touch '"$tmp"'/pwned` $(touch '"$tmp"'/pwned) #'
# The record with that text as a worker's host and as the scheme (fields
# found by name in the header lines).
awk -F, -v OFS=, -v e="$evil" '
    /^#/ { kind = substr($1, 2); for (i = 2; i <= NF; i++) col[kind, $i] = i; print; next }
    $1 == "worker" && $(col["worker", "worker"]) == 1 { $(col["worker", "host"]) = e }
    $1 == "run" { $(col["run", "scheme"]) = e }
    { print }' rec.csv >evil.csv
grep -qF 'system("touch' evil.csv; check "the hostile record holds the names (the test can fail)" $?
"$REPO/scripts/plot" gantt evil.csv g.png >plot.out 2>&1
rc=$?
[ ! -e pwned ] && { [ $rc = 0 ] && [ -s g.png ] || grep -q 'plot: ' plot.out; }
check "scripts/plot gantt: a hostile scheme and host name run nothing (exit $rc)" $?
"$REPO/scripts/plot" chunks evil.csv c.png "$evil" >plot.out 2>&1
rc=$?
[ ! -e pwned ] && { [ $rc = 0 ] && [ -s c.png ] || grep -q 'plot: ' plot.out; }
check "scripts/plot chunks: a hostile title and record run nothing (exit $rc)" $?
"$REPO/scripts/plot" compare evil.csv rec.csv cmp.png >plot.out 2>&1
rc=$?
[ ! -e pwned ] && { [ $rc = 0 ] && [ -s cmp.png ] || grep -q 'plot: ' plot.out; }
check "scripts/plot compare: a hostile record runs nothing (exit $rc)" $?
"$REPO/scripts/plot" gantt rec.csv "o'\"\$(touch pwned).png" "$evil" >plot.out 2>&1
rc=$?
[ $rc = 0 ] && [ -s "o'\"\$(touch pwned).png" ] && [ ! -e pwned ]
check "scripts/plot: a hostile output name and title are data (exit $rc)" $?
# The pool figure (Heymann Fig. 4.2): a hostile title, and a hostile trace
# name in the replays' CSV (the name is not drawn; nothing may run).
printf '# thin trace: image e, 9 x 5, parts 2, unit seconds\n1 2 1\n2 1 -\n' >t.trace
"$BIN/pooltrace" t.trace --csv -s static >st.csv 2>/dev/null &&
    "$BIN/pooltrace" t.trace --csv -s adjust >ad.csv 2>/dev/null
check "bin/pooltrace writes the two replays to draw" $?
"$REPO/scripts/plot" pool st.csv ad.csv pool.png "$evil" >plot.out 2>&1
rc=$?
[ $rc = 0 ] && [ -s pool.png ] && [ ! -e pwned ]
check "scripts/plot pool: a hostile title is data (exit $rc)" $?
PLOT_TRACE=$tmp/pool.args "$REPO/scripts/plot" pool st.csv ad.csv pool2.png "$evil" >/dev/null 2>&1
[ "$(sed -n 3p "$tmp/pool.args")" = "$evil" ]
check "scripts/plot pool: the title reaches gnuplot as one argument, unchanged" $?
"$REPO/scripts/plot" pool ad.csv st.csv pool3.png >plot.out 2>&1
rc=$?
[ $rc != 0 ] && grep -q "expected a static run then an adjust run" plot.out
check "scripts/plot pool: the replays in the wrong order refused (exit $rc)" $?
"$REPO/scripts/plot" gantt rec.csv x.png "" '1; touch pwned' >plot.out 2>&1
rc=$?
[ $rc != 0 ] && [ ! -e pwned ] && grep -q 'is not a number' plot.out
check "scripts/plot: a LOAD_AT that is not a number is refused (exit $rc)" $?

# ---- no predictable temporary names --------------------------------------------
hits=$(grep -n '/tmp/[A-Za-z0-9_.-]*\$\$\|TMPDIR[^ ]*\$\$' "$REPO"/scripts/* "$REPO/Makefile" 2>/dev/null)
[ -z "$hits" ]; check "no script writes a predictable temporary name (name.\$\$): $hits" $?
grep -q 'mktemp' "$REPO/scripts/deps"; check "scripts/deps keeps apt-get's output in a mktemp file" $?

# ---- scripts/cluster as another user ---------------------------------------------
if [ "$(id -u)" -ne 0 ] || ! command -v setpriv >/dev/null 2>&1 || ! id nobody >/dev/null 2>&1; then
    skip "not root (or no setpriv/nobody): scripts/cluster's run directory not tested as another user"
    finish; exit $?
fi
NB=$(id -u nobody)
as_nobody() { setpriv --reuid="$NB" --regid="$(id -g nobody)" --clear-groups \
                  env -i PATH="$PATH" HOME="$tmp/me" TMPDIR="$1" LSAN_OPTIONS="${LSAN_OPTIONS:-}" \
                  ASAN_OPTIONS="${ASAN_OPTIONS:-}" sh -c "$2"; }
mkdir me other && chown nobody me
# A copy of the project's scripts and programs that nobody owns.
mkdir me/repo && cp -r "$REPO/scripts" "$REPO/hostfile" "$REPO/hostfiles" me/repo/ &&
    cp -r "$BIN" me/repo/bin && chown -R nobody me/repo
# 1. A run directory made by someone else (root here), holding a state file
#    that names nobody's cluster folder and carries code: refused, not run.
mkdir -m 0755 "other/dtss-$NB" "other/dtss-$NB/c1"
printf 'OWNER=%s\nMODE=$(touch %s/pwned1)\n' "$tmp/me/repo/build/cluster" "$tmp" >"other/dtss-$NB/c1/state"
as_nobody "$tmp/other" "cd '$tmp/me/repo' && scripts/cluster status" >st.out 2>&1
rc=$?
[ $rc != 0 ] && [ ! -e pwned1 ] && grep -q 'not a directory of yours' st.out
check "a run directory another user made is refused, its state not run (exit $rc)" $?
# 2. Our own run directory, a state file whose values look like code: shown
#    as text, never run.
as_nobody "$tmp/me" "mkdir -m 700 '$tmp/me/dtss-$NB' '$tmp/me/dtss-$NB/c1' &&
    printf 'OWNER=%s\nID=c1\nMODE=\$(touch %s/pwned2)\nHOSTFILE_SRC=\`touch %s/pwned2\`\n' \
        '$tmp/me/repo/build/cluster' '$tmp' '$tmp' >'$tmp/me/dtss-$NB/c1/state' &&
    cd '$tmp/me/repo' && scripts/cluster status" >st.out 2>&1
[ ! -e pwned2 ] && grep -qF '$(touch' st.out
check "a state file is read as data: values shown, nothing run" $?
rm -rf "me/dtss-$NB"
# 3. A fresh run directory is made 0700 and the fallback (one-host PVM) runs
#    make run's coordinator with a worker per hostfile host, then goes down
#    leaving nothing.
as_nobody "$tmp/me" "cd '$tmp/me/repo' && scripts/cluster up >'$tmp/me/up.out' 2>&1 &&
    stat -c %A '$tmp/me/dtss-$NB' >'$tmp/me/mode' &&
    timeout 120 scripts/run-one --scheme dtss -- -S 120 -m 300 >'$tmp/me/run.out' 2>&1;
    rc=\$?; scripts/cluster down >/dev/null 2>&1; exit \$rc"
rc=$?
[ "$(cat me/mode 2>/dev/null)" = drwx------ ]; check "the run directory is made 0700 ($(cat me/mode 2>/dev/null))" $?
[ $rc = 0 ] && grep -q '^dtss: W1 .* W4 .* Finish' me/run.out
check "not root: the fallback cluster runs make run's coordinator, a worker per host (exit $rc)" $?
grep -q 'bin/coordinator --local 4' me/up.out; check "the fallback's cluster-up says how to run (--local 4)" $?
[ -z "$(ls -A "me/dtss-$NB" 2>/dev/null)" ]; check "cluster down leaves no run directory behind" $?
finish
