/* master.c: the master's handle (dtss.h): start, the piece iterator, the run
 * record, errors and the log. The events themselves are in serve_self.c and
 * serve_tree.c, the choice of hosts in hosts.c, the options in options.c. */
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>


#include "runtime/core/join.h"
#include "runtime/loop/master.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

/* The kind the base verbs of dtss.h dispatch on (core/handle.h). */
RT_MASTER_BASE(master_kind, dtss_master, master_opt)

dtss_master *dtss_master_new(void)
{
    dtss_master *m = rt_new(sizeof *m, &master_kind);
    if (!m)
        return NULL;
    snprintf(m->scheme, sizeof m->scheme, "dtss");
    m->sample = 1;
    m->late = late_default();
    m->ahead = SCHED_AHEAD_DEFAULT;
    return m;
}

const void *dtss_master_get_job(const dtss_master *m, size_t *len)
{
    *len = m->h.job ? m->h.job_len : 0;
    return m->h.job;
}

int master_worker_of(const dtss_master *m, int tid)
{
    for (int w = 0; w < m->nw; w++)
        if (m->rec.w[w].tid == tid)
            return w;
    return -1;
}

int master_lose(dtss_master *m, int w, const char *why)
{
    if (w < 0 || w >= m->nw || m->w[w].lost)
        return DTSS_OK;
    m->w[w].lost = 1;
    int back = 0;
    sched_err err;
    if (m->p && (back = policy_lost(m->p, w, &err)) < 0)
        return master_fail(m, DTSS_ENOMEM, "%s", err.msg);
    if (m->t)
        tree_lost(m->t, w);
    master_log(m, 0, "worker %d on %s %s%s", w + 1, rec_str(m->rec.w[w].host), why,
               back ? "; its chunk goes back to the pool" : "");
    return DTSS_OK;
}

int master_refuse(dtss_master *m, int w, const char *why)
{
    master_log(m, 0, "worker %d on %s refused: %s", w + 1, rec_str(m->rec.w[w].host), why);
    tr_kill(m->rec.w[w].tid);
    return master_lose(m, w, "refused");
}

int master_unpack_result(dtss_master *m, const tr_event *e, int *w, wire_result *r)
{
    char msg[256];
    int index = -1, rc = wire_unpack_result(e, &index, r, msg, sizeof msg);
    *w = master_worker_of(m, e->from);
    if (rc == WIRE_EVERSION && *w >= 0) {
        int who = *w;
        *w = -1;
        return master_refuse(m, who, msg);
    }
    if (rc < 0 || *w < 0 || index != *w) {
        master_log(m, 0, "%s from t%x, ignored", *w < 0 ? "a result from no worker of ours" :
                   rc < 0 ? msg : "a result with a wrong index", e->from);
        wire_result_free(r);
        *w = -1;
    }
    return DTSS_OK;
}

int master_notice(dtss_master *m, const tr_event *e)
{
    if (e->kind == TR_PEER_EXIT)
        return master_lose(m, master_worker_of(m, e->from), "exited");
    for (int w = 0; w < m->nw; w++)
        if (!m->w[w].lost && tr_host_of(m->rec.w[w].tid) == e->host) {
            int rc = master_lose(m, w, "left: its host was deleted");
            if (rc != DTSS_OK)
                return rc;
        }
    return DTSS_OK;
}

int master_send_work(dtss_master *m, int w, long id, long start, long size)
{
    char msg[256];
    if (wire_send_work(m->rec.w[w].tid, id, start, size, msg, sizeof msg) == 0)
        return DTSS_OK;
    master_log(m, 0, "%s", msg);
    return master_lose(m, w, "cannot be reached");
}

