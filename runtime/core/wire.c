/* wire.c: encoding, sending and decoding the master-worker messages
 * (wire.h) on buf.h's encoding, through transport.h. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/core/buf.h"
#include "runtime/core/wire.h"
#include "sched/loop/ahead.h"
#include "sched/loop/meas.h"

const char *wire_tag_name(int tag)
{
    static const char *const names[] = {"JOB", "REQUEST", "WORK", "STOP", "RESULT",
                                        "STEAL", "GIVE", "IDLE", "POOLJOB", "READY",
                                        "TASK", "TASKDONE", "LBJOB", "TASKS",
                                        "COUNT", "COUNTS", "MOVE", "STRIPJOB", "HALO",
                                        "STATE", "PLAN", "ROWS", "START", "WAIT", "MOVED",
                                        "FETCH"};
    return tag >= WIRE_JOB && tag <= WIRE_FETCH ? names[tag - WIRE_JOB] : "?";
}

double wire_mono(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

double wire_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* "malformed message: ...": returns -1. */
__attribute__((format(printf, 3, 4)))
static int malformed(char *msg, size_t len, const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(msg, len, "malformed message: %s", what);
    return -1;
}

/* ---- sending ----------------------------------------------------------------- */

static buf out;         /* the message being written (kept: no allocation a message) */

static buf *begin(void)
{
    buf_start(&out);
    return &out;
}

/* Sends what was written to 'to' with tag. */
static int finish(tr_peer to, int tag, char *msg, size_t len)
{
    if (out.err) {
        snprintf(msg, len, "out of memory writing %s for t%x", wire_tag_name(tag), to);
        return -1;
    }
    char why[512];
    if (tr_send(to, tag, out.p, out.len, why, sizeof why) < 0) {
        snprintf(msg, len, "%s: %s", wire_tag_name(tag), why);
        return -1;
    }
    return 0;
}

int wire_send_job(tr_peer to, const wire_job *j, char *msg, size_t len)
{
    buf *b = begin();
    buf_int(b, j->index);
    buf_int(b, j->nworkers);
    buf_int(b, j->tree);
    buf_int(b, j->sample);
    buf_int(b, j->acp_integer);
    buf_int(b, j->probe);
    buf_int(b, j->iters);
    buf_int(b, j->start);
    buf_int(b, j->size);
    buf_double(b, j->V);
    buf_double(b, j->ahead);
    if (j->tree)
        for (int i = 0; i < j->nworkers; i++) {
            buf_int(b, j->chain[i]);
            buf_int(b, j->tids[i]);
        }
    buf_bytes(b, j->data, j->len);
    return finish(to, WIRE_JOB, msg, len);
}

static void put_result(buf *b, const wire_result *r)
{
    buf_int(b, r->id);
    buf_int(b, r->start);
    buf_int(b, r->size);
    buf_double(b, r->t_recv);
    buf_double(b, r->t_start);
    buf_double(b, r->t_end);
    buf_int(b, r->npieces);
    for (long i = 0; i < 3 * r->npieces; i++)
        buf_int(b, r->hdr[i]);
    buf_bytes(b, r->data, r->len);
}

int wire_send_request(tr_peer to, const wire_request *r, char *msg, size_t len)
{
    buf *b = begin();
    buf_int(b, r->index);
    buf_int(b, r->Q);
    buf_int(b, r->hello);
    buf_int(b, r->has_result);
    buf_double(b, r->A);
    buf_double(b, r->t_measure);
    buf_double(b, r->mu);
    buf_double(b, r->sigma);
    buf_double(b, r->rate);
    buf_int(b, r->n);
    if (r->hello) {
        buf_str(b, r->h.host);
        buf_str(b, r->h.cgroup);
        buf_str(b, r->h.backend);
    }
    if (r->has_result)
        put_result(b, &r->result);
    return finish(to, WIRE_REQUEST, msg, len);
}

int wire_send_work(tr_peer to, long id, long start, long size, char *msg, size_t len)
{
    buf *b = begin();
    buf_int(b, id);
    buf_int(b, start);
    buf_int(b, size);
    return finish(to, WIRE_WORK, msg, len);
}

int wire_send_stop(tr_peer to, char *msg, size_t len)
{
    begin();
    return finish(to, WIRE_STOP, msg, len);
}

int wire_send_result(tr_peer to, int index, const wire_result *r, char *msg, size_t len)
{
    buf *b = begin();
    buf_int(b, index);
    put_result(b, r);
    return finish(to, WIRE_RESULT, msg, len);
}

/* The messages of one int. */
static int send_one(tr_peer to, int tag, long v, char *msg, size_t len)
{
    buf_int(begin(), v);
    return finish(to, tag, msg, len);
}

int wire_send_steal(tr_peer to, int index, char *msg, size_t len)
{
    return send_one(to, WIRE_STEAL, index, msg, len);
}

