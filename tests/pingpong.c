/* pingpong.c: bin/pingpong, a raw PVM request/reply round trip carrying the
 * messages of one master-worker chunk, for `make bench`.
 *
 *   pingpong [-n ROUNDS] [-W WIDTH] [--send-cpu]
 *
 * Spawns a copy of itself on this host; the parent sends what the master
 * sends for a chunk (WORK), the child answers with what a worker sends back
 * for a one-row chunk (a REQUEST with one result of WIDTH 32-bit counts in
 * one piece), ROUNDS times, through the runtime's own wire functions and
 * transport -- the same messages, without the runtime around them. Prints
 * the mean round trip in microseconds.
 * --send-cpu: the other way round, to calibrate what sending results costs
 * its sender (the simulator's send-cost): the parent sends the REQUEST with
 * WIDTH counts, the child answers with a WORK; prints the parent's CPU time
 * (its process's, CLOCK_PROCESS_CPUTIME_ID) in wire_send_request, in
 * nanoseconds a byte of the message.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "runtime/core/wire.h"
#include "sched/util/parse.h"

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* The REQUEST a worker sends for a one-row chunk [start, +size) of width
 * counts (row: 4 x width bytes). */
static wire_request request_of(long id, long start, long size, int width, long *hdr,
                               unsigned char *row)
{
    double t = wire_now();
    hdr[0] = start;
    hdr[1] = size;
    hdr[2] = 4L * width;
    return (wire_request){.Q = 1, .A = 1, .t_measure = t, .has_result = 1,
                          .result = {.id = id, .start = start, .size = size,
                                     .t_recv = t, .t_start = t, .t_end = t,
                                     .npieces = 1, .hdr = hdr, .data = row,
                                     .len = 4 * (size_t)width}};
}

/* --send-cpu's child: each REQUEST answered with a WORK. */
static int echo_child(void)
{
    tr_peer me, parent;
    char msg[256];
    if (tr_join_worker(&me, &parent, msg, sizeof msg) < 0) {
        fprintf(stderr, "pingpong: %s\n", msg);
        return 1;
    }
    for (long i = 0;; i++) {
        tr_event e;
        wire_request q;
        if (tr_recv(parent, TR_ANY, -1, &e, msg, sizeof msg) < 0)
            return 1;
        if (e.tag == WIRE_STOP)
            break;
        if (wire_unpack_request(&e, &q, msg, sizeof msg) < 0)
            return 1;
        wire_result_free(&q.result);
        if (wire_send_work(parent, i, i, 1, msg, sizeof msg) < 0)
            return 1;
    }
    tr_leave();
    return 0;
}

