/* netpipe.c: bin/netpipe, NetPIPE's measurement of a link (Snell, Mikler &
 * Gustafson, "NetPIPE: a network protocol independent performance
 * evaluator", 1996) made over PVM: a ping-pong of messages of every size
 * from 1 byte to --max, the time of one message each way and the
 * throughput, then C_t = a + b m, the model of a migration's cost in Yoon
 * et al. Sec. 4.2 (their Figs. 8-9, C_t = 242 + 235 m from NetPIPE on a 10
 * Mbit/s Ethernet), as Hockney's latency-bandwidth model: a, the latency,
 * is the 1-byte message's time; b, the time a byte, the slope of the
 * least-squares line (gsl_fit_linear) through the long messages, those of
 * at least 1/16 of the largest. One line through every size fits neither
 * end: the sizes span six decades, unweighted the longest set the line
 * alone (its intercept came out at -492 us on the emulated 10 Mbit/s link),
 * and weighted by 1/t^2 the middle sizes, which a token-bucket link passes
 * faster than its rate, made b 40% too small there.
 *
 *   netpipe [--to HOST] [--max BYTES] [-o FILE] ...      (on a running PVM)
 *
 * This task sends, the echo task (a copy of this program spawned on HOST,
 * anywhere when not given) answers each message with the same bytes. On the
 * emulated cluster `scripts/cluster run w1 bin/netpipe --to w2` measures the
 * link from w1 to w2 (each host's port to the bridge, both shaped by the
 * hostfile's link line, docs/cluster.md).
 *
 * As NetPIPE: the sizes are 1, 2, 3, then every power of two from 4 and its
 * neighbours at +-3 bytes (--perturbation); for each size --trials trials of
 * r round trips, r chosen from the previous size so that a trial lasts about
 * --time seconds; the time of a size is the least trial's, divided by 2r (one
 * way). Messages travel by PVM's direct route (TCP between the two tasks, as
 * the runtime's master uses) unless --route daemon (through both pvmds).
 * Output: CSV "bytes,seconds,mbps,repeats", one line per size, then '#'
 * lines (gnuplot skips them) with the fit and the largest throughput, which
 * also go to stderr.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_fit.h>
#include <pvm3.h>

#include "sched/util/closeout.h"
#include "sched/util/outfile.h"
#include "sched/util/conv.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

#define PROG "netpipe"
/* Its own two tags (a PVM program, apart from libdtss): the echo's bytes,
 * and the echo task's exit (pvm_notify). */
enum { TAG_PING = 1, TAG_STOP = 2, TAG_EXIT = 3 };

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static const char *pvm_text(int rc)
{
    extern char *pvm_errlist[];
    extern int pvm_nerr;
    return rc < 0 && -rc < pvm_nerr && pvm_errlist[-rc] ? pvm_errlist[-rc] : "unknown PVM error";
}

/* n bytes to tid, as libdtss's transport sends a message (PvmDataInPlace). */
static int send_bytes(int tid, int tag, const void *data, size_t n, char *msg, size_t len)
{
    int rc = pvm_initsend(PvmDataInPlace);
    if (rc >= 0 && n > 0)
        rc = pvm_pkbyte((char *)data, (int)n, 1);
    if (rc >= 0)
        rc = pvm_send(tid, tag);
    if (rc < 0)
        snprintf(msg, len, "pvm_send to t%x: %s", tid, pvm_text(rc));
    return rc < 0 ? -1 : 0;
}

/* The next PING's bytes into buf (at most cap): *n. 1, 0 on another tag
 * (*tag), -1 with msg. */
static int recv_bytes(void *buf, size_t cap, size_t *n, int *tag, char *msg, size_t len)
{
    int bufid = pvm_recv(-1, -1), bytes, src;
    if (bufid < 0 || pvm_bufinfo(bufid, &bytes, tag, &src) < 0) {
        snprintf(msg, len, "pvm_recv: %s", pvm_text(bufid));
        return -1;
    }
    if (*tag != TAG_PING)
        return 0;
    if (bytes < 0 || (size_t)bytes > cap) {
        snprintf(msg, len, "a PING of %d bytes (at most %zu expected)", bytes, cap);
        return -1;
    }
    int rc = bytes > 0 ? pvm_upkbyte(buf, bytes, 1) : 0;
    if (rc < 0) {
        snprintf(msg, len, "unpacking a PING: %s", pvm_text(rc));
        return -1;
    }
    *n = (size_t)bytes;
    return 1;
}
#define MAX_BYTES (64L << 20)
#define MAX_SIZES 256

