/* pool_worker.c: a worker of the iterative pool (dtss.h): joins PVM, says
 * READY (from then on it is held), takes the job, then computes the tasks
 * it is sent, one at a time, until the master releases it (STOP) or exits.
 * A task's execution time is the worker's own: from the moment
 * dtss_pool_worker_next hands it to the application to the moment its
 * result is given (messages excluded). */
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#include "runtime/dtss.h"
#include "runtime/core/handle.h"
#include "runtime/core/join.h"
#include "runtime/core/task.h"
#include "runtime/core/wire.h"

struct dtss_pool_worker {
    rt_handle h;                /* first: errors; the job (h.failed: stopped, lost or failed) */
    int index;
    tr_event ev;                /* the master's last message */
    rt_task k;                  /* the task in hand */
};

/* The kind the base verbs of dtss.h dispatch on (core/handle.h). */
RT_WORKER_BASE(pool_worker_kind, dtss_pool_worker, "dtss_pool_start", 0)

#define fail(w, ...) rt_fail(&(w)->h, __VA_ARGS__)

/* The next message from the master (or the notice of its exit). */
static int wait_master(dtss_pool_worker *w, int *tag)
{
    char msg[256];
    for (;;) {
        if (tr_recv(TR_ANY, TR_ANY, -1, &w->ev, msg, sizeof msg) < 0)
            return fail(w, DTSS_EPVM, "%s", msg);
        if (w->ev.kind == TR_PEER_EXIT && w->ev.from == w->h.parent)
            return fail(w, DTSS_ELOST, "the master exited");
        if (w->ev.kind != TR_MESSAGE || w->ev.from != w->h.parent)
            continue;
        *tag = w->ev.tag;
        if (*tag == WIRE_STOP)
            return fail(w, DTSS_DONE, "released by the master");
        return DTSS_OK;
    }
}

int dtss_pool_worker_open(dtss_pool_worker **wp, int argc, char **argv)
{
    int rc;
    dtss_pool_worker *w = *wp = runtime_worker_open(sizeof **wp, &pool_worker_kind, argc, argv, &rc);
    char msg[256], host[256] = "";
    int tag;
    if (rc != DTSS_OK)
        return rc;
    /* READY first: the master is told at once that this worker runs (it is
     * held from then on), and sends the job in reply. */
    gethostname(host, sizeof host - 1);
    if (wire_send_ready(w->h.parent, 0, host, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "%s", msg);
    do
        if ((rc = wait_master(w, &tag)) != DTSS_OK)
            return rc;
    while (tag != WIRE_POOLJOB);
    if (wire_unpack_pooljob(&w->ev, &w->index, &w->h.job, &w->h.job_len, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "a bad job: %s", msg);
    return DTSS_OK;
}

int dtss_pool_worker_result(dtss_pool_worker *w, const void *data, size_t len)
{
    return rt_task_result(&w->h, &w->k, "dtss_pool_worker_result", data, len);
}

int dtss_pool_worker_next(dtss_pool_worker *w, int *task, const void **payload,
                          size_t *len)
{
    char msg[256];
    int tag, rc;
    if (w->h.failed)
        return DTSS_EMISUSE;
    if (rt_task_send(&w->k, w->h.parent, w->index, msg, sizeof msg) < 0)  /* the last one's */
        return fail(w, DTSS_EPVM, "%s", msg);
    do
        if ((rc = wait_master(w, &tag)) != DTSS_OK)
            return rc;
    while (tag != WIRE_TASK);
    double t = wire_now();
    wire_task got;
    if (wire_unpack_task(&w->ev, &got, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "a bad task: %s", msg);
    got.t_recv = t;
    return rt_task_take(&w->k, &got, task, payload, len);
}

void dtss_pool_worker_close(dtss_pool_worker *w)
{
    if (!w)
        return;
    rt_release(&w->h);                  /* leaves, frees the job */
    rt_task_free(&w->k);
    free(w);
}
