/* pool_options.c: the pool master's options (dtss.h, dtss_pool_set): one
 * table, to set them, to take them from a command line and to print them. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runtime/core/args.h"
#include "runtime/pool/pool.h"
#include "sched/util/parse.h"

/* The allocation delay's default and limit, seconds: 13 s is the delay that
 * gives the paper's Figure 4.2 at the paper's scale (docs/pool.md: the
 * largest 8-part task ~50 s; sim/pool.h SIM_POOL_DELAY, the same value). */
#define POOL_DELAY 13.0
#define POOL_DELAY_MAX 1e6

typedef struct option_def {
    const char *name;
    int has_value;
    const char *help;
} option_def;

static const option_def options[] = {
    {"strategy", 1, "NAME    adjust (default: Heymann et al. Figure 3.1) or static\n"
                    "                       (the paper's non-self-adjusting baseline)"},
    {"asp", 1, "READING      adjust: Nworkers = floor(asp) + 1 (floor1, default)\n"
               "                       or ceil(asp) (ceil)"},
    {"threshold", 1, "X      adjust: add a worker past max + MAX(min, X max) (0.15)"},
    {"efficiency", 1, "E     adjust: release a worker below this efficiency (0.8)"},
    {"delay", 1, "S          allocation delay, seconds, one worker at a time (13:\n"
                 "                       the paper's Figure 4.2 at its scale)"},
    {"hosts", 1, "H1,H2      the pool's hosts, a worker each at a time (default:\n"
                 "                       every host of the virtual machine but this one);\n"
                 "                       one not in it is added for a worker, deleted after"},
    {"local", 1, "N          the pool is N places on this host (a one-host VM)"},
    {"worker", 1, "PATH      the worker program (default: this program)"},
    {NULL, 0, NULL}
};

static const option_def *find(const char *name)
{
    for (int i = 0; options[i].name; i++)
        if (strcmp(options[i].name, name) == 0)
            return &options[i];
    return NULL;
}

/* The kind the base verbs of dtss.h dispatch on (core/handle.h). */
RT_MASTER_KIND(pool_kind, dtss_pool, pool_opt);

dtss_pool *dtss_pool_new(void)
{
    dtss_pool *p = calloc(1, sizeof *p);
    if (!p)
        return NULL;
    p->type = &pool_adjust;
    pool_params_init(&p->par);
    p->delay = POOL_DELAY;
    rt_init(&p->h, &pool_kind);
    return p;
}

void dtss_pool_log(dtss_pool *p, FILE *f, const char *prefix, int verbose)
{
    rt_set_log(&p->h, f, prefix, verbose);
}

int dtss_pool_job(dtss_pool *p, const void *job, size_t len)
{
    if (p->state != P_NEW)
        return pool_fail(p, DTSS_EMISUSE, "dtss_pool_job: after dtss_pool_start");
    return rt_set_job(&p->h, job, len, WIRE_MAX_JOB);
}

int dtss_pool_set(dtss_pool *p, const char *name, const char *value)
{
    sched_err err;
    if (p->state != P_NEW)
        return pool_fail(p, DTSS_EMISUSE, "option --%s set after dtss_pool_start", name);
    const option_def *o = find(name);
    if (!o)
        return pool_fail(p, DTSS_ENOENT, "unknown option '--%s'", name);
    if (!value)
        return pool_fail(p, DTSS_EINVAL, "option '--%s' needs a value", name);
    if (strcmp(name, "strategy") == 0) {
        const pool_type *T = pool_type_find(value, &err);
        if (!T)
            return pool_fail(p, DTSS_ENOENT, "--strategy: %s", err.msg);
        p->type = T;
    } else if (strcmp(name, "asp") == 0 || strcmp(name, "threshold") == 0 ||
               strcmp(name, "efficiency") == 0) {
        if (pool_params_set(&p->par, name, value, &err) != SCHED_OK)
            return pool_fail(p, err.code == SCHED_ENOENT ? DTSS_ENOENT : DTSS_EINVAL,
                             "--%s: %s", name, err.msg);
    } else if (strcmp(name, "delay") == 0) {
        double d;
        if (parse_double(value, &d) != 0 || !(d >= 0 && d <= POOL_DELAY_MAX))
            return pool_fail(p, DTSS_EINVAL, "--delay '%s': must be seconds in 0 .. %g",
                             value, POOL_DELAY_MAX);
        p->delay = d;
    } else if (strcmp(name, "hosts") == 0) {
        if (!*value || strspn(value, ",") == strlen(value))
            return pool_fail(p, DTSS_EINVAL, "--hosts '%s': no host named", value);
        if (p->local)
            return pool_fail(p, DTSS_EINVAL, "--hosts does not go with --local");
        return rt_set_text(&p->h, &p->hosts, value);
    } else if (strcmp(name, "local") == 0) {
        int n;
        if (parse_int_in(value, 1, WIRE_MAX_WORKERS, &n) != 0)
            return pool_fail(p, DTSS_EINVAL, "--local '%s': must be 1 .. %d", value,
                             WIRE_MAX_WORKERS);
        if (p->hosts)
            return pool_fail(p, DTSS_EINVAL, "--local does not go with --hosts");
        p->local = n;
    } else if (strcmp(name, "worker") == 0) {
        if (!*value)
            return pool_fail(p, DTSS_EINVAL, "--worker: an empty path");
        return rt_set_text(&p->h, &p->worker_path, value);
    }
    return DTSS_OK;
}

int pool_opt(const char *name)
{
    const option_def *o = find(name);
    return o ? o->has_value : -1;
}

int dtss_pool_args(dtss_pool *p, int *argc, char **argv)
{
    return rt_args(&p->h, argc, argv);
}

void dtss_pool_usage(FILE *f)
{
    for (int i = 0; options[i].name; i++)
        fprintf(f, "  --%s %s\n", options[i].name, options[i].help);
}
