/* test_heat.c: the heat plate (heat/): steps worked by hand, exact
 * symmetries, the maximum principle, the discrete steady state, strips and
 * random re-cuts bit for bit the sequential run, the transfers of a re-cut
 * carried out on the rows' owners, load-balancing plans read as re-cuts,
 * the checksum, and the errors (each naming the bad value). Random cases
 * from GSL's mt19937 with fixed seeds. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "heat/heat.h"
#include "sched/fnv.h"
#include "tests/test.h"

/* ---- helpers ---------------------------------------------------------------- */

static heat_plate plate(int nx, int ny, double r)
{
    heat_plate p;
    sched_err err;
    if (heat_plate_init(&p, nx, ny, r, &err) != SCHED_OK) {
        printf("FAIL heat_plate_init(%d, %d, %g): %s\n", nx, ny, r, err.msg);
        exit(1);
    }
    return p;
}

static double *field(const heat_plate *p)
{
    sched_err err;
    double *u = heat_field_new(p, &err);
    if (!u) {
        printf("FAIL %s\n", err.msg);
        exit(1);
    }
    return u;
}

static int same(const heat_plate *p, const double *a, const double *b)
{
    return memcmp(a, b, (size_t)p->nx * p->ny * sizeof *a) == 0;
}

static double cell(const heat_plate *p, const double *u, int i, int j)
{
    return u[(size_t)i * p->nx + j];
}

static int uniform_int(gsl_rng *rng, int lo, int hi)       /* lo .. hi */
{
    return lo + (int)gsl_rng_uniform_int(rng, (unsigned long)(hi - lo + 1));
}

/* A random plate: sides 1..maxside, r one of the exact values or any in
 * (0, 1/4], edges random in [-50, 150]. */
static heat_plate random_plate(gsl_rng *rng, int maxx, int maxy)
{
    static const double rs[] = {0.25, 0.2, 0.125, 0.1};
    int k = uniform_int(rng, 0, 4);
    double r = k < 4 ? rs[k] : 0.25 * (1.0 - gsl_rng_uniform(rng));  /* (0, 1/4] */
    heat_plate p = plate(uniform_int(rng, 1, maxx), uniform_int(rng, 1, maxy), r);
    p.top = -50 + 200 * gsl_rng_uniform(rng);
    p.bottom = -50 + 200 * gsl_rng_uniform(rng);
    p.left = -50 + 200 * gsl_rng_uniform(rng);
    p.right = -50 + 200 * gsl_rng_uniform(rng);
    return p;
}

/* P random counts >= 1 summing to n (P <= n). */
static void random_counts(gsl_rng *rng, int n, int P, int *count)
{
    for (int i = 0; i < P; i++)
        count[i] = 1;
    for (int k = P; k < n; k++)
        count[uniform_int(rng, 0, P - 1)]++;
}

/* ---- known answers ---------------------------------------------------------------- */

