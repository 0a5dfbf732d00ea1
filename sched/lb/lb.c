/* lb.c: the load-balancing driver (lb.h): lookup, the checks, and what
 * every strategy shares, Yoon et al. Sec. 3.2:
 *
 *   eq. 1  T_task_i = t / d_i          (the paper's t_j / (N - n_i))
 *   eq. 2  N_total  = sum_i n_i
 *   eq. 3  n'_1 T_task_1 = ... = n'_P T_task_P
 *   eq. 4  n'_i = N_total / (T_task_i sum_j 1 / T_task_j)
 *   E_i    = n_i T_task_i before any migration
 *
 * The whole target. Eq. 4's n'_i are real; the target is the apportionment
 * that makes eq. 3 hold as nearly as whole tasks allow: the one that
 * minimizes max_i n'_i T_task_i, built seat by seat (each task goes to the
 * node that would finish it first, (n'_i + 1) T_task_i smallest: D'Hondt's
 * highest averages with divisor T_task_i), ties to a node that already
 * holds that task (n'_i + 1 <= n_i), then to the lower index. Why not the
 * largest remainder, and what is done with a node with d_i = 0: yoon.c,
 * "Readings". The seats start at floor(share) - 1 (D'Hondt never gives
 * less than the floor of the quota, so that start is below the result and
 * the rest of the seats follow as from zero), a few per node remain. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sched/lb/lb.h"
#include "sched/sched.h"
#include "sched/util/quote.h"
#include "sched/util/conv.h"

const lb_type *const lb_types[] = {&lb_yoon, &lb_none, &lb_clb, &lb_dlb, &lb_mclb,
                                   NULL};

void lb_exchange_central(int nodes, long *msgs)
{
    for (int i = 0; i < nodes; i++)
        msgs[i] = i == 0 ? 2L * (nodes - 1) : 2;
}

const lb_type *lb_type_find(const char *name, sched_err *err)
{
    char list[120] = "";
    for (int i = 0; lb_types[i]; i++) {
        if (name && strcasecmp(name, lb_types[i]->name) == 0)
            return lb_types[i];
        if (i) strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, lb_types[i]->name, sizeof list - strlen(list) - 1);
    }
    sched_fail(err, SCHED_ENOENT, "unknown load-balancing strategy '%s' (valid: %s)",
               quote(name), list);
    return NULL;
}

/* A time per task within lb.h's range (NaN: not). */
static int time_ok(double t)
{
    return t >= LB_MIN_TIME && t <= LB_MAX_TIME;
}

static int check(const lb_type *T, const lb_input *in, sched_err *err)
{
    if (!T)
        return sched_fail(err, SCHED_EINVAL, "no load-balancing strategy given");
    if (in->nodes < 1 || in->nodes > LB_MAX_NODES)
        return sched_fail(err, SCHED_EINVAL, "nodes=%d must be in 1..%d", in->nodes,
                          LB_MAX_NODES);
    if (!in->remaining || (!in->done && !in->t_task))
        return sched_fail(err, SCHED_EINVAL, "no remaining or done counts given");
    if (in->t_task) {
        for (int i = 0; i < in->nodes; i++)
            if (!isnan(in->t_task[i]) && !time_ok(in->t_task[i]))
                return sched_fail(err, SCHED_EINVAL, "t_task[%d]=%s must be a time in "
                                  "[%g, %g] (seconds per task) or NAN (unmeasured)", i,
                                  conv_g(in->t_task[i], (char[CONV_G]){0}), LB_MIN_TIME,
                                  LB_MAX_TIME);
    } else if (!(in->elapsed > 0) || !isfinite(in->elapsed))
        return sched_fail(err, SCHED_EINVAL, "elapsed=%g must be a time > 0 (seconds)",
                          in->elapsed);
    if (!(in->cost >= 0 && in->cost <= LB_MAX_TIME))
        return sched_fail(err, SCHED_EINVAL, "cost=%s must be a time in [0, %g] (seconds "
                          "per task)", conv_g(in->cost, (char[CONV_G]){0}), LB_MAX_TIME);
    long total = 0;
    for (int i = 0; i < in->nodes; i++) {
        if (in->remaining[i] < 0 || in->remaining[i] > LB_MAX_TASKS)
            return sched_fail(err, SCHED_EINVAL, "remaining[%d]=%ld must be in 0..%ld",
                              i, in->remaining[i], LB_MAX_TASKS);
        if (!in->t_task && in->done[i] < 0)
            return sched_fail(err, SCHED_EINVAL, "done[%d]=%ld must be >= 0", i,
                              in->done[i]);
        /* eq. 1, as lb_plan_make computes it */
        if (!in->t_task && in->done[i] > 0 &&
            !time_ok(in->elapsed / (double)in->done[i])) {
            char a[CONV_G], b[CONV_G];
            return sched_fail(err, SCHED_EINVAL, "T_task[%d] = elapsed / done[%d] = %s / "
                              "%ld = %s s must be in [%g, %g] seconds per task", i, i,
                              conv_g(in->elapsed, a), in->done[i],
                              conv_g(in->elapsed / (double)in->done[i], b), LB_MIN_TIME,
                              LB_MAX_TIME);
        }
        total += in->remaining[i];
    }
    if (total > LB_MAX_TASKS)
        return sched_fail(err, SCHED_EINVAL, "N_total=%ld remaining tasks is more than "
                          "%ld", total, LB_MAX_TASKS);
    return SCHED_OK;
}

