/* heat.c: the FTCS kernel of the 2-D heat equation (heat.h), the plate's
 * checks, the sequential run and the field's outputs (checksum, PGM, raw).
 *
 *     u'[i][j] = u + r ((u_N + u_S) + (u_E + u_W) - 4 u),  0 < r <= 1/4
 *
 * Known value (tests/test_heat.c, worked there by hand): a 3 x 3 plate, top
 * edge 100, the others 0, r = 1/4, from all 0: after one step the top row
 * is 25 25 25, after two 31.25 37.5 31.25 / 6.25 6.25 6.25 / 0 0 0.
 *
 * The expression is written once, in heat_rows's inner loop, and every step
 * of every program goes through it (heat.h says why that makes any
 * decomposition bit for bit the sequential run). */
#include <assert.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "heat/heat.h"
#include "sched/sched.h"          /* sched_fail: the one way a sched_err is set */
#include "sched/util/conv.h"
#include "sched/util/fnv.h"
#include "sched/util/outfile.h"

/* The bit-for-bit guarantee (heat.h) needs both. */
#ifdef __FAST_MATH__
#error "heat.c must not be built with -ffast-math (reassociation)"
#endif
#if !defined(FLT_EVAL_METHOD) || FLT_EVAL_METHOD != 0
#error "heat.c needs FLT_EVAL_METHOD 0 (doubles evaluated as doubles)"
#endif

int heat_plate_init(heat_plate *p, int nx, int ny, double r, sched_err *err)
{
    *p = (heat_plate){.nx = nx, .ny = ny, .r = r, .top = HEAT_TOP,
                      .bottom = HEAT_OTHERS, .left = HEAT_OTHERS, .right = HEAT_OTHERS};
    return heat_plate_check(p, err);
}

int heat_plate_check(const heat_plate *p, sched_err *err)
{
    if (p->nx < 1 || p->nx > HEAT_MAX_SIDE)
        return sched_fail(err, SCHED_EINVAL, "nx=%d must be in 1..%d", p->nx,
                          HEAT_MAX_SIDE);
    if (p->ny < 1 || p->ny > HEAT_MAX_SIDE)
        return sched_fail(err, SCHED_EINVAL, "ny=%d must be in 1..%d", p->ny,
                          HEAT_MAX_SIDE);
    if ((long)p->nx * p->ny > HEAT_MAX_CELLS)
        return sched_fail(err, SCHED_EINVAL,
                          "nx x ny = %d x %d = %ld cells is over the limit of %ld", p->nx,
                          p->ny, (long)p->nx * p->ny, HEAT_MAX_CELLS);
    if (!(p->r > 0 && p->r <= 0.25))
        return sched_fail(err, SCHED_EINVAL,
                          "r=%g must be in (0, 0.25]: r = alpha dt / h^2, and the 2-D FTCS "
                          "scheme is stable only for r <= 1/4", p->r);
    const double edge[4] = {p->top, p->bottom, p->left, p->right};
    static const char *const name[4] = {"top", "bottom", "left", "right"};
    for (int k = 0; k < 4; k++)
        if (!(fabs(edge[k]) <= HEAT_MAX_EDGE))
            return sched_fail(err, SCHED_EINVAL, "the %s edge's value %g must be finite, "
                              "at most %g in magnitude", name[k], edge[k], HEAT_MAX_EDGE);
    return SCHED_OK;
}

/* ---- the kernel ------------------------------------------------------------ */

void heat_rows(const heat_plate *p, int row0, int nrows, const double *above,
               const double *in, const double *below, double *out)
{
    const int nx = p->nx, last = p->nx - 1;
    const double r = p->r;
    assert(row0 >= 0 && nrows >= 1 && row0 + nrows <= p->ny);
    assert(row0 == 0 || above);
    assert(row0 + nrows == p->ny || below);
    for (int k = 0; k < nrows; k++) {
        /* The rows around row k of the strip: the strip's own, a halo, or
         * NULL for an edge of the plate. */
        const double *c = in + (size_t)k * nx;
        const double *n = k > 0 ? c - nx : row0 > 0 ? above : NULL;
        const double *s = k < nrows - 1 ? c + nx : row0 + nrows < p->ny ? below : NULL;
        double *o = out + (size_t)k * nx;
        for (int j = 0; j < nx; j++) {
            const double u = c[j];
            const double un = n ? n[j] : p->top;
            const double us = s ? s[j] : p->bottom;
            const double uw = j > 0 ? c[j - 1] : p->left;
            const double ue = j < last ? c[j + 1] : p->right;
            o[j] = u + r * ((un + us) + (ue + uw) - 4.0 * u);
        }
    }
}

