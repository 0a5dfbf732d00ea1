/* qss.c: Quadratic Self-Scheduling.
 *
 *   C(t) = a + b t + c t^2                                    (Díaz eq. 15)
 *   a = C0,  b = (4 C_{N/2} - C_N - 3 C0) / N,
 *   c = (2 C0 + 2 C_N - 4 C_{N/2}) / N^2                      (eq. 16)
 *   N = 6 I / (4 C_{N/2} + C_N + C0)                          (eq. 17)
 *   C_{N/2} = (C_N + C0) / delta                              (eq. 18)
 *   C0 = I / 2P (the TSS first chunk)
 *
 * Díaz, Reyes, Niño & Muñoz-Caro, Sec. 3.1.1. delta = 2 is TSS's straight
 * line; delta > 2 bends the curve up (more, smaller chunks). Defaults are the
 * paper's optimum for 5608/20 and 5608/26, delta = 4 and C_N = 6 (for
 * 2804/20 it found delta = 3, C_N = 2). Known value (Díaz et al. Table 1):
 * 98 chunks for 5608/20 and 129 for 5608/26 (exact), 84 for 2804/20 (we get
 * 83: see tests/test_sched.c).
 *
 * Not monotone in general: the parabola's vertex is before t = N when
 * C_{N/2} < (C0 + 3 C_N) / 4 (e.g. delta > 4 with C0 >> C_N), and after it
 * the chunks grow again towards C_N. The paper sweeps delta = 3..7.
 */
#include "sched/schemes/sched_impl.h"

static const sched_param params[] = {
    {"delta", "curvature, > 0: C_{N/2} = (C_N + C0)/delta (default 4)"},
    {"cn", "last chunk size C_N, > 0 (default 6)"},
    {NULL, NULL}
};

typedef struct { double a, b, c, t; } qss_state;

static int init(void *state, const sched_config *cfg, sched_err *err)
{
    qss_state *s = state;
    double delta = sched_param_or(cfg, 0, 4.0);
    double CN = sched_param_or(cfg, 1, 6.0);
    if (!(delta > 0))
        return sched_fail(err, SCHED_EINVAL, "qss: delta=%g must be > 0", delta);
    if (!(CN > 0))
        return sched_fail(err, SCHED_EINVAL, "qss: cn=%g must be > 0", CN);
    double C0 = (double)cfg->I / (2.0 * cfg->P);
    double CH = (CN + C0) / delta;                     /* eq. (18) */
    double N = 6.0 * cfg->I / (4.0 * CH + CN + C0);    /* eq. (17) */
    s->a = C0;                                         /* eq. (16) */
    s->b = N > 0 ? (4.0 * CH - CN - 3.0 * C0) / N : 0;
    s->c = N > 0 ? (2.0 * C0 + 2.0 * CN - 4.0 * CH) / (N * N) : 0;
    s->t = 0;
    return SCHED_OK;
}

static double next(void *state, long remaining, double acp)
{
    (void)remaining; (void)acp;
    qss_state *s = state;
    double t = s->t++;
    return s->a + s->b * t + s->c * t * t;
}

const sched_type sched_qss = {
    .name = "qss",
    .summary = "quadratic self-scheduling: a + bt + ct^2 (Díaz et al., eq. 15-18)",
    .params = params,
    .size = sizeof(qss_state),
    .init = init,
    .next = next,
    .replan = NULL,
    .monotone = 0,
};
