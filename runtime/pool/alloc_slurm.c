/* alloc_slurm.c: the pool's workers' hosts from Slurm (alloc.h, "slurm";
 * docs/slurm.md, "The pool on Slurm"): Heymann et al.'s resource manager
 * (Euro-Par 2001, Sec. 3: Condor) as a real one.
 *  - a request is an allocation of one node: `sbatch --nodes=1 --ntasks=1`
 *    of a job that only sleeps (it holds the node; the worker itself is
 *    started by the transport, as with any host of the pool);
 *  - it is granted when squeue says RUNNING, on the node it names, which
 *    must be a free host of the pool (--hosts, or the virtual machine's;
 *    one that is not is given back, and asked for again); the delay from
 *    the request to the grant is Slurm's, measured (logged at -v 1, and
 *    summed up at the end);
 *  - the worker gone (released or lost), its allocation ends: scancel;
 *  - an allocation that ends on its own (its node set DOWN, a time limit,
 *    an scancel from outside) loses its worker: the master ends it and its
 *    task runs again elsewhere;
 *  - the run over, every allocation and request left is cancelled.
 * squeue is asked at most every 50 ms while a request is pending, every
 * second about the allocations held. The commands are run with their
 * arguments as arguments (posix_spawnp, no shell), with the environment's
 * SLURM_CONF. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/core/cmd.h"
#include "runtime/pool/pool.h"
#include "sched/util/parse.h"

#define LOOK_PENDING 0.05       /* s between squeue's looks while a request is pending */
#define LOOK_HELD 1.0           /* ... about the allocations held */
#define MAX_IDS 64              /* job ids in one squeue or scancel call */

/* scancel of ids[0..n-1] (errors logged: the end of an allocation that
 * ended already is no fault). */
static void cancel_ids(dtss_pool *p, const long *ids, int n)
{
    for (int at = 0; at < n; at += MAX_IDS) {
        char num[MAX_IDS][24], out[256], err[256];
        char *argv[MAX_IDS + 2] = {"scancel"};
        int k = 0;
        for (; k < MAX_IDS && at + k < n; k++) {
            snprintf(num[k], sizeof num[k], "%ld", ids[at + k]);
            argv[k + 1] = num[k];
        }
        argv[k + 1] = NULL;
        int rc = rt_cmd(argv, out, sizeof out, err, sizeof err);
        if (rc != 0)
            pool_log(p, 0, "scancel %s%s: %s", num[0], k > 1 ? " ..." : "",
                     err[0] ? err : "failed");
    }
}

/* Whether name is one of the comma-separated list's. */
static int listed(const char *list, const char *name)
{
    size_t n = strlen(name);
    for (const char *at = list; (at = strstr(at, name)) != NULL; at += n)
        if ((at == list || at[-1] == ',') && (at[n] == ',' || at[n] == '\0'))
            return 1;
    return 0;
}

/* Slurm's nodes that are not hosts of the pool, comma-separated into
 * p->ra.exclude (sinfo), so that Slurm grants only the pool's. */
static int exclude(dtss_pool *p)
{
    char *argv[] = {"sinfo", "--noheader", "--Node", "--format=%N", NULL};
    char out[16384], err[256];
    int rc = rt_cmd(argv, out, sizeof out, err, sizeof err);
    if (rc != 0)
        return pool_fail(p, DTSS_EPVM, "--allocator slurm: sinfo (exit %d): %s", rc,
                         err[0] ? err : "failed");
    size_t cap = strlen(out) + 1, at = 0;
    char *x = malloc(cap), *save = NULL;
    if (!x)
        return pool_fail(p, DTSS_ENOMEM, "out of memory");
    x[0] = '\0';
    int ours = 0;
    for (char *n = strtok_r(out, "\n", &save); n; n = strtok_r(NULL, "\n", &save)) {
        int in = 0;
        for (int s = 0; s < p->nslot && !in; s++)
            in = strcmp(p->slot[s].host, n) == 0;
        ours += in;
        if (!in && !listed(x, n))       /* (sinfo lists a node once a partition) */
            at += (size_t)snprintf(x + at, cap - at, "%s%s", at ? "," : "", n);
    }
    if (ours == 0) {
        free(x);
        return pool_fail(p, DTSS_EINVAL, "--allocator slurm: no host of the pool is a node "
                         "of Slurm (sinfo lists %s)", out[0] ? "others" : "none");
    }
    p->ra.exclude = x;
    return DTSS_OK;
}

