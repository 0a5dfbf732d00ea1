/* pool_master.c: an iterative master-worker run whose pool of workers grows
 * and shrinks (dtss.h, "an iterative run on a pool"), on PVM.
 *
 * Heymann, Senar, Luque & Livny, Euro-Par 2001, Figure 3.1 and Sec. 3.1,
 * carried out as sched/pool/pool.h says ("Carrying out Nworkers"):
 *  - the strategy's Nworkers is a target: pool_carry_out says how many
 *    pending requests to cancel (the latest first), idle workers to release
 *    and requests to make; a busy worker owed a release goes when its
 *    result is in, before it could get another task;
 *  - a request is served after the allocation delay (pool_arrival: one
 *    worker at a time, 'delay' seconds each): the master spawns the worker
 *    on a free host of the pool (tr_spawn); the worker's first message,
 *    READY, makes it held (pool_meter_join) and the master answers with
 *    the job; it is held until it is released (STOP, pool_meter_leave) or
 *    lost. (The master never sends first to a worker that may still be
 *    starting: a direct route's set-up would wait for it.)
 *  - an iteration's tasks go out in pool_order's order (decreasing average
 *    time), one to each idle worker, the lowest-numbered idle worker first;
 *    a lost worker's task goes back to the head of the queue and runs
 *    again (only the result of the run that completes counts);
 *  - the iteration ends when its last result is in (pool_meter_end); the
 *    application's update follows, then dtss_pool_end_iteration asks the
 *    strategy for Nworkers (pool_iteration_end).
 * Times are seconds from dtss_pool_start on the monotonic clock; the
 * workers' own times (started, finished) are their wall clocks, shifted by
 * the wall clock at the start.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


#include "runtime/core/join.h"
#include "runtime/pool/pool.h"
#include "sched/util/fnv.h"
#include "sched/util/quote.h"

#define POOL_EXIT_WAIT 10.0     /* s the end waits for released workers to exit */
#define POOL_MAX_TRIES 10       /* a task whose worker is lost this often ends the run */

/* Seconds since the start. */
static double now(const dtss_pool *p)
{
    return wire_mono() - p->t0;
}

/* Grows *a (elements of size sz, *cap of them) to hold n. */
static int grow(void *a, int *cap, int n, size_t sz)
{
    if (n <= *cap)
        return 0;
    int c = *cap ? *cap : 16;
    while (c < n)
        c *= 2;
    void *b = realloc(*(void **)a, sz * (size_t)c);
    if (!b)
        return -1;
    *(void **)a = b;
    *cap = c;
    return 0;
}

static int count(const dtss_pool *p, int state)
{
    int n = 0;
    for (int i = 0; i < p->nw; i++)
        n += p->w[i].state == state;
    return n;
}

static int held(const dtss_pool *p)
{
    return count(p, PW_IDLE) + count(p, PW_BUSY);
}

static int meter(dtss_pool *p, int rc, const sched_err *err)
{
    return rc == SCHED_OK ? DTSS_OK : pool_fail(p, DTSS_EINVAL, "pool meter: %s", err->msg);
}

/* ---- the pool's hosts and workers ------------------------------------------ */

static int carry_out(dtss_pool *p);

int dtss_pool_start(dtss_pool *p, int ntasks)
{
    sched_err err;
    char msg[512];
    if (p->state != P_NEW)
        return pool_fail(p, DTSS_EMISUSE, "dtss_pool_start: called twice");
    if (ntasks < 1 || ntasks > POOL_MAX_TASKS)
        return pool_fail(p, DTSS_EINVAL, "dtss_pool_start: %d tasks (1 .. %d)", ntasks,
                         POOL_MAX_TASKS);
    p->state = P_FAILED;                /* until it succeeds */
    p->h.live = 1;                      /* the job is sent from here on */
    p->ntasks = ntasks;
    if (!(p->pl = pool_new(p->type, ntasks, &p->par, &err)))
        return pool_fail(p, err.code == SCHED_ENOMEM ? DTSS_ENOMEM : DTSS_EINVAL, "%s",
                         err.msg);
    int rc = pool_journal_scan(p);      /* (a resumed one read through: before PVM) */
    if (rc != DTSS_OK)
        return rc;
    if (runtime_join(msg, sizeof msg) < 0)
        return pool_fail(p, DTSS_EPVM, "%s", msg);
    p->h.joined = 1;
    runtime_vm v = {0};
    int *pick;
    int n = runtime_hosts(&p->place, RT_HOSTS_ABSENT, &v, &pick, WIRE_MAX_WORKERS, msg, sizeof msg);
    if (n < 0)
        return pool_fail(p, -n, "%s", msg);
    p->slot = calloc((size_t)n, sizeof *p->slot);
    if (!p->slot) {
        free(pick);
        return pool_fail(p, DTSS_ENOMEM, "out of memory for %d hosts", n);
    }
    /* A host of --hosts not in the virtual machine (pick -1) is added when a
     * worker is to run on it, and deleted when it is free again. */
    char *names = p->place.hosts ? strdup(p->place.hosts) : NULL, *save = NULL;
    const char *name = names ? strtok_r(names, ",", &save) : NULL;
    for (int i = 0; i < n; i++, name = name ? strtok_r(NULL, ",", &save) : NULL) {
        pslot *sl = &p->slot[p->nslot++];
        sl->absent = pick[i] < 0;
        if (!(sl->host = strdup(pick[i] >= 0 ? v.hi[pick[i]].name : name ? name : ""))) {
            free(names);
            free(pick);
            return pool_fail(p, DTSS_ENOMEM, "out of memory for %d hosts", n);
        }
    }
    free(names);
    free(pick);
    /* Notices of the pool's hosts that leave. */
    int *dtids = malloc(sizeof *dtids * (size_t)v.nhost), nd = 0;
    if (!dtids)
        return pool_fail(p, DTSS_ENOMEM, "out of memory");
    for (int i = 0; i < v.nhost; i++)
        if (i != v.me)
            dtids[nd++] = v.hi[i].id;
    rc = tr_watch_hosts(dtids, nd, msg, sizeof msg);
    free(dtids);
    if (rc < 0)
        return pool_fail(p, DTSS_EPVM, "%s", msg);
    if ((rc = pool_journal_open(p)) != DTSS_OK)
        return rc;
    time_t t = time(NULL);
    strftime(p->date, sizeof p->date, "%Y-%m-%dT%H:%M:%S", localtime(&t));
    p->t0 = wire_mono();
    p->wall0 = wire_now();
    pool_meter_init(&p->meter, 0);
    p->target = pool_workers(p->pl);
    p->state = P_READY;
    char how[64];
    if (p->alloc == &pool_alloc_delay)
        snprintf(how, sizeof how, "allocation delay %g s", p->delay);
    else
        snprintf(how, sizeof how, "hosts from %s", p->alloc->name);
    pool_log(p, 1, "%s pool of %d host%s, %d tasks, %s: requesting %d workers",
             p->type->name, p->nslot, p->nslot == 1 ? "" : "s", ntasks, how, p->target);
    return carry_out(p);
}

