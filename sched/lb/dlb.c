/* dlb.c: decentral load balancing (DLB), the rival Yoon et al. call
 * "decentral" (Sec. 4.1): Willebeek-LeMair & Reeves' sender-initiated
 * diffusion (SID), each node balancing its own neighbourhood from its
 * neighbours' queue lengths only, no master.
 *
 * The rule (SID), for node p with load L_p = n_p and K neighbours N(p):
 *
 *   L_avg(p) = (L_p + sum_{k in N(p)} L_k) / (K + 1)   its domain's mean
 *   h_k      = max(L_avg(p) - L_k, 0)                   neighbour k's deficit
 *   H        = sum_k h_k
 *   if L_p > L_avg(p): node p sends delta_k = (L_p - L_avg(p)) h_k / H
 *                      tasks to each neighbour k
 *
 * Every node decides at once from the counts at the start of the balancing
 * (one round per balancing: the next balancing diffuses further), so a
 * node may both send and receive. In whole tasks: node p sends
 * floor(L_p - L_avg(p)) tasks in all, the delta_k's floors first and the
 * rest one each to the largest fractional parts (ties: the lower
 * dimension), so neighbour k gets floor(delta_k) or ceil(delta_k) -- never
 * more than the rule's total, so p keeps at least its domain mean of its
 * own tasks (and at least one: L_avg(p) > 0 when L_p > 0). Computed in
 * integers (times (K + 1) H), exactly.
 *
 * The neighbourhood: the hypercube's. Node i's neighbours are i XOR 2^d for
 * d = 0, 1, ... while 2^d < P, those < P (for P not a power of 2, the
 * incomplete hypercube: still connected -- clearing i's highest bit leads
 * to 0). Why: Yoon et al.'s cluster is a switch (Sec. 3.1), with no wiring
 * to follow, grouped in powers of 2 (Sec. 4.1: 4 .. 128 nodes), and
 * Willebeek-LeMair & Reeves ran their strategies on a hypercube (the Intel
 * iPSC/2); a ring would take P/2 balancings to carry a surplus across, the
 * hypercube log2 P, at log2 P neighbours each.
 *
 * Deterministic order: senders by index, each to its neighbours by
 * dimension. The moves are the same whatever the order (every decision
 * uses the counts before any move); the order only fixes the move list.
 *
 * Exchange (lb.h): every node sends its count to each neighbour and
 * receives each neighbour's, 2 x deg(i) messages; no master, no orders (a
 * sender just sends). For P = 2^D: 2D per node, against the central
 * master's 2 (P - 1).
 *
 * What it ignores, like CLB: the rates T_task_i and C_t (SID balances task
 * counts), and anything beyond the neighbours. So max E can rise, and one
 * round can overshoot: a node below three sending neighbours may receive
 * from all three.
 *
 * d_i = 0. SID needs only the counts: an unmeasured node takes part like
 * any other (its E stays NAN and is in no max).
 *
 * Source, and where we chose. DLB is named, not defined, in Yoon et al.
 * Sec. 4.1. Their reference [4], Willebeek-LeMair & Reeves, "Strategies for
 * Dynamic Load Balancing on Highly Parallel Computers", IEEE TPDS 4(9),
 * 1993, presents five (sender- and receiver-initiated diffusion,
 * hierarchical balancing, gradient model, dimension exchange) trading
 * "knowledge -- the accuracy of each balancing decision" against
 * "overhead" (its abstract; the full text was not in our search). The SID
 * formula above is as a public MPI implementation citing [4] computes it
 * (the repa library's "willebeek" diffusion flow: domain mean over the node
 * and its neighbours, deficits max(mean - L_k, 0), the surplus shared in
 * proportion). Ours: SID rather than RID (tasks leave a loaded node, as in
 * yoon), the hypercube, one round per balancing, the whole-task rounding.
 *
 * Known value (tests/test_lb.c, worked there by hand): P = 4, n = 11, 0, 0,
 * 6, d = 1, 1, 1, 1, t = 1, C = 0.5: node 1 (from 1) sends 4 to node 2 and
 * 3 to node 3, node 4 sends 2 to node 3 and 2 to node 2; after 4, 6, 5, 2;
 * max E 11 -> 9.
 */
#include "sched/lb/lb.h"

#define MAX_DIMS 10                     /* 2^10 = LB_MAX_NODES */

/* Node i's neighbours, by dimension; returns how many. */
static int neighbours(int nodes, int i, int *nb)
{
    int k = 0;
    for (int d = 0; d < MAX_DIMS && (1 << d) < nodes; d++)
        if ((i ^ (1 << d)) < nodes)
            nb[k++] = i ^ (1 << d);
    return k;
}

/* Node i's SID sends, from the counts n[]: amounts per neighbour in out[]
 * (all 0 when it does not send). */
static void sends(const long *n, int i, const int *nb, int k, long *out)
{
    long long sum = n[i];
    for (int j = 0; j < k; j++)
        sum += n[nb[j]];
    long long excess = (k + 1) * (long long)n[i] - sum;     /* (K+1)(L_p - L_avg) */
    long long h[MAX_DIMS], hsum = 0, rem[MAX_DIMS];
    for (int j = 0; j < k; j++) {
        out[j] = 0;
        h[j] = sum - (k + 1) * (long long)n[nb[j]];           /* (K+1) h_k */
        if (h[j] < 0)
            h[j] = 0;
        hsum += h[j];
    }
    if (excess <= 0 || hsum == 0)
        return;
    /* delta_k = excess h_k / ((K+1) H), all in (K+1) units */
    long long den = (k + 1) * hsum, whole = excess / (k + 1), given = 0;
    for (int j = 0; j < k; j++) {
        out[j] = (long)(excess * h[j] / den);
        rem[j] = excess * h[j] % den;
        given += out[j];
    }
    for (; given < whole; given++) {    /* largest fractional part first */
        int best = -1;
        for (int j = 0; j < k; j++)
            if (h[j] > 0 && (best < 0 || rem[j] > rem[best]))
                best = j;
        out[best]++;
        rem[best] = -1;
    }
}

static int plan(lb_plan *p, double cost, sched_err *err)
{
    (void)cost;                         /* ignored: see above */
    for (int i = 0; i < p->nodes; i++) {
        int nb[MAX_DIMS];
        long amount[MAX_DIMS];
        int k = neighbours(p->nodes, i, nb);
        sends(p->remaining, i, nb, k, amount);
        for (int j = 0; j < k; j++)
            for (long t = 0; t < amount[j]; t++) {
                int rc = lb_plan_move(p, i, nb[j], err);
                if (rc != SCHED_OK)
                    return rc;
            }
    }
    return SCHED_OK;
}

static void exchange(int nodes, long *msgs)
{
    int nb[MAX_DIMS];
    for (int i = 0; i < nodes; i++)
        msgs[i] = 2L * neighbours(nodes, i, nb);
}

const lb_type lb_dlb = {
    .name = "dlb",
    .summary = "decentral, counts only: diffusion among hypercube neighbours (W.-LeMair "
               "& Reeves' SID)",
    .plan = plan,
    .exchange = exchange,
};