int wire_send_give(tr_peer to, long start, long size, char *msg, size_t len)
{
    buf *b = begin();
    buf_int(b, start);
    buf_int(b, size);
    return finish(to, WIRE_GIVE, msg, len);
}

int wire_send_idle(tr_peer to, int index, char *msg, size_t len)
{
    return send_one(to, WIRE_IDLE, index, msg, len);
}

int wire_send_pooljob(tr_peer to, int index, const void *job, size_t jlen, char *msg,
                      size_t len)
{
    buf *b = begin();
    buf_int(b, index);
    buf_bytes(b, job, jlen);
    return finish(to, WIRE_POOLJOB, msg, len);
}

int wire_send_ready(tr_peer to, int index, const char *host, char *msg, size_t len)
{
    buf *b = begin();
    buf_int(b, index);
    buf_str(b, host);
    return finish(to, WIRE_READY, msg, len);
}

static void put_task(buf *b, const wire_task *t)
{
    buf_int(b, t->task);
    buf_int(b, t->iteration);
    buf_double(b, t->t_recv);
    buf_double(b, t->t_start);
    buf_double(b, t->t_end);
    buf_bytes(b, t->data, t->len);
}

int wire_send_task(tr_peer to, const wire_task *t, char *msg, size_t len)
{
    put_task(begin(), t);
    return finish(to, WIRE_TASK, msg, len);
}

int wire_send_taskdone(tr_peer to, int index, const wire_task *t, char *msg, size_t len)
{
    buf *b = begin();
    buf_int(b, index);
    put_task(b, t);
    return finish(to, WIRE_TASKDONE, msg, len);
}

int wire_send_lbjob(tr_peer to, int index, int nworkers, const tr_peer *tids,
                    const void *job, size_t jlen, char *msg, size_t len)
{
    buf *b = begin();
    buf_int(b, index);
    buf_int(b, nworkers);
    for (int i = 0; i < nworkers; i++)
        buf_int(b, tids[i]);
    buf_bytes(b, job, jlen);
    return finish(to, WIRE_LBJOB, msg, len);
}

int wire_send_tasks(tr_peer to, const wire_task *tasks, int n, char *msg, size_t len)
{
    buf *b = begin();
    buf_int(b, n);
    for (int i = 0; i < n; i++)
        put_task(b, &tasks[i]);
    return finish(to, WIRE_TASKS, msg, len);
}

int wire_send_count(tr_peer to, int round, char *msg, size_t len)
{
    return send_one(to, WIRE_COUNT, round, msg, len);
}

int wire_send_counts(tr_peer to, int index, int round, long queued, long done, char *msg,
                     size_t len)
{
    buf *b = begin();
    buf_int(b, index);
    buf_int(b, round);
    buf_int(b, queued);
    buf_int(b, done);
    return finish(to, WIRE_COUNTS, msg, len);
}

int wire_send_move(tr_peer to, int round, int dest, long count, char *msg, size_t len)
{
    buf *b = begin();
    buf_int(b, round);
    buf_int(b, dest);
    buf_int(b, count);
    return finish(to, WIRE_MOVE, msg, len);
}

int wire_send_moved(tr_peer to, int index, int round, int dest, const int *tasks, int n, char *msg,
                    size_t len)
{
    buf *b = begin();
    buf_int(b, index);
    buf_int(b, round);
    buf_int(b, dest);
    buf_int(b, n);
    for (int i = 0; i < n; i++)
        buf_int(b, tasks[i]);
    return finish(to, WIRE_MOVED, msg, len);
}

int wire_send_stripjob(tr_peer to, const wire_stripjob *j, char *msg, size_t len)
{
    buf *b = begin();
    buf_int(b, j->index);
    buf_int(b, j->nworkers);
    buf_int(b, j->every);
    buf_int(b, j->recut);
    buf_int(b, j->ckpt);
    buf_int(b, j->steps);
    buf_int(b, j->row_bytes);
    buf_double(b, j->poll);
    buf_bytes(b, j->job, j->job_len);
    return finish(to, WIRE_STRIPJOB, msg, len);
}

int wire_send_start(tr_peer to, const wire_start *s, char *msg, size_t len)
{
    buf *b = begin();
    buf_int(b, s->epoch);
    buf_int(b, s->step);
    buf_int(b, s->n);
    buf_int(b, s->pos);
    for (int i = 0; i < s->n; i++) {
        buf_int(b, s->tids[i]);
        buf_int(b, s->counts[i]);
    }
    return finish(to, WIRE_START, msg, len);
}

int wire_send_rows(tr_peer to, long epoch, int first, int count, const void *data, size_t bytes,
                   char *msg, size_t len)
{
    buf *b = begin();
    buf_int(b, epoch);
    buf_int(b, first);
    buf_int(b, count);
    buf_bytes(b, data, bytes);
    return finish(to, WIRE_ROWS, msg, len);
}

