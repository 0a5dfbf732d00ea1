/* tabulate.c: bin/tabulate, Xu & Chronopoulos Tables 1 and 2 from run records.
 *
 *   tabulate --table 1|2 --dir DIR --out PREFIX [--costs COSTS.csv]
 *
 * DIR holds one folder per scenario (dedicated, nondedicated), each with the
 * run records of the repetitions, SCHEME-REP.csv (bin/coordinator --record,
 * read by record_read), and a file 'info' describing the scenario:
 *     seq SECONDS            the sequential time of the image on one core
 *     host NAME CORES Q      a host, its CPU share in cores, its run-queue
 *                            length with the worker running (1 + loaders)
 *     delivered NAME CORES   (optional) what the host really delivered in
 *                            the scenario's runs, in cores (scripts/delivered)
 * Writes PREFIX.md (the tables, the paper's numbers beside ours, a view
 * normalised by the dedicated DTSS finish time, the ideal finish time, and
 * the shape checks with whether each held), PREFIX.csv (the same numbers)
 * and PREFIX-runs.csv (every run, with its ratio to the ideal).
 *
 * With --costs (bin/mandel --costs of the same image), PREFIX.md also says
 * what the last chunk to finish held in each case: its share of the rows and
 * of the image's work, and the A_i and time of the worker that computed it.
 *
 * Mean and standard deviation over the repetitions are GSL's
 * (gsl_stats_mean, gsl_stats_sd: the sample standard deviation, n - 1).
 * A run's Imbalance is max - min of its W_i (record_imbalance). The ideal
 * finish time is the total work over the total available speed:
 * seq / sum over hosts of CORES / Q; with 'delivered' lines also
 * seq / sum over hosts of their delivered CORES (the ideal of the speeds
 * the hosts really gave, issue 15).
 *
 * Everything is read and checked first (errors name FILE:LINE, exit 1;
 * usage errors exit 2), then each output file is written by its own step.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "sched/lines.h"
#include "sched/parse.h"
#include "sched/record.h"
#include "sched/sched.h"

#define MAXW 8
#define MAXREP 64
#define MAXROWS 10000000        /* of a costs file */

/* The paper's numbers (seconds): W1..W4, Finish Time, Imbalance. */
typedef struct paper_row { const char *scheme, *scenario; double v[6]; } paper_row;

static const paper_row table1[] = {       /* Xu & Chronopoulos, Table 1 */
    {"tss", "dedicated", {27, 28, 27, 26, 29, 2}},
    {"tss", "nondedicated", {64, 47, 47, 45, 65, 19}},
    {"dtss", "dedicated", {27, 27, 28, 26, 28, 2}},
    {"dtss", "nondedicated", {52, 49, 51, 51, 53, 3}},
};
static const paper_row table2[] = {       /* Xu & Chronopoulos, Table 2 */
    {"tree", "dedicated", {11, 11, 11, 11, 12, 0}},
    {"tree", "nondedicated", {12, 12, 11, 86, 86, 75}},
    {"dtss", "dedicated", {15, 15, 15, 15, 16, 0}},
    {"dtss", "nondedicated", {30, 30, 30, 30, 31, 0}},
};

typedef struct runrec {         /* what the tables take from one run record */
    int nw;
    char host[MAXW][256];       /* as rec_worker's */
    double W[MAXW];             /* NAN: the worker did no chunk */
    double finish, imbalance;
    int replans, sample;
    long iters;
    char file[1024];
    /* the chunk that finished last */
    long crit_start, crit_size;
    double crit_acp, crit_secs, crit_end;
} runrec;

typedef struct cell {           /* one scheme in one scenario */
    const paper_row *paper;
    runrec run[MAXREP];
    int n;
    double ideal, ideal_dlv;    /* promised speeds; delivered (NAN: not given) */
    char hosts[MAXW][256];
    int nw;
    double mean[MAXW + 2], sd[MAXW + 2];    /* W_1..W_nw, finish, imbalance */
} cell;

typedef struct tab {            /* the table: everything the writers need */
    int table;                  /* 1 or 2 */
    const char *dir, *out, *costs_path;
    cell cells[4];              /* other/dtss x dedicated/nondedicated, as the paper's rows */
    int nw;
    const char *other;          /* "TSS" or "Tree" */
    double ref, pref;           /* the dedicated DTSS finish: ours, the paper's */
    double *cost;               /* --costs: cost[row], ncost rows; else NULL */
    int ncost;
} tab;

