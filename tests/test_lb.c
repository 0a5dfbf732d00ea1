/* test_lb.c: the load-balancing strategies (sched/lb/lb.c, sched/lb/yoon.c,
 * sched/lb/none.c, sched/lb/clb.c, sched/lb/dlb.c, sched/lb/mclb.c), each on
 * examples worked by hand, the readings of sched/lb/yoon.c, the errors, then
 * properties over every strategy on random inputs (GSL's gsl_rng, a fixed
 * seed). Source of the rules: Yoon et al., Sec. 3.2, eq. 1-4 and E_i (yoon, and
 * the target and E of all); Sec. 4.1 names CLB, DLB, MCLB, read as their files
 * say (DLB: Willebeek-LeMair & Reeves' sender-initiated diffusion). */
#include <math.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "sched/lb/lb.h"
#include "tests/test.h"

static lb_plan *make(const char *name, int P, const long *n, const long *d, double t,
                     double C, sched_err *err)
{
    lb_input in = {.nodes = P, .remaining = n, .done = d, .elapsed = t, .cost = C};
    return lb_plan_make(lb_type_find(name, err), &in, err);
}

/* Worked by hand (the known value in sched/lb/yoon.c's header; nodes from
 * 0 here):
 *   n = 10, 2, 0; d = 6, 3, 2; t = 12; C = 1.
 *   eq. 1: T = 12/6, 12/3, 12/2 = 2, 4, 6.  eq. 2: N_total = 12.
 *   eq. 4: sum 1/T = 1/2 + 1/4 + 1/6 = 11/12; shares 12 x (1/T_i) / (11/12)
 *          = 72/11, 36/11, 24/11 = 6.545, 3.273, 2.182.
 *   target: floors 6, 3, 2 (11 tasks); the 12th goes to the node that would
 *          finish it first: 7 x 2 = 14 < 4 x 4 = 16 < 3 x 6 = 18: node 0.
 *          7, 3, 2 (the largest remainder, .545, agrees here).
 *   E before: 10 x 2, 2 x 4, 0 x 6 = 20, 8, 0; max 20.
 *   move 1: sender node 0 (E 20, 10 > 7). Receivers: node 1 (2 < 3):
 *          3 x 4 + 1 = 13; node 2 (0 < 2): 1 x 6 + 1 = 7 -> node 2.
 *          node 0 after: 9 x 2 + 1 = 19 < 20, 7 < 20: moves. E 19, 8, 7.
 *   move 2: node 0 (E 19). node 1: 3 x 4 + 1 = 13; node 2: 2 x 6 + 2 = 14
 *          -> node 1. node 0: 8 x 2 + 2 = 18 < 19, 13 < 19: moves. E 18, 13, 7.
 *   move 3: node 0 (E 18, 8 > 7). node 1 is at its target; node 2:
 *          2 x 6 + 2 = 14. node 0: 7 x 2 + 3 = 17 < 18, 14 < 18: moves.
 *          E 17, 13, 14; node 0 is at its target: no sender, done.
 *   Moves: 0 -> 2: 2, 0 -> 1: 1. max E 20 -> 17. */
static void test_hand(void)
{
    const long n[] = {10, 2, 0}, d[] = {6, 3, 2};
    sched_err err;
    lb_plan *p = make("yoon", 3, n, d, 12, 1, &err);
    test_cond("hand example: a plan", p != NULL);
    if (!p)
        return;
    test_cond("hand: T_task = 2, 4, 6 (eq. 1)",
              p->t_task[0] == 2 && p->t_task[1] == 4 && p->t_task[2] == 6);
    test_cond("hand: N_total = 12 (eq. 2)", p->total == 12);
    test_cond("hand: shares 72/11, 36/11, 24/11 (eq. 4)",
              fabs(p->share[0] - 72.0 / 11) < 1e-12 && fabs(p->share[1] - 36.0 / 11) < 1e-12 &&
              fabs(p->share[2] - 24.0 / 11) < 1e-12);
    test_cond("hand: target 7, 3, 2",
              p->target[0] == 7 && p->target[1] == 3 && p->target[2] == 2);
    test_cond("hand: E before 20, 8, 0, max 20",
              p->e_before[0] == 20 && p->e_before[1] == 8 && p->e_before[2] == 0 &&
              p->max_before == 20);
    test_cond("hand: moves 0 -> 2: 2, then 0 -> 1: 1",
              p->nmoves == 2 && p->move[0].from == 0 && p->move[0].to == 2 &&
              p->move[0].count == 2 && p->move[1].from == 0 && p->move[1].to == 1 &&
              p->move[1].count == 1);
    test_cond("hand: after 7, 3, 2; E after 17, 13, 14; max 17",
              p->after[0] == 7 && p->after[1] == 3 && p->after[2] == 2 &&
              p->e_after[0] == 17 && p->e_after[1] == 13 && p->e_after[2] == 14 &&
              p->max_after == 17);
    lb_plan_free(p);

    /* C = 3 > T_task 2 of the sender: its E would rise with every task sent. */
    p = make("yoon", 3, n, d, 12, 3, &err);
    test_cond("hand, C = 3 >= T_task of the latest node (2): nothing moves",
              p && p->nmoves == 0 && p->max_after == 20);
    lb_plan_free(p);
    /* C = 0: the target exactly; E 14, 12, 12. */
    p = make("yoon", 3, n, d, 12, 0, &err);
    test_cond("hand, C = 0: the target 7, 3, 2 and max E 14",
              p && p->after[0] == 7 && p->after[1] == 3 && p->after[2] == 2 &&
              p->max_after == 14);
    lb_plan_free(p);
    p = make("none", 3, n, d, 12, 1, &err);
    test_cond("hand, none: no move, the same target, E after = E before",
              p && p->nmoves == 0 && p->target[0] == 7 && p->e_after[0] == 20 &&
              p->max_after == 20);
    lb_plan_free(p);
}

