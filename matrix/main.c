/* main.c: bin/matrix, Díaz et al. Sec. 4's workload on libdtss: a loop of N
 * iterations, each the product of two random square matrices of a random
 * size (matrix/matrix.h), self-scheduled over the PVM virtual machine's
 * hosts. One program is both the master and its workers (dtss_is_worker),
 * built on the public header runtime/dtss.h alone.
 *
 * The master hands out the iterations by the chosen scheme and collects an
 * 8-byte result per iteration (the sum of its product's entries, exact); the
 * run's checksum hashes them in order. --sequential computes the same loop in
 * this process without PVM: the known answer every PVM run must match.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "matrix/matrix.h"
#include "runtime/dtss.h"
#include "sched/util/closeout.h"
#include "sched/util/conv.h"
#include "sched/util/outfile.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

#define PROG "matrix"
#define DEFAULT_COUNT 500
#define DEFAULT_SCALE 1.0
#define MAX_COUNT 100000000L

/* A size of the paper's scaled, rounded: --scale is checked so that
 * round(MATRIX_PAPER_MAX x scale) <= MATRIX_MAX_SIZE (as is the default). */
static int scaled(int paper, double scale)
{
    return (int)conv_clamp(round(paper * scale), 0, MATRIX_MAX_SIZE);
}

static void usage(FILE *f)
{
    fprintf(f,
"usage: matrix [options]\n"
"\n"
"Díaz et al. Sec. 4's workload: N products of two random square matrices,\n"
"each of a size uniform in [min, max] (the paper's 300..1000 times --scale),\n"
"by gsl_blas_dgemm, self-scheduled over the running PVM virtual machine:\n"
"one worker per host (this same program, found by PVM through the hostfile's\n"
"ep= path: --worker PATH otherwise). Start PVM first (pvm HOSTFILE,\n"
"or make cluster-up). Iteration i's size and matrices come from a random\n"
"stream seeded by (seed, i) alone; its result is the sum of its product's\n"
"entries (an exact integer), and the run's checksum hashes the results in\n"
"order: the same for every scheme, every worker count, and --sequential.\n"
"Prints the paper's summary line (W1..Wn, Finish, Imbalance, seconds) and\n"
"the checksum.\n"
"CBLAS: %s\n"
"\n"
"workload:\n"
"  -n, --count N        products, the loop's iterations (default %d)\n"
"      --scale F        sizes: the paper's 300..1000 times F, rounded\n"
"                       (default %g: %d..%d)\n"
"      --min-size N / --max-size N   the sizes themselves (override --scale)\n"
"      --seed N         the random streams' seed (default 1)\n"
"      --sequential     compute the loop here, one core, no PVM: the checksum\n"
"                       a PVM run must give, and the time\n"
"output:\n"
"  -r, --record FILE    the run record, CSV (default none; with count=, min=,\n"
"                       max=, seed=, checksum= on its run line)\n"
"  -q, --quiet          no progress lines: the summary and the checksum\n"
"  -h, --help           this help\n"
"exit status: 0 done; 1 the run failed, or an output (the record, standard\n"
"output) could not be written (said); 2 bad input: a bad option or value, an\n"
"unknown host, a --resume journal that is missing, damaged or not this run's\n"
"scheduling: the runtime's options below; -s NAME is --scheme. Its --min is\n"
"--chunk-min N here (the minimum chunk size), its --iterations -n/--count:\n",
            matrix_blas(), DEFAULT_COUNT, DEFAULT_SCALE,
            scaled(MATRIX_PAPER_MIN, DEFAULT_SCALE), scaled(MATRIX_PAPER_MAX, DEFAULT_SCALE));
    dtss_master_usage(f);
}

__attribute__((format(printf, 1, 2)))
static int fail(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, PROG ": ");
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    return 2;
}

/* The exit status of a runtime error before the run (options, hosts, the
 * journal to resume): 2 for bad input, 1 for a failure (PVM, memory). */
static int status_of(int rc)
{
    return rc == DTSS_EINVAL || rc == DTSS_ENOENT ? 2 : 1;
}

