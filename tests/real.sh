#!/bin/sh
# real.sh: the real-machine mode (`# dtss: real`, PVM over ssh), for real on
# this machine. Three "machines", each a network namespace with its own sshd
# (Debian's openssh-server; keys made for the test, removed after), on a
# bridge this test creates; PVM started over ssh from a real hostfile by
# scripts/cluster up; DTSS runs whose image must be bin/mandel's, bit for bit;
# then a run in which one machine dies (its sshd, pvmd and worker killed)
# mid-run: the run still completes with the identical image, the lost
# worker's chunk served again. (PVM's own host-failure detection did not
# report the dead machine within 290 s here; the runtime's late-chunk rule,
# --late, serves the chunk again after 30 s or so.)
#
# Host names resolve through a private /etc/hosts (this test runs in its own
# mount namespace), as on a real network; the master's name maps to its
# bridge address, not loopback. Needs root (namespaces), sshd, ssh.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
. "$REPO/tests/lib.sh"

if [ "$(id -u)" -ne 0 ]; then
    skip "not root: the real-machine mode is not tested (network namespaces, sshd)"
    finish; exit $?
fi
for c in /usr/sbin/sshd ssh ssh-keygen unshare ip; do
    command -v "$c" >/dev/null 2>&1 ||
        { skip "$c not found (make test installs openssh-server): real-machine mode not tested"; finish; exit $?; }
done
# Our own mount namespace, for the private /etc/hosts (nothing outside sees it).
if [ -z "${DTSS_REAL_TEST_NS:-}" ]; then
    DTSS_REAL_TEST_NS=1 exec unshare --mount --propagation private sh "$0" "$@"
fi

