/* test_yoonsim.c: the engine of Yoon et al.'s simulation study (sim/lb.c):
 * two runs worked by hand (a yoon balancing between two nodes; the
 * one-port schedule of migrations, with a fixed plan), then properties
 * over every strategy of lb_types on random platforms (tasks conserved,
 * never faster than perfect balancing, deterministic), the baseline and
 * a prohibitive C_task, and every bad input refused by name. Source of the
 * model: Yoon et al. Sec. 3.1 (one-port), 3.2 (E_i), 4.1. */
#include <math.h>
#include <string.h>

#include "sched/lb/lb.h"
#include "sim/lb.h"
#include "tests/test.h"

static int same(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(1, fabs(b));
}

/* Runs c into r; 1, or 0 with a failure said (r then empty). */
static int runs(const char *what, const sim_lb_config *c, sim_lb_result *r)
{
    sched_err err;
    int rc = sim_lb_run(c, r, &err);
    test_condf(rc == SCHED_OK, "%s: runs (%s)", what, rc == SCHED_OK ? "ok" : err.msg);
    return rc == SCHED_OK;
}

/* Worked by hand: 2 nodes, 10 tasks each of work 1, r = 1, 2 (node 0 runs a
 * task in 1 s, node 1 in 2 s), C_msg = 1/16 s, C_task = 10/16 = 0.625 s,
 * period 4 s (binary fractions: every sum below is exact).
 *   No balancing: node 0 ends at 10, node 1 at 20: ET_NOLB = 20.
 *   Balancing 1, T = 4: node 0 has finished 4 (at 1, 2, 3, 4; the one
 *     ending at T counts) and started its 5th at 4: n = 5, d = 4; node 1
 *     finished 2 (2, 4), runs its 3rd: n = 7, d = 2. Eq. 1: T_task = 4/4,
 *     4/2 = 1, 2. Eq. 4: N = 12, shares 8, 4. E before 5, 14.
 *     yoon: node 1 sends while it pays: E_1 14 -> 12.625 -> 11.25 -> 9.875
 *     (7 - k) x 2 + k x 0.625; node 0: (5 + k) + k x 0.625 = 6.625, 8.25,
 *     9.875; then node 1 is at its target 4: 3 tasks 1 -> 0, E after 9.875.
 *     Exchange: 2 messages at each node (central, P = 2): [4, 4.125).
 *     Migration: 3 x 0.625 = 1.875 s, [4.125, 6) at both ends.
 *     Node 0: its 5th task (1 s left) resumes at 6, ends 7; then its 4
 *     queued tasks and the 3 received: 8, 9, ..., 14, ... Node 1: its 3rd
 *     (2 s left) ends at 8, then its 4 left: 10, 12, 14, 16.
 *   Balancing 2, T = 6 + 4 = 10 (a period after the migration ended):
 *     node 0 finished 7, 8, 9, 10: d = 4, n = 4 (started one at 10);
 *     node 1 finished 8, 10: d = 2, n = 2. Elapsed 6: T_task = 1.5, 3;
 *     shares 4, 2 = n: nothing moves. Exchange [10, 10.125): both pause.
 *     Node 0: 11.125, ..., 15.125; node 1: 12.125, 14.125, 16.125.
 *   At 10.125 + 4 = 14.125 both queues are empty: no more balancing.
 *   ET_LB = 16.125; G = (20 - 16.125) / 16.125 = 31/129. Moved 3; node 0
 *   ran 13, node 1 7; each communicated 0.125 + 1.875 + 0.125 = 2.125 s;
 *   messages: 2 per balancing (each counted once), 4. */
