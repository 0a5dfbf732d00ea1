/* record.c: bin/record, named fields of a run record (sched/records/record.h)
 * as CSV, for the scripts: they ask for fields by name, never by position.
 *
 *   record FILE KIND FIELD[,FIELD...]   one CSV line per line of that kind
 *   record FILE KIND FIELDS KIND FIELDS...   several kinds in one reading:
 *                                       each line starts with its KIND
 *   record --count FILE KIND            how many lines of that kind
 *
 * The file is checked whole by record_read first (the one reader, which
 * shares its schema with the writer); then every line of KIND prints its
 * fields in the order asked, with the text as stored: the writer's numbers
 * come back byte for byte (times %.6f, A_i and V %g), an empty field (a
 * worker without chunks has no finish, a chunk not done no worker times)
 * stays empty. Fields are found by the names of the file's header lines.
 * For KIND run, a name outside the schema is a workload field (key=value
 * after the run line's own fields: width, height, maxiter, checksum,
 * workload, ...); an absent one prints empty.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "sched/records/record.h"
#include "sched/util/closeout.h"
#include "sched/util/lines.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

#define MAXASK 32               /* fields asked at once, of one kind */
#define MAXCOLS 64              /* columns of a line (record_read's bound) */

static const char *const kinds[] = {"run", "worker", "report", "chunk", NULL};

static void usage(FILE *f)
{
    fprintf(f,
"usage: record FILE KIND FIELD[,FIELD...] [KIND FIELD[,FIELD...]]...\n"
"       record --count FILE KIND\n"
"\n"
"Prints the named fields of every KIND line of the run record FILE\n"
"(bin/coordinator --record, bin/sim --record; sched/records/record.h) as\n"
"CSV, one line per record line, in the order asked, the text as stored (an\n"
"empty field stays empty). FILE is checked whole first; FILE cannot be '-'.\n"
"For KIND run, a name outside the schema is a workload field (key=value:\n"
"width, height, maxiter, checksum, workload, ...), empty when absent.\n"
"With several KIND FIELDS pairs (each kind once), the lines of those kinds\n"
"come in the file's order, each starting with its KIND: one reading of FILE\n"
"for what would take a call each.\n"
"\n"
"      --count   print the number of KIND lines instead\n"
"  -h, --help    this help\n"
"\n"
"Exit status: 0; 1 when standard output could not be written (said); 2 for bad\n"
"input: bad usage (an unknown kind or field), or a file that is not a readable\n"
"run record (the message names FILE:LINE).\n"
"\nkinds and their fields:\n");
    for (int k = 0; kinds[k]; k++) {
        const char *const *col = record_columns(kinds[k]);
        fprintf(f, "  %-7s", kinds[k]);
        for (int i = 0; col[i]; i++)
            fprintf(f, "%s%s", i ? "," : " ", col[i]);
        fprintf(f, "%s\n", k == 0 ? ", then workload KEYs" : "");
    }
}

#define fail(...) parse_fail("record", __VA_ARGS__)

/* "a, b, c": the names of list (NULL-terminated), for error messages. */
static const char *names(const char *const *list, char *buf, size_t len)
{
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; list[i] && at < len; i++)
        at += (size_t)snprintf(buf + at, len - at, "%s%s", i ? ", " : "", list[i]);
    return buf;
}

static int in_list(const char *const *list, const char *s)
{
    for (int i = 0; list[i]; i++)
        if (strcmp(list[i], s) == 0)
            return 1;
    return 0;
}

/* A workload key as record_field accepts it: letters, digits, '_-.'. */
static int key_ok(const char *s)
{
    if (!*s)
        return 0;
    for (; *s; s++)
        if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                     "0123456789_-.", *s))
            return 0;
    return 1;
}

/* Splits the FIELD list into ask[] and checks every name against the kind's
 * schema. Returns the number of names, or -1 after a message. */
static int ask_fields(char *list, const char *kind, char **ask)
{
    const char *const *cols = record_columns(kind);
    int n = lines_split(list, ",", ask, MAXASK);
    if (n < 0) {
        fail("more than %d fields asked", MAXASK);
        return -1;
    }
    char buf[512];
    for (int i = 0; i < n; i++) {
        if (in_list(cols, ask[i]))
            continue;
        if (strcmp(kind, "run") == 0 && key_ok(ask[i]))
            continue;                               /* a workload field */
        fail("%s has no field '%s' (valid: %s%s)", kind, quote(ask[i]),
             names(cols, buf, sizeof buf),
             strcmp(kind, "run") == 0 ? ", or a workload key" : "");
        return -1;
    }
    return n;
}

