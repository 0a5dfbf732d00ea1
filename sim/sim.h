/* sim.h: a discrete-event simulator of loop self-scheduling on heterogeneous,
 * loaded hosts, driving the very code of the PVM coordinator: the scheme
 * (sched/), the policy (sched/loop/policy.c: ACPSA, queue, re-plan, lost
 * chunks) and Tree-Scheduling's split and partners (sched/loop/tree.c). A
 * simulated run and a PVM run differ only in where the time comes from; both
 * write the same run record (sched/records/record.h).
 *
 * The model:
 *  - hosts, each with a speed (cost units per second when it runs alone) and
 *    a load over time: from time t on, N other busy processes share the host
 *    with the worker, whose effective speed is then speed / (N + 1); the
 *    worker measures Q = N + 1 (it counts itself), as on PVM;
 *  - clusters of hosts, with a link class between any two clusters (latency
 *    in seconds, bandwidth in bytes per second); the master sits in one;
 *  - a workload: the cost of each iteration (sim_workload);
 *  - a message costs latency + bytes / bandwidth of its link, a worker's
 *    messages (to the master or, Tree-Scheduling's, to a partner) sent one
 *    after the other on its link; the master spends 'master_overhead'
 *    seconds on each message it handles, one at a time; each chunk handed
 *    out costs 'dispatch' seconds more on its way (e.g. a grid job's
 *    submission).
 * Deterministic: no clock, no threads; ties are broken by the order in which
 * events were created. The same inputs (and seed, for random workloads) give
 * the same bytes.
 */
#ifndef SIM_H
#define SIM_H

#include <stddef.h>

#include "sched/records/record.h"
#include "sched/sched.h"

/* The ranges in which the simulator's numbers can be used; the readers
 * refuse inputs beyond them (exit 2), the engine stops a run that passes
 * them (exit 1), so no input runs forever or prints times that mean nothing:
 *  - a simulated time: at most 1e9 s (31 years), what a run record holds
 *    (record_read refuses later times); far beyond lies a double that no
 *    longer tells seconds apart, then infinity;
 *  - a loop's total cost, and every byte count times the iterations: sums
 *    and differences of such values stay finite;
 *  - hosts in a platform, other busy processes on a host. */
#define SIM_TIME_MAX 1e9
#define SIM_COST_MAX 1e300
#define SIM_MAX_HOSTS 1000000
#define SIM_MAX_EXTRA 1000000
/* The most chunks a run may make (Tree-Scheduling: ranges): 10^12, some
 * three days of computing at the simulator's 4 x 10^6 chunks a second
 * (make bench). bin/sim refuses before the run a scheme that must pass it
 * (pss, chunks of 1, over more than 10^12 iterations); a run that passes it
 * anyway ends with exit 1. */
#define SIM_MAX_CHUNKS 1e12

/* ---- the platform (platform.c) ------------------------------------------- */

typedef struct sim_step {
    double t;       /* from this time on ... */
    int extra;      /* ... this many other busy processes on the host */
} sim_step;

/* Names are at most 63 characters. A host owns its name; its cluster is one
 * of the platform's (hosts of a line share it), so a platform of 10^6 hosts
 * costs ~80 bytes a host. */
typedef struct sim_host {
    char *name;
    const char *cluster;
    double speed;           /* cost units per second, alone */
    sim_step *load;         /* by increasing t; before the first: none */
    int nload;
    double fail;            /* the host fails at this time (< 0: never) */
    /* A CPU quota (CFS bandwidth control, as the emulated cluster's): in
     * each period [kP, (k+1)P) the host runs at most quota seconds, at its
     * core's speed, speed x period / quota (0: none, the speed always). */
    double quota, period;
    int line;               /* of its platform file */
} sim_host;

/* What a host under a quota used of its current period (sim_cpu_run). */
typedef struct sim_cpu { double k, used; } sim_cpu;

