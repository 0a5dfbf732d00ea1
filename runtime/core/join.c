/* join.c: joining PVM as a master, and which hosts of the virtual machine
 * get workers (join.h), for the loop master and the pool master alike. */
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pvm3.h>

#include "runtime/dtss.h"
#include "runtime/core/join.h"
#include "runtime/core/wire.h"

/* pvm_mytid without libpvm's own complaints on stderr when no pvmd runs:
 * the caller gets one clear message instead. */
static int quiet_mytid(void)
{
    fflush(stderr);
    int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
    if (saved >= 0 && null >= 0)
        dup2(null, STDERR_FILENO);
    int me = pvm_mytid();
    if (saved >= 0 && null >= 0) {
        fflush(stderr);
        dup2(saved, STDERR_FILENO);
    }
    if (saved >= 0) close(saved);
    if (null >= 0) close(null);
    return me;
}

int runtime_join(char *msg, size_t len)
{
    /* As root, libpvm prints a 20-line banner and ends the process unless
     * PVM_ALLOW_ROOT is set: say it in one line instead, before any PVM call. */
    if (geteuid() == 0 && !getenv("PVM_ALLOW_ROOT")) {
        snprintf(msg, len, "PVM runs as root only with PVM_ALLOW_ROOT set: source the "
                 "cluster's env file (. build/cluster/env, after make cluster-up), or "
                 "export PVM_ALLOW_ROOT=yes for a virtual machine of your own");
        return -1;
    }
    pvm_setopt(PvmAutoErr, 0);
    int me = quiet_mytid();
    if (me < 0) {
        snprintf(msg, len, "no PVM daemon to talk to (pvm_mytid: %s): start the virtual "
                 "machine first (pvm HOSTFILE, or make cluster-up and source its env "
                 "file); with several, PVM_TMP must name the master's directory",
                 wire_strerror(me));
        return -1;
    }
    /* Direct TCP routes between the master and its workers, not through the
     * pvmds (workers accept them; their worker-to-worker messages, in
     * Tree-Scheduling, go through the pvmds). */
    pvm_setopt(PvmRoute, PvmRouteDirect);
    pvm_setopt(PvmShowTids, 0);
    pvm_catchout(stderr);
    return me;
}

int runtime_join_worker(int *joined, int *parent, char *msg, size_t len)
{
    if (geteuid() == 0 && !getenv("PVM_ALLOW_ROOT")) {      /* see runtime_join */
        snprintf(msg, len, "PVM runs as root only with PVM_ALLOW_ROOT set");
        return DTSS_EPVM;
    }
    pvm_setopt(PvmAutoErr, 0);
    int me = pvm_mytid();
    if (me < 0) {
        snprintf(msg, len, "no PVM daemon (pvm_mytid: %s)", wire_strerror(me));
        return DTSS_EPVM;
    }
    *joined = 1;
    *parent = pvm_parent();
    if (*parent < 0) {
        snprintf(msg, len, "not spawned by a master (pvm_parent: %s)",
                 wire_strerror(*parent));
        return DTSS_EMISUSE;
    }
    int rc = pvm_notify(PvmTaskExit, WIRE_TASKEXIT, 1, parent);
    if (rc < 0) {
        snprintf(msg, len, "pvm_notify: %s", wire_strerror(rc));
        return DTSS_EPVM;
    }
    return DTSS_OK;
}

__attribute__((format(printf, 4, 5)))
static int fail(int code, char *msg, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, len, fmt, ap);
    va_end(ap);
    return -code;
}

/* Mode --hosts H1,H2,...: the named hosts, in that order (a name may repeat). */
static int pick_named(const char *hosts, int absent_ok, const runtime_vm *v, int *pick,
                      int max, char *msg, size_t len)
{
    char *copy = strdup(hosts), *save = NULL;
    int n = 0;
    if (!copy)
        return fail(DTSS_ENOMEM, msg, len, "out of memory");
    for (char *h = strtok_r(copy, ",", &save); h; h = strtok_r(NULL, ",", &save)) {
        int found = -1;
        for (int i = 0; i < v->nhost && found < 0; i++)
            if (strcmp(v->hi[i].hi_name, h) == 0)
                found = i;
        if (found < 0 && !absent_ok) {
            char list[512] = "";
            for (int i = 0; i < v->nhost; i++) {
                strncat(list, " ", sizeof list - strlen(list) - 1);
                strncat(list, v->hi[i].hi_name, sizeof list - strlen(list) - 1);
            }
            fail(DTSS_ENOENT, msg, len, "--hosts: no host '%s' in the virtual machine "
                 "(it has:%s)", h, list);
            free(copy);
            return -DTSS_ENOENT;
        }
        if (n == max) {
            free(copy);
            return fail(DTSS_EINVAL, msg, len, "--hosts: more than %d workers", max);
        }
        pick[n++] = found;
    }
    free(copy);
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
static int check_placement(const runtime_vm *v, int mydtid, char *msg, size_t len)
{
    if (v->nhost < 2 || v->hi[0].hi_tid == mydtid || !spawned_by_pvmd())
        return 0;
    char self[4096], *name = self;
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    if (strrchr(self, '/'))
        name = strrchr(self, '/') + 1;
    return fail(DTSS_EINVAL, msg, len, "PVM started this master on host %s, not on the "
                "virtual machine's master host %s (the console places tasks "
                "round-robin, so a master may land on a host that gets a worker, "
                "in its CPU share); start it on %s: spawn -%s -> %s ...",
                v->hi[v->me].hi_name, v->hi[0].hi_name, v->hi[0].hi_name,
                v->hi[0].hi_name, *name ? name : "PROGRAM");
}

int runtime_hosts(const char *hosts, int local, int include_self, int absent_ok,
                  runtime_vm *v, int *pick, int max, char *msg, size_t len)
{
    int narch;
    int rc = pvm_config(&v->nhost, &narch, &v->hi);
    if (rc < 0)
        return fail(DTSS_EPVM, msg, len, "pvm_config: %s", wire_strerror(rc));
    int mydtid = pvm_tidtohost(pvm_mytid());
    v->me = 0;
    for (int i = 0; i < v->nhost; i++)
        if (v->hi[i].hi_tid == mydtid)
            v->me = i;
    if ((rc = check_placement(v, mydtid, msg, len)) < 0)
        return rc;
    int n = 0;
    if (local) {                    /* --local N: the master's own host */
        if (local > max)
            return fail(DTSS_EINVAL, msg, len, "--local %d: more than %d workers", local,
                        max);
        for (; n < local; n++)
            pick[n] = v->me;
    } else if (hosts) {
        n = pick_named(hosts, absent_ok, v, pick, max, msg, len);
    } else {                        /* every host but the master's own */
        for (int i = 0; i < v->nhost && n < max; i++)
            if (i != v->me || include_self)
                pick[n++] = i;
    }
    if (n == 0)
        return fail(DTSS_EINVAL, msg, len, "no hosts to use: the virtual machine has "
                    "only this host (%s); add hosts (a hostfile, or 'add HOST' in the "
                    "pvm console), or run workers here with --local N or "
                    "--include-self", v->hi[v->me].hi_name);
    return n;
}

const char *runtime_worker_program(const char *path, char *buf, size_t len)
{
    if (path)
        return path;
    ssize_t n = readlink("/proc/self/exe", buf, len - 1);
    if (n <= 0)
        return NULL;
    buf[n] = '\0';
    return buf;
}
