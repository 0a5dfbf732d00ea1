/* yoon.c: dynamic load balancing by predicted execution time, Yoon et
 * al. Sec. 3.2 (eq. 1-4 and the predicted finish E_i; the driver, lb.c,
 * computes eq. 1-4):
 *
 *   eq. 1  T_task_i = t / d_i            eq. 2  N_total = sum_i n_i
 *   eq. 4  n'_i = N_total / (T_task_i sum_j 1 / T_task_j)
 *   sender   ("overloaded"):  E_i = (n_i - k_i) T_task_i + k_i C_t
 *   receiver ("underloaded"): E_j = (n_j + k_j) T_task_j + k_j C_t
 *   with sum k_i (sent) = sum k_j (received); the run ends at max_i E_i.
 *
 * The migrations, one task at a time: the sender is the node above its
 * target (n_i - k_i > n'_i) with the largest E; the receiver is the node
 * below its target whose E after receiving one more, (n_j + k_j + 1)
 * T_task_j + (k_j + 1) C, is smallest (ties: the lower index, both). The
 * task moves only if that lowers the pair's larger E: the sender's E after
 * sending, E_i - T_task_i + C, and the receiver's E after receiving are both
 * below the sender's E now. Otherwise the planning stops. So max E never
 * rises (both nodes touched end below a value <= max E), no node passes its
 * target (a sender stays >= n'_i, a receiver <= n'_j; the roles never
 * swap), and nothing moves when C >= T_task of the node with the largest E.
 * With C = 0 the plan reaches the target exactly (the proof is under
 * "Rounding"). At most N_total single moves, each O(P).
 *
 * Known value (tests/test_lb.c, worked there by hand): n = 10, 2, 0, d = 6,
 * 3, 2, t = 12, C = 1: T_task = 2, 4, 6, target 7, 3, 2, E before 20, 8, 0;
 * the plan moves 2 tasks 1 -> 3 and 1 task 1 -> 2 (nodes from 1): E after
 * 17, 13, 14, max E 20 -> 17.
 *
 * ---- Readings (the text is terse or garbled at these points) -----------
 *
 * Eq. 1, N - n_i. The paper divides t_j by N - n_i, N being the tasks
 * every node got at the start: the tasks node i has finished, if it has
 * received none since and the counts start afresh each period. Read as
 * d_i, the tasks node i finished during the period t (what the master can
 * count after a balancing has moved tasks, when N - n_i no longer means
 * it). t is the same period for every node.
 *
 * d_i = 0 (the paper does not say). A node that finished no task in t has
 * no measured rate: T_task_i is unknown (only > t is known; its one task
 * may be long, or it may have had none). It is left out: neither a sender
 * nor a receiver, its target is n_i, eq. 4 shares out the tasks of the
 * measured nodes only, and its E (NAN) is in no max. Guessing a rate (the
 * others' mean) could send tasks to a node that may be the slowest, or
 * take them from it on no evidence; the next period measures it. An idle,
 * empty node (n_i = d_i = 0) therefore receives nothing this period: the
 * price of that caution. If no node is measured nothing moves.
 *
 * "1 <= i, j <= N" under the E formulas: N there is the number of nodes, P
 * (the text uses N for both); sum k_i = sum k_j: the tasks are conserved.
 *
 * C_t. "delay time + transmission delay" of one task of m bytes: one
 * constant per task, the same for every pair of nodes (a switched network,
 * Sec. 3.1), charged to both ends (both formulas add k C_t: under the
 * one-port model a node sends, or receives, one task at a time). A node
 * neither sending nor receiving has E_i = n_i T_task_i.
 *
 * Overloaded and underloaded. The paper calls a node overloaded when
 * T_task_i > T_average (the mean of the T_task) -- a slow node -- and then
 * moves tasks "to achieve the task quantity calculated from formula 4".
 * A slow node may already hold fewer tasks than its eq. 4 share, and taking
 * more from it would move it away from formula 4: read as the node above
 * its eq. 4 target (a sender) or below it (a receiver). T_average itself is
 * not needed.
 *
 * "Increasing the task ... until the task quantity of formula 4" with "E_i
 * ... the smallest when all nodes are [as in] formula 3": the greedy above,
 * bounded by the target, stopping when a move no longer pays (C makes the
 * last moves cost more than they save).
 *
 * "Lowers the max". Taken literally (the largest E of all nodes must fall
 * with every move), two equally late senders would block each other
 * forever: moving one task from the first leaves the max at the second's E.
 * Read as: the move lowers the larger E of the two nodes it touches; the
 * global max then never rises and falls once every tied node has sent.
 *
 * Rounding. Eq. 4's n'_i are real; the whole target is the min-max
 * apportionment of lb.c (each task to the node that would finish it first,
 * D'Hondt with divisor T_task_i), not the largest remainder. The largest
 * remainder can contradict "max E never rises": T_task = 1, 1, 10 with
 * N_total = 15 has shares 7.14, 7.14, 0.71 and largest-remainder targets
 * 7, 7, 1 (max n'_i T_i = 10), while 8, 7, 0 already finishes at 8; with
 * C = 0 the plan could not both reach that target and keep max E. With the
 * min-max target and C = 0 it reaches the target: a sender s above its
 * target and a receiver r below it have (c_r + 1) T_r <= n'_r T_r <
 * (n'_s + 1) T_s <= c_s T_s (the middle one is the apportionment's order;
 * strict because a tie goes to a task a node holds, which s's (n'_s + 1)-th
 * is and r's n'_r-th is not), so every such move pays. The real shares are
 * reported too (lb_plan.share).
 *
 * Yoon et al., load balancing by execution-time prediction on a cluster,
 * Sec. 3.2 (eq. 1-4, C_t, E_i).
 */
#include <math.h>

#include "sched/lb/lb.h"

static int plan(lb_plan *p, double cost, sched_err *err)
{
    for (;;) {
        int s = -1, r = -1;
        double es = 0, er = 0;
        for (int i = 0; i < p->nodes; i++) {
            double e = lb_finish(p, i, cost);
            if (p->after[i] > p->target[i] && !isnan(e) && (s < 0 || e > es)) {
                s = i;
                es = e;
            }
        }
        if (s < 0)
            break;
        for (int j = 0; j < p->nodes; j++) {
            if (p->after[j] >= p->target[j] || isnan(p->t_task[j]))
                continue;
            /* the same expression as lb_finish once the task is in */
            double e = (double)(p->after[j] + 1) * p->t_task[j] +
                       (double)(p->moved[j] + 1) * cost;
            if (r < 0 || e < er) {
                r = j;
                er = e;
            }
        }
        double es_after = (double)(p->after[s] - 1) * p->t_task[s] +
                          (double)(p->moved[s] + 1) * cost;
        if (r < 0 || !(es_after < es) || !(er < es))
            break;
        int rc = lb_plan_move(p, s, r, err);
        if (rc != SCHED_OK)
            return rc;
    }
    return SCHED_OK;
}

const lb_type lb_yoon = {
    .name = "yoon",
    .summary = "migrate toward eq. 4's target while the predicted finish falls "
               "(Yoon et al. Sec. 3.2)",
    .plan = plan,
    .exchange = lb_exchange_central,
};
