/* static.c: the "non self-adjusting" baseline of Heymann et al.
 * (Euro-Par 2001), Sec. 4.2: "the initial number of requested workers was
 * equal to the initial number of tasks. Once a task met the convergence
 * criterion, the corresponding worker was released" -- "The Non
 * Self-Adjusting strategy simply relinquished workers as tasks were
 * completed." Tasks are handed out in the same order as under 'adjust'
 * (pool_order).
 *
 * As a target (pool.h, "Carrying out"): Nworkers starts at Ntasks and falls
 * by one with each task that converges (pool_task_converged). While fewer
 * workers are held than tasks are left, a convergence cancels a pending
 * request rather than releasing a worker: that worker still has other
 * tasks to take ("a worker released when its task converges and no other
 * task remains for it"). At the end of every iteration Nworkers is set to
 * the tasks of the next iteration, which it already is unless a task came
 * back (a converged part woken by a neighbour's change): the baseline asks
 * for a worker again then.
 */
#include "sched/pool/pool.h"

static int end(const pool_params *par, pool_decision *d)
{
    (void)par;
    d->rule = POOL_TASKS;
    return d->next_tasks;
}

static int converged(int nworkers)
{
    return nworkers > 0 ? nworkers - 1 : 0;
}

const pool_type pool_static = {
    .name = "static",
    .summary = "non self-adjusting: Ntasks workers, one released per converged task "
               "(Heymann et al. Sec. 4.2)",
    .end = end,
    .converged = converged,
};
