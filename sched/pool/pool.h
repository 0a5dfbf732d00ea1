/* pool.h: how many workers an iterative master-worker run should hold, and
 * in which order it hands out its tasks (no PVM, no clock here).
 *
 * Heymann, Senar, Luque & Livny, "Self-Adjusting Scheduling of
 * Master-Worker Applications on Distributed Clusters" (Euro-Par 2001). An
 * iterative run is a batch of tasks per iteration; workers compute them;
 * the master updates its shared data between iterations. A pool strategy
 * answers one question at the end of every iteration (and, for 'static',
 * when a task converges): "how many workers should the run hold from now
 * on?" -- Nworkers, the paper's name. Each strategy is a pool_type (one
 * file each: adjust.c, static.c), looked up by name:
 *
 *   adjust  Figure 3.1 with the refinements of Sec. 3.1 (adjust.c)
 *   static  the paper's "non self-adjusting" baseline of Sec. 4.2
 *           (static.c)
 *
 * Typical use (the PVM runtime and the simulator, sim/pool.c, do this):
 *
 *     pool_params par;
 *     pool_params_init(&par);
 *     pool_params_set(&par, "asp", "ceil", &err);         (optional)
 *     pool *p = pool_new(pool_type_find("adjust", &err), M, &par, &err);
 *     pool_meter m;
 *     pool_meter_init(&m, now);
 *     ... ask for pool_workers(p) workers ...
 *     each iteration:
 *         pool_meter_begin(&m, now, &err);
 *         pool_order(p, tasks, n, &err);    (the hand-out order)
 *         ... a worker arrives: pool_meter_join; one leaves: pool_meter_leave;
 *         ... a task's result says it converged: pool_task_converged
 *         ... the last result is in:
 *         pool_iter_stats st = {.ntask = n, .task = tasks, .time = secs,
 *                               .next_tasks = tasks of the next iteration};
 *         pool_meter_end(&m, now, &st, &err);  (time, held, workers, stable)
 *         int N = pool_iteration_end(p, &st, &why, &err);
 *         ... hold N workers: see "Carrying out Nworkers" ...
 *     pool_meter_totals(&m, &totals);
 *     pool_free(p);
 *
 * Tasks are numbered 0 .. ntasks-1 (the thinning: one per horizontal part
 * of the image); an iteration runs any subset of them (a converged part
 * has no task). Times are seconds from any fixed origin, never
 * decreasing.
 *
 * ---- Definitions (the same in the runtime and the simulator) ----------
 *
 * Held: a worker is held from its allocation -- the moment it is
 *   available to the master (PVM: its first message is in; the simulator:
 *   its arrival) -- to its release (or its loss). Held time is counted in
 *   worker-seconds, whether the worker computes or waits.
 * Useful: a worker does useful work while it computes a task: a task's
 *   execution time is the time its worker spent computing it (PVM: as the
 *   worker measured it, messages excluded; the simulator: its cost). A task
 *   computed again (its worker was lost) counts once, with the time of the
 *   run whose result counts: the lost run's time was held, not useful.
 * An iteration lasts from its begin (pool_meter_begin: the master can hand
 *   out its first task) to its end (pool_meter_end: the last task's result
 *   is in): ItExecutionTime = end - begin. The master's update between
 *   iterations belongs to no iteration.
 * ItEfficiency = (sum of the iteration's task times) / (worker-seconds held
 *   between its begin and its end); 1 when nothing was held (a zero-length
 *   iteration wasted nothing).
 * Over the run (pool_meter_totals): from pool_meter_init to the end of the
 *   last iteration, updates between iterations included: efficiency =
 *   (sum of every task time) / (worker-seconds held); the average number of
 *   workers = worker-seconds held / the run's time (a time-weighted mean:
 *   the paper's "average of the number of workers used from the beginning
 *   to the end of the computation"); time / efficiency, Table 4.1's index.
 * Stable: an iteration ran "during a whole iteration with a stable number
 *   of machines" (Sec. 3.1) when no worker joined and none left between its
 *   begin and its end (pool_meter_join/leave between pool_meter_begin and
 *   pool_meter_end; a worker that arrives during the master's update, before
 *   the begin, leaves the next iteration stable).
 *
 * ---- Carrying out Nworkers (the caller's part) ------------------------
 *
 * Nworkers is a target, handled cumulatively as the paper's Condor
 * requests were (Sec. 3.1): with H workers held and R requested but not
 * yet allocated, a new target N first cancels pending requests (R falls to
 * max(0, N - H)), then, if N < H, releases H - N workers -- idle ones at
 * once; a busy one when its task is done, instead of giving it another --
 * and, if N > H + R, requests N - H - R more. So "requested" means the
 * target: the pending requests are always max(0, N - H), and a release
 * while an allocation is pending cancels it first.
 *
 * Bounds (both strategies, applied after the rule; pool_decision.capped
 * says when they changed its answer): Nworkers <= the tasks of the next
 * iteration (a worker beyond them could only wait); Nworkers >= 1 while
 * tasks remain (the rules never leave a run without a worker); 0 after the
 * last iteration (next_tasks = 0: release everyone).
 *
 * Errors are codes (SCHED_E*, sched.h) with a message in a sched_err that
 * names the bad value. Nothing here prints or exits.
 */
