/* pool.c: the pool strategies' driver (pool.h): lookup, parameters, the
 * checks and the bounds every strategy shares, the task times behind the
 * hand-out order, and the meter of held and useful time. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sched/pool/pool.h"
#include "sched/sched.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

const pool_type *const pool_types[] = {&pool_adjust, &pool_static, NULL};

struct pool {
    const pool_type *type;
    pool_params par;
    int ntasks;
    int nworkers;           /* the target in force */
    int iterations;         /* ended so far */
    double *sum;            /* per task: the sum of its recorded times */
    long *count;            /* per task: how many */
    unsigned char *seen;    /* per task: scratch for the duplicate check */
};

const char *pool_rule_name(pool_rule r)
{
    static const char *const names[] = {"speedup", "add", "release", "keep", "unstable",
                                        "tasks"};
    return (unsigned)r < sizeof names / sizeof names[0] ? names[r] : "?";
}

const pool_type *pool_type_find(const char *name, sched_err *err)
{
    char list[120] = "";
    for (int i = 0; pool_types[i]; i++) {
        if (name && strcasecmp(name, pool_types[i]->name) == 0)
            return pool_types[i];
        if (i) strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, pool_types[i]->name, sizeof list - strlen(list) - 1);
    }
    sched_fail(err, SCHED_ENOENT, "unknown pool strategy '%s' (valid: %s)",
               quote(name), list);
    return NULL;
}

void pool_params_init(pool_params *par)
{
    par->asp = POOL_ASP_FLOOR1;
    par->threshold = 0.15;
    par->efficiency = 0.8;
}

int pool_params_set(pool_params *par, const char *name, const char *value,
                    sched_err *err)
{
    double v;
    if (strcmp(name, "asp") == 0) {
        if (strcmp(value, "floor1") == 0)
            par->asp = POOL_ASP_FLOOR1;
        else if (strcmp(value, "ceil") == 0)
            par->asp = POOL_ASP_CEIL;
        else
            return sched_fail(err, SCHED_EINVAL,
                              "asp '%s': floor1 (floor(asp) + 1) or ceil (ceil(asp))",
                              quote(value));
        return SCHED_OK;
    }
    if (strcmp(name, "threshold") == 0) {
        if (parse_double(value, &v) != 0 || !(v >= 0))
            return sched_fail(err, SCHED_EINVAL,
                              "threshold '%s' must be a number >= 0", quote(value));
        par->threshold = v;
        return SCHED_OK;
    }
    if (strcmp(name, "efficiency") == 0) {
        if (parse_double(value, &v) != 0 || !(v >= 0 && v <= 1))
            return sched_fail(err, SCHED_EINVAL,
                              "efficiency '%s' must be a number in [0, 1]", quote(value));
        par->efficiency = v;
        return SCHED_OK;
    }
    return sched_fail(err, SCHED_ENOENT,
                      "no pool parameter '%s' (they are: asp, threshold, efficiency)",
                      quote(name));
}

pool *pool_new(const pool_type *T, int ntasks, const pool_params *par, sched_err *err)
{
    pool_params dflt;
    if (!par) {
        pool_params_init(&dflt);
        par = &dflt;
    }
    if (!T) {
        sched_fail(err, SCHED_EINVAL, "no pool strategy given");
        return NULL;
    }
    if (ntasks < 1 || ntasks > POOL_MAX_TASKS) {
        sched_fail(err, SCHED_EINVAL, "%s: ntasks=%d must be in 1..%d", T->name, ntasks,
                   POOL_MAX_TASKS);
        return NULL;
    }
    if (par->asp != POOL_ASP_FLOOR1 && par->asp != POOL_ASP_CEIL) {
        sched_fail(err, SCHED_EINVAL, "%s: asp reading %d is neither floor1 nor ceil",
                   T->name, (int)par->asp);
        return NULL;
    }
    if (!(par->threshold >= 0) || !isfinite(par->threshold)) {
        sched_fail(err, SCHED_EINVAL, "%s: threshold=%g must be a number >= 0", T->name,
                   par->threshold);
        return NULL;
    }
    if (!(par->efficiency >= 0 && par->efficiency <= 1)) {
        sched_fail(err, SCHED_EINVAL, "%s: efficiency=%g must be in [0, 1]", T->name,
                   par->efficiency);
        return NULL;
    }
    pool *p = calloc(1, sizeof *p);
    if (p) {
        p->sum = calloc((size_t)ntasks, sizeof *p->sum);
        p->count = calloc((size_t)ntasks, sizeof *p->count);
        p->seen = calloc((size_t)ntasks, 1);
    }
    if (!p || !p->sum || !p->count || !p->seen) {
        pool_free(p);
        sched_fail(err, SCHED_ENOMEM, "%s: out of memory for %d tasks", T->name, ntasks);
        return NULL;
    }
    p->type = T;
    p->par = *par;
    p->ntasks = ntasks;
    p->nworkers = ntasks;               /* Figure 3.1 step 1 */
    return p;
}

