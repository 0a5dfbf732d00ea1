/* main.c: bin/heat, the sequential reference of the heat-conduction
 * application: the 2-D heat equation on a plate (heat/heat.h), run whole or
 * by row strips re-cut at random, with the field's picture, bytes and
 * checksum. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>

#include "heat/heat.h"
#include "sched/util/closeout.h"
#include "sched/util/outfile.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"
#include "sched/util/progress.h"

#define fail(...) parse_fail("heat", __VA_ARGS__)

/* The most cell updates (cells x steps) a run may ask for: 10^17, some four
 * years at the 8 x 10^8 a second of one core here (make bench's kernel);
 * more is refused before the run, as work that would not end in a
 * lifetime. Runs below it show their progress on a terminal. */
#define MAX_UPDATES 1e17

static void usage(FILE *f)
{
    fprintf(f,
"usage: heat --nx N --ny N --steps K [--r R] [--strips P [--rebalance-every S\n"
"            [--seed X]]] [-o FIELD.pgm] [--raw FILE] [--checksum]\n"
"\n"
"Runs the 2-D heat equation on a plate of N x N cells by explicit finite\n"
"differences (FTCS): each step, every cell becomes\n"
"    u + R ((u_N + u_S) + (u_E + u_W) - 4 u),   R = alpha dt / h^2.\n"
"The cells just outside the plate are held at fixed values: the top edge at\n"
"%g, the three others at %g; the plate starts at 0. Prints the field's least,\n"
"largest and mean values (docs/heat.md).\n"
"\n"
"With --strips P the same steps run on P strips of rows, each updated from\n"
"its own rows and copies of its neighbours' edge rows, as P nodes would; with\n"
"--rebalance-every S the strips are re-cut at random every S steps, the rows\n"
"moving between neighbours. The field is bit for bit the sequential one\n"
"(compare the --checksum lines).\n"
"\n"
"options:\n"
"      --nx N               cells a row (1..%d)\n"
"      --ny N               rows (1..%d; nx ny at most %ld cells)\n"
"      --steps K            time steps (>= 0)\n"
"      --r R                alpha dt / h^2, in (0, 0.25] (the scheme is stable only\n"
"                           for R <= 1/4); default 0.2\n"
"      --strips P           run by P strips of rows (1..%d, at most ny), cut as\n"
"                           evenly as can be\n"
"      --rebalance-every S  with --strips: re-cut the strips at random every S\n"
"                           steps (S >= 1; each strip keeps a row at least)\n"
"      --seed X             the re-cuts' random seed (>= 0; default 1; GSL's\n"
"                           mt19937)\n"
"  -o, --out FILE           write the field as an 8-bit PGM picture, 0 black to\n"
"                           the field's largest value white ('-' = stdout)\n"
"      --raw FILE           write the field's cells, row by row, as 8-byte\n"
"                           little-endian IEEE doubles, no header ('-' = stdout)\n"
"      --checksum           print 'checksum' and the FNV-1a 64 of those bytes\n"
"  -q, --quiet              no progress (shown on a terminal only, on stderr)\n"
"  -h, --help               this help\n"
"At most 1e17 cell updates (nx ny steps: years of computing), refused before\n"
"the run. Ctrl-C stops a run and writes nothing (exit status 130).\n"
"exit status: 0 done; 1 out of memory, or an output that cannot be written,\n"
"standard output included (said; no part of a file is left); 2 a bad option or\n"
"value\n",
            HEAT_TOP, HEAT_OTHERS, HEAT_MAX_SIDE, HEAT_MAX_SIDE, HEAT_MAX_CELLS,
            HEAT_MAX_STRIPS);
}

/* P random strip counts >= 1 summing to ny: P - 1 distinct cuts among the
 * rows 1 .. ny-1, all subsets equally likely (gsl_ran_choose keeps them in
 * order). rows holds ny ints. */
static void random_counts(gsl_rng *rng, int ny, int P, int *rows, int *count)
{
    static int cut[HEAT_MAX_STRIPS];
    for (int i = 0; i < ny - 1; i++)
        rows[i] = i + 1;
    if (P > 1)
        gsl_ran_choose(rng, cut, (size_t)(P - 1), rows, (size_t)(ny - 1), sizeof *cut);
    for (int i = 0, prev = 0; i < P; i++) {
        int end = i < P - 1 ? cut[i] : ny;
        count[i] = end - prev;
        prev = end;
    }
}

