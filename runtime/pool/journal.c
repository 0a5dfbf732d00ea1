/* journal.c: the pool master's journal of accepted results, for resuming a
 * broken run (dtss.h, the pool's options journal and resume; docs/runtime.md,
 * "Resuming" under the pool). Its bytes are runtime/core/jnl.h's: every
 * number an unsigned 64-bit little-endian integer ("u"), each entry and the
 * header ending with the FNV-1a 64 of its bytes ("sum"):
 *
 *   header   "DTSS-POL", u version (1), u ntasks (dtss_pool_start's), u job
 *            length, the job's bytes, sum
 *   entry R  'R', u iteration (1, 2, ...), u task (0 .. ntasks - 1), u the
 *            FNV-1a 64 of the task's payload, u its execution time (the
 *            IEEE-754 bits of the double the worker measured), u result
 *            length, the result's bytes (as the worker sent them), sum
 *
 * One entry per result the master accepts (the first of a task that ran
 * twice), written before the application sees it. The application drives
 * the pool (dtss_pool_task, dtss_pool_next, dtss_pool_end_iteration), so
 * the journal keys a result by what the application asked: iteration,
 * task and payload. Resumed (--resume FILE), the run is the application's
 * again from its first iteration, and a task handed to dtss_pool_task whose
 * (iteration, task) the journal holds with the same payload hash is not
 * computed: dtss_pool_next hands its journaled result out first (worker
 * -1), then the results of the tasks the journal lacks, computed by the
 * workers as in any run. A deterministic application thus gets every
 * result a fresh run gets, byte for byte, and ends with the same output; an
 * iteration wholly journaled costs no message to any worker. A journaled
 * (iteration, task) handed another payload is another run's: refused
 * (DTSS_EINVAL, naming iteration and task), before it is computed.
 *
 * The header holds what a result depends on besides the payload: the job
 * (the application's bytes every worker gets) and ntasks (the tasks'
 * numbers). The strategy and its parameters, the allocation delay, --late
 * and the placement change when and where a task runs, never its result:
 * a resumed run may take others. A resumed run whose job or ntasks differ
 * is refused at dtss_pool_start, before PVM is asked, naming the field.
 *
 * An entry cut short by a crash mid-write, or whose sum is wrong, ends the
 * journal there: what follows is ignored, and cut off before the resumed
 * run appends. A whole entry whose sum is right but whose numbers cannot
 * be the run's is no crash's doing: the journal is refused, naming the
 * entry (1, 2, ... after the header) and its byte -- a task outside 0 ..
 * ntasks - 1, an iteration 0, an execution time that is no time (negative,
 * not finite), an iteration more than one past the highest before it or
 * below it (a run's results come iteration by iteration: the next
 * iteration begins when the last result of one is in), or an (iteration,
 * task) another entry holds (the master accepts each result once).
 *
 * Each entry is one fwrite and an fflush (in the kernel: it survives the
 * master's or the pvmd's crash), fsync'd at most once a second and at the
 * end. A write that fails is logged and ends the journal, not the run:
 * the file is removed (a regular file only), a resumed one closed (its
 * results stay for the next resume).
 *
 * No PVM here: master.c calls it (dtss_pool_start reads a resumed journal
 * through before it asks PVM for anything, and creates or opens the journal
 * once it has joined and found the pool's hosts; take_result appends;
 * dtss_pool_next hands the journaled results out).
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/pool/pool.h"
#include "sched/util/fnv.h"
#include "sched/util/quote.h"

#define MAGIC "DTSS-POL"
#define VERSION 1

/* ---- writing ----------------------------------------------------------------- */

/* Writes o as one entry; a failure is logged, the run goes on without it. */
static void emit(dtss_pool *p, jnl_buf *o, int sync)
{
    char msg[600];
    if (jnl_write(&p->jn.w, o, sync, p->jn.path, p->jn.resume, msg, sizeof msg))
        pool_log(p, 0, "%s", msg);
}

