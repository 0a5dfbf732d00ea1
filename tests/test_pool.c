/* test_pool.c: the worker-pool strategies (sched/pool/pool.c,
 * sched/pool/adjust.c, sched/pool/static.c) on hand-made iterations, the meter
 * of held and useful time, the hand-out order, and the trace replay
 * (sim/pool.c) on traces worked out by hand; then properties over every
 * strategy on generated traces. Source of the rules: Heymann et al., Euro-Par
 * 2001, Figure 3.1 and Sec. 3.1, 4.2. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched/pool/pool.h"
#include "sim/pool.h"
#include "tests/test.h"

static pool *make(const char *name, int ntasks, pool_asp asp)
{
    sched_err err;
    pool_params par;
    pool_params_init(&par);
    par.asp = asp;
    return pool_new(pool_type_find(name, &err), ntasks, &par, &err);
}

/* One iteration's end with tasks 0 .. n-1 of the given times. */
static int end_iter(pool *p, const double *t, int n, double exec, double held, int workers,
                    int stable, int next, pool_decision *d)
{
    int task[16];
    for (int i = 0; i < n; i++)
        task[i] = i;
    pool_iter_stats st = {.ntask = n, .task = task, .time = t, .next_tasks = next,
                          .exec_time = exec, .held = held, .workers = workers,
                          .stable = stable};
    sched_err err;
    return pool_iteration_end(p, &st, d, &err);
}

/* Figure 3.1 step 1: Nworkers = Ntasks, for both strategies. */
static void test_first(void)
{
    for (int i = 0; pool_types[i]; i++) {
        sched_err err;
        pool *p = pool_new(pool_types[i], 7, NULL, &err);
        test_condf(p && pool_workers(p) == 7, "%s: the first Nworkers is Ntasks = 7",
                   pool_types[i]->name);
        pool_free(p);
    }
}

/* Criterion 1, AdjustBySpeedup: fewer held than requested (2 < 8). asp =
 * sum / max; floor(asp) + 1 and ceil(asp) agree unless asp is whole. */
