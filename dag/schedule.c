/* schedule.c: the schedule common to every algorithm: processors' lanes,
 * the insertion-based earliest start, data arrival, checks and metrics.
 *
 *   arrival(k -> i, p) = min over k's copies (finish + (0 on p, else c(k,i)))
 *   ready(i, p)        = max over i's parents k of arrival(k -> i, p)
 *   EST(i, p)          = earliest t >= ready(i, p) with [t, t + w(i,p)) idle
 *                        on p, between two copies or after the last
 *   EFT(i, p)          = EST(i, p) + w(i,p)
 *
 * Topcuoglu, Hariri & Wu, IEEE TPDS 13(3) 2002, eq. 3-4 and the insertion-
 * based policy of Sec. 4.1. With one copy per task (HEFT, CPOP) the arrival
 * is Topcuoglu's AFT(k) + c(k,i); with DCPOP's duplicates a child takes the
 * data from whichever copy delivers it first.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dag_impl.h"

const dag_algo *const dag_algos[] = {&dag_heft, &dag_cpop, &dag_dcpop, NULL};

/* One processor's copies (indices into s->copy), sorted by start and, since
 * they never overlap, by finish. */
typedef struct dag_lane { int *at; int n, cap; } lane;

const dag_algo *dag_algo_find(const char *name, dag_err *err)
{
    char list[100] = "";
    for (int i = 0; dag_algos[i]; i++) {
        if (name && strcasecmp(name, dag_algos[i]->name) == 0)
            return dag_algos[i];
        if (i) strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, dag_algos[i]->name, sizeof list - strlen(list) - 1);
    }
    dag_fail(err, DAG_ENOENT, "unknown algorithm '%s' (valid: %s)", quote(name), list);
    return NULL;
}

void dag_schedule_free(dag_schedule *s)
{
    if (!s)
        return;
    if (s->lanes)
        for (int p = 0; p < s->g->q; p++)
            free(s->lanes[p].at);
    free(s->lanes);
    free(s->copy);
    free(s->first);
    free(s);
}

dag_schedule *dag_schedule_new(const dag_algo *A, const dag *g, dag_err *err)
{
    if (!g->finished) {
        dag_fail(err, DAG_EINVAL, "the graph is not finished (dag_finish)");
        return NULL;
    }
    dag_schedule *s = calloc(1, sizeof *s);
    if (!s) {
        dag_fail(err, DAG_ENOMEM, "out of memory");
        return NULL;
    }
    s->g = g;
    s->algo = A;
    s->first = malloc((size_t)g->n * sizeof *s->first);
    s->lanes = calloc((size_t)g->q, sizeof *s->lanes);
    if (!s->first || !s->lanes) {
        dag_schedule_free(s);
        dag_fail(err, DAG_ENOMEM, "out of memory");
        return NULL;
    }
    for (int i = 0; i < g->n; i++)
        s->first[i] = -1;
    if (A->run(s, err) != DAG_OK) {
        dag_schedule_free(s);
        return NULL;
    }
    return s;
}

double dag_arrival(const dag_schedule *s, int k, double c, int p)
{
    double best = INFINITY;
    for (int j = s->first[k]; j >= 0; j = s->copy[j].next) {
        const dag_copy *x = &s->copy[j];
        double t = x->finish + (x->proc == p ? 0 : c);
        if (t < best)
            best = t;
    }
    return best;
}

double dag_ready(const dag_schedule *s, int i, int p)
{
    const dag *g = s->g;
    double t = 0;
    for (int e = g->pred_at[i]; e < g->pred_at[i + 1]; e++) {
        double a = dag_arrival(s, g->pred[e], g->pred_c[e], p);
        if (a > t)
            t = a;
    }
    return t;
}

/* The first position in lane L whose copy finishes after t. */
static int first_after(const dag_schedule *s, const lane *L, double t)
{
    int lo = 0, hi = L->n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        if (s->copy[L->at[mid]].finish > t)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo;
}

double dag_slot(const dag_schedule *s, int p, double ready, double dur)
{
    const lane *L = &s->lanes[p];
    double t = ready;
    /* Copies finishing by 'ready' are behind us; from the first one that
     * does not, try each gap in turn. */
    for (int k = first_after(s, L, ready); k < L->n; k++) {
        const dag_copy *x = &s->copy[L->at[k]];
        if (t + dur <= x->start)
            return t;
        if (x->finish > t)
            t = x->finish;
    }
    return t;
}

int dag_has_copy(const dag_schedule *s, int k, int p)
{
    for (int j = s->first[k]; j >= 0; j = s->copy[j].next)
        if (s->copy[j].proc == p)
            return 1;
    return 0;
}

int dag_place(dag_schedule *s, int i, int p, double start, int dup,
              dag_err *err)
{
    if (s->ncopies == s->cap) {
        int cap = s->cap ? 2 * s->cap : s->g->n + 16;
        dag_copy *c = realloc(s->copy, (size_t)cap * sizeof *c);
        if (!c)
            return dag_fail(err, DAG_ENOMEM, "out of memory");
        s->copy = c;
        s->cap = cap;
    }
    lane *L = &s->lanes[p];
    if (L->n == L->cap) {
        int cap = L->cap ? 2 * L->cap : 16;
        int *a = realloc(L->at, (size_t)cap * sizeof *a);
        if (!a)
            return dag_fail(err, DAG_ENOMEM, "out of memory");
        L->at = a;
        L->cap = cap;
    }
    int j = s->ncopies++;
    s->copy[j] = (dag_copy){i, p, start, start + DAG_W(s->g, i, p), dup, -1};
    /* Chain it after the task's other copies: the own copy stays first. */
    if (s->first[i] < 0)
        s->first[i] = j;
    else {
        int k = s->first[i];
        while (s->copy[k].next >= 0)
            k = s->copy[k].next;
        s->copy[k].next = j;
    }
    /* Into the lane before the first copy finishing after 'start' (the slot
     * came from dag_slot, so that copy starts no earlier than our finish). */
    int pos = first_after(s, L, start);
    memmove(L->at + pos + 1, L->at + pos, (size_t)(L->n - pos) * sizeof *L->at);
    L->at[pos] = j;
    L->n++;
    s->duplicates += dup;
    if (s->copy[j].finish > s->makespan)
        s->makespan = s->copy[j].finish;
    return DAG_OK;
}

