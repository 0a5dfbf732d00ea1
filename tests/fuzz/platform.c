/* platform.c: fuzzes the simulator's platform file reader
 * (sim_platform_read, sim/platform.c): the input is the file. What it
 * accepts has hosts, each with a name, a speed > 0 and loads by increasing
 * time, and a link from the master's cluster (sim_link_between). Inputs
 * with count= over 100000 hosts are skipped: legal, but slow under ASan. */
#include "tests/fuzz/fuzz.h"
#include "sim/sim.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_string(data, size);
    int skip = fuzz_over(s, "count=", 100000);
    free(s);
    if (skip)
        return 0;
    sim_platform p;
    char msg[1024];
    if (sim_platform_read(&p, fuzz_file(data, size), msg, sizeof msg) != 0) {
        FUZZ_CHECK(msg[0] != '\0');
        return 0;
    }
    FUZZ_CHECK(p.nhosts >= 1);
    for (int i = 0; i < p.nhosts; i++) {
        const sim_host *h = &p.hosts[i];
        FUZZ_CHECK(h->speed > 0 && h->name[0]);
        for (int k = 1; k < h->nload; k++)
            FUZZ_CHECK(h->load[k].t > h->load[k - 1].t);
        const sim_link *l = sim_link_between(&p, p.master, h->cluster);
        FUZZ_CHECK(l && l->latency >= 0 && l->bandwidth >= 0);
    }
    sim_platform_free(&p);
    return 0;
}