static void test_known(void)
{
    /* Worked by hand: 3 x 3, top edge 100, the others 0, r = 1/4, from 0.
     * Step 1: every top-row cell has u = 0, N = 100 (the edge), S = E = W =
     * 0: 0 + 1/4 ((100 + 0) + (0 + 0) - 0) = 25; the other rows see only
     * zeros: 0. Step 2, top row, (0,0): u = 25, N = 100, S = 0, E = 25, W = 0
     * (left edge): 25 + 1/4 ((100 + 0) + (25 + 0) - 100) = 31.25; (0,1): E =
     * W = 25: 25 + 1/4 (100 + 50 - 100) = 37.5; (0,2) mirrors (0,0): 31.25.
     * Middle row, each: u = 0, N = 25, the rest 0: 1/4 25 = 6.25. Bottom row:
     * N = 0: 0. Every number is exact in binary. */
    heat_plate p = plate(3, 3, 0.25);
    double *u = field(&p), *v = field(&p);
    heat_step(&p, u, v);
    const double one[9] = {25, 25, 25, 0, 0, 0, 0, 0, 0};
    test_cond("3x3, r 1/4, one step: top row 25 25 25, the rest 0 (by hand)",
              memcmp(v, one, sizeof one) == 0);
    heat_step(&p, v, u);
    const double two[9] = {31.25, 37.5, 31.25, 6.25, 6.25, 6.25, 0, 0, 0};
    test_cond("3x3, r 1/4, two steps: 31.25 37.5 31.25 / 6.25 x3 / 0 x3 (by hand)",
              memcmp(u, two, sizeof two) == 0);
    memset(u, 0, 9 * sizeof *u);
    sched_err err;
    test_cond("heat_run 2 steps = the same", heat_run(&p, u, 2, &err) == SCHED_OK &&
                                             memcmp(u, two, sizeof two) == 0);
    test_cond("heat_run 0 steps: unchanged", heat_run(&p, u, 0, &err) == SCHED_OK &&
                                             memcmp(u, two, sizeof two) == 0);
    free(u);
    free(v);

    /* Worked by hand, each edge its own value: 2 x 2, top 16, bottom 8, left
     * 4, right 0, r = 1/8, from u = 8 0 / 0 0.
     *   (0,0): u 8, N 16 (top), S 0, E 0, W 4 (left): 8 + ((16+0) + (0+4) - 32)/8
     *          = 8 - 12/8 = 6.5
     *   (0,1): u 0, N 16, S 0, E 0 (right), W 8: (16 + 8)/8 = 3
     *   (1,0): u 0, N 8, S 8 (bottom), E 0, W 4 (left): (16 + 4)/8 = 2.5
     *   (1,1): u 0, N 0, S 8 (bottom), E 0 (right), W 0: 8/8 = 1 */
    p = plate(2, 2, 0.125);
    p.top = 16, p.bottom = 8, p.left = 4, p.right = 0;
    double a[4] = {8, 0, 0, 0}, b[4];
    heat_step(&p, a, b);
    const double want[4] = {6.5, 3, 2.5, 1};
    test_cond("2x2, four edges 16/8/4/0, r 1/8, one step: 6.5 3 / 2.5 1 (by hand)",
              memcmp(b, want, sizeof want) == 0);

    /* One cell, all four edges around it: u' = 0 + r (top + bottom + left +
     * right) with r = 1/4 and 100, 0, 0, 0: 25. */
    p = plate(1, 1, 0.25);
    a[0] = 0;
    heat_step(&p, a, b);
    test_cond("1x1: 1/4 (100 + 0 + 0 + 0) = 25", b[0] == 25);

    /* The bytes and the checksum: FNV-1a 64's published values (Fowler,
     * Noll, Vo: "" -> the offset basis, "a" -> af63dc4c8601ec8c); 1.0 is
     * 3ff0000000000000, written low byte first. */
    test_cond("fnv1a(\"\") = 14695981039346656037", fnv1a(FNV1A_BASIS, "", 0) ==
                                                     14695981039346656037ULL);
    test_cond("fnv1a(\"a\") = af63dc4c8601ec8c", fnv1a(FNV1A_BASIS, "a", 1) ==
                                                   0xaf63dc4c8601ec8cULL);
    p = plate(2, 1, 0.25);
    a[0] = 1.0, a[1] = -2.0;
    unsigned char by[16];
    heat_field_bytes(&p, a, by);
    const unsigned char wantb[16] = {0, 0, 0, 0, 0, 0, 0xf0, 0x3f,
                                     0, 0, 0, 0, 0, 0, 0x00, 0xc0};
    test_cond("field bytes: 1.0 and -2.0 as little-endian binary64",
              memcmp(by, wantb, 16) == 0);
    test_cond("checksum = fnv1a of the field bytes",
              heat_checksum(&p, a) == fnv1a(FNV1A_BASIS, wantb, 16));

    /* A golden checksum (tests/heat.sh has it too): the default plate, 64 x
     * 48, r 0.2, 500 steps. gcc -O2 and clang -O2 -march=haswell give it
     * with -ffp-contract=off; clang -march=haswell with its default
     * contraction (fused multiply-adds) gives ce97912bbc795e49 instead. */
    p = plate(64, 48, 0.2);
    u = field(&p);
    heat_run(&p, u, 500, NULL);
    test_condf(heat_checksum(&p, u) == 0xbc059d4f7c98a1ddULL,
               "golden: 64 x 48, r 0.2, 500 steps: checksum bc059d4f7c98a1dd (%016llx)",
               (unsigned long long)heat_checksum(&p, u));
    free(u);
}

/* ---- properties of the scheme ------------------------------------------------------- */

