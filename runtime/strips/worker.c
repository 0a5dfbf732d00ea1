/* strips_worker.c: a worker of a row-strip computation (dtss.h,
 * dtss_strips_worker_*; the master is strips_master.c). It holds one
 * contiguous strip of rows (sched/strips/strips.h strips_node) of the cut the
 * master's START gave it (the workers in strip order, their counts; epoch 0
 * at the start, one more at each restore); it asks for its rows (FETCH) and
 * the master sends them (ROWS); once it holds them it
 * tells the master (STATE of that step, no rows) and waits for the go (PLAN
 * of that step, when every worker holds its rows); then, step after step:
 * sends its first row to the worker above and its last to the worker below
 * (HALO), receives theirs, and hands the application its rows with those
 * halo rows to compute the next step into a second buffer. Every K steps
 * (the job's 'every'; 0: never) it reports after a step (STATE: its rows, the
 * seconds the application computed since its last STATE, and on every
 * ckpt-th report the rows' bytes, the master's checkpoint); with re-cuts (the
 * job's 'recut'), or with the rows (so that a checkpoint is gathered before
 * any worker goes on to the next one), that is a barrier: it waits for the
 * new cut (PLAN), then
 * carries out its part of the transfers every worker computes alike
 * (sched/strips/strips.h strips_transfers), in their order: rows taken off
 * its edge and sent (ROWS) to a neighbour, or received from one. After the
 * last step: STATE with its rows, then it waits for the master's STOP before
 * it leaves.
 *
 * A restore. A worker lost (its exit, or taken for hung by the master's late
 * rule) leaves its neighbours waiting for rows that never come. Whatever it
 * waits for, a worker also takes the master's START: a restore, from the
 * master's last checkpoint, among the workers left. It then drops what it
 * holds (its rows, a step in hand, halo rows that came early) and starts
 * again from START's step, as at the start. Every message between workers
 * carries the epoch: one of an earlier epoch (sent before the restore) is
 * dropped. No worker sends a message of the new epoch to another before the
 * master's PLAN, which comes once every worker left holds its new rows, so
 * a message of a later epoch than the receiver's never comes.
 *
 * Alive while waiting. With the late rule on (the job's 'poll' > 0), a
 * worker that waits (for a neighbour's rows, or the master) tells the master
 * so every 'poll' seconds (WAIT): the master, seeing a barrier overdue,
 * takes for hung only a worker silent that long, not the ones waiting for
 * it. Every wait, and every half second between steps, it also looks for
 * the master's exit (DTSS_ELOST) and a START.
 *
 * Neighbours a step apart: a worker can be one step ahead of its neighbour
 * (it needs the neighbour's row of the step before), never two. Messages
 * between two tasks were seen to overtake each other once (the first ones,
 * while the direct route between two workers is being set up), so a HALO of
 * the step after the one wanted is kept for the next step; any other step
 * of the same epoch is an error.
 */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>


#include "runtime/dtss.h"
#include "runtime/core/handle.h"
#include "runtime/core/join.h"
#include "runtime/core/wire.h"
#include "sched/strips/strips.h"

/* wait_for's and the steps' code for "a START came: restore from it" (not
 * a DTSS_ code: never returned to the application). */
#define RESTORE 1000
/* Seconds between two looks for the master's exit or a START. */
#define LOOK 0.5

struct dtss_strips_worker {
    rt_handle h;                /* first: errors; the job (h.failed: stopped, lost or failed) */
    tr_event ev;                /* the message in hand (wait_for) */
    wire_stripjob job;
    /* the epoch's cut (START) */
    long epoch;                 /* -1 before the first START */
    int n, pos;                 /* the workers of the epoch, this one's position */
    tr_peer *tids;              /* n each (room for job.nworkers), strip order */
    int *counts;                /* every worker's rows now */
    wire_start pending;         /* a START taken, not yet carried out */
    strips_node node;           /* the strip after 'step' steps */
    unsigned char *out, *above, *below;
    unsigned char *early[2];    /* a halo row that came a step early, per side */
    unsigned char *scratch;     /* a halo row as it comes */
    long early_step[2];         /* its step; -1: none */
    int out_cap;
    long step;
    int in_hand;
    double busy, t_handed;
    double last_sent;           /* wire_mono: the last message to the master */
    double last_look;           /* wire_mono: the last look for its exit or a START */
    strips_transfer *tr;
};