int main(int argc, char **argv)
{
    enum { OPT_NX = 1000, OPT_NY, OPT_STEPS, OPT_R, OPT_STRIPS, OPT_EVERY, OPT_SEED,
           OPT_RAW, OPT_CHECKSUM };
    static const struct option opts[] = {
        {"nx", required_argument, NULL, OPT_NX},
        {"ny", required_argument, NULL, OPT_NY},
        {"steps", required_argument, NULL, OPT_STEPS},
        {"r", required_argument, NULL, OPT_R},
        {"strips", required_argument, NULL, OPT_STRIPS},
        {"rebalance-every", required_argument, NULL, OPT_EVERY},
        {"seed", required_argument, NULL, OPT_SEED},
        {"out", required_argument, NULL, 'o'},
        {"raw", required_argument, NULL, OPT_RAW},
        {"checksum", no_argument, NULL, OPT_CHECKSUM},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    int nx = 0, ny = 0, strips = 0, checksum = 0, quiet = 0, c;
    long steps = -1, every = 0, seed = -1;
    double r = 0.2;
    const char *r_text = "0.2", *out = NULL, *raw = NULL;
    closeout_init("heat");
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":o:qh", opts, NULL)) != -1) {
        switch (c) {
        case OPT_NX:
            if (parse_int_in(optarg, 1, HEAT_MAX_SIDE, &nx) != 0)
                return fail("--nx '%s' must be an integer in [1, %d]", quote(optarg),
                            HEAT_MAX_SIDE);
            break;
        case OPT_NY:
            if (parse_int_in(optarg, 1, HEAT_MAX_SIDE, &ny) != 0)
                return fail("--ny '%s' must be an integer in [1, %d]", quote(optarg),
                            HEAT_MAX_SIDE);
            break;
        case OPT_STEPS:
            if (parse_long_in(optarg, 0, LONG_MAX, &steps) != 0)
                return fail("--steps '%s' must be an integer >= 0", quote(optarg));
            break;
        case OPT_R:
            if (parse_double(optarg, &r) != 0)
                return fail("--r '%s' is not a number", quote(optarg));
            r_text = optarg;
            break;
        case OPT_STRIPS:
            if (parse_int_in(optarg, 1, HEAT_MAX_STRIPS, &strips) != 0)
                return fail("--strips '%s' must be an integer in [1, %d]", quote(optarg),
                            HEAT_MAX_STRIPS);
            break;
        case OPT_EVERY:
            if (parse_long_in(optarg, 1, LONG_MAX, &every) != 0)
                return fail("--rebalance-every '%s' must be an integer >= 1 (steps)",
                            quote(optarg));
            break;
        case OPT_SEED:
            if (parse_long_in(optarg, 0, LONG_MAX, &seed) != 0)
                return fail("--seed '%s' must be an integer >= 0", quote(optarg));
            break;
        case 'o': out = optarg; break;
        case OPT_RAW: raw = optarg; break;
        case OPT_CHECKSUM: checksum = 1; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default: return parse_getopt_error("heat", c, argv);
        }
    }
    if (optind < argc)
        return fail("unexpected argument '%s' (try --help)", quote(argv[optind]));
    if (!nx || !ny || steps < 0)
        return fail("--nx, --ny and --steps are required (try --help)");
    sched_err err;
    heat_plate p;
    if (heat_plate_init(&p, nx, ny, r, &err) != SCHED_OK) {
        if (strncmp(err.msg, "r=", 2) == 0)
            return fail("--r '%s': %s", quote(r_text), err.msg);
        return fail("%s", err.msg);
    }
    if (strips > ny)
        return fail("--strips %d is more than the %d rows (each strip holds a row "
                    "at least)", strips, ny);
    if (every && !strips)
        return fail("--rebalance-every needs --strips P (it re-cuts the strips)");
    if (seed >= 0 && !every)
        return fail("--seed needs --rebalance-every S (it seeds the re-cuts)");
    if (out && raw && strcmp(out, "-") == 0 && strcmp(raw, "-") == 0)
        return fail("-o and --raw cannot both write standard output");
    if (closeout_output("--out", out, 0) || closeout_output("--raw", raw, 0))
        return 1;                                       /* before the work */
    if ((double)nx * ny * (double)steps > MAX_UPDATES)
        return fail("--steps %ld on %d x %d cells: more than the %.0e cell updates "
                    "(nx ny steps) a run may make, years of computing", steps, nx, ny,
                    MAX_UPDATES);
    progress_interrupt("heat", "nothing written");
    progress pr;
    progress_start(&pr, "heat", !quiet);
    /* Steps in batches of some 2^25 cell updates (a tenth of a second),
     * each the same arithmetic as one call: the progress between them. */
    long batch = (1L << 25) / ((long)nx * ny);
    if (batch < 1)
        batch = 1;

    double *u = heat_field_new(&p, &err);
    if (!u) {
        fprintf(stderr, "heat: %s\n", err.msg);
        return 1;
    }
    long recuts = 0, transfers = 0, rounds = 0, moved = 0;
    int rc = SCHED_OK;
    if (!strips) {
        for (long done = 0; rc == SCHED_OK && done < steps;) {
            long k = steps - done < batch ? steps - done : batch;
            rc = heat_run(&p, u, k, &err);
            done += k;
            if (progress_due(&pr))
                progress_show(&pr, "step %ld of %ld (%.1f%%)", done, steps,
                              100.0 * (double)done / (double)steps);
        }
    } else {
        static int count[HEAT_MAX_STRIPS];
        int *rows = malloc((size_t)ny * sizeof *rows);
        gsl_rng *rng = every ? gsl_rng_alloc(gsl_rng_mt19937) : NULL;
        heat_strips *s = NULL;
        if (!rows || (every && !rng)) {
            rc = SCHED_ENOMEM;
            snprintf(err.msg, sizeof err.msg, "out of memory");
        }
        if (rc == SCHED_OK)
            rc = strips_even(ny, strips, count, &err);
        if (rc == SCHED_OK && !(s = heat_strips_new(&p, u, strips, count, &err)))
            rc = err.code;
        if (rng)
            gsl_rng_set(rng, (unsigned long)(seed >= 0 ? seed : 1));
        for (long done = 0; rc == SCHED_OK && done < steps;) {
            long k = every && steps - done > every ? every : steps - done;
            for (long left = k; left > 0;) {
                long b = left < batch ? left : batch;
                heat_strips_step(s, b);
                left -= b;
                if (progress_due(&pr))
                    progress_show(&pr, "step %ld of %ld (%.1f%%)", done + k - left, steps,
                                  100.0 * (double)(done + k - left) / (double)steps);
            }
            done += k;
            if (every && done < steps) {
                heat_moved mv;
                random_counts(rng, ny, strips, rows, count);
                rc = heat_strips_move(s, count, &mv, &err);
                recuts++;
                transfers += mv.transfers;
                rounds += mv.rounds;
                moved += mv.rows;
            }
        }
        if (rc == SCHED_OK)
            heat_strips_gather(s, u);
        heat_strips_free(s);
        gsl_rng_free(rng);
        free(rows);
    }
    progress_end(&pr);
    if (rc != SCHED_OK) {
        free(u);
        fprintf(stderr, "heat: %s\n", err.msg);
        return rc == SCHED_ENOMEM ? 1 : 2;
    }

    int status = 0;
    char msg[512];
    if (out && heat_write_pgm(&p, u, out, msg, sizeof msg) != 0) {
        fail("%s", msg);
        status = 1;
    }
    if (raw && heat_write_raw(&p, u, raw, msg, sizeof msg) != 0) {
        fail("%s", msg);
        status = 1;
    }
    size_t n = (size_t)nx * ny;
    double lo = u[0], hi = u[0], sum = 0;
    for (size_t i = 0; i < n; i++) {
        lo = u[i] < lo ? u[i] : lo;
        hi = u[i] > hi ? u[i] : hi;
        sum += u[i];
    }
    FILE *f = (out && strcmp(out, "-") == 0) || (raw && strcmp(raw, "-") == 0)
            ? stderr : stdout;
    fprintf(f, "plate %d x %d, r %g, %ld steps", nx, ny, r, steps);
    if (strips)
        fprintf(f, ", %d strips", strips);
    if (every)
        fprintf(f, ", %ld re-cuts (%ld rows moved in %ld transfers, %ld rounds)", recuts,
                moved, transfers, rounds);
    fprintf(f, ": min %.6g, max %.6g, mean %.6g\n", lo, hi, sum / (double)n);
    if (checksum)
        fprintf(f, "checksum %016llx\n", (unsigned long long)heat_checksum(&p, u));
    free(u);
    return status;
}