void lb_plan_free(lb_plan *p)
{
    if (!p)
        return;
    free(p->remaining);
    free(p->t_task);
    free(p->share);
    free(p->target);
    free(p->after);
    free(p->moved);
    free(p->e_before);
    free(p->e_after);
    free(p->move);
    free(p);
}

static lb_plan *alloc_plan(int n)
{
    lb_plan *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    size_t z = (size_t)n;
    p->nodes = n;
    p->remaining = calloc(z, sizeof *p->remaining);
    p->t_task = calloc(z, sizeof *p->t_task);
    p->share = calloc(z, sizeof *p->share);
    p->target = calloc(z, sizeof *p->target);
    p->after = calloc(z, sizeof *p->after);
    p->moved = calloc(z, sizeof *p->moved);
    p->e_before = calloc(z, sizeof *p->e_before);
    p->e_after = calloc(z, sizeof *p->e_after);
    if (!p->remaining || !p->t_task || !p->share || !p->target || !p->after ||
        !p->moved || !p->e_before || !p->e_after) {
        lb_plan_free(p);
        return NULL;
    }
    return p;
}

/* Does seat s of node i (its s-th task, value s T_i) come before seat u of
 * node j? The order of the apportionment (the header above). */
static int seat_first(const lb_plan *p, int i, long s, int j, long u)
{
    double vi = (double)s * p->t_task[i], vj = (double)u * p->t_task[j];
    if (vi != vj)
        return vi < vj;
    int hi = s <= p->remaining[i], hj = u <= p->remaining[j];
    if (hi != hj)
        return hi;
    return i < j;
}

/* Eq. 4: the shares and the whole target over the measured nodes. */
static void targets(lb_plan *p)
{
    long n = 0;
    double inv = 0;
    for (int i = 0; i < p->nodes; i++) {
        p->target[i] = p->remaining[i];         /* unmeasured: kept */
        if (!isnan(p->t_task[i])) {
            n += p->remaining[i];
            inv += 1 / p->t_task[i];
        }
    }
    long given = 0;
    for (int i = 0; i < p->nodes; i++) {
        if (isnan(p->t_task[i]))
            continue;
        /* n times a fraction in (0, 1]: at most n, whatever the times */
        p->share[i] = (double)n * ((1 / p->t_task[i]) / inv);
        /* floor(share) - 1 is in -1..n-1 (n <= LB_MAX_TASKS): clamped to
         * 0..n, a count */
        p->target[i] = conv_clamp(floor(p->share[i]) - 1, 0, n);
        given += p->target[i];
    }
    if (given > n)                              /* cannot be; be safe */
        for (int i = 0; i < p->nodes; i++)
            if (!isnan(p->t_task[i])) {
                given -= p->target[i];
                p->target[i] = 0;
            }
    for (; given < n; given++) {
        int best = -1;
        for (int i = 0; i < p->nodes; i++)
            if (!isnan(p->t_task[i]) &&
                (best < 0 || seat_first(p, i, p->target[i] + 1, best,
                                        p->target[best] + 1)))
                best = i;
        p->target[best]++;
    }
}

