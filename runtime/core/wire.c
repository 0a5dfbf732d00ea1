/* wire.c: packing, sending and unpacking the master-worker messages
 * (wire.h). Every PVM call's result is checked. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <pvm3.h>

#include "wire.h"
#include "sched/loop/meas.h"

extern char *pvm_errlist[];
extern int pvm_nerr;

const char *wire_strerror(int rc)
{
    return rc < 0 && -rc < pvm_nerr && pvm_errlist[-rc] ? pvm_errlist[-rc]
                                                       : "unknown PVM error";
}

const char *wire_tag_name(int tag)
{
    static const char *const names[] = {"JOB", "REQUEST", "WORK", "STOP", "RESULT",
                                        "STEAL", "GIVE", "IDLE", "TASKEXIT",
                                        "HOSTDEL", "POOLJOB", "READY", "TASK",
                                        "TASKDONE", "PING", "LBJOB", "TASKS", "COUNT",
                                        "COUNTS", "MOVE", "STRIPJOB", "HALO", "STATE",
                                        "PLAN", "ROWS"};
    return tag >= WIRE_JOB && tag <= WIRE_ROWS ? names[tag - WIRE_JOB] : "?";
}

double wire_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* "pvm_CALL(KIND) to tTID: text": returns rc. */
__attribute__((format(printf, 4, 5)))
static int fail(int rc, char *msg, size_t len, const char *fmt, ...)
{
    char what[160];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(msg, len, "%s: %s", what, wire_strerror(rc));
    return rc < 0 ? rc : PvmBadMsg;
}

/* A malformed message: returns PvmBadMsg. */
__attribute__((format(printf, 3, 4)))
static int malformed(char *msg, size_t len, const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(msg, len, "malformed message: %s", what);
    return PvmBadMsg;
}

/* ---- sending ----------------------------------------------------------------- */

/* The pack calls of one message; the first failure wins. */
typedef struct packer { int rc; } packer;

static void pk_int(packer *p, const int *v, int n)
{
    if (p->rc >= 0 && n > 0)
        p->rc = pvm_pkint((int *)v, n, 1);
}
static void pk_long(packer *p, const long *v, int n)
{
    if (p->rc >= 0 && n > 0)
        p->rc = pvm_pklong((long *)v, n, 1);
}
static void pk_double(packer *p, const double *v, int n)
{
    if (p->rc >= 0 && n > 0)
        p->rc = pvm_pkdouble((double *)v, n, 1);
}
static void pk_str(packer *p, const char *s)
{
    if (p->rc >= 0)
        p->rc = pvm_pkstr((char *)s);
}
/* Bytes, in pieces of at most INT_MAX / 2 (pvm_pkbyte takes an int count). */
static void pk_bytes(packer *p, const void *data, size_t n)
{
    const char *c = data;
    while (p->rc >= 0 && n > 0) {
        int k = n > (1u << 30) ? 1 << 30 : (int)n;
        p->rc = pvm_pkbyte((char *)c, k, 1);
        c += k;
        n -= (size_t)k;
    }
}

/* Starts a message. */
static packer begin(void)
{
    int rc = pvm_initsend(PvmDataDefault);
    return (packer){rc < 0 ? rc : 0};
}

/* Sends what was packed to tid with tag. */
static int finish(packer *p, int tid, int tag, char *msg, size_t len)
{
    if (p->rc < 0)
        return fail(p->rc, msg, len, "packing %s for t%x", wire_tag_name(tag), tid);
    int rc = pvm_send(tid, tag);
    if (rc < 0)
        return fail(rc, msg, len, "pvm_send(%s) to t%x", wire_tag_name(tag), tid);
    return 0;
}

int wire_send_job(int tid, const wire_job *j, char *msg, size_t len)
{
    int ints[] = {WIRE_VERSION, j->index, j->nworkers, j->tree, j->sample,
                  j->acp_integer, j->probe};
    long longs[] = {j->iters, j->start, j->size, (long)j->len};
    packer p = begin();
    pk_int(&p, ints, 7);
    pk_long(&p, longs, 4);
    pk_double(&p, &j->V, 1);
    if (j->tree) {
        pk_int(&p, j->chain, j->nworkers);
        pk_int(&p, j->tids, j->nworkers);
    }
    pk_bytes(&p, j->data, j->len);
    return finish(&p, tid, WIRE_JOB, msg, len);
}

