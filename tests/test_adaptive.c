/* test_adaptive.c: the schemes that size a chunk by who asks and how fast it
 * was (sched/schemes/wf.c, awf.c, af.c) and the driver's sched_next_w /
 * sched_done: known answers worked by hand, the identity behind AF's formula,
 * every scheme through a simulated heterogeneous run, and bad requests; the
 * measurements that feed them (sched/loop/meas.c), dtss-m
 * (sched/schemes/dtss.c) and the policy's feeding (sched/loop/policy.c). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "sched/loop/meas.h"
#include "sched/loop/policy.h"
#include "sched/sched.h"
#include "tests/test.h"

#define MAXCHUNKS 200000

static long chunks[MAXCHUNKS], starts[MAXCHUNKS];

static sched *make(const char *name, long I, int P, double A, const char *alpha)
{
    sched_err err;
    sched_config cfg;
    sched_config_init(&cfg, sched_type_find(name, &err), I, P);
    cfg.A = A;
    if (alpha && sched_config_set(&cfg, "alpha", alpha, &err) != SCHED_OK)
        return NULL;
    return sched_new(&cfg, &err);
}

/* One step of a scripted run: a request from 'worker' (with its A_i and
 * measurement), or, when size > 0, the report of a finished chunk. */
typedef struct {
    int worker;
    double acp, mu, sigma;
    long n;
    long size;              /* > 0: sched_done(worker, size, work, elapsed) */
    double work, elapsed;
} step;

#define REQ(w) {(w), 1, NAN, NAN, 0, 0, 0, 0}
#define REQA(w, a) {(w), (a), NAN, NAN, 0, 0, 0, 0}
#define REQM(w, m, s, k) {(w), 1, (m), (s), (k), 0, 0, 0}
#define DONE(w, size, work, el) {(w), 1, NAN, NAN, 0, (size), (work), (el)}

static long left;          /* iterations a script left unassigned */

/* Runs the script on a new scheduler; the chunks go to chunks[], what it
 * leaves to 'left'. Returns how many chunks, or -1 if a call failed. */
static long script(const char *name, long I, int P, double A, const step *st,
                   int nst)
{
    sched *s = make(name, I, P, A, NULL);
    if (!s)
        return -1;
    long n = 0, start;
    for (int i = 0; i < nst; i++) {
        if (st[i].size > 0) {
            if (sched_done(s, st[i].worker, st[i].size, st[i].work,
                           st[i].elapsed) != SCHED_OK)
                n = -1;
            continue;
        }
        sched_request rq = {st[i].worker, st[i].acp, st[i].mu, st[i].sigma, st[i].n, 0};
        long c = sched_next_w(s, &rq, &start);
        if (c < 0)
            n = -1;
        if (c > 0 && n >= 0)
            chunks[n++] = c;
    }
    left = sched_remaining(s);
    sched_free(s);
    return n;
}

/* The script handed out exactly want[0..m), and nothing is left. */
static int same(const long *got, long n, const long *want, long m)
{
    return n == m && left == 0 && memcmp(got, want, sizeof(long) * (size_t)m) == 0;
}

/* WF, Hummel et al. 1996, worked by hand: I = 100, P = 2, A_i = 3 and 1,
 * A = 4, so w = 1.5 and 0.5; the workers ask in turn. FSS's batches,
 * B = ceil(R/4): R = 100, B = 25: 37.5 -> 38, 12.5 -> 13 | R = 49, B = 13:
 * 19.5 -> 20, 6.5 -> 7 | R = 22, B = 6: 9, 3 | R = 10, B = 3: 4.5 -> 5,
 * 1.5 -> 2 | R = 3, B = 1: 1.5 -> 2, 0.5 -> the minimum 1. Sum 100. */
static void test_wf(void)
{
    static const long want[] = {38, 13, 20, 7, 9, 3, 5, 2, 2, 1};
    static const step st[] = {
        REQA(0, 3), REQA(1, 1), REQA(0, 3), REQA(1, 1), REQA(0, 3),
        REQA(1, 1), REQA(0, 3), REQA(1, 1), REQA(0, 3), REQA(1, 1),
    };
    long n = script("wf", 100, 2, 4, st, 10);
    test_cond("wf 100/2, A_i = 3, 1: 38,13 | 20,7 | 9,3 | 5,2 | 2,1",
              same(chunks, n, want, 10));
    /* The same through sched_next: WF reads the acp alone. */
    sched *s = make("wf", 100, 2, 4, NULL);
    long got[10], start;
    for (int i = 0; i < 10; i++)
        got[i] = sched_next(s, i % 2 ? 1 : 3, &start);
    test_cond("wf through sched_next(acp) gives the same chunks",
              memcmp(got, want, sizeof want) == 0 && sched_remaining(s) == 0);
    sched_free(s);

    /* With every A_i = 1, WF is FSS (any alpha). */
    int ok = 1;
    static const char *const alphas[] = {"2", "1", "3.5"};
    for (long I = 0; I < 5000 && ok; I += 97)
        for (int P = 1; P < 40 && ok; P += 5)
            for (int a = 0; a < 3 && ok; a++) {
                sched *f = make("fss", I, P, 0, alphas[a]);
                sched *w = make("wf", I, P, 0, alphas[a]);
                long cf, cw, sf, sw;
                do {
                    sf = sw = -1;
                    cf = sched_next(f, 1, &sf);
                    cw = sched_next(w, 1, &sw);
                    ok = cf == cw && sf == sw;
                } while (ok && cf > 0);
                if (!ok)
                    test_condf(0, "wf = fss for I=%ld P=%d alpha=%s", I, P, alphas[a]);
                sched_free(f);
                sched_free(w);
            }
    test_cond("wf with every A_i = 1 is fss, for many (I, P, alpha)", ok);
}

