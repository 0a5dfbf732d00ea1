/* lb_worker.c: a worker of load balancing by migration (dtss.h,
 * dtss_lb_worker_*; the master is lb_master.c): its ready queue, the tasks
 * handed to the application one at a time from its head, and between two
 * tasks the messages that came meanwhile: COUNT (answered with the queue's
 * length and the tasks finished since the last answer), MOVE (that many
 * tasks from the queue's tail sent to the worker named, as one TASKS; fewer
 * when fewer are left, none when none; their numbers then go to the master,
 * MOVED), TASKS (appended from another worker; from the master, put first:
 * the first share, or a lost worker's tasks dealt again), STOP. With its
 * queue empty it waits for a message. A task's time is the worker's own:
 * from dtss_lb_worker_next handing it out to its result. */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>


#include "runtime/dtss.h"
#include "runtime/core/handle.h"
#include "runtime/core/join.h"
#include "runtime/core/task.h"
#include "runtime/core/wire.h"

struct dtss_lb_worker {
    rt_handle h;                /* first: errors; the job (h.failed: stopped, lost or failed) */
    tr_peer *tids;
    int index, nworkers;
    tr_event ev;                /* the message in hand */
    wire_task *q;               /* the queue: q[head .. tail - 1] */
    int head, tail, cap;
    long finished;              /* since the last COUNTS */
    rt_task k;                  /* the task in hand */
};

/* The kind the base verbs of dtss.h dispatch on (core/handle.h). */
RT_WORKER_BASE(lb_worker_kind, dtss_lb_worker, "dtss_lb_start", TR_HINT_PEERS | TR_HINT_LARGE)

#define fail(w, ...) rt_fail(&(w)->h, __VA_ARGS__)

/* Appends n tasks (their data now the queue's); front: before the others
 * (a lost worker's tasks, dealt again by the master, run first). */
static int append(dtss_lb_worker *w, wire_task *t, int n, int front)
{
    if (w->head > 0 && w->tail + n > w->cap) {      /* slide to the front */
        memmove(w->q, w->q + w->head, sizeof *w->q * (size_t)(w->tail - w->head));
        w->tail -= w->head;
        w->head = 0;
    }
    if (w->tail + n > w->cap) {
        int cap = w->cap ? w->cap : 64;
        while (cap < w->tail + n)
            cap *= 2;
        wire_task *q = realloc(w->q, sizeof *q * (size_t)cap);
        if (!q)
            return fail(w, DTSS_ENOMEM, "out of memory for a queue of %d tasks", cap);
        w->q = q;
        w->cap = cap;
    }
    double arrived = wire_now();
    wire_task *at = w->q + w->tail;
    if (front) {
        at = w->q + w->head;
        memmove(at + n, at, sizeof *w->q * (size_t)(w->tail - w->head));
    }
    for (int i = 0; i < n; i++) {
        t[i].t_recv = arrived;
        at[i] = t[i];
    }
    w->tail += n;
    return DTSS_OK;
}

/* MOVE: up to count tasks from the tail to worker 'to', and which ones to
 * the master (MOVED). */
static int move(dtss_lb_worker *w, int round, int to, long count)
{
    char msg[256];
    int have = w->tail - w->head, k = count < have ? (int)count : have;
    if (to < 0 || to >= w->nworkers || to == w->index)
        return fail(w, DTSS_EPVM, "a MOVE to worker %d (of %d; this is %d)", to + 1,
                    w->nworkers, w->index + 1);
    if (k == 0)
        return DTSS_OK;
    /* Not sent: the tasks stay here (the master still has them here). */
    if (wire_send_tasks(w->tids[to], w->q + w->tail - k, k, msg, sizeof msg) < 0)
        return DTSS_OK;
    int *ids = malloc(sizeof *ids * (size_t)k);
    if (!ids)
        return fail(w, DTSS_ENOMEM, "out of memory for a MOVE of %d tasks", k);
    for (int i = 0; i < k; i++) {
        ids[i] = w->q[w->tail - k + i].task;
        free(w->q[w->tail - k + i].data);
    }
    w->tail -= k;
    int rc = wire_send_moved(w->h.parent, w->index, round, to, ids, k, msg, sizeof msg);
    free(ids);
    return rc < 0 ? fail(w, DTSS_EPVM, "%s", msg) : DTSS_OK;
}

