/* jacobi.c: a user's own iterative program on libdtss's self-adjusting pool: Jacobi sweeps
 * of A x = b (n = 240, a_ii = 8, a_ij = 1/(i-j)^2, b_i = 1 + i mod 7) from x = 0 until no x_i
 * moves by 1e-12. A sweep is an iteration of 8 tasks: task k's payload is x (raw doubles), its
 * result rows 30k .. 30k + 29 of the new x. --sequential: the same sweeps here, no PVM. */
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <dtss.h>
#include "sched/util/closeout.h"            /* standard output checked at exit */
#include "sched/util/quote.h"               /* an argument quoted in a message */
#define N 240                           /* unknowns */
#define TASKS 8                         /* tasks an iteration, */
#define ROWS (N / TASKS)                /* of ROWS rows each */

static void sweep(const double *x, int lo, int hi, double *out)    /* rows lo .. hi - 1 */
{
    for (int i = lo; i < hi; i++) {
        double s = 1 + i % 7;
        for (int j = 0; j < N; j++)
            s -= j == i ? 0 : x[j] / ((double)(i - j) * (i - j));
        out[i - lo] = s / 8;
    }
}

static int worker(int argc, char **argv)
{
    double x[N], out[ROWS];
    dtss_pool_worker *w;
    const void *in;
    size_t len;
    int rc = dtss_pool_worker_open(&w, argc, argv), k;
    while (rc == DTSS_OK && (rc = dtss_pool_worker_next(w, &k, &in, &len)) == DTSS_PIECE &&
           len == sizeof x) {
        memcpy(x, in, len);                     /* (a payload need not be aligned) */
        sweep(x, k * ROWS, k * ROWS + ROWS, out);
        rc = dtss_pool_worker_result(w, out, sizeof out);
    }
    if (rc != DTSS_DONE)                        /* DTSS_PIECE: a payload not of n doubles */
        fprintf(stderr, "jacobi worker: %s\n", rc == DTSS_PIECE ? "payload" : dtss_pool_worker_errmsg(w));
    dtss_pool_worker_close(w);
    return rc != DTSS_DONE;
}

int main(int argc, char **argv)
{
    if (dtss_is_worker(argc, argv))
        return worker(argc, argv);
    closeout_init("jacobi");
    if (argc > 1 && !strcmp(argv[argc - 1], "--help"))
        return puts("usage: jacobi [--sequential] [pool options; --delay 0 here]\n"
                    "exit status: 0 done; 1 the run failed, or standard output could not be\n"
                    "written (said); 2 a bad option or value"), dtss_pool_usage(stdout), 0;
    dtss_pool *p = dtss_pool_new();             /* (no allocation delay to emulate) */
    int rc = p ? dtss_pool_set(p, "delay", "0") : DTSS_ENOMEM, it = 0;
    if (rc != DTSS_OK || (rc = dtss_pool_args(p, &argc, argv)) != DTSS_OK)
        return fprintf(stderr, "jacobi: %s\n", dtss_pool_errmsg(p)), dtss_pool_free(p),
               rc == DTSS_EINVAL || rc == DTSS_ENOENT ? 2 : 1;
    int seq = argc > 1 && !strcmp(argv[1], "--sequential");     /* the pool's options are out */
    if (argc > 1 + seq)
        return fprintf(stderr, "jacobi: not an option: '%s'\n", quote(argv[1 + seq])),
               dtss_pool_free(p), 2;
    rc = seq ? DTSS_OK : dtss_pool_start(p, TASKS);
    int bad = rc == DTSS_EINVAL || rc == DTSS_ENOENT;   /* a bad --hosts: bad input, exit 2 */
    double x[N] = {0}, nx[N], change = 1, sum = 0;
    for (dtss_task_result r; rc == DTSS_OK && change >= 1e-12; it++) {
        for (int k = 0; k < TASKS && !seq && rc == DTSS_OK; k++)
            rc = dtss_pool_task(p, k, x, sizeof x);
        while (!seq && rc == DTSS_OK && (rc = dtss_pool_next(p, &r)) == DTSS_PIECE &&
               r.len == ROWS * sizeof *x)
            memcpy(nx + r.task * ROWS, r.data, r.len), rc = DTSS_OK;
        if (seq)
            sweep(x, 0, N, nx);
        change = sum = 0;
        for (int i = 0; i < N; i++)
            change = fmax(change, fabs(nx[i] - x[i])), sum += x[i] = nx[i];
        if (!seq && rc == DTSS_DONE)
            rc = dtss_pool_end_iteration(p, change < 1e-12 ? 0 : TASKS);
    }
    if (rc != DTSS_OK)
        fprintf(stderr, "jacobi: %s\n", rc == DTSS_PIECE ? "a result's size" : dtss_pool_errmsg(p));
    else
        printf("%d unknowns, %d tasks: %d sweeps, sum(x) = %.17g\n", N, TASKS, it, sum);
    if (rc == DTSS_OK && !seq)
        dtss_pool_summary(p, stdout);
    dtss_pool_free(p);
    return rc == DTSS_OK ? 0 : bad ? 2 : 1;
}