typedef struct sim_link {
    char a[64], b[64];      /* clusters; "*" matches any */
    double latency;         /* seconds */
    double bandwidth;       /* bytes per second */
} sim_link;

typedef struct sim_platform {
    sim_host *hosts;
    int nhosts;
    char master[64];        /* the master's cluster */
    sim_link *links;
    int nlinks;
    char **clusters;        /* the hosts' cluster names, owned */
    int nclusters, capclusters;
} sim_platform;

/* Reads a platform file (format: sim/README in docs/sim.md; errors name the
 * file and line). Returns 0, or -1 with the message in msg. */
int sim_platform_read(sim_platform *p, const char *path, char *msg, size_t len);
void sim_platform_free(sim_platform *p);
/* The link between two clusters (the last matching "link" line; default:
 * latency 0, infinite bandwidth). */
const sim_link *sim_link_between(const sim_platform *p, const char *a, const char *b);

/* ---- the workload (workload.c) -------------------------------------------- */

typedef enum {
    SIM_ARRAY,              /* a cost per iteration, kept as prefix sums */
    SIM_LINEAR              /* cost(i) = a + b i, closed form (uniform: b = 0) */
} sim_kind;

typedef struct sim_workload {
    sim_kind kind;
    long n;                 /* iterations */
    int sample;             /* pseudo-uniform sampling frequency R (1: none) */
    double a, b;            /* SIM_LINEAR */
    double *prefix;         /* SIM_ARRAY: n + 1 prefix sums, in scheduled order */
    double total;
    char desc[160];         /* for the run record and the summary */
    int width, height;      /* an image's, for the record (0: none) */
    unsigned maxiter;
    int columns;            /* the image's loop is over its columns */
} sim_workload;

/* The workload of a 'workload' line: KIND key=value ... (see docs/sim.md):
 *   uniform n= cost=          increasing n= from= to=     decreasing n= from= to=
 *   conditional n= lo= hi= p= (cost hi with probability p, else lo)
 *   matrix n= min= max= scale= (a product of two random s x s matrices,
 *                               s uniform in [min, max]: cost scale (s/1000)^3)
 *   mandel costs=FILE (bin/mandel --costs) or mandel size= maxiter= [loop=rows|columns]
 *   costs file=FILE   (one cost per line, or the 3rd CSV column)
 * 'seed' drives the random ones (GSL's mt19937; matrix sizes: matrix_size of
 * cost/, a stream per (seed, iteration), as bin/matrix's); 'dir' resolves relative file
 * names. Returns 0, or -1 with the message (naming the bad key) in msg. */
int sim_workload_parse(sim_workload *w, const char *line, unsigned long seed,
                       const char *dir, char *msg, size_t len);
/* Applies pseudo-uniform sampling with frequency R (before the run). */
int sim_workload_sample(sim_workload *w, int R, char *msg, size_t len);
void sim_workload_free(sim_workload *w);

/* When 'work' units a worker starts at t on host h are done, with h's
 * quota (sim_host.quota) kept in *st: alone on its host the worker runs at
 * the core's speed while the period's quota lasts, then waits for the next
 * period (a worker that was idle has its quota whole: it computes its first
 * quota's worth at the core's speed); with N other busy processes (always
 * runnable: they use the quota from each period's start) it gets 1/(N+1) of
 * the core for the first quota seconds of each period. Without a quota,
 * sim_advance's speed / (N + 1). */
double sim_cpu_run(const sim_host *h, sim_cpu *st, double t, double work);

/* The cost of iterations [start, start + size) of the scheduled loop. */
double sim_work(const sim_workload *w, long start, long size);
/* How many iterations from 'start' on (at most 'limit') are complete after
 * 'work' units: the largest k <= limit with sim_work(w, start, k) <= work. */
long sim_reach(const sim_workload *w, long start, long limit, double work);

/* ---- a run (engine.c) ------------------------------------------------------ */

