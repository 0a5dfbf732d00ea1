/* test_dag.c: dag/ against known answers (Topcuoglu et al.'s sample graph,
 * small graphs worked by hand, the FFT and Gaussian-elimination graphs'
 * counts and structure), invariants over generated graphs of every type, the
 * generator's statistics, reading and writing, and bad input. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dag/dag.h"
#include "tests/test.h"

/* Reads a graph from text[0 .. len) (NULL with *err set on error). */
static dag *parse_n(const char *text, size_t len, dag_err *err)
{
    FILE *f = fmemopen((void *)text, len, "r");
    if (!f) {
        snprintf(err->msg, sizeof err->msg, "fmemopen failed");
        return NULL;
    }
    dag *g = dag_read(f, "test", DAG_FORMAT_AUTO, err);
    fclose(f);
    return g;
}

static dag *parse(const char *text, dag_err *err)
{
    return parse_n(text, strlen(text), err);
}

static int task_index(const dag *g, const char *name)
{
    for (int i = 0; i < g->n; i++)
        if (strcmp(g->name[i], name) == 0)
            return i;
    return -1;
}

/* Schedules g with algorithm 'name', checks the schedule; NULL on failure. */
static dag_schedule *schedule(const dag *g, const char *name)
{
    dag_err err;
    const dag_algo *A = dag_algo_find(name, &err);
    dag_schedule *s = A ? dag_schedule_new(A, g, &err) : NULL;
    test_condf(s != NULL, "%s schedules (%s)", name, s ? "" : err.msg);
    if (s && dag_schedule_check(s, &err) != DAG_OK) {
        test_condf(0, "%s: valid schedule: %s", name, err.msg);
        dag_schedule_free(s);
        return NULL;
    }
    return s;
}

/* One expected copy: task, processor (1-based), start, finish, duplicate. */
typedef struct { const char *task; int proc; double start, finish; int dup; } want;

/* Checks that s holds exactly the copies in w[0 .. n) (pseudo tasks aside). */
static void expect(const dag_schedule *s, const char *what, const want *w, int n)
{
    const dag *g = s->g;
    int real = 0, found = 0;
    for (int j = 0; j < s->ncopies; j++)
        real += s->copy[j].task < g->n_user;
    for (int k = 0; k < n; k++) {
        int i = task_index(g, w[k].task), ok = 0;
        for (int j = 0; i >= 0 && j < s->ncopies && !ok; j++) {
            const dag_copy *x = &s->copy[j];
            ok = x->task == i && x->proc == w[k].proc - 1 && x->dup == w[k].dup &&
                 fabs(x->start - w[k].start) < 1e-9 &&
                 fabs(x->finish - w[k].finish) < 1e-9;
        }
        if (!ok)
            test_condf(0, "%s: %s%s on P%d from %g to %g", what, w[k].task,
                       w[k].dup ? " (duplicate)" : "", w[k].proc, w[k].start,
                       w[k].finish);
        found += ok;
    }
    test_condf(found == n && real == n, "%s: the whole schedule (%d of %d copies "
               "as expected, %d in all)", what, found, n, real);
}

/* ---- Topcuoglu, Hariri & Wu 2002, Fig. 2 ------------------------------------ */

static const char topcuoglu[] =
    "processors 3\n"
    "task n1 14 16 9\n task n2 13 19 18\n task n3 11 13 19\n task n4 13 8 17\n"
    "task n5 12 13 10\n task n6 13 16 9\n task n7 7 15 11\n task n8 5 11 14\n"
    "task n9 18 12 20\n task n10 21 7 16\n"
    "edge n1 n2 18\n edge n1 n3 12\n edge n1 n4 9\n edge n1 n5 11\n"
    "edge n1 n6 14\n edge n2 n8 19\n edge n2 n9 16\n edge n3 n7 23\n"
    "edge n4 n8 27\n edge n4 n9 23\n edge n5 n9 13\n edge n6 n8 15\n"
    "edge n7 n10 17\n edge n8 n10 11\n edge n9 n10 13\n";

static void test_topcuoglu(void)
{
    dag_err err;
    dag *g = parse(topcuoglu, &err);
    test_cond("Topcuoglu Fig. 2 reads", g != NULL);
    if (!g)
        return;
    test_cond("Fig. 2: 10 tasks, 15 edges, one entry and exit, no pseudo task",
              g->n == 10 && g->m == 15 && g->entry == 0 && g->exit == 9);
    double ru[10], rd[10];
    dag_rank_up(g, ru);
    dag_rank_down(g, rd);
    /* Topcuoglu et al. Sec. 4.1 list rank_u for Fig. 2: 108, 77, 80, 80, 69,
     * 63.333, 42.667, 35.667, 44.333, 14.667. */
    static const double paper_ru[10] = {108, 77, 80, 80, 69, 190.0 / 3,
                                        128.0 / 3, 107.0 / 3, 133.0 / 3, 44.0 / 3};
    int ok = 1;
    for (int i = 0; i < 10; i++)
        ok &= fabs(ru[i] - paper_ru[i]) < 1e-9;
    test_cond("Fig. 2 upward ranks are the paper's (108, 77, 80, 80, ...)", ok);
    /* rank_d worked by hand from eq. 6: n2 = 13 + 18 = 31; n9 = max(31 +
     * 50/3 + 16, 22 + 38/3 + 23, 24 + 35/3 + 13) = 63.667; n10 = 93.333. */
    test_cond("Fig. 2 downward ranks: n2 31, n9 63.667, n10 93.333",
              fabs(rd[1] - 31) < 1e-9 && fabs(rd[8] - 191.0 / 3) < 1e-9 &&
              fabs(rd[9] - 280.0 / 3) < 1e-9 && rd[0] == 0);
    int path[10], pcp = -1;
    int len = dag_critical_path(g, ru, rd, path, &pcp);
    test_cond("Fig. 2 critical path n1 n2 n9 n10 (|CP| = 108), on P2 (16+19+12+7 "
              "= 54 < 63 < 66)", len == 4 && path[0] == 0 && path[1] == 1 &&
              path[2] == 8 && path[3] == 9 && pcp == 1);
    /* SLR's denominator: n1 n2 n9 n10 at minimum cost, 9+13+12+7 = 41;
     * speedup's numerator: P1 runs everything in 127. */
    test_cond("Fig. 2 CP_MIN = 41, sequential = 127",
              dag_cp_min(g) == 41 && dag_sequential(g) == 127);

    /* Topcuoglu Fig. 4a: the HEFT schedule, makespan 80. */
    static const want heft[] = {
        {"n1", 3, 0, 9, 0}, {"n3", 3, 9, 28, 0}, {"n4", 2, 18, 26, 0},
        {"n2", 1, 27, 40, 0}, {"n5", 3, 28, 38, 0}, {"n6", 2, 26, 42, 0},
        {"n9", 2, 56, 68, 0}, {"n7", 3, 38, 49, 0}, {"n8", 1, 57, 62, 0},
        {"n10", 2, 73, 80, 0}};
    dag_schedule *s = schedule(g, "heft");
    if (s) {
        expect(s, "Topcuoglu Fig. 4a HEFT", heft, 10);
        test_condf(s->makespan == 80, "Fig. 4a: HEFT makespan 80 (got %g)", s->makespan);
        test_condf(fabs(dag_slr(s) - 80.0 / 41) < 1e-12 &&
                   fabs(dag_speedup(s) - 127.0 / 80) < 1e-12,
                   "HEFT SLR 80/41, speedup 127/80 (got %g, %g)", dag_slr(s),
                   dag_speedup(s));
        dag_schedule_free(s);
    }
    /* Topcuoglu Fig. 4b: CPOP, makespan 86. */
    s = schedule(g, "cpop");
    if (s) {
        test_condf(s->makespan == 86, "Fig. 4b: CPOP makespan 86 (got %g)", s->makespan);
        int on_p2 = 1;
        for (int k = 0; k < 4; k++)
            on_p2 &= s->copy[s->first[path[k]]].proc == 1;
        test_cond("CPOP runs the critical path on P2", on_p2);
        dag_schedule_free(s);
    }
    /* DCPOP, worked by hand (docs/dag.md): n3 gets a duplicate of n1 on P1
     * (0-14) and runs 14-25, n4 one on P3 (0-9) and runs 9-26; n9 then
     * starts at 49 on P2 and n10 ends at 77. */
    static const want dcpop[] = {
        {"n1", 2, 0, 16, 0}, {"n1", 1, 0, 14, 1}, {"n1", 3, 0, 9, 1},
        {"n2", 2, 16, 35, 0}, {"n3", 1, 14, 25, 0}, {"n7", 1, 25, 32, 0},
        {"n4", 3, 9, 26, 0}, {"n5", 3, 26, 36, 0}, {"n9", 2, 49, 61, 0},
        {"n6", 1, 32, 45, 0}, {"n8", 1, 54, 59, 0}, {"n10", 2, 70, 77, 0}};
    s = schedule(g, "dcpop");
    if (s) {
        expect(s, "Fig. 2 DCPOP by hand", dcpop, 12);
        test_condf(s->makespan == 77 && s->duplicates == 2,
                   "Fig. 2: DCPOP makespan 77 with 2 duplicates (got %g, %d)",
                   s->makespan, s->duplicates);
        dag_schedule_free(s);
    }
    dag_free(g);
}

