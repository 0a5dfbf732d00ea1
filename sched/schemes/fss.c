/* fss.c: Factoring Self-Scheduling.
 *
 * Iterations go out in batches of P equal chunks; at the start of each batch,
 * with R iterations remaining,
 *
 *   C = R / (alpha P),   alpha = 2 by default
 *
 * so each batch hands out about 1/alpha of what remains. Hummel, Schonberg &
 * Flynn, CACM 35(8) 1992; Díaz et al. Sec. 2 and 4 (alpha = 2). Known value
 * (Díaz et al. Table 1): 2804/20 gives 144 chunks, 5608/20 gives 168,
 * 5608/26 gives 200.
 */
#include "sched/schemes/sched_impl.h"

static const sched_param params[] = {
    {"alpha", "batch divisor, >= 1: each batch takes 1/alpha of the rest (default 2)"},
    {NULL, NULL}
};

typedef struct { double alpha, chunk; int P, left_in_batch; } fss_state;

static int init(void *state, const sched_config *cfg, sched_err *err)
{
    fss_state *s = state;
    s->alpha = sched_param_or(cfg, 0, 2.0);
    if (!(s->alpha >= 1))
        return sched_fail(err, SCHED_EINVAL,
                          "fss: alpha=%g must be >= 1", s->alpha);
    s->P = cfg->P;
    s->left_in_batch = 0;
    return SCHED_OK;
}

static double next(void *state, long remaining, double acp)
{
    (void)acp;
    fss_state *s = state;
    if (s->left_in_batch == 0) {
        /* Rounded here, once per batch, so the P chunks are equal. */
        s->chunk = ceil((double)remaining / (s->alpha * s->P));
        s->left_in_batch = s->P;
    }
    s->left_in_batch--;
    return s->chunk;
}

const sched_type sched_fss = {
    .name = "fss",
    .summary = "factoring: batches of P chunks of remaining/(alpha P) (Hummel et al. 1992)",
    .params = params,
    .size = sizeof(fss_state),
    .init = init,
    .next = next,
    .replan = NULL,
    .monotone = 1,
};
