/* test_record.c: the run record's writer and reader (sched/records/record.c)
 * share one schema: what is written reads back the same, byte for byte; columns
 * are found by name; bad records are refused with the file and line named;
 * workload fields are checked. Also the line reader (sched/util/lines.c) and
 * the programs' number parsing and GSL error handler (sched/util/parse.c),
 * the whole-or-nothing output file (sched/util/outfile.c), the quoting of a
 * user's value into a message (sched/util/quote.c) and the check of standard
 * output (sched/util/closeout.c). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>

#include "sched/records/record.h"
#include "sched/util/closeout.h"
#include "sched/util/lines.h"
#include "sched/util/outfile.h"
#include "sched/util/conv.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"
#include "tests/test.h"

static char dir[] = "/tmp/dtss-test-record.XXXXXX";

static const char *path(const char *name)
{
    static char buf[4][256];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", dir, name);
    return buf[k];
}

static void put(const char *name, const char *text)
{
    FILE *f = fopen(path(name), "w");
    fputs(text, f);
    fclose(f);
}

static char *slurp(const char *p)
{
    FILE *f = fopen(p, "r");
    if (!f)
        return NULL;
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    return strdup(buf);
}

/* A small run: two workers, three chunks (one not done), two reports. */
static void sample(record *r)
{
    char msg[200];
    record_init(r, 2);
    snprintf(r->scheme, sizeof r->scheme, "dtss");
    r->iters = 10;
    r->sample = 4;
    r->t0 = 100;
    r->finish = 2.5;
    snprintf(r->date, sizeof r->date, "2026-11-23T10:00:00+0000");
    record_field(r, "width", "10", msg, sizeof msg);
    record_field(r, "checksum", "00ff", msg, sizeof msg);
    for (int w = 0; w < 2; w++) {
        char s[64];
        snprintf(s, sizeof s, "w%d", w + 1);
        record_text(&r->w[w].host, s, REC_HOST_MAX);
        record_text(&r->w[w].seen_host, s, REC_HOST_MAX);
        snprintf(r->w[w].backend, sizeof r->w[w].backend, "proc");
        snprintf(s, sizeof s, "/dtss/x/w%d", w + 1);
        record_text(&r->w[w].cgroup, s, REC_CGROUP_MAX);
        r->w[w].tid = 0x40001 + w;
        r->w[w].V = w + 1;
    }
    record_replan(r, 101.5, 2, 1.5);
    record_report(r, 0, 1, 1.0, 100.0);
    record_report(r, 1, 2, 1.0, 100.5);
    static const long starts[3] = {0, 6, 9}, sizes[3] = {6, 3, 1};
    for (int i = 0; i < 3; i++) {
        rec_chunk *c = record_chunk(r);
        *c = (rec_chunk){.id = i, .worker = i % 2, .start = starts[i], .size = sizes[i],
                         .acp = 1.5, .sent = 100 + i * 0.1, .reissue = i == 2};
        /* W_1 = 1.1000004, W_2 = 2.1000006: written 1.100000 and 2.100001;
         * the imbalance 1.0000002 is written 1.000000, not 2.100001 - 1.100000. */
        if (i < 2)
            record_done(r, c, 100.2 + i, 100.3 + i, 101 + i, i ? 102.1000006 : 101.1000004);
    }
}

static void test_round_trip(void)
{
    record r, back;
    char msg[300] = "";
    sample(&r);
    test_cond("write", record_write(&r, path("a.csv"), msg, sizeof msg) == 0);
    test_condf(record_read(&back, path("a.csv"), msg, sizeof msg) == 0, "read (%s)", msg);
    test_cond("workers, chunks, reports", back.nw == 2 && back.nchunks == 3 &&
              back.nreports == 2);
    test_cond("run line", strcmp(back.scheme, "dtss") == 0 && back.iters == 10 &&
              back.sample == 4 && back.finish == 2.5 && back.replans == 1);
    test_cond("workload fields by name", record_get(&back, "width") &&
              strcmp(record_get(&back, "width"), "10") == 0 &&
              strcmp(record_get(&back, "checksum"), "00ff") == 0 &&
              record_get(&back, "maxiter") == NULL);
    test_cond("re-plans: counted, listed with their times", back.replans == 1 &&
              back.replan[0].time > 1.49 && back.replan[0].time < 1.51 &&
              back.replan[0].workers == 2 && back.replan[0].A == 1.5);
    test_cond("worker totals from record_done", back.w[0].chunks == 1 &&
              back.w[0].iters == 6 && back.w[1].iters == 3);
    test_cond("the imbalance as written, not recomputed from rounded times",
              back.imbalance == 1.0 && record_imbalance(&back) == 1.0);
    test_cond("times relative to t0", back.chunks[1].received > 2.09 &&
              back.chunks[1].received < 2.11 && back.chunks[2].done == 0);
    test_cond("write again", record_write(&back, path("b.csv"), msg, sizeof msg) == 0);
    char *a = slurp(path("a.csv")), *b = slurp(path("b.csv"));
    test_cond("what is read writes back byte for byte", a && b && strcmp(a, b) == 0);
    free(a);
    free(b);
    record_free(&back);
    record_free(&r);
}