/* ---- small graphs worked by hand (dag/examples/ has them with the sums) --- */

static void test_by_hand(void)
{
    dag_err err;
    /* Chain a -> b -> c. HEFT: ru = 14, 6, 3; a P1 0-2; b P1 2-5 (P2 would
     * wait for a until 7); c P1 5-9 or P2 5+1 = 6-8: P2. CPOP: priorities
     * all 14, the chain is the critical path, P2 costs 7 < 9. */
    dag *g = parse("processors 2\ntask a 2 4\ntask b 3 1\ntask c 4 2\n"
                   "edge a b 5\nedge b c 1\n", &err);
    test_cond("chain reads", g != NULL);
    if (g) {
        static const want heft[] = {{"a", 1, 0, 2, 0}, {"b", 1, 2, 5, 0},
                                    {"c", 2, 6, 8, 0}};
        static const want cpop[] = {{"a", 2, 0, 4, 0}, {"b", 2, 4, 5, 0},
                                    {"c", 2, 5, 7, 0}};
        dag_schedule *s = schedule(g, "heft");
        if (s) {
            expect(s, "chain HEFT", heft, 3);
            test_cond("chain HEFT SLR 8/5, speedup 7/8",
                      fabs(dag_slr(s) - 1.6) < 1e-12 && fabs(dag_speedup(s) - 0.875) < 1e-12);
            dag_schedule_free(s);
        }
        if ((s = schedule(g, "cpop"))) {
            expect(s, "chain CPOP (beats HEFT: 7 < 8)", cpop, 3);
            dag_schedule_free(s);
        }
        if ((s = schedule(g, "dcpop"))) {
            expect(s, "chain DCPOP (all on the critical path: CPOP's)", cpop, 3);
            dag_schedule_free(s);
        }
        dag_free(g);
    }

    /* Fork-join a -> {b, c} -> d, equal processors, unit edges. HEFT: ru
     * a 9, b 7, c 7, d 1; c on P2 2-7; d P2 7-8. CPOP: all priorities 9, the
     * critical path a b d (b the lower index) on P1; d waits for c's data
     * until 8. DCPOP: a duplicated on P2 lets c run 1-6, d 7-8. */
    g = parse("processors 2\ntask a 1 1\ntask b 5 5\ntask c 5 5\ntask d 1 1\n"
              "edge a b 1\nedge a c 1\nedge b d 1\nedge c d 1\n", &err);
    test_cond("fork-join reads", g != NULL);
    if (g) {
        static const want heft[] = {{"a", 1, 0, 1, 0}, {"b", 1, 1, 6, 0},
                                    {"c", 2, 2, 7, 0}, {"d", 2, 7, 8, 0}};
        static const want cpop[] = {{"a", 1, 0, 1, 0}, {"b", 1, 1, 6, 0},
                                    {"c", 2, 2, 7, 0}, {"d", 1, 8, 9, 0}};
        static const want dcpop[] = {{"a", 1, 0, 1, 0}, {"a", 2, 0, 1, 1},
                                     {"b", 1, 1, 6, 0}, {"c", 2, 1, 6, 0},
                                     {"d", 1, 7, 8, 0}};
        dag_schedule *s;
        if ((s = schedule(g, "heft"))) { expect(s, "fork-join HEFT", heft, 4); dag_schedule_free(s); }
        if ((s = schedule(g, "cpop"))) { expect(s, "fork-join CPOP", cpop, 4); dag_schedule_free(s); }
        if ((s = schedule(g, "dcpop"))) { expect(s, "fork-join DCPOP", dcpop, 5); dag_schedule_free(s); }
        dag_free(g);
    }

    /* Duplication pays: edges out of a cost 10. HEFT and CPOP keep all on
     * P1 (9); DCPOP copies a to P2 (0-2), c runs 2-5 there, d 6-7 on P1. */
    g = parse("processors 2\ntask a 2 2\ntask b 3 3\ntask c 3 3\ntask d 1 1\n"
              "edge a b 10\nedge a c 10\nedge b d 1\nedge c d 1\n", &err);
    test_cond("dup-pays reads", g != NULL);
    if (g) {
        static const want one[] = {{"a", 1, 0, 2, 0}, {"b", 1, 2, 5, 0},
                                   {"c", 1, 5, 8, 0}, {"d", 1, 8, 9, 0}};
        static const want dcpop[] = {{"a", 1, 0, 2, 0}, {"a", 2, 0, 2, 1},
                                     {"b", 1, 2, 5, 0}, {"c", 2, 2, 5, 0},
                                     {"d", 1, 6, 7, 0}};
        dag_schedule *s;
        if ((s = schedule(g, "heft"))) { expect(s, "dup-pays HEFT", one, 4); dag_schedule_free(s); }
        if ((s = schedule(g, "cpop"))) { expect(s, "dup-pays CPOP", one, 4); dag_schedule_free(s); }
        if ((s = schedule(g, "dcpop"))) {
            expect(s, "dup-pays DCPOP: makespan 7 against 9", dcpop, 5);
            test_cond("dup-pays DCPOP SLR 7/6, speedup 9/7",
                      fabs(dag_slr(s) - 7.0 / 6) < 1e-12 && fabs(dag_speedup(s) - 9.0 / 7) < 1e-12);
            dag_schedule_free(s);
        }
        dag_free(g);
    }

    /* Duplication does not pay: a costs 10 on P2, more than its data takes
     * to get there (2 + 4), so DCPOP keeps CPOP's schedule. */
    g = parse("processors 2\ntask a 2 10\ntask b 3 3\ntask c 3 3\ntask d 1 1\n"
              "edge a b 4\nedge a c 4\nedge b d 1\nedge c d 1\n", &err);
    test_cond("dup-nopay reads", g != NULL);
    if (g) {
        static const want one[] = {{"a", 1, 0, 2, 0}, {"b", 1, 2, 5, 0},
                                   {"c", 1, 5, 8, 0}, {"d", 1, 8, 9, 0}};
        dag_schedule *s;
        if ((s = schedule(g, "cpop"))) { expect(s, "dup-nopay CPOP", one, 4); dag_schedule_free(s); }
        if ((s = schedule(g, "dcpop"))) {
            expect(s, "dup-nopay DCPOP: no duplicate, CPOP's schedule", one, 4);
            dag_schedule_free(s);
        }
        dag_free(g);
    }

    /* Insertion: a task fits into the idle slot before a later one. b
     * (P1 only: 1 vs 100) waits for a's data until 1 + 9 = 10; c, ready at
     * once, fits into P1's gap 0-10 instead of going after b. */
    g = parse("processors 2\ntask a 1 1\ntask b 5 100\ntask c 3 100\n"
              "task z 100 1\nedge z b 9\n", &err);
    if (g) {
        dag_schedule *s = schedule(g, "heft");
        /* ru: z 50.5 + 9 + 52.5 = 112, b 52.5, c 51.5, a 1; z P2 0-1, b P1
         * 10-15, c P1 0-3 (in the gap: P2 would end at 101), a P2 1-2 (P1's
         * gap would end at 4). */
        static const want w[] = {{"z", 2, 0, 1, 0}, {"b", 1, 10, 15, 0},
                                 {"c", 1, 0, 3, 0}, {"a", 2, 1, 2, 0}};
        if (s) { expect(s, "HEFT insertion into an idle slot", w, 4); dag_schedule_free(s); }
        dag_free(g);
    }
}

