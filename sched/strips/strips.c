/* strips.c: rows in contiguous strips over P nodes (strips.h): even cuts,
 * the neighbour transfers of a re-cut and their one-port rounds, a
 * load-balancing plan read as a re-cut, and one node's strip of opaque rows.
 *
 * The transfers. Node i holds rows [lo_i, hi_i); boundary i (between nodes
 * i and i+1) stands at B_i = hi_i = lo_{i+1} and must go to G_i, the prefix
 * sum of the targets. If G_i > B_i the rows [B_i, G_i) go up, from node i+1
 * to node i; if G_i < B_i the rows [G_i, B_i) go down, from i to i+1. One
 * transfer per boundary that moves. Node i+1 can send [B_i, G_i) up only
 * once it holds them: once hi_{i+1} >= G_i, which may first need boundary
 * i+1 to move up (rows handed on from further down); likewise a send down
 * across boundary i needs lo_i <= G_i. Rounds, greedily: each round takes,
 * boundary by boundary, every pending transfer whose sender already holds
 * its rows and whose two nodes are free in this round. Every round takes at
 * least one: the pending upward transfer of the highest boundary can always
 * run (hi_{i+1} is n, or G_{i+1} > G_i once boundary i+1 has moved, or
 * B_{i+1} >= G_{i+1} > G_i if it has not and need not move up: targets are
 * >= 1), and likewise the lowest downward one. Two transfers of one round
 * are on boundaries at least two apart, so neither changes what the other
 * needs (boundary i's depends on boundaries i-1 and i+1 only). A chain of
 * rows handed on through several nodes takes one round per hop; otherwise
 * two rounds suffice (the even then the odd boundaries, when neighbouring
 * boundaries both move). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sched/sched.h"
#include "sched/strips/strips.h"

/* Checks P counts named 'what': each >= 1, the total at most STRIPS_MAX_ROWS.
 * Returns the total, or -1 with err. */
static long check_counts(int P, const int *count, const char *what, sched_err *err)
{
    if (P < 1 || P > STRIPS_MAX_NODES) {
        sched_fail(err, SCHED_EINVAL, "strips=%d must be in 1..%d", P, STRIPS_MAX_NODES);
        return -1;
    }
    if (!count) {
        sched_fail(err, SCHED_EINVAL, "no %ss given", what);
        return -1;
    }
    long total = 0;
    for (int i = 0; i < P; i++) {
        if (count[i] < 1 || count[i] > STRIPS_MAX_ROWS) {
            sched_fail(err, SCHED_EINVAL, "%s[%d]=%d must be in 1..%d (a strip holds a row "
                       "at least)", what, i, count[i], STRIPS_MAX_ROWS);
            return -1;
        }
        total += count[i];
        if (total > STRIPS_MAX_ROWS) {
            sched_fail(err, SCHED_EINVAL, "the %ss sum to more than %d rows", what,
                       STRIPS_MAX_ROWS);
            return -1;
        }
    }
    return total;
}

int strips_even(int rows, int P, int *count, sched_err *err)
{
    if (rows < 1 || rows > STRIPS_MAX_ROWS)
        return sched_fail(err, SCHED_EINVAL, "rows=%d must be in 1..%d", rows,
                          STRIPS_MAX_ROWS);
    if (P < 1 || P > STRIPS_MAX_NODES || P > rows)
        return sched_fail(err, SCHED_EINVAL, "strips=%d must be in 1..%d (each strip "
                          "needs a row of the %d)", P,
                          rows < STRIPS_MAX_NODES ? rows : STRIPS_MAX_NODES, rows);
    for (int i = 0; i < P; i++)
        count[i] = rows / P + (i < rows % P);
    return SCHED_OK;
}

