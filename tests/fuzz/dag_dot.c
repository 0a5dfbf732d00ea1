/* dag_dot.c: fuzzes the DAG DOT reader (dag/dot.c; tests/fuzz/dagfuzz.h says
 * what is checked). */
#include "tests/fuzz/dagfuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    return fuzz_dag(data, size, DAG_FORMAT_DOT);
}
