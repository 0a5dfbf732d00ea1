/* heat.c: fuzzes what checks the heat application's plate (heat/heat.c
 * heat_plate_check: what heat_plate_init makes of bin/heat's and
 * bin/heat-pvm's --nx, --ny, --r, and what a heat-pvm worker takes from its
 * master's job bytes) and the strips' cuts and re-cuts (heat/strips.c
 * heat_strips_new, heat_strips_move over sched/strips/strips.c
 * strips_transfers: the counts a strategy hands the strips). The options'
 * numbers themselves are parse_int_in / parse_double (the parse harness),
 * their other options dtss_strips_args (model_options).
 *
 * The input: a heat_plate's bytes, as a job arrives (nx, ny, r, the four
 * edges); then a byte of steps (0..15) before a re-cut and one after, a
 * byte of strips P, and a byte per strip for the re-cut's targets.
 *
 * Checked: what the check accepts has its sides in 1..HEAT_MAX_SIDE, at
 * most HEAT_MAX_CELLS cells, r in (0, 1/4], edges at most HEAT_MAX_EDGE, and
 * heat_plate_init of its nx, ny and r gives the same verdict; a refusal
 * says why. A small accepted plate (at most 4096 cells) is run: the field
 * stays finite and within its edges' and start's values (the discrete
 * maximum principle, r <= 1/4: heat/heat.h); run by P strips, re-cut to the
 * targets between steps, it is bit for bit the sequential field (heat.h,
 * "Bit for bit"); a re-cut refused says why and moves nothing. */
#include "tests/fuzz/fuzz.h"      /* (first: it defines _GNU_SOURCE) */
#include <math.h>

#include "heat/heat.h"

#define SMALL 4096

static void says_why(const sched_err *err)
{
    FUZZ_CHECK(err->msg[0] != '\0');
    for (const unsigned char *p = (const unsigned char *)err->msg; *p; p++)
        FUZZ_CHECK(*p >= 0x20 && *p != 0x7f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    heat_plate p;
    sched_err err = {0};
    if (size < sizeof p)
        return 0;
    memcpy(&p, data, sizeof p);
    data += sizeof p;
    size -= sizeof p;
    int rc = heat_plate_check(&p, &err);
    heat_plate q;
    sched_err err2 = {0};
    int rc2 = heat_plate_init(&q, p.nx, p.ny, p.r, &err2);
    if (rc != SCHED_OK) {
        FUZZ_CHECK(rc == SCHED_EINVAL);
        says_why(&err);
        /* init refuses it too, unless only the edges were wrong */
        FUZZ_CHECK(rc2 != SCHED_OK || strstr(err.msg, "edge"));
        if (rc2 != SCHED_OK)
            says_why(&err2);
        return 0;
    }
    FUZZ_CHECK(rc2 == SCHED_OK);
    FUZZ_CHECK(p.nx >= 1 && p.nx <= HEAT_MAX_SIDE && p.ny >= 1 && p.ny <= HEAT_MAX_SIDE &&
               (long)p.nx * p.ny <= HEAT_MAX_CELLS && p.r > 0 && p.r <= 0.25 &&
               fabs(p.top) <= HEAT_MAX_EDGE && fabs(p.bottom) <= HEAT_MAX_EDGE &&
               fabs(p.left) <= HEAT_MAX_EDGE && fabs(p.right) <= HEAT_MAX_EDGE);
    size_t cells = (size_t)p.nx * (size_t)p.ny;
    if (cells > SMALL)
        return 0;

    int k1 = size > 0 ? data[0] % 16 : 1, k2 = size > 1 ? data[1] % 16 : 1;
    int P = size > 2 ? 1 + data[2] % (p.ny < 8 ? p.ny : 8) : 1;
    data += size > 3 ? 3 : size;
    size -= size > 3 ? 3 : size;

    /* sequentially: k1 + k2 steps */
    double *u = heat_field_new(&p, &err), *v = heat_field_new(&p, &err);
    FUZZ_CHECK(u && v);
    FUZZ_CHECK(heat_run(&p, u, k1 + k2, &err) == SCHED_OK);
    double lo = 0, hi = 0;              /* the start's value, and the edges' */
    const double edge[4] = {p.top, p.bottom, p.left, p.right};
    for (int i = 0; i < 4; i++) {
        lo = edge[i] < lo ? edge[i] : lo;
        hi = edge[i] > hi ? edge[i] : hi;
    }
    /* (rounding: a convex combination computed, a few ulps a step) */
    double slack = 1e-9 * (hi - lo > fabs(lo) + fabs(hi) ? hi - lo : fabs(lo) + fabs(hi));
    for (size_t i = 0; i < cells; i++)
        FUZZ_CHECK(isfinite(u[i]) && u[i] >= lo - slack && u[i] <= hi + slack);

    /* by P strips, re-cut between */
    int count[8], target[8], before[8], after[8];
    FUZZ_CHECK(strips_even(p.ny, P, count, &err) == SCHED_OK);
    heat_strips *s = heat_strips_new(&p, v, P, count, &err);
    FUZZ_CHECK(s != NULL);
    heat_strips_step(s, k1);
    for (int i = 0; i < P; i++)
        target[i] = i < (int)size ? data[i] % (p.ny + 2) : count[i];
    heat_strips_counts(s, before);
    heat_moved mv;
    rc = heat_strips_move(s, target, &mv, &err);
    heat_strips_counts(s, after);
    if (rc == SCHED_OK) {
        FUZZ_CHECK(memcmp(after, target, sizeof *target * (size_t)P) == 0);
        FUZZ_CHECK(mv.transfers >= 0 && mv.rounds >= 0 && mv.rows >= 0);
    } else {
        FUZZ_CHECK(rc == SCHED_EINVAL);
        says_why(&err);
        FUZZ_CHECK(memcmp(after, before, sizeof *before * (size_t)P) == 0);
    }
    heat_strips_step(s, k2);
    heat_strips_gather(s, v);
    FUZZ_CHECK(memcmp(u, v, cells * sizeof *u) == 0);
    heat_strips_free(s);
    free(u);
    free(v);
    return 0;
}