#ifndef POOL_H
#define POOL_H

#include "sched/sched.h"

#define POOL_MAX_TASKS 1000000      /* ntasks of pool_new */

/* The adjusting rule's readings of the paper's garbled "!asp + 1"
 * (adjust.c says which is the default and why). */
typedef enum {
    POOL_ASP_FLOOR1,    /* Nworkers = floor(asp) + 1 */
    POOL_ASP_CEIL       /* Nworkers = ceil(asp) */
} pool_asp;

/* Parameters of the strategies (each uses the ones it names). */
typedef struct pool_params {
    pool_asp asp;           /* adjust: AdjustBySpeedup's reading (floor1) */
    double threshold;       /* adjust: add a worker when ItExecutionTime >
                               max + MAX(min, threshold x max) (0.15) */
    double efficiency;      /* adjust: release one below this (0.8) */
} pool_params;

/* Why Nworkers is what it is: the rule that decided. */
typedef enum {
    POOL_SPEEDUP,       /* adjust, criterion 1: fewer held than requested:
                           Nworkers = AdjustBySpeedup() */
    POOL_ADD,           /* adjust, criterion 2: Nworkers + 1 */
    POOL_RELEASE,       /* adjust, criterion 2: Nworkers - 1 */
    POOL_KEEP,          /* adjust, criterion 2: neither */
    POOL_UNSTABLE,      /* adjust: criterion 2 not applied (not stable) */
    POOL_TASKS          /* static: one worker per task of the next iteration */
} pool_rule;

/* "speedup", "add", "release", "keep", "unstable", "tasks" (static
 * strings; "?" for another value). */
const char *pool_rule_name(pool_rule r);

/* One iteration, as the caller reports it. The caller owns the arrays;
 * they are read during pool_iteration_end / pool_meter_end only. */
typedef struct pool_iter_stats {
    int ntask;              /* tasks the iteration ran, >= 1 */
    const int *task;        /* their numbers, distinct, in [0, ntasks) */
    const double *time;     /* their execution times, seconds, >= 0 */
    int next_tasks;         /* tasks of the next iteration; 0: the last */
    /* filled by pool_meter_end (or by the caller, with the same meaning): */
    double exec_time;       /* ItExecutionTime, seconds, >= 0 */
    double held;            /* worker-seconds held during the iteration */
    int workers;            /* CurrentNworkers: held at the iteration's end */
    int stable;             /* 1: no worker joined or left during it */
} pool_iter_stats;

