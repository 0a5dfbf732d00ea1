/* main.c: bin/coordinator, the Mandelbrot set on PVM (Xu & Chronopoulos
 * Sec. 6): the master of a libdtss run whose loop is the image's rows (or,
 * with --columns, its columns: the paper does not say which; mandel.h).
 *
 * The runtime (runtime/dtss.h) spawns the workers (bin/worker), hands out
 * the rows by the chosen scheme and gives back each row's counts; this
 * program only assembles the image and writes it with the run record, whose
 * run line it gives the image's fields (width, height, maxiter, checksum).
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "mandel/mandel.h"
#include "runtime/dtss.h"
#include "sched/util/closeout.h"
#include "sched/util/outfile.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

static void usage(FILE *f)
{
    fprintf(f,
"usage: coordinator [options]\n"
"\n"
"Computes the Mandelbrot set on the running PVM virtual machine: spawns one\n"
"worker per host and hands out image rows (in pseudo-uniform order) by a loop\n"
"self-scheduling scheme (or columns, --columns). Start PVM first (pvm HOSTFILE, or make cluster-up);\n"
"from the pvm console: spawn -master -> coordinator [options] (-master: on the\n"
"virtual machine's master host; elsewhere it refuses to share a worker's host).\n"
"Prints the paper's summary line: W1..Wn (each worker's time until its last\n"
"chunk was done), Finish time and Imbalance (max - min of the W_i), seconds.\n"
"\n"
"workload:\n"
"  -S, --size N         image width and height (default %d)\n"
"  -W, --width N / -H, --height N\n"
"  -m, --maxiter N      maximum iterations per pixel (default %u)\n"
"      --columns        the loop over the image's columns, not its rows (the\n"
"                       same image; the paper does not say which it used)\n"
"output:\n"
"  -o, --out FILE       the image as PGM (default image.pgm; 'none' for none)\n"
"  -r, --record FILE    the run record, CSV (default run.csv; 'none')\n"
"                       (both checked before the run, an earlier run's removed\n"
"                       when it starts, written whole or not at all at its end)\n"
"  -q, --quiet          only the summary line\n"
"broken runs:\n"
"  with a record file, the rows are journaled to RECORD.journal as they arrive\n"
"  (removed after a complete run; --journal none: no journal)\n"
"  --resume RECORD      continue the broken run of RECORD (a killed coordinator,\n"
"                       pvmd or host): the image's size and maxiter and the\n"
"                       scheduling are the journal's; only the rows it lacks are\n"
"                       computed; writes the image (-o) and RECORD as a run would\n"
"  --keep-journal       keep RECORD.journal after a complete run\n"
"  -h, --help           this help\n"
"exit status: 0 done; 1 the run failed (no PVM, workers lost, out of memory, an\n"
"output that cannot be written or was not, standard output included: said),\n"
"130 interrupted; 2 bad input: a bad option or value (an image over %d pixels a\n"
"row or %ld in all included), an unknown host, a --resume journal that is\n"
"missing, damaged or not this run's\n"
"scheduling (the runtime's options; -s NAME is --scheme, -R R is --sample,\n"
"whose default here is 4; the worker program is bin/worker; --journal and\n"
"--resume as under broken runs above):\n",
            MANDEL_DEFAULT_SIZE, MANDEL_DEFAULT_MAXITER, MANDEL_MAX_WIDTH, MANDEL_MAX_PIXELS);
    dtss_master_usage(f);
}

#define fail(...) parse_fail("coordinator", __VA_ARGS__)

/* The exit status of a runtime error before the run (options, hosts, the
 * journal to resume): 2 for bad input, 1 for a failure (PVM, memory). */
static int status_of(int rc)
{
    return rc == DTSS_EINVAL || rc == DTSS_ENOENT ? 2 : 1;
}

/* The image being assembled: its lines (rows, or columns) are the loop's
 * iterations. */
typedef struct image {
    mandel_params p;
    uint32_t *counts;       /* row-major, whatever the loop */
    uint32_t *line;         /* one line's counts */
    char *row_done;         /* by line */
    long rows_done;         /* lines in */
} image;

/* Stores a piece (lines [start, start + size)); -1 if its bytes are not
 * those lines' counts, or a line came twice. */
