/* thin.c: Guo & Hall's two-subiteration thinning (algorithm A1), sequential.
 *
 * Z. Guo and R. W. Hall, "Parallel thinning with two-subiteration
 * algorithms", Communications of the ACM 32(3):359-373, March 1989.
 *
 * Heymann et al. adapted AFP3, Guo & Hall's later "fully parallel"
 * algorithm (CVGIP: Image Understanding 55(3):317-328, 1992). AFP3's exact
 * deletion conditions were not at hand, so this is the 1989 paper's A1,
 * whose conditions are these. With p a 1-pixel and x1..x8 its neighbours
 * counter-clockwise from the east (x1 = E, x2 = NE, x3 = N, x4 = NW, x5 = W,
 * x6 = SW, x7 = S, x8 = SE; x9 = x1), p is deleted iff
 *   (a) C(p) = 1, C(p) = sum_{i=1..4} [ !x_{2i-1} and (x_{2i} or x_{2i+1}) ]
 *       (the number of 8-connected components of 1-pixels around p);
 *   (b) 2 <= N(p) <= 3, N(p) = min(N1(p), N2(p)),
 *       N1(p) = sum_{k=1..4} (x_{2k-1} or x_{2k}),
 *       N2(p) = sum_{k=1..4} (x_{2k} or x_{2k+1});
 *   (c) in the first subiteration  (x2 or x3 or !x8) and x1 = 0,
 *       in the second subiteration (x6 or x7 or !x4) and x5 = 0.
 * Every pixel of a subiteration is decided from the image as it was when
 * the subiteration began; pixels outside the image are 0. An iteration is
 * the two subiterations; thinning stops when an iteration deletes nothing.
 *
 * Known values (tests/test_thin.c, worked by hand): a single pixel stays
 * (N = 0); a 3-pixel-thick horizontal bar becomes its centre row less its
 * two end pixels in one iteration and then stays.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "thin/thin_impl.h"

int thin_deletable(unsigned n, int sub)
{
    int x[10];
    for (int i = 1; i <= 8; i++)
        x[i] = (n >> (i - 1)) & 1;
    x[9] = x[1];
    int C = 0, N1 = 0, N2 = 0;
    for (int i = 1; i <= 4; i++) {
        C += !x[2 * i - 1] && (x[2 * i] || x[2 * i + 1]);
        N1 += x[2 * i - 1] || x[2 * i];
        N2 += x[2 * i] || x[2 * i + 1];
    }
    int N = N1 < N2 ? N1 : N2;
    if (C != 1 || N < 2 || N > 3)
        return 0;
    if (sub == 1)
        return !((x[2] || x[3] || !x[8]) && x[1]);
    return !((x[6] || x[7] || !x[4]) && x[5]);
}

void thin_lut(unsigned char lut[256], int sub)
{
    for (unsigned n = 0; n < 256; n++)
        lut[n] = (unsigned char)thin_deletable(n, sub);
}

/* The row kernel. Rows are copied before they change: 'above' holds row
 * r - 1 and 'orig' row r as they were on entry; row r + 1 is still as it
 * was (rows change only once passed). Zero bytes are skipped eight at a
 * time: the work is about the 1-pixels. */
long long thin_pass(unsigned char *base, int w, int n, size_t s,
                    const unsigned char lut[256], unsigned char *tmp,
                    long long *examined)
{
    unsigned char *above = tmp, *orig = tmp + s;
    long long del = 0, ex = 0;
    memcpy(above, base - s, s);
    for (int r = 0; r < n; r++) {
        unsigned char *row = base + (size_t)r * s;
        const unsigned char *below = row + s;
        memcpy(orig, row, s);
        for (int x = 1; x <= w; x++) {
            if (x + 8 <= w + 1) {
                uint64_t eight;
                memcpy(&eight, orig + x, 8);
                if (eight == 0) {
                    x += 7;
                    continue;
                }
            }
            if (!orig[x])
                continue;
            ex++;
            unsigned nb = (unsigned)orig[x + 1]
                        | (unsigned)above[x + 1] << 1
                        | (unsigned)above[x] << 2
                        | (unsigned)above[x - 1] << 3
                        | (unsigned)orig[x - 1] << 4
                        | (unsigned)below[x - 1] << 5
                        | (unsigned)below[x] << 6
                        | (unsigned)below[x + 1] << 7;
            if (lut[nb]) {
                row[x] = 0;
                del++;
            }
        }
        unsigned char *t = above;
        above = orig;
        orig = t;
    }
    *examined += ex;
    return del;
}

int thin_check_size(long long width, long long height, char *msg, size_t len)
{
    if (width < 1 || width > THIN_MAX_SIDE) {
        snprintf(msg, len, "width %lld must be in [1, %d]", width, THIN_MAX_SIDE);
        return -1;
    }
    if (height < 1 || height > THIN_MAX_SIDE) {
        snprintf(msg, len, "height %lld must be in [1, %d]", height, THIN_MAX_SIDE);
        return -1;
    }
    if (width * height > THIN_MAX_PIXELS) {
        snprintf(msg, len, "%lld x %lld = %lld pixels is over the limit of %ld",
                 width, height, width * height, THIN_MAX_PIXELS);
        return -1;
    }
    return 0;
}

int thin_image_init(thin_image *im, int width, int height, char *msg, size_t len)
{
    im->width = width;
    im->height = height;
    im->px = NULL;
    if (thin_check_size(width, height, msg, len) != 0)
        return -1;
    im->px = calloc((size_t)width * (size_t)height, 1);
    if (!im->px) {
        snprintf(msg, len, "out of memory for a %d x %d image", width, height);
        return -1;
    }
    return 0;
}