static void pk_result(packer *p, const wire_result *r)
{
    long l[] = {r->id + 1, r->start, r->size, r->npieces, (long)r->len};
    double t[] = {r->t_recv, r->t_start, r->t_end};
    pk_long(p, l, 5);
    pk_double(p, t, 3);
    if (r->npieces > (1L << 28))
        p->rc = PvmBadParam;
    pk_long(p, r->hdr, (int)(3 * r->npieces));
    pk_bytes(p, r->data, r->len);
}

int wire_send_request(int tid, const wire_request *r, char *msg, size_t len)
{
    int ints[] = {r->index, r->Q, r->hello, r->has_result};
    double d[] = {r->A, r->t_measure, r->mu, r->sigma, r->rate};
    packer p = begin();
    pk_int(&p, ints, 4);
    pk_double(&p, d, 5);
    pk_long(&p, &r->n, 1);
    if (r->hello) {
        pk_str(&p, r->h.host);
        pk_str(&p, r->h.cgroup);
        pk_str(&p, r->h.backend);
    }
    if (r->has_result)
        pk_result(&p, &r->result);
    return finish(&p, tid, WIRE_REQUEST, msg, len);
}

int wire_send_work(int tid, long id, long start, long size, char *msg, size_t len)
{
    long l[] = {id + 1, start, size};
    packer p = begin();
    pk_long(&p, l, 3);
    return finish(&p, tid, WIRE_WORK, msg, len);
}

int wire_send_stop(int tid, char *msg, size_t len)
{
    packer p = begin();
    return finish(&p, tid, WIRE_STOP, msg, len);
}

int wire_send_result(int tid, int index, const wire_result *r, char *msg, size_t len)
{
    packer p = begin();
    pk_int(&p, &index, 1);
    pk_result(&p, r);
    return finish(&p, tid, WIRE_RESULT, msg, len);
}

int wire_send_steal(int tid, int index, char *msg, size_t len)
{
    packer p = begin();
    pk_int(&p, &index, 1);
    return finish(&p, tid, WIRE_STEAL, msg, len);
}

int wire_send_give(int tid, long start, long size, char *msg, size_t len)
{
    long l[] = {start, size};
    packer p = begin();
    pk_long(&p, l, 2);
    return finish(&p, tid, WIRE_GIVE, msg, len);
}

int wire_send_idle(int tid, int index, char *msg, size_t len)
{
    packer p = begin();
    pk_int(&p, &index, 1);
    return finish(&p, tid, WIRE_IDLE, msg, len);
}

int wire_send_ping(int tid, const void *data, size_t n, char *msg, size_t len)
{
    long l = (long)n;
    packer p = begin();
    pk_long(&p, &l, 1);
    pk_bytes(&p, data, n);
    return finish(&p, tid, WIRE_PING, msg, len);
}

int wire_send_pooljob(int tid, int index, const void *job, size_t jlen, char *msg,
                      size_t len)
{
    int ints[] = {WIRE_VERSION, index};
    long l = (long)jlen;
    packer p = begin();
    pk_int(&p, ints, 2);
    pk_long(&p, &l, 1);
    pk_bytes(&p, job, jlen);
    return finish(&p, tid, WIRE_POOLJOB, msg, len);
}

int wire_send_ready(int tid, int index, const char *host, char *msg, size_t len)
{
    packer p = begin();
    pk_int(&p, &index, 1);
    pk_str(&p, host);
    return finish(&p, tid, WIRE_READY, msg, len);
}

static void pk_task(packer *p, const wire_task *t)
{
    int ints[] = {t->task, t->iteration};
    double d[] = {t->t_recv, t->t_start, t->t_end};
    long l = (long)t->len;
    if (t->len > (size_t)WIRE_MAX_RESULT)
        p->rc = PvmBadParam;
    pk_int(p, ints, 2);
    pk_double(p, d, 3);
    pk_long(p, &l, 1);
    pk_bytes(p, t->data, t->len);
}

int wire_send_task(int tid, const wire_task *t, char *msg, size_t len)
{
    packer p = begin();
    pk_task(&p, t);
    return finish(&p, tid, WIRE_TASK, msg, len);
}

int wire_send_taskdone(int tid, int index, const wire_task *t, char *msg, size_t len)
{
    packer p = begin();
    pk_int(&p, &index, 1);
    pk_task(&p, t);
    return finish(&p, tid, WIRE_TASKDONE, msg, len);
}

int wire_send_lbjob(int tid, int index, int nworkers, const int *tids, const void *job,
                    size_t jlen, char *msg, size_t len)
{
    int ints[] = {WIRE_VERSION, index, nworkers};
    long l = (long)jlen;
    packer p = begin();
    pk_int(&p, ints, 3);
    pk_int(&p, tids, nworkers);
    pk_long(&p, &l, 1);
    pk_bytes(&p, job, jlen);
    return finish(&p, tid, WIRE_LBJOB, msg, len);
}