/* Columns by name: reordered and extra columns are fine. */
static void test_by_name(void)
{
    record r;
    char msg[300];
    put("c.csv",
        "#run,workers,scheme,iterations,sample,finish,imbalance,replans,date,extra\n"
        "run,1,tss,5,1,1.000000,0.000000,0,,x,mine=yes\n"
        "#worker,worker,host,seen_host,tid,V,backend,cgroup,chunks,iterations,finish\n"
        "worker,1,h,h,1,1,sim,c,1,5,1.000000\n"
        "#chunk,extra,id,worker,start,size,acp,sent,recv,started,finished,received,reissue,done\n"
        "chunk,zz,0,1,0,5,1,0.000000,0,0,1,1,0,1\n");
    int rc = record_read(&r, path("c.csv"), msg, sizeof msg);
    test_condf(rc == 0, "columns found by their names (%s)", rc ? msg : "");
    if (rc == 0) {
        test_cond("reordered run columns", strcmp(r.scheme, "tss") == 0 && r.iters == 5);
        test_cond("workload field after an extra column",
                  record_get(&r, "mine") && strcmp(record_get(&r, "mine"), "yes") == 0);
        test_cond("chunk with an extra column", r.nchunks == 1 && r.chunks[0].size == 5);
        record_free(&r);
    }
}

static void expect_bad(const char *name, const char *text, const char *want)
{
    record r;
    char msg[300] = "";
    put(name, text);
    int rc = record_read(&r, path(name), msg, sizeof msg);
    test_condf(rc != 0 && strstr(msg, want) != NULL, "%s refused: '%s' (got: %s)", name,
               want, msg);
}

static void test_bad(void)
{
    const char *run = "#run,scheme,workers,iterations,sample,finish,imbalance,replans,date\n"
                      "run,dtss,1,5,1,1,0,0,\n";
    const char *wk = "#worker,worker,host,seen_host,tid,V,backend,cgroup,chunks,iterations,finish\n"
                     "worker,1,h,h,1,1,sim,c,0,0,\n";
    char buf[2048];
    expect_bad("nofile.csv", "", "no run line");
    expect_bad("noheader.csv", "run,dtss,1,5,1,1,0,0,\n", "before its '#run");
    snprintf(buf, sizeof buf, "%s", "#run,scheme,workers\nrun,dtss,1\n");
    expect_bad("missingcol.csv", buf, "no column 'iterations'");
    snprintf(buf, sizeof buf, "%s%s", run, "#worker,worker\n");
    expect_bad("missingworker.csv", buf, "no column 'host'");
    snprintf(buf, sizeof buf, "%s", "#run,scheme,workers,iterations,sample,finish,imbalance,replans,date\n"
             "run,dtss,1,-5,1,1,0,0,\n");
    expect_bad("negative.csv", buf, "iterations '-5'");
    snprintf(buf, sizeof buf, "%s", "#run,scheme,workers,iterations,sample,finish,imbalance,replans,date\n"
             "run,dtss,1,5,1,nan,0,0,\n");
    expect_bad("nan.csv", buf, "finish 'nan'");
    snprintf(buf, sizeof buf, "%s", "#run,scheme,workers,iterations,sample,finish,imbalance,replans,date\n"
             "run,dtss,1,5,1,1,0,0,,novalue\n");
    expect_bad("kv.csv", buf, "not key=value");
    snprintf(buf, sizeof buf, "%s", run);
    expect_bad("noworkers.csv", buf, "no line for worker 1");
    snprintf(buf, sizeof buf, "%s%s%s", run, wk,
             "#chunk,id,worker,start,size,acp,sent,recv,started,finished,received,reissue,done\n"
             "chunk,0,2,0,5,1,0,1,1,1,1,0,1\n");
    expect_bad("badworker.csv", buf, "worker '2'");
    snprintf(buf, sizeof buf, "%s%s%s", run, wk,
             "#chunk,id,worker,start,size,acp,sent,recv,started,finished,received,reissue,done\n"
             "chunk,0,1,0,5,1,0,,,,,0,1\n");
    expect_bad("donetimes.csv", buf, "recv ''");
    snprintf(buf, sizeof buf, "%s%s%s", run, wk,
             "#chunk,id,worker,start,size,acp,sent,recv,started,finished,received,reissue,done\n"
             "chunk,0,1,3,3,1,0,,,,,0,0\n");
    expect_bad("pastend.csv", buf, "size '3' must be an integer in [0, 2]");
    snprintf(buf, sizeof buf, "%s%s%s", run, wk,
             "#chunk,id,worker,start,size,acp,sent,recv,started,finished,received,reissue,done\n"
             "chunk,0,1,0,5,1,0,1,1,1,-1,0,1\n");
    expect_bad("received.csv", buf, "received '-1' must be a number in [0, 1e+09]");
    snprintf(buf, sizeof buf, "%s%s%s", run, wk, "#report,worker,time,Q,A\nreport,1,1e10,1,1\n");
    expect_bad("reporttime.csv", buf, "time '1e10' must be a number in [-1e+09, 1e+09]");
    snprintf(buf, sizeof buf, "%s", "#run,scheme,workers,iterations,sample,finish,imbalance,replans,date\n"
             "run,dtss,1,5,1,1,0,1,\n");
    snprintf(buf + strlen(buf), sizeof buf - strlen(buf), "%s%s", wk,
             "#replan,time,workers,A\nreplan,-2,1,1\n");
    expect_bad("replantime.csv", buf, "time '-2' must be a number in [0, 1e+09]");
    {
        /* the edges pass: a chunk ending at the last iteration, worker
         * clock before t = 0, a report before t = 0 */
        record r;
        char msg[300] = "";
        snprintf(buf, sizeof buf, "%s%s%s%s", run, wk,
                 "#chunk,id,worker,start,size,acp,sent,recv,started,finished,received,reissue,done\n"
                 "chunk,0,1,0,2,1,0,-0.5,-0.5,-0.4,0,0,1\nchunk,1,1,2,3,1,0,,,,,0,0\n"
                 "chunk,2,1,5,0,1,0,,,,,0,0\n",
                 "#report,worker,time,Q,A\nreport,1,-0.25,1,1\n");
        put("edges.csv", buf);
        int rc = record_read(&r, path("edges.csv"), msg, sizeof msg);
        test_condf(rc == 0 && r.nchunks == 3 && r.chunks[1].start + r.chunks[1].size == 5,
                   "edge values accepted (%s)", msg);
        if (rc == 0)
            record_free(&r);
    }
    snprintf(buf, sizeof buf, "%s%s%s", run, wk, "#replan,time,workers,A\nreplan,1,1,1\n");
    expect_bad("replans.csv", buf, "more replan lines than the run line's replans (0)");
    snprintf(buf, sizeof buf, "%s%s%s", run, wk, "bogus,1\n");
    expect_bad("kind.csv", buf, "unknown record kind 'bogus'");
    snprintf(buf, sizeof buf, "%s%s", run, "worker,1,h,h,1,1,sim,c,0,0,,extra\n");
    expect_bad("fields.csv", buf, "before its '#worker");
    snprintf(buf, sizeof buf, "%s%s%s", run, wk, wk + strlen(wk) - 28);
    expect_bad("twice.csv", buf, "worker 1 twice");
    snprintf(buf, sizeof buf, "%s:2:", path("negative.csv"));
    record r;
    char msg[300];
    put("negative.csv", "#run,scheme,workers,iterations,sample,finish,imbalance,replans,date\n"
        "run,dtss,1,-5,1,1,0,0,\n");
    record_read(&r, path("negative.csv"), msg, sizeof msg);
    test_condf(strncmp(msg, buf, strlen(buf)) == 0, "errors name the file and line (%s)", msg);
}

