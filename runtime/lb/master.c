/* lb_master.c: the master of load balancing by migration (dtss.h,
 * dtss_lb_*): Yoon et al., "Dynamic Load Balancing Algorithm using
 * Execution Time Prediction on Cluster Systems", Sec. 3.
 *
 * Unlike self-scheduling, every worker starts with an equal share of the
 * tasks in its own ready queue (Sec. 3.2: "N ... tasks distributed with
 * the P nodes equally"; worker i gets tasks [i N / P, (i + 1) N / P)), and
 * runs them one after another. Every period the master asks each worker for
 * its counts (COUNT), and with every answer in (COUNTS: n_i queued, d_i
 * finished since its last answer) asks the strategy (sched/lb/lb.h: yoon, clb,
 * dlb, mclb, none, one implementation shared with the simulator) which
 * tasks move, and orders each sender to send them (MOVE): the sender takes
 * them from its queue's tail and sends them to the receiver directly
 * (TASKS, node to node, as the paper's migration). A worker reads its
 * messages between tasks, so a round's answers come within one task of the
 * question (a node's "one port", Sec. 3.1). The period t of eq. 1 is the
 * time from the previous round's question to this one's (from the start
 * for the first).
 *
 * A strategy whose exchange is empty (none) is never asked: no rounds.
 * The run ends when every task's result is in; the workers are then
 * stopped.
 *
 * Faults. The master knows where every task is: its first share, and each
 * migration's tasks, which the sender names to the master (MOVED) after
 * sending them. A worker that exits (or whose host is lost), or that owes
 * tasks and stays silent past the late rule's limit (--late F,MIN: a task
 * at its rate, sched/late/late.h: stopped, its host frozen), is out of the
 * run: its tasks not done are dealt again, first in line, in even shares to
 * the others, from the master's copies. A hung worker is ended then, not
 * left alone as the loop's: a worker sending it migrated tasks would wait
 * for it (seen: with one worker stopped, both others blocked in their
 * sends to it and were taken for hung in turn). A result that comes second
 * (one in flight from the worker ended) is refused, so every task counts
 * once. The run fails (DTSS_ELOST) only when every worker is lost.
 *
 * The journal (--journal FILE, --resume FILE; lb/journal.c, its format):
 * created (or, resumed, cut after its last whole entry and appended to)
 * once PVM is joined; every result accepted is appended before the
 * application sees it. A resumed run reads the journal at its start,
 * before PVM is asked (a
 * journal of another run is refused, naming the field or the entry), deals
 * the shares over the tasks the journal lacks only, and dtss_lb_next hands
 * out the journal's results first (worker -1), then the new ones: every
 * task's result still comes exactly once.
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
#include "runtime/lb/journal.h"
#include "sched/lb/lb.h"
#include "sched/util/fnv.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

#define LB_MAX_TASKS_RT 10000000

typedef struct lbtask {
    unsigned char *data;
    size_t len;
    int home, ran;              /* the worker it was dealt to, ran on */
    double received, started, finished, got; /* run times (got: its result) */
    int done;
    int at;                     /* the worker that holds it, as the master knows */
    int copies;                 /* times dealt: more than 1 once dealt again */
    unsigned char *jres;        /* its result from the journal (--resume) */
    size_t jlen;
    int journaled;              /* 1: its result came from the journal */
} lbtask;

typedef struct lbround {
    int round;
    double asked, planned, elapsed;
    long *queued, *done;        /* P each; one block with moves */
    double max_before, max_after;
    long moved;
    char *moves;                /* "from>to:count;..." (workers from 1) */
} lbround;

/* A worker lost (its exit, its host's loss) or taken for hung (late). */
typedef struct lblost {
    int worker;
    double at;
    const char *why;
    long redealt;               /* its tasks dealt again */
} lblost;

struct dtss_lb {
    rt_handle h;                /* first: errors, log, the job (started: h.live) */
    lb_master m;                /* options, workers, moved (core/lbopts.h) */
    double period;
    /* the tasks */
    lbtask *task;
    int ntasks, cap;
    uint64_t tasks_sum;         /* lbj_task_sum over them, at the start (the
                                   journal's header) */
    /* the journal (lb/journal.c) */
    jnl_w jw;                   /* open: results are appended */
    long journaled;             /* results taken from the journal (--resume) */
    long jtorn;                 /* bytes of its torn end, cut */
    long jgood;                 /* where its last whole entry ends */
    long jwritten;              /* results appended */
    int jnext;                  /* the next task whose journaled result to hand out */
    /* the run */
    double t0, wall0;
    double *finish;             /* each worker's last result */
    long *ran;                  /* tasks each ran */
    long *dealt;                /* tasks each was dealt at the start */
    long ndone;
    /* faults: a lost or hung worker's tasks are dealt again (docs/runtime.md) */
    char *gone;                 /* 1: lost or taken for hung: out of the run */
    long *held;                 /* tasks not done each holds, as the master knows */
    double *since;              /* when each was last heard from, or took work */
    late_rate *rate, run_rate;  /* tasks over their seconds (sched/late/late.h) */
    late_watch lw;              /* when to look for late work: the queue read */
    char *answered;             /* this round */
    int live;
    lblost *lost;
    int nlost;
    long redealt;
    int asks;                   /* the strategy exchanges messages: rounds run */
    int round, in_round, answers;
    double round_asked, last_asked, next_round;
    long *q_now, *d_now;
    lbround *rounds;
    int nrounds, rcap;
    unsigned char *res;         /* the result handed out by dtss_lb_next */
};

