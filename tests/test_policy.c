/* test_policy.c: the coordinator's policy (sched/loop/policy.c) and the
 * Tree-Scheduling pieces (sched/loop/tree.c), driven by plain events. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched/late/late.h"
#include "sched/loop/ahead.h"
#include "sched/loop/policy.h"
#include "tests/test.h"

static policy *make(const char *scheme, long I, int n)
{
    sched_err err;
    sched_config cfg;
    sched_config_init(&cfg, sched_type_find(scheme, &err), I, n);
    return policy_new(&cfg, n, &err);
}

/* Xu & Chronopoulos Sec. 5.3 step 1: reports in any order, ACPSA by
 * decreasing A_i, chunks by eq. 7 and 9 (the same worked example as
 * test_sched.c: I = 100, A = 4, 3, 2, 1 gives 20, 14, 9, 4). */
static void test_acpsa_order(void)
{
    policy *p = make("dtss", 100, 4);
    sched_err err;
    static const double A[4] = {1, 4, 2, 3};
    for (int w = 0; w < 4; w++)
        policy_request(p, w, A[w], &err);
    test_cond("start", policy_start(p, &err) == SCHED_OK);
    int order[4];
    double acp[4];
    int n = policy_acpsa(p, order, acp);
    test_cond("ACPSA sorts by decreasing A_i: workers 1, 3, 2, 0",
              n == 4 && order[0] == 1 && order[1] == 3 && order[2] == 2 &&
              order[3] == 0);
    policy_chunk c[4];
    for (int i = 0; i < 4; i++)
        policy_assign(p, &c[i], NULL);
    test_cond("requests served in ACPSA order",
              c[0].worker == 1 && c[1].worker == 3 && c[2].worker == 2 &&
              c[3].worker == 0);
    test_cond("chunks by eq. 7 and 9: 20, 14, 9, 4",
              c[0].size == 20 && c[1].size == 14 && c[2].size == 9 &&
              c[3].size == 4);
    test_cond("chunks are contiguous from 0",
              c[0].start == 0 && c[1].start == 20 && c[2].start == 34 &&
              c[3].start == 43);
    policy_chunk x;
    test_cond("nothing to serve with an empty queue", policy_assign(p, &x, NULL) == 0);

    /* Step 2: later requests are served first come, first served, each sized
     * with the A_i it carries. Worker 0 now reports A = 2 (one change of
     * four: no re-plan). S = 10: C = 2 (5 - D (10 + 0.5)) = 7.40 -> 8. */
    policy_done(p, c[3].worker, c[3].id, &err);
    policy_request(p, 0, 2.0, &err);
    policy_done(p, c[2].worker, c[2].id, &err);
    policy_request(p, 2, 2.0, &err);
    policy_assign(p, &x, NULL);
    test_condf(x.worker == 0 && x.size == 8 && x.acp == 2.0,
               "first come first served, sized with the new A_i = 2: 8 (got w%d %ld)",
               x.worker, x.size);
    test_cond("one change of four does not re-plan", policy_replans(p) == 0);
    policy_free(p);
}

/* The re-plan rule: more than half of the A_i changed since the last plan. */
static void test_replan(void)
{
    sched_err err;
    policy *p = make("dtss", 10000, 4);
    for (int w = 0; w < 4; w++)
        policy_request(p, w, 1.0, &err);
    policy_start(p, &err);
    policy_chunk c[4];
    for (int i = 0; i < 4; i++)
        policy_assign(p, &c[i], NULL);
    policy_done(p, c[0].worker, c[0].id, &err);
    policy_request(p, c[0].worker, 0.5, &err);
    policy_done(p, c[1].worker, c[1].id, &err);
    policy_request(p, c[1].worker, 0.25, &err);
    test_cond("two changes of four: no re-plan (needs more than half)",
              policy_replans(p) == 0);
    policy_done(p, c[2].worker, c[2].id, &err);
    policy_request(p, c[2].worker, 0.5, &err);
    test_cond("three changes of four: re-plan", policy_replans(p) == 1);
    int order[4];
    double acp[4];
    policy_acpsa(p, order, acp);
    test_cond("the ACPSA holds the new A_i",
              acp[c[0].worker] == 0.5 && acp[c[1].worker] == 0.25 &&
              acp[c[2].worker] == 0.5 && acp[c[3].worker] == 1.0);
    test_cond("ACPSA order after the re-plan: the unchanged worker first",
              order[0] == c[3].worker && order[3] == c[1].worker);
    /* Queue re-sorted by the new ACPSA: A = 0.5, 0.5, 0.25. */
    policy_chunk x;
    policy_assign(p, &x, NULL);
    test_cond("queue re-sorted: an A = 0.5 worker first",
              x.worker == c[0].worker || x.worker == c[2].worker);
    /* After the re-plan, eq. 1-3 with I = the unassigned iterations and
     * A = 0.5 + 0.25 + 0.5 + 1 = 2.25, S = 0: eq. 7 for A_i = 0.5 gives
     * C = 0.5 (F - D (0.5 - 1) / 2). */
    double R = 10000.0 - c[0].size - c[1].size - c[2].size - c[3].size;
    double F = R / 4.5, N = 2 * R / (F + 1), D = (F - 1) / (N - 1);
    long want = (long)ceil(0.5 * (F + D * 0.25));
    test_condf(x.size == want, "re-planned chunk by eq. 1-3, 7: %ld (got %ld)",
               want, x.size);
    policy_free(p);

    /* TSS never re-plans: the rule is DTSS's. */
    p = make("tss", 10000, 2);
    policy_request(p, 0, 1, &err);
    policy_request(p, 1, 1, &err);
    policy_start(p, &err);
    policy_assign(p, &c[0], NULL);
    policy_assign(p, &c[1], NULL);
    policy_done(p, c[0].worker, c[0].id, &err);
    policy_request(p, 0, 0.1, &err);
    policy_done(p, c[1].worker, c[1].id, &err);
    policy_request(p, 1, 0.1, &err);
    test_cond("tss does not re-plan", policy_replans(p) == 0);
    policy_assign(p, &x, NULL);
    test_cond("tss sizes chunks with A = 1 whatever was reported", x.acp == 1.0);
    policy_free(p);
}

/* A lost worker's chunk is served again; every iteration done exactly once. */
static void test_lost(void)
{
    sched_err err;
    policy *p = make("dtss", 1000, 3);
    for (int w = 0; w < 3; w++)
        policy_request(p, w, 1.0, &err);
    policy_start(p, &err);
    policy_chunk c[3], x;
    for (int i = 0; i < 3; i++)
        policy_assign(p, &c[i], NULL);
    test_cond("lost worker returns one chunk", policy_lost(p, c[1].worker, NULL) == 1);
    test_cond("a lost worker may not ask again",
              policy_request(p, c[1].worker, 1, &err) == SCHED_EINVAL);
    test_cond("a late result of the lost chunk is refused",
              policy_done(p, c[1].worker, c[1].id, &err) == SCHED_EINVAL);
    policy_done(p, c[0].worker, c[0].id, &err);
    policy_request(p, c[0].worker, 1, &err);
    policy_assign(p, &x, NULL);
    test_cond("the lost chunk is served first, whole",
              x.reissue && x.start == c[1].start && x.size == c[1].size &&
              x.worker == c[0].worker);
    test_cond("a duplicate result is refused",
              policy_done(p, c[0].worker, c[0].id, &err) == SCHED_EINVAL);
    test_cond("two workers left", policy_alive(p) == 2);
    policy_free(p);
}

