/* self.c: self-scheduling in the simulator, Xu & Chronopoulos Sec. 5.3
 * exactly as the PVM master runs it, through the same policy
 * (sched/loop/policy.c):
 *   t = 0    every worker measures Q_i and reports A_i = V_i / Q_i;
 *   master   on a report: records the results it carries (policy_done), the
 *            new A_i (policy_request); once every live worker has reported
 *            (policy_ready), plans (policy_start); then serves the queue
 *            (policy_assign);
 *   worker   on a chunk: computes it at its host's speed / (1 + load), then
 *            measures Q_i and sends its results with a new request; with the
 *            integer rule and A_i = 0, measures again after 'remeasure'.
 * For the schemes fed measurements (sched.h's adaptive ones and dtss-m) the
 * worker times each iteration of its chunk as it computes it, one after the
 * other at the host's speed of the moment, and sends their mean and
 * standard deviation and its rate in cost units a second (sched/loop/meas.h,
 * as the PVM worker does) with its request; the master tells the policy each chunk's computing time.
 * A host that fails dies with its chunk; the master hears of it one latency
 * later (PVM's task-exit notice) and the chunk goes back to the pool
 * (policy_lost).
 */
#include <math.h>
#include <stdio.h>

#include "sched/loop/meas.h"
#include "sim/engine.h"

/* With A_i = 0 at t (the integer rule), the time of the worker's next
 * measure that can see A_i > 0: it measures every 'remeasure' seconds, and
 * A_i changes only with its host's load, so the measures before the first
 * load change that gives A_i > 0 are skipped (a load change a year away
 * costs one event, not 10^8). INFINITY when no load change ever gives
 * A_i > 0: the worker will never report again. */
static double next_measure(const run *r, int w, double t)
{
    const sim_host *h = r->w[w].h;
    double V = r->rec->w[w].V, rm = r->c->remeasure;
    for (int i = 0; i < h->nload; i++) {
        double tc = h->load[i].t;
        if (tc <= t)
            continue;
        if (tc <= t + rm)
            return t + rm;              /* a change before the next measure */
        if (!(sched_acp(V, 1 + h->load[i].extra, 1, r->c->acp_integer) > 0))
            continue;
        double k = ceil((tc - t) / rm); /* the first t + k rm >= tc */
        double next = t + k * rm;
        return next < tc ? t + (k + 1) * rm : next;
    }
    return INFINITY;
}

/* The worker measures Q at t and reports A_i, with the results of its last
 * chunk if 'pending' carries some. With the integer rule and A_i = 0 it
 * measures again after 'remeasure' instead, keeping the results; its first
 * report goes out anyway (Sec. 5.3: the master waits for everyone). */
static int report(run *r, int w, double t, const event *pending, int first)
{
    const sim_host *h = r->w[w].h;
    int Q = 1 + sim_extra_at(h, t);
    double A = sched_acp(r->rec->w[w].V, Q, 1, r->c->acp_integer);   /* one CPU a host */
    event again = pending ? *pending : (event){.w = w};
    again.type = EV_REMEASURE;
    if (!(A > 0)) {
        again.t = next_measure(r, w, t);
        if (again.t == INFINITY && !r->w[w].stuck) {
            r->w[w].stuck = 1;
            if (r->stuck++ == 0) {
                r->stuck_w = w;
                r->stuck_t = t;
            }
        }
    }
    if (!(A > 0) && !first)
        return again.t == INFINITY ? 0 : sim_post(r, again);
    event ev = pending ? *pending : (event){0};
    double bytes = r->c->message_bytes;
    if (ev.has_result)
        bytes += r->c->result_bytes * (double)ev.size;
    ev.type = EV_REPORT;
    ev.w = w;
    ev.Q = Q;
    ev.A = A;
    ev.t_measure = t;
    ev.t = sim_to_master(r, w, t, bytes);
    if (sim_post(r, ev) != 0)
        return -1;
    if (A > 0)
        return 0;
    again.has_result = 0;                   /* the results went out */
    return again.t == INFINITY ? 0 : sim_post(r, again);
}

/* Computes chunk ev iteration by iteration from ev->t_start, measuring
 * each into r->meas[ev->w]; returns its end. */
static double timed(const run *r, const sim_host *h, const event *ev)
{
    sched_meas m;
    sched_meas_clear(&m);
    double t = ev->t_start;
    for (long k = ev->start; k < ev->start + ev->size; k++) {
        double cost = sim_work(r->wl, k, 1), u = sim_advance(h, t, cost);
        sched_meas_add(&m, u - t, 1, cost);
        t = u;
    }
    sched_meas_get(&m, &r->meas[ev->w]);
    return t;
}

/* Step 1 ends when every live worker has reported and one can work; then
 * (and from then on) the master hands out every chunk it can, leaving at
 * the time it is free. */
