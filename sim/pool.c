/* pool.c (sim/): an iterative master-worker run replayed from a trace
 * through a pool strategy (sim/pool.h says the model). Workers are all
 * alike, so the run keeps counts, not identities: workers held, idle, the
 * requests pending (their arrival times, in order) and the tasks running
 * (a heap of their end times). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/util/heap.h"
#include "sim/pool.h"
#include "sim/sim.h"

void sim_pool_config_init(sim_pool_config *c)
{
    memset(c, 0, sizeof *c);
    c->type = &pool_adjust;
    pool_params_init(&c->params);
    c->delay = SIM_POOL_DELAY;
    c->border = 0;
    c->scale = 1;
}

int sim_pool_check(const sim_pool_config *c, const sim_trace *tr, char *msg, size_t len)
{
    if (!c->type) {
        snprintf(msg, len, "no pool strategy given");
        return -1;
    }
    if (!(c->delay >= 0 && c->delay <= SIM_TIME_MAX)) {
        snprintf(msg, len, "allocation delay %g s must be in 0..%g", c->delay, SIM_TIME_MAX);
        return -1;
    }
    if (!(c->border >= 0 && c->border <= SIM_TIME_MAX)) {
        snprintf(msg, len, "border update %g s must be in 0..%g", c->border, SIM_TIME_MAX);
        return -1;
    }
    if (!(c->scale > 0) || !isfinite(c->scale)) {
        snprintf(msg, len, "scale %g must be a number > 0", c->scale);
        return -1;
    }
    for (long k = 0; k < tr->n; k++)
        for (int i = 0; i < tr->parts; i++) {
            double x = sim_trace_cost(tr, k, i);
            if (!isnan(x) && !(x * c->scale <= SIM_TIME_MAX)) {
                snprintf(msg, len, "iteration %ld, part %d: cost %g x scale %g is more "
                         "than %g s", tr->first + k, i + 1, x, c->scale, SIM_TIME_MAX);
                return -1;
            }
        }
    return 0;
}

/* A running task: ends at t; seq orders the ones ending together. */
typedef struct running { double t; long seq; int pos; } running;

static int ends_first(const void *a, const void *b, void *ctx)
{
    (void)ctx;
    const running *x = a, *y = b;
    return x->t < y->t || (x->t == y->t && x->seq < y->seq);
}

typedef struct srun {
    const sim_pool_config *c;
    const sim_trace *tr;
    sim_pool_result *out;
    pool *p;
    pool_meter m;
    int held, idle, most;
    double *pending;            /* arrival times, a ring of tr->parts */
    int p_head, p_n;
    heap h;
    long seq;
    /* the iteration under way */
    int ntask, next;            /* its tasks; the next to hand out */
    int *task;                  /* in hand-out order */
    double *time;               /* their times (seconds), same order */
    char *msg;
    size_t len;
} srun;

static int fail(srun *r, const char *what, const sched_err *err)
{
    snprintf(r->msg, r->len, "%s%s%s", what, err ? ": " : "", err ? err->msg : "");
    return -1;
}

static int too_late(srun *r, double t)
{
    if (t <= SIM_TIME_MAX)
        return 0;
    snprintf(r->msg, r->len, "the run cannot end: simulated time %g s is past the limit "
             "of %g s (31 years)", t, SIM_TIME_MAX);
    return 1;
}

static double pending_at(const srun *r, int i)
{
    return r->pending[(r->p_head + i) % r->tr->parts];
}

/* Carries out Nworkers = N at t (sched/pool/pool.h, "Carrying out"): cancels
 * pending requests (the latest first), releases idle workers, requests
 * the missing ones. A busy worker owed a release goes when its task is
 * done (the caller calls this again then, before handing it a task). */
static int carry_out(srun *r, int N, double t)
{
    sched_err err;
    pool_moves mv;
    pool_carry_out(N, r->held, r->idle, r->p_n, &mv);
    r->p_n -= mv.cancel;
    r->out->cancelled += mv.cancel;
    for (int i = 0; i < mv.release; i++) {
        if (pool_meter_leave(&r->m, t, &err) != 0)
            return fail(r, "meter", &err);
        r->held--;
        r->idle--;
        r->out->released++;
    }
    for (int i = 0; i < mv.request; i++) {
        double last = r->p_n > 0 ? pending_at(r, r->p_n - 1) : t;
        r->pending[(r->p_head + r->p_n) % r->tr->parts] =
            r->c->together ? pool_arrival_together(t, r->c->delay) : pool_arrival(t, last, r->c->delay);
        r->p_n++;
        r->out->requested++;
    }
    return 0;
}

/* Idle workers take the next tasks in the hand-out order. */
static int dispatch(srun *r, double t)
{
    while (r->idle > 0 && r->next < r->ntask) {
        running x = {t + r->time[r->next], r->seq++, r->next};
        if (heap_push(&r->h, &x) != 0)
            return fail(r, "out of memory for the tasks", NULL);
        r->next++;
        r->idle--;
    }
    return 0;
}

static int arrive(srun *r, double t)
{
    sched_err err;
    r->p_head = (r->p_head + 1) % r->tr->parts;
    r->p_n--;
    if (pool_meter_join(&r->m, t, &err) != 0)
        return fail(r, "meter", &err);
    r->held++;
    r->idle++;
    if (r->held > r->most)
        r->most = r->held;
    return carry_out(r, pool_workers(r->p), t);
}

