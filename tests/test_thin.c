/* test_thin.c: Guo & Hall thinning (thin/): the deletion conditions and
 * small images worked by hand, the kernel against a textbook per-pixel
 * version, PBM reading and writing, the parts (bit for bit the sequential
 * skeleton for every M in 1..64), the task and result payloads, the PSF font
 * reader and the test images. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "tests/test.h"
#include "thin/draw.h"
#include "thin/thin.h"
#include "thin/thin_impl.h"

/* ---- helpers ---------------------------------------------------------------- */

/* An image from rows of '.' and '#'. */
static thin_image pic(const char *const *rows)
{
    int h = 0, w = (int)strlen(rows[0]);
    while (rows[h])
        h++;
    thin_image im;
    char msg[128];
    if (thin_image_init(&im, w, h, msg, sizeof msg) != 0) {
        printf("FAIL thin_image_init: %s\n", msg);
        exit(1);
    }
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++)
            im.px[(size_t)y * w + x] = rows[y][x] == '#';
    return im;
}

static int same_pic(const thin_image *im, const char *const *rows)
{
    for (int y = 0; y < im->height; y++) {
        if (!rows[y] || (int)strlen(rows[y]) != im->width)
            return 0;
        for (int x = 0; x < im->width; x++)
            if (im->px[(size_t)y * im->width + x] != (rows[y][x] == '#'))
                return 0;
    }
    return rows[im->height] == NULL;
}

static int same_image(const thin_image *a, const thin_image *b)
{
    return a->width == b->width && a->height == b->height &&
           memcmp(a->px, b->px, (size_t)a->width * a->height) == 0;
}

static thin_image copy_image(const thin_image *a)
{
    thin_image b;
    char msg[128];
    if (thin_image_init(&b, a->width, a->height, msg, sizeof msg) != 0) {
        printf("FAIL copy: %s\n", msg);
        exit(1);
    }
    memcpy(b.px, a->px, (size_t)a->width * a->height);
    return b;
}

/* Deterministic pseudo-random numbers (xorshift64*). */
static uint64_t rng = 88172645463325252ULL;
static uint32_t rnd(void)
{
    rng ^= rng >> 12;
    rng ^= rng << 25;
    rng ^= rng >> 27;
    return (uint32_t)((rng * 2685821657736338717ULL) >> 32);
}

/* Random blobs: discs and rectangles of random size, or noise. */
static thin_image blobs(int w, int h, int n, int noise)
{
    thin_image im;
    char msg[128];
    thin_image_init(&im, w, h, msg, sizeof msg);
    for (int k = 0; k < n; k++) {
        int cx = (int)(rnd() % (unsigned)w), cy = (int)(rnd() % (unsigned)h);
        int r = 1 + (int)(rnd() % 9), disc = rnd() & 1;
        int rw = 1 + (int)(rnd() % 14), rh = 1 + (int)(rnd() % 14);
        for (int y = 0; y < h; y++)
            for (int x = 0; x < w; x++) {
                int in = disc ? (x - cx) * (x - cx) + (y - cy) * (y - cy) <= r * r
                              : x >= cx && x < cx + rw && y >= cy && y < cy + rh;
                if (in)
                    im.px[(size_t)y * w + x] = 1;
            }
    }
    if (noise)
        for (size_t i = 0; i < (size_t)w * h; i++)
            if (rnd() % 100 < (unsigned)noise)
                im.px[i] = 1;
    return im;
}

/* ---- the conditions, by hand -------------------------------------------------- */

/* The neighbourhood from the 3x3 block around p (rows top to bottom, the
 * centre ignored): x1 = E, x2 = NE, x3 = N, x4 = NW, x5 = W, x6 = SW, x7 = S,
 * x8 = SE (the issue's and Guo & Hall's numbering), bit i-1 = x_i. Written
 * out here independently of the kernel's loads. */
static unsigned nbhd(const char *top, const char *mid, const char *bot)
{
    int x[9];
    x[1] = mid[2] == '#';
    x[2] = top[2] == '#';
    x[3] = top[1] == '#';
    x[4] = top[0] == '#';
    x[5] = mid[0] == '#';
    x[6] = bot[0] == '#';
    x[7] = bot[1] == '#';
    x[8] = bot[2] == '#';
    unsigned n = 0;
    for (int i = 1; i <= 8; i++)
        n |= (unsigned)x[i] << (i - 1);
    return n;
}

static void test_conditions(void)
{
    /* Each worked by hand from the issue's formulas (C, N1, N2, the
     * subiteration conditions). */
    /* East edge: C = 1 (only i = 1: !x1 and x3), N1 = N2 = 3; first
     * subiteration: (x2 | x3 | !x8) & x1 = 0 since x1 = 0: deleted; second:
     * (x6 | x7 | !x4) & x5 = 1: kept. */
    unsigned east = nbhd("##.", "##.", "##.");
    test_cond("east edge pixel: deleted in subiteration 1", thin_deletable(east, 1) == 1);
    test_cond("east edge pixel: kept in subiteration 2", thin_deletable(east, 2) == 0);
    /* West edge: C = 1, N = 3; (x2|x3|!x8) & x1 = 1: kept in 1; x5 = 0:
     * deleted in 2. */
    unsigned west = nbhd(".##", ".##", ".##");
    test_cond("west edge pixel: kept in subiteration 1", thin_deletable(west, 1) == 0);
    test_cond("west edge pixel: deleted in subiteration 2", thin_deletable(west, 2) == 1);
    /* North edge: x2 = x3 = 0, x8 = 1: (0 | 0 | 0) & x1 = 0: deleted in 1;
     * (x6|x7|!x4) & x5 = 1: kept in 2. */
    unsigned north = nbhd("...", "###", "###");
    test_cond("north edge pixel: deleted in subiteration 1", thin_deletable(north, 1) == 1);
    test_cond("north edge pixel: kept in subiteration 2", thin_deletable(north, 2) == 0);
    /* South edge: x6 = x7 = 0, x4 = 1: (0 | 0 | 0) & x5 = 0: deleted in 2;
     * (x2|x3|!x8) & x1 = 1: kept in 1. */
    unsigned south = nbhd("###", "###", "...");
    test_cond("south edge pixel: kept in subiteration 1", thin_deletable(south, 1) == 0);
    test_cond("south edge pixel: deleted in subiteration 2", thin_deletable(south, 2) == 1);
    /* Interior: C = 0. A bridge (N and S only): C = 2. An end point (one
     * neighbour): N1 = N2 = 1. A lone pixel: N = 0. None deleted. */
    const unsigned keep[] = {nbhd("###", "###", "###"), nbhd(".#.", "...", ".#."),
                             nbhd("...", "..#", "..."), nbhd("...", "...", "...")};
    const char *names[] = {"interior", "bridge (C = 2)", "end point (N = 1)",
                           "lone pixel (N = 0)"};
    for (int i = 0; i < 4; i++) {
        test_condf(thin_deletable(keep[i], 1) == 0, "%s: kept in subiteration 1", names[i]);
        test_condf(thin_deletable(keep[i], 2) == 0, "%s: kept in subiteration 2", names[i]);
    }
    /* A north-east corner (W, SW, S set): C = 1 (i = 2), N1 = N2 = 2; x1 = 0:
     * deleted in 1; x5 = 1 and x6 = 1: kept in 2. */
    unsigned ne = nbhd("...", "#..", "##.");
    test_cond("north-east corner: deleted in 1, kept in 2",
              thin_deletable(ne, 1) == 1 && thin_deletable(ne, 2) == 0);
    /* x2..x7 set (NE, N, NW, W, SW, S): C = 1 (i = 1), N1 = 4 but N2 =
     * 1+1+1+0 = 3, so N = 3; x1 = 0: deleted in 1; x5 = 1, x6 = 1: kept in 2. */
    unsigned six = nbhd("###", "#..", "##.");
    test_cond("NE, N, NW, W, SW, S set (N = min(4, 3)): deleted in 1, kept in 2",
              thin_deletable(six, 1) == 1 && thin_deletable(six, 2) == 0);
    /* All but E (x2..x8): C = 1, N1 = N2 = 4: N = 4 > 3, kept in both. */
    unsigned seven = nbhd("###", "#..", "###");
    test_cond("all neighbours but E (N = 4): kept in both",
              thin_deletable(seven, 1) == 0 && thin_deletable(seven, 2) == 0);
}