/* Completes chunk c at worker w at time t and asks again (A_i = 1). */
static int finish_at(policy *p, const policy_chunk *c, double t)
{
    sched_err err;
    policy_now(p, t);
    int rc = policy_done(p, c->worker, c->id, &err);
    policy_request(p, c->worker, 1.0, &err);
    return rc;
}

/* Worker 0 hangs with chunk a; worker 1 computes the rest at 100 iterations
 * a second (0.01 s each). Leaves p with worker 1 queued and nothing new to
 * assign; *t is then the time. */
static policy *hang_one(double factor, double min, policy_chunk *a, double *t)
{
    sched_err err;
    policy *p = make("tss", 100, 2);
    if (factor >= 0)
        policy_set_late(p, factor, min, &err);
    policy_now(p, 0);
    policy_request(p, 0, 1, &err);
    policy_request(p, 1, 1, &err);
    policy_start(p, &err);
    policy_chunk b;
    policy_assign(p, a, NULL);
    policy_assign(p, &b, NULL);
    *t = 0;
    do {
        *t += b.size * 0.01;
        finish_at(p, &b, *t);
    } while (policy_assign(p, &b, NULL) == 1);
    return p;
}

/* Late chunks (a hung worker): served again at the right moment and not
 * before, to the waiting worker; the first result in counts. */
static void test_late(void)
{
    sched_err err;
    policy_chunk a, x;
    double t;
    /* TSS, I = 100, P = 2: worker 0 holds the first chunk, F = 25. Worker 0
     * has completed nothing: the run's rate, 100/s, gives 0.25 s; 3 x 0.25
     * = 0.75 s < MIN = 2 s, so a is late after 2 s. */
    policy *p = hang_one(3, 2, &a, &t);
    test_condf(a.worker == 0 && a.size == 25 && t > 0.7 && t < 0.8 &&
               policy_remaining(p) == 25 && policy_queued(p) == 1,
               "worker 1 did the rest by t = 0.75 and waits (a: w%d %ld, t %g)",
               a.worker, a.size, t);
    policy_now(p, 1.99);
    test_cond("not late before MIN = 2 s", policy_assign(p, &x, NULL) == 0);
    test_cond("worker 0 not yet marked late", !policy_late_worker(p, 0));
    policy_now(p, 2.01);
    test_cond("late after 2 s: served again to the waiting worker",
              policy_assign(p, &x, NULL) == 1 && x.worker == 1 && x.late &&
              x.reissue && x.of == a.id && x.start == a.start && x.size == a.size &&
              x.id != a.id);
    test_cond("its holder is marked late", policy_late_worker(p, 0) &&
              !policy_late_worker(p, 1));
    test_cond("the copy is not served twice", policy_assign(p, &x, NULL) == 0);
    test_cond("the copy's result is in first: counted, the run is finished",
              finish_at(p, &x, 2.3) == SCHED_OK && policy_finished(p) &&
              policy_remaining(p) == 0);
    test_cond("the late original's result is refused as a duplicate",
              policy_done(p, 0, a.id, &err) == SCHED_EINVAL && policy_remaining(p) == 0);
    test_cond("worker 0 asks again: no longer marked late",
              policy_request(p, 0, 1, &err) == SCHED_OK && !policy_late_worker(p, 0));
    policy_free(p);

    /* The original answers first: the copy's result is refused. */
    p = hang_one(3, 2, &a, &t);
    policy_now(p, 2.5);
    policy_assign(p, &x, NULL);
    test_cond("the late original answers first: counted",
              finish_at(p, &a, 2.6) == SCHED_OK && policy_finished(p));
    test_cond("then the copy's result is refused",
              policy_done(p, x.worker, x.id, &err) == SCHED_EINVAL &&
              policy_remaining(p) == 0);
    policy_free(p);

    /* MIN = 0: the factor alone. 3 x 0.25 s = 0.75 s after a was sent. */
    p = hang_one(3, 0, &a, &t);
    policy_now(p, 0.74);
    test_cond("MIN 0: not late before 3 x the expected time",
              policy_assign(p, &x, NULL) == 0);
    policy_now(p, 0.76);
    test_cond("MIN 0: late after 3 x the expected time",
              policy_assign(p, &x, NULL) == 1 && x.late);
    policy_free(p);

    /* Off: by default, and with factor 0. */
    for (int k = 0; k < 2; k++) {
        p = hang_one(k ? 0 : -1, 2, &a, &t);
        policy_now(p, 1e6);
        test_condf(policy_assign(p, &x, NULL) == 0 && !policy_late_worker(p, 0),
                   "late chunks off (%s): nothing served again", k ? "factor 0" :
                   "the default");
        policy_free(p);
    }
    p = make("tss", 100, 2);
    test_cond("factor 0.5 refused", policy_set_late(p, 0.5, 1, &err) == SCHED_EINVAL);
    test_cond("MIN < 0 refused", policy_set_late(p, 3, -1, &err) == SCHED_EINVAL);
    policy_free(p);

    /* No chunk completed yet: no rate, nothing is late. */
    p = make("tss", 2, 3);
    policy_set_late(p, 1, 0, &err);
    policy_now(p, 0);
    for (int w = 0; w < 3; w++)
        policy_request(p, w, 1, &err);
    policy_start(p, &err);
    policy_chunk c[2];
    policy_assign(p, &c[0], NULL);
    policy_assign(p, &c[1], NULL);
    policy_now(p, 1e6);
    test_condf(c[0].size == 1 && c[1].size == 1 && policy_assign(p, &x, NULL) == 0,
               "no chunk completed: nothing late (%ld, %ld)", c[0].size, c[1].size);
    policy_free(p);

    /* A copy's worker is lost: the range stays with the hung original (not
     * in the pool), which is late again and goes to the next waiting one.
     * The original's worker is lost: nothing goes back, the copy is out. */
    p = make("tss", 100, 3);
    policy_set_late(p, 3, 1, &err);
    policy_now(p, 0);
    for (int w = 0; w < 3; w++)
        policy_request(p, w, 1, &err);
    policy_start(p, &err);
    policy_chunk b, d;
    policy_assign(p, &a, NULL);                 /* worker 0 hangs with it */
    policy_assign(p, &b, NULL);
    policy_assign(p, &d, NULL);
    t = 0;
    int has[2] = {1, 1};                        /* workers 1, 2 do the rest */
    while (has[0] || has[1]) {
        policy_chunk *e = !has[1] || (has[0] && b.size <= d.size) ? &b : &d;
        t += e->size * 0.01;
        finish_at(p, e, t);
        has[e == &d] = policy_assign(p, e, NULL) == 1;
    }
    test_cond("three workers: the rest done, a waits", policy_remaining(p) == a.size);
    policy_now(p, t + 10);
    policy_assign(p, &x, NULL);                 /* a copy of a to one of them */
    int other = x.worker == 1 ? 2 : 1;
    test_condf(x.late && x.of == a.id && policy_queued(p) == 1,
               "a copy of a to worker %d, the other waits", x.worker + 1);
    test_cond("a has a copy out: the other worker gets none",
              policy_assign(p, &b, NULL) == 0);
    test_cond("the copy's worker lost: nothing goes to the pool (a is still out)",
              policy_lost(p, x.worker, &err) == 0);
    policy_chunk y;
    test_cond("a is copied again, to the other worker",
              policy_assign(p, &y, NULL) == 1 && y.late && y.of == a.id &&
              y.worker == other);
    test_cond("a's own worker lost: nothing goes back (the copy is out)",
              policy_lost(p, 0, &err) == 0);
    test_cond("the copy finishes the run",
              finish_at(p, &y, t + 11) == SCHED_OK && policy_finished(p));
    policy_free(p);
}

