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
 * stopped. A worker that exits takes its queue with it: the run fails
 * (DTSS_ELOST, naming it) -- no re-run here, unlike the pool.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


#include "runtime/core/args.h"
#include "runtime/dtss.h"
#include "runtime/core/handle.h"
#include "runtime/core/join.h"
#include "runtime/core/lbopts.h"
#include "runtime/core/wire.h"
#include "sched/lb/lb.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

#define LB_MAX_TASKS_RT 10000000

typedef struct lbtask {
    unsigned char *data;
    size_t len;
    int home, ran;              /* the worker it was dealt to, ran on */
    double received, started, finished, got; /* run times (got: its result) */
    int done;
} lbtask;

typedef struct lbround {
    int round;
    double asked, planned, elapsed;
    long *queued, *done;        /* P each; one block with moves */
    double max_before, max_after;
    long moved;
    char *moves;                /* "from>to:count;..." (workers from 1) */
} lbround;

struct dtss_lb {
    rt_handle h;                /* first: errors, log, the job (started: h.live) */
    lb_master m;                /* options, workers, moved (core/lbopts.h) */
    double period;
    /* the tasks */
    lbtask *task;
    int ntasks, cap;
    /* the run */
    double t0, wall0;
    double *finish;             /* each worker's last result */
    long *ran;                  /* tasks each ran */
    long ndone;
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
    dtss_lb *b = rt_new(sizeof *b, &lb_kind);
    if (!b)
        return NULL;
    lb_master_init(&b->m);
    b->period = 1.0;
    return b;
}