/* The textbook version: per pixel, the neighbours read one by one from the
 * image as it was when the subiteration began. */
static long long textbook_sub(thin_image *im, int sub)
{
    int w = im->width, h = im->height;
    unsigned char *old = malloc((size_t)w * h);
    memcpy(old, im->px, (size_t)w * h);
    long long del = 0;
    static const int dx[9] = {0, 1, 1, 0, -1, -1, -1, 0, 1};
    static const int dy[9] = {0, 0, -1, -1, -1, 0, 1, 1, 1};
    for (int y = 0; y < h; y++)
        for (int x = 0; x < w; x++) {
            if (!old[(size_t)y * w + x])
                continue;
            unsigned n = 0;
            for (int i = 1; i <= 8; i++) {
                int u = x + dx[i], v = y + dy[i];
                if (u >= 0 && u < w && v >= 0 && v < h && old[(size_t)v * w + u])
                    n |= 1u << (i - 1);
            }
            if (thin_deletable(n, sub)) {
                im->px[(size_t)y * w + x] = 0;
                del++;
            }
        }
    free(old);
    return del;
}

static int textbook_run(thin_image *im)
{
    int it = 0;
    for (;;) {
        it++;
        long long d = textbook_sub(im, 1);
        d += textbook_sub(im, 2);
        if (d == 0)
            return it;
    }
}

static void test_worked(void)
{
    /* A single pixel stays: N = 0. One iteration, converged. */
    static const char *const one[] = {"...", ".#.", "...", NULL};
    thin_image im = pic(one);
    thin_stats st;
    thin_run(&im, 0, &st);
    test_cond("single pixel stays (hand-worked)", same_pic(&im, one) &&
              st.iterations == 1 && st.converged && st.pixels == 1 && st.deleted == 0);
    thin_image_free(&im);

    /* A 2x2 square, worked by hand: in subiteration 1 the top-left pixel has
     * E, SE, S set: C = 1, N = 2, (x2|x3|!x8) & x1 = 0: deleted; top-right
     * (W, SW, S): x1 = 0: deleted; bottom-right (N, NW, W): x1 = 0: deleted;
     * bottom-left (N, NE, E): (x2|x3|!x8) & x1 = 1: kept. The lone pixel
     * left is never deleted: 2 iterations, 1 pixel. */
    static const char *const sq[] = {"....", ".##.", ".##.", "....", NULL};
    static const char *const sq1[] = {"....", "....", ".#..", "....", NULL};
    im = pic(sq);
    long long ex = 0;
    long long d = thin_subiteration(&im, 1, &ex);
    test_cond("2x2 square, subiteration 1: the bottom-left pixel alone stays (hand-worked)",
              same_pic(&im, sq1) && d == 3 && ex == 4);
    thin_image_free(&im);
    im = pic(sq);
    thin_run(&im, 0, &st);
    test_cond("2x2 square: 2 iterations, 1 pixel left", same_pic(&im, sq1) &&
              st.iterations == 2 && st.converged && st.pixels == 1 && st.deleted == 3);
    thin_image_free(&im);

    /* A 3-pixel-thick horizontal bar, 7 long, worked by hand pixel by pixel
     * with the conditions: subiteration 1 deletes the top row (north edge and
     * its two corners) and the right end of the middle and bottom rows
     * (east edge, corner); subiteration 2 deletes the rest of the bottom row
     * (south edge, corners) and the left end of the middle row (x5 = 0). The
     * centre row less its two end pixels is left, and stays: 2 iterations. */
    static const char *const bar[] = {".........", ".#######.", ".#######.",
                                       ".#######.", ".........", NULL};
    static const char *const bar1[] = {".........", ".........", ".######..",
                                        ".######..", ".........", NULL};
    static const char *const bar2[] = {".........", ".........", "..#####..",
                                        ".........", ".........", NULL};
    im = pic(bar);
    d = thin_subiteration(&im, 1, &ex);
    test_cond("3-thick bar, subiteration 1 (hand-worked)", same_pic(&im, bar1) && d == 9 &&
              ex == 21);
    d = thin_subiteration(&im, 2, &ex);
    test_cond("3-thick bar, subiteration 2 (hand-worked)", same_pic(&im, bar2) && d == 7 &&
              ex == 12);
    thin_image_free(&im);
    im = pic(bar);
    thin_run(&im, 0, &st);
    test_cond("3-thick bar thins to its centre line, 2 iterations (hand-worked)",
              same_pic(&im, bar2) && st.iterations == 2 && st.converged &&
              st.pixels == 5 && st.deleted == 16 && st.examined == 21 + 12 + 5 + 5);
    thin_image_free(&im);
    /* The same bar, one iteration at most: converged is not known yet. */
    im = pic(bar);
    thin_run(&im, 1, &st);
    test_cond("--iterations 1: one iteration, not converged", same_pic(&im, bar2) &&
              st.iterations == 1 && !st.converged);
    thin_image_free(&im);

    /* Pixels outside the image are 0: the bar touching the image's border
     * thins the same as with a frame. */
    static const char *const edge[] = {"#######", "#######", "#######", NULL};
    static const char *const edge2[] = {".......", ".#####.", ".......", NULL};
    im = pic(edge);
    thin_run(&im, 0, &st);
    test_cond("bar filling the image: outside pixels are 0", same_pic(&im, edge2));
    thin_image_free(&im);

    /* The kernel against the textbook, on random images. */
    int same = 1, idem = 1, subset = 1, iters = 1;
    for (int k = 0; k < 60; k++) {
        int w = 1 + (int)(rnd() % 70), h = 1 + (int)(rnd() % 50);
        thin_image a = blobs(w, h, 1 + (int)(rnd() % 8), k % 3 == 0 ? 30 : 0);
        thin_image b = copy_image(&a), orig = copy_image(&a);
        thin_run(&a, 0, &st);
        int it = textbook_run(&b);
        same &= same_image(&a, &b);
        iters &= it == st.iterations && st.converged;
        for (size_t i = 0; i < (size_t)w * h; i++)
            subset &= a.px[i] <= orig.px[i];
        thin_stats st2;
        thin_run(&a, 0, &st2);
        idem &= st2.iterations == 1 && st2.deleted == 0;
        thin_image_free(&a);
        thin_image_free(&b);
        thin_image_free(&orig);
    }
    test_cond("kernel = textbook per-pixel thinning on 60 random images", same);
    test_cond("the same iteration counts", iters);
    test_cond("a skeleton is a subset of its image", subset);
    test_cond("a skeleton thins to itself in one iteration", idem);
}

