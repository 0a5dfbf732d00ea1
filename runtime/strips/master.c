/* strips_master.c: the master of a row-strip computation (dtss.h,
 * dtss_strips_*; the workers are strips_worker.c), re-cut by the load
 * balancing of Yoon et al. Sec. 3.2 (sched/lb/lb.h) as their heat-conduction
 * model (Fig. 10).
 *
 * R rows of B bytes: worker i holds a contiguous strip (the first cut as
 * even as can be, sched/strips/strips.h strips_even), every step computes its
 * rows from them and its neighbours' edge rows (exchanged by the workers
 * themselves), and every K steps (--every) stops at a barrier: it tells the
 * master its rows and the seconds it computed since the last barrier
 * (STATE), and waits for the new cut (PLAN). The rows then move between
 * neighbours (sched/strips/strips.h strips_transfers: every worker computes the
 * same list and carries out its part).
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
 * (strips_from_plan: contiguous strips, a node never empty). A strategy
 * that exchanges nothing (none) gets no barrier at all.
 *
 * The start. The rows are dealt worker after worker; each worker, once it
 * holds its rows, tells the master (STATE of step 0) and waits for PLAN of
 * step 0, which the master sends every worker once every STATE is in: no
 * step begins before every worker holds its rows.
 *
 * Times: the run's time is from the last worker holding its rows (the
 * start) to the last worker ending its last step (worker clocks, STATE),
 * without the rows' dealing and their gathering. (Without the barrier the
 * dealing was inside it: a worker's first step waits for its neighbours'
 * rows, and dealing 128 MiB to Table 1's quarter-core hosts took 3 s.)
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
#include "sched/strips/strips.h"
#include "sched/util/quote.h"

typedef struct sround {
    long step;
    double *busy;               /* P each, one block with rows and target */
    int *rows, *target;
    double max_before, max_after;
    long moved;                 /* rows crossing boundaries */
} sround;

struct dtss_strips {
    rt_handle h;                /* first: errors, log, the job (started: h.live) */
    lb_master m;                /* options, workers, moved (core/lbopts.h) */
    int every;
    /* the run */
    int *counts;
    long rows, steps;
    size_t row_bytes;
    double *t_begin, *t_end, *busy_all;
    int *first_rows, *final_in, *ended;
    sround *round;
    int nrounds, rcap;
};

/* The kind the base verbs of dtss.h dispatch on (core/handle.h). */
static int strips_opt(const char *name);
RT_MASTER_BASE(strips_kind, dtss_strips, strips_opt)

dtss_strips *dtss_strips_new(void)
{
    dtss_strips *s = rt_new(sizeof *s, &strips_kind);
    if (!s)
        return NULL;
    lb_master_init(&s->m);
    s->every = 50;
    return s;
}

void dtss_strips_usage(FILE *f)
{
    lb_opts_usage(f, "row-strip options (the master)", "how the strips are re-cut (none: "
                  "never)", "row", "--every K          steps between re-cuts, 1 .. 10^9 "
                  "(default 50)");
}

int dtss_strips_set(dtss_strips *s, const char *name, const char *value)
{
    if (strcmp(name, "every") != 0 || !value || s->h.live)
        return lb_opts_take(&s->h, &s->m.o, "dtss_strips_set", "after the run began", name,
                            value);
    if (parse_int_in(value, 1, 1000000000, &s->every) != 0)
        return rt_fail(&s->h, DTSS_EINVAL, "--every '%s' must be a whole number of steps in "
                       "[1, 10^9]", quote(value));
    return DTSS_OK;
}

static int strips_opt(const char *name)
{
    return strcmp(name, "every") == 0 || lb_opts_known(name) ? 1 : -1;
}

/* ---- the run ----------------------------------------------------------------------- */

static int worker_of(const dtss_strips *s, int tid)
{
    for (int i = 0; i < s->m.crew.P; i++)
        if (s->m.crew.tids[i] == tid)
            return i;
    return -1;
}

