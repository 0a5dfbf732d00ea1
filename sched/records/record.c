/* record.c: the run record (record.h): its schema, writer and reader. */
#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sched/records/record.h"
#include "sched/records/spool.h"
#include "sched/util/lines.h"
#include "sched/util/outfile.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

/* ---- the schema ------------------------------------------------------------ */

enum { K_RUN, K_WORKER, K_REPORT, K_CHUNK, K_REPLAN, NKINDS };
static const char *const kinds[NKINDS] = {"run", "worker", "report", "chunk", "replan"};

static const char *const run_cols[] = {"scheme", "workers", "iterations", "sample",
    "finish", "imbalance", "replans", "date", NULL};
static const char *const worker_cols[] = {"worker", "host", "seen_host", "tid", "V",
    "backend", "cgroup", "chunks", "iterations", "finish", NULL};
static const char *const report_cols[] = {"worker", "time", "Q", "A", NULL};
static const char *const chunk_cols[] = {"id", "worker", "start", "size", "acp",
    "sent", "recv", "started", "finished", "received", "reissue", "done", NULL};
static const char *const replan_cols[] = {"time", "workers", "A", NULL};
static const char *const *const schema[NKINDS] = {run_cols, worker_cols,
                                                  report_cols, chunk_cols, replan_cols};
#define MAXCOLS 16              /* of any kind in the schema */

const char *const *record_columns(const char *kind)
{
    for (int k = 0; k < NKINDS; k++)
        if (kind && strcmp(kind, kinds[k]) == 0)
            return schema[k];
    return NULL;
}

/* ---- building a record ------------------------------------------------------ */

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
    r->sample = 1;
    r->imbalance = NAN;
    return 0;
}

int record_text(char **field, const char *s, size_t max)
{
    char *copy = NULL;
    if (s && *s && !(copy = strndup(s, max)))
        return -1;
    free(*field);
    *field = copy;
    return 0;
}

/* A streamed record's chunks, reports and re-plans (record_stream). */
struct rec_stream {
    rec_chunk *ring;            /* chunk id at ring[id % size] while id >= nchunks - size */
    long size;                  /* a power of two */
    spool *chunks;              /* ids 0 .. nchunks - size - 1 (NULL: not kept) */
    spool *reports, *replans;   /* all of them (NULL: not kept) */
    char err[400];
};

static void stream_free(rec_stream *s)
{
    if (!s)
        return;
    spool_close(s->chunks);
    spool_close(s->reports);
    spool_close(s->replans);
    free(s->ring);
    free(s);
}

int record_stream(record *r, const char *dir, char *msg, size_t len)
{
    if (r->stream || r->nchunks || r->nreports || r->replans) {
        snprintf(msg, len, "record_stream: the record is already streamed or has entries");
        return -1;
    }
    rec_stream *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(msg, len, "out of memory");
        return -1;
    }
    /* Summed up only: one entry, for the caller to fill. Kept: a window
     * that holds the chunks of a round of every worker. */
    s->size = 1;
    if (dir)
        for (s->size = RECORD_WINDOW; s->size < r->nw && s->size < (1L << 20);)
            s->size *= 2;
    if (!(s->ring = calloc((size_t)s->size, sizeof *s->ring))) {
        snprintf(msg, len, "out of memory for a window of %ld chunks", s->size);
        stream_free(s);
        return -1;
    }
    if (dir && (!(s->chunks = spool_open(dir, sizeof(rec_chunk), msg, len)) ||
                !(s->reports = spool_open(dir, sizeof(rec_report), msg, len)) ||
                !(s->replans = spool_open(dir, sizeof(rec_replan), msg, len)))) {
        stream_free(s);
        return -1;
    }
    r->stream = s;
    return 0;
}

const char *record_error(const record *r)
{
    return r->stream && r->stream->err[0] ? r->stream->err : "out of memory";
}

/* A spool's failure, kept for record_error; returns -1. */
static int spool_failed(rec_stream *s, const spool *sp)
{
    snprintf(s->err, sizeof s->err, "the run record: %s", spool_error(sp));
    return -1;
}

