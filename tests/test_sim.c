/* test_sim.c: the simulator (sim/): event times worked by hand, every
 * iteration done once for every scheme, load = proportionally slower hosts,
 * failures, re-planning, determinism, workloads, bad files. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sched/records/record.h"
#include "sched/sched.h"
#include "sim/engine.h"
#include "sim/select.h"
#include "sim/sim.h"
#include "tests/test.h"

static char dir[] = "/tmp/test_sim_XXXXXX";

/* Writes text to DIR/name; returns the path (static buffer, one at a time). */
static const char *file(const char *name, const char *text)
{
    static char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

/* One run: platform text, workload line, scheme (NULL = tree), sample R.
 * Fills rec (record_init'ed here); returns 0 or -1 (message in msg). */
static double master_overhead;      /* for the next simulate() */
/* How simulate() keeps the record: 0 whole in memory, 1 streamed through
 * spool files in dir, 2 summed up only (record_stream); 3 whole, the run
 * taken one event at a time (sim_open, sim_iterate, sim_close). */
static int keep;
static sim_status last;             /* sim_status_get at the end of mode 3 */

static int simulate(const char *plat, const char *workload, const char *scheme,
                    const char *const *params, int R, record *rec, char *msg,
                    size_t len)
{
    sim_platform pf;
    sim_workload wl;
    if (sim_platform_read(&pf, file("p.plat", plat), msg, len) != 0)
        return -1;
    if (sim_workload_parse(&wl, workload, 7, dir, msg, len) != 0 ||
        sim_workload_sample(&wl, R, msg, len) != 0) {
        sim_platform_free(&pf);
        return -1;
    }
    sim_config c;
    sim_config_init(&c);
    c.platform = &pf;
    c.workload = &wl;
    c.tree = scheme == NULL;
    c.master_overhead = master_overhead;
    sched_err err;
    if (scheme) {
        sched_config_init(&c.sched, sched_type_find(scheme, &err), wl.n, pf.nhosts);
        for (int i = 0; params && params[i]; i += 2)
            sched_config_set(&c.sched, params[i], params[i + 1], &err);
    }
    record_init(rec, pf.nhosts);
    int rc = 0;
    if (keep == 1 || keep == 2)
        rc = record_stream(rec, keep == 1 ? dir : NULL, msg, len);
    if (rc == 0 && keep == 3) {
        sim *s = sim_open(&c, rec, msg, len);
        rc = -1;
        if (s) {
            while ((rc = sim_iterate(s, 1)) == 1)
                ;
            sim_status_get(s, &last);
            sim_close(s);
        }
    } else if (rc == 0)
        rc = sim_run(&c, rec, msg, len);
    sim_workload_free(&wl);
    sim_platform_free(&pf);
    return rc;
}

static int near(double a, double b) { return fabs(a - b) < 1e-9; }

/* TSS, 100 uniform iterations, hosts of speed 1 and 2, 1 ms links.
 * Chunks 25, 22, 18, 15, 11, 8, 1 (F = 25, D = 24/6.69 = 3.587). Both
 * report at 0 (arrive 0.001, t0); worker order a, b (TSS ignores A_i):
 *   a [0,25)   arrives 0.002, done 25.002, report at master 25.003
 *   b [25,47)  arrives 0.002, 22/2 -> done 11.002, at master 11.003
 *   b [47,65)  sent 11.003, done 11.004 + 9 = 20.004, at master 20.005
 *   b [65,80)  done 20.006 + 7.5 = 27.506, at master 27.507
 *   a [80,91)  sent 25.003, done 25.004 + 11 = 36.004, at master 36.005
 *   b [91,99)  sent 27.507, done 27.508 + 4 = 31.508, at master 31.509
 *   b [99,100) sent 31.509, done 31.510 + 0.5 = 32.010, at master 32.011
 * Finish = 36.005 - 0.001 = 36.004; W1 = 36.004, W2 = 32.010. */
static void test_by_hand(void)
{
    record r;
    char msg[256];
    int rc = simulate("host a speed=1\nhost b speed=2\nlink * * latency=0.001\n",
                      "uniform n=100 cost=1", "tss", NULL, 1, &r, msg, sizeof msg);
    test_cond("two hosts, tss: runs", rc == 0);
    if (rc != 0) {
        puts(msg);
        return;
    }
    static const long size[] = {25, 22, 18, 15, 11, 8, 1};
    static const int who[] = {0, 1, 1, 1, 0, 1, 1};
    static const double fin[] = {25.002, 11.002, 20.004, 27.506, 36.004, 31.508, 32.010};
    int ok = r.nchunks == 7;
    for (int i = 0; ok && i < 7; i++)
        ok = r.chunks[i].size == size[i] && r.chunks[i].worker == who[i] &&
             near(r.chunks[i].finished, fin[i]);
    test_cond("two hosts, tss: chunks, workers and end times as worked by hand", ok);
    test_condf(near(r.finish, 36.004) && near(r.w[0].finish - r.t0, 36.004) &&
               near(r.w[1].finish - r.t0, 32.010) && near(record_imbalance(&r), 3.994),
               "two hosts, tss: Finish 36.004, W1 36.004, W2 32.010 (got %.6f)", r.finish);
    record_free(&r);

    /* DTSS on the same: A = 1, 2 -> ACPSA b, a; F = 100/6, N = 200/17.67 =
     * 11.32, D = 15.67/10.32 = 1.518; b: 2 (16.67 - 1.518 * 0.5) = 31.8 -> 32. */
    rc = simulate("host a speed=1\nhost b speed=2\nlink * * latency=0.001\n",
                  "uniform n=100 cost=1", "dtss", NULL, 1, &r, msg, sizeof msg);
    test_cond("two hosts, dtss: the faster first, 32 iterations (eq. 7)",
              rc == 0 && r.chunks[0].worker == 1 && r.chunks[0].size == 32 &&
              r.chunks[0].acp == 2);
    record_free(&r);
}

/* The master handles one message at a time: with 0.5 s a message, the two
 * reports (both at 0.001) are handled at 0.001 and 0.501; the plan starts
 * then (t0 = 0.501), and both chunks leave when the master is free, 1.001. */
static void test_master_overhead(void)
{
    record r;
    char msg[256];
    master_overhead = 0.5;
    int rc = simulate("host a speed=1\nhost b speed=2\nlink * * latency=0.001\n",
                      "uniform n=100 cost=1", "tss", NULL, 1, &r, msg, sizeof msg);
    master_overhead = 0;
    test_condf(rc == 0 && near(r.t0, 0.501) && near(r.chunks[0].sent, 1.001) &&
               near(r.chunks[1].sent, 1.001) && near(r.chunks[1].recv, 1.002),
               "master overhead: messages one at a time (t0 %.3f, sent %.3f)", r.t0,
               rc == 0 ? r.chunks[0].sent : 0);
    record_free(&r);
}

static int covers_once(const record *r, long n)
{
    char *seen = calloc((size_t)n, 1);
    int ok = 1;
    for (long i = 0; i < r->nchunks; i++) {
        const rec_chunk *c = &r->chunks[i];
        if (!c->done)
            continue;
        for (long k = c->start; k < c->start + c->size; k++)
            if (k < 0 || k >= n || seen[k]++)
                ok = 0;
    }
    for (long k = 0; ok && k < n; k++)
        ok = seen[k] == 1;
    free(seen);
    return ok;
}

static void test_every_scheme(void)
{
    static const char *plat =
        "master home\n"
        "host w1 speed=1e6 cluster=home load=0:3\n"
        "host w2 speed=1e6 cluster=home load=0:2,5:0\n"
        "host fast speed=6e6 cluster=away load=3:5\n"
        "host w4 speed=1e6 cluster=away\n"
        "link home home latency=1e-4 bandwidth=1.25e7\n"
        "link home away latency=0.05 bandwidth=1e6\n";
    static const char *schemes[] = {"pss", "css", "gss", "tss", "fss", "qss", "ess",
                                    "rss", "dtss", NULL};
    for (int i = 0; i < 10; i++) {
        record r;
        char msg[256];
        int rc = simulate(plat, "mandel size=64 maxiter=300", schemes[i], NULL, 4, &r,
                          msg, sizeof msg);
        test_condf(rc == 0 && covers_once(&r, 64) && r.finish > 0,
                   "%s, mandel 64 rows on a loaded 2-cluster platform: every row once",
                   schemes[i] ? schemes[i] : "tree");
        record_free(&r);
    }
}

/* A host under a constant load N behaves as one N + 1 times slower, for the
 * schemes that ignore A_i (DTSS sees the load in its A_i, and Tree splits by
 * the static speeds, by design). */
static void test_load_is_slowness(void)
{
    static const char *schemes[] = {"tss", "gss", "fss", "qss"};
    for (int i = 0; i < 4; i++) {
        record a, b;
        char msg[256];
        int ra = simulate("host x speed=4\nhost y speed=3 load=0:2\n"
                          "link * * latency=0.01\n", "increasing n=500 from=1 to=9",
                          schemes[i], NULL, 1, &a, msg, sizeof msg);
        int rb = simulate("host x speed=4\nhost y speed=1\nlink * * latency=0.01\n",
                          "increasing n=500 from=1 to=9", schemes[i], NULL, 1, &b,
                          msg, sizeof msg);
        int same = ra == 0 && rb == 0 && a.nchunks == b.nchunks && near(a.finish, b.finish);
        for (long k = 0; same && k < a.nchunks; k++)
            same = a.chunks[k].worker == b.chunks[k].worker &&
                   a.chunks[k].size == b.chunks[k].size &&
                   near(a.chunks[k].finished, b.chunks[k].finished);
        test_condf(same, "%s: speed 3 with 2 loaders = speed 1 alone", schemes[i]);
        record_free(&a);
        record_free(&b);
    }
}

static void test_faults_and_replan(void)
{
    record r;
    char msg[256];
    int rc = simulate("host a speed=1e6\nhost b speed=1e6 fail=0.03\nhost c speed=1e6\n"
                      "link * * latency=0.001\n", "mandel size=80 maxiter=500",
                      "dtss", NULL, 4, &r, msg, sizeof msg);
    int reissued = 0;
    for (long i = 0; i < r.nchunks; i++)
        reissued += r.chunks[i].reissue && r.chunks[i].done;
    test_cond("a host failing mid-run: finishes, every row once, its chunk served again",
              rc == 0 && covers_once(&r, 80) && reissued >= 1);
    record_free(&r);
    rc = simulate("host a speed=1e6 fail=0\nhost b speed=1e6 fail=0\n",
                  "uniform n=10 cost=1", "dtss", NULL, 1, &r, msg, sizeof msg);
    test_cond("every host failing: an error, not a hang",
              rc == -1 && strstr(msg, "failed") != NULL);
    record_free(&r);

    /* Tree-Scheduling loses a worker with its range; the master serves the
     * missing iterations again once every live worker is idle
     * (sched/loop/tree.c, as the PVM master does). Each host failing in turn,
     * the fast one first in the chain included. */
    static const char *fails[3] = {
        "host a speed=2e6 fail=0.02\nhost b speed=1e6\nhost c speed=1e6\n",
        "host a speed=2e6\nhost b speed=1e6 fail=0.02\nhost c speed=1e6\n",
        "host a speed=2e6\nhost b speed=1e6\nhost c speed=1e6 fail=0.02\n"};
    for (int k = 0; k < 3; k++) {
        char plat[256];
        snprintf(plat, sizeof plat, "%slink * * latency=0.001\n", fails[k]);
        rc = simulate(plat, "mandel size=80 maxiter=500", NULL, NULL, 4, &r, msg,
                      sizeof msg);
        reissued = 0;
        for (long i = 0; rc == 0 && i < r.nchunks; i++)
            reissued += r.chunks[i].reissue && r.chunks[i].done;
        test_condf(rc == 0 && covers_once(&r, 80) && reissued >= 1 &&
                   r.w[k].chunks == 0,
                   "tree, host %c failing: finishes, every row once, its range served "
                   "again (%s)", 'a' + k, rc ? msg : "ok");
        record_free(&r);
    }

    /* Load arriving on 3 of 4 hosts at t = 2: more than half of the A_i
     * change, DTSS re-plans; TSS never does. */
    static const char *plat = "host w speed=1e5 count=4 load=2:3\nhost v speed=1e5\n";
    rc = simulate(plat, "uniform n=2000 cost=1000", "dtss", NULL, 1, &r, msg, sizeof msg);
    test_condf(rc == 0 && r.replans >= 1, "load arriving mid-run: dtss re-plans (%d)",
               r.replans);
    record_free(&r);
    rc = simulate(plat, "uniform n=2000 cost=1000", "tss", NULL, 1, &r, msg, sizeof msg);
    test_cond("load arriving mid-run: tss does not re-plan", rc == 0 && r.replans == 0);
    record_free(&r);
}

static void test_workloads(void)
{
    char msg[256];
    sim_workload w;
    test_cond("uniform", sim_workload_parse(&w, "uniform n=10 cost=3", 1, NULL, msg,
                                            sizeof msg) == 0 && near(sim_work(&w, 2, 5), 15));
    sim_workload_free(&w);
    /* increasing 1..10 over 10 iterations: cost(i) = 1 + i. */
    sim_workload_parse(&w, "increasing n=10 from=1 to=10", 1, NULL, msg, sizeof msg);
    test_cond("increasing: closed form", near(sim_work(&w, 0, 10), 55) &&
              near(sim_work(&w, 3, 2), 4 + 5));
    /* Sampled with R = 3: order 0 3 6 9 1 4 7 2 5 8: costs 1 4 7 10 2 5 8 3 6 9. */
    sim_workload_sample(&w, 3, msg, sizeof msg);
    test_cond("increasing, sampled R = 3: closed form by class",
              near(sim_work(&w, 0, 4), 1 + 4 + 7 + 10) && near(sim_work(&w, 3, 3), 10 + 2 + 5) &&
              near(sim_work(&w, 0, 10), 55) && near(sim_work(&w, 9, 1), 9));
    test_cond("reach: 3 iterations from 0 need 12 units, 4 need 22",
              sim_reach(&w, 0, 10, 12) == 3 && sim_reach(&w, 0, 10, 21.9) == 3 &&
              sim_reach(&w, 0, 10, 22) == 4 && sim_reach(&w, 0, 10, 1e9) == 10);
    sim_workload_free(&w);
    /* A cost file, sampled as an array: the same sums as the closed form. */
    file("c.txt", "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n");
    test_cond("costs file", sim_workload_parse(&w, "costs file=c.txt", 1, dir, msg,
                                               sizeof msg) == 0 && near(w.total, 55));
    sim_workload_sample(&w, 3, msg, sizeof msg);
    test_cond("costs file, sampled R = 3", near(sim_work(&w, 0, 4), 22) &&
              near(sim_work(&w, 3, 3), 17));
    sim_workload_free(&w);
    sim_workload a, b;
    sim_workload_parse(&a, "matrix n=1000", 5, NULL, msg, sizeof msg);
    sim_workload_parse(&b, "matrix n=1000", 5, NULL, msg, sizeof msg);
    int same = a.total == b.total;
    sim_workload_free(&b);
    sim_workload_parse(&b, "matrix n=1000", 6, NULL, msg, sizeof msg);
    test_cond("matrix: same seed same costs, another seed other costs",
              same && a.total != b.total);
    /* sizes 300..1000: each cost (s/1000)^3 in [0.027, 1] */
    int in = 1;
    for (long i = 0; i < a.n; i++) {
        double c = sim_work(&a, i, 1);
        in &= c >= 0.027 - 1e-12 && c <= 1 + 1e-12;
    }
    test_cond("matrix: costs of sizes 300..1000", in);
    sim_workload_free(&a);
    sim_workload_free(&b);

    static const struct { const char *line, *needle; } bad[] = {
        {"uniform cost=1", "n="}, {"uniform n=0", "n=0"}, {"uniform n=5 cost=-1", "cost=-1"},
        {"increasing n=5 from=5 to=1", "from=5"}, {"matrix n=5 min=900 max=300", "min=900"},
        {"conditional n=5 p=2", "p=2"}, {"spiral n=5", "spiral"},
        {"uniform n=5 colour=red", "colour"}, {"costs file=/nonexistent", "/nonexistent"},
        {"uniform n=abc", "abc"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        int rc = sim_workload_parse(&w, bad[i].line, 1, dir, msg, sizeof msg);
        test_condf(rc == -1 && strstr(msg, bad[i].needle), "workload '%s' refused naming "
                   "'%s' (%s)", bad[i].line, bad[i].needle, msg);
    }
}

static void test_platform_errors(void)
{
    static const struct { const char *text, *needle; } bad[] = {
        {"host a\n", ":1: host a needs speed="},
        {"host a speed=1\nhost b speed=-2\n", ":2: speed=-2"},
        {"host a speed=1\nhost a speed=2\n", ":2: host a is defined twice"},
        {"host a speed=1 load=5:1,3:0\n", ":1: load=5:1,3:0"},
        {"host a speed=1 colour=red\n", ":1: unknown host option 'colour'"},
        {"host a speed=1\nlink x y latency=-1\n", ":2: latency=-1"},
        {"host a speed=1\nrouter r\n", ":2: unknown line 'router'"},
        {"host a speed=1 cluster=\n", ":1: cluster= needs a name"},
        {"# nothing\n", "no host lines"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sim_platform p;
        char msg[256];
        int rc = sim_platform_read(&p, file("bad.plat", bad[i].text), msg, sizeof msg);
        test_condf(rc == -1 && strstr(msg, bad[i].needle), "platform error names '%s' (%s)",
                   bad[i].needle, msg);
    }
    sim_platform p;
    char msg[256];
    int rc = sim_platform_read(&p, file("ok.plat", "master c\nhost n speed=2 count=3 "
                                        "cluster=c load=0:1,4:0\nlink c * latency=0.5\n"),
                               msg, sizeof msg);
    test_cond("count=3 makes n1 n2 n3 with the same load",
              rc == 0 && p.nhosts == 3 && strcmp(p.hosts[2].name, "n3") == 0 &&
              p.hosts[1].nload == 2 && p.hosts[1].load[1].t == 4);
    test_cond("link lookup: the matching line", rc == 0 &&
              sim_link_between(&p, "c", "elsewhere")->latency == 0.5 &&
              sim_link_between(&p, "x", "y")->latency == 0);
    if (rc == 0)
        sim_platform_free(&p);
}

/* Lines longer than any buffer (the readers once read 4096 bytes at a time
 * and took the rest of a long line for a line of its own). */
static void test_long_lines(void)
{
    char msg[256];
    size_t big = 10000;
    char *text = malloc(big + 200), *pad = malloc(big + 1);
    if (!text || !pad) {
        test_cond("memory for the long lines", 0);
        free(text);
        free(pad);
        return;
    }
    memset(pad, 'x', big);
    pad[big] = '\0';

    /* A comment line whose tail looks like a host line. */
    snprintf(text, big + 200, "host a speed=1\n#%s host b speed=2\nhost c speed=3\n", pad);
    sim_platform p;
    int rc = sim_platform_read(&p, file("long.plat", text), msg, sizeof msg);
    test_condf(rc == 0 && p.nhosts == 2 && strcmp(p.hosts[1].name, "c") == 0,
               "platform: a long comment line is one comment, no host in it (%s)",
               rc == 0 ? "" : msg);
    if (rc == 0)
        sim_platform_free(&p);

    /* A host line of 200 load steps, 1.3 KB. */
    size_t n = (size_t)snprintf(text, big + 200, "host a speed=1 load=");
    for (int k = 0; k < 200; k++)
        n += (size_t)snprintf(text + n, big + 200 - n, "%s%d:%d", k ? "," : "", k, k % 2);
    snprintf(text + n, big + 200 - n, "\n");
    rc = sim_platform_read(&p, file("load.plat", text), msg, sizeof msg);
    test_condf(rc == 0 && p.nhosts == 1 && p.hosts[0].nload == 200 &&
               p.hosts[0].load[199].t == 199, "platform: a host line of 200 load "
               "steps read whole (%s)", rc == 0 ? "" : msg);
    if (rc == 0)
        sim_platform_free(&p);

    /* A cost file: a long comment line of numbers "# 7 7 7 ...". */
    for (size_t k = 0; k < big; k++)
        pad[k] = k % 2 ? ' ' : '7';
    snprintf(text, big + 200, "cost\n1\n2\n# %s\n3\n", pad);
    file("long.txt", text);
    sim_workload w;
    rc = sim_workload_parse(&w, "costs file=long.txt", 1, dir, msg, sizeof msg);
    test_condf(rc == 0 && w.n == 3 && near(w.total, 6), "costs file: a long comment "
               "line is no cost (%s)", rc == 0 ? "" : msg);
    if (rc == 0)
        sim_workload_free(&w);

    /* A NUL byte is named with its line. */
    static const char nul[] = "host a speed=1\nhost b\0 speed=2\n";
    const char *path = file("nul.plat", "");
    FILE *f = fopen(path, "w");
    if (f) {
        fwrite(nul, 1, sizeof nul - 1, f);
        fclose(f);
    }
    rc = sim_platform_read(&p, path, msg, sizeof msg);
    test_condf(rc == -1 && strstr(msg, "nul.plat:2: a NUL byte"), "platform: a NUL "
               "byte named with its line (%s)", msg);
    free(text);
    free(pad);
}

/* Sampled linear workloads in closed form (O(1) a chunk, whatever R): every
 * chunk's cost equals the sum of its iterations' costs in the sampled order
 * (sched_sample), for loops whose classes are all of one size, of two, and
 * for R > n. */
static void test_sampled_closed_form(void)
{
    static const long ns[] = {1, 2, 7, 10, 30, 101};
    static const long Rs[] = {1, 2, 3, 4, 7, 10, 64, 200};
    int ok = 1;
    for (size_t a = 0; a < sizeof ns / sizeof ns[0]; a++)
        for (size_t b = 0; b < sizeof Rs / sizeof Rs[0]; b++) {
            char line[80], msg[256];
            sim_workload w;
            snprintf(line, sizeof line, "increasing n=%ld from=1 to=50", ns[a]);
            if (sim_workload_parse(&w, line, 1, NULL, msg, sizeof msg) != 0 ||
                sim_workload_sample(&w, (int)Rs[b], msg, sizeof msg) != 0) {
                ok = 0;
                continue;
            }
            long n = ns[a];
            for (long st = 0; st < n; st++)
                for (long sz = 1; st + sz <= n; sz++) {
                    double want = 0;
                    for (long k = st; k < st + sz; k++)
                        want += w.a + w.b * (double)sched_sample(k, n, Rs[b]);
                    if (fabs(sim_work(&w, st, sz) - want) > 1e-9 * (1 + want))
                        ok = 0;
                }
            sim_workload_free(&w);
        }
    test_cond("sampled linear workloads: every chunk's closed form is the sum of its "
              "iterations' costs", ok);
    /* R = 5e7 over 1e8 iterations: a whole-loop chunk in O(1), not 5e7 steps */
    char msg[256];
    sim_workload w;
    sim_workload_parse(&w, "increasing n=100000000 from=1 to=2", 1, NULL, msg, sizeof msg);
    sim_workload_sample(&w, 50000000, msg, sizeof msg);
    clock_t c0 = clock();
    double sum = 0;
    for (int i = 0; i < 1000; i++)
        sum += sim_work(&w, i, 100000000 - 2 * i);
    double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    test_condf(cpu < 1 && sum > 0, "sampled, R = 5e7: 1000 chunks of the whole loop in "
               "%.3f s (O(1) each, not 5e7 classes)", cpu);
    sim_workload_free(&w);
}

/* Times and work that overflowed never turn into a loop (engine.c). */
static void test_engine_guards(void)
{
    sim_step steps[2] = {{0, 1}, {5, 0}};
    sim_host h = {.speed = 1, .load = steps, .nload = 2, .fail = -1};
    test_cond("advance: infinite work -> infinite time", sim_advance(&h, 0, INFINITY) == INFINITY);
    test_cond("advance: NaN work -> infinite time, no loop", sim_advance(&h, 0, NAN) == INFINITY);
    test_cond("advance: from t = inf -> infinite time, no loop",
              sim_advance(&h, INFINITY, 1) == INFINITY);
    test_cond("advance: across a load change, worked by hand (2.5 units at half speed "
              "to t = 5, 2.5 more at full speed)", near(sim_advance(&h, 0, 5), 7.5));
    sim_host tiny = {.speed = 1e-320, .fail = -1, .load = steps, .nload = 1};
    test_cond("advance: a speed that underflows to 0 -> infinite time, no loop",
              sim_advance(&tiny, 0, 1) == INFINITY);

    /* A run whose time passes SIM_TIME_MAX stops with a reason. */
    record r;
    char msg[256];
    int rc = simulate("host a speed=1\n", "uniform n=1000 cost=1e7", "dtss", NULL, 1, &r,
                      msg, sizeof msg);
    test_condf(rc == -1 && strstr(msg, "the run cannot end: simulated time"),
               "a run past 1e9 simulated seconds stops, saying why (%s)", msg);
    record_free(&r);
    rc = simulate("host a speed=1\n", "uniform n=1000 cost=1e7", NULL, NULL, 1, &r, msg,
                  sizeof msg);
    test_condf(rc == -1 && strstr(msg, "the run cannot end: simulated time"),
               "tree: a run past 1e9 simulated seconds stops, saying why (%s)", msg);
    record_free(&r);
}

/* Numbers out of the range in which they can be used: refused, named. */
static void test_ranges(void)
{
    static const struct { const char *line, *needle; } wl[] = {
        {"increasing n=1000 from=1 to=1e307", "to=1e+307"},
        {"uniform n=1e18 cost=1e300", "cost=1e+300 is more than"},
        {"conditional n=100 hi=1e299", "cost up to 1e+299"},
        {"matrix n=10 scale=1e300 max=100000", "cost up to"},
        {"mandel size=1e20", "size=1e+20"},
        {"mandel size=10 maxiter=1e10", "maxiter=1e+10"},
        {"mandel size=10 maxiter=-1", "maxiter=-1"},
        /* the integer keys one past their limits (parse_whole, sched/util/conv.h),
         * named exactly: n 4e18 + 512 (the next double), matrix max 2^31,
         * mandel size 2^31 and maxiter 2^32, costs column 33; NaN */
        {"uniform n=4000000000000000512 cost=1e-300", "n=4.0000000000000005e+18 must be an integer in [1, 4e18]"},
        {"uniform n=nan cost=1", "n=nan is not a number"},
        {"matrix n=1 min=1 max=2147483648", "max=2147483648 must be integers"},
        {"mandel size=2147483648", "size=2147483648 maxiter=16000 must be integers"},
        {"mandel size=10 maxiter=4294967296", "maxiter=4294967296 must be integers"},
        {"costs file=c.txt column=33", "column=33 must be 1..32"},
        {"uniform n=5 a=1 b=2 c=3 d=4 e=5 f=6 g=7 h=8", "more than 8 key=value"},
    };
    char msg[256];
    for (size_t i = 0; i < sizeof wl / sizeof wl[0]; i++) {
        sim_workload w;
        int rc = sim_workload_parse(&w, wl[i].line, 1, dir, msg, sizeof msg);
        test_condf(rc == -1 && strstr(msg, wl[i].needle), "workload '%s' refused naming "
                   "'%s' (%s)", wl[i].line, wl[i].needle, rc ? msg : "accepted");
        if (rc == 0)
            sim_workload_free(&w);
    }
    /* ... and at their limits: taken */
    static const char *const at[] = {"uniform n=4e18 cost=1e-300",
                                     "matrix n=1 min=2147483647 max=2147483647 scale=1e-300",
                                     "costs file=c32.txt column=32"};
    {
        char row[200] = "";
        for (int k = 1; k <= 32; k++)
            snprintf(row + strlen(row), sizeof row - strlen(row), "%d%s", k, k < 32 ? "," : "\n");
        file("c32.txt", row);
    }
    for (size_t i = 0; i < sizeof at / sizeof at[0]; i++) {
        sim_workload w;
        int rc = sim_workload_parse(&w, at[i], 1, dir, msg, sizeof msg);
        test_condf(rc == 0, "workload '%s' at the limits taken (%s)", at[i], rc ? msg : "");
        if (rc == 0) {
            test_condf(strcmp(at[i], at[0]) || w.n == 4000000000000000000L,
                       "n = 4e18 exactly (%ld)", w.n);
            sim_workload_free(&w);
        }
    }
    file("big.txt", "1e308\n1e308\n1e308\n");
    sim_workload w;
    int rc = sim_workload_parse(&w, "costs file=big.txt", 1, dir, msg, sizeof msg);
    test_condf(rc == -1 && strstr(msg, "add up to inf"), "costs adding up to infinity "
               "refused (%s)", rc ? msg : "accepted");
    if (rc == 0)
        sim_workload_free(&w);

    static const struct { const char *text, *needle; } pl[] = {
        {"host a speed=1\nlink * * latency=1e300\n", ":2: latency=1e300"},
        {"host a speed=1 fail=1e300\n", ":1: fail=1e300"},
        {"host a speed=1 load=0:2147483647\n", ":1: load=0:2147483647"},
        {"host a speed=1e-300\nhost b speed=1e300\n", "out of range"},
        {"host a speed=1 count=1000000\nhost b speed=1\n", ":2: more than 1000000 hosts"},
        {"host aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa speed=1\n",
         ":1: host name"},
        {"host aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa speed=1 count=10\n",
         ":1: host names"},
        {"host a speed=1 cluster=ccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc\n",
         ":1: cluster name"},
        {"master ccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccccc\n", ":1: cluster"},
    };
    for (size_t i = 0; i < sizeof pl / sizeof pl[0]; i++) {
        sim_platform p;
        rc = sim_platform_read(&p, file("range.plat", pl[i].text), msg, sizeof msg);
        test_condf(rc == -1 && strstr(msg, pl[i].needle), "platform error names '%s' (%s)",
                   pl[i].needle, rc ? msg : "accepted");
        if (rc == 0)
            sim_platform_free(&p);
    }
}

/* Cost files: only the first line may be a header; nan, inf, fractional,
 * duplicate, huge or missing iterations are refused with the file and line. */
static void test_cost_files(void)
{
    static const struct { const char *text, *workload, *needle; } bad[] = {
        {"1\n2\nnan\n", "costs file=c.csv", "c.csv:3: cost 'nan' is not a finite"},
        {"1\n-inf\n", "costs file=c.csv", "c.csv:2: cost '-inf' is not a finite"},
        {"cost\n1\nheader\n", "costs file=c.csv", "c.csv:3: cost 'header' is not a number"},
        {"1\n\n,2\n", "costs file=c.csv", "c.csv:3: cost '' is not a number"},
        {"a,b\n1,2\n3\n", "costs file=c.csv column=2", "c.csv:3: 1 field"},
        {"index,row,cost\n0,0,1\n1,1.5,2\n", "mandel costs=c.csv", "c.csv:3: iteration '1.5'"},
        {"index,row,cost\n0,0,1\n1,0,2\n", "mandel costs=c.csv",
         "c.csv:3: iteration 0 again (first on line 2)"},
        {"index,row,cost\n0,1e300,1\n", "mandel costs=c.csv", "c.csv:2: iteration '1e300'"},
        {"index,row,cost\n0,99999999999999999999,1\n", "mandel costs=c.csv",
         "c.csv:2: iteration '99999999999999999999'"},
        {"index,row,cost\n0,-1,1\n", "mandel costs=c.csv", "c.csv:2: iteration '-1'"},
        {"index,row,cost\n0,0,1\n1,2,1\n", "mandel costs=c.csv", "c.csv:3: iteration 2 out of 0..1"},
        {"index,row,cost\n0,inf,1\n", "mandel costs=c.csv", "c.csv:2: iteration 'inf'"},
        {"index,row,cost\n0,0,nan\n", "mandel costs=c.csv", "c.csv:2: cost 'nan'"},
        {"nan\n1\n", "costs file=c.csv", "c.csv:1: cost 'nan'"},
    };
    char msg[256];
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        sim_workload w;
        file("c.csv", bad[i].text);
        int rc = sim_workload_parse(&w, bad[i].workload, 1, dir, msg, sizeof msg);
        test_condf(rc == -1 && strstr(msg, bad[i].needle), "cost file refused naming '%s' "
                   "(%s)", bad[i].needle, rc ? msg : "accepted");
        if (rc == 0)
            sim_workload_free(&w);
    }
    sim_workload w;
    file("c.csv", "index,row,cost\n# a comment\n1, 1, 20\n\n0 ,0 ,10\n");
    int rc = sim_workload_parse(&w, "mandel costs=c.csv", 1, dir, msg, sizeof msg);
    test_condf(rc == 0 && w.n == 2 && near(sim_work(&w, 0, 1), 10) &&
               near(sim_work(&w, 1, 1), 20), "mandel costs: header, comments, blanks "
               "around fields, rows in any order (%s)", rc ? msg : "ok");
    if (rc == 0)
        sim_workload_free(&w);
}

/* The duplicate check sorts (O(n log n)): 200,000 hosts read in well under
 * the 12 s of the old pairwise check, and a duplicate made by count= is
 * still named with the line that made it. */
static void test_many_hosts(void)
{
    char msg[256];
    sim_platform p;
    clock_t c0 = clock();
    int rc = sim_platform_read(&p, file("many.plat", "host w speed=1 count=200000\n"
                                        "host v speed=2 count=3\n"), msg, sizeof msg);
    double cpu = (double)(clock() - c0) / CLOCKS_PER_SEC;
    test_condf(rc == 0 && p.nhosts == 200003 && strcmp(p.hosts[199999].name, "w200000") == 0
               && cpu < 5, "200,003 hosts read in %.2f s (< 5 s)", cpu);
    if (rc == 0)
        sim_platform_free(&p);
    rc = sim_platform_read(&p, file("many.plat", "host w speed=1 count=200000\n"
                                    "host x speed=1\nhost w1999 speed=1\nhost x speed=2\n"),
                           msg, sizeof msg);
    test_condf(rc == -1 && strstr(msg, "many.plat:3: host w1999 is defined twice"),
               "the first duplicate in file order is named with its line (%s)", msg);
}

/* The file's bytes (malloc'ed, NULL: none); *n its length. */
static char *slurp(const char *path, long *n)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    *n = 0;
    if (f && fseek(f, 0, SEEK_END) == 0 && (*n = ftell(f)) >= 0 &&
        fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)*n + 1)) &&
        fread(buf, 1, (size_t)*n, f) != (size_t)*n) {
        free(buf);
        buf = NULL;
    }
    if (f)
        fclose(f);
    return buf;
}