/* Releases worker i (it was idle): STOP; it is held no more. */
static int release(dtss_pool *p, int i)
{
    sched_err err;
    pworker *w = &p->w[i];
    char msg[256];
    double t = now(p);
    if (wire_send_stop(w->tid, msg, sizeof msg) < 0)
        pool_log(p, 0, "worker %d: %s (released anyway)", i + 1, msg);
    w->state = PW_LEAVING;
    w->left = t;
    w->why = "released";
    p->counts.released++;
    pool_log(p, 1, "t=%.2f released worker %d (%s)", t, i + 1, p->slot[w->slot].host);
    return meter(p, pool_meter_leave(&p->meter, t, &err), &err);
}

/* Carries out Nworkers = p->target now (sched/pool/pool.h, "Carrying out"). */
static int carry_out(dtss_pool *p)
{
    pool_moves mv;
    double t = now(p);
    int h = held(p) + count(p, PW_STARTING);
    pool_carry_out(p->target, h, count(p, PW_IDLE), p->nreq, &mv);
    for (int k = 0; k < mv.cancel; k++)
        p->alloc->cancel(p);
    p->nreq -= mv.cancel;
    p->counts.cancelled += mv.cancel;
    if (mv.cancel)
        pool_log(p, 1, "t=%.2f cancelled %d request%s", t, mv.cancel,
                 mv.cancel == 1 ? "" : "s");
    for (int i = p->nw - 1, k = 0; i >= 0 && k < mv.release; i--)
        if (p->w[i].state == PW_IDLE) {
            int rc = release(p, i);
            if (rc != DTSS_OK)
                return rc;
            k++;
        }
    for (int k = 0; k < mv.request; k++) {
        int rc = p->alloc->request(p, t);
        if (rc != DTSS_OK)
            return rc;
        p->nreq++;
        p->counts.requested++;
    }
    if (mv.request)
        pool_log(p, 1, "t=%.2f requested %d worker%s (%d pending)", t, mv.request,
                 mv.request == 1 ? "" : "s", p->nreq);
    return DTSS_OK;
}

int pool_free_slot(const dtss_pool *p)
{
    for (int s = 0; s < p->nslot; s++)
        if (!p->slot[s].used && !p->slot[s].dead)
            return s;
    return -1;
}

/* Adds slot s's host to the run (tr_add_host; PVM: pvm_addhosts starts a
 * pvmd there, through the hostfile's or PVM_RSH's way in). 0, or -1 with the
 * slot left out of the pool. */
static int add_host(dtss_pool *p, int s)
{
    char *name = p->slot[s].host;
    int info = 0;
    double t = now(p);
    if (!(tr_caps() & TR_CAN_ADD_HOSTS)) {
        snprintf(p->spawn_err, sizeof p->spawn_err, "--hosts names %.64s, not in the run: "
                 "the %s transport cannot add hosts", name, tr_name());
        pool_log(p, 0, "%s: the host is left out of the pool", p->spawn_err);
        p->slot[s].dead = 1;
        return -1;
    }
    if (tr_add_host(name, &info, p->spawn_err, sizeof p->spawn_err) < 0) {
        pool_log(p, 0, "%s: the host is left out of the pool", p->spawn_err);
        p->slot[s].dead = 1;
        return -1;
    }
    for (int k = 0; k < p->nslot; k++)
        if (strcmp(p->slot[k].host, name) == 0)
            p->slot[k].absent = 0;
    p->slot[s].added = 1;
    p->hosts_added++;
    pool_log(p, 1, "t=%.2f added host %s to the virtual machine (pvm_addhosts took %.3f s)",
             now(p), name, now(p) - t);
    return 0;
}

/* Slot s is free again; a host the runtime added, with no worker left on
 * it, is deleted from the virtual machine. */
