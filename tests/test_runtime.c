/* test_runtime.c: libdtss's public interface without a PVM daemon: options
 * and their errors, taking them from a command line, calls out of order, a
 * worker not spawned by a master, the load probe; the message encoding
 * (runtime/core/buf.h) against known bytes; the loop's, the migration
 * master's and the row strips' journals (runtime/loop/journal.c,
 * runtime/lb/journal.c, runtime/strips/journal.c), crafted byte by byte.
 * (The runtime at work, on a private PVM: tests/pvm.sh, tests/install.sh, tests/matrix.sh.) */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "runtime/dtss.h"
#include "runtime/core/buf.h"
#include "runtime/core/wire.h"
#include "runtime/lb/journal.h"
#include "runtime/strips/journal.h"
#include "tests/test.h"

static void test_set(void)
{
    dtss_master *m = dtss_master_new();
    test_cond("defaults check out", dtss_master_check(m) == DTSS_OK);
    test_cond("a scheme by name", dtss_master_set(m, "scheme", "TSS") == DTSS_OK);
    test_cond("tree is a scheme too", dtss_master_set(m, "scheme", "tree") == DTSS_OK);
    test_cond("an unknown scheme: ENOENT listing the valid ones",
              dtss_master_set(m, "scheme", "nosuch") == DTSS_ENOENT &&
              strstr(dtss_master_errmsg(m), "'nosuch'") &&
              strstr(dtss_master_errmsg(m), "dtss") && strstr(dtss_master_errmsg(m), "tree"));
    test_cond("an unknown option: ENOENT naming it",
              dtss_master_set(m, "bogus", "1") == DTSS_ENOENT &&
              strstr(dtss_master_errmsg(m), "--bogus"));
    test_cond("a value missing", dtss_master_set(m, "hosts", NULL) == DTSS_EINVAL);
    test_cond("sample 0 refused, naming it", dtss_master_set(m, "sample", "0") == DTSS_EINVAL &&
              strstr(dtss_master_errmsg(m), "'0'"));
    test_cond("iterations beyond 2^53 refused (every count exact in a double)",
              dtss_master_set(m, "iterations", "9007199254740993") == DTSS_EINVAL);
    test_cond("iterations 2^31 taken (the wire's counts are 64-bit, not PVM's 32)",
              dtss_master_set(m, "iterations", "2147483648") == DTSS_OK);
    test_cond("iterations -1 refused", dtss_master_set(m, "iterations", "-1") == DTSS_EINVAL);
    test_cond("iterations 2^31 - 1 taken",
              dtss_master_set(m, "iterations", "2147483647") == DTSS_OK);
    test_cond("local 0 refused", dtss_master_set(m, "local", "0") == DTSS_EINVAL);
    test_cond("sample 2^32 + 1 refused (was R = 1 through an int)",
              dtss_master_set(m, "sample", "4294967297") == DTSS_EINVAL &&
              strstr(dtss_master_errmsg(m), "'4294967297'"));
    test_cond("sample 10^6 taken", dtss_master_set(m, "sample", "1000000") == DTSS_OK);
    test_cond("local 99999999999999999999 refused (strtol's ERANGE)",
              dtss_master_set(m, "local", "99999999999999999999") == DTSS_EINVAL);
    test_cond("min 0 refused when set, naming it",
              dtss_master_set(m, "min", "0") == DTSS_EINVAL &&
              strstr(dtss_master_errmsg(m), "--min '0' must be an integer in [1, 9007199254740992]"));
    test_cond("min 2^53 + 1 refused", dtss_master_set(m, "min", "9007199254740993") == DTSS_EINVAL);
    test_cond("min 1e3 refused (not an integer)", dtss_master_set(m, "min", "1e3") == DTSS_EINVAL);
    test_cond("min 2^31 - 1 taken", dtss_master_set(m, "min", "2147483647") == DTSS_OK &&
              dtss_master_set(m, "min", "1") == DTSS_OK);
    dtss_master_set(m, "sample", "1");
    test_cond("probe back-end checked", dtss_master_set(m, "probe", "x") == DTSS_EINVAL &&
              dtss_master_set(m, "probe", "cgroup") == DTSS_OK);
    test_cond("tree takes no parameters",
              dtss_master_set(m, "F", "20") == DTSS_OK && dtss_master_check(m) == DTSS_EINVAL &&
              strstr(dtss_master_errmsg(m), "tree takes no"));
    dtss_master_set(m, "scheme", "tss");
    dtss_master_set(m, "iterations", "100");
    test_cond("tss with F = 20 of 100", dtss_master_check(m) == DTSS_OK);
    dtss_master_set(m, "F", "0.5");
    test_cond("F out of range: named by check, before PVM",
              dtss_master_check(m) == DTSS_EINVAL && strstr(dtss_master_errmsg(m), "F=0.5"));
    dtss_master_set(m, "F", "20");
    dtss_master_set(m, "delta", "4");
    test_cond("a parameter the scheme does not take",
              dtss_master_check(m) == DTSS_ENOENT);
    dtss_master_free(m);
    m = dtss_master_new();
    dtss_master_set(m, "local", "2");
    dtss_master_set(m, "hosts", "a,b");
    test_cond("--local with --hosts refused", dtss_master_check(m) == DTSS_EINVAL &&
              strstr(dtss_master_errmsg(m), "does not go with"));
    dtss_piece p;
    test_cond("next before start: EMISUSE", dtss_master_next(m, &p) == DTSS_EMISUSE);
    test_cond("no record before the run", dtss_master_write_record(m, "/dev/null") ==
              DTSS_EMISUSE);
    test_cond("a workload field with a comma refused",
              dtss_master_field(m, "k", "a,b") == DTSS_EINVAL);
    test_cond("a workload field", dtss_master_field(m, "width", "10") == DTSS_OK);
    char big[64];
    memset(big, 'x', sizeof big);
    test_cond("a job", dtss_master_job(m, big, sizeof big) == DTSS_OK &&
              dtss_master_job(m, NULL, 0) == DTSS_OK);
    dtss_master_free(m);
    dtss_master_free(NULL);
}

