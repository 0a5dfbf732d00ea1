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
 * Request-ahead (c->ahead: F or rtt, sched/loop/ahead.h), as the PVM worker
 * does it: at the chunk's ask point (ask_point: after its first mark
 * iterations, or by rtt the first iteration it is due at) the worker
 * measures Q_i and, with A_i > 0, sends a request without results (with
 * what it measured since its last request); at the chunk's end its results
 * go on their own (EV_RESULT) and it starts the chunk that came meanwhile,
 * or waits for it. A chunk that comes while the worker computes waits for
 * it (its t_recv: when it came). The worker's reply wait (the rtt rule) is
 * taken as the PVM worker takes it: exact when it waited for the reply,
 * bounded from above when the reply came before the chunk's end.
 * What messages cost the worker's host (c->send_cost, wake, wake_load;
 * sim.h): a message leaves once the worker has computed send_cost units a
 * byte of it; a chunk that reaches an idle worker starts once its host has
 * given it the CPU, (wake + wake_load x extra) units at its speed.
 */
#include <math.h>
#include <stdio.h>

#include "sched/loop/meas.h"
#include "sim/engine.h"
#include "sim/select.h"

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

/* When a message of 'bytes' that worker w sends at t leaves it (engine.h). */
static double sent(run *r, int w, double t, double bytes)
{
    return sim_sent(r, w, sim_cpu_of(r, w), t, bytes);
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
    ev.t = sim_to_master(r, w, sent(r, w, t, bytes), bytes);
    if (sim_post(r, ev) != 0)
        return -1;
    if (r->ah)
        r->ah[w].t_asked = first ? NAN : t;     /* the first's reply: no round trip */
    if (A > 0)
        return 0;
    again.has_result = 0;                   /* the results went out */
    return again.t == INFINITY ? 0 : sim_post(r, again);
}

/* Computes chunk ev iteration by iteration from ev->t_start, measuring
 * each into r->meas[ev->w]; returns its end. With request-ahead (r->ah) the
 * measurements start from what the worker measured since its last
 * request; r->meas[w] is what a request ahead carries (up to the mark),
 * whole and after are kept for the request at the end and the next one. */
static double timed(const run *r, const sim_host *h, sim_cpu *cpu, const event *ev,
                    long mark)
{
    aworker *a = r->ah ? &r->ah[ev->w] : NULL;
    sched_meas before, all, after;
    sched_meas_clear(&after);
    if (a)
        before = all = a->carry;
    else
        sched_meas_clear(&all);
    double t = ev->t_start;
    for (long k = ev->start; k < ev->start + ev->size; k++) {
        double cost = sim_work(r->wl, k, 1), u = sim_cpu_run(h, cpu, t, cost);
        sched_meas_add(&all, u - t, 1, cost);
        if (a)
            sched_meas_add(k - ev->start < mark ? &before : &after, u - t, 1, cost);
        t = u;
    }
    if (a && mark < ev->size) {
        sched_meas_get(&before, &r->meas[ev->w]);
        a->whole = all;
        a->after = after;
    } else {
        sched_meas_get(&all, &r->meas[ev->w]);
        if (a)
            sched_meas_clear(&a->carry);
    }
    return t;
}

/* Request-ahead: the iterations of chunk ev (starting at t on host h, its
 * quota used as *cpu says: a copy is advanced) done when its worker asks
 * (sched_ahead_due, checked after each one, as the PVM worker checks at
 * each piece), and when; ev->size: not inside it. */
static long ask_point(const run *r, const sim_host *h, sim_cpu cpu, const event *ev,
                      double t, double *t_mark)
{
    double F = r->c->ahead, wait = r->ah[ev->w].wait;
    *t_mark = t;
    if (F != SCHED_AHEAD_RTT) {
        long mark = sched_ahead_mark(ev->size, F);
        if (mark < ev->size)
            *t_mark = sim_cpu_run(h, &cpu, t, sim_work(r->wl, ev->start, mark));
        return mark;
    }
    if (!(wait >= 0))
        return ev->size;
    double u = t;
    for (long k = 1; k < ev->size; k++) {
        u = sim_cpu_run(h, &cpu, u, sim_work(r->wl, ev->start + k - 1, 1));
        if (sched_ahead_due(F, k, ev->size, u - t, wait)) {
            *t_mark = u;
            return k;
        }
    }
    return ev->size;
}

/* Worker w starts chunk ev (id, start, size) at t, come at t_recv: posts its
 * end (and with request-ahead, its mark, EV_AHEAD, when inside it). */
