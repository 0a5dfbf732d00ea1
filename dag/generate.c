/* generate.c: the generator types' driver: the list of types, lookup by
 * name, the checks every type shares and the cost draws.
 *
 *   w_i    ~ U[0, 2 W_DAG)                          a task's mean cost
 *   w(i,p) ~ U[w_i (1 - beta/2), w_i (1 + beta/2))  its cost on processor p
 *   c(i,j) ~ U[0, 2 CCR W_DAG)                      an edge's cost
 *
 * Singh et al. Sec. 4 ("computation cost of each task ... selected randomly
 * from [0, 2*WDAG]"); the heterogeneity range beta and the edge costs are
 * Topcuoglu, Hariri & Wu's (IEEE TPDS 13(3) 2002, Sec. 5.1), so that the mean
 * edge cost over the mean task cost is CCR. Every value is kept to 6
 * significant digits, as dag_write's text reads back exactly. The structured
 * types (fft.c, gauss.c) draw their costs the same way: Topcuoglu et al. vary
 * only CCR and beta on those graphs (Sec. 6). U is GSL's mt19937 seeded with
 * 'seed'. The type's build draws its structure, the w_i and the edge costs;
 * the costs on the processors come last, processor by processor, so that the
 * graph on q processors is the first q processors of the same graph on more:
 * more processors are added, not drawn anew (the "processors" reading of
 * Singh's Figs. 5-7 schedules the same graphs on 20, 30, ... processors).
 * Known value: over many graphs the mean cost is W_DAG and the mean edge cost
 * CCR W_DAG (tests/test_dag.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dag_impl.h"

const dag_gen_type *const dag_gen_types[] = {&dag_gen_random, &dag_gen_fft,
                                             &dag_gen_gauss, NULL};

const dag_gen_type *dag_gen_find(const char *name, dag_err *err)
{
    char list[100] = "";
    for (int i = 0; dag_gen_types[i]; i++) {
        if (name && strcasecmp(name, dag_gen_types[i]->name) == 0)
            return dag_gen_types[i];
        if (i) strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, dag_gen_types[i]->name, sizeof list - strlen(list) - 1);
    }
    dag_fail(err, DAG_ENOENT, "unknown graph type '%s' (valid: %s)", quote(name), list);
    return NULL;
}

void dag_gen_init(dag_gen *p)
{
    *p = (dag_gen){.type = &dag_gen_random, .v = 20, .alpha = 1, .out_degree = 3,
                   .size = 8, .ccr = 1, .wdag = 50, .beta = 0.5, .q = 4, .seed = 1};
}

int dag_gen_check(const dag_gen *p, dag_err *err)
{
    if (!p->type)
        return dag_fail(err, DAG_EINVAL, "no graph type (dag_gen_init sets random)");
    int rc = p->type->check(p, err);
    if (rc != DAG_OK)
        return rc;
    if (!(p->ccr >= 0) || !isfinite(p->ccr))
        return dag_fail(err, DAG_EINVAL, "ccr=%g: must be >= 0", p->ccr);
    if (!(p->wdag > 0) || !isfinite(p->wdag))
        return dag_fail(err, DAG_EINVAL, "wdag=%g: the mean cost must be > 0", p->wdag);
    if (!(p->beta >= 0 && p->beta <= 2))
        return dag_fail(err, DAG_EINVAL, "beta=%g: the heterogeneity must be "
                        "0 to 2 (costs w_i (1 +- beta/2) >= 0)", p->beta);
    /* every cost drawn finite: a task's below 2 wdag (1 + beta/2) <= 4 wdag,
     * an edge's below 2 ccr wdag (their sum: dag_finish, DAG_MAX_TOTAL) */
    if (!(4 * p->wdag <= DAG_MAX_TOTAL))
        return dag_fail(err, DAG_EINVAL, "wdag=%g: the mean cost must be at most %g "
                        "(a task's costs are drawn up to 4 wdag)", p->wdag,
                        DAG_MAX_TOTAL / 4);
    if (!(2 * p->ccr * p->wdag <= DAG_MAX_TOTAL))
        return dag_fail(err, DAG_EINVAL, "ccr=%g with wdag=%g: the edges' costs, drawn up "
                        "to 2 ccr wdag = %g, must be at most %g", p->ccr, p->wdag,
                        2 * p->ccr * p->wdag, DAG_MAX_TOTAL);
    if (p->q < 1 || p->q > 1000000)
        return dag_fail(err, DAG_EINVAL, "q=%d processors: must be 1 to 10^6", p->q);
    double costs = (double)p->type->tasks(p) * p->q;
    if (costs > DAG_GEN_MAX_COSTS)
        return dag_fail(err, DAG_EINVAL, "%ld tasks on q=%d processors are %.4g costs, "
                        "more than the %ld a generated graph holds", p->type->tasks(p),
                        p->q, costs, DAG_GEN_MAX_COSTS);
    return DAG_OK;
}

