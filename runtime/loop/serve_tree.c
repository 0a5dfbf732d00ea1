/* serve_tree.c: the master's side of Tree-Scheduling (sched/loop/tree.c has the
 * policy: the split, the chain, the partners, the recovery of lost ranges).
 * The master sends each worker its range and the chain; the workers trade
 * work among themselves (runtime/loop/worker_tree.c) and send the master their
 * results; the master serves a lost worker's ranges again.
 *
 * A hung worker (--late F[,MIN], sched/late/late.h): a worker not idle and
 * silent longer than max(F x the expected time of what it owes, MIN) is
 * taken for hung. The master knows what it owes only roughly (its range or
 * a range served again, less its results; a range it stole from its
 * partner is unknown to the master: then the largest first range); its
 * rate is the iterations of its results over their seconds, before its
 * first the run's. It is ended, not left alone: the worker that has it as
 * partner would wait for its answer (its exit notice ends that wait), and
 * it is lost: its range is served again once every live worker is idle.
 *
 * The journal (--journal, --resume; journal.c): an A entry for each range
 * the master sends, an R entry for each range's results as accepted. A
 * resumed run gives the journal's done ranges to the policy (tree_resume),
 * which splits the rest among the workers; the pieces it queues go out
 * like ranges served again, to idle workers.
 */
#include <stdlib.h>
#include <string.h>


#include "runtime/loop/master.h"
#include "sched/util/quote.h"

int tree_start(dtss_master *m)
{
    sched_err err;
    double *V = malloc(sizeof *V * (size_t)m->nw);
    int *tids = malloc(sizeof *tids * (size_t)m->nw);
    if (!V || !tids) {
        free(V);
        free(tids);
        return master_fail(m, DTSS_ENOMEM, "out of memory");
    }
    for (int w = 0; w < m->nw; w++) {
        V[w] = m->rec.w[w].V;
        tids[w] = m->rec.w[w].tid;
    }
    m->t = tree_new(m->iters, V, m->nw, &err);
    free(V);
    if (!m->t) {
        free(tids);
        return master_fail(m, err.code == SCHED_ENOMEM ? DTSS_ENOMEM : DTSS_EINVAL,
                           "%s", err.msg);
    }
    /* resumed: the journal's ranges are done, the rest is split afresh */
    if (m->resume && tree_resume(m->t, m->jw.done, m->jw.ndone, &err) != SCHED_OK) {
        free(tids);
        return master_fail(m, err.code == SCHED_ENOMEM ? DTSS_ENOMEM : DTSS_EINVAL,
                           "--resume %s: %s", quote(m->journal_path), err.msg);
    }
    m->rec.t0 = wire_now();
    late_watch_start(&m->late_lw, &m->late, wire_mono());
    int rc = journal_begin(m);
    if (rc != DTSS_OK) {
        free(tids);
        return rc;
    }
    wire_job job = {.nworkers = m->nw, .tree = 1, .sample = m->sample,
                    .probe = m->probe, .iters = m->iters,
                    .chain = (int *)tree_chain(m->t), .tids = tids,
                    .data = m->h.job, .len = m->h.job_len};
    char msg[256];
    for (int w = 0; w < m->nw && rc == DTSS_OK; w++) {    /* every range, before any is sent */
        long start, size;
        tree_range(m->t, w, &start, &size);
        rc = master_fits(m, "range", w + 1, size);
    }
    for (int w = 0; w < m->nw && rc == DTSS_OK; w++) {
        job.index = w;
        job.V = m->rec.w[w].V;
        tree_range(m->t, w, &job.start, &job.size);
        m->w[w].since = wire_mono();
        m->w[w].owes = job.size;
        if (job.size > 0)
            journal_assigned(m, job.start, job.size);
        if (wire_send_job(m->rec.w[w].tid, &job, msg, sizeof msg) < 0) {
            master_log(m, 0, "%s", msg);
            rc = master_lose(m, w, "cannot be reached");
        }
    }
    free(tids);
    master_log(m, 1, "tree over %d worker%s, %ld iterations%s", m->nw, m->nw == 1 ? "" : "s",
               m->iters, m->resume ? " (the rest of them, split afresh)" : "");
    return rc;
}

int tree_finished_run(const dtss_master *m)
{
    return tree_finished(m->t);
}

