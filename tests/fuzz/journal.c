/* journal.c: fuzzes the loop's journal reader (runtime/loop/journal.c, the
 * file of --resume), without PVM: the input's first byte is a mode, the rest
 * the journal. A master is given it as option resume, then dtss_master_check
 * reads it through -- what dtss_master_start does before it asks PVM for
 * anything -- and the journal's results are read back as dtss_master_next
 * would hand them out (journal_open_results, journal_next_result).
 *
 * The mode's bits:
 *   0     1: the journal as it is; 0: its checksums made right first (every
 *         entry's FNV-1a 64 and the header's, where the lengths allow), so
 *         that the fuzzer reaches what follows the checksums: whether a
 *         whole entry's numbers are the run's
 *   1-2   the result bytes told (dtss_master_result_bytes): 0 (unknown), 8, 1, 4
 *   3-5   what is set after resume: 0-3 nothing; 4 the journal's own I
 *         (changes nothing); 5 another I; 6 another scheme; 7 another R
 *         (4: the same outcome as nothing; 5-7 refused)
 *   6-7   the Tree resume's workers, 1 + this (below)
 *
 * Checked: whatever is refused says why (a message, one line of printable
 * text); a journal sets nothing but its run (scheme, parameters, I, R, job:
 * no placement option); an accepted journal is the header's run, its chunks
 * lie in [0, I), and its results, read back, are what the API promises
 * (dtss_master_next: each iteration's results once): each result's pieces
 * add up to its chunk, iterations and bytes (bytes = iterations x the
 * result bytes, when told), lie in the chunk's image in the original order
 * (sched_unsample), and no two pieces of all the results overlap; a second
 * dtss_master_check gives the same. Its done ranges, given to a Tree
 * resume (tree_resume, sched/loop/tree.c: what a resumed tree run's master
 * does with them; 1-4 workers by the mode's bits 6-7, of speeds 1, 2, 3, 5;
 * with 3 or more, worker 1 lost at once), are taken, and every worker
 * doing what it holds and then asking (tree_idle, tree_recover) ends the
 * loop with every iteration done exactly once. */
#include "tests/fuzz/fuzz.h"
#include "tests/fuzz/jwalk.h"
#include "runtime/loop/master.h"

/* ---- the checksums made right ------------------------------------------------ */

/* The header as the bytes say it (valid when ok). */
typedef struct head {
    int ok;
    uint64_t I, R, job_len;
} head;

static head walk_journal(uint8_t *b, size_t n, int repair)
{
    jwalk w = {b, n, 0, 1};
    head h = {0};
    jwalk_skip(&w, 8);
    (void)jwalk_u64(&w);                    /* version */
    h.I = jwalk_u64(&w);
    h.R = jwalk_u64(&w);
    jwalk_skip(&w, jwalk_u64(&w));          /* the scheme */
    uint64_t np = jwalk_u64(&w);
    for (uint64_t i = 0; w.ok && i < np; i++)
        jwalk_skip(&w, jwalk_u64(&w));
    h.job_len = jwalk_u64(&w);
    jwalk_skip(&w, h.job_len);
    jwalk_seal(&w, 0, repair);
    h.ok = w.ok;
    while (w.ok && w.at < n) {
        size_t from = w.at;
        uint8_t kind = b[w.at++];
        if (kind != 'A' && kind != 'R')
            break;
        (void)jwalk_u64(&w);
        (void)jwalk_u64(&w);
        if (kind == 'R') {
            uint64_t pieces = jwalk_u64(&w), total = 0;
            if (pieces > (n - w.at) / 24)
                break;
            for (uint64_t i = 0; w.ok && i < 3 * pieces; i++) {
                uint64_t v = jwalk_u64(&w);
                if (i % 3 == 2)
                    total = v > n || total + v > n ? n + 1 : total + v;
            }
            jwalk_skip(&w, total);
        }
        jwalk_seal(&w, from, repair);
    }
    return h;
}

/* ---- a Tree resume of its done ranges ---------------------------------------- */

typedef struct span { long start, size; } span;

static int by_start(const void *a, const void *b)
{
    const span *x = a, *y = b;
    return (x->start > y->start) - (x->start < y->start);
}

static void add_span(span **v, long *n, long *cap, long start, long size)
{
    if (*n == *cap) {
        *cap = *cap ? 2 * *cap : 64;
        *v = realloc(*v, sizeof **v * (size_t)*cap);
        FUZZ_CHECK(*v != NULL);
    }
    (*v)[(*n)++] = (span){start, size};
}

