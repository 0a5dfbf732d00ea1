#!/bin/sh
# coordinator_cluster.sh: the coordinator on the emulated clusters of the
# paper: workers report the right V_i (from sp=) and Q_i (from the load);
# the integer A_i option leaves a loaded unit-speed host out; Tree runs on
# Table 2; a host deleted mid-run gives its chunk back. Brings up its own
# clusters (own CLUSTER_DIR) and takes them down.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d /tmp/dtss-cc.XXXXXX)
. "$(dirname "$0")/lib.sh"
export CLUSTER_DIR=$tmp/cluster DTSS_BIN=$BIN
cleanup() {
    [ -n "${KEEP:-}" ] && { echo "kept $tmp"; return; }
    "$REPO/scripts/cluster" down >/dev/null 2>&1
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

if [ "$(id -u)" -ne 0 ]; then
    skip "the emulated cluster needs root"
    finish
    exit
fi

up() {
    "$REPO/scripts/cluster" up --emulate "$1" >"$tmp/up.log" 2>&1 ||
        { cat "$tmp/up.log"; return 1; }
    . "$CLUSTER_DIR/env"
}
cd "$tmp" || exit 1
"$BIN/mandel" -S 240 -m 3000 -o ref.pgm -q

# ---- Table 2's cluster: V_i from sp=, Q_i from the load --------------------------
up "$REPO/hostfiles/table2"; check "table2 cluster up" $?
"$REPO/scripts/load" w1 3 >/dev/null
n=0
for p in $(cat "$DTSS_RUN/load/w1.pids"); do
    [ "$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$p/status)" = \
      "$(awk '$1 == "w1" { print $2 }' "$DTSS_RUN/cpus")" ] && n=$((n + 1))
done
[ $n = 3 ]; check "w1's 3 loaders run on w1's CPU ($n)" $?
"$BIN/coordinator" -S 240 -m 3000 -o img.pgm -r rec.csv -q >out.txt 2>&1
check "dtss on table2 with w1 loaded runs" $?
cmp -s ref.pgm img.pgm; check "image identical to bin/mandel's" $?
v=$("$BIN/record" rec.csv worker host,V | awk -F, '{ printf "%s=%s ", $1, $2 }')
[ "$v" = "w1=1 w2=1 w3=1 w4=6 " ]; check "V_i from sp=: $v" $?
q=$("$BIN/record" rec.csv report worker,Q |
   awk -F, '{ if (!($1 in q)) q[$1] = $2 } END { printf "%s %s %s %s", q[1], q[2], q[3], q[4] }')
[ "$q" = "4 1 1 1" ]; check "first Q_i reports: 4 on the loaded w1, 1 elsewhere (got $q)" $?
a=$("$BIN/record" rec.csv report worker,A | awk -F, '$1 == 1 { print $2; exit }')
[ "$a" = 0.25 ]; check "A_1 = V_1 / Q_1 = 1/4 (got $a)" $?
"$BIN/record" rec.csv worker backend,cgroup,host,seen_host |
    awk -F, '$1 == "cgroup" && $2 ~ "^/dtss/" && $3 == $4 { n++ } END { exit !(n == 4) }'
check "each worker runs in its host: own host name, cgroup probe" $?

# The paper's integer A_i: w1 (V = 1, Q = 4) has A = 0 and never works.
"$BIN/coordinator" --acp-int -S 240 -m 3000 -o img.pgm -r int.csv -q >/dev/null 2>&1
check "--acp-int runs" $?
cmp -s ref.pgm img.pgm; check "--acp-int: image identical" $?
chunks1=$("$BIN/record" int.csv worker worker,chunks | awk -F, '$1 == 1 { print $2 }')
zero1=$("$BIN/record" int.csv report worker,A | awk -F, '$1 == 1 && $2 == 0 { n++ } END { print n + 0 }')
[ "$chunks1" = 0 ] && [ "$zero1" -ge 1 ]
check "--acp-int: loaded unit-speed w1 reports A = 0 and gets no chunk" $?
"$REPO/scripts/load" w1 0 >/dev/null

"$BIN/coordinator" -s tree -S 240 -m 3000 -o img.pgm -r tree.csv -q >/dev/null 2>&1
check "tree on table2 runs" $?
cmp -s ref.pgm img.pgm; check "tree: image identical" $?
w4=$("$BIN/record" tree.csv chunk worker,reissue,size | awk -F, '$1 == 4 && $2 == 0 { print $3; exit }')
[ "$w4" -ge 150 ] 2>/dev/null; check "tree: w4 (sp 6000) starts with 6/9 of the rows (got $w4)" $?
"$REPO/scripts/cluster" down >/dev/null 2>&1

# ---- Table 1's cluster: a host deleted mid-run ----------------------------------
up "$REPO/hostfile"; check "table1 cluster up" $?

# ---- the PVM console's spawn: the README's recipe, ten times ----------------------
# console_spawn HOSTFLAG K: runs `spawn HOSTFLAG-> coordinator ...` in the
# console, feeding it empty lines (it shows a task's output when it reads a
# line) until the run's record or an error line is there; output in con-K.txt.
console_spawn() {
    (echo "spawn $1-> coordinator -S 120 -m 400 -o none -r $tmp/con-$2.csv"
     i=0
     while [ $i -lt 100 ] && [ ! -s "$tmp/con-$2.csv" ] &&
           ! grep -q "PVM started this master" "$tmp/con-$2.txt" 2>/dev/null; do
         sleep 0.1; echo; i=$((i + 1))
     done
     sleep 0.3; echo quit) | timeout 30 pvm >"$tmp/con-$2.txt" 2>&1
}
ok_runs=0
for k in 1 2 3 4 5 6 7 8 9 10; do
    console_spawn "-master " "m$k"
    hosts=$("$BIN/record" "$tmp/con-m$k.csv" worker host,backend 2>/dev/null | tr '\n' ' ')
    [ "$hosts" = "w1,cgroup w2,cgroup w3,cgroup w4,cgroup " ] && ok_runs=$((ok_runs + 1))
done
[ $ok_runs = 10 ]; check "spawn -master -> coordinator: 10 of 10 runs on the four emulated hosts ($ok_runs)" $?
# Without -master the console may place the coordinator on a worker's host:
# then it refuses, naming the recipe; never a run with the wrong hosts.
refused=0 right=0 wrong=0
for k in 1 2 3 4 5 6; do
    console_spawn "" "p$k"
    if grep -q "start it on master: spawn -master -> coordinator" "$tmp/con-p$k.txt"; then
        [ ! -e "$tmp/con-p$k.csv" ] && refused=$((refused + 1))
    elif [ "$("$BIN/record" "$tmp/con-p$k.csv" worker host 2>/dev/null | tr '\n' ' ')" = "w1 w2 w3 w4 " ]; then
        right=$((right + 1))
    else
        wrong=$((wrong + 1))
    fi
done
[ $wrong = 0 ] && [ $((refused + right)) = 6 ]
check "spawn -> coordinator without a host: runs right or refuses with the recipe ($right ran, $refused refused, $wrong otherwise)" $?
# The library a user installs is the plain build (umake, tests/lib.sh).
# A user's program, compiled from the installed library alone, on the cluster.
umake -s -C "$REPO" install PREFIX="$tmp/prefix" >/dev/null 2>&1
check "make install into a temporary prefix" $?
mkdir -p "$tmp/user" && cp "$REPO/examples/integral.c" "$tmp/user/"
# shellcheck disable=SC2046
(cd "$tmp/user" && cc -std=c11 -o integral integral.c $(PKG_CONFIG_PATH="$tmp/prefix/lib/pkgconfig" \
    pkg-config --cflags --libs dtss)) >/dev/null 2>&1
check "the example compiles with pkg-config --cflags --libs dtss" $?
(cd "$tmp/user" && timeout 120 ./integral -n 400 >out.txt 2>&1)
grep -q "^dtss: W1 .* W2 .* W3 .* W4 .* Finish" "$tmp/user/out.txt" &&
    awk '/^pi/ { e = $NF; gsub(/[()]/, "", e); exit !(e + 0 < 1e-9) }' "$tmp/user/out.txt"
check "the installed example runs on the emulated cluster: four workers, pi to 1e-9" $?

# The run takes about 5 s (600x600 at 40000 iterations on one core shared by
# four hosts); w3 leaves 1.5 s into it.
"$BIN/mandel" -S 600 -m 40000 -o big.pgm -q
"$BIN/coordinator" -s dtss -S 600 -m 40000 -o del.pgm -r del.csv >del.txt 2>&1 &
coord=$!
sleep 1
# Each host's worker runs on the host's CPU (scripts/cluster, assign_cpus).
pinned=0 seen=0
for d in /proc/[0-9]*; do
    [ "$(cat "$d/comm" 2>/dev/null)" = worker ] || continue
    h=$(sed -n "s|.*:/dtss/$DTSS_CLUSTER/\([^/]*\)\$|\1|p" "$d/cgroup" 2>/dev/null | head -n 1)
    [ -n "$h" ] || continue
    seen=$((seen + 1))
    want=$(awk -v h="$h" '$1 == h { print $2 }' "$DTSS_RUN/cpus")
    got=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' "$d/status")
    [ "$got" = "$want" ] && pinned=$((pinned + 1))
done
[ $seen = 4 ] && [ $pinned = 4 ]; check "every worker pinned to its host's CPU ($pinned of $seen)" $?
sleep 0.5
(echo "delete w3"; sleep 1) | pvm >/dev/null 2>&1
n=600
while [ $n -gt 0 ] && kill -0 $coord 2>/dev/null; do sleep 0.1; n=$((n - 1)); done
kill $coord 2>/dev/null
wait $coord; rc=$?
[ $rc = 0 ]; check "host deleted mid-run: the run finishes (exit $rc)" $?
grep -q "worker 3 on w3 .*\(deleted\|exited\)" del.txt; check "the coordinator noticed w3 leaving" $?
"$BIN/record" del.csv chunk reissue,done | awk -F, '$1 == 1 && $2 == 1 { n++ } END { exit !(n >= 1) }'
check "w3's chunk was served again" $?
cmp -s big.pgm del.pgm; check "host deleted mid-run: image identical" $?
finish