__attribute__((format(printf, 1, 2), noreturn))
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "tabulate: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    exit(1);
}

/* ---- reading ------------------------------------------------------------------ */

/* Reads the run record at path into r (record_read; dies with its
 * "PATH:LINE: ..." message). The chunk that finished last is the done chunk
 * with the latest worker finish time (the later in the file on a tie). */
static void read_run(const char *path, runrec *r)
{
    record rec;
    char msg[1200];
    if (record_read(&rec, path, msg, sizeof msg) != 0)
        die("%s", msg);
    if (rec.nw > MAXW)
        die("%s: %d workers, at most %d", path, rec.nw, MAXW);
    memset(r, 0, sizeof *r);
    snprintf(r->file, sizeof r->file, "%s", path);
    r->nw = rec.nw;
    for (int w = 0; w < rec.nw; w++) {
        snprintf(r->host[w], sizeof r->host[w], "%s", rec_str(rec.w[w].host));
        r->W[w] = rec.w[w].chunks ? rec.w[w].finish : NAN;
    }
    r->finish = rec.finish;
    r->imbalance = record_imbalance(&rec);
    r->replans = rec.replans;
    r->iters = rec.iters;
    r->sample = rec.sample;
    for (long i = 0; i < rec.nchunks; i++) {
        const rec_chunk *c = &rec.chunks[i];
        if (!c->done || c->finished < r->crit_end)
            continue;
        r->crit_end = c->finished;
        r->crit_start = c->start;
        r->crit_size = c->size;
        r->crit_acp = c->acp;
        r->crit_secs = c->finished - c->started;
    }
    record_free(&rec);
}

/* Reads DIR/scenario/info: the ideal finish time of the promised speeds,
 * and in *dlv that of the delivered ones (NAN without 'delivered' lines). */
