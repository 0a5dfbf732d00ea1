/* journal.c: the master's journal of results, for resuming a broken run
 * (dtss.h, options journal and resume; docs/runtime.md, "The journal").
 *
 * A binary file, appended to as the run goes, every number an unsigned
 * 64-bit little-endian integer ("u"):
 *
 *   header   "DTSS-JNL", u version (1), u I, u R, u scheme length, the
 *            scheme's name, u parameters, each as u length + "name=value"
 *            ("min=N" for --min), u job length, the job bytes, u FNV-1a
 *   entry A  'A', u start, u size, u FNV-1a             (a chunk handed out)
 *   entry R  'R', u start, u size, u pieces, per piece u start, u size,
 *            u bytes, then the pieces' bytes, u FNV-1a   (a chunk's results,
 *                                                         as accepted)
 *
 * start and size of a chunk index the scheduled (sampled) loop, those of a
 * piece the original one. Each entry's FNV-1a 64 covers its bytes from the
 * kind on: an entry cut short by a crash mid-write, or one whose checksum
 * is wrong, ends the journal there (what follows is ignored, and cut off
 * before a resumed run appends). A whole entry whose checksum is right but
 * whose numbers are not the run's -- a range outside the loop, pieces that
 * are not its iterations (in the order the worker takes them), results of
 * other sizes than the application's (dtss_master_result_bytes),
 * iterations another entry holds -- is no crash's doing: the journal is
 * refused, naming the entry, before anything runs; so is a header naming
 * a parameter no scheme has (a journal sets its run's scheme, parameters,
 * I, R and job, never --worker, --hosts or --resume). Each entry is
 * written with one fwrite and flushed (in the kernel, it survives the master's or the pvmd's crash),
 * fsync'd at most once a second and at the end (a crash of the machine
 * itself loses at most the last second's).
 *
 * No PVM here: the runtime's master files call it (serve_self.c writes,
 * master.c hands the journaled results out first).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/loop/master.h"
#include "sched/util/quote.h"

#define MAGIC "DTSS-JNL"
#define VERSION 1

static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= 1099511628211ULL;
    }
    return h;
}
#define FNV0 14695981039346656037ULL

/* ---- writing ----------------------------------------------------------------- */

typedef struct buf { unsigned char *b; size_t n, cap; int oom; } buf;

static void put(buf *o, const void *p, size_t n)
{
    if (o->oom)
        return;
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

static void put_u(buf *o, uint64_t v)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    put(o, b, 8);
}

static void put_text(buf *o, const char *s)
{
    put_u(o, strlen(s));
    put(o, s, strlen(s));
}

/* The checksum of o's bytes from 'from' on, appended. */
static void put_sum(buf *o, size_t from)
{
    if (!o->oom)
        put_u(o, fnv(FNV0, o->b + from, o->n - from));
}

/* Writes o's bytes as one entry: fwrite, fflush, fsync when the last was a
 * second ago (or 'sync'). On failure the journal is closed, and removed
 * unless resumed (logged once): the run goes on without it. */
static void emit(dtss_master *m, buf *o, int sync)
{
    journal *j = &m->jw;
    const char *what = o->oom ? "out of memory" : NULL;
    if (!j->f) {
        free(o->b);
        return;
    }
    if (!what && (fwrite(o->b, 1, o->n, j->f) != o->n || fflush(j->f) != 0))
        what = strerror(errno);
    double now = wire_now();
    if (!what && (sync || now - j->synced >= 1)) {
        if (fsync(fileno(j->f)) != 0)
            what = strerror(errno);
        j->synced = now;
    }
    free(o->b);
    if (what) {     /* removed (a full disk: room for the outputs), but a resumed */
        master_log(m, 0, "journal %s: cannot write (%s): %s; the run goes on without "
                   "it", quote(m->journal_path), what, m->resume ? "closed" : "removed");
        fclose(j->f);                           /* one's earlier results stay */
        j->f = NULL;
        if (!m->resume)
            unlink(m->journal_path);
    }
}

