/* pooltrace.c: bin/pooltrace, a trace of task costs replayed through a pool
 * strategy (sched/pool/pool.h) on the simulator (sim/pool.h): per iteration the
 * workers held and requested, the efficiency, the time and the decision
 * with the numbers behind it, then the run's totals (Heymann et al.
 * Table 4.1's columns). */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sched/util/closeout.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"
#include "sim/pool.h"
#include "sim/sim.h"

#define fail(...) parse_fail("pooltrace", __VA_ARGS__)

static void usage(FILE *f)
{
    fprintf(f,
"usage: pooltrace TRACE [options]\n"
"\n"
"Replays a thinning trace (one line per iteration, a cost per part; '-' for\n"
"no task) through a worker-pool strategy on the simulator, and prints per\n"
"iteration: tasks, workers held at its end and requested (Nworkers), whether\n"
"the count was stable, its time, efficiency, largest and smallest task, asp =\n"
"sum / largest, the rule that decided and Nworkers from then on; then the\n"
"totals: time, average workers, efficiency, time / efficiency (docs/pool.md).\n"
"\n"
"options:\n"
"  -s, --strategy NAME  adjust (Heymann et al. Figure 3.1, the default) or static\n"
"                       (Ntasks workers, one released per converged task)\n"
"      --asp READING    adjust: Nworkers = floor1 (floor(asp) + 1, the default)\n"
"                       or ceil (ceil(asp)) when fewer workers are held than asked\n"
"  -d, --delay S        allocation delay: requested workers arrive one at a time,\n"
"                       S seconds each (default %g)\n"
"      --together       requested workers are served together (a batch scheduler\n"
"                       such as Slurm's): each arrives S seconds after it was asked\n"
"                       for, whatever else is pending\n"
"  -b, --border S       the master's update between iterations, seconds (default 0)\n"
"      --scale S        seconds per trace unit (default: 1 for a trace in seconds;\n"
"                       in pixels, the scale that makes the first iteration's\n"
"                       largest 8-part task take %g s, the paper's scale)\n"
"      --csv            CSV: 'iteration,...' lines, then a 'total,...' line, each\n"
"                       kind after its '#' header line\n"
"  -h, --help           this help\n"
"exit status: 0; 1 the run cannot end (a time past 1e9 s), out of memory, or\n"
"standard output could not be written (said); 2 bad input (the message names\n"
"the value, or the file, line and field)\n",
            SIM_POOL_DELAY, SIM_TRACE_LARGEST_8);
}

/* A seconds option: a number in 0..1e9, or exit 2 naming it. */
static int seconds(const char *opt, const char *s, double *out)
{
    if (parse_double(s, out) != 0 || !(*out >= 0 && *out <= SIM_TIME_MAX))
        return fail("%s '%s' must be a number of seconds in 0..%g", opt, quote(s),
                    SIM_TIME_MAX);
    return 0;
}

static void print_text(const sim_pool_config *c, const sim_trace *tr,
                       const sim_pool_result *r, const char *path, const char *scale_note)
{
    printf("# %s: image %s, %ld x %ld, %d parts, %ld iterations, unit %s, scale %g s per "
           "%s%s\n", path, tr->image, tr->width, tr->height, tr->parts, tr->n,
           tr->unit == SIM_UNIT_PIXELS ? "pixels" : "seconds", c->scale,
           tr->unit == SIM_UNIT_PIXELS ? "pixel" : "second", scale_note);
    printf("# strategy %s", c->type->name);
    if (c->type == &pool_adjust)
        printf(" (asp %s)", c->params.asp == POOL_ASP_CEIL ? "ceil" : "floor1");
    printf(", allocation delay %g s%s, border update %g s\n", c->delay,
           c->together ? " (requests served together)" : "", c->border);
    printf("%6s %5s %4s %4s %6s %10s %6s %9s %9s %7s %-12s %4s\n", "iter", "tasks", "held",
           "req", "stable", "time", "eff", "max", "min", "asp", "rule", "next");
    for (long k = 0; k < r->n; k++) {
        const sim_pool_iter *it = &r->it[k];
        const pool_decision *d = &it->d;
        char rule[24];
        snprintf(rule, sizeof rule, "%s%s", pool_rule_name(d->rule), d->capped ? "/cap" : "");
        printf("%6ld %5d %4d %4d %6s %10.2f %6.3f %9.2f %9.2f %7.2f %-12s %4d\n",
               it->number, it->tasks, d->current, d->before, d->stable ? "yes" : "no",
               d->exec_time, d->efficiency, d->max, d->min, d->asp, rule, d->nworkers);
    }
    const pool_totals *t = &r->totals;
    printf("total: time %.2f s, workers %.2f on average, efficiency %.3f, "
           "time/efficiency %.2f\n", t->time, t->workers, t->efficiency, t->ratio);
    printf("workers: at most %d held (first in iteration %ld), %ld requested, %ld "
           "cancelled before they came, %ld released\n", r->peak, r->peak_number,
           r->requested, r->cancelled, r->released);
}

