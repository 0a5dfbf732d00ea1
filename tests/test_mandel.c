/* test_mandel.c: the Mandelbrot workload and pseudo-uniform sampling. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mandel/mandel.h"
#include "sched/sched.h"
#include "tests/test.h"

#include <complex.h>            /* after sched.h: complex.h defines I */

/* The textbook escape-time loop, written independently of the kernel. */
static uint32_t textbook(double cr, double ci, uint32_t maxiter)
{
    double complex z = 0, c = cr + ci * I;
    uint32_t n = 0;
    while (n < maxiter && creal(z) * creal(z) + cimag(z) * cimag(z) <= 4.0) {
        z = z * z + c;
        n++;
    }
    return n;
}

static void test_points(void)
{
    /* Worked by hand: c = 0 never escapes; c = 2: z = 2 (|z| = 2 still in),
     * then 6: two steps; c = -2: z = -2, 2, 2, ... stays on |z| = 2; c = 1:
     * z = 1, 2, 5: three steps; c = 3: z = 3: one step. */
    test_cond("c = 0 is in the set", mandel_point(0, 0, 500) == 500);
    test_cond("c = 2 escapes after 2 steps", mandel_point(2, 0, 500) == 2);
    test_cond("c = -2 is in the set", mandel_point(-2, 0, 500) == 500);
    test_cond("c = 1 escapes after 3 steps", mandel_point(1, 0, 500) == 3);
    test_cond("c = 3 escapes after 1 step", mandel_point(3, 0, 500) == 1);
    test_cond("c = i is in the set (period 2)", mandel_point(0, 1, 500) == 500);

    int same = 1;
    for (int y = 0; y < 200 && same; y++)
        for (int x = 0; x < 200 && same; x++) {
            double cr = -2.1 + 4.2 * x / 200, ci = -2.1 + 4.2 * y / 200;
            same = mandel_point(cr, ci, 1000) == textbook(cr, ci, 1000);
        }
    test_cond("kernel equals the textbook loop on a 200x200 grid", same);
}

static void test_sampling(void)
{
    /* Xu Sec. 4.2: n = 10, R = 4 visits i mod 4 = 0, then 1, 2, 3. */
    static const long want[] = {0, 4, 8, 1, 5, 9, 2, 6, 3, 7};
    int ok = 1;
    for (long k = 0; k < 10; k++)
        ok &= sched_sample(k, 10, 4) == want[k];
    test_cond("n = 10, R = 4: 0 4 8 1 5 9 2 6 3 7", ok);

    int bijective = 1, inverse = 1, identity = 1;
    char *seen = malloc(3000);
    for (long n = 0; n < 3000; n += (n < 50 ? 1 : 97))
        for (long R = 1; R <= 70; R += (R < 12 ? 1 : 19)) {
            memset(seen, 0, (size_t)n);
            for (long k = 0; k < n; k++) {
                long i = sched_sample(k, n, R);
                if (i < 0 || i >= n || seen[i]) {
                    bijective = 0;
                    break;
                }
                seen[i] = 1;
                inverse &= sched_unsample(i, n, R) == k;
                if (R == 1 || R >= n)
                    identity &= i == k;
            }
        }
    free(seen);
    test_cond("sampling is a permutation for many (n, R)", bijective);
    test_cond("sched_unsample inverts sched_sample", inverse);
    test_cond("R = 1 (and R >= n) is the original order", identity);
    test_cond("sampling refuses k out of range and R < 1",
              sched_sample(10, 10, 4) == -1 && sched_sample(-1, 10, 4) == -1 &&
              sched_sample(0, 10, 0) == -1 && sched_unsample(10, 10, 4) == -1);

    /* The point of sampling (Xu Fig. 3): each quarter of the sampled loop
     * costs about the same, while the original order's quarters differ
     * widely. 1200 x 1200 at maxiter 200 as a quick stand-in. */
    mandel_params p;
    mandel_defaults(&p);
    p.width = p.height = 400;
    p.maxiter = 200;
    uint32_t *row = malloc(sizeof *row * 400);
    uint64_t cost[400], q_orig[4] = {0}, q_samp[4] = {0};
    for (int y = 0; y < 400; y++)
        cost[y] = mandel_row(&p, y, row);
    for (long k = 0; k < 400; k++) {
        q_orig[k / 100] += cost[k];
        q_samp[k / 100] += cost[sched_sample(k, 400, 4)];
    }
    free(row);
    double so = 0, ss = 0, mo = 1e300, Mo = 0, ms = 1e300, Ms = 0;
    for (int i = 0; i < 4; i++) {
        so += q_orig[i]; ss += q_samp[i];
        if (q_orig[i] < mo) mo = q_orig[i];
        if (q_orig[i] > Mo) Mo = q_orig[i];
        if (q_samp[i] < ms) ms = q_samp[i];
        if (q_samp[i] > Ms) Ms = q_samp[i];
    }
    test_condf(so == ss, "sampling keeps the total cost");
    test_condf((Ms - ms) / Ms < 0.05 && (Mo - mo) / Mo > 0.5,
               "quarters of the loop: original spread %.0f%%, sampled %.1f%%",
               100 * (Mo - mo) / Mo, 100 * (Ms - ms) / Ms);
}