static void slot_free(dtss_pool *p, int s)
{
    p->slot[s].used = 0;
    if (!p->slot[s].added) {
        p->alloc->release(p, s);
        return;
    }
    for (int k = 0; k < p->nslot; k++)
        if (p->slot[k].used && strcmp(p->slot[k].host, p->slot[s].host) == 0) {
            p->alloc->release(p, s);
            return;
        }
    char *name = p->slot[s].host, msg[320];
    int rc = tr_del_host(name, msg, sizeof msg);
    p->slot[s].added = 0;
    for (int k = 0; k < p->nslot; k++)
        if (strcmp(p->slot[k].host, name) == 0)
            p->slot[k].absent = 1;
    if (rc < 0)
        pool_log(p, 0, "%s", msg);
    else
        pool_log(p, 1, "t=%.2f deleted host %s from the virtual machine", now(p), name);
    p->alloc->release(p, s);
}

/* Serves the requests that have arrived while a host is free: spawns a
 * worker for each and sends it the job. */
static int serve_requests(dtss_pool *p)
{
    int s = -1;
    double wait;
    if (p->nreq > 0 && p->alloc->due(p, now(p)) && pool_free_slot(p) < 0)
        for (int i = 0; i < p->nw; i++)
            if (p->w[i].state == PW_HUNG && !p->w[i].ended) {
                pool_log(p, 0, "t=%.2f worker %d (taken for hung) ended: its host is wanted",
                         now(p), i + 1);
                tr_kill(p->w[i].tid);   /* its exit frees the host (gone) */
                p->w[i].ended = 1;
                break;
            }
    while (p->nreq > 0 && (s = p->alloc->granted(p, now(p), &wait)) >= 0) {
        if (p->slot[s].absent && add_host(p, s) != 0) {
            if (p->alloc->took(p, s, 0))
                p->nreq--;
            continue;
        }
        double t_call = now(p);
        const char *host = p->slot[s].host;
        tr_peer tid;
        int rc = runtime_spawn(p->place.worker_path, &host, 1, 0, &tid, p->spawn_err,
                               sizeof p->spawn_err);
        if (rc == -DTSS_ENOMEM)
            return pool_fail(p, DTSS_ENOMEM, "%s", p->spawn_err);
        if (rc == -DTSS_ENOENT)
            return pool_fail(p, DTSS_EPVM, "%s", p->spawn_err);
        if (rc < 0) {
            pool_log(p, 0, "%s: the host is left out of the pool", p->spawn_err);
            p->slot[s].dead = 1;
            if (p->alloc->took(p, s, 0))
                p->nreq--;
            continue;
        }
        if (grow(&p->w, &p->capw, p->nw + 1, sizeof *p->w) != 0) {
            tr_kill(tid);
            return pool_fail(p, DTSS_ENOMEM, "out of memory for %d workers", p->nw + 1);
        }
        if (p->alloc->took(p, s, 1))
            p->nreq--;
        int i = p->nw++;
        p->w[i] = (pworker){.tid = tid, .slot = s, .state = PW_STARTING, .task = -1,
                            .spawned = now(p), .joined = NAN, .left = NAN};
        p->slot[s].used = 1;
        pool_log(p, 1, "t=%.2f spawned worker %d on %s (its spawn took %.3f s)",
                 p->w[i].spawned, i + 1, p->slot[s].host, p->w[i].spawned - t_call);
    }
    return s == -2 ? p->ra.code : DTSS_OK;
}

/* ---- the iteration ----------------------------------------------------------- */

int dtss_pool_task(dtss_pool *p, int task, const void *payload, size_t len)
{
    if (p->state != P_READY && p->state != P_OPEN)
        return pool_fail(p, DTSS_EMISUSE, "dtss_pool_task: %s", p->state == P_NEW ?
                         "before dtss_pool_start" : p->state == P_ENDED ?
                         "the iteration has ended: call dtss_pool_end_iteration first" :
                         "not now (the iteration runs, or the run is over)");
    if (task < 0 || task >= p->ntasks)
        return pool_fail(p, DTSS_EINVAL, "task %d: the run has tasks 0 .. %d", task,
                         p->ntasks - 1);
    if (len > (size_t)WIRE_MAX_RESULT)
        return pool_fail(p, DTSS_EINVAL, "task %d: a payload of %zu bytes (at most %ld)",
                         task, len, WIRE_MAX_RESULT);
    for (int k = 0; k < p->ntk; k++)
        if (p->tk[k].task == task)
            return pool_fail(p, DTSS_EINVAL, "task %d added twice to iteration %d", task,
                             p->iteration + 1);
    uint64_t hash = p->jn.path ? fnv1a(FNV1A_BASIS, payload, len) : 0;   /* (journal's key) */
    long je = p->jn.resume ? pool_journal_find(p, p->iteration + 1, task) : -1;
    if (je >= 0 && p->jn.e[je].hash != hash)
        return pool_fail(p, DTSS_EINVAL, "--resume %s: iteration %d, task %d: its payload "
                         "is not the journal's (FNV-1a %016llx, the journal's %016llx, "
                         "entry %ld): another run's journal", quote(p->jn.path),
                         p->iteration + 1, task, (unsigned long long)hash,
                         (unsigned long long)p->jn.e[je].hash, p->jn.e[je].number);
    if (grow(&p->tk, &p->captk, p->ntk + 1, sizeof *p->tk) != 0)
        return pool_fail(p, DTSS_ENOMEM, "out of memory for %d tasks", p->ntk + 1);
    unsigned char *copy = malloc(len ? len : 1);
    if (!copy)
        return pool_fail(p, DTSS_ENOMEM, "out of memory for a payload of %zu bytes", len);
    if (len)
        memcpy(copy, payload, len);
    p->tk[p->ntk++] = (ptask){.task = task, .payload = copy, .len = len,
                              .state = PT_QUEUED, .worker = -1, .hash = hash, .jentry = je};
    p->state = P_OPEN;
    return DTSS_OK;
}

