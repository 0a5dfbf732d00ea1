/* lb.h: which tasks to migrate between nodes, from their queues and their
 * recent rates (no PVM, no clock here).
 *
 * Yoon et al., load balancing by execution-time prediction, Sec. 3.2. Every
 * period t the master learns, per node i, the tasks still in its ready
 * queue (n_i) and the tasks it finished during the period (d_i); a
 * strategy answers "which tasks move where?". Each strategy is an lb_type
 * (one file each), looked up by name:
 *
 *   yoon  eq. 1-4 and the greedy migrations of Sec. 3.2 (yoon.c)
 *   none  no migration: the baseline (none.c)
 *   clb   central: every queue levelled to the mean count, speeds and C_t
 *         ignored (clb.c)
 *   dlb   decentral: sender-initiated diffusion among hypercube neighbours,
 *         Willebeek-LeMair & Reeves (dlb.c)
 *   mclb  central: eq. 4's target all at once, only if the predicted finish
 *         falls (mclb.c)
 *
 * Yoon et al. Sec. 4.1 compare their algorithm with CLB, DLB and MCLB but
 * define none of them; each file says where its rule comes from and what we
 * chose (docs/lb.md: all five side by side).
 *
 * Typical use:
 *
 *     lb_input in = {.nodes = P, .remaining = n, .done = d,
 *                    .elapsed = t, .cost = C};
 *     lb_plan *p = lb_plan_make(lb_type_find("yoon", &err), &in, &err);
 *     for (int m = 0; m < p->nmoves; m++)
 *         ... move p->move[m].count tasks from node p->move[m].from to
 *             p->move[m].to ...
 *     lb_plan_free(p);
 *
 * The driver (lb.c) computes what every strategy shares -- eq. 1's
 * T_task_i = t / d_i, eq. 2's N_total, eq. 4's share and its whole target
 * n'_i, the predicted finish E_i before -- and, after the strategy has
 * chosen its migrations, E_i after and the largest E before and after.
 * Nodes are numbered 0 .. nodes-1. A node with d_i = 0 has no measured
 * rate: it is "unmeasured" (yoon.c says why and what is done with it):
 * its T_task, share and E are NAN and it is left out of every max. The
 * strategies that use the rates (yoon, mclb) leave its queue as it is; those
 * that count tasks only (clb, dlb) treat it like any other node.
 *
 * Errors are codes (SCHED_E*, sched.h) with a message in a sched_err that
 * names the bad value. Nothing here prints or exits.
 */
#ifndef LB_H
#define LB_H

#include "sched/sched.h"

#define LB_MAX_NODES 1024
#define LB_MAX_TASKS 1000000L       /* N_total, the sum of the remaining */
/* T_task_i (eq. 1's t / d_i, or given) lies in [LB_MIN_TIME, LB_MAX_TIME]
 * seconds and C_t in [0, LB_MAX_TIME] (a femtosecond to 31.7 million
 * years): then 1 / T_task, its sum over the nodes, the shares and every
 * predicted finish (at most 3 N_total LB_MAX_TIME) are finite, and eq. 4's
 * whole target is a count in 0..N_total. Outside, lb_plan_make refuses
 * the input, naming the node and the value (an infinite share made a
 * target of -2^63, and the apportionment loop ran 9.2e18 times). */
#define LB_MIN_TIME 1e-15
#define LB_MAX_TIME 1e15

/* One balancing's measurements. The caller owns the arrays; they are read
 * during lb_plan_make only. */
typedef struct lb_input {
    int nodes;                  /* P, 1 .. LB_MAX_NODES */
    const long *remaining;      /* n_i: tasks in node i's ready queue, >= 0 */
    const long *done;           /* d_i: tasks node i finished during the
                                   period, >= 0 */
    double elapsed;             /* t: the period, seconds, > 0 (t / d_i in
                                   [LB_MIN_TIME, LB_MAX_TIME] where d_i > 0) */
    double cost;                /* C_t: migrating one task, seconds, in
                                   [0, LB_MAX_TIME] */
    /* Optional: when not NULL, node i's time per task measured directly
     * (seconds in [LB_MIN_TIME, LB_MAX_TIME]; NAN: unmeasured), taken as
     * T_task_i instead of eq. 1's
     * t / d_i; elapsed and done are then not read (done may be NULL). For a
     * caller whose nodes wait for each other, so that the period's wall time
     * is not each node's working time (the row strips of runtime/strips_*.c
     * measure each node's busy time). */
    const double *t_task;
} lb_input;

