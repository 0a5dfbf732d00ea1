# pvmlib.sh: a private one-host PVM for the tests and benchmarks (sourced).
# pvm_up DIR BIN [CPU]: starts a pvmd with PVM_TMP=DIR/pvm and a hostfile whose
# * line has ep=BIN wd=DIR (pinned to CPU, with the tasks it spawns, if given);
# sets pvmd_pid (the pvmd's own PID, from the name of its socket
# PVM_TMP/pvmtmpPID.0, which its address file PVM_TMP/pvmd.UID names);
# returns 0 once that pvmd takes a task (BIN/pvm_ready), else 1, said.
# pvm_down: halts it (ending its tasks) and makes sure that PID is gone.
# Both touch only this virtual machine.
# pvm_tasks NAME: the PIDs of the tasks our pvmd spawned whose program is NAME.
# pvm_tasks_since PID NAME: those of them started since process PID (a run's
# master), in the order they started: by their start times, not their PIDs,
# which wrap (pid_max 32768 here: a worker's PID can be below its master's).
# pvm_gone PIDS...: 0 when none of them runs within 5 s, else 1 (the ones
# left in $pvm_left; $pvm_waited_ms: how long it waited, said, never a bound). pvm_reborn DIR BIN: after our pvmd was killed, its files
# removed from PVM_TMP and a new one started (pvm_up).
pvmd_pid=
pvm_tasks() { ps -o pid=,comm= --ppid "$pvmd_pid" 2>/dev/null | awk -v n="$1" '$2 == n { print $1 }'; }
pvm_started() { sed 's/^.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $20 }'; }    # (clock ticks since boot)
pvm_tasks_since() {
    pvm_t0=$(pvm_started "$1")
    [ -n "$pvm_t0" ] || return 0
    for p in $(pvm_tasks "$2"); do
        t=$(pvm_started "$p")
        [ -n "$t" ] && [ "$t" -ge "$pvm_t0" ] && echo "$t $p"
    done | sort -k1,1n -k2,2n | awk '{ print $2 }'
}
pvm_gone() {
    pvm_t0=$(date +%s%N)
    for _ in $(seq 50); do
        pvm_left=""
        for p in "$@"; do kill -0 "$p" 2>/dev/null && pvm_left="$pvm_left $p"; done
        pvm_waited_ms=$((($(date +%s%N) - pvm_t0) / 1000000))
        [ -z "$pvm_left" ] && return 0
        sleep 0.1
    done
    return 1
}
pvm_reborn() {
    pvmd_pid=
    rm -f "$PVM_TMP"/pvmd.* "$PVM_TMP"/pvml.* "$PVM_TMP"/pvmtmp*
    pvm_up "$@"
}
pvm_up() {
    export PVM_ALLOW_ROOT=yes PVM_TMP="$1/pvm"
    unset PVM_VMID
    mkdir -p "$PVM_TMP"
    printf '* ep=%s wd=%s\n' "$2" "$1" >"$1/hostfile"
    pin=""
    [ -n "${3:-}" ] && pin="taskset -c $3"
    (cd "$1" && exec $pin pvmd "$1/hostfile" >"$1/pvmd.out" 2>&1) &
    pvmd_pid=$!
    # Ready once its address file (PVM_TMP/pvmd.UID) names the socket: the
    # pvmd binds the socket first, then writes that file, which is what a
    # task reads to connect (a task started between the two fails).
    sock=
    for _ in $(seq 300); do
        sock=$(sed -n 's|^.*/pvmtmp0*\([0-9][0-9]*\)\.0$|\1|p' "$PVM_TMP/pvmd.$(id -u)" 2>/dev/null)
        [ -n "$sock" ] && break
        sleep 0.1
    done
    if [ -z "$sock" ]; then
        echo "pvm_up: no address file naming a socket in $PVM_TMP after 30 s; pvmd.out:" >&2
        sed 's/^/  /' "$1/pvmd.out" >&2
        return 1
    fi
    pvmd_pid=$sock
    [ "$(cat /proc/"$pvmd_pid"/comm 2>/dev/null)" = pvmd ] || return 1
    # ... and takes a task (bin/pvm_ready joins and leaves): a test's first
    # task must not be the one that finds out it does not (seen once a
    # pvmd was killed and another started, in CI; libpvm's reason in the
    # message). Asked again for up to 10 s; each failure is said.
    [ -x "$2/pvm_ready" ] || { echo "pvm_up: $2/pvm_ready missing (make all-tests builds it)" >&2; return 1; }
    for _ in $(seq 20); do
        "$2/pvm_ready" 2>"$1/pvm_ready.err" && return 0
        sed 's/^/pvm_up: /' "$1/pvm_ready.err" >&2
        sleep 0.5
    done
    echo "pvm_up: the pvmd (pid $pvmd_pid) took no task in 10 s; pvmd.out:" >&2
    sed 's/^/  /' "$1/pvmd.out" >&2
    return 1
}
pvm_down() {
    [ -n "$pvmd_pid" ] && kill -0 "$pvmd_pid" 2>/dev/null || return 0
    (echo halt | timeout 10 pvm) >/dev/null 2>&1   # the console is ended too
    for _ in $(seq 50); do
        kill -0 "$pvmd_pid" 2>/dev/null || return 0
        sleep 0.1
    done
    kill "$pvmd_pid" 2>/dev/null
    return 1
}
