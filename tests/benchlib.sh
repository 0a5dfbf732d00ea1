# benchlib.sh: what the benchmarks of make bench share (sourced; BENCH names
# the benchmark in its messages). Ratios are computed in one run and judged on
# the quotient itself, not as printed; a measurement missing stops the
# benchmark: no ratio is ever printed over no runs.
now() { date +%s.%N; }
# ratio A B: A / B, 3 decimals. verdict A B TARGET: "held" when A / B <=
# TARGET, else "did not hold".
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }
verdict() { awk -v a="$1" -v b="$2" -v t="$3" 'BEGIN { print (a / b <= t ? "held" : "did not hold") }'; }
# need FILE N WHAT: FILE holds N numbers, one a line, or the benchmark stops
# (exit 1) saying what is missing.
need() {
    got=$(grep -c '^[0-9][0-9.e+-]*$' "$1" 2>/dev/null)
    [ "${got:-0}" = "$2" ] && [ "$(wc -l <"$1")" = "$2" ] && return 0
    echo "${BENCH:-bench}: $3: ${got:-0} of $2 measurements (is every program built? 'make bench' builds them)" >&2
    exit 1
}
# median FILE, minimum FILE: of its numbers, one a line; runs FILE: them on one line
median() { sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
minimum() { sort -n "$1" | head -n 1; }
runs() { tr '\n' ' ' <"$1" | sed 's/ $//'; }
# omp_report LABEL WHOLE NOTE TARGET: DTSS's runs (dtss.txt: the records'
# finish; wall.txt: the whole commands) against OpenMP's (omp.txt) and the
# sequential time $seq, each file 5 numbers (need them first): the medians,
# the speedups, the range of the runs, the two ratios and their verdicts.
omp_report() {
    [ -n "$seq" ] && [ -z "$(printf '%s' "$seq" | tr -d '0-9.')" ] ||
        { echo "${BENCH:-bench}: bin/mandel: no sequential time" >&2; exit 1; }
    omp=$(median omp.txt) fin=$(median dtss.txt) wall=$(median wall.txt)
    echo "  sequential bin/mandel       $seq s"
    echo "  OpenMP guided, 2 threads    $omp s  (median; runs: $(runs omp.txt))"
    printf '  %-27s %.3f s finish, %s s %s\n' "$1" "$fin" "$wall" "$2"
    echo "                              (medians; finish: $(runs dtss.txt); whole: $(runs wall.txt))"
    echo "$seq $omp $fin $(minimum dtss.txt) $(sort -n dtss.txt | tail -n 1)" | awk '{
        printf "  speedup over sequential: DTSS %.2f, OpenMP %.2f\n", $1 / $3, $1 / $2
        printf "  the DTSS runs (finish) range %.3f-%.3f of the OpenMP median\n", $4 / $2, $5 / $2 }'
    echo "  ratio DTSS/OpenMP = $(ratio "$fin" "$omp") of the medians, finish:" \
         "target <= $4 $(verdict "$fin" "$omp" "$4")"
    echo "  ratio DTSS/OpenMP = $(ratio "$wall" "$omp") of the medians, $2" \
         "$3: target <= $4 $(verdict "$wall" "$omp" "$4")"
}
