/* loop.c: bin/loop, a synthetic loop on libdtss -- Xu & Chronopoulos
 * Fig. 1's iteration costs (uniform, linearly increasing or decreasing,
 * conditional) computed for real on the PVM virtual machine.
 *
 * The loop is the simulator's 'workload' line (sim/workload.c, the one
 * implementation of the costs: iteration i costs c(i) units, conditional
 * draws from GSL's mt19937 with --seed, default 1, as bin/sim's), so a run
 * here and a simulation of the same line cost the same iteration by
 * iteration. A unit is one step z = z^2 + c of the Mandelbrot set's inner
 * loop at a point that never escapes, so a unit costs about what one
 * Mandelbrot iteration does (bin/mandel's cost units); --sequential times
 * the whole loop on this machine alone, the ideal's numerator.
 *
 * Each iteration returns --result-bytes bytes (its index, then zeros), so
 * a link's transfer can be made to cost what an image row's does. Every
 * runtime option works:
 *   ./loop -w 'increasing n=1200 from=1e5 to=3e5' --scheme tss -r run.csv */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdint.h>
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
#include "sim/sim.h"

#define MAX_RESULT (1L << 20)   /* bytes an iteration may return */
/* The most units a loop may cost: 2^53 (9.0e15; about 100 days of one
 * core at 10^9 units a second), so that every prefix sum of the costs is a
 * double whose rounding is exact and each iteration's steps are a long.
 * Beyond, llround gave garbage (2^63 and over: no work, an absurd rate). */
#define MAX_UNITS 9007199254740992L
#define JOB_MAX 512

#define fail(...) parse_fail("loop", __VA_ARGS__)

static void usage(FILE *f)
{
    fprintf(f,
"usage: loop -w WORKLOAD [options] [runtime options]\n"
"\n"
"A synthetic loop on the running PVM virtual machine (Xu & Chronopoulos\n"
"Fig. 1): iteration i busy-computes c(i) units, one unit a step of the\n"
"Mandelbrot set's inner loop; the iterations are handed out by the runtime's\n"
"scheme. Prints the paper's summary line (each worker's time, Finish, Imbalance).\n"
"\n"
"  -w, --workload LINE   the costs, as bin/sim's 'workload' line:\n"
"                          uniform n=N cost=C\n"
"                          increasing n=N from=A to=B   (decreasing likewise)\n"
"                          conditional n=N lo=A hi=B p=P (B with probability P)\n"
"                        at most 2^53 = 9007199254740992 units in all\n"
"      --seed N          the conditional loop's draws (default 1, as bin/sim)\n"
"  -b, --result-bytes B  bytes each iteration returns (default 8, 8..%ld)\n"
"  -r, --record FILE     the run record, CSV (default none)\n"
"      --sequential      no PVM: run the whole loop here and print its seconds\n"
"  -s NAME, -R R         --scheme NAME, --sample R (the runtime's, below)\n"
"  -q, --quiet           only the summary line\n"
"  -h, --help            this help\n"
"exit status: 0 done; 1 the run failed, or an output (the record, standard\n"
"output) could not be written (said); 2 bad input: a bad option or value, an\n"
"unknown host, a --resume journal that is missing, damaged or not this loop's\n"
"scheduling (the runtime's options; the worker is this program):\n", MAX_RESULT);
    dtss_master_usage(f);
}

/* 'units' steps of z = z^2 + c at c = -0.1 + 0.1i (inside the main cardioid:
 * z never escapes, so no step can be skipped); the result keeps the
 * compiler from dropping the work. */
static double spin(long units)
{
    double zr = 0, zi = 0, cr = -0.1, ci = 0.1;
    for (long k = 0; k < units; k++) {
        double t = zr * zr - zi * zi + cr;
        zi = 2 * zr * zi + ci;
        zr = t;
    }
    return zr + zi;
}

/* The job every worker gets: "loop1 SEED BYTES\nLINE\0". */
typedef struct job { unsigned long seed; long bytes; char line[JOB_MAX]; } job;

static int parse_job(job *j, const char *text, size_t len, char *msg, size_t mlen)
{
    int off = 0;
    if (len == 0 || len > JOB_MAX + 64 || text[len - 1] != '\0' ||
        sscanf(text, "loop1 %lu %ld\n%n", &j->seed, &j->bytes, &off) != 2 || off == 0 ||
        strlen(text + off) >= sizeof j->line || j->bytes < 8 || j->bytes > MAX_RESULT) {
        snprintf(msg, mlen, "a job of %zu bytes is not bin/loop's", len);
        return -1;
    }
    strcpy(j->line, text + off);
    return 0;
}

/* Reads the workload line; only the synthetic kinds (an image is
 * bin/coordinator's, a matrix bin/matrix's). */
