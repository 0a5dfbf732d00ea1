/* jnl.c: the bytes of a journal (jnl.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "runtime/core/jnl.h"
#include "sched/util/fnv.h"
#include "sched/util/quote.h"

static double mono(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* ---- writing ----------------------------------------------------------- */

void jnl_put(jnl_buf *o, const void *p, size_t n)
{
    if (o->oom || n == 0)
        return;
    if (n > SIZE_MAX / 2 - o->n) {
        o->oom = 1;
        return;
    }
    if (o->n + n > o->cap) {
        size_t cap = o->cap ? o->cap : 256;
        while (cap < o->n + n)
            cap *= 2;
        unsigned char *b = realloc(o->b, cap);
        if (!b) {
            o->oom = 1;
            return;
        }
        o->b = b;
        o->cap = cap;
    }
    memcpy(o->b + o->n, p, n);
    o->n += n;
}

void jnl_put_u(jnl_buf *o, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    jnl_put(o, b, 8);
}

void jnl_put_head(jnl_buf *o, const char *magic, uint64_t version)
{
    jnl_put(o, magic, 8);
    jnl_put_u(o, version);
}

void jnl_put_bytes(jnl_buf *o, const void *p, size_t n)
{
    jnl_put_u(o, n);
    jnl_put(o, p, n);
}

void jnl_put_text(jnl_buf *o, const char *s)
{
    jnl_put_bytes(o, s, strlen(s));
}

void jnl_put_sum(jnl_buf *o, size_t from)
{
    if (!o->oom)
        jnl_put_u(o, fnv1a(FNV1A_BASIS, o->b + from, o->n - from));
}

int jnl_create(jnl_w *w, const char *path)
{
    w->f = fopen(path, "wb");
    w->synced = mono();
    return w->f ? 0 : -1;
}

int jnl_reopen(jnl_w *w, const char *path, long good_end)
{
    w->f = NULL;
    if (truncate(path, good_end) != 0 || !(w->f = fopen(path, "ab")))
        return -1;
    w->synced = mono();
    return 0;
}

/* o after its bytes went (or not): freed, or with o->keep emptied. */
static void emptied(jnl_buf *o)
{
    if (o->keep) {
        o->n = 0;
        o->oom = 0;
        return;
    }
    free(o->b);
    memset(o, 0, sizeof *o);
}

const char *jnl_emit(jnl_w *w, jnl_buf *o, int sync)
{
    const char *what = o->oom ? "out of memory" : NULL;
    if (w->f && !what && (fwrite(o->b, 1, o->n, w->f) != o->n || fflush(w->f) != 0))
        what = strerror(errno);
    double now = mono();
    if (w->f && !what && (sync || now - w->synced >= 1)) {
        if (fsync(fileno(w->f)) != 0)
            what = strerror(errno);
        w->synced = now;
    }
    emptied(o);
    return what;
}

void jnl_close(jnl_w *w)
{
    if (!w->f)
        return;
    fflush(w->f);
    fsync(fileno(w->f));
    fclose(w->f);
    w->f = NULL;
}

int jnl_write(jnl_w *w, jnl_buf *o, int sync, const char *path, int keep, char *msg,
              size_t len)
{
    if (!w->f) {
        emptied(o);
        return 0;
    }
    const char *what = jnl_emit(w, o, sync);
    if (!what)
        return 0;
    jnl_give_up(w, path, keep, what, msg, len);
    return 1;
}

int jnl_give_up(jnl_w *w, const char *path, int keep, const char *why, char *msg,
                size_t len)
{
    struct stat st;
    int rm = !keep && stat(path, &st) == 0 && S_ISREG(st.st_mode);
    if (w->f)
        fclose(w->f);
    w->f = NULL;
    if (rm && unlink(path) != 0)
        rm = 0;
    snprintf(msg, len, "journal %s: cannot write (%s): the run goes on without it (%s)",
             quote(path), why, rm ? "removed" : keep ? "closed; what it holds stays"
                                                     : "closed");
    return rm;
}

/* ---- reading ----------------------------------------------------------- */

void jnl_torn_text(long torn, long good_end, char *buf, size_t len)
{
    if (torn <= 0)
        snprintf(buf, len, "%s", "");
    else
        snprintf(buf, len, "; the last %ld byte%s (from byte %ld on) ignored and cut: an "
                 "entry cut short or damaged, and any after it", torn, torn == 1 ? "" : "s",
                 good_end);
}

int jnl_open(jnl_rd *r, const char *path, const char *magic, uint64_t version,
             char *why, size_t len)
{
    struct stat st;
    char got[8];
    uint64_t v;
    r->f = NULL;
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {     /* (a FIFO would block) */
        snprintf(why, len, "not a journal (not a regular file)");
        errno = EINVAL;
        return -1;
    }
    if (!(r->f = fopen(path, "rb"))) {
        int e = errno;
        snprintf(why, len, "%s", strerror(e));
        errno = e;
        return -1;
    }
    r->size = r->left = fstat(fileno(r->f), &st) == 0 ? (long)st.st_size : 0;
    jnl_begin(r);
    int bad = 0;
    if ((bad = jnl_get(r, got, 8) != 0 || memcmp(got, magic, 8) != 0))
        snprintf(why, len, "not a journal of this kind (no %.8s at its start)", magic);
    else if ((bad = jnl_get_u(r, &v) != 0 || v != version))
        snprintf(why, len, "a journal of another version");
    if (bad) {
        fclose(r->f);
        r->f = NULL;
        errno = EINVAL;
        return -1;
    }
    return 0;
}

void jnl_begin(jnl_rd *r)
{
    r->sum = FNV1A_BASIS;
}

int jnl_get(jnl_rd *r, void *p, size_t n)
{
    if (n > (size_t)r->left || fread(p, 1, n, r->f) != n)
        return -1;
    r->left -= (long)n;
    r->sum = fnv1a(r->sum, p, n);
    return 0;
}

static int raw_u(jnl_rd *r, uint64_t *v)
{
    unsigned char b[8];
    if (r->left < 8 || fread(b, 1, 8, r->f) != 8)
        return -1;
    r->left -= 8;
    *v = 0;
    for (int i = 0; i < 8; i++)
        *v |= (uint64_t)b[i] << (8 * i);
    return 0;
}

int jnl_get_u(jnl_rd *r, uint64_t *v)
{
    unsigned char b[8];
    if (jnl_get(r, b, 8) != 0)
        return -1;
    *v = 0;
    for (int i = 0; i < 8; i++)
        *v |= (uint64_t)b[i] << (8 * i);
    return 0;
}

int jnl_get_len(jnl_rd *r, uint64_t max, uint64_t *v)
{
    return jnl_get_u(r, v) == 0 && *v <= max && *v <= (uint64_t)r->left ? 0 : -1;
}

int jnl_get_sum(jnl_rd *r)
{
    uint64_t want = r->sum, got;
    return raw_u(r, &got) == 0 && got == want ? 0 : -1;
}

char *jnl_get_text(jnl_rd *r, size_t max)
{
    uint64_t n;
    char *s;
    if (jnl_get_len(r, max, &n) != 0 || !(s = malloc(n + 1)))
        return NULL;
    if (jnl_get(r, s, n) != 0) {
        free(s);
        return NULL;
    }
    s[n] = '\0';
    if (strlen(s) != n) {
        free(s);
        return NULL;
    }
    return s;
}

long jnl_tell(const jnl_rd *r)
{
    return ftell(r->f);
}

long jnl_torn(const jnl_rd *r, long good_end)
{
    return r->size - good_end;
}
