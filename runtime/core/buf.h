/* buf.h: the project's own encoding of the master-worker messages -- the
 * bytes every transport carries unchanged (PVM today, MPI next).
 *
 *   integer   8 bytes, two's complement, most significant byte first
 *   double    8 bytes, the IEEE 754 binary64 bits, most significant first
 *   bytes     an integer count, then the bytes as given (opaque: an
 *             application's data travel in the byte order it chose)
 *   string    as bytes, without the terminating NUL
 *
 * The byte order is fixed, so machines of either order read each other; every
 * count is 64-bit, so nothing is limited to 2^31 - 1. A message begins with
 * the two bytes 'D' 'T' and the protocol version (BUF_VERSION): a peer of
 * another build is refused by name instead of misread (wire.c). The known
 * answer of one message is in tests/test_runtime.c.
 *
 * Writing never fails midway: the first failure (out of memory) is kept in
 * b->err and the message is refused when it is sent. Reading checks every
 * length against what is left: a short or long message sets r->bad, and
 * every later read returns 0 (the decoder says what was malformed). */
#ifndef BUF_H
#define BUF_H

#include <stddef.h>
#include <stdint.h>

#define BUF_VERSION 6   /* 1, 2: PVM's XDR packing; 3: without MOVED, strips without epochs;
                           4: a JOB without request-ahead's F; 5: a strip's rows sent
                           with its START, without FETCH */

typedef struct buf {
    unsigned char *p;
    size_t len, cap;
    int err;                    /* out of memory */
} buf;

/* Empties b and writes the header (magic, version). */
void buf_start(buf *b);
void buf_int(buf *b, int64_t v);
void buf_double(buf *b, double v);
void buf_bytes(buf *b, const void *data, size_t n);   /* count + bytes */
void buf_str(buf *b, const char *s);
void buf_free(buf *b);

typedef struct rbuf {
    const unsigned char *p;
    size_t len, pos;
    int bad;                    /* read past the end */
    int version;                /* the header's version (-1: no header) */
} rbuf;

/* Starts reading data; returns 0, or -1 when the header is not ours or of
 * another version (r->version says which). */
int rbuf_start(rbuf *r, const void *data, size_t len);
int64_t rbuf_int(rbuf *r);
double rbuf_double(rbuf *r);
/* A count then that many bytes, at most max: a pointer into the message
 * (valid as long as the message is), *n its size; NULL (r->bad) when the
 * count is over max or over what is left. */
const void *rbuf_bytes(rbuf *r, size_t max, size_t *n);
/* A string into s (at most size - 1 bytes, cut short; NUL-terminated). */
void rbuf_str(rbuf *r, char *s, size_t size);
/* Bytes left unread (a decoder that read every field wants 0). */
size_t rbuf_left(const rbuf *r);

#endif