static double now(const dtss_lb *b)
{
    return wire_mono() - b->t0;
}

/* ---- options --------------------------------------------------------------- */

/* The kind the base verbs of dtss.h dispatch on (core/handle.h). */
static int lb_opt(const char *name);
RT_MASTER_BASE(lb_kind, dtss_lb, lb_opt)

dtss_lb *dtss_lb_new(void)
{
    dtss_lb *b = lb_master_new(sizeof *b, &lb_kind, offsetof(dtss_lb, m));
    if (b)
        b->period = 1.0;
    return b;
}

void dtss_lb_usage(FILE *f)
{
    lb_opts_usage(f, "load-balancing options (the master)", "which tasks move", "task",
                  "each accepted result",
                  "--period S         seconds between balancings, (0, 10^6] (default 1)");
}

int dtss_lb_set(dtss_lb *b, const char *name, const char *value)
{
    double v;
    if (strcmp(name, "period") != 0 || !value || b->h.live)
        return lb_opts_take(&b->h, &b->m.o, "dtss_lb_set", "after dtss_lb_start", name, value);
    if (parse_double(value, &v) != 0 || !(v > 0) || v > 1e6)
        return rt_fail(&b->h, DTSS_EINVAL, "--period '%s' must be seconds in (0, 1e6]",
                       quote(value));
    b->period = v;
    return DTSS_OK;
}

static int lb_opt(const char *name)
{
    return strcmp(name, "period") == 0 || lb_opts_known(name) ? 1 : -1;
}

int dtss_lb_task(dtss_lb *b, const void *payload, size_t len)
{
    if (b->h.live)
        return rt_fail(&b->h, DTSS_EMISUSE, "dtss_lb_task: after dtss_lb_start");
    if (b->ntasks >= LB_MAX_TASKS_RT)
        return rt_fail(&b->h, DTSS_EINVAL, "more than %d tasks", LB_MAX_TASKS_RT);
    if (len > (size_t)WIRE_MAX_RESULT)
        return rt_fail(&b->h, DTSS_EINVAL, "a task of %zu bytes (at most %ld)", len,
                      WIRE_MAX_RESULT);
    if (b->ntasks == b->cap) {
        int cap = b->cap ? 2 * b->cap : 64;
        lbtask *t = realloc(b->task, sizeof *t * (size_t)cap);
        if (!t)
            return rt_fail(&b->h, DTSS_ENOMEM, "out of memory for %d tasks", cap);
        b->task = t;
        b->cap = cap;
    }
    lbtask *t = &b->task[b->ntasks];
    memset(t, 0, sizeof *t);
    if (!(t->data = malloc(len ? len : 1)))
        return rt_fail(&b->h, DTSS_ENOMEM, "out of memory for a task of %zu bytes", len);
    if (len)
        memcpy(t->data, payload, len);
    t->len = len;
    t->ran = -1;
    b->ntasks++;
    return DTSS_OK;
}

/* ---- start: spawn, deal --------------------------------------------------------- */

/* The job and worker i's equal share of the N tasks not done (all but a
 * resumed run's journaled ones), the i-th of P runs [i N / P, (i + 1) N / P)
 * of them in order. */
static int deal(dtss_lb *b)
{
    char msg[256];
    int N = 0, *pend = malloc(sizeof *pend * (size_t)b->ntasks);
    if (!pend)
        return rt_fail(&b->h, DTSS_ENOMEM, "out of memory");
    for (int k = 0; k < b->ntasks; k++)
        if (!b->task[k].done)
            pend[N++] = k;
    for (int i = 0; i < b->m.crew.P; i++) {
        long lo = (long)i * N / b->m.crew.P, hi = (long)(i + 1) * N / b->m.crew.P;
        int n = (int)(hi - lo);
        wire_task *w = calloc(n ? (size_t)n : 1, sizeof *w);
        if (!w) {
            free(pend);
            return rt_fail(&b->h, DTSS_ENOMEM, "out of memory");
        }
        for (int k = 0; k < n; k++) {
            lbtask *t = &b->task[pend[lo + k]];
            t->home = t->at = i;
            t->copies = 1;
            w[k] = (wire_task){.task = pend[lo + k], .iteration = 1, .data = t->data,
                               .len = t->len};
        }
        int rc = wire_send_lbjob(b->m.crew.tids[i], i, b->m.crew.P, b->m.crew.tids, b->h.job, b->h.job_len, msg,
                                 sizeof msg);
        if (rc >= 0)
            rc = wire_send_tasks(b->m.crew.tids[i], w, n, msg, sizeof msg);
        free(w);
        if (rc < 0) {
            free(pend);
            return rt_fail(&b->h, DTSS_EPVM, "%s", msg);
        }
        b->held[i] = n;
        b->dealt[i] = n;
        b->since[i] = now(b);
    }
    free(pend);
    return DTSS_OK;
}