/* An iteration's numbers as Figure 3.1 names them, and the answer. */
typedef struct pool_decision {
    int iteration;          /* 1, 2, ... as the pool counted them */
    double sum, max, min;   /* of its task times */
    double asp;             /* sum / max (1 when max = 0) */
    double exec_time;       /* ItExecutionTime */
    double efficiency;      /* ItEfficiency */
    int current;            /* CurrentNworkers */
    int stable;
    int before;             /* Nworkers in force during the iteration */
    int next_tasks;         /* tasks of the next iteration */
    int nworkers;           /* Nworkers from now on */
    pool_rule rule;
    int capped;             /* the bounds changed the rule's answer */
} pool_decision;

/* A strategy: two rules, no state of its own (the pool keeps Nworkers and
 * the task times). 'end' returns the rule's Nworkers for the iteration that
 * d describes (d->before is the Nworkers in force) and sets d->rule; the
 * pool then applies the bounds. 'converged' (NULL: the strategy ignores
 * convergence) returns Nworkers after one task converged, given the
 * Nworkers in force. */
typedef struct pool_type {
    const char *name;
    const char *summary;            /* one line for --help, with citation */
    int (*end)(const pool_params *par, pool_decision *d);
    int (*converged)(int nworkers);
} pool_type;

typedef struct pool pool;

/* The list of all strategies, NULL-terminated. */
extern const pool_type *const pool_types[];
extern const pool_type pool_adjust, pool_static;

/* Finds a strategy by name (case-insensitive). On an unknown name returns
 * NULL and sets err to SCHED_ENOENT with the list of valid names. */
const pool_type *pool_type_find(const char *name, sched_err *err);

/* The paper's values: asp floor1, threshold 0.15, efficiency 0.8. */
void pool_params_init(pool_params *par);

/* Sets parameter 'name' from the text 'value': "asp" (floor1 or ceil),
 * "threshold" (a number >= 0), "efficiency" (a number in [0, 1]).
 * SCHED_ENOENT for another name (the message lists them), SCHED_EINVAL for
 * a bad value (named), par unchanged then. */
int pool_params_set(pool_params *par, const char *name, const char *value,
                    sched_err *err);

/* A new pool of strategy T for ntasks tasks (1 .. POOL_MAX_TASKS): the
 * first Nworkers is ntasks (Figure 3.1 step 1; the static baseline's
 * initial request). par NULL: pool_params_init's. Returns NULL with err set
 * for a bad T, ntasks or parameter (named) or out of memory. The caller
 * owns the result and frees it with pool_free. */
pool *pool_new(const pool_type *T, int ntasks, const pool_params *par,
               sched_err *err);
void pool_free(pool *p);

/* Nworkers now: the target the caller carries out. */
int pool_workers(const pool *p);
int pool_ntasks(const pool *p);
const pool_type *pool_get_type(const pool *p);

/* The iteration that st describes has ended: records its task times (for
 * pool_order), applies the strategy and the bounds, and returns Nworkers
 * from now on (>= 0), with the numbers behind it in *why (may be NULL).
 * Returns -1 with err set (nothing changed) for stats that cannot be: no
 * task, a task number out of range or repeated, a time < 0 or not finite,
 * a negative count; the message names the field and the value. */
int pool_iteration_end(pool *p, const pool_iter_stats *st, pool_decision *why,
                       sched_err *err);

/* Task 'task' has converged (its result says it will not run again): the
 * static baseline's Nworkers falls by one (its worker is released as soon
 * as no other task remains for it: "Carrying out" above); 'adjust' ignores
 * it. Returns Nworkers from now on, or -1 with err set for a bad number. */
int pool_task_converged(pool *p, int task, sched_err *err);

/* ---- Carrying out Nworkers, as counts ------------------------------------ */

/* What Nworkers = N asks of a run that holds 'held' workers ('idle' of
 * them without a task) with 'pending' requests not yet served ("Carrying
 * out Nworkers" above): cancel the latest-made 'cancel' pending requests,
 * release 'release' idle workers now, make 'request' new requests. A busy
 * worker owed a release goes when its task is done: the caller counts it
 * idle then and asks again before giving it another task. The runtime and
 * the simulator both carry out Nworkers through this. Counts < 0 count
 * as 0. */