void pool_free(pool *p)
{
    if (!p)
        return;
    free(p->sum);
    free(p->count);
    free(p->seen);
    free(p);
}

int pool_workers(const pool *p) { return p->nworkers; }
int pool_ntasks(const pool *p) { return p->ntasks; }
const pool_type *pool_get_type(const pool *p) { return p->type; }

/* The checks of pool_iteration_end; SCHED_OK or SCHED_EINVAL naming the
 * field. Leaves p->seen all zero. */
static int check_stats(pool *p, const pool_iter_stats *st, sched_err *err)
{
    const char *who = p->type->name;
    if (st->ntask < 1 || st->ntask > p->ntasks)
        return sched_fail(err, SCHED_EINVAL, "%s: ntask=%d tasks must be in 1..%d", who,
                          st->ntask, p->ntasks);
    if (!st->task || !st->time)
        return sched_fail(err, SCHED_EINVAL, "%s: no task numbers or times given", who);
    if (st->next_tasks < 0 || st->next_tasks > p->ntasks)
        return sched_fail(err, SCHED_EINVAL, "%s: next_tasks=%d must be in 0..%d", who,
                          st->next_tasks, p->ntasks);
    if (!(st->exec_time >= 0) || !isfinite(st->exec_time))
        return sched_fail(err, SCHED_EINVAL, "%s: exec_time=%g must be a time >= 0", who,
                          st->exec_time);
    if (!(st->held >= 0) || !isfinite(st->held))
        return sched_fail(err, SCHED_EINVAL, "%s: held=%g worker-seconds must be >= 0",
                          who, st->held);
    if (st->workers < 0)
        return sched_fail(err, SCHED_EINVAL, "%s: workers=%d must be >= 0", who,
                          st->workers);
    int rc = SCHED_OK, i;
    for (i = 0; i < st->ntask && rc == SCHED_OK; i++) {
        int t = st->task[i];
        if (t < 0 || t >= p->ntasks)
            rc = sched_fail(err, SCHED_EINVAL, "%s: task[%d]=%d must be in 0..%d", who, i,
                            t, p->ntasks - 1);
        else if (p->seen[t])
            rc = sched_fail(err, SCHED_EINVAL, "%s: task[%d]=%d appears twice", who, i, t);
        else if (!(st->time[i] >= 0) || !isfinite(st->time[i]))
            rc = sched_fail(err, SCHED_EINVAL, "%s: time[%d]=%g (task %d) must be a time "
                            ">= 0", who, i, st->time[i], t);
        else
            p->seen[t] = 1;
    }
    for (int j = 0; j < i; j++)             /* clear what was marked */
        if (st->task[j] >= 0 && st->task[j] < p->ntasks)
            p->seen[st->task[j]] = 0;
    return rc;
}

/* useful / held, an efficiency: 1 when nothing was held. Useful time never
 * exceeds held time, but both are sums of clock differences: far from the
 * origin (10^8 s) their rounding can put the ratio an ulp or two above 1
 * (fuzz finding trace-1): it is clamped to [0, 1]. */
static double ratio01(double useful, double held)
{
    if (!(held > 0))
        return 1;
    double e = useful / held;
    return e > 1 ? 1 : e < 0 ? 0 : e;
}

