/* lb.c (sim/): the engine of Yoon et al.'s simulation study, Sec. 4.1
 * (sim/lb.h gives the model in one paragraph; docs/yoon.md the results).
 *
 * What the paper fixes (Sec. 3.1, 4.1): P nodes on a switch, each with n
 * tasks; the task times of node i uniform in (0, 2 r_i), r_i uniform in
 * (0, 2 E(r)); C_msg from 1% to 5% of E(r); C_task, one task's migration,
 * 10 C_msg; the one-port model (a node exchanges messages with at most one
 * node at a time, no multicast); the master is one of the nodes and also
 * runs its own tasks; G = (ET_NOLB - ET_LB) / ET_LB.
 *
 * ---- Choices (the paper leaves these open) -----------------------------
 *
 * Work and speed. A task carries work w, uniform in (0, 2), and takes
 * w r_k seconds on node k: r_k is the node's speed (seconds per unit of
 * work), so on its own node a task lasts uniform(0, 2 r_i) as the paper
 * says, and a migrated task keeps its work, not its time. Draws: GSL's
 * mt19937 seeded with 'seed'; first r_0 .. r_{P-1}, then w node by node,
 * task by task (gsl_rng_uniform_pos: 0 and the upper end excluded, as the
 * paper's strict '<'). A strategy run and the "none" run on one seed thus
 * see the same platform and tasks. Given r or w replace the draws (a real
 * platform's speeds, a real program's tasks).
 *
 * Node 0 is the master. It runs its tasks like any node; the exchange
 * charges it more messages (lb_exchange_central: 2 (P - 1) against 2).
 *
 * What migrates: queued tasks only, never a running one (the paper
 * balances "the number of tasks in the ready queue"); a sender gives the
 * last tasks of its queue (the ones it would reach last), a receiver puts
 * them at the end of its own. A node runs its queue first to last.
 *
 * The period. The paper's t_j is not given. A balancing is held `period`
 * seconds after the previous one's last message or migration ended (the
 * first at t = period): every node then has at least `period` seconds to
 * compute between two balancings, so the run always ends (however long
 * the exchange of a large cluster takes) and eq. 1's rate is measured on
 * real computing. Eq. 1's t is the time since the previous balancing's
 * counts (since 0 for the first). The CLI's default period is
 * SIM_LB_PERIOD_FRAC x n x E(r), a tenth of an average node's own work;
 * docs/yoon.md shows G against that fraction.
 *
 * The counts. At the balancing instant T every node is stopped in its
 * tracks: n_i = its ready queue (the running task not included), d_i = the
 * tasks it finished in (T_prev, T]. A task ending exactly at T counts as
 * done, and the one it starts then as running.
 *
 * Communication takes the CPU. Sec. 3.2's E_i = (n_i - k_i) T_task_i +
 * k_i C_t adds the migrations to the node's own time: read as the node's
 * processor doing the communication, so a node does not compute while it
 * sends or receives; its running task is paused and resumes after.
 *
 * One balancing under the one-port model:
 *  1. the exchange: node i spends msgs_i x C_msg communicating from T on
 *     (lb_type.exchange; central: the master's 2 (P - 1) messages, one
 *     after another, every other node's 2). Which slot each message takes
 *     is not modelled, only the time it takes from its node; the decision
 *     is known everywhere when the busiest node is done: the exchange ends
 *     at T + max_i msgs_i C_msg.
 *  2. the migrations (lb_plan.move): a move of count tasks from s to r is
 *     one transfer of count x C_task seconds at both ends (C_t per task,
 *     charged to both, as E_i does), started at the earliest time both
 *     ends are free, after the exchange: list scheduling -- whenever a
 *     waiting transfer has both ends free it starts, the plan's order
 *     breaking ties. Transfers between other pairs run at the same time (a
 *     switch). Why not "each after every earlier one of the plan sharing
 *     a node": that makes chains (A -> X, B -> X, B -> Y, C -> Y, ...
 *     each waiting for the one before); on 32 nodes x 400 tasks at C_msg
 *     5% the migrations then ended at 838 s, predicted 395 s; list
 *     scheduling ends them at 342 s. Between T and its transfer a sender
 *     keeps computing, but never starts one of the tasks it still has to
 *     send (it runs a queued task only while its queue is longer than its
 *     tasks still to send): what it sends is what the plan counted. A move
 *     that finds fewer queued tasks than planned (a strategy forwarding
 *     tasks before it receives them) sends what there is, in the time
 *     planned.
 * No other message is modelled: the initial distribution and the results'
 * return are the same with and without balancing.
 *
 * When balancing stops: when no task is left in any ready queue (nothing
 * could move). Until then every period costs its exchange, moves or not:
 * the master needs the counts to decide.
 *
 * ET: when the last task ends (a node's finish: its last task's end).
 *
 * Ranges: the whole run within SIM_TIME_MAX (sim/sim.h); at most
 * SIM_LB_MAX_BALANCINGS balancings (a period too short for the run).
 *
 * Yoon et al., load balancing by execution-time prediction on a cluster,
 * Sec. 3.1 (one-port), 3.2 (E_i), 4.1 (the simulation model).
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "sim/lb.h"
#include "sim/sim.h"

#define SIM_LB_MAX_BALANCINGS 100000L

void sim_lb_config_init(sim_lb_config *c)
{
    memset(c, 0, sizeof *c);
    c->type = &lb_yoon;
    c->nodes = 32;
    c->tasks = 200;
    c->mean_r = 1;
    c->c_msg = 0.03;
    c->c_task = SIM_LB_CTASK_RATIO * 0.03;
    c->period = SIM_LB_PERIOD_FRAC * 200 * 1;
    c->seed = 1;
}

static int fail(sched_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(sched_err *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

/* A time in [lo, SIM_TIME_MAX] (lo: 0 included or not). */
static int time_ok(double x, int zero_ok)
{
    return isfinite(x) && (zero_ok ? x >= 0 : x > 0) && x <= SIM_TIME_MAX;
}