/* count tasks from node 'from' to node 'to'. */
typedef struct lb_move {
    int from, to;
    long count;
} lb_move;

/* A plan. Every array has 'nodes' entries. */
typedef struct lb_plan {
    int nodes;
    long total;                 /* eq. 2: N_total = sum of n_i */
    long *remaining;            /* n_i (a copy the plan owns) */
    double *t_task;             /* eq. 1: t / d_i; NAN when d_i = 0 */
    double *share;              /* eq. 4, real: N x (1/T_i) / sum 1/T_j over
                                   the measured nodes (N: their tasks);
                                   NAN when unmeasured */
    long *target;               /* eq. 4, whole: n'_i, summing to N_total;
                                   n_i for an unmeasured node */
    long *after;                /* n_i after the migrations */
    long *moved;                /* k_i: tasks node i sent or received */
    double *e_before;           /* n_i T_i; NAN when unmeasured */
    double *e_after;            /* after_i T_i + k_i C; NAN when unmeasured */
    double max_before, max_after;   /* over the measured nodes; NAN: none */
    lb_move *move;              /* in the order first chosen, one entry per
                                   (from, to) pair */
    int nmoves;
} lb_plan;

/* A strategy. 'plan' gets a plan whose shared fields are filled (t_task,
 * share, target, e_before; after = remaining, moved = 0, no moves) and
 * chooses the migrations with lb_plan_move. Returns SCHED_OK, or
 * SCHED_ENOMEM with err set. */
typedef struct lb_type {
    const char *name;
    const char *summary;        /* one line for --help, with citation */
    int (*plan)(lb_plan *p, double cost, sched_err *err);
    /* The load-information exchange one balancing needs before its
     * migrations: fills msgs[i], i = 0 .. nodes-1, with the messages of one
     * C_msg each that node i sends or receives (under the one-port model,
     * Yoon et al. Sec. 3.1, they take its time one after another). A
     * central strategy: node 0, the master, 2 (nodes - 1) (every count in,
     * every order out), every other node 2. Migrations are not counted here:
     * each costs C_task at both ends (the plan's moved[]). */
    void (*exchange)(int nodes, long *msgs);
} lb_type;

/* The list of all strategies, NULL-terminated. */
extern const lb_type *const lb_types[];
extern const lb_type lb_yoon, lb_none, lb_clb, lb_dlb, lb_mclb;

/* Finds a strategy by name (case-insensitive). On an unknown name returns
 * NULL and sets err to SCHED_ENOENT with the list of valid names. */
const lb_type *lb_type_find(const char *name, sched_err *err);

/* Checks 'in', computes the shared fields, lets T choose the migrations
 * and computes the predictions after them. Returns a new plan, or NULL with
 * err set: SCHED_EINVAL for a bad value (named: "remaining[2]=-1 must be
 * >= 0"), SCHED_ENOMEM. The caller owns the result and frees it with
 * lb_plan_free. */
lb_plan *lb_plan_make(const lb_type *T, const lb_input *in, sched_err *err);
void lb_plan_free(lb_plan *p);

/* The central exchange described under lb_type.exchange, for strategies
 * whose master gathers every node's counts (yoon, clb, mclb). */
void lb_exchange_central(int nodes, long *msgs);

/* For the strategies: moves one task from node 'from' to node 'to'
 * (after[], moved[], the move list). Returns SCHED_OK, or SCHED_ENOMEM
 * with err set. */
int lb_plan_move(lb_plan *p, int from, int to, sched_err *err);

/* For the strategies: moves tasks until after[i] = goal[i] for every node.
 * Each node above its goal sends its surplus to the nodes below theirs, both
 * taken in index order (the first surplus fills the first deficit, and so
 * on): no node both sends and receives, so k_i = |n_i - goal_i| when the
 * plan had no move before, and at most senders + receivers - 1 (from, to)
 * pairs. The caller owns goal (read only). Returns SCHED_OK; SCHED_EINVAL
 * when a goal is negative or the goals do not sum to the tasks held;
 * SCHED_ENOMEM; err set. */
int lb_plan_reach(lb_plan *p, const long *goal, sched_err *err);

/* Node i's predicted finish (Sec. 3.2) with its current after_i and k_i:
 * after_i x T_task_i + k_i x C; NAN when unmeasured. */
double lb_finish(const lb_plan *p, int i, double cost);

#endif
