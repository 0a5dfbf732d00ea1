/* probe.h: the worker's load probe: Q, the processes in its host's run-queue.
 *
 * Two back-ends (Xu & Chronopoulos Sec. 5.1 take "the number of processes in
 * the run-queue" as the load measure):
 *   proc    the host's run-queue: the kernel's count of runnable tasks
 *           (/proc/loadavg's R of "R/T", = procs_running in /proc/stat),
 *           the reader included;
 *   cgroup  the runnable tasks (state R in /proc/PID/task/TID/stat) whose cpu
 *           cgroup is the caller's own: an emulated host of the emulated
 *           cluster is a cpu cgroup, and CFS-throttled tasks still read R, so
 *           a host with a busy worker and 3 loaders reads Q = 4. The host's
 *           pvmd, which lives there too, is not counted (probe.c).
 * auto picks cgroup when the caller's cpu cgroup lies under /dtss/ (where the
 * emulated cluster puts its hosts) and proc otherwise. The caller is running
 * while it measures, so it counts itself: Q >= 1.
 *
 * The paper's workstations had one CPU. A host with several shares its
 * run-queue among them: Q runnable tasks on C CPUs leave each one
 * min(1, C / Q) of a CPU: sched_acp divides Q by C (probe.cpus: the CPUs it
 * may run on; 1 for an emulated host, whose quota is at most one core).
 */
#ifndef PROBE_H
#define PROBE_H

#include <stddef.h>
#include <string.h>

typedef enum { PROBE_AUTO, PROBE_PROC, PROBE_CGROUP } probe_backend;

typedef struct probe {
    probe_backend backend;      /* PROBE_PROC or PROBE_CGROUP after init */
    char cgroup[512];           /* the caller's cpu cgroup path, e.g. /dtss/x/w1 */
    int loadavg;                /* proc: /proc/loadavg, kept open (-1: not) */
    int cpus;                   /* CPUs sharing the run-queue measured */
} probe;

/* Resolves 'b' (AUTO) and reads the caller's cpu cgroup. Returns 0, or -1
 * with the failing call in msg. */
int probe_init(probe *p, probe_backend b, char *msg, size_t len);

/* Closes what probe_init opened. */
void probe_close(probe *p);

/* Returns Q >= 1, or -1 with the failing call in msg. */
int probe_queue(const probe *p, char *msg, size_t len);

/* "auto", "proc", "cgroup" <-> probe_backend; parse returns -1 if unknown.
 * Inline, so that the master can name back-ends without linking the probe. */
static inline const char *probe_backend_name(probe_backend b)
{
    return b == PROBE_PROC ? "proc" : b == PROBE_CGROUP ? "cgroup" : "auto";
}

static inline int probe_backend_parse(const char *s, probe_backend *b)
{
    static const char *const names[] = {"auto", "proc", "cgroup"};
    for (int i = 0; i < 3; i++)
        if (strcmp(s, names[i]) == 0) {
            *b = (probe_backend)i;
            return 0;
        }
    return -1;
}

#endif
