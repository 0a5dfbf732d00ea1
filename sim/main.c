/* main.c: bin/sim, one simulated run of a scenario file (sim/sim.h).
 *
 * A scenario file:
 *   # a comment
 *   platform FILE              the hosts, speeds, loads, links (platform.c)
 *   workload KIND key=value... the iteration costs (workload.c)
 *   scheme NAME [key=value...] dtss, tss, ..., or tree; its parameters
 *   sample R                   pseudo-uniform sampling frequency (default 1)
 *   seed N                     for random workloads (default 1)
 *   acp real|integer           A_i = V_i / Q_i real (default) or floor
 *   result-bytes B             bytes sent back per iteration (default 0)
 *   message-bytes B            bytes of any message besides results (64)
 *   master-overhead S          master's seconds per message (default 0)
 *   dispatch S                 extra seconds per chunk handed out (0)
 *   remeasure S                integer A_i = 0: measure again after S (0.2)
 *   send-cost U                a worker's CPU to send a byte, cost units (0)
 *   wake U[,V]                 a chunk received by an idle worker: (U + V x its
 *                              host's other busy processes) cost units at its
 *                              host's speed before it runs (0,0)
 *   ahead F|rtt                request-ahead: ask while F of a chunk is left,
 *                              or (rtt) two reply waits before its end
 *                              (sched/loop/ahead.h; 0: off, the default)
 * File names are relative to the scenario file's folder.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <libgen.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "sched/loop/ahead.h"
#include "sched/records/record.h"
#include "sched/util/closeout.h"
#include "sched/util/lines.h"
#include "sched/util/outfile.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"
#include "sched/util/progress.h"
#include "sim/select.h"
#include "sim/sim.h"

#define fail(...) parse_fail("sim", __VA_ARGS__)
#define MAX_PARAM_OPTS 32

static void usage(FILE *f)
{
    fprintf(f,
"usage: sim SCENARIO [options]\n"
"       sim [SCENARIO] --costs FILE [-w WORKLOAD] [-R R] [--seed N]\n"
"\n"
"Simulates one run of a loop self-scheduling scheme on a platform of\n"
"heterogeneous, loaded hosts, with the PVM coordinator's own scheduling code,\n"
"and prints the paper's line: W1..Wn, Finish time, Imbalance (seconds).\n"
"The scenario file names the platform, the workload and the scheme\n"
"(docs/sim.md). Options override it:\n"
"  -s, --scheme NAME     dtss, tss, gss, fss, css, pss, qss, ess, rss, wf,\n"
"                        awf-b, awf-c, awf-d, awf-e, af, dtss-m, tree, or auto\n"
"                        (chosen by simulating the candidates on what was\n"
"                        measured, after a probe of small css chunks;\n"
"                        docs/performance.md)\n"
"      --candidates LIST auto's candidates, e.g. css,gss,dtss (default: every\n"
"                        scheme but tree and pss; a scenario's 'scheme auto\n"
"                        candidates=LIST')\n"
"      --NAME VALUE      a scheme parameter (e.g. --delta 4 --cn 6; see\n"
"                        bin/chunks --help)\n"
"  -p, --platform FILE   another platform file\n"
"  -w, --workload 'KIND key=value ...'  another workload\n"
"  -R, --sample R        pseudo-uniform sampling frequency\n"
"      --seed N          seed of the random workloads\n"
"      --acp-int         the paper's integer A_i\n"
"      --ahead F|rtt     request-ahead: a worker asks for its next chunk while\n"
"                        F of its chunk is left, or (rtt) about two reply\n"
"                        waits before its expected end; its results go on\n"
"                        their own (0 = off, the default; not under tree)\n"
"  -r, --record FILE     write the run record (CSV, as bin/coordinator's)\n"
"  -c, --costs FILE      simulate nothing: write the workload's cost of each\n"
"                        iteration as CSV, index,iteration,cost,\n"
"                        sampled_iteration,sampled_cost, where\n"
"                        sampled_iteration is the iteration the scheduled\n"
"                        (pseudo-uniformly sampled, -R) loop visits at that\n"
"                        index ('-' = stdout; Xu Fig. 2). The scenario file\n"
"                        may be left out when -w gives the workload\n"
"      --bound           simulate nothing: print a lower bound on any\n"
"                        schedule's finish (seconds) on the scenario's\n"
"                        platform under its costs (result-bytes, send-cost,\n"
"                        wake, dispatch: each host's first chunk's way and\n"
"                        wake, then all it can compute; docs/sim.md)\n"
"      --chunks          print the number of chunks too\n"
"      --stats           print the simulation's own cost: CPU seconds, peak\n"
"                        memory (for make bench); under auto also its\n"
"                        decisions and the CPU seconds they took\n"
"  -q, --quiet           print nothing but errors (with --record), no progress\n"
"  -h, --help            this help\n"
"Memory stays the same however long the run: without --record only the\n"
"summary is kept; with it the record goes to spool files beside FILE\n"
"(~100 bytes a chunk on that disk, removed at once: nothing is left behind).\n"
"On a terminal a long run shows its progress on stderr; Ctrl-C stops it and\n"
"writes nothing (exit status 130). Limits, refused before the run: a run\n"
"whose hosts cannot do its work within 1e9 simulated seconds, a scheme that\n"
"must make more than 1e12 chunks (pss over more than 1e12 iterations), a\n"
"record of more than 1e8 chunks (~10 GB) or more than its disk has room for\n"
"(a run that passes 1e12 chunks, or 1e8 with --record, stops: exit 1).\n"
"Exit status: 0; 1 when the run cannot end (every host failed, A_i = 0 for\n"
"good under the integer rule, a time past 1e9 s, more than 1e12 chunks), out of\n"
"memory, or an output (the record, the costs, standard output) could not be\n"
"written (said; no part of a file is left); 2 for bad input (the message names\n"
"the value, the file and line), the limits above included.\n");
}

typedef struct scenario {
    char *platform;             /* malloc'ed, read whole (NULL: none) */
    char *workload;
    char scheme[64];
    char params[MAX_PARAM_OPTS][2][64];
    int nparams;
    long sample;
    unsigned long seed;
    int acp_integer;
    double result_bytes, message_bytes, master_overhead, dispatch, remeasure, ahead;
    double send_cost, wake, wake_load;
} scenario;

