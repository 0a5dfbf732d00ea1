/* main.c: bin/worker, the PVM worker (Xu & Chronopoulos Sec. 5.3, worker).
 *
 * Spawned by the coordinator, which sends the job (worker/proto.h):
 *   1. measure Q_i, the processes in this host's run-queue (probe.c), and
 *      compute A_i = V_i / Q_i (sched_acp); with the integer option, while
 *      A_i = 0 measure again;
 *   2. send a request carrying A_i (and the results of the last chunk);
 *   3. wait for a reply: a chunk -> compute its rows, go to 1; stop -> exit.
 * For Tree-Scheduling it computes its own range and trades work with its
 * partners instead (run_tree). A worker whose coordinator exits exits too.
 *
 * `worker --probe` prints this host's load without PVM.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include <pvm3.h>

#include "mandel/mandel.h"
#include "sched/policy.h"
#include "sched/sched.h"
#include "worker/probe.h"
#include "worker/proto.h"

static proto_job job;
static probe prb;
static int parent;

static void die(const char *what, int rc)
{
    fprintf(stderr, "worker %d: %s: %s\n", job.index, what, proto_pvm_strerror(rc));
    pvm_exit();
    exit(1);
}

static char peer_dead[PROTO_MAX_WORKERS];
static int index_of_tid(int tid);

/* A task-exit notice is in the receive buffer: exits if the coordinator is
 * gone, else marks the peer dead. Returns the peer's index, or -1. */
static int exit_notice(void)
{
    int tid, i;
    pvm_upkint(&tid, 1, 1);
    if (tid == parent) {
        fprintf(stderr, "worker %d: the coordinator exited; exiting\n", job.index);
        pvm_exit();
        exit(1);
    }
    if ((i = index_of_tid(tid)) >= 0)
        peer_dead[i] = 1;
    return i;
}

/* Reads pending task-exit notices, every 20 ms at most, so that a worker
 * outlives its coordinator by a row or 20 ms, not a whole chunk. */
static void check_exits(void)
{
    static double last;
    double now = proto_now();
    if (now - last < 0.02)
        return;
    last = now;
    while (pvm_nrecv(-1, TAG_TASKEXIT) > 0)
        exit_notice();
}

/* The next message (waiting for one if 'wait'): its tag and sender; 0 when
 * none is there. */
static int next_message(int wait, int *tag, int *src)
{
    int bufid = wait ? pvm_recv(-1, -1) : pvm_nrecv(-1, -1);
    if (bufid < 0)
        die("pvm_recv", bufid);
    int bytes;
    if (bufid > 0)
        pvm_bufinfo(bufid, &bytes, tag, src);
    return bufid > 0;
}

/* What every state does with a message: stop -> exit; a task-exit notice ->
 * exit_notice. Returns the index of a peer that died, or -1. */
static int common_message(int tag)
{
    if (tag == TAG_STOP) {
        pvm_exit();
        exit(0);
    }
    return tag == TAG_TASKEXIT ? exit_notice() : -1;
}

/* Computes iterations [start, start + size) of the sampled loop into out. */
static void compute(long start, long size, uint32_t *out)
{
    const mandel_params *im = &job.image;
    for (long k = start; k < start + size; k++) {
        long row = mandel_sample_row(k, im->height, job.sample);
        mandel_row(im, (int)row, out + (size_t)(k - start) * (size_t)im->width);
        check_exits();
    }
}

/* ---- self-scheduling ------------------------------------------------------ */

static int measure(double *A)
{
    char msg[256];
    int q = probe_queue(&prb, msg, sizeof msg);
    if (q < 0) {
        fprintf(stderr, "worker %d: load probe: %s\n", job.index, msg);
        q = 1;
    }
    *A = sched_acp(job.V, q, prb.cpus, job.acp_integer);
    return q;
}