/* AWF-B and AWF-D, worked by hand: I = 100, P = 2, A = 0 (A_i = 1).
 * Batch 1, nobody measured, w = 1, B = ceil(100/4) = 25: 25, 25.
 * Worker 0 reports 25 iterations in 25 s (pi_0 = 25/25 = 1), worker 1 in
 * 75 s (pi_1 = 3). Batch 2, B = ceil(50/4) = 13, weights fixed now:
 * sum 1/pi = 1 + 1/3 = 4/3, w_0 = 2 (1)/(4/3) = 1.5, w_1 = 2 (1/3)/(4/3)
 * = 0.5: 19.5 -> 20. Worker 0 then reports 20 in 10 s (its chunk k = 2:
 * pi_0 = (1x25 + 2x10)/(1x25 + 2x20) = 45/65), but in the same batch
 * worker 1 still gets 0.5 x 13 = 6.5 -> 7 (B adapts after each batch). It
 * reports 7 in 21 s (pi_1 = (75 + 42)/(25 + 14) = 3). Batch 3, B =
 * ceil(23/4) = 6: sum 1/pi = 65/45 + 1/3 = 16/9, w_0 = 2 (13/9)/(16/9) =
 * 1.625, w_1 = 0.375: 9.75 -> 10, 2.25 -> 3. Batch 4, B = 3: 4.875 -> 5,
 * 1.125 -> 2. Batch 5, B = 1: 1.625 -> 2, 0.375 -> 1. Sum 100. */
static void test_awf_batch(void)
{
    static const long want[] = {25, 25, 20, 7, 10, 3, 5, 2, 2, 1};
    /* For awf-b the times are the computing times (elapsed unknown). */
    static const step b[] = {
        REQ(0), REQ(1), DONE(0, 25, 25, NAN), DONE(1, 25, 75, NAN),
        REQ(0), DONE(0, 20, 10, NAN), REQ(1), DONE(1, 7, 21, NAN),
        REQ(0), REQ(1), REQ(0), REQ(1), REQ(0), REQ(1),
    };
    long n = script("awf-b", 100, 2, 0, b, 14);
    test_cond("awf-b 100/2: 25,25 | 20,7 | 10,3 | 5,2 | 2,1 (weights 1.5/0.5, "
              "then 1.625/0.375)", same(chunks, n, want, 10));
    /* The same times as elapsed times, the computing times all equal
     * (1 s per iteration): awf-d follows the elapsed times, awf-b the
     * computing times, which see equal workers (weights 1, 1). */
    static const step d[] = {
        REQ(0), REQ(1), DONE(0, 25, 25, 25), DONE(1, 25, 25, 75),
        REQ(0), DONE(0, 20, 20, 10), REQ(1), DONE(1, 7, 7, 21),
        REQ(0), REQ(1), REQ(0), REQ(1), REQ(0), REQ(1),
    };
    n = script("awf-d", 100, 2, 0, d, 14);
    test_cond("awf-d uses the elapsed times: the same 25,25 | 20,7 | 10,3 | ...",
              same(chunks, n, want, 10));
    /* awf-b on the first two of those reports (computing times 1 s an
     * iteration on both workers): weights 1, 1 from then on, fss's chunks. */
    static const long fss100[] = {25, 25, 13, 13, 6, 6, 3, 3, 2, 2, 1, 1};
    static const step d2[] = {
        REQ(0), REQ(1), DONE(0, 25, 25, 25), DONE(1, 25, 25, 75),
        REQ(0), REQ(1), REQ(0), REQ(1), REQ(0), REQ(1), REQ(0), REQ(1),
        REQ(0), REQ(1),
    };
    n = script("awf-b", 100, 2, 0, d2, 14);
    test_cond("awf-b ignores the elapsed times: equal computing times give fss's "
              "25,25,13,13,6,6,3,3,2,2,1,1", same(chunks, n, fss100, 12));
    /* Elapsed unknown (NAN): awf-d falls back to the computing times. */
    n = script("awf-d", 100, 2, 0, b, 14);
    test_cond("awf-d with elapsed NAN uses the computing times (as awf-b)",
              same(chunks, n, want, 10));
    /* Before any report, through sched_next: awf-b and awf-d are fss. */
    for (int v = 0; v < 2; v++) {
        sched *s = make(v ? "awf-d" : "awf-b", 100, 2, 0, NULL);
        long got[12], start;
        for (int i = 0; i < 12; i++)
            got[i] = sched_next(s, 1, &start);
        test_condf(memcmp(got, fss100, sizeof got) == 0,
                   "%s through sched_next (no measurement) is fss",
                   v ? "awf-d" : "awf-b");
        sched_free(s);
    }
}

