#!/bin/sh
# record.sh: bin/record, the scripts' way into a run record: fields by name in
# the order asked, the text exactly as the writer stored it, workload fields,
# --count, and clear errors (exit 2 usage, naming the valid names; exit 1 a
# bad record, naming FILE:LINE).
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$tmp" || exit 1

# A record of the simulator (the coordinator writes the same): four hosts,
# w2 failing at once (no chunk done: empty finish; its chunk not done:
# empty worker times), the Mandelbrot rows of a small image.
cat >fail.plat <<'P'
host w1 speed=2.5e7
host w2 speed=2.5e7 fail=0.005
host w3 speed=2.5e7 load=0:1
host w4 speed=2.5e7
link * * latency=0.0002 bandwidth=1e8
P
cat >run.scn <<'S'
platform fail.plat
workload mandel size=200 maxiter=500
scheme dtss
sample 4
S
"$BIN/sim" run.scn -r a.csv -q
check "a record to read (bin/sim)" $?

run "record --help lists the kinds and fields" 0 "chunk .*received,reissue,done" "$BIN/record" --help
run "record -h" 0 "^usage: record FILE KIND" "$BIN/record" -h

# ---- fields by name -----------------------------------------------------------
v=$("$BIN/record" a.csv run scheme,workers,iterations,sample)
[ "$v" = "dtss,4,200,4" ]; check "run: scheme,workers,iterations,sample (got $v)" $?
v=$("$BIN/record" a.csv run sample,scheme)
[ "$v" = "4,dtss" ]; check "fields in the order asked (got $v)" $?
v=$("$BIN/record" a.csv run width,height,maxiter)
[ "$v" = "200,200,500" ]; check "run: workload fields width,height,maxiter (got $v)" $?
v=$("$BIN/record" a.csv run scheme,checksum,date)
[ "$v" = "dtss,," ]; check "an absent workload field and the simulator's empty date (got '$v')" $?
v=$("$BIN/record" a.csv run workload)
[ "$v" = "mandel size=200 maxiter=500" ]; check "run: the workload's description (got '$v')" $?
v=$("$BIN/record" a.csv run scheme,scheme)
[ "$v" = "dtss,dtss" ]; check "a field asked twice prints twice" $?
v=$("$BIN/record" a.csv worker worker,host,chunks,finish | sed -n 2p)
[ "$v" = "2,w2,0," ]; check "worker without chunks: finish empty (got '$v')" $?
n=$("$BIN/record" a.csv chunk done,recv | grep -c '^0,$')
[ "$n" -ge 1 ]; check "a chunk not done: recv empty ($n such)" $?

# ---- the text as stored: every line of every kind rebuilt from its fields ------
for kind in run worker report chunk; do
    fields=$(sed -n "s/^#$kind,//p" a.csv)
    "$BIN/record" a.csv "$kind" "$fields" | sed "s/^/$kind,/" >"$kind.got"
    if [ "$kind" = run ]; then
        grep "^run," a.csv | cut -d, -f1-9 >"$kind.want"
    else
        grep "^$kind," a.csv >"$kind.want"
    fi
    [ -s "$kind.want" ] && cmp -s "$kind.want" "$kind.got"
    check "$kind: every line rebuilt byte for byte from the named fields" $?
done

# Columns are found by the header's names, not by position: the same record
# with the worker columns reordered and one more column prints the same.
awk -F, -v OFS=, '$1 == "#worker" || $1 == "worker" { t = $3; $3 = $11; $11 = t; $0 = $0 ",extra" } { print }' \
    a.csv >moved.csv
"$BIN/record" moved.csv worker worker,host,finish >moved.got &&
    "$BIN/record" a.csv worker worker,host,finish >moved.want
cmp -s moved.want moved.got; check "columns found by header name (reordered, one added)" $?

# ---- several kinds in one reading: each line starts with its kind --------------
# The lines of the kinds asked, in the file's order, as their one-kind calls
# give them (the league reads a run's finish, workers and chunks so).
"$BIN/record" a.csv run finish,imbalance worker worker,host,finish chunk worker,started,done >multi.got
{ "$BIN/record" a.csv run finish,imbalance | sed 's/^/run,/'
  "$BIN/record" a.csv worker worker,host,finish | sed 's/^/worker,/'
  "$BIN/record" a.csv chunk worker,started,done | sed 's/^/chunk,/'; } >multi.want