static void test_hand(void)
{
    double rbar[] = {1, 2}, work[20];
    for (int k = 0; k < 20; k++)
        work[k] = 1;
    sim_lb_config c;
    sim_lb_config_init(&c);
    c.nodes = 2;
    c.tasks = 10;
    c.c_msg = 1.0 / 16;
    c.c_task = 10.0 / 16;
    c.period = 4;
    c.rbar = rbar;
    c.work = work;
    sim_lb_result r, r0;
    if (!runs("hand, yoon", &c, &r))
        return;
    c.type = &lb_none;
    if (!runs("hand, none", &c, &r0)) {
        sim_lb_result_free(&r);
        return;
    }
    test_cond("hand: ET_NOLB = 20 (node 0 at 10)",
              r0.et == 20 && r0.finish[0] == 10 && r0.finish[1] == 20);
    test_condf(r.et == 16.125, "hand: ET_LB = 16.125 (got %g)", r.et);
    test_cond("hand: finish 15.125, 16.125", r.finish[0] == 15.125 && r.finish[1] == 16.125);
    test_cond("hand: G = 31/129", same((r0.et - r.et) / r.et, 31.0 / 129));
    test_cond("hand: 3 tasks moved in 1 migration, 2 balancings, 4 messages",
              r.moved == 3 && r.migrations == 1 && r.balancings == 2 && r.messages == 4);
    test_cond("hand: node 0 ran 13, node 1 ran 7", r.ran[0] == 13 && r.ran[1] == 7);
    test_cond("hand: each node communicated 2.125 s", r.comm[0] == 2.125 && r.comm[1] == 2.125);
    if (r.balancings == 2) {
        const sim_lb_balancing *b = r.bal;
        test_cond("hand: balancing 1 at 4: 12 queued, max E 14 -> 9.875, ends at 6",
                  b[0].time == 4 && b[0].elapsed == 4 && b[0].queued == 12 &&
                  b[0].max_before == 14 && b[0].max_after == 9.875 && b[0].moved == 3 &&
                  b[0].end == 6);
        test_cond("hand: balancing 2 at 10: elapsed 6, 6 queued, max E 6, none moved, "
                  "ends at 10.125",
                  b[1].time == 10 && b[1].elapsed == 6 && b[1].queued == 6 &&
                  b[1].max_before == 6 && b[1].max_after == 6 && b[1].moved == 0 &&
                  b[1].end == 10.125);
    }
    sim_lb_result_free(&r);
    sim_lb_result_free(&r0);
}

/* Every task ran exactly once, where ran_on says; per node as ran[] says. */
static int conserved(const sim_lb_result *r)
{
    long count[LB_MAX_NODES] = {0}, sum = 0;
    for (long k = 0; k < r->tasks; k++) {
        if (r->ran_on[k] < 0 || r->ran_on[k] >= r->nodes)
            return 0;
        count[r->ran_on[k]]++;
    }
    for (int i = 0; i < r->nodes; i++) {
        if (count[i] != r->ran[i])
            return 0;
        sum += r->ran[i];
    }
    return sum == r->tasks;
}

/* A strategy with a plan set by the test: on its first call 'moves' (pairs
 * from, to, one task each, in order), later nothing; no exchange. */
static int fixed_calls;
static const int *fixed_moves;
static int fixed_nmoves;

static int fixed_plan(lb_plan *p, double cost, sched_err *err)
{
    (void)cost;
    if (fixed_calls++ > 0)
        return SCHED_OK;
    for (int m = 0; m < fixed_nmoves; m++) {
        int rc = lb_plan_move(p, fixed_moves[2 * m], fixed_moves[2 * m + 1], err);
        if (rc != SCHED_OK)
            return rc;
    }
    return SCHED_OK;
}

static void fixed_exchange(int nodes, long *msgs)
{
    for (int i = 0; i < nodes; i++)
        msgs[i] = 0;
}

static const lb_type fixed = {"fixed", "a plan set by the test", fixed_plan,
                              fixed_exchange};

/* The one-port schedule, worked by hand: 4 nodes, 4 tasks each of work 1,
 * r = 1 everywhere, C_task = 0.5 s, period 1.5 s, no exchange messages.
 * At T = 1.5 every node has finished its 1st task and runs its 2nd (0.5 s
 * left); the plan: 0 -> 1, 2 -> 1, 2 -> 3 (one task each, that order).
 *   At 1.5: 0 -> 1 starts (both free); 2 -> 1 waits (1 is busy); 2 -> 3
 *     starts (both free: list scheduling; a transfer does not wait for
 *     the ones before it in the plan that cannot start yet). Both end at 2.
 *   At 2: 2 -> 1, ends at 2.5; the balancing ends at 2.5.
 *   Node 0: paused [1.5, 2), its 2nd ends 2.5, its 3rd 3.5 (its 4th went).
 *   Node 2: sends its 4th at 1.5 and its 3rd at 2 (the queue's last each
 *     time); paused [1.5, 2.5): its 2nd ends at 3.
 *   Node 3: paused [1.5, 2): 2.5, then 3 tasks: 3.5, 4.5, 5.5.
 *   Node 1: paused [1.5, 2.5): 3, then 4 tasks: 4, 5, 6, 7.
 *   Balancings at 2.5 + 1.5 = 4 (3 queued) and 5.5 (1 queued): nothing
 *   moves; at 7 nothing is queued. ET = 7; ran 3, 6, 2, 5. (Had each
 *   transfer waited for the ones before it in the plan, 2 -> 3 would have
 *   gone at [2.5, 3) and node 3 would end at 6.5.) */
