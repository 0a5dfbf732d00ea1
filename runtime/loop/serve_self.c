/* serve_self.c: the master's self-scheduling events (Xu & Chronopoulos Sec.
 * 5.3). Every decision is the policy's (sched/loop/policy.c); this file turns
 * PVM messages into its events ("worker w asks with A_i", "chunk c done",
 * "worker w lost") and sends out what it assigns. It waits on any message
 * from anyone, so it never waits on one slow worker while others ask; with
 * late chunks on (--late), while a request waits, it also wakes up after
 * late_poll() (at most a second) without one and asks the policy again,
 * telling it the time: a hung worker's chunk then goes to a worker that
 * was waiting, even when every other worker waits and no message will come.
 * A request is served as it comes, before its results are handed out.
 * With request-ahead (--ahead F|rtt, sched/loop/ahead.h) a worker's request
 * can come while its chunk is out (the policy queues it as any other), and
 * that chunk's results then come on their own (RESULT).
 */
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>


#include "runtime/loop/master.h"
#include "sched/util/quote.h"

int self_start(dtss_master *m)
{
    sched_err err;
    char msg[256];
    if (m->autosel) {
        sim_auto_probe(&m->cfg, m->iters, m->nw);
        if (!(m->au = sim_auto_new(m->nw, m->iters, m->sample, m->candidates, SIM_AUTO_MAX, m->ahead, msg,
                                   sizeof msg)))
            return master_fail(m, DTSS_EINVAL, "%s", msg);
        for (int w = 0; w < m->nw; w++)
            sim_auto_speed(m->au, w, m->rec.w[w].V);
    }
    m->p = policy_new(&m->cfg, m->nw, &err);
    if (!m->p)
        return master_fail(m, err.code == SCHED_ENOMEM ? DTSS_ENOMEM : DTSS_EINVAL,
                           "%s", err.msg);
    if (m->autosel && policy_measure(m->p, &err) != SCHED_OK)
        return master_fail(m, DTSS_ENOMEM, "%s", err.msg);
    if (policy_set_late(m->p, m->late.factor, m->late.min, &err) != SCHED_OK)
        return master_fail(m, DTSS_EINVAL, "%s", err.msg);
    for (int w = 0; w < m->nw; w++)
        if (policy_set_speed(m->p, w, m->rec.w[w].V, &err) != SCHED_OK)
            return master_fail(m, DTSS_EINVAL, "%s", err.msg);
    m->rec.t0 = wire_now();             /* (again at the start of the schedule) */
    if (m->resume && policy_resume(m->p, m->jw.done, m->jw.ndone, &err) != SCHED_OK)
        return master_fail(m, err.code == SCHED_ENOMEM ? DTSS_ENOMEM : DTSS_EINVAL,
                           "--resume %s: %s", quote(m->journal_path), err.msg);
    int rc = journal_begin(m);
    if (rc != DTSS_OK)
        return rc;
    wire_job job = {.nworkers = m->nw, .sample = m->sample, .acp_integer = m->acp_integer,
                    .probe = m->probe, .iters = m->iters, .ahead = m->ahead,
                    .data = m->h.job, .len = m->h.job_len};
    if (m->ahead != 0) {                /* (off: the record as before) */
        char F[32];
        if ((rc = dtss_master_field(m, "ahead", sched_ahead_text(m->ahead, F, sizeof F))) !=
            DTSS_OK)
            return rc;
    }
    for (int w = 0; w < m->nw; w++) {
        job.index = w;
        job.V = m->rec.w[w].V;
        if (wire_send_job(m->rec.w[w].tid, &job, msg, sizeof msg) < 0) {
            master_log(m, 0, "%s", msg);
            if ((rc = master_lose(m, w, "cannot be reached")) != DTSS_OK)
                return rc;
        }
    }
    return DTSS_OK;
}

int self_finished(const dtss_master *m)
{
    return policy_finished(m->p);
}

/* The results of a chunk from worker w: taken, or refused when the chunk is
 * not outstanding at w (a duplicate, or a chunk already served again), so
 * every iteration counts once. r is freed. */