static double read_ideal(const char *dir, const char *scenario, double *dlv)
{
    char path[1024], msg[1200];
    snprintf(path, sizeof path, "%s/%s/info", dir, scenario);
    lines in;
    if (lines_open(&in, path, msg, sizeof msg) != 0)
        die("%s", msg);
    double seq = NAN, speed = 0, given = 0;
    int ndlv = 0;
    char *line, *f[5];
    while ((line = lines_next(&in))) {
        if (lines_blank(line))
            continue;
        int n = lines_split(line, " \t", f, 5);
        double cores, Q;
        if (n == 2 && strcmp(f[0], "seq") == 0) {
            if (parse_double(f[1], &seq) != 0 || !(seq > 0))
                die("%s:%ld: seq '%s' must be seconds > 0", path, in.lineno, f[1]);
        } else if (n == 4 && strcmp(f[0], "host") == 0) {
            if (parse_double(f[2], &cores) != 0 || !(cores > 0))
                die("%s:%ld: host %s: CORES '%s' must be a number > 0", path,
                    in.lineno, f[1], f[2]);
            if (parse_double(f[3], &Q) != 0 || !(Q >= 1))
                die("%s:%ld: host %s: Q '%s' must be a run-queue length >= 1", path,
                    in.lineno, f[1], f[3]);
            speed += cores / Q;
        } else if (n == 3 && strcmp(f[0], "delivered") == 0) {
            if (parse_double(f[2], &cores) != 0 || !(cores > 0))
                die("%s:%ld: delivered %s: CORES '%s' must be a number > 0", path,
                    in.lineno, f[1], f[2]);
            given += cores;
            ndlv++;
        } else
            die("%s:%ld: '%.40s': expected 'seq SECONDS', 'host NAME CORES Q' or "
                "'delivered NAME CORES'", path, in.lineno, f[0]);
    }
    if (lines_error(&in))
        die("%s", in.msg);
    lines_close(&in);
    if (isnan(seq) || !(speed > 0))
        die("%s: needs a 'seq SECONDS' line and 'host NAME CORES Q' lines", path);
    *dlv = ndlv ? seq / given : NAN;
    return seq / speed;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Loads DIR/scenario/scheme-*.csv (in name order) into c, with the means,
 * standard deviations and the scenario's ideal time. */
static void load_cell(cell *c, const char *dir, const paper_row *p)
{
    char path[1024];
    c->paper = p;
    c->n = 0;
    snprintf(path, sizeof path, "%s/%s", dir, p->scenario);
    DIR *d = opendir(path);
    if (!d)
        die("%s: %s", path, strerror(errno));
    char *names[MAXREP];
    int nn = 0;
    size_t plen = strlen(p->scheme);
    struct dirent *e;
    while ((e = readdir(d)) && nn < MAXREP) {
        size_t l = strlen(e->d_name);
        if (strncmp(e->d_name, p->scheme, plen) == 0 && e->d_name[plen] == '-' &&
            l > 4 && strcmp(e->d_name + l - 4, ".csv") == 0 &&
            !(names[nn++] = strdup(e->d_name)))
            die("out of memory");
    }
    closedir(d);
    qsort(names, (size_t)nn, sizeof *names, by_name);
    for (int i = 0; i < nn; i++) {
        snprintf(path, sizeof path, "%s/%s/%s", dir, p->scenario, names[i]);
        read_run(path, &c->run[c->n++]);
        free(names[i]);
    }
    if (c->n == 0)
        die("no run records %s/%s/%s-*.csv", dir, p->scenario, p->scheme);
    c->nw = c->run[0].nw;
    for (int w = 0; w < c->nw; w++)
        memcpy(c->hosts[w], c->run[0].host[w], sizeof c->hosts[w]);  /* both [256] */
    c->ideal = read_ideal(dir, p->scenario, &c->ideal_dlv);
    double x[MAXREP];
    for (int k = 0; k < c->nw + 2; k++) {
        int m = 0;
        for (int i = 0; i < c->n; i++) {
            double v = k < c->nw ? c->run[i].W[k]
                     : k == c->nw ? c->run[i].finish : c->run[i].imbalance;
            if (!isnan(v))
                x[m++] = v;
        }
        c->mean[k] = m ? gsl_stats_mean(x, 1, (size_t)m) : NAN;
        c->sd[k] = m > 1 ? gsl_stats_sd(x, 1, (size_t)m) : 0;
    }
}

/* Row costs from bin/mandel --costs (a header naming 'row' and 'cost', then
 * a line per row): cost[row], *n rows. The caller frees it. */
static double *read_costs(const char *path, int *n)
{
    char msg[1200];
    lines in;
    if (lines_open(&in, path, msg, sizeof msg) != 0)
        die("%s", msg);
    int cap = 1024, ncols = 0, col_row = -1, col_cost = -1;
    double *cost = calloc((size_t)cap, sizeof *cost);
    char *line, *f[16];
    *n = 0;
    while (cost && (line = lines_next(&in))) {
        int nf = lines_split(line, ",", f, 16);
        if (in.lineno == 1) {
            for (int j = 0; j < nf; j++) {
                if (strcmp(f[j], "row") == 0) col_row = j;
                if (strcmp(f[j], "cost") == 0) col_cost = j;
            }
            if (col_row < 0 || col_cost < 0)
                die("%s:1: no 'row' and 'cost' columns (is it bin/mandel --costs "
                    "output?)", path);
            ncols = nf;
            continue;
        }
        if (nf != ncols)
            die("%s:%ld: %d fields, the header has %d", path, in.lineno, nf, ncols);
        long row;
        double c;
        if (parse_long(f[col_row], &row) != 0 || row < 0 || row >= MAXROWS)
            die("%s:%ld: row '%s' must be an integer in [0, %d)", path, in.lineno,
                f[col_row], MAXROWS);
        if (parse_double(f[col_cost], &c) != 0 || c < 0)
            die("%s:%ld: cost '%s' must be a number >= 0", path, in.lineno,
                f[col_cost]);
        while (row >= cap) {
            double *more = realloc(cost, sizeof *cost * (size_t)cap * 2);
            if (!more)
                die("out of memory");
            cost = more;
            memset(cost + cap, 0, sizeof *cost * (size_t)cap);
            cap *= 2;
        }
        cost[row] = c;
        if (row + 1 > *n)
            *n = (int)row + 1;
    }
    if (!cost)
        die("out of memory");
    if (lines_error(&in))
        die("%s", in.msg);
    lines_close(&in);
    if (*n == 0)
        die("%s: no row costs (is it bin/mandel --costs output?)", path);
    return cost;
}

/* Reads every run record, info file and the costs into t, and checks that
 * they fit together. */
static void load(tab *t)
{
    const paper_row *rows = t->table == 1 ? table1 : table2;
    for (int i = 0; i < 4; i++)
        load_cell(&t->cells[i], t->dir, &rows[i]);
    t->other = t->table == 1 ? "TSS" : "Tree";
    t->nw = t->cells[0].nw;
    for (int i = 1; i < 4; i++)
        if (t->cells[i].nw != t->nw)
            die("%s/%s has %d workers, %s/%s %d: the cases must use the same hosts",
                rows[i].scenario, rows[i].scheme, t->cells[i].nw, rows[0].scenario,
                rows[0].scheme, t->nw);
    const cell *ded_dtss = &t->cells[2];
    t->ref = ded_dtss->mean[ded_dtss->nw];
    t->pref = rows[2].v[4];
    if (!t->costs_path)
        return;
    t->cost = read_costs(t->costs_path, &t->ncost);
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < t->cells[i].n; k++) {
            const runrec *r = &t->cells[i].run[k];
            if (r->iters != t->ncost)
                die("%s: %ld rows, the costs %d: not the same image", r->file,
                    r->iters, t->ncost);
        }
}

