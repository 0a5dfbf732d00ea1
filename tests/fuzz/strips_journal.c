/* strips_journal.c: fuzzes the row strips' journal reader
 * (runtime/strips/journal.c, sj_scan: what --resume reads before anything
 * runs), without PVM: the input's first byte is a mode, the rest the
 * journal.
 *
 * The mode's bits:
 *   0     1: the journal as it is; 0: its checksums made right first (the
 *         header's and every entry's FNV-1a 64, where the lengths allow), so
 *         that the fuzzer reaches what follows the checksums: whether a
 *         whole entry's numbers are the run's
 *   1     1: the run the reader is told is the header's own (when its rows x
 *         row bytes are at most 4096 and its job at most 64 bytes); 0: a
 *         fixed run (3 rows of 4 bytes, 20 steps, the job "plate")
 *
 * Checked: a refusal says why (one line of printable text), and with the
 * header's own run and right checksums never names a header field; an
 * accepted journal's last barrier is in 0 .. steps (0 exactly when it holds
 * none, and then no buffer is named), its whole entries and torn tail add up
 * to the file, every whole entry is the run's size, and the buffer named
 * holds the last entry's field as the file has it; then a barrier appended
 * after it (sj_reopen, sj_barrier) is read back as the last, one more whole
 * entry, no tail. */
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/jwalk.h"
#include "runtime/dtss.h"
#include "runtime/strips/journal.h"

typedef struct head {
    int ok;
    uint64_t rows, rb, steps, job_len;
    size_t job_at, end;
} head;

static head walk_journal(uint8_t *b, size_t n, int repair)
{
    jwalk w = {b, n, 0, 1};
    head h = {0};
    jwalk_skip(&w, 8);
    (void)jwalk_u64(&w);
    h.rows = jwalk_u64(&w);
    h.rb = jwalk_u64(&w);
    h.steps = jwalk_u64(&w);
    h.job_len = jwalk_u64(&w);
    h.job_at = w.at;
    jwalk_skip(&w, h.job_len);
    jwalk_seal(&w, 0, repair);
    h.ok = w.ok;
    h.end = w.at;
    while (w.ok && w.at < n) {
        size_t from = w.at;
        if (b[w.at++] != 'F')
            break;
        (void)jwalk_u64(&w);
        jwalk_skip(&w, jwalk_u64(&w));
        jwalk_seal(&w, from, repair);
    }
    return h;
}

static void says_why(const char *why)
{
    FUZZ_CHECK(why[0] != '\0');
    for (const char *p = why; *p; p++)
        FUZZ_CHECK((unsigned char)*p >= 32 && (unsigned char)*p < 127);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const int raw = data[0] & 1, own = (data[0] >> 1) & 1;
    size_t n = size - 1;
    uint8_t *b = malloc(n ? n : 1);
    FUZZ_CHECK(b != NULL);
    memcpy(b, data + 1, n);
    head h = walk_journal(b, n, !raw);
    static const char plate[] = "plate";
    sj_run run = {.rows = 3, .row_bytes = 4, .steps = 20, .job = plate, .job_len = 5};
    int its_own = own && h.ok && h.rows >= 1 && h.rb >= 1 && h.rows <= 4096 &&
                  h.rb <= 4096 && h.rows * h.rb <= 4096 && h.steps <= 1000000000 &&
                  h.job_len <= 64;
    if (its_own)
        run = (sj_run){.rows = (long)h.rows, .row_bytes = (size_t)h.rb,
                       .steps = (long)h.steps, .job = b + h.job_at, .job_len = h.job_len};
    const char *path = fuzz_file(b, n);
    size_t fb = (size_t)run.rows * run.row_bytes;
    unsigned char *buf[2] = {malloc(fb), malloc(fb)};
    FUZZ_CHECK(buf[0] && buf[1]);
    char why[400] = "";
    sj_found f;
    int rc = sj_scan(path, &run, buf, &f, why, sizeof why);
    if (rc != DTSS_OK) {
        FUZZ_CHECK(rc == DTSS_EINVAL || rc == DTSS_ENOMEM);
        says_why(why);
        if (its_own && !raw)
            FUZZ_CHECK(strstr(why, "the journal's run has") == NULL);
        goto out;
    }
    FUZZ_CHECK(f.step >= 0 && f.step <= run.steps);
    FUZZ_CHECK((f.step == 0) == (f.held == 0) && (f.which < 0) == (f.held == 0));
    FUZZ_CHECK(f.which >= -1 && f.which <= 1);
    FUZZ_CHECK(f.torn >= 0 && f.good_end + f.torn == (long)n);
    size_t e = 25 + fb;
    FUZZ_CHECK(h.ok && (size_t)f.good_end == h.end + (size_t)f.held * e);
    if (f.which >= 0)
        FUZZ_CHECK(memcmp(buf[f.which], b + f.good_end - 8 - fb, fb) == 0);
    if (f.step < run.steps) {           /* a barrier appended is read back */
        sj_file j;
        FUZZ_CHECK(sj_reopen(&j, path, f.good_end, f.held, f.step) == 0);
        unsigned char *field = malloc(fb);
        FUZZ_CHECK(field != NULL);
        for (size_t i = 0; i < fb; i++)
            field[i] = (unsigned char)(i * 7 + (size_t)f.step);
        FUZZ_CHECK(sj_barrier(&j, &run, f.step + 1, field) == NULL);
        sj_close(&j);
        sj_found g;
        FUZZ_CHECK(sj_scan(path, &run, buf, &g, why, sizeof why) == DTSS_OK);
        FUZZ_CHECK(g.step == f.step + 1 && g.held == f.held + 1 && g.torn == 0 &&
                   g.which >= 0 && memcmp(buf[g.which], field, fb) == 0);
        free(field);
    }
out:
    free(buf[0]);
    free(buf[1]);
    free(b);
    return 0;
}