static void run_self(void)
{
    const int W = job.image.width;
    proto_result res = {0};
    int have_result = 0, hello = 1;
    res.counts = malloc(sizeof(uint32_t) * (size_t)W);   /* grows per chunk */
    long cap = 1;
    char host[256] = "";
    gethostname(host, sizeof host - 1);

    for (;;) {
        double A;
        int Q = measure(&A);
        if (!(A > 0) && !hello) {
            /* The paper's integer A_i = 0: wait and measure again. */
            struct timeval tv = {0, 200000};
            int bufid = pvm_trecv(-1, -1, &tv);   /* a stop, or an exit notice */
            if (bufid > 0) {
                int bytes, tag, src;
                pvm_bufinfo(bufid, &bytes, &tag, &src);
                common_message(tag);
            }
            continue;
        }
        double t_measure = proto_now();
        pvm_initsend(PvmDataDefault);
        pvm_pkint(&job.index, 1, 1);
        pvm_pkint(&Q, 1, 1);
        pvm_pkdouble(&A, 1, 1);
        pvm_pkdouble(&t_measure, 1, 1);
        pvm_pkint(&hello, 1, 1);
        if (hello) {
            pvm_pkstr(host);
            pvm_pkstr(prb.cgroup);
            pvm_pkstr((char *)probe_backend_name(prb.backend));
        }
        if (proto_pack_results(&res, have_result, W) < 0)
            die("packing results", -1);
        int rc = pvm_send(parent, TAG_REQUEST);
        if (rc < 0)
            die("pvm_send(request)", rc);
        have_result = 0;
        hello = 0;
        if (!(A > 0))
            continue;

        for (;;) {                              /* wait for the reply */
            int tag, src;
            next_message(1, &tag, &src);
            if (tag != TAG_WORK) {
                common_message(tag);
                continue;
            }
            long w[3];
            pvm_upklong(w, 3, 1);
            res.id = w[0];
            res.start = w[1];
            res.size = w[2];
            res.t_recv = proto_now();
            if (res.size > cap) {
                uint32_t *c = realloc(res.counts, sizeof(uint32_t) *
                                                  (size_t)res.size * (size_t)W);
                if (!c)
                    die("out of memory for a chunk", PvmNoMem);
                res.counts = c;
                cap = res.size;
            }
            res.t_start = proto_now();
            compute(res.start, res.size, res.counts);
            res.t_end = proto_now();
            have_result = 1;
            break;
        }
    }
}

/* ---- Tree-Scheduling ------------------------------------------------------- */

static int index_of_tid(int tid)
{
    for (int i = 0; i < job.nworkers; i++)
        if (job.tids[i] == tid)
            return i;
    return -1;
}

static void send_give(int to, long start, long size)
{
    long g[2] = {start, size};
    pvm_initsend(PvmDataDefault);
    pvm_pklong(g, 2, 1);
    pvm_send(job.tids[to], TAG_GIVE);
}

/* A peer asks for work while we hold [*cur, *end): give it the upper half. */
static void answer_steal(long cur, long *end)
{
    int from;
    pvm_upkint(&from, 1, 1);
    if (from < 0 || from >= job.nworkers)
        return;
    long give = tree_give(*end - cur);
    send_give(from, *end - give, give);
    *end -= give;
}

static void send_result(const proto_result *r)
{
    pvm_initsend(PvmDataDefault);
    pvm_pkint(&job.index, 1, 1);
    if (proto_pack_results(r, 1, job.image.width) < 0)
        die("packing results", -1);
    int rc = pvm_send(parent, TAG_RESULT);
    if (rc < 0)
        die("pvm_send(result)", rc);
}

static void run_tree(void)
{
    const int W = job.image.width;
    long cur = job.start, end = job.start + job.size;
    long piece_id = -1;             /* the coordinator's id for a WORK range */
    double t_recv = proto_now();
    uint32_t *buf = malloc(sizeof(uint32_t) * (size_t)(job.image.height + 1) *
                           (size_t)W);
    if (!buf)
        die("out of memory for the image rows", PvmNoMem);
    for (int i = 0; i < job.nworkers; i++)
        if (i != job.index)
            pvm_notify(PvmTaskExit, TAG_TASKEXIT, 1, &job.tids[i]);

    for (;;) {
        if (cur < end) {                        /* work on our range */
            proto_result r = {.id = piece_id, .start = cur, .t_recv = t_recv,
                              .t_start = proto_now(), .counts = buf};
            while (cur < end) {
                compute(cur, 1, buf + (size_t)(cur - r.start) * (size_t)W);
                cur++;
                int tag, src;
                while (next_message(0, &tag, &src)) {
                    if (tag == TAG_STEAL)
                        answer_steal(cur, &end);
                    else
                        common_message(tag);
                }
            }
            r.size = cur - r.start;
            r.t_end = proto_now();
            send_result(&r);
            piece_id = -1;
        }
        /* Idle: ask the partner, until it has nothing to give. */
        int got = 0;
        int p = tree_partner(job.chain, job.nworkers, job.index);
        if (p >= 0 && !peer_dead[p]) {
            pvm_initsend(PvmDataDefault);
            pvm_pkint(&job.index, 1, 1);
            pvm_send(job.tids[p], TAG_STEAL);
            for (;;) {
                int tag, src;
                next_message(1, &tag, &src);
                if (tag == TAG_GIVE && src == job.tids[p]) {
                    long g[2];
                    pvm_upklong(g, 2, 1);
                    if (g[1] > 0) {
                        cur = g[0];
                        end = g[0] + g[1];
                        t_recv = proto_now();
                        got = 1;
                    }
                    break;
                }
                if (tag == TAG_STEAL) {
                    long none = 0;
                    answer_steal(0, &none);     /* nothing to give */
                } else if (common_message(tag) == p)
                    break;                      /* no answer will come */
            }
        }
        if (got)
            continue;
        /* Nothing more from the partner: tell the coordinator, wait. */
        pvm_initsend(PvmDataDefault);
        pvm_pkint(&job.index, 1, 1);
        pvm_send(parent, TAG_IDLE);
        for (;;) {
            int tag, src;
            next_message(1, &tag, &src);
            if (tag == TAG_STEAL) {
                long none = 0;
                answer_steal(0, &none);
            } else if (tag == TAG_WORK) {           /* rows of a lost worker */
                long w[3];
                pvm_upklong(w, 3, 1);
                piece_id = w[0];
                cur = w[1];
                end = w[1] + w[2];
                t_recv = proto_now();
                break;
            } else
                common_message(tag);
        }
    }
}

