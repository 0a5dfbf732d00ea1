/* strips_master.c: the master of a row-strip computation (dtss.h,
 * dtss_strips_*; the workers are strips_worker.c), re-cut by the load
 * balancing of Yoon et al. Sec. 3.2 (sched/lb/lb.h) as their heat-conduction
 * model (Fig. 10).
 *
 * R rows of B bytes: worker i holds a contiguous strip (the first cut as
 * even as can be, sched/strips/strips.h strips_even), every step computes its
 * rows from them and its neighbours' edge rows (exchanged by the workers
 * themselves), and every K steps (--every) reports to the master: its rows
 * and the seconds it computed since its last report (STATE). With a
 * strategy that exchanges anything the report is a barrier: the worker
 * waits for the new cut (PLAN), and the rows then move between neighbours
 * (sched/strips/strips.h strips_transfers: every worker computes the same
 * list and carries out its part). A strategy that exchanges nothing (none)
 * gets no re-cut: its reports wait only when they carry a checkpoint (below;
 * so that a checkpoint is gathered whole before any worker sends the next),
 * and without checkpoints and the late rule there are none.
 *
 * The plan. A row is a task of eq. 1-4, its time T_task_i what node i takes
 * to compute one row for every step still to come:
 *
 *     T_task_i = (S - k) x busy_i / (n_i K)
 *
 * (busy_i: the seconds node i computed in the K steps since the last
 * barrier, n_i its rows, S the steps in all, k the steps done), so that
 * E_i = n_i T_task_i is the time node i still has to compute, and C_t (--ct,
 * one row's migration: bin/netpipe's a + b B) is weighed against it. busy
 * rather than the period's wall time: the nodes wait for each other's halo
 * rows every step, so the wall time is the slowest node's for everyone
 * (lb_input.t_task). The strategy's after[] becomes the new cut
 * (strips_from_plan: contiguous strips, a node never empty).
 *
 * The start, and every restore. The master sends each worker START: the
 * cut (the workers in strip order, their counts); each worker asks for its
 * rows (FETCH), the master sends them (ROWS), and the worker, once it holds
 * them, tells the master (STATE of that step) and waits for PLAN of that
 * step, which the master sends every worker once every STATE is in: no step
 * begins before every worker holds its rows. Rows only to a worker that
 * asked: a worker stopped (SIGSTOP) reads nothing, and hundreds of KB sent to
 * it fill its socket and hold the master in the send for good; one that
 * never asks is taken for hung like any silent worker (seen: two neighbours
 * stopped, the first taken for hung, the restore's rows for the second
 * blocked the master).
 *
 * Checkpoints and restores. Every --checkpoint N-th report (N = 1: every
 * one; 0: none) carries the worker's rows: once every worker's are in, they
 * are the field after that step, the master's checkpoint (it keeps the last
 * one complete, and the caller's field, the start, until there is one: the
 * master holds two fields). A worker lost -- its exit reported, or taken
 * for hung by the late rule (below) -- is dropped: the epoch goes up by
 * one, the rows of the last checkpoint are re-cut among the workers left
 * (sched/strips/strips.h strips_drop: each keeps its strip, the lost strip
 * goes to its neighbours) and dealt to them (START), and they go on from
 * that step, as from the start. Messages of an earlier epoch are dropped;
 * a lost worker's are refused (counted, said on the log). The FTCS steps
 * are deterministic, so the field is the one a run without the fault gives.
 *
 * The late rule (--late F,MIN, sched/late/late.h): a worker's outstanding
 * report is a piece of u = n_i x (steps to its next report) row-steps, its
 * rate the row-steps of its reports over their wall seconds (from the go,
 * or its previous report without a barrier, to the report); it is late when
 * outstanding longer than max(F u / rate, MIN); after a re-cut, longer than
 * max(F (u / rate + x), MIN), x the seconds its rows crossing boundaries
 * take at the rate its rows' dealing was measured (bytes from the master's
 * send to its STATE holding them; across a boundary the slower of the two
 * workers'): a re-cut of a large plate moves hundreds of megabytes between
 * throttled hosts, and the sender is silent while they go (seen: 28645 rows,
 * 470 MB, a worker taken for hung 30.6 s after the re-cut, its limit 30 s;
 * docs/yoon.md). A worker waiting for a
 * neighbour's rows or the master says so (WAIT, every late_poll seconds),
 * and a report is late only that long after the worker's last word: so
 * when one worker hangs, the one taken for hung is the one silent, not its
 * neighbours waiting for it. It is not killed then (should it resume, its
 * messages are refused), but at the end.
 *
 * Times: the run's time is from the last worker holding its rows (the
 * start) to the last worker ending its last step (worker clocks, STATE),
 * without the rows' dealing and their gathering. (Without the barrier the
 * dealing was inside it: a worker's first step waits for its neighbours'
 * rows, and dealing 128 MiB to Table 1's quarter-core hosts took 3 s.)
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runtime/core/args.h"
#include "runtime/dtss.h"
#include "runtime/core/handle.h"
#include "runtime/core/join.h"
#include "runtime/core/lbopts.h"
#include "runtime/core/wire.h"
#include "runtime/strips/journal.h"
#include "sched/late/late.h"
#include "sched/lb/lb.h"
#include "sched/util/parse.h"
#include "sched/strips/strips.h"
#include "sched/util/quote.h"

/* Why a worker was lost: its exit, the late rule, a send to it failed. */
enum { LOST_NOT, LOST_EXITED, LOST_HUNG, LOST_SEND };
static const char *const lost_name[] = {"-", "exited", "hung", "unreachable"};

typedef struct sround {
    long step;
    double *busy;               /* P each (0 for a lost worker), one block with rows and target */
    int *rows, *target;
    double max_before, max_after;
    long moved;                 /* rows crossing boundaries */
} sround;

typedef struct srestore {
    long epoch, step;           /* the new epoch; the checkpoint's step it goes on from */
    long at;                    /* the furthest step any worker had reported */
    int worker, why;            /* the one lost (0 .. P-1), LOST_* */
    int *rows;                  /* P: the new cut (0 for a lost worker) */
} srestore;