static void test_speedup(void)
{
    static const struct { double t[4]; int n; double asp; int floor1, ceil; } cases[] = {
        {{2, 2, 2, 1}, 4, 3.5, 4, 4},       /* 7 / 2 = 3.5: both 4 */
        {{2, 1.5, 1, 0.5}, 4, 2.5, 3, 3},   /* 5 / 2 = 2.5: both 3 */
        {{2, 2, 1, 1}, 4, 3.0, 4, 3},       /* 6 / 2 = 3: 4 against 3 */
        {{0.1, 0.1, 0.1}, 3, 3.0, 4, 3},    /* 0.30000000000000004 / 0.1: whole */
        {{5}, 1, 1.0, 2, 1},                /* one task: asp 1 */
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        for (int r = 0; r < 2; r++) {
            pool *p = make("adjust", 8, r ? POOL_ASP_CEIL : POOL_ASP_FLOOR1);
            pool_decision d;
            int n = end_iter(p, cases[i].t, cases[i].n, 3, 6, 2, 0, 8, &d);
            int want = r ? cases[i].ceil : cases[i].floor1;
            test_condf(n == want && d.rule == POOL_SPEEDUP && !d.capped &&
                       fabs(d.asp - cases[i].asp) < 1e-12 && pool_workers(p) == want,
                       "speedup, asp %g, %s: %d workers (got %d, rule %s, asp %.17g)",
                       cases[i].asp, r ? "ceil" : "floor1", want, n,
                       pool_rule_name(d.rule), d.asp);
            pool_free(p);
        }
    /* asp = Ntasks (equal tasks): floor + 1 asks for a worker more than
     * there are tasks; the bound Nworkers <= tasks left takes it back. */
    pool *p = make("adjust", 4, POOL_ASP_FLOOR1);
    pool_decision d;
    static const double eq[4] = {1, 1, 1, 1};
    int n = end_iter(p, eq, 4, 1, 3, 3, 1, 4, &d);
    test_condf(n == 4 && d.rule == POOL_SPEEDUP && d.capped,
               "asp 4 of 4 tasks: floor1 says 5, capped to the 4 tasks left (got %d)", n);
    /* Criterion 1 applies unstable or not, and may release: held 3 < 4
     * requested, asp 1.5 -> 2 workers. */
    static const double small[2] = {2, 1};
    n = end_iter(p, small, 2, 2, 6, 3, 0, 4, &d);
    test_condf(n == 2 && d.rule == POOL_SPEEDUP,
               "unstable, 3 held < 4 asked: criterion 1 still, asp 1.5 -> 2 (got %d)", n);
    pool_free(p);
}

/* A pool of 8 tasks brought to Nworkers = 3 by criterion 1 (asp 2.5). */
static pool *at_three(void)
{
    pool *p = make("adjust", 8, POOL_ASP_FLOOR1);
    static const double t[3] = {1, 1, 0.5};
    end_iter(p, t, 3, 1, 2, 1, 0, 8, NULL);
    return p;
}

/* Criterion 2, stable, every requested worker held (3 of 3). */
static void test_threshold(void)
{
    /* times 8, 2: threshold MAX(min 2, 0.15 x 8 = 1.2) = 2: limit 10.
     * sum 10, held 12.5: efficiency 0.8 exactly, not below: keep. */
    static const double a[2] = {8, 2};
    pool_decision d;
    pool *p = at_three();
    test_cond("set-up: Nworkers 3", pool_workers(p) == 3);
    int n = end_iter(p, a, 2, 10, 12.5, 3, 1, 8, &d);
    test_condf(n == 3 && d.rule == POOL_KEEP && d.efficiency == 0.8,
               "time 10 = max 8 + min 2: not above: keep 3 (got %d %s)", n,
               pool_rule_name(d.rule));
    /* a clock's rounding on a tie (10 + 1e-12) is no excess
     * (sched/pool/adjust.c, "Ties"); nor an efficiency 1e-12 under 0.8 a
     * shortfall */
    n = end_iter(p, a, 2, 10 + 1e-12, 12.5 * (1 + 1e-12), 3, 1, 8, &d);
    test_condf(n == 3 && d.rule == POOL_KEEP,
               "time 10 + 1e-12, efficiency 0.8 - 1e-12: ties, keep (got %d %s)", n,
               pool_rule_name(d.rule));
    n = end_iter(p, a, 2, 10.0625, 12.5, 3, 1, 8, &d);
    test_condf(n == 4 && d.rule == POOL_ADD, "time 10.0625 > 10: add one: 4 (got %d %s)",
               n, pool_rule_name(d.rule));
    pool_free(p);
    /* times 8, 1: threshold MAX(1, 1.2) = 1.2: limit 9.2. sum 9, held
     * 11.25: efficiency 0.8. */
    static const double b[2] = {8, 1};
    p = at_three();
    n = end_iter(p, b, 2, 9.125, 11.25, 3, 1, 8, &d);
    test_condf(n == 3 && d.rule == POOL_KEEP,
               "15%% rule: time 9.125 <= 8 + 1.2: keep (got %d %s)", n,
               pool_rule_name(d.rule));
    n = end_iter(p, b, 2, 9.25, 11.25, 3, 1, 8, &d);
    test_condf(n == 4 && d.rule == POOL_ADD, "15%% rule: time 9.25 > 9.2: add (got %d %s)",
               n, pool_rule_name(d.rule));
    pool_free(p);
    /* The refinement: the same iteration run with a worker arriving in it
     * (not stable): criterion 2 is not applied. */
    p = at_three();
    n = end_iter(p, a, 2, 10.0625, 12.5, 3, 0, 8, &d);
    test_condf(n == 3 && d.rule == POOL_UNSTABLE,
               "not stable: no worker added despite time > limit (got %d %s)", n,
               pool_rule_name(d.rule));
    pool_free(p);
    /* The +1 stops at the tasks left. */
    p = at_three();
    n = end_iter(p, a, 2, 11, 12.5, 3, 1, 3, &d);
    test_condf(n == 3 && d.rule == POOL_ADD && d.capped,
               "add with 3 tasks left: capped at 3 (got %d)", n);
    pool_free(p);
}

static void test_release(void)
{
    static const double a[2] = {8, 2};
    pool_decision d;
    pool *p = at_three();
    /* sum 10 over 12.5625 worker-seconds: 0.796 < 0.8: release one */
    int n = end_iter(p, a, 2, 10, 12.5625, 3, 1, 8, &d);
    test_condf(n == 2 && d.rule == POOL_RELEASE,
               "efficiency 0.796 < 0.8: release one: 2 (got %d %s)", n,
               pool_rule_name(d.rule));
    n = end_iter(p, a, 2, 10, 30, 2, 0, 8, &d);
    test_condf(n == 2 && d.rule == POOL_UNSTABLE,
               "not stable: efficiency 0.33 releases nothing (got %d %s)", n,
               pool_rule_name(d.rule));
    n = end_iter(p, a, 2, 10, 30, 2, 1, 8, &d);
    test_condf(n == 1 && d.rule == POOL_RELEASE, "stable again: release: 1 (got %d)", n);
    static const double one[1] = {4};
    n = end_iter(p, one, 1, 4, 40, 1, 1, 8, &d);
    test_condf(n == 1 && d.rule == POOL_RELEASE && d.capped,
               "never below 1 while tasks remain (got %d)", n);
    n = end_iter(p, one, 1, 4, 4, 1, 1, 0, &d);
    test_condf(n == 0 && d.capped, "after the last iteration: 0 workers (got %d)", n);
    /* a zero-length iteration wasted nothing: efficiency 1 */
    pool_free(p);
    p = at_three();
    static const double zero[2] = {0, 0};
    n = end_iter(p, zero, 2, 0, 0, 3, 1, 8, &d);
    test_condf(n == 3 && d.efficiency == 1 && d.asp == 1 && d.rule == POOL_KEEP,
               "tasks of no time: efficiency 1, asp 1, keep (got %d %g %g)", n,
               d.efficiency, d.asp);
    pool_free(p);
}

/* The baseline: one worker fewer per converged task; the tasks of the
 * next iteration at each end (a woken task asks for a worker again). */
static void test_static(void)
{
    sched_err err;
    pool *p = make("static", 4, POOL_ASP_FLOOR1);
    test_cond("static: 4 at first", pool_workers(p) == 4);
    test_cond("a task converges: 3", pool_task_converged(p, 3, &err) == 3);
    test_cond("another: 2", pool_task_converged(p, 2, &err) == 2);
    static const double t[4] = {5, 4, 1, 1};
    pool_decision d;
    int n = end_iter(p, t, 4, 5, 12, 2, 0, 2, &d);
    test_condf(n == 2 && d.rule == POOL_TASKS, "end: the 2 tasks left (got %d)", n);
    n = end_iter(p, t, 2, 5, 9, 2, 1, 3, &d);
    test_condf(n == 3 && d.rule == POOL_TASKS,
               "a converged part woken again: 3 tasks, 3 workers (got %d)", n);
    test_cond("converged task 4 of 4 tasks: refused", pool_task_converged(p, 4, &err) == -1 &&
              strstr(err.msg, "converged task 4"));
    pool_free(p);
    p = make("adjust", 4, POOL_ASP_FLOOR1);
    test_cond("adjust ignores convergence", pool_task_converged(p, 0, &err) == 4);
    pool_free(p);
}

/* By decreasing average time; never measured first; ties by number. */
static void test_order(void)
{
    double avg[6] = {3, NAN, 5, 3, 1, NAN};
    int task[6] = {4, 3, 5, 2, 1, 0};
    pool_sort(task, 6, avg);
    static const int want[6] = {1, 5, 2, 0, 3, 4};
    test_condf(memcmp(task, want, sizeof want) == 0,
               "order: 1, 5 (no history, by number), 2 (5), 0 and 3 (3, by number), 4 "
               "(got %d %d %d %d %d %d)", task[0], task[1], task[2], task[3], task[4],
               task[5]);
    /* From the pool's history: task 2 averages (1 + 7) / 2 = 4, task 0
     * (6 + 2) / 2 = 4, task 1 3; task 3 was never run. */
    pool *p = make("adjust", 4, POOL_ASP_FLOOR1);
    int t1[3] = {0, 1, 2}, t2[2] = {2, 0};
    double x1[3] = {6, 3, 1}, x2[2] = {7, 2};
    pool_iter_stats st = {.ntask = 3, .task = t1, .time = x1, .next_tasks = 2,
                          .exec_time = 6, .held = 10, .workers = 3, .stable = 1};
    sched_err err;
    pool_iteration_end(p, &st, NULL, &err);
    st = (pool_iter_stats){.ntask = 2, .task = t2, .time = x2, .next_tasks = 4,
                           .exec_time = 7, .held = 10, .workers = 3, .stable = 1};
    pool_iteration_end(p, &st, NULL, &err);
    test_cond("average of task 2: 4", pool_average(p, 2) == 4);
    test_cond("task 3 never run: NAN", isnan(pool_average(p, 3)));
    int o[4] = {0, 1, 2, 3};
    test_cond("pool_order", pool_order(p, o, 4, &err) == SCHED_OK);
    test_condf(o[0] == 3 && o[1] == 0 && o[2] == 2 && o[3] == 1,
               "order from the history: 3, 0, 2 (tie at 4, by number), 1 (got %d %d %d %d)",
               o[0], o[1], o[2], o[3]);
    int bad[2] = {0, 4};
    test_cond("pool_order: task 4 of 4 refused",
              pool_order(p, bad, 2, &err) == SCHED_EINVAL && strstr(err.msg, "task[1]=4"));
    pool_free(p);
}

/* The meter on a timeline worked out by hand. */
static void test_meter(void)
{
    sched_err err;
    pool_meter m;
    pool_iter_stats st;
    double t[2] = {3, 2};
    pool_meter_init(&m, 0);
    pool_meter_join(&m, 0, &err);
    pool_meter_join(&m, 2, &err);
    pool_meter_begin(&m, 2, &err);
    pool_meter_join(&m, 3, &err);               /* arrives during it */
    st = (pool_iter_stats){.ntask = 2, .time = t};
    test_cond("end 1", pool_meter_end(&m, 5, &st, &err) == 0);
    /* 2 workers over [2, 3], 3 over [3, 5]: 2 + 6 = 8 worker-seconds */
    test_condf(st.exec_time == 3 && st.held == 8 && st.workers == 3 && !st.stable,
               "iteration 1: time 3, held 8, 3 workers, not stable (got %g %g %d %d)",
               st.exec_time, st.held, st.workers, st.stable);
    pool_meter_begin(&m, 6, &err);              /* [5, 6]: the update, 3 held */
    pool_meter_leave(&m, 7, &err);
    st = (pool_iter_stats){.ntask = 2, .time = t};
    pool_meter_end(&m, 8, &st, &err);
    test_condf(st.held == 5 && st.workers == 2 && !st.stable,
               "iteration 2: a worker left: 3 + 2 = 5, not stable (got %g %d)", st.held,
               st.stable);
    pool_meter_join(&m, 8, &err);               /* at the end: joins between */
    pool_meter_begin(&m, 8, &err);
    st = (pool_iter_stats){.ntask = 2, .time = t};
    pool_meter_end(&m, 10, &st, &err);
    test_condf(st.held == 6 && st.workers == 3 && st.stable,
               "iteration 3: a worker joined before its begin: stable, 6 (got %g %d)",
               st.held, st.stable);
    pool_totals tot;
    pool_meter_totals(&m, &tot);
    /* held: [0,2] 1 + 1; [2,3] 2; [3,6] 9; [6,7] 3; [7,8] 2; [8,10] 6 = 24 */
    test_condf(tot.iterations == 3 && tot.time == 10 && tot.held == 24 && tot.useful == 15 &&
               tot.workers == 2.4 && tot.efficiency == 15.0 / 24 &&
               tot.ratio == 10 / (15.0 / 24),
               "totals: 10 s, 24 worker-seconds, 15 useful, 2.4 workers (got %g %g %g %g)",
               tot.time, tot.held, tot.useful, tot.workers);
    test_cond("a time going back refused", pool_meter_join(&m, 9, &err) == SCHED_EINVAL &&
              strstr(err.msg, "t=9"));
    test_cond("end without begin refused", pool_meter_end(&m, 11, &st, &err) != 0);
    pool_meter_begin(&m, 11, &err);
    test_cond("begin twice refused", pool_meter_begin(&m, 12, &err) != 0);
    pool_meter_init(&m, 0);
    test_cond("leave with none held refused", pool_meter_leave(&m, 1, &err) != 0 &&
              strstr(err.msg, "none is held"));
}

static void test_bad(void)
{
    sched_err err;
    test_cond("unknown strategy named, valid ones listed",
              !pool_type_find("bogus", &err) && err.code == SCHED_ENOENT &&
              strstr(err.msg, "'bogus'") && strstr(err.msg, "adjust, static"));
    test_cond("ADJUST found (case-insensitive)", pool_type_find("ADJUST", &err) == &pool_adjust);
    pool_params par;
    pool_params_init(&par);
    test_cond("asp 'round' refused, named",
              pool_params_set(&par, "asp", "round", &err) == SCHED_EINVAL &&
              strstr(err.msg, "'round'") && par.asp == POOL_ASP_FLOOR1);
    test_cond("asp ceil", pool_params_set(&par, "asp", "ceil", &err) == 0 &&
              par.asp == POOL_ASP_CEIL);
    test_cond("threshold -1 refused", pool_params_set(&par, "threshold", "-1", &err) ==
              SCHED_EINVAL && strstr(err.msg, "'-1'"));
    test_cond("efficiency 1.5 refused", pool_params_set(&par, "efficiency", "1.5", &err) ==
              SCHED_EINVAL && strstr(err.msg, "'1.5'"));
    test_cond("unknown parameter", pool_params_set(&par, "speed", "1", &err) ==
              SCHED_ENOENT && strstr(err.msg, "'speed'"));
    test_cond("ntasks 0 refused, named", !pool_new(&pool_adjust, 0, NULL, &err) &&
              strstr(err.msg, "ntasks=0"));
    test_cond("ntasks above the limit refused",
              !pool_new(&pool_static, POOL_MAX_TASKS + 1, NULL, &err) &&
              err.code == SCHED_EINVAL);
    pool_params_init(&par);
    par.threshold = NAN;
    test_cond("threshold NAN refused", !pool_new(&pool_adjust, 4, &par, &err) &&
              strstr(err.msg, "threshold=nan"));
    pool_params_init(&par);
    par.efficiency = -0.5;
    test_cond("efficiency -0.5 refused", !pool_new(&pool_adjust, 4, &par, &err) &&
              strstr(err.msg, "efficiency=-0.5"));

    pool *p = make("adjust", 4, POOL_ASP_FLOOR1);
    int task[2] = {0, 1};
    double t[2] = {1, 2};
    struct { const char *what, *msg; pool_iter_stats st; } bad[] = {
        {"no task", "ntask=0", {.ntask = 0, .task = task, .time = t, .next_tasks = 1}},
        {"task out of range", "task[1]=7", {.ntask = 2, .task = (int[]){0, 7}, .time = t}},
        {"task twice", "task[1]=0 appears twice",
         {.ntask = 2, .task = (int[]){0, 0}, .time = t}},
        {"negative time", "time[1]=-2",
         {.ntask = 2, .task = task, .time = (double[]){1, -2}}},
        {"NAN exec time", "exec_time=nan",
         {.ntask = 2, .task = task, .time = t, .exec_time = NAN}},
        {"next_tasks 5 of 4", "next_tasks=5",
         {.ntask = 2, .task = task, .time = t, .next_tasks = 5}},
        {"negative held", "held=-1", {.ntask = 2, .task = task, .time = t, .held = -1}},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int n = pool_iteration_end(p, &bad[i].st, NULL, &err);
        test_condf(n == -1 && strstr(err.msg, bad[i].msg) && pool_workers(p) == 4,
                   "bad stats, %s: refused naming '%s', nothing changed (got %d: %s)",
                   bad[i].what, bad[i].msg, n, err.msg);
    }
    /* the duplicate check leaves nothing marked: a good call still works */
    pool_iter_stats ok = {.ntask = 2, .task = task, .time = t, .next_tasks = 2,
                          .exec_time = 2, .held = 4, .workers = 1};
    test_cond("after refusals, good stats are taken", pool_iteration_end(p, &ok, NULL, &err) == 2);
    test_cond("and recorded once", pool_average(p, 1) == 2);
    pool_free(p);
}

/* ---- the replay ------------------------------------------------------------- */

/* A trace in memory: rows of M costs, NAN for '-'. */
static sim_trace mktrace(int M, long n, const double *rows)
{
    sim_trace tr = {.parts = M, .n = n, .first = 1, .unit = SIM_UNIT_SECONDS};
    tr.cost = malloc(sizeof *tr.cost * (size_t)(M * n));
    memcpy(tr.cost, rows, sizeof *tr.cost * (size_t)(M * n));
    return tr;
}

static int replay(const char *strategy, pool_asp asp, double delay, const sim_trace *tr,
                  sim_pool_result *r)
{
    sim_pool_config c;
    sim_pool_config_init(&c);
    sched_err err;
    c.type = pool_type_find(strategy, &err);
    c.params.asp = asp;
    c.delay = delay;
    char msg[256];
    int rc = sim_pool_run(&c, tr, r, msg, sizeof msg);
    if (rc != 0)
        printf("replay: %s\n", msg);
    return rc;
}

#define X NAN
/* Four parts; part 4 done after iteration 1, part 3 after iteration 2. */
static const double tiny[] = {4, 2, 1, 1,
                              4, 2, 1, X,
                              3, 2, X, X};

static int near(double a, double b) { return fabs(a - b) < 1e-12; }

static void test_replay_adjust(void)
{
    sim_trace tr = mktrace(4, 3, tiny);
    sim_pool_result r;
    /* delay 1: workers arrive at 1, 2, 3, 4 (one at a time). Iteration 1
     * from 0: p1 (4 s) on w1 1-5, p2 w2 2-4, p3 w3 3-4; at 4 p2's worker
     * takes p4 (4-5) and w4 arrives idle. End 5: held 4 + 3 + 2 + 1 = 10,
     * sum 8: efficiency 0.8; 4 held of 4: not criterion 1; a worker came
     * during it: unstable, keep 4, capped to the 3 tasks left. Iteration 2
     * (5-9), 3 workers, one task each: held 12, sum 7; stable; time 4 <=
     * 4 + max(1, 0.6): no add; 7/12 < 0.8: release: 2. Iteration 3 (9-12):
     * held 6, sum 5: 0.83: keep, then 0 after the last. */
    test_cond("adjust, delay 1: runs", replay("adjust", POOL_ASP_FLOOR1, 1, &tr, &r) == 0);
    const pool_decision *d = &r.it[0].d;
    test_condf(d->exec_time == 5 && d->efficiency == 0.8 && d->current == 4 && !d->stable &&
               d->rule == POOL_UNSTABLE && d->capped && d->nworkers == 3,
               "iteration 1: time 5, eff 0.8, 4 held, unstable, capped to 3 "
               "(got %g %g %d %s %d)", d->exec_time, d->efficiency, d->current,
               pool_rule_name(d->rule), d->nworkers);
    d = &r.it[1].d;
    test_condf(d->exec_time == 4 && near(d->efficiency, 7.0 / 12) && d->current == 3 &&
               d->stable && d->rule == POOL_RELEASE && d->nworkers == 2,
               "iteration 2: time 4, eff 7/12, stable, release: 2 (got %g %g %s %d)",
               d->exec_time, d->efficiency, pool_rule_name(d->rule), d->nworkers);
    d = &r.it[2].d;
    test_condf(d->exec_time == 3 && near(d->efficiency, 5.0 / 6) && d->current == 2 &&
               d->rule == POOL_KEEP && d->nworkers == 0,
               "iteration 3: time 3, eff 5/6, keep, then 0 (got %g %g %s %d)",
               d->exec_time, d->efficiency, pool_rule_name(d->rule), d->nworkers);
    test_condf(r.totals.time == 12 && r.totals.held == 28 && r.totals.useful == 20 &&
               near(r.totals.workers, 28.0 / 12) && r.peak == 4 && r.requested == 4 &&
               r.released == 4 && r.cancelled == 0,
               "totals: 12 s, 28 worker-seconds, 20 useful, peak 4 (got %g %g %g %d)",
               r.totals.time, r.totals.held, r.totals.useful, r.peak);
    sim_pool_result_free(&r);

    /* delay 0: all 4 at t = 0, before the begin: iteration 1 stable; time
     * 4 (p1 alone), not above 4 + max(1, 0.6); 8/16 = 0.5: release: 3. */
    replay("adjust", POOL_ASP_FLOOR1, 0, &tr, &r);
    d = &r.it[0].d;
    test_condf(d->stable && d->efficiency == 0.5 && d->rule == POOL_RELEASE &&
               d->nworkers == 3, "delay 0: iteration 1 stable, eff 0.5, release: 3 "
               "(got %d %g %s %d)", d->stable, d->efficiency, pool_rule_name(d->rule),
               d->nworkers);
    sim_pool_result_free(&r);
    free(tr.cost);
}

static void test_replay_static(void)
{
    sim_trace tr = mktrace(4, 3, tiny);
    sim_pool_result r;
    /* The same trace, static, delay 1. Iteration 1: as under adjust, but
     * p4 converges at 5 (no task in iteration 2): Nworkers 3, an idle
     * worker released at once. End 5: held 10, eff 0.8, 3 held. Iteration
     * 2 (5-9): p3 done at 6, converges: released; held 3 + 2 x 3 = 9, eff
     * 7/9. Iteration 3 (9-12), the last: p2 done at 11, released; p1 at
     * 12, released: held 2 x 2 + 1 = 5, eff 1, 0 held at its end. */
    test_cond("static, delay 1: runs", replay("static", POOL_ASP_FLOOR1, 1, &tr, &r) == 0);
    const pool_decision *d = r.it[0].d.current == 3 ? &r.it[0].d : NULL;
    test_condf(d && d->efficiency == 0.8 && d->before == 3 && d->rule == POOL_TASKS &&
               d->nworkers == 3, "iteration 1: a worker released as p4 converged: 3 held, "
               "eff 0.8 (got %d)", r.it[0].d.current);
    d = &r.it[1].d;
    test_condf(d->current == 2 && near(d->efficiency, 7.0 / 9) && d->nworkers == 2,
               "iteration 2: p3's worker released at 6: eff 7/9, 2 held (got %d %g)",
               d->current, d->efficiency);
    d = &r.it[2].d;
    test_condf(d->current == 0 && d->efficiency == 1 && d->nworkers == 0,
               "iteration 3: each worker released with its task: eff 1, none held at the "
               "end (got %d %g)", d->current, d->efficiency);
    test_condf(r.totals.held == 24 && r.totals.workers == 2 && r.released == 4,
               "totals: 24 worker-seconds, 2 workers on average (got %g %g)",
               r.totals.held, r.totals.workers);
    sim_pool_result_free(&r);
    free(tr.cost);

    /* "released when its task converges and no other task remains for
     * it": three parts of 1 s, part 3 done after iteration 1; delay 10.
     * One worker (at 10) runs p1, p2, p3 (10-13); p3 converges at 13 while
     * fewer workers are held (1) than tasks are left (2): no release, the
     * pending request at 30 is cancelled instead. Iteration 2 (13-15) on
     * the same worker: p1 converges at 14 (the last iteration): the
     * request at 20 cancelled; p2 at 15: the worker released. */
    static const double three[] = {1, 1, 1,
                                   1, 1, X};
    tr = mktrace(3, 2, three);
    replay("static", POOL_ASP_FLOOR1, 10, &tr, &r);
    test_condf(r.it[0].d.current == 1 && r.it[0].d.before == 2 && r.it[0].pending == 1 &&
               r.it[0].d.exec_time == 13,
               "a convergence with tasks left for the worker: no release, a request "
               "cancelled (held %d, asked %d, pending %d)", r.it[0].d.current,
               r.it[0].d.before, r.it[0].pending);
    test_condf(r.totals.time == 15 && r.totals.held == 5 && r.requested == 3 &&
               r.cancelled == 2 && r.released == 1 && r.peak == 1,
               "totals: 15 s, 5 worker-seconds, 3 asked, 2 cancelled, 1 released "
               "(got %g %g %ld %ld %ld)", r.totals.time, r.totals.held, r.requested,
               r.cancelled, r.released);
    sim_pool_result_free(&r);
    /* The same with delay 0: three workers at 0; p3 converges at 1, when
     * nothing is left for its worker: released at once. */
    replay("static", POOL_ASP_FLOOR1, 0, &tr, &r);
    test_condf(r.it[0].d.current == 2 && r.it[0].d.efficiency == 1 && r.released == 3,
               "delay 0: p3's worker released at 1, when nothing is left for it: 2 held, "
               "eff 3 / 3 = 1 (got %d %g)", r.it[0].d.current, r.it[0].d.efficiency);
    sim_pool_result_free(&r);
    free(tr.cost);
}

/* floor(asp) + 1 against ceil(asp) on one trace with asp whole (3). */
static void test_replay_readings(void)
{
    static const double rows[] = {2, 2, 1, 1,
                                  2, 2, 1, 1,
                                  2, 2, 1, 1};
    sim_trace tr = mktrace(4, 3, rows);
    sim_pool_result f, c;
    /* delay 1: arrivals 1, 2, 3, 4. Iteration 1: p1 1-3, p2 2-4, p3 on w1
     * 3-4, p4 on w3 3-4; the end at 4 comes before the arrival at 4: 3
     * held < 4 asked: criterion 1, asp 6 / 2 = 3. */
    replay("adjust", POOL_ASP_FLOOR1, 1, &tr, &f);
    replay("adjust", POOL_ASP_CEIL, 1, &tr, &c);
    test_condf(f.it[0].d.rule == POOL_SPEEDUP && f.it[0].d.asp == 3 &&
               f.it[0].d.current == 3 && f.it[0].d.nworkers == 4 && c.it[0].d.nworkers == 3,
               "iteration 1: asp 3: floor1 keeps 4, ceil asks 3 (got %d, %d)",
               f.it[0].d.nworkers, c.it[0].d.nworkers);
    /* floor1: the 4th worker joins at 4, before iteration 2 begins: stable,
     * time 2, 6 / 8 = 0.75: release. ceil: its request cancelled; 3
     * workers, time 2 (p3 then p4 on one), 6 / 6 = 1: keep. */
    test_condf(f.it[1].d.current == 4 && f.it[1].d.stable && f.it[1].d.efficiency == 0.75 &&
               f.it[1].d.rule == POOL_RELEASE && f.it[1].d.nworkers == 3,
               "floor1, iteration 2: 4 workers, eff 0.75, release (got %d %g %s)",
               f.it[1].d.current, f.it[1].d.efficiency, pool_rule_name(f.it[1].d.rule));
    test_condf(c.it[1].d.current == 3 && c.it[1].d.exec_time == 2 &&
               c.it[1].d.efficiency == 1 && c.it[1].d.rule == POOL_KEEP && c.cancelled == 1,
               "ceil, iteration 2: 3 workers, time 2, eff 1, keep (got %d %g %g %s)",
               c.it[1].d.current, c.it[1].d.exec_time, c.it[1].d.efficiency,
               pool_rule_name(c.it[1].d.rule));
    test_condf(f.totals.time == c.totals.time && f.totals.held > c.totals.held,
               "same time (8 s), ceil holds fewer worker-seconds (%g against %g)",
               c.totals.held, f.totals.held);
    sim_pool_result_free(&f);
    sim_pool_result_free(&c);
    free(tr.cost);
}

static void test_replay_bad(void)
{
    static const double rows[] = {1, 2};
    sim_trace tr = mktrace(2, 1, rows);
    sim_pool_config c;
    sim_pool_config_init(&c);
    /* The defaults: docs/pool.md, bin/pooltrace --help; the delay the one
     * calibrated on the Figures image's 32-part trace. */
    test_condf(strcmp(c.type->name, "adjust") == 0 && c.params.asp == POOL_ASP_FLOOR1 &&
               c.delay == 13 && c.border == 0 && c.scale == 1,
               "the default run: adjust, floor1, delay 13 s, no border update, scale 1 "
               "(%s, delay %g)", c.type->name, c.delay);
    char msg[256];
    sim_pool_result r;
    c.delay = -1;
    test_cond("delay -1 refused, named", sim_pool_run(&c, &tr, &r, msg, sizeof msg) == -1 &&
              strstr(msg, "delay -1"));
    sim_pool_config_init(&c);
    c.scale = 0;
    test_cond("scale 0 refused", sim_pool_check(&c, &tr, msg, sizeof msg) == -1 &&
              strstr(msg, "scale 0"));
    sim_pool_config_init(&c);
    c.border = NAN;
    test_cond("border NAN refused", sim_pool_check(&c, &tr, msg, sizeof msg) == -1 &&
              strstr(msg, "border update nan"));
    sim_pool_config_init(&c);
    c.scale = 1e9;
    test_cond("a cost 2 x 1e9 s refused with its iteration and part",
              sim_pool_check(&c, &tr, msg, sizeof msg) == -1 &&
              strstr(msg, "iteration 1, part 2"));
    sim_pool_config_init(&c);
    c.scale = 4e8;                  /* each task fine, the run past 1e9 s */
    static const double many[] = {1, 1, 1, 1, 1, 1};
    sim_trace t3 = mktrace(1, 6, many);
    test_cond("a run past 1e9 s stops, saying so",
              sim_pool_run(&c, &t3, &r, msg, sizeof msg) == -1 &&
              strstr(msg, "cannot end"));
    free(t3.cost);
    free(tr.cost);
    /* The default scale of a trace in pixels: 16 parts, the 8-part tasks
     * pairs of parts; the largest pair 60 + 40 = 100 px -> 0.5 s/px. */
    double px[16] = {1, 1, 60, 40, 10, 10, X, 0, 0, 0, 0, 0, 0, 0, 30, 30};
    sim_trace p = mktrace(16, 1, px);
    p.unit = SIM_UNIT_PIXELS;
    test_condf(sim_trace_scale(&p) == 0.5, "pixels: 50 s / 100 px = 0.5 (got %g)",
               sim_trace_scale(&p));
    p.parts = 4;                    /* 4 parts: each its own 8-part task */
    test_condf(sim_trace_scale(&p) == 50.0 / 60, "4 parts: the largest part, 60 px "
               "(got %g)", sim_trace_scale(&p));
    for (int i = 0; i < 4; i++)
        p.cost[i] = 0;
    test_cond("a first iteration of no cost: no scale (NAN)", isnan(sim_trace_scale(&p)));
    p.unit = SIM_UNIT_SECONDS;
    test_cond("seconds: 1", sim_trace_scale(&p) == 1);
    free(p.cost);
}

/* ---- properties ---------------------------------------------------------------- */

static unsigned long lcg(unsigned long *s)
{
    *s = *s * 6364136223846793005UL + 1442695040888963407UL;
    return *s >> 33;
}

/* A trace like a thinning's: each part has a lifetime; its cost falls
 * with noise; some parts sleep a while and wake again. */
static sim_trace gen(unsigned long seed)
{
    unsigned long s = seed;
    int M = 1 + (int)(lcg(&s) % 12);
    long n = 1 + (long)(lcg(&s) % 30);
    double *rows = malloc(sizeof *rows * (size_t)(M * n));
    for (int i = 0; i < M; i++) {
        long life = 1 + (long)(lcg(&s) % (unsigned long)n);
        double c = (double)(lcg(&s) % 1000) / 100;
        for (long k = 0; k < n; k++) {
            int asleep = k > 0 && lcg(&s) % 7 == 0;
            rows[k * M + i] = k < life && !asleep
                ? c * (1 - 0.5 * (double)k / (double)life) + (double)(lcg(&s) % 50) / 100 : X;
        }
    }
    for (long k = 0; k < n; k++) {          /* every iteration has a task */
        int any = 0;
        for (int i = 0; i < M; i++)
            any |= !isnan(rows[k * M + i]);
        if (!any)
            rows[k * M + (int)(k % M)] = 0.5;
    }
    sim_trace tr = mktrace(M, n, rows);
    free(rows);
    return tr;
}

/* Two runs' numbers, field by field (structs may differ in padding). */
static int same(const sim_pool_result *a, const sim_pool_result *b)
{
    if (a->n != b->n || a->totals.time != b->totals.time ||
        a->totals.held != b->totals.held || a->peak != b->peak ||
        a->requested != b->requested || a->cancelled != b->cancelled)
        return 0;
    for (long k = 0; k < a->n; k++) {
        const sim_pool_iter *x = &a->it[k], *y = &b->it[k];
        if (x->begin != y->begin || x->most != y->most || x->pending != y->pending ||
            x->d.exec_time != y->d.exec_time || x->d.efficiency != y->d.efficiency ||
            x->d.current != y->d.current || x->d.nworkers != y->d.nworkers ||
            x->d.rule != y->d.rule)
            return 0;
    }
    return 1;
}

static void test_properties(void)
{
    static const double delays[] = {0, 0.5, 3};
    int runs = 0, bad = 0;
    for (unsigned long seed = 1; seed <= 150; seed++) {
        sim_trace tr = gen(seed);
        for (int s = 0; pool_types[s]; s++)
            for (int a = 0; a < 2; a++)
                for (int dl = 0; dl < 3; dl++) {
                    if (pool_types[s] == &pool_static && a == 1)
                        continue;
                    sim_pool_config c;
                    sim_pool_config_init(&c);
                    c.type = pool_types[s];
                    c.params.asp = a ? POOL_ASP_CEIL : POOL_ASP_FLOOR1;
                    c.delay = delays[dl];
                    c.border = seed % 2 ? 0.25 : 0;
                    char msg[256];
                    sim_pool_result r, r2;
                    runs++;
                    if (sim_pool_run(&c, &tr, &r, msg, sizeof msg) != 0) {
                        if (bad++ < 5)
                            printf("FAIL seed %lu %s: %s\n", seed, c.type->name, msg);
                        continue;
                    }
                    double elapsed = 0;
                    const char *why = NULL;
                    for (long k = 0; k < r.n && !why; k++) {
                        const pool_decision *d = &r.it[k].d;
                        int next = 0, going_on = 0;
                        double sum = 0;
                        for (int i = 0; i < tr.parts; i++) {
                            if (k + 1 < tr.n) {
                                next += !isnan(sim_trace_cost(&tr, k + 1, i));
                                going_on += !isnan(sim_trace_cost(&tr, k, i)) &&
                                            !isnan(sim_trace_cost(&tr, k + 1, i));
                            }
                            if (!isnan(sim_trace_cost(&tr, k, i)))
                                sum += sim_trace_cost(&tr, k, i);
                        }
                        if (d->nworkers > next)
                            why = "Nworkers above the tasks left";
                        else if (next > 0 && d->nworkers < 1)
                            why = "Nworkers below 1 while tasks remain";
                        else if (k > 0 && d->before > r.it[k].tasks)
                            why = "requested above the iteration's tasks";
                        else if (d->current > d->before)
                            why = "more held than requested at an iteration's end";
                        else if (k + 1 < r.n && d->current < 1 &&
                                 (c.type == &pool_adjust || going_on > 0))
                            /* static: none held when every task converged
                             * (its workers went; woken tasks ask again) */
                            why = "no worker held at the end of an iteration";
                        else if (!(d->efficiency >= 0 && d->efficiency <= 1 + 1e-12))
                            why = "iteration efficiency outside [0, 1]";
                        else if (!(d->exec_time >= d->max - 1e-9))
                            why = "an iteration shorter than its largest task";
                        else if (fabs(d->sum - sum) > 1e-9 * (1 + sum))
                            why = "task times do not add up to the trace's";
                        else if (r.it[k].most > tr.parts)
                            why = "more workers than tasks";
                        elapsed += d->exec_time;
                    }
                    const pool_totals *t = &r.totals;
                    if (!why && !(t->efficiency >= 0 && t->efficiency <= 1 + 1e-12))
                        why = "run efficiency outside [0, 1]";
                    if (!why && !(t->time >= elapsed - 1e-9))
                        why = "run shorter than its iterations";
                    if (!why && r.requested - r.cancelled != r.released)
                        why = "workers that came and were not released";
                    if (!why && (sim_pool_run(&c, &tr, &r2, msg, sizeof msg) != 0 ||
                                 !same(&r, &r2)))
                        why = "a second run differs";
                    else if (!why)
                        sim_pool_result_free(&r2);
                    if (why && bad++ < 5)
                        printf("FAIL seed %lu %s asp %d delay %g: %s\n", seed, c.type->name,
                               a, c.delay, why);
                    sim_pool_result_free(&r);
                }
        free(tr.cost);
    }
    test_condf(bad == 0, "properties over %d replays (both strategies, both readings, "
               "3 delays): Nworkers within 1 .. tasks left, held <= requested, "
               "efficiency in [0, 1], deterministic (%d failed)", runs, bad);
}

/* Carrying out Nworkers as counts (sched/pool/pool.h, "Carrying out"),
 * worked by hand. */
static void test_carry_out(void)
{
    pool_moves mv;
    /* start: nothing held, 8 asked for: 8 requests */
    pool_carry_out(8, 0, 0, 0, &mv);
    test_cond("carry out 8 from nothing: 8 requests", mv.cancel == 0 && mv.release == 0 &&
              mv.request == 8);
    /* 3 held (1 idle), 5 pending, target 4: cancel 4 (3 + 5 - 4 = 4 pending too
     * many), nothing released (3 <= 4), nothing requested (3 + 1 = 4) */
    pool_carry_out(4, 3, 1, 5, &mv);
    test_cond("target 4, 3 held, 5 pending: 4 cancelled", mv.cancel == 4 &&
              mv.release == 0 && mv.request == 0);
    /* 6 held (2 idle), 1 pending, target 3: the pending one cancelled first,
     * then 2 idle released now; the third owed release waits for a busy one */
    pool_carry_out(3, 6, 2, 1, &mv);
    test_cond("target 3, 6 held (2 idle), 1 pending: cancel 1, release 2",
              mv.cancel == 1 && mv.release == 2 && mv.request == 0);
    /* the busy one finishes: 4 held, 1 idle: released */
    pool_carry_out(3, 4, 1, 0, &mv);
    test_cond("then a busy one finishes: it is released", mv.cancel == 0 &&
              mv.release == 1 && mv.request == 0);
    /* 2 held, 1 pending, target 5: 2 more requested */
    pool_carry_out(5, 2, 0, 1, &mv);
    test_cond("target 5, 2 held, 1 pending: 2 requested", mv.cancel == 0 &&
              mv.release == 0 && mv.request == 2);
    /* target 0 at the end: everything cancelled and every idle one released */
    pool_carry_out(0, 3, 3, 2, &mv);
    test_cond("target 0: cancel 2, release 3", mv.cancel == 2 && mv.release == 3 &&
              mv.request == 0);
    /* nonsense counts count as 0; idle above held counts as held */
    pool_carry_out(-1, 2, 5, -3, &mv);
    test_cond("negative counts as 0, idle capped by held", mv.cancel == 0 &&
              mv.release == 2 && mv.request == 0);
    /* the allocation delay (docs/pool.md): one worker at a time */
    test_cond("arrival with none pending: t + delay", pool_arrival(5, 5, 13) == 18);
    test_cond("arrival behind a pending one: its arrival + delay",
              pool_arrival(5, 30, 13) == 43);
    test_cond("arrival after the last pending one came: t + delay",
              pool_arrival(50, 30, 13) == 63);
    test_cond("delay 0: at once", pool_arrival(7, 7, 0) == 7);
    /* the other reading: every request served in the same pass */
    test_cond("together: t + delay, whatever is pending", pool_arrival_together(5, 13) == 18);
    test_cond("together, delay 0: at once", pool_arrival_together(7, 0) == 7);
}

int main(void)
{
    test_carry_out();
    test_first();
    test_speedup();
    test_threshold();
    test_release();
    test_static();
    test_order();
    test_meter();
    test_bad();
    test_replay_adjust();
    test_replay_static();
    test_replay_readings();
    test_replay_bad();
    test_properties();
    return test_report();
}