/* Rates are per worker: a chunk's expected time is its size over the rate of
 * the worker that holds it (60 and 100 iterations a second here). */
static void test_late_rates(void)
{
    sched_err err;
    static const double rate[2] = {60, 100};
    policy *p = make("tss", 1000, 2);
    policy_set_late(p, 3, 0, &err);
    policy_now(p, 0);
    policy_request(p, 0, 1, &err);
    policy_request(p, 1, 1, &err);
    policy_start(p, &err);
    policy_chunk busy[2];
    double sent[2] = {0, 0}, it[2] = {0, 0};
    policy_assign(p, &busy[0], NULL);
    policy_assign(p, &busy[1], NULL);
    int w;
    for (;;) {                                  /* the earlier end first */
        double end[2];
        for (int v = 0; v < 2; v++)
            end[v] = sent[v] + busy[v].size / rate[v];
        w = end[0] <= end[1] ? 0 : 1;
        finish_at(p, &busy[w], end[w]);
        it[w] += busy[w].size;
        sent[w] = end[w];
        if (policy_assign(p, &busy[w], NULL) != 1)
            break;
    }
    int h = 1 - w;                              /* holds the last chunk */
    double own = sent[h] + 3 * busy[h].size / rate[h];
    double all = sent[h] + 3 * busy[h].size * (sent[0] + sent[1]) / (it[0] + it[1]);
    test_condf(it[h] > 0 && fabs(own - all) > 0.1,
               "worker %d holds the last chunk, has completed some: its rate and "
               "the run's differ (%.2f s, %.2f s)", h + 1, own, all);
    policy_chunk x;
    policy_now(p, own - 0.01);
    test_cond("not late before 3 x size / its worker's rate",
              policy_assign(p, &x, NULL) == 0);
    policy_now(p, own + 0.01);
    test_cond("late after it", policy_assign(p, &x, NULL) == 1 && x.of == busy[h].id);
    policy_free(p);
}

/* A whole run, by events, for every scheme: workers of speeds 1..n finish
 * chunks in time order; one is lost half way. Every iteration is done exactly
 * once and the run finishes. */
static void test_runs(void)
{
    enum { N = 4 };
    const long I = 5000;
    char *hits = malloc((size_t)I);
    for (int t = 0; sched_types[t]; t++)
        for (int lose = 0; lose < 2; lose++) {
            sched_err err;
            policy *p = make(sched_types[t]->name, I, N);
            memset(hits, 0, (size_t)I);
            double clock[N] = {0};
            policy_chunk busy[N];
            int has[N] = {0}, alive[N] = {1, 1, 1, 1};
            for (int w = 0; w < N; w++)
                policy_request(p, w, w + 1.0, &err);
            policy_start(p, &err);
            int steps = 0, ok = 1, lost_done = !lose;
            while (!policy_finished(p) && steps++ < 100000) {
                policy_chunk c;
                while (policy_assign(p, &c, NULL) == 1) {
                    busy[c.worker] = c;
                    has[c.worker] = 1;
                }
                /* The busy worker that finishes first (speed w + 1). */
                int w = -1;
                double best = 1e300;
                for (int v = 0; v < N; v++)
                    if (alive[v] && has[v]) {
                        double end = clock[v] + busy[v].size / (v + 1.0);
                        if (end < best) {
                            best = end;
                            w = v;
                        }
                    }
                if (w < 0) {
                    ok = 0;
                    break;
                }
                if (!lost_done && policy_remaining(p) < I / 2) {
                    policy_lost(p, w, NULL);          /* dies before reporting */
                    alive[w] = 0;
                    lost_done = 1;
                    continue;
                }
                clock[w] = best;
                for (long i = busy[w].start; i < busy[w].start + busy[w].size; i++)
                    hits[i]++;
                has[w] = 0;
                ok &= policy_done(p, w, busy[w].id, &err) == SCHED_OK;
                policy_request(p, w, w + 1.0, &err);
            }
            int once = 1;
            for (long i = 0; i < I; i++)
                once &= hits[i] == 1;
            test_condf(ok && policy_finished(p) && once,
                       "%s%s: every iteration done exactly once",
                       sched_types[t]->name, lose ? ", a worker lost" : "");
            policy_free(p);
        }
    free(hits);
}

/* A whole run for every scheme with late chunks on: the fastest worker
 * (speed n) hangs with its first chunk (its expected time from the run's
 * rate), or with its second (from its own; CSS gives it none) and never
 * answers, nor is it lost; the others serve that chunk again and the run
 * finishes with every iteration done once. */
static void test_runs_hung(void)
{
    enum { N = 4 };
    const long I = 5000;
    char *hits = malloc((size_t)I);
    for (int t = 0; sched_types[t]; t++)
    for (int after = 0; after < 2; after++) {
        sched_err err;
        policy *p = make(sched_types[t]->name, I, N);
        policy_set_late(p, 3, 1, &err);
        memset(hits, 0, (size_t)I);
        double clock = 0, end[N];
        policy_chunk busy[N];
        int has[N] = {0}, doneh = 0, steps = 0, copies = 0, h = N - 1;
        policy_now(p, 0);
        for (int w = 0; w < N; w++)
            policy_request(p, w, w + 1.0, &err);
        policy_start(p, &err);
        while (!policy_finished(p) && steps++ < 100000) {
            policy_chunk c;
            policy_now(p, clock);
            while (policy_assign(p, &c, NULL) == 1) {
                busy[c.worker] = c;
                has[c.worker] = 1;
                end[c.worker] = clock + c.size / (c.worker + 1.0);
                copies += c.late;
            }
            int w = -1;                 /* the next to finish; h hangs */
            for (int v = 0; v < N; v++)
                if (has[v] && !(v == h && doneh == after) && (w < 0 || end[v] < end[w]))
                    w = v;
            if (w < 0) {                /* every other worker waits */
                clock += 0.5;
                continue;
            }
            clock = end[w];
            policy_now(p, clock);
            has[w] = 0;
            if (policy_done(p, w, busy[w].id, &err) == SCHED_OK)
                for (long i = busy[w].start; i < busy[w].start + busy[w].size; i++)
                    hits[i]++;
            if (w == h)
                doneh++;
            policy_request(p, w, w + 1.0, &err);
        }
        int once = 1;
        for (long i = 0; i < I; i++)
            once &= hits[i] == 1;
        int hung = doneh == after && has[h];
        test_condf(policy_finished(p) && once && (hung || (after && doneh == 1)) &&
                   (!hung || (copies >= 1 && policy_late_worker(p, h))),
                   "%s, worker %d hung with chunk %d: %s (%d), every iteration "
                   "done exactly once", sched_types[t]->name, h + 1, after + 1,
                   hung ? "served again" : "it had none", copies);
        policy_free(p);
    }
    free(hits);
}