typedef struct pool_moves {
    int cancel, release, request;
} pool_moves;

void pool_carry_out(int N, int held, int idle, int pending, pool_moves *mv);

/* The allocation delay (docs/pool.md): the resource manager serves the
 * requests one worker at a time, first come first served, 'delay' seconds
 * each, so a request made at t arrives at max(t, last) + delay, where last
 * is the arrival time of the latest request still pending (pass t, or
 * anything <= t, when none is pending). */
double pool_arrival(double t, double last, double delay);

/* The other reading of a resource manager (docs/slurm.md): one that serves
 * every pending request in the same pass -- Slurm's scheduler starts, each
 * time it runs, every pending job that fits -- so a request made at t
 * arrives at t + delay, whatever else is pending. */
double pool_arrival_together(double t, double delay);

/* ---- The hand-out order -------------------------------------------------- */

/* The order in which an iteration's tasks are handed to idle workers,
 * the paper's for both strategies (Sec. 3, 4.2): by decreasing average
 * execution time; a task never measured yet (avg NAN) goes before every
 * measured one (its time is unknown: it might be the largest); ties by
 * increasing task number. Sorts task[0 .. n-1] in place; avg[t] is task
 * t's average. */
void pool_sort(int *task, int n, const double *avg);

/* pool_sort with the averages of the times pool_iteration_end recorded.
 * Returns SCHED_OK, or SCHED_EINVAL (a task number out of range) or
 * SCHED_ENOMEM, with err set and nothing sorted. */
int pool_order(const pool *p, int *task, int n, sched_err *err);

/* The average of task t's recorded times, NAN when it has none (or t is
 * out of range). */
double pool_average(const pool *p, int t);

/* ---- The meter: held and useful time (the definitions above) ------------- */

/* The caller owns the meter (e.g. on its stack); its fields are the
 * meter's own: read the numbers through pool_meter_end and
 * pool_meter_totals. */
typedef struct pool_meter {
    double t0, t;           /* the run's start; the last event's time */
    int held;               /* workers held now */
    double area;            /* worker-seconds held from t0 to t */
    double useful;          /* task seconds of the ended iterations */
    double end;             /* the last iteration's end (t0: none yet) */
    double area_end;        /* area at that end */
    int in_iteration, changed;
    double begin, area_begin;
    int iterations;
} pool_meter;

/* Totals over the run (the definitions above; Table 4.1's columns). */
typedef struct pool_totals {
    int iterations;
    double time;            /* from the start to the last iteration's end */
    double held;            /* worker-seconds held in that time */
    double useful;          /* sum of every task time */
    double workers;         /* held / time (0 for a run of no time) */
    double efficiency;      /* useful / held (1 when nothing was held) */
    double ratio;           /* time / efficiency */
} pool_totals;

/* The run starts at t0 with no worker held. */
void pool_meter_init(pool_meter *m, double t0);

/* A worker was allocated (join) or released or lost (leave) at t.
 * SCHED_EINVAL for a time before the last event's (or not finite), or a
 * leave with no worker held; nothing changed then. */
int pool_meter_join(pool_meter *m, double t, sched_err *err);
int pool_meter_leave(pool_meter *m, double t, sched_err *err);

/* An iteration begins at t (SCHED_EINVAL: one has begun and not ended, or
 * a time going back). */
int pool_meter_begin(pool_meter *m, double t, sched_err *err);

/* The iteration ends at t: fills st->exec_time, held, workers and stable,
 * and adds its task times (st->time[0 .. ntask-1]) to the run's useful
 * time. SCHED_EINVAL: no iteration begun, a time going back, or a bad
 * task time. */
int pool_meter_end(pool_meter *m, double t, pool_iter_stats *st,
                   sched_err *err);

/* The totals up to the last iteration's end. */
void pool_meter_totals(const pool_meter *m, pool_totals *out);

#endif
