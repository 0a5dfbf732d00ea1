/* worker.h: what the worker's files share (not installed).
 *
 *   worker.c        the handle: open, the job, pieces and their results,
 *                   and self-scheduling (Xu & Chronopoulos Sec. 5.3, worker):
 *                   measure Q_i, send A_i with the last chunk's results, get
 *                   the next chunk
 *   worker_tree.c   Tree-Scheduling: the worker's own range, its partner,
 *                   answering the requests of the worker that has it as
 *                   partner
 *
 * A chunk (or a Tree range) is [cur, end) of the scheduled loop; pieces are
 * handed out from cur on, so what is at or after cur can still be given
 * away. The results of the pieces handed out since the chunk began are
 * kept in hdr/data until they are sent.
 */
#ifndef WORKER_H
#define WORKER_H

#include "runtime/dtss.h"
#include "runtime/core/handle.h"
#include "runtime/core/probe.h"
#include "runtime/core/wire.h"
#include "sched/loop/meas.h"

enum { W_RUNNING, W_DONE, W_FAILED, W_LOST };     /* W_LOST: the master exited */

struct dtss_worker {
    rt_handle h;                /* first: errors; the job (a view of job.data) */
    wire_job job;
    tr_event ev;                /* the event in hand (worker_wait) */
    int probed;                 /* prb is open */
    probe prb;
    char host[256];
    long grain;
    int state;
    int hello_sent;
    int asked;                  /* a request went ahead (sched/loop/ahead.h) */
    double t_asked;             /* when the latest request went (NAN: the */
                                /* first, whose reply is no round trip) */
    double wait;                /* the reply wait (sched_ahead_wait; NAN: none) */
    int measured, Q;            /* the last reading of the run-queue, */
    double t_probe;             /* and when it was taken */
    /* the chunk in hand */
    long id;                    /* the master's chunk id (-1: a Tree range) */
    long first, cur, end;       /* began at first; pieces handed out up to cur */
    double t_recv, t_start;
    int in_piece;               /* a piece is in hand */
    double t_piece;             /* when it was handed out */
    double piece_cost;          /* its cost (dtss_worker_cost; NAN: untold) */
    sched_meas meas;            /* the pieces' times since the last request */
    long piece_start, piece_size;
    size_t piece_off;           /* where its bytes begin in data */
    /* its results so far */
    long *hdr;
    long npieces, cappieces;
    unsigned char *data;
    size_t len, cap;
    /* Tree-Scheduling */
    char *peer_dead;
    double last_steal_poll;     /* its own: last_poll is check_exits's */
    double last_poll;
    int *early;                 /* thieves that asked before the job came */
    int nearly;
};

/* worker.c */
int worker_fail(dtss_worker *w, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* Hands out the next piece of [cur, end): DTSS_PIECE. */
int worker_piece(dtss_worker *w, long *start, long *size);
/* Closes the piece in hand (its bytes are what was appended since). */
void worker_close_piece(dtss_worker *w);
/* The results of [first, cur) as a wire_result (pointing into w's buffers),
 * and forgetting them once sent. */
void worker_results(const dtss_worker *w, wire_result *r, double t_end);
void worker_clear_results(dtss_worker *w);
/* A new chunk [start, start + size) with id. */
void worker_begin(dtss_worker *w, long id, long start, long size);
/* A WORK message is in hand (w->ev): its chunk begins. DTSS_OK, or
 * DTSS_EPVM for a malformed one. */
int worker_take_work(dtss_worker *w);
/* Waits for the next event into w->ev (timeout as tr_recv's). DTSS_OK or
 * DTSS_EPVM. */
int worker_wait(dtss_worker *w, double timeout);
/* Is the event in hand a message of tag? */
static inline int worker_got(const dtss_worker *w, int tag)
{
    return w->ev.kind == TR_MESSAGE && w->ev.tag == tag;
}
/* What every state does with the event in hand: STOP -> DTSS_DONE; an exit
 * -> DTSS_ELOST when the master is gone (else the peer is marked dead);
 * DTSS_OK otherwise. *peer is the dead peer's index, or -1. */
int worker_common(dtss_worker *w, int *peer);

/* worker_tree.c */
int tree_next(dtss_worker *w, long *start, long *size);
/* Its range begins; the thieves that asked before it came are answered. */
int tree_open(dtss_worker *w);
/* A STEAL is in hand before the job came: the thief is kept to be answered
 * by tree_open (a message cannot be put back in the transport's queue, and
 * dropping it would leave the thief waiting for ever). */
int tree_keep_early(dtss_worker *w);

#endif