/* A worker of the crew, as the master sees it. */
typedef struct sworker {
    int lost;                   /* LOST_* */
    int in;                     /* its STATE of the phase is in (start, barrier) */
    int fetched;                /* its rows of the start sent (FETCH answered) */
    int first_rows;
    int said;                   /* a refused message of it logged */
    long at;                    /* the step of its last report in this epoch */
    double t_begin, t_end, busy_all, bbusy;
    double t_out;               /* wire_mono: its report outstanding since (< 0: none) */
    double heard;               /* wire_mono: its last message */
    double units;               /* the outstanding report's row-steps */
    double extra;               /* ... and the seconds its rows' moves are expected to take */
    late_rate rate;             /* its reports' row-steps and wall seconds */
    double t_rows;              /* wire_mono: its rows of the start sent (< 0: none) */
    late_rate link;             /* its rows' dealing: bytes and seconds to its STATE */
} sworker;

struct dtss_strips {
    rt_handle h;                /* first: errors, log, the job (started: h.live) */
    lb_master m;                /* options, workers, moved (core/lbopts.h) */
    int every, ckpt;
    /* the run */
    long rows, steps;
    size_t row_bytes;
    int asks;                   /* the strategy exchanges: barriers wait for PLAN */
    int report;                 /* K in the job (0: no reports) */
    int *cut;                   /* P: each worker's rows now (0: lost) */
    sworker *w;                 /* P */
    late_rate run;              /* every report's row-steps and wall seconds */
    /* the epoch */
    long epoch;
    int live;                   /* workers not lost */
    int starting;               /* waiting for every STATE of start_step */
    long start_step, reached;
    int got, ends;
    /* the checkpoints */
    unsigned char *ck, *nx, *spare;     /* ck: the last complete (at ck_step) */
    long ck_step, nx_step, nx_rows;
    long refused;
    sround *round;
    int nrounds, rcap;
    srestore *rest;
    int nrest, restcap;
    /* the journal (journal.c) */
    sj_run jr;
    sj_file jf;                 /* jf.w.f NULL: not written (none, or given up) */
    int jkept;                  /* the file is there, a run to resume (from jf.last) */
    double jevery;              /* --journal-every: seconds between barriers journaled */
    double jlast_t;             /* wire_mono: the last journaled (or the start) */
    long resumed;               /* the step resumed from (-1: not resumed) */
    int jheld;                  /* barriers the resumed journal held */
    long jwritten;              /* barriers journaled by this run */
};

/* The kind the base verbs of dtss.h dispatch on (core/handle.h). */
static int strips_opt(const char *name);
RT_MASTER_BASE(strips_kind, dtss_strips, strips_opt)

dtss_strips *dtss_strips_new(void)
{
    dtss_strips *s = lb_master_new(sizeof *s, &strips_kind, offsetof(dtss_strips, m));
    if (s) {
        s->every = 50;
        s->ckpt = 1;                    /* a checkpoint every report */
        s->jevery = 1;                  /* a journal entry a second at most */
    }
    return s;
}

void dtss_strips_usage(FILE *f)
{
    lb_opts_usage(f, "row-strip options (the master)", "how the strips are re-cut (none: "
                  "never)", "row", "the whole field at barriers", "--every K          steps between reports (re-cuts), "
                  "1 .. 10^9 (default 50)\n"
                  "  --checkpoint N     every N-th report carries the rows to the master: a\n"
                  "                       lost worker's rows come back from there, re-cut\n"
                  "                       among the others (default 1; 0: none, from the\n"
                  "                       first step)\n"
                  "  --journal-every S  with --journal: a checkpoint is journaled when S\n"
                  "                       seconds or more passed since the last one journaled\n"
                  "                       (and the last step's), [0, 86400] (default 1; 0:\n"
                  "                       every checkpoint)");
}

int dtss_strips_set(dtss_strips *s, const char *name, const char *value)
{
    if (strcmp(name, "journal-every") == 0 && value && !s->h.live) {
        double v;
        if (parse_double(value, &v) != 0 || !(v >= 0 && v <= 86400))
            return rt_fail(&s->h, DTSS_EINVAL, "--journal-every '%s' must be seconds in "
                           "[0, 86400]", quote(value));
        s->jevery = v;
        return DTSS_OK;
    }
    int ck = strcmp(name, "checkpoint") == 0;
    if ((!ck && strcmp(name, "every") != 0) || !value || s->h.live)
        return lb_opts_take(&s->h, &s->m.o, "dtss_strips_set", "after the run began", name,
                            value);
    if (ck) {
        if (parse_int_in(value, 0, 1000000000, &s->ckpt) != 0)
            return rt_fail(&s->h, DTSS_EINVAL, "--checkpoint '%s' must be a whole number of "
                           "reports in [0, 10^9]", value);
        return DTSS_OK;
    }
    if (parse_int_in(value, 1, 1000000000, &s->every) != 0)
        return rt_fail(&s->h, DTSS_EINVAL, "--every '%s' must be a whole number of steps in "
                       "[1, 10^9]", quote(value));
    return DTSS_OK;
}

static int strips_opt(const char *name)
{
    return strcmp(name, "every") == 0 || strcmp(name, "checkpoint") == 0 ||
           strcmp(name, "journal-every") == 0 ||
           lb_opts_known(name) ? 1 : -1;
}

/* ---- the run ----------------------------------------------------------------------- */

static int worker_of(const dtss_strips *s, int tid)
{
    for (int i = 0; i < s->m.crew.P; i++)
        if (s->m.crew.tids[i] == tid)
            return i;
    return -1;
}

/* The step of the report after step k (reports every s->report steps, and
 * the last step). */
/* The first row of worker i's strip in the cut. */
static long first_row(const dtss_strips *s, int i)
{
    long first = 0;
    for (int k = 0; k < i; k++)
        first += s->cut[k];
    return first;
}

static long next_report(const dtss_strips *s, long k)
{
    if (s->report <= 0)
        return s->steps;
    long n = k - k % s->report + s->report;
    return n < s->steps ? n : s->steps;
}

/* Worker i's report is outstanding from now: the row-steps to its next
 * (and no rows to move). */
static void due(dtss_strips *s, int i, double now)
{
    s->w[i].t_out = now;
    s->w[i].units = (double)s->cut[i] * (double)(next_report(s, s->w[i].at) - s->w[i].at);
    s->w[i].extra = 0;
}

static int lose(dtss_strips *s, int i, int why);

