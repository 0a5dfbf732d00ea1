/* tree.c: Tree-Scheduling in the simulator, on sched/loop/tree.c's reading: a
 * static split by V_i, a chain by speed, an idle worker asks its partner,
 * who answers when its current iteration ends and gives the upper half of
 * what it has left; a worker whose partner has nothing (or is dead) tells
 * the master it is idle. A host that fails takes its range with it; the
 * master hears of it one latency later and, once every live worker is
 * idle, serves the missing ranges again (tree_recover), as the PVM master
 * does.
 * What messages cost a worker's host, as for the self-scheduling workers
 * (engine.h: sim_sent, sim_woken; sim.h: send_cost, wake, wake_load): its
 * results, its request to its partner, its answer to a thief and its idle
 * notice each leave once its CPU has computed send_cost units a byte of
 * them, one after the other on its link (sim_from_worker); a message that
 * reaches a waiting worker (a range, its partner's answer, a thief's
 * request) is acted on once its host gives it the CPU (wake), one that
 * comes while it sends once it has sent (it did not wait). A worker that
 * answers a thief while it computes goes on once its answer has left (on
 * PVM it answers between two pieces, in the same process). A host with a
 * CPU quota computes under it (sim_cpu_run), as in self.c.
 */
#include <stdlib.h>

#include "sim/engine.h"

/* Worker w computes its segment, from iteration seg_pos at seg_t (its
 * host's quota state then: seg_cpu) to its range's end: posts that end (a
 * new version: an earlier end posted is superseded). */
static int compute(run *r, int w)
{
    tworker *y = &r->tw[w];
    sim_cpu cpu = y->seg_cpu;
    y->version++;
    double done = sim_cpu_run(r->w[w].h, &cpu, y->seg_t,
                              sim_work(r->wl, y->seg_pos, y->end - y->seg_pos));
    if (r->cpu)
        r->cpu[w] = cpu;
    return sim_post(r, (event){.t = done, .type = EV_DONE, .w = w, .version = y->version});
}

/* Worker w goes on from iteration pos at t, its quota state *cpu. */
static int resume(run *r, int w, double t, long pos, const sim_cpu *cpu)
{
    tworker *y = &r->tw[w];
    y->seg_t = t;
    y->seg_pos = pos;
    y->seg_cpu = *cpu;
    return compute(r, w);
}

/* Worker w, come at t_recv, starts computing [start, start + size) at t;
 * id >= 0 for a range the master serves again. */
static int begin(run *r, int w, double t_recv, double t, long id, long start, long size)
{
    tworker *y = &r->tw[w];
    y->busy = 1;
    y->piece_recv = t_recv;
    y->piece_t0 = t;
    y->piece_start = start;
    y->end = start + size;
    y->piece_id = id;
    return resume(r, w, t, start, sim_cpu_of(r, w));
}

/* How many iterations of worker w's segment are done at t. */
static long reached(const run *r, int w, double t)
{
    const tworker *y = &r->tw[w];
    const sim_host *h = r->w[w].h;
    long limit = y->end - y->seg_pos;
    if (!(h->quota > 0))
        return sim_reach(r->wl, y->seg_pos, limit, sim_work_between(h, y->seg_t, t));
    long lo = 0, hi = limit;            /* the largest k done by t: in [lo, hi] */
    while (lo < hi) {
        long mid = lo + (hi - lo + 1) / 2;
        sim_cpu cpu = y->seg_cpu;
        if (sim_cpu_run(h, &cpu, y->seg_t, sim_work(r->wl, y->seg_pos, mid)) <= t)
            lo = mid;
        else
            hi = mid - 1;
    }
    return lo;
}

/* When worker w, not computing, acts on a message that reached it at t:
 * once it has sent what it was sending, or, waiting, once its host runs it
 * (wake). */
static double acts(const run *r, int w, double t)
{
    double busy_until = r->tw[w].cpu_free;
    return t < busy_until ? busy_until : sim_woken(r, w, t);
}

/* Worker w sends a message of 'bytes' at t (its CPU's part): when it has
 * left. */
static double sends(run *r, int w, double t, double bytes)
{
    return r->tw[w].cpu_free = sim_sent(r, w, sim_cpu_of(r, w), t, bytes);
}