/* The kind the base verbs of dtss.h dispatch on (core/handle.h). */
/* Rows go node to node; in fragments of 1 MiB, not libpvm's 4 KiB: on a
 * loaded host each fragment can cost the sender and the receiver a wake-up. */
RT_WORKER_BASE(strips_worker_kind, dtss_strips_worker, "dtss_strips_run",
               TR_HINT_PEERS | TR_HINT_LARGE)

#define fail(w, ...) rt_fail(&(w)->h, __VA_ARGS__)

/* The START in w->ev into w->pending: RESTORE, or DTSS_OK when it is of an
 * epoch already carried out (dropped), or an error. */
static int take_start(dtss_strips_worker *w)
{
    char msg[256];
    wire_start_free(&w->pending);
    if (wire_unpack_start(&w->ev, &w->pending, w->job.nworkers, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "a bad START: %s", msg);
    if (w->pending.epoch <= w->epoch) {
        wire_start_free(&w->pending);
        return DTSS_OK;
    }
    return RESTORE;
}

/* A look around, every wait's timeout and every second between steps: the
 * master's exit (DTSS_ELOST); with 'start', a START (RESTORE). Not while
 * waiting for the master, whose messages are then taken in their order: a
 * START taken ahead of a PLAN sent before it would leave that PLAN to be
 * read as the new epoch's. */
static int look(dtss_strips_worker *w, int start)
{
    char msg[512];
    tr_event n;
    w->last_look = wire_mono();
    if (tr_recv(TR_ANY, TR_NOTICES, 0, &n, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "%s", msg);
    if (n.kind == TR_PEER_EXIT && n.from == w->h.parent)
        return fail(w, DTSS_ELOST, "the master exited");
    if (!start)
        return DTSS_OK;
    if (tr_recv(w->h.parent, WIRE_START, 0, &w->ev, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "%s", msg);
    return w->ev.kind == TR_MESSAGE ? take_start(w) : DTSS_OK;
}

/* WAIT to the master: alive, waiting. */
static int note(dtss_strips_worker *w)
{
    char msg[256];
    w->last_sent = wire_mono();
    if (wire_send_wait(w->h.parent, w->epoch, w->job.index, w->step, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "%s", msg);
    return DTSS_OK;
}

/* Waits for a message of tag from tid (a neighbour, or the master), taking a
 * START from the master meanwhile. DTSS_OK with the message in w->ev;
 * RESTORE (a START in w->pending); or an error (the master exited:
 * DTSS_ELOST; another message from the master: DTSS_EPVM). */
static int wait_for(dtss_strips_worker *w, tr_peer tid, int tag)
{
    char msg[512];
    int master = tid == w->h.parent, rc;
    for (;;) {
        double tmo = LOOK, now = wire_mono();
        if (w->job.poll > 0) {
            double due = w->last_sent + w->job.poll - now;
            if (due <= 0) {
                if ((rc = note(w)) != DTSS_OK)
                    return rc;
                continue;
            }
            tmo = due < tmo ? due : tmo;
        }
        if (now - w->last_look >= LOOK && (rc = look(w, !master)) != DTSS_OK)
            return rc;
        if (tr_recv(tid, master ? TR_ANY : tag, tmo, &w->ev, msg, sizeof msg) < 0)
            return fail(w, DTSS_EPVM, "%s", msg);
        if (w->ev.kind == TR_PEER_EXIT && w->ev.from == w->h.parent)
            return fail(w, DTSS_ELOST, "the master exited");
        if (w->ev.kind == TR_TIMEOUT) {
            if ((rc = look(w, !master)) != DTSS_OK)
                return rc;
            continue;
        }
        if (w->ev.kind != TR_MESSAGE)
            continue;
        if (w->ev.tag == tag)
            return DTSS_OK;
        if (w->ev.tag == WIRE_START) {
            if ((rc = take_start(w)) != DTSS_OK)
                return rc;
            continue;
        }
        return fail(w, DTSS_EPVM, "%s from the master while waiting for %s",
                    wire_tag_name(w->ev.tag), wire_tag_name(tag));
    }
}

/* STATE to the master after w->step steps, with the rows when 'rows'. */
static int report(dtss_strips_worker *w, int rows)
{
    char msg[256];
    wire_state s = {.epoch = w->epoch, .index = w->job.index, .step = w->step,
                    .rows = w->node.rows, .first = w->node.first, .busy = w->busy,
                    .t = wire_now(), .data = rows ? w->node.data : NULL,
                    .bytes = rows ? (size_t)w->node.rows * w->node.row_bytes : 0};
    w->last_sent = wire_mono();
    if (wire_send_state(w->h.parent, &s, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "%s", msg);
    w->busy = 0;
    return DTSS_OK;
}

/* Room for the next step's rows, every page touched: its faults come now,
 * not in the first steps' busy seconds, which the first re-cut reads as the
 * host's rate. */
static int room(dtss_strips_worker *w)
{
    if (w->out_cap >= w->node.rows)
        return DTSS_OK;
    size_t nb = (size_t)w->node.rows * w->node.row_bytes;
    unsigned char *o = realloc(w->out, nb);
    if (!o)
        return fail(w, DTSS_ENOMEM, "out of memory for %d rows", w->node.rows);
    for (size_t k = 0; k < nb; k += 4096)       /* a byte a page */
        ((volatile unsigned char *)o)[k] = 0;
    w->out = o;
    w->out_cap = w->node.rows;
    return DTSS_OK;
}

/* Asks the master for its rows [first, first + count) of the START carried
 * out (FETCH) and takes them (ROWS) as its strip: DTSS_OK, RESTORE (a later
 * START came first), or an error. */
static int fetch(dtss_strips_worker *w, int first, int count)
{
    char msg[256];
    size_t rb = (size_t)w->job.row_bytes;
    int rc;
    w->last_sent = wire_mono();
    if (wire_send_fetch(w->h.parent, w->epoch, w->job.index, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "%s", msg);
    for (;;) {
        long epoch;
        int f, c;
        void *data;
        size_t bytes;
        if ((rc = wait_for(w, w->h.parent, WIRE_ROWS)) != DTSS_OK)
            return rc;
        if (wire_unpack_rows(&w->ev, &epoch, &f, &c, &data, &bytes, msg, sizeof msg) < 0)
            return fail(w, DTSS_EPVM, "%s", msg);
        if (epoch < w->epoch) {         /* (of a START overtaken) */
            free(data);
            continue;
        }
        if (epoch != w->epoch || f != first || c != count || bytes != (size_t)count * rb) {
            free(data);
            return fail(w, DTSS_EPVM, "the master sent rows %d..%d of epoch %ld in %zu bytes "
                        "for rows %d..%d of epoch %ld of %zu bytes each", f, f + c - 1, epoch,
                        bytes, first, first + count - 1, w->epoch, rb);
        }
        strips_node_free(&w->node);
        w->node = (strips_node){.first = first, .rows = count, .cap = count, .row_bytes = rb,
                                .data = data};
        return DTSS_OK;
    }
}

/* Carries out w->pending (a START): the new cut, its rows asked for (fetch),
 * the master told (STATE, no rows), its PLAN of that step waited for; again
 * while another START comes meanwhile. */
static int restore(dtss_strips_worker *w)
{
    char msg[256];
    int rc;
    for (;;) {
        wire_start *s = &w->pending;
        int first = 0, count = s->counts[s->pos];
        for (int i = 0; i < s->pos; i++)
            first += s->counts[i];
        if (s->n > w->job.nworkers || s->step > w->job.steps)
            return fail(w, DTSS_EPVM, "a START of %d workers at step %ld (a crew of %d, %ld "
                        "steps)", s->n, s->step, w->job.nworkers, w->job.steps);
        w->epoch = s->epoch;
        w->step = s->step;
        w->n = s->n;
        w->pos = s->pos;
        memcpy(w->tids, s->tids, sizeof *w->tids * (size_t)s->n);
        memcpy(w->counts, s->counts, sizeof *w->counts * (size_t)s->n);
        wire_start_free(s);
        if ((rc = fetch(w, first, count)) == RESTORE)
            continue;
        if (rc != DTSS_OK)
            return rc;
        w->early_step[0] = w->early_step[1] = -1;
        w->in_hand = 0;
        w->busy = 0;
        if ((rc = room(w)) != DTSS_OK || (rc = report(w, 0)) != DTSS_OK)
            return rc;
        rc = wait_for(w, w->h.parent, WIRE_PLAN);
        if (rc == RESTORE)
            continue;
        if (rc != DTSS_OK)
            return rc;
        long epoch, step;
        int *target = malloc(sizeof *target * (size_t)w->n);
        if (!target)
            return fail(w, DTSS_ENOMEM, "out of memory");
        rc = wire_unpack_plan(&w->ev, &epoch, &step, target, w->n, msg, sizeof msg);
        int same = rc == 0 && memcmp(target, w->counts, sizeof *target * (size_t)w->n) == 0;
        free(target);
        if (rc < 0 || epoch != w->epoch || step != w->step || !same)
            return fail(w, DTSS_EPVM, "a bad go of epoch %ld at step %ld: %s", w->epoch,
                        w->step, rc < 0 ? msg : "another plan than START's");
        return DTSS_OK;
    }
}

/* The rows of transfer t from its sender, of this epoch (earlier ones
 * dropped), into the strip. */
static int take_rows(dtss_strips_worker *w, const strips_transfer *t)
{
    char msg[256];
    sched_err err;
    for (;;) {
        int rc, first, count;
        long epoch;
        void *data = NULL;
        size_t got, nb = (size_t)t->count * w->node.row_bytes;
        if ((rc = wait_for(w, w->tids[t->from], WIRE_ROWS)) != DTSS_OK)
            return rc;
        if (wire_unpack_rows(&w->ev, &epoch, &first, &count, &data, &got, msg, sizeof msg) < 0)
            return fail(w, DTSS_EPVM, "%s", msg);
        if (epoch < w->epoch) {
            free(data);
            continue;
        }
        if (epoch != w->epoch || first != t->first || count != t->count || got != nb)
            rc = fail(w, DTSS_EPVM, "rows %d..%d of epoch %ld came for %d..%d of epoch %ld",
                      first, first + count - 1, epoch, t->first, t->first + t->count - 1,
                      w->epoch);
        else if (strips_node_put(&w->node, t, data, &err) != SCHED_OK)
            rc = fail(w, err.code == SCHED_ENOMEM ? DTSS_ENOMEM : DTSS_EPVM, "%s", err.msg);
        free(data);
        return rc;
    }
}

/* The report after w->step steps: STATE, the rows too on every ckpt-th
 * (a checkpoint); with re-cuts, or with the rows, a barrier: then PLAN and
 * this worker's transfers (none without re-cuts: the plan is the cut). */
static int barrier(dtss_strips_worker *w)
{
    char msg[256];
    sched_err err;
    int P = w->n, me = w->pos, rc;
    long b = w->step / w->job.every;
    int rows = w->job.ckpt > 0 && b % w->job.ckpt == 0;
    if ((rc = report(w, rows)) != DTSS_OK)
        return rc;
    if (!w->job.recut && !rows)         /* no barrier: go on */
        return DTSS_OK;
    if ((rc = wait_for(w, w->h.parent, WIRE_PLAN)) != DTSS_OK)
        return rc;
    int *target = malloc(sizeof *target * (size_t)P);
    long epoch, step;
    if (!target)
        return fail(w, DTSS_ENOMEM, "out of memory");
    if (wire_unpack_plan(&w->ev, &epoch, &step, target, P, msg, sizeof msg) < 0 ||
        epoch != w->epoch || step != w->step) {
        free(target);
        return fail(w, DTSS_EPVM, "a bad plan after step %ld of epoch %ld: %s", w->step,
                    w->epoch, msg);
    }
    int n = strips_transfers(P, w->counts, target, w->tr, &err);
    if (n < 0) {
        free(target);
        return fail(w, DTSS_EPVM, "the plan after step %ld: %s", w->step, err.msg);
    }
    rc = DTSS_OK;
    for (int k = 0; k < n && rc == DTSS_OK; k++) {
        const strips_transfer *t = &w->tr[k];
        size_t nb = (size_t)t->count * w->node.row_bytes;
        if (t->from == me) {
            void *buf = malloc(nb);
            if (!buf)
                rc = fail(w, DTSS_ENOMEM, "out of memory for %d rows", t->count);
            else if (strips_node_take(&w->node, t, buf, &err) != SCHED_OK)
                rc = fail(w, DTSS_EPVM, "%s", err.msg);
            else if (wire_send_rows(w->tids[t->to], w->epoch, t->first, t->count, buf, nb, msg,
                                    sizeof msg) < 0)
                rc = fail(w, DTSS_EPVM, "%s", msg);
            free(buf);
        } else if (t->to == me) {
            rc = take_rows(w, t);
        }
    }
    if (rc == DTSS_OK)
        memcpy(w->counts, target, sizeof *target * (size_t)P);
    free(target);
    return rc;
}

/* The halo rows for the step after w->step. */
static int halos(dtss_strips_worker *w)
{
    char msg[256];
    int me = w->pos, P = w->n, rc;
    size_t rb = w->node.row_bytes;
    const unsigned char *u = w->node.data;
    if (me > 0 && wire_send_halo(w->tids[me - 1], w->epoch, w->step, u, rb, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "%s", msg);
    if (me < P - 1 && wire_send_halo(w->tids[me + 1], w->epoch, w->step,
                                     u + (size_t)(w->node.rows - 1) * rb, rb, msg,
                                     sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "%s", msg);
    for (int side = 0; side < 2; side++) {
        int nb = side == 0 ? me - 1 : me + 1;
        unsigned char *halo = side == 0 ? w->above : w->below;
        if (nb < 0 || nb >= P)
            continue;
        if (w->early_step[side] == w->step) {       /* it came already */
            memcpy(halo, w->early[side], rb);
            w->early_step[side] = -1;
            continue;
        }
        for (;;) {
            long epoch, step;
            if ((rc = wait_for(w, w->tids[nb], WIRE_HALO)) != DTSS_OK)
                return rc;
            if (wire_unpack_halo(&w->ev, &epoch, &step, w->scratch, rb, msg, sizeof msg) < 0)
                return fail(w, DTSS_EPVM, "%s", msg);
            if (epoch < w->epoch)
                continue;                               /* sent before a restore */
            if (epoch == w->epoch && step == w->step) {
                memcpy(halo, w->scratch, rb);
                break;
            }
            if (epoch != w->epoch || step != w->step + 1 || w->early_step[side] >= 0)
                return fail(w, DTSS_EPVM, "the halo row of step %ld (epoch %ld) came for "
                            "step %ld (epoch %ld)", step, epoch, w->step, w->epoch);
            memcpy(w->early[side], w->scratch, rb);     /* kept for the next step */
            w->early_step[side] = step;
        }
    }
    return DTSS_OK;
}

int dtss_strips_worker_open(dtss_strips_worker **wp, int argc, char **argv)
{
    int rc;
    dtss_strips_worker *w = *wp =
        runtime_worker_open(sizeof **wp, &strips_worker_kind, argc, argv, &rc);
    char msg[256];
    if (rc != DTSS_OK)
        return rc;
    w->epoch = -1;
    w->early_step[0] = w->early_step[1] = -1;
    w->last_sent = w->last_look = wire_mono();
    if ((rc = wait_for(w, w->h.parent, WIRE_STRIPJOB)) != DTSS_OK)
        return rc == RESTORE ? fail(w, DTSS_EPVM, "a START before the job") : rc;
    if (wire_unpack_stripjob(&w->ev, &w->job, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "a bad job: %s", msg);
    w->h.job = w->job.job;              /* the base's view of it (wire_stripjob's) */
    w->h.job_len = w->job.job_len;
    size_t rb = (size_t)w->job.row_bytes, P = (size_t)w->job.nworkers;
    w->tids = malloc(sizeof *w->tids * P);
    w->counts = malloc(sizeof *w->counts * P);
    w->tr = malloc(sizeof *w->tr * P);
    w->above = malloc(rb);
    w->below = malloc(rb);
    w->early[0] = malloc(rb);
    w->early[1] = malloc(rb);
    w->scratch = malloc(rb);
    if (!w->tids || !w->counts || !w->tr || !w->above || !w->below || !w->early[0] ||
        !w->early[1] || !w->scratch)
        return fail(w, DTSS_ENOMEM, "out of memory");
    w->node.row_bytes = rb;
    /* The first cut and rows (START of epoch 0), then the go. */
    rc = wait_for(w, w->h.parent, WIRE_START);
    if (rc == DTSS_OK)
        rc = take_start(w);
    return rc == RESTORE ? restore(w) : rc == DTSS_OK ? fail(w, DTSS_EPVM, "no start") : rc;
}

/* The next step (dtss_strips_worker_step), or RESTORE when a START came. */
static int advance(dtss_strips_worker *w, dtss_strips_piece *p)
{
    int rc;
    if (w->in_hand) {                   /* out is the next step's rows */
        w->busy += wire_now() - w->t_handed;
        unsigned char *t = w->node.data;
        int cap = w->node.cap;
        w->node.data = w->out;
        w->node.cap = w->out_cap;
        w->out = t;
        w->out_cap = cap;
        w->in_hand = 0;
        w->step++;
        if (w->job.every > 0 && w->step % w->job.every == 0 && w->step < w->job.steps &&
            (rc = barrier(w)) != DTSS_OK)
            return rc;
    }
    if (w->step >= w->job.steps) {      /* the end: the rows to the master */
        if ((rc = report(w, 1)) != DTSS_OK)
            return rc;
        /* Gone only when the master has every row: its notice of our exit
         * could overtake our last messages (they go task to task). */
        if ((rc = wait_for(w, w->h.parent, WIRE_STOP)) != DTSS_OK)
            return rc;
        return fail(w, DTSS_DONE, "every step done");
    }
    if (wire_mono() - w->last_look >= LOOK && (rc = look(w, 1)) != DTSS_OK)
        return rc;
    if ((rc = room(w)) != DTSS_OK || (rc = halos(w)) != DTSS_OK)
        return rc;
    int me = w->pos;
    *p = (dtss_strips_piece){.step = w->step, .steps = w->job.steps, .first = w->node.first,
                             .rows = w->node.rows, .row_bytes = w->node.row_bytes,
                             .in = w->node.data, .above = me > 0 ? w->above : NULL,
                             .below = me < w->n - 1 ? w->below : NULL, .out = w->out};
    long total = 0;
    for (int i = 0; i < w->n; i++)
        total += w->counts[i];
    p->total_rows = total;
    w->in_hand = 1;
    w->t_handed = wire_now();
    return DTSS_PIECE;
}

int dtss_strips_worker_step(dtss_strips_worker *w, dtss_strips_piece *p)
{
    if (w->h.failed)
        return DTSS_EMISUSE;
    for (;;) {
        int rc = advance(w, p);
        if (rc == RESTORE)
            rc = restore(w);
        if (rc != DTSS_OK)
            return rc;
    }
}

void dtss_strips_worker_close(dtss_strips_worker *w)
{
    if (!w)
        return;
    rt_leave(&w->h);
    wire_stripjob_free(&w->job);
    wire_start_free(&w->pending);
    strips_node_free(&w->node);
    free(w->out);
    free(w->above);
    free(w->below);
    free(w->early[0]);
    free(w->early[1]);
    free(w->scratch);
    free(w->tids);
    free(w->counts);
    free(w->tr);
    free(w);
}