/* A send to worker i failed (msg): said; the first such worker (bad, or i). */
static int unreachable(dtss_strips *s, int i, int bad, const char *msg)
{
    rt_log(&s->h, 0, "worker %d on %s: %s", i + 1, s->m.crew.host[i], msg);
    return bad >= 0 ? bad : i;
}

/* The go (PLAN of the start step, or a re-cut's) to every worker left:
 * counts[] over the crew (0 for the lost). Their reports are due, with
 * moves[i] seconds of row moves each (NULL: none). */
static int send_plan(dtss_strips *s, long step, const int *counts, const double *moves)
{
    char msg[256];
    int n = 0, *live = malloc(sizeof *live * (size_t)s->m.crew.P);
    if (!live)
        return rt_fail(&s->h, DTSS_ENOMEM, "out of memory");
    for (int i = 0; i < s->m.crew.P; i++)
        if (!s->w[i].lost)
            live[n++] = counts[i];
    double now = wire_mono();
    int bad = -1;
    for (int i = 0; i < s->m.crew.P; i++) {
        if (s->w[i].lost)
            continue;
        if (wire_send_plan(s->m.crew.tids[i], s->epoch, step, live, n, msg, sizeof msg) < 0)
            bad = unreachable(s, i, bad, msg);
        s->cut[i] = counts[i];
        due(s, i, now);
        s->w[i].extra = moves ? moves[i] : 0;
    }
    free(live);
    return bad >= 0 ? lose(s, bad, LOST_SEND) : DTSS_OK;
}

/* Deals the checkpoint (s->ck, after s->ck_step steps) in the cut s->cut to
 * every worker left: START of s->epoch, the rows when it asks (on_fetch);
 * then their STATEs are waited for. */
static int deal(dtss_strips *s)
{
    char msg[512];
    int P = s->m.crew.P, n = 0;
    tr_peer *tids = malloc(sizeof *tids * (size_t)P);
    int *counts = malloc(sizeof *counts * (size_t)P);
    if (!tids || !counts) {
        free(tids), free(counts);
        return rt_fail(&s->h, DTSS_ENOMEM, "out of memory");
    }
    for (int i = 0; i < P; i++)
        if (!s->w[i].lost) {
            tids[n] = s->m.crew.tids[i];
            counts[n++] = s->cut[i];
        }
    wire_start st = {.epoch = s->epoch, .step = s->ck_step, .n = n, .tids = tids,
                     .counts = counts};
    double now = wire_mono();
    int bad = -1;
    s->starting = 1;
    s->start_step = s->ck_step;
    s->got = s->ends = 0;
    s->nx_step = -1;
    for (int i = 0; i < P; i++) {
        if (s->w[i].lost)
            continue;
        if (wire_send_start(s->m.crew.tids[i], &st, msg, sizeof msg) < 0)
            bad = unreachable(s, i, bad, msg);
        st.pos++;
        s->w[i].in = s->w[i].fetched = 0;
        s->w[i].at = s->ck_step;
        s->w[i].heard = now;
        s->w[i].t_rows = -1;
        due(s, i, now);         /* the rows' taking: as long as a period */
    }
    free(tids);
    free(counts);
    return bad >= 0 ? lose(s, bad, LOST_SEND) : DTSS_OK;
}

/* Spawns the workers, cuts the rows, sends each its job and first rows. */
static int begin(dtss_strips *s, void *field)
{
    char msg[512];
    sched_err err;
    int n, rc0 = lb_crew_start(&s->h, &s->m.o, &s->m.crew);
    if (rc0 != DTSS_OK)
        return rc0;
    n = s->m.crew.P;              /* from here dtss_strips_free stops them */
    /* Rows go in fragments of 1 MiB, not libpvm's 4 KiB (as the workers'):
     * on Table 1's quarter-core hosts dealing 32 MiB a worker took 1.2 s a
     * worker in 4 KiB fragments, 256 MiB a worker 3.7 s in 1 MiB ones. */
    tr_hint(TR_HINT_LARGE);
    if (n > s->rows)
        return rt_fail(&s->h, DTSS_EINVAL, "%d workers for %ld rows: a strip needs a row at least",
                     n, s->rows);
    size_t z = (size_t)n;
    s->cut = calloc(z, sizeof *s->cut);
    s->w = calloc(z, sizeof *s->w);
    if (!s->spare)                      /* (a resume has it) */
        s->spare = malloc((size_t)s->rows * s->row_bytes);
    if (!s->cut || !s->w || !s->spare)
        return rt_fail(&s->h, DTSS_ENOMEM, "out of memory for %d workers and a second field "
                       "of %ld bytes", n, s->rows * (long)s->row_bytes);
    if (strips_even((int)s->rows, n, s->cut, &err) != SCHED_OK)
        return rt_fail(&s->h, DTSS_EINVAL, "%s", err.msg);
    for (int i = 0; i < n; i++)
        s->w[i].first_rows = s->cut[i];
    s->live = n;
    /* A strategy that exchanges nothing is never asked: no barrier. Reports
     * without one when they carry checkpoints or the late rule reads them. */
    s->asks = lb_asks(s->m.o.type, n);
    if (s->asks < 0)
        return rt_fail(&s->h, DTSS_ENOMEM, "out of memory");
    int late = s->m.o.late.factor > 0;
    s->report = s->asks || s->ckpt > 0 || late ? s->every : 0;
    s->nx = s->ck == s->spare ? field : s->spare;       /* (ck: set by the run) */
    wire_stripjob j = {.nworkers = n, .every = s->report, .recut = s->asks, .ckpt = s->ckpt,
                       .steps = s->steps, .row_bytes = (long)s->row_bytes,
                       .poll = late ? late_poll(&s->m.o.late) : 0, .job = s->h.job,
                       .job_len = s->h.job_len};
    for (int i = 0; i < n; i++) {
        j.index = i;
        if (wire_send_stripjob(s->m.crew.tids[i], &j, msg, sizeof msg) < 0)
            return rt_fail(&s->h, DTSS_EPVM, "%s", msg);
    }
    rt_log(&s->h, 1, "%d workers, %ld rows of %zu bytes, %ld steps, %s every %d steps (C_t %g s), "
           "a checkpoint every %d reports", n, s->rows, s->row_bytes, s->steps,
           s->m.o.type->name, j.every, s->m.o.ct, s->ckpt);
    return deal(s);
}