void record_free(record *r)
{
    stream_free(r->stream);
    for (int w = 0; r->w && w < r->nw; w++) {
        free(r->w[w].host);
        free(r->w[w].seen_host);
        free(r->w[w].cgroup);
    }
    free(r->w);
    free(r->chunks);
    free(r->reports);
    free(r->replan);
    memset(r, 0, sizeof *r);
}

static int key_ok(const char *key)
{
    if (!*key)
        return 0;
    for (const char *p = key; *p; p++)
        if (!isalnum((unsigned char)*p) && !strchr("_-.", *p))
            return 0;
    for (int i = 0; run_cols[i]; i++)
        if (strcmp(key, run_cols[i]) == 0)
            return 0;
    return 1;
}

int record_field(record *r, const char *key, const char *value, char *msg,
                 size_t len)
{
    if (!key_ok(key) || strlen(key) >= sizeof r->fields[0].key) {
        snprintf(msg, len, "record field name '%s': use letters, digits, '_', "
                 "'-' or '.' (at most %zu), not a name of the run line's own",
                 quote(key), sizeof r->fields[0].key - 1);
        return -1;
    }
    if (strpbrk(value, ",\n\r") || strlen(value) >= sizeof r->fields[0].value) {
        snprintf(msg, len, "record field %s: the value '%s' has a comma or a "
                 "line break, or is longer than %zu", quote(key), quote(value),
                 sizeof r->fields[0].value - 1);
        return -1;
    }
    int i = 0;
    while (i < r->nfields && strcmp(r->fields[i].key, key) != 0)
        i++;
    if (i == RECORD_MAX_FIELDS) {
        snprintf(msg, len, "record field %s: at most %d fields", quote(key),
                 RECORD_MAX_FIELDS);
        return -1;
    }
    snprintf(r->fields[i].key, sizeof r->fields[i].key, "%s", key);
    snprintf(r->fields[i].value, sizeof r->fields[i].value, "%s", value);
    if (i == r->nfields)
        r->nfields++;
    return 0;
}

const char *record_get(const record *r, const char *key)
{
    for (int i = 0; i < r->nfields; i++)
        if (strcmp(r->fields[i].key, key) == 0)
            return r->fields[i].value;
    return NULL;
}

