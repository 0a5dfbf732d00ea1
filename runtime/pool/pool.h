/* pool.h (runtime/): what the pool master's files share (not installed).
 *
 *   pool_master.c   the run: start, requests made and served (by the
 *                   allocator), spawning, joins, the iteration's tasks handed
 *                   out in the strategy's order, results, losses, releases
 *   alloc*.c        the allocators (alloc.h): where the workers' hosts come
 *                   from (a modelled delay, or Slurm)
 *   pool_options.c  dtss_pool_set / args / usage: the options
 *   journal.c       the journal of accepted results, and resuming from it
 *   pool_record.c   the figures, the summary and the run record
 *   pool_worker.c   the worker's side
 *
 * Every decision is sched/pool/pool.h's: Nworkers (pool_iteration_end,
 * pool_task_converged), carrying it out (pool_carry_out), the allocation
 * delay (pool_arrival), the hand-out order (pool_order), held and useful
 * time (pool_meter_*). This file only carries them out on PVM.
 */
#ifndef RUNTIME_POOL_H
#define RUNTIME_POOL_H

#include <stdio.h>

#include "runtime/dtss.h"
#include "runtime/core/handle.h"
#include "runtime/core/jnl.h"
#include "runtime/core/place.h"
#include "runtime/core/wire.h"
#include "runtime/pool/alloc.h"
#include "sched/late/late.h"
#include "sched/pool/pool.h"
#include "sched/records/poolrec.h"

/* A place for a worker: a host of the pool, one worker at a time. */
typedef struct pslot {
    char *host;
    int used;               /* a worker is on it (until its exit is noticed) */
    int dead;               /* its host left, or a spawn on it failed */
    int absent;             /* not in the virtual machine: added when needed */
    int added;              /* the runtime added it (and deletes it when free) */
    long alloc;             /* slurm: the job that holds its node (0: none) */
} pslot;

/* PW_HUNG: taken for hung (--late): not held, its task run again elsewhere;
 * a result from it later makes it idle again (the result counts if first). */
enum { PW_STARTING, PW_IDLE, PW_BUSY, PW_LEAVING, PW_GONE, PW_HUNG };

typedef struct pworker {
    int tid, slot, state;
    int task;               /* its task (an index into the iteration's), -1 */
    int iter;               /* the iteration of that task */
    double sent;            /* when the task went out */
    late_rate rate;         /* its tasks over their seconds (sched/late/late.h) */
    int ended;              /* hung, and killed for its host (its exit to come) */
    char *seen_host;        /* the host's own name, from READY */
    double spawned, joined, left;   /* NAN: not (yet) */
    const char *why;        /* how it left: released, lost, end */
    int tasks;
    double busy;            /* seconds computing tasks */
} pworker;

enum { PT_QUEUED, PT_OUT, PT_DONE };

typedef struct ptask {
    int task;
    unsigned char *payload;
    size_t len;
    int state, worker, tries;
    double seconds;         /* the execution time of the run that counted */
    uint64_t hash;          /* FNV-1a 64 of the payload (the journal's key) */
    long jentry;            /* its result in the resumed journal: an index
                               into pool_journal.e; -1: to compute */
} ptask;

/* A result of the resumed journal (journal.c), as scanned. */
typedef struct pjentry {
    int iteration, task;
    uint64_t hash;          /* of the task's payload */
    double seconds;         /* its execution time in the run that journaled it */
    long at;                /* where its entry begins in the file */
    long number;            /* 1, 2, ... after the header */
} pjentry;

/* The run's journal (--journal FILE / --resume FILE). */
typedef struct pool_journal {
    char *path;             /* NULL: none */
    int resume;             /* --resume: continue path */
    jnl_w w;                /* appending (w.f NULL: none, or it failed) */
    pjentry *e;             /* the resumed journal's results, by (iteration, task) */
    long ne;
    FILE *in;               /* the resumed journal, its results read back */
    long good_end, torn;    /* where its last whole entry ends; bytes after */
    int last_iteration;     /* the highest iteration it holds (0: none) */
    long served;            /* results handed out from it */
    long written;           /* entries this run appended */
} pool_journal;