static void usage(FILE *f)
{
    fprintf(f,
"usage: netpipe [--to HOST] [--max BYTES] [--trials N] [--time S]\n"
"               [--perturbation P] [--route direct|daemon] [-o FILE] [-q]\n"
"\n"
"Measures the PVM link between this task and an echo task spawned on HOST\n"
"(NetPIPE's ping-pong): for message sizes 1, 2, 3, then the powers of two from\n"
"4 to BYTES and their neighbours at +-P bytes, the time of one message one\n"
"way (the least of N trials of round trips, halved) and the throughput; then\n"
"C_t = a + b m: a the 1-byte message's time, b the slope of the least-squares\n"
"line (GSL's gsl_fit_linear) through the messages of 1/16 of BYTES and more.\n"
"Run it inside a host of the emulated cluster with\n"
"  scripts/cluster run w1 bin/netpipe --to w2 -o w1-w2.csv\n"
"\n"
"options:\n"
"  -t, --to HOST          where the echo task runs (default: where PVM puts it)\n"
"  -m, --max BYTES        the largest message, 1 .. %ld (default 1048576)\n"
"  -n, --trials N         trials per size, the least kept, 1 .. 100 (default 3)\n"
"  -s, --time S           seconds a trial aims at, (0, 60] (default 0.1)\n"
"  -p, --perturbation P   the neighbours of each power of two, 0 .. 1000\n"
"                         bytes (default 3; 0: powers of two only)\n"
"  -r, --route ROUTE      direct (TCP task to task, default) or daemon\n"
"  -o, --output FILE      the CSV (default: standard output)\n"
"  -q, --quiet            no progress lines on stderr\n"
"  -h, --help             this help\n"
"output: bytes,seconds,mbps,repeats per size; '#' lines: the fit, the most\n"
"        throughput. exit status: 0 done; 1 PVM failed, or the output could not be\n"
"        written (said; no part of a file is left); 2 a bad option, an unknown host\n",
            MAX_BYTES);
}

/* The echo task: answers every PING from its parent with the same bytes,
 * until STOP (or its parent goes). */
static int echo(long max)
{
    int parent = pvm_parent();
    char msg[256];
    unsigned char *buf = malloc((size_t)max);
    if (!buf)
        return 1;
    pvm_notify(PvmTaskExit, TAG_EXIT, 1, &parent);
    for (;;) {
        size_t n;
        int tag, got = recv_bytes(buf, (size_t)max, &n, &tag, msg, sizeof msg);
        if (got == 0)
            break;                          /* STOP, or the parent went */
        if (got < 0 || send_bytes(parent, TAG_PING, buf, n, msg, sizeof msg) < 0) {
            fprintf(stderr, PROG " (echo): %s\n", msg);
            free(buf);
            return 1;
        }
    }
    free(buf);
    return 0;
}

/* NetPIPE's sizes up to max, increasing, without repeats; returns how many. */
static int sizes(long max, long pert, long *out)
{
    int n = 0;
    for (long s = 1; s <= 3 && s <= max; s++)
        out[n++] = s;
    for (long p2 = 4; p2 <= max && n < MAX_SIZES - 3; p2 *= 2) {
        long c[3] = {p2 - pert, p2, p2 + pert};
        for (int k = 0; k < 3; k++)
            if (c[k] > out[n - 1] && c[k] <= max && (k == 1 || pert > 0))
                out[n++] = c[k];
    }
    return n;
}

/* r round trips of n bytes with tid; returns the seconds, or -1 with msg. */
static double trial(int tid, unsigned char *buf, long n, long r, char *msg, size_t len)
{
    double t0 = now();
    for (long i = 0; i < r; i++) {
        size_t got;
        int tag = 0, k;
        if (send_bytes(tid, TAG_PING, buf, (size_t)n, msg, len) < 0)
            return -1;
        if ((k = recv_bytes(buf, (size_t)n, &got, &tag, msg, len)) < 0)
            return -1;
        if (k == 0) {
            snprintf(msg, len, "the echo task went (a message of tag %d instead of PING)", tag);
            return -1;
        }
        if ((long)got != n) {
            snprintf(msg, len, "PING of %zu bytes came back for %ld", got, n);
            return -1;
        }
    }
    return now() - t0;
}

typedef struct opts {
    const char *to, *out;
    long max, pert;
    int trials, quiet, direct;
    double time;
} opts;

