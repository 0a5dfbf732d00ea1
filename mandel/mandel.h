/* mandel.h: the workload, the Mandelbrot set computed line by line: row by
 * row (the default) or column by column.
 *
 * The image, its loop and the escape-time kernel (mandel_params,
 * mandel_line, mandel_row, ...) are in cost/cost.h, included here: the
 * simulator costs its 'mandel' workload with the very same code. This
 * header adds what the programs need beyond the counts: the job the master
 * sends, a line's bytes, the checksum and the image file.
 *
 * The rows are the iterations of the loop the runtime schedules (in the
 * pseudo-uniformly sampled order of sched_sample when R > 1); a row travels
 * as width 32-bit counts, little-endian (mandel_row_bytes).
 */
#ifndef MANDEL_H
#define MANDEL_H

#include <stddef.h>
#include <stdint.h>

#include "cost/cost.h"

/* "rows" or "columns", as the programs print it and the run record keeps
 * it (field loop=). */
const char *mandel_loop_name(const mandel_params *p);

/* Puts line k's counts (mandel_line_len of them) into the row-major image
 * counts[y * width + x]. */
void mandel_put_line(const mandel_params *p, long k, const uint32_t *line, uint32_t *counts);

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
