/* dagsched.c: bin/dagsched, schedule a task graph file with HEFT, CPOP or
 * DCPOP; print the schedule, makespan, SLR and speedup; draw it. */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "dag/dag.h"
#include "sched/parse.h"

static void usage(FILE *f)
{
    fprintf(f,
"usage: dagsched [--algo NAME] [options] FILE\n"
"\n"
"Schedules the task graph in FILE (\"-\": standard input) onto its heterogeneous\n"
"processors and prints one line per task (name, processor, start, finish;\n"
"duplicated tasks marked \"duplicate\"), then\n"
"  makespan  the schedule length\n"
"  slr       makespan / the sum of minimum costs along CP_MIN (>= 1)\n"
"  speedup   the best one-processor time / makespan\n"
"FILE is our text format or DOT, told apart by content (docs/dag.md):\n"
"  processors 3\n"
"  task n1 14 16 9            (one cost per processor)\n"
"  edge n1 n2 18              (communication cost, 0 on one processor)\n"
"Several entry (exit) tasks get a zero-cost pseudo entry (exit) task, which\n"
"is not listed.\n"
"\n"
"options:\n"
"  -a, --algo NAME     the algorithm (default heft):\n");
    for (int i = 0; dag_algos[i]; i++)
        fprintf(f, "                        %-6s %s\n", dag_algos[i]->name,
                dag_algos[i]->summary);
    fprintf(f,
"  -g, --gantt OUT.png draw the schedule with gnuplot\n"
"      --ranks         also print each task's rank_u, rank_d and priority\n"
"                      and CPOP's critical path\n"
"      --summary       print only makespan, slr, speedup (and duplicates)\n"
"  -f, --format FMT    read FILE as text or dot (default: by content)\n"
"  -h, --help          this help\n"
"\n"
"exit status: 0 done, 1 bad input (the message names it), 2 bad usage\n");
}

#define fail(...) parse_fail("dagsched", __VA_ARGS__)

/* Copies by start time, then processor, own copies before duplicates. */
static const dag_copy *sort_copies;
static int by_start(const void *a, const void *b)
{
    const dag_copy *x = &sort_copies[*(const int *)a], *y = &sort_copies[*(const int *)b];
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    if (x->proc != y->proc)
        return x->proc < y->proc ? -1 : 1;
    return x->dup - y->dup;
}

static void print_ranks(const dag *g)
{
    double *ru = malloc((size_t)g->n * sizeof *ru), *rd = malloc((size_t)g->n * sizeof *rd);
    int *path = malloc((size_t)g->n * sizeof *path), pcp;
    if (!ru || !rd || !path) {
        fprintf(stderr, "dagsched: out of memory\n");
        exit(1);
    }
    dag_rank_up(g, ru);
    dag_rank_down(g, rd);
    int len = dag_critical_path(g, ru, rd, path, &pcp);
    printf("# ranks with mean costs (Topcuoglu eq. 5, 6)\n");
    printf("%-12s %12s %12s %12s\n", "task", "rank_u", "rank_d", "priority");
    for (int i = 0; i < g->n; i++)
        printf("%-12s %12.6g %12.6g %12.6g\n", g->name[i], ru[i], rd[i], ru[i] + rd[i]);
    printf("# critical path (|CP| = %.6g) on P%d:", ru[g->entry] + rd[g->entry], pcp + 1);
    for (int k = 0; k < len; k++)
        printf(" %s", g->name[path[k]]);
    printf("\n");
    free(ru); free(rd); free(path);
}

/* Writes s to gnuplot as a quoted string: ' doubled inside '...'. */
static void gp_string(FILE *gp, const char *s)
{
    fputc('\'', gp);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', gp);
        if (*s != '\n')
            fputc(*s, gp);
    }
    fputc('\'', gp);
}

/* Draws s into the PNG 'out' with gnuplot: a lane per processor, a box per
 * copy, duplicates in orange. Returns 0, or 1 after printing why not. */
