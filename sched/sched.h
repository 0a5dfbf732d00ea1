/* sched.h: loop self-scheduling schemes behind one interface (no PVM here);
 * the errors every part of sched/ reports in, and the orders they share.
 *
 * A scheme answers one question: "how big is the next chunk?". Each scheme is
 * a sched_type (one file each in schemes/: pss.c, css.c, gss.c, tss.c, fss.c,
 * qss.c, ess.c, rss.c, dtss.c, wf.c, af.c; awf.c holds the four AWF variants
 * and dtss.c also dtss-m, DTSS sized by measured rates, ours; the driver is
 * schemes/sched.c), looked up by name with sched_type_find().
 *
 * Typical use:
 *
 *     sched_config cfg;
 *     sched_err err;
 *     const sched_type *T = sched_type_find("tss", &err);
 *     sched_config_init(&cfg, T, I, P);
 *     sched_config_set(&cfg, "F", "70", &err);      (optional parameters)
 *     sched *s = sched_new(&cfg, &err);
 *     long start, size;
 *     while ((size = sched_next(s, 1.0, &start)) > 0)
 *         ... hand out iterations [start, start + size) ...
 *     sched_free(s);
 *
 * The adaptive schemes (wf, awf-b, awf-c, awf-d, awf-e, af) size a chunk by
 * who asks and how fast it has been: the caller says so with sched_next_w
 * (the worker, its A_i, its measured time per iteration) and reports every
 * finished chunk with sched_done. Both work with every scheme: the others
 * use the request's acp alone, as sched_next, and ignore sched_done. Through
 * sched_next an adaptive scheme sees an unmeasured, anonymous worker and
 * falls back to its rule for the first batch (its file says which).
 *
 * Rounding convention, the same for every scheme unless its file says
 * otherwise: the scheme computes its chunk C(t) as a real number; the chunk is
 * ceil(C(t)), at least the minimum chunk (1 by default), at most what remains.
 * The chunks therefore always sum to I exactly.
 *
 * Errors are codes (SCHED_E*) with a message in a sched_err that names the
 * bad value. Library functions never print and never exit.
 */
#ifndef SCHED_H
#define SCHED_H

#include <stddef.h>

enum {
    SCHED_OK = 0,
    SCHED_EINVAL,   /* a parameter or argument is out of range */
    SCHED_ENOENT,   /* unknown scheme or parameter name */
    SCHED_ENOMEM,   /* out of memory */
    SCHED_ENOTSUP   /* the scheme does not support this operation */
};

typedef struct sched_err {
    int code;
    char msg[256];
} sched_err;

/* The one way a sched_err is set, here and by the modules that report in
 * one (heat/, the simulator): sets err (if not NULL) to code and the
 * printf-style message, cut to fit msg; returns code. */