/* sched/lb/yoon.c "Rounding": T = 1, 1, 10, N_total = 15. The largest remainder
 * would give 7, 7, 1 (max n'T = 10); the min-max target is 8, 7, 0 (max 8),
 * which the queue already is: nothing moves even with C = 0. */
static void test_rounding(void)
{
    const long n[] = {8, 7, 0}, d[] = {10, 10, 1};
    sched_err err;
    lb_plan *p = make("yoon", 3, n, d, 10, 0, &err);
    test_cond("rounding: T = 1, 1, 10, N = 15: target 8, 7, 0, not 7, 7, 1",
              p && p->target[0] == 8 && p->target[1] == 7 && p->target[2] == 0);
    test_cond("rounding: already at the target, nothing moves, max E 8",
              p && p->nmoves == 0 && p->max_after == 8);
    lb_plan_free(p);
    /* Two equally late senders (the "lowers the max" reading): both send. */
    const long n2[] = {6, 6, 0, 0}, d2[] = {1, 1, 1, 1};
    p = make("yoon", 4, n2, d2, 1, 0, &err);
    test_cond("ties: two senders at the same E both send (3, 3, 3, 3)",
              p && p->after[0] == 3 && p->after[1] == 3 && p->after[2] == 3 &&
              p->after[3] == 3 && p->max_after == 3);
    lb_plan_free(p);
}

/* sched/lb/yoon.c "d_i = 0": the node keeps its queue and is in no max. */
static void test_unmeasured(void)
{
    const long n[] = {9, 5, 0}, d[] = {3, 0, 3};
    sched_err err;
    lb_plan *p = make("yoon", 3, n, d, 3, 0, &err);
    test_cond("d_i = 0: T_task, share, E are NAN",
              p && isnan(p->t_task[1]) && isnan(p->share[1]) && isnan(p->e_before[1]) &&
              isnan(p->e_after[1]));
    /* measured: 9 and 0 tasks at T = 1 each: 5 and 4 (tie to the held task). */
    test_cond("d_i = 0: keeps its 5; the others share 9 as 5, 4",
              p && p->target[1] == 5 && p->after[1] == 5 && p->target[0] == 5 &&
              p->target[2] == 4 && p->after[0] == 5 && p->after[2] == 4);
    test_cond("d_i = 0: max E over the measured nodes only (9 -> 5)",
              p && p->max_before == 9 && p->max_after == 5);
    lb_plan_free(p);
    const long z[] = {0, 0}, n3[] = {4, 0};
    p = make("yoon", 2, n3, z, 3, 0, &err);
    test_cond("no node measured: nothing moves, max E is NAN",
              p && p->nmoves == 0 && isnan(p->max_before) && isnan(p->max_after));
    lb_plan_free(p);
}

/* CLB (sched/lb/clb.c), worked by hand on sched/lb/yoon.c's example
 * (nodes from 0):
 *   n = 10, 2, 0; d = 6, 3, 2; t = 12; C = 1; T = 2, 4, 6 (eq. 1).
 *   N_total = 12, P = 3: q = 4, r = 0: every node's goal is 4.
 *   surplus: node 0, 10 - 4 = 6; deficits: node 1, 2; node 2, 4.
 *   in index order: node 0 fills node 1 (2 tasks), then node 2 (4 tasks).
 *   k = 6, 2, 4. E after: 4 x 2 + 6 x 1 = 14, 4 x 4 + 2 = 18, 4 x 6 + 4
 *   = 28: max E 20 -> 28 (yoon: 17). The counts are level; the slowest
 *   node got the most work. */
static void test_hand_clb(void)
{
    const long n[] = {10, 2, 0}, d[] = {6, 3, 2};
    sched_err err;
    lb_plan *p = make("clb", 3, n, d, 12, 1, &err);
    test_cond("clb hand: moves 0 -> 1: 2, then 0 -> 2: 4",
              p && p->nmoves == 2 && p->move[0].from == 0 && p->move[0].to == 1 &&
              p->move[0].count == 2 && p->move[1].from == 0 && p->move[1].to == 2 &&
              p->move[1].count == 4);
    test_cond("clb hand: after 4, 4, 4; E after 14, 18, 28; max E 20 -> 28",
              p && p->after[0] == 4 && p->after[1] == 4 && p->after[2] == 4 &&
              p->e_after[0] == 14 && p->e_after[1] == 18 && p->e_after[2] == 28 &&
              p->max_before == 20 && p->max_after == 28);
    lb_plan_free(p);
    /* The same with C = 10^12: CLB does not look at C. */
    p = make("clb", 3, n, d, 12, 1e12, &err);
    test_cond("clb hand, C = 10^12: the same 6 tasks move",
              p && p->nmoves == 2 && p->after[0] == 4 && p->after[2] == 4);
    lb_plan_free(p);
    /* Remainder seats: n = 9, 0, 3, 2 (N = 14, P = 4): q = 3, r = 2, the
     * extra seats to the 2 longest queues, nodes 0 (9) and 2 (3): goals 4,
     * 3, 4, 3. Node 0 sends 5: 3 to node 1, 1 to node 2, 1 to node 3. */
    const long n2[] = {9, 0, 3, 2}, d2[] = {1, 1, 1, 1};
    p = make("clb", 4, n2, d2, 1, 0, &err);
    test_cond("clb, N = 14 on 4: goals 4, 3, 4, 3 (the extra tasks stay on the "
              "longest queues); 0 -> 1: 3, 0 -> 2: 1, 0 -> 3: 1",
              p && p->after[0] == 4 && p->after[1] == 3 && p->after[2] == 4 &&
              p->after[3] == 3 && p->nmoves == 3 && p->move[0].to == 1 &&
              p->move[0].count == 3 && p->move[1].to == 2 && p->move[1].count == 1 &&
              p->move[2].to == 3 && p->move[2].count == 1);
    lb_plan_free(p);
    /* d_i = 0: CLB needs counts only; the unmeasured node 1 receives. n =
     * 9, 0, 3, d = 3, 0, 3, t = 3: goals 4, 4, 4; node 0 sends 4 to node 1,
     * 1 to node 2. Node 1's E is NAN; max E after over nodes 0 and 2:
     * 4 x 1 + 5 x 0.5 = 6.5 and 4 + 0.5 = 4.5. */
    const long n3[] = {9, 0, 3}, d3[] = {3, 0, 3};
    p = make("clb", 3, n3, d3, 3, 0.5, &err);
    test_cond("clb, d_i = 0: the unmeasured node takes part (receives 4), its E is "
              "NAN, max E 9 -> 6.5",
              p && p->after[1] == 4 && p->after[0] == 4 && p->after[2] == 4 &&
              isnan(p->e_after[1]) && p->max_before == 9 && p->max_after == 6.5);
    lb_plan_free(p);
}

