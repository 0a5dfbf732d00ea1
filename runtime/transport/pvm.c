/* pvm.c: the PVM 3.4 transport (transport.h) -- the only file of libdtss that
 * includes pvm3.h. A peer is a PVM task id, a host id its pvmd's tid, a
 * message its length (two 32-bit halves) and one pvm_pkbyte of the runtime's
 * own bytes, in PVM's default encoding: XDR carries bytes as they are, and
 * PvmDataRaw or PvmDataInPlace made a round trip 1.6 times as long (29.2
 * against 17.7 us, bin/pingpong on one CPU). Exits and host losses are
 * pvm_notify messages of two tags of this file's own, turned into events. */
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/time.h>
#include <unistd.h>

#include <pvm3.h>

#include "runtime/transport/transport.h"
#include "sched/util/quote.h"
#include "sched/util/conv.h"

extern char *pvm_errlist[];
extern int pvm_nerr;

/* pvm_notify's tags: far above every tag of the runtime's messages */
enum { TAG_EXIT = 0x3ffffff0, TAG_HOSTDEL = 0x3ffffff1 };

static unsigned char *rx;           /* the last message's bytes (tr_event.data) */
static size_t rx_cap;
static tr_host *hosts;              /* tr_hosts' array */

const char *tr_name(void)
{
    return "pvm";
}

unsigned tr_caps(void)
{
    return TR_CAN_SPAWN | TR_CAN_ADD_HOSTS | TR_REPORTS_EXITS | TR_REPORTS_HOST_LOSS;
}

const char *tr_strerror(int rc)
{
    return rc < 0 && -rc < pvm_nerr && pvm_errlist[-rc] ? pvm_errlist[-rc]
                                                       : "unknown PVM error";
}

/* "CALL...: PVM's text": returns rc (< 0). */
__attribute__((format(printf, 4, 5)))
static int fail(int rc, char *msg, size_t len, const char *fmt, ...)
{
    char what[320];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(msg, len, "%s: %s", what, tr_strerror(rc));
    return rc < 0 ? rc : PvmSysErr;
}

/* As root, libpvm prints a 20-line banner and ends the process unless
 * PVM_ALLOW_ROOT is set: said in one line instead, before any PVM call. */
static int root_refused(void)
{
    return geteuid() == 0 && !getenv("PVM_ALLOW_ROOT");
}

/* pvm_mytid without libpvm's own complaints on stderr when no pvmd runs:
 * they go to a temporary file, and the caller gets one clear message
 * instead, with libpvm's first line in 'why' (its "libpvm [pidN]" cut:
 * what it could not do -- no address file, a socket it could not connect
 * to, a connection the pvmd refused), or "" when it said nothing. */
static int quiet_mytid(char *why, size_t len)
{
    why[0] = '\0';
    fflush(stderr);
    FILE *said = tmpfile();
    int saved = dup(STDERR_FILENO);
    int moved = said && saved >= 0 && dup2(fileno(said), STDERR_FILENO) >= 0;
    int me = pvm_mytid();
    if (moved) {
        fflush(stderr);
        dup2(saved, STDERR_FILENO);
    }
    if (saved >= 0)
        close(saved);
    if (said) {
        char line[512];
        rewind(said);
        while (me < 0 && !why[0] && fgets(line, sizeof line, said)) {
            char *p = strstr(line, "libpvm [");
            p = p ? strchr(p, ']') : NULL;
            if (!p)
                continue;
            p += strspn(p + 1, ": \t") + 1;
            p[strcspn(p, "\n")] = '\0';
            if (*p)
                snprintf(why, len, "%s", p);
        }
        fclose(said);
    }
    return me;
}

int tr_launched_worker(void)
{
    return 0;                   /* the master spawns its workers with --dtss-worker */
}

