/* policy.h: the coordinator's scheduling policy, driven by plain events.
 *
 * Xu & Chronopoulos Sec. 5.3, coordinator side, with no PVM in it: the PVM
 * coordinator and the simulator feed it the same events and send out what it
 * assigns.
 *
 *   step 1  every worker reports its A_i once (policy_request); when every
 *           live worker has reported and one of them can work (policy_ready)
 *           policy_start sorts the workers with A_i > 0 by decreasing A_i
 *           into the ACP Status Array (ACPSA), queues their requests in that
 *           order and plans F, L, N, D (eq. 1-3) for A = sum of A_i;
 *   step 2  while iterations remain, each request (policy_request) joins the
 *           queue with the worker's new A_i recorded; policy_assign serves the
 *           head of the queue with a chunk by eq. 4-9 (sched_next with the
 *           worker's current A_i). When more than half of the workers' A_i
 *           differ from the ACPSA of the last plan, the ACPSA is updated, the
 *           queue re-sorted, and the plan redone for I = the remaining
 *           iterations (sched_replan): the re-plan rule.
 *
 * The other schemes go through the same code with A_i = 1 for every able
 * worker, for the queue order as for the chunk size (they know nothing of
 * loads: the first requests are served in worker order), and no re-plan: TSS
 * and DTSS differ only in what they do with the A_i.
 *
 * Reading of the paper: a chunk is sized with the A_i the worker sent with its
 * latest request (DTSS's point is to follow the current load); the ACPSA is
 * the snapshot of the last plan, used for the re-plan rule and the queue
 * order. "More than half" counts the live workers: changed > live / 2.
 *
 * The weighted and adaptive schemes (wf, awf-b/c/d/e, af: sched.h) take
 * each able worker's speed V_i (policy_set_speed) as its A_i, for their
 * weights as for the queue order, and are fed what the workers measure:
 * each request's mean and standard deviation of one iteration's time, and
 * its delivered rate, over the worker's latest chunk (policy_request_m;
 * sched/loop/meas.h computes them)
 * and each finished chunk's computing time (policy_done_w) with its time
 * from assignment to result (the policy's clock: policy_now). dtss-m, ours,
 * is DTSS fed the same measurements (sched/schemes/dtss.c). The scheme numbers
 * the workers that could work at the start 0, 1, ... in worker order; a worker
 * that joins later asks as SCHED_ANY_WORKER (unmeasured).
 *
 * Faults: policy_lost puts a lost worker's outstanding chunks in a pool; the
 * next requests are served from the pool (whole chunks, as first handed out)
 * before any new iterations. A result for a chunk that is not outstanding (a
 * duplicate) is refused, so every iteration counts once.
 *
 * Late chunks (a hung worker: stopped, or its host frozen; off unless
 * policy_set_late is called): the policy has no clock, the caller tells it
 * the time (policy_now) before its events. A worker's rate is the iterations
 * of its completed chunks over their times from assignment to result
 * (before its first, the run's: every completed chunk's; before any chunk is
 * completed there is no rate and nothing is late). A chunk is late once
 * outstanding longer than max(factor x size / rate, min) seconds. A
 * request that nothing else can serve (no lost chunk in the pool, no
 * unassigned iteration: the tail of the run, when the requester would
 * otherwise wait) gets a copy of the oldest late chunk it does not hold,
 * with reissue = 1; the chunk stays outstanding at its first worker too:
 * the first result in counts and every other copy stops being outstanding
 * (its result is refused as a duplicate). A copy that is late in turn may be
 * copied again once every copy of that range is late. The holder of a late
 * chunk is left alone (never told, never sent anything): when the range is
 * done elsewhere, policy_late_worker says the master need not wait for it.
 */
#ifndef POLICY_H
#define POLICY_H

#include "sched/sched.h"

typedef struct policy_chunk {
    long id;            /* 0, 1, 2, ... in order of assignment */
    int worker;         /* 0 .. nworkers-1 */
    long start, size;   /* iterations [start, start + size) of the loop */
    double acp;         /* the A_i the chunk was sized with (1: not DTSS) */
    int reissue;        /* a lost worker's chunk, or a late one, served again */
    int late;           /* a copy of chunk 'of', late at its worker (which */
    long of;            /* may still answer: the first result in counts) */
} policy_chunk;

typedef struct policy policy;

/* A range of the loop: iterations [start, start + size). */
typedef struct policy_range { long start, size; } policy_range;

/* A policy for cfg (scheme, I, parameters; cfg->P and cfg->A are set by the
 * policy) over nworkers workers. NULL with err set on bad input. */
policy *policy_new(const sched_config *cfg, int nworkers, sched_err *err);
void policy_free(policy *p);

/* Worker w reports A_i = acp and, if acp > 0, asks for work. A worker with
 * acp <= 0 (the paper's integer A_i = 0) is recorded but not queued.
 * SCHED_EINVAL for a bad w, a lost worker, or a second request while one is
 * queued. */