static void test_symmetry(void)
{
    /* The sums are paired, (N + S) + (E + W): a mirror swaps the two terms
     * of a pair, and + commutes exactly, so a symmetric plate's field is
     * symmetric to the bit (heat.h). */
    heat_plate p = plate(17, 12, 0.2);
    p.top = 100, p.bottom = 10, p.left = p.right = 30;
    double *u = field(&p);
    heat_run(&p, u, 150, NULL);
    int ok = 1;
    for (int i = 0; i < p.ny; i++)
        for (int j = 0; j < p.nx; j++)
            ok &= memcmp(&u[i * p.nx + j], &u[i * p.nx + p.nx - 1 - j], sizeof *u) == 0;
    test_cond("left edge = right edge: the field mirrors left-right, bit for bit", ok);
    int differs = 0;
    for (int j = 0; j < p.nx; j++)
        differs |= cell(&p, u, 0, j) != cell(&p, u, p.ny - 1, j);
    test_cond("top != bottom: the field does not mirror top-bottom", differs);
    free(u);

    p = plate(10, 15, 0.1);
    p.top = p.bottom = 100, p.left = p.right = 0;
    u = field(&p);
    heat_run(&p, u, 77, NULL);
    ok = 1;
    for (int i = 0; i < p.ny; i++)
        for (int j = 0; j < p.nx; j++)
            ok &= memcmp(&u[i * p.nx + j], &u[(p.ny - 1 - i) * p.nx + j], sizeof *u) == 0 &&
                  memcmp(&u[i * p.nx + j], &u[i * p.nx + p.nx - 1 - j], sizeof *u) == 0;
    test_cond("top = bottom, left = right: both mirrors, bit for bit", ok);
    free(u);

    /* The transpose swaps N with W and S with E: (N + S) + (E + W) becomes
     * (W + E) + (S + N), the same double. */
    p = plate(13, 13, 0.23);
    p.top = p.left = 100, p.bottom = p.right = -20;
    u = field(&p);
    heat_run(&p, u, 90, NULL);
    ok = 1;
    for (int i = 0; i < p.ny; i++)
        for (int j = 0; j < p.nx; j++)
            ok &= memcmp(&u[i * p.nx + j], &u[j * p.nx + i], sizeof *u) == 0;
    test_cond("square, top = left, bottom = right: the field is its transpose", ok);
    free(u);
}

/* Runs 'steps' steps of p from all 0; 1 when every value after every step
 * is in [lo, hi]. */
static int stays_within(const heat_plate *p, int steps, double lo, double hi)
{
    double *u = field(p), *v = field(p);
    int ok = 1;
    for (int k = 0; k < steps; k++) {
        heat_step(p, u, v);
        double *t = u;
        u = v;
        v = t;
        for (int i = 0; i < p->nx * p->ny; i++)
            ok &= u[i] >= lo && u[i] <= hi;
    }
    free(u);
    free(v);
    return ok;
}

static void test_maximum_principle(gsl_rng *rng)
{
    /* For r <= 1/4, u' is a convex combination of u and its neighbours, so
     * every value stays in [min, max] of the initial field (0) and the edges.
     * In floating point too, exactly, for the default plate (edges 0 and
     * 100): the values stay >= 0 (r (S - 4u) >= -u, rounded monotonically)
     * and <= 100 (u + r (S - 4u) <= u + fl(100 - u) = 100 + e, |e| at most
     * half an ulp of 100, which rounds back to 100, whose last bit is 0). For
     * random edges the check allows 1e-12 of the range. */
    heat_plate p = plate(31, 23, 0.25);
    test_cond("maximum principle, exactly: 0 <= u <= 100, 400 steps at r = 1/4",
              stays_within(&p, 400, 0, 100));
    int ok = 1;
    for (int c = 0; c < 40; c++) {
        p = random_plate(rng, 20, 20);
        double lo = fmin(0, fmin(fmin(p.top, p.bottom), fmin(p.left, p.right)));
        double hi = fmax(0, fmax(fmax(p.top, p.bottom), fmax(p.left, p.right)));
        double tol = 1e-12 * (hi - lo);
        ok &= stays_within(&p, 60, lo - tol, hi + tol);
    }
    test_cond("maximum principle: 40 random plates and edges, 60 steps each", ok);
}

static void test_steady_state(void)
{
    /* Laplace's equation on a square with one edge at 100 and three at 0:
     * the four rotations of the problem sum to the one with every edge at
     * 100, whose solution is 100 everywhere; so the mean, and the centre
     * (which every rotation fixes), are 25. The discrete problem has the same
     * symmetry. 21 x 21 at r = 0.2: the slowest mode decays as 1 - 8 r
     * sin^2(pi / 44) per step, 100 -> 1e-9 in ~3100 steps. */
    heat_plate p = plate(21, 21, 0.2);
    double *u = field(&p);
    heat_run(&p, u, 4000, NULL);
    double sum = 0;
    for (int i = 0; i < 21 * 21; i++)
        sum += u[i];
    test_condf(fabs(cell(&p, u, 10, 10) - 25) < 1e-8,
               "steady state, 21x21: the centre is 25 (%.12f)", cell(&p, u, 10, 10));
    test_condf(fabs(sum / 441 - 25) < 1e-8, "steady state, 21x21: the mean is 25 (%.12f)",
               sum / 441);
    free(u);
}

/* ---- strips ------------------------------------------------------------------------ */

/* The kernel on one strip, halos copied from the whole field, gives the
 * whole step's rows. */
