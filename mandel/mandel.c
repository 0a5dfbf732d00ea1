/* mandel.c: the Mandelbrot image's job and row encodings, checksum, PGM
 * output (the rows themselves and their cost: cost/mandel.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mandel/mandel.h"
#include "sched/util/conv.h"
#include "sched/util/outfile.h"
#include "sched/util/quote.h"

const char *mandel_loop_name(const mandel_params *p)
{
    return p->columns ? "columns" : "rows";
}

void mandel_put_line(const mandel_params *p, long k, const uint32_t *line, uint32_t *counts)
{
    size_t W = (size_t)p->width;
    if (!p->columns) {
        memcpy(counts + (size_t)k * W, line, W * sizeof *line);
        return;
    }
    for (int y = 0; y < p->height; y++)
        counts[(size_t)y * W + (size_t)k] = line[y];
}

/* With n = q R + s (0 <= s < R), residue classes r < s hold q + 1 indices
 * and the others q; class r starts at position r q + min(r, s). */
int mandel_encode(const mandel_params *p, char *buf, size_t len)
{
    int n = snprintf(buf, len, "mandel1 %d %d %lu %a %a %a %a%s", p->width, p->height,
                     (unsigned long)p->maxiter, p->xmin, p->ymin, p->xmax, p->ymax,
                     p->columns ? " columns" : "");
    return n < 0 || (size_t)n >= len ? -1 : n + 1;
}

int mandel_decode(mandel_params *p, const char *buf, size_t n, char *msg,
                  size_t len)
{
    char text[MANDEL_JOB_MAX], word[16], tail;
    unsigned long maxiter;
    int got;
    if (n == 0 || n > sizeof text || buf[n - 1] != '\0') {
        snprintf(msg, len, "a job of %zu bytes is not a Mandelbrot image's", n);
        return -1;
    }
    memcpy(text, buf, n);
    got = sscanf(text, "mandel1 %d %d %lu %la %la %la %la %15s %c", &p->width, &p->height,
                 &maxiter, &p->xmin, &p->ymin, &p->xmax, &p->ymax, word, &tail);
    p->columns = got == 8 && strcmp(word, "columns") == 0;
    if ((got != 7 && !(got == 8 && p->columns)) || maxiter > UINT32_MAX) {
        snprintf(msg, len, "the job '%s' is not a Mandelbrot image's", quote(text));
        return -1;
    }
    p->maxiter = (uint32_t)maxiter;
    return mandel_check(p, msg, len);
}

/* The wire's order is little-endian: on a little-endian host a row's bytes
 * are its counts as they lie in memory (one copy: the byte loop cost some
 * 2800 instructions a 200-pixel row, at each end, callgrind). */
#if defined(__BYTE_ORDER__) && defined(__ORDER_LITTLE_ENDIAN__) && \
    __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define MANDEL_WIRE_IS_HOST 1
#else
#define MANDEL_WIRE_IS_HOST 0
#endif

void mandel_row_bytes(const uint32_t *counts, size_t n, unsigned char *out)
{
    if (MANDEL_WIRE_IS_HOST) {
        memcpy(out, counts, 4 * n);
        return;
    }
    for (size_t i = 0; i < n; i++) {
        out[4 * i] = (unsigned char)counts[i];
        out[4 * i + 1] = (unsigned char)(counts[i] >> 8);
        out[4 * i + 2] = (unsigned char)(counts[i] >> 16);
        out[4 * i + 3] = (unsigned char)(counts[i] >> 24);
    }
}

void mandel_row_counts(const unsigned char *in, size_t n, uint32_t *counts)
{
    if (MANDEL_WIRE_IS_HOST) {
        memcpy(counts, in, 4 * n);
        return;
    }
    for (size_t i = 0; i < n; i++)
        counts[i] = (uint32_t)in[4 * i] | (uint32_t)in[4 * i + 1] << 8 |
                    (uint32_t)in[4 * i + 2] << 16 | (uint32_t)in[4 * i + 3] << 24;
}

uint64_t mandel_checksum(const uint32_t *counts, size_t n)
{
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++)
        for (int b = 0; b < 32; b += 8) {
            h ^= (counts[i] >> b) & 0xffu;
            h *= 1099511628211ull;
        }
    return h;
}

int mandel_write_pgm(const char *path, const mandel_params *p,
                     const uint32_t *counts, char *msg, size_t len)
{
    outfile o;
    const char *call;
    if (outfile_open(&o, path, "wb") != 0) {
        outfile_msg(msg, len, path, NULL, errno);
        return -1;
    }
    FILE *f = o.f;
    fprintf(f, "P5\n%d %d\n255\n", p->width, p->height);
    double scale = 254.0 / log1p((double)p->maxiter);
    size_t n = (size_t)p->width * (size_t)p->height;
    for (size_t i = 0; i < n; i++) {
        /* a count below maxiter: 1 + 254 log1p(count) / log1p(maxiter) is
         * in [1, 255) */
        unsigned char v = counts[i] >= p->maxiter
                        ? 0 : (unsigned char)conv_clamp(1.0 + scale * log1p(counts[i]), 1, 255);
        if (putc(v, f) == EOF)
            break;
    }
    if (outfile_close(&o, &call) != 0) {
        outfile_msg(msg, len, path, call, errno);
        return -1;
    }
    return 0;
}