/* Copies src into dst[size]; -1 when it does not fit (never cut short). */
static int copy(char *dst, size_t size, const char *src)
{
    return (size_t)snprintf(dst, size, "%s", src) < size ? 0 : -1;
}

static int read_scenario(scenario *s, const char *path, char *msg, size_t len)
{
    lines in;
    char why[320];
    if (lines_open(&in, path, why, sizeof why) != 0) {
        snprintf(msg, len, "%s", why);
        return -1;
    }
    char *line;
    while ((line = lines_next(&in))) {
        int lineno = (int)in.lineno;
        line[strcspn(line, "#")] = '\0';
        char *key = line + strspn(line, " \t");
        if (!*key)
            continue;
        char *rest = key + strcspn(key, " \t");
        if (*rest)
            *rest++ = '\0';
        rest += strspn(rest, " \t");
        size_t n = strlen(rest);
        while (n > 0 && (rest[n - 1] == ' ' || rest[n - 1] == '\t'))
            rest[--n] = '\0';
        double d;
#define NEED_NUM(field, lo, hi) do {                                               \
        if (parse_double(rest, &d) != 0 || !(d >= (lo)) || !(d <= (hi))) {    \
            snprintf(msg, len, "%s:%d: %s '%s' must be a number in %g..%g",   \
                     quote(path), lineno, key, quote(rest), (double)(lo),      \
                     (double)(hi));                                            \
            goto bad; }                                                        \
        s->field = d; } while (0)
#define TOO_LONG(what, size) do {                                              \
        snprintf(msg, len, "%s:%d: the %s is longer than %zu characters", quote(path), \
                 lineno, what, (size_t)(size) - 1);                            \
        goto bad; } while (0)
        if (strcmp(key, "platform") == 0 || strcmp(key, "workload") == 0) {
            char **to = key[0] == 'p' ? &s->platform : &s->workload;
            free(*to);
            if (!(*to = strdup(rest))) {
                snprintf(msg, len, "%s:%d: out of memory", quote(path), lineno);
                goto bad;
            }
        } else if (strcmp(key, "scheme") == 0) {
            char *save = NULL, *name = strtok_r(rest, " \t", &save);
            if (!name) {
                snprintf(msg, len, "%s:%d: scheme needs a name", quote(path), lineno);
                goto bad;
            }
            if (copy(s->scheme, sizeof s->scheme, name) != 0)
                TOO_LONG("scheme name", sizeof s->scheme);
            for (char *t = strtok_r(NULL, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
                char *eq = strchr(t, '=');
                if (!eq) {
                    snprintf(msg, len, "%s:%d: scheme parameter '%s' is not key=value",
                             quote(path), lineno, quote(t));
                    goto bad;
                }
                if (s->nparams == MAX_PARAM_OPTS) {
                    snprintf(msg, len, "%s:%d: more than %d scheme parameters", quote(path),
                             lineno, MAX_PARAM_OPTS);
                    goto bad;
                }
                *eq = '\0';
                if (copy(s->params[s->nparams][0], 64, t) != 0 ||
                    copy(s->params[s->nparams][1], 64, eq + 1) != 0)
                    TOO_LONG("scheme parameter", 64);
                s->nparams++;
            }
        } else if (strcmp(key, "sample") == 0) {
            if (parse_long(rest, &s->sample) != 0 || s->sample < 1 || s->sample > INT_MAX) {
                snprintf(msg, len, "%s:%d: sample '%s' must be an integer in 1..%d",
                         quote(path), lineno, quote(rest), INT_MAX);
                goto bad;
            }
        } else if (strcmp(key, "seed") == 0) {
            long v;
            if (parse_long_in(rest, 0, 4294967295L, &v) != 0) {
                snprintf(msg, len, "%s:%d: seed '%s' must be an integer in "
                         "0..4294967295 (mt19937's 32-bit seed)", quote(path), lineno,
                         quote(rest));
                goto bad;
            }
            s->seed = (unsigned long)v;
        } else if (strcmp(key, "acp") == 0) {
            if (strcmp(rest, "real") != 0 && strcmp(rest, "integer") != 0) {
                snprintf(msg, len, "%s:%d: acp '%s': real or integer", quote(path), lineno,
                         quote(rest));
                goto bad;
            }
            s->acp_integer = rest[0] == 'i';
        } else if (strcmp(key, "result-bytes") == 0)
            NEED_NUM(result_bytes, 0, SIM_COST_MAX);
        else if (strcmp(key, "message-bytes") == 0)
            NEED_NUM(message_bytes, 0, SIM_COST_MAX);
        else if (strcmp(key, "master-overhead") == 0)
            NEED_NUM(master_overhead, 0, SIM_TIME_MAX);
        else if (strcmp(key, "dispatch") == 0)
            NEED_NUM(dispatch, 0, SIM_TIME_MAX);
        else if (strcmp(key, "remeasure") == 0)
            NEED_NUM(remeasure, 1e-6, SIM_TIME_MAX);
        else if (strcmp(key, "send-cost") == 0)
            NEED_NUM(send_cost, 0, SIM_COST_MAX);
        else if (strcmp(key, "wake") == 0) {
            double uv[2] = {0, 0};
            int nv = parse_double_list(rest, uv, 2);
            if (nv < 1 || !(uv[0] >= 0 && uv[0] <= SIM_COST_MAX) ||
                !(uv[1] >= 0 && uv[1] <= SIM_COST_MAX)) {
                snprintf(msg, len, "%s:%d: wake '%s' must be U[,V], numbers in 0..%g",
                         quote(path), lineno, quote(rest), SIM_COST_MAX);
                goto bad;
            }
            s->wake = uv[0];
            s->wake_load = uv[1];
        } else if (strcmp(key, "ahead") == 0) {
            sched_err err;
            if (sched_ahead_parse(rest, &s->ahead, &err) != SCHED_OK) {
                snprintf(msg, len, "%s:%d: %s", quote(path), lineno, err.msg);
                goto bad;
            }
        } else {
            snprintf(msg, len, "%s:%d: unknown line '%s' (platform, workload, scheme, "
                     "sample, seed, acp, result-bytes, message-bytes, master-overhead, "
                     "dispatch, remeasure, send-cost, wake, ahead)", quote(path), lineno,
                     quote(key));
            goto bad;
        }
#undef NEED_NUM
#undef TOO_LONG
    }
    if (lines_error(&in)) {
        snprintf(msg, len, "%s", in.msg);
        goto bad;
    }
    lines_close(&in);
    return 0;
