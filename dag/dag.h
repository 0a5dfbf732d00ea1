/* dag.h: static scheduling of task graphs onto heterogeneous processors.
 *
 * A parallel application is a DAG G = (V, E): a task i costs w(i, p) on
 * processor p; an edge (i, j) carries data costing c(i, j) time units to move
 * between two processors, and nothing when both ends run on the same one.
 * Three list schedulers share one interface (a dag_algo each, one file each):
 *
 *   heft   Heterogeneous Earliest Finish Time   (Topcuoglu, Hariri & Wu,
 *   cpop   Critical Path On a Processor          IEEE TPDS 13(3), 2002)
 *   dcpop  CPOP with duplication of the "very important parent" of every
 *          task off the critical path (Singh, Tripathi, Saurabh & Singh,
 *          "Duplication based List Scheduling in Heterogeneous Distributed
 *          Computing", Sec. 5)
 *
 * Typical use:
 *
 *     dag_err err;
 *     dag *g = dag_read_file("app.dag", DAG_FORMAT_AUTO, &err);  (or dag_generate)
 *     const dag_algo *A = dag_algo_find("heft", &err);
 *     dag_schedule *s = dag_schedule_new(A, g, &err);
 *     ... s->makespan, dag_slr(s), dag_speedup(s), s->copy[0 .. ncopies) ...
 *     dag_schedule_free(s);
 *     dag_free(g);
 *
 * A graph is built task by task and edge by edge (dag_new, dag_add_task,
 * dag_add_edge), then closed by dag_finish, which rejects cycles and
 * duplicate edges and adds a zero-cost pseudo entry (exit) task joined by
 * zero-cost edges when there are several entry (exit) tasks (Singh Sec. 2).
 *
 * Errors are codes (DAG_E*) with a message in a dag_err that names the bad
 * value. Library functions never print and never exit. The file format and
 * our readings of the papers are in docs/dag.md.
 */
#ifndef DAG_H
#define DAG_H

#include <stdio.h>

enum {
    DAG_OK = 0,
    DAG_EINVAL,     /* a bad value: negative cost, cycle, syntax, ... */
    DAG_ENOENT,     /* unknown algorithm, task or file */
    DAG_ENOMEM,     /* out of memory */
    DAG_EIO         /* a read or write failed */
};

typedef struct dag_err {
    int code;
    char msg[256];
} dag_err;

/* A task graph. The first n_user tasks are the ones given, in the order
 * given; pseudo entry / exit tasks (if any) follow. Read-only once finished.
 * succ[succ_at[i] .. succ_at[i+1]) are i's children by increasing index,
 * succ_c the communication costs of those edges; pred/pred_at/pred_c the
 * same for parents. */
typedef struct dag {
    int n, n_user;          /* tasks, all and as given */
    int q;                  /* processors */
    int m, m_user;          /* edges, all and as given */
    char **name;            /* n names; pseudo tasks are "(entry)", "(exit)" */
    double *w;              /* n * q costs: w[i * q + p] */
    int *succ_at, *succ, *pred_at, *pred;
    double *succ_c, *pred_c;
    int entry, exit;        /* the single entry and exit task */
    int *topo;              /* the tasks in a topological order */
    int *from, *to;         /* the edges as given (m_user of them) */
    double *c;
    int cap_n, cap_m, finished;
} dag;

#define DAG_W(g, i, p) ((g)->w[(size_t)(i) * (size_t)(g)->q + (size_t)(p)])

/* Returns a new, empty graph for q >= 1 processors, or NULL with err set.
 * The caller frees it with dag_free. */
dag *dag_new(int q, dag_err *err);
void dag_free(dag *g);

/* Adds a task named 'name' (copied) costing w[0 .. q) on the q processors;
 * returns its index, or -1 with err set (a cost negative or not finite). */
int dag_add_task(dag *g, const char *name, const double *w, dag_err *err);

/* Adds the edge from -> to costing c >= 0; DAG_EINVAL for an index out of
 * range, a self-loop or a negative cost. Duplicates are found by dag_finish. */
int dag_add_edge(dag *g, int from, int to, double c, dag_err *err);

/* The most the costs of a graph may add up to: the sum over the tasks of
 * their largest cost, plus every edge's. Every time of every schedule (a
 * task's start and finish, a rank, the makespan, SLR's denominator, the
 * sequential time) is a sum of costs, each task and edge counted at most
 * once per copy -- at most q copies, q <= 10^6 -- so it stays below 10^306,
 * finite. Beyond, sums overflowed to inf and every schedule failed its check
 * ("an invalid schedule (a bug)"). */
#define DAG_MAX_TOTAL 1e300

