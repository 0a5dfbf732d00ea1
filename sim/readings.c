/* readings.c: bin/readings, Xu & Chronopoulos's claims (sched/records/claims.h)
 * under every plausible reading of the paper, on the simulator.
 *
 * Sec. 6 leaves open choices that move its results by more than the effects
 * it reports; each becomes a factor here, and every combination a reading:
 *   loop      rows | columns: "1200 by 1200 pixels", never whether an
 *             iteration is a row or a column (cost/cost.h);
 *   R         the sampling frequency, 1 2 4 8 16 32: Sec. 4.2 gives R = 4 for
 *             Figure 3, Sec. 6 does not say it ran with it;
 *   F         eq. 1's I/2A ("by default") | I/2P, "according to TSS" (Sec. 2;
 *             sched/schemes/dtss.c, parameter fp);
 *   maxiter   1000 4000 20000: the escape limit is not given;
 *   order     where the loads sit: Table 1's 3, 2 and 1 extra processes on
 *             every ordering of w1..w4 (the paper's: w1, w2, w3), Table 2's
 *             fast host at each position (the paper's: W4). It matters because
 *             the first requests are served in worker order by TSS and by
 *             the ACPSA (decreasing A_i, ties in worker order) by DTSS
 *             (sched/loop/policy.h), and Tree-Scheduling splits in worker order;
 *   W4 load   Table 2 not dedicated: extra processes on the fast host
 *             ("severely loaded", not counted; --w4-extra).
 * The platforms are the emulated clusters' (scripts/xu-platform): four hosts
 * sharing one core (Table 1: a quarter each; Table 2: 1/9, 1/9, 1/9, 6/9) at
 * RATE cost units a second for a whole core, links of 0.2 ms and 1 GB/s, each
 * line's counts (4 bytes a pixel) sent back. The load of Sec. 3.2 arrives at
 * --midrun-at times DTSS's dedicated finish in the same reading.
 *
 * Each reading's runs are checked against every claim of
 * sched/records/claims.c; the output says in how many readings each held, and
 * each factor's marginal effect: the share held at each of its levels (over all
 * the other factors), the factor whose levels differ most "deciding" it.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/records/claims.h"
#include "sched/util/closeout.h"
#include "sched/util/outfile.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"
#include "sched/util/progress.h"
#include "sim/sim.h"

#define PROG "readings"
#define fail(...) parse_fail(PROG, __VA_ARGS__)
#define MAXL 16         /* levels of a list factor */
#define NHOST 4

enum { F_LOOP, F_R, F_F, F_MAXITER, F_ORDER, F_EXTRA, NFACTOR };
static const char *const factor_name[NFACTOR] = {
    "loop", "R", "F", "maxiter", "order", "W4 load"
};

typedef struct options {
    int loops[2], nloops;           /* 0 rows, 1 columns */
    long R[MAXL]; int nR;
    int F[2], nF;                   /* 0 I/2A, 1 I/2P */
    long maxiter[MAXL]; int nmaxiter;
    long extra[MAXL]; int nextra;
    int all_orders;
    long size;
    double rate, midrun_at;
    const char *out;
    int quiet;
} options;

/* One claim checked on one reading: the levels of its factors (-1: the
 * factor does not apply), held or not, the claim's value. */
typedef struct verdict {
    int claim;
    int level[NFACTOR];
    int held;
    double value;
} verdict;

typedef struct sweep {
    const options *o;
    verdict *v;
    long nv, cap;
    FILE *runs, *claims;
    int norders[3];                 /* orders of Table 1 loaded, Table 2, (unused) */
    char order_label[24][8];        /* Table 1's orders: extra processes on w1..w4 */
    int perm[24][NHOST];
} sweep;

/* ---- the platforms ----------------------------------------------------------- */

/* Four hosts of the given shares (of a core, RATE cost units a second for a
 * whole one) with extra[i] other processes from t[i] on. */
typedef struct plat {
    sim_platform p;
    sim_host h[NHOST];
    sim_step step[NHOST];
    sim_link link;
    char name[NHOST][8];
} plat;

static void plat_make(plat *x, double rate, const double *share, const int *extra,
                      const double *t)
{
    memset(x, 0, sizeof *x);
    for (int i = 0; i < NHOST; i++) {
        snprintf(x->name[i], sizeof x->name[i], "w%d", i + 1);
        x->step[i] = (sim_step){t ? t[i] : 0, extra ? extra[i] : 0};
        x->h[i] = (sim_host){.name = x->name[i], .cluster = "default", .speed = rate * share[i],
                             .load = &x->step[i], .nload = extra && extra[i] ? 1 : 0,
                             .fail = -1};
    }
    x->link = (sim_link){"*", "*", 0.0002, 1e9};
    x->p.hosts = x->h;
    x->p.nhosts = NHOST;
    snprintf(x->p.master, sizeof x->p.master, "default");
    x->p.links = &x->link;
    x->p.nlinks = 1;
}

