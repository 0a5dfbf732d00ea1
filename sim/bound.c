/* bound.c: a lower bound on the finish of any schedule of a loop on a
 * simulated platform, under the simulator's own model of what a host can
 * compute and what a message costs it (sim.h: sim_bound).
 *
 * The loop's W cost units must all be computed, and every byte of its
 * results (result_bytes an iteration, N iterations) costs its host
 * send_cost units before it leaves: some host does W + send_cost x N x
 * result_bytes units in all. Host i can begin no earlier than
 *
 *     x_i = l(master, i) + dispatch + (wake + wake_load x its other
 *           processes at that time) / its speed,
 *
 * its first chunk's way from the master and the wake of an idle worker, and
 * what it computes counts only if its results leave by T - l(i, master).
 * Computing without a pause from x_i is the most it can do by then: alone it
 * runs at its core's speed while its period's quota lasts and idling saves
 * none of it; loaded, its share of each period's quota comes at fixed times
 * (sim_cpu_run). So, with cap_i(T) what sim_cpu_run lets host i compute from
 * x_i to T - l(i, master) (0 if that is before x_i; not past its failure),
 *
 *     finish >= min { T : sum_i cap_i(T) >= W + send_cost x N x result_bytes }.
 *
 * The quota's burst is in it: a quarter-core host that was idle computes its
 * first 5 ms of a period at the whole core's speed, which the plain ideal
 * W / sum_i speed_i / (1 + extra_i) does not see, so that a schedule can beat
 * that ideal but never this bound. Not charged, so that it stays a bound: the
 * wakes after each host's first, the master's time, the links' bandwidth, the
 * chunks' sizes. Bisection on T, and on the units for cap_i (sim_cpu_run gives
 * the time of a given amount of work), the units asked less 1e-9 of them (a
 * quota's capacity is flat between its windows: the bisections' last bits
 * must not push T to the next window).
 */
#include <math.h>
#include <stdlib.h>

#include "sim/engine.h"
#include "sim/sim.h"

/* What host h computes from x to 'end' without a pause (its quota from the
 * start of the period x falls in: a worker idle until then). */
static double cap(const sim_host *h, double x, double end)
{
    if (!(end > x))
        return 0;
    if (!(h->quota > 0))
        return sim_work_between(h, x, end);     /* a constant speed: its integral */
    double core = h->speed * h->period / h->quota;
    double lo = 0, hi = core * (end - x);       /* at most its core's speed throughout */
    sim_cpu st = {0, 0};
    if (sim_cpu_run(h, &st, x, hi) <= end)
        return hi;
    for (int k = 0; k < 200 && hi - lo > 1e-13 * hi; k++) {
        double mid = 0.5 * (lo + hi);
        st = (sim_cpu){0, 0};
        if (sim_cpu_run(h, &st, x, mid) <= end)
            lo = mid;
        else
            hi = mid;
    }
    return lo;
}

static double total_cap(const sim_config *c, const double *x, const double *back, double T)
{
    const sim_platform *pf = c->platform;
    double s = 0;
    for (int i = 0; i < pf->nhosts; i++) {
        const sim_host *h = &pf->hosts[i];
        double end = T - back[i];
        if (h->fail >= 0 && h->fail < end)
            end = h->fail;
        s += cap(h, x[i], end);
    }
    return s;
}

double sim_bound(const sim_config *c, double *need_out)
{
    const sim_platform *pf = c->platform;
    const sim_workload *w = c->workload;
    double need = w->total + c->send_cost * c->result_bytes * (double)w->n;
    if (need_out)
        *need_out = need;
    if (!(need > 0))
        return 0;
    double *x = malloc(sizeof *x * (size_t)pf->nhosts * 2);
    if (!x)
        return NAN;
    double *back = x + pf->nhosts, first = INFINITY;
    for (int i = 0; i < pf->nhosts; i++) {
        const sim_host *h = &pf->hosts[i];
        double t = sim_link_between(pf, pf->master, h->cluster)->latency + c->dispatch;
        double units = c->wake + c->wake_load * sim_extra_at(h, t);
        x[i] = t + (units > 0 ? units / h->speed : 0);
        back[i] = sim_link_between(pf, h->cluster, pf->master)->latency;
        first = fmin(first, x[i] + back[i]);
    }
    double lo = first, hi = first > 0 ? 2 * first : 1e-6;
    need *= 1 - 1e-9;       /* cap_i comes from a bisection, a hair below: never above */
    while (total_cap(c, x, back, hi) < need) {  /* doubling: never past SIM_TIME_MAX */
        lo = hi;
        hi *= 2;
        if (hi > 2 * SIM_TIME_MAX) {
            free(x);
            return INFINITY;
        }
    }
    for (int k = 0; k < 200 && hi - lo > 1e-12 * hi; k++) {
        double mid = 0.5 * (lo + hi);
        if (total_cap(c, x, back, mid) >= need)
            hi = mid;
        else
            lo = mid;
    }
    free(x);
    return hi;
}