/* ---- pseudo entry and exit -------------------------------------------------- */

static void test_pseudo(void)
{
    dag_err err;
    dag *g = parse("processors 2\ntask a 1 2\ntask b 2 1\ntask c 1 1\n"
                   "task d 3 3\nedge a c 1\nedge b c 1\nedge b d 2\n", &err);
    test_cond("two entries and two exits read", g != NULL);
    if (!g)
        return;
    test_cond("pseudo entry and exit added after the given tasks",
              g->n_user == 4 && g->n == 6 && g->entry == 4 && g->exit == 5 &&
              strcmp(g->name[4], "(entry)") == 0 && strcmp(g->name[5], "(exit)") == 0);
    test_cond("pseudo tasks cost nothing anywhere",
              DAG_W(g, 4, 0) == 0 && DAG_W(g, 4, 1) == 0 && DAG_W(g, 5, 0) == 0);
    int ok = g->succ_at[5] - g->succ_at[4] == 2 && g->pred_at[6] - g->pred_at[5] == 2;
    for (int e = g->succ_at[4]; e < g->succ_at[5]; e++)
        ok &= g->succ_c[e] == 0 && (g->succ[e] == 0 || g->succ[e] == 1);
    for (int e = g->pred_at[5]; e < g->pred_at[6]; e++)
        ok &= g->pred_c[e] == 0 && (g->pred[e] == 2 || g->pred[e] == 3);
    test_cond("zero-cost pseudo edges to a and b, from c and d", ok && g->m == 7);
    for (int a = 0; dag_algos[a]; a++) {
        dag_schedule *s = schedule(g, dag_algos[a]->name);
        dag_schedule_free(s);
    }
    dag_free(g);
    g = parse("processors 1\ntask only 4\n", &err);
    test_cond("a single task is its own entry and exit",
              g && g->n == 1 && g->entry == 0 && g->exit == 0);
    if (g) {
        dag_schedule *s = schedule(g, "dcpop");
        test_cond("single task: makespan its cost, SLR 1", s && s->makespan == 4 &&
                  dag_slr(s) == 1);
        dag_schedule_free(s);
        dag_free(g);
    }
}

/* ---- invariants over generated graphs --------------------------------------- */

static void test_invariants(void)
{
    /* 600 graphs, parameters varied, every algorithm: valid schedules
     * (checked by dag_schedule_check: no start before data arrives, no
     * overlap, own cost), SLR >= 1, CPOP's critical path on one processor;
     * with one processor every algorithm runs the tasks back to back. */
    static const double alphas[] = {0.2, 0.5, 1, 2, 5}, ccrs[] = {0, 0.1, 1, 5, 10};
    static const int outdegs[] = {1, 2, 3, 5, 1000};
    int graphs = 0, valid = 0, slr_ok = 0, cp_ok = 0, one_ok = 0, ones = 0;
    int dups = 0, dup_ok = 1;
    for (int k = 0; k < 600; k++) {
        dag_gen p;
        dag_gen_init(&p);
        p.v = 1 + (k * 37) % 100;
        p.alpha = alphas[k % 5];
        p.ccr = ccrs[(k / 5) % 5];
        p.out_degree = outdegs[(k / 25) % 5];
        p.beta = (k % 9) * 0.25;
        p.q = 1 + (k / 3) % 8;
        p.seed = 1000 + (unsigned long)k;
        dag_err err;
        dag *g = dag_generate(&p, &err);
        if (!g) {
            test_condf(0, "generate graph %d: %s", k, err.msg);
            continue;
        }
        graphs++;
        double ru[200], rd[200];
        int path[200], pcp, len;
        dag_rank_up(g, ru);
        dag_rank_down(g, rd);
        len = dag_critical_path(g, ru, rd, path, &pcp);
        for (int a = 0; dag_algos[a]; a++) {
            dag_schedule *s = dag_schedule_new(dag_algos[a], g, &err);
            if (!s || dag_schedule_check(s, &err) != DAG_OK) {
                test_condf(0, "graph %d (v=%d q=%d seed %lu) %s: %s", k, p.v, p.q,
                           p.seed, dag_algos[a]->name, err.msg);
                dag_schedule_free(s);
                continue;
            }
            valid++;
            slr_ok += dag_slr(s) >= 1 - 1e-12 && dag_speedup(s) > 0;
            if (dag_algos[a] != &dag_heft) {
                int all = 1;
                for (int t = 0; t < len; t++)
                    all &= s->copy[s->first[path[t]]].proc == pcp;
                cp_ok += all;
            }
            if (p.q == 1) {
                ones++;
                one_ok += fabs(s->makespan - dag_sequential(g)) < 1e-9 * s->makespan;
            }
            dups += s->duplicates;
            if (dag_algos[a] != &dag_dcpop)
                dup_ok &= s->duplicates == 0;
            dup_ok &= s->ncopies == g->n + s->duplicates;
            dag_schedule_free(s);
        }
        dag_free(g);
    }
    test_condf(graphs == 600 && valid == 1800, "600 generated graphs, 3 algorithms: "
               "every schedule valid (%d of %d)", valid, 3 * graphs);
    test_condf(slr_ok == valid, "SLR >= 1 and speedup > 0 on every schedule "
               "(%d of %d)", slr_ok, valid);
    test_condf(cp_ok == 2 * graphs, "CPOP and DCPOP run the whole critical path "
               "on p_CP (%d of %d)", cp_ok, 2 * graphs);
    test_condf(ones > 0 && one_ok == ones, "one processor: makespan = the "
               "sequential time (%d of %d)", one_ok, ones);
    test_condf(dup_ok && dups > 0, "only DCPOP duplicates (%d duplicates), each "
               "a copy beside the tasks' own", dups);
}

/* The checker itself: it must catch what it claims to catch. */
static void test_checker(void)
{
    dag_err err;
    dag *g = parse(topcuoglu, &err);
    dag_schedule *s = g ? schedule(g, "heft") : NULL;
    if (!s) {
        dag_free(g);
        return;
    }
    /* n9 (P2, 56-68) one unit earlier: n2's data (P1, 40 + 16 = 56) is
     * late. */
    dag_copy save = s->copy[s->first[8]];
    s->copy[s->first[8]].start -= 1;
    s->copy[s->first[8]].finish -= 1;
    test_cond("check: a task before its parent's data arrives is caught",
              dag_schedule_check(s, &err) == DAG_EINVAL && strstr(err.msg, "n9") &&
              strstr(err.msg, "n2"));
    s->copy[s->first[8]] = save;
    /* n5 (P3, 28-38) moved to 30-40: overlaps n7 (P3, 38-49), its data
     * and its child n9's still in time. */
    save = s->copy[s->first[4]];
    s->copy[s->first[4]].start = 30;
    s->copy[s->first[4]].finish = 40;
    test_cond("check: two tasks overlapping on a processor are caught",
              dag_schedule_check(s, &err) == DAG_EINVAL && strstr(err.msg, "overlap"));
    s->copy[s->first[4]] = save;
    s->copy[s->first[4]].finish += 1;
    test_cond("check: a copy not lasting its cost is caught",
              dag_schedule_check(s, &err) == DAG_EINVAL && strstr(err.msg, "costs"));
    s->copy[s->first[4]] = save;
    s->makespan = 81;
    test_cond("check: a wrong makespan is caught",
              dag_schedule_check(s, &err) == DAG_EINVAL && strstr(err.msg, "makespan"));
    s->makespan = 80;
    test_cond("check: the restored schedule passes", dag_schedule_check(s, &err) == DAG_OK);
    dag_schedule_free(s);
    dag_free(g);
}