/* The iteration begins: its hand-out order, the meter. */
static int begin(dtss_pool *p)
{
    sched_err err;
    int *num = malloc(sizeof *num * (size_t)p->ntk);
    if (!num || grow(&p->queue, &p->capq, p->ntk, sizeof *p->queue) != 0 ||
        grow(&p->jq, &p->capjq, p->ntk, sizeof *p->jq) != 0) {
        free(num);
        return pool_fail(p, DTSS_ENOMEM, "out of memory for %d tasks", p->ntk);
    }
    for (int k = 0; k < p->ntk; k++)
        num[k] = p->tk[k].task;
    if (pool_order(p->pl, num, p->ntk, &err) != SCHED_OK) {
        free(num);
        return pool_fail(p, DTSS_EINVAL, "%s", err.msg);
    }
    /* task numbers back to indexes: the journaled ones to jq (handed out
     * first, from the journal), the others to the queue */
    p->qlen = p->njq = p->jhead = 0;
    for (int k = 0; k < p->ntk; k++)
        for (int j = 0; j < p->ntk; j++)
            if (p->tk[j].task == num[k]) {
                if (p->tk[j].jentry >= 0)
                    p->jq[p->njq++] = j;
                else
                    p->queue[p->qlen++] = j;
            }
    free(num);
    p->qhead = 0;
    p->ndone = 0;
    p->iteration++;
    double t = now(p);
    if (p->iteration > 1)
        p->border += t - p->last_end;
    p->begin = t;
    p->most = held(p);
    p->state = P_RUNNING;
    late_watch_start(&p->lw, &p->late, t);
    return meter(p, pool_meter_begin(&p->meter, t, &err), &err);
}

/* Task k goes back to the head of the queue (its worker was lost). */
static void requeue(dtss_pool *p, int k)
{
    p->tk[k].state = PT_QUEUED;
    p->tk[k].worker = -1;
    if (p->qhead == 0) {
        memmove(p->queue + 1, p->queue, sizeof *p->queue * (size_t)p->qlen);
        p->qhead = 1;
    }
    p->queue[--p->qhead] = k;
    p->qlen++;
}

/* Worker i is gone (its exit or its host's noticed). */
static int gone(dtss_pool *p, int i, const char *why)
{
    sched_err err;
    pworker *w = &p->w[i];
    double t = now(p);
    int was = w->state;
    w->state = PW_GONE;
    slot_free(p, w->slot);
    if (was == PW_LEAVING)
        return DTSS_OK;                 /* released, and now exited */
    if (was == PW_HUNG) {               /* not held since; its task ran again */
        w->left = t;
        pool_log(p, 1, "t=%.2f worker %d on %s (taken for hung) exited", t, i + 1,
                 p->slot[w->slot].host);
        return carry_out(p);
    }
    w->why = why;
    w->left = t;
    if (was == PW_STARTING) {
        pool_log(p, 0, "worker %d on %s exited before it was ready", i + 1,
                 p->slot[w->slot].host);
        return carry_out(p);
    }
    p->lost++;
    int rc = meter(p, pool_meter_leave(&p->meter, t, &err), &err);
    if (rc != DTSS_OK)
        return rc;
    if (was == PW_BUSY && w->task >= 0) {
        pool_log(p, 0, "t=%.2f worker %d on %s lost: its task %d of iteration %d runs "
                 "again", t, i + 1, p->slot[w->slot].host, p->tk[w->task].task,
                 p->iteration);
        requeue(p, w->task);
    } else {
        pool_log(p, 0, "t=%.2f worker %d on %s lost", t, i + 1, p->slot[w->slot].host);
    }
    w->task = -1;
    return carry_out(p);
}

/* A task's expected seconds, the late rule's units: its average over the
 * iterations before (pool_average), else every task's so far; NAN before
 * any task was done. So a rate is how fast a worker runs tasks against
 * their own times: the pool's tasks differ (the largest part of the
 * thinning takes some 5 times the average). */
static double expected(const dtss_pool *p, int task)
{
    double a = pool_average(p->pl, task);
    return isfinite(a) ? a : p->done_n > 0 ? p->done_secs / p->done_n : NAN;
}

/* Busy workers whose task is out past the late rule's limit (the task's
 * expected time at their rate, sched/late/late.h) are taken for hung: held no more, the task
 * back at the head of the queue; left alone (a result from it later counts
 * if it is the first), unless a request needs its host (serve_requests). */
static int check_late(dtss_pool *p)
{
    sched_err err;
    double t = now(p);
    for (int i = 0; i < p->nw; i++) {
        pworker *w = &p->w[i];
        double e = w->state == PW_BUSY ? expected(p, p->tk[w->task].task) : NAN;
        if (w->state != PW_BUSY || w->iter != p->iteration || !isfinite(e) ||
            !late_is(&p->late, &w->rate, &p->rate, e, w->sent, t))
            continue;
        w->state = PW_HUNG;
        w->why = "hung";
        p->hung++;
        int rc = meter(p, pool_meter_leave(&p->meter, t, &err), &err);
        if (rc != DTSS_OK)
            return rc;
        pool_log(p, 0, "t=%.2f worker %d on %s silent past the late limit (hung?): its task "
                 "%d of iteration %d runs again", t, i + 1, p->slot[w->slot].host,
                 p->tk[w->task].task, p->iteration);
        requeue(p, w->task);
        if ((rc = carry_out(p)) != DTSS_OK)
            return rc;
    }
    return DTSS_OK;
}