static void test_image(void)
{
    mandel_params p;
    mandel_defaults(&p);
    test_cond("defaults: (-2,-2)-(2,2), 1200x1200",
              p.width == 1200 && p.height == 1200 && p.xmin == -2 && p.ymin == -2 &&
              p.xmax == 2 && p.ymax == 2);
    p.width = 64;
    p.height = 48;
    p.maxiter = 256;
    uint32_t img[64 * 48];
    uint64_t total = 0, sum = 0;
    int same = 1;
    for (int y = 0; y < p.height; y++) {
        total += mandel_row(&p, y, img + y * p.width);
        for (int x = 0; x < p.width; x++) {
            sum += img[y * p.width + x];
            /* Pixel centres: x = -2 + (x + .5) 4/64, y = 2 - (y + .5) 4/48. */
            same &= img[y * p.width + x] ==
                    textbook(-2 + (x + 0.5) * 4.0 / 64, 2 - (y + 0.5) * 4.0 / 48, 256);
        }
    }
    test_cond("row costs sum to the image total", total == sum);
    test_cond("pixel (x, y) is sampled at its centre, row 0 on top", same);
    /* The image is symmetric about the real axis: row y mirrors row H-1-y. */
    int sym = 1;
    for (int y = 0; y < p.height / 2; y++)
        sym &= memcmp(img + y * 64, img + (p.height - 1 - y) * 64, 64 * 4) == 0;
    test_cond("the image is symmetric about the real axis", sym);
    /* A stable checksum. The constant was computed independently, by a
     * Python transcription of the pixel formula (mandel.h) and FNV-1a over
     * IEEE doubles, and agrees with this build. */
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < sizeof img / sizeof img[0]; i++)
        for (int b = 0; b < 4; b++)
            h = (h ^ ((img[i] >> (8 * b)) & 0xff)) * 1099511628211ull;
    uint64_t ck = mandel_checksum(img, sizeof img / sizeof img[0]);
    test_cond("checksum is FNV-1a of the counts", ck == h);
    test_condf(ck == 0x377ff384e9e79b19ull,
               "64x48 maxiter 256 checksum is stable (got %016llx)",
               (unsigned long long)ck);

    /* PGM output. */
    char path[] = "/tmp/test_mandel_XXXXXX", msg[256];
    int fd = mkstemp(path);
    close(fd);
    test_cond("PGM written", mandel_write_pgm(path, &p, img, msg, sizeof msg) == 0);
    FILE *f = fopen(path, "rb");
    char hdr[32] = "";
    size_t got = f ? fread(hdr, 1, 15, f) : 0;
    long size = 0;
    if (f) {
        fseek(f, 0, SEEK_END);
        size = ftell(f);
        fclose(f);
    }
    test_cond("PGM header P5 64 48 255",
              got == 15 && memcmp(hdr, "P5\n64 48\n255\n", 13) == 0);
    test_cond("PGM size is header + one byte a pixel", size == 13 + 64 * 48);
    unlink(path);
    test_cond("PGM to a bad path fails naming the path and the error",
              mandel_write_pgm("/nonexistent/x.pgm", &p, img, msg, sizeof msg) == -1 &&
              strcmp(msg, "cannot write /nonexistent/x.pgm: No such file or directory") == 0);

    /* Bad parameters. */
    p.width = 0;
    test_cond("width 0 refused", mandel_check(&p, msg, sizeof msg) == -1 &&
              strstr(msg, "width 0"));
    p.width = 10;
    p.height = -3;
    test_cond("height -3 refused", mandel_check(&p, msg, sizeof msg) == -1 &&
              strstr(msg, "height -3"));
    p.height = 10;
    p.maxiter = 0;
    test_cond("maxiter 0 refused", mandel_check(&p, msg, sizeof msg) == -1 &&
              strstr(msg, "maxiter 0"));
    p.maxiter = 10;
    p.xmin = 3;
    test_cond("empty region refused", mandel_check(&p, msg, sizeof msg) == -1 &&
              strstr(msg, "region"));
}

