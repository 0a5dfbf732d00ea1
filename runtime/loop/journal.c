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
 * itself loses at most the last second's). A worker's results (R) and the
 * chunk the master serves it next (A) go in one write, before that chunk
 * goes (journal_hold); an R entry with no A after it, at the end of the
 * master's step: before the results reach the application either way.
 *
 * Under Tree-Scheduling the same: an A entry for each range the master
 * sends (the initial ranges, and the ranges it serves later), an R entry
 * for each range's results as accepted; the ranges the workers trade among
 * themselves have no A entry (the master never sees them), their results
 * have R entries like any. Resuming gives the done ranges to the scheme's
 * policy (policy_resume; under tree tree_resume): the header's scheme says
 * which, and a run of another scheme is refused ("the journal's run has
 * scheme tree, this one dtss").
 *
 * No PVM here: the runtime's master files call it (serve_self.c and
 * serve_tree.c write, master.c hands the journaled results out first).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/core/jnl.h"
#include "runtime/loop/master.h"
#include "sched/util/quote.h"

#define MAGIC "DTSS-JNL"
#define VERSION 1

/* ---- writing ----------------------------------------------------------------- */

/* Writes o as one entry; a failure is logged, the run goes on without it. */
static void emit(dtss_master *m, jnl_buf *o, int sync)
{
    char msg[600];
    if (jnl_write(&m->jw.w, o, sync, m->journal_path, m->resume, msg, sizeof msg))
        master_log(m, 0, "%s", msg);
}

int journal_create(dtss_master *m)
{
    int rc = rt_jnl_create(&m->h, &m->jw.w, m->journal_path);
    if (rc != DTSS_OK)
        return rc;
    jnl_buf o = {0};
    jnl_put_head(&o, MAGIC, VERSION);
    jnl_put_u(&o, (uint64_t)m->iters);
    jnl_put_u(&o, (uint64_t)m->sample);
    jnl_put_text(&o, m->scheme);
    jnl_put_u(&o, (uint64_t)(m->nparam + (m->min_text != NULL)));
    char kv[512];
    for (int i = 0; i < m->nparam; i++) {
        snprintf(kv, sizeof kv, "%s=%s", m->pname[i], m->pvalue[i]);
        jnl_put_text(&o, kv);
    }
    if (m->min_text) {
        snprintf(kv, sizeof kv, "min=%s", m->min_text);
        jnl_put_text(&o, kv);
    }
    jnl_put_bytes(&o, m->h.job, m->h.job_len);
    jnl_put_sum(&o, 0);
    emit(m, &o, 1);     /* (a full disk: said, the run goes on without it) */
    return DTSS_OK;
}

int journal_begin(dtss_master *m)
{
    if (!m->journal_path)
        return DTSS_OK;
    if (!m->resume)
        return journal_create(m);
    journal *j = &m->jw;
    char text[32], msg[256], torn[160];
    jnl_torn_text(j->torn, j->good_end, torn, sizeof torn);
    master_log(m, 0, "resuming %s: %ld of %ld iterations done (%ld results); %ld were "
               "out when the run broke, %ld never handed out%s", quote(m->journal_path),
               j->done_iters, m->iters, j->results, j->out_iters,
               m->iters - j->done_iters - j->out_iters, torn);
    snprintf(text, sizeof text, "%ld", j->done_iters);
    if (record_field(&m->rec, "resumed", text, msg, sizeof msg) != 0)
        return master_fail(m, DTSS_EINVAL, "%s", msg);
    int rc = journal_reopen(m);
    return rc != DTSS_OK ? rc : journal_open_results(m);
}

/* The entries are built one after the other in m->jw.out, whose memory
 * stays from one write to the next (an entry's sum from its own kind on). */
void journal_assigned(dtss_master *m, long start, long size)
{
    if (!m->jw.w.f)
        return;
    jnl_buf *o = &m->jw.out;
    size_t from = o->n;
    o->keep = 1;
    jnl_put(o, "A", 1);
    jnl_put_u(o, (uint64_t)start);
    jnl_put_u(o, (uint64_t)size);
    jnl_put_sum(o, from);
    emit(m, o, 0);
}

void journal_result(dtss_master *m, const wire_result *r)
{
    if (!m->jw.w.f)
        return;
    jnl_buf *o = &m->jw.out;
    size_t from = o->n;
    o->keep = 1;
    jnl_put(o, "R", 1);
    jnl_put_u(o, (uint64_t)r->start);
    jnl_put_u(o, (uint64_t)r->size);
    jnl_put_u(o, (uint64_t)r->npieces);
    for (long i = 0; i < 3 * r->npieces; i++)
        jnl_put_u(o, (uint64_t)r->hdr[i]);
    jnl_put(o, r->data, r->len);
    jnl_put_sum(o, from);
    if (!m->jw.hold)
        emit(m, o, 0);
}