/* ---- the journal (lb/journal.c) ---------------------------------------------------- */

/* A write failed: the journal is closed, and removed unless resumed (a
 * resumed one's earlier results stay; its torn end is cut on the next
 * resume) or not a regular file; the run goes on without it. */
static void journal_failed(dtss_lb *b, const char *why)
{
    char msg[600];
    jnl_give_up(&b->jw, b->m.o.journal, b->m.o.resume, why, msg, sizeof msg);
    rt_log(&b->h, 0, "%s", msg);
}

static lbj_run this_run(const dtss_lb *b)
{
    return (lbj_run){.job = b->h.job, .job_len = b->h.job_len, .ntasks = b->ntasks,
                     .tasks_sum = b->tasks_sum};
}

/* --resume: the journal read and checked, its results taken (their tasks
 * done). Before PVM is asked. */
static int journal_read(dtss_lb *b)
{
    const char *p = b->m.o.journal;
    if (!p || !b->m.o.resume)
        return DTSS_OK;
    lbj_run run = this_run(b);
    lbj_loaded l;
    char why[512];
    int rc = lbj_load(p, &run, &l, why, sizeof why);
    if (rc != DTSS_OK)
        return rt_fail(&b->h, rc, "--resume %s: %s", quote(p), why);
    for (long i = 0; i < l.n; i++) {
        lbtask *t = &b->task[l.task[i]];
        t->jres = l.data[i];
        t->jlen = l.len[i];
        l.data[i] = NULL;
        t->journaled = t->done = 1;
        t->home = t->at = t->ran = -1;
    }
    b->journaled = b->ndone = l.n;
    b->jtorn = l.torn;
    b->jgood = l.good_end;
    lbj_loaded_free(&l);
    return DTSS_OK;
}

/* --journal: a new journal (a write that fails: logged, the run goes on);
 * --resume: the journal opened to append after its last whole entry. Once
 * PVM is joined. */
static int journal_open(dtss_lb *b)
{
    const char *p = b->m.o.journal;
    if (!p)
        return DTSS_OK;
    if (b->m.o.resume) {
        if (jnl_reopen(&b->jw, p, b->jgood) != 0)
            return rt_fail(&b->h, DTSS_EINVAL, "--resume %s: cannot append to it: %s",
                           quote(p), strerror(errno));
        char torn[160];
        jnl_torn_text(b->jtorn, b->jgood, torn, sizeof torn);
        rt_log(&b->h, 0, "resuming %s: %ld of %d results journaled%s", quote(p),
               b->journaled, b->ntasks, torn);
        return DTSS_OK;
    }
    int rc = rt_jnl_create(&b->h, &b->jw, p);
    if (rc != DTSS_OK)
        return rc;
    lbj_run run = this_run(b);
    const char *why = lbj_put_head(&b->jw, &run);
    if (why)
        journal_failed(b, why);
    return DTSS_OK;
}