static void test_fields(void)
{
    record r;
    char msg[300];
    record_init(&r, 1);
    test_cond("a field", record_field(&r, "maxiter", "16000", msg, sizeof msg) == 0);
    test_cond("replaced, not repeated", record_field(&r, "maxiter", "8000", msg,
              sizeof msg) == 0 && r.nfields == 1 &&
              strcmp(record_get(&r, "maxiter"), "8000") == 0);
    test_cond("a comma in a value refused",
              record_field(&r, "x", "a,b", msg, sizeof msg) != 0 && strstr(msg, "comma"));
    test_cond("a line break in a value refused",
              record_field(&r, "x", "a\nb", msg, sizeof msg) != 0);
    test_cond("'=' in a key refused", record_field(&r, "a=b", "1", msg, sizeof msg) != 0);
    test_cond("a run line name as key refused",
              record_field(&r, "finish", "1", msg, sizeof msg) != 0);
    test_cond("an empty key refused", record_field(&r, "", "1", msg, sizeof msg) != 0);
    int ok = 1;
    for (int i = 1; i < RECORD_MAX_FIELDS; i++) {
        char k[16];
        snprintf(k, sizeof k, "k%d", i);
        ok &= record_field(&r, k, "v", msg, sizeof msg) == 0;
    }
    test_cond("up to RECORD_MAX_FIELDS fields", ok);
    test_cond("one more refused", record_field(&r, "more", "v", msg, sizeof msg) != 0);
    snprintf(r.scheme, sizeof r.scheme, "a,b\nc");
    record_text(&r.w[0].host, "h,1", REC_HOST_MAX);
    test_cond("write", record_write(&r, path("text.csv"), msg, sizeof msg) == 0);
    record back;
    test_condf(record_read(&back, path("text.csv"), msg, sizeof msg) == 0 &&
               strcmp(back.scheme, "a_b_c") == 0 && strcmp(rec_str(back.w[0].host), "h_1") == 0,
               "commas and line breaks in text fields become '_' (%s)", msg);
    record_free(&back);
    record_free(&r);
}

