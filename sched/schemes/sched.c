/* sched.c: the driver common to every scheme: lookup, parameters, rounding. */
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sched/schemes/sched_impl.h"
#include "sched/util/conv.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

const sched_type *const sched_types[] = {
    &sched_pss, &sched_css, &sched_gss, &sched_tss, &sched_fss,
    &sched_qss, &sched_ess, &sched_rss, &sched_wf, &sched_awf_b, &sched_awf_c,
    &sched_awf_d, &sched_awf_e, &sched_af, &sched_dtss, &sched_dtss_m, NULL
};

struct sched {
    const sched_type *type;
    long I, remaining, next_start, steps, min_chunk;
    int P;
    char errmsg[256];
    double state[];             /* the scheme's state: type->size bytes, then
                                   P x type->worker_size */
};

int sched_fail(sched_err *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        err->code = code;
    }
    return code;
}

const sched_type *sched_type_find(const char *name, sched_err *err)
{
    char list[200] = "";
    for (int i = 0; sched_types[i]; i++) {
        if (name && strcasecmp(name, sched_types[i]->name) == 0)
            return sched_types[i];
        if (i) strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, sched_types[i]->name, sizeof list - strlen(list) - 1);
    }
    sched_fail(err, SCHED_ENOENT, "unknown scheme '%s' (valid: %s)", quote(name), list);
    return NULL;
}

void sched_config_init(sched_config *cfg, const sched_type *T, long I, int P)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->type = T;
    cfg->I = I;
    cfg->P = P;
    cfg->A = 0;
    cfg->min_chunk = 1;
    for (int i = 0; i < SCHED_MAX_PARAMS; i++)
        cfg->param[i] = NAN;
}

int sched_config_set(sched_config *cfg, const char *name, const char *value,
                     sched_err *err)
{
    const sched_type *T = cfg->type;
    char list[120] = "";
    int idx = -1;
    for (int i = 0; T->params[i].name; i++) {
        if (strcmp(T->params[i].name, name) == 0)
            idx = i;
        if (i) strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, T->params[i].name, sizeof list - strlen(list) - 1);
    }
    if (idx < 0)
        return sched_fail(err, SCHED_ENOENT,
                          "%s takes no parameter '%s' (it takes: %s)", T->name,
                          quote(name), list[0] ? list : "none");
    double v;
    if (parse_double(value, &v) != 0)
        return sched_fail(err, SCHED_EINVAL, "%s: %s='%s' is not a number",
                          T->name, name, quote(value));
    cfg->param[idx] = v;
    return SCHED_OK;
}

sched *sched_new(const sched_config *cfg, sched_err *err)
{
    const sched_type *T = cfg->type;
    if (!T) {
        sched_fail(err, SCHED_EINVAL, "no scheme given");
        return NULL;
    }
    if (cfg->I < 0) {
        sched_fail(err, SCHED_EINVAL, "%s: I=%ld iterations must be >= 0",
                   T->name, cfg->I);
        return NULL;
    }
    if (cfg->P < 1) {
        sched_fail(err, SCHED_EINVAL, "%s: P=%d workers must be >= 1",
                   T->name, cfg->P);
        return NULL;
    }
    if (cfg->min_chunk < 1) {
        sched_fail(err, SCHED_EINVAL, "%s: minimum chunk %ld must be >= 1",
                   T->name, cfg->min_chunk);
        return NULL;
    }
    if (!(cfg->A >= 0) || !isfinite(cfg->A)) {
        sched_fail(err, SCHED_EINVAL,
                   "%s: total available computing power A=%g must be > 0",
                   T->name, cfg->A);
        return NULL;
    }
    size_t per = T->worker_size, bytes = sizeof(sched) + T->size;
    sched *s = NULL;
    if (per == 0 || (size_t)cfg->P <= (SIZE_MAX - bytes) / per)
        s = calloc(1, bytes + (size_t)cfg->P * per);
    if (!s) {
        sched_fail(err, SCHED_ENOMEM, "%s: out of memory", T->name);
        return NULL;
    }
    s->type = T;
    s->I = s->remaining = cfg->I;
    s->min_chunk = cfg->min_chunk;
    s->P = cfg->P;
    if (T->init(s->state, cfg, err) != SCHED_OK) {
        free(s);
        return NULL;
    }
    return s;
}

void sched_free(sched *s)
{
    free(s);
}

long sched_next(sched *s, double acp, long *start)
{
    sched_request rq = {SCHED_ANY_WORKER, acp, NAN, NAN, 0, 0};
    return sched_next_w(s, &rq, start);
}

/* A measured time: NAN, or finite and >= 0. */
static int time_ok(double t)
{
    return isnan(t) || (t >= 0 && isfinite(t));
}

