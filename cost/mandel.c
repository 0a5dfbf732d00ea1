/* mandel.c: the Mandelbrot image as a loop and its escape-time kernel
 * (cost.h): the pixels of a row or a column and what they cost. */
#include <math.h>
#include <stdio.h>

#include "cost/cost.h"

void mandel_defaults(mandel_params *p)
{
    p->width = p->height = MANDEL_DEFAULT_SIZE;
    p->maxiter = MANDEL_DEFAULT_MAXITER;
    p->xmin = p->ymin = -2.0;
    p->xmax = p->ymax = 2.0;
    p->columns = 0;
}

int mandel_check(const mandel_params *p, char *msg, size_t len)
{
    if (p->width < 1) {
        snprintf(msg, len, "width %d must be >= 1", p->width);
        return -1;
    }
    if (p->height < 1) {
        snprintf(msg, len, "height %d must be >= 1", p->height);
        return -1;
    }
    if (p->width > MANDEL_MAX_WIDTH) {
        snprintf(msg, len, "width %d is over the limit of %d pixels a row", p->width,
                 MANDEL_MAX_WIDTH);
        return -1;
    }
    if (p->columns && p->height > MANDEL_MAX_WIDTH) {
        snprintf(msg, len, "height %d is over the limit of %d pixels a column (the loop "
                 "over columns)", p->height, MANDEL_MAX_WIDTH);
        return -1;
    }
    if ((long long)p->width * p->height > MANDEL_MAX_PIXELS) {
        snprintf(msg, len, "%dx%d = %lld pixels is over the limit of %ld (8192x8192)",
                 p->width, p->height, (long long)p->width * p->height, MANDEL_MAX_PIXELS);
        return -1;
    }
    if (p->maxiter < 1) {
        snprintf(msg, len, "maxiter %u must be >= 1", (unsigned)p->maxiter);
        return -1;
    }
    if (!(p->xmin < p->xmax) || !(p->ymin < p->ymax) || !isfinite(p->xmin) ||
        !isfinite(p->xmax) || !isfinite(p->ymin) || !isfinite(p->ymax)) {
        snprintf(msg, len, "region (%g,%g)-(%g,%g) must have xmin < xmax and "
                 "ymin < ymax", p->xmin, p->ymin, p->xmax, p->ymax);
        return -1;
    }
    return 0;
}

/* z <- z^2 + c with the squares kept from one step to the next: three
 * multiplications a step. The counting matches the textbook loop exactly
 * (tests/test_mandel.c compares them point by point). */
uint32_t mandel_point(double cr, double ci, uint32_t maxiter)
{
    double zr = 0, zi = 0, zr2 = 0, zi2 = 0;
    uint32_t n = 0;
    while (n < maxiter && zr2 + zi2 <= 4.0) {
        zi = 2.0 * zr * zi + ci;
        zr = zr2 - zi2 + cr;
        zr2 = zr * zr;
        zi2 = zi * zi;
        n++;
    }
    return n;
}

uint64_t mandel_span(const mandel_params *p, int y, int x0, int x1, uint32_t *out)
{
    double dx = (p->xmax - p->xmin) / p->width;
    double dy = (p->ymax - p->ymin) / p->height;
    double ci = p->ymax - (y + 0.5) * dy;
    uint64_t cost = 0;
    for (int x = x0; x < x1; x++) {
        out[x - x0] = mandel_point(p->xmin + (x + 0.5) * dx, ci, p->maxiter);
        cost += out[x - x0];
    }
    return cost;
}

uint64_t mandel_row(const mandel_params *p, int y, uint32_t *out)
{
    return mandel_span(p, y, 0, p->width, out);
}

long mandel_lines(const mandel_params *p)
{
    return p->columns ? p->width : p->height;
}

int mandel_line_len(const mandel_params *p)
{
    return p->columns ? p->height : p->width;
}

/* A column's pixels with the row loop's very arithmetic (mandel_span's c for
 * pixel (x, y)), so that both loops give every pixel the same count. */
uint64_t mandel_line_span(const mandel_params *p, long k, int a, int b, uint32_t *out)
{
    if (!p->columns)
        return mandel_span(p, (int)k, a, b, out);
    double dx = (p->xmax - p->xmin) / p->width;
    double dy = (p->ymax - p->ymin) / p->height;
    double cr = p->xmin + ((double)k + 0.5) * dx;
    uint64_t cost = 0;
    for (int y = a; y < b; y++) {
        out[y - a] = mandel_point(cr, p->ymax - (y + 0.5) * dy, p->maxiter);
        cost += out[y - a];
    }
    return cost;
}

uint64_t mandel_line(const mandel_params *p, long k, uint32_t *out)
{
    return mandel_line_span(p, k, 0, mandel_line_len(p), out);
}
