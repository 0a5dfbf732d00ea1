/* pbm.c: fuzzes the PBM reader of the thinning (thin_pbm_read, thin/pbm.c):
 * the input is the file. What it accepts is an image of 0/1 pixels within
 * the limits; written back as plain PBM (P1, into memory) it reads back the
 * same; a small one is thinned a few iterations, which never adds a pixel. */
#include "tests/fuzz/fuzz.h"
#include "thin/thin.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    thin_image im;
    char msg[1024];
    if (thin_pbm_read(&im, fuzz_file(data, size), msg, sizeof msg) != 0) {
        FUZZ_CHECK(msg[0] != '\0' && !strchr(msg, '\n'));
        thin_image_free(&im);
        return 0;
    }
    FUZZ_CHECK(im.width >= 1 && im.height >= 1 && im.px);
    size_t n = (size_t)im.width * (size_t)im.height;
    for (size_t i = 0; i < n; i++)
        FUZZ_CHECK(im.px[i] <= 1);
    if (n <= 1 << 16) {
        /* P1 by hand: the reader must take what any writer of the format writes. */
        char *buf = NULL;
        size_t blen = 0;
        FILE *f = open_memstream(&buf, &blen);
        FUZZ_CHECK(f != NULL);
        fprintf(f, "P1\n%d %d\n", im.width, im.height);
        for (size_t i = 0; i < n; i++)
            fputc('0' + im.px[i], f);
        FUZZ_CHECK(fclose(f) == 0);
        thin_image back;
        int rc = thin_pbm_read(&back, fuzz_file_slot(1, (const uint8_t *)buf, blen), msg,
                               sizeof msg);
        FUZZ_CHECK(rc == 0 && back.width == im.width && back.height == im.height &&
                   memcmp(back.px, im.px, n) == 0);
        thin_image_free(&back);
        free(buf);
        long long before = thin_image_count(&im);
        thin_stats st;
        FUZZ_CHECK(thin_run(&im, 3, &st) == 0);
        FUZZ_CHECK(thin_image_count(&im) <= before);
    }
    thin_image_free(&im);
    return 0;
}
