/* tree.c: Tree-Scheduling in the simulator, on sched/loop/tree.c's reading: a
 * static split by V_i, a chain by speed, an idle worker asks its partner,
 * who answers when its current iteration ends and gives the upper half of
 * what it has left; a worker whose partner has nothing (or is dead) tells
 * the master it is idle. A host that fails takes its range with it; the
 * master hears of it one latency later and, once every live worker is
 * idle, serves the missing ranges again (tree_recover), as the PVM master
 * does.
 */
#include <stdlib.h>

#include "sim/engine.h"

/* Worker w starts computing [start, start + size) at t; id >= 0 for a range
 * the master serves again. */
static int begin(run *r, int w, double t, long id, long start, long size)
{
    sworker *x = &r->w[w];
    tworker *y = &r->tw[w];
    y->busy = 1;
    y->seg_t = y->piece_recv = y->piece_t0 = t;
    y->seg_pos = y->piece_start = start;
    y->end = start + size;
    y->piece_id = id;
    y->version++;
    double done = sim_advance(x->h, t, sim_work(r->wl, start, size));
    return sim_post(r, (event){.t = done, .type = EV_DONE, .w = w, .version = y->version});
}

/* Worker w, idle at t, asks its partner; with none, it tells the master. */
static int ask(run *r, int w, double t)
{
    int p = tree_partner(r->t, w);
    if (p < 0)
        return sim_post(r, (event){.t = sim_to_master(r, w, t, r->c->message_bytes),
                                   .type = EV_IDLE, .w = w});
    double d = sim_delay(r, r->w[w].h->cluster, r->w[p].h->cluster, r->c->message_bytes);
    return sim_post(r, (event){.t = t + d, .type = EV_STEAL, .w = p, .from = w});
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
    if (y->busy) {
        long pos = y->seg_pos + sim_reach(r->wl, y->seg_pos, y->end - y->seg_pos,
                                          sim_work_between(x->h, y->seg_t, ev->t));
        long next = pos < y->end ? pos + 1 : pos;
        t = sim_advance(x->h, y->seg_t, sim_work(r->wl, y->seg_pos, next - y->seg_pos));
        give = tree_give(y->end - next);
        if (give > 0) {
            y->end -= give;
            from = y->end;
            y->version++;
            double done = sim_advance(x->h, y->seg_t,
                                      sim_work(r->wl, y->seg_pos, y->end - y->seg_pos));
            if (sim_post(r, (event){.t = done, .type = EV_DONE, .w = w,
                                    .version = y->version}) != 0)
                return -1;
        }
    }
    double d = sim_delay(r, x->h->cluster, r->w[ev->from].h->cluster, r->c->message_bytes);
    return sim_post(r, (event){.t = t + d, .type = EV_GIVE, .w = ev->from, .from = w,
                               .id = -1, .start = from, .size = give});
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
    case EV_GIVE:                   /* work (or none) arrives */
        if (x->dead)
            break;
        if (ev.size > 0)
            rc = begin(r, ev.w, ev.t, ev.id, ev.start, ev.size);
        else if (ev.from >= 0)      /* the partner had none: idle */
            rc = sim_post(r, (event){.t = sim_to_master(r, ev.w, ev.t,
                                                        r->c->message_bytes),
                                     .type = EV_IDLE, .w = ev.w});
        else
            rc = ask(r, ev.w, ev.t);    /* an empty initial range */
        break;
    case EV_STEAL:
        rc = on_steal(r, ev.w, &ev);
        break;
    case EV_DONE: {
        if (x->dead || ev.version != y->version || !y->busy)
            return 0;               /* superseded by a steal */
        y->busy = 0;
        long n = y->end - y->piece_start;
        double bytes = r->c->message_bytes + r->c->result_bytes * (double)n;
        event res = {.t = sim_to_master(r, ev.w, ev.t, bytes), .type = EV_RESULT,
                     .w = ev.w, .id = y->piece_id, .start = y->piece_start,
                     .size = n, .t_recv = y->piece_recv, .t_start = y->piece_t0,
                     .t_end = ev.t};
        rc = n > 0 ? sim_post(r, res) : 0;
        if (rc == 0)
            rc = ask(r, ev.w, ev.t);
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
