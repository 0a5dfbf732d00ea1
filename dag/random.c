/* random.c: the random task graph generator (RTGG) of Singh et al. Sec. 4,
 * after Topcuoglu, Hariri & Wu Sec. 5.1.
 *
 *   levels    widths drawn until v tasks are placed, each 1 + floor(U (2m - 1))
 *             with m = alpha sqrt(v) (mean about m; the last level takes what
 *             is left), so the height is about v / m = sqrt(v) / alpha
 *   edges     every task below the top level gets one parent in the level just
 *             above; then every task above the bottom level gets children,
 *             drawn uniformly from all lower levels, up to out_degree
 *   costs     w_i ~ U[0, 2 W_DAG); w(i,p) ~ U[w_i (1 - beta/2), w_i (1 + beta/2))
 *   edges     c(i,j) ~ U[0, 2 CCR W_DAG), so mean c / mean w = CCR
 *
 * with U uniform from GSL's mt19937 seeded with 'seed'. Readings (docs/dag.md):
 * Singh's "height sqrt(v/alpha)" is taken as Topcuoglu's sqrt(v)/alpha (the only
 * one for which height times width is v); "out_degree from 1 to v" as the
 * number of children of each task, so a task may get more when a wider level
 * below needs parents; the heterogeneity range beta and the cost of an edge
 * are Topcuoglu's. Known value: over many graphs the mean cost is W_DAG, the
 * mean edge cost CCR W_DAG and the mean height sqrt(v)/alpha, within sampling
 * error (tests/test_dag.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "dag_impl.h"

void dag_gen_init(dag_gen *p)
{
    *p = (dag_gen){.v = 20, .alpha = 1, .out_degree = 3, .ccr = 1, .wdag = 50,
                   .beta = 0.5, .q = 4, .seed = 1};
}

int dag_gen_check(const dag_gen *p, dag_err *err)
{
    if (p->v < 1 || p->v > 10000000)
        return dag_fail(err, DAG_EINVAL, "v=%d tasks: must be 1 to 10^7", p->v);
    if (!(p->alpha > 0) || !isfinite(p->alpha))
        return dag_fail(err, DAG_EINVAL, "alpha=%g: the shape must be > 0", p->alpha);
    if (p->out_degree < 1)
        return dag_fail(err, DAG_EINVAL, "out_degree=%d: must be >= 1", p->out_degree);
    if (!(p->ccr >= 0) || !isfinite(p->ccr))
        return dag_fail(err, DAG_EINVAL, "ccr=%g: must be >= 0", p->ccr);
    if (!(p->wdag > 0) || !isfinite(p->wdag))
        return dag_fail(err, DAG_EINVAL, "wdag=%g: the mean cost must be > 0", p->wdag);
    if (!(p->beta >= 0 && p->beta <= 2))
        return dag_fail(err, DAG_EINVAL, "beta=%g: the heterogeneity must be "
                        "0 to 2 (costs w_i (1 +- beta/2) >= 0)", p->beta);
    if (p->q < 1 || p->q > 1000000)
        return dag_fail(err, DAG_EINVAL, "q=%d processors: must be 1 to 10^6", p->q);
    return DAG_OK;
}

/* x to 6 significant digits, as dag_write's text reads back exactly. */
static double digits6(double x)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%.6g", x);
    return strtod(buf, NULL);
}

