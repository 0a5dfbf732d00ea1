/* strips_worker.c: a worker of a row-strip computation (dtss.h,
 * dtss_strips_worker_*; the master is strips_master.c). It holds one
 * contiguous strip of rows (sched/strips/strips.h strips_node); once it holds its
 * first rows it tells the master (STATE of step 0) and waits for the start
 * (PLAN of step 0, when every worker holds its rows); then, step after
 * step: sends its first row to the worker above and its last to the worker
 * below (HALO), receives theirs, and hands the application its rows with
 * those halo rows to compute the next step into a second buffer. Every K
 * steps (the job's 'every'; 0: never) it stops after a step at a barrier:
 * STATE to the master (its rows and the seconds the application computed
 * since the last barrier), then the new cut (PLAN), then its part of the
 * transfers every worker computes alike (sched/strips/strips.h strips_transfers),
 * in their order: rows taken off its edge and sent (ROWS) to a neighbour,
 * or received from one. After the last step: STATE and its rows to the
 * master, then it waits for the master's STOP before it leaves.
 *
 * Neighbours a step apart: a worker can be one step ahead of its neighbour
 * (it needs the neighbour's row of the step before), never two. Messages
 * between two tasks were seen to overtake each other once (the first ones,
 * while the direct route between two workers is being set up), so a HALO of
 * the step after the one wanted is kept for the next step; any other step
 * is an error. Every
 * wait polls for the master's exit; a neighbour's exit is the master's to
 * see (it then kills every worker).
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

struct dtss_strips_worker {
    rt_handle h;                /* first: errors; the job (h.failed: stopped, lost or failed) */
    tr_event ev;                /* the message in hand (wait_for) */
    wire_stripjob job;
    strips_node node;           /* the strip after 'step' steps */
    unsigned char *out, *above, *below;
    unsigned char *early[2];    /* a halo row that came a step early, per side */
    unsigned char *scratch;     /* a halo row as it comes */
    long early_step[2];         /* its step; -1: none */
    int out_cap;
    long step;
    int in_hand;
    double busy, t_handed;
    int *counts;                /* every worker's rows now */
    strips_transfer *tr;
};

/* The kind the base verbs of dtss.h dispatch on (core/handle.h). */
RT_WORKER_BASE(strips_worker_kind, dtss_strips_worker)

#define fail(w, ...) rt_fail(&(w)->h, __VA_ARGS__)

/* Waits for a message of tag from tid (TR_ANY: anyone), checking every
 * second that the master is still there. DTSS_OK with it in w->ev. */
static int wait_for(dtss_strips_worker *w, tr_peer tid, int tag)
{
    char msg[512];
    for (;;) {
        if (tr_recv(tid, tag, 1.0, &w->ev, msg, sizeof msg) < 0)
            return fail(w, DTSS_EPVM, "%s", msg);
        if (w->ev.kind == TR_MESSAGE)
            return DTSS_OK;
        tr_event n;
        if (tr_recv(TR_ANY, TR_NOTICES, 0, &n, msg, sizeof msg) < 0)
            return fail(w, DTSS_EPVM, "%s", msg);
        if (n.kind == TR_PEER_EXIT && n.from == w->h.parent)
            return fail(w, DTSS_ELOST, "the master exited");
    }
}