static void take_result(dtss_master *m, int w, wire_result *r)
{
    if (r->id >= 0 && r->id < m->rec.nchunks && m->rec.chunks[r->id].worker == w &&
        m->rec.chunks[r->id].start == r->start && m->rec.chunks[r->id].size == r->size &&
        policy_done_w(m->p, w, r->id, r->t_end - r->t_start, NULL) == SCHED_OK) {
        if (m->au)                      /* its round trip: the rest of its time */
            sim_auto_chunk(m->au, w, r->start, r->size, r->t_end - r->t_start,
                           wire_now() - m->rec.chunks[r->id].sent - (r->t_end - r->t_start),
                           wire_now() - m->rec.t0);
        record_done(&m->rec, &m->rec.chunks[r->id], r->t_recv, r->t_start, r->t_end,
                    wire_now());
        journal_result(m, r);
        master_hand_out(m, w, r->id, r);
    } else {
        master_log(m, 0, "worker %d's results of chunk %ld refused: not outstanding there "
                   "(done elsewhere first)", w + 1, r->id);
    }
    wire_result_free(r);
}

/* A chunk's results on their own (request-ahead: its request went before). */
static int on_result(dtss_master *m, const tr_event *e)
{
    wire_result r;
    int w, rc = master_unpack_result(m, e, &w, &r);
    if (rc == DTSS_OK && w >= 0)
        take_result(m, w, &r);
    return rc;
}

/* A worker's request: hello, the results of its last chunk, its new A_i. */
static int on_request(dtss_master *m, const tr_event *e)
{
    wire_request q;
    char msg[256];
    tr_peer src = e->from;
    int w = master_worker_of(m, src);
    int rc = wire_unpack_request(e, &q, msg, sizeof msg);
    if (rc == WIRE_EVERSION && w >= 0)
        return master_refuse(m, w, msg);
    if (rc < 0 || w < 0 || q.index != w) {
        master_log(m, 0, "%s from t%x, ignored", w < 0 ? "a request from no worker of "
                   "ours" : q.index != w ? "a request with a wrong index" : msg, src);
        wire_result_free(&q.result);
        return DTSS_OK;
    }
    rec_worker *rw = &m->rec.w[w];
    if (q.hello) {
        if (record_text(&rw->seen_host, q.h.host, REC_HOST_MAX) != 0 ||
            record_text(&rw->cgroup, q.h.cgroup, REC_CGROUP_MAX) != 0)
            return master_fail(m, DTSS_ENOMEM, "out of memory");
        snprintf(rw->backend, sizeof rw->backend, "%s", q.h.backend);
    }
    if (q.has_result)
        take_result(m, w, &q.result);
    if (record_report(&m->rec, w, q.Q, q.A, q.t_measure) != 0)
        return master_fail(m, DTSS_ENOMEM, "out of memory for the run record");
    if (m->w[w].lost)
        return DTSS_OK;
    sched_err err;
    int replans = policy_replans(m->p);
    sched_request rq = {w, q.A, q.mu, q.sigma, q.n, q.rate};
    if (m->au)
        sim_auto_report(m->au, w, q.A);
    if (policy_request_m(m->p, &rq, &err) != SCHED_OK)
        master_log(m, 0, "%s", err.msg);
    if (m->au && sim_auto_due(m->au, m->p)) {
        if (sim_auto_decide(m->au, m->p, wire_now() - m->rec.t0, msg, sizeof msg) < 0)
            master_log(m, 0, "%s (the scheme stays)", msg);
        else {
            master_log(m, 1, "%s", sim_auto_log(m->au));
            int frc = dtss_master_field(m, SIM_AUTO_NAME, sim_auto_field(m->au));
            if (frc != DTSS_OK)
                return frc;
        }
    }
    if (policy_replans(m->p) > replans) {
        master_log(m, 1, "more than half of the A_i changed: re-plan %d, A = %g",
                   policy_replans(m->p), policy_power(m->p));
        if (record_replan(&m->rec, wire_now(), policy_alive(m->p), policy_power(m->p)) != 0)
            return master_fail(m, DTSS_ENOMEM, "out of memory for the run record");
    }
    return DTSS_OK;
}