/* ---- the generator ------------------------------------------------------------ */

static void test_generator(void)
{
    /* Means over 400 graphs of 60 tasks: W_DAG = 50, CCR = 2, alpha = 0.5
     * (height sqrt(60)/0.5 = 15.5). Sampling error: a task's mean cost has sd
     * 50/sqrt(3) = 29, so the mean of 24000 is within 0.6 of 50 at 3 sd. */
    double wsum = 0, csum = 0, hsum = 0;
    long nw = 0, nc = 0;
    int graphs = 400, structure = 1, degrees = 1, exact = 1;
    for (int k = 0; k < graphs; k++) {
        dag_gen p;
        dag_gen_init(&p);
        p.v = 60; p.alpha = 0.5; p.ccr = 2; p.wdag = 50; p.beta = 1; p.q = 3;
        p.out_degree = 2;
        p.seed = (unsigned long)k + 1;
        dag_err err;
        dag *g = dag_generate(&p, &err);
        if (!g) {
            test_condf(0, "generate: %s", err.msg);
            return;
        }
        exact &= g->n_user == 60;
        for (int i = 0; i < g->n_user; i++) {
            double mean = 0, lo = INFINITY, hi = 0;
            for (int q = 0; q < 3; q++) {
                double x = DAG_W(g, i, q);
                mean += x / 3;
                lo = x < lo ? x : lo;
                hi = x > hi ? x : hi;
            }
            /* beta = 1: all within [w_i/2, 3 w_i/2) (6 digits kept) */
            structure &= lo >= 0 && hi <= 3 * lo * (1 + 1e-5) + 1e-9;
            wsum += mean;
            nw++;
        }
        for (int e = 0; e < g->m_user; e++) {
            csum += g->c[e];
            nc++;
        }
        /* Height: the longest chain, counted from the tasks' levels. */
        int level[60] = {0}, h = 0;
        for (int t = 0; t < g->n; t++) {
            int i = g->topo[t];
            if (i >= 60)
                continue;
            for (int e = g->pred_at[i]; e < g->pred_at[i + 1]; e++)
                if (g->pred[e] < 60 && level[g->pred[e]] + 1 > level[i])
                    level[i] = level[g->pred[e]] + 1;
            if (level[i] + 1 > h)
                h = level[i] + 1;
        }
        hsum += h;
        /* Every task below the top level has a parent in the level above,
         * so its depth is its level; every task has at least out_degree = 2
         * children, or all the tasks of the lower levels when fewer. */
        for (int i = 0; i < 60; i++) {
            int kids = 0, parents = 0, below = 0;
            for (int e = g->succ_at[i]; e < g->succ_at[i + 1]; e++)
                kids += g->succ[e] < 60;
            for (int e = g->pred_at[i]; e < g->pred_at[i + 1]; e++)
                parents += g->pred[e] < 60;
            for (int j = 0; j < 60; j++)
                below += level[j] > level[i];
            degrees &= level[i] == 0 || parents >= 1;
            degrees &= kids >= (below < 2 ? below : 2);
        }
        dag_free(g);
    }
    double wmean = wsum / nw, cmean = csum / nc, hmean = hsum / graphs;
    test_cond("generator: exactly v tasks", exact);
    test_cond("generator: beta = 1 keeps a task's costs within a factor 3", structure);
    test_condf(fabs(wmean - 50) < 0.6, "generator: mean cost W_DAG = 50 (got %.3f)", wmean);
    test_condf(fabs(cmean / wmean - 2) < 0.05, "generator: CCR = mean edge / mean "
               "cost = 2 (got %.3f)", cmean / wmean);
    test_condf(fabs(hmean - sqrt(60) / 0.5) < 1.5, "generator: mean height about "
               "sqrt(v)/alpha = 15.5 (got %.2f)", hmean);
    test_cond("generator: a parent for every task below the top level, "
              ">= out_degree children", degrees);

    /* Same seed, same graph; another seed, another. */
    dag_gen p;
    dag_gen_init(&p);
    p.v = 50;
    p.seed = 99;
    dag_err err;
    dag *a = dag_generate(&p, &err), *b = dag_generate(&p, &err);
    p.seed = 100;
    dag *c = dag_generate(&p, &err);
    test_cond("generator: deterministic for a seed",
              a && b && a->m == b->m && memcmp(a->w, b->w, 50 * 4 * sizeof *a->w) == 0 &&
              memcmp(a->from, b->from, (size_t)a->m_user * sizeof *a->from) == 0);
    test_cond("generator: another seed, another graph",
              a && c && memcmp(a->w, c->w, 50 * 4 * sizeof *a->w) != 0);
    dag_free(a); dag_free(b); dag_free(c);

    /* out_degree = v: tasks are numbered level by level, so a task's
     * children are then exactly the tasks from the next level on: a suffix
     * of the numbering. */
    p.v = 30; p.out_degree = 30; p.alpha = 1;
    a = dag_generate(&p, &err);
    if (a) {
        int ok = 1, inner = 0;
        for (int i = 0; i < a->n_user; i++) {
            int kids = 0, least = a->n_user;
            for (int e = a->succ_at[i]; e < a->succ_at[i + 1]; e++)
                if (a->succ[e] < a->n_user) {
                    kids++;
                    if (a->succ[e] < least)
                        least = a->succ[e];
                }
            if (kids > 0) {
                inner++;
                ok &= least > i && kids == a->n_user - least;
            }
        }
        test_condf(ok && inner > 0, "generator: out_degree v joins each of %d "
                   "tasks to every task below its level", inner);
        dag_free(a);
    }

    /* Bad parameters, each named. */
    static const struct { const char *field; double value; const char *msg; } bad[] = {
        {"v", 0, "v=0"}, {"alpha", 0, "alpha=0"}, {"out_degree", 0, "out_degree=0"},
        {"ccr", -1, "ccr=-1"}, {"wdag", 0, "wdag=0"}, {"beta", 2.5, "beta=2.5"},
        {"q", 0, "q=0"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        dag_gen_init(&p);
        if (!strcmp(bad[k].field, "v")) p.v = (int)bad[k].value;
        if (!strcmp(bad[k].field, "alpha")) p.alpha = bad[k].value;
        if (!strcmp(bad[k].field, "out_degree")) p.out_degree = (int)bad[k].value;
        if (!strcmp(bad[k].field, "ccr")) p.ccr = bad[k].value;
        if (!strcmp(bad[k].field, "wdag")) p.wdag = bad[k].value;
        if (!strcmp(bad[k].field, "beta")) p.beta = bad[k].value;
        if (!strcmp(bad[k].field, "q")) p.q = (int)bad[k].value;
        dag *g = dag_generate(&p, &err);
        test_condf(!g && err.code == DAG_EINVAL && strstr(err.msg, bad[k].msg),
                   "generator refuses %s (message: %s)", bad[k].msg, g ? "-" : err.msg);
        dag_free(g);
    }
}

/* ---- the FFT and Gaussian-elimination generators ---------------------------- */

/* Non-zero when g has the edge a -> b between tasks so named. */
static int has_edge(const dag *g, const char *a, const char *b)
{
    int i = task_index(g, a), j = task_index(g, b);
    if (i < 0 || j < 0)
        return 0;
    for (int e = g->succ_at[i]; e < g->succ_at[i + 1]; e++)
        if (g->succ[e] == j)
            return 1;
    return 0;
}

/* The longest chain of the given tasks, counted in tasks. */
static int chain(const dag *g)
{
    int *h = calloc((size_t)g->n, sizeof *h), best = 0;
    for (int t = 0; h && t < g->n; t++) {
        int i = g->topo[t];
        if (i >= g->n_user)
            continue;
        for (int e = g->pred_at[i]; e < g->pred_at[i + 1]; e++)
            if (g->pred[e] < g->n_user && h[g->pred[e]] > h[i])
                h[i] = h[g->pred[e]];
        h[i]++;
        best = h[i] > best ? h[i] : best;
    }
    free(h);
    return best;
}

/* Generates a graph of 'type' with size m on q processors (seed 1). */
static dag *structured(const dag_gen_type *type, int m, int q, dag_err *err)
{
    dag_gen p;
    dag_gen_init(&p);
    p.type = type;
    p.size = m;
    p.q = q;
    return dag_generate(&p, err);
}

/* An exact structure: the tasks named in order, and these edges, no more. */
static void expect_structure(const dag *g, const char *what, const char *const *names,
                             int n, const char *const (*edges)[2], int m)
{
    int ok = g && g->n_user == n && g->m_user == m;
    for (int i = 0; ok && i < n; i++)
        ok = strcmp(g->name[i], names[i]) == 0;
    for (int e = 0; ok && e < m; e++)
        if (!has_edge(g, edges[e][0], edges[e][1])) {
            test_condf(0, "%s: edge %s -> %s missing", what, edges[e][0], edges[e][1]);
            return;
        }
    test_condf(ok, "%s: exactly %d tasks named in order and these %d edges (got %d, %d)",
               what, n, m, g ? g->n_user : -1, g ? g->m_user : -1);
}

static void test_structured(void)
{
    dag_err err;
    /* Lookup by name; an unknown name lists the valid ones. */
    test_cond("dag_gen_find finds random, fft, gauss (any case)",
              dag_gen_find("random", &err) == &dag_gen_random &&
              dag_gen_find("FFT", &err) == &dag_gen_fft &&
              dag_gen_find("gauss", &err) == &dag_gen_gauss);
    test_condf(!dag_gen_find("lu", &err) && err.code == DAG_ENOENT &&
               strstr(err.msg, "'lu' (valid: random, fft, gauss)"),
               "an unknown graph type names the valid ones (%s)", err.msg);

    /* Topcuoglu et al. 2002 Sec. 6.2: "for an input vector of size m, there
     * are 2 x m - 1 recursive call tasks and m x log2 m butterfly operation
     * tasks"; each butterfly has two parents, each inner call two children:
     * 2(m - 1) + 2 m log2 m edges. The longest chain: log2 m + 1 levels of
     * calls, then log2 m of butterflies. m = 4: 15 tasks (their Fig. 11). */
    int ok = 1;
    for (int k = 1; k <= 6; k++) {
        int m = 1 << k;
        dag *g = structured(&dag_gen_fft, m, 3, &err);
        int n = 2 * m - 1 + m * k, e = 2 * (m - 1) + 2 * m * k;
        dag_gen p;
        dag_gen_init(&p);
        p.type = &dag_gen_fft;
        p.size = m;
        if (!g || g->n_user != n || g->m_user != e || chain(g) != 2 * k + 1 ||
            dag_gen_fft.tasks(&p) != n || g->n != n + 1 || g->entry != 0) {
            test_condf(0, "fft m=%d: %d tasks, %d edges, chain %d, one pseudo exit "
                       "(got %d, %d, %d)%s%s", m, n, e, 2 * k + 1, g ? g->n_user : -1,
                       g ? g->m_user : -1, g ? chain(g) : -1, g ? "" : ": ",
                       g ? "" : err.msg);
            ok = 0;
        }
        dag_free(g);
    }
    test_cond("fft m = 2 .. 64: 2m-1 + m log2 m tasks, 2(m-1) + 2m log2 m edges, "
              "chain 2 log2 m + 1, entry r1, the m last butterflies joined by a "
              "pseudo exit (Topcuoglu et al. Sec. 6.2)", ok);

    /* Sec. 6.1: "the total number of tasks in the graph is (m^2 + m - 2)/2";
     * each update has the pivot and the column of the step before as parents:
     * m^2 - m - 1 edges; the longest chain alternates pivot and next column,
     * 2(m - 1) tasks; one entry, one exit. m = 5: 14 tasks (their Fig. 9). */
    ok = 1;
    for (int m = 2; m <= 30; m++) {
        dag *g = structured(&dag_gen_gauss, m, 2, &err);
        int n = (m * m + m - 2) / 2, e = m * m - m - 1;
        if (!g || g->n_user != n || g->m_user != e || chain(g) != 2 * (m - 1) ||
            g->n != n) {
            test_condf(0, "gauss m=%d: %d tasks, %d edges, chain %d, no pseudo task "
                       "(got %d, %d, %d)", m, n, e, 2 * (m - 1), g ? g->n_user : -1,
                       g ? g->m_user : -1, g ? chain(g) : -1);
            ok = 0;
        }
        dag_free(g);
    }
    test_cond("gauss m = 2 .. 30: (m^2+m-2)/2 tasks, m^2-m-1 edges, chain 2(m-1), "
              "one entry and one exit (Topcuoglu et al. Sec. 6.1)", ok);
    dag *g = structured(&dag_gen_gauss, 5, 2, &err);
    test_condf(g && g->n_user == 14 && g->m_user == 19, "gauss m=5: Topcuoglu's Fig. 9, "
               "14 tasks, 19 edges (got %d, %d)", g ? g->n_user : -1, g ? g->m_user : -1);
    dag_free(g);

    /* m = 4, spelled out: step k's pivot T_k_k feeds its updates T_k_j, which
     * feed step k+1's T_(k+1)_j (T_k_(k+1) becomes the next pivot). */
    static const char *const ge_names[] = {"T1_1", "T1_2", "T1_3", "T1_4", "T2_2",
                                           "T2_3", "T2_4", "T3_3", "T3_4"};
    static const char *const ge_edges[][2] = {
        {"T1_1", "T1_2"}, {"T1_1", "T1_3"}, {"T1_1", "T1_4"},
        {"T1_2", "T2_2"}, {"T1_3", "T2_3"}, {"T1_4", "T2_4"},
        {"T2_2", "T2_3"}, {"T2_2", "T2_4"},
        {"T2_3", "T3_3"}, {"T2_4", "T3_4"},
        {"T3_3", "T3_4"},
    };
    g = structured(&dag_gen_gauss, 4, 2, &err);
    expect_structure(g, "gauss m=4", ge_names, 9, ge_edges, 11);
    dag_free(g);

    /* m = 4 points: the calls r1 (r2, r3), r2 (r4, r5), r3 (r6, r7); leaves r4
     * .. r7 at positions 0 .. 3; level 1 pairs positions i and i^1, level 2
     * i and i^2 (Topcuoglu's Fig. 11b). */
    static const char *const fft_names[] = {"r1", "r2", "r3", "r4", "r5", "r6", "r7",
                                            "b1_0", "b1_1", "b1_2", "b1_3",
                                            "b2_0", "b2_1", "b2_2", "b2_3"};
    static const char *const fft_edges[][2] = {
        {"r1", "r2"}, {"r1", "r3"}, {"r2", "r4"}, {"r2", "r5"}, {"r3", "r6"}, {"r3", "r7"},
        {"r4", "b1_0"}, {"r5", "b1_0"}, {"r4", "b1_1"}, {"r5", "b1_1"},
        {"r6", "b1_2"}, {"r7", "b1_2"}, {"r6", "b1_3"}, {"r7", "b1_3"},
        {"b1_0", "b2_0"}, {"b1_2", "b2_0"}, {"b1_1", "b2_1"}, {"b1_3", "b2_1"},
        {"b1_0", "b2_2"}, {"b1_2", "b2_2"}, {"b1_1", "b2_3"}, {"b1_3", "b2_3"},
    };
    g = structured(&dag_gen_fft, 4, 2, &err);
    expect_structure(g, "fft m=4", fft_names, 15, fft_edges, 22);
    test_cond("fft m=4: the pseudo exit joins b2_0 .. b2_3", g && g->exit == 15 &&
              g->pred_at[16] - g->pred_at[15] == 4);
    dag_free(g);

    /* Costs: drawn as for the random graphs (mean W_DAG, CCR), over 300
     * graphs of Gaussian elimination m = 10 (54 tasks, 89 edges): a task's
     * mean cost has sd 50/sqrt(3) = 29, so the mean of 16200 is within 0.7 of
     * 50 at 3 sd. */
    double wsum = 0, csum = 0;
    long nw = 0, nc = 0;
    for (int k = 0; k < 300; k++) {
        dag_gen p;
        dag_gen_init(&p);
        p.type = &dag_gen_gauss;
        p.size = 10;
        p.ccr = 2;
        p.wdag = 50;
        p.q = 3;
        p.seed = (unsigned long)k + 1;
        g = dag_generate(&p, &err);
        if (!g) {
            test_condf(0, "gauss generate: %s", err.msg);
            return;
        }
        for (int i = 0; i < g->n_user; i++, nw++)
            wsum += (DAG_W(g, i, 0) + DAG_W(g, i, 1) + DAG_W(g, i, 2)) / 3;
        for (int e = 0; e < g->m_user; e++, nc++)
            csum += g->c[e];
        dag_free(g);
    }
    test_condf(fabs(wsum / nw - 50) < 0.7 && fabs(csum / nc / (wsum / nw) - 2) < 0.06,
               "gauss costs: mean W_DAG = 50 (got %.3f), CCR = 2 (got %.3f)",
               wsum / nw, csum / nc / (wsum / nw));

    /* Every type: the same parameters, the same graph; the number of tasks
     * the type announces; every algorithm's schedule valid with SLR >= 1. */
    int graphs = 0, valid = 0;
    for (int t = 0; dag_gen_types[t]; t++)
        for (int k = 0; k < 40; k++) {
            dag_gen p;
            dag_gen_init(&p);
            p.type = dag_gen_types[t];
            p.v = 5 + k;
            p.size = p.type == &dag_gen_fft ? 2 << (k % 5) : 2 + k % 12;
            p.ccr = (k % 4) * 2.5;
            p.q = 1 + k % 6;
            p.beta = (k % 5) * 0.4;
            p.seed = 500 + (unsigned long)k;
            dag *a = dag_generate(&p, &err), *b = dag_generate(&p, &err);
            if (!a || !b || a->n_user != p.type->tasks(&p) || a->m != b->m ||
                memcmp(a->w, b->w, (size_t)a->n * (size_t)a->q * sizeof *a->w) != 0 ||
                memcmp(a->succ_c, b->succ_c, (size_t)a->m * sizeof *a->succ_c) != 0) {
                test_condf(0, "%s graph %d: deterministic, %ld tasks", p.type->name, k,
                           p.type->tasks(&p));
                dag_free(a); dag_free(b);
                continue;
            }
            graphs++;
            for (int i = 0; dag_algos[i]; i++) {
                dag_schedule *s = dag_schedule_new(dag_algos[i], a, &err);
                if (s && dag_schedule_check(s, &err) == DAG_OK &&
                    dag_slr(s) >= 1 - 1e-12)
                    valid++;
                else
                    test_condf(0, "%s graph %d, %s: %s", p.type->name, k,
                               dag_algos[i]->name, err.msg);
                dag_schedule_free(s);
            }
            dag_free(a); dag_free(b);
        }
    test_condf(graphs == 120 && valid == 360, "every type, 40 graphs each: deterministic, "
               "the announced number of tasks, 3 valid schedules with SLR >= 1 "
               "(%d graphs, %d schedules)", graphs, valid);

    /* More processors are added, not drawn anew: the graph on 3 processors
     * is the first 3 processors of the same graph on 8 (same tasks, edges
     * and edge costs), for every type. */
    ok = 1;
    for (int t = 0; dag_gen_types[t]; t++) {
        dag_gen p;
        dag_gen_init(&p);
        p.type = dag_gen_types[t];
        p.v = 40;
        p.size = 8;
        p.seed = 77;
        p.q = 3;
        dag *small = dag_generate(&p, &err);
        p.q = 8;
        dag *big = dag_generate(&p, &err);
        int same = small && big && small->n == big->n && small->m == big->m &&
                   memcmp(small->succ, big->succ, (size_t)small->m * sizeof *small->succ) == 0 &&
                   memcmp(small->succ_c, big->succ_c, (size_t)small->m * sizeof *small->succ_c) == 0;
        for (int i = 0; same && i < small->n; i++)
            for (int q = 0; q < 3; q++)
                same &= DAG_W(small, i, q) == DAG_W(big, i, q);
        same &= big && DAG_W(big, 0, 3) != DAG_W(big, 0, 0);
        test_condf(same, "%s: the graph on 3 processors is the first 3 of the same "
                   "graph on 8", p.type->name);
        dag_free(small); dag_free(big);
    }

    /* Bad sizes, each named. */
    static const struct { const dag_gen_type *type; int size; const char *msg; } bad[] = {
        {&dag_gen_fft, 1, "size=1: the FFT's input points must be a power of 2 from 2"},
        {&dag_gen_fft, 6, "size=6: the FFT's input points must be a power of 2"},
        {&dag_gen_fft, 1 << 19, "size=524288: the FFT's"},
        {&dag_gen_gauss, 1, "size=1: the matrix size must be 2 to 4471"},
        {&dag_gen_gauss, 4472, "size=4472: the matrix size must be 2 to 4471"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        g = structured(bad[k].type, bad[k].size, 2, &err);
        test_condf(!g && err.code == DAG_EINVAL && strstr(err.msg, bad[k].msg),
                   "%s refuses size %d (message: %s)", bad[k].type->name, bad[k].size,
                   g ? "-" : err.msg);
        dag_free(g);
    }
    dag_gen p;
    dag_gen_init(&p);
    p.type = NULL;
    test_cond("no graph type refused", !dag_generate(&p, &err) && err.code == DAG_EINVAL);
}

/* ---- reading and writing ---------------------------------------------------- */

/* Writes g in 'format' to memory and reads it back. */
static dag *round_trip(const dag *g, int format)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    dag_err err;
    if (!f || dag_write(f, g, format, &err) != DAG_OK) {
        if (f) fclose(f);
        free(buf);
        return NULL;
    }
    fclose(f);
    dag *h = parse(buf, &err);
    free(buf);
    return h;
}

static int same_graph(const dag *a, const dag *b)
{
    if (!a || !b || a->n != b->n || a->m != b->m || a->q != b->q ||
        a->n_user != b->n_user)
        return 0;
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->name[i], b->name[i]) != 0)
            return 0;
    return memcmp(a->w, b->w, (size_t)a->n * (size_t)a->q * sizeof *a->w) == 0 &&
           memcmp(a->succ, b->succ, (size_t)a->m * sizeof *a->succ) == 0 &&
           memcmp(a->succ_c, b->succ_c, (size_t)a->m * sizeof *a->succ_c) == 0;
}