double lb_finish(const lb_plan *p, int i, double cost)
{
    if (isnan(p->t_task[i]))
        return NAN;
    return (double)p->after[i] * p->t_task[i] + (double)p->moved[i] * cost;
}

int lb_plan_reach(lb_plan *p, const long *goal, sched_err *err)
{
    long held = 0, wanted = 0;
    for (int i = 0; i < p->nodes; i++) {
        if (goal[i] < 0)
            return sched_fail(err, SCHED_EINVAL, "goal[%d]=%ld must be >= 0", i, goal[i]);
        held += p->after[i];
        wanted += goal[i];
    }
    if (wanted != held)
        return sched_fail(err, SCHED_EINVAL, "the goals sum to %ld tasks, the nodes hold "
                          "%ld", wanted, held);
    /* s: the first node above its goal, r: the first below; both only move
     * forward, and reach the end together (the surpluses sum to the deficits) */
    int s = 0, r = 0;
    for (;;) {
        while (s < p->nodes && p->after[s] <= goal[s])
            s++;
        while (r < p->nodes && p->after[r] >= goal[r])
            r++;
        if (s == p->nodes || r == p->nodes)
            return SCHED_OK;
        int rc = lb_plan_move(p, s, r, err);
        if (rc != SCHED_OK)
            return rc;
    }
}

int lb_plan_move(lb_plan *p, int from, int to, sched_err *err)
{
    if (from < 0 || from >= p->nodes || to < 0 || to >= p->nodes || from == to ||
        p->after[from] < 1)
        return sched_fail(err, SCHED_EINVAL, "no task can move from node %d to node %d",
                          from, to);
    int m = 0;
    while (m < p->nmoves && !(p->move[m].from == from && p->move[m].to == to))
        m++;
    if (m == p->nmoves) {
        lb_move *grown = realloc(p->move, sizeof *grown * (size_t)(m + 1));
        if (!grown)
            return sched_fail(err, SCHED_ENOMEM, "out of memory for %d moves", m + 1);
        p->move = grown;
        p->move[m] = (lb_move){from, to, 0};
        p->nmoves++;
    }
    p->move[m].count++;
    p->after[from]--;
    p->after[to]++;
    p->moved[from]++;
    p->moved[to]++;
    return SCHED_OK;
}

lb_plan *lb_plan_make(const lb_type *T, const lb_input *in, sched_err *err)
{
    if (check(T, in, err) != SCHED_OK)
        return NULL;
    lb_plan *p = alloc_plan(in->nodes);
    if (!p) {
        sched_fail(err, SCHED_ENOMEM, "%s: out of memory for %d nodes", T->name,
                   in->nodes);
        return NULL;
    }
    p->max_before = p->max_after = NAN;
    for (int i = 0; i < p->nodes; i++) {
        p->remaining[i] = p->after[i] = in->remaining[i];
        p->total += in->remaining[i];
        p->t_task[i] = in->t_task ? in->t_task[i]
                       : in->done[i] > 0 ? in->elapsed / (double)in->done[i] : NAN;
        p->share[i] = NAN;
    }
    targets(p);
    for (int i = 0; i < p->nodes; i++) {
        p->e_before[i] = lb_finish(p, i, in->cost);
        p->max_before = fmax(p->max_before, p->e_before[i]);   /* NAN: skipped */
    }
    if (T->plan(p, in->cost, err) != SCHED_OK) {
        lb_plan_free(p);
        return NULL;
    }
    for (int i = 0; i < p->nodes; i++) {
        p->e_after[i] = lb_finish(p, i, in->cost);
        p->max_after = fmax(p->max_after, p->e_after[i]);
    }
    return p;
}
