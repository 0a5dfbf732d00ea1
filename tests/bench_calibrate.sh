#!/bin/sh
# bench_calibrate.sh: what a chunk's messages cost an emulated host on this
# machine (make bench): scripts/calibrate again into build/calibration (the
# file the league reads), each coefficient printed beside the stored one
# (sim/platforms/emulated.cal, fitted on another machine) as a ratio. Needs
# root (the emulated cluster); about two minutes. Fails loudly when the
# runs or the fit fail or a coefficient is missing.
set -u
BIN=${BIN:-bin}
BIN=$(cd "$BIN" && pwd)
REPO=$(cd "$(dirname "$0")/.." && pwd)
OUT=${CALIB_DIR:-$REPO/build/calibration}
log=$(mktemp)
trap 'rm -f "$log"' EXIT
BIN=$BIN "$REPO/scripts/calibrate" --out "$OUT" >"$log" 2>&1 ||
    { cat "$log"; echo "bench_calibrate: scripts/calibrate failed" >&2; exit 1; }
echo "calibration of this machine ($OUT/emulated.cal) against the stored one (sim/platforms/emulated.cal):"
awk 'FNR == 1 { f++ } /^#/ { next } f == 1 { new[$1] = $2 } f == 2 { old[$1] = $2 }
     END {
         n = split("send_s_per_byte wake_s wake_load_s", k, " ")
         for (i = 1; i <= n; i++) {
             if (!(k[i] in new) || !(k[i] in old) || old[k[i]] + 0 <= 0) {
                 printf "bench_calibrate: %s missing or not positive\n", k[i] > "/dev/stderr"; bad = 1; continue
             }
             printf "  %-16s %.4g s here, %.4g s stored: ratio %.3f\n", k[i], new[k[i]], old[k[i]], new[k[i]] / old[k[i]]
         }
         exit bad
     }' "$OUT/emulated.cal" "$REPO/sim/platforms/emulated.cal"
