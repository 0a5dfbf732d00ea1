/* select.c: --scheme auto, the scheme chosen by simulating the candidates
 * on what the master measured (select.h; the idea of SimAS, Mohammed &
 * Ciorba, CCPE 32(15) 2020: simulate the portfolio of schemes on the
 * current state of the platform and the application, go on with the best).
 *
 *   cost per iteration of chunk j     c_j = work_j / size_j x A_w
 *   the line over the loop            c(x) = a + b x, least squares over the
 *                                     chunks' midpoints x_j, weights size_j
 *                                     (the chunks still out)
 *   the profile over the loop         K bins of the original order; bin k's
 *                                     cost p_k = sum_j n_jk c_j / size_j over
 *                                     sum_j n_jk / size_j (n_jk: chunk j's
 *                                     iterations in bin k; a chunk's mean says
 *                                     less of each iteration the more it
 *                                     spans), linear between the bins seen,
 *                                     the nearest seen beyond them (the tail)
 *   the link                          round trip o_j = 2 latency + size_j / bw,
 *                                     least squares over the chunks done (the
 *                                     results' transfer: a byte an iteration
 *                                     at bw; bw infinite when o_j does not
 *                                     grow with size_j), each o_j less what
 *                                     the messages' costs (sim_auto_costs)
 *                                     took of it on its host: the wake
 *                                     (wake + wake_load (Q_w - 1)) / V_w and
 *                                     the results' sending send size_j / A_w
 *
 * The chunks' statistics are sums, kept as they come (O(1) a chunk, O(size)
 * for the profile; O(P + K) a decision besides the simulations and the
 * tail's costs, O(tail)).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "sched/util/conv.h"
#include "sim/select.h"

void sim_auto_probe(sched_config *cfg, long I, int P)
{
    sched_config_init(cfg, &sched_css, I, P);
    long k = I / ((long)SIM_AUTO_PROBE_SPLIT * P);
    cfg->param[0] = (double)(k > 1 ? k : 1);    /* css's k */
}

int sim_select(const sim_select_in *in, const sched_type *const *cand, int n,
               double *finish, char *msg, size_t len)
{
    if (in->n < 1 || in->iters < 1 || n < 1) {
        snprintf(msg, len, "auto: nothing to simulate (%d hosts, %ld iterations, %d "
                 "candidates)", in->n, in->iters, n);
        return -1;
    }
    sim_host *h = calloc((size_t)in->n, sizeof *h);
    if (!h) {
        snprintf(msg, len, "auto: out of memory for %d hosts", in->n);
        return -1;
    }
    sim_step *load = calloc((size_t)in->n, sizeof *load);
    if (!load) {
        free(h);
        snprintf(msg, len, "auto: out of memory for %d hosts", in->n);
        return -1;
    }
    static char name[] = "w", cluster[] = "c";
    char *clusters[1] = {cluster};
    for (int i = 0; i < in->n; i++) {
        load[i] = (sim_step){0, in->extra[i]};
        h[i] = (sim_host){.name = name, .cluster = cluster, .speed = in->speed[i],
                          .load = &load[i], .nload = in->extra[i] > 0, .fail = -1};
    }
    sim_link link = {"*", "*", in->latency, in->bandwidth > 0 ? in->bandwidth : 0};
    sim_platform pf = {.hosts = h, .nhosts = in->n, .master = "c", .links = &link,
                       .nlinks = 1, .clusters = clusters, .nclusters = 1,
                       .capclusters = 1};
    double nn = (double)in->iters;
    sim_workload wl = {.kind = SIM_LINEAR, .n = in->iters, .sample = 1, .a = in->a,
                       .b = in->b, .total = nn * in->a + in->b * nn * (nn - 1) / 2};
    if (in->prefix) {
        wl.kind = SIM_ARRAY;
        wl.prefix = (double *)in->prefix;       /* (only read) */
        wl.total = in->prefix[in->iters];
    }
    int best = -1;
    char why[256] = "";
    for (int i = 0; i < n; i++) {
        sim_config c;
        sim_config_init(&c);
        c.busy = in->busy;
        c.platform = &pf;
        c.workload = &wl;
        c.message_bytes = 0;
        c.result_bytes = in->bandwidth > 0 || in->send > 0 ? 1 : 0;
        c.send_cost = in->send;
        c.wake = in->wake;
        c.wake_load = in->wake_load;
        c.ahead = in->ahead;
        sched_config_init(&c.sched, cand[i], in->iters, in->n);
        record rec;
        finish[i] = INFINITY;
        if (record_init(&rec, in->n) != 0) {
            snprintf(why, sizeof why, "out of memory");
            continue;
        }
        if (record_stream(&rec, NULL, why, sizeof why) == 0 &&
            sim_run(&c, &rec, why, sizeof why) == 0)
            finish[i] = rec.finish;
        record_free(&rec);
        if (finish[i] < INFINITY && (best < 0 || finish[i] < finish[best]))
            best = i;
    }
    free(h);
    free(load);
    if (best < 0)
        snprintf(msg, len, "auto: no candidate could be simulated (the last: %s)", why);
    return best;
}

