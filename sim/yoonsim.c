/* yoonsim.c: bin/yoon-sim, Yoon et al.'s simulation study (Sec. 4.1) on
 * sim/lb.h: one run described (ET with and without balancing, G, the
 * balancings, every node), or a sweep over nodes, tasks, C_msg, periods and
 * strategies with several seeds, one CSV line per point (mean G, its sd and
 * 95% confidence half-width, GSL's statistics). */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>

#include "sched/lb/lb.h"
#include "sched/util/closeout.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"
#include "sched/util/progress.h"
#include "sim/lb.h"

#define PROG "yoon-sim"
#define fail(...) parse_fail(PROG, __VA_ARGS__)
#define MAX_LIST 64
#define MAX_SEEDS 100000L

static void usage(FILE *f)
{
    fprintf(f,
"usage: yoon-sim [options]\n"
"\n"
"Yoon et al.'s simulation study (Sec. 4.1): P nodes on a switch, n tasks each;\n"
"node i's tasks last uniform(0, 2 r_i), r_i uniform(0, 2 E(r)), E(r) = 1 s; every\n"
"period the master gathers the nodes' counts and a strategy migrates queued\n"
"tasks (C_msg per message, C_task per task at both ends, one transfer at a time\n"
"per node). The gain G = (ET_NOLB - ET_LB) / ET_LB compares the run with the\n"
"same run without balancing (strategy none, the same seed). The model and its\n"
"choices: docs/yoon.md.\n"
"\n"
"With one value per option and one seed: one run, described (ET, G, each\n"
"balancing, each node). With a list or --seeds K > 1 (or --csv): a sweep, one\n"
"CSV line per point (nodes, tasks, C_msg, period, strategy) over the seeds:\n"
"  nodes,tasks,cmsg,ctask,period_frac,strategy,seeds,gain_mean,gain_sd,\n"
"  gain_ci95,et_nolb,et_lb,moved,migrations,balancings,messages,dgain_mean,\n"
"  dgain_ci95\n"
"(C_msg and C_task as fractions of E(r); gain_ci95: the half-width of the 95%%\n"
"confidence interval of the mean, Student's t; et_nolb to messages: means over\n"
"the seeds; dgain: G minus the G of the first --strategy at the same point,\n"
"seed by seed (paired), its mean and ci95; sd and ci95 are nan for one seed).\n"
"\n"
"options (LIST: values separated by commas):\n"
"  -P, --nodes LIST        P, the nodes (default 32; 1..%d)\n"
"  -n, --tasks LIST        n, each node's tasks at the start (default 200)\n"
"  -c, --cmsg LIST         C_msg as a fraction of E(r) (default 0.03)\n"
"      --ctask-ratio K     C_task = K C_msg (default %g, the paper's)\n"
"  -s, --strategy LIST     the strategies (default yoon; --list)\n"
"  -f, --period-frac LIST  the period as a fraction of n E(r) (default %g): a\n"
"                          balancing that long after the previous one ended\n"
"      --seed S            the first seed (default 1)\n"
"  -k, --seeds K           seeds S, S+1, ..., S+K-1 per point (default 1)\n"
"      --rbar LIST         the nodes' mean task times r_i in seconds instead of\n"
"                          drawn ones (P is their number; E(r) their mean)\n"
"      --csv               the sweep's CSV even for one point\n"
"      --progress          a line on stderr as each (nodes, tasks) is done, even\n"
"                          off a terminal (on one, a sweep's runs are counted\n"
"                          in place anyway)\n"
"  -l, --list              the strategies, one a line\n"
"  -h, --help              this help\n"
"Ctrl-C stops it (exit status 130); a sweep stops after the run in progress,\n"
"its lines printed so far whole (Ctrl-C again: at once).\n"
"exit status: 0; 1 a run failed (out of memory), or standard output could not be\n"
"written (said); 2 a bad option or value\n"
"(the message names it)\n",
            LB_MAX_NODES, SIM_LB_CTASK_RATIO, SIM_LB_PERIOD_FRAC);
}

static void list(void)
{
    for (int i = 0; lb_types[i]; i++)
        printf("%-6s %s\n", lb_types[i]->name, lb_types[i]->summary);
}

/* A list of numbers into out[]; returns how many, or -2 (said). */
static int numbers(const char *opt, const char *text, double *out)
{
    int n = parse_double_list(text, out, MAX_LIST);
    if (n < 0) {
        fail("%s '%s' is not a list of at most %d numbers", opt, quote(text), MAX_LIST);
        return -2;
    }
    return n;
}

