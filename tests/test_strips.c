/* test_strips.c: rows in contiguous strips over P nodes
 * (sched/strips/strips.h): even cuts and re-cut transfers worked by hand;
 * random re-cuts carried out on the rows' owners (rows conserved, strips
 * contiguous and in node order, each >= 1 at the end, one-port rounds); every
 * load-balancing strategy's plans read as re-cuts; one node's strip of opaque
 * rows (3 and 24 bytes a row, and random widths) through take and put; and the
 * errors, each naming the bad value. Random cases from GSL's mt19937 with fixed
 * seeds. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "sched/strips/strips.h"
#include "tests/test.h"

/* ---- helpers ---------------------------------------------------------------- */

static int uniform_int(gsl_rng *rng, int lo, int hi)       /* lo .. hi */
{
    return lo + (int)gsl_rng_uniform_int(rng, (unsigned long)(hi - lo + 1));
}

/* P random counts >= 1 summing to n (P <= n). */
static void random_counts(gsl_rng *rng, int n, int P, int *count)
{
    for (int i = 0; i < P; i++)
        count[i] = 1;
    for (int k = P; k < n; k++)
        count[uniform_int(rng, 0, P - 1)]++;
}

/* Row r's bytes, rb of them: byte k is (7 r + 13 k + 1) mod 256, so rows
 * and their bytes differ from their neighbours'. */
static void fill_rows(unsigned char *buf, int first, int count, size_t rb)
{
    for (int r = 0; r < count; r++)
        for (size_t k = 0; k < rb; k++)
            buf[(size_t)r * rb + k] = (unsigned char)(7 * (first + r) + 13 * k + 1);
}

/* 1 when buf holds rows first .. first + count - 1 as fill_rows makes them. */
static int holds_rows(const unsigned char *buf, int first, int count, size_t rb)
{
    for (int r = 0; r < count; r++)
        for (size_t k = 0; k < rb; k++)
            if (buf[(size_t)r * rb + k] != (unsigned char)(7 * (first + r) + 13 * k + 1))
                return 0;
    return 1;
}

/* ---- even cuts ---------------------------------------------------------------- */

static void test_even(gsl_rng *rng)
{
    sched_err err;
    int count[STRIPS_MAX_NODES];
    /* By hand: 10 = 3 + 3 + 2 + 2 (10 / 4 = 2 each, the first 10 % 4 = 2 one
     * more); 7 rows in 7 strips: one each; 1 row in 1 strip. */
    test_cond("10 rows in 4 strips: 3 3 2 2", strips_even(10, 4, count, &err) == SCHED_OK &&
              count[0] == 3 && count[1] == 3 && count[2] == 2 && count[3] == 2);
    int ones = strips_even(7, 7, count, &err) == SCHED_OK;
    for (int i = 0; i < 7; i++)
        ones &= count[i] == 1;
    test_cond("7 rows in 7 strips: a row each", ones);
    test_cond("1 row in 1 strip: 1", strips_even(1, 1, count, &err) == SCHED_OK &&
                                     count[0] == 1);
    int ok = 1;
    for (int c = 0; c < 500; c++) {
        int rows = uniform_int(rng, 1, c < 400 ? 100 : STRIPS_MAX_ROWS);
        int P = uniform_int(rng, 1, rows < STRIPS_MAX_NODES ? rows : STRIPS_MAX_NODES);
        long sum = 0;
        ok &= strips_even(rows, P, count, &err) == SCHED_OK;
        for (int i = 0; i < P; i++) {
            sum += count[i];
            ok &= count[i] >= 1 && count[i] - count[P - 1] <= 1 &&
                  (i == 0 || count[i] <= count[i - 1]);
        }
        ok &= sum == rows;
    }
    test_cond("500 random even cuts: each >= 1, the total, non-increasing, within one row",
              ok);

    int rc = strips_even(10, 11, count, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "strips=11 must be in 1..10"),
               "11 strips of 10 rows: '%s'", err.msg);
    rc = strips_even(10, 0, count, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "strips=0 must be in 1..10"),
               "0 strips: '%s'", err.msg);
    rc = strips_even(5000, STRIPS_MAX_NODES + 1, count, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "strips=1025 must be in 1..1024"),
               "1025 strips: '%s'", err.msg);
    rc = strips_even(0, 1, count, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "rows=0 must be in 1..65536"),
               "0 rows: '%s'", err.msg);
    rc = strips_even(STRIPS_MAX_ROWS + 1, 4, count, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "rows=65537 must be in 1..65536"),
               "65537 rows: '%s'", err.msg);
}