/* AWF-C and AWF-E, worked by hand: I = 100, P = 2, alpha = 2, chunk
 * w_i R / 4 with w_i as of the request. Nobody measured: 100/4 = 25, then
 * 75/4 = 18.75 -> 19 (R = 56). Worker 0 reports 25 in 25 s (pi_0 = 1);
 * worker 1, unmeasured, counts as the fastest measured (pi = 1): w_0 =
 * 2 (1)/(1 + 1) = 1: 56/4 = 14 (R = 42). Worker 1 reports 19 in 57 s
 * (pi_1 = 3): w_1 = 2 (1/3)/(4/3) = 0.5: 0.5 x 42/4 = 5.25 -> 6 (R = 36).
 * Worker 0 reports 14 in 7 s: pi_0 = (25 + 2x7)/(25 + 2x14) = 39/53,
 * sum 1/pi = 53/39 + 13/39 = 66/39, w_0 = 2 (53/39)/(66/39) = 53/33 =
 * 1.606: 1.606 x 36/4 = 14.45 -> 15 (R = 21). Then with no more reports
 * w_1 = 2 (13/39)/(66/39) = 0.394: 0.394 x 21/4 = 2.07 -> 3, w_0: 18/4 x
 * 1.606 = 7.23 -> 8, then 0.98 -> 1, 3.61 -> 4, 0.49 -> 1, 1.61 -> 2,
 * 0.2 -> 1, 0.4 -> 1. Sum 100. */
static void test_awf_chunk(void)
{
    static const long want[] = {25, 19, 14, 6, 15, 3, 8, 1, 4, 1, 2, 1, 1};
    static const step c[] = {
        REQ(0), REQ(1), DONE(0, 25, 25, NAN), REQ(0), DONE(1, 19, 57, NAN),
        REQ(1), DONE(0, 14, 7, NAN), REQ(0), REQ(1), REQ(0), REQ(1), REQ(0),
        REQ(1), REQ(0), REQ(1), REQ(0),
    };
    long n = script("awf-c", 100, 2, 0, c, 16);
    test_cond("awf-c 100/2: 25, 19, 14, 6, 15, 3, 8, 1, 4, 1, 2, 1, 1",
              same(chunks, n, want, 13));
    static const step e[] = {
        REQ(0), REQ(1), DONE(0, 25, 1, 25), REQ(0), DONE(1, 19, 1, 57),
        REQ(1), DONE(0, 14, 1, 7), REQ(0), REQ(1), REQ(0), REQ(1), REQ(0),
        REQ(1), REQ(0), REQ(1), REQ(0),
    };
    n = script("awf-e", 100, 2, 0, e, 16);
    test_cond("awf-e uses the elapsed times: the same sequence",
              same(chunks, n, want, 13));
    n = script("awf-c", 100, 2, 0, e, 16);
    test_cond("awf-c on those reports follows the computing times instead",
              n > 3 && !same(chunks, n, want, 13));
    /* Unmeasured, A_i = 3 and 1 (A = 4): w = 1.5, 0.5 from the acp:
     * 1.5 x 100/4 = 37.5 -> 38, 0.5 x 62/4 = 7.75 -> 8. */
    static const step a[] = {REQA(0, 3), REQA(1, 1)};
    n = script("awf-c", 100, 2, 4, a, 2);
    test_cond("awf-c before any report weighs by A_i: 38, 8",
              n == 2 && chunks[0] == 38 && chunks[1] == 8);
}

/* AF, worked by hand: I = 100, P = 2. D and T need both workers' mu and
 * sigma: until both have reported, R/2P: 100/4 = 25, 75/4 = 18.75 -> 19,
 * and (worker 0 measured, worker 1 not yet) 56/4 = 14 (R = 42).
 * Worker 1 asks with mu = 2, sigma = 3 (worker 0 had mu = 1, sigma = 1):
 * D = 1/1 + 9/2 = 5.5, T = 1/(1 + 1/2) = 2/3, T R = 28:
 * C_1 = (5.5 + 56 - sqrt(5.5^2 + 4 x 5.5 x 28))/(2 x 2) = (61.5 - 25.42)/4
 * = 9.02 -> 10 (R = 32). [With D = sum sigma/mu = 1 + 1.5 = 2.5:
 * (2.5 + 56 - sqrt(6.25 + 280))/4 = (58.5 - 16.92)/4 = 10.40 -> 11.]
 * Worker 0 with mu = 1, sigma = 0.5: D = 0.25 + 4.5 = 4.75, T R = 21.33:
 * (4.75 + 42.67 - sqrt(22.56 + 405.33))/2 = (47.42 - 20.69)/2 = 13.37 -> 14
 * (R = 18). Worker 1 with mu = 2, sigma = 0: D = 0.25, T R = 12:
 * (0.25 + 24 - sqrt(0.0625 + 12))/4 = (24.25 - 3.47)/4 = 5.19 -> 6 (R = 12).
 * Worker 0 with sigma = 0.1: D = 0.01, T R = 8: (16.01 - 0.566)/2 = 7.72
 * -> 8 (R = 4). Worker 1: T R = 2.67: (5.343 - 0.327)/4 = 1.25 -> 2, and
 * worker 0 the last 2 (1.22 -> 2). Sum 100. */
