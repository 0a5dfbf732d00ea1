/* wire.c: fuzzes the decoders of the master-worker messages (runtime/core/
 * wire.c, on buf.h's encoding): the input's first byte picks the message
 * kind, the rest is the message as a peer sent it. What a decoder accepts
 * keeps its promises: a result's pieces cover its chunk and its bytes add
 * up, a job's chain names its workers, counts are in range; whatever it
 * refuses it says why, and nothing leaks. */
#include "tests/fuzz/fuzz.h"
#include "runtime/core/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    tr_event e = {.kind = TR_MESSAGE, .from = 0x40001, .data = data + 1, .len = size - 1};
    char msg[256] = "";
    int rc = 0, i, n, k;
    long a, b, c, d;
    switch (data[0] % 16) {
    case 0: {
        wire_job j;
        if ((rc = wire_unpack_job(&e, &j, msg, sizeof msg)) == 0) {
            FUZZ_CHECK(j.index >= 0 && j.index < j.nworkers && j.start + j.size <= j.iters);
            for (i = 0; j.tree && i < j.nworkers; i++)
                FUZZ_CHECK(j.chain[i] >= 0 && j.chain[i] < j.nworkers);
            wire_job_free(&j);
        }
        break;
    }
    case 1: {
        wire_request q;
        if ((rc = wire_unpack_request(&e, &q, msg, sizeof msg)) == 0) {
            if (q.has_result) {
                long iters = 0;
                size_t bytes = 0;
                for (long p = 0; p < q.result.npieces; p++) {
                    iters += q.result.hdr[3 * p + 1];
                    bytes += (size_t)q.result.hdr[3 * p + 2];
                }
                FUZZ_CHECK(iters == q.result.size && bytes == q.result.len);
            }
            FUZZ_CHECK(strlen(q.h.host) < sizeof q.h.host);
            wire_result_free(&q.result);
        }
        break;
    }
    case 2:
        if ((rc = wire_unpack_work(&e, &a, &b, &c, msg, sizeof msg)) == 0)
            FUZZ_CHECK(a >= -1 && b >= 0 && c >= 1);
        break;
    case 3: {
        wire_result r;
        if ((rc = wire_unpack_result(&e, &i, &r, msg, sizeof msg)) == 0)
            wire_result_free(&r);
        break;
    }
    case 4:
        rc = wire_unpack_steal(&e, &i, msg, sizeof msg);
        break;
    case 5:
        if ((rc = wire_unpack_give(&e, &a, &b, msg, sizeof msg)) == 0)
            FUZZ_CHECK(a >= 0 && b >= 0);
        break;
    case 6: {
        void *job;
        size_t len;
        if ((rc = wire_unpack_pooljob(&e, &i, &job, &len, msg, sizeof msg)) == 0)
            free(job);
        break;
    }
    case 7: {
        char host[64];
        if ((rc = wire_unpack_ready(&e, &i, host, sizeof host, msg, sizeof msg)) == 0)
            FUZZ_CHECK(strlen(host) < sizeof host);
        break;
    }
    case 8: {
        wire_task t;
        if ((rc = wire_unpack_taskdone(&e, &i, &t, msg, sizeof msg)) == 0)
            free(t.data);
        break;
    }
    case 9: {
        tr_peer *tids;
        void *job;
        size_t len;
        if ((rc = wire_unpack_lbjob(&e, &i, &n, &tids, &job, &len, msg, sizeof msg)) == 0) {
            FUZZ_CHECK(i >= 0 && i < n);
            free(tids);
            free(job);
        }
        break;
    }
    case 10: {
        wire_task *t;
        if ((rc = wire_unpack_tasks(&e, &t, &n, msg, sizeof msg)) == 0) {
            for (k = 0; k < n; k++)
                free(t[k].data);
            free(t);
        }
        break;
    }
    case 11:
        rc = wire_unpack_counts(&e, &i, &k, &a, &b, msg, sizeof msg);
        break;
    case 12: {                          /* MOVE, or else MOVED */
        int *moved, to;
        if ((rc = wire_unpack_move(&e, &i, &k, &a, msg, sizeof msg)) < 0 &&
            (rc = wire_unpack_moved(&e, &i, &k, &to, &moved, &n, msg, sizeof msg)) == 0) {
            for (int j = 0; j < n; j++)
                FUZZ_CHECK(moved[j] >= 0);
            free(moved);
        }
        break;
    }
    case 13: {
        wire_stripjob j;
        wire_start st;
        if ((rc = wire_unpack_stripjob(&e, &j, msg, sizeof msg)) == 0) {
            FUZZ_CHECK(j.index < j.nworkers && j.row_bytes >= 1);
            wire_stripjob_free(&j);
        } else if ((rc = wire_unpack_start(&e, &st, 8, msg, sizeof msg)) == 0) {
            FUZZ_CHECK(st.n >= 1 && st.n <= 8 && st.pos < st.n);
            for (i = 0; i < st.n; i++)
                FUZZ_CHECK(st.counts[i] >= 1);
            wire_start_free(&st);
        }
        break;
    }
    case 14: {
        void *rows;
        size_t len;
        if ((rc = wire_unpack_rows(&e, &a, &i, &k, &rows, &len, msg, sizeof msg)) == 0)
            free(rows);
        break;
    }
    default: {
        int counts[4];
        unsigned char row[8];
        wire_state st;
        (void)d;
        if ((rc = wire_unpack_state(&e, &st, msg, sizeof msg)) == 0)
            FUZZ_CHECK(st.bytes == 0 || st.data != NULL);
        else if ((rc = wire_unpack_plan(&e, &a, &b, counts, 4, msg, sizeof msg)) < 0 &&
                 (rc = wire_unpack_halo(&e, &a, &b, row, sizeof row, msg, sizeof msg)) < 0 &&
                 (rc = wire_unpack_wait(&e, &a, &i, &b, msg, sizeof msg)) < 0 &&
                 (rc = wire_unpack_fetch(&e, &a, &i, msg, sizeof msg)) == 0)
            FUZZ_CHECK(a >= 0 && i >= 0);
        break;
    }
    }
    FUZZ_CHECK(rc == 0 || rc == -1 || rc == WIRE_EVERSION);
    FUZZ_CHECK(rc == 0 || msg[0] != '\0');
    return 0;
}