/* A record streamed (spool files, or the summary only) and one taken an
 * event at a time are the record kept whole: the same file byte for byte,
 * the same summary line and counts. Known answer: the whole record, as the
 * simulator kept it before it could stream. The runs: chunks of 1 on hosts
 * 10^5 apart in speed (the slow host's chunks come in some 10^5 chunks
 * later, long out of the window) with a host failing (a chunk served
 * again, the lost one never done); DTSS re-planning under load changes;
 * Tree-Scheduling losing a range; a scheme fed measurements. */
static void test_streamed(void)
{
    static const struct { const char *plat, *wl, *scheme; } runs[] = {
        {"host a speed=1\nhost b speed=100000\nhost c speed=3 fail=2.5\n"
         "link * * latency=0.00001\n", "uniform n=300000 cost=1", "pss"},
        {"host a speed=1e6 load=0:2,0.02:0,0.05:3\nhost b speed=2e6 load=0.01:4\n"
         "host c speed=1e6\nlink * * latency=0.001\n", "mandel size=200 maxiter=500", "dtss"},
        {"host a speed=2e6\nhost b speed=1e6 fail=0.02\nhost c speed=1e6\n"
         "link * * latency=0.001\n", "mandel size=80 maxiter=500", NULL},
        {"host a speed=1e6\nhost b speed=3e6\nlink * * latency=0.001\n",
         "conditional n=20000 lo=1 hi=30 p=0.1", "awf-b"},
    };
    char msg[256], path[300], sum[4][600];
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        const char *name = runs[k].scheme ? runs[k].scheme : "tree";
        record r[4];
        long n[4] = {0}, chunks[4], reports[4];
        int replans[4], rc[4];
        char *bytes[4] = {NULL};
        for (keep = 0; keep < 4; keep++) {
            rc[keep] = simulate(runs[k].plat, runs[k].wl, runs[k].scheme, NULL, 1,
                                &r[keep], msg, sizeof msg);
            chunks[keep] = r[keep].nchunks;
            reports[keep] = r[keep].nreports;
            replans[keep] = r[keep].replans;
            FILE *f = fmemopen(sum[keep], sizeof sum[keep], "w");
            if (f) {
                record_summary(&r[keep], f);
                fclose(f);
            }
            snprintf(path, sizeof path, "%s/r%d.csv", dir, keep);
            if (keep != 2 && rc[keep] == 0 &&
                record_write(&r[keep], path, msg, sizeof msg) == 0)
                bytes[keep] = slurp(path, &n[keep]);
            record_free(&r[keep]);
        }
        keep = 0;
        test_condf(rc[0] == 0 && rc[1] == 0 && rc[2] == 0 && rc[3] == 0,
                   "%s: runs with the record whole, streamed, summed up, stepped", name);
        test_condf(bytes[0] && bytes[1] && bytes[3] && n[0] == n[1] && n[0] == n[3] &&
                   memcmp(bytes[0], bytes[1], (size_t)n[0]) == 0 &&
                   memcmp(bytes[0], bytes[3], (size_t)n[0]) == 0,
                   "%s: the streamed and the stepped record's file are the whole one's, "
                   "byte for byte (%ld chunks, %ld bytes)", name, chunks[0], n[0]);
        test_condf(strcmp(sum[0], sum[1]) == 0 && strcmp(sum[0], sum[2]) == 0 &&
                   strcmp(sum[0], sum[3]) == 0 && chunks[0] == chunks[1] &&
                   chunks[0] == chunks[2] && reports[0] == reports[2] &&
                   replans[0] == replans[1] && replans[0] == replans[2],
                   "%s: the same summary and counts, summed up only (%.60s)", name, sum[2]);
        test_condf(last.chunks == chunks[0] && last.done == last.iterations &&
                   last.events > chunks[0],
                   "%s: sim_status_get at the end: every iteration in, every chunk", name);
        for (int i = 0; i < 4; i++)
            free(bytes[i]);
    }
    /* What the runs are said to be: chunks far past the window, re-plans. */
    record r;
    keep = 2;
    int rc = simulate(runs[0].plat, runs[0].wl, "pss", NULL, 1, &r, msg, sizeof msg);
    test_condf(rc == 0 && r.nchunks >= 300000 && !r.chunks,
               "pss on hosts 10^5 apart: %ld chunks, none kept in memory", r.nchunks);
    record_free(&r);
    keep = 1;
    rc = simulate(runs[1].plat, runs[1].wl, "dtss", NULL, 1, &r, msg, sizeof msg);
    test_condf(rc == 0 && r.replans > 0, "DTSS under load changes re-plans (%d)", r.replans);
    record_free(&r);
    keep = 0;
}