/* Iteration k: begins at t, runs to its last result; returns its end in *t. */
static int iteration(srun *r, long k, double *t)
{
    const sim_trace *tr = r->tr;
    sched_err err;
    /* workers that arrive before the begin (or with it) join first */
    while (r->p_n > 0 && pending_at(r, 0) <= *t)
        if (arrive(r, pending_at(r, 0)) != 0)
            return -1;
    if (pool_meter_begin(&r->m, *t, &err) != 0)
        return fail(r, "meter", &err);
    r->most = r->held;
    r->ntask = r->next = 0;
    for (int i = 0; i < tr->parts; i++)
        if (!isnan(sim_trace_cost(tr, k, i)))
            r->task[r->ntask++] = i;
    if (pool_order(r->p, r->task, r->ntask, &err) != 0)
        return fail(r, "order", &err);
    for (int j = 0; j < r->ntask; j++)
        r->time[j] = sim_trace_cost(tr, k, r->task[j]) * r->c->scale;
    if (dispatch(r, *t) != 0)
        return -1;
    for (int done = 0; done < r->ntask;) {
        const running *top = heap_top(&r->h);
        int arrival = r->p_n > 0 && (!top || pending_at(r, 0) < top->t);
        if (!top && !arrival)
            return fail(r, "the run stalled: tasks remain, no worker is held or coming",
                        NULL);
        if (arrival) {
            *t = pending_at(r, 0);
            if (too_late(r, *t) || arrive(r, *t) != 0)
                return -1;
        } else {
            running x;
            heap_pop(&r->h, &x);
            *t = x.t;
            if (too_late(r, *t))
                return -1;
            done++;
            r->idle++;
            int part = r->task[x.pos];
            int N = pool_workers(r->p);
            if (k + 1 == tr->n || isnan(sim_trace_cost(tr, k + 1, part)))
                if ((N = pool_task_converged(r->p, part, &err)) < 0)
                    return fail(r, "converged", &err);
            if (carry_out(r, N, *t) != 0)
                return -1;
        }
        if (dispatch(r, *t) != 0)
            return -1;
    }
    int next_tasks = 0;
    if (k + 1 < tr->n)
        for (int i = 0; i < tr->parts; i++)
            next_tasks += !isnan(sim_trace_cost(tr, k + 1, i));
    pool_iter_stats st = {.ntask = r->ntask, .task = r->task, .time = r->time,
                          .next_tasks = next_tasks};
    if (pool_meter_end(&r->m, *t, &st, &err) != 0)
        return fail(r, "meter", &err);
    sim_pool_iter *it = &r->out->it[k];
    it->number = tr->first + k;
    it->begin = *t - st.exec_time;
    it->tasks = r->ntask;
    it->most = r->most;
    int N = pool_iteration_end(r->p, &st, &it->d, &err);
    if (N < 0)
        return fail(r, "pool", &err);
    if (carry_out(r, N, *t) != 0)
        return -1;
    it->pending = r->p_n;
    if (r->most > r->out->peak) {
        r->out->peak = r->most;
        r->out->peak_number = it->number;
    }
    return 0;
}

int sim_pool_run(const sim_pool_config *c, const sim_trace *tr, sim_pool_result *out,
                 char *msg, size_t len)
{
    memset(out, 0, sizeof *out);
    if (sim_pool_check(c, tr, msg, len) != 0)
        return -1;
    srun r = {.c = c, .tr = tr, .out = out, .msg = msg, .len = len};
    sched_err err;
    int rc = -1;
    heap_init(&r.h, sizeof(running), ends_first, NULL);
    out->it = calloc((size_t)tr->n, sizeof *out->it);
    r.pending = malloc(sizeof *r.pending * (size_t)tr->parts);
    r.task = malloc(sizeof *r.task * (size_t)tr->parts);
    r.time = malloc(sizeof *r.time * (size_t)tr->parts);
    if (!out->it || !r.pending || !r.task || !r.time) {
        snprintf(msg, len, "out of memory for %ld iterations of %d parts", tr->n, tr->parts);
        goto out;
    }
    r.p = pool_new(c->type, tr->parts, &c->params, &err);
    if (!r.p) {
        snprintf(msg, len, "%s", err.msg);
        goto out;
    }
    out->n = tr->n;
    pool_meter_init(&r.m, 0);
    double t = 0;
    if (carry_out(&r, pool_workers(r.p), t) != 0)
        goto out;
    for (long k = 0; k < tr->n; k++) {
        if (k > 0)
            t += c->border;
        if (too_late(&r, t) || iteration(&r, k, &t) != 0)
            goto out;
    }
    pool_meter_totals(&r.m, &out->totals);
    rc = 0;
out:
    if (rc != 0)
        sim_pool_result_free(out);
    pool_free(r.p);
    heap_free(&r.h);
    free(r.pending);
    free(r.task);
    free(r.time);
    return rc;
}

void sim_pool_result_free(sim_pool_result *r)
{
    free(r->it);
    r->it = NULL;
    r->n = 0;
}