int sim_auto_candidates(const char *list, const sched_type **out, int max, char *msg,
                        size_t len)
{
    int n = 0;
    if (!list || !*list) {              /* every scheme but pss (select.h) */
        for (int i = 0; sched_types[i] && n < max; i++)
            if (sched_types[i] != &sched_pss)
                out[n++] = sched_types[i];
        return n;
    }
    const char *p = list;
    for (;;) {
        const char *end = strchr(p, ',');
        size_t k = end ? (size_t)(end - p) : strlen(p);
        char name[64];
        if (k == 0 || k >= sizeof name) {
            snprintf(msg, len, "auto: candidates '%s': %s", list,
                     k ? "a name too long" : "an empty name");
            return -1;
        }
        memcpy(name, p, k);
        name[k] = 0;
        sched_err err;
        const sched_type *T = NULL;
        if (strcasecmp(name, "tree") == 0 || strcasecmp(name, SIM_AUTO_NAME) == 0) {
            snprintf(msg, len, "auto: candidate '%s' cannot be one (the candidates are "
                     "self-scheduling schemes of the library)", name);
            return -1;
        }
        if (!(T = sched_type_find(name, &err))) {
            snprintf(msg, len, "auto: candidate '%s': %s", name, err.msg);
            return -1;
        }
        for (int i = 0; i < n; i++)
            if (out[i] == T) {
                snprintf(msg, len, "auto: candidate '%s' listed twice", name);
                return -1;
            }
        if (n == max) {
            snprintf(msg, len, "auto: more than %d candidates", max);
            return -1;
        }
        out[n++] = T;
        if (!end)
            return n;
        p = end + 1;
    }
}

struct sim_auto {
    int n;                          /* workers */
    long I;                         /* the loop's iterations */
    int R;                          /* its sampling (sched_sample) */
    const sched_type *cand[SIM_AUTO_CANDIDATES];
    int ncand, max, made;
    double ahead;
    double *A, *A_last;             /* latest A_i; at the last decision */
    double *V;                      /* V_i */
    long *done;                     /* chunks done per worker */
    double *out_n, *out_x, *out_t;  /* its chunks out: iterations, their sum of
                                       midpoints x size, since when (computing) */
    int changed;                    /* workers with A != A_last (once made) */
    int able, working;              /* workers with A > 0; with a chunk done */
    double s0, sx, sxx, sy, sxy;    /* sums over the chunks done (weights size) */
    double nrt, ss, sss, so, sso;   /* round trips: count, sums of size, size^2,
                                       overhead, size x overhead */
    double cpu, cpu_last, s0_last;
    double send, wake, wake_load;   /* sim_auto_costs */
    int K;                          /* the profile's bins over [0, I) */
    double *pw, *pwc;               /* per bin: sum of weights, of weight x cost */
    char field[128], log[512];
};