static void test_args(void)
{
    dtss_master *m = dtss_master_new();
    char a0[] = "prog", a1[] = "--scheme", a2[] = "gss", a3[] = "-n", a4[] = "7",
         a5[] = "--sample=4", a6[] = "--include-self", a7[] = "--mine", a8[] = "--",
         a9[] = "--local";
    char *argv[] = {a0, a1, a2, a3, a4, a5, a6, a7, a8, a9, NULL};
    int argc = 10;
    test_cond("runtime options taken out", dtss_master_args(m, &argc, argv) == DTSS_OK);
    test_condf(argc == 6 && strcmp(argv[1], "-n") == 0 && strcmp(argv[2], "7") == 0 &&
               strcmp(argv[3], "--mine") == 0 && strcmp(argv[4], "--") == 0 &&
               strcmp(argv[5], "--local") == 0 && argv[6] == NULL,
               "the application's left in order, '--' and all after it too (argc %d)",
               argc);
    dtss_master_free(m);
    m = dtss_master_new();
    char b1[] = "--hosts";
    char *bad[] = {a0, b1, NULL};
    argc = 2;
    test_cond("a value missing at the end",
              dtss_master_args(m, &argc, bad) == DTSS_EINVAL &&
              strstr(dtss_master_errmsg(m), "needs a value"));
    char c1[] = "--acp-int=1";
    char *flag[] = {a0, c1, NULL};
    argc = 2;
    test_cond("a flag with a value", dtss_master_args(m, &argc, flag) == DTSS_EINVAL);
    char d1[] = "--scheme", d2[] = "nosuch";
    char *sch[] = {a0, d1, d2, NULL};
    argc = 3;
    test_cond("the first bad value is the error",
              dtss_master_args(m, &argc, sch) == DTSS_ENOENT);
    dtss_master_free(m);
    FILE *f = tmpfile();
    dtss_master_usage(f);
    long n = ftell(f);
    char text[4096] = "";
    rewind(f);
    size_t got = fread(text, 1, sizeof text - 1, f);
    text[got] = '\0';
    fclose(f);
    test_cond("usage lists the options and the scheme parameters",
              n > 200 && strstr(text, "--scheme") && strstr(text, "--hosts") &&
              strstr(text, "--delta") && strstr(text, "--acp-int"));
}

static void test_worker(void)
{
    char a0[] = "prog", a1[] = "--dtss-worker";
    char *plain[] = {a0, NULL}, *spawned[] = {a0, a1, NULL};
    test_cond("a worker is told apart by the runtime's flag",
              !dtss_is_worker(1, plain) && dtss_is_worker(2, spawned));
    dtss_worker *w;
    test_cond("a worker not spawned by a master: EMISUSE, said so",
              dtss_worker_open(&w, 1, plain) == DTSS_EMISUSE &&
              strstr(dtss_worker_errmsg(w), "not spawned by a master"));
    long s, n;
    test_cond("then next refuses", dtss_worker_next(w, &s, &n) == DTSS_EMISUSE);
    test_cond("a result with no piece in hand",
              dtss_worker_result(w, "x", 1) == DTSS_EMISUSE);
    dtss_worker_close(w);
    dtss_worker_close(NULL);
    char line[512];
    test_cond("the probe", dtss_probe("proc", line, sizeof line) == DTSS_OK &&
              strstr(line, "backend=proc") && strstr(line, " Q="));
    test_cond("a bad back-end named", dtss_probe("bogus", line, sizeof line) == DTSS_EINVAL &&
              strstr(line, "'bogus'"));
}

/* The encoding's known answers, worked by hand from buf.h's definition:
 * "DT", version 6, 0; then each integer and double in 8 bytes, most
 * significant first. */
