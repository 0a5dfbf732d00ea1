/* tabulate.c: bin/tabulate, Xu & Chronopoulos Tables 1 and 2 from run records.
 *
 *   tabulate --table 1|2 --out PREFIX --dir DIR [--costs COSTS.csv] [--name NAME]
 *            [--dir DIR [--costs ...] [--name ...]] ...
 *
 * Each --dir is one reading of the paper (e.g. the loop over the image's rows
 * and over its columns: the paper does not say which), with its own costs
 * and name; with more than one, PREFIX.md shows them side by side (and each
 * whole after), and says in how many readings each claim held.
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
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "sched/records/claims.h"
#include "sched/records/record.h"
#include "sched/sched.h"
#include "sched/util/lines.h"
#include "sched/util/closeout.h"
#include "sched/util/outfile.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

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

typedef struct reading {        /* one reading: its runs, its costs */
    const char *dir, *costs_path, *name;    /* name "": the only, unnamed */
    cell cells[4];              /* other/dtss x dedicated/nondedicated, as the paper's rows */
    int nw;
    double ref;                 /* our dedicated DTSS finish */
    double *cost;               /* --costs: cost[row], ncost rows; else NULL */
    int ncost;
} reading;

#define MAXREAD 8

typedef struct tab {            /* the table: everything the writers need */
    int table;                  /* 1 or 2 */
    const char *out;
    const char *other;          /* "TSS" or "Tree" */
    double pref;                /* the paper's dedicated DTSS finish */
    reading rd[MAXREAD];
    int nread;
} tab;

/* Says "tabulate: MESSAGE" and exits with status: die for bad input (2),
 * fatal for a failure (1: memory, an output). */
__attribute__((format(printf, 2, 0), noreturn))
static void vdie(int status, const char *fmt, va_list ap)
{
    fprintf(stderr, "tabulate: ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    exit(status);
}

__attribute__((format(printf, 1, 2), noreturn))
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdie(2, fmt, ap);
}

__attribute__((format(printf, 1, 2), noreturn))
static void fatal(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vdie(1, fmt, ap);
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
        die("%s: %d workers, at most %d", quote(path), rec.nw, MAXW);
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
                die("%s:%ld: seq '%s' must be seconds > 0", quote(path), in.lineno,
                    quote(f[1]));
        } else if (n == 4 && strcmp(f[0], "host") == 0) {
            if (parse_double(f[2], &cores) != 0 || !(cores > 0))
                die("%s:%ld: host %s: CORES '%s' must be a number > 0", quote(path),
                    in.lineno, quote(f[1]), quote(f[2]));
            if (parse_double(f[3], &Q) != 0 || !(Q >= 1))
                die("%s:%ld: host %s: Q '%s' must be a run-queue length >= 1", quote(path),
                    in.lineno, quote(f[1]), quote(f[3]));
            speed += cores / Q;
        } else if (n == 3 && strcmp(f[0], "delivered") == 0) {
            if (parse_double(f[2], &cores) != 0 || !(cores > 0))
                die("%s:%ld: delivered %s: CORES '%s' must be a number > 0", quote(path),
                    in.lineno, quote(f[1]), quote(f[2]));
            given += cores;
            ndlv++;
        } else
            die("%s:%ld: '%s': expected 'seq SECONDS', 'host NAME CORES Q' or "
                "'delivered NAME CORES'", quote(path), in.lineno, quote(n > 0 ? f[0] : ""));
    }
    if (lines_error(&in))
        die("%s", in.msg);
    lines_close(&in);
    if (isnan(seq) || !(speed > 0))
        die("%s: needs a 'seq SECONDS' line and 'host NAME CORES Q' lines", quote(path));
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
        die("%s: %s", quote(path), strerror(errno));
    char *names[MAXREP];
    int nn = 0;
    size_t plen = strlen(p->scheme);
    struct dirent *e;
    while ((e = readdir(d)) && nn < MAXREP) {
        size_t l = strlen(e->d_name);
        if (strncmp(e->d_name, p->scheme, plen) == 0 && e->d_name[plen] == '-' &&
            l > 4 && strcmp(e->d_name + l - 4, ".csv") == 0 &&
            !(names[nn++] = strdup(e->d_name)))
            fatal("out of memory");
    }
    closedir(d);
    qsort(names, (size_t)nn, sizeof *names, by_name);
    for (int i = 0; i < nn; i++) {
        snprintf(path, sizeof path, "%s/%s/%s", dir, p->scenario, names[i]);
        read_run(path, &c->run[c->n++]);
        free(names[i]);
    }
    if (c->n == 0)
        die("no run records %s/%s/%s-*.csv", quote(dir), p->scenario, p->scheme);
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

