/* cost.h: what an iteration of the project's two computed workloads costs,
 * by the very code the applications run: the Mandelbrot image's escape-time
 * counts (mandel/: bin/mandel, the coordinator and its workers) and the sizes
 * of Díaz et al.'s random matrix products (matrix/: bin/matrix). The
 * simulator (sim/workload.c) costs its 'mandel' and 'matrix' workloads
 * with them, so it depends on no application; the applications include this
 * header through theirs (mandel/mandel.h, matrix/matrix.h) and add what
 * only they need (the job's text, the image file, the products themselves).
 * The names keep their applications' prefixes: they are those kernels,
 * brought down a layer, and every caller reads as it did.
 * Nothing here does I/O beyond a message; GSL only (the matrices' streams).
 */
#ifndef COST_H
#define COST_H

#include <stddef.h>
#include <stdint.h>

#include <gsl/gsl_rng.h>

/* ---- the Mandelbrot set, line by line (cost/mandel.c) ---------------------
 *
 * The image covers the region (xmin, ymin)-(xmax, ymax) of the complex plane
 * (default (-2,-2)-(2,2), Xu & Chronopoulos Sec. 6) with width x height
 * pixels (default 1200 x 1200). Pixel (x, y) is sampled at its centre:
 *   c = xmin + (x + 0.5) (xmax - xmin) / width
 *     + i (ymax - (y + 0.5) (ymax - ymin) / height),
 * so row 0 is the top. Its value is the escape-time iteration count: the
 * number of steps z <- z^2 + c from z = 0 taken while |z| <= 2, at most
 * maxiter. The cost of a row is the sum of its pixels' counts: the kernel does
 * nothing else (no cardioid test or other short cut), so the time to compute
 * a row is proportional to its cost.
 *
 * The loop's orientation: Xu & Chronopoulos Sec. 6 say "1200 by 1200
 * pixels" and never whether an iteration of their loop is a row or a
 * column. The two readings give different loops: the rows' costs are
 * symmetric about the real axis (two humps of four under sampling R = 4),
 * the columns' are not (the set lies in x from -2 to about 0.47: the right
 * part of the image is cheap). With 'columns' set, iteration k is column k
 * (its pixels top to bottom, height counts); mandel_line and the helpers
 * below serve both, and every pixel gets the very count the row loop gives
 * it (mandel_point of the same c), so the images are identical.
 */

/* Default maximum iteration count: the sequential 1200 x 1200 image takes
 * about 5.6 s on one core of the reference machine (docs/schemes.md, "The workload"). */
#define MANDEL_DEFAULT_MAXITER 16000u
#define MANDEL_DEFAULT_SIZE 1200

/* The largest image mandel_check accepts, so that no one buffer grows
 * without bound: a row of at most MANDEL_MAX_WIDTH pixels (a worker keeps a
 * row twice, counts and bytes, 512 KiB; a one-row piece is a 256 KiB
 * message), and at most MANDEL_MAX_PIXELS pixels in all (the coordinator's
 * counts, 4 bytes a pixel: 256 MiB; 8192 x 8192, 46 times the paper's
 * image). The loop over columns has the same limit on a column: a height
 * of at most MANDEL_MAX_WIDTH pixels. The coordinator refuses a bigger image
 * before it starts anything, and a worker refuses a job that asks for one. */
#define MANDEL_MAX_WIDTH 65536
#define MANDEL_MAX_PIXELS 67108864L

typedef struct mandel_params {
    int width, height;                /* pixels, >= 1 */
    uint32_t maxiter;                 /* >= 1 */
    double xmin, ymin, xmax, ymax;    /* xmin < xmax, ymin < ymax */
    int columns;                      /* the loop: 0 rows (default), 1 columns */
} mandel_params;

/* The paper's image: (-2,-2)-(2,2), 1200 x 1200, MANDEL_DEFAULT_MAXITER,
 * the loop over rows. */
void mandel_defaults(mandel_params *p);

