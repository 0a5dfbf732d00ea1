/* tree.c: Tree-Scheduling (Kim & Purtilo, "Load balancing for parallel loops
 * in workstation clusters", ICPP 1996), the pieces that are policy.
 *
 * What the papers say: Xu & Chronopoulos Sec. 3.3: "They establish a
 * (virtual) linear topology according to the workstation's static speed.
 * Then load migration is only necessary between neighbors in one direction.
 * The (virtual) topology is constructed through a binary tree"; the scheme is
 * static ("the situation where a workstation's load may change during
 * program execution was not considered"). Díaz et al. Sec. 2 (TREES): "a
 * distributed load balancing scheme that statically arranges the processors
 * in a logical communication topology based on the computing powers of the
 * processors involved. When a processor becomes idle, it asks for work from a
 * single, predefined partner, which migrates half its work to the idle
 * processor."
 *
 * Our reading, as implemented (the messages are in worker/):
 *  1. The iterations are split once, in proportion to the static speeds V_i
 *     (no load measurement), into contiguous ranges (tree_split).
 *  2. The workers form a linear chain sorted by decreasing V_i (the in-order
 *     walk of a binary tree built on the speeds is such a sorted chain; we
 *     use the sorted chain directly) (tree_chain).
 *  3. An idle worker asks its single predefined partner, its neighbour one
 *     step down the chain (the next slower worker), worker to worker; the
 *     partner gives half of its remaining iterations, the upper half of its
 *     range (tree_give). Migration thus runs in one direction only, from
 *     slower to faster workers; the slowest worker has no partner, and no
 *     one takes work from the fastest.
 *  4. A partner with nothing to give says so, and the idle worker tells the
 *     master it is idle.
 *  5. Faults (not in the papers): a worker that dies takes its range with
 *     it. The master keeps the ranges it has received (tree_result refuses
 *     a range that is partly done: every iteration counts once), and once
 *     every live worker is idle -- nothing is in flight then, since a
 *     worker sends its results before it asks its partner -- it serves the
 *     missing ranges again, the first missing range to the first idle
 *     worker and so on (tree_recover). A worker serving such a range answers
 *     its partner's requests from it like from its own.
 * This reading reproduces what Xu & Chronopoulos report in their Table 2 (b):
 * with the fastest workstation W4 loaded, W1-W3 finish at 11-12 s while W4
 * needs 86 s, i.e. none of W4's work migrated. A ring (the last asking the
 * first) or asking further partners would have moved W4's work to the
 * others; we do not do that.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sched/loop/policy.h"
#include "sched/sched.h"
#include "sched/util/conv.h"

typedef struct span { long start, size; int worker; } span;

struct tree {
    long I, done;
    int n, live;
    int *chain;
    double *V;                  /* the speeds (tree_resume splits again) */
    long *start, *size;         /* the initial ranges */
    char *alive, *idle;
    span *got;                  /* ranges received, sorted by start, merged */
    long ngot, capgot;
    span *again;                /* ranges being served again (worker = who) */
    long nagain, capagain;
    span *queued;               /* resumed: pieces held by no one yet, sorted */
    long nqueued;               /* by start (worker = whose share) */
    int resumed;
};

void tree_free(tree *t)
{
    if (!t)
        return;
    free(t->chain);
    free(t->V);
    free(t->start);
    free(t->size);
    free(t->alive);
    free(t->idle);
    free(t->got);
    free(t->again);
    free(t->queued);
    free(t);
}

/* The split of 'count' iterations: in proportion to V, the few left by
 * rounding down going one each to the workers with the largest remainders
 * (ties: chain order); size[w] for worker w. */
static void split_sizes(const tree *t, long count, long *size)
{
    const double *V = t->V;
    double total = 0;
    for (int i = 0; i < t->n; i++)
        total += V[i];
    long given = 0;
    for (int i = 0; i < t->n; i++) {
        /* count times a fraction in [0, 1]: 0..count (a NaN, from V's
         * overflow, gives 0; the remainders below give the rest) */
        size[i] = conv_clamp((double)count * V[i] / total, 0, count);
        given += size[i];
    }
    while (given < count) {
        int best = t->chain[0];
        double bestrem = -1;
        for (int k = 0; k < t->n; k++) {
            int i = t->chain[k];
            double rem = (double)count * V[i] / total - (double)size[i];
            if (rem > bestrem) {
                bestrem = rem;
                best = i;
            }
        }
        size[best]++;
        given++;
    }
}