void dtss_lb_usage(FILE *f)
{
    lb_opts_usage(f, "load-balancing options (the master)", "which tasks move", "task",
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

/* The job and worker i's equal share, tasks [i N / P, (i + 1) N / P). */
static int deal(dtss_lb *b)
{
    char msg[256];
    for (int i = 0; i < b->m.crew.P; i++) {
        long lo = (long)i * b->ntasks / b->m.crew.P, hi = (long)(i + 1) * b->ntasks / b->m.crew.P;
        int n = (int)(hi - lo);
        wire_task *w = calloc(n ? (size_t)n : 1, sizeof *w);
        if (!w)
            return rt_fail(&b->h, DTSS_ENOMEM, "out of memory");
        for (int k = 0; k < n; k++) {
            lbtask *t = &b->task[lo + k];
            t->home = i;
            w[k] = (wire_task){.task = (int)(lo + k), .iteration = 1, .data = t->data,
                               .len = t->len};
        }
        int rc = wire_send_lbjob(b->m.crew.tids[i], i, b->m.crew.P, b->m.crew.tids, b->h.job, b->h.job_len, msg,
                                 sizeof msg);
        if (rc >= 0)
            rc = wire_send_tasks(b->m.crew.tids[i], w, n, msg, sizeof msg);
        free(w);
        if (rc < 0)
            return rt_fail(&b->h, DTSS_EPVM, "%s", msg);
    }
    return DTSS_OK;
}

int dtss_lb_start(dtss_lb *b)
{
    if (b->h.live)
        return rt_fail(&b->h, DTSS_EMISUSE, "dtss_lb_start: called twice");
    if (b->ntasks < 1)
        return rt_fail(&b->h, DTSS_EINVAL, "dtss_lb_start: no task (dtss_lb_task first)");
    b->h.live = 1;
    b->wall0 = wire_now();
    b->t0 = wire_mono();
    int n, rc0 = lb_crew_start(&b->h, &b->m.o, &b->m.crew);
    if (rc0 != DTSS_OK)
        return rc0;
    n = b->m.crew.P;
    b->finish = calloc((size_t)n, sizeof *b->finish);
    b->ran = calloc((size_t)n, sizeof *b->ran);
    b->q_now = calloc((size_t)n, sizeof *b->q_now);
    b->d_now = calloc((size_t)n, sizeof *b->d_now);
    if (!b->finish || !b->ran || !b->q_now || !b->d_now)
        return rt_fail(&b->h, DTSS_ENOMEM, "out of memory for %d workers", n);
    int rc;
    rt_log(&b->h, 1, "t=%.3f %d workers spawned; dealing %d tasks, %s balancing every %g s "
        "(C_t %g s)", now(b), b->m.crew.P, b->ntasks, b->m.o.type->name, b->period, b->m.o.ct);
    if ((rc = deal(b)) != DTSS_OK)
        return rc;
    /* A strategy that exchanges nothing (none) is never asked: no round,
     * no message beyond the tasks' own (lb_type.exchange). */
    if ((b->asks = lb_asks(b->m.o.type, b->m.crew.P)) < 0)
        return rt_fail(&b->h, DTSS_ENOMEM, "out of memory");
    b->last_asked = 0;
    b->next_round = now(b) + b->period;
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
    for (int i = 0; i < b->m.crew.P; i++)
        if (wire_send_count(b->m.crew.tids[i], b->round, msg, sizeof msg) < 0)
            return rt_fail(&b->h, DTSS_EPVM, "%s", msg);
    return DTSS_OK;
}

/* Every answer is in: plan and order the migrations. */
static int plan(dtss_lb *b)
{
    sched_err err;
    char msg[256];
    double elapsed = b->round_asked - b->last_asked;
    lb_input in = {.nodes = b->m.crew.P, .remaining = b->q_now, .done = b->d_now,
                   .elapsed = elapsed > 1e-9 ? elapsed : 1e-9, .cost = b->m.o.ct};
    lb_plan *p = lb_plan_make(b->m.o.type, &in, &err);
    if (!p)
        return rt_fail(&b->h, err.code == SCHED_ENOMEM ? DTSS_ENOMEM : DTSS_EINVAL,
                      "round %d: %s", b->round, err.msg);
    if (b->nrounds == b->rcap) {
        int cap = b->rcap ? 2 * b->rcap : 16;
        lbround *r = realloc(b->rounds, sizeof *r * (size_t)cap);
        if (!r) {
            lb_plan_free(p);
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
        used += (size_t)snprintf(r->moves + used, cap - used, "%s%d>%d:%ld", m ? ";" : "",
                                 mv->from + 1, mv->to + 1, mv->count);
        r->moved += mv->count;
        if (wire_send_move(b->m.crew.tids[mv->from], b->round, mv->to, mv->count, msg,
                           sizeof msg) < 0)
            rc = rt_fail(&b->h, DTSS_EPVM, "%s", msg);
    }
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

int dtss_lb_next(dtss_lb *b, dtss_task_result *out)
{
    char msg[512];
    free(b->res);
    b->res = NULL;
    if (!b->h.live || b->h.failed)
        return b->h.failed ? DTSS_EMISUSE : rt_fail(&b->h, DTSS_EMISUSE, "dtss_lb_next: not started");
    if (b->m.finished)
        return DTSS_DONE;
    for (;;) {
        if (b->ndone == b->ntasks) {
            for (int i = 0; i < b->m.crew.P; i++)
                wire_send_stop(b->m.crew.tids[i], msg, sizeof msg);
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
        wait = wait > 0 ? wait : 0;
        tr_event e;
        if (tr_recv(TR_ANY, TR_ANY, wait, &e, msg, sizeof msg) < 0)
            return rt_fail(&b->h, DTSS_EPVM, "%s", msg);
        if (e.kind == TR_TIMEOUT || e.kind == TR_HOST_LOST)
            continue;
        if (e.kind == TR_PEER_EXIT) {
            int i = worker_of(b, e.from);
            if (i >= 0)
                return rt_fail(&b->h, DTSS_ELOST, "worker %d on %s exited with its queue "
                              "(%ld of %d tasks in)", i + 1, b->m.crew.host[i], b->ndone, b->ntasks);
            continue;
        }
        int i = worker_of(b, e.from);
        if (i < 0)
            continue;
        if (e.tag == WIRE_COUNTS) {
            int idx, round;
            long q, d;
            if (wire_unpack_counts(&e, &idx, &round, &q, &d, msg, sizeof msg) < 0)
                return rt_fail(&b->h, DTSS_EPVM, "worker %d: %s", i + 1, msg);
            if (!b->in_round || round != b->round || idx != i)
                continue;
            b->q_now[i] = q;
            b->d_now[i] = d;
            if (++b->answers == b->m.crew.P) {
                int rc = plan(b);
                if (rc != DTSS_OK)
                    return rc;
            }
        } else if (e.tag == WIRE_TASKDONE) {
            int idx;
            wire_task t;
            double got = now(b);
            if (wire_unpack_taskdone(&e, &idx, &t, msg, sizeof msg) < 0)
                return rt_fail(&b->h, DTSS_EPVM, "worker %d: %s", i + 1, msg);
            if (t.task >= b->ntasks || b->task[t.task].done) {
                free(t.data);
                return rt_fail(&b->h, DTSS_EPVM, "worker %d sent a result for task %d %s", i + 1,
                              t.task, t.task >= b->ntasks ? "(no such task)" : "twice");
            }
            lbtask *k = &b->task[t.task];
            k->done = 1;
            k->ran = i;
            k->received = t.t_recv - b->wall0;
            k->started = t.t_start - b->wall0;
            k->finished = t.t_end - b->wall0;
            k->got = got;
            b->finish[i] = got;
            b->ran[i]++;
            b->ndone++;
            b->res = t.data;
            *out = (dtss_task_result){.task = t.task, .iteration = 1, .data = t.data,
                                      .len = t.len, .seconds = t.t_end - t.t_start,
                                      .worker = i + 1};
            return DTSS_PIECE;
        }
    }
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
    double first = INFINITY;
    for (int i = 0; i < b->m.crew.P; i++)
        first = fmin(first, b->finish[i]);
    s->imbalance = s->time - first;
    s->balancings = b->nrounds;
    s->moved = b->m.moved;
    return DTSS_OK;
}

void dtss_lb_summary(const dtss_lb *b, FILE *f)
{
    dtss_lb_stats s;
    if (dtss_lb_stats_get(b, &s) != DTSS_OK)
        return;
    fprintf(f, "%s: %d workers, %d tasks, time %.3f s, imbalance %.3f s, %d balancings, "
            "%ld tasks moved\n", b->m.o.type->name, s.workers, s.tasks, s.time, s.imbalance,
            s.balancings, s.moved);
}

/* The run record: '#' header lines, then run, worker, round and task lines
 * (docs/runtime.md "Migration"). */
static void print_record(const void *ctx, FILE *f)
{
    const dtss_lb *b = ctx;
    dtss_lb_stats s;
    dtss_lb_stats_get(b, &s);
    fprintf(f, "#run,strategy,workers,tasks,period,ct,time,imbalance,balancings,moved\n"
               "#worker,worker,host,tasks_dealt,tasks_ran,finish\n"
               "#round,round,asked,planned,elapsed,queued,done,max_e_before,max_e_after,"
               "moved,moves\n"
               "#task,task,home,ran,received,started,finished,seconds\n");
    fprintf(f, "run,%s,%d,%d,%.6f,%.6f,%.6f,%.6f,%d,%ld\n", b->m.o.type->name, s.workers,
            s.tasks, b->period, b->m.o.ct, s.time, s.imbalance, s.balancings, s.moved);
    for (int i = 0; i < b->m.crew.P; i++)
        fprintf(f, "worker,%d,%s,%ld,%ld,%.6f\n", i + 1, b->m.crew.host[i],
                (long)(i + 1) * b->ntasks / b->m.crew.P - (long)i * b->ntasks / b->m.crew.P, b->ran[i],
                b->finish[i]);
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
}

int dtss_lb_write_record(dtss_lb *b, const char *path)
{
    if (!b->m.finished)
        return rt_fail(&b->h, DTSS_EMISUSE, "dtss_lb_write_record: the run is not over");
    return rt_write_file(&b->h, path, print_record, b);
}

void dtss_lb_free(dtss_lb *b)
{
    if (!b)
        return;
    lb_master_free(&b->h, &b->m);
    for (int k = 0; k < b->ntasks; k++)
        free(b->task[k].data);
    for (int r = 0; r < b->nrounds; r++)
        free(b->rounds[r].queued);      /* with done and moves */
    free(b->task);
    free(b->rounds);
    free(b->finish);
    free(b->ran);
    free(b->q_now);
    free(b->d_now);
    free(b->res);
    free(b);
}