int pool_iteration_end(pool *p, const pool_iter_stats *st, pool_decision *why,
                       sched_err *err)
{
    if (check_stats(p, st, err) != SCHED_OK)
        return -1;
    pool_decision d = {.iteration = p->iterations + 1, .min = INFINITY,
                       .exec_time = st->exec_time, .current = st->workers,
                       .stable = st->stable != 0, .before = p->nworkers,
                       .next_tasks = st->next_tasks};
    for (int i = 0; i < st->ntask; i++) {
        double x = st->time[i];
        d.sum += x;
        d.max = fmax(d.max, x);
        d.min = fmin(d.min, x);
        p->sum[st->task[i]] += x;
        p->count[st->task[i]]++;
    }
    d.asp = d.max > 0 ? d.sum / d.max : 1;
    if (isinf(d.asp)) {                 /* times near DBL_MAX: the sum overflowed; */
        d.asp = 0;                      /* as a sum of ratios <= 1 it is <= ntask */
        for (int i = 0; i < st->ntask; i++)
            d.asp += st->time[i] / d.max;
    }
    d.efficiency = ratio01(d.sum, st->held);
    int n = p->type->end(&p->par, &d);
    /* The bounds (pool.h): within 1 .. the tasks left, 0 after the last. */
    int lo = st->next_tasks > 0 ? 1 : 0;
    int bounded = n > st->next_tasks ? st->next_tasks : n < lo ? lo : n;
    d.capped = bounded != n;
    d.nworkers = p->nworkers = bounded;
    p->iterations++;
    if (why)
        *why = d;
    return bounded;
}

int pool_task_converged(pool *p, int task, sched_err *err)
{
    if (task < 0 || task >= p->ntasks) {
        sched_fail(err, SCHED_EINVAL, "%s: converged task %d must be in 0..%d",
                   p->type->name, task, p->ntasks - 1);
        return -1;
    }
    if (p->type->converged)
        p->nworkers = p->type->converged(p->nworkers);
    return p->nworkers;
}

/* ---- the hand-out order -------------------------------------------------- */

/* qsort has no context argument: the averages travel with the numbers. */
typedef struct ranked { double avg; int task; } ranked;

static int by_average(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    int xn = isnan(x->avg), yn = isnan(y->avg);
    if (xn != yn)
        return xn ? -1 : 1;             /* never measured first */
    if (!xn && x->avg != y->avg)
        return x->avg < y->avg ? 1 : -1;
    return (x->task > y->task) - (x->task < y->task);
}

/* Sorts with a scratch array; a small insertion sort when out of memory
 * (the order must not depend on it). */
void pool_sort(int *task, int n, const double *avg)
{
    if (n < 2)
        return;
    ranked *r = malloc(sizeof *r * (size_t)n);
    if (!r) {
        for (int i = 1; i < n; i++)
            for (int j = i; j > 0; j--) {
                ranked a = {avg[task[j - 1]], task[j - 1]}, b = {avg[task[j]], task[j]};
                if (by_average(&a, &b) <= 0)
                    break;
                task[j - 1] = b.task;
                task[j] = a.task;
            }
        return;
    }
    for (int i = 0; i < n; i++)
        r[i] = (ranked){avg[task[i]], task[i]};
    qsort(r, (size_t)n, sizeof *r, by_average);
    for (int i = 0; i < n; i++)
        task[i] = r[i].task;
    free(r);
}

double pool_average(const pool *p, int t)
{
    if (t < 0 || t >= p->ntasks || p->count[t] == 0)
        return NAN;
    return p->sum[t] / (double)p->count[t];
}

int pool_order(const pool *p, int *task, int n, sched_err *err)
{
    for (int i = 0; i < n; i++)
        if (task[i] < 0 || task[i] >= p->ntasks)
            return sched_fail(err, SCHED_EINVAL, "%s: task[%d]=%d must be in 0..%d",
                              p->type->name, i, task[i], p->ntasks - 1);
    if (n < 2)
        return SCHED_OK;
    double *avg = malloc(sizeof *avg * (size_t)p->ntasks);
    if (!avg)
        return sched_fail(err, SCHED_ENOMEM, "%s: out of memory", p->type->name);
    for (int i = 0; i < n; i++)
        avg[task[i]] = pool_average(p, task[i]);
    pool_sort(task, n, avg);
    free(avg);
    return SCHED_OK;
}