/* Every value whole in lo..hi (said: -2). */
static int wholes(const char *opt, const double *v, int n, long lo, long hi, long *out)
{
    for (int i = 0; i < n; i++)
        if (parse_whole(v[i], lo, hi, &out[i]) != 0) {
            fail("%s: %g must be a whole number in %ld..%ld", opt, v[i], lo, hi);
            return -2;
        }
    return n;
}

/* Strategy names separated by commas, each found (said: -2). */
static int strategies(const char *text, const lb_type **out)
{
    char buf[1024];
    if ((size_t)snprintf(buf, sizeof buf, "%s", text) >= sizeof buf) {
        fail("--strategy '%s' is too long", quote(text));
        return -2;
    }
    int n = 0;
    char *save = NULL;
    for (char *p = buf; ; p = NULL) {
        char *name = strtok_r(p, ",", &save);
        if (!name)
            break;
        if (n >= MAX_LIST) {
            fail("--strategy: more than %d strategies", MAX_LIST);
            return -2;
        }
        sched_err err;
        if (!(out[n++] = lb_type_find(name, &err))) {
            fail("--strategy: %s", err.msg);
            return -2;
        }
    }
    if (n == 0 || text[0] == ',' || text[strlen(text) - 1] == ',' || strstr(text, ",,")) {
        fail("--strategy '%s' is not a list of names (try --list)", quote(text));
        return -2;
    }
    return n;
}

typedef struct options {
    long nodes[MAX_LIST], tasks[MAX_LIST];
    double cmsg[MAX_LIST], pfrac[MAX_LIST], rbar[LB_MAX_NODES];
    const lb_type *strat[MAX_LIST];
    int nn, nt, nc, np, ns, nr;
    double ratio;
    unsigned long seed;
    long seeds;
    int csv, progress;
} options;

/* The configuration of one run: P, n, C_msg (fraction), period fraction. */
static void configure(sim_lb_config *c, const options *o, const lb_type *T, long P,
                      long n, double cmsg, double pfrac, unsigned long seed)
{
    double mean_r = 1;
    if (o->nr > 0) {
        mean_r = 0;
        for (int i = 0; i < o->nr; i++)
            mean_r += o->rbar[i] / o->nr;
    }
    sim_lb_config_init(c);
    c->type = T;
    c->nodes = (int)P;
    c->tasks = n;
    c->mean_r = mean_r;
    c->c_msg = cmsg * mean_r;
    c->c_task = o->ratio * cmsg * mean_r;
    c->period = pfrac * (double)n * mean_r;
    c->seed = seed;
    c->rbar = o->nr > 0 ? o->rbar : NULL;
}

/* Runs c; 0, or the exit status (said). */
static int run(const sim_lb_config *c, sim_lb_result *r)
{
    sched_err err;
    int rc = sim_lb_run(c, r, &err);
    if (rc == SCHED_OK)
        return 0;
    if (rc == SCHED_ENOMEM) {
        fprintf(stderr, PROG ": %s\n", err.msg);
        return 1;
    }
    return fail("%s", err.msg);
}

static void cell(double x)
{
    if (isnan(x))
        printf(" %11s", "-");
    else
        printf(" %11.4f", x);
}