/* Spawns the workers, cuts the rows, sends each its job and first rows. */
static int begin(dtss_strips *s, const void *field)
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
    s->counts = calloc(z, sizeof *s->counts);
    s->t_begin = calloc(z, sizeof *s->t_begin);
    s->t_end = calloc(z, sizeof *s->t_end);
    s->busy_all = calloc(z, sizeof *s->busy_all);
    s->first_rows = calloc(z, sizeof *s->first_rows);
    s->final_in = calloc(z, sizeof *s->final_in);
    s->ended = calloc(z, sizeof *s->ended);
    if (!s->counts || !s->t_begin || !s->t_end || !s->busy_all || !s->first_rows ||
        !s->final_in || !s->ended)
        return rt_fail(&s->h, DTSS_ENOMEM, "out of memory for %d workers", n);
    if (strips_even((int)s->rows, n, s->counts, &err) != SCHED_OK)
        return rt_fail(&s->h, DTSS_EINVAL, "%s", err.msg);
    /* A strategy that exchanges nothing is never asked: no barrier. */
    int asks = lb_asks(s->m.o.type, n);
    if (asks < 0)
        return rt_fail(&s->h, DTSS_ENOMEM, "out of memory");
    wire_stripjob j = {.nworkers = n, .every = asks ? s->every : 0, .steps = s->steps,
                       .row_bytes = (long)s->row_bytes, .tids = s->m.crew.tids,
                       .counts = s->counts, .job = s->h.job, .job_len = s->h.job_len};
    long first = 0;
    for (int i = 0; i < n; i++) {
        j.index = i;
        s->first_rows[i] = s->counts[i];
        if (wire_send_stripjob(s->m.crew.tids[i], &j, msg, sizeof msg) < 0 ||
            wire_send_rows(s->m.crew.tids[i], (int)first, s->counts[i],
                           (const unsigned char *)field + (size_t)first * s->row_bytes,
                           (size_t)s->counts[i] * s->row_bytes, msg, sizeof msg) < 0)
            return rt_fail(&s->h, DTSS_EPVM, "%s", msg);
        first += s->counts[i];
    }
    rt_log(&s->h, 1, "%d workers, %ld rows of %zu bytes, %ld steps, %s every %d steps (C_t %g s)", n,
        s->rows, s->row_bytes, s->steps, s->m.o.type->name, j.every, s->m.o.ct);
    return DTSS_OK;
}

