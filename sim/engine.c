/* engine.c: the discrete-event loop (sim.h).
 *
 * Self-scheduling runs Xu & Chronopoulos Sec. 5.3 exactly as the PVM
 * coordinator does, through the same policy (sched/policy.c):
 *   t = 0    every worker measures Q_i and reports A_i = V_i / Q_i;
 *   master   on a report: records the results it carries (policy_done), the
 *            new A_i (policy_request); once all have reported, plans
 *            (policy_start); then serves the queue (policy_assign);
 *   worker   on a chunk: computes it at its host's speed / (1 + load), then
 *            measures Q_i and sends its results with a new request; with the
 *            integer rule and A_i = 0, measures again after 'remeasure'.
 * A host that fails dies with its chunk; the master hears of it one latency
 * later (PVM's task-exit notice) and the chunk goes back to the pool
 * (policy_lost).
 *
 * Tree-Scheduling runs sched/tree.c's reading: static split by V_i, a chain
 * by speed, an idle worker asks its partner, who answers when its current
 * iteration ends and gives the upper half of what it has left.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/policy.h"
#include "sim/sim.h"

enum { EV_REPORT, EV_WORK, EV_DONE, EV_REMEASURE, EV_FAIL, EV_NOTICE,
       EV_STEAL, EV_GIVE, EV_RESULT };

typedef struct event {
    double t;
    long seq;
    int type, w, from, version;
    /* a report: the worker's measure, and the results it carries */
    int Q, has_result;
    double A, t_measure;
    long id, start, size;
    double t_recv, t_start, t_end;
} event;

typedef struct heap { event *e; long n, cap, seq; } heap;

static int before(const event *a, const event *b)
{
    return a->t < b->t || (a->t == b->t && a->seq < b->seq);
}