static void test_kernel_strips(gsl_rng *rng)
{
    int ok = 1;
    for (int c = 0; c < 200; c++) {
        heat_plate p = random_plate(rng, 15, 15);
        size_t n = (size_t)p.nx * p.ny;
        double *u = malloc(n * sizeof *u), *v = malloc(n * sizeof *v);
        for (size_t i = 0; i < n; i++)
            u[i] = -50 + 200 * gsl_rng_uniform(rng);
        heat_step(&p, u, v);
        int row0 = uniform_int(rng, 0, p.ny - 1), rows = uniform_int(rng, 1, p.ny - row0);
        double *in = malloc((size_t)rows * p.nx * sizeof *in);
        double *out = malloc((size_t)rows * p.nx * sizeof *out);
        double *above = malloc((size_t)p.nx * sizeof *above);
        double *below = malloc((size_t)p.nx * sizeof *below);
        memcpy(in, u + (size_t)row0 * p.nx, (size_t)rows * p.nx * sizeof *in);
        if (row0 > 0)
            memcpy(above, u + (size_t)(row0 - 1) * p.nx, p.nx * sizeof *above);
        if (row0 + rows < p.ny)
            memcpy(below, u + (size_t)(row0 + rows) * p.nx, p.nx * sizeof *below);
        heat_rows(&p, row0, rows, row0 > 0 ? above : NULL, in,
                  row0 + rows < p.ny ? below : NULL, out);
        ok &= memcmp(out, v + (size_t)row0 * p.nx, (size_t)rows * p.nx * sizeof *out) == 0;
        free(u), free(v), free(in), free(out), free(above), free(below);
    }
    test_cond("heat_rows on a strip with copied halos = the whole step's rows (200 cases)",
              ok);
}

/* Carries out transfers on the rows' owners and checks everything the
 * header promises. Returns 1 when all holds. */
static int check_transfers(int P, const int *count, const int *target, const heat_transfer *t,
                           int n, char *why, size_t len)
{
    int rows = 0;
    for (int i = 0; i < P; i++)
        rows += count[i];
    int *owner = malloc((size_t)rows * sizeof *owner);
    int *start = malloc((size_t)rows * sizeof *start);   /* owners at the round's start */
    unsigned char used[HEAT_MAX_STRIPS], crossed[HEAT_MAX_STRIPS] = {0};
    int ok = 1;
    for (int i = 0, r = 0; i < P; i++)
        for (int k = 0; k < count[i]; k++)
            owner[r++] = i;
    memcpy(start, owner, (size_t)rows * sizeof *owner);
    memset(used, 0, sizeof used);
#define NO(...) do { snprintf(why, len, __VA_ARGS__); ok = 0; goto out; } while (0)
    if (n < 0 || n > P - 1)
        NO("%d transfers for %d nodes", n, P);
    for (int m = 0; m < n; m++) {
        const heat_transfer *x = &t[m];
        if (m == 0 ? x->round != 0 : x->round != t[m - 1].round &&
                                     x->round != t[m - 1].round + 1)
            NO("transfer %d: round %d after round %d", m, x->round, m ? t[m - 1].round : -1);
        if (m > 0 && x->round != t[m - 1].round) {
            memcpy(start, owner, (size_t)rows * sizeof *owner);
            memset(used, 0, sizeof used);
        }
        if (x->from < 0 || x->from >= P || x->to < 0 || x->to >= P ||
            abs(x->from - x->to) != 1)
            NO("transfer %d: %d -> %d are not neighbours", m, x->from, x->to);
        if (used[x->from] || used[x->to])
            NO("transfer %d: node %d or %d twice in round %d", m, x->from, x->to, x->round);
        used[x->from] = used[x->to] = 1;
        int b = x->from < x->to ? x->from : x->to;
        if (crossed[b]++)
            NO("transfer %d: boundary %d crossed twice", m, b);
        if (x->count < 1 || x->first < 0 || x->first + x->count > rows)
            NO("transfer %d: rows %d+%d", m, x->first, x->count);
        for (int r = x->first; r < x->first + x->count; r++)
            if (start[r] != x->from || owner[r] != x->from)
                NO("transfer %d: row %d is node %d's, not %d's", m, r, owner[r], x->from);
        for (int r = x->first; r < x->first + x->count; r++)
            owner[r] = x->to;
        for (int r = 0; r + 1 < rows; r++)         /* contiguous, in node order */
            if (owner[r] > owner[r + 1])
                NO("after transfer %d: row %d is node %d's, row %d node %d's", m, r,
                   owner[r], r + 1, owner[r + 1]);
    }
    for (int i = 0, r = 0; i < P; i++)
        for (int k = 0; k < target[i]; k++, r++)
            if (owner[r] != i)
                NO("at the end row %d is node %d's, not %d's", r, owner[r], i);
out:
#undef NO
    free(owner);
    free(start);
    return ok;
}