/* Whole-string numbers: 0, or -1 (out unchanged); to_long also needs
 * lo <= value <= hi. */
static int to_long(const char *s, long lo, long hi, long *out)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end || errno == ERANGE || v < lo || v > hi)
        return -1;
    *out = v;
    return 0;
}

/* GSL's errors (its default handler aborts): said, and exit status 1, the
 * run failed. The program's name says master or worker. */
static const char *gsl_who = PROG;

static void on_gsl_error(const char *reason, const char *file, int line, int gsl_errno)
{
    fprintf(stderr, "%s: GSL error: %s (%s:%d, %s)\n", gsl_who, reason, file, line,
            gsl_strerror(gsl_errno));
    exit(1);
}

static int to_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || *end || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* One BLAS thread, set before the library starts: OpenBLAS starts its
 * threads when it is loaded, before main, unless OPENBLAS_NUM_THREADS says
 * otherwise; an idle one spins for a while and counts in the host's
 * run-queue (the workers' A_i). So with OpenBLAS linked and the variable not
 * 1, this program sets it and executes itself again. */
static void one_blas_thread(char **argv)
{
    const char *v = getenv("OPENBLAS_NUM_THREADS");
    if (strncmp(matrix_blas(), "OpenBLAS", 8) != 0 || (v && strcmp(v, "1") == 0))
        return;
    char self[4096];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0 && setenv("OPENBLAS_NUM_THREADS", "1", 1) == 0) {
        self[n] = '\0';
        execv(self, argv);
    }
    /* still here: openblas_set_num_threads(1) (matrix_work_new) will do */
}

/* ---- the worker -------------------------------------------------------------- */

/* The job: the workload's parameters as a line of text. */
static int encode_job(const matrix_params *p, char *buf, size_t len)
{
    return snprintf(buf, len, "matrix seed=%lu min=%d max=%d", p->seed, p->min, p->max);
}

/* The job's words in encode_job's order, each number checked (sscanf's %d
 * of an out-of-range number is undefined). 0, or -1 for a bad job. */
static int decode_job(matrix_params *p, const char *job, size_t n)
{
    char buf[128];
    if (!job || n == 0 || n >= sizeof buf)
        return -1;
    memcpy(buf, job, n);
    buf[n] = '\0';
    static const char *const keys[] = {"seed=", "min=", "max="};
    long v[3];
    char *save = NULL, *w = strtok_r(buf, " ", &save);
    if (!w || strcmp(w, "matrix") != 0)
        return -1;
    for (int k = 0; k < 3; k++) {
        w = strtok_r(NULL, " ", &save);
        size_t len = strlen(keys[k]);
        if (!w || strncmp(w, keys[k], len) != 0 ||
            to_long(w + len, 0, k ? MATRIX_MAX_SIZE : LONG_MAX, &v[k]) != 0)
            return -1;
    }
    if (strtok_r(NULL, " ", &save))
        return -1;
    *p = (matrix_params){(unsigned long)v[0], (int)v[1], (int)v[2]};
    char msg[128];
    return matrix_check(p, msg, sizeof msg);
}

/* The worker's loop: iterations in, results out. Returns the exit status. */
static int work(int argc, char **argv)
{
    dtss_worker *w;
    if (dtss_worker_open(&w, argc, argv) != DTSS_OK) {
        fprintf(stderr, PROG " worker: %s\n", dtss_worker_errmsg(w));
        dtss_worker_close(w);
        return 1;
    }
    size_t len;
    const char *job = dtss_worker_job(w, &len);
    matrix_params p;
    if (decode_job(&p, job, len) != 0) {
        fprintf(stderr, PROG " worker %d: a bad job ('%s')\n", dtss_worker_index(w),
                job ? quote_mem(job, len) : "");
        dtss_worker_close(w);
        return 1;
    }
    matrix_work *mw = matrix_work_new(&p);
    long start, size;
    int rc = mw ? DTSS_OK : DTSS_ENOMEM;
    while (rc == DTSS_OK && (rc = dtss_worker_next(w, &start, &size)) == DTSS_PIECE) {
        rc = DTSS_OK;
        for (long i = start; i < start + size && rc == DTSS_OK; i++) {
            unsigned char b[MATRIX_RESULT_BYTES];
            matrix_result_bytes(matrix_product(mw, &p, i, NULL), b);
            rc = dtss_worker_result(w, b, sizeof b);
        }
    }
    if (rc != DTSS_DONE)
        fprintf(stderr, PROG " worker %d: %s\n", dtss_worker_index(w),
                mw ? dtss_worker_errmsg(w) : "out of memory for the matrices");
    matrix_work_free(mw);
    dtss_worker_close(w);
    return rc == DTSS_DONE ? 0 : 1;
}

