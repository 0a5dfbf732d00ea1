/* pool_options.c: the pool master's options (dtss.h, dtss_pool_set): one
 * table, to set them, to take them from a command line and to print them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runtime/core/args.h"
#include "runtime/pool/pool.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

/* The allocation delay's default and limit, seconds: 13 s is the delay that
 * gives the paper's Figure 4.2 at the paper's scale (docs/pool.md: the
 * largest 8-part task ~50 s; sim/pool.h SIM_POOL_DELAY, the same value). */
#define POOL_DELAY 13.0
#define POOL_DELAY_MAX 1e6

/* The pool's own options (the placement options: core/place.h). */
static const rt_option options[] = {
    {"strategy", 1, "NAME    adjust (default: Heymann et al. Figure 3.1) or static\n"
                    "                       (the paper's non-self-adjusting baseline)"},
    {"asp", 1, "READING      adjust: Nworkers = floor(asp) + 1 (floor1, default)\n"
               "                       or ceil(asp) (ceil)"},
    {"threshold", 1, "X      adjust: add a worker past max + MAX(min, X max) (0.15)"},
    {"efficiency", 1, "E     adjust: release a worker below this efficiency (0.8)"},
    {"allocator", 1, "NAME   where the workers' hosts come from: delay (default: the\n"
                     "                       model of --delay) or slurm (a Slurm allocation of\n"
                     "                       one node a worker, ended with it; docs/slurm.md)"},
    {"delay", 1, "S          delay: allocation delay, seconds, one worker at a time\n"
                 "                       (13: the paper's Figure 4.2 at its scale)"},
    {"late", 1, "F[,MIN]     a worker whose task is out longer than max(F x its\n"
                "                       expected time, MIN s) is taken for hung: the task\n"
                "                       runs again elsewhere (default 3,30; 0 = off)"},
    {"journal", 1, "FILE     write each result to FILE as it is accepted, for\n"
                   "                       --resume ('none': no journal, the default)"},
    {"resume", 1, "FILE      continue the broken run journaled in FILE: its results\n"
                  "                       are taken from it, not computed again; new ones\n"
                  "                       are appended to it"},
    {NULL, 0, NULL}
};

/* The kind the base verbs of dtss.h dispatch on (core/handle.h). */
RT_MASTER_BASE(pool_kind, dtss_pool, pool_opt)

dtss_pool *dtss_pool_new(void)
{
    dtss_pool *p = rt_new(sizeof *p, &pool_kind);
    if (!p)
        return NULL;
    p->type = &pool_adjust;
    p->alloc = &pool_alloc_delay;
    pool_params_init(&p->par);
    p->delay = POOL_DELAY;
    p->late = late_default();
    return p;
}

int dtss_pool_set(dtss_pool *p, const char *name, const char *value)
{
    sched_err err;
    if (p->state != P_NEW)
        return pool_fail(p, DTSS_EMISUSE, "option --%s set after dtss_pool_start", quote(name));
    if (strcmp(name, "hosts") == 0 && p->place.local)
        return pool_fail(p, DTSS_EINVAL, "--hosts does not go with --local");
    if (strcmp(name, "local") == 0 && p->place.hosts)
        return pool_fail(p, DTSS_EINVAL, "--local does not go with --hosts");
    int rc = rt_place_set(&p->h, &p->place, 0, name, value);
    if (rc != DTSS_ENOENT)
        return rc;
    const rt_option *o = rt_option_find(options, name);
    if (!o)
        return pool_fail(p, DTSS_ENOENT, "unknown option '--%s'", quote(name));
    if (!value)
        return pool_fail(p, DTSS_EINVAL, "option '--%s' needs a value", quote(name));
    if (strcmp(name, "strategy") == 0) {
        const pool_type *T = pool_type_find(value, &err);
        if (!T)
            return pool_fail(p, DTSS_ENOENT, "--strategy: %s", err.msg);
        p->type = T;
    } else if (strcmp(name, "asp") == 0 || strcmp(name, "threshold") == 0 ||
               strcmp(name, "efficiency") == 0) {
        if (pool_params_set(&p->par, name, value, &err) != SCHED_OK)
            return pool_fail(p, err.code == SCHED_ENOENT ? DTSS_ENOENT : DTSS_EINVAL,
                             "--%s: %s", quote(name), err.msg);
    } else if (strcmp(name, "allocator") == 0) {
        const pool_alloc_type *A = pool_alloc_find(value);
        if (!A)
            return pool_fail(p, DTSS_ENOENT, "--allocator '%s': unknown (valid: delay, slurm)",
                             quote(value));
        p->alloc = A;
    } else if (strcmp(name, "delay") == 0) {
        double d;
        if (parse_double(value, &d) != 0 || !(d >= 0 && d <= POOL_DELAY_MAX))
            return pool_fail(p, DTSS_EINVAL, "--delay '%s': must be seconds in 0 .. %g",
                             quote(value), POOL_DELAY_MAX);
        p->delay = d;
    } else if (strcmp(name, "journal") == 0 || strcmp(name, "resume") == 0) {
        int resume = name[0] == 'r';
        if (p->jn.path && p->jn.resume != resume)
            return pool_fail(p, DTSS_EINVAL, "--%s with --%s: a resumed run appends to "
                             "the journal it resumes", name, resume ? "journal" : "resume");
        if (!*value)
            return pool_fail(p, DTSS_EINVAL, "--%s '': name a file%s", name,
                             resume ? "" : ", or none");
        free(p->jn.path);
        p->jn.path = NULL;
        p->jn.resume = 0;
        if (!resume && strcmp(value, "none") == 0)
            return DTSS_OK;
        p->jn.resume = resume;
        return rt_set_text(&p->h, &p->jn.path, value);
    } else if (strcmp(name, "late") == 0) {
        if (late_parse(value, &p->late, &err) != SCHED_OK)
            return pool_fail(p, DTSS_EINVAL, "%s", err.msg);
    }
    return DTSS_OK;
}

int pool_opt(const char *name)
{
    const rt_option *o = rt_option_find(options, name);
    return o ? o->has_value : rt_place_opt(name, 0);
}

void dtss_pool_usage(FILE *f)
{
    rt_option_usage(options, f);
    rt_place_usage(f, 0);
    fprintf(f, "                       (the pool: a worker a host at a time; a host of\n"
               "                       --hosts not in the virtual machine is added for\n"
               "                       its worker and deleted after)\n");
}
