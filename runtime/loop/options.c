/* options.c: the master's options (dtss.h, dtss_master_set): one table,
 * used to set them, to take them from a command line, and to print them. */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "runtime/core/args.h"
#include "runtime/loop/master.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

/* The master's own options (the placement options: core/place.h). */
static const rt_option options[] = {
    {"scheme", 1, "NAME      dtss (default), tss, gss, fss, css, pss, qss, ess, rss,\n"
                  "                       wf, awf-b, awf-c, awf-d, awf-e, af, dtss-m (ours:\n"
                  "                       DTSS sized by measured rates), tree (Tree-Scheduling),\n"
                  "                       or auto (chosen by simulating the candidates on\n"
                  "                       what was measured, after a probe of small css chunks)"},
    {"candidates", 1, "LIST  auto's candidates, e.g. css,gss,dtss (default:\n"
                      "                       every scheme but tree and pss)"},
    {"min", 1, "N            minimum chunk size (default 1)"},
    {"iterations", 1, "N     the loop's iterations"},
    {"sample", 1, "R         pseudo-uniform sampling frequency (1 = off)"},
    {"acp-int", 0, "         A_i = floor(V_i / Q_i), the paper's integer rule\n"
                   "                       (default: real-valued)"},
    {"probe", 1, "B          the workers' load probe: auto (default), proc, cgroup"},
    {"late", 1, "F[,MIN]     serve a chunk again to an idle worker once it is out\n"
                "                       longer than max(F x its expected time, MIN s)\n"
                "                       (a hung worker; default 3,30; 0 = off; under tree:\n"
                "                       a worker silent that long is ended, its range\n"
                "                       served again)"},
    {"ahead", 1, "F|rtt      ask for the next chunk before the current one is\n"
                 "                       done: while F of it is left, or (rtt) about two\n"
                 "                       reply waits before its expected end; its results\n"
                 "                       go on their own (0 = off, the default; not tree)"},
    {"journal", 1, "FILE     write each result to FILE as it arrives, for --resume\n"
                   "                       ('none': no journal, the default)"},
    {"resume", 1, "FILE      continue the broken run journaled in FILE (its scheme,\n"
                  "                       loop and job): only what it lacks is computed"},
    {NULL, 0, NULL}
};

/* A parameter of some scheme ("F", "delta", ...): its static name, or NULL. */
static const char *scheme_param(const char *name)
{
    for (int i = 0; sched_types[i]; i++)
        for (int j = 0; sched_types[i]->params[j].name; j++)
            if (strcmp(sched_types[i]->params[j].name, name) == 0)
                return sched_types[i]->params[j].name;
    return NULL;
}

int master_is_param(const char *name_value)
{
    char name[64];
    size_t n = strcspn(name_value, "=");
    if (n >= sizeof name)
        return 0;
    memcpy(name, name_value, n);
    name[n] = '\0';
    return strcmp(name, "min") == 0 || scheme_param(name) != NULL;
}

static int parse_count(const char *s, long lo, long hi, long *out)
{
    return s ? parse_long_in(s, lo, hi, out) : -1;
}