/* DLB (sched/lb/dlb.c: Willebeek-LeMair & Reeves' sender-initiated diffusion on
 * the hypercube), worked by hand; nodes from 0:
 *   P = 4: neighbours 0: 1, 2; 1: 0, 3; 2: 3, 0; 3: 2, 1 (by dimension).
 *   n = 11, 0, 0, 6; d = 1, 1, 1, 1; t = 1 (T = 1); C = 0.5.
 *   node 0: domain 0, 1, 2: mean 11/3; excess 11 - 11/3 = 22/3; h_1 = h_2 =
 *     11/3, H = 22/3: delta = 11/3 = 3.67 each. floor(22/3) = 7 in all:
 *     floors 3 + 3, the 7th to the larger fraction (a tie: the lower
 *     dimension, node 1): 0 -> 1: 4, 0 -> 2: 3.
 *   node 1: domain 1, 0, 3: mean 17/3 > 0: sends nothing; node 2 the same.
 *   node 3: domain 3, 2, 1: mean 2; excess 4; h_2 = h_1 = 2: 3 -> 2: 2,
 *     3 -> 1: 2.
 *   after: 11 - 7 = 4; 0 + 4 + 2 = 6; 0 + 3 + 2 = 5; 6 - 4 = 2.
 *   k = 7, 6, 5, 4: E after 4 + 3.5 = 7.5, 6 + 3 = 9, 5 + 2.5 = 7.5, 2 + 2
 *   = 4; max E 11 -> 9. Node 3 is not node 0's neighbour: nothing goes
 *   straight from 0 to 3. */
static void test_hand_dlb(void)
{
    const long n[] = {11, 0, 0, 6}, d[] = {1, 1, 1, 1};
    sched_err err;
    lb_plan *p = make("dlb", 4, n, d, 1, 0.5, &err);
    test_cond("dlb hand: moves 0 -> 1: 4, 0 -> 2: 3, 3 -> 2: 2, 3 -> 1: 2",
              p && p->nmoves == 4 && p->move[0].from == 0 && p->move[0].to == 1 &&
              p->move[0].count == 4 && p->move[1].from == 0 && p->move[1].to == 2 &&
              p->move[1].count == 3 && p->move[2].from == 3 && p->move[2].to == 2 &&
              p->move[2].count == 2 && p->move[3].from == 3 && p->move[3].to == 1 &&
              p->move[3].count == 2);
    test_cond("dlb hand: after 4, 6, 5, 2; k 7, 6, 5, 4; E after 7.5, 9, 7.5, 4; "
              "max E 11 -> 9",
              p && p->after[0] == 4 && p->after[1] == 6 && p->after[2] == 5 &&
              p->after[3] == 2 && p->moved[0] == 7 && p->moved[1] == 6 &&
              p->moved[2] == 5 && p->moved[3] == 4 && p->e_after[0] == 7.5 &&
              p->e_after[1] == 9 && p->e_after[2] == 7.5 && p->e_after[3] == 4 &&
              p->max_before == 11 && p->max_after == 9);
    lb_plan_free(p);
    /* Locality: n = 12, 0, 0, 0: node 0's domain is 0, 1, 2 (mean 4): 4
     * tasks each to nodes 1 and 2, none to node 3, which node 0 cannot
     * see; the next balancing would carry some on. */
    const long n2[] = {12, 0, 0, 0};
    p = make("dlb", 4, n2, d, 1, 0, &err);
    test_cond("dlb, n = 12, 0, 0, 0: 4, 4, 4, 0 (node 3 is two hops away)",
              p && p->after[0] == 4 && p->after[1] == 4 && p->after[2] == 4 &&
              p->after[3] == 0);
    lb_plan_free(p);
    /* A difference of one task cannot be diffused: n = 1, 0: mean 1/2,
     * floor(1/2) = 0. */
    const long n3[] = {1, 0};
    p = make("dlb", 2, n3, d, 1, 0, &err);
    test_cond("dlb, n = 1, 0: nothing moves (floor(1 - 1/2) = 0)", p && p->nmoves == 0);
    lb_plan_free(p);
}

/* MCLB (sched/lb/mclb.c), worked by hand; nodes from 0:
 *   n = 6, 6, 0; d = 1, 1, 1; t = 1: T = 1, 1, 1; E before 6, 6, 0, max 6.
 *   eq. 4: shares 4, 4, 4; target 4, 4, 4; the plan: 0 -> 2: 2, 1 -> 2: 2,
 *   k = 2, 2, 4.
 *   C = 0.75: E' = 4 + 2 x 0.75 = 5.5, 5.5, 4 + 4 x 0.75 = 7 >= 6: it does
 *     not pay: nothing moves, max E stays 6. (yoon, one task at a time:
 *     0 -> 2 (E 5.75, 6, 1.75), 1 -> 2 (5.75, 5.75, 3.5), 0 -> 2 (5.5,
 *     5.75, 5.25); a 4th task would put node 2 at 4 + 3 = 7 > 5.75: stops,
 *     max E 5.75.)
 *   C = 0.25: E' = 4.5, 4.5, 5 < 6: the plan is carried out, max E 6 -> 5.
 *   The latest node at its target: n = 1, 2, 0, d = 1, 2, 2, t = 2: T = 2,
 *     1, 1, E 2, 2, 0; target 1, 1, 1 (seats of value 1 to nodes 1, 2;
 *     the third, value 2, tied between node 0 (holds it) and node 1 (holds
 *     it): node 0). C = 0: E' = 2, 1, 1: max 2, not below 2: nothing
 *     moves (yoon moves 1 -> 2). */
