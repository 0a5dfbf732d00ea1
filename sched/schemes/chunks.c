/* chunks.c: bin/chunks, print the chunk sequence of a scheme as CSV. */
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/loop/policy.h"
#include "sched/sched.h"
#include "sched/util/closeout.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"
#include "sched/util/progress.h"

#define MAX_WORKERS 4096
#define MAX_PARAM_OPTS 32
/* The most chunks a run may make: 10^12, some two hours of counting at the
 * 1.6 x 10^8 chunks a second measured here, 20 TB of lines; a scheme that
 * must make more (pss over more than 10^12 iterations: 9 x 10^18 would
 * take 1,800 years) is refused before the first chunk. */
#define MAX_CHUNKS 1e12

static void usage(FILE *f)
{
    fprintf(f,
"usage: chunks --scheme NAME -I ITERATIONS -P WORKERS [options]\n"
"       chunks --scheme dtss -I ITERATIONS --acp A1,A2,... [options]\n"
"\n"
"Prints the chunk sequence of a loop self-scheduling scheme as CSV:\n"
"  step,start,size                  (every scheme)\n"
"  step,start,size,worker,acp       (dtss: requests served by the policy of\n"
"                                    the PVM master, in ACPSA order, i.e. by\n"
"                                    decreasing A_i, round after round)\n"
"Chunks are ceil(C(t)), at least the minimum, at most what remains.\n"
"\n"
"options:\n"
"  -s, --scheme NAME   the scheme (default dtss)\n"
"  -I, --iterations N  total loop iterations, >= 0\n"
"  -P, --workers N     number of workers, >= 1 (dtss: taken from --acp)\n"
"      --acp LIST      dtss: the workers' available computing powers A_i\n"
"                      (default: P workers of A_i = 1, which is TSS)\n"
"      --min N         minimum chunk size (default 1)\n"
"      --count         print only the number of chunks\n"
"  -h, --help          this help\n"
"A scheme whose chunks never grow and that does not re-plan makes at least\n"
"I / its first chunk: more than 1e12 is refused before the first (pss over\n"
"more than 1e12 iterations). On a terminal a long run shows its progress on\n"
"stderr; Ctrl-C stops it after a whole line (exit status 130).\n"
"exit status: 0 done; 1 the scheme failed on the way, or standard output could not\n"
"be written (said); 2 a bad option or value\n"
"\nschemes and their parameters (--NAME VALUE):\n");
    for (int i = 0; sched_types[i]; i++) {
        const sched_type *T = sched_types[i];
        fprintf(f, "  %-5s %s\n", T->name, T->summary);
        for (int j = 0; T->params[j].name; j++)
            fprintf(f, "          --%-6s %s\n", T->params[j].name,
                    T->params[j].help);
    }
}

#define fail(...) parse_fail("chunks", __VA_ARGS__)

/* The progress line (on a terminal): every 2^20 chunks, a look at the
 * clock and at Ctrl-C. */
static progress pr;

static void tick(long step, long done, long I)
{
    if ((step & 0xfffff) != 0)
        return;
    if (progress_stopping())
        progress_stop();                /* Ctrl-C, after a whole line */
    if (progress_due(&pr))
        progress_show(&pr, "%ld chunks, %ld of %ld iterations (%.1f%%)", step, done, I,
                      100.0 * (double)done / (double)I);
}

/* DTSS with --acp: the policy itself (sched/loop/policy.c) serves the requests,
 * each worker asking again with the same A_i as soon as it is served, so
 * the requests come round after round in ACPSA order (Sec. 5.3). Prints
 * the chunks; returns the number of steps, or -1 after a message. */
static long dtss_steps(const sched_config *cfg, const double *acp, int P, int quiet)
{
    sched_err err;
    policy *p = policy_new(cfg, P, &err);
    if (!p) {
        fprintf(stderr, "chunks: %s\n", err.msg);
        return -1;
    }
    for (int i = 0; i < P; i++)
        policy_request(p, i, acp[i], NULL);
    if (policy_start(p, &err) != SCHED_OK) {
        fprintf(stderr, "chunks: %s\n", err.msg);
        policy_free(p);
        return -1;
    }
    policy_chunk c;
    long step = 0;
    int got;
    while ((got = policy_assign(p, &c, &err)) == 1) {
        if (!quiet) {
            printf("%ld,%ld,%ld,%d,%g\n", step, c.start, c.size, c.worker + 1, c.acp);
            closeout_check();
        }
        step++;
        tick(step, c.start + c.size, cfg->I);
        policy_done(p, c.worker, c.id, NULL);
        policy_request(p, c.worker, acp[c.worker], NULL);
    }
    policy_free(p);
    if (got < 0) {
        fprintf(stderr, "chunks: %s\n", err.msg);
        return -1;
    }
    return step;
}