/* What is asked of one kind: its fields, and where each is in the kind's
 * header (0 for a workload field, from the record). */
typedef struct {
    const char *kind;
    char *ask[MAXASK];
    int n;
    int at[MAXASK];
} asked;

/* Prints the asked fields of every line of the kinds in q[0..nq) of path
 * (already checked by record_read), as stored; with more than one kind,
 * each line starts with its kind. Returns the number of lines, or -1 after
 * a message. */
static long print_lines(const char *path, asked *q, int nq, const record *r, int count_only)
{
    char msg[400];
    lines in;
    if (lines_open(&in, path, msg, sizeof msg) != 0) {
        fprintf(stderr, "record: %s\n", msg);
        return -1;
    }
    long count = 0;
    char *line, *f[MAXCOLS + RECORD_MAX_FIELDS];
    while ((line = lines_next(&in))) {
        int header = line[0] == '#';
        if (!header && lines_blank(line))
            continue;
        int nf = lines_split(line + header, ",", f, MAXCOLS + RECORD_MAX_FIELDS);
        asked *a = NULL;
        for (int k = 0; nf >= 1 && k < nq && !a; k++)
            if (strcmp(f[0], q[k].kind) == 0)
                a = &q[k];
        if (!a)
            continue;
        if (header) {                   /* where each asked field is */
            for (int i = 0; i < a->n; i++) {
                a->at[i] = 0;
                for (int j = 1; j < nf && !a->at[i]; j++)
                    if (strcmp(f[j], a->ask[i]) == 0)
                        a->at[i] = j;
            }
            continue;
        }
        count++;
        if (!count_only && nq > 1)
            printf("%s,", a->kind);
        for (int i = 0; i < a->n && !count_only; i++) {
            const char *v = a->at[i] && a->at[i] < nf ? f[a->at[i]] : record_get(r, a->ask[i]);
            printf("%s%s", i ? "," : "", v ? v : "");
        }
        if (!count_only) {
            printf("\n");
            closeout_check();
        }
    }
    if (lines_error(&in)) {
        fprintf(stderr, "record: %s\n", in.msg);
        count = -1;
    }
    lines_close(&in);
    return count;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"count", no_argument, NULL, 1001},
        {"help", no_argument, NULL, 'h'},
        {0},
    };
    int count_only = 0, c;
    closeout_init("record");
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":h", opts, NULL)) != -1) {
        switch (c) {
        case 1001: count_only = 1; break;
        case 'h': usage(stdout); return 0;
        default: return parse_getopt_error("record", c, argv);
        }
    }
    int want = count_only ? 2 : 3, nargs = argc - optind;
    if (nargs < want)
        return fail("needs FILE KIND%s (try --help)", count_only ? "" : " FIELD[,FIELD...]");
    if (count_only ? nargs > want : nargs % 2 == 0)
        return fail("%s '%s' (try --help)", count_only ? "unexpected argument" :
                    "a KIND without its FIELDS:", quote(argv[argc - 1]));
    const char *path = argv[optind];
    if (strcmp(path, "-") == 0)
        return fail("FILE '-': the record is read twice, give a file");
    char buf[512];
    int nq = count_only ? 1 : (nargs - 1) / 2;
    asked q[sizeof kinds / sizeof kinds[0] - 1];    /* (each kind once) */
    if (nq > (int)(sizeof q / sizeof q[0]))
        return fail("more KIND FIELDS pairs than kinds (%s), each asked once",
                    names(kinds, buf, sizeof buf));
    for (int k = 0; k < nq; k++) {
        const char *kind = argv[optind + 1 + 2 * k];
        if (!record_columns(kind))
            return fail("unknown kind '%s' (valid: %s)", quote(kind), names(kinds, buf, sizeof buf));
        for (int j = 0; j < k; j++)
            if (strcmp(q[j].kind, kind) == 0)
                return fail("kind '%s' asked twice: give its fields once", quote(kind));
        q[k].kind = kind;
        q[k].n = 0;
        if (!count_only && (q[k].n = ask_fields(argv[optind + 2 + 2 * k], kind, q[k].ask)) < 0)
            return 2;
    }

    record r;
    char msg[400];
    if (record_read(&r, path, msg, sizeof msg) != 0) {
        fprintf(stderr, "record: %s\n", msg);
        return 2;
    }
    long nlines = print_lines(path, q, nq, &r, count_only);
    record_free(&r);
    if (nlines < 0)
        return 2;                       /* the file, read again, failed: bad input */
    if (count_only)
        printf("%ld\n", nlines);
    return 0;                           /* standard output: checked at exit */
}
