/* main.c: bin/mandel, the sequential Mandelbrot image and its line costs
 * (rows, or columns with --columns). */
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "mandel/mandel.h"
#include "sched/sched.h"
#include "sched/util/closeout.h"
#include "sched/util/outfile.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

static void usage(FILE *f)
{
    fprintf(f,
"usage: mandel [options]\n"
"\n"
"Computes the Mandelbrot set sequentially, row by row (or column by column),\n"
"and prints the size, the loop, the total iteration count, the image checksum\n"
"and the time taken.\n"
"\n"
"options:\n"
"  -o, --out FILE        write the image as a PGM (8-bit, grey by log count)\n"
"  -c, --costs FILE      write the per-row cost (sum of iteration counts) as\n"
"                        CSV: index,row,cost,sampled_row,sampled_cost, where\n"
"                        sampled_row is the row visited at that index of the\n"
"                        pseudo-uniformly sampled loop ('-' = stdout); with\n"
"                        --columns index,column,cost,sampled_column,sampled_cost\n"
"  -R, --sample R        sampling frequency for --costs, 1..1000000 (default 4)\n"
"      --columns         the loop over columns: iteration j is column j (the\n"
"                        same image; the costs are the columns')\n"
"  -S, --size N          width and height in pixels (default %d)\n"
"  -W, --width N         width in pixels\n"
"  -H, --height N        height in pixels\n"
"  -m, --maxiter N       maximum iterations per pixel (default %u)\n"
"      --region X0,Y0,X1,Y1  the region (default -2,-2,2,2)\n"
"  -q, --quiet           no summary, no progress\n"
"  -h, --help            this help\n"
"exit status: 0 done; 1 out of memory, or an output that cannot be written (said;\n"
"nothing half written is left); 2 a bad option or value\n",
            MANDEL_DEFAULT_SIZE, MANDEL_DEFAULT_MAXITER);
}

#define fail(...) parse_fail("mandel", __VA_ARGS__)

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Writes the costs at path whole or not at all ('-': standard output).
 * 0, or 1 after a message. */
static int write_costs(const char *path, const uint64_t *cost, long n, long R,
                       const char *line)
{
    outfile o;
    const char *call;
    char msg[256];
    if (outfile_open(&o, path, "w") != 0) {
        fprintf(stderr, "mandel: %s\n", outfile_msg(msg, sizeof msg, path, NULL, errno));
        return 1;
    }
    fprintf(o.f, "index,%s,cost,sampled_%s,sampled_cost\n", line, line);
    for (long k = 0; k < n && !ferror(o.f); k++) {
        long r = sched_sample(k, n, R);
        fprintf(o.f, "%ld,%ld,%llu,%ld,%llu\n", k, k, (unsigned long long)cost[k],
                r, (unsigned long long)cost[r]);
    }
    if (outfile_close(&o, &call) != 0) {
        fprintf(stderr, "mandel: %s\n", outfile_msg(msg, sizeof msg, path, call, errno));
        return 1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    enum { OPT_REGION = 1000, OPT_COLUMNS };
    static const struct option opts[] = {
        {"out", required_argument, NULL, 'o'},
        {"costs", required_argument, NULL, 'c'},
        {"sample", required_argument, NULL, 'R'},
        {"size", required_argument, NULL, 'S'},
        {"width", required_argument, NULL, 'W'},
        {"height", required_argument, NULL, 'H'},
        {"maxiter", required_argument, NULL, 'm'},
        {"region", required_argument, NULL, OPT_REGION},
        {"columns", no_argument, NULL, OPT_COLUMNS},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    mandel_params p;
    mandel_defaults(&p);
    const char *out = NULL, *costs = NULL;
    long R = 4, maxiter = p.maxiter;
    int quiet = 0, c;
    double region[4];
    closeout_init("mandel");

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:c:R:S:W:H:m:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case 'c': costs = optarg; break;
        case 'R':
            if (parse_long_in(optarg, 1, 1000000, &R) != 0)
                return fail("--sample '%s' must be an integer in [1, 1000000]", quote(optarg));
            break;
        case 'S':
            if (parse_int_in(optarg, 1, INT_MAX, &p.width) != 0)
                return fail("--size '%s' must be an integer in [1, %d]", quote(optarg), INT_MAX);
            p.height = p.width;
            break;
        case 'W':
            if (parse_int_in(optarg, 1, INT_MAX, &p.width) != 0)
                return fail("--width '%s' must be an integer in [1, %d]", quote(optarg), INT_MAX);
            break;
        case 'H':
            if (parse_int_in(optarg, 1, INT_MAX, &p.height) != 0)
                return fail("--height '%s' must be an integer in [1, %d]", quote(optarg), INT_MAX);
            break;
        case 'm':
            if (parse_long_in(optarg, 1, UINT32_MAX, &maxiter) != 0)
                return fail("--maxiter '%s' must be an integer in [1, %u]",
                            quote(optarg), UINT32_MAX);
            p.maxiter = (uint32_t)maxiter;
            break;
        case OPT_REGION:
            if (parse_double_list(optarg, region, 4) != 4)
                return fail("--region '%s' must be four numbers X0,Y0,X1,Y1",
                            quote(optarg));
            p.xmin = region[0]; p.ymin = region[1];
            p.xmax = region[2]; p.ymax = region[3];
            break;
        case OPT_COLUMNS: p.columns = 1; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default: return parse_getopt_error("mandel", c, argv);
        }
    }
    if (optind < argc)
        return fail("unexpected argument '%s' (try --help)", quote(argv[optind]));
    char msg[256];
    if (mandel_check(&p, msg, sizeof msg) != 0)
        return fail("%s", msg);
    if (closeout_output("--out", out, 0) || closeout_output("--costs", costs, 0))
        return 1;

    size_t npix = (size_t)p.width * (size_t)p.height;
    long lines = mandel_lines(&p);
    const char *line_name = p.columns ? "column" : "row";
    uint32_t *img = malloc(npix * sizeof *img);
    uint64_t *cost = malloc((size_t)lines * sizeof *cost);
    uint32_t *line = malloc((size_t)mandel_line_len(&p) * sizeof *line);
    if (!img || !cost || !line) {
        fail("out of memory for a %dx%d image", p.width, p.height);
        return 1;
    }

    int progress = !quiet && isatty(STDERR_FILENO);
    double t0 = now();
    uint64_t total = 0;
    for (long k = 0; k < lines; k++) {
        cost[k] = mandel_line(&p, k, line);
        mandel_put_line(&p, k, line, img);
        total += cost[k];
        if (progress && (k % 50 == 0 || k == lines - 1))
            fprintf(stderr, "\rmandel: %s %ld/%ld", line_name, k + 1, lines);
    }
    double secs = now() - t0;
    if (progress)
        fprintf(stderr, "\n");

    int rc = 0;
    if (out && mandel_write_pgm(out, &p, img, msg, sizeof msg) != 0) {
        fail("%s", msg);
        rc = 1;
    }
    if (costs && write_costs(costs, cost, lines, R, line_name) != 0)
        rc = 1;
    if (!quiet)
        fprintf(costs && costs[0] == '-' && !costs[1] ? stderr : stdout,
                "size %dx%d maxiter %u loop %s iterations %llu checksum %016llx "
                "seconds %.3f iter/s %.4g\n", p.width, p.height, p.maxiter,
                mandel_loop_name(&p), (unsigned long long)total,
               (unsigned long long)mandel_checksum(img, npix), secs,
               secs > 0 ? total / secs : 0.0);
    free(img);
    free(cost);
    free(line);
    return rc;
}