static void test_start_errors(void)
{
    sched_err err;
    policy *p = make("dtss", 100, 2);
    policy_request(p, 0, 0, &err);     /* integer A_i = 0: reported, not queued */
    policy_request(p, 1, 0, &err);
    test_cond("no worker with A_i > 0: start refused",
              policy_start(p, &err) == SCHED_EINVAL && strstr(err.msg, "A_i > 0"));
    test_cond("A_i = 0 is not queued", policy_queued(p) == 0);
    test_cond("worker index out of range refused",
              policy_request(p, 2, 1, &err) == SCHED_EINVAL);
    policy_request(p, 1, 1, &err);
    test_cond("a second request while queued is refused",
              policy_request(p, 1, 1, &err) == SCHED_EINVAL);
    test_cond("start with one worker able", policy_start(p, &err) == SCHED_OK);
    policy_chunk c;
    policy_assign(p, &c, NULL);
    test_cond("whole loop to the one worker (F = I/2A = 50, then more)",
              c.worker == 1 && c.size == 50);
    policy_free(p);
    sched_config cfg;
    sched_config_init(&cfg, &sched_tss, 100, 1);
    test_cond("zero workers refused", policy_new(&cfg, 0, &err) == NULL);
}

static void test_tree(void)
{
    /* Xu Table 2's cluster: three equal and one six times faster. */
    static const double V[4] = {1, 1, 1, 6};
    sched_err err;
    tree *t = tree_new(1200, V, 4, &err);
    const int *order = tree_chain(t);
    long start[5], size[5];
    test_cond("chain by decreasing speed: 3, 0, 1, 2",
              order[0] == 3 && order[1] == 0 && order[2] == 1 && order[3] == 2);
    for (int w = 0; w < 4; w++)
        tree_range(t, w, &start[w], &size[w]);
    /* 1200 V_i / 9 = 133.3, 133.3, 133.3, 800: one iteration left over goes
     * to the first of the tied remainders in chain order, worker 0. */
    test_cond("split in proportion to speed: 134, 133, 133, 800",
              size[0] == 134 && size[1] == 133 && size[2] == 133 && size[3] == 800);
    test_cond("ranges contiguous in chain order",
              start[3] == 0 && start[0] == 800 && start[1] == 934 && start[2] == 1067);
    test_cond("partner: the next slower along the chain",
              tree_partner(t, 3) == 0 && tree_partner(t, 0) == 1 &&
              tree_partner(t, 1) == 2);
    test_cond("the slowest has no partner; no one asks the fastest",
              tree_partner(t, 2) == -1);
    test_cond("give half, rounded down", tree_give(7) == 3 && tree_give(8) == 4 &&
              tree_give(1) == 0 && tree_give(0) == 0);
    tree_free(t);
    long total = 0;
    static const double V2[5] = {3, 1.5, 2, 2, 7};
    t = tree_new(997, V2, 5, &err);
    for (int i = 0; i < 5; i++) {
        tree_range(t, i, &start[i], &size[i]);
        total += size[i];
    }
    test_cond("split covers every iteration", total == 997);
    tree_free(t);
    static const double bad[2] = {1, 0};
    test_cond("V = 0 refused, naming the worker",
              tree_new(10, bad, 2, &err) == NULL && strstr(err.msg, "worker 2"));
}

/* The master's side of Tree-Scheduling without PVM: results counted once,
 * duplicates refused, a lost worker's range served again once every live
 * worker is idle, and the run ends with every iteration done once. */
static void test_tree_recovery(void)
{
    static const double V[3] = {1, 1, 1};
    sched_err err;
    tree *t = tree_new(30, V, 3, &err);     /* ranges [0,10) [10,20) [20,30) */
    policy_chunk c;
    test_cond("a result is taken", tree_result(t, 0, 0, 6, &err) == SCHED_OK);
    test_cond("the same iterations again are refused",
              tree_result(t, 1, 5, 2, &err) == SCHED_EINVAL);
    test_cond("a range outside the loop is refused",
              tree_result(t, 1, 28, 5, &err) == SCHED_EINVAL);
    test_cond("worker 1 steals [6, 10) from worker 0 and sends it",
              tree_result(t, 1, 6, 4, &err) == SCHED_OK && tree_remaining(t) == 20);
    tree_lost(t, 2);                        /* dies with [20, 30) */
    tree_idle(t, 0);
    test_cond("nothing served again while worker 1 still works",
              tree_recover(t, &c, &err) == 0);
    test_cond("worker 1's own range comes in", tree_result(t, 1, 10, 10, &err) == 0);
    tree_idle(t, 1);
    test_cond("every live worker idle: the lost range goes to the first idle",
              tree_recover(t, &c, &err) == 1 && c.worker == 0 && c.start == 20 &&
              c.size == 10 && c.reissue == 1);
    test_cond("served once only", tree_recover(t, &c, &err) == 0);
    test_cond("a late result from the lost worker would be a duplicate once in",
              tree_result(t, 0, 20, 10, &err) == SCHED_OK && tree_finished(t));
    test_cond("then refused", tree_result(t, 2, 20, 10, &err) == SCHED_EINVAL);
    tree_free(t);

    /* Two lost ranges, two idle workers: one each; the server of one range
     * dies too: its range is served again. */
    static const double V4[4] = {1, 1, 1, 1};
    t = tree_new(40, V4, 4, &err);
    tree_result(t, 0, 0, 10, &err);
    tree_result(t, 1, 10, 10, &err);
    tree_lost(t, 2);
    tree_lost(t, 3);
    tree_idle(t, 0);
    tree_idle(t, 1);
    policy_chunk a, b;
    int got = tree_recover(t, &a, &err) + tree_recover(t, &b, &err);
    test_condf(got == 1 && a.worker == 0 && a.start == 20 && a.size == 20,
               "the gap [20, 40) is one missing range, to worker 0 "
               "(got %d: w%d [%ld,+%ld))", got, a.worker + 1, a.start, a.size);
    tree_lost(t, 0);
    test_cond("its server dies: served again to worker 1",
              tree_recover(t, &b, &err) == 1 && b.worker == 1 && b.start == 20 &&
              b.size == 20);
    test_cond("worker 1 keeps [20, 25) and gives [25, 40) away (not counted yet)",
              tree_result(t, 1, 20, 5, &err) == 0 && !tree_finished(t));
    test_cond("and nobody works: [25, 40) is missing again", tree_recover(t, &b, &err)
              == 0);
    tree_idle(t, 1);
    test_cond("served again once worker 1 is idle",
              tree_recover(t, &b, &err) == 1 && b.start == 25 && b.size == 15);
    test_cond("done", tree_result(t, 1, 25, 15, &err) == 0 && tree_finished(t) &&
              tree_remaining(t) == 0);
    tree_free(t);
}

/* Resuming a broken Tree run (tree_resume, sched/loop/tree.c point 6): the
 * iterations not done are split by speed as one contiguous loop, in chain
 * order; a share that spans gaps is its first piece plus queued pieces.
 * Known answers worked out by hand here. */
