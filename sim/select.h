/* select.h: --scheme auto, the scheme chosen by simulation (the idea of
 * SimAS: A. Mohammed and F. M. Ciorba, "SimAS: a simulation-assisted
 * approach for the scheduling algorithm selection under perturbations",
 * Concurrency and Computation: Practice and Experience 32(15), 2020).
 *
 * The run starts with a probe scheme (small CSS chunks: sim_auto_probe). Once every live
 * worker has finished a chunk, the master simulates each candidate scheme
 * on what it has measured, with the simulator's own code (sim_run), and
 * goes on with the one whose simulated finish is earliest (policy_switch:
 * the unassigned tail planned by it). It decides again, up to 'max' times a
 * run, whenever more than half of the live workers' A_i differ from those of
 * its last decision (the re-plan rule of DTSS, Sec. 5.3, for any scheme).
 * One implementation for the simulator (sim/self.c) and the PVM master
 * (runtime/loop/serve_self.c).
 *
 * What a decision simulates (sim_select): the iterations left, [next, I),
 * as a loop of their own, started at once on every live worker with
 * A_i > 0 (in the scheduled order, the original one's costs when sampled);
 * a host per such worker of speed V_i (that of a V = 1 host being
 * 1) shared with V_i / A_i - 1 other busy processes (its latest report,
 * A_i = V_i / Q_i: the worker measures Q_i again in the simulation, and
 * the schemes weighted by V_i see what they see in the run); the cost of the k-th
 * iteration a + b k seconds of a V = 1 host, the line fitted (least squares,
 * weighted by size, over the original order: x = sched_sample of the
 * chunk's middle iteration) to the chunks done, each chunk's cost per iteration
 * being its computing time over its size times its worker's A_i (a fitted
 * line that goes below 0 over the tail: the mean instead); a link a worker
 * whose round trip is the line fitted to the chunks done (the time from
 * assignment to result not spent computing, against the chunk's size:
 * twice the latency, and the results' transfer at a bandwidth in
 * iterations a second; one that does not grow with size: the mean, no
 * transfer); a worker with chunks still out
 * starts its first chunk of the tail once they are done by that cost (the
 * simulation's busy; the idle workers first in the hosts' order, which the
 * schemes but DTSS serve their first requests in). Not modelled: the lost
 * chunks in the pool, loads yet to come, the master's time per message. Deterministic:
 * the same measurements give the same choice (ties: the candidate listed
 * first). The time a decision takes is not charged to a simulated run; on
 * PVM the master spends it (tests/bench_auto.sh measures it).
 */
#ifndef SIM_SELECT_H
#define SIM_SELECT_H

#include <stddef.h>

#include "sched/loop/policy.h"
#include "sched/sched.h"
#include "sim/sim.h"

#define SIM_AUTO_NAME "auto"
/* The probe: CSS with chunks of I / (SIM_AUTO_PROBE_SPLIT x P), so that
 * every worker has done one (the first decision) while little of the loop
 * is handed out; large first chunks (FSS's or TSS's I / 2P, GSS's I / P)
 * leave a loaded worker's first result to come when the loop is nearly
 * done, too late for a choice to matter. */
#define SIM_AUTO_PROBE "css"
#define SIM_AUTO_PROBE_SPLIT 16
#define SIM_AUTO_MAX 4              /* the default most decisions a run */
#define SIM_AUTO_CANDIDATES 32      /* the most candidates */
/* When: the first decision once 1 / SIM_AUTO_FIRST of the loop is done
 * (and every worker has done a chunk), the next once the iterations done
 * are SIM_AUTO_GROW times those of the last; measured on the league's
 * simulated scenarios (docs/performance.md, "--scheme auto"). */
#define SIM_AUTO_FIRST 8
#define SIM_AUTO_GROW 2
/* The costs' scales each decision simulates. */
#define SIM_AUTO_SCALES 3
/* The longest sampled tail whose costs a decision holds (8 bytes each);
 * a longer one is simulated at the mean cost. */
#define SIM_AUTO_ARRAY (1L << 24)
/* The cost profile's bins over the loop's original order (at most; one an
 * iteration for a shorter loop). */
#define SIM_AUTO_BINS 256
#define SIM_AUTO_SCALE_LIST {1, 10, 100}

/* Sets cfg to the probe scheme's configuration for a loop of I iterations
 * over P workers (the scheme the run starts with). */
void sim_auto_probe(sched_config *cfg, long I, int P);

/* One decision's input (the remaining loop and the platform as measured). */
typedef struct sim_select_in {
    int n;                  /* hosts, >= 1 */
    const double *speed;    /* each host's speed, > 0 (V_i) */
    const int *extra;       /* other busy processes on it, >= 0 (Q_i - 1) */
    const double *busy;     /* its first chunk not before, seconds (sim.h) */
    long iters;             /* iterations left, >= 1 */
    double a, b;            /* the k-th one's cost: a + b k (>= 0 over them) */
    const double *prefix;   /* or (not NULL) iters + 1 prefix sums of their costs */
    double latency;         /* seconds one way, >= 0 */
    double bandwidth;       /* iterations' results a second (0: infinite) */
    double ahead;           /* request-ahead's F (sched/loop/ahead.h; 0: off) */
    /* What messages cost each host (sim.h's send_cost, wake, wake_load), in
     * cost units (those of a, b and prefix): sending an iteration's results;
     * a chunk reaching an idle worker, and more a busy process on its host
     * (0: nothing) */
    double send, wake, wake_load;
} sim_select_in;

