/* run.c: the coordinator's event loops, self-scheduling and Tree-Scheduling.
 *
 * Self-scheduling (Xu & Chronopoulos Sec. 5.3): every decision is made by
 * the policy (sched/policy.c); this file turns PVM messages into its events
 * ("request from worker w with A", "results of chunk c", "worker lost") and
 * sends out what it assigns. It waits on any message from anyone, so it never
 * waits on one slow worker while others ask for work.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include <pvm3.h>

#include "coordinator/coordinator.h"
#include "sched/policy.h"
#include "worker/proto.h"

static int worker_of_tid(const run *r, int tid)
{
    for (int w = 0; w < r->nw; w++)
        if (r->rec.w[w].tid == tid)
            return w;
    return -1;
}

static int alive(const run *r)
{
    int n = 0;
    for (int w = 0; w < r->nw; w++)
        n += !r->w[w].lost;
    return n;
}

static void fill_job(const run *r, int w, proto_job *j)
{
    memset(j, 0, sizeof *j);
    j->version = PROTO_VERSION;
    j->index = w;
    j->tree = r->tree;
    j->image = r->image;
    j->sample = r->sample;
    j->V = r->rec.w[w].V;
    j->acp_integer = r->acp_integer;
    j->probe = r->probe;
    j->nworkers = r->nw;
}

static int send_job(run *r, int w, const proto_job *j)
{
    pvm_initsend(PvmDataDefault);
    int rc = proto_pack_job(j) < 0 ? PvmNoMem : pvm_send(r->rec.w[w].tid, TAG_START);
    if (rc < 0)
        fprintf(stderr, "coordinator: pvm_send(job) to worker %d on %s: %s\n",
                w + 1, r->rec.w[w].host, proto_pvm_strerror(rc));
    return rc;
}

static int send_work(const run *r, int w, long id, long start, long size)
{
    long m[3] = {id, start, size};
    pvm_initsend(PvmDataDefault);
    pvm_pklong(m, 3, 1);
    int rc = pvm_send(r->rec.w[w].tid, TAG_WORK);
    if (rc < 0)
        fprintf(stderr, "coordinator: pvm_send(work) to worker %d: %s\n", w + 1,
                proto_pvm_strerror(rc));
    return rc;
}

/* Tells every live worker to stop and waits (at most 10 s) for them to exit,
 * so that none outlives the run. */
static void stop_all(run *r)
{
    int live = 0;
    for (int w = 0; w < r->nw; w++)
        if (!r->w[w].lost) {
            pvm_initsend(PvmDataDefault);
            pvm_send(r->rec.w[w].tid, TAG_STOP);
            live++;
        }
    double until = proto_now() + 10;
    while (live > 0 && proto_now() < until) {
        struct timeval tv = {0, 200000};
        int bufid = pvm_trecv(-1, TAG_TASKEXIT, &tv);
        if (bufid <= 0)
            continue;
        int tid, w;
        pvm_upkint(&tid, 1, 1);
        if ((w = worker_of_tid(r, tid)) >= 0 && !r->w[w].lost) {
            r->w[w].lost = 1;           /* gone, as asked */
            live--;
        }
    }
}

/* Places the rows of a result in the image; returns the rows new to it. */
static long store_rows(run *r, const proto_result *res)
{
    const int W = r->image.width, H = r->image.height;
    long fresh = 0;
    for (long k = res->start; k < res->start + res->size; k++) {
        long row = mandel_sample_row(k, H, r->sample);
        if (row < 0)
            continue;
        memcpy(r->image_counts + (size_t)row * (size_t)W,
               res->counts + (size_t)(k - res->start) * (size_t)W,
               sizeof(uint32_t) * (size_t)W);
        if (!r->row_done[k]) {
            r->row_done[k] = 1;
            fresh++;
        }
    }
    r->rows_done += fresh;
    return fresh;
}

