/* yoonplan.c: bin/yoon-plan, one load-balancing decision (sched/lb/lb.h) from
 * the command line: per node T_task, eq. 4's target, the predicted finish
 * before and after, then the migrations and the largest finish. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>

#include "sched/lb/lb.h"
#include "sched/util/closeout.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

#define fail(...) parse_fail("yoon-plan", __VA_ARGS__)

static void usage(FILE *f)
{
    fprintf(f,
"usage: yoon-plan --remaining N1,N2,... --done D1,D2,... --elapsed T --ct C\n"
"                 [--strategy NAME]\n"
"\n"
"Plans one load balancing of Yoon et al. Sec. 3.2 and prints, per node\n"
"(numbered from 1): its queue n_i, the tasks d_i done in the period, T_task =\n"
"T / d_i (eq. 1), eq. 4's share and whole target, the predicted finish E\n"
"before and after, and its queue after; then the migrations (from,to,count)\n"
"and the largest E before and after. A node with d_i = 0 has no measured\n"
"rate ('-') and is in no max; yoon and mclb leave its queue as it is, clb\n"
"and dlb (task counts only) treat it like any node (docs/lb.md).\n"
"\n"
"options:\n"
"  -r, --remaining LIST  n_i: tasks in each node's ready queue, whole, >= 0\n"
"  -d, --done LIST       d_i: tasks each node finished during the period, whole,\n"
"                        >= 0 (as many as --remaining)\n"
"  -t, --elapsed T       the period, seconds, > 0; T / d_i in [1e-15, 1e15]\n"
"  -c, --ct C            C_t: migrating one task, seconds, in [0, 1e15]\n"
"  -s, --strategy NAME   the strategy (default yoon)\n"
"  -h, --help            this help\n"
"exit status: 0 done; 1 out of memory, or standard output could not be written\n"
"(said); 2 a bad option or value\n"
"\nstrategies:\n");
    for (int i = 0; lb_types[i]; i++)
        fprintf(f, "  %-5s %s\n", lb_types[i]->name, lb_types[i]->summary);
}

/* A list of whole counts >= 0 into out[0 .. LB_MAX_NODES-1]; returns how
 * many, or 2 (a usage error, said) as a negative number. */
static int counts(const char *opt, const char *text, long *out)
{
    static double v[LB_MAX_NODES];
    int n = parse_double_list(text, v, LB_MAX_NODES);
    if (n < 0)
        return -fail("%s '%s' is not a list of at most %d numbers", opt, quote(text),
                     LB_MAX_NODES);
    for (int i = 0; i < n; i++)
        if (parse_whole(v[i], 0, LB_MAX_TASKS, &out[i]) != 0)
            return -fail("%s: node %d's %g must be a whole number in 0..%ld", opt,
                         i + 1, v[i], LB_MAX_TASKS);
    return n;
}

/* A number, "-" for NAN. */
static void cell(double x, int width)
{
    if (isnan(x))
        printf(" %*s", width, "-");
    else
        printf(" %*.6g", width, x);
}

static void print(const lb_plan *p, const long *done, const lb_type *T, double t,
                  double C)
{
    printf("# %s: %d nodes, N_total %ld, elapsed %g s, C_t %g s\n", T->name, p->nodes,
           p->total, t, C);
    printf("node remaining   done     T_task      share target   E_before    E_after"
           "  after\n");
    for (int i = 0; i < p->nodes; i++) {
        printf("%4d %9ld %6ld", i + 1, p->remaining[i], done[i]);
        cell(p->t_task[i], 10);
        cell(p->share[i], 10);
        printf(" %6ld", p->target[i]);
        cell(p->e_before[i], 10);
        cell(p->e_after[i], 10);
        printf(" %6ld\n", p->after[i]);
    }
    if (p->nmoves == 0)
        printf("moves: none\n");
    else
        printf("moves (from,to,count):\n");
    for (int m = 0; m < p->nmoves; m++)
        printf("%d,%d,%ld\n", p->move[m].from + 1, p->move[m].to + 1, p->move[m].count);
    printf("max E: before");
    cell(p->max_before, 0);
    printf(", after");
    cell(p->max_after, 0);
    printf("\n");
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"remaining", required_argument, NULL, 'r'},
        {"done", required_argument, NULL, 'd'},
        {"elapsed", required_argument, NULL, 't'},
        {"ct", required_argument, NULL, 'c'},
        {"strategy", required_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *rem_text = NULL, *done_text = NULL, *t_text = NULL, *c_text = NULL;
    const char *strategy = "yoon";
    int c;
    closeout_init("yoon-plan");
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":r:d:t:c:s:h", opts, NULL)) != -1) {
        switch (c) {
        case 'r': rem_text = optarg; break;
        case 'd': done_text = optarg; break;
        case 't': t_text = optarg; break;
        case 'c': c_text = optarg; break;
        case 's': strategy = optarg; break;
        case 'h': usage(stdout); return 0;
        default: return parse_getopt_error("yoon-plan", c, argv);
        }
    }
    if (optind < argc)
        return fail("unexpected argument '%s' (try --help)", quote(argv[optind]));
    if (!rem_text || !done_text || !t_text || !c_text)
        return fail("--remaining, --done, --elapsed and --ct are required (try --help)");

    sched_err err;
    const lb_type *T = lb_type_find(strategy, &err);
    if (!T)
        return fail("%s", err.msg);
    static long rem[LB_MAX_NODES], done[LB_MAX_NODES];
    int n = counts("--remaining", rem_text, rem);
    if (n < 0)
        return -n;
    int nd = counts("--done", done_text, done);
    if (nd < 0)
        return -nd;
    if (nd != n)
        return fail("--done '%s' has %d values, --remaining %d", quote(done_text), nd, n);
    double t, C;
    if (parse_double(t_text, &t) != 0 || !(t > 0))
        return fail("--elapsed '%s' must be a time > 0 (seconds)", quote(t_text));
    if (parse_double(c_text, &C) != 0 || !(C >= 0 && C <= LB_MAX_TIME))
        return fail("--ct '%s' must be a time in [0, %g] (seconds per task)", quote(c_text),
                    LB_MAX_TIME);

    lb_input in = {.nodes = n, .remaining = rem, .done = done, .elapsed = t, .cost = C};
    lb_plan *p = lb_plan_make(T, &in, &err);
    if (!p) {
        if (err.code == SCHED_ENOMEM) {
            fprintf(stderr, "yoon-plan: %s\n", err.msg);
            return 1;
        }
        return fail("%s", err.msg);
    }
    print(p, done, T, t, C);
    lb_plan_free(p);
    return 0;
}
