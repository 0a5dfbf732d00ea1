/* css.c: Chunk Self-Scheduling.
 *
 *   C(t) = k,   k = ceil(I / P) by default
 *
 * Kruskal & Weiss, IEEE TSE 11(10) 1985; Xu & Chronopoulos Sec. 2; Díaz et
 * al. Sec. 2 ("the quotient of tasks to processors"). Known value (Díaz et
 * al. Table 1): I = 2804, P = 20 gives k = 141 and 20 chunks.
 */
#include "sched/schemes/sched_impl.h"

static const sched_param params[] = {
    {"k", "chunk size, an integer >= 1 (default ceil(I/P))"},
    {NULL, NULL}
};

typedef struct { double k; } css_state;

static int init(void *state, const sched_config *cfg, sched_err *err)
{
    css_state *s = state;
    double dflt = cfg->I > 0 ? ceil((double)cfg->I / cfg->P) : 1.0;
    s->k = sched_param_or(cfg, 0, dflt);
    if (!(s->k >= 1) || s->k != floor(s->k))
        return sched_fail(err, SCHED_EINVAL,
                          "css: k=%g must be an integer >= 1", s->k);
    return SCHED_OK;
}

static double next(void *state, long remaining, double acp)
{
    (void)remaining; (void)acp;
    return ((css_state *)state)->k;
}

const sched_type sched_css = {
    .name = "css",
    .summary = "chunk self-scheduling: fixed chunk k (Kruskal & Weiss 1985)",
    .params = params,
    .size = sizeof(css_state),
    .init = init,
    .next = next,
    .replan = NULL,
    .monotone = 1,
};
