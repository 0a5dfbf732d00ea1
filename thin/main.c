/* main.c: bin/thin, Guo & Hall thinning of a PBM image, sequentially or by
 * the master-worker parts (run here, one after another), with their trace. */
#include <errno.h>
#include <getopt.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sched/util/closeout.h"
#include "sched/util/outfile.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"
#include "thin/thin.h"

#define fail(...) parse_fail("thin", __VA_ARGS__)

static void usage(FILE *f)
{
    fprintf(f,
"usage: thin IN.pbm [-o OUT.pbm] [options]\n"
"\n"
"Thins a binary image with Guo & Hall's two-subiteration algorithm (CACM 1989,\n"
"A1) until an iteration deletes nothing, and prints the iterations and the\n"
"pixels left. IN.pbm: plain (P1) or raw (P4) PBM, '-' for standard input;\n"
"black (1) is the foreground.\n"
"\n"
"options:\n"
"  -o, --out FILE        write the skeleton as a raw PBM (P4; '-' = stdout)\n"
"      --plain           write it as a plain PBM (P1) instead\n"
"  -k, --iterations K    stop after at most K iterations (1..%d)\n"
"  -m, --parts M         thin by M horizontal parts (1..%d), one task per part\n"
"                        per iteration, as the master-worker run does (the\n"
"                        same skeleton; parts beyond the image's rows are empty)\n"
"      --trace FILE      with --parts: each iteration's task costs ('-' = stdout):\n"
"                        '# thin trace: image NAME, W x H, parts M, unit U', then\n"
"                        per iteration its number and M costs ('-': no task)\n"
"      --trace-unit U    pixels (default: the 1-pixels a task examines in its\n"
"                        two subiterations) or seconds (its CPU time)\n"
"  -q, --quiet           print nothing but errors\n"
"  -h, --help            this help\n"
"exit status: 0 done; 1 out of memory, or an output that cannot be written,\n"
"standard output included (said; no part of a file is left); 2 a bad option or\n"
"value, or a missing or bad PBM file\n",
            INT_MAX, THIN_MAX_PARTS);
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The image's name for the trace: the file name without folder and ".pbm". */
static void image_name(const char *path, char *out, size_t len)
{
    char tmp[4096];
    snprintf(tmp, sizeof tmp, "%s", strcmp(path, "-") == 0 ? "stdin" : path);
    snprintf(out, len, "%s", basename(tmp));
    size_t n = strlen(out);
    if (n > 4 && strcmp(out + n - 4, ".pbm") == 0)
        out[n - 4] = '\0';
}

int main(int argc, char **argv)
{
    enum { OPT_TRACE = 1000, OPT_UNIT, OPT_PLAIN };
    static const struct option opts[] = {
        {"out", required_argument, NULL, 'o'},
        {"plain", no_argument, NULL, OPT_PLAIN},
        {"iterations", required_argument, NULL, 'k'},
        {"parts", required_argument, NULL, 'm'},
        {"trace", required_argument, NULL, OPT_TRACE},
        {"trace-unit", required_argument, NULL, OPT_UNIT},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    const char *out = NULL, *trace = NULL;
    int max_iter = 0, parts = 0, unit = THIN_UNIT_PIXELS, quiet = 0, plain = 0, c;
    closeout_init("thin");

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:k:m:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case OPT_PLAIN: plain = 1; break;
        case 'k':
            if (parse_int_in(optarg, 1, INT_MAX, &max_iter) != 0)
                return fail("--iterations '%s' must be an integer in [1, %d]", quote(optarg),
                            INT_MAX);
            break;
        case 'm':
            if (parse_int_in(optarg, 1, THIN_MAX_PARTS, &parts) != 0)
                return fail("--parts '%s' must be an integer in [1, %d]", quote(optarg),
                            THIN_MAX_PARTS);
            break;
        case OPT_TRACE: trace = optarg; break;
        case OPT_UNIT:
            if (strcmp(optarg, "pixels") == 0)
                unit = THIN_UNIT_PIXELS;
            else if (strcmp(optarg, "seconds") == 0)
                unit = THIN_UNIT_SECONDS;
            else
                return fail("--trace-unit '%s' must be pixels or seconds", quote(optarg));
            break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default: return parse_getopt_error("thin", c, argv);
        }
    }
    if (optind >= argc)
        return fail("no input image (usage: thin IN.pbm -o OUT.pbm; try --help)");
    if (argc - optind > 1)
        return fail("unexpected argument '%s' (try --help)", quote(argv[optind + 1]));
    if (trace && !parts)
        return fail("--trace needs --parts M (the trace is of the parts' tasks)");
    const char *in = argv[optind];
    if (closeout_output("--out", out, 0))              /* before the work */
        return 1;

    char msg[512];
    thin_image im;
    if (thin_pbm_read(&im, in, msg, sizeof msg) != 0)
        return fail("%s", msg);
    long long before = thin_image_count(&im);

    outfile tf;
    if (trace && outfile_open(&tf, trace, "w") != 0) {
        thin_image_free(&im);
        fail("%s", outfile_msg(msg, sizeof msg, trace, NULL, errno));
        return 1;
    }
    thin_stats st;
    long long tasks = 0;
    double t0 = now();
    int rc;
    if (parts) {
        char name[256];
        image_name(in, name, sizeof name);
        rc = thin_parts_run(&im, parts, max_iter, trace ? tf.f : NULL, name, unit, &st,
                            &tasks, msg, sizeof msg);
    } else {
        rc = thin_run(&im, max_iter, &st);
        snprintf(msg, sizeof msg, "out of memory for a %d x %d image", im.width,
                 im.height);
    }
    double secs = now() - t0;
    if (trace && rc != 0)
        outfile_abort(&tf);     /* a failed run leaves no trace file */
    else if (trace) {
        const char *call;
        if (outfile_close(&tf, &call) != 0) {
            thin_image_free(&im);
            fail("%s", outfile_msg(msg, sizeof msg, trace, call, errno));
            return 1;
        }
    }
    if (rc != 0) {
        thin_image_free(&im);
        fprintf(stderr, "thin: %s\n", msg);
        return 1;
    }
    int status = 0;
    if (out && thin_pbm_write(&im, out, plain, msg, sizeof msg) != 0) {
        fail("%s", msg);
        status = 1;
    }
    if (!quiet) {
        FILE *f = (out && strcmp(out, "-") == 0) || (trace && strcmp(trace, "-") == 0)
                ? stderr : stdout;
        fprintf(f, "image %d x %d: %d iterations, %s, %lld of %lld pixels left",
                im.width, im.height, st.iterations,
                st.converged ? "converged" : "not converged", st.pixels, before);
        if (parts)
            fprintf(f, ", %d parts, %lld tasks", parts, tasks);
        fprintf(f, ", %.3f s\n", secs);
    }
    thin_image_free(&im);
    return status;
}