/* ---- one run --------------------------------------------------------------------- */

typedef struct reading {
    int loop, R, F, maxiter;        /* level indices */
    const sim_workload *wl;
    double line_bytes;
} reading;

/* Runs scheme ("tss", "dtss" or "tree") on platform x; writes its line to
 * runs.csv; fills *res. 0, or -1 with msg. */
static int run(sweep *s, const reading *rd, const char *scase, const char *scheme,
               const plat *x, const char *order, long extra, xu_result *res, char *msg,
               size_t len)
{
    const options *o = s->o;
    sim_config cfg;
    sim_config_init(&cfg);
    cfg.platform = &x->p;
    cfg.workload = rd->wl;
    cfg.result_bytes = rd->line_bytes;
    cfg.tree = strcmp(scheme, "tree") == 0;
    if (!cfg.tree) {
        sched_err err;
        const sched_type *T = sched_type_find(scheme, &err);
        sched_config_init(&cfg.sched, T, rd->wl->n, NHOST);
        if (T == &sched_dtss && o->F[rd->F] == 1 &&
            sched_config_set(&cfg.sched, "fp", "1", &err) != 0) {
            snprintf(msg, len, "%s", err.msg);
            return -1;
        }
    }
    record rec = {0};
    if (record_init(&rec, NHOST) != 0 || record_stream(&rec, NULL, msg, len) != 0) {
        record_free(&rec);              /* the summary is all a reading needs */
        snprintf(msg, len, "out of memory");
        return -1;
    }
    if (sim_run(&cfg, &rec, msg, len) != 0) {
        record_free(&rec);
        return -1;
    }
    res->finish = rec.finish;
    res->imbalance = record_imbalance(&rec);
    res->replans = rec.replans;
    fprintf(s->runs, "%s,%s,%s,%ld,%s,%ld,%s,%ld,%.6f,%.6f,%d,%ld\n", scase, scheme,
            o->loops[rd->loop] ? "columns" : "rows", o->R[rd->R],
            o->F[rd->F] ? "I/2P" : "I/2A", o->maxiter[rd->maxiter], order, extra,
            rec.finish, res->imbalance, rec.replans, rec.nchunks);
    record_free(&rec);
    return 0;
}

/* Checks every claim of 'table' and case c on the results (other, dtss) of
 * reading rd, at order level 'order' and W4 load level 'extra' (-1: not
 * applicable); one line each to claims.csv. */
static int judge(sweep *s, int table, xu_case c, const reading *rd, int order, int extra,
                 const char *order_label, const xu_result *other, const xu_result *dtss,
                 char *msg, size_t len)
{
    const options *o = s->o;
    for (int k = 0; xu_claims[k].name; k++) {
        const xu_claim *cl = &xu_claims[k];
        if (cl->table != table || cl->scase != c)
            continue;
        if (s->nv == s->cap) {
            long n = s->cap ? 2 * s->cap : 1024;
            verdict *v = realloc(s->v, sizeof *v * (size_t)n);
            if (!v) {
                snprintf(msg, len, "out of memory");
                return -1;
            }
            s->v = v;
            s->cap = n;
        }
        verdict *v = &s->v[s->nv++];
        v->claim = k;
        v->level[F_LOOP] = rd->loop;
        v->level[F_R] = rd->R;
        v->level[F_F] = rd->F;
        v->level[F_MAXITER] = rd->maxiter;
        v->level[F_ORDER] = order;
        v->level[F_EXTRA] = extra;
        v->held = cl->held(other, dtss, &v->value);
        fprintf(s->claims, "%s,%s,%ld,%s,%ld,%s,", cl->name,
                o->loops[rd->loop] ? "columns" : "rows", o->R[rd->R],
                o->F[rd->F] ? "I/2P" : "I/2A", o->maxiter[rd->maxiter], order_label);
        if (extra >= 0)
            fprintf(s->claims, "%ld", o->extra[extra]);
        fprintf(s->claims, ",%d,%.6f\n", v->held, v->value);
    }
    return 0;
}

/* The orders of Table 1's loads: every permutation of (3, 2, 1, 0) extra
 * processes over w1..w4, the paper's (w1 3, w2 2, w3 1) first. */
