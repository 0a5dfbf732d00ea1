/* pingpong.c: bin/pingpong, a raw PVM request/reply round trip with the
 * message sizes of one coordinator-worker chunk, for `make bench`.
 *
 *   pingpong [-n ROUNDS] [-w WIDTH]
 *
 * Spawns a copy of itself on this host; the parent sends what the
 * coordinator sends for a chunk (TAG_WORK: three longs), the child answers
 * with what a worker sends back for a one-row chunk (its request header and
 * one result of WIDTH iteration counts), ROUNDS times. Prints the mean round
 * trip in microseconds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <pvm3.h>

#include "sched/parse.h"
#include "worker/proto.h"

static void child(int width)
{
    int parent = pvm_parent();
    uint32_t *row = calloc((size_t)width, sizeof *row);
    for (;;) {
        int bufid = pvm_recv(parent, -1);
        int bytes, tag, src;
        pvm_bufinfo(bufid, &bytes, &tag, &src);
        if (tag == TAG_STOP)
            break;
        long w[3];
        pvm_upklong(w, 3, 1);
        /* The worker's request: index, Q, A, time, hello flag, one result. */
        int index = 0, Q = 1, hello = 0;
        double A = 1, tm = proto_now();
        proto_result r = {w[0], w[1], w[2], tm, tm, tm, row};
        pvm_initsend(PvmDataDefault);
        pvm_pkint(&index, 1, 1);
        pvm_pkint(&Q, 1, 1);
        pvm_pkdouble(&A, 1, 1);
        pvm_pkdouble(&tm, 1, 1);
        pvm_pkint(&hello, 1, 1);
        proto_pack_results(&r, 1, width);
        pvm_send(parent, TAG_REQUEST);
    }
    free(row);
}

int main(int argc, char **argv)
{
    long rounds = 2000;
    int width = 200;
    pvm_setopt(PvmAutoErr, 0);
    if (pvm_mytid() < 0) {
        fprintf(stderr, "pingpong: no PVM daemon (start one first)\n");
        return 1;
    }
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "-n") == 0 && i + 1 < argc &&
            parse_long(argv[i + 1], &rounds) == 0 && rounds > 0)
            i++;
        else if (strcmp(argv[i], "-w") == 0 && i + 1 < argc &&
                 parse_int(argv[i + 1], &width) == 0 && width > 0)
            i++;
        else if (strcmp(argv[i], "--child") == 0 && i + 1 < argc &&
                 parse_int(argv[i + 1], &width) == 0) {
            child(width);
            pvm_exit();
            return 0;
        } else {
            fprintf(stderr, "usage: pingpong [-n ROUNDS] [-w WIDTH]\n");
            pvm_exit();
            return 2;
        }
    }
    pvm_setopt(PvmRoute, PvmRouteDirect);      /* as the coordinator does */
    char wtext[32], self[4096];
    snprintf(wtext, sizeof wtext, "%d", width);
    char *args[] = {"--child", wtext, NULL};
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    int tid;
    if (pvm_spawn(self, args, PvmTaskDefault, "", 1, &tid) != 1) {
        fprintf(stderr, "pingpong: pvm_spawn(%s): %s\n", self, proto_pvm_strerror(tid));
        pvm_exit();
        return 1;
    }
    double t0 = 0;
    for (long i = -10; i < rounds; i++) {       /* 10 rounds of warm-up */
        if (i == 0)
            t0 = proto_now();
        long w[3] = {i, i, 1};
        pvm_initsend(PvmDataDefault);
        pvm_pklong(w, 3, 1);
        pvm_send(tid, TAG_WORK);
        pvm_recv(tid, TAG_REQUEST);
    }
    double us = (proto_now() - t0) * 1e6 / (double)rounds;
    pvm_initsend(PvmDataDefault);
    pvm_send(tid, TAG_STOP);
    printf("%.1f\n", us);
    pvm_exit();
    return 0;
}