/* A new allocation of one node, as pending request k (k == njob: a new one). */
static int ask(dtss_pool *p, int k, double t)
{
    pool_ralloc *r = &p->ra;
    if (k == r->njob && r->njob == r->capjob) {
        int c = r->capjob ? 2 * r->capjob : 16;
        long *j = realloc(r->job, sizeof *j * (size_t)c);
        if (j)
            r->job = j;
        double *a = j ? realloc(r->asked, sizeof *a * (size_t)c) : NULL;
        if (!a)
            return pool_fail(p, DTSS_ENOMEM, "out of memory for %d requests", c);
        r->asked = a;
        r->capjob = c;
    }
    int rc;
    if (!r->exclude && (rc = exclude(p)) != DTSS_OK)
        return rc;
    char *argv[] = {"sbatch", "--parsable", "--nodes=1", "--ntasks=1", "--job-name=dtss-pool",
                    "--output=/dev/null", "--no-requeue", "--wrap=exec sleep 2147483647",
                    NULL, NULL};
    char *ex = NULL;
    if (r->exclude[0]) {
        size_t n = strlen(r->exclude) + sizeof "--exclude=";
        if (!(ex = malloc(n)))
            return pool_fail(p, DTSS_ENOMEM, "out of memory");
        snprintf(ex, n, "--exclude=%s", r->exclude);
        argv[8] = ex;
    }
    char out[256], err[256];
    rc = rt_cmd(argv, out, sizeof out, err, sizeof err);
    free(ex);
    long id;
    out[strcspn(out, ";\n")] = '\0';
    if (rc != 0 || parse_long(out, &id) != 0 || id <= 0)
        return pool_fail(p, DTSS_EPVM, "--allocator slurm: sbatch could not ask for a node "
                         "(exit %d): %s", rc, err[0] ? err : out[0] ? out : "no job id");
    r->job[k] = id;
    r->asked[k] = t;
    if (k == r->njob)
        r->njob++;
    r->next_look = t;                   /* look at once: an idle node is granted at once */
    pool_log(p, 1, "t=%.2f asked Slurm for a node: job %ld", t, id);
    return DTSS_OK;
}

static int request(dtss_pool *p, double t)
{
    return ask(p, p->ra.njob, t);
}

static void cancel(dtss_pool *p)
{
    pool_ralloc *r = &p->ra;
    if (r->njob == 0)
        return;
    if (r->njob == 1)
        r->ready = 0;                   /* (the latest is job[0]) */
    cancel_ids(p, &r->job[--r->njob], 1);
    pool_log(p, 1, "cancelled the request of job %ld", r->job[r->njob]);
}

/* Asks squeue about ids[0..n-1]: state[k] is 'R' (running, its node in
 * node[k]), 'P' (pending or configuring), 'E' (ended, or unknown).
 * DTSS_OK, or an error (p's message set). */
static int look(dtss_pool *p, const long *ids, int n, char *state, char (*node)[64])
{
    for (int at = 0; at < n; at += MAX_IDS) {
        int m = n - at < MAX_IDS ? n - at : MAX_IDS;
        char list[MAX_IDS * 24] = "", out[MAX_IDS * 160], err[256];
        for (int k = 0; k < m; k++)
            snprintf(list + strlen(list), sizeof list - strlen(list), "%s%ld", k ? "," : "",
                     ids[at + k]);
        char *argv[] = {"squeue", "--noheader", "--states=all", "--jobs", list,
                        "--format=%i %T %N", NULL};
        int rc = rt_cmd(argv, out, sizeof out, err, sizeof err);
        for (int k = 0; k < m; k++) {
            state[at + k] = 'E';
            node[at + k][0] = '\0';
        }
        if (rc != 0 && !strstr(err, "Invalid job id"))
            return pool_fail(p, DTSS_EPVM, "--allocator slurm: squeue (exit %d): %s", rc,
                             err[0] ? err : "failed");
        char *save = NULL;
        for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
            long id;
            char st[32], nd[64] = "";
            if (sscanf(line, "%ld %31s %63s", &id, st, nd) < 2)
                continue;
            for (int k = 0; k < m; k++)
                if (ids[at + k] == id) {
                    state[at + k] = !strcmp(st, "RUNNING") ? 'R' :
                                    !strcmp(st, "PENDING") || !strcmp(st, "CONFIGURING") ? 'P' : 'E';
                    snprintf(node[at + k], sizeof node[at + k], "%s", nd);
                }
        }
    }
    return DTSS_OK;
}