int master_fits(dtss_master *m, const char *what, long id, long size)
{
    if (m->result_bytes <= 0 || size <= WIRE_MAX_RESULT / m->result_bytes)
        return DTSS_OK;
    return master_fail(m, DTSS_EINVAL, "%s %ld of %ld iterations would return %ld x %ld = "
                       "%.0f bytes, more than the %ld one message carries: refused before "
                       "it was computed (fewer bytes per iteration, or a scheme or more "
                       "workers for smaller %ss)", what, id, size, size, m->result_bytes,
                       (double)size * (double)m->result_bytes, WIRE_MAX_RESULT, what);
}

void master_hand_out(dtss_master *m, int w, long chunk, wire_result *r)
{
    wire_result_free(&m->cur);
    m->cur = *r;
    memset(r, 0, sizeof *r);
    m->cur_worker = w;
    m->cur_chunk = chunk;
    m->cur_piece = 0;
    m->cur_off = 0;
}

int dtss_master_result_bytes(dtss_master *m, long bytes)
{
    if (m->state != M_NEW)
        return master_fail(m, DTSS_EMISUSE, "dtss_master_result_bytes after "
                           "dtss_master_start");
    if (bytes < 0 || bytes > WIRE_MAX_RESULT)
        return master_fail(m, DTSS_EINVAL, "an iteration's result of %ld bytes: more "
                           "than the %ld one message carries", bytes, WIRE_MAX_RESULT);
    m->result_bytes = bytes;
    return DTSS_OK;
}

/* The scheme and its parameters, checked against I before anything starts;
 * a resumed journal read through. */
int dtss_master_check(dtss_master *m)
{
    sched_err err;
    if (m->place.local && (m->place.hosts || m->place.include_self))
        return master_fail(m, DTSS_EINVAL, "--local runs every worker on this host; "
                           "it does not go with --hosts or --include-self");
    m->tree = strcmp(m->scheme, "tree") == 0;
    if (m->resume && journal_check(m) != DTSS_OK)
        return DTSS_EINVAL;
    int rc;
    if (m->resume && (rc = journal_scan(m)) != DTSS_OK)
        return rc;
    m->autosel = strcmp(m->scheme, SIM_AUTO_NAME) == 0;
    if (m->candidates && !m->autosel)
        return master_fail(m, DTSS_EINVAL, "--candidates is for --scheme auto only (the "
                           "scheme is %s)", m->scheme);
    if (m->tree || m->autosel) {
        if (m->nparam || m->min_text)
            return master_fail(m, DTSS_EINVAL, "%s takes no scheme parameters%s", m->scheme,
                               m->autosel ? " (--candidates LIST names its candidates)" : "");
        if (m->tree)
            return DTSS_OK;
        char msg[256];
        const sched_type *C[SIM_AUTO_CANDIDATES];
        if (sim_auto_candidates(m->candidates, C, SIM_AUTO_CANDIDATES, msg, sizeof msg) < 0)
            return master_fail(m, DTSS_EINVAL, "--candidates: %s", msg);
    }
    const sched_type *T = sched_type_find(m->autosel ? SIM_AUTO_PROBE : m->scheme, &err);
    if (!T)
        return master_fail(m, DTSS_ENOENT, "%s, tree or auto", err.msg);
    sched_config_init(&m->cfg, T, m->iters, 1);
    if (m->autosel)                     /* (its chunks for P workers: self_start) */
        sim_auto_probe(&m->cfg, m->iters, 1);
    if (m->min_text) {
        long v;
        if (parse_long_in(m->min_text, 1, LONG_MAX, &v) != 0)
            return master_fail(m, DTSS_EINVAL, "--min '%s' must be an integer >= 1",
                               quote(m->min_text));
        m->cfg.min_chunk = v;
    }
    for (int i = 0; i < m->nparam; i++)
        if (sched_config_set(&m->cfg, m->pname[i], m->pvalue[i], &err) != SCHED_OK)
            return master_fail(m, err.code == SCHED_ENOENT ? DTSS_ENOENT : DTSS_EINVAL,
                               "%s", err.msg);
    sched *check = sched_new(&m->cfg, &err);
    if (!check)
        return master_fail(m, DTSS_EINVAL, "%s", err.msg);
    sched_free(check);
    return DTSS_OK;
}