/* ---- transfers ------------------------------------------------------------------ */

/* Carries out transfers on the rows' owners and checks everything the
 * header promises. Returns 1 when all holds. */
static int check_transfers(int P, const int *count, const int *target, const strips_transfer *t,
                           int n, char *why, size_t len)
{
    int rows = 0;
    for (int i = 0; i < P; i++)
        rows += count[i];
    int *owner = malloc((size_t)rows * sizeof *owner);
    int *start = malloc((size_t)rows * sizeof *start);   /* owners at the round's start */
    unsigned char used[STRIPS_MAX_NODES], crossed[STRIPS_MAX_NODES] = {0};
    int ok = 1;
    for (int i = 0, r = 0; i < P; i++)
        for (int k = 0; k < count[i]; k++)
            owner[r++] = i;
    memcpy(start, owner, (size_t)rows * sizeof *owner);
    memset(used, 0, sizeof used);
#define NO(...) do { snprintf(why, len, __VA_ARGS__); ok = 0; goto out; } while (0)
    if (n < 0 || n > P - 1)
        NO("%d transfers for %d nodes", n, P);
    for (int m = 0; m < n; m++) {
        const strips_transfer *x = &t[m];
        if (m == 0 ? x->round != 0 : x->round != t[m - 1].round &&
                                     x->round != t[m - 1].round + 1)
            NO("transfer %d: round %d after round %d", m, x->round, m ? t[m - 1].round : -1);
        if (m > 0 && x->round != t[m - 1].round) {
            memcpy(start, owner, (size_t)rows * sizeof *owner);
            memset(used, 0, sizeof used);
        }
        if (x->from < 0 || x->from >= P || x->to < 0 || x->to >= P ||
            abs(x->from - x->to) != 1)
            NO("transfer %d: %d -> %d are not neighbours", m, x->from, x->to);
        if (used[x->from] || used[x->to])
            NO("transfer %d: node %d or %d twice in round %d", m, x->from, x->to, x->round);
        used[x->from] = used[x->to] = 1;
        int b = x->from < x->to ? x->from : x->to;
        if (crossed[b]++)
            NO("transfer %d: boundary %d crossed twice", m, b);
        if (x->count < 1 || x->first < 0 || x->first + x->count > rows)
            NO("transfer %d: rows %d+%d", m, x->first, x->count);
        for (int r = x->first; r < x->first + x->count; r++)
            if (start[r] != x->from || owner[r] != x->from)
                NO("transfer %d: row %d is node %d's, not %d's", m, r, owner[r], x->from);
        for (int r = x->first; r < x->first + x->count; r++)
            owner[r] = x->to;
        for (int r = 0; r + 1 < rows; r++)         /* contiguous, in node order */
            if (owner[r] > owner[r + 1])
                NO("after transfer %d: row %d is node %d's, row %d node %d's", m, r,
                   owner[r], r + 1, owner[r + 1]);
    }
    for (int i = 0, r = 0; i < P; i++)
        for (int k = 0; k < target[i]; k++, r++)
            if (owner[r] != i)
                NO("at the end row %d is node %d's, not %d's", r, owner[r], i);
out:
#undef NO
    free(owner);
    free(start);
    return ok;
}

