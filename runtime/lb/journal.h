/* journal.h: the migration master's journal of results (journal.c; its
 * format there): what lb/master.c writes as results are accepted, and what
 * --resume reads back. No PVM; not installed. */
#ifndef LB_JOURNAL_H
#define LB_JOURNAL_H

#include <stddef.h>
#include <stdint.h>

#include "runtime/core/jnl.h"

/* What identifies a run: its job, its tasks (how many, and the FNV-1a 64 of
 * them all: lbj_task_sum over each in order, from FNV1A_BASIS). */
typedef struct lbj_run {
    const void *job;
    size_t job_len;
    long ntasks;
    uint64_t tasks_sum;
} lbj_run;

/* sum, then task's length (8 bytes, little-endian) and bytes. */
uint64_t lbj_task_sum(uint64_t sum, const void *data, size_t len);

/* ---- writing ---------------------------------------------------------------- */

/* The header of run, written to the new journal w (jnl_create'd) and
 * fsync'd: NULL, or why not (then w->f is NULL). */
const char *lbj_put_head(jnl_w *w, const lbj_run *run);
/* jnl_create at path (replacing any), then lbj_put_head: NULL, or why not. */
const char *lbj_create(jnl_w *w, const char *path, const lbj_run *run);
/* Appends task's result (one entry; jnl_emit): NULL, or why it failed. */
const char *lbj_put_result(jnl_w *w, long task, const void *data, size_t len);

/* ---- reading ---------------------------------------------------------------- */

/* A journal read back: its results (n of them, in the file's order: task
 * numbers distinct, each below the run's ntasks; data malloc'd), where its
 * last whole entry ends (good_end: a resumed run cuts the file there) and
 * the bytes after it (torn: a crash mid-write, or a damaged entry). */
typedef struct lbj_loaded {
    long n;
    long *task;
    unsigned char **data;
    size_t *len;
    long good_end, torn;
} lbj_loaded;

/* Reads the journal at path, checks it is run's (header: job, tasks; each
 * whole entry: its task in the run, no task twice): DTSS_OK with *out
 * filled (lbj_loaded_free it); or DTSS_ENOENT (no file), DTSS_EINVAL (not
 * a journal, a damaged header, another run's: why names the field, or the
 * entry and its byte), DTSS_ENOMEM, with why[len] set and *out empty. */
int lbj_load(const char *path, const lbj_run *run, lbj_loaded *out, char *why, size_t len);
void lbj_loaded_free(lbj_loaded *l);

#endif
