/* pbm.c: PBM images read (plain P1, raw P4) and written (P4 or P1).
 *
 * Netpbm's format (netpbm.sourceforge.net/doc/pbm.html): "P1" or "P4",
 * whitespace, the width and the height in decimal, separated by whitespace,
 * one whitespace character, then the raster, top row first, 1 = black (the
 * foreground here). Comments run from '#' to the end of the line, anywhere
 * before that last whitespace character (and, as netpbm allows, inside a
 * plain raster). A P4 row is ceil(width/8) bytes, the leftmost pixel in the
 * high bit, the padding bits of the last byte don't-care.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/util/outfile.h"
#include "sched/util/quote.h"
#include "thin/thin_impl.h"

typedef struct reader {
    FILE *f;
    const char *name;
    long line;              /* of the last character read, from 1 */
    long long byte;         /* characters read so far */
    char *msg;
    size_t len;
} reader;

static int get(reader *r)
{
    int c = getc(r->f);
    if (c != EOF) {
        r->byte++;
        if (c == '\n')
            r->line++;
    }
    return c;
}

/* get, with a comment ('#' to the end of the line) read as one '\n' (or
 * EOF at the end of the file). */
static int getc_nc(reader *r)
{
    int c = get(r);
    if (c == '#')
        while (c != '\n' && c != EOF)
            c = get(r);
    return c;
}