int sim_lb_check(const sim_lb_config *c, sched_err *err)
{
    if (!c->type || !c->type->plan || !c->type->exchange)
        return fail(err, SCHED_EINVAL, "no load-balancing strategy given");
    if (c->nodes < 1 || c->nodes > LB_MAX_NODES)
        return fail(err, SCHED_EINVAL, "nodes=%d must be in 1..%d", c->nodes,
                    LB_MAX_NODES);
    if (c->tasks < 1 || c->tasks > LB_MAX_TASKS / c->nodes)
        return fail(err, SCHED_EINVAL, "tasks=%ld per node must be in 1..%ld for %d "
                    "nodes (at most %ld tasks in all)", c->tasks, LB_MAX_TASKS / c->nodes,
                    c->nodes, LB_MAX_TASKS);
    if (!time_ok(c->c_msg, 1))
        return fail(err, SCHED_EINVAL, "c_msg=%g must be a time in 0..%g (seconds)",
                    c->c_msg, SIM_TIME_MAX);
    if (!time_ok(c->c_task, 1))
        return fail(err, SCHED_EINVAL, "c_task=%g must be a time in 0..%g (seconds)",
                    c->c_task, SIM_TIME_MAX);
    if (!time_ok(c->period, 0))
        return fail(err, SCHED_EINVAL, "period=%g must be a time > 0, at most %g "
                    "(seconds)", c->period, SIM_TIME_MAX);
    long N = (long)c->nodes * c->tasks;
    double rmax = 0, wsum = 0;
    if (c->rbar) {
        for (int i = 0; i < c->nodes; i++) {
            if (!time_ok(c->rbar[i], 0))
                return fail(err, SCHED_EINVAL, "rbar[%d]=%g must be > 0, at most %g "
                            "(seconds per unit of work)", i, c->rbar[i], SIM_TIME_MAX);
            rmax = fmax(rmax, c->rbar[i]);
        }
    } else {
        if (!time_ok(c->mean_r, 0))
            return fail(err, SCHED_EINVAL, "mean_r=%g must be a time > 0, at most %g "
                        "(seconds)", c->mean_r, SIM_TIME_MAX);
        rmax = 2 * c->mean_r;
    }
    if (c->work) {
        for (long k = 0; k < N; k++) {
            if (!(isfinite(c->work[k]) && c->work[k] >= 0 && c->work[k] <= SIM_TIME_MAX))
                return fail(err, SCHED_EINVAL, "work[%ld]=%g (node %ld, task %ld) must "
                            "be in 0..%g", k, c->work[k], k / c->tasks, k % c->tasks,
                            SIM_TIME_MAX);
            wsum += c->work[k];
        }
    } else {
        wsum = 2.0 * (double)N;
    }
    if (!(wsum * rmax <= SIM_TIME_MAX))
        return fail(err, SCHED_EINVAL, "the tasks' work (%g) at the slowest node's %g s "
                    "per unit passes %g s", wsum, rmax, SIM_TIME_MAX);
    return SCHED_OK;
}

