/* claims.h: the claims of Xu & Chronopoulos Sec. 6, as checks on run results.
 *
 * The paper's Tables 1 and 2 and its Sec. 3.2 say what DTSS does better than
 * TSS and Tree-Scheduling; each claim here is one such statement turned into
 * a test on two results of the same case (the paper gives no thresholds: the
 * 10% and the factors 2 and 3 are ours, written where the paper's numbers
 * pass them by far: Table 1 not dedicated, TSS's imbalance 19 s against
 * DTSS's 3 s; Table 2 not dedicated, Tree 86 s against DTSS 31 s). One
 * definition for every consumer: bin/tabulate (the emulated tables' "expected
 * shape") and bin/readings (the claims over every reading of the paper).
 *
 * A claim compares 'other' (TSS on Table 1, Tree-Scheduling on Table 2) with
 * DTSS in one case: dedicated, not dedicated (the load from the start), or
 * the load arriving mid-run.
 */
#ifndef CLAIMS_H
#define CLAIMS_H

typedef enum { XU_DEDICATED, XU_LOADED, XU_MIDRUN } xu_case;

/* What a claim reads of a run (a mean over runs, for the emulated tables). */
typedef struct xu_result {
    double finish, imbalance;   /* seconds */
    double replans;             /* DTSS re-plans */
} xu_result;

typedef struct xu_claim {
    const char *name;           /* short, for files: "t1-load-faster" */
    int table;                  /* 1 (TSS vs DTSS) or 2 (Tree vs DTSS) */
    xu_case scase;
    const char *text;           /* one line, what the paper says */
    const char *value_text;     /* what value (below) measures */
    /* 1 if the claim holds for the results of 'other' and DTSS in the same
     * case, else 0; *value the quantity the claim is about (a ratio). */
    int (*held)(const xu_result *other, const xu_result *dtss, double *value);
} xu_claim;

/* Every claim, in the paper's order; the list ends with a NULL name. */
extern const xu_claim xu_claims[];
/* The number of claims in xu_claims. */
int xu_claims_count(void);
/* A claim by name, or NULL. */
const xu_claim *xu_claim_find(const char *name);

#endif