/* Every worker's STATE of the barrier after 'step' steps is in: re-cut. */
static int recut(dtss_strips *s, long step, const int *rows, const double *busy)
{
    sched_err err;
    char msg[256];
    size_t z = (size_t)s->m.crew.P;
    long *rem = malloc(z * sizeof *rem);
    double *tt = malloc(z * sizeof *tt);
    int *target = malloc(z * sizeof *target);
    if (!rem || !tt || !target) {
        free(rem), free(tt), free(target);
        return rt_fail(&s->h, DTSS_ENOMEM, "out of memory");
    }
    for (int i = 0; i < s->m.crew.P; i++) {
        rem[i] = rows[i];
        tt[i] = busy[i] > 0 && rows[i] > 0
                    ? (double)(s->steps - step) * busy[i] / ((double)rows[i] * s->every)
                    : NAN;
    }
    lb_input in = {.nodes = s->m.crew.P, .remaining = rem, .cost = s->m.o.ct, .t_task = tt,
                   .elapsed = 1};
    lb_plan *p = lb_plan_make(s->m.o.type, &in, &err);
    int rc = DTSS_OK;
    if (!p || strips_from_plan(p, s->m.crew.P, rows, target, &err) != SCHED_OK)
        rc = rt_fail(&s->h, err.code == SCHED_ENOMEM ? DTSS_ENOMEM : DTSS_EINVAL,
                   "after step %ld: %s", step, err.msg);
    long moved = 0, a = 0, b = 0;
    for (int i = 0; rc == DTSS_OK && i + 1 < s->m.crew.P; i++) {
        a += rows[i];
        b += target[i];
        moved += labs(a - b);
    }
    for (int i = 0; rc == DTSS_OK && i < s->m.crew.P; i++)
        if (wire_send_plan(s->m.crew.tids[i], step, target, s->m.crew.P, msg, sizeof msg) < 0)
            rc = rt_fail(&s->h, DTSS_EPVM, "%s", msg);
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
        memcpy(r->busy, busy, z * sizeof *r->busy);
        memcpy(r->rows, rows, z * sizeof *r->rows);
        memcpy(r->target, target, z * sizeof *r->target);
        r->step = step;
        r->max_before = p->max_before;
        r->max_after = p->max_after;
        r->moved = moved;
        s->m.moved += moved;
        rt_log(&s->h, 1, "after step %ld: predicted rest %.3f -> %.3f s, %ld rows cross boundaries",
            step, p->max_before, p->max_after, moved);
    }
    lb_plan_free(p);
    free(rem);
    free(tt);
    free(target);
    return rc;
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
    int rc = begin(s, field);
    if (rc != DTSS_OK)
        return rc;
    size_t z = (size_t)s->m.crew.P;
    int *brows = malloc(z * sizeof *brows), got = 0, finals = 0, ends = 0, begun = 0;
    double *bbusy = malloc(z * sizeof *bbusy);
    long bstep = -1;
    if (!brows || !bbusy) {
        free(brows), free(bbusy);
        return rt_fail(&s->h, DTSS_ENOMEM, "out of memory");
    }
    while (rc == DTSS_OK && (finals < s->m.crew.P || ends < s->m.crew.P)) {
        tr_event e;
        int i;
        if (tr_recv(TR_ANY, TR_ANY, -1, &e, msg, sizeof msg) < 0) {
            rc = rt_fail(&s->h, DTSS_EPVM, "%s", msg);
            break;
        }
        if (e.kind == TR_PEER_EXIT) {
            if ((i = worker_of(s, e.from)) >= 0 && !(s->final_in[i] && s->ended[i]))
                rc = rt_fail(&s->h, DTSS_ELOST, "worker %d on %s exited before its last rows were in",
                           i + 1, s->m.crew.host[i]);
            continue;
        }
        if (e.kind != TR_MESSAGE || (i = worker_of(s, e.from)) < 0)
            continue;
        if (e.tag == WIRE_STATE) {
            int idx, n;
            long step;
            double busy, t;
            if (wire_unpack_state(&e, &idx, &step, &n, &busy, &t, msg, sizeof msg) < 0) {
                rc = rt_fail(&s->h, DTSS_EPVM, "worker %d: %s", i + 1, msg);
                break;
            }
            if (step == 0 && s->t_begin[i] == 0) {
                s->t_begin[i] = t;
                /* Every worker holds its rows: the start (PLAN of step 0). */
                if (++begun == s->m.crew.P)
                    for (int k = 0; k < s->m.crew.P && rc == DTSS_OK; k++)
                        if (wire_send_plan(s->m.crew.tids[k], 0, s->counts, s->m.crew.P, msg,
                                           sizeof msg) < 0)
                            rc = rt_fail(&s->h, DTSS_EPVM, "%s", msg);
                continue;
            }
            s->busy_all[i] += busy;
            if (step == s->steps) {
                s->t_end[i] = t;
                s->ended[i] = 1;
                ends++;
                continue;
            }
            if (bstep != step)
                bstep = step, got = 0;
            brows[i] = n;
            bbusy[i] = busy;
            if (++got == s->m.crew.P)
                rc = recut(s, step, brows, bbusy);
        } else if (e.tag == WIRE_ROWS) {
            int first, count;
            void *data;
            size_t nb;
            if (wire_unpack_rows(&e, &first, &count, &data, &nb, msg, sizeof msg) < 0) {
                rc = rt_fail(&s->h, DTSS_EPVM, "worker %d: %s", i + 1, msg);
                break;
            }
            if ((long)first + count > s->rows || nb != (size_t)count * s->row_bytes ||
                s->final_in[i]) {
                free(data);
                rc = rt_fail(&s->h, DTSS_EPVM, "worker %d sent rows %d..%d in %zu bytes%s", i + 1,
                           first, first + count - 1, nb, s->final_in[i] ? " twice" : "");
                break;
            }
            memcpy((unsigned char *)field + (size_t)first * s->row_bytes, data, nb);
            free(data);
            s->counts[i] = count;
            s->final_in[i] = 1;
            finals++;
        }
    }
    free(brows);
    free(bbusy);
    for (int i = 0; rc == DTSS_OK && i < s->m.crew.P; i++)
        if (wire_send_stop(s->m.crew.tids[i], msg, sizeof msg) < 0)
            rc = rt_fail(&s->h, DTSS_EPVM, "%s", msg);
    if (rc != DTSS_OK) {
        for (int i = 0; i < s->m.crew.P; i++)
            tr_kill(s->m.crew.tids[i]);
        return rc;
    }
    long total = 0;
    for (int i = 0; i < s->m.crew.P; i++)
        total += s->counts[i];
    if (total != s->rows)
        return rt_fail(&s->h, DTSS_EPVM, "the workers sent back %ld rows of %ld", total, s->rows);
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
        b = fmax(b, s->t_begin[i]);
        e = fmax(e, s->t_end[i]);
        emin = fmin(emin, s->t_end[i]);
    }
    st->workers = s->m.crew.P;
    st->time = e - b;
    st->imbalance = e - emin;
    st->recuts = s->nrounds;
    st->moved = s->m.moved;
    return DTSS_OK;
}

