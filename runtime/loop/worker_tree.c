/* worker_tree.c: a worker under Tree-Scheduling (sched/loop/tree.c has the
 * policy and our reading of it). The worker computes its own range; between
 * two pieces it answers the worker that has it as partner, giving away the
 * upper half of what it has not handed out yet (tree_give); when its range
 * is done it sends the results to the master and asks its own partner for
 * work; when the partner has none (or is dead) it tells the master it is
 * idle and waits: for a range lost with a dead worker (WORK) or the end.
 * A partner's request can come before this worker's own job (the master
 * sends the jobs one by one, and PVM orders messages only between two
 * tasks): it is kept and answered once the range is here (tree_open).
 */
#include <stdlib.h>


#include "runtime/loop/worker.h"
#include "sched/loop/policy.h"

/* Gives the thief 'from' the upper half of what is not handed out yet
 * (nothing when idle: cur = end). */
static int give_to(dtss_worker *w, int from)
{
    char msg[256];
    long give = tree_give(w->end - w->cur);
    if (wire_send_give(w->job.tids[from], w->end - give, give, msg, sizeof msg) < 0)
        return worker_fail(w, DTSS_EPVM, "worker %d: %s", w->job.index, msg);
    w->end -= give;
    return DTSS_OK;
}

/* A STEAL is in hand: the thief it names, or -1. */
static int thief(const dtss_worker *w)
{
    int from;
    char msg[256];
    if (wire_unpack_steal(&w->ev, &from, msg, sizeof msg) < 0 || from < 0 ||
        (w->job.nworkers > 0 && from >= w->job.nworkers))
        return -1;
    return from;
}

/* A STEAL is in hand: answer it. */
static int answer_steal(dtss_worker *w)
{
    int from = thief(w);
    return from < 0 ? DTSS_OK : give_to(w, from);
}

int tree_keep_early(dtss_worker *w)
{
    int from = thief(w);                /* the job, not come yet, says how many */
    if (from < 0)
        return DTSS_OK;
    int *e = realloc(w->early, sizeof *e * (size_t)(w->nearly + 1));
    if (!e)
        return worker_fail(w, DTSS_ENOMEM, "out of memory");
    w->early = e;
    w->early[w->nearly++] = from;
    return DTSS_OK;
}

int tree_open(dtss_worker *w)
{
    w->peer_dead = calloc((size_t)w->job.nworkers, 1);
    if (!w->peer_dead)
        return worker_fail(w, DTSS_ENOMEM, "out of memory");
    char msg[256];
    for (int i = 0; i < w->job.nworkers; i++)
        if (i != w->job.index && tr_watch_exit(&w->job.tids[i], 1, msg, sizeof msg) < 0)
            return worker_fail(w, DTSS_EPVM, "%s", msg);
    worker_begin(w, -1, w->job.start, w->job.size);
    for (int i = 0; i < w->nearly; i++)     /* asked before the job came */
        if (w->early[i] < w->job.nworkers) {
            int rc = give_to(w, w->early[i]);
            if (rc != DTSS_OK)
                return rc;
        }
    w->nearly = 0;
    return DTSS_OK;
}

/* The partner of this worker: the next one down the chain, or -1. */
static int partner(const dtss_worker *w)
{
    for (int at = 0; at < w->job.nworkers - 1; at++)
        if (w->job.chain[at] == w->job.index)
            return w->job.chain[at + 1];
    return -1;
}

/* Every message waiting now (at most every millisecond). The clock is its
 * own: dtss_worker_cancelled's look for exits (check_exits, every 20 ms)
 * once shared it, and an application that asks before each span of a line
 * -- bin/worker -- then made this skip every line that ended in a cheap span,
 * so a slow worker never answered its partner's request. */
static int poll_messages(dtss_worker *w)
{
    double now = wire_now();
    if (now - w->last_steal_poll < 0.001)
        return DTSS_OK;
    w->last_steal_poll = now;
    int rc = DTSS_OK;
    while (rc == DTSS_OK && (rc = worker_wait(w, 0)) == DTSS_OK && w->ev.kind != TR_TIMEOUT)
        rc = worker_got(w, WIRE_STEAL) ? answer_steal(w) : worker_common(w, NULL);
    return rc;
}

/* Asks the partner for work: *got = 1 with a new range, 0 when it has none.
 * Returns DTSS_OK, or the end (DTSS_DONE) or an error. */
static int steal(dtss_worker *w, int *got)
{
    char msg[256];
    int p = partner(w), rc, dead;
    *got = 0;
    if (p < 0 || w->peer_dead[p])
        return DTSS_OK;
    if (wire_send_steal(w->job.tids[p], w->job.index, msg, sizeof msg) < 0)
        return DTSS_OK;                         /* gone: as if it had none */
    for (;;) {
        if ((rc = worker_wait(w, -1)) != DTSS_OK)
            return rc;
        if (worker_got(w, WIRE_GIVE) && w->ev.from == w->job.tids[p]) {
            long start, size;
            if (wire_unpack_give(&w->ev, &start, &size, msg, sizeof msg) < 0 || size == 0 ||
                start > w->job.iters - size)
                return DTSS_OK;
            worker_begin(w, -1, start, size);
            *got = 1;
            return DTSS_OK;
        }
        if (worker_got(w, WIRE_STEAL)) {
            if ((rc = answer_steal(w)) != DTSS_OK)  /* nothing to give */
                return rc;
        } else if ((rc = worker_common(w, &dead)) != DTSS_OK) {
            return rc;
        } else if (dead == p) {
            return DTSS_OK;                     /* no answer will come */
        }
    }
}

/* Tells the master this worker is idle, and waits for a range or the end. */
static int idle(dtss_worker *w)
{
    char msg[256];
    int rc;
    if (wire_send_idle(w->h.parent, w->job.index, msg, sizeof msg) < 0)
        return worker_fail(w, DTSS_EPVM, "worker %d: %s", w->job.index, msg);
    for (;;) {
        if ((rc = worker_wait(w, -1)) != DTSS_OK)
            return rc;
        if (worker_got(w, WIRE_STEAL)) {
            if ((rc = answer_steal(w)) != DTSS_OK)
                return rc;
        } else if (worker_got(w, WIRE_WORK) && w->ev.from == w->h.parent) {
            return worker_take_work(w);
        } else if ((rc = worker_common(w, NULL)) != DTSS_OK) {
            return rc;
        }
    }
}

int tree_next(dtss_worker *w, long *start, long *size)
{
    int rc = poll_messages(w);
    if (rc != DTSS_OK)
        return rc;
    while (w->cur >= w->end) {
        char msg[256];
        if (w->cur > w->first) {                /* a range done: its results */
            wire_result r;
            worker_results(w, &r, wire_now());
            if (wire_send_result(w->h.parent, w->job.index, &r, msg, sizeof msg) < 0)
                return worker_fail(w, DTSS_EPVM, "worker %d: %s", w->job.index, msg);
            worker_clear_results(w);
        }
        int got;
        if ((rc = steal(w, &got)) != DTSS_OK)
            return rc;
        if (!got && (rc = idle(w)) != DTSS_OK)
            return rc;
    }
    return worker_piece(w, start, size);
}
