/* join.h: joining PVM and choosing hosts, shared by the loop master
 * (master.c, hosts.c) and the pool master (pool_master.c). Not installed. */
#ifndef JOIN_H
#define JOIN_H

#include <stddef.h>

struct pvmhostinfo;

/* Joins PVM as the master: refuses root without PVM_ALLOW_ROOT (libpvm would
 * print a banner and exit), keeps libpvm's own complaints off stderr, routes
 * messages directly, passes the workers' output to stderr. Returns this
 * task's tid, or -1 with one line in msg saying how to fix it. */
int runtime_join(char *msg, size_t len);

/* Joins PVM as a worker the master spawned: refuses root without
 * PVM_ALLOW_ROOT, then pvm_mytid (*joined = 1 from then on: the caller
 * leaves with pvm_exit), *parent = pvm_parent, and a TASKEXIT notice
 * (WIRE_TASKEXIT) when the parent exits. Returns DTSS_OK, or DTSS_EPVM /
 * DTSS_EMISUSE (not spawned by a task) with one line in msg. */
int runtime_join_worker(int *joined, int *parent, char *msg, size_t len);

/* The virtual machine as pvm_config reports it, and the master's host. */
typedef struct runtime_vm {
    struct pvmhostinfo *hi;
    int nhost, me;
} runtime_vm;

/* Reads the virtual machine into *v and picks the hosts that get a worker,
 * indexes into v->hi, into pick (max of them): --local N (N times the
 * master's host), --hosts H1,H2 (those, in order, a name may repeat), or
 * every host but the master's (with it when include_self). A name of
 * --hosts that is not in the virtual machine is refused, or, when
 * absent_ok, picked as -1 (pick[k] is then the k-th name of hosts).
 * Returns the number picked (>= 1), or -DTSS_E... with msg: a host not in
 * the virtual machine (the ones it has listed), none to use, a master
 * placed by PVM on a worker's host. */
int runtime_hosts(const char *hosts, int local, int include_self, int absent_ok,
                  runtime_vm *v, int *pick, int max, char *msg, size_t len);

/* The worker program: path (--worker) when not NULL, or this program
 * itself (/proc/self/exe, into buf). NULL when it cannot be told. */
const char *runtime_worker_program(const char *path, char *buf, size_t len);

#endif