static void test_encoding(void)
{
    static const unsigned char ints[] = {
        'D', 'T', 6, 0,
        0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xfe,     /* -2 */
        0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x05,     /* 2^40 + 5 */
        0x3f, 0xf8, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,     /* 1.5 */
        0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 'h', 'i'};  /* "hi" */
    buf b = {0};
    buf_start(&b);
    buf_int(&b, -2);
    buf_int(&b, (1LL << 40) + 5);
    buf_double(&b, 1.5);
    buf_str(&b, "hi");
    test_cond("encoding: integers, a double and a string, byte for byte",
              !b.err && b.len == sizeof ints && memcmp(b.p, ints, sizeof ints) == 0);
    buf_free(&b);

    /* A WORK message as a worker receives it: chunk 7, iterations
     * [3000000000, +12) -- past PVM's 32-bit longs, which carried 2^31 - 1. */
    static const unsigned char work[] = {
        'D', 'T', 6, 0,
        0, 0, 0, 0, 0, 0, 0, 7,
        0, 0, 0, 0, 0xb2, 0xd0, 0x5e, 0x00,                 /* 3000000000 */
        0, 0, 0, 0, 0, 0, 0, 12};
    tr_event e = {.kind = TR_MESSAGE, .from = 0x40001, .tag = WIRE_WORK, .data = work,
                  .len = sizeof work};
    long id = 0, start = 0, size = 0;
    char msg[256] = "";
    test_condf(wire_unpack_work(&e, &id, &start, &size, msg, sizeof msg) == 0 && id == 7 &&
               start == 3000000000L && size == 12, "decoding a captured WORK: 7 "
               "[3000000000, +12) (got %ld [%ld, +%ld) %s)", id, start, size, msg);

    unsigned char other[sizeof work];
    memcpy(other, work, sizeof work);
    other[2] = 2;                                       /* another build's version */
    e.data = other;
    test_condf(wire_unpack_work(&e, &id, &start, &size, msg, sizeof msg) == WIRE_EVERSION &&
               strstr(msg, "WORK from t40001 speaks protocol 2, this program 6"),
               "a message of protocol 2 refused by name (%s)", msg);
    other[2] = 3;                                       /* the one without MOVED */
    test_condf(wire_unpack_work(&e, &id, &start, &size, msg, sizeof msg) == WIRE_EVERSION &&
               strstr(msg, "speaks protocol 3, this program 6"),
               "a message of protocol 3 refused by name (%s)", msg);
    e.data = work;
    e.len = sizeof work - 1;
    test_condf(wire_unpack_work(&e, &id, &start, &size, msg, sizeof msg) == -1 &&
               strstr(msg, "malformed message: WORK cut short"), "a message cut short "
               "refused (%s)", msg);
    unsigned char longer[sizeof work + 1];
    memcpy(longer, work, sizeof work);
    longer[sizeof work] = 0;
    e.data = longer;
    e.len = sizeof longer;
    test_condf(wire_unpack_work(&e, &id, &start, &size, msg, sizeof msg) == -1 &&
               strstr(msg, "WORK with 1 bytes too many"), "a byte too many refused (%s)",
               msg);
    /* MOVED, worked by hand: worker 1, round 2, to worker 0, tasks 5 and 9. */
    static const unsigned char moved[] = {
        'D', 'T', 6, 0,
        0, 0, 0, 0, 0, 0, 0, 1,
        0, 0, 0, 0, 0, 0, 0, 2,
        0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0, 0, 0, 2,
        0, 0, 0, 0, 0, 0, 0, 5,
        0, 0, 0, 0, 0, 0, 0, 9};
    e = (tr_event){.kind = TR_MESSAGE, .from = 0x40001, .tag = WIRE_MOVED, .data = moved,
                   .len = sizeof moved};
    int mi, mr, md, mn, *mt = NULL;
    test_condf(wire_unpack_moved(&e, &mi, &mr, &md, &mt, &mn, msg, sizeof msg) == 0 && mi == 1 &&
               mr == 2 && md == 0 && mn == 2 && mt[0] == 5 && mt[1] == 9,
               "decoding MOVED: worker 1, round 2, to 0, tasks 5 9 (%s)", msg);
    free(mt);
    unsigned char lying[sizeof moved];
    memcpy(lying, moved, sizeof moved);
    lying[35] = 3;                                      /* 3 tasks, 2 there */
    e.data = lying;
    test_condf(wire_unpack_moved(&e, &mi, &mr, &md, &mt, &mn, msg, sizeof msg) == -1 &&
               strstr(msg, "MOVED"), "a MOVED claiming more tasks than it holds refused (%s)",
               msg);
    static const unsigned char pvm[] = {0, 0, 0, 7, 0, 0, 0, 1, 0, 0, 0, 12};
    e.data = pvm;                       /* PVM's XDR packing of protocol 2 */
    e.len = sizeof pvm;
    test_condf(wire_unpack_work(&e, &id, &start, &size, msg, sizeof msg) == -1 &&
               strstr(msg, "not a libdtss message"), "PVM's own packing refused (%s)", msg);
}

/* ---- the journal (runtime/loop/journal.c), crafted byte by byte ---------------
 * The format (journal.c's header): "DTSS-JNL", then unsigned 64-bit
 * little-endian numbers; every entry ends with the FNV-1a 64 of its bytes
 * from its kind on, the header with that of its own. Each journal here is
 * of a run of I = 10 iterations, scheme dtss, R = 1, no parameters, no job,
 * one double an iteration (8 bytes). */
typedef struct jbuf { unsigned char b[4096]; size_t n, from; } jbuf;

static void j_bytes(jbuf *j, const void *p, size_t n)
{
    memcpy(j->b + j->n, p, n);
    j->n += n;
}

static void j_u(jbuf *j, unsigned long long v)
{
    for (int i = 0; i < 8; i++)
        j->b[j->n++] = (unsigned char)(v >> (8 * i));
}

static void j_sum(jbuf *j)          /* FNV-1a 64 of j->b[from .. n) */
{
    unsigned long long h = 14695981039346656037ULL;
    for (size_t i = j->from; i < j->n; i++) {
        h ^= j->b[i];
        h *= 1099511628211ULL;
    }
    j_u(j, h);
    j->from = j->n;
}

/* A header of I iterations sampled with R, and one parameter "name=value"
 * (NULL: none). */
static void j_head_r(jbuf *j, long I, long R, const char *param)
{
    j->n = j->from = 0;
    j_bytes(j, "DTSS-JNL", 8);
    j_u(j, 1);                          /* version */
    j_u(j, (unsigned long long)I);
    j_u(j, (unsigned long long)R);
    j_u(j, 4);
    j_bytes(j, "dtss", 4);
    j_u(j, param != NULL);              /* parameters */
    if (param) {
        j_u(j, strlen(param));
        j_bytes(j, param, strlen(param));
    }
    j_u(j, 0);                          /* job */
    j_sum(j);
}

static void j_head(jbuf *j, long I)
{
    j_head_r(j, I, 1, NULL);
}

/* An R entry of [start, +size) in n pieces {start, size} of 8 bytes an
 * iteration. */
static void j_pieces(jbuf *j, long start, long size, int n, const long (*piece)[2])
{
    static const unsigned char zeros[256];
    j_bytes(j, "R", 1);
    j_u(j, (unsigned long long)start);
    j_u(j, (unsigned long long)size);
    j_u(j, (unsigned long long)n);
    long bytes = 0;
    for (int i = 0; i < n; i++) {
        j_u(j, (unsigned long long)piece[i][0]);
        j_u(j, (unsigned long long)piece[i][1]);
        j_u(j, (unsigned long long)(8 * piece[i][1]));
        bytes += 8 * piece[i][1];
    }
    j_bytes(j, zeros, (size_t)bytes);
    j_sum(j);
}