int wire_send_tasks(int tid, const wire_task *tasks, int n, char *msg, size_t len)
{
    packer p = begin();
    pk_int(&p, &n, 1);
    for (int i = 0; i < n; i++)
        pk_task(&p, &tasks[i]);
    return finish(&p, tid, WIRE_TASKS, msg, len);
}

int wire_send_count(int tid, int round, char *msg, size_t len)
{
    packer p = begin();
    pk_int(&p, &round, 1);
    return finish(&p, tid, WIRE_COUNT, msg, len);
}

int wire_send_counts(int tid, int index, int round, long queued, long done, char *msg,
                     size_t len)
{
    int ints[] = {index, round};
    long longs[] = {queued, done};
    packer p = begin();
    pk_int(&p, ints, 2);
    pk_long(&p, longs, 2);
    return finish(&p, tid, WIRE_COUNTS, msg, len);
}

int wire_send_move(int tid, int round, int to, long count, char *msg, size_t len)
{
    int ints[] = {round, to};
    packer p = begin();
    pk_int(&p, ints, 2);
    pk_long(&p, &count, 1);
    return finish(&p, tid, WIRE_MOVE, msg, len);
}

int wire_send_stripjob(int tid, const wire_stripjob *j, char *msg, size_t len)
{
    int ints[] = {WIRE_VERSION, j->index, j->nworkers, j->every};
    long longs[] = {j->steps, j->row_bytes, (long)j->job_len};
    packer p = begin();
    pk_int(&p, ints, 4);
    pk_long(&p, longs, 3);
    pk_int(&p, j->tids, j->nworkers);
    pk_int(&p, j->counts, j->nworkers);
    pk_bytes(&p, j->job, j->job_len);
    return finish(&p, tid, WIRE_STRIPJOB, msg, len);
}

int wire_send_rows(int tid, int first, int count, const void *data, size_t bytes, char *msg,
                   size_t len)
{
    int ints[] = {first, count};
    long l = (long)bytes;
    packer p = begin();
    pk_int(&p, ints, 2);
    pk_long(&p, &l, 1);
    pk_bytes(&p, data, bytes);
    return finish(&p, tid, WIRE_ROWS, msg, len);
}

int wire_send_halo(int tid, long step, const void *row, size_t bytes, char *msg, size_t len)
{
    long longs[] = {step, (long)bytes};
    packer p = begin();
    pk_long(&p, longs, 2);
    pk_bytes(&p, row, bytes);
    return finish(&p, tid, WIRE_HALO, msg, len);
}

int wire_send_state(int tid, int index, long step, int rows, double busy, double t,
                    char *msg, size_t len)
{
    int ints[] = {index, rows};
    double d[] = {busy, t};
    packer p = begin();
    pk_int(&p, ints, 2);
    pk_long(&p, &step, 1);
    pk_double(&p, d, 2);
    return finish(&p, tid, WIRE_STATE, msg, len);
}

int wire_send_plan(int tid, long step, const int *counts, int n, char *msg, size_t len)
{
    packer p = begin();
    pk_long(&p, &step, 1);
    pk_int(&p, &n, 1);
    pk_int(&p, counts, n);
    return finish(&p, tid, WIRE_PLAN, msg, len);
}

/* ---- unpacking ------------------------------------------------------------------ */

#define UPK(call, what)                                                       \
    do {                                                                      \
        int rc_ = (call);                                                     \
        if (rc_ < 0)                                                          \
            return fail(rc_, msg, len, "unpacking %s", (what));               \
    } while (0)

static int upk_bytes(void *data, size_t n, char *msg, size_t len)
{
    char *c = data;
    while (n > 0) {
        int k = n > (1u << 30) ? 1 << 30 : (int)n;
        UPK(pvm_upkbyte(c, k, 1), "bytes");
        c += k;
        n -= (size_t)k;
    }
    return 0;
}

void wire_job_free(wire_job *j)
{
    free(j->chain);
    free(j->tids);
    free(j->data);
    j->chain = j->tids = NULL;
    j->data = NULL;
}

