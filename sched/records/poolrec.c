/* poolrec.c: the run record of an iterative master-worker run
 * (poolrec.h says the schema). */
#include <stdio.h>
#include <string.h>

#include "sched/records/poolrec.h"

const char *poolrec_text(char *buf, size_t len, const char *s)
{
    size_t i = 0;
    for (; s && s[i] && i + 1 < len; i++)
        buf[i] = s[i] == ',' || s[i] == '\n' || s[i] == '\r' ? '_' : s[i];
    if (len)
        buf[i < len ? i : len - 1] = '\0';
    return buf;
}

void poolrec_write_run(FILE *f, const poolrec_run *r)
{
    fprintf(f, "#run,strategy,asp,delay,border,scale,parts,iterations\n");
    fprintf(f, "run,%s,%s,%.9g,%.9g,%.9g,%d,%ld\n", r->type->name,
            r->type == &pool_adjust ? (r->params.asp == POOL_ASP_CEIL ? "ceil" : "floor1")
                                    : "",
            r->delay, r->border, r->scale, r->parts, r->iterations);
}

void poolrec_write_iterations(FILE *f, const pool_iter_rec *it, long n)
{
    fprintf(f, "#iteration,number,tasks,held,requested,pending,most,stable,begin,time,"
            "efficiency,sum,max,min,asp,rule,capped,next\n");
    for (long k = 0; k < n; k++) {
        const pool_decision *d = &it[k].d;
        fprintf(f, "iteration,%ld,%d,%d,%d,%d,%d,%d,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,"
                "%s,%d,%d\n", it[k].number, it[k].tasks, d->current, d->before,
                it[k].pending, it[k].most, d->stable, it[k].begin, d->exec_time,
                d->efficiency, d->sum, d->max, d->min, d->asp, pool_rule_name(d->rule),
                d->capped, d->nworkers);
    }
}

void poolrec_write_total(FILE *f, const pool_totals *t, const poolrec_counts *c)
{
    fprintf(f, "#total,time,workers,efficiency,time_per_efficiency,held,useful,peak,"
            "peak_iteration,requested,cancelled,released\n");
    fprintf(f, "total,%.9g,%.9g,%.9g,%.9g,%.9g,%.9g,%d,%ld,%ld,%ld,%ld\n", t->time,
            t->workers, t->efficiency, t->ratio, t->held, t->useful, c->peak,
            c->peak_number, c->requested, c->cancelled, c->released);
}

void poolrec_write_field(FILE *f, int first, const char *key, const char *value)
{
    char k[128], v[512];
    if (first)
        fprintf(f, "#field,key,value\n");
    fprintf(f, "field,%s,%s\n", poolrec_text(k, sizeof k, key),
            poolrec_text(v, sizeof v, value));
}