/* The measurement proper, with the echo task tid; writes the CSV to f. */
static int measure(const opts *o, int tid, FILE *f)
{
    static long size[MAX_SIZES];
    static double x[MAX_SIZES], y[MAX_SIZES];
    char msg[256];
    int ns = sizes(o->max, o->pert, size);
    unsigned char *buf = malloc((size_t)o->max);
    if (!buf) {
        fprintf(stderr, PROG ": out of memory for %ld bytes\n", o->max);
        return 1;
    }
    memset(buf, 0x5a, (size_t)o->max);
    /* Warm-up: the route is made and both tasks are running. */
    double last = trial(tid, buf, 1, 10, msg, sizeof msg);
    if (last < 0) {
        fprintf(stderr, PROG ": %s\n", msg);
        free(buf);
        return 1;
    }
    last /= 20;
    fprintf(f, "bytes,seconds,mbps,repeats\n");
    double best_mbps = 0;
    long best_at = 0;
    for (int i = 0; i < ns; i++) {
        long n = size[i];
        double guess = last * (double)n / (double)(i ? size[i - 1] : 1);
        /* repeats filling --time, 1 to 100000 */
        long r = conv_clamp(o->time / (2 * (guess > 1e-7 ? guess : 1e-7)), 1, 100000);
        double least = INFINITY;
        for (int k = 0; k < o->trials; k++) {
            double t = trial(tid, buf, n, r, msg, sizeof msg);
            if (t < 0) {
                fprintf(stderr, PROG ": %ld bytes: %s\n", n, msg);
                free(buf);
                return 1;
            }
            least = t < least ? t : least;
        }
        last = least / (2.0 * (double)r);
        double mbps = (double)n * 8 / last / 1e6;
        if (mbps > best_mbps)
            best_mbps = mbps, best_at = n;
        x[i] = (double)n;
        y[i] = last * 1e6;
        fprintf(f, "%ld,%.9f,%.4f,%ld\n", n, last, mbps, r);
        fflush(f);
        if (!o->quiet)
            fprintf(stderr, PROG ": %8ld bytes  %12.1f us  %9.3f Mbit/s  (%ld round trips x %d)\n",
                    n, last * 1e6, mbps, r, o->trials);
    }
    free(buf);
    double a = y[0], b, c0, c00, c01, c11, sumsq;
    char line[3][320];
    snprintf(line[0], sizeof line[0], "the most throughput: %.3f Mbit/s (%ld-byte messages); "
             "with the largest message: %.3f Mbit/s", best_mbps, best_at, x[ns - 1] * 8 / y[ns - 1]);
    int from = 0;                       /* the long messages: >= largest / 16 */
    while (from < ns - 1 && x[from] < x[ns - 1] / 16)
        from++;
    if (ns - from < 2 && from > 0)
        from = ns - 2;
    if (ns >= 2 && gsl_fit_linear(x + from, 1, y + from, 1, (size_t)(ns - from), &c0, &b, &c00,
                                  &c01, &c11, &sumsq) == 0) {
        snprintf(line[1], sizeof line[1], "fit: C_t = %.1f + %.5f m us (m in bytes; a: the "
                 "1-byte time; b: gsl_fit_linear over the %d sizes of %ld to %ld bytes)", a, b,
                 ns - from, size[from], size[ns - 1]);
        snprintf(line[2], sizeof line[2], "fit: latency a = %.1f us, bandwidth 8 / b = %.3f "
                 "Mbit/s; the long messages' line: %.1f + %.5f m us", a,
                 b > 0 ? 8 / b : INFINITY, c0, b);
    } else {
        snprintf(line[1], sizeof line[1], "fit: none (one size only)");
        line[2][0] = '\0';
    }
    for (int k = 0; k < 3; k++)
        if (line[k][0]) {
            fprintf(f, "# %s\n", line[k]);
            fprintf(stderr, PROG ": %s\n", line[k]);
        }
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option longopts[] = {
        {"to", required_argument, NULL, 't'},
        {"max", required_argument, NULL, 'm'},
        {"trials", required_argument, NULL, 'n'},
        {"time", required_argument, NULL, 's'},
        {"perturbation", required_argument, NULL, 'p'},
        {"route", required_argument, NULL, 'r'},
        {"output", required_argument, NULL, 'o'},
        {"quiet", no_argument, NULL, 'q'},
        {"echo", required_argument, NULL, 'E'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    opts o = {.max = 1L << 20, .pert = 3, .trials = 3, .time = 0.1, .direct = 1};
    long echo_max = 0;
    int c;
    closeout_init(PROG);
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":t:m:n:s:p:r:o:qh", longopts, NULL)) != -1) {
        switch (c) {
        case 't':
            if (!*optarg || strlen(optarg) > 63)
                return parse_fail(PROG, "--to '%s' must be a host name of 1 to 63 characters", quote(optarg));
            o.to = optarg;
            break;
        case 'm':
            if (parse_long_in(optarg, 1, MAX_BYTES, &o.max) != 0)
                return parse_fail(PROG, "--max '%s' must be a whole number of bytes in [1, %ld]",
                                  quote(optarg), MAX_BYTES);
            break;
        case 'E':
            if (parse_long_in(optarg, 1, MAX_BYTES, &echo_max) != 0)
                return parse_fail(PROG, "--echo '%s' must be in [1, %ld]", quote(optarg), MAX_BYTES);
            break;
        case 'n':
            if (parse_int_in(optarg, 1, 100, &o.trials) != 0)
                return parse_fail(PROG, "--trials '%s' must be a whole number in [1, 100]", quote(optarg));
            break;
        case 's':
            if (parse_double(optarg, &o.time) != 0 || !(o.time > 0) || o.time > 60)
                return parse_fail(PROG, "--time '%s' must be seconds in (0, 60]", quote(optarg));
            break;
        case 'p':
            if (parse_long_in(optarg, 0, 1000, &o.pert) != 0)
                return parse_fail(PROG, "--perturbation '%s' must be a whole number in [0, 1000]",
                                  quote(optarg));
            break;
        case 'r':
            if (strcmp(optarg, "direct") != 0 && strcmp(optarg, "daemon") != 0)
                return parse_fail(PROG, "--route '%s' must be direct or daemon", quote(optarg));
            o.direct = strcmp(optarg, "direct") == 0;
            break;
        case 'o':
            o.out = optarg;
            break;
        case 'q':
            o.quiet = 1;
            break;
        case 'h':
            usage(stdout);
            return 0;
        default:
            return parse_getopt_error(PROG, c, argv);
        }
    }
    if (optind < argc)
        return parse_fail(PROG, "unexpected argument '%s' (see --help)", quote(argv[optind]));
    if (!echo_max && closeout_output("--output", o.out, 0))    /* before PVM */
        return 1;
    pvm_setopt(PvmAutoErr, 0);
    if (pvm_mytid() < 0) {
        fprintf(stderr, PROG ": no PVM daemon here (start one: pvm, or make cluster-up)\n");
        return 1;
    }
    if (echo_max) {
        int rc = echo(echo_max);
        pvm_exit();
        return rc;
    }
    outfile of;                 /* the CSV, whole or not at all */
    char msg[300];
    if (outfile_open(&of, o.out ? o.out : "-", "w") != 0) {
        fprintf(stderr, PROG ": %s\n", outfile_msg(msg, sizeof msg, o.out ? o.out : "-", NULL, errno));
        pvm_exit();
        return 1;
    }
    FILE *f = of.f;
    if (o.direct)
        pvm_setopt(PvmRoute, PvmRouteDirect);
    char self[4096], flag[] = "--echo", maxtext[32];
    snprintf(maxtext, sizeof maxtext, "%ld", o.max);
    char *args[] = {flag, maxtext, NULL};
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    int tid, rc = 1;
    char where[64];
    snprintf(where, sizeof where, "%s", o.to ? o.to : "");
    if (pvm_spawn(self, args, o.to ? PvmTaskHost : PvmTaskDefault, where, 1, &tid) != 1) {
        fprintf(stderr, PROG ": cannot start the echo task%s%s: %s\n", o.to ? " on " : "",
                quote(where), pvm_text(tid));
        if (tid == PvmNoHost)
            rc = 2;                 /* --to an unknown host: bad input */
    } else {
        /* The echo task's exit ends a trial with a message, not a hang. */
        pvm_notify(PvmTaskExit, TAG_EXIT, 1, &tid);
        if (!o.quiet)
            fprintf(stderr, PROG ": t%x -> t%x%s%s, %s route, sizes 1 .. %ld bytes\n",
                    pvm_mytid(), tid, o.to ? " on " : "", quote(where),
                    o.direct ? "direct" : "daemon", o.max);
        rc = measure(&o, tid, f);
        send_bytes(tid, TAG_STOP, NULL, 0, msg, sizeof msg);
    }
    const char *call;
    if (rc != 0)
        outfile_abort(&of);     /* a failed run leaves no file */
    else if (outfile_close(&of, &call) != 0) {
        fprintf(stderr, PROG ": %s\n", outfile_msg(msg, sizeof msg, o.out ? o.out : "-",
                                                    call, errno));
        rc = 1;
    }
    pvm_exit();
    return rc;
}