static int child(int width)
{
    tr_peer me, parent;
    char msg[256];
    if (tr_join_worker(&me, &parent, msg, sizeof msg) < 0) {
        fprintf(stderr, "pingpong: %s\n", msg);
        return 1;
    }
    unsigned char *row = calloc((size_t)width, 4);
    for (;;) {
        tr_event e;
        if (tr_recv(parent, TR_ANY, -1, &e, msg, sizeof msg) < 0)
            return 1;
        if (e.tag == WIRE_STOP)
            break;
        long id, start, size;
        if (wire_unpack_work(&e, &id, &start, &size, msg, sizeof msg) < 0)
            return 1;
        long hdr[3];
        wire_request q = request_of(id, start, size, width, hdr, row);
        if (wire_send_request(parent, &q, msg, sizeof msg) < 0)
            return 1;
    }
    free(row);
    tr_leave();
    return 0;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"rounds", required_argument, NULL, 'n'},
        {"width", required_argument, NULL, 'W'},
        {"child", required_argument, NULL, 'c'},
        {"send-cpu", no_argument, NULL, 's'},
        {"echo-child", no_argument, NULL, 'e'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    long rounds = 2000;
    int width = 200, c, is_child = 0, send_cpu = 0;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":n:W:h", opts, NULL)) != -1) {
        switch (c) {
        case 'n':
            if (parse_long(optarg, &rounds) != 0 || rounds < 1)
                return parse_fail("pingpong", "-n '%s' must be an integer >= 1", optarg);
            break;
        case 'W':
        case 'c':
            if (parse_int(optarg, &width) != 0 || width < 1 || width > 1 << 24)
                return parse_fail("pingpong", "-W '%s' must be an integer in [1, %d]",
                                  optarg, 1 << 24);
            is_child = c == 'c';
            break;
        case 's': send_cpu = 1; break;
        case 'e': return echo_child();
        case 'h':
            printf("usage: pingpong [-n ROUNDS] [-W WIDTH] [--send-cpu]  (on a running PVM)\n");
            return 0;
        default:
            return parse_getopt_error("pingpong", c, argv);
        }
    }
    if (is_child)
        return child(width);
    char wtext[32], self[4096], flag[] = "--child", echo[] = "--echo-child", msg[512];
    tr_peer me, tid;
    if (tr_join(&me, msg, sizeof msg) < 0) {        /* as the master does */
        fprintf(stderr, "pingpong: %s\n", msg);
        return 1;
    }
    snprintf(wtext, sizeof wtext, "%d", width);
    char *args[] = {send_cpu ? echo : flag, send_cpu ? NULL : wtext, NULL};
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    self[n > 0 ? n : 0] = '\0';
    if (tr_spawn(self, args, NULL, &tid, msg, sizeof msg) < 0) {
        fprintf(stderr, "pingpong: %s\n", msg);
        tr_leave();
        return 1;
    }
    /* Received as the master receives: any message from anyone (the
     * child's exit ends the benchmark instead of a hang). */
    tr_watch_exit(&tid, 1, msg, sizeof msg);
    if (send_cpu) {
        unsigned char *row = calloc((size_t)width, 4);
        double cpu = 0, bytes = 0;
        for (long i = -10; row && i < rounds; i++) {
            long hdr[3];
            wire_request q = request_of(i + 10, i + 10, 1, width, hdr, row);
            tr_event e;
            double c0 = cpu_now();
            int rc = wire_send_request(tid, &q, msg, sizeof msg);
            if (i >= 0) {
                cpu += cpu_now() - c0;
                bytes += 4.0 * width;
            }
            snprintf(msg, sizeof msg, "the child exited");
            if (rc < 0 || tr_recv(TR_ANY, TR_ANY, -1, &e, msg, sizeof msg) < 0 ||
                e.kind != TR_MESSAGE || e.tag != WIRE_WORK) {
                fprintf(stderr, "pingpong: %s\n", msg);
                free(row);
                tr_leave();
                return 1;
            }
        }
        free(row);
        wire_send_stop(tid, msg, sizeof msg);
        tr_leave();
        if (!(bytes > 0)) {
            fprintf(stderr, "pingpong: out of memory for a row of %d counts\n", width);
            return 1;
        }
        printf("%.3f\n", cpu / bytes * 1e9);
        return 0;
    }
    double t0 = 0;
    for (long i = -10; i < rounds; i++) {       /* 10 rounds of warm-up */
        if (i == 0)
            t0 = wire_now();
        wire_request q;
        tr_event e;
        snprintf(msg, sizeof msg, "the child exited");
        if (wire_send_work(tid, i + 10, i + 10, 1, msg, sizeof msg) < 0 ||
            tr_recv(TR_ANY, TR_ANY, -1, &e, msg, sizeof msg) < 0 ||
            e.kind != TR_MESSAGE || e.tag != WIRE_REQUEST ||
            wire_unpack_request(&e, &q, msg, sizeof msg) < 0) {
            fprintf(stderr, "pingpong: %s\n", msg);
            tr_leave();
            return 1;
        }
        wire_result_free(&q.result);
    }
    double us = (wire_now() - t0) * 1e6 / (double)rounds;
    wire_send_stop(tid, msg, sizeof msg);
    printf("%.1f\n", us);
    tr_leave();
    return 0;
}
