/* policy.c: ACPSA, request queue, re-plan rule and lost chunks (policy.h). */
#include <stdlib.h>
#include <string.h>

#include "sched_impl.h"
#include "policy.h"

typedef struct range { long start, size; } range;

struct policy {
    sched_config cfg;
    sched *s;                   /* created by policy_start */
    int n;
    double *cur;                /* each worker's latest A_i */
    double *plan;               /* each worker's A_i at the last plan (ACPSA) */
    char *alive, *waiting;      /* lost or not; a request queued or not */
    int *queue, qhead, qlen;    /* ring of n worker indices */
    int *scratch;               /* n ints for sort_queue */
    policy_chunk *out;          /* outstanding chunks */
    int nout, capout;
    range *pool;                /* lost chunks to serve again */
    int npool, cappool;
    long next_id, done, I;
    int replans, dtss;
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
    p->n = nworkers;
    p->I = cfg->I;
    p->dtss = cfg->type && cfg->type->replan != NULL;
    p->cur = calloc((size_t)nworkers, sizeof *p->cur);
    p->plan = calloc((size_t)nworkers, sizeof *p->plan);
    p->alive = calloc((size_t)nworkers, 1);
    p->waiting = calloc((size_t)nworkers, 1);
    p->queue = calloc((size_t)nworkers, sizeof *p->queue);
    p->scratch = calloc((size_t)nworkers, sizeof *p->scratch);
    p->capout = nworkers;
    p->out = calloc((size_t)p->capout, sizeof *p->out);
    if (!p->cur || !p->plan || !p->alive || !p->waiting || !p->queue || !p->scratch ||
        !p->out)
        goto nomem;
    memset(p->alive, 1, (size_t)nworkers);
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
    free(p->cur);
    free(p->plan);
    free(p->alive);
    free(p->waiting);
    free(p->queue);
    free(p->scratch);
    free(p->out);
    free(p->pool);
    free(p);
}

static void enqueue(policy *p, int w)
{
    p->queue[(p->qhead + p->qlen++) % p->n] = w;
    p->waiting[w] = 1;
}

/* Re-sorts the queued requests by decreasing A_i of the plan (stable). */
static void sort_queue(policy *p)
{
    int *tmp = p->scratch;
    for (int i = 0; i < p->qlen; i++)
        tmp[i] = p->queue[(p->qhead + i) % p->n];
    for (int i = 1; i < p->qlen; i++) {
        int w = tmp[i], j = i;
        while (j > 0 && p->plan[tmp[j - 1]] < p->plan[w]) {
            tmp[j] = tmp[j - 1];
            j--;
        }
        tmp[j] = w;
    }
    p->qhead = 0;
    for (int i = 0; i < p->qlen; i++)
        p->queue[i] = tmp[i];
}

static double total_power(const policy *p)
{
    double A = 0;
    for (int w = 0; w < p->n; w++)
        if (p->alive[w] && p->cur[w] > 0)
            A += p->cur[w];
    return A;
}

/* The re-plan rule (Sec. 5.3, step 2): more than half of the live workers'
 * A_i changed since the last plan -> new ACPSA, queue order and plan. */
static void maybe_replan(policy *p)
{
    if (!p->s || !p->dtss)
        return;
    int changed = 0, live = 0;
    for (int w = 0; w < p->n; w++)
        if (p->alive[w]) {
            live++;
            changed += p->cur[w] != p->plan[w];
        }
    if (2 * changed <= live)
        return;
    double A = total_power(p);
    if (!(A > 0) || sched_replan(p->s, A, NULL) != SCHED_OK)
        return;
    memcpy(p->plan, p->cur, sizeof *p->plan * (size_t)p->n);
    sort_queue(p);
    p->replans++;
}

int policy_request(policy *p, int w, double acp, sched_err *err)
{
    if (w < 0 || w >= p->n)
        return sched_fail(err, SCHED_EINVAL, "policy: no worker %d", w);
    if (!p->alive[w])
        return sched_fail(err, SCHED_EINVAL, "policy: worker %d was lost", w);
    if (p->waiting[w])
        return sched_fail(err, SCHED_EINVAL,
                          "policy: worker %d already has a request queued", w);
    p->cur[w] = acp > 0 ? acp : 0;
    if (acp > 0)
        enqueue(p, w);
    maybe_replan(p);
    return SCHED_OK;
}

