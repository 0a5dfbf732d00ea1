/* master.h: what the master's files share (not installed).
 *
 *   master.c        the handle: options, job, start, the piece iterator,
 *                   the record, errors and the log
 *   options.c       dtss_master_set / args / usage: the options table
 *   hosts.c         which hosts get workers (one function per mode), spawn
 *   serve_self.c    self-scheduling's events (Xu & Chronopoulos Sec. 5.3)
 *   serve_tree.c    Tree-Scheduling's events (sched/loop/tree.c)
 *   journal.c       the journal of results, and resuming from it
 *
 * One data path per chunk: the policy assigns (sched/) -> serve_*.c packs and
 * sends it (wire.c) -> ... -> the results come back: serve_*.c unpacks them,
 * records them (sched/records/record.c), tells the policy, journals them (journal.c)
 * and leaves them in m->cur, from which dtss_master_next hands the pieces out
 * one by one (a resumed run's journaled pieces first).
 */
#ifndef MASTER_H
#define MASTER_H

#include <stdio.h>

#include "runtime/dtss.h"
#include "runtime/core/handle.h"
#include "runtime/core/jnl.h"
#include "runtime/core/place.h"
#include "runtime/core/probe.h"
#include "runtime/core/wire.h"
#include "sched/late/late.h"
#include "sched/loop/ahead.h"
#include "sim/select.h"
#include "sched/loop/policy.h"
#include "sched/records/record.h"
#include "sched/sched.h"

#define MASTER_MAX_PARAMS 16

typedef struct mworker {
    int lost;
    int hung;       /* silent at the end, its late chunk done elsewhere */
    /* Tree (--late): when last heard from, what it owes as the master
     * knows (its range, less its results), its rate */
    double since;
    long owes;
    late_rate rate;
} mworker;

enum { M_NEW, M_STARTED, M_DONE, M_FAILED };

/* A journal's header (journal.c), as read back: owned strings. */
typedef struct journal_head {
    long iters;
    int sample;
    char *scheme;
    char *param[MASTER_MAX_PARAMS + 1];     /* "name=value" (min too) */
    int nparam;
    void *job;
    size_t job_len;
} journal_head;

/* The journal of the run (journal.c). */
typedef struct journal {
    jnl_w w;                    /* appending (w.f NULL: no journal, or it failed) */
    /* a resumed journal, as read (journal_scan) */
    long data_start, good_end;  /* the first entry; the end of the last whole one */
    long torn;                  /* bytes after it, ignored */
    policy_range *done;         /* the chunks whose results it holds */
    long ndone, results;
    long done_iters;            /* iterations in them */
    long handed;                /* iterations handed out (A entries, once each) */
    long out_iters;             /* of those, not done: out when the run broke */
    FILE *in;                   /* reading its results back, to hand them out */
    long in_left, handed_out;
    /* the entries not written yet (journal_hold), its memory kept */
    jnl_buf out;
    int hold;
} journal;

struct dtss_master {
    rt_handle h;                            /* first: errors, log, the job */
    /* options */
    char scheme[32];
    const char *pname[MASTER_MAX_PARAMS];   /* scheme parameters, as given */
    char *pvalue[MASTER_MAX_PARAMS];
    int nparam;
    char *min_text;
    long iters;
    int sample;
    rt_place place;                         /* --hosts, --local, --worker... */
    int acp_integer;
    probe_backend probe;
    late_rule late;                         /* --late (sched/late/late.h) */
    double ahead;                           /* --ahead F (sched/loop/ahead.h) */
    char *candidates;                       /* --candidates (--scheme auto) */
    late_rate late_run;                     /* Tree: every range's rate */
    late_watch late_lw;                     /* Tree: when to look, the queue read */
    long result_bytes;                      /* each iteration's (0: unknown) */
    char *journal_path;                     /* --journal / --resume (NULL: none) */
    int resume;                             /* --resume: continue journal_path */
    journal_head jh;                        /* --resume: the journal's header */
    journal jw;
    /* the run */
    int state;
    int tree;
    int autosel;                            /* --scheme auto (sim/select.h) */
    sim_auto *au;
    sched_config cfg;
    policy *p;
    tree *t;
    mworker *w;
    int nw;
    record rec;                             /* times: wall clock, rec.t0 at t = 0 */
    int stopped;
    /* the results being handed out */
    wire_result cur;
    int cur_worker;
    long cur_chunk, cur_piece;
    size_t cur_off;
};

/* master.c */
/* Sets the error message; returns code (rt_fail). */
#define master_fail(m, ...) rt_fail(&(m)->h, __VA_ARGS__)
/* A line on the log: always (faults) or when verbose (progress; rt_log). */
#define master_log(m, ...) rt_log(&(m)->h, __VA_ARGS__)
/* options.c: -1 not an option of the master, 0 a flag, 1 takes a value. */
int master_opt(const char *name);
/* 1 when "NAME=VALUE" (or NAME) names a scheme's parameter or min: what a
 * journal's header may set (journal.c). */