int tr_join(tr_peer *me, char *msg, size_t len)
{
    if (root_refused()) {
        snprintf(msg, len, "PVM runs as root only with PVM_ALLOW_ROOT set: source the "
                 "cluster's env file (. build/cluster/env, after make cluster-up), or "
                 "export PVM_ALLOW_ROOT=yes for a virtual machine of your own");
        return PvmSysErr;
    }
    pvm_setopt(PvmAutoErr, 0);
    char why[200];
    int tid = quiet_mytid(why, sizeof why);
    if (tid < 0) {
        snprintf(msg, len, "no PVM daemon to talk to (pvm_mytid: %s%s%s): start the virtual "
                 "machine first (pvm HOSTFILE, or make cluster-up and source its env "
                 "file); with several, PVM_TMP must name the master's directory",
                 tr_strerror(tid), why[0] ? "; libpvm: " : "", why);
        return tid;
    }
    /* Direct TCP routes between the master and its workers, not through the
     * pvmds (workers accept them; their worker-to-worker messages, in
     * Tree-Scheduling, go through the pvmds). */
    pvm_setopt(PvmRoute, PvmRouteDirect);
    pvm_setopt(PvmShowTids, 0);
    pvm_catchout(stderr);
    *me = tid;
    return 0;
}

int tr_join_worker(tr_peer *me, tr_peer *master, char *msg, size_t len)
{
    if (root_refused()) {
        snprintf(msg, len, "PVM runs as root only with PVM_ALLOW_ROOT set");
        return PvmSysErr;
    }
    pvm_setopt(PvmAutoErr, 0);
    int tid = pvm_mytid();
    if (tid < 0) {
        snprintf(msg, len, "no PVM daemon (pvm_mytid: %s)", tr_strerror(tid));
        return tid;
    }
    *me = tid;
    *master = pvm_parent();
    if (*master < 0) {
        snprintf(msg, len, "not spawned by a master (pvm_parent: %s)",
                 tr_strerror(*master));
        pvm_exit();
        return -1;
    }
    int rc = pvm_notify(PvmTaskExit, TAG_EXIT, 1, master);
    if (rc < 0) {
        fail(rc, msg, len, "pvm_notify");
        pvm_exit();
        return rc;
    }
    return 0;
}

void tr_leave(void)
{
    /* Output collection off first: pvm_exit would wait for the output of
     * tasks that no longer run. */
    pvm_catchout(NULL);
    pvm_exit();
    free(rx);
    free(hosts);
    rx = NULL;
    rx_cap = 0;
    hosts = NULL;
}

/* Was this process started by a pvmd (the console's `spawn ->`, or any
 * pvm_spawn)? Its parent process is one. */
static int spawned_by_pvmd(void)
{
    char path[64], comm[32] = "";
    snprintf(path, sizeof path, "/proc/%ld/comm", (long)getppid());
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int got = fgets(comm, sizeof comm, f) != NULL;
    fclose(f);
    return got && strcmp(comm, "pvmd\n") == 0;
}

int tr_hosts(const tr_host **out, int *n, int *mine, char *msg, size_t len)
{
    struct pvmhostinfo *hi;
    int nhost, narch;
    int rc = pvm_config(&nhost, &narch, &hi);
    if (rc < 0)
        return fail(rc, msg, len, "pvm_config");
    tr_host *h = realloc(hosts, sizeof *h * (size_t)(nhost ? nhost : 1));
    if (!h) {
        snprintf(msg, len, "out of memory for %d hosts", nhost);
        return PvmNoMem;
    }
    hosts = h;
    int mydtid = pvm_tidtohost(pvm_mytid());
    *mine = 0;
    for (int i = 0; i < nhost; i++) {
        h[i] = (tr_host){.name = hi[i].hi_name, .id = hi[i].hi_tid, .speed = hi[i].hi_speed};
        if (hi[i].hi_tid == mydtid)
            *mine = i;
    }
    *out = h;
    *n = nhost;
    /* A master that PVM started (the console places tasks round-robin) on
     * another host than the virtual machine's master host may have landed on
     * a host that gets a worker -- on the emulated cluster, inside that
     * host's CPU share. Refused, saying how to start it on the master host.
     * (A master run from a shell anywhere is where its user put it.) */
    if (nhost < 2 || hi[0].hi_tid == mydtid || !spawned_by_pvmd())
        return 0;
    char self[4096], *name = self;
    ssize_t k = readlink("/proc/self/exe", self, sizeof self - 1);
    self[k > 0 ? k : 0] = '\0';
    if (strrchr(self, '/'))
        name = strrchr(self, '/') + 1;
    snprintf(msg, len, "PVM started this master on host %s, not on the "
             "virtual machine's master host %s (the console places tasks "
             "round-robin, so a master may land on a host that gets a worker, "
             "in its CPU share); start it on %s: spawn -%s -> %s ...",
             hi[*mine].hi_name, hi[0].hi_name, hi[0].hi_name, hi[0].hi_name,
             *name ? name : "PROGRAM");
    return PvmBadParam;
}