static void test_af(void)
{
    static const long want[] = {25, 19, 14, 10, 14, 6, 8, 2, 2};
    static const step st[] = {
        REQ(0), REQ(1), REQM(0, 1, 1, 25), REQM(1, 2, 3, 19), REQM(0, 1, 0.5, 14),
        REQM(1, 2, 0, 10), REQM(0, 1, 0.1, 14), REQM(1, 2, 0, 6), REQM(0, 1, 0.1, 8),
    };
    long n = script("af", 100, 2, 0, st, 9);
    test_cond("af 100/2: 25, 19, 14, then 10 (D = sum sigma^2/mu; 11 with sigma/mu), "
              "14, 6, 8, 2, 2", same(chunks, n, want, 9));
    /* sigma NAN (one iteration measured) counts as 0, and with sigma = 0
     * everywhere C_i = R (1/mu_i) / sum 1/mu_j: worker 0 (mu = 1) first gets
     * 100/4 = 25 (worker 1 unmeasured), then worker 1 with mu = 1 takes its
     * half of 75: 37.5 -> 38. */
    static const step z[] = {REQM(0, 1, NAN, 1), REQM(1, 1, NAN, 1)};
    n = script("af", 100, 2, 0, z, 2);
    test_cond("af: sigma NAN counts as 0, a worker with sigma = 0 takes its share: "
              "25, 38", n == 2 && chunks[0] == 25 && chunks[1] == 38);
    /* mu = 3 and 1, sigma = 0, I = 104: 104/4 = 26 first, then worker 0:
     * T = 1/(1 + 1/3) = 0.75, T R / mu_0 = 0.75 x 78 = 58.5 -> 59. */
    static const step y[] = {REQM(1, 3, 0, 4), REQM(0, 1, 0, 4)};
    n = script("af", 104, 2, 0, y, 2);
    test_cond("af with sigma = 0: worker 0, 3x faster, takes 3/4 of the 78 left: 59",
              n == 2 && chunks[0] == 26 && chunks[1] == 59);
    static const step u[] = {REQM(0, 0, 0, 5), REQM(1, 2, 1, 0)};
    n = script("af", 100, 2, 0, u, 2);
    test_cond("af: mu = 0 or n = 0 is no measurement (R/2P: 25, 19)",
              n == 2 && chunks[0] == 25 && chunks[1] == 19);

    /* The identity behind the formula: t = C_i mu_i is the smaller root of
     * (T R - t)^2 = D t, for random mu, sigma, R, P (the type's real-valued
     * C_i, before rounding). */
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 7);
    int ok = 1;
    for (int trial = 0; trial < 2000; trial++) {
        int P = 1 + (int)gsl_rng_uniform_int(r, 12);
        double R = 1 + floor(gsl_rng_uniform(r) * 1e6);
        sched_config cfg;
        sched_config_init(&cfg, &sched_af, (long)R, P);
        void *state = calloc(1, sched_af.size + (size_t)P * sched_af.worker_size);
        sched_af.init(state, &cfg, NULL);
        double mu[12], sg[12], D = 0, invT = 0, c = 0;
        for (int j = 0; j < P; j++) {
            mu[j] = 1e-4 + gsl_rng_uniform(r) * 1e-2;
            sg[j] = gsl_rng_uniform(r) < 0.2 ? 0 : gsl_rng_uniform(r) * 3 * mu[j];
            D += sg[j] * sg[j] / mu[j];
            invT += 1 / mu[j];
        }
        for (int j = 0; j < P; j++) {
            sched_request rq = {j, 1, mu[j], sg[j], 10, 0};
            c = sched_af.next_w(state, (long)R, &rq);
        }
        double T = 1 / invT, t = c * mu[P - 1];
        double lhs = (T * R - t) * (T * R - t), rhs = D * t;
        double paper = (D + 2 * T * R - sqrt(D * D + 4 * D * T * R)) / (2 * mu[P - 1]);
        int good = fabs(lhs - rhs) <= 1e-9 * (T * R) * (T * R) &&
                   t <= T * R * (1 + 1e-12) &&
                   fabs(paper - c) <= 1e-6 * c + 1e-9;   /* the paper's form too */
        if (!good && ok)
            printf("af identity: P=%d R=%g D=%g T=%g t=%g: (TR-t)^2=%g Dt=%g, paper's "
                   "C=%g ours %g\n", P, R, D, T, t, lhs, rhs, paper, c);
        ok &= good;
        free(state);
    }
    test_cond("af: C_i mu_i = t solves (T R - t)^2 = D t, t <= T R, and equals the "
              "paper's form (2000 random cases)", ok);
    gsl_rng_free(r);
}

/* A heterogeneous run, simulated: P workers, worker i takes mu_i seconds an
 * iteration with standard deviation 0.3 mu_i; each asks again when its chunk
 * is done (the earliest first), with the mean and standard deviation of its
 * last chunk, and its result takes 'lat' seconds more to reach the master.
 * Returns the chunk count (chunks[], starts[]); per-worker iterations in
 * 'did'. */
