/* matrix.c: Díaz et al. Sec. 4's workload, products of random square
 * matrices (matrix.h). */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_rng.h>

#include "matrix/matrix.h"
#include "sched/util/conv.h"

/* OpenBLAS, when the program links it (weak: NULL otherwise). */
extern void openblas_set_num_threads(int n) __attribute__((weak));
extern char *openblas_get_config(void) __attribute__((weak));

struct matrix_work {
    gsl_rng *rng;
    double *a, *b, *c;      /* max x max each */
};

int matrix_check(const matrix_params *p, char *msg, size_t len)
{
    if (p->min < 1 || p->max > MATRIX_MAX_SIZE || p->min > p->max) {
        snprintf(msg, len, "sizes %d..%d: need 1 <= min <= max <= %d", p->min, p->max,
                 MATRIX_MAX_SIZE);
        return -1;
    }
    return 0;
}

/* The n entries that follow in r's stream: each 32-bit draw of taus2 gives
 * eight entries, its 4-bit groups from the lowest up, each minus 8. */
static void draw_entries(gsl_rng *r, double *x, size_t n)
{
    for (size_t k = 0; k < n; k += 8) {
        unsigned long u = gsl_rng_get(r);
        for (size_t j = k; j < k + 8 && j < n; j++, u >>= 4)
            x[j] = (double)(u & 0xf) - MATRIX_ENTRY;
    }
}

matrix_work *matrix_work_new(const matrix_params *p)
{
    if (openblas_set_num_threads)
        openblas_set_num_threads(1);
    matrix_work *w = calloc(1, sizeof *w);
    if (!w)
        return NULL;
    size_t n = (size_t)p->max * (size_t)p->max;
    w->rng = gsl_rng_alloc(gsl_rng_taus2);
    w->a = malloc(n * sizeof *w->a);
    w->b = malloc(n * sizeof *w->b);
    w->c = malloc(n * sizeof *w->c);
    if (!w->rng || !w->a || !w->b || !w->c) {
        matrix_work_free(w);
        return NULL;
    }
    return w;
}

void matrix_work_free(matrix_work *w)
{
    if (!w)
        return;
    gsl_rng_free(w->rng);
    free(w->a);
    free(w->b);
    free(w->c);
    free(w);
}

double matrix_multiply(int s, const double *a, const double *b, double *c)
{
    gsl_matrix_const_view A = gsl_matrix_const_view_array(a, (size_t)s, (size_t)s);
    gsl_matrix_const_view B = gsl_matrix_const_view_array(b, (size_t)s, (size_t)s);
    gsl_matrix_view C = gsl_matrix_view_array(c, (size_t)s, (size_t)s);
    gsl_blas_dgemm(CblasNoTrans, CblasNoTrans, 1.0, &A.matrix, &B.matrix, 0.0, &C.matrix);
    double sum = 0;
    for (size_t k = 0, n = (size_t)s * (size_t)s; k < n; k++)
        sum += c[k];
    return sum;
}

int64_t matrix_product(matrix_work *w, const matrix_params *p, long i, int *size)
{
    int s = matrix_draw_size(w->rng, p, i);
    size_t n = (size_t)s * (size_t)s;
    draw_entries(w->rng, w->a, n);
    draw_entries(w->rng, w->b, n);
    if (size)
        *size = s;
    /* an integer below 2^53 in magnitude (matrix.h: exact whatever the
     * BLAS), so the conversion is exact */
    return conv_clamp(matrix_multiply(s, w->a, w->b, w->c), -(1L << 53), 1L << 53);
}

int matrix_fill(const matrix_params *p, long i, int s, double *a, double *b)
{
    gsl_rng *r = gsl_rng_alloc(gsl_rng_taus2);
    if (!r)
        return -1;
    int drawn = matrix_draw_size(r, p, i);
    draw_entries(r, a, (size_t)s * (size_t)s);
    draw_entries(r, b, (size_t)s * (size_t)s);
    gsl_rng_free(r);
    return drawn;
}

void matrix_result_bytes(int64_t r, unsigned char out[MATRIX_RESULT_BYTES])
{
    uint64_t u = (uint64_t)r;
    for (int k = MATRIX_RESULT_BYTES - 1; k >= 0; k--) {
        out[k] = (unsigned char)(u & 0xff);
        u >>= 8;
    }
}

int64_t matrix_result_value(const unsigned char in[MATRIX_RESULT_BYTES])
{
    uint64_t u = 0;
    for (int k = 0; k < MATRIX_RESULT_BYTES; k++)
        u = u << 8 | in[k];
    return u <= INT64_MAX ? (int64_t)u : -(int64_t)(UINT64_MAX - u) - 1;
}

uint64_t matrix_checksum(const int64_t *results, long n)
{
    uint64_t h = 0xcbf29ce484222325u;
    unsigned char b[MATRIX_RESULT_BYTES];
    for (long i = 0; i < n; i++) {
        matrix_result_bytes(results[i], b);
        for (int k = 0; k < MATRIX_RESULT_BYTES; k++) {
            h ^= b[k];
            h *= 0x100000001b3u;
        }
    }
    return h;
}

const char *matrix_blas(void)
{
    return openblas_get_config ? openblas_get_config() : "GSL CBLAS";
}
