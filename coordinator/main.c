/* main.c: bin/coordinator, the PVM coordinator (Xu & Chronopoulos Sec. 5.3).
 *
 * Spawns the workers on the chosen hosts of the running PVM virtual machine,
 * hands out the Mandelbrot rows by the chosen scheme (run.c), assembles the
 * image, and writes it with the run record (sched/record.c).
 *
 * V_i, a host's virtual computing power, is its hostfile sp= value (PVM's
 * host speed, pvm_config) divided by the smallest sp= among the hosts that
 * get workers: the slowest has V = 1 (Sec. 5.1). A host without sp= has
 * PVM's default 1000.
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <pvm3.h>

#include "coordinator/coordinator.h"
#include "sched/parse.h"
#include "worker/proto.h"

#define MAX_PARAM_OPTS 32

static void usage(FILE *f)
{
    fprintf(f,
"usage: coordinator [options]\n"
"\n"
"Computes the Mandelbrot set on the running PVM virtual machine: spawns one\n"
"worker per host and hands out image rows (in pseudo-uniform order) by a loop\n"
"self-scheduling scheme. Start PVM first (pvm HOSTFILE, or make cluster-up).\n"
"Prints the paper's summary line: W1..Wn (each worker's time until its last\n"
"chunk was done), Finish time and Imbalance (max - min of the W_i), seconds.\n"
"\n"
"scheme:\n"
"  -s, --scheme NAME    dtss (default), tss, gss, fss, css, pss, qss, ess, rss\n"
"                       or tree (Tree-Scheduling)\n"
"      --NAME VALUE     a scheme parameter (see bin/chunks --help), e.g. --F 20\n"
"      --min N          minimum chunk size (default 1)\n"
"      --acp-int        A_i = floor(V_i / Q_i), the paper's integer rule\n"
"                       (default: real-valued; see README)\n"
"      --probe B        load probe of the workers: auto (default), proc, cgroup\n"
"workload:\n"
"  -S, --size N         image width and height (default %d)\n"
"  -W, --width N / -H, --height N\n"
"  -m, --maxiter N      maximum iterations per pixel (default %u)\n"
"  -R, --sample R       pseudo-uniform sampling frequency (default 4; 1 = off)\n"
"workers:\n"
"      --hosts H1,H2    hosts that get a worker (default: every host of the\n"
"                       virtual machine except the coordinator's own)\n"
"      --include-self   also a worker on the coordinator's host\n"
"      --local N        N workers on the coordinator's host (one-machine VM)\n"
"      --worker PATH    the worker program (default 'worker', found through the\n"
"                       hostfile's ep= path)\n"
"output:\n"
"  -o, --out FILE       the image as PGM (default image.pgm; 'none' for none)\n"
"  -r, --record FILE    the run record, CSV (default run.csv; 'none')\n"
"  -q, --quiet          only the summary line\n"
"  -h, --help           this help\n",
            MANDEL_DEFAULT_SIZE, MANDEL_DEFAULT_MAXITER);
}

#define fail(...) parse_fail("coordinator", __VA_ARGS__)

/* pvm_mytid without libpvm's own complaints on stderr when no pvmd runs:
 * the caller prints one clear line instead. */
static int quiet_mytid(void)
{
    fflush(stderr);
    int saved = dup(STDERR_FILENO), null = open("/dev/null", O_WRONLY);
    if (saved >= 0 && null >= 0)
        dup2(null, STDERR_FILENO);
    int me = pvm_mytid();
    if (saved >= 0 && null >= 0) {
        fflush(stderr);
        dup2(saved, STDERR_FILENO);
    }
    if (saved >= 0) close(saved);
    if (null >= 0) close(null);
    return me;
}

/* Leaves PVM. Output collection is turned off first: pvm_exit would wait for
 * the output of every worker ever spawned, for ever for one on a deleted
 * host (stop_all has waited for the live workers to exit). */
static void leave_pvm(void)
{
    pvm_catchout(NULL);
    pvm_exit();
}