static void test_transfers(gsl_rng *rng)
{
    strips_transfer t[STRIPS_MAX_NODES];
    sched_err err;
    char why[200];

    /* Worked by hand. 1,1,4 -> 4,1,1: boundaries 1,2 -> 4,5; node 1 holds
     * only row 1, so rows 2..4 first come up from node 2 (round 0), then
     * rows 1..3 go on to node 0 (round 1). */
    int c1[] = {1, 1, 4}, g1[] = {4, 1, 1};
    int n = strips_transfers(3, c1, g1, t, &err);
    test_cond("1,1,4 -> 4,1,1: 2->1 rows 2..4 (round 0), then 1->0 rows 1..3 (round 1)",
              n == 2 && t[0].from == 2 && t[0].to == 1 && t[0].first == 2 &&
              t[0].count == 3 && t[0].round == 0 && t[1].from == 1 && t[1].to == 0 &&
              t[1].first == 1 && t[1].count == 3 && t[1].round == 1);
    /* 3,3,3,3 -> 2,4,4,2: boundary 0 3 -> 2 (row 2 down, 0->1), boundary 2
     * 9 -> 10 (row 9 up, 3->2): independent, one round. */
    int c2[] = {3, 3, 3, 3}, g2[] = {2, 4, 4, 2};
    n = strips_transfers(4, c2, g2, t, &err);
    test_cond("3,3,3,3 -> 2,4,4,2: 0->1 row 2 and 3->2 row 9, both in round 0",
              n == 2 && t[0].from == 0 && t[0].to == 1 && t[0].first == 2 &&
              t[0].count == 1 && t[1].from == 3 && t[1].to == 2 && t[1].first == 9 &&
              t[1].count == 1 && t[0].round == 0 && t[1].round == 0);
    /* A chain: 1,1,1,1,4 -> 4,1,1,1,1 moves every boundary up by 3 and each
     * needs the next first: 4 rounds, 12 rows sent for 3 that end elsewhere. */
    int c3[] = {1, 1, 1, 1, 4}, g3[] = {4, 1, 1, 1, 1};
    n = strips_transfers(5, c3, g3, t, &err);
    test_cond("1,1,1,1,4 -> 4,1,1,1,1: 4 transfers of 3 rows in 4 rounds, from the bottom",
              n == 4 && t[0].from == 4 && t[3].to == 0 && t[3].round == 3 &&
              t[0].count == 3 && t[3].count == 3 && t[3].first == 1);
    n = strips_transfers(3, c1, c1, t, &err);
    test_cond("no change: no transfer", n == 0);
    n = strips_transfers(1, c1 + 2, c1 + 2, t, &err);
    test_cond("one strip: no transfer", n == 0);
    /* Every boundary moving, none needing another (2,4,6,8 -> 1,5,7,9): the
     * even boundaries, then the odd ones. */
    int c4[] = {2, 2, 2, 2, 2}, g4[] = {1, 4, 2, 2, 1};
    n = strips_transfers(5, c4, g4, t, &err);
    test_cond("2,2,2,2,2 -> 1,4,2,2,1: 4 transfers in 2 rounds, boundaries 0 2 then 1 3",
              n == 4 && t[0].round == 0 && t[1].round == 0 && t[2].round == 1 &&
              t[3].round == 1 && t[0].from == 0 && t[1].from == 3 && t[2].from == 2 &&
              t[3].from == 4 &&
              check_transfers(5, c4, g4, t, n, why, sizeof why));

    /* Random re-cuts, carried out on the owners of the rows: 2500 small
     * (up to 40 rows, 12 strips), 500 large (up to 3000 rows, 300 strips). */
    int ok = 1, cases = 0;
    static int count[STRIPS_MAX_NODES], target[STRIPS_MAX_NODES];
    for (int c = 0; c < 3000; c++) {
        int small = c < 2500, maxp = small ? 12 : 300;
        int rows = uniform_int(rng, 1, small ? 40 : 3000);
        int P = uniform_int(rng, 1, rows < maxp ? rows : maxp);
        random_counts(rng, rows, P, count);
        random_counts(rng, rows, P, target);
        n = strips_transfers(P, count, target, t, &err);
        if (!check_transfers(P, count, target, t, n, why, sizeof why)) {
            if (ok)
                printf("     case %d (P %d, %d rows): %s\n", c, P, rows, why);
            ok = 0;
        }
        cases++;
    }
    test_condf(ok, "%d random re-cuts: rows conserved, strips contiguous and in order, "
               "every transfer's rows its sender's, one-port rounds, the targets reached",
               cases);
}


