/* poolrec.h: the record of an iterative master-worker run (Heymann et al.),
 * one CSV file, written alike by the PVM runtime (dtss_pool_write_record)
 * and the simulator (bin/pooltrace --csv), so the same scripts tabulate and
 * plot both (scripts/plot pool, scripts/reproduce-heymann). One record per
 * line, its kind first, a header line '#kind,field,...' before the first
 * record of each kind:
 *
 *   run        strategy, asp (adjust's reading; empty for static), delay
 *              (allocation delay, s; PVM with Slurm's allocations: their
 *              mean, measured), border (the master's update between
 *              iterations, s: the simulator's setting; PVM: the mean
 *              measured), scale (s per trace unit; PVM: 1), parts (tasks),
 *              iterations
 *   iteration  number, tasks, held (CurrentNworkers at its end),
 *              requested (Nworkers in force during it), pending (requests
 *              not served at its end), most (held at once during it),
 *              stable, begin, time (ItExecutionTime), efficiency, sum, max,
 *              min (of its task times), asp, rule, capped, next (Nworkers
 *              from then on) -- sched/pool/pool.h names each
 *   total      time, workers (on average), efficiency, time_per_efficiency,
 *              held (worker-seconds), useful (task seconds), peak (most
 *              workers at once), peak_iteration, requested, cancelled,
 *              released (workers, over the run)
 * and, from PVM runs only:
 *   field      key, value    (date, lost: workers lost, hosts_added: hosts
 *              the runtime added to the virtual machine; then the
 *              application's own: image, pixels...)
 *   worker     worker (1..), host, seen_host, tid, spawned, joined, left,
 *              why (released, lost, hung (--late), end, failed), tasks, busy (s computing)
 *   task       iteration, task, worker, sent, started, finished, received,
 *              seconds (its execution time: finished - started), tries
 *              (1: first try; more: its worker was lost and it ran again)
 * Times are seconds from the run's start (the first request for workers);
 * started and finished are the worker's clock, shifted by the same origin
 * (comparable when the hosts' clocks agree). An empty field: never
 * happened (a worker never joined, a task not received). Text fields never
 * hold a comma or a line break (replaced by '_').
 */
#ifndef POOLREC_H
#define POOLREC_H

#include <stdio.h>

#include "sched/pool/pool.h"

/* One iteration of a run, as the record has it. */
typedef struct pool_iter_rec {
    long number;            /* 1, 2, ... (the simulator: the trace's) */
    double begin;           /* seconds from the start */
    int most;               /* most workers held at once during it */
    int pending;            /* requests not yet served at its end */
    pool_decision d;        /* its numbers and Nworkers next */
    int tasks;
} pool_iter_rec;

typedef struct poolrec_run {
    const pool_type *type;
    pool_params params;
    double delay, border, scale;
    int parts;
    long iterations;
} poolrec_run;

typedef struct poolrec_counts {
    int peak;               /* most workers held at once */
    long peak_number;       /* the first iteration with that many */
    long requested, cancelled, released;
} poolrec_counts;

/* The run line, the iteration lines and the total line (with headers). */
void poolrec_write_run(FILE *f, const poolrec_run *r);
void poolrec_write_iterations(FILE *f, const pool_iter_rec *it, long n);
void poolrec_write_total(FILE *f, const pool_totals *t, const poolrec_counts *c);

/* A field line (its header before the first); key and value as text,
 * commas and line breaks made '_'. first: print the header. */
void poolrec_write_field(FILE *f, int first, const char *key, const char *value);

/* Text for a record: s with ',' and line breaks made '_' into buf. */
const char *poolrec_text(char *buf, size_t len, const char *s);

#endif
