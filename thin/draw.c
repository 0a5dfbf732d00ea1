/* draw.c: the three test images (draw.h) and the PSF font reader.
 *
 * Shapes are drawn in design units (pixels at zoom 1): a pixel (x, y) is
 * set when its centre ((x + 0.5) / zoom, (y + 0.5) / zoom) lies in the
 * shape. Nothing is random; a scene drawn twice is the same bit for bit.
 * The sizes are chosen so that each image converges in about as many
 * iterations as the paper's (92, 105, 97; docs/thin.md has ours): thinning
 * peels about one pixel a side per iteration, so the iterations follow the
 * half-thickness of the thickest shape.
 */
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/util/quote.h"
#include "sched/util/conv.h"
#include "thin/draw.h"
#include "thin/thin_impl.h"

/* ---- PSF fonts ------------------------------------------------------------- */

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* The Unicode table: for each glyph, its characters then a terminator;
 * a sequence marker starts combining sequences (not single characters) up
 * to the terminator. PSF1: 16-bit little-endian values, 0xFFFF ends, 0xFFFE
 * starts sequences. PSF2: UTF-8, 0xFF ends, 0xFE starts sequences. */
static int unicode_table(thin_font *f, const unsigned char *p, const unsigned char *end,
                         int psf2, char *msg, size_t mlen)
{
    for (int g = 0; g < f->count; g++) {
        int seq = 0;
        for (;;) {
            unsigned v;
            if (psf2) {
                if (p >= end)
                    goto short_table;
                v = *p++;
                if (v == 0xFF)
                    break;
                if (v == 0xFE) {
                    seq = 1;
                    continue;
                }
                /* A multi-byte UTF-8 character is not ASCII: its bytes are
                 * all >= 0x80 and are skipped one by one. */
            } else {
                if (end - p < 2)
                    goto short_table;
                v = (unsigned)p[0] | (unsigned)p[1] << 8;
                p += 2;
                if (v == 0xFFFF)
                    break;
                if (v == 0xFFFE) {
                    seq = 1;
                    continue;
                }
            }
            if (!seq && v < 128 && f->ascii[v] < 0)
                f->ascii[v] = g;
        }
    }
    return 0;
short_table:
    snprintf(msg, mlen, "PSF font: the Unicode table ends early");
    return -1;
}

int thin_font_load(thin_font *f, const unsigned char *d, size_t len, char *msg,
                   size_t mlen)
{
    memset(f, 0, sizeof *f);
    for (int c = 0; c < 128; c++)
        f->ascii[c] = -1;
    size_t off;
    int table, psf2 = 0;
    if (len >= 4 && d[0] == 0x36 && d[1] == 0x04) {
        f->width = 8;
        f->height = d[3];
        f->count = (d[2] & 1) ? 512 : 256;
        f->charsize = (size_t)f->height;
        off = 4;
        table = (d[2] & 6) != 0;
    } else if (len >= 32 && le32(d) == 0x864ab572u) {
        uint32_t hs = le32(d + 8), flags = le32(d + 12), n = le32(d + 16),
                 cs = le32(d + 20), h = le32(d + 24), w = le32(d + 28);
        if (w < 1 || w > 64 || h < 1 || h > 128 || n < 1 || n > 65536 || hs < 32 ||
            hs > len || cs != h * ((w + 7) / 8)) {
            snprintf(msg, mlen, "PSF2 font: bad header (width %u, height %u, %u glyphs "
                     "of %u bytes, header %u bytes)", (unsigned)w, (unsigned)h,
                     (unsigned)n, (unsigned)cs, (unsigned)hs);
            return -1;
        }
        f->width = (int)w;
        f->height = (int)h;
        f->count = (int)n;
        f->charsize = cs;
        off = hs;
        table = flags & 1;
        psf2 = 1;
    } else {
        snprintf(msg, mlen, "not a PSF font (bad magic number)");
        return -1;
    }
    if (f->height < 1) {
        snprintf(msg, mlen, "PSF font: height 0");
        return -1;
    }
    size_t bytes = (size_t)f->count * f->charsize;
    if (len - off < bytes) {
        snprintf(msg, mlen, "PSF font: %zu bytes of glyphs expected, %zu there", bytes,
                 len - off);
        return -1;
    }
    f->glyphs = malloc(bytes);
    if (!f->glyphs) {
        snprintf(msg, mlen, "PSF font: out of memory");
        return -1;
    }
    memcpy(f->glyphs, d + off, bytes);
    if (table) {
        if (unicode_table(f, d + off + bytes, d + len, psf2, msg, mlen) != 0) {
            thin_font_free(f);
            return -1;
        }
    } else {
        for (int c = 0; c < 128 && c < f->count; c++)
            f->ascii[c] = c;
    }
    return 0;
}