/* ---- the master -------------------------------------------------------------- */

/* --sequential: the loop here. Returns the exit status. */
static int sequential(const matrix_params *p, long n, int quiet)
{
    int64_t *res = malloc(sizeof *res * (size_t)n);
    matrix_work *mw = matrix_work_new(p);
    if (!res || !mw) {
        free(res);
        matrix_work_free(mw);
        fprintf(stderr, PROG ": out of memory for %ld results and %dx%d matrices\n", n,
                p->max, p->max);
        return 1;
    }
    double flops = 0, t0 = now();
    for (long i = 0; i < n; i++) {
        int s;
        res[i] = matrix_product(mw, p, i, &s);
        flops += matrix_flops(s);
    }
    double t = now() - t0;
    if (!quiet)
        printf("sequential: %ld products of sizes %d..%d, seed %lu: %.3f s, %.0f flops "
               "(%.2f Gflop/s; %s)\n", n, p->min, p->max, p->seed, t, flops,
               flops / t / 1e9, matrix_blas());
    printf("checksum %016llx\n", (unsigned long long)matrix_checksum(res, n));
    free(res);
    matrix_work_free(mw);
    return 0;
}

/* Runs the schedule, storing every result once. Returns 0, or 1 after a
 * message. */
static int collect(dtss_master *m, int64_t *res, char *seen, long n)
{
    dtss_piece pc;
    long got = 0;
    int rc;
    while ((rc = dtss_master_next(m, &pc)) == DTSS_PIECE) {
        if (pc.start < 0 || pc.size > n - pc.start ||
            pc.len != (size_t)pc.size * MATRIX_RESULT_BYTES) {
            if (pc.worker < 0)          /* a resumed run's journal: bad input */
                fprintf(stderr, PROG ": the journal resumed holds %zu bytes for iterations "
                        "[%ld, %ld): not this run's (a damaged journal)\n", pc.len, pc.start,
                        pc.start + pc.size);
            else
                fprintf(stderr, PROG ": worker %d sent %zu bytes for iterations [%ld, %ld)\n",
                        pc.worker + 1, pc.len, pc.start, pc.start + pc.size);
            return pc.worker < 0 ? 2 : 1;
        }
        for (long k = 0; k < pc.size; k++) {
            long i = pc.start + k;
            if (seen[i]) {
                fprintf(stderr, PROG ": iteration %ld came twice%s\n", i,
                        pc.worker < 0 ? " (from the journal resumed: a damaged journal)" : "");
                return pc.worker < 0 ? 2 : 1;
            }
            seen[i] = 1;
            res[i] = matrix_result_value((const unsigned char *)pc.data +
                                         (size_t)k * MATRIX_RESULT_BYTES);
        }
        got += pc.size;
    }
    if (rc != DTSS_DONE) {
        fprintf(stderr, PROG ": %s\n", dtss_master_errmsg(m));
        return 1;
    }
    if (got != n) {
        fprintf(stderr, PROG ": %ld of %ld iterations came back\n", got, n);
        return 1;
    }
    return 0;
}

