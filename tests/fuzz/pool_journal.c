/* pool_journal.c: fuzzes the pool's journal reader (runtime/pool/journal.c,
 * the file of thin-pool's and bin/jacobi's --resume), without PVM: the
 * input's first byte is a mode, the rest the journal. A pool master is
 * given it as option resume and a run (ntasks, job); pool_journal_scan
 * reads it through -- what dtss_pool_start does before it asks PVM for
 * anything --, pool_journal_open opens it (cut, to append), and every journaled result is found and read back as
 * dtss_pool_next would hand it out (pool_journal_find, pool_journal_read).
 *
 * The mode's bits:
 *   0     1: the journal as it is; 0: its checksums made right first (the
 *         header's and every entry's FNV-1a 64, where the lengths allow),
 *         so that the fuzzer reaches whether a whole entry is the run's
 *   1-2   the run's ntasks: 0 the header's; 1 the header's + 1; 2 one task;
 *         3 the header's
 *   3     the run's job: 0 the header's; 1 another (refused)
 *
 * Checked: whatever is refused says why (a message, one line of printable
 * text, naming --resume); another ntasks or job is refused; an accepted
 * journal is the run's: its whole entries plus its torn tail are the
 * file, cut to the entries (what the resumed run appends to); by entry
 * order its iterations start at 1 and rise by at most one, its tasks are
 * the run's, its times >= 0 and finite, no (iteration, task) twice; each
 * is found by its key and read back whole. */
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/jwalk.h"

#include <math.h>
#include <sys/stat.h>

#include "runtime/pool/pool.h"

/* ---- the checksums made right ------------------------------------------------ */

/* The header as the bytes say it (ntasks, the job's place; ok: whole). */
typedef struct head {
    int ok;
    uint64_t ntasks, job_len;
    size_t job_at;
} head;

static head walk_journal(uint8_t *b, size_t n, int repair)
{
    jwalk w = {b, n, 0, 1};
    head h = {0};
    jwalk_skip(&w, 8);
    (void)jwalk_u64(&w);                    /* version */
    h.ntasks = jwalk_u64(&w);
    h.job_len = jwalk_u64(&w);
    h.job_at = w.at;
    jwalk_skip(&w, h.job_len);
    jwalk_seal(&w, 0, repair);
    h.ok = w.ok;
    while (w.ok && w.at < n) {
        size_t from = w.at;
        if (b[w.at++] != 'R')
            break;
        for (int i = 0; i < 4; i++)
            (void)jwalk_u64(&w);
        jwalk_skip(&w, jwalk_u64(&w));
        jwalk_seal(&w, from, repair);
    }
    return h;
}

/* ---- what an accepted journal holds ------------------------------------------ */

static void says_why(const dtss_pool *p)
{
    const char *e = dtss_pool_errmsg(p);
    FUZZ_CHECK(e[0] != '\0' && strstr(e, "--resume") != NULL);
    for (const unsigned char *c = (const unsigned char *)e; *c; c++)
        FUZZ_CHECK(*c >= 0x20 && *c != 0x7f);
}

static int by_number(const void *a, const void *b)
{
    const pjentry *x = a, *y = b;
    return (x->number > y->number) - (x->number < y->number);
}

static void check_accepted(dtss_pool *p, const char *path, size_t size)
{
    pool_journal *j = &p->jn;
    struct stat st;
    FUZZ_CHECK(j->good_end > 0 && j->torn >= 0 && j->good_end + j->torn == (long)size);
    FUZZ_CHECK(stat(path, &st) == 0 && st.st_size == j->good_end);   /* cut */
    FUZZ_CHECK(j->ne >= 0 && (j->ne == 0) == (j->last_iteration == 0));
    pjentry *e = malloc(sizeof *e * (size_t)(j->ne ? j->ne : 1));
    FUZZ_CHECK(e != NULL);
    if (j->ne)
        memcpy(e, j->e, sizeof *e * (size_t)j->ne);
    qsort(e, (size_t)j->ne, sizeof *e, by_number);
    int last = 0;
    for (long i = 0; i < j->ne; i++) {
        FUZZ_CHECK(e[i].number == i + 1 && e[i].at < j->good_end);
        FUZZ_CHECK(e[i].iteration >= 1 && e[i].iteration >= last &&
                   e[i].iteration <= last + 1);
        FUZZ_CHECK(e[i].task >= 0 && e[i].task < p->ntasks);
        FUZZ_CHECK(e[i].seconds >= 0 && isfinite(e[i].seconds));
        last = e[i].iteration;
    }
    FUZZ_CHECK(last == j->last_iteration);
    free(e);
    for (long i = 0; i < j->ne; i++) {
        if (i > 0)                      /* each (iteration, task) once */
            FUZZ_CHECK(j->e[i - 1].iteration < j->e[i].iteration ||
                       (j->e[i - 1].iteration == j->e[i].iteration &&
                        j->e[i - 1].task < j->e[i].task));
        FUZZ_CHECK(pool_journal_find(p, j->e[i].iteration, j->e[i].task) == i);
        unsigned char *d;
        size_t len;
        FUZZ_CHECK(pool_journal_read(p, i, &d, &len) == DTSS_OK);
        FUZZ_CHECK(len <= (size_t)(j->good_end - j->e[i].at));
        free(d);
    }
    FUZZ_CHECK(pool_journal_find(p, j->last_iteration + 1, 0) == -1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const int mode = data[0], raw = mode & 1, tasks = (mode >> 1) & 3, other = (mode >> 3) & 1;
    size_t n = size - 1;
    uint8_t *b = malloc(n ? n : 1);
    FUZZ_CHECK(b != NULL);
    memcpy(b, data + 1, n);
    head h = walk_journal(b, n, !raw);
    const char *path = fuzz_file(b, n);

    dtss_pool *p = dtss_pool_new();
    FUZZ_CHECK(p != NULL);
    dtss_pool_log(p, NULL, NULL, 0);
    /* the run: the header's (when whole and in range), or another */
    int refused = 0;
    long nt = h.ok && h.ntasks >= 1 && h.ntasks <= POOL_MAX_TASKS ? (long)h.ntasks : 2;
    if (tasks == 1 && nt < POOL_MAX_TASKS) {
        nt++;
        refused = h.ok;
    } else if (tasks == 2) {
        refused = h.ok && nt != 1;
        nt = 1;
    }
    p->ntasks = (int)nt;
    if (h.ok && h.job_len <= WIRE_MAX_JOB) {
        if (h.job_len > 0 || other)
            FUZZ_CHECK(dtss_pool_job(p, other ? (const void *)"another job" : b + h.job_at,
                                     other ? 11 : (size_t)h.job_len) == DTSS_OK);
        if (other && !(h.job_len == 11 && memcmp(b + h.job_at, "another job", 11) == 0))
            refused = 1;
    }
    free(b);
    FUZZ_CHECK(dtss_pool_set(p, "resume", path) == DTSS_OK);
    int rc = pool_journal_scan(p);
    if (rc == DTSS_OK)
        FUZZ_CHECK(pool_journal_open(p) == DTSS_OK);
    if (rc != DTSS_OK) {
        FUZZ_CHECK(rc == DTSS_EINVAL || rc == DTSS_ENOMEM || rc == DTSS_ENOENT);
        says_why(p);
    } else {
        FUZZ_CHECK(!refused);
        check_accepted(p, path, n);
    }
    dtss_pool_free(p);
    return 0;
}
