/* bench_matrix.c: one s x s product (matrix/, Díaz et al. Sec. 4's
 * workload) with GSL's reference CBLAS and with OpenBLAS on one thread, in
 * one run: the time of each, the ratio, and the time of filling A and B
 * (the part of an iteration the cost model 2 s^3 leaves out; "fill %" is
 * of the OpenBLAS product's time).
 *
 * Both libraries' cblas_dgemm are loaded with dlopen and called as
 * gsl_blas_dgemm calls them (row-major, no transposition) on the same
 * matrices, iteration 0's entries of a run with min = max = s; the best of a
 * few repetitions counts. The two products must be equal (the entries are
 * small integers: exact, matrix.h). Sizes: the paper's 300..1000 and the
 * smaller ones of bin/matrix --scale.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_cblas.h>

#include "matrix/matrix.h"

typedef void dgemm_fn(enum CBLAS_ORDER, enum CBLAS_TRANSPOSE, enum CBLAS_TRANSPOSE, int,
                      int, int, double, const double *, int, const double *, int, double,
                      double *, int);

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* The best time of a product, over repetitions for at most ~0.3 s (>= 1). */
static double best(dgemm_fn *f, int s, const double *a, const double *b, double *c)
{
    double t_best = 1e30, spent = 0;
    for (int r = 0; r < 20 && (r < 2 || spent < 0.3); r++) {
        double t0 = now();
        f(CblasRowMajor, CblasNoTrans, CblasNoTrans, s, s, s, 1.0, a, s, b, s, 0.0, c, s);
        double t = now() - t0;
        spent += t;
        if (t < t_best)
            t_best = t;
        if (t > 1.0)
            break;
    }
    return t_best;
}

/* cblas_dgemm of a shared library, or NULL with the reason printed. */
static dgemm_fn *load(const char *lib, void **handle)
{
    *handle = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
    if (!*handle) {
        printf("  %s: not loaded (%s)\n", lib, dlerror());
        return NULL;
    }
    dgemm_fn *f;
    void *sym = dlsym(*handle, "cblas_dgemm");
    memcpy(&f, &sym, sizeof f);
    if (!f)
        printf("  %s: no cblas_dgemm\n", lib);
    return f;
}

int main(void)
{
    static const int sizes[] = {60, 100, 200, 300, 500, 700, 1000};
    const int nsizes = (int)(sizeof sizes / sizeof sizes[0]);
    void *hg, *ho;
    printf("matrix products, one core: GSL's CBLAS against OpenBLAS (one thread)\n");
    dgemm_fn *gsl = load("libgslcblas.so.0", &hg);
    dgemm_fn *obl = load("libopenblas.so.0", &ho);
    if (!gsl || !obl) {
        printf("  (install libopenblas-dev for the comparison: make deps)\n");
        return gsl ? 0 : 1;
    }
    void (*set_threads)(int);
    void *sym = dlsym(ho, "openblas_set_num_threads");
    memcpy(&set_threads, &sym, sizeof set_threads);
    if (set_threads)
        set_threads(1);
    char *(*config)(void);
    sym = dlsym(ho, "openblas_get_config");
    memcpy(&config, &sym, sizeof config);
    if (config)
        printf("  OpenBLAS: %s\n", config());

    int smax = sizes[nsizes - 1];
    size_t n = (size_t)smax * (size_t)smax;
    double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b);
    double *c1 = malloc(n * sizeof *c1), *c2 = malloc(n * sizeof *c2);
    if (!a || !b || !c1 || !c2) {
        printf("out of memory\n");
        return 1;
    }
    printf("  %5s %12s %12s %7s %9s %9s %9s %7s\n", "size", "GSL CBLAS ms", "OpenBLAS ms",
           "ratio", "GSL GF/s", "Open GF/s", "fill ms", "fill %");
    int equal = 1;
    double tg_sum = 0, to_sum = 0, tf_sum = 0;
    for (int k = 0; k < nsizes; k++) {
        int s = sizes[k];
        matrix_params p = {1, s, s};
        matrix_fill(&p, 0, s, a, b);        /* the pages touched, as in a worker */
        double t0 = now();
        matrix_fill(&p, 0, s, a, b);
        double tf = now() - t0;
        double tg = best(gsl, s, a, b, c1);
        double to = best(obl, s, a, b, c2);
        equal &= memcmp(c1, c2, (size_t)s * (size_t)s * sizeof *c1) == 0;
        printf("  %5d %12.3f %12.3f %7.1f %9.2f %9.2f %9.3f %7.1f\n", s, tg * 1e3, to * 1e3,
               tg / to, matrix_flops(s) / tg / 1e9, matrix_flops(s) / to / 1e9, tf * 1e3,
               100 * tf / to);
        tg_sum += tg;
        to_sum += to;
        tf_sum += tf;
    }
    printf("  all sizes: GSL CBLAS %.3f s, OpenBLAS %.3f s: OpenBLAS %.1fx faster; "
           "products equal: %s\n", tg_sum, to_sum, tg_sum / to_sum, equal ? "yes" : "NO");
    free(a);
    free(b);
    free(c1);
    free(c2);
    dlclose(hg);
    dlclose(ho);
    return equal ? 0 : 1;
}
