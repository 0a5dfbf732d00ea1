/* daggen.c: bin/daggen, write a task graph: random (Singh et al. Sec. 4), FFT
 * or Gaussian elimination (Singh Figs. 1-2, after Topcuoglu et al. 2002). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "dag/dag.h"
#include "sched/util/closeout.h"
#include "sched/util/outfile.h"
#include "sched/util/parse.h"
#include "sched/util/progress.h"
#include "sched/util/quote.h"

static void usage(FILE *f)
{
    dag_gen d;
    dag_gen_init(&d);
    fprintf(f,
"usage: daggen [--graph TYPE] [-v TASKS | -S SIZE] [options]\n"
"\n"
"Writes a task graph in the text format (or DOT) that bin/dagsched reads.\n"
"Its structure is the graph type's; costs are drawn around W_DAG alike for\n"
"every type (docs/dag.md). The same parameters and seed give the same graph.\n"
"\n"
"graph types (--graph):\n");
    for (int i = 0; dag_gen_types[i]; i++)
        fprintf(f, "  %-8s %s\n", dag_gen_types[i]->name, dag_gen_types[i]->summary);
    fprintf(f,
"\n"
"options:\n"
"      --graph TYPE    the structure, one of the types above (default %s)\n"
"  -v, --tasks N       random: number of tasks (default %d)\n"
"      --alpha A       random: shape, height ~ sqrt(v)/A, width ~ A sqrt(v)\n"
"                      (default %g)\n"
"      --outdeg D      random: children per task, or 'v' for every lower task\n"
"                      (default %d)\n"
"  -S, --size M        fft: input points (a power of 2); gauss: matrix size\n"
"                      (default %d)\n"
"      --ccr C         communication to computation ratio (default %g)\n"
"      --wdag W        mean computation cost W_DAG (default %g)\n"
"  -b, --beta B        heterogeneity, 0 to 2: a task's costs spread over\n"
"                      w_i (1 +- B/2) (default %g)\n"
"      --procs Q       processors (default %d)\n"
"      --seed S        GSL mt19937 seed (default %lu)\n"
"  -f, --format FMT    text or dot (default text)\n"
"  -o, --output FILE   write to FILE (default standard output), whole or not\n"
"                      at all; checked before the graph is made\n"
"  -q, --quiet         no progress (shown on a terminal only, on stderr)\n"
"  -h, --help          this help\n"
"The first line is the command that writes this very graph. A graph holds at\n"
"most %.0e edges (random: v - 1 + v min(outdeg, v - 1) may be made) and\n"
"%.0e costs (tasks x processors): more is refused before anything is made.\n"
"Ctrl-C stops it and writes nothing (exit status 130).\n"
"exit status: 0 done; 1 the graph could not be made or written, standard output\n"
"included (said; no part of a file is left); 2 a bad option or value\n",
            d.type->name, d.v, d.alpha, d.out_degree, d.size, d.ccr, d.wdag, d.beta,
            d.q, d.seed, (double)DAG_GEN_MAX_EDGES, (double)DAG_GEN_MAX_COSTS);
}

/* " --NAME X" with the shortest text of x that reads back as x: the
 * header's command makes the very same graph again. */
static void option(FILE *f, const char *name, double x)
{
    char buf[32];
    fprintf(f, " --%s %s", name, dag_num(buf, x));
}

#define fail(...) parse_fail("daggen", __VA_ARGS__)
/* The largest shape alpha: alpha sqrt(v), a level's mean width, is drawn as
 * an int (dag/random.c); 10^4 sqrt(10^7) stays far below INT_MAX, and any
 * alpha >= sqrt(v) already gives levels as wide as the graph. */
