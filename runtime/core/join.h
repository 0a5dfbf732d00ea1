/* join.h: joining the run and choosing hosts, a worker's join, and spawning
 * the workers -- written once for the four models, on the transport
 * (transport.h). Not installed. */
#ifndef JOIN_H
#define JOIN_H

#include <stddef.h>

#include "runtime/core/handle.h"
#include "runtime/core/place.h"
#include "runtime/transport/transport.h"

/* Joins as the master (tr_join). Returns this task's peer id (>= 0), or -1
 * with one line in msg saying how to fix it. */
int runtime_join(char *msg, size_t len);

/* Joins as a worker the master spawned (tr_join_worker; *joined = 1 from
 * then on: the caller leaves with tr_leave), *parent = the master, whose exit
 * comes as a TR_PEER_EXIT. Returns DTSS_OK, or DTSS_EPVM / DTSS_EMISUSE (not
 * spawned by a task) with one line in msg. */
int runtime_join_worker(int *joined, tr_peer *parent, char *msg, size_t len);

/* A worker's open, written once: returns its handle (size bytes, zeroed,
 * the base first, live: an error from now on is a failure; NULL: out of
 * memory, *rc DTSS_ENOMEM); refuses a program not spawned by a master
 * (naming kind->starter), then joins (h->joined, h->parent) and tells the
 * transport what is ahead (kind->hints). *rc: DTSS_OK, or the error with the
 * handle's text set. */
void *runtime_worker_open(size_t size, const rt_kind *kind, int argc, char **argv, int *rc);
/* Waits for the master's message of tag (into *ev), or its exit
 * (DTSS_ELOST, "the master exited"). Another message goes to other (when
 * not NULL: DTSS_OK to go on waiting, or an error to return) or is dropped. */
int runtime_wait_master(rt_handle *h, tr_peer parent, int tag, tr_event *ev,
                        int (*other)(void *ctx), void *ctx);

/* The run's hosts as the transport reports them, and the master's. */
typedef struct runtime_vm {
    const tr_host *hi;
    int nhost, me;
    tr_host *own;               /* hi, when the speeds were set here */
} runtime_vm;

/* Reads the virtual machine into *v (zeroed by the caller; runtime_vm_free
 * after) and picks the hosts that get a worker, indexes into v->hi, into
 * *pick (allocated here, max entries at most; the caller frees it): p->local (N times the master's host), p->hosts (those,
 * in order, a name may repeat), or every host but the master's (with it
 * when p->include_self; refused where the launcher starts every task). A
 * name of p->hosts that is not in the virtual machine is refused, or, with
 * RT_HOSTS_ABSENT, picked as -1 (pick[k] is then the k-th name of hosts).
 * With RT_HOSTS_SPEEDS the picked hosts' speeds are set: p->speeds' sp=
 * values (--speeds FILE), else the transport's (measured where it has
 * none). Returns the number picked
 * (>= 1), or -DTSS_E... with msg: a host not in the virtual machine (the
 * ones it has listed), none to use, a master placed by PVM on a worker's
 * host, a bad speeds file, out of memory; then nothing is left to free
 * (neither *pick nor *v). */
enum { RT_HOSTS_ABSENT = 1, RT_HOSTS_SPEEDS = 2 };
int runtime_hosts(const rt_place *p, int flags, runtime_vm *v, int **pick, int max,
                  char *msg, size_t len);
void runtime_vm_free(runtime_vm *v);

/* The worker program: path (--worker) when not NULL, or this program
 * itself (/proc/self/exe, into buf). NULL when it cannot be told. */
const char *runtime_worker_program(const char *path, char *buf, size_t len);

/* Spawns the worker program (path, or this program) with --dtss-worker on
 * each of the n hosts, into peers; watches their exits (and, when
 * watch_hosts, their hosts' loss). On failure nothing is left running:
 * returns -DTSS_EPVM (msg: "pvm_spawn(PROG) on host H: ..."), -DTSS_ENOENT
 * (the program cannot be told) or -DTSS_ENOMEM. */
int runtime_spawn(const char *path, const char *const *hosts, int n, int watch_hosts,
                  tr_peer *peers, char *msg, size_t len);

#endif