/* A task done, for the record. */
typedef struct ptask_rec {
    int iteration, task, worker, tries;
    double sent, started, finished, received, seconds;
} ptask_rec;

enum { P_NEW, P_READY, P_OPEN, P_RUNNING, P_ENDED, P_FINISHED, P_FAILED };

struct dtss_pool {
    rt_handle h;            /* first: errors, log, the job */
    /* options */
    const pool_type *type;
    pool_params par;
    const pool_alloc_type *alloc;   /* --allocator */
    double delay;                   /* --delay (the delay allocator's) */
    late_rule late;         /* --late */
    late_watch lw;          /* when to look for late tasks: the queue read */
    rt_place place;         /* --hosts, --local, --worker */
    /* the run */
    int state;
    int ntasks;
    pool *pl;
    pool_meter meter;
    int target;             /* Nworkers now */
    double t0, wall0;       /* the start: monotonic and wall clocks */
    pslot *slot;
    int nslot;
    pworker *w;
    int nw, capw;
    int nreq;               /* pending requests */
    pool_ralloc ra;         /* the allocator's own */
    char spawn_err[512];    /* the last failed spawn */
    long hosts_added;       /* pvm_addhosts that succeeded */
    /* the iteration */
    int iteration;
    ptask *tk;
    int ntk, captk;
    int *queue;             /* indexes into tk, to hand out from qhead on */
    int qhead, qlen, capq;
    int ndone, most;
    double begin, last_end, border;
    int *st_task;           /* the ended iteration's numbers and times */
    double *st_time;
    pool_iter_stats st;
    /* the record */
    pool_iter_rec *it;
    int nit, capit;
    ptask_rec *tr;
    int ntr, captr;
    char **fkey, **fval;
    int nf;
    poolrec_counts counts;
    long lost;
    long hung;              /* workers taken for hung */
    late_rate rate;         /* every task's: the run's rate */
    double done_secs;       /* every task's seconds out, and how many */
    long done_n;
    char date[32];
    /* the journal */
    pool_journal jn;
    int *jq;                /* the iteration's journaled tasks (indexes into
                               tk), handed out first, from jhead on */
    int njq, jhead, capjq;
    /* the result in hand */
    wire_task cur;
    int cur_worker;
    double cur_seconds;
};

/* pool_master.c */
#define pool_fail(p, ...) rt_fail(&(p)->h, __VA_ARGS__)
#define pool_log(p, ...) rt_log(&(p)->h, __VA_ARGS__)
/* master.c: a free slot of the pool (its first), -1 none. */
int pool_free_slot(const dtss_pool *p);
/* options.c: -1 not an option of the pool, 0 a flag, 1 takes a value. */
int pool_opt(const char *name);

/* journal.c (docs/runtime.md, "Resuming" under the pool). Each int one
 * returns DTSS_OK or an error (p's message set). */
/* At dtss_pool_start, before PVM: --resume reads the journal through (its
 * header against the job and ntasks, its entries). */
int pool_journal_scan(dtss_pool *p);
/* Then, once in PVM with the pool's hosts: --journal creates the journal;
 * --resume opens the scanned one to read its results back and to append
 * (a torn tail cut). */
int pool_journal_open(dtss_pool *p);
/* The resumed journal's result of task 'task' in iteration 'iteration'
 * (an index into p->jn.e), -1 when it holds none. */
long pool_journal_find(const dtss_pool *p, int iteration, int task);
/* Reads result k's bytes back (malloc'd into *data, *len). */
int pool_journal_read(dtss_pool *p, long k, unsigned char **data, size_t *len);
/* Appends an accepted result (a no-op without a journal; a write that fails
 * is logged and ends the journal, not the run). */
void pool_journal_result(dtss_pool *p, int iteration, int task, uint64_t hash,
                         double seconds, const void *data, size_t len);
/* Closes the journal (fsync'd) and frees what was read. */
void pool_journal_free(dtss_pool *p);

#endif
