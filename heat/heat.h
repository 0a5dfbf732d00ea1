/* heat.h: the 2-D heat equation on a plate, explicit finite differences
 * (FTCS), by row strips that can be re-cut between steps: the kernel of the
 * heat-conduction application (Yoon et al. Fig. 10), and P strips run in one
 * process. Which node holds which rows, and how a re-cut moves them, is
 * decided in sched/strips/strips.h (shared with the runtime's row strips): a
 * strip here is a strips_node of rows of nx doubles. No PVM: the program that
 * spreads the strips over nodes is built on this (docs/heat.md).
 *
 * The sequential skeleton:
 *     heat_plate p;
 *     sched_err err;
 *     if (heat_plate_init(&p, nx, ny, 0.2, &err) != 0) ... err.msg ...
 *     double *u = heat_field_new(&p, &err);        (all 0)
 *     heat_run(&p, u, steps, &err);
 *     ... heat_checksum(&p, u), heat_write_pgm(&p, u, "f.pgm", msg, len) ...
 *     free(u);
 *
 * The same by P strips, as P nodes would run it (heat_strips does this in
 * one process; each node would hold its strip and exchange halo rows):
 *     heat_strips *s = heat_strips_new(&p, u, P, counts, &err);
 *     heat_strips_step(s, k);                      (k steps, halo copies)
 *     heat_strips_move(s, targets, &moved, &err);  (re-cut: rows move)
 *     heat_strips_gather(s, u);                    (the field, bit for bit
 *     heat_strips_free(s);                          the sequential one)
 *
 * ---- The equation and the scheme -------------------------------------------
 *
 * u_t = alpha (u_xx + u_yy) on a plate of nx x ny square cells of side h;
 * forward Euler in time, the 5-point Laplacian in space (FTCS):
 *
 *     u'[i][j] = u + r ((u_N + u_S) + (u_E + u_W) - 4 u),  r = alpha dt / h^2
 *
 * u = u[i][j] and its four neighbours as they were before the step (N: row
 * i-1, S: row i+1, W: column j-1, E: column j+1). Stable only for
 * 0 < r <= 1/4: von Neumann's amplification factor of the scheme is
 * g = 1 - 4 r (sin^2(k_x h/2) + sin^2(k_y h/2)), and |g| <= 1 for every
 * mode iff r <= 1/4 (the 2-D form of the bound r <= 1/2 in 1-D; e.g.
 * LeVeque, Finite Difference Methods for ODEs and PDEs, SIAM 2007, Ch. 9,
 * von Neumann analysis and multidimensional problems; Press et al.,
 * Numerical Recipes, 3rd ed., Ch. 20, diffusion in 2-D). For r <= 1/4
 * u' is also a convex combination of u and its neighbours (weights 1 - 4r
 * and r): the discrete maximum principle, every value stays between the
 * least and the largest of the initial field and the edges. At r = 1/4
 * exactly the checkerboard mode has g = -1 (kept, not damped): hence the
 * programs' default r = 0.2.
 *
 * Boundary (Dirichlet): the cells just outside the plate are held at fixed
 * values, one per edge: by default the top edge at 100 and the three others
 * at 0 (HEAT_TOP, HEAT_OTHERS), the interior starting at 0; heat flows in
 * from the top and out through the sides and the bottom. Row 0 is the top
 * row (next to the top edge), column 0 the left one. Cells are doubles,
 * row-major: cell (i, j) is u[i * nx + j].
 *
 * ---- Bit for bit, whatever the strips ----------------------------------------
 *
 * Every decomposition into strips, and any re-cut between steps, gives the
 * very bytes of the sequential run. Why:
 *  - a cell's new value depends on five doubles (itself and its neighbours
 *    before the step) and r only, through the one expression above with its
 *    parentheses, in one function, heat_rows, used by the sequential step and
 *    by every strip alike: nothing is summed, maximised or otherwise reduced
 *    across cells, so neither where the strips are cut nor the order in which
 *    they are computed enters any cell's arithmetic;
 *  - a strip's first and last rows read their neighbours from halo rows,
 *    copies (memcpy) of the very doubles the sequential step reads; the
 *    edges' values are read only by the plate's first and last rows and
 *    columns, the same cells in every decomposition;
 *  - each IEEE-754 binary64 +, -, * is correctly rounded, so a given
 *    expression on given operands gives one result -- as long as the
 *    compiler evaluates the expression as written. Three things would change
 *    that: contracting r * (...) + u into one fused multiply-add (clang does
 *    by default, gcc in its GNU modes, whenever the target has FMA, e.g.
 *    -march=haswell), done at some call sites and not others: the heat/
 *    sources are compiled with -ffp-contract=off (the Makefile's heat block),
 *    and there is one copy of the expression in any case; reassociation
 *    (-ffast-math): refused at compile time; extended precision for
 *    intermediates (FLT_EVAL_METHOD != 0, x87): refused at compile time.
 * The sums are paired, (u_N + u_S) and (u_E + u_W), and each + commutes
 * exactly, so a plate symmetric under a mirror (left edge = right edge, or
 * top = bottom) keeps a field symmetric to the bit. Across hosts, the bytes
 * agree when the hosts run the same kernel code under the same rules (any
 * x86-64 or aarch64 build of this file with the Makefile's flags).
 *
 * Errors are codes (SCHED_E*, sched/sched.h) with a message in a sched_err
 * that names the bad value; the file writers, like thin's and mandel's,
 * return -1 with the failing call in a message buffer. Nothing here prints
 * or exits.
 */
