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

/* The ready tasks: a binary heap, highest priority on top. */
typedef struct { int *t, n; const double *prio; } heap;

static int above(const heap *h, int a, int b)
{
    if (h->prio[a] != h->prio[b])
        return h->prio[a] > h->prio[b];
    return a < b;
}

static void push(heap *h, int task)
{
    int k = h->n++;
    while (k > 0 && above(h, task, h->t[(k - 1) / 2])) {
        h->t[k] = h->t[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    h->t[k] = task;
}

static int pop(heap *h)
{
    int top = h->t[0], last = h->t[--h->n], k = 0;
    for (;;) {
        int c = 2 * k + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && above(h, h->t[c + 1], h->t[c]))
            c++;
        if (!above(h, h->t[c], last))
            break;
        h->t[k] = h->t[c];
        k = c;
    }
    if (h->n > 0)
        h->t[k] = last;
    return top;
}

int dag_cpop_run(dag_schedule *s, dag_place_fn place, dag_err *err)
{
    const dag *g = s->g;
    size_t n = (size_t)g->n;
    double *ru = malloc(n * sizeof *ru), *rd = malloc(n * sizeof *rd);
    double *prio = malloc(n * sizeof *prio);
    int *path = malloc(n * sizeof *path), *oncp = calloc(n, sizeof *oncp);
    int *waiting = malloc(n * sizeof *waiting);
    heap h = {malloc(n * sizeof *h.t), 0, NULL};
    int rc = DAG_OK;
    if (!ru || !rd || !prio || !path || !oncp || !waiting || !h.t) {
        rc = dag_fail(err, DAG_ENOMEM, "out of memory");
        goto out;
    }
    dag_rank_up(g, ru);
    dag_rank_down(g, rd);
    for (size_t i = 0; i < n; i++)
        prio[i] = ru[i] + rd[i];
    h.prio = prio;
    int pcp, len = dag_critical_path(g, ru, rd, path, &pcp);
    for (int k = 0; k < len; k++)
        oncp[path[k]] = 1;
    for (size_t i = 0; i < n; i++)
        waiting[i] = g->pred_at[i + 1] - g->pred_at[i];
    push(&h, g->entry);
    while (h.n > 0 && rc == DAG_OK) {
        int i = pop(&h);
        if (oncp[i]) {
            double w = DAG_W(g, i, pcp);
            rc = dag_place(s, i, pcp, dag_slot(s, pcp, dag_ready(s, i, pcp), w),
                           0, err);
        } else
            rc = place(s, i, err);
        for (int e = g->succ_at[i]; e < g->succ_at[i + 1]; e++)
            if (--waiting[g->succ[e]] == 0)
                push(&h, g->succ[e]);
    }
out:
    free(ru); free(rd); free(prio); free(path); free(oncp); free(waiting); free(h.t);
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
