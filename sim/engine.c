/* engine.c: the simulator's discrete events (sim.h): the event queue, the
 * hosts' speed under load, message delays, the master's service, and
 * sim_run, which sets a run up and hands it to self.c or tree.c. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sim/engine.h"
#include "sim/select.h"

void sim_config_init(sim_config *c)
{
    memset(c, 0, sizeof *c);
    c->message_bytes = 64;
    c->remeasure = 0.2;
    c->ahead = SCHED_AHEAD_DEFAULT;
}

int sim_fail(run *r, const char *what)
{
    snprintf(r->msg, r->len, "%s", what);
    return -1;
}

/* The heap holds small keys, the events wait in a pool (a heap of 10^6
 * events of 112 bytes would move them at every step). Earlier first; at
 * the same time, first made first: deterministic. */
typedef struct key {
    double t;
    long seq, slot;
} key;

static int before(const void *a, const void *b, void *ctx)
{
    (void)ctx;
    const key *x = a, *y = b;
    return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

int sim_post(run *r, event ev)
{
    if (!(ev.t <= SIM_TIME_MAX)) {      /* infinity and NaN included */
        snprintf(r->msg, r->len, "the run cannot end: simulated time %g s is past the "
                 "limit of %g s (31 years): the workload's costs are too large "
                 "for the hosts' speeds, or the links' latencies or byte counts too "
                 "large", ev.t, SIM_TIME_MAX);
        return -1;
    }
    ev.seq = r->seq++;
    long slot;
    if (r->nfree > 0)
        slot = r->free_slots[--r->nfree];
    else {
        if ((r->npool & (r->npool - 1)) == 0) {     /* 0, 1, 2, 4, ...: grow */
            size_t cap = r->npool ? 2 * (size_t)r->npool : 1;
            event *p = realloc(r->pool, sizeof *p * cap);
            if (p)
                r->pool = p;
            long *f = realloc(r->free_slots, sizeof *f * cap);
            if (f)
                r->free_slots = f;
            if (!p || !f)
                return sim_fail(r, "out of memory for events");
        }
        slot = r->npool++;
    }
    r->pool[slot] = ev;
    key k = {ev.t, ev.seq, slot};
    if (heap_push(&r->h, &k) != 0) {
        r->free_slots[r->nfree++] = slot;
        return sim_fail(r, "out of memory for events");
    }
    return 0;
}

int sim_pop(run *r, event *ev)
{
    key k;
    if (!heap_pop(&r->h, &k))
        return 0;
    *ev = r->pool[k.slot];
    r->free_slots[r->nfree++] = k.slot;
    return 1;
}

/* ---- hosts: load over time ------------------------------------------------- */

int sim_extra_at(const sim_host *h, double t)
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

double sim_advance(const sim_host *h, double t, double work)
{
    if (!isfinite(t) || !isfinite(work) || work < 0)
        return INFINITY;                /* sim_post refuses it: never a loop */
    for (;;) {
        double speed = h->speed / (1 + sim_extra_at(h, t));
        double until = next_change(h, t);
        if (!(speed > 0))
            return INFINITY;            /* a speed that underflowed to 0 */
        if (work <= speed * (until - t))
            return t + work / speed;
        work -= speed * (until - t);
        t = until;                      /* finite: against INFINITY the test holds */
    }
}

double sim_cpu_run(const sim_host *h, sim_cpu *st, double t, double work)
{
    if (!(h->quota > 0))
        return sim_advance(h, t, work);
    if (!isfinite(t) || !isfinite(work) || work < 0)
        return INFINITY;
    const double P = h->period, Q = h->quota, C = h->speed * P / Q;
    for (;;) {
        double k = floor(t / P), start = k * P, end = start + P, until = next_change(h, t);
        if (end <= t) {                 /* (t / P rounded below a boundary) */
            k += 1;
            start = end;
            end = start + P;
        }
        int extra = sim_extra_at(h, t);
        if (st->k != k) {
            st->k = k;
            st->used = 0;
        }
        if (extra > 0) {                /* the others use the quota from the start */
            st->used = t - start < Q ? t - start : Q;
            double qend = start + Q, stop = qend < until ? qend : until;
            if (t < stop) {
                double rate = C / (1 + extra), u;
                if (work <= rate * (stop - t)) {
                    u = t + work / rate;
                    st->used = u - start < Q ? u - start : Q;
                    return u;
                }
                work -= rate * (stop - t);
                t = stop;
                st->used = t - start < Q ? t - start : Q;
                continue;
            }
        } else if (st->used < Q) {      /* alone: its own quota left */
            double stop = t + (Q - st->used);
            stop = stop < end ? stop : end;
            stop = stop < until ? stop : until;
            if (work <= C * (stop - t)) {
                st->used += work / C;
                return t + work / C;
            }
            if (stop > t) {
                work -= C * (stop - t);
                st->used += stop - t;
                t = stop;
                continue;
            }
            st->used = Q;               /* what is left is below the clock's step */
        }
        double next = end < until ? end : until;       /* throttled */
        if (!(next > t))
            next = end;
        t = next;
        if (t > SIM_TIME_MAX)
            return INFINITY;
    }
}

double sim_work_between(const sim_host *h, double t0, double t1)
{
    double work = 0;
    if (!isfinite(t1))
        return INFINITY;
    while (t0 < t1) {
        double until = next_change(h, t0);
        double end = until < t1 ? until : t1;
        work += h->speed / (1 + sim_extra_at(h, t0)) * (end - t0);
        t0 = end;
    }
    return work;
}

/* ---- messages ----------------------------------------------------------------- */

double sim_delay(const run *r, const char *a, const char *b, double bytes)
{
    const sim_link *l = sim_link_between(r->pf, a, b);
    return l->latency + (l->bandwidth > 0 ? bytes / l->bandwidth : 0);
}

double sim_from_worker(run *r, int w, const char *cluster, double t, double bytes)
{
    sworker *x = &r->w[w];
    const sim_link *l = sim_link_between(r->pf, x->h->cluster, cluster);
    double start = t > x->link_free ? t : x->link_free;
    x->link_free = start + (l->bandwidth > 0 ? bytes / l->bandwidth : 0);
    return x->link_free + l->latency;   /* in the order sent: link_free only grows */
}

double sim_to_master(run *r, int w, double t, double bytes)
{
    return sim_from_worker(r, w, r->pf->master, t, bytes);
}

/* ---- what messages cost a worker's host ------------------------------------------------ */

sim_cpu *sim_cpu_of(run *r, int w)
{
    static sim_cpu none;                /* never written: no quota */
    return r->cpu ? &r->cpu[w] : &none;
}

double sim_sent(const run *r, int w, sim_cpu *cpu, double t, double bytes)
{
    return r->c->send_cost > 0 ? sim_cpu_run(r->w[w].h, cpu, t, bytes * r->c->send_cost) : t;
}

double sim_woken(const run *r, int w, double t)
{
    const sim_host *h = r->w[w].h;
    double units = r->c->wake + r->c->wake_load * sim_extra_at(h, t);
    return units > 0 ? t + units / h->speed : t;
}

double sim_from_master(const run *r, int w, double t, double bytes)
{
    return t + sim_delay(r, r->pf->master, r->w[w].h->cluster, bytes);
}

int sim_master_take(run *r, event *ev)
{
    if (ev->t < r->master_free) {
        ev->t = r->master_free;
        return sim_post(r, *ev) == 0 ? 0 : -1;
    }
    r->master_free = ev->t + r->c->master_overhead;
    return 1;
}

/* ---- a run ----------------------------------------------------------------------- */

/* The record's description of the run and its workers. */
static int describe(run *r)
{
    const sim_platform *pf = r->pf;
    const sim_config *c = r->c;
    record *rec = r->rec;
    double *speed = malloc(sizeof *speed * (size_t)r->n);
    double *V = malloc(sizeof *V * (size_t)r->n);
    if (!speed || !V) {
        free(speed);
        free(V);
        return sim_fail(r, "out of memory");
    }
    for (int i = 0; i < r->n; i++)
        speed[i] = pf->hosts[i].speed;
    sched_speeds(speed, r->n, V);
    for (int i = 0; i < r->n; i++) {
        rec_worker *rw = &rec->w[i];
        if (record_text(&rw->host, pf->hosts[i].name, REC_HOST_MAX) != 0 ||
            record_text(&rw->seen_host, pf->hosts[i].name, REC_HOST_MAX) != 0 ||
            record_text(&rw->cgroup, pf->hosts[i].cluster, REC_CGROUP_MAX) != 0) {
            free(speed);
            free(V);
            return sim_fail(r, "out of memory");
        }
        strcpy(rw->backend, "sim");
        rw->tid = i + 1;
        rw->V = V[i];
    }
    free(speed);
    free(V);
    snprintf(rec->scheme, sizeof rec->scheme, "%s", c->tree ? "tree" : c->autosel ?
             SIM_AUTO_NAME : c->sched.type->name);
    rec->iters = c->workload->n;
    rec->sample = c->workload->sample;
    char msg[200], text[32];
    const sim_workload *wl = c->workload;
    if (wl->width > 0) {
        snprintf(text, sizeof text, "%d", wl->width);
        record_field(rec, "width", text, msg, sizeof msg);
        snprintf(text, sizeof text, "%d", wl->height);
        record_field(rec, "height", text, msg, sizeof msg);
        snprintf(text, sizeof text, "%u", wl->maxiter);
        record_field(rec, "maxiter", text, msg, sizeof msg);
        record_field(rec, "loop", wl->columns ? "columns" : "rows", msg, sizeof msg);
    }
    if (!c->tree && c->ahead != 0)      /* (off: the record as before) */
        record_field(rec, "ahead", sched_ahead_text(c->ahead, text, sizeof text), msg,
                     sizeof msg);
    /* The workload's description, when it fits a record field. */
    record_field(rec, "workload", wl->desc, msg, sizeof msg);
    return 0;
}

int sim_too_many(run *r)
{
    snprintf(r->msg, r->len, "the run passed %.0e chunks, the simulator's limit "
             "(SIM_MAX_CHUNKS: days of computing; docs/sim.md): a scheme of chunks "
             "this small on this many iterations cannot be simulated in a lifetime",
             SIM_MAX_CHUNKS);
    return -1;
}

struct sim {
    run r;
};

sim *sim_open(const sim_config *c, record *rec, char *msg, size_t len)
{
    const sim_platform *pf = c->platform;
    if (pf->nhosts < 1 || rec->nw != pf->nhosts) {
        snprintf(msg, len, "record for %d workers, platform has %d hosts", rec->nw,
                 pf->nhosts);
        return NULL;
    }
    sim *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(msg, len, "out of memory");
        return NULL;
    }
    run *r = &s->r;
    *r = (run){.c = c, .pf = pf, .wl = c->workload, .rec = rec, .n = pf->nhosts,
               .msg = msg, .len = len, .state = 1};
    int fed = !c->tree && (sched_type_fed(c->sched.type) || c->autosel);
    r->w = calloc((size_t)r->n, sizeof *r->w);
    if (fed)
        r->meas = calloc((size_t)r->n, sizeof *r->meas);
    int ahead = !c->tree && c->ahead != 0, quotas = 0;
    if (ahead)
        r->ah = calloc((size_t)r->n, sizeof *r->ah);
    for (int i = 0; i < r->n && !quotas; i++)
        quotas = pf->hosts[i].quota > 0;
    if (quotas)
        r->cpu = calloc((size_t)r->n, sizeof *r->cpu);
    heap_init(&r->h, sizeof(key), before, NULL);
    if (!r->w || (fed && !r->meas) || (ahead && !r->ah) || (quotas && !r->cpu)) {
        sim_close(s);
        snprintf(msg, len, "out of memory for %d workers", pf->nhosts);
        return NULL;
    }
    for (int i = 0; i < r->n; i++)
        r->w[i].h = &pf->hosts[i];
    if (describe(r) != 0 || (c->tree ? sim_tree_start(r) : sim_self_start(r)) != 0) {
        sim_close(s);
        return NULL;
    }
    return s;
}