int wire_send_halo(tr_peer to, long epoch, long step, const void *row, size_t bytes, char *msg,
                   size_t len)
{
    buf *b = begin();
    buf_int(b, epoch);
    buf_int(b, step);
    buf_bytes(b, row, bytes);
    return finish(to, WIRE_HALO, msg, len);
}

int wire_send_state(tr_peer to, const wire_state *s, char *msg, size_t len)
{
    buf *b = begin();
    buf_int(b, s->epoch);
    buf_int(b, s->index);
    buf_int(b, s->step);
    buf_int(b, s->rows);
    buf_int(b, s->first);
    buf_double(b, s->busy);
    buf_double(b, s->t);
    buf_bytes(b, s->data, s->bytes);
    return finish(to, WIRE_STATE, msg, len);
}

int wire_send_plan(tr_peer to, long epoch, long step, const int *counts, int n, char *msg,
                   size_t len)
{
    buf *b = begin();
    buf_int(b, epoch);
    buf_int(b, step);
    buf_int(b, n);
    for (int i = 0; i < n; i++)
        buf_int(b, counts[i]);
    return finish(to, WIRE_PLAN, msg, len);
}

int wire_send_wait(tr_peer to, long epoch, int index, long step, char *msg, size_t len)
{
    buf *b = begin();
    buf_int(b, epoch);
    buf_int(b, index);
    buf_int(b, step);
    return finish(to, WIRE_WAIT, msg, len);
}

int wire_send_fetch(tr_peer to, long epoch, int index, char *msg, size_t len)
{
    buf *b = begin();
    buf_int(b, epoch);
    buf_int(b, index);
    return finish(to, WIRE_FETCH, msg, len);
}

/* ---- decoding ----------------------------------------------------------------- */

/* Starts reading e as a message of kind 'what'. 0, or -1 with msg (not a
 * message of ours), or WIRE_EVERSION (of another protocol version). */
static int open_msg(rbuf *r, const tr_event *e, const char *what, char *msg, size_t len)
{
    if (rbuf_start(r, e->data, e->len) == 0)
        return 0;
    if (r->version < 0)
        return malformed(msg, len, "%s from t%x is not a libdtss message (%zu bytes)",
                         what, e->from, e->len);
    snprintf(msg, len, "%s from t%x speaks protocol %d, this program %d (master and "
             "workers from different builds?)", what, e->from, r->version, BUF_VERSION);
    return WIRE_EVERSION;
}

/* Starts decoding, or returns open_msg's code. */
#define OPEN(r, what)                                                         \
    do {                                                                      \
        int o_ = open_msg((r), e, (what), msg, len);                          \
        if (o_ < 0)                                                           \
            return o_;                                                        \
    } while (0)

/* The end of a message: every field there, nothing after. */
static int close_msg(const rbuf *r, const char *what, char *msg, size_t len)
{
    if (r->bad)
        return malformed(msg, len, "%s cut short or with a bad count (%zu bytes)", what,
                         r->len);
    if (rbuf_left(r))
        return malformed(msg, len, "%s with %zu bytes too many", what, rbuf_left(r));
    return 0;
}

/* An int field in [lo, hi], as int (the caller checks what it means). */
static int get_int(rbuf *r, long lo, long hi)
{
    int64_t v = rbuf_int(r);
    if (v < lo || v > hi)
        r->bad = r->bad ? r->bad : 2;
    return (int)(v < lo || v > hi ? 0 : v);
}

/* Copies n bytes of the message into a new allocation (at least 1 byte). */
static void *dup_bytes(rbuf *r, size_t max, size_t *n)
{
    const void *p = rbuf_bytes(r, max, n);
    if (!p)
        return NULL;
    void *d = malloc(*n ? *n : 1);
    if (d && *n)
        memcpy(d, p, *n);
    if (!d)
        r->bad = 3;
    return d;
}

/* A decode's end: bad fields, short or long messages, out of memory. */
static int ended(const rbuf *r, const char *what, char *msg, size_t len)
{
    if (r->bad == 2)
        return malformed(msg, len, "%s with a field out of range", what);
    if (r->bad == 3) {
        snprintf(msg, len, "out of memory for a %s of %zu bytes", what, r->len);
        return -1;
    }
    return close_msg(r, what, msg, len);
}

void wire_job_free(wire_job *j)
{
    free(j->chain);
    free(j->tids);
    free(j->data);
    j->chain = j->tids = NULL;
    j->data = NULL;
}