static void j_a(jbuf *j, long start, long size)
{
    j_bytes(j, "A", 1);
    j_u(j, (unsigned long long)start);
    j_u(j, (unsigned long long)size);
    j_sum(j);
}

/* An R entry of [start, +size) in one piece (the same range) of 'bytes'. */
static void j_r(jbuf *j, long start, long size, long piece_size, long bytes)
{
    static const unsigned char zeros[256];
    j_bytes(j, "R", 1);
    j_u(j, (unsigned long long)start);
    j_u(j, (unsigned long long)size);
    j_u(j, 1);
    j_u(j, (unsigned long long)start);
    j_u(j, (unsigned long long)piece_size);
    j_u(j, (unsigned long long)bytes);
    j_bytes(j, zeros, (size_t)bytes);
    j_sum(j);
}

/* Writes j to path and asks a master resuming it (I = 10, 8 bytes an
 * iteration, or 'bytes') to check: its code; its message into msg. */
static int j_check(const jbuf *j, const char *path, long bytes, char *msg, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(j->b, 1, j->n, f) != j->n || fclose(f) != 0)
        return -99;
    dtss_master *m = dtss_master_new();
    int rc = dtss_master_set(m, "resume", path);
    if (rc == DTSS_OK)
        rc = dtss_master_set(m, "iterations", "10");
    if (rc == DTSS_OK)
        rc = dtss_master_result_bytes(m, bytes);
    if (rc == DTSS_OK)
        rc = dtss_master_check(m);
    snprintf(msg, len, "%s", dtss_master_errmsg(m));
    dtss_master_free(m);
    return rc;
}

static void test_journal(void)
{
    char dir[] = "/tmp/dtss-test-journal.XXXXXX", path[64], msg[256];
    if (!mkdtemp(dir)) {
        test_cond("a temporary folder", 0);
        return;
    }
    snprintf(path, sizeof path, "%s/j", dir);
    jbuf j;
    /* a good one: [0, +4) done (32 bytes), [4, +3) handed out; header 68
     * bytes, the R entry 1 + 8 * 7 + 32 = 89 */
    j_head(&j, 10);
    j_r(&j, 0, 4, 4, 32);
    j_a(&j, 4, 3);
    test_condf(j_check(&j, path, 8, msg, sizeof msg) == DTSS_OK,
               "journal: a good one checks out (%s)", msg);
    /* a torn end (a crash mid-write) is not an error: the journal ends there */
    jbuf t = j;
    j_r(&t, 7, 3, 3, 24);
    t.n -= 5;
    test_condf(j_check(&t, path, 8, msg, sizeof msg) == DTSS_OK,
               "journal: a torn last entry is its end, not an error (%s)", msg);
    t = j;                              /* a wrong checksum: the end too */
    j_r(&t, 7, 3, 3, 24);
    t.b[t.n - 1] ^= 1;
    test_condf(j_check(&t, path, 8, msg, sizeof msg) == DTSS_OK,
               "journal: a last entry whose checksum fails is its end (%s)", msg);

    /* whole, checksummed entries that are not this run's: refused, named */
    struct { const char *what; long start, size, piece, bytes; const char *why; } bad[] = {
        {"results of 24 bytes for 4 iterations of 8 (once: 'worker 0 sent ...')",
         7, 3, 3, 16, "a piece's results are not its iterations times the result bytes"},
        {"pieces of 2 iterations in a range of 3", 7, 3, 2, 16,
         "its pieces' iterations do not add up to its range"},
        {"a range past I = 10 (another I's journal)", 8, 4, 4, 32,
         "its range is outside the loop"},
        {"results of iterations entry 1 holds", 2, 3, 3, 24,
         "results of iterations entry 1 holds too"},
    };
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        t = j;
        j_r(&t, bad[k].start, bad[k].size, bad[k].piece, bad[k].bytes);
        char want[160];
        snprintf(want, sizeof want, "--resume %s: entry 3 (at byte 182): %s", path,
                 bad[k].why);
        int rc = j_check(&t, path, 8, msg, sizeof msg);
        test_condf(rc == DTSS_EINVAL && strstr(msg, want) && strstr(msg, "another run's"),
                   "journal: %s: refused at the check, naming the file and entry "
                   "('%s' in '%s')", bad[k].what, want, msg);
    }
    t = j;
    j_a(&t, 9, 5);
    test_condf(j_check(&t, path, 8, msg, sizeof msg) == DTSS_EINVAL &&
               strstr(msg, "entry 3 (at byte 182): its range is outside the loop"),
               "journal: a chunk handed out past I refused, named (%s)", msg);
    t = j;
    j_r(&t, 7, 3, 3, 16);
    test_condf(j_check(&t, path, 0, msg, sizeof msg) == DTSS_OK,
               "journal: result sizes not told (0): not checked (%s)", msg);
    test_condf(j_check(&j, path, 4, msg, sizeof msg) == DTSS_EINVAL &&
               strstr(msg, "entry 1 (at byte 68)"),
               "journal: 4 bytes an iteration told, the journal's are 8: refused (%s)", msg);
    j_head(&t, 12);                     /* another I in the header */
    test_condf(j_check(&t, path, 8, msg, sizeof msg) == DTSS_EINVAL &&
               strstr(msg, "the journal's run has 12 iterations, this one 10"),
               "journal: another I refused at the check (%s)", msg);

    /* The pieces are the chunk's iterations, in the order its worker takes
     * them (tests/fuzz/crashes/journal-1): counts that add up are not
     * enough. I = 10 sampled with R = 5 runs 0 5 1 6 2 7 3 8 4 9
     * (sched_sample), so chunk [0, +4) is the pieces 0, 5, 1, 6. */
    static const long twice[2][2] = {{0, 2}, {0, 2}}, sampled[4][2] = {{0, 1}, {5, 1},
        {1, 1}, {6, 1}}, whole[1][2] = {{0, 4}};
    j_head(&t, 10);
    j_pieces(&t, 0, 4, 2, twice);
    test_condf(j_check(&t, path, 8, msg, sizeof msg) == DTSS_EINVAL &&
               strstr(msg, "entry 1 (at byte 68): a piece is not its chunk's next "
                      "iterations"),
               "journal: pieces [0, +2) twice for chunk [0, +4): refused (%s)", msg);
    j_head_r(&t, 10, 5, NULL);
    j_pieces(&t, 0, 4, 4, sampled);
    test_condf(j_check(&t, path, 8, msg, sizeof msg) == DTSS_OK,
               "journal: R = 5, chunk [0, +4) as pieces 0, 5, 1, 6: taken (%s)", msg);
    j_head_r(&t, 10, 5, NULL);
    j_pieces(&t, 0, 4, 1, whole);
    test_condf(j_check(&t, path, 8, msg, sizeof msg) == DTSS_EINVAL &&
               strstr(msg, "a piece is not its chunk's next iterations"),
               "journal: R = 5, chunk [0, +4) as the piece [0, +4): refused (%s)", msg);
    /* A header sets the run, nothing else (tests/fuzz/crashes/journal-2, -3):
     * resume= naming the journal itself recursed until the stack overflowed,
     * worker= set the program the workers run. */
    char self[80];
    snprintf(self, sizeof self, "resume=%s", path);
    const char *hostile[] = {"worker=/bin/sh", "local=3", self};
    for (int k = 0; k < 3; k++) {
        j_head_r(&t, 10, 1, hostile[k]);
        test_condf(j_check(&t, path, 8, msg, sizeof msg) == DTSS_EINVAL &&
                   strstr(msg, "its header names a parameter that is no scheme's"),
                   "journal: a header naming %s refused (%s)", hostile[k], msg);
    }
    j_head_r(&t, 10, 1, "min=2");
    test_condf(j_check(&t, path, 8, msg, sizeof msg) == DTSS_OK,
               "journal: a header's min=2 taken (the scheme's) (%s)", msg);

    /* dtss_master_result_bytes at its limits: 2^31 - 1 (WIRE_MAX_RESULT) */
    dtss_master *m = dtss_master_new();
    test_cond("result bytes 2147483647 taken", dtss_master_result_bytes(m, 2147483647L) ==
              DTSS_OK);
    test_cond("result bytes 2147483648 refused, named",
              dtss_master_result_bytes(m, 2147483648L) == DTSS_EINVAL &&
              strstr(dtss_master_errmsg(m), "2147483648 bytes: more than the 2147483647"));
    test_cond("result bytes -1 refused", dtss_master_result_bytes(m, -1) == DTSS_EINVAL);
    test_cond("result bytes 0 (unknown) taken", dtss_master_result_bytes(m, 0) == DTSS_OK);
    dtss_master_free(m);
    unlink(path);
    rmdir(dir);
}

