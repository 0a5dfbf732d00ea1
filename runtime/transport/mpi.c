/* mpi.c: the MPI transport (transport.h) -- the only file of libdtss-mpi
 * that includes mpi.h. Written on Open MPI 4.1 (Debian's openmpi-bin); it
 * uses MPI-2 calls only.
 *
 * The world is fixed: mpirun (or srun) starts every process. Rank 0 is the
 * master; the others wait in tr_join_worker until the master "spawns" them:
 * tr_spawn on host H wakes the next waiting rank whose processor name is H
 * (a START message) and returns its rank as the peer. Ranks the run does not
 * use are sent STOP when the master's process exits, and end there, in
 * tr_join_worker, with exit status 0 (without returning to the program: an
 * application need not know of them).
 *
 * A peer is a rank of MPI_COMM_WORLD; a host a distinct processor name
 * (MPI_Get_processor_name), its id the index of its first appearance.
 * tr_hosts lists one entry per rank, rank 0's first, so that the models'
 * "every host but the master's" means every worker rank and "--local N" N
 * ranks on the master's host. A host's speed is unknown (0) until
 * tr_measure_speeds times a fixed kernel on it.
 *
 * No busy waiting: a blocking MPI receive spins at 100% of a core, which on
 * an emulated host spends the CPU share of the worker beside it. tr_recv
 * polls with MPI_Iprobe: for the first 1 ms of a wait between yields of the
 * CPU (sched_yield), then sleeping growing from 10 us to 1 ms between polls
 * (an idle master wakes 1000 times a second; a reply that comes while it
 * sleeps waits at most 1 ms, plus the time the system takes to wake it).
 * Measured (tests/bench_mpi.sh): sleeping from the start of a wait made a
 * chunk's round trip 1.0-1.3 ms on this VM (a sleeping rank wakes 0.1-0.8 ms
 * late), 3-4 us with the 1 ms of yields; an idle master 0.6-0.8% of a core
 * either way.
 *
 * Sends never block: a message is copied and sent with MPI_Isend (two
 * workers exchanging strips' halos at once would deadlock with MPI_Send
 * past the eager limit); its buffer is freed once the send completes. A
 * message is an 8-byte length (fixed order, little end first) and its bytes,
 * in frames of at most 1 GiB on one tag and the rest on TAG_CONT.
 *
 * Without ULFM (Open MPI 4.1 has none) only orderly exits are reported: a
 * worker's tr_leave (or its end on KILL) sends BYE, which the master's
 * tr_recv returns as that peer's TR_PEER_EXIT. A killed rank ends the job
 * (mpirun's doing). tr_kill sends KILL: the rank, at its next
 * call into the transport, says BYE, cancels what it still sends and
 * waits in MPI_Finalize. A worker that never says BYE (hung, stopped)
 * cannot be ended alone, and MPI_Finalize would wait for it for ever: when
 * the master's process exits it waits 2 s for the last BYEs, then ends the
 * job with MPI_Abort and its own exit status (mpirun then exits with that
 * status, after a banner on stderr).
 */
#define _DEFAULT_SOURCE         /* on_exit, kill */
#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <mpi.h>

#include "runtime/transport/transport.h"
#include "sched/util/conv.h"
#include "sched/util/quote.h"

/* The transport's own tags: above every tag of the runtime (wire.h's run
 * below 2000; a model outside the library uses WIRE_USER + k). MPI
 * guarantees tags up to 32767. */
enum {
    TAG_START = 32000,  /* master -> idle rank: you are a worker now */
    TAG_STOP,           /* master -> idle rank: not needed, end */
    TAG_KILL,           /* master -> worker: end (tr_kill) */
    TAG_MEASURE,        /* master -> idle rank: time the kernel */
    TAG_SPEED,          /* idle rank -> master: its rate */
    TAG_BYE,            /* worker -> master: left the run (tr_leave) */
    TAG_END,            /* master -> every rank: finalize now */
    TAG_CONT            /* the frames of a message past its first */
};
#define FRAME ((size_t)1 << 30)
#define MEASURE_S 0.2   /* two CPU periods of an emulated host (100 ms) */
#define ACK_WAIT_S 2.0
#define SPIN_S 1e-3     /* the start of a wait spent polling (yielding the CPU) */

