/* main.c: bin/worker, the Mandelbrot worker of bin/coordinator: a libdtss
 * worker whose loop iterations are image rows (or columns, as the job says). The runtime measures the
 * load, reports A_i, takes part in Tree-Scheduling and exits with its master;
 * this program only computes the rows it is handed (refusing a job whose
 * image is over mandel_check's limits, before it allocates anything), and
 * asks the runtime every ~10 ms of computation whether its master is gone,
 * so that a long row does not outlive it.
 *
 * `worker --probe` prints this host's load without PVM.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mandel/mandel.h"
#include "runtime/dtss.h"
#include "sched/util/closeout.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

static int probe_mode(const char *backend)
{
    char line[1024];
    int rc = dtss_probe(backend, line, sizeof line);
    if (rc != DTSS_OK) {
        fprintf(stderr, "worker: %s\n", line);
        return rc == DTSS_EINVAL ? 2 : 1;
    }
    printf("%s\n", line);
    return 0;
}

/* Iterations of the kernel between two looks for the master's exit (a
 * clock read; a pvm_nrecv at most every 20 ms): some 10 ms of computation. */
#define WORK_PER_LOOK (1L << 22)

/* Line k (a row, or a column) into counts, in spans of 'span' pixels,
 * asking before each whether to stop, and its cost told to the library. 0,
 * or -1 when the run is over for this worker (the master exited:
 * dtss_worker_next says so). */
static int compute_line(dtss_worker *w, const mandel_params *p, long k, uint32_t *counts,
                        int span)
{
    uint64_t cost = 0;
    int len = mandel_line_len(p);
    for (int x = 0; x < len; x += span) {
        if (dtss_worker_cancelled(w))
            return -1;
        cost += mandel_line_span(p, k, x, len - x > span ? x + span : len, counts + x);
    }
    /* The row's cost for dtss-m's rates: its escape iterations, and one more
     * a pixel for the work around each (a fit over 1616 chunks of emulated
     * runs, 1200 rows at maxiter 3000: time = 1.55e-8 s x (iterations + 1.02
     * pixels); without it a row of points that escape at once looks twice as
     * slow as it is). */
    dtss_worker_cost(w, (double)cost + len);
    return 0;
}

/* The worker's loop: rows in, counts out. Returns the exit status. */
static int work(int argc, char **argv)
{
    dtss_worker *w;
    if (dtss_worker_open(&w, argc, argv) != DTSS_OK) {
        fprintf(stderr, "worker: %s\n", dtss_worker_errmsg(w));
        dtss_worker_close(w);
        return 1;
    }
    size_t joblen;
    const char *job = dtss_worker_job(w, &joblen);
    mandel_params p;
    char msg[256];
    if (mandel_decode(&p, job, joblen, msg, sizeof msg) != 0) {
        fprintf(stderr, "worker %d: %s\n", dtss_worker_index(w), msg);
        dtss_worker_close(w);
        return 1;
    }
    /* p is within mandel_check's limits: a line's buffers (a row's, or a
     * column's) are at most 512 KiB. */
    size_t len = (size_t)mandel_line_len(&p);
    uint32_t *counts = malloc(sizeof *counts * len);
    unsigned char *bytes = malloc(4 * len);
    long start, size, span = WORK_PER_LOOK / (long)p.maxiter;
    span = span < 1 ? 1 : span > (long)len ? (long)len : span;
    int rc = counts && bytes ? DTSS_OK : DTSS_ENOMEM;
    while (rc == DTSS_OK && (rc = dtss_worker_next(w, &start, &size)) == DTSS_PIECE) {
        rc = DTSS_OK;
        for (long k = start; k < start + size && rc == DTSS_OK; k++) {
            if (compute_line(w, &p, k, counts, (int)span) != 0)
                break;                          /* the next call says why */
            mandel_row_bytes(counts, len, bytes);
            rc = dtss_worker_result(w, bytes, 4 * len);
        }
    }
    if (rc != DTSS_DONE)
        fprintf(stderr, "worker %d: %s\n", dtss_worker_index(w),
                rc == DTSS_ENOMEM && !(counts && bytes) ? "out of memory"
                                                        : dtss_worker_errmsg(w));
    free(counts);
    free(bytes);
    dtss_worker_close(w);
    return rc == DTSS_DONE ? 0 : 1;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"probe", no_argument, NULL, 'p'},
        {"backend", required_argument, NULL, 'b'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    closeout_init("worker");
    if (dtss_is_worker(argc, argv))
        return work(argc, argv);
    const char *backend = "auto";
    int probe = 0, c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 'p': probe = 1; break;
        case 'b': backend = optarg; break;
        case 'h':
            printf("usage: worker --probe [--backend auto|proc|cgroup]\n"
                   "  prints this host's name, probe back-end, cpu cgroup and Q,\n"
                   "  the processes in its run-queue (the probe counts itself).\n"
                   "Otherwise the worker runs only as a PVM task spawned by\n"
                   "bin/coordinator, which sends it its job.\n"
                   "exit status: 0 done; 1 the probe or the run failed, or standard\n"
                   "output could not be written (said); 2 a bad option or value\n");
            return 0;
        default:
            return parse_getopt_error("worker", c, argv);
        }
    }
    if (optind < argc)
        return parse_fail("worker", "unexpected argument '%s' (try --help)", quote(argv[optind]));
    if (probe)
        return probe_mode(backend);
    fprintf(stderr, "worker: not spawned by a coordinator: run bin/coordinator, "
            "or worker --probe\n");
    return 1;
}