static int one(const options *o)
{
    sim_lb_config c, c0;
    configure(&c, o, o->strat[0], o->nodes[0], o->tasks[0], o->cmsg[0], o->pfrac[0],
              o->seed);
    c0 = c;
    c0.type = &lb_none;
    sim_lb_result r, r0;
    int rc = run(&c, &r);
    if (rc)
        return rc;
    if ((rc = run(&c0, &r0))) {
        sim_lb_result_free(&r);
        return rc;
    }
    double g = (r0.et - r.et) / r.et;
    double comm = 0;
    for (int i = 0; i < c.nodes; i++)
        comm += r.comm[i];
    printf("# %s: %d nodes x %ld tasks, E(r) %g s, C_msg %g s, C_task %g s, period %g s "
           "(%g x n x E(r)), seed %lu, r_i %s\n", c.type->name, c.nodes, c.tasks, c.mean_r,
           c.c_msg, c.c_task, c.period, o->pfrac[0], c.seed, c.rbar ? "given" : "drawn");
    printf("ET %.4f s with %s, %.4f s with none: G = %.4f\n", r.et, c.type->name, r0.et, g);
    printf("balancings %ld, tasks moved %ld in %ld migrations, exchange messages %ld, "
           "communication %.4f s (all nodes)\n", r.balancings, r.moved, r.migrations,
           r.messages, comm);
    if (r.balancings > 0)
        printf("balancing        time     elapsed  queued  max_E_before  max_E_after  "
               "moved  migr         end\n");
    for (long b = 0; b < r.balancings; b++) {
        const sim_lb_balancing *x = &r.bal[b];
        printf("%9ld %11.4f %11.4f %7ld  ", b + 1, x->time, x->elapsed, x->queued);
        cell(x->max_before);
        printf(" ");
        cell(x->max_after);
        printf(" %6ld %5d %11.4f\n", x->moved, x->migrations, x->end);
    }
    printf("node         r_i    ran      finish  finish_none        comm\n");
    for (int i = 0; i < c.nodes; i++)
        printf("%4d %11.4f %6ld %11.4f  %11.4f %11.4f\n", i + 1, r.rbar[i], r.ran[i],
               r.finish[i], r0.finish[i], r.comm[i]);
    sim_lb_result_free(&r);
    sim_lb_result_free(&r0);
    return 0;
}

/* What a point accumulates over its seeds. */
typedef struct point {
    double *g, et_nolb, et_lb, moved, migrations, balancings, messages;
} point;

/* The runs of a sweep done so far, on a terminal (sched/util/progress.h). */
static progress pr;
static long runs_done, runs_all;

static void tick(long P, long n, unsigned long seed)
{
    if (progress_stopping())
        progress_stop();                /* Ctrl-C: standard output holds whole lines */
    if (progress_due(&pr))
        progress_show(&pr, "%ld of %ld runs done (now nodes %ld, tasks %ld, seed %lu)",
                      runs_done, runs_all, P, n, seed);
}

static int sweep(const options *o)
{
    int npts = o->nc * o->np * o->ns;
    long K = o->seeds;
    point *pt = calloc((size_t)npts, sizeof *pt);
    double *gs = malloc(sizeof *gs * (size_t)npts * (size_t)K);
    double *diff = malloc(sizeof *diff * (size_t)K);
    if (!pt || !gs || !diff) {
        free(pt);
        free(gs);
        free(diff);
        fprintf(stderr, PROG ": out of memory for %d points x %ld seeds\n", npts, K);
        return 1;
    }
    printf("nodes,tasks,cmsg,ctask,period_frac,strategy,seeds,gain_mean,gain_sd,gain_ci95,"
           "et_nolb,et_lb,moved,migrations,balancings,messages,dgain_mean,dgain_ci95\n");
    int rc = 0, done = 0;
    runs_all = (long)o->nn * o->nt * K * (1 + npts);
    for (int a = 0; a < o->nn && !rc; a++)
        for (int b = 0; b < o->nt && !rc; b++) {
            long P = o->nodes[a], n = o->tasks[b];
            for (int q = 0; q < npts; q++)
                pt[q] = (point){.g = gs + (size_t)q * (size_t)K};
            for (long s = 0; s < K && !rc; s++) {
                unsigned long seed = o->seed + (unsigned long)s;
                sim_lb_config c;
                sim_lb_result r0, r;
                configure(&c, o, &lb_none, P, n, o->cmsg[0], o->pfrac[0], seed);
                tick(P, n, seed);
                if ((rc = run(&c, &r0)))
                    break;
                runs_done++;
                int q = 0;
                for (int ci = 0; ci < o->nc && !rc; ci++)
                    for (int pi = 0; pi < o->np && !rc; pi++)
                        for (int si = 0; si < o->ns && !rc; si++, q++) {
                            configure(&c, o, o->strat[si], P, n, o->cmsg[ci], o->pfrac[pi],
                                      seed);
                            tick(P, n, seed);
                            if ((rc = run(&c, &r)))
                                break;
                            runs_done++;
                            point *x = &pt[q];
                            x->g[s] = (r0.et - r.et) / r.et;
                            x->et_nolb += r0.et / (double)K;
                            x->et_lb += r.et / (double)K;
                            x->moved += (double)r.moved / (double)K;
                            x->migrations += (double)r.migrations / (double)K;
                            x->balancings += (double)r.balancings / (double)K;
                            x->messages += (double)r.messages / (double)K;
                            sim_lb_result_free(&r);
                        }
                sim_lb_result_free(&r0);
            }
            if (rc)
                break;
            progress_clear(&pr);
            int q = 0;
            for (int ci = 0; ci < o->nc; ci++)
                for (int pi = 0; pi < o->np; pi++)
                    for (int si = 0; si < o->ns; si++, q++) {
                        point *x = &pt[q];
                        double mean = gsl_stats_mean(x->g, 1, (size_t)K);
                        printf("%ld,%ld,%g,%g,%g,%s,%ld,%.6g,", P, n, o->cmsg[ci],
                               o->ratio * o->cmsg[ci], o->pfrac[pi], o->strat[si]->name, K,
                               mean);
                        if (K > 1) {
                            double sd = gsl_stats_sd_m(x->g, 1, (size_t)K, mean);
                            double half = gsl_cdf_tdist_Pinv(0.975, (double)(K - 1)) *
                                          sd / sqrt((double)K);
                            printf("%.6g,%.6g,", sd, half);
                        } else {
                            printf("nan,nan,");
                        }
                        printf("%.6g,%.6g,%.6g,%.6g,%.6g,%.6g,", x->et_nolb, x->et_lb,
                               x->moved, x->migrations, x->balancings, x->messages);
                        /* paired by seed with the first strategy's G */
                        const double *g0 = pt[q - si].g;
                        for (long k = 0; k < K; k++)
                            diff[k] = x->g[k] - g0[k];
                        double dm = gsl_stats_mean(diff, 1, (size_t)K);
                        if (K > 1)
                            printf("%.6g,%.6g\n", dm,
                                   gsl_cdf_tdist_Pinv(0.975, (double)(K - 1)) *
                                   gsl_stats_sd_m(diff, 1, (size_t)K, dm) / sqrt((double)K));
                        else
                            printf("%.6g,nan\n", dm);
                    }
            fflush(stdout);
            closeout_check();           /* a reader gone: stop now */
            done++;
            if (o->progress) {
                progress_end(&pr);
                fprintf(stderr, PROG ": nodes %ld, tasks %ld: %d points x %ld seeds done "
                        "(%d of %d)\n", P, n, npts, K, done, o->nn * o->nt);
            }
        }
    progress_end(&pr);
    free(pt);
    free(gs);
    free(diff);
    return rc;
}