static void put_seconds(jnl_buf *o, double s)
{
    uint64_t u;
    memcpy(&u, &s, sizeof u);
    jnl_put_u(o, u);
}

void pool_journal_result(dtss_pool *p, int iteration, int task, uint64_t hash,
                         double seconds, const void *data, size_t len)
{
    if (!p->jn.w.f)
        return;
    jnl_buf o = {0};
    jnl_put(&o, "R", 1);
    jnl_put_u(&o, (uint64_t)iteration);
    jnl_put_u(&o, (uint64_t)task);
    jnl_put_u(&o, hash);
    put_seconds(&o, seconds);
    jnl_put_bytes(&o, data, len);
    jnl_put_sum(&o, 0);
    emit(p, &o, 0);
    if (p->jn.w.f)
        p->jn.written++;
}

static int create(dtss_pool *p)
{
    pool_journal *j = &p->jn;
    int rc = rt_jnl_create(&p->h, &j->w, j->path);
    if (rc != DTSS_OK)
        return rc;
    jnl_buf o = {0};
    jnl_put_head(&o, MAGIC, VERSION);
    jnl_put_u(&o, (uint64_t)p->ntasks);
    jnl_put_bytes(&o, p->h.job, p->h.job_len);
    jnl_put_sum(&o, 0);
    emit(p, &o, 1);                     /* (a failure: logged, the run goes on) */
    return DTSS_OK;
}

/* ---- reading ----------------------------------------------------------------- */

/* The job as a message shows it: quoted when it is short printable text. */
static const char *job_text(const void *job, size_t len, char *buf, size_t size)
{
    const unsigned char *b = job;
    int text = len > 0 && len <= 64;
    for (size_t i = 0; text && i < len; i++)
        text = b[i] >= 0x20 && b[i] < 0x7f;
    if (text)
        snprintf(buf, size, "\"%s\"", quote_mem(job, len));
    else
        snprintf(buf, size, "%zu bytes", len);
    return buf;
}

/* Reads the header and checks it against p's run (ntasks, job): DTSS_OK
 * with r positioned after it, or an error naming the field. */
static int read_head(dtss_pool *p, jnl_rd *r)
{
    const char *path = p->jn.path;
    char why[160];
    uint64_t n, jl;
    if (jnl_open(r, path, MAGIC, VERSION, why, sizeof why) != 0)
        return pool_fail(p, errno == ENOENT ? DTSS_ENOENT : DTSS_EINVAL, "--resume %s: %s",
                         quote(path), why);
    unsigned char *job = NULL;
    int rc = DTSS_OK;
    if (jnl_get_u(r, &n) != 0 || n < 1 || n > POOL_MAX_TASKS ||
        jnl_get_len(r, WIRE_MAX_JOB, &jl) != 0 || !(job = malloc(jl ? jl : 1)) ||
        jnl_get(r, job, jl) != 0)
        rc = pool_fail(p, DTSS_EINVAL, "--resume %s: its header is damaged", quote(path));
    else if (jnl_get_sum(r) != 0)
        rc = pool_fail(p, DTSS_EINVAL, "--resume %s: its header is damaged (checksum)",
                       quote(path));
    else if (n != (uint64_t)p->ntasks)
        rc = pool_fail(p, DTSS_EINVAL, "--resume %s: the journal's run has %llu tasks, "
                       "this one %d", quote(path), (unsigned long long)n, p->ntasks);
    else if (jl != p->h.job_len || (jl && memcmp(job, p->h.job, jl) != 0)) {
        char a[300], b[300];
        rc = pool_fail(p, DTSS_EINVAL, "--resume %s: the journal's run has another job "
                       "(%s; this one %s)", quote(path), job_text(job, jl, a, sizeof a),
                       job_text(p->h.job, p->h.job_len, b, sizeof b));
    }
    free(job);
    if (rc != DTSS_OK) {
        fclose(r->f);
        r->f = NULL;
    }
    return rc;
}

