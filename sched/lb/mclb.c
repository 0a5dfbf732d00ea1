/* mclb.c: marginal central load balancing (MCLB), the third rival of
 * Yoon et al. Sec. 4.1: central and rate-aware like the proposed scheme,
 * but it decides the balancing as a whole -- all of it, only if it pays --
 * where yoon decides one task at a time.
 *
 * What it does here. The master knows every n_i and T_task_i (eq. 1, from
 * d_i; lb_exchange_central) and eq. 4's whole target n'_i (the driver's,
 * lb.c: the min-max apportionment). The plan that reaches the target moves
 * every surplus n_i - n'_i to the deficits, in index order (lb_plan_reach:
 * no node both sends and receives, so k_i = |n_i - n'_i|). Its predicted
 * finish, with C_t at both ends of every migration (Sec. 3.2's E):
 *
 *   E'_i = n'_i T_task_i + |n_i - n'_i| C_t
 *
 * The plan is carried out only if it pays: max_i E'_i < max_i E_i, E_i =
 * n_i T_task_i (both over the measured nodes). Otherwise nothing moves.
 * So either the queues end at the target exactly, with a smaller max E, or
 * they stay as they are: max E never rises, nothing moves once C_t passes
 * the gain, and with C_t = 0 the target is reached unless it does not
 * lower max E at all (the latest node already at its target).
 *
 * The difference from yoon: yoon moves one task at a time while each move
 * lowers the pair's larger E, so it can stop part way; MCLB cannot. When
 * one receiver would end later than the latest node now (it receives from
 * several senders and pays C_t for each task), MCLB moves nothing where
 * yoon moves what pays (the known value below). And MCLB may move tasks
 * that change no max (between two nodes that are not the latest), where
 * yoon's sender is always the latest node above its target.
 *
 * d_i = 0. As in yoon (yoon.c, "d_i = 0"): an unmeasured node has no
 * rate, its target is n_i, it keeps its queue and is in no max; if no node
 * is measured nothing moves.
 *
 * Source, and where we chose: MCLB is not defined in Yoon et al. (Sec. 4.1
 * names it, "marginal central dynamic load balancing", and nothing more),
 * and our search found no definition elsewhere. We read "marginal" as the
 * test a central balancer makes before it migrates: the balancing is done
 * only when its gain, the fall of the predicted finish, is positive after
 * the migration cost. The nearest we found is from the group of Yoon et
 * al.'s [2] (Cermele, Colajanni & Tucci, FGCS 1997, abstract only): a
 * central support that "checks the load status of the nodes ... and, if
 * necessary, carries out data migrations from overloaded to underloaded
 * nodes". "Central" and the rates: Yoon et al. Sec. 3.2's
 * first, cost-free step ("redistributed by the task in the ratio of the
 * performance of each node", eq. 3-4). The margin is zero (any gain): the
 * sources give no constant and we add none. All-or-nothing rather than a
 * per-node threshold: it needs no parameter and is what separates a
 * central plan from yoon's task-by-task one.
 *
 * Known value (tests/test_lb.c, worked there by hand): n = 6, 6, 0, d = 1,
 * 1, 1, t = 1: target 4, 4, 4. C = 0.75: E' = 5.5, 5.5, 7 -- node 3 would
 * end at 7 > 6: nothing moves (yoon moves 3 tasks and reaches 5.75). C =
 * 0.25: E' = 4.5, 4.5, 5 < 6: 2 tasks 1 -> 3 and 2 tasks 2 -> 3 (nodes
 * from 1), max E 6 -> 5.
 */
#include <math.h>
#include <stdlib.h>

#include "sched/lb/lb.h"

static int plan(lb_plan *p, double cost, sched_err *err)
{
    double max_after = NAN;
    for (int i = 0; i < p->nodes; i++) {
        if (isnan(p->t_task[i]))
            continue;
        long k = labs(p->remaining[i] - p->target[i]);
        double e = (double)p->target[i] * p->t_task[i] + (double)k * cost;
        max_after = fmax(max_after, e);
    }
    if (!(max_after < p->max_before))   /* NAN (none measured): no */
        return SCHED_OK;
    return lb_plan_reach(p, p->target, err);
}

const lb_type lb_mclb = {
    .name = "mclb",
    .summary = "central: to eq. 4's target if max E falls, else nothing (Yoon et "
               "al. 4.1's MCLB)",
    .plan = plan,
    .exchange = lb_exchange_central,
};