static int gantt(const dag_schedule *s, const char *out)
{
    const dag *g = s->g;
    FILE *gp = popen("gnuplot", "w");
    if (!gp) {
        fprintf(stderr, "dagsched: popen(gnuplot) failed\n");
        return 1;
    }
    int labels = g->n <= 200;
    fprintf(gp, "$copies << EOD\n");
    for (int j = 0; j < s->ncopies; j++) {
        const dag_copy *x = &s->copy[j];
        if (x->task >= g->n_user)
            continue;
        /* The name stays one quoted field of one data line: a quote, a
         * backslash or a control character (a line break could end the
         * data block and let what follows be read as gnuplot code) becomes
         * '_'. */
        fputc('"', gp);
        for (const char *c = g->name[x->task]; *c; c++) {
            unsigned char u = (unsigned char)*c;
            fputc(u == '"' || u == '\\' || u < 0x20 || u == 0x7f ? '_' : u, gp);
        }
        fprintf(gp, "\" %d %.10g %.10g %d\n", x->proc + 1, x->start, x->finish, x->dup);
    }
    fprintf(gp, "EOD\n");
    fprintf(gp, "set terminal pngcairo size 1000,%d font 'sans,10'\nset output ",
            160 + 50 * g->q);
    gp_string(gp, out);
    char title[200];
    snprintf(title, sizeof title, "%s: makespan %.6g, SLR %.4g, speedup %.4g%s",
             s->algo->name, s->makespan, dag_slr(s), dag_speedup(s),
             s->duplicates ? " (orange: duplicates)" : "");
    fprintf(gp, "\nset title ");
    gp_string(gp, title);
    fprintf(gp, "\nset xlabel 'time'\nset ylabel 'processor'\n"
                "set yrange [0.4:%d.6]\nset ytics 1\nset xrange [0:*]\n"
                "set grid xtics\nunset key\n"
                "set style fill solid 0.8 border lc rgb 'black'\n"
                "plot $copies using (($3 + $4) / 2) : 2 : (($4 - $3) / 2) : (0.35) : "
                "($5 > 0 ? 0xe08030 : 0x4a7ab5) with boxxyerror lc rgb variable",
            g->q);
    if (labels)
        fprintf(gp, ", $copies using (($3 + $4) / 2) : 2 : 1 with labels "
                    "font 'sans,8' tc rgb 'white'");
    fprintf(gp, "\n");
    int st = pclose(gp);
    if (st == -1 || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        if (st != -1 && WIFEXITED(st) && WEXITSTATUS(st) == 127)
            fprintf(stderr, "dagsched: gnuplot not found (make deps installs "
                    "gnuplot-nox)\n");
        else
            fprintf(stderr, "dagsched: gnuplot failed drawing %s\n", out);
        remove(out);
        return 1;
    }
    struct stat sb;
    if (stat(out, &sb) != 0 || sb.st_size == 0) {
        fprintf(stderr, "dagsched: gnuplot wrote no %s\n", out);
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"algo", required_argument, NULL, 'a'},
        {"gantt", required_argument, NULL, 'g'},
        {"ranks", no_argument, NULL, 1001},
        {"summary", no_argument, NULL, 1002},
        {"format", required_argument, NULL, 'f'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *algo = "heft", *gantt_out = NULL, *fmt = NULL;
    int ranks = 0, summary = 0, c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":a:g:f:h", opts, NULL)) != -1) {
        switch (c) {
        case 'a': algo = optarg; break;
        case 'g': gantt_out = optarg; break;
        case 1001: ranks = 1; break;
        case 1002: summary = 1; break;
        case 'f': fmt = optarg; break;
        case 'h': usage(stdout); return 0;
        default: return parse_getopt_error("dagsched", c, argv);
        }
    }
    if (optind == argc)
        return fail("no task graph FILE given (try --help)");
    if (optind + 1 < argc)
        return fail("unexpected argument '%s' (one FILE only)", argv[optind + 1]);
    int format = DAG_FORMAT_AUTO;
    if (fmt && strcmp(fmt, "text") == 0)
        format = DAG_FORMAT_TEXT;
    else if (fmt && strcmp(fmt, "dot") == 0)
        format = DAG_FORMAT_DOT;
    else if (fmt)
        return fail("--format '%s': expected text or dot", fmt);
    dag_err err;
    const dag_algo *A = dag_algo_find(algo, &err);
    if (!A)
        return fail("%s", err.msg);

    const char *path = argv[optind];
    dag *g = dag_read_file(path, format, &err);
    if (!g) {
        fprintf(stderr, "dagsched: %s\n", err.msg);
        return 1;
    }
    dag_schedule *s = dag_schedule_new(A, g, &err);
    if (!s) {
        fprintf(stderr, "dagsched: %s: %s\n", A->name, err.msg);
        dag_free(g);
        return 1;
    }
    /* Never print a wrong schedule: check it first. */
    if (dag_schedule_check(s, &err) != DAG_OK) {
        fprintf(stderr, "dagsched: %s produced an invalid schedule (a bug): %s\n",
                A->name, err.msg);
        dag_schedule_free(s);
        dag_free(g);
        return 1;
    }
    if (!summary) {
        printf("# %s: %d tasks, %d edges, %d processors (%s)%s%s\n", A->name,
               g->n_user, g->m_user, g->q, path,
               g->entry >= g->n_user ? ", pseudo entry" : "",
               g->exit >= g->n_user ? ", pseudo exit" : "");
        if (ranks)
            print_ranks(g);
        int *order = malloc(((size_t)s->ncopies + 1) * sizeof *order), n = 0;
        if (!order) {
            fprintf(stderr, "dagsched: out of memory\n");
            return 1;
        }
        for (int j = 0; j < s->ncopies; j++)
            if (s->copy[j].task < g->n_user)
                order[n++] = j;
        sort_copies = s->copy;
        qsort(order, (size_t)n, sizeof *order, by_start);
        printf("%-12s %-9s %12s %12s\n", "task", "processor", "start", "finish");
        for (int k = 0; k < n; k++) {
            const dag_copy *x = &s->copy[order[k]];
            char proc[16];
            snprintf(proc, sizeof proc, "P%d", x->proc + 1);
            printf("%-12s %-9s %12.10g %12.10g%s\n", g->name[x->task], proc,
                   x->start, x->finish, x->dup ? " duplicate" : "");
        }
        free(order);
    }
    printf("makespan %.10g\n", s->makespan);
    printf("slr %.6g\n", dag_slr(s));
    printf("speedup %.6g\n", dag_speedup(s));
    if (A == &dag_dcpop)
        printf("duplicates %d\n", s->duplicates);
    int rc = 0;
    if (gantt_out) {
        fflush(stdout);
        signal(SIGPIPE, SIG_IGN);       /* a gnuplot that dies early */
        rc = gantt(s, gantt_out);
    }
    dag_schedule_free(s);
    dag_free(g);
    return rc;
}