static void test_hand_mclb(void)
{
    const long n[] = {6, 6, 0}, d[] = {1, 1, 1};
    sched_err err;
    lb_plan *p = make("mclb", 3, n, d, 1, 0.75, &err);
    test_cond("mclb hand, C = 0.75: node 2 would end at 7 > 6: nothing moves, max E 6",
              p && p->nmoves == 0 && p->target[0] == 4 && p->target[2] == 4 &&
              p->max_after == 6);
    lb_plan_free(p);
    p = make("yoon", 3, n, d, 1, 0.75, &err);
    test_cond("mclb hand: yoon, C = 0.75, moves 3 tasks (after 4, 5, 3), max E 5.75",
              p && p->after[0] == 4 && p->after[1] == 5 && p->after[2] == 3 &&
              p->max_after == 5.75);
    lb_plan_free(p);
    p = make("mclb", 3, n, d, 1, 0.25, &err);
    test_cond("mclb hand, C = 0.25: 0 -> 2: 2, 1 -> 2: 2; E after 4.5, 4.5, 5; max E 5",
              p && p->nmoves == 2 && p->move[0].from == 0 && p->move[0].to == 2 &&
              p->move[0].count == 2 && p->move[1].from == 1 && p->move[1].to == 2 &&
              p->move[1].count == 2 && p->e_after[0] == 4.5 && p->e_after[1] == 4.5 &&
              p->e_after[2] == 5 && p->max_after == 5);
    lb_plan_free(p);
    const long n2[] = {1, 2, 0}, d2[] = {1, 2, 2};
    p = make("mclb", 3, n2, d2, 2, 0, &err);
    test_cond("mclb, the latest node already at its target (T = 2, 1, 1; n = 1, 2, 0; "
              "target 1, 1, 1), C = 0: max E cannot fall, nothing moves",
              p && p->target[0] == 1 && p->target[1] == 1 && p->target[2] == 1 &&
              p->nmoves == 0 && p->max_after == 2);
    lb_plan_free(p);
    p = make("yoon", 3, n2, d2, 2, 0, &err);
    test_cond("mclb: there yoon moves 1 -> 2 (1, 1, 1)",
              p && p->after[1] == 1 && p->after[2] == 1);
    lb_plan_free(p);
    /* d_i = 0, as in yoon: n = 9, 5, 0, d = 3, 0, 3, t = 3, C = 0: the
     * unmeasured node keeps 5; nodes 0, 2 (T = 1) share 9 as 5, 4. */
    const long n3[] = {9, 5, 0}, d3[] = {3, 0, 3};
    p = make("mclb", 3, n3, d3, 3, 0, &err);
    test_cond("mclb, d_i = 0: the node keeps its 5; the others 5, 4; max E 9 -> 5",
              p && p->after[1] == 5 && p->after[0] == 5 && p->after[2] == 4 &&
              p->max_after == 5);
    lb_plan_free(p);
}

/* lb_plan_reach refuses goals that do not add up (a strategy's bug, said). */
static void test_reach(void)
{
    const long n[] = {3, 1}, d[] = {1, 1};
    sched_err err;
    lb_plan *p = make("none", 2, n, d, 1, 0, &err);
    const long bad[] = {1, 1}, neg[] = {5, -1}, good[] = {2, 2};
    test_cond("reach: goals summing to 2 for 4 tasks: SCHED_EINVAL, both sums named",
              p && lb_plan_reach(p, bad, &err) == SCHED_EINVAL &&
              strstr(err.msg, "sum to 2") && strstr(err.msg, "hold 4"));
    test_cond("reach: a negative goal: SCHED_EINVAL naming it",
              p && lb_plan_reach(p, neg, &err) == SCHED_EINVAL &&
              strstr(err.msg, "goal[1]=-1"));
    test_cond("reach: 3, 1 -> 2, 2: one move 0 -> 1",
              p && lb_plan_reach(p, good, &err) == SCHED_OK && p->nmoves == 1 &&
              p->move[0].from == 0 && p->move[0].to == 1 && p->move[0].count == 1);
    lb_plan_free(p);
}

