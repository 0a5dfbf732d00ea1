/* dag_impl.h: what the dag/ files share; not part of the public interface. */
#ifndef DAG_IMPL_H
#define DAG_IMPL_H

#include "dag.h"

/* Sets err (if not NULL) to code and a printf-style message, made one line;
 * returns code. */
int dag_fail(dag_err *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Mean cost of task i over the processors (Topcuoglu's wbar_i). */
double dag_wbar(const dag *g, int i);

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

#endif
