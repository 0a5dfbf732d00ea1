/* pool_record.c: a pool run's figures, its summary line and its run record
 * (sched/records/poolrec.h says the schema). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/pool/pool.h"
#include "sched/util/quote.h"

int dtss_pool_stats_get(const dtss_pool *p, dtss_pool_stats *s)
{
    pool_totals t;
    memset(s, 0, sizeof *s);
    if (p->state != P_FINISHED)
        return DTSS_EMISUSE;
    pool_meter_totals(&p->meter, &t);
    *s = (dtss_pool_stats){.iterations = t.iterations, .time = t.time,
                           .workers = t.workers, .efficiency = t.efficiency,
                           .peak = p->counts.peak, .requested = p->counts.requested,
                           .cancelled = p->counts.cancelled,
                           .released = p->counts.released, .lost = p->lost,
                           .hung = p->hung, .resumed = p->jn.served};
    return DTSS_OK;
}

static void summary_line(const dtss_pool *p, const dtss_pool_stats *s, FILE *f)
{
    long computed = 0;
    for (int i = 0; i < p->nw; i++)
        computed += p->w[i].tasks;
    fprintf(f, "%s: iterations %d, workers %.2f, efficiency %.3f, time %.3f s, "
            "time/efficiency %.3f s, peak %d%s", p->type->name, s->iterations, s->workers,
            s->efficiency, s->time, s->efficiency > 0 ? s->time / s->efficiency : 0, s->peak,
            s->lost || s->hung ? ", workers lost" : "");
    if (p->jn.resume)
        fprintf(f, ", resumed %ld (results from the journal; %ld computed)", s->resumed,
                computed);
}

RT_SUMMARY(dtss_pool, summary_line)

/* key=value as dtss_master_field: letters, digits, '_', '-', '.'. */
int dtss_pool_field(dtss_pool *p, const char *key, const char *value)
{
    if (!key || !*key || strspn(key, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                "0123456789_-.") != strlen(key))
        return pool_fail(p, DTSS_EINVAL, "record field '%s': a key is letters, digits, "
                         "'_', '-', '.'", quote(key ? key : ""));
    if (!value || strpbrk(value, ",\r\n"))
        return pool_fail(p, DTSS_EINVAL, "record field %s: a value without commas or "
                         "line breaks", quote(key));
    char **k = realloc(p->fkey, sizeof *k * (size_t)(p->nf + 1));
    if (k)
        p->fkey = k;
    char **v = realloc(p->fval, sizeof *v * (size_t)(p->nf + 1));
    if (v)
        p->fval = v;
    char *kc = strdup(key), *vc = strdup(value);
    if (!k || !v || !kc || !vc) {
        free(kc);
        free(vc);
        return pool_fail(p, DTSS_ENOMEM, "out of memory");
    }
    p->fkey[p->nf] = kc;
    p->fval[p->nf++] = vc;
    return DTSS_OK;
}

/* "%.6f", or nothing for NAN. */
static void num(FILE *f, double x)
{
    if (!isnan(x))
        fprintf(f, "%.6f", x);
}

static void write_all(const void *ctx, FILE *f)
{
    const dtss_pool *p = ctx;
    char buf[512], lost[32];
    pool_totals t;
    pool_meter_totals(&p->meter, &t);
    /* The delay: --delay's, or Slurm's measured mean (alloc_slurm.c). */
    double delay = p->ra.granted ? p->ra.delay_sum / (double)p->ra.granted : p->delay;
    poolrec_run run = {.type = p->type, .params = p->par, .delay = delay,
                       .border = p->nit > 1 ? p->border / (p->nit - 1) : 0, .scale = 1,
                       .parts = p->ntasks, .iterations = p->nit};
    poolrec_write_run(f, &run);
    poolrec_write_iterations(f, p->it, p->nit);
    poolrec_write_total(f, &t, &p->counts);
    poolrec_write_field(f, 1, "date", p->date);
    snprintf(lost, sizeof lost, "%ld", p->lost);
    poolrec_write_field(f, 0, "lost", lost);
    snprintf(lost, sizeof lost, "%ld", p->hung);
    poolrec_write_field(f, 0, "hung", lost);
    snprintf(lost, sizeof lost, "%ld", p->hosts_added);
    poolrec_write_field(f, 0, "hosts_added", lost);
    snprintf(lost, sizeof lost, "%ld", p->jn.served);
    poolrec_write_field(f, 0, "resumed", lost);
    for (int k = 0; k < p->nf; k++)
        poolrec_write_field(f, 0, p->fkey[k], p->fval[k]);
    fprintf(f, "#worker,worker,host,seen_host,tid,spawned,joined,left,why,tasks,busy\n");
    for (int i = 0; i < p->nw; i++) {
        const pworker *w = &p->w[i];
        fprintf(f, "worker,%d,%s,", i + 1, poolrec_text(buf, sizeof buf,
                                                        p->slot[w->slot].host));
        fprintf(f, "%s,%d,", poolrec_text(buf, sizeof buf, w->seen_host ? w->seen_host
                                                                          : ""), w->tid);
        num(f, w->spawned);
        fputc(',', f);
        num(f, w->joined);
        fputc(',', f);
        num(f, w->left);
        fprintf(f, ",%s,%d,%.6f\n", w->why ? w->why : "end", w->tasks, w->busy);
    }
    fprintf(f, "#task,iteration,task,worker,sent,started,finished,received,seconds,"
            "tries\n");
    for (int r = 0; r < p->ntr; r++) {
        const ptask_rec *x = &p->tr[r];
        fprintf(f, "task,%d,%d,%d,", x->iteration, x->task, x->worker);
        num(f, x->sent);
        fputc(',', f);
        num(f, x->started);
        fputc(',', f);
        num(f, x->finished);
        fputc(',', f);
        num(f, x->received);
        fputc(',', f);
        num(f, x->seconds);
        fprintf(f, ",%d\n", x->tries);
    }
}

int dtss_pool_write_record(dtss_pool *p, const char *path)
{
    return rt_write_record(&p->h, p->state == P_FINISHED, path, write_all, p);
}
