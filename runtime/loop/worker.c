/* worker.c: the worker's handle (dtss.h), its pieces, and self-scheduling
 * (Xu & Chronopoulos Sec. 5.3, worker side):
 *   1. measure Q_i, the processes in this host's run-queue (probe.c), and
 *      compute A_i = V_i / Q_i (sched_acp); with the integer rule, while
 *      A_i = 0 measure again every 200 ms;
 *   2. send a request carrying A_i and the results of the last chunk;
 *   3. wait for the reply: a chunk -> hand it out as pieces, then go to 1;
 *      stop -> done.
 * With request-ahead (the job's F or rtt, sched/loop/ahead.h) step 2 goes
 * before the chunk is done, at a piece boundary, without results; at the
 * chunk's end its results go on their own (RESULT) and step 3 follows.
 * Tree-Scheduling is in worker_tree.c. A worker whose master exits ends
 * (DTSS_ELOST) at its next piece, or within 20 ms when waiting; inside a
 * long piece, when the application asks dtss_worker_cancelled.
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>


#include "runtime/core/join.h"
#include "runtime/loop/worker.h"
#include "sched/loop/ahead.h"
#include "sched/sched.h"
#include "sched/util/quote.h"


/* The state an ending code leaves. */
static int ended(int code)
{
    return code == DTSS_DONE ? W_DONE : code == DTSS_ELOST ? W_LOST : W_FAILED;
}

int worker_fail(dtss_worker *w, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rt_vfail(&w->h, code, fmt, ap);
    va_end(ap);
    w->state = ended(code);
    return code;
}

/* The kind the base verbs of dtss.h dispatch on (core/handle.h). */
RT_WORKER_BASE(worker_kind, dtss_worker, "dtss_master_start", 0)

int dtss_worker_index(const dtss_worker *w) { return w->job.index; }
int dtss_worker_count(const dtss_worker *w) { return w->job.nworkers; }
long dtss_worker_iterations(const dtss_worker *w) { return w->job.iters; }

int dtss_worker_set_grain(dtss_worker *w, long grain)
{
    if (grain < 1)
        return worker_fail(w, DTSS_EINVAL, "grain %ld: must be >= 1", grain);
    w->grain = grain;
    return DTSS_OK;
}

int worker_common(dtss_worker *w, int *peer)
{
    if (peer)
        *peer = -1;
    if (worker_got(w, WIRE_STOP))
        return worker_fail(w, DTSS_DONE, "the master has no more work");
    if (w->ev.kind != TR_PEER_EXIT)
        return DTSS_OK;
    tr_peer tid = w->ev.from;
    if (tid == w->h.parent)
        return worker_fail(w, DTSS_ELOST, "the master exited");
    for (int i = 0; w->job.tids && i < w->job.nworkers; i++)
        if (w->job.tids[i] == tid) {
            w->peer_dead[i] = 1;
            if (peer)
                *peer = i;
        }
    return DTSS_OK;
}

/* A message before the job: a peer's STEAL (its job came first), or one
 * every state handles (STOP). */
static int before_job(void *ctx)
{
    dtss_worker *w = ctx;
    return worker_got(w, WIRE_STEAL) ? tree_keep_early(w) : worker_common(w, NULL);
}

int dtss_worker_open(dtss_worker **wp, int argc, char **argv)
{
    int rc;
    dtss_worker *w = *wp = runtime_worker_open(sizeof **wp, &worker_kind, argc, argv, &rc);
    if (!w)
        return DTSS_ENOMEM;
    w->grain = 1;
    w->wait = NAN;
    w->id = -1;
    char msg[256];
    if (rc == DTSS_OK)                          /* wait for the job */
        rc = runtime_wait_master(&w->h, w->h.parent, WIRE_JOB, &w->ev, before_job, w);
    if (rc != DTSS_OK) {
        w->state = ended(rc);
        return rc;
    }
    if (wire_unpack_job(&w->ev, &w->job, msg, sizeof msg) < 0)
        return worker_fail(w, DTSS_EPVM, "a bad job: %s", msg);
    w->h.job = w->job.data;                     /* the base's view of it */
    w->h.job_len = w->job.len;
    if (probe_init(&w->prb, (probe_backend)w->job.probe, msg, sizeof msg) != 0)
        return worker_fail(w, DTSS_EPVM, "%s", msg);
    gethostname(w->host, sizeof w->host - 1);
    w->state = W_RUNNING;
    w->probed = 1;
    return w->job.tree ? tree_open(w) : DTSS_OK;
}