int wire_unpack_job(wire_job *j, char *msg, size_t len)
{
    int ints[7];
    long longs[4];
    memset(j, 0, sizeof *j);
    UPK(pvm_upkint(ints, 7, 1), "JOB");
    if (ints[0] != WIRE_VERSION)
        return malformed(msg, len, "JOB of version %d, this program speaks %d "
                         "(master and workers from different builds?)", ints[0],
                         WIRE_VERSION);
    UPK(pvm_upklong(longs, 4, 1), "JOB");
    UPK(pvm_upkdouble(&j->V, 1, 1), "JOB");
    j->index = ints[1];
    j->nworkers = ints[2];
    j->tree = ints[3];
    j->sample = ints[4];
    j->acp_integer = ints[5];
    j->probe = ints[6];
    j->iters = longs[0];
    j->start = longs[1];
    j->size = longs[2];
    if (j->nworkers < 1 || j->nworkers > WIRE_MAX_WORKERS || j->index < 0 ||
        j->index >= j->nworkers)
        return malformed(msg, len, "JOB for worker %d of %d", j->index, j->nworkers);
    if (j->sample < 1 || j->iters < 0 || !(j->V > 0) || j->start < 0 || j->size < 0 ||
        j->start > j->iters - j->size)
        return malformed(msg, len, "JOB with R = %d, %ld iterations, V = %g, range "
                         "[%ld, +%ld)", j->sample, j->iters, j->V, j->start, j->size);
    if (longs[3] < 0 || longs[3] > WIRE_MAX_JOB)
        return malformed(msg, len, "JOB of %ld bytes", longs[3]);
    if (j->tree) {
        j->chain = malloc(sizeof *j->chain * (size_t)j->nworkers);
        j->tids = malloc(sizeof *j->tids * (size_t)j->nworkers);
        if (!j->chain || !j->tids) {
            wire_job_free(j);
            return fail(PvmNoMem, msg, len, "JOB for %d workers", j->nworkers);
        }
        int rc;
        if ((rc = pvm_upkint(j->chain, j->nworkers, 1)) < 0 ||
            (rc = pvm_upkint(j->tids, j->nworkers, 1)) < 0) {
            wire_job_free(j);
            return fail(rc, msg, len, "unpacking JOB's chain");
        }
        for (int i = 0; i < j->nworkers; i++)
            if (j->chain[i] < 0 || j->chain[i] >= j->nworkers) {
                wire_job_free(j);
                return malformed(msg, len, "JOB's chain names worker %d", j->chain[i]);
            }
    }
    j->len = (size_t)longs[3];
    j->data = malloc(j->len ? j->len : 1);
    if (!j->data) {
        wire_job_free(j);
        return fail(PvmNoMem, msg, len, "a JOB of %zu bytes", j->len);
    }
    int rc = upk_bytes(j->data, j->len, msg, len);
    if (rc < 0)
        wire_job_free(j);
    return rc;
}

void wire_result_free(wire_result *r)
{
    free(r->hdr);
    free(r->data);
    r->hdr = NULL;
    r->data = NULL;
}

static int upk_result(wire_result *r, char *msg, size_t len)
{
    long l[5];
    double t[3];
    memset(r, 0, sizeof *r);
    UPK(pvm_upklong(l, 5, 1), "a result");
    UPK(pvm_upkdouble(t, 3, 1), "a result");
    *r = (wire_result){.id = l[0] - 1, .start = l[1], .size = l[2], .npieces = l[3],
                       .t_recv = t[0], .t_start = t[1], .t_end = t[2]};
    if (r->start < 0 || r->size < 1 || r->npieces < 1 || r->npieces > r->size ||
        l[4] < 0 || l[4] > WIRE_MAX_RESULT)
        return malformed(msg, len, "result of chunk %ld: range [%ld, +%ld), %ld "
                         "pieces, %ld bytes", r->id, r->start, r->size, r->npieces, l[4]);
    r->len = (size_t)l[4];
    r->hdr = malloc(sizeof *r->hdr * 3 * (size_t)r->npieces);
    r->data = malloc(r->len ? r->len : 1);
    if (!r->hdr || !r->data) {
        wire_result_free(r);
        return fail(PvmNoMem, msg, len, "a result of %zu bytes", r->len);
    }
    int rc = pvm_upklong(r->hdr, (int)(3 * r->npieces), 1);
    if (rc < 0) {
        wire_result_free(r);
        return fail(rc, msg, len, "unpacking a result's pieces");
    }
    /* The pieces cover the chunk exactly and their bytes add up. */
    long iters = 0;
    size_t bytes = 0;
    for (long i = 0; i < r->npieces; i++) {
        long *h = &r->hdr[3 * i];
        if (h[0] < 0 || h[1] < 1 || h[2] < 0 || (size_t)h[2] > r->len - bytes) {
            wire_result_free(r);
            return malformed(msg, len, "result of chunk %ld: piece %ld is [%ld, +%ld) "
                             "with %ld bytes", r->id, i, h[0], h[1], h[2]);
        }
        iters += h[1];
        bytes += (size_t)h[2];
    }
    if (iters != r->size || bytes != r->len) {
        wire_result_free(r);
        return malformed(msg, len, "result of chunk %ld: pieces of %ld iterations "
                         "and %zu bytes for a chunk of %ld and %zu", r->id, iters,
                         bytes, r->size, r->len);
    }
    if ((rc = upk_bytes(r->data, r->len, msg, len)) < 0)
        wire_result_free(r);
    return rc;
}