/* The hosts of the virtual machine that get workers: fills r->w (host, V). */
static int choose_hosts(run *r, const char *hosts, int include_self, int local)
{
    int nhost, narch;
    struct pvmhostinfo *hi;
    int rc = pvm_config(&nhost, &narch, &hi);
    if (rc < 0) {
        fprintf(stderr, "coordinator: pvm_config: %s\n", proto_pvm_strerror(rc));
        return -1;
    }
    int mydtid = pvm_tidtohost(pvm_mytid());
    int me = 0;
    for (int i = 0; i < nhost; i++)
        if (hi[i].hi_tid == mydtid)
            me = i;
    int *pick = calloc((size_t)(nhost + (local > 0 ? local : 0)), sizeof *pick);
    int n = 0;
    if (!pick)
        return -1;
    if (local > 0) {
        for (int k = 0; k < local; k++)
            pick[n++] = me;
    } else if (hosts) {
        char *copy = strdup(hosts), *save = NULL;
        if (!copy) {
            free(pick);
            return -1;
        }
        for (char *h = strtok_r(copy, ",", &save); h; h = strtok_r(NULL, ",", &save)) {
            int found = -1;
            for (int i = 0; i < nhost; i++)
                if (strcmp(hi[i].hi_name, h) == 0)
                    found = i;
            if (found < 0) {
                fprintf(stderr, "coordinator: --hosts: no host '%s' in the virtual "
                        "machine (it has:", h);
                for (int i = 0; i < nhost; i++)
                    fprintf(stderr, " %s", hi[i].hi_name);
                fprintf(stderr, ")\n");
                free(copy);
                free(pick);
                return -1;
            }
            int *more = realloc(pick, sizeof *pick * (size_t)(n + 1 + nhost));
            if (!more) {
                fprintf(stderr, "coordinator: out of memory\n");
                free(copy);
                free(pick);
                return -1;
            }
            pick = more;
            pick[n++] = found;
        }
        free(copy);
    } else {
        for (int i = 0; i < nhost; i++)
            if (i != me || include_self)
                pick[n++] = i;
    }
    if (n == 0) {
        fprintf(stderr, "coordinator: no hosts to use: the virtual machine has only "
                "this host (%s); add hosts (a hostfile, or 'add HOST' in the pvm "
                "console), or run workers here with --local N or --include-self\n",
                hi[me].hi_name);
        free(pick);
        return -1;
    }
    if (n > PROTO_MAX_WORKERS) {
        fprintf(stderr, "coordinator: %d workers, at most %d\n", n, PROTO_MAX_WORKERS);
        free(pick);
        return -1;
    }
    int slowest = hi[pick[0]].hi_speed;
    for (int k = 0; k < n; k++)
        if (hi[pick[k]].hi_speed < slowest)
            slowest = hi[pick[k]].hi_speed;
    if (slowest <= 0)
        slowest = 1;
    r->w = calloc((size_t)n, sizeof *r->w);
    if (!r->w || record_init(&r->rec, n) != 0) {
        fprintf(stderr, "coordinator: out of memory for %d workers\n", n);
        free(pick);
        return -1;
    }
    r->nw = n;
    for (int k = 0; k < n; k++) {
        snprintf(r->rec.w[k].host, sizeof r->rec.w[k].host, "%s", hi[pick[k]].hi_name);
        r->rec.w[k].V = (double)(hi[pick[k]].hi_speed > 0 ? hi[pick[k]].hi_speed : 1) /
                    slowest;
    }
    free(pick);
    return 0;
}

/* Spawns one worker per entry of r->w; on failure kills those started. */
static int spawn_workers(run *r)
{
    for (int k = 0; k < r->nw; k++) {
        int tid;
        int n = pvm_spawn((char *)r->worker_path, NULL, PvmTaskHost, r->rec.w[k].host,
                          1, &tid);
        if (n != 1) {
            int err = n < 0 ? n : tid;
            fprintf(stderr, "coordinator: pvm_spawn(%s) on host %s: %s",
                    r->worker_path, r->rec.w[k].host, proto_pvm_strerror(err));
            if (err == PvmNoFile)
                fprintf(stderr, ": the worker program is not in PVM's search path; "
                        "give the hostfile's * line ep=/path/to/bin (or use "
                        "--worker /path/to/bin/worker)");
            fprintf(stderr, "\n");
            for (int j = 0; j < k; j++)
                pvm_kill(r->rec.w[j].tid);
            return -1;
        }
        r->rec.w[k].tid = tid;
    }
    int *tids = malloc(sizeof(int) * (size_t)r->nw);
    int *dtids = malloc(sizeof(int) * (size_t)r->nw);
    if (tids && dtids) {
        int nd = 0;
        for (int k = 0; k < r->nw; k++) {
            tids[k] = r->rec.w[k].tid;
            int d = pvm_tidtohost(tids[k]), seen = 0;
            for (int j = 0; j < nd; j++)
                seen |= dtids[j] == d;
            if (!seen)
                dtids[nd++] = d;
        }
        pvm_notify(PvmTaskExit, TAG_TASKEXIT, r->nw, tids);
        pvm_notify(PvmHostDelete, TAG_HOSTDEL, nd, dtids);
    }
    free(tids);
    free(dtids);
    return 0;
}