void heat_step(const heat_plate *p, const double *u, double *out)
{
    heat_rows(p, 0, p->ny, NULL, u, NULL, out);
}

double *heat_field_new(const heat_plate *p, sched_err *err)
{
    double *u = calloc((size_t)p->nx * p->ny, sizeof *u);
    if (!u)
        sched_fail(err, SCHED_ENOMEM, "out of memory for a %d x %d field", p->nx, p->ny);
    return u;
}

int heat_run(const heat_plate *p, double *u, long steps, sched_err *err)
{
    if (steps < 0)
        return sched_fail(err, SCHED_EINVAL, "steps=%ld must be >= 0", steps);
    if (steps == 0)
        return SCHED_OK;
    size_t n = (size_t)p->nx * p->ny;
    double *v = malloc(n * sizeof *v);
    if (!v)
        return sched_fail(err, SCHED_ENOMEM, "out of memory for a %d x %d field", p->nx,
                          p->ny);
    double *a = u, *b = v;
    for (long k = 0; k < steps; k++) {
        heat_step(p, a, b);
        double *t = a;
        a = b;
        b = t;
    }
    if (a != u)
        memcpy(u, a, n * sizeof *u);
    free(v);
    return SCHED_OK;
}

/* ---- outputs --------------------------------------------------------------- */

static void le8(double v, unsigned char *b)
{
    uint64_t x;
    memcpy(&x, &v, sizeof x);
    for (int k = 0; k < 8; k++)
        b[k] = (unsigned char)(x >> (8 * k));
}

void heat_field_bytes(const heat_plate *p, const double *u, unsigned char *out)
{
    size_t n = (size_t)p->nx * p->ny;
    for (size_t i = 0; i < n; i++)
        le8(u[i], out + 8 * i);
}

uint64_t heat_checksum(const heat_plate *p, const double *u)
{
    size_t n = (size_t)p->nx * p->ny;
    uint64_t h = FNV1A_BASIS;
    unsigned char b[8];
    for (size_t i = 0; i < n; i++) {
        le8(u[i], b);
        h = fnv1a(h, b, sizeof b);
    }
    return h;
}

/* Opens path whole or not at all, lets put write, closes; -1 with msg. A
 * failed write is seen by outfile_close (ferror), which drops the file. */
static int write_file(const char *path, void (*put)(FILE *f, const heat_plate *p,
                                                     const double *u),
                      const heat_plate *p, const double *u, char *msg, size_t len)
{
    outfile o;
    const char *call;
    if (outfile_open(&o, path, "wb") != 0) {
        outfile_msg(msg, len, path, NULL, errno);
        return -1;
    }
    put(o.f, p, u);
    if (outfile_close(&o, &call) != 0) {
        outfile_msg(msg, len, path, call, errno);
        return -1;
    }
    return 0;
}

static void put_pgm(FILE *f, const heat_plate *p, const double *u)
{
    size_t n = (size_t)p->nx * p->ny;
    double max = 0;
    for (size_t i = 0; i < n; i++)
        if (u[i] > max)
            max = u[i];
    fprintf(f, "P5\n# heat field: 0 .. %.17g shown as 0 .. 255\n%d %d\n255\n", max,
            p->nx, p->ny);
    for (size_t i = 0; i < n; i++) {
        /* u / max in (0, 1] (fmin also when max is inf: NaN gives 1):
         * 255 times it rounded is a byte */
        int v = max > 0 && u[i] > 0 ? (int)conv_clamp(round(fmin(u[i] / max, 1.0) * 255.0),
                                                      0, 255) : 0;
        if (putc(v, f) == EOF)
            break;
    }
}

static void put_raw(FILE *f, const heat_plate *p, const double *u)
{
    size_t n = (size_t)p->nx * p->ny;
    unsigned char b[8];
    for (size_t i = 0; i < n; i++) {
        le8(u[i], b);
        if (fwrite(b, 1, sizeof b, f) != sizeof b)
            break;
    }
}

int heat_write_pgm(const heat_plate *p, const double *u, const char *path, char *msg,
                   size_t len)
{
    return write_file(path, put_pgm, p, u, msg, len);
}

int heat_write_raw(const heat_plate *p, const double *u, const char *path, char *msg,
                   size_t len)
{
    return write_file(path, put_raw, p, u, msg, len);
}
