/* policy.c: ACPSA, request queue, re-plan rule and lost chunks (policy.h).
 *
 * Every event costs O(1) but for the rare ones (start, re-plan, a lost
 * worker), so the simulator can drive tens of thousands of workers: the
 * re-plan rule keeps its counts up to date as A_i reports arrive. */
#include <stdlib.h>
#include <string.h>

#include "sched_impl.h"
#include "policy.h"

typedef struct range { long start, size; } range;

typedef struct pworker {
    double cur;                 /* latest A_i */
    double plan;                /* A_i at the last plan (the ACPSA) */
    char alive, waiting;        /* not lost; a request queued */
    char reported;              /* it has reported at least once */
    policy_chunk *out;          /* its outstanding chunks (one, as a rule) */
    int nout, capout;
} pworker;

struct policy {
    sched_config cfg;
    sched *s;                   /* created by policy_start */
    int n, live, changed;       /* workers; not lost; live with cur != plan */
    int unreported;             /* live workers yet to report once */
    pworker *w;
    int *queue, qhead, qlen;    /* ring of n worker indices */
    sched_rank *scratch;        /* n entries for sorting */
    range *pool;                /* lost chunks to serve again */
    int npool, cappool;
    long next_id, done, I;
    int replans, dtss;
    double power;               /* total A_i of the last plan */
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
    p->w = calloc((size_t)nworkers, sizeof *p->w);
    p->queue = calloc((size_t)nworkers, sizeof *p->queue);
    p->scratch = calloc((size_t)nworkers, sizeof *p->scratch);
    if (!p->w || !p->queue || !p->scratch)
        goto nomem;
    for (int i = 0; i < nworkers; i++)
        p->w[i].alive = 1;
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

/* Takes a new A_i for worker w, keeping the count of changed ones. */
static void set_power(policy *p, int w, double acp)
{
    pworker *x = &p->w[w];
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
        p->cfg.P = able;
        p->cfg.A = A;
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
    if (w < 0 || w >= p->n)
        return sched_fail(err, SCHED_EINVAL, "policy: no worker %d", w);
    pworker *x = &p->w[w];
    if (!x->alive)
        return sched_fail(err, SCHED_EINVAL, "policy: worker %d was lost", w);
    if (x->waiting)
        return sched_fail(err, SCHED_EINVAL,
                          "policy: worker %d already has a request queued", w);
    /* The other schemes know nothing of loads: every able worker counts as
     * A_i = 1, for the queue order as for the chunk size. */
    set_power(p, w, acp > 0 ? (p->dtss ? acp : 1.0) : 0);
    if (!x->reported) {
        x->reported = 1;
        p->unreported--;
    }
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

int policy_assign(policy *p, policy_chunk *out, sched_err *err)
{
    if (!p->s || p->qlen == 0)
        return 0;
    if (p->npool == 0 && sched_remaining(p->s) == 0)
        return 0;
    int w = p->queue[p->qhead];
    pworker *x = &p->w[w];
    if (x->nout == x->capout) {
        int cap = x->capout ? 2 * x->capout : 1;
        policy_chunk *o = realloc(x->out, sizeof *o * (size_t)cap);
        if (!o)
            return sched_fail(err, SCHED_ENOMEM, "policy: out of memory for "
                              "worker %d's chunks", w), -1;
        x->out = o;
        x->capout = cap;
    }
    policy_chunk c = {.id = p->next_id, .worker = w, .acp = 1.0};
    if (p->npool > 0) {
        range r = p->pool[--p->npool];
        c.start = r.start;
        c.size = r.size;
        c.reissue = 1;
    } else {
        c.acp = x->cur;
        c.size = sched_next(p->s, c.acp, &c.start);
        if (c.size <= 0)
            return 0;
    }
    x->out[x->nout++] = c;
    p->qhead = (p->qhead + 1) % p->n;
    p->qlen--;
    x->waiting = 0;
    p->next_id++;
    *out = c;
    return 1;
}

int policy_done(policy *p, int w, long id, sched_err *err)
{
    if (w >= 0 && w < p->n) {
        pworker *x = &p->w[w];
        for (int i = 0; i < x->nout; i++)
            if (x->out[i].id == id) {
                p->done += x->out[i].size;
                x->out[i] = x->out[--x->nout];
                return SCHED_OK;
            }
    }
    return sched_fail(err, SCHED_EINVAL,
                      "policy: chunk %ld is not outstanding at worker %d", id, w);
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
        if (p->npool == p->cappool) {
            int cap = p->cappool ? 2 * p->cappool : 8;
            range *r = realloc(p->pool, sizeof *r * (size_t)cap);
            if (!r)
                return sched_fail(err, SCHED_ENOMEM, "policy: out of memory for "
                                  "worker %d's lost chunks", w), -1;
            p->pool = r;
            p->cappool = cap;
        }
        policy_chunk *c = &x->out[--x->nout];
        p->pool[p->npool++] = (range){c->start, c->size};
        returned++;
    }
    return returned;
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