void sim_lb_result_free(sim_lb_result *r)
{
    if (!r)
        return;
    free(r->rbar);
    free(r->finish);
    free(r->ran);
    free(r->comm);
    free(r->ran_on);
    free(r->bal);
    memset(r, 0, sizeof *r);
}

/* ---- a node ------------------------------------------------------------------
 * Its ready queue is a ring of task numbers: run from the head, sent from
 * the tail, received at the tail. 't' is how far its simulation has gone:
 * the node is computing (cur >= 0, rem seconds of it left) or idle up to
 * t, or communicating until t (then nothing happens on it before t). */
typedef struct node {
    int *q;
    long head, len, cap;
    long to_send;           /* tasks it still has to send this balancing */
    int cur;                /* the running task, -1: none */
    double rem;
    double t;
    long done;              /* finished in the current period */
} node;

typedef struct run {
    const sim_lb_config *c;
    sim_lb_result *out;
    node *nd;
    double *work;           /* per task */
    int started_twice;      /* a bug guard: a task started twice */
} run;

static int q_grow(node *n)
{
    long cap = n->cap ? 2 * n->cap : 16;
    int *q = malloc(sizeof *q * (size_t)cap);
    if (!q)
        return -1;
    for (long k = 0; k < n->len; k++)
        q[k] = n->q[(n->head + k) % n->cap];
    free(n->q);
    n->q = q;
    n->head = 0;
    n->cap = cap;
    return 0;
}

static int q_push(node *n, int task)
{
    if (n->len == n->cap && q_grow(n) != 0)
        return -1;
    n->q[(n->head + n->len) % n->cap] = task;
    n->len++;
    return 0;
}

static int q_pop_head(node *n)
{
    int task = n->q[n->head];
    n->head = (n->head + 1) % n->cap;
    n->len--;
    return task;
}

/* Node i computes from its t up to 'until' (INFINITY: until it has
 * nothing it may run). */
static void advance(run *r, int i, double until)
{
    node *n = &r->nd[i];
    sim_lb_result *o = r->out;
    for (;;) {
        if (n->cur < 0) {
            if (n->len <= n->to_send) {         /* nothing it may run */
                if (isfinite(until) && until > n->t)
                    n->t = until;
                return;
            }
            n->cur = q_pop_head(n);
            n->rem = r->work[n->cur] * o->rbar[i];
            if (o->ran_on[n->cur] >= 0)
                r->started_twice = 1;
            o->ran_on[n->cur] = i;
        }
        double end = n->t + n->rem;
        if (end <= until) {
            n->t = end;
            o->finish[i] = end;
            o->ran[i]++;
            n->done++;
            n->cur = -1;
        } else {
            n->rem -= until - n->t;
            n->t = until;
            return;
        }
    }
}

/* ---- a balancing ---------------------------------------------------------------- */

typedef struct transfer {
    int m;                  /* the plan's move */
    double start, end;
} transfer;

static int transfer_order(const void *a, const void *b)
{
    const transfer *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->m > y->m) - (x->m < y->m);
}

/* At time T (every node advanced to it): the counts, the plan, the
 * exchange and the migrations. *end: when its last message or migration
 * ends. Returns SCHED_OK or an error with err set. */
