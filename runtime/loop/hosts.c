/* hosts.c: which hosts of the run get a worker (runtime_hosts: --local N,
 * --hosts H1,H2, every host), their V_i, and spawning the workers.
 *
 * V_i, a host's virtual computing power, is its hostfile sp= value (PVM's
 * host speed, tr_hosts, or --speeds FILE's) over the smallest sp= among the
 * hosts that get workers (sched_speeds): the slowest has V = 1 (Xu &
 * Chronopoulos Sec. 5.1). A host without sp= has PVM's default 1000; under
 * MPI without --speeds, each host's is measured (tr_measure_speeds).
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/core/join.h"
#include "runtime/loop/master.h"

int hosts_choose(dtss_master *m)
{
    runtime_vm v = {0};
    char msg[512];
    int *pick;
    int n = runtime_hosts(&m->place, RT_HOSTS_SPEEDS, &v, &pick, WIRE_MAX_WORKERS, msg, sizeof msg);
    if (n < 0)
        return master_fail(m, -n, "%s", msg);
    double *speed = malloc(sizeof *speed * (size_t)n);
    m->w = calloc((size_t)n, sizeof *m->w);
    /* the workload's fields the application set before the start stay */
    rec_field fields[RECORD_MAX_FIELDS];
    int nfields = m->rec.nfields;
    memcpy(fields, m->rec.fields, sizeof fields);
    if (!speed || !m->w || record_init(&m->rec, n) != 0) {
        free(pick);
        runtime_vm_free(&v);
        free(speed);
        return master_fail(m, DTSS_ENOMEM, "out of memory for %d workers", n);
    }
    memcpy(m->rec.fields, fields, sizeof fields);
    m->rec.nfields = nfields;
    m->nw = n;
    for (int k = 0; k < n; k++) {
        const tr_host *h = &v.hi[pick[k]];
        if (record_text(&m->rec.w[k].host, h->name, REC_HOST_MAX) != 0) {
            free(pick);
            runtime_vm_free(&v);
            free(speed);
            return master_fail(m, DTSS_ENOMEM, "out of memory for %d workers", n);
        }
        speed[k] = h->speed > 0 ? h->speed : 1;
    }
    double *V = malloc(sizeof *V * (size_t)n);
    if (V && sched_speeds(speed, n, V) == 0)
        for (int k = 0; k < n; k++)
            m->rec.w[k].V = V[k];
    free(V);
    free(speed);
    free(pick);
    runtime_vm_free(&v);
    return DTSS_OK;
}

int hosts_spawn(dtss_master *m)
{
    char msg[1024];
    const char **names = malloc(sizeof *names * (size_t)m->nw);
    int *peers = malloc(sizeof *peers * (size_t)m->nw);
    if (!names || !peers) {
        free(names);
        free(peers);
        return master_fail(m, DTSS_ENOMEM, "out of memory");
    }
    for (int k = 0; k < m->nw; k++)
        names[k] = rec_str(m->rec.w[k].host);
    int rc = runtime_spawn(m->place.worker_path, names, m->nw, 1, peers, msg, sizeof msg);
    for (int k = 0; rc == 0 && k < m->nw; k++)
        m->rec.w[k].tid = peers[k];
    free(names);
    free(peers);
    if (rc < 0) {
        m->nw = 0;                  /* none is left */
        return master_fail(m, rc == -DTSS_ENOMEM ? DTSS_ENOMEM : DTSS_EPVM, "%s", msg);
    }
    char line[1024] = "";
    for (int k = 0; k < m->nw; k++) {
        char one[300];
        snprintf(one, sizeof one, " %s(V=%g)", rec_str(m->rec.w[k].host), m->rec.w[k].V);
        strncat(line, one, sizeof line - strlen(line) - 1);
    }
    master_log(m, 1, "%d worker%s:%s", m->nw, m->nw == 1 ? "" : "s", line);
    return DTSS_OK;
}
