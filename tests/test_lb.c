/* test_lb.c: the load-balancing strategies (sched/lb.c, lb_yoon.c,
 * lb_none.c) on an example worked by hand, the readings of lb_yoon.c, the
 * errors, then properties over every strategy on random inputs (GSL's
 * gsl_rng, a fixed seed). Source of the rules: Yoon et al., Sec. 3.2,
 * eq. 1-4 and E_i. */
#include <math.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "sched/lb.h"
#include "tests/test.h"

static lb_plan *make(const char *name, int P, const long *n, const long *d, double t,
                     double C, sched_err *err)
{
    lb_input in = {.nodes = P, .remaining = n, .done = d, .elapsed = t, .cost = C};
    return lb_plan_make(lb_type_find(name, err), &in, err);
}

/* Worked by hand (the known value in lb_yoon.c's header; nodes from 0 here):
 *   n = 10, 2, 0; d = 6, 3, 2; t = 12; C = 1.
 *   eq. 1: T = 12/6, 12/3, 12/2 = 2, 4, 6.  eq. 2: N_total = 12.
 *   eq. 4: sum 1/T = 1/2 + 1/4 + 1/6 = 11/12; shares 12 x (1/T_i) / (11/12)
 *          = 72/11, 36/11, 24/11 = 6.545, 3.273, 2.182.
 *   target: floors 6, 3, 2 (11 tasks); the 12th goes to the node that would
 *          finish it first: 7 x 2 = 14 < 4 x 4 = 16 < 3 x 6 = 18: node 0.
 *          7, 3, 2 (the largest remainder, .545, agrees here).
 *   E before: 10 x 2, 2 x 4, 0 x 6 = 20, 8, 0; max 20.
 *   move 1: sender node 0 (E 20, 10 > 7). Receivers: node 1 (2 < 3):
 *          3 x 4 + 1 = 13; node 2 (0 < 2): 1 x 6 + 1 = 7 -> node 2.
 *          node 0 after: 9 x 2 + 1 = 19 < 20, 7 < 20: moves. E 19, 8, 7.
 *   move 2: node 0 (E 19). node 1: 3 x 4 + 1 = 13; node 2: 2 x 6 + 2 = 14
 *          -> node 1. node 0: 8 x 2 + 2 = 18 < 19, 13 < 19: moves. E 18, 13, 7.
 *   move 3: node 0 (E 18, 8 > 7). node 1 is at its target; node 2:
 *          2 x 6 + 2 = 14. node 0: 7 x 2 + 3 = 17 < 18, 14 < 18: moves.
 *          E 17, 13, 14; node 0 is at its target: no sender, done.
 *   Moves: 0 -> 2: 2, 0 -> 1: 1. max E 20 -> 17. */
static void test_hand(void)
{
    const long n[] = {10, 2, 0}, d[] = {6, 3, 2};
    sched_err err;
    lb_plan *p = make("yoon", 3, n, d, 12, 1, &err);
    test_cond("hand example: a plan", p != NULL);
    if (!p)
        return;
    test_cond("hand: T_task = 2, 4, 6 (eq. 1)",
              p->t_task[0] == 2 && p->t_task[1] == 4 && p->t_task[2] == 6);
    test_cond("hand: N_total = 12 (eq. 2)", p->total == 12);
    test_cond("hand: shares 72/11, 36/11, 24/11 (eq. 4)",
              fabs(p->share[0] - 72.0 / 11) < 1e-12 && fabs(p->share[1] - 36.0 / 11) < 1e-12 &&
              fabs(p->share[2] - 24.0 / 11) < 1e-12);
    test_cond("hand: target 7, 3, 2",
              p->target[0] == 7 && p->target[1] == 3 && p->target[2] == 2);
    test_cond("hand: E before 20, 8, 0, max 20",
              p->e_before[0] == 20 && p->e_before[1] == 8 && p->e_before[2] == 0 &&
              p->max_before == 20);
    test_cond("hand: moves 0 -> 2: 2, then 0 -> 1: 1",
              p->nmoves == 2 && p->move[0].from == 0 && p->move[0].to == 2 &&
              p->move[0].count == 2 && p->move[1].from == 0 && p->move[1].to == 1 &&
              p->move[1].count == 1);
    test_cond("hand: after 7, 3, 2; E after 17, 13, 14; max 17",
              p->after[0] == 7 && p->after[1] == 3 && p->after[2] == 2 &&
              p->e_after[0] == 17 && p->e_after[1] == 13 && p->e_after[2] == 14 &&
              p->max_after == 17);
    lb_plan_free(p);

    /* C = 3 > T_task 2 of the sender: its E would rise with every task sent. */
    p = make("yoon", 3, n, d, 12, 3, &err);
    test_cond("hand, C = 3 >= T_task of the latest node (2): nothing moves",
              p && p->nmoves == 0 && p->max_after == 20);
    lb_plan_free(p);
    /* C = 0: the target exactly; E 14, 12, 12. */
    p = make("yoon", 3, n, d, 12, 0, &err);
    test_cond("hand, C = 0: the target 7, 3, 2 and max E 14",
              p && p->after[0] == 7 && p->after[1] == 3 && p->after[2] == 2 &&
              p->max_after == 14);
    lb_plan_free(p);
    p = make("none", 3, n, d, 12, 1, &err);
    test_cond("hand, none: no move, the same target, E after = E before",
              p && p->nmoves == 0 && p->target[0] == 7 && p->e_after[0] == 20 &&
              p->max_after == 20);
    lb_plan_free(p);
}

