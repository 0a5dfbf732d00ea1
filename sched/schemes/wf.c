/* wf.c: Weighted Factoring.
 *
 * FSS's batches (fss.c), each worker's chunk of a batch weighted by its
 * relative speed. Hummel, Schmidt, Uma & Wein, "Load-sharing in
 * heterogeneous systems via weighted factoring", SPAA 1996. At the start of
 * each batch, with R iterations remaining,
 *
 *   B = ceil(R / (alpha P)),   alpha = 2 by default (as fss.c)
 *
 * and a request from worker i gets
 *
 *   C_i = w_i B,   w_i = P A_i / A,   A = sum of the A_i (sched_config.A)
 *
 * so the weights sum to P and a batch in which every worker asks once hands
 * out P B iterations, as FSS's does. A_i is the worker's available computing
 * power (sched_acp: V_i / Q_i, the relative speed under its load), sent with
 * each request; A = 0 in the config means P (every w_i = A_i). With every
 * A_i = 1 (and so through sched_next(s, 1, ...)), WF is exactly FSS (tested).
 *
 * Our reading where the paper leaves it to the implementation: a batch is P
 * requests (fss.c; LB4OMP's WF and AWF-B count requests too), B is rounded
 * once per batch as in fss.c, and w_i B is rounded by the driver's rule
 * (ceil). DLS4LB counts a batch's iterations instead (a new batch once its
 * P B iterations are handed out); when each worker asks once per batch the
 * two agree. A worker that asks twice in a batch gets its share twice.
 *
 * Known value (worked in tests/test_adaptive.c): I = 100, P = 2, A_i = 3, 1
 * asking in turn: 38, 13 | 20, 7 | 9, 3 | 5, 2 | 2, 1.
 */
#include "sched/schemes/sched_impl.h"

static const sched_param params[] = {
    {"alpha", "batch divisor, >= 1: each batch takes 1/alpha of the rest (default 2)"},
    {NULL, NULL}
};

typedef struct { double alpha, A, base; int P, left_in_batch; } wf_state;

static int init(void *state, const sched_config *cfg, sched_err *err)
{
    wf_state *s = state;
    s->alpha = sched_param_or(cfg, 0, 2.0);
    if (!(s->alpha >= 1))
        return sched_fail(err, SCHED_EINVAL, "wf: alpha=%g must be >= 1", s->alpha);
    s->P = cfg->P;
    s->A = cfg->A > 0 ? cfg->A : cfg->P;
    s->left_in_batch = 0;
    return SCHED_OK;
}

static double next(void *state, long remaining, double acp)
{
    wf_state *s = state;
    if (s->left_in_batch == 0) {
        s->base = ceil((double)remaining / (s->alpha * s->P));
        s->left_in_batch = s->P;
    }
    s->left_in_batch--;
    return acp * s->P / s->A * s->base;
}

const sched_type sched_wf = {
    .name = "wf",
    .summary = "weighted factoring: FSS's batches weighted by A_i (Hummel et al. 1996)",
    .params = params,
    .size = sizeof(wf_state),
    .init = init,
    .next = next,
    .replan = NULL,
    .monotone = 0,
    .by_speed = 1,
};