/* Marks worker w lost (once), telling the user. */
static void lose(run *r, policy *p, int w, const char *why)
{
    if (w < 0 || r->w[w].lost)
        return;
    r->w[w].lost = 1;
    int back = p ? policy_lost(p, w) : 0;
    fprintf(stderr, "coordinator: worker %d on %s %s", w + 1, r->rec.w[w].host, why);
    if (back)
        fprintf(stderr, "; its chunk goes back to the pool");
    fprintf(stderr, "\n");
}

/* A task-exit or host-delete notification. */
static void notified(run *r, policy *p, int tag)
{
    int tid;
    pvm_upkint(&tid, 1, 1);
    if (tag == TAG_TASKEXIT)
        lose(r, p, worker_of_tid(r, tid), "exited");
    else
        for (int w = 0; w < r->nw; w++)
            if (!r->w[w].lost && pvm_tidtohost(r->rec.w[w].tid) == tid)
                lose(r, p, w, "left: its host was deleted");
}

/* A worker's request: hello, results, its new A_i. */
static int on_request(run *r, policy *p, int src)
{
    int w, Q, hello;
    double A, tm;
    char host[1024], cgroup[1024], backend[64], msg[256];
    if (pvm_upkint(&w, 1, 1) < 0 || pvm_upkint(&Q, 1, 1) < 0 ||
        pvm_upkdouble(&A, 1, 1) < 0 || pvm_upkdouble(&tm, 1, 1) < 0 ||
        pvm_upkint(&hello, 1, 1) < 0 || w < 0 || w >= r->nw ||
        r->rec.w[w].tid != src) {
        fprintf(stderr, "coordinator: malformed request from t%x, ignored\n", src);
        return 0;
    }
    cworker *cw = &r->w[w];
    rec_worker *rw = &r->rec.w[w];
    if (hello) {
        if (pvm_upkstr(host) < 0 || pvm_upkstr(cgroup) < 0 || pvm_upkstr(backend) < 0)
            return 0;
        snprintf(rw->seen_host, sizeof rw->seen_host, "%.255s", host);
        snprintf(rw->cgroup, sizeof rw->cgroup, "%.255s", cgroup);
        snprintf(rw->backend, sizeof rw->backend, "%.31s", backend);
    }
    proto_result res[4];
    int n = proto_unpack_results(res, 4, r->image.width, msg, sizeof msg);
    if (n < 0) {
        fprintf(stderr, "coordinator: worker %d: %s\n", w + 1, msg);
        return 0;
    }
    double now = proto_now();
    for (int i = 0; i < n; i++) {
        if (res[i].id >= 0 && res[i].id < r->rec.nchunks &&
            policy_done(p, w, res[i].id, NULL) == SCHED_OK) {
            rec_chunk *c = &r->rec.chunks[res[i].id];
            c->recv = res[i].t_recv;
            c->started = res[i].t_start;
            c->finished = res[i].t_end;
            c->received = now;
            c->done = 1;
            store_rows(r, &res[i]);
            rw->chunks++;
            rw->rows += res[i].size;
            rw->finish = now;
        }
        free(res[i].counts);
    }
    record_report(&r->rec, w, Q, A, tm);
    cw->reported = 1;
    if (cw->lost)
        return 0;
    sched_err err;
    if (policy_request(p, w, A, &err) != SCHED_OK)
        fprintf(stderr, "coordinator: %s\n", err.msg);
    return 0;
}

/* Receives one message and feeds it to the policy. */
static int dispatch(run *r, policy *p)
{
    int bufid = pvm_recv(-1, -1);
    if (bufid < 0) {
        fprintf(stderr, "coordinator: pvm_recv: %s\n", proto_pvm_strerror(bufid));
        return -1;
    }
    int bytes, tag, src;
    pvm_bufinfo(bufid, &bytes, &tag, &src);
    if (tag == TAG_REQUEST)
        return on_request(r, p, src);
    if (tag == TAG_TASKEXIT || tag == TAG_HOSTDEL)
        notified(r, p, tag);
    return 0;
}

