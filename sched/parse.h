/* parse.h: strict number parsing for the programs' command lines.
 *
 * Each function parses the whole string (no trailing characters, no empty
 * string, no overflow) and returns 0, or -1 leaving *out unchanged. */
#ifndef PARSE_H
#define PARSE_H

int parse_long(const char *s, long *out);
int parse_int(const char *s, int *out);
int parse_double(const char *s, double *out);   /* finite values only */

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

#endif
