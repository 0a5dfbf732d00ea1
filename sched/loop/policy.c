/* policy.c: ACPSA, request queue, re-plan rule, lost and late chunks
 * (policy.h).
 *
 * Every event costs O(1) but for the rare ones (start, re-plan, a lost
 * worker, a late chunk), so the simulator can drive tens of thousands of
 * workers: the re-plan rule keeps its counts up to date as A_i reports
 * arrive. Late chunks are looked for only by a request that has nothing
 * else to take (the tail of the run), among the outstanding chunks. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched/late/late.h"
#include "sched/loop/meas.h"
#include "sched/loop/policy.h"
#include "sched/sched.h"

typedef policy_range range;

/* An outstanding chunk. The copies of one range (a late chunk served again)
 * share a group: the id of the first; 'shared' once there were copies. */
typedef struct outchunk {
    policy_chunk c;
    double sent;                /* policy_now when assigned */
    long group;
    char shared;
} outchunk;

typedef struct pworker {
    double acp;                 /* the A_i it reported last */
    double cur;                 /* latest A_i as the scheme takes it */
    double plan;                /* A_i at the last plan (the ACPSA) */
    char alive, waiting;        /* not lost; a request queued */
    char reported;              /* it has reported at least once */
    char late;                  /* a chunk of it served again as late; silent since */
    outchunk *out;              /* its outstanding chunks (one, as a rule) */
    int nout, capout;
    late_rate rate;             /* its completed chunks: iterations, seconds */
    double speed;               /* V_i (policy_set_speed; default 1) */
    int sidx;                   /* its index in the scheme (-1: none) */
} pworker;

/* A worker's measurement before it has one (and every worker's, for the
 * schemes not fed measurements). */
static const sched_request no_meas = {.mu = NAN, .sigma = NAN};

struct policy {
    sched_config cfg;
    sched *s;                   /* created by policy_start */
    int n, live, changed;       /* workers; not lost; live with cur != plan */
    int unreported;             /* live workers yet to report once */
    pworker *w;
    sched_request *meas;        /* each worker's latest measurement (mu, sigma,
                                   n, rate); the schemes fed only, else NULL */
    int *queue, qhead, qlen;    /* ring of n worker indices */
    sched_rank *scratch;        /* n entries for sorting */
    range *pool;                /* lost chunks to serve again */
    int npool, cappool;
    long next_id, done, I;
    long base;                  /* the scheme plans [base, I) (policy_resume) */
    int replans, dtss;
    int adaptive;               /* the scheme takes measurements (next_w, done) */
    int by_speed;               /* it weighs workers by V_i (sched_type) */
    double power;               /* total A_i of the last plan */
    late_rule late;             /* late chunks (factor 0: off; sched/late/late.h) */
    double now;                 /* policy_now */
    late_rate rate;             /* every completed chunk: iterations, seconds */
};

policy *policy_new(const sched_config *cfg, int nworkers, sched_err *err)
{
    if (nworkers < 1) {
        sched_fail(err, SCHED_EINVAL, "policy: %d workers, need at least 1",
                   nworkers);
        return NULL;
    }
    policy *p = calloc(1, sizeof *p);
    if (!p)
        goto nomem;
    p->cfg = *cfg;
    p->n = p->live = p->unreported = nworkers;
    p->I = cfg->I;
    p->dtss = cfg->type && cfg->type->replan != NULL;
    p->adaptive = sched_type_fed(cfg->type);
    p->by_speed = cfg->type && cfg->type->by_speed;
    p->w = calloc((size_t)nworkers, sizeof *p->w);
    p->queue = calloc((size_t)nworkers, sizeof *p->queue);
    p->scratch = calloc((size_t)nworkers, sizeof *p->scratch);
    if (p->adaptive)
        p->meas = calloc((size_t)nworkers, sizeof *p->meas);
    if (!p->w || !p->queue || !p->scratch || (p->adaptive && !p->meas))
        goto nomem;
    for (int i = 0; i < nworkers; i++) {
        p->w[i] = (pworker){.alive = 1, .speed = 1, .sidx = -1};
        if (p->meas)
            p->meas[i] = no_meas;
    }
    return p;
nomem:
    policy_free(p);
    sched_fail(err, SCHED_ENOMEM, "policy: out of memory for %d workers",
               nworkers);
    return NULL;
}

void policy_free(policy *p)
{
    if (!p)
        return;
    sched_free(p->s);
    if (p->w)
        for (int i = 0; i < p->n; i++)
            free(p->w[i].out);
    free(p->w);
    free(p->meas);
    free(p->queue);
    free(p->scratch);
    free(p->pool);
    free(p);
}