/* Reads the next entry: first its whole extent and its sum (the result's
 * bytes into *data when data is not NULL), then whether it can be of a run
 * of ntasks tasks whose entries so far reach iteration 'last'. 1: an entry
 * (*x filled but at and number); 0: the end, or a torn or damaged entry --
 * cut short, not a kind, a length over the limits or past the file's end,
 * its sum wrong -- where the journal ends; -1: a whole entry, its sum
 * right, that is not the run's (why[len] says why). */
static int read_entry(jnl_rd *r, int ntasks, int last, pjentry *x, unsigned char **data,
                      size_t *dlen, char *why, size_t len)
{
    unsigned char k, *b = NULL;
    uint64_t it, task, hash, secs, n;
    jnl_begin(r);
    if (jnl_get(r, &k, 1) != 0 || k != 'R' || jnl_get_u(r, &it) != 0 ||
        jnl_get_u(r, &task) != 0 || jnl_get_u(r, &hash) != 0 || jnl_get_u(r, &secs) != 0 ||
        jnl_get_len(r, WIRE_MAX_RESULT, &n) != 0 || !(b = malloc(n ? n : 1)) ||
        jnl_get(r, b, n) != 0 || jnl_get_sum(r) != 0) {
        free(b);
        return 0;
    }
    double s;
    memcpy(&s, &secs, sizeof s);
    if (it < 1 || it > INT_MAX)
        snprintf(why, len, "iteration %llu (a run's are 1, 2, ...)", (unsigned long long)it);
    else if (it > (uint64_t)last + 1)
        snprintf(why, len, "iteration %llu after iteration %d (a run's iterations come "
                 "one by one, from 1)", (unsigned long long)it, last);
    else if (it < (uint64_t)last)
        snprintf(why, len, "iteration %llu after iteration %d (a run's results come "
                 "iteration by iteration)", (unsigned long long)it, last);
    else if (task >= (uint64_t)ntasks)
        snprintf(why, len, "task %llu (the run has tasks 0 .. %d)",
                 (unsigned long long)task, ntasks - 1);
    else if (!(s >= 0) || !isfinite(s))
        snprintf(why, len, "an execution time of %g s", s);
    else
        why[0] = '\0';
    if (why[0]) {
        free(b);
        return -1;
    }
    *x = (pjentry){.iteration = (int)it, .task = (int)task, .hash = hash, .seconds = s};
    if (data) {
        *data = b;
        *dlen = (size_t)n;
    } else {
        free(b);
    }
    return 1;
}

static int by_key(const void *a, const void *b)
{
    const pjentry *x = a, *y = b;
    if (x->iteration != y->iteration)
        return (x->iteration > y->iteration) - (x->iteration < y->iteration);
    return (x->task > y->task) - (x->task < y->task);
}