void thin_font_free(thin_font *f)
{
    free(f->glyphs);
    f->glyphs = NULL;
}

int thin_font_pixel(const thin_font *f, int c, int x, int y)
{
    if (c < 0 || c >= 128 || f->ascii[c] < 0 || x < 0 || x >= f->width || y < 0 ||
        y >= f->height)
        return 0;
    const unsigned char *g = f->glyphs + (size_t)f->ascii[c] * f->charsize;
    size_t rb = ((size_t)f->width + 7) / 8;
    return (g[(size_t)y * rb + (size_t)(x >> 3)] >> (7 - (x & 7))) & 1;
}

/* ---- shapes ------------------------------------------------------------------ */

typedef struct canvas {
    thin_image *im;
    double z;                   /* pixels per design unit */
    unsigned char ink;          /* what a shape sets its pixels to: 1, or 0 to cut */
} canvas;

/* The pixel box covering design box [x0, x1] x [y0, y1], clipped. */
static void box(const canvas *c, double x0, double y0, double x1, double y1, int *px0,
                int *py0, int *px1, int *py1)
{
    /* a pixel's margin around it, clipped to the image (an empty box stays
     * empty: px0 >= px1) */
    *px0 = (int)conv_clamp(floor(x0 * c->z) - 1, 0, c->im->width);
    *py0 = (int)conv_clamp(floor(y0 * c->z) - 1, 0, c->im->height);
    *px1 = (int)conv_clamp(ceil(x1 * c->z) + 1, 0, c->im->width);
    *py1 = (int)conv_clamp(ceil(y1 * c->z) + 1, 0, c->im->height);
}

/* For each pixel (px_, py_) of the box around a design box; inside the
 * body, x and y are its centre in design units and SET(c) sets it. */
#define FOR_PIXELS(c, x0, y0, x1, y1)                                          \
    int px0_, py0_, px1_, py1_;                                                \
    box(c, x0, y0, x1, y1, &px0_, &py0_, &px1_, &py1_);                        \
    for (int py_ = py0_; py_ < py1_; py_++)                                    \
        for (int px_ = px0_; px_ < px1_; px_++)
#define CENTRE(c) double x = (px_ + 0.5) / (c)->z, y = (py_ + 0.5) / (c)->z
#define SET(c) ((c)->im->px[(size_t)py_ * (c)->im->width + (size_t)px_] = (c)->ink)

/* An ellipse of semi-axes rx, ry turned by deg degrees (clockwise on the
 * screen, y pointing down). */
static void ellipse(canvas *c, double cx, double cy, double rx, double ry, double deg)
{
    double t = deg * 3.14159265358979323846 / 180.0, ct = cos(t), st = sin(t);
    double r = rx > ry ? rx : ry;
    FOR_PIXELS(c, cx - r, cy - r, cx + r, cy + r) {
        CENTRE(c);
        double u = (x - cx) * ct + (y - cy) * st, v = -(x - cx) * st + (y - cy) * ct;
        if ((u * u) / (rx * rx) + (v * v) / (ry * ry) <= 1.0)
            SET(c);
    }
}

static void disc(canvas *c, double cx, double cy, double r)
{
    ellipse(c, cx, cy, r, r, 0);
}