int dtss_lb_start(dtss_lb *b)
{
    if (b->h.live)
        return rt_fail(&b->h, DTSS_EMISUSE, "dtss_lb_start: called twice");
    if (b->ntasks < 1)
        return rt_fail(&b->h, DTSS_EINVAL, "dtss_lb_start: no task (dtss_lb_task first)");
    b->tasks_sum = FNV1A_BASIS;
    for (int i = 0; i < b->ntasks; i++)
        b->tasks_sum = lbj_task_sum(b->tasks_sum, b->task[i].data, b->task[i].len);
    int rcj = journal_read(b);          /* (a journal of another run: nothing runs) */
    if (rcj != DTSS_OK)
        return rcj;
    b->h.live = 1;
    b->wall0 = wire_now();
    b->t0 = wire_mono();
    int n, rc0 = lb_crew_start(&b->h, &b->m.o, &b->m.crew);
    if (rc0 == DTSS_OK)
        rc0 = journal_open(b);
    if (rc0 != DTSS_OK)
        return rc0;
    /* Tasks go in fragments of 1 MiB, not libpvm's 4 KiB: a busy worker
     * reads a fragment between two tasks, and a lost worker's tasks dealt
     * again in 4 KiB fragments held the master in its send for seconds. */
    tr_hint(TR_HINT_LARGE);
    n = b->m.crew.P;
    b->finish = calloc((size_t)n, sizeof *b->finish);
    b->ran = calloc((size_t)n, sizeof *b->ran);
    b->dealt = calloc((size_t)n, sizeof *b->dealt);
    b->q_now = calloc((size_t)n, sizeof *b->q_now);
    b->d_now = calloc((size_t)n, sizeof *b->d_now);
    b->gone = calloc((size_t)n, sizeof *b->gone);
    b->held = calloc((size_t)n, sizeof *b->held);
    b->since = calloc((size_t)n, sizeof *b->since);
    b->rate = calloc((size_t)n, sizeof *b->rate);
    b->answered = calloc((size_t)n, sizeof *b->answered);
    b->lost = calloc((size_t)n, sizeof *b->lost);
    if (!b->finish || !b->ran || !b->dealt || !b->q_now || !b->d_now || !b->gone || !b->held || !b->since ||
        !b->rate || !b->answered || !b->lost)
        return rt_fail(&b->h, DTSS_ENOMEM, "out of memory for %d workers", n);
    b->live = n;
    int rc;
    rt_log(&b->h, 1, "t=%.3f %d workers spawned; dealing %ld tasks, %s balancing every %g s "
        "(C_t %g s)", now(b), b->m.crew.P, b->ntasks - b->journaled, b->m.o.type->name,
        b->period, b->m.o.ct);
    if ((rc = deal(b)) != DTSS_OK)
        return rc;
    /* A strategy that exchanges nothing (none) is never asked: no round,
     * no message beyond the tasks' own (lb_type.exchange). */
    if ((b->asks = lb_asks(b->m.o.type, b->m.crew.P)) < 0)
        return rt_fail(&b->h, DTSS_ENOMEM, "out of memory");
    b->last_asked = 0;
    b->next_round = now(b) + b->period;
    late_watch_start(&b->lw, &b->m.o.late, now(b));
    return DTSS_OK;
}

/* ---- balancing ------------------------------------------------------------------- */

static int ask(dtss_lb *b)
{
    char msg[256];
    b->round++;
    b->in_round = 1;
    b->answers = 0;
    b->round_asked = now(b);
    for (int i = 0; i < b->m.crew.P; i++) {
        b->answered[i] = 0;
        if (!b->gone[i] && wire_send_count(b->m.crew.tids[i], b->round, msg, sizeof msg) < 0)
            return rt_fail(&b->h, DTSS_EPVM, "%s", msg);
    }
    return DTSS_OK;
}

/* Every live worker's answer is in: plan among them and order the
 * migrations (a lost worker's counts are 0 in the record). */
static int plan(dtss_lb *b)
{
    sched_err err;
    char msg[256];
    double elapsed = b->round_asked - b->last_asked;
    int n = 0, *map = malloc(sizeof *map * (size_t)b->m.crew.P);
    long *q = malloc(sizeof *q * (size_t)b->m.crew.P), *d = malloc(sizeof *d * (size_t)b->m.crew.P);
    if (!map || !q || !d) {
        free(map), free(q), free(d);
        return rt_fail(&b->h, DTSS_ENOMEM, "out of memory");
    }
    for (int i = 0; i < b->m.crew.P; i++)
        if (!b->gone[i]) {
            map[n] = i;
            q[n] = b->q_now[i];
            d[n++] = b->d_now[i];
        } else {
            b->q_now[i] = b->d_now[i] = 0;
        }
    lb_input in = {.nodes = n, .remaining = q, .done = d,
                   .elapsed = elapsed > 1e-9 ? elapsed : 1e-9, .cost = b->m.o.ct};
    lb_plan *p = lb_plan_make(b->m.o.type, &in, &err);
    free(q);
    free(d);
    if (!p) {
        free(map);
        return rt_fail(&b->h, err.code == SCHED_ENOMEM ? DTSS_ENOMEM : DTSS_EINVAL,
                      "round %d: %s", b->round, err.msg);
    }
    if (b->nrounds == b->rcap) {
        int cap = b->rcap ? 2 * b->rcap : 16;
        lbround *r = realloc(b->rounds, sizeof *r * (size_t)cap);
        if (!r) {
            lb_plan_free(p);
            free(map);
            return rt_fail(&b->h, DTSS_ENOMEM, "out of memory");
        }
        b->rounds = r;
        b->rcap = cap;
    }
    lbround *r = &b->rounds[b->nrounds++];
    memset(r, 0, sizeof *r);
    r->round = b->round;
    r->asked = b->round_asked;
    r->planned = now(b);
    r->elapsed = elapsed;
    r->max_before = p->max_before;
    r->max_after = p->max_after;
    size_t P = (size_t)b->m.crew.P, cap = 1 + 32 * (size_t)p->nmoves, used = 0;
    if (!(r->queued = malloc(2 * P * sizeof *r->queued + cap))) {
        lb_plan_free(p);
        free(map);
        return rt_fail(&b->h, DTSS_ENOMEM, "out of memory");
    }
    r->done = r->queued + P;
    r->moves = (char *)(r->done + P);
    memcpy(r->queued, b->q_now, P * sizeof *r->queued);
    memcpy(r->done, b->d_now, P * sizeof *r->done);
    r->moves[0] = '\0';
    int rc = DTSS_OK;
    for (int m = 0; m < p->nmoves && rc == DTSS_OK; m++) {
        const lb_move *mv = &p->move[m];
        int from = map[mv->from], to = map[mv->to];
        used += (size_t)snprintf(r->moves + used, cap - used, "%s%d>%d:%ld", m ? ";" : "",
                                 from + 1, to + 1, mv->count);
        r->moved += mv->count;
        if (wire_send_move(b->m.crew.tids[from], b->round, to, mv->count, msg, sizeof msg) < 0)
            rc = rt_fail(&b->h, DTSS_EPVM, "%s", msg);
    }
    free(map);
    b->m.moved += r->moved;
    rt_log(&b->h, 1, "t=%.3f round %d (period %.3f s): max E %.3f -> %.3f s, %ld task%s move%s%s",
        r->planned, r->round, elapsed, p->max_before, p->max_after, r->moved, r->moved == 1 ? "" : "s",
        r->moved ? ": " : "", r->moves);
    lb_plan_free(p);
    b->in_round = 0;
    b->last_asked = b->round_asked;
    b->next_round = now(b) + b->period;
    return rc;
}

