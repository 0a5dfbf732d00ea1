/* dagsched.c: bin/dagsched, schedule a task graph file with HEFT, CPOP or
 * DCPOP; print the schedule, makespan, SLR and speedup; draw it. */
#include <errno.h>
#include <getopt.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "dag/dag.h"
#include "sched/util/closeout.h"
#include "sched/util/outfile.h"
#include "sched/util/parse.h"
#include "sched/util/progress.h"
#include "sched/util/quote.h"

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
"  -q, --quiet         no progress (shown on a terminal only, on stderr: what\n"
"                      is being done, and for how long)\n"
"  -h, --help          this help\n"
"Ctrl-C stops it and leaves no picture half drawn (exit status 130).\n"
"\n"
"exit status: 0 done; 1 out of memory, or an output (standard output, the\n"
"--gantt picture) could not be written (said; no part of a file is left);\n"
"2 bad input: bad usage, or a missing or bad FILE (the message names it)\n");
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

/* The Gantt chart's gnuplot script: fixed text. Everything that comes from
 * the input or the command line arrives as a call argument (gnuplot -c
 * SCRIPT ARG1 ...: strings, never code): ARG1 the output, ARG2 the data file
 * (name proc start finish dup), ARG3 the title, ARG4 the processors, ARG5 1
 * to label the boxes. */
static const char gantt_script[] =
    "q = int(ARG4)\n"
    "set terminal pngcairo size 1000, 160 + 50 * q font 'sans,10'\n"
    "set output ARG1\n"
    "set title ARG3 noenhanced\n"
    "set xlabel 'time'\n"
    "set ylabel 'processor'\n"
    "set yrange [0.4 : q + 0.6]\n"
    "set ytics 1\n"
    "set xrange [0:*]\n"
    "set grid xtics\n"
    "unset key\n"
    "set datafile separator '\\t'\n"
    "set style fill solid 0.8 border lc rgb 'black'\n"
    "if (ARG5 eq '1') {\n"
    "    plot ARG2 using (($3 + $4) / 2) : 2 : (($4 - $3) / 2) : (0.35) : "
    "($5 > 0 ? 0xe08030 : 0x4a7ab5) with boxxyerror lc rgb variable, \\\n"
    "         ARG2 using (($3 + $4) / 2) : 2 : 1 with labels noenhanced font 'sans,8' tc rgb 'white'\n"
    "} else {\n"
    "    plot ARG2 using (($3 + $4) / 2) : 2 : (($4 - $3) / 2) : (0.35) : "
    "($5 > 0 ? 0xe08030 : 0x4a7ab5) with boxxyerror lc rgb variable\n"
    "}\n";

/* Runs gnuplot -c with argv (no shell); returns its exit status, 127 when it
 * cannot be started, -1 on a signal. */
static int run_gnuplot(char *const argv[])
{
    pid_t pid;
    extern char **environ;
    if (posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ) != 0)
        return 127;
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR)
            return -1;
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Copies the PNG gnuplot wrote at png to out, whole or not at all
 * (outfile.h). gnuplot exits 0 even when its output could not be written (a
 * full disk): a PNG that does not end with its IEND chunk is refused.
 * Returns 0, or 1 after printing why. */