sort multi.got >multi.gs && sort multi.want >multi.ws && cmp -s multi.gs multi.ws
check "three kinds at once: the lines of their three calls, each with its kind" $?
grep -v '^#' a.csv | grep -E '^(run|worker|chunk),' | cut -d, -f1 >order.want
cut -d, -f1 multi.got >order.got
cmp -s order.want order.got; check "three kinds at once: in the file's order" $?
v=$("$BIN/record" a.csv chunk size report Q | grep -c '^report,')
[ "$v" = "$(grep -c '^report,' a.csv)" ]; check "two kinds: every report line, prefixed ($v)" $?
run "a KIND without its FIELDS" 2 "a KIND without its FIELDS: 'worker'" "$BIN/record" a.csv run finish worker
run "a kind asked twice" 2 "kind 'run' asked twice" "$BIN/record" a.csv run finish run scheme
run "an unknown second kind" 2 "unknown kind 'rpt'" "$BIN/record" a.csv run finish rpt Q
run "a bad field of the second kind" 2 "chunk has no field 'x'" "$BIN/record" a.csv run finish chunk size,x
run "--help shows the pairs" 0 "KIND FIELD\[,FIELD...\]\]\.\.\." "$BIN/record" --help

# ---- --count ------------------------------------------------------------------
for kind in run worker report chunk; do
    n=$("$BIN/record" --count a.csv "$kind")
    want=$(grep -c "^$kind," a.csv)
    [ "$n" = "$want" ]; check "--count $kind = $want (got $n)" $?
done
run "-c is not record's (costs, elsewhere): an unknown option" 2 "unknown option '-c'" "$BIN/record" -c a.csv worker

# ---- errors -------------------------------------------------------------------
run "unknown kind: names the valid ones" 2 "unknown kind 'runs' (valid: run, worker, report, chunk)" \
    "$BIN/record" a.csv runs finish
run "unknown field: names the valid ones" 2 "worker has no field 'rows' (valid: worker, host, seen_host" \
    "$BIN/record" a.csv worker worker,rows
run "run: a name that cannot be a workload key" 2 "run has no field 'fin ish'" \
    "$BIN/record" a.csv run "fin ish"
run "an empty field name" 2 "run has no field ''" "$BIN/record" a.csv run finish,
run "missing FIELD" 2 "needs FILE KIND FIELD" "$BIN/record" a.csv run
run "--count takes no FIELD" 2 "unexpected argument 'finish'" "$BIN/record" --count a.csv run finish
run "unknown option" 2 "unknown option '--bogus'" "$BIN/record" --bogus a.csv run finish
run "standard input refused" 2 "FILE '-'" "$BIN/record" - run finish
run "missing file" 2 "nosuch.csv: No such file" "$BIN/record" nosuch.csv run finish
sed 's/^\(worker,3,.*\),[0-9.]*$/\1,soon/' a.csv >bad.csv
line=$(grep -n '^worker,3,' bad.csv | cut -d: -f1)
run "a bad value: record_read's FILE:LINE" 2 "bad.csv:$line: finish 'soon' is not a finite number" \
    "$BIN/record" bad.csv worker finish
printf 'index,row,cost\n0,0,1\n' >costs.csv
run "not a run record" 2 "costs.csv:1: unknown record kind 'index'" "$BIN/record" costs.csv run finish
[ -z "$("$BIN/record" bad.csv run finish 2>/dev/null)" ]
check "a bad record prints nothing on stdout" $?

