/* stats.c: bin/stats, mean and standard deviation of the numbers on stdin
 * (GSL's gsl_stats_mean and gsl_stats_sd, the sample standard deviation),
 * for the shell scripts that tabulate repeated runs.
 *
 *   ... | stats            prints: mean sd n min max
 *   ... | stats --groups   reads lines "KEY NUMBER"; prints "KEY mean sd n min
 *                          max" for every run of lines with the same KEY
 *                          (many groups in one call: scripts/reproduce-dag)
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "sched/util/closeout.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

static void usage(FILE *f)
{
    fprintf(f, "usage: stats [--groups] < numbers\n"
            "prints the mean, standard deviation (n - 1), count, minimum and maximum\n"
            "of the numbers read\n"
            "      --groups  read lines KEY NUMBER; one line KEY mean sd n min max\n"
            "                for every run of lines with the same KEY\n"
            "  -h, --help    this help\n"
            "exit status: 0 done; 1 out of memory, or standard output could not be\n"
            "written (said); 2 bad input: a bad option, no number read, a line that is\n"
            "not numbers (said, with its number; NaN and infinities refused)\n");
}

typedef struct { double *x; size_t n, cap; } sample;

static int add(sample *s, double v)
{
    if (s->n == s->cap) {
        size_t cap = s->cap ? 2 * s->cap : 64;
        double *x = realloc(s->x, sizeof *x * cap);
        if (!x)
            return -1;
        s->x = x;
        s->cap = cap;
    }
    s->x[s->n++] = v;
    return 0;
}

/* Prints [KEY ]mean sd n min max of s (n >= 1). */
static void report(const char *key, const sample *s)
{
    double lo, hi;
    gsl_stats_minmax(&lo, &hi, s->x, 1, s->n);
    if (key)
        printf("%s ", key);
    printf("%.6g %.6g %zu %.6g %.6g\n", gsl_stats_mean(s->x, 1, s->n),
           s->n > 1 ? gsl_stats_sd(s->x, 1, s->n) : 0.0, s->n, lo, hi);
    closeout_check();
}

/* Reads stdin; returns the exit status. */
static int run(int groups, sample *s, char **line, char **key)
{
    size_t cap = 0;
    long lineno = 0;
    while (getline(line, &cap, stdin) >= 0) {
        lineno++;
        const char *sep = " \t\r\n";
        char *save = NULL, *w = strtok_r(*line, sep, &save);
        if (groups && w) {
            char *k = w;
            w = strtok_r(NULL, sep, &save);
            if (!w || strtok_r(NULL, sep, &save)) {
                fprintf(stderr, "stats: line %ld: expected KEY NUMBER\n", lineno);
                return 2;
            }
            if (*key && strcmp(*key, k) != 0) {
                report(*key, s);
                s->n = 0;
            }
            if (s->n == 0) {
                free(*key);
                if (!(*key = strdup(k))) {
                    fprintf(stderr, "stats: out of memory\n");
                    return 1;
                }
            }
        }
        for (; w; w = groups ? NULL : strtok_r(NULL, sep, &save)) {
            double v;
            if (parse_double(w, &v) != 0) {
                fprintf(stderr, "stats: line %ld: '%s' is not a finite number\n", lineno,
                        quote(w));
                return 2;
            }
            if (add(s, v) != 0) {
                fprintf(stderr, "stats: out of memory\n");
                return 1;
            }
        }
    }
    if (ferror(stdin)) {
        perror("stats: reading standard input");
        return 2;
    }
    if (s->n == 0) {
        fprintf(stderr, "stats: no numbers\n");
        return 2;
    }
    report(groups ? *key : NULL, s);
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"groups", no_argument, NULL, 1001},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int groups = 0, c;
    closeout_init("stats");
    parse_gsl_errors("stats", 1);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 1001: groups = 1; break;
        case 'h': usage(stdout); return 0;
        default:
            return parse_getopt_error("stats", c, argv);
        }
    }
    if (optind < argc) {
        fprintf(stderr, "stats: no arguments (try --help)\n");
        return 2;
    }
    sample s = {NULL, 0, 0};
    char *line = NULL, *key = NULL;
    int rc = run(groups, &s, &line, &key);
    free(s.x);
    free(line);
    free(key);
    return rc;
}
