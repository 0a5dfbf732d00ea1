/* awf.c: Adaptive Weighted Factoring, variants B, C, D and E.
 *
 * WF (wf.c) with the weights measured instead of given. Banicescu, Velusamy
 * & Devaprasad, "On the scalability of dynamic scheduling scientific
 * applications with adaptive weighted factoring", Cluster Computing 6(3),
 * 2003 (AWF: weights adapted between the time steps of an application);
 * Carino & Banicescu, "Dynamic load balancing with adaptive factoring
 * methods in scientific applications", J. Supercomputing 44, 2008 (the
 * variants here, adapted within one loop). Worker i's weighted average
 * performance, a time per iteration in which its later chunks count more,
 *
 *   pi_i = sum_k k t_ik / sum_k k n_ik          (k = 1, 2, ...: its chunks)
 *
 * where chunk k of worker i had n_ik iterations and took t_ik seconds, and
 * its weight, normalised so the weights sum to P,
 *
 *   w_i = P (1 / pi_i) / sum_j (1 / pi_j)
 *
 * (the implementations write it awap / pi_i over sum_j awap / pi_j, awap the
 * mean of the pi_j: the same number).
 *
 *   awf-b  FSS's batches (fss.c, wf.c): B = ceil(R / (alpha P)) at the start
 *          of each batch of P requests, chunk w_i B; the weights are those
 *          of the batch's start ("adapted after each batch").
 *   awf-c  no batches: chunk w_i R / (alpha P) with R the remaining
 *          iterations and w_i as of this request ("after each chunk").
 *   awf-d  awf-b, and awf-e awf-c, with t_ik the chunk's elapsed time, from
 *          its assignment to its result at the master (communication and
 *          scheduling overhead included), instead of its computing time.
 *
 * The times come from sched_done(s, worker, size, work, elapsed): B and C use
 * 'work', D and E 'elapsed' (its 'work' when elapsed is NAN). The request's
 * mu and sigma are not used (they are AF's).
 *
 * Sources. The search found the papers' titles and abstracts but not their
 * text; the formulas above are what the three public implementations agree
 * on, read, not copied: DLS4LB (unibas-dmi-hpc/DLS4LB, DLS.c: GetChunkSize,
 * DLS_EndChunk; based on Carino & Banicescu's DLB_tool, whose long names are
 * "BATCH AWF", "CHUNK AWF", "BATCH AWF (chunk times)", "CHUNK AWF (chunk
 * times)"), the DLB_tool's loop scheduler in the Loci framework
 * (procPerformance: "weighted chunk times", "weighted chunk sizes") and
 * LB4OMP (kmp_dispatch.cpp, kmp_sch_awf_b..e: "Timers are chunk execution
 * time only without overhead" for B and C, "total times" for D and E).
 *
 * Our readings, where the papers (as far as we can tell) leave it to the
 * implementation:
 *  - Before worker i's first sched_done its weight is WF's, P A_i / A from
 *    the A_i of its request (1 through sched_next: the run starts as FSS).
 *    DLS4LB and the Loci code hand an unmeasured worker the minimum chunk
 *    instead (a probe); LB4OMP starts from given weights (1 by default), as
 *    we do: on PVM a probe costs a round trip and times too little work.
 *  - A measured worker's weight counts the workers not yet measured as the
 *    fastest measured one (largest 1 / pi), as DLS4LB's code does (its
 *    comment says "assume the lowest performance"; the Loci code takes the
 *    slowest; LB4OMP normalises over the measured workers alone). Assumed
 *    fast, an unmeasured worker can only make the others' weights smaller:
 *    a slow worker measured first gets w = 1 (FSS's chunk), not more.
 *  - A total time of 0 (a coarse clock) leaves the worker unmeasured.
 *  - Rounding: our driver's ceil; DLS4LB and Loci round w_i B + 0.55 down.
 *
 * Known values (worked in tests/test_adaptive.c): I = 100, P = 2, first
 * chunks 25 s for 25 iterations on worker 0 and 75 s for 25 on worker 1:
 * awf-b then hands out 20, 7 (weights 1.5, 0.5) in its second batch.
 */
#include "sched/schemes/sched_impl.h"

static const sched_param params[] = {      /* awf-b, awf-d */
    {"alpha", "batch divisor, >= 1: each batch takes 1/alpha of the rest (default 2)"},
    {NULL, NULL}
};

static const sched_param params_chunk[] = {    /* awf-c, awf-e */
    {"alpha", "divisor, >= 1: chunk w_i remaining/(alpha P) (default 2)"},
    {NULL, NULL}
};

typedef struct {
    double kt, kn;      /* sum over its chunks k = 1, 2, ... of k t_k, k n_k */
    long k;             /* chunks reported */
    double wb;          /* awf-b, -d: its weight in this batch; NAN: none
                           (read only while batch_weighted) */
} awf_worker;