static void test_transfer_errors(void)
{
    sched_err err;
    strips_transfer t[4];
    int c[3] = {2, 2, 2}, z[3] = {3, 0, 3}, more[3] = {3, 2, 2};
    int rc = strips_transfers(3, c, z, t, &err);
    test_condf(rc == -1 && err.code == SCHED_EINVAL &&
               strstr(err.msg, "target[1]=0 must be in 1..65536"), "a target of 0: '%s'",
               err.msg);
    rc = strips_transfers(3, z, c, t, &err);
    test_condf(rc == -1 && strstr(err.msg, "count[1]=0"), "a count of 0: '%s'", err.msg);
    rc = strips_transfers(3, c, more, t, &err);
    test_condf(rc == -1 && strstr(err.msg, "the targets sum to 7 rows, the counts to 6"),
               "totals that differ: '%s'", err.msg);
    rc = strips_transfers(0, c, c, t, &err);
    test_condf(rc == -1 && strstr(err.msg, "strips=0 must be in 1..1024"), "0 strips: '%s'",
               err.msg);
    int big[2] = {STRIPS_MAX_ROWS, 1};
    rc = strips_transfers(2, big, big, t, &err);
    test_condf(rc == -1 && strstr(err.msg, "the counts sum to more than 65536 rows"),
               "65537 rows in all: '%s'", err.msg);
    rc = strips_transfers(3, NULL, c, t, &err);
    test_condf(rc == -1 && strstr(err.msg, "no counts given"), "no counts: '%s'",
               err.msg);
}

/* ---- plans as re-cuts ---------------------------------------------------------------- */

