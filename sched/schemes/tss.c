/* tss.c: Trapezoid Self-Scheduling.
 *
 *   F = I / 2P,  L = 1      (the conservative choice; both may be given)
 *   N = 2I / (F + L)        (number of steps)
 *   D = (F - L) / (N - 1)   (decrease between consecutive chunks)
 *   C(t) = F - t D,  t = 0, 1, 2, ...
 *
 * Tzen & Ni, IEEE TPDS 4(1) 1993; Xu & Chronopoulos Sec. 2; Díaz et al.
 * eq. (14). Known value: Díaz et al. Table 1 reports 72, 72 and 95 chunks for
 * 2804/20, 5608/20 and 5608/26; our rounding rule (sched.h) gives 71, 73 and
 * 95 (see tests/test_sched.c for why the paper's exact rounding is unknown).
 *
 * When I / 2P < L (a loop shorter than 2P iterations), F = L: all chunks L.
 */
#include "sched/schemes/sched_impl.h"

static const sched_param params[] = {
    {"F", "first chunk size, >= L (default I/(2P))"},
    {"L", "last chunk size, >= 1 (default 1)"},
    {NULL, NULL}
};

typedef struct { sched_trapezoid tz; double t; } tss_state;

static int init(void *state, const sched_config *cfg, sched_err *err)
{
    tss_state *s = state;
    s->t = 0;
    return sched_trapezoid_plan(&s->tz, cfg->I, cfg->P, cfg->param[0],
                                cfg->param[1], "tss", err);
}

static double next(void *state, long remaining, double acp)
{
    (void)remaining; (void)acp;
    tss_state *s = state;
    return s->tz.F - s->tz.D * s->t++;
}

const sched_type sched_tss = {
    .name = "tss",
    .summary = "trapezoid self-scheduling: F, F-D, F-2D, ... (Tzen & Ni 1993)",
    .params = params,
    .size = sizeof(tss_state),
    .init = init,
    .next = next,
    .replan = NULL,
    .monotone = 1,
};
