/* tasks.c: bin/yoon-tasks, the task model of Yoon et al. Sec. 4.1 on real
 * PVM (libdtss's migration runtime, dtss_lb_*): N tasks dealt equally to
 * the workers, task k burning w_k seconds of CPU, w_k uniform(0, 2 E(r))
 * (GSL's mt19937, --seed), and carrying M bytes of data (what a migration
 * moves); the workers' speeds are their hosts' (the emulated cluster's
 * sp= quotas, the loads put on them). Every period the master balances by
 * the strategy named (--strategy none: no balancing, the paper's ET_NOLB).
 *
 *   yoon-tasks [--tasks N] [--mean S] [--bytes M] [--seed X] [-o RECORD]
 *              [--strategy NAME --period S --ct S --hosts H1,H2 ...]
 *              [--journal FILE | --resume FILE]
 *
 * A task burns CPU time (CLOCK_THREAD_CPUTIME_ID), not wall time: on a host
 * with a quarter of a core, or sharing its core with loaders, it lasts
 * longer, as on a slower or loaded workstation.
 *
 * A task's result is 16 bytes: the CPU seconds it burned (a double: they
 * vary from run to run) and the FNV-1a 64 of its payload (the same in every
 * run). The program prints the FNV-1a 64 over the tasks' payload checksums
 * in task order: a run resumed from its journal (--resume) prints a fresh
 * run's. */
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_rng.h>

#include <dtss.h>
#include "sched/util/closeout.h"
#include "sched/util/fnv.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

#define PROG "yoon-tasks"

typedef struct task_head {
    double cpu;                 /* seconds of CPU to burn */
    uint32_t number;
} task_head;

/* A task's result (the bytes of a double, then of a uint64_t). */
typedef struct task_result {
    double used;                /* CPU seconds burned */
    uint64_t sum;               /* FNV-1a 64 of the task's payload */
} task_result;

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Burns s seconds of this thread's CPU time. */
static void burn(double s)
{
    volatile double x = 1;
    double end = cpu_now() + s;
    while (cpu_now() < end)
        for (int i = 0; i < 1000; i++)
            x = x * 1.0000001 + 1e-9;
}

static int worker(int argc, char **argv)
{
    dtss_lb_worker *w;
    int task, rc = dtss_lb_worker_open(&w, argc, argv);
    const void *in;
    size_t n;
    while (rc == DTSS_OK && (rc = dtss_lb_worker_next(w, &task, &in, &n)) == DTSS_PIECE) {
        task_head h;
        if (n < sizeof h) {
            rc = DTSS_EINVAL;
            break;
        }
        memcpy(&h, in, sizeof h);
        double c0 = cpu_now();
        burn(h.cpu);
        task_result res = {.used = cpu_now() - c0, .sum = fnv1a(FNV1A_BASIS, in, n)};
        rc = dtss_lb_worker_result(w, &res, sizeof res);
    }
    if (rc != DTSS_DONE)
        fprintf(stderr, PROG " worker: %s\n", rc == DTSS_EINVAL ? "a task without its header"
                                                                 : dtss_lb_worker_errmsg(w));
    dtss_lb_worker_close(w);
    return rc != DTSS_DONE;
}

static void usage(FILE *f)
{
    fprintf(f,
"usage: yoon-tasks [--tasks N] [--mean S] [--bytes M] [--seed X] [-o RECORD]\n"
"                  [-v] [-q] [load-balancing options]\n"
"\n"
"Yoon et al.'s task model on PVM: N tasks dealt equally to a worker per\n"
"host, task k burning w_k ~ uniform(0, 2 S) seconds of CPU and carrying M\n"
"bytes; every period the master moves queued tasks by the strategy. Prints\n"
"the run's time, imbalance and tasks moved, and the results' checksum (the\n"
"same for a run resumed from its journal, --resume, as for a fresh one).\n"
"\n"
"options:\n"
"  -n, --tasks N     tasks in all, 1 .. 10^6 (default 200)\n"
"  -m, --mean S      E(r): the mean CPU seconds of a task, (0, 3600] (default 0.05)\n"
"  -b, --bytes M     a task's data, bytes, 16 .. 10^7 (default 8192)\n"
"  -s, --seed X      the tasks' random seed, 0 .. 2^32-1 (default 1)\n"
"  -o, --record FILE the run record (runtime/lb/master.c: run, worker,\n"
"                    round and task lines)\n"
"  -v, --verbose     a line per balancing round\n"
"  -q, --quiet       no summary\n"
"  -h, --help        this help\n");
    dtss_lb_usage(f);
    fprintf(f, "exit status: 0 done; 1 the run failed (with --journal: said how to\n"
               "resume), or an output (the record, standard output) could not be written\n"
               "(said); 2 a bad option or value, an unknown host, a --resume journal\n"
               "missing, damaged or of another run\n");
}

static int bad(const char *what, const char *v)
{
    fprintf(stderr, PROG ": %s '%s'\n", what, quote(v));
    return 2;
}

