# lib.sh: the shell tests' helpers (sourced). Counts passes, failures and
# skips; 'finish' prints "N passed, N failed, N skipped" and returns non-zero
# on any failure (scripts/run-tests sums these lines; with STRICT=1 it counts
# a skip as a failure).
#
# The suites are POSIX sh, run with sh (dash; scripts/run-tests does). Not
# with bash: there `check "... $(cmd) ..." $?` would check the status of
# cmd, the message's command substitution, not of the command before.
if [ -n "${BASH_VERSION:-}" ]; then
    echo "tests/lib.sh: run this suite with sh, not bash (a check's \$? after a \$(...) in its message is the substitution's under bash)" >&2
    exit 2
fi
pass=0
fail=0
skipped=0
ok()   { pass=$((pass + 1)); [ -n "${TEST_VERBOSE:-}" ] && echo "ok   $1"; return 0; }
bad()  { fail=$((fail + 1)); echo "FAIL $1"; }
# skip REASON: checks that cannot run here (not root, no namespaces, one
# CPU): counted and said, never passed silently.
skip() { skipped=$((skipped + 1)); echo "SKIP $1"; }
# check NAME STATUS: passes when STATUS is 0.
check() { if [ "$2" = 0 ]; then ok "$1"; else bad "$1"; fi; }
# run NAME EXPECTED_STATUS PATTERN CMD...: runs CMD, checks the exit status
# and that stdout+stderr match the grep pattern. Output in $tmp/out.
run() {
    name=$1 want=$2 pat=$3
    shift 3
    "$@" >"$tmp/out" 2>&1
    rc=$?
    if [ "$rc" -ne "$want" ]; then
        bad "$name: exit $rc, expected $want: $(head -c 300 "$tmp/out")"
    elif ! grep -q -- "$pat" "$tmp/out"; then
        bad "$name: output lacks '$pat': $(head -c 300 "$tmp/out")"
    else
        ok "$name"
    fi
}
# wait_for PID SECONDS: waits for a background job, ending it (by PID) if
# it is still running after SECONDS; its exit status is in $rc.
wait_for() {
    n=$(($2 * 10))
    while [ "$n" -gt 0 ] && kill -0 "$1" 2>/dev/null; do
        sleep 0.1
        n=$((n - 1))
    done
    kill "$1" 2>/dev/null
    wait "$1"
    rc=$?
}
finish() {
    echo "$pass passed, $fail failed, $skipped skipped"
    [ "$fail" -eq 0 ]
}
# umake ARGS: make as a user runs it, whatever this test run's make settings
# (SAN=1 or STRICT=1 on make's command line reach a nested make through
# MAKEFLAGS and the environment): for what a user builds and installs.
umake() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u SAN -u STRICT make "$@"; }
# busy_worker_host PROG MASTER: the emulated host (w1, w2, ...) of a worker
# process PROG other than MASTER that is sleeping out a task (in nanosleep:
# bin/thin-pool --slow), read from its cgroup (/dtss/$DTSS_CLUSTER/HOST);
# nothing when none is found within 2.5 s.
busy_worker_host() {
    for _ in $(seq 50); do
        for p in $(pgrep -x "$1"); do
            [ "$p" = "$2" ] && continue
            case "$(cat "/proc/$p/wchan" 2>/dev/null)" in
            *nanosleep*) h=$(sed -n "s|.*cpu[a-z,]*:/dtss/$DTSS_CLUSTER/\(w[0-9]*\)\$|\1|p" "/proc/$p/cgroup" | head -n 1)
                         [ -n "$h" ] && { echo "$h"; return 0; } ;;
            esac
        done
        sleep 0.05
    done
}