int sim_iterate(sim *s, long events)
{
    run *r = &s->r;
    event ev;
    for (long k = 0; r->state == 1 && k < events; k++) {
        if (r->finished || !sim_pop(r, &ev)) {
            r->state = (r->c->tree ? sim_tree_end(r) : sim_self_end(r)) == 0 ? 0 : -1;
            break;
        }
        r->now = ev.t;
        r->events++;
        if ((r->c->tree ? sim_tree_event(r, &ev) : sim_self_event(r, &ev)) != 0)
            r->state = -1;
    }
    if (r->state == 1 && r->finished)
        r->state = 0;
    return r->state;
}

void sim_status_get(const sim *s, sim_status *st)
{
    const run *r = &s->r;
    long done = 0;
    for (int w = 0; w < r->n; w++)
        done += r->rec->w[w].iters;
    *st = (sim_status){.iterations = r->wl->n, .done = done, .chunks = r->rec->nchunks,
                       .events = r->events, .t = r->now,
                       .decisions = r->au ? sim_auto_decisions(r->au) : 0,
                       .decision_cpu = r->au ? sim_auto_cpu(r->au) : 0};
}

void sim_close(sim *s)
{
    if (!s)
        return;
    run *r = &s->r;
    policy_free(r->p);
    sim_auto_free(r->au);
    tree_free(r->t);
    heap_free(&r->h);
    free(r->pool);
    free(r->free_slots);
    free(r->w);
    free(r->meas);
    free(r->ah);
    free(r->cpu);
    free(r->tw);
    free(s);
}

int sim_run(const sim_config *c, record *rec, char *msg, size_t len)
{
    sim *s = sim_open(c, rec, msg, len);
    if (!s)
        return -1;
    int rc;
    while ((rc = sim_iterate(s, 1L << 20)) == 1)
        ;
    sim_close(s);
    return rc == 0 ? 0 : -1;
}