int tr_measure_speeds(tr_host *h, int n, char *msg, size_t len)
{
    (void)h, (void)n, (void)msg, (void)len;
    return 0;                   /* every pvmd has its speed: sp=, or 1000 */
}

int tr_host_of(tr_peer p)
{
    return pvm_tidtohost(p);
}

int tr_spawn(const char *prog, char **argv, const char *host, tr_peer *p, char *msg,
             size_t len)
{
    int tid, n = pvm_spawn((char *)prog, argv, host ? PvmTaskHost : PvmTaskDefault,
                           (char *)(host ? host : ""), 1, &tid);
    if (n == 1) {
        *p = tid;
        return 0;
    }
    int err = n < 0 ? n : tid;
    fail(err, msg, len, "pvm_spawn(%s) on host %s", quote(prog), host ? quote(host) : "(any)");
    if (err == PvmNoFile)
        snprintf(msg + strlen(msg), len - strlen(msg), ": the worker program is not in "
                 "PVM's search path; give the hostfile's * line ep=/path/to/bin (or use "
                 "--worker /path/to/program)");
    return err < 0 ? err : PvmSysErr;
}

int tr_watch_exit(const tr_peer *peers, int n, char *msg, size_t len)
{
    int rc = n > 0 ? pvm_notify(PvmTaskExit, TAG_EXIT, n, (int *)peers) : 0;
    return rc < 0 ? fail(rc, msg, len, "pvm_notify") : 0;
}

int tr_watch_hosts(const int *ids, int n, char *msg, size_t len)
{
    int rc = n > 0 ? pvm_notify(PvmHostDelete, TAG_HOSTDEL, n, (int *)ids) : 0;
    return rc < 0 ? fail(rc, msg, len, "pvm_notify") : 0;
}

int tr_add_host(const char *name, int *host, char *msg, size_t len)
{
    char *names[] = {(char *)name};
    int info = 0, rc = pvm_addhosts(names, 1, &info);
    if (rc < 1 || info < 0)
        return fail(rc < 0 ? rc : info, msg, len, "pvm_addhosts(%s)", quote(name));
    *host = info;
    pvm_notify(PvmHostDelete, TAG_HOSTDEL, 1, &info);
    return 0;
}

int tr_del_host(const char *name, char *msg, size_t len)
{
    char *names[] = {(char *)name};
    int info = 0, rc = pvm_delhosts(names, 1, &info);
    if (rc < 1 || info < 0)
        return fail(rc < 0 ? rc : info, msg, len, "pvm_delhosts(%s)", quote(name));
    return 0;
}

int tr_kill(tr_peer p)
{
    /* SIGTERM stays pending at a stopped process: SIGCONT after it lets it
     * take effect (harmless to a running one). */
    int rc = pvm_kill(p);
    if (rc >= 0)
        pvm_sendsig(p, SIGCONT);
    return rc;
}

/* A pvmd watches two descriptors per task of its host (its socket and its
 * output), and a master one per worker (direct routes), with select():
 * FD_SETSIZE (1024) in all, less what they hold themselves. Past it a pvmd
 * aborts ("wrk_fds_add() bad fd 1024") and takes the virtual machine with
 * it. Measured on one host (bin/loop --local N): 505 workers ran, 510
 * aborted the pvmd. 500 for every run, whatever its hosts. */
#define PVM_MAX_PEERS 500

int tr_max_peers(void)
{
    return PVM_MAX_PEERS < (FD_SETSIZE - 24) / 2 ? PVM_MAX_PEERS : (FD_SETSIZE - 24) / 2;
}

void tr_hint(unsigned hints)
{
    /* Direct TCP routes to the other workers too: through the pvmds a
     * message of megabytes between two workers was seen to stall for good
     * (both pvmds idle). */
    if (hints & TR_HINT_PEERS)
        pvm_setopt(PvmRoute, PvmRouteDirect);
    if (hints & TR_HINT_LARGE)
        pvm_setopt(PvmFragSize, 1 << 20);
}