static long simulate(sched *s, int P, const double *mu, const double *acp,
                     double lat, gsl_rng *r, long *did)
{
    double free_at[64], last_mu[64], last_sg[64];
    long last_n[64], last_size[64];
    double last_work[64];
    for (int i = 0; i < P; i++) {
        free_at[i] = 0;
        last_n[i] = last_size[i] = 0;
        last_mu[i] = last_sg[i] = NAN;
        did[i] = 0;
    }
    long n = 0;
    int live = P;
    int alive[64];
    for (int i = 0; i < P; i++)
        alive[i] = 1;
    while (live > 0 && n < MAXCHUNKS) {
        int w = -1;
        for (int i = 0; i < P; i++)
            if (alive[i] && (w < 0 || free_at[i] < free_at[w]))
                w = i;
        if (last_size[w] > 0)
            sched_done(s, w, last_size[w], last_work[w], last_work[w] + 2 * lat);
        sched_request rq = {w, acp[w], last_mu[w], last_sg[w], last_n[w], 0};
        long start, c = sched_next_w(s, &rq, &start);
        if (c <= 0) {
            alive[w] = 0;
            live--;
            continue;
        }
        starts[n] = start;
        chunks[n++] = c;
        did[w] += c;
        double sd = 0.3 * mu[w];
        double work = c * mu[w] + sqrt((double)c) * sd * gsl_ran_gaussian(r, 1);
        if (work < 0.1 * c * mu[w])
            work = 0.1 * c * mu[w];
        last_size[w] = c;
        last_work[w] = work;
        last_mu[w] = work / c;
        last_sg[w] = c > 1 ? sd : NAN;
        last_n[w] = c;
        free_at[w] += work + 2 * lat;
    }
    return n;
}

/* Every scheme (the old ones through sched_next_w too), many simulated
 * heterogeneous runs: the chunks tile [0, I), each >= the minimum but the
 * last, the sum is I. And the adaptive ones give the fast worker more. */
static void test_properties(void)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, 2025);
    int runs = 0, before = test_failed;
    for (int t = 0; sched_types[t]; t++) {
        const sched_type *T = sched_types[t];
        for (int trial = 0; trial < 60; trial++) {
            long I = trial < 6 ? (long[]){0, 1, 2, 3, 7, 64}[trial]
                               : (long)gsl_rng_uniform_int(r, trial % 2 ? 20000 : 300);
            int P = 1 + (int)gsl_rng_uniform_int(r, trial % 3 ? 8 : 64);
            double mu[64], acp[64], A = 0;
            for (int i = 0; i < P; i++) {
                mu[i] = 1e-3 * (1 + gsl_rng_uniform(r) * 7);
                acp[i] = trial % 4 == 3 ? 1 : 8e-3 / mu[i];
                A += acp[i];
            }
            sched_config cfg;
            sched_err err;
            sched_config_init(&cfg, T, I, P);
            cfg.A = A;
            long minc = trial % 5 == 4 ? 1 + (long)gsl_rng_uniform_int(r, 20) : 1;
            cfg.min_chunk = minc;
            sched *s = sched_new(&cfg, &err);
            if (!s) {
                test_condf(0, "%s I=%ld P=%d: refused: %s", T->name, I, P, err.msg);
                continue;
            }
            long did[64];
            long n = simulate(s, P, mu, acp, trial % 2 ? 1e-4 : 0, r, did);
            sched_free(s);
            long sum = 0;
            int tiles = 1, sizes = 1;
            for (long i = 0; i < n; i++) {
                tiles &= starts[i] == sum;
                sum += chunks[i];
                sizes &= chunks[i] >= (i == n - 1 ? 1 : minc);
            }
            if (sum != I || !tiles || !sizes)
                test_condf(0, "%s I=%ld P=%d min=%ld: sum %ld, tiles %d, sizes %d",
                           T->name, I, P, minc, sum, tiles, sizes);
            runs++;
        }
    }
    test_condf(test_failed == before,
               "every scheme, %d simulated heterogeneous runs through sched_next_w "
               "and sched_done: chunks tile [0, I), each >= min but the last", runs);

    /* Two workers, one 4 times faster (A_i = 4 and 1 for wf): a sanity
     * check, not a comparison with the others: the fast one does more than
     * 3 times the slow one's share (4 would be perfect). */
    static const char *const adaptive[] = {"wf", "awf-b", "awf-c", "awf-d", "awf-e", "af"};
    for (int a = 0; a < 6; a++) {
        const double mu[2] = {1e-3, 4e-3}, acp[2] = {4, 1};
        sched *s = make(adaptive[a], 20000, 2, 5, NULL);
        long did[2];
        simulate(s, 2, mu, acp, 1e-4, r, did);
        sched_free(s);
        test_condf(did[0] > 3 * did[1] && did[0] + did[1] == 20000,
                   "%s: the 4x faster worker does %ld of 20000 iterations (> 3x the "
                   "other's %ld)", adaptive[a], did[0], did[1]);
    }
    gsl_rng_free(r);
}

/* The driver: a scheme without the hooks behaves through sched_next_w as
 * through sched_next; bad requests and reports are refused, naming them. */