static void check_tree_resume(const dtss_master *m, int nw)
{
    static const double V[4] = {1, 2, 3, 5};
    const journal *j = &m->jw;
    const long I = m->iters;
    sched_err err;
    tree *t = tree_new(I, V, nw, &err);
    FUZZ_CHECK(t != NULL);
    FUZZ_CHECK(tree_resume(t, j->done, j->ndone, &err) == SCHED_OK);
    FUZZ_CHECK(tree_remaining(t) == I - j->done_iters);
    FUZZ_CHECK(tree_resume(t, j->done, j->ndone, &err) == SCHED_EINVAL);   /* once */
    span *got = NULL;                   /* every range done: the journal's, then ours */
    long ng = 0, cap = 0, hs[4], hn[4];
    for (long i = 0; i < j->ndone; i++)
        add_span(&got, &ng, &cap, j->done[i].start, j->done[i].size);
    for (int w = 0; w < nw; w++) {
        tree_range(t, w, &hs[w], &hn[w]);
        FUZZ_CHECK(hn[w] >= 0 && hs[w] >= 0 && hs[w] <= I - hn[w]);
    }
    const int first = nw >= 3;          /* worker 0 lost at once */
    if (first) {
        tree_lost(t, 0);
        hn[0] = 0;
    }
    /* a round: each live worker sends what it holds and is idle, then what
     * is served goes out; a round per gap and worker is more than enough */
    for (long round = 0; !tree_finished(t) && round < j->ndone + 2L * nw + 4; round++) {
        for (int w = first; w < nw; w++) {
            if (hn[w] > 0) {
                FUZZ_CHECK(tree_result(t, w, hs[w], hn[w], &err) == SCHED_OK);
                add_span(&got, &ng, &cap, hs[w], hn[w]);
                hn[w] = 0;
            }
            tree_idle(t, w);
        }
        policy_chunk c;
        int r;
        while ((r = tree_recover(t, &c, &err)) == 1) {
            FUZZ_CHECK(c.worker >= first && c.worker < nw && hn[c.worker] == 0 &&
                       c.size >= 1);
            hs[c.worker] = c.start;
            hn[c.worker] = c.size;
        }
        FUZZ_CHECK(r == 0);
    }
    FUZZ_CHECK(tree_finished(t) && tree_remaining(t) == 0);
    if (ng > 1)
        qsort(got, (size_t)ng, sizeof *got, by_start);
    long sum = 0;
    for (long i = 0; i < ng; i++) {     /* each iteration once, every one */
        FUZZ_CHECK(i == 0 || got[i].start >= got[i - 1].start + got[i - 1].size);
        sum += got[i].size;
    }
    FUZZ_CHECK(sum == I);
    free(got);
    tree_free(t);
}

/* ---- what an accepted journal holds ------------------------------------------ */

/* A refusal says why: a message of printable text (quote.h's promise). */
static void says_why(const dtss_master *m)
{
    const char *e = dtss_master_errmsg(m);
    FUZZ_CHECK(e[0] != '\0');
    for (const unsigned char *p = (const unsigned char *)e; *p; p++)
        FUZZ_CHECK(*p >= 0x20 && *p != 0x7f);
}

/* The journal's counts, as read by dtss_master_check. */
typedef struct counts { long ndone, results, done_iters, handed, out_iters, torn, end; } counts;

static counts counts_of(const dtss_master *m)
{
    const journal *j = &m->jw;
    return (counts){j->ndone, j->results, j->done_iters, j->handed, j->out_iters, j->torn,
                    j->good_end};
}

