/* thin_impl.h: what thin.c, parts.c and pbm.c share and users do not see. */
#ifndef THIN_IMPL_H
#define THIN_IMPL_H

#include <stddef.h>

#include "thin/thin.h"

/* lut[n] = thin_deletable(n, sub) for the 256 neighbourhoods. */
void thin_lut(unsigned char lut[256], int sub);

/* One subiteration on rows 0..n-1 of a padded buffer: row r at base + r*s,
 * its pixel x (0..w-1) at [x + 1], columns 0 and w + 1 zero, rows -1 and n
 * readable (the rows above and below). Every 1-pixel of rows 0..n-1 is
 * decided from the buffer as it is on entry; the deleted ones become 0 in
 * place. tmp: 2*s bytes of scratch. Returns the pixels deleted and adds the
 * 1-pixels examined to *examined. */
long long thin_pass(unsigned char *base, int w, int n, size_t s,
                    const unsigned char lut[256], unsigned char *tmp,
                    long long *examined);

/* Checks a width and height against the limits: 0, or -1 with msg. */
int thin_check_size(long long width, long long height, char *msg, size_t len);

/* Bytes of a packed row (8 pixels a byte, P4's order). */
static inline size_t thin_row_bytes(int w) { return ((size_t)w + 7) / 8; }
/* Packs w pixels (0/1 bytes) into thin_row_bytes(w) bytes, padding 0. */
void thin_pack_row(const unsigned char *px, int w, unsigned char *out);
/* Unpacks; returns -1 when a padding bit is set (0 otherwise). */
int thin_unpack_row(const unsigned char *in, int w, unsigned char *px);
/* The 1-bytes among n 0/1 bytes. */
long long thin_ones(const unsigned char *px, size_t n);
/* The bytes where now and was (0/1 bytes) differ; *added = 1 when one is 1
 * in now and 0 in was. */
long long thin_diff(const unsigned char *now, const unsigned char *was, size_t n,
                    int *added);

#endif