static void test_one_port(void)
{
    static const int moves[] = {0, 1, 2, 1, 2, 3};
    double rbar[] = {1, 1, 1, 1}, work[16];
    for (int k = 0; k < 16; k++)
        work[k] = 1;
    sim_lb_config c;
    sim_lb_config_init(&c);
    c.type = &fixed;
    c.nodes = 4;
    c.tasks = 4;
    c.c_msg = 0.25;
    c.c_task = 0.5;
    c.period = 1.5;
    c.rbar = rbar;
    c.work = work;
    fixed_moves = moves;
    fixed_nmoves = 3;
    fixed_calls = 0;
    sim_lb_result r;
    if (!runs("one-port", &c, &r))
        return;
    test_condf(r.et == 7, "one-port: ET = 7 (got %g)", r.et);
    test_cond("one-port: finish 3.5, 7, 3, 5.5",
              r.finish[0] == 3.5 && r.finish[1] == 7 && r.finish[2] == 3 &&
              r.finish[3] == 5.5);
    test_cond("one-port: ran 3, 6, 2, 5",
              r.ran[0] == 3 && r.ran[1] == 6 && r.ran[2] == 2 && r.ran[3] == 5);
    test_cond("one-port: communication 0.5, 1, 1, 0.5 s",
              r.comm[0] == 0.5 && r.comm[1] == 1 && r.comm[2] == 1 && r.comm[3] == 0.5);
    test_cond("one-port: 3 balancings, the first ends at 2.5; 3 moved, no messages",
              r.balancings == 3 && r.bal[0].end == 2.5 && r.bal[1].time == 4 &&
              r.bal[2].time == 5.5 && r.moved == 3 && r.migrations == 3 && r.messages == 0);
    test_cond("one-port: node 2 sent its 4th task to node 3, its 3rd to node 1",
              r.ran_on[2 * 4 + 3] == 3 && r.ran_on[2 * 4 + 2] == 1 && r.ran_on[3] == 1);
    sim_lb_result_free(&r);

    /* A plan that forwards a task before it has it: 1 -> 2 twice, 0 -> 1
     * twice, 1 -> 2 once more: moves (1 -> 2, 3), (0 -> 1, 2). Node 1 has 2
     * queued when its transfer starts (the first): it sends those 2. */
    static const int fwd[] = {1, 2, 1, 2, 0, 1, 0, 1, 1, 2};
    fixed_moves = fwd;
    fixed_nmoves = 5;
    fixed_calls = 0;
    if (!runs("forwarding", &c, &r))
        return;
    long ran = 0;
    for (int i = 0; i < 4; i++)
        ran += r.ran[i];
    test_condf(r.moved == 4 && ran == 16 && conserved(&r), "forwarding: 4 of the 5 "
               "planned moved (%ld), all 16 tasks ran once (%ld)", r.moved, ran);
    sim_lb_result_free(&r);
}