static void test_tree_resume(void)
{
    sched_err err;
    policy_chunk c;
    long s0, n0, s1, n1;
    /* Two equal workers, I = 100, done [0,30) [50,60) [90,100) (given out of
     * order): the gaps [30,50) and [60,90), 50 iterations, 25 each; worker 0
     * (first in the chain) takes [30,50) and [60,65), worker 1 [65,90). */
    static const double V2[2] = {1, 1};
    const policy_range d1[3] = {{50, 10}, {0, 30}, {90, 10}};
    tree *t = tree_new(100, V2, 2, &err);
    test_cond("tree_resume takes three done ranges",
              tree_resume(t, d1, 3, &err) == SCHED_OK && tree_remaining(t) == 50);
    tree_range(t, 0, &s0, &n0);
    tree_range(t, 1, &s1, &n1);
    test_condf(s0 == 30 && n0 == 20 && s1 == 65 && n1 == 25,
               "resumed ranges: worker 0 [30,+20), worker 1 [65,+25) (got [%ld,+%ld) "
               "[%ld,+%ld))", s0, n0, s1, n1);
    test_cond("nothing is served before anyone is idle", tree_recover(t, &c, &err) == 0);
    test_cond("worker 0's first piece comes in", tree_result(t, 0, 30, 20, &err) == SCHED_OK);
    tree_idle(t, 0);
    test_cond("idle: worker 0 gets its queued piece [60, 65), not as a reissue",
              tree_recover(t, &c, &err) == 1 && c.worker == 0 && c.start == 60 &&
              c.size == 5 && c.reissue == 0);
    test_cond("served once", tree_recover(t, &c, &err) == 0);
    test_cond("a done range again is refused", tree_result(t, 1, 0, 5, &err) == SCHED_EINVAL);
    test_cond("the rest comes in: finished",
              tree_result(t, 0, 60, 5, &err) == SCHED_OK &&
              tree_result(t, 1, 65, 25, &err) == SCHED_OK && tree_finished(t));
    tree_free(t);

    /* The same, worker 1 idle first: it takes worker 0's queued piece. */
    t = tree_new(100, V2, 2, &err);
    tree_resume(t, d1, 3, &err);
    tree_result(t, 1, 65, 25, &err);
    tree_idle(t, 1);
    test_cond("an idle worker with no queued piece of its own takes another's",
              tree_recover(t, &c, &err) == 1 && c.worker == 1 && c.start == 60 &&
              c.size == 5);
    tree_free(t);

    /* Xu Table 2's speeds {1,1,1,6}, I = 1200, done [0,500) [700,1000): 400
     * left. 400 V_i / 9 = 44.4, 44.4, 44.4, 266.7 -> 44, 44, 44, 266; the two
     * left go to the largest remainders: worker 3 (.67), then worker 0 (the
     * first of the tied .44 in chain order 3, 0, 1, 2): 45, 44, 44, 267.
     * Worker 3: [500,700) and [1000,1067) queued; 0: [1067,1112); 1:
     * [1112,1156); 2: [1156,1200). */
    static const double V4[4] = {1, 1, 1, 6};
    const policy_range d2[2] = {{0, 500}, {700, 300}};
    long st[4], sz[4];
    t = tree_new(1200, V4, 4, &err);
    test_cond("tree_resume over speeds 1,1,1,6", tree_resume(t, d2, 2, &err) == SCHED_OK);
    for (int w = 0; w < 4; w++)
        tree_range(t, w, &st[w], &sz[w]);
    test_condf(st[3] == 500 && sz[3] == 200 && st[0] == 1067 && sz[0] == 45 &&
               st[1] == 1112 && sz[1] == 44 && st[2] == 1156 && sz[2] == 44,
               "resumed split 267 (200 + 67 queued), 45, 44, 44 (got w4 [%ld,+%ld) "
               "w1 [%ld,+%ld) w2 [%ld,+%ld) w3 [%ld,+%ld))", st[3], sz[3], st[0], sz[0],
               st[1], sz[1], st[2], sz[2]);
    /* worker 3 dies with [500,700); its queued [1000,1067) goes to the
     * first idle worker at once; [500,700) once every live worker is idle */
    tree_lost(t, 3);
    tree_result(t, 2, 1156, 44, &err);
    tree_idle(t, 2);
    test_cond("a lost worker's queued piece goes to the first idle worker, at once",
              tree_recover(t, &c, &err) == 1 && c.worker == 2 && c.start == 1000 &&
              c.size == 67 && c.reissue == 0);
    test_cond("its first range waits: others still work", tree_recover(t, &c, &err) == 0);
    tree_result(t, 0, 1067, 45, &err);
    tree_result(t, 1, 1112, 44, &err);
    tree_result(t, 2, 1000, 67, &err);
    tree_idle(t, 0);
    tree_idle(t, 1);
    tree_idle(t, 2);
    test_cond("every live worker idle: [500,700) served again to worker 0",
              tree_recover(t, &c, &err) == 1 && c.worker == 0 && c.start == 500 &&
              c.size == 200 && c.reissue == 1);
    test_cond("done", tree_result(t, 0, 500, 200, &err) == SCHED_OK && tree_finished(t));
    tree_free(t);

    /* Everything done: finished at once, every range empty. */
    const policy_range all[1] = {{0, 100}};
    t = tree_new(100, V2, 2, &err);
    tree_resume(t, all, 1, &err);
    tree_range(t, 0, &s0, &n0);
    tree_range(t, 1, &s1, &n1);
    test_cond("every iteration done: finished, empty ranges, nothing to serve",
              tree_finished(t) && n0 == 0 && n1 == 0 && tree_recover(t, &c, &err) == 0);
    tree_free(t);

    /* Bad input: refused, nothing changed. */
    t = tree_new(100, V2, 2, &err);
    const policy_range over[2] = {{10, 20}, {25, 10}}, out[1] = {{95, 10}};
    test_cond("overlapping done ranges refused, naming the range",
              tree_resume(t, over, 2, &err) == SCHED_EINVAL &&
              strstr(err.msg, "[25, +10) overlaps"));
    test_cond("a range outside the loop refused",
              tree_resume(t, out, 1, &err) == SCHED_EINVAL &&
              strstr(err.msg, "[95, +10) outside the loop"));
    tree_range(t, 1, &s1, &n1);
    test_cond("and nothing changed: the fresh split stands",
              s1 == 50 && n1 == 50 && tree_remaining(t) == 100);
    test_cond("resume after a result refused", tree_result(t, 0, 0, 5, &err) == SCHED_OK &&
              tree_resume(t, d1, 3, &err) == SCHED_EINVAL);
    tree_free(t);
    t = tree_new(100, V2, 2, &err);
    test_cond("resume twice refused", tree_resume(t, d1, 1, &err) == SCHED_OK &&
              tree_resume(t, d1, 1, &err) == SCHED_EINVAL);
    tree_free(t);

    /* Every iteration once: random done sets, workers finishing their
     * ranges in a random order, some lost. */
    unsigned seed = 12345;
    int ok = 1;
    for (int trial = 0; trial < 300 && ok; trial++) {
        enum { I = 200, W = 4 };
        char hit[I] = {0};
        double V[W];
        policy_range d[40];
        long nd = 0;
        for (int w = 0; w < W; w++)
            V[w] = 1 + (seed = seed * 1103515245 + 12345) % 5;
        for (long pos = 0; pos < I;) {
            long len = 1 + (seed = seed * 1103515245 + 12345) / 65536 % 20;
            if (len > I - pos)
                len = I - pos;
            if ((seed = seed * 1103515245 + 12345) / 65536 % 2 && nd < 40) {
                d[nd++] = (policy_range){pos, len};
                memset(hit + pos, 1, (size_t)len);
            }
            pos += len;
        }
        t = tree_new(I, V, W, &err);
        ok = tree_resume(t, d, nd, &err) == SCHED_OK;
        /* each worker holds one range at a time: its first, then served */
        long hs[W], hn[W];
        int alive[W];
        for (int w = 0; w < W; w++) {
            tree_range(t, w, &hs[w], &hn[w]);
            alive[w] = 1;
        }
        int lost = (int)((seed = seed * 1103515245 + 12345) / 65536 % (W + 1)) - 1;
        for (int step = 0; ok && !tree_finished(t) && step < 1000; step++) {
            int w = (int)((seed = seed * 1103515245 + 12345) / 65536 % W);
            if (!alive[w])
                continue;
            if (w == lost && step > 3) {
                tree_lost(t, w);
                alive[w] = 0;
            } else if (hn[w] > 0) {
                for (long i = hs[w]; i < hs[w] + hn[w]; i++)
                    ok &= !hit[i]++;
                ok &= tree_result(t, w, hs[w], hn[w], &err) == SCHED_OK;
                hn[w] = 0;
                tree_idle(t, w);
            } else {
                tree_idle(t, w);
            }
            while (ok && tree_recover(t, &c, &err) == 1) {
                ok &= alive[c.worker] && hn[c.worker] == 0;
                hs[c.worker] = c.start;
                hn[c.worker] = c.size;
            }
        }
        ok &= tree_finished(t);
        for (int i = 0; i < I; i++)
            ok &= hit[i] == 1;
        tree_free(t);
    }
    test_cond("300 random resumed runs: every iteration exactly once", ok);
}