static int push(heap *h, event ev)
{
    if (h->n == h->cap) {
        long cap = h->cap ? 2 * h->cap : 256;
        event *e = realloc(h->e, sizeof *e * (size_t)cap);
        if (!e)
            return -1;
        h->e = e;
        h->cap = cap;
    }
    ev.seq = h->seq++;
    long i = h->n++;
    while (i > 0 && before(&ev, &h->e[(i - 1) / 2])) {
        h->e[i] = h->e[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->e[i] = ev;
    return 0;
}

static event pop(heap *h)
{
    event top = h->e[0], last = h->e[--h->n];
    long i = 0;
    for (;;) {
        long c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && before(&h->e[c + 1], &h->e[c]))
            c++;
        if (!before(&h->e[c], &last))
            break;
        h->e[i] = h->e[c];
        i = c;
    }
    if (h->n > 0)
        h->e[i] = last;
    return top;
}

/* ---- hosts: load over time --------------------------------------------------- */

static int extra_at(const sim_host *h, double t)
{
    int x = 0;
    for (int i = 0; i < h->nload && h->load[i].t <= t; i++)
        x = h->load[i].extra;
    return x;
}

/* The first load change after t, or INFINITY. */
static double next_change(const sim_host *h, double t)
{
    for (int i = 0; i < h->nload; i++)
        if (h->load[i].t > t)
            return h->load[i].t;
    return INFINITY;
}

/* When 'work' units started at t are done. */
static double advance(const sim_host *h, double t, double work)
{
    for (;;) {
        double speed = h->speed / (1 + extra_at(h, t));
        double until = next_change(h, t);
        if (work <= speed * (until - t))
            return t + work / speed;
        work -= speed * (until - t);
        t = until;
    }
}

/* The work done between t0 and t1. */
static double work_between(const sim_host *h, double t0, double t1)
{
    double work = 0;
    while (t0 < t1) {
        double until = next_change(h, t0);
        double end = until < t1 ? until : t1;
        work += h->speed / (1 + extra_at(h, t0)) * (end - t0);
        t0 = end;
    }
    return work;
}

/* ---- the run ------------------------------------------------------------------- */

typedef struct sworker {
    const sim_host *h;
    int dead, reported;
    /* Tree-Scheduling: computing [seg_pos, end) since seg_t */
    int busy, version;
    long seg_pos, end, piece_start;
    double seg_t, piece_recv, piece_t0;
} sworker;

typedef struct run {
    const sim_config *c;
    const sim_platform *pf;
    const sim_workload *wl;
    record *rec;
    heap h;
    sworker *w;
    int n;
    policy *p;
    double master_free;
    int started, finished;
    int unreported;                 /* live workers yet to report once */
    long rows_done;
    int *chain;
    char *msg;
    size_t len;
} run;

void sim_config_init(sim_config *c)
{
    memset(c, 0, sizeof *c);
    c->message_bytes = 64;
    c->remeasure = 0.2;
}

/* Delay of a message of 'bytes' between two clusters. */
static double delay(const run *r, const char *a, const char *b, double bytes)
{
    const sim_link *l = sim_link_between(r->pf, a, b);
    return l->latency + (l->bandwidth > 0 ? bytes / l->bandwidth : 0);
}

static double to_master(const run *r, int w, double bytes)
{
    return delay(r, r->w[w].h->cluster, r->pf->master, bytes);
}

static int fail(run *r, const char *what)
{
    snprintf(r->msg, r->len, "%s", what);
    return -1;
}

static int post(run *r, event ev)
{
    return push(&r->h, ev) == 0 ? 0 : fail(r, "out of memory for events");
}

/* The worker measures Q at t and reports A_i, with the results of its last
 * chunk if 'pending' carries some. With the integer rule and A_i = 0 it
 * measures again after 'remeasure' instead, keeping the results; its first
 * report goes out anyway (Sec. 5.3: the coordinator waits for everyone). */
static int report(run *r, int w, double t, const event *pending, int first)
{
    const sim_host *h = r->w[w].h;
    int Q = 1 + extra_at(h, t);
    double A = sched_acp(r->rec->w[w].V, Q, 1, r->c->acp_integer);   /* one CPU a host */
    event again = pending ? *pending : (event){.w = w};
    again.type = EV_REMEASURE;
    again.t = t + r->c->remeasure;
    if (!(A > 0) && !first)
        return post(r, again);
    event ev = pending ? *pending : (event){0};
    double bytes = r->c->message_bytes;
    if (ev.has_result)
        bytes += r->c->result_bytes * (double)ev.size;
    ev.type = EV_REPORT;
    ev.w = w;
    ev.Q = Q;
    ev.A = A;
    ev.t_measure = t;
    ev.t = t + to_master(r, w, bytes);
    if (post(r, ev) != 0)
        return -1;
    return A > 0 ? 0 : post(r, again);
}

/* The master hands out every chunk it can, leaving at time t. */
static int serve(run *r, double t)
{
    policy_chunk pc;
    while (policy_assign(r->p, &pc)) {
        rec_chunk *c = record_chunk(r->rec);
        if (!c)
            return fail(r, "out of memory for the run record");
        *c = (rec_chunk){.id = pc.id, .worker = pc.worker, .start = pc.start,
                         .size = pc.size, .acp = pc.acp, .sent = t,
                         .reissue = pc.reissue};
        event ev = {.type = EV_WORK, .w = pc.worker, .id = pc.id, .start = pc.start,
                    .size = pc.size};
        ev.t = t + r->c->dispatch + to_master(r, pc.worker, r->c->message_bytes);
        if (post(r, ev) != 0)
            return -1;
    }
    return 0;
}

/* The master takes the message ev when it is free: 1 (it is, now: ev->t),
 * 0 (busy: ev is posted again for when it is free), -1 (out of memory). */
static int master_take(run *r, event *ev)
{
    if (ev->t < r->master_free) {
        ev->t = r->master_free;
        return post(r, *ev) == 0 ? 0 : -1;
    }
    r->master_free = ev->t + r->c->master_overhead;
    return 1;
}

static int start_or_serve(run *r);

static int on_report(run *r, const event *ev, double t)
{
    int w = ev->w;
    rec_worker *rw = &r->rec->w[w];
    if (ev->has_result && policy_done(r->p, w, ev->id, NULL) == 0) {
        rec_chunk *c = &r->rec->chunks[ev->id];
        c->recv = ev->t_recv;
        c->started = ev->t_start;
        c->finished = ev->t_end;
        c->received = t;
        c->done = 1;
        rw->chunks++;
        rw->rows += ev->size;
        rw->finish = t;
        r->rows_done += ev->size;
    }
    record_report(r->rec, w, ev->Q, ev->A, ev->t_measure);
    if (r->w[w].dead)
        return 0;
    if (policy_request(r->p, w, ev->A, NULL) != 0)
        return 0;
    if (policy_finished(r->p)) {
        r->finished = 1;
        r->rec->finish = t - r->rec->t0;
        return 0;
    }
    if (!r->w[w].reported) {
        r->w[w].reported = 1;
        r->unreported--;
    }
    return start_or_serve(r);
}

/* Step 1 ends when every live worker has reported and one can work; then
 * (and from then on) the master serves the queue. */
static int start_or_serve(run *r)
{
    if (!r->started) {
        if (r->unreported > 0 || policy_queued(r->p) == 0)
            return 0;
        sched_err err;
        if (policy_start(r->p, &err) != 0)
            return fail(r, err.msg);
        r->started = 1;
        r->rec->t0 = r->master_free - r->c->master_overhead;
    }
    return serve(r, r->master_free);
}

static int run_self(run *r)
{
    sched_err err;
    r->p = policy_new(&r->c->sched, r->n, &err);
    if (!r->p)
        return fail(r, err.msg);
    r->unreported = r->n;
    for (int w = 0; w < r->n; w++) {
        if (r->w[w].h->fail >= 0 &&
            post(r, (event){.t = r->w[w].h->fail, .type = EV_FAIL, .w = w}) != 0)
            return -1;
        if (report(r, w, 0, NULL, 1) != 0)
            return -1;
    }
    while (!r->finished && r->h.n > 0) {
        event ev = pop(&r->h);
        sworker *x = &r->w[ev.w];
        switch (ev.type) {
        case EV_REPORT:
        case EV_NOTICE: {
            int now = master_take(r, &ev);
            if (now <= 0) {
                if (now < 0)
                    return -1;
                break;
            }
            double t = ev.t;
            if (ev.type == EV_NOTICE) {
                policy_lost(r->p, ev.w);
                if (!x->reported) {
                    x->reported = 1;
                    r->unreported--;
                }
                if (policy_alive(r->p) == 0)
                    return fail(r, "every worker's host failed before the end");
                if (start_or_serve(r) != 0)
                    return -1;
            } else if (on_report(r, &ev, t) != 0)
                return -1;
            break;
        }
        case EV_WORK:
            if (x->dead)
                break;
            ev.t_recv = ev.t_start = ev.t;
            ev.t_end = advance(x->h, ev.t, sim_work(r->wl, ev.start, ev.size));
            ev.type = EV_DONE;
            ev.has_result = 1;
            ev.t = ev.t_end;
            if (post(r, ev) != 0)
                return -1;
            break;
        case EV_DONE:
        case EV_REMEASURE:
            if (!x->dead && report(r, ev.w, ev.t, &ev, 0) != 0)
                return -1;
            break;
        case EV_FAIL:
            x->dead = 1;
            if (post(r, (event){.t = ev.t + to_master(r, ev.w, 0), .type = EV_NOTICE,
                                .w = ev.w}) != 0)
                return -1;
            break;
        }
    }
    if (!r->finished)
        return fail(r, "the simulation stalled: no event left before the end");
    r->rec->replans = policy_replans(r->p);
    return 0;
}

/* ---- Tree-Scheduling ---------------------------------------------------------- */

/* Worker w starts computing [start, start + size) at t. */
static int tree_begin(run *r, int w, double t, long start, long size)
{
    sworker *x = &r->w[w];
    x->busy = 1;
    x->seg_t = x->piece_recv = x->piece_t0 = t;
    x->seg_pos = x->piece_start = start;
    x->end = start + size;
    x->version++;
    double done = advance(x->h, t, sim_work(r->wl, start, size));
    return post(r, (event){.t = done, .type = EV_DONE, .w = w, .version = x->version});
}

static int tree_ask(run *r, int w, double t)
{
    int p = tree_partner(r->chain, r->n, w);
    if (p < 0)
        return 0;                           /* the slowest: done */
    double d = delay(r, r->w[w].h->cluster, r->w[p].h->cluster, r->c->message_bytes);
    return post(r, (event){.t = t + d, .type = EV_STEAL, .w = p, .from = w});
}

static int run_tree(run *r)
{
    const long I = r->wl->n;
    double *V = malloc(sizeof *V * (size_t)r->n);
    long *start = malloc(sizeof *start * (size_t)r->n);
    long *size = malloc(sizeof *size * (size_t)r->n);
    r->chain = malloc(sizeof *r->chain * (size_t)r->n);
    if (!V || !start || !size || !r->chain) {
        free(V); free(start); free(size);
        return fail(r, "out of memory");
    }
    for (int w = 0; w < r->n; w++)
        V[w] = r->rec->w[w].V;
    tree_chain(V, r->n, r->chain);
    tree_split(I, V, r->n, r->chain, start, size);
    r->rec->t0 = 0;
    int rc = 0;
    for (int w = 0; w < r->n && rc == 0; w++)
        rc = post(r, (event){.t = to_master(r, w, r->c->message_bytes), .type = EV_GIVE,
                             .w = w, .from = -1, .start = start[w], .size = size[w]});
    free(V); free(start); free(size);
    if (rc != 0)
        return -1;
    while (r->rows_done < I && r->h.n > 0) {
        event ev = pop(&r->h);
        sworker *x = &r->w[ev.w];
        switch (ev.type) {
        case EV_GIVE:                       /* work (or none) arrives */
            if (ev.size > 0) {
                if (tree_begin(r, ev.w, ev.t, ev.start, ev.size) != 0)
                    return -1;
            }                               /* none: the worker is done */
            break;
        case EV_STEAL: {                    /* x = the partner asked */
            long give = 0, from = 0;
            double t = ev.t;
            if (x->busy) {
                long pos = x->seg_pos + sim_reach(r->wl, x->seg_pos, x->end - x->seg_pos,
                                                  work_between(x->h, x->seg_t, ev.t));
                /* It answers when the iteration in progress ends. */
                long next = pos < x->end ? pos + 1 : pos;
                t = advance(x->h, x->seg_t, sim_work(r->wl, x->seg_pos, next - x->seg_pos));
                give = tree_give(x->end - next);
                if (give > 0) {
                    x->end -= give;
                    from = x->end;
                    x->version++;
                    double done = advance(x->h, x->seg_t,
                                          sim_work(r->wl, x->seg_pos, x->end - x->seg_pos));
                    if (post(r, (event){.t = done, .type = EV_DONE, .w = ev.w,
                                        .version = x->version}) != 0)
                        return -1;
                }
            }
            double d = delay(r, x->h->cluster, r->w[ev.from].h->cluster, r->c->message_bytes);
            if (post(r, (event){.t = t + d, .type = EV_GIVE, .w = ev.from, .from = ev.w,
                                .start = from, .size = give}) != 0)
                return -1;
            break;
        }
        case EV_DONE: {
            if (ev.version != x->version || !x->busy)
                break;                      /* superseded by a steal */
            x->busy = 0;
            long n = x->end - x->piece_start;
            double bytes = r->c->message_bytes + r->c->result_bytes * (double)n;
            event res = {.t = ev.t + to_master(r, ev.w, bytes), .type = EV_RESULT,
                         .w = ev.w, .start = x->piece_start, .size = n,
                         .t_recv = x->piece_recv, .t_start = x->piece_t0, .t_end = ev.t};
            if (post(r, res) != 0 || tree_ask(r, ev.w, ev.t) != 0)
                return -1;
            break;
        }
        case EV_RESULT: {
            int now = master_take(r, &ev);
            if (now <= 0) {
                if (now < 0)
                    return -1;
                break;
            }
            double t = ev.t;
            rec_chunk *c = record_chunk(r->rec);
            if (!c)
                return fail(r, "out of memory for the run record");
            *c = (rec_chunk){.id = r->rec->nchunks - 1, .worker = ev.w, .start = ev.start,
                             .size = ev.size, .sent = ev.t_recv, .recv = ev.t_recv,
                             .started = ev.t_start, .finished = ev.t_end,
                             .received = t, .done = 1};
            rec_worker *rw = &r->rec->w[ev.w];
            rw->chunks++;
            rw->rows += ev.size;
            rw->finish = t;
            r->rows_done += ev.size;
            if (r->rows_done == I)
                r->rec->finish = t;
            break;
        }
        }
    }
    if (r->rows_done < I)
        return fail(r, "the simulation stalled: no event left before the end");
    return 0;
}

int sim_run(const sim_config *c, record *rec, char *msg, size_t len)
{
    const sim_platform *pf = c->platform;
    run r = {.c = c, .pf = pf, .wl = c->workload, .rec = rec, .n = pf->nhosts,
             .msg = msg, .len = len};
    if (pf->nhosts < 1 || rec->nw != pf->nhosts) {
        snprintf(msg, len, "record for %d workers, platform has %d hosts", rec->nw,
                 pf->nhosts);
        return -1;
    }
    if (c->tree)
        for (int i = 0; i < pf->nhosts; i++)
            if (pf->hosts[i].fail >= 0) {
                snprintf(msg, len, "host %s: fail= is not simulated for tree",
                         pf->hosts[i].name);
                return -1;
            }
    r.w = calloc((size_t)r.n, sizeof *r.w);
    if (!r.w) {
        snprintf(msg, len, "out of memory for %d workers", r.n);
        return -1;
    }
    double slowest = pf->hosts[0].speed;
    for (int i = 0; i < r.n; i++)
        if (pf->hosts[i].speed < slowest)
            slowest = pf->hosts[i].speed;
    for (int i = 0; i < r.n; i++) {
        r.w[i].h = &pf->hosts[i];
        rec_worker *rw = &rec->w[i];
        snprintf(rw->host, sizeof rw->host, "%s", pf->hosts[i].name);
        snprintf(rw->seen_host, sizeof rw->seen_host, "%s", pf->hosts[i].name);
        snprintf(rw->cgroup, sizeof rw->cgroup, "%s", pf->hosts[i].cluster);
        snprintf(rw->backend, sizeof rw->backend, "sim");
        rw->tid = i + 1;
        rw->V = pf->hosts[i].speed / slowest;
    }
    snprintf(rec->scheme, sizeof rec->scheme, "%s",
             c->tree ? "tree" : c->sched.type->name);
    rec->rows = c->workload->n;
    rec->sample = c->workload->sample;
    rec->width = c->workload->width;
    rec->height = c->workload->height;
    rec->maxiter = c->workload->maxiter;
    int rc = c->tree ? run_tree(&r) : run_self(&r);
    policy_free(r.p);
    free(r.h.e);
    free(r.w);
    free(r.chain);
    return rc;
}