static void test_transfers(gsl_rng *rng)
{
    heat_transfer t[HEAT_MAX_STRIPS];
    sched_err err;
    char why[200];

    /* Worked by hand. 1,1,4 -> 4,1,1: boundaries 1,2 -> 4,5; node 1 holds
     * only row 1, so rows 2..4 first come up from node 2 (round 0), then
     * rows 1..3 go on to node 0 (round 1). */
    int c1[] = {1, 1, 4}, g1[] = {4, 1, 1};
    int n = heat_strips_transfers(3, c1, g1, t, &err);
    test_cond("1,1,4 -> 4,1,1: 2->1 rows 2..4 (round 0), then 1->0 rows 1..3 (round 1)",
              n == 2 && t[0].from == 2 && t[0].to == 1 && t[0].first == 2 &&
              t[0].count == 3 && t[0].round == 0 && t[1].from == 1 && t[1].to == 0 &&
              t[1].first == 1 && t[1].count == 3 && t[1].round == 1);
    /* 3,3,3,3 -> 2,4,4,2: boundary 0 3 -> 2 (row 2 down, 0->1), boundary 2
     * 9 -> 10 (row 9 up, 3->2): independent, one round. */
    int c2[] = {3, 3, 3, 3}, g2[] = {2, 4, 4, 2};
    n = heat_strips_transfers(4, c2, g2, t, &err);
    test_cond("3,3,3,3 -> 2,4,4,2: 0->1 row 2 and 3->2 row 9, both in round 0",
              n == 2 && t[0].from == 0 && t[0].to == 1 && t[0].first == 2 &&
              t[0].count == 1 && t[1].from == 3 && t[1].to == 2 && t[1].first == 9 &&
              t[1].count == 1 && t[0].round == 0 && t[1].round == 0);
    /* A chain: 1,1,1,1,4 -> 4,1,1,1,1 moves every boundary up by 3 and each
     * needs the next first: 4 rounds, 12 rows sent for 3 that end elsewhere. */
    int c3[] = {1, 1, 1, 1, 4}, g3[] = {4, 1, 1, 1, 1};
    n = heat_strips_transfers(5, c3, g3, t, &err);
    test_cond("1,1,1,1,4 -> 4,1,1,1,1: 4 transfers of 3 rows in 4 rounds, from the bottom",
              n == 4 && t[0].from == 4 && t[3].to == 0 && t[3].round == 3 &&
              t[0].count == 3 && t[3].count == 3 && t[3].first == 1);
    n = heat_strips_transfers(3, c1, c1, t, &err);
    test_cond("no change: no transfer", n == 0);
    n = heat_strips_transfers(1, c1 + 2, c1 + 2, t, &err);
    test_cond("one strip: no transfer", n == 0);
    /* Every boundary moving, none needing another (2,4,6,8 -> 1,5,7,9): the
     * even boundaries, then the odd ones. */
    int c4[] = {2, 2, 2, 2, 2}, g4[] = {1, 4, 2, 2, 1};
    n = heat_strips_transfers(5, c4, g4, t, &err);
    test_cond("2,2,2,2,2 -> 1,4,2,2,1: 4 transfers in 2 rounds, boundaries 0 2 then 1 3",
              n == 4 && t[0].round == 0 && t[1].round == 0 && t[2].round == 1 &&
              t[3].round == 1 && t[0].from == 0 && t[1].from == 3 && t[2].from == 2 &&
              t[3].from == 4 &&
              check_transfers(5, c4, g4, t, n, why, sizeof why));

    /* Random re-cuts, carried out on the owners of the rows: 2500 small
     * (up to 40 rows, 12 strips), 500 large (up to 3000 rows, 300 strips). */
    int ok = 1, cases = 0;
    static int count[HEAT_MAX_STRIPS], target[HEAT_MAX_STRIPS];
    for (int c = 0; c < 3000; c++) {
        int small = c < 2500, maxp = small ? 12 : 300;
        int rows = uniform_int(rng, 1, small ? 40 : 3000);
        int P = uniform_int(rng, 1, rows < maxp ? rows : maxp);
        random_counts(rng, rows, P, count);
        random_counts(rng, rows, P, target);
        n = heat_strips_transfers(P, count, target, t, &err);
        if (!check_transfers(P, count, target, t, n, why, sizeof why)) {
            if (ok)
                printf("     case %d (P %d, %d rows): %s\n", c, P, rows, why);
            ok = 0;
        }
        cases++;
    }
    test_condf(ok, "%d random re-cuts: rows conserved, strips contiguous and in order, "
               "every transfer's rows its sender's, one-port rounds, the targets reached",
               cases);
}

/* The strips run against the sequential run: random plates, cuts and re-cuts,
 * memcmp. */