static int start_chunk(run *r, int w, event ev, double t_recv, double t)
{
    sworker *x = &r->w[w];
    const sim_host *h = x->h;
    if (r->c->busy && t < r->c->busy[w])
        t = r->c->busy[w];                  /* (sim.h: busy) */
    double t_mark = t;
    sim_cpu *cpu = sim_cpu_of(r, w);
    long mark = r->ah ? ask_point(r, h, *cpu, &ev, t, &t_mark) : ev.size;
    ev.t_recv = t_recv;
    ev.t_start = t;
    if (r->meas)
        ev.t_end = timed(r, h, cpu, &ev, mark);
    else
        ev.t_end = sim_cpu_run(h, cpu, t, sim_work(r->wl, ev.start, ev.size));
    if (r->ah) {
        aworker *a = &r->ah[w];
        a->busy = 1;
        a->asked = 0;
        a->id = ev.id;
        if (mark < ev.size &&
            sim_post(r, (event){.t = t_mark, .type = EV_AHEAD, .w = w, .id = ev.id}) != 0)
            return -1;
    }
    ev.type = EV_DONE;
    ev.has_result = 1;
    ev.t = ev.t_end;
    return sim_post(r, ev);
}

/* Request-ahead: worker w is at its chunk's mark at t; with A_i > 0 its
 * request goes now, without results. */
static int ask_ahead(run *r, int w, const event *ev)
{
    aworker *a = &r->ah[w];
    if (r->w[w].dead || !a->busy || a->id != ev->id)
        return 0;
    int Q = 1 + sim_extra_at(r->w[w].h, ev->t);
    double A = sched_acp(r->rec->w[w].V, Q, 1, r->c->acp_integer);
    if (!(A > 0))
        return 0;                           /* it asks at the end */
    a->asked = 1;
    a->t_asked = ev->t;
    if (r->meas)
        a->carry = a->after;
    double b = r->c->message_bytes;
    return sim_post(r, (event){.t = sim_to_master(r, w, sent(r, w, ev->t, b), b),
                               .type = EV_REPORT, .w = w, .Q = Q, .A = A,
                               .t_measure = ev->t});
}

/* Worker w's chunk ev is done: its results go with a request (report), or
 * on their own when its request went ahead; then the chunk that came
 * meanwhile starts. */
static int chunk_done(run *r, int w, event *ev)
{
    aworker *a = r->ah ? &r->ah[w] : NULL;
    if (!a || !a->asked) {
        if (a) {
            a->busy = 0;
            if (r->meas) {
                sched_meas_get(&a->whole, &r->meas[w]);
                sched_meas_clear(&a->carry);
            }
        }
        return report(r, w, ev->t, ev, 0);
    }
    event res = *ev;
    double bytes = r->c->message_bytes + r->c->result_bytes * (double)ev->size;
    double t = sent(r, w, ev->t, bytes);        /* then it can compute again */
    res.type = EV_RESULT;
    res.t = sim_to_master(r, w, t, bytes);
    if (sim_post(r, res) != 0)
        return -1;
    a->busy = a->asked = 0;
    if (!a->has_next)
        return 0;
    a->has_next = 0;
    a->wait = sched_ahead_wait(a->wait, ev->t - a->t_asked, 0);
    event next = {.w = w, .id = a->next_id, .start = a->next_start, .size = a->next_size};
    return start_chunk(r, w, next, a->next_recv, t);
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
    policy_now(r->p, t);                /* the chunks' assignment times */
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
        if (r->au)
            sim_auto_assign(r->au, pc.worker, pc.start, pc.size, t - r->rec->t0);
        event ev = {.type = EV_WORK, .w = pc.worker, .id = pc.id, .start = pc.start,
                    .size = pc.size};
        ev.t = sim_from_master(r, pc.worker, t + r->c->dispatch, r->c->message_bytes);
        if (sim_post(r, ev) != 0)
            return -1;
    }
    return got < 0 ? sim_fail(r, err.msg) : 0;
}

/* The results ev carries, taken by the master at t (a duplicate: refused). */
static int take_result(run *r, const event *ev, double t)
{
    policy_now(r->p, t);                /* AWF-D/E's time from assignment to result */
    if (ev->has_result &&
        policy_done_w(r->p, ev->w, ev->id, ev->t_end - ev->t_start, NULL) == 0) {
        if (record_done_id(r->rec, ev->id, ev->w, ev->size, ev->t_recv, ev->t_start,
                           ev->t_end, t) != 0)
            return sim_fail(r, record_error(r->rec));
        if (r->au)                  /* its time from assignment to result not
                                       spent computing, as the PVM master's */
            sim_auto_chunk(r->au, ev->w, ev->start, ev->size, ev->t_end - ev->t_start,
                           r->c->dispatch + sim_delay(r, r->pf->master, r->w[ev->w].h->cluster,
                                                      r->c->message_bytes) +
                           ev->t_start - ev->t_recv + t - ev->t_end, t - r->rec->t0);
    }
    if (policy_finished(r->p) && !r->finished) {
        r->finished = 1;
        r->rec->finish = t - r->rec->t0;
    }
    return 0;
}

