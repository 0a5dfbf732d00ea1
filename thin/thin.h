/* thin.h: binary-image thinning (Guo & Hall 1989, algorithm A1: two
 * subiterations) and its decomposition into horizontal parts, the tasks of an
 * iterative master-worker run (Heymann et al.'s application). No PVM: the
 * tasks and results are byte payloads the runtime carries as they are.
 *
 * The sequential skeleton:
 *     thin_image im;
 *     if (thin_pbm_read(&im, "in.pbm", msg, sizeof msg) != 0) ... msg ...
 *     thin_stats st;
 *     thin_run(&im, 0, &st);                 (0: to convergence)
 *     thin_pbm_write(&im, "out.pbm", 0, msg, sizeof msg);
 *     thin_image_free(&im);
 *
 * The same by parts, the master's loop (thin_parts_run does exactly this):
 *     thin_parts *p = thin_parts_new(&im, M, msg, sizeof msg);
 *     while (thin_parts_begin(p, active) > 0) {         (active[j]: j has a task)
 *         for each j with active[j]:
 *             thin_parts_task(p, j, &task, &tlen, ...)     -> to a worker
 *             thin_task_run(task, tlen, &res, &rlen, ...)  (on the worker)
 *             thin_parts_store(p, j, res, rlen, ...)       <- its result
 *         thin_parts_end(p, &it, ...);                  (borders, wake-ups)
 *     }
 *     thin_parts_image(p) is bit for bit thin_run's image; thin_parts_free(p);
 *
 * docs/thin.md explains the algorithm, why the parts are exact, and the byte
 * layouts of the payloads (also below, at thin_task_run).
 */
#ifndef THIN_H
#define THIN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* The largest image anything here accepts (a PBM file, a payload): at most
 * THIN_MAX_SIDE pixels a side and THIN_MAX_PIXELS in all (one byte a pixel:
 * 256 MiB). */
#define THIN_MAX_SIDE 65536
#define THIN_MAX_PIXELS (1L << 28)
/* Parts of a decomposition: 1..THIN_MAX_PARTS. */
#define THIN_MAX_PARTS 64

/* A binary image: width x height bytes, row-major, row 0 the top; each byte
 * 0 (background, PBM white) or 1 (foreground, PBM black). Every function
 * here keeps the bytes 0 or 1. */
typedef struct thin_image {
    int width, height;
    unsigned char *px;
} thin_image;

/* An all-zero image of width x height (each 1..THIN_MAX_SIDE, the product
 * at most THIN_MAX_PIXELS). Returns 0, or -1 with the reason in msg (the bad
 * value, or out of memory); im->px is then NULL. The caller frees it with
 * thin_image_free. */
int thin_image_init(thin_image *im, int width, int height, char *msg, size_t len);
void thin_image_free(thin_image *im);
/* The number of 1-pixels. */
long long thin_image_count(const thin_image *im);

/* ---- PBM files (thin/pbm.c) ---------------------------------------------- */

/* Reads a PBM image, plain (P1) or raw (P4), into *im (freed by the caller
 * with thin_image_free). The header may hold comments ('#' to the end of the
 * line) and any whitespace; a P1 raster holds '0' and '1' with any
 * whitespace (comments too) between them; a P4 raster's padding bits are
 * ignored. Only the first image of the file is read. path "-" is standard
 * input. Returns 0, or -1 with one line in msg naming the file and the
 * problem, with its line (P1, header) or byte (P4 raster): a bad magic
 * number, a missing or bad width or height, a size over the limits, a
 * character other than 0/1 in a P1 raster, a truncated raster, a read
 * error, out of memory. */
int thin_pbm_read(thin_image *im, const char *path, char *msg, size_t len);
/* The same from an open stream; name is used in the messages. */
int thin_pbm_read_stream(thin_image *im, FILE *f, const char *name, char *msg,
                         size_t len);
/* Writes im as raw PBM (P4), or plain (P1, 70 characters a line at most)
 * when plain is non-zero; whole or not at all (sched/util/outfile.h), "-" is
 * standard output. Returns 0, or -1 with "CALL(PATH): strerror" in msg. */
int thin_pbm_write(const thin_image *im, const char *path, int plain, char *msg,
                   size_t len);

/* ---- the algorithm, sequentially (thin/thin.c) ----------------------------- */