/* Idle workers (the lowest-numbered first) take the queue's next tasks. */
static int dispatch(dtss_pool *p)
{
    char msg[256];
    for (int i = 0; i < p->nw && p->qlen > 0; i++) {
        pworker *w = &p->w[i];
        if (w->state != PW_IDLE)
            continue;
        int k = p->queue[p->qhead];
        ptask *tk = &p->tk[k];
        if (tk->tries >= POOL_MAX_TRIES)
            return pool_fail(p, DTSS_ELOST, "task %d of iteration %d lost its worker %d "
                             "times: the run ends (does the worker program fail? its "
                             "messages are above)", tk->task, p->iteration, tk->tries);
        wire_task m = {.task = tk->task, .iteration = p->iteration, .data = tk->payload,
                       .len = tk->len};
        if (wire_send_task(w->tid, &m, msg, sizeof msg) < 0) {
            pool_log(p, 0, "worker %d: %s", i + 1, msg);
            int rc = gone(p, i, "lost");
            if (rc != DTSS_OK)
                return rc;
            continue;
        }
        p->qhead++;
        p->qlen--;
        tk->state = PT_OUT;
        tk->worker = i;
        tk->tries++;
        w->state = PW_BUSY;
        w->task = k;
        w->iter = p->iteration;
        w->sent = now(p);
        if (grow(&p->tr, &p->captr, p->ntr + 1, sizeof *p->tr) != 0)
            return pool_fail(p, DTSS_ENOMEM, "out of memory for the record");
        /* the record's line, completed when the result is in */
        p->tr[p->ntr] = (ptask_rec){.iteration = p->iteration, .task = tk->task,
                                    .worker = i + 1, .tries = tk->tries, .sent = now(p),
                                    .started = NAN, .finished = NAN, .received = NAN,
                                    .seconds = NAN};
        p->ntr++;
    }
    return DTSS_OK;
}

/* The iteration's last result is in. */
static int end(dtss_pool *p)
{
    sched_err err;
    free(p->st_task);
    free(p->st_time);
    p->st_task = malloc(sizeof *p->st_task * (size_t)p->ntk);
    p->st_time = malloc(sizeof *p->st_time * (size_t)p->ntk);
    if (!p->st_task || !p->st_time)
        return pool_fail(p, DTSS_ENOMEM, "out of memory for %d tasks", p->ntk);
    for (int k = 0; k < p->ntk; k++) {
        p->st_task[k] = p->tk[k].task;
        p->st_time[k] = p->tk[k].seconds;
    }
    p->st = (pool_iter_stats){.ntask = p->ntk, .task = p->st_task, .time = p->st_time};
    double t = now(p);
    p->state = P_ENDED;
    p->last_end = t;
    /* The meter counts what this run's workers computed: a journaled task's
     * time is useful time of the run that journaled it (the strategy is
     * given it, p->st: its order and Nworkers are a fresh run's). */
    double *mt = NULL;
    pool_iter_stats ms = p->st;
    if (p->njq > 0) {
        if (!(mt = malloc(sizeof *mt * (size_t)p->ntk)))
            return pool_fail(p, DTSS_ENOMEM, "out of memory for %d tasks", p->ntk);
        for (int k = 0; k < p->ntk; k++)
            mt[k] = p->tk[k].jentry >= 0 ? 0 : p->tk[k].seconds;
        ms.time = mt;
    }
    int rc = meter(p, pool_meter_end(&p->meter, t, &ms, &err), &err);
    free(mt);
    p->st.exec_time = ms.exec_time;
    p->st.held = ms.held;
    p->st.workers = ms.workers;
    p->st.stable = ms.stable;
    return rc;
}

/* The record line of worker i's task k, as sent. */
static ptask_rec *task_line(dtss_pool *p, int i, int task)
{
    for (int r = p->ntr - 1; r >= 0 && p->tr[r].iteration == p->iteration; r--)
        if (p->tr[r].worker == i + 1 && p->tr[r].task == task && isnan(p->tr[r].received))
            return &p->tr[r];
    return NULL;
}

/* A TASKDONE from worker i is in e: 1 when it is a result to hand out (in
 * p->cur), 0 when it is not wanted. */