int main(int argc, char **argv)
{
    enum { OPT_HOSTS = 1000, OPT_SELF, OPT_LOCAL, OPT_WORKER, OPT_ACPINT,
           OPT_PROBE, OPT_MIN, OPT_PARAM };
    struct option opts[20 + MAX_PARAM_OPTS] = {
        {"scheme", required_argument, NULL, 's'},
        {"size", required_argument, NULL, 'S'},
        {"width", required_argument, NULL, 'W'},
        {"height", required_argument, NULL, 'H'},
        {"maxiter", required_argument, NULL, 'm'},
        {"sample", required_argument, NULL, 'R'},
        {"hosts", required_argument, NULL, OPT_HOSTS},
        {"include-self", no_argument, NULL, OPT_SELF},
        {"local", required_argument, NULL, OPT_LOCAL},
        {"worker", required_argument, NULL, OPT_WORKER},
        {"acp-int", no_argument, NULL, OPT_ACPINT},
        {"probe", required_argument, NULL, OPT_PROBE},
        {"min", required_argument, NULL, OPT_MIN},
        {"out", required_argument, NULL, 'o'},
        {"record", required_argument, NULL, 'r'},
        {"quiet", no_argument, NULL, 'q'},
        {"help", no_argument, NULL, 'h'},
    };
    int nopts = 17;
    parse_scheme_options(opts, &nopts, 20 + MAX_PARAM_OPTS, OPT_PARAM);

    static run r;
    mandel_defaults(&r.image);
    r.sample = 4;
    r.worker_path = "worker";
    const char *scheme = "dtss", *hosts = NULL, *out = "image.pgm";
    const char *record_path = "run.csv", *min_text = NULL;
    const char *pname[MAX_PARAM_OPTS], *pvalue[MAX_PARAM_OPTS];
    int nparam = 0, include_self = 0, local = 0, c, idx;
    long maxiter = r.image.maxiter, sample = 4;

    opterr = 0;
    while ((c = getopt_long(argc, argv, ":s:S:W:H:m:R:o:r:qh", opts, &idx)) != -1) {
        switch (c) {
        case 's': scheme = optarg; break;
        case 'S':
            if (parse_int(optarg, &r.image.width) != 0)
                return fail("--size '%s' is not an integer", optarg);
            r.image.height = r.image.width;
            break;
        case 'W':
            if (parse_int(optarg, &r.image.width) != 0)
                return fail("--width '%s' is not an integer", optarg);
            break;
        case 'H':
            if (parse_int(optarg, &r.image.height) != 0)
                return fail("--height '%s' is not an integer", optarg);
            break;
        case 'm':
            if (parse_long(optarg, &maxiter) != 0 || maxiter < 1 || maxiter > UINT32_MAX)
                return fail("--maxiter '%s' must be an integer in [1, %u]", optarg,
                            UINT32_MAX);
            r.image.maxiter = (uint32_t)maxiter;
            break;
        case 'R':
            if (parse_long(optarg, &sample) != 0 || sample < 1 || sample > 1000000)
                return fail("--sample '%s' must be an integer >= 1", optarg);
            r.sample = (int)sample;
            break;
        case OPT_HOSTS: hosts = optarg; break;
        case OPT_SELF: include_self = 1; break;
        case OPT_LOCAL:
            if (parse_int(optarg, &local) != 0 || local < 1 || local > PROTO_MAX_WORKERS)
                return fail("--local '%s' must be an integer in [1, %d]", optarg,
                            PROTO_MAX_WORKERS);
            break;
        case OPT_WORKER: r.worker_path = optarg; break;
        case OPT_ACPINT: r.acp_integer = 1; break;
        case OPT_PROBE:
            if (probe_backend_parse(optarg, &r.probe) != 0)
                return fail("--probe '%s': use auto, proc or cgroup", optarg);
            break;
        case OPT_MIN: min_text = optarg; break;
        case OPT_PARAM:
            pname[nparam] = opts[idx].name;
            pvalue[nparam++] = optarg;
            break;
        case 'o': out = optarg; break;
        case 'r': record_path = optarg; break;
        case 'q': r.quiet = 1; break;
        case 'h': usage(stdout); return 0;
        case ':': return fail("option '%s' needs a value (try --help)", argv[optind - 1]);
        default: return fail("unknown option '%s' (try --help)", argv[optind - 1]);
        }
    }
    if (optind < argc)
        return fail("unexpected argument '%s' (try --help)", argv[optind]);
    if (local && (hosts || include_self))
        return fail("--local runs every worker on this host; it does not go with "
                    "--hosts or --include-self");
    char msg[256];
    if (mandel_check(&r.image, msg, sizeof msg) != 0)
        return fail("%s", msg);

    sched_err err;
    r.tree = strcasecmp(scheme, "tree") == 0;
    if (!r.tree) {
        r.scheme = sched_type_find(scheme, &err);
        if (!r.scheme)
            return fail("%s, or tree", err.msg);
        sched_config_init(&r.cfg, r.scheme, r.image.height, 1);
        if (min_text && parse_long(min_text, &r.cfg.min_chunk) != 0)
            return fail("--min '%s' is not an integer", min_text);
        for (int i = 0; i < nparam; i++)
            if (sched_config_set(&r.cfg, pname[i], pvalue[i], &err) != SCHED_OK)
                return fail("%s", err.msg);
        sched *check = sched_new(&r.cfg, &err);     /* parameters, checked now */
        if (!check)
            return fail("%s", err.msg);
        sched_free(check);
    } else if (nparam || min_text) {
        return fail("tree takes no scheme parameters");
    }

    /* PVM. */
    pvm_setopt(PvmAutoErr, 0);
    /* Direct TCP routes between the coordinator and its workers, not through
     * the pvmds (workers accept them; their worker-to-worker messages, in
     * Tree-Scheduling, go through the pvmds). */
    pvm_setopt(PvmRoute, PvmRouteDirect);
    int me = quiet_mytid();
    if (me < 0) {
        fprintf(stderr, "coordinator: no PVM daemon to talk to (pvm_mytid: %s): "
                "start the virtual machine first (pvm HOSTFILE, or make cluster-up "
                "and source its env file); with several, PVM_TMP must name the "
                "master's directory\n", proto_pvm_strerror(me));
        return 1;
    }
    if (choose_hosts(&r, hosts, include_self, local) != 0) {
        leave_pvm();
        return 1;
    }
    size_t npix = (size_t)r.image.width * (size_t)r.image.height;
    r.image_counts = calloc(npix, sizeof *r.image_counts);
    r.row_done = calloc((size_t)r.image.height, 1);
    if (!r.image_counts || !r.row_done) {
        leave_pvm();
        return fail("out of memory for a %dx%d image", r.image.width, r.image.height);
    }
    pvm_setopt(PvmShowTids, 0);
    pvm_catchout(stderr);
    if (spawn_workers(&r) != 0) {
        leave_pvm();
        return 1;
    }
    if (!r.quiet) {
        fprintf(stderr, "coordinator: %d workers:", r.nw);
        for (int w = 0; w < r.nw; w++)
            fprintf(stderr, " %s(V=%g)", r.rec.w[w].host, r.rec.w[w].V);
        fprintf(stderr, "\n");
    }
    int rc = r.tree ? run_tree(&r) : run_self(&r);
    if (rc != 0) {
        for (int w = 0; w < r.nw; w++)
            if (!r.w[w].lost)
                pvm_kill(r.rec.w[w].tid);
        leave_pvm();
        return 1;
    }
    if (strcmp(out, "none") != 0 &&
        mandel_write_pgm(out, &r.image, r.image_counts, msg, sizeof msg) != 0) {
        fprintf(stderr, "coordinator: %s\n", msg);
        rc = 1;
    }
    /* The record's description of the run. */
    snprintf(r.rec.scheme, sizeof r.rec.scheme, "%s", r.tree ? "tree" : r.scheme->name);
    r.rec.rows = r.image.height;
    r.rec.width = r.image.width;
    r.rec.height = r.image.height;
    r.rec.maxiter = r.image.maxiter;
    r.rec.sample = r.sample;
    record_date_now(&r.rec);
    snprintf(r.rec.checksum, sizeof r.rec.checksum, "%016llx",
             (unsigned long long)mandel_checksum(r.image_counts, npix));
    if (strcmp(record_path, "none") != 0 &&
        record_write(&r.rec, record_path, msg, sizeof msg) != 0) {
        fprintf(stderr, "coordinator: %s\n", msg);
        rc = 1;
    }
    record_summary(&r.rec, stdout);
    if (!r.quiet)
        printf("checksum %s replans %d\n", r.rec.checksum, r.rec.replans);
    fflush(stdout);
    leave_pvm();
    return rc;
}