/* The row strips' messages of a restore (core/wire.h), decoded from bytes
 * written by hand from buf.h's definition: a WAIT (epoch 2, worker 1, step
 * 150) and a START (epoch 1, step 100, 2 workers t40002 and t40004 with 3
 * and 1 rows, position 1, its row the 2 bytes "ab"). */
static void test_strips_wire(void)
{
    static const unsigned char wait[] = {
        'D', 'T', 6, 0,
        0, 0, 0, 0, 0, 0, 0, 2,                             /* epoch */
        0, 0, 0, 0, 0, 0, 0, 1,                             /* worker */
        0, 0, 0, 0, 0, 0, 0, 150};                          /* step */
    tr_event e = {.kind = TR_MESSAGE, .from = 0x40002, .tag = WIRE_WAIT, .data = wait,
                  .len = sizeof wait};
    long epoch = -1, step = -1;
    int index = -1;
    char msg[256] = "";
    test_condf(wire_unpack_wait(&e, &epoch, &index, &step, msg, sizeof msg) == 0 &&
               epoch == 2 && index == 1 && step == 150, "decoding a WAIT: epoch 2, worker 1, "
               "step 150 (got %ld %d %ld %s)", epoch, index, step, msg);
    unsigned char bad[sizeof wait];
    memcpy(bad, wait, sizeof wait);
    memset(bad + 20, 0xff, 8);                          /* step -1 */
    e.data = bad;
    test_condf(wire_unpack_wait(&e, &epoch, &index, &step, msg, sizeof msg) == -1 &&
               strstr(msg, "WAIT of epoch 2 from worker 1 at step -1"), "a WAIT of step -1 "
               "refused by name (%s)", msg);
    test_cond("WAIT and START named", strcmp(wire_tag_name(WIRE_WAIT), "WAIT") == 0 &&
              strcmp(wire_tag_name(WIRE_START), "START") == 0);

    unsigned char start[] = {
        'D', 'T', 6, 0,
        0, 0, 0, 0, 0, 0, 0, 1,                             /* epoch */
        0, 0, 0, 0, 0, 0, 0, 100,                           /* step */
        0, 0, 0, 0, 0, 0, 0, 2,                             /* n */
        0, 0, 0, 0, 0, 0, 0, 1,                             /* pos */
        0, 0, 0, 0, 0, 0x04, 0, 0x02, 0, 0, 0, 0, 0, 0, 0, 3,       /* t40002, 3 rows */
        0, 0, 0, 0, 0, 0x04, 0, 0x04, 0, 0, 0, 0, 0, 0, 0, 1};      /* t40004, 1 row */
    wire_start st;
    e = (tr_event){.kind = TR_MESSAGE, .from = 0x40001, .tag = WIRE_START, .data = start,
                   .len = sizeof start};
    int rc = wire_unpack_start(&e, &st, 4, msg, sizeof msg);
    test_condf(rc == 0 && st.epoch == 1 && st.step == 100 && st.n == 2 && st.pos == 1 &&
               st.tids[0] == 0x40002 && st.tids[1] == 0x40004 && st.counts[0] == 3 &&
               st.counts[1] == 1, "decoding a START: epoch 1 at step 100, t40002 3 rows, "
               "t40004 1 row, position 1 (%s)", msg);
    if (rc == 0)
        wire_start_free(&st);
    test_condf(wire_unpack_start(&e, &st, 1, msg, sizeof msg) == -1 &&
               strstr(msg, "START with a field out of range"), "a START of 2 workers for "
               "a crew of 1 refused (%s)", msg);
    start[35] = 2;                                      /* pos 2 of 2 */
    test_condf(wire_unpack_start(&e, &st, 4, msg, sizeof msg) == -1 &&
               strstr(msg, "START of epoch 1 at step 100 for position 2 of 2"),
               "a START for position 2 of 2 refused by name (%s)", msg);
    start[35] = 1;
    start[67] = 0;                                      /* t40004 with 0 rows */
    test_condf(wire_unpack_start(&e, &st, 4, msg, sizeof msg) == -1 &&
               strstr(msg, "START with a field out of range"), "a START with an empty "
               "strip refused (%s)", msg);

    unsigned char fetch[] = {
        'D', 'T', 6, 0,
        0, 0, 0, 0, 0, 0, 0, 3,                             /* epoch */
        0, 0, 0, 0, 0, 0, 0, 2};                            /* worker */
    e = (tr_event){.kind = TR_MESSAGE, .from = 0x40003, .tag = WIRE_FETCH, .data = fetch,
                   .len = sizeof fetch};
    epoch = -1, index = -1;
    test_condf(wire_unpack_fetch(&e, &epoch, &index, msg, sizeof msg) == 0 && epoch == 3 &&
               index == 2 && strcmp(wire_tag_name(WIRE_FETCH), "FETCH") == 0,
               "decoding a FETCH: epoch 3, worker 2 (got %ld %d %s)", epoch, index, msg);
    memset(fetch + 4, 0xff, 8);                         /* epoch -1 */
    test_condf(wire_unpack_fetch(&e, &epoch, &index, msg, sizeof msg) == -1 &&
               strstr(msg, "FETCH of epoch -1 from worker 2"), "a FETCH of epoch -1 refused "
               "by name (%s)", msg);
    e.len = sizeof fetch - 1;                           /* a byte short */
    test_condf(wire_unpack_fetch(&e, &epoch, &index, msg, sizeof msg) == -1,
               "a FETCH a byte short refused (%s)", msg);
}

