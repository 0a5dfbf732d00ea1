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

#include "runtime/master.h"

/* The virtual machine as pvm_config reports it, and the master's host. */
typedef struct vm {
    struct pvmhostinfo *hi;
    int nhost, me;
} vm;

/* Mode --local N: N workers on the master's own host. */
static int pick_local(dtss_master *m, const vm *v, int *pick)
{
    for (int k = 0; k < m->local; k++)
        pick[k] = v->me;
    return m->local;
}

/* Mode --hosts H1,H2,...: the named hosts, in that order (a name may repeat). */
static int pick_named(dtss_master *m, const vm *v, int *pick, int max)
{
    char *copy = strdup(m->hosts), *save = NULL;
    int n = 0;
    if (!copy)
        return master_fail(m, DTSS_ENOMEM, "out of memory"), -1;
    for (char *h = strtok_r(copy, ",", &save); h; h = strtok_r(NULL, ",", &save)) {
        int found = -1;
        for (int i = 0; i < v->nhost && found < 0; i++)
            if (strcmp(v->hi[i].hi_name, h) == 0)
                found = i;
        if (found < 0) {
            char list[512] = "";
            for (int i = 0; i < v->nhost; i++) {
                strncat(list, " ", sizeof list - strlen(list) - 1);
                strncat(list, v->hi[i].hi_name, sizeof list - strlen(list) - 1);
            }
            master_fail(m, DTSS_ENOENT, "--hosts: no host '%s' in the virtual machine "
                        "(it has:%s)", h, list);
            free(copy);
            return -1;
        }
        if (n == max) {
            master_fail(m, DTSS_EINVAL, "--hosts: more than %d workers", max);
            free(copy);
            return -1;
        }
        pick[n++] = found;
    }
    free(copy);
    return n;
}

/* The default: every host but the master's own (with it, --include-self). */
static int pick_all(dtss_master *m, const vm *v, int *pick)
{
    int n = 0;
    for (int i = 0; i < v->nhost; i++)
        if (i != v->me || m->include_self)
            pick[n++] = i;
    return n;
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

/* A master that PVM started (the console places tasks round-robin) on
 * another host than the virtual machine's master host may have landed on a
 * host that gets a worker -- on the emulated cluster, inside that host's CPU
 * share. Refused, saying how to start it on the master host. (A master run
 * from a shell anywhere is where its user put it.) */
static int check_placement(dtss_master *m, const vm *v, int mydtid)
{
    if (v->nhost < 2 || v->hi[0].hi_tid == mydtid || !spawned_by_pvmd())
        return DTSS_OK;
    char self[4096], *name = self;
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    if (strrchr(self, '/'))
        name = strrchr(self, '/') + 1;
    return master_fail(m, DTSS_EINVAL, "PVM started this master on host %s, not on the "
                       "virtual machine's master host %s (the console places tasks "
                       "round-robin, so a master may land on a host that gets a worker, "
                       "in its CPU share); start it on %s: spawn -%s -> %s ...",
                       v->hi[v->me].hi_name, v->hi[0].hi_name, v->hi[0].hi_name,
                       v->hi[0].hi_name, *name ? name : "PROGRAM");
}

int hosts_choose(dtss_master *m)
{
    vm v;
    int narch;
    int rc = pvm_config(&v.nhost, &narch, &v.hi);
    if (rc < 0)
        return master_fail(m, DTSS_EPVM, "pvm_config: %s", wire_strerror(rc));
    int mydtid = pvm_tidtohost(pvm_mytid());
    v.me = 0;
    for (int i = 0; i < v.nhost; i++)
        if (v.hi[i].hi_tid == mydtid)
            v.me = i;
    if ((rc = check_placement(m, &v, mydtid)) != DTSS_OK)
        return rc;
    int max = WIRE_MAX_WORKERS;
    int *pick = malloc(sizeof *pick * (size_t)max);
    if (!pick)
        return master_fail(m, DTSS_ENOMEM, "out of memory");
    int n = m->local ? pick_local(m, &v, pick)
          : m->hosts ? pick_named(m, &v, pick, max)
          : pick_all(m, &v, pick);
    if (n < 0) {
        free(pick);
        return DTSS_ENOENT;
    }
    if (n == 0) {
        free(pick);
        return master_fail(m, DTSS_EINVAL, "no hosts to use: the virtual machine has "
                           "only this host (%s); add hosts (a hostfile, or 'add HOST' "
                           "in the pvm console), or run workers here with --local N "
                           "or --include-self", v.hi[v.me].hi_name);
    }
    double *speed = malloc(sizeof *speed * (size_t)n);
    m->w = calloc((size_t)n, sizeof *m->w);
    if (!speed || !m->w || record_init(&m->rec, n) != 0) {
        free(pick);
        free(speed);
        return master_fail(m, DTSS_ENOMEM, "out of memory for %d workers", n);
    }
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

/* The worker program: --worker, or this program itself. */
static const char *worker_program(dtss_master *m, char *buf, size_t len)
{
    if (m->worker_path)
        return m->worker_path;
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    return buf;
}

int hosts_spawn(dtss_master *m)
{
    char self[4096], flag[] = "--dtss-worker";
    char *args[] = {flag, NULL};
    const char *prog = worker_program(m, self, sizeof self);
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