/* The run on PVM: start, collect, record, summary. Returns the exit status. */
static int distributed(dtss_master *m, const matrix_params *p, long n,
                       const char *record_path, int quiet)
{
    int64_t *res = malloc(sizeof *res * (size_t)(n ? n : 1));
    char *seen = calloc((size_t)(n ? n : 1), 1);
    if (!res || !seen) {
        free(res);
        free(seen);
        fprintf(stderr, PROG ": out of memory for %ld results\n", n);
        return 1;
    }
    dtss_master_log(m, stderr, PROG, !quiet);
    int rc = dtss_master_start(m);
    if (rc != DTSS_OK) {
        fprintf(stderr, PROG ": %s\n", dtss_master_errmsg(m));
        rc = status_of(rc);
    } else if ((rc = collect(m, res, seen, n)) == 0) {
        char text[32];
        snprintf(text, sizeof text, "%ld", n);
        dtss_master_field(m, "count", text);
        snprintf(text, sizeof text, "%d", p->min);
        dtss_master_field(m, "min", text);
        snprintf(text, sizeof text, "%d", p->max);
        dtss_master_field(m, "max", text);
        snprintf(text, sizeof text, "%lu", p->seed);
        dtss_master_field(m, "seed", text);
        snprintf(text, sizeof text, "%016llx", (unsigned long long)matrix_checksum(res, n));
        dtss_master_field(m, "checksum", text);
        rc = 0;
        if (record_path && dtss_master_write_record(m, record_path) != DTSS_OK) {
            fprintf(stderr, PROG ": %s\n", dtss_master_errmsg(m));
            rc = 1;
        }
        dtss_master_summary(m, stdout);
        printf("checksum %s\n", text);     /* standard output: checked at exit */
    }
    free(res);
    free(seen);
    return rc;
}

