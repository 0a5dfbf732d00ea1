/* handle.h: what every handle of libdtss begins with -- the four masters
 * (dtss_master, dtss_pool, dtss_lb, dtss_strips) and their four workers: the
 * error text, the log, the application's job, and the handle's kind, the
 * table the base verbs of dtss.h (dtss_set, dtss_args, dtss_job, dtss_log,
 * dtss_errmsg, dtss_write_record, dtss_summary, dtss_free) dispatch on.
 * Written once here, so that a model keeps only what is its own. Not
 * installed. */
#ifndef HANDLE_H
#define HANDLE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>

#include "runtime/transport/transport.h"

#define RT_MAGIC 0x44545353u    /* "DTSS": a handle of this library */

typedef struct rt_kind {
    const char *name;           /* "dtss_master": the family, for messages */
    /* options: -1 not one of them, 0 a flag, 1 takes a value (dtss_args) */
    int (*opt)(const char *name);
    int (*set)(void *h, const char *name, const char *value);
    int (*job)(void *h, const void *job, size_t len);       /* a master's */
    int (*write_record)(void *h, const char *path);
    void (*summary)(const void *h, FILE *f);
    void (*free)(void *h);      /* a master's free, a worker's close */
    /* A worker's: the master's call that spawns it (for the message that
     * refuses a program started by hand), and tr_hint's hints (0: none). */
    const char *starter;
    unsigned hints;
} rt_kind;

typedef struct rt_handle {
    unsigned magic;
    const rt_kind *kind;
    char err[512];
    int live;                   /* started (a master) or open (a worker) */
    int failed;                 /* an error while live */
    FILE *log;                  /* NULL: silent */
    char prefix[64];
    int verbose;
    void *job;                  /* the application's job: a master's copy, */
    size_t job_len;             /* or what a worker received */
    int joined;                 /* in the run (a master: tr_join; a worker:
                                   tr_join_worker): rt_leave leaves it */
    tr_peer parent;             /* a worker: its master */
} rt_handle;

/* A master family's base, written once: its kind (from its functions
 * T_set, T_write_record, T_summary, T_free and its option table's opt) and
 * its T_errmsg, T_log, T_args and T_job (before the start: h.live set when
 * it starts), for a type T whose first member is 'rt_handle h' (and
 * WIRE_MAX_JOB in sight, core/wire.h): RT_MASTER_BASE(pool_kind, dtss_pool,
 * pool_opt). */
#define RT_MASTER_BASE(var, T, opt)                                               \
    static int var##_set(void *h, const char *n, const char *v)                   \
    { return T##_set(h, n, v); }                                                  \
    int T##_job(T *x, const void *j, size_t n) { return rt_set_job(&x->h, j, n, WIRE_MAX_JOB); } \
    static int var##_job(void *h, const void *j, size_t n) { return T##_job(h, j, n); } \
    static int var##_record(void *h, const char *path)                            \
    { return T##_write_record(h, path); }                                         \
    static void var##_summary(const void *h, FILE *f) { T##_summary(h, f); }      \
    static void var##_free(void *h) { T##_free(h); }                              \
    static const rt_kind var = {#T, opt, var##_set, var##_job, var##_record,      \
                                var##_summary, var##_free, NULL, 0};              \
    const char *T##_errmsg(const T *x) { return rt_errmsg(x ? &x->h : NULL); }    \
    void T##_log(T *x, FILE *f, const char *prefix, int verbose)                  \
    { rt_set_log(&x->h, f, prefix, verbose); }                                    \
    int T##_args(T *x, int *argc, char **argv) { return rt_args(&x->h, argc, argv); }
/* T_summary for a family with T_stats_get, written once: nothing before
 * the run ended (T_stats_get refuses), else line(x, &stats, f) and the
 * line's end: RT_SUMMARY(dtss_lb, summary_line). */
#define RT_SUMMARY(T, line)                                                       \
    void T##_summary(const T *x, FILE *f)                                         \
    {                                                                             \
        T##_stats s;                                                              \
        if (T##_stats_get(x, &s) == DTSS_OK) {                                    \
            line(x, &s, f);                                                       \
            fputc('\n', f);                                                       \
        }                                                                         \
    }
/* A worker family's: its kind (T_close its free; starter and hints as in
 * rt_kind), T_errmsg and T_job. */
#define RT_WORKER_BASE(var, T, starter, hints)                                    \
    static void var##_close(void *h) { T##_close(h); }                            \
    static const rt_kind var = {#T, NULL, NULL, NULL, NULL, NULL, var##_close,    \
                                starter, hints};                                  \
    const char *T##_errmsg(const T *x) { return rt_errmsg(x ? &x->h : NULL); }    \
    const void *T##_job(const T *x, size_t *len) { return dtss_get_job(x, len); }

/* A new master's handle: size bytes, zeroed, its base (first) initialised;
 * NULL when out of memory. */
void *rt_new(size_t size, const rt_kind *kind);
/* Leaves the run if the handle joined it (a worker's close; a master's free,
 * after ending its workers). */
void rt_leave(rt_handle *h);

/* A new handle's base: kind, the log on stderr as "dtss: ...", no job. */
void rt_init(rt_handle *h, const rt_kind *kind);
/* Sets the error text; while live, the handle has failed. Returns code. */
int rt_fail(rt_handle *h, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
int rt_vfail(rt_handle *h, int code, const char *fmt, va_list ap)
    __attribute__((format(printf, 3, 0)));
/* A line on the log: always (progress 0: faults) or when verbose. */
void rt_log(const rt_handle *h, int progress, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void rt_set_log(rt_handle *h, FILE *f, const char *prefix, int verbose);
/* Keeps a copy of the job (at most max bytes), before the start: DTSS_OK,
 * DTSS_EMISUSE (live), DTSS_EINVAL, DTSS_ENOMEM with the error text set. */
int rt_set_job(rt_handle *h, const void *job, size_t len, size_t max);
/* *dst = a copy of value (the old one freed): DTSS_OK or DTSS_ENOMEM. */
int rt_set_text(rt_handle *h, char **dst, const char *value);
/* The error text ("out of memory" for a NULL handle: its creation failed). */
const char *rt_errmsg(const rt_handle *h);
/* The handle's options out of argv (args.h), through kind->opt and set. */
int rt_args(rt_handle *h, int *argc, char **argv);
/* Leaves the run if still in it (rt_leave) and frees what the base holds
 * (the job): the last of a handle's close or free. */
void rt_release(rt_handle *h);
/* Writes the file at path whole or not at all (sched/util/outfile.h), its
 * text printed by print(ctx, f): DTSS_OK, or DTSS_EINVAL with h's text
 * naming the path (outfile_msg: "writing PATH: REASON", "cannot write PATH:
 * REASON"). */
int rt_write_file(rt_handle *h, const char *path, void (*print)(const void *ctx, FILE *f),
                  const void *ctx);
/* A journal's file (core/jnl.h) created at path for --journal: DTSS_OK, or
 * DTSS_EINVAL, "--journal PATH: cannot create it: REASON" (a missing folder:
 * bad input). */
struct jnl_w;
int rt_jnl_create(rt_handle *h, struct jnl_w *w, const char *path);
/* A run record: rt_write_file once the run is over (over != 0), else
 * DTSS_EMISUSE, "the run record is written after the run". */
int rt_write_record(rt_handle *h, int over, const char *path,
                    void (*print)(const void *ctx, FILE *f), const void *ctx);

#endif