bad:
    lines_close(&in);
    return -1;
}

/* Writes the cost of every iteration of w (already sampled with w->sample),
 * in the original order and in the scheduled one: row k holds original
 * iteration k and its cost, then the iteration the scheduled loop visits k-th
 * (sched_sample, the order every run uses) and its cost. Returns 0, or -1
 * with the reason in msg (the file is then as it was). */
static int write_costs(const char *path, const sim_workload *w, progress *pr, char *msg,
                       size_t len)
{
    outfile o;
    if (outfile_open(&o, path, "w") != 0) {
        outfile_msg(msg, len, path, NULL, errno);
        return -1;
    }
    long n = w->n, R = w->sample;
    fprintf(o.f, "index,iteration,cost,sampled_iteration,sampled_cost\n");
    for (long k = 0; k < n && !ferror(o.f); k++) {
        fprintf(o.f, "%ld,%ld,%.12g,%ld,%.12g\n", k, k,
                sim_work(w, sched_unsample(k, n, R), 1), sched_sample(k, n, R),
                sim_work(w, k, 1));
        if ((k & 0xffff) == 0 && progress_due(pr))
            progress_show(pr, "--costs: %ld of %ld iterations written", k, n);
    }
    progress_end(pr);
    const char *call;
    if (outfile_close(&o, &call) != 0) {
        outfile_msg(msg, len, path, call, errno);
        return -1;
    }
    return 0;
}

