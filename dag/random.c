/* random.c: the generator type "random", the random task graph generator
 * (RTGG) of Singh et al. Sec. 4, after Topcuoglu, Hariri & Wu Sec. 5.1.
 *
 *   levels    widths drawn until v tasks are placed, each 1 + floor(U (2m - 1))
 *             with m = alpha sqrt(v) (mean about m; the last level takes what
 *             is left), so the height is about v / m = sqrt(v) / alpha
 *   edges     every task below the top level gets one parent in the level just
 *             above; then every task above the bottom level gets children,
 *             drawn uniformly from all lower levels, up to out_degree
 *   costs     as every type's (generate.c): w_i ~ U[0, 2 W_DAG),
 *             w(i,p) ~ U[w_i (1 - beta/2), w_i (1 + beta/2)), c(i,j) ~ U[0, 2 CCR W_DAG)
 *
 * with U uniform from GSL's mt19937 seeded with 'seed'; the levels are drawn
 * first, then the tasks' w_i, then the edges (and last, in generate.c, the
 * costs on the processors). Readings (docs/dag.md):
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

#include "dag_impl.h"
#include "sched/util/conv.h"

static int check(const dag_gen *p, dag_err *err)
{
    if (p->v < 1 || p->v > DAG_GEN_MAX_TASKS)
        return dag_fail(err, DAG_EINVAL, "v=%d tasks: must be 1 to 10^7", p->v);
    if (!(p->alpha > 0) || !isfinite(p->alpha))
        return dag_fail(err, DAG_EINVAL, "alpha=%g: the shape must be > 0", p->alpha);
    if (p->out_degree < 1)
        return dag_fail(err, DAG_EINVAL, "out_degree=%d: must be >= 1", p->out_degree);
    /* A parent each below the top level, children up to out_degree. */
    double kids = p->out_degree < p->v - 1 ? p->out_degree : p->v - 1;
    double edges = (double)(p->v - 1) + (double)p->v * kids;
    if (edges > DAG_GEN_MAX_EDGES)
        return dag_fail(err, DAG_EINVAL, "v=%d tasks with out_degree=%d may make %.4g "
                        "edges, more than the %ld a generated graph holds", p->v,
                        p->out_degree, edges, DAG_GEN_MAX_EDGES);
    return DAG_OK;
}

static long tasks(const dag_gen *p)
{
    return p->v;
}

static int build(dag *g, const dag_gen *P, struct dag_costs *dc, dag_err *err)
{
    int v = P->v;
    gsl_rng *r = dc->r;
    int *level = malloc(((size_t)v + 2) * sizeof *level);   /* first task of each level */
    int *deg = calloc((size_t)v, sizeof *deg);              /* children so far */
    int *kids = malloc((size_t)v * sizeof *kids);           /* one task's children */
    int *pool = malloc((size_t)v * sizeof *pool);
    int *kid = malloc((size_t)v * sizeof *kid), *next = malloc((size_t)v * sizeof *next);
    int rc = DAG_OK;
    if (!level || !deg || !kids || !pool || !kid || !next) {
        rc = dag_fail(err, DAG_ENOMEM, "out of memory");
        goto out;
    }

    /* Levels: level[l] .. level[l+1]-1 are level l's tasks. */
    double m = P->alpha * sqrt((double)v);
    int h = 0;
    level[0] = 0;
    while (level[h] < v) {
        /* u (2m - 1) < 2m: clamped to v (the library bounds alpha only
         * above 0), it is cut to the tasks left just below anyway */
        int width = m > 1 ? 1 + (int)conv_clamp(floor(gsl_rng_uniform(r) * (2 * m - 1)),
                                                0, v) : 1;
        if (width > v - level[h])
            width = v - level[h];
        level[h + 1] = level[h] + width;
        h++;
    }

    /* Tasks t1 .. tv, level by level. */
    for (int i = 0; i < v && rc == DAG_OK; i++) {
        char name[24];
        snprintf(name, sizeof name, "t%d", i + 1);
        rc = dag_costs_task(dc, g, name, err);
    }

    /* One parent in the level above, for every task below the top; kid[]
     * and next[] chain each task's children from this pass. */
    for (int i = 0; i < v; i++)
        kid[i] = -1;
    for (int l = 1; l < h && rc == DAG_OK; l++)
        for (int j = level[l]; j < level[l + 1] && rc == DAG_OK; j++) {
            int k = level[l - 1] + (int)gsl_rng_uniform_int(r,
                        (unsigned long)(level[l] - level[l - 1]));
            rc = dag_costs_edge(dc, g, k, j, err);
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
                rc = dag_costs_edge(dc, g, i, kids[k], err);
            deg[i] = want;
        }
    }
out:
    free(level); free(deg); free(kids); free(pool); free(kid); free(next);
    return rc;
}

const dag_gen_type dag_gen_random = {
    "random",
    "levels of random width, random edges downward (Singh et al. Sec. 4; "
    "Topcuoglu et al. Sec. 5.1)",
    check, tasks, build,
};