static int store(image *im, const dtss_piece *pc)
{
    const size_t len = (size_t)mandel_line_len(&im->p);
    if (pc->start < 0 || pc->size > mandel_lines(&im->p) - pc->start ||
        pc->len != (size_t)pc->size * len * 4)
        return -1;
    for (long k = 0; k < pc->size; k++) {
        long line = pc->start + k;
        if (im->row_done[line])
            return -1;
        im->row_done[line] = 1;
        mandel_row_counts((const unsigned char *)pc->data + (size_t)k * len * 4, len,
                          im->line);
        mandel_put_line(&im->p, line, im->line, im->counts);
    }
    im->rows_done += pc->size;
    return 0;
}

static double clock_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The journal being written ("": none) and what to say when the run
 * breaks: how to resume it. */
static char journal_path[4096 + 16], resume_hint[4096 + 128];

/* Rows in so far and the image's height, for the interrupt message: a
 * signal handler may read them. */
static volatile sig_atomic_t rows_in, rows_all;

/* Writes n in decimal with write(2): safe in a signal handler. */
static void put_number(long n)
{
    char buf[24], *p = buf + sizeof buf;
    do
        *--p = (char)('0' + n % 10);
    while ((n /= 10) > 0);
    if (write(STDERR_FILENO, p, (size_t)(buf + sizeof buf - p)) < 0)
        return;
}

/* Ctrl-C (or a kill): say what was lost and end. Nothing is written: the
 * image and the record are written only at the end (with Ctrl-C blocked),
 * and the old ones were removed at the start, so no earlier run's files
 * pass for this one's; the journal keeps the rows in so far, and the
 * message says how to resume. The workers end on their own (PVM tells them
 * their master exited; bin/worker asks inside a row too). */
static void interrupted(int sig)
{
    static const char a[] = "\ncoordinator: interrupted: ", b[] = " of ",
                      c[] = " rows were in; no image, no run record written\n";
    if (write(STDERR_FILENO, a, sizeof a - 1) < 0)
        _exit(128 + sig);
    put_number(rows_in);
    if (write(STDERR_FILENO, b, sizeof b - 1) < 0)
        _exit(128 + sig);
    put_number(rows_all);
    if (write(STDERR_FILENO, c, sizeof c - 1) < 0)
        _exit(128 + sig);
    if (resume_hint[0] && access(journal_path, F_OK) == 0 &&     /* how to resume */
        (write(STDERR_FILENO, a + 1, 13) < 0 ||                 /* "coordinator: " */
         write(STDERR_FILENO, resume_hint, strlen(resume_hint)) < 0 ||
         write(STDERR_FILENO, "\n", 1) < 0))
        _exit(128 + sig);
    _exit(128 + sig);
}

/* Progress on a terminal, at most twice a second: rows in, chunks, time. */
static void progress(const image *im, long chunks, double t0, int last)
{
    static double shown;
    double now = clock_now();
    if (!last && now - shown < 0.5)
        return;
    shown = now;
    fprintf(stderr, "\rcoordinator: %ld of %ld %s in, %ld chunk%s, %.1f s%s", im->rows_done,
            mandel_lines(&im->p), mandel_loop_name(&im->p), chunks, chunks == 1 ? "" : "s",
            now - t0, last ? "\n" : "");
}

/* Takes option 'name' (--name VALUE or --name=VALUE) out of argv (before
 * "--"), returning its value (the last if repeated; NULL: absent), or
 * "" for --name without a value. */
static const char *take_option(int *argc, char **argv, const char *name)
{
    const char *value = NULL;
    size_t n = strlen(name);
    int out = 1, i = 1;
    for (; i < *argc && strcmp(argv[i], "--") != 0; i++) {
        const char *a = argv[i];
        if (strncmp(a, "--", 2) != 0 || strncmp(a + 2, name, n) != 0 ||
            (a[2 + n] != '\0' && a[2 + n] != '=')) {
            argv[out++] = argv[i];
            continue;
        }
        if (a[2 + n] == '=')
            value = a + 3 + n;
        else if (i + 1 < *argc)
            value = argv[++i];
        else
            value = "";
    }
    while (i < *argc)
        argv[out++] = argv[i++];
    argv[out] = NULL;
    *argc = out;
    return value;
}

