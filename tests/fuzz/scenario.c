/* scenario.c: fuzzes bin/sim's scenario file reader (read_scenario, static
 * in sim/main.c, which this harness includes with its main renamed): the
 * input is the file. What it accepts is then checked as bin/sim does
 * before a run: the scheme by name and its key=value parameters
 * (sched_type_find, sched_config_set, sched_new) for I = 1000 on 4 hosts,
 * and a scheme it makes hands out chunks >= 1 that sum to I (sched.h).
 * The platform and workload it names are the other harnesses'. */
#include "tests/fuzz/fuzz.h"

int sim_main(int argc, char **argv);
#define main sim_main
#include "sim/main.c"
#undef main

/* The scenario's platform and workload texts: arrays in the struct, or
 * malloc'd strings (sim/main.c's newer form): freed when they are. */
static void text_free(char **p)
{
    free(*p);
    *p = NULL;
}
static void text_keep(void *p)
{
    (void)p;
}
#define TEXT_FREE(x) _Generic(&(x), char **: text_free, default: text_keep)(&(x))

static void scenario_done(scenario *sc)
{
    TEXT_FREE(sc->platform);
    TEXT_FREE(sc->workload);
}

static void check(scenario *sc);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    scenario sc = {.scheme = "dtss", .sample = 1, .seed = 1, .message_bytes = 64,
                   .remeasure = 0.2};
    char msg[1024];
    if (read_scenario(&sc, fuzz_file(data, size), msg, sizeof msg) != 0)
        FUZZ_CHECK(msg[0] != '\0');
    else
        check(&sc);
    scenario_done(&sc);
    return 0;
}

/* What bin/sim checks before a run, and the scheme's chunks. */
static void check(scenario *sc)
{
    FUZZ_CHECK(sc->sample >= 1 && sc->nparams >= 0 && sc->nparams <= MAX_PARAM_OPTS);
    FUZZ_CHECK(sc->result_bytes >= 0 && sc->message_bytes >= 0 && sc->remeasure > 0);
    if (strcmp(sc->scheme, "tree") == 0)
        return;
    sched_err err;
    const sched_type *T = sched_type_find(sc->scheme, &err);
    if (!T)
        return;
    sched_config cfg;
    sched_config_init(&cfg, T, 1000, 4);
    for (int i = 0; i < sc->nparams; i++)
        if (sched_config_set(&cfg, sc->params[i][0], sc->params[i][1], &err) != 0)
            return;
    sched *s = sched_new(&cfg, &err);
    if (!s)
        return;
    long start, chunk, sum = 0, steps = 0;
    while ((chunk = sched_next(s, 1.0, &start)) > 0 && steps++ < 2000) {
        FUZZ_CHECK(start == sum);
        sum += chunk;
    }
    FUZZ_CHECK(chunk == 0 && sum == 1000);
    sched_free(s);
}