int journal_create(dtss_master *m)
{
    journal *j = &m->jw;
    j->f = fopen(m->journal_path, "wb");
    if (!j->f)
        return master_fail(m, DTSS_EINVAL, "--journal %s: cannot create it: %s",
                           quote(m->journal_path), strerror(errno));
    buf o = {0};
    put(&o, MAGIC, 8);
    put_u(&o, VERSION);
    put_u(&o, (uint64_t)m->iters);
    put_u(&o, (uint64_t)m->sample);
    put_text(&o, m->scheme);
    put_u(&o, (uint64_t)(m->nparam + (m->min_text != NULL)));
    char kv[512];
    for (int i = 0; i < m->nparam; i++) {
        snprintf(kv, sizeof kv, "%s=%s", m->pname[i], m->pvalue[i]);
        put_text(&o, kv);
    }
    if (m->min_text) {
        snprintf(kv, sizeof kv, "min=%s", m->min_text);
        put_text(&o, kv);
    }
    put_u(&o, m->h.job_len);
    put(&o, m->h.job, m->h.job_len);
    put_sum(&o, 0);
    emit(m, &o, 1);
    return j->f ? DTSS_OK : master_fail(m, DTSS_EINVAL, "--journal %s: cannot write "
                                        "its header", quote(m->journal_path));
}

void journal_assigned(dtss_master *m, long start, long size)
{
    if (!m->jw.f)
        return;
    buf o = {0};
    put(&o, "A", 1);
    put_u(&o, (uint64_t)start);
    put_u(&o, (uint64_t)size);
    put_sum(&o, 0);
    emit(m, &o, 0);
}

void journal_result(dtss_master *m, const wire_result *r)
{
    if (!m->jw.f)
        return;
    buf o = {0};
    put(&o, "R", 1);
    put_u(&o, (uint64_t)r->start);
    put_u(&o, (uint64_t)r->size);
    put_u(&o, (uint64_t)r->npieces);
    for (long i = 0; i < 3 * r->npieces; i++)
        put_u(&o, (uint64_t)r->hdr[i]);
    put(&o, r->data, r->len);
    put_sum(&o, 0);
    emit(m, &o, 0);
}

void journal_close(dtss_master *m)
{
    if (!m->jw.f)
        return;
    fflush(m->jw.f);
    fsync(fileno(m->jw.f));
    fclose(m->jw.f);
    m->jw.f = NULL;
}

/* ---- reading ----------------------------------------------------------------- */

/* A reader of one file: where it is, how much is left, the running sum. */
typedef struct rd {
    FILE *f;
    long left;          /* bytes to the end of the file */
    uint64_t sum;
} rd;

static int get(rd *r, void *p, size_t n)
{
    if ((long)n > r->left || fread(p, 1, n, r->f) != n)
        return -1;
    r->left -= (long)n;
    r->sum = fnv(r->sum, p, n);
    return 0;
}

static int get_u(rd *r, uint64_t *v)
{
    unsigned char b[8];
    if (get(r, b, 8) != 0)
        return -1;
    *v = 0;
    for (int i = 0; i < 8; i++)
        *v |= (uint64_t)b[i] << (8 * i);
    return 0;
}

/* A length of at most max and of the bytes left. */
static int get_len(rd *r, uint64_t max, uint64_t *v)
{
    return get_u(r, v) == 0 && *v <= max && *v <= (uint64_t)r->left ? 0 : -1;
}

/* The checksum: equal to the sum so far. */
static int get_sum(rd *r)
{
    uint64_t want = r->sum, got;
    unsigned char b[8];
    if ((long)sizeof b > r->left || fread(b, 1, 8, r->f) != 8)
        return -1;
    r->left -= 8;
    got = 0;
    for (int i = 0; i < 8; i++)
        got |= (uint64_t)b[i] << (8 * i);
    return got == want ? 0 : -1;
}