/* ---- writing ------------------------------------------------------------------ */

static FILE *open_out(const tab *t, const char *suffix, char *path, size_t len)
{
    snprintf(path, len, "%s%s", t->out, suffix);
    FILE *f = fopen(path, "w");
    if (!f)
        die("%s: %s", path, strerror(errno));
    return f;
}

static void close_out(FILE *f, const char *path)
{
    int bad = ferror(f);
    if (fclose(f) != 0 || bad)
        die("writing %s: %s", path, strerror(errno ? errno : EIO));
}

static const char *scenario_label(const char *s)
{
    return strcmp(s, "dedicated") == 0 ? "Dedicated" : "Not dedicated";
}

static const char *scheme_label(const tab *t, const cell *c)
{
    return strcmp(c->paper->scheme, "dtss") == 0 ? "DTSS" : t->other;
}

/* A mean, with its standard deviation when there is one (n > 1 runs). */
static void md_cell(FILE *f, double m, double sd, int n)
{
    if (isnan(m))
        fprintf(f, " – |");
    else if (n > 1)
        fprintf(f, " %.2f ± %.2f |", m, sd);
    else
        fprintf(f, " %.2f |", m);
}

/* PREFIX.md, first part: the table itself, the paper's numbers beside. */
static void md_table(FILE *md, const tab *t)
{
    int nw = t->nw;
    fprintf(md, "# Table %d: DTSS and %s (seconds)\n\n", t->table, t->other);
    if (t->cells[0].n > 1)
        fprintf(md, "Mean ± standard deviation over %d runs each; ", t->cells[0].n);
    else
        fprintf(md, "One run each; ");
    fprintf(md, "W_i = worker i's time until its last chunk was done, Finish Time = all "
            "rows in, Imbalance = max − min of the W_i. Workers:");
    for (int w = 0; w < nw; w++)
        fprintf(md, " W%d = %s%s", w + 1, t->cells[0].hosts[w], w + 1 < nw ? "," : ".");
    fprintf(md, "\n\n| scheme | case |");
    for (int w = 0; w < nw; w++)
        fprintf(md, " W%d |", w + 1);
    fprintf(md, " Finish Time | Imbalance | paper: W1 W2 W3 W4 / Finish / Imbalance |\n|---|---|");
    for (int w = 0; w < nw + 3; w++)
        fprintf(md, "---|");
    fprintf(md, "\n");
    for (int i = 0; i < 4; i++) {
        const cell *c = &t->cells[i];
        const double *v = c->paper->v;
        fprintf(md, "| %s | %s |", scheme_label(t, c), scenario_label(c->paper->scenario));
        for (int k = 0; k < nw + 2; k++)
            md_cell(md, c->mean[k], c->sd[k], c->n);
        fprintf(md, " %g %g %g %g / %g / %g |\n", v[0], v[1], v[2], v[3], v[4], v[5]);
    }
}

