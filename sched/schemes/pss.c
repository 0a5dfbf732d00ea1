/* pss.c: Pure Self-Scheduling.
 *
 *   C(t) = 1
 *
 * Every request gets one iteration (Tang & Yew, ICPP 1986; reviewed in Xu &
 * Chronopoulos Sec. 2). Best balance, most messages: I chunks.
 */
#include "sched/schemes/sched_impl.h"

static const sched_param params[] = {{NULL, NULL}};

static int init(void *state, const sched_config *cfg, sched_err *err)
{
    (void)state; (void)cfg; (void)err;
    return SCHED_OK;
}

static double next(void *state, long remaining, double acp)
{
    (void)state; (void)remaining; (void)acp;
    return 1.0;
}

const sched_type sched_pss = {
    .name = "pss",
    .summary = "pure self-scheduling: chunk 1 (Tang & Yew 1986)",
    .params = params,
    .size = 0,
    .init = init,
    .next = next,
    .replan = NULL,
    .monotone = 1,
};