/* The loop over columns (issue 25): the same image, column k's pixels top to
 * bottom, its cost the column's sum; the job says which loop. */
static void test_columns(void)
{
    mandel_params p;
    mandel_defaults(&p);
    p.width = 37;
    p.height = 23;
    p.maxiter = 300;
    uint32_t *rows = calloc(37 * 23, sizeof *rows), *cols = calloc(37 * 23, sizeof *cols);
    uint32_t line[64];
    uint64_t rsum = 0, csum = 0;
    for (long y = 0; y < 23; y++) {
        rsum += mandel_line(&p, y, line);
        mandel_put_line(&p, y, line, rows);
    }
    test_cond("the row loop: 23 lines of 37", mandel_lines(&p) == 23 && mandel_line_len(&p) == 37);
    p.columns = 1;
    test_cond("the column loop: 37 lines of 23", mandel_lines(&p) == 37 && mandel_line_len(&p) == 23);
    int cost_ok = 1;
    for (long x = 0; x < 37; x++) {
        uint64_t c = mandel_line(&p, x, line), by_hand = 0;
        for (int y = 0; y < 23; y++)
            by_hand += mandel_point(p.xmin + (x + 0.5) * (p.xmax - p.xmin) / 37,
                                    p.ymax - (y + 0.5) * (p.ymax - p.ymin) / 23, 300);
        cost_ok &= c == by_hand;
        csum += c;
        mandel_put_line(&p, x, line, cols);
    }
    test_cond("column k's cost is its pixels' counts, top to bottom", cost_ok);
    test_cond("the columns' costs add up to the rows'", csum == rsum);
    test_cond("the column loop's image is the row loop's, pixel for pixel",
              memcmp(rows, cols, 37 * 23 * sizeof *rows) == 0);
    uint32_t part[10];
    mandel_line_span(&p, 5, 7, 17, part);
    test_cond("a span of a column is its pixels y = 7..16",
              part[0] == cols[7 * 37 + 5] && part[4] == cols[11 * 37 + 5] &&
              part[9] == cols[16 * 37 + 5]);
    test_cond("the loop's names", strcmp(mandel_loop_name(&p), "columns") == 0);

    char job[MANDEL_JOB_MAX], msg[256];
    mandel_params back;
    int n = mandel_encode(&p, job, sizeof job);
    test_cond("the column loop's job says so",
              n > 0 && strstr(job, " columns") != NULL &&
              mandel_decode(&back, job, (size_t)n, msg, sizeof msg) == 0 && back.columns == 1 &&
              back.width == 37 && back.height == 23);
    p.columns = 0;
    n = mandel_encode(&p, job, sizeof job);
    test_cond("a job without the word is the row loop (an earlier journal's)",
              n > 0 && strstr(job, "columns") == NULL &&
              mandel_decode(&back, job, (size_t)n, msg, sizeof msg) == 0 && back.columns == 0);
    const char bad[] = "mandel1 37 23 300 -0x1p+1 -0x1p+1 0x1p+1 0x1p+1 diagonals";
    test_cond("a job with another word is refused",
              mandel_decode(&back, bad, sizeof bad, msg, sizeof msg) == -1);
    mandel_defaults(&p);
    p.width = 100;
    p.height = MANDEL_MAX_WIDTH + 1;
    test_cond("a row loop over a tall narrow image is taken",
              mandel_check(&p, msg, sizeof msg) == 0);
    p.columns = 1;
    test_cond("a column over MANDEL_MAX_WIDTH pixels is refused, naming the height",
              mandel_check(&p, msg, sizeof msg) == -1 && strstr(msg, "height 65537") != NULL);
    free(rows);
    free(cols);
}

/* A row on the wire: its counts as 32-bit little-endian words, whatever
 * the host (mandel.h), byte for byte; and back. */
static void test_row_bytes(void)
{
    const uint32_t counts[3] = {0x01020304u, 20000u, 0xffffffffu};
    static const unsigned char want[12] = {0x04, 0x03, 0x02, 0x01, 0x20, 0x4e, 0x00, 0x00,
                                           0xff, 0xff, 0xff, 0xff};
    unsigned char got[12];
    uint32_t back[3] = {0};
    mandel_row_bytes(counts, 3, got);
    test_cond("a row's bytes: its counts little-endian, byte for byte",
              memcmp(got, want, sizeof want) == 0);
    mandel_row_counts(want, 3, back);
    test_cond("a row's bytes read back: the counts",
              memcmp(back, counts, sizeof counts) == 0);
}

int main(void)
{
    test_row_bytes();
    test_points();
    test_sampling();
    test_image();
    test_columns();
    return test_report();
}
