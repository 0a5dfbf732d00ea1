/* spool.c: a temporary file of fixed-size entries (spool.h). The entries
 * not yet written sit in one buffer at the file's end; entry i lies at byte
 * i * size of the file, or of the buffer past what the file holds. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sched/records/spool.h"

struct spool {
    int fd;
    size_t size;                /* bytes an entry */
    long infile;                /* entries in the file */
    long inbuf;                 /* entries in the buffer, after those */
    long cap;                   /* entries the buffer holds */
    char *buf;
    char dir[256];              /* for the messages (cut) */
    char err[400];
};

static int failed(spool *s, const char *what)
{
    snprintf(s->err, sizeof s->err, "%s a spool file in %s: %s", what, s->dir,
             errno ? strerror(errno) : "short write");
    return -1;
}

spool *spool_open(const char *dir, size_t size, char *msg, size_t len)
{
    spool *s = calloc(1, sizeof *s);
    char path[4096];
    if (!s || !(s->buf = malloc(SPOOL_BUFFER)) || size < 1 || size > SPOOL_BUFFER) {
        if (s)
            free(s->buf);
        free(s);
        snprintf(msg, len, "out of memory for a spool");
        return NULL;
    }
    s->size = size;
    s->cap = (long)(SPOOL_BUFFER / size);
    snprintf(s->dir, sizeof s->dir, "%s", dir);
    if ((size_t)snprintf(path, sizeof path, "%s/.spool.XXXXXX", dir) >= sizeof path) {
        errno = ENAMETOOLONG;
        s->fd = -1;
    } else
        s->fd = mkstemp(path);
    if (s->fd < 0) {
        snprintf(msg, len, "cannot make a spool file in %s: %s", s->dir, strerror(errno));
        free(s->buf);
        free(s);
        return NULL;
    }
    unlink(path);               /* it lives on while open: nothing is left behind */
    return s;
}

void spool_close(spool *s)
{
    if (!s)
        return;
    close(s->fd);
    free(s->buf);
    free(s);
}

long spool_count(const spool *s)
{
    return s->infile + s->inbuf;
}

const char *spool_error(const spool *s)
{
    return s->err;
}

/* Writes n bytes at offset off, whole. */
static int put_bytes(spool *s, const char *p, size_t n, off_t off)
{
    while (n > 0) {
        errno = 0;
        ssize_t k = pwrite(s->fd, p, n, off);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0)
            return failed(s, "writing");
        p += k;
        n -= (size_t)k;
        off += k;
    }
    return 0;
}

/* The buffer to the file. */
static int flush(spool *s)
{
    if (s->inbuf == 0)
        return 0;
    if (put_bytes(s, s->buf, (size_t)s->inbuf * s->size, (off_t)s->infile * (off_t)s->size))
        return -1;
    s->infile += s->inbuf;
    s->inbuf = 0;
    return 0;
}

int spool_append(spool *s, const void *entry)
{
    if (s->inbuf == s->cap && flush(s) != 0)
        return -1;
    memcpy(s->buf + (size_t)s->inbuf * s->size, entry, s->size);
    s->inbuf++;
    return 0;
}

int spool_put(spool *s, long i, const void *in)
{
    if (i >= s->infile) {
        memcpy(s->buf + (size_t)(i - s->infile) * s->size, in, s->size);
        return 0;
    }
    return put_bytes(s, in, s->size, (off_t)i * (off_t)s->size);
}

long spool_read(spool *s, long first, void *buf, long max)
{
    if (flush(s) != 0)
        return -1;
    long n = s->infile - first < max ? s->infile - first : max;
    if (n <= 0)
        return 0;
    size_t want = (size_t)n * s->size, got = 0;
    while (got < want) {
        errno = 0;
        ssize_t k = pread(s->fd, (char *)buf + got, want - got,
                          (off_t)first * (off_t)s->size + (off_t)got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            if (k == 0)
                errno = EIO;    /* the file is shorter than what was written */
            return failed(s, "reading");
        }
        got += (size_t)k;
    }
    return n;
}

int spool_get(spool *s, long i, void *out)
{
    if (i >= s->infile) {
        memcpy(out, s->buf + (size_t)(i - s->infile) * s->size, s->size);
        return 0;
    }
    size_t got = 0;
    while (got < s->size) {
        errno = 0;
        ssize_t k = pread(s->fd, (char *)out + got, s->size - got,
                          (off_t)i * (off_t)s->size + (off_t)got);
        if (k < 0 && errno == EINTR)
            continue;
        if (k <= 0) {
            if (k == 0)
                errno = EIO;
            return failed(s, "reading");
        }
        got += (size_t)k;
    }
    return 0;
}