int sched_fail(sched_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

#define SCHED_MAX_PARAMS 4

/* One tunable parameter of a scheme. Unset parameters are NAN in the
 * config; the scheme's init then applies the default described in help. */
typedef struct sched_param {
    const char *name;   /* as on the command line: --NAME VALUE */
    const char *help;   /* one line, including the default */
} sched_param;

typedef struct sched_config sched_config;

/* A request for a chunk from one worker (sched_next_w). The times are those of
 * one iteration, in seconds, measured by the caller over the worker's recent
 * chunks; n = 0 (mu, sigma NAN) while it has none. */
typedef struct sched_request {
    int worker;     /* 0 .. P-1, or SCHED_ANY_WORKER (as sched_next's) */
    double acp;     /* its available computing power A_i, > 0; 1 if unknown */
    double mu;      /* mean time of an iteration, >= 0 or NAN */
    double sigma;   /* standard deviation of that time, >= 0 or NAN (n < 2) */
    long n;         /* how many iterations mu and sigma cover, >= 0 */
    double rate;    /* cost units (or iterations) a second over them; 0 if
                       unknown (sched/loop/meas.h) */
} sched_request;

#define SCHED_ANY_WORKER (-1)

/* A scheme. 'init' validates the config and fills the state (size bytes);
 * 'next' returns the real-valued chunk C(t) for a request from a worker whose
 * available computing power is 'acp' (1 for schemes that ignore it), given
 * 'remaining' unassigned iterations; the driver rounds it. 'replan' (may be
 * NULL) restarts the plan with I = remaining and a new total power.
 *
 * The adaptive schemes add (NULL and 0 in the others): 'next_w', used instead
 * of 'next' for every request when set ('next' may then be NULL), the same
 * real-valued C(t) for the request rq, whose fields the driver has checked;
 * 'done', told of each finished chunk: 'size' iterations of 'worker' took
 * 'work' seconds of computing and 'elapsed' seconds from assignment to
 * result (NAN: unknown); and 'worker_size' bytes of state per worker, P of
 * them right after the 'size' bytes (a flexible array member at the end of
 * the scheme's state struct). The driver zeroes all the state before init. */
typedef struct sched_type {
    const char *name;
    const char *summary;            /* one line for --help, with citation */
    const sched_param *params;      /* terminated by {NULL, NULL} */
    size_t size;                    /* bytes of state */
    int (*init)(void *state, const sched_config *cfg, sched_err *err);
    double (*next)(void *state, long remaining, double acp);
    int (*replan)(void *state, long remaining, double acp_total, sched_err *err);
    int monotone;                   /* chunks never increase (before capping) */
    double (*next_w)(void *state, long remaining, const sched_request *rq);
    void (*done)(void *state, int worker, long size, double work, double elapsed);
    size_t worker_size;             /* bytes of state per worker */
    int by_speed;                   /* weighs the workers by their speed V_i:
                                       the policy passes V_i as acp */
} sched_type;

struct sched_config {
    const sched_type *type;
    long I;                         /* total iterations, >= 0 */
    int P;                          /* number of workers, >= 1 */
    double A;                       /* total available computing power for
                                       DTSS and the weighted schemes (sum of
                                       A_i); 0 means P */
    long min_chunk;                 /* >= 1, default 1 */
    double param[SCHED_MAX_PARAMS]; /* by index in type->params; NAN = unset */
};

typedef struct sched sched;

/* The list of all schemes, NULL-terminated. */
extern const sched_type *const sched_types[];

extern const sched_type sched_pss, sched_css, sched_gss, sched_tss, sched_fss,
    sched_qss, sched_ess, sched_rss, sched_dtss, sched_wf, sched_awf_b,
    sched_awf_c, sched_awf_d, sched_awf_e, sched_af, sched_dtss_m;

/* Whether scheme T takes measurements (next_w or done: the adaptive ones
 * and dtss-m), so that its caller must time each iteration and report each
 * chunk (sched/loop/meas.h, sched_done). */
int sched_type_fed(const sched_type *T);

/* Finds a scheme by name (case-insensitive). On an unknown name returns NULL
 * and sets err to SCHED_ENOENT with the list of valid names. */
const sched_type *sched_type_find(const char *name, sched_err *err);

/* Sets cfg to defaults for scheme T with I iterations and P workers. */
void sched_config_init(sched_config *cfg, const sched_type *T, long I, int P);

/* Sets parameter 'name' of cfg's scheme from the text 'value'. Returns
 * SCHED_ENOENT for a name the scheme does not take (the message lists the
 * ones it does), SCHED_EINVAL for a value that is not a number. Ranges are
 * checked later, by sched_new. */
int sched_config_set(sched_config *cfg, const char *name, const char *value,
                     sched_err *err);

/* Validates cfg and returns a new scheduler, or NULL with err set. The
 * caller owns the result and frees it with sched_free. */
sched *sched_new(const sched_config *cfg, sched_err *err);
void sched_free(sched *s);

/* Returns the size of the next chunk for a request from a worker with
 * available computing power 'acp' (ignored by all schemes but DTSS, WF and,
 * before their measurements, AWF and AF) and sets
 * *start to its first iteration. Returns 0 when nothing remains, and -1 for an
 * invalid acp (DTSS: acp must be > 0), with the message in sched_error(s). */
long sched_next(sched *s, double acp, long *start);

/* Like sched_next, for the request rq (sched_request above): the adaptive
 * schemes size the chunk for rq->worker from its measurements; the others
 * use rq->acp alone. sched_next(s, acp, start) is sched_next_w with
 * {SCHED_ANY_WORKER, acp, NAN, NAN, 0}. Returns the size (0 when nothing
 * remains), or -1 for an invalid request (acp <= 0, worker outside
 * [0, P) and not SCHED_ANY_WORKER, mu or sigma < 0 or infinite, n < 0),
 * with the message in sched_error(s). rq is only read during the call. */
long sched_next_w(sched *s, const sched_request *rq, long *start);

/* Tells the scheme that worker (0 .. P-1) finished a chunk of 'size' (>= 1)
 * iterations in 'work' seconds of computing (>= 0), 'elapsed' seconds from
 * its assignment to its result at the master (communication and scheduling
 * included; >= 0, or NAN when unknown). The AWF schemes weigh the workers by
 * these times; the others ignore them. Returns SCHED_OK, or SCHED_EINVAL for
 * an invalid argument, with the message in sched_error(s). */
int sched_done(sched *s, int worker, long size, double work, double elapsed);

/* DTSS re-planning (Xu & Chronopoulos Sec. 5.3, coordinator step 2): recompute
 * F, N, D from the remaining iterations and the new total power acp_total,
 * and restart the count of served virtual PEs. SCHED_ENOTSUP for schemes
 * without a re-plan rule. */
int sched_replan(sched *s, double acp_total, sched_err *err);

long sched_remaining(const sched *s);
long sched_steps(const sched *s);        /* chunks handed out so far */
const sched_type *sched_get_type(const sched *s);
const char *sched_error(const sched *s); /* last error of sched_next(_w), sched_done */

/* Available computing power of a workstation, A_i = V_i / Q_i (Xu &
 * Chronopoulos Sec. 5.1). V is its virtual computing power (relative speed,
 * 1 for the slowest), Q the number of processes in its run-queue, shared by
 * 'cpus' CPUs (the paper's workstations had one): Q / cpus is used, and
 * values below 1 count as 1 (the asking worker is itself in the queue; Q
 * tasks on C CPUs leave each min(1, C / Q) of a CPU).
 *
 * The paper says integer division. Taken literally, a loaded unit-speed
 * workstation (V = 1, Q >= 2) has A = 0 and never works, yet the paper's own
 * Table 1 shows loaded workstations working. So by default A is real-valued
 * (integer == 0); integer != 0 gives the literal floor(V / Q). */
double sched_acp(double V, double Q, int cpus, int integer);

/* ---- Orders (schemes/order.c) --------------------------------------------- */

/* Pseudo-uniform sampling of a loop of n iterations with frequency R >= 1
 * (Xu & Chronopoulos Sec. 4.2): the loop is visited as iterations 0, R, 2R,
 * ..., then 1, R+1, ..., then R-1, 2R-1, ...; sched_sample(k, n, R) is the
 * original index of the k-th iteration of the sampled loop, sched_unsample
 * its inverse. Both return -1 for an index outside [0, n), n < 0 or R < 1.
 * R = 1 is the original order. Every chunk is a range [k, k + size) of the
 * sampled loop. */
long sched_sample(long k, long n, long R);
long sched_unsample(long i, long n, long R);

/* How many sampled iterations from k on (before 'end') are consecutive in
 * the original order: the largest m >= 1 with sched_sample(k + j) =
 * sched_sample(k) + j for j < m (1 for R > 1 but at a class's end; the whole
 * range for R = 1). 0 for an invalid k. */
long sched_sample_run(long k, long end, long n, long R);

/* A worker and its power, for sorting. */
typedef struct sched_rank {
    double power;
    int w;
} sched_rank;

/* Sorts by decreasing power, ties by increasing worker index (a total order,
 * so the result is deterministic): the ACPSA's order (Sec. 5.3), the order of
 * the request queue, and Tree-Scheduling's chain. */
void sched_rank_sort(sched_rank *r, size_t n);

/* Virtual computing powers (Sec. 5.1): V_i = speed_i / the slowest speed, so
 * the slowest has V = 1. Returns 0, or -1 for n < 1 or a speed <= 0. */
int sched_speeds(const double *speed, int n, double *V);

#endif
