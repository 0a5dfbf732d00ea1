/* matrix.h: the workload of Díaz et al. Sec. 4, products of random square
 * matrices: iteration i of the loop computes C = A B for two random s_i x s_i
 * matrices, s_i uniform in [min, max] (the paper: 300..1000), by GSL's BLAS
 * interface (gsl_blas_dgemm, so whichever CBLAS the program links).
 *
 * The sizes, the stream of each iteration and the cost model (matrix_params,
 * matrix_size, matrix_rng_seed, matrix_flops) are in cost/cost.h, included
 * here: the simulator (sim/workload.c, workload 'matrix') takes its sizes
 * from the very same code. An iteration's stream gives first the size, then
 * A's entries row by row, then B's; so its size and result do not depend on
 * which process computes it nor in what order.
 *
 * Entries are integers in [-MATRIX_ENTRY, MATRIX_ENTRY - 1] held as doubles
 * (4 random bits each, eight from one 32-bit draw), so
 * every entry of C, every partial sum of one and the sum of all of C's
 * entries are integers below 2^53 for s <= MATRIX_MAX_SIZE: exact in double,
 * whatever order of summation (or fused multiply-add) a BLAS uses. An
 * iteration's result is that sum, an exact integer, the same with GSL's
 * reference CBLAS, OpenBLAS or any other, on any CPU.
 */
#ifndef MATRIX_H
#define MATRIX_H

#include <stddef.h>
#include <stdint.h>

#include "cost/cost.h"

/* The largest size a product may have: three 10000 x 10000 matrices are
 * 2.4 GB, and s * E^2 * s^2 stays below 2^53 (exact sums). */
#define MATRIX_MAX_SIZE 10000
/* Entries are integers in [-MATRIX_ENTRY, MATRIX_ENTRY - 1]. */
#define MATRIX_ENTRY 8
/* An iteration's result travels as this many bytes (matrix_result_bytes). */
#define MATRIX_RESULT_BYTES 8

/* Returns 0 if p is valid for products; otherwise -1 with a message naming
 * the bad value in msg (len bytes). */
int matrix_check(const matrix_params *p, char *msg, size_t len);

/* Buffers for products of size up to p->max, and the random stream. */
typedef struct matrix_work matrix_work;

/* NULL when out of memory (or p invalid: check it first). When the program
 * links OpenBLAS, also sets it to one thread (openblas_set_num_threads): a
 * worker is one process on one (emulated) CPU. */
matrix_work *matrix_work_new(const matrix_params *p);
void matrix_work_free(matrix_work *w);

/* Computes iteration i: its size into *size (may be NULL), A and B from its
 * stream, C = A B by gsl_blas_dgemm; returns the sum of C's entries. */
int64_t matrix_product(matrix_work *w, const matrix_params *p, long i, int *size);

/* The product alone: c = a b for s x s matrices in row-major order, by
 * gsl_blas_dgemm. Returns the sum of c's entries. */
double matrix_multiply(int s, const double *a, const double *b, double *c);

/* Fills a and b (s x s each, row-major) as iteration i of a run does: the
 * stream of (seed, i) after the size draw. Returns the size it drew (which
 * must equal s for the entries to be iteration i's), -1 out of memory. */
int matrix_fill(const matrix_params *p, long i, int s, double *a, double *b);

/* A result as 8 bytes (two's complement, big-endian), and back. */
void matrix_result_bytes(int64_t r, unsigned char out[MATRIX_RESULT_BYTES]);
int64_t matrix_result_value(const unsigned char in[MATRIX_RESULT_BYTES]);

/* The run's checksum: 64-bit FNV-1a over the n results as bytes
 * (matrix_result_bytes) in iteration order. */
uint64_t matrix_checksum(const int64_t *results, long n);

/* The CBLAS linked: OpenBLAS's configuration ("OpenBLAS 0.3.21 ... Haswell
 * ...") when the program links OpenBLAS, "GSL CBLAS" otherwise. */
const char *matrix_blas(void);

#endif
