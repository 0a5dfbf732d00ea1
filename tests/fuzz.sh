#!/bin/sh
# fuzz.sh: replays the fuzzing corpora (tests/fuzz/README.md): builds the
# libFuzzer harnesses (make fuzz-build: clang, ASan, UBSan) and runs each
# over every file of its corpus tests/fuzz/corpus/NAME, once each, in
# seconds; one check per harness, failing on a crash, a hang (5 s), a
# sanitizer report or a property a harness checks. Without clang or its
# libFuzzer every harness is skipped, with the reason. (make fuzz is the
# campaign that grows the corpora.)
set -u
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 2

names=$(ls tests/fuzz/*.c | sed 's|.*/||; s|\.c$||')
cc=${FUZZ_CC:-clang}
why=
if ! command -v "$cc" >/dev/null 2>&1; then
    why="$cc is not installed (apt-get install -y clang)"
else
    cat >"$tmp/probe.c" <<'EOF'
#include <stddef.h>
#include <stdint.h>
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);
int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) { (void)d; (void)n; return 0; }
EOF
    if ! "$cc" -fsanitize=fuzzer,address,undefined -o "$tmp/probe" "$tmp/probe.c" \
            >"$tmp/probe.log" 2>&1; then
        why="$cc has no libFuzzer (-fsanitize=fuzzer: $(head -c 200 "$tmp/probe.log" |
            tr '\n' ' '))"
    fi
fi
if [ -n "$why" ]; then
    for n in $names; do skip "fuzz $n: $why"; done
    finish
    exit
fi

if ! ${MAKE:-make} -k --no-print-directory fuzz-build >"$tmp/build.log" 2>&1; then
    bad "make fuzz-build: $(grep -m 3 -i -e error -e 'No rule' "$tmp/build.log" | tr '\n' ' ')"
fi
for n in $names; do
    bin=build/fuzz/$n
    if [ ! -x "$bin" ]; then
        bad "fuzz $n: $bin was not built"
        continue
    fi
    set -- tests/fuzz/corpus/"$n"/*
    if [ ! -f "$1" ]; then
        bad "fuzz $n: tests/fuzz/corpus/$n holds no inputs"
        continue
    fi
    "$bin" -timeout=5 -rss_limit_mb=2048 "$@" >"$tmp/$n.log" 2>&1
    rc=$?
    if [ "$rc" -ne 0 ] || grep -q -e '^==[0-9]*==ERROR' -e 'runtime error:' \
            -e 'FUZZ_CHECK failed' -e 'ERROR: libFuzzer' "$tmp/$n.log"; then
        at=$(grep -m 1 '^Running: ' "$tmp/$n.log" >/dev/null &&
             grep '^Running: ' "$tmp/$n.log" | tail -n 1 | sed 's/^Running: //')
        what=$(grep -m 1 -e 'ERROR: AddressSanitizer: [a-z-]*' -e 'runtime error: .*' \
            -e 'FUZZ_CHECK failed: .*' -e 'ERROR: libFuzzer: [a-z-]*' "$tmp/$n.log")
        bad "fuzz $n: exit $rc on ${at:-?}: $what"
    else
        ok "fuzz $n: $# corpus inputs replayed"
    fi
done
finish
