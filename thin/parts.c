/* parts.c: thinning by horizontal parts, the tasks of an iterative
 * master-worker run (Heymann et al. Sec. 4.1), exactly the sequential
 * skeleton.
 *
 * Why it is exact. A pixel's decision in a subiteration reads its 3x3
 * neighbourhood, so one iteration of rows [a, b) reads the image at the
 * iteration's start on rows [a-2, b+2): the second subiteration on row r
 * reads rows r-1..r+1 after the first, and the first on row a-1 (b) reads
 * rows a-2..a (b-1..b+1). A task gets its rows and the two rows above and
 * below as they were when the iteration began, runs the first subiteration
 * on rows [a-1, b+1) (one row more each side than it returns) and the second
 * on [a, b): its rows come out as the sequential iteration makes them. A task
 * is a function of its rows and those four border rows, so a part whose task
 * deleted nothing would delete nothing again until a border row changes: it
 * sleeps, and wakes when a neighbour's task changes one of the two rows
 * next to it on either side. Every part sleeps exactly when a whole
 * sequential iteration deletes nothing: the same iteration count.
 *
 * The master keeps the image as it was when the iteration began; results
 * are staged and become the image at thin_parts_end, so that a task packed
 * late in an iteration (a re-run) still sees the iteration's start.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "thin/thin_impl.h"

struct thin_parts {
    int M, W, H;
    size_t rb;                          /* bytes of a packed row */
    thin_image cur;                     /* as of the last ended iteration */
    unsigned char *next;                /* staged results, W x H */
    unsigned char *changed;             /* H: the row changed in the last ended iteration */
    int iteration, open;
    int row0[THIN_MAX_PARTS], rows[THIN_MAX_PARTS];
    unsigned char awake[THIN_MAX_PARTS];    /* gets a task at the next begin */
    unsigned char active[THIN_MAX_PARTS];   /* has a task in the open iteration */
    unsigned char stored[THIN_MAX_PARTS];
    long long deleted[THIN_MAX_PARTS], examined[THIN_MAX_PARTS];
};

void thin_part_rows(int height, int M, int j, int *row0, int *rows)
{
    int q = height / M, rem = height % M;
    *row0 = j * q + (j < rem ? j : rem);
    *rows = q + (j < rem);
}

/* ---- little-endian words ---- */