/* Closes the graph: checks it has tasks, no edge twice and no cycle (the
 * message spells one out: "cycle: a -> b -> a"), that the costs add up to
 * at most DAG_MAX_TOTAL (naming the task or edge at which they pass it),
 * adds the pseudo entry and exit tasks, and builds the adjacency lists and
 * a topological order. After an error the graph can only be freed. */
int dag_finish(dag *g, dag_err *err);

/* ---- reading and writing (io.c, dot.c) --------------------------------- */

enum { DAG_FORMAT_AUTO = 0, DAG_FORMAT_TEXT, DAG_FORMAT_DOT };

/* Reads a finished graph from f in the given format (AUTO: DOT when the
 * first line that is not blank or a '#' comment starts with "digraph",
 * "strict" or "graph", or with a DOT comment, // or slash-star; else the
 * text format); 'fname' names the source in messages ("app.dag:7: ...").
 * NULL with err set on any error: syntax, a missing or negative cost, an
 * unknown task, a cycle, a NUL byte (DAG_EINVAL), a read error (DAG_EIO). */
dag *dag_read(FILE *f, const char *fname, int format, dag_err *err);

/* Opens 'path' ("-" is stdin) and reads it with dag_read. */
dag *dag_read_file(const char *path, int format, dag_err *err);

/* Writes the tasks and edges as given (no pseudo tasks) in the text format or
 * DOT; costs with 15 significant digits. DAG_EIO on a write error. */
int dag_write(FILE *f, const dag *g, int format, dag_err *err);

/* x as the shortest text that reads back as x (strtod): 6 significant
 * digits when they do ("%g"), up to 17. Written into buf (32 bytes at
 * least), which is returned: a generator's parameters, printed so that the
 * command they make writes the very same graph. */
const char *dag_num(char *buf, double x);

/* ---- task graph generators (random.c, fft.c, gauss.c) ------------------
 * A generator is a type (its structure: one file each, listed in
 * dag_gen_types[], found by name); the costs are drawn alike for every type:
 *   w_i ~ U[0, 2 W_DAG),  w(i,p) ~ U[w_i (1 - beta/2), w_i (1 + beta/2)),
 *   c(i,j) ~ U[0, 2 CCR W_DAG)
 * from GSL's mt19937 seeded with 'seed' (Singh Sec. 4, Topcuoglu Sec. 5.1). */

typedef struct dag_gen_type dag_gen_type;

typedef struct dag_gen {
    const dag_gen_type *type;   /* the structure (dag_gen_init: &dag_gen_random) */
    int v;              /* random: tasks, >= 1 */
    double alpha;       /* random: height ~ sqrt(v)/alpha, width ~ alpha sqrt(v) */
    int out_degree;     /* random: children per task, >= 1 (capped by the tasks below) */
    int size;           /* fft: input points m, a power of 2 >= 2;
                           gauss: matrix size m >= 2 */
    double ccr;         /* mean communication / mean computation cost, >= 0 */
    double wdag;        /* mean computation cost W_DAG, > 0 */
    double beta;        /* heterogeneity: w(i,p) in w_i [1 - beta/2, 1 + beta/2] */
    int q;              /* processors, >= 1 */
    unsigned long seed; /* GSL mt19937 seed */
} dag_gen;

struct dag_costs;       /* the cost draws a generator is given (generate.c) */

struct dag_gen_type {
    const char *name;
    const char *summary;    /* one line for --help, with citation */
    /* DAG_EINVAL naming the bad structure parameter (v, alpha, out_degree or
     * size), at most DAG_GEN_MAX_TASKS tasks included. */
    int (*check)(const dag_gen *p, dag_err *err);
    /* The number of tasks p's structure gives (p checked). */
    long (*tasks)(const dag_gen *p);
    /* Adds the tasks and edges to the empty graph g, their costs from dc. */
    int (*build)(dag *g, const dag_gen *p, struct dag_costs *dc, dag_err *err);
};

#define DAG_GEN_MAX_TASKS 10000000
/* The largest graph a generator makes, checked before it is made (memory:
 * some 50 bytes an edge, 8 a cost; bin/dagsched reads it back): edges
 * (random: the v - 1 + v min(out_degree, v - 1) it may make) and costs
 * (tasks x processors). */
#define DAG_GEN_MAX_EDGES 100000000L
#define DAG_GEN_MAX_COSTS 100000000L

/* The list of all generator types, NULL-terminated. */
extern const dag_gen_type *const dag_gen_types[];
extern const dag_gen_type dag_gen_random, dag_gen_fft, dag_gen_gauss;

/* Finds a generator type by name (case-insensitive); on an unknown name NULL
 * and DAG_ENOENT with the valid names. */
const dag_gen_type *dag_gen_find(const char *name, dag_err *err);

