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
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
} canvas;

/* The pixel box covering design box [x0, x1] x [y0, y1], clipped. */
static void box(const canvas *c, double x0, double y0, double x1, double y1, int *px0,
                int *py0, int *px1, int *py1)
{
    *px0 = (int)floor(x0 * c->z) - 1;
    *py0 = (int)floor(y0 * c->z) - 1;
    *px1 = (int)ceil(x1 * c->z) + 1;
    *py1 = (int)ceil(y1 * c->z) + 1;
    if (*px0 < 0) *px0 = 0;
    if (*py0 < 0) *py0 = 0;
    if (*px1 > c->im->width) *px1 = c->im->width;
    if (*py1 > c->im->height) *py1 = c->im->height;
}

/* For each pixel (px_, py_) of the box around a design box; inside the
 * body, x and y are its centre in design units and SET(c) sets it. */
#define FOR_PIXELS(c, x0, y0, x1, y1)                                          \
    int px0_, py0_, px1_, py1_;                                                \
    box(c, x0, y0, x1, y1, &px0_, &py0_, &px1_, &py1_);                        \
    for (int py_ = py0_; py_ < py1_; py_++)                                    \
        for (int px_ = px0_; px_ < px1_; px_++)
#define CENTRE(c) double x = (px_ + 0.5) / (c)->z, y = (py_ + 0.5) / (c)->z
#define SET(c) ((c)->im->px[(size_t)py_ * (c)->im->width + (size_t)px_] = 1)

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

/* ---- the scenes ---------------------------------------------------------------- */

/* Figures: filled rectangles, discs, triangles and rings. */
#define FIGURES_W 1800
#define FIGURES_H 1000
static void figures(canvas *c)
{
    rect(c, 60, 60, 640, 244);                  /* a bar, 184 thick */
    disc(c, 860, 160, 90);
    ring(c, 1300, 290, 110, 230);               /* 120 thick */
    triangle(c, 60, 940, 300, 940, 180, 580);
    triangle(c, 360, 940, 620, 940, 360, 680);          /* a right triangle */
    rect(c, 760, 360, 940, 940);                /* a block, 180 wide */
    ring(c, 1250, 760, 80, 180);
    disc(c, 1640, 820, 86);
    triangle(c, 1560, 90, 1760, 90, 1660, 600);
}

/* Boy&Ball: a boy (head, torso, arms, legs, feet) kicking a ball. */
#define BOYBALL_W 1400
#define BOYBALL_H 1400
static void boyball(canvas *c)
{
    disc(c, 520, 170, 92);                              /* head */
    capsule(c, 520, 250, 520, 330, 45);                 /* neck */
    ellipse(c, 520, 590, 84, 250, 0);                   /* torso */
    capsule(c, 460, 480, 250, 590, 40);                 /* left arm, out */
    capsule(c, 250, 590, 200, 820, 42);
    capsule(c, 580, 420, 800, 540, 40);                 /* right arm, out */
    capsule(c, 800, 540, 940, 400, 42);
    capsule(c, 480, 800, 420, 1280, 60);                /* left leg */
    ellipse(c, 370, 1310, 110, 45, 0);                  /* its foot */
    capsule(c, 560, 800, 740, 1090, 60);                /* right leg, kicking */
    capsule(c, 740, 1090, 880, 1180, 52);
    ellipse(c, 930, 1210, 95, 40, -30);                 /* its foot */
    disc(c, 1150, 1180, 96);                            /* the ball */
}

#define LETTERS_TEXT "TILE"
#define LETTERS_BLOCK 52        /* design units per font pixel */

/* Letters: text in a PSF font, each font pixel a square. The rows of the
 * glyph cells that no character of the text uses are left out. */
static int letters_size(const thin_font *f, const char *text, int *w, int *h,
                        int *top)
{
    int t = f->height, b = -1;
    for (const char *s = text; *s; s++)
        for (int y = 0; y < f->height; y++)
            for (int x = 0; x < f->width; x++)
                if (thin_font_pixel(f, (unsigned char)*s, x, y)) {
                    if (y < t) t = y;
                    if (y > b) b = y;
                }
    if (b < 0)
        return -1;
    *top = t;
    *w = (int)strlen(text) * f->width + 2;      /* a font pixel of margin each side */
    *h = b - t + 1 + 2;
    return 0;
}

static void letters(canvas *c, const thin_font *f, const char *text, int top)
{
    int n = (int)strlen(text);
    for (int i = 0; i < n; i++)
        for (int gy = 0; gy < f->height; gy++)
            for (int gx = 0; gx < f->width; gx++)
                if (thin_font_pixel(f, (unsigned char)text[i], gx, gy)) {
                    double x0 = (1 + i * f->width + gx) * (double)LETTERS_BLOCK;
                    double y0 = (1 + gy - top) * (double)LETTERS_BLOCK;
                    FOR_PIXELS(c, x0, y0, x0 + LETTERS_BLOCK, y0 + LETTERS_BLOCK) {
                        CENTRE(c);
                        if (x >= x0 && x < x0 + LETTERS_BLOCK && y >= y0 &&
                            y < y0 + LETTERS_BLOCK)
                            SET(c);
                    }
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
    int top = 0;
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
        int w, h;
        if (strlen(text) > 64 || letters_size(font, text, &w, &h, &top) != 0) {
            snprintf(msg, mlen, "text '%.64s': 1..64 characters the font draws",
                     text);
            return -1;
        }
        dw = (double)w * LETTERS_BLOCK;
        dh = (double)h * LETTERS_BLOCK;
    } else {
        snprintf(msg, mlen, "unknown scene '%s' (figures, letters or boyball)", scene);
        return -1;
    }
    long long tw = (long long)ceil(dw * zoom), th = (long long)ceil(dh * zoom);
    if (tw < 1) tw = 1;
    if (th < 1) th = 1;
    thin_image tile;
    char why[200];
    if (thin_check_size(tw * copies, th, why, sizeof why) != 0 ||
        thin_image_init(&tile, (int)tw, (int)th, why, sizeof why) != 0) {
        snprintf(msg, mlen, "%s at zoom %g, %d copies: %s", scene, zoom, copies, why);
        return -1;
    }
    canvas c = {&tile, zoom};
    if (strcmp(scene, "figures") == 0)
        figures(&c);
    else if (strcmp(scene, "boyball") == 0)
        boyball(&c);
    else
        letters(&c, font, text, top);
    if (thin_image_init(im, (int)(tw * copies), (int)th, why, sizeof why) != 0) {
        thin_image_free(&tile);
        snprintf(msg, mlen, "%s: %s", scene, why);
        return -1;
    }
    for (int y = 0; y < th; y++)
        for (int k = 0; k < copies; k++)
            memcpy(im->px + (size_t)y * im->width + (size_t)k * tw,
                   tile.px + (size_t)y * tw, (size_t)tw);
    thin_image_free(&tile);
    return 0;
}
