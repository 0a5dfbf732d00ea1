/* record.c: the run record (one CSV file) and the paper's summary line.
 *
 * The run record holds one record per line, its kind in the first field, and
 * a header line '#kind,field,...' before the first record of each kind:
 *
 *   run     scheme, workers, rows, width, height, maxiter, sample, finish,
 *           imbalance, replans, checksum, date
 *   worker  worker (1..n), host (PVM's name), seen_host (the worker's own
 *           gethostname), tid, V, backend, cgroup, chunks, rows, finish
 *   report  worker, time, Q, A          (every A_i report, Sec. 5.3 step 2)
 *   chunk   id, worker, start, size, acp, sent, recv, started, finished,
 *           received, reissue, done
 *
 * Times are seconds from t = 0, the moment the coordinator starts handing out
 * work (self-scheduling: after every worker's first report; Tree-Scheduling:
 * when the ranges are sent). sent and received are the coordinator's clock;
 * recv (the chunk arrived at the worker), started and finished are the
 * worker's wall clock, comparable when the hosts' clocks agree (always on the
 * emulated cluster, which is one machine). 'start' and 'size' index the
 * pseudo-uniformly sampled loop (row = mandel_sample_row(start + i)).
 * A worker's finish W_i is when the coordinator received the results of its
 * last chunk; Finish Time is when every row was in; Imbalance = max - min of
 * the W_i over the workers that did any work (Xu & Chronopoulos Tables 1-2).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "coordinator/coordinator.h"

crecord_chunk *record_chunk(run *r)
{
    if (r->nchunks == r->capchunks) {
        long cap = r->capchunks ? 2 * r->capchunks : 64;
        crecord_chunk *c = realloc(r->chunks, sizeof *c * (size_t)cap);
        if (!c)
            return NULL;
        r->chunks = c;
        r->capchunks = cap;
    }
    crecord_chunk *c = &r->chunks[r->nchunks++];
    memset(c, 0, sizeof *c);
    return c;
}

void record_report(run *r, int w, int Q, double A, double time)
{
    if (r->nreports == r->capreports) {
        long cap = r->capreports ? 2 * r->capreports : 64;
        crecord_report *p = realloc(r->reports, sizeof *p * (size_t)cap);
        if (!p)
            return;                 /* the report is lost, not the run */
        r->reports = p;
        r->capreports = cap;
    }
    r->reports[r->nreports++] = (crecord_report){w, Q, time, A};
}

double record_imbalance(const run *r)
{
    double lo = 0, hi = 0;
    int any = 0;
    for (int w = 0; w < r->nw; w++) {
        if (r->w[w].chunks == 0)
            continue;
        double t = r->w[w].finish - r->t0_epoch;
        if (!any || t < lo) lo = t;
        if (!any || t > hi) hi = t;
        any = 1;
    }
    return any ? hi - lo : 0;
}

static const char *scheme_name(const run *r)
{
    return r->tree ? "tree" : r->scheme->name;
}

void record_summary(const run *r, FILE *f)
{
    fprintf(f, "%s:", scheme_name(r));
    for (int w = 0; w < r->nw; w++) {
        if (r->w[w].chunks)
            fprintf(f, " W%d %.2f", w + 1, r->w[w].finish - r->t0_epoch);
        else
            fprintf(f, " W%d -", w + 1);
    }
    fprintf(f, " Finish %.2f Imbalance %.2f\n", r->finish, record_imbalance(r));
}

int record_write(const run *r, const char *path)
{
    FILE *f = fopen(path, "w");
    if (!f) {
        fprintf(stderr, "coordinator: fopen(%s): %s\n", path, strerror(errno));
        return -1;
    }
    const double t0 = r->t0_epoch;
    size_t npix = (size_t)r->image.width * (size_t)r->image.height;
    char date[64];
    time_t now = time(NULL);
    strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
    fprintf(f, "#run,scheme,workers,rows,width,height,maxiter,sample,finish,"
               "imbalance,replans,checksum,date\n");
    fprintf(f, "run,%s,%d,%d,%d,%d,%u,%d,%.6f,%.6f,%d,%016llx,%s\n",
            scheme_name(r), r->nw, r->image.height, r->image.width,
            r->image.height, r->image.maxiter, r->sample, r->finish,
            record_imbalance(r), r->replans,
            (unsigned long long)mandel_checksum(r->image_counts, npix), date);
    fprintf(f, "#worker,worker,host,seen_host,tid,V,backend,cgroup,chunks,rows,"
               "finish\n");
    for (int w = 0; w < r->nw; w++) {
        const cworker *c = &r->w[w];
        fprintf(f, "worker,%d,%s,%s,%d,%g,%s,%s,%ld,%ld,", w + 1, c->host,
                c->seen_host, c->tid, c->V, c->backend, c->cgroup, c->chunks,
                c->iterations);
        if (c->chunks)
            fprintf(f, "%.6f\n", c->finish - t0);
        else
            fprintf(f, "\n");
    }
    fprintf(f, "#report,worker,time,Q,A\n");
    for (long i = 0; i < r->nreports; i++) {
        const crecord_report *p = &r->reports[i];
        fprintf(f, "report,%d,%.6f,%d,%g\n", p->worker + 1, p->time - t0, p->Q, p->A);
    }
    fprintf(f, "#chunk,id,worker,start,size,acp,sent,recv,started,finished,"
               "received,reissue,done\n");
    for (long i = 0; i < r->nchunks; i++) {
        const crecord_chunk *c = &r->chunks[i];
        if (c->done)
            fprintf(f, "chunk,%ld,%d,%ld,%ld,%g,%.6f,%.6f,%.6f,%.6f,%.6f,%d,1\n",
                    c->id, c->worker + 1, c->start, c->size, c->acp, c->sent - t0,
                    c->recv - t0, c->started - t0, c->finished - t0,
                    c->received - t0, c->reissue);
        else
            fprintf(f, "chunk,%ld,%d,%ld,%ld,%g,%.6f,,,,,%d,0\n", c->id,
                    c->worker + 1, c->start, c->size, c->acp, c->sent - t0,
                    c->reissue);
    }
    if (ferror(f) | (fclose(f) != 0)) {
        fprintf(stderr, "coordinator: writing %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}