/* Sets p to the defaults: the random type, v = 20, alpha = 1, out_degree = 3,
 * size = 8, ccr = 1, wdag = 50, beta = 0.5, q = 4, seed = 1. */
void dag_gen_init(dag_gen *p);

/* Checks the parameters (the type's and the costs'); DAG_EINVAL naming the
 * bad one. */
int dag_gen_check(const dag_gen *p, dag_err *err);

/* Generates a finished graph (the same for the same parameters), or NULL with
 * err set. Costs are kept to 6 significant digits so that the graph read back
 * from dag_write's output is the same graph. The costs on the processors are
 * drawn last, processor by processor: with q processors the graph is the
 * first q processors of the same parameters' graph on more. The caller frees
 * it with dag_free. */
dag *dag_generate(const dag_gen *p, dag_err *err);

/* ---- graph properties (graph.c) ----------------------------------------- */

/* Upward rank (Topcuoglu eq. 5): ru(i) = wbar(i) + max over children j of
 * (c(i,j) + ru(j)), ru(exit) = wbar(exit), with wbar the mean cost over the
 * processors. Fills ru[0 .. n). */
void dag_rank_up(const dag *g, double *ru);

/* Downward rank (eq. 6): rd(i) = max over parents k of (rd(k) + wbar(k) +
 * c(k,i)), rd(entry) = 0. Fills rd[0 .. n). */
void dag_rank_down(const dag *g, double *rd);

/* CPOP's critical path (Topcuoglu Fig. 5, Singh Sec. 5 steps 5-13): from
 * the entry task, repeatedly the child whose priority ru + rd equals |CP| =
 * ru(entry), to the exit task. Writes the path into path[] (room for n),
 * returns its length, and sets *pcp to the critical-path processor, the one
 * minimising the path's total cost (ties: the lowest index). */
int dag_critical_path(const dag *g, const double *ru, const double *rd,
                      int *path, int *pcp);

/* SLR's denominator: the sum of minimum costs min_p w(i,p) along CP_MIN, the
 * path with the largest such sum (communication left out: see docs/dag.md). */
double dag_cp_min(const dag *g);

/* Speedup's numerator: the sequential time min_p sum_i w(i,p). */
double dag_sequential(const dag *g);

/* ---- schedules (schedule.c, heft.c, cpop.c, dcpop.c) -------------------- */

/* One run of a task on a processor. A task has one own copy; DCPOP may add
 * duplicates (dup = 1) elsewhere. 'next' chains a task's copies (-1 ends). */
typedef struct dag_copy {
    int task, proc;
    double start, finish;
    int dup, next;
} dag_copy;

typedef struct dag_algo dag_algo;
struct dag_lane;

/* A schedule; read-only for its users. copy[0 .. ncopies) in the order they
 * were placed; first[i] is task i's own copy (the head of its chain). */
typedef struct dag_schedule {
    const dag *g;
    const dag_algo *algo;
    int ncopies, duplicates;
    dag_copy *copy;
    int *first;
    double makespan;        /* the latest finish of any copy */
    int cap;
    struct dag_lane *lanes;     /* q of them: each processor's copies by start */
} dag_schedule;

struct dag_algo {
    const char *name;
    const char *summary;    /* one line for --help, with citation */
    int (*run)(dag_schedule *s, dag_err *err);
};

/* The list of all algorithms, NULL-terminated. */
extern const dag_algo *const dag_algos[];
extern const dag_algo dag_heft, dag_cpop, dag_dcpop;

/* Finds an algorithm by name (case-insensitive); on an unknown name NULL and
 * DAG_ENOENT with the valid names. */
const dag_algo *dag_algo_find(const char *name, dag_err *err);

/* Schedules the finished graph g with A. The caller owns the result (it
 * points to g, which must outlive it) and frees it with dag_schedule_free. */
dag_schedule *dag_schedule_new(const dag_algo *A, const dag *g, dag_err *err);
void dag_schedule_free(dag_schedule *s);

/* Schedule Length Ratio, makespan / dag_cp_min (NaN when that is 0), and
 * speedup, dag_sequential / makespan (NaN for a zero makespan). */
double dag_slr(const dag_schedule *s);
double dag_speedup(const dag_schedule *s);

/* Checks that s is a valid schedule of its graph: every task placed once
 * with its own cost on its processor, duplicates only of placed tasks, no two
 * copies overlapping on a processor, no copy starting before every parent's
 * data can be there (a copy of the parent on the same processor finished, or
 * one elsewhere finished c(k,i) earlier), the makespan the latest finish.
 * Times are compared with a tolerance of 1e-9 times the makespan. DAG_EINVAL
 * with the first violation named. */
int dag_schedule_check(const dag_schedule *s, dag_err *err);

#endif
