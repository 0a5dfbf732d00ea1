/* coordinator.h: what the coordinator's files share. */
#ifndef COORDINATOR_H
#define COORDINATOR_H

#include <stdint.h>
#include <stdio.h>

#include "mandel/mandel.h"
#include "sched/sched.h"
#include "worker/probe.h"

/* One worker as the coordinator knows it. */
typedef struct cworker {
    int tid;
    char host[256];         /* as PVM names the host */
    char seen_host[1024];   /* gethostname() on the worker (its hello) */
    char cgroup[1024];
    char backend[64];
    double V;               /* virtual computing power */
    int lost;
    int reported;           /* its first report arrived */
    long chunks, iterations;
    double finish;          /* when its last chunk's results arrived */
} cworker;

/* One chunk handed out (or, for Tree-Scheduling, one range computed). */
typedef struct crecord_chunk {
    long id;
    int worker;
    long start, size;
    double acp;
    double sent, recv, started, finished, received;  /* seconds from t0 */
    int reissue, done;
} crecord_chunk;

/* One load report: worker w measured Q and computed A at 'time'. */
typedef struct crecord_report {
    int worker, Q;
    double time, A;
} crecord_report;

typedef struct run {
    /* the job */
    const sched_type *scheme;       /* NULL for Tree-Scheduling */
    sched_config cfg;
    int tree;
    mandel_params image;
    int sample;
    int acp_integer;
    probe_backend probe;
    const char *worker_path;
    int quiet;
    /* the workers */
    cworker *w;
    int nw;
    /* the outcome */
    uint32_t *image_counts;
    char *row_done;
    long rows_done;
    double t0_epoch;                /* wall clock at t = 0 */
    double finish;
    int replans;
    crecord_chunk *chunks;
    long nchunks, capchunks;
    crecord_report *reports;
    long nreports, capreports;
} run;

/* run.c: the event loops. Return 0, or 1 after printing an error. */
int run_self(run *r);
int run_tree(run *r);

/* record.c */
crecord_chunk *record_chunk(run *r);                /* a new zeroed entry */
void record_report(run *r, int w, int Q, double A, double time);
int record_write(const run *r, const char *path);   /* 0, or -1 (perror) */
void record_summary(const run *r, FILE *f);         /* W1..Wn, Finish, Imbalance */
double record_imbalance(const run *r);

#endif