long sched_next_w(sched *s, const sched_request *rq, long *start)
{
    if (s->remaining <= 0)
        return 0;
    const char *who = s->type->name;
    if (!(rq->acp > 0) || !isfinite(rq->acp)) {
        snprintf(s->errmsg, sizeof s->errmsg,
                 "%s: available computing power %g must be > 0", who, rq->acp);
        return -1;
    }
    if (rq->worker != SCHED_ANY_WORKER && (rq->worker < 0 || rq->worker >= s->P)) {
        snprintf(s->errmsg, sizeof s->errmsg,
                 "%s: worker %d is not in [0, %d)", who, rq->worker, s->P);
        return -1;
    }
    if (!time_ok(rq->mu) || !time_ok(rq->sigma) || rq->n < 0 || !time_ok(rq->rate)) {
        snprintf(s->errmsg, sizeof s->errmsg,
                 "%s: worker %d's measurement mu=%g sigma=%g n=%ld rate=%g: times "
                 "and rate must be >= 0 (or NAN), n >= 0", who, rq->worker, rq->mu,
                 rq->sigma, rq->n, rq->rate);
        return -1;
    }
    double c = s->type->next_w ? s->type->next_w(s->state, s->remaining, rq)
                               : s->type->next(s->state, s->remaining, rq->acp);
    /* The rounding convention (sched.h). Comparing in double first keeps a
     * huge, hugely negative or NaN C(t) from overflowing the conversion to
     * long. */
    long size;
    if (!(c < (double)s->remaining))
        size = s->remaining;
    else if (c <= (double)s->min_chunk)
        size = s->min_chunk < s->remaining ? s->min_chunk : s->remaining;
    else
        size = conv_clamp(ceil(c), s->min_chunk, s->remaining);  /* c in (min, rem) */
    if (start)
        *start = s->next_start;
    s->next_start += size;
    s->remaining -= size;
    s->steps++;
    return size;
}

int sched_done(sched *s, int worker, long size, double work, double elapsed)
{
    const char *who = s->type->name;
    if (worker < 0 || worker >= s->P) {
        snprintf(s->errmsg, sizeof s->errmsg,
                 "%s: worker %d is not in [0, %d)", who, worker, s->P);
        return SCHED_EINVAL;
    }
    if (size < 1 || isnan(work) || !time_ok(work) || !time_ok(elapsed)) {
        snprintf(s->errmsg, sizeof s->errmsg,
                 "%s: worker %d's chunk of %ld iterations in %g s (%g s elapsed): "
                 "the size must be >= 1, the times >= 0", who, worker, size, work,
                 elapsed);
        return SCHED_EINVAL;
    }
    if (s->type->done)
        s->type->done(s->state, worker, size, work, elapsed);
    return SCHED_OK;
}

int sched_replan(sched *s, double acp_total, sched_err *err)
{
    if (!s->type->replan)
        return sched_fail(err, SCHED_ENOTSUP, "%s has no re-planning rule",
                          s->type->name);
    if (!(acp_total > 0) || !isfinite(acp_total))
        return sched_fail(err, SCHED_EINVAL,
                          "%s: total available computing power A=%g must be > 0",
                          s->type->name, acp_total);
    return s->type->replan(s->state, s->remaining, acp_total, err);
}

int sched_type_fed(const sched_type *T)
{
    return T && (T->next_w || T->done);
}

long sched_remaining(const sched *s) { return s->remaining; }
long sched_steps(const sched *s) { return s->steps; }
const sched_type *sched_get_type(const sched *s) { return s->type; }
const char *sched_error(const sched *s) { return s->errmsg; }

double sched_acp(double V, double Q, int cpus, int integer)
{
    if (cpus > 1)
        Q /= cpus;
    if (Q < 1)
        Q = 1;
    return integer ? floor(V / Q) : V / Q;
}

int sched_trapezoid_plan(sched_trapezoid *t, long I, double units,
                         double F_given, double L_given, const char *who,
                         sched_err *err)
{
    double L = isnan(L_given) ? 1.0 : L_given;
    if (!(L >= 1))
        return sched_fail(err, SCHED_EINVAL, "%s: L=%g must be >= 1", who, L);
    double F;
    if (isnan(F_given)) {
        /* eq. (1): F = I / 2A. For a loop too short for a trapezoid
         * (I / 2A < L) every chunk is simply L. */
        F = (double)I / (2.0 * units);
        if (F < L)
            F = L;
    } else {
        F = F_given;
        if (!(F >= L))
            return sched_fail(err, SCHED_EINVAL,
                              "%s: F=%g must be >= L=%g", who, F, L);
    }
    t->F = F;
    t->L = L;
    t->N = 2.0 * (double)I / (F + L);                   /* eq. (2) */
    t->D = t->N > 1 ? (F - L) / (t->N - 1) : 0.0;       /* eq. (3) */
    return SCHED_OK;
}
