/* journal.c: the migration master's journal of results, for resuming a
 * broken run (dtss.h, dtss_lb_*, options journal and resume; docs/runtime.md,
 * "Migration", "Resuming"). Built on runtime/core/jnl.h, whose "u" (an
 * unsigned 64-bit little-endian integer) and "sum" (u FNV-1a 64 of the
 * header's, or the entry's, bytes from its first on) it uses:
 *
 *   header   "DTSS-LBJ", u version (1), u N (the tasks), u the tasks' sum
 *            (FNV-1a 64 over every task in order: u its length, its bytes),
 *            u job length, the job's bytes, sum
 *   entry T  'T', u task (0 .. N-1), u length, the result's bytes, sum
 *
 * An entry is written when the master accepts a task's result -- the first
 * copy only: a second (a late or dealt-again copy) is refused before -- and
 * before the application sees it. What identifies the run is its job and its
 * tasks: the strategy, period, C_t, late rule and hosts move tasks, never
 * change a result (a task's result is its worker's function of its payload
 * and the job), so a resumed run may change them.
 *
 * An entry cut short by a crash mid-write, or whose sum is wrong, ends the
 * journal there (what follows is ignored, and cut before a resumed run
 * appends). A whole entry whose sum is right but which is not the run's --
 * a task number past N, a task another entry holds -- is no crash's doing:
 * the journal is refused, naming the entry and its byte. A header that
 * differs from the run's is refused naming the field (tasks, their sum,
 * the job).
 *
 * No PVM here: lb/master.c calls it. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/dtss.h"
#include "runtime/core/wire.h"
#include "runtime/lb/journal.h"
#include "sched/util/fnv.h"

#define MAGIC "DTSS-LBJ"
#define VERSION 1

uint64_t lbj_task_sum(uint64_t sum, const void *data, size_t len)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)((uint64_t)len >> (8 * i));
    return fnv1a(fnv1a(sum, b, 8), data, len);
}

/* ---- writing ---------------------------------------------------------------- */

const char *lbj_create(jnl_w *w, const char *path, const lbj_run *run)
{
    return jnl_create(w, path) != 0 ? strerror(errno) : lbj_put_head(w, run);
}

const char *lbj_put_head(jnl_w *w, const lbj_run *run)
{
    jnl_buf o = {0};
    jnl_put_head(&o, MAGIC, VERSION);
    jnl_put_u(&o, (uint64_t)run->ntasks);
    jnl_put_u(&o, run->tasks_sum);
    jnl_put_bytes(&o, run->job, run->job_len);
    jnl_put_sum(&o, 0);
    const char *why = jnl_emit(w, &o, 1);
    if (why) {
        fclose(w->f);
        w->f = NULL;
    }
    return why;
}

const char *lbj_put_result(jnl_w *w, long task, const void *data, size_t len)
{
    jnl_buf o = {0};
    jnl_put(&o, "T", 1);
    jnl_put_u(&o, (uint64_t)task);
    jnl_put_bytes(&o, data, len);
    jnl_put_sum(&o, 0);
    return jnl_emit(w, &o, 0);
}

/* ---- reading ---------------------------------------------------------------- */

void lbj_loaded_free(lbj_loaded *l)
{
    for (long i = 0; i < l->n; i++)
        free(l->data[i]);
    free(l->task);
    free(l->data);
    free(l->len);
    memset(l, 0, sizeof *l);
}

/* The header after the magic and version: DTSS_OK, or DTSS_EINVAL with why
 * (damaged, or naming the field that is not the run's). */
static int read_head(jnl_rd *r, const lbj_run *run, char *why, size_t len)
{
    uint64_t n, sum, jl;
    unsigned char *job = NULL;
    if (jnl_get_u(r, &n) != 0 || jnl_get_u(r, &sum) != 0 ||
        jnl_get_len(r, WIRE_MAX_JOB, &jl) != 0 || !(job = malloc(jl ? jl : 1)) ||
        jnl_get(r, job, jl) != 0 || jnl_get_sum(r) != 0) {
        free(job);
        snprintf(why, len, "its header is damaged");
        return DTSS_EINVAL;
    }
    int rc = DTSS_EINVAL;
    if (n != (uint64_t)run->ntasks)
        snprintf(why, len, "the journal's run has %" PRIu64 " tasks, this one %ld", n,
                 run->ntasks);
    else if (sum != run->tasks_sum)
        snprintf(why, len, "the journal's run has other tasks (their FNV-1a %016" PRIx64
                 ", this one's %016" PRIx64 ")", sum, run->tasks_sum);
    else if (jl != run->job_len || (jl && memcmp(job, run->job, jl) != 0))
        snprintf(why, len, "the journal's run has another job (%" PRIu64 " bytes; this one "
                 "%zu)", jl, run->job_len);
    else
        rc = DTSS_OK;
    free(job);
    return rc;
}

