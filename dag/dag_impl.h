/* dag_impl.h: what the dag/ files share; not part of the public interface. */
#ifndef DAG_IMPL_H
#define DAG_IMPL_H

#include <gsl/gsl_rng.h>

#include "dag.h"
#include "sched/util/lines.h"
#include "sched/util/quote.h"

/* Sets err (if not NULL) to code and a printf-style message, made one line;
 * returns code. */
int dag_fail(dag_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Mean cost of task i over the processors (Topcuoglu's wbar_i). */
double dag_wbar(const dag *g, int i);

/* ---- generating (generate.c) --------------------------------------------
 * What dag_generate hands a generator type's build: the random stream (for
 * the structure's own draws too) and the cost parameters. */
struct dag_costs {
    gsl_rng *r;
    int q;
    double wdag, beta;
    double cmax;            /* 2 CCR W_DAG: edge costs are U[0, cmax) */
    double *w;              /* room for q costs */
    double *mean;           /* the tasks' w_i so far, n of them (room: cap) */
    int n, cap;
};

/* Adds a task named 'name' (its index the next one) and draws its mean cost
 * w_i (dag.h); its costs on the processors are drawn by dag_generate once the
 * type's build is done. DAG_OK, or DAG_ENOMEM with err set. */
int dag_costs_task(struct dag_costs *dc, dag *g, const char *name, dag_err *err);

/* Adds the edge from -> to with a cost drawn from U[0, cmax) (6 significant
 * digits); DAG_OK or dag_add_edge's error. */
int dag_costs_edge(struct dag_costs *dc, dag *g, int from, int to, dag_err *err);

/* ---- placing copies (schedule.c) ----------------------------------------
 * Each processor keeps its copies sorted by start time; they never overlap,
 * so they are sorted by finish time too. */

/* When the data of the edge k -> i (cost c) can be on processor p: the
 * earliest over k's copies of finish + (c, or 0 on p itself). */
double dag_arrival(const dag_schedule *s, int k, double c, int p);

/* Data ready time of task i on p: the latest arrival over i's parents; 0 for
 * a task without parents. */
double dag_ready(const dag_schedule *s, int i, int p);

/* Insertion-based policy (Topcuoglu Sec. 4.1): the earliest start t >= ready
 * of an idle interval [t, t + dur) on p, between two copies or after the
 * last. */
double dag_slot(const dag_schedule *s, int p, double ready, double dur);

/* Non-zero when task k has a copy on p. */
int dag_has_copy(const dag_schedule *s, int k, int p);

/* Places a copy of task i on p at 'start' (the caller found the slot with
 * dag_slot); dup marks a duplicate. DAG_ENOMEM on failure. */
int dag_place(dag_schedule *s, int i, int p, double start, int dup,
              dag_err *err);

/* HEFT's processor selection: places i where its earliest finish time
 * EFT(i, p) = dag_slot(p, dag_ready(i, p), w(i,p)) + w(i,p) is least (ties:
 * the lowest processor). */
int dag_place_eft(dag_schedule *s, int i, dag_err *err);

/* How CPOP places a task off the critical path: dag_place_eft for CPOP, the
 * duplication step for DCPOP. */
typedef int (*dag_place_fn)(dag_schedule *s, int i, dag_err *err);

/* CPOP (cpop.c) with 'place' for the tasks off the critical path. */
int dag_cpop_run(dag_schedule *s, dag_place_fn place, dag_err *err);

/* ---- reading (io.c: the text format and what both readers share; dot.c)
 * A reader collects the tasks and edges as the file names them, with their
 * cost texts; io.c then builds the graph, so both formats check costs, and
 * say what is wrong, alike. Lines are numbered from 1; 0: no line. */

typedef struct dag_reader {
    const char *fname;
    dag_err *err;
    int q;                  /* processors, 0 until known */
    int q_line;             /* the line that gave them, 0 if none did */
    /* tasks in order of appearance; cost text NULL until given */
    char **name, **cost;
    int *line, *defined;
    int n, cap;
    int *hash;              /* open addressing, -1 empty */
    int hcap;
    /* edges; comm text NULL when none was given */
    int *ef, *et, *eline;
    char **comm;
    int m, mcap;
} dag_reader;

/* Sets r's error to DAG_EINVAL and "FILE:LINE: message" (no LINE when line
 * is 0); returns DAG_EINVAL. */
int dag_reader_fail(dag_reader *r, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* DAG_ENOMEM with "FILE: out of memory". */
int dag_reader_nomem(dag_reader *r);
/* DAG_OK, or the line reader's error (a read error: DAG_EIO; a NUL byte:
 * DAG_EINVAL) with its message. */
int dag_reader_lines(dag_reader *r, const lines *in);

/* The index of task 'name', created (undefined, at 'line') if new; -1 when
 * out of memory. */
int dag_reader_task(dag_reader *r, const char *name, int line);
/* Records the edge from -> to with communication text comm (copied; may be
 * NULL); -1 when out of memory. */
int dag_reader_edge(dag_reader *r, int from, int to, const char *comm, int line);
/* Sets the number of processors from the text v (an integer >= 1). */
int dag_reader_processors(dag_reader *r, const char *v, int line);

/* dot.c: non-zero when 'line', the first that is neither blank nor a '#'
 * comment from the first column on, starts a DOT file: "digraph", "strict",
 * "graph", or a C or C++ comment (which the text format does not have). */
int dag_dot_begins(const char *line);
/* Reads a DOT graph into r: 'first', the line just read from 'in' (NULL:
 * none read yet; the lines before it were blank or '#' comments from the
 * first column on), and the rest of 'in'. */
int dag_dot_read(dag_reader *r, lines *in, const char *first);

#endif
