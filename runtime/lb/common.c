/* lb_common.c: the options, spawning and asking shared by the two masters of
 * load balancing by migration (lb_common.h). */
#include <stdlib.h>
#include <string.h>

#include <pvm3.h>

#include "runtime/dtss.h"
#include "runtime/core/join.h"
#include "runtime/lb/common.h"
#include "runtime/core/wire.h"
#include "sched/util/parse.h"

void lb_opts_init(lb_opts *o)
{
    *o = (lb_opts){.type = &lb_yoon, .ct = 0.001};
}

void lb_opts_free(lb_opts *o)
{
    free(o->hosts);
    free(o->worker_path);
    o->hosts = o->worker_path = NULL;
}

int lb_opts_known(const char *name)
{
    static const char *const names[] = {"strategy", "ct", "hosts", "local", "worker", NULL};
    for (int i = 0; names[i]; i++)
        if (strcmp(names[i], name) == 0)
            return 1;
    return 0;
}

int lb_opts_set(lb_opts *o, const char *name, const char *value, char *msg, size_t len)
{
    sched_err err;
    if (strcmp(name, "strategy") == 0) {
        const lb_type *t = lb_type_find(value, &err);
        if (!t) {
            snprintf(msg, len, "--strategy: %s", err.msg);
            return DTSS_ENOENT;
        }
        o->type = t;
    } else if (strcmp(name, "ct") == 0) {
        double v;
        if (parse_double(value, &v) != 0 || v < 0 || v > 1e6) {
            snprintf(msg, len, "--ct '%s' must be seconds in [0, 1e6]", value);
            return DTSS_EINVAL;
        }
        o->ct = v;
    } else if (strcmp(name, "hosts") == 0 || strcmp(name, "worker") == 0) {
        char **dst = name[0] == 'h' ? &o->hosts : &o->worker_path;
        if (!*value) {
            snprintf(msg, len, "--%s is empty", name);
            return DTSS_EINVAL;
        }
        char *c = strdup(value);
        if (!c) {
            snprintf(msg, len, "out of memory");
            return DTSS_ENOMEM;
        }
        free(*dst);
        *dst = c;
    } else if (strcmp(name, "local") == 0) {
        if (parse_int_in(value, 1, WIRE_MAX_WORKERS, &o->local) != 0) {
            snprintf(msg, len, "--local '%s' must be a whole number in [1, %d]", value,
                     WIRE_MAX_WORKERS);
            return DTSS_EINVAL;
        }
    } else {
        return DTSS_ENOENT;
    }
    return DTSS_OK;
}

void lb_opts_usage(FILE *f, const char *what_moves, const char *unit)
{
    fprintf(f, "  --strategy NAME     %s (sched/lb.h):", what_moves);
    for (int i = 0; lb_types[i]; i++)
        fprintf(f, " %s", lb_types[i]->name);
    fprintf(f, " (default yoon)\n"
"  --ct S              C_t, migrating one %s, seconds, [0, 10^6] (default\n"
"                      0.001; bin/netpipe measures a + b m for m bytes)\n"
"  --hosts H1,H2,...   a worker on each, in this order (a host may repeat;\n"
"                      default: every host of the virtual machine but this one)\n"
"  --local N           N workers on this host (a one-host VM)\n"
"  --worker PATH       the worker program (default: this program)\n", unit);
}

int lb_spawn(const lb_opts *o, int *tids, char **host, int max, char *msg, size_t len)
{
    char self[4096], flag[] = "--dtss-worker";
    char *args[] = {flag, NULL};
    runtime_vm v;
    int *pick = malloc(sizeof *pick * (size_t)max);
    if (!pick) {
        snprintf(msg, len, "out of memory");
        return -DTSS_ENOMEM;
    }
    int n = runtime_hosts(o->hosts, o->local, 0, 0, &v, pick, max, msg, len);
    const char *prog = n < 0 ? NULL : runtime_worker_program(o->worker_path, self, sizeof self);
    if (n >= 0 && !prog) {
        snprintf(msg, len, "cannot tell which program this is (/proc/self/exe); name the "
                 "worker program with --worker");
        n = -DTSS_EPVM;
    }
    for (int i = 0; i < n; i++) {
        int tid, k = pvm_spawn((char *)prog, args, PvmTaskHost, v.hi[pick[i]].hi_name, 1, &tid);
        host[i] = strdup(v.hi[pick[i]].hi_name);
        if (!host[i] || k != 1) {
            snprintf(msg, len, "pvm_spawn(%.200s) on host %.64s: %s", prog,
                     v.hi[pick[i]].hi_name, host[i] ? wire_strerror(k < 0 ? k : tid)
                                                    : "out of memory");
            int code = host[i] ? -DTSS_EPVM : -DTSS_ENOMEM;
            for (int j = 0; j <= i; j++) {      /* nothing is left behind */
                if (j < i)
                    pvm_kill(tids[j]);
                free(host[j]);
                host[j] = NULL;
            }
            n = code;
            break;
        }
        tids[i] = tid;
    }
    free(pick);
    if (n > 0) {
        int rc = pvm_notify(PvmTaskExit, WIRE_TASKEXIT, n, tids);
        if (rc < 0) {
            snprintf(msg, len, "pvm_notify: %s", wire_strerror(rc));
            return -DTSS_EPVM;
        }
    }
    return n;
}

int lb_asks(const lb_type *T, int n)
{
    long *msgs = calloc((size_t)n, sizeof *msgs);
    if (!msgs)
        return -1;
    T->exchange(n, msgs);
    int asks = 0;
    for (int i = 0; i < n; i++)
        asks |= msgs[i] > 0;
    free(msgs);
    return asks;
}