/* lb_yoon.c "Rounding": T = 1, 1, 10, N_total = 15. The largest remainder
 * would give 7, 7, 1 (max n'T = 10); the min-max target is 8, 7, 0 (max 8),
 * which the queue already is: nothing moves even with C = 0. */
static void test_rounding(void)
{
    const long n[] = {8, 7, 0}, d[] = {10, 10, 1};
    sched_err err;
    lb_plan *p = make("yoon", 3, n, d, 10, 0, &err);
    test_cond("rounding: T = 1, 1, 10, N = 15: target 8, 7, 0, not 7, 7, 1",
              p && p->target[0] == 8 && p->target[1] == 7 && p->target[2] == 0);
    test_cond("rounding: already at the target, nothing moves, max E 8",
              p && p->nmoves == 0 && p->max_after == 8);
    lb_plan_free(p);
    /* Two equally late senders (the "lowers the max" reading): both send. */
    const long n2[] = {6, 6, 0, 0}, d2[] = {1, 1, 1, 1};
    p = make("yoon", 4, n2, d2, 1, 0, &err);
    test_cond("ties: two senders at the same E both send (3, 3, 3, 3)",
              p && p->after[0] == 3 && p->after[1] == 3 && p->after[2] == 3 &&
              p->after[3] == 3 && p->max_after == 3);
    lb_plan_free(p);
}

/* lb_yoon.c "d_i = 0": the node keeps its queue and is in no max. */
static void test_unmeasured(void)
{
    const long n[] = {9, 5, 0}, d[] = {3, 0, 3};
    sched_err err;
    lb_plan *p = make("yoon", 3, n, d, 3, 0, &err);
    test_cond("d_i = 0: T_task, share, E are NAN",
              p && isnan(p->t_task[1]) && isnan(p->share[1]) && isnan(p->e_before[1]) &&
              isnan(p->e_after[1]));
    /* measured: 9 and 0 tasks at T = 1 each: 5 and 4 (tie to the held task). */
    test_cond("d_i = 0: keeps its 5; the others share 9 as 5, 4",
              p && p->target[1] == 5 && p->after[1] == 5 && p->target[0] == 5 &&
              p->target[2] == 4 && p->after[0] == 5 && p->after[2] == 4);
    test_cond("d_i = 0: max E over the measured nodes only (9 -> 5)",
              p && p->max_before == 9 && p->max_after == 5);
    lb_plan_free(p);
    const long z[] = {0, 0}, n3[] = {4, 0};
    p = make("yoon", 2, n3, z, 3, 0, &err);
    test_cond("no node measured: nothing moves, max E is NAN",
              p && p->nmoves == 0 && isnan(p->max_before) && isnan(p->max_after));
    lb_plan_free(p);
}