static void test_lines(void)
{
    lines in;
    char msg[300], *line;
    char big[10000];
    memset(big, 'x', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    FILE *f = fopen(path("l.txt"), "w");
    fprintf(f, "a,b,,c\r\n  one   two\t three \n%s\n# note\nlast", big);
    fclose(f);
    test_cond("open", lines_open(&in, path("l.txt"), msg, sizeof msg) == 0);
    char *fld[8];
    line = lines_next(&in);
    test_cond("commas: empty fields kept, CR removed",
              line && lines_split(line, ",", fld, 8) == 4 && strcmp(fld[2], "") == 0 &&
              strcmp(fld[3], "c") == 0);
    line = lines_next(&in);
    test_cond("blanks: runs count as one",
              line && lines_split(line, " \t", fld, 8) == 3 && strcmp(fld[2], "three") == 0);
    line = lines_next(&in);
    test_cond("a 10,000-byte line is one line", line && strlen(line) == sizeof big - 1 &&
              in.lineno == 3);
    line = lines_next(&in);
    test_cond("a comment is blank", line && lines_blank(line));
    line = lines_next(&in);
    test_cond("last line without newline", line && strcmp(line, "last") == 0);
    test_cond("end", lines_next(&in) == NULL && !lines_error(&in));
    lines_close(&in);
    char two[] = "a,b,c";
    test_cond("too many fields: -1", lines_split(two, ",", fld, 2) == -1);
    test_cond("missing file named", lines_open(&in, path("nope"), msg, sizeof msg) != 0 &&
              strstr(msg, "nope"));
    f = fopen(path("nul.txt"), "w");
    fwrite("ab\0cd\n", 1, 6, f);
    fclose(f);
    lines_open(&in, path("nul.txt"), msg, sizeof msg);
    test_cond("a NUL byte is an error", lines_next(&in) == NULL && lines_error(&in) &&
              strstr(in.msg, ":1:"));
    lines_close(&in);
}

/* sched/util/parse.c: integers in range, doubles as integers, GSL's errors. */
/* conv.h at its limits: the largest double below 2^63 (2^63 - 1024) and
 * -2^63 convert, 2^63 and the next double below -2^63 do not, nor NaN or
 * the infinities (IEEE 754 doubles: 2^63 and -2^63 exact, spacing 1024
 * above 2^62, 2048 below -2^63); for an int, 2^31 - 1 and -2^31. */
static void test_conv(void)
{
    long v = 7;
    int i = 7;
    test_cond("conv_long: 2^63 - 1024, the largest double below 2^63",
              conv_long(9223372036854774784.0, LONG_MIN, LONG_MAX, &v) == 0 &&
              v == 9223372036854774784L);
    v = 7;
    test_cond("conv_long: 2^63 refused (one past LONG_MAX), out unchanged",
              conv_long(9223372036854775808.0, LONG_MIN, LONG_MAX, &v) == -1 && v == 7);
    test_cond("conv_long: -2^63 is LONG_MIN",
              conv_long(-9223372036854775808.0, LONG_MIN, LONG_MAX, &v) == 0 && v == LONG_MIN);
    test_cond("conv_long: -2^63 - 2048 refused",
              conv_long(-9223372036854777856.0, LONG_MIN, LONG_MAX, &v) == -1);
    test_cond("conv_long: NaN, +inf, -inf refused",
              conv_long(NAN, LONG_MIN, LONG_MAX, &v) == -1 &&
              conv_long(INFINITY, LONG_MIN, LONG_MAX, &v) == -1 &&
              conv_long(-INFINITY, LONG_MIN, LONG_MAX, &v) == -1);
    test_cond("conv_long: truncates toward zero (2.9 -> 2, -2.9 -> -2)",
              conv_long(2.9, -5, 5, &v) == 0 && v == 2 && conv_long(-2.9, -5, 5, &v) == 0 &&
              v == -2);
    test_cond("conv_long: [lo, hi] exact: 10 in 0..10, 11 not, -0.5 -> 0 in 0..10",
              conv_long(10, 0, 10, &v) == 0 && v == 10 && conv_long(11, 0, 10, &v) == -1 &&
              conv_long(-0.5, 0, 10, &v) == 0 && v == 0);
    test_cond("conv_long: bounds compared exactly: 2^63 - 1024 over a hi one below it",
              conv_long(9223372036854774784.0, 0, 9223372036854774783L, &v) == -1);
    test_cond("conv_int: 2147483647 taken, 2147483648 refused",
              conv_int(2147483647.0, INT_MIN, INT_MAX, &i) == 0 && i == INT_MAX &&
              conv_int(2147483648.0, INT_MIN, INT_MAX, &i) == -1 && i == INT_MAX);
    test_cond("conv_int: -2147483648 taken, -2147483649 refused, NaN refused",
              conv_int(-2147483648.0, INT_MIN, INT_MAX, &i) == 0 && i == INT_MIN &&
              conv_int(-2147483649.0, INT_MIN, INT_MAX, &i) == -1 &&
              conv_int(NAN, INT_MIN, INT_MAX, &i) == -1);
    test_cond("conv_clamp: in range as a cast (254.7 -> 254)", conv_clamp(254.7, 0, 255) == 254);
    test_cond("conv_clamp: above -> hi, below -> lo (1e300, -1e300, inf, -inf)",
              conv_clamp(1e300, 0, 255) == 255 && conv_clamp(-1e300, 0, 255) == 0 &&
              conv_clamp(INFINITY, 1, 9) == 9 && conv_clamp(-INFINITY, 1, 9) == 1);
    test_cond("conv_clamp: NaN -> lo", conv_clamp(NAN, 3, 9) == 3);
    test_cond("conv_clamp: below lo but positive (2 in 5..9) -> lo", conv_clamp(2, 5, 9) == 5);
    test_cond("conv_clamp: 2^63 -> hi = LONG_MAX", conv_clamp(9223372036854775808.0, 0,
                                                              LONG_MAX) == LONG_MAX);
    char b[CONV_G];
    test_cond("conv_g: 1e+15", strcmp(conv_g(1e15, b), "1e+15") == 0);
    test_cond("conv_g: 1e15 + 0.125 -> 1000000000000000.1 (17 digits: it reads back)",
              strcmp(conv_g(1000000000000000.125, b), "1000000000000000.1") == 0 &&
              strtod(b, NULL) == 1000000000000000.125);
    test_cond("conv_g: 0.1 stays 0.1, inf and nan as %g",
              strcmp(conv_g(0.1, b), "0.1") == 0 && strcmp(conv_g(INFINITY, b), "inf") == 0 &&
              strcmp(conv_g(NAN, b), "nan") == 0);
}

static void test_parse(void)
{
    long v = 7;
    int i = 7;
    test_cond("parse_long_in: 3000000000 within long", parse_long_in("3000000000", 0, LONG_MAX, &v) == 0 &&
              v == 3000000000L);
    test_cond("parse_int_in: 3000000000 is no int", parse_int_in("3000000000", 1, INT_MAX, &i) == -1 &&
              i == 7);
    test_cond("parse_int_in: INT_MAX taken", parse_int_in("2147483647", 1, INT_MAX, &i) == 0 &&
              i == INT_MAX);
    test_cond("parse_long_in: -1 below 1", parse_long_in("-1", 1, 4294967295L, &v) == -1);
    test_cond("parse_long_in: 4294967296 above 2^32 - 1",
              parse_long_in("4294967296", 1, 4294967295L, &v) == -1);
    test_cond("parse_long_in: 4294967295 taken",
              parse_long_in("4294967295", 1, 4294967295L, &v) == 0 && v == 4294967295L);
    test_cond("parse_long_in: 2^64 (ERANGE)", parse_long_in("18446744073709551616", LONG_MIN,
                                                            LONG_MAX, &v) == -1);
    test_cond("parse_long_in: 1e3 is not an integer", parse_long_in("1e3", 0, 10000, &v) == -1);
    v = 7;
    test_cond("parse_whole: 3e9 beyond an int", parse_whole(3e9, 1, INT_MAX, &v) == -1 && v == 7);
    test_cond("parse_whole: -1 below 1", parse_whole(-1, 1, 4294967295L, &v) == -1);
    test_cond("parse_whole: 4294967295 taken", parse_whole(4294967295.0, 1, 4294967295L, &v) == 0 &&
              v == 4294967295L);
    test_cond("parse_whole: 2.5 is not whole", parse_whole(2.5, 0, 10, &v) == -1);
    test_cond("parse_whole: NaN, inf", parse_whole(NAN, 0, 10, &v) == -1 &&
              parse_whole(INFINITY, 0, LONG_MAX, &v) == -1);
    test_cond("parse_whole: 2^63 beyond LONG_MAX (its double)",
              parse_whole(9223372036854775808.0, 0, LONG_MAX, &v) == -1);
    test_cond("parse_whole: -2^63 is LONG_MIN", parse_whole(-9223372036854775808.0, LONG_MIN,
                                                             0, &v) == 0 && v == LONG_MIN);
    test_cond("parse_whole: 1e18 taken", parse_whole(1e18, 0, LONG_MAX, &v) == 0 &&
              v == 1000000000000000000L);

    /* GSL's default handler aborts: with parse_gsl_errors a bad argument
     * (gsl_rng_uniform_int with n = 0) is said and exits with the status. */
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stderr))
            _exit(9);
        static gsl_rng *volatile r; /* kept: still reachable at exit (LSan) */
        parse_gsl_errors("test", 3);
        r = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_uniform_int(r, 0);
        _exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    test_condf(WIFEXITED(st) && WEXITSTATUS(st) == 3,
               "a GSL error exits with the program's status, no abort (status %d%s)",
               WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st),
               WIFSIGNALED(st) ? ", a signal" : "");
}

