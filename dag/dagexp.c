/* dagexp.c: bin/dagexp, the experiment of Singh et al. Sec. 6: many generated
 * graphs (random, FFT or Gaussian elimination), each scheduled by every
 * algorithm, one CSV line per graph. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_rng.h>

#include "dag/dag.h"
#include "sched/util/closeout.h"
#include "sched/util/conv.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"
#include "sched/util/progress.h"

#define MAXLIST 64

static void usage(FILE *f)
{
    fprintf(f,
"usage: dagexp [options] > graphs.csv\n"
"\n"
"For every number of tasks v (or size m), shape alpha and CCR given, generates\n"
"N task graphs (bin/daggen's generators) and schedules each with every\n"
"algorithm (heft, cpop, dcpop), checking every schedule. Each graph's\n"
"out-degree, beta, processors and W_DAG are drawn uniformly from their lists.\n"
"Prints one CSV line per graph:\n"
"  graph,size,v,alpha,ccr,outdeg,beta,q,wdag,seed,height,edges,cp_min,\n"
"  sequential, then per algorithm A: A_makespan,A_slr,A_speedup,A_us,A_dups\n"
"(v: the graph's tasks; size, alpha, outdeg empty where the type has none;\n"
"A_us: the scheduler's own running time in microseconds; A_dups: tasks\n"
"duplicated). `daggen --graph G -v V (or --size M) --alpha .. --outdeg ..\n"
"--ccr .. --wdag .. --beta .. --procs Q --seed SEED` writes that very graph.\n"
"Progress goes to standard error: a line per group, and on a terminal the\n"
"graphs of the group in progress. Ctrl-C stops after the graph in progress,\n"
"the lines printed so far whole (exit status 130; Ctrl-C again: at once).\n"
"\n"
"options (LIST: comma-separated values):\n"
"      --graph TYPE    random, fft or gauss (default random; daggen --help)\n"
"  -v, --tasks LIST    random: numbers of tasks (default 20,40,60,80)\n"
"  -S, --size LIST     fft: input points (powers of 2); gauss: matrix sizes\n"
"                      (needed for fft and gauss)\n"
"      --alpha LIST    random: shapes (default 0.5)\n"
"      --ccr LIST      communication to computation ratios (default 0.1)\n"
"      --outdeg LIST   random: out-degrees, 0 meaning v (default 1,2,3,4,5,0)\n"
"  -b, --beta LIST     heterogeneity ranges (default 0.1,0.25,0.5,0.75,1)\n"
"      --procs LIST    numbers of processors (default 2,4,8)\n"
"      --wdag LIST     mean computation costs (default 20,50,100)\n"
"  -n, --graphs N      graphs per (v or size, alpha, CCR) (default 1000)\n"
"      --seed S        seed of the parameter draws (default 1)\n"
"  -h, --help          this help\n"
"exit status: 0 done; 1 an experiment failed, or standard output could not be\n"
"written (said); 2 a bad option or value\n");
}

#define fail(...) parse_fail("dagexp", __VA_ARGS__)
/* The largest shape alpha, as bin/daggen's (dag/daggen.c). */
#define MAX_ALPHA 1e4

typedef struct { double x[MAXLIST]; int n; } list;

/* A value of an integer list (-v, --size, --outdeg, --procs) as an int:
 * each is whole, in [0, 10^7] (get_list's check, or a default). */
static int whole(double x)
{
    return (int)conv_clamp(x, 0, 10000000);
}