#ifndef HEAT_H
#define HEAT_H

#include <stddef.h>
#include <stdint.h>

#include "sched/sched.h"
#include "sched/strips/strips.h"

/* A plate's side: 1..HEAT_MAX_SIDE cells; nx * ny at most HEAT_MAX_CELLS
 * (1 GiB of doubles a field: what libdtss deals in one run, WIRE_MAX_JOB). */
#define HEAT_MAX_SIDE 65536
#define HEAT_MAX_CELLS (1L << 27)
/* Strips (nodes) of a decomposition: 1..HEAT_MAX_STRIPS, at most ny. */
#define HEAT_MAX_STRIPS STRIPS_MAX_NODES
/* The default edges. */
#define HEAT_TOP 100.0
#define HEAT_OTHERS 0.0
/* An edge's value: at most this in magnitude, so that a step's sums (at
 * most 8 times the largest value, a field staying within its edges' and
 * its start's values) stay finite: 8e300 < DBL_MAX, 1.8e308. */
#define HEAT_MAX_EDGE 1e300

typedef struct heat_plate {
    int nx, ny;                         /* cells a row, rows */
    double r;                           /* alpha dt / h^2, in (0, 1/4] */
    double top, bottom, left, right;    /* the edges' fixed values */
} heat_plate;

/* Sets p to an nx x ny plate with step ratio r and the default edges (top
 * HEAT_TOP, the others HEAT_OTHERS), then checks it (heat_plate_check).
 * Returns SCHED_OK, or SCHED_EINVAL with err naming the bad value. */
int heat_plate_init(heat_plate *p, int nx, int ny, double r, sched_err *err);
/* Checks p: nx, ny in 1..HEAT_MAX_SIDE, nx * ny <= HEAT_MAX_CELLS,
 * 0 < r <= 0.25, the edges finite and at most HEAT_MAX_EDGE in magnitude. Returns SCHED_OK or SCHED_EINVAL
 * ("r=0.3 must be in (0, 0.25]: ..."). The functions below expect a checked
 * plate. */
int heat_plate_check(const heat_plate *p, sched_err *err);

/* ---- the kernel (heat/heat.c) ---------------------------------------------- */

/* One FTCS step of the rows row0 .. row0 + nrows - 1 (0 <= row0,
 * 1 <= nrows, row0 + nrows <= ny): in holds those rows as they are (nrows x
 * nx doubles), out gets their new values (the same shape; it must not
 * overlap in, above or below). above is row row0 - 1 (nx doubles: the
 * halo from the strip above), unused when row0 = 0 (the top edge is read
 * instead; may be NULL); below is row row0 + nrows, unused when row0 +
 * nrows = ny (the bottom edge). Each cell is computed as the header's
 * comment says, the same way whatever strip it is in. A bad row range or a
 * halo missing where one is needed is a bug of the caller: assert. */
