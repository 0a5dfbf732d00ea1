/* claims.c: Xu & Chronopoulos's claims (Sec. 6, Tables 1-2; Sec. 3.2) as
 * checks on run results (claims.h).
 *
 *   Table 1 (TSS vs DTSS, four equal workstations; Sec. 6: "in (a), DTSS and
 *   TSS have almost the same results. However, in (b) ... TSS produced a
 *   large load imbalance, while DTSS still balances very well"):
 *     dedicated: the finish times within 10% of each other (29 vs 28 s);
 *     not dedicated: DTSS finishes first (53 vs 65 s), its imbalance at most
 *     10% of its finish (3 of 53 s), TSS's imbalance at least 3x DTSS's
 *     (19 vs 3 s).
 *   Table 2 (Tree-Scheduling vs DTSS, one workstation six times faster; "In
 *   (a), Tree-Scheduling yields a very good result ... evident in (b) ...
 *   DTSS still balances well"):
 *     dedicated: Tree at least as fast as DTSS (12 vs 16 s), DTSS's and
 *     Tree's imbalance at most 10% of their finish (both 0 s);
 *     not dedicated: Tree's finish at least 2x DTSS's (86 vs 31 s), DTSS's
 *     imbalance at most 10% of its finish (0 s).
 *   Sec. 3.2 and 5.3 (the load arriving during the run): DTSS re-plans at
 *   least once and finishes before TSS.
 */
#include <math.h>
#include <string.h>

#include "sched/records/claims.h"

static int within_10pct(const xu_result *o, const xu_result *d, double *v)
{
    double lo = fmin(o->finish, d->finish);
    *v = lo > 0 ? fabs(o->finish - d->finish) / lo : INFINITY;
    return *v <= 0.10;
}

static int dtss_faster(const xu_result *o, const xu_result *d, double *v)
{
    *v = d->finish / o->finish;
    return d->finish < o->finish;
}

static int dtss_balanced(const xu_result *o, const xu_result *d, double *v)
{
    (void)o;
    *v = d->imbalance / d->finish;
    return d->imbalance <= 0.10 * d->finish;
}

static int other_balanced(const xu_result *o, const xu_result *d, double *v)
{
    (void)d;
    *v = o->imbalance / o->finish;
    return o->imbalance <= 0.10 * o->finish;
}

static int imbalance_3x(const xu_result *o, const xu_result *d, double *v)
{
    *v = d->imbalance > 0 ? o->imbalance / d->imbalance : INFINITY;
    return o->imbalance >= 3 * d->imbalance;
}

static int other_not_slower(const xu_result *o, const xu_result *d, double *v)
{
    *v = o->finish / d->finish;
    return o->finish <= d->finish;
}

static int other_2x(const xu_result *o, const xu_result *d, double *v)
{
    *v = o->finish / d->finish;
    return o->finish >= 2 * d->finish;
}

static int replans_and_wins(const xu_result *o, const xu_result *d, double *v)
{
    *v = d->finish / o->finish;
    return d->replans >= 1 && d->finish < o->finish;
}

const xu_claim xu_claims[] = {
    {"t1-ded-same", 1, XU_DEDICATED,
     "Table 1 dedicated: TSS and DTSS finish within 10% of each other",
     "|TSS - DTSS| / the faster", within_10pct},
    {"t1-load-faster", 1, XU_LOADED,
     "Table 1 not dedicated: DTSS finishes before TSS",
     "DTSS / TSS finish", dtss_faster},
    {"t1-load-dtss-balanced", 1, XU_LOADED,
     "Table 1 not dedicated: DTSS's imbalance at most 10% of its finish",
     "DTSS imbalance / finish", dtss_balanced},
    {"t1-load-tss-3x", 1, XU_LOADED,
     "Table 1 not dedicated: TSS's imbalance at least 3x DTSS's",
     "TSS / DTSS imbalance", imbalance_3x},
    {"t2-ded-tree-faster", 2, XU_DEDICATED,
     "Table 2 dedicated: Tree at least as fast as DTSS",
     "Tree / DTSS finish", other_not_slower},
    {"t2-ded-dtss-balanced", 2, XU_DEDICATED,
     "Table 2 dedicated: DTSS's imbalance at most 10% of its finish",
     "DTSS imbalance / finish", dtss_balanced},
    {"t2-ded-tree-balanced", 2, XU_DEDICATED,
     "Table 2 dedicated: Tree's imbalance at most 10% of its finish",
     "Tree imbalance / finish", other_balanced},
    {"t2-load-tree-2x", 2, XU_LOADED,
     "Table 2 not dedicated: Tree's finish at least 2x DTSS's",
     "Tree / DTSS finish", other_2x},
    {"t2-load-dtss-balanced", 2, XU_LOADED,
     "Table 2 not dedicated: DTSS's imbalance at most 10% of its finish",
     "DTSS imbalance / finish", dtss_balanced},
    {"midrun-replans-wins", 1, XU_MIDRUN,
     "Load arriving mid-run: DTSS re-plans and finishes before TSS",
     "DTSS / TSS finish", replans_and_wins},
    {NULL, 0, 0, NULL, NULL, NULL}
};

int xu_claims_count(void)
{
    int n = 0;
    while (xu_claims[n].name)
        n++;
    return n;
}

const xu_claim *xu_claim_find(const char *name)
{
    for (const xu_claim *c = xu_claims; c->name; c++)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}