/* Seconds m rows crossing the boundary between workers i and j are
 * expected to take: at the slower of their dealings' rates (0 when either
 * has none). */
static double move_secs(const dtss_strips *s, int i, int j, long m)
{
    const late_rate *x = &s->w[i].link, *y = &s->w[j].link;
    if (m <= 0 || !(x->units > 0 && x->secs > 0 && y->units > 0 && y->secs > 0))
        return 0;
    double rate = fmin(x->units / x->secs, y->units / y->secs);
    return (double)m * (double)s->row_bytes / rate;
}

/* Every worker's report of the barrier after 'step' steps is in (their rows
 * in s->cut, busy in s->bbusy): re-cut among the workers left and send the
 * new cut, each worker's report due with its rows' moves (move_secs). */
static int recut(dtss_strips *s, long step)
{
    sched_err err;
    int P = s->m.crew.P, n = 0;
    size_t z = (size_t)P;
    long *rem = malloc(z * sizeof *rem);
    double *tt = malloc(z * sizeof *tt), *moves = calloc(z, sizeof *moves);
    int *rows = malloc(z * sizeof *rows), *target = malloc(z * sizeof *target),
        *full = calloc(z, sizeof *full);
    if (!rem || !tt || !moves || !rows || !target || !full) {
        free(rem), free(tt), free(moves), free(rows), free(target), free(full);
        return rt_fail(&s->h, DTSS_ENOMEM, "out of memory");
    }
    for (int i = 0; i < P; i++) {
        if (s->w[i].lost)
            continue;
        rows[n] = s->cut[i];
        rem[n] = s->cut[i];
        tt[n++] = s->w[i].bbusy > 0 && s->cut[i] > 0
                      ? (double)(s->steps - step) * s->w[i].bbusy /
                            ((double)s->cut[i] * s->every)
                      : NAN;
    }
    lb_input in = {.nodes = n, .remaining = rem, .cost = s->m.o.ct, .t_task = tt,
                   .elapsed = 1};
    lb_plan *p = n > 1 ? lb_plan_make(s->m.o.type, &in, &err) : NULL;
    int rc = DTSS_OK;
    if (n == 1)
        target[0] = rows[0];
    else if (!p || strips_from_plan(p, n, rows, target, &err) != SCHED_OK)
        rc = rt_fail(&s->h, err.code == SCHED_ENOMEM ? DTSS_ENOMEM : DTSS_EINVAL,
                   "after step %ld: %s", step, err.msg);
    for (int i = 0, k = 0; i < P; i++)
        full[i] = s->w[i].lost ? 0 : target[k++];
    long moved = 0, a = 0, b = 0;
    for (int i = 0, l = -1; rc == DTSS_OK && i < P; i++) {
        if (s->w[i].lost)
            continue;
        if (l >= 0) {           /* the boundary between workers l and i */
            long m = labs(a - b);
            moved += m;
            double secs = move_secs(s, l, i, m);
            moves[l] += secs;
            moves[i] += secs;
        }
        a += s->cut[i];
        b += full[i];
        l = i;
    }
    if (rc == DTSS_OK && s->nrounds == s->rcap) {
        int cap = s->rcap ? 2 * s->rcap : 16;
        sround *r = realloc(s->round, sizeof *r * (size_t)cap);
        if (!r)
            rc = rt_fail(&s->h, DTSS_ENOMEM, "out of memory");
        else
            s->round = r, s->rcap = cap;
    }
    sround *r = rc == DTSS_OK ? &s->round[s->nrounds] : NULL;
    if (r && !(r->busy = malloc(z * (sizeof *r->busy + 2 * sizeof *r->rows))))
        rc = rt_fail(&s->h, DTSS_ENOMEM, "out of memory");
    if (rc == DTSS_OK) {
        s->nrounds++;
        r->rows = (int *)(r->busy + z);
        r->target = r->rows + z;
        for (int i = 0; i < P; i++)
            r->busy[i] = s->w[i].lost ? 0 : s->w[i].bbusy;
        memcpy(r->rows, s->cut, z * sizeof *r->rows);
        memcpy(r->target, full, z * sizeof *r->target);
        r->step = step;
        r->max_before = p ? p->max_before : 0;
        r->max_after = p ? p->max_after : 0;
        r->moved = moved;
        s->m.moved += moved;
        double most = 0;
        for (int i = 0; i < P; i++)
            most = fmax(most, moves[i]);
        rt_log(&s->h, 1, "after step %ld: predicted rest %.3f -> %.3f s, %ld rows cross "
               "boundaries (a worker's moves at most %.3g s at its dealing's rate)",
               step, r->max_before, r->max_after, moved, most);
        rc = send_plan(s, step, full, moves);
    }
    lb_plan_free(p);
    free(rem);
    free(tt);
    free(moves);
    free(rows);
    free(target);
    free(full);
    return rc;
}

/* Worker i is lost (why: LOST_*): dropped, and the last checkpoint dealt
 * to the workers left, re-cut (strips_drop). */
