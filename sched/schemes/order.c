/* order.c: the orders every part of the scheduler shares: the loop's
 * pseudo-uniform sampling, the workers' order by power, and the virtual
 * computing powers V_i (sched.h, "Orders"). */
#include <stdlib.h>

#include "sched/sched.h"

/* Pseudo-uniform sampling (Xu & Chronopoulos Sec. 4.2): n = qR + s; the s
 * classes i = r (mod R) with r < s hold q + 1 iterations, the others q; the
 * sampled loop visits class 0, then class 1, ..., each in increasing order. */
long sched_sample(long k, long n, long R)
{
    if (n < 0 || R < 1 || k < 0 || k >= n)
        return -1;
    long q = n / R, s = n % R;
    long big = s * (q + 1);             /* positions taken by the s big classes */
    if (k < big)
        return k / (q + 1) + (k % (q + 1)) * R;
    k -= big;
    return s + k / q + (k % q) * R;     /* q >= 1 here, since k < n - big */
}

long sched_unsample(long i, long n, long R)
{
    if (n < 0 || R < 1 || i < 0 || i >= n)
        return -1;
    long q = n / R, s = n % R;
    long r = i % R, m = i / R;
    return r * q + (r < s ? r : s) + m;
}

long sched_sample_run(long k, long end, long n, long R)
{
    long i = sched_sample(k, n, R);
    if (i < 0)
        return 0;
    if (end > n)
        end = n;
    if (R == 1 || n <= R)                   /* the original order */
        return end - k;
    /* Within a class the stride is R > 1: only a class's last iteration
     * and the next class's first can be neighbours (n <= R aside). */
    long m = 1;
    while (k + m < end && sched_sample(k + m, n, R) == i + m)
        m++;
    return m;
}

/* Decreasing power, then increasing worker index: a total order, so every
 * sort is deterministic. */
static int by_power(const void *a, const void *b)
{
    const sched_rank *x = a, *y = b;
    if (x->power != y->power)
        return x->power < y->power ? 1 : -1;
    return (x->w > y->w) - (x->w < y->w);
}

void sched_rank_sort(sched_rank *r, size_t n)
{
    qsort(r, n, sizeof *r, by_power);
}

int sched_speeds(const double *speed, int n, double *V)
{
    if (n < 1)
        return -1;
    double slowest = speed[0];
    for (int i = 0; i < n; i++) {
        if (!(speed[i] > 0))
            return -1;
        if (speed[i] < slowest)
            slowest = speed[i];
    }
    for (int i = 0; i < n; i++)
        V[i] = speed[i] / slowest;
    return 0;
}
