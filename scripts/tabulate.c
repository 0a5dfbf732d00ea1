/* tabulate.c: bin/tabulate, Xu & Chronopoulos Tables 1 and 2 from run records.
 *
 *   tabulate --table 1|2 --dir DIR --out PREFIX [--costs COSTS.csv]
 *
 * DIR holds one folder per scenario (dedicated, nondedicated), each with the
 * run records of the repetitions, SCHEME-REP.csv (bin/coordinator --record),
 * and a file 'info' describing the scenario:
 *     seq SECONDS            the sequential time of the image on one core
 *     host NAME CORES Q      a host, its CPU share in cores, its run-queue
 *                            length with the worker running (1 + loaders)
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
 * The ideal finish time is the total work over the total available speed:
 * seq / sum over hosts of CORES / Q.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_statistics_double.h>

#include "mandel/mandel.h"

#define MAXW 8
#define MAXREP 64

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

typedef struct runrec {
    int nw;
    char host[MAXW][64];
    double W[MAXW];             /* NAN: the worker did no chunk */
    double finish, imbalance;
    int replans, rows, sample;
    char file[1024];
    /* the chunk that finished last */
    int crit_worker;
    long crit_start, crit_size;
    double crit_acp, crit_secs, crit_end;
} runrec;

typedef struct cell {           /* one scheme in one scenario */
    const paper_row *paper;
    runrec run[MAXREP];
    int n;
    double ideal;
    char hosts[MAXW][64];
    int nw;
    double mean[MAXW + 2], sd[MAXW + 2];
} cell;

__attribute__((format(printf, 1, 2)))
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

/* Reads a run record; returns 0, or -1 naming the problem in msg. */
static int read_record(const char *path, runrec *r, char *msg, size_t len)
{
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(msg, len, "%s: %s", path, strerror(errno));
        return -1;
    }
    memset(r, 0, sizeof *r);
    snprintf(r->file, sizeof r->file, "%s", path);
    char line[4096];
    int have_run = 0, lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\n")] = '\0';
        char *field[16];
        int nf = 0;
        for (char *p = line, *c; nf < 16; p = c + 1) {
            field[nf++] = p;
            if (!(c = strchr(p, ',')))
                break;
            *c = '\0';
        }
        if (strcmp(field[0], "chunk") == 0 && nf >= 13 && atoi(field[12]) == 1 &&
            atof(field[9]) >= r->crit_end) {
            r->crit_end = atof(field[9]);
            r->crit_worker = atoi(field[2]);
            r->crit_start = atol(field[3]);
            r->crit_size = atol(field[4]);
            r->crit_acp = atof(field[5]);
            r->crit_secs = atof(field[9]) - atof(field[8]);
        } else if (strcmp(field[0], "run") == 0 && nf >= 11) {
            r->rows = atoi(field[3]);
            r->sample = atoi(field[7]);
            r->finish = atof(field[8]);
            r->imbalance = atof(field[9]);
            r->replans = atoi(field[10]);
            have_run = 1;
        } else if (strcmp(field[0], "worker") == 0 && nf >= 11) {
            if (r->nw == MAXW) {
                fclose(f);
                snprintf(msg, len, "%s:%d: more than %d workers", path, lineno, MAXW);
                return -1;
            }
            snprintf(r->host[r->nw], sizeof r->host[0], "%s", field[2]);
            r->W[r->nw] = field[10][0] ? atof(field[10]) : NAN;
            r->nw++;
        }
    }
    fclose(f);
    if (!have_run || r->nw == 0) {
        snprintf(msg, len, "%s: not a run record (no run or worker line)", path);
        return -1;
    }
    return 0;
}