static int lose(dtss_strips *s, int i, int why)
{
    sched_err err;
    int P = s->m.crew.P;
    size_t z = (size_t)P;
    long at = s->reached;
    s->w[i].lost = why;
    s->live--;
    if (s->live == 0)
        return rt_fail(&s->h, DTSS_ELOST, "worker %d on %s %s, the last of %d: every worker "
                       "lost (the rows of step %ld were restored %d times)", i + 1,
                       s->m.crew.host[i], why == LOST_HUNG ? "taken for hung" : lost_name[why], P,
                       s->ck_step, s->nrest);
    /* the cut among the workers that were left, i lost among them */
    int *count = malloc(z * sizeof *count), *gone = malloc(z * sizeof *gone),
        *out = malloc(z * sizeof *out), n = 0;
    int rc = count && gone && out ? DTSS_OK : rt_fail(&s->h, DTSS_ENOMEM, "out of memory");
    for (int k = 0; rc == DTSS_OK && k < P; k++)
        if (k == i || !s->w[k].lost) {
            count[n] = s->cut[k];
            gone[n++] = k == i;
        }
    if (rc == DTSS_OK && strips_drop(n, count, gone, out, &err) < 0)
        rc = rt_fail(&s->h, DTSS_EINVAL, "restoring after worker %d: %s", i + 1, err.msg);
    for (int k = 0, j = 0; rc == DTSS_OK && k < P; k++)
        s->cut[k] = s->w[k].lost ? 0 : out[j++];
    free(count);
    free(gone);
    free(out);
    if (rc == DTSS_OK && s->nrest == s->restcap) {
        int cap = s->restcap ? 2 * s->restcap : 4;
        srestore *r = realloc(s->rest, sizeof *r * (size_t)cap);
        if (!r)
            rc = rt_fail(&s->h, DTSS_ENOMEM, "out of memory");
        else
            s->rest = r, s->restcap = cap;
    }
    if (rc != DTSS_OK)
        return rc;
    int *kept = malloc(z * sizeof *kept);
    if (!kept)
        return rt_fail(&s->h, DTSS_ENOMEM, "out of memory");
    memcpy(kept, s->cut, z * sizeof *kept);
    s->epoch++;
    s->rest[s->nrest++] = (srestore){.epoch = s->epoch, .step = s->ck_step, .at = at,
                                     .worker = i, .why = why, .rows = kept};
    char cut[200];
    int len = 0;
    for (int k = 0; k < P && len < (int)sizeof cut - 12; k++)
        if (!s->w[k].lost)
            len += snprintf(cut + len, sizeof cut - (size_t)len, " %d", s->cut[k]);
    rt_log(&s->h, 0, "worker %d on %s %s (the workers had reported step %ld): the rows of step "
           "%ld restored on the %d left, re-cut:%s", i + 1, s->m.crew.host[i],
           why == LOST_HUNG ? "taken for hung" : lost_name[why], at, s->ck_step, s->live, cut);
    s->reached = s->ck_step;
    return deal(s);
}

/* Looks for a late report (sched/late/late.h): the worker most overdue is
 * taken for hung and lost, one at a time (the restore restarts every clock).
 * Not the first late one found: a neighbour of a stopped worker, held in a
 * send of rows to it, is silent too, but since later (seen: worker 1 taken
 * for hung where worker 2 was the one stopped). */
static int look_late(dtss_strips *s)
{
    const late_rule *L = &s->m.o.late;
    double now = wire_mono(), worst = 1;
    int late = -1;
    for (int i = 0; i < s->m.crew.P; i++) {
        if (s->w[i].lost || s->w[i].t_out < 0)
            continue;
        double since = fmax(s->w[i].t_out, s->w[i].heard);
        double over = late_over_with(L, &s->w[i].rate, &s->run, s->w[i].units, s->w[i].extra,
                                     since, now);
        if (over > worst) {
            worst = over;
            late = i;
        }
    }
    if (late < 0)
        return DTSS_OK;
    sworker *w = &s->w[late];
    double since = fmax(w->t_out, w->heard);
    rt_log(&s->h, 0, "worker %d on %s: %s step %ld overdue, silent %.1f s (limit %.1f s)",
           late + 1, s->m.crew.host[late], s->starting ? "holding its rows of" : "its report after",
           s->starting ? s->start_step : next_report(s, w->at), now - since,
           late_limit_with(L, &w->rate, &s->run, w->units, w->extra));
    return lose(s, late, LOST_HUNG);
}

/* A message from worker i, lost: refused (the first of each worker said). */
static void refuse(dtss_strips *s, int i, const tr_event *e)
{
    char msg[256];
    wire_state st;
    long epoch = -1, step = -1;
    int idx;
    s->refused++;
    if (e->tag == WIRE_STATE && wire_unpack_state(e, &st, msg, sizeof msg) == 0) {
        epoch = st.epoch;
        step = st.step;
    } else if (e->tag == WIRE_WAIT && wire_unpack_wait(e, &epoch, &idx, &step, msg,
                                                       sizeof msg) < 0) {
        epoch = step = -1;
    }
    if (e->tag == WIRE_WAIT && s->w[i].said)
        return;
    s->w[i].said = 1;
    char when[64] = "";                 /* a message not read here: no step */
    if (step >= 0)
        snprintf(when, sizeof when, " of step %ld (epoch %ld)", step, epoch);
    rt_log(&s->h, 0, "worker %d's %s%s refused: it was taken for %s", i + 1,
           wire_tag_name(e->tag), when,
           s->w[i].lost == LOST_HUNG ? "hung, its rows restored without it" : "lost");
}

/* ---- the journal (journal.c) -------------------------------------------------------- */

/* The journal given up (why: a write failed): jnl_give_up, said. The run
 * goes on. */
static void journal_drop(dtss_strips *s, const char *why)
{
    char msg[600];
    if (jnl_give_up(&s->jf.w, s->m.o.journal, s->m.o.resume, why, msg, sizeof msg))
        s->jkept = 0;
    rt_log(&s->h, 0, "%s", msg);
}

/* A checkpoint is complete (s->ck, after s->ck_step steps): journaled if
 * --journal-every seconds passed since the last one journaled, or it is the
 * last step's. */
static void journal_barrier(dtss_strips *s)
{
    double now = wire_mono();
    if (!s->jf.w.f || (s->ck_step < s->steps && now - s->jlast_t < s->jevery))
        return;
    s->jlast_t = now;
    long anew = s->jf.anew;
    const char *why = sj_barrier(&s->jf, &s->jr, s->ck_step, s->ck);
    if (why) {
        journal_drop(s, why);
        return;
    }
    s->jwritten++;
    if (s->jf.anew != anew)
        rt_log(&s->h, 1, "journal %s begun anew at step %ld (%ld bytes)",
               quote(s->m.o.journal), s->ck_step, s->jf.size);
}

/* --journal: a new journal, its header written; --resume: the journal read,
 * its last barrier the checkpoint the run goes on from (s->ck, s->ck_step;
 * the step 0 field, the caller's, when it holds none), and opened to
 * append. Before any worker is spawned: a journal refused, nothing runs. */