static int copy_png(const char *png, const char *out)
{
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
    static const unsigned char iend[12] = {0, 0, 0, 0, 'I', 'E', 'N', 'D',
                                           0xae, 0x42, 0x60, 0x82};
    FILE *in = fopen(png, "rb");
    unsigned char *buf = NULL;
    long n = -1;
    if (in && fseek(in, 0, SEEK_END) == 0 && (n = ftell(in)) >= 20 && n < (1L << 30) &&
        fseek(in, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n)) &&
        fread(buf, 1, (size_t)n, in) != (size_t)n)
        n = -1;
    if (in)
        fclose(in);
    if (!buf || n < 20 || memcmp(buf, sig, 8) != 0 || memcmp(buf + n - 12, iend, 12) != 0) {
        fprintf(stderr, "dagsched: gnuplot wrote no whole PNG (a full disk in %s?)\n",
                quote(png));
        free(buf);
        return 1;
    }
    outfile o;
    const char *call;
    char msg[300];
    int rc = 0;
    if (outfile_open(&o, out, "wb") != 0) {
        fprintf(stderr, "dagsched: %s\n", outfile_msg(msg, sizeof msg, out, NULL, errno));
        rc = 1;
    } else {
        fwrite(buf, 1, (size_t)n, o.f);         /* a write error: outfile_close says */
        if (outfile_close(&o, &call) != 0) {
            fprintf(stderr, "dagsched: %s\n",
                    outfile_msg(msg, sizeof msg, out, call, errno));
            rc = 1;
        }
    }
    free(buf);
    return rc;
}

/* Draws s into the PNG 'out' with gnuplot: a lane per processor, a box per
 * copy, duplicates in orange. The data, the script and the picture go to
 * files in a private temporary folder, removed after; the picture is then
 * copied to out whole or not at all. Returns 0, or 1 after printing why
 * not; out is as it was on failure. */
static int gantt(const dag_schedule *s, const char *out)
{
    const dag *g = s->g;
    const char *td = getenv("TMPDIR");
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/dagsched.XXXXXX", td && *td ? td : "/tmp");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "dagsched: cannot make a temporary folder in %s: %s\n",
                quote(td && *td ? td : "/tmp"), strerror(errno));
        return 1;
    }
    char data[4200], script[4200], png[4200];
    snprintf(data, sizeof data, "%s/copies.tsv", dir);
    snprintf(script, sizeof script, "%s/gantt.gp", dir);
    snprintf(png, sizeof png, "%s/gantt.png", dir);
    /* Ctrl-C: none of these left behind (the picture is copied to out
     * whole or not at all). */
    progress_remove_on_interrupt(dir);
    progress_remove_on_interrupt(data);
    progress_remove_on_interrupt(script);
    progress_remove_on_interrupt(png);
    int rc = 1;
    FILE *f = fopen(data, "w");
    if (!f) {
        fprintf(stderr, "dagsched: cannot write %s: %s\n", quote(data), strerror(errno));
        goto out;
    }
    for (int j = 0; j < s->ncopies; j++) {
        const dag_copy *x = &s->copy[j];
        if (x->task >= g->n_user)
            continue;
        /* The name stays one field of one line of the data file (the label
         * drawn): a tab, quote, backslash or other control character
         * becomes '_'. It is data either way, never gnuplot code. */
        fputc('"', f);
        for (const char *c = g->name[x->task]; *c; c++) {
            unsigned char u = (unsigned char)*c;
            fputc(u == '"' || u == '\\' || u < 0x20 || u == 0x7f ? '_' : u, f);
        }
        fprintf(f, "\"\t%d\t%.10g\t%.10g\t%d\n", x->proc + 1, x->start, x->finish, x->dup);
    }
    int bad = ferror(f);
    if (fclose(f) != 0 || bad) {
        fprintf(stderr, "dagsched: cannot write %s: %s\n", quote(data), strerror(errno));
        goto out;
    }
    f = fopen(script, "w");
    if (!f || fputs(gantt_script, f) == EOF || fclose(f) != 0) {
        fprintf(stderr, "dagsched: cannot write %s\n", quote(script));
        goto out;
    }
    char title[200], procs[16];
    snprintf(title, sizeof title, "%s: makespan %.6g, SLR %.4g, speedup %.4g%s",
             s->algo->name, s->makespan, dag_slr(s), dag_speedup(s),
             s->duplicates ? " (orange: duplicates)" : "");
    snprintf(procs, sizeof procs, "%d", g->q);
    char *argv[] = {"gnuplot", "-c", script, png, data, title, procs,
                    g->n <= 200 ? "1" : "0", NULL};
    int st = run_gnuplot(argv);
    if (st == 127)
        fprintf(stderr, "dagsched: gnuplot not found (make deps installs gnuplot-nox)\n");
    else if (st != 0)
        fprintf(stderr, "dagsched: gnuplot failed drawing %s\n", quote(out));
    else
        rc = copy_png(png, out);