/* Copies src into dst (size bytes), cutting it short if need be. */
static void copy_str(char *dst, size_t size, const char *src)
{
    size_t n = strnlen(src, size - 1);
    memcpy(dst, src, n);
    dst[n] = '\0';
}

int wire_unpack_request(wire_request *r, char *msg, size_t len)
{
    int ints[4];
    double d[5];
    long n;
    memset(r, 0, sizeof *r);
    UPK(pvm_upkint(ints, 4, 1), "REQUEST");
    UPK(pvm_upkdouble(d, 5, 1), "REQUEST");
    UPK(pvm_upklong(&n, 1, 1), "REQUEST");
    *r = (wire_request){.index = ints[0], .Q = ints[1], .hello = ints[2],
                        .has_result = ints[3], .A = d[0], .t_measure = d[1],
                        .mu = d[2], .sigma = d[3], .n = n, .rate = d[4]};
    if (r->Q < 0 || !(r->A >= 0) || (unsigned)r->hello > 1 || (unsigned)r->has_result > 1)
        return malformed(msg, len, "REQUEST with Q = %d, A = %g", r->Q, r->A);
    if (!sched_meas_ok(&(sched_request){.mu = r->mu, .sigma = r->sigma, .n = r->n,
                                         .rate = r->rate}))
        return malformed(msg, len, "REQUEST with mu = %g, sigma = %g, rate = %g over %ld "
                         "iterations", r->mu, r->sigma, r->rate, r->n);
    if (r->hello) {
        char buf[1024];
        int rc;
        /* pvm_upkstr has no length: a string longer than buf would overrun it,
         * so the lengths are bounded first through pvm_bufinfo's byte count. */
        int bytes, tag, src;
        if (pvm_bufinfo(pvm_getrbuf(), &bytes, &tag, &src) < 0 || bytes > 4096)
            return malformed(msg, len, "REQUEST of %d bytes with a hello", bytes);
        if ((rc = pvm_upkstr(buf)) < 0)
            return fail(rc, msg, len, "unpacking REQUEST's host");
        copy_str(r->h.host, sizeof r->h.host, buf);
        if ((rc = pvm_upkstr(buf)) < 0)
            return fail(rc, msg, len, "unpacking REQUEST's cgroup");
        copy_str(r->h.cgroup, sizeof r->h.cgroup, buf);
        if ((rc = pvm_upkstr(buf)) < 0)
            return fail(rc, msg, len, "unpacking REQUEST's probe");
        copy_str(r->h.backend, sizeof r->h.backend, buf);
    }
    return r->has_result ? upk_result(&r->result, msg, len) : 0;
}

int wire_unpack_work(long *id, long *start, long *size, char *msg, size_t len)
{
    long l[3];
    UPK(pvm_upklong(l, 3, 1), "WORK");
    if (l[0] < 1 || l[1] < 0 || l[2] < 1)
        return malformed(msg, len, "WORK %ld [%ld, +%ld)", l[0] - 1, l[1], l[2]);
    *id = l[0] - 1;
    *start = l[1];
    *size = l[2];
    return 0;
}

int wire_unpack_result(int *index, wire_result *r, char *msg, size_t len)
{
    memset(r, 0, sizeof *r);
    UPK(pvm_upkint(index, 1, 1), "RESULT");
    return upk_result(r, msg, len);
}

int wire_unpack_steal(int *index, char *msg, size_t len)
{
    UPK(pvm_upkint(index, 1, 1), "STEAL");
    return 0;
}

int wire_unpack_give(long *start, long *size, char *msg, size_t len)
{
    long l[2];
    UPK(pvm_upklong(l, 2, 1), "GIVE");
    if (l[0] < 0 || l[1] < 0)
        return malformed(msg, len, "GIVE [%ld, +%ld)", l[0], l[1]);
    *start = l[0];
    *size = l[1];
    return 0;
}

