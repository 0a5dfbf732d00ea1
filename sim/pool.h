/* pool.h (sim/): an iterative master-worker run at the paper's scale,
 * replayed from a trace of task costs through a pool strategy
 * (sched/pool/pool.h) -- Heymann et al.'s experiments without PVM or Condor.
 *
 * The model (docs/pool.md):
 *  - the run is the trace's iterations in turn; iteration k's tasks are
 *    handed out in pool_order's order (by decreasing average time so far)
 *    to the held workers, one task per idle worker: a worker that finishes
 *    takes the next task (self-scheduling); every worker is equally fast,
 *    a task takes its cost x scale seconds;
 *  - an iteration ends when its last task is done; the master's border
 *    update then takes 'border' seconds, and the next iteration begins;
 *  - the pool's Nworkers is carried out at once, as sched/pool/pool.h says:
 *    pending requests cancelled first (the latest made first), idle
 *    workers released at once, a busy one when its task is done, new
 *    requests queued;
 *  - allocation: the resource manager serves requests one worker at a
 *    time, first come first served, 'delay' seconds each: a worker
 *    requested at t arrives at max(t, the arrival of the request before
 *    it still pending) + delay; the first request is made at t = 0;
 *    or, with 'together', it serves them all in one pass (a batch
 *    scheduler such as Slurm's): a worker requested at t arrives at
 *    t + delay;
 *  - a task converges when its part has no task in the next iteration (or
 *    the iteration is the last): pool_task_converged as its result comes;
 *  - at equal times: task completions (in the order the tasks started),
 *    then arrivals, then an iteration's begin. No clock, no randomness:
 *    the same trace and options give the same numbers.
 */
#ifndef SIM_POOL_H
#define SIM_POOL_H

#include <stddef.h>

#include "sched/pool/pool.h"
#include "sched/records/poolrec.h"

#define SIM_TRACE_MAX_PARTS 4096
#define SIM_TRACE_MAX_ITERATIONS 1000000L

/* The allocation delay's default, seconds: the one that reproduces the
 * paper's Figure 4.2 behaviour on sim/examples/figures32.trace, the
 * thinning of the Figures test image cut into 32 parts (the
 * non-self-adjusting run reaches at most 23 of its 32 workers, first in
 * iteration 15: delays of 12.8-13.5 s do); docs/pool.md says how it was
 * chosen. */
#define SIM_POOL_DELAY 13.0

/* The paper's scale (Sec. 4.2): "the execution time of the largest task
 * was initially in the range of 50 seconds when images were divided into
 * 8 parts" -- the default scale of a trace in pixels. */
#define SIM_TRACE_LARGEST_8 50.0

/* ---- the trace (trace.c) ----------------------------------------------------
 *
 *   # thin trace: image NAME, W x H, parts M, unit U      (the first line)
 *   # any other line starting with '#': a comment (blank lines too)
 *   K  c_1 c_2 ... c_M     (one line per iteration, blank-separated)
 *
 * U is pixels or seconds; K the iteration's number (the first any integer
 * >= 0, then each one more than the last); c_i part i's task cost, a number
 * >= 0, or '-' when part i has no task in that iteration. M <= 4096, at
 * most 10^6 iterations, at least one task in each. */

typedef enum { SIM_UNIT_PIXELS, SIM_UNIT_SECONDS } sim_unit;

typedef struct sim_trace {
    char image[128];
    long width, height;
    int parts;
    sim_unit unit;
    long n;                 /* iterations */
    long first;             /* the first one's number (then first + 1, ...) */
    double *cost;           /* n x parts, row by row; NAN: no task */
} sim_trace;

/* Reads a trace ("-": standard input). Returns 0, or -1 with the message in
 * msg naming the file, the line and the bad field. The caller frees tr with
 * sim_trace_free (also after a failure). */
int sim_trace_read(sim_trace *tr, const char *path, char *msg, size_t len);
void sim_trace_free(sim_trace *tr);

/* Part i's cost in iteration k (0-based), NAN when it has no task. */
static inline double sim_trace_cost(const sim_trace *tr, long k, int i)
{
    return tr->cost[k * tr->parts + i];
}

/* Seconds per unit when none is given: 1 for a trace in seconds; for one in
 * pixels, the scale that makes the first iteration's largest 8-part task
 * take SIM_TRACE_LARGEST_8 seconds, an 8-part task being the sum of its
 * parts (part i of M in the 8-part split's task floor(8 i / M): exact when
 * M is a multiple of 8). NAN when that task costs nothing. */
double sim_trace_scale(const sim_trace *tr);

/* ---- the run (pool.c) -------------------------------------------------------- */

typedef struct sim_pool_config {
    const pool_type *type;
    pool_params params;
    double delay;           /* allocation delay, seconds (SIM_POOL_DELAY) */
    int together;           /* requests served together (pool_arrival_together),
                             * not one at a time (pool_arrival; 0, the default) */
    double border;          /* the master's update between iterations (0) */
    double scale;           /* seconds per trace unit (1) */
} sim_pool_config;

/* 'adjust', the paper's parameters, the defaults above. */
void sim_pool_config_init(sim_pool_config *c);

/* One iteration: number, begin, most workers held at once, requests
 * pending at its end, its decision (task times, held, requested,
 * efficiency, time, Nworkers next), tasks (sched/records/poolrec.h). */
typedef pool_iter_rec sim_pool_iter;

typedef struct sim_pool_result {
    sim_pool_iter *it;      /* one per iteration, n of them */
    long n;
    pool_totals totals;
    int peak;               /* most workers held at once in the run */
    long peak_number;       /* the first iteration (its number) with that many */
    long requested, cancelled, released;   /* workers, over the run */
} sim_pool_result;

/* The configuration and the trace's scaled costs checked: 0, or -1 with
 * the bad value named in msg (a delay, border or scale out of range; a
 * cost that scaled passes 1e9 s, with its iteration and part). */
int sim_pool_check(const sim_pool_config *c, const sim_trace *tr, char *msg, size_t len);

/* Replays tr through c's strategy. Returns 0 with *out filled (the caller
 * frees it with sim_pool_result_free), or -1 with msg: bad input
 * (sim_pool_check's), out of memory, or a run that cannot end (a time past
 * 1e9 s). */
int sim_pool_run(const sim_pool_config *c, const sim_trace *tr, sim_pool_result *out,
                 char *msg, size_t len);
void sim_pool_result_free(sim_pool_result *r);

#endif