/* ---- the run ----------------------------------------------------------------------- */

static int worker_of(const dtss_lb *b, int tid)
{
    for (int i = 0; i < b->m.crew.P; i++)
        if (b->m.crew.tids[i] == tid)
            return i;
    return -1;
}

/* ---- faults ------------------------------------------------------------------------ */

/* Task k is held by worker i from now on (as the master knows). */
static void hold(dtss_lb *b, int k, int i)
{
    lbtask *t = &b->task[k];
    if (!t->done && t->at >= 0)
        b->held[t->at]--;
    t->at = i;
    if (!t->done && b->held[i]++ == 0)
        b->since[i] = now(b);           /* it owes work from now on */
}

/* Deals the n tasks of ks[] again, in even shares to the live workers, as
 * TASKS from the master (each task's data is the master's). */
static int redeal(dtss_lb *b, const int *ks, int n)
{
    char msg[256];
    wire_task *w = calloc(n ? (size_t)n : 1, sizeof *w);
    if (!w)
        return rt_fail(&b->h, DTSS_ENOMEM, "out of memory");
    int rc = DTSS_OK, share = 0;
    for (int i = 0, lo = 0; i < b->m.crew.P && rc == DTSS_OK; i++) {
        if (b->gone[i])
            continue;
        int hi = (int)((long)(share + 1) * n / b->live), c = 0;
        share++;
        for (int j = lo; j < hi; j++) {
            lbtask *t = &b->task[ks[j]];
            w[c++] = (wire_task){.task = ks[j], .iteration = 1, .data = t->data, .len = t->len};
            t->copies++;
            hold(b, ks[j], i);
        }
        if (c > 0 && wire_send_tasks(b->m.crew.tids[i], w, c, msg, sizeof msg) < 0)
            rc = rt_fail(&b->h, DTSS_EPVM, "%s", msg);
        lo = hi;
    }
    free(w);
    return rc;
}

static int round_complete(dtss_lb *b);

/* Worker i is out of the run: exited, its host lost, or taken for hung
 * (why). Its tasks not done are dealt again to the others; a result it
 * sends later counts if it is the first (a hung worker resumed). */
static int lose(dtss_lb *b, int i, const char *why)
{
    if (b->gone[i])
        return DTSS_OK;
    b->gone[i] = 1;
    b->live--;
    /* Ended, not left alone: a worker sending it tasks would wait for it
     * (seen: both others blocked in a migration's send to a stopped one). */
    tr_kill(b->m.crew.tids[i]);
    int n = 0, *ks = malloc(sizeof *ks * (size_t)(b->held[i] > 0 ? b->held[i] : 1));
    if (!ks)
        return rt_fail(&b->h, DTSS_ENOMEM, "out of memory");
    for (int k = 0; k < b->ntasks && n < b->held[i]; k++)
        if (!b->task[k].done && b->task[k].at == i)
            ks[n++] = k;
    b->lost[b->nlost++] = (lblost){.worker = i, .at = now(b), .why = why, .redealt = n};
    b->redealt += n;
    rt_log(&b->h, 0, "t=%.3f worker %d on %s %s: its %d task%s not done dealt again to the "
           "%d other%s", now(b), i + 1, quote(b->m.crew.host[i]), why, n, n == 1 ? "" : "s", b->live,
           b->live == 1 ? "" : "s");
    if (b->live == 0) {
        free(ks);
        return rt_fail(&b->h, DTSS_ELOST, "every worker was lost (the last: worker %d on %s %s; "
                       "%ld of %d tasks in)", i + 1, quote(b->m.crew.host[i]), why, b->ndone,
                       b->ntasks);
    }
    int rc = redeal(b, ks, n);
    free(ks);
    return rc != DTSS_OK ? rc : round_complete(b);
}

