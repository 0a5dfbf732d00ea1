/* integral.c: pi as the integral of 4 / (1 + x^2) over [0, 1], on libdtss.
 * One program is master and workers: iteration i is the midpoint sum over
 * the i-th of n sub-intervals; a worker returns each sum (8 bytes, in the
 * hosts' common byte order), the master adds them up. Every runtime option
 * works:  ./integral -n 4000 --scheme tss --hosts w1,w2 --sample 4 */
#define _POSIX_C_SOURCE 200809L /* SIGPIPE */
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <dtss.h>

#define STEPS 20000 /* midpoints per sub-interval: an iteration's work */

static int worker(int argc, char **argv)
{
    dtss_worker *w;
    long start, size;
    int rc = dtss_worker_open(&w, argc, argv);
    double h = rc == DTSS_OK ? 1.0 / ((double)dtss_worker_iterations(w) * STEPS) : 0;
    while (rc == DTSS_OK && (rc = dtss_worker_next(w, &start, &size)) == DTSS_PIECE) {
        rc = DTSS_OK;
        for (long i = start; i < start + size && rc == DTSS_OK; i++) {
            double sum = 0, x = h * ((double)i * STEPS + 0.5);
            for (long k = 0; k < STEPS; k++, x += h)
                sum += 4 / (1 + x * x) * h;
            rc = dtss_worker_result(w, &sum, sizeof sum);
        }
    }
    if (rc != DTSS_DONE)
        fprintf(stderr, "integral worker: %s\n", dtss_worker_errmsg(w));
    dtss_worker_close(w);
    return rc != DTSS_DONE;
}

int main(int argc, char **argv)
{
    if (dtss_is_worker(argc, argv))
        return worker(argc, argv);
    signal(SIGPIPE, SIG_IGN);          /* a reader gone: EPIPE, said at the end */
    dtss_master *m = dtss_master_new();
    int help = argc == 2 && !strcmp(argv[1], "--help");
    /* The default first: --resume then takes its journal's, -n the user's. */
    int rc = help ? DTSS_OK : dtss_master_set(m, "iterations", "2000");
    if (rc == DTSS_OK && !help)
        rc = dtss_master_args(m, &argc, argv);                  /* leaves -n N to us */
    int usage = rc == DTSS_OK && argc != 1 && !(argc == 3 && !strcmp(argv[1], "-n"));
    if (rc == DTSS_OK && !usage && argc == 3)
        rc = dtss_master_set(m, "iterations", argv[2]);
    if (rc == DTSS_OK && !usage)
        rc = dtss_master_start(m);
    int bad = usage || rc == DTSS_EINVAL || rc == DTSS_ENOENT;    /* bad input: exit 2 */
    dtss_piece p;
    double pi = 0, sum;
    while (rc == DTSS_OK && !usage && (rc = dtss_master_next(m, &p)) == DTSS_PIECE) {
        for (long k = 0; k < p.size; k++, pi += sum)
            memcpy(&sum, (const char *)p.data + k * sizeof sum, sizeof sum);
        rc = DTSS_OK;
    }
    if (help) {
        printf("usage: integral [-n N] [runtime options]\n"
               "exit status: 0 done; 1 the run failed, or standard output could not be\n"
               "written (said); 2 a bad option or value\n");
        dtss_master_usage(stdout);
    } else if (rc == DTSS_DONE) {
        dtss_master_summary(m, stdout);
        printf("pi = %.15f (error %.1e)\n", pi, fabs(pi - acos(-1)));
    } else
        fprintf(stderr, usage ? "usage: integral [-n N] [runtime options] (try --help)\n"
                              : "integral: %s\n", dtss_master_errmsg(m));
    dtss_master_free(m);
    if (fflush(stdout) != 0 || ferror(stdout)) {        /* a full disk, a closed pipe */
        perror("integral: writing standard output");
        return 1;
    }
    return help || rc == DTSS_DONE ? 0 : bad ? 2 : 1;
}