static void test_from_plan(gsl_rng *rng)
{
    sched_err err;
    int target[8];
    /* By hand: a plan sending 3 tasks from node 0 to node 3 (5,2,2,2 ->
     * 2,2,2,5) becomes three boundary shifts, the rows handed on through
     * nodes 1 and 2: 3 transfers of 3 rows, 9 rows sent for 3 moved. */
    long rem[4] = {5, 2, 2, 2}, after[4] = {2, 2, 2, 5};
    lb_plan plan = {.nodes = 4, .remaining = rem, .after = after};
    int count[4] = {5, 2, 2, 2};
    int rc = strips_from_plan(&plan, 4, count, target, &err);
    test_cond("plan 5,2,2,2 -> 2,2,2,5: the targets are after[]",
              rc == SCHED_OK && target[0] == 2 && target[3] == 5);
    strips_transfer t[4];
    int n = strips_transfers(4, count, target, t, &err);
    test_cond("... 0->3 becomes 0->1, 1->2, 2->3 of 3 rows each, in 3 rounds",
              n == 3 && t[0].from == 0 && t[0].to == 1 && t[0].first == 2 &&
              t[1].from == 1 && t[1].to == 2 && t[1].first == 4 && t[2].from == 2 &&
              t[2].to == 3 && t[2].first == 6 && t[0].count + t[1].count + t[2].count == 9 &&
              t[2].round == 2);
    /* A node the plan empties keeps a row, taken from the node with the most
     * (the lower index on a tie): 0,5,8 -> node 2 gives one: 1,5,7. */
    long rem2[3] = {4, 4, 5}, after2[3] = {0, 5, 8};
    lb_plan plan2 = {.nodes = 3, .remaining = rem2, .after = after2};
    int count2[3] = {4, 4, 5};
    rc = strips_from_plan(&plan2, 3, count2, target, &err);
    test_cond("after 0,5,8 -> targets 1,5,7 (a row from the node with the most)",
              rc == SCHED_OK && target[0] == 1 && target[1] == 5 && target[2] == 7);
    long after3[3] = {0, 0, 13};
    plan2.after = after3;
    rc = strips_from_plan(&plan2, 3, count2, target, &err);
    test_cond("after 0,0,13 -> 1,1,11", rc == SCHED_OK && target[0] == 1 &&
                                        target[1] == 1 && target[2] == 11);
    /* A tie for the most: 0,6,6 -> node 1 gives (the lower index): 1,5,6. */
    long rem5[3] = {4, 4, 4}, after5[3] = {0, 6, 6};
    lb_plan plan5 = {.nodes = 3, .remaining = rem5, .after = after5};
    int count5[3] = {4, 4, 4};
    rc = strips_from_plan(&plan5, 3, count5, target, &err);
    test_cond("after 0,6,6 -> 1,5,6 (a tie for the most: the lower index gives)",
              rc == SCHED_OK && target[0] == 1 && target[1] == 5 && target[2] == 6);

    /* Errors: the plan must be of these strips. */
    int bad[3] = {4, 5, 4};
    rc = strips_from_plan(&plan2, 3, bad, target, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "remaining[1]=4 is not strip 1's 5 rows"),
               "a plan made from other counts: refused, named (%s)", err.msg);
    rc = strips_from_plan(&plan, 3, count2, target, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "4 nodes, the strips 3"),
               "a plan of 4 nodes for 3 strips: refused (%s)", err.msg);
    long after4[3] = {0, 0, 12};
    plan2.after = after4;
    rc = strips_from_plan(&plan2, 3, count2, target, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "sums to 12 rows, the strips hold 13"),
               "a plan whose after[] loses a row: refused (%s)", err.msg);
    rc = strips_from_plan(NULL, 3, count2, target, &err);
    test_cond("no plan: refused", rc == SCHED_EINVAL);

    /* Every strategy's plans on random strips and rates: the targets are
     * >= 1 (1 exactly where the plan empties a node), at most after[i]
     * elsewhere, sum to the rows, and the transfers to them check out on
     * the rows' owners. */
    char why[200];
    for (int k = 0; lb_types[k]; k++) {
        const lb_type *T = lb_types[k];
        int ok = 1, cases = 0, emptied = 0;
        long sent = 0;
        for (int c = 0; c < 200; c++) {
            int rows = uniform_int(rng, 2, c < 150 ? 40 : 2000);
            int P = uniform_int(rng, 2, rows < 16 ? rows : 16);
            int cnt[16], tg[16];
            long rm[16], dn[16];
            strips_transfer tr[16];
            random_counts(rng, rows, P, cnt);
            for (int i = 0; i < P; i++) {
                rm[i] = cnt[i];
                dn[i] = uniform_int(rng, 0, 3) ? uniform_int(rng, 1, 50) : 0;
            }
            lb_input in = {.nodes = P, .remaining = rm, .done = dn, .elapsed = 1.0,
                           .cost = gsl_rng_uniform(rng) * 0.01};
            lb_plan *pl = lb_plan_make(T, &in, &err);
            if (!pl || strips_from_plan(pl, P, cnt, tg, &err) != SCHED_OK) {
                printf("     %s, case %d: %s\n", T->name, c, err.msg);
                ok = 0;
                lb_plan_free(pl);
                break;
            }
            int sum = 0;
            for (int i = 0; i < P; i++) {
                ok &= pl->after[i] == 0 ? tg[i] == 1 : tg[i] >= 1 && tg[i] <= pl->after[i];
                emptied += pl->after[i] == 0;
                sum += tg[i];
            }
            ok &= sum == rows;
            n = strips_transfers(P, cnt, tg, tr, &err);
            if (!check_transfers(P, cnt, tg, tr, n, why, sizeof why)) {
                if (ok)
                    printf("     %s, case %d: %s\n", T->name, c, why);
                ok = 0;
            }
            for (int m = 0; m < n; m++)
                sent += tr[m].count;
            lb_plan_free(pl);
            cases++;
        }
        test_condf(ok, "%d %s plans as re-cuts: targets >= 1 summing to the rows, the "
                   "transfers check out (%ld rows sent, %d nodes emptied by the plan kept "
                   "a row)", cases, T->name, sent, emptied);
    }
}

/* ---- one node's strip ------------------------------------------------------------ */

/* The header's take and put, worked by hand on rows of rb bytes: a strip of
 * rows 4..7, rows taken off either edge and put back on either, emptied and
 * refilled. */
