/* wire.h: the messages between the master and its workers -- the only
 * place that encodes or decodes them, on the project's own encoding
 * (buf.h: fixed byte order, 64-bit counts, the protocol version in every
 * message), sent and received through the transport (transport.h), so every
 * transport carries the same bytes. Each message kind has one send function
 * (encode, tr_send) and one checked decode of a received event (tr_recv's
 * TR_MESSAGE of its tag). Both return 0, or -1 with what failed or what is
 * malformed in msg (a message of another protocol version: "... speaks
 * protocol N, this program M").
 *
 * Self-scheduling (Xu & Chronopoulos Sec. 5.3):
 *   master -> worker   JOB      the run's settings and the application's job
 *   worker -> master   REQUEST  its Q_i, A_i, its iteration times (mean, sd,
 *                               count) over the last chunk and the results of the chunk
 *                               done since the last request (the first also
 *                               says hello: host name, cgroup, probe)
 *   master -> worker   WORK     one chunk: id, start, size
 *   worker -> master   RESULT   with request-ahead (JOB's ahead > 0): the
 *                               results of a chunk whose request went ahead
 *   master -> worker   STOP     no more work
 * Tree-Scheduling (sched/loop/tree.c):
 *   worker -> master   RESULT   the results of a finished range
 *   worker -> worker   STEAL    "I am idle: give me work"
 *   worker -> worker   GIVE     start, size (size 0: nothing to give)
 *   worker -> master   IDLE     its partner had nothing to give
 *   master -> worker   WORK     a range lost with a dead worker
 * A worker's or a host's end is not a message: the transport reports it
 * (TR_PEER_EXIT, TR_HOST_LOST).
 *
 * A chunk's results travel as its id, its range of the scheduled loop, the
 * worker's wall-clock times (when the chunk arrived, when its computation
 * started and ended), then its pieces: for each a range of the loop in the
 * original order and the bytes the application returned for it. The bytes
 * are opaque: delivered as sent (the application chooses their byte order).
 */
#ifndef WIRE_H
#define WIRE_H

#include <stddef.h>

#include "runtime/transport/transport.h"

enum {
    WIRE_JOB = 100, WIRE_REQUEST, WIRE_WORK, WIRE_STOP, WIRE_RESULT,
    WIRE_STEAL, WIRE_GIVE, WIRE_IDLE,
    /* the iterative pool (pool_master.c, pool_worker.c) */
    WIRE_POOLJOB, WIRE_READY, WIRE_TASK, WIRE_TASKDONE,
    /* migration of queued tasks (lb_master.c, lb_worker.c) */
    WIRE_LBJOB, WIRE_TASKS, WIRE_COUNT, WIRE_COUNTS, WIRE_MOVE,
    /* row strips (strips_master.c, strips_worker.c) */
    WIRE_STRIPJOB, WIRE_HALO, WIRE_STATE, WIRE_PLAN, WIRE_ROWS, WIRE_START, WIRE_WAIT,
    /* migration: which tasks a MOVE sent (lb_worker.c to lb_master.c) */
    WIRE_MOVED,
    /* row strips: a worker asks for its rows of a START */
    WIRE_FETCH,
    /* tags from here on: a model outside the library (tests/toy_model.c) */
    WIRE_USER = 1000
};

/* A decode's code for a message of another protocol version (buf.h) */
#define WIRE_EVERSION (-2)
#define WIRE_MAX_WORKERS 4096
#define WIRE_MAX_JOB 1073741824L        /* bytes of an application's job */
#define WIRE_MAX_RESULT 2147483647L     /* bytes of one chunk's results */
/* iterations of the loop: 2^53, every count exact in a double (the policy's
 * arithmetic); the encoding itself carries 64 bits */
#define WIRE_MAX_ITERS 9007199254740992L