/* A worker's results: its own range (id -1), or a range served again. */
static int on_result(dtss_master *m, const tr_event *e)
{
    wire_result r;
    sched_err err;
    int w, rc0 = master_unpack_result(m, e, &w, &r);
    if (rc0 != DTSS_OK || w < 0)
        return rc0;
    rec_chunk *c = NULL;
    if (m->w[w].lost) {                     /* its ranges are served again */
        master_log(m, 0, "results of worker %d, lost before, refused", w + 1);
        wire_result_free(&r);
        return DTSS_OK;
    }
    if (r.id >= 0) {                        /* a range served again */
        if (r.id >= m->rec.nchunks || m->rec.chunks[r.id].worker != w ||
            m->rec.chunks[r.id].done || m->rec.chunks[r.id].start != r.start ||
            r.size > m->rec.chunks[r.id].size) {
            master_log(m, 0, "worker %d's results of chunk %ld refused: not "
                       "outstanding there", w + 1, r.id);
            wire_result_free(&r);
            return DTSS_OK;
        }
    }
    if (tree_result(m->t, w, r.start, r.size, &err) != SCHED_OK) {
        master_log(m, 0, "%s: refused", err.msg);
        wire_result_free(&r);
        return DTSS_OK;
    }
    if (r.id >= 0) {
        c = &m->rec.chunks[r.id];
        c->size = r.size;                   /* less what it gave away */
    } else {
        if (!(c = record_chunk(&m->rec))) {
            wire_result_free(&r);
            return master_fail(m, DTSS_ENOMEM, "out of memory for the run record");
        }
        *c = (rec_chunk){.id = m->rec.nchunks - 1, .worker = w, .start = r.start,
                         .size = r.size, .sent = r.t_recv};
    }
    record_done(&m->rec, c, r.t_recv, r.t_start, r.t_end, wire_now());
    journal_result(m, &r);
    late_add(&m->w[w].rate, &m->late_run, (double)r.size, r.t_end - r.t_start);
    m->w[w].owes = m->w[w].owes > r.size ? m->w[w].owes - r.size : 0;
    master_hand_out(m, w, c->id, &r);
    return DTSS_OK;
}

/* The busy worker most overdue past the late limit, if any: taken for hung,
 * ended, lost. One at a time: the worker that has it as partner is silent
 * too, waiting for it, until its exit notice comes. */
static int check_late(dtss_master *m)
{
    long largest = 0;
    for (int w = 0; w < m->nw; w++) {
        long start, size;
        tree_range(m->t, w, &start, &size);
        largest = size > largest ? size : largest;
    }
    double now = wire_mono(), worst = 1;
    int late = -1;
    for (int w = 0; w < m->nw; w++) {
        long owes = m->w[w].owes > 0 ? m->w[w].owes : largest;
        double over = m->w[w].lost || !tree_busy(m->t, w) ? 0 :
                      late_over(&m->late, &m->w[w].rate, &m->late_run, (double)owes,
                                m->w[w].since, now);
        if (over > worst) {
            worst = over;
            late = w;
        }
    }
    if (late < 0)
        return DTSS_OK;
    tr_kill(m->rec.w[late].tid);
    return master_lose(m, late, "silent past the late limit (hung?): ended, its range to be "
                       "served again");
}

int tree_step(dtss_master *m)
{
    policy_chunk c;
    sched_err err;
    char msg[256];
    int got;
    while ((got = tree_recover(m->t, &c, &err)) == 1) {
        rec_chunk *rc = record_chunk(&m->rec);
        if (!rc)
            return master_fail(m, DTSS_ENOMEM, "out of memory for the run record");
        *rc = (rec_chunk){.id = m->rec.nchunks - 1, .worker = c.worker,
                          .start = c.start, .size = c.size, .sent = wire_now(),
                          .reissue = c.reissue};
        master_log(m, 1, "iterations [%ld, %ld) of the scheduled loop go to worker "
                   "%d%s", c.start, c.start + c.size, c.worker + 1,
                   c.reissue ? " again" : " (its share of the resumed run)");
        int r = master_fits(m, "range", rc->id, c.size);
        if (r != DTSS_OK)
            return r;
        journal_assigned(m, c.start, c.size);
        r = master_send_work(m, c.worker, rc->id, c.start, c.size);
        if (r != DTSS_OK)
            return r;
        m->w[c.worker].since = wire_mono();
        m->w[c.worker].owes = c.size;
    }
    if (got < 0)
        return master_fail(m, DTSS_ENOMEM, "%s", err.msg);
    if (tree_alive(m->t) == 0)
        return master_fail(m, DTSS_ELOST, "every worker was lost; %ld of %ld "
                           "iterations done", m->iters - tree_remaining(m->t), m->iters);
    tr_event e;
    if (tr_recv(TR_ANY, TR_ANY, late_watch_wait(&m->late_lw, -1, wire_mono()), &e, msg,
                sizeof msg) < 0)
        return master_fail(m, DTSS_EPVM, "%s", msg);
    int w = e.kind == TR_MESSAGE ? master_worker_of(m, e.from) : -1;
    if (w >= 0)
        m->w[w].since = wire_mono();        /* heard from: before the late check */
    /* late ranges looked for once the queue is read (late_watch) */
    if (late_watch_look(&m->late_lw, e.kind == TR_TIMEOUT, wire_mono()))
        return check_late(m);
    if (e.kind == TR_TIMEOUT)
        return DTSS_OK;
    if (e.kind != TR_MESSAGE)
        return master_notice(m, &e);
    int index;
    switch (e.tag) {
    case WIRE_RESULT:
        return on_result(m, &e);
    case WIRE_IDLE:
        if (wire_unpack_idle(&e, &index, msg, sizeof msg) == 0 && w >= 0 && index == w) {
            tree_idle(m->t, w);
            m->w[w].owes = 0;
        }
        return DTSS_OK;
    }
    master_log(m, 0, "a message with tag %d from t%x, ignored", e.tag, e.from);
    return DTSS_OK;
}