dag *dag_generate(const dag_gen *P, dag_err *err)
{
    if (dag_gen_check(P, err) != DAG_OK)
        return NULL;
    int v = P->v, q = P->q;
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    dag *g = dag_new(q, err);
    int *level = malloc(((size_t)v + 2) * sizeof *level);   /* first task of each level */
    int *deg = calloc((size_t)v, sizeof *deg);              /* children so far */
    int *kids = malloc((size_t)v * sizeof *kids);           /* one task's children */
    int *pool = malloc((size_t)v * sizeof *pool);
    int *kid = malloc((size_t)v * sizeof *kid), *next = malloc((size_t)v * sizeof *next);
    double *w = malloc((size_t)q * sizeof *w);
    int rc = DAG_OK;
    if (!r || !g || !level || !deg || !kids || !pool || !kid || !next || !w) {
        rc = dag_fail(err, DAG_ENOMEM, "out of memory");
        goto out;
    }
    gsl_rng_set(r, P->seed);

    /* Levels: level[l] .. level[l+1]-1 are level l's tasks. */
    double m = P->alpha * sqrt((double)v);
    int h = 0;
    level[0] = 0;
    while (level[h] < v) {
        int width = m > 1 ? 1 + (int)floor(gsl_rng_uniform(r) * (2 * m - 1)) : 1;
        if (width > v - level[h])
            width = v - level[h];
        level[h + 1] = level[h] + width;
        h++;
    }

    /* Tasks t1 .. tv, level by level. */
    for (int i = 0; i < v && rc == DAG_OK; i++) {
        double wi = gsl_rng_uniform(r) * 2 * P->wdag;
        for (int p = 0; p < q; p++)
            w[p] = digits6(wi * (1 - P->beta / 2 + gsl_rng_uniform(r) * P->beta));
        char name[24];
        snprintf(name, sizeof name, "t%d", i + 1);
        if (dag_add_task(g, name, w, err) < 0)
            rc = err->code;
    }

    /* One parent in the level above, for every task below the top; kid[]
     * and next[] chain each task's children from this pass. */
    double cmax = 2 * P->ccr * P->wdag;
    for (int i = 0; i < v; i++)
        kid[i] = -1;
    for (int l = 1; l < h && rc == DAG_OK; l++)
        for (int j = level[l]; j < level[l + 1] && rc == DAG_OK; j++) {
            int k = level[l - 1] + (int)gsl_rng_uniform_int(r,
                        (unsigned long)(level[l] - level[l - 1]));
            rc = dag_add_edge(g, k, j, digits6(gsl_rng_uniform(r) * cmax), err);
            next[j] = kid[k];
            kid[k] = j;
            deg[k]++;
        }

    /* Children up to out_degree, uniformly from the levels below. */
    for (int l = 0; l + 1 < h && rc == DAG_OK; l++) {
        int below = v - level[l + 1];
        for (int i = level[l]; i < level[l + 1] && rc == DAG_OK; i++) {
            int want = P->out_degree < below ? P->out_degree : below;
            if (deg[i] >= want)
                continue;
            int nk = 0;                 /* i's children so far, then the new */
            for (int j = kid[i]; j >= 0; j = next[j])
                kids[nk++] = j;
            int add = want - nk;
            if (4 * want < below) {
                /* Few among many: draw, skipping the tasks already chosen. */
                while (nk < want) {
                    int j = level[l + 1] + (int)gsl_rng_uniform_int(r, (unsigned long)below);
                    int have = 0;
                    for (int k = 0; k < nk && !have; k++)
                        have = kids[k] == j;
                    if (!have)
                        kids[nk++] = j;
                }
            } else {
                /* Many: choose among every lower task not yet a child. */
                int npool = 0;
                for (int j = level[l + 1]; j < v; j++) {
                    int have = 0;
                    for (int k = 0; k < nk && !have; k++)
                        have = kids[k] == j;
                    if (!have)
                        pool[npool++] = j;
                }
                gsl_ran_choose(r, kids + nk, (size_t)add, pool, (size_t)npool,
                               sizeof *pool);
                nk += add;
            }
            for (int k = want - add; k < want && rc == DAG_OK; k++)
                rc = dag_add_edge(g, i, kids[k], digits6(gsl_rng_uniform(r) * cmax), err);
            deg[i] = want;
        }
    }
    if (rc == DAG_OK)
        rc = dag_finish(g, err);
out:
    gsl_rng_free(r);
    free(level); free(deg); free(kids); free(pool); free(kid); free(next); free(w);
    if (rc != DAG_OK) {
        dag_free(g);
        return NULL;
    }
    return g;
}
