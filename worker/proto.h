/* proto.h: the PVM messages between the coordinator and its workers.
 *
 * Self-scheduling (every scheme but tree), Xu & Chronopoulos Sec. 5.3:
 *   coordinator -> worker  TAG_START   the job (proto_job)
 *   worker -> coordinator  TAG_REQUEST its Q_i, A_i and the results of the
 *                                      chunks done since the last request
 *                                      (the first request also says hello:
 *                                      host name, cgroup, probe back-end)
 *   coordinator -> worker  TAG_WORK    one chunk: id, start, size
 *   coordinator -> worker  TAG_STOP    no more work: exit
 * A worker whose A_i is 0 (integer option) sends one request with A_i = 0
 * (a report: it is not queued), then measures again until A_i > 0.
 *
 * Tree-Scheduling (tree.c in sched/ has the policy):
 *   worker -> coordinator  TAG_RESULT  results of a finished range
 *   worker -> worker       TAG_STEAL   "I am idle: give me work"
 *   worker -> worker       TAG_GIVE    start, size (size 0: nothing to give)
 *   worker -> coordinator  TAG_IDLE    its partner had nothing to give
 *   coordinator -> worker  TAG_WORK    rows lost with a dead worker
 *
 * Notifications (pvm_notify): TAG_TASKEXIT (a task exited: its tid),
 * TAG_HOSTDEL (a host left: its pvmd tid).
 *
 * Results are packed as: count, then per chunk id, start, size, the worker's
 * wall-clock times (seconds since the epoch) when the chunk arrived, when its
 * computation started and ended, then size * width iteration counts.
 */
#ifndef PROTO_H
#define PROTO_H

#include <stdint.h>

#include "mandel/mandel.h"

enum {
    TAG_START = 100, TAG_REQUEST, TAG_WORK, TAG_STOP, TAG_RESULT,
    TAG_STEAL, TAG_GIVE, TAG_IDLE, TAG_TASKEXIT, TAG_HOSTDEL
};

#define PROTO_VERSION 1
#define PROTO_MAX_WORKERS 1024

typedef struct proto_job {
    int version;
    int index;              /* this worker's number, 0 .. nworkers-1 */
    int tree;               /* 1: Tree-Scheduling, 0: self-scheduling */
    mandel_params image;
    int sample;             /* pseudo-uniform sampling frequency R */
    double V;               /* virtual computing power V_i */
    int acp_integer;        /* A_i = floor(V_i / Q_i) (the paper's rule) */
    int probe;              /* probe_backend */
    /* Tree-Scheduling only: */
    int nworkers;
    int chain[PROTO_MAX_WORKERS];   /* worker indices in chain order */
    int tids[PROTO_MAX_WORKERS];    /* tid of each worker, by index */
    long start, size;               /* this worker's initial range */
} proto_job;

/* A chunk's results as they travel. 'counts' holds size * width values. */
typedef struct proto_result {
    long id, start, size;
    double t_recv, t_start, t_end;
    uint32_t *counts;
} proto_result;

/* Pack into / unpack from the current PVM buffers. Return 0, or -1 (with
 * the failing call in msg for unpack). Packing starts no buffer itself. */
int proto_pack_job(const proto_job *j);
int proto_unpack_job(proto_job *j, char *msg, size_t len);

int proto_pack_results(const proto_result *r, int n, int width);
/* Unpacks the count of results, then each into r[i] with counts allocated
 * (caller frees r[i].counts). Returns the count, or -1. At most max. */
int proto_unpack_results(proto_result *r, int max, int width, char *msg,
                         size_t len);

/* Wall-clock seconds since the epoch (CLOCK_REALTIME). */
double proto_now(void);

/* "pvm_spawn: No such file" etc.: the PVM error text for code 'rc'. */
const char *proto_pvm_strerror(int rc);

#endif
