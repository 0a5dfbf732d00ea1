/* lbopts.c: the options, spawning and asking shared by the two masters of
 * load balancing by migration (lbopts.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/dtss.h"
#include "runtime/core/join.h"
#include "runtime/core/lbopts.h"
#include "runtime/core/wire.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

void lb_opts_init(lb_opts *o)
{
    *o = (lb_opts){.type = &lb_yoon, .ct = 0.001, .late = late_default()};
}

void lb_opts_free(lb_opts *o)
{
    rt_place_free(&o->place);
    free(o->journal);
    o->journal = NULL;
}

int lb_opts_take(rt_handle *h, lb_opts *o, const char *fn, const char *after,
                 const char *name, const char *value)
{
    char msg[300];
    if (h->live)
        return rt_fail(h, DTSS_EMISUSE, "%s(%s): %s", fn, quote(name), after);
    if (!value)
        return rt_fail(h, DTSS_EINVAL, "--%s needs a value", quote(name));
    if (!lb_opts_known(name))
        return rt_fail(h, DTSS_ENOENT, "unknown option --%s", quote(name));
    int rc = rt_place_set(h, &o->place, 0, name, value);
    if (rc != DTSS_ENOENT)
        return rc;
    rc = lb_opts_set(o, name, value, msg, sizeof msg);
    return rc == DTSS_OK ? DTSS_OK : rt_fail(h, rc, "%s", msg);
}

int lb_opts_known(const char *name)
{
    return strcmp(name, "strategy") == 0 || strcmp(name, "ct") == 0 || strcmp(name, "late") == 0 ||
           strcmp(name, "journal") == 0 || strcmp(name, "resume") == 0 ||
           rt_place_opt(name, 0) >= 0;
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
            snprintf(msg, len, "--ct '%s' must be seconds in [0, 1e6]", quote(value));
            return DTSS_EINVAL;
        }
        o->ct = v;
    } else if (strcmp(name, "late") == 0) {
        if (late_parse(value, &o->late, &err) != SCHED_OK) {
            snprintf(msg, len, "%s", err.msg);
            return DTSS_EINVAL;
        }
    } else if (strcmp(name, "journal") == 0 || strcmp(name, "resume") == 0) {
        int resume = name[0] == 'r';
        if (o->journal && o->resume != resume) {
            snprintf(msg, len, "--journal with --resume: a resumed run appends to the "
                     "journal it resumes");
            return DTSS_EINVAL;
        }
        if (!*value || (resume && strcmp(value, "none") == 0)) {
            snprintf(msg, len, "--%s '%s': name a file%s", name, quote(value),
                     resume ? "" : ", or none");
            return DTSS_EINVAL;
        }
        char *copy = NULL;
        if (strcmp(value, "none") != 0 && !(copy = strdup(value))) {
            snprintf(msg, len, "out of memory");
            return DTSS_ENOMEM;
        }
        free(o->journal);
        o->journal = copy;
        o->resume = copy ? resume : 0;
    } else {
        return DTSS_ENOENT;
    }
    return DTSS_OK;
}

void lb_opts_usage(FILE *f, const char *title, const char *what_moves, const char *unit,
                   const char *journaled, const char *own)
{
    fprintf(f, "%s:\n", title);
    fprintf(f, "  --strategy NAME    %s (sched/lb/lb.h):", what_moves);
    for (int i = 0; lb_types[i]; i++)
        fprintf(f, " %s", lb_types[i]->name);
    fprintf(f, " (default yoon)\n"
"  --ct S             C_t, migrating one %s, seconds, [0, 10^6] (default\n"
"                       0.001; bin/netpipe measures a + b m for m bytes)\n"
"  --late F[,MIN]     a worker silent longer than max(F x its expected time,\n"
"                       MIN s) is taken for hung: its %ss are served again\n"
"                       without it (default 3,30; 0 = off)\n"
"  --journal FILE     journal %s to FILE, for --resume\n"
"                       ('none': no journal, the default)\n"
"  --resume FILE      continue the broken run journaled in FILE: only what\n"
"                       it lacks is computed\n", unit, unit,
            journaled);
    rt_place_usage(f, 0);
    fprintf(f, "  %s\n", own);
}

int lb_spawn(const lb_opts *o, tr_peer *tids, char **host, int max, char *msg, size_t len)
{
    runtime_vm v = {0};
    int *pick = NULL;
    const char **names = malloc(sizeof *names * (size_t)max);
    if (!names) {
        snprintf(msg, len, "out of memory");
        return -DTSS_ENOMEM;
    }
    int n = runtime_hosts(&o->place, 0, &v, &pick, max, msg, len);
    for (int i = 0; i < n; i++)
        if (!(host[i] = strdup(names[i] = v.hi[pick[i]].name))) {
            snprintf(msg, len, "out of memory");
            n = -DTSS_ENOMEM;
        }
    int rc = n > 0 ? runtime_spawn(o->place.worker_path, names, n, 0, tids, msg, len) : 0;
    if (n < 0 || rc < 0)
        for (int i = 0; i < max && host[i]; i++) {  /* no name is left */
            free(host[i]);
            host[i] = NULL;
        }
    free(pick);
    free(names);
    return n < 0 ? n : rc < 0 ? rc : n;
}

int lb_crew_start(rt_handle *h, const lb_opts *o, lb_crew *c)
{
    char msg[512];
    if (runtime_join(msg, sizeof msg) < 0)
        return rt_fail(h, DTSS_EPVM, "%s", msg);
    h->joined = 1;
    c->tids = calloc(WIRE_MAX_WORKERS, sizeof *c->tids);
    c->host = calloc(WIRE_MAX_WORKERS, sizeof *c->host);
    if (!c->tids || !c->host)
        return rt_fail(h, DTSS_ENOMEM, "out of memory");
    int n = lb_spawn(o, c->tids, c->host, WIRE_MAX_WORKERS, msg, sizeof msg);
    if (n < 0)
        return rt_fail(h, -n, "%s", msg);
    c->P = n;
    return DTSS_OK;
}

void lb_crew_end(rt_handle *h, lb_crew *c, int finished)
{
    for (int i = 0; h->joined && i < c->P && !finished; i++)
        if (c->tids[i] > 0)
            tr_kill(c->tids[i]);
    rt_leave(h);
    for (int i = 0; c->host && i < c->P; i++)
        free(c->host[i]);
    free(c->host);
    free(c->tids);
    *c = (lb_crew){0};
}

static void lb_master_init(lb_master *m)
{
    *m = (lb_master){0};
    lb_opts_init(&m->o);
}

void *lb_master_new(size_t size, const rt_kind *kind, size_t m_at)
{
    char *h = rt_new(size, kind);
    if (h)
        lb_master_init((lb_master *)(h + m_at));
    return h;
}

void lb_master_free(rt_handle *h, lb_master *m)
{
    lb_crew_end(h, &m->crew, m->finished);
    lb_opts_free(&m->o);
    rt_release(h);
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