/* The folder for the record's spool files (sched/records/record.h): the
 * record's own, so that they take room where the record will; $TMPDIR (or
 * /tmp) for standard output or a path that is not a regular file. Owned by
 * the caller. */
static char *spool_dir(const char *rec_path)
{
    struct stat st;
    if (strcmp(rec_path, "-") == 0 || (stat(rec_path, &st) == 0 && !S_ISREG(st.st_mode))) {
        const char *t = getenv("TMPDIR");
        return strdup(t && t[0] ? t : "/tmp");
    }
    char *copy = strdup(rec_path);
    if (!copy)
        return NULL;
    char *d = strdup(dirname(copy));
    free(copy);
    return d;
}

/* The most chunks bin/sim writes in a run record (--record): 10^8, a file
 * of some 10 GB, its spool files as much again while the run lasts; the
 * tools that read a record (bin/tabulate, bin/record) hold it in memory.
 * Refused before the run when the scheme must pass it (as SIM_MAX_CHUNKS),
 * or when the disk has not the room for the chunks it must make; a run
 * that passes it anyway stops (exit 1). Without --record no limit but
 * SIM_MAX_CHUNKS: the memory stays the same. */
#define RECORD_MAX_CHUNKS 1e8
/* Bytes a chunk takes on disk while its record is made: in the spool file
 * (sizeof (rec_chunk)), then in the record (some 120 characters). */
#define RECORD_CHUNK_BYTES (sizeof(rec_chunk) + 120.0)

/* Refuses, before the run, what the limits of sim.h make hopeless; *least
 * is set to the chunks the run must make at least (0: unknown). Returns
 * 0, or -1 with the reason in msg (the numbers named):
 *  - the run cannot end within SIM_TIME_MAX: its hosts, however unloaded,
 *    need total cost / the sum of their speeds seconds at least;
 *  - the scheme must make more than SIM_MAX_CHUNKS chunks: for a scheme
 *    whose chunks never grow and that never re-plans, the first chunk is
 *    the largest (asked by the fastest host), so I / first chunks at least
 *    (pss: I). */
static int hopeless(const sim_config *c, double *least_chunks, char *msg, size_t len)
{
    *least_chunks = 0;
    const sim_platform *pf = c->platform;
    const sim_workload *wl = c->workload;
    double speed = 0, fastest = 0, least;
    for (int i = 0; i < pf->nhosts; i++) {
        speed += pf->hosts[i].speed;
        fastest = fmax(fastest, pf->hosts[i].speed);
    }
    least = wl->total / speed;
    if (!(least <= SIM_TIME_MAX)) {
        snprintf(msg, len, "the run cannot end within the limit of %g simulated seconds: "
                 "the workload's cost %g over the hosts' total speed %g is %g s at "
                 "least", SIM_TIME_MAX, wl->total, speed, least);
        return -1;
    }
    const sched_type *T = c->sched.type;
    if (c->tree || !T->monotone || T->replan || sched_type_fed(T))
        return 0;
    sched_err err;
    sched *s = sched_new(&c->sched, &err);
    if (!s)
        return 0;                       /* said by the run */
    double slowest = fastest;           /* V_i of the fastest (sched_speeds) */
    for (int i = 0; i < pf->nhosts; i++)
        slowest = fmin(slowest, pf->hosts[i].speed);
    long start, first = sched_next(s, slowest > 0 ? fastest / slowest : 1, &start);
    sched_free(s);
    double chunks = first > 0 ? ceil((double)wl->n / (double)first) : 0;
    *least_chunks = chunks;
    if (chunks > SIM_MAX_CHUNKS) {
        snprintf(msg, len, "%s over %ld iterations makes %.3g chunks at least (its "
                 "largest is its first, %ld), more than the simulator's limit of %.0e "
                 "(SIM_MAX_CHUNKS: days of computing; docs/sim.md)", T->name, wl->n,
                 chunks, first, SIM_MAX_CHUNKS);
        return -1;
    }
    return 0;
}