enum rank_state { R_IDLE, R_WORKER, R_KILLED, R_GONE, R_SELF };

typedef struct pending {
    MPI_Request req;
    unsigned char *buf;
} pending;

static int up;                  /* MPI_Init done here (or before us) */
static int rank, size;
static char (*pname)[MPI_MAX_PROCESSOR_NAME];   /* every rank's processor name */
static int *hostid;             /* every rank's host id */
static int *pid;                /* every rank's process id */
static unsigned char *state;    /* the master's view of every rank (enum rank_state) */
static tr_host *hosts;          /* tr_hosts' array */
static int *speeds;             /* per host id: 0 unknown */
static unsigned char *rx;       /* the last message's bytes */
static size_t rx_cap;
/* Messages received ahead (poll_for, any tag): at most one per source at a
 * time, so that a source's messages keep their order, and a large one
 * coming over a slow link does not keep the others waiting: a blocking
 * receive of a 700 KB result at 10 Mbit/s held the master up for 0.6 s,
 * every other worker waiting behind it (PVM's daemons receive for it). */
enum { IN_IDLE, IN_ACTIVE, IN_DONE };
typedef struct inbox {
    int state;                  /* IN_*: free, receiving, received */
    int tag, count;
    unsigned char *buf;
    size_t cap;
    MPI_Request req;
} inbox;
static inbox *inb;              /* per rank */
static int nbusy;               /* inboxes not free */
static int turn;                /* where inbox_ready looks first (fairness) */
static int taken_from = -1;     /* the inbox poll_for last returned, for take */
static pending *out;            /* sends not known complete */
static int nout, out_cap;
static int killed_here;         /* a worker: KILL came */
static int said_bye;            /* a worker: BYE sent */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Sleeps s seconds (0 <= s <= 1 ms here: clamped). */
static void nap(double s)
{
    struct timespec ts = {0, conv_clamp(s * 1e9, 0, 999999999)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

const char *tr_name(void)
{
    return "mpi";
}

unsigned tr_caps(void)
{
    return TR_CAN_SPAWN | TR_FIXED_WORLD;
}

int tr_max_peers(void)
{
    return 1 << 20;             /* what the launcher started, checked at tr_spawn */
}

const char *tr_strerror(int rc)
{
    static char text[MPI_MAX_ERROR_STRING];
    int n = 0;
    if (rc < 0 && MPI_Error_string(-rc, text, &n) == MPI_SUCCESS)
        return text;
    return "MPI error";
}

static int fail(int code, char *msg, size_t len, const char *what)
{
    snprintf(msg, len, "%s: %s", what, tr_strerror(-code));
    return code > 0 ? -code : -1;
}

static void at_exit(int status, void *arg);

/* MPI_Init once (MPI_Init with no arguments: MPI-2), then every rank's
 * processor name. 0, or a negative code with msg. */
static int start(char *msg, size_t len)
{
    if (up)
        return 0;
    int inited = 0, rc;
    MPI_Initialized(&inited);
    if (!inited && (rc = MPI_Init(NULL, NULL)) != MPI_SUCCESS)
        return fail(rc, msg, len, "MPI_Init");
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    pname = calloc((size_t)size, sizeof *pname);
    hostid = calloc((size_t)size, sizeof *hostid);
    state = calloc((size_t)size, 1);
    speeds = calloc((size_t)size, sizeof *speeds);
    pid = calloc((size_t)size, sizeof *pid);
    inb = calloc((size_t)size, sizeof *inb);
    if (!pname || !hostid || !state || !speeds || !pid || !inb) {
        snprintf(msg, len, "out of memory for %d ranks", size);
        return -1;
    }
    char mine[MPI_MAX_PROCESSOR_NAME] = "";
    int n = 0;
    MPI_Get_processor_name(mine, &n);
    rc = MPI_Allgather(mine, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, pname, MPI_MAX_PROCESSOR_NAME,
                       MPI_CHAR, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS)
        return fail(rc, msg, len, "MPI_Allgather (the ranks' host names)");
    int me = (int)getpid();
    rc = MPI_Allgather(&me, 1, MPI_INT, pid, 1, MPI_INT, MPI_COMM_WORLD);
    if (rc != MPI_SUCCESS)
        return fail(rc, msg, len, "MPI_Allgather (the ranks' process ids)");
    for (int r = 0; r < size; r++) {
        pname[r][MPI_MAX_PROCESSOR_NAME - 1] = '\0';
        hostid[r] = r;
        for (int q = 0; q < r; q++)
            if (strcmp(pname[q], pname[r]) == 0) {
                hostid[r] = hostid[q];
                break;
            }
    }
    state[0] = R_SELF;
    up = 1;
    return 0;
}

/* The end of every process is watched from its start (before main): a
 * master that ends before it called into libdtss (its --help, a bad option)
 * joins the world then and stops its workers, which would otherwise wait in
 * MPI_Init's exchange for ever. (Not MPI_Init itself before main: a program
 * may execute itself again first, as bin/matrix does, and MPI cannot be
 * started twice in one process.) */
__attribute__((constructor)) static void watch_exit(void)
{
    on_exit(at_exit, NULL);
}

int tr_launched_worker(void)
{
    char msg[256];
    if (start(msg, sizeof msg) < 0) {
        fprintf(stderr, "dtss: %s\n", msg);
        return 0;
    }
    return rank != 0;
}

/* ---- sending ---- */

/* Frees the buffers of completed sends. */
static void reap(void)
{
    for (int i = 0; i < nout;) {
        int done = 0;
        MPI_Test(&out[i].req, &done, MPI_STATUS_IGNORE);
        if (done) {
            free(out[i].buf);
            out[i] = out[--nout];
        } else
            i++;
    }
}

static int post(int to, int tag, unsigned char *buf, size_t n, char *msg, size_t len)
{
    if (nout == out_cap) {
        int cap = out_cap ? 2 * out_cap : 16;
        pending *p = realloc(out, sizeof *p * (size_t)cap);
        if (!p) {
            free(buf);
            snprintf(msg, len, "out of memory for a send");
            return -1;
        }
        out = p;
        out_cap = cap;
    }
    int rc = MPI_Isend(buf, (int)n, MPI_BYTE, to, tag, MPI_COMM_WORLD, &out[nout].req);
    if (rc != MPI_SUCCESS) {
        free(buf);
        char what[96];
        snprintf(what, sizeof what, "MPI_Isend(tag %d) to rank %d", tag, to);
        return fail(rc, msg, len, what);
    }
    out[nout++].buf = buf;
    return 0;
}

static int send_bytes(int to, int tag, const void *data, size_t n, char *msg, size_t len)
{
    size_t first = n < FRAME - 8 ? n : FRAME - 8;
    unsigned char *b = malloc(first + 8);
    if (!b) {
        snprintf(msg, len, "out of memory for a message of %zu bytes", n);
        return -1;
    }
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)((uint64_t)n >> (8 * i));
    if (first)
        memcpy(b + 8, data, first);
    int rc = post(to, tag, b, first + 8, msg, len);
    for (size_t at = first; rc == 0 && at < n; at += FRAME) {
        size_t k = n - at < FRAME ? n - at : FRAME;
        unsigned char *c = malloc(k);
        if (!c) {
            snprintf(msg, len, "out of memory for a message of %zu bytes", n);
            return -1;
        }
        memcpy(c, (const char *)data + at, k);
        rc = post(to, TAG_CONT, c, k, msg, len);
    }
    return rc;
}

static void send_empty(int to, int tag)
{
    char msg[256];
    send_bytes(to, tag, NULL, 0, msg, sizeof msg);
}

/* ---- receiving ---- */

/* Starts receiving the probed message st into its source's inbox. */
static int receive_ahead(const MPI_Status *st, char *msg, size_t len)
{
    inbox *b = &inb[st->MPI_SOURCE];
    int count = 0;
    MPI_Get_count(st, MPI_BYTE, &count);
    if ((size_t)count > b->cap) {
        unsigned char *p = realloc(b->buf, (size_t)count);
        if (!p) {
            snprintf(msg, len, "out of memory for a message of %d bytes", count);
            return -1;
        }
        b->buf = p;
        b->cap = (size_t)count;
    }
    int rc = MPI_Irecv(b->buf, count, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, MPI_COMM_WORLD,
                       &b->req);
    if (rc != MPI_SUCCESS)
        return fail(rc, msg, len, "MPI_Irecv");
    b->state = IN_ACTIVE;
    b->tag = st->MPI_TAG;
    b->count = count;
    nbusy++;
    return 0;
}

/* A message received ahead, whole, matching (src, tag): 1 with *st (its
 * source and tag; take gives its bytes), else 0. */
static int inbox_ready(int src, int tag, MPI_Status *st)
{
    for (int k = 0; k < size; k++) {
        int r = (turn + k) % size, flag = 0;
        inbox *b = &inb[r];
        if (b->state == IN_ACTIVE && MPI_Test(&b->req, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS &&
            flag)
            b->state = IN_DONE;
        if (b->state == IN_DONE && (src == MPI_ANY_SOURCE || src == r) &&
            (tag == MPI_ANY_TAG || tag == b->tag)) {
            st->MPI_SOURCE = r;
            st->MPI_TAG = b->tag;
            taken_from = r;
            turn = r + 1;
            return 1;
        }
    }
    return 0;
}

/* Receives the probed message st (its frames) into rx: from its inbox when
 * poll_for received it ahead. */
static int take(const MPI_Status *st, size_t *n, char *msg, size_t len)
{
    int count = 0, rc;
    if (taken_from >= 0 && st->MPI_SOURCE == taken_from && inb[taken_from].state == IN_DONE &&
        inb[taken_from].tag == st->MPI_TAG) {
        inbox *b = &inb[taken_from];
        unsigned char *p = rx;
        size_t c = rx_cap;
        rx = b->buf;                    /* the bytes change hands, not places */
        rx_cap = b->cap;
        b->buf = p;
        b->cap = c;
        count = b->count;
        b->state = IN_IDLE;
        nbusy--;
        taken_from = -1;
    } else {
        MPI_Get_count(st, MPI_BYTE, &count);
        if ((size_t)count > rx_cap || rx_cap < 8) {
            size_t cap = (size_t)count > 8 ? (size_t)count : 8;
            unsigned char *p = realloc(rx, cap);
            if (!p) {
                snprintf(msg, len, "out of memory for a message of %d bytes", count);
                return -1;
            }
            rx = p;
            rx_cap = cap;
        }
        rc = MPI_Recv(rx, count, MPI_BYTE, st->MPI_SOURCE, st->MPI_TAG, MPI_COMM_WORLD,
                      MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return fail(rc, msg, len, "MPI_Recv");
    }
    uint64_t total = 0;
    for (int i = 0; i < 8 && i < count; i++)
        total |= (uint64_t)rx[i] << (8 * i);
    if (count < 8 || total < (uint64_t)count - 8 || total > SIZE_MAX - 8) {
        snprintf(msg, len, "a message of tag %d from rank %d (%d bytes) without its length",
                 st->MPI_TAG, st->MPI_SOURCE, count);
        return -1;
    }
    memmove(rx, rx + 8, (size_t)count - 8);
    size_t have = (size_t)count - 8;
    if (total > rx_cap) {
        unsigned char *p = realloc(rx, (size_t)total);
        if (!p) {
            snprintf(msg, len, "out of memory for a message of %llu bytes",
                     (unsigned long long)total);
            return -1;
        }
        rx = p;
        rx_cap = (size_t)total;
    }
    while (have < total) {
        size_t k = total - have < FRAME ? total - have : FRAME;
        rc = MPI_Recv(rx + have, (int)k, MPI_BYTE, st->MPI_SOURCE, TAG_CONT, MPI_COMM_WORLD,
                      MPI_STATUS_IGNORE);
        if (rc != MPI_SUCCESS)
            return fail(rc, msg, len, "MPI_Recv (a message's next frame)");
        have += k;
    }
    *n = (size_t)total;
    return 0;
}

/* A rank other than the master at its end: its sends complete, then it
 * waits for the master's END (not inside MPI_Finalize: at_exit says why)
 * and finalizes. */
static int poll_for(int src, int tag, double deadline, MPI_Status *st, char *msg, size_t len);

static void finish_worker(void)
{
    char msg[256];
    MPI_Status st;
    size_t n;
    int ended = 0;
    while (!ended || nout > 0) {
        reap();
        if (ended) {
            nap(1e-3);
            continue;
        }
        int rc = poll_for(0, MPI_ANY_TAG, nout ? now() + 1e-3 : -1, &st, msg, sizeof msg);
        if (rc < 0)
            break;
        ended = rc == 1 && take(&st, &n, msg, sizeof msg) == 0 && st.MPI_TAG == TAG_END;
    }
    MPI_Finalize();
}

/* A worker told to end: says BYE, drops what it still sends, and waits
 * for the master's END; never returns. */
static void die(void)
{
    if (killed_here)
        return;                 /* (a second KILL, while it waits for END) */
    killed_here = 1;
    for (int i = 0; i < nout; i++) {
        MPI_Cancel(&out[i].req);
        MPI_Request_free(&out[i].req);
    }
    nout = 0;
    unsigned char b[8] = {0};
    MPI_Request r;
    MPI_Isend(b, 8, MPI_BYTE, 0, TAG_BYE, MPI_COMM_WORLD, &r);
    MPI_Wait(&r, MPI_STATUS_IGNORE);
    finish_worker();
    _exit(0);
}

/* A message of the transport's own tags handled here (KILL; a stray
 * frame): 1 if st was one. */
static int own(const MPI_Status *st)
{
    size_t n;
    char msg[256];
    if (st->MPI_TAG != TAG_KILL && st->MPI_TAG != TAG_CONT)
        return 0;                           /* the caller's (or tr_join_worker's) */
    take(st, &n, msg, sizeof msg);
    if (st->MPI_TAG == TAG_KILL && st->MPI_SOURCE == 0 && rank != 0)
        die();
    return 1;
}

/* Polls for a message matching (src, tag) until the deadline (< 0: none;
 * now: one poll), handling the transport's own; 1 with *st, 0 at the
 * deadline, < 0 an error. For any tag, messages are received ahead (the
 * inboxes), each source's one at a time, and the first whole one is
 * returned; for one tag, the probed message is returned (take receives
 * it). */
static int poll_for(int src, int tag, double deadline, MPI_Status *st, char *msg, size_t len)
{
    double wait = 10e-6, spin_from = now();
    for (;;) {
        int flag = 0, rc;
        reap();
        /* a KILL first: it may come while the worker waits on one tag */
        if (rank != 0 && tag != MPI_ANY_TAG) {
            MPI_Status o;
            rc = MPI_Iprobe(0, TAG_KILL, MPI_COMM_WORLD, &flag, &o);
            if (rc == MPI_SUCCESS && flag)
                own(&o);
        }
        if (nbusy && inbox_ready(src, tag, st))
            return 1;
        if (tag != MPI_ANY_TAG || nbusy == 0) {
            rc = MPI_Iprobe(src, tag, MPI_COMM_WORLD, &flag, st);
            if (rc != MPI_SUCCESS)
                return fail(rc, msg, len, "MPI_Iprobe");
            if (flag && own(st))
                continue;
            if (flag && tag != MPI_ANY_TAG) {
                taken_from = -1;
                return 1;
            }
            if (flag) {
                if (receive_ahead(st, msg, len) < 0)
                    return -1;
                continue;               /* (whole at once, if it was small) */
            }
        } else {
            /* a message from a source with none in hand (a source's next
             * waits for its last to be taken: they keep their order) */
            int got = 0;
            for (int r = 0; r < size; r++) {
                MPI_Status o;
                if ((src != MPI_ANY_SOURCE && r != src) || r == rank || inb[r].state != IN_IDLE)
                    continue;
                rc = MPI_Iprobe(r, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, &o);
                if (rc != MPI_SUCCESS)
                    return fail(rc, msg, len, "MPI_Iprobe");
                if (!flag || own(&o))
                    continue;
                if (receive_ahead(&o, msg, len) < 0)
                    return -1;
                got = 1;
            }
            if (got)
                continue;
        }
        double t = now();
        if (deadline >= 0 && t >= deadline)
            return 0;
        if (t - spin_from < SPIN_S) {
            sched_yield();
            continue;
        }
        double s = deadline >= 0 && deadline - t < wait ? deadline - t : wait;
        nap(s);
        wait = wait * 2 < 1e-3 ? wait * 2 : 1e-3;
    }
}

/* ---- joining ---- */

int tr_join(tr_peer *me, char *msg, size_t len)
{
    if (start(msg, len) < 0)
        return -1;
    if (rank != 0) {
        snprintf(msg, len, "rank %d of %d cannot be the master: under MPI rank 0 is the "
                 "master and the other ranks its workers", rank, size);
        return -1;
    }
    *me = 0;
    return 0;
}

/* Times the kernel for MEASURE_S: its rate, loops a second (wall clock, so
 * that a CPU share counts). */
static double measure(void)
{
    volatile double x = 1.0;
    double t0 = now(), t = t0;
    long loops = 0;
    while (t - t0 < MEASURE_S) {
        for (int k = 0; k < 100000; k++)
            x = x * 1.0000001 + 1e-9;
        loops++;
        t = now();
    }
    return (double)loops / (t - t0);
}

int tr_join_worker(tr_peer *me, tr_peer *master, char *msg, size_t len)
{
    if (start(msg, len) < 0)
        return -2;
    if (rank == 0) {
        snprintf(msg, len, "rank 0 is the master under MPI, not a worker");
        return -1;
    }
    *me = rank;
    *master = 0;
    for (;;) {
        MPI_Status st;
        int rc = poll_for(0, MPI_ANY_TAG, -1, &st, msg, len);
        if (rc < 0)
            return -2;
        size_t n;
        if (take(&st, &n, msg, len) < 0)
            return -2;
        if (st.MPI_TAG == TAG_START)
            return 0;
        if (st.MPI_TAG == TAG_STOP)
            exit(0);            /* not needed: at_exit waits for END, finalizes */
        if (st.MPI_TAG == TAG_MEASURE) {
            double r = measure();
            send_bytes(0, TAG_SPEED, &r, sizeof r, msg, len);
        }
        /* anything else before START: not for an idle rank, dropped */
    }
}

void tr_leave(void)
{
    /* MPI ends with the process (at_exit): a program may run a second model
     * in the same process, on the ranks still idle. A worker says it left. */
    if (up && rank != 0 && !said_bye) {
        send_empty(0, TAG_BYE);
        said_bye = 1;
    }
    free(rx);
    free(hosts);
    rx = NULL;
    rx_cap = 0;
    hosts = NULL;
}

/* A worker rank the master still waits for: working, or told to end, and
 * no BYE from it yet. */
static int silent(int r)
{
    return state[r] == R_WORKER || state[r] == R_KILLED;
}

/* The process ends: the master stops the idle ranks; every rank finishes
 * its sends and finalizes -- or, at the master with a rank that never
 * said BYE (hung, stopped), ends the job with MPI_Abort and this exit status. */
static void at_exit(int status, void *arg)
{
    (void)arg;
    int fin = 0;
    char msg[256];
    MPI_Finalized(&fin);
    if (fin || killed_here)
        return;
    /* never joined: only a process that mpirun started has a world to end */
    if (!up && (!getenv("OMPI_COMM_WORLD_SIZE") || start(msg, sizeof msg) < 0))
        return;
    fflush(stdout);
    fflush(stderr);
    if (rank != 0) {
        finish_worker();
        return;
    }
    for (int r = 1; r < size; r++)
        if (state[r] == R_IDLE) {
            send_empty(r, TAG_STOP);
            state[r] = R_GONE;
        }
    double until = now() + ACK_WAIT_S;
    int missing;
    for (;;) {
        missing = 0;
        for (int r = 1; r < size; r++)
            missing += silent(r);
        reap();
        if ((nout == 0 && missing == 0) || now() > until)
            break;
        /* drain what comes (a late result, a BYE) */
        MPI_Status st;
        size_t n;
        if (poll_for(MPI_ANY_SOURCE, MPI_ANY_TAG, now() + 0.01, &st, msg, sizeof msg) == 1 &&
            take(&st, &n, msg, sizeof msg) == 0 && st.MPI_TAG == TAG_BYE)
            state[st.MPI_SOURCE] = R_GONE;
    }
    if (missing) {
        fprintf(stderr, "dtss: %d worker rank%s did not end (hung or stopped): ending the "
                "job with MPI_Abort\n", missing, missing == 1 ? "" : "s");
        /* A stopped rank of this host is continued first, so that mpirun
         * ends a running process. (Added while chasing mpirun's hang, which
         * END before MPI_Finalize, below, is what cured: kept, as measured.) */
        for (int r = 1; r < size; r++)
            if (silent(r) && hostid[r] == hostid[0] && pid[r] > 0)
                kill((pid_t)pid[r], SIGCONT);
        MPI_Abort(MPI_COMM_WORLD, status);
    }
    /* Every rank waits for END before it finalizes: a rank already inside
     * MPI_Finalize when the master aborts left mpirun (Open MPI 4.1.4) hung
     * in PMIx_server_finalize, every rank ended but none reaped. */
    for (int r = 1; r < size; r++)
        send_empty(r, TAG_END);
    while (nout > 0) {
        reap();
        if (nout > 0)
            nap(1e-3);
    }
    MPI_Finalize();
}

/* ---- hosts ---- */

int tr_hosts(const tr_host **h, int *n, int *mine, char *msg, size_t len)
{
    if (start(msg, len) < 0)
        return -1;
    tr_host *a = realloc(hosts, sizeof *a * (size_t)size);
    if (!a) {
        snprintf(msg, len, "out of memory for %d ranks", size);
        return -1;
    }
    hosts = a;
    for (int r = 0; r < size; r++)
        a[r] = (tr_host){.name = pname[r], .id = hostid[r], .speed = speeds[hostid[r]]};
    *h = a;
    *n = size;
    *mine = rank;
    return 0;
}

int tr_host_of(tr_peer p)
{
    return up && p >= 0 && p < size ? hostid[p] : -1;
}

int tr_measure_speeds(tr_host *h, int n, char *msg, size_t len)
{
    double *rate = calloc((size_t)size, sizeof *rate), best = 0;
    if (!rate) {
        snprintf(msg, len, "out of memory");
        return -1;
    }
    /* one rank of each host, one host after the other: a host's rate is
     * its own core's, not shared with a measurement beside it */
    for (int k = 0; k < n; k++) {
        int id = h[k].id;
        if (h[k].speed > 0 || rate[id] > 0)
            continue;
        int who = -1;
        for (int r = 1; r < size && who < 0; r++)
            if (hostid[r] == id && state[r] == R_IDLE)
                who = r;
        if (who < 0) {
            rate[id] = measure();          /* only the master there, or none idle */
        } else {
            send_empty(who, TAG_MEASURE);
            MPI_Status st;
            size_t got = 0;
            if (poll_for(who, TAG_SPEED, -1, &st, msg, len) < 0 || take(&st, &got, msg, len) < 0 ||
                got != sizeof(double)) {
                free(rate);
                if (got != sizeof(double))
                    snprintf(msg, len, "rank %d's speed: a reply of %zu bytes", who, got);
                return -1;
            }
            memcpy(&rate[id], rx, sizeof(double));
        }
    }
    for (int i = 0; i < size; i++)
        best = rate[i] > best ? rate[i] : best;
    for (int k = 0; k < n; k++)
        if (h[k].speed <= 0 && best > 0) {
            /* rate <= best: in [0, 1000] */
            long s = conv_clamp(floor(1000 * rate[h[k].id] / best + 0.5), 1, 1000);
            speeds[h[k].id] = h[k].speed = (int)s;
        }
    free(rate);
    return 0;
}

/* ---- workers ---- */

int tr_spawn(const char *prog, char **argv, const char *host, tr_peer *p, char *msg,
             size_t len)
{
    (void)prog;                 /* the program mpirun started on that rank */
    (void)argv;
    if (start(msg, len) < 0)
        return -1;
    int idle = 0;
    for (int r = 1; r < size; r++) {
        if (state[r] != R_IDLE)
            continue;
        idle++;
        if (host && strcmp(pname[r], host) != 0)
            continue;
        send_empty(r, TAG_START);
        state[r] = R_WORKER;
        *p = r;
        return 0;
    }
    int there = 0;
    for (int r = 1; r < size; r++)
        there += !host || strcmp(pname[r], host) == 0;
    snprintf(msg, len, "no idle rank %s%s (mpirun started %d rank%s there besides the "
             "master, %d idle in all; a rank whose worker ended is not started again): "
             "start more ranks (mpirun -np), or ask for fewer workers", host ? "on host " : "",
             host ? quote(host) : "", there, there == 1 ? "" : "s", idle);
    return -1;
}

int tr_watch_exit(const tr_peer *peers, int n, char *msg, size_t len)
{
    (void)peers, (void)n, (void)msg, (void)len;
    return 0;                   /* no exits are reported (tr_caps) */
}

int tr_watch_hosts(const int *ids, int n, char *msg, size_t len)
{
    (void)ids, (void)n, (void)msg, (void)len;
    return 0;
}

int tr_add_host(const char *name, int *host, char *msg, size_t len)
{
    (void)host;
    snprintf(msg, len, "cannot add host %s: the mpi transport's ranks are the ones mpirun "
             "started", quote(name));
    return -1;
}

int tr_del_host(const char *name, char *msg, size_t len)
{
    snprintf(msg, len, "cannot delete host %s: the mpi transport's ranks are the ones "
             "mpirun started", quote(name));
    return -1;
}

int tr_kill(tr_peer p)
{
    if (!up || p <= 0 || p >= size || state[p] != R_WORKER)
        return -1;
    send_empty(p, TAG_KILL);
    state[p] = R_KILLED;
    return 0;
}

void tr_hint(unsigned hints)
{
    (void)hints;                /* nothing to prepare */
}

int tr_send(tr_peer to, int tag, const void *data, size_t n, char *msg, size_t len)
{
    if (!up) {
        snprintf(msg, len, "not joined");
        return -1;
    }
    if (to < 0 || to >= size) {
        snprintf(msg, len, "no rank %d (the world has %d)", to, size);
        return -1;
    }
    if (rank != 0) {            /* a worker told to end ends before it sends */
        int flag = 0;
        MPI_Status o;
        if (MPI_Iprobe(0, TAG_KILL, MPI_COMM_WORLD, &flag, &o) == MPI_SUCCESS && flag)
            own(&o);
    }
    reap();
    return send_bytes(to, tag, data, n, msg, len);
}

int tr_recv(tr_peer from, int tag, double timeout, tr_event *e, char *msg, size_t len)
{
    *e = (tr_event){.kind = TR_TIMEOUT, .from = -1, .host = -1, .tag = -1};
    if (!up) {
        snprintf(msg, len, "not joined");
        return -1;
    }
    if (tag == TR_NOTICES) {    /* no notices under MPI; a KILL is handled */
        MPI_Status st;
        return poll_for(MPI_ANY_SOURCE, TAG_KILL, now(), &st, msg, len) < 0 ? -1 : 0;
    }
    MPI_Status st;
    double deadline = timeout < 0 ? -1 : now() + timeout;
    int rc = poll_for(from == TR_ANY ? MPI_ANY_SOURCE : from, tag == TR_ANY ? MPI_ANY_TAG : tag,
                      deadline, &st, msg, len);
    if (rc <= 0)
        return rc;
    size_t n = 0;
    if (take(&st, &n, msg, len) < 0)
        return -1;
    if (st.MPI_TAG == TAG_BYE) {
        if (rank == 0)
            state[st.MPI_SOURCE] = R_GONE;
        e->kind = TR_PEER_EXIT;
        e->from = st.MPI_SOURCE;
        return 0;
    }
    *e = (tr_event){.kind = TR_MESSAGE, .from = st.MPI_SOURCE, .host = -1, .tag = st.MPI_TAG,
                    .data = rx, .len = n};
    return 0;
}
