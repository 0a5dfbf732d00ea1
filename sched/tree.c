/* tree.c: Tree-Scheduling (Kim & Purtilo, "Load balancing for parallel loops
 * in workstation clusters", ICPP 1996), the pieces that are policy.
 *
 * What the papers say: Xu & Chronopoulos Sec. 3.3: "They establish a
 * (virtual) linear topology according to the workstation's static speed.
 * Then load migration is only necessary between neighbors in one direction.
 * The (virtual) topology is constructed through a binary tree"; the scheme is
 * static ("the situation where a workstation's load may change during
 * program execution was not considered"). Díaz et al. Sec. 2 (TREES): "a
 * distributed load balancing scheme that statically arranges the processors
 * in a logical communication topology based on the computing powers of the
 * processors involved. When a processor becomes idle, it asks for work from a
 * single, predefined partner, which migrates half its work to the idle
 * processor."
 *
 * Our reading, as implemented (the messages are in worker/):
 *  1. The iterations are split once, in proportion to the static speeds V_i
 *     (no load measurement), into contiguous ranges (tree_split).
 *  2. The workers form a linear chain sorted by decreasing V_i (the in-order
 *     walk of a binary tree built on the speeds is such a sorted chain; we
 *     use the sorted chain directly) (tree_chain).
 *  3. An idle worker asks its single predefined partner, its neighbour one
 *     step down the chain (the next slower worker), worker to worker; the
 *     partner gives half of its remaining iterations, the upper half of its
 *     range (tree_give). Migration thus runs in one direction only, from
 *     slower to faster workers; the slowest worker has no partner, and no
 *     one takes work from the fastest.
 *  4. A partner with nothing to give says so, and the idle worker is done.
 * This reading reproduces what Xu & Chronopoulos report in their Table 2 (b):
 * with the fastest workstation W4 loaded, W1-W3 finish at 11-12 s while W4
 * needs 86 s, i.e. none of W4's work migrated. A ring (the last asking the
 * first) or asking further partners would have moved W4's work to the
 * others; we do not do that.
 */
#include "policy.h"

void tree_chain(const double *V, int n, int *order)
{
    for (int i = 0; i < n; i++) {
        int j = i;
        while (j > 0 && V[order[j - 1]] < V[i]) {
            order[j] = order[j - 1];
            j--;
        }
        order[j] = i;
    }
}

void tree_split(long I, const double *V, int n, const int *order, long *start,
                long *size)
{
    double total = 0;
    for (int i = 0; i < n; i++)
        total += V[i];
    long given = 0;
    for (int i = 0; i < n; i++) {
        size[i] = (long)((double)I * V[i] / total);
        given += size[i];
    }
    /* The few iterations left by rounding down go one each to the workers
     * with the largest remainders (ties: chain order). */
    while (given < I) {
        int best = order[0];
        double bestrem = -1;
        for (int k = 0; k < n; k++) {
            int i = order[k];
            double rem = (double)I * V[i] / total - (double)size[i];
            if (rem > bestrem) {
                bestrem = rem;
                best = i;
            }
        }
        size[best]++;
        given++;
    }
    long pos = 0;
    for (int k = 0; k < n; k++) {
        start[order[k]] = pos;
        pos += size[order[k]];
    }
}

int tree_partner(const int *order, int n, int w)
{
    for (int at = 0; at < n - 1; at++)
        if (order[at] == w)
            return order[at + 1];
    return -1;
}

long tree_give(long remaining)
{
    return remaining > 1 ? remaining / 2 : 0;
}