int dag_place_eft(dag_schedule *s, int i, dag_err *err)
{
    const dag *g = s->g;
    int best = 0;
    double best_eft = INFINITY, best_start = 0;
    for (int p = 0; p < g->q; p++) {
        double w = DAG_W(g, i, p);
        double t = dag_slot(s, p, dag_ready(s, i, p), w);
        if (t + w < best_eft) {
            best_eft = t + w;
            best_start = t;
            best = p;
        }
    }
    return dag_place(s, i, best, best_start, 0, err);
}

double dag_slr(const dag_schedule *s)
{
    double lb = dag_cp_min(s->g);
    return lb > 0 ? s->makespan / lb : NAN;
}

double dag_speedup(const dag_schedule *s)
{
    return s->makespan > 0 ? dag_sequential(s->g) / s->makespan : NAN;
}

/* Copies by (processor, start, finish), for the overlap check. */
static int cmp_copy(const void *a, const void *b)
{
    const dag_copy *x = a, *y = b;
    if (x->proc != y->proc)
        return x->proc < y->proc ? -1 : 1;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->finish > y->finish) - (x->finish < y->finish);
}

int dag_schedule_check(const dag_schedule *s, dag_err *err)
{
    const dag *g = s->g;
    double eps = 1e-9 * (s->makespan > 1 ? s->makespan : 1), latest = 0;
    for (int i = 0; i < g->n; i++) {
        if (s->first[i] < 0)
            return dag_fail(err, DAG_EINVAL, "task %s is not scheduled", quote(g->name[i]));
        if (s->copy[s->first[i]].dup)
            return dag_fail(err, DAG_EINVAL, "task %s: its first copy is a "
                            "duplicate", quote(g->name[i]));
    }
    int own = 0;
    for (int j = 0; j < s->ncopies; j++) {
        const dag_copy *x = &s->copy[j];
        if (x->task < 0 || x->task >= g->n || x->proc < 0 || x->proc >= g->q)
            return dag_fail(err, DAG_EINVAL, "copy %d: task %d on processor %d "
                            "is out of range", j, x->task, x->proc + 1);
        const char *nm = g->name[x->task];
        own += !x->dup;
        if (x->start < -eps ||
            fabs(x->finish - x->start - DAG_W(g, x->task, x->proc)) > eps)
            return dag_fail(err, DAG_EINVAL, "task %s on P%d: runs %g to %g, "
                            "but costs %g there", nm, x->proc + 1, x->start,
                            x->finish, DAG_W(g, x->task, x->proc));
        if (x->finish > latest)
            latest = x->finish;
        /* Every parent: some copy of it whose data is here in time. */
        for (int e = g->pred_at[x->task]; e < g->pred_at[x->task + 1]; e++) {
            int k = g->pred[e], ok = 0;
            for (int y = s->first[k]; y >= 0 && !ok; y = s->copy[y].next)
                ok = s->copy[y].task == k &&
                     s->copy[y].finish + (s->copy[y].proc == x->proc ? 0 : g->pred_c[e])
                         <= x->start + eps;
            if (!ok)
                return dag_fail(err, DAG_EINVAL, "task %s%s on P%d starts at %g, "
                                "before the data of %s can be there", nm,
                                x->dup ? " (duplicate)" : "", x->proc + 1,
                                x->start, g->name[k]);
        }
    }
    if (own != g->n)
        return dag_fail(err, DAG_EINVAL, "%d own copies for %d tasks", own, g->n);
    /* Overlaps, from all copies sorted by (processor, start), independently
     * of the lanes the algorithms kept. */
    dag_copy *c = malloc(((size_t)s->ncopies + 1) * sizeof *c);
    if (!c)
        return dag_fail(err, DAG_ENOMEM, "out of memory");
    memcpy(c, s->copy, (size_t)s->ncopies * sizeof *c);
    qsort(c, (size_t)s->ncopies, sizeof *c, cmp_copy);
    for (int k = 1; k < s->ncopies; k++)
        if (c[k - 1].proc == c[k].proc && c[k - 1].finish > c[k].start + eps) {
            int rc = dag_fail(err, DAG_EINVAL, "tasks %s (%g to %g) and %s "
                              "(%g to %g) overlap on P%d", g->name[c[k - 1].task],
                              c[k - 1].start, c[k - 1].finish, g->name[c[k].task],
                              c[k].start, c[k].finish, c[k].proc + 1);
            free(c);
            return rc;
        }
    free(c);
    if (fabs(latest - s->makespan) > eps)
        return dag_fail(err, DAG_EINVAL, "makespan %g, but the last copy "
                        "finishes at %g", s->makespan, latest);
    return DAG_OK;
}