static void check_accepted(dtss_master *m, const head *h, long bytes, size_t size, int nw)
{
    const long I = m->iters, R = m->sample;
    const journal *j = &m->jw;
    FUZZ_CHECK(m->resume == 1);
    if (h->ok)                          /* (a header read is one the jwalk reads) */
        FUZZ_CHECK((uint64_t)I == h->I && (uint64_t)R == h->R);
    size_t jl;
    (void)dtss_master_get_job(m, &jl);
    FUZZ_CHECK(!h->ok || jl == h->job_len);
    FUZZ_CHECK(j->ndone == j->results && j->ndone >= 0);
    FUZZ_CHECK(j->data_start > 0 && j->data_start <= j->good_end &&
               j->good_end + j->torn == (long)size);
    long sum = 0;
    for (long i = 0; i < j->ndone; i++) {
        FUZZ_CHECK(j->done[i].start >= 0 && j->done[i].size >= 1 &&
                   j->done[i].size <= I - j->done[i].start);
        sum += j->done[i].size;
        FUZZ_CHECK(sum <= I);           /* (no iteration done twice) */
    }
    FUZZ_CHECK(sum == j->done_iters);
    FUZZ_CHECK(j->handed >= 0 && j->handed <= I && j->out_iters >= 0 &&
               j->out_iters <= j->handed);
    check_tree_resume(m, nw);

    /* read back as dtss_master_next hands them out */
    FUZZ_CHECK(journal_open_results(m) == DTSS_OK);
    span *pieces = NULL;
    long np = 0, cap = 0, results = 0, iters = 0;
    wire_result r;
    int got;
    while ((got = journal_next_result(m, &r)) == 1) {
        results++;
        FUZZ_CHECK(r.start >= 0 && r.size >= 1 && r.size <= I - r.start && r.npieces >= 1);
        long it = 0;
        size_t len = 0;
        for (long p = 0; p < r.npieces; p++) {
            const long *x = &r.hdr[3 * p];
            FUZZ_CHECK(x[0] >= 0 && x[1] >= 1 && x[1] <= I - x[0] && x[2] >= 0);
            FUZZ_CHECK(bytes == 0 || x[2] == x[1] * bytes);
            /* the piece is iterations of this chunk, in the original order:
             * its ends (and, when short, every iteration) map back into it */
            for (long k = 0; k < x[1]; k = k < 64 || k == x[1] - 1 ? k + 1 : x[1] - 1) {
                long u = sched_unsample(x[0] + k, I, R);
                FUZZ_CHECK(u >= r.start && u < r.start + r.size);
            }
            it += x[1];
            len += (size_t)x[2];
            if (np == cap) {
                cap = cap ? 2 * cap : 64;
                pieces = realloc(pieces, sizeof *pieces * (size_t)cap);
                FUZZ_CHECK(pieces != NULL);
            }
            pieces[np++] = (span){x[0], x[1]};
        }
        FUZZ_CHECK(it == r.size && len == r.len);
        iters += r.size;
        wire_result_free(&r);
    }
    FUZZ_CHECK(got == 0 && results == j->results && iters == j->done_iters);
    if (np > 1)
        qsort(pieces, (size_t)np, sizeof *pieces, by_start);
    for (long p = 1; p < np; p++)       /* each iteration's results once */
        FUZZ_CHECK(pieces[p].start >= pieces[p - 1].start + pieces[p - 1].size);
    free(pieces);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    static const long told[4] = {0, 8, 1, 4};
    const int mode = data[0], raw = mode & 1, after = (mode >> 3) & 7;
    const long bytes = told[(mode >> 1) & 3];
    size_t n = size - 1;
    uint8_t *b = malloc(n ? n : 1);
    FUZZ_CHECK(b != NULL);
    memcpy(b, data + 1, n);
    head h = walk_journal(b, n, !raw);
    const char *path = fuzz_file(b, n);
    free(b);

    dtss_master *m = dtss_master_new();
    FUZZ_CHECK(m != NULL);
    dtss_master_log(m, NULL, NULL, 0);
    FUZZ_CHECK(dtss_master_result_bytes(m, bytes) == DTSS_OK);
    int rc = dtss_master_set(m, "resume", path);
    if (rc != DTSS_OK) {
        says_why(m);
        FUZZ_CHECK(strstr(dtss_master_errmsg(m), "--resume") != NULL && !m->resume);
        dtss_master_free(m);
        return 0;
    }
    FUZZ_CHECK(m->resume && m->jh.iters == m->iters);
    /* a journal holds the scheme's run, not where it runs: no worker
     * program, hosts or places from a file */
    FUZZ_CHECK(!m->place.worker_path && !m->place.hosts && !m->place.local &&
               !m->place.include_self);
    int refused = 0;                    /* what is set is not the journal's run */
    char v[32];
    const long I = m->iters;
    switch (after) {
    case 4:
        snprintf(v, sizeof v, "%ld", I);
        FUZZ_CHECK(dtss_master_set(m, "iterations", v) == DTSS_OK);
        break;
    case 5:
        snprintf(v, sizeof v, "%ld", I < WIRE_MAX_ITERS ? I + 1 : I - 1);
        FUZZ_CHECK(dtss_master_set(m, "iterations", v) == DTSS_OK);
        refused = 1;
        break;
    case 6:
        FUZZ_CHECK(dtss_master_set(m, "scheme", strcmp(m->scheme, "gss") ? "gss" : "tss")
                   == DTSS_OK);
        refused = 1;
        break;
    case 7:
        snprintf(v, sizeof v, "%d", m->sample == 1 ? 2 : 1);
        FUZZ_CHECK(dtss_master_set(m, "sample", v) == DTSS_OK);
        refused = 1;
        break;
    }
    rc = dtss_master_check(m);
    if (rc != DTSS_OK) {
        says_why(m);
    } else {
        FUZZ_CHECK(!refused);
        counts first = counts_of(m);
        check_accepted(m, &h, bytes, n, 1 + ((mode >> 6) & 3));
        /* read through afresh: the same */
        FUZZ_CHECK(dtss_master_check(m) == DTSS_OK);
        counts again = counts_of(m);
        FUZZ_CHECK(memcmp(&first, &again, sizeof first) == 0);
    }
    dtss_master_free(m);
    return 0;
}