/* Would a 1-pixel be deleted in subiteration 'sub' (1 or 2), given its
 * neighbourhood n: bit i-1 of n is x_i, x1 = east, x2 = north-east, x3 =
 * north, x4 = north-west, x5 = west, x6 = south-west, x7 = south, x8 =
 * south-east (counter-clockwise from the east). Returns 1 or 0. */
int thin_deletable(unsigned n, int sub);

/* One subiteration (sub 1 or 2) of the whole image, in place: every 1-pixel
 * is decided from the image as it was when the subiteration began.
 * Returns the number of pixels deleted (-1: out of memory, im unchanged);
 * *examined (may be NULL) gets the number of 1-pixels examined (those of
 * the image on entry). */
long long thin_subiteration(thin_image *im, int sub, long long *examined);

typedef struct thin_stats {
    int iterations;        /* iterations run, including the last one, that
                              deleted nothing, when converged */
    int converged;         /* 1: the last iteration deleted nothing */
    long long deleted;     /* pixels deleted in all */
    long long pixels;      /* 1-pixels left */
    long long examined;    /* 1-pixels examined, both subiterations, summed */
} thin_stats;

/* Thins im in place: iterations of two subiterations until one deletes
 * nothing, or max_iter iterations (0: no limit; thinning ends by itself:
 * every iteration but the last deletes a pixel). Returns 0, or -1 when out
 * of memory (im unchanged). st may be NULL. */
int thin_run(thin_image *im, int max_iter, thin_stats *st);

/* ---- parts: the master-worker decomposition (thin/parts.c) ----------------- */

/* The rows of part j (0 <= j < M) of an image of height H: parts of
 * floor(H/M) rows, the first H mod M of them one row more; part j starts at
 * row j*floor(H/M) + min(j, H mod M). With M > H the parts j >= H are empty
 * (0 rows): they never get a task. */
void thin_part_rows(int height, int M, int j, int *row0, int *rows);

typedef struct thin_parts thin_parts;

/* The master's state for image im cut into M parts (1..THIN_MAX_PARTS):
 * a copy of the image (im stays the caller's), every part with rows awake.
 * Returns NULL with the reason in msg (a bad M, out of memory). */
thin_parts *thin_parts_new(const thin_image *im, int M, char *msg, size_t len);
void thin_parts_free(thin_parts *p);

/* Starts the next iteration. A part gets a task when it has rows and either
 * this is the first iteration, or it deleted pixels in its last task, or a
 * row it reads as a border (the two rows above it and the two below) changed
 * in the last iteration; the others sleep (their result would be their rows
 * unchanged). active (may be NULL; THIN_MAX_PARTS bytes suffice) gets 1 for
 * the parts with a task, 0 for the others. Returns the number of tasks; 0
 * when every part sleeps: the thinning has converged and no iteration is
 * started. Returns -1 while an iteration is open (thin_parts_end not yet
 * called). */
int thin_parts_begin(thin_parts *p, unsigned char *active);
/* The iteration begun last (1, 2, ...; 0 before the first). */
int thin_parts_iteration(const thin_parts *p);
int thin_parts_count(const thin_parts *p);
/* Does part j have a task in the open iteration? */
int thin_parts_active(const thin_parts *p, int j);

/* Packs part j's task of the open iteration into a new buffer (*task, *len;
 * the caller frees it): its rows and the two rows above and below it as
 * they were when the iteration began, whatever results have been stored
 * since. May be called again for the same part (a task re-run). Returns 0,
 * or -1 with msg (j has no task in the open iteration, out of memory). */
int thin_parts_task(const thin_parts *p, int j, unsigned char **task, size_t *len,
                    char *msg, size_t mlen);

/* Stores part j's result of the open iteration, after checking it
 * (magic, iteration, part, sizes, length; its rows may only lose 1-pixels
 * and must differ from the part's rows in exactly 'deleted' pixels; the
 * border flags must agree). Returns 0 when stored; 1 when the result is not
 * needed and is ignored: this part's result of the open iteration is already
 * stored (a duplicate), or it is of an earlier iteration (a late answer of a
 * task that was re-run); -1 with msg when refused (the part's result is
 * still missing). */
int thin_parts_store(thin_parts *p, int j, const unsigned char *res, size_t len,
                     char *msg, size_t mlen);