static int journal_start(dtss_strips *s, void *field)
{
    const char *p = s->m.o.journal;
    char why[400];
    s->resumed = -1;
    if (!p)
        return DTSS_OK;
    const char *opt = s->m.o.resume ? "--resume" : "--journal";
    if (s->ckpt == 0)
        return rt_fail(&s->h, DTSS_EINVAL, "%s %s: with --checkpoint 0 the master holds no "
                       "barrier to journal (--checkpoint N: every N-th report)", opt, quote(p));
    s->jr = (sj_run){.rows = s->rows, .row_bytes = s->row_bytes, .steps = s->steps,
                     .job = s->h.job, .job_len = s->h.job_len};
    if (!s->m.o.resume) {
        int rc = sj_create(&s->jf, p, &s->jr, why, sizeof why);
        if (rc == -1)
            return rt_fail(&s->h, DTSS_EINVAL, "--journal %s: %s", quote(p), why);
        if (rc == -2)
            journal_drop(s, why);
        else
            s->jkept = 1;
        s->jlast_t = wire_mono();
        return DTSS_OK;
    }
    if (!(s->spare = malloc((size_t)s->rows * s->row_bytes)))
        return rt_fail(&s->h, DTSS_ENOMEM, "out of memory for a second field of %ld bytes",
                       s->rows * (long)s->row_bytes);
    unsigned char *buf[2] = {s->spare, field};
    sj_found f;
    int rc = sj_scan(p, &s->jr, buf, &f, why, sizeof why);
    if (rc != DTSS_OK)
        return rt_fail(&s->h, rc, "--resume %s: %s", quote(p), why);
    if (f.which >= 0) {
        s->ck = buf[f.which];
        s->ck_step = f.step;
    }
    s->resumed = f.step;
    s->jheld = f.held;
    char torn[160];
    jnl_torn_text(f.torn, f.good_end, torn, sizeof torn);
    if (f.held > 0)
        rt_log(&s->h, 0, "resuming %s: from step %ld of %ld, its last barrier (of %d whole)%s",
               quote(p), f.step, s->steps, f.held, torn);
    else
        rt_log(&s->h, 0, "resuming %s: it holds no barrier: from step 0 of %ld%s", quote(p),
               s->steps, torn);
    if (sj_reopen(&s->jf, p, f.good_end, f.held, f.step) != 0)
        return rt_fail(&s->h, DTSS_EINVAL, "--resume %s: cannot append to it: %s", quote(p),
                       strerror(errno));
    s->jkept = 1;
    s->jlast_t = wire_mono();
    return DTSS_OK;
}

/* Worker i's STATE: the start's, a report (a barrier's, with the rows for a
 * checkpoint), or the last. *done: every row of the last step is in. */
static int on_state(dtss_strips *s, int i, const tr_event *e, int *done)
{
    char msg[512];
    wire_state st;
    if (wire_unpack_state(e, &st, msg, sizeof msg) < 0)
        return rt_fail(&s->h, DTSS_EPVM, "worker %d: %s", i + 1, msg);
    if (st.epoch < s->epoch)
        return DTSS_OK;                 /* sent before a restore */
    long first = first_row(s, i);
    if (st.epoch > s->epoch || st.index != i || st.rows != s->cut[i] || st.first != first ||
        (st.bytes && st.bytes != (size_t)st.rows * s->row_bytes))
        return rt_fail(&s->h, DTSS_EPVM, "worker %d sent STATE of epoch %ld (%ld here) as worker "
                       "%d: rows %d..%d in %zu bytes (%ld..%ld here)", i + 1, st.epoch,
                       s->epoch, st.index + 1, st.first, st.first + st.rows - 1, st.bytes,
                       first, first + s->cut[i] - 1);
    if (s->starting) {                  /* it holds its rows */
        if (st.step != s->start_step || s->w[i].in || !s->w[i].fetched || st.bytes)
            return rt_fail(&s->h, DTSS_EPVM, "worker %d sent STATE of step %ld at the start "
                           "from step %ld", i + 1, st.step, s->start_step);
        s->w[i].in = 1;
        s->w[i].t_out = -1;
        if (s->w[i].t_rows >= 0)        /* its rows' dealing: the rate of its link */
            late_add(&s->w[i].link, NULL, (double)s->cut[i] * (double)s->row_bytes,
                     wire_mono() - s->w[i].t_rows);
        if (s->epoch == 0)
            s->w[i].t_begin = st.t;
        if (++s->got < s->live)
            return DTSS_OK;
        s->starting = 0;                /* every one does: the go */
        s->got = 0;
        for (int k = 0; k < s->m.crew.P; k++)
            s->w[k].in = 0;
        return send_plan(s, s->start_step, s->cut, NULL);
    }
    long want = next_report(s, s->w[i].at);
    if (st.step != want || s->w[i].in)
        return rt_fail(&s->h, DTSS_EPVM, "worker %d reported step %ld, %ld expected", i + 1,
                       st.step, want);
    double now = wire_mono();
    if (s->w[i].t_out >= 0)
        late_add(&s->w[i].rate, &s->run, s->w[i].units, now - s->w[i].t_out);
    s->w[i].t_out = -1;
    s->w[i].at = st.step;
    s->reached = st.step > s->reached ? st.step : s->reached;
    s->w[i].busy_all += st.busy;
    if (st.bytes) {                     /* its part of a checkpoint */
        if (s->nx_step != st.step)
            s->nx_step = st.step, s->nx_rows = 0;
        memcpy(s->nx + (size_t)first * s->row_bytes, st.data, st.bytes);
        if ((s->nx_rows += st.rows) == s->rows) {
            unsigned char *t = s->ck;
            s->ck = s->nx;
            s->nx = t;
            s->ck_step = st.step;
            s->nx_step = -1;
            journal_barrier(s);
        }
    }
    if (st.step == s->steps) {          /* its last */
        s->w[i].t_end = st.t;
        *done = ++s->ends == s->live && s->ck_step == s->steps;
        return DTSS_OK;
    }
    if (!s->asks && !st.bytes) {        /* no barrier: its next report is due */
        due(s, i, now);
        return DTSS_OK;
    }
    s->w[i].in = 1;                     /* a barrier: a re-cut, or a checkpoint */
    s->w[i].bbusy = st.busy;
    if (++s->got < s->live)
        return DTSS_OK;
    for (int k = 0; k < s->m.crew.P; k++)
        s->w[k].in = 0;
    s->got = 0;
    return s->asks ? recut(s, st.step) : send_plan(s, st.step, s->cut, NULL);
}

/* FETCH from worker i: its rows of this epoch's START (ROWS). One of an
 * earlier epoch is stale (the START it answers was overtaken): dropped. */