int policy_request(policy *p, int w, double acp, sched_err *err);

/* The same, for the request rq: worker rq->worker reports A_i = rq->acp
 * with what it measured over the chunk it just finished: rq->mu and
 * rq->sigma (NAN below two iterations) of one iteration's time in seconds,
 * over rq->n iterations, and rq->rate, the cost units (or iterations) it
 * delivered a second (sched/loop/meas.h fills them). rq->n = 0: nothing new
 * (the other three are ignored), the worker's last measurement stands.
 * policy_request is this with NAN, NAN, 0, 0. SCHED_EINVAL as
 * policy_request, or for n < 0, or with n > 0 a mu or rate that is not
 * finite and >= 0 or a sigma that is neither that nor NAN. */
int policy_request_m(policy *p, const sched_request *rq, sched_err *err);

/* Worker w's speed V_i (> 0, finite; default 1), the weight of the weighted
 * and adaptive schemes. Before policy_start only. SCHED_EINVAL otherwise. */
int policy_set_speed(policy *p, int w, double V, sched_err *err);

/* Step 1's condition: not started yet, every live worker has reported at
 * least once, and one of them asks for work (A_i > 0). */
int policy_ready(const policy *p);

/* Step 1 once every worker has reported: ACPSA, queue order, plan.
 * SCHED_EINVAL if no worker has A_i > 0. */
int policy_start(policy *p, sched_err *err);
int policy_started(const policy *p);

/* Serves the head of the queue: returns 1 with *out filled, 0 when nothing
 * can be served now (not started, empty queue, or no unassigned iterations;
 * the queued requests then wait, in case a lost chunk comes back), or -1 out
 * of memory (err set; the run cannot go on). */
int policy_assign(policy *p, policy_chunk *out, sched_err *err);

/* The results of chunk 'id' arrived from worker w. SCHED_EINVAL if it is not
 * outstanding there. */
int policy_done(policy *p, int w, long id, sched_err *err);
/* The same, with the chunk's computing time at the worker, 'work' seconds
 * (NAN: unknown, the time from assignment to result stands for it). */
int policy_done_w(policy *p, int w, long id, double work, sched_err *err);

/* Worker w is gone: its outstanding chunks go back to the pool, its queued
 * request is dropped. Returns the number of chunks returned (0 for a worker
 * already lost), or -1 out of memory (err set; the run cannot go on). */
int policy_lost(policy *p, int w, sched_err *err);

/* Resuming a broken run (the runtime's journal): the n ranges in done were
 * completed before (in any order; none may overlap or leave the loop). Before
 * policy_start only, once. They count as done; every gap between them below
 * the highest done end, hi, goes to the pool of lost chunks (served whole,
 * lowest first, before any new iteration: a gap is a chunk, or adjacent
 * chunks, that were outstanding when the run broke); the scheme plans the
 * untouched tail [hi, I) at policy_start as a loop of I - hi iterations
 * (chunk starts offset by hi; the scheme's parameters are checked against
 * I - hi). SCHED_EINVAL (a bad or overlapping range, called twice or after
 * the start) or SCHED_ENOMEM, with nothing changed. */
int policy_resume(policy *p, const policy_range *done, long n, sched_err *err);
/* The journal's done ranges, checked and sorted, for policy_resume and
 * tree_resume alike: a malloc'd copy of the n ranges in done, by start
 * (never NULL when n is 0), its total in *sum; NULL with err set ("WHO:
 * done range [s, +n) outside the loop of I iterations" / "... overlaps
 * another", or out of memory) when one is empty, leaves [0, I) or overlaps
 * another. */
policy_range *policy_done_sorted(const policy_range *done, long n, long I, const char *who,
                                 long *sum, sched_err *err);

/* The first iteration of the unassigned tail [next, I) (the lost chunks
 * in the pool aside): what the scheme has not handed out yet, offset by
 * where it started (policy_resume, policy_switch). */
long policy_next(const policy *p);
/* The iterations of that tail, I - next. */
long policy_tail(const policy *p);
/* The scheme that plans it (policy_new's, or the latest policy_switch's). */
const sched_type *policy_scheme(const policy *p);

/* Keeps each worker's latest measurement (policy_request_m) whatever the
 * scheme, so that a scheme fed measurements that a policy_switch brings in
 * sizes its first chunks by them (--scheme auto). SCHED_ENOMEM otherwise. */
int policy_measure(policy *p, sched_err *err);

/* A switch of scheme (--scheme auto, sim/select.h): after the start, the
 * unassigned tail [next, I) is planned from now by cfg's scheme (its type
 * and parameters; I, P and A are set here) as a loop of I - next
 * iterations, chunk starts offset by next (as policy_resume's tail); the
 * lost chunks in the pool are still served first, the outstanding chunks
 * stay outstanding. The workers keep their A_i (taken as the new scheme
 * takes them: DTSS the reported A_i, the weighted ones V_i, the others 1),
 * their speeds, their queued requests (re-sorted) and their latest
 * measurements; the new scheme's plan starts from them (an AWF's weights
 * from the chunks done before the switch are not carried over). The
 * scheme's worker count P stays the one of the start. SCHED_EINVAL (not
 * started, no scheme, or cfg's parameters refused for the tail: the
 * message names them) or SCHED_ENOMEM, with nothing changed. */