int dtss_strips_worker_open(dtss_strips_worker **wp, int argc, char **argv)
{
    void *h;
    /* Rows go node to node; in fragments of 1 MiB, not libpvm's 4 KiB: on
     * a loaded host each fragment can cost the sender and the receiver a
     * wake-up. */
    int rc = runtime_worker_open(&h, sizeof **wp, &strips_worker_kind, argc, argv, "dtss_strips_run",
                                 TR_HINT_PEERS | TR_HINT_LARGE);
    dtss_strips_worker *w = *wp = h;
    char msg[256];
    if (rc != DTSS_OK)
        return rc;
    if ((rc = wait_for(w, w->h.parent, WIRE_STRIPJOB)) != DTSS_OK)
        return rc;
    if (wire_unpack_stripjob(&w->ev, &w->job, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "a bad job: %s", msg);
    w->h.job = w->job.job;              /* the base's view of it (wire_stripjob's) */
    w->h.job_len = w->job.job_len;
    int first, count;
    void *data;
    size_t nb;
    if ((rc = wait_for(w, w->h.parent, WIRE_ROWS)) != DTSS_OK)
        return rc;
    if (wire_unpack_rows(&w->ev, &first, &count, &data, &nb, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "bad first rows: %s", msg);
    size_t rb = (size_t)w->job.row_bytes;
    if (count < 1 || nb != (size_t)count * rb || count != w->job.counts[w->job.index]) {
        free(data);
        return fail(w, DTSS_EPVM, "first rows %d..%d in %zu bytes (rows of %zu bytes)",
                    first, first + count - 1, nb, rb);
    }
    w->node = (strips_node){.first = first, .rows = count, .cap = count, .row_bytes = rb,
                            .data = data};
    w->counts = malloc(sizeof *w->counts * (size_t)w->job.nworkers);
    w->tr = malloc(sizeof *w->tr * (size_t)w->job.nworkers);
    w->above = malloc(rb);
    w->below = malloc(rb);
    w->early[0] = malloc(rb);
    w->early[1] = malloc(rb);
    w->scratch = malloc(rb);
    w->early_step[0] = w->early_step[1] = -1;
    /* The second buffer, written through now: its pages fault in before the
     * start, not in the first steps' busy seconds, which the first re-cut
     * reads as the host's rate. */
    w->out = malloc((size_t)count * rb);
    if (w->out) {       /* a byte a page (volatile: not a calloc, whose pages wait) */
        for (size_t k = 0; k < (size_t)count * rb; k += 4096)
            ((volatile unsigned char *)w->out)[k] = 0;
        w->out_cap = count;
    }
    if (!w->counts || !w->tr || !w->above || !w->below || !w->early[0] || !w->early[1] ||
        !w->scratch || !w->out)
        return fail(w, DTSS_ENOMEM, "out of memory");
    memcpy(w->counts, w->job.counts, sizeof *w->counts * (size_t)w->job.nworkers);
    /* The rows are here: say so, and wait for every worker to hold its own
     * (the master's PLAN of step 0, the start). */
    if (wire_send_state(w->h.parent, w->job.index, 0, count, 0, wire_now(), msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "%s", msg);
    if ((rc = wait_for(w, w->h.parent, WIRE_PLAN)) != DTSS_OK)
        return rc;
    long step = -1;
    if (wire_unpack_plan(&w->ev, &step, w->counts, w->job.nworkers, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "a bad start: %s", msg);
    if (step != 0)
        return fail(w, DTSS_EPVM, "the plan of step %ld came for the start", step);
    return DTSS_OK;
}

/* The barrier after w->step steps: STATE, PLAN, this worker's transfers. */
static int recut(dtss_strips_worker *w)
{
    char msg[256];
    sched_err err;
    int P = w->job.nworkers, me = w->job.index, rc;
    if (wire_send_state(w->h.parent, me, w->step, w->node.rows, w->busy, wire_now(), msg,
                        sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "%s", msg);
    w->busy = 0;
    if ((rc = wait_for(w, w->h.parent, WIRE_PLAN)) != DTSS_OK)
        return rc;
    int *target = malloc(sizeof *target * (size_t)P);
    long step;
    if (!target)
        return fail(w, DTSS_ENOMEM, "out of memory");
    if (wire_unpack_plan(&w->ev, &step, target, P, msg, sizeof msg) < 0 || step != w->step) {
        free(target);
        return fail(w, DTSS_EPVM, "a bad plan after step %ld: %s", w->step, msg);
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
            else if (wire_send_rows(w->job.tids[t->to], t->first, t->count, buf, nb, msg,
                                    sizeof msg) < 0)
                rc = fail(w, DTSS_EPVM, "%s", msg);
            free(buf);
        } else if (t->to == me) {
            int first, count;
            void *data = NULL;
            size_t got;
            if ((rc = wait_for(w, w->job.tids[t->from], WIRE_ROWS)) != DTSS_OK)
                break;
            if (wire_unpack_rows(&w->ev, &first, &count, &data, &got, msg, sizeof msg) < 0)
                rc = fail(w, DTSS_EPVM, "%s", msg);
            else if (first != t->first || count != t->count || got != nb)
                rc = fail(w, DTSS_EPVM, "rows %d..%d came for %d..%d", first,
                          first + count - 1, t->first, t->first + t->count - 1);
            else if (strips_node_put(&w->node, t, data, &err) != SCHED_OK)
                rc = fail(w, err.code == SCHED_ENOMEM ? DTSS_ENOMEM : DTSS_EPVM, "%s", err.msg);
            free(data);
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
    int me = w->job.index, P = w->job.nworkers, rc;
    size_t rb = w->node.row_bytes;
    const unsigned char *u = w->node.data;
    if (me > 0 && wire_send_halo(w->job.tids[me - 1], w->step, u, rb, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "%s", msg);
    if (me < P - 1 && wire_send_halo(w->job.tids[me + 1], w->step,
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
            long step;
            if ((rc = wait_for(w, w->job.tids[nb], WIRE_HALO)) != DTSS_OK)
                return rc;
            if (wire_unpack_halo(&w->ev, &step, w->scratch, rb, msg, sizeof msg) < 0)
                return fail(w, DTSS_EPVM, "%s", msg);
            if (step == w->step) {
                memcpy(halo, w->scratch, rb);
                break;
            }
            if (step != w->step + 1 || w->early_step[side] >= 0)
                return fail(w, DTSS_EPVM, "the halo row of step %ld came for step %ld", step,
                            w->step);
            memcpy(w->early[side], w->scratch, rb);     /* kept for the next step */
            w->early_step[side] = step;
        }
    }
    return DTSS_OK;
}

int dtss_strips_worker_step(dtss_strips_worker *w, dtss_strips_piece *p)
{
    char msg[256];
    int rc;
    if (w->h.failed)
        return DTSS_EMISUSE;
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
            (rc = recut(w)) != DTSS_OK)
            return rc;
    }
    if (w->step >= w->job.steps) {      /* the end: the rows to the master */
        size_t nb = (size_t)w->node.rows * w->node.row_bytes;
        if (wire_send_state(w->h.parent, w->job.index, w->step, w->node.rows, w->busy,
                            wire_now(), msg, sizeof msg) < 0 ||
            wire_send_rows(w->h.parent, w->node.first, w->node.rows, w->node.data, nb, msg,
                           sizeof msg) < 0)
            return fail(w, DTSS_EPVM, "%s", msg);
        /* Gone only when the master has every row: its notice of our exit
         * could overtake our last messages (they go task to task). */
        if ((rc = wait_for(w, w->h.parent, WIRE_STOP)) != DTSS_OK)
            return rc;
        return fail(w, DTSS_DONE, "every step done");
    }
    if (w->out_cap < w->node.rows) {
        unsigned char *o = realloc(w->out, (size_t)w->node.rows * w->node.row_bytes);
        if (!o)
            return fail(w, DTSS_ENOMEM, "out of memory for %d rows", w->node.rows);
        w->out = o;
        w->out_cap = w->node.rows;
    }
    if ((rc = halos(w)) != DTSS_OK)
        return rc;
    int me = w->job.index;
    *p = (dtss_strips_piece){.step = w->step, .steps = w->job.steps, .first = w->node.first,
                             .rows = w->node.rows, .row_bytes = w->node.row_bytes,
                             .in = w->node.data, .above = me > 0 ? w->above : NULL,
                             .below = me < w->job.nworkers - 1 ? w->below : NULL,
                             .out = w->out};
    long total = 0;
    for (int i = 0; i < w->job.nworkers; i++)
        total += w->counts[i];
    p->total_rows = total;
    w->in_hand = 1;
    w->t_handed = wire_now();
    return DTSS_PIECE;
}

void dtss_strips_worker_close(dtss_strips_worker *w)
{
    if (!w)
        return;
    rt_leave(&w->h);
    wire_stripjob_free(&w->job);
    strips_node_free(&w->node);
    free(w->out);
    free(w->above);
    free(w->below);
    free(w->early[0]);
    free(w->early[1]);
    free(w->scratch);
    free(w->counts);
    free(w->tr);
    free(w);
}