int wire_unpack_idle(int *index, char *msg, size_t len)
{
    UPK(pvm_upkint(index, 1, 1), "IDLE");
    return 0;
}

int wire_unpack_notice(int *tid, char *msg, size_t len)
{
    UPK(pvm_upkint(tid, 1, 1), "a notification");
    return 0;
}

int wire_unpack_ping(void *buf, size_t cap, size_t *n, char *msg, size_t len)
{
    long l;
    *n = 0;
    UPK(pvm_upklong(&l, 1, 1), "PING");
    if (l < 0 || (unsigned long)l > cap)
        return malformed(msg, len, "PING of %ld bytes (at most %zu expected)", l, cap);
    int rc = upk_bytes(buf, (size_t)l, msg, len);
    if (rc < 0)
        return rc;
    *n = (size_t)l;
    return 0;
}

int wire_unpack_pooljob(int *index, void **job, size_t *jlen, char *msg, size_t len)
{
    int ints[2];
    long l;
    *job = NULL;
    *jlen = 0;
    UPK(pvm_upkint(ints, 2, 1), "POOLJOB");
    if (ints[0] != WIRE_VERSION)
        return malformed(msg, len, "POOLJOB of version %d, this program speaks %d "
                         "(master and workers from different builds?)", ints[0],
                         WIRE_VERSION);
    UPK(pvm_upklong(&l, 1, 1), "POOLJOB");
    if (ints[1] < 0 || l < 0 || l > WIRE_MAX_JOB)
        return malformed(msg, len, "POOLJOB for worker %d with %ld bytes", ints[1], l);
    *index = ints[1];
    void *data = malloc(l ? (size_t)l : 1);
    if (!data)
        return fail(PvmNoMem, msg, len, "a POOLJOB of %ld bytes", l);
    int rc = upk_bytes(data, (size_t)l, msg, len);
    if (rc < 0) {
        free(data);
        return rc;
    }
    *job = data;
    *jlen = (size_t)l;
    return 0;
}

int wire_unpack_ready(int *index, char *host, size_t hlen, char *msg, size_t len)
{
    char buf[1024];
    int bytes, tag, src;
    UPK(pvm_upkint(index, 1, 1), "READY");
    /* pvm_upkstr has no length: bounded first through the message's size */
    if (pvm_bufinfo(pvm_getrbuf(), &bytes, &tag, &src) < 0 || bytes > 1000)
        return malformed(msg, len, "READY of %d bytes", bytes);
    UPK(pvm_upkstr(buf), "READY's host");
    if (*index < 0)
        return malformed(msg, len, "READY from worker %d", *index);
    copy_str(host, hlen, buf);
    return 0;
}

static int upk_task(wire_task *t, const char *what, char *msg, size_t len)
{
    int ints[2];
    double d[3];
    long l;
    memset(t, 0, sizeof *t);
    UPK(pvm_upkint(ints, 2, 1), what);
    UPK(pvm_upkdouble(d, 3, 1), what);
    UPK(pvm_upklong(&l, 1, 1), what);
    if (ints[0] < 0 || ints[1] < 1 || l < 0 || l > WIRE_MAX_RESULT)
        return malformed(msg, len, "%s of task %d, iteration %d, %ld bytes", what,
                         ints[0], ints[1], l);
    *t = (wire_task){.task = ints[0], .iteration = ints[1], .t_recv = d[0],
                     .t_start = d[1], .t_end = d[2], .len = (size_t)l};
    t->data = malloc(t->len ? t->len : 1);
    if (!t->data)
        return fail(PvmNoMem, msg, len, "a %s of %zu bytes", what, t->len);
    int rc = upk_bytes(t->data, t->len, msg, len);
    if (rc < 0) {
        free(t->data);
        t->data = NULL;
    }
    return rc;
}

int wire_unpack_task(wire_task *t, char *msg, size_t len)
{
    return upk_task(t, "TASK", msg, len);
}

int wire_unpack_taskdone(int *index, wire_task *t, char *msg, size_t len)
{
    memset(t, 0, sizeof *t);
    UPK(pvm_upkint(index, 1, 1), "TASKDONE");
    if (*index < 0)
        return malformed(msg, len, "TASKDONE from worker %d", *index);
    return upk_task(t, "TASKDONE", msg, len);
}

/* ---- migration ------------------------------------------------------------------ */