int strips_drop(int P, const int *count, const int *lost, int *out, sched_err *err)
{
    if (check_counts(P, count, "count", err) < 0)
        return -1;
    if (!lost) {
        sched_fail(err, SCHED_EINVAL, "no lost nodes given");
        return -1;
    }
    int n = 0, run = 0;         /* survivors so far; rows of the lost run since the last */
    for (int i = 0; i < P; i++) {
        if (lost[i]) {
            run += count[i];
            continue;
        }
        if (n > 0) {            /* a run between two survivors: split */
            out[n - 1] += (run + 1) / 2;
            out[n] = count[i] + run / 2;
        } else {                /* a run at the top edge: all to this one */
            out[n] = count[i] + run;
        }
        n++;
        run = 0;
    }
    if (n == 0) {
        sched_fail(err, SCHED_EINVAL, "every one of the %d nodes lost", P);
        return -1;
    }
    out[n - 1] += run;          /* a run at the bottom edge */
    return n;
}

int strips_transfers(int P, const int *count, const int *target, strips_transfer *t,
                     sched_err *err)
{
    long n = check_counts(P, count, "count", err);
    if (n < 0)
        return -1;
    long nt = check_counts(P, target, "target", err);
    if (nt < 0)
        return -1;
    if (nt != n) {
        sched_fail(err, SCHED_EINVAL, "the targets sum to %ld rows, the counts to %ld", nt,
                   n);
        return -1;
    }
    /* B: boundaries now, G: their goal; lo, hi: what each node holds. */
    int B[STRIPS_MAX_NODES], G[STRIPS_MAX_NODES], lo[STRIPS_MAX_NODES], hi[STRIPS_MAX_NODES];
    unsigned char busy[STRIPS_MAX_NODES];
    int pending = 0, b = 0, g = 0;
    for (int i = 0; i < P; i++) {
        lo[i] = b;
        b += count[i];
        g += target[i];
        hi[i] = B[i] = b;
        G[i] = g;
        pending += i < P - 1 && B[i] != G[i];
    }
    int m = 0;
    for (int round = 0; pending > 0; round++) {
        int before = m;
        memset(busy, 0, (size_t)P);
        for (int i = 0; i < P - 1; i++) {
            if (B[i] == G[i] || busy[i] || busy[i + 1])
                continue;
            int up = G[i] > B[i];
            if (up ? hi[i + 1] < G[i] : lo[i] > G[i])
                continue;               /* the sender does not hold them yet */
            t[m++] = up ? (strips_transfer){i + 1, i, B[i], G[i] - B[i], round}
                        : (strips_transfer){i, i + 1, G[i], B[i] - G[i], round};
            hi[i] = lo[i + 1] = B[i] = G[i];
            busy[i] = busy[i + 1] = 1;
            pending--;
        }
        if (m == before) {              /* cannot happen (the comment on top) */
            sched_fail(err, SCHED_EINVAL, "no transfer can run in round %d: a bug", round);
            return -1;
        }
    }
    return m;
}

int strips_from_plan(const lb_plan *plan, int P, const int *count, int *target,
                     sched_err *err)
{
    long total = check_counts(P, count, "count", err);
    if (total < 0)
        return SCHED_EINVAL;
    if (!plan)
        return sched_fail(err, SCHED_EINVAL, "no plan given");
    if (plan->nodes != P)
        return sched_fail(err, SCHED_EINVAL, "the plan is of %d nodes, the strips %d",
                          plan->nodes, P);
    long sum = 0;
    for (int i = 0; i < P; i++) {
        if (plan->remaining[i] != count[i])
            return sched_fail(err, SCHED_EINVAL, "the plan's remaining[%d]=%ld is not "
                              "strip %d's %d rows (make it with remaining[i] = strip i's "
                              "rows)", i, plan->remaining[i], i, count[i]);
        if (plan->after[i] < 0 || plan->after[i] > total)
            return sched_fail(err, SCHED_EINVAL, "the plan's after[%d]=%ld must be in "
                              "0..%ld", i, plan->after[i], total);
        sum += plan->after[i];
    }
    if (sum != total)
        return sched_fail(err, SCHED_EINVAL, "the plan's after[] sums to %ld rows, the "
                          "strips hold %ld", sum, total);
    for (int i = 0; i < P; i++)
        target[i] = (int)plan->after[i];
    for (int i = 0; i < P; i++)
        while (target[i] < 1) {         /* total >= P: some node has >= 2 */
            int big = 0;
            for (int j = 1; j < P; j++)
                if (target[j] > target[big])
                    big = j;
            target[big]--;
            target[i]++;
        }
    return SCHED_OK;
}