/* Hands out every chunk the policy assigns now. */
static int serve(dtss_master *m)
{
    policy_chunk c;
    sched_err err;
    int got;
    while ((got = policy_assign(m->p, &c, &err)) == 1) {
        int fits = master_fits(m, "chunk", c.id, c.size);
        if (fits != DTSS_OK)
            return fits;
        rec_chunk *rc = record_chunk(&m->rec);
        if (!rc)
            return master_fail(m, DTSS_ENOMEM, "out of memory for the run record");
        *rc = (rec_chunk){.id = c.id, .worker = c.worker, .start = c.start,
                          .size = c.size, .acp = c.acp, .sent = wire_now(),
                          .reissue = c.reissue};
        if (c.late)
            master_log(m, 0, "chunk %ld (%ld iterations from %ld) late at worker %d: out "
                       "%.1f s; served again to worker %d as chunk %ld", c.of,
                       c.size, c.start, m->rec.chunks[c.of].worker + 1,
                       rc->sent - m->rec.chunks[c.of].sent, c.worker + 1, c.id);
        journal_assigned(m, c.start, c.size);
        if (m->au)
            sim_auto_assign(m->au, c.worker, c.start, c.size, rc->sent - m->rec.t0);
        int r = master_send_work(m, c.worker, c.id, c.start, c.size);
        if (r != DTSS_OK)
            return r;
    }
    if (got < 0)
        return master_fail(m, DTSS_ENOMEM, "%s", err.msg);
    return DTSS_OK;
}

int self_step(dtss_master *m)
{
    sched_err err;
    policy_now(m->p, wire_now());
    if (policy_ready(m->p)) {                   /* step 1 is over */
        m->rec.t0 = wire_now();
        if (policy_start(m->p, &err) != SCHED_OK)
            return master_fail(m, DTSS_EINVAL, "%s", err.msg);
        master_log(m, 1, "%d worker%s reported; %s over %ld iterations",
                   policy_alive(m->p), policy_alive(m->p) == 1 ? "" : "s",
                   m->autosel ? SIM_AUTO_NAME " (a probe of css)" : m->cfg.type->name,
                   m->iters);
    }
    int rc = serve(m);
    if (rc != DTSS_OK)
        return rc;
    if (policy_alive(m->p) == 0 && !policy_started(m->p))
        return master_fail(m, DTSS_ELOST, "every worker was lost before the run "
                           "started");
    if (policy_alive(m->p) == 0)
        return master_fail(m, DTSS_ELOST, "every worker was lost; %ld of %ld "
                           "iterations done", m->iters - policy_remaining(m->p),
                           m->iters);
    tr_event e;
    char msg[512];
    /* with late chunks looked for: a wait of late_poll's length at most,
     * while a request waits (only a waiting request takes a late chunk;
     * without one, only a message changes anything, and a wait without a
     * time limit costs less: 0.7 us a chunk on one host, bin/pingpong) */
    double wait = policy_started(m->p) && policy_queued(m->p) > 0 ? late_poll(&m->late) : -1;
    if (tr_recv(TR_ANY, TR_ANY, wait, &e, msg, sizeof msg) < 0)
        return master_fail(m, DTSS_EPVM, "%s", msg);
    if (e.kind == TR_TIMEOUT)
        return DTSS_OK;                         /* none: look for late chunks */
    policy_now(m->p, wire_now());
    if (e.kind != TR_MESSAGE)
        return master_notice(m, &e);
    if (e.tag == WIRE_REQUEST) {
        /* the next chunk goes at once, its journal entry and the results'
         * in one write (journal_hold); as the next step would, unless the
         * run is over (nothing is served after the last result) */
        journal_hold(m);
        rc = on_request(m, &e);
        if (rc == DTSS_OK && !self_finished(m))
            rc = serve(m);
        journal_flush(m);
        return rc;
    }
    if (e.tag == WIRE_RESULT)
        return on_result(m, &e);
    master_log(m, 0, "a message with tag %d from t%x, ignored", e.tag, e.from);
    return DTSS_OK;
}
