/* fft.c: the generator type "fft", the task graph of the recursive Fast
 * Fourier Transform on m = 2^k input points (Singh et al. Fig. 1; the graph
 * of Topcuoglu, Hariri & Wu, IEEE TPDS 13(3) 2002, Sec. 6.2, Fig. 11, after
 * the recursive FFT of Cormen, Leiserson & Rivest's "Introduction to
 * Algorithms"):
 *
 *   recursive calls   2m - 1 tasks r1 .. r(2m-1), a complete binary tree in
 *                     heap order: r_i calls r_2i and r_(2i+1) (edges r_i ->
 *                     r_2i, r_i -> r_(2i+1)); the m leaves r_m .. r_(2m-1)
 *                     are the input points, at positions 0 .. m-1
 *   butterflies       m log2 m tasks b<s>_<i>, log2 m levels s = 1 .. log2 m
 *                     of m tasks, positions i = 0 .. m-1: b<s>_<i> takes the
 *                     outputs at positions i and i XOR 2^(s-1) of the level
 *                     above (the leaves for s = 1)
 *
 *   tasks  2m - 1 + m log2 m        edges  2(m - 1) + 2 m log2 m
 *
 * "For an input vector of size m, there are 2 x m - 1 recursive call tasks
 * and m x log2 m butterfly operation tasks" (Topcuoglu et al.). The one entry
 * is r1; the m tasks of the last level are the exits, joined by the pseudo
 * exit task (dag_finish). Costs are drawn as for every type (generate.c).
 * Known value: m = 4 gives 15 tasks and 22 edges, b1_0 and b1_1 both
 * children of r4 and r5, b2_0 of b1_0 and b1_2 (tests/test_dag.c).
 */
#include <stdio.h>

#include "dag_impl.h"

/* The largest m: 2^18 points give 5,242,879 tasks, 2^19 more than 10^7. */
#define MAX_POINTS (1 << 18)

static int log2_of(int m)
{
    int k = 0;
    while ((1 << k) < m)
        k++;
    return k;
}

static int check(const dag_gen *p, dag_err *err)
{
    if (p->size < 2 || p->size > MAX_POINTS || (p->size & (p->size - 1)) != 0)
        return dag_fail(err, DAG_EINVAL, "size=%d: the FFT's input points must be a "
                        "power of 2 from 2 to %d", p->size, MAX_POINTS);
    return DAG_OK;
}

static long tasks(const dag_gen *p)
{
    return 2L * p->size - 1 + (long)p->size * log2_of(p->size);
}

static int build(dag *g, const dag_gen *p, struct dag_costs *dc, dag_err *err)
{
    int m = p->size, k = log2_of(m), rc = DAG_OK;
    char name[32];
    /* Tasks: r1 .. r(2m-1) are indices 0 .. 2m-2; b<s>_<i> is index
     * 2m - 1 + (s - 1) m + i. */
    for (int i = 1; i <= 2 * m - 1 && rc == DAG_OK; i++) {
        snprintf(name, sizeof name, "r%d", i);
        rc = dag_costs_task(dc, g, name, err);
    }
    for (int s = 1; s <= k; s++)
        for (int i = 0; i < m && rc == DAG_OK; i++) {
            snprintf(name, sizeof name, "b%d_%d", s, i);
            rc = dag_costs_task(dc, g, name, err);
        }
    /* The calls' tree. */
    for (int i = 1; i < m && rc == DAG_OK; i++) {
        rc = dag_costs_edge(dc, g, i - 1, 2 * i - 1, err);
        if (rc == DAG_OK)
            rc = dag_costs_edge(dc, g, i - 1, 2 * i, err);
    }
    /* The butterflies: level s - 1 starts at 'above' (the leaves: index m - 1). */
    for (int s = 1; s <= k; s++) {
        int above = s == 1 ? m - 1 : 2 * m - 1 + (s - 2) * m;
        int here = 2 * m - 1 + (s - 1) * m, span = 1 << (s - 1);
        for (int i = 0; i < m && rc == DAG_OK; i++) {
            int a = i < (i ^ span) ? i : i ^ span, b = a ^ span;
            rc = dag_costs_edge(dc, g, above + a, here + i, err);
            if (rc == DAG_OK)
                rc = dag_costs_edge(dc, g, above + b, here + i, err);
        }
    }
    return rc;
}

const dag_gen_type dag_gen_fft = {
    "fft",
    "recursive FFT on m = 2^k points: 2m-1 call tasks, m log2 m butterflies "
    "(Topcuoglu et al. 2002 Fig. 11)",
    check, tasks, build,
};