/* A run record of at least 'chunks' chunks, to be made in folder dir:
 * refused when it passes RECORD_MAX_CHUNKS (-1: a limit, bad input) or
 * dir's free room (-2: an output that cannot be written). 0, or those with
 * msg. */
static int record_room(const char *path, const char *dir, double chunks, char *msg,
                       size_t len)
{
    struct statvfs fs;
    double need = chunks * RECORD_CHUNK_BYTES;
    if (chunks > RECORD_MAX_CHUNKS) {
        snprintf(msg, len, "--record %s: the run makes %.3g chunks at least, more than "
                 "the %.0e a run record holds (some 10 GB; docs/sim.md); run without "
                 "--record for the summary", path, chunks, RECORD_MAX_CHUNKS);
        return -1;
    }
    if (statvfs(dir, &fs) == 0 && need > (double)fs.f_bavail * (double)fs.f_frsize) {
        char where[300];
        snprintf(where, sizeof where, "%s", quote(dir));
        snprintf(msg, len, "writing %s: %s (before the run: it makes %.3g chunks at least, "
                 "%.3g bytes of record and spool, and %s has %.3g bytes free)", quote(path),
                 strerror(ENOSPC), chunks, need, where,
                 (double)fs.f_bavail * (double)fs.f_frsize);
        return -2;
    }
    return 0;
}

/* Runs c into rec, showing its progress; a run with a record stops past
 * RECORD_MAX_CHUNKS chunks. Returns 0, or -1 with msg. */
static int run(const sim_config *c, record *rec, const char *rec_path, progress *pr,
               sim_status *end, char *msg, size_t len)
{
    sim *s = sim_open(c, rec, msg, len);
    if (!s)
        return -1;
    int rc;
    while ((rc = sim_iterate(s, 65536)) == 1) {
        if (rec_path && rec->nchunks > RECORD_MAX_CHUNKS) {
            snprintf(msg, len, "--record %s: the run passed %.0e chunks, the most a run "
                     "record holds (some 10 GB; docs/sim.md): stopped, nothing written; "
                     "run without --record for the summary", rec_path, RECORD_MAX_CHUNKS);
            rc = -1;
            break;
        }
        if (progress_due(pr)) {
            sim_status st;
            sim_status_get(s, &st);
            progress_show(pr, "%ld of %ld iterations in (%.1f%%), %ld chunks, "
                          "simulated %.6g s", st.done, st.iterations,
                          100.0 * (double)st.done / (double)st.iterations, st.chunks, st.t);
        }
    }
    sim_status_get(s, end);
    sim_close(s);
    progress_end(pr);
    return rc == 0 ? 0 : -1;
}

