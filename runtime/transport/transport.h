/* transport.h: what libdtss asks of a message-passing system -- the seam
 * between the four models (loop/, pool/, lb/, strips/) and PVM
 * (transport/pvm.c, the only file of libdtss that includes pvm3.h) or MPI
 * (transport/mpi.c, the only file of libdtss-mpi that includes mpi.h). One
 * transport is linked into a library.
 *
 * A peer is a task of the run (PVM: its task id; MPI: its rank). A message is a tag and a
 * byte string the runtime encoded itself (core/buf.h); a transport moves the
 * bytes and never converts them. tr_recv returns the next event: a message,
 * a watched peer's exit, a watched host's loss, or a timeout.
 *
 * What a transport cannot do it says in tr_caps(): a model refuses the
 * option that needs it, by name. Every call returns 0 (or what it says), or
 * a negative code (tr_strerror) with one line in msg naming the call and the
 * value. */
#ifndef TRANSPORT_H
#define TRANSPORT_H

#include <stddef.h>

typedef int tr_peer;
#define TR_ANY (-1)             /* any peer, any tag */
#define TR_NOTICES (-2)         /* tr_recv's tag: only exits and host losses */

enum tr_cap {
    TR_CAN_SPAWN = 1,           /* tr_spawn starts a worker on a named host */
    TR_CAN_ADD_HOSTS = 2,       /* tr_add_host / tr_del_host */
    TR_REPORTS_EXITS = 4,       /* tr_watch_exit: PEER_EXIT events */
    TR_REPORTS_HOST_LOSS = 8,   /* tr_watch_hosts: HOST_LOST events */
    TR_FIXED_WORLD = 16         /* the launcher started every task (MPI): tr_spawn
                                   wakes a waiting one on the host */
};

enum tr_kind { TR_TIMEOUT, TR_MESSAGE, TR_PEER_EXIT, TR_HOST_LOST };

typedef struct tr_event {
    int kind;                   /* enum tr_kind */
    tr_peer from;               /* MESSAGE: the sender; PEER_EXIT: who exited */
    int host;                   /* HOST_LOST: the host (tr_host_of's id) */
    int tag;                    /* MESSAGE */
    const void *data;           /* MESSAGE: its bytes, owned by the transport, */
    size_t len;                 /* valid until the next tr_recv or tr_leave */
} tr_event;

typedef struct tr_host {
    const char *name;           /* as the transport's host list names it */
    int id;                     /* tr_host_of's value for its peers */
    int speed;                  /* relative speed (PVM: the hostfile's sp=) */
} tr_host;

const char *tr_name(void);      /* "pvm" */
unsigned tr_caps(void);
/* The most workers one run can have: what the transport can carry at once
 * (PVM: its FD_SETSIZE, below). Checked before anything starts. */
int tr_max_peers(void);
/* The text of a negative code. */
const char *tr_strerror(int rc);

/* 1 when the launcher started this process as a worker whatever its
 * arguments (MPI: a rank other than 0), else 0 (PVM: the master spawns its
 * workers with --dtss-worker). */
int tr_launched_worker(void);

/* Joins as a master (or a tool such as bin/netpipe): *me is this task.
 * Messages to workers go directly (not through daemons) where the transport
 * can; the workers' output reaches this process's stderr. */
int tr_join(tr_peer *me, char *msg, size_t len);
/* Joins as a worker a master started: *master is the task that spawned it,
 * whose exit is reported (PEER_EXIT). Returns 0 (the caller leaves with
 * tr_leave), or -1 (not spawned by a task) or another negative code with
 * msg, not joined. (MPI: a rank the run did not need ends in it, exit
 * status 0.) */
int tr_join_worker(tr_peer *me, tr_peer *master, char *msg, size_t len);
/* Leaves: the transport's resources (and the joined state) go. */
void tr_leave(void);

/* The hosts of the run, the master's first; *mine: this task's index. The
 * array stays valid until the next tr_hosts or tr_leave. A master a daemon
 * started on another host than the first is refused (msg says how to start
 * it there): it would share a worker's host. */
int tr_hosts(const tr_host **hosts, int *n, int *mine, char *msg, size_t len);
/* Fills the speed of the hosts among h[0..n-1] whose speed is 0 (unknown:
 * MPI) by timing the same kernel on each; the fastest gets 1000. PVM's are
 * always known (the hostfile's sp=, else 1000). */
int tr_measure_speeds(tr_host *h, int n, char *msg, size_t len);
/* The host id of a peer (tr_host.id), or a negative code. */
int tr_host_of(tr_peer p);

/* Starts prog with argv (NULL-terminated, without prog) on host (NULL: where
 * the transport chooses). */
int tr_spawn(const char *prog, char **argv, const char *host, tr_peer *p, char *msg,
             size_t len);
int tr_watch_exit(const tr_peer *peers, int n, char *msg, size_t len);
int tr_watch_hosts(const int *hosts, int n, char *msg, size_t len);
/* Host name into the run: *host is its id (then watched for loss). */
int tr_add_host(const char *name, int *host, char *msg, size_t len);
int tr_del_host(const char *name, char *msg, size_t len);
/* Ends peer p, a stopped one too (a hung worker: SIGSTOP, a frozen host). */
int tr_kill(tr_peer p);

/* Sends n bytes with tag (>= 0) to peer to. */
int tr_send(tr_peer to, int tag, const void *data, size_t n, char *msg, size_t len);
/* The next event from peer 'from' (TR_ANY: any) with 'tag' (TR_ANY: any;
* TR_NOTICES: only exits and losses already there), waiting at most timeout seconds (< 0:
 * until one comes; 0: only what is there). Exits and losses come back
 * whatever 'from' is, unless tag names one message tag. Returns 0 with e
 * set, or a negative code. */
int tr_recv(tr_peer from, int tag, double timeout, tr_event *e, char *msg, size_t len);
/* What is ahead, for a transport to prepare: TR_HINT_PEERS, messages between
 * workers (PVM: direct routes, as the master's); TR_HINT_LARGE, messages of
 * megabytes (PVM: fragments of 1 MiB). */
enum { TR_HINT_PEERS = 1, TR_HINT_LARGE = 2 };
void tr_hint(unsigned hints);

#endif