static int on_report(run *r, const event *ev, double t)
{
    int w = ev->w;
    if (take_result(r, ev, t) != 0)
        return -1;
    if (record_report(r->rec, w, ev->Q, ev->A, ev->t_measure) != 0)
        return sim_fail(r, record_error(r->rec));
    int replans = policy_replans(r->p);
    if (r->au)
        sim_auto_report(r->au, w, ev->A);
    sched_request rq = r->meas ? r->meas[w] : (sched_request){0};
    rq.worker = w;
    rq.acp = ev->A;
    if (r->w[w].dead || policy_request_m(r->p, &rq, NULL) != 0)
        return 0;
    if (policy_replans(r->p) > replans &&
        record_replan(r->rec, t, policy_alive(r->p), policy_power(r->p)) != 0)
        return sim_fail(r, record_error(r->rec));
    if (r->finished)
        return 0;
    if (r->au && sim_auto_due(r->au, r->p)) {
        char msg[256];                  /* (a decision that fails: the scheme stays) */
        if (sim_auto_decide(r->au, r->p, t - r->rec->t0, msg, sizeof msg) >= 0 &&
            record_field(r->rec, "auto", sim_auto_field(r->au), msg, sizeof msg) != 0)
            return sim_fail(r, msg);
    }
    return serve(r);
}

int sim_self_start(run *r)
{
    sched_err err;
    r->p = policy_new(&r->c->sched, r->n, &err);
    if (!r->p)
        return sim_fail(r, err.msg);
    if (r->c->autosel && policy_measure(r->p, &err) != SCHED_OK)
        return sim_fail(r, err.msg);
    if (r->c->autosel &&
        !(r->au = sim_auto_new(r->n, r->wl->n, r->wl->sample, r->c->candidates, r->c->auto_max > 0 ?
                               r->c->auto_max : SIM_AUTO_MAX, r->c->ahead, r->msg, r->len)))
        return -1;
    for (int w = 0; w < r->n; w++) {
        if (policy_set_speed(r->p, w, r->rec->w[w].V, &err) != 0)
            return sim_fail(r, err.msg);
        if (r->au)
            sim_auto_speed(r->au, w, r->rec->w[w].V);
    }
    if (r->au) {                        /* in seconds of a V = 1 host */
        double one = r->w[0].h->speed / r->rec->w[0].V;
        sim_auto_costs(r->au, r->c->send_cost * r->c->result_bytes / one, r->c->wake / one,
                       r->c->wake_load / one);
    }
    for (int w = 0; r->ah && w < r->n; w++)
        r->ah[w].wait = NAN;
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
    case EV_RESULT:
    case EV_NOTICE: {
        int now = sim_master_take(r, &ev);
        if (now <= 0)
            return now;
        if (ev.type == EV_REPORT)
            return on_report(r, &ev, ev.t);
        if (ev.type == EV_RESULT)
            return take_result(r, &ev, ev.t) != 0 ? -1 : r->finished ? 0 : serve(r);
        if (policy_lost(r->p, ev.w, &err) < 0)
            return sim_fail(r, err.msg);
        if (policy_alive(r->p) == 0)
            return sim_fail(r, "every worker's host failed before the end");
        return serve(r);
    }
    case EV_WORK:
        if (x->dead)
            return 0;
        if (r->ah && r->ah[ev.w].busy) {        /* came ahead: it waits */
            aworker *a = &r->ah[ev.w];
            a->has_next = 1;
            a->next_id = ev.id;
            a->next_start = ev.start;
            a->next_size = ev.size;
            a->next_recv = ev.t;
            return 0;
        }
        if (r->ah)
            r->ah[ev.w].wait = sched_ahead_wait(r->ah[ev.w].wait, ev.t - r->ah[ev.w].t_asked, 1);
        return start_chunk(r, ev.w, ev, ev.t, sim_woken(r, ev.w, ev.t));
    case EV_AHEAD:
        return ask_ahead(r, ev.w, &ev);
    case EV_DONE:
        return !x->dead ? chunk_done(r, ev.w, &ev) : 0;
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