static void ring(canvas *c, double cx, double cy, double r0, double r1)
{
    FOR_PIXELS(c, cx - r1, cy - r1, cx + r1, cy + r1) {
        CENTRE(c);
        double d2 = (x - cx) * (x - cx) + (y - cy) * (y - cy);
        if (d2 <= r1 * r1 && d2 >= r0 * r0)
            SET(c);
    }
}

static void rect(canvas *c, double x0, double y0, double x1, double y1)
{
    FOR_PIXELS(c, x0, y0, x1, y1) {
        CENTRE(c);
        if (x >= x0 && x <= x1 && y >= y0 && y <= y1)
            SET(c);
    }
}

static double side(double ax, double ay, double bx, double by, double x, double y)
{
    return (bx - ax) * (y - ay) - (by - ay) * (x - ax);
}

static void triangle(canvas *c, double ax, double ay, double bx, double by, double qx,
                     double qy)
{
    double x0 = fmin(ax, fmin(bx, qx)), x1 = fmax(ax, fmax(bx, qx));
    double y0 = fmin(ay, fmin(by, qy)), y1 = fmax(ay, fmax(by, qy));
    FOR_PIXELS(c, x0, y0, x1, y1) {
        CENTRE(c);
        double s1 = side(ax, ay, bx, by, x, y), s2 = side(bx, by, qx, qy, x, y),
               s3 = side(qx, qy, ax, ay, x, y);
        if ((s1 >= 0 && s2 >= 0 && s3 >= 0) || (s1 <= 0 && s2 <= 0 && s3 <= 0))
            SET(c);
    }
}

/* A thick segment with round ends (a limb): the points within r of it. */
static void capsule(canvas *c, double ax, double ay, double bx, double by, double r)
{
    double dx = bx - ax, dy = by - ay, l2 = dx * dx + dy * dy;
    FOR_PIXELS(c, fmin(ax, bx) - r, fmin(ay, by) - r, fmax(ax, bx) + r, fmax(ay, by) + r) {
        CENTRE(c);
        double t = l2 > 0 ? ((x - ax) * dx + (y - ay) * dy) / l2 : 0;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        double ex = ax + t * dx - x, ey = ay + t * dy - y;
        if (ex * ex + ey * ey <= r * r)
            SET(c);
    }
}

/* Outlines: the shape, then a smaller one inside cut out (ink 0), leaving a
 * stroke s units wide. */
static void rect_outline(canvas *c, double x0, double y0, double x1, double y1, double s)
{
    rect(c, x0, y0, x1, y1);
    c->ink = 0;
    rect(c, x0 + s, y0 + s, x1 - s, y1 - s);
    c->ink = 1;
}

/* The inner triangle: the outer one shrunk about its incentre so that its
 * sides are s units in. */
static void triangle_outline(canvas *c, double ax, double ay, double bx, double by,
                             double qx, double qy, double s)
{
    double la = hypot(qx - bx, qy - by), lb = hypot(ax - qx, ay - qy),
           lq = hypot(bx - ax, by - ay), per = la + lb + lq;
    double ix = (la * ax + lb * bx + lq * qx) / per, iy = (la * ay + lb * by + lq * qy) / per;
    double r = fabs(side(ax, ay, bx, by, qx, qy)) / per, k = (r - s) / r;
    triangle(c, ax, ay, bx, by, qx, qy);
    c->ink = 0;
    triangle(c, ix + (ax - ix) * k, iy + (ay - iy) * k, ix + (bx - ix) * k,
             iy + (by - iy) * k, ix + (qx - ix) * k, iy + (qy - iy) * k);
    c->ink = 1;
}

/* ---- the scenes ---------------------------------------------------------------- */

/* Figures: filled rectangles, discs, triangles and rings. The thick ones
 * are in the middle rows, thickest at the centre (a bar 182 thick, a disc
 * of radius 90: 92 iterations); the strips at the top and the bottom
 * (rows 0-127 and 845-999, 9 of 32 parts) hold only thin ones (strokes of
 * 12-16, dots of radius 9), done in at most 11 iterations. Cut into
 * horizontal parts, the border parts finish first and the parallelism
 * decays towards the centre rows, as in Heymann et al.'s runs (Sec. 4.2). */