/* An error of p (its message set): code kept, -2. */
static int failed(dtss_pool *p, int code)
{
    p->ra.code = code;
    return -2;
}

/* The free slot on host h, -1 none. */
static int slot_on(const dtss_pool *p, const char *h)
{
    for (int s = 0; s < p->nslot; s++)
        if (!p->slot[s].used && !p->slot[s].dead && p->slot[s].alloc == 0 &&
            strcmp(p->slot[s].host, h) == 0)
            return s;
    return -1;
}

static int granted(dtss_pool *p, double t, double *wait)
{
    pool_ralloc *r = &p->ra;
    *wait = -1;
    if (r->njob == 0)
        return -1;
    if (r->ready)
        return r->ready - 1;            /* found by an earlier call, not yet taken */
    if (t < r->next_look) {
        *wait = r->next_look - t;
        return -1;
    }
    r->next_look = t + LOOK_PENDING;
    *wait = LOOK_PENDING;
    char *state = malloc((size_t)r->njob);
    char (*node)[64] = malloc(sizeof *node * (size_t)r->njob);
    if (!state || !node) {
        free(state);
        free(node);
        return failed(p, pool_fail(p, DTSS_ENOMEM, "out of memory"));
    }
    int got = -1, rc = look(p, r->job, r->njob, state, node);
    if (rc != DTSS_OK)
        got = failed(p, rc);
    for (int k = 0; got == -1 && k < r->njob; k++) {
        if (state[k] == 'P')
            continue;
        if (state[k] == 'R' && (got = slot_on(p, node[k])) >= 0) {
            /* The first granted request goes first (took takes it). */
            long j = r->job[k];
            double a = r->asked[k];
            memmove(r->job + 1, r->job, sizeof *r->job * (size_t)k);
            memmove(r->asked + 1, r->asked, sizeof *r->asked * (size_t)k);
            r->job[0] = j;
            r->asked[0] = a;
            double d = t - a;
            r->granted++;
            r->delay_sum += d;
            if (d > r->delay_max)
                r->delay_max = d;
            pool_log(p, 1, "t=%.2f Slurm granted %s (job %ld) %.3f s after the request", t,
                     node[k], j, d);
            r->ready = got + 1;
            break;
        }
        /* Ended before it was granted, or on a node the pool cannot use:
         * given back, and asked for again. */
        if (state[k] == 'R') {
            pool_log(p, 0, "Slurm granted %s (job %ld), not a free host of the pool: "
                           "given back", node[k], r->job[k]);
            cancel_ids(p, &r->job[k], 1);
        } else
            pool_log(p, 0, "the request of job %ld ended before it was granted", r->job[k]);
        rc = ask(p, k, t);
        got = rc == DTSS_OK ? -1 : failed(p, rc);
    }
    free(state);
    free(node);
    return got;
}

static int took(dtss_pool *p, int s, int ok)
{
    pool_ralloc *r = &p->ra;
    long j = r->job[0];
    r->ready = 0;
    if (ok) {
        p->slot[s].alloc = j;
        memmove(r->job, r->job + 1, sizeof *r->job * (size_t)--r->njob);
        memmove(r->asked, r->asked + 1, sizeof *r->asked * (size_t)r->njob);
        if (r->next_held == 0)
            r->next_held = r->next_look + LOOK_HELD;
        return 1;
    }
    cancel_ids(p, &j, 1);               /* its node is no use: ask for another */
    memmove(r->job, r->job + 1, sizeof *r->job * (size_t)--r->njob);
    memmove(r->asked, r->asked + 1, sizeof *r->asked * (size_t)r->njob);
    return ask(p, r->njob, r->next_look) == DTSS_OK ? 0 : 1;   /* (a failed ask: logged) */
}