static void test_node_known(size_t rb)
{
    sched_err err;
    unsigned char buf[8 * 24], rows[8 * 24];
    strips_node s = {.first = 4, .row_bytes = rb};
    strips_transfer in = {2, 1, 4, 4, 0};
    fill_rows(rows, 4, 4, rb);
    test_condf(strips_node_put(&s, &in, rows, &err) == SCHED_OK && s.first == 4 &&
               s.rows == 4 && s.cap >= 4 && holds_rows(s.data, 4, 4, rb),
               "%zu-byte rows: rows 4..7 put into an empty strip at row 4", rb);
    strips_transfer mid = {1, 0, 5, 2, 0}, up = {1, 0, 4, 1, 0}, down = {1, 2, 6, 2, 0};
    int rc = strips_node_take(&s, &mid, buf, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "rows 5..6 (count=2) are not the first "
                                            "rows of the strip of rows 4..7") &&
               s.first == 4 && s.rows == 4 && holds_rows(s.data, 4, 4, rb),
               "%zu-byte rows: take of rows in the middle refused, the strip unchanged: '%s'",
               rb, err.msg);
    test_condf(strips_node_take(&s, &up, buf, &err) == SCHED_OK && holds_rows(buf, 4, 1, rb) &&
               s.first == 5 && s.rows == 3 && holds_rows(s.data, 5, 3, rb),
               "%zu-byte rows: take row 4 up (its first row): rows 5..7 left", rb);
    test_condf(strips_node_take(&s, &down, buf, &err) == SCHED_OK &&
               holds_rows(buf, 6, 2, rb) && s.first == 5 && s.rows == 1 &&
               holds_rows(s.data, 5, 1, rb),
               "%zu-byte rows: take rows 6..7 down (its last rows): row 5 left", rb);
    strips_transfer back = {2, 1, 6, 2, 0}, gap = {2, 1, 7, 1, 0}, top = {0, 1, 3, 2, 0};
    rc = strips_node_put(&s, &gap, buf, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "rows 7..7 (count=1) do not join the "
                                            "strip of rows 5..5 from below"),
               "%zu-byte rows: put with a gap refused: '%s'", rb, err.msg);
    test_condf(strips_node_put(&s, &back, buf, &err) == SCHED_OK && s.first == 5 &&
               s.rows == 3 && holds_rows(s.data, 5, 3, rb),
               "%zu-byte rows: put rows 6..7 back from below: rows 5..7", rb);
    fill_rows(rows, 3, 2, rb);
    test_condf(strips_node_put(&s, &top, rows, &err) == SCHED_OK && s.first == 3 &&
               s.rows == 5 && s.cap >= 5 && holds_rows(s.data, 3, 5, rb),
               "%zu-byte rows: put rows 3..4 from above (the strip grows): rows 3..7", rb);
    strips_transfer all = {1, 2, 3, 5, 0};
    test_condf(strips_node_take(&s, &all, buf, &err) == SCHED_OK && s.rows == 0 &&
               s.first == 3 && holds_rows(buf, 3, 5, rb),
               "%zu-byte rows: take all rows down: an empty strip at row 3, before them", rb);
    strips_transfer refill = {0, 1, 1, 2, 0}, upall = {1, 0, 1, 2, 0};
    fill_rows(rows, 1, 2, rb);
    test_condf(strips_node_put(&s, &refill, rows, &err) == SCHED_OK && s.first == 1 &&
               s.rows == 2 && holds_rows(s.data, 1, 2, rb),
               "%zu-byte rows: an empty strip takes rows 1..2 from above that end at its place",
               rb);
    test_condf(strips_node_take(&s, &upall, buf, &err) == SCHED_OK && s.rows == 0 &&
               s.first == 3 && holds_rows(buf, 1, 2, rb),
               "%zu-byte rows: take all rows up: an empty strip at row 3, after them", rb);
    strips_node_free(&s);
    test_cond("strips_node_free: no rows, no data", s.data == NULL && s.rows == 0 &&
                                                   s.cap == 0 && s.first == 3);
}

/* Random re-cuts carried out on P nodes' strips of rows of random widths,
 * each node doing its part of the list in order, as the runtime's workers
 * do: after each re-cut every node holds its target's rows, their bytes
 * intact. */