#define FIGURES_W 1800
#define FIGURES_H 1000
static void figures(canvas *c)
{
    /* the top strip, rows 24-104: thin figures */
    rect_outline(c, 60, 24, 400, 104, 14);
    rect(c, 480, 56, 860, 72);                          /* a thin bar, 16 */
    disc(c, 940, 64, 9);
    disc(c, 1000, 64, 9);
    disc(c, 1060, 64, 9);
    ring(c, 1200, 64, 28, 40);
    triangle_outline(c, 1320, 104, 1520, 104, 1420, 24, 12);
    capsule(c, 1600, 30, 1740, 98, 7);
    /* the middle rows, 140-840: thicker towards the centre, row 491 */
    triangle(c, 60, 380, 320, 380, 190, 150);
    disc(c, 470, 250, 62);
    rect(c, 600, 170, 900, 232);                        /* 62 thick */
    ring(c, 1130, 220, 30, 80);
    triangle(c, 1400, 170, 1720, 170, 1560, 360);       /* pointing down */
    rect(c, 60, 400, 560, 582);                         /* the bar, 182 thick */
    disc(c, 780, 491, 90);
    ring(c, 1130, 491, 80, 170);                        /* 90 thick */
    rect(c, 1400, 420, 1740, 562);                      /* a block, 142 thick */
    disc(c, 160, 720, 70);
    triangle(c, 330, 820, 600, 820, 330, 610);          /* a right triangle */
    rect(c, 680, 630, 900, 700);                        /* 70 thick */
    ring(c, 790, 780, 20, 50);
    triangle(c, 1000, 690, 1300, 690, 1150, 840);       /* pointing down */
    disc(c, 1580, 730, 80);
    /* the bottom strip, rows 880-970 */
    triangle_outline(c, 60, 970, 300, 970, 180, 880, 12);
    ring(c, 420, 925, 32, 44);
    disc(c, 540, 925, 9);
    disc(c, 600, 925, 9);
    rect(c, 680, 918, 1080, 934);                       /* a thin bar, 16 */
    rect_outline(c, 1160, 880, 1460, 970, 14);
    capsule(c, 1540, 960, 1740, 890, 7);
}

/* Boy&Ball: a boy (head, torso, arms, legs, feet) kicking a ball up into the
 * air, on a thin line of ground, two birds above. The ball (radius 96: 97
 * iterations) and the torso are in the middle rows; the strips at the top
 * and the bottom hold only the birds, the ground and the ball's shadow
 * (strokes of 12-16, done in 9 iterations) and the standing foot's sole. */
#define BOYBALL_W 1400
#define BOYBALL_H 1400
static void boyball(canvas *c)
{
    capsule(c, 840, 80, 890, 110, 6);                   /* the birds */
    capsule(c, 890, 110, 940, 80, 6);
    capsule(c, 1040, 120, 1080, 145, 6);
    capsule(c, 1080, 145, 1120, 120, 6);
    disc(c, 520, 262, 72);                              /* head */
    capsule(c, 520, 320, 520, 380, 38);                 /* neck */
    ellipse(c, 520, 570, 72, 210, 0);                   /* torso */
    capsule(c, 465, 440, 290, 550, 36);                 /* left arm, out */
    capsule(c, 290, 550, 240, 730, 38);
    capsule(c, 575, 430, 760, 540, 36);                 /* right arm, out */
    capsule(c, 760, 540, 880, 420, 38);
    capsule(c, 490, 760, 440, 1120, 52);                /* left leg */
    ellipse(c, 395, 1152, 95, 36, 0);                   /* its foot, on the ground */
    capsule(c, 555, 760, 700, 960, 52);                 /* right leg, kicking */
    capsule(c, 700, 960, 830, 1010, 46);
    ellipse(c, 880, 1010, 80, 34, -25);                 /* its foot */
    disc(c, 1130, 700, 96);                             /* the ball, in the air */
    capsule(c, 60, 1195, 1340, 1195, 7);                /* the ground */
    ellipse(c, 1130, 1240, 80, 8, 0);                   /* the ball's shadow */
}