static void make_orders(sweep *s)
{
    int n = 0, a[NHOST];
    for (a[0] = 0; a[0] < NHOST; a[0]++)
        for (a[1] = 0; a[1] < NHOST; a[1]++)
            for (a[2] = 0; a[2] < NHOST; a[2]++)
                for (a[3] = 0; a[3] < NHOST; a[3]++) {
                    int seen = 0, dup = 0;
                    for (int i = 0; i < NHOST; i++) {
                        dup |= seen & (1 << a[i]);
                        seen |= 1 << a[i];
                    }
                    if (dup)
                        continue;
                    for (int i = 0; i < NHOST; i++)     /* descending: 3210 first */
                        s->perm[n][i] = 3 - a[i];
                    snprintf(s->order_label[n], sizeof s->order_label[n], "%d%d%d%d",
                             s->perm[n][0], s->perm[n][1], s->perm[n][2], s->perm[n][3]);
                    n++;
                }
    s->norders[0] = s->o->all_orders ? n : 1;
    s->norders[1] = s->o->all_orders ? NHOST : 1;
}

/* ---- a reading's runs -------------------------------------------------------------- */

static const double t1_share[NHOST] = {0.25, 0.25, 0.25, 0.25};

/* Table 1 dedicated, loaded in every order, and the load arriving mid-run. */
static int table1(sweep *s, const reading *rd, char *msg, size_t len)
{
    const options *o = s->o;
    plat x;
    xu_result tss, dtss;
    plat_make(&x, o->rate, t1_share, NULL, NULL);
    if (run(s, rd, "t1-ded", "tss", &x, "-", -1, &tss, msg, len) != 0 ||
        run(s, rd, "t1-ded", "dtss", &x, "-", -1, &dtss, msg, len) != 0 ||
        judge(s, 1, XU_DEDICATED, rd, -1, -1, "-", &tss, &dtss, msg, len) != 0)
        return -1;
    double at = o->midrun_at * dtss.finish;
    double when[NHOST] = {at, at, at, at};
    for (int k = 0; k < s->norders[0]; k++) {
        const char *ol = s->order_label[k];
        plat_make(&x, o->rate, t1_share, s->perm[k], NULL);
        if (run(s, rd, "t1-load", "tss", &x, ol, -1, &tss, msg, len) != 0 ||
            run(s, rd, "t1-load", "dtss", &x, ol, -1, &dtss, msg, len) != 0 ||
            judge(s, 1, XU_LOADED, rd, k, -1, ol, &tss, &dtss, msg, len) != 0)
            return -1;
        plat_make(&x, o->rate, t1_share, s->perm[k], when);
        if (run(s, rd, "midrun", "tss", &x, ol, -1, &tss, msg, len) != 0 ||
            run(s, rd, "midrun", "dtss", &x, ol, -1, &dtss, msg, len) != 0 ||
            judge(s, 1, XU_MIDRUN, rd, k, -1, ol, &tss, &dtss, msg, len) != 0)
            return -1;
    }
    return 0;
}

/* Table 2 with the fast host at each position (the paper's, w4, first),
 * dedicated and with each W4 load. */
static int table2(sweep *s, const reading *rd, char *msg, size_t len)
{
    const options *o = s->o;
    plat x;
    xu_result tree, dtss;
    for (int q = 0; q < s->norders[1]; q++) {
        int pos = NHOST - 1 - q;
        double share[NHOST];
        char ol[24];
        snprintf(ol, sizeof ol, "fast=w%d", pos + 1);
        for (int i = 0; i < NHOST; i++)
            share[i] = i == pos ? 6.0 / 9 : 1.0 / 9;
        plat_make(&x, o->rate, share, NULL, NULL);
        if (run(s, rd, "t2-ded", "tree", &x, ol, -1, &tree, msg, len) != 0 ||
            run(s, rd, "t2-ded", "dtss", &x, ol, -1, &dtss, msg, len) != 0 ||
            judge(s, 2, XU_DEDICATED, rd, q, -1, ol, &tree, &dtss, msg, len) != 0)
            return -1;
        for (int e = 0; e < o->nextra; e++) {
            int extra[NHOST] = {0};
            extra[pos] = (int)o->extra[e];
            plat_make(&x, o->rate, share, extra, NULL);
            if (run(s, rd, "t2-load", "tree", &x, ol, o->extra[e], &tree, msg, len) != 0 ||
                run(s, rd, "t2-load", "dtss", &x, ol, o->extra[e], &dtss, msg, len) != 0 ||
                judge(s, 2, XU_LOADED, rd, q, e, ol, &tree, &dtss, msg, len) != 0)
                return -1;
        }
    }
    return 0;
}

/* ---- the summary ------------------------------------------------------------------ */

/* The levels of factor f (for claim cl: how many orders, whether the W4
 * load applies); 0: the factor does not apply to cl. */
static int levels(const sweep *s, const xu_claim *cl, int f)
{
    const options *o = s->o;
    switch (f) {
    case F_LOOP: return o->nloops;
    case F_R: return o->nR;
    case F_F: return o->nF;
    case F_MAXITER: return o->nmaxiter;
    case F_ORDER:
        if (cl->table == 2)
            return s->norders[1];
        return cl->scase == XU_DEDICATED ? 0 : s->norders[0];
    default:
        return cl->table == 2 && cl->scase == XU_LOADED ? o->nextra : 0;
    }
}