int wire_unpack_lbjob(int *index, int *nworkers, int **tids, void **job, size_t *jlen,
                      char *msg, size_t len)
{
    int ints[3];
    long l;
    *tids = NULL;
    *job = NULL;
    *jlen = 0;
    UPK(pvm_upkint(ints, 3, 1), "LBJOB");
    if (ints[0] != WIRE_VERSION)
        return malformed(msg, len, "LBJOB of version %d, this program speaks %d "
                         "(master and workers from different builds?)", ints[0],
                         WIRE_VERSION);
    if (ints[2] < 1 || ints[2] > WIRE_MAX_WORKERS || ints[1] < 0 || ints[1] >= ints[2])
        return malformed(msg, len, "LBJOB for worker %d of %d", ints[1], ints[2]);
    int *t = malloc(sizeof *t * (size_t)ints[2]);
    if (!t)
        return fail(PvmNoMem, msg, len, "an LBJOB of %d workers", ints[2]);
    int rc = pvm_upkint(t, ints[2], 1);
    if (rc < 0 || (rc = pvm_upklong(&l, 1, 1)) < 0) {
        free(t);
        return fail(rc, msg, len, "unpacking LBJOB");
    }
    if (l < 0 || l > WIRE_MAX_JOB) {
        free(t);
        return malformed(msg, len, "LBJOB with %ld bytes", l);
    }
    void *data = malloc(l ? (size_t)l : 1);
    if (!data || (rc = upk_bytes(data, (size_t)l, msg, len)) < 0) {
        free(t);
        free(data);
        return data ? rc : fail(PvmNoMem, msg, len, "an LBJOB of %ld bytes", l);
    }
    *index = ints[1];
    *nworkers = ints[2];
    *tids = t;
    *job = data;
    *jlen = (size_t)l;
    return 0;
}

int wire_unpack_tasks(wire_task **tasks, int *n, char *msg, size_t len)
{
    int k;
    *tasks = NULL;
    *n = 0;
    UPK(pvm_upkint(&k, 1, 1), "TASKS");
    if (k < 0 || k > 100000000)
        return malformed(msg, len, "TASKS of %d tasks", k);
    wire_task *t = calloc(k ? (size_t)k : 1, sizeof *t);
    if (!t)
        return fail(PvmNoMem, msg, len, "TASKS of %d tasks", k);
    for (int i = 0; i < k; i++) {
        int rc = upk_task(&t[i], "TASKS", msg, len);
        if (rc < 0) {
            for (int j = 0; j < i; j++)
                free(t[j].data);
            free(t);
            return rc;
        }
    }
    *tasks = t;
    *n = k;
    return 0;
}

int wire_unpack_count(int *round, char *msg, size_t len)
{
    UPK(pvm_upkint(round, 1, 1), "COUNT");
    if (*round < 1)
        return malformed(msg, len, "COUNT of round %d", *round);
    return 0;
}

int wire_unpack_counts(int *index, int *round, long *queued, long *done, char *msg,
                       size_t len)
{
    int ints[2];
    long longs[2];
    UPK(pvm_upkint(ints, 2, 1), "COUNTS");
    UPK(pvm_upklong(longs, 2, 1), "COUNTS");
    if (ints[0] < 0 || ints[1] < 1 || longs[0] < 0 || longs[1] < 0)
        return malformed(msg, len, "COUNTS from worker %d, round %d: %ld queued, %ld done",
                         ints[0], ints[1], longs[0], longs[1]);
    *index = ints[0];
    *round = ints[1];
    *queued = longs[0];
    *done = longs[1];
    return 0;
}

int wire_unpack_move(int *round, int *to, long *count, char *msg, size_t len)
{
    int ints[2];
    UPK(pvm_upkint(ints, 2, 1), "MOVE");
    UPK(pvm_upklong(count, 1, 1), "MOVE");
    if (ints[0] < 1 || ints[1] < 0 || *count < 1)
        return malformed(msg, len, "MOVE of round %d: %ld tasks to worker %d", ints[0],
                         *count, ints[1]);
    *round = ints[0];
    *to = ints[1];
    return 0;
}

/* ---- row strips ------------------------------------------------------------------ */

void wire_stripjob_free(wire_stripjob *j)
{
    free(j->tids);
    free(j->counts);
    free(j->job);
    j->tids = j->counts = NULL;
    j->job = NULL;
}