typedef struct wire_job {
    int index;              /* this worker, 0 .. nworkers - 1 */
    int nworkers;
    int tree;               /* 1: Tree-Scheduling, 0: self-scheduling */
    int sample;             /* pseudo-uniform sampling frequency R */
    int acp_integer;        /* A_i = floor(V_i / Q_i) */
    int probe;              /* the load probe's back-end (probe_backend) */
    long iters;             /* the loop's iterations */
    double V;               /* virtual computing power V_i */
    double ahead;           /* request-ahead: F or rtt (sched/loop/ahead.h; 0: off) */
    /* Tree-Scheduling only (NULL otherwise): */
    int *chain;             /* worker indices in chain order */
    tr_peer *tids;          /* each worker's peer, by index */
    long start, size;       /* this worker's initial range */
    /* the application's job, sent to every worker once */
    void *data;
    size_t len;
} wire_job;

typedef struct wire_hello {
    char host[256];         /* the host's own name for itself */
    char cgroup[512];
    char backend[16];
} wire_hello;

/* A chunk's results. On unpack, hdr and data are allocated (wire_result_free). */
typedef struct wire_result {
    long id;                /* the master's chunk id (-1: a Tree range) */
    long start, size;       /* the range of the scheduled loop */
    double t_recv, t_start, t_end;
    long npieces;
    long *hdr;              /* 3 per piece: start, size (original order), bytes */
    unsigned char *data;    /* the pieces' bytes, one after the other */
    size_t len;
} wire_result;

typedef struct wire_request {
    int index, Q;
    double A, t_measure;
    /* over the chunk just done (sched/loop/meas.h): one iteration's mean time,
     * its standard deviation (NAN below 2), the iterations (0: none), the
     * cost units (or iterations) a second */
    double mu, sigma;
    long n;
    double rate;
    int hello;              /* the first request: h is set */
    wire_hello h;
    int has_result;
    wire_result result;
} wire_request;

/* A task of the iterative pool, or (TASKDONE) its result: the application's
 * opaque bytes. On unpack, data is allocated (free it). */
typedef struct wire_task {
    int task;               /* the application's task number, >= 0 */
    int iteration;          /* >= 1 */
    double t_recv, t_start, t_end;  /* TASKDONE: the worker's clock */
    unsigned char *data;
    size_t len;
} wire_task;

/* Each returns 0, or a negative PVM code with the message in msg. */
int wire_send_job(tr_peer to, const wire_job *j, char *msg, size_t len);
int wire_send_request(tr_peer to, const wire_request *r, char *msg, size_t len);
int wire_send_work(tr_peer to, long id, long start, long size, char *msg, size_t len);
int wire_send_stop(tr_peer to, char *msg, size_t len);
int wire_send_result(tr_peer to, int index, const wire_result *r, char *msg, size_t len);
int wire_send_steal(tr_peer to, int index, char *msg, size_t len);
int wire_send_give(tr_peer to, long start, long size, char *msg, size_t len);
int wire_send_idle(tr_peer to, int index, char *msg, size_t len);

/* The pool's messages: READY (a new worker's first message: its host's own
 * name; the worker is held from then on), POOLJOB (the master's answer: the
 * worker's number and the job), TASK and TASKDONE. */
int wire_send_pooljob(tr_peer to, int index, const void *job, size_t jlen, char *msg,
                      size_t len);
int wire_send_ready(tr_peer to, int index, const char *host, char *msg, size_t len);
int wire_send_task(tr_peer to, const wire_task *t, char *msg, size_t len);
int wire_send_taskdone(tr_peer to, int index, const wire_task *t, char *msg, size_t len);
/* *job is allocated (at least 1 byte); host gets at most hlen - 1 bytes. */
int wire_unpack_pooljob(const tr_event *e, int *index, void **job, size_t *jlen, char *msg, size_t len);
int wire_unpack_ready(const tr_event *e, int *index, char *host, size_t hlen, char *msg, size_t len);
int wire_unpack_task(const tr_event *e, wire_task *t, char *msg, size_t len);
int wire_unpack_taskdone(const tr_event *e, int *index, wire_task *t, char *msg, size_t len);