sim_auto *sim_auto_new(int nworkers, long I, int R, const char *list, int max, double ahead,
                       char *msg, size_t len)
{
    if (max < 1 || nworkers < 1 || I < 0 || R < 1) {
        snprintf(msg, len, "auto: at most %d decisions, %d workers, %ld iterations, "
                 "sampling R = %d: need >= 1 of each (I >= 0)", max, nworkers, I, R);
        return NULL;
    }
    sim_auto *a = calloc(1, sizeof *a);
    if (!a) {
        snprintf(msg, len, "auto: out of memory");
        return NULL;
    }
    a->ncand = sim_auto_candidates(list, a->cand, SIM_AUTO_CANDIDATES, msg, len);
    if (a->ncand < 0) {
        free(a);
        return NULL;
    }
    a->n = nworkers;
    a->I = I;
    a->R = R;
    a->max = max;
    a->ahead = ahead;
    a->A = calloc((size_t)nworkers, sizeof *a->A);
    a->A_last = calloc((size_t)nworkers, sizeof *a->A_last);
    a->done = calloc((size_t)nworkers, sizeof *a->done);
    a->V = malloc(sizeof *a->V * (size_t)nworkers);
    a->out_n = calloc((size_t)nworkers, sizeof *a->out_n);
    a->out_x = calloc((size_t)nworkers, sizeof *a->out_x);
    a->out_t = calloc((size_t)nworkers, sizeof *a->out_t);
    a->K = I < SIM_AUTO_BINS ? (I > 0 ? (int)I : 1) : SIM_AUTO_BINS;
    a->pw = calloc((size_t)a->K, sizeof *a->pw);
    a->pwc = calloc((size_t)a->K, sizeof *a->pwc);
    if (!a->A || !a->A_last || !a->done || !a->V || !a->out_n || !a->out_x || !a->out_t ||
        !a->pw || !a->pwc) {
        sim_auto_free(a);
        snprintf(msg, len, "auto: out of memory for %d workers", nworkers);
        return NULL;
    }
    for (int w = 0; w < nworkers; w++)
        a->V[w] = 1;
    snprintf(a->field, sizeof a->field, "%s@0", SIM_AUTO_PROBE);
    return a;
}

void sim_auto_free(sim_auto *a)
{
    if (!a)
        return;
    free(a->A);
    free(a->A_last);
    free(a->done);
    free(a->V);
    free(a->out_n);
    free(a->out_x);
    free(a->out_t);
    free(a->pw);
    free(a->pwc);
    free(a);
}

void sim_auto_speed(sim_auto *a, int w, double V)
{
    if (w >= 0 && w < a->n && V > 0 && isfinite(V))
        a->V[w] = V;
}

void sim_auto_costs(sim_auto *a, double send, double wake, double wake_load)
{
    if (send >= 0 && wake >= 0 && wake_load >= 0 && isfinite(send) && isfinite(wake) &&
        isfinite(wake_load)) {
        a->send = send;
        a->wake = wake;
        a->wake_load = wake_load;
    }
}

void sim_auto_report(sim_auto *a, int w, double A)
{
    if (w < 0 || w >= a->n || !(A >= 0) || !isfinite(A))
        return;
    if (a->made > 0)
        a->changed += (A != a->A_last[w]) - (a->A[w] != a->A_last[w]);
    a->able += (A > 0) - (a->A[w] > 0);
    a->A[w] = A;
}

/* Chunk [start, start + size)'s middle in the original order. */
static double middle(const sim_auto *a, long start, long size)
{
    if (a->R == 1)
        return (double)start + ((double)size - 1) / 2;
    long x = sched_sample(start + (size - 1) / 2, a->I, a->R);
    return x >= 0 ? (double)x : (double)start;
}

/* The profile's bin of the iteration at scheduled position pos (its
 * original one, sched_sample: the identity when R = 1), or -1 beyond the loop. */