/* --scheme auto's simulations charge what messages cost (sim_select's send,
 * wake, wake_load; worked by hand): one host of speed 1 with one other
 * busy process (the worker's speed 0.5), 4 iterations of cost 1, CSS with
 * one chunk of 4 (its k = I / P), free links. The chunk reaches the idle
 * worker at 0 and starts after (0.25 + 0.5 x 1) / 1 = 0.75 s; computing 4
 * units at 0.5 takes 8 s (8.75); sending 4 iterations' results at 0.5 a
 * unit, 2 units at 0.5, takes 4 s: finish 12.75 (without the costs, 8). */
static void test_select_costs(void)
{
    double speed = 1, busy = 0, finish[1];
    int extra = 1;
    const sched_type *css[1] = {&sched_css};
    char msg[256];
    sim_select_in in = {.n = 1, .speed = &speed, .extra = &extra, .busy = &busy,
                        .iters = 4, .a = 1, .b = 0, .send = 0.5, .wake = 0.25,
                        .wake_load = 0.5};
    int best = sim_select(&in, css, 1, finish, msg, sizeof msg);
    test_condf(best == 0 && fabs(finish[0] - 12.75) < 1e-9,
               "sim_select charges send 0.5, wake 0.25,0.5: css finishes at 12.75 (by hand; got %g)",
               finish[0]);
    in.send = in.wake = in.wake_load = 0;
    best = sim_select(&in, css, 1, finish, msg, sizeof msg);
    test_condf(best == 0 && fabs(finish[0] - 8) < 1e-9,
               "sim_select without the messages' costs: 8 (got %g)", finish[0]);
}

