/* rss.c: Root Self-Scheduling.
 *
 *   dC/dt = -k / C                                            (Díaz eq. 24)
 *   C(t) = sqrt((I / 2P)^2 - 2kt)                             (eq. 25)
 *
 * Díaz, Reyes, Niño & Muñoz-Caro, Sec. 3.2.2; their optimum k = 35 is our
 * default. Past t = (I/2P)^2 / 2k the root is of a negative number: C = 0 and
 * the rounding rule gives minimum chunks. Known value (Díaz et al. Table 1,
 * k = 35): 50, 42 and 57 chunks for 2804/20, 5608/20 and 5608/26.
 */
#include "sched/schemes/sched_impl.h"

static const sched_param params[] = {
    {"k", "decrease rate, > 0 (default 35)"},
    {NULL, NULL}
};

typedef struct { double C0sq, k, t; } rss_state;

static int init(void *state, const sched_config *cfg, sched_err *err)
{
    rss_state *s = state;
    s->k = sched_param_or(cfg, 0, 35.0);
    if (!(s->k > 0))
        return sched_fail(err, SCHED_EINVAL, "rss: k=%g must be > 0", s->k);
    double C0 = (double)cfg->I / (2.0 * cfg->P);
    s->C0sq = C0 * C0;
    s->t = 0;
    return SCHED_OK;
}

static double next(void *state, long remaining, double acp)
{
    (void)remaining; (void)acp;
    rss_state *s = state;
    double x = s->C0sq - 2.0 * s->k * s->t++;
    return x > 0 ? sqrt(x) : 0.0;
}

const sched_type sched_rss = {
    .name = "rss",
    .summary = "root self-scheduling: sqrt((I/2P)^2 - 2kt) (Díaz et al., eq. 24-25)",
    .params = params,
    .size = sizeof(rss_state),
    .init = init,
    .next = next,
    .replan = NULL,
    .monotone = 1,
};
