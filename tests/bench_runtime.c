/* bench_runtime.c: bin/bench_runtime, the runtime's own cost per chunk, for
 * `make bench` (tests/bench_pvm.sh): a libdtss master hands out N one-
 * iteration chunks (PSS) to one worker whose iterations cost nothing and
 * return WIDTH 32-bit words each -- the messages of bin/pingpong exactly,
 * with the runtime around them and no application work. Prints the mean
 * time per chunk in microseconds (the run's finish time over N).
 *
 *   bench_runtime [-n N] [-w WIDTH]   (on a running PVM; --local 1)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/dtss.h"
#include "sched/util/parse.h"

static int worker(int argc, char **argv)
{
    dtss_worker *w;
    long start, size;
    int rc = dtss_worker_open(&w, argc, argv);
    size_t len = 0;
    const char *job = rc == DTSS_OK ? dtss_worker_job(w, &len) : NULL;
    int width = job && len == sizeof(int) ? *(const int *)(const void *)job : 0;
    unsigned char *row = calloc((size_t)width + 1, 4);
    while (rc == DTSS_OK && row && (rc = dtss_worker_next(w, &start, &size)) == DTSS_PIECE)
        rc = dtss_worker_result(w, row, 4 * (size_t)width * (size_t)size);
    free(row);
    dtss_worker_close(w);
    return rc != DTSS_DONE;
}

int main(int argc, char **argv)
{
    if (dtss_is_worker(argc, argv))
        return worker(argc, argv);
    long n = 3000;
    int width = 200;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc && parse_long(argv[i + 1], &n) == 0 &&
            n > 0)
            i++;
        else if (strcmp(argv[i], "-w") == 0 && i + 1 < argc &&
                 parse_int(argv[i + 1], &width) == 0 && width > 0)
            i++;
        else
            return parse_fail("bench_runtime", "usage: bench_runtime [-n N] [-w WIDTH]");
    }
    char text[32];
    snprintf(text, sizeof text, "%ld", n);
    dtss_master *m = dtss_master_new();
    dtss_piece p;
    int rc = DTSS_OK;
    if (dtss_master_set(m, "scheme", "pss") != DTSS_OK ||
        dtss_master_set(m, "local", "1") != DTSS_OK ||
        dtss_master_set(m, "iterations", text) != DTSS_OK ||
        dtss_master_job(m, &width, sizeof width) != DTSS_OK ||
        dtss_master_start(m) != DTSS_OK)
        rc = -1;
    long got = 0;
    while (rc != -1 && (rc = dtss_master_next(m, &p)) == DTSS_PIECE)
        got += p.size;
    if (rc != DTSS_DONE || got != n) {
        fprintf(stderr, "bench_runtime: %s\n", dtss_master_errmsg(m));
        dtss_master_free(m);
        return 1;
    }
    printf("%.1f\n", dtss_master_finish(m) / (double)n * 1e6);
    dtss_master_free(m);
    return 0;
}
