/* lb_journal.c: fuzzes the migration master's journal reader
 * (runtime/lb/journal.c, lbj_load: what dtss_lb_start reads on --resume,
 * before it asks PVM for anything), without PVM: the input's first byte is
 * a mode, the rest the journal.
 *
 * The mode's bits:
 *   0     1: the journal as it is; 0: its checksums made right first (the
 *         header's and every entry's, where the lengths allow), so that the
 *         fuzzer reaches what follows them: whether a whole entry is the run's
 *   1     1: the run is the header's own (its N, when at most 10^6, its
 *         tasks' sum and job), so that the header is taken and the entries
 *         read; 0: a fixed run (3 tasks "a", "bb", ""; the job "J")
 *   2     with bit 1: the run has one task fewer than the header says
 *         (another run's: refused, naming the tasks)
 *
 * Checked: a refusal says why (one line of printable text) and leaves
 * nothing; an accepted journal's results are of tasks below the run's N,
 * each once; the whole entries end where the torn part begins, which ends
 * at the file's end; another N is refused. */
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/jwalk.h"
#include "runtime/dtss.h"
#include "runtime/lb/journal.h"
#include "sched/util/fnv.h"

static void repair(uint8_t *b, size_t n)
{
    jwalk w = {b, n, 0, 1};
    jwalk_skip(&w, 16);                     /* magic, version */
    jwalk_u64(&w);                          /* N */
    jwalk_u64(&w);                          /* the tasks' sum */
    jwalk_skip(&w, jwalk_u64(&w));          /* the job */
    jwalk_seal(&w, 0, 1);
    while (w.ok && w.at < w.n) {
        size_t from = w.at;
        jwalk_skip(&w, 1 + 8);              /* kind, task */
        jwalk_skip(&w, jwalk_u64(&w));
        jwalk_seal(&w, from, 1);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int mode = data[0];
    size_t n = size - 1;
    uint8_t *b = malloc(n ? n : 1);
    if (!b)
        abort();
    memcpy(b, data + 1, n);
    if (!(mode & 1))
        repair(b, n);
    uint64_t sum = FNV1A_BASIS;
    sum = lbj_task_sum(sum, "a", 1);
    sum = lbj_task_sum(sum, "bb", 2);
    sum = lbj_task_sum(sum, "", 0);
    lbj_run run = {.job = "J", .job_len = 1, .ntasks = 3, .tasks_sum = sum};
    int other = 0;
    if (mode & 2) {                     /* the header's own run */
        jwalk w = {b, n, 0, 1};
        jwalk_skip(&w, 16);                 /* magic, version */
        uint64_t N = jwalk_u64(&w), s = jwalk_u64(&w), jl = jwalk_u64(&w);
        if (!w.ok || N > 1000000 || jl > w.n - w.at) {
            free(b);
            return 0;
        }
        run = (lbj_run){.job = b + w.at, .job_len = (size_t)jl, .ntasks = (long)N,
                        .tasks_sum = s};
        if ((mode & 4) && N > 0) {
            run.ntasks--;
            other = 1;
        }
    }
    const char *path = fuzz_file(b, n);
    lbj_loaded l;
    char why[512] = "";
    int rc = lbj_load(path, &run, &l, why, sizeof why);
    if (rc != DTSS_OK) {
        FUZZ_CHECK(rc == DTSS_EINVAL || rc == DTSS_ENOMEM || rc == DTSS_ENOENT);
        FUZZ_CHECK(why[0] != '\0');
        for (const char *p = why; *p; p++)
            FUZZ_CHECK(*p >= 0x20 && *p < 0x7f);
        FUZZ_CHECK(l.n == 0 && !l.task && !l.data && !l.len);
    } else {
        FUZZ_CHECK(!other);             /* another N: never taken */
        FUZZ_CHECK(l.n >= 0 && l.n <= run.ntasks);
        FUZZ_CHECK(l.good_end >= 48 && l.torn >= 0 &&
                   (size_t)(l.good_end + l.torn) == n);
        unsigned char *seen = calloc((size_t)run.ntasks + 1, 1);
        if (!seen)
            abort();
        for (long i = 0; i < l.n; i++) {
            FUZZ_CHECK(l.task[i] >= 0 && l.task[i] < run.ntasks && !seen[l.task[i]]);
            FUZZ_CHECK(l.data[i] != NULL && l.len[i] <= n);
            seen[l.task[i]] = 1;
        }
        free(seen);
        lbj_loaded_free(&l);
    }
    free(b);
    return 0;
}