/* Re-sorts the queued requests by decreasing A_i of the plan. */
static void sort_queue(policy *p)
{
    for (int i = 0; i < p->qlen; i++) {
        int w = p->queue[(p->qhead + i) % p->n];
        p->scratch[i] = (sched_rank){p->w[w].plan, w};
    }
    sched_rank_sort(p->scratch, (size_t)p->qlen);
    p->qhead = 0;
    for (int i = 0; i < p->qlen; i++)
        p->queue[i] = p->scratch[i].w;
}

/* Takes a new A_i for worker w, keeping the count of changed ones. The
 * schemes but DTSS know nothing of loads: every able worker counts as
 * A_i = 1 (the weighted ones: V_i), for the queue order as for the chunk
 * size. */
static double taken(int dtss, int by_speed, const pworker *x, double acp)
{
    return acp > 0 ? (dtss ? acp : by_speed ? x->speed : 1.0) : 0;
}

static void set_power(policy *p, int w, double acp)
{
    pworker *x = &p->w[w];
    x->acp = acp;
    acp = taken(p->dtss, p->by_speed, x, acp);
    int before = x->cur != x->plan, after = acp != x->plan;
    x->cur = acp;
    p->changed += after - before;
}

/* Makes the ACPSA the current A_i of every worker and re-plans (when s). */
static int new_plan(policy *p, sched_err *err)
{
    double A = 0;
    int able = 0;
    for (int w = 0; w < p->n; w++) {
        pworker *x = &p->w[w];
        x->plan = x->cur;
        if (x->alive && x->cur > 0) {
            A += x->cur;
            able++;
        }
    }
    p->changed = 0;
    p->power = A;
    sort_queue(p);
    if (!(A > 0))
        return sched_fail(err, SCHED_EINVAL, "policy: no worker reported A_i > 0");
    if (!p->s) {                            /* the first plan */
        for (int w = 0, k = 0; w < p->n; w++)
            p->w[w].sidx = p->w[w].alive && p->w[w].cur > 0 ? k++ : -1;
        p->cfg.P = able;
        p->cfg.A = A;
        p->cfg.I = p->I - p->base;
        p->s = sched_new(&p->cfg, err);
        return p->s ? SCHED_OK : (err ? err->code : SCHED_EINVAL);
    }
    return sched_replan(p->s, A, err);
}

/* The re-plan rule (Sec. 5.3, step 2): more than half of the live workers'
 * A_i changed since the last plan -> new ACPSA, queue order and plan. */
static void maybe_replan(policy *p)
{
    if (!p->s || !p->dtss || 2 * p->changed <= p->live)
        return;
    if (new_plan(p, NULL) == SCHED_OK)
        p->replans++;
}

int policy_request(policy *p, int w, double acp, sched_err *err)
{
    sched_request rq = {w, acp, NAN, NAN, 0, 0};
    return policy_request_m(p, &rq, err);
}

int policy_set_speed(policy *p, int w, double V, sched_err *err)
{
    if (w < 0 || w >= p->n)
        return sched_fail(err, SCHED_EINVAL, "policy: no worker %d", w);
    if (!(V > 0) || !isfinite(V))
        return sched_fail(err, SCHED_EINVAL, "policy: worker %d's speed V_i = %g "
                          "must be > 0", w, V);
    if (p->s)
        return sched_fail(err, SCHED_EINVAL, "policy: worker %d's speed set after "
                          "the start", w);
    p->w[w].speed = V;
    return SCHED_OK;
}

int policy_request_m(policy *p, const sched_request *rq, sched_err *err)
{
    int w = rq->worker;
    double acp = rq->acp;
    if (w < 0 || w >= p->n)
        return sched_fail(err, SCHED_EINVAL, "policy: no worker %d", w);
    pworker *x = &p->w[w];
    if (!x->alive)
        return sched_fail(err, SCHED_EINVAL, "policy: worker %d was lost", w);
    if (x->waiting)
        return sched_fail(err, SCHED_EINVAL,
                          "policy: worker %d already has a request queued", w);
    if (!sched_meas_ok(rq))
        return sched_fail(err, SCHED_EINVAL, "policy: worker %d's measurement "
                          "mu=%g sigma=%g n=%ld rate=%g: times and rate >= 0 over "
                          "n >= 0 iterations", w, rq->mu, rq->sigma, rq->n, rq->rate);
    set_power(p, w, acp);
    if (rq->n > 0 && p->meas)               /* no chunk since: keep the last */
        p->meas[w] = *rq;
    if (!x->reported) {
        x->reported = 1;
        p->unreported--;
    }
    x->late = 0;
    if (acp > 0) {
        p->queue[(p->qhead + p->qlen++) % p->n] = w;
        x->waiting = 1;
    }
    maybe_replan(p);
    return SCHED_OK;
}

