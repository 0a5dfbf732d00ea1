/* mandel.h: the workload, the Mandelbrot set computed line by line: row by
 * row (the default) or column by column.
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
 * The rows are the iterations of the loop the runtime schedules (in the
 * pseudo-uniformly sampled order of sched_sample when R > 1); a row travels
 * as width 32-bit counts, little-endian (mandel_row_bytes).
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
#ifndef MANDEL_H
#define MANDEL_H

#include <stddef.h>
#include <stdint.h>

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
/* "rows" or "columns", as the programs print it and the run record keeps
 * it (field loop=). */
const char *mandel_loop_name(const mandel_params *p);

/* Pixels [a, b) of line k (0 <= k < mandel_lines(p), 0 <= a <= b <=
 * mandel_line_len(p)) into out[0..b-a-1]: row k's pixels x = a..b-1, or
 * column k's y = a..b-1 (top to bottom). Returns their cost. */
uint64_t mandel_line_span(const mandel_params *p, long k, int a, int b, uint32_t *out);
/* The whole line k; returns its cost. */
uint64_t mandel_line(const mandel_params *p, long k, uint32_t *out);
/* Puts line k's counts (mandel_line_len of them) into the row-major image
 * counts[y * width + x]. */
void mandel_put_line(const mandel_params *p, long k, const uint32_t *line, uint32_t *counts);

/* Escape-time count of one point (the kernel of mandel_row). */
uint32_t mandel_point(double cr, double ci, uint32_t maxiter);

/* The job the master sends its workers: p as one line of text, exact
 * (hexadecimal floating point), at most MANDEL_JOB_MAX bytes with its NUL;
 * the loop over columns adds the word "columns" (a job without it, as every
 * earlier journal's, is the row loop). decode returns 0, or -1 with what is
 * wrong in msg. */
#define MANDEL_JOB_MAX 256
int mandel_encode(const mandel_params *p, char *buf, size_t len);
int mandel_decode(mandel_params *p, const char *buf, size_t n, char *msg,
                  size_t len);

/* A row's counts as 4 * n bytes, little-endian, and back. */
void mandel_row_bytes(const uint32_t *counts, size_t n, unsigned char *out);
void mandel_row_counts(const unsigned char *in, size_t n, uint32_t *counts);

/* 64-bit FNV-1a hash of the counts (as little-endian 32-bit words): a checksum
 * that compares images computed by different programs. */
uint64_t mandel_checksum(const uint32_t *counts, size_t n);

/* Writes the image as an 8-bit binary PGM (P5): points in the set black,
 * others grey by log(count). Whole or not at all: into a new file beside
 * path (path.XXXXXX, mkstemp), renamed over path once written and flushed
 * to disk (with path's mode if it exists); on any failure that file is
 * removed and path is left as it was. A path that exists and is not a
 * regular file (/dev/stdout, a pipe) is written directly; a read-only one
 * is refused. Returns 0, or -1 with the failing call, path and strerror in
 * msg ("fopen(PATH): ..." when the file cannot be created, "write(PATH):
 * ..." when writing fails, e.g. a full disk). */
int mandel_write_pgm(const char *path, const mandel_params *p,
                     const uint32_t *counts, char *msg, size_t len);

#endif
