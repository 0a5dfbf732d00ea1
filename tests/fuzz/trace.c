/* trace.c: fuzzes the task-time trace reader (sim_trace_read, sim/trace.c)
 * and the worker-pool replay on what it accepts (sim_pool_run, sim/pool.c).
 * An accepted trace has 1..4096 parts, costs >= 0 or none, a task in every
 * iteration; replayed by both strategies (small traces only) it ends, with
 * efficiencies in [0, 1] and at least one worker held at its peak. */
#include "tests/fuzz/fuzz.h"

#include <math.h>

#include "sim/pool.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sim_trace tr;
    char msg[1024];
    if (sim_trace_read(&tr, fuzz_file(data, size), msg, sizeof msg) != 0) {
        FUZZ_CHECK(msg[0] != '\0');
        sim_trace_free(&tr);
        return 0;
    }
    FUZZ_CHECK(tr.parts >= 1 && tr.parts <= 4096 && tr.n >= 1);
    for (long k = 0; k < tr.n; k++) {
        int tasks = 0;
        for (int i = 0; i < tr.parts; i++) {
            double c = sim_trace_cost(&tr, k, i);
            FUZZ_CHECK(isnan(c) || (c >= 0 && isfinite(c)));
            tasks += !isnan(c);
        }
        FUZZ_CHECK(tasks > 0);
    }
    if (tr.n * tr.parts <= 4096) {
        const char *names[] = {"adjust", "static"};
        for (int s = 0; s < 2; s++) {
            sim_pool_config c;
            sim_pool_config_init(&c);
            sched_err err;
            c.type = pool_type_find(names[s], &err);
            FUZZ_CHECK(c.type != NULL);
            double scale = sim_trace_scale(&tr);
            c.scale = isfinite(scale) && scale > 0 ? scale : 1;
            if (sim_pool_check(&c, &tr, msg, sizeof msg) != 0)
                break;                  /* costs too large once scaled: refused */
            sim_pool_result r;
            if (sim_pool_run(&c, &tr, &r, msg, sizeof msg) != 0) {
                FUZZ_CHECK(msg[0] != '\0');
                continue;
            }
            FUZZ_CHECK(r.n == tr.n && r.peak >= 1);
            for (long k = 0; k < r.n; k++) {
                double e = r.it[k].d.efficiency;
                FUZZ_CHECK(isnan(e) || (e >= 0 && e <= 1 + 1e-9));
            }
            sim_pool_result_free(&r);
        }
    }
    sim_trace_free(&tr);
    return 0;
}