int master_is_param(const char *name_value);
/* Worker w is gone (once): tells the policy and the log. */
int master_lose(dtss_master *m, int w, const char *why);
/* The worker whose task id is tid, or -1. */
int master_worker_of(const dtss_master *m, int tid);
/* A notification is in the receive buffer (tag TASKEXIT or HOSTDEL). */
int master_notice(dtss_master *m, const tr_event *e);
/* Worker w speaks another protocol version (why): killed, and lost. */
int master_refuse(dtss_master *m, int w, const char *why);
/* A RESULT message (e): its worker into *w and its results into *r (the
 * caller frees them); *w = -1 when it is ignored, as said in the log (from no
 * worker of ours, with a wrong index, malformed: r freed). DTSS_OK, or what
 * refusing a worker of another protocol version returns (master_refuse). */
int master_unpack_result(dtss_master *m, const tr_event *e, int *w, wire_result *r);
/* Whether the results of 'size' iterations fit one message (what: "chunk",
 * "range"; id: its number): DTSS_OK, or the run fails naming it, before the
 * work is sent (results a message could not carry: refused before computed). */
int master_fits(dtss_master *m, const char *what, long id, long size);
/* Sends chunk or range [start, start + size) with id to worker w; a worker
 * that cannot be reached is lost. Returns DTSS_OK or an error (set). */
int master_send_work(dtss_master *m, int w, long id, long start, long size);
/* Results accepted: they are handed out next (m->cur takes them over). */
void master_hand_out(dtss_master *m, int w, long chunk, wire_result *r);

/* journal.c (docs/runtime.md, "The journal"). Each returns DTSS_OK or an
 * error (m's message set) unless said otherwise. */
/* --resume PATH: reads the journal's header, takes its run (scheme,
 * parameters, I, R, job: dtss_master_set, dtss_master_job) and names it
 * the journal. */
int master_resume_from(dtss_master *m, const char *path);
/* Whether m's run is still the journal's (options set after --resume). */
int journal_check(dtss_master *m);
/* --resume: reads the entries (m->jw: done, counts, where they end),
 * afresh on each call. A whole entry (its checksum holds) that is not this
 * run's -- a range outside the loop, pieces that are not its iterations
 * (in the order the worker takes them: sched_sample, sched_sample_run) or
 * results of other sizes than result_bytes, results of iterations another
 * entry holds -- is DTSS_EINVAL naming the file and the entry. */
int journal_scan(dtss_master *m);
/* At the start, once the policy has the done ranges: a new journal (its
 * header; none without journal_path), or the resumed one's log line, the
 * record's resumed=N, journal_reopen and journal_open_results. */
int journal_begin(dtss_master *m);
/* A new journal (its header) / the resumed one, cut after its last whole
 * entry and opened to append. */
int journal_create(dtss_master *m);
int journal_reopen(dtss_master *m);
/* Appends an entry (no-ops without a journal; a write that fails is logged
 * and ends the journal, not the run). An A entry is written at once, with
 * the entries held before it: before its chunk goes. */
void journal_assigned(dtss_master *m, long start, long size);
void journal_result(dtss_master *m, const wire_result *r);
/* From journal_hold to journal_flush, the R entries wait for the next A
 * entry or journal_flush, whichever comes first, to go in the same write
 * (a worker's results and its next chunk: one system call, not two);
 * journal_flush writes them (the caller's step is over). */
void journal_hold(dtss_master *m);
void journal_flush(dtss_master *m);
/* The resumed journal's results, one by one: journal_next_result returns 1
 * with *r filled (its id -1), 0 at the end, -1 on an error. */
int journal_open_results(dtss_master *m);
int journal_next_result(dtss_master *m, wire_result *r);
/* fsync and close (the run is over); free everything. */
void journal_close(dtss_master *m);
void journal_head_free(journal_head *h);
void journal_free(dtss_master *m);

/* hosts.c: chooses the hosts (fills m->nw, m->w, m->rec's workers) and
 * spawns a worker on each. Returns DTSS_OK or an error (set). */
int hosts_choose(dtss_master *m);
int hosts_spawn(dtss_master *m);

/* serve_self.c / serve_tree.c: send the jobs (at start), then one step of
 * the event loop each call: hand out what can be handed out, receive one
 * message and act on it (self-scheduling with --late on: or wake up after
 * a while without one, to look for late chunks). Return DTSS_OK or an
 * error (set). */
int self_start(dtss_master *m);
int self_step(dtss_master *m);
int self_finished(const dtss_master *m);
int tree_start(dtss_master *m);
int tree_step(dtss_master *m);
int tree_finished_run(const dtss_master *m);

#endif