int dtss_master_start(dtss_master *m)
{
    if (m->state != M_NEW)
        return master_fail(m, DTSS_EMISUSE, "dtss_master_start called twice");
    m->state = M_FAILED;                /* until it succeeds */
    m->h.live = 1;                      /* the job is sent from here on */
    int rc = dtss_master_check(m);          /* (a resumed journal read through) */
    if (rc != DTSS_OK)
        return rc;
    char msg[512];
    if (runtime_join(msg, sizeof msg) < 0)
        return master_fail(m, DTSS_EPVM, "%s", msg);
    m->h.joined = 1;
    if ((rc = hosts_choose(m)) != DTSS_OK || (rc = hosts_spawn(m)) != DTSS_OK)
        return rc;
    snprintf(m->rec.scheme, sizeof m->rec.scheme, "%s", m->tree ? "tree" : m->autosel ?
             SIM_AUTO_NAME : m->cfg.type->name);
    m->rec.iters = m->iters;
    m->rec.sample = m->sample;
    rc = m->tree ? tree_start(m) : self_start(m);
    if (rc != DTSS_OK) {
        for (int w = 0; w < m->nw; w++)
            if (!m->w[w].lost)
                tr_kill(m->rec.w[w].tid);
        return rc;
    }
    m->state = M_STARTED;
    return DTSS_OK;
}

/* Tells every live worker to stop and waits (at most 10 s) for them to exit,
 * so that none outlives the run; but for a worker whose chunk was served
 * again as late and that has not answered since (hung: it is not waited for,
 * nor killed; told to stop, it exits if it ever resumes, as on the master's
 * exit). A result that comes in meanwhile (a late chunk's copy that lost
 * the race) is refused. */
static void stop_all(dtss_master *m)
{
    char msg[256];
    int live = 0;
    m->stopped = 1;
    for (int w = 0; w < m->nw; w++) {
        if (m->w[w].lost)
            continue;
        int sent = wire_send_stop(m->rec.w[w].tid, msg, sizeof msg) == 0;
        if (m->p && policy_late_worker(m->p, w)) {
            m->w[w].hung = 1;
            master_log(m, 0, "worker %d on %s still silent, its chunk done elsewhere: "
                       "not waited for", w + 1, rec_str(m->rec.w[w].host));
        } else if (sent) {
            live++;
        }
    }
    double until = wire_now() + 10;
    while (live > 0 && wire_now() < until) {
        tr_event e;
        int w;
        if (tr_recv(TR_ANY, TR_ANY, 0.2, &e, msg, sizeof msg) < 0 || e.kind == TR_TIMEOUT)
            continue;
        if (e.kind == TR_MESSAGE && e.tag == WIRE_REQUEST) {   /* the loser of a late chunk's race */
            wire_request q;
            if (wire_unpack_request(&e, &q, msg, sizeof msg) == 0 && q.has_result)
                master_log(m, 0, "worker %d's results of chunk %ld refused: not "
                           "outstanding there (done elsewhere first)",
                           master_worker_of(m, e.from) + 1, q.result.id);
            wire_result_free(&q.result);
            continue;
        }
        if (e.kind != TR_PEER_EXIT)
            continue;
        if ((w = master_worker_of(m, e.from)) >= 0 && !m->w[w].lost) {
            m->w[w].lost = 1;           /* gone, as asked */
            if (!m->w[w].hung)
                live--;
        }
    }
}

/* The next piece of the results in hand, if any. */
static int next_piece(dtss_master *m, dtss_piece *p)
{
    if (!m->cur.hdr || m->cur_piece >= m->cur.npieces)
        return 0;
    const long *h = &m->cur.hdr[3 * m->cur_piece++];
    *p = (dtss_piece){.start = h[0], .size = h[1], .data = m->cur.data + m->cur_off,
                      .len = (size_t)h[2], .worker = m->cur_worker,
                      .chunk = m->cur_chunk};
    m->cur_off += (size_t)h[2];
    return 1;
}