/* The initial split: contiguous ranges in chain order. */
static void split(tree *t)
{
    split_sizes(t, t->I, t->size);
    long pos = 0;
    for (int k = 0; k < t->n; k++) {
        t->start[t->chain[k]] = pos;
        pos += t->size[t->chain[k]];
    }
}

tree *tree_new(long I, const double *V, int n, sched_err *err)
{
    if (n < 1 || I < 0) {
        sched_fail(err, SCHED_EINVAL, "tree: %d workers and %ld iterations", n, I);
        return NULL;
    }
    for (int i = 0; i < n; i++)
        if (!(V[i] > 0) || !isfinite(V[i])) {
            sched_fail(err, SCHED_EINVAL, "tree: worker %d has V = %g, must be > 0",
                       i + 1, V[i]);
            return NULL;
        }
    tree *t = calloc(1, sizeof *t);
    sched_rank *r = calloc((size_t)n, sizeof *r);
    if (!t || !r)
        goto nomem;
    t->I = I;
    t->n = t->live = n;
    t->chain = malloc(sizeof *t->chain * (size_t)n);
    t->V = malloc(sizeof *t->V * (size_t)n);
    t->start = malloc(sizeof *t->start * (size_t)n);
    t->size = malloc(sizeof *t->size * (size_t)n);
    t->alive = malloc((size_t)n);
    t->idle = calloc((size_t)n, 1);
    if (!t->chain || !t->V || !t->start || !t->size || !t->alive || !t->idle)
        goto nomem;
    memset(t->alive, 1, (size_t)n);
    for (int i = 0; i < n; i++)
        r[i] = (sched_rank){V[i], i};
    sched_rank_sort(r, (size_t)n);
    for (int i = 0; i < n; i++)
        t->chain[i] = r[i].w;
    free(r);
    memcpy(t->V, V, sizeof *t->V * (size_t)n);
    split(t);
    return t;
nomem:
    free(r);
    tree_free(t);
    sched_fail(err, SCHED_ENOMEM, "tree: out of memory for %d workers", n);
    return NULL;
}

const int *tree_chain(const tree *t) { return t->chain; }

void tree_range(const tree *t, int w, long *start, long *size)
{
    *start = t->start[w];
    *size = t->size[w];
}

int tree_partner(const tree *t, int w)
{
    for (int at = 0; at < t->n - 1; at++)
        if (t->chain[at] == w)
            return t->chain[at + 1];
    return -1;
}

long tree_give(long remaining)
{
    return remaining > 1 ? remaining / 2 : 0;
}

