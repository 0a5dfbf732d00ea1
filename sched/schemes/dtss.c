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
 * F, a reading: eq. 1's F = I/2A is the default ("the programmer may
 * determine the pair (F, L), according to TSS; or the following formula may
 * be used ... (by default)"). Chosen "according to TSS" it is TSS's
 * conservative F = I/2P (Sec. 2), P the workers: parameter fp = 1 takes that
 * reading, at the first plan and every re-plan (with I the iterations left).
 * N and D follow by eq. 2-3 either way; the virtual PEs still take the
 * trapezoid's steps (eq. 4-9), so the chunks sum to I.
 *
 * A_i itself is sched_acp() (sched.c): real-valued by default; the paper's
 * integer division is an option there. Any A_i > 0 is accepted here.
 *
 * dtss-m, DTSS with measured power: OURS, NOT IN THE PAPER. The paper's A_i =
 * V_i / Q_i sees a host's speed and its run-queue, but not what the worker
 * really gets (a CPU quota, memory or cache contention, a process that does
 * not count in Q) nor the loop's own unevenness. dtss-m keeps every rule
 * above (the plan's A from the reported A_i, eq. 1-3; the re-plan rule on
 * the reported A_i, so that the noise of measured rates does not re-plan
 * every request) and changes only the A_i a chunk is sized with, eq. 9:
 *
 *   A_i' = r_i (sum_j A_j) / (sum_j r_j)     over the measured workers j
 *
 * where r_i is the rate worker i delivered over its chunks since the plan
 * (the start or the last re-plan): the cost units of those chunks over their
 * seconds, summed from each request's rate, mean time and iterations
 * (sched_request.rate, mu, n: sched/loop/meas.h). Over all of them, not the
 * latest alone: on the emulated cluster a chunk short enough to fit in its
 * host's CPU quota runs at a whole core's speed and looked 4 times faster
 * than its host (docs/cluster.md); a re-plan, which follows a change of
 * the reported loads, starts the sums afresh. Cost units per second when the
 * application tells the runtime what its iterations cost (dtss_worker_cost;
 * Mandelbrot's workers count the escape loop's steps), so the rate is the
 * host's speed under its load as the worker really got it; iterations per
 * second otherwise, which carry the loop's unevenness too (a worker whose
 * last chunk was cheap rows looks fast: tests show how badly that sizes
 * chunks on an uneven loop), and A_j the A_i each reported with its latest
 * request. The measured workers thus share the power they report in
 * proportion to their measured rates; a worker not yet measured (its first
 * chunk) is sized with its reported A_i, as in dtss. With every rate
 * proportional to the reported A_i, dtss-m is dtss (tested).
 *
 * Nor is a worker measured over less than T seconds (parameter T, default
 * 0.1): on a CPU shared with other processes a short chunk runs in the
 * scheduler's wake-up credit or a fresh quota period, faster than its share.
 * Seen on the emulated Table 1 cluster, loaded as in Xu's Table 1: the
 * worker of A = 1/4 (three other processes) did its first three chunks, 167
 * cheap rows, in 4 ms in all, was sized by that rate with 121 rows, which
 * took it 2.04 s, and finished the run 0.85 s after every other worker
 * (dtss-m 1.95-2.52 s in 5 runs against dtss's 1.56-1.60 s). A tenth of a
 * second is five of that cluster's 20-ms quota periods.
 */
#include "sched/schemes/sched_impl.h"

static const sched_param params[] = {
    {"F", "first chunk per virtual PE, >= L (default I/(2A))"},
    {"L", "last chunk per virtual PE, >= 1 (default 1)"},
    {"fp", "1: F = I/(2P) at every plan, TSS's choice, not eq. 1's I/(2A) (default 0)"},
    {NULL, NULL}
};

typedef struct { sched_trapezoid tz; double S, L_given; int fp, P; } dtss_state;

static int init(void *state, const sched_config *cfg, sched_err *err)
{
    dtss_state *s = state;
    double A = cfg->A > 0 ? cfg->A : cfg->P;
    double fp = isnan(cfg->param[2]) ? 0 : cfg->param[2];
    if (fp != 0 && fp != 1)
        return sched_fail(err, SCHED_EINVAL, "dtss: fp=%g must be 0 (F = I/2A) or 1 "
                          "(F = I/2P)", fp);
    s->S = 0;
    s->L_given = cfg->param[1];
    s->fp = fp == 1;
    s->P = cfg->P;
    return sched_trapezoid_plan(&s->tz, cfg->I, s->fp ? cfg->P : A, cfg->param[0],
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
    return sched_trapezoid_plan(&s->tz, remaining, s->fp ? s->P : acp_total, NAN,
                                s->L_given, "dtss", err);
}

/* ---- dtss-m: DTSS with measured power (ours, see the top) ---------------- */

static const sched_param params_m[] = {
    {"F", "first chunk per virtual PE, >= L (default I/(2A))"},
    {"L", "last chunk per virtual PE, >= 1 (default 1)"},
    {"fp", "1: F = I/(2P) at every plan, TSS's choice, not eq. 1's I/(2A) (default 0)"},
    {"T", "seconds a worker's rate is measured over before it sizes its chunks, >= 0 "
          "(default 0.1)"},
    {NULL, NULL}
};

typedef struct { double acp, cost, time; } dtssm_worker;
typedef struct { dtss_state d; int P; double T; dtssm_worker w[]; } dtssm_state;

static int init_m(void *state, const sched_config *cfg, sched_err *err)
{
    dtssm_state *s = state;
    s->P = cfg->P;
    s->T = sched_param_or(cfg, 3, 0.1);
    if (!(s->T >= 0) || !isfinite(s->T))
        return sched_fail(err, SCHED_EINVAL, "dtss-m: T=%g must be a time >= 0 (seconds)", s->T);
    return init(&s->d, cfg, err);
}

static double next_w_m(void *state, long remaining, const sched_request *rq)
{
    dtssm_state *s = state;
    double acp = rq->acp;
    if (rq->worker != SCHED_ANY_WORKER) {
        dtssm_worker *x = &s->w[rq->worker];
        x->acp = acp;
        double t = rq->mu * (double)rq->n;
        if (rq->n > 0 && rq->rate > 0 && isfinite(rq->rate) && t > 0 && isfinite(t)) {
            x->cost += rq->rate * t;
            x->time += t;
        }
        if (x->time > 0 && x->time >= s->T) {
            double A = 0, r = 0;
            for (int j = 0; j < s->P; j++)
                if (s->w[j].time > 0 && s->w[j].time >= s->T) {
                    A += s->w[j].acp;
                    r += s->w[j].cost / s->w[j].time;
                }
            acp = x->cost / x->time * A / r;
        }
    }
    return next(&s->d, remaining, acp);
}

static double next_m(void *state, long remaining, double acp)
{
    return next(&((dtssm_state *)state)->d, remaining, acp);
}

static int replan_m(void *state, long remaining, double acp_total, sched_err *err)
{
    dtssm_state *s = state;
    for (int j = 0; j < s->P; j++)
        s->w[j].cost = s->w[j].time = 0;
    return replan(&s->d, remaining, acp_total, err);
}

const sched_type sched_dtss_m = {
    .name = "dtss-m",
    .summary = "DTSS sized by measured rates: A_i' = r_i sum A_j / sum r_j (ours, not in the paper)",
    .params = params_m,
    .size = sizeof(dtssm_state),
    .init = init_m,
    .next = next_m,
    .replan = replan_m,
    .monotone = 0,
    .next_w = next_w_m,
    .worker_size = sizeof(dtssm_worker),
};

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