static void test_node_recuts(gsl_rng *rng)
{
    sched_err err;
    int ok = 1, cases = 0, recuts = 0;
    long sent = 0;
    for (int c = 0; c < 400 && ok; c++) {
        size_t rb = (size_t)uniform_int(rng, 1, 40);
        int rows = uniform_int(rng, 1, 200), P = uniform_int(rng, 1, rows < 12 ? rows : 12);
        int count[12], target[12];
        strips_node node[12];
        strips_transfer t[12];
        unsigned char *buf = malloc((size_t)rows * rb);
        random_counts(rng, rows, P, count);
        fill_rows(buf, 0, rows, rb);
        for (int i = 0, first = 0; i < P; first += count[i], i++) {
            strips_transfer in = {i + 1, i, first, count[i], 0};
            node[i] = (strips_node){.first = first, .row_bytes = rb};
            ok &= strips_node_put(&node[i], &in, buf + (size_t)first * rb, &err) == SCHED_OK;
        }
        for (int k = 0; k < 3 && ok; k++) {
            random_counts(rng, rows, P, target);
            int n = strips_transfers(P, count, target, t, &err);
            ok &= n >= 0;
            for (int m = 0; m < n && ok; m++) {
                ok &= strips_node_take(&node[t[m].from], &t[m], buf, &err) == SCHED_OK &&
                      strips_node_put(&node[t[m].to], &t[m], buf, &err) == SCHED_OK;
                sent += t[m].count;
            }
            for (int i = 0, first = 0; i < P && ok; first += target[i], i++)
                ok &= node[i].first == first && node[i].rows == target[i] &&
                      holds_rows(node[i].data, first, target[i], rb);
            if (!ok)
                printf("     case %d, re-cut %d (P %d, %d rows of %zu bytes): %s\n", c, k, P,
                       rows, rb, err.msg);
            memcpy(count, target, sizeof count);
            recuts++;
        }
        for (int i = 0; i < P; i++)
            strips_node_free(&node[i]);
        free(buf);
        cases++;
    }
    test_condf(ok, "%d random re-cuts of %d random strip sets (rows of 1..40 bytes) carried "
               "out with take and put: every node holds its target's rows, bytes intact (%ld "
               "rows sent)", recuts, cases, sent);
}

static void test_node_errors(void)
{
    sched_err err;
    unsigned char buf[8] = {0};
    strips_node z = {.first = 0};
    strips_transfer one = {1, 0, 0, 1, 0};
    int rc = strips_node_put(&z, &one, buf, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "row_bytes=0 must be >= 1"),
               "put into a strip of row_bytes 0: '%s'", err.msg);
    rc = strips_node_take(&z, &one, buf, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "row_bytes=0 must be >= 1"),
               "take from a strip of row_bytes 0: '%s'", err.msg);
    strips_node e = {.first = 0, .row_bytes = 1};
    strips_transfer over = {1, 0, 0, STRIPS_MAX_ROWS + 1, 0};
    rc = strips_node_put(&e, &over, buf, &err);
    test_condf(rc == SCHED_EINVAL && e.rows == 0 && e.data == NULL &&
               strstr(err.msg, "count=65537 rows would make the strip of 0 rows more than "
                               "65536"), "put of 65537 rows: '%s'", err.msg);
    strips_transfer none = {1, 0, 0, 0, 0};
    rc = strips_node_put(&e, &none, buf, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "(count=0) do not join"),
               "put of 0 rows: '%s'", err.msg);
    rc = strips_node_take(&e, &one, buf, &err);
    test_condf(rc == SCHED_EINVAL && strstr(err.msg, "rows 0..0 (count=1) are not the first "
                                            "rows of the strip of rows 0..-1"),
               "take from an empty strip: '%s'", err.msg);
    /* Rows too wide to hold two of: 2^63 bytes each on a 64-bit host (two
     * of them would wrap size_t to 0). */
    strips_node h = {.first = 0, .row_bytes = SIZE_MAX / 2 + 1};
    strips_transfer two = {1, 0, 0, 2, 0};
    rc = strips_node_put(&h, &two, buf, &err);
    test_condf(rc == SCHED_ENOMEM && h.rows == 0 && h.cap == 0 && h.data == NULL &&
               strstr(err.msg, "out of memory for a strip of 2 rows"),
               "put that cannot be held: SCHED_ENOMEM, the strip unchanged: '%s'", err.msg);
}

/* strips_drop by hand (sched/strips/strips.h's rule: a lost run between two
 * survivors split, the upper half rounded up to the one above; at an edge,
 * whole to the one next to it), then its invariants on random cuts. */
