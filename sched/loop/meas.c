/* meas.c: a worker's measured iteration times (meas.h). West's weighted
 * Welford update: with weight g and sample x,
 *   W' = W + g,  mean' = mean + (g / W') (x - mean),
 *   M2' = M2 + g (x - mean) (x - mean').                                    */
#include <math.h>

#include "sched/loop/meas.h"

void sched_meas_clear(sched_meas *m)
{
    *m = (sched_meas){0, 0, 0, 0, 0};
}

void sched_meas_add(sched_meas *m, double seconds, long iterations, double cost)
{
    if (iterations < 1)
        return;
    double g = (double)iterations, t = seconds > 0 ? seconds : 0, x = t / g;
    m->n += iterations;
    double d = x - m->mean;
    m->mean += g / (double)m->n * d;
    m->m2 += g * d * (x - m->mean);
    m->cost += cost >= 0 && isfinite(cost) ? cost : g;
    m->time += t;
}

static int finite_time(double t)
{
    return t >= 0 && isfinite(t);
}

int sched_meas_ok(const sched_request *rq)
{
    return rq->n == 0 || (rq->n > 0 && finite_time(rq->mu) && finite_time(rq->rate) &&
                          (isnan(rq->sigma) || finite_time(rq->sigma)));
}

void sched_meas_get(const sched_meas *m, sched_request *rq)
{
    rq->n = m->n;
    rq->mu = m->n > 0 ? m->mean : NAN;
    rq->sigma = m->n > 1 ? sqrt(m->m2 > 0 ? m->m2 / (double)m->n : 0) : NAN;
    rq->rate = m->time > 0 ? m->cost / m->time : 0;
}