/* The number of entries of dir (the temporary files left behind). */
static int entries(void)
{
    char cmd[300];
    snprintf(cmd, sizeof cmd, "ls -A '%s' | wc -l", dir);
    FILE *p = popen(cmd, "r");
    int n = -1;
    if (p && fscanf(p, "%d", &n) != 1)
        n = -1;
    if (p)
        pclose(p);
    return n;
}

static void test_outfile(void)
{
    outfile o;
    const char *call = "";
    int before = entries();
    put("out.txt", "old\n");
    chmod(path("out.txt"), 0640);
    int rc = outfile_open(&o, path("out.txt"), "w");
    test_cond("outfile: opens beside an existing file", rc == 0 && o.tmp[0]);
    if (rc != 0)
        return;
    fputs("new\n", o.f);
    fflush(o.f);
    char *mid = slurp(path("out.txt"));
    test_cond("outfile: the old file unchanged until the close",
              mid && strcmp(mid, "old\n") == 0);
    free(mid);
    rc = outfile_close(&o, &call);
    char *end = slurp(path("out.txt"));
    struct stat st;
    test_cond("outfile: the new content after the close",
              rc == 0 && end && strcmp(end, "new\n") == 0);
    free(end);
    test_cond("outfile: the mode the file had (0640)",
              stat(path("out.txt"), &st) == 0 && (st.st_mode & 07777) == 0640);
    test_condf(entries() == before + 1, "outfile: no temporary file left (%d entries, "
               "expected %d)", entries(), before + 1);

    mode_t mask = umask(022);
    rc = outfile_open(&o, path("fresh.txt"), "w");
    if (rc == 0)
        rc = outfile_close(&o, &call);
    umask(mask);
    test_cond("outfile: a new file gets 0666 less the umask (0644)",
              rc == 0 && stat(path("fresh.txt"), &st) == 0 && (st.st_mode & 07777) == 0644);

    errno = 0;
    test_cond("outfile: a directory refused (EISDIR)",
              outfile_open(&o, dir, "w") == -1 && errno == EISDIR);
    errno = 0;
    test_cond("outfile: a missing folder refused (ENOENT)",
              outfile_open(&o, path("no/x.txt"), "w") == -1 && errno == ENOENT);
    test_cond("outfile_check: the same two refused, a new file in dir taken",
              outfile_check(dir) == -1 && outfile_check(path("no/x.txt")) == -1 &&
              outfile_check(path("y.txt")) == 0 && access(path("y.txt"), F_OK) != 0);
    test_condf(entries() == before + 2, "outfile: nothing left by the refusals and the "
               "check (%d entries, expected %d)", entries(), before + 2);

    /* Not a regular file: written directly; a full device fails at the close. */
    rc = outfile_open(&o, "/dev/null", "w");
    test_cond("outfile: /dev/null written directly",
              rc == 0 && !o.tmp[0] && fputs("x", o.f) >= 0 && outfile_close(&o, &call) == 0);
    if (access("/dev/full", W_OK) == 0) {
        rc = outfile_open(&o, "/dev/full", "w");
        if (rc == 0) {
            for (int i = 0; i < 10000; i++)
                fputs("0123456789", o.f);
            rc = outfile_close(&o, &call);
        }
        test_condf(rc == -1 && errno == ENOSPC && strcmp(call, "write") == 0,
                   "outfile: a full disk is a write error, ENOSPC (%s)", strerror(errno));
    }
}