/* ---- rows packed ----------------------------------------------------------------- */

static void test_rows(void)
{
    int ok = 1, pad = 1;
    unsigned char px[80], back[80], packed[10];
    for (int w = 1; w <= 80; w++)
        for (int k = 0; k < 20; k++) {
            for (int x = 0; x < w; x++)
                px[x] = rnd() & 1;
            thin_pack_row(px, w, packed);
            for (int x = 0; x < w; x++)     /* P4's order, bit by bit */
                ok &= ((packed[x / 8] >> (7 - x % 8)) & 1) == px[x];
            if (w % 8)
                ok &= (packed[w / 8] & (0xff >> (w % 8))) == 0;
            ok &= thin_unpack_row(packed, w, back) == 0 && memcmp(px, back, (size_t)w) == 0;
            if (w % 8) {
                packed[w / 8] |= 1;
                pad &= thin_unpack_row(packed, w, back) == -1;
            }
        }
    test_cond("rows pack (high bit first, padding 0) and unpack back, widths 1..80", ok);
    test_cond("a set padding bit is refused", pad);
}

/* ---- PBM ----------------------------------------------------------------------- */

static int read_text(const char *text, size_t len, thin_image *im, char *msg, size_t mlen)
{
    FILE *f = len ? fmemopen((void *)text, len, "rb") : fopen("/dev/null", "rb");
    int rc = thin_pbm_read_stream(im, f, "t.pbm", msg, mlen);
    fclose(f);
    return rc;
}

