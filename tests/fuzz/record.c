/* record.c: fuzzes the run record reader (record_read, sched/records/record.c): the
 * input is the CSV file. What it accepts writes back (record_print) as a
 * record that reads back and writes the same bytes again: the writer and
 * the reader share one schema (record.h). */
#include "tests/fuzz/fuzz.h"
#include "sched/records/record.h"

/* r printed into a malloc'd buffer (*len bytes); aborts on a write error. */
static char *print(const record *r, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    FUZZ_CHECK(f != NULL);
    FUZZ_CHECK(record_print(r, f) == 0);
    FUZZ_CHECK(fclose(f) == 0);
    return buf;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    record r;
    char msg[1024];
    if (record_read(&r, fuzz_file(data, size), msg, sizeof msg) != 0) {
        FUZZ_CHECK(msg[0] != '\0');
        return 0;
    }
    (void)record_imbalance(&r);
    size_t n1, n2;
    char *once = print(&r, &n1);
    record_free(&r);
    record again;
    const char *path = fuzz_file_slot(1, (const uint8_t *)once, n1);
    if (record_read(&again, path, msg, sizeof msg) != 0) {
        fprintf(stderr, "what record_print wrote does not read back: %s\n", msg);
        FUZZ_CHECK(!"written record reads back");
    }
    char *twice = print(&again, &n2);
    record_free(&again);
    FUZZ_CHECK(n1 == n2 && memcmp(once, twice, n1) == 0);
    free(once);
    free(twice);
    return 0;
}