/* ---- main ------------------------------------------------------------------- */

static int probe_mode(probe_backend b)
{
    char msg[256], host[256] = "";
    if (probe_init(&prb, b, msg, sizeof msg) != 0) {
        fprintf(stderr, "worker: %s\n", msg);
        return 1;
    }
    int q = probe_queue(&prb, msg, sizeof msg);
    if (q < 0) {
        fprintf(stderr, "worker: %s\n", msg);
        return 1;
    }
    gethostname(host, sizeof host - 1);
    printf("host=%s backend=%s cgroup=%s Q=%d cpus=%d\n", host,
           probe_backend_name(prb.backend), prb.cgroup, q, prb.cpus);
    return 0;
}

int main(int argc, char **argv)
{
    probe_backend b = PROBE_AUTO;
    int probe_only = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--probe") == 0)
            probe_only = 1;
        else if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc) {
            if (probe_backend_parse(argv[++i], &b) != 0) {
                fprintf(stderr, "worker: --backend '%s': use auto, proc or cgroup\n",
                        argv[i]);
                return 2;
            }
        } else if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
            printf("usage: worker --probe [--backend auto|proc|cgroup]\n"
                   "  prints this host's name, probe back-end, cpu cgroup and Q,\n"
                   "  the processes in its run-queue (the probe counts itself).\n"
                   "Otherwise the worker runs only as a PVM task spawned by\n"
                   "bin/coordinator, which sends it its job.\n");
            return 0;
        } else {
            fprintf(stderr, "worker: unknown argument '%s' (try --help)\n", argv[i]);
            return 2;
        }
    }
    if (probe_only)
        return probe_mode(b);

    pvm_setopt(PvmAutoErr, 0);
    int me = pvm_mytid();
    if (me < 0) {
        fprintf(stderr, "worker: no PVM daemon (pvm_mytid: %s); workers are "
                "spawned by bin/coordinator\n", proto_pvm_strerror(me));
        return 1;
    }
    parent = pvm_parent();
    if (parent < 0) {
        fprintf(stderr, "worker: not spawned by a coordinator (pvm_parent: %s); "
                "run bin/coordinator, or worker --probe\n", proto_pvm_strerror(parent));
        pvm_exit();
        return 1;
    }
    pvm_notify(PvmTaskExit, TAG_TASKEXIT, 1, &parent);
    for (;;) {                                  /* wait for the job */
        int tag, src;
        next_message(1, &tag, &src);
        if (tag == TAG_START)
            break;
        common_message(tag);
    }
    char msg[256];
    if (proto_unpack_job(&job, msg, sizeof msg) != 0 ||
        mandel_check(&job.image, msg, sizeof msg) != 0) {
        fprintf(stderr, "worker: bad job: %s\n", msg);
        pvm_exit();
        return 1;
    }
    if (probe_init(&prb, (probe_backend)job.probe, msg, sizeof msg) != 0) {
        fprintf(stderr, "worker %d: %s\n", job.index, msg);
        pvm_exit();
        return 1;
    }
    if (job.tree)
        run_tree();
    else
        run_self();
    pvm_exit();
    return 0;
}