tmp=$(mktemp -d)
tag=rt$$
br=dtss-$tag
H="h1 h2 h3"
sshd_made_run=""
cleanup() {
    if [ -r "$tmp/cl/env" ]; then
        CLUSTER_DIR=$tmp/cl "$REPO/scripts/cluster" down >/dev/null 2>&1
    fi
    for h in $H; do
        [ -r "$tmp/$h/sshd.pid" ] && kill "$(cat "$tmp/$h/sshd.pid")" 2>/dev/null
        # Whatever still runs in the machine (a session, a pvmd, a worker).
        for p in $(ip netns pids "dtss-$tag-$h" 2>/dev/null); do kill -9 "$p" 2>/dev/null; done
        ip netns del "dtss-$tag-$h" 2>/dev/null
    done
    ip link del "$br" 2>/dev/null
    [ -z "$sshd_made_run" ] || rmdir /run/sshd 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# ---- three machines on a bridge, each with its sshd ------------------------
net=""
for n in $(seq 1 254); do
    [ -z "$(ip -4 route show match "10.214.$n.0/24" | grep -v '^default')" ] && { net=10.214.$n; break; }
done
[ -n "$net" ] || { bad "no free subnet 10.214.n.0/24"; finish; exit 1; }
ssh-keygen -q -t ed25519 -N '' -f "$tmp/key" -C dtss-real-test &&
    ssh-keygen -q -t ed25519 -N '' -f "$tmp/hostkey" -C dtss-real-test &&
    cp "$tmp/key.pub" "$tmp/authorized_keys" && chmod 600 "$tmp/authorized_keys"
check "keys made for the test" $?
[ -d /run/sshd ] || { mkdir -m 0755 /run/sshd && sshd_made_run=1; }
ip link add "$br" type bridge && ip addr add "$net.1/24" dev "$br" && ip link set "$br" up
check "the bridge $br on $net.0/24" $?
i=2
{ grep -v "[[:space:]]$(hostname)\$" /etc/hosts; echo "$net.1 $(hostname)"; } >"$tmp/hosts"
for h in $H; do
    ns=dtss-$tag-$h
    mkdir -p "$tmp/$h/tmp"
    ip netns add "$ns" &&
        ip link add "$tag$h" type veth peer name eth0 netns "$ns" &&
        ip link set "$tag$h" master "$br" up &&
        ip -n "$ns" addr add "$net.$i/24" dev eth0 && ip -n "$ns" link set eth0 up &&
        ip -n "$ns" link set lo up || bad "machine $h: its namespace"
    # Each machine's PVM_TMP is its own, as /tmp is on a real machine; root
    # may run pvmd there (PVM_ALLOW_ROOT, as the project's env file says).
    cat >"$tmp/$h/sshd_config" <<EOF
ListenAddress $net.$i
HostKey $tmp/hostkey
PidFile $tmp/$h/sshd.pid
AuthorizedKeysFile $tmp/authorized_keys
PermitRootLogin prohibit-password
PasswordAuthentication no
KbdInteractiveAuthentication no
UsePAM no
StrictModes no
SetEnv PVM_ROOT=${PVM_ROOT:-/usr/lib/pvm3} PVM_TMP=$tmp/$h/tmp PVM_ALLOW_ROOT=yes
EOF
    ip netns exec "$ns" /usr/sbin/sshd -f "$tmp/$h/sshd_config" -E "$tmp/$h/sshd.log" ||
        bad "machine $h: sshd did not start"
    echo "$net.$i real$h" >>"$tmp/hosts"
    i=$((i + 1))
done
mount --bind "$tmp/hosts" /etc/hosts
check "a private /etc/hosts: the machines by name, the master not on loopback" $?
# PVM_RSH: ssh with the test's key, no questions.
cat >"$tmp/rsh" <<EOF
#!/bin/sh
exec ssh -i '$tmp/key' -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null \\
    -o BatchMode=yes -o LogLevel=ERROR -o ConnectTimeout=5 "\$@"
EOF
chmod +x "$tmp/rsh"
n=0
for h in $H; do
    w=0
    while [ $w -lt 50 ] && [ "$("$tmp/rsh" "real$h" echo ok 2>/dev/null)" != ok ]; do sleep 0.1; w=$((w + 1)); done
    [ $w -lt 50 ] && n=$((n + 1))
done
[ $n = 3 ]; check "ssh into each of the three machines ($n of 3)" $?

# ---- PVM over ssh, from a real hostfile ------------------------------------
cat >"$tmp/hostfile" <<EOF
# three real machines (tests/real.sh)
# dtss: real
* ep=\$DTSS_BIN wd=$tmp
realh1 sp=1000
realh2 sp=1000
realh3 sp=2000
EOF
export CLUSTER_DIR="$tmp/cl" PVM_RSH="$tmp/rsh" DTSS_BIN="$BIN"
"$REPO/scripts/cluster" up "$tmp/hostfile" >"$tmp/up.out" 2>&1
rc=$?
[ $rc = 0 ] && grep -q 'up in' "$tmp/up.out"
check "scripts/cluster up starts PVM over ssh on the three machines (exit $rc: $(tail -n 2 "$tmp/up.out" | tr '\n' ' '))" $?
[ $rc = 0 ] || { finish; exit 1; }
"$REPO/scripts/cluster" status >"$tmp/status" 2>&1
grep -q '^cluster c[0-9]*: real' "$tmp/status" && grep -q '^realh3 *2000' "$tmp/status"
check "cluster status: a real cluster, the hosts and their sp=" $?
# shellcheck disable=SC1091
. "$CLUSTER_DIR/env"

SZ=600 MI=6000
want=$("$BIN/mandel" -S $SZ -m $MI | sed -n 's/.*checksum \([0-9a-f]*\).*/\1/p')
cd "$tmp" || exit 1
timeout 120 "$BIN/coordinator" -S $SZ -m $MI -o none -r run1.csv >run1.out 2>&1
rc=$?
got=$(sed -n 's/^checksum \([0-9a-f]*\) .*/\1/p' run1.out)
[ $rc = 0 ] && [ -n "$want" ] && [ "$got" = "$want" ]
check "DTSS over the three real machines: bin/mandel's image ($got, want $want, exit $rc)" $?
hosts=$("$BIN/record" run1.csv worker host | sort | tr '\n' ' ')
[ "$hosts" = "realh1 realh2 realh3 " ]; check "one worker on each machine ($hosts)" $?
V=$("$BIN/record" run1.csv worker host,V | sort | tr '\n' ' ')
[ "$V" = "realh1,1 realh2,1 realh3,2 " ]; check "V_i from the hostfile's sp= ($V)" $?

# ---- a machine dies mid-run ------------------------------------------------
SZ=1200 MI=8000
want=$("$BIN/mandel" -S $SZ -m $MI | sed -n 's/.*checksum \([0-9a-f]*\).*/\1/p')
timeout 300 "$BIN/coordinator" -S $SZ -m $MI -o none -r run2.csv >run2.out 2>&1 &
cpid=$!
# Once every worker has had a chunk (it computes for seconds), h2 dies: its
# sshd, its pvmd and its worker, all at once.
w=0
while [ $w -lt 100 ] && ! grep -q 'workers reported' run2.out 2>/dev/null; do sleep 0.1; w=$((w + 1)); done
sleep 1
killed=0
for p in $(ip netns pids "dtss-$tag-h2"); do kill -9 "$p" 2>/dev/null && killed=$((killed + 1)); done
[ $killed -ge 2 ]; check "machine h2 killed mid-run ($killed processes: sshd, pvmd, worker)" $?
wait_for $cpid 290
got=$(sed -n 's/^checksum \([0-9a-f]*\) .*/\1/p' run2.out)
[ "$rc" = 0 ] && [ -n "$want" ] && [ "$got" = "$want" ]
check "the run completes without h2, the image identical ($got, want $want, exit $rc)" $?
reissued=$("$BIN/record" run2.csv chunk reissue 2>/dev/null | grep -c '^1$')
[ "$reissued" -ge 1 ]; check "the record shows the lost chunk served again ($reissued re-issued)" $?
cd "$REPO" || exit 1
"$REPO/scripts/cluster" down >"$tmp/down.out" 2>&1
check "scripts/cluster down" $?
finish