void journal_hold(dtss_master *m)
{
    m->jw.hold = 1;
}

void journal_flush(dtss_master *m)
{
    m->jw.hold = 0;
    if (m->jw.out.n > 0 || m->jw.out.oom)
        emit(m, &m->jw.out, 0);
}

void journal_close(dtss_master *m)
{
    journal_flush(m);
    jnl_close(&m->jw.w);
}

/* ---- reading ----------------------------------------------------------------- */

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
static int read_head(dtss_master *m, const char *path, journal_head *h, jnl_rd *r)
{
    uint64_t I, R, np, jl = 0;
    char why[160];
    memset(h, 0, sizeof *h);
    if (jnl_open(r, path, MAGIC, VERSION, why, sizeof why) != 0)
        return master_fail(m, errno == ENOENT ? DTSS_ENOENT : DTSS_EINVAL,
                           "--resume %s: %s", quote(path), why);
    const char *what = NULL;
    if (jnl_get_u(r, &I) != 0 || I > WIRE_MAX_ITERS || jnl_get_u(r, &R) != 0 ||
             R < 1 || R > 1000000 || !(h->scheme = jnl_get_text(r, 31)) ||
             jnl_get_u(r, &np) != 0 || np > MASTER_MAX_PARAMS + 1)
        what = "its header is damaged";
    else {
        h->iters = (long)I;
        h->sample = (int)R;
        for (uint64_t i = 0; i < np && !what; i++)
            if (!(h->param[h->nparam++] = jnl_get_text(r, 500)) || !strchr(h->param[i], '='))
                what = "its header is damaged";
            else if (!master_is_param(h->param[i]))    /* (not --worker, --resume...) */
                what = "its header names a parameter that is no scheme's";
        if (!what && (jnl_get_len(r, WIRE_MAX_JOB, &jl) != 0 ||
                      !(h->job = malloc(jl ? jl : 1)) || jnl_get(r, h->job, jl) != 0))
            what = "its header is damaged";
        h->job_len = (size_t)jl;
        if (!what && jnl_get_sum(r) != 0)
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
static int read_entry(jnl_rd *r, long I, long R, long bytes, int *kind, long *start,
                      long *size, wire_result *res, const char **why)
{
    unsigned char k;
    uint64_t s, n, np = 0;
    jnl_begin(r);
    if (jnl_get(r, &k, 1) != 0 || (k != 'A' && k != 'R') || jnl_get_u(r, &s) != 0 ||
        jnl_get_u(r, &n) != 0)
        return 0;
    wire_result w = {.id = -1};
    uint64_t total = 0;
    int ok = 1;
    if (k == 'R') {
        ok = jnl_get_u(r, &np) == 0 && np <= (uint64_t)r->left / 24 &&
             (w.hdr = malloc(sizeof *w.hdr * 3 * (np ? np : 1))) != NULL;
        uint64_t *u = (uint64_t *)w.hdr;        /* (read as u first: 64 bits) */
        for (uint64_t i = 0; ok && i < 3 * np; i++) {
            ok = jnl_get_u(r, &u[i]) == 0;
            if (ok && i % 3 == 2) {
                ok = u[i] <= WIRE_MAX_RESULT - total;
                total += u[i];
            }
        }
        ok = ok && total <= (uint64_t)r->left &&
             (w.data = malloc(total ? total : 1)) != NULL && jnl_get(r, w.data, total) == 0;
    }
    if (!ok || jnl_get_sum(r) != 0) {
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
    jnl_rd r;
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
    jnl_rd r;
    int rc = read_head(m, m->journal_path, &h, &r);
    if (rc != DTSS_OK)
        return rc;
    journal_head_free(&h);
    j->data_start = jnl_tell(&r);
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
        j->good_end = jnl_tell(&r);
    }
    j->torn = jnl_torn(&r, j->good_end);
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
    if (jnl_reopen(&j->w, m->journal_path, j->good_end) != 0)
        return master_fail(m, DTSS_EINVAL, "--resume %s: cannot append to it: %s",
                           quote(m->journal_path), strerror(errno));
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
    jnl_rd r = {.f = j->in, .left = j->in_left};
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
    free(m->jw.out.b);
    journal_head_free(&m->jh);
    memset(&m->jw, 0, sizeof m->jw);
}
