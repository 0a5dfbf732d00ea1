#!/bin/sh
# fuzz_argv.sh: every program's options, fuzzed a little (make fuzz does
# more, on the sanitizer build): 60 random command lines a program from its
# own --help options and hostile values (bin/fuzz_argv, tests/fuzz_argv.c),
# a fixed seed; none may crash, abort or exit with a status other than 0, 1
# or 2. Each run is in a private folder, with no pvmd to find.
set -u
BIN=${BIN:-bin}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"

"$BIN/fuzz_argv" "$BIN" 60 1 3 >"$tmp/out" 2>&1
rc=$?
cat "$tmp/out"
for p in chunks mandel coordinator worker integral loop tabulate record sim stats dagsched \
         daggen dagexp matrix pooltrace thin thin-images thin-pool yoon-plan netpipe heat yoon-tasks \
         yoon-sim jacobi heat-pvm readings; do
    line=$(awk -v p="$p" '$1 == p' "$tmp/out")
    [ -n "$line" ] && [ "$(echo "$line" | awk '{ print $NF }')" = 0 ]
    check "$p: 60 fuzzed command lines, none crashed ($line)" $?
done
[ "$rc" = 0 ]; check "fuzz_argv exits 0 (exit $rc)" $?
finish
