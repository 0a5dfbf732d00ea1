/* record.h: the run record, one CSV file per run, written alike by the PVM
 * coordinator and the simulator, so the same scripts tabulate and plot both.
 *
 * The file holds one record per line, its kind in the first field, and a
 * header line '#kind,field,...' before the first record of each kind:
 *
 *   run     scheme, workers, rows, width, height, maxiter, sample, finish,
 *           imbalance, replans, checksum, date
 *   worker  worker (1..n), host, seen_host (the host's own name for itself),
 *           tid, V, backend, cgroup, chunks, rows, finish
 *   report  worker, time, Q, A          (every A_i report, Sec. 5.3 step 2)
 *   chunk   id, worker, start, size, acp, sent, recv, started, finished,
 *           received, reissue, done
 *
 * Times are seconds from t = 0, the moment the coordinator starts handing
 * out work (self-scheduling: after every worker's first report; Tree-
 * Scheduling: when the ranges are sent). sent and received are the
 * coordinator's clock; recv (the chunk arrived at the worker), started and
 * finished the worker's, comparable when the hosts' clocks agree (always on
 * one machine, and in the simulator). 'start' and 'size' index the loop as
 * scheduled (the pseudo-uniformly sampled loop when sample > 1). A worker's
 * finish W_i is when the coordinator received the results of its last chunk;
 * Finish Time is when every iteration was in; Imbalance = max - min of the W_i
 * over the workers that did any work (Xu & Chronopoulos Tables 1-2). The
 * image fields (width, height, maxiter, checksum) are empty for a workload
 * that is not an image.
 */
#ifndef RECORD_H
#define RECORD_H

#include <stdio.h>

typedef struct rec_worker {
    char host[256];         /* as PVM (or the platform file) names the host */
    char seen_host[256];    /* the host's own name for itself */
    char cgroup[256];
    char backend[32];       /* the load probe's back-end */
    int tid;
    double V;               /* virtual computing power */
    long chunks, rows;      /* chunks and iterations done */
    double finish;          /* when its last chunk's results arrived */
} rec_worker;

typedef struct rec_chunk {
    long id;
    int worker;
    long start, size;
    double acp;             /* the A_i it was sized with (0: Tree) */
    double sent, recv, started, finished, received;
    int reissue, done;
} rec_chunk;

typedef struct rec_report {
    int worker, Q;
    double time, A;
} rec_report;

typedef struct record {
    char scheme[32];
    long rows;
    int width, height;              /* 0: not an image */
    unsigned maxiter;
    int sample;
    char checksum[24];              /* "" when there is no image */
    char date[40];                  /* when the run was made ("": simulated) */
    double t0;                      /* the clock's value at t = 0 */
    double finish;                  /* seconds from t0 */
    int replans;
    rec_worker *w;
    int nw;
    rec_chunk *chunks;
    long nchunks, capchunks;
    rec_report *reports;
    long nreports, capreports;
} record;

/* Sets r up for nworkers workers (zeroed). Returns 0, or -1 out of memory. */
int record_init(record *r, int nworkers);
void record_free(record *r);
/* Sets the record's date to now (a real run; a simulated one has none). */
void record_date_now(record *r);

/* A new zeroed chunk entry, or NULL out of memory. */
rec_chunk *record_chunk(record *r);
/* Appends a load report (silently dropped when out of memory). */
void record_report(record *r, int w, int Q, double A, double time);

double record_imbalance(const record *r);
/* The paper's line: "SCHEME: W1 t ... Finish t Imbalance t". */
void record_summary(const record *r, FILE *f);
/* Writes the record to path ("-": stdout). Returns 0, or -1 with the failing
 * call in msg. */
int record_write(const record *r, const char *path, char *msg, size_t len);

#endif
