/* cpop.c: Critical Path On a Processor.
 *
 *   priority(i) = ru(i) + rd(i)                        (eq. 5, 6)
 *   |CP| = priority(entry); SET_CP = entry, then repeatedly the child with
 *   priority |CP|, to the exit task
 *   p_CP = argmin_p sum_{i in SET_CP} w(i,p)
 *   ready tasks in a priority queue, highest priority first: a task of
 *   SET_CP goes to p_CP, any other to the processor of least EFT
 *
 * Topcuoglu, Hariri & Wu, IEEE TPDS 13(3) 2002, Sec. 4.2 and Fig. 5; Singh
 * et al. Sec. 5 steps 1-18. Known value: Topcuoglu's Fig. 2 graph, makespan
 * 86 (their Fig. 4b), critical path n1 n2 n9 n10 on P2.
 *
 * Both critical-path tasks and the others take the insertion-based EST on
 * their processor (schedule.c). Ties in priority go to the lower task index,
 * in EFT to the lower processor. DCPOP (dcpop.c) is this with another
 * placement for the tasks off the critical path.
 */
#include <stdlib.h>

#include "dag_impl.h"
#include "sched/util/heap.h"

/* The order of the ready tasks (sched/util/heap.h, smallest first): the highest
 * priority first, ties to the lower task index. */
static int before(const void *a, const void *b, void *ctx)
{
    const double *prio = ctx;
    int i = *(const int *)a, j = *(const int *)b;
    if (prio[i] != prio[j])
        return prio[i] > prio[j];
    return i < j;
}

int dag_cpop_run(dag_schedule *s, dag_place_fn place, dag_err *err)
{
    const dag *g = s->g;
    size_t n = (size_t)g->n;
    double *ru = malloc(n * sizeof *ru), *rd = malloc(n * sizeof *rd);
    double *prio = malloc(n * sizeof *prio);
    int *path = malloc(n * sizeof *path), *oncp = calloc(n, sizeof *oncp);
    int *waiting = malloc(n * sizeof *waiting);
    heap ready;
    heap_init(&ready, sizeof(int), before, prio);
    int rc = DAG_OK;
    if (!ru || !rd || !prio || !path || !oncp || !waiting) {
        rc = dag_fail(err, DAG_ENOMEM, "out of memory");
        goto out;
    }
    dag_rank_up(g, ru);
    dag_rank_down(g, rd);
    for (size_t i = 0; i < n; i++)
        prio[i] = ru[i] + rd[i];
    int pcp, len = dag_critical_path(g, ru, rd, path, &pcp);
    for (int k = 0; k < len; k++)
        oncp[path[k]] = 1;
    for (size_t i = 0; i < n; i++)
        waiting[i] = g->pred_at[i + 1] - g->pred_at[i];
    if (heap_push(&ready, &g->entry) != 0)
        rc = dag_fail(err, DAG_ENOMEM, "out of memory");
    int i;
    while (rc == DAG_OK && heap_pop(&ready, &i)) {
        if (oncp[i]) {
            double w = DAG_W(g, i, pcp);
            rc = dag_place(s, i, pcp, dag_slot(s, pcp, dag_ready(s, i, pcp), w),
                           0, err);
        } else
            rc = place(s, i, err);
        for (int e = g->succ_at[i]; e < g->succ_at[i + 1] && rc == DAG_OK; e++)
            if (--waiting[g->succ[e]] == 0 && heap_push(&ready, &g->succ[e]) != 0)
                rc = dag_fail(err, DAG_ENOMEM, "out of memory");
    }
out:
    free(ru); free(rd); free(prio); free(path); free(oncp); free(waiting);
    heap_free(&ready);
    return rc;
}

static int run(dag_schedule *s, dag_err *err)
{
    return dag_cpop_run(s, dag_place_eft, err);
}

const dag_algo dag_cpop = {
    .name = "cpop",
    .summary = "CPOP: by upward + downward rank, the critical path on one "
               "processor (Topcuoglu et al. 2002)",
    .run = run,
};