/* Returns 0 if p is valid (within the limits above); otherwise -1 with a
 * message naming the bad value in msg (len bytes). */
int mandel_check(const mandel_params *p, char *msg, size_t len);

/* Escape-time count of one point (the kernel of everything below). */
uint32_t mandel_point(double cr, double ci, uint32_t maxiter);

/* Computes row y (0 <= y < height) into out[0..width-1]; returns the row's
 * cost, the sum of the counts. */
uint64_t mandel_row(const mandel_params *p, int y, uint32_t *out);
/* Pixels [x0, x1) of row y (0 <= x0 <= x1 <= width) into out[0..x1-x0-1],
 * the very counts mandel_row gives them; returns their cost. For a caller
 * that asks whether to stop between the parts of a long row. */
uint64_t mandel_span(const mandel_params *p, int y, int x0, int x1, uint32_t *out);

/* The loop's iterations: the lines of the image (rows: height; columns:
 * width), and the pixels of one line (rows: width; columns: height). */
long mandel_lines(const mandel_params *p);
int mandel_line_len(const mandel_params *p);

/* Pixels [a, b) of line k (0 <= k < mandel_lines(p), 0 <= a <= b <=
 * mandel_line_len(p)) into out[0..b-a-1]: row k's pixels x = a..b-1, or
 * column k's y = a..b-1 (top to bottom). Returns their cost. */
uint64_t mandel_line_span(const mandel_params *p, long k, int a, int b, uint32_t *out);
/* The whole line k; returns its cost. */
uint64_t mandel_line(const mandel_params *p, long k, uint32_t *out);

/* ---- Díaz et al.'s random matrix products (cost/matrix.c) ------------------
 *
 * Iteration i of the loop computes C = A B for two random s_i x s_i
 * matrices, s_i uniform in [min, max] (the paper: 300..1000). Everything
 * about iteration i comes from one random stream seeded from (seed, i) alone
 * (GSL's taus2, matrix_rng_seed): first the size, then A's entries row by
 * row, then B's (matrix/). So an iteration's size does not depend on which
 * process asks nor in what order: the simulated loop and bin/matrix's are
 * the same products.
 *
 * The cost model: an iteration costs 2 s^3 floating-point operations
 * (matrix_flops), the product. Filling A and B (2 s^2 entries, s^2 / 4
 * random draws) is left out: with OpenBLAS on the reference machine it adds
 * about 15% to a product of size 300, 4% at 1000 (60% at 60)
 * (tests/bench_matrix.c), so a rate calibrated over a whole run (as
 * scripts/reproduce-matrix does) prices small products a little low and
 * large ones a little high.
 */

/* Díaz et al. Sec. 4: "The size of the matrices is randomly determined in
 * run time between 300 and 1000." */
#define MATRIX_PAPER_MIN 300
#define MATRIX_PAPER_MAX 1000

typedef struct matrix_params {
    unsigned long seed;     /* the run's seed */
    int min, max;           /* sizes, 1 <= min <= max */
} matrix_params;

/* The seed of iteration i's stream: a 64-bit mix (SplitMix64's finaliser)
 * of seed and i, folded to the 32 bits that gsl_rng_set uses. */
unsigned long matrix_rng_seed(unsigned long seed, long i);

/* Seeds r (a taus2 generator) with iteration i's stream and returns its
 * first draw, the size: uniform in [p->min, p->max] (gsl_rng_uniform_int).
 * r is left just after the size, where the entries follow. */
int matrix_draw_size(gsl_rng *r, const matrix_params *p, long i);

/* The size of iteration i (>= 0), matrix_draw_size on a generator of its
 * own. Needs only 1 <= min <= max (no upper bound: the simulator may model
 * sizes no machine here multiplies). -1 when out of memory (the stream's
 * generator is allocated). */
int matrix_size(const matrix_params *p, long i);

/* The cost model: floating-point operations of one s x s product, 2 s^3. */
double matrix_flops(int s);

#endif