/* The worker most overdue past the late rule's limit (a task at its rate,
 * sched/late/late.h) among those that owe work, if any, is taken for hung;
 * one at a time, and the others' silence counts from then on: a worker
 * sending it migrated tasks was held in its send (seen: the two others of
 * three, blocked sending to a stopped one, all three taken at once). */
static int check_late(dtss_lb *b)
{
    double t = now(b), worst = 1;
    int late = -1;
    for (int i = 0; i < b->m.crew.P; i++) {
        if (b->gone[i] || b->held[i] <= 0)
            continue;
        double over = late_over(&b->m.o.late, &b->rate[i], &b->run_rate, 1, b->since[i], t);
        if (over > worst) {
            worst = over;
            late = i;
        }
    }
    if (late < 0)
        return DTSS_OK;
    int rc = lose(b, late, "silent past the late limit (hung?)");
    for (int i = 0; i < b->m.crew.P; i++)
        b->since[i] = t;
    return rc;
}

/* The round's plan, once every live worker answered. */
static int round_complete(dtss_lb *b)
{
    if (!b->in_round)
        return DTSS_OK;
    for (int i = 0; i < b->m.crew.P; i++)
        if (!b->gone[i] && !b->answered[i])
            return DTSS_OK;
    return plan(b);
}

/* MOVED: which tasks worker i sent to worker 'to'. */
static int take_moved(dtss_lb *b, int i, const tr_event *e)
{
    char msg[256];
    int idx, round, to, n, *ks;
    if (wire_unpack_moved(e, &idx, &round, &to, &ks, &n, msg, sizeof msg) < 0)
        return rt_fail(&b->h, DTSS_EPVM, "worker %d: %s", i + 1, msg);
    int rc = DTSS_OK, m = 0;
    if (idx != i || to >= b->m.crew.P) {
        free(ks);
        return rt_fail(&b->h, DTSS_EPVM, "worker %d: a MOVED naming worker %d to %d", i + 1,
                       idx + 1, to + 1);
    }
    for (int j = 0; j < n; j++)             /* ks[m..]: those the receiver took */
        if (ks[j] < b->ntasks && !b->task[ks[j]].done && b->task[ks[j]].at == i) {
            hold(b, ks[j], to);
            ks[m++] = ks[j];
        }
    if (b->gone[to] && m > 0) {              /* sent to a worker lost meanwhile */
        for (int j = 0; j < m; j++)
            b->task[ks[j]].at = -1, b->held[to]--;
        rc = redeal(b, ks, m);
    }
    free(ks);
    return rc;
}