/* ---- one node's strip ---------------------------------------------------------- */

/* Room for 'rows' rows in s (SCHED_ENOMEM, s unchanged, when there is none). */
static int reserve(strips_node *s, int rows, sched_err *err)
{
    if (rows <= s->cap)
        return SCHED_OK;
    void *d = (size_t)rows <= SIZE_MAX / s->row_bytes
            ? realloc(s->data, (size_t)rows * s->row_bytes) : NULL;
    if (!d)
        return sched_fail(err, SCHED_ENOMEM, "out of memory for a strip of %d rows of %zu "
                          "bytes", rows, s->row_bytes);
    s->data = d;
    s->cap = rows;
    return SCHED_OK;
}

int strips_node_take(strips_node *s, const strips_transfer *t, void *buf, sched_err *err)
{
    if (s->row_bytes < 1)
        return sched_fail(err, SCHED_EINVAL, "row_bytes=0 must be >= 1");
    int up = t->to < t->from;
    if (t->count < 1 || t->count > s->rows ||
        t->first != (up ? s->first : s->first + s->rows - t->count))
        return sched_fail(err, SCHED_EINVAL, "rows %d..%ld (count=%d) are not the %s rows "
                          "of the strip of rows %d..%d", t->first,
                          (long)t->first + t->count - 1, t->count, up ? "first" : "last",
                          s->first, s->first + s->rows - 1);
    size_t n = (size_t)t->count * s->row_bytes;
    size_t rest = (size_t)(s->rows - t->count) * s->row_bytes;
    if (up) {
        memcpy(buf, s->data, n);
        memmove(s->data, s->data + n, rest);
        s->first += t->count;
    } else {
        memcpy(buf, s->data + rest, n);
    }
    s->rows -= t->count;
    return SCHED_OK;
}

int strips_node_put(strips_node *s, const strips_transfer *t, const void *buf,
                    sched_err *err)
{
    if (s->row_bytes < 1)
        return sched_fail(err, SCHED_EINVAL, "row_bytes=0 must be >= 1");
    int below = t->from > t->to;        /* from the node below: after s's rows */
    if (t->count < 1 ||
        (below ? t->first != s->first + s->rows : (long)t->first + t->count != s->first))
        return sched_fail(err, SCHED_EINVAL, "rows %d..%ld (count=%d) do not join the strip "
                          "of rows %d..%d from %s", t->first, (long)t->first + t->count - 1,
                          t->count, s->first, s->first + s->rows - 1,
                          below ? "below" : "above");
    if (t->count > STRIPS_MAX_ROWS - s->rows)
        return sched_fail(err, SCHED_EINVAL, "count=%d rows would make the strip of %d rows "
                          "more than %d", t->count, s->rows, STRIPS_MAX_ROWS);
    int rc = reserve(s, s->rows + t->count, err);
    if (rc != SCHED_OK)
        return rc;
    size_t n = (size_t)t->count * s->row_bytes, have = (size_t)s->rows * s->row_bytes;
    if (below) {
        memcpy(s->data + have, buf, n);
    } else {
        memmove(s->data + n, s->data, have);
        memcpy(s->data, buf, n);
        s->first = t->first;
    }
    s->rows += t->count;
    return SCHED_OK;
}

void strips_node_free(strips_node *s)
{
    free(s->data);
    s->data = NULL;
    s->rows = s->cap = 0;
}