static void test_drop(gsl_rng *rng)
{
    sched_err err;
    int out[8];
    int c4[4] = {3, 3, 3, 3};
    int l1[4] = {0, 1, 0, 0}, l0[4] = {1, 0, 0, 0}, l3[4] = {0, 0, 0, 1},
        l12[4] = {0, 1, 1, 0}, l012[4] = {1, 1, 1, 0}, lall[4] = {1, 1, 1, 1},
        none[4] = {0};
    test_cond("3,3,3,3 losing node 1: 5,4,3", strips_drop(4, c4, l1, out, &err) == 3 &&
              out[0] == 5 && out[1] == 4 && out[2] == 3);
    test_cond("3,3,3,3 losing node 0 (the top edge): 6,3,3",
              strips_drop(4, c4, l0, out, &err) == 3 && out[0] == 6 && out[1] == 3 &&
              out[2] == 3);
    test_cond("3,3,3,3 losing node 3 (the bottom edge): 3,3,6",
              strips_drop(4, c4, l3, out, &err) == 3 && out[0] == 3 && out[1] == 3 &&
              out[2] == 6);
    test_cond("3,3,3,3 losing nodes 1 and 2: 6,6", strips_drop(4, c4, l12, out, &err) == 2 &&
              out[0] == 6 && out[1] == 6);
    test_cond("3,3,3,3 losing nodes 0..2: 12", strips_drop(4, c4, l012, out, &err) == 1 &&
              out[0] == 12);
    test_cond("3,3,3,3 losing none: 3,3,3,3", strips_drop(4, c4, none, out, &err) == 4 &&
              out[0] == 3 && out[3] == 3);
    int c3[3] = {2, 5, 2}, m1[3] = {0, 1, 0};
    test_cond("2,5,2 losing node 1: 5,4 (3 of its 5 rows up, 2 down)",
              strips_drop(3, c3, m1, out, &err) == 2 && out[0] == 5 && out[1] == 4);
    int rc = strips_drop(4, c4, lall, out, &err);
    test_condf(rc == -1 && err.code == SCHED_EINVAL &&
               strstr(err.msg, "every one of the 4 nodes lost"), "all lost refused: '%s'",
               err.msg);
    int bad[2] = {3, 0};
    rc = strips_drop(2, bad, l1, out, &err);
    test_condf(rc == -1 && strstr(err.msg, "count[1]=0"), "a count of 0 refused: '%s'",
               err.msg);
    /* Random: the rows kept, every survivor's rows kept, the lost rows only
     * to a survivor next to them (the ones just above or below the run). */
    int ok = 1;
    for (int k = 0; k < 2000 && ok; k++) {
        int P = 1 + (int)gsl_rng_uniform_int(rng, 8), count[8], lost[8], total = 0, alive = 0;
        for (int i = 0; i < P; i++) {
            count[i] = 1 + (int)gsl_rng_uniform_int(rng, 20);
            lost[i] = gsl_rng_uniform(rng) < 0.4;
            total += count[i];
            alive += !lost[i];
        }
        int n = strips_drop(P, count, lost, out, &err);
        if (alive == 0) {
            ok = n == -1;
            continue;
        }
        int sum = 0, j = 0;
        for (int i = 0; i < n; i++)
            sum += out[i];
        ok = n == alive && sum == total;
        for (int i = 0; i < P && ok; i++)
            if (!lost[i]) {
                /* its rows at least, and no more than its own plus the lost
                 * runs on its two sides */
                int more = 0;
                for (int a = i - 1; a >= 0 && lost[a]; a--)
                    more += count[a];
                for (int b = i + 1; b < P && lost[b]; b++)
                    more += count[b];
                ok = out[j] >= count[i] && out[j] <= count[i] + more;
                j++;
            }
    }
    test_cond("2000 random losses: the rows kept, each survivor's own kept, the lost ones "
              "only to a survivor beside them", ok);
}

int main(void)
{
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(rng, 20240611);
    test_even(rng);
    test_transfers(rng);
    test_transfer_errors();
    test_from_plan(rng);
    test_node_known(3);
    test_node_known(24);
    test_node_recuts(rng);
    test_node_errors();
    test_drop(rng);
    gsl_rng_free(rng);
    return test_report();
}
