/* pvm.c: bin/thin-pool, Guo & Hall thinning as Heymann et al.'s iterative
 * master-worker application on PVM: the image cut into M horizontal parts,
 * a task per awake part per iteration, computed by a pool of workers that
 * grows and shrinks by a pool strategy (libdtss, dtss.h "an iterative run
 * on a pool"). The master keeps the image: it packs each part's task with
 * its border rows (thin_parts_task), stores the results (thin_parts_store)
 * and updates the borders between iterations (thin_parts_end); the
 * skeleton is bin/thin's, bit for bit, whatever the pool does.
 *
 * A part whose task deleted nothing is reported converged
 * (dtss_pool_converged): it sleeps from then on unless a neighbour's change
 * reaches its border rows (thin_parts_begin wakes it; in the test images
 * that never happens, docs/thin.md). */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "runtime/dtss.h"
#include "sched/util/closeout.h"
#include "sched/util/conv.h"
#include "sched/util/outfile.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"
#include "thin/thin.h"

#define fail(...) parse_fail("thin-pool", __VA_ARGS__)

static void usage(FILE *f)
{
    fprintf(f,
"usage: thin-pool IN.pbm --parts M [-o OUT.pbm] [options] [pool options]\n"
"\n"
"Thins a binary image (Guo & Hall 1989, as bin/thin) on PVM: the image in M\n"
"horizontal parts, one task per part per iteration, handed to a pool of\n"
"workers that grows and shrinks by Heymann et al.'s strategies (the largest\n"
"tasks first). Needs a running virtual machine (make cluster-up HOSTFILE=\n"
"hostfiles/heymann, or --local N on a pvmd of your own).\n"
"\n"
"options:\n"
"  -m, --parts M         the parts: tasks (1..%d)\n"
"  -o, --out FILE        the skeleton as a raw PBM (P4; '-' = stdout)\n"
"  -k, --iterations K    stop after at most K iterations (1..%d)\n"
"  -r, --record FILE     the run record (CSV, docs/pool.md; '-' = stdout)\n"
"  -s, --slow K          hosts K times slower than this machine at computing\n"
"                        (1..10^6, default 1: as fast): a worker times each\n"
"                        task's thinning (c: the least CPU seconds of 3 runs)\n"
"                        and sleeps until the task has taken K x c; messages\n"
"                        go at the host's own speed (docs/pool.md, \"The\n"
"                        emulated pool\")\n"
"  -v, --verbose         tell of every request, join, release and iteration\n"
"  -q, --quiet           print nothing but errors\n"
"  -h, --help            this help\n"
"pool options:\n",
            THIN_MAX_PARTS, INT_MAX);
    dtss_pool_usage(f);
    fprintf(f,
"exit status: 0 done; 1 the run failed (PVM, every worker lost, out of\n"
"memory), or an output cannot be written, standard output included (said; no\n"
"part of a file is left); 2 a bad option or value, an unknown host, a missing\n"
"or bad PBM file, a --resume journal that is not this run's\n"
"\n"
"--journal FILE writes each part's result as it comes; after a crash (of the\n"
"pvmd, a host, this program) the same command with --resume FILE instead\n"
"takes the journaled results and computes only the rest: the same skeleton.\n");
}

/* The result's 'deleted' field (thin.h: little-endian, at byte 24). */
static unsigned long deleted_of(const unsigned char *r, size_t len)
{
    if (len < THIN_RESULT_HEADER)
        return 0;
    return (unsigned long)r[24] | (unsigned long)r[25] << 8 | (unsigned long)r[26] << 16 |
           (unsigned long)r[27] << 24;
}

/* The job every worker gets: the slowness, as text ("slow=K"). */
static double job_slow(const void *job, size_t len)
{
    char buf[64];
    double K;
    if (!job || len == 0 || len >= sizeof buf)
        return 1;
    memcpy(buf, job, len);
    buf[len] = '\0';
    return strncmp(buf, "slow=", 5) == 0 && parse_double(buf + 5, &K) == 0 && K >= 1 &&
           K <= 1e6 ? K : 1;
}