static int balance(run *r, double T, double elapsed, long queued, double *end,
                   sched_err *err)
{
    const sim_lb_config *c = r->c;
    sim_lb_result *o = r->out;
    int P = c->nodes;
    long *rem = malloc(sizeof *rem * (size_t)P), *done = malloc(sizeof *done * (size_t)P);
    long *msgs = malloc(sizeof *msgs * (size_t)P);
    double *free_at = malloc(sizeof *free_at * (size_t)P);
    transfer *tr = NULL;
    lb_plan *p = NULL;
    int rc = SCHED_OK;
    if (!rem || !done || !msgs || !free_at) {
        rc = fail(err, SCHED_ENOMEM, "out of memory for a balancing of %d nodes", P);
        goto out;
    }
    for (int i = 0; i < P; i++) {
        rem[i] = r->nd[i].len;
        done[i] = r->nd[i].done;
        r->nd[i].done = 0;
    }
    lb_input in = {.nodes = P, .remaining = rem, .done = done, .elapsed = elapsed,
                   .cost = c->c_task};
    if (!(p = lb_plan_make(c->type, &in, err))) {
        rc = err->code;
        goto out;
    }

    /* 1. the exchange */
    c->type->exchange(P, msgs);
    double ex_end = T;
    long nmsgs = 0;
    for (int i = 0; i < P; i++) {
        double busy = (double)msgs[i] * c->c_msg;
        free_at[i] = T + busy;
        r->nd[i].t = free_at[i];        /* advanced to T: paused while it talks */
        o->comm[i] += busy;
        ex_end = fmax(ex_end, free_at[i]);
        nmsgs += msgs[i];
    }
    o->messages += nmsgs;               /* both ends: halved at the run's end */

    /* 2. the migrations: placed in the plan's order, carried out in time order */
    if (p->nmoves > 0 && !(tr = malloc(sizeof *tr * (size_t)p->nmoves))) {
        rc = fail(err, SCHED_ENOMEM, "out of memory for %d migrations", p->nmoves);
        goto out;
    }
    *end = ex_end;
    for (int m = 0; m < p->nmoves; m++) {
        tr[m] = (transfer){m, -1, -1};          /* not placed yet */
        r->nd[p->move[m].from].to_send += p->move[m].count;
    }
    /* List scheduling: at the next time a waiting transfer has both ends
     * free, every waiting one that can start then does, in the plan's
     * order. Each round places at least one: O(moves^2). */
    for (int placed = 0; placed < p->nmoves;) {
        double now = INFINITY;
        for (int m = 0; m < p->nmoves; m++)
            if (tr[m].start < 0)
                now = fmin(now, fmax(free_at[p->move[m].from], free_at[p->move[m].to]));
        now = fmax(now, ex_end);
        for (int m = 0; m < p->nmoves; m++) {
            const lb_move *mv = &p->move[m];
            if (tr[m].start >= 0 || free_at[mv->from] > now || free_at[mv->to] > now)
                continue;
            tr[m].start = now;
            tr[m].end = now + (double)mv->count * c->c_task;
            free_at[mv->from] = free_at[mv->to] = tr[m].end;
            *end = fmax(*end, tr[m].end);
            placed++;
        }
    }
    if (p->nmoves > 0)
        qsort(tr, (size_t)p->nmoves, sizeof *tr, transfer_order);
    long moved = 0;
    for (int k = 0; k < p->nmoves; k++) {
        const lb_move *mv = &p->move[tr[k].m];
        node *s = &r->nd[mv->from], *d = &r->nd[mv->to];
        advance(r, mv->from, tr[k].start);
        advance(r, mv->to, tr[k].start);
        long n = mv->count < s->len ? mv->count : s->len;
        for (long j = s->len - n; j < s->len; j++)
            if (q_push(d, s->q[(s->head + j) % s->cap]) != 0) {
                rc = fail(err, SCHED_ENOMEM, "out of memory for node %d's queue",
                          mv->to);
                goto out;
            }
        s->len -= n;
        s->to_send = s->to_send > mv->count ? s->to_send - mv->count : 0;
        s->t = d->t = tr[k].end;
        o->comm[mv->from] += tr[k].end - tr[k].start;
        o->comm[mv->to] += tr[k].end - tr[k].start;
        moved += n;
    }
    o->moved += moved;
    o->migrations += p->nmoves;

    if (o->balancings % 64 == 0) {
        sim_lb_balancing *b = realloc(o->bal, sizeof *b * (size_t)(o->balancings + 64));
        if (!b) {
            rc = fail(err, SCHED_ENOMEM, "out of memory for %ld balancings",
                      o->balancings + 1);
            goto out;
        }
        o->bal = b;
    }
    o->bal[o->balancings++] = (sim_lb_balancing){
        .time = T, .elapsed = elapsed, .queued = queued, .max_before = p->max_before,
        .max_after = p->max_after, .moved = moved, .migrations = p->nmoves, .end = *end};
out:
    lb_plan_free(p);
    free(tr);
    free(rem);
    free(done);
    free(msgs);
    free(free_at);
    return rc;
}

/* ---- the run ---------------------------------------------------------------------- */

