/* stats.c: bin/stats, mean and standard deviation of the numbers on stdin
 * (GSL's gsl_stats_mean and gsl_stats_sd, the sample standard deviation),
 * for the shell scripts that tabulate repeated runs.
 *
 *   ... | stats          prints: mean sd n min max
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

int main(int argc, char **argv)
{
    if (argc > 1) {
        if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0) {
            printf("usage: stats < numbers\nprints the mean, standard deviation "
                   "(n - 1), count, minimum and maximum of the numbers read\n");
            return 0;
        }
        fprintf(stderr, "stats: no arguments (try --help)\n");
        return 2;
    }
    size_t n = 0, cap = 64;
    double *x = malloc(sizeof *x * cap), v;
    char word[128];
    while (x && scanf("%127s", word) == 1) {
        char *end;
        v = strtod(word, &end);
        if (end == word || *end) {
            fprintf(stderr, "stats: '%s' is not a number\n", word);
            free(x);
            return 2;
        }
        if (n == cap) {
            double *y = realloc(x, sizeof *x * (cap *= 2));
            if (!y)
                break;
            x = y;
        }
        x[n++] = v;
    }
    if (!x || n == 0) {
        fprintf(stderr, "stats: no numbers\n");
        free(x);
        return 1;
    }
    double lo, hi;
    gsl_stats_minmax(&lo, &hi, x, 1, n);
    printf("%.6g %.6g %zu %.6g %.6g\n", gsl_stats_mean(x, 1, n),
           n > 1 ? gsl_stats_sd(x, 1, n) : 0.0, n, lo, hi);
    free(x);
    return 0;
}