static int on_fetch(dtss_strips *s, int i, const tr_event *e)
{
    char msg[512];
    long epoch;
    int index;
    if (wire_unpack_fetch(e, &epoch, &index, msg, sizeof msg) < 0)
        return rt_fail(&s->h, DTSS_EPVM, "worker %d: %s", i + 1, msg);
    if (epoch < s->epoch)
        return DTSS_OK;
    if (epoch > s->epoch || index != i || !s->starting || s->w[i].fetched)
        return rt_fail(&s->h, DTSS_EPVM, "worker %d sent FETCH of epoch %ld (%ld here) as worker "
                       "%d%s", i + 1, epoch, s->epoch, index + 1,
                       !s->starting ? ", not at a start" : s->w[i].fetched ? ", twice" : "");
    long first = first_row(s, i);
    s->w[i].fetched = 1;
    s->w[i].t_rows = wire_mono();
    if (wire_send_rows(s->m.crew.tids[i], s->epoch, (int)first, s->cut[i],
                       s->ck + (size_t)first * s->row_bytes, (size_t)s->cut[i] * s->row_bytes,
                       msg, sizeof msg) < 0)
        return lose(s, unreachable(s, i, -1, msg), LOST_SEND);
    s->w[i].heard = wire_mono();        /* its rows left only now: the send is not its silence */
    return DTSS_OK;
}

/* Every row is in: STOP to every worker left, and their exits waited for
 * (at most 10 s), so that none outlives the run; a lost worker's messages
 * meanwhile refused. */
static int stop_all(dtss_strips *s)
{
    char msg[512];
    int left = 0;
    for (int i = 0; i < s->m.crew.P; i++) {
        if (s->w[i].lost)
            continue;
        if (wire_send_stop(s->m.crew.tids[i], msg, sizeof msg) < 0) {
            unreachable(s, i, -1, msg);         /* every row is in: not waited for */
            continue;
        }
        s->w[i].in = 0;                 /* its exit: 1 */
        left++;
    }
    double until = wire_mono() + 10;
    while (left > 0 && wire_mono() < until) {
        tr_event e;
        int i;
        if (tr_recv(TR_ANY, TR_ANY, 0.2, &e, msg, sizeof msg) < 0)
            break;
        if ((i = worker_of(s, e.from)) < 0)
            continue;
        if (e.kind == TR_MESSAGE && s->w[i].lost)
            refuse(s, i, &e);
        else if (e.kind == TR_PEER_EXIT && !s->w[i].lost && !s->w[i].in) {
            s->w[i].in = 1;
            left--;
        }
    }
    return DTSS_OK;
}

int dtss_strips_run(dtss_strips *s, long rows, size_t row_bytes, long steps, void *field)
{
    char msg[512];
    if (s->h.live)
        return rt_fail(&s->h, DTSS_EMISUSE, "dtss_strips_run: called twice");
    if (rows < 1 || rows > STRIPS_MAX_ROWS || row_bytes < 1 ||
        (double)row_bytes * (double)rows > (double)WIRE_MAX_JOB || steps < 0 ||
        steps > 1000000000L)
        return rt_fail(&s->h, DTSS_EINVAL, "dtss_strips_run: %ld rows (1 .. %d) of %zu bytes "
                     "(%ld in all at most), %ld steps (0 .. 10^9)", rows, STRIPS_MAX_ROWS,
                     row_bytes, WIRE_MAX_JOB, steps);
    s->h.live = 1;
    s->rows = rows;
    s->row_bytes = row_bytes;
    s->steps = steps;
    s->ck = field;
    s->ck_step = 0;
    int rc = journal_start(s, field), done = 0;
    s->reached = s->ck_step;
    if (rc == DTSS_OK && s->resumed == steps) {         /* nothing left to compute */
        rt_log(&s->h, 0, "resuming %s: its last barrier is the run's last step: nothing to "
               "compute", quote(s->m.o.journal));
        sj_close(&s->jf);
        if (s->ck != field)
            memcpy(field, s->ck, (size_t)rows * row_bytes);
        s->m.finished = 1;
        return DTSS_DONE;
    }
    if (rc == DTSS_OK)
        rc = begin(s, field);
    /* The late rule is applied once what has come is read (late_watch): a
     * worker whose message waited while the master sent rows for a long
     * time is not silent. */
    late_watch lw;
    late_watch_start(&lw, &s->m.o.late, wire_mono());
    while (rc == DTSS_OK && !done) {
        tr_event e;
        int i;
        if (tr_recv(TR_ANY, TR_ANY, late_watch_wait(&lw, -1, wire_mono()), &e, msg,
                    sizeof msg) < 0) {
            rc = rt_fail(&s->h, DTSS_EPVM, "%s", msg);
            break;
        }
        if (late_watch_look(&lw, e.kind == TR_TIMEOUT, wire_mono())) {
            rc = look_late(s);
            continue;
        }
        if (e.kind == TR_PEER_EXIT) {
            if ((i = worker_of(s, e.from)) >= 0 && !s->w[i].lost)
                rc = lose(s, i, LOST_EXITED);
        } else if (e.kind == TR_MESSAGE && (i = worker_of(s, e.from)) >= 0) {
            if (s->w[i].lost) {
                refuse(s, i, &e);
                continue;
            }
            s->w[i].heard = wire_mono();
            if (e.tag == WIRE_STATE)
                rc = on_state(s, i, &e, &done);
            else if (e.tag == WIRE_FETCH)
                rc = on_fetch(s, i, &e);
            else if (e.tag != WIRE_WAIT)
                rc = rt_fail(&s->h, DTSS_EPVM, "worker %d sent %s", i + 1, wire_tag_name(e.tag));
        }
    }
    if (rc == DTSS_OK)
        rc = stop_all(s);
    sj_close(&s->jf);
    if (rc != DTSS_OK) {
        for (int i = 0; s->w && i < s->m.crew.P; i++)
            if (s->w[i].lost != LOST_EXITED)
                tr_kill(s->m.crew.tids[i]);
        if (s->jkept && s->jf.last > 0)
            rt_log(&s->h, 0, "the journal %s holds the field of step %ld: --resume %s (the "
                   "same job and steps) goes on from there", quote(s->m.o.journal),
                   s->jf.last, quote(s->m.o.journal));
        else if (s->jkept)
            rt_log(&s->h, 0, "the journal %s holds no barrier yet: --resume %s (the same "
                   "job and steps) goes on from step 0", quote(s->m.o.journal),
                   quote(s->m.o.journal));
        return rc;
    }
    if (s->m.o.journal)
        rt_log(&s->h, 1, "journal %s: %ld barriers written by this run, the last of step %ld; "
               "%ld bytes, %d barrier%s (begun anew %ld times)", quote(s->m.o.journal),
               s->jwritten, s->jf.last, s->jf.size, s->jf.held, s->jf.held == 1 ? "" : "s",
               s->jf.anew);
    for (int i = 0; i < s->m.crew.P; i++)       /* a hung worker: not waited for */
        if (s->w[i].lost == LOST_HUNG || s->w[i].lost == LOST_SEND)
            tr_kill(s->m.crew.tids[i]);
    if (s->ck != field)
        memcpy(field, s->ck, (size_t)rows * row_bytes);
    s->m.finished = 1;
    return DTSS_DONE;
}

