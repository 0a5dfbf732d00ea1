/* handle.c: the base of every handle (handle.h) and the base verbs of dtss.h
 * that dispatch on a handle's kind. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/dtss.h"
#include "runtime/core/args.h"
#include "runtime/core/handle.h"
#include "runtime/core/jnl.h"
#include "sched/util/outfile.h"
#include "sched/util/quote.h"

void rt_init(rt_handle *h, const rt_kind *kind)
{
    memset(h, 0, sizeof *h);
    h->magic = RT_MAGIC;
    h->kind = kind;
    h->log = stderr;
    snprintf(h->prefix, sizeof h->prefix, "dtss");
}

void *rt_new(size_t size, const rt_kind *kind)
{
    rt_handle *h = calloc(1, size);
    if (h)
        rt_init(h, kind);
    return h;
}

void rt_leave(rt_handle *h)
{
    if (h->joined)
        tr_leave();
    h->joined = 0;
}

int rt_vfail(rt_handle *h, int code, const char *fmt, va_list ap)
{
    char text[sizeof h->err];           /* the old text may be an argument */
    vsnprintf(text, sizeof text, fmt, ap);
    memcpy(h->err, text, sizeof text);
    if (h->live)
        h->failed = 1;
    return code;
}

int rt_fail(rt_handle *h, int code, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rt_vfail(h, code, fmt, ap);
    va_end(ap);
    return code;
}

void rt_log(const rt_handle *h, int progress, const char *fmt, ...)
{
    if (!h->log || (progress && !h->verbose))
        return;
    va_list ap;
    va_start(ap, fmt);
    fprintf(h->log, "%s: ", h->prefix);
    vfprintf(h->log, fmt, ap);
    fputc('\n', h->log);
    fflush(h->log);
    va_end(ap);
}

void rt_set_log(rt_handle *h, FILE *f, const char *prefix, int verbose)
{
    h->log = f;
    snprintf(h->prefix, sizeof h->prefix, "%s", prefix ? prefix : "dtss");
    h->verbose = verbose;
}

int rt_set_job(rt_handle *h, const void *job, size_t len, size_t max)
{
    if (h->live)
        return rt_fail(h, DTSS_EMISUSE, "%s_job: after the start (the workers have it)",
                       h->kind->name);
    if (len > max)
        return rt_fail(h, DTSS_EINVAL, "a job of %zu bytes: at most %zu", len, max);
    void *copy = malloc(len ? len : 1);
    if (!copy)
        return rt_fail(h, DTSS_ENOMEM, "out of memory for a job of %zu bytes", len);
    if (len)
        memcpy(copy, job, len);
    free(h->job);
    h->job = copy;
    h->job_len = len;
    return DTSS_OK;
}

int rt_set_text(rt_handle *h, char **dst, const char *value)
{
    char *copy = strdup(value);
    if (!copy)
        return rt_fail(h, DTSS_ENOMEM, "out of memory");
    free(*dst);
    *dst = copy;
    return DTSS_OK;
}

const char *rt_errmsg(const rt_handle *h)
{
    return h ? h->err : "out of memory";
}

static int arg_kind(void *h, const char *name)
{
    return ((const rt_handle *)h)->kind->opt(name);
}

static int arg_set(void *h, const char *name, const char *value)
{
    return ((rt_handle *)h)->kind->set(h, name, value);
}

static int arg_fail(void *h, const char *msg)
{
    return rt_fail(h, DTSS_EINVAL, "%s", msg);
}

int rt_args(rt_handle *h, int *argc, char **argv)
{
    static const args_ops ops = {arg_kind, arg_set, arg_fail};
    return args_take(argc, argv, &ops, h);
}

void rt_release(rt_handle *h)
{
    rt_leave(h);
    free(h->job);
    h->job = NULL;
    h->job_len = 0;
}

int rt_write_file(rt_handle *h, const char *path, void (*print)(const void *ctx, FILE *f),
                  const void *ctx)
{
    outfile o;
    const char *call;
    char msg[300];
    if (outfile_open(&o, path, "w") != 0)
        return rt_fail(h, DTSS_EINVAL, "%s", outfile_msg(msg, sizeof msg, path, NULL, errno));
    print(ctx, o.f);                    /* a write error: outfile_close says */
    if (outfile_close(&o, &call) != 0)
        return rt_fail(h, DTSS_EINVAL, "%s", outfile_msg(msg, sizeof msg, path, call, errno));
    return DTSS_OK;
}

int rt_jnl_create(rt_handle *h, jnl_w *w, const char *path)
{
    if (jnl_create(w, path) != 0)
        return rt_fail(h, DTSS_EINVAL, "--journal %s: cannot create it: %s", quote(path),
                       strerror(errno));
    return DTSS_OK;
}

int rt_write_record(rt_handle *h, int over, const char *path,
                    void (*print)(const void *ctx, FILE *f), const void *ctx)
{
    if (!over)
        return rt_fail(h, DTSS_EMISUSE, "the run record is written after the run");
    return rt_write_file(h, path, print, ctx);
}

/* ---- the base verbs (dtss.h) ------------------------------------------------- */

/* The handle behind a public pointer, or NULL when it is none of ours. */
static rt_handle *base(const void *p)
{
    rt_handle *h = (rt_handle *)p;
    return h && h->magic == RT_MAGIC ? h : NULL;
}

const char *dtss_errmsg(const void *handle)
{
    const rt_handle *h = base(handle);
    return h ? h->err : handle ? "not a libdtss handle" : "out of memory";
}

int dtss_set(void *handle, const char *name, const char *value)
{
    rt_handle *h = base(handle);
    if (!h || !h->kind->set)
        return DTSS_EMISUSE;
    return h->kind->set(h, name, value);
}

int dtss_args(void *handle, int *argc, char **argv)
{
    rt_handle *h = base(handle);
    if (!h || !h->kind->opt)
        return DTSS_EMISUSE;
    return rt_args(h, argc, argv);
}

int dtss_job(void *handle, const void *job, size_t len)
{
    rt_handle *h = base(handle);
    if (!h || !h->kind->job)
        return h ? rt_fail(h, DTSS_EMISUSE, "dtss_job: a %s takes no job (a master "
                           "does)", h->kind->name) : DTSS_EMISUSE;
    return h->kind->job(h, job, len);
}

const void *dtss_get_job(const void *handle, size_t *len)
{
    const rt_handle *h = base(handle);
    if (len)
        *len = h ? h->job_len : 0;
    return h ? h->job : NULL;
}

void dtss_log(void *handle, FILE *f, const char *prefix, int verbose)
{
    rt_handle *h = base(handle);
    if (h)
        rt_set_log(h, f, prefix, verbose);
}

int dtss_write_record(void *handle, const char *path)
{
    rt_handle *h = base(handle);
    if (!h || !h->kind->write_record)
        return h ? rt_fail(h, DTSS_EMISUSE, "dtss_write_record: a %s has no run record",
                           h->kind->name) : DTSS_EMISUSE;
    return h->kind->write_record(h, path);
}

void dtss_summary(const void *handle, FILE *f)
{
    const rt_handle *h = base(handle);
    if (h && h->kind->summary)
        h->kind->summary(h, f);
}

void dtss_free(void *handle)
{
    rt_handle *h = base(handle);
    if (h)
        h->kind->free(h);
}
