/* thin_task.c: fuzzes the worker's side of the thinning's payloads
 * (thin_task_run, thin/parts.c): the input is a task as the master would
 * send it. A bad one is refused with a message; what is accepted gives a
 * result of exactly the documented length (thin.h: a 36-byte header, then
 * the part's rows). */
#include "tests/fuzz/fuzz.h"
#include "thin/thin.h"

static uint32_t word(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 |
           (uint32_t)p[3] << 24;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    unsigned char *res = NULL;
    size_t rlen = 0;
    long long examined = -1;
    char msg[512];
    if (thin_task_run(data, size, &res, &rlen, &examined, msg, sizeof msg) != 0) {
        FUZZ_CHECK(msg[0] != '\0');
        free(res);
        return 0;
    }
    FUZZ_CHECK(size >= THIN_TASK_HEADER && res && examined >= 0);
    uint32_t W = word(data + 16), n = word(data + 28);
    FUZZ_CHECK(rlen == THIN_RESULT_HEADER + (size_t)n * ((W + 7) / 8));
    FUZZ_CHECK(memcmp(res, "THR1", 4) == 0 && word(res + 12) == W && word(res + 20) == n);
    free(res);
    return 0;
}