/* Bad values, named in the message. */
static void test_errors(void)
{
    const long n[] = {1, 2}, bad_n[] = {1, -1}, d[] = {1, 1}, bad_d[] = {-4, 1};
    const long big[] = {LB_MAX_TASKS, 1};
    sched_err err;
    struct { const char *what; int P; const long *n, *d; double t, C; const char *msg; }
    cases[] = {
        {"nodes 0", 0, n, d, 1, 0, "nodes=0"},
        {"nodes too many", LB_MAX_NODES + 1, n, d, 1, 0, "nodes=1025"},
        {"elapsed 0", 2, n, d, 0, 0, "elapsed=0"},
        {"elapsed NaN", 2, n, d, NAN, 0, "elapsed=nan"},
        {"cost < 0", 2, n, d, 1, -0.5, "cost=-0.5"},
        {"cost infinite", 2, n, d, 1, INFINITY, "cost=inf"},
        {"remaining < 0", 2, bad_n, d, 1, 0, "remaining[1]=-1"},
        {"done < 0", 2, n, bad_d, 1, 0, "done[0]=-4"},
        {"N_total too big", 2, big, d, 1, 0, "N_total=1000001"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lb_plan *p = make("yoon", cases[i].P, cases[i].n, cases[i].d, cases[i].t,
                          cases[i].C, &err);
        test_condf(!p && err.code == SCHED_EINVAL && strstr(err.msg, cases[i].msg),
                   "error %s: '%s' names '%s'", cases[i].what, p ? "(a plan)" : err.msg,
                   cases[i].msg);
        lb_plan_free(p);
    }
    test_cond("unknown strategy: NULL, SCHED_ENOENT, the valid names",
              !lb_type_find("nope", &err) && err.code == SCHED_ENOENT &&
              strstr(err.msg, "'nope'") && strstr(err.msg, "yoon, none, clb, dlb, mclb"));
    test_cond("lookup is case-insensitive", lb_type_find("YOON", &err) == &lb_yoon);
    lb_input in = {.nodes = 2, .remaining = n, .done = d, .elapsed = 1};
    test_cond("no strategy: an error", !lb_plan_make(NULL, &in, &err) &&
              err.code == SCHED_EINVAL);
}

/* ---- Properties over random inputs --------------------------------------
 * First what every strategy in lb_types must keep (the interface's
 * invariants, lb.h), then each strategy's own rules (its file's header).
 * Each check counts the plans it looked at and those that failed; a check
 * that looked at none fails too. 'zero' and 'huge': C = 0, or C beyond any
 * T_task. */
enum {
    /* every strategy */
    CONSERVED, NONNEG, TARGET, MINMAX, MOVES, E_AFTER,
    /* yoon (sched/lb/yoon.c) */
    YOON_MAX_E, YOON_C_ZERO, YOON_C_HUGE, YOON_BETWEEN, YOON_UNMEASURED,
    /* none */
    NONE_STILL,
    /* clb (sched/lb/clb.c), dlb (sched/lb/dlb.c): counts only */
    CLB_LEVEL, CLB_FEWEST, CLB_ONE_WAY, BLIND, DLB_NEIGHBOURS, DLB_RULE,
    /* mclb (sched/lb/mclb.c) */
    MCLB_ALL_OR_NOTHING, MCLB_C_HUGE, MCLB_UNMEASURED,
    NCHECK
};
static const char *const check_name[NCHECK] = {
    "all: tasks conserved", "all: counts never negative",
    "all: the target sums to N_total, an unmeasured node's is n_i",
    "all: the target is min-max (no single task moved lowers max n'T) and "
    ">= floor(share)",
    "all: the moves add up to the changes, one entry per pair, between nodes",
    "all: k_i counts every task sent or received; E after = after T + k C; "
    "max E before and after over the measured nodes",
    "yoon: max E never rises", "yoon: C = 0: the result is the target",
    "yoon: huge C: nothing moves", "yoon: every node between n_i and its target",
    "yoon: an unmeasured node keeps its queue",
    "none: nothing moves",
    "clb: every queue ends at floor(N/P) or one more",
    "clb: as few tasks move as that levelling needs",
    "clb: no node both sends and receives",
    "clb, dlb: the plan is the same whatever d_i and C (counts only)",
    "dlb: tasks move only between hypercube neighbours",
    "dlb: a node sends floor(L - domain mean) when above it, else nothing, "
    "delta_k rounded to a neighbour",
    "mclb: nothing moves, or the target exactly with a lower max E; nothing "
    "only when the target would not lower it",
    "mclb: huge C: nothing moves", "mclb: an unmeasured node keeps its queue"};

typedef struct rcheck {
    long ran[NCHECK], failed[NCHECK];
} rcheck;

static void note(rcheck *rc, int k, int ok)
{
    rc->ran[k]++;
    rc->failed[k] += !ok;
}

/* Tasks node i sent, and received, by the move list. */
static void flows(const lb_plan *p, long *sent, long *got)
{
    for (int i = 0; i < p->nodes; i++)
        sent[i] = got[i] = 0;
    for (int m = 0; m < p->nmoves; m++) {
        sent[p->move[m].from] += p->move[m].count;
        got[p->move[m].to] += p->move[m].count;
    }
}

/* What lb.h promises of every plan. */
static void check_generic(rcheck *rc, const lb_plan *p, const long *n, double C)
{
    long sent[LB_MAX_NODES], got[LB_MAX_NODES], sum = 0, tsum = 0, nsum = 0;
    int conserved = 1, nonneg = 1, target = 1, minmax = 1, moves = 1, e_ok = 1;
    for (int m = 0; m < p->nmoves; m++) {
        const lb_move *mv = &p->move[m];
        if (mv->from == mv->to || mv->count < 1 || mv->from < 0 || mv->to < 0 ||
            mv->from >= p->nodes || mv->to >= p->nodes)
            moves = 0;
        for (int q = 0; q < m; q++)
            if (p->move[q].from == mv->from && p->move[q].to == mv->to)
                moves = 0;
    }
    if (!moves) {
        note(rc, MOVES, 0);
        return;                         /* the rest would index out of range */
    }
    flows(p, sent, got);
    double max_b = NAN, max_a = NAN;
    for (int i = 0; i < p->nodes; i++) {
        sum += p->after[i];
        tsum += p->target[i];
        nsum += n[i];
        nonneg &= p->after[i] >= 0 && p->target[i] >= 0;
        moves &= n[i] - sent[i] + got[i] == p->after[i];
        int measured = !isnan(p->t_task[i]);
        if (!measured) {
            target &= p->target[i] == n[i];
            e_ok &= isnan(p->e_after[i]) && isnan(p->e_before[i]);
            continue;
        }
        if (p->target[i] < (long)floor(p->share[i] - 1e-9))
            minmax = 0;
        for (int j = 0; j < p->nodes; j++)
            if (!isnan(p->t_task[j]) && p->target[j] > 0 &&
                (double)p->target[j] * p->t_task[j] >
                    (double)(p->target[i] + 1) * p->t_task[i])
                minmax = 0;
        long k = sent[i] + got[i];
        double e = (double)p->after[i] * p->t_task[i] + (double)k * C;
        e_ok &= p->moved[i] == k && e == p->e_after[i];
        max_b = fmax(max_b, (double)n[i] * p->t_task[i]);
        max_a = fmax(max_a, e);
    }
    conserved = sum == nsum && sum == p->total;
    target &= tsum == p->total;
    e_ok &= (isnan(max_b) ? isnan(p->max_before) : max_b == p->max_before) &&
            (isnan(max_a) ? isnan(p->max_after) : max_a == p->max_after);
    note(rc, CONSERVED, conserved);
    note(rc, NONNEG, nonneg);
    note(rc, TARGET, target);
    note(rc, MINMAX, minmax);
    note(rc, MOVES, moves);
    note(rc, E_AFTER, e_ok);
}

static int unmeasured_still(const lb_plan *p, const long *n)
{
    for (int i = 0; i < p->nodes; i++)
        if (isnan(p->t_task[i]) && p->after[i] != n[i])
            return 0;
    return 1;
}

static void check_yoon(rcheck *rc, const lb_plan *p, const long *n, int zero, int huge)
{
    int between = 1, at_target = 1;
    for (int i = 0; i < p->nodes; i++) {
        long lo = n[i] < p->target[i] ? n[i] : p->target[i];
        long hi = n[i] < p->target[i] ? p->target[i] : n[i];
        between &= p->after[i] >= lo && p->after[i] <= hi;
        at_target &= p->after[i] == p->target[i];
    }
    note(rc, YOON_MAX_E, isnan(p->max_before) || p->max_after <= p->max_before);
    if (zero)
        note(rc, YOON_C_ZERO, at_target);
    if (huge)
        note(rc, YOON_C_HUGE, p->nmoves == 0);
    note(rc, YOON_BETWEEN, between);
    note(rc, YOON_UNMEASURED, unmeasured_still(p, n));
}

/* CLB's levelling, counted independently of sched/lb/clb.c: q = floor(N/P), r =
 * N mod P; the m nodes holding more than q tasks keep q + 1 if there are
 * seats (r) for them: the fewest moves are sum max(0, n_i - q - 1), plus 1
 * for each of those nodes beyond the r seats. */
static void check_clb(rcheck *rc, const lb_plan *p, const long *n)
{
    long sent[LB_MAX_NODES], got[LB_MAX_NODES];
    long q = p->total / p->nodes, r = p->total % p->nodes, fewest = 0, m = 0, moved = 0;
    int level = 1, one_way = 1;
    flows(p, sent, got);
    for (int i = 0; i < p->nodes; i++) {
        level &= p->after[i] == q || p->after[i] == q + 1;
        one_way &= sent[i] == 0 || got[i] == 0;
        if (n[i] > q) {
            fewest += n[i] - q - 1;
            m++;
        }
        moved += sent[i];
    }
    fewest += m > r ? m - r : 0;
    note(rc, CLB_LEVEL, level);
    note(rc, CLB_FEWEST, moved == fewest);
    note(rc, CLB_ONE_WAY, one_way);
}

/* SID's rule (sched/lb/dlb.c), in integers: node i with K hypercube neighbours
 * and domain sum S sends ((K+1) L_i - S) / (K+1) tasks in all when that is
 * > 0, to each neighbour k within one task of delta_k = ((K+1) L_i - S)
 * h_k / ((K+1) H), h_k = max(S - (K+1) L_k, 0). */
static void check_dlb(rcheck *rc, const lb_plan *p, const long *n)
{
    long sent[LB_MAX_NODES], got[LB_MAX_NODES];
    int neighbours = 1, rule = 1;
    flows(p, sent, got);
    for (int m = 0; m < p->nmoves; m++) {
        int x = p->move[m].from ^ p->move[m].to;
        neighbours &= x > 0 && (x & (x - 1)) == 0;
    }
    for (int i = 0; i < p->nodes; i++) {
        long long K = 0, S = n[i], H = 0;
        for (int b = 1; b < p->nodes; b <<= 1)
            if ((i ^ b) < p->nodes) {
                K++;
                S += n[i ^ b];
            }
        for (int b = 1; b < p->nodes; b <<= 1)
            if ((i ^ b) < p->nodes && S > (K + 1) * n[i ^ b])
                H += S - (K + 1) * n[i ^ b];
        long long excess = (K + 1) * n[i] - S;
        rule &= sent[i] == (excess > 0 ? excess / (K + 1) : 0);
        for (int m = 0; m < p->nmoves; m++) {
            if (p->move[m].from != i)
                continue;
            long long h = S - (K + 1) * n[p->move[m].to];
            long long num = excess * h, den = (K + 1) * H;   /* delta_k = num / den */
            long long diff = p->move[m].count * den - num;
            rule &= h > 0 && diff > -den && diff < den;
        }
    }
    note(rc, DLB_NEIGHBOURS, neighbours);
    note(rc, DLB_RULE, rule);
}

/* MCLB (sched/lb/mclb.c): E' = n'_i T_i + |n_i - n'_i| C, computed here. */
static void check_mclb(rcheck *rc, const lb_plan *p, const long *n, double C, int huge)
{
    int at_target = 1;
    double max_t = NAN;
    for (int i = 0; i < p->nodes; i++) {
        at_target &= p->after[i] == p->target[i];
        if (isnan(p->t_task[i]))
            continue;
        long k = n[i] > p->target[i] ? n[i] - p->target[i] : p->target[i] - n[i];
        max_t = fmax(max_t, (double)p->target[i] * p->t_task[i] + (double)k * C);
    }
    int pays = max_t < p->max_before;
    int ok = p->nmoves == 0 ? !pays || at_target
                            : at_target && pays && p->max_after < p->max_before;
    note(rc, MCLB_ALL_OR_NOTHING, ok);
    if (huge)
        note(rc, MCLB_C_HUGE, p->nmoves == 0);
    note(rc, MCLB_UNMEASURED, unmeasured_still(p, n));
}

/* The same moves, whatever d_i and C: plans again with the done counts
 * reversed (some nodes measured that were not, and the other way round)
 * and another C, and compares. */
static void check_blind(rcheck *rc, const lb_plan *p, const lb_type *T, const long *n,
                        const long *d, double t, double C)
{
    long d2[LB_MAX_NODES];
    for (int i = 0; i < p->nodes; i++)
        d2[i] = d[p->nodes - 1 - i] + (i % 3 == 0);
    sched_err err;
    lb_input in = {.nodes = p->nodes, .remaining = n, .done = d2, .elapsed = t * 1.5,
                   .cost = C > 0 ? 0 : 7};
    lb_plan *q = lb_plan_make(T, &in, &err);
    int same = q && q->nmoves == p->nmoves;
    for (int m = 0; same && m < p->nmoves; m++)
        same = q->move[m].from == p->move[m].from && q->move[m].to == p->move[m].to &&
               q->move[m].count == p->move[m].count;
    note(rc, BLIND, same);
    lb_plan_free(q);
}

static void test_properties(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 14);
    rcheck rc = {{0}, {0}};
    long runs[8] = {0}, moved[8] = {0};
    for (int rep = 0; rep < 3000; rep++) {
        int P = 1 + (int)gsl_rng_uniform_int(rng, 12);
        long n[16], d[16];
        int spread = 1 + (int)gsl_rng_uniform_int(rng, 60);
        for (int i = 0; i < P; i++) {
            n[i] = (long)gsl_rng_uniform_int(rng, (unsigned long)spread + 1);
            d[i] = gsl_rng_uniform(rng) < 0.1 ? 0 : (long)gsl_rng_uniform_int(rng, 20);
        }
        double t = 0.1 + 30 * gsl_rng_uniform(rng);
        /* C: 0, a fraction of the period's task times, or beyond any */
        double costs[] = {0, gsl_rng_uniform(rng) * t / 2, 1e12};
        for (int k = 0; k < 3; k++)
            for (int s = 0; lb_types[s] && s < 8; s++) {
                const lb_type *T = lb_types[s];
                sched_err err;
                lb_input in = {.nodes = P, .remaining = n, .done = d, .elapsed = t,
                               .cost = costs[k]};
                lb_plan *p = lb_plan_make(T, &in, &err);
                if (!p) {
                    test_condf(0, "random %d, %s: %s", rep, T->name, err.msg);
                    continue;
                }
                check_generic(&rc, p, n, costs[k]);
                if (T == &lb_yoon)
                    check_yoon(&rc, p, n, k == 0, k == 2);
                else if (T == &lb_none)
                    note(&rc, NONE_STILL, p->nmoves == 0 && unmeasured_still(p, n));
                else if (T == &lb_clb)
                    check_clb(&rc, p, n);
                else if (T == &lb_dlb)
                    check_dlb(&rc, p, n);
                else if (T == &lb_mclb)
                    check_mclb(&rc, p, n, costs[k], k == 2);
                if (T == &lb_clb || T == &lb_dlb)
                    check_blind(&rc, p, T, n, d, t, costs[k]);
                moved[s] += p->nmoves > 0;
                runs[s]++;
                lb_plan_free(p);
            }
    }
    for (int k = 0; k < NCHECK; k++)
        test_condf(rc.ran[k] > 0 && rc.failed[k] == 0, "random plans: %s (%ld checked, "
                   "%ld failed)", check_name[k], rc.ran[k], rc.failed[k]);
    /* a property of plans that never move proves little */
    for (int s = 0; lb_types[s] && s < 8; s++)
        if (lb_types[s] != &lb_none)
            test_condf(moved[s] > runs[s] / 10, "random plans: %s moves tasks often "
                       "enough to mean something (%ld of %ld)", lb_types[s]->name,
                       moved[s], runs[s]);
    gsl_rng_free(rng);
}