/* Reads DIR/scenario/info: the ideal finish time. */
static double read_ideal(const char *dir, const char *scenario)
{
    char path[1024], line[256];
    snprintf(path, sizeof path, "%s/%s/info", dir, scenario);
    FILE *f = fopen(path, "r");
    if (!f)
        die("%s: %s", path, strerror(errno));
    double seq = NAN, speed = 0;
    while (fgets(line, sizeof line, f)) {
        char name[64];
        double cores, Q;
        if (sscanf(line, "seq %lf", &seq) == 1)
            continue;
        if (sscanf(line, "host %63s %lf %lf", name, &cores, &Q) == 3 && Q >= 1)
            speed += cores / Q;
    }
    fclose(f);
    if (isnan(seq) || !(speed > 0))
        die("%s: needs a 'seq SECONDS' line and 'host NAME CORES Q' lines", path);
    return seq / speed;
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Loads DIR/scenario/scheme-*.csv into c. */
static void load_cell(cell *c, const char *dir, const paper_row *p)
{
    char path[1024], msg[1200];
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
            l > 4 && strcmp(e->d_name + l - 4, ".csv") == 0)
            names[nn++] = strdup(e->d_name);
    }
    closedir(d);
    qsort(names, (size_t)nn, sizeof *names, by_name);
    for (int i = 0; i < nn; i++) {
        snprintf(path, sizeof path, "%s/%s/%s", dir, p->scenario, names[i]);
        if (read_record(path, &c->run[c->n], msg, sizeof msg) != 0)
            die("%s", msg);
        c->n++;
        free(names[i]);
    }
    if (c->n == 0)
        die("no run records %s/%s/%s-*.csv", dir, p->scenario, p->scheme);
    c->nw = c->run[0].nw;
    for (int w = 0; w < c->nw; w++)
        memcpy(c->hosts[w], c->run[0].host[w], sizeof c->hosts[w]);  /* both [64] */
    c->ideal = read_ideal(dir, p->scenario);
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