int main(int argc, char **argv)
{
    one_blas_thread(argv);
    closeout_init(PROG);
    gsl_set_error_handler(on_gsl_error);
    if (dtss_is_worker(argc, argv)) {
        gsl_who = PROG " worker";
        return work(argc, argv);
    }

    enum { O_SCALE = 256, O_MIN, O_MAX, O_SEED, O_SEQ, O_CHUNKMIN };
    static const struct option opts[] = {
        {"count", required_argument, NULL, 'n'},
        {"scale", required_argument, NULL, O_SCALE},
        {"min-size", required_argument, NULL, O_MIN},
        {"max-size", required_argument, NULL, O_MAX},
        {"seed", required_argument, NULL, O_SEED},
        {"sequential", no_argument, NULL, O_SEQ},
        {"chunk-min", required_argument, NULL, O_CHUNKMIN},
        {"record", required_argument, NULL, 'r'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    /* Options refused by name: the runtime's --min (the minimum chunk size)
     * and --iterations, which a matrix size and the count would be taken
     * for, and --max, whose abbreviation getopt would take. */
    static const struct { const char *opt, *why; } refused[] = {
        {"--min", "--min is ambiguous here: --min-size N for the smallest matrix, "
                  "--chunk-min N for the minimum chunk size"},
        {"--max", "--max: the largest matrix is --max-size N"},
        {"--iterations", "--iterations: the products are -n/--count N"},
    };
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
            size_t n = strlen(refused[k].opt);
            if (strncmp(argv[i], refused[k].opt, n) == 0 && (!argv[i][n] || argv[i][n] == '='))
                return fail("%s", refused[k].why);
        }

    dtss_master *m = dtss_master_new();
    if (!m) {
        fprintf(stderr, PROG ": out of memory\n");
        return 1;
    }
    /* The workers are this program, spawned by name through the hostfile's
     * ep= path (as bin/coordinator spawns bin/worker), as on machines that do
     * not share this program's path. */
    dtss_master_set(m, "worker", PROG);
    int rc = dtss_master_args(m, &argc, argv);
    if (rc != DTSS_OK) {
        fail("%s", dtss_master_errmsg(m));
        dtss_master_free(m);
        return status_of(rc);
    }
    matrix_params p = {1, 0, 0};
    long n = DEFAULT_COUNT, v;
    double scale = DEFAULT_SCALE;
    const char *record_path = NULL;
    int quiet = 0, seq = 0, c;
    opterr = 0;
    while (rc == 0 && (c = getopt_long(argc, argv, ":s:n:r:qh", opts, NULL)) != -1) {
        switch (c) {
        case 's':
            if ((rc = dtss_master_set(m, "scheme", optarg)) != DTSS_OK) {
                fail("%s", dtss_master_errmsg(m));
                rc = status_of(rc);
            }
            break;
        case O_CHUNKMIN:
            if (to_long(optarg, 1, INT_MAX, &v) != 0)
                rc = fail("--chunk-min '%s' must be an integer in [1, %d]", quote(optarg), INT_MAX);
            else if ((rc = dtss_master_set(m, "min", optarg)) != DTSS_OK) {
                fail("%s", dtss_master_errmsg(m));
                rc = status_of(rc);
            }
            break;
        case 'n':
            if (to_long(optarg, 1, MAX_COUNT, &n) != 0)
                rc = fail("--count '%s' must be an integer in [1, %ld]", quote(optarg), MAX_COUNT);
            break;
        case O_SCALE:
            if (to_double(optarg, &scale) != 0 || !(scale > 0) ||
                !(round(MATRIX_PAPER_MAX * scale) <= MATRIX_MAX_SIZE) ||
                round(MATRIX_PAPER_MIN * scale) < 1)
                rc = fail("--scale '%s' must be a number in [%g, %g] (sizes 1..%d)", quote(optarg),
                          0.5 / MATRIX_PAPER_MIN, (double)MATRIX_MAX_SIZE / MATRIX_PAPER_MAX,
                          MATRIX_MAX_SIZE);
            break;
        case O_MIN:
        case O_MAX:
            if (to_long(optarg, 1, MATRIX_MAX_SIZE, &v) != 0)
                rc = fail("--%s '%s' must be an integer in [1, %d]",
                          c == O_MIN ? "min-size" : "max-size", quote(optarg), MATRIX_MAX_SIZE);
            else if (c == O_MIN)
                p.min = (int)v;
            else
                p.max = (int)v;
            break;
        case O_SEED:
            if (to_long(optarg, 0, LONG_MAX, &v) != 0)
                rc = fail("--seed '%s' must be an integer in [0, %ld]", quote(optarg), LONG_MAX);
            else
                p.seed = (unsigned long)v;
            break;
        case O_SEQ: seq = 1; break;
        case 'r': record_path = strcmp(optarg, "none") == 0 ? NULL : optarg; break;
        case 'q': quiet = 1; break;
        case 'h':
            usage(stdout);
            dtss_master_free(m);
            return 0;
        default:
            rc = parse_getopt_error(PROG, c, argv);
        }
    }
    char msg[160], job[128], iters[32];
    if (rc == 0 && optind < argc)
        rc = fail("unexpected argument '%s' (try --help)", quote(argv[optind]));
    if (rc == 0) {
        if (!p.min)
            p.min = scaled(MATRIX_PAPER_MIN, scale);
        if (!p.max)
            p.max = scaled(MATRIX_PAPER_MAX, scale);
        if (matrix_check(&p, msg, sizeof msg) != 0)
            rc = fail("--min-size %d, --max-size %d: %s", p.min, p.max, msg);
    }
    if (rc == 0) {
        snprintf(iters, sizeof iters, "%ld", n);
        int len = encode_job(&p, job, sizeof job);
        if ((rc = dtss_master_set(m, "iterations", iters)) != DTSS_OK ||
            (rc = dtss_master_job(m, job, (size_t)len)) != DTSS_OK ||
            (rc = dtss_master_result_bytes(m, MATRIX_RESULT_BYTES)) != DTSS_OK ||
            (rc = dtss_master_check(m)) != DTSS_OK) {
            fail("%s", dtss_master_errmsg(m));
            rc = status_of(rc);
        }
    }
    if (rc == 0 && !seq)
        rc = closeout_output("--record", record_path, 0);     /* before PVM is contacted */
    if (rc == 0)
        rc = seq ? sequential(&p, n, quiet) : distributed(m, &p, n, record_path, quiet);
    dtss_master_free(m);
    return rc;
}