/* The first received range that ends after 'pos' (binary search). */
static long first_after(const tree *t, long pos)
{
    long lo = 0, hi = t->ngot;
    while (lo < hi) {
        long mid = lo + (hi - lo) / 2;
        if (t->got[mid].start + t->got[mid].size <= pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static int grow(span **a, long *cap, long n)
{
    if (n < *cap)
        return 0;
    long c = *cap ? 2 * *cap : 16;
    span *x = realloc(*a, sizeof *x * (size_t)c);
    if (!x)
        return -1;
    *a = x;
    *cap = c;
    return 0;
}

int tree_resume(tree *t, const policy_range *done, long n, sched_err *err)
{
    if (t->resumed || t->done > 0 || t->ngot > 0 || t->nagain > 0 || t->live < t->n)
        return sched_fail(err, SCHED_EINVAL, "tree: resume before any event only, once");
    /* Checked and sorted first (policy.c, as for the other schemes), then
     * everything allocated: nothing changes unless it all succeeds. The
     * gaps are at most n + 1; each worker's share adds at most one piece to
     * the gaps it spans. */
    long sum;
    policy_range *r = policy_done_sorted(done, n, t->I, "tree", &sum, err);
    if (!r)
        return err->code;
    span *got = malloc(sizeof *got * (size_t)(n ? n : 1));
    span *queued = malloc(sizeof *queued * (size_t)(n + 1 + t->n));
    long *share = malloc(sizeof *share * (size_t)t->n);
    if (!got || !queued || !share) {
        free(r);
        free(got);
        free(queued);
        free(share);
        return sched_fail(err, SCHED_ENOMEM, "tree: out of memory for %ld ranges", n);
    }
    long ngot = 0;
    for (long i = 0; i < n; i++)        /* adjacent ranges merged */
        if (ngot > 0 && r[i].start == got[ngot - 1].start + got[ngot - 1].size)
            got[ngot - 1].size += r[i].size;
        else
            got[ngot++] = (span){r[i].start, r[i].size, -1};
    free(r);
    /* The iterations not done, split as if the gaps were one loop; each
     * worker's share walks the gaps in the loop's order, chain order. */
    split_sizes(t, t->I - sum, share);
    long nq = 0, g = 0, pos = 0;            /* g: the next done range after pos */
    for (int k = 0; k < t->n; k++) {
        int w = t->chain[k];
        long need = share[w];
        int first = 1;
        for (; g < ngot && got[g].start <= pos; g++)    /* past done ranges */
            pos = got[g].start + got[g].size;
        t->start[w] = pos;
        t->size[w] = 0;
        while (need > 0) {
            for (; g < ngot && got[g].start <= pos; g++)
                pos = got[g].start + got[g].size;
            long gap_end = g < ngot ? got[g].start : t->I;
            long take = need < gap_end - pos ? need : gap_end - pos;
            if (first) {
                t->start[w] = pos;
                t->size[w] = take;
                first = 0;
            } else {
                queued[nq++] = (span){pos, take, w};
            }
            pos += take;
            need -= take;
        }
    }
    free(share);
    free(t->got);
    t->got = got;
    t->ngot = t->capgot = ngot;             /* (room for n: at least ngot) */
    t->queued = queued;
    t->nqueued = nq;
    t->done = sum;
    t->resumed = 1;
    return SCHED_OK;
}

int tree_result(tree *t, int w, long start, long size, sched_err *err)
{
    if (w < 0 || w >= t->n || start < 0 || size < 1 || start > t->I - size)
        return sched_fail(err, SCHED_EINVAL, "tree: worker %d's range [%ld, %ld) "
                          "is not in the loop", w + 1, start, start + size);
    long i = first_after(t, start);
    if (i < t->ngot && t->got[i].start < start + size)
        return sched_fail(err, SCHED_EINVAL, "tree: worker %d's range [%ld, %ld) "
                          "is done already", w + 1, start, start + size);
    /* A range served again is no longer outstanding once its worker sends
     * what it kept of it (it may have given the rest away). */
    for (long k = 0; k < t->nagain; k++)
        if (t->again[k].worker == w && t->again[k].start <= start &&
            start < t->again[k].start + t->again[k].size) {
            t->again[k] = t->again[--t->nagain];
            break;
        }
    int left = i > 0 && t->got[i - 1].start + t->got[i - 1].size == start;
    int right = i < t->ngot && t->got[i].start == start + size;
    if (left && right) {
        t->got[i - 1].size += size + t->got[i].size;
        memmove(&t->got[i], &t->got[i + 1], sizeof *t->got * (size_t)(t->ngot - i - 1));
        t->ngot--;
    } else if (left) {
        t->got[i - 1].size += size;
    } else if (right) {
        t->got[i].start = start;
        t->got[i].size += size;
    } else {
        if (grow(&t->got, &t->capgot, t->ngot) != 0)
            return sched_fail(err, SCHED_ENOMEM, "tree: out of memory");
        memmove(&t->got[i + 1], &t->got[i], sizeof *t->got * (size_t)(t->ngot - i));
        t->got[i] = (span){start, size, w};
        t->ngot++;
    }
    t->done += size;
    return SCHED_OK;
}

void tree_idle(tree *t, int w)
{
    if (w >= 0 && w < t->n)
        t->idle[w] = 1;
}

void tree_lost(tree *t, int w)
{
    if (w < 0 || w >= t->n || !t->alive[w])
        return;
    t->alive[w] = 0;
    t->live--;
    for (long k = 0; k < t->nagain;)
        if (t->again[k].worker == w)
            t->again[k] = t->again[--t->nagain];
        else
            k++;
}

/* Is pos inside a range being served again, or queued? Returns its end,
 * or -1. (Queued pieces are none by now: an idle worker takes them first.) */
static long again_end(const tree *t, long pos)
{
    for (long k = 0; k < t->nagain; k++)
        if (t->again[k].start <= pos && pos < t->again[k].start + t->again[k].size)
            return t->again[k].start + t->again[k].size;
    for (long k = 0; k < t->nqueued; k++)
        if (t->queued[k].start <= pos && pos < t->queued[k].start + t->queued[k].size)
            return t->queued[k].start + t->queued[k].size;
    return -1;
}

/* Does worker w hold a range served again? */
static int serving(const tree *t, int w)
{
    for (long k = 0; k < t->nagain; k++)
        if (t->again[k].worker == w)
            return 1;
    return 0;
}

/* Resumed: an idle worker takes its own first queued piece, else the first
 * of anyone's (6 at the top). 1 with *out, 0 none, -1 out of memory. */
static int serve_queued(tree *t, policy_chunk *out, sched_err *err)
{
    for (int w = 0; w < t->n && t->nqueued > 0; w++) {
        if (!t->alive[w] || !t->idle[w])
            continue;
        long k = 0;
        for (long q = 0; q < t->nqueued; q++)
            if (t->queued[q].worker == w) {
                k = q;
                break;
            }
        if (grow(&t->again, &t->capagain, t->nagain) != 0)
            return sched_fail(err, SCHED_ENOMEM, "tree: out of memory"), -1;
        span s = t->queued[k];
        memmove(&t->queued[k], &t->queued[k + 1],
                sizeof *t->queued * (size_t)(t->nqueued - k - 1));
        t->nqueued--;
        t->again[t->nagain++] = (span){s.start, s.size, w};
        t->idle[w] = 0;
        *out = (policy_chunk){.worker = w, .start = s.start, .size = s.size};
        return 1;
    }
    return 0;
}

int tree_recover(tree *t, policy_chunk *out, sched_err *err)
{
    if (t->done == t->I || t->live == 0)
        return 0;
    int q = serve_queued(t, out, err);
    if (q != 0)
        return q;
    int w = -1;
    for (int i = 0; i < t->n; i++) {
        if (!t->alive[i])
            continue;
        if (!t->idle[i] && !serving(t, i))
            return 0;                   /* someone still works on its own */
        if (t->idle[i] && w < 0)
            w = i;
    }
    if (w < 0)
        return 0;
    /* The first position neither received nor being served again. */
    long pos = 0, i = 0;
    for (;;) {
        while (i < t->ngot && t->got[i].start + t->got[i].size <= pos)
            i++;
        if (i < t->ngot && t->got[i].start <= pos) {
            pos = t->got[i].start + t->got[i].size;
            continue;
        }
        long e = again_end(t, pos);
        if (e < 0)
            break;
        pos = e;
    }
    if (pos >= t->I)
        return 0;                       /* all missing ranges are out again */
    long end = i < t->ngot ? t->got[i].start : t->I;
    for (long k = 0; k < t->nagain; k++)        /* stop before the next one */
        if (t->again[k].start > pos && t->again[k].start < end)
            end = t->again[k].start;
    for (long k = 0; k < t->nqueued; k++)
        if (t->queued[k].start > pos && t->queued[k].start < end)
            end = t->queued[k].start;
    if (grow(&t->again, &t->capagain, t->nagain) != 0)
        return sched_fail(err, SCHED_ENOMEM, "tree: out of memory"), -1;
    t->again[t->nagain++] = (span){pos, end - pos, w};
    t->idle[w] = 0;
    *out = (policy_chunk){.worker = w, .start = pos, .size = end - pos, .reissue = 1};
    return 1;
}

int tree_finished(const tree *t) { return t->done == t->I; }
long tree_remaining(const tree *t) { return t->I - t->done; }
int tree_alive(const tree *t) { return t->live; }
int tree_busy(const tree *t, int w) { return w >= 0 && w < t->n && t->alive[w] && !t->idle[w]; }
