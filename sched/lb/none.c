/* none.c: no migration, the baseline against which a balancing is
 * judged: every node keeps its queue (after_i = n_i, k_i = 0), so E after
 * is E before. The driver still reports eq. 4's target (lb.c). */
#include "sched/lb/lb.h"

static int plan(lb_plan *p, double cost, sched_err *err)
{
    (void)p;
    (void)cost;
    (void)err;
    return SCHED_OK;
}

/* No balancing, no exchange. */
static void exchange(int nodes, long *msgs)
{
    for (int i = 0; i < nodes; i++)
        msgs[i] = 0;
}

const lb_type lb_none = {
    .name = "none",
    .summary = "no migration: every node keeps its queue (the baseline)",
    .plan = plan,
    .exchange = exchange,
};