/* Runs the schedule, assembling the image. Returns 0, or 1 after a message. */
static int run(dtss_master *m, image *im, int show)
{
    dtss_piece pc;
    int rc;
    long chunks = 0, last_chunk = -1;
    double t0 = clock_now();
    rows_all = mandel_lines(&im->p);
    while ((rc = dtss_master_next(m, &pc)) == DTSS_PIECE) {
        if (store(im, &pc) != 0) {
            if (pc.worker < 0)          /* a resumed run's journal: bad input */
                fprintf(stderr, "coordinator: the journal %s holds %zu bytes for %s [%ld, "
                        "%ld) (or them twice): not this image's (a damaged journal)\n",
                        quote(journal_path), pc.len, mandel_loop_name(&im->p), pc.start,
                        pc.start + pc.size);
            else
                fprintf(stderr, "coordinator: worker %d sent %zu bytes for %s [%ld, %ld) "
                        "(or one twice)\n", pc.worker + 1, pc.len, mandel_loop_name(&im->p),
                        pc.start, pc.start + pc.size);
            return pc.worker < 0 ? 2 : 1;
        }
        rows_in = im->rows_done;
        chunks += pc.chunk != last_chunk;
        last_chunk = pc.chunk;
        if (show)
            progress(im, chunks, t0, 0);
    }
    if (show)
        progress(im, chunks, t0, 1);
    if (rc != DTSS_DONE) {
        fprintf(stderr, "coordinator: %s\n", dtss_master_errmsg(m));
        if (resume_hint[0] && access(journal_path, F_OK) == 0)
            fprintf(stderr, "coordinator: %s\n", resume_hint);
        return 1;
    }
    if (im->rows_done != mandel_lines(&im->p)) {
        fprintf(stderr, "coordinator: %ld of %ld %s came back\n", im->rows_done,
                mandel_lines(&im->p), mandel_loop_name(&im->p));
        return 1;
    }
    return 0;
}

/* Removes the earlier output at path if it is a file (or a symbolic link,
 * which the output replaces too); "none" and "-" are no file. */
static void remove_file(const char *path)
{
    struct stat st;
    if (strcmp(path, "none") != 0 && strcmp(path, "-") != 0 && lstat(path, &st) == 0 &&
        (S_ISREG(st.st_mode) || S_ISLNK(st.st_mode)))
        unlink(path);
}

/* The outputs: image, record (with the image's fields), summary. Each file
 * is written whole or not at all (mandel_write_pgm, dtss_master_write_record):
 * a full disk leaves no part of an image. */
