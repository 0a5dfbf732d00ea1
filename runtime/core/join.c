/* join.c: joining the run as a master or a worker, which hosts get workers,
 * spawning them, and a worker's wait for its master (join.h), for the four
 * models alike. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/dtss.h"
#include "runtime/core/handle.h"
#include "runtime/core/join.h"
#include "runtime/core/speeds.h"
#include "sched/util/quote.h"

int runtime_join(char *msg, size_t len)
{
    tr_peer me;
    return tr_join(&me, msg, len) < 0 ? -1 : me;
}

int runtime_join_worker(int *joined, tr_peer *parent, char *msg, size_t len)
{
    tr_peer me;
    int rc = tr_join_worker(&me, parent, msg, len);
    *joined = rc == 0;
    return rc == 0 ? DTSS_OK : rc == -1 ? DTSS_EMISUSE : DTSS_EPVM;
}

int dtss_is_worker(int argc, char **argv)
{
    for (int i = 1; i < argc; i++)
        if (argv[i] && strcmp(argv[i], "--dtss-worker") == 0)
            return 1;
    return tr_launched_worker();
}

void *runtime_worker_open(size_t size, const rt_kind *kind, int argc, char **argv, int *rc)
{
    char msg[256];
    rt_handle *h = rt_new(size, kind);
    tr_peer parent = -1;
    if (!h) {
        *rc = DTSS_ENOMEM;
        return NULL;
    }
    h->live = 1;
    if (!dtss_is_worker(argc, argv))
        *rc = rt_fail(h, DTSS_EMISUSE, "not spawned by a master: workers are started by "
                      "the master program (%s)", kind->starter);
    else if ((*rc = runtime_join_worker(&h->joined, &parent, msg, sizeof msg)) != DTSS_OK)
        rt_fail(h, *rc, "%s", msg);
    else
        tr_hint(kind->hints);
    h->parent = parent;
    return h;
}

int runtime_wait_master(rt_handle *h, tr_peer parent, int tag, tr_event *ev,
                        int (*other)(void *ctx), void *ctx)
{
    char msg[512];
    for (;;) {
        if (tr_recv(TR_ANY, TR_ANY, -1, ev, msg, sizeof msg) < 0)
            return rt_fail(h, DTSS_EPVM, "%s", msg);
        if (ev->kind == TR_PEER_EXIT && ev->from == parent)
            return rt_fail(h, DTSS_ELOST, "the master exited");
        if (ev->kind == TR_MESSAGE && ev->tag == tag && ev->from == parent)
            return DTSS_OK;
        int rc = other ? other(ctx) : DTSS_OK;
        if (rc != DTSS_OK)
            return rc;
    }
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
            if (strcmp(v->hi[i].name, h) == 0)
                found = i;
        if (found < 0 && !absent_ok) {
            char list[512] = "";
            for (int i = 0; i < v->nhost; i++) {
                strncat(list, " ", sizeof list - strlen(list) - 1);
                strncat(list, v->hi[i].name, sizeof list - strlen(list) - 1);
            }
            fail(DTSS_ENOENT, msg, len, "--hosts: no host '%s' in the virtual machine "
                 "(it has:%s)", quote(h), list);
            free(copy);
            return -DTSS_ENOENT;
        }
        if (n == max) {
            free(copy);
            return fail(DTSS_EINVAL, msg, len, "--hosts: more than %d workers (the most the "
                        "%s transport carries)", max, tr_name());
        }
        pick[n++] = found;
    }
    free(copy);
    return n;
}

/* The speeds of the picked hosts: --speeds FILE's sp= values (a picked
 * host without a line is refused), then the transport's, measured where it
 * has none (MPI without --speeds). Into v->own, a copy of the hosts. */
static int set_speeds(const char *path, runtime_vm *v, const int *pick, int n, char *msg,
                      size_t len)
{
    rt_speed *sp = NULL;
    int nsp = 0;
    if (path && (nsp = rt_speeds_read(path, &sp, msg, len)) < 0) {
        char why[400];
        snprintf(why, sizeof why, "%s", msg);
        return fail(DTSS_EINVAL, msg, len, "--speeds: %s", why);
    }
    tr_host *own = realloc(v->own, sizeof *own * (size_t)v->nhost), *mine = NULL;
    if (own)
        mine = malloc(sizeof *mine * (size_t)n);
    if (!own || !mine) {
        if (own)
            v->own = own;
        free(sp);
        return fail(DTSS_ENOMEM, msg, len, "out of memory");
    }
    v->own = own;
    memcpy(own, v->hi, sizeof *own * (size_t)v->nhost);
    v->hi = own;
    for (int k = 0; k < n; k++) {
        if (pick[k] < 0)
            continue;
        tr_host *h = &own[pick[k]];
        if (path && (h->speed = rt_speeds_find(sp, nsp, h->name)) == 0) {
            fail(DTSS_EINVAL, msg, len, "--speeds %s: no line for host %s (a worker's)",
                 quote(path), quote(h->name));
            free(sp);
            free(mine);
            return -DTSS_EINVAL;
        }
    }
    free(sp);
    int m = 0;
    for (int k = 0; k < n; k++)
        if (pick[k] >= 0)
            mine[m++] = own[pick[k]];
    int rc = tr_measure_speeds(mine, m, msg, len);
    for (int k = 0, j = 0; rc == 0 && k < n; k++)
        if (pick[k] >= 0)
            own[pick[k]].speed = mine[j++].speed;
    free(mine);
    return rc < 0 ? -DTSS_EPVM : 0;
}