/* ---- the row strips' journal (runtime/strips/journal.c) ------------------------
 * Known bytes: the format of journal.c's comment for a run of 2 rows of 3
 * bytes, 9 steps, the job "ab"; the field after step 4 is 1..6, after step
 * 8 is 6..1. The FNV-1a 64 sums were worked out by an independent
 * implementation (Python: h ^= byte; h *= 1099511628211 mod 2^64, from
 * 14695981039346656037): the header's 0x7ed2df75313bbb15, the entries'
 * 0x0f4a658a50c4f00c and 0x43cc6b2068248da6. */
static size_t put_u(unsigned char *b, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(v >> (8 * i));
    return 8;
}

static void test_strips_journal(void)
{
    char dir[] = "/tmp/dtss-test-sj.XXXXXX", path[64], why[400];
    test_cond("strips journal: a temporary folder", mkdtemp(dir) != NULL);
    snprintf(path, sizeof path, "%s/j", dir);
    const unsigned char f4[6] = {1, 2, 3, 4, 5, 6}, f8[6] = {6, 5, 4, 3, 2, 1};
    sj_run run = {.rows = 2, .row_bytes = 3, .steps = 9, .job = "ab", .job_len = 2};
    unsigned char want[58 + 2 * 31], got[200], *p = want;
    memcpy(p, "DTSS-STR", 8), p += 8;
    p += put_u(p, 1), p += put_u(p, 2), p += put_u(p, 3), p += put_u(p, 9), p += put_u(p, 2);
    memcpy(p, "ab", 2), p += 2;
    p += put_u(p, 0x7ed2df75313bbb15ULL);
    *p++ = 'F', p += put_u(p, 4), p += put_u(p, 6);
    memcpy(p, f4, 6), p += 6;
    p += put_u(p, 0x0f4a658a50c4f00cULL);
    *p++ = 'F', p += put_u(p, 8), p += put_u(p, 6);
    memcpy(p, f8, 6), p += 6;
    p += put_u(p, 0x43cc6b2068248da6ULL);
    sj_file j;
    int ok = sj_create(&j, path, &run, why, sizeof why) == 0 &&
             sj_barrier(&j, &run, 4, f4) == NULL && sj_barrier(&j, &run, 8, f8) == NULL;
    sj_close(&j);
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(got, 1, sizeof got, f) : 0;
    if (f)
        fclose(f);
    test_condf(ok && n == sizeof want && memcmp(got, want, n) == 0,
               "strips journal: the header and two barriers, byte for byte the known "
               "bytes (%zu of %zu)", n, sizeof want);
    /* read back: the last barrier, in a buffer; a torn tail; the run's fields */
    unsigned char a[6], b[6], *bufs[2] = {a, b};
    sj_found fd;
    int rc = sj_scan(path, &run, bufs, &fd, why, sizeof why);
    test_condf(rc == DTSS_OK && fd.step == 8 && fd.held == 2 && fd.which >= 0 &&
               memcmp(bufs[fd.which], f8, 6) == 0 && fd.good_end == 120 && fd.torn == 0,
               "strips journal: read back: step 8, 2 barriers, its field, 120 bytes (%s)",
               rc == DTSS_OK ? "ok" : why);
    f = fopen(path, "wb");
    fwrite(want, 1, sizeof want - 3, f);                /* torn: 3 bytes short */
    fclose(f);
    rc = sj_scan(path, &run, bufs, &fd, why, sizeof why);
    test_condf(rc == DTSS_OK && fd.step == 4 && fd.held == 1 && fd.good_end == 89 &&
               fd.torn == 28 && memcmp(bufs[fd.which], f4, 6) == 0,
               "strips journal: a torn last entry: the one before (step 4), 28 bytes of tail "
               "(%s)", rc == DTSS_OK ? "ok" : why);
    /* a field byte changed: its sum fails, the journal ends there */
    want[58 + 31 + 17] ^= 1;
    f = fopen(path, "wb");
    fwrite(want, 1, sizeof want, f);
    fclose(f);
    want[58 + 31 + 17] ^= 1;
    rc = sj_scan(path, &run, bufs, &fd, why, sizeof why);
    test_condf(rc == DTSS_OK && fd.step == 4 && fd.held == 1 && fd.torn == 31,
               "strips journal: a damaged entry ends it (step 4, 31 bytes ignored) (%s)",
               rc == DTSS_OK ? "ok" : why);
    /* another run: each field named; an entry not the run's: named with its byte */
    static const struct { sj_run r; const char *says; } other[] = {
        {{3, 3, 9, "ab", 2}, "the journal's run has 2 rows, this one 3"},
        {{2, 4, 9, "ab", 2}, "the journal's run has rows of 3 bytes, this one's 4"},
        {{2, 3, 8, "ab", 2}, "the journal's run has 9 steps, this one 8"},
        {{2, 3, 9, "abc", 3}, "the journal's run has a job of 2 bytes, this one 3"},
        {{2, 3, 9, "ax", 2}, "another job (its 2 bytes differ from byte 1 on)"},
    };
    f = fopen(path, "wb");
    fwrite(want, 1, sizeof want, f);
    fclose(f);
    for (size_t k = 0; k < sizeof other / sizeof *other; k++) {
        rc = sj_scan(path, &other[k].r, bufs, &fd, why, sizeof why);
        test_condf(rc == DTSS_EINVAL && strstr(why, other[k].says), "strips journal: "
                   "another run refused: %s (%s)", other[k].says, why);
    }
    f = fopen(path, "wb");                      /* entry 2 as entry 1 again */
    fwrite(want, 1, 58 + 31, f);
    fwrite(want + 58, 1, 31, f);
    fclose(f);
    rc = sj_scan(path, &run, bufs, &fd, why, sizeof why);
    test_condf(rc == DTSS_EINVAL && strstr(why, "entry 2 (at byte 89): its step 4 is not "
               "after entry 1's 4: a damaged journal, or another run's"),
               "strips journal: an entry twice refused, named (%s)", why);
    rc = sj_scan("/nonexistent/j", &run, bufs, &fd, why, sizeof why);
    test_condf(rc == DTSS_ENOENT, "strips journal: no file: DTSS_ENOENT (%s)", why);
    unlink(path);
    rmdir(dir);
}