int run_self(run *r)
{
    sched_err err;
    policy *p = policy_new(&r->cfg, r->nw, &err);
    if (!p) {
        fprintf(stderr, "coordinator: %s\n", err.msg);
        return 1;
    }
    proto_job job;
    for (int w = 0; w < r->nw; w++) {
        fill_job(r, w, &job);
        if (send_job(r, w, &job) < 0)
            lose(r, p, w, "cannot be reached");
    }

    /* Step 1: every worker reports; at least one with A_i > 0. */
    for (;;) {
        int reported = 0, live = alive(r);
        for (int w = 0; w < r->nw; w++)
            reported += !r->w[w].lost && r->w[w].reported;
        if (live == 0) {
            fprintf(stderr, "coordinator: every worker was lost before the run "
                    "started\n");
            policy_free(p);
            return 1;
        }
        if (reported == live && policy_queued(p) > 0)
            break;
        if (dispatch(r, p) < 0) {
            policy_free(p);
            return 1;
        }
    }
    r->rec.t0 = proto_now();
    if (policy_start(p, &err) != SCHED_OK) {
        fprintf(stderr, "coordinator: %s\n", err.msg);
        policy_free(p);
        return 1;
    }
    if (!r->quiet)
        fprintf(stderr, "coordinator: %d workers reported; %s over %ld rows\n",
                alive(r), r->scheme->name, r->cfg.I);

    /* Step 2: serve requests until every row is in. */
    while (!policy_finished(p)) {
        policy_chunk c;
        while (policy_assign(p, &c)) {
            rec_chunk *rc = record_chunk(&r->rec);
            if (!rc) {
                fprintf(stderr, "coordinator: out of memory for the run record\n");
                policy_free(p);
                return 1;
            }
            *rc = (rec_chunk){.id = c.id, .worker = c.worker, .start = c.start,
                                  .size = c.size, .acp = c.acp,
                                  .sent = proto_now(), .reissue = c.reissue};
            if (send_work(r, c.worker, c.id, c.start, c.size) < 0)
                lose(r, p, c.worker, "cannot be reached");
        }
        if (policy_alive(p) == 0) {
            fprintf(stderr, "coordinator: every worker was lost; %ld of %ld rows "
                    "done\n", r->rows_done, r->cfg.I);
            policy_free(p);
            return 1;
        }
        if (dispatch(r, p) < 0) {
            policy_free(p);
            return 1;
        }
    }
    r->rec.finish = proto_now() - r->rec.t0;
    r->rec.replans = policy_replans(p);
    stop_all(r);
    policy_free(p);
    return 0;
}

/* ---- Tree-Scheduling ------------------------------------------------------ */

/* Rows missing while every live worker is idle (they were lost with a dead
 * worker): the first missing range of the sampled loop, or size 0. */
static void first_missing(const run *r, long from, long *start, long *size)
{
    const long I = r->image.height;
    long k = from;
    while (k < I && r->row_done[k])
        k++;
    long e = k;
    while (e < I && !r->row_done[e])
        e++;
    *start = k;
    *size = e - k;
}