static void print_csv(const sim_pool_config *c, const sim_trace *tr,
                      const sim_pool_result *r)
{
    poolrec_run run = {.type = c->type, .params = c->params, .delay = c->delay,
                       .border = c->border, .scale = c->scale, .parts = tr->parts,
                       .iterations = tr->n};
    poolrec_counts n = {r->peak, r->peak_number, r->requested, r->cancelled,
                        r->released};
    poolrec_write_run(stdout, &run);
    poolrec_write_iterations(stdout, r->it, r->n);
    poolrec_write_total(stdout, &r->totals, &n);
}

int main(int argc, char **argv)
{
    enum { OPT_ASP = 1000, OPT_SCALE, OPT_CSV, OPT_TOGETHER };
    static const struct option opts[] = {
        {"strategy", required_argument, NULL, 's'},
        {"asp", required_argument, NULL, OPT_ASP},
        {"delay", required_argument, NULL, 'd'},
        {"together", no_argument, NULL, OPT_TOGETHER},
        {"border", required_argument, NULL, 'b'},
        {"scale", required_argument, NULL, OPT_SCALE},
        {"csv", no_argument, NULL, OPT_CSV},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    sim_pool_config cfg;
    sim_pool_config_init(&cfg);
    const char *strategy = "adjust", *asp = NULL, *scale_text = NULL;
    int csv = 0, c;
    closeout_init("pooltrace");
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":s:d:b:h", opts, NULL)) != -1) {
        switch (c) {
        case 's': strategy = optarg; break;
        case OPT_ASP: asp = optarg; break;
        case 'd':
            if (seconds("--delay", optarg, &cfg.delay) != 0)
                return 2;
            break;
        case 'b':
            if (seconds("--border", optarg, &cfg.border) != 0)
                return 2;
            break;
        case OPT_SCALE: scale_text = optarg; break;
        case OPT_CSV: csv = 1; break;
        case OPT_TOGETHER: cfg.together = 1; break;
        case 'h': usage(stdout); return 0;
        default: return parse_getopt_error("pooltrace", c, argv);
        }
    }
    if (optind >= argc)
        return fail("a trace file is needed (try --help)");
    if (optind + 1 < argc)
        return fail("unexpected argument '%s' (try --help)", quote(argv[optind + 1]));
    sched_err err;
    if (!(cfg.type = pool_type_find(strategy, &err)))
        return fail("--strategy: %s", err.msg);
    if (asp) {
        if (cfg.type != &pool_adjust)
            return fail("--asp applies to --strategy adjust only, not %s", cfg.type->name);
        if (pool_params_set(&cfg.params, "asp", asp, &err) != 0)
            return fail("--%s", err.msg);
    }
    if (scale_text && (parse_double(scale_text, &cfg.scale) != 0 || !(cfg.scale > 0)))
        return fail("--scale '%s' must be a number > 0 (seconds per trace unit)",
                    quote(scale_text));

    const char *path = argv[optind];
    char msg[1024];
    sim_trace tr;
    if (sim_trace_read(&tr, path, msg, sizeof msg) != 0) {
        sim_trace_free(&tr);
        return fail("%s", msg);
    }
    char note[96] = "";
    if (!scale_text) {
        cfg.scale = sim_trace_scale(&tr);
        if (isnan(cfg.scale)) {
            sim_trace_free(&tr);
            return fail("%s: the first iteration's tasks cost nothing, so no scale "
                        "follows from them: give --scale S (seconds per pixel)", quote(path));
        }
        if (tr.unit == SIM_UNIT_PIXELS)
            snprintf(note, sizeof note, " (the first iteration's largest 8-part task: "
                     "%g s)", SIM_TRACE_LARGEST_8);
    }
    if (sim_pool_check(&cfg, &tr, msg, sizeof msg) != 0) {
        sim_trace_free(&tr);
        return fail("%s: %s", quote(path), msg);
    }
    sim_pool_result r;
    if (sim_pool_run(&cfg, &tr, &r, msg, sizeof msg) != 0) {
        sim_trace_free(&tr);
        fprintf(stderr, "pooltrace: %s: %s\n", quote(path), msg);
        return 1;
    }
    if (csv)
        print_csv(&cfg, &tr, &r);
    else
        print_text(&cfg, &tr, &r, path, note);
    sim_pool_result_free(&r);
    sim_trace_free(&tr);
    return 0;
}