int policy_switch(policy *p, const sched_config *cfg, sched_err *err);

/* Whether worker w is known and not lost. */
int policy_worker_alive(const policy *p, int w);

/* Late chunks: a chunk outstanding longer than max(factor x its expected
 * time, min) seconds (see the top) is served again to the next request that
 * has nothing else to take. factor = 0: off (the default of a new policy).
 * SCHED_EINVAL for factor < 0, factor in (0, 1), or min < 0. */
int policy_set_late(policy *p, double factor, double min, sched_err *err);
/* The time now, in seconds from any fixed origin, never decreasing: the
 * chunks assigned and the results taken after it are stamped with it. Only
 * late chunks use it. */
void policy_now(policy *p, double now);
/* 1 when worker w held a chunk that was served again as late, and w has not
 * answered since (no result, no request): the master need not wait for it
 * at the end of the run. */
int policy_late_worker(const policy *p, int w);

int policy_finished(const policy *p);       /* every iteration done */
long policy_remaining(const policy *p);     /* iterations not yet done */
int policy_replans(const policy *p);        /* re-plans so far */
double policy_power(const policy *p);       /* total A_i of the last plan */
int policy_alive(const policy *p);          /* workers not lost */
int policy_queued(const policy *p);         /* requests waiting */
/* The ACPSA of the last plan: worker indices by decreasing A_i (n entries
 * returned, only workers with A_i > 0), and each worker's A_i at that plan. */
int policy_acpsa(const policy *p, int *order, double *acp);

/* ---- Tree-Scheduling (Kim & Purtilo, ICPP 1996), see tree.c ---------- */

typedef struct tree tree;

/* Tree-Scheduling of I iterations over n workers of virtual powers V. NULL
 * with err set on bad input or out of memory. */
tree *tree_new(long I, const double *V, int n, sched_err *err);
void tree_free(tree *t);

/* The workers' linear chain: indices by decreasing V (ties by index). */
const int *tree_chain(const tree *t);
/* Worker w's initial range: I split in proportion to V, contiguous ranges
 * in chain order (the largest remainders get the odd iterations); after
 * tree_resume, the first piece of w's share of the iterations not done
 * (size 0: none). */
void tree_range(const tree *t, int w, long *start, long *size);
/* The single partner that an idle worker w asks for work: the next worker
 * down the chain (the next slower one); -1 for the last (the slowest). */
int tree_partner(const tree *t, int w);
/* How many of its 'remaining' iterations a worker gives an idle partner:
 * half, rounded down (0 when it has one left: nothing to split). */
long tree_give(long remaining);

/* Resuming a broken run (the runtime's journal): the n ranges in done were
 * completed before (in any order; none may overlap or leave the loop).
 * Before any other event, once. They count as received; the iterations not
 * done -- the gaps, in the loop's order, taken as one contiguous loop -- are
 * split in proportion to V in chain order as tree_new splits I: a worker's
 * share that spans several gaps is its first piece (tree_range) and pieces
 * queued for it, which tree_recover serves it once it is idle (an idle
 * worker with none of its own takes anyone's first queued piece).
 * SCHED_EINVAL (a bad or overlapping range, called twice or late) or
 * SCHED_ENOMEM, with nothing changed. */
int tree_resume(tree *t, const policy_range *done, long n, sched_err *err);

/* The master's side. Worker w sent the results of [start, start + size):
 * returns SCHED_OK, or SCHED_EINVAL (a duplicate: some of the range is done
 * already, or it lies outside the loop; nothing is counted). */
int tree_result(tree *t, int w, long start, long size, sched_err *err);
/* Worker w's partner had nothing to give: it waits. */
void tree_idle(tree *t, int w);
/* Worker w is gone: what it held is missing until served again. */
void tree_lost(tree *t, int w);
/* What the master hands out after the start. Resumed (tree_resume): an
 * idle worker gets a queued piece (reissue = 0) at once. Iterations lost
 * with a dead worker are served again once every live worker is idle or
 * serving such a range (nothing else is in flight then): 1 with *out
 * (worker, start, size, reissue = 1) for the first missing range not yet
 * served again, to the first idle worker. The id is left to the caller;
 * 0 when there is nothing to serve now; -1 out of memory (err set). Call
 * it until it returns 0. */
int tree_recover(tree *t, policy_chunk *out, sched_err *err);
int tree_finished(const tree *t);
long tree_remaining(const tree *t);     /* iterations not yet done */
int tree_alive(const tree *t);          /* workers not lost */
int tree_busy(const tree *t, int w);    /* not lost, and not idle */

#endif