rec_chunk *record_chunk(record *r)
{
    rec_stream *s = r->stream;
    if (s) {
        long id = r->nchunks;
        rec_chunk *c = &s->ring[id & (s->size - 1)];
        if (id >= s->size && s->chunks && spool_append(s->chunks, c) != 0) {
            spool_failed(s, s->chunks);     /* chunk id - size leaves the window */
            return NULL;
        }
        memset(c, 0, sizeof *c);
        r->nchunks++;
        return c;
    }
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

int record_report(record *r, int w, int Q, double A, double time)
{
    if (r->stream) {
        rec_report p;
        memset(&p, 0, sizeof p);        /* no padding of unknown bytes in the spool */
        p = (rec_report){w, Q, time, A};
        if (r->stream->reports && spool_append(r->stream->reports, &p) != 0)
            return spool_failed(r->stream, r->stream->reports);
        r->nreports++;
        return 0;
    }
    if (r->nreports == r->capreports) {
        long cap = r->capreports ? 2 * r->capreports : 64;
        rec_report *p = realloc(r->reports, sizeof *p * (size_t)cap);
        if (!p)
            return -1;
        r->reports = p;
        r->capreports = cap;
    }
    r->reports[r->nreports++] = (rec_report){w, Q, time, A};
    return 0;
}

int record_replan(record *r, double time, int workers, double A)
{
    if (r->stream) {
        rec_replan p;
        memset(&p, 0, sizeof p);
        p = (rec_replan){time, A, workers};
        if (r->stream->replans && spool_append(r->stream->replans, &p) != 0)
            return spool_failed(r->stream, r->stream->replans);
        r->replans++;
        return 0;
    }
    if (r->replans == r->capreplan) {
        int cap = r->capreplan ? 2 * r->capreplan : 8;
        rec_replan *p = realloc(r->replan, sizeof *p * (size_t)cap);
        if (!p)
            return -1;
        r->replan = p;
        r->capreplan = cap;
    }
    r->replan[r->replans++] = (rec_replan){time, A, workers};
    return 0;
}

void record_done(record *r, rec_chunk *c, double recv, double started,
                 double finished, double received)
{
    c->recv = recv;
    c->started = started;
    c->finished = finished;
    c->received = received;
    c->done = 1;
    rec_worker *w = &r->w[c->worker];
    w->chunks++;
    w->iters += c->size;
    w->finish = received;
}

int record_done_id(record *r, long id, int worker, long size, double recv,
                   double started, double finished, double received)
{
    rec_stream *s = r->stream;
    rec_chunk *c, tmp;
    if (id < 0 || id >= r->nchunks) {
        if (s)
            snprintf(s->err, sizeof s->err, "the run record has no chunk %ld", id);
        return -1;
    }
    if (!s)
        c = &r->chunks[id];
    else if (id >= r->nchunks - s->size)
        c = &s->ring[id & (s->size - 1)];
    else if (s->chunks) {
        if (spool_get(s->chunks, id, &tmp) != 0)
            return spool_failed(s, s->chunks);
        c = &tmp;
    } else {
        tmp = (rec_chunk){.id = id};    /* summed up only: the totals */
        c = &tmp;
    }
    c->worker = worker;
    c->size = size;
    record_done(r, c, recv, started, finished, received);
    if (c == &tmp && s->chunks && spool_put(s->chunks, id, &tmp) != 0)
        return spool_failed(s, s->chunks);
    return 0;
}

double record_imbalance(const record *r)
{
    if (!isnan(r->imbalance))
        return r->imbalance;
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

/* ---- the writer ------------------------------------------------------------------ */

static void header(FILE *f, int k)
{
    fprintf(f, "#%s", kinds[k]);
    for (int i = 0; schema[k][i]; i++)
        fprintf(f, ",%s", schema[k][i]);
    fprintf(f, "\n");
}

/* A text field: commas and line breaks become '_'. */
static void text(FILE *f, const char *s)
{
    for (s = rec_str(s); *s; s++)
        fputc(strchr(",\n\r", *s) ? '_' : *s, f);
}

static void print_report(FILE *f, const rec_report *p, double t0)
{
    fprintf(f, "report,%d,%.6f,%d,%g\n", p->worker + 1, p->time - t0, p->Q, p->A);
}

static void print_chunk(FILE *f, const rec_chunk *c, double t0)
{
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

static void print_replan(FILE *f, const rec_replan *p, double t0)
{
    fprintf(f, "replan,%.6f,%d,%g\n", p->time - t0, p->workers, p->A);
}

/* The reports, chunks and re-plans of a streamed record, from its spools
 * and its window, as record_print prints a whole one. */
static int print_streamed(const record *r, FILE *f)
{
    rec_stream *s = r->stream;
    const double t0 = r->t0;
    if (!s->chunks) {
        snprintf(s->err, sizeof s->err, "the run record was kept as its summary "
                 "only (record_stream without a folder)");
        return -1;
    }
    char buf[SPOOL_BUFFER];
    long n;
    for (long at = 0; (n = spool_read(s->reports, at, buf, SPOOL_BUFFER / sizeof(rec_report))) > 0;
         at += n)
        for (long i = 0; i < n; i++)
            print_report(f, (const rec_report *)buf + i, t0);
    if (n < 0)
        return spool_failed(s, s->reports);
    header(f, K_CHUNK);
    for (long at = 0; (n = spool_read(s->chunks, at, buf, SPOOL_BUFFER / sizeof(rec_chunk))) > 0;
         at += n)
        for (long i = 0; i < n; i++)
            print_chunk(f, (const rec_chunk *)buf + i, t0);
    if (n < 0)
        return spool_failed(s, s->chunks);
    for (long id = r->nchunks > s->size ? r->nchunks - s->size : 0; id < r->nchunks; id++)
        print_chunk(f, &s->ring[id & (s->size - 1)], t0);
    header(f, K_REPLAN);
    for (long at = 0; (n = spool_read(s->replans, at, buf, SPOOL_BUFFER / sizeof(rec_replan))) > 0;
         at += n)
        for (long i = 0; i < n; i++)
            print_replan(f, (const rec_replan *)buf + i, t0);
    if (n < 0)
        return spool_failed(s, s->replans);
    return ferror(f) ? -1 : 0;
}

int record_print(const record *r, FILE *f)
{
    const double t0 = r->t0;
    header(f, K_RUN);
    fprintf(f, "run,");
    text(f, r->scheme);
    fprintf(f, ",%d,%ld,%d,%.6f,%.6f,%d,", r->nw, r->iters, r->sample, r->finish,
            record_imbalance(r), r->replans);
    text(f, r->date);
    for (int i = 0; i < r->nfields; i++)
        fprintf(f, ",%s=%s", r->fields[i].key, r->fields[i].value);
    fprintf(f, "\n");
    header(f, K_WORKER);
    for (int w = 0; w < r->nw; w++) {
        const rec_worker *c = &r->w[w];
        fprintf(f, "worker,%d,", w + 1);
        text(f, c->host);
        fprintf(f, ",");
        text(f, c->seen_host);
        fprintf(f, ",%d,%g,", c->tid, c->V);
        text(f, c->backend);
        fprintf(f, ",");
        text(f, c->cgroup);
        fprintf(f, ",%ld,%ld,", c->chunks, c->iters);
        if (c->chunks)
            fprintf(f, "%.6f", c->finish - t0);
        fprintf(f, "\n");
    }
    header(f, K_REPORT);
    if (r->stream)
        return print_streamed(r, f);
    for (long i = 0; i < r->nreports; i++)
        print_report(f, &r->reports[i], t0);
    header(f, K_CHUNK);
    for (long i = 0; i < r->nchunks; i++)
        print_chunk(f, &r->chunks[i], t0);
    header(f, K_REPLAN);
    for (int i = 0; r->replan && i < r->replans; i++)
        print_replan(f, &r->replan[i], t0);
    return ferror(f) ? -1 : 0;
}

/* Whole or not at all (sched/util/outfile.h). */
int record_write(const record *r, const char *path, char *msg, size_t len)
{
    outfile o;
    const char *call;
    if (outfile_open(&o, path, "w") != 0) {
        outfile_msg(msg, len, path, NULL, errno);
        return -1;
    }
    if (r->stream)
        r->stream->err[0] = '\0';
    if (record_print(r, o.f) != 0 && r->stream && r->stream->err[0]) {
        outfile_abort(&o);              /* a spool's failure */
        snprintf(msg, len, "%s: %s", path, r->stream->err);
        return -1;
    }                                   /* a write error: outfile_close says */
    if (outfile_close(&o, &call) != 0) {
        outfile_msg(msg, len, path, call, errno);
        return -1;
    }
    return 0;
}

/* ---- the reader ------------------------------------------------------------------ */

typedef struct reader {
    lines in;
    int col[NKINDS][MAXCOLS];   /* column of each schema field; 0: no header */
    int ncols[NKINDS];          /* columns in the kind's header */
    char **field;               /* the current line's fields */
    int nfield;
    int kind;
    char *msg;
    size_t len;
} reader;

__attribute__((format(printf, 2, 3)))
static int bad(reader *rd, const char *fmt, ...)
{
    char what[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    snprintf(rd->msg, rd->len, "%s:%ld: %s", quote(rd->in.path), rd->in.lineno, what);
    return -1;
}

/* The text of schema field i of the current line's kind. */
static const char *get(const reader *rd, int i)
{
    return rd->field[rd->col[rd->kind][i]];
}

static int get_long(reader *rd, int i, long lo, long hi, long *out)
{
    const char *s = get(rd, i);
    if (parse_long(s, out) != 0 || *out < lo || *out > hi)
        return bad(rd, "%s '%s' must be an integer in [%ld, %ld]",
                   schema[rd->kind][i], quote(s), lo, hi);
    return 0;
}

static int get_int(reader *rd, int i, int lo, int hi, int *out)
{
    long v;
    if (get_long(rd, i, lo, hi, &v) != 0)
        return -1;
    *out = (int)v;
    return 0;
}

/* The bounds of the reader's checks: a record that passes them cannot make a
 * consumer overflow, wrap or loop for long. Times are seconds from t = 0 on
 * the master's clock (sent, received, the W_i, finish, imbalance, re-plans:
 * never before t = 0) or a worker's (recv, started, finished: negative when
 * the hosts' clocks disagree, so only bounded), and the load reports (the
 * first ones come before t = 0). */
#define REC_TMAX 1e9                /* seconds: 31 years */
#define REC_NMAX (1L << 50)         /* iterations, chunks, ids */

/* A finite number in [lo, hi]; an empty field gives 'empty' when allowed
 * (empty_ok). */
static int get_double(reader *rd, int i, int empty_ok, double empty, double lo,
                      double hi, double *out)
{
    const char *s = get(rd, i);
    if (!*s && empty_ok) {
        *out = empty;
        return 0;
    }
    if (parse_double(s, out) != 0)
        return bad(rd, "%s '%s' is not a finite number", schema[rd->kind][i], quote(s));
    if (!(*out >= lo && *out <= hi))
        return bad(rd, "%s '%s' must be a number in [%g, %g]", schema[rd->kind][i],
                   quote(s), lo, hi);
    return 0;
}

/* A time on the master's clock, on a worker's, a non-negative quantity. */
#define MASTER_TIME 0, REC_TMAX
#define WORKER_TIME -REC_TMAX, REC_TMAX
#define NONNEG 0, DBL_MAX

static int get_text(reader *rd, int i, char *out, size_t size)
{
    const char *s = get(rd, i);
    if (strlen(s) >= size)
        return bad(rd, "%s '%s' is longer than %zu", schema[rd->kind][i], quote(s),
                   size - 1);
    memcpy(out, s, strlen(s) + 1);
    return 0;
}

/* The same into an owned worker field (max characters at most). */
static int get_owned(reader *rd, int i, char **out, size_t max)
{
    const char *s = get(rd, i);
    if (strlen(s) > max)
        return bad(rd, "%s '%s' is longer than %zu", schema[rd->kind][i], quote(s), max);
    if (record_text(out, s, max) != 0)
        return bad(rd, "out of memory");
    return 0;
}

/* '#kind,name,...': where each schema field of the kind is. */
static int on_header(reader *rd, char *line)
{
    char *f[64];
    int n = lines_split(line + 1, ",", f, 64);
    int k = 0;
    while (k < NKINDS && (n < 1 || strcmp(f[0], kinds[k]) != 0))
        k++;
    if (k == NKINDS)
        return 0;                           /* a comment, or a kind we skip */
    if (n < 0)
        return bad(rd, "more than 64 columns in the %s header", kinds[k]);
    for (int i = 0; schema[k][i]; i++) {
        int at = 0;
        for (int j = 1; j < n && !at; j++)
            if (strcmp(f[j], schema[k][i]) == 0)
                at = j;
        if (!at)
            return bad(rd, "the %s header has no column '%s'", kinds[k], schema[k][i]);
        rd->col[k][i] = at;
    }
    rd->ncols[k] = n;
    return 0;
}

static int on_run(reader *rd, record *r)
{
    long workers;
    if (get_text(rd, 0, r->scheme, sizeof r->scheme) || get_long(rd, 1, 1, 1 << 20, &workers) ||
        get_long(rd, 2, 0, REC_NMAX, &r->iters) || get_int(rd, 3, 1, 1 << 30, &r->sample) ||
        get_double(rd, 4, 0, 0, MASTER_TIME, &r->finish) ||
        get_double(rd, 5, 0, 0, MASTER_TIME, &r->imbalance) ||
        get_int(rd, 6, 0, 1 << 30, &r->replans) ||
        get_text(rd, 7, r->date, sizeof r->date))
        return -1;
    if (r->w)
        return bad(rd, "a second run line");
    r->w = calloc((size_t)workers, sizeof *r->w);
    if (!r->w)
        return bad(rd, "out of memory for %ld workers", workers);
    r->nw = (int)workers;
    for (int j = rd->ncols[K_RUN]; j < rd->nfield; j++) {
        char *eq = strchr(rd->field[j], '=');
        if (!eq)
            return bad(rd, "workload field '%s' is not key=value", quote(rd->field[j]));
        *eq = '\0';
        char why[200];
        if (record_field(r, rd->field[j], eq + 1, why, sizeof why) != 0)
            return bad(rd, "%s", why);
    }
    return 0;
}

static int on_worker(reader *rd, record *r, int *seen)
{
    int w;
    if (!r->w)
        return bad(rd, "a worker line before the run line");
    if (get_int(rd, 0, 1, r->nw, &w))
        return -1;
    rec_worker *x = &r->w[w - 1];
    if (seen[w - 1]++)
        return bad(rd, "worker %d twice", w);
    if (get_owned(rd, 1, &x->host, REC_HOST_MAX) ||
        get_owned(rd, 2, &x->seen_host, REC_HOST_MAX) ||
        get_int(rd, 3, INT_MIN, INT_MAX, &x->tid) || get_double(rd, 4, 0, 0, NONNEG, &x->V) ||
        get_text(rd, 5, x->backend, sizeof x->backend) ||
        get_owned(rd, 6, &x->cgroup, REC_CGROUP_MAX) ||
        get_long(rd, 7, 0, REC_NMAX, &x->chunks) || get_long(rd, 8, 0, REC_NMAX, &x->iters) ||
        get_double(rd, 9, x->chunks == 0, 0, MASTER_TIME, &x->finish))
        return -1;
    return 0;
}

static int on_report(reader *rd, record *r)
{
    int w, Q;
    double t, A;
    if (!r->w)
        return bad(rd, "a report line before the run line");
    if (get_int(rd, 0, 1, r->nw, &w) || get_double(rd, 1, 0, 0, WORKER_TIME, &t) ||
        get_int(rd, 2, 0, 1 << 30, &Q) || get_double(rd, 3, 0, 0, NONNEG, &A))
        return -1;
    return record_report(r, w - 1, Q, A, t) == 0 ? 0 : bad(rd, "out of memory");
}

static int on_replan(reader *rd, record *r, int *seen)
{
    double t, A;
    int n;
    if (!r->w)
        return bad(rd, "a replan line before the run line");
    if (get_double(rd, 0, 0, 0, MASTER_TIME, &t) || get_int(rd, 1, 0, r->nw, &n) ||
        get_double(rd, 2, 0, 0, NONNEG, &A))
        return -1;
    /* The run line's count is the replans; the lines list them, once each. */
    if (++*seen > r->replans)
        return bad(rd, "more replan lines than the run line's replans (%d)", r->replans);
    int count = r->replans;
    r->replans = *seen - 1;
    int rc = record_replan(r, t, n, A);
    r->replans = count;
    return rc == 0 ? 0 : bad(rd, "out of memory");
}

static int on_chunk(reader *rd, record *r)
{
    if (!r->w)
        return bad(rd, "a chunk line before the run line");
    rec_chunk *c = record_chunk(r);
    if (!c)
        return bad(rd, "out of memory");
    int w;
    /* [start, start + size) lies within the run's iterations. */
    if (get_long(rd, 0, 0, REC_NMAX, &c->id) || get_int(rd, 1, 1, r->nw, &w) ||
        get_long(rd, 2, 0, r->iters, &c->start) ||
        get_long(rd, 3, 0, r->iters - c->start, &c->size) ||
        get_double(rd, 4, 0, 0, NONNEG, &c->acp) ||
        get_double(rd, 5, 0, 0, MASTER_TIME, &c->sent) ||
        get_int(rd, 11, 0, 1, &c->done) || get_int(rd, 10, 0, 1, &c->reissue))
        return -1;
    c->worker = w - 1;
    if (get_double(rd, 6, !c->done, 0, WORKER_TIME, &c->recv) ||
        get_double(rd, 7, !c->done, 0, WORKER_TIME, &c->started) ||
        get_double(rd, 8, !c->done, 0, WORKER_TIME, &c->finished) ||
        get_double(rd, 9, !c->done, 0, MASTER_TIME, &c->received))
        return -1;
    return 0;
}

int record_read(record *r, const char *path, char *msg, size_t len)
{
    memset(r, 0, sizeof *r);
    reader rd = {.msg = msg, .len = len};
    if (lines_open(&rd.in, path, msg, len) != 0)
        return -1;
    char *field[64 + RECORD_MAX_FIELDS];
    int *seen = NULL, rc = 0, replans = 0;
    char *line;
    rd.field = field;
    while (rc == 0 && (line = lines_next(&rd.in))) {
        if (line[0] == '#') {
            rc = on_header(&rd, line);
            continue;
        }
        if (lines_blank(line))
            continue;
        rd.nfield = lines_split(line, ",", field, 64 + RECORD_MAX_FIELDS);
        if (rd.nfield < 0) {
            rc = bad(&rd, "more than %d fields", 64 + RECORD_MAX_FIELDS);
            break;
        }
        rd.kind = 0;
        while (rd.kind < NKINDS && strcmp(field[0], kinds[rd.kind]) != 0)
            rd.kind++;
        if (rd.kind == NKINDS) {
            rc = bad(&rd, "unknown record kind '%s'", quote(field[0]));
            break;
        }
        if (rd.ncols[rd.kind] == 0) {
            rc = bad(&rd, "a %s line before its '#%s,...' header", kinds[rd.kind],
                     kinds[rd.kind]);
            break;
        }
        if (rd.nfield < rd.ncols[rd.kind]) {
            rc = bad(&rd, "%d fields, the %s header has %d", rd.nfield,
                     kinds[rd.kind], rd.ncols[rd.kind]);
            break;
        }
        if (rd.kind != K_RUN && rd.nfield != rd.ncols[rd.kind]) {
            rc = bad(&rd, "%d fields, the %s header has %d", rd.nfield,
                     kinds[rd.kind], rd.ncols[rd.kind]);
            break;
        }
        switch (rd.kind) {
        case K_RUN:
            rc = on_run(&rd, r);
            if (rc == 0 && !(seen = calloc((size_t)r->nw, sizeof *seen)))
                rc = bad(&rd, "out of memory");
            break;
        case K_WORKER: rc = on_worker(&rd, r, seen); break;
        case K_REPORT: rc = on_report(&rd, r); break;
        case K_CHUNK: rc = on_chunk(&rd, r); break;
        case K_REPLAN: rc = on_replan(&rd, r, &replans); break;
        }
    }
    if (rc == 0 && lines_error(&rd.in)) {
        snprintf(msg, len, "%s", rd.in.msg);
        rc = -1;
    }
    if (rc == 0 && !r->w) {
        snprintf(msg, len, "%s: no run line: not a run record", quote(rd.in.path));
        rc = -1;
    }
    for (int w = 0; rc == 0 && w < r->nw; w++)
        if (!seen[w]) {
            snprintf(msg, len, "%s: the run has %d workers, no line for worker %d",
                     quote(rd.in.path), r->nw, w + 1);
            rc = -1;
        }
    free(seen);
    lines_close(&rd.in);
    if (rc != 0)
        record_free(r);
    return rc;
}