/* A level's name, as in the tables: "rows", "R=4", "I/2A", "m=1000", ... */
static void level_name(const sweep *s, int f, int l, char *buf, size_t len, int table)
{
    const options *o = s->o;
    switch (f) {
    case F_LOOP: snprintf(buf, len, "%s", o->loops[l] ? "columns" : "rows"); break;
    case F_R: snprintf(buf, len, "R=%ld", o->R[l]); break;
    case F_F: snprintf(buf, len, "%s", o->F[l] ? "I/2P" : "I/2A"); break;
    case F_MAXITER: snprintf(buf, len, "m=%ld", o->maxiter[l]); break;
    case F_ORDER:
        if (table == 2)
            snprintf(buf, len, "fast=w%d", NHOST - l);
        else
            snprintf(buf, len, "%s", s->order_label[l]);
        break;
    default: snprintf(buf, len, "W4+%ld", o->extra[l]); break;
    }
}

typedef struct tally { long held, n; } tally;

static double share(tally t) { return t.n ? (double)t.held / (double)t.n : NAN; }

/* Claim k's verdicts: all, and by level of each factor (at most 24 levels). */
typedef struct claim_sum {
    tally all, paper, lev[NFACTOR][24];
    double spread[NFACTOR];         /* largest - smallest share over the levels */
    double eta2[NFACTOR];           /* the share of held's variance the factor's
                                       levels explain (NAN: does not apply) */
    int decider;                    /* the largest eta2; -1: the same everywhere */
} claim_sum;

/* Is verdict v of the paper's reading (rows, R = 4, I/2A, its order, W4+5)
 * but for maxiter, which the paper does not give? */
static int papers(const sweep *s, const verdict *v)
{
    const options *o = s->o;
    return o->loops[v->level[F_LOOP]] == 0 && o->R[v->level[F_R]] == 4 &&
           o->F[v->level[F_F]] == 0 && v->level[F_ORDER] <= 0 &&
           (v->level[F_EXTRA] < 0 || o->extra[v->level[F_EXTRA]] == 5);
}

/* The smallest and largest share held over factor f's levels. */
static double level_min(const sweep *s, int k, const claim_sum *c, int f)
{
    double lo = INFINITY;
    for (int l = 0; l < levels(s, &xu_claims[k], f); l++)
        if (c->lev[f][l].n)
            lo = fmin(lo, share(c->lev[f][l]));
    return lo;
}

static double level_max(const sweep *s, int k, const claim_sum *c, int f)
{
    double hi = -INFINITY;
    for (int l = 0; l < levels(s, &xu_claims[k], f); l++)
        if (c->lev[f][l].n)
            hi = fmax(hi, share(c->lev[f][l]));
    return hi;
}

static void summarise(const sweep *s, int k, claim_sum *c)
{
    memset(c, 0, sizeof *c);
    for (long i = 0; i < s->nv; i++) {
        const verdict *v = &s->v[i];
        if (v->claim != k)
            continue;
        c->all.n++;
        c->all.held += v->held;
        if (papers(s, v)) {
            c->paper.n++;
            c->paper.held += v->held;
        }
        for (int f = 0; f < NFACTOR; f++)
            if (v->level[f] >= 0) {
                c->lev[f][v->level[f]].n++;
                c->lev[f][v->level[f]].held += v->held;
            }
    }
    /* eta^2 of a one-way split of the 0/1 'held' by the factor's levels:
     * sum over levels n_l (p_l - p)^2 over N p (1 - p), the variance between
     * the levels over the whole; 1 when the factor alone decides, 0 when it
     * does not matter. */
    double p = share(c->all), total = (double)c->all.n * p * (1 - p);
    c->decider = -1;
    double best = 0;
    for (int f = 0; f < NFACTOR; f++) {
        double lo = INFINITY, hi = -INFINITY, between = 0;
        int nl = 0;
        for (int l = 0; l < levels(s, &xu_claims[k], f); l++)
            if (c->lev[f][l].n) {
                double pl = share(c->lev[f][l]);
                lo = fmin(lo, pl);
                hi = fmax(hi, pl);
                between += (double)c->lev[f][l].n * (pl - p) * (pl - p);
                nl++;
            }
        c->spread[f] = nl > 1 ? hi - lo : NAN;
        c->eta2[f] = nl < 2 ? NAN : total > 0 ? between / total : 0;
        if (nl > 1 && c->eta2[f] > best) {
            best = c->eta2[f];
            c->decider = f;
        }
    }
}

/* readings.md: each claim held in X of Y readings, the paper's reading, the
 * deciding factor; then every factor's marginal effect. */