static int load(sim_workload *wl, const char *line, unsigned long seed, char *msg, size_t len)
{
    size_t k = strspn(line, " \t");
    const char *kinds[] = {"uniform", "increasing", "decreasing", "conditional"};
    int ok = 0;
    for (size_t i = 0; i < sizeof kinds / sizeof *kinds; i++) {
        size_t n = strlen(kinds[i]);
        ok |= strncmp(line + k, kinds[i], n) == 0 && (line[k + n] == ' ' || line[k + n] == '\0');
    }
    if (!ok) {
        snprintf(msg, len, "workload '%s': bin/loop runs uniform, increasing, "
                 "decreasing or conditional loops", quote(line));
        return -1;
    }
    if (sim_workload_parse(wl, line, seed, NULL, msg, len) != 0)
        return -1;
    if (wl->n > INT32_MAX) {
        snprintf(msg, len, "workload: n=%ld is more than PVM's %ld iterations", wl->n,
                 (long)INT32_MAX);
        sim_workload_free(wl);
        return -1;
    }
    if (!(wl->total <= (double)MAX_UNITS)) {
        char t[CONV_G];
        snprintf(msg, len, "workload '%.60s': %s units in all, more than the %ld "
                 "(2^53) a loop may cost", line, conv_g(wl->total, t), MAX_UNITS);
        sim_workload_free(wl);
        return -1;
    }
    return 0;
}

/* Iteration i's steps: the units of iterations [0, i + 1) rounded, minus
 * those of [0, i), so the loop's steps add up to its cost rounded. Every
 * prefix is at most the total (the costs are >= 0), which load() keeps at
 * most MAX_UNITS; the clamp to 0..2 MAX_UNITS only bounds a sum's rounding
 * (the linear kinds' closed forms). */
static long steps(const sim_workload *wl, long i)
{
    const long most = 2 * MAX_UNITS;
    return conv_clamp(round(sim_work(wl, 0, i + 1)), 0, most) -
           conv_clamp(round(sim_work(wl, 0, i)), 0, most);
}