/* ---- the migration master's journal (runtime/lb/journal.c) -----------------------
 * Its format (journal.c's header): "DTSS-LBJ", u 1, u N, u the tasks' sum
 * (FNV-1a 64 over each task: u its length, its bytes), u job length, the
 * job, sum; entries 'T', u task, u length, the bytes, sum. The run here: 3
 * tasks "a", "bb", "" and the job "J". */
static unsigned long long lbj_sum3(void)
{
    jbuf t = {.n = 0, .from = 0};
    j_u(&t, 1);
    j_bytes(&t, "a", 1);
    j_u(&t, 2);
    j_bytes(&t, "bb", 2);
    j_u(&t, 0);
    j_sum(&t);                          /* (its last 8 bytes, little-endian) */
    unsigned long long h = 0;
    for (int i = 0; i < 8; i++)
        h |= (unsigned long long)t.b[t.n - 8 + (size_t)i] << (8 * i);
    return h;
}

static void lbj_head(jbuf *j, long N, unsigned long long sum, const char *job)
{
    j->n = j->from = 0;
    j_bytes(j, "DTSS-LBJ", 8);
    j_u(j, 1);
    j_u(j, (unsigned long long)N);
    j_u(j, sum);
    j_u(j, strlen(job));
    j_bytes(j, job, strlen(job));
    j_sum(j);
}

static void lbj_entry(jbuf *j, long task, const char *res)
{
    j_bytes(j, "T", 1);
    j_u(j, (unsigned long long)task);
    j_u(j, strlen(res));
    j_bytes(j, res, strlen(res));
    j_sum(j);
}

static int lbj_write(const char *path, const jbuf *j, size_t n)
{
    FILE *f = fopen(path, "wb");
    int ok = f && fwrite(j->b, 1, n, f) == n;
    return (f ? fclose(f) : 0) == 0 && ok ? 0 : -1;
}

