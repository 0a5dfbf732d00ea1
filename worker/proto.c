/* proto.c: packing and unpacking the coordinator-worker messages (proto.h). */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include <pvm3.h>

#include "proto.h"

extern char *pvm_errlist[];
extern int pvm_nerr;

const char *proto_pvm_strerror(int rc)
{
    return rc < 0 && -rc < pvm_nerr && pvm_errlist[-rc] ? pvm_errlist[-rc]
                                                       : "unknown PVM error";
}

double proto_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

int proto_pack_job(const proto_job *j)
{
    int ints[] = {j->version, j->index, j->tree, j->image.width, j->image.height,
                  j->sample, j->acp_integer, j->probe, j->nworkers};
    unsigned maxiter = j->image.maxiter;
    double d[] = {j->image.xmin, j->image.ymin, j->image.xmax, j->image.ymax, j->V};
    long range[] = {j->start, j->size};
    if (pvm_pkint(ints, 9, 1) < 0 || pvm_pkuint(&maxiter, 1, 1) < 0 ||
        pvm_pkdouble(d, 5, 1) < 0 || pvm_pklong(range, 2, 1) < 0)
        return -1;
    if (j->tree && (pvm_pkint((int *)j->chain, j->nworkers, 1) < 0 ||
                    pvm_pkint((int *)j->tids, j->nworkers, 1) < 0))
        return -1;
    return 0;
}

int proto_unpack_job(proto_job *j, char *msg, size_t len)
{
    int ints[9];
    unsigned maxiter;
    double d[5];
    long range[2];
    int rc;
    if ((rc = pvm_upkint(ints, 9, 1)) < 0 || (rc = pvm_upkuint(&maxiter, 1, 1)) < 0 ||
        (rc = pvm_upkdouble(d, 5, 1)) < 0 || (rc = pvm_upklong(range, 2, 1)) < 0) {
        snprintf(msg, len, "unpacking the job: %s", proto_pvm_strerror(rc));
        return -1;
    }
    if (ints[0] != PROTO_VERSION) {
        snprintf(msg, len, "job message version %d, expected %d", ints[0],
                 PROTO_VERSION);
        return -1;
    }
    j->version = ints[0];
    j->index = ints[1];
    j->tree = ints[2];
    j->image.width = ints[3];
    j->image.height = ints[4];
    j->sample = ints[5];
    j->acp_integer = ints[6];
    j->probe = ints[7];
    j->nworkers = ints[8];
    j->image.maxiter = maxiter;
    j->image.xmin = d[0];
    j->image.ymin = d[1];
    j->image.xmax = d[2];
    j->image.ymax = d[3];
    j->V = d[4];
    j->start = range[0];
    j->size = range[1];
    if (j->tree) {
        if (j->nworkers < 1 || j->nworkers > PROTO_MAX_WORKERS) {
            snprintf(msg, len, "job with %d workers", j->nworkers);
            return -1;
        }
        if ((rc = pvm_upkint(j->chain, j->nworkers, 1)) < 0 ||
            (rc = pvm_upkint(j->tids, j->nworkers, 1)) < 0) {
            snprintf(msg, len, "unpacking the chain: %s", proto_pvm_strerror(rc));
            return -1;
        }
    }
    return 0;
}

int proto_pack_results(const proto_result *r, int n, int width)
{
    if (pvm_pkint(&n, 1, 1) < 0)
        return -1;
    for (int i = 0; i < n; i++) {
        long l[] = {r[i].id, r[i].start, r[i].size};
        double t[] = {r[i].t_recv, r[i].t_start, r[i].t_end};
        if (pvm_pklong(l, 3, 1) < 0 || pvm_pkdouble(t, 3, 1) < 0 ||
            pvm_pkuint(r[i].counts, (int)(r[i].size * width), 1) < 0)
            return -1;
    }
    return 0;
}

int proto_unpack_results(proto_result *r, int max, int width, char *msg,
                         size_t len)
{
    int n, rc, i;
    if ((rc = pvm_upkint(&n, 1, 1)) < 0 || n < 0 || n > max) {
        snprintf(msg, len, "results: bad count (%s)",
                 rc < 0 ? proto_pvm_strerror(rc) : "out of range");
        return -1;
    }
    for (i = 0; i < n; i++) {
        long l[3];
        double t[3];
        if ((rc = pvm_upklong(l, 3, 1)) < 0 || (rc = pvm_upkdouble(t, 3, 1)) < 0) {
            snprintf(msg, len, "results: %s", proto_pvm_strerror(rc));
            goto fail;
        }
        r[i] = (proto_result){l[0], l[1], l[2], t[0], t[1], t[2], NULL};
        if (r[i].size < 0 || r[i].size > 100000000L / (width > 0 ? width : 1)) {
            snprintf(msg, len, "results: chunk of %ld rows", r[i].size);
            goto fail;
        }
        r[i].counts = malloc(sizeof(uint32_t) * (size_t)(r[i].size * width + 1));
        if (!r[i].counts) {
            snprintf(msg, len, "results: out of memory");
            goto fail;
        }
        if ((rc = pvm_upkuint(r[i].counts, (int)(r[i].size * width), 1)) < 0) {
            snprintf(msg, len, "results: %s", proto_pvm_strerror(rc));
            free(r[i].counts);
            goto fail;
        }
    }
    return n;
fail:
    while (i-- > 0)                     /* the ones fully unpacked */
        free(r[i].counts);
    return -1;
}