/* ---- the meter ----------------------------------------------------------- */

void pool_meter_init(pool_meter *m, double t0)
{
    memset(m, 0, sizeof *m);
    m->t0 = m->t = m->end = t0;
}

/* Moves the meter's clock to t, adding the held worker-seconds. */
static int advance(pool_meter *m, double t, const char *what, sched_err *err)
{
    if (!isfinite(t) || t < m->t)
        return sched_fail(err, SCHED_EINVAL, "pool meter: %s at t=%g, before the last "
                          "event at t=%g", what, t, m->t);
    m->area += m->held * (t - m->t);
    m->t = t;
    return SCHED_OK;
}

int pool_meter_join(pool_meter *m, double t, sched_err *err)
{
    if (advance(m, t, "a worker joins", err) != SCHED_OK)
        return SCHED_EINVAL;
    m->held++;
    m->changed |= m->in_iteration;
    return SCHED_OK;
}

int pool_meter_leave(pool_meter *m, double t, sched_err *err)
{
    if (m->held == 0)
        return sched_fail(err, SCHED_EINVAL, "pool meter: a worker leaves at t=%g, but "
                          "none is held", t);
    if (advance(m, t, "a worker leaves", err) != SCHED_OK)
        return SCHED_EINVAL;
    m->held--;
    m->changed |= m->in_iteration;
    return SCHED_OK;
}

int pool_meter_begin(pool_meter *m, double t, sched_err *err)
{
    if (m->in_iteration)
        return sched_fail(err, SCHED_EINVAL, "pool meter: an iteration begins at t=%g "
                          "before the last one (begun at t=%g) ended", t, m->begin);
    if (advance(m, t, "an iteration begins", err) != SCHED_OK)
        return SCHED_EINVAL;
    m->in_iteration = 1;
    m->changed = 0;
    m->begin = t;
    m->area_begin = m->area;
    return SCHED_OK;
}

int pool_meter_end(pool_meter *m, double t, pool_iter_stats *st, sched_err *err)
{
    if (!m->in_iteration)
        return sched_fail(err, SCHED_EINVAL, "pool meter: an iteration ends at t=%g, but "
                          "none has begun", t);
    double useful = 0;
    for (int i = 0; i < st->ntask; i++) {
        if (!(st->time[i] >= 0) || !isfinite(st->time[i]))
            return sched_fail(err, SCHED_EINVAL, "pool meter: time[%d]=%g must be a "
                              "time >= 0", i, st->time[i]);
        useful += st->time[i];
    }
    if (advance(m, t, "an iteration ends", err) != SCHED_OK)
        return SCHED_EINVAL;
    st->exec_time = t - m->begin;
    st->held = m->area - m->area_begin;
    st->workers = m->held;
    st->stable = !m->changed;
    m->in_iteration = 0;
    m->useful += useful;
    m->end = t;
    m->area_end = m->area;
    m->iterations++;
    return SCHED_OK;
}

void pool_meter_totals(const pool_meter *m, pool_totals *out)
{
    out->iterations = m->iterations;
    out->time = m->end - m->t0;
    out->held = m->area_end;
    out->useful = m->useful;
    out->workers = out->time > 0 ? out->held / out->time : 0;
    out->efficiency = ratio01(out->useful, out->held);
    out->ratio = out->time / out->efficiency;
}

void pool_carry_out(int N, int held, int idle, int pending, pool_moves *mv)
{
    N = N > 0 ? N : 0;
    held = held > 0 ? held : 0;
    idle = idle > 0 ? (idle < held ? idle : held) : 0;
    pending = pending > 0 ? pending : 0;
    int over = held + pending - N;                  /* pending beyond the target */
    mv->cancel = over <= 0 ? 0 : over < pending ? over : pending;
    pending -= mv->cancel;
    int extra = held - N;                           /* held beyond the target */
    mv->release = extra <= 0 ? 0 : extra < idle ? extra : idle;
    held -= mv->release;
    mv->request = N > held + pending ? N - held - pending : 0;
}

double pool_arrival(double t, double last, double delay)
{
    return (last > t ? last : t) + delay;
}

double pool_arrival_together(double t, double delay)
{
    return t + delay;
}
