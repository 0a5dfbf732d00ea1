/* test_heat.c: the heat plate (heat/): steps worked by hand, exact
 * symmetries, the maximum principle, the discrete steady state, the kernel
 * on a strip, strips and random re-cuts (heat_strips_*) bit for bit the
 * sequential run, the checksum, and the errors (each naming the bad value).
 * The strip decisions themselves (sched/strips/strips.h) are tested in
 * tests/test_strips.c. Random cases from GSL's mt19937 with fixed seeds. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "heat/heat.h"
#include "sched/util/fnv.h"
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
    const strips_node *st = heat_strips_strip(s, 5);
    test_cond("strip 5 holds row 5, nx doubles",
              st->first == 5 && st->rows == 1 && st->row_bytes == 9 * sizeof(double) &&
              memcmp(st->data, u + 5 * 9, 9 * sizeof *u) == 0);
    heat_strips_free(s);
    free(u);
    free(w);
}

/* ---- the errors -------------------------------------------------------------------- */

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
    /* A finite edge whose step overflowed (tests/fuzz/crashes/heat-1): the
     * sums of a step reach 8 times the largest value. */
    p = plate(4, 4, 0.2);
    p.top = 1e308;
    rc = heat_plate_check(&p, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "top edge's value 1e+308 must be finite, "
                                            "at most 1e+300 in magnitude"),
               "an edge of 1e308 refused: '%s'", err.msg);
    p.top = p.left = 1e300;
    p.bottom = p.right = -1e300;
    double w[16] = {0};
    rc = heat_plate_check(&p, &err);
    if (rc == SCHED_OK)
        rc = heat_run(&p, w, 20, &err);
    int finite = 1;
    for (int i = 0; i < 16; i++)
        finite &= isfinite(w[i]) && fabs(w[i]) <= 1e300;
    test_condf(rc == SCHED_OK && finite, "edges of +-1e300: 20 steps stay finite, within "
               "the edges (%g)", w[0]);
    p = plate(4, 4, 0.2);
    double u[16] = {0};
    rc = heat_run(&p, u, -1, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "steps=-1"), "heat_run -1 steps: '%s'",
               err.msg);

    int c[3] = {2, 2, 2}, z[3] = {3, 0, 1};
    test_condf(heat_strips_new(&p, u, 3, c, &err) == NULL && err.code == SCHED_EINVAL &&
               strstr(err.msg, "sum to 6 rows, the plate has 4"),
               "heat_strips_new: counts not summing to ny refused: '%s'", err.msg);
    test_condf(heat_strips_new(&p, u, 3, z, &err) == NULL && err.code == SCHED_EINVAL &&
               strstr(err.msg, "count[1]=0 must be in 1..4"),
               "heat_strips_new: a strip of 0 rows refused: '%s'", err.msg);
    test_condf(heat_strips_new(&p, u, 0, c, &err) == NULL && err.code == SCHED_EINVAL &&
               strstr(err.msg, "strips=0 must be in 1..1024"),
               "heat_strips_new: 0 strips refused: '%s'", err.msg);
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
    test_strips_run(rng);
    test_errors();
    gsl_rng_free(rng);
    return test_report();
}