int main(int argc, char **argv)
{
    closeout_init("sim");
    parse_gsl_errors("sim", 1);     /* a GSL error: a message and exit 1, never abort() */
    enum { OPT_SEED = 1000, OPT_ACPINT, OPT_CHUNKS, OPT_STATS, OPT_AHEAD, OPT_CAND,
           OPT_BOUND, OPT_PARAM };
    struct option opts[17 + MAX_PARAM_OPTS] = {
        {"scheme", required_argument, NULL, 's'},
        {"platform", required_argument, NULL, 'p'},
        {"workload", required_argument, NULL, 'w'},
        {"sample", required_argument, NULL, 'R'},
        {"seed", required_argument, NULL, OPT_SEED},
        {"acp-int", no_argument, NULL, OPT_ACPINT},
        {"record", required_argument, NULL, 'r'},
        {"costs", required_argument, NULL, 'c'},
        {"chunks", no_argument, NULL, OPT_CHUNKS},
        {"stats", no_argument, NULL, OPT_STATS},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
        {"ahead", required_argument, NULL, OPT_AHEAD},
        {"candidates", required_argument, NULL, OPT_CAND},
        {"bound", no_argument, NULL, OPT_BOUND},
    };
    int nopts = 15;
    parse_scheme_options(opts, &nopts, 17 + MAX_PARAM_OPTS, OPT_PARAM);

    static scenario sc = {.scheme = "dtss", .sample = 1, .seed = 1,
                          .message_bytes = 64, .remeasure = 0.2,
                          .ahead = SCHED_AHEAD_DEFAULT};
    const char *o_scheme = NULL, *o_platform = NULL, *o_workload = NULL, *rec_path = NULL,
               *costs_path = NULL, *o_cand = NULL;
    const char *pname[MAX_PARAM_OPTS], *pvalue[MAX_PARAM_OPTS];
    long o_sample = 0, o_seed = -1;
    double o_ahead = 0;
    int o_ahead_set = 0;
    int nparam = 0, acp_int = 0, quiet = 0, show_chunks = 0, stats = 0, bound = 0, c, idx;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":s:p:w:R:r:c:qh", opts, &idx)) != -1) {
        switch (c) {
        case 's': o_scheme = optarg; break;
        case 'p': o_platform = optarg; break;
        case 'w': o_workload = optarg; break;
        case 'R':
            if (parse_long(optarg, &o_sample) != 0 || o_sample < 1 || o_sample > INT_MAX)
                return fail("--sample '%s' must be an integer in 1..%d", quote(optarg), INT_MAX);
            break;
        case OPT_SEED:
            if (parse_long_in(optarg, 0, 4294967295L, &o_seed) != 0)
                return fail("--seed '%s' must be an integer in 0..4294967295 (mt19937's "
                            "32-bit seed)", quote(optarg));
            break;
        case OPT_ACPINT: acp_int = 1; break;
        case OPT_AHEAD: {
            sched_err err;
            if (sched_ahead_parse(optarg, &o_ahead, &err) != SCHED_OK)
                return fail("%s", err.msg);
            o_ahead_set = 1;
            break;
        }
        case OPT_CAND: o_cand = optarg; break;
        case OPT_CHUNKS: show_chunks = 1; break;
        case OPT_STATS: stats = 1; break;
        case OPT_BOUND: bound = 1; break;
        case OPT_PARAM:
            pname[nparam] = opts[idx].name;
            pvalue[nparam++] = optarg;
            break;
        case 'r': rec_path = optarg; break;
        case 'c': costs_path = optarg; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return 0;
        default: return parse_getopt_error("sim", c, argv);
        }
    }
    if (optind >= argc && !(costs_path && o_workload))
        return fail(costs_path ? "--costs needs a scenario file or --workload (try --help)"
                               : "a scenario file is needed (try --help)");
    if (optind + 1 < argc)
        return fail("unexpected argument '%s' (try --help)", quote(argv[optind + 1]));
    if (bound && (costs_path || rec_path))
        return fail("--bound runs nothing: it takes neither %s", costs_path ? "--costs" : "--record");
    char msg[1024];
    const char *path = optind < argc ? argv[optind] : "--workload";
    if (optind < argc && read_scenario(&sc, path, msg, sizeof msg) != 0)
        return fail("%s", msg);
    static char *pathcopy;              /* dirname's, however long */
    pathcopy = strdup(optind < argc ? path : ".");
    if (!pathcopy) {
        fail("out of memory");
        return 1;
    }
    const char *dir = dirname(pathcopy);

    if (o_scheme) {
        sched_err err;              /* (a name that long is no scheme: said whole) */
        if (strlen(o_scheme) >= sizeof sc.scheme && !sched_type_find(o_scheme, &err))
            return fail("%s, tree or auto", err.msg);
        snprintf(sc.scheme, sizeof sc.scheme, "%s", o_scheme);
        sc.nparams = 0;             /* the file's parameters were for its scheme */
    }
    if (o_sample)
        sc.sample = o_sample;
    if (o_seed >= 0)
        sc.seed = (unsigned long)o_seed;
    if (acp_int)
        sc.acp_integer = 1;

    progress_interrupt("sim", costs_path ? "no costs written"
                              : rec_path ? "no run record written" : "nothing printed");
    progress pr;
    progress_start(&pr, "sim", !quiet);
    if (costs_path) {               /* the costs alone: no platform, no run */
        const char *line = o_workload ? o_workload : sc.workload;
        sim_workload cw;
        int crc = 0;
        if (o_workload && !o_workload[0])
            crc = fail("--workload '' is empty (give 'KIND key=value ...')");
        else if (!line || !line[0])
            crc = fail("%s: no 'workload KIND ...' line (or --workload)", quote(path));
        else if (closeout_output("--costs", costs_path, 0))   /* before the costs are made */
            crc = 1;
        else if (sim_workload_parse(&cw, line, sc.seed, o_workload ? "." : dir, msg,
                                    sizeof msg) != 0)
            crc = fail("%s", msg);
        else {
            if (sim_workload_sample(&cw, (int)sc.sample, msg, sizeof msg) != 0)
                crc = fail("%s", msg);
            else if (write_costs(costs_path, &cw, &pr, msg, sizeof msg) != 0) {
                fail("%s", msg);
                crc = 1;                /* an output that could not be written */
            }
            sim_workload_free(&cw);
        }
        free(pathcopy);
        free(sc.platform);
        free(sc.workload);
        return crc;
    }
    const char *pf_file = o_platform ? o_platform : sc.platform;
    if (!pf_file || !pf_file[0])
        return fail("%s: no 'platform FILE' line (or --platform)", quote(path));
    if (closeout_output("--record", rec_path, 0))      /* before anything is built */
        return 1;
    int rel = !o_platform && pf_file[0] != '/';
    size_t plen = strlen(dir) + strlen(pf_file) + 2;
    char *platform_path = malloc(plen);
    if (!platform_path) {
        fail("out of memory");
        return 1;
    }
    snprintf(platform_path, plen, "%s%s%s", rel ? dir : "", rel ? "/" : "", pf_file);
    sim_platform pf;
    int prc = sim_platform_read(&pf, platform_path, msg, sizeof msg);
    free(platform_path);
    if (prc != 0)
        return fail("%s", msg);

    sim_workload wl;
    const char *wl_line = o_workload ? o_workload : sc.workload;
    if (!wl_line || !wl_line[0]) {
        sim_platform_free(&pf);
        return fail("%s: no 'workload KIND ...' line (or --workload)", quote(path));
    }
    if (sim_workload_parse(&wl, wl_line, sc.seed, o_workload ? "." : dir, msg,
                           sizeof msg) != 0 ||
        sim_workload_sample(&wl, (int)sc.sample, msg, sizeof msg) != 0) {
        sim_platform_free(&pf);
        return fail("%s", msg);
    }
    free(pathcopy);
    /* Bytes times iterations stay finite (result-bytes is per iteration). */
    if (!(sc.result_bytes * (double)wl.n <= SIM_COST_MAX)) {
        sim_workload_free(&wl);
        sim_platform_free(&pf);
        return fail("%s: result-bytes %g times the workload's %ld iterations is more "
                    "than %g bytes", quote(path), sc.result_bytes, wl.n, SIM_COST_MAX);
    }

    sim_config cfg;
    sim_config_init(&cfg);
    cfg.platform = &pf;
    cfg.workload = &wl;
    cfg.acp_integer = sc.acp_integer;
    cfg.result_bytes = sc.result_bytes;
    cfg.message_bytes = sc.message_bytes;
    cfg.master_overhead = sc.master_overhead;
    cfg.dispatch = sc.dispatch;
    cfg.remeasure = sc.remeasure;
    cfg.send_cost = sc.send_cost;
    cfg.wake = sc.wake;
    cfg.wake_load = sc.wake_load;
    cfg.ahead = o_ahead_set ? o_ahead : sc.ahead;
    cfg.tree = strcmp(sc.scheme, "tree") == 0;
    int rc = 1;
    record rec = {0};
    if (bound) {                    /* no run: the lower bound (sim/bound.c) */
        double T = sim_bound(&cfg, NULL);
        if (isnan(T))
            fail("out of memory");
        else if (!(T <= SIM_TIME_MAX))
            fail("%s: the hosts cannot do the work within %g s", quote(path), SIM_TIME_MAX);
        else {
            printf("%.9g\n", T);
            rc = 0;
        }
        goto out;
    }
    cfg.autosel = strcmp(sc.scheme, SIM_AUTO_NAME) == 0;
    const char *cand = NULL;
    if (cfg.autosel) {              /* its candidates, checked now */
        for (int i = 0; i < sc.nparams; i++) {
            if (strcmp(sc.params[i][0], "candidates") != 0) {
                rc = fail("%s: auto takes candidates=LIST only, not '%s'", quote(path),
                          quote(sc.params[i][0]));
                goto out;
            }
            cand = sc.params[i][1];
        }
        if (nparam > 0) {
            rc = fail("auto takes no scheme parameter (--%s); --candidates LIST names its "
                      "candidates", pname[0]);
            goto out;
        }
        sc.nparams = 0;
        if (o_cand)
            cand = o_cand;
        const sched_type *T[SIM_AUTO_CANDIDATES];
        if (sim_auto_candidates(cand, T, SIM_AUTO_CANDIDATES, msg, sizeof msg) < 0) {
            rc = fail("%s", msg);
            goto out;
        }
        cfg.candidates = cand;
    } else if (o_cand) {
        rc = fail("--candidates is for --scheme auto only (the scheme is %s)", sc.scheme);
        goto out;
    }
    if (!cfg.tree) {
        sched_err err;
        const sched_type *T = sched_type_find(cfg.autosel ? SIM_AUTO_PROBE : sc.scheme, &err);
        if (!T) {
            rc = fail("%s, tree or auto", err.msg);
            goto out;
        }
        sched_config_init(&cfg.sched, T, wl.n, pf.nhosts);
        if (cfg.autosel)
            sim_auto_probe(&cfg.sched, wl.n, pf.nhosts);
        for (int i = 0; i < sc.nparams; i++)
            if (sched_config_set(&cfg.sched, sc.params[i][0], sc.params[i][1], &err) != 0) {
                rc = fail("%s: %s", quote(path), err.msg);
                goto out;
            }
        for (int i = 0; i < nparam; i++)
            if (sched_config_set(&cfg.sched, pname[i], pvalue[i], &err) != 0) {
                rc = fail("%s", err.msg);
                goto out;
            }
        sched *check = sched_new(&cfg.sched, &err);     /* parameters checked now */
        if (!check) {
            rc = fail("%s", err.msg);
            goto out;
        }
        sched_free(check);
    } else if (sc.nparams || nparam) {
        rc = fail("tree takes no scheme parameters");
        goto out;
    }
    double least;
    if (hopeless(&cfg, &least, msg, sizeof msg) != 0) {
        rc = fail("%s", msg);
        goto out;
    }
    /* The memory of a run does not grow with it: the record's entries go
     * to spool files beside the record, or are not kept at all. */
    char *sdir = rec_path ? spool_dir(rec_path) : NULL;
    if (rec_path && !sdir) {
        fail("out of memory");
        rc = 1;
        goto out;
    }
    int room = rec_path ? record_room(rec_path, sdir, least, msg, sizeof msg) : 0;
    if (room != 0) {
        free(sdir);
        rc = fail("%s", msg);
        if (room == -2)
            rc = 1;                     /* an output that cannot be written */
        goto out;
    }
    if (record_init(&rec, pf.nhosts) != 0 || record_stream(&rec, sdir, msg, sizeof msg) != 0) {
        free(sdir);
        fprintf(stderr, "sim: %s\n", rec.w ? msg : "out of memory");
        rc = 1;
        goto out;
    }
    free(sdir);
    sim_status end;
    int ran = run(&cfg, &rec, rec_path, &pr, &end, msg, sizeof msg);
    if (ran == 0 && rec_path && rec.nchunks > 1000000 && pr.on)
        fprintf(stderr, "sim: writing the run record (%ld chunks)\n", rec.nchunks);
    if (ran != 0 || (rec_path && record_write(&rec, rec_path, msg, sizeof msg) != 0)) {
        fprintf(stderr, "sim: %s\n", msg);
        rc = 1;
        goto out;
    }
    if (!quiet) {
        record_summary(&rec, stdout);
        if (show_chunks)
            printf("chunks %ld replans %d\n", rec.nchunks, rec.replans);
    }
    if (stats) {
        struct rusage ru;
        getrusage(RUSAGE_SELF, &ru);
        printf("workers %d iterations %ld chunks %ld cpu %.3f s maxrss %ld KiB\n",
               pf.nhosts, wl.n, rec.nchunks,
               ru.ru_utime.tv_sec + ru.ru_stime.tv_sec +
               (ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e-6, ru.ru_maxrss);
        if (cfg.autosel)                /* (CPU time: not in the record) */
            printf("auto decisions %d cpu %.6f s\n", end.decisions, end.decision_cpu);
    }
    rc = 0;
out:
    record_free(&rec);
    sim_workload_free(&wl);
    sim_platform_free(&pf);
    free(sc.platform);
    free(sc.workload);
    return rc;
}