static void test_strips_run(gsl_rng *rng)
{
    int ok = 1, cases = 0, recuts = 0;
    long rows_moved = 0;
    static int count[HEAT_MAX_STRIPS];
    sched_err err;
    for (int c = 0; c < 400; c++) {
        heat_plate p = random_plate(rng, 12, 30);
        int P = uniform_int(rng, 1, p.ny < 10 ? p.ny : 10);
        long steps = uniform_int(rng, 0, 40);
        int every = uniform_int(rng, 1, 7);
        double *u = field(&p), *w = field(&p);
        for (int i = 0; i < p.nx * p.ny; i++)        /* a random start */
            u[i] = w[i] = -50 + 200 * gsl_rng_uniform(rng);
        heat_run(&p, u, steps, &err);
        random_counts(rng, p.ny, P, count);
        heat_strips *s = heat_strips_new(&p, w, P, count, &err);
        if (!s) {
            printf("FAIL heat_strips_new: %s\n", err.msg);
            exit(1);
        }
        for (long done = 0; done < steps;) {
            long k = steps - done < every ? steps - done : every;
            heat_strips_step(s, k);
            done += k;
            random_counts(rng, p.ny, P, count);
            heat_moved mv;
            if (heat_strips_move(s, count, &mv, &err) != SCHED_OK) {
                if (ok)
                    printf("     case %d: %s\n", c, err.msg);
                ok = 0;
                break;
            }
            int now[HEAT_MAX_STRIPS];
            heat_strips_counts(s, now);
            ok &= memcmp(now, count, (size_t)P * sizeof *now) == 0;
            recuts++;
            rows_moved += mv.rows;
        }
        heat_strips_gather(s, w);
        if (!same(&p, u, w)) {
            if (ok)
                printf("     case %d: %d x %d, r %g, P %d, %ld steps differ\n", c, p.nx,
                       p.ny, p.r, P, steps);
            ok = 0;
        }
        heat_strips_free(s);
        free(u);
        free(w);
        cases++;
    }
    test_condf(ok, "strips re-cut at random = sequential, memcmp: %d plates, %d re-cuts, "
               "%ld rows moved", cases, recuts, rows_moved);

    /* Every strip one row (P = ny): each row computed alone. */
    heat_plate p = plate(9, 16, 0.25);
    double *u = field(&p), *w = field(&p);
    heat_run(&p, u, 33, &err);
    int ones[16];
    for (int i = 0; i < 16; i++)
        ones[i] = 1;
    heat_strips *s = heat_strips_new(&p, w, 16, ones, &err);
    heat_strips_step(s, 33);
    heat_strips_gather(s, w);
    test_cond("16 strips of one row = sequential", same(&p, u, w));
    const heat_strip *st = heat_strips_strip(s, 5);
    test_cond("strip 5 holds row 5", st->first == 5 && st->rows == 1);
    heat_strips_free(s);
    free(u);
    free(w);
}

/* ---- plans as re-cuts ---------------------------------------------------------------- */

