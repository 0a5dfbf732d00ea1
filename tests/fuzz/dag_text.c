/* dag_text.c: fuzzes the DAG text format reader (dag/io.c; tests/fuzz/dagfuzz.h
 * says what is checked). */
#include "tests/fuzz/dagfuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_dag(data, size, DAG_FORMAT_TEXT);
}