static int serve(run *r)
{
    sched_err err;
    if (policy_ready(r->p)) {
        if (policy_start(r->p, &err) != 0)
            return sim_fail(r, err.msg);
        r->rec->t0 = r->master_free - r->c->master_overhead;
    }
    double t = r->master_free;
    policy_chunk pc;
    int got;
    while ((got = policy_assign(r->p, &pc, &err)) == 1) {
        if (r->rec->nchunks >= SIM_MAX_CHUNKS)
            return sim_too_many(r);
        rec_chunk *c = record_chunk(r->rec);
        if (!c)
            return sim_fail(r, record_error(r->rec));
        *c = (rec_chunk){.id = pc.id, .worker = pc.worker, .start = pc.start,
                         .size = pc.size, .acp = pc.acp, .sent = t,
                         .reissue = pc.reissue};
        event ev = {.type = EV_WORK, .w = pc.worker, .id = pc.id, .start = pc.start,
                    .size = pc.size};
        ev.t = sim_from_master(r, pc.worker, t + r->c->dispatch, r->c->message_bytes);
        if (sim_post(r, ev) != 0)
            return -1;
    }
    return got < 0 ? sim_fail(r, err.msg) : 0;
}

static int on_report(run *r, const event *ev, double t)
{
    int w = ev->w;
    if (ev->has_result &&
        policy_done_w(r->p, w, ev->id, ev->t_end - ev->t_start, NULL) == 0 &&
        record_done_id(r->rec, ev->id, w, ev->size, ev->t_recv, ev->t_start, ev->t_end,
                       t) != 0)
        return sim_fail(r, record_error(r->rec));
    if (record_report(r->rec, w, ev->Q, ev->A, ev->t_measure) != 0)
        return sim_fail(r, record_error(r->rec));
    int replans = policy_replans(r->p);
    sched_request rq = r->meas ? r->meas[w] : (sched_request){0};
    rq.worker = w;
    rq.acp = ev->A;
    if (r->w[w].dead || policy_request_m(r->p, &rq, NULL) != 0)
        return 0;
    if (policy_replans(r->p) > replans &&
        record_replan(r->rec, t, policy_alive(r->p), policy_power(r->p)) != 0)
        return sim_fail(r, record_error(r->rec));
    if (policy_finished(r->p)) {
        r->finished = 1;
        r->rec->finish = t - r->rec->t0;
        return 0;
    }
    return serve(r);
}

int sim_self_start(run *r)
{
    sched_err err;
    r->p = policy_new(&r->c->sched, r->n, &err);
    if (!r->p)
        return sim_fail(r, err.msg);
    for (int w = 0; w < r->n; w++)
        if (policy_set_speed(r->p, w, r->rec->w[w].V, &err) != 0)
            return sim_fail(r, err.msg);
    for (int w = 0; w < r->n; w++) {
        if (r->w[w].h->fail >= 0 &&
            sim_post(r, (event){.t = r->w[w].h->fail, .type = EV_FAIL, .w = w}) != 0)
            return -1;
        if (report(r, w, 0, NULL, 1) != 0)
            return -1;
    }
    return 0;
}

int sim_self_event(run *r, event *e)
{
    sched_err err;
    event ev = *e;
    sworker *x = &r->w[ev.w];
    switch (ev.type) {
    case EV_REPORT:
    case EV_NOTICE: {
        int now = sim_master_take(r, &ev);
        if (now <= 0)
            return now;
        if (ev.type == EV_REPORT)
            return on_report(r, &ev, ev.t);
        if (policy_lost(r->p, ev.w, &err) < 0)
            return sim_fail(r, err.msg);
        if (policy_alive(r->p) == 0)
            return sim_fail(r, "every worker's host failed before the end");
        return serve(r);
    }
    case EV_WORK:
        if (x->dead)
            return 0;
        ev.t_recv = ev.t_start = ev.t;
        if (r->meas)
            ev.t_end = timed(r, x->h, &ev);
        else
            ev.t_end = sim_advance(x->h, ev.t, sim_work(r->wl, ev.start, ev.size));
        ev.type = EV_DONE;
        ev.has_result = 1;
        ev.t = ev.t_end;
        return sim_post(r, ev);
    case EV_DONE:
    case EV_REMEASURE:
        return !x->dead ? report(r, ev.w, ev.t, &ev, 0) : 0;
    case EV_FAIL:
        x->dead = 1;
        return sim_post(r, (event){.t = sim_to_master(r, ev.w, ev.t, 0),
                                   .type = EV_NOTICE, .w = ev.w});
    }
    return 0;
}

int sim_self_end(run *r)
{
    if (!r->finished && r->stuck) {
        const sim_host *h = r->w[r->stuck_w].h;
        int Q = 1 + sim_extra_at(h, r->stuck_t);
        snprintf(r->msg, r->len, "the run cannot end: under the integer rule A_i = "
                 "floor(V_i / Q_i) stays 0 for good on %d worker(s), which never report "
                 "again (the first: host %s, V_i %g, Q_i %d from t = %g s on)",
                 r->stuck, h->name, r->rec->w[r->stuck_w].V, Q, r->stuck_t);
        return -1;
    }
    if (!r->finished)
        return sim_fail(r, "the simulation stalled: no event left before the end");
    return 0;
}
