/* dtss.c: Distributed Trapezoid Self-Scheduling.
 *
 * TSS applied to virtual processing elements (Xu & Chronopoulos Sec. 5.2).
 * With A = sum of the workers' available computing powers A_i:
 *
 *   F = I / 2A,  L = 1                                        (eq. 1)
 *   N = 2I / (F + L)                                          (eq. 2)
 *   D = (F - L) / (N - 1)                                     (eq. 3)
 *
 * A worker with power A_i stands for A_i virtual PEs; the j-th of them gets
 * U = F - D (S + j - 1) (eq. 4, 5, 8), where S counts the virtual PEs served
 * before it, so the worker's chunk is their sum
 *
 *   C_i = A_i (F - D (S + (A_i - 1) / 2))                     (eq. 7, 9)
 *
 * and S grows by A_i. S keeps growing through the whole run, like TSS's step
 * counter (the paper's S_{i-1} is written for the first round; served in
 * ACPSA order round after round, the virtual PEs continue the one trapezoid).
 * With every A_i = 1 the chunks are exactly TSS's (the paper's remark after
 * eq. 9; tested).
 *
 * Re-planning (Sec. 5.3, coordinator step 2 back to step 1): F, N, D are
 * recomputed by eq. 1-3 with I = the remaining iterations and the new A, and
 * S restarts at 0. A first chunk F given by the user applies to the first
 * plan only; re-plans use eq. 1 (L given stays).
 *
 * A_i itself is sched_acp() (sched.c): real-valued by default; the paper's
 * integer division is an option there. Any A_i > 0 is accepted here.
 */
#include "sched_impl.h"

static const sched_param params[] = {
    {"F", "first chunk per virtual PE, >= L (default I/(2A))"},
    {"L", "last chunk per virtual PE, >= 1 (default 1)"},
    {NULL, NULL}
};

typedef struct { sched_trapezoid tz; double S, L_given; } dtss_state;

static int init(void *state, const sched_config *cfg, sched_err *err)
{
    dtss_state *s = state;
    double A = cfg->A > 0 ? cfg->A : cfg->P;
    s->S = 0;
    s->L_given = cfg->param[1];
    return sched_trapezoid_plan(&s->tz, cfg->I, A, cfg->param[0],
                                cfg->param[1], "dtss", err);
}

static double next(void *state, long remaining, double acp)
{
    (void)remaining;
    dtss_state *s = state;
    double c = acp * (s->tz.F - s->tz.D * (s->S + (acp - 1.0) / 2.0));
    s->S += acp;
    return c;
}

static int replan(void *state, long remaining, double acp_total, sched_err *err)
{
    dtss_state *s = state;
    s->S = 0;
    return sched_trapezoid_plan(&s->tz, remaining, acp_total, NAN, s->L_given,
                                "dtss", err);
}

const sched_type sched_dtss = {
    .name = "dtss",
    .summary = "distributed TSS: A_i (F - D (S + (A_i-1)/2)) (Xu & Chronopoulos eq. 1-9)",
    .params = params,
    .size = sizeof(dtss_state),
    .init = init,
    .next = next,
    .replan = replan,
    .monotone = 1,
};