static void test_from_plan(gsl_rng *rng)
{
    sched_err err;
    int target[8];
    /* By hand: a plan sending 3 tasks from node 0 to node 3 (5,2,2,2 ->
     * 2,2,2,5) becomes three boundary shifts, the rows handed on through
     * nodes 1 and 2: 3 transfers of 3 rows, 9 rows sent for 3 moved. */
    long rem[4] = {5, 2, 2, 2}, after[4] = {2, 2, 2, 5};
    lb_plan plan = {.nodes = 4, .remaining = rem, .after = after};
    int count[4] = {5, 2, 2, 2};
    int rc = heat_strips_from_plan(&plan, 4, count, target, &err);
    test_cond("plan 5,2,2,2 -> 2,2,2,5: the targets are after[]",
              rc == SCHED_OK && target[0] == 2 && target[3] == 5);
    heat_transfer t[4];
    int n = heat_strips_transfers(4, count, target, t, &err);
    test_cond("... 0->3 becomes 0->1, 1->2, 2->3 of 3 rows each, in 3 rounds",
              n == 3 && t[0].from == 0 && t[0].to == 1 && t[0].first == 2 &&
              t[1].from == 1 && t[1].to == 2 && t[1].first == 4 && t[2].from == 2 &&
              t[2].to == 3 && t[2].first == 6 && t[0].count + t[1].count + t[2].count == 9 &&
              t[2].round == 2);
    /* A node the plan empties keeps a row, taken from the node with the most
     * (the lower index on a tie): 0,5,8 -> node 2 gives one: 1,5,7. */
    long rem2[3] = {4, 4, 5}, after2[3] = {0, 5, 8};
    lb_plan plan2 = {.nodes = 3, .remaining = rem2, .after = after2};
    int count2[3] = {4, 4, 5};
    rc = heat_strips_from_plan(&plan2, 3, count2, target, &err);
    test_cond("after 0,5,8 -> targets 1,5,7 (a row from the node with the most)",
              rc == SCHED_OK && target[0] == 1 && target[1] == 5 && target[2] == 7);
    long after3[3] = {0, 0, 13};
    plan2.after = after3;
    rc = heat_strips_from_plan(&plan2, 3, count2, target, &err);
    test_cond("after 0,0,13 -> 1,1,11", rc == SCHED_OK && target[0] == 1 &&
                                        target[1] == 1 && target[2] == 11);

    /* Errors: the plan must be of these strips. */
    int bad[3] = {4, 5, 4};
    rc = heat_strips_from_plan(&plan2, 3, bad, target, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "remaining[1]=4 is not strip 1's 5 rows"),
               "a plan made from other counts: refused, named (%s)", err.msg);
    rc = heat_strips_from_plan(&plan, 3, count2, target, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "4 nodes, the strips 3"),
               "a plan of 4 nodes for 3 strips: refused (%s)", err.msg);
    long after4[3] = {0, 0, 12};
    plan2.after = after4;
    rc = heat_strips_from_plan(&plan2, 3, count2, target, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "sums to 12 rows, the strips hold 13"),
               "a plan whose after[] loses a row: refused (%s)", err.msg);
    rc = heat_strips_from_plan(NULL, 3, count2, target, &err);
    test_cond("no plan: refused", rc == SCHED_EINVAL);

    /* Every strategy's plans on random strips and rates: the targets are
     * >= 1, sum to the rows, and the strips re-cut to them give the
     * sequential field. */
    for (int k = 0; lb_types[k]; k++) {
        const lb_type *T = lb_types[k];
        int ok = 1, cases = 0, moved = 0;
        for (int c = 0; c < 100; c++) {
            heat_plate p = random_plate(rng, 8, 40);
            if (p.ny < 2)
                continue;
            int P = uniform_int(rng, 2, p.ny < 8 ? p.ny : 8);
            int cnt[8], tg[8];
            long rm[8], dn[8];
            random_counts(rng, p.ny, P, cnt);
            for (int i = 0; i < P; i++) {
                rm[i] = cnt[i];
                dn[i] = uniform_int(rng, 0, 3) ? uniform_int(rng, 1, 50) : 0;
            }
            lb_input in = {.nodes = P, .remaining = rm, .done = dn, .elapsed = 1.0,
                           .cost = gsl_rng_uniform(rng) * 0.01};
            lb_plan *pl = lb_plan_make(T, &in, &err);
            if (!pl || heat_strips_from_plan(pl, P, cnt, tg, &err) != SCHED_OK) {
                printf("     %s, case %d: %s\n", T->name, c, err.msg);
                ok = 0;
                lb_plan_free(pl);
                break;
            }
            int sum = 0;
            for (int i = 0; i < P; i++) {
                ok &= tg[i] >= 1 && (pl->after[i] == 0 || tg[i] <= pl->after[i]);
                sum += tg[i];
            }
            ok &= sum == p.ny;
            double *u = field(&p), *w = field(&p);
            heat_run(&p, u, 10, &err);
            heat_strips *s = heat_strips_new(&p, w, P, cnt, &err);
            heat_strips_step(s, 4);
            heat_moved mv;
            ok &= heat_strips_move(s, tg, &mv, &err) == SCHED_OK;
            heat_strips_step(s, 6);
            heat_strips_gather(s, w);
            ok &= same(&p, u, w);
            moved += mv.rows;
            heat_strips_free(s);
            free(u);
            free(w);
            lb_plan_free(pl);
            cases++;
        }
        test_condf(ok, "%d %s plans as re-cuts: targets >= 1 summing to the rows, the "
                   "field = sequential (%d rows moved)", cases, T->name, moved);
    }
}

/* ---- one strip's edges, and the errors ------------------------------------------- */

