/* lbopts.h: what the two masters of load balancing by migration share
 * (lb/master.c: queued tasks; strips/master.c: row strips; not installed):
 * their common options, the spawning of a worker per host, the part of the
 * handle they share (lb_master), and whether the strategy is ever asked. */
#ifndef LBOPTS_H
#define LBOPTS_H

#include <stdio.h>

#include "runtime/core/handle.h"
#include "runtime/core/place.h"
#include "runtime/transport/transport.h"
#include "sched/late/late.h"
#include "sched/lb/lb.h"

typedef struct lb_opts {
    const lb_type *type;        /* default yoon */
    double ct;                  /* C_t, seconds; default 0.001 */
    rt_place place;             /* --hosts, --local, --worker */
    late_rule late;             /* --late (sched/late/late.h) */
    char *journal;              /* --journal FILE / --resume FILE (NULL: none) */
    int resume;                 /* 1: --resume, continue the journal */
} lb_opts;

void lb_opts_init(lb_opts *o);
void lb_opts_free(lb_opts *o);
/* Sets strategy, ct, late, journal, resume, hosts, local or worker: DTSS_OK; DTSS_ENOENT for a name
 * that is none of them (msg untouched: the caller may know it) or an unknown
 * strategy; DTSS_EINVAL, DTSS_ENOMEM with msg naming the value. */
int lb_opts_set(lb_opts *o, const char *name, const char *value, char *msg, size_t len);
/* A master's option (h: its base) that is one of them: refused once the
 * master runs (fn, after: "dtss_lb_set", "after dtss_lb_start"), without a
 * value, or unknown (DTSS_ENOENT, "unknown option --NAME"). */
int lb_opts_take(rt_handle *h, lb_opts *o, const char *fn, const char *after,
                 const char *name, const char *value);
/* 1 when name is one of them. */
int lb_opts_known(const char *name);
/* Their --help lines under title, then the master's own option's line
 * (own); what_moves: "which tasks move", "how the strips are re-cut"; unit:
 * "task", "row"; journaled: what --journal keeps ("each accepted result"). */
void lb_opts_usage(FILE *f, const char *title, const char *what_moves, const char *unit,
                   const char *journaled, const char *own);

/* Joins nothing: spawns the worker program (o->worker_path or this one) once
 * on each host picked by o's hosts/local (runtime_hosts), at most max, into
 * tids[] and strdup'ed names into host[] (both max long, the caller's);
 * watches their exits (runtime_spawn). Returns the number spawned, or
 * -DTSS_E... with msg (then none is left running, no name allocated). */
int lb_spawn(const lb_opts *o, tr_peer *tids, char **host, int max, char *msg, size_t len);

/* The workers of a migration master: joined and spawned on the hosts o
 * picks (lb_crew_start), ended and freed (lb_crew_end). */
typedef struct lb_crew {
    tr_peer *tids;
    char **host;
    int P;
} lb_crew;
/* Joins the run (h->joined) and spawns the workers: DTSS_OK, or the error
 * with h's text (then none is left running; lb_crew_end still leaves). */
int lb_crew_start(rt_handle *h, const lb_opts *o, lb_crew *c);
/* Kills the workers still running (unless the run finished: they were
 * told to stop), leaves the run, frees. */
void lb_crew_end(rt_handle *h, lb_crew *c, int finished);

/* What both migration masters hold after their rt_handle h: the options,
 * the workers, whether the run finished, and what moved in all (tasks,
 * rows). */
typedef struct lb_master {
    lb_opts o;                  /* strategy, C_t, hosts */
    lb_crew crew;               /* its workers: tids, host, P */
    int finished;               /* every result in: the workers were stopped */
    long moved;
} lb_master;
/* A new migration master's handle (rt_new: size bytes, zeroed, the base h
 * first) with its lb_master at byte m_at (offsetof(T, m)) initialised; NULL
 * when out of memory. */
void *lb_master_new(size_t size, const rt_kind *kind, size_t m_at);
/* Ends the crew (lb_crew_end), frees the options and the base h (rt_release). */
void lb_master_free(rt_handle *h, lb_master *m);

/* Whether strategy T exchanges any message on n nodes (lb_type.exchange):
 * a strategy that does not (none) is never asked. -1: out of memory. */
int lb_asks(const lb_type *T, int n);

#endif
