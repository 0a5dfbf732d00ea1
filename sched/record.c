/* record.c: the run record (record.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "record.h"

void record_date_now(record *r)
{
    time_t now = time(NULL);
    strftime(r->date, sizeof r->date, "%Y-%m-%dT%H:%M:%S%z", localtime(&now));
}

int record_init(record *r, int nworkers)
{
    memset(r, 0, sizeof *r);
    r->w = calloc((size_t)(nworkers > 0 ? nworkers : 1), sizeof *r->w);
    if (!r->w)
        return -1;
    r->nw = nworkers;
    return 0;
}

void record_free(record *r)
{
    free(r->w);
    free(r->chunks);
    free(r->reports);
    memset(r, 0, sizeof *r);
}

rec_chunk *record_chunk(record *r)
{
    if (r->nchunks == r->capchunks) {
        long cap = r->capchunks ? 2 * r->capchunks : 64;
        rec_chunk *c = realloc(r->chunks, sizeof *c * (size_t)cap);
        if (!c)
            return NULL;
        r->chunks = c;
        r->capchunks = cap;
    }
    rec_chunk *c = &r->chunks[r->nchunks++];
    memset(c, 0, sizeof *c);
    return c;
}

void record_report(record *r, int w, int Q, double A, double time)
{
    if (r->nreports == r->capreports) {
        long cap = r->capreports ? 2 * r->capreports : 64;
        rec_report *p = realloc(r->reports, sizeof *p * (size_t)cap);
        if (!p)
            return;
        r->reports = p;
        r->capreports = cap;
    }
    r->reports[r->nreports++] = (rec_report){w, Q, time, A};
}

double record_imbalance(const record *r)
{
    double lo = 0, hi = 0;
    int any = 0;
    for (int w = 0; w < r->nw; w++) {
        if (r->w[w].chunks == 0)
            continue;
        double t = r->w[w].finish - r->t0;
        if (!any || t < lo) lo = t;
        if (!any || t > hi) hi = t;
        any = 1;
    }
    return any ? hi - lo : 0;
}

void record_summary(const record *r, FILE *f)
{
    fprintf(f, "%s:", r->scheme);
    for (int w = 0; w < r->nw; w++) {
        if (r->w[w].chunks)
            fprintf(f, " W%d %.2f", w + 1, r->w[w].finish - r->t0);
        else
            fprintf(f, " W%d -", w + 1);
    }
    fprintf(f, " Finish %.2f Imbalance %.2f\n", r->finish, record_imbalance(r));
}

int record_write(const record *r, const char *path, char *msg, size_t len)
{
    int to_stdout = strcmp(path, "-") == 0;
    FILE *f = to_stdout ? stdout : fopen(path, "w");
    if (!f) {
        snprintf(msg, len, "fopen(%s): %s", path, strerror(errno));
        return -1;
    }
    const double t0 = r->t0;
    fprintf(f, "#run,scheme,workers,rows,width,height,maxiter,sample,finish,"
               "imbalance,replans,checksum,date\n");
    fprintf(f, "run,%s,%d,%ld,", r->scheme, r->nw, r->rows);
    if (r->width > 0)
        fprintf(f, "%d,%d,%u,", r->width, r->height, r->maxiter);
    else
        fprintf(f, ",,,");
    fprintf(f, "%d,%.6f,%.6f,%d,%s,%s\n", r->sample, r->finish, record_imbalance(r),
            r->replans, r->checksum, r->date);
    fprintf(f, "#worker,worker,host,seen_host,tid,V,backend,cgroup,chunks,rows,"
               "finish\n");
    for (int w = 0; w < r->nw; w++) {
        const rec_worker *c = &r->w[w];
        fprintf(f, "worker,%d,%s,%s,%d,%g,%s,%s,%ld,%ld,", w + 1, c->host,
                c->seen_host, c->tid, c->V, c->backend, c->cgroup, c->chunks,
                c->rows);
        if (c->chunks)
            fprintf(f, "%.6f\n", c->finish - t0);
        else
            fprintf(f, "\n");
    }
    fprintf(f, "#report,worker,time,Q,A\n");
    for (long i = 0; i < r->nreports; i++) {
        const rec_report *p = &r->reports[i];
        fprintf(f, "report,%d,%.6f,%d,%g\n", p->worker + 1, p->time - t0, p->Q, p->A);
    }
    fprintf(f, "#chunk,id,worker,start,size,acp,sent,recv,started,finished,"
               "received,reissue,done\n");
    for (long i = 0; i < r->nchunks; i++) {
        const rec_chunk *c = &r->chunks[i];
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
    int bad = ferror(f) || fflush(f) != 0;
    if (!to_stdout)
        bad |= fclose(f) != 0;
    if (bad) {
        snprintf(msg, len, "writing %s: %s", path, strerror(errno));
        return -1;
    }
    return 0;
}