/* PREFIX.md: the view normalised by the dedicated DTSS finish, and the ideal. */
static void md_normalised(FILE *md, const tab *t)
{
    fprintf(md, "\n## Normalised: each time divided by the dedicated DTSS finish time\n\n"
            "Ours divided by our dedicated DTSS finish (%.2f s), the paper's by its "
            "own (%g s): our seconds are not a 1990s workstation's.\n\n"
            "| scheme | case | Finish (ours) | Finish (paper) | Imbalance (ours) | "
            "Imbalance (paper) | ideal finish | ours / ideal | ideal, delivered speeds | "
            "ours / that |\n"
            "|---|---|---|---|---|---|---|---|---|---|\n", t->ref, t->pref);
    for (int i = 0; i < 4; i++) {
        const cell *c = &t->cells[i];
        double fin = c->mean[c->nw], imb = c->mean[c->nw + 1];
        fprintf(md, "| %s | %s | %.2f | %.2f | %.3f | %.3f | %.2f s | %.2f |",
                scheme_label(t, c), scenario_label(c->paper->scenario), fin / t->ref,
                c->paper->v[4] / t->pref, imb / t->ref, c->paper->v[5] / t->pref,
                c->ideal, fin / c->ideal);
        if (isnan(c->ideal_dlv))
            fprintf(md, " – | – |\n");
        else
            fprintf(md, " %.2f s | %.2f |\n", c->ideal_dlv, fin / c->ideal_dlv);
    }
    fprintf(md, "\nIdeal finish time = sequential time of the image on one core / "
            "total available speed (sum over hosts of CPU share / run-queue length), "
            "from each scenario's `info` file; with the delivered speeds: over the sum of "
            "what each host really computed a second in the scenario's runs, every scheme's "
            "(the cost of its finished chunks over the time it spent computing them, "
            "`scripts/delivered`; – when the `info` file has none).\n");
}

/* The last chunk's share of the image's work. */
static double crit_work(const runrec *r, const double *cost, int n)
{
    double total = 0, part = 0;
    for (int i = 0; i < n; i++)
        total += cost[i];
    for (long k = r->crit_start; k < r->crit_start + r->crit_size; k++) {
        long row = sched_sample(k, n, r->sample);
        if (row >= 0)
            part += cost[row];
    }
    return total > 0 ? part / total : NAN;
}

/* PREFIX.md, with --costs: what the chunk that finished last held. */
static void md_last_chunk(FILE *md, const tab *t)
{
    const char *base = strrchr(t->costs_path, '/');
    fprintf(md, "\n## The last chunk to finish\n\n"
            "Mean over the runs of the chunk that finished last: its share of the "
            "rows, its share of the image's work (row costs from %s), the A_i it "
            "was sized with and how long its worker computed it.\n\n"
            "| scheme | case | rows | work | A_i | compute time |\n"
            "|---|---|---|---|---|---|\n", base ? base + 1 : t->costs_path);
    int n = t->ncost;
    for (int i = 0; i < 4; i++) {
        const cell *c = &t->cells[i];
        double rshare = 0, work = 0, acp = 0, secs = 0;
        for (int k = 0; k < c->n; k++) {
            rshare += (double)c->run[k].crit_size / n;
            work += crit_work(&c->run[k], t->cost, n);
            acp += c->run[k].crit_acp;
            secs += c->run[k].crit_secs;
        }
        char a[32] = "–";                  /* Tree sizes by no A_i */
        if (strcmp(c->paper->scheme, "tree") != 0)
            snprintf(a, sizeof a, "%.2f", acp / c->n);
        fprintf(md, "| %s | %s | %.1f%% | %.1f%% | %s | %.2f s |\n", scheme_label(t, c),
                scenario_label(c->paper->scenario), 100 * rshare / c->n,
                100 * work / c->n, a, secs / c->n);
    }
}

