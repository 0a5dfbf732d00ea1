/* conv.c: doubles to integers, range-checked (conv.h): the project's only
 * floating-to-integer conversions. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "sched/util/conv.h"

/* 2^63, exact in a double: a truncated value t converts to long exactly
 * when -2^63 <= t < 2^63. */
#define TWO63 9223372036854775808.0

int conv_long(double x, long lo, long hi, long *out)
{
    double t = trunc(x);            /* NaN stays NaN: every comparison fails */
    if (!(t >= -TWO63 && t < TWO63))
        return -1;
    long v = (long)t;
    if (v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int conv_int(double x, int lo, int hi, int *out)
{
    long v;
    if (conv_long(x, lo, hi, &v) != 0)
        return -1;
    *out = (int)v;
    return 0;
}

long conv_clamp(double x, long lo, long hi)
{
    double t = trunc(x);
    if (isnan(t) || t < -TWO63)
        return lo;
    if (t >= TWO63)
        return hi;
    long v = (long)t;
    return v < lo ? lo : v > hi ? hi : v;
}

char *conv_g(double x, char *buf)
{
    for (int digits = 6; digits <= 17; digits++) {
        snprintf(buf, CONV_G, "%.*g", digits, x);
        if (digits == 17 || strtod(buf, NULL) == x || isnan(x))
            break;
    }
    return buf;
}
