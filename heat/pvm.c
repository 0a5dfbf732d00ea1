/* pvm.c: bin/heat-pvm, the heat-conduction model of Yoon et al. (Fig. 10)
 * on PVM: the plate of heat/heat.h in row strips over a worker per host
 * (libdtss's row strips, dtss_strips_*), halo rows exchanged every step,
 * the strips re-cut every K steps by a load-balancing strategy (sched/lb/lb.h;
 * none: never). The field is bit for bit bin/heat's whatever the cut
 * (compare the checksum lines). */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dtss.h>

#include "heat/heat.h"
#include "sched/util/closeout.h"
#include "sched/util/outfile.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

#define PROG "heat-pvm"

static int worker(int argc, char **argv)
{
    dtss_strips_worker *w;
    dtss_strips_piece pc;
    heat_plate p;
    size_t len;
    int rc = dtss_strips_worker_open(&w, argc, argv);
    if (rc == DTSS_OK) {
        const void *job = dtss_strips_worker_job(w, &len);
        sched_err err;
        if (len != sizeof p) {
            fprintf(stderr, PROG " worker: a job of %zu bytes (%zu expected)\n", len, sizeof p);
            dtss_strips_worker_close(w);
            return 1;
        }
        memcpy(&p, job, sizeof p);
        if (heat_plate_check(&p, &err) != SCHED_OK) {
            fprintf(stderr, PROG " worker: %s\n", err.msg);
            dtss_strips_worker_close(w);
            return 1;
        }
    }
    while (rc == DTSS_OK && (rc = dtss_strips_worker_step(w, &pc)) == DTSS_PIECE) {
        heat_rows(&p, pc.first, pc.rows, pc.above, pc.in, pc.below, pc.out);
        rc = DTSS_OK;
    }
    if (rc != DTSS_DONE)
        fprintf(stderr, PROG " worker: %s\n", dtss_strips_worker_errmsg(w));
    dtss_strips_worker_close(w);
    return rc != DTSS_DONE;
}

static void usage(FILE *f)
{
    fprintf(f,
"usage: heat-pvm --nx N --ny N --steps K [--r R] [-o FIELD.pgm] [--raw FILE]\n"
"                [--checksum] [--record FILE] [-v] [row-strip options]\n"
"\n"
"The 2-D heat equation of bin/heat (docs/heat.md) on PVM: the plate's rows\n"
"in strips over a worker per host, halo rows exchanged every step, the\n"
"strips re-cut every K steps by the strategy (Yoon et al.'s heat-conduction\n"
"model). Prints the run's time and the rows each worker ended with, and the\n"
"field's least, largest and mean values, as bin/heat does.\n"
"\n"
"options:\n"
"      --nx N        cells a row (1..%d)\n"
"      --ny N        rows (1..%d, at least one a worker)\n"
"      --steps K     time steps (>= 0)\n"
"      --r R         alpha dt / h^2, in (0, 0.25]; default 0.2\n"
"  -o, --out FILE    the field as an 8-bit PGM picture\n"
"      --raw FILE    the field's cells as 8-byte little-endian doubles\n"
"      --checksum    print 'checksum' and the FNV-1a 64 of those bytes\n"
"      --record FILE the run record (runtime/strips/master.c)\n"
"  -v, --verbose     a line per re-cut\n"
"  -h, --help        this help\n",
            HEAT_MAX_SIDE, HEAT_MAX_SIDE);
    dtss_strips_usage(f);
    fprintf(f, "exit status: 0 done; 1 the run failed, or an output could not be written,\n"
               "standard output included (said; no part of a file is left); 2 a bad\n"
               "option or value, an unknown host\n");
}