static int next(dtss_lb *b, dtss_task_result *out)
{
    char msg[512];
    free(b->res);
    b->res = NULL;
    if (!b->h.live || b->h.failed)
        return b->h.failed ? DTSS_EMISUSE : rt_fail(&b->h, DTSS_EMISUSE, "dtss_lb_next: not started");
    if (b->m.finished)
        return DTSS_DONE;
    while (b->jnext < b->ntasks && b->journaled > 0) {  /* the journal's results first */
        lbtask *t = &b->task[b->jnext++];
        if (t->journaled) {
            *out = (dtss_task_result){.task = b->jnext - 1, .iteration = 1, .data = t->jres,
                                      .len = t->jlen, .seconds = 0, .worker = -1};
            return DTSS_PIECE;
        }
    }
    for (;;) {
        if (b->ndone == b->ntasks) {
            for (int i = 0; i < b->m.crew.P; i++)   /* a hung one is not waited for */
                if (b->gone[i])
                    tr_kill(b->m.crew.tids[i]);
                else
                    wire_send_stop(b->m.crew.tids[i], msg, sizeof msg);
            if (b->jw.f) {                          /* (fsync'd: after the workers' stop) */
                jnl_close(&b->jw);
                rt_log(&b->h, 1, "journal %s: %ld result%s appended, closed",
                       quote(b->m.o.journal), b->jwritten, b->jwritten == 1 ? "" : "s");
            }
            b->m.finished = 1;
            rt_log(&b->h, 1, "t=%.3f every task is in; workers stopped", now(b));
            return DTSS_DONE;
        }
        if (b->asks && !b->in_round && now(b) >= b->next_round) {
            int rc = ask(b);
            if (rc != DTSS_OK)
                return rc;
        }
        double wait = b->in_round || !b->asks ? 1.0 : b->next_round - now(b);
        wait = late_watch_wait(&b->lw, wait > 0 ? wait : 0, now(b));
        tr_event e;
        int rc;
        if (tr_recv(TR_ANY, TR_ANY, wait, &e, msg, sizeof msg) < 0)
            return rt_fail(&b->h, DTSS_EPVM, "%s", msg);
        int i = e.kind == TR_MESSAGE ? worker_of(b, e.from) : -1;
        if (i >= 0 && !b->gone[i])
            b->since[i] = now(b);       /* heard from: before the late check */
        /* late work looked for once the queue is read (late_watch) */
        if (late_watch_look(&b->lw, e.kind == TR_TIMEOUT, now(b)) &&
            (rc = check_late(b)) != DTSS_OK)
            return rc;
        if (e.kind == TR_TIMEOUT)
            continue;
        if (e.kind == TR_HOST_LOST) {
            for (i = 0; i < b->m.crew.P; i++)
                if (!b->gone[i] && tr_host_of(b->m.crew.tids[i]) == e.host &&
                    (rc = lose(b, i, "lost with its host")) != DTSS_OK)
                    return rc;
            continue;
        }
        if (e.kind == TR_PEER_EXIT) {
            if ((i = worker_of(b, e.from)) >= 0 && (rc = lose(b, i, "exited")) != DTSS_OK)
                return rc;
            continue;
        }
        if (i < 0)
            continue;
        if (e.tag == WIRE_MOVED) {
            if ((rc = take_moved(b, i, &e)) != DTSS_OK)
                return rc;
        } else if (e.tag == WIRE_COUNTS) {
            int idx, round;
            long q, d;
            if (wire_unpack_counts(&e, &idx, &round, &q, &d, msg, sizeof msg) < 0)
                return rt_fail(&b->h, DTSS_EPVM, "worker %d: %s", i + 1, msg);
            if (!b->in_round || round != b->round || idx != i || b->gone[i] || b->answered[i])
                continue;
            b->q_now[i] = q;
            b->d_now[i] = d;
            b->answered[i] = 1;
            b->answers++;
            if ((rc = round_complete(b)) != DTSS_OK)
                return rc;
        } else if (e.tag == WIRE_TASKDONE) {
            int idx;
            wire_task t;
            double got = now(b);
            if (wire_unpack_taskdone(&e, &idx, &t, msg, sizeof msg) < 0)
                return rt_fail(&b->h, DTSS_EPVM, "worker %d: %s", i + 1, msg);
            if (t.task < b->ntasks && b->task[t.task].done && b->task[t.task].copies > 1) {
                rt_log(&b->h, 1, "t=%.3f worker %d: task %d's result came second (refused)",
                       got, i + 1, t.task);
                free(t.data);
                continue;
            }
            if (t.task >= b->ntasks || b->task[t.task].done) {
                free(t.data);
                return rt_fail(&b->h, DTSS_EPVM, "worker %d sent a result for task %d %s", i + 1,
                              t.task, t.task >= b->ntasks ? "(no such task)" : "twice");
            }
            lbtask *k = &b->task[t.task];
            if (k->at >= 0)
                b->held[k->at]--;
            if (!b->gone[i])
                late_add(&b->rate[i], &b->run_rate, 1, t.t_end - t.t_start);
            k->done = 1;
            k->ran = i;
            k->received = t.t_recv - b->wall0;
            k->started = t.t_start - b->wall0;
            k->finished = t.t_end - b->wall0;
            k->got = got;
            b->finish[i] = got;
            b->ran[i]++;
            b->ndone++;
            if (b->jw.f) {                  /* before the application sees it */
                const char *why = lbj_put_result(&b->jw, t.task, t.data, t.len);
                if (why)
                    journal_failed(b, why);
                else
                    b->jwritten++;
            }
            b->res = t.data;
            *out = (dtss_task_result){.task = t.task, .iteration = 1, .data = t.data,
                                      .len = t.len, .seconds = t.t_end - t.t_start,
                                      .worker = i + 1};
            return DTSS_PIECE;
        }
    }
}

int dtss_lb_next(dtss_lb *b, dtss_task_result *out)
{
    int rc = next(b, out), said = b->h.failed;
    if (rc != DTSS_PIECE && rc != DTSS_DONE && b->jw.f && said) {
        jnl_close(&b->jw);              /* how to go on, once */
        rt_log(&b->h, 0, "journal %s keeps %ld of %d results: --resume %s continues the run",
               quote(b->m.o.journal), b->journaled + b->jwritten, b->ntasks,
               quote(b->m.o.journal));
    }
    return rc;
}

/* ---- after the run ------------------------------------------------------------------ */

