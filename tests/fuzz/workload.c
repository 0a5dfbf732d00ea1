/* workload.c: fuzzes the simulator's workload line (sim_workload_parse,
 * sim/workload.c: "KIND key=value ..."), then pseudo-uniform sampling
 * (sim_workload_sample) with R from the input's first byte. What it accepts
 * has n >= 1 iterations costing a total >= 0, and sim_work / sim_reach agree
 * on it.
 *
 * Inputs that only ask for much work are skipped, not parsed: kinds that
 * hold a cost array (conditional, matrix, mandel) with n > 100000, and
 * Mandelbrot images over 64 x 64 or maxiter over 1000 (a legal
 * "mandel size=20000 maxiter=1e9" computes the image). Files are the costs
 * harness's: a file= or costs= names a file in a folder that does not
 * exist, and an input with '/' (an absolute path) is skipped. */
#include "tests/fuzz/fuzz.h"
#include <math.h>

#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    int R = 1 + data[0] % 16;
    char *line = fuzz_string(data + 1, size - 1);
    if (strchr(line, '/') || fuzz_over(line, "n=", 100000) ||
        fuzz_over(line, "size=", 64) || fuzz_over(line, "maxiter=", 1000)) {
        /* "uniform", "increasing", "decreasing" hold no array: any n */
        char *k = line + strspn(line, " \t\r\n");
        int linear = strncmp(k, "uniform", 7) == 0 || strncmp(k, "increasing", 10) == 0 ||
                     strncmp(k, "decreasing", 10) == 0;
        if (strchr(line, '/') || !linear) {
            free(line);
            return 0;
        }
    }
    sim_workload w;
    char msg[1024];
    if (sim_workload_parse(&w, line, 7, "/nonexistent-fuzz-dir", msg, sizeof msg) != 0) {
        FUZZ_CHECK(msg[0] != '\0');
        free(line);
        return 0;
    }
    FUZZ_CHECK(w.n >= 1);
    FUZZ_CHECK(!(w.total < 0));
    if (sim_workload_sample(&w, R, msg, sizeof msg) == 0) {
        double all = sim_work(&w, 0, w.n);
        FUZZ_CHECK(!(all < 0));
        long half = w.n / 2;
        double first = sim_work(&w, 0, half);
        if (isfinite(first)) {
            long k = sim_reach(&w, 0, w.n, first);
            FUZZ_CHECK(k >= 0 && k <= w.n);
        }
    }
    sim_workload_free(&w);
    free(line);
    return 0;
}
