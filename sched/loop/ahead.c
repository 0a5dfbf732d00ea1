/* ahead.c: request-ahead (ahead.h):
 *   fraction F:  ask once done >= ceil((1 - F) x size)
 *   rtt:         ask once 2 done >= size and
 *                elapsed / done x (size - done) <= K x wait                 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "sched/loop/ahead.h"
#include "sched/util/conv.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

int sched_ahead_parse(const char *text, double *F, sched_err *err)
{
    double v;
    if (text && strcmp(text, "rtt") == 0) {
        *F = SCHED_AHEAD_RTT;
        return SCHED_OK;
    }
    if (!text || parse_double(text, &v) != 0 || !(v >= 0 && v < 1))
        return sched_fail(err, SCHED_EINVAL, "--ahead '%s': rtt, or a fraction of a chunk "
                          "in [0, 1) (0: off)", quote(text ? text : "(null)"));
    *F = v;
    return SCHED_OK;
}

int sched_ahead_ok(double F)
{
    return F == SCHED_AHEAD_RTT || (F >= 0 && F < 1);
}

const char *sched_ahead_text(double F, char *buf, size_t len)
{
    if (F == SCHED_AHEAD_RTT)
        snprintf(buf, len, "rtt");
    else
        snprintf(buf, len, "%g", F);
    return buf;
}

long sched_ahead_mark(long size, double F)
{
    if (!(F > 0 && F < 1) || size < 1)
        return size;
    /* in [0, size] by construction: 0 < 1 - F < 1 */
    return conv_clamp(ceil((1 - F) * (double)size - 1e-9), 1, size);
}

int sched_ahead_due(double F, long done, long size, double elapsed, double wait)
{
    if (done < 1 || done >= size)
        return 0;
    if (F == SCHED_AHEAD_RTT)
        return wait >= 0 && elapsed >= 0 && 2 * done >= size &&
               elapsed / (double)done * (double)(size - done) <= SCHED_AHEAD_K * wait;
    return F > 0 && done >= sched_ahead_mark(size, F);
}

double sched_ahead_wait(double est, double observed, int blocked)
{
    if (!(observed >= 0))
        return est;
    return blocked || isnan(est) || observed < est ? observed : est;
}
