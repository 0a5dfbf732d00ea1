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
#include "runtime/core/join.h"
#include "runtime/core/wire.h"

struct dtss_pool_worker {
    tr_peer parent;
    int joined, index;
    tr_event ev;                /* the master's last message */
    int done;                   /* released, lost or failed */
    void *job;
    size_t job_len;
    wire_task cur;              /* the task in hand (data: its payload) */
    int in_hand, answered;
    unsigned char *res;         /* its result */
    size_t res_len;
    double t_start, t_end;
    char err[512];
};

static int fail(dtss_pool_worker *w, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int fail(dtss_pool_worker *w, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w->err, sizeof w->err, fmt, ap);
    va_end(ap);
    w->done = 1;
    return code;
}

const char *dtss_pool_worker_errmsg(const dtss_pool_worker *w)
{
    return w ? w->err : "out of memory";
}

const void *dtss_pool_worker_job(const dtss_pool_worker *w, size_t *len)
{
    if (len)
        *len = w->job_len;
    return w->job;
}

/* The next message from the master (or the notice of its exit). */
static int wait_master(dtss_pool_worker *w, int *tag)
{
    char msg[256];
    for (;;) {
        if (tr_recv(TR_ANY, TR_ANY, -1, &w->ev, msg, sizeof msg) < 0)
            return fail(w, DTSS_EPVM, "%s", msg);
        if (w->ev.kind == TR_PEER_EXIT && w->ev.from == w->parent)
            return fail(w, DTSS_ELOST, "the master exited");
        if (w->ev.kind != TR_MESSAGE || w->ev.from != w->parent)
            continue;
        *tag = w->ev.tag;
        if (*tag == WIRE_STOP)
            return fail(w, DTSS_DONE, "released by the master");
        return DTSS_OK;
    }
}

int dtss_pool_worker_open(dtss_pool_worker **wp, int argc, char **argv)
{
    dtss_pool_worker *w = *wp = calloc(1, sizeof *w);
    char msg[256], host[256] = "";
    int tag;
    if (!w)
        return DTSS_ENOMEM;
    if (!dtss_is_worker(argc, argv))
        return fail(w, DTSS_EMISUSE, "not spawned by a master: workers are started by "
                    "the master program (dtss_pool_start)");
    int rc = runtime_join_worker(&w->joined, &w->parent, msg, sizeof msg);
    if (rc != DTSS_OK)
        return fail(w, rc, "%s", msg);
    /* READY first: the master is told at once that this worker runs (it is
     * held from then on), and sends the job in reply. */
    gethostname(host, sizeof host - 1);
    if (wire_send_ready(w->parent, 0, host, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "%s", msg);
    do
        if ((rc = wait_master(w, &tag)) != DTSS_OK)
            return rc;
    while (tag != WIRE_POOLJOB);
    if (wire_unpack_pooljob(&w->ev, &w->index, &w->job, &w->job_len, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "a bad job: %s", msg);
    return DTSS_OK;
}

int dtss_pool_worker_result(dtss_pool_worker *w, const void *data, size_t len)
{
    if (!w->in_hand || w->answered)
        return fail(w, DTSS_EMISUSE, "dtss_pool_worker_result: no task in hand%s",
                    w->answered ? " (its result was given already)" : "");
    w->t_end = wire_now();
    unsigned char *copy = malloc(len ? len : 1);
    if (!copy)
        return fail(w, DTSS_ENOMEM, "out of memory for a result of %zu bytes", len);
    if (len)
        memcpy(copy, data, len);
    w->res = copy;
    w->res_len = len;
    w->answered = 1;
    return DTSS_OK;
}

int dtss_pool_worker_next(dtss_pool_worker *w, int *task, const void **payload,
                          size_t *len)
{
    char msg[256];
    int tag, rc;
    if (w->done)
        return DTSS_EMISUSE;
    if (w->in_hand) {                           /* the last task's result */
        if (!w->answered)
            w->t_end = wire_now();
        wire_task r = {.task = w->cur.task, .iteration = w->cur.iteration,
                       .t_recv = w->cur.t_recv, .t_start = w->t_start, .t_end = w->t_end,
                       .data = w->res, .len = w->res_len};
        rc = wire_send_taskdone(w->parent, w->index, &r, msg, sizeof msg);
        free(w->res);
        free(w->cur.data);
        w->res = NULL;
        w->cur.data = NULL;
        w->in_hand = w->answered = 0;
        if (rc < 0)
            return fail(w, DTSS_EPVM, "%s", msg);
    }
    do
        if ((rc = wait_master(w, &tag)) != DTSS_OK)
            return rc;
    while (tag != WIRE_TASK);
    double t = wire_now();
    if (wire_unpack_task(&w->ev, &w->cur, msg, sizeof msg) < 0)
        return fail(w, DTSS_EPVM, "a bad task: %s", msg);
    w->cur.t_recv = t;
    w->in_hand = 1;
    *task = w->cur.task;
    *payload = w->cur.data;
    *len = w->cur.len;
    w->t_start = wire_now();
    return DTSS_PIECE;
}

void dtss_pool_worker_close(dtss_pool_worker *w)
{
    if (!w)
        return;
    if (w->joined)
        tr_leave();
    free(w->job);
    free(w->cur.data);
    free(w->res);
    free(w);
}