int main(int argc, char **argv)
{
    if (dtss_is_worker(argc, argv))
        return worker(argc, argv);
    closeout_init(PROG);
    dtss_lb *b = dtss_lb_new();
    if (!b) {
        fprintf(stderr, PROG ": out of memory\n");
        return 1;
    }
    int rc = dtss_lb_args(b, &argc, argv);
    if (rc != DTSS_OK) {
        fprintf(stderr, PROG ": %s\n", dtss_lb_errmsg(b));
        dtss_lb_free(b);
        return rc == DTSS_EINVAL || rc == DTSS_ENOENT ? 2 : 1;
    }
    static const struct option opts[] = {
        {"tasks", required_argument, NULL, 'n'}, {"mean", required_argument, NULL, 'm'},
        {"bytes", required_argument, NULL, 'b'}, {"seed", required_argument, NULL, 's'},
        {"record", required_argument, NULL, 'o'}, {"verbose", no_argument, NULL, 'v'},
        {"quiet", no_argument, NULL, 'q'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    long ntasks = 200, bytes = 8192;
    unsigned long seed = 1;
    double mean = 0.05;
    const char *record = NULL;
    int verbose = 0, quiet = 0, c;
    char *end;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":n:m:b:s:o:vqh", opts, NULL)) != -1) {
        switch (c) {
        case 'n':
            ntasks = strtol(optarg, &end, 10);
            if (*end || end == optarg || ntasks < 1 || ntasks > 1000000)
                return dtss_lb_free(b), bad("--tasks must be a whole number in [1, 10^6], not", optarg);
            break;
        case 'm':
            mean = strtod(optarg, &end);
            if (*end || end == optarg || !(mean > 0) || mean > 3600)
                return dtss_lb_free(b), bad("--mean must be seconds in (0, 3600], not", optarg);
            break;
        case 'b':
            bytes = strtol(optarg, &end, 10);
            if (*end || end == optarg || bytes < 16 || bytes > 10000000)
                return dtss_lb_free(b), bad("--bytes must be a whole number in [16, 10^7], not", optarg);
            break;
        case 's':
            seed = strtoul(optarg, &end, 10);
            if (*end || end == optarg || optarg[0] == '-' || seed > 0xffffffffUL)
                return dtss_lb_free(b), bad("--seed must be a whole number in [0, 2^32-1], not", optarg);
            break;
        case 'o':
            record = optarg;
            break;
        case 'v':
            verbose = 1;
            break;
        case 'q':
            quiet = 1;
            break;
        case 'h':
            usage(stdout);
            dtss_lb_free(b);
            return 0;
        default:
            dtss_lb_free(b);
            return parse_getopt_error(PROG, c, argv);
        }
    }
    if (optind < argc) {
        dtss_lb_free(b);
        return bad("unexpected argument (see --help)", argv[optind]);
    }
    if (closeout_output("--record", record, 0)) {      /* before the run */
        dtss_lb_free(b);
        return 1;
    }
    dtss_lb_log(b, stderr, PROG, verbose);
    unsigned char *payload = calloc(1, (size_t)bytes);
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!payload || !rng) {
        fprintf(stderr, PROG ": out of memory\n");
        return 1;
    }
    gsl_rng_set(rng, seed);
    double total = 0;
    for (long k = 0; k < ntasks && rc == DTSS_OK; k++) {
        task_head h = {.cpu = 2 * mean * gsl_rng_uniform(rng), .number = (uint32_t)k};
        total += h.cpu;
        memcpy(payload, &h, sizeof h);
        rc = dtss_lb_task(b, payload, (size_t)bytes);
    }
    gsl_rng_free(rng);
    free(payload);
    if (rc == DTSS_OK)
        rc = dtss_lb_start(b);
    int input = rc == DTSS_EINVAL || rc == DTSS_ENOENT;     /* an unknown host: exit 2 */
    dtss_task_result r;
    double used = 0;
    int badres = 0;
    uint64_t *sums = calloc((size_t)ntasks, sizeof *sums);
    unsigned char *have = calloc((size_t)ntasks, 1);
    if (!sums || !have) {
        fprintf(stderr, PROG ": out of memory\n");
        free(sums);
        free(have);
        dtss_lb_free(b);
        return 1;
    }
    while (rc == DTSS_OK && (rc = dtss_lb_next(b, &r)) == DTSS_PIECE) {
        task_result res;
        if (r.len != sizeof res || r.task < 0 || r.task >= ntasks || have[r.task]) {
            fprintf(stderr, PROG ": task %ld: a result of %zu bytes (%zu expected)%s\n",
                    (long)r.task, r.len, sizeof res, r.task >= 0 && r.task < ntasks &&
                    have[r.task] ? ", a second time" : "");
            badres = 1;
            break;
        }
        memcpy(&res, r.data, sizeof res);
        used += res.used;
        sums[r.task] = res.sum;
        have[r.task] = 1;
        rc = DTSS_OK;
    }
    uint64_t checksum = FNV1A_BASIS;
    for (long k = 0; k < ntasks; k++) {
        unsigned char le[8];
        for (int i = 0; i < 8; i++)
            le[i] = (unsigned char)(sums[k] >> (8 * i));
        checksum = fnv1a(checksum, le, 8);
    }
    free(sums);
    free(have);
    if (badres) {
        dtss_lb_free(b);
        return 1;
    }
    if (rc == DTSS_DONE && record && dtss_lb_write_record(b, record) != DTSS_OK)
        rc = DTSS_EINVAL;
    if (rc != DTSS_DONE) {
        fprintf(stderr, PROG ": %s\n", dtss_lb_errmsg(b));
        dtss_lb_free(b);
        return input ? 2 : 1;
    }
    if (!quiet) {
        dtss_lb_summary(b, stdout);
        printf("tasks: %ld of %.4f s CPU on average (%.3f s in all, %.3f s burned), "
               "%ld bytes each, seed %lu\n", ntasks, total / (double)ntasks, total, used,
               bytes, seed);
        printf("results: FNV-1a %016llx over the %ld tasks' payload checksums\n",
               (unsigned long long)checksum, ntasks);
    }
    dtss_lb_free(b);
    return 0;
}