/* Line costs from bin/mandel --costs (a header naming 'row' -- or 'column',
 * the loop over columns -- and 'cost', then a line per row): cost[row], *n
 * rows (or columns: the loop's iterations either way). The caller frees it. */
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
                if (strcmp(f[j], "row") == 0 || strcmp(f[j], "column") == 0)
                    col_row = j;
                if (strcmp(f[j], "cost") == 0) col_cost = j;
            }
            if (col_row < 0 || col_cost < 0)
                die("%s:1: no 'row' (or 'column') and 'cost' columns (is it bin/mandel --costs "
                    "output?)", quote(path));
            ncols = nf;
            continue;
        }
        if (nf != ncols)
            die("%s:%ld: %d fields, the header has %d", quote(path), in.lineno, nf, ncols);
        long row;
        double c;
        if (parse_long(f[col_row], &row) != 0 || row < 0 || row >= MAXROWS)
            die("%s:%ld: row '%s' must be an integer in [0, %d)", quote(path), in.lineno,
                quote(f[col_row]), MAXROWS);
        if (parse_double(f[col_cost], &c) != 0 || c < 0)
            die("%s:%ld: cost '%s' must be a number >= 0", quote(path), in.lineno,
                quote(f[col_cost]));
        while (row >= cap) {
            double *more = realloc(cost, sizeof *cost * (size_t)cap * 2);
            if (!more)
                fatal("out of memory");
            cost = more;
            memset(cost + cap, 0, sizeof *cost * (size_t)cap);
            cap *= 2;
        }
        cost[row] = c;
        if (row + 1 > *n)
            *n = (int)row + 1;
    }
    if (!cost)
        fatal("out of memory");
    if (lines_error(&in))
        die("%s", in.msg);
    lines_close(&in);
    if (*n == 0)
        die("%s: no row costs (is it bin/mandel --costs output?)", quote(path));
    return cost;
}

/* Reads every run record, info file and the costs into t, and checks that
 * they fit together. */
static void load_reading(tab *t, reading *rd)
{
    const paper_row *rows = t->table == 1 ? table1 : table2;
    for (int i = 0; i < 4; i++)
        load_cell(&rd->cells[i], rd->dir, &rows[i]);
    rd->nw = rd->cells[0].nw;
    for (int i = 1; i < 4; i++)
        if (rd->cells[i].nw != rd->nw)
            die("%s/%s/%s has %d workers, %s/%s %d: the cases must use the same hosts",
                quote(rd->dir), rows[i].scenario, rows[i].scheme, rd->cells[i].nw,
                rows[0].scenario, rows[0].scheme, rd->nw);
    const cell *ded_dtss = &rd->cells[2];
    rd->ref = ded_dtss->mean[ded_dtss->nw];
    if (!rd->costs_path)
        return;
    rd->cost = read_costs(rd->costs_path, &rd->ncost);
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < rd->cells[i].n; k++) {
            const runrec *r = &rd->cells[i].run[k];
            if (r->iters != rd->ncost)
                die("%s: %ld iterations, the costs %s %d: not the same image and loop",
                    quote(r->file), r->iters, quote(rd->costs_path), rd->ncost);
        }
}

static void load(tab *t)
{
    const paper_row *rows = t->table == 1 ? table1 : table2;
    t->other = t->table == 1 ? "TSS" : "Tree";
    t->pref = rows[2].v[4];
    for (int i = 0; i < t->nread; i++) {
        load_reading(t, &t->rd[i]);
        if (t->rd[i].nw != t->rd[0].nw)
            die("%s has %d workers, %s %d: the readings must use the same hosts",
                quote(t->rd[i].dir), t->rd[i].nw, quote(t->rd[0].dir), t->rd[0].nw);
    }
}