static void test_errors(void)
{
    heat_plate p;
    sched_err err;
    struct { int nx, ny; double r; const char *want; } bad[] = {
        {0, 5, 0.2, "nx=0 must be in 1..65536"},
        {5, 65537, 0.2, "ny=65537 must be in 1..65536"},
        {65536, 65536, 0.2, "65536 x 65536 = 4294967296 cells is over the limit"},
        {5, 5, 0, "r=0 must be in (0, 0.25]"},
        {5, 5, 0.3, "r=0.3 must be in (0, 0.25]"},
        {5, 5, -0.1, "r=-0.1 must be"},
        {5, 5, NAN, "r=nan must be"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        int rc = heat_plate_init(&p, bad[k].nx, bad[k].ny, bad[k].r, &err);
        test_condf(rc == SCHED_EINVAL && strstr(err.msg, bad[k].want),
                   "plate %d x %d r %g refused: '%s'", bad[k].nx, bad[k].ny, bad[k].r,
                   err.msg);
    }
    test_cond("r = 0.25 accepted (the bound itself)",
              heat_plate_init(&p, 4, 4, 0.25, &err) == SCHED_OK);
    p.left = INFINITY;
    int rc = heat_plate_check(&p, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "left edge's value inf"),
               "an infinite edge: '%s'", err.msg);
    p = plate(4, 4, 0.2);
    double u[16] = {0};
    rc = heat_run(&p, u, -1, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "steps=-1"), "heat_run -1 steps: '%s'",
               err.msg);

    int count[4];
    rc = heat_strips_even(10, 11, count, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "strips=11 must be in 1..10"),
               "11 strips of 10 rows: '%s'", err.msg);
    test_cond("10 rows in 4 strips: 3 3 2 2", heat_strips_even(10, 4, count, &err) == 0 &&
              count[0] == 3 && count[1] == 3 && count[2] == 2 && count[3] == 2);
    heat_transfer t[4];
    int c[3] = {2, 2, 2}, z[3] = {3, 0, 3}, more[3] = {3, 2, 2};
    rc = heat_strips_transfers(3, c, z, t, &err);
    test_condf(rc == -1 && err.code == SCHED_EINVAL &&
               strstr(err.msg, "target[1]=0 must be in 1..65536"), "a target of 0: '%s'",
               err.msg);
    rc = heat_strips_transfers(3, z, c, t, &err);
    test_condf(rc == -1 && strstr(err.msg, "count[1]=0"), "a count of 0: '%s'", err.msg);
    rc = heat_strips_transfers(3, c, more, t, &err);
    test_condf(rc == -1 && strstr(err.msg, "the targets sum to 7 rows, the counts to 6"),
               "totals that differ: '%s'", err.msg);
    rc = heat_strips_transfers(0, c, c, t, &err);
    test_condf(rc == -1 && strstr(err.msg, "strips=0 must be in 1..1024"), "0 strips: '%s'",
               err.msg);
    test_cond("heat_strips_new: counts not summing to ny refused",
              heat_strips_new(&p, u, 3, c, &err) == NULL && err.code == SCHED_EINVAL &&
              strstr(err.msg, "sum to 6 rows, the plate has 4"));

    /* One node's strip: rows 4..7 of a 2-wide plate. */
    heat_strip s = {.first = 4, .rows = 4, .cap = 4, .u = malloc(8 * sizeof(double))};
    for (int i = 0; i < 8; i++)
        s.u[i] = 40 + i;                  /* row 4: 40 41, ..., row 7: 46 47 */
    double buf[8];
    heat_transfer mid = {1, 0, 5, 2, 0}, up = {1, 0, 4, 1, 0}, down = {1, 2, 6, 2, 0};
    rc = heat_strip_take(&s, 2, &mid, buf, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "rows 5..6 (count=2) are not the first "
                                            "rows of the strip of rows 4..7"),
               "take: rows in the middle refused: '%s'", err.msg);
    test_cond("take: row 4 up (its first row)",
              heat_strip_take(&s, 2, &up, buf, &err) == SCHED_OK && buf[0] == 40 &&
              buf[1] == 41 && s.first == 5 && s.rows == 3 && s.u[0] == 42);
    test_cond("take: rows 6..7 down (its last rows)",
              heat_strip_take(&s, 2, &down, buf, &err) == SCHED_OK && buf[0] == 44 &&
              buf[3] == 47 && s.first == 5 && s.rows == 1);
    heat_transfer back = {2, 1, 6, 2, 0}, gap = {2, 1, 7, 1, 0}, top = {0, 1, 3, 2, 0};
    rc = heat_strip_put(&s, 2, &gap, buf, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "rows 7..7 (count=1) do not join the "
                                            "strip of rows 5..5 from below"),
               "put: a gap refused: '%s'", err.msg);
    test_cond("put: rows 6..7 back from below",
              heat_strip_put(&s, 2, &back, buf, &err) == SCHED_OK && s.rows == 3 &&
              s.first == 5 && s.u[2] == 44 && s.u[5] == 47);
    double two[4] = {30, 31, 32, 33};
    test_cond("put: rows 3..4 from above (the strip grows)",
              heat_strip_put(&s, 2, &top, two, &err) == SCHED_OK && s.first == 3 &&
              s.rows == 5 && s.u[0] == 30 && s.u[3] == 33 && s.u[4] == 42 && s.cap >= 5);
    heat_transfer all = {1, 2, 3, 5, 0};
    double five[10];
    test_cond("take all rows down: an empty strip at row 3",
              heat_strip_take(&s, 2, &all, five, &err) == SCHED_OK && s.rows == 0 &&
              s.first == 3);
    heat_transfer refill = {0, 1, 1, 2, 0};
    test_cond("an empty strip takes rows from above that end at its place",
              heat_strip_put(&s, 2, &refill, two, &err) == SCHED_OK && s.first == 1 &&
              s.rows == 2);
    heat_strip_free(&s);
}

int main(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20240611);
    test_known();
    test_symmetry();
    test_maximum_principle(rng);
    test_steady_state();
    test_kernel_strips(rng);
    test_transfers(rng);
    test_strips_run(rng);
    test_from_plan(rng);
    test_errors();
    gsl_rng_free(rng);
    return test_report();
}