static int worker(int argc, char **argv)
{
    dtss_worker *w;
    sim_workload wl;
    job j;
    char msg[256] = "";
    unsigned char *buf = NULL;
    size_t len = 0;
    long start, size;
    int rc = dtss_worker_open(&w, argc, argv), have = 0;
    if (rc == DTSS_OK) {
        const char *text = dtss_worker_job(w, &len);
        if (parse_job(&j, text, len, msg, sizeof msg) != 0 ||
            load(&wl, j.line, j.seed, msg, sizeof msg) != 0 ||
            !(buf = calloc(1, (size_t)j.bytes))) {
            if (!msg[0])
                snprintf(msg, sizeof msg, "out of memory");
            rc = DTSS_EINVAL;
        } else
            have = 1;
    }
    volatile double sink = 0;
    while (rc == DTSS_OK && (rc = dtss_worker_next(w, &start, &size)) == DTSS_PIECE) {
        rc = DTSS_OK;
        for (long i = start; i < start + size && rc == DTSS_OK; i++) {
            long s = steps(&wl, i);
            sink = sink + spin(s);
            int64_t idx = i;
            memcpy(buf, &idx, sizeof idx);
            rc = dtss_worker_result(w, buf, (size_t)j.bytes);
            if (rc == DTSS_OK)
                rc = dtss_worker_cost(w, (double)s);
        }
    }
    if (rc != DTSS_DONE)
        fprintf(stderr, "loop worker: %s\n", msg[0] ? msg : dtss_worker_errmsg(w));
    if (have)
        sim_workload_free(&wl);
    free(buf);
    dtss_worker_close(w);
    return rc != DTSS_DONE;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* --sequential: the loop here, alone. */
static int sequential(const sim_workload *wl, int quiet)
{
    volatile double sink = 0;
    double t0 = now();
    for (long i = 0; i < wl->n; i++)
        sink = sink + spin(steps(wl, i));
    double t = now() - t0;
    if (!quiet)
        printf("loop: %s, %.10g units\n", wl->desc, wl->total);
    printf("sequential seconds %.6f (%.6g units a second)\n", t, wl->total / t);
    return 0;
}

/* The exit status of a runtime error before the run (options, hosts, the
 * journal to resume): 2 for bad input, 1 for a failure (PVM, memory). */
static int status_of(int rc)
{
    return rc == DTSS_EINVAL || rc == DTSS_ENOENT ? 2 : 1;
}

/* Checks a piece's bytes: each iteration's index, in order. */
static int check_piece(const dtss_piece *p, long bytes, char *seen)
{
    if (p->len != (size_t)(p->size * bytes))
        return -1;
    for (long k = 0; k < p->size; k++) {
        int64_t idx;
        memcpy(&idx, (const char *)p->data + k * bytes, sizeof idx);
        if (idx != p->start + k || seen[idx])
            return -1;
        seen[idx] = 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (dtss_is_worker(argc, argv))
        return worker(argc, argv);
    closeout_init("loop");
    dtss_master *m = dtss_master_new();
    if (!m) {
        fail("out of memory");
        return 1;
    }
    int rc = dtss_master_args(m, &argc, argv);
    if (rc != DTSS_OK) {
        fprintf(stderr, "loop: %s (try --help)\n", dtss_master_errmsg(m));
        dtss_master_free(m);
        return status_of(rc);
    }
    enum { OPT_SEED = 256, OPT_SEQ };
    static const struct option opts[] = {
        {"workload", required_argument, NULL, 'w'},
        {"seed", required_argument, NULL, OPT_SEED},
        {"result-bytes", required_argument, NULL, 'b'},
        {"record", required_argument, NULL, 'r'},
        {"sequential", no_argument, NULL, OPT_SEQ},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    const char *line = NULL, *recpath = NULL;
    unsigned long seed = 1;
    long bytes = 8, v;
    int quiet = 0, seq = 0, c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":w:b:r:s:R:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'w': line = optarg; break;
        case OPT_SEED:
            if (parse_long(optarg, &v) != 0 || v < 0 || v > 4294967295L) {
                dtss_master_free(m);
                return fail("--seed '%s' must be an integer in 0..4294967295", quote(optarg));
            }
            seed = (unsigned long)v;
            break;
        case 'b':
            if (parse_long(optarg, &bytes) != 0 || bytes < 8 || bytes > MAX_RESULT) {
                dtss_master_free(m);
                return fail("--result-bytes '%s' must be an integer in 8..%ld", quote(optarg),
                            MAX_RESULT);
            }
            break;
        case 'r': recpath = strcmp(optarg, "none") ? optarg : NULL; break;
        case 's':
        case 'R':
            if ((rc = dtss_master_set(m, c == 's' ? "scheme" : "sample", optarg)) != DTSS_OK) {
                fprintf(stderr, "loop: %s (try --help)\n", dtss_master_errmsg(m));
                dtss_master_free(m);
                return status_of(rc);
            }
            break;
        case OPT_SEQ: seq = 1; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); dtss_master_free(m); return 0;
        default:
            dtss_master_free(m);
            return parse_getopt_error("loop", c, argv);
        }
    }
    if (optind < argc) {
        dtss_master_free(m);
        return fail("unexpected argument '%s' (try --help)", quote(argv[optind]));
    }
    if (!line) {
        dtss_master_free(m);
        return fail("no loop: -w WORKLOAD, e.g. -w 'uniform n=1000 cost=1e5' (try --help)");
    }
    if (!seq && closeout_output("--record", recpath, 1)) {     /* before any work */
        dtss_master_free(m);
        return 1;
    }
    sim_workload wl;
    char msg[256], text[JOB_MAX + 64], num[32];
    if (strlen(line) >= JOB_MAX) {
        dtss_master_free(m);
        return fail("the workload line is longer than %d characters", JOB_MAX - 1);
    }
    if (load(&wl, line, seed, msg, sizeof msg) != 0) {
        dtss_master_free(m);
        return fail("%s", msg);
    }
    if (seq) {
        dtss_master_free(m);
        int r = sequential(&wl, quiet);
        sim_workload_free(&wl);
        return r;
    }
    int n = snprintf(text, sizeof text, "loop1 %lu %ld\n%s", seed, bytes, line);
    snprintf(num, sizeof num, "%ld", wl.n);
    rc = dtss_master_set(m, "iterations", num);
    if (rc == DTSS_OK)
        rc = dtss_master_job(m, text, (size_t)n + 1);
    snprintf(num, sizeof num, "%ld", bytes);
    if (rc == DTSS_OK)
        rc = dtss_master_field(m, "result_bytes", num);
    if (rc == DTSS_OK)          /* chunks whose results a message cannot carry refused */
        rc = dtss_master_result_bytes(m, bytes);
    if (rc != DTSS_OK) {
        fprintf(stderr, "loop: %s\n", dtss_master_errmsg(m));
        dtss_master_free(m);
        sim_workload_free(&wl);
        return status_of(rc);
    }
    char *seen = calloc((size_t)wl.n, 1);
    if (!seen) {
        dtss_master_free(m);
        sim_workload_free(&wl);
        fail("out of memory for %ld iterations", wl.n);
        return 1;
    }
    rc = dtss_master_start(m);
    dtss_piece p;
    int bad = 0;
    while (rc == DTSS_OK && (rc = dtss_master_next(m, &p)) == DTSS_PIECE) {
        rc = DTSS_OK;
        if (check_piece(&p, bytes, seen) != 0) {
            snprintf(msg, sizeof msg, "iterations %ld..%ld came back wrong (%zu bytes)%s",
                     p.start, p.start + p.size - 1, p.len, p.worker < 0 ? " from the "
                     "journal resumed: not this loop's, or damaged" : "");
            bad = p.worker < 0 ? 2 : 1;         /* the journal: bad input */
            break;
        }
    }
    int status = 0;
    if (bad) {
        fprintf(stderr, "loop: %s\n", msg);
        status = bad;
    } else if (rc != DTSS_DONE) {
        fprintf(stderr, "loop: %s\n", dtss_master_errmsg(m));
        status = status_of(rc);
    } else {
        if (!quiet)
            printf("loop: %s, %.10g units\n", wl.desc, wl.total);
        dtss_master_summary(m, stdout);
        if (recpath && dtss_master_write_record(m, recpath) != DTSS_OK) {
            fprintf(stderr, "loop: %s\n", dtss_master_errmsg(m));
            status = 1;
        }
    }
    free(seen);
    sim_workload_free(&wl);
    dtss_master_free(m);
    return status;
}