/* --scheme auto's cost profile (sim_auto_profile, select.c's formula),
 * worked by hand on 8 iterations (one bin each). In the original order:
 * chunk [0, 2) in 2 s (1 s an iteration at A = 1), [4, 6) in 6 s (3):
 * bins 0, 1 cost 1, 4, 5 cost 3, 2 and 3 between, 1 + 2/3 and 1 + 4/3,
 * 6 and 7 as 5, 3. Then [0, 4) in 8 s (2 an iteration, weight 1/4 an
 * iteration against 1/2): bins 0, 1 (1/2 x 1 + 1/4 x 2) / (3/4) = 4/3,
 * bins 2, 3 its 2. Sampled with R = 4 (positions 0, 1 are iterations 0, 4;
 * 2, 3 are 1, 5): [0, 2) at 1, [2, 4) at 3: bins 0, 4 cost 1, bins 1, 5
 * cost 3, bins 2, 3 from 3 down to 1 (3 - 2/3, 3 - 4/3), 6 and 7 as 5. */
static void test_auto_profile(void)
{
    char msg[256];
    double p[8];
    for (int R = 1; R <= 4; R += 3) {
        sim_auto *a = sim_auto_new(1, 8, R, NULL, 4, 0, msg, sizeof msg);
        test_condf(a != NULL, "sim_auto_new, 8 iterations, R = %d (%s)", R, a ? "" : msg);
        if (!a)
            return;
        sim_auto_report(a, 0, 1);
        test_condf(sim_auto_profile(a, p) == 0, "R = %d: no chunk done, no profile", R);
        double want[2][8] = {{1, 1, 5. / 3, 7. / 3, 3, 3, 3, 3},
                             {1, 3, 7. / 3, 5. / 3, 1, 3, 3, 3}};
        sim_auto_chunk(a, 0, 0, 2, 2, -1, 1);
        sim_auto_chunk(a, 0, R == 1 ? 4 : 2, 2, 6, -1, 2);
        int K = sim_auto_profile(a, p), ok = K == 8;
        for (int k = 0; ok && k < 8; k++)
            ok = fabs(p[k] - want[R == 4][k]) < 1e-12;
        test_condf(ok, "R = %d: the profile of two chunks, by hand (K %d; %g %g %g %g %g %g %g %g)",
                   R, K, p[0], p[1], p[2], p[3], p[4], p[5], p[6], p[7]);
        if (R == 1) {
            sim_auto_chunk(a, 0, 0, 4, 8, -1, 3);
            double want2[8] = {4. / 3, 4. / 3, 2, 2, 3, 3, 3, 3};
            ok = sim_auto_profile(a, p) == 8;
            for (int k = 0; ok && k < 8; k++)
                ok = fabs(p[k] - want2[k]) < 1e-12;
            test_condf(ok, "a larger chunk weighs 1 / its size an iteration, by hand (%g %g %g %g)",
                       p[0], p[1], p[2], p[3]);
        }
        sim_auto_free(a);
    }
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_by_hand();
    test_master_overhead();
    test_every_scheme();
    test_load_is_slowness();
    test_faults_and_replan();
    test_workloads();
    test_platform_errors();
    test_long_lines();
    test_sampled_closed_form();
    test_engine_guards();
    test_ranges();
    test_cost_files();
    test_many_hosts();
    test_streamed();
    test_select_costs();
    test_auto_profile();
    test_remove_dir(dir);
    return test_report();
}