#define MAX_ALPHA 1e4

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"graph", required_argument, NULL, 1007},
        {"tasks", required_argument, NULL, 'v'},
        {"size", required_argument, NULL, 'S'},
        {"alpha", required_argument, NULL, 1001},
        {"outdeg", required_argument, NULL, 1002},
        {"ccr", required_argument, NULL, 1003},
        {"wdag", required_argument, NULL, 1004},
        {"beta", required_argument, NULL, 'b'},
        {"procs", required_argument, NULL, 1005},
        {"seed", required_argument, NULL, 1006},
        {"format", required_argument, NULL, 'f'},
        {"output", required_argument, NULL, 'o'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    parse_gsl_errors("daggen", 1);
    dag_gen d;
    dag_gen_init(&d);
    const char *out = NULL, *outdeg = NULL;
    const char *random_only = NULL;     /* an option only the random type takes */
    int size_given = 0;
    int format = DAG_FORMAT_TEXT, quiet = 0, c;
    long seed;
    closeout_init("daggen");
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":v:S:b:f:o:qh", opts, NULL)) != -1) {
        switch (c) {
        case 1007: {
            dag_err e;
            if (!(d.type = dag_gen_find(optarg, &e)))
                return fail("--graph: %s", e.msg);
            break;
        }
        case 'v':
            if (parse_int_in(optarg, 1, 10000000, &d.v) != 0)
                return fail("--tasks '%s' must be an integer in [1, 10000000]", quote(optarg));
            random_only = "--tasks";
            break;
        case 'S':
            if (parse_int_in(optarg, 1, INT_MAX, &d.size) != 0)
                return fail("--size '%s' must be a positive integer", quote(optarg));
            size_given = 1;
            break;
        case 1001:
            if (parse_double(optarg, &d.alpha) != 0 || !(d.alpha > 0 && d.alpha <= MAX_ALPHA))
                return fail("--alpha '%s' must be a number in (0, %g]", quote(optarg), MAX_ALPHA);
            random_only = "--alpha";
            break;
        case 1002: outdeg = optarg; random_only = "--outdeg"; break;
        case 1003: if (parse_double(optarg, &d.ccr) != 0) return fail("--ccr '%s' is not a number", quote(optarg)); break;
        case 1004: if (parse_double(optarg, &d.wdag) != 0) return fail("--wdag '%s' is not a number", quote(optarg)); break;
        case 'b': if (parse_double(optarg, &d.beta) != 0) return fail("--beta '%s' is not a number", quote(optarg)); break;
        case 1005:
            if (parse_int_in(optarg, 1, 1000000, &d.q) != 0)
                return fail("--procs '%s' must be an integer in [1, 1000000]", quote(optarg));
            break;
        case 1006:
            /* mt19937 takes 32 bits of a seed: a larger one would repeat a
             * smaller one's graph. */
            if (parse_long_in(optarg, 0, 4294967295L, &seed) != 0)
                return fail("--seed '%s' is not an integer in 0..4294967295 (mt19937's "
                            "32-bit seed)", quote(optarg));
            d.seed = (unsigned long)seed;
            break;
        case 'f':
            if (strcmp(optarg, "text") == 0) format = DAG_FORMAT_TEXT;
            else if (strcmp(optarg, "dot") == 0) format = DAG_FORMAT_DOT;
            else return fail("--format '%s': expected text or dot", quote(optarg));
            break;
        case 'o': out = optarg; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default: return parse_getopt_error("daggen", c, argv);
        }
    }
    if (optind < argc)
        return fail("unexpected argument '%s' (try --help)", quote(argv[optind]));
    if (d.type != &dag_gen_random && random_only)
        return fail("%s is for --graph random; --graph %s takes --size",
                    random_only, d.type->name);
    if (d.type == &dag_gen_random && size_given)
        return fail("--size is for --graph fft or gauss; a random graph has -v TASKS");
    if (outdeg && strcmp(outdeg, "v") == 0)
        d.out_degree = d.v;
    else if (outdeg && parse_int_in(outdeg, 1, INT_MAX, &d.out_degree) != 0)
        return fail("--outdeg '%s' must be 'v' or an integer in [1, %d]", quote(outdeg), INT_MAX);
    dag_err err;
    if (dag_gen_check(&d, &err) != DAG_OK)
        return fail("%s", err.msg);
    if (closeout_output("--output", out, 0))           /* before the work */
        return 1;
    progress_interrupt("daggen", "no graph written");
    progress pr;
    progress_start(&pr, "daggen", !quiet);
    progress_tick(&pr, "making a graph of %ld tasks", d.type->tasks(&d));
    dag *g = dag_generate(&d, &err);
    if (!g) {
        progress_end(&pr);
        fprintf(stderr, "daggen: %s\n", err.msg);
        return err.code == DAG_EINVAL ? 2 : 1;
    }
    /* The graph goes to out whole or not at all (outfile.h; none: stdout). */
    progress_tick(&pr, "writing %d tasks, %d edges", g->n_user, g->m_user);
    outfile o;
    char msg[300];
    const char *call;
    if (!out)
        out = "-";
    if (outfile_open(&o, out, "w") != 0) {
        progress_end(&pr);
        fprintf(stderr, "daggen: %s\n", outfile_msg(msg, sizeof msg, out, NULL, errno));
        dag_free(g);
        return 1;
    }
    FILE *f = o.f;
    /* The command that writes this very graph: only options daggen takes,
     * each value as it reads back. */
    const char *c0 = format == DAG_FORMAT_DOT ? "//" : "#";
    if (d.type == &dag_gen_random) {
        fprintf(f, "%s daggen -v %d", c0, d.v);
        option(f, "alpha", d.alpha);
        fprintf(f, " --outdeg %d", d.out_degree);
    } else
        fprintf(f, "%s daggen --graph %s --size %d", c0, d.type->name, d.size);
    option(f, "ccr", d.ccr);
    option(f, "wdag", d.wdag);
    option(f, "beta", d.beta);
    fprintf(f, " --procs %d --seed %lu%s\n", d.q, d.seed,
            format == DAG_FORMAT_DOT ? " --format dot" : "");
    if (d.type != &dag_gen_random)
        fprintf(f, "%s %d tasks, %d edges\n", c0, g->n_user, g->m_user);
    int rc = dag_write(f, g, format, &err);
    dag_free(g);
    if (rc != DAG_OK && err.code != DAG_EIO) {          /* a name the format cannot hold */
        progress_end(&pr);
        fprintf(stderr, "daggen: %s\n", err.msg);
        outfile_abort(&o);
        return 1;
    }
    if (outfile_close(&o, &call) != 0) {                /* a write error: said here */
        progress_end(&pr);
        fprintf(stderr, "daggen: %s\n", outfile_msg(msg, sizeof msg, out, call, errno));
        return 1;
    }
    progress_end(&pr);
    return 0;
}