int dtss_master_next(dtss_master *m, dtss_piece *p)
{
    if (m->state == M_DONE)
        return DTSS_DONE;
    if (m->state != M_STARTED)
        return master_fail(m, DTSS_EMISUSE, m->state == M_NEW ?
                           "dtss_master_next before dtss_master_start" :
                           "dtss_master_next after an error: %s", m->h.err);
    for (;;) {
        if (next_piece(m, p))
            return DTSS_PIECE;
        wire_result_free(&m->cur);
        if (m->jw.in) {                 /* the resumed journal's results first */
            wire_result r;
            int got = journal_next_result(m, &r);
            if (got < 0) {
                m->state = M_FAILED;
                return DTSS_ENOMEM;
            }
            if (got == 1)
                master_hand_out(m, -1, -1, &r);
            continue;
        }
        if (m->tree ? tree_finished_run(m) : self_finished(m)) {
            m->rec.finish = wire_now() - m->rec.t0;     /* the last result in */
            record_date_now(&m->rec);
            journal_flush(m);           /* its last entry written, */
            stop_all(m);
            journal_close(m);           /* fsync'd once the workers stopped (as dtss_lb's) */
            m->state = M_DONE;
            return DTSS_DONE;
        }
        int rc = m->tree ? tree_step(m) : self_step(m);
        if (rc != DTSS_OK) {
            m->state = M_FAILED;
            return rc;
        }
    }
}

double dtss_master_finish(const dtss_master *m) { return m->rec.finish; }
double dtss_master_imbalance(const dtss_master *m) { return record_imbalance(&m->rec); }
int dtss_master_replans(const dtss_master *m) { return m->rec.replans; }
int dtss_master_workers(const dtss_master *m) { return m->nw; }

const char *dtss_master_host(const dtss_master *m, int i)
{
    return i >= 0 && i < m->nw ? rec_str(m->rec.w[i].host) : NULL;
}

double dtss_master_speed(const dtss_master *m, int i)
{
    return i >= 0 && i < m->nw ? m->rec.w[i].V : 0;
}

int dtss_master_field(dtss_master *m, const char *key, const char *value)
{
    char msg[256];
    if (record_field(&m->rec, key, value, msg, sizeof msg) != 0)
        return master_fail(m, DTSS_EINVAL, "%s", msg);
    return DTSS_OK;
}

int dtss_master_write_record(dtss_master *m, const char *path)
{
    char msg[256];
    if (m->state != M_DONE)
        return master_fail(m, DTSS_EMISUSE, "the run record is written after the run");
    /* started=: the wall clock (seconds since the epoch) at the schedule's
     * start, from which every time of the record counts: what happened
     * outside the run (a load started by scripts/load --after) can be put
     * on its clock. */
    char t0[32];
    snprintf(t0, sizeof t0, "%.6f", m->rec.t0);
    if (record_field(&m->rec, "started", t0, msg, sizeof msg) != 0 ||
        record_write(&m->rec, path, msg, sizeof msg) != 0)
        return master_fail(m, DTSS_EINVAL, "%s", msg);
    return DTSS_OK;
}

void dtss_master_summary(const dtss_master *m, FILE *f)
{
    record_summary(&m->rec, f);
}

void dtss_master_free(dtss_master *m)
{
    if (!m)
        return;
    for (int w = 0; m->h.joined && w < m->nw; w++)
        if (!m->w[w].lost && !m->w[w].hung)
            tr_kill(m->rec.w[w].tid);
    rt_leave(&m->h);
    journal_free(m);
    free(m->journal_path);
    policy_free(m->p);
    sim_auto_free(m->au);
    free(m->candidates);
    tree_free(m->t);
    wire_result_free(&m->cur);
    record_free(&m->rec);
    free(m->w);
    for (int i = 0; i < m->nparam; i++)
        free(m->pvalue[i]);
    free(m->min_text);
    rt_place_free(&m->place);
    rt_release(&m->h);
    free(m);
}