void dtss_worker_close(dtss_worker *w)
{
    if (!w)
        return;
    rt_leave(&w->h);
    if (w->probed)
        probe_close(&w->prb);
    wire_job_free(&w->job);
    free(w->hdr);
    free(w->data);
    free(w->peer_dead);
    free(w->early);
    free(w);
}

/* ---- pieces and their results ---------------------------------------------------- */

void worker_begin(dtss_worker *w, long id, long start, long size)
{
    w->id = id;
    w->first = w->cur = start;
    w->end = start + size;
    w->t_recv = w->t_start = wire_now();
}

int worker_take_work(dtss_worker *w)
{
    long id = 0, start = 0, size = 0;
    char msg[256] = "";
    if (wire_unpack_work(&w->ev, &id, &start, &size, msg, sizeof msg) < 0 ||
        start > w->job.iters - size)
        return worker_fail(w, DTSS_EPVM, "a bad chunk [%ld, +%ld): %s", start,
                           size, msg);
    worker_begin(w, id, start, size);
    return DTSS_OK;
}

int worker_wait(dtss_worker *w, double timeout)
{
    char msg[512];
    if (tr_recv(TR_ANY, TR_ANY, timeout, &w->ev, msg, sizeof msg) < 0)
        return worker_fail(w, DTSS_EPVM, "%s", msg);
    return DTSS_OK;
}

int worker_piece(dtss_worker *w, long *start, long *size)
{
    const long I = w->job.iters, R = w->job.sample;
    long limit = w->end - w->cur > w->grain ? w->cur + w->grain : w->end;
    long m = sched_sample_run(w->cur, limit, I, R);
    if (m < 1)
        return worker_fail(w, DTSS_EINVAL, "iteration %ld of the scheduled loop is "
                           "outside the loop of %ld", w->cur, I);
    if (w->npieces == w->cappieces) {
        long cap = w->cappieces ? 2 * w->cappieces : 64;
        long *h = realloc(w->hdr, sizeof *h * 3 * (size_t)cap);
        if (!h)
            return worker_fail(w, DTSS_ENOMEM, "out of memory for a chunk's pieces");
        w->hdr = h;
        w->cappieces = cap;
    }
    *start = sched_sample(w->cur, I, R);
    *size = m;
    long *h = &w->hdr[3 * w->npieces++];
    h[0] = *start;
    h[1] = m;
    h[2] = 0;
    w->cur += m;
    w->in_piece = 1;
    w->t_piece = wire_now();
    w->piece_cost = NAN;
    return DTSS_PIECE;
}

int dtss_worker_cost(dtss_worker *w, double units)
{
    if (!w->in_piece)
        return worker_fail(w, DTSS_EMISUSE, "dtss_worker_cost with no piece in hand");
    if (!(units >= 0) || !isfinite(units))
        return worker_fail(w, DTSS_EINVAL, "a piece's cost %g: must be finite and "
                           ">= 0", units);
    w->piece_cost = isnan(w->piece_cost) ? units : w->piece_cost + units;
    return DTSS_OK;
}

int dtss_worker_result(dtss_worker *w, const void *data, size_t len)
{
    if (!w->in_piece)
        return worker_fail(w, DTSS_EMISUSE, "dtss_worker_result with no piece in hand");
    if (len > (size_t)WIRE_MAX_RESULT - w->len)
        return worker_fail(w, DTSS_EINVAL, "a chunk's results over %ld bytes",
                           WIRE_MAX_RESULT);
    if (w->len + len > w->cap) {
        size_t cap = w->cap ? w->cap : 4096;
        while (cap < w->len + len)
            cap *= 2;
        unsigned char *d = realloc(w->data, cap);
        if (!d)
            return worker_fail(w, DTSS_ENOMEM, "out of memory for %zu bytes of results",
                               w->len + len);
        w->data = d;
        w->cap = cap;
    }
    if (len)
        memcpy(w->data + w->len, data, len);
    w->len += len;
    w->hdr[3 * (w->npieces - 1) + 2] += (long)len;
    return DTSS_OK;
}

void worker_results(const dtss_worker *w, wire_result *r, double t_end)
{
    *r = (wire_result){.id = w->id, .start = w->first, .size = w->cur - w->first,
                       .t_recv = w->t_recv, .t_start = w->t_start, .t_end = t_end,
                       .npieces = w->npieces, .hdr = w->hdr, .data = w->data,
                       .len = w->len};
}

void worker_clear_results(dtss_worker *w)
{
    w->npieces = 0;
    w->len = 0;
    w->first = w->cur;
}

/* ---- self-scheduling ------------------------------------------------------------ */