/* The next entry: 1 with *task, *data (malloc'd), *n; 0: the end, or a torn
 * or damaged entry (cut short, not a kind, over the limits, its sum wrong),
 * where the journal ends. */
static int read_entry(jnl_rd *r, uint64_t *task, unsigned char **data, size_t *n)
{
    unsigned char k;
    uint64_t len;
    jnl_begin(r);
    if (jnl_get(r, &k, 1) != 0 || k != 'T' || jnl_get_u(r, task) != 0 ||
        jnl_get_len(r, WIRE_MAX_RESULT, &len) != 0)
        return 0;
    unsigned char *d = malloc(len ? len : 1);
    if (!d || jnl_get(r, d, len) != 0 || jnl_get_sum(r) != 0) {
        free(d);
        return 0;
    }
    *data = d;
    *n = (size_t)len;
    return 1;
}

static int grow(lbj_loaded *l, long *cap)
{
    long c = *cap ? 2 * *cap : 64;
    long *t = realloc(l->task, sizeof *t * (size_t)c);
    if (t)
        l->task = t;
    unsigned char **d = t ? realloc(l->data, sizeof *d * (size_t)c) : NULL;
    if (d)
        l->data = d;
    size_t *n = d ? realloc(l->len, sizeof *n * (size_t)c) : NULL;
    if (n)
        l->len = n;
    if (!n)
        return -1;
    *cap = c;
    return 0;
}

int lbj_load(const char *path, const lbj_run *run, lbj_loaded *out, char *why, size_t len)
{
    jnl_rd r;
    memset(out, 0, sizeof *out);
    if (jnl_open(&r, path, MAGIC, VERSION, why, len) != 0)
        return errno == ENOENT ? DTSS_ENOENT : DTSS_EINVAL;
    int rc = read_head(&r, run, why, len);
    long *entry_of = NULL, cap = 0, entry = 0;  /* the entry holding each task, 1.. */
    if (rc == DTSS_OK && !(entry_of = calloc(run->ntasks > 0 ? (size_t)run->ntasks : 1,
                                             sizeof *entry_of))) {
        snprintf(why, len, "out of memory for %ld tasks", run->ntasks);
        rc = DTSS_ENOMEM;
    }
    out->good_end = jnl_tell(&r);
    uint64_t task;
    unsigned char *data;
    size_t n;
    while (rc == DTSS_OK && read_entry(&r, &task, &data, &n) == 1) {
        entry++;
        if (task >= (uint64_t)run->ntasks) {
            snprintf(why, len, "entry %ld (at byte %ld): a result of task %" PRIu64 ", not "
                     "one of the run's %ld: a damaged journal, or another run's", entry,
                     out->good_end, task, run->ntasks);
            rc = DTSS_EINVAL;
        } else if (entry_of[task]) {
            snprintf(why, len, "entry %ld (at byte %ld): a result of task %" PRIu64 ", which "
                     "entry %ld holds too: a damaged journal, or another run's", entry,
                     out->good_end, task, entry_of[task]);
            rc = DTSS_EINVAL;
        } else if (out->n == cap && grow(out, &cap) != 0) {
            snprintf(why, len, "out of memory reading the journal");
            rc = DTSS_ENOMEM;
        }
        if (rc != DTSS_OK) {
            free(data);
            break;
        }
        entry_of[task] = entry;
        out->task[out->n] = (long)task;
        out->data[out->n] = data;
        out->len[out->n++] = n;
        out->good_end = jnl_tell(&r);
    }
    free(entry_of);
    if (rc == DTSS_OK) {
        out->torn = jnl_torn(&r, out->good_end);
    }
    fclose(r.f);
    if (rc != DTSS_OK)
        lbj_loaded_free(out);
    return rc;
}