# ---- hostile records: every field checked, each refused within seconds --------
# edit KIND N VALUE: a.csv with field N (1 = the kind) of the last KIND line
# set to VALUE, into e.csv; $eline is that line's number.
edit() {
    eline=$(grep -n "^$1," a.csv | tail -n 1 | cut -d: -f1)
    awk -F, -v OFS=, -v l="$eline" -v n="$2" -v v="$3" 'NR == l { $n = v } { print }' \
        a.csv >e.csv
}
# refused NAME KIND N VALUE PATTERN: record_read refuses it naming e.csv:LINE.
refused() {
    edit "$2" "$3" "$4"
    run "refused: $1" 2 "e.csv:$eline: $5" timeout 10 "$BIN/record" e.csv run finish
}
# accepted NAME KIND N VALUE: the edge value passes.
accepted() {
    edit "$2" "$3" "$4"
    run "accepted: $1" 0 "" timeout 10 "$BIN/record" e.csv run finish
}
last=$(grep '^chunk,' a.csv | tail -n 1)
lstart=$(echo "$last" | cut -d, -f4) lsize=$(echo "$last" | cut -d, -f5)
[ $((lstart + lsize)) = 200 ]; check "the last chunk ends at the 200 iterations ($lstart+$lsize)" $?
refused "chunk size 10^18" chunk 5 1000000000000000000 \
    "size '1000000000000000000' must be an integer in \[0, $lsize\]"
refused "chunk size 1e18" chunk 5 1e18 "size '1e18' must be an integer"
refused "chunk size 2^50 (tabulate looped over it)" chunk 5 1125899906842624 "size '1125899906842624'"
refused "chunk one past the iterations" chunk 5 $((lsize + 1)) "size '$((lsize + 1))' must be an integer in \[0, $lsize\]"
accepted "chunk ending at the last iteration" chunk 5 "$lsize"
refused "negative chunk start" chunk 4 -1 "start '-1' must be an integer in \[0, 200\]"
refused "chunk start past the iterations" chunk 4 201 "start '201'"
edit chunk 4 200 && awk -F, -v OFS=, -v l="$eline" 'NR == l { $5 = 0 } { print }' e.csv >e2.csv && mv e2.csv e.csv
run "accepted: an empty chunk at the end" 0 "" timeout 10 "$BIN/record" e.csv run finish
refused "chunk start 2^63 (overflow)" chunk 4 9223372036854775808 "start '9223372036854775808'"
refused "nan sent time" chunk 7 nan "sent 'nan' is not a finite number"
refused "inf received time" chunk 11 inf "received 'inf' is not a finite number"
refused "negative sent time (master's clock)" chunk 7 -0.5 "sent '-0.5' must be a number in \[0, 1e+09\]"
accepted "sent at t = 0" chunk 7 0
accepted "a worker's clock before t = 0 (recv)" chunk 8 -0.5
refused "a worker's time of 1e300" chunk 10 1e300 "finished '1e300' must be a number in \[-1e+09, 1e+09\]"
refused "chunk worker 99999" chunk 3 99999 "worker '99999' must be an integer in \[1, 4\]"
refused "chunk worker 0" chunk 3 0 "worker '0' must be an integer in \[1, 4\]"
accepted "chunk worker 4 of 4" chunk 3 4
refused "negative acp" chunk 6 -1 "acp '-1' must be a number"
refused "chunk done 2" chunk 13 2 "done '2'"
refused "run: negative finish" run 6 -1 "finish '-1' must be a number in \[0, 1e+09\]"
accepted "run: finish 0" run 6 0
refused "run: nan imbalance" run 7 nan "imbalance 'nan' is not a finite number"
refused "run: iterations -1" run 4 -1 "iterations '-1' must be an integer"
refused "run: 2^20 + 1 workers" run 3 1048577 "workers '1048577' must be an integer in \[1, 1048576\]"
refused "run: sample 0" run 5 0 "sample '0' must be an integer in \[1, "
refused "worker: number 99999" worker 2 99999 "worker '99999' must be an integer in \[1, 4\]"
refused "worker: tid 2^31" worker 5 2147483648 "tid '2147483648' must be an integer in \[-2147483648, 2147483647\]"
refused "worker: negative V" worker 6 -2 "V '-2' must be a number"
refused "worker: nan finish" worker 11 nan "finish 'nan' is not a finite number"
refused "report: worker 5 of 4" report 2 5 "worker '5' must be an integer in \[1, 4\]"
refused "report: nan time" report 3 nan "time 'nan' is not a finite number"
accepted "report: before t = 0" report 3 -0.25
refused "report: Q -1" report 4 -1 "Q '-1' must be an integer"
refused "report: A -inf" report 5 -inf "A '-inf' is not a finite number"

