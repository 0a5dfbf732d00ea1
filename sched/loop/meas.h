/* meas.h: a worker's measured iteration times, the numbers the adaptive
 * schemes and dtss-m are fed (sched_request.mu, .sigma, .n, .rate).
 *
 * One implementation for the PVM worker (runtime/loop/worker.c: each piece it
 * hands the application is timed) and the simulator (sim/self.c: each
 * iteration's simulated time), so both send the same statistics over the
 * worker's latest chunk (the implementations of AWF and AF measure a chunk
 * at a time too):
 *   mu, sigma  the mean and standard deviation of one iteration's time;
 *   rate       the cost units delivered per second, when the application
 *              tells what its iterations cost (dtss_worker_cost; the
 *              simulator knows its workload's costs), else iterations per
 *              second: a host's speed under its load, without the loop's
 *              unevenness when the costs are known.
 *
 * A piece of g iterations that took t seconds counts as g samples of t / g
 * (its iterations cannot be told apart), so sigma is West's weighted,
 * incremental variance: Welford's update with weights (D. H. D. West, Comm.
 * ACM 22(9), 1979). GSL's gsl_rstat takes unweighted samples only and
 * gsl_stats_wvariance needs every sample kept, hence these few lines. sigma
 * is the population standard deviation (divide by n), NAN below two
 * iterations.
 */
#ifndef SCHED_MEAS_H
#define SCHED_MEAS_H

#include "sched/sched.h"

typedef struct sched_meas {
    long n;             /* iterations so far */
    double mean, m2;    /* of one iteration's time; sum of squared deviations */
    double cost, time;  /* cost units (iterations where unknown), seconds */
} sched_meas;

/* Forgets every sample. */
void sched_meas_clear(sched_meas *m);
/* A piece of 'iterations' (>= 1) iterations took 'seconds' (>= 0; a
 * negative time, from a clock stepped back, counts as 0) and cost 'cost'
 * units (NAN or < 0: unknown, counted as one unit an iteration). */
void sched_meas_add(sched_meas *m, double seconds, long iterations, double cost);
/* Whether rq's measurement can be taken: n = 0 (nothing measured: mu,
 * sigma and rate are not looked at), or n > 0 with mu and rate finite and
 * >= 0 and sigma that too or NAN (below two iterations). 1 or 0. The policy
 * and the wire check every request with it. */
int sched_meas_ok(const sched_request *rq);
/* Fills rq's mu, sigma, n and rate: NAN, NAN, 0, 0 with no sample; sigma
 * NAN with one iteration; rate 0 when no time passed. */
void sched_meas_get(const sched_meas *m, sched_request *rq);

#endif