static void test_io(void)
{
    dag_err err;
    dag *g = parse(topcuoglu, &err);
    static const char dot[] =
        "/* Fig. 2 in DOT */\n"
        "strict digraph \"Fig. 2\" {\n"
        "  graph [processors=3]; node [shape=circle]\n"
        "  n1 [cost=\"14,16,9\"]; n2 [cost=\"13 19 18\", label=\"two\"]\n"
        "  n3 [cost=\"11,13,19\"] n4 [cost=\"13,8,17\"]; n5 [cost=\"12,13,10\"]\n"
        "  n6 [cost=\"13,16,9\"]; n7 [cost=\"7,15,11\"]; n8 [cost=\"5,11,14\"]\n"
        "  n9 [cost=\"18,12,20\"]; \"n10\" [cost=\"21,7,16\"]\n"
        "  n1 -> n2 [comm=18]; n1 -> n3 [comm=12]; n1 -> n4 [comm=9]\n"
        "  n1 -> n5 [comm=11]; n1 -> n6 [comm=14]; n2 -> n8 [comm=19]\n"
        "  n2 -> n9 [comm=16]; n3 -> n7 [comm=23] // a comment\n"
        "  n4 -> n8 [comm=27]; n4 -> n9 [comm=23]; n5 -> n9 [comm=13]\n"
        "# a preprocessor line\n"
        "  n6 -> n8 [comm=15]; n7 -> n10 [comm=17]; n8 -> n10 [comm=11]\n"
        "  n9 -> n10 [comm=13, color=red]\n"
        "}\n";
    dag *d = parse(dot, &err);
    test_condf(d != NULL, "DOT subset reads%s%s", d ? "" : ": ", d ? "" : err.msg);
    test_cond("the DOT file is the same graph as the text file", same_graph(g, d));
    dag *t = g ? round_trip(g, DAG_FORMAT_TEXT) : NULL;
    dag *t2 = g ? round_trip(g, DAG_FORMAT_DOT) : NULL;
    test_cond("text written and read back: the same graph", same_graph(g, t));
    test_cond("DOT written and read back: the same graph", same_graph(g, t2));
    dag_free(d); dag_free(t); dag_free(t2);

    /* Defaults and chains: node [cost] for nodes after it, edge [comm],
     * a -> b -> c taking the attributes. */
    d = parse("digraph { node [cost=\"1,2\"]; edge [comm=4]; a -> b -> c [comm=3]; "
              "c -> d; d [cost=\"5,5\"] }", &err);
    test_condf(d && d->n == 4 && d->m == 3 && DAG_W(d, 0, 1) == 2 &&
               DAG_W(d, 3, 0) == 5 && d->succ_c[0] == 3 && d->succ_c[1] == 3 &&
               d->succ_c[2] == 4, "DOT defaults and edge chains%s",
               d ? "" : err.msg);
    dag_free(d);

    /* Generated graphs with pseudo tasks: written without them, read back
     * the same, scheduled the same. */
    dag_gen p;
    dag_gen_init(&p);
    p.v = 40; p.alpha = 2; p.seed = 5; p.ccr = 3;
    dag *r = dag_generate(&p, &err);
    t = r ? round_trip(r, DAG_FORMAT_TEXT) : NULL;
    test_cond("generated graph with a pseudo entry and exit: same after text",
              r && r->n == r->n_user + 2 && same_graph(r, t));
    if (r && t) {
        dag_schedule *s1 = dag_schedule_new(&dag_dcpop, r, &err);
        dag_schedule *s2 = dag_schedule_new(&dag_dcpop, t, &err);
        test_cond("generated graph: the same DCPOP schedule after text",
                  s1 && s2 && s1->makespan == s2->makespan &&
                  s1->duplicates == s2->duplicates);
        dag_schedule_free(s1);
        dag_schedule_free(s2);
    }
    dag_free(r); dag_free(t);
    dag_free(g);
}