int main(int argc, char **argv)
{
    enum { OPT_ACP = 1000, OPT_MIN, OPT_COUNT, OPT_PARAM };
    struct option opts[8 + MAX_PARAM_OPTS] = {
        {"scheme", required_argument, NULL, 's'},
        {"iterations", required_argument, NULL, 'I'},
        {"workers", required_argument, NULL, 'P'},
        {"acp", required_argument, NULL, OPT_ACP},
        {"min", required_argument, NULL, OPT_MIN},
        {"count", no_argument, NULL, OPT_COUNT},
        {"help", no_argument, NULL, 'h'},
    };
    /* Every parameter name of every scheme is a long option; the values are
     * applied once the scheme is known. */
    int nopts = 7;
    parse_scheme_options(opts, &nopts, 8 + MAX_PARAM_OPTS, OPT_PARAM);

    const char *scheme = "dtss", *acp_text = NULL;
    const char *I_text = NULL, *P_text = NULL, *min_text = NULL;
    const char *pname[MAX_PARAM_OPTS], *pvalue[MAX_PARAM_OPTS];
    int nparam = 0, count_only = 0, c, longidx;
    closeout_init("chunks");
    long start_probe;

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":s:I:P:h", opts, &longidx)) != -1) {
        switch (c) {
        case 's': scheme = optarg; break;
        case 'I': I_text = optarg; break;
        case 'P': P_text = optarg; break;
        case OPT_ACP: acp_text = optarg; break;
        case OPT_MIN: min_text = optarg; break;
        case OPT_COUNT: count_only = 1; break;
        case OPT_PARAM:
            pname[nparam] = opts[longidx].name;
            pvalue[nparam++] = optarg;
            break;
        case 'h': usage(stdout); return 0;
        default: return parse_getopt_error("chunks", c, argv);
        }
    }
    if (optind < argc)
        return fail("unexpected argument '%s' (try --help)", quote(argv[optind]));

    sched_err err;
    const sched_type *T = sched_type_find(scheme, &err);
    if (!T)
        return fail("%s", err.msg);

    static double acp[MAX_WORKERS];
    int P = 0;
    long I = 0;
    if (!I_text)
        return fail("-I ITERATIONS is required (try --help)");
    if (parse_long(I_text, &I) != 0)
        return fail("-I '%s' is not an integer", quote(I_text));
    if (acp_text) {
        if (T != &sched_dtss)
            return fail("--acp applies to dtss only, not %s", T->name);
        P = parse_double_list(acp_text, acp, MAX_WORKERS);
        if (P < 0)
            return fail("--acp '%s' is not a list of numbers", quote(acp_text));
        for (int i = 0; i < P; i++)
            if (!(acp[i] > 0))
                return fail("--acp: A_%d = %g must be > 0 (a worker with "
                            "A_i = 0 does not request work)", i + 1, acp[i]);
        if (P_text) {
            int P2;
            if (parse_int(P_text, &P2) != 0 || P2 != P)
                return fail("-P '%s' does not match the %d values of --acp",
                            quote(P_text), P);
        }
    } else {
        if (!P_text)
            return fail("-P WORKERS is required (try --help)");
        if (parse_int(P_text, &P) != 0)
            return fail("-P '%s' is not an integer", quote(P_text));
        if (P > MAX_WORKERS)
            return fail("-P %d is more than %d workers", P, MAX_WORKERS);
        for (int i = 0; i < P; i++)
            acp[i] = 1.0;
    }

    sched_config cfg;
    sched_config_init(&cfg, T, I, P);
    if (min_text && parse_long(min_text, &cfg.min_chunk) != 0)
        return fail("--min '%s' is not an integer", quote(min_text));
    double A = 0;
    for (int i = 0; i < P; i++)
        A += acp[i];
    cfg.A = A;
    for (int i = 0; i < nparam; i++)
        if (sched_config_set(&cfg, pname[i], pvalue[i], &err) != SCHED_OK)
            return fail("%s", err.msg);

    sched *s = sched_new(&cfg, &err);
    if (!s)
        return fail("%s", err.msg);

    /* A scheme whose chunks never grow (and no re-plan): its first chunk
     * is its largest, so it makes I / first chunks at least. */
    if (T->monotone && !T->replan && !sched_type_fed(T) && I > 0) {
        sched *probe = sched_new(&cfg, &err);
        long first = probe ? sched_next(probe, 1.0, &start_probe) : 0;
        sched_free(probe);
        double least = first > 0 ? ceil((double)I / (double)first) : 0;
        if (least > MAX_CHUNKS) {
            sched_free(s);
            return fail("%s over %ld iterations makes %.3g chunks at least (its largest "
                        "is its first, %ld), more than the %.0e a run may make (hours "
                        "of counting, terabytes of lines)", T->name, I, least, first,
                        MAX_CHUNKS);
        }
    }
    progress_start(&pr, "chunks", 1);
    if (count_only)
        progress_interrupt("chunks", "no count printed");
    else
        progress_interrupt_deferred("chunks", "the lines printed are whole chunks, the "
                                    "rest was not computed");

    int dtss = T == &sched_dtss;
    if (!count_only)
        printf(dtss ? "step,start,size,worker,acp\n" : "step,start,size\n");
    long start, size = 0, step = 0;
    if (dtss) {
        step = dtss_steps(&cfg, acp, P, count_only);
        progress_end(&pr);
        if (step < 0) {
            sched_free(s);
            return 1;
        }
    }
    while (!dtss && (size = sched_next(s, 1.0, &start)) > 0) {
        if (!count_only) {
            printf("%ld,%ld,%ld\n", step, start, size);
            closeout_check();
        }
        step++;
        tick(step, start + size, I);
    }
    progress_end(&pr);
    if (size < 0) {
        fprintf(stderr, "chunks: %s\n", sched_error(s));
        sched_free(s);
        return 1;
    }
    if (count_only)
        printf("%ld\n", step);
    sched_free(s);
    return 0;
}