int wire_unpack_stripjob(wire_stripjob *j, char *msg, size_t len)
{
    int ints[4];
    long longs[3];
    memset(j, 0, sizeof *j);
    UPK(pvm_upkint(ints, 4, 1), "STRIPJOB");
    if (ints[0] != WIRE_VERSION)
        return malformed(msg, len, "STRIPJOB of version %d, this program speaks %d "
                         "(master and workers from different builds?)", ints[0],
                         WIRE_VERSION);
    UPK(pvm_upklong(longs, 3, 1), "STRIPJOB");
    if (ints[2] < 1 || ints[2] > WIRE_MAX_WORKERS || ints[1] < 0 || ints[1] >= ints[2] ||
        ints[3] < 0 || longs[0] < 0 || longs[1] < 1 || longs[1] > WIRE_MAX_JOB ||
        longs[2] < 0 || longs[2] > WIRE_MAX_JOB)
        return malformed(msg, len, "STRIPJOB for worker %d of %d (every %d, %ld steps, "
                         "rows of %ld bytes, a job of %ld)", ints[1], ints[2], ints[3],
                         longs[0], longs[1], longs[2]);
    *j = (wire_stripjob){.index = ints[1], .nworkers = ints[2], .every = ints[3],
                         .steps = longs[0], .row_bytes = longs[1],
                         .job_len = (size_t)longs[2]};
    j->tids = malloc(sizeof *j->tids * (size_t)j->nworkers);
    j->counts = malloc(sizeof *j->counts * (size_t)j->nworkers);
    j->job = malloc(j->job_len ? j->job_len : 1);
    int rc = 0;
    if (!j->tids || !j->counts || !j->job)
        rc = fail(PvmNoMem, msg, len, "a STRIPJOB of %d workers", j->nworkers);
    else if ((rc = pvm_upkint(j->tids, j->nworkers, 1)) < 0 ||
             (rc = pvm_upkint(j->counts, j->nworkers, 1)) < 0)
        rc = fail(rc, msg, len, "unpacking STRIPJOB");
    else
        rc = upk_bytes(j->job, j->job_len, msg, len);
    if (rc < 0)
        wire_stripjob_free(j);
    return rc;
}

int wire_unpack_rows(int *first, int *count, void **data, size_t *bytes, char *msg,
                     size_t len)
{
    int ints[2];
    long l;
    *data = NULL;
    *bytes = 0;
    UPK(pvm_upkint(ints, 2, 1), "ROWS");
    UPK(pvm_upklong(&l, 1, 1), "ROWS");
    if (ints[0] < 0 || ints[1] < 0 || l < 0 || l > WIRE_MAX_RESULT)
        return malformed(msg, len, "ROWS %d (%d of them) in %ld bytes", ints[0], ints[1], l);
    void *d = malloc(l ? (size_t)l : 1);
    if (!d)
        return fail(PvmNoMem, msg, len, "ROWS of %ld bytes", l);
    int rc = upk_bytes(d, (size_t)l, msg, len);
    if (rc < 0) {
        free(d);
        return rc;
    }
    *first = ints[0];
    *count = ints[1];
    *data = d;
    *bytes = (size_t)l;
    return 0;
}

int wire_unpack_halo(long *step, void *row, size_t bytes, char *msg, size_t len)
{
    long longs[2];
    UPK(pvm_upklong(longs, 2, 1), "HALO");
    if (longs[0] < 0 || longs[1] != (long)bytes)
        return malformed(msg, len, "HALO of step %ld, %ld bytes (%zu expected)", longs[0],
                         longs[1], bytes);
    *step = longs[0];
    return upk_bytes(row, bytes, msg, len);
}

int wire_unpack_state(int *index, long *step, int *rows, double *busy, double *t, char *msg,
                      size_t len)
{
    int ints[2];
    double d[2];
    UPK(pvm_upkint(ints, 2, 1), "STATE");
    UPK(pvm_upklong(step, 1, 1), "STATE");
    UPK(pvm_upkdouble(d, 2, 1), "STATE");
    *busy = d[0];
    *t = d[1];
    if (ints[0] < 0 || ints[1] < 0 || *step < 0 || !(*busy >= 0))
        return malformed(msg, len, "STATE from worker %d: %d rows, step %ld, %g s",
                         ints[0], ints[1], *step, *busy);
    *index = ints[0];
    *rows = ints[1];
    return 0;
}

int wire_unpack_plan(long *step, int *counts, int n, char *msg, size_t len)
{
    int k;
    UPK(pvm_upklong(step, 1, 1), "PLAN");
    UPK(pvm_upkint(&k, 1, 1), "PLAN");
    if (k != n || *step < 0)
        return malformed(msg, len, "PLAN of step %ld for %d workers (%d expected)", *step,
                         k, n);
    UPK(pvm_upkint(counts, n, 1), "PLAN");
    return 0;
}
