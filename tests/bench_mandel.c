/* bench_mandel.c: kernel throughput next to a plain C loop, in one run. */
#include <gsl/gsl_statistics_double.h>
#include <stdio.h>
#include <time.h>

#include "mandel/mandel.h"

#define REPS 5

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The straightforward loop, as in any textbook. */
static uint32_t plain(double cr, double ci, uint32_t maxiter)
{
    double x = 0, y = 0;
    uint32_t n = 0;
    while (n < maxiter && x * x + y * y <= 4.0) {
        double t = x * x - y * y + cr;
        y = 2 * x * y + ci;
        x = t;
        n++;
    }
    return n;
}

int main(void)
{
    mandel_params p;
    mandel_defaults(&p);
    p.width = p.height = 400;
    p.maxiter = 4000;
    static uint32_t row[400];
    double rate_k[REPS], rate_p[REPS];
    uint64_t it_k = 0, it_p = 0;
    for (int r = 0; r < REPS; r++) {
        double t0 = now();
        it_k = 0;
        for (int y = 0; y < p.height; y++)
            it_k += mandel_row(&p, y, row);
        double t1 = now();
        it_p = 0;
        double dx = 4.0 / p.width, dy = 4.0 / p.height;
        for (int y = 0; y < p.height; y++)
            for (int x = 0; x < p.width; x++)
                it_p += plain(-2 + (x + 0.5) * dx, 2 - (y + 0.5) * dy, p.maxiter);
        double t2 = now();
        rate_k[r] = it_k / (t1 - t0);
        rate_p[r] = it_p / (t2 - t1);
    }
    double mk = gsl_stats_mean(rate_k, 1, REPS), sk = gsl_stats_sd(rate_k, 1, REPS);
    double mp = gsl_stats_mean(rate_p, 1, REPS), sp = gsl_stats_sd(rate_p, 1, REPS);
    printf("mandel kernel  %dx%d maxiter %u, %d runs, one core\n", p.width,
           p.height, p.maxiter, REPS);
    printf("  kernel      %.3g +- %.2g iterations/s\n", mk, sk);
    printf("  plain loop  %.3g +- %.2g iterations/s\n", mp, sp);
    printf("  ratio kernel/plain = %.2f (>= 1 means the kernel is not slower)\n",
           mk / mp);
    if (it_k != it_p) {
        printf("  ERROR: the two loops counted %llu and %llu iterations\n",
               (unsigned long long)it_k, (unsigned long long)it_p);
        return 1;
    }
    return 0;
}
