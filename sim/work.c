/* work.c: the cost of a range of iterations of a workload (sim_work,
 * sim_reach), apart from workload.c's readers, so that the engine and the
 * selection of --scheme auto (select.c) link without GSL's random numbers
 * or the cost models (libdtss holds them: sim/select.h).
 *
 * Iteration costs are kept as prefix sums in the scheduled order, the linear
 * kinds in closed form (workload.c says why).
 */
#include <stdlib.h>

#include "sim/sim.h"

void sim_workload_free(sim_workload *w)
{
    free(w->prefix);
    w->prefix = NULL;
}

/* Sum of a + b i over original iterations i = r + m R, m in [m0, m1). */
static double class_sum(const sim_workload *w, long r, long m0, long m1)
{
    double c = (double)(m1 - m0);
    return c * (w->a + w->b * (double)r) +
           w->b * (double)w->sample * ((double)m0 + (double)m1 - 1) * c / 2;
}

/* Sum over the whole classes r in [x, y), each of cnt iterations:
 * sum of class_sum(w, r, 0, cnt), in closed form. */
static double classes_sum(const sim_workload *w, long x, long y, long cnt)
{
    if (x >= y)
        return 0;
    double k = (double)(y - x), c = (double)cnt;
    return c * (w->a * k + w->b * ((double)x + (double)y - 1) * k / 2) +
           w->b * (double)w->sample * (c - 1) * c / 2 * k;
}

double sim_work(const sim_workload *w, long start, long size)
{
    if (size <= 0)
        return 0;
    if (w->kind == SIM_ARRAY)
        return w->prefix[start + size] - w->prefix[start];
    if (w->b == 0)
        return w->a * (double)size;
    long R = w->sample, n = w->n, end = start + size;
    if (R == 1)
        return class_sum(w, 0, start, end);
    /* The classes of the sampled loop (sched_sample): with n = qR + s,
     * classes r < s hold q + 1 iterations, the others q; class r starts at
     * r q + min(r, s). The first and last classes of the chunk may be
     * partial, those between are whole: O(1) however large R is. */
    long q = n / R, s = n % R;
    long big = s * (q + 1);
    long r0 = start < big ? start / (q + 1) : s + (start - big) / q;
    long r1 = end - 1 < big ? (end - 1) / (q + 1) : s + (end - 1 - big) / q;
    long off0 = r0 * q + (r0 < s ? r0 : s), off1 = r1 * q + (r1 < s ? r1 : s);
    if (r0 == r1)
        return class_sum(w, r0, start - off0, end - off0);
    long mid = r1 < s ? r1 : s, from = r0 + 1 > s ? r0 + 1 : s;
    return class_sum(w, r0, start - off0, q + (r0 < s)) +
           classes_sum(w, r0 + 1, mid, q + 1) + classes_sum(w, from, r1, q) +
           class_sum(w, r1, 0, end - off1);
}

long sim_reach(const sim_workload *w, long start, long limit, double work)
{
    double tol = work * 1e-12 + 1e-12;
    if (sim_work(w, start, limit) <= work + tol)
        return limit;
    long lo = 0, hi = limit;                /* work(lo) <= work < work(hi) */
    while (hi - lo > 1) {
        long mid = lo + (hi - lo) / 2;
        if (sim_work(w, start, mid) <= work + tol)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}