/* Lines longer than any buffer: read whole, a comment stays one comment
 * (a reader that reads 4096 bytes at a time would take the rest of a long
 * line for statements). The format is told by the first line that is not a
 * comment, and the lines before it still count. */
static void test_long_lines(void)
{
    enum { BIG = 12000 };
    char *text = malloc(2 * BIG + 100), *pad = malloc(BIG + 1);
    if (!text || !pad) {
        test_cond("memory for the long lines", 0);
        free(text);
        free(pad);
        return;
    }
    for (int k = 0; k < BIG; k++)                /* "task b 1 task b 1 ..." */
        pad[k] = "task b 1 "[k % 9];
    pad[BIG] = '\0';
    dag_err err;
    snprintf(text, 2 * BIG + 100, "processors 1\ntask a 1\n# %s\ntask c 2\n"
             "edge a c 1\n", pad);
    dag *g = parse(text, &err);
    test_condf(g && g->n_user == 2 && strcmp(g->name[1], "c") == 0,
               "text: a long comment line is one comment, no task in it%s%s",
               g ? "" : ": ", g ? "" : err.msg);
    dag_free(g);

    snprintf(text, 2 * BIG + 100, "digraph {\n// %s\n  a [cost=1]\n}\n", pad);
    g = parse(text, &err);
    test_condf(g && g->n_user == 1, "DOT: a long // comment line is one comment%s%s",
               g ? "" : ": ", g ? "" : err.msg);
    dag_free(g);

    /* One task on 3000 processors: a line of 9000 characters. */
    int n = snprintf(text, 2 * BIG + 100, "processors 3000\ntask a");
    for (int p = 0; p < 3000; p++)
        n += snprintf(text + n, (size_t)(2 * BIG + 100 - n), " %d", p % 100);
    snprintf(text + n, (size_t)(2 * BIG + 100 - n), "\n");
    g = parse(text, &err);
    test_condf(g && g->q == 3000 && DAG_W(g, 0, 2999) == 99,
               "text: a task line of 3000 costs read whole%s%s", g ? "" : ": ",
               g ? "" : err.msg);
    dag_free(g);
    free(text);
    free(pad);

    static const char nul[] = "processors 1\ntask a 1\0\n";
    g = parse_n(nul, sizeof nul - 1, &err);
    test_condf(!g && err.code == DAG_EINVAL && strstr(err.msg, "test:2: a NUL byte"),
               "a NUL byte is refused naming its line (%s)", g ? "-" : err.msg);
    dag_free(g);

    g = parse("\n\n# a comment\ndigraph { a [cost=\"1\"]; b }\n", &err);
    test_condf(!g && strstr(err.msg, "test:4: task 'b' has no cost attribute"),
               "DOT after blank and '#' lines: the line numbers hold (%s)",
               g ? "-" : err.msg);
    dag_free(g);
    g = parse("// a DOT comment\ndigraph { a [cost=\"1\"] }\n", &err);
    test_condf(g && g->n_user == 1, "a file opening with a // comment is DOT%s%s",
               g ? "" : ": ", g ? "" : err.msg);
    dag_free(g);
}