static void write_md(const sweep *s, FILE *md)
{
    const options *o = s->o;
    int n = xu_claims_count();
    claim_sum *cs = calloc((size_t)n, sizeof *cs);
    if (!cs)
        return;
    for (int k = 0; k < n; k++)
        summarise(s, k, &cs[k]);
    fprintf(md, "# Xu & Chronopoulos's claims under every reading of the paper (simulated)\n\n"
            "Each reading is one choice of what the paper leaves open: the loop over the "
            "image's rows or columns; the sampling frequency R;\nDTSS's first chunk F = I/2A "
            "(eq. 1) or I/2P (\"according to TSS\"); maxiter; where the loads sit (Table 1's "
            "3, 2, 1 extra processes\nover w1..w4 in every order, the paper's 3210 first; "
            "Table 2's fast host at each position, the paper's w4); Table 2's W4 load.\n"
            "The %ldx%ld image, the emulated clusters' platforms at %.4g cost units a second "
            "for a whole core; the load of Sec. 3.2 at %.2f x the dedicated DTSS finish.\n"
            "Made by `bin/readings` (sim/readings.c), the claims of sched/records/claims.c.\n\n",
            o->size, o->size, o->rate, o->midrun_at);
    fprintf(md, "| claim | held in | share | the paper's reading (rows, R = 4, I/2A, its "
            "order, W4+5), over maxiter | deciding factor | the factors' eta² |\n"
            "|---|---|---|---|---|---|\n");
    for (int k = 0; k < n; k++) {
        const claim_sum *c = &cs[k];
        fprintf(md, "| %s | **%ld of %ld** | %.0f%% | ", xu_claims[k].text, c->all.held,
                c->all.n, 100 * share(c->all));
        if (c->paper.n)
            fprintf(md, "%ld of %ld | ", c->paper.held, c->paper.n);
        else
            fprintf(md, "– | ");
        if (c->decider < 0)
            fprintf(md, "none: the same in every reading |");
        else
            fprintf(md, "%s (eta² %.2f; the share held %.0f%% to %.0f%% over its "
                    "levels) |", factor_name[c->decider], c->eta2[c->decider],
                    100 * level_min(s, k, c, c->decider),
                    100 * level_max(s, k, c, c->decider));
        for (int f = 0, first = 1; f < NFACTOR; f++)
            if (!isnan(c->eta2[f])) {
                fprintf(md, "%s %s %.2f", first ? "" : ",", factor_name[f], c->eta2[f]);
                first = 0;
            }
        fprintf(md, " |\n");
    }
    fprintf(md, "\n## Each factor's marginal effect: the share held at each level, over "
            "every other factor\n");
    for (int f = 0; f < NFACTOR; f++) {
        int maxl = 0;
        for (int k = 0; k < n; k++)
            maxl = levels(s, &xu_claims[k], f) > maxl ? levels(s, &xu_claims[k], f) : maxl;
        if (maxl == 0)
            continue;
        fprintf(md, "\n### %s\n\n| claim |", factor_name[f]);
        int tables = f == F_ORDER ? 2 : 1;
        for (int tb = 1; tb <= tables; tb++) {
            if (f == F_ORDER) {
                fprintf(md, "%s", tb == 1 ? "" : "\n| claim |");
                maxl = tb == 1 ? s->norders[0] : s->norders[1];
            }
            for (int l = 0; l < maxl; l++) {
                char name[32];
                level_name(s, f, l, name, sizeof name, f == F_ORDER ? tb : 1);
                fprintf(md, " %s |", name);
            }
            fprintf(md, " spread |\n|---|");
            for (int l = 0; l <= maxl; l++)
                fprintf(md, "---|");
            fprintf(md, "\n");
            for (int k = 0; k < n; k++) {
                const xu_claim *cl = &xu_claims[k];
                if (levels(s, cl, f) == 0 || (f == F_ORDER && cl->table != tb))
                    continue;
                fprintf(md, "| %s |", cl->name);
                for (int l = 0; l < maxl; l++) {
                    tally t = cs[k].lev[f][l];
                    if (t.n)
                        fprintf(md, " %.0f%% |", 100 * share(t));
                    else
                        fprintf(md, " – |");
                }
                fprintf(md, isnan(cs[k].spread[f]) ? " – |\n" : " %.0f |\n",
                        100 * cs[k].spread[f]);
            }
            if (f == F_ORDER && tb == 1)
                fprintf(md, "\nTable 1's orders: the extra processes on w1, w2, w3, w4 "
                        "(3210: the paper's). Table 2's: where the fast host is.\n");
        }
    }
    fprintf(md, "\nSpread: the largest minus the smallest share held over the factor's "
            "levels, in percentage points. eta²: the share of the variance of 'held' "
            "(1 or 0 over the readings) that the factor's levels explain, sum over the "
            "levels of n_l (p_l - p)² over N p (1 - p); the deciding factor is the "
            "claim's largest. Every run: readings-runs.csv; every claim on every "
            "reading: readings-claims.csv.\n");
    free(cs);
}