# ---- bin/tabulate, the records' other reader ---------------------------------
# Table 1's four cases simulated (one run each), the scenario files, the costs.
"$BIN/mandel" -S 100 -m 300 -R 4 -c costs.csv -q
for scen in dedicated nondedicated; do
    mkdir -p t1/$scen
    load=""; [ $scen = nondedicated ] && load=" load=0:3"
    printf 'host w1 speed=1e5%s\nhost w2 speed=1e5\n' "$load" >t1/$scen/plat
    printf 'seq 1\nhost w1 0.5 %d\nhost w2 0.5 1\n' $([ $scen = nondedicated ] && echo 4 || echo 1) \
        >t1/$scen/info
    for s in tss dtss; do
        printf 'platform plat\nworkload mandel costs=%s\nscheme %s\nsample 4\n' "$tmp/costs.csv" $s \
            >t1/$scen/$s.scn
        "$BIN/sim" t1/$scen/$s.scn -r t1/$scen/$s-1.csv -q
    done
done
"$BIN/tabulate" --table 1 --dir t1 --costs costs.csv --out tab
check "tabulate reads the records" $?
n=$(grep -c '^1,,[a-z]*,[a-z]*,ours,1,' tab.csv)
[ "$n" = 4 ]; check "tabulate: tab.csv has the 4 cases (got $n)" $?
f=$("$BIN/record" t1/nondedicated/dtss-1.csv run finish)
grep -q "^1,,dtss,nondedicated,t1/nondedicated/dtss-1.csv,.*,$(printf %.4f "$f")," tab-runs.csv
check "tabulate: a run's finish as in its record ($f)" $?
grep -q '^| DTSS | Not dedicated | [0-9.]*% | [0-9.]*% | ' tab.md; check "tabulate: the last chunk's share" $?
grep -q '^| TSS | Dedicated | .* | 1.00 s | [0-9.]* | – | – |$' tab.md
check "tabulate: no 'delivered' lines, no delivered ideal (–)" $?
# The ideal of the delivered speeds: seq 1 over 0.2 + 0.3 cores = 2 s
# (promised: 1 / (0.5 + 0.5) = 1 s), so finish / it is half finish / ideal.
printf 'delivered w1 0.2\ndelivered w2 0.3\n' >>t1/dedicated/info
"$BIN/tabulate" --table 1 --dir t1 --costs costs.csv --out tab
check "tabulate reads 'delivered' lines" $?
grep -q '^| TSS | Dedicated | .* | 1.00 s | [0-9.]* | 2.00 s | [0-9.]* |$' tab.md
check "tabulate: the delivered ideal, 2.00 s, beside the promised 1.00 s" $?
awk -F, '$3 == "tss" && $4 == "dedicated" && $5 == "ours" {
    r = $(NF - 2) / $NF; exit !($(NF - 1) == "2.0000" && r > 1.99 && r < 2.01) }' tab.csv
check "tabulate.csv: ideal_delivered 2.0000, finish over it half finish over the ideal" $?
awk -F, '$4 == "nondedicated" && $5 == "ours" { exit !($(NF - 1) == "" && $NF == "") }' tab.csv
check "tabulate.csv: a scenario without 'delivered' lines leaves both columns empty" $?
echo "delivered w3 fast" >>t1/dedicated/info
run "tabulate: a bad delivered line names FILE:LINE" 2 "t1/dedicated/info:6: delivered w3: CORES 'fast'" \
    "$BIN/tabulate" --table 1 --dir t1 --out tab
sed -i '/^delivered/d' t1/dedicated/info
run "tabulate without --out" 2 "need --table 1|2" "$BIN/tabulate" --table 1 --dir t1
run "tabulate --table 3" 2 "'3'" "$BIN/tabulate" --table 3 --dir t1 --out tab
run "tabulate unknown option" 2 "unknown option '--tables'" "$BIN/tabulate" --tables 1
echo "host w3 0.5 0" >>t1/dedicated/info
run "tabulate: a bad info line names FILE:LINE" 2 "t1/dedicated/info:4: host w3: Q '0'" \
    "$BIN/tabulate" --table 1 --dir t1 --out tab
sed -i '$d' t1/dedicated/info
cp bad.csv t1/dedicated/tss-2.csv
run "tabulate: a bad record names FILE:LINE" 2 "t1/dedicated/tss-2.csv:$line: finish 'soon'" \
    "$BIN/tabulate" --table 1 --dir t1 --out tab
