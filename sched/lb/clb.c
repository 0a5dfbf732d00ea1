/* clb.c: central load balancing (CLB), the classic central scheme Yoon
 * et al. compare theirs with (Sec. 4.1): the master gathers every node's
 * queue length and levels the queues to the mean, counting tasks only.
 *
 * What it does here. The load of node i is n_i, the tasks in its ready
 * queue. The master learns every n_i (lb_exchange_central) and gives each
 * node the mean, in whole tasks:
 *
 *   q = floor(N_total / P),  r = N_total mod P
 *   c_i = q + 1 for the r nodes holding the most tasks (ties: the lower
 *         index), c_i = q for the others
 *
 * then moves the surplus n_i - c_i of every node above its c_i to the nodes
 * below theirs, in index order (lb_plan_reach). Afterwards every queue holds
 * q or q + 1 tasks (the longest minus the shortest is at most 1), and the
 * tasks moved, sum_i max(0, n_i - c_i), are as few as any such levelling
 * needs: an extra seat saves one move exactly when it goes to a node that
 * holds more than q, and the r longest queues are where that happens most.
 * No node both sends and receives.
 *
 * What it ignores, on purpose: the rates T_task_i and the migration cost
 * C_t. It is the scheme the proposed one improves on, the one that treats a
 * slow node's queue like a fast one's and moves tasks whatever they cost;
 * so, unlike yoon, max E can rise (the known value below) and it moves as
 * much with C_t = 10^12 as with 0. The driver's eq. 4 target is reported
 * (lb.c) but not used.
 *
 * d_i = 0. CLB needs no rate, only n_i, which every node reports: an
 * unmeasured node takes part like any other (an idle, empty one receives
 * its c_i). Its E stays NAN (no rate to predict it with), so the tasks it
 * receives are in no max E: read max E after with that in mind.
 *
 * Source, and where we chose. CLB is named, not defined, in Yoon et al.
 * Sec. 4.1; their reference for it, Cai, Lee, Heng & Zhu (1997), we could
 * not find. We read it as above because (1) Yoon et al. Sec. 3.2: "cluster
 * system adopts the number of tasks in the ready queue of each node as
 * basis for measuring the load [2]", and their own scheme adds to that
 * exactly the rates (eq. 1-4) and the cost C_t -- CLB is the central scheme
 * without them; (2) Willebeek-LeMair & Reeves (1993, abstract): central
 * strategies "make use of a high degree of knowledge" -- here, every queue.
 * The whole-task rounding (which r nodes get the extra task) is ours.
 *
 * Known value (tests/test_lb.c, worked there by hand): n = 10, 2, 0, d = 6,
 * 3, 2, t = 12, C = 1 (yoon.c's example): the mean is 4, c = 4, 4, 4; 2
 * tasks move 1 -> 2 and 4 tasks 1 -> 3 (nodes from 1); E after 14, 18, 28:
 * max E 20 -> 28, where yoon reaches 17.
 */
#include <stdlib.h>

#include "sched/lb/lb.h"
#include "sched/sched.h"

static int plan(lb_plan *p, double cost, sched_err *err)
{
    (void)cost;                         /* ignored: see above */
    long *goal = malloc(sizeof *goal * (size_t)p->nodes);
    if (!goal)
        return sched_fail(err, SCHED_ENOMEM, "clb: out of memory for %d nodes",
                          p->nodes);
    long q = p->total / p->nodes, r = p->total % p->nodes;
    for (int i = 0; i < p->nodes; i++)
        goal[i] = q;
    for (long e = 0; e < r; e++) {      /* the r longest queues: q + 1 */
        int best = -1;
        for (int i = 0; i < p->nodes; i++)
            if (goal[i] == q && (best < 0 || p->remaining[i] > p->remaining[best]))
                best = i;
        goal[best]++;
    }
    int rc = lb_plan_reach(p, goal, err);
    free(goal);
    return rc;
}

const lb_type lb_clb = {
    .name = "clb",
    .summary = "central, counts only: queues levelled to the mean (Yoon et al. "
               "4.1's CLB)",
    .plan = plan,
    .exchange = lb_exchange_central,
};