static long profile_bin(const sim_auto *a, long pos)
{
    long i = sched_sample(pos, a->I, a->R);
    return i < 0 ? -1 : i * a->K / a->I;
}

void sim_auto_assign(sim_auto *a, int w, long start, long size, double t)
{
    if (w < 0 || w >= a->n || size < 1 || start < 0)
        return;
    double s = (double)size;
    if (!(a->out_n[w] > 0))
        a->out_t[w] = t;
    a->out_n[w] += s;
    a->out_x[w] += s * middle(a, start, size);
}

void sim_auto_chunk(sim_auto *a, int w, long start, long size, double work,
                    double overhead, double t)
{
    if (w < 0 || w >= a->n || size < 1 || start < 0)
        return;
    double s = (double)size, x = middle(a, start, size);
    a->out_n[w] -= s;                   /* (a copy done twice: never below 0) */
    a->out_x[w] -= s * x;
    if (a->out_n[w] < 0.5)
        a->out_n[w] = a->out_x[w] = 0;
    else
        a->out_t[w] = t;                /* the next one computes from now */
    if (!(work >= 0) || !isfinite(work))
        return;
    if (a->done[w]++ == 0)
        a->working++;
    double A = a->A[w] > 0 ? a->A[w] : 1;
    double c = work / s * A;
    a->s0 += s;
    a->sx += s * x;
    a->sxx += s * x * x;
    a->sy += s * c;
    a->sxy += s * x * c;
    for (long k = 0; k < size; k++) {  /* the profile */
        long bin = profile_bin(a, start + k);
        if (bin >= 0) {
            a->pw[bin] += 1 / s;
            a->pwc[bin] += c / s;
        }
    }
    if (overhead >= 0 && isfinite(overhead)) {
        double Q = a->A[w] > 0 ? a->V[w] / a->A[w] : 1;
        overhead -= (a->wake + a->wake_load * (Q > 1 ? Q - 1 : 0)) / a->V[w] + a->send * s / A;
        if (overhead < 0)
            overhead = 0;
        a->nrt++;
        a->ss += s;
        a->sss += s * s;
        a->so += overhead;
        a->sso += s * overhead;
    }
}

int sim_auto_profile(const sim_auto *a, double *p)
{
    int f = -1, l = -1;
    for (int k = 0; k < a->K; k++)
        if (a->pw[k] > 0) {
            p[k] = a->pwc[k] / a->pw[k];
            for (int j = l + 1; l >= 0 && j < k; j++)   /* between two seen */
                p[j] = p[l] + (p[k] - p[l]) * (j - l) / (k - l);
            if (f < 0)
                f = k;
            l = k;
        }
    for (int k = 0; f >= 0 && k < a->K; k++)
        if (k < f || k > l)
            p[k] = p[k < f ? f : l];
    return f < 0 ? 0 : a->K;
}

int sim_auto_due(const sim_auto *a, const policy *p)
{
    if (!policy_started(p) || a->made >= a->max || policy_tail(p) < 1 || !(a->s0 > 0))
        return 0;
    /* (counts kept as events come: O(1) a request, for 10^6 workers) */
    int live = policy_alive(p) < a->able ? policy_alive(p) : a->able;
    double I = (double)(policy_next(p) + policy_tail(p));
    if (a->made == 0)
        return live > 0 && a->working >= live && a->s0 >= I / SIM_AUTO_FIRST;
    if (a->s0 >= SIM_AUTO_GROW * a->s0_last)
        return 1;
    return 2 * a->changed > policy_alive(p);
}