/* ---- after the run ------------------------------------------------------------------ */

int dtss_strips_stats_get(const dtss_strips *s, dtss_strips_stats *st)
{
    memset(st, 0, sizeof *st);
    if (!s->m.finished)
        return DTSS_EMISUSE;
    double b = 0, e = 0, emin = INFINITY;
    for (int i = 0; i < s->m.crew.P; i++) {
        b = fmax(b, s->w[i].t_begin);
        if (s->w[i].lost)
            continue;
        e = fmax(e, s->w[i].t_end);
        emin = fmin(emin, s->w[i].t_end);
    }
    st->workers = s->m.crew.P;
    st->time = e - b;
    st->imbalance = e - emin;
    st->recuts = s->nrounds;
    st->moved = s->m.moved;
    st->restores = s->nrest;
    st->lost = s->m.crew.P - s->live;
    st->refused = s->refused;
    st->resumed = s->m.o.journal && s->m.o.resume ? s->resumed : -1;
    return DTSS_OK;
}

static void summary_line(const dtss_strips *s, const dtss_strips_stats *st, FILE *f)
{
    fprintf(f, "%s: %d workers, %ld rows, %ld steps, time %.3f s, %d re-cuts, %ld rows "
            "moved; rows at the end:", s->m.o.type->name, st->workers, s->rows, s->steps, st->time,
            st->recuts, st->moved);
    for (int i = 0; i < s->m.crew.P; i++)
        fprintf(f, " %d", s->cut[i]);
    if (s->m.crew.P == 0)
        fprintf(f, " none (no worker)");
    if (st->restores) {
        fprintf(f, "; %d restore%s (", st->restores, st->restores == 1 ? "" : "s");
        for (int r = 0; r < s->nrest; r++)
            fprintf(f, "%sworker %d %s: from step %ld", r ? ", " : "", s->rest[r].worker + 1,
                    lost_name[s->rest[r].why], s->rest[r].step);
        fprintf(f, "), %ld messages refused", st->refused);
    }
    if (st->resumed >= 0)
        fprintf(f, "; resumed from step %ld", st->resumed);
}

RT_SUMMARY(dtss_strips, summary_line)

static void list_int(FILE *f, const int *v, int n)
{
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%d", i ? ";" : "", v[i]);
}

/* The run record: '#' header lines, then run, worker, recut and restore lines. */
static void print_record(const void *ctx, FILE *f)
{
    const dtss_strips *s = ctx;
    dtss_strips_stats st;
    int P = s->m.crew.P;
    dtss_strips_stats_get(s, &st);
    fprintf(f, "#run,strategy,workers,rows,row_bytes,steps,every,ct,time,recuts,moved,"
               "checkpoint,late,restores,refused,resumed\n"
               "#worker,worker,host,rows_first,rows_last,busy,begin,end,lost\n"
               "#recut,step,rows,busy,target,max_e_before,max_e_after,moved\n"
               "#restore,epoch,step,worker,why,reached,rows\n");
    fprintf(f, "run,%s,%d,%ld,%zu,%ld,%d,%.6f,%.6f,%d,%ld,%d,%g;%g,%d,%ld,%ld\n",
            s->m.o.type->name, P, s->rows, s->row_bytes, s->steps, s->every, s->m.o.ct,
            st.time, st.recuts, st.moved, s->ckpt, s->m.o.late.factor, s->m.o.late.min,
            st.restores, st.refused, st.resumed);
    double b0 = INFINITY;
    for (int i = 0; i < P; i++)
        b0 = fmin(b0, s->w[i].t_begin);
    for (int i = 0; i < P; i++) {
        const sworker *w = &s->w[i];
        fprintf(f, "worker,%d,%s,%d,%d,%.6f,%.6f,%.6f,%s\n", i + 1, s->m.crew.host[i],
                w->first_rows, s->cut[i], w->busy_all, w->t_begin - b0,
                w->lost ? 0 : w->t_end - b0, lost_name[w->lost]);
    }
    for (int r = 0; r < s->nrounds; r++) {
        const sround *x = &s->round[r];
        fprintf(f, "recut,%ld,", x->step);
        list_int(f, x->rows, P);
        fputc(',', f);
        for (int i = 0; i < P; i++)
            fprintf(f, "%s%.6f", i ? ";" : "", x->busy[i]);
        fputc(',', f);
        list_int(f, x->target, P);
        fprintf(f, ",%.6f,%.6f,%ld\n", x->max_before, x->max_after, x->moved);
    }
    for (int r = 0; r < s->nrest; r++) {
        const srestore *x = &s->rest[r];
        fprintf(f, "restore,%ld,%ld,%d,%s,%ld,", x->epoch, x->step, x->worker + 1,
                lost_name[x->why], x->at);
        list_int(f, x->rows, P);
        fputc('\n', f);
    }
}

int dtss_strips_write_record(dtss_strips *s, const char *path)
{
    return rt_write_record(&s->h, s->m.finished, path, print_record, s);
}

void dtss_strips_free(dtss_strips *s)
{
    if (!s)
        return;
    lb_master_free(&s->h, &s->m);
    for (int r = 0; r < s->nrounds; r++)
        free(s->round[r].busy);         /* with rows and target */
    free(s->round);
    for (int r = 0; r < s->nrest; r++)
        free(s->rest[r].rows);
    free(s->rest);
    free(s->cut);
    free(s->w);
    free(s->spare);
    free(s);
}