int policy_ready(const policy *p)
{
    return !p->s && p->unreported == 0 && p->qlen > 0;
}

int policy_started(const policy *p)
{
    return p->s != NULL;
}

int policy_start(policy *p, sched_err *err)
{
    if (p->s)
        return sched_fail(err, SCHED_EINVAL, "policy: started already");
    return new_plan(p, err);
}

/* Late at its worker's rate, or the run's (sched/late/late.h): never before a
 * chunk was completed somewhere. */
static int is_late(const policy *p, const outchunk *o)
{
    return late_is(&p->late, &p->w[o->c.worker].rate, &p->rate, (double)o->c.size, o->sent,
                   p->now);
}

/* Points o at every outstanding copy of group g in turn (a scan of every
 * worker's outstanding chunks: only for late chunks, which are rare). */
#define FOR_GROUP(p, g, o)                                                    \
    for (int v_ = 0; v_ < (p)->n; v_++)                                       \
        for (int i_ = 0; i_ < (p)->w[v_].nout; i_++)                          \
            if ((o = &(p)->w[v_].out[i_])->group == (g))

/* A late chunk to copy for requester w: the oldest (lowest id) whose copies
 * are all late, of which w holds none. NULL when there is none. */
static const outchunk *find_late(const policy *p, int w)
{
    const outchunk *best = NULL;
    for (int v = 0; v < p->n; v++)
        for (int i = 0; i < p->w[v].nout; i++) {
            const outchunk *o = &p->w[v].out[i], *g;
            if (v == w || (best && best->c.id <= o->c.id) || !is_late(p, o))
                continue;
            int ok = 1;
            if (o->shared)
                FOR_GROUP(p, o->group, g)
                    ok &= g->c.worker != w && is_late(p, g);
            if (ok)
                best = o;
        }
    return best;
}

int policy_assign(policy *p, policy_chunk *out, sched_err *err)
{
    if (!p->s || p->qlen == 0)
        return 0;
    int w = p->queue[p->qhead];
    pworker *x = &p->w[w];
    const outchunk *late = NULL;
    if (p->npool == 0 && sched_remaining(p->s) == 0 &&
        (p->late.factor <= 0 || !(late = find_late(p, w))))
        return 0;
    if (x->nout == x->capout) {
        int cap = x->capout ? 2 * x->capout : 1;
        outchunk *o = realloc(x->out, sizeof *o * (size_t)cap);
        if (!o)                 /* ('late' is another worker's: not moved) */
            return sched_fail(err, SCHED_ENOMEM, "policy: out of memory for "
                              "worker %d's chunks", w), -1;
        x->out = o;
        x->capout = cap;
    }
    outchunk o = {.c = {.id = p->next_id, .worker = w, .acp = 1.0},
                  .sent = p->now, .group = p->next_id};
    if (p->npool > 0) {
        range r = p->pool[--p->npool];
        o.c.start = r.start;
        o.c.size = r.size;
        o.c.reissue = 1;
    } else if (late) {
        o.c.start = late->c.start;
        o.c.size = late->c.size;
        o.c.acp = late->c.acp;
        o.c.reissue = o.c.late = 1;
        o.c.of = late->c.id;
        o.group = late->group;
        o.shared = 1;
        outchunk *g;
        FOR_GROUP(p, o.group, g) {
            g->shared = 1;
            p->w[g->c.worker].late = 1;
        }
    } else {
        o.c.acp = x->cur;
        sched_request rq = p->meas ? p->meas[w] : no_meas;
        rq.worker = x->sidx < 0 ? SCHED_ANY_WORKER : x->sidx;
        rq.acp = x->cur;
        o.c.size = sched_next_w(p->s, &rq, &o.c.start);
        if (o.c.size <= 0)
            return 0;
        o.c.start += p->base;
    }
    x->out[x->nout++] = o;
    p->qhead = (p->qhead + 1) % p->n;
    p->qlen--;
    x->waiting = 0;
    p->next_id++;
    *out = o.c;
    return 1;
}

int policy_done(policy *p, int w, long id, sched_err *err)
{
    return policy_done_w(p, w, id, NAN, err);
}

