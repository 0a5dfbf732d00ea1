/* coordinator.h: what the coordinator's files share. */
#ifndef COORDINATOR_H
#define COORDINATOR_H

#include <stdint.h>
#include <stdio.h>

#include "mandel/mandel.h"
#include "sched/record.h"
#include "sched/sched.h"
#include "worker/probe.h"

/* What the coordinator knows of a worker besides its record. */
typedef struct cworker {
    int lost;
    int reported;           /* its first report arrived */
} cworker;

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
    /* the outcome: the run record (times: wall clock, rec.t0 at t = 0) */
    record rec;
    uint32_t *image_counts;
    char *row_done;
    long rows_done;
} run;

/* run.c: the event loops. Return 0, or 1 after printing an error. */
int run_self(run *r);
int run_tree(run *r);

#endif