/* Q_i and A_i now. A probe that fails counts Q = 1. The run-queue is read
 * at most every PROBE_EVERY seconds: a request sooner than that after the
 * last reading reports the same Q (a host's load changes on that scale, not
 * per chunk, and a reading costs a system call -- with the cgroup back-end,
 * one per task of the host). */
#define PROBE_EVERY 0.01
static int measure(dtss_worker *w, double now, double *A)
{
    if (!w->measured || now - w->t_probe >= PROBE_EVERY) {
        char msg[256];
        int q = probe_queue(&w->prb, msg, sizeof msg);
        w->Q = q < 0 ? 1 : q;
        w->t_probe = now;
        w->measured = 1;
    }
    *A = sched_acp(w->job.V, w->Q, w->prb.cpus, w->job.acp_integer);
    return w->Q;
}

/* Reads pending task-exit notices, every 20 ms at most, so that a worker
 * outlives its master by a piece or 20 ms, not a whole chunk (and not a
 * long piece either, when the application asks dtss_worker_cancelled). */
static int check_exits(dtss_worker *w, double now)
{
    if (now - w->last_poll < 0.02)
        return DTSS_OK;
    w->last_poll = now;
    int rc = DTSS_OK;
    char msg[512];
    for (;;) {
        if (tr_recv(TR_ANY, TR_NOTICES, 0, &w->ev, msg, sizeof msg) < 0)
            return worker_fail(w, DTSS_EPVM, "%s", msg);
        if (w->ev.kind == TR_TIMEOUT || (rc = worker_common(w, NULL)) != DTSS_OK)
            return rc;
    }
}

/* The request's measurements: what the pieces measured since the last
 * request (sched/loop/meas.h), forgotten once taken. */
static void take_meas(dtss_worker *w, wire_request *q)
{
    sched_request m;
    sched_meas_get(&w->meas, &m);
    sched_meas_clear(&w->meas);
    q->mu = m.mu;
    q->sigma = m.sigma;
    q->n = m.n;
    q->rate = m.rate;
}

/* Waits for the master's reply to a request: a chunk (it begins), or STOP
 * (DTSS_DONE). With request-ahead it looks first without waiting: a reply
 * already there tells the reply wait only from above (sched_ahead_wait).
 * Without, the reply wait is not used and that look would be one more
 * system call a chunk: it waits at once. */
static int await_work(dtss_worker *w)
{
    int blocked = w->job.ahead == 0;
    for (;;) {
        int rc;
        if ((rc = worker_wait(w, blocked ? -1 : 0)) != DTSS_OK)
            return rc;
        if (w->ev.kind == TR_TIMEOUT) {
            blocked = 1;
            continue;
        }
        if (worker_got(w, WIRE_WORK)) {
            w->wait = sched_ahead_wait(w->wait, wire_now() - w->t_asked, blocked);   /* NAN: kept */
            return worker_take_work(w);
        }
        if ((rc = worker_common(w, NULL)) != DTSS_OK)
            return rc;
    }
}

/* Request-ahead: the chunk is at its ask point (sched_ahead_due) at now; a
 * request with A_i goes, without results (none when A_i = 0: the worker
 * asks at the end). */
static int ask_ahead(dtss_worker *w, double now)
{
    char msg[256];
    double A;
    int Q = measure(w, now, &A);
    if (!(A > 0))
        return DTSS_OK;
    wire_request q = {.index = w->job.index, .Q = Q, .A = A, .t_measure = now};
    take_meas(w, &q);
    if (wire_send_request(w->h.parent, &q, msg, sizeof msg) < 0)
        return worker_fail(w, DTSS_EPVM, "%s", msg);
    w->asked = 1;
    w->t_asked = wire_now();
    return DTSS_OK;
}

/* Request-ahead: the chunk is done and its request went before; its
 * results go on their own, then the reply is taken. */
static int finish_ahead(dtss_worker *w)
{
    char msg[256];
    wire_result r;
    worker_results(w, &r, wire_now());
    if (wire_send_result(w->h.parent, w->job.index, &r, msg, sizeof msg) < 0)
        return worker_fail(w, DTSS_EPVM, "%s", msg);
    worker_clear_results(w);
    w->id = -1;
    w->asked = 0;
    return await_work(w);
}

/* Sends a request (with the results of the chunk just done, if any) and
 * waits for the next chunk. now: the time (the chunk's end; one clock read
 * for what happens at one instant). */
