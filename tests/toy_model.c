/* toy_model.c: bin/toy_model, a fifth master-worker model written by
 * docs/runtime.md's checklist "Adding a model" -- to check that the
 * checklist is true to the code. The model "sumsq": the master deals the
 * integers [0, N) in equal ranges to its workers, each worker returns the
 * sum of the squares of its range, the master adds them up. It is built on
 * runtime/core/ and runtime/transport/transport.h only, as a model of the
 * library is (a test's model has its own message tags, from WIRE_USER, and
 * encodes them with buf.h where a model of the library has them in wire.c).
 *
 *   toy_model [--n N] [--local K | --hosts H1,H2] [--worker PATH]
 *
 * On a running pvmd; prints its checks and "N passed, N failed" (tests/pvm.sh
 * runs it). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "runtime/dtss.h"
#include "runtime/core/buf.h"
#include "runtime/core/handle.h"
#include "runtime/core/join.h"
#include "runtime/core/place.h"
#include "runtime/core/wire.h"
#include "runtime/transport/transport.h"
#include "sched/util/parse.h"
#include "tests/test.h"

enum { TOY_JOB = WIRE_USER, TOY_SUM, TOY_STOP };  /* 2. its messages */

/* ---- 1. the handles: each begins with the base ---------------------------------- */
typedef struct toy_master {
    rt_handle h;
    rt_place place;                             /* 3. --hosts, --local, --worker */
    long n;
    tr_peer *peers;
    int nw;
    double sum;
} toy_master;

typedef struct toy_worker {
    rt_handle h;                                /* its master: h.parent */
    tr_event ev;
} toy_worker;

/* the family's own calls (a model of the library declares them in dtss.h) */
int toy_master_set(toy_master *m, const char *name, const char *value);
int toy_master_job(toy_master *m, const void *job, size_t len);
int toy_master_write_record(toy_master *m, const char *path);
void toy_master_summary(const toy_master *m, FILE *f);
void toy_master_free(toy_master *m);
const char *toy_master_errmsg(const toy_master *m);
void toy_master_log(toy_master *m, FILE *f, const char *prefix, int verbose);
int toy_master_args(toy_master *m, int *argc, char **argv);
void toy_worker_close(toy_worker *w);
const char *toy_worker_errmsg(const toy_worker *w);
const void *toy_worker_job(const toy_worker *w, size_t *len);

static const rt_option options[] = {            /* 3. its own options */
    {"n", 1, "N          the integers [0, N) (default 1000)"},
    {NULL, 0, NULL}
};

static int toy_opt(const char *name)
{
    const rt_option *o = rt_option_find(options, name);
    return o ? o->has_value : rt_place_opt(name, 0);
}

RT_MASTER_BASE(toy_kind, toy_master, toy_opt)
RT_WORKER_BASE(toy_worker_kind, toy_worker, "toy_run", 0)

int toy_master_set(toy_master *m, const char *name, const char *value)
{
    int rc = rt_place_set(&m->h, &m->place, 0, name, value);
    if (rc != DTSS_ENOENT)
        return rc;
    if (strcmp(name, "n") != 0)
        return rt_fail(&m->h, DTSS_ENOENT, "unknown option '--%s'", name);
    if (!value || parse_long_in(value, 1, 3000000, &m->n) != 0)
        return rt_fail(&m->h, DTSS_EINVAL, "--n '%s' must be an integer in [1, 3000000]",
                       value ? value : "");
    return DTSS_OK;
}

int toy_master_write_record(toy_master *m, const char *path)
{
    return rt_fail(&m->h, DTSS_EMISUSE, "no run record (%s)", path);
}

void toy_master_summary(const toy_master *m, FILE *f)
{
    fprintf(f, "sumsq: %d workers, sum %.0f\n", m->nw, m->sum);
}

void toy_master_free(toy_master *m)
{
    if (!m)
        return;
    if (m->peers)
        tr_leave();
    free(m->peers);
    rt_place_free(&m->place);
    rt_release(&m->h);
    free(m);
}

void toy_worker_close(toy_worker *w)
{
    if (w)
        rt_leave(&w->h);
    free(w);
}