static int take_result(dtss_pool *p, int i, const tr_event *e, int *ready)
{
    char msg[256];
    int index;
    wire_task r;
    *ready = 0;
    if (wire_unpack_taskdone(e, &index, &r, msg, sizeof msg) < 0) {
        pool_log(p, 0, "worker %d: %s (ignored)", i + 1, msg);
        return DTSS_OK;
    }
    pworker *w = &p->w[i];
    int was = w->state;
    if ((was != PW_BUSY && was != PW_HUNG) || w->task < 0 || r.iteration != w->iter ||
        index != i + 1 || (w->iter == p->iteration && p->tk[w->task].task != r.task)) {
        pool_log(p, 0, "worker %d: a result of task %d, iteration %d that it was not "
                 "computing (ignored)", i + 1, r.task, r.iteration);
        free(r.data);
        return DTSS_OK;
    }
    double t = now(p);
    double secs = r.t_end - r.t_start;
    if (!(secs >= 0) || !isfinite(secs))
        secs = 0;
    int rc = DTSS_OK;
    if (was == PW_HUNG) {               /* it was hung, and is back: held again */
        sched_err err;
        pool_log(p, 0, "t=%.2f worker %d on %s answered again after %.2f s", t, i + 1,
                 p->slot[w->slot].host, t - w->sent);
        w->state = PW_IDLE;
        if ((rc = meter(p, pool_meter_join(&p->meter, t, &err), &err)) != DTSS_OK) {
            free(r.data);
            return rc;
        }
    }
    w->state = PW_IDLE;
    int k = w->task;
    w->task = -1;
    if (w->iter != p->iteration || p->tk[k].state == PT_DONE) {
        /* A copy that came second: the task is done (or its iteration over). */
        pool_log(p, 0, "t=%.2f worker %d: task %d of iteration %d came second (refused)", t,
                 i + 1, r.task, r.iteration);
        free(r.data);
        return carry_out(p);
    }
    if (p->tk[k].state == PT_QUEUED)    /* waiting to run again: not any more */
        for (int q = p->qhead; q < p->qhead + p->qlen; q++)
            if (p->queue[q] == k) {
                memmove(p->queue + q, p->queue + q + 1,
                        sizeof *p->queue * (size_t)(p->qhead + p->qlen - q - 1));
                p->qlen--;
                break;
            }
    if (was == PW_BUSY) {
        double x = expected(p, r.task);
        if (isfinite(x))
            late_add(&w->rate, &p->rate, x, t - w->sent);
        p->done_secs += t - w->sent;
        p->done_n++;
    }
    ptask_rec *line = task_line(p, i, r.task);
    if (line) {
        line->started = r.t_start - p->wall0;
        line->finished = r.t_end - p->wall0;
        line->received = t;
        line->seconds = secs;
    }
    p->tk[k].state = PT_DONE;
    p->tk[k].seconds = secs;
    pool_journal_result(p, p->iteration, r.task, p->tk[k].hash, secs, r.data, r.len);
    w->tasks++;
    w->busy += secs;
    p->ndone++;
    free(p->cur.data);
    p->cur = r;
    p->cur_worker = i + 1;
    p->cur_seconds = secs;
    *ready = 1;
    rc = carry_out(p);              /* a release it was owed */
    if (rc == DTSS_OK && p->ndone == p->ntk)
        rc = end(p);
    return rc;
}

/* A READY from worker i: it is held from now on. */
static int take_ready(dtss_pool *p, int i, const tr_event *e)
{
    sched_err err;
    char msg[256], host[256];
    int index;
    pworker *w = &p->w[i];
    int rc = wire_unpack_ready(e, &index, host, sizeof host, msg, sizeof msg);
    if (rc == WIRE_EVERSION) {      /* another build's worker: refused */
        pool_log(p, 0, "worker %d on %s refused: %s", i + 1, p->slot[w->slot].host, msg);
        tr_kill(w->tid);
        return DTSS_OK;             /* its exit comes as a notice */
    }
    if (rc < 0 || w->state != PW_STARTING) {
        pool_log(p, 0, "worker %d: an unexpected READY (ignored)", i + 1);
        return DTSS_OK;
    }
    if (wire_send_pooljob(w->tid, i + 1, p->h.job, p->h.job_len, msg, sizeof msg) < 0) {
        pool_log(p, 0, "worker %d: %s (waiting for its exit)", i + 1, msg);
        return DTSS_OK;
    }
    double t = now(p);
    free(w->seen_host);
    w->seen_host = strdup(host);
    w->joined = t;
    w->state = PW_IDLE;
    rc = meter(p, pool_meter_join(&p->meter, t, &err), &err);
    if (rc != DTSS_OK)
        return rc;
    int h = held(p);
    if (p->state == P_RUNNING && h > p->most)
        p->most = h;
    if (h > p->counts.peak) {
        p->counts.peak = h;
        p->counts.peak_number = p->iteration + (p->state == P_RUNNING ? 0 : 1);
    }
    pool_log(p, 1, "t=%.2f worker %d joined on %s (%d held)", t, i + 1,
             p->slot[w->slot].host, h);
    return carry_out(p);
}

static int worker_of(const dtss_pool *p, int tid)
{
    for (int i = 0; i < p->nw; i++)
        if (p->w[i].tid == tid && p->w[i].state != PW_GONE)
            return i;
    return -1;
}

/* Waits for one message (at most until the next request is due, when a
 * host is free for it) and acts on it. *ready: a result is in p->cur. */