/* Row costs from bin/mandel --costs (index,row,cost,...): cost[row]. */
static double *read_costs(const char *path, int *n)
{
    FILE *f = fopen(path, "r");
    if (!f)
        die("%s: %s", path, strerror(errno));
    int cap = 1024;
    double *cost = calloc((size_t)cap, sizeof *cost);
    char line[256];
    *n = 0;
    while (cost && fgets(line, sizeof line, f)) {
        long index, row;
        double c;
        if (sscanf(line, "%ld,%ld,%lf", &index, &row, &c) != 3)
            continue;                       /* the header */
        if (row < 0 || row > 10000000)
            die("%s: bad row %ld", path, row);
        while (row >= cap) {
            cost = realloc(cost, sizeof *cost * (size_t)cap * 2);
            if (!cost)
                die("out of memory");
            memset(cost + cap, 0, sizeof *cost * (size_t)cap);
            cap *= 2;
        }
        cost[row] = c;
        if (row + 1 > *n)
            *n = (int)row + 1;
    }
    fclose(f);
    if (!cost || *n == 0)
        die("%s: no row costs (is it bin/mandel --costs output?)", path);
    return cost;
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

static const char *scenario_label(const char *s)
{
    return strcmp(s, "dedicated") == 0 ? "Dedicated" : "Not dedicated";
}

static void md_cell(FILE *f, double m, double sd)
{
    if (isnan(m))
        fprintf(f, " – |");
    else
        fprintf(f, " %.2f ± %.2f |", m, sd);
}

int main(int argc, char **argv)
{
    int table = 0;
    const char *dir = NULL, *out = NULL, *costs = NULL;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--table") == 0 && i + 1 < argc)
            table = atoi(argv[++i]);
        else if (strcmp(argv[i], "--dir") == 0 && i + 1 < argc)
            dir = argv[++i];
        else if (strcmp(argv[i], "--out") == 0 && i + 1 < argc)
            out = argv[++i];
        else if (strcmp(argv[i], "--costs") == 0 && i + 1 < argc)
            costs = argv[++i];
        else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: tabulate --table 1|2 --dir DIR --out PREFIX [--costs FILE]\n"
                   "Writes PREFIX.md, PREFIX.csv and PREFIX-runs.csv from the run\n"
                   "records in DIR/SCENARIO/SCHEME-REP.csv (see scripts/tabulate.c).\n");
            return 0;
        } else
            die("unknown argument '%s' (try --help)", argv[i]);
    }
    if ((table != 1 && table != 2) || !dir || !out)
        die("need --table 1|2, --dir DIR and --out PREFIX (try --help)");
    const paper_row *rows = table == 1 ? table1 : table2;
    static cell cells[4];
    for (int i = 0; i < 4; i++)
        load_cell(&cells[i], dir, &rows[i]);
    cell *ded_dtss = &cells[2], *nd_dtss = &cells[3];
    cell *ded_other = &cells[0], *nd_other = &cells[1];
    const char *Other = table == 1 ? "TSS" : "Tree";
    double ref = ded_dtss->mean[ded_dtss->nw];          /* our dedicated DTSS */
    double pref = rows[2].v[4];                         /* the paper's */
    int nw = cells[0].nw;
    for (int i = 1; i < 4; i++)
        if (cells[i].nw != nw)
            die("%s/%s has %d workers, %s/%s %d: the cases must use the same hosts",
                rows[i].scenario, rows[i].scheme, cells[i].nw, rows[0].scenario,
                rows[0].scheme, nw);

    char path[1024];
    snprintf(path, sizeof path, "%s.md", out);
    FILE *md = fopen(path, "w");
    if (!md)
        die("%s: %s", path, strerror(errno));
    fprintf(md, "# Table %d: DTSS and %s (seconds)\n\n", table, Other);
    fprintf(md, "Mean ± standard deviation over %d runs each; W_i = worker i's time "
            "until its last chunk was done, Finish Time = all rows in, Imbalance = "
            "max − min of the W_i. Workers:", cells[0].n);
    for (int w = 0; w < nw; w++)
        fprintf(md, " W%d = %s%s", w + 1, cells[0].hosts[w], w + 1 < nw ? "," : ".");
    fprintf(md, "\n\n| scheme | case |");
    for (int w = 0; w < nw; w++)
        fprintf(md, " W%d |", w + 1);
    fprintf(md, " Finish Time | Imbalance | paper: W1 W2 W3 W4 / Finish / Imbalance |\n|---|---|");
    for (int w = 0; w < nw + 3; w++)
        fprintf(md, "---|");
    fprintf(md, "\n");
    for (int i = 0; i < 4; i++) {
        cell *c = &cells[i];
        fprintf(md, "| %s | %s |", strcmp(c->paper->scheme, "dtss") == 0 ? "DTSS" : Other,
                scenario_label(c->paper->scenario));
        for (int k = 0; k < nw + 2; k++)
            md_cell(md, c->mean[k], c->sd[k]);
        fprintf(md, " %g %g %g %g / %g / %g |\n", c->paper->v[0], c->paper->v[1],
                c->paper->v[2], c->paper->v[3], c->paper->v[4], c->paper->v[5]);
    }

    fprintf(md, "\n## Normalised: each time divided by the dedicated DTSS finish time\n\n"
            "Ours divided by our dedicated DTSS finish (%.2f s), the paper's by its "
            "own (%g s): our seconds are not a 1990s workstation's.\n\n"
            "| scheme | case | Finish (ours) | Finish (paper) | Imbalance (ours) | "
            "Imbalance (paper) | ideal finish | ours / ideal |\n"
            "|---|---|---|---|---|---|---|---|\n", ref, pref);
    for (int i = 0; i < 4; i++) {
        cell *c = &cells[i];
        double fin = c->mean[c->nw], imb = c->mean[c->nw + 1];
        fprintf(md, "| %s | %s | %.2f | %.2f | %.3f | %.3f | %.2f s | %.2f |\n",
                strcmp(c->paper->scheme, "dtss") == 0 ? "DTSS" : Other,
                scenario_label(c->paper->scenario), fin / ref, c->paper->v[4] / pref,
                imb / ref, c->paper->v[5] / pref, c->ideal, fin / c->ideal);
    }
    fprintf(md, "\nIdeal finish time = sequential time of the image on one core / "
            "total available speed (sum over hosts of CPU share / run-queue length), "
            "from each scenario's `info` file.\n");

    if (costs) {
        int n;
        double *cost = read_costs(costs, &n);
        fprintf(md, "\n## The last chunk to finish\n\n"
                "Mean over the runs of the chunk that finished last: its share of the "
                "rows, its share of the image's work (row costs from %s), the A_i it "
                "was sized with and how long its worker computed it.\n\n"
                "| scheme | case | rows | work | A_i | compute time |\n"
                "|---|---|---|---|---|---|\n",
                strrchr(costs, '/') ? strrchr(costs, '/') + 1 : costs);
        for (int i = 0; i < 4; i++) {
            cell *c = &cells[i];
            double rshare = 0, work = 0, acp = 0, secs = 0;
            for (int k = 0; k < c->n; k++) {
                if (c->run[k].rows != n)
                    die("%s: %d rows, the costs %d: not the same image", c->run[k].file,
                        c->run[k].rows, n);
                rshare += (double)c->run[k].crit_size / n;
                work += crit_work(&c->run[k], cost, n);
                acp += c->run[k].crit_acp;
                secs += c->run[k].crit_secs;
            }
            char a[32] = "–";                  /* Tree sizes by no A_i */
            if (strcmp(c->paper->scheme, "tree") != 0)
                snprintf(a, sizeof a, "%.2f", acp / c->n);
            fprintf(md, "| %s | %s | %.1f%% | %.1f%% | %s | %.2f s |\n",
                    strcmp(c->paper->scheme, "dtss") == 0 ? "DTSS" : Other,
                    scenario_label(c->paper->scenario), 100 * rshare / c->n,
                    100 * work / c->n, a, secs / c->n);
        }
        free(cost);
    }

    /* The shape checks (issue text), stated for this run. */
    fprintf(md, "\n## Expected shape\n\n");
    double f_do = ded_other->mean[ded_other->nw], f_dd = ded_dtss->mean[ded_dtss->nw];
    double f_no = nd_other->mean[nd_other->nw], f_nd = nd_dtss->mean[nd_dtss->nw];
    double i_no = nd_other->mean[nd_other->nw + 1], i_nd = nd_dtss->mean[nd_dtss->nw + 1];
    int all = 1;
