/* mpi_pingpong.c: bin/mpi/pingpong, a raw MPI request/reply round trip
 * carrying the messages of one master-worker chunk, for `make bench`
 * (tests/bench_mpi.sh): what bin/pingpong is to PVM, without the transport.
 *
 *   mpirun -np 2 bin/mpi/pingpong [-n ROUNDS] [-W WIDTH] [--sizes]
 *
 * The two messages are the runtime's own bytes: what wire.c's functions
 * encode for a WORK (one chunk) and for a worker's REQUEST carrying the
 * result of a one-row chunk (WIDTH 32-bit counts in one piece), captured
 * by this file's tr_send instead of a transport, and framed as
 * runtime/transport/mpi.c frames a message (its 8-byte length first). Rank 0
 * sends the WORK with MPI_Send and waits in MPI_Recv; rank 1 answers each
 * with the REQUEST: ROUNDS round trips after 10 of warm-up, no runtime, no
 * polling, no copies around them. Rank 0 prints the mean round trip in
 * microseconds (MPI_Wtime); --sizes: the two messages' sizes in bytes
 * instead ("work N request M"), without MPI. A benchmark program outside the
 * library: the only file besides mpi.c that includes mpi.h (tests/layout.sh).
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "runtime/core/wire.h"
#include "sched/util/parse.h"

/* The message wire.c last sent, framed as the mpi transport frames it. */
static unsigned char *captured;
static size_t captured_len;

int tr_send(tr_peer to, int tag, const void *data, size_t n, char *msg, size_t len)
{
    (void)to, (void)tag;
    unsigned char *b = malloc(n + 8);
    if (!b) {
        snprintf(msg, len, "out of memory for a message of %zu bytes", n);
        return -1;
    }
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)((unsigned long long)n >> (8 * i));
    if (n)
        memcpy(b + 8, data, n);
    free(captured);
    captured = b;
    captured_len = n + 8;
    return 0;
}

/* The two messages of a one-row chunk of width counts: 0, or -1 with msg. */
static int messages(int width, unsigned char **work, size_t *wlen, unsigned char **req,
                    size_t *rlen, char *msg, size_t len)
{
    unsigned char *row = calloc((size_t)width, 4);
    if (!row) {
        snprintf(msg, len, "out of memory for a row of %d counts", width);
        return -1;
    }
    double t = wire_now();
    long hdr[3] = {0, 1, 4L * width};
    wire_request q = {.Q = 1, .A = 1, .t_measure = t, .has_result = 1,
                      .result = {.id = 0, .start = 0, .size = 1, .t_recv = t, .t_start = t,
                                 .t_end = t, .npieces = 1, .hdr = hdr, .data = row,
                                 .len = 4 * (size_t)width}};
    int rc = wire_send_work(1, 0, 0, 1, msg, len);
    *work = captured;
    *wlen = captured_len;
    captured = NULL;
    if (rc == 0)
        rc = wire_send_request(0, &q, msg, len);
    *req = captured;
    *rlen = captured_len;
    captured = NULL;
    free(row);
    return rc;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"rounds", required_argument, NULL, 'n'},
        {"width", required_argument, NULL, 'W'},
        {"sizes", no_argument, NULL, 's'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0}
    };
    long rounds = 2000;
    int width = 200, sizes = 0, c;
    opterr = 0;
    while ((c = getopt_long(argc, argv, ":n:W:h", opts, NULL)) != -1) {
        switch (c) {
        case 'n':
            if (parse_long(optarg, &rounds) != 0 || rounds < 1)
                return parse_fail("pingpong", "-n '%s' must be an integer >= 1", optarg);
            break;
        case 'W':
            if (parse_int(optarg, &width) != 0 || width < 1 || width > 1 << 24)
                return parse_fail("pingpong", "-W '%s' must be an integer in [1, %d]",
                                  optarg, 1 << 24);
            break;
        case 's': sizes = 1; break;
        case 'h':
            printf("usage: mpirun -np 2 pingpong [-n ROUNDS] [-W WIDTH]   (the mean round "
                   "trip, us)\n       pingpong --sizes [-W WIDTH]   (the two messages' "
                   "bytes)\n");
            return 0;
        default:
            return parse_getopt_error("pingpong", c, argv);
        }
    }
    if (optind < argc)
        return parse_fail("pingpong", "unexpected argument '%s'", argv[optind]);
    unsigned char *work = NULL, *req = NULL;
    size_t wlen = 0, rlen = 0;
    char msg[256];
    if (messages(width, &work, &wlen, &req, &rlen, msg, sizeof msg) < 0) {
        fprintf(stderr, "pingpong: %s\n", msg);
        return 1;
    }
    if (sizes) {
        printf("work %zu request %zu\n", wlen, rlen);
        free(work);
        free(req);
        return 0;
    }
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 2) {
        if (rank == 0)
            fprintf(stderr, "pingpong: needs exactly 2 ranks (mpirun -np 2), not %d\n", size);
        MPI_Finalize();
        return 2;
    }
    /* Each side receives into a buffer of the size it expects: a message
     * of another size is an error (MPI_ERR_TRUNCATE), not a silent one. */
    unsigned char *in = malloc(rank == 0 ? rlen : wlen);
    if (!in) {
        fprintf(stderr, "pingpong: out of memory\n");
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    double t0 = 0;
    for (long i = -10; i < rounds; i++) {       /* 10 rounds of warm-up */
        if (rank == 0) {
            if (i == 0)
                t0 = MPI_Wtime();
            MPI_Send(work, (int)wlen, MPI_BYTE, 1, WIRE_WORK, MPI_COMM_WORLD);
            MPI_Recv(in, (int)rlen, MPI_BYTE, 1, WIRE_REQUEST, MPI_COMM_WORLD,
                     MPI_STATUS_IGNORE);
        } else {
            MPI_Recv(in, (int)wlen, MPI_BYTE, 0, WIRE_WORK, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
            MPI_Send(req, (int)rlen, MPI_BYTE, 0, WIRE_REQUEST, MPI_COMM_WORLD);
        }
    }
    if (rank == 0)
        printf("%.1f\n", (MPI_Wtime() - t0) / (double)rounds * 1e6);
    free(in);
    free(work);
    free(req);
    MPI_Finalize();
    return 0;
}