/* The exchange each strategy declares (lb.h): the central one counted by
 * hand for 4 nodes -- the master gets 3 counts and sends 3 orders (6), the
 * others send one count and get one order (2); every strategy fills every
 * entry with a count >= 0. */
static void test_exchange(void)
{
    long m[4] = {-1, -1, -1, -1};
    lb_exchange_central(4, m);
    test_cond("central exchange, 4 nodes: 6, 2, 2, 2",
              m[0] == 6 && m[1] == 2 && m[2] == 2 && m[3] == 2);
    lb_none.exchange(4, m);
    test_cond("none exchanges nothing", m[0] == 0 && m[1] == 0 && m[2] == 0 && m[3] == 0);
    /* dlb, counted by hand: each node sends its count to each hypercube
     * neighbour and receives theirs. 4 nodes: 2 neighbours each, 4
     * messages; 3 nodes: node 0 has 1 and 2 (4 messages), nodes 1 and 2
     * only node 0 (2 each); 1 node: none. */
    lb_dlb.exchange(4, m);
    test_cond("dlb exchange, 4 nodes: 4, 4, 4, 4",
              m[0] == 4 && m[1] == 4 && m[2] == 4 && m[3] == 4);
    lb_dlb.exchange(3, m);
    test_cond("dlb exchange, 3 nodes: 4, 2, 2", m[0] == 4 && m[1] == 2 && m[2] == 2);
    lb_dlb.exchange(1, m);
    test_cond("dlb exchange, 1 node: 0", m[0] == 0);
    test_cond("clb and mclb use the central exchange",
              lb_clb.exchange == lb_exchange_central &&
              lb_mclb.exchange == lb_exchange_central);
    for (int t = 0; lb_types[t]; t++) {
        long big[64];
        for (int i = 0; i < 64; i++)
            big[i] = -1;
        test_condf(lb_types[t]->exchange != NULL, "%s declares its exchange", lb_types[t]->name);
        if (!lb_types[t]->exchange)
            continue;
        lb_types[t]->exchange(64, big);
        int ok = 1;
        long sum = 0;
        for (int i = 0; i < 64; i++) {
            ok &= big[i] >= 0;
            sum += big[i];
        }
        test_condf(ok, "%s: 64 nodes, every message count >= 0", lb_types[t]->name);
        /* every message has a sender and a receiver, both count it */
        test_condf(sum % 2 == 0, "%s: 64 nodes, the counts sum to an even number (%ld)",
                   lb_types[t]->name, sum);
    }
}