static int outputs(dtss_master *m, const image *im, const char *out,
                   const char *record_path, int quiet)
{
    char msg[256], text[32], sum[24];
    int rc = 0;
    if (strcmp(out, "none") != 0 &&
        mandel_write_pgm(out, &im->p, im->counts, msg, sizeof msg) != 0) {
        fprintf(stderr, "coordinator: %s\n", msg);
        rc = 1;
    }
    size_t npix = (size_t)im->p.width * (size_t)im->p.height;
    snprintf(sum, sizeof sum, "%016llx",
             (unsigned long long)mandel_checksum(im->counts, npix));
    snprintf(text, sizeof text, "%d", im->p.width);
    dtss_master_field(m, "width", text);
    snprintf(text, sizeof text, "%d", im->p.height);
    dtss_master_field(m, "height", text);
    snprintf(text, sizeof text, "%lu", (unsigned long)im->p.maxiter);
    dtss_master_field(m, "maxiter", text);
    dtss_master_field(m, "loop", mandel_loop_name(&im->p));
    dtss_master_field(m, "checksum", sum);
    if (strcmp(record_path, "none") != 0 &&
        dtss_master_write_record(m, record_path) != DTSS_OK) {
        fprintf(stderr, "coordinator: %s\n", dtss_master_errmsg(m));
        rc = 1;
    }
    dtss_master_summary(m, stdout);
    if (!quiet)
        printf("checksum %s replans %d\n", sum, dtss_master_replans(m));
    return rc;                  /* standard output: checked at exit (closeout) */
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"size", required_argument, NULL, 'S'},
        {"width", required_argument, NULL, 'W'},
        {"height", required_argument, NULL, 'H'},
        {"maxiter", required_argument, NULL, 'm'},
        {"out", required_argument, NULL, 'o'},
        {"record", required_argument, NULL, 'r'},
        {"quiet", no_argument, NULL, 'q'},
        {"keep-journal", no_argument, NULL, 'k'},
        {"columns", no_argument, NULL, 'c'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    image im = {0};
    mandel_defaults(&im.p);
    const char *out = "image.pgm", *record_path = "run.csv";
    int quiet = 0, c, rc, keep_journal = 0, record_given = 0;
    int width_given = 0, height_given = 0, maxiter_given = 0, columns_given = 0;
    long maxiter;

    closeout_init("coordinator");
    dtss_master *m = dtss_master_new();
    if (!m) {
        fail("out of memory");
        return 1;
    }
    dtss_master_set(m, "worker", "worker");
    dtss_master_set(m, "sample", "4");
    /* --resume RECORD is ours (the runtime's --resume names the journal). */
    const char *resume = take_option(&argc, argv, "resume");
    const char *journal = take_option(&argc, argv, "journal");
    if (journal && strcmp(journal, "none") != 0) {
        dtss_master_free(m);
        return fail("--journal '%s': the journal is RECORD.journal, for --resume RECORD "
                    "(--journal none: no journal)", quote(journal));
    }
    if (resume && journal) {
        dtss_master_free(m);
        return fail("--journal with --resume: a resumed run appends to the journal it "
                    "resumes");
    }
    if (resume && !*resume) {
        dtss_master_free(m);
        return fail("option '--resume' needs a value: the broken run's record");
    }
    if (resume) {
        snprintf(journal_path, sizeof journal_path, "%s.journal", resume);
        if ((rc = dtss_master_set(m, "resume", journal_path)) != DTSS_OK) {
            fprintf(stderr, "coordinator: %s%s\n", dtss_master_errmsg(m),
                    rc == DTSS_ENOENT ? " (nothing to resume: a run leaves its journal "
                    "when it breaks, if it had a record file)" : "");
            dtss_master_free(m);
            return status_of(rc);
        }
        record_path = resume;
    }
    if ((rc = dtss_master_args(m, &argc, argv)) != DTSS_OK) {
        fail("%s", dtss_master_errmsg(m));
        dtss_master_free(m);
        return status_of(rc);
    }
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":s:R:S:W:H:m:o:r:qh", opts, NULL)) != -1) {
        rc = 0;
        switch (c) {
        case 's':
        case 'R':
            if ((rc = dtss_master_set(m, c == 's' ? "scheme" : "sample", optarg)) != DTSS_OK) {
                fail("%s", dtss_master_errmsg(m));
                rc = status_of(rc);
            }
            break;
        case 'S':
            if (parse_int_in(optarg, 1, INT_MAX, &im.p.width) != 0)
                rc = fail("--size '%s' must be an integer in [1, %d]", quote(optarg), INT_MAX);
            im.p.height = im.p.width;
            width_given = height_given = 1;
            break;
        case 'W':
            if (parse_int_in(optarg, 1, INT_MAX, &im.p.width) != 0)
                rc = fail("--width '%s' must be an integer in [1, %d]", quote(optarg), INT_MAX);
            width_given = 1;
            break;
        case 'H':
            if (parse_int_in(optarg, 1, INT_MAX, &im.p.height) != 0)
                rc = fail("--height '%s' must be an integer in [1, %d]", quote(optarg), INT_MAX);
            height_given = 1;
            break;
        case 'm':
            if (parse_long_in(optarg, 1, UINT32_MAX, &maxiter) != 0)
                rc = fail("--maxiter '%s' must be an integer in [1, %u]", quote(optarg),
                          UINT32_MAX);
            im.p.maxiter = (uint32_t)maxiter;
            maxiter_given = 1;
            break;
        case 'o': out = optarg; break;
        case 'r': record_path = optarg; record_given = 1; break;
        case 'k': keep_journal = 1; break;
        case 'c': im.p.columns = columns_given = 1; break;
        case 'q': quiet = 1; break;
        case 'h':
            usage(stdout);
            dtss_master_free(m);
            return 0;
        default:
            rc = parse_getopt_error("coordinator", c, argv);
        }
        if (rc) {
            dtss_master_free(m);
            return rc;
        }
    }
    char msg[256], job[MANDEL_JOB_MAX], rows[32];
    rc = 0;
    if (optind < argc)
        rc = fail("unexpected argument '%s' (try --help)", quote(argv[optind]));
    else if (resume) {                  /* the image is the journal's */
        size_t len;
        const char *saved = dtss_master_get_job(m, &len);
        mandel_params jp;
        if (record_given && strcmp(record_path, resume) != 0)
            rc = fail("--resume %s writes its record there, not to -r %s", quote(resume),
                      quote(record_path));
        else if (mandel_decode(&jp, saved, len, msg, sizeof msg) != 0)
            rc = fail("--resume %s: its journal's job is not an image's: %s", quote(resume),
                      msg);
        else if ((width_given && im.p.width != jp.width) ||
                 (height_given && im.p.height != jp.height))
            rc = fail("--resume %s: the broken run's image is %dx%d, not %dx%d (no need "
                      "to repeat its size)", quote(resume), jp.width, jp.height, im.p.width,
                      im.p.height);
        else if (maxiter_given && im.p.maxiter != jp.maxiter)
            rc = fail("--resume %s: the broken run's maxiter is %lu, not %lu (no need to "
                      "repeat it)", quote(resume), (unsigned long)jp.maxiter,
                      (unsigned long)im.p.maxiter);
        else if (columns_given && !jp.columns)
            rc = fail("--resume %s: the broken run's loop is over rows, not columns (no "
                      "need to repeat it)", quote(resume));
        else if ((rc = dtss_master_result_bytes(m, 4L * mandel_line_len(&jp))) != DTSS_OK ||
                 (rc = dtss_master_check(m)) != DTSS_OK) {
            fail("%s", dtss_master_errmsg(m));
            rc = status_of(rc);
        }
        else
            im.p = jp;
    } else if (mandel_check(&im.p, msg, sizeof msg) != 0)
        rc = fail("%s", msg);
    else {
        snprintf(rows, sizeof rows, "%ld", mandel_lines(&im.p));
        int n = mandel_encode(&im.p, job, sizeof job);
        if ((rc = dtss_master_set(m, "iterations", rows)) != DTSS_OK ||
            (rc = dtss_master_job(m, job, (size_t)n)) != DTSS_OK ||
            (rc = dtss_master_result_bytes(m, 4L * mandel_line_len(&im.p))) != DTSS_OK ||
            (rc = dtss_master_check(m)) != DTSS_OK) {
            fail("%s", dtss_master_errmsg(m));
            rc = status_of(rc);
        }
    }
    if (!rc && !resume && !journal && strcmp(record_path, "none") != 0 &&
        strcmp(record_path, "-") != 0) {
        snprintf(journal_path, sizeof journal_path, "%s.journal", record_path);
        if ((rc = dtss_master_set(m, "journal", journal_path)) != DTSS_OK) {
            fail("%s", dtss_master_errmsg(m));
            rc = status_of(rc);
        }
    }
    if (!rc && !resume && journal_path[0] && access(journal_path, F_OK) == 0)
        fprintf(stderr, "coordinator: %s, a broken run's journal, is replaced by this "
                "run's (--resume %s would have continued that run)\n", quote(journal_path),
                quote(record_path));
    if (journal_path[0])
        snprintf(resume_hint, sizeof resume_hint, "the rows in so far are in %s: "
                 "coordinator --resume %s continues the run", quote(journal_path),
                 quote(record_path));
    if (rc) {
        dtss_master_free(m);
        return rc;
    }
    /* The outputs can be written: checked before PVM is contacted. */
    if (closeout_output("--out", out, 1) || closeout_output("--record", record_path, 1)) {
        dtss_master_free(m);
        return 1;
    }
    size_t npix = (size_t)im.p.width * (size_t)im.p.height;
    im.counts = calloc(npix, sizeof *im.counts);
    im.line = calloc((size_t)mandel_line_len(&im.p), sizeof *im.line);
    im.row_done = calloc((size_t)mandel_lines(&im.p), 1);
    if (!im.counts || !im.line || !im.row_done) {
        dtss_master_free(m);
        fail("out of memory for a %dx%d image", im.p.width, im.p.height);
        return 1;
    }
    /* An earlier run's outputs go now: whatever ends this run, none of them
     * can pass for its own. Only files: a device (/dev/null, /dev/full) or a
     * pipe named as the output stays. */
    remove_file(out);
    remove_file(record_path);
    struct sigaction sa = {.sa_handler = interrupted};
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    dtss_master_log(m, stderr, "coordinator", !quiet);
    if ((rc = dtss_master_start(m)) != DTSS_OK) {
        fprintf(stderr, "coordinator: %s\n", dtss_master_errmsg(m));
        rc = status_of(rc);
    } else if ((rc = run(m, &im, !quiet && isatty(STDERR_FILENO))) == 0) {
        /* The run is complete: Ctrl-C no longer ends it (the handler would
         * say nothing was written, and leave a file half-written). */
        sigset_t block;
        sigemptyset(&block);
        sigaddset(&block, SIGINT);
        sigaddset(&block, SIGTERM);
        sigprocmask(SIG_BLOCK, &block, NULL);
        rc = outputs(m, &im, out, record_path, quiet);
        if (rc == 0 && journal_path[0] && !keep_journal)
            unlink(journal_path);       /* the run is complete and safe */
        else if (rc != 0 && journal_path[0] && access(journal_path, F_OK) == 0)
            fprintf(stderr, "coordinator: %s\n", resume_hint);
    }
    dtss_master_free(m);
    free(im.counts);
    free(im.line);
    free(im.row_done);
    return rc;
}