/* PREFIX.md, last: the expected shapes (the issue's), whether each held. */
static void md_shapes(FILE *md, const tab *t)
{
    const cell *ded_other = &t->cells[0], *nd_other = &t->cells[1];
    const cell *ded_dtss = &t->cells[2], *nd_dtss = &t->cells[3];
    fprintf(md, "\n## Expected shape\n\n");
    double f_do = ded_other->mean[ded_other->nw], f_dd = ded_dtss->mean[ded_dtss->nw];
    double f_no = nd_other->mean[nd_other->nw], f_nd = nd_dtss->mean[nd_dtss->nw];
    double i_no = nd_other->mean[nd_other->nw + 1], i_nd = nd_dtss->mean[nd_dtss->nw + 1];
    int all = 1;
#define SHAPE(cond, ...) do { int held_ = (cond); all &= held_;                  \
        fprintf(md, "- %s: ", held_ ? "**held**" : "**did not hold**");         \
        fprintf(md, __VA_ARGS__); fprintf(md, "\n"); } while (0)
    if (t->table == 1) {
        SHAPE(fabs(f_do - f_dd) <= 0.10 * fmin(f_do, f_dd),
              "dedicated, DTSS and TSS finish within 10%% of each other "
              "(TSS %.2f s, DTSS %.2f s, %.1f%% apart)", f_do, f_dd,
              100 * fabs(f_do - f_dd) / fmin(f_do, f_dd));
        SHAPE(i_no >= 3 * i_nd, "non-dedicated, TSS's imbalance is at least 3× "
              "DTSS's (TSS %.2f s, DTSS %.2f s, %.1f×)", i_no, i_nd,
              i_nd > 0 ? i_no / i_nd : INFINITY);
        SHAPE(i_nd <= 0.10 * f_nd, "non-dedicated, DTSS's imbalance is at most 10%% "
              "of its finish time (%.2f s of %.2f s, %.1f%%)", i_nd, f_nd,
              100 * i_nd / f_nd);
    } else {
        SHAPE(f_do <= f_dd, "dedicated, Tree-Scheduling is at least as fast as DTSS "
              "(Tree %.2f s, DTSS %.2f s)", f_do, f_dd);
        SHAPE(f_no >= 2 * f_nd, "non-dedicated, Tree's finish time is at least 2× "
              "DTSS's (Tree %.2f s, DTSS %.2f s, %.2f×)", f_no, f_nd, f_no / f_nd);
        /* The paper's Table 2 gives DTSS no imbalance in either case. */
        double i_dd = ded_dtss->mean[ded_dtss->nw + 1];
        SHAPE(i_dd <= 0.10 * f_dd, "dedicated, DTSS's imbalance is at most 10%% of its "
              "finish time, as the paper's 0 s (%.2f s of %.2f s, %.1f%%)", i_dd, f_dd,
              100 * i_dd / f_dd);
        SHAPE(i_nd <= 0.10 * f_nd, "non-dedicated, DTSS's imbalance is at most 10%% "
              "of its finish time, as the paper's 0 s (%.2f s of %.2f s, %.1f%%)", i_nd,
              f_nd, 100 * i_nd / f_nd);
    }
#undef SHAPE
    fprintf(md, "\n%s\n", all ? "Every expected shape held in this run."
                              : "Not every expected shape held in this run (see above).");
}

/* PREFIX.md: the tables, the normalised view, the last chunk, the shapes. */
static void write_md(const tab *t)
{
    char path[1100];
    FILE *md = open_out(t, ".md", path, sizeof path);
    md_table(md, t);
    md_normalised(md, t);
    if (t->cost)
        md_last_chunk(md, t);
    md_shapes(md, t);
    close_out(md, path);
}

/* PREFIX.csv: per case, our means and sds and the paper's numbers. */
static void write_csv(const tab *t)
{
    char path[1100];
    FILE *csv = open_out(t, ".csv", path, sizeof path);
    fprintf(csv, "table,scheme,case,source,runs");
    for (int w = 0; w < t->nw; w++)
        fprintf(csv, ",W%d,W%d_sd", w + 1, w + 1);
    fprintf(csv, ",finish,finish_sd,imbalance,imbalance_sd,finish_norm,ideal,"
                 "finish_over_ideal,ideal_delivered,finish_over_ideal_delivered\n");
    for (int i = 0; i < 4; i++) {
        const cell *c = &t->cells[i];
        const char *s = c->paper->scheme, *scen = c->paper->scenario;
        fprintf(csv, "%d,%s,%s,ours,%d", t->table, s, scen, c->n);
        for (int k = 0; k < c->nw + 2; k++)
            fprintf(csv, ",%.4f,%.4f", c->mean[k], c->sd[k]);
        fprintf(csv, ",%.4f,%.4f,%.4f", c->mean[c->nw] / t->ref, c->ideal,
                c->mean[c->nw] / c->ideal);
        if (isnan(c->ideal_dlv))
            fprintf(csv, ",,\n");
        else
            fprintf(csv, ",%.4f,%.4f\n", c->ideal_dlv, c->mean[c->nw] / c->ideal_dlv);
        fprintf(csv, "%d,%s,%s,paper,", t->table, s, scen);
        for (int k = 0; k < 6; k++)
            fprintf(csv, ",%g,", c->paper->v[k]);
        fprintf(csv, ",%.4f,,,,\n", c->paper->v[4] / t->pref);
    }
    close_out(csv, path);
}

