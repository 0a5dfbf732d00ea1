/* ahead.h: request-ahead, when a worker asks for its next chunk.
 *
 * Without it a worker sends a chunk's results with its next request and
 * waits idle for the reply: one round trip a chunk. With request-ahead a
 * worker asks before it runs dry, so that the reply is there when it does;
 * the chunk's results then go on their own at its end. A chunk served ahead
 * is sized when the request arrives, by the scheme's own rule, with the A_i
 * measured when the request went and what the worker measured since its
 * previous request (sched/loop/meas.h): every scheme keeps its meaning. Two
 * rules for "before it runs dry" (--ahead F | rtt):
 *
 *   fraction F (0 < F < 1; DLS4LB's requestWhen, Mohammed, Cavelan &
 *   Ciorba): ask once F of the chunk is left,
 *       done >= mark = ceil((1 - F) x size);
 *   rtt: ask once half the chunk is done and its expected remaining time
 *   is within K = 2 of the worker's reply wait (the round trip of a request,
 *   master included),
 *       2 done >= size  and  elapsed / done x (size - done) <= K x wait,
 *   the wait measured by the worker itself: exactly when it had to wait for
 *   a reply, and bounded from above (the estimate only lowered) when the
 *   reply was there before the chunk ended; the first request's reply is
 *   not a round trip (the master waits for every worker's first report
 *   before it plans) and is not taken. The half: the iterations' times vary
 *   (a Mandelbrot row costs up to 400 times another), and an estimate from
 *   a chunk's first pieces asked at once, a whole chunk ahead.
 *
 * The fraction commits a slow worker's next chunk a long time before it can
 * start it (F of a slow chunk is long); rtt asks about one round trip ahead
 * whatever the worker's speed. F = 0 is off (ask at the end). A request goes
 * ahead only inside a chunk (done < size) and with A_i > 0 (under the
 * integer rule a worker at A_i = 0 asks at the end, as without it). One
 * implementation for the PVM worker (runtime/loop/worker.c, checked at piece
 * boundaries) and the simulator (sim/self.c, at each iteration).
 * Tree-Scheduling has its own protocol and does not use it.
 */
#ifndef SCHED_AHEAD_H
#define SCHED_AHEAD_H

#include <stddef.h>

#include "sched/sched.h"

#define SCHED_AHEAD_RTT (-1.0)  /* the rtt rule (as F) */
#define SCHED_AHEAD_K 2.0       /* rtt: ask within K round trips of the end */
/* The default when none is given (docs/performance.md: measured). */
#define SCHED_AHEAD_DEFAULT 0.0

/* Parses "rtt" or F, a number in [0, 1). SCHED_OK, or SCHED_EINVAL with err
 * naming the text. */
int sched_ahead_parse(const char *text, double *F, sched_err *err);
/* 1 when F is one of the values sched_ahead_parse gives. */
int sched_ahead_ok(double F);
/* F as sched_ahead_parse reads it: "rtt", "0.25", ... */
const char *sched_ahead_text(double F, char *buf, size_t len);
/* The fraction rule's mark: the iterations of a chunk of 'size' done when
 * its worker asks (ceil((1 - F) size), at least 1); size itself when F is
 * not a fraction > 0. */
long sched_ahead_mark(long size, double F);
/* 1 when a worker that has done 'done' of its chunk of 'size' iterations in
 * 'elapsed' seconds, and not asked yet, asks now (rtt: 'wait' is its reply
 * wait, sched_ahead_wait; unknown, NAN: not yet). */
int sched_ahead_due(double F, long done, long size, double elapsed, double wait);
/* The reply wait after a reply came 'observed' seconds after its request:
 * observed when the worker waited for it (blocked), else (it was there
 * before the worker needed it, the true wait <= observed) the lower of est
 * and observed; est NAN: none yet. */
double sched_ahead_wait(double est, double observed, int blocked);

#endif