/* Bad values, named in the message. */
static void test_errors(void)
{
    const long n[] = {1, 2}, bad_n[] = {1, -1}, d[] = {1, 1}, bad_d[] = {-4, 1};
    const long big[] = {LB_MAX_TASKS, 1};
    sched_err err;
    struct { const char *what; int P; const long *n, *d; double t, C; const char *msg; }
    cases[] = {
        {"nodes 0", 0, n, d, 1, 0, "nodes=0"},
        {"nodes too many", LB_MAX_NODES + 1, n, d, 1, 0, "nodes=1025"},
        {"elapsed 0", 2, n, d, 0, 0, "elapsed=0"},
        {"elapsed NaN", 2, n, d, NAN, 0, "elapsed=nan"},
        {"cost < 0", 2, n, d, 1, -0.5, "cost=-0.5"},
        {"cost infinite", 2, n, d, 1, INFINITY, "cost=inf"},
        {"remaining < 0", 2, bad_n, d, 1, 0, "remaining[1]=-1"},
        {"done < 0", 2, n, bad_d, 1, 0, "done[0]=-4"},
        {"N_total too big", 2, big, d, 1, 0, "N_total=1000001"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        lb_plan *p = make("yoon", cases[i].P, cases[i].n, cases[i].d, cases[i].t,
                          cases[i].C, &err);
        test_condf(!p && err.code == SCHED_EINVAL && strstr(err.msg, cases[i].msg),
                   "error %s: '%s' names '%s'", cases[i].what, p ? "(a plan)" : err.msg,
                   cases[i].msg);
        lb_plan_free(p);
    }
    test_cond("unknown strategy: NULL, SCHED_ENOENT, the valid names",
              !lb_type_find("nope", &err) && err.code == SCHED_ENOENT &&
              strstr(err.msg, "'nope'") && strstr(err.msg, "yoon, none"));
    test_cond("lookup is case-insensitive", lb_type_find("YOON", &err) == &lb_yoon);
    lb_input in = {.nodes = 2, .remaining = n, .done = d, .elapsed = 1};
    test_cond("no strategy: an error", !lb_plan_make(NULL, &in, &err) &&
              err.code == SCHED_EINVAL);
}

/* One plan's invariants; 'zero' and 'huge': C = 0 or C beyond any T_task.
 * Returns the number of failed checks (each said once per kind, by the
 * caller's counters). */
enum { CONSERVED, NONNEG, TARGET_SUM, MINMAX, MAX_E, C_ZERO, C_HUGE, BETWEEN, MOVES,
       NONE_STILL, NCHECK };
static const char *const check_name[NCHECK] = {
    "tasks conserved", "counts never negative",
    "the target sums to N_total, unmeasured nodes keep n_i",
    "the target is min-max (no single task moved lowers max n'T) and >= floor(share)",
    "max E never rises", "C = 0: the result is the target",
    "huge C: nothing moves", "every node between n_i and its target",
    "the moves add up to the changes, one entry per pair", "none: nothing moves"};

static void check_plan(const lb_plan *p, const long *n, double C, int zero, int huge,
                       int none, long *failed)
{
    long sum = 0, tsum = 0;
    int ok[NCHECK];
    for (int k = 0; k < NCHECK; k++)
        ok[k] = 1;
    long net[LB_MAX_NODES] = {0};
    for (int m = 0; m < p->nmoves; m++) {
        const lb_move *mv = &p->move[m];
        if (mv->from == mv->to || mv->count < 1)
            ok[MOVES] = 0;
        for (int q = 0; q < m; q++)
            if (p->move[q].from == mv->from && p->move[q].to == mv->to)
                ok[MOVES] = 0;
        net[mv->from] -= mv->count;
        net[mv->to] += mv->count;
    }
    for (int i = 0; i < p->nodes; i++) {
        sum += p->after[i];
        tsum += p->target[i];
        if (p->after[i] < 0 || p->target[i] < 0)
            ok[NONNEG] = 0;
        if (n[i] + net[i] != p->after[i])
            ok[MOVES] = 0;
        int measured = !isnan(p->t_task[i]);
        if (!measured && (p->target[i] != n[i] || p->after[i] != n[i]))
            ok[TARGET_SUM] = 0;
        long lo = n[i] < p->target[i] ? n[i] : p->target[i];
        long hi = n[i] < p->target[i] ? p->target[i] : n[i];
        if (p->after[i] < lo || p->after[i] > hi)
            ok[BETWEEN] = 0;
        if (zero && p->after[i] != p->target[i])
            ok[C_ZERO] = 0;
        if ((huge || none) && p->after[i] != n[i])
            ok[huge ? C_HUGE : NONE_STILL] = 0;
        if (measured && p->target[i] < (long)floor(p->share[i] - 1e-9))
            ok[MINMAX] = 0;
        for (int j = 0; measured && j < p->nodes; j++)
            if (!isnan(p->t_task[j]) && p->target[j] > 0 &&
                (double)p->target[j] * p->t_task[j] >
                    (double)(p->target[i] + 1) * p->t_task[i])
                ok[MINMAX] = 0;
        double e = measured ? (double)p->after[i] * p->t_task[i] +
                                  (double)(p->after[i] > n[i] ? p->after[i] - n[i]
                                                              : n[i] - p->after[i]) * C
                            : NAN;
        if (measured && e != p->e_after[i])
            ok[MAX_E] = 0;
    }
    if (sum != p->total)
        ok[CONSERVED] = 0;
    if (tsum != p->total)
        ok[TARGET_SUM] = 0;
    if (!isnan(p->max_before) && !(p->max_after <= p->max_before))
        ok[MAX_E] = 0;
    if ((huge || none) && p->nmoves != 0)
        ok[huge ? C_HUGE : NONE_STILL] = 0;
    for (int k = 0; k < NCHECK; k++)
        failed[k] += !ok[k];
}

static void test_properties(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 14);
    long failed[NCHECK] = {0}, runs = 0, moved = 0;
    for (int rep = 0; rep < 3000; rep++) {
        int P = 1 + (int)gsl_rng_uniform_int(rng, 12);
        long n[16], d[16];
        int spread = 1 + (int)gsl_rng_uniform_int(rng, 60);
        for (int i = 0; i < P; i++) {
            n[i] = (long)gsl_rng_uniform_int(rng, (unsigned long)spread + 1);
            d[i] = gsl_rng_uniform(rng) < 0.1 ? 0 : (long)gsl_rng_uniform_int(rng, 20);
        }
        double t = 0.1 + 30 * gsl_rng_uniform(rng);
        /* C: 0, a fraction of the period's task times, or beyond any */
        double costs[] = {0, gsl_rng_uniform(rng) * t / 2, 1e12};
        for (int k = 0; k < 3; k++)
            for (int s = 0; lb_types[s]; s++) {
                sched_err err;
                lb_input in = {.nodes = P, .remaining = n, .done = d, .elapsed = t,
                               .cost = costs[k]};
                lb_plan *p = lb_plan_make(lb_types[s], &in, &err);
                if (!p) {
                    test_condf(0, "random %d: %s", rep, err.msg);
                    continue;
                }
                int none = lb_types[s] == &lb_none;
                check_plan(p, n, costs[k], k == 0 && !none, k == 2, none, failed);
                moved += p->nmoves > 0;
                runs++;
                lb_plan_free(p);
            }
    }
    for (int k = 0; k < NCHECK; k++)
        test_condf(failed[k] == 0, "%ld random plans: %s (%ld failed)", runs,
                   check_name[k], failed[k]);
    test_condf(moved > runs / 10, "random plans move tasks often enough to mean "
               "something (%ld of %ld)", moved, runs);
    gsl_rng_free(rng);
}