static char *get_text(rd *r, size_t max)
{
    uint64_t n;
    char *s;
    if (get_len(r, max, &n) != 0 || !(s = malloc(n + 1)))
        return NULL;
    if (get(r, s, n) != 0) {
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

void journal_head_free(journal_head *h)
{
    free(h->scheme);
    for (int i = 0; i < h->nparam; i++)
        free(h->param[i]);
    free(h->job);
    memset(h, 0, sizeof *h);
}

/* Opens path and reads its header into h: DTSS_OK with r->f positioned
 * after it (r->left: the bytes after it), or an error (m's message set). */
static int read_head(dtss_master *m, const char *path, journal_head *h, rd *r)
{
    struct stat st;
    char magic[8];
    uint64_t version, I, R, np, jl = 0;
    memset(h, 0, sizeof *h);
    if (stat(path, &st) == 0 && !S_ISREG(st.st_mode))     /* (a FIFO would block) */
        return master_fail(m, DTSS_EINVAL, "--resume %s: not a journal (not a "
                           "regular file)", quote(path));
    r->f = fopen(path, "rb");
    if (!r->f)
        return master_fail(m, errno == ENOENT ? DTSS_ENOENT : DTSS_EINVAL,
                           "--resume %s: %s", quote(path), strerror(errno));
    r->left = fstat(fileno(r->f), &st) == 0 ? (long)st.st_size : 0;
    r->sum = FNV0;
    const char *what = NULL;
    if (get(r, magic, 8) != 0 || memcmp(magic, MAGIC, 8) != 0)
        what = "not a journal (no DTSS-JNL at its start)";
    else if (get_u(r, &version) != 0 || version != VERSION)
        what = "a journal of another version";
    else if (get_u(r, &I) != 0 || I > WIRE_MAX_ITERS || get_u(r, &R) != 0 ||
             R < 1 || R > 1000000 || !(h->scheme = get_text(r, 31)) ||
             get_u(r, &np) != 0 || np > MASTER_MAX_PARAMS + 1)
        what = "its header is damaged";
    else {
        h->iters = (long)I;
        h->sample = (int)R;
        for (uint64_t i = 0; i < np && !what; i++)
            if (!(h->param[h->nparam++] = get_text(r, 500)) || !strchr(h->param[i], '='))
                what = "its header is damaged";
            else if (!master_is_param(h->param[i]))    /* (not --worker, --resume...) */
                what = "its header names a parameter that is no scheme's";
        if (!what && (get_len(r, WIRE_MAX_JOB, &jl) != 0 ||
                      !(h->job = malloc(jl ? jl : 1)) || get(r, h->job, jl) != 0))
            what = "its header is damaged";
        h->job_len = (size_t)jl;
        if (!what && get_sum(r) != 0)
            what = "its header is damaged (checksum)";
    }
    if (what) {
        fclose(r->f);
        r->f = NULL;
        journal_head_free(h);
        return master_fail(m, DTSS_EINVAL, "--resume %s: %s", quote(path), what);
    }
    return DTSS_OK;
}

/* Reads the next entry: first its whole extent and its checksum, then
 * whether it is this run's (I iterations sampled with R, results of 'bytes'
 * each, 0: unknown): a chunk's pieces are its iterations in the order the
 * worker takes them (worker.c: from the chunk's start, each piece a run
 * consecutive in the original order, sched_sample_run), nothing else. 1: an entry (kind 'A': *res untouched; 'R': *res filled when res
 * is not NULL, wire_result_free it); 0: the end, or a torn or damaged entry
 * -- cut short, not a kind, over the limits, or its checksum wrong -- where
 * the journal ends; -1: a whole entry, its checksum right, that is not this
 * run's (why: a static string). */
static int read_entry(rd *r, long I, long R, long bytes, int *kind, long *start,
                      long *size, wire_result *res, const char **why)
{
    unsigned char k;
    uint64_t s, n, np = 0;
    r->sum = FNV0;
    if (get(r, &k, 1) != 0 || (k != 'A' && k != 'R') || get_u(r, &s) != 0 ||
        get_u(r, &n) != 0)
        return 0;
    wire_result w = {.id = -1};
    uint64_t total = 0;
    int ok = 1;
    if (k == 'R') {
        ok = get_u(r, &np) == 0 && np <= (uint64_t)r->left / 24 &&
             (w.hdr = malloc(sizeof *w.hdr * 3 * (np ? np : 1))) != NULL;
        uint64_t *u = (uint64_t *)w.hdr;        /* (read as u first: 64 bits) */
        for (uint64_t i = 0; ok && i < 3 * np; i++) {
            ok = get_u(r, &u[i]) == 0;
            if (ok && i % 3 == 2) {
                ok = u[i] <= WIRE_MAX_RESULT - total;
                total += u[i];
            }
        }
        ok = ok && total <= (uint64_t)r->left &&
             (w.data = malloc(total ? total : 1)) != NULL && get(r, w.data, total) == 0;
    }
    if (!ok || get_sum(r) != 0) {
        wire_result_free(&w);
        return 0;
    }
    /* whole and checksummed: is it this run's? */
    *why = NULL;
    uint64_t at = s;                    /* the chunk's next iteration (scheduled) */
    if (n < 1 || s > (uint64_t)I || n > (uint64_t)I - s)
        *why = "its range is outside the loop";
    for (uint64_t i = 0; !*why && i < np; i++) {
        const uint64_t *h = (const uint64_t *)w.hdr + 3 * i;
        if (h[0] >= (uint64_t)I || h[1] < 1 || h[1] > (uint64_t)I - h[0])
            *why = "a piece's range is outside the loop";
        else if (bytes > 0 && (h[1] > WIRE_MAX_RESULT / (uint64_t)bytes ||
                               h[2] != h[1] * (uint64_t)bytes))
            *why = "a piece's results are not its iterations times the result bytes";
        else if (at >= s + n || h[1] > s + n - at)
            *why = "its pieces' iterations do not add up to its range";
        else if (h[0] != (uint64_t)sched_sample((long)at, I, R) ||
                 h[1] > (uint64_t)sched_sample_run((long)at, (long)(s + n), I, R))
            *why = "a piece is not its chunk's next iterations";
        at += h[1];
    }
    if (!*why && k == 'R' && at != s + n)
        *why = "its pieces' iterations do not add up to its range";
    if (*why) {
        wire_result_free(&w);
        return -1;
    }
    *kind = k;
    *start = (long)s;
    *size = (long)n;
    if (k == 'R' && res) {
        for (uint64_t i = 0; i < 3 * np; i++)   /* (each below 2^63: checked) */
            w.hdr[i] = (long)((const uint64_t *)w.hdr)[i];
        w.start = (long)s;
        w.size = (long)n;
        w.npieces = (long)np;
        w.len = (size_t)total;
        *res = w;
    } else
        wire_result_free(&w);
    return 1;
}

int master_resume_from(dtss_master *m, const char *path)
{
    journal_head h;
    rd r;
    int rc = read_head(m, path, &h, &r);
    if (rc != DTSS_OK)
        return rc;
    fclose(r.f);
    char *copy = strdup(path);
    if (!copy) {
        journal_head_free(&h);
        return master_fail(m, DTSS_ENOMEM, "out of memory");
    }
    /* The journal's run, as if set now. */
    char iters[32], sample[32];
    snprintf(iters, sizeof iters, "%ld", h.iters);
    snprintf(sample, sizeof sample, "%d", h.sample);
    rc = dtss_master_set(m, "scheme", h.scheme);
    if (rc == DTSS_OK)
        rc = dtss_master_set(m, "iterations", iters);
    if (rc == DTSS_OK)
        rc = dtss_master_set(m, "sample", sample);
    for (int i = 0; i < h.nparam && rc == DTSS_OK; i++) {
        char *eq = strchr(h.param[i], '=');
        *eq = '\0';
        rc = dtss_master_set(m, h.param[i], eq + 1);
        *eq = '=';
    }
    if (rc == DTSS_OK)
        rc = dtss_master_job(m, h.job, h.job_len);
    if (rc != DTSS_OK) {
        char why[sizeof m->h.err];
        snprintf(why, sizeof why, "%s", m->h.err);
        master_fail(m, rc, "--resume %s: its run does not fit: %s", quote(path), why);
        free(copy);
        journal_head_free(&h);
        return rc;
    }
    free(m->journal_path);
    m->journal_path = copy;
    journal_head_free(&m->jh);
    m->jh = h;
    m->resume = 1;
    return DTSS_OK;
}

/* Whether m's run is the journal's: DTSS_OK, or DTSS_EINVAL naming the
 * field that differs. */
int journal_check(dtss_master *m)
{
    const journal_head *h = &m->jh;
    const char *p = m->journal_path;
    if (strcmp(h->scheme, m->scheme) != 0)
        return master_fail(m, DTSS_EINVAL, "--resume %s: the journal's run has scheme "
                           "%s, this one %s", quote(p), quote(h->scheme), m->scheme);
    if (h->iters != m->iters)
        return master_fail(m, DTSS_EINVAL, "--resume %s: the journal's run has %ld "
                           "iterations, this one %ld", quote(p), h->iters, m->iters);
    if (h->sample != m->sample)
        return master_fail(m, DTSS_EINVAL, "--resume %s: the journal's run has sample "
                           "%d, this one %d", quote(p), h->sample, m->sample);
    if (h->job_len != m->h.job_len || (h->job_len && memcmp(h->job, m->h.job, h->job_len)))
        return master_fail(m, DTSS_EINVAL, "--resume %s: the journal's run has another "
                           "job (%zu bytes; this one %zu)", quote(p), h->job_len, m->h.job_len);
    /* The scheme's parameters, as sets of name=value. */
    int n = m->nparam + (m->min_text != NULL);
    char kv[512];
    for (int i = 0; i < n; i++) {
        if (i < m->nparam)
            snprintf(kv, sizeof kv, "%s=%s", m->pname[i], m->pvalue[i]);
        else
            snprintf(kv, sizeof kv, "min=%s", m->min_text);
        int found = 0;
        for (int k = 0; k < h->nparam && !found; k++)
            found = strcmp(h->param[k], kv) == 0;
        if (!found)
            return master_fail(m, DTSS_EINVAL, "--resume %s: the journal's run has no "
                               "parameter %s", quote(p), quote(kv));
    }
    if (n != h->nparam)
        return master_fail(m, DTSS_EINVAL, "--resume %s: the journal's run has %d "
                           "scheme parameter%s, this one %d", quote(p), h->nparam,
                           h->nparam == 1 ? "" : "s", n);
    return DTSS_OK;
}

static int add_range(policy_range **v, long *n, long *cap, long start, long size)
{
    if (*n == *cap) {
        long c = *cap ? 2 * *cap : 64;
        policy_range *x = realloc(*v, sizeof *x * (size_t)c);
        if (!x)
            return -1;
        *v = x;
        *cap = c;
    }
    (*v)[(*n)++] = (policy_range){start, size};
    return 0;
}

static int by_start(const void *a, const void *b)
{
    const policy_range *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

/* Sorts v and merges overlapping or adjacent ranges; returns the new count. */
static long merge(policy_range *v, long n)
{
    if (n > 1)                          /* (v is NULL with none) */
        qsort(v, (size_t)n, sizeof *v, by_start);
    long k = 0;
    for (long i = 0; i < n; i++)
        if (k > 0 && v[i].start <= v[k - 1].start + v[k - 1].size) {
            long end = v[i].start + v[i].size;
            if (end > v[k - 1].start + v[k - 1].size)
                v[k - 1].size = end - v[k - 1].start;
        } else {
            v[k++] = v[i];
        }
    return k;
}

/* A range of the scheduled loop and the entry that holds it (1, 2, ...). */
typedef struct held { long start, size, entry, at; } held;

static int by_held_start(const void *a, const void *b)
{
    const held *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

int journal_scan(dtss_master *m)
{
    journal *j = &m->jw;
    free(j->done);                      /* afresh: dtss_master_check may call twice */
    j->done = NULL;
    j->ndone = j->results = j->done_iters = j->handed = j->out_iters = 0;
    journal_head h;
    rd r;
    int rc = read_head(m, m->journal_path, &h, &r);
    if (rc != DTSS_OK)
        return rc;
    journal_head_free(&h);
    j->data_start = ftell(r.f);
    j->good_end = j->data_start;
    long cap = 0, nsent = 0, capsent = 0, nheld = 0, capheld = 0, entry = 0;
    policy_range *sent = NULL;
    held *hd = NULL;
    int kind, got;
    long start, size;
    const char *why = NULL;
    while (rc == DTSS_OK &&
           (got = read_entry(&r, m->iters, m->sample, m->result_bytes, &kind, &start,
                             &size, NULL, &why)) != 0) {
        entry++;
        if (got < 0) {
            rc = master_fail(m, DTSS_EINVAL, "--resume %s: entry %ld (at byte %ld): %s: "
                             "a damaged journal, or another run's", quote(m->journal_path),
                             entry, j->good_end, why);
            break;
        }
        if (kind == 'R' && nheld == capheld) {
            long c = capheld ? 2 * capheld : 64;
            held *x = realloc(hd, sizeof *x * (size_t)c);
            if (!x) {
                rc = master_fail(m, DTSS_ENOMEM, "out of memory reading the journal");
                break;
            }
            hd = x;
            capheld = c;
        }
        if (kind == 'R')
            hd[nheld++] = (held){start, size, entry, j->good_end};
        if ((kind == 'R' ? add_range(&j->done, &j->ndone, &cap, start, size)
                         : add_range(&sent, &nsent, &capsent, start, size)) != 0) {
            rc = master_fail(m, DTSS_ENOMEM, "out of memory reading the journal");
            break;
        }
        if (kind == 'R')
            j->results++;
        j->good_end = ftell(r.f);
    }
    fseek(r.f, 0, SEEK_END);
    j->torn = ftell(r.f) - j->good_end;
    fclose(r.f);
    /* Results of one iteration twice: not a run's journal (the master takes
     * each chunk's results once). */
    if (rc == DTSS_OK && nheld > 1) {
        qsort(hd, (size_t)nheld, sizeof *hd, by_held_start);
        for (long i = 1; i < nheld && rc == DTSS_OK; i++)
            if (hd[i].start < hd[i - 1].start + hd[i - 1].size) {
                const held *a = hd[i].entry < hd[i - 1].entry ? &hd[i] : &hd[i - 1];
                const held *b = a == &hd[i] ? &hd[i - 1] : &hd[i];
                rc = master_fail(m, DTSS_EINVAL, "--resume %s: entry %ld (at byte %ld): "
                                 "results of iterations entry %ld holds too: a damaged "
                                 "journal, or another run's", quote(m->journal_path),
                                 b->entry, b->at, a->entry);
            }
    }
    free(hd);
    /* What was out when the run broke: handed out, not done. */
    policy_range *d = NULL;
    long nd = 0;
    if (rc == DTSS_OK && j->ndone > 0 && !(d = malloc(sizeof *d * (size_t)j->ndone)))
        rc = master_fail(m, DTSS_ENOMEM, "out of memory reading the journal");
    if (rc == DTSS_OK) {
        if (j->ndone)
            memcpy(d, j->done, sizeof *d * (size_t)j->ndone);
        nd = merge(d, j->ndone);
        nsent = merge(sent, nsent);
        for (long i = 0; i < j->ndone; i++)
            j->done_iters += j->done[i].size;
        long k = 0;
        for (long i = 0; i < nsent; i++) {
            j->handed += sent[i].size;
            long a = sent[i].start, b = a + sent[i].size;
            while (k < nd && d[k].start + d[k].size <= a)
                k++;
            long cover = 0;
            for (long q = k; q < nd && d[q].start < b; q++) {
                long lo = d[q].start > a ? d[q].start : a;
                long hi = d[q].start + d[q].size < b ? d[q].start + d[q].size : b;
                cover += hi - lo;
            }
            j->out_iters += sent[i].size - cover;
        }
    }
    free(d);
    free(sent);
    return rc;
}

int journal_reopen(dtss_master *m)
{
    journal *j = &m->jw;
    if (truncate(m->journal_path, j->good_end) != 0 ||
        !(j->f = fopen(m->journal_path, "ab")))
        return master_fail(m, DTSS_EINVAL, "--resume %s: cannot append to it: %s",
                           quote(m->journal_path), strerror(errno));
    j->synced = wire_now();
    return DTSS_OK;
}

int journal_open_results(dtss_master *m)
{
    journal *j = &m->jw;
    j->in = fopen(m->journal_path, "rb");
    if (!j->in || fseek(j->in, j->data_start, SEEK_SET) != 0)
        return master_fail(m, DTSS_EINVAL, "--resume %s: cannot read it: %s",
                           quote(m->journal_path), strerror(errno));
    j->in_left = j->good_end - j->data_start;
    return DTSS_OK;
}

int journal_next_result(dtss_master *m, wire_result *res)
{
    journal *j = &m->jw;
    if (!j->in)
        return 0;
    rd r = {.f = j->in, .left = j->in_left};
    int kind, got;
    long start, size;
    const char *why;
    while ((got = read_entry(&r, m->iters, m->sample, m->result_bytes, &kind, &start,
                             &size, res, &why)) == 1 && kind != 'R')
        ;
    j->in_left = r.left;
    if (got == 1) {
        j->handed_out++;
        return 1;
    }
    fclose(j->in);
    j->in = NULL;
    if (j->handed_out != j->results)
        return master_fail(m, DTSS_ENOMEM, "--resume %s: %ld of its %ld results could "
                           "be read back (out of memory?)", quote(m->journal_path),
                           j->handed_out, j->results), -1;
    return 0;
}

void journal_free(dtss_master *m)
{
    journal_close(m);
    if (m->jw.in)
        fclose(m->jw.in);
    free(m->jw.done);
    journal_head_free(&m->jh);
    memset(&m->jw, 0, sizeof m->jw);
}