int run_tree(run *r)
{
    const long I = r->image.height;
    int *order = malloc(sizeof(int) * (size_t)r->nw);
    long *start = malloc(sizeof(long) * (size_t)r->nw);
    long *size = malloc(sizeof(long) * (size_t)r->nw);
    double *V = malloc(sizeof(double) * (size_t)r->nw);
    char *idle = calloc((size_t)r->nw, 1);
    int rc = 1;
    if (!order || !start || !size || !V || !idle) {
        fprintf(stderr, "coordinator: out of memory\n");
        goto out;
    }
    for (int w = 0; w < r->nw; w++)
        V[w] = r->rec.w[w].V;
    tree_chain(V, r->nw, order);
    tree_split(I, V, r->nw, order, start, size);
    r->rec.t0 = proto_now();
    proto_job job;
    for (int w = 0; w < r->nw; w++) {
        fill_job(r, w, &job);
        for (int k = 0; k < r->nw; k++) {
            job.chain[k] = order[k];
            job.tids[k] = r->rec.w[k].tid;
        }
        job.start = start[w];
        job.size = size[w];
        if (send_job(r, w, &job) < 0)
            lose(r, NULL, w, "cannot be reached");
    }
    if (!r->quiet)
        fprintf(stderr, "coordinator: tree over %d workers, %ld rows\n", r->nw, I);

    while (r->rows_done < I) {
        int live = alive(r), nidle = 0;
        for (int w = 0; w < r->nw; w++)
            nidle += !r->w[w].lost && idle[w];
        if (live == 0) {
            fprintf(stderr, "coordinator: every worker was lost; %ld of %ld rows "
                    "done\n", r->rows_done, I);
            goto out;
        }
        if (nidle == live) {            /* rows lost with a dead worker */
            long from = 0;
            for (int w = 0; w < r->nw; w++) {
                long s, n;
                if (r->w[w].lost)
                    continue;
                first_missing(r, from, &s, &n);
                if (n == 0)
                    break;
                rec_chunk *c = record_chunk(&r->rec);
                if (!c)
                    goto out;
                *c = (rec_chunk){.id = r->rec.nchunks - 1, .worker = w, .start = s,
                                     .size = n, .sent = proto_now(), .reissue = 1};
                send_work(r, w, c->id, s, n);
                idle[w] = 0;
                from = s + n;
            }
        }
        int bufid = pvm_recv(-1, -1);
        if (bufid < 0) {
            fprintf(stderr, "coordinator: pvm_recv: %s\n", proto_pvm_strerror(bufid));
            goto out;
        }
        int bytes, tag, src, w;
        pvm_bufinfo(bufid, &bytes, &tag, &src);
        if (tag == TAG_TASKEXIT || tag == TAG_HOSTDEL) {
            notified(r, NULL, tag);
            continue;
        }
        if ((tag != TAG_RESULT && tag != TAG_IDLE) || pvm_upkint(&w, 1, 1) < 0 ||
            w < 0 || w >= r->nw || r->rec.w[w].tid != src)
            continue;
        if (tag == TAG_IDLE) {
            idle[w] = 1;
            continue;
        }
        proto_result res;
        char msg[256];
        if (proto_unpack_results(&res, 1, r->image.width, msg, sizeof msg) != 1) {
            fprintf(stderr, "coordinator: worker %d: %s\n", w + 1, msg);
            continue;
        }
        double now = proto_now();
        rec_chunk *c;
        if (res.id >= 0 && res.id < r->rec.nchunks && !r->rec.chunks[res.id].done &&
            r->rec.chunks[res.id].worker == w) {
            c = &r->rec.chunks[res.id];         /* rows of a lost worker, done */
            c->size = res.size;             /* (less any it gave away) */
        } else {
            if (!(c = record_chunk(&r->rec))) {
                free(res.counts);
                goto out;
            }
            *c = (rec_chunk){.id = r->rec.nchunks - 1, .worker = w,
                                 .start = res.start, .size = res.size,
                                 .sent = res.t_recv};
        }
        c->recv = res.t_recv;
        c->started = res.t_start;
        c->finished = res.t_end;
        c->received = now;
        c->done = 1;
        store_rows(r, &res);
        free(res.counts);
        r->rec.w[w].chunks++;
        r->rec.w[w].rows += res.size;
        r->rec.w[w].finish = now;
    }
    r->rec.finish = proto_now() - r->rec.t0;
    stop_all(r);
    rc = 0;
out:
    free(order);
    free(start);
    free(size);
    free(V);
    free(idle);
    return rc;
}
