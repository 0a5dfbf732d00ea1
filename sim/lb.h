/* lb.h (sim/): Yoon et al.'s simulation study (Sec. 4.1): P nodes on a
 * switch, n tasks each, balanced every period by a strategy of
 * sched/lb/lb.h, under the one-port model (Sec. 3.1). No PVM, no clock.
 *
 * The model in one paragraph (every choice the paper leaves open is argued
 * at the top of sim/lb.c and in docs/yoon.md): node i has a mean task time
 * r_i (drawn uniform in (0, 2 E(r)), or given); task j starts on node
 * floor(j / n) with work w (drawn uniform in (0, 2), or given) and takes
 * w r_k seconds on whichever node k runs it. A node runs its ready queue
 * in order, one task at a time. `period` seconds after the previous
 * balancing's last message (the first at t = period) the master takes every
 * node's queue n_i and tasks done d_i, asks the strategy for a plan
 * (lb_plan_make with elapsed = the time since the previous balancing, cost =
 * C_task) and has it carried out: the exchange (lb_type.exchange: msgs_i x
 * C_msg on node i), then the migrations (count x C_task at both ends, one
 * at a time per node, each as soon as both ends are free, the plan's
 * order breaking ties). A node does not compute while it communicates.
 * Only queued tasks migrate, never a running one. Balancing stops
 * when no task is left in any ready queue. ET is when the last task ends.
 *
 *     sim_lb_config c;
 *     sim_lb_config_init(&c);                   (32 nodes x 200 tasks, yoon)
 *     c.c_msg = 0.05; c.c_task = 0.5; c.seed = 7;
 *     sim_lb_result r;
 *     sched_err err;
 *     if (sim_lb_run(&c, &r, &err) != SCHED_OK) ... err.msg ...
 *     ... r.et, r.finish[i], r.moved ...
 *     sim_lb_result_free(&r);
 *
 * Deterministic: the same configuration (and seed) gives the same numbers,
 * bit for bit; a run with strategy "none" on the same seed draws the same
 * r_i and w, so G = (ET_none - ET) / ET compares like with like.
 */
#ifndef SIM_LB_H
#define SIM_LB_H

#include "sched/lb/lb.h"
#include "sched/sched.h"

/* The default period, as a fraction of n E(r) (the time an average node
 * needs for its n tasks): 0.1, some 5 to 10 balancings a run. The paper
 * gives none; docs/yoon.md shows how G moves with it. */
#define SIM_LB_PERIOD_FRAC 0.1
/* The paper's C_task / C_msg. */
#define SIM_LB_CTASK_RATIO 10.0

typedef struct sim_lb_config {
    const lb_type *type;    /* the strategy (lb_type_find) */
    int nodes;              /* P, 1 .. LB_MAX_NODES; node 0 is the master */
    long tasks;             /* n per node, >= 1; nodes x tasks <= LB_MAX_TASKS */
    double mean_r;          /* E(r), seconds, > 0: r_i is drawn in (0, 2 E(r))
                               (unused when rbar is given) */
    double c_msg;           /* one load-information message, seconds, >= 0 */
    double c_task;          /* migrating one task, seconds, >= 0 */
    double period;          /* seconds, > 0 */
    unsigned long seed;     /* GSL mt19937's seed */
    const double *rbar;     /* NULL: drawn; else nodes values > 0 (seconds
                               per unit of work), read during sim_lb_run */
    const double *work;     /* NULL: drawn; else nodes x tasks values >= 0,
                               node by node (task j of node i at i n + j) */
} sim_lb_config;

/* yoon, 32 nodes x 200 tasks, E(r) = 1, C_msg = 0.03, C_task = 0.3,
 * period = SIM_LB_PERIOD_FRAC x 200 x 1 = 20, seed 1, r and w drawn. */
void sim_lb_config_init(sim_lb_config *c);

/* One balancing, as it happened. */
typedef struct sim_lb_balancing {
    double time;            /* when the master took the counts */
    double elapsed;         /* since the previous balancing (eq. 1's t) */
    long queued;            /* N_total */
    double max_before;      /* the plan's predicted largest finish, from now */
    double max_after;       /*   (NAN: no node measured) */
    long moved;             /* tasks migrated */
    int migrations;         /* (from, to, count) transfers */
    double end;             /* its last message or migration ended */
} sim_lb_balancing;

/* What a run gives. Arrays owned by the result (sim_lb_result_free). */
typedef struct sim_lb_result {
    double et;              /* the last task's end: ET */
    int nodes;
    long tasks;             /* all of them: nodes x n */
    double *rbar;           /* r_i used, per node */
    double *finish;         /* each node's last task's end (0: it ran none) */
    long *ran;              /* tasks each node ran */
    double *comm;           /* seconds each node spent communicating */
    int *ran_on;            /* per task (i n + j): the node that ran it */
    long moved;             /* tasks migrated, all balancings */
    long migrations;        /* transfers (from, to, count) carried out */
    long messages;          /* exchange messages (each counted once) */
    sim_lb_balancing *bal;  /* one per balancing, in time order */
    long balancings;
} sim_lb_result;

/* Checks c: SCHED_OK, or SCHED_EINVAL with the bad value named in err
 * ("nodes=0 must be in 1..1024", "rbar[3]=-1 must be > 0"). */
int sim_lb_check(const sim_lb_config *c, sched_err *err);

/* Runs the model. Returns SCHED_OK with *out filled (the caller frees it
 * with sim_lb_result_free), or with *out empty (safe to free): SCHED_EINVAL
 * (sim_lb_check's, or a time past SIM_TIME_MAX), SCHED_ENOMEM, or the
 * strategy's own error. */
int sim_lb_run(const sim_lb_config *c, sim_lb_result *out, sched_err *err);
void sim_lb_result_free(sim_lb_result *r);

#endif