/* Worker w, idle at t, asks its partner; with none, it tells the master. */
static int ask(run *r, int w, double t)
{
    int p = tree_partner(r->t, w);
    double b = r->c->message_bytes;
    t = sends(r, w, t, b);
    if (p < 0)
        return sim_post(r, (event){.t = sim_to_master(r, w, t, b), .type = EV_IDLE, .w = w});
    return sim_post(r, (event){.t = sim_from_worker(r, w, r->w[p].h->cluster, t, b),
                               .type = EV_STEAL, .w = p, .from = w});
}

/* Worker x (index w) is asked by 'from' at t: it answers when the iteration
 * in progress ends, with the upper half of what it has left. */
static int on_steal(run *r, int w, const event *ev)
{
    sworker *x = &r->w[w];
    tworker *y = &r->tw[w];
    long give = 0, from = 0;
    double t = ev->t;
    if (x->dead) {                      /* the asker hears of the death instead */
        double d = sim_delay(r, x->h->cluster, r->w[ev->from].h->cluster, 0);
        return sim_post(r, (event){.t = t + d, .type = EV_GIVE, .w = ev->from,
                                   .from = w, .id = -1});
    }
    double b = r->c->message_bytes;
    if (y->busy) {                      /* after its iteration in progress */
        long pos = y->seg_pos + reached(r, w, ev->t);
        long next = pos < y->end ? pos + 1 : pos;
        sim_cpu cpu = y->seg_cpu;
        t = sim_cpu_run(x->h, &cpu, y->seg_t, sim_work(r->wl, y->seg_pos, next - y->seg_pos));
        if (t < ev->t)
            t = ev->t;
        give = tree_give(y->end - next);
        y->end -= give;
        from = y->end;
        double sent = sim_sent(r, w, &cpu, t, b);
        if (sent > t) {                 /* its answer took its CPU: on after */
            if (resume(r, w, sent, next, &cpu) != 0)
                return -1;
            t = sent;
        } else if (give > 0 && compute(r, w) != 0) {
            return -1;
        }
    } else {
        t = sends(r, w, acts(r, w, t), b);
    }
    return sim_post(r, (event){.t = sim_from_worker(r, w, r->w[ev->from].h->cluster, t, b),
                               .type = EV_GIVE, .w = ev->from, .from = w, .id = -1,
                               .start = from, .size = give});
}

/* The master serves again what was lost, if every live worker is idle. */
static int recover(run *r, double t)
{
    policy_chunk pc;
    sched_err err;
    int got;
    while ((got = tree_recover(r->t, &pc, &err)) == 1) {
        if (r->rec->nchunks >= SIM_MAX_CHUNKS)
            return sim_too_many(r);
        rec_chunk *c = record_chunk(r->rec);
        if (!c)
            return sim_fail(r, record_error(r->rec));
        *c = (rec_chunk){.id = r->rec->nchunks - 1, .worker = pc.worker,
                         .start = pc.start, .size = pc.size, .sent = t, .reissue = 1};
        if (sim_post(r, (event){.t = sim_from_master(r, pc.worker, t, r->c->message_bytes),
                                .type = EV_GIVE, .w = pc.worker, .from = -1, .id = c->id,
                                .start = pc.start, .size = pc.size}) != 0)
            return -1;
    }
    return got < 0 ? sim_fail(r, err.msg) : 0;
}

/* A worker's results reach the master at t. */
static int on_result(run *r, const event *ev, double t)
{
    if (r->w[ev->w].dead || tree_result(r->t, ev->w, ev->start, ev->size, NULL) != 0)
        return 0;                       /* refused, as the PVM master does */
    long id = ev->id;                   /* a range served again, its size less */
    if (id < 0) {                       /* what it gave away; or a new one */
        if (r->rec->nchunks >= SIM_MAX_CHUNKS)
            return sim_too_many(r);
        rec_chunk *c = record_chunk(r->rec);
        if (!c)
            return sim_fail(r, record_error(r->rec));
        *c = (rec_chunk){.id = r->rec->nchunks - 1, .worker = ev->w, .start = ev->start,
                         .size = ev->size, .sent = ev->t_recv};
        id = c->id;
    }
    if (record_done_id(r->rec, id, ev->w, ev->size, ev->t_recv, ev->t_start, ev->t_end,
                       t) != 0)
        return sim_fail(r, record_error(r->rec));
    if (tree_finished(r->t)) {
        r->finished = 1;
        r->rec->finish = t;
    }
    return 0;
}