int main(int argc, char **argv)
{
    if (dtss_is_worker(argc, argv))
        return worker(argc, argv);
    closeout_init(PROG);
    dtss_strips *s = dtss_strips_new();
    if (!s) {
        fprintf(stderr, PROG ": out of memory\n");
        return 1;
    }
    int rc = dtss_strips_args(s, &argc, argv);
    if (rc != DTSS_OK) {
        fprintf(stderr, PROG ": %s\n", dtss_strips_errmsg(s));
        dtss_strips_free(s);
        return rc == DTSS_EINVAL || rc == DTSS_ENOENT ? 2 : 1;
    }
    enum { OPT_NX = 256, OPT_NY, OPT_STEPS, OPT_R, OPT_RAW, OPT_CHECKSUM, OPT_RECORD };
    static const struct option opts[] = {
        {"nx", required_argument, NULL, OPT_NX}, {"ny", required_argument, NULL, OPT_NY},
        {"steps", required_argument, NULL, OPT_STEPS}, {"r", required_argument, NULL, OPT_R},
        {"out", required_argument, NULL, 'o'}, {"raw", required_argument, NULL, OPT_RAW},
        {"checksum", no_argument, NULL, OPT_CHECKSUM},
        {"record", required_argument, NULL, OPT_RECORD},
        {"verbose", no_argument, NULL, 'v'}, {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}};
    int nx = 0, ny = 0, checksum = 0, verbose = 0, c;
    long steps = -1;
    double r = 0.2;
    const char *out = NULL, *raw = NULL, *record = NULL;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:vh", opts, NULL)) != -1) {
        int bad = 0;
        switch (c) {
        case OPT_NX: bad = parse_int_in(optarg, 1, HEAT_MAX_SIDE, &nx); break;
        case OPT_NY: bad = parse_int_in(optarg, 1, HEAT_MAX_SIDE, &ny); break;
        case OPT_STEPS: bad = parse_long_in(optarg, 0, 1000000000L, &steps); break;
        case OPT_R: bad = parse_double(optarg, &r); break;
        case 'o': out = optarg; break;
        case OPT_RAW: raw = optarg; break;
        case OPT_CHECKSUM: checksum = 1; break;
        case OPT_RECORD: record = optarg; break;
        case 'v': verbose = 1; break;
        case 'h':
            usage(stdout);
            dtss_strips_free(s);
            return 0;
        default:
            dtss_strips_free(s);
            return parse_getopt_error(PROG, c, argv);
        }
        if (bad) {
            dtss_strips_free(s);
            return parse_fail(PROG, "--%s '%s' is not a valid value (see --help)",
                              opts[c - OPT_NX].name, quote(optarg));
        }
    }
    if (optind < argc || !nx || !ny || steps < 0) {
        dtss_strips_free(s);
        return parse_fail(PROG, optind < argc ? "unexpected argument '%s' (see --help)"
                                              : "--nx, --ny and --steps are needed%s",
                          optind < argc ? quote(argv[optind]) : "");
    }
    heat_plate p;
    sched_err err;
    if (heat_plate_init(&p, nx, ny, r, &err) != SCHED_OK) {
        dtss_strips_free(s);
        return parse_fail(PROG, "%s", err.msg);
    }
    if (closeout_output("--out", out, 0) || closeout_output("--raw", raw, 0) ||
        closeout_output("--record", record, 0)) {       /* before the run */
        dtss_strips_free(s);
        return 1;
    }
    double *u = heat_field_new(&p, &err);
    if (!u) {
        fprintf(stderr, PROG ": %s\n", err.msg);
        dtss_strips_free(s);
        return 1;
    }
    dtss_strips_log(s, stderr, PROG, verbose);
    rc = dtss_strips_job(s, &p, sizeof p);
    if (rc == DTSS_OK)
        rc = dtss_strips_run(s, ny, (size_t)nx * sizeof *u, steps, u);
    int status = rc == DTSS_EINVAL || rc == DTSS_ENOENT ? 2 : 1;   /* options, hosts: 2 */
    if (rc == DTSS_DONE && record && dtss_strips_write_record(s, record) != DTSS_OK) {
        rc = DTSS_EINVAL;
        status = 1;                                     /* an output: 1 */
    }
    if (rc != DTSS_DONE) {
        fprintf(stderr, PROG ": %s\n", dtss_strips_errmsg(s));
        free(u);
        dtss_strips_free(s);
        return status;
    }
    dtss_strips_summary(s, stdout);
    double lo = u[0], hi = u[0], sum = 0;
    long n = (long)nx * ny;
    for (long k = 0; k < n; k++) {
        lo = u[k] < lo ? u[k] : lo;
        hi = u[k] > hi ? u[k] : hi;
        sum += u[k];
    }
    printf("plate %d x %d, r %g, %ld steps: min %.6g, max %.6g, mean %.6g\n", nx, ny, r,
           steps, lo, hi, sum / (double)n);
    if (checksum)
        printf("checksum %016llx\n", (unsigned long long)heat_checksum(&p, u));
    char msg[512];
    int wrc = 0;
    if (out && heat_write_pgm(&p, u, out, msg, sizeof msg) != 0)
        wrc = fprintf(stderr, PROG ": %s\n", msg);
    if (raw && heat_write_raw(&p, u, raw, msg, sizeof msg) != 0)
        wrc = fprintf(stderr, PROG ": %s\n", msg);
    free(u);
    dtss_strips_free(s);
    return wrc ? 1 : 0;
}