static int step(dtss_pool *p, int *ready)
{
    char msg[256];
    *ready = 0;
    int rc = serve_requests(p);
    if (rc != DTSS_OK)
        return rc;
    if (p->state == P_RUNNING && (rc = dispatch(p)) != DTSS_OK)
        return rc;
    if (p->state == P_RUNNING && p->ndone == p->ntk)
        return DTSS_OK;
    int starting = count(p, PW_STARTING), leaving = count(p, PW_LEAVING);
    int s = pool_free_slot(p);
    if (held(p) + starting == 0 && leaving == 0 && count(p, PW_HUNG) == 0 &&
        (p->nreq == 0 || s < 0))
        return pool_fail(p, DTSS_ELOST, "no worker is held and none can be had: %s",
                         p->nreq == 0 ? "no request is pending" : p->spawn_err[0] ?
                         p->spawn_err : "every host of the pool was lost");
    double wait = -1, w;                /* until a message, or a request is due */
    if (p->nreq > 0 && s >= 0) {
        int g = p->alloc->granted(p, now(p), &wait);
        if (g == -2)
            return p->ra.code;
        if (g >= 0)
            wait = 0;
    }
    /* An allocation that ended on its own: its worker is lost. */
    int lost = p->alloc->ended(p, now(p), &w);
    if (lost == -2)
        return p->ra.code;
    if (w >= 0 && (wait < 0 || w < wait))
        wait = w;
    for (int i = 0; lost >= 0 && i < p->nw; i++)
        if (p->w[i].slot == lost && p->w[i].state != PW_GONE) {
            tr_kill(p->w[i].tid);
            return gone(p, i, "lost");
        }
    if (p->state == P_RUNNING)          /* and look for late tasks */
        wait = late_watch_wait(&p->lw, wait, now(p));
    tr_event e;
    if (tr_recv(TR_ANY, TR_ANY, wait, &e, msg, sizeof msg) < 0)
        return pool_fail(p, DTSS_EPVM, "%s", msg);
    /* late tasks looked for once the queue is read (late_watch) */
    if (p->state == P_RUNNING && late_watch_look(&p->lw, e.kind == TR_TIMEOUT, now(p)) &&
        (rc = check_late(p)) != DTSS_OK)
        return rc;
    if (e.kind == TR_MESSAGE && e.tag == WIRE_TASKDONE && p->state == P_RUNNING &&
        (rc = worker_of(p, e.from)) >= 0)
        return take_result(p, rc, &e, ready);
    if (e.kind == TR_TIMEOUT)
        return DTSS_OK;                 /* a request is due, or a look for late tasks */
    if (e.kind == TR_PEER_EXIT) {
        int i = worker_of(p, e.from);
        return i < 0 ? DTSS_OK : gone(p, i, "lost");
    }
    if (e.kind == TR_HOST_LOST) {
        for (int i = 0; i < p->nw; i++)     /* a host left: its workers with it */
            if (p->w[i].state != PW_GONE && tr_host_of(p->w[i].tid) == e.host) {
                p->slot[p->w[i].slot].dead = 1;
                if ((rc = gone(p, i, "lost")) != DTSS_OK)
                    return rc;
            }
        return DTSS_OK;
    }
    int i = worker_of(p, e.from);
    if (i < 0)
        return DTSS_OK;                 /* not from a worker of the pool */
    if (e.tag == WIRE_READY)
        return take_ready(p, i, &e);
    if (e.tag == WIRE_TASKDONE && p->state == P_RUNNING)
        return take_result(p, i, &e, ready);
    return DTSS_OK;
}

/* The iteration's next journaled result (resumed: dtss_pool_task found it
 * in the journal, with the task's payload): handed out as its worker's
 * was, worker -1, not computed. */
static int from_journal(dtss_pool *p, dtss_task_result *r)
{
    int k = p->jq[p->jhead++];
    ptask *tk = &p->tk[k];
    unsigned char *data;
    size_t len;
    int rc = pool_journal_read(p, tk->jentry, &data, &len);
    if (rc != DTSS_OK) {
        p->state = P_FAILED;
        return rc;
    }
    tk->state = PT_DONE;
    tk->seconds = p->jn.e[tk->jentry].seconds;
    p->ndone++;
    p->jn.served++;
    free(p->cur.data);
    p->cur = (wire_task){.task = tk->task, .iteration = p->iteration, .data = data,
                         .len = len};
    p->cur_worker = -1;
    p->cur_seconds = tk->seconds;
    if (p->ndone == p->ntk && (rc = end(p)) != DTSS_OK) {
        p->state = P_FAILED;
        return rc;
    }
    *r = (dtss_task_result){.task = tk->task, .iteration = p->iteration, .data = data,
                            .len = len, .seconds = tk->seconds, .worker = -1};
    return DTSS_PIECE;
}

int dtss_pool_next(dtss_pool *p, dtss_task_result *r)
{
    int rc;
    if (p->state == P_ENDED)
        return DTSS_DONE;
    if (p->state == P_OPEN && (rc = begin(p)) != DTSS_OK)
        return rc;
    if (p->state != P_RUNNING)
        return pool_fail(p, DTSS_EMISUSE, "dtss_pool_next: no task was added to the "
                         "iteration (dtss_pool_task)");
    if (p->jhead < p->njq)              /* the journaled results first */
        return from_journal(p, r);
    for (;;) {
        int ready;
        if ((rc = step(p, &ready)) != DTSS_OK) {
            p->state = P_FAILED;
            long held_n = p->jn.ne + p->jn.written;
            if (p->jn.w.f && held_n > 0 &&
                strlen(p->h.err) + 2 * strlen(p->jn.path) < sizeof p->h.err - 100) {
                size_t n = strlen(p->h.err);
                snprintf(p->h.err + n, sizeof p->h.err - n, " (the journal %s holds %ld "
                         "result%s: the same run with --resume %s continues it)",
                         quote(p->jn.path), held_n, held_n == 1 ? "" : "s",
                         quote(p->jn.path));
            }
            return rc;
        }
        if (ready) {
            *r = (dtss_task_result){.task = p->cur.task, .iteration = p->cur.iteration,
                                    .data = p->cur.data, .len = p->cur.len,
                                    .seconds = p->cur_seconds,
                                    .worker = p->cur_worker};
            return DTSS_PIECE;
        }
    }
}