#define SHAPE(cond, ...) do { int held_ = (cond); all &= held_;                  \
        fprintf(md, "- %s: ", held_ ? "**held**" : "**did not hold**");         \
        fprintf(md, __VA_ARGS__); fprintf(md, "\n"); } while (0)
    if (table == 1) {
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
    }
    fprintf(md, "\n%s\n", all ? "Every expected shape held in this run."
                              : "Not every expected shape held in this run (see above).");
    fclose(md);

    snprintf(path, sizeof path, "%s.csv", out);
    FILE *csv = fopen(path, "w");
    if (!csv)
        die("%s: %s", path, strerror(errno));
    fprintf(csv, "table,scheme,case,source,runs");
    for (int w = 0; w < nw; w++)
        fprintf(csv, ",W%d,W%d_sd", w + 1, w + 1);
    fprintf(csv, ",finish,finish_sd,imbalance,imbalance_sd,finish_norm,ideal,"
                 "finish_over_ideal\n");
    for (int i = 0; i < 4; i++) {
        cell *c = &cells[i];
        fprintf(csv, "%d,%s,%s,ours,%d", table, c->paper->scheme, c->paper->scenario, c->n);
        for (int k = 0; k < c->nw + 2; k++)
            fprintf(csv, ",%.4f,%.4f", c->mean[k], c->sd[k]);
        fprintf(csv, ",%.4f,%.4f,%.4f\n", c->mean[c->nw] / ref, c->ideal,
                c->mean[c->nw] / c->ideal);
        fprintf(csv, "%d,%s,%s,paper,", table, c->paper->scheme, c->paper->scenario);
        for (int k = 0; k < 6; k++)
            fprintf(csv, ",%g,", c->paper->v[k]);
        fprintf(csv, ",%.4f,,\n", c->paper->v[4] / pref);
    }
    fclose(csv);

    snprintf(path, sizeof path, "%s-runs.csv", out);
    FILE *runs = fopen(path, "w");
    if (!runs)
        die("%s: %s", path, strerror(errno));
    fprintf(runs, "table,scheme,case,record");
    for (int w = 0; w < nw; w++)
        fprintf(runs, ",W%d", w + 1);
    fprintf(runs, ",finish,imbalance,replans,ideal,finish_over_ideal\n");
    for (int i = 0; i < 4; i++)
        for (int k = 0; k < cells[i].n; k++) {
            runrec *r = &cells[i].run[k];
            fprintf(runs, "%d,%s,%s,%s", table, cells[i].paper->scheme,
                    cells[i].paper->scenario, r->file);
            for (int w = 0; w < r->nw; w++)
                fprintf(runs, isnan(r->W[w]) ? "," : ",%.4f", r->W[w]);
            fprintf(runs, ",%.4f,%.4f,%d,%.4f,%.4f\n", r->finish, r->imbalance,
                    r->replans, cells[i].ideal, r->finish / cells[i].ideal);
        }
    fclose(runs);
    return 0;
}
