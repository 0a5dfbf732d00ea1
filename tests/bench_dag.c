/* bench_dag.c: HEFT on a 10,000-task graph with 64 processors: time and
 * memory; CPOP and DCPOP beside it; how the time grows with the tasks. */
#include <math.h>
#include <stdio.h>
#include <sys/resource.h>
#include <time.h>

#include <gsl/gsl_sort_double.h>
#include <gsl/gsl_statistics_double.h>

#include "dag/dag.h"

#define REPS 3

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* Peak resident memory of this process so far, in MiB. */
static double peak_mib(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024.0;
}

static dag *graph(int v, int q)
{
    dag_gen p;
    dag_gen_init(&p);
    p.v = v; p.q = q; p.alpha = 1; p.out_degree = 5; p.ccr = 1; p.beta = 0.5;
    p.seed = 2024;
    dag_err err;
    dag *g = dag_generate(&p, &err);
    if (!g)
        fprintf(stderr, "bench_dag: %s\n", err.msg);
    return g;
}

/* Median seconds of REPS schedules of g by A; sets *makespan. */
static double time_algo(const dag_algo *A, const dag *g, double *makespan, int *dups)
{
    double t[REPS];
    for (int r = 0; r < REPS; r++) {
        dag_err err;
        double t0 = now();
        dag_schedule *s = dag_schedule_new(A, g, &err);
        t[r] = now() - t0;
        if (!s) {
            fprintf(stderr, "bench_dag: %s: %s\n", A->name, err.msg);
            return NAN;
        }
        if (r == 0 && dag_schedule_check(s, &err) != DAG_OK) {
            fprintf(stderr, "bench_dag: %s: invalid schedule: %s\n", A->name, err.msg);
            dag_schedule_free(s);
            return NAN;
        }
        *makespan = s->makespan;
        *dups = s->duplicates;
        dag_schedule_free(s);
    }
    gsl_sort(t, 1, REPS);
    return gsl_stats_median_from_sorted_data(t, 1, REPS);
}

int main(void)
{
    const int V = 10000, Q = 64;
    double m0 = peak_mib(), t0 = now();
    dag *g = graph(V, Q);
    if (!g)
        return 1;
    double tgen = now() - t0, m1 = peak_mib();
    printf("graph: %d tasks, %d edges, %d processors (alpha 1, out-degree 5, "
           "CCR 1, beta 0.5): generated in %.2f s, peak memory +%.1f MiB\n",
           g->n_user, g->m_user, Q, tgen, m1 - m0);
    double mk;
    int dups;
    double th = time_algo(&dag_heft, g, &mk, &dups);
    double m2 = peak_mib();
    printf("heft:  %.3f s (median of %d), makespan %.6g, peak memory +%.1f MiB "
           "for the schedule (%.1f MiB in all)\n", th, REPS, mk, m2 - m1, m2);
    double tc = time_algo(&dag_cpop, g, &mk, &dups);
    printf("cpop:  %.3f s, makespan %.6g\n", tc, mk);
    double td = time_algo(&dag_dcpop, g, &mk, &dups);
    printf("dcpop: %.3f s, makespan %.6g, %d duplicates\n", td, mk, dups);
    printf("ratios to heft: cpop %.2f, dcpop %.2f\n", tc / th, td / th);
    dag_free(g);

    /* Growth: HEFT's time on 2500, 5000, 10000 tasks (64 processors); the
     * exponent of the fit time ~ v^k between the ends. */
    printf("heft time by tasks (64 processors):");
    double tv[3];
    int vs[3] = {2500, 5000, 10000};
    for (int k = 0; k < 3; k++) {
        dag *h = graph(vs[k], Q);
        if (!h)
            return 1;
        tv[k] = time_algo(&dag_heft, h, &mk, &dups);
        printf(" %d: %.3f s%s", vs[k], tv[k], k < 2 ? "," : "\n");
        dag_free(h);
    }
    printf("growth exponent log(t10000/t2500)/log(4) = %.2f (the insertion "
           "search makes it up to 2)\n", log(tv[2] / tv[0]) / log(4));
    return 0;
}
