/* strips.h: rows held by P nodes in contiguous strips, and re-cut by
 * transfers between neighbours (no PVM, no clock). The decision part of a
 * row-strip SPMD program (the heat-conduction application, heat/; the
 * runtime's strip master and workers, runtime/strips_*.c): which rows cross
 * which boundary, in what order under the one-port model, and a node's own
 * strip of opaque rows (row_bytes bytes each) as the transfers change it.
 *
 * P nodes hold the rows in P contiguous strips, in node order: node i holds
 * count[i] >= 1 rows starting at first_i = count[0] + ... + count[i-1]. The
 * boundary b_i between nodes i and i+1 (i = 0 .. P-2) is first_{i+1}.
 * Re-cutting to target[] moves each boundary from its prefix sum of count[]
 * to that of target[]: the rows between the two cross boundary i, all in one
 * direction, and only between the neighbours i and i+1 (a row that ends two
 * nodes away is handed on through the node between).
 *
 * Errors are codes (SCHED_E*, sched.h) with a message in a sched_err that
 * names the bad value. Nothing here prints or exits.
 */
#ifndef STRIPS_H
#define STRIPS_H

#include <stddef.h>

#include "sched/lb/lb.h"
#include "sched/sched.h"

/* Nodes: 1 .. STRIPS_MAX_NODES; rows in all: at most STRIPS_MAX_ROWS. */
#define STRIPS_MAX_NODES LB_MAX_NODES
#define STRIPS_MAX_ROWS 65536

/* The P counts of rows in strips as even as can be: rows / P each, the first
 * rows % P one more. Returns SCHED_OK, or SCHED_EINVAL when P is not in
 * 1..min(rows, STRIPS_MAX_NODES) or rows not in 1..STRIPS_MAX_ROWS. */
int strips_even(int rows, int P, int *count, sched_err *err);

/* rows [first, first + count) go from node 'from' to its neighbour 'to'. */
typedef struct strips_transfer {
    int from, to;           /* |from - to| = 1 */
    int first, count;       /* rows; count >= 1 */
    int round;              /* 0, 1, ...: see strips_transfers */
} strips_transfer;

/* The transfers that turn the strips count[] into target[] (P of each, every
 * count >= 1, the same total, at most STRIPS_MAX_ROWS): one per boundary
 * that moves (at most P-1; t must hold P-1 entries), listed in an order a
 * one-port network can carry them out in. Each transfer sends rows its
 * sender holds once the transfers before it are done, taken off the
 * sender's edge next to the receiver (its first rows when sent up, to
 * from - 1; its last when sent down), so every node's rows stay one
 * contiguous strip throughout (a strip may be empty between two transfers:
 * a node that passes all its rows on before it gets the new ones).
 * 'round' groups them: the transfers of one round involve distinct nodes
 * and none needs another's rows, so under the one-port model (a node sends
 * or receives one message at a time) they run at once; round k starts once
 * round k-1 is done. The list is sorted by round, then boundary. Every node
 * computes the same list from the same counts, so each can carry out its
 * own part in list order: send what it sends, receive what it receives.
 * Returns the number of transfers, or -1 with err (SCHED_EINVAL naming the
 * bad count, "target[2]=0 must be in 1..65536 (...)", or the totals that
 * differ). */
int strips_transfers(int P, const int *count, const int *target, strips_transfer *t,
                     sched_err *err);

/* Reads a load-balancing plan (sched/lb/lb.h) as strip targets: a task is a
 * row, the plan made with remaining[i] = count[i], node i's rows. Only the
 * plan's after[] is used: target[i] = after[i], raised to 1 where it is 0
 * (a strip cannot be empty: each such row is taken from the node with the
 * most rows, the lower index on a tie). The plan's moves (any node to any
 * node) are not carried out as such: the strips stay contiguous and in node
 * order, so a move from node a to node c > a + 1 becomes shifts of every
 * boundary in between, its rows handed on through the nodes between. Those
 * nodes send and receive rows the plan did not count: its e_after (k_i C)
 * is a lower bound for them. Returns SCHED_OK, or SCHED_EINVAL when the
 * plan does not fit the strips (its nodes are not P, a remaining[i] is not
 * count[i]: named). */
int strips_from_plan(const lb_plan *plan, int P, const int *count, int *target,
                     sched_err *err);

/* The strips after losing nodes (a restore: the rows come back from a
 * checkpoint and are re-cut among the nodes left): count[] over P nodes,
 * lost[i] != 0 for each node lost; the survivors' counts, in node order,
 * into out[] (room for P). Each survivor keeps its rows; a run of lost
 * nodes' rows between two survivors is split between them, the upper half
 * (rounded up) to the survivor above it; a run at an edge goes whole to the
 * survivor next to it. So the fewest rows change owner, and those only next
 * to where they were (3,3,3,3 losing node 1: 5,4,3). Returns the number of
 * survivors (>= 1), or -1 with err (SCHED_EINVAL: a bad count, named, or no
 * node left). */
int strips_drop(int P, const int *count, const int *lost, int *out, sched_err *err);

/* ---- one node's strip ------------------------------------------------------- */

/* The rows [first, first + rows) held by one node, row_bytes bytes each,
 * in data (room for cap rows). rows may be 0 (then first still says where
 * the strip stands: between rows first - 1 and first). Zero-initialise it
 * and set row_bytes (>= 1) and first; strips_node_put grows it. */
typedef struct strips_node {
    int first, rows, cap;
    size_t row_bytes;
    unsigned char *data;
} strips_node;

/* The sender's side of transfer t (t->from is this node): copies the rows
 * [t->first, t->first + t->count) into buf (count x row_bytes bytes) and
 * removes them from s. They must be s's first rows when sent up (t->to <
 * t->from), its last ones when sent down; a strip that gives all its rows
 * stays where they were sent from (up: after them; down: before them).
 * Returns SCHED_OK, or SCHED_EINVAL (named) when they are not, or when
 * s->row_bytes is 0. */
int strips_node_take(strips_node *s, const strips_transfer *t, void *buf, sched_err *err);
/* The receiver's side (t->to is this node): adds the rows from buf just
 * below s's last row when they come from below (t->from > t->to), just
 * above its first row when from above. Returns SCHED_OK, SCHED_EINVAL
 * (named) when they do not join s there, would make s more than
 * STRIPS_MAX_ROWS rows, or s->row_bytes is 0, or SCHED_ENOMEM (s
 * unchanged). s->data may move: pointers into it are stale after a put. */
int strips_node_put(strips_node *s, const strips_transfer *t, const void *buf,
                    sched_err *err);
/* Frees s's rows: s is left an empty strip at the same first. */
void strips_node_free(strips_node *s);

#endif