/* Properties over every strategy, on random platforms (seeds 1..6). */
static void test_properties(void)
{
    static const int nodes[] = {1, 2, 5, 16, 64};
    static const long tasks[] = {1, 3, 40, 200};
    static const double cmsg[] = {0, 0.01, 0.05};
    for (int t = 0; lb_types[t]; t++) {
        const lb_type *T = lb_types[t];
        int ok_cons = 1, ok_bound = 1, ok_det = 1, ok_none = 1, nruns = 0;
        for (int a = 0; a < 5; a++)
            for (int b = 0; b < 4; b++)
                for (int ci = 0; ci < 3; ci++) {
                    sim_lb_config c;
                    sim_lb_config_init(&c);
                    c.type = T;
                    c.nodes = nodes[a];
                    c.tasks = tasks[b];
                    c.c_msg = cmsg[ci];
                    c.c_task = 10 * cmsg[ci];
                    c.period = 0.1 * (double)tasks[b];
                    c.seed = (unsigned long)(1 + (a + b + ci) % 6);
                    sim_lb_result r, r2;
                    sched_err err;
                    if (sim_lb_run(&c, &r, &err) != SCHED_OK) {
                        test_condf(0, "%s: %d x %ld, C_msg %g: %s", T->name, c.nodes,
                                   c.tasks, c.c_msg, err.msg);
                        continue;
                    }
                    nruns++;
                    ok_cons &= conserved(&r);
                    /* perfect balancing: all the work at the nodes' summed
                     * rate, no cost; work = time on the own node / r_i */
                    sim_lb_config c0 = c;
                    c0.type = &lb_none;
                    sim_lb_result n0;
                    if (sim_lb_run(&c0, &n0, &err) == SCHED_OK) {
                        double work = 0, rate = 0;
                        for (int i = 0; i < c.nodes; i++) {
                            work += n0.finish[i] / n0.rbar[i];
                            rate += 1 / n0.rbar[i];
                        }
                        ok_bound &= r.et >= work / rate * (1 - 1e-9);
                        ok_none &= n0.moved == 0 && n0.migrations == 0 &&
                                   n0.messages == 0;
                        if (T == &lb_none)
                            ok_none &= r.et == n0.et;   /* G = 0 exactly */
                        sim_lb_result_free(&n0);
                    }
                    if (sim_lb_run(&c, &r2, &err) == SCHED_OK) {
                        ok_det &= r2.et == r.et && r2.moved == r.moved &&
                                  r2.balancings == r.balancings &&
                                  memcmp(r2.finish, r.finish,
                                         sizeof *r.finish * (size_t)c.nodes) == 0 &&
                                  memcmp(r2.ran_on, r.ran_on,
                                         sizeof *r.ran_on * (size_t)r.tasks) == 0;
                        sim_lb_result_free(&r2);
                    }
                    sim_lb_result_free(&r);
                }
        test_condf(nruns == 60, "%s: 60 random runs (%d)", T->name, nruns);
        test_condf(ok_cons, "%s: every task ran exactly once", T->name);
        test_condf(ok_bound, "%s: ET never below perfect balancing at no cost",
                   T->name);
        test_condf(ok_det, "%s: the same configuration, the same run", T->name);
        test_condf(ok_none, "%s: none moves nothing, sends nothing; G(none) = 0",
                   T->name);
    }
}

/* None: each node runs its own tasks back to back: finish_i = the sum of
 * its tasks' w r_i; seeds differ; given r_i are used. */
static void test_baseline(void)
{
    sim_lb_config c;
    sim_lb_config_init(&c);
    c.type = &lb_none;
    c.nodes = 8;
    c.tasks = 50;
    double work[400];
    for (int k = 0; k < 400; k++)
        work[k] = (k % 7) * 0.25;
    c.work = work;
    sim_lb_result r, r2;
    if (!runs("baseline", &c, &r))
        return;
    int ok = 1;
    for (int i = 0; i < 8; i++) {
        double t = 0;
        for (int j = 0; j < 50; j++)
            t += work[i * 50 + j] * r.rbar[i];
        ok &= same(r.finish[i], t) && r.ran[i] == 50;
        ok &= r.rbar[i] > 0 && r.rbar[i] < 2;
    }
    test_cond("baseline: finish_i = sum of w r_i, r_i in (0, 2 E(r))", ok);
    c.seed = 2;
    if (runs("baseline, seed 2", &c, &r2)) {
        test_cond("baseline: another seed, other r_i", r2.rbar[0] != r.rbar[0]);
        sim_lb_result_free(&r2);
    }
    double rbar[8] = {1, 2, 3, 4, 5, 6, 7, 8};
    c.rbar = rbar;
    if (runs("baseline, given r_i", &c, &r2)) {
        test_cond("baseline: given r_i used", r2.rbar[7] == 8 &&
                  same(r2.finish[0], r.finish[0] / r.rbar[0]));
        sim_lb_result_free(&r2);
    }
    sim_lb_result_free(&r);

    /* C_task beyond any task time: yoon moves nothing (E would rise); with
     * no message cost the run is the baseline's, bit for bit. */
    sim_lb_config_init(&c);
    c.c_msg = 0;
    c.c_task = 1e6;
    sim_lb_result y, n;
    if (!runs("huge C_task, yoon", &c, &y))
        return;
    c.type = &lb_none;
    if (!runs("huge C_task, none", &c, &n)) {
        sim_lb_result_free(&y);
        return;
    }
    test_condf(y.moved == 0 && y.et == n.et && y.balancings > 0,
               "huge C_task: yoon moves nothing in %ld balancings, ET = none's", y.balancings);
    sim_lb_result_free(&y);
    sim_lb_result_free(&n);
}

