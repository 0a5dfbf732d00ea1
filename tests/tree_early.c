/* tree_early.c: a Tree-Scheduling worker asked for work before its own job
 * came (runtime/loop/worker_tree.c). The master sends the jobs one by one, and
 * PVM orders messages only between two tasks, so a fast worker's STEAL can
 * reach its partner ahead of the partner's JOB; the partner once dropped it
 * and the thief waited for ever (seen on the emulated Table 2 cluster with
 * the loop over columns: w1's cheap range done in 3 ms, then idle).
 *
 * And a request while the worker computes, between two lines that each end
 * in a cheap span: the worker's look for exits (dtss_worker_cancelled, which
 * bin/worker asks before each span) once shared its clock with the look for
 * requests, which then skipped every such line -- a slow worker never
 * answered its partner (w4 idle on the same cluster while w1 computed).
 *
 * This program plays the master and the thief of one worker:
 *  1. bin/integral: a STEAL first, then the JOB (its range: 0..99); expects
 *     the upper half, 50..99, as a GIVE; then the results for 0..49, IDLE,
 *     and a STOP ends it.
 *  2. bin/worker on a 3 x 30 Mandelbrot image whose rows are two points of
 *     the set (x = -0.8 and -0.2; maxiter 2^24: a span of one pixel, some
 *     45 ms, so the worker looks for exits before each) and a third that
 *     escapes at once (x = 0.4): the JOB, then 0.2 s later a STEAL; expects
 *     a GIVE of part of the 30 rows (the old worker answered only when its
 *     range was done: nothing to give).
 * Run under a pvmd with bin/ in its search path (tests/pvm.sh).
 * tests/test.h's lines: a FAIL line a failed check, then "N passed, N
 * failed"; exit 0 when every check passed, 1 otherwise, 2 when it cannot run. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "mandel/mandel.h"
#include "runtime/core/wire.h"
#include "tests/test.h"

#define EXITED (-2)     /* next(): the worker exited */

static tr_event ev;     /* the last event */

/* The next event within 20 s (the worker's message, or its exit): the
 * message's tag, EXITED, or -1. */
static int next(void)
{
    char msg[256];
    if (tr_recv(TR_ANY, TR_ANY, 20, &ev, msg, sizeof msg) < 0 || ev.kind == TR_TIMEOUT)
        return -1;
    return ev.kind == TR_MESSAGE ? ev.tag : ev.kind == TR_PEER_EXIT ? EXITED : -1;
}

/* Spawns prog as a libdtss worker: its peer, or -1. */
static int spawn(const char *prog)
{
    char *args[] = {"--dtss-worker", NULL}, msg[512];
    tr_peer tid;
    if (tr_spawn(prog, args, NULL, &tid, msg, sizeof msg) < 0 ||
        tr_watch_exit(&tid, 1, msg, sizeof msg) < 0) {
        fprintf(stderr, "tree_early: cannot spawn %s: %s\n", prog, msg);
        return -1;
    }
    return tid;
}

/* Reads the worker's messages until it is idle: whether its results were
 * the range [0, end). */
static int results_then_idle(int end, int *idle)
{
    int tag, result = 0;
    char msg[256];
    *idle = 0;
    while (!*idle && (tag = next()) >= 0) {
        if (tag == WIRE_RESULT) {
            int index;
            wire_result r;
            if (wire_unpack_result(&ev, &index, &r, msg, sizeof msg) == 0) {
                result = index == 0 && r.start == 0 && r.size == end;
                wire_result_free(&r);
            }
        } else if (tag == WIRE_IDLE) {
            *idle = 1;
        }
    }
    return result;
}

/* A STOP, and the worker's exit. */
static void stop(int tid, const char *name)
{
    char msg[256];
    wire_send_stop(tid, msg, sizeof msg);
    int tag = next();
    test_condf(tag == EXITED, "%s: a STOP ends it", name);
    if (tag != EXITED)
        tr_kill(tid);
}

int main(int argc, char **argv)
{
    const char *integral = argc > 1 ? argv[1] : "integral";
    const char *mworker = argc > 2 ? argv[2] : "worker";
    char msg[256];
    int me, tid, tag, idle;
    if (tr_join(&me, msg, sizeof msg) < 0) {
        fprintf(stderr, "tree_early: %s\n", msg);
        return 2;
    }

    /* 1. The request before the job. Index 0 is the worker, 1 this thief;
     * the chain 1, 0: the thief's partner is the worker, the worker has
     * none. */
    if ((tid = spawn(integral)) < 0) {
        tr_leave();
        return 2;
    }
    int chain[] = {1, 0}, tids[] = {tid, me};
    wire_job job = {.index = 0, .nworkers = 2, .tree = 1, .sample = 1, .iters = 100,
                    .V = 1, .chain = chain, .tids = tids, .start = 0, .size = 100};
    int sent = wire_send_steal(tid, 1, msg, sizeof msg) == 0 &&
               wire_send_job(tid, &job, msg, sizeof msg) == 0;
    test_cond("early: the STEAL, then the JOB, sent", sent);
    long start = -1, size = -1;
    tag = sent ? next() : -1;
    test_cond("early: the worker answers the STEAL that came before its job",
              tag == WIRE_GIVE && wire_unpack_give(&ev, &start, &size, msg, sizeof msg) == 0);
    test_condf(start == 50 && size == 50, "early: ... with the upper half of its range, "
               "50..99 (got %ld, %ld)", start, size);
    test_cond("early: its results, the lower half, 0..49", results_then_idle(50, &idle));
    test_cond("early: then it says it is idle", idle);
    stop(tid, "early");

    /* 2. The request between lines that end in a cheap span. */
    mandel_params p = {.width = 3, .height = 30, .maxiter = 1u << 24, .xmin = -1.1,
                       .xmax = 0.7, .ymin = -0.01, .ymax = 0.01};
    char text[MANDEL_JOB_MAX];
    int n = mandel_encode(&p, text, sizeof text);
    if (n < 0 || (tid = spawn(mworker)) < 0) {
        tr_leave();
        return 2;
    }
    tids[0] = tid;
    job.iters = job.size = p.height;
    job.data = text;
    job.len = (size_t)n;
    sent = wire_send_job(tid, &job, msg, sizeof msg) == 0;
    nanosleep(&(struct timespec){0, 200000000}, NULL);
    sent = sent && wire_send_steal(tid, 1, msg, sizeof msg) == 0;
    test_cond("busy: the JOB, then a STEAL 0.2 s later, sent", sent);
    start = size = -1;
    while (sent && (tag = next()) >= 0 && tag != WIRE_GIVE)
        ;                                       /* (a result comes only at the end) */
    test_cond("busy: the worker answers the STEAL",
              tag == WIRE_GIVE && wire_unpack_give(&ev, &start, &size, msg, sizeof msg) == 0);
    test_condf(size > 0 && start + size == p.height, "busy: ... while it computes: part "
               "of its 30 rows, the upper ones (got %ld, %ld)", start, size);
    test_cond("busy: its results, the rows it kept", results_then_idle((int)start, &idle));
    test_cond("busy: then it says it is idle", idle);
    stop(tid, "busy");
    tr_leave();
    return test_report();
}
