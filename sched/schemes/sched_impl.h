/* sched_impl.h: what the scheme files share; not part of the public interface. */
#ifndef SCHED_IMPL_H
#define SCHED_IMPL_H

#include <math.h>
#include "sched/sched.h"

/* Parameter i of cfg, or dflt when the user left it unset. */
static inline double sched_param_or(const sched_config *cfg, int i, double dflt)
{
    return isnan(cfg->param[i]) ? dflt : cfg->param[i];
}

static inline int sched_param_isset(const sched_config *cfg, int i)
{
    return !isnan(cfg->param[i]);
}

/* The TSS plan (Tzen & Ni; Xu & Chronopoulos eq. 1-3), shared by TSS and
 * DTSS: for I iterations over 'units' processing elements,
 * F = I / (2 units) (or given), L = 1 (or given), N = 2I / (F + L),
 * D = (F - L) / (N - 1). */
typedef struct sched_trapezoid {
    double F, L, N, D;
} sched_trapezoid;

int sched_trapezoid_plan(sched_trapezoid *t, long I, double units,
                         double F_given, double L_given, const char *who,
                         sched_err *err);

#endif
