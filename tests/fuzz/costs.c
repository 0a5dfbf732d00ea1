/* costs.c: fuzzes the simulator's cost files (sim/workload.c read_costs):
 * the input is the file, read as "costs file=F" (one cost per line: the
 * first field), "costs file=F column=3" and "mandel costs=F" (bin/mandel
 * --costs: index,row,cost: the cost of row 'row'). What is accepted has
 * n >= 1 iterations whose costs (sim_work) are each >= 0 and sum to the
 * total. */
#include "tests/fuzz/fuzz.h"
#include <math.h>

#include "sim/sim.h"

/* Reads the workload line PRE PATH POST. */
static void one(const char *pre, const char *path, const char *post)
{
    char line[256], msg[1024];
    sim_workload w;
    snprintf(line, sizeof line, "%s%s%s", pre, path, post);
    if (sim_workload_parse(&w, line, 1, NULL, msg, sizeof msg) != 0) {
        FUZZ_CHECK(msg[0] != '\0');
        return;
    }
    FUZZ_CHECK(w.n >= 1 && w.kind == SIM_ARRAY);
    for (long i = 0; i < w.n && i < 64; i++)
        FUZZ_CHECK(sim_work(&w, i, 1) >= 0 || isnan(sim_work(&w, i, 1)));
    if (sim_workload_sample(&w, 3, msg, sizeof msg) == 0)
        FUZZ_CHECK(!(sim_work(&w, 0, w.n) < 0));
    sim_workload_free(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size);
    one("costs file=", path, "");
    one("costs file=", path, " column=3");
    one("mandel costs=", path, "");
    return 0;
}