/* The exchange each strategy declares (lb.h): the central one counted by
 * hand for 4 nodes -- the master gets 3 counts and sends 3 orders (6), the
 * others send one count and get one order (2); every strategy fills every
 * entry with a count >= 0. */
static void test_exchange(void)
{
    long m[4] = {-1, -1, -1, -1};
    lb_exchange_central(4, m);
    test_cond("central exchange, 4 nodes: 6, 2, 2, 2",
              m[0] == 6 && m[1] == 2 && m[2] == 2 && m[3] == 2);
    lb_none.exchange(4, m);
    test_cond("none exchanges nothing", m[0] == 0 && m[1] == 0 && m[2] == 0 && m[3] == 0);
    for (int t = 0; lb_types[t]; t++) {
        long big[64];
        for (int i = 0; i < 64; i++)
            big[i] = -1;
        test_condf(lb_types[t]->exchange != NULL, "%s declares its exchange", lb_types[t]->name);
        if (!lb_types[t]->exchange)
            continue;
        lb_types[t]->exchange(64, big);
        int ok = 1;
        for (int i = 0; i < 64; i++)
            ok &= big[i] >= 0;
        test_condf(ok, "%s: 64 nodes, every message count >= 0", lb_types[t]->name);
    }
}

int main(void)
{
    test_exchange();
    test_hand();
    test_rounding();
    test_unmeasured();
    test_errors();
    test_properties();
    return test_report();
}