/* ---- bad input --------------------------------------------------------------- */

static void test_bad_input(void)
{
    static const struct { const char *what, *text, *msg; } bad[] = {
        {"a cycle", "processors 1\ntask a 1\ntask b 1\ntask c 1\n"
         "edge a b 1\nedge b c 1\nedge c a 1\n", "cycle: a -> b -> c -> a"},
        {"a cycle behind an entry", "processors 1\ntask s 1\ntask a 1\ntask b 1\n"
         "edge s a 1\nedge a b 1\nedge b a 1\n", "cycle: "},
        {"a self-loop", "processors 1\ntask a 1\nedge a a 1\n", "edge a -> a is a cycle"},
        {"a missing cost", "processors 3\ntask a 1 2 3\ntask b 1 2\n",
         "test:3: task 'b' has 2 costs, expected 3"},
        {"one cost too many", "processors 2\ntask a 1 2 3\n", "task 'a' has 3 costs"},
        {"a negative cost", "processors 2\ntask a 1 -2\n",
         "test:2: task 'a': cost -2 on processor 2 is negative"},
        {"a cost not a number", "processors 2\ntask a 1 two\n", "cost 'two' is not a number"},
        {"an infinite cost", "processors 1\ntask a inf\n", "cost 'inf' is not a number"},
        {"a negative communication cost", "processors 1\ntask a 1\ntask b 1\n"
         "edge a b -1\n", "test:4: edge a -> b: communication cost -1 is negative"},
        {"an edge to an unknown task", "processors 1\ntask a 1\nedge a zz 1\n",
         "test:3: edge a -> zz: unknown task 'zz'"},
        {"an edge from an unknown task", "processors 1\ntask a 1\nedge yy a 1\n",
         "unknown task 'yy'"},
        {"an edge without a cost", "processors 1\ntask a 1\ntask b 1\nedge a b\n",
         "edge a -> b has no communication cost"},
        {"an edge given twice", "processors 1\ntask a 1\ntask b 1\nedge a b 1\n"
         "edge a b 2\n", "edge a -> b is given twice"},
        {"a task defined twice", "processors 1\ntask a 1\ntask a 2\n",
         "task 'a' is defined twice"},
        {"no processors line", "task a 1\n", "before the 'processors' line"},
        {"processors 0", "processors 0\n", "processors '0'"},
        {"an unknown statement", "processors 1\nnode a 1\n", "unknown statement 'node'"},
        {"no tasks", "# nothing\n", "no tasks"},
        {"DOT: a missing cost", "digraph { a [cost=\"1,2\"]; b [cost=\"1\"]; a -> b [comm=1] }",
         "task 'b' has 1 cost, expected 2"},
        {"DOT: a task without cost", "digraph { a [cost=\"1\"]; a -> b [comm=1] }",
         "task 'b' has no cost attribute"},
        {"DOT: an edge without comm", "digraph { a [cost=\"1\"]; b [cost=\"1\"]; a -> b }",
         "edge a -> b has no comm attribute"},
        {"DOT: a cycle", "digraph { node [cost=1]; edge [comm=1]; a -> b -> a }",
         "cycle: a -> b -> a"},
        {"DOT: undirected", "graph { a -- b }", "undirected"},
        {"DOT: a subgraph", "digraph { subgraph s { a } }", "subgraphs"},
        {"DOT: unclosed", "digraph { a [cost=1]\n", "missing '}'"},
        {"DOT: unclosed string", "digraph { a [cost=\"1]; }", "unclosed string"},
        {"DOT: negative comm", "digraph { node [cost=1]; a -> b [comm=-3] }",
         "communication cost -3 is negative"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        dag_err err = {0, ""};
        dag *g = parse(bad[k].text, &err);
        test_condf(!g && err.code == DAG_EINVAL && strstr(err.msg, bad[k].msg),
                   "bad input, %s: refused naming it ('%s' in '%s')", bad[k].what,
                   bad[k].msg, err.msg);
        dag_free(g);
    }
    /* Library misuse, each refused with a code. */
    dag_err err;
    test_cond("dag_new refuses 0 processors", !dag_new(0, &err) && err.code == DAG_EINVAL);
    dag *g = dag_new(2, &err);
    double w[2] = {1, NAN};
    test_cond("dag_add_task refuses a NaN cost", dag_add_task(g, "x", w, &err) < 0 &&
              strstr(err.msg, "not finite"));
    test_cond("dag_add_edge refuses a task out of range",
              dag_add_edge(g, 0, 5, 1, &err) == DAG_EINVAL);
    test_cond("dag_finish refuses an empty graph", dag_finish(g, &err) == DAG_EINVAL);
    test_cond("dag_schedule_new refuses an unfinished graph",
              !dag_schedule_new(&dag_heft, g, &err) && strstr(err.msg, "not finished"));
    dag_free(g);
    test_cond("unknown algorithm lists the valid ones",
              !dag_algo_find("peft", &err) && err.code == DAG_ENOENT &&
              strstr(err.msg, "heft, cpop, dcpop"));
    test_cond("dag_read_file: a missing file is named",
              !dag_read_file("/nonexistent/x.dag", DAG_FORMAT_AUTO, &err) &&
              err.code == DAG_ENOENT && strstr(err.msg, "/nonexistent/x.dag"));
}

/* DAG_MAX_TOTAL (1e300) at its limit: one task of cost 1e300 is taken, of
 * the next double past it refused naming the task; a graph whose costs add
 * up to exactly 1e300 (binary fractions of it: exact sums) is scheduled by
 * every algorithm into a valid schedule with a finite makespan; a task or
 * an edge that takes the total past it is refused, named; NaN and inf are
 * refused when added. The old failure: costs of 1e308 summed to inf and
 * every schedule failed its check, reported as "a bug". */
static void test_cost_limit(void)
{
    const double L = DAG_MAX_TOTAL, h = L / 2, qr = L / 4;
    dag_err err;
    for (int k = 0; k < 2; k++) {
        dag *g = dag_new(1, &err);
        double w[1] = {k ? nextafter(L, INFINITY) : L};
        int rc = g && dag_add_task(g, "t", w, &err) == 0 ? dag_finish(g, &err) : -1;
        if (k == 0)
            test_condf(rc == DAG_OK, "cost limit: one task of 1e300 taken (%s)",
                       rc ? err.msg : "");
        else
            test_condf(rc == DAG_EINVAL && strstr(err.msg, "task 't' (largest cost 1.0000000000000002e+300)") &&
                       strstr(err.msg, "more than 1e+300"),
                       "cost limit: one task of 1e300 + 1 ulp refused, named ('%s')", err.msg);
        dag_free(g);
    }
    /* a -> b, a -> c, b -> d, c -> d on 2 processors: largest costs L/2,
     * L/4, L/8, L/16 and edges L/32, L/64, L/128, L/128: L in all */
    for (int pass = 0; pass < 3; pass++) {
        dag *g = dag_new(2, &err);
        double wa[2] = {h, qr}, wb[2] = {qr, qr / 2}, wc[2] = {qr / 4, qr / 2},
               wd[2] = {qr / 4, qr / 8};
        if (pass == 1)
            wd[0] += qr / 2;                    /* the tasks alone: L + L/16 */
        int ok = g && dag_add_task(g, "a", wa, &err) == 0 && dag_add_task(g, "b", wb, &err) == 1 &&
                 dag_add_task(g, "c", wc, &err) == 2 && dag_add_task(g, "d", wd, &err) == 3 &&
                 dag_add_edge(g, 0, 1, qr / 8, &err) == DAG_OK &&
                 dag_add_edge(g, 0, 2, qr / 16, &err) == DAG_OK &&
                 dag_add_edge(g, 1, 3, pass == 2 ? qr / 32 + qr / 16 : qr / 32, &err) == DAG_OK &&
                 dag_add_edge(g, 2, 3, qr / 32, &err) == DAG_OK;
        int rc = ok ? dag_finish(g, &err) : -1;
        if (pass == 0) {
            test_condf(rc == DAG_OK, "cost limit: costs adding up to exactly 1e300 taken (%s)",
                       rc == DAG_OK ? "" : err.msg);
            for (int a = 0; rc == DAG_OK && dag_algos[a]; a++) {
                dag_schedule *s = schedule(g, dag_algos[a]->name);
                test_condf(s && isfinite(s->makespan) && s->makespan > 0 &&
                           isfinite(dag_slr(s)) && isfinite(dag_speedup(s)),
                           "cost limit: %s at 1e300: a valid schedule, finite makespan %g",
                           dag_algos[a]->name, s ? s->makespan : NAN);
                dag_schedule_free(s);
            }
        } else if (pass == 1)
            test_condf(rc == DAG_EINVAL && strstr(err.msg, "task 'd'") &&
                       strstr(err.msg, "more than 1e+300"),
                       "cost limit: a task past 1e300 refused, naming it ('%s')", err.msg);
        else
            test_condf(rc == DAG_EINVAL && strstr(err.msg, "edge b -> d") &&
                       strstr(err.msg, "more than 1e+300"),
                       "cost limit: an edge past it refused, naming it ('%s')", err.msg);
        dag_free(g);
    }
    dag *g = dag_new(1, &err);
    double w[1] = {INFINITY};
    test_cond("cost limit: an infinite cost refused when added",
              dag_add_task(g, "x", w, &err) < 0 && strstr(err.msg, "cost inf"));
    w[0] = 1;
    test_cond("cost limit: a NaN edge cost refused when added",
              dag_add_task(g, "x", w, &err) == 0 && dag_add_task(g, "y", w, &err) == 1 &&
              dag_add_edge(g, 0, 1, NAN, &err) == DAG_EINVAL && strstr(err.msg, "nan"));
    dag_free(g);
    /* a file: two tasks of 6e299, finite each, 1.2e300 in all */
    g = parse("processors 1\ntask a 6e299\ntask b 6e299\nedge a b 1\n", &err);
    test_condf(!g && err.code == DAG_EINVAL && strstr(err.msg, "task 'b' (largest cost 6e+299)"),
               "cost limit: a file of two 6e299 tasks refused as bad input, naming b ('%s')",
               err.msg);
    dag_free(g);
}

int main(void)
{
    test_cost_limit();
    test_topcuoglu();
    test_by_hand();
    test_pseudo();
    test_invariants();
    test_checker();
    test_generator();
    test_structured();
    test_io();
    test_long_lines();
    test_bad_input();
    return test_report();
}