/* The events at the master, taken one at a time. */
static int at_master(run *r, event *ev)
{
    int now = sim_master_take(r, ev);
    if (now <= 0)
        return now;
    double t = ev->t;
    if (ev->type == EV_RESULT)
        return on_result(r, ev, t);
    if (ev->type == EV_IDLE) {
        tree_idle(r->t, ev->w);
    } else {                            /* EV_NOTICE */
        tree_lost(r->t, ev->w);
        if (tree_alive(r->t) == 0)
            return sim_fail(r, "every worker's host failed before the end");
    }
    return recover(r, r->master_free);
}

int sim_tree_start(run *r)
{
    sched_err err;
    const long I = r->wl->n;
    double *V = malloc(sizeof *V * (size_t)r->n);
    r->tw = calloc((size_t)r->n, sizeof *r->tw);
    if (!V || !r->tw) {
        free(V);
        return sim_fail(r, "out of memory");
    }
    for (int w = 0; w < r->n; w++)
        V[w] = r->rec->w[w].V;
    r->t = tree_new(I, V, r->n, &err);
    free(V);
    if (!r->t)
        return sim_fail(r, err.msg);
    r->rec->t0 = 0;
    for (int w = 0; w < r->n; w++) {
        long start, size;
        tree_range(r->t, w, &start, &size);
        if (sim_post(r, (event){.t = sim_from_master(r, w, 0, r->c->message_bytes),
                                .type = EV_GIVE, .w = w, .from = -1, .id = -1,
                                .start = start, .size = size}) != 0)
            return -1;
        if (r->w[w].h->fail >= 0 &&
            sim_post(r, (event){.t = r->w[w].h->fail, .type = EV_FAIL, .w = w}) != 0)
            return -1;
    }
    if (I == 0)
        r->finished = 1;
    return 0;
}

int sim_tree_event(run *r, event *e)
{
    event ev = *e;
    sworker *x = &r->w[ev.w];
    tworker *y = &r->tw[ev.w];
    int rc = 0;
    switch (ev.type) {
    case EV_GIVE: {                 /* work (or none) reaches a waiting worker */
        if (x->dead)
            break;
        double t = acts(r, ev.w, ev.t);
        if (ev.size > 0) {
            rc = begin(r, ev.w, ev.t, t, ev.id, ev.start, ev.size);
        } else if (ev.from >= 0) {  /* the partner had none: idle */
            double b = r->c->message_bytes;
            t = sends(r, ev.w, t, b);
            rc = sim_post(r, (event){.t = sim_to_master(r, ev.w, t, b), .type = EV_IDLE,
                                     .w = ev.w});
        } else {
            rc = ask(r, ev.w, t);   /* an empty initial range */
        }
        break;
    }
    case EV_STEAL:
        rc = on_steal(r, ev.w, &ev);
        break;
    case EV_DONE: {
        if (x->dead || ev.version != y->version || !y->busy)
            return 0;               /* superseded by a steal */
        y->busy = 0;
        long n = y->end - y->piece_start;
        double bytes = r->c->message_bytes + r->c->result_bytes * (double)n, t = ev.t;
        if (n > 0) {                /* its results, then its request */
            t = sends(r, ev.w, ev.t, bytes);
            rc = sim_post(r, (event){.t = sim_to_master(r, ev.w, t, bytes), .type = EV_RESULT,
                                     .w = ev.w, .id = y->piece_id, .start = y->piece_start,
                                     .size = n, .t_recv = y->piece_recv,
                                     .t_start = y->piece_t0, .t_end = ev.t});
        }
        if (rc == 0)
            rc = ask(r, ev.w, t);
        break;
    }
    case EV_RESULT:
    case EV_IDLE:
    case EV_NOTICE:
        rc = at_master(r, &ev);
        break;
    case EV_FAIL:
        x->dead = 1;
        y->busy = 0;
        rc = sim_post(r, (event){.t = sim_to_master(r, ev.w, ev.t, 0),
                                 .type = EV_NOTICE, .w = ev.w});
        break;
    }
    return rc;
}

int sim_tree_end(run *r)
{
    if (!r->finished)
        return sim_fail(r, "the simulation stalled: no event left before the end");
    return 0;
}