static int setup(run *r, const sim_lb_config *c, sim_lb_result *o, sched_err *err)
{
    int P = c->nodes;
    long N = (long)P * c->tasks;
    size_t zp = (size_t)P, zn = (size_t)N;
    o->nodes = P;
    o->tasks = N;
    o->rbar = calloc(zp, sizeof *o->rbar);
    o->finish = calloc(zp, sizeof *o->finish);
    o->ran = calloc(zp, sizeof *o->ran);
    o->comm = calloc(zp, sizeof *o->comm);
    o->ran_on = malloc(sizeof *o->ran_on * zn);
    r->nd = calloc(zp, sizeof *r->nd);
    r->work = malloc(sizeof *r->work * zn);
    if (!o->rbar || !o->finish || !o->ran || !o->comm || !o->ran_on || !r->nd || !r->work)
        return fail(err, SCHED_ENOMEM, "out of memory for %d nodes x %ld tasks", P,
                    c->tasks);
    gsl_rng *g = NULL;
    if (!c->rbar || !c->work)
        g = gsl_rng_alloc(gsl_rng_mt19937);     /* GSL's handler on failure */
    if (g)
        gsl_rng_set(g, c->seed);
    for (int i = 0; i < P; i++)
        o->rbar[i] = c->rbar ? c->rbar[i] : 2 * c->mean_r * gsl_rng_uniform_pos(g);
    for (long k = 0; k < N; k++) {
        r->work[k] = c->work ? c->work[k] : 2 * gsl_rng_uniform_pos(g);
        o->ran_on[k] = -1;
    }
    gsl_rng_free(g);
    for (int i = 0; i < P; i++) {
        node *n = &r->nd[i];
        n->cur = -1;
        for (long j = 0; j < c->tasks; j++)
            if (q_push(n, (int)(i * c->tasks + j)) != 0)
                return fail(err, SCHED_ENOMEM, "out of memory for node %d's queue", i);
    }
    return SCHED_OK;
}

int sim_lb_run(const sim_lb_config *c, sim_lb_result *out, sched_err *err)
{
    sched_err local;
    if (!err)
        err = &local;                   /* balance() reads the code back */
    memset(out, 0, sizeof *out);
    int rc = sim_lb_check(c, err);
    if (rc != SCHED_OK)
        return rc;
    run r = {.c = c, .out = out};
    int P = c->nodes;
    if ((rc = setup(&r, c, out, err)) != SCHED_OK)
        goto out;

    double last = 0, end = 0;   /* the previous balancing's counts, its end */
    for (;;) {
        double T = end + c->period;
        if (!(T <= SIM_TIME_MAX)) {
            rc = fail(err, SCHED_EINVAL, "the run passes %g s (balancing %ld at %g s)",
                      SIM_TIME_MAX, out->balancings + 1, T);
            goto out;
        }
        long queued = 0;
        for (int i = 0; i < P; i++) {
            advance(&r, i, T);
            queued += r.nd[i].len;
        }
        if (queued == 0)
            break;
        if (out->balancings >= SIM_LB_MAX_BALANCINGS) {
            rc = fail(err, SCHED_EINVAL, "more than %ld balancings: period=%g s is too "
                      "short for this run", SIM_LB_MAX_BALANCINGS, c->period);
            goto out;
        }
        if ((rc = balance(&r, T, T - last, queued, &end, err)) != SCHED_OK)
            goto out;
        last = T;
    }
    long ran = 0;
    for (int i = 0; i < P; i++) {
        advance(&r, i, INFINITY);
        out->et = fmax(out->et, out->finish[i]);
        ran += out->ran[i];
    }
    out->messages /= 2;
    if (ran != out->tasks || r.started_twice)
        rc = fail(err, SCHED_EINVAL, "internal error: %ld of %ld tasks ran%s", ran,
                  out->tasks, r.started_twice ? ", one of them twice" : "");
    else if (!(out->et <= SIM_TIME_MAX))
        rc = fail(err, SCHED_EINVAL, "the run passes %g s (it ends at %g s)",
                  SIM_TIME_MAX, out->et);
out:
    if (r.nd)
        for (int i = 0; i < P; i++)
            free(r.nd[i].q);
    free(r.nd);
    free(r.work);
    if (rc != SCHED_OK)
        sim_lb_result_free(out);
    return rc;
}