int sim_auto_decide(sim_auto *a, policy *p, double t, char *msg, size_t len)
{
    clock_t c0 = clock();
    double *speed = malloc(sizeof *speed * (size_t)a->n);
    double *busy = malloc(sizeof *busy * (size_t)a->n);
    int *extra = malloc(sizeof *extra * (size_t)a->n);
    sched_rank *order = malloc(sizeof *order * (size_t)a->n);
    if (!speed || !extra || !busy || !order) {
        free(speed);
        free(extra);
        free(busy);
        free(order);
        snprintf(msg, len, "auto: out of memory for %d workers", a->n);
        return -1;
    }
    /* The line over the loop, then over the tail [next, I). */
    double den = a->s0 * a->sxx - a->sx * a->sx, mean = a->sy / a->s0;
    double b = den > 1e-12 * a->s0 * a->sxx ? (a->s0 * a->sxy - a->sx * a->sy) / den : 0;
    double a0 = (a->sy - b * a->sx) / a->s0;
    long next = policy_next(p), tail = policy_tail(p);
    double lo = a->R == 1 ? (double)next : 0, hi = (double)(a->I - 1);
    double first = a0 + b * lo, last = a0 + b * hi;
    if (!(first >= 0 && last >= 0 && isfinite(first) && isfinite(last)) ||
        (a->R > 1 && tail > SIM_AUTO_ARRAY)) {
        a0 = mean;                      /* (a tail too long to hold: the mean) */
        b = 0;
    }
    double *prefix = NULL, *prof = NULL;
    if (tail <= SIM_AUTO_ARRAY) {       /* the tail's costs in the scheduled order */
        prefix = malloc(sizeof *prefix * (size_t)(tail + 1));
        prof = malloc(sizeof *prof * (size_t)a->K);
        if (!prefix || !prof) {
            free(speed);
            free(extra);
            free(busy);
            free(order);
            free(prefix);
            free(prof);
            snprintf(msg, len, "auto: out of memory for %ld iterations' costs", tail);
            return -1;
        }
        int K = sim_auto_profile(a, prof);
        prefix[0] = 0;
        for (long k = 0; k < tail; k++) {
            long bin = profile_bin(a, next + k);
            prefix[k + 1] = prefix[k] + (K && bin >= 0 ? prof[bin] :
                                         a0 + b * (double)sched_sample(next + k, a->I, a->R));
        }
        free(prof);
    }
    double latency = 0, bandwidth = 0;   /* (0: infinite) */
    if (a->nrt > 0) {
        double d = a->nrt * a->sss - a->ss * a->ss;
        double beta = d > 1e-12 * a->nrt * a->sss ? (a->nrt * a->sso - a->ss * a->so) / d : 0;
        double alpha = (a->so - beta * a->ss) / a->nrt;
        if (!(beta > 0) || !(alpha >= 0) || !isfinite(beta)) {
            beta = 0;                   /* the mean round trip, no transfer */
            alpha = a->so / a->nrt;
        }
        latency = alpha > 0 ? alpha / 2 : 0;
        bandwidth = beta > 0 ? 1 / beta : 0;
    }
    /* The live workers with A_i > 0: busy with their chunks out until that
     * cost is done at A_i (the reply's latency included), the idle first
     * (at the fitted costs). */
    int n = 0;
    for (int w = 0; w < a->n; w++)
        if (policy_worker_alive(p, w) && a->A[w] > 0) {
            double rest = a->out_n[w] > 0 ? a->out_t[w] + latency +
                          (a0 * a->out_n[w] + b * a->out_x[w]) / a->A[w] - t : 0;
            order[n++] = (sched_rank){-(rest > 0 ? rest : 0), w};
        }
    sched_rank_sort(order, (size_t)n);  /* (by decreasing -rest: the least busy first) */
    for (int i = 0; i < n; i++) {
        int w = order[i].w;
        /* Q_i = V_i / A_i, >= 1 (clamped: A_i > 0, V_i finite) */
        extra[i] = (int)conv_clamp(round(a->V[w] / a->A[w]) - 1, 0, SIM_MAX_EXTRA);
    }
    /* The costs measured so far need not be the tail's (an image's first
     * rows are cheap): each candidate is simulated at the fitted costs
     * times each of the scales, and the one chosen is the one whose worst
     * ratio to the best of its scale is least (ties: the first listed). */
    double finish[SIM_AUTO_SCALES][SIM_AUTO_CANDIDATES], worst[SIM_AUTO_CANDIDATES];
    static const double scale[SIM_AUTO_SCALES] = SIM_AUTO_SCALE_LIST;
    int best = -1;
    for (int c = 0; c < a->ncand; c++)
        worst[c] = 0;
    for (int k = 0; k < SIM_AUTO_SCALES; k++) {
        for (int i = 0; i < n; i++) {
            int w = order[i].w;
            double rest = a->out_n[w] > 0 ? a->out_t[w] + latency + scale[k] *
                          (a0 * a->out_n[w] + b * a->out_x[w]) / a->A[w] - t : 0;
            busy[i] = rest > 0 ? rest : 0;
        }
        for (int i = 0; i < n; i++)     /* costs x scale: speeds / scale */
            speed[i] = a->V[order[i].w] / scale[k];
        /* (the messages' costs in the scaled units: the same seconds) */
        sim_select_in in = {.n = n, .speed = speed, .extra = extra, .busy = busy,
                            .iters = tail, .a = a0 + b * (double)next, .b = b,
                            .prefix = prefix, .latency = latency, .bandwidth = bandwidth,
                            .ahead = a->ahead, .send = a->send / scale[k],
                            .wake = a->wake / scale[k], .wake_load = a->wake_load / scale[k]};
        int bk = sim_select(&in, a->cand, a->ncand, finish[k], msg, len);
        if (bk < 0) {
            best = -1;
            break;
        }
        for (int c = 0; c < a->ncand; c++)
            if (finish[k][c] / finish[k][bk] > worst[c])
                worst[c] = finish[k][c] / finish[k][bk];
        best = 0;
    }
    for (int c = 1; best >= 0 && c < a->ncand; c++)
        if (worst[c] < worst[best])
            best = c;
    free(speed);
    free(extra);
    free(busy);
    free(order);
    free(prefix);
    a->cpu_last = (double)(clock() - c0) / CLOCKS_PER_SEC;
    a->cpu += a->cpu_last;
    if (best < 0) {                     /* (counted: a run tries at most max times) */
        a->made++;
        a->s0_last = a->s0;
        return -1;
    }
    sched_config cfg;
    sched_config_init(&cfg, a->cand[best], tail, 1);
    sched_err err;
    /* The first decision always switches: the probe's chunks are not its
     * scheme's (css's own k is I / P); a later one when the scheme changes. */
    if ((a->made == 0 || a->cand[best] != policy_scheme(p)) &&
        policy_switch(p, &cfg, &err) != SCHED_OK) {
        snprintf(msg, len, "auto: %s", err.msg);
        return -1;
    }
    a->made++;
    a->s0_last = a->s0;
    for (int w = 0; w < a->n; w++)
        a->A_last[w] = a->A[w];
    a->changed = 0;
    size_t k = strlen(a->field);
    snprintf(a->field + k, sizeof a->field - k, ";%s@%.6g", a->cand[best]->name, t);
    k = (size_t)snprintf(a->log, sizeof a->log, "auto at %.3f s: %s over %ld iterations "
                         "(decided in %.3g ms of CPU; simulated finish:", t,
                         a->cand[best]->name, tail, a->cpu_last * 1e3);
    for (int i = 0; i < a->ncand && k < sizeof a->log; i++)
        k += (size_t)snprintf(a->log + k, sizeof a->log - k, " %s=%.4g", a->cand[i]->name,
                              finish[0][i]);
    if (k < sizeof a->log)
        snprintf(a->log + k, sizeof a->log - k, ")");
    return best;
}

int sim_auto_decisions(const sim_auto *a) { return a->made; }
double sim_auto_cpu(const sim_auto *a) { return a->cpu; }
const char *sim_auto_field(const sim_auto *a) { return a->field; }
const char *sim_auto_log(const sim_auto *a) { return a->log; }