#define LETTERS_TEXT "TILE"
#define LETTERS_BLOCK 52        /* design units per font pixel of the text */
#define LETTERS_SMALL 5         /* ... of the lines above and below it */

/* Letters: a font specimen. The text in the middle, each font pixel a
 * square of LETTERS_BLOCK units (strokes 104-156 thick: 105 iterations
 * with TILE), a font pixel of margin around it; above it the alphabet in
 * capitals, below it in small letters, each font pixel LETTERS_SMALL units
 * (strokes 10-15: done in at most 14 iterations), centred, cut to the
 * characters that fit the text's width. A line's strip is LETTERS_BLOCK
 * units, its glyph rows, LETTERS_BLOCK units; a line none of whose
 * characters the font draws is left out. Of the glyph cells, only the rows
 * that some character of the text (of the line) uses are drawn. */
static const char *const letters_lines[2] = {
    "ABCDEFGHIJKLMNOPQRSTUVWXYZ", "abcdefghijklmnopqrstuvwxyz"};

typedef struct letters_layout {
    int width, rows, top;       /* the text: font pixels across (a margin of
                                   one each side), rows with a margin of one
                                   above and below, its first glyph row */
    int n[2], lrows[2], ltop[2];/* the lines: characters, glyph rows (0: left
                                   out), first glyph row */
    double strip[2];            /* the lines' strips, design units */
} letters_layout;

/* The glyph rows the first n characters of s use: -1 when none. */
static int rows_used(const thin_font *f, const char *s, size_t n, int *top, int *bottom)
{
    int t = f->height, b = -1;
    for (size_t i = 0; i < n; i++)
        for (int y = 0; y < f->height; y++)
            for (int x = 0; x < f->width; x++)
                if (thin_font_pixel(f, (unsigned char)s[i], x, y)) {
                    if (y < t) t = y;
                    if (y > b) b = y;
                }
    if (b < 0)
        return -1;
    *top = t;
    *bottom = b;
    return 0;
}

static int letters_size(const thin_font *f, const char *text, letters_layout *l)
{
    int b;
    if (rows_used(f, text, strlen(text), &l->top, &b) != 0)
        return -1;
    l->width = (int)strlen(text) * f->width + 2;
    l->rows = b - l->top + 1 + 2;
    for (int i = 0; i < 2; i++) {
        size_t fit = (size_t)l->width * LETTERS_BLOCK / ((size_t)f->width * LETTERS_SMALL);
        size_t n = strlen(letters_lines[i]);
        l->n[i] = (int)(n < fit ? n : fit);
        l->lrows[i] = 0;
        l->strip[i] = 0;
        if (rows_used(f, letters_lines[i], (size_t)l->n[i], &l->ltop[i], &b) == 0) {
            l->lrows[i] = b - l->ltop[i] + 1;
            l->strip[i] = 2.0 * LETTERS_BLOCK + (double)l->lrows[i] * LETTERS_SMALL;
        }
    }
    return 0;
}

/* The n first characters of s, font pixels of 'block' units, the top left
 * corner of glyph row 'top' of the first at (x0, y0); rows top..top+rows-1. */
static void glyphs(canvas *c, const thin_font *f, const char *s, int n, double block,
                   double x0, double y0, int top, int rows)
{
    for (int i = 0; i < n; i++)
        for (int gy = top; gy < top + rows; gy++)
            for (int gx = 0; gx < f->width; gx++)
                if (thin_font_pixel(f, (unsigned char)s[i], gx, gy)) {
                    double bx = x0 + (i * f->width + gx) * block, by = y0 + (gy - top) * block;
                    FOR_PIXELS(c, bx, by, bx + block, by + block) {
                        CENTRE(c);
                        if (x >= bx && x < bx + block && y >= by && y < by + block)
                            SET(c);
                    }
                }
}