/* readings.dat: the figure's cells, "x y share" with the claims as rows and
 * the levels (all, then each factor's) as columns (NaN: the factor does not
 * apply to the claim); readings-x.dat and readings-y.dat: their labels;
 * readings-groups.dat: each factor's columns, "middle y_label first-0.5
 * name". Orders are two columns: the paper's and the others together. */
static void write_dat(const sweep *s, FILE *dat, FILE *xt, FILE *yt, FILE *gr)
{
    int n = xu_claims_count();
    claim_sum *cs = calloc((size_t)n, sizeof *cs);
    if (!cs)
        return;
    for (int k = 0; k < n; k++)
        summarise(s, k, &cs[k]);
    int x = 0;
    fprintf(xt, "%d \"all readings\"\n", x);
    for (int k = 0; k < n; k++)
        fprintf(dat, "%d %d %.4f\n", x, n - 1 - k, share(cs[k].all));
    for (int f = 0; f < NFACTOR; f++) {
        int first = x + 1;
        int maxl = f == F_ORDER ? 2 : 0;
        for (int k = 0; k < n && f != F_ORDER; k++)
            maxl = levels(s, &xu_claims[k], f) > maxl ? levels(s, &xu_claims[k], f) : maxl;
        if (maxl == 0 || (f == F_EXTRA && maxl < 2))
            continue;
        for (int l = 0; l < maxl; l++) {
            char name[32];
            x++;
            if (f == F_ORDER)
                snprintf(name, sizeof name, "%s", l == 0 ? "paper's order" : "other orders");
            else
                level_name(s, f, l, name, sizeof name, 1);
            fprintf(xt, "%d \"%s\"\n", x, name);
            for (int k = 0; k < n; k++) {
                tally t = {0, 0};
                if (f == F_ORDER) {
                    int nl = levels(s, &xu_claims[k], f);
                    for (int m = l == 0 ? 0 : 1; m < (l == 0 ? (nl > 0) : nl); m++) {
                        t.held += cs[k].lev[f][m].held;
                        t.n += cs[k].lev[f][m].n;
                    }
                } else if (l < levels(s, &xu_claims[k], f))
                    t = cs[k].lev[f][l];
                fprintf(dat, t.n ? "%d %d %.4f\n" : "%d %d NaN\n", x, n - 1 - k, share(t));
            }
        }
        /* the group: its name above its columns' middle, a line before it */
        fprintf(gr, "%.1f %.2f %.1f \"%s\"\n", (first + x) / 2.0, n - 0.5 + 0.35,
                first - 0.5, factor_name[f]);
    }
    for (int k = 0; k < n; k++)
        fprintf(yt, "%d \"%s\"\n", n - 1 - k, xu_claims[k].name);
    free(cs);
}

/* ---- the program --------------------------------------------------------------- */

static void usage(FILE *f)
{
    fprintf(f,
"usage: readings --out DIR [options]\n"
"\n"
"Xu & Chronopoulos's claims (Tables 1-2, the load arriving mid-run: the\n"
"claims of sched/records/claims.c) checked on the simulator under every\n"
"reading of what the paper leaves open, each factor's marginal effect and\n"
"the factor that decides each claim (sim/readings.c says why each is a\n"
"factor).\n"
"Writes into DIR (which must exist): readings.md (the claims, held in X of Y\n"
"readings, the marginal effects), readings-runs.csv (every simulated run),\n"
"readings-claims.csv (every claim on every reading), readings.dat,\n"
"readings-x.dat, readings-y.dat, readings-groups.dat (the figure's cells and\n"
"labels: scripts/reproduce-readings draws it).\n"
"\n"
"options (LIST: values separated by commas):\n"
"  -o, --out DIR         where the files go\n"
"      --loops LIST      rows,columns (default both)\n"
"  -R, --sample LIST     sampling frequencies (default 1,2,4,8,16,32)\n"
"      --F LIST          DTSS's first chunk: a (I/2A, eq. 1), p (I/2P); default a,p\n"
"  -m, --maxiter LIST    (default 1000,4000,20000)\n"
"      --orders all|paper  every placement of the loads (default) or the paper's\n"
"      --w4-extra LIST   Table 2's extra processes on the fast host (default 5)\n"
"  -S, --size N          the image, N x N (default 1200)\n"
"      --rate R          cost units (escape iterations) a second of a whole core\n"
"                        (default 1.4e8; bin/mandel prints this machine's)\n"
"      --midrun-at X     the mid-run load at X x DTSS's dedicated finish (0.3)\n"
"  -q, --quiet           no progress (shown on a terminal only, on stderr)\n"
"  -h, --help            this help\n"
"Ctrl-C stops the sweep and leaves no file in DIR (exit status 130).\n"
"exit status: 0 done; 1 a run or an output failed (said; no part of a file is\n"
"left); 2 a bad option or value\n");
}

