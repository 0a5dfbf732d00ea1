/* bench_sched.c: cost of computing one chunk size, for every scheme. */
#include <gsl/gsl_statistics_double.h>
#include <stdio.h>
#include <time.h>

#include "sched/sched.h"

#define REPS 5
#define CALLS 2000000L

static volatile long sink;  /* keeps the calls from being optimised away */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
    printf("cost of one sched_next call (I = 10^12, P = 64; %ld calls, %d runs)\n",
           CALLS, REPS);
    for (int i = 0; sched_types[i]; i++) {
        const sched_type *T = sched_types[i];
        double ns[REPS];
        for (int r = 0; r < REPS; r++) {
            sched_config cfg;
            sched_err err;
            sched_config_init(&cfg, T, 1000000000000L, 64);
            sched *s = sched_new(&cfg, &err);
            if (!s) {
                printf("  %-5s error: %s\n", T->name, err.msg);
                return 1;
            }
            double t0 = now();
            long calls = 0, start, size;
            while (calls < CALLS) {
                size = sched_next(s, 1.0 + (calls & 3), &start);
                if (size <= 0) {            /* ran out: start over */
                    sched_free(s);
                    s = sched_new(&cfg, &err);
                }
                sink = size;
                calls++;
            }
            ns[r] = (now() - t0) * 1e9 / calls;
            sched_free(s);
        }
        printf("  %-5s %6.1f +- %4.1f ns per chunk\n", T->name,
               gsl_stats_mean(ns, 1, REPS), gsl_stats_sd(ns, 1, REPS));
    }
    return 0;
}