static void test_pbm(void)
{
    char msg[256];
    thin_image im;
    static const char *const want[] = {"#..", ".##", NULL};
    const char p1[] = "P1\n# a comment\n3 # width\n2\n1 0 0\n0 1 1\n";
    test_cond("P1 with comments in the header",
              read_text(p1, sizeof p1 - 1, &im, msg, sizeof msg) == 0 && same_pic(&im, want));
    thin_image_free(&im);
    const char p1b[] = "P1 3\t2\r\n100#comment in the raster\n011";
    test_cond("P1 without blanks between pixels, tabs, CR, comment in the raster",
              read_text(p1b, sizeof p1b - 1, &im, msg, sizeof msg) == 0 && same_pic(&im, want));
    thin_image_free(&im);
    /* P4: 3 x 2, rows 0x80 and 0x60; padding bits set in the first row
     * (0x9f = 100 11111): don't-care. Trailing data ignored. */
    const char p4[] = "P4\n3 2\n\x9f\x60trailing";
    test_cond("P4, padding bits ignored, trailing bytes ignored",
              read_text(p4, sizeof p4 - 1, &im, msg, sizeof msg) == 0 && same_pic(&im, want));
    thin_image_free(&im);
    const char p4c[] = "P4 3 2#comment\n\x80\x60";
    test_cond("P4 with a comment after the height",
              read_text(p4c, sizeof p4c - 1, &im, msg, sizeof msg) == 0 && same_pic(&im, want));
    thin_image_free(&im);

    struct { const char *text; size_t len; const char *needle; } bad[] = {
        {"", 0, "empty file"},
        {"P2\n3 2\n255\n", 10, "P2 file"},
        {"P6\n3 2\n", 7, "P6 file"},
        {"GIF89a", 6, "not a PBM image"},
        {"P1x 3 2", 7, "followed by 'x'"},
        {"P1\n3", 4, "ends after the width"},
        {"P1\n3\n", 5, "before the height"},
        {"P1\nabc 2\n", 9, "width is not a number (found 'a')"},
        {"P1\n3 2x\n", 8, "bad height: 'x'"},
        {"P1\n0 2\n", 7, "width 0 must be in [1, 65536]"},
        {"P1\n3 65537\n", 11, "height 65537"},
        {"P1\n99999999999999999999 2\n", 26, "line 2: width too large"},
        {"P4\n65536 65536\n", 15, "65536 x 65536 = 4294967296 pixels is over the limit"},
        {"P1\n3 2\n1 0 0\n0 2 1\n", 19, "line 4: '2' in a plain (P1) raster, pixel 4"},
        {"P1\n3 2\n1 0 0\n0 1", 16, "line 4: truncated raster: 5 of 6 pixels"},
        {"P4\n3 2\n\x80", 8, "truncated raster at byte 8: row 2 of 2"},
        {"P4\n9 1\n\x80", 8, "row 1 of 1 needs 2 bytes, 1 there"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        msg[0] = '\0';
        int rc = read_text(bad[i].text, bad[i].len, &im, msg, sizeof msg);
        test_condf(rc == -1 && strstr(msg, bad[i].needle) && strncmp(msg, "t.pbm: ", 7) == 0 &&
                   !strchr(msg, '\n') && im.px == NULL,
                   "bad PBM %zu refused: '%s' (got '%s')", i, bad[i].needle, msg);
    }

    /* Written and read back, P4 and P1, an odd width. */
    char dir[] = "/tmp/test_thin.XXXXXX";
    if (!mkdtemp(dir)) {
        test_cond("mkdtemp", 0);
        return;
    }
    char path[64];
    snprintf(path, sizeof path, "%s/a.pbm", dir);
    thin_image a = blobs(77, 13, 6, 20);
    int ok = 1;
    for (int plain = 0; plain <= 1; plain++) {
        thin_image b;
        ok &= thin_pbm_write(&a, path, plain, msg, sizeof msg) == 0 &&
              thin_pbm_read(&b, path, msg, sizeof msg) == 0 && same_image(&a, &b);
        thin_image_free(&b);
    }
    test_cond("P4 and P1 written and read back, 77 x 13", ok);
    FILE *f = fopen(path, "rb");
    char line[128];
    int longest = 0;
    while (f && fgets(line, sizeof line, f))
        if ((int)strlen(line) > longest)
            longest = (int)strlen(line);
    if (f)
        fclose(f);
    test_cond("P1 lines at most 70 characters", longest > 0 && longest <= 71);
    test_cond("a missing file: its name and strerror",
              thin_pbm_read(&im, "/nonexistent/x.pbm", msg, sizeof msg) == -1 &&
              strstr(msg, "/nonexistent/x.pbm: No such file"));
    test_cond("an unwritable path is refused, naming the path and the error",
              thin_pbm_write(&a, "/nonexistent/x.pbm", 0, msg, sizeof msg) == -1 &&
              strstr(msg, "cannot write /nonexistent/x.pbm: No such file"));
    thin_image_free(&a);
    remove(path);
    rmdir(dir);
}

/* ---- parts -------------------------------------------------------------------- */

static void test_part_rows(void)
{
    int a, n, ok = 1;
    thin_part_rows(10, 3, 0, &a, &n); ok &= a == 0 && n == 4;
    thin_part_rows(10, 3, 1, &a, &n); ok &= a == 4 && n == 3;
    thin_part_rows(10, 3, 2, &a, &n); ok &= a == 7 && n == 3;
    test_cond("10 rows in 3 parts: 4, 3, 3", ok);
    ok = 1;
    for (int j = 0; j < 5; j++) {
        thin_part_rows(3, 5, j, &a, &n);
        ok &= j < 3 ? a == j && n == 1 : n == 0;
    }
    test_cond("3 rows in 5 parts: 1, 1, 1, then 2 empty parts", ok);
    int cover = 1;
    for (int H = 1; H <= 130; H++)
        for (int M = 1; M <= 64; M++) {
            int next = 0, lo = H, hi = 0;
            for (int j = 0; j < M; j++) {
                thin_part_rows(H, M, j, &a, &n);
                cover &= a == next;
                next = a + n;
                lo = n < lo ? n : lo;
                hi = n > hi ? n : hi;
            }
            cover &= next == H && hi - lo <= 1;
        }
    test_cond("parts cover the rows in order, sizes within 1 (H 1..130, M 1..64)", cover);
}

/* Does thin_parts_run give thin_run's image and numbers for every M? */
static int parts_agree(const thin_image *src, int max_iter, const char *what, int *woke)
{
    thin_image seq = copy_image(src);
    thin_stats s;
    thin_run(&seq, max_iter, &s);
    int ok = 1;
    for (int M = 1; M <= THIN_MAX_PARTS && ok; M++) {
        thin_image par = copy_image(src);
        thin_stats p;
        char msg[256];
        long long tasks;
        char *buf = NULL;
        size_t blen = 0;
        FILE *tr = open_memstream(&buf, &blen);
        int rc = thin_parts_run(&par, M, max_iter, tr, what, THIN_UNIT_PIXELS, &p, &tasks,
                                msg, sizeof msg);
        fclose(tr);
        ok = rc == 0 && same_image(&seq, &par) && p.iterations == s.iterations &&
             p.converged == s.converged && p.deleted == s.deleted && p.pixels == s.pixels;
        if (!ok)
            printf("     %s, M = %d: rc %d (%s), iterations %d/%d, pixels %lld/%lld\n", what,
                   M, rc, rc ? msg : "", p.iterations, s.iterations, p.pixels, s.pixels);
        /* The trace: a header, one line per iteration of M fields; the
         * empty parts never have a task. Look for a part woken after a
         * sleep. */
        int lines = 0, fields_ok = 1, asleep[THIN_MAX_PARTS] = {0};
        char *save = NULL;
        for (char *l = strtok_r(buf, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
            if (lines++ == 0) {
                char head[256];
                snprintf(head, sizeof head, "# thin trace: image %s, %d x %d, parts %d, "
                         "unit pixels", what, src->width, src->height, M);
                fields_ok &= strcmp(l, head) == 0;
                continue;
            }
            int nf = 0;
            char *s2 = NULL;
            for (char *f = strtok_r(l, " ", &s2); f; f = strtok_r(NULL, " ", &s2), nf++) {
                if (nf == 0) {
                    fields_ok &= atoi(f) == lines - 1;
                    continue;
                }
                int j = nf - 1, row0, rows;
                thin_part_rows(src->height, M, j, &row0, &rows);
                if (strcmp(f, "-") == 0)
                    asleep[j] = 1;
                else {
                    fields_ok &= rows > 0 && atoll(f) >= 0;
                    if (asleep[j] && woke)
                        (*woke)++;
                    asleep[j] = 0;
                }
            }
            fields_ok &= nf == M + 1;
        }
        fields_ok &= lines == s.iterations + 1;
        if (ok && !fields_ok)
            printf("     %s, M = %d: bad trace\n", what, M);
        ok &= fields_ok;
        free(buf);
        thin_image_free(&par);
    }
    thin_image_free(&seq);
    return ok;
}

static void test_parts_equal(void)
{
    char msg[256];
    int woke = 0;
    /* Degenerate images. */
    struct { int w, h, fill; const char *name; } deg[] = {
        {1, 1, 1, "1x1-one"}, {1, 1, 0, "1x1-zero"}, {17, 1, 1, "row"},
        {1, 23, 1, "column"}, {30, 20, 0, "all-zero"}, {30, 20, 1, "all-one"},
        {5, 3, 1, "5x3-one"}, {2, 70, 1, "2x70-one"}, {70, 2, 1, "70x2-one"},
    };
    for (size_t i = 0; i < sizeof deg / sizeof deg[0]; i++) {
        thin_image im;
        thin_image_init(&im, deg[i].w, deg[i].h, msg, sizeof msg);
        memset(im.px, deg[i].fill, (size_t)deg[i].w * deg[i].h);
        test_condf(parts_agree(&im, 0, deg[i].name, NULL),
                   "parts = sequential, M 1..64: %s (%d x %d)", deg[i].name, deg[i].w,
                   deg[i].h);
        thin_image_free(&im);
    }
    /* Random blobs, some with noise; some taller than 64 rows. */
    int all = 1;
    for (int k = 0; k < 24; k++) {
        int w = 1 + (int)(rnd() % 60), h = 1 + (int)(rnd() % 100);
        thin_image im = blobs(w, h, 1 + (int)(rnd() % 10), k % 4 == 0 ? 25 : 0);
        char name[32];
        snprintf(name, sizeof name, "blobs%d", k);
        all &= parts_agree(&im, 0, name, &woke);
        thin_image_free(&im);
    }
    test_cond("parts = sequential, M 1..64: 24 random blob images", all);
    /* Dense noise: parts fall asleep and are woken (the shapes above keep
     * their borders busy until they converge). */
    all = 1;
    for (int k = 0; k < 16; k++) {
        int w = 3 + (int)(rnd() % 30), h = 3 + (int)(rnd() % 40);
        thin_image im = blobs(w, h, 0, 40 + (int)(rnd() % 50));
        char name[32];
        snprintf(name, sizeof name, "noise%d", k);
        all &= parts_agree(&im, 0, name, &woke);
        thin_image_free(&im);
    }
    test_cond("parts = sequential, M 1..64: 16 dense noise images", all);
    /* Found by a search over random images: with M = 6, part 3 (rows 9..11)
     * deletes nothing in iteration 3, sleeps in iteration 4 and is woken for
     * iteration 5 by its neighbours' changes. */
    static const char *const wakes[] = {
        "########.###", "#####.######", "#########.##", "...#.#.#####", ".#.#########",
        "####.#.#####", "#########.##", "#.###.######", "############", "#########.##",
        "###.########", "##.##.##.##.", "##.####.####", "###.####..##", "#.##########",
        "#########.##", "############", NULL};
    thin_image wim = pic(wakes);
    int before = woke;
    test_cond("parts = sequential, M 1..64: the 12 x 17 image with a wake-up",
              parts_agree(&wim, 0, "wakes", &woke));
    test_condf(woke > before, "the 12 x 17 image: a sleeping part woken (%d times)",
               woke - before);
    thin_image_free(&wim);
    /* Found by a search, with the wake-up rule cut to one border row each
     * side: with M = 11 that run differs from the sequential skeleton; a
     * change two rows away must wake a part too. */
    static const char *const far[] = {
        "###.#####.#.", ".###...#.###", ".##.##.##.##", "####.#.##.#.", "##.###.###.#",
        ".#.##..###..", ".#....###.##", "###.######..", ".#.##.##....", "#.####..####",
        ".###....##..", "########.###", "#..####.##..", "####..#..###", "###.#..###.#",
        NULL};
    wim = pic(far);
    test_cond("parts = sequential, M 1..64: the 12 x 15 image woken from two rows away",
              parts_agree(&wim, 0, "far", NULL));
    thin_image_free(&wim);
    /* The test images, small (zoom 0.1; the letters in a font made here). */
    for (int s = 0; s < 2; s++) {
        const char *scene = s ? "boyball" : "figures";
        thin_image im;
        int rc = thin_draw(&im, scene, 0.1, 1, NULL, NULL, msg, sizeof msg);
        test_condf(rc == 0 && parts_agree(&im, 0, scene, &woke),
                   "parts = sequential, M 1..64: %s at zoom 0.1", scene);
        if (rc == 0) {
            test_condf(parts_agree(&im, 3, scene, NULL),
                       "parts = sequential, M 1..64: %s, 3 iterations at most", scene);
            thin_image_free(&im);
        }
    }
    test_condf(woke > 0, "a sleeping part was woken by a neighbour's change (%d times)", woke);
}

/* ---- payloads -------------------------------------------------------------------- */

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

static void test_payloads(void)
{
    char msg[256];
    thin_image im = blobs(37, 20, 6, 0);
    thin_image ref = copy_image(&im);
    thin_run(&ref, 1, NULL);                /* one sequential iteration */
    thin_parts *p = thin_parts_new(&im, 3, msg, sizeof msg);
    unsigned char act[THIN_MAX_PARTS];
    test_cond("3 parts, first iteration: every part has a task",
              p && thin_parts_begin(p, act) == 3 && act[0] && act[1] && act[2] &&
              thin_parts_iteration(p) == 1);
    test_cond("begin while an iteration is open: refused", thin_parts_begin(p, act) == -1);

    /* Part 1: rows 7..13 (20 = 7 + 7 + 6), two rows above and below. */
    unsigned char *task, *res;
    size_t tlen, rlen;
    thin_parts_task(p, 1, &task, &tlen, msg, sizeof msg);
    size_t rb = 5;                          /* ceil(37 / 8) */
    test_cond("task header: magic, iteration, part, M, W, H, row0, rows, above, below",
              memcmp(task, "THT1", 4) == 0 && get32(task + 4) == 1 && get32(task + 8) == 1 &&
              get32(task + 12) == 3 && get32(task + 16) == 37 && get32(task + 20) == 20 &&
              get32(task + 24) == 7 && get32(task + 28) == 7 && get32(task + 32) == 2 &&
              get32(task + 36) == 2 && tlen == THIN_TASK_HEADER + 11 * rb);
    unsigned char rowbuf[37];
    int rows_ok = 1;
    for (int r = 0; r < 11; r++) {
        thin_unpack_row(task + THIN_TASK_HEADER + r * rb, 37, rowbuf);
        rows_ok &= memcmp(rowbuf, im.px + (size_t)(5 + r) * 37, 37) == 0;
    }
    test_cond("task rows: image rows 5..17, packed", rows_ok);
    long long ex;
    int rc = thin_task_run(task, tlen, &res, &rlen, &ex, msg, sizeof msg);
    int res_ok = rc == 0 && rlen == THIN_RESULT_HEADER + 7 * rb &&
                 memcmp(res, "THR1", 4) == 0 && get32(res + 4) == 1 && get32(res + 8) == 1 &&
                 get32(res + 12) == 37 && get32(res + 16) == 7 && get32(res + 20) == 7 &&
                 (long long)get32(res + 28) == ex;
    long long del = 0;
    for (int r = 0; r < 7 && res_ok; r++) {
        thin_unpack_row(res + THIN_RESULT_HEADER + r * rb, 37, rowbuf);
        res_ok &= memcmp(rowbuf, ref.px + (size_t)(7 + r) * 37, 37) == 0;
        for (int x = 0; x < 37; x++)
            del += im.px[(size_t)(7 + r) * 37 + x] != rowbuf[x];
    }
    test_cond("result: the part's rows after one sequential iteration, its counts",
              res_ok && get32(res + 24) == del);

    /* Results refused, each changed in one way. */
    struct { size_t off; uint32_t v; const char *needle; } badres[] = {
        {0, 0x31525458, "bad magic"},               /* "XTR1" */
        {4, 2, "later iteration"},
        {8, 2, "for part 2"},
        {12, 36, "width 36"},
        {16, 8, "rows 8+7"},
        {20, 6, "rows 7+6"},
        {24, 0, "deleted"},
        {32, 99, "border flags"},           /* 99: the right flags with each bit flipped */
        {32, 16, "bits 0-3 only"},
        {28, 0xffffffffu, "examined"},
    };
    for (size_t i = 0; i < sizeof badres / sizeof badres[0]; i++) {
        unsigned char *b = malloc(rlen);
        memcpy(b, res, rlen);
        put32(b + badres[i].off, badres[i].v);
        if (badres[i].off == 24 && get32(res + 24) == 0)
            put32(b + 24, 1);
        if (badres[i].v == 99)
            put32(b + 32, get32(res + 32) ^ 15);
        msg[0] = '\0';
        test_condf(thin_parts_store(p, 1, b, rlen, msg, sizeof msg) == -1 &&
                   strstr(msg, badres[i].needle),
                   "result with word %zu = %u refused: '%s' (%s)", badres[i].off / 4,
                   (unsigned)badres[i].v, badres[i].needle, msg);
        free(b);
    }
    unsigned char *b = malloc(rlen + 1);
    memcpy(b, res, rlen);
    b[rlen] = 0;
    test_cond("result one byte long refused", thin_parts_store(p, 1, b, rlen + 1, msg, sizeof msg) == -1 &&
              strstr(msg, "expected"));
    test_cond("result cut short refused", thin_parts_store(p, 1, b, 20, msg, sizeof msg) == -1);
    b[THIN_RESULT_HEADER + rb - 1] |= 1;           /* a padding bit: 37 = 4*8 + 5 */
    test_cond("result with a padding bit refused",
              thin_parts_store(p, 1, b, rlen, msg, sizeof msg) == -1 && strstr(msg, "padding"));
    memcpy(b, res, rlen);
    int added = 0;                                  /* a 0 made 1: not a thinning */
    for (size_t i = THIN_RESULT_HEADER; i < rlen && !added; i++)
        if ((i - THIN_RESULT_HEADER) % rb != rb - 1 && b[i] != 0xff) {
            for (int bit = 7; bit >= 0; bit--)
                if (!(b[i] >> bit & 1)) {
                    b[i] |= (unsigned char)(1u << bit);
                    break;
                }
            added = 1;
        }
    test_cond("result adding a pixel refused",
              thin_parts_store(p, 1, b, rlen, msg, sizeof msg) == -1 && strstr(msg, "became 1"));
    free(b);
    test_cond("result stored under another part refused",
              thin_parts_store(p, 0, res, rlen, msg, sizeof msg) == -1);
    test_cond("end with results missing refused, naming a part",
              thin_parts_end(p, NULL, msg, sizeof msg) == -1 && strstr(msg, "part 0"));
    test_cond("the good result is stored", thin_parts_store(p, 1, res, rlen, msg, sizeof msg) == 0);
    test_cond("the same again: a duplicate, ignored",
              thin_parts_store(p, 1, res, rlen, msg, sizeof msg) == 1);
    free(res);
    free(task);
    for (int j = 0; j < 3; j += 2) {
        thin_parts_task(p, j, &task, &tlen, msg, sizeof msg);
        thin_task_run(task, tlen, &res, &rlen, NULL, msg, sizeof msg);
        thin_parts_store(p, j, res, rlen, msg, sizeof msg);
        free(task);
        free(res);
    }
    thin_iter it;
    test_cond("end once all are stored: the sequential iteration's image",
              thin_parts_end(p, &it, msg, sizeof msg) == 0 && it.iteration == 1 &&
              it.tasks == 3 && same_image(thin_parts_image(p), &ref));
    test_cond("a task for no open iteration refused",
              thin_parts_task(p, 0, &task, &tlen, msg, sizeof msg) == -1);
    thin_parts_free(p);

    /* A late result (an earlier iteration) is ignored. */
    p = thin_parts_new(&im, 2, msg, sizeof msg);
    thin_parts_begin(p, act);
    unsigned char *late = NULL;
    size_t llen = 0;
    for (int j = 0; j < 2; j++) {
        thin_parts_task(p, j, &task, &tlen, msg, sizeof msg);
        thin_task_run(task, tlen, &res, &rlen, NULL, msg, sizeof msg);
        thin_parts_store(p, j, res, rlen, msg, sizeof msg);
        free(task);
        if (j == 0) {
            late = res;
            llen = rlen;
        } else
            free(res);
    }
    thin_parts_end(p, NULL, msg, sizeof msg);
    if (thin_parts_begin(p, act) > 0)
        test_cond("a result of an earlier iteration: ignored",
                  thin_parts_store(p, 0, late, llen, msg, sizeof msg) == 1);
    free(late);
    thin_parts_free(p);

    /* Tasks refused. */
    p = thin_parts_new(&im, 3, msg, sizeof msg);
    thin_parts_begin(p, act);
    thin_parts_task(p, 0, &task, &tlen, msg, sizeof msg);   /* rows 0..6: 0 above, 2 below */
    struct { size_t off; uint32_t v; const char *needle; } badtask[] = {
        {0, 0x31544858, "bad magic"},
        {4, 0, "out of range"},
        {8, 3, "out of range"},
        {12, 0, "out of range"},
        {12, 65, "out of range"},
        {16, 0, "width 0"},
        {16, 70000, "width 70000"},
        {20, 0, "height 0"},
        {20, 8, "do not fit"},                  /* 8 rows: 1 below, not 2 */
        {24, 20, "do not fit"},
        {28, 0, "do not fit"},
        {28, 21, "do not fit"},
        {32, 1, "do not fit"},
        {36, 1, "do not fit"},
        {16, 41, "bytes, expected"},            /* 6 bytes a row */
    };
    for (size_t i = 0; i < sizeof badtask / sizeof badtask[0]; i++) {
        unsigned char *t = malloc(tlen);
        memcpy(t, task, tlen);
        put32(t + badtask[i].off, badtask[i].v);
        msg[0] = '\0';
        res = NULL;
        rc = thin_task_run(t, tlen, &res, &rlen, NULL, msg, sizeof msg);
        test_condf(rc == -1 && strstr(msg, badtask[i].needle),
                   "task with word %zu = %u refused: '%s' (%s)", badtask[i].off / 4,
                   (unsigned)badtask[i].v, badtask[i].needle, msg);
        free(res);
        free(t);
    }
    res = NULL;
    test_cond("task one byte short refused",
              thin_task_run(task, tlen - 1, &res, &rlen, NULL, msg, sizeof msg) == -1 &&
              strstr(msg, "bytes, expected"));
    test_cond("task of 3 bytes refused", thin_task_run(task, 3, &res, &rlen, NULL, msg,
                                                       sizeof msg) == -1);
    unsigned char *t = malloc(tlen);
    memcpy(t, task, tlen);
    t[THIN_TASK_HEADER + rb - 1] |= 1;
    test_cond("task with a padding bit refused",
              thin_task_run(t, tlen, &res, &rlen, NULL, msg, sizeof msg) == -1 &&
              strstr(msg, "padding"));
    free(t);
    test_cond("a task for a part without one refused",
              thin_parts_task(p, 5, &t, &tlen, msg, sizeof msg) == -1);
    free(task);
    thin_parts_free(p);
    test_cond("M = 0 refused", !thin_parts_new(&im, 0, msg, sizeof msg) && strstr(msg, "parts 0"));
    test_cond("M = 65 refused", !thin_parts_new(&im, 65, msg, sizeof msg) && strstr(msg, "parts 65"));
    thin_image_free(&im);
    thin_image_free(&ref);
}

/* ---- fonts and images ---------------------------------------------------------------- */

/* A PSF2 font of 4 glyphs 5 wide, 6 high; glyph 1 draws a block letter;
 * the Unicode table maps 'X' to glyph 1 (as a single character) and 'Y' only
 * inside a sequence (not a mapping), glyph 2 gets a 2-byte UTF-8 'é'. */
static size_t make_psf2(unsigned char *d)
{
    memset(d, 0, 512);
    put32(d, 0x864ab572u);
    put32(d + 4, 0);
    put32(d + 8, 32);
    put32(d + 12, 1);
    put32(d + 16, 4);
    put32(d + 20, 6);
    put32(d + 24, 6);
    put32(d + 28, 5);
    static const unsigned char x[6] = {0x88, 0x50, 0x20, 0x50, 0x88, 0x00};   /* an X */
    memcpy(d + 32 + 6, x, 6);
    size_t p = 32 + 4 * 6;
    d[p++] = 0xff;                                          /* glyph 0: nothing */
    d[p++] = 'X'; d[p++] = 0xfe; d[p++] = 'Y'; d[p++] = 'Y'; d[p++] = 0xff;
    d[p++] = 0xc3; d[p++] = 0xa9; d[p++] = 0xff;           /* glyph 2: é */
    d[p++] = 0xff;                                          /* glyph 3 */
    return p;
}

static void test_fonts(void)
{
    unsigned char d[512];
    char msg[256];
    thin_font f;
    size_t n = make_psf2(d);
    int rc = thin_font_load(&f, d, n, msg, sizeof msg);
    test_cond("PSF2 loads: 4 glyphs 5 x 6", rc == 0 && f.width == 5 && f.height == 6 &&
              f.count == 4);
    test_cond("PSF2 Unicode table: X is glyph 1, Y (in a sequence) none, A none",
              rc == 0 && f.ascii['X'] == 1 && f.ascii['Y'] == -1 && f.ascii['A'] == -1);
    test_cond("glyph pixels: X's corners set, centre of the top row clear",
              rc == 0 && thin_font_pixel(&f, 'X', 0, 0) && thin_font_pixel(&f, 'X', 4, 0) &&
              !thin_font_pixel(&f, 'X', 2, 0) && thin_font_pixel(&f, 'X', 2, 2) &&
              !thin_font_pixel(&f, 'X', 5, 0) && !thin_font_pixel(&f, 'A', 0, 0));
    if (rc == 0) {
        thin_image im;
        rc = thin_draw(&im, "letters", 0.1, 2, &f, "XX", msg, sizeof msg);
        /* Letters XX: (2 * 5 + 2) x (5 + 2) font pixels of 52 units, 624 x
         * 364; the capitals' line: 624 / (5 * 5) = 24 characters fit, A..X,
         * and X is drawn: a strip of 52 + 5 * 5 + 52 = 129 units above; no
         * small letter has a glyph: no line below. 624 x 493 units, at zoom
         * 0.1 63 x 50 a tile, 2 tiles. */
        test_condf(rc == 0 && im.width == 2 * 63 && im.height == 50,
                   "letters XX at zoom 0.1, 2 copies: 126 x 50 (%d x %d)", rc ? 0 : im.width,
                   rc ? 0 : im.height);
        if (rc == 0) {
            int woke = 0;
            test_cond("parts = sequential, M 1..64: letters XX", parts_agree(&im, 0, "letters",
                                                                            &woke));
            thin_image_free(&im);
        }
        /* At zoom 1: the big X's 9 font pixels of 52 x 52 twice, the small
         * X's 9 of 5 x 5, 24 small glyphs of 25 units wide centred: the
         * small X (the 24th) at x = (624 - 600) / 2 + 23 * 25 = 587, y = 52;
         * the big text below the strip and its margin, from y = 129 + 52. */
        rc = thin_draw(&im, "letters", 1, 1, &f, "XX", msg, sizeof msg);
        test_condf(rc == 0 && im.width == 624 && im.height == 493 &&
                   thin_image_count(&im) == 2 * 9 * 52 * 52 + 9 * 5 * 5,
                   "letters XX at zoom 1: 624 x 493, 48672 + 225 pixels (%d x %d, %lld)",
                   rc ? 0 : im.width, rc ? 0 : im.height, rc ? 0 : thin_image_count(&im));
        if (rc == 0) {
            int corners = 1;
            for (int y = 0; y < 5; y++)     /* the small X's top row: pixels 0, 4 set */
                for (int x = 0; x < 25; x++)
                    corners &= im.px[(size_t)(52 + y) * 624 + 587 + (size_t)x] ==
                               (x < 5 || x >= 20);
            test_cond("letters XX: the small X of the capitals' line at (587, 52)", corners);
            test_cond("letters XX: the big text from row 181, nothing in rows 129..180",
                      im.px[(size_t)181 * 624 + 52] == 1 && im.px[(size_t)180 * 624 + 52] == 0 &&
                      thin_image_count(&(thin_image){624, 52, im.px + (size_t)129 * 624}) == 0);
            thin_image_free(&im);
        }
        /* One X: 364 / 25 = 14 characters fit, A..N, none drawn: no line. */
        rc = thin_draw(&im, "letters", 1, 1, &f, "X", msg, sizeof msg);
        test_condf(rc == 0 && im.width == 364 && im.height == 364,
                   "letters X: the capitals cut to A..N, none in the font: 364 x 364 (%d x %d)",
                   rc ? 0 : im.width, rc ? 0 : im.height);
        if (rc == 0)
            thin_image_free(&im);
        test_cond("letters: a text the font cannot draw refused",
                  thin_draw(&im, "letters", 1, 1, &f, "AB", msg, sizeof msg) == -1 &&
                  strstr(msg, "text 'AB'"));
        thin_font_free(&f);
    }
    test_cond("PSF2 cut in its glyphs refused",
              thin_font_load(&f, d, 40, msg, sizeof msg) == -1 && strstr(msg, "glyphs expected"));
    test_cond("PSF2 cut in its Unicode table refused",
              thin_font_load(&f, d, n - 1, msg, sizeof msg) == -1 && strstr(msg, "Unicode table"));
    put32(d + 20, 7);
    test_cond("PSF2 with a wrong glyph size refused",
              thin_font_load(&f, d, n, msg, sizeof msg) == -1 && strstr(msg, "bad header"));
    test_cond("not a font refused", thin_font_load(&f, (const unsigned char *)"hello", 5, msg,
                                                   sizeof msg) == -1 && strstr(msg, "magic"));
    /* PSF1: 256 glyphs of 8 x 4, no table: glyph c is character c. */
    unsigned char *p1 = calloc(4 + 256 * 4, 1);
    p1[0] = 0x36; p1[1] = 0x04; p1[2] = 0; p1[3] = 4;
    p1[4 + 'A' * 4] = 0x81;
    rc = thin_font_load(&f, p1, 4 + 256 * 4, msg, sizeof msg);
    test_cond("PSF1 without a table: 'A' is glyph 65", rc == 0 && f.width == 8 &&
              f.height == 4 && f.ascii['A'] == 'A' && thin_font_pixel(&f, 'A', 0, 0) &&
              thin_font_pixel(&f, 'A', 7, 0) && !thin_font_pixel(&f, 'A', 1, 0));
    if (rc == 0)
        thin_font_free(&f);
    free(p1);

    thin_image a, b;
    rc = thin_draw(&a, "figures", 0.2, 1, NULL, NULL, msg, sizeof msg);
    int rc2 = thin_draw(&b, "figures", 0.2, 3, NULL, NULL, msg, sizeof msg);
    int tiles = rc == 0 && rc2 == 0 && b.width == 3 * a.width && b.height == a.height;
    for (int y = 0; tiles && y < a.height; y++)
        for (int k = 0; k < 3; k++)
            tiles &= memcmp(b.px + (size_t)y * b.width + (size_t)k * a.width,
                            a.px + (size_t)y * a.width, (size_t)a.width) == 0;
    test_cond("figures, 3 copies: three equal tiles side by side", tiles);
    if (rc == 0 && rc2 == 0) {
        thin_stats s1, s3;
        thin_run(&a, 0, &s1);
        thin_run(&b, 0, &s3);
        test_cond("copies: the same iterations, 3 times the pixels",
                  s1.iterations == s3.iterations && s3.pixels == 3 * s1.pixels &&
                  s3.examined == 3 * s1.examined);
        thin_image_free(&a);
        thin_image_free(&b);
    }
    rc = thin_draw(&a, "boyball", 0.25, 1, NULL, NULL, msg, sizeof msg);
    rc2 = thin_draw(&b, "boyball", 0.25, 1, NULL, NULL, msg, sizeof msg);
    test_cond("boyball drawn twice: the same bits, 350 x 350",
              rc == 0 && rc2 == 0 && same_image(&a, &b) && a.width == 350 && a.height == 350 &&
              thin_image_count(&a) > 0);
    if (rc == 0)
        thin_image_free(&a);
    if (rc2 == 0)
        thin_image_free(&b);
    test_cond("unknown scene refused, naming it and the scenes",
              thin_draw(&a, "dog", 1, 1, NULL, NULL, msg, sizeof msg) == -1 &&
              strstr(msg, "'dog'") && strstr(msg, "boyball"));
    test_cond("letters without a font refused",
              thin_draw(&a, "letters", 1, 1, NULL, NULL, msg, sizeof msg) == -1 &&
              strstr(msg, "font"));
    test_cond("zoom 0 refused", thin_draw(&a, "figures", 0, 1, NULL, NULL, msg, sizeof msg) == -1 &&
              strstr(msg, "zoom 0"));
    test_cond("copies 65 refused", thin_draw(&a, "figures", 1, 65, NULL, NULL, msg,
                                             sizeof msg) == -1 && strstr(msg, "copies 65"));
    test_cond("a row over 65536 pixels refused",
              thin_draw(&a, "figures", 1, 37, NULL, NULL, msg, sizeof msg) == -1 &&
              strstr(msg, "width 66600"));
}

int main(void)
{
    test_conditions();
    test_worked();
    test_rows();
    test_pbm();
    test_part_rows();
    test_parts_equal();
    test_payloads();
    test_fonts();
    return test_report();
}
