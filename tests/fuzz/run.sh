#!/bin/sh
# run.sh: make fuzz's campaign (tests/fuzz/README.md). For each harness NAME
# given, runs build/fuzz/NAME for FUZZ_SECONDS (default 60) from its corpus
# tests/fuzz/corpus/NAME (or, with FUZZ_RUNS=N, for N executions, at most
# FUZZ_MAX_SECONDS, default 7200), new inputs going to a scratch folder, then merges
# those that add coverage back into the corpus (-merge=1; a corpus over 200
# files is minimised whole, then its largest files go). Prints per harness
# the executions, exec/s and whether a crash, hang or sanitizer report
# happened (its reproducer is in build/fuzz/artifacts/), and exits non-zero
# on any. Inputs are at most
# FUZZ_MAX_LEN bytes (4096), so a corpus stays under 1 MB.
set -u
cd "$(dirname "$0")/../.." || exit 2
secs=${FUZZ_SECONDS:-60}
runs=${FUZZ_RUNS:-}
case $runs in
    '') limit="-max_total_time=$secs" ;;
    *[!0-9]*) echo "run.sh: FUZZ_RUNS='$runs' must be a number of executions" >&2; exit 2 ;;
    *) limit="-runs=$runs -max_total_time=${FUZZ_MAX_SECONDS:-7200}" ;;
esac
maxlen=${FUZZ_MAX_LEN:-4096}
art=build/fuzz/artifacts
mkdir -p "$art" build/fuzz/logs
failed=0
printf '%-10s %10s %8s %6s  %s\n' harness execs exec/s corpus result
for name in "$@"; do
    bin=build/fuzz/$name
    corpus=tests/fuzz/corpus/$name
    log=build/fuzz/logs/$name.log
    mkdir -p "$corpus"
    scratch=$(mktemp -d) || exit 2
    # shellcheck disable=SC2086 (limit: two words, digits only)
    "$bin" $limit -timeout=5 -rss_limit_mb=2048 -max_len="$maxlen" \
        -print_final_stats=1 -artifact_prefix="$art/$name-" "$scratch" "$corpus" \
        >"$log" 2>&1
    rc=$?
    execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -n 1)
    if [ "$rc" -eq 0 ] && ! grep -q -e '^==[0-9]*==ERROR' -e 'runtime error:' \
            -e '^SUMMARY: ' -e 'ERROR: libFuzzer' "$log"; then
        result=ok
        # Keep what adds coverage; a corpus grown past 200 files is minimised.
        "$bin" -merge=1 -timeout=5 -rss_limit_mb=2048 -max_len="$maxlen" \
            "$corpus" "$scratch" >>"$log" 2>&1 || result="ok (merge failed: $log)"
        if [ "$(ls "$corpus" | wc -l)" -gt 200 ]; then
            # Minimise whole, keeping the named seeds (libFuzzer names the
            # files it adds by their SHA-1); still over 200: the largest go.
            min=$(mktemp -d)
            ls "$corpus" | grep -v -E '^[0-9a-f]{40}$' | sed "s|^|$corpus/|" |
                xargs -r cp -t "$min"
            if "$bin" -merge=1 -timeout=5 -rss_limit_mb=2048 -max_len="$maxlen" \
                    "$min" "$corpus" >>"$log" 2>&1; then
                rm -f "$corpus"/*
                cp "$min"/* "$corpus"/
            fi
            rm -rf "$min"
            excess=$(($(ls "$corpus" | wc -l) - 200))
            [ "$excess" -gt 0 ] && ls -S "$corpus" | grep -E '^[0-9a-f]{40}$' |
                head -n "$excess" | sed "s|^|$corpus/|" | xargs -r rm -f
        fi
    else
        failed=$((failed + 1))
        what=$(grep -m 1 -o -e 'ERROR: AddressSanitizer: [a-z-]*' -e 'runtime error: .*' \
            -e 'ERROR: libFuzzer: [a-z-]*' -e 'FUZZ_CHECK failed: .*' "$log" | head -n 1)
        unit=$(sed -n 's/.*Test unit written to //p' "$log" | tail -n 1)
        result="FAIL (exit $rc${what:+: $what}${unit:+; input $unit}; log $log)"
    fi
    rm -rf "$scratch"
    printf '%-10s %10s %8s %6s  %s\n' "$name" "${execs:-?}" "${rate:-?}" \
        "$(ls "$corpus" | wc -l)" "$result"
done
[ "$failed" -eq 0 ]