/* --resume: reads the journal through (p->jn.e sorted, good_end, torn). */
static int scan(dtss_pool *p)
{
    pool_journal *j = &p->jn;
    jnl_rd r;
    int rc = read_head(p, &r);
    if (rc != DTSS_OK)
        return rc;
    j->good_end = jnl_tell(&r);
    long cap = 0;
    int got;
    char why[200];
    pjentry x;
    while ((got = read_entry(&r, p->ntasks, j->last_iteration, &x, NULL, NULL, why,
                             sizeof why)) != 0) {
        if (got < 0) {
            rc = pool_fail(p, DTSS_EINVAL, "--resume %s: entry %ld (at byte %ld): %s: a "
                           "damaged journal, or another run's", quote(j->path), j->ne + 1,
                           j->good_end, why);
            break;
        }
        if (j->ne == cap) {
            long c = cap ? 2 * cap : 256;
            pjentry *e = realloc(j->e, sizeof *e * (size_t)c);
            if (!e) {
                rc = pool_fail(p, DTSS_ENOMEM, "out of memory reading the journal");
                break;
            }
            j->e = e;
            cap = c;
        }
        x.at = j->good_end;
        x.number = j->ne + 1;
        j->e[j->ne++] = x;
        j->last_iteration = x.iteration;
        j->good_end = jnl_tell(&r);
    }
    j->torn = jnl_torn(&r, j->good_end);
    fclose(r.f);
    if (rc == DTSS_OK && j->ne > 1) {
        qsort(j->e, (size_t)j->ne, sizeof *j->e, by_key);
        for (long i = 1; i < j->ne && rc == DTSS_OK; i++)
            if (by_key(&j->e[i - 1], &j->e[i]) == 0) {
                const pjentry *a = &j->e[i - 1], *b = &j->e[i];
                if (a->number > b->number) {
                    const pjentry *t = a;
                    a = b;
                    b = t;
                }
                rc = pool_fail(p, DTSS_EINVAL, "--resume %s: entry %ld (at byte %ld): "
                               "iteration %d, task %d: entry %ld holds it too (a run "
                               "accepts each result once): a damaged journal, or another "
                               "run's", quote(j->path), b->number, b->at, b->iteration,
                               b->task, a->number);
            }
    }
    if (rc != DTSS_OK) {
        free(j->e);
        j->e = NULL;
        j->ne = 0;
    }
    return rc;
}

int pool_journal_scan(dtss_pool *p)
{
    return p->jn.path && p->jn.resume ? scan(p) : DTSS_OK;
}

int pool_journal_open(dtss_pool *p)
{
    pool_journal *j = &p->jn;
    if (!j->path)
        return DTSS_OK;
    if (!j->resume)
        return create(p);
    if (!(j->in = fopen(j->path, "rb")))
        return pool_fail(p, DTSS_EINVAL, "--resume %s: cannot read it: %s", quote(j->path),
                         strerror(errno));
    if (jnl_reopen(&j->w, j->path, j->good_end) != 0)
        return pool_fail(p, DTSS_EINVAL, "--resume %s: cannot append to it: %s",
                         quote(j->path), strerror(errno));
    char torn[160];
    jnl_torn_text(j->torn, j->good_end, torn, sizeof torn);
    pool_log(p, 0, "resuming %s: %ld result%s journaled, of iterations 1 .. %d%s",
             quote(j->path), j->ne, j->ne == 1 ? "" : "s", j->last_iteration, torn);
    return DTSS_OK;
}

long pool_journal_find(const dtss_pool *p, int iteration, int task)
{
    const pool_journal *j = &p->jn;
    pjentry key = {.iteration = iteration, .task = task};
    const pjentry *e = j->ne ? bsearch(&key, j->e, (size_t)j->ne, sizeof *j->e, by_key)
                             : NULL;
    return e ? (long)(e - j->e) : -1;
}

int pool_journal_read(dtss_pool *p, long k, unsigned char **data, size_t *len)
{
    pool_journal *j = &p->jn;
    const pjentry *want = &j->e[k];
    char why[200];
    pjentry x;
    *data = NULL;
    jnl_rd r = {.f = j->in, .left = j->good_end - want->at};
    if (!j->in || fseek(j->in, want->at, SEEK_SET) != 0 ||
        read_entry(&r, p->ntasks, want->iteration, &x, data, len, why, sizeof why) != 1 ||
        by_key(&x, want) != 0 || x.hash != want->hash) {
        free(*data);
        *data = NULL;
        return pool_fail(p, DTSS_EINVAL, "--resume %s: entry %ld (at byte %ld) cannot be "
                         "read back (the file changed during the run?)", quote(j->path),
                         want->number, want->at);
    }
    return DTSS_OK;
}

void pool_journal_free(dtss_pool *p)
{
    pool_journal *j = &p->jn;
    jnl_close(&j->w);
    if (j->in)
        fclose(j->in);
    j->in = NULL;
    free(j->e);
    j->e = NULL;
    j->ne = 0;
}
