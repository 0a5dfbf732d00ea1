/* task.c: a task in a worker's hand (task.h). */
#include <stdlib.h>
#include <string.h>

#include "runtime/dtss.h"
#include "runtime/core/task.h"

int rt_task_take(rt_task *k, const wire_task *t, int *task, const void **payload,
                 size_t *len)
{
    k->cur = *t;
    k->in_hand = 1;
    *task = k->cur.task;
    *payload = k->cur.data;
    *len = k->cur.len;
    k->t_start = wire_now();
    return DTSS_PIECE;
}

int rt_task_result(rt_handle *h, rt_task *k, const char *fn, const void *data, size_t len)
{
    if (!k->in_hand || k->answered)
        return rt_fail(h, DTSS_EMISUSE, "%s: no task in hand%s", fn,
                       k->answered ? " (its result was given already)" : "");
    k->t_end = wire_now();
    unsigned char *copy = malloc(len ? len : 1);
    if (!copy)
        return rt_fail(h, DTSS_ENOMEM, "out of memory for a result of %zu bytes", len);
    if (len)
        memcpy(copy, data, len);
    k->res = copy;
    k->res_len = len;
    k->answered = 1;
    return DTSS_OK;
}

int rt_task_send(rt_task *k, tr_peer to, int index, char *msg, size_t len)
{
    if (!k->in_hand)
        return 0;
    if (!k->answered)
        k->t_end = wire_now();
    wire_task r = {.task = k->cur.task, .iteration = k->cur.iteration,
                   .t_recv = k->cur.t_recv, .t_start = k->t_start, .t_end = k->t_end,
                   .data = k->res, .len = k->res_len};
    int rc = wire_send_taskdone(to, index, &r, msg, len);
    rt_task_free(k);
    return rc < 0 ? -1 : 1;
}

void rt_task_free(rt_task *k)
{
    free(k->res);
    free(k->cur.data);
    k->res = NULL;
    k->cur.data = NULL;
    k->in_hand = k->answered = 0;
}