/* Resuming a broken run (policy_resume): a run of every scheme breaks
 * after some chunks are done and others are out; a new policy told the
 * done ranges serves every other iteration exactly once: the gaps below
 * the highest done end whole, first, then the tail planned by the scheme. */
static void test_resume(void)
{
    enum { N = 3 };
    const long I = 3000;
    char *hits = malloc((size_t)I);
    for (int t = 0; sched_types[t]; t++) {
        sched_err err;
        /* The broken run: 7 chunks assigned, chunks 1 and 4 never came back. */
        policy *p = make(sched_types[t]->name, I, N);
        for (int w = 0; w < N; w++)
            policy_request(p, w, 1.0, &err);
        policy_start(p, &err);
        policy_range done[8];
        long ndone = 0, hi = 0;
        for (int k = 0; k < 7 && !policy_finished(p); k++) {
            policy_chunk c;
            if (policy_assign(p, &c, NULL) != 1)
                break;
            if (k != 1 && k != 4) {
                policy_done(p, c.worker, c.id, &err);
                done[ndone++] = (policy_range){c.start, c.size};
                if (c.start + c.size > hi)
                    hi = c.start + c.size;
            }
            policy_request(p, c.worker, 1.0, &err);
        }
        policy_free(p);
        /* The resumed run. */
        memset(hits, 0, (size_t)I);
        long before = 0;
        for (long i = 0; i < ndone; i++) {
            for (long k = done[i].start; k < done[i].start + done[i].size; k++)
                hits[k]++;
            before += done[i].size;
        }
        p = make(sched_types[t]->name, I, N);
        int ok = policy_resume(p, done, ndone, &err) == SCHED_OK;
        test_condf(ok && policy_remaining(p) == I - before,
                   "%s: resume counts the %ld done iterations", sched_types[t]->name,
                   before);
        for (int w = 0; w < N; w++)
            policy_request(p, w, 1.0, &err);
        ok &= policy_start(p, &err) == SCHED_OK;
        int gaps_whole = 1, gaps_first = 1, tail_seen = 0, steps = 0;
        long next_gap = 0;
        while (ok && !policy_finished(p) && steps++ < 100000) {
            policy_chunk c;
            if (policy_assign(p, &c, &err) != 1) {
                ok = 0;
                break;
            }
            if (c.start < hi) {
                /* a gap: it starts where a done range ends (or at 0) and ends
                 * where the next begins, lowest first, before the tail */
                gaps_first &= !tail_seen && c.reissue && c.start >= next_gap;
                next_gap = c.start + c.size;
                gaps_whole &= c.start == 0 || hits[c.start - 1] == 1;
                gaps_whole &= c.start + c.size == I || hits[c.start + c.size] == 1;
            } else {
                tail_seen = 1;
            }
            for (long k = c.start; k < c.start + c.size; k++)
                hits[k]++;
            ok &= policy_done(p, c.worker, c.id, &err) == SCHED_OK;
            policy_request(p, c.worker, 1.0, &err);
        }
        int once = 1;
        for (long i = 0; i < I; i++)
            once &= hits[i] == 1;
        test_condf(ok && policy_finished(p) && once,
                   "%s: after a resume every iteration done exactly once",
                   sched_types[t]->name);
        test_condf(gaps_whole && gaps_first, "%s: the gaps below %ld served whole, "
                   "lowest first, before the tail", sched_types[t]->name, hi);
        test_condf(hi == I || tail_seen, "%s: the tail [%ld, %ld) planned",
                   sched_types[t]->name, hi, I);
        policy_free(p);
    }
    free(hits);

    /* Edge cases. */
    sched_err err;
    policy *p = make("dtss", 100, 2);
    policy_range bad[2] = {{10, 20}, {25, 10}};
    test_cond("overlapping done ranges refused",
              policy_resume(p, bad, 2, &err) == SCHED_EINVAL &&
              strstr(err.msg, "overlap") && policy_remaining(p) == 100);
    policy_range out[1] = {{90, 20}};
    test_cond("a done range outside the loop refused",
              policy_resume(p, out, 1, &err) == SCHED_EINVAL && strstr(err.msg, "outside"));
    policy_range all[2] = {{50, 50}, {0, 50}};
    test_cond("everything done: finished at once",
              policy_resume(p, all, 2, &err) == SCHED_OK && policy_finished(p));
    test_cond("a second resume refused", policy_resume(p, all, 2, &err) == SCHED_EINVAL);
    policy_request(p, 0, 1.0, &err);
    policy_request(p, 1, 1.0, &err);
    policy_chunk c;
    test_cond("and nothing is served",
              policy_start(p, &err) == SCHED_OK && policy_assign(p, &c, &err) == 0);
    policy_free(p);
    for (int t = 0; sched_types[t]; t++) {      /* an empty tail, a gap */
        policy_range tail[1] = {{10, 90}};
        p = make(sched_types[t]->name, 100, 2);
        policy_resume(p, tail, 1, &err);
        policy_request(p, 0, 1.0, &err);
        policy_request(p, 1, 1.0, &err);
        int ok = policy_start(p, &err) == SCHED_OK && policy_assign(p, &c, &err) == 1 &&
                 c.start == 0 && c.size == 10 && policy_done(p, c.worker, c.id, &err) == 0;
        test_condf(ok && policy_finished(p) && policy_assign(p, &c, &err) == 0,
                   "%s: an empty tail: the gap [0, 10) alone", sched_types[t]->name);
        policy_free(p);
    }
    p = make("tss", 100, 2);
    test_cond("nothing done: an ordinary run",
              policy_resume(p, NULL, 0, &err) == SCHED_OK && policy_remaining(p) == 100);
    policy_request(p, 0, 1.0, &err);
    policy_start(p, &err);
    test_cond("whose first chunk starts at 0",
              policy_assign(p, &c, &err) == 1 && c.start == 0 && !c.reissue);
    policy_free(p);
}

