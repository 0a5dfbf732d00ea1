/* gauss.c: the generator type "gauss", the task graph of Gaussian
 * elimination on an m x m matrix (Singh et al. Fig. 2; the graph of
 * Topcuoglu, Hariri & Wu, IEEE TPDS 13(3) 2002, Sec. 6.1, Fig. 9, after Wu &
 * Gajski's Hypertool, IEEE TPDS 1(3) 1990):
 *
 *   for step k = 1 .. m-1: the pivot column operation T<k>_<k> and the update
 *   operations T<k>_<j>, j = k+1 .. m, with the edges
 *     T<k>_<k>   -> T<k>_<j>        (every update of step k needs the pivot)
 *     T<k>_<k+1> -> T<k+1>_<k+1>    (the updated column k+1 is the next pivot)
 *     T<k>_<j>   -> T<k+1>_<j>      (j >= k+2: column j, updated again)
 *
 *   tasks  (m^2 + m - 2) / 2        edges  m^2 - m - 1
 *
 * "The total number of tasks in the graph is (m^2 + m - 2)/2" (Topcuoglu et
 * al.). One entry, T1_1, and one exit, T<m-1>_<m>. Tasks are numbered step by
 * step, the pivot first. Costs are drawn as for every type (generate.c).
 * Known value: m = 5 gives 14 tasks (Topcuoglu's Fig. 9) and 19 edges;
 * m = 4 gives 9 tasks and 11 edges, spelled out in tests/test_dag.c.
 */
#include <stdio.h>

#include "dag_impl.h"

/* The largest m: 4471 gives 9,997,155 tasks, 4472 more than 10^7. */
#define MAX_SIZE 4471

static int check(const dag_gen *p, dag_err *err)
{
    if (p->size < 2 || p->size > MAX_SIZE)
        return dag_fail(err, DAG_EINVAL, "size=%d: the matrix size must be 2 to %d "
                        "(at most 10^7 tasks)", p->size, MAX_SIZE);
    return DAG_OK;
}

static long tasks(const dag_gen *p)
{
    long m = p->size;
    return (m * m + m - 2) / 2;
}

/* The index of T<k>_<j> (1 <= k < m, k <= j <= m): steps 1 .. k-1 hold
 * m - i + 1 tasks each. */
static int task_at(int m, int k, int j)
{
    return (k - 1) * (m + 1) - (k - 1) * k / 2 + (j - k);
}

static int build(dag *g, const dag_gen *p, struct dag_costs *dc, dag_err *err)
{
    int m = p->size, rc = DAG_OK;
    char name[32];
    for (int k = 1; k < m; k++)
        for (int j = k; j <= m && rc == DAG_OK; j++) {
            snprintf(name, sizeof name, "T%d_%d", k, j);
            rc = dag_costs_task(dc, g, name, err);
        }
    for (int k = 1; k < m; k++)
        for (int j = k + 1; j <= m && rc == DAG_OK; j++) {
            rc = dag_costs_edge(dc, g, task_at(m, k, k), task_at(m, k, j), err);
            if (rc == DAG_OK && k + 1 < m)
                rc = dag_costs_edge(dc, g, task_at(m, k, j), task_at(m, k + 1, j), err);
        }
    return rc;
}

const dag_gen_type dag_gen_gauss = {
    "gauss",
    "Gaussian elimination on an m x m matrix: (m^2+m-2)/2 tasks "
    "(Topcuoglu et al. 2002 Fig. 9)",
    check, tasks, build,
};
