/* parse.c: strict number parsing for the programs' command lines. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "sched/util/conv.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

int parse_long(const char *s, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno == ERANGE)
        return -1;
    *out = v;
    return 0;
}

int parse_int(const char *s, int *out)
{
    long v;
    if (parse_long(s, &v) != 0 || v < INT_MIN || v > INT_MAX)
        return -1;
    *out = (int)v;
    return 0;
}

int parse_long_in(const char *s, long lo, long hi, long *out)
{
    long v;
    if (parse_long(s, &v) != 0 || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

int parse_int_in(const char *s, int lo, int hi, int *out)
{
    long v;
    if (parse_long_in(s, lo, hi, &v) != 0)
        return -1;
    *out = (int)v;
    return 0;
}

int parse_whole(double v, long lo, long hi, long *out)
{
    if (v != floor(v))                  /* a fraction (NaN, inf: conv_long's) */
        return -1;
    return conv_long(v, lo, hi, out);
}

int parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end != '\0' || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

int parse_double_list(const char *s, double *out, int max)
{
    int n = 0;
    const char *p = s;
    for (;;) {
        char *end;
        errno = 0;
        double v = strtod(p, &end);
        if (end == p || errno == ERANGE || !isfinite(v) || n >= max)
            return -1;
        out[n++] = v;
        if (*end == '\0')
            return n;
        if (*end != ',')
            return -1;
        p = end + 1;
    }
}

void parse_scheme_options(struct option *opts, int *n, int max, int val)
{
    int first = *n;
    for (int i = 0; sched_types[i]; i++)
        for (int j = 0; sched_types[i]->params[j].name; j++) {
            const char *name = sched_types[i]->params[j].name;
            int seen = 0;
            for (int k = first; k < *n; k++)
                seen |= strcmp(opts[k].name, name) == 0;
            if (!seen && *n < max - 1)
                opts[(*n)++] = (struct option){name, required_argument, NULL, val};
        }
    opts[*n] = (struct option){NULL, 0, NULL, 0};
}

int parse_fail(const char *prog, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "%s: ", prog);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    return 2;
}

int parse_getopt_error(const char *prog, int c, char **argv)
{
    /* getopt leaves the option in argv[optind - 1] when it needs a value, or
     * is an unknown long option (optopt 0); an unknown short option may sit
     * inside a group (-qZ) that optind has not passed yet: name the letter. */
    const char *opt = optind > 0 ? argv[optind - 1] : "?";
    char shortopt[3] = {'-', (char)optopt, '\0'};
    if (c == ':')
        return parse_fail(prog, "option '%s' needs a value (try --help)", quote(opt));
    if (optopt)
        opt = shortopt;
    return parse_fail(prog, "unknown option '%s' (try --help)", quote(opt));
}