/* Parses a comma-separated list of integers in [lo, hi] into out. */
static int long_list(const char *opt, const char *arg, long lo, long hi, long *out, int *n)
{
    double v[MAXL];
    int k = parse_double_list(arg, v, MAXL);
    if (k < 1)
        return fail("%s '%s' must be a list of at most %d integers", opt, quote(arg), MAXL);
    for (int i = 0; i < k; i++)
        if (parse_whole(v[i], lo, hi, &out[i]) != 0)
            return fail("%s '%s': %g is not an integer in [%ld, %ld]", opt, quote(arg), v[i], lo, hi);
    *n = k;
    return 0;
}

/* "rows,columns" or "a,p" into codes 0/1, each at most once. */
static int pair_list(const char *opt, const char *arg, const char *n0, const char *n1,
                     int *out, int *n)
{
    char buf[64];
    if (strlen(arg) >= sizeof buf)
        return fail("%s '%s' is too long", opt, quote(arg));
    snprintf(buf, sizeof buf, "%s", arg);
    *n = 0;
    for (char *save = NULL, *t = strtok_r(buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
        int v = strcmp(t, n0) == 0 ? 0 : strcmp(t, n1) == 0 ? 1 : -1;
        if (v < 0 || *n == 2 || (*n == 1 && out[0] == v))
            return fail("%s '%s' must be %s, %s or both, each once", opt, quote(arg), n0, n1);
        out[(*n)++] = v;
    }
    return *n ? 0 : fail("%s '%s' must be %s, %s or both", opt, quote(arg), n0, n1);
}

static int parse_args(options *o, int argc, char **argv)
{
    enum { O_LOOPS = 1000, O_F, O_ORDERS, O_EXTRA, O_RATE, O_MIDRUN };
    static const struct option opts[] = {
        {"out", required_argument, NULL, 'o'},
        {"loops", required_argument, NULL, O_LOOPS},
        {"sample", required_argument, NULL, 'R'},
        {"F", required_argument, NULL, O_F},
        {"maxiter", required_argument, NULL, 'm'},
        {"orders", required_argument, NULL, O_ORDERS},
        {"w4-extra", required_argument, NULL, O_EXTRA},
        {"size", required_argument, NULL, 'S'},
        {"rate", required_argument, NULL, O_RATE},
        {"midrun-at", required_argument, NULL, O_MIDRUN},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    *o = (options){.loops = {0, 1}, .nloops = 2, .R = {1, 2, 4, 8, 16, 32}, .nR = 6,
                   .F = {0, 1}, .nF = 2, .maxiter = {1000, 4000, 20000}, .nmaxiter = 3,
                   .extra = {5}, .nextra = 1, .all_orders = 1, .size = 1200,
                   .rate = 1.4e8, .midrun_at = 0.3};
    int c, rc = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:R:m:S:qh", opts, NULL)) != -1 && !rc) {
        switch (c) {
        case 'o': o->out = optarg; break;
        case O_LOOPS: rc = pair_list("--loops", optarg, "rows", "columns", o->loops, &o->nloops); break;
        case 'R': rc = long_list("--sample", optarg, 1, 1000000, o->R, &o->nR); break;
        case O_F: rc = pair_list("--F", optarg, "a", "p", o->F, &o->nF); break;
        case 'm': rc = long_list("--maxiter", optarg, 1, UINT32_MAX, o->maxiter, &o->nmaxiter); break;
        case O_EXTRA: rc = long_list("--w4-extra", optarg, 0, 1000, o->extra, &o->nextra); break;
        case O_ORDERS:
            if (strcmp(optarg, "all") != 0 && strcmp(optarg, "paper") != 0)
                rc = fail("--orders '%s' must be all or paper", quote(optarg));
            o->all_orders = strcmp(optarg, "all") == 0;
            break;
        case 'S':
            if (parse_long_in(optarg, 1, 8192, &o->size) != 0)
                rc = fail("--size '%s' must be an integer in [1, 8192]", quote(optarg));
            break;
        case O_RATE:
            if (parse_double(optarg, &o->rate) != 0 || !(o->rate > 0) || o->rate > 1e15)
                rc = fail("--rate '%s' must be a number of cost units a second in (0, 1e15]",
                          quote(optarg));
            break;
        case O_MIDRUN:
            if (parse_double(optarg, &o->midrun_at) != 0 || !(o->midrun_at >= 0) ||
                o->midrun_at > 10)
                rc = fail("--midrun-at '%s' must be a number in [0, 10]", quote(optarg));
            break;
        case 'q': o->quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default: return parse_getopt_error(PROG, c, argv);
        }
    }
    if (rc)
        return rc;
    if (optind < argc)
        return fail("unexpected argument '%s' (try --help)", quote(argv[optind]));
    if (!o->out)
        return fail("need --out DIR (try --help)");
    for (int i = 0; i < o->nR; i++)
        if (o->R[i] > o->size)
            return fail("--sample %ld is more than the image's %ld lines", o->R[i], o->size);
    return -1;
}

/* The output files, each written whole or not at all. */
enum { OUT_RUNS, OUT_CLAIMS, OUT_MD, OUT_DAT, OUT_X, OUT_Y, OUT_GROUPS, NOUT };
static const char *const out_name[NOUT] = {
    "readings-runs.csv", "readings-claims.csv", "readings.md", "readings.dat",
    "readings-x.dat", "readings-y.dat", "readings-groups.dat"
};

int main(int argc, char **argv)
{
    options o;
    closeout_init(PROG);
    int rc = parse_args(&o, argc, argv);
    if (rc >= 0)
        return rc;
    parse_gsl_errors(PROG, 1);
    static sweep s;
    s.o = &o;
    make_orders(&s);
    progress_interrupt(PROG, "no file written in the output folder");
    progress pr;
    progress_start(&pr, PROG, !o.quiet);
    static char path[NOUT][4200];
    char msg[512];
    static outfile out[NOUT];
    for (int i = 0; i < NOUT; i++) {
        snprintf(path[i], sizeof path[i], "%s/%s", o.out, out_name[i]);
        if (strlen(o.out) > 4000 || outfile_open(&out[i], path[i], "w") != 0) {
            if (strlen(o.out) > 4000)
                errno = ENAMETOOLONG;
            fprintf(stderr, PROG ": %s\n", outfile_msg(msg, sizeof msg, path[i], NULL, errno));
            for (int j = 0; j < i; j++)
                outfile_abort(&out[j]);     /* the new files go, none is kept */
            return 1;
        }
    }
    rc = 0;
    s.runs = out[OUT_RUNS].f;
    s.claims = out[OUT_CLAIMS].f;
    fprintf(s.runs, "case,scheme,loop,R,F,maxiter,order,w4_extra,finish,imbalance,replans,chunks\n");
    fprintf(s.claims, "claim,loop,R,F,maxiter,order,w4_extra,held,value\n");
    long readings = (long)o.nloops * o.nmaxiter * o.nR * o.nF, done = 0;
    for (int li = 0; li < o.nloops && !rc; li++)
        for (int mi = 0; mi < o.nmaxiter && !rc; mi++) {
            char line[128];
            snprintf(line, sizeof line, "mandel size=%ld maxiter=%ld loop=%s", o.size,
                     o.maxiter[mi], o.loops[li] ? "columns" : "rows");
            if (pr.on)
                progress_show(&pr, "%ld of %ld readings done; the costs of %s", done,
                              readings, line);
            sim_workload base;
            if (sim_workload_parse(&base, line, 1, NULL, msg, sizeof msg) != 0) {
                fprintf(stderr, PROG ": %s\n", msg);
                rc = 1;
                break;
            }
            for (int ri = 0; ri < o.nR && !rc; ri++) {
                sim_workload wl = base;
                wl.prefix = malloc(sizeof *wl.prefix * ((size_t)base.n + 1));
                if (!wl.prefix) {
                    fprintf(stderr, PROG ": out of memory\n");
                    rc = 1;
                    break;
                }
                memcpy(wl.prefix, base.prefix, sizeof *wl.prefix * ((size_t)base.n + 1));
                if (sim_workload_sample(&wl, (int)o.R[ri], msg, sizeof msg) != 0) {
                    fprintf(stderr, PROG ": %s\n", msg);
                    rc = 1;
                }
                for (int fi = 0; fi < o.nF && !rc; fi++) {
                    reading rd = {li, ri, fi, mi, &wl, 4.0 * (double)o.size};
                    if (table1(&s, &rd, msg, sizeof msg) != 0 ||
                        table2(&s, &rd, msg, sizeof msg) != 0) {
                        fprintf(stderr, PROG ": %s\n", msg);
                        rc = 1;
                    }
                    done++;
                }
                sim_workload_free(&wl);
                if (!rc)
                    progress_show(&pr, "%ld of %ld readings done", done, readings);
            }
            sim_workload_free(&base);
        }
    progress_end(&pr);
    if (!rc) {
        write_md(&s, out[OUT_MD].f);
        write_dat(&s, out[OUT_DAT].f, out[OUT_X].f, out[OUT_Y].f, out[OUT_GROUPS].f);
    }
    for (int i = 0; i < NOUT; i++) {
        const char *call;
        if (rc)                             /* nothing half made is kept */
            outfile_abort(&out[i]);
        else if (outfile_close(&out[i], &call) != 0) {
            fprintf(stderr, PROG ": %s\n", outfile_msg(msg, sizeof msg, path[i], call, errno));
            rc = 1;
        }
    }
    free(s.v);
    return rc;
}