/* The message in the receive buffer (tag, from src). */
static int handle(dtss_lb_worker *w)
{
    char msg[256];
    int round, to, n;
    long count;
    wire_task *t;
    const tr_event *e = &w->ev;
    tr_peer src = e->from;
    if (e->kind == TR_PEER_EXIT)
        return e->from == w->h.parent ? fail(w, DTSS_ELOST, "the master exited") : DTSS_OK;
    if (e->kind != TR_MESSAGE)
        return DTSS_OK;
    switch (e->tag) {
    case WIRE_STOP:
        return src == w->h.parent ? fail(w, DTSS_DONE, "stopped by the master") : DTSS_OK;
    case WIRE_COUNT:
        if (wire_unpack_count(e, &round, msg, sizeof msg) < 0 ||
            wire_send_counts(w->h.parent, w->index, round, w->tail - w->head, w->finished, msg,
                             sizeof msg) < 0)
            return fail(w, DTSS_EPVM, "%s", msg);
        w->finished = 0;
        return DTSS_OK;
    case WIRE_MOVE:
        if (wire_unpack_move(e, &round, &to, &count, msg, sizeof msg) < 0)
            return fail(w, DTSS_EPVM, "%s", msg);
        return move(w, round, to, count);
    case WIRE_TASKS:
        if (wire_unpack_tasks(e, &t, &n, msg, sizeof msg) < 0)
            return fail(w, DTSS_EPVM, "%s", msg);
        int rc = append(w, t, n, src == w->h.parent);
        if (rc != DTSS_OK)
            for (int i = 0; i < n; i++)
                free(t[i].data);
        free(t);
        return rc;
    default:
        return DTSS_OK;
    }
}

/* Handles the messages there are; with block, waits for one first. */
static int service(dtss_lb_worker *w, int block)
{
    char msg[512];
    for (;;) {
        if (tr_recv(TR_ANY, TR_ANY, block ? -1 : 0, &w->ev, msg, sizeof msg) < 0)
            return fail(w, DTSS_EPVM, "%s", msg);
        if (w->ev.kind == TR_TIMEOUT)
            return DTSS_OK;
        int rc = handle(w);
        if (rc != DTSS_OK || w->h.failed)
            return rc;
        block = 0;
    }
}

int dtss_lb_worker_open(dtss_lb_worker **wp, int argc, char **argv)
{
    int rc;
    dtss_lb_worker *w = *wp = runtime_worker_open(sizeof **wp, &lb_worker_kind, argc, argv, &rc);
    if (rc != DTSS_OK)
        return rc;
    char msg[256];
    if ((rc = runtime_wait_master(&w->h, w->h.parent, WIRE_LBJOB, &w->ev, NULL, NULL)) != DTSS_OK)
        return rc;
    if (wire_unpack_lbjob(&w->ev, &w->index, &w->nworkers, &w->tids, &w->h.job, &w->h.job_len, msg,
                          sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "a bad job: %s", msg);
    return DTSS_OK;
}

int dtss_lb_worker_result(dtss_lb_worker *w, const void *data, size_t len)
{
    return rt_task_result(&w->h, &w->k, "dtss_lb_worker_result", data, len);
}

int dtss_lb_worker_next(dtss_lb_worker *w, int *task, const void **payload, size_t *len)
{
    char msg[256];
    int rc;
    if (w->h.failed)
        return DTSS_EMISUSE;
    if ((rc = rt_task_send(&w->k, w->h.parent, w->index, msg, sizeof msg)) != 0) {
        w->finished++;                          /* the last task's result went */
        if (rc < 0)
            return fail(w, DTSS_EPVM, "%s", msg);
    }
    if ((rc = service(w, 0)) != DTSS_OK)
        return rc;
    while (w->head == w->tail)
        if ((rc = service(w, 1)) != DTSS_OK)
            return rc;
    return rt_task_take(&w->k, &w->q[w->head++], task, payload, len);
}

void dtss_lb_worker_close(dtss_lb_worker *w)
{
    if (!w)
        return;
    rt_release(&w->h);                  /* leaves, frees the job */
    for (int i = w->head; i < w->tail; i++)
        free(w->q[i].data);
    free(w->q);
    free(w->tids);
    rt_task_free(&w->k);
    free(w);
}