int policy_done_w(policy *p, int w, long id, double work, sched_err *err)
{
    if (w >= 0 && w < p->n) {
        pworker *x = &p->w[w];
        for (int i = 0; i < x->nout; i++)
            if (x->out[i].c.id == id) {
                outchunk o = x->out[i];
                x->out[i] = x->out[--x->nout];
                double t = p->now - o.sent;
                if (p->adaptive && x->sidx >= 0 && p->s)
                    sched_done(p->s, x->sidx, o.c.size,
                               work >= 0 && isfinite(work) ? work : t, t);
                p->done += o.c.size;
                late_add(&x->rate, &p->rate, (double)o.c.size, t);
                x->late = 0;
                if (o.shared)               /* first in: the other copies */
                    for (int v = 0; v < p->n; v++)      /* are not outstanding */
                        for (int k = 0; k < p->w[v].nout; k++)
                            if (p->w[v].out[k].group == o.group)
                                p->w[v].out[k--] = p->w[v].out[--p->w[v].nout];
                return SCHED_OK;
            }
    }
    return sched_fail(err, SCHED_EINVAL,
                      "policy: chunk %ld is not outstanding at worker %d", id, w);
}

/* Appends [start, start + size) to the pool. 0, or -1 out of memory. */
static int pool_add(policy *p, long start, long size)
{
    if (p->npool == p->cappool) {
        int cap = p->cappool ? 2 * p->cappool : 8;
        range *r = realloc(p->pool, sizeof *r * (size_t)cap);
        if (!r)
            return -1;
        p->pool = r;
        p->cappool = cap;
    }
    p->pool[p->npool++] = (range){start, size};
    return 0;
}

int policy_lost(policy *p, int w, sched_err *err)
{
    if (w < 0 || w >= p->n || !p->w[w].alive)
        return 0;
    pworker *x = &p->w[w];
    if (x->cur != x->plan)
        p->changed--;
    x->alive = 0;
    p->live--;
    if (!x->reported)
        p->unreported--;
    if (x->waiting) {                       /* drop its queued request */
        int k = 0;
        for (int i = 0; i < p->qlen; i++) {
            int v = p->queue[(p->qhead + i) % p->n];
            if (v != w)
                p->scratch[k++].w = v;
        }
        for (int i = 0; i < k; i++)
            p->queue[i] = p->scratch[i].w;
        p->qhead = 0;
        p->qlen = k;
        x->waiting = 0;
    }
    int returned = 0;
    while (x->nout > 0) {
        outchunk *c = &x->out[x->nout - 1], *g;
        int copies = 0;                     /* another copy still out: no need */
        if (c->shared)
            FOR_GROUP(p, c->group, g)
                copies += g != c;
        if (copies == 0) {
            if (pool_add(p, c->c.start, c->c.size) != 0)
                return sched_fail(err, SCHED_ENOMEM, "policy: out of memory for "
                                  "worker %d's lost chunks", w), -1;
            returned++;
        }
        x->nout--;
    }
    x->late = 0;
    return returned;
}

