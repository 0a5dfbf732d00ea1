/* conv.h: a double made an integer, range-checked -- the one way the
 * project turns a computed count or cost (a chunk size, a pixel, a number
 * of steps, a target) into an integer.
 *
 * Why: a C cast of a double that is NaN, infinite or outside the integer
 * type's range is undefined behaviour (on x86-64 it gives LONG_MIN, and a
 * loop up to it runs 9.2e18 times), and lround / llround / lrint return an
 * unspecified value then. Every such conversion outside this file goes
 * through one of the two functions below; tests/layout.sh finds any other
 * (clang's AST: a floating-to-integral conversion anywhere but here).
 *
 *   conv_long   where the value can come from input: 0 and *out, or -1
 *               (out unchanged) for NaN, an infinity, or a value out of
 *               [lo, hi]; the caller refuses it with a message naming it.
 *   conv_clamp  where the value is in range by construction: the caller
 *               says why at the call. Out-of-range values (which cannot
 *               occur there) are clamped, NaN gives lo: defined, never UB.
 *
 * Both truncate toward zero, as a cast does: round first (floor, ceil,
 * round -- which rounds halves away from zero, as lround does) when another
 * rounding is meant. long is 64 bits here (LP64, as int64_t and long long).
 */
#ifndef CONV_H
#define CONV_H

/* x truncated toward zero into *out when it lies in [lo, hi] (lo <= hi):
 * returns 0; -1 for NaN, +-inf or a value outside, *out unchanged. The
 * bounds are compared exactly, not through their doubles ((double)LONG_MAX
 * is 2^63, one past it). */
int conv_long(double x, long lo, long hi, long *out);

/* The same for an int. */
int conv_int(double x, int lo, int hi, int *out);

/* x truncated toward zero, clamped to [lo, hi]; NaN gives lo. For values in
 * range by construction only (the call says why). */
long conv_clamp(double x, long lo, long hi);

/* x as the shortest %g text that reads back as x (at most 17 digits:
 * "1e+15", "1000000000000000.1"), into buf (CONV_G bytes at least), for a
 * message naming a value at a limit. Returns buf. */
#define CONV_G 32
char *conv_g(double x, char *buf);

#endif