void heat_rows(const heat_plate *p, int row0, int nrows, const double *above,
               const double *in, const double *below, double *out);

/* One step of the whole plate: heat_rows(p, 0, ny, NULL, u, NULL, out). */
void heat_step(const heat_plate *p, const double *u, double *out);

/* A new field of nx x ny zeros (the initial condition); the caller frees it
 * with free(). NULL with SCHED_ENOMEM in err. */
double *heat_field_new(const heat_plate *p, sched_err *err);

/* 'steps' (>= 0) steps of the whole plate, u in place. Returns SCHED_OK, or
 * SCHED_ENOMEM (u unchanged) or SCHED_EINVAL (steps < 0) with err. */
int heat_run(const heat_plate *p, double *u, long steps, sched_err *err);

/* ---- the field's outputs (heat/heat.c) ------------------------------------- */

/* The field as bytes: each cell, row by row, as 8 bytes little-endian
 * IEEE-754 binary64 (so the bytes, and what is computed from them, are the
 * same on every host). out holds 8 nx ny bytes. */
void heat_field_bytes(const heat_plate *p, const double *u, unsigned char *out);
/* FNV-1a 64 (sched/util/fnv.h) of heat_field_bytes: equal checksums, equal
 * fields (but for a collision). */
uint64_t heat_checksum(const heat_plate *p, const double *u);

/* Writes u as an 8-bit binary PGM (P5, nx x ny, row 0 at the top), cell v
 * shown as round(255 v / max), max the field's largest value (all black
 * when max <= 0; negative values black), with a comment line giving max.
 * Whole or not at all (sched/util/outfile.h); "-" is standard output. Returns
 * 0, or -1 with "CALL(PATH): strerror" in msg. */
int heat_write_pgm(const heat_plate *p, const double *u, const char *path,
                   char *msg, size_t len);
/* Writes heat_field_bytes (no header: 8 nx ny bytes), as heat_write_pgm. */
int heat_write_raw(const heat_plate *p, const double *u, const char *path,
                   char *msg, size_t len);

/* ---- P strips in one process (heat/strips.c) ------------------------------- */

typedef struct heat_strips heat_strips;

/* P strips of the field u (a copy; u stays the caller's) cut as count[]
 * (P counts >= 1 summing to ny, P in 1..HEAT_MAX_STRIPS; strips_even makes
 * an even cut). Returns NULL with err (SCHED_EINVAL naming the bad count,
 * SCHED_ENOMEM). */
heat_strips *heat_strips_new(const heat_plate *p, const double *u, int P,
                             const int *count, sched_err *err);
void heat_strips_free(heat_strips *s);

/* 'steps' steps (>= 0), each: every strip copies its neighbours' edge rows
 * into its halo rows, then runs heat_rows on its rows. */
void heat_strips_step(heat_strips *s, long steps);

/* What a re-cut did. */
typedef struct heat_moved {
    int transfers;          /* messages */
    int rounds;             /* one-port rounds */
    long rows;              /* rows sent, summed over the transfers (a row
                               handed on twice counts twice) */
} heat_moved;

/* Re-cuts the strips to target[] (strips_transfers), carrying out the
 * transfers in their order with strips_node_take and strips_node_put, as the
 * nodes would. moved (may be NULL) gets the counts. Returns SCHED_OK, or a
 * code with err: SCHED_EINVAL (a bad target, named; nothing moved),
 * SCHED_ENOMEM (the transfers done so far stay done: the strips still hold
 * the field, contiguous and in order, and step and gather work, but a strip
 * may be empty, and a later move then refuses the counts). */
int heat_strips_move(heat_strips *s, const int *target, heat_moved *moved,
                     sched_err *err);

/* The strips' current row counts into count[0 .. P-1]. */
void heat_strips_counts(const heat_strips *s, int *count);
/* Strip i, rows of nx doubles (valid until heat_strips_free; a step
 * changes its rows, a move may move them: its data is then read anew). */
const strips_node *heat_strips_strip(const heat_strips *s, int i);
/* The whole field, from the strips, into u (nx x ny doubles). */
void heat_strips_gather(const heat_strips *s, double *u);

#endif