/* lb_input.t_task: the hand case of test_hand with T_task given directly
 * (2, 4, 6 s) instead of t = 12 and d = 6, 3, 2: the same plan (2 tasks 1 ->
 * 3, 1 task 1 -> 2, max E 20 -> 17); NAN is unmeasured; 0 is refused. */
static void test_t_task(void)
{
    sched_err err;
    long n[] = {10, 2, 0};
    double tt[] = {2, 4, 6};
    lb_input in = {.nodes = 3, .remaining = n, .cost = 1, .t_task = tt};
    lb_plan *p = lb_plan_make(&lb_yoon, &in, &err);
    test_cond("t_task given: a plan", p != NULL);
    if (p) {
        test_cond("t_task given: after 7, 3, 2 and max E 20 -> 17 (as from t / d)",
                  p->after[0] == 7 && p->after[1] == 3 && p->after[2] == 2 &&
                  p->max_before == 20 && p->max_after == 17);
        lb_plan_free(p);
    }
    tt[2] = NAN;
    p = lb_plan_make(&lb_yoon, &in, &err);
    test_cond("t_task NAN: node 3 unmeasured, keeps its queue, in no max",
              p && isnan(p->t_task[2]) && p->after[2] == 0 && p->max_before == 20);
    lb_plan_free(p);
    tt[2] = 0;
    p = lb_plan_make(&lb_yoon, &in, &err);
    test_cond("t_task 0 refused, named", !p && err.code == SCHED_EINVAL &&
              strstr(err.msg, "t_task[2]=0") != NULL);
    lb_plan_free(p);
}