/* Simulates each of the n candidates on in and sets finish[i] to its
 * simulated finish (INFINITY: it could not run; msg says why if none
 * could). Returns the index of the earliest (ties: the first), or -1
 * with msg. */
int sim_select(const sim_select_in *in, const sched_type *const *cand, int n,
               double *finish, char *msg, size_t len);

/* The candidates named in list ("css,gss,dtss"; NULL or "": every scheme
 * of the library, sched_types, but pss: a chunk an iteration, its
 * simulation costs as much as the tail has iterations, and one decision
 * then more than the run it decides for, tests/bench_auto.sh), at most max. Returns their number, or -1
 * with msg naming the bad name (an unknown scheme, tree, auto, a repeat,
 * an empty name or list). */
int sim_auto_candidates(const char *list, const sched_type **out, int max, char *msg,
                        size_t len);

typedef struct sim_auto sim_auto;

/* The selection's state for a run of nworkers workers over a loop of I
 * iterations scheduled with pseudo-uniform sampling R (sched_sample: the
 * costs are fitted over the original order, where a loop's costs are
 * smooth): the candidates (list as sim_auto_candidates), the most decisions
 * (>= 1), request-ahead's F of the run. NULL with msg on a bad list, max,
 * I or R, or out of memory. */
sim_auto *sim_auto_new(int nworkers, long I, int R, const char *list, int max, double ahead,
                       char *msg, size_t len);
void sim_auto_free(sim_auto *a);

/* Worker w's speed V_i (> 0; default 1), as policy_set_speed's. */
void sim_auto_speed(sim_auto *a, int w, double V);

/* What messages cost the workers' hosts (sim.h: send_cost, wake, wake_load;
 * the simulator's calibration), in seconds of a V = 1 host alone: sending
 * an iteration's results, a chunk reaching an idle worker, and more a busy
 * process on its host (>= 0, finite; default 0: nothing). A decision's
 * simulations then charge them to each host at its speed and load, and
 * take them off each chunk's round trip before the link is fitted to it. */
void sim_auto_costs(sim_auto *a, double send, double wake, double wake_load);

/* Events (t: seconds from the start): worker w reported A_i = A; chunk
 * [start, start + size) was handed to worker w at t; worker w's chunk
 * [start, start + size) was done, in 'work' seconds of computing and
 * 'overhead' more from its assignment to its result at the master (its
 * round trip, all of its time not spent computing; < 0 or NAN: unknown),
 * its result taken at t. Bad w or size:
 * ignored. */
void sim_auto_report(sim_auto *a, int w, double A);
void sim_auto_assign(sim_auto *a, int w, long start, long size, double t);
void sim_auto_chunk(sim_auto *a, int w, long start, long size, double work,
                    double overhead, double t);

/* The cost profile a decision lays over the tail (select.c's formula): p[k]
 * for each of its bins k (iterations [k I / K, (k + 1) I / K) of the
 * original order), in seconds of a V = 1 host an iteration: the chunks
 * done in each bin, weighted 1 / their size, interpolated between the bins
 * seen, the nearest seen beyond them. p holds min(I, SIM_AUTO_BINS) values.
 * Returns their number K, or 0 when no chunk was done (p unset). */
int sim_auto_profile(const sim_auto *a, double *p);

/* 1 when a decision is due now (p started, iterations unassigned, fewer
 * than max decisions, and: none yet, as many workers have done a chunk as
 * there are live ones with A_i > 0, and 1 / SIM_AUTO_FIRST of the loop is
 * done; or the iterations done doubled since the last; or more than half
 * of the live workers' A_i changed since the last). O(1). */
int sim_auto_due(const sim_auto *a, const policy *p);

/* Decides at time t (seconds from the start): simulates the candidates and
 * switches p to the best (policy_switch; after the first decision no
 * switch when it is the scheme p runs). Returns the chosen candidate's index, or -1 with msg (p
 * unchanged; the attempt counts as one of the max decisions: the caller
 * goes on with the scheme it has). */
int sim_auto_decide(sim_auto *a, policy *p, double t, char *msg, size_t len);

/* The record's field "auto": the probe and each decision, "fss@0;css@0.213"
 * (scheme @ seconds from the start). */
const char *sim_auto_field(const sim_auto *a);
/* The latest decision: each candidate's simulated finish, "css=1.2 gss=1.3
 * ...", for the master's log. */
const char *sim_auto_log(const sim_auto *a);
/* Decisions made; CPU seconds they took in all (clock()). */
int sim_auto_decisions(const sim_auto *a);
double sim_auto_cpu(const sim_auto *a);

#endif