/* runtime_hosts into the caller's pick (max of them). */
static int hosts_into(const rt_place *p, int flags, runtime_vm *v, int *pick, int max,
                      char *msg, size_t len)
{
    int absent_ok = flags & RT_HOSTS_ABSENT;
    v->hi = NULL;                   /* set by tr_hosts once it read the hosts */
    if (p->include_self && (tr_caps() & TR_FIXED_WORLD))
        return fail(DTSS_EINVAL, msg, len, "--include-self: under %s every task but the "
                    "master is a worker already, on the master's host too; start one more "
                    "there (mpirun -np)", tr_name());
    if (tr_hosts(&v->hi, &v->nhost, &v->me, msg, len) < 0)
        return v->hi ? -DTSS_EINVAL : -DTSS_EPVM;   /* a misplaced master; no hosts */
    int n = 0;
    if (p->local) {                 /* --local N: the master's own host */
        if (p->local > max)
            return fail(DTSS_EINVAL, msg, len, "--local %d: more than %d workers", p->local,
                        max);
        for (; n < p->local; n++)
            pick[n] = v->me;
    } else if (p->hosts) {
        n = pick_named(p->hosts, absent_ok, v, pick, max, msg, len);
        if (n < 0)
            return n;
    } else {                        /* every host but the master's own */
        for (int i = 0; i < v->nhost && n < max; i++)
            if (i != v->me || p->include_self)
                pick[n++] = i;
    }
    if (n == 0)                     /* (the virtual machine, not the input: exit 1) */
        return fail(DTSS_EPVM, msg, len, (tr_caps() & TR_FIXED_WORLD) ?
                    "no workers: the launcher started only the master (%s); start more "
                    "tasks (mpirun -np N, N >= 2)" :
                    "no hosts to use: the virtual machine has "
                    "only this host (%s); add hosts (a hostfile, or 'add HOST' in the "
                    "pvm console), or run workers here with --local N or "
                    "--include-self", v->hi[v->me].name);
    int rc = (flags & RT_HOSTS_SPEEDS) ? set_speeds(p->speeds, v, pick, n, msg, len) : 0;
    return rc < 0 ? rc : n;
}

int runtime_hosts(const rt_place *p, int flags, runtime_vm *v, int **pick, int max,
                  char *msg, size_t len)
{
    if (max > tr_max_peers())
        max = tr_max_peers();       /* what the transport carries */
    *pick = malloc(sizeof **pick * (size_t)(max > 0 ? max : 1));
    if (!*pick)
        return fail(DTSS_ENOMEM, msg, len, "out of memory");
    int n = hosts_into(p, flags, v, *pick, max, msg, len);
    if (n < 0) {                    /* nothing left to free */
        free(*pick);
        *pick = NULL;
        runtime_vm_free(v);
    }
    return n;
}

void runtime_vm_free(runtime_vm *v)
{
    free(v->own);
    v->own = NULL;
    v->hi = NULL;
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

int runtime_spawn(const char *path, const char *const *hosts, int n, int watch_hosts,
                  tr_peer *peers, char *msg, size_t len)
{
    char self[4096], flag[] = "--dtss-worker";
    char *args[] = {flag, NULL};
    if (!(tr_caps() & TR_CAN_SPAWN))
        return fail(DTSS_EPVM, msg, len, "the %s transport cannot start workers (its "
                    "launcher starts them)", tr_name());
    if (watch_hosts && !(tr_caps() & TR_REPORTS_HOST_LOSS))
        watch_hosts = 0;                        /* a host's loss: its workers' exits */
    const char *prog = runtime_worker_program(path, self, sizeof self);
    if (!prog)
        return fail(DTSS_ENOENT, msg, len, "cannot tell which program this is "
                    "(/proc/self/exe); name the worker program with --worker");
    for (int k = 0; k < n; k++)
        if (tr_spawn(prog, args, hosts[k], &peers[k], msg, len) < 0) {
            for (int j = 0; j < k; j++)         /* nothing is left behind */
                tr_kill(peers[j]);
            return -DTSS_EPVM;
        }
    /* Notices of workers that exit and of hosts that leave. */
    int *ids = watch_hosts ? malloc(sizeof *ids * (size_t)(n > 0 ? n : 1)) : NULL, nd = 0;
    if (watch_hosts && !ids) {
        for (int j = 0; j < n; j++)
            tr_kill(peers[j]);
        return fail(DTSS_ENOMEM, msg, len, "out of memory");
    }
    for (int k = 0; watch_hosts && k < n; k++) {
        int d = tr_host_of(peers[k]), seen = 0;
        for (int j = 0; j < nd; j++)
            seen |= ids[j] == d;
        if (!seen)
            ids[nd++] = d;
    }
    int rc = tr_watch_exit(peers, n, msg, len);
    if (rc >= 0 && watch_hosts)
        rc = tr_watch_hosts(ids, nd, msg, len);
    free(ids);
    if (rc < 0) {
        for (int j = 0; j < n; j++)
            tr_kill(peers[j]);
        return -DTSS_EPVM;
    }
    return 0;
}