int dtss_pool_converged(dtss_pool *p, int task)
{
    sched_err err;
    if (p->state != P_RUNNING && p->state != P_ENDED)
        return pool_fail(p, DTSS_EMISUSE, "dtss_pool_converged: no iteration runs");
    int N = pool_task_converged(p->pl, task, &err);
    if (N < 0)
        return pool_fail(p, DTSS_EINVAL, "%s", err.msg);
    p->target = N;
    return carry_out(p);
}

/* The run is over: every worker released, and waited for a while. */
static int finish(dtss_pool *p)
{
    p->target = 0;
    int rc = carry_out(p);
    if (rc != DTSS_OK)
        return rc;
    for (int i = 0; i < p->nw; i++)     /* a hung worker is not waited for */
        if (p->w[i].state == PW_HUNG) {
            tr_kill(p->w[i].tid);
            p->w[i].state = PW_GONE;
            p->w[i].left = now(p);
            slot_free(p, p->w[i].slot);
        }
    double until = now(p) + POOL_EXIT_WAIT;
    while ((count(p, PW_LEAVING) > 0 || count(p, PW_STARTING) > 0) && now(p) < until) {
        char msg[256];
        tr_event e;
        if (tr_recv(TR_ANY, TR_ANY, until - now(p), &e, msg, sizeof msg) < 0 ||
            e.kind == TR_TIMEOUT)
            break;
        tr_peer src = e.from;
        if (e.kind == TR_PEER_EXIT) {
            int i = worker_of(p, src);
            if (i >= 0) {               /* released, or one that never was ready */
                p->w[i].state = PW_GONE;
                slot_free(p, p->w[i].slot);
            }
        } else if (e.kind == TR_MESSAGE && e.tag == WIRE_READY) {   /* a late one: stop it */
            int i = worker_of(p, src);
            if (i >= 0 && p->w[i].state == PW_STARTING) {
                wire_send_stop(src, msg, sizeof msg);
                p->w[i].state = PW_LEAVING;
                p->w[i].why = "end";
                p->w[i].left = now(p);
            }
        }
    }
    for (int i = 0; i < p->nw; i++)
        if (p->w[i].state == PW_STARTING || p->w[i].state == PW_LEAVING) {
            pool_log(p, 0, "worker %d did not exit within %g s: killed", i + 1,
                     POOL_EXIT_WAIT);
            tr_kill(p->w[i].tid);
            p->w[i].state = PW_GONE;
        }
    p->alloc->close(p);                 /* every allocation and request left */
    jnl_close(&p->jn.w);                /* fsync'd */
    p->state = P_FINISHED;
    return DTSS_OK;
}

int dtss_pool_end_iteration(dtss_pool *p, int next_ntasks)
{
    sched_err err;
    if (p->state != P_ENDED)
        return pool_fail(p, DTSS_EMISUSE, "dtss_pool_end_iteration: the iteration has "
                         "not ended (dtss_pool_next has not returned DTSS_DONE)");
    if (next_ntasks < 0 || next_ntasks > p->ntasks)
        return pool_fail(p, DTSS_EINVAL, "dtss_pool_end_iteration: next_ntasks %d (0 .. "
                         "%d)", next_ntasks, p->ntasks);
    p->st.next_tasks = next_ntasks;
    if (grow(&p->it, &p->capit, p->nit + 1, sizeof *p->it) != 0)
        return pool_fail(p, DTSS_ENOMEM, "out of memory for the record");
    pool_iter_rec *it = &p->it[p->nit];
    int N = pool_iteration_end(p->pl, &p->st, &it->d, &err);
    if (N < 0)
        return pool_fail(p, DTSS_EINVAL, "%s", err.msg);
    p->nit++;
    it->number = p->iteration;
    it->begin = p->begin;
    it->most = p->most;
    it->tasks = p->ntk;
    for (int k = 0; k < p->ntk; k++)
        free(p->tk[k].payload);
    p->ntk = 0;
    p->target = N;
    pool_log(p, 1, "iteration %d: %d tasks in %.3f s, efficiency %.2f, %d held: "
             "Nworkers %d (%s)", p->iteration, it->tasks, it->d.exec_time,
             it->d.efficiency, it->d.current, N, pool_rule_name(it->d.rule));
    int rc;
    if (next_ntasks == 0) {
        rc = finish(p);
        it->pending = p->nreq;
        return rc;
    }
    p->state = P_READY;
    rc = carry_out(p);
    it->pending = p->nreq;
    return rc;
}

void dtss_pool_free(dtss_pool *p)
{
    if (!p)
        return;
    for (int i = 0; p->h.joined && i < p->nw; i++)
        if (p->w[i].state != PW_GONE)
            tr_kill(p->w[i].tid);
    p->alloc->close(p);
    rt_leave(&p->h);
    for (int s = 0; s < p->nslot; s++)
        free(p->slot[s].host);
    for (int i = 0; i < p->nw; i++)
        free(p->w[i].seen_host);
    for (int k = 0; k < p->ntk; k++)
        free(p->tk[k].payload);
    for (int f = 0; f < p->nf; f++) {
        free(p->fkey[f]);
        free(p->fval[f]);
    }
    free(p->fkey);
    free(p->fval);
    free(p->slot);
    free(p->w);
    free(p->tk);
    free(p->queue);
    free(p->st_task);
    free(p->st_time);
    free(p->it);
    free(p->tr);
    free(p->cur.data);
    free(p->jq);
    pool_journal_free(p);
    free(p->jn.path);
    rt_place_free(&p->place);
    rt_release(&p->h);
    pool_free(p->pl);
    free(p);
}