/* Migration (lb_master.c, lb_worker.c). LBJOB: the worker's number, every
 * worker's tid (for TASKS sent node to node) and the job. TASKS: n tasks
 * (number, iteration 1, payload) into the receiver's queue, from the master
 * (the first share) or another worker (a migration). COUNT: the master asks
 * for a balancing's counts; COUNTS: the answer, the queue's length and the
 * tasks finished since the last COUNTS. MOVE: send count tasks from the
 * queue's tail to worker 'to'. A task's result is a TASKDONE. Unpacking
 * allocates *tids, *job, *tasks and each task's data. */
int wire_send_lbjob(tr_peer to, int index, int nworkers, const tr_peer *tids, const void *job,
                    size_t jlen, char *msg, size_t len);
int wire_unpack_lbjob(const tr_event *e, int *index, int *nworkers, tr_peer **tids, void **job, size_t *jlen,
                      char *msg, size_t len);
int wire_send_tasks(tr_peer to, const wire_task *tasks, int n, char *msg, size_t len);
int wire_unpack_tasks(const tr_event *e, wire_task **tasks, int *n, char *msg, size_t len);
int wire_send_count(tr_peer to, int round, char *msg, size_t len);
int wire_unpack_count(const tr_event *e, int *round, char *msg, size_t len);
int wire_send_counts(tr_peer to, int index, int round, long queued, long done, char *msg,
                     size_t len);
int wire_unpack_counts(const tr_event *e, int *index, int *round, long *queued, long *done, char *msg,
                       size_t len);
int wire_send_move(tr_peer to, int round, int dest, long count, char *msg, size_t len);
int wire_unpack_move(const tr_event *e, int *round, int *to, long *count, char *msg, size_t len);
/* MOVED: the sender of a MOVE tells the master the numbers of the n tasks it
 * sent to worker 'to' (so the master knows where every task is, and deals a
 * lost worker's again). Unpacking allocates *tasks (at least one int). */
int wire_send_moved(tr_peer to, int index, int round, int dest, const int *tasks, int n, char *msg,
                    size_t len);
int wire_unpack_moved(const tr_event *e, int *index, int *round, int *dest, int **tasks, int *n,
                      char *msg, size_t len);

/* Row strips (strips/master.c, strips/worker.c). Every message after
 * STRIPJOB carries the epoch: 0 from the start, one more at each restore
 * (the rows restored from a checkpoint and re-cut among the workers left);
 * a message of an earlier epoch is stale and dropped.
 *   master -> worker   STRIPJOB  once: the worker's number in the crew (its
 *                                STATE's index), the crew's size, the steps,
 *                                K (steps between barriers; 0: none), recut
 *                                (1: a barrier waits for PLAN), ckpt (every
 *                                ckpt-th barrier's STATE carries the rows; 0:
 *                                only the last's), poll (seconds between a
 *                                waiting worker's WAITs; 0: none), a row's
 *                                bytes, the job
 *   master -> worker   START     the strips from a step on (epoch 0, step 0:
 *                                the start; then a restore): the workers in
 *                                strip order, their row counts, this one's
 *                                position; not its rows, which it asks for
 *   worker -> master   FETCH     the worker that took START asks for its rows
 *   master -> worker   ROWS      in reply, its rows of the START (the rows
 *                                go only to a worker that asks: one that is
 *                                stopped and reads nothing never holds the
 *                                master in a send that does not end)
 *   worker -> worker   HALO      a neighbour's edge row after 'step' steps
 *   worker -> master   STATE     after 'step' steps: its rows (count, first),
 *                                the seconds it computed since its last STATE,
 *                                its clock (wire_now), and (a checkpoint, the
 *                                last step) the rows' bytes
 *   master -> worker   PLAN      every worker's row count from 'step' on
 *   worker -> worker   ROWS      rows [first, first + count) of a re-cut
 *   worker -> master   WAIT      a worker waiting (for a neighbour's rows or
 *                                the master) is alive, at 'step'
 *   master -> worker   STOP      every row is in */
