/* ess.c: Exponential Self-Scheduling.
 *
 *   dC/dt = -k C                                              (Díaz eq. 21)
 *   C(t) = (I / 2P) e^{-kt}                                   (eq. 22)
 *   N = -ln(1 - 2Pk) / k,  so 2Pk < 1 is required             (eq. 23)
 *
 * Díaz, Reyes, Niño & Muñoz-Caro, Sec. 3.2.1. The paper's optima are
 * k = 0.017 for P = 20 and k = 0.019 for P = 26. Our default k = 0.34 / P is
 * the P = 20 optimum scaled so that 2Pk = 0.68 for every P (the paper's value
 * of 0.017 fails 2Pk < 1 from P = 30 on). Known value (Díaz et al. Table 1):
 * 65, 66 and 175 chunks for 2804/20, 5608/20 (k = 0.017) and 5608/26
 * (k = 0.019).
 */
#include "sched/schemes/sched_impl.h"

static const sched_param params[] = {
    {"k", "decay rate, > 0 with 2*P*k < 1 (default 0.34/P)"},
    {NULL, NULL}
};

typedef struct { double C0, k, t; } ess_state;

static int init(void *state, const sched_config *cfg, sched_err *err)
{
    ess_state *s = state;
    s->k = sched_param_or(cfg, 0, 0.34 / cfg->P);
    if (!(s->k > 0))
        return sched_fail(err, SCHED_EINVAL, "ess: k=%g must be > 0", s->k);
    if (!(2.0 * cfg->P * s->k < 1))
        return sched_fail(err, SCHED_EINVAL,
                          "ess: k=%g too large for P=%d: eq. 23 needs 2*P*k < 1 "
                          "(k < %g)", s->k, cfg->P, 0.5 / cfg->P);
    s->C0 = (double)cfg->I / (2.0 * cfg->P);
    s->t = 0;
    return SCHED_OK;
}

static double next(void *state, long remaining, double acp)
{
    (void)remaining; (void)acp;
    ess_state *s = state;
    return s->C0 * exp(-s->k * s->t++);
}

const sched_type sched_ess = {
    .name = "ess",
    .summary = "exponential self-scheduling: (I/2P) e^{-kt} (Díaz et al., eq. 21-23)",
    .params = params,
    .size = sizeof(ess_state),
    .init = init,
    .next = next,
    .replan = NULL,
    .monotone = 1,
};