static void test_driver(void)
{
    sched_err err;
    int ok = 1;
    for (int t = 0; sched_types[t]; t++) {
        if (sched_types[t]->next_w)
            continue;
        sched_config cfg;
        sched_config_init(&cfg, sched_types[t], 1000, 3);
        cfg.A = 6;
        sched *a = sched_new(&cfg, &err), *b = sched_new(&cfg, &err);
        long ca, cb, sa, sb;
        int k = 0;
        do {
            double acp = 1 + k % 3;
            sched_request rq = {k % 3, acp, 0.5, 0.1, 10, 0};
            ca = sched_next(a, acp, &sa);
            cb = sched_next_w(b, &rq, &sb);
            ok &= ca == cb && sa == sb &&
                  sched_done(b, k % 3, cb > 0 ? cb : 1, 1.0, 2.0) == SCHED_OK;
            k++;
        } while (ok && ca > 0);
        if (!ok)
            test_condf(0, "%s: sched_next_w = sched_next", sched_types[t]->name);
        sched_free(a);
        sched_free(b);
    }
    test_cond("the schemes without hooks: sched_next_w is sched_next, sched_done "
              "is accepted and ignored", ok);

    sched *s = make("awf-b", 100, 4, 0, NULL);
    long start;
    static const struct { sched_request rq; const char *needle; } bad[] = {
        {{4, 1, NAN, NAN, 0, 0}, "worker 4"},
        {{-2, 1, NAN, NAN, 0, 0}, "worker -2"},
        {{0, 0, NAN, NAN, 0, 0}, "power 0"},
        {{0, 1, -1, NAN, 3, 0}, "mu=-1"},
        {{0, 1, 1, INFINITY, 3, 0}, "sigma=inf"},
        {{0, 1, 1, 0, -1, 0}, "n=-1"},
        {{0, 1, 1, 0, 3, -2}, "rate=-2"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        long c = sched_next_w(s, &bad[i].rq, &start);
        test_condf(c == -1 && strstr(sched_error(s), bad[i].needle),
                   "bad request refused, naming '%s' (got %ld, '%s')", bad[i].needle,
                   c, sched_error(s));
    }
    test_cond("nothing was handed out by the bad requests", sched_remaining(s) == 100);
    test_cond("done: worker 4 of 4 refused",
              sched_done(s, 4, 10, 1, NAN) == SCHED_EINVAL &&
              strstr(sched_error(s), "worker 4"));
    test_cond("done: size 0 refused",
              sched_done(s, 0, 0, 1, NAN) == SCHED_EINVAL &&
              strstr(sched_error(s), "0 iterations"));
    test_cond("done: work NAN refused", sched_done(s, 0, 5, NAN, 1) == SCHED_EINVAL);
    test_cond("done: work -1 refused", sched_done(s, 0, 5, -1, 1) == SCHED_EINVAL);
    test_cond("done: elapsed -1 refused", sched_done(s, 0, 5, 1, -1) == SCHED_EINVAL);
    test_cond("done: elapsed NAN accepted", sched_done(s, 0, 5, 1, NAN) == SCHED_OK);
    sched_free(s);

    /* Parameters: alpha >= 1 for wf and awf-*, none for af. */
    static const char *const withalpha[] = {"wf", "awf-b", "awf-c", "awf-d", "awf-e"};
    for (int i = 0; i < 5; i++) {
        sched_config cfg;
        sched_config_init(&cfg, sched_type_find(withalpha[i], &err), 100, 4);
        sched_config_set(&cfg, "alpha", "0.5", &err);
        err.msg[0] = 0;
        test_condf(sched_new(&cfg, &err) == NULL && err.code == SCHED_EINVAL &&
                   strstr(err.msg, "alpha=0.5") && strstr(err.msg, withalpha[i]),
                   "%s: alpha=0.5 refused, naming it ('%s')", withalpha[i], err.msg);
    }
    sched_config cfg;
    sched_config_init(&cfg, &sched_af, 100, 4);
    test_cond("af takes no alpha",
              sched_config_set(&cfg, "alpha", "2", &err) == SCHED_ENOENT &&
              strstr(err.msg, "none"));
    test_cond("lookup by name: AWF-C", sched_type_find("AWF-C", &err) == &sched_awf_c);
}

/* sched/loop/meas.c, worked by hand. */
static void test_meas(void)
{
    sched_meas m;
    sched_request rq;
    sched_meas_clear(&m);
    sched_meas_get(&m, &rq);
    test_cond("meas: nothing measured: mu, sigma NAN, n 0, rate 0",
              isnan(rq.mu) && isnan(rq.sigma) && rq.n == 0 && rq.rate == 0);
    sched_meas_add(&m, 1, 1, NAN);
    sched_meas_get(&m, &rq);
    test_cond("meas: one iteration of 1 s: mu 1, sigma NAN, rate 1 it/s",
              rq.mu == 1 && isnan(rq.sigma) && rq.n == 1 && rq.rate == 1);
    sched_meas_add(&m, 3, 1, NAN);
    sched_meas_get(&m, &rq);
    test_condf(rq.mu == 2 && fabs(rq.sigma - 1) < 1e-12 && rq.n == 2 && rq.rate == 0.5,
               "meas: 1 s and 3 s: mu 2, sigma 1 (population), rate 0.5 (got %g %g %g)",
               rq.mu, rq.sigma, rq.rate);
    /* A piece of 2 iterations in 4 s is two samples of 2 s: with one of 1 s,
     * samples 2, 2, 1: mean 5/3, variance (1/9 + 1/9 + 4/9) / 3 = 2/9; the
     * costs 10 (told) and 1 (untold: one unit an iteration) over 5 s. */
    sched_meas_clear(&m);
    sched_meas_add(&m, 4, 2, 10);
    sched_meas_add(&m, 1, 1, -1);
    sched_meas_get(&m, &rq);
    test_condf(fabs(rq.mu - 5.0 / 3) < 1e-12 && fabs(rq.sigma - sqrt(2.0 / 9)) < 1e-12 &&
               rq.n == 3 && fabs(rq.rate - 11.0 / 5) < 1e-12,
               "meas: a piece of 2 in 4 s (cost 10) and 1 in 1 s: mu 5/3, sigma "
               "sqrt(2/9), rate 11/5 (got %g %g %g)", rq.mu, rq.sigma, rq.rate);
    sched_meas_add(&m, -1, 1, 0);
    sched_meas_add(&m, 5, 0, 0);
    sched_meas_get(&m, &rq);
    test_cond("meas: a negative time counts 0 s; a piece of 0 iterations nothing",
              rq.n == 4 && fabs(rq.mu - 5.0 / 4) < 1e-12);
}

/* dtss-m (sched/schemes/dtss.c), worked by hand: I = 100, two workers of
 * A_i = 1: F = 25, N = 200 / 26, D = 24 / (N - 1) = 3.5862. Worker 0
 * unmeasured gets 25 (S = 1); worker 1, rate 3, the only one measured,
 * keeps A' = 1: 25 - D = 21.41 -> 22 (S = 2); worker 0 at rate 1:
 * A' = 1 x 2 / 4 = 0.5, 0.5 (25 - D (2 - 0.25)) = 9.36 -> 10. */
static void test_dtss_m(void)
{
    sched *s = make("dtss-m", 100, 2, 2, NULL);
    long start, c[3];
    sched_request r0 = {0, 1, NAN, NAN, 0, 0}, r1 = {1, 1, 0.3, 0.1, 5, 3},
                  r2 = {0, 1, 1, 0, 25, 1};
    c[0] = sched_next_w(s, &r0, &start);
    c[1] = sched_next_w(s, &r1, &start);
    c[2] = sched_next_w(s, &r2, &start);
    test_condf(c[0] == 25 && c[1] == 22 && c[2] == 10,
               "dtss-m: 25, 22, 10 by hand (got %ld, %ld, %ld)", c[0], c[1], c[2]);
    sched_free(s);

    /* Rates proportional to the reported A_i: exactly dtss's chunks. */
    sched *d = make("dtss", 1000, 3, 6, NULL), *m = make("dtss-m", 1000, 3, 6, NULL);
    const double acp[3] = {3, 2, 1};
    int same = 1, k = 0;
    long sd, sm, cd, cm;
    do {
        int w = k++ % 3;
        sched_request rq = {w, acp[w], 0.01, 0, 10, 250 * acp[w]};
        cd = sched_next(d, acp[w], &sd);
        cm = sched_next_w(m, &rq, &sm);
        same &= cd == cm && sd == sm;
    } while (cd > 0);
    test_cond("dtss-m: rates proportional to A_i give dtss's chunks", same && k > 3);
    sched_free(d);
    sched_free(m);

    /* A worker measured twice as fast as its A_i says gets a larger chunk
     * than under dtss. */
    d = make("dtss", 1000, 2, 2, NULL);
    m = make("dtss-m", 1000, 2, 2, NULL);
    sched_request a = {0, 1, 0.01, 0, 10, 100}, b = {1, 1, 0.01, 0, 10, 200};
    sched_next_w(m, &a, &sm);
    sched_next(d, 1, &sd);
    cm = sched_next_w(m, &b, &sm);
    cd = sched_next(d, 1, &sd);
    test_condf(cm > cd, "dtss-m: the worker measured twice as fast gets more "
               "(%ld) than dtss gives it (%ld)", cm, cd);
    test_cond("dtss-m re-plans as dtss", sched_replan(m, 3, NULL) == SCHED_OK);
    sched_free(d);
    sched_free(m);

    /* A worker's rate is summed over its chunks since the plan, not its
     * latest: worker 1 delivers 20 units/s (20 in 1 s); worker 0 first 10
     * units in 0.1 s (A' = 100 x 2 / 120 = 5/3), then 10 in 0.9 s: 20 in 1 s
     * in all, as worker 1, so A' = 1 (its latest alone, 11.1/s, would give
     * 0.71). The chunks are dtss's with A_i = 1, 1, 5/3, 1. */
    d = make("dtss", 1000, 2, 2, NULL);
    m = make("dtss-m", 1000, 2, 2, NULL);
    sched_request q[4] = {{0, 1, NAN, NAN, 0, 0}, {1, 1, 0.1, 0, 10, 20},
                          {0, 1, 0.01, 0, 10, 100}, {0, 1, 0.09, 0, 10, 10 / 0.9}};
    const double want[4] = {1, 1, 5.0 / 3, 1};
    same = 1;
    for (int i = 0; i < 4; i++) {
        cm = sched_next_w(m, &q[i], &sm);
        cd = sched_next(d, want[i], &sd);
        same &= cm == cd;
    }
    test_condf(same, "dtss-m: rates summed over the chunks since the plan (last chunk "
               "%ld, dtss with A_i = 1: %ld)", cm, cd);
    sched_free(d);
    sched_free(m);

    /* A rate measured over less than T seconds (default 0.1) sizes nothing:
     * worker 1 delivers 20 units/s over 1 s; worker 0 80 units/s, but over
     * 10 iterations of 0.4 ms (4 ms), so it keeps its reported A_i = 1 and
     * gets dtss's chunk; with T=0 its A' = 80 x 2 / 100 = 1.6. */
    sched_err err;
    sched_config cfg;
    sched_request fast = {0, 1, 0.0004, 0, 10, 80}, slow = {1, 1, 0.1, 0, 10, 20};
    long c0[2], c1[2], want0[2];
    for (int t = 0; t < 2; t++) {
        sched_config_init(&cfg, sched_type_find("dtss-m", &err), 1000, 2);
        cfg.A = 2;
        if (t == 1)
            sched_config_set(&cfg, "T", "0", &err);
        m = sched_new(&cfg, &err);
        c1[t] = m ? sched_next_w(m, &slow, &sm) : -1;
        c0[t] = m ? sched_next_w(m, &fast, &sm) : -1;
        sched_free(m);
        d = make("dtss", 1000, 2, 2, NULL);
        sched_next(d, 1, &sd);
        want0[t] = sched_next(d, t == 0 ? 1 : 1.6, &sd);
        sched_free(d);
    }
    test_condf(c1[0] == c1[1] && c0[0] == want0[0] && c0[1] == want0[1] && c0[1] > c0[0],
               "dtss-m: a rate measured over 4 ms leaves A_i = 1 (%ld, dtss's %ld); with "
               "T=0 it sizes the chunk, A' = 1.6 (%ld, dtss's %ld)", c0[0], want0[0], c0[1],
               want0[1]);
    sched_config_init(&cfg, sched_type_find("dtss-m", &err), 1000, 2);
    m = sched_config_set(&cfg, "T", "-1", &err) == SCHED_OK ? sched_new(&cfg, &err) : NULL;
    test_condf(!m && strstr(err.msg, "T=-1"), "dtss-m: T=-1 refused by name (%s)", err.msg);
    sched_free(m);
}

/* The policy feeds the schemes (sched/loop/policy.c): WF weighs by the speeds
 * set with policy_set_speed (wf.c's known value: I = 100, speeds 3 and 1:
 * 38, 13 | 20, 7 | ...), AF gets each request's measurement, and the
 * measurements are checked. */
static void test_policy_feed(void)
{
    sched_err err;
    sched_config cfg;
    sched_config_init(&cfg, &sched_wf, 100, 2);
    policy *p = policy_new(&cfg, 2, &err);
    test_cond("policy: speeds 3 and 1 set",
              policy_set_speed(p, 0, 3, &err) == SCHED_OK &&
              policy_set_speed(p, 1, 1, &err) == SCHED_OK);
    test_cond("policy: speed 0 refused, naming it",
              policy_set_speed(p, 1, 0, &err) == SCHED_EINVAL && strstr(err.msg, "V_i = 0"));
    policy_request(p, 0, 0.5, &err);         /* the A_i is not WF's weight */
    policy_request(p, 1, 7, &err);
    policy_start(p, &err);
    policy_chunk c[4];
    long sz[4];
    int ok = 1;
    for (int i = 0; i < 4; i++) {
        ok &= policy_assign(p, &c[i], &err) == 1;
        sz[i] = c[i].size;
        if (i < 3)
            ok &= policy_done(p, c[i].worker, c[i].id, &err) == SCHED_OK &&
                  policy_request(p, c[i].worker, 1, &err) == SCHED_OK;
    }
    test_condf(ok && sz[0] == 38 && sz[1] == 13 && sz[2] == 20 && sz[3] == 7,
               "policy: wf weighs by V_i: 38, 13, 20, 7 (got %ld, %ld, %ld, %ld)",
               sz[0], sz[1], sz[2], sz[3]);
    test_cond("policy: wf after the start: speed refused",
              policy_set_speed(p, 0, 2, &err) == SCHED_EINVAL);
    policy_free(p);

    /* AF through the policy and directly, with the same measurements. */
    sched_config_init(&cfg, &sched_af, 1000, 2);
    p = policy_new(&cfg, 2, &err);
    sched *s = make("af", 1000, 2, 2, NULL);
    long start;
    policy_request(p, 0, 1, &err);
    policy_request(p, 1, 1, &err);
    policy_start(p, &err);
    ok = 1;
    for (int i = 0; i < 2; i++) {
        policy_chunk pc;
        ok &= policy_assign(p, &pc, &err) == 1 && pc.size == sched_next(s, 1, &start);
        ok &= policy_done_w(p, pc.worker, pc.id, 1.0, &err) == SCHED_OK;
    }
    sched_request m0 = {0, 1, 0.002, 0.001, 250, 500}, m1 = {1, 1, 0.004, 0.0005, 250, 250};
    ok &= policy_request_m(p, &m0, &err) == SCHED_OK && policy_request_m(p, &m1, &err) == SCHED_OK;
    for (int i = 0; i < 2; i++) {
        policy_chunk pc;
        ok &= policy_assign(p, &pc, &err) == 1;
        long want = sched_next_w(s, pc.worker == 0 ? &m0 : &m1, &start);
        test_condf(ok && pc.size == want, "policy: af's chunk %d fed the worker's "
                   "measurement: %ld (direct: %ld)", i + 3, pc.size, want);
    }
    sched_request bad = {0, 1, -1, NAN, 4, 1};
    policy_done(p, 0, 2, &err);
    test_condf(policy_request_m(p, &bad, &err) == SCHED_EINVAL && strstr(err.msg, "mu=-1"),
               "policy: a measurement with mu = -1 refused, naming it ('%s')", err.msg);
    sched_request none = {0, 1, -5, -5, 0, -5};
    test_cond("policy: n = 0: the other fields ignored",
              policy_request_m(p, &none, &err) == SCHED_OK);
    sched_free(s);
    policy_free(p);
}

int main(void)
{
    test_wf();
    test_awf_batch();
    test_awf_chunk();
    test_af();
    test_properties();
    test_driver();
    test_meas();
    test_dtss_m();
    test_policy_feed();
    return test_report();
}