static void test_errors(void)
{
    double bad_r[] = {1, 0}, bad_w[4] = {1, 1, -1, 1};
    struct {
        const char *what, *msg;
        int nodes;
        long tasks;
        double mean_r, c_msg, c_task, period;
        const double *rbar, *work;
        int no_type;
    } cases[] = {
        {"no strategy", "no load-balancing strategy", 2, 2, 1, 0, 0, 1, NULL, NULL, 1},
        {"nodes 0", "nodes=0 must be in 1..1024", 0, 2, 1, 0, 0, 1, NULL, NULL, 0},
        {"nodes 1025", "nodes=1025", 1025, 2, 1, 0, 0, 1, NULL, NULL, 0},
        {"tasks 0", "tasks=0 per node must be in 1..500000", 2, 0, 1, 0, 0, 1, NULL, NULL, 0},
        {"too many tasks", "tasks=500001 per node", 2, 500001, 1, 0, 0, 1, NULL, NULL, 0},
        {"E(r) 0", "mean_r=0", 2, 2, 0, 0, 0, 1, NULL, NULL, 0},
        {"C_msg < 0", "c_msg=-1", 2, 2, 1, -1, 0, 1, NULL, NULL, 0},
        {"C_msg NaN", "c_msg=nan", 2, 2, 1, NAN, 0, 1, NULL, NULL, 0},
        {"C_task infinite", "c_task=inf", 2, 2, 1, 0, INFINITY, 1, NULL, NULL, 0},
        {"period 0", "period=0", 2, 2, 1, 0, 0, 0, NULL, NULL, 0},
        {"r_i 0", "rbar[1]=0 must be > 0", 2, 2, 1, 0, 0, 1, bad_r, NULL, 0},
        {"work < 0", "work[2]=-1 (node 1, task 0)", 2, 2, 1, 0, 0, 1, NULL, bad_w, 0},
        {"too long a run", "passes 1e+09 s", 2, 2, 1e9, 0, 0, 1, NULL, NULL, 0},
    };
    for (size_t k = 0; k < sizeof cases / sizeof cases[0]; k++) {
        sim_lb_config c;
        sim_lb_config_init(&c);
        c.type = cases[k].no_type ? NULL : &lb_yoon;
        c.nodes = cases[k].nodes;
        c.tasks = cases[k].tasks;
        c.mean_r = cases[k].mean_r;
        c.c_msg = cases[k].c_msg;
        c.c_task = cases[k].c_task;
        c.period = cases[k].period;
        c.rbar = cases[k].rbar;
        c.work = cases[k].work;
        sched_err err = {0, ""};
        sim_lb_result r;
        int rc = sim_lb_run(&c, &r, &err);
        test_condf(rc == SCHED_EINVAL && strstr(err.msg, cases[k].msg) && r.finish == NULL,
                   "error, %s: EINVAL, '%s' in '%s'", cases[k].what, cases[k].msg, err.msg);
        sim_lb_result_free(&r);                 /* safe after a failure */
    }
    sim_lb_config c;
    sim_lb_config_init(&c);
    c.period = 1e-5;
    c.c_msg = 0;
    c.c_task = 0;
    c.nodes = 2;
    sim_lb_result r;
    sched_err err;
    test_condf(sim_lb_run(&c, &r, &err) == SCHED_EINVAL &&
               strstr(err.msg, "balancings: period=1e-05 s is too short"),
               "error: a period too short for the run is refused (%s)", err.msg);
    test_cond("sim_lb_run with err NULL: a code still",
              sim_lb_run(&c, &r, NULL) == SCHED_EINVAL);
}

int main(void)
{
    test_hand();
    test_one_port();
    test_properties();
    test_baseline();
    test_errors();
    return test_report();
}