static int space(int c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

/* The end of the file, or a read error: the message says which. */
static int eof_fail(reader *r, const char *what)
{
    if (ferror(r->f))
        snprintf(r->msg, r->len, "%s: read error: %s", quote(r->name), strerror(errno));
    else
        snprintf(r->msg, r->len, "%s: line %ld: the file ends before the %s",
                 quote(r->name), r->line, what);
    return -1;
}

/* One header number: whitespace and comments, digits, then one whitespace
 * character (or a comment). */
static int header_number(reader *r, const char *what, long long *out)
{
    int c;
    do
        c = getc_nc(r);
    while (space(c));
    if (c == EOF)
        return eof_fail(r, what);
    if (c < '0' || c > '9') {
        snprintf(r->msg, r->len, "%s: line %ld: the %s is not a number (found '%s')",
                 quote(r->name), r->line, what, quote_mem(&(char){(char)c}, 1));
        return -1;
    }
    long long v = 0;
    long line = r->line;
    while (c >= '0' && c <= '9') {
        if (v > THIN_MAX_SIDE) {
            snprintf(r->msg, r->len, "%s: line %ld: %s too large (over %d)", quote(r->name),
                     line, what, THIN_MAX_SIDE);
            return -1;
        }
        v = v * 10 + (c - '0');
        c = getc_nc(r);
    }
    if (c == EOF && ferror(r->f))
        return eof_fail(r, what);
    if (c != EOF && !space(c)) {
        snprintf(r->msg, r->len, "%s: line %ld: bad %s: '%s' after its digits",
                 quote(r->name), r->line, what, quote_mem(&(char){(char)c}, 1));
        return -1;
    }
    if (c == EOF) {
        snprintf(r->msg, r->len, "%s: line %ld: the file ends after the %s, before the raster",
                 quote(r->name), r->line, what);
        return -1;
    }
    *out = v;
    return 0;
}

static int read_plain(reader *r, thin_image *im)
{
    size_t n = (size_t)im->width * (size_t)im->height;
    for (size_t i = 0; i < n; i++) {
        int c;
        do
            c = getc_nc(r);
        while (space(c));
        if (c == EOF) {
            if (ferror(r->f))
                return eof_fail(r, "raster");
            snprintf(r->msg, r->len, "%s: line %ld: truncated raster: %zu of %zu pixels",
                     quote(r->name), r->line, i, n);
            return -1;
        }
        if (c != '0' && c != '1') {
            snprintf(r->msg, r->len,
                     "%s: line %ld: '%s' in a plain (P1) raster, pixel %zu: only 0 and 1",
                     quote(r->name), r->line, quote_mem(&(char){(char)c}, 1), i);
            return -1;
        }
        im->px[i] = (unsigned char)(c - '0');
    }
    return 0;
}

static int read_raw(reader *r, thin_image *im)
{
    size_t rb = thin_row_bytes(im->width);
    unsigned char *row = malloc(rb);
    if (!row) {
        snprintf(r->msg, r->len, "%s: out of memory", quote(r->name));
        return -1;
    }
    for (int y = 0; y < im->height; y++) {
        size_t got = fread(row, 1, rb, r->f);
        r->byte += (long long)got;
        if (got < rb) {
            if (ferror(r->f))
                snprintf(r->msg, r->len, "%s: read error: %s", quote(r->name), strerror(errno));
            else
                snprintf(r->msg, r->len,
                         "%s: truncated raster at byte %lld: row %d of %d needs %zu "
                         "bytes, %zu there", quote(r->name), r->byte, y + 1, im->height, rb, got);
            free(row);
            return -1;
        }
        for (int x = 0; x < im->width; x++)
            im->px[(size_t)y * im->width + x] = (row[x >> 3] >> (7 - (x & 7))) & 1;
    }
    free(row);
    return 0;
}

int thin_pbm_read_stream(thin_image *im, FILE *f, const char *name, char *msg,
                         size_t len)
{
    reader r = {f, name, 1, 0, msg, len};
    im->px = NULL;
    im->width = im->height = 0;
    int c0 = get(&r), c1 = get(&r);
    if (c0 == EOF && !ferror(f)) {
        snprintf(msg, len, "%s: empty file, not a PBM image", quote(name));
        return -1;
    }
    if (c0 == 'P' && c1 >= '2' && c1 <= '7' && c1 != '4') {
        snprintf(msg, len, "%s: a P%c file (PGM, PPM or PAM): only PBM (P1, P4) is read",
                 quote(name), c1);
        return -1;
    }
    if (c0 != 'P' || (c1 != '1' && c1 != '4')) {
        if (ferror(f))
            return eof_fail(&r, "magic number");
        snprintf(msg, len, "%s: not a PBM image (it must begin with P1 or P4)", quote(name));
        return -1;
    }
    int c = get(&r);
    if (c == EOF)
        return eof_fail(&r, "width");
    if (!space(c) && c != '#') {
        snprintf(msg, len, "%s: line 1: not a PBM image (P%c followed by '%s')", quote(name),
                 c1, quote_mem(&(char){(char)c}, 1));
        return -1;
    }
    if (c == '#')
        while (c != '\n' && c != EOF)
            c = get(&r);
    long long w, h;
    if (header_number(&r, "width", &w) != 0 || header_number(&r, "height", &h) != 0)
        return -1;
    char why[160];
    if (thin_check_size(w, h, why, sizeof why) != 0) {
        snprintf(msg, len, "%s: %s", quote(name), why);
        return -1;
    }
    if (thin_image_init(im, (int)w, (int)h, why, sizeof why) != 0) {
        snprintf(msg, len, "%s: %s", quote(name), why);
        return -1;
    }
    int rc = c1 == '1' ? read_plain(&r, im) : read_raw(&r, im);
    if (rc != 0)
        thin_image_free(im);
    return rc;
}

int thin_pbm_read(thin_image *im, const char *path, char *msg, size_t len)
{
    int std = strcmp(path, "-") == 0;
    FILE *f = std ? stdin : fopen(path, "rb");
    if (!f) {
        im->px = NULL;
        snprintf(msg, len, "%s: %s", quote(path), strerror(errno));
        return -1;
    }
    int rc = thin_pbm_read_stream(im, f, std ? "(stdin)" : path, msg, len);
    if (!std)
        fclose(f);
    return rc;
}

int thin_pbm_write(const thin_image *im, const char *path, int plain, char *msg,
                   size_t len)
{
    size_t rb = thin_row_bytes(im->width);
    unsigned char *packed = malloc(rb);
    if (!packed) {
        snprintf(msg, len, "%s: out of memory", quote(path));
        return -1;
    }
    outfile o;
    const char *call;
    if (outfile_open(&o, path, "wb") != 0) {
        outfile_msg(msg, len, path, NULL, errno);
        free(packed);
        return -1;
    }
    FILE *f = o.f;
    fprintf(f, "P%c\n%d %d\n", plain ? '1' : '4', im->width, im->height);
    for (int y = 0; y < im->height; y++) {
        const unsigned char *row = im->px + (size_t)y * im->width;
        if (!plain) {
            thin_pack_row(row, im->width, packed);
            fwrite(packed, 1, rb, f);
            continue;
        }
        /* Plain: at most 70 characters a line, each row on new lines. */
        for (int x = 0; x < im->width; x++) {
            putc(row[x] ? '1' : '0', f);
            if ((x + 1) % 70 == 0 || x + 1 == im->width)
                putc('\n', f);
        }
    }
    free(packed);
    if (outfile_close(&o, &call) != 0) {
        outfile_msg(msg, len, path, call, errno);
        return -1;
    }
    return 0;
}
