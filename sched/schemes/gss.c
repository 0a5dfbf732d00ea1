/* gss.c: Guided Self-Scheduling.
 *
 *   C = R / P,   R = iterations remaining at the request
 *
 * Polychronopoulos & Kuck, IEEE TC 36(12) 1987; Xu & Chronopoulos Sec. 2;
 * Díaz et al. Sec. 2. Known value (Díaz et al. Table 1): 2804/20 gives 108
 * chunks, 5608/20 gives 122, 5608/26 gives 152.
 */
#include "sched/schemes/sched_impl.h"

static const sched_param params[] = {{NULL, NULL}};

typedef struct { double P; } gss_state;

static int init(void *state, const sched_config *cfg, sched_err *err)
{
    (void)err;
    ((gss_state *)state)->P = cfg->P;
    return SCHED_OK;
}

static double next(void *state, long remaining, double acp)
{
    (void)acp;
    return (double)remaining / ((gss_state *)state)->P;
}

const sched_type sched_gss = {
    .name = "gss",
    .summary = "guided self-scheduling: remaining/P (Polychronopoulos & Kuck 1987)",
    .params = params,
    .size = sizeof(gss_state),
    .init = init,
    .next = next,
    .replan = NULL,
    .monotone = 1,
};