/* lb.h's range of T_task and C_t at its limits (LB_MIN_TIME = 1e-15,
 * LB_MAX_TIME = 1e15): the limits taken, the next doubles past them
 * refused naming the value, NaN and the infinities refused; at the limits
 * every number of the plan is finite and the targets are counts summing to
 * N_total. The old failure: t = 1e-306 on one node made an infinite share,
 * a target of -2^63 and an apportionment loop of 9.2e18 steps. */
static void test_limits(void)
{
    sched_err err;
    long n1[] = {1000}, d1[] = {1}, d2[] = {2};
    const double above = nextafter(LB_MAX_TIME, INFINITY);     /* 1e15 + 0.125 */
    struct { const char *what; const long *d; double t, C; const char *msg; } bad[] = {
        {"t = 1e-306 (once a 9.2e18-step loop)", d1, 1e-306, 0, "1e-306 s must be in"},
        {"t = 1e308", d1, 1e308, 0, "= 1e+308 s must be in"},
        {"T_task just above 1e15", d1, above, 0, "= 1000000000000000.1 s must be in"},
        {"T_task = 1e-15 / 2, below 1e-15", d2, 1e-15, 0, "= 5e-16 s must be in"},
        {"t = inf", d1, INFINITY, 0, "elapsed=inf"},
        {"C just above 1e15", d1, 1, above, "cost=1000000000000000.1"},
        {"C = NaN", d1, 1, NAN, "cost=nan"},
        {"C = inf", d1, 1, INFINITY, "cost=inf"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        lb_plan *p = make("yoon", 1, n1, bad[i].d, bad[i].t, bad[i].C, &err);
        test_condf(!p && err.code == SCHED_EINVAL && strstr(err.msg, bad[i].msg),
                   "limits: %s refused: '%s' names '%s'", bad[i].what,
                   p ? "(a plan)" : err.msg, bad[i].msg);
        lb_plan_free(p);
    }
    /* the limits taken, with N_total at its own: the fastest and the
     * slowest node side by side */
    long n[] = {LB_MAX_TASKS / 2, LB_MAX_TASKS / 2}, d[] = {1, 1};
    double tt[] = {LB_MIN_TIME, LB_MAX_TIME};
    lb_input in = {.nodes = 2, .remaining = n, .t_task = tt, .cost = LB_MAX_TIME};
    for (int s = 0; lb_types[s]; s++) {
        lb_plan *p = lb_plan_make(lb_types[s], &in, &err);
        int ok = p != NULL;
        long sum = 0;
        for (int i = 0; ok && i < 2; i++) {
            ok = isfinite(p->share[i]) && p->target[i] >= 0 &&
                 p->target[i] <= LB_MAX_TASKS && isfinite(p->e_before[i]) &&
                 isfinite(p->e_after[i]);
            sum += p->target[i];
        }
        test_condf(ok && sum == LB_MAX_TASKS, "limits: %s with T_task 1e-15 and 1e15, C_t "
                   "1e15, N_total 10^6: finite, targets sum to 10^6 (%s)",
                   lb_types[s]->name, p ? "a plan" : err.msg);
        lb_plan_free(p);
    }
    lb_plan *p = make("yoon", 2, n, d, LB_MAX_TIME, 0, &err);
    test_cond("limits: elapsed 1e15 over d = 1 (T_task = 1e15) taken", p != NULL);
    lb_plan_free(p);
    p = make("yoon", 2, n, d, LB_MIN_TIME, 0, &err);
    test_cond("limits: elapsed 1e-15 over d = 1 (T_task = 1e-15) taken", p != NULL);
    lb_plan_free(p);
    tt[0] = nextafter(LB_MIN_TIME, 0);
    p = lb_plan_make(&lb_yoon, &in, &err);
    test_cond("limits: t_task just below 1e-15 refused, named", !p &&
              strstr(err.msg, "t_task[0]=9.999999999999999e-16") != NULL);
    lb_plan_free(p);
    tt[0] = INFINITY;
    p = lb_plan_make(&lb_yoon, &in, &err);
    test_cond("limits: t_task inf refused, named", !p && strstr(err.msg, "t_task[0]=inf"));
    lb_plan_free(p);
}

int main(void)
{
    test_limits();
    test_t_task();
    test_exchange();
    test_hand();
    test_rounding();
    test_unmeasured();
    test_hand_clb();
    test_hand_dlb();
    test_hand_mclb();
    test_reach();
    test_errors();
    test_properties();
    return test_report();
}
