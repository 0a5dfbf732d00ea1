/* buf.c: the project's message encoding (buf.h). */
#include <stdlib.h>
#include <string.h>

#include "runtime/core/buf.h"

static int grow(buf *b, size_t n)
{
    if (b->err)
        return -1;
    if (n <= b->cap - b->len)
        return 0;
    size_t cap = b->cap ? b->cap : 256;
    while (cap - b->len < n) {
        if (cap > SIZE_MAX / 2) {
            b->err = 1;
            return -1;
        }
        cap *= 2;
    }
    unsigned char *p = realloc(b->p, cap);
    if (!p) {
        b->err = 1;
        return -1;
    }
    b->p = p;
    b->cap = cap;
    return 0;
}

void buf_start(buf *b)
{
    b->len = 0;
    b->err = 0;
    if (grow(b, 4) == 0) {
        b->p[0] = 'D';
        b->p[1] = 'T';
        b->p[2] = BUF_VERSION;
        b->p[3] = 0;
        b->len = 4;
    }
}

/* Big-endian, written out byte by byte through a local pointer:
 * b->p[b->len++] in a loop made the compiler reload both at each byte (a
 * byte may alias them); this way it is one byte swap and one store. */
static void put64(buf *b, uint64_t u)
{
    if (grow(b, 8) < 0)
        return;
    unsigned char *p = b->p + b->len;
    p[0] = (unsigned char)(u >> 56);
    p[1] = (unsigned char)(u >> 48);
    p[2] = (unsigned char)(u >> 40);
    p[3] = (unsigned char)(u >> 32);
    p[4] = (unsigned char)(u >> 24);
    p[5] = (unsigned char)(u >> 16);
    p[6] = (unsigned char)(u >> 8);
    p[7] = (unsigned char)u;
    b->len += 8;
}

void buf_int(buf *b, int64_t v)
{
    put64(b, (uint64_t)v);
}

void buf_double(buf *b, double v)
{
    uint64_t u;
    memcpy(&u, &v, sizeof u);
    put64(b, u);
}

void buf_bytes(buf *b, const void *data, size_t n)
{
    put64(b, (uint64_t)n);
    if (n && grow(b, n) == 0) {
        memcpy(b->p + b->len, data, n);
        b->len += n;
    }
}

void buf_str(buf *b, const char *s)
{
    buf_bytes(b, s, strlen(s));
}

void buf_free(buf *b)
{
    free(b->p);
    *b = (buf){0};
}

int rbuf_start(rbuf *r, const void *data, size_t len)
{
    *r = (rbuf){.p = data, .len = len, .version = -1};
    if (len < 4 || r->p[0] != 'D' || r->p[1] != 'T' || r->p[3] != 0) {
        r->bad = 1;
        return -1;
    }
    r->version = r->p[2];
    r->pos = 4;
    if (r->version != BUF_VERSION) {
        r->bad = 1;
        return -1;
    }
    return 0;
}

static uint64_t get64(rbuf *r)
{
    if (r->bad || r->len - r->pos < 8) {
        r->bad = r->bad ? r->bad : 1;
        return 0;
    }
    const unsigned char *p = r->p + r->pos;     /* (as put64: one load) */
    r->pos += 8;
    return (uint64_t)p[0] << 56 | (uint64_t)p[1] << 48 | (uint64_t)p[2] << 40 |
           (uint64_t)p[3] << 32 | (uint64_t)p[4] << 24 | (uint64_t)p[5] << 16 |
           (uint64_t)p[6] << 8 | (uint64_t)p[7];
}

int64_t rbuf_int(rbuf *r)
{
    uint64_t u = get64(r);
    int64_t v;
    memcpy(&v, &u, sizeof v);       /* two's complement, as written */
    return v;
}

double rbuf_double(rbuf *r)
{
    uint64_t u = get64(r);
    double v;
    memcpy(&v, &u, sizeof v);
    return v;
}

const void *rbuf_bytes(rbuf *r, size_t max, size_t *n)
{
    uint64_t k = get64(r);
    *n = 0;
    if (r->bad || k > max || k > r->len - r->pos) {
        r->bad = r->bad ? r->bad : 1;
        return NULL;
    }
    const void *p = r->p + r->pos;
    r->pos += (size_t)k;
    *n = (size_t)k;
    return p;
}

void rbuf_str(rbuf *r, char *s, size_t size)
{
    size_t n;
    const char *p = rbuf_bytes(r, (size_t)-1, &n);
    if (!p)
        n = 0;
    if (n > size - 1)
        n = size - 1;
    if (n)
        memcpy(s, p, n);
    s[n] = '\0';
}

size_t rbuf_left(const rbuf *r)
{
    return r->bad ? 0 : r->len - r->pos;
}