out:
    progress_forget(png);
    remove(data);
    remove(script);
    remove(png);
    rmdir(dir);
    progress_forget(script);
    progress_forget(data);
    progress_forget(dir);
    return rc;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"algo", required_argument, NULL, 'a'},
        {"gantt", required_argument, NULL, 'g'},
        {"ranks", no_argument, NULL, 1001},
        {"summary", no_argument, NULL, 1002},
        {"format", required_argument, NULL, 'f'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    const char *algo = "heft", *gantt_out = NULL, *fmt = NULL;
    int ranks = 0, summary = 0, quiet = 0, c;
    closeout_init("dagsched");
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":a:g:f:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'a': algo = optarg; break;
        case 'g': gantt_out = optarg; break;
        case 1001: ranks = 1; break;
        case 1002: summary = 1; break;
        case 'f': fmt = optarg; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default: return parse_getopt_error("dagsched", c, argv);
        }
    }
    if (optind == argc)
        return fail("no task graph FILE given (try --help)");
    if (optind + 1 < argc)
        return fail("unexpected argument '%s' (one FILE only)", quote(argv[optind + 1]));
    int format = DAG_FORMAT_AUTO;
    if (fmt && strcmp(fmt, "text") == 0)
        format = DAG_FORMAT_TEXT;
    else if (fmt && strcmp(fmt, "dot") == 0)
        format = DAG_FORMAT_DOT;
    else if (fmt)
        return fail("--format '%s': expected text or dot", quote(fmt));
    dag_err err;
    const dag_algo *A = dag_algo_find(algo, &err);
    if (!A)
        return fail("%s", err.msg);

    if (gantt_out && strcmp(gantt_out, "-") == 0)
        return fail("--gantt -: the picture goes to a file");
    if (closeout_output("--gantt", gantt_out, 0))        /* before the work */
        return 1;
    const char *path = argv[optind];
    progress_interrupt("dagsched", gantt_out ? "no picture drawn" : "nothing printed");
    progress pr;
    progress_start(&pr, "dagsched", !quiet);
    progress_tick(&pr, "reading %.100s", path);
    dag *g = dag_read_file(path, format, &err);
    if (!g) {
        progress_end(&pr);
        fprintf(stderr, "dagsched: %s\n", err.msg);
        return err.code == DAG_ENOMEM ? 1 : 2;          /* a missing or bad FILE: 2 */
    }
    progress_tick(&pr, "%s on %d tasks, %d edges, %d processors", A->name, g->n_user,
                  g->m_user, g->q);
    dag_schedule *s = dag_schedule_new(A, g, &err);
    if (!s) {
        progress_end(&pr);
        fprintf(stderr, "dagsched: %s: %s\n", A->name, err.msg);
        dag_free(g);
        return err.code == DAG_ENOMEM ? 1 : 2;
    }
    progress_tick(&pr, "checking the schedule of %d tasks", g->n_user);
    int bad = dag_schedule_check(s, &err) != DAG_OK;
    progress_end(&pr);
    /* Never print a wrong schedule: check it first. */
    if (bad) {
        fprintf(stderr, "dagsched: %s produced an invalid schedule (a bug): %s\n",
                A->name, err.msg);
        dag_schedule_free(s);
        dag_free(g);
        return 1;
    }
    if (!summary) {
        printf("# %s: %d tasks, %d edges, %d processors (%s)%s%s\n", A->name,
               g->n_user, g->m_user, g->q, quote(path),
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
        fflush(stdout);                 /* (SIGPIPE ignored: a gnuplot that dies early) */
        rc = gantt(s, gantt_out);
    }
    dag_schedule_free(s);
    dag_free(g);
    return rc;
}