/* The late rule (sched/late/late.h), worked by hand: limit = max(F u / rate, MIN). */
static void test_late_rule(void)
{
    sched_err err;
    late_rule r = late_default(), bad = {7, 7};
    test_cond("default 3,30", r.factor == 3 && r.min == 30);
    test_cond("'4' parses as 4,30", late_parse("4", &r, &err) == SCHED_OK && r.factor == 4 &&
              r.min == 30);
    test_cond("'2,0.5' parses", late_parse("2,0.5", &r, &err) == SCHED_OK && r.factor == 2 &&
              r.min == 0.5);
    test_cond("'0' is off", late_parse("0", &r, &err) == SCHED_OK && r.factor == 0);
    const char *refused[] = {"", "0.5", "1001", "x", "3,", "3,-1", "3,1e7", "nan", "3,nan", "2x"};
    for (int i = 0; i < (int)(sizeof refused / sizeof *refused); i++) {
        late_rule keep = bad;
        test_condf(late_parse(refused[i], &keep, &err) == SCHED_EINVAL && keep.factor == 7 &&
                   strstr(err.msg, "--late") != NULL, "'%s' refused, the rule unchanged",
                   refused[i]);
    }
    late_rule f3 = {3, 0}, f3m = {3, 30}, off = {0, 30};
    late_rate own = {0, 0}, run = {0, 0};
    test_cond("no rate yet: never late", isinf(late_limit(&f3, &own, &run, 50)));
    late_add(&own, &run, 100, 10);          /* 10 units a second */
    test_cond("both rates got the piece", own.units == 100 && run.secs == 10);
    test_cond("50 units at 10/s, F 3: 15 s", late_limit(&f3, &own, &run, 50) == 15);
    test_cond("MIN 30 above it: 30 s", late_limit(&f3m, &own, &run, 50) == 30);
    test_cond("off: never late", isinf(late_limit(&off, &own, &run, 50)));
    late_rate fresh = {0, 0};
    late_add(&fresh, &run, -1, 5);          /* ignored */
    late_add(&fresh, &run, 1, NAN);         /* ignored */
    test_cond("bad times ignored", fresh.units == 0 && run.units == 100);
    test_cond("a worker with no rate: the run's", late_limit(&f3, &fresh, &run, 50) == 15);
    test_cond("late_is: 15.01 s out is late, 15 s is not",
              late_is(&f3, &own, &run, 50, 100, 115.01) && !late_is(&f3, &own, &run, 50, 100, 115));
    test_cond("late_over: 30 s out of a 15 s limit is 2 limits; 10 s is not late",
              late_over(&f3, &own, &run, 50, 100, 130) == 2 &&
              late_over(&f3, &own, &run, 50, 100, 110) == 0 &&
              late_over(&off, &own, &run, 50, 100, 1e9) == 0);
    test_cond("with 5 s of rows to move: F 3 x (5 + 5) = 30 s; MIN 30 below 3 x (5 + 20)",
              late_limit_with(&f3, &own, &run, 50, 5) == 30 &&
              late_limit_with(&f3m, &own, &run, 50, 20) == 75 &&
              late_limit_with(&f3, &own, &run, 50, 0) == 15 &&
              late_limit_with(&f3, &own, &run, 50, -4) == 15 &&
              late_limit_with(&f3, &own, &run, 50, NAN) == 15 &&
              isinf(late_limit_with(&off, &own, &run, 50, 5)));
    test_cond("late_over_with: 45 s out of a 30 s limit is 1.5 limits; 29 s is not late",
              late_over_with(&f3, &own, &run, 50, 5, 100, 145) == 1.5 &&
              late_over_with(&f3, &own, &run, 50, 5, 100, 129) == 0);
    /* the watch: a look every late_poll seconds, once the queue is read */
    late_rule r8 = {3, 8};                  /* poll 1 s */
    late_watch lw;
    late_watch_start(&lw, &r8, 100);
    test_cond("watch: the first wait is the poll's, or the caller's if sooner",
              late_watch_wait(&lw, -1, 100) == 1 && late_watch_wait(&lw, 0.25, 100) == 0.25 &&
              late_watch_wait(&lw, 5, 100.5) == 0.5);
    test_cond("watch: a message before a look is due: no look",
              !late_watch_look(&lw, 0, 100.5) && late_watch_wait(&lw, -1, 100.5) == 0.5);
    test_cond("watch: a look due as a message comes: no look yet, the next receive waits 0",
              !late_watch_look(&lw, 0, 101.2) && late_watch_wait(&lw, 5, 101.2) == 0);
    test_cond("watch: more messages queued: still no look",
              !late_watch_look(&lw, 0, 101.3) && !late_watch_look(&lw, 0, 101.4));
    test_cond("watch: the queue empty: the look, then a poll's wait again",
              late_watch_look(&lw, 1, 101.5) && late_watch_wait(&lw, -1, 101.5) == 1 &&
              !late_watch_look(&lw, 1, 101.6));
    test_cond("watch: nothing came for a poll: a look at once",
              late_watch_look(&lw, 1, 102.5));
    late_watch_start(&lw, &off, 0);
    test_cond("watch: the rule off: the caller's wait, never a look",
              late_watch_wait(&lw, -1, 50) == -1 && late_watch_wait(&lw, 2, 50) == 2 &&
              !late_watch_look(&lw, 1, 1e9));
    late_rule m1 = {3, 1}, m100 = {3, 100}, m0 = {3, 0};
    test_cond("poll: MIN/8 within [0.05, 1] s", late_poll(&m1) == 0.125 && late_poll(&m100) == 1 &&
              late_poll(&m0) == 0.05 && late_poll(&off) < 0);
}

/* Request-ahead (sched/loop/ahead.h), known answers worked from its two
 * rules: mark = ceil((1 - F) size); rtt: elapsed / done x (size - done)
 * <= 2 x wait. And the policy takes a request while the worker's chunk is
 * out (the request that went ahead), sizing the chunk when it comes. */