typedef struct {
    double alpha, A, base;
    int P, batched, elapsed, left_in_batch, measured, batch_weighted;
    awf_worker w[];     /* P of them */
} awf_state;

static int init(void *state, const sched_config *cfg, sched_err *err,
                const char *name, int batched, int elapsed)
{
    awf_state *s = state;
    s->alpha = sched_param_or(cfg, 0, 2.0);
    if (!(s->alpha >= 1))
        return sched_fail(err, SCHED_EINVAL, "%s: alpha=%g must be >= 1", name,
                          s->alpha);
    s->P = cfg->P;
    s->A = cfg->A > 0 ? cfg->A : cfg->P;
    s->batched = batched;
    s->elapsed = elapsed;
    s->left_in_batch = 0;
    s->measured = 0;
    s->batch_weighted = 0;      /* the workers are zeroed by the driver */
    return SCHED_OK;
}

static int init_b(void *st, const sched_config *c, sched_err *e)
{
    return init(st, c, e, "awf-b", 1, 0);
}

static int init_c(void *st, const sched_config *c, sched_err *e)
{
    return init(st, c, e, "awf-c", 0, 0);
}

static int init_d(void *st, const sched_config *c, sched_err *e)
{
    return init(st, c, e, "awf-d", 1, 1);
}

static int init_e(void *st, const sched_config *c, sched_err *e)
{
    return init(st, c, e, "awf-e", 0, 1);
}

static int is_measured(const awf_worker *x)
{
    return x->kt > 0;
}

/* sum_j 1 / pi_j over all P workers, the unmeasured ones counted as the
 * fastest measured; needs s->measured > 0. */
static double speed_sum(const awf_state *s)
{
    double sum = 0, fastest = 0;
    for (int j = 0; j < s->P; j++)
        if (is_measured(&s->w[j])) {
            double speed = s->w[j].kn / s->w[j].kt;     /* 1 / pi_j */
            sum += speed;
            if (speed > fastest)
                fastest = speed;
        }
    return sum + (s->P - s->measured) * fastest;
}

/* Worker i's weight now, or NAN if it has no measurement. */
static double weight(const awf_state *s, int i, double sum)
{
    if (i < 0 || !is_measured(&s->w[i]))
        return NAN;
    return s->P * (s->w[i].kn / s->w[i].kt) / sum;
}

static double next_w(void *state, long remaining, const sched_request *rq)
{
    awf_state *s = state;
    double w;
    if (s->batched) {
        if (s->left_in_batch == 0) {
            /* Rounded once per batch, as fss.c; the weights are fixed here. */
            s->base = ceil((double)remaining / (s->alpha * s->P));
            s->left_in_batch = s->P;
            s->batch_weighted = s->measured > 0;
            if (s->batch_weighted) {
                double sum = speed_sum(s);
                for (int j = 0; j < s->P; j++)
                    s->w[j].wb = weight(s, j, sum);
            }
        }
        s->left_in_batch--;
        w = s->batch_weighted && rq->worker >= 0 ? s->w[rq->worker].wb : NAN;
        if (isnan(w))
            w = rq->acp * s->P / s->A;
        return w * s->base;
    }
    w = rq->worker >= 0 && is_measured(&s->w[rq->worker])
        ? weight(s, rq->worker, speed_sum(s)) : rq->acp * s->P / s->A;
    return w * (double)remaining / (s->alpha * s->P);
}

static void done(void *state, int worker, long size, double work, double elapsed)
{
    awf_state *s = state;
    awf_worker *x = &s->w[worker];
    double t = s->elapsed && !isnan(elapsed) ? elapsed : work;
    int before = is_measured(x);
    x->k++;
    x->kt += (double)x->k * t;
    x->kn += (double)x->k * (double)size;
    s->measured += is_measured(x) && !before;
}

#define AWF_TYPE(v, initf, par, text)                                        \
    const sched_type sched_awf_##v = {                                      \
        .name = "awf-" #v,                                                  \
        .summary = text,                                                    \
        .params = par,                                                      \
        .size = sizeof(awf_state),                                          \
        .init = initf,                                                      \
        .next = NULL,                                                       \
        .replan = NULL,                                                     \
        .monotone = 0,                                                      \
        .by_speed = 1,                                                      \
        .next_w = next_w,                                                   \
        .done = done,                                                       \
        .worker_size = sizeof(awf_worker),                                  \
    }

AWF_TYPE(b, init_b, params,
         "adaptive WF, weights from computing times, per batch (Carino & Banicescu 2008)");
AWF_TYPE(c, init_c, params_chunk,
         "adaptive WF, weights from computing times, per chunk (Carino & Banicescu 2008)");
AWF_TYPE(d, init_d, params,
         "adaptive WF, weights from elapsed times, per batch (Carino & Banicescu 2008)");
AWF_TYPE(e, init_e, params_chunk,
         "adaptive WF, weights from elapsed times, per chunk (Carino & Banicescu 2008)");
