/* hosts.c: which hosts of the PVM virtual machine get a worker, one function
 * per mode (--local N, --hosts H1,H2, every host), and spawning the workers.
 *
 * V_i, a host's virtual computing power, is its hostfile sp= value (PVM's
 * host speed, pvm_config) over the smallest sp= among the hosts that get
 * workers (sched_speeds): the slowest has V = 1 (Xu & Chronopoulos Sec.
 * 5.1). A host without sp= has PVM's default 1000.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pvm3.h>

#include "runtime/core/join.h"
#include "runtime/loop/master.h"

int hosts_choose(dtss_master *m)
{
    runtime_vm v;
    char msg[512];
    int max = WIRE_MAX_WORKERS;
    int *pick = malloc(sizeof *pick * (size_t)max);
    if (!pick)
        return master_fail(m, DTSS_ENOMEM, "out of memory");
    int n = runtime_hosts(m->hosts, m->local, m->include_self, 0, &v, pick, max, msg,
                          sizeof msg);
    if (n < 0) {
        free(pick);
        return master_fail(m, -n, "%s", msg);
    }
    double *speed = malloc(sizeof *speed * (size_t)n);
    m->w = calloc((size_t)n, sizeof *m->w);
    /* the workload's fields the application set before the start stay */
    rec_field fields[RECORD_MAX_FIELDS];
    int nfields = m->rec.nfields;
    memcpy(fields, m->rec.fields, sizeof fields);
    if (!speed || !m->w || record_init(&m->rec, n) != 0) {
        free(pick);
        free(speed);
        return master_fail(m, DTSS_ENOMEM, "out of memory for %d workers", n);
    }
    memcpy(m->rec.fields, fields, sizeof fields);
    m->rec.nfields = nfields;
    m->nw = n;
    for (int k = 0; k < n; k++) {
        const struct pvmhostinfo *h = &v.hi[pick[k]];
        if (record_text(&m->rec.w[k].host, h->hi_name, REC_HOST_MAX) != 0) {
            free(pick);
            free(speed);
            return master_fail(m, DTSS_ENOMEM, "out of memory for %d workers", n);
        }
        speed[k] = h->hi_speed > 0 ? h->hi_speed : 1;
    }
    double *V = malloc(sizeof *V * (size_t)n);
    if (V && sched_speeds(speed, n, V) == 0)
        for (int k = 0; k < n; k++)
            m->rec.w[k].V = V[k];
    free(V);
    free(speed);
    free(pick);
    return DTSS_OK;
}

int hosts_spawn(dtss_master *m)
{
    char self[4096], flag[] = "--dtss-worker";
    char *args[] = {flag, NULL};
    const char *prog = runtime_worker_program(m->worker_path, self, sizeof self);
    if (!prog)
        return master_fail(m, DTSS_EPVM, "cannot tell which program this is "
                           "(/proc/self/exe); name the worker program with --worker");
    for (int k = 0; k < m->nw; k++) {
        int tid;
        int n = pvm_spawn((char *)prog, args, PvmTaskHost, (char *)rec_str(m->rec.w[k].host), 1, &tid);
        if (n != 1) {
            int err = n < 0 ? n : tid;
            for (int j = 0; j < k; j++)
                pvm_kill(m->rec.w[j].tid);
            m->nw = k;              /* the others are gone */
            return master_fail(m, DTSS_EPVM, "pvm_spawn(%s) on host %s: %s%s", prog,
                               rec_str(m->rec.w[k].host), wire_strerror(err),
                               err == PvmNoFile ? ": the worker program is not in "
                               "PVM's search path; give the hostfile's * line "
                               "ep=/path/to/bin (or use --worker /path/to/program)" : "");
        }
        m->rec.w[k].tid = tid;
    }
    /* Notices of workers that exit and of hosts that leave. */
    int *tids = malloc(sizeof *tids * (size_t)m->nw);
    int *dtids = malloc(sizeof *dtids * (size_t)m->nw);
    int nd = 0, rc = 0;
    if (!tids || !dtids) {
        free(tids);
        free(dtids);
        return master_fail(m, DTSS_ENOMEM, "out of memory");
    }
    for (int k = 0; k < m->nw; k++) {
        tids[k] = m->rec.w[k].tid;
        int d = pvm_tidtohost(tids[k]), seen = 0;
        for (int j = 0; j < nd; j++)
            seen |= dtids[j] == d;
        if (!seen)
            dtids[nd++] = d;
    }
    if ((rc = pvm_notify(PvmTaskExit, WIRE_TASKEXIT, m->nw, tids)) >= 0)
        rc = pvm_notify(PvmHostDelete, WIRE_HOSTDEL, nd, dtids);
    free(tids);
    free(dtids);
    if (rc < 0)
        return master_fail(m, DTSS_EPVM, "pvm_notify: %s", wire_strerror(rc));
    char line[1024] = "";
    for (int k = 0; k < m->nw; k++) {
        char one[300];
        snprintf(one, sizeof one, " %s(V=%g)", rec_str(m->rec.w[k].host), m->rec.w[k].V);
        strncat(line, one, sizeof line - strlen(line) - 1);
    }
    master_log(m, 1, "%d worker%s:%s", m->nw, m->nw == 1 ? "" : "s", line);
    return DTSS_OK;
}
