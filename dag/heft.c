/* heft.c: Heterogeneous Earliest Finish Time.
 *
 *   1. ru(i) = wbar(i) + max_{j in succ(i)} (c(i,j) + ru(j))   (eq. 5)
 *   2. list the tasks by decreasing ru
 *   3. for each task in turn: the processor p minimising
 *      EFT(i, p) = EST(i, p) + w(i,p), EST with the insertion-based policy
 *
 * Topcuoglu, Hariri & Wu, IEEE TPDS 13(3) 2002, Sec. 4.1 and Fig. 3. Known
 * value: their Fig. 2 graph on three processors, makespan 80 (Fig. 4a; the
 * whole schedule is checked in tests/test_dag.c).
 *
 * Ties in ru (the paper breaks them at random) go to the task earlier in
 * dag.h's topological order; since ru(parent) >= ru(child) with non-negative
 * costs, the list is then always a topological order, even with zero costs.
 * Ties in EFT go to the lowest processor.
 */
#include <stdlib.h>

#include "dag_impl.h"

typedef struct { double ru; int pos, task; } item;

static int by_rank(const void *a, const void *b)
{
    const item *x = a, *y = b;
    if (x->ru != y->ru)
        return x->ru > y->ru ? -1 : 1;
    return (x->pos > y->pos) - (x->pos < y->pos);
}

static int run(dag_schedule *s, dag_err *err)
{
    const dag *g = s->g;
    double *ru = malloc((size_t)g->n * sizeof *ru);
    item *list = malloc((size_t)g->n * sizeof *list);
    if (!ru || !list) {
        free(ru); free(list);
        return dag_fail(err, DAG_ENOMEM, "out of memory");
    }
    dag_rank_up(g, ru);
    for (int t = 0; t < g->n; t++)
        list[t] = (item){ru[g->topo[t]], t, g->topo[t]};
    qsort(list, (size_t)g->n, sizeof *list, by_rank);
    int rc = DAG_OK;
    for (int t = 0; t < g->n && rc == DAG_OK; t++)
        rc = dag_place_eft(s, list[t].task, err);
    free(ru);
    free(list);
    return rc;
}

const dag_algo dag_heft = {
    .name = "heft",
    .summary = "HEFT: by upward rank, each task where it finishes first "
               "(Topcuoglu et al. 2002)",
    .run = run,
};