int tr_send(tr_peer to, int tag, const void *data, size_t n, char *msg, size_t len)
{
    int rc = pvm_initsend(PvmDataDefault);
    unsigned int half[2] = {(unsigned int)((uint64_t)n >> 32), (unsigned int)n};
    if (rc >= 0)
        rc = pvm_pkuint(half, 2, 1);
    const char *c = data;
    size_t left = n;
    /* pvm_pkbyte takes an int count: pieces of at most 2^30 bytes */
    while (rc >= 0 && left > 0) {
        int k = left > (1u << 30) ? 1 << 30 : (int)left;
        rc = pvm_pkbyte((char *)c, k, 1);
        c += k;
        left -= (size_t)k;
    }
    if (rc < 0)
        return fail(rc, msg, len, "packing %zu bytes (tag %d) for t%x", n, tag, to);
    if ((rc = pvm_send(to, tag)) < 0)
        return fail(rc, msg, len, "pvm_send(tag %d) to t%x", tag, to);
    return 0;
}

int tr_recv(tr_peer from, int tag, double timeout, tr_event *e, char *msg, size_t len)
{
    int bufid;
    if (tag == TR_NOTICES) {
        /* only notices, only those already there */
        if ((bufid = pvm_nrecv(-1, TAG_EXIT)) == 0)
            bufid = pvm_nrecv(-1, TAG_HOSTDEL);
    } else if (timeout < 0) {
        bufid = pvm_recv(from, tag);
    } else if (timeout == 0) {
        bufid = pvm_nrecv(from, tag);
    } else {
        /* whole seconds up to 10^9 (31 years: as good as forever; a timeout
         * is > 0 here), then the microseconds of the rest */
        long sec = conv_clamp(timeout, 0, 1000000000L);
        struct timeval tv = {sec, conv_clamp((timeout - (double)sec) * 1e6, 0, 999999)};
        bufid = pvm_trecv(from, tag, &tv);
    }
    if (bufid < 0)
        return fail(bufid, msg, len, timeout < 0 && tag != TR_NOTICES ? "pvm_recv" :
                    timeout == 0 || tag == TR_NOTICES ? "pvm_nrecv" : "pvm_trecv");
    *e = (tr_event){.kind = TR_TIMEOUT, .from = -1, .host = -1, .tag = -1};
    if (bufid == 0)
        return 0;
    int bytes, got, src;
    if ((bufid = pvm_bufinfo(bufid, &bytes, &got, &src)) < 0)
        return fail(bufid, msg, len, "pvm_bufinfo");
    if (got == TAG_EXIT || got == TAG_HOSTDEL) {
        int who = 0, rc = pvm_upkint(&who, 1, 1);
        if (rc < 0)
            return fail(rc, msg, len, "unpacking a notice");
        e->kind = got == TAG_EXIT ? TR_PEER_EXIT : TR_HOST_LOST;
        if (got == TAG_EXIT)
            e->from = who;
        else
            e->host = who;
        return 0;
    }
    unsigned int half[2];
    int rc = pvm_upkuint(half, 2, 1);
    uint64_t n = (uint64_t)half[0] << 32 | half[1];
    if (rc < 0 || n > (uint64_t)bytes)     /* bytes: what came, with XDR's padding */
        return fail(rc < 0 ? rc : PvmBadMsg, msg, len, "a message of tag %d from t%x "
                    "(%d bytes) without its length", got, src, bytes);
    if (n > rx_cap) {
        unsigned char *p = realloc(rx, (size_t)n);
        if (!p) {
            snprintf(msg, len, "out of memory for a message of %llu bytes",
                     (unsigned long long)n);
            return PvmNoMem;
        }
        rx = p;
        rx_cap = (size_t)n;
    }
    for (size_t done = 0; rc >= 0 && done < n;) {
        int k = n - done > (1u << 30) ? 1 << 30 : (int)(n - done);
        rc = pvm_upkbyte((char *)rx + done, k, 1);
        done += (size_t)k;
    }
    if (rc < 0)
        return fail(rc, msg, len, "unpacking %llu bytes (tag %d) from t%x",
                    (unsigned long long)n, got, src);
    *e = (tr_event){.kind = TR_MESSAGE, .from = src, .host = -1, .tag = got, .data = rx,
                    .len = (size_t)n};
    return 0;
}
