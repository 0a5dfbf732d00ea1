/* strips.c: the row strips of the heat plate (heat.h): even cuts, the
 * neighbour transfers of a re-cut and their one-port rounds, a
 * load-balancing plan read as a re-cut, one node's strip, and P strips run
 * in one process.
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
 * needs (boundary i's depends on boundaries i-1 and i+1 only). */
#include <stdlib.h>
#include <string.h>

#include "heat/heat.h"
#include "sched/sched_impl.h"     /* sched_fail: the one way a sched_err is set */

/* Checks P counts named 'what': each >= 1, the total at most HEAT_MAX_SIDE.
 * Returns the total, or -1 with err. */
static long check_counts(int P, const int *count, const char *what, sched_err *err)
{
    if (P < 1 || P > HEAT_MAX_STRIPS) {
        sched_fail(err, SCHED_EINVAL, "strips=%d must be in 1..%d", P, HEAT_MAX_STRIPS);
        return -1;
    }
    if (!count) {
        sched_fail(err, SCHED_EINVAL, "no %s counts given", what);
        return -1;
    }
    long total = 0;
    for (int i = 0; i < P; i++) {
        if (count[i] < 1 || count[i] > HEAT_MAX_SIDE) {
            sched_fail(err, SCHED_EINVAL, "%s[%d]=%d must be in 1..%d (a strip holds a row "
                       "at least)", what, i, count[i], HEAT_MAX_SIDE);
            return -1;
        }
        total += count[i];
        if (total > HEAT_MAX_SIDE) {
            sched_fail(err, SCHED_EINVAL, "the %s counts sum to more than %d rows", what,
                       HEAT_MAX_SIDE);
            return -1;
        }
    }
    return total;
}

int heat_strips_even(int rows, int P, int *count, sched_err *err)
{
    if (rows < 1 || rows > HEAT_MAX_SIDE)
        return sched_fail(err, SCHED_EINVAL, "rows=%d must be in 1..%d", rows,
                          HEAT_MAX_SIDE);
    if (P < 1 || P > HEAT_MAX_STRIPS || P > rows)
        return sched_fail(err, SCHED_EINVAL, "strips=%d must be in 1..%d (each strip "
                          "needs a row of the %d)", P,
                          rows < HEAT_MAX_STRIPS ? rows : HEAT_MAX_STRIPS, rows);
    for (int i = 0; i < P; i++)
        count[i] = rows / P + (i < rows % P);
    return SCHED_OK;
}