typedef struct sim_config {
    const sim_platform *platform;
    const sim_workload *workload;
    sched_config sched;     /* the scheme and its parameters (I, P set by sim) */
    int tree;               /* Tree-Scheduling instead of a scheme */
    int acp_integer;        /* A_i = floor(V_i / Q_i) */
    double result_bytes;    /* bytes sent back per iteration */
    double message_bytes;   /* bytes of every message besides results */
    double master_overhead; /* master's seconds per message */
    double dispatch;        /* extra seconds per chunk handed out */
    double remeasure;       /* with A_i = 0, measure again after (s) */
    double ahead;           /* request-ahead: F or rtt (sched/loop/ahead.h; 0: off) */
    /* What a chunk's messages cost a worker's host, self-scheduling or
     * Tree-Scheduling (the emulated cluster's, calibrated by
     * scripts/sim-calibrate; 0: nothing): sending, send_cost cost units a
     * byte, computed at the host's speed under its load before the message
     * leaves; a message received while idle (a chunk; Tree: a range, an
     * answer, a thief's request), (wake + wake_load x its other busy
     * processes) cost units at the host's own speed before the worker runs
     * (its wait for the CPU). */
    double send_cost, wake, wake_load;
    /* --scheme auto (sim/select.h): 'sched' is the probe scheme, the
     * candidates a list as sim_auto_candidates's (NULL: every scheme), at
     * most auto_max decisions (0: SIM_AUTO_MAX) */
    int autosel;
    const char *candidates;
    int auto_max;
    /* each host's worker computes no chunk before busy[i] seconds (it is
     * still computing chunks handed out before; NULL: none): the
     * simulation of a loop's tail by --scheme auto (sim/select.c) */
    const double *busy;
} sim_config;

void sim_config_init(sim_config *c);

/* Runs the simulation and fills the run record (rec: record_init'ed by the
 * caller with the platform's host count; record_stream'ed too, when the
 * run is long: its memory then stays the same). Returns 0, or -1 with msg.
 * sim_open, sim_iterate and sim_close below, in one call. */
int sim_run(const sim_config *c, record *rec, char *msg, size_t len);

/* A lower bound on the finish of any schedule of c's workload on c's
 * platform, under the model above with c's result_bytes, send_cost, wake,
 * wake_load and dispatch (bound.c gives the argument): each host's first
 * chunk's way and wake, then the most its quota lets it compute, the loop's
 * units and its results' sending in all. Seconds; INFINITY when the hosts
 * cannot do the work within SIM_TIME_MAX; NAN out of memory. *need (if not
 * NULL): the units to compute, the loop's and its results' sending. */
double sim_bound(const sim_config *c, double *need);

/* A run in steps, for a program that shows its progress or stops it:
 *
 *     sim *s = sim_open(&cfg, &rec, msg, sizeof msg);
 *     while ((rc = sim_iterate(s, 65536)) == 1)
 *         ... sim_status_get(s, &st): show it ...
 *     sim_close(s);                       (rc 0: rec is whole; -1: msg)
 *
 * sim_open sets the run up (NULL with msg); c, rec and msg are used until
 * sim_close. sim_iterate takes up to 'events' more events: 1 the run goes on,
 * 0 it ended (rec is complete), -1 it failed (msg says why). */
typedef struct sim sim;

typedef struct sim_status {
    long iterations;        /* the loop's */
    long done;              /* iterations whose results are in */
    long chunks;            /* handed out */
    long events;            /* taken */
    double t;               /* simulated seconds: the latest event's time */
    int decisions;          /* --scheme auto's so far (sim/select.h), and the */
    double decision_cpu;    /* CPU seconds they took (not simulated time) */
} sim_status;

sim *sim_open(const sim_config *c, record *rec, char *msg, size_t len);
int sim_iterate(sim *s, long events);
void sim_status_get(const sim *s, sim_status *st);
void sim_close(sim *s);

#endif