int dtss_lb_stats_get(const dtss_lb *b, dtss_lb_stats *s)
{
    memset(s, 0, sizeof *s);
    if (!b->m.finished)
        return DTSS_EMISUSE;
    s->workers = b->m.crew.P;
    s->tasks = b->ntasks;
    for (int i = 0; i < b->m.crew.P; i++)
        s->time = fmax(s->time, b->finish[i]);
    double first = INFINITY, last = 0;      /* the workers that stayed */
    for (int i = 0; i < b->m.crew.P; i++)
        if (!b->gone[i]) {
            first = fmin(first, b->finish[i]);
            last = fmax(last, b->finish[i]);
        }
    s->imbalance = last - first;
    s->lost = b->nlost;
    s->redealt = b->redealt;
    s->balancings = b->nrounds;
    s->moved = b->m.moved;
    s->journaled = b->journaled;
    return DTSS_OK;
}

static void summary_line(const dtss_lb *b, const dtss_lb_stats *s, FILE *f)
{
    fprintf(f, "%s: %d workers, %d tasks, time %.3f s, imbalance %.3f s, %d balancings, "
            "%ld tasks moved", b->m.o.type->name, s->workers, s->tasks, s->time, s->imbalance,
            s->balancings, s->moved);
    if (s->lost)
        fprintf(f, "; %d worker%s lost, %ld tasks dealt again", s->lost, s->lost == 1 ? "" : "s",
                s->redealt);
    if (b->m.o.resume)
        fprintf(f, "; %ld result%s from the journal", s->journaled, s->journaled == 1 ? "" : "s");
}

RT_SUMMARY(dtss_lb, summary_line)

/* The run record: '#' header lines, then run, worker, round and task lines
 * (docs/runtime.md "Migration"). */
static void print_record(const void *ctx, FILE *f)
{
    const dtss_lb *b = ctx;
    dtss_lb_stats s;
    dtss_lb_stats_get(b, &s);
    fprintf(f, "#run,strategy,workers,tasks,period,ct,time,imbalance,balancings,moved,journaled\n"
               "#worker,worker,host,tasks_dealt,tasks_ran,finish\n"
               "#round,round,asked,planned,elapsed,queued,done,max_e_before,max_e_after,"
               "moved,moves\n"
               "#task,task,home,ran,received,started,finished,seconds\n"
               "#lost,worker,at,why,redealt\n");
    fprintf(f, "run,%s,%d,%d,%.6f,%.6f,%.6f,%.6f,%d,%ld,%ld\n", b->m.o.type->name, s.workers,
            s.tasks, b->period, b->m.o.ct, s.time, s.imbalance, s.balancings, s.moved,
            s.journaled);
    for (int i = 0; i < b->m.crew.P; i++)
        fprintf(f, "worker,%d,%s,%ld,%ld,%.6f\n", i + 1, b->m.crew.host[i], b->dealt[i],
                b->ran[i], b->finish[i]);
    for (int r = 0; r < b->nrounds; r++) {
        const lbround *x = &b->rounds[r];
        fprintf(f, "round,%d,%.6f,%.6f,%.6f,", x->round, x->asked, x->planned, x->elapsed);
        for (int i = 0; i < b->m.crew.P; i++)
            fprintf(f, "%s%ld", i ? ";" : "", x->queued[i]);
        fputc(',', f);
        for (int i = 0; i < b->m.crew.P; i++)
            fprintf(f, "%s%ld", i ? ";" : "", x->done[i]);
        fprintf(f, ",%.6f,%.6f,%ld,%s\n", x->max_before, x->max_after, x->moved, x->moves);
    }
    for (int k = 0; k < b->ntasks; k++) {
        const lbtask *t = &b->task[k];
        fprintf(f, "task,%d,%d,%d,%.6f,%.6f,%.6f,%.6f\n", k, t->home + 1, t->ran + 1,
                t->received, t->started, t->finished, t->finished - t->started);
    }
    for (int l = 0; l < b->nlost; l++)
        fprintf(f, "lost,%d,%.6f,%s,%ld\n", b->lost[l].worker + 1, b->lost[l].at,
                b->lost[l].why, b->lost[l].redealt);
}

int dtss_lb_write_record(dtss_lb *b, const char *path)
{
    return rt_write_record(&b->h, b->m.finished, path, print_record, b);
}

void dtss_lb_free(dtss_lb *b)
{
    if (!b)
        return;
    jnl_close(&b->jw);
    lb_master_free(&b->h, &b->m);
    for (int k = 0; k < b->ntasks; k++) {
        free(b->task[k].data);
        free(b->task[k].jres);
    }
    for (int r = 0; r < b->nrounds; r++)
        free(b->rounds[r].queued);      /* with done and moves */
    free(b->task);
    free(b->rounds);
    free(b->finish);
    free(b->ran);
    free(b->dealt);
    free(b->q_now);
    free(b->d_now);
    free(b->gone);
    free(b->held);
    free(b->since);
    free(b->rate);
    free(b->answered);
    free(b->lost);
    free(b->res);
    free(b);
}