static void test_ahead(void)
{
    sched_err err;
    double F = 0;
    test_cond("mark: F 0.25 of 100 -> 75; 0.1 of 10 -> 9; 0.5 of 3 -> 2 (ceil 1.5); "
              "0.9 of 1 -> 1; off -> size",
              sched_ahead_mark(100, 0.25) == 75 && sched_ahead_mark(10, 0.1) == 9 &&
              sched_ahead_mark(3, 0.5) == 2 && sched_ahead_mark(1, 0.9) == 1 &&
              sched_ahead_mark(100, 0) == 100 && sched_ahead_mark(100, SCHED_AHEAD_RTT) == 100);
    test_cond("fraction: due at 75 of 100 with F 0.25, not at 74, not at the end, not off",
              sched_ahead_due(0.25, 75, 100, 0, NAN) && !sched_ahead_due(0.25, 74, 100, 0, NAN) &&
              !sched_ahead_due(0.25, 100, 100, 0, NAN) && !sched_ahead_due(0, 99, 100, 0, NAN));
    /* 80 of 100 in 0.8 s: 0.2 s expected left; 2 x wait 0.1 = 0.2: due. */
    test_cond("rtt: 0.2 s left, wait 0.1 s: due; wait 0.09 s: not; no wait yet: not; "
              "0.01 s left but under half done (49 of 100): not; half done (50): due",
              sched_ahead_due(SCHED_AHEAD_RTT, 80, 100, 0.8, 0.1) &&
              !sched_ahead_due(SCHED_AHEAD_RTT, 49, 100, 0.0049, 0.1) &&
              sched_ahead_due(SCHED_AHEAD_RTT, 50, 100, 0.005, 0.1) &&
              !sched_ahead_due(SCHED_AHEAD_RTT, 80, 100, 0.8, 0.09) &&
              !sched_ahead_due(SCHED_AHEAD_RTT, 80, 100, 0.8, NAN) &&
              !sched_ahead_due(SCHED_AHEAD_RTT, 0, 100, 0, 1));
    test_cond("the wait: exact when waited for, else only lowered; the first taken",
              sched_ahead_wait(0.01, 0.05, 1) == 0.05 && sched_ahead_wait(0.01, 0.05, 0) == 0.01 &&
              sched_ahead_wait(0.05, 0.01, 0) == 0.01 && sched_ahead_wait(NAN, 0.3, 0) == 0.3);
    test_cond("parse: rtt, 0.25, 0",
              sched_ahead_parse("rtt", &F, &err) == SCHED_OK && F == SCHED_AHEAD_RTT &&
              sched_ahead_parse("0.25", &F, &err) == SCHED_OK && F == 0.25 &&
              sched_ahead_parse("0", &F, &err) == SCHED_OK && F == 0);
    static const char *bad[] = {"1", "-0.1", "x", "nan", ""};
    for (int i = 0; i < 5; i++) {
        char want[32];
        snprintf(want, sizeof want, "--ahead '%s'", bad[i]);
        test_condf(sched_ahead_parse(bad[i], &F, &err) == SCHED_EINVAL &&
                   strstr(err.msg, want), "parse: '%s' refused by name (%s)", bad[i], err.msg);
    }

    /* TSS, I = 100, P = 2: chunks 25, 22, ... (F = I / 2P, D by eq. of TSS). */
    policy *p = make("tss", 100, 2);
    policy_request(p, 0, 1, &err);
    policy_request(p, 1, 1, &err);
    policy_start(p, &err);
    policy_chunk a, b, c, d;
    policy_assign(p, &a, NULL);
    policy_assign(p, &b, NULL);
    test_cond("a request while the worker's chunk is out: taken",
              policy_request(p, a.worker, 1, &err) == SCHED_OK);
    test_cond("and served: the next chunk of the scheme's sequence, after the other's",
              policy_assign(p, &c, NULL) == 1 && c.worker == a.worker && c.start == b.start + b.size);
    test_cond("a second request of that worker while one is queued: still refused",
              policy_request(p, b.worker, 1, &err) == SCHED_OK &&
              policy_request(p, b.worker, 1, &err) == SCHED_EINVAL);
    test_cond("the first chunk's results, after its successor went: taken",
              policy_done(p, a.worker, a.id, &err) == SCHED_OK &&
              policy_done(p, a.worker, a.id, &err) == SCHED_EINVAL);
    test_cond("the queued request served", policy_assign(p, &d, NULL) == 1 && d.worker == b.worker);
    policy_free(p);
}


/* policy_switch (--scheme auto, sim/select.h): the unassigned tail planned
 * by another scheme as a loop of its own, offset by where it starts. Worked
 * by hand. TSS, I = 100, P = 2 (Tzen & Ni): F = 100/4 = 25, L = 1,
 * N = 200/26 = 7.69, D = 24/6.69 = 3.59: chunks 25, ceil(21.41) = 22. Then
 * GSS (Polychronopoulos & Kuck: C = ceil(R/P)) over the 53 left: 27, 13,
 * 7, 3, 2, 1 from iteration 47 on. */
static void test_switch(void)
{
    sched_err err;
    policy *p = make("tss", 100, 2);
    policy_chunk c[8];
    sched_config gss;
    sched_config_init(&gss, &sched_gss, 0, 1);
    test_cond("no switch before the start",
              policy_switch(p, &gss, &err) == SCHED_EINVAL &&
              strstr(err.msg, "before the start") != NULL);
    policy_request(p, 0, 1, &err);
    policy_request(p, 1, 1, &err);
    policy_start(p, &err);
    policy_assign(p, &c[0], &err);
    policy_assign(p, &c[1], &err);
    test_cond("TSS: 25 then 22", c[0].size == 25 && c[1].size == 22 && c[1].start == 25);
    test_cond("the tail starts at 47", policy_next(p) == 47);
    test_cond("switch to GSS", policy_switch(p, &gss, &err) == SCHED_OK);
    test_cond("the tail still starts at 47", policy_next(p) == 47);
    static const long want[6] = {27, 13, 7, 3, 2, 1};
    long start = 47, sum = 0;
    int ok = 1;
    for (int i = 0; i < 6; i++) {
        int w = i % 2;
        policy_done(p, w, c[w].id, &err);
        policy_request(p, w, 1, &err);
        ok &= policy_assign(p, &c[w], &err) == 1 && c[w].size == want[i] &&
              c[w].start == start;
        start += c[w].size;
        sum += c[w].size;
    }
    test_cond("GSS over the 53 left: 27, 13, 7, 3, 2, 1 from 47 on", ok && sum == 53);
    policy_done(p, 0, c[0].id, &err);
    policy_done(p, 1, c[1].id, &err);
    test_cond("every iteration once", policy_finished(p));
    policy_free(p);

    /* A lost chunk in the pool is still served first; DTSS after the switch
     * sizes by the reported A_i over the tail (the size: test_sched's
     * known answers of eq. 4-9). */
    p = make("tss", 100, 3);
    for (int w = 0; w < 3; w++)
        policy_request(p, w, w == 0 ? 3 : 1, &err);
    policy_start(p, &err);
    for (int w = 0; w < 3; w++)
        policy_assign(p, &c[w], &err);
    long next = policy_next(p);
    test_cond("TSS, three workers: 17, 16, 14 (bin/chunks -s tss -I 100 -P 3)",
              c[0].size == 17 && c[1].size == 16 && c[2].size == 14 && next == 47);
    policy_lost(p, 2, &err);
    sched_config dtss;
    sched_config_init(&dtss, &sched_dtss, 0, 1);
    test_cond("switch to DTSS", policy_switch(p, &dtss, &err) == SCHED_OK);
    policy_done(p, 0, c[0].id, &err);
    policy_request(p, 0, 3, &err);
    policy_assign(p, &c[3], &err);
    test_cond("the lost chunk first", c[3].reissue == 1 && c[3].start == 33 &&
              c[3].size == 14);
    policy_done(p, 0, c[3].id, &err);
    policy_request(p, 0, 3, &err);
    policy_assign(p, &c[4], &err);
    test_cond("then DTSS over the tail [47, 100), by A_i: worker 0 (A = 3) first",
              c[4].worker == 0 && c[4].start == 47 && c[4].acp == 3);
    policy_free(p);

    /* A scheme's parameters are checked against the tail, the message names them. */
    p = make("tss", 100, 2);
    policy_request(p, 0, 1, &err);
    policy_request(p, 1, 1, &err);
    policy_start(p, &err);
    policy_assign(p, &c[0], &err);
    sched_config css;
    sched_config_init(&css, &sched_css, 0, 1);
    sched_config_set(&css, "k", "0.5", &err);
    test_cond("a refused switch names the value and changes nothing",
              policy_switch(p, &css, &err) == SCHED_EINVAL && strstr(err.msg, "k=0.5") &&
              policy_next(p) == 25 && policy_assign(p, &c[1], &err) == 1 && c[1].size == 22);
    policy_free(p);
}

int main(void)
{
    test_acpsa_order();
    test_replan();
    test_lost();
    test_late();
    test_late_rates();
    test_late_rule();
    test_runs();
    test_runs_hung();
    test_resume();
    test_start_errors();
    test_tree();
    test_tree_recovery();
    test_tree_resume();
    test_ahead();
    test_switch();
    return test_report();
}