/* ---- writing ------------------------------------------------------------------ */

/* The output PREFIX + suffix, written whole or not at all (outfile.h): an
 * error is fatal, and no part of the file is left. */
static FILE *open_out(outfile *o, const tab *t, const char *suffix, char *path, size_t len)
{
    char msg[300];
    snprintf(path, len, "%s%s", t->out, suffix);
    if (outfile_open(o, path, "w") != 0)
        fatal("%s", outfile_msg(msg, sizeof msg, path, NULL, errno));
    return o->f;
}

static void close_out(outfile *o, const char *path)
{
    char msg[300];
    const char *call;
    if (outfile_close(o, &call) != 0)
        fatal("%s", outfile_msg(msg, sizeof msg, path, call, errno));
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
static void md_table(FILE *md, const tab *t, const reading *rd)
{
    int nw = rd->nw;
    if (rd->cells[0].n > 1)
        fprintf(md, "Mean ± standard deviation over %d runs each; ", rd->cells[0].n);
    else
        fprintf(md, "One run each; ");
    fprintf(md, "W_i = worker i's time until its last chunk was done, Finish Time = all "
            "%s in, Imbalance = max − min of the W_i. Workers:",
            strcmp(rd->name, "columns") == 0 ? "columns" : "rows");
    for (int w = 0; w < nw; w++)
        fprintf(md, " W%d = %s%s", w + 1, rd->cells[0].hosts[w], w + 1 < nw ? "," : ".");
    fprintf(md, "\n\n| scheme | case |");
    for (int w = 0; w < nw; w++)
        fprintf(md, " W%d |", w + 1);
    fprintf(md, " Finish Time | Imbalance | paper: W1 W2 W3 W4 / Finish / Imbalance |\n|---|---|");
    for (int w = 0; w < nw + 3; w++)
        fprintf(md, "---|");
    fprintf(md, "\n");
    for (int i = 0; i < 4; i++) {
        const cell *c = &rd->cells[i];
        const double *v = c->paper->v;
        fprintf(md, "| %s | %s |", scheme_label(t, c), scenario_label(c->paper->scenario));
        for (int k = 0; k < nw + 2; k++)
            md_cell(md, c->mean[k], c->sd[k], c->n);
        fprintf(md, " %g %g %g %g / %g / %g |\n", v[0], v[1], v[2], v[3], v[4], v[5]);
    }
}

/* PREFIX.md: the view normalised by the dedicated DTSS finish, and the ideal. */
static void md_normalised(FILE *md, const tab *t, const reading *rd, const char *h)
{
    fprintf(md, "\n%s Normalised: each time divided by the dedicated DTSS finish time\n\n"
            "Ours divided by our dedicated DTSS finish (%.2f s), the paper's by its "
            "own (%g s): our seconds are not a 1990s workstation's.\n\n"
            "| scheme | case | Finish (ours) | Finish (paper) | Imbalance (ours) | "
            "Imbalance (paper) | ideal finish | ours / ideal | ideal, delivered speeds | "
            "ours / that |\n"
            "|---|---|---|---|---|---|---|---|---|---|\n", h, rd->ref, t->pref);
    for (int i = 0; i < 4; i++) {
        const cell *c = &rd->cells[i];
        double fin = c->mean[c->nw], imb = c->mean[c->nw + 1];
        fprintf(md, "| %s | %s | %.2f | %.2f | %.3f | %.3f | %.2f s | %.2f |",
                scheme_label(t, c), scenario_label(c->paper->scenario), fin / rd->ref,
                c->paper->v[4] / t->pref, imb / rd->ref, c->paper->v[5] / t->pref,
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
static void md_last_chunk(FILE *md, const tab *t, const reading *rd, const char *h)
{
    const char *base = strrchr(rd->costs_path, '/');
    const char *what = strcmp(rd->name, "columns") == 0 ? "columns" : "rows";
    fprintf(md, "\n%s The last chunk to finish\n\n"
            "Mean over the runs of the chunk that finished last: its share of the "
            "%s, its share of the image's work (costs from %s), the A_i it "
            "was sized with and how long its worker computed it.\n\n"
            "| scheme | case | %s | work | A_i | compute time |\n"
            "|---|---|---|---|---|---|\n", h, what, base ? base + 1 : rd->costs_path, what);
    int n = rd->ncost;
    for (int i = 0; i < 4; i++) {
        const cell *c = &rd->cells[i];
        double rshare = 0, work = 0, acp = 0, secs = 0;
        for (int k = 0; k < c->n; k++) {
            rshare += (double)c->run[k].crit_size / n;
            work += crit_work(&c->run[k], rd->cost, n);
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

/* The means of a cell as a claim reads them. */
static xu_result result_of(const cell *c)
{
    double replans = 0;
    for (int k = 0; k < c->n; k++)
        replans += c->run[k].replans;
    return (xu_result){c->mean[c->nw], c->mean[c->nw + 1], c->n ? replans / c->n : 0};
}

/* Claim cl on reading rd: 1 held, 0 not; *v its value; the two results. */
static int claim_on(const xu_claim *cl, const reading *rd, double *v, xu_result *o,
                    xu_result *d)
{
    int nd = cl->scase != XU_DEDICATED;
    *o = result_of(&rd->cells[nd]);
    *d = result_of(&rd->cells[2 + nd]);
    return cl->held(o, d, v);
}

/* Does claim cl belong to this table (the mid-run load is not one of its cases)? */
static int table_claim(const tab *t, const xu_claim *cl)
{
    return cl->table == t->table && cl->scase != XU_MIDRUN;
}

/* PREFIX.md, last: the paper's claims on these results
 * (sched/records/claims.c), whether each held. */
static void md_shapes(FILE *md, const tab *t, const reading *rd, const char *h)
{
    fprintf(md, "\n%s Expected shape\n\n", h);
    int all = 1;
    for (const xu_claim *cl = xu_claims; cl->name; cl++) {
        if (!table_claim(t, cl))
            continue;
        double v;
        xu_result o, d;
        int held = claim_on(cl, rd, &v, &o, &d);
        all &= held;
        fprintf(md, "- %s: %s (%s %.2f s, imbalance %.2f s; DTSS %.2f s, imbalance "
                "%.2f s; %s %.3f)\n", held ? "**held**" : "**did not hold**", cl->text,
                t->other, o.finish, o.imbalance, d.finish, d.imbalance, cl->value_text, v);
    }
    fprintf(md, "\n%s\n", all ? "Every expected shape held in this run."
                              : "Not every expected shape held in this run (see above).");
}

/* PREFIX.md with several readings, first: every case's finish / imbalance in
 * each reading side by side, then each claim in how many readings it held. */
static void md_side_by_side(FILE *md, const tab *t)
{
    fprintf(md, "Finish Time / Imbalance (seconds) in each reading of the paper, "
            "mean over the runs (%d a case); the sections below give each reading "
            "whole.\n\n| scheme | case |", t->rd[0].cells[0].n);
    for (int r = 0; r < t->nread; r++)
        fprintf(md, " %s |", t->rd[r].name);
    fprintf(md, " paper |\n|---|---|");
    for (int r = 0; r <= t->nread; r++)
        fprintf(md, "---|");
    fprintf(md, "\n");
    for (int i = 0; i < 4; i++) {
        const cell *c0 = &t->rd[0].cells[i];
        fprintf(md, "| %s | %s |", scheme_label(t, c0), scenario_label(c0->paper->scenario));
        for (int r = 0; r < t->nread; r++) {
            const cell *c = &t->rd[r].cells[i];
            fprintf(md, " %.2f / %.2f |", c->mean[c->nw], c->mean[c->nw + 1]);
        }
        fprintf(md, " %g / %g |\n", c0->paper->v[4], c0->paper->v[5]);
    }
    fprintf(md, "\n## The paper's claims in each reading\n\n");
    for (const xu_claim *cl = xu_claims; cl->name; cl++) {
        if (!table_claim(t, cl))
            continue;
        int held = 0;
        char which[512] = "";
        size_t used = 0;
        for (int r = 0; r < t->nread; r++) {
            double v;
            xu_result o, d;
            int h = claim_on(cl, &t->rd[r], &v, &o, &d);
            held += h;
            int n = snprintf(which + used, sizeof which - used, "%s%s: %s (%.3f)",
                             r ? "; " : "", t->rd[r].name, h ? "held" : "did not hold", v);
            if (n > 0 && (size_t)n < sizeof which - used)
                used += (size_t)n;
        }
        fprintf(md, "- %s: **held in %d of %d readings** (%s; %s)\n", cl->text, held,
                t->nread, which, cl->value_text);
    }
}

/* PREFIX.md: the tables, the normalised view, the last chunk, the shapes;
 * with several readings, side by side first and each after. */
static void write_md(const tab *t)
{
    char path[1100];
    outfile o;
    FILE *md = open_out(&o, t, ".md", path, sizeof path);
    fprintf(md, "# Table %d: DTSS and %s (seconds)\n\n", t->table, t->other);
    int several = t->nread > 1 || t->rd[0].name[0];
    if (several)
        md_side_by_side(md, t);
    for (int r = 0; r < t->nread; r++) {
        const reading *rd = &t->rd[r];
        const char *h = several ? "###" : "##";
        if (several)
            fprintf(md, "\n## Reading: %s (%s)\n\n", rd->name, rd->dir);
        md_table(md, t, rd);
        md_normalised(md, t, rd, h);
        if (rd->cost)
            md_last_chunk(md, t, rd, h);
        md_shapes(md, t, rd, h);
    }
    close_out(&o, path);
}

/* PREFIX.csv: per reading and case, our means and sds; the paper's numbers. */
static void write_csv(const tab *t)
{
    char path[1100];
    outfile o;
    FILE *csv = open_out(&o, t, ".csv", path, sizeof path);
    fprintf(csv, "table,reading,scheme,case,source,runs");
    for (int w = 0; w < t->rd[0].nw; w++)
        fprintf(csv, ",W%d,W%d_sd", w + 1, w + 1);
    fprintf(csv, ",finish,finish_sd,imbalance,imbalance_sd,finish_norm,ideal,"
                 "finish_over_ideal,ideal_delivered,finish_over_ideal_delivered\n");
    for (int r = 0; r < t->nread; r++) {
        const reading *rd = &t->rd[r];
        for (int i = 0; i < 4; i++) {
            const cell *c = &rd->cells[i];
            const char *s = c->paper->scheme, *scen = c->paper->scenario;
            fprintf(csv, "%d,%s,%s,%s,ours,%d", t->table, rd->name, s, scen, c->n);
            for (int k = 0; k < c->nw + 2; k++)
                fprintf(csv, ",%.4f,%.4f", c->mean[k], c->sd[k]);
            fprintf(csv, ",%.4f,%.4f,%.4f", c->mean[c->nw] / rd->ref, c->ideal,
                    c->mean[c->nw] / c->ideal);
            if (isnan(c->ideal_dlv))
                fprintf(csv, ",,\n");
            else
                fprintf(csv, ",%.4f,%.4f\n", c->ideal_dlv, c->mean[c->nw] / c->ideal_dlv);
        }
    }
    for (int i = 0; i < 4; i++) {
        const cell *c = &t->rd[0].cells[i];
        fprintf(csv, "%d,,%s,%s,paper,", t->table, c->paper->scheme, c->paper->scenario);
        for (int k = 0; k < 6; k++)
            fprintf(csv, ",%g,", c->paper->v[k]);
        fprintf(csv, ",%.4f,,,,\n", c->paper->v[4] / t->pref);
    }
    close_out(&o, path);
}

/* PREFIX-runs.csv: every run, with its ratio to the ideal. */
static void write_runs(const tab *t)
{
    char path[1100];
    outfile o;
    FILE *runs = open_out(&o, t, "-runs.csv", path, sizeof path);
    fprintf(runs, "table,reading,scheme,case,record");
    for (int w = 0; w < t->rd[0].nw; w++)
        fprintf(runs, ",W%d", w + 1);
    fprintf(runs, ",finish,imbalance,replans,ideal,finish_over_ideal\n");
    for (int rr = 0; rr < t->nread; rr++) {
        const reading *rd = &t->rd[rr];
        for (int i = 0; i < 4; i++) {
            const cell *c = &rd->cells[i];
            for (int k = 0; k < c->n; k++) {
                const runrec *r = &c->run[k];
                fprintf(runs, "%d,%s,%s,%s,%s", t->table, rd->name, c->paper->scheme,
                        c->paper->scenario, r->file);
                for (int w = 0; w < r->nw; w++)
                    fprintf(runs, isnan(r->W[w]) ? "," : ",%.4f", r->W[w]);
                fprintf(runs, ",%.4f,%.4f,%d,%.4f,%.4f\n", r->finish, r->imbalance,
                        r->replans, c->ideal, r->finish / c->ideal);
            }
        }
    }
    close_out(&o, path);
}

/* ---- the program ---------------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
"usage: tabulate --table 1|2 --out PREFIX --dir DIR [--costs FILE] [--name NAME]\n"
"                [--dir DIR [--costs FILE] [--name NAME]] ...\n"
"       tabulate --claim NAME OTHER DTSS\n"
"\n"
"Xu & Chronopoulos Table 1 (TSS, DTSS) or 2 (Tree, DTSS) from the run records\n"
"DIR/SCENARIO/SCHEME-REP.csv (SCENARIO: dedicated, nondedicated), each\n"
"scenario described by DIR/SCENARIO/info ('seq SECONDS', 'host NAME CORES Q',\n"
"optionally 'delivered NAME CORES': the ideal of the speeds really delivered).\n"
"Writes PREFIX.md (the tables beside the paper's, normalised, the ideal finish\n"
"times, the expected shapes), PREFIX.csv and PREFIX-runs.csv.\n"
"Each --dir is a reading of the paper (e.g. the loop over rows, and over\n"
"columns); with several, named, PREFIX.md puts them side by side and says in\n"
"how many readings each claim held; the CSV files have a line per reading.\n"
"  -t, --table 1|2     which table\n"
"  -d, --dir DIR       the folder of a reading's scenarios (at most %d)\n"
"  -c, --costs FILE    bin/mandel --costs of that reading's image and loop:\n"
"                      what the last chunk to finish held\n"
"  -n, --name NAME     that reading's name (letters, digits, - _ . +; needed\n"
"                      with more than one --dir)\n"
"  -o, --out PREFIX    where the files go\n"
"  -h, --help          this help\n"
"--claim NAME OTHER DTSS: one of the paper's claims (sched/records/claims.c:\n"
"t1-ded-same, t1-load-faster, ..., midrun-replans-wins) on the results of the\n"
"other scheme (TSS, Tree) and DTSS, each FINISH,IMBALANCE[,REPLANS]; prints\n"
"'held VALUE' or 'did not hold VALUE'.\n"
"Exit status: 0; 1 when an output could not be written, or out of memory (said;\n"
"no part of a file is left); 2 for bad input: bad usage, or a missing or bad\n"
"input file (the message names FILE:LINE).\n", MAXREAD);
}

#define fail(...) parse_fail("tabulate", __VA_ARGS__)

/* A reading's name: letters, digits, '-', '_', '.', '+', 1..32 of them (it
 * goes into CSV fields and Markdown headings). */
static int good_name(const char *n)
{
    size_t l = strlen(n);
    if (l == 0 || l > 32)
        return 0;
    for (; *n; n++)
        if (!(isalnum((unsigned char)*n) || *n == '-' || *n == '_' || *n == '.' || *n == '+'))
            return 0;
    return 1;
}

/* Sets t from the command line. Returns -1 to go on, else the exit status. */
static int parse_args(tab *t, int argc, char **argv)
{
    static const struct option opts[] = {
        {"table", required_argument, NULL, 't'},
        {"dir", required_argument, NULL, 'd'},
        {"out", required_argument, NULL, 'o'},
        {"costs", required_argument, NULL, 'c'},
        {"name", required_argument, NULL, 'n'},
        {"help", no_argument, NULL, 'h'},
        {0},
    };
    const char *table = NULL;
    reading *rd = NULL;
    int c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":t:d:o:c:n:h", opts, NULL)) != -1) {
        switch (c) {
        case 't': table = optarg; break;
        case 'd':
            if (t->nread == MAXREAD)
                return fail("--dir %s: at most %d readings", quote(optarg), MAXREAD);
            rd = &t->rd[t->nread++];
            rd->dir = optarg;
            rd->name = "";
            break;
        case 'o': t->out = optarg; break;
        case 'c':
        case 'n':
            if (!rd)
                return fail("--%s %s before any --dir: it belongs to the reading of the "
                            "--dir before it", c == 'c' ? "costs" : "name", quote(optarg));
            if (c == 'c')
                rd->costs_path = optarg;
            else if (!good_name(optarg))
                return fail("--name '%s' must be 1 to 32 letters, digits, '-', '_', '.' "
                            "or '+'", quote(optarg));
            else
                rd->name = optarg;
            break;
        case 'h': usage(stdout); return 0;
        default: return parse_getopt_error("tabulate", c, argv);
        }
    }
    if (optind < argc)
        return fail("unexpected argument '%s' (try --help)", quote(argv[optind]));
    if (!table || !t->nread || !t->out)
        return fail("need --table 1|2, --dir DIR and --out PREFIX (try --help)");
    if (parse_int(table, &t->table) != 0 || (t->table != 1 && t->table != 2))
        return fail("--table '%s': the paper's tables are 1 and 2", quote(table));
    for (int i = 0; i < t->nread; i++) {
        if (t->nread > 1 && !t->rd[i].name[0])
            return fail("--dir %s has no --name: with several readings each needs one",
                        quote(t->rd[i].dir));
        for (int j = 0; j < i; j++)
            if (strcmp(t->rd[i].name, t->rd[j].name) == 0)
                return fail("--name %s given twice (--dir %s and %s)", t->rd[i].name,
                            quote(t->rd[j].dir), quote(t->rd[i].dir));
    }
    return -1;
}

/* tabulate --claim NAME OTHER DTSS: one claim of sched/records/claims.c on two
 * results given as FINISH,IMBALANCE[,REPLANS]; prints "held VALUE" or "did
 * not hold VALUE" (for the scripts' own cases, e.g. the load mid-run). */
static int claim_mode(int argc, char **argv)
{
    if (argc != 5)
        return fail("usage: tabulate --claim NAME OTHER DTSS (each FINISH,IMBALANCE[,REPLANS])");
    const xu_claim *cl = xu_claim_find(argv[2]);
    if (!cl) {
        fprintf(stderr, "tabulate: --claim '%s': no such claim; the claims:", quote(argv[2]));
        for (const xu_claim *c = xu_claims; c->name; c++)
            fprintf(stderr, " %s", c->name);
        fprintf(stderr, "\n");
        return 2;
    }
    xu_result r[2];
    for (int i = 0; i < 2; i++) {
        double v[3] = {NAN, NAN, 0};
        int n = parse_double_list(argv[3 + i], v, 3);
        if (n < 2 || !(v[0] > 0) || !(v[1] >= 0) || !(v[2] >= 0))
            return fail("--claim %s: '%s' must be FINISH,IMBALANCE[,REPLANS] (seconds > 0, "
                        ">= 0; re-plans >= 0)", argv[2], quote(argv[3 + i]));
        r[i] = (xu_result){v[0], v[1], v[2]};
    }
    double value;
    int held = cl->held(&r[0], &r[1], &value);
    printf("%s %.4f\n", held ? "held" : "did not hold", value);
    return 0;
}

int main(int argc, char **argv)
{
    static tab t;
    closeout_init("tabulate");
    parse_gsl_errors("tabulate", 1);
    if (argc > 1 && strcmp(argv[1], "--claim") == 0)
        return claim_mode(argc, argv);
    int rc = parse_args(&t, argc, argv);
    if (rc >= 0)
        return rc;
    const char *suffix[] = {".md", ".csv", "-runs.csv"};
    char path[1100];
    for (int i = 0; i < 3; i++) {           /* before the work */
        snprintf(path, sizeof path, "%s%s", t.out, suffix[i]);
        if (closeout_output("--out", path, 0))
            return 1;
    }
    load(&t);
    write_md(&t);
    write_csv(&t);
    write_runs(&t);
    for (int i = 0; i < t.nread; i++)
        free(t.rd[i].cost);
    return 0;
}