void thin_image_free(thin_image *im)
{
    free(im->px);
    im->px = NULL;
}

long long thin_image_count(const thin_image *im)
{
    return thin_ones(im->px, (size_t)im->width * (size_t)im->height);
}

/* Eight 0/1 bytes <-> one byte of eight pixels, the first (leftmost) in the
 * high bit, by multiplication: on a little-endian machine the first pixel
 * is the low byte of a 64-bit load. Elsewhere, bit by bit. */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define THIN_LE 1
#else
#define THIN_LE 0
#endif

void thin_pack_row(const unsigned char *px, int w, unsigned char *out)
{
    size_t full = (size_t)w / 8, x = 0;
    for (size_t k = 0; k < full; k++, x += 8) {
#if THIN_LE
        uint64_t v;
        memcpy(&v, px + x, 8);
        out[k] = (unsigned char)((v * 0x8040201008040201ULL) >> 56);
#else
        unsigned char b = 0;
        for (int i = 0; i < 8; i++)
            b |= (unsigned char)(px[x + i] << (7 - i));
        out[k] = b;
#endif
    }
    if (w & 7) {
        unsigned char b = 0;
        for (int i = 0; i < (w & 7); i++)
            b |= (unsigned char)(px[x + i] << (7 - i));
        out[full] = b;
    }
}

int thin_unpack_row(const unsigned char *in, int w, unsigned char *px)
{
    size_t full = (size_t)w / 8, x = 0;
    for (size_t k = 0; k < full; k++, x += 8) {
#if THIN_LE
        uint64_t v = ((in[k] * 0x8040201008040201ULL) & 0x8080808080808080ULL) >> 7;
        memcpy(px + x, &v, 8);
#else
        for (int i = 0; i < 8; i++)
            px[x + i] = (in[k] >> (7 - i)) & 1;
#endif
    }
    if (w & 7) {
        for (int i = 0; i < (w & 7); i++)
            px[x + i] = (in[full] >> (7 - i)) & 1;
        if (in[full] & (0xffu >> (w & 7)))
            return -1;
    }
    return 0;
}

/* The sum of eight 0/1 bytes is the top byte of the product (no carries:
 * at most 8), whatever the byte order. */
long long thin_ones(const unsigned char *px, size_t n)
{
    long long c = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v;
        memcpy(&v, px + i, 8);
        c += (long long)((v * 0x0101010101010101ULL) >> 56);
    }
    for (; i < n; i++)
        c += px[i];
    return c;
}

long long thin_diff(const unsigned char *now, const unsigned char *was, size_t n,
                    int *added)
{
    long long c = 0;
    uint64_t add = 0;
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t a, b;
        memcpy(&a, now + i, 8);
        memcpy(&b, was + i, 8);
        add |= a & ~b;
        c += (long long)(((a ^ b) * 0x0101010101010101ULL) >> 56);
    }
    for (; i < n; i++) {
        add |= (uint64_t)(now[i] & ~was[i] & 1);
        c += now[i] != was[i];
    }
    *added = add != 0;
    return c;
}

/* The image in a buffer with a frame of zeros (one row above and below, one
 * column each side): stride w + 2. NULL when out of memory. */
static unsigned char *framed(const thin_image *im, size_t *stride)
{
    size_t s = (size_t)im->width + 2;
    unsigned char *b = calloc(((size_t)im->height + 2) * s, 1);
    if (!b)
        return NULL;
    for (int y = 0; y < im->height; y++)
        memcpy(b + (size_t)(y + 1) * s + 1, im->px + (size_t)y * im->width,
               (size_t)im->width);
    *stride = s;
    return b;
}

static void unframe(thin_image *im, const unsigned char *b, size_t s)
{
    for (int y = 0; y < im->height; y++)
        memcpy(im->px + (size_t)y * im->width, b + (size_t)(y + 1) * s + 1,
               (size_t)im->width);
}

long long thin_subiteration(thin_image *im, int sub, long long *examined)
{
    size_t s;
    unsigned char *b = framed(im, &s);
    unsigned char *tmp = malloc(2 * ((size_t)im->width + 2));
    if (!b || !tmp) {
        free(b);
        free(tmp);
        return -1;
    }
    unsigned char lut[256];
    thin_lut(lut, sub);
    long long ex = 0;
    long long del = thin_pass(b + s, im->width, im->height, s, lut, tmp, &ex);
    unframe(im, b, s);
    free(b);
    free(tmp);
    if (examined)
        *examined = ex;
    return del;
}

int thin_run(thin_image *im, int max_iter, thin_stats *st)
{
    size_t s;
    unsigned char *b = framed(im, &s);
    unsigned char *tmp = malloc(2 * ((size_t)im->width + 2));
    if (!b || !tmp) {
        free(b);
        free(tmp);
        return -1;
    }
    unsigned char lut1[256], lut2[256];
    thin_lut(lut1, 1);
    thin_lut(lut2, 2);
    thin_stats z = {0, 0, 0, 0, 0};
    while (max_iter <= 0 || z.iterations < max_iter) {
        long long d = thin_pass(b + s, im->width, im->height, s, lut1, tmp, &z.examined);
        d += thin_pass(b + s, im->width, im->height, s, lut2, tmp, &z.examined);
        z.iterations++;
        z.deleted += d;
        if (d == 0) {
            z.converged = 1;
            break;
        }
    }
    unframe(im, b, s);
    free(b);
    free(tmp);
    z.pixels = thin_image_count(im);
    if (st)
        *st = z;
    return 0;
}