static int due(const dtss_pool *p, double t)
{
    (void)p;
    (void)t;
    return 0;                           /* Slurm picks the node: none waits for one */
}

static void release(dtss_pool *p, int s)
{
    if (p->slot[s].alloc == 0)
        return;
    cancel_ids(p, &p->slot[s].alloc, 1);
    pool_log(p, 1, "ended the allocation of %s (job %ld)", p->slot[s].host, p->slot[s].alloc);
    p->slot[s].alloc = 0;
}

static int ended(dtss_pool *p, double t, double *wait)
{
    pool_ralloc *r = &p->ra;
    int n = 0;
    *wait = -1;
    for (int s = 0; s < p->nslot; s++)
        n += p->slot[s].alloc != 0;
    if (n == 0)
        return -1;
    if (t < r->next_held) {
        *wait = r->next_held - t;
        return -1;
    }
    r->next_held = t + LOOK_HELD;
    *wait = LOOK_HELD;
    long *ids = malloc(sizeof *ids * (size_t)n);
    int *of = malloc(sizeof *of * (size_t)n);
    char *state = malloc((size_t)n);
    char (*node)[64] = malloc(sizeof *node * (size_t)n);
    int out = -1;
    if (ids && of && state && node) {
        int k = 0;
        for (int s = 0; s < p->nslot; s++)
            if (p->slot[s].alloc != 0) {
                of[k] = s;
                ids[k++] = p->slot[s].alloc;
            }
        int rc = look(p, ids, n, state, node);
        if (rc != DTSS_OK)
            out = failed(p, rc);
        for (k = 0; out == -1 && k < n; k++)
            if (state[k] != 'R') {
                out = of[k];
                pool_log(p, 0, "t=%.2f the allocation of %s (job %ld) ended: its worker is "
                               "lost", t, p->slot[out].host, ids[k]);
                p->slot[out].alloc = 0;
                r->next_held = t;       /* others may have ended too */
            }
    } else
        out = failed(p, pool_fail(p, DTSS_ENOMEM, "out of memory"));
    free(ids);
    free(of);
    free(state);
    free(node);
    return out;
}

static void close_(dtss_pool *p)
{
    pool_ralloc *r = &p->ra;
    int n = r->njob;
    for (int s = 0; s < p->nslot; s++)
        n += p->slot[s].alloc != 0;
    long *ids = n ? malloc(sizeof *ids * (size_t)n) : NULL;
    if (ids) {
        int k = 0;
        for (int j = 0; j < r->njob; j++)
            ids[k++] = r->job[j];
        for (int s = 0; s < p->nslot; s++)
            if (p->slot[s].alloc != 0) {
                ids[k++] = p->slot[s].alloc;
                p->slot[s].alloc = 0;
            }
        cancel_ids(p, ids, k);
        free(ids);
    }
    if (r->granted && !r->said)         /* once: the run's end, then dtss_pool_free */
        pool_log(p, 1, "Slurm granted %ld allocation%s, %.3f s after the request on average "
                       "(at most %.3f s)", r->granted, r->granted == 1 ? "" : "s",
                 r->delay_sum / (double)r->granted, r->delay_max);
    r->said = r->granted > 0;
    r->njob = 0;
    r->ready = 0;
    free(r->job);
    free(r->asked);
    free(r->exclude);
    r->job = NULL;
    r->asked = NULL;
    r->exclude = NULL;
    r->capjob = 0;
}

const pool_alloc_type pool_alloc_slurm = {
    .name = "slurm",
    .request = request,
    .cancel = cancel,
    .granted = granted,
    .took = took,
    .due = due,
    .release = release,
    .ended = ended,
    .close = close_,
};