/* sched/util/quote.c: known answers, each worked out by hand from the rules
 * of quote.h (the UTF-8 ones from RFC 3629's table of valid sequences). */
static void test_quote(void)
{
    static const struct { const char *in; size_t n; const char *want, *what; } kat[] = {
        {"plain-1.5", 0, "plain-1.5", "printable ASCII as is"},
        {"", 0, "", "the empty string"},
        {"a\\b'c\"", 0, "a\\\\b\\'c\"", "backslash and quote escaped, \" kept"},
        {"l1\nl2\tx\r", 0, "l1\\nl2\\tx\\r", "newline, tab, CR as \\n \\t \\r"},
        {"\x1b[31mred\x1b[0m", 0, "\\x1b[31mred\\x1b[0m", "a terminal escape (ESC) as \\x1b"},
        {"\x01\x7f", 0, "\\x01\\x7f", "control bytes and DEL as \\xHH"},
        {"a\0b", 3, "a\\x00b", "a NUL byte (quote_mem) as \\x00"},
        {"D\xc3\xad" "az", 0, "D\xc3\xad" "az", "valid UTF-8 (U+00ED) as is"},
        {"\xe2\x82\xac \xf0\x9f\x98\x80", 0, "\xe2\x82\xac \xf0\x9f\x98\x80",
         "3- and 4-byte UTF-8 (U+20AC, U+1F600) as is"},
        {"\xff\xfe", 0, "\\xff\\xfe", "bytes that start no UTF-8 character"},
        {"\xc3", 0, "\\xc3", "a sequence cut short"},
        {"\xc3(", 0, "\\xc3(", "a lead byte without its continuation"},
        {"\xc0\xaf", 0, "\\xc0\\xaf", "an overlong '/' (C0 AF)"},
        {"\xe0\x80\xaf", 0, "\\xe0\\x80\\xaf", "an overlong 3-byte '/'"},
        {"\xed\xa0\x80", 0, "\\xed\\xa0\\x80", "a surrogate (U+D800)"},
        {"\xf4\x90\x80\x80", 0, "\\xf4\\x90\\x80\\x80", "beyond U+10FFFF"},
        {"\xc2\x9b", 0, "\\xc2\\x9b", "a C1 control (U+009B, CSI)"},
        {"ab\xe2\x80\xae" "cd", 0, "ab\\xe2\\x80\\xae" "cd", "a right-to-left override (U+202E)"},
        {"\xef\xbb\xbfx", 0, "\\xef\\xbb\\xbfx", "a byte order mark (U+FEFF)"},
    };
    for (size_t k = 0; k < sizeof kat / sizeof kat[0]; k++) {
        const char *got = kat[k].n ? quote_mem(kat[k].in, kat[k].n) : quote(kat[k].in);
        test_condf(strcmp(got, kat[k].want) == 0, "quote: %s (got '%s', want '%s')", kat[k].what,
                   got, kat[k].want);
    }
    test_cond("quote: NULL is (null)", strcmp(quote(NULL), "(null)") == 0);

    /* The cut: QUOTE_MAX characters of the quoted text, then "...". */
    char in[200], want[200];
    memset(in, 'x', QUOTE_MAX);
    in[QUOTE_MAX] = '\0';
    test_cond("quote: QUOTE_MAX characters kept whole, no dots",
              strcmp(quote(in), in) == 0 && strlen(quote(in)) == QUOTE_MAX);
    in[QUOTE_MAX] = 'y';
    in[QUOTE_MAX + 1] = '\0';
    memcpy(want, in, QUOTE_MAX);
    memcpy(want + QUOTE_MAX, "...", 4);
    test_condf(strcmp(quote(in), want) == 0, "quote: one character more is cut with '...' (%s)",
               quote(in));
    /* An escape is never split: 78 x then a tab (\t, 2 characters: 80 in
     * all) then 'z'; 79 x then a tab (81): the tab left out whole. */
    memset(in, 'x', QUOTE_MAX - 2);
    strcpy(in + QUOTE_MAX - 2, "\tz");
    memset(want, 'x', QUOTE_MAX - 2);
    strcpy(want + QUOTE_MAX - 2, "\\t...");
    test_condf(strcmp(quote(in), want) == 0, "quote: an escape that fits is kept (%s)", quote(in));
    memset(in, 'x', QUOTE_MAX - 1);
    strcpy(in + QUOTE_MAX - 1, "\t");
    memset(want, 'x', QUOTE_MAX - 1);
    strcpy(want + QUOTE_MAX - 1, "...");
    test_condf(strcmp(quote(in), want) == 0, "quote: an escape that does not fit is left out "
               "whole (%s)", quote(in));
    /* 79 x then U+00ED (2 bytes, 2 characters of text here: 81): out whole. */
    memset(in, 'x', QUOTE_MAX - 1);
    strcpy(in + QUOTE_MAX - 1, "\xc3\xad");
    test_condf(strcmp(quote(in), want) == 0, "quote: a UTF-8 character is never split (%s)",
               quote(in));
    /* A 100 KB value. */
    size_t big = 100 * 1024;
    char *huge = malloc(big + 1);
    if (huge) {
        memset(huge, 'A', big);
        huge[big] = '\0';
        const char *q = quote(huge);
        test_condf(strlen(q) == QUOTE_MAX + 3 && strcmp(q + QUOTE_MAX, "...") == 0,
                   "quote: a 100 KB value becomes %d characters and '...' (%zu)", QUOTE_MAX,
                   strlen(q));
        free(huge);
    }
    /* QUOTE_SLOTS values in one message. */
    const char *v[QUOTE_SLOTS];
    char name[QUOTE_SLOTS][16];
    int same = 1;
    for (int k = 0; k < QUOTE_SLOTS; k++) {
        snprintf(name[k], sizeof name[k], "v%d", k);
        v[k] = quote(name[k]);
    }
    for (int k = 0; k < QUOTE_SLOTS; k++)
        same &= strcmp(v[k], name[k]) == 0;
    test_cond("quote: QUOTE_SLOTS values at once stay valid", same);
    /* A small buffer: cut shorter, still marked. */
    char small[8];
    quote_buf(small, sizeof small, "abcdefgh", 8);
    test_condf(strcmp(small, "abcd...") == 0,
               "quote_buf: an 8-byte buffer holds 4 characters and '...' (%s)", small);
    test_cond("quote_buf: a 3-byte buffer holds nothing",
              strcmp(quote_buf(small, 3, "abc", 3), "") == 0);
}