static int get_list(const char *opt, const char *text, list *l, int integer)
{
    l->n = parse_double_list(text, l->x, MAXLIST);
    if (l->n < 1)
        return fail("--%s '%s' is not a list of numbers (at most %d)", opt, quote(text),
                    MAXLIST);
    for (int i = 0; i < l->n; i++)
        if (integer && (l->x[i] != floor(l->x[i]) || l->x[i] < 0 || l->x[i] > 1e7))
            return fail("--%s: '%g' must be a whole number in [0, 10000000]", opt, l->x[i]);
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The number of levels: the longest chain of the tasks as given. */
static int height(const dag *g)
{
    int *h = calloc((size_t)g->n, sizeof *h), best = 0;
    if (!h)
        return -1;
    for (int t = 0; t < g->n; t++) {
        int i = g->topo[t];
        if (i >= g->n_user)
            continue;
        int above = 0;
        for (int k = g->pred_at[i]; k < g->pred_at[i + 1]; k++)
            if (g->pred[k] < g->n_user && h[g->pred[k]] > above)
                above = h[g->pred[k]];
        h[i] = above + 1;
        if (h[i] > best)
            best = h[i];
    }
    free(h);
    return best;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"graph", required_argument, NULL, 1007},
        {"tasks", required_argument, NULL, 'v'},
        {"size", required_argument, NULL, 'S'},
        {"alpha", required_argument, NULL, 1001},
        {"ccr", required_argument, NULL, 1002},
        {"outdeg", required_argument, NULL, 1003},
        {"beta", required_argument, NULL, 'b'},
        {"procs", required_argument, NULL, 1004},
        {"wdag", required_argument, NULL, 1005},
        {"graphs", required_argument, NULL, 'n'},
        {"seed", required_argument, NULL, 1006},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    list V = {{20, 40, 60, 80}, 4}, alpha = {{0.5}, 1}, ccr = {{0.1}, 1};
    list outdeg = {{1, 2, 3, 4, 5, 0}, 6}, beta = {{0.1, 0.25, 0.5, 0.75, 1}, 5};
    list procs = {{2, 4, 8}, 3}, wdag = {{20, 50, 100}, 3}, size = {{0}, 0};
    const dag_gen_type *type = &dag_gen_random;
    const char *random_only = NULL;     /* an option only the random type takes */
    long graphs = 1000, seed = 1;
    int c, rc;
    parse_gsl_errors("dagexp", 1);
    closeout_init("dagexp");
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":v:S:b:n:h", opts, NULL)) != -1) {
        switch (c) {
        case 1007: {
            dag_err e;
            if (!(type = dag_gen_find(optarg, &e)))
                return fail("--graph: %s", e.msg);
            break;
        }
        case 'v':
            if ((rc = get_list("tasks", optarg, &V, 1)))
                return rc;
            random_only = "--tasks";
            break;
        case 'S': if ((rc = get_list("size", optarg, &size, 1))) return rc; break;
        case 1001:
            if ((rc = get_list("alpha", optarg, &alpha, 0)))
                return rc;
            random_only = "--alpha";
            for (int i = 0; i < alpha.n; i++)
                if (!(alpha.x[i] > 0 && alpha.x[i] <= MAX_ALPHA))
                    return fail("--alpha: '%g' must be a number in (0, %g]", alpha.x[i],
                                MAX_ALPHA);
            break;
        case 1002: if ((rc = get_list("ccr", optarg, &ccr, 0))) return rc; break;
        case 1003:
            if ((rc = get_list("outdeg", optarg, &outdeg, 1)))
                return rc;
            random_only = "--outdeg";
            break;
        case 'b': if ((rc = get_list("beta", optarg, &beta, 0))) return rc; break;
        case 1004: if ((rc = get_list("procs", optarg, &procs, 1))) return rc; break;
        case 1005: if ((rc = get_list("wdag", optarg, &wdag, 0))) return rc; break;
        case 'n':
            if (parse_long(optarg, &graphs) != 0 || graphs < 1)
                return fail("--graphs '%s' is not an integer >= 1", quote(optarg));
            break;
        case 1006:
            if (parse_long(optarg, &seed) != 0 || seed < 0)
                return fail("--seed '%s' is not an integer >= 0", quote(optarg));
            break;
        case 'h': usage(stdout); return 0;
        default: return parse_getopt_error("dagexp", c, argv);
        }
    }
    if (optind < argc)
        return fail("unexpected argument '%s' (try --help)", quote(argv[optind]));
    int structured = type != &dag_gen_random;
    if (structured && random_only)
        return fail("%s is for --graph random; --graph %s takes --size",
                    random_only, type->name);
    if (structured && size.n == 0)
        return fail("--graph %s needs --size LIST (%s)", type->name, type->summary);
    if (!structured && size.n > 0)
        return fail("--size is for --graph fft or gauss; a random graph has -v LIST");
    /* The first dimension of the groups: v for random graphs, else the size;
     * alpha has no meaning for the structured types (one pass, not printed). */
    const list *X = structured ? &size : &V;
    if (structured)
        alpha = (list){{0}, 1};

    /* Every value once, before any work: a bad value fails at once. */
    dag_err err;
    const list *lists[] = {X, &alpha, &ccr, &outdeg, &beta, &procs, &wdag};
    for (int l = 0; l < 7; l++)
        for (int i = 0; i < lists[l]->n; i++) {
            dag_gen p;
            dag_gen_init(&p);
            p.type = type;
            double x = lists[l]->x[i];
            switch (l) {
            case 0: if (structured) p.size = whole(x); else p.v = whole(x); break;
            case 1: if (!structured) p.alpha = x; break;
            case 2: p.ccr = x; break;
            case 3: p.out_degree = x ? whole(x) : 1; break;
            case 4: p.beta = x; break;
            case 5: p.q = whole(x); break;
            case 6: p.wdag = x; break;
            }
            if (dag_gen_check(&p, &err) != DAG_OK)
                return fail("%s", err.msg);
        }

    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    if (!r) {
        fail("out of memory");
        return 1;
    }
    gsl_rng_set(r, (unsigned long)seed);
    printf("graph,size,v,alpha,ccr,outdeg,beta,q,wdag,seed,height,edges,cp_min,sequential");
    for (int i = 0; dag_algos[i]; i++) {
        const char *A = dag_algos[i]->name;
        printf(",%s_makespan,%s_slr,%s_speedup,%s_us,%s_dups", A, A, A, A, A);
    }
    printf("\n");
    int groups = X->n * alpha.n * ccr.n, group = 0;
    double t0 = now();
    progress_interrupt_deferred("dagexp", "the lines printed are whole graphs, the rest "
                                "was not run");
    progress pr;
    progress_start(&pr, "dagexp", 1);
    for (int a = 0; a < X->n; a++)
        for (int b = 0; b < alpha.n; b++)
            for (int k = 0; k < ccr.n; k++) {
                double tg = now();
                for (long n = 0; n < graphs; n++) {
                    if (progress_stopping())
                        progress_stop();    /* Ctrl-C: after a whole line */
                    progress_tick(&pr, "[%d/%d] %ld of %ld graphs", group + 1, groups, n,
                                  graphs);
                    dag_gen p;
                    dag_gen_init(&p);
                    p.type = type;
                    if (structured)
                        p.size = whole(X->x[a]);
                    else {
                        p.v = whole(X->x[a]);
                        p.alpha = alpha.x[b];
                    }
                    p.ccr = ccr.x[k];
                    /* Drawn for every type, so a seed draws the same beta,
                     * processors and W_DAG whatever the type. */
                    int d = whole(outdeg.x[gsl_rng_uniform_int(r, (unsigned long)outdeg.n)]);
                    p.out_degree = d ? d : p.v;
                    p.beta = beta.x[gsl_rng_uniform_int(r, (unsigned long)beta.n)];
                    p.q = whole(procs.x[gsl_rng_uniform_int(r, (unsigned long)procs.n)]);
                    p.wdag = wdag.x[gsl_rng_uniform_int(r, (unsigned long)wdag.n)];
                    p.seed = gsl_rng_get(r);
                    dag *g = dag_generate(&p, &err);
                    if (!g) {       /* parameters no graph can have: bad input */
                        fprintf(stderr, "dagexp: %s\n", err.msg);
                        gsl_rng_free(r);
                        return err.code == DAG_EINVAL ? 2 : 1;
                    }
                    /* The parameters as they read back: daggen with them
                     * writes this very graph. */
                    char n1[32], n2[32], n3[32], n4[32];
                    printf("%s,", type->name);
                    if (structured)
                        printf("%d,%d,,%s,,", p.size, g->n_user, dag_num(n1, p.ccr));
                    else
                        printf(",%d,%s,%s,%d,", p.v, dag_num(n1, p.alpha),
                               dag_num(n2, p.ccr), p.out_degree);
                    printf("%s,%d,%s,%lu,%d,%d,%.10g,%.10g", dag_num(n3, p.beta), p.q,
                           dag_num(n4, p.wdag), p.seed, height(g), g->m_user,
                           dag_cp_min(g), dag_sequential(g));
                    for (int i = 0; dag_algos[i]; i++) {
                        double ts = now();
                        dag_schedule *s = dag_schedule_new(dag_algos[i], g, &err);
                        double us = (now() - ts) * 1e6;
                        if (!s || dag_schedule_check(s, &err) != DAG_OK) {
                            fprintf(stderr, "dagexp: %s on the graph of seed %lu: "
                                    "%s\n", dag_algos[i]->name, p.seed, err.msg);
                            dag_schedule_free(s);
                            dag_free(g);
                            gsl_rng_free(r);
                            return 1;
                        }
                        printf(",%.10g,%.10g,%.10g,%.2f,%d", s->makespan,
                               dag_slr(s), dag_speedup(s), us, s->duplicates);
                        dag_schedule_free(s);
                    }
                    printf("\n");
                    closeout_check();   /* a reader gone: stop at once */
                    dag_free(g);
                }
                /* One write per line: experiments run side by side share
                 * the terminal. */
                char what[160];
                group++;
                if (structured) {
                    dag_gen p;
                    dag_gen_init(&p);
                    p.type = type;
                    p.size = whole(X->x[a]);
                    snprintf(what, sizeof what, "%s size=%g (%ld tasks) ccr=%g",
                             type->name, X->x[a], type->tasks(&p), ccr.x[k]);
                } else
                    snprintf(what, sizeof what, "v=%g alpha=%g ccr=%g", X->x[a],
                             alpha.x[b], ccr.x[k]);
                progress_clear(&pr);
                fprintf(stderr, "dagexp: [%d/%d] %s: %ld graphs in %.1f s (%.1f s "
                        "elapsed)\n", group, groups, what, graphs, now() - tg, now() - t0);
            }
    gsl_rng_free(r);
    return 0;                           /* standard output: checked at exit */
}
