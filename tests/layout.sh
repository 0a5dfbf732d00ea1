#!/bin/sh
# layout.sh: the layers of DESIGN.md, checked on the sources and binaries:
# the wire protocol is in one file (no pvm_pk / pvm_upk / pvm_send call
# outside runtime/core/wire.c), PVM stays out of sched/, sim/, dag/, mandel/ and
# thin/, sched/, cost/ and sim/ include no layer above them, a private header
# (*_impl.h) stays in its folder, the applications see the runtime only
# through its public header, the master does not include the worker's
# headers, bin/coordinator does not link the worker's /proc load probe, and
# no double is made an integer outside sched/util/conv.c.
set -u
BIN=${BIN:-bin}
REPO=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/lib.sh"
cd "$REPO" || exit 1

srcs=$(find . -path ./build -prune -o -path ./.git -prune -o \( -name '*.c' -o -name '*.h' \) -print)

# The transport seam: PVM in one file of the library.
pvmh=$(grep -ln '#include <pvm3.h>' $(find runtime -name '*.[ch]') | tr '\n' ' ')
[ "$pvmh" = "runtime/transport/pvm.c " ]
check "exactly one library file includes pvm3.h: runtime/transport/pvm.c (found: $pvmh)" $?
# MPI in one file of libdtss-mpi; outside the library only the raw MPI
# ping-pong that make bench measures the transport against includes it.
mpih=$(grep -ln '#include <mpi.h>' $srcs | sort | tr '\n' ' ')
[ "$mpih" = "./runtime/transport/mpi.c ./tests/mpi_pingpong.c " ]
check "exactly two files include mpi.h: the library's runtime/transport/mpi.c and the benchmark tests/mpi_pingpong.c (found: $mpih)" $?
calls=$(grep -ln '\bMPI_[A-Z][a-z_]*(' $(find runtime -name '*.c' ! -path runtime/transport/mpi.c))
[ -z "$calls" ]; check "no MPI_* call in the library outside runtime/transport/mpi.c ($calls)" $?
calls=$(grep -ln '\bpvm_[a-z]*(' $(find runtime -name '*.c' ! -path runtime/transport/pvm.c))
[ -z "$calls" ]; check "no pvm_* call in the library outside runtime/transport/pvm.c ($calls)" $?
# Outside the library, only bin/netpipe is a PVM program (it measures PVM
# itself); the applications, examples and tests go through libdtss.
progs=$(grep -ln '#include <pvm3.h>' $srcs | grep -v '^\./runtime/transport/pvm\.c$' | tr '\n' ' ')
[ "$progs" = "./scripts/netpipe.c " ]
check "outside the library only scripts/netpipe.c includes pvm3.h (found: $progs)" $?
pk=$(grep -ln 'pvm_pk[a-z]*(\|pvm_upk[a-z]*(\|pvm_send(\|pvm_mcast(' $srcs |
     grep -v '^\./runtime/transport/pvm\.c$\|^\./scripts/netpipe\.c$')
[ -z "$pk" ]; check "messages packed only by the transport (and bin/netpipe) ($pk)" $?
# The models include only core/, transport.h, the public header and their
# own folder -- not another model's files.
bad=""
for model in loop pool lb strips; do
    for f in $(find runtime/$model -name '*.[ch]'); do
        other=$(grep -o '#include "runtime/[^"]*"' "$f" | sed 's/#include "//; s/"$//' |
                grep -v "^runtime/dtss\.h$\|^runtime/core/\|^runtime/transport/transport\.h$\|^runtime/$model/")
        [ -z "$other" ] || bad="$bad $f:$other"
    done
done
[ -z "$bad" ]; check "each model includes only core/, transport.h and its own files ($bad)" $?
core=$(grep -ln '#include "runtime/\(loop\|pool\|lb\|strips\)/' $(find runtime/core runtime/transport -name '*.[ch]'))
[ -z "$core" ]; check "core/ and transport/ include no model ($core)" $?
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
priv=$(grep -ln '#include "runtime/' $(find coordinator worker examples thin heat matrix mandel -name '*.[ch]') |
       xargs -r grep -l '#include "runtime/[a-z]*/')
[ -z "$priv" ]; check "applications include only the public header runtime/dtss.h ($priv)" $?
cross=$(grep -ln '#include "worker/' $(find coordinator runtime -name '*.[ch]'))
[ -z "$cross" ]; check "the master includes no worker/ header ($cross)" $?
mw=$(grep -ln '#include "runtime/loop/worker\.h"\|#include "runtime/core/probe\.h"' runtime/loop/master.c \
     runtime/loop/hosts.c runtime/loop/options.c runtime/loop/serve_self.c runtime/loop/serve_tree.c)
# master.h includes probe.h for the back-end names only (inline): allowed.
[ -z "$(printf '%s' "$mw" | grep -v master.h)" ]; check "master files include no worker header ($mw)" $?
# A double made an integer only through sched/util/conv.h (conv_long,
# conv_clamp: range-checked): clang's AST finds every floating-to-integral
# conversion, cast or implicit (a compound assignment too) and every
# lround / llround / lrint call in the sources outside tests/; the only ones
# are conv.c's own two. The query must parse every file and find those two,
# so a clang-query that cannot run fails rather than passes.
if command -v clang-query >/dev/null 2>&1; then
    cat >"$tmp/f2i.query" <<'EOF2'
set output diag
match castExpr(hasCastKind("CK_FloatingToIntegral"))
match callExpr(callee(functionDecl(matchesName("^::(l|ll)(round|rint)[fl]?$"))))
match binaryOperator(isAssignmentOperator(), unless(hasOperatorName("=")), hasLHS(hasType(isInteger())), hasRHS(hasType(realFloatingPointType())))
EOF2
    c_srcs=$(printf '%s\n' $srcs | grep '\.c$' | grep -v '^\./tests/')
    # (mpi.h: Open MPI's include folders, for runtime/transport/mpi.c)
    clang-query -f "$tmp/f2i.query" $c_srcs -- -std=c11 -D_POSIX_C_SOURCE=200809L -I. \
        -Iruntime $(pkg-config --cflags ompi-c 2>/dev/null) >"$tmp/f2i.out" 2>&1
    qrc=$?
    hits=$(grep 'note: "root" binds here' "$tmp/f2i.out" | sed 's|^\(\./\)*||; s|^'"$REPO"'/||' |
           cut -d: -f1,2 | sort -u)
    other=$(printf '%s\n' "$hits" | grep -v '^sched/util/conv\.c:' | tr '\n' ' ')
    own=$(printf '%s\n' "$hits" | grep -c '^sched/util/conv\.c:')
    errs=$(grep -c 'error:' "$tmp/f2i.out")
    [ "$qrc" = 0 ] && [ "$errs" = 0 ] && [ "$own" = 2 ] && [ -z "$other" ]
    check "doubles made integers only in sched/util/conv.c (elsewhere: ${other:-none}; conv.c's own: $own; clang-query exit $qrc, $errs errors)" $?
else
    skip "clang-query missing (Debian: clang-tools; make test-deps): conversion check not run"
fi
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
