/* draw.h: the test images of Heymann et al.'s thinning (Figures, Letters,
 * Boy&Ball), drawn from geometry and from a PSF console font; no randomness.
 * Used by bin/thin-images (scripts/heymann-images) and the tests.
 */
#ifndef THIN_DRAW_H
#define THIN_DRAW_H

#include <stddef.h>

#include "thin/thin.h"

/* A PSF console font, version 1 or 2 (the Linux console's format; Debian's
 * console-setup-linux ships them gzipped under /usr/share/consolefonts).
 * glyph[ascii[c]] draws character c (-1: none); a glyph is height rows of
 * ceil(width/8) bytes, the leftmost pixel in the high bit. */
typedef struct thin_font {
    int width, height, count;
    size_t charsize;            /* bytes of a glyph */
    unsigned char *glyphs;      /* count * charsize bytes, malloc'ed */
    int ascii[128];
} thin_font;

/* Decodes a PSF font from its bytes (not gzipped). The ASCII characters are
 * found through the font's Unicode table, or are glyphs 0..127 when it has
 * none. Returns 0, or -1 with what is wrong in msg: a bad magic number, a
 * header or glyphs past the end, sizes out of range (width 1..64, height
 * 1..128, count 1..65536), a bad Unicode table. Free with thin_font_free. */
int thin_font_load(thin_font *f, const unsigned char *data, size_t len, char *msg,
                   size_t mlen);
void thin_font_free(thin_font *f);
/* Pixel (x, y) of character c's glyph: 1 or 0; 0 outside it or when c has
 * no glyph. */
int thin_font_pixel(const thin_font *f, int c, int x, int y);

/* Draws scene into *im (a new image, freed by the caller): the scene at
 * zoom (1 = the documented size; lengths scale by zoom, so the iterations
 * it takes roughly do too; 0.01..4), copies times side by side (1..64: the
 * rows grow longer, the iterations stay the same). The text of "letters" is
 * text (NULL: the default, TILE), the alphabet small above and below it.
 * Returns 0, or -1 with msg (an unknown scene, a
 * bad zoom or copies, no font for the letters, an image over the limits,
 * out of memory). */
int thin_draw(thin_image *im, const char *scene, double zoom, int copies,
              const thin_font *font, const char *text, char *msg, size_t mlen);

#endif
