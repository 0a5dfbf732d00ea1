/* alloc.h (runtime/pool/): where the pool's workers' hosts come from — the
 * resource manager of Heymann, Senar, Luque & Livny (Euro-Par 2001, Sec. 3:
 * Condor): a request for one worker, granted later on some host, released
 * when the worker goes. Two, looked up by name (--allocator):
 *
 *   alloc_delay.c   delay (the default): a modelled manager serving the
 *                   requests one at a time, --delay seconds each
 *                   (sched/pool/pool.h, pool_arrival), onto the free hosts
 *                   of the pool (--hosts, or the virtual machine's)
 *   alloc_slurm.c   slurm: a Slurm allocation of one node per request
 *                   (sbatch), granted when Slurm starts it, ended (scancel)
 *                   when its worker goes; an allocation that ends on its own
 *                   (its node DOWN, a time limit) loses its worker
 *
 * The master (master.c) keeps the count of pending requests (p->nreq) and
 * the slots; an allocator keeps what it needs besides, in p->ra.
 */
#ifndef RUNTIME_POOL_ALLOC_H
#define RUNTIME_POOL_ALLOC_H

#include <stddef.h>

typedef struct dtss_pool dtss_pool;

typedef struct pool_alloc_type {
    const char *name;
    /* One worker asked for, at t seconds since the start. DTSS_OK or an
     * error (p's message set). */
    int (*request)(dtss_pool *p, double t);
    /* The latest pending request withdrawn. */
    void (*cancel)(dtss_pool *p);
    /* A request granted by t: the slot of its host (free), or -1 when none
     * is yet; then *wait: seconds until it is worth asking again (-1: only
     * a message can change it). -2: an error (p's message set, its code in
     * p->ra.code). The
     * request stays pending until took. */
    int (*granted)(dtss_pool *p, double t, double *wait);
    /* The master's worker on granted slot s started (ok) or could not be
     * started there (the slot is dead). 1: the request is served (no longer
     * pending), 0: it is still pending. */
    int (*took)(dtss_pool *p, int s, int ok);
    /* A request has arrived that waits only for a free host (the master may
     * end a worker taken for hung to free its host). */
    int (*due)(const dtss_pool *p, double t);
    /* Slot s's worker is gone: its allocation ends. */
    void (*release)(dtss_pool *p, int s);
    /* A slot whose allocation ended on its own (its worker to be taken for
     * lost), -1 none; *wait as for granted. */
    int (*ended)(dtss_pool *p, double t, double *wait);
    /* The run is over: every allocation ends, every request is withdrawn. */
    void (*close)(dtss_pool *p);
} pool_alloc_type;

extern const pool_alloc_type pool_alloc_delay, pool_alloc_slurm;

/* The allocator named name, or NULL. */
const pool_alloc_type *pool_alloc_find(const char *name);

/* The allocators' state (dtss_pool's member ra). */
typedef struct pool_ralloc {
    double *due;            /* delay: the pending requests' arrival times */
    int ndue, capdue;
    long *job;              /* slurm: the pending requests' job ids, in order */
    double *asked;          /* ... and when each was made */
    int njob, capjob;
    char *exclude;          /* slurm: Slurm's nodes that are not the pool's
                               hosts (sbatch --exclude), "" none; NULL: not
                               yet asked (sinfo) */
    int ready;              /* slurm: the slot of job[0], granted and not yet
                               taken, plus 1 (0: none) */
    double next_look;       /* slurm: when squeue is asked next */
    double next_held;       /* ... about the held allocations */
    int code;               /* the error of a call that returned -2 */
    long granted;           /* slurm: allocations granted, and their delays */
    double delay_sum, delay_max;
    int said;               /* slurm: their mean logged (close) */
} pool_ralloc;

#endif
