/* parse.h: strict number parsing for the programs' command lines.
 *
 * Each function parses the whole string (no trailing characters, no empty
 * string, no overflow) and returns 0, or -1 leaving *out unchanged. */
#ifndef PARSE_H
#define PARSE_H

int parse_long(const char *s, long *out);
int parse_int(const char *s, int *out);
int parse_double(const char *s, double *out);   /* finite values only */

/* The same, and lo <= value <= hi: the one way the programs turn a user's
 * text into an integer, so no value is ever narrowed or wrapped (3000000000
 * for an int, -1 for an unsigned). */
int parse_long_in(const char *s, long lo, long hi, long *out);
int parse_int_in(const char *s, int lo, int hi, int *out);

/* A number already read as a double (a key=value file, a list) as an
 * integer: 0 and *out = v when v is a whole number in [lo, hi]; -1 (out
 * unchanged) for a fraction, NaN, an infinity or a value out of range,
 * compared before any conversion (a double-to-integer cast of an
 * out-of-range value is undefined behaviour). */
int parse_whole(double v, long lo, long hi, long *out);

/* Parses a comma-separated list of finite doubles into out[0..max-1]; returns
 * the number of values, or -1 for a malformed list or more than max values. */
int parse_double_list(const char *s, double *out, int max);

/* Prints "PROG: MESSAGE" on stderr and returns 2, the exit status of a usage
 * error: `return parse_fail("chunks", "-I '%s' is not an integer", arg);` */
int parse_fail(const char *prog, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The end of every program's getopt_long loop, with optstring starting with
 * ':': for c = ':' (an option without its value) or '?' (unknown), prints
 * "PROG: option '...' needs a value (try --help)" or "PROG: unknown option
 * '...' (try --help)" and returns 2:
 *     default: return parse_getopt_error("sim", c, argv);            */
int parse_getopt_error(const char *prog, int c, char **argv);

/* Appends a long option (required argument, flag NULL, value 'val') for every
 * parameter name of every scheme to opts[*n ...], without duplicates, at
 * most up to index max - 1; leaves opts terminated by a zero entry. */
struct option;
void parse_scheme_options(struct option *opts, int *n, int max, int val);

/* GSL's default error handler aborts the program (a core dump for a bad
 * argument). This installs one that prints "PROG: GSL error: REASON
 * (FILE:LINE, GSL's text)" on stderr and exits with 'status' (the program's
 * "run failed" status), for every program that calls GSL. prog must stay
 * valid. In sched/util/gsl_errors.c (libdtss, which holds this file, needs no
 * GSL). */
void parse_gsl_errors(const char *prog, int status);

#endif