static double clock_of(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* With --slow, a task's CPU time is the least of this many runs of its
 * thinning (the same result each time): a first run in a new process, or
 * one that shares the CPU's caches with other hosts' tasks, takes up to
 * twice as long, and K times that noise would be the emulated host's. */
#define SLOW_REPEATS 3

/* A host K times slower: after a computation that took c CPU seconds and
 * began at 'began' (monotonic), sleeps until began + K c. */
static void stretch(double K, double began, double c)
{
    if (K <= 1)
        return;
    /* K <= 10^6 (job_slow) times a task's CPU time: the monotonic clock's
     * seconds, clamped to 10^12 (31,700 years: as good as never) */
    double until = began + K * c;
    long sec = conv_clamp(until, 0, 1000000000000L);
    struct timespec ts = {(time_t)sec, conv_clamp((until - (double)sec) * 1e9, 0, 999999999)};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
        ;
}

static int worker_main(int argc, char **argv)
{
    dtss_pool_worker *w;
    int rc = dtss_pool_worker_open(&w, argc, argv), task;
    double K = 1;
    const void *in;
    size_t n;
    char msg[256];
    if (rc == DTSS_OK) {
        size_t jlen;
        const void *job = dtss_pool_worker_job(w, &jlen);
        K = job_slow(job, jlen);
    }
    while (rc == DTSS_OK) {
        if ((rc = dtss_pool_worker_next(w, &task, &in, &n)) != DTSS_PIECE)
            break;
        unsigned char *res = NULL;
        size_t rlen;
        double began = clock_of(CLOCK_MONOTONIC), c = 0;
        for (int k = 0; k < (K > 1 ? SLOW_REPEATS : 1); k++) {   /* the same result */
            double cpu = clock_of(CLOCK_PROCESS_CPUTIME_ID);
            free(res);
            if (thin_task_run(in, n, &res, &rlen, NULL, msg, sizeof msg) != 0) {
                fprintf(stderr, "thin-pool worker: task %d: %s\n", task, msg);
                dtss_pool_worker_close(w);
                return 1;
            }
            cpu = clock_of(CLOCK_PROCESS_CPUTIME_ID) - cpu;
            if (k == 0 || cpu < c)
                c = cpu;
        }
        stretch(K, began, c);
        rc = dtss_pool_worker_result(w, res, rlen);
        free(res);
    }
    int status = rc == DTSS_DONE ? 0 : 1;
    if (status)
        fprintf(stderr, "thin-pool worker: %s\n", dtss_pool_worker_errmsg(w));
    dtss_pool_worker_close(w);
    return status;
}

/* The exit status of a pool call's failure: 2 for bad input (a journal of
 * another run: --resume, a task's payload not the journal's), else 1. */
static int status_of(int rc)
{
    return rc == DTSS_EINVAL ? 2 : 1;
}

/* The master's run: 0, or 1 (2: bad input) with the reason printed. */
static int run(dtss_pool *p, thin_parts *tp, int max_iter, int *iterations)
{
    unsigned char active[THIN_MAX_PARTS];
    char msg[512];
    int n = thin_parts_begin(tp, active), M = thin_parts_count(tp);
    *iterations = 0;
    while (n > 0) {
        for (int j = 0; j < M; j++) {
            if (!active[j])
                continue;
            unsigned char *task;
            size_t len;
            if (thin_parts_task(tp, j, &task, &len, msg, sizeof msg) != 0)
                return fail("part %d: %s", j, msg), 1;
            int rc = dtss_pool_task(p, j, task, len);
            free(task);
            if (rc != DTSS_OK)
                return fail("%s", dtss_pool_errmsg(p)), status_of(rc);
        }
        dtss_task_result r;
        int rc;
        while ((rc = dtss_pool_next(p, &r)) == DTSS_PIECE) {
            int s = thin_parts_store(tp, r.task, r.data, r.len, msg, sizeof msg);
            if (s < 0)
                return fail("worker %d, part %d: %s", r.worker, r.task, msg), 1;
            if (s == 0 && deleted_of(r.data, r.len) == 0 &&
                dtss_pool_converged(p, r.task) != DTSS_OK)
                return fail("%s", dtss_pool_errmsg(p)), 1;
        }
        if (rc != DTSS_DONE)
            return fail("%s", dtss_pool_errmsg(p)), status_of(rc);
        if (thin_parts_end(tp, NULL, msg, sizeof msg) != 0)
            return fail("%s", msg), 1;
        ++*iterations;
        n = max_iter && *iterations >= max_iter ? 0 : thin_parts_begin(tp, active);
        if (dtss_pool_end_iteration(p, n) != DTSS_OK)
            return fail("%s", dtss_pool_errmsg(p)), 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (dtss_is_worker(argc, argv))
        return worker_main(argc, argv);
    closeout_init("thin-pool");
    dtss_pool *p = dtss_pool_new();
    if (!p)
        return fail("out of memory"), 1;
    int rc = dtss_pool_args(p, &argc, argv);
    if (rc != DTSS_OK) {
        fail("%s", dtss_pool_errmsg(p));
        dtss_pool_free(p);
        return rc == DTSS_EINVAL || rc == DTSS_ENOENT ? 2 : 1;
    }
    static const struct option longs[] = {
        {"parts", required_argument, NULL, 'm'},
        {"out", required_argument, NULL, 'o'},
        {"iterations", required_argument, NULL, 'k'},
        {"record", required_argument, NULL, 'r'},
        {"slow", required_argument, NULL, 's'},
        {"verbose", no_argument, NULL, 'v'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    const char *out = NULL, *record = NULL;
    int M = 0, max_iter = 0, verbose = 0, quiet = 0, c;
    double slow = 1;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":m:o:k:r:s:vqh", longs, NULL)) != -1) {
        switch (c) {
        case 'm':
            if (parse_int_in(optarg, 1, THIN_MAX_PARTS, &M) != 0) {
                dtss_pool_free(p);
                return fail("--parts '%s' must be an integer in [1, %d]", quote(optarg),
                            THIN_MAX_PARTS);
            }
            break;
        case 'o': out = optarg; break;
        case 'k':
            if (parse_int_in(optarg, 1, INT_MAX, &max_iter) != 0) {
                dtss_pool_free(p);
                return fail("--iterations '%s' must be an integer in [1, %d]", quote(optarg),
                            INT_MAX);
            }
            break;
        case 'r': record = optarg; break;
        case 's':
            if (parse_double(optarg, &slow) != 0 || !(slow >= 1 && slow <= 1e6)) {
                dtss_pool_free(p);
                return fail("--slow '%s' must be a number in [1, 1e6]", quote(optarg));
            }
            break;
        case 'v': verbose = 1; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); dtss_pool_free(p); return 0;
        default:
            dtss_pool_free(p);
            return parse_getopt_error("thin-pool", c, argv);
        }
    }
    if (optind != argc - 1) {
        dtss_pool_free(p);
        return fail(optind >= argc ? "no input image (thin-pool --help)"
                                   : "one input image, not '%s'", quote(argv[optind + 1]));
    }
    if (!M) {
        dtss_pool_free(p);
        return fail("--parts M is needed: the image's parts are the run's tasks");
    }
    const char *in = argv[optind];
    if (closeout_output("--out", out, 0) || closeout_output("--record", record, 0)) {
        dtss_pool_free(p);                          /* outputs before the run */
        return 1;
    }
    thin_image im;
    char msg[512];
    if (thin_pbm_read(&im, in, msg, sizeof msg) != 0) {
        dtss_pool_free(p);
        return fail("%s", msg);
    }
    long long before = thin_image_count(&im);
    thin_parts *tp = thin_parts_new(&im, M, msg, sizeof msg);
    if (!tp) {
        thin_image_free(&im);
        dtss_pool_free(p);
        return fail("%s", msg), 1;
    }
    dtss_pool_log(p, quiet ? NULL : stderr, "thin-pool", verbose);
    int ntasks = M < im.height ? M : im.height, iterations = 0, status = 1;
    char job[64];
    snprintf(job, sizeof job, "slow=%.17g", slow);
    if (dtss_pool_job(p, job, strlen(job)) != DTSS_OK) {
        fail("%s", dtss_pool_errmsg(p));
        goto out;
    }
    if ((rc = dtss_pool_start(p, ntasks)) != DTSS_OK) {
        fail("%s", dtss_pool_errmsg(p));
        if (rc == DTSS_EINVAL || rc == DTSS_ENOENT)
            status = 2;                             /* an unknown host: bad input */
        goto out;
    }
    if ((rc = run(p, tp, max_iter, &iterations)) != 0) {
        status = rc;
        goto out;
    }
    const thin_image *sk = thin_parts_image(tp);
    char name[256], tmp[4096], num[64];
    snprintf(tmp, sizeof tmp, "%s", strcmp(in, "-") == 0 ? "stdin" : in);
    snprintf(name, sizeof name, "%s", basename(tmp));
    dtss_pool_field(p, "image", strpbrk(name, ",\r\n") ? "-" : name);
    snprintf(num, sizeof num, "%d", sk->width);
    dtss_pool_field(p, "width", num);
    snprintf(num, sizeof num, "%d", sk->height);
    dtss_pool_field(p, "height", num);
    snprintf(num, sizeof num, "%lld", thin_image_count(sk));
    dtss_pool_field(p, "pixels", num);
    snprintf(num, sizeof num, "%g", slow);
    dtss_pool_field(p, "slow", num);
    if (out && thin_pbm_write(sk, out, 0, msg, sizeof msg) != 0) {
        fail("%s", msg);
        goto out;
    }
    if (record && dtss_pool_write_record(p, record) != DTSS_OK) {
        fail("%s", dtss_pool_errmsg(p));
        goto out;
    }
    if (!quiet) {
        FILE *f = out && strcmp(out, "-") == 0 ? stderr : stdout;
        fprintf(f, "image %d x %d: %d iterations, %s, %lld of %lld pixels left, %d "
                "parts\n", sk->width, sk->height, iterations, thin_parts_begin(tp, NULL) == 0
                ? "converged" : "not converged", thin_image_count(sk), before, M);
        dtss_pool_summary(p, f);
    }
    status = 0;
out:
    thin_parts_free(tp);
    thin_image_free(&im);
    dtss_pool_free(p);
    return status;
}