typedef struct wire_stripjob {
    int index, nworkers;
    int every, recut, ckpt;
    long steps, row_bytes;
    double poll;
    void *job;
    size_t job_len;
} wire_stripjob;
int wire_send_stripjob(tr_peer to, const wire_stripjob *j, char *msg, size_t len);
/* j->job is allocated (wire_stripjob_free). */
int wire_unpack_stripjob(const tr_event *e, wire_stripjob *j, char *msg, size_t len);
void wire_stripjob_free(wire_stripjob *j);

typedef struct wire_start {
    long epoch, step;
    int n, pos;                 /* workers, this one's position (0 .. n - 1) */
    tr_peer *tids;              /* n each, strip order */
    int *counts;
} wire_start;
int wire_send_start(tr_peer to, const wire_start *s, char *msg, size_t len);
/* At most max workers; tids and counts are allocated (wire_start_free).
 * Checked: every count >= 1, pos < n. */
int wire_unpack_start(const tr_event *e, wire_start *s, int max, char *msg, size_t len);
void wire_start_free(wire_start *s);

typedef struct wire_state {
    long epoch, step;
    int index, rows, first;
    double busy, t;
    const void *data;           /* unpacked: points into the event (valid until the */
    size_t bytes;               /* next tr_recv); 0 bytes: no rows carried */
} wire_state;
int wire_send_state(tr_peer to, const wire_state *s, char *msg, size_t len);
int wire_unpack_state(const tr_event *e, wire_state *s, char *msg, size_t len);

int wire_send_halo(tr_peer to, long epoch, long step, const void *row, size_t bytes, char *msg,
                   size_t len);
/* The row must be of exactly 'bytes' bytes (into row). */
int wire_unpack_halo(const tr_event *e, long *epoch, long *step, void *row, size_t bytes,
                     char *msg, size_t len);
int wire_send_plan(tr_peer to, long epoch, long step, const int *counts, int n, char *msg,
                   size_t len);
/* counts gets n entries. */
int wire_unpack_plan(const tr_event *e, long *epoch, long *step, int *counts, int n, char *msg,
                     size_t len);
int wire_send_rows(tr_peer to, long epoch, int first, int count, const void *data, size_t bytes,
                   char *msg, size_t len);
/* *data is allocated (at least 1 byte). */
int wire_unpack_rows(const tr_event *e, long *epoch, int *first, int *count, void **data,
                     size_t *bytes, char *msg, size_t len);
int wire_send_wait(tr_peer to, long epoch, int index, long step, char *msg, size_t len);
int wire_send_fetch(tr_peer to, long epoch, int index, char *msg, size_t len);
int wire_unpack_fetch(const tr_event *e, long *epoch, int *index, char *msg, size_t len);
int wire_unpack_wait(const tr_event *e, long *epoch, int *index, long *step, char *msg,
                     size_t len);

/* Unpacking: j->chain, j->tids, j->data are allocated (wire_job_free). */
int wire_unpack_job(const tr_event *e, wire_job *j, char *msg, size_t len);
void wire_job_free(wire_job *j);
int wire_unpack_request(const tr_event *e, wire_request *r, char *msg, size_t len);
int wire_unpack_work(const tr_event *e, long *id, long *start, long *size, char *msg, size_t len);
int wire_unpack_result(const tr_event *e, int *index, wire_result *r, char *msg, size_t len);
void wire_result_free(wire_result *r);
int wire_unpack_steal(const tr_event *e, int *index, char *msg, size_t len);
int wire_unpack_give(const tr_event *e, long *start, long *size, char *msg, size_t len);
int wire_unpack_idle(const tr_event *e, int *index, char *msg, size_t len);

/* The name of a tag ("WORK"), for messages. */
const char *wire_tag_name(int tag);
/* Wall-clock seconds since the epoch (CLOCK_REALTIME): comparable between
 * hosts whose clocks agree. */
double wire_now(void);
/* Seconds on CLOCK_MONOTONIC (durations on one host). */
double wire_mono(void);

#endif