/* ---- 4. the master: join, hosts, spawn; 7. its events ------------------------------ */
static int toy_run(toy_master *m)
{
    char msg[512];
    runtime_vm v = {0};
    int *pick = NULL;
    if (runtime_join(msg, sizeof msg) < 0)
        return rt_fail(&m->h, DTSS_EPVM, "%s", msg);
    m->peers = calloc(64, sizeof *m->peers);
    int n = m->peers ? runtime_hosts(&m->place, 0, &v, &pick, 64, msg, sizeof msg) : -DTSS_ENOMEM;
    if (n < 0)
        return rt_fail(&m->h, -n, "%s", m->peers ? msg : "out of memory");
    const char *names[64];
    for (int i = 0; i < n; i++)
        names[i] = v.hi[pick[i]].name;
    free(pick);
    if (runtime_spawn(m->place.worker_path, names, n, 0, m->peers, msg, sizeof msg) < 0)
        return rt_fail(&m->h, DTSS_EPVM, "%s", msg);
    m->nw = n;
    for (int i = 0; i < n; i++) {               /* 2. one encode each, on buf.h */
        buf b = {0};
        buf_start(&b);
        buf_int(&b, m->n * i / n);
        buf_int(&b, m->n * (i + 1) / n);
        int rc = b.err ? -1 : tr_send(m->peers[i], TOY_JOB, b.p, b.len, msg, sizeof msg);
        buf_free(&b);
        if (rc < 0)
            return rt_fail(&m->h, DTSS_EPVM, "%s", msg);
    }
    for (int got = 0; got < n;) {
        tr_event e;
        if (tr_recv(TR_ANY, TR_ANY, 30, &e, msg, sizeof msg) < 0)
            return rt_fail(&m->h, DTSS_EPVM, "%s", msg);
        if (e.kind == TR_TIMEOUT || e.kind == TR_PEER_EXIT)
            return rt_fail(&m->h, DTSS_ELOST, "%d of %d sums in: %s", got, n,
                           e.kind == TR_TIMEOUT ? "none for 30 s" : "a worker exited");
        rbuf r;                                 /* 2. ... and one checked decode */
        if (e.kind != TR_MESSAGE || e.tag != TOY_SUM || rbuf_start(&r, e.data, e.len) < 0)
            continue;
        double s = rbuf_double(&r);
        if (r.bad || rbuf_left(&r))
            return rt_fail(&m->h, DTSS_EPVM, "a malformed SUM from t%x", e.from);
        m->sum += s;
        got++;
        rt_log(&m->h, 1, "a sum from t%x (%d of %d)", e.from, got, n);
    }
    /* A worker exits when told: its exit notice comes by another way than
     * its messages and may pass its last one. */
    for (int i = 0; i < n; i++) {
        buf b = {0};
        buf_start(&b);
        int rc = b.err ? -1 : tr_send(m->peers[i], TOY_STOP, b.p, b.len, msg, sizeof msg);
        buf_free(&b);
        if (rc < 0)
            return rt_fail(&m->h, DTSS_EPVM, "%s", msg);
    }
    return DTSS_OK;
}

/* ---- 5. the worker: join, wait for the master's job -------------------------------- */
static int toy_work(int argc, char **argv)
{
    char msg[256];
    int rc;
    toy_worker *w = runtime_worker_open(sizeof(toy_worker), &toy_worker_kind, argc, argv, &rc);
    if (!w)
        return 1;
    if (rc == DTSS_OK)
        rc = runtime_wait_master(&w->h, w->h.parent, TOY_JOB, &w->ev, NULL, NULL);
    rbuf r;
    int64_t a = 0, b = 0;
    if (rc == DTSS_OK && rbuf_start(&r, w->ev.data, w->ev.len) == 0) {
        a = rbuf_int(&r);
        b = rbuf_int(&r);
        rc = r.bad || rbuf_left(&r) || a < 0 || b < a ? DTSS_EINVAL : DTSS_OK;
    }
    double s = 0;
    for (int64_t k = a; k < b; k++)
        s += (double)k * (double)k;
    buf out = {0};
    buf_start(&out);
    buf_double(&out, s);
    if (rc == DTSS_OK && tr_send(w->h.parent, TOY_SUM, out.p, out.len, msg, sizeof msg) < 0)
        rc = rt_fail(&w->h, DTSS_EPVM, "%s", msg);
    if (rc == DTSS_OK)                          /* until told to stop */
        rc = runtime_wait_master(&w->h, w->h.parent, TOY_STOP, &w->ev, NULL, NULL);
    if (rc != DTSS_OK)
        fprintf(stderr, "toy_model (worker): %s\n", dtss_errmsg(w));
    buf_free(&out);
    toy_worker_close(w);
    return rc == DTSS_OK ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (dtss_is_worker(argc, argv))
        return toy_work(argc, argv);
    toy_master *m = rt_new(sizeof *m, &toy_kind);
    if (!m)
        return 2;
    m->n = 1000;
    /* The base verbs of dtss.h take the fifth model's handle too. */
    test_cond("toy: dtss_set refuses a bad --n, naming it",
              dtss_set(m, "n", "x") == DTSS_EINVAL && strstr(dtss_errmsg(m), "'x'"));
    test_cond("toy: an unknown option refused by name",
              dtss_set(m, "bogus", "1") == DTSS_ENOENT && strstr(dtss_errmsg(m), "--bogus"));
    test_cond("toy: the shared --local checked by the shared rows",
              dtss_set(m, "local", "0") == DTSS_EINVAL &&
              strstr(dtss_errmsg(m), "--local '0' must be an integer"));
    test_cond("toy: its options from the command line (dtss_args)",
              dtss_args(m, &argc, argv) == DTSS_OK && argc == 1);
    dtss_log(m, stderr, "toy_model", 0);
    int rc = toy_run(m);
    test_condf(rc == DTSS_OK, "toy: the run (%s)", rc == DTSS_OK ? "ok" : dtss_errmsg(m));
    double n = (double)m->n, want = (n - 1) * n * (2 * n - 1) / 6;
    test_condf(m->sum == want, "toy: %d workers' sums add up to sum k^2, k < %ld: %.0f "
               "(got %.0f)", m->nw, m->n, want, m->sum);
    test_cond("toy: dtss_write_record refused (no record in this model)",
              dtss_write_record(m, "x.csv") == DTSS_EMISUSE);
    dtss_summary(m, stdout);
    dtss_free(m);
    return test_report();
}
