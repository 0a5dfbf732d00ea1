/* adjust.c: the self-adjusting strategy, Heymann et al. Figure 3.1.
 *
 *   1. first iteration: Nworkers = Ntasks
 *   at the end of every iteration, while the run goes on:
 *   2. ItEfficiency, ItExecutionTime, ItMinTaskExecTime, ItMaxTaskExecTime,
 *      CurrentNworkers of the iteration that ended
 *   3. if CurrentNworkers < Nworkers         (the workers needed not all got)
 *          Nworkers = AdjustBySpeedup()      (criterion 1)
 *      else if ItExecutionTime > ItMaxTaskExecTime
 *                 + MAX(ItMinTaskExecTime, 15% ItMaxTaskExecTime)
 *          Nworkers = Nworkers + 1           (criterion 2)
 *      else if ItEfficiency < 0.8
 *          Nworkers = Nworkers - 1           (criterion 2)
 *
 * AdjustBySpeedup: asp, the achievable speedup, is (sum of the iteration's
 * task times) / (its largest task time) -- "the upper limit of the ideal
 * number of machines is asp" (Sec. 3.1) -- and Nworkers is set from it.
 *
 * The refinement of Sec. 3.1 ("not shown in figure 3.1"): criterion 2 only
 * after an iteration run entirely with a stable number of workers (pool.h:
 * no worker joined or left between its begin and its end). Criterion 1 is
 * "always used when the application has not allocated all the machines
 * requested", stable or not; an unstable iteration with every requested
 * worker held leaves Nworkers as it is (rule "unstable").
 *
 * The garbled formula. The paper's text reads "the number of workers
 * (Nworkers) is set to !asp + 1": one glyph before asp is lost. Two
 * readings: floor(asp) + 1, the smallest whole number of workers above
 * asp, which keeps the "+ 1" the text does show and takes the '!' for a
 * lost floor bracket; or ceil(asp), the smallest whole number not below
 * asp, which takes the "+ 1" for a mangled ceiling. They differ only when
 * asp is a whole number (asp = 3: 4 against 3). The default is floor(asp)
 * + 1: it assumes one lost glyph rather than two, and the "+ 1" is legible
 * in every copy of the text. ceil(asp) is the parameter asp=ceil. With
 * whole asp = Ntasks (every task equally long) floor + 1 would ask for a
 * worker more than there are tasks; the bound Nworkers <= tasks left
 * (pool.h) takes it back. asp within 1e-9 (relative) of a whole number
 * counts as that number: a sum of decimal times is not exact in binary
 * ((0.1 + 0.1 + 0.1) / 0.1 = 3.0000000000000004).
 *
 * Ties. The comparisons are strict, as in Figure 3.1, to within 1e-9
 * (relative): an ItExecutionTime measured as a difference of two clock
 * readings carries their rounding, and a tie -- one worker running two
 * tasks, when the smaller is at least 15% of the larger: time = max + min
 * exactly -- must not turn into "add" by the last bit of a time 10^3 s
 * from the start. Likewise an efficiency within 1e-9 of 0.8 is not below.
 *
 * A consequence of the literal rule, kept: a worker requested by criterion
 * 2 that has not arrived by the end of the next iteration puts the run back
 * under criterion 1, which may ask for fewer (and cancel the request).
 *
 * Heymann, Senar, Luque, Livny, Euro-Par 2001, Sec. 3.1 and Figure 3.1.
 * Known values (tests/test_pool.c): task times 2, 2, 2, 1 give asp 3.5 and
 * 4 workers under both readings; 2, 2, 1, 1 give asp 3: 4 (floor1) or 3
 * (ceil).
 */
#include <math.h>

#include "sched/pool/pool.h"
#include "sched/util/conv.h"

#define TIE 1e-9            /* relative: see "Ties" above */

/* asp's whole part, rounding values within 1e-9 (relative) of a whole
 * number to it; *whole says whether asp counts as whole. */
static double whole_part(double asp, int *whole)
{
    double r = round(asp);
    *whole = fabs(asp - r) <= TIE * (r > 1 ? r : 1);
    return *whole ? r : floor(asp);
}

/* asp = sum / max of an iteration's task times is in [1, ntask] (pool.c),
 * ntask <= POOL_MAX_TASKS: its whole part converts exactly. */
static int adjust_by_speedup(double asp, pool_asp reading)
{
    int whole;
    long f = conv_clamp(whole_part(asp, &whole), 0, POOL_MAX_TASKS);
    if (reading == POOL_ASP_CEIL)
        return (int)(whole ? f : f + 1);
    return (int)f + 1;
}

static int end(const pool_params *par, pool_decision *d)
{
    if (d->current < d->before) {
        d->rule = POOL_SPEEDUP;
        return adjust_by_speedup(d->asp, par->asp);
    }
    if (!d->stable) {
        d->rule = POOL_UNSTABLE;
        return d->before;
    }
    double limit = d->max + fmax(d->min, par->threshold * d->max);
    if (d->exec_time > limit * (1 + TIE)) {
        d->rule = POOL_ADD;
        return d->before + 1;
    }
    if (d->efficiency < par->efficiency * (1 - TIE)) {
        d->rule = POOL_RELEASE;
        return d->before - 1;
    }
    d->rule = POOL_KEEP;
    return d->before;
}

const pool_type pool_adjust = {
    .name = "adjust",
    .summary = "self-adjusting: Figure 3.1 of Heymann et al. (Euro-Par 2001)",
    .end = end,
    .converged = NULL,
};