int heat_strips_transfers(int P, const int *count, const int *target, heat_transfer *t,
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
    int B[HEAT_MAX_STRIPS], G[HEAT_MAX_STRIPS], lo[HEAT_MAX_STRIPS], hi[HEAT_MAX_STRIPS];
    unsigned char busy[HEAT_MAX_STRIPS];
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
            t[m++] = up ? (heat_transfer){i + 1, i, B[i], G[i] - B[i], round}
                        : (heat_transfer){i, i + 1, G[i], B[i] - G[i], round};
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

int heat_strips_from_plan(const lb_plan *plan, int P, const int *count, int *target,
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

/* Room for 'rows' rows in *u (capacity *cap rows). */
static int reserve(double **u, int *cap, int rows, int nx, sched_err *err)
{
    if (rows <= *cap)
        return SCHED_OK;
    double *v = realloc(*u, (size_t)rows * nx * sizeof *v);
    if (!v)
        return sched_fail(err, SCHED_ENOMEM, "out of memory for a strip of %d rows of %d",
                          rows, nx);
    *u = v;
    *cap = rows;
    return SCHED_OK;
}

int heat_strip_take(heat_strip *s, int nx, const heat_transfer *t, double *buf,
                    sched_err *err)
{
    size_t row = (size_t)nx;
    int up = t->to < t->from;
    if (t->count < 1 || t->count > s->rows ||
        t->first != (up ? s->first : s->first + s->rows - t->count))
        return sched_fail(err, SCHED_EINVAL, "rows %d..%d (count=%d) are not the %s rows "
                          "of the strip of rows %d..%d", t->first, t->first + t->count - 1,
                          t->count, up ? "first" : "last", s->first,
                          s->first + s->rows - 1);
    size_t n = (size_t)t->count * row, rest = (size_t)(s->rows - t->count) * row;
    if (up) {
        memcpy(buf, s->u, n * sizeof *buf);
        memmove(s->u, s->u + n, rest * sizeof *buf);
        s->first += t->count;
    } else {
        memcpy(buf, s->u + rest, n * sizeof *buf);
    }
    s->rows -= t->count;
    return SCHED_OK;
}

int heat_strip_put(heat_strip *s, int nx, const heat_transfer *t, const double *buf,
                   sched_err *err)
{
    size_t row = (size_t)nx;
    int below = t->from > t->to;        /* from the node below: after s's rows */
    if (t->count < 1 || (below ? t->first != s->first + s->rows
                               : t->first + t->count != s->first))
        return sched_fail(err, SCHED_EINVAL, "rows %d..%d (count=%d) do not join the strip "
                          "of rows %d..%d from %s", t->first, t->first + t->count - 1,
                          t->count, s->first, s->first + s->rows - 1,
                          below ? "below" : "above");
    int rc = reserve(&s->u, &s->cap, s->rows + t->count, nx, err);
    if (rc != SCHED_OK)
        return rc;
    size_t n = (size_t)t->count * row, have = (size_t)s->rows * row;
    if (below) {
        memcpy(s->u + have, buf, n * sizeof *buf);
    } else {
        memmove(s->u + n, s->u, have * sizeof *buf);
        memcpy(s->u, buf, n * sizeof *buf);
        s->first = t->first;
    }
    s->rows += t->count;
    return SCHED_OK;
}

void heat_strip_free(heat_strip *s)
{
    free(s->u);
    s->u = NULL;
    s->rows = s->cap = 0;
}

/* ---- P strips in one process ----------------------------------------------------- */

struct heat_strips {
    heat_plate p;
    int P;
    heat_strip *strip;      /* the strips, in node order */
    double **next;          /* strip i's new values (room for ncap[i] rows) */
    int *ncap;
    double *halo;           /* strip i's halo rows: above at 2i, below at 2i+1 */
};

heat_strips *heat_strips_new(const heat_plate *p, const double *u, int P, const int *count,
                             sched_err *err)
{
    long total = check_counts(P, count, "count", err);
    if (total < 0)
        return NULL;
    if (total != p->ny) {
        sched_fail(err, SCHED_EINVAL, "the counts sum to %ld rows, the plate has %d", total,
                   p->ny);
        return NULL;
    }
    heat_strips *s = calloc(1, sizeof *s);
    if (!s)
        goto nomem;
    s->p = *p;
    s->P = P;
    s->strip = calloc((size_t)P, sizeof *s->strip);
    s->next = calloc((size_t)P, sizeof *s->next);
    s->ncap = calloc((size_t)P, sizeof *s->ncap);
    s->halo = malloc((size_t)2 * P * p->nx * sizeof *s->halo);
    if (!s->strip || !s->next || !s->ncap || !s->halo)
        goto nomem;
    size_t row = (size_t)p->nx;
    for (int i = 0, first = 0; i < P; first += count[i], i++) {
        heat_strip *t = &s->strip[i];
        t->first = first;
        if (reserve(&t->u, &t->cap, count[i], p->nx, err) != SCHED_OK ||
            reserve(&s->next[i], &s->ncap[i], count[i], p->nx, err) != SCHED_OK)
            goto nomem;
        t->rows = count[i];
        memcpy(t->u, u + (size_t)first * row, (size_t)count[i] * row * sizeof *u);
    }
    return s;
nomem:
    heat_strips_free(s);
    sched_fail(err, SCHED_ENOMEM, "out of memory for %d strips of a %d x %d plate", P,
               p->nx, p->ny);
    return NULL;
}

void heat_strips_free(heat_strips *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->P; i++) {
        if (s->strip)
            heat_strip_free(&s->strip[i]);
        if (s->next)
            free(s->next[i]);
    }
    free(s->strip);
    free(s->next);
    free(s->ncap);
    free(s->halo);
    free(s);
}

void heat_strips_step(heat_strips *s, long steps)
{
    const heat_plate *p = &s->p;
    size_t row = (size_t)p->nx, bytes = row * sizeof(double);
    for (long k = 0; k < steps; k++) {
        /* The halo exchange: each strip gets the row above it and the row
         * below it from the strips that hold them (the nearest non-empty
         * ones: a strip is empty only after a failed re-cut). */
        const double *edge = NULL;
        for (int i = 0; i < s->P; i++) {
            const heat_strip *t = &s->strip[i];
            if (t->rows == 0)
                continue;
            if (t->first > 0)
                memcpy(s->halo + 2 * i * row, edge, bytes);
            edge = t->u + (size_t)(t->rows - 1) * row;
        }
        edge = NULL;
        for (int i = s->P - 1; i >= 0; i--) {
            const heat_strip *t = &s->strip[i];
            if (t->rows == 0)
                continue;
            if (t->first + t->rows < p->ny)
                memcpy(s->halo + (2 * i + 1) * row, edge, bytes);
            edge = t->u;
        }
        for (int i = 0; i < s->P; i++) {
            heat_strip *t = &s->strip[i];
            if (t->rows == 0)
                continue;
            heat_rows(p, t->first, t->rows, s->halo + 2 * i * row, t->u,
                      s->halo + (2 * i + 1) * row, s->next[i]);
            double *u = t->u;
            int cap = t->cap;
            t->u = s->next[i];
            t->cap = s->ncap[i];
            s->next[i] = u;
            s->ncap[i] = cap;
        }
    }
}

int heat_strips_move(heat_strips *s, const int *target, heat_moved *moved, sched_err *err)
{
    int P = s->P, nx = s->p.nx, count[HEAT_MAX_STRIPS];
    heat_transfer t[HEAT_MAX_STRIPS];
    heat_strips_counts(s, count);
    int n = heat_strips_transfers(P, count, target, t, err);
    if (n < 0)
        return err ? err->code : SCHED_EINVAL;
    heat_moved mv = {.transfers = n, .rounds = n ? t[n - 1].round + 1 : 0};
    for (int m = 0; m < n; m++)
        mv.rows += t[m].count;
    for (int m = 0; m < n; m++) {
        heat_strip *from = &s->strip[t[m].from], *to = &s->strip[t[m].to];
        int rows = to->rows + t[m].count;
        /* Every allocation before the rows leave the sender. */
        double *buf = malloc((size_t)t[m].count * nx * sizeof *buf);
        int rc = buf ? SCHED_OK
                     : sched_fail(err, SCHED_ENOMEM, "out of memory for %d rows of %d",
                                  t[m].count, nx);
        if (rc == SCHED_OK)
            rc = reserve(&to->u, &to->cap, rows, nx, err);
        if (rc == SCHED_OK)
            rc = reserve(&s->next[t[m].to], &s->ncap[t[m].to], rows, nx, err);
        if (rc == SCHED_OK)
            rc = heat_strip_take(from, nx, &t[m], buf, err);
        if (rc == SCHED_OK)
            rc = heat_strip_put(to, nx, &t[m], buf, err);
        free(buf);
        if (rc != SCHED_OK)
            return rc;
    }
    if (moved)
        *moved = mv;
    return SCHED_OK;
}

void heat_strips_counts(const heat_strips *s, int *count)
{
    for (int i = 0; i < s->P; i++)
        count[i] = s->strip[i].rows;
}

const heat_strip *heat_strips_strip(const heat_strips *s, int i)
{
    return &s->strip[i];
}

void heat_strips_gather(const heat_strips *s, double *u)
{
    size_t row = (size_t)s->p.nx;
    for (int i = 0; i < s->P; i++) {
        const heat_strip *t = &s->strip[i];
        if (t->rows > 0)
            memcpy(u + (size_t)t->first * row, t->u, (size_t)t->rows * row * sizeof *u);
    }
}