static void put32(unsigned char *p, uint32_t v)
{
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

/* ---- the master ---- */

thin_parts *thin_parts_new(const thin_image *im, int M, char *msg, size_t len)
{
    if (M < 1 || M > THIN_MAX_PARTS) {
        snprintf(msg, len, "parts %d must be in [1, %d]", M, THIN_MAX_PARTS);
        return NULL;
    }
    if (thin_check_size(im->width, im->height, msg, len) != 0)
        return NULL;
    thin_parts *p = calloc(1, sizeof *p);
    size_t n = (size_t)im->width * (size_t)im->height;
    if (p) {
        p->cur.px = malloc(n);
        p->next = malloc(n);
        p->changed = calloc((size_t)im->height, 1);
    }
    if (!p || !p->cur.px || !p->next || !p->changed) {
        thin_parts_free(p);
        snprintf(msg, len, "out of memory for %d parts of a %d x %d image", M,
                 im->width, im->height);
        return NULL;
    }
    p->M = M;
    p->W = p->cur.width = im->width;
    p->H = p->cur.height = im->height;
    p->rb = thin_row_bytes(im->width);
    for (size_t i = 0; i < n; i++)
        p->cur.px[i] = im->px[i] != 0;
    for (int j = 0; j < M; j++) {
        thin_part_rows(p->H, M, j, &p->row0[j], &p->rows[j]);
        p->awake[j] = p->rows[j] > 0;
    }
    return p;
}

void thin_parts_free(thin_parts *p)
{
    if (!p)
        return;
    free(p->cur.px);
    free(p->next);
    free(p->changed);
    free(p);
}

int thin_parts_begin(thin_parts *p, unsigned char *active)
{
    if (p->open)
        return -1;
    int n = 0;
    for (int j = 0; j < p->M; j++)
        n += p->awake[j];
    if (active)
        for (int j = 0; j < p->M; j++)
            active[j] = n > 0 && p->awake[j];
    if (n == 0)
        return 0;
    p->iteration++;
    p->open = 1;
    memcpy(p->active, p->awake, sizeof p->active);
    memset(p->stored, 0, sizeof p->stored);
    return n;
}

int thin_parts_iteration(const thin_parts *p) { return p->iteration; }
int thin_parts_count(const thin_parts *p) { return p->M; }

int thin_parts_active(const thin_parts *p, int j)
{
    return p->open && j >= 0 && j < p->M && p->active[j];
}

int thin_parts_task(const thin_parts *p, int j, unsigned char **task, size_t *len,
                    char *msg, size_t mlen)
{
    if (!thin_parts_active(p, j)) {
        snprintf(msg, mlen, "part %d has no task in %s", j,
                 p->open ? "this iteration" : "no open iteration");
        return -1;
    }
    int a = p->row0[j], n = p->rows[j];
    int above = a < 2 ? a : 2;
    int below = p->H - a - n < 2 ? p->H - a - n : 2;
    size_t nrows = (size_t)(above + n + below);
    size_t size = THIN_TASK_HEADER + nrows * p->rb;
    unsigned char *b = malloc(size);
    if (!b) {
        snprintf(msg, mlen, "out of memory for part %d's task (%zu bytes)", j, size);
        return -1;
    }
    memcpy(b, "THT1", 4);
    uint32_t w[9] = {(uint32_t)p->iteration, (uint32_t)j, (uint32_t)p->M,
                     (uint32_t)p->W, (uint32_t)p->H, (uint32_t)a, (uint32_t)n,
                     (uint32_t)above, (uint32_t)below};
    for (int i = 0; i < 9; i++)
        put32(b + 4 + 4 * i, w[i]);
    for (size_t r = 0; r < nrows; r++)
        thin_pack_row(p->cur.px + (size_t)(a - above + (int)r) * p->W, p->W,
                      b + THIN_TASK_HEADER + r * p->rb);
    *task = b;
    *len = size;
    return 0;
}

int thin_parts_store(thin_parts *p, int j, const unsigned char *res, size_t len,
                     char *msg, size_t mlen)
{
    if (j < 0 || j >= p->M) {
        snprintf(msg, mlen, "result for part %d: there are parts 0..%d", j, p->M - 1);
        return -1;
    }
    if (len < THIN_RESULT_HEADER || memcmp(res, "THR1", 4) != 0) {
        snprintf(msg, mlen, "part %d: not a thinning result (%zu bytes%s)", j, len,
                 len >= 4 ? ", bad magic" : "");
        return -1;
    }
    uint32_t it = get32(res + 4), part = get32(res + 8), W = get32(res + 12),
             a = get32(res + 16), n = get32(res + 20), deleted = get32(res + 24),
             examined = get32(res + 28), border = get32(res + 32);
    if (it < (uint32_t)p->iteration || (p->open && p->stored[j] && it == (uint32_t)p->iteration))
        return 1;                                   /* late or duplicate */
    if (!thin_parts_active(p, j) || it != (uint32_t)p->iteration) {
        snprintf(msg, mlen, "part %d: result of iteration %u, but %s", j, (unsigned)it,
                 !p->open ? "no iteration is open"
                 : !p->active[j] ? "the part has no task in this one"
                 : "this is a later iteration than the open one");
        return -1;
    }
    if (part != (uint32_t)j || W != (uint32_t)p->W || a != (uint32_t)p->row0[j] ||
        n != (uint32_t)p->rows[j]) {
        snprintf(msg, mlen, "part %d: the result is for part %u, width %u, rows %u+%u; "
                 "expected part %d, width %d, rows %d+%d", j, (unsigned)part,
                 (unsigned)W, (unsigned)a, (unsigned)n, j, p->W, p->row0[j], p->rows[j]);
        return -1;
    }
    size_t want = THIN_RESULT_HEADER + (size_t)n * p->rb;
    if (len != want) {
        snprintf(msg, mlen, "part %d: result of %zu bytes, expected %zu", j, len, want);
        return -1;
    }
    if ((long long)examined > 2LL * ((long long)n + 2) * p->W) {
        snprintf(msg, mlen, "part %d: examined %u pixels, more than the task has",
                 j, (unsigned)examined);
        return -1;
    }
    if (border > 15) {
        snprintf(msg, mlen, "part %d: border flags %u (bits 0-3 only)", j, (unsigned)border);
        return -1;
    }
    /* Unpack into the staging rows, checking: padding 0, only deletions. */
    long long diff = 0;
    unsigned rowdiff = 0;       /* bit k: row k of {a, a+1, a+n-2, a+n-1} changed */
    for (uint32_t r = 0; r < n; r++) {
        size_t off = (size_t)(a + r) * p->W;
        unsigned char *dst = p->next + off;
        const unsigned char *old = p->cur.px + off;
        if (thin_unpack_row(res + THIN_RESULT_HEADER + r * p->rb, p->W, dst) != 0) {
            snprintf(msg, mlen, "part %d: row %u has padding bits set", j, (unsigned)(a + r));
            return -1;
        }
        int added;
        long long d = thin_diff(dst, old, (size_t)p->W, &added);
        if (added) {
            snprintf(msg, mlen, "part %d: a pixel of row %u became 1: thinning only deletes",
                     j, (unsigned)(a + r));
            return -1;
        }
        if (d) {
            if (r == 0) rowdiff |= 1;
            if (r == 1 && n >= 2) rowdiff |= 2;
            if (r == n - 2 && n >= 2) rowdiff |= 4;
            if (r == n - 1) rowdiff |= 8;
        }
        diff += d;
    }
    if (diff != deleted || rowdiff != border) {
        snprintf(msg, mlen, "part %d: the result says %u deleted, border flags %u; its "
                 "rows show %lld, %u", j, (unsigned)deleted, (unsigned)border, diff, rowdiff);
        return -1;
    }
    p->stored[j] = 1;
    p->deleted[j] = deleted;
    p->examined[j] = examined;
    return 0;
}

int thin_parts_end(thin_parts *p, thin_iter *it, char *msg, size_t mlen)
{
    if (!p->open) {
        snprintf(msg, mlen, "no iteration is open");
        return -1;
    }
    for (int j = 0; j < p->M; j++)
        if (p->active[j] && !p->stored[j]) {
            snprintf(msg, mlen, "iteration %d: part %d's result is missing",
                     p->iteration, j);
            return -1;
        }
    memset(p->changed, 0, (size_t)p->H);
    thin_iter z;
    z.iteration = p->iteration;
    z.tasks = 0;
    z.deleted = 0;
    for (int j = 0; j < THIN_MAX_PARTS; j++)
        z.examined[j] = -1;
    for (int j = 0; j < p->M; j++) {
        if (!p->active[j])
            continue;
        z.tasks++;
        z.deleted += p->deleted[j];
        z.examined[j] = p->examined[j];
        for (int r = p->row0[j]; r < p->row0[j] + p->rows[j]; r++) {
            size_t off = (size_t)r * p->W;
            if (memcmp(p->next + off, p->cur.px + off, (size_t)p->W) != 0) {
                p->changed[r] = 1;
                memcpy(p->cur.px + off, p->next + off, (size_t)p->W);
            }
        }
    }
    /* Who wakes: a part that deleted (it may delete again), and a part one
     * of whose border rows changed (its input is new). */
    for (int j = 0; j < p->M; j++) {
        int a = p->row0[j], b = a + p->rows[j], wake = p->active[j] && p->deleted[j] > 0;
        for (int r = a - 2; r < b + 2 && !wake; r++)
            if ((r < a || r >= b) && r >= 0 && r < p->H && p->changed[r])
                wake = 1;
        p->awake[j] = p->rows[j] > 0 && wake;
    }
    p->open = 0;
    if (it)
        *it = z;
    return 0;
}

const thin_image *thin_parts_image(const thin_parts *p) { return &p->cur; }

/* ---- the worker ---- */

int thin_task_run(const unsigned char *task, size_t len, unsigned char **res,
                  size_t *rlen, long long *examined, char *msg, size_t mlen)
{
    if (len < THIN_TASK_HEADER || memcmp(task, "THT1", 4) != 0) {
        snprintf(msg, mlen, "not a thinning task (%zu bytes%s)", len,
                 len >= 4 ? ", bad magic" : "");
        return -1;
    }
    uint32_t it = get32(task + 4), j = get32(task + 8), M = get32(task + 12),
             W = get32(task + 16), H = get32(task + 20), a = get32(task + 24),
             n = get32(task + 28), above = get32(task + 32), below = get32(task + 36);
    if (it < 1 || M < 1 || M > THIN_MAX_PARTS || j >= M) {
        snprintf(msg, mlen, "task: iteration %u, part %u of %u: out of range",
                 (unsigned)it, (unsigned)j, (unsigned)M);
        return -1;
    }
    if (thin_check_size(W, H, msg, mlen) != 0)
        return -1;
    if (n < 1 || a >= H || n > H - a || above != (a < 2 ? a : 2) ||
        below != (H - a - n < 2 ? H - a - n : 2)) {
        snprintf(msg, mlen, "task: rows %u+%u with %u above and %u below do not fit "
                 "an image of %u rows", (unsigned)a, (unsigned)n, (unsigned)above,
                 (unsigned)below, (unsigned)H);
        return -1;
    }
    size_t rb = thin_row_bytes((int)W), nrows = above + n + below;
    if (len != THIN_TASK_HEADER + nrows * rb) {
        snprintf(msg, mlen, "task: %zu bytes, expected %zu for %zu rows of %u pixels",
                 len, THIN_TASK_HEADER + nrows * rb, nrows, (unsigned)W);
        return -1;
    }
    /* The window: image rows a-2 .. a+n+1 (n + 4), framed by zero columns;
     * rows outside the image stay 0. One block: the part's 1-pixels per row
     * before (first: aligned), the window, the kernel's scratch (2 rows). */
    size_t s = (size_t)W + 2, wrows = (size_t)n + 4;
    long long *before = malloc((size_t)n * sizeof(long long) + wrows * s + 2 * s);
    size_t outlen = THIN_RESULT_HEADER + (size_t)n * rb;
    unsigned char *out = malloc(outlen);
    if (!before || !out) {
        snprintf(msg, mlen, "out of memory for a task of %u rows of %u pixels",
                 (unsigned)n, (unsigned)W);
        goto err;
    }
    unsigned char *win = (unsigned char *)(before + n), *tmp = win + wrows * s;
    size_t first = 2 - above, last = 2 + n + below;     /* window rows given */
    memset(win, 0, first * s);
    memset(win + last * s, 0, (wrows - last) * s);
    for (size_t r = first; r < last; r++) {
        unsigned char *row = win + r * s;
        row[0] = row[s - 1] = 0;
        if (thin_unpack_row(task + THIN_TASK_HEADER + (r - first) * rb, (int)W, row + 1) != 0) {
            snprintf(msg, mlen, "task: row %zu has padding bits set", r - first);
            goto err;
        }
    }
    for (uint32_t r = 0; r < n; r++)
        before[r] = thin_ones(win + (2 + r) * s + 1, W);

    unsigned char lut1[256], lut2[256];
    thin_lut(lut1, 1);
    thin_lut(lut2, 2);
    long long ex = 0;
    thin_pass(win + s, (int)W, (int)n + 2, s, lut1, tmp, &ex);     /* rows a-1 .. a+n */
    thin_pass(win + 2 * s, (int)W, (int)n, s, lut2, tmp, &ex);     /* rows a .. a+n-1 */

    long long deleted = 0;
    uint32_t border = 0;
    for (uint32_t r = 0; r < n; r++) {
        const unsigned char *now = win + (2 + r) * s + 1;
        long long d = before[r] - thin_ones(now, W);     /* only deletions */
        if (d) {
            if (r == 0) border |= 1;
            if (r == 1 && n >= 2) border |= 2;
            if (r == n - 2 && n >= 2) border |= 4;
            if (r == n - 1) border |= 8;
        }
        deleted += d;
        thin_pack_row(now, (int)W, out + THIN_RESULT_HEADER + r * rb);
    }
    memcpy(out, "THR1", 4);
    uint32_t w[8] = {it, j, W, a, n, (uint32_t)deleted, (uint32_t)ex, border};
    for (int i = 0; i < 8; i++)
        put32(out + 4 + 4 * i, w[i]);
    free(before);
    *res = out;
    *rlen = outlen;
    if (examined)
        *examined = ex;
    return 0;
err:
    free(before);
    free(out);
    return -1;
}

/* ---- the whole loop ---- */

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* The image's name in a trace header: [A-Za-z0-9._+-], others '_'. */
static void trace_name(const char *name, char *out, size_t len)
{
    size_t k = 0;
    for (const char *c = name ? name : ""; *c && k + 1 < len; c++) {
        int ok = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                 (*c >= '0' && *c <= '9') || *c == '.' || *c == '_' || *c == '+' ||
                 *c == '-';
        out[k++] = ok ? *c : '_';
    }
    if (k == 0)
        out[k++] = '-';
    out[k] = '\0';
}

int thin_parts_run(thin_image *im, int M, int max_iter, FILE *trace,
                   const char *name, int unit, thin_stats *st, long long *tasks,
                   char *msg, size_t mlen)
{
    thin_parts *p = thin_parts_new(im, M, msg, mlen);
    if (!p)
        return -1;
    if (trace) {
        char nm[256];
        trace_name(name, nm, sizeof nm);
        fprintf(trace, "# thin trace: image %s, %d x %d, parts %d, unit %s\n", nm,
                im->width, im->height, M, unit == THIN_UNIT_SECONDS ? "seconds" : "pixels");
    }
    thin_stats z = {0, 0, 0, 0, 0};
    long long ntasks = 0;
    unsigned char active[THIN_MAX_PARTS];
    double secs[THIN_MAX_PARTS];
    int rc = 0, n;
    while ((max_iter <= 0 || z.iterations < max_iter) &&
           (n = thin_parts_begin(p, active)) > 0) {
        for (int j = 0; j < M && rc == 0; j++) {
            if (!active[j])
                continue;
            unsigned char *task = NULL, *res = NULL;
            size_t tlen, rlen;
            if (thin_parts_task(p, j, &task, &tlen, msg, mlen) != 0) {
                rc = -1;
                break;
            }
            double t0 = cpu_now();
            rc = thin_task_run(task, tlen, &res, &rlen, NULL, msg, mlen);
            secs[j] = cpu_now() - t0;
            if (rc == 0 && thin_parts_store(p, j, res, rlen, msg, mlen) != 0)
                rc = -1;
            free(task);
            free(res);
            ntasks++;
        }
        thin_iter it;
        if (rc != 0 || thin_parts_end(p, &it, msg, mlen) != 0) {
            rc = -1;
            break;
        }
        z.iterations++;
        z.deleted += it.deleted;
        if (trace) {
            fprintf(trace, "%d", it.iteration);
            for (int j = 0; j < M; j++) {
                if (it.examined[j] < 0)
                    fputs(" -", trace);
                else if (unit == THIN_UNIT_SECONDS)
                    fprintf(trace, " %.6f", secs[j]);
                else
                    fprintf(trace, " %lld", it.examined[j]);
            }
            fputc('\n', trace);
        }
        for (int j = 0; j < M; j++)
            if (it.examined[j] >= 0)
                z.examined += it.examined[j];
        if (it.deleted == 0)
            z.converged = 1;
    }
    if (rc == 0) {
        const thin_image *out = thin_parts_image(p);
        memcpy(im->px, out->px, (size_t)im->width * (size_t)im->height);
        z.pixels = thin_image_count(im);
        if (st)
            *st = z;
        if (tasks)
            *tasks = ntasks;
    }
    thin_parts_free(p);
    return rc;
}