static void test_lb_journal(void)
{
    char dir[] = "/tmp/dtss-test-lbj.XXXXXX", path[64], why[300];
    if (!mkdtemp(dir)) {
        test_cond("a temporary folder", 0);
        return;
    }
    snprintf(path, sizeof path, "%s/j", dir);
    uint64_t sum = 14695981039346656037ULL;
    sum = lbj_task_sum(sum, "a", 1);
    sum = lbj_task_sum(sum, "bb", 2);
    sum = lbj_task_sum(sum, "", 0);
    test_condf(sum == lbj_sum3(), "lbj_task_sum: FNV-1a 64 over u length, bytes of each "
               "task (%016llx)", (unsigned long long)sum);
    lbj_run run = {.job = "J", .job_len = 1, .ntasks = 3, .tasks_sum = sum};
    /* the writer's bytes are the format's, byte for byte */
    jbuf j;
    lbj_head(&j, 3, sum, "J");
    size_t head = j.n;
    lbj_entry(&j, 2, "xyz");
    size_t e1 = j.n;
    lbj_entry(&j, 0, "");
    jnl_w w;
    const char *err = lbj_create(&w, path, &run);
    if (!err)
        err = lbj_put_result(&w, 2, "xyz", 3);
    if (!err)
        err = lbj_put_result(&w, 0, "", 0);
    jnl_close(&w);
    unsigned char got[256];
    FILE *f = fopen(path, "rb");
    size_t n = f ? fread(got, 1, sizeof got, f) : 0;
    if (f)
        fclose(f);
    test_condf(!err && head == 49 && n == j.n && memcmp(got, j.b, n) == 0,
               "lb journal: written as crafted (header 49 bytes, %zu in all; %s)", n,
               err ? err : "written");
    /* read back */
    lbj_loaded l;
    int rc = lbj_load(path, &run, &l, why, sizeof why);
    test_condf(rc == DTSS_OK && l.n == 2 && l.task[0] == 2 && l.len[0] == 3 &&
               memcmp(l.data[0], "xyz", 3) == 0 && l.task[1] == 0 && l.len[1] == 0 &&
               l.good_end == (long)j.n && l.torn == 0, "lb journal: read back (%s)",
               rc == DTSS_OK ? "ok" : why);
    lbj_loaded_free(&l);
    /* a torn tail: the journal ends at the last whole entry */
    lbj_write(path, &j, j.n - 3);
    rc = lbj_load(path, &run, &l, why, sizeof why);
    test_condf(rc == DTSS_OK && l.n == 1 && l.good_end == (long)e1 &&
               l.torn == (long)(j.n - 3 - e1), "lb journal: a torn last entry is its end "
               "(%s)", rc == DTSS_OK ? "ok" : why);
    lbj_loaded_free(&l);
    /* a damaged entry (its checksum fails): the end */
    jbuf d = j;
    d.b[e1 - 9] ^= 1;                   /* entry 1's last result byte */
    lbj_write(path, &d, d.n);
    rc = lbj_load(path, &run, &l, why, sizeof why);
    test_condf(rc == DTSS_OK && l.n == 0 && l.good_end == (long)head &&
               l.torn == (long)(d.n - head), "lb journal: a damaged first entry ends it there "
               "(%s)", rc == DTSS_OK ? "ok" : why);
    lbj_loaded_free(&l);
    d = j;
    d.b[head] = 'R';                    /* not a kind of this journal */
    lbj_write(path, &d, d.n);
    rc = lbj_load(path, &run, &l, why, sizeof why);
    test_condf(rc == DTSS_OK && l.n == 0, "lb journal: an unknown kind ends it (%s)",
               rc == DTSS_OK ? "ok" : why);
    lbj_loaded_free(&l);
    /* whole entries, checksums right, not this run's: refused, named (entry 3 at
     * 49 + 28 + 25) */
    d = j;
    lbj_entry(&d, 3, "q");
    lbj_write(path, &d, d.n);
    rc = lbj_load(path, &run, &l, why, sizeof why);
    test_condf(rc == DTSS_EINVAL && l.n == 0 &&
               strstr(why, "entry 3 (at byte 102): a result of task 3, not one of the run's 3"),
               "lb journal: a task past N refused, named (%s)", why);
    d = j;
    lbj_entry(&d, 2, "xyz");
    lbj_write(path, &d, d.n);
    rc = lbj_load(path, &run, &l, why, sizeof why);
    test_condf(rc == DTSS_EINVAL && strstr(why, "entry 3 (at byte 102): a result of task 2, "
               "which entry 1 holds too"), "lb journal: a task twice refused, named (%s)", why);
    /* another run's header: refused naming the field */
    lbj_write(path, &j, j.n);
    lbj_run other = run;
    other.ntasks = 4;
    rc = lbj_load(path, &other, &l, why, sizeof why);
    test_condf(rc == DTSS_EINVAL && strstr(why, "the journal's run has 3 tasks, this one 4"),
               "lb journal: another N refused (%s)", why);
    other = run;
    other.tasks_sum ^= 1;
    rc = lbj_load(path, &other, &l, why, sizeof why);
    test_condf(rc == DTSS_EINVAL && strstr(why, "the journal's run has other tasks"),
               "lb journal: other tasks refused (%s)", why);
    other = run;
    other.job = "K";
    rc = lbj_load(path, &other, &l, why, sizeof why);
    test_condf(rc == DTSS_EINVAL && strstr(why, "the journal's run has another job (1 bytes; "
               "this one 1)"), "lb journal: another job refused (%s)", why);
    /* not a journal; a damaged header; no file */
    d = j;
    d.b[20] ^= 1;                       /* the header's N: its checksum fails */
    lbj_write(path, &d, d.n);
    rc = lbj_load(path, &run, &l, why, sizeof why);
    test_condf(rc == DTSS_EINVAL && strstr(why, "its header is damaged"),
               "lb journal: a damaged header refused (%s)", why);
    memcpy(d.b, "DTSS-JNL", 8);
    lbj_write(path, &d, d.n);
    rc = lbj_load(path, &run, &l, why, sizeof why);
    test_condf(rc == DTSS_EINVAL && strstr(why, "not a journal of this kind"),
               "lb journal: the loop's magic refused (%s)", why);
    unlink(path);
    rc = lbj_load(path, &run, &l, why, sizeof why);
    test_condf(rc == DTSS_ENOENT, "lb journal: no file: DTSS_ENOENT (%s)", why);
    rmdir(dir);
}

int main(void)
{
    test_strips_journal();
    test_journal();
    test_lb_journal();
    test_encoding();
    test_strips_wire();
    test_set();
    test_args();
    test_worker();
    return test_report();
}