void dtss_strips_summary(const dtss_strips *s, FILE *f)
{
    dtss_strips_stats st;
    if (dtss_strips_stats_get(s, &st) != DTSS_OK)
        return;
    fprintf(f, "%s: %d workers, %ld rows, %ld steps, time %.3f s, %d re-cuts, %ld rows "
            "moved; rows at the end:", s->m.o.type->name, st.workers, s->rows, s->steps, st.time,
            st.recuts, st.moved);
    for (int i = 0; i < s->m.crew.P; i++)
        fprintf(f, " %d", s->counts[i]);
    fputc('\n', f);
}

static void list_int(FILE *f, const int *v, int n)
{
    for (int i = 0; i < n; i++)
        fprintf(f, "%s%d", i ? ";" : "", v[i]);
}

/* The run record: '#' header lines, then run, worker and recut lines. */
static void print_record(const void *ctx, FILE *f)
{
    const dtss_strips *s = ctx;
    dtss_strips_stats st;
    dtss_strips_stats_get(s, &st);
    fprintf(f, "#run,strategy,workers,rows,row_bytes,steps,every,ct,time,recuts,moved\n"
               "#worker,worker,host,rows_first,rows_last,busy,begin,end\n"
               "#recut,step,rows,busy,target,max_e_before,max_e_after,moved\n");
    fprintf(f, "run,%s,%d,%ld,%zu,%ld,%d,%.6f,%.6f,%d,%ld\n", s->m.o.type->name, s->m.crew.P, s->rows,
            s->row_bytes, s->steps, s->every, s->m.o.ct, st.time, st.recuts, st.moved);
    double b0 = INFINITY;
    for (int i = 0; i < s->m.crew.P; i++)
        b0 = fmin(b0, s->t_begin[i]);
    for (int i = 0; i < s->m.crew.P; i++)
        fprintf(f, "worker,%d,%s,%d,%d,%.6f,%.6f,%.6f\n", i + 1, s->m.crew.host[i], s->first_rows[i],
                s->counts[i], s->busy_all[i], s->t_begin[i] - b0, s->t_end[i] - b0);
    for (int r = 0; r < s->nrounds; r++) {
        const sround *x = &s->round[r];
        fprintf(f, "recut,%ld,", x->step);
        list_int(f, x->rows, s->m.crew.P);
        fputc(',', f);
        for (int i = 0; i < s->m.crew.P; i++)
            fprintf(f, "%s%.6f", i ? ";" : "", x->busy[i]);
        fputc(',', f);
        list_int(f, x->target, s->m.crew.P);
        fprintf(f, ",%.6f,%.6f,%ld\n", x->max_before, x->max_after, x->moved);
    }
}

int dtss_strips_write_record(dtss_strips *s, const char *path)
{
    if (!s->m.finished)
        return rt_fail(&s->h, DTSS_EMISUSE, "dtss_strips_write_record: the run is not over");
    return rt_write_file(&s->h, path, print_record, s);
}

void dtss_strips_free(dtss_strips *s)
{
    if (!s)
        return;
    lb_master_free(&s->h, &s->m);
    for (int r = 0; r < s->nrounds; r++)
        free(s->round[r].busy);         /* with rows and target */
    free(s->round);
    free(s->counts);
    free(s->t_begin);
    free(s->t_end);
    free(s->busy_all);
    free(s->first_rows);
    free(s->final_in);
    free(s->ended);
    free(s);
}