/* PREFIX-runs.csv: every run, with its ratio to the ideal. */
static void write_runs(const tab *t)
{
    char path[1100];
    FILE *runs = open_out(t, "-runs.csv", path, sizeof path);
    fprintf(runs, "table,scheme,case,record");
    for (int w = 0; w < t->nw; w++)
        fprintf(runs, ",W%d", w + 1);
    fprintf(runs, ",finish,imbalance,replans,ideal,finish_over_ideal\n");
    for (int i = 0; i < 4; i++) {
        const cell *c = &t->cells[i];
        for (int k = 0; k < c->n; k++) {
            const runrec *r = &c->run[k];
            fprintf(runs, "%d,%s,%s,%s", t->table, c->paper->scheme, c->paper->scenario,
                    r->file);
            for (int w = 0; w < r->nw; w++)
                fprintf(runs, isnan(r->W[w]) ? "," : ",%.4f", r->W[w]);
            fprintf(runs, ",%.4f,%.4f,%d,%.4f,%.4f\n", r->finish, r->imbalance,
                    r->replans, c->ideal, r->finish / c->ideal);
        }
    }
    close_out(runs, path);
}

/* ---- the program ---------------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
"usage: tabulate --table 1|2 --dir DIR --out PREFIX [--costs FILE]\n"
"\n"
"Xu & Chronopoulos Table 1 (TSS, DTSS) or 2 (Tree, DTSS) from the run records\n"
"DIR/SCENARIO/SCHEME-REP.csv (SCENARIO: dedicated, nondedicated), each\n"
"scenario described by DIR/SCENARIO/info ('seq SECONDS', 'host NAME CORES Q',\n"
"optionally 'delivered NAME CORES': the ideal of the speeds really delivered).\n"
"Writes PREFIX.md (the tables beside the paper's, normalised, the ideal finish\n"
"times, the expected shapes), PREFIX.csv and PREFIX-runs.csv.\n"
"  -t, --table 1|2     which table\n"
"  -d, --dir DIR       the folder of the scenarios\n"
"  -o, --out PREFIX    where the files go\n"
"  -c, --costs FILE    bin/mandel --costs of the same image: what the last\n"
"                      chunk to finish held\n"
"  -h, --help          this help\n"
"Exit status: 0; 1 for bad or missing input (the message names FILE:LINE);\n"
"2 for bad usage.\n");
}

#define fail(...) parse_fail("tabulate", __VA_ARGS__)

/* Sets t from the command line. Returns -1 to go on, else the exit status. */
static int parse_args(tab *t, int argc, char **argv)
{
    static const struct option opts[] = {
        {"table", required_argument, NULL, 't'},
        {"dir", required_argument, NULL, 'd'},
        {"out", required_argument, NULL, 'o'},
        {"costs", required_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},
        {0},
    };
    const char *table = NULL;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":t:d:o:c:h", opts, NULL)) != -1) {
        switch (c) {
        case 't': table = optarg; break;
        case 'd': t->dir = optarg; break;
        case 'o': t->out = optarg; break;
        case 'c': t->costs_path = optarg; break;
        case 'h': usage(stdout); return 0;
        default: return parse_getopt_error("tabulate", c, argv);
        }
    }
    if (optind < argc)
        return fail("unexpected argument '%s' (try --help)", argv[optind]);
    if (!table || !t->dir || !t->out)
        return fail("need --table 1|2, --dir DIR and --out PREFIX (try --help)");
    if (parse_int(table, &t->table) != 0 || (t->table != 1 && t->table != 2))
        return fail("--table '%s': the paper's tables are 1 and 2", table);
    return -1;
}

int main(int argc, char **argv)
{
    static tab t;
    parse_gsl_errors("tabulate", 1);
    int rc = parse_args(&t, argc, argv);
    if (rc >= 0)
        return rc;
    load(&t);
    write_md(&t);
    write_csv(&t);
    write_runs(&t);
    free(t.cost);
    return 0;
}