/* Runs body in a child with standard output on path and standard error on
 * path.err; returns the child's exit status (-1: a signal). */
static int child(const char *out, void (*body)(void))
{
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        char err[300];
        snprintf(err, sizeof err, "%s.err", path("child"));
        if (!freopen(out, "w", stdout) || !freopen(err, "w", stderr))
            _exit(9);
        body();
        exit(0);
    }
    int st = 0;
    waitpid(pid, &st, 0);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static void lines_out(void)
{
    closeout_init("test");
    for (int i = 0; i < 100; i++)
        printf("line %d\n", i);
}

static void line_checked(void)
{
    closeout_init("test");
    for (int i = 0; i < 100000; i++) {
        printf("line %d\n", i);
        closeout_check();
    }
    fprintf(stderr, "not stopped\n");
}

static void outfile_left_open(void)
{
    outfile o;
    if (outfile_open(&o, path("half.txt"), "w") != 0)
        _exit(8);
    fputs("half\n", o.f);
    exit(1);                    /* an error met half way: never closed */
}

/* sched/util/closeout.c and the exit of outfile.c */
static void test_closeout(void)
{
    char *err;
    int rc = child(path("ok.txt"), lines_out);
    char *out = slurp(path("ok.txt"));
    test_condf(rc == 0 && out && strstr(out, "line 99\n"), "closeout: a good output, exit 0 (%d)", rc);
    free(out);
    if (access("/dev/full", W_OK) == 0) {
        rc = child("/dev/full", lines_out);
        err = slurp(path("child.err"));
        test_condf(rc == 1 && err && strcmp(err, "test: writing standard output: No space left "
                   "on device\n") == 0, "closeout: a full device, exit 1 and said (%d, %s)", rc,
                   err ? err : "");
        free(err);
        rc = child("/dev/full", line_checked);
        err = slurp(path("child.err"));
        test_condf(rc == 1 && err && strcmp(err, "test: writing standard output: No space left "
                   "on device\n") == 0, "closeout_check: stops at the first failed line (%d, %s)",
                   rc, err ? err : "");
        free(err);
    }
    int before = entries();
    put("half.txt", "old\n");
    rc = child("/dev/null", outfile_left_open);
    char *half = slurp(path("half.txt"));
    test_condf(rc == 1 && half && strcmp(half, "old\n") == 0 && entries() == before + 1,
               "outfile: a file left open at exit is removed, the old one kept (%d, %d entries)",
               rc, entries());
    free(half);
    test_cond("outfile_name: '-' is standard output, a path quoted",
              strcmp(outfile_name("-"), "standard output") == 0 &&
              strcmp(outfile_name("a\nb"), "a\\nb") == 0);
}

/* One synthetic run, the same events on any kind of record: 3 workers,
 * 20,000 chunks (five times the window of RECORD_WINDOW), a report per
 * chunk, a re-plan every 1,000; most chunks done at once, every 7th only
 * at the end (long out of the window: read and rewritten in the spool),
 * but every 7,000th never. */
#define SYN_CHUNKS 20000L