int wire_unpack_job(const tr_event *e, wire_job *j, char *msg, size_t len)
{
    rbuf r;
    memset(j, 0, sizeof *j);
    OPEN(&r, "JOB");
    j->index = get_int(&r, INT32_MIN, INT32_MAX);
    j->nworkers = get_int(&r, INT32_MIN, INT32_MAX);
    j->tree = get_int(&r, 0, 1);
    j->sample = get_int(&r, INT32_MIN, INT32_MAX);
    j->acp_integer = get_int(&r, 0, 1);
    j->probe = get_int(&r, 0, 255);
    j->iters = rbuf_int(&r);
    j->start = rbuf_int(&r);
    j->size = rbuf_int(&r);
    j->V = rbuf_double(&r);
    j->ahead = rbuf_double(&r);
    if (r.bad)
        return ended(&r, "JOB", msg, len);
    if (j->nworkers < 1 || j->nworkers > WIRE_MAX_WORKERS || j->index < 0 ||
        j->index >= j->nworkers)
        return malformed(msg, len, "JOB for worker %d of %d", j->index, j->nworkers);
    if (j->sample < 1 || j->iters < 0 || j->iters > WIRE_MAX_ITERS || !(j->V > 0) ||
        j->start < 0 || j->size < 0 || j->start > j->iters - j->size ||
        !sched_ahead_ok(j->ahead))
        return malformed(msg, len, "JOB with R = %d, %ld iterations, V = %g, range "
                         "[%ld, +%ld), ahead %g", j->sample, j->iters, j->V, j->start, j->size,
                         j->ahead);
    if (j->tree) {
        j->chain = malloc(sizeof *j->chain * (size_t)j->nworkers);
        j->tids = malloc(sizeof *j->tids * (size_t)j->nworkers);
        if (!j->chain || !j->tids) {
            wire_job_free(j);
            snprintf(msg, len, "out of memory for a JOB of %d workers", j->nworkers);
            return -1;
        }
        for (int i = 0; i < j->nworkers; i++) {
            j->chain[i] = get_int(&r, 0, j->nworkers - 1);
            j->tids[i] = get_int(&r, INT32_MIN, INT32_MAX);
        }
    }
    j->data = dup_bytes(&r, WIRE_MAX_JOB, &j->len);
    int rc = ended(&r, "JOB", msg, len);
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

static int get_result(rbuf *b, wire_result *r, char *msg, size_t len)
{
    memset(r, 0, sizeof *r);
    r->id = rbuf_int(b);
    r->start = rbuf_int(b);
    r->size = rbuf_int(b);
    r->t_recv = rbuf_double(b);
    r->t_start = rbuf_double(b);
    r->t_end = rbuf_double(b);
    r->npieces = rbuf_int(b);
    if (b->bad)
        return ended(b, "a result", msg, len);
    /* Each piece takes 24 bytes: a count the message cannot hold is refused
     * before anything is allocated for it. */
    if (r->id < -1 || r->start < 0 || r->size < 1 || r->npieces < 1 ||
        r->npieces > r->size || (size_t)r->npieces > rbuf_left(b) / 24)
        return malformed(msg, len, "result of chunk %ld: range [%ld, +%ld), %ld "
                         "pieces", r->id, r->start, r->size, r->npieces);
    r->hdr = malloc(sizeof *r->hdr * 3 * (size_t)r->npieces);
    if (!r->hdr) {
        snprintf(msg, len, "out of memory for a result of %ld pieces", r->npieces);
        return -1;
    }
    for (long i = 0; i < 3 * r->npieces; i++)
        r->hdr[i] = rbuf_int(b);
    r->data = dup_bytes(b, WIRE_MAX_RESULT, &r->len);
    if (b->bad) {
        wire_result_free(r);
        return ended(b, "a result", msg, len);
    }
    /* The pieces cover the chunk exactly and their bytes add up. */
    long iters = 0;
    size_t bytes = 0;
    for (long i = 0; i < r->npieces; i++) {
        long *h = &r->hdr[3 * i];
        if (h[0] < 0 || h[1] < 1 || h[1] > r->size || h[2] < 0 ||
            (size_t)h[2] > r->len - bytes) {
            malformed(msg, len, "result of chunk %ld: piece %ld is [%ld, +%ld) with %ld "
                      "bytes", r->id, i, h[0], h[1], h[2]);
            wire_result_free(r);            /* (h is r's: said first, freed after) */
            return -1;
        }
        iters += h[1];
        bytes += (size_t)h[2];
        if (iters > r->size)
            break;
    }
    if (iters != r->size || bytes != r->len) {
        wire_result_free(r);
        return malformed(msg, len, "result of chunk %ld: pieces of %ld iterations "
                         "and %zu bytes for a chunk of %ld and %zu", r->id, iters,
                         bytes, r->size, r->len);
    }
    return 0;
}

int wire_unpack_request(const tr_event *e, wire_request *r, char *msg, size_t len)
{
    rbuf b;
    memset(r, 0, sizeof *r);
    OPEN(&b, "REQUEST");
    r->index = get_int(&b, INT32_MIN, INT32_MAX);
    r->Q = get_int(&b, INT32_MIN, INT32_MAX);
    r->hello = get_int(&b, 0, 1);
    r->has_result = get_int(&b, 0, 1);
    r->A = rbuf_double(&b);
    r->t_measure = rbuf_double(&b);
    r->mu = rbuf_double(&b);
    r->sigma = rbuf_double(&b);
    r->rate = rbuf_double(&b);
    r->n = rbuf_int(&b);
    if (b.bad)
        return ended(&b, "REQUEST", msg, len);
    if (r->Q < 0 || !(r->A >= 0))
        return malformed(msg, len, "REQUEST with Q = %d, A = %g", r->Q, r->A);
    if (!sched_meas_ok(&(sched_request){.mu = r->mu, .sigma = r->sigma, .n = r->n,
                                         .rate = r->rate}))
        return malformed(msg, len, "REQUEST with mu = %g, sigma = %g, rate = %g over %ld "
                         "iterations", r->mu, r->sigma, r->rate, r->n);
    if (r->hello) {
        rbuf_str(&b, r->h.host, sizeof r->h.host);
        rbuf_str(&b, r->h.cgroup, sizeof r->h.cgroup);
        rbuf_str(&b, r->h.backend, sizeof r->h.backend);
    }
    if (r->has_result && get_result(&b, &r->result, msg, len) < 0)
        return -1;
    int rc = ended(&b, "REQUEST", msg, len);
    if (rc < 0 && r->has_result)
        wire_result_free(&r->result);
    return rc;
}

int wire_unpack_work(const tr_event *e, long *id, long *start, long *size, char *msg,
                     size_t len)
{
    rbuf r;
    OPEN(&r, "WORK");
    long l[3] = {rbuf_int(&r), rbuf_int(&r), rbuf_int(&r)};
    if (ended(&r, "WORK", msg, len) < 0)
        return -1;
    if (l[0] < -1 || l[1] < 0 || l[2] < 1)
        return malformed(msg, len, "WORK %ld [%ld, +%ld)", l[0], l[1], l[2]);
    *id = l[0];
    *start = l[1];
    *size = l[2];
    return 0;
}

int wire_unpack_result(const tr_event *e, int *index, wire_result *r, char *msg, size_t len)
{
    rbuf b;
    memset(r, 0, sizeof *r);
    OPEN(&b, "RESULT");
    *index = get_int(&b, 0, INT32_MAX);
    if (b.bad)
        return ended(&b, "RESULT", msg, len);
    if (get_result(&b, r, msg, len) < 0)
        return -1;
    int rc = ended(&b, "RESULT", msg, len);
    if (rc < 0)
        wire_result_free(r);
    return rc;
}

/* The messages of one int, in [lo, hi]. */
static int get_one(const tr_event *e, const char *what, long lo, long hi, int *v, char *msg,
                   size_t len)
{
    rbuf r;
    OPEN(&r, what);
    *v = get_int(&r, lo, hi);
    return ended(&r, what, msg, len);
}

int wire_unpack_steal(const tr_event *e, int *index, char *msg, size_t len)
{
    return get_one(e, "STEAL", 0, INT32_MAX, index, msg, len);
}

int wire_unpack_idle(const tr_event *e, int *index, char *msg, size_t len)
{
    return get_one(e, "IDLE", 0, INT32_MAX, index, msg, len);
}

int wire_unpack_count(const tr_event *e, int *round, char *msg, size_t len)
{
    return get_one(e, "COUNT", 1, INT32_MAX, round, msg, len);
}

int wire_unpack_give(const tr_event *e, long *start, long *size, char *msg, size_t len)
{
    rbuf r;
    OPEN(&r, "GIVE");
    long l[2] = {rbuf_int(&r), rbuf_int(&r)};
    if (ended(&r, "GIVE", msg, len) < 0)
        return -1;
    if (l[0] < 0 || l[1] < 0)
        return malformed(msg, len, "GIVE [%ld, +%ld)", l[0], l[1]);
    *start = l[0];
    *size = l[1];
    return 0;
}

int wire_unpack_pooljob(const tr_event *e, int *index, void **job, size_t *jlen, char *msg,
                        size_t len)
{
    rbuf r;
    *job = NULL;
    *jlen = 0;
    OPEN(&r, "POOLJOB");
    *index = get_int(&r, 0, INT32_MAX);
    void *d = dup_bytes(&r, WIRE_MAX_JOB, jlen);
    if (ended(&r, "POOLJOB", msg, len) < 0) {
        free(d);
        *jlen = 0;
        return -1;
    }
    *job = d;
    return 0;
}

int wire_unpack_ready(const tr_event *e, int *index, char *host, size_t hlen, char *msg,
                      size_t len)
{
    rbuf r;
    OPEN(&r, "READY");
    *index = get_int(&r, 0, INT32_MAX);
    rbuf_str(&r, host, hlen);
    return ended(&r, "READY", msg, len);
}

static void get_task(rbuf *r, wire_task *t)
{
    memset(t, 0, sizeof *t);
    t->task = get_int(r, 0, INT32_MAX);
    t->iteration = get_int(r, 1, INT32_MAX);
    t->t_recv = rbuf_double(r);
    t->t_start = rbuf_double(r);
    t->t_end = rbuf_double(r);
    if (!r->bad)
        t->data = dup_bytes(r, WIRE_MAX_RESULT, &t->len);
}

int wire_unpack_task(const tr_event *e, wire_task *t, char *msg, size_t len)
{
    rbuf r;
    memset(t, 0, sizeof *t);
    OPEN(&r, "TASK");
    get_task(&r, t);
    int rc = ended(&r, "TASK", msg, len);
    if (rc < 0) {
        free(t->data);
        t->data = NULL;
    }
    return rc;
}

int wire_unpack_taskdone(const tr_event *e, int *index, wire_task *t, char *msg, size_t len)
{
    rbuf r;
    memset(t, 0, sizeof *t);
    OPEN(&r, "TASKDONE");
    *index = get_int(&r, 0, INT32_MAX);
    get_task(&r, t);
    int rc = ended(&r, "TASKDONE", msg, len);
    if (rc < 0) {
        free(t->data);
        t->data = NULL;
    }
    return rc;
}

/* ---- migration ------------------------------------------------------------------ */

int wire_unpack_lbjob(const tr_event *e, int *index, int *nworkers, tr_peer **tids,
                      void **job, size_t *jlen, char *msg, size_t len)
{
    rbuf r;
    *tids = NULL;
    *job = NULL;
    *jlen = 0;
    OPEN(&r, "LBJOB");
    int i = get_int(&r, 0, INT32_MAX), n = get_int(&r, 0, INT32_MAX);
    if (r.bad)
        return ended(&r, "LBJOB", msg, len);
    if (n < 1 || n > WIRE_MAX_WORKERS || i >= n)
        return malformed(msg, len, "LBJOB for worker %d of %d", i, n);
    tr_peer *t = malloc(sizeof *t * (size_t)n);
    if (!t) {
        snprintf(msg, len, "out of memory for an LBJOB of %d workers", n);
        return -1;
    }
    for (int k = 0; k < n; k++)
        t[k] = get_int(&r, INT32_MIN, INT32_MAX);
    void *d = dup_bytes(&r, WIRE_MAX_JOB, jlen);
    if (ended(&r, "LBJOB", msg, len) < 0) {
        free(t);
        free(d);
        *jlen = 0;
        return -1;
    }
    *index = i;
    *nworkers = n;
    *tids = t;
    *job = d;
    return 0;
}

int wire_unpack_tasks(const tr_event *e, wire_task **tasks, int *n, char *msg, size_t len)
{
    rbuf r;
    *tasks = NULL;
    *n = 0;
    OPEN(&r, "TASKS");
    /* a task takes at least 48 bytes */
    int k = get_int(&r, 0, (long)(rbuf_left(&r) / 48));
    if (r.bad)
        return ended(&r, "TASKS", msg, len);
    wire_task *t = calloc(k ? (size_t)k : 1, sizeof *t);
    if (!t) {
        snprintf(msg, len, "out of memory for TASKS of %d tasks", k);
        return -1;
    }
    for (int i = 0; i < k && !r.bad; i++)
        get_task(&r, &t[i]);
    if (ended(&r, "TASKS", msg, len) < 0) {
        for (int j = 0; j < k; j++)
            free(t[j].data);
        free(t);
        return -1;
    }
    *tasks = t;
    *n = k;
    return 0;
}

int wire_unpack_counts(const tr_event *e, int *index, int *round, long *queued, long *done,
                       char *msg, size_t len)
{
    rbuf r;
    OPEN(&r, "COUNTS");
    int i = get_int(&r, 0, INT32_MAX), k = get_int(&r, 1, INT32_MAX);
    long q = rbuf_int(&r), d = rbuf_int(&r);
    if (ended(&r, "COUNTS", msg, len) < 0)
        return -1;
    if (q < 0 || d < 0)
        return malformed(msg, len, "COUNTS from worker %d, round %d: %ld queued, %ld done",
                         i, k, q, d);
    *index = i;
    *round = k;
    *queued = q;
    *done = d;
    return 0;
}

int wire_unpack_move(const tr_event *e, int *round, int *to, long *count, char *msg,
                     size_t len)
{
    rbuf r;
    OPEN(&r, "MOVE");
    int k = get_int(&r, 1, INT32_MAX), dest = get_int(&r, 0, INT32_MAX);
    long c = rbuf_int(&r);
    if (ended(&r, "MOVE", msg, len) < 0)
        return -1;
    if (c < 1)
        return malformed(msg, len, "MOVE of round %d: %ld tasks to worker %d", k, c, dest);
    *round = k;
    *to = dest;
    *count = c;
    return 0;
}

int wire_unpack_moved(const tr_event *e, int *index, int *round, int *dest, int **tasks, int *n,
                      char *msg, size_t len)
{
    rbuf r;
    *tasks = NULL;
    *n = 0;
    OPEN(&r, "MOVED");
    int i = get_int(&r, 0, INT32_MAX), k = get_int(&r, 1, INT32_MAX);
    int d = get_int(&r, 0, INT32_MAX);
    int c = get_int(&r, 0, (long)(rbuf_left(&r) / 8));     /* 8 bytes a number */
    if (r.bad)
        return ended(&r, "MOVED", msg, len);
    int *t = malloc(c ? sizeof *t * (size_t)c : 1);
    if (!t) {
        snprintf(msg, len, "out of memory for MOVED of %d tasks", c);
        return -1;
    }
    for (int j = 0; j < c; j++)
        t[j] = get_int(&r, 0, INT32_MAX);
    if (ended(&r, "MOVED", msg, len) < 0) {
        free(t);
        return -1;
    }
    *index = i;
    *round = k;
    *dest = d;
    *tasks = t;
    *n = c;
    return 0;
}

/* ---- row strips ------------------------------------------------------------------ */

/* Steps and epochs: 0 .. 10^18 (the master's steps are at most 10^9). */
#define WIRE_MAX_STEP 1000000000000000000L

void wire_stripjob_free(wire_stripjob *j)
{
    free(j->job);
    j->job = NULL;
}

int wire_unpack_stripjob(const tr_event *e, wire_stripjob *j, char *msg, size_t len)
{
    rbuf r;
    memset(j, 0, sizeof *j);
    OPEN(&r, "STRIPJOB");
    j->index = get_int(&r, 0, WIRE_MAX_WORKERS - 1);
    j->nworkers = get_int(&r, 1, WIRE_MAX_WORKERS);
    j->every = get_int(&r, 0, INT32_MAX);
    j->recut = get_int(&r, 0, 1);
    j->ckpt = get_int(&r, 0, INT32_MAX);
    j->steps = rbuf_int(&r);
    j->row_bytes = rbuf_int(&r);
    j->poll = rbuf_double(&r);
    if (r.bad)
        return ended(&r, "STRIPJOB", msg, len);
    if (j->index >= j->nworkers || j->steps < 0 || j->steps > WIRE_MAX_STEP ||
        j->row_bytes < 1 || j->row_bytes > WIRE_MAX_JOB || !(j->poll >= 0 && j->poll <= 3600))
        return malformed(msg, len, "STRIPJOB for worker %d of %d (every %d, %ld steps, "
                         "rows of %ld bytes, poll %g s)", j->index, j->nworkers, j->every,
                         j->steps, j->row_bytes, j->poll);
    j->job = dup_bytes(&r, WIRE_MAX_JOB, &j->job_len);
    int rc = ended(&r, "STRIPJOB", msg, len);
    if (rc < 0)
        wire_stripjob_free(j);
    return rc;
}

void wire_start_free(wire_start *s)
{
    free(s->tids);
    free(s->counts);
    s->tids = NULL;
    s->counts = NULL;
}

int wire_unpack_start(const tr_event *e, wire_start *s, int max, char *msg, size_t len)
{
    rbuf r;
    memset(s, 0, sizeof *s);
    OPEN(&r, "START");
    s->epoch = rbuf_int(&r);
    s->step = rbuf_int(&r);
    s->n = get_int(&r, 1, max < 1 ? 1 : max);
    s->pos = get_int(&r, 0, INT32_MAX);
    if (r.bad)
        return ended(&r, "START", msg, len);
    if (s->epoch < 0 || s->epoch > WIRE_MAX_STEP || s->step < 0 || s->step > WIRE_MAX_STEP ||
        s->pos >= s->n)
        return malformed(msg, len, "START of epoch %ld at step %ld for position %d of %d",
                         s->epoch, s->step, s->pos, s->n);
    s->tids = malloc(sizeof *s->tids * (size_t)s->n);
    s->counts = malloc(sizeof *s->counts * (size_t)s->n);
    if (!s->tids || !s->counts) {
        wire_start_free(s);
        snprintf(msg, len, "out of memory for a START of %d workers", s->n);
        return -1;
    }
    for (int i = 0; i < s->n; i++) {
        s->tids[i] = get_int(&r, INT32_MIN, INT32_MAX);
        s->counts[i] = get_int(&r, 1, INT32_MAX);
    }
    int rc = ended(&r, "START", msg, len);
    if (rc < 0)
        wire_start_free(s);
    return rc;
}

int wire_unpack_rows(const tr_event *e, long *epoch, int *first, int *count, void **data,
                     size_t *bytes, char *msg, size_t len)
{
    rbuf r;
    *data = NULL;
    *bytes = 0;
    OPEN(&r, "ROWS");
    long ep = rbuf_int(&r);
    int f = get_int(&r, 0, INT32_MAX), c = get_int(&r, 0, INT32_MAX);
    void *d = r.bad ? NULL : dup_bytes(&r, WIRE_MAX_RESULT, bytes);
    int rc = ended(&r, "ROWS", msg, len);
    if (rc == 0 && (ep < 0 || ep > WIRE_MAX_STEP))
        rc = malformed(msg, len, "ROWS of epoch %ld", ep);
    if (rc < 0) {
        free(d);
        *bytes = 0;
        return -1;
    }
    *epoch = ep;
    *first = f;
    *count = c;
    *data = d;
    return 0;
}

int wire_unpack_halo(const tr_event *e, long *epoch, long *step, void *row, size_t bytes,
                     char *msg, size_t len)
{
    rbuf r;
    OPEN(&r, "HALO");
    long ep = rbuf_int(&r), s = rbuf_int(&r);
    size_t k;
    const void *p = rbuf_bytes(&r, (size_t)-1, &k);
    if (ended(&r, "HALO", msg, len) < 0)
        return -1;
    if (ep < 0 || ep > WIRE_MAX_STEP || s < 0 || s > WIRE_MAX_STEP || k != bytes)
        return malformed(msg, len, "HALO of epoch %ld, step %ld, %zu bytes (%zu expected)", ep,
                         s, k, bytes);
    *epoch = ep;
    *step = s;
    memcpy(row, p, bytes);
    return 0;
}

int wire_unpack_state(const tr_event *e, wire_state *s, char *msg, size_t len)
{
    rbuf r;
    wire_state v;
    OPEN(&r, "STATE");
    v.epoch = rbuf_int(&r);
    v.index = get_int(&r, 0, INT32_MAX);
    v.step = rbuf_int(&r);
    v.rows = get_int(&r, 0, INT32_MAX);
    v.first = get_int(&r, 0, INT32_MAX);
    v.busy = rbuf_double(&r);
    v.t = rbuf_double(&r);
    v.data = rbuf_bytes(&r, (size_t)-1, &v.bytes);
    if (ended(&r, "STATE", msg, len) < 0)
        return -1;
    if (v.epoch < 0 || v.epoch > WIRE_MAX_STEP || v.step < 0 || v.step > WIRE_MAX_STEP ||
        !(v.busy >= 0 && v.busy <= 1e12) || !isfinite(v.t))
        return malformed(msg, len, "STATE of epoch %ld from worker %d: %d rows, step %ld, "
                         "%g s", v.epoch, v.index, v.rows, v.step, v.busy);
    *s = v;
    return 0;
}

int wire_unpack_plan(const tr_event *e, long *epoch, long *step, int *counts, int n, char *msg,
                     size_t len)
{
    rbuf r;
    OPEN(&r, "PLAN");
    long ep = rbuf_int(&r), s = rbuf_int(&r);
    int k = get_int(&r, 0, INT32_MAX);
    if (r.bad || k != n || s < 0 || s > WIRE_MAX_STEP || ep < 0 || ep > WIRE_MAX_STEP) {
        if (r.bad)
            return ended(&r, "PLAN", msg, len);
        return malformed(msg, len, "PLAN of epoch %ld, step %ld for %d workers (%d expected)",
                         ep, s, k, n);
    }
    for (int i = 0; i < n; i++)
        counts[i] = get_int(&r, 0, INT32_MAX);
    if (ended(&r, "PLAN", msg, len) < 0)
        return -1;
    *epoch = ep;
    *step = s;
    return 0;
}

int wire_unpack_wait(const tr_event *e, long *epoch, int *index, long *step, char *msg,
                     size_t len)
{
    rbuf r;
    OPEN(&r, "WAIT");
    long ep = rbuf_int(&r);
    int i = get_int(&r, 0, INT32_MAX);
    long s = rbuf_int(&r);
    if (ended(&r, "WAIT", msg, len) < 0)
        return -1;
    if (ep < 0 || ep > WIRE_MAX_STEP || s < 0 || s > WIRE_MAX_STEP)
        return malformed(msg, len, "WAIT of epoch %ld from worker %d at step %ld", ep, i, s);
    *epoch = ep;
    *index = i;
    *step = s;
    return 0;
}

int wire_unpack_fetch(const tr_event *e, long *epoch, int *index, char *msg, size_t len)
{
    rbuf r;
    OPEN(&r, "FETCH");
    long ep = rbuf_int(&r);
    int i = get_int(&r, 0, INT32_MAX);
    if (ended(&r, "FETCH", msg, len) < 0)
        return -1;
    if (ep < 0 || ep > WIRE_MAX_STEP)
        return malformed(msg, len, "FETCH of epoch %ld from worker %d", ep, i);
    *epoch = ep;
    *index = i;
    return 0;
}