static int ask(dtss_worker *w, double now)
{
    char msg[256];
    int have = w->npieces > 0 || w->id >= 0;
    double t_end = now;
    for (;;) {
        double A;
        int Q = measure(w, now, &A);
        if (!(A > 0) && w->hello_sent) {
            /* The paper's integer A_i = 0: measure again in 200 ms. */
            int rc = worker_wait(w, 0.2);
            if (rc == DTSS_OK)
                rc = worker_common(w, NULL);
            if (rc != DTSS_OK)
                return rc;
            now = wire_now();
            continue;
        }
        wire_request q = {.index = w->job.index, .Q = Q, .A = A,
                          .t_measure = now, .hello = !w->hello_sent,
                          .has_result = have};
        take_meas(w, &q);
        if (q.hello) {
            snprintf(q.h.host, sizeof q.h.host, "%s", w->host);
            snprintf(q.h.cgroup, sizeof q.h.cgroup, "%s", w->prb.cgroup);
            snprintf(q.h.backend, sizeof q.h.backend, "%s",
                     probe_backend_name(w->prb.backend));
        }
        if (have)
            worker_results(w, &q.result, t_end);
        if (wire_send_request(w->h.parent, &q, msg, sizeof msg) < 0)
            return worker_fail(w, DTSS_EPVM, "%s", msg);
        w->t_asked = q.hello ? NAN : wire_now();
        worker_clear_results(w);
        w->id = -1;
        have = 0;
        w->hello_sent = 1;
        if (A > 0)
            break;
    }
    return await_work(w);
}

int dtss_worker_cancelled(dtss_worker *w)
{
    if (!w || w->state == W_LOST || w->state == W_FAILED)
        return 1;
    return w->state == W_RUNNING && check_exits(w, wire_now()) != DTSS_OK;
}

int dtss_worker_next(dtss_worker *w, long *start, long *size)
{
    if (w->state == W_DONE)
        return DTSS_DONE;
    if (w->state == W_LOST)
        return DTSS_ELOST;
    if (w->state != W_RUNNING)
        return worker_fail(w, DTSS_EMISUSE, "dtss_worker_next after an error: %s",
                           w->h.err);
    double now = wire_now();                /* the piece's end, the chunk's if it is */
    if (w->in_piece) {                      /* the piece just done */
        long *h = &w->hdr[3 * (w->npieces - 1)];
        sched_meas_add(&w->meas, now - w->t_piece, h[1], w->piece_cost);
        /* The first piece of a chunk: at its bytes per iteration, would the
         * chunk's results be over what a message carries? Then stop now,
         * not once 2 GiB are computed. (It assumes iterations of like
         * sizes: dtss_master_result_bytes makes the master's check exact.) */
        double whole = (double)h[2] / (double)h[1] * (double)(w->end - w->first);
        if (w->npieces == 1 && whole > (double)WIRE_MAX_RESULT)
            return worker_fail(w, DTSS_EINVAL, "a chunk of %ld iterations would return "
                               "about %.0f bytes (its first piece %ld bytes for %ld "
                               "iterations), more than the %ld one message carries: "
                               "stopped at its first piece", w->end - w->first, whole,
                               h[2], h[1], WIRE_MAX_RESULT);
    }
    w->in_piece = 0;
    if (w->job.tree)
        return tree_next(w, start, size);
    int rc = check_exits(w, now);
    if (rc != DTSS_OK)
        return rc;
    if (!w->asked && w->id >= 0 && w->job.ahead != 0 &&
        sched_ahead_due(w->job.ahead, w->cur - w->first, w->end - w->first,
                        now - w->t_start, w->wait) &&
        (rc = ask_ahead(w, now)) != DTSS_OK)
        return rc;
    if (w->cur >= w->end && (rc = w->asked ? finish_ahead(w) : ask(w, now)) != DTSS_OK)
        return rc;
    return worker_piece(w, start, size);
}

int dtss_probe(const char *backend, char *line, size_t len)
{
    probe_backend b;
    probe p;
    char msg[256], host[256] = "";
    if (probe_backend_parse(backend ? backend : "auto", &b) != 0) {
        snprintf(line, len, "probe back-end '%s': use auto, proc or cgroup", quote(backend));
        return DTSS_EINVAL;
    }
    if (probe_init(&p, b, msg, sizeof msg) != 0) {
        snprintf(line, len, "%s", msg);
        return DTSS_ENOENT;
    }
    int q = probe_queue(&p, msg, sizeof msg);
    if (q < 0) {
        probe_close(&p);
        snprintf(line, len, "%s", msg);
        return DTSS_ENOENT;
    }
    gethostname(host, sizeof host - 1);
    probe_close(&p);
    snprintf(line, len, "host=%s backend=%s cgroup=%s Q=%d cpus=%d", host,
             probe_backend_name(p.backend), p.cgroup, q, p.cpus);
    return DTSS_OK;
}