static int synthetic(record *r)
{
    int rc = 0;
    snprintf(r->scheme, sizeof r->scheme, "pss");
    r->iters = SYN_CHUNKS;
    r->t0 = 0.5;
    for (int w = 0; w < 3; w++)
        r->w[w].V = w + 1;
    for (long i = 0; i < SYN_CHUNKS && rc == 0; i++) {
        int w = (int)(i % 3);
        double t = 1 + (double)i / 8;
        rec_chunk *c = record_chunk(r);
        if (!c)
            return -1;
        *c = (rec_chunk){.id = i, .worker = w, .start = i, .size = 1, .acp = 1,
                         .sent = t, .reissue = i % 13 == 0};
        rc |= record_report(r, w, 1 + (int)(i % 4), 1.0 / (1 + (double)(i % 4)), t);
        if (i % 1000 == 999)
            rc |= record_replan(r, t, 3, 2.5);
        if (i % 7 != 0)
            rc |= record_done_id(r, i, w, 1, t + 0.01, t + 0.02, t + 0.1, t + 0.11);
    }
    for (long i = 0; i < SYN_CHUNKS && rc == 0; i += 7)
        if (i % 1000 != 0)
            rc |= record_done_id(r, i, (int)(i % 3), 1, 3000, 3000 + i * 1e-4,
                                 3001 + i * 1e-4, 3002 + i * 1e-4);
    r->finish = 3002 + SYN_CHUNKS * 1e-4 - r->t0;
    return rc;
}

/* record_stream: the same run kept whole, streamed through a spool, and
 * summed up only. Known answer: the whole record, written by the code that
 * kept every entry in memory. */
static void test_stream(void)
{
    record whole, spooled, summed, fresh;
    char msg[300], sa[512], sb[512], sc[512];
    int before = entries();
    record_init(&whole, 3);
    record_init(&spooled, 3);
    record_init(&summed, 3);
    int rc = record_stream(&spooled, dir, msg, sizeof msg);
    test_condf(rc == 0, "record_stream into a folder (%s)", rc ? msg : "");
    test_cond("record_stream without a folder: summed up only",
              record_stream(&summed, NULL, msg, sizeof msg) == 0);
    test_condf(entries() == before, "the spool files are removed as they are made "
               "(%d entries, expected %d)", entries(), before);
    test_cond("the same events on the three records", synthetic(&whole) == 0 &&
              synthetic(&spooled) == 0 && synthetic(&summed) == 0);
    test_cond("streamed: the counts kept, no entries in memory",
              spooled.nchunks == SYN_CHUNKS && spooled.nreports == SYN_CHUNKS &&
              spooled.replans == 20 && !spooled.chunks && !spooled.reports &&
              !spooled.replan && summed.nchunks == SYN_CHUNKS &&
              summed.nreports == SYN_CHUNKS && summed.replans == 20 && !summed.chunks);
    FILE *f;
    if ((f = fmemopen(sa, sizeof sa, "w"))) {
        record_summary(&whole, f);
        fclose(f);
    }
    if ((f = fmemopen(sb, sizeof sb, "w"))) {
        record_summary(&spooled, f);
        fclose(f);
    }
    if ((f = fmemopen(sc, sizeof sc, "w"))) {
        record_summary(&summed, f);
        fclose(f);
    }
    test_condf(strcmp(sa, sb) == 0 && strcmp(sa, sc) == 0 && strstr(sa, "Finish 3003.50"),
               "the summary line streamed = kept (%.100s)", sc);
    test_cond("the workers' totals streamed = kept",
              whole.w[1].chunks == summed.w[1].chunks && whole.w[1].iters == summed.w[1].iters &&
              whole.w[1].finish == summed.w[1].finish &&
              whole.w[2].finish == spooled.w[2].finish);
    test_cond("write the whole record and the streamed one",
              record_write(&whole, path("whole.csv"), msg, sizeof msg) == 0 &&
              record_write(&spooled, path("spooled.csv"), msg, sizeof msg) == 0);
    FILE *a = fopen(path("whole.csv"), "r"), *b = fopen(path("spooled.csv"), "r");
    int same = a && b, ca, cb;
    long bytes = 0;
    while (same) {
        ca = getc(a);
        cb = getc(b);
        same = ca == cb;
        if (ca == EOF || cb == EOF)
            break;
        bytes++;
    }
    if (a)
        fclose(a);
    if (b)
        fclose(b);
    test_condf(same && bytes > 1000000, "the streamed record's file is the whole one's, "
               "byte for byte (%ld bytes)", bytes);
    msg[0] = '\0';
    test_condf(record_read(&fresh, path("spooled.csv"), msg, sizeof msg) == 0 &&
               fresh.nchunks == SYN_CHUNKS && fresh.chunks[7].done &&
               fresh.chunks[7].received > 3001 && !fresh.chunks[7000].done,
               "the streamed record reads back: a chunk done late, one never (%s)", msg);
    record_free(&fresh);
    rc = record_write(&summed, path("summed.csv"), msg, sizeof msg);
    test_condf(rc == -1 && strstr(msg, "summary only") && access(path("summed.csv"), F_OK) != 0,
               "a record summed up only is not written (%s)", msg);
    record_free(&whole);
    record_free(&spooled);
    record_free(&summed);
    test_condf(entries() == before + 2, "nothing left but the two records (%d entries, "
               "expected %d)", entries(), before + 2);
    record r;
    record_init(&r, 1);
    rc = record_stream(&r, path("none"), msg, sizeof msg);
    test_condf(rc == -1 && strstr(msg, "cannot make a spool file in") &&
               strstr(msg, "No such file"), "a spool folder that does not exist: "
               "refused (%s)", msg);
    record_free(&r);
}

int main(void)
{
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_round_trip();
    test_by_name();
    test_bad();
    test_fields();
    test_lines();
    test_conv();
    test_parse();
    test_outfile();
    test_quote();
    test_closeout();
    test_stream();
    test_remove_dir(dir);
    return test_report();
}