/* Orders ranges by start. */
static int by_start(const void *a, const void *b)
{
    const range *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

policy_range *policy_done_sorted(const policy_range *done, long n, long I, const char *who,
                                 long *sum, sched_err *err)
{
    range *r = n >= 0 ? malloc(sizeof *r * (size_t)(n ? n : 1)) : NULL;
    if (!r) {
        sched_fail(err, n < 0 ? SCHED_EINVAL : SCHED_ENOMEM, n < 0 ? "%s: resume with %ld "
                   "ranges" : "%s: out of memory for %ld ranges", who, n);
        return NULL;
    }
    if (n)
        memcpy(r, done, sizeof *r * (size_t)n);
    qsort(r, (size_t)n, sizeof *r, by_start);
    long end = 0;
    *sum = 0;
    for (long i = 0; i < n; i++) {
        const char *bad = r[i].size < 1 || r[i].start < 0 || r[i].start > I - r[i].size ?
                          "outside the loop" : r[i].start < end ? "overlaps another" : NULL;
        if (bad) {
            sched_fail(err, SCHED_EINVAL, "%s: done range [%ld, +%ld) %s (a loop of %ld "
                       "iterations)", who, r[i].start, r[i].size, bad, I);
            free(r);
            return NULL;
        }
        end = r[i].start + r[i].size;
        *sum += r[i].size;
    }
    return r;
}

int policy_resume(policy *p, const policy_range *done, long n, sched_err *err)
{
    if (p->s || p->done > 0 || p->npool > 0)
        return sched_fail(err, SCHED_EINVAL, "policy: resume before the start only, once");
    long sum;
    range *r = policy_done_sorted(done, n, p->I, "policy", &sum, err);
    if (!r)
        return err->code;
    long end = n > 0 ? r[n - 1].start + r[n - 1].size : 0;
    /* The gaps, highest first: the pool is served from its end, lowest first. */
    for (long i = n - 1; i >= 0; i--) {
        long from = i > 0 ? r[i - 1].start + r[i - 1].size : 0;
        if (r[i].start > from && pool_add(p, from, r[i].start - from) != 0) {
            p->npool = 0;
            free(r);
            return sched_fail(err, SCHED_ENOMEM, "policy: out of memory for the gaps");
        }
    }
    free(r);
    p->done = sum;
    p->base = end;
    return SCHED_OK;
}

int policy_measure(policy *p, sched_err *err)
{
    if (p->meas)
        return SCHED_OK;
    p->meas = malloc(sizeof *p->meas * (size_t)p->n);
    if (!p->meas)
        return sched_fail(err, SCHED_ENOMEM, "policy: out of memory for %d workers' "
                          "measurements", p->n);
    for (int i = 0; i < p->n; i++)
        p->meas[i] = no_meas;
    return SCHED_OK;
}

long policy_next(const policy *p)
{
    return p->s ? p->base + (p->cfg.I - sched_remaining(p->s)) : p->base;
}

int policy_switch(policy *p, const sched_config *cfg, sched_err *err)
{
    if (!p->s)
        return sched_fail(err, SCHED_EINVAL, "policy: a switch of scheme before the start");
    if (!cfg->type)
        return sched_fail(err, SCHED_EINVAL, "policy: a switch to no scheme");
    long next = policy_next(p);
    int fed = sched_type_fed(cfg->type);
    if (fed && policy_measure(p, err) != SCHED_OK)
        return SCHED_ENOMEM;
    int dtss = cfg->type->replan != NULL, by_speed = cfg->type->by_speed;
    double A = 0;
    for (int w = 0; w < p->n; w++)      /* each A_i as the new scheme takes it */
        if (p->w[w].alive)
            A += taken(dtss, by_speed, &p->w[w], p->w[w].acp);
    sched_config c = *cfg;
    c.I = p->I - next;
    c.P = p->cfg.P;                     /* the scheme's worker numbers stand */
    c.A = A;
    sched *s = sched_new(&c, err);
    if (!s)                             /* nothing changed */
        return err ? err->code : SCHED_EINVAL;
    sched_free(p->s);
    p->s = s;
    p->cfg = c;
    p->base = next;
    p->adaptive = fed;
    p->dtss = dtss;
    p->by_speed = by_speed;
    for (int w = 0; w < p->n; w++) {    /* the new scheme's ACPSA */
        pworker *x = &p->w[w];
        x->plan = x->cur = taken(dtss, by_speed, x, x->acp);
    }
    p->changed = 0;
    p->power = A;
    sort_queue(p);
    return SCHED_OK;
}

long policy_tail(const policy *p)
{
    return p->I - policy_next(p);
}

const sched_type *policy_scheme(const policy *p)
{
    return p->cfg.type;
}

int policy_worker_alive(const policy *p, int w)
{
    return w >= 0 && w < p->n && p->w[w].alive;
}

int policy_set_late(policy *p, double factor, double min, sched_err *err)
{
    if (!(factor == 0 || factor >= 1) || !(min >= 0))
        return sched_fail(err, SCHED_EINVAL, "policy: late chunks: factor %g, "
                          "min %g s: need factor 0 (off) or >= 1, min >= 0",
                          factor, min);
    p->late = (late_rule){.factor = factor, .min = min};
    return SCHED_OK;
}

void policy_now(policy *p, double now)
{
    p->now = now;
}

int policy_late_worker(const policy *p, int w)
{
    return w >= 0 && w < p->n && p->w[w].late;
}

int policy_finished(const policy *p) { return p->done == p->I; }
long policy_remaining(const policy *p) { return p->I - p->done; }
int policy_replans(const policy *p) { return p->replans; }
double policy_power(const policy *p) { return p->power; }
int policy_queued(const policy *p) { return p->qlen; }
int policy_alive(const policy *p) { return p->live; }

int policy_acpsa(const policy *p, int *order, double *acp)
{
    int k = 0;
    for (int w = 0; w < p->n; w++) {
        if (acp)
            acp[w] = p->w[w].plan;
        if (p->w[w].plan > 0 && p->w[w].alive)
            p->scratch[k++] = (sched_rank){p->w[w].plan, w};
    }
    sched_rank_sort(p->scratch, (size_t)k);
    for (int i = 0; i < k; i++)
        order[i] = p->scratch[i].w;
    return k;
}