int policy_start(policy *p, sched_err *err)
{
    double A = total_power(p);
    if (!(A > 0))
        return sched_fail(err, SCHED_EINVAL,
                          "policy: no worker reported A_i > 0");
    p->cfg.P = 0;
    for (int w = 0; w < p->n; w++)
        p->cfg.P += p->alive[w] && p->cur[w] > 0;
    p->cfg.A = A;
    sched_free(p->s);
    p->s = sched_new(&p->cfg, err);
    if (!p->s)
        return err ? err->code : SCHED_EINVAL;
    memcpy(p->plan, p->cur, sizeof *p->plan * (size_t)p->n);
    sort_queue(p);
    return SCHED_OK;
}

static int push_out(policy *p, const policy_chunk *c)
{
    if (p->nout == p->capout) {
        policy_chunk *o = realloc(p->out, sizeof *o * (size_t)p->capout * 2);
        if (!o)
            return -1;
        p->out = o;
        p->capout *= 2;
    }
    p->out[p->nout++] = *c;
    return 0;
}

int policy_assign(policy *p, policy_chunk *out)
{
    if (!p->s || p->qlen == 0)
        return 0;
    if (p->npool == 0 && sched_remaining(p->s) == 0)
        return 0;
    int w = p->queue[p->qhead];
    policy_chunk c = {.id = p->next_id, .worker = w, .acp = 1.0};
    if (p->npool > 0) {
        range r = p->pool[--p->npool];
        c.start = r.start;
        c.size = r.size;
        c.reissue = 1;
    } else {
        c.acp = p->dtss ? p->cur[w] : 1.0;
        c.size = sched_next(p->s, c.acp, &c.start);
        if (c.size <= 0)
            return 0;
    }
    if (push_out(p, &c) != 0)
        return 0;
    p->qhead = (p->qhead + 1) % p->n;
    p->qlen--;
    p->waiting[w] = 0;
    p->next_id++;
    *out = c;
    return 1;
}

int policy_done(policy *p, long id, sched_err *err)
{
    for (int i = 0; i < p->nout; i++)
        if (p->out[i].id == id) {
            p->done += p->out[i].size;
            p->out[i] = p->out[--p->nout];
            return SCHED_OK;
        }
    return sched_fail(err, SCHED_EINVAL, "policy: chunk %ld is not outstanding",
                      id);
}

int policy_lost(policy *p, int w)
{
    if (w < 0 || w >= p->n || !p->alive[w])
        return 0;
    p->alive[w] = 0;
    if (p->waiting[w]) {                    /* drop its queued request */
        int k = 0;
        for (int i = 0; i < p->qlen; i++) {
            int v = p->queue[(p->qhead + i) % p->n];
            if (v != w)
                p->queue[k++] = v;
        }
        p->qhead = 0;
        p->qlen = k;
        p->waiting[w] = 0;
    }
    int returned = 0;
    for (int i = 0; i < p->nout;) {
        if (p->out[i].worker != w) {
            i++;
            continue;
        }
        if (p->npool == p->cappool) {
            int cap = p->cappool ? 2 * p->cappool : 8;
            range *r = realloc(p->pool, sizeof *r * (size_t)cap);
            if (!r)
                return returned;            /* chunk stays outstanding */
            p->pool = r;
            p->cappool = cap;
        }
        p->pool[p->npool++] = (range){p->out[i].start, p->out[i].size};
        p->out[i] = p->out[--p->nout];
        returned++;
    }
    return returned;
}

int policy_finished(const policy *p) { return p->done == p->I; }
long policy_remaining(const policy *p) { return p->I - p->done; }
int policy_replans(const policy *p) { return p->replans; }
int policy_queued(const policy *p) { return p->qlen; }

int policy_alive(const policy *p)
{
    int n = 0;
    for (int w = 0; w < p->n; w++)
        n += p->alive[w];
    return n;
}

int policy_acpsa(const policy *p, int *order, double *acp)
{
    int k = 0;
    for (int w = 0; w < p->n; w++) {
        if (acp)
            acp[w] = p->plan[w];
        if (p->plan[w] > 0 && p->alive[w]) {
            int j = k++;
            while (j > 0 && p->plan[order[j - 1]] < p->plan[w]) {
                order[j] = order[j - 1];
                j--;
            }
            order[j] = w;
        }
    }
    return k;
}
