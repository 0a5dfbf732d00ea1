#!/bin/sh
# layout.sh: the layers of DESIGN.md, checked on the sources and binaries:
# the wire protocol is in one file (no pvm_pk / pvm_upk / pvm_send call
# outside runtime/core/wire.c), PVM stays out of sched/, sim/, dag/, mandel/ and
# thin/, sched/, cost/ and sim/ include no layer above them, a private header
# (*_impl.h) stays in its folder, the applications see the runtime only
# through its public header, the master does not include the worker's
# headers, and bin/coordinator does not link the worker's /proc load probe.
set -u
BIN=${BIN:-bin}
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1

srcs=$(find . -path ./build -prune -o -path ./.git -prune -o \( -name '*.c' -o -name '*.h' \) -print)
calls=$(grep -ln 'pvm_pk[a-z]*(\|pvm_upk[a-z]*(\|pvm_send(\|pvm_mcast(' $srcs | grep -v "^./runtime/core/wire\\.c$")
[ -z "$calls" ]; check "pvm_pk*/pvm_upk*/pvm_send only in runtime/core/wire.c (also in: $calls)" $?
pvm=$(grep -ln '#include <pvm3.h>' $(find sched sim dag mandel thin heat coordinator worker examples \
      -name '*.[ch]' 2>/dev/null))
[ -z "$pvm" ]; check "no PVM header in sched/ sim/ dag/ mandel/ thin/ heat/ or the applications ($pvm)" $?
# The lower layers include nothing above them (DESIGN.md). incl FILES: the
# project headers they include, as FILE:LINE:NAME (any spacing, ../ dropped).
incl() {
    grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$@" /dev/null |
        sed 's|^\([^:]*:[0-9]*\):[^"]*"\(\.\./\)*\([^"]*\)".*|\1:\3|'
}
apps='\(mandel\|matrix\|thin\|heat\|coordinator\|worker\|examples\|dag\)/'
# cost/: the workloads' costs, its own header only.
up=$(incl $(find cost -name '*.[ch]') | grep -v ':cost/[^/]*$')
[ -z "$up" ]; check "cost/ includes only its own header ($up)" $?
# sim/: the decisions (sched/) and the costs (cost/), no application, no runtime.
up=$(incl $(find sim -name '*.[ch]') | grep ":\(runtime/\|$apps\)")
[ -z "$up" ]; check "sim/ includes neither the runtime nor an application ($up)" $?
# sched/: the decisions, the lowest layer: only its own headers (no runtime,
# simulator, cost model or application).
up=$(incl $(find sched -name '*.[ch]') | grep -v ':sched/')
[ -z "$up" ]; check "sched/ includes only sched/ headers ($up)" $?
# A private header (*_impl.h: what the files of one folder share, as
# sched/schemes/sched_impl.h, dag/dag_impl.h) is included only in its folder,
# and by the module's own unit test (tests/test_thin.c: thin/thin_impl.h).
up=$(incl $(printf '%s\n' $srcs | sed 's|^\./||') | awk -F: '$3 ~ /_impl\.h$/ {
         d = $1; sub(/\/[^\/]*$/, "", d); h = $3
         if (h ~ /\//) sub(/\/[^\/]*$/, "", h); else h = d
         if (d != h && index($1 "|" $3, "tests/test_" h ".c|" h "/") != 1)
             print $1 ":" $2 ":" $3 }')
[ -z "$up" ]; check "private headers (*_impl.h) included only in their own folder ($up)" $?
priv=$(grep -ln '#include "runtime/\(master\|worker\|wire\|probe\)\.h"' \
       $(find coordinator worker examples thin -name '*.[ch]'))
[ -z "$priv" ]; check "applications include only runtime/dtss.h ($priv)" $?
cross=$(grep -ln '#include "worker/' $(find coordinator runtime -name '*.[ch]'))
[ -z "$cross" ]; check "the master includes no worker/ header ($cross)" $?
mw=$(grep -ln '#include "runtime/worker\.h"\|#include "runtime/probe\.h"' runtime/loop/master.c \
     runtime/loop/hosts.c runtime/loop/options.c runtime/loop/serve_self.c runtime/loop/serve_tree.c)
# master.h includes probe.h for the back-end names only (inline): allowed.
[ -z "$(printf '%s' "$mw" | grep -v master.h)" ]; check "master files include no worker header ($mw)" $?
if command -v nm >/dev/null 2>&1 && [ -x "$BIN/coordinator" ]; then
    nm "$BIN/coordinator" >"$tmp/nm" 2>/dev/null
    grep -q ' T probe_init$' "$tmp/nm"; [ $? -ne 0 ]
    check "bin/coordinator does not link the load probe" $?
    nm "$BIN/worker" 2>/dev/null | grep -q ' T probe_init$'
    check "bin/worker does (the check can fail)" $?
else
    skip "nm or bin/coordinator missing: binary checks not run"
fi
finish