/* The numbers of one iteration, from its results. */
typedef struct thin_iter {
    int iteration;
    int tasks;                              /* parts that had a task */
    long long deleted;                      /* pixels deleted in all */
    long long examined[THIN_MAX_PARTS];     /* each task's work, -1: no task */
} thin_iter;

/* Ends the open iteration once every task's result is stored: the results'
 * rows become the image and the parts to wake are found. *it (may be NULL)
 * gets the iteration's numbers. Returns 0, or -1 with msg naming the first
 * part whose result is missing (nothing changed: store it, then end). */
int thin_parts_end(thin_parts *p, thin_iter *it, char *msg, size_t mlen);

/* The image as of the last ended iteration; valid until thin_parts_free. */
const thin_image *thin_parts_image(const thin_parts *p);

/* ---- the worker's side -------------------------------------------------- */

/* Runs one task: unpacks it, thins the part's rows by one iteration (two
 * subiterations; the first also on the row above and the row below the part,
 * so that the second is exact), and packs the result into a new buffer
 * (*res, *rlen; the caller frees it). *examined (may be NULL) gets the
 * task's work: the 1-pixels examined in the two subiterations. Returns 0,
 * or -1 with msg saying what is wrong with the payload (or out of memory).
 *
 * Task (little-endian 32-bit words, then rows):
 *   0  'T','H','T','1'      magic
 *   4  iteration            >= 1
 *   8  part j               < M
 *  12  parts M              1..THIN_MAX_PARTS
 *  16  width W              1..THIN_MAX_SIDE
 *  20  height H             1..THIN_MAX_SIDE, W*H <= THIN_MAX_PIXELS
 *  24  row0 a               the part's first row
 *  28  rows n               >= 1, a + n <= H
 *  32  above                min(2, a): border rows above the part
 *  36  below                min(2, H - a - n): border rows below
 *  40  (above + n + below) rows of ceil(W/8) bytes, image rows a - above ..
 *      a + n + below - 1, 8 pixels a byte, the leftmost in the high bit (as a
 *      P4 raster); padding bits 0. Length exactly 40 + that.
 * Result:
 *   0  'T','H','R','1'      magic
 *   4  iteration, 8 part j, 12 width W, 16 row0 a, 20 rows n   (the task's)
 *  24  deleted              pixels of the part deleted by the task
 *  28  examined             the task's work (above)
 *  32  border               bit 0: row a changed, bit 1: row a+1, bit 2:
 *                           row a+n-2, bit 3: row a+n-1 (the rows the
 *                           neighbours read; bits 1 and 2 only when n >= 2)
 *  36  n rows of ceil(W/8) bytes: the part's new rows, as above.
 */
int thin_task_run(const unsigned char *task, size_t len, unsigned char **res,
                  size_t *rlen, long long *examined, char *msg, size_t mlen);

#define THIN_TASK_HEADER 40
#define THIN_RESULT_HEADER 36

/* ---- the whole loop, for bin/thin and the tests ---------------------------- */

/* The unit of a trace's task costs: the 1-pixels a task examined
 * (deterministic), or its CPU seconds (measured). */
enum { THIN_UNIT_PIXELS, THIN_UNIT_SECONDS };

/* Thins im in place by M parts, running each task in turn as the master
 * would hand them out, at most max_iter iterations (0: to convergence).
 * The image, the iteration count and the deleted and pixels counts are
 * thin_run's (examined is the sum over the tasks). When trace is not NULL,
 * writes the trace: the line "# thin trace: image NAME, W x H, parts M,
 * unit U" (NAME with every character but [A-Za-z0-9._+-] made '_', "-"
 * when empty; U "pixels" or "seconds") then one line per iteration: its
 * number and M fields, each part's task cost ("%lld" pixels, "%.6f" CPU
 * seconds of thin_task_run) or "-" for a part without a task; one space
 * between fields, no trailing space. tasks (may be
 * NULL) gets the number of tasks run. Returns 0, or -1 with msg (a bad M,
 * out of memory, a payload refused: a bug). Write errors on trace are the
 * caller's to check (ferror). */
int thin_parts_run(thin_image *im, int M, int max_iter, FILE *trace,
                   const char *name, int unit, thin_stats *st, long long *tasks,
                   char *msg, size_t mlen);

#endif
