/* task.h: a task in a worker's hand -- the pool's and the migration model's
 * workers hand out one task at a time (its number and payload), take the
 * application's result, and send it back as a TASKDONE with the task's
 * times. Not installed. */
#ifndef TASK_H
#define TASK_H

#include "runtime/core/handle.h"
#include "runtime/core/wire.h"

typedef struct rt_task {
    wire_task cur;              /* the task in hand (data: its payload, owned) */
    int in_hand, answered;
    unsigned char *res;         /* its result (owned) */
    size_t res_len;
    double t_start, t_end;
} rt_task;

/* t (its payload now k's) is in hand from now: its number, payload and
 * length for the application. Returns DTSS_PIECE. */
int rt_task_take(rt_task *k, const wire_task *t, int *task, const void **payload,
                 size_t *len);
/* The application's result of the task in hand, copied (fn: the calling
 * function, for the message). DTSS_OK, DTSS_EMISUSE, DTSS_ENOMEM. */
int rt_task_result(rt_handle *h, rt_task *k, const char *fn, const void *data, size_t len);
/* Sends the task in hand (if any) back to 'to' as worker index's TASKDONE,
 * and forgets it: 1 sent, 0 none in hand, -1 with msg. */
int rt_task_send(rt_task *k, tr_peer to, int index, char *msg, size_t len);
void rt_task_free(rt_task *k);

#endif