static void letters(canvas *c, const thin_font *f, const char *text, const letters_layout *l)
{
    double w = (double)l->width * LETTERS_BLOCK, y = l->strip[0];
    glyphs(c, f, text, (int)strlen(text), LETTERS_BLOCK, LETTERS_BLOCK, y + LETTERS_BLOCK,
           l->top, l->rows - 2);
    for (int i = 0; i < 2; i++) {
        if (l->lrows[i] == 0)
            continue;
        double lw = (double)l->n[i] * f->width * LETTERS_SMALL;
        double ly = i == 0 ? LETTERS_BLOCK
                           : l->strip[0] + (double)l->rows * LETTERS_BLOCK + LETTERS_BLOCK;
        glyphs(c, f, letters_lines[i], l->n[i], LETTERS_SMALL, (w - lw) / 2, ly, l->ltop[i],
               l->lrows[i]);
    }
}

int thin_draw(thin_image *im, const char *scene, double zoom, int copies,
              const thin_font *font, const char *text, char *msg, size_t mlen)
{
    im->px = NULL;
    if (!(zoom >= 0.01 && zoom <= 4)) {
        snprintf(msg, mlen, "zoom %g must be in [0.01, 4]", zoom);
        return -1;
    }
    if (copies < 1 || copies > 64) {
        snprintf(msg, mlen, "copies %d must be in [1, 64]", copies);
        return -1;
    }
    double dw, dh;
    letters_layout lay = {0};
    if (strcmp(scene, "figures") == 0) {
        dw = FIGURES_W;
        dh = FIGURES_H;
    } else if (strcmp(scene, "boyball") == 0) {
        dw = BOYBALL_W;
        dh = BOYBALL_H;
    } else if (strcmp(scene, "letters") == 0) {
        if (!font) {
            snprintf(msg, mlen, "the letters need a PSF font");
            return -1;
        }
        if (!text)
            text = LETTERS_TEXT;
        if (strlen(text) > 64 || letters_size(font, text, &lay) != 0) {
            snprintf(msg, mlen, "text '%s': 1..64 characters the font draws",
                     quote(text));
            return -1;
        }
        dw = (double)lay.width * LETTERS_BLOCK;
        dh = lay.strip[0] + (double)lay.rows * LETTERS_BLOCK + lay.strip[1];
    } else {
        snprintf(msg, mlen, "unknown scene '%s' (figures, letters or boyball)", quote(scene));
        return -1;
    }
    /* the scene's design size (64 characters of text at most) times a zoom
     * of at most 4: a few thousand pixels; thin_check_size refuses what is
     * too large */
    long long tw = conv_clamp(ceil(dw * zoom), 1, INT_MAX),
              th = conv_clamp(ceil(dh * zoom), 1, INT_MAX);
    thin_image tile;
    char why[200];
    if (thin_check_size(tw * copies, th, why, sizeof why) != 0 ||
        thin_image_init(&tile, (int)tw, (int)th, why, sizeof why) != 0) {
        snprintf(msg, mlen, "%s at zoom %g, %d copies: %s", quote(scene), zoom, copies, why);
        return -1;
    }
    canvas c = {&tile, zoom, 1};
    if (strcmp(scene, "figures") == 0)
        figures(&c);
    else if (strcmp(scene, "boyball") == 0)
        boyball(&c);
    else
        letters(&c, font, text, &lay);
    if (thin_image_init(im, (int)(tw * copies), (int)th, why, sizeof why) != 0) {
        thin_image_free(&tile);
        snprintf(msg, mlen, "%s: %s", quote(scene), why);
        return -1;
    }
    for (int y = 0; y < th; y++)
        for (int k = 0; k < copies; k++)
            memcpy(im->px + (size_t)y * im->width + (size_t)k * tw,
                   tile.px + (size_t)y * tw, (size_t)tw);
    thin_image_free(&tile);
    return 0;
}