/* x to 6 significant digits, as dag_write's text reads back exactly. */
static double digits6(double x)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.6g", x);
    return strtod(buf, NULL);
}

int dag_costs_task(struct dag_costs *dc, dag *g, const char *name, dag_err *err)
{
    if (dc->n == dc->cap) {
        int cap = dc->cap ? 2 * dc->cap : 64;
        double *m = realloc(dc->mean, (size_t)cap * sizeof *m);
        if (!m)
            return dag_fail(err, DAG_ENOMEM, "out of memory");
        dc->mean = m;
        dc->cap = cap;
    }
    double wi = gsl_rng_uniform(dc->r) * 2 * dc->wdag;
    dc->mean[dc->n++] = wi;
    /* w_i on every processor until dag_generate draws the costs. */
    for (int p = 0; p < dc->q; p++)
        dc->w[p] = digits6(wi);
    /* The costs are valid by construction: only memory can fail. */
    return dag_add_task(g, name, dc->w, err) < 0 ? (err ? err->code : DAG_ENOMEM) : DAG_OK;
}

int dag_costs_edge(struct dag_costs *dc, dag *g, int from, int to, dag_err *err)
{
    return dag_add_edge(g, from, to, digits6(gsl_rng_uniform(dc->r) * dc->cmax), err);
}

dag *dag_generate(const dag_gen *P, dag_err *err)
{
    if (dag_gen_check(P, err) != DAG_OK)
        return NULL;
    struct dag_costs dc = {.r = gsl_rng_alloc(gsl_rng_mt19937), .q = P->q,
                           .wdag = P->wdag, .beta = P->beta,
                           .cmax = 2 * P->ccr * P->wdag,
                           .w = malloc((size_t)P->q * sizeof *dc.w)};
    dag *g = dag_new(P->q, err);
    int rc = DAG_OK;
    if (!g)
        rc = DAG_ENOMEM;        /* q was checked: dag_new set err */
    else if (!dc.r || !dc.w)
        rc = dag_fail(err, DAG_ENOMEM, "out of memory");
    if (rc == DAG_OK) {
        gsl_rng_set(dc.r, P->seed);
        rc = P->type->build(g, P, &dc, err);
    }
    /* The costs on the processors, processor by processor. */
    for (int p = 0; rc == DAG_OK && p < P->q; p++)
        for (int i = 0; i < dc.n; i++)
            DAG_W(g, i, p) = digits6(dc.mean[i] * (1 - P->beta / 2 +
                                                   gsl_rng_uniform(dc.r) * P->beta));
    if (rc == DAG_OK)
        rc = dag_finish(g, err);
    if (dc.r)
        gsl_rng_free(dc.r);
    free(dc.w);
    free(dc.mean);
    if (rc != DAG_OK) {
        dag_free(g);
        return NULL;
    }
    return g;
}