int main(int argc, char **argv)
{
    enum { OPT_SEED = 1000, OPT_RATIO, OPT_RBAR, OPT_CSV, OPT_PROGRESS };
    static const struct option opts[] = {
        {"nodes", required_argument, NULL, 'P'},
        {"tasks", required_argument, NULL, 'n'},
        {"cmsg", required_argument, NULL, 'c'},
        {"ctask-ratio", required_argument, NULL, OPT_RATIO},
        {"strategy", required_argument, NULL, 's'},
        {"period-frac", required_argument, NULL, 'f'},
        {"seed", required_argument, NULL, OPT_SEED},
        {"seeds", required_argument, NULL, 'k'},
        {"rbar", required_argument, NULL, OPT_RBAR},
        {"csv", no_argument, NULL, OPT_CSV},
        {"progress", no_argument, NULL, OPT_PROGRESS},
        {"list", no_argument, NULL, 'l'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    static options o;
    const char *nodes_t = "32", *tasks_t = "200", *cmsg_t = "0.03", *strat_t = "yoon";
    const char *pfrac_t = NULL, *ratio_t = NULL, *seed_t = "1", *seeds_t = "1";
    const char *rbar_t = NULL;
    int nodes_given = 0, c;
    char pfrac_default[32];
    snprintf(pfrac_default, sizeof pfrac_default, "%g", SIM_LB_PERIOD_FRAC);
    closeout_init(PROG);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":P:n:c:s:f:k:lh", opts, NULL)) != -1) {
        switch (c) {
        case 'P': nodes_t = optarg; nodes_given = 1; break;
        case 'n': tasks_t = optarg; break;
        case 'c': cmsg_t = optarg; break;
        case 's': strat_t = optarg; break;
        case 'f': pfrac_t = optarg; break;
        case 'k': seeds_t = optarg; break;
        case OPT_SEED: seed_t = optarg; break;
        case OPT_RATIO: ratio_t = optarg; break;
        case OPT_RBAR: rbar_t = optarg; break;
        case OPT_CSV: o.csv = 1; break;
        case OPT_PROGRESS: o.progress = 1; break;
        case 'l': list(); return 0;
        case 'h': usage(stdout); return 0;
        default: return parse_getopt_error(PROG, c, argv);
        }
    }
    if (optind < argc)
        return fail("unexpected argument '%s' (try --help)", quote(argv[optind]));
    parse_gsl_errors(PROG, 1);

    double v[MAX_LIST];
    int n;
    if ((n = numbers("--nodes", nodes_t, v)) < 0 ||
        (o.nn = wholes("--nodes", v, n, 1, LB_MAX_NODES, o.nodes)) < 0)
        return 2;
    if ((n = numbers("--tasks", tasks_t, v)) < 0 ||
        (o.nt = wholes("--tasks", v, n, 1, LB_MAX_TASKS, o.tasks)) < 0)
        return 2;
    if ((o.nc = numbers("--cmsg", cmsg_t, o.cmsg)) < 0)
        return 2;
    for (int i = 0; i < o.nc; i++)
        if (!(o.cmsg[i] >= 0 && o.cmsg[i] <= 1000))
            return fail("--cmsg: %g must be a fraction of E(r) in 0..1000", o.cmsg[i]);
    o.ratio = SIM_LB_CTASK_RATIO;
    if (ratio_t && (parse_double(ratio_t, &o.ratio) != 0 ||
                    !(o.ratio >= 0 && o.ratio <= 1e6)))
        return fail("--ctask-ratio '%s' must be a number in 0..1e6", quote(ratio_t));
    if ((o.np = numbers("--period-frac", pfrac_t ? pfrac_t : pfrac_default, o.pfrac)) < 0)
        return 2;
    for (int i = 0; i < o.np; i++)
        if (!(o.pfrac[i] >= 1e-6 && o.pfrac[i] <= 1e6))
            return fail("--period-frac: %g must be a fraction of n E(r) in 1e-6..1e6",
                        o.pfrac[i]);
    if ((o.ns = strategies(strat_t, o.strat)) < 0)
        return 2;
    long seed;
    if (parse_long_in(seed_t, 0, 4294967295L, &seed) != 0)
        return fail("--seed '%s' must be a whole number in 0..4294967295", quote(seed_t));
    o.seed = (unsigned long)seed;
    if (parse_long_in(seeds_t, 1, MAX_SEEDS, &o.seeds) != 0)
        return fail("--seeds '%s' must be a whole number in 1..%ld", quote(seeds_t), MAX_SEEDS);
    if (rbar_t) {
        static double rb[LB_MAX_NODES];
        int k = parse_double_list(rbar_t, rb, LB_MAX_NODES);
        if (k < 0)
            return fail("--rbar '%s' is not a list of at most %d numbers", quote(rbar_t),
                        LB_MAX_NODES);
        for (int i = 0; i < k; i++) {
            if (!(rb[i] > 0 && rb[i] <= 1e6))
                return fail("--rbar: node %d's %g must be a time in seconds, > 0 and at "
                            "most 1e6", i + 1, rb[i]);
            o.rbar[i] = rb[i];
        }
        o.nr = k;
        if (nodes_given && (o.nn != 1 || o.nodes[0] != k))
            return fail("--rbar gives %d nodes, --nodes '%s'", k, quote(nodes_t));
        o.nn = 1;
        o.nodes[0] = k;
    }
    for (int a = 0; a < o.nn; a++)
        for (int b = 0; b < o.nt; b++)
            if (o.tasks[b] > LB_MAX_TASKS / o.nodes[a])
                return fail("--tasks %ld x %ld nodes is more than %ld tasks in all",
                            o.tasks[b], o.nodes[a], LB_MAX_TASKS);
    if (o.seed + (unsigned long)(o.seeds - 1) > 4294967295UL)
        return fail("--seed %lu + --seeds %ld passes 4294967295", o.seed, o.seeds);

    int single = o.nn == 1 && o.nt == 1 && o.nc == 1 && o.np == 1 && o.ns == 1 &&
                 o.seeds == 1 && !o.csv;
    if (single)
        progress_interrupt(PROG, "nothing printed");
    else
        progress_interrupt_deferred(PROG, "the lines printed are whole points, the rest "
                                    "was not run");
    progress_start(&pr, PROG, 1);
    return single ? one(&o) : sweep(&o);       /* standard output: checked at exit */
}
