/* alloc_delay.c: the modelled resource manager (alloc.h, "delay", the
 * default): Heymann et al.'s Condor as a fixed allocation delay. Requests
 * are served one worker at a time, first come first served, --delay seconds
 * each (sched/pool/pool.h, pool_arrival: a request made at t arrives at
 * max(t, last) + delay), each onto a free host of the pool; a request that
 * has arrived waits for a free host. Releasing costs nothing. */
#include <stdlib.h>
#include <string.h>

#include "runtime/pool/pool.h"

static int request(dtss_pool *p, double t)
{
    pool_ralloc *r = &p->ra;
    if (r->ndue == r->capdue) {
        int c = r->capdue ? 2 * r->capdue : 16;
        double *d = realloc(r->due, sizeof *d * (size_t)c);
        if (!d)
            return pool_fail(p, DTSS_ENOMEM, "out of memory for %d requests", c);
        r->due = d;
        r->capdue = c;
    }
    double last = r->ndue ? r->due[r->ndue - 1] : t;
    r->due[r->ndue++] = pool_arrival(t, last, p->delay);
    pool_log(p, 2, "t=%.2f a request, to arrive at t=%.2f", t, r->due[r->ndue - 1]);
    return DTSS_OK;
}

static void cancel(dtss_pool *p)
{
    if (p->ra.ndue > 0)
        p->ra.ndue--;
}

static int granted(dtss_pool *p, double t, double *wait)
{
    pool_ralloc *r = &p->ra;
    *wait = -1;
    int s = pool_free_slot(p);
    if (r->ndue == 0 || s < 0)
        return -1;                      /* nothing asked, or a host must come free */
    if (r->due[0] > t) {
        *wait = r->due[0] - t;
        return -1;
    }
    return s;
}

static int took(dtss_pool *p, int s, int ok)
{
    (void)s;
    if (!ok)
        return 0;                       /* the request waits for another host */
    pool_ralloc *r = &p->ra;
    memmove(r->due, r->due + 1, sizeof *r->due * (size_t)--r->ndue);
    return 1;
}

static int due(const dtss_pool *p, double t)
{
    return p->ra.ndue > 0 && p->ra.due[0] <= t;
}

static void release(dtss_pool *p, int s)
{
    (void)p;
    (void)s;
}

static int ended(dtss_pool *p, double t, double *wait)
{
    (void)p;
    (void)t;
    *wait = -1;
    return -1;
}

static void close_(dtss_pool *p)
{
    p->ra.ndue = 0;
    free(p->ra.due);
    p->ra.due = NULL;
    p->ra.capdue = 0;
}

const pool_alloc_type pool_alloc_delay = {
    .name = "delay",
    .request = request,
    .cancel = cancel,
    .granted = granted,
    .took = took,
    .due = due,
    .release = release,
    .ended = ended,
    .close = close_,
};