int dtss_master_set(dtss_master *m, const char *name, const char *value)
{
    long v;
    if (m->state != M_NEW)
        return master_fail(m, DTSS_EMISUSE, "option --%s set after dtss_master_start",
                           quote(name));
    int rc = rt_place_set(&m->h, &m->place, RT_PLACE_SELF | RT_PLACE_SPEEDS, name, value);
    if (rc != DTSS_ENOENT)
        return rc;
    const rt_option *o = rt_option_find(options, name);
    const char *param = o ? NULL : scheme_param(name);
    if (!o && !param)
        return master_fail(m, DTSS_ENOENT, "unknown option '--%s'", quote(name));
    if ((o ? o->has_value : 1) && !value)
        return master_fail(m, DTSS_EINVAL, "option '--%s' needs a value", quote(name));
    if (param) {
        for (int i = 0; i < m->nparam; i++)
            if (m->pname[i] == param)
                return rt_set_text(&m->h, &m->pvalue[i], value);
        if (m->nparam == MASTER_MAX_PARAMS)
            return master_fail(m, DTSS_EINVAL, "more than %d scheme parameters",
                               MASTER_MAX_PARAMS);
        m->pname[m->nparam] = param;
        m->pvalue[m->nparam] = NULL;
        rc = rt_set_text(&m->h, &m->pvalue[m->nparam], value);
        if (rc == DTSS_OK)
            m->nparam++;
        return rc;
    }
    if (strcmp(name, "scheme") == 0) {
        sched_err err;
        int fixed = strcasecmp(value, "tree") == 0 || strcasecmp(value, SIM_AUTO_NAME) == 0;
        if (!fixed && !sched_type_find(value, &err))
            return master_fail(m, DTSS_ENOENT, "%s, tree or auto", err.msg);
        snprintf(m->scheme, sizeof m->scheme, "%s",
                 strcasecmp(value, "tree") == 0 ? "tree" : fixed ? SIM_AUTO_NAME :
                 sched_type_find(value, NULL)->name);
    } else if (strcmp(name, "candidates") == 0) {
        char msg[256];
        const sched_type *C[SIM_AUTO_CANDIDATES];
        if (sim_auto_candidates(value, C, SIM_AUTO_CANDIDATES, msg, sizeof msg) < 0)
            return master_fail(m, DTSS_EINVAL, "--candidates: %s", msg);
        return rt_set_text(&m->h, &m->candidates, value);
    } else if (strcmp(name, "min") == 0) {
        if (parse_count(value, 1, WIRE_MAX_ITERS, &v) != 0)
            return master_fail(m, DTSS_EINVAL, "--min '%s' must be an integer in "
                               "[1, %ld]", quote(value), WIRE_MAX_ITERS);
        return rt_set_text(&m->h, &m->min_text, value);
    } else if (strcmp(name, "iterations") == 0) {
        if (parse_count(value, 0, WIRE_MAX_ITERS, &v) != 0)
            return master_fail(m, DTSS_EINVAL, "--iterations '%s' must be an integer "
                               "in [0, %ld]", quote(value), WIRE_MAX_ITERS);
        m->iters = v;
    } else if (strcmp(name, "sample") == 0) {
        if (parse_count(value, 1, 1000000, &v) != 0)
            return master_fail(m, DTSS_EINVAL, "--sample '%s' must be an integer in "
                               "[1, 1000000]", quote(value));
        m->sample = (int)v;
    } else if (strcmp(name, "acp-int") == 0) {
        m->acp_integer = 1;
    } else if (strcmp(name, "probe") == 0) {
        if (probe_backend_parse(value, &m->probe) != 0)
            return master_fail(m, DTSS_EINVAL, "--probe '%s': use auto, proc or cgroup",
                               quote(value));
    } else if (strcmp(name, "journal") == 0) {
        if (m->resume)
            return master_fail(m, DTSS_EINVAL, "--journal with --resume: a resumed run "
                               "appends to the journal it resumes");
        if (!*value)
            return master_fail(m, DTSS_EINVAL, "--journal '': name a file, or none");
        free(m->journal_path);
        m->journal_path = NULL;
        return strcmp(value, "none") == 0 ? DTSS_OK : rt_set_text(&m->h, &m->journal_path, value);
    } else if (strcmp(name, "resume") == 0) {
        return master_resume_from(m, value);
    } else if (strcmp(name, "ahead") == 0) {
        sched_err err;
        if (sched_ahead_parse(value, &m->ahead, &err) != SCHED_OK)
            return master_fail(m, DTSS_EINVAL, "%s", err.msg);
    } else if (strcmp(name, "late") == 0) {
        sched_err err;
        if (late_parse(value, &m->late, &err) != SCHED_OK)
            return master_fail(m, DTSS_EINVAL, "%s", err.msg);
    }
    return DTSS_OK;
}

int master_opt(const char *name)
{
    const rt_option *o = rt_option_find(options, name);
    int place = rt_place_opt(name, RT_PLACE_SELF | RT_PLACE_SPEEDS);
    return o ? o->has_value : place >= 0 ? place : scheme_param(name) ? 1 : -1;
}

void dtss_master_usage(FILE *f)
{
    rt_option_usage(options, f);
    rt_place_usage(f, RT_PLACE_SELF | RT_PLACE_SPEEDS);
    fprintf(f, "  --PARAM VALUE        a parameter of the scheme:");
    int col = 48;
    for (int i = 0; sched_types[i]; i++)
        for (int j = 0; sched_types[i]->params[j].name; j++) {
            const char *p = sched_types[i]->params[j].name;
            if (scheme_param(p) != p)
                continue;
            int seen = 0;               /* each name once */
            for (int k = 0; k < i && !seen; k++)
                for (int l = 0; sched_types[k]->params[l].name; l++)
                    seen |= strcmp(sched_types[k]->params[l].name, p) == 0;
            if (seen)
                continue;
            if (col + (int)strlen(p) + 4 > 78) {
                fprintf(f, "\n                      ");
                col = 22;
            }
            col += fprintf(f, " --%s", p);
        }
    fprintf(f, "\n                       (see bin/chunks --help)\n");
}
