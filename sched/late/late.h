/* late.h: the late rule, one for every model (the loop's chunks, the pool's
 * tasks, the migration model's queues, the strips' steps, Tree's ranges):
 * when a piece of work handed to a worker is overdue, so that the worker is
 * taken for hung (stopped, its host frozen) and its work is served again.
 *
 * A worker's rate is the work units of its completed pieces over their
 * seconds from handing out to result (iterations, tasks, row-steps: each
 * model says which); before its first, the run's (every completed piece's).
 * A piece of u units is late once outstanding longer than
 *
 *     limit = max(F x u / rate, MIN)  seconds,
 *
 * F the factor and MIN the floor of --late F[,MIN] (default 3,30; F = 0:
 * off). Before any piece is completed there is no rate and nothing is late:
 * a run's first pieces are never declared late however long they take. F
 * in [1, 1000] (below 1 a piece on time would be late), MIN in [0, 10^6] s.
 *
 * What a model does with a late piece is its own (docs/runtime.md, "Faults"): the
 * loop serves a copy to an idle worker; the others serve the work again
 * without the hung worker. In every model the first result in counts and a
 * late copy is refused, so nothing counts twice. No clock here: the caller
 * says the times.
 */
#ifndef LATE_H
#define LATE_H

#include "sched/sched.h"

/* --late's defaults: 30 s is above the longest chunk of any fault-free run of
 * the reproduction (19.4 s), where Mandelbrot's uneven rows put chunks at up
 * to 18 times their expected time: fault-free runs are not changed. */
#define LATE_FACTOR 3.0         /* F */
#define LATE_MIN 30.0           /* MIN, seconds */

typedef struct late_rule {
    double factor;              /* F; 0: off */
    double min;                 /* MIN, seconds */
} late_rule;

/* Work done and the seconds it took: a worker's, or the run's. */
typedef struct late_rate {
    double units, secs;
} late_rate;

/* The default rule, 3,30. */
late_rule late_default(void);
/* Parses "F" or "F,MIN" (MIN then 30) into *r: SCHED_OK, or SCHED_EINVAL
 * with err naming the text; *r unchanged on error. */
int late_parse(const char *text, late_rule *r, sched_err *err);

/* A completed piece of u units that took secs seconds: added to r (and to
 * run, when not NULL). Negative or non-finite values are ignored. */
void late_add(late_rate *r, late_rate *run, double units, double secs);
/* Seconds after which a piece of u units at a worker of rate own (or, when
 * own has none, run) is late; INFINITY when the rule is off or there is no
 * rate yet. */
double late_limit(const late_rule *r, const late_rate *own, const late_rate *run, double units);
/* The same for a piece that also moves data: extra seconds expected besides
 * its u units (the strips' rows crossing a re-cut's boundaries, at the rate
 * their dealing was measured), so limit = max(F x (u / rate + extra), MIN).
 * extra <= 0 or not finite: none. Still INFINITY with no rate yet. */
double late_limit_with(const late_rule *r, const late_rate *own, const late_rate *run,
                       double units, double extra);
/* 1 when a piece handed out at time sent is late at time now. */
int late_is(const late_rule *r, const late_rate *own, const late_rate *run, double units,
            double sent, double now);
/* How many limits past due a piece handed out at time sent is at time now:
 * above 1 when it is late (late_is), 0 when it is not or cannot be. Masters
 * that take one worker at a time take the largest. */
double late_over(const late_rule *r, const late_rate *own, const late_rate *run, double units,
                 double sent, double now);
/* late_over with late_limit_with's extra seconds. */
double late_over_with(const late_rule *r, const late_rate *own, const late_rate *run,
                      double units, double extra, double sent, double now);
/* How often a master with nothing to read looks for late pieces: an eighth
 * of MIN, between 50 ms and 1 s; -1 (wait for a message) when off. */
double late_poll(const late_rule *r);

/* When a master looks for late work: only once it has read every message
 * already queued. A master held a long time (in a send of rows, tasks or a
 * checkpoint) finds its workers' messages waiting; looking before reading
 * them would take a worker whose report is in the queue for silent (seen:
 * the strips master, docs/yoon.md). So a look is due every late_poll
 * seconds, and when one is, the master reads without waiting until nothing
 * is there, then looks. The caller says the times (any one clock).
 *
 *     late_watch lw;
 *     late_watch_start(&lw, &rule, now);
 *     for (;;) {
 *         recv(late_watch_wait(&lw, wait, now))   -- wait: its own, < 0 none
 *         if (late_watch_look(&lw, nothing_came, now)) look for late work;
 *         ...
 *     }
 */
typedef struct late_watch {
    double poll;                /* late_poll; < 0: the rule is off */
    double looked;              /* the last look */
    int draining;               /* a look is due: reading what is queued */
} late_watch;

void late_watch_start(late_watch *w, const late_rule *r, double now);
/* How long the next receive may wait, given the caller's own wait (< 0:
 * none): 0 while a look is due, else the earlier of the two. */
double late_watch_wait(const late_watch *w, double wait, double now);
/* After a receive (empty: nothing came): 1 when the caller looks for late
 * work now, the queue read; a message while a look is due puts it off. */
int late_watch_look(late_watch *w, int empty, double now);

#endif