# A chunk past the image's rows (size 2^50 - 1): tabulate summed the costs of
# 2^50 iterations (a hang); record_read refuses it at once.
cp t1/dedicated/tss-1.csv t1/dedicated/tss-2.csv
l=$(grep -n '^chunk,' t1/dedicated/tss-2.csv | tail -n 1 | cut -d: -f1)
awk -F, -v OFS=, -v l="$l" -v v=1125899906842623 'NR == l { $5 = v } { print }' t1/dedicated/tss-1.csv \
    >t1/dedicated/tss-2.csv
run "tabulate: a chunk of 2^50 - 1 iterations refused within seconds" 2 \
    "t1/dedicated/tss-2.csv:$l: size '1125899906842623' must be an integer in \[0, " \
    timeout 10 "$BIN/tabulate" --table 1 --dir t1 --costs costs.csv --out tab
rm -f t1/dedicated/tss-2.csv
"$BIN/tabulate" --table 1 --dir t1 --costs costs.csv --out tab
check "tabulate: the good records still read" $?

# Two readings side by side (issue 25): the same runs under two names, and a
# second reading whose loaded DTSS run is made slower than TSS by hand.
cp -r t1 t1b
awk -F, -v OFS=, '$1 == "run" { $6 = 1000 } { print }' t1/nondedicated/dtss-1.csv \
    >t1b/nondedicated/dtss-1.csv
"$BIN/tabulate" --table 1 --dir t1 --name rows --costs costs.csv --dir t1b --name other --out two
check "tabulate: two readings" $?
grep -q '^| TSS | Dedicated | [0-9.]* / [0-9.]* | [0-9.]* / [0-9.]* | 29 / 2 |$' two.md
check "tabulate: the readings side by side, the paper's beside" $?
grep -q '^## Reading: rows (t1)$' two.md && grep -q '^## Reading: other (t1b)$' two.md
check "tabulate: each reading's section" $?
tf=$("$BIN/record" t1/nondedicated/tss-1.csv run finish)
df=$("$BIN/record" t1/nondedicated/dtss-1.csv run finish)
want=$(awk -v t="$tf" -v d="$df" 'BEGIN { print (d < t) ? 1 : 0 }')
grep -q "^- Table 1 not dedicated: DTSS finishes before TSS: \*\*held in $want of 2 readings\*\* (rows: $([ "$want" = 1 ] && echo held || echo 'did not hold') .*other: did not hold (" two.md
check "tabulate: DTSS before TSS held in $want of 2 (the second reading's DTSS at 1000 s)" $?
[ "$(grep -c '^1,rows,[a-z]*,[a-z]*,ours,' two.csv)" = 4 ] && [ "$(grep -c '^1,other,[a-z]*,[a-z]*,ours,' two.csv)" = 4 ] &&
    [ "$(grep -c '^1,,[a-z]*,[a-z]*,paper,' two.csv)" = 4 ]
check "tabulate.csv: 4 cases a reading, the paper's once" $?
grep -q '^1,other,dtss,nondedicated,t1b/nondedicated/dtss-1.csv,.*,1000.0000,' two-runs.csv
check "tabulate-runs.csv: the reading's name and its run" $?
run "tabulate: several readings need names" 2 "--dir t1b has no --name" \
    "$BIN/tabulate" --table 1 --dir t1 --name rows --dir t1b --out two
run "tabulate: a name twice" 2 "--name rows given twice" \
    "$BIN/tabulate" --table 1 --dir t1 --name rows --dir t1b --name rows --out two
run "tabulate: a name with a comma" 2 "--name 'a,b' must be" \
    "$BIN/tabulate" --table 1 --dir t1 --name a,b --out two
run "tabulate: --costs before --dir" 2 "--costs costs.csv before any --dir" \
    "$BIN/tabulate" --table 1 --costs costs.csv --dir t1 --out two
"$BIN/mandel" -W 80 -H 100 -m 300 --columns -c short.csv -q
run "tabulate: the costs of another loop (80 columns for 100 rows)" 2 "the costs short.csv 80: not the same image and loop" \
    "$BIN/tabulate" --table 1 --dir t1 --costs short.csv --out two

finish
