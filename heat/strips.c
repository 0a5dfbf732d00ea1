/* strips.c: P strips of the heat plate (heat.h) run in one process, as P
 * nodes would run them: each strip a strips_node (sched/strips/strips.h) of
 * rows of nx doubles, halo copies, the kernel, and re-cuts carried out transfer
 * by transfer with strips_node_take and strips_node_put. */
#include <stdlib.h>
#include <string.h>

#include "heat/heat.h"
#include "sched/sched.h"          /* sched_fail: the one way a sched_err is set */

_Static_assert(HEAT_MAX_SIDE <= STRIPS_MAX_ROWS, "a plate's rows fit sched/strips/strips.h");

struct heat_strips {
    heat_plate p;
    int P;
    strips_node *node;      /* the strips, in node order */
    double *halo;           /* strip i's halo rows: above at 2i, below at 2i+1 */
    double *scratch;        /* ny rows: a strip's new values, a transfer's rows */
};

static double *rows_of(const strips_node *n)
{
    return (double *)(void *)n->data;
}

heat_strips *heat_strips_new(const heat_plate *p, const double *u, int P, const int *count,
                             sched_err *err)
{
    if (P < 1 || P > HEAT_MAX_STRIPS || !count) {
        sched_fail(err, SCHED_EINVAL, count ? "strips=%d must be in 1..%d"
                                            : "strips=%d: no counts given", P, HEAT_MAX_STRIPS);
        return NULL;
    }
    long total = 0;
    for (int i = 0; i < P; i++) {
        if (count[i] < 1 || count[i] > p->ny) {
            sched_fail(err, SCHED_EINVAL, "count[%d]=%d must be in 1..%d (a strip holds a "
                       "row at least)", i, count[i], p->ny);
            return NULL;
        }
        total += count[i];
    }
    if (total != p->ny) {
        sched_fail(err, SCHED_EINVAL, "the counts sum to %ld rows, the plate has %d", total,
                   p->ny);
        return NULL;
    }
    size_t row = (size_t)p->nx;
    heat_strips *s = calloc(1, sizeof *s);
    if (!s)
        goto nomem;
    s->p = *p;
    s->P = P;
    s->node = calloc((size_t)P, sizeof *s->node);
    s->halo = malloc(2 * (size_t)P * row * sizeof *s->halo);
    s->scratch = malloc((size_t)p->ny * row * sizeof *s->scratch);
    if (!s->node || !s->halo || !s->scratch)
        goto nomem;
    for (int i = 0, first = 0; i < P; first += count[i], i++) {
        /* Strip i's rows, put in as if they came from below. */
        strips_transfer in = {.from = i + 1, .to = i, .first = first, .count = count[i]};
        s->node[i] = (strips_node){.first = first, .row_bytes = row * sizeof *u};
        if (strips_node_put(&s->node[i], &in, u + (size_t)first * row, err) != SCHED_OK)
            goto nomem;
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
    for (int i = 0; s->node && i < s->P; i++)
        strips_node_free(&s->node[i]);
    free(s->node);
    free(s->halo);
    free(s->scratch);
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
            const strips_node *t = &s->node[i];
            if (t->rows == 0)
                continue;
            if (t->first > 0)
                memcpy(s->halo + 2 * i * row, edge, bytes);
            edge = rows_of(t) + (size_t)(t->rows - 1) * row;
        }
        edge = NULL;
        for (int i = s->P - 1; i >= 0; i--) {
            const strips_node *t = &s->node[i];
            if (t->rows == 0)
                continue;
            if (t->first + t->rows < p->ny)
                memcpy(s->halo + (2 * i + 1) * row, edge, bytes);
            edge = rows_of(t);
        }
        /* Every halo is taken: each strip's new values can replace its old. */
        for (int i = 0; i < s->P; i++) {
            strips_node *t = &s->node[i];
            if (t->rows == 0)
                continue;
            heat_rows(p, t->first, t->rows, s->halo + 2 * i * row, rows_of(t),
                      s->halo + (2 * i + 1) * row, s->scratch);
            memcpy(t->data, s->scratch, (size_t)t->rows * bytes);
        }
    }
}

int heat_strips_move(heat_strips *s, const int *target, heat_moved *moved, sched_err *err)
{
    int count[HEAT_MAX_STRIPS];
    strips_transfer t[HEAT_MAX_STRIPS];
    heat_strips_counts(s, count);
    int n = strips_transfers(s->P, count, target, t, err);
    if (n < 0)
        return err ? err->code : SCHED_EINVAL;
    heat_moved mv = {.transfers = n, .rounds = n ? t[n - 1].round + 1 : 0};
    for (int m = 0; m < n; m++)
        mv.rows += t[m].count;
    for (int m = 0; m < n; m++) {
        strips_node *from = &s->node[t[m].from], *to = &s->node[t[m].to];
        int rc = strips_node_take(from, &t[m], s->scratch, err);
        if (rc == SCHED_OK && (rc = strips_node_put(to, &t[m], s->scratch, err)) != SCHED_OK) {
            /* Back to the sender, into the room they left: cannot fail. */
            strips_transfer back = {.from = t[m].to, .to = t[m].from, .first = t[m].first,
                                    .count = t[m].count};
            strips_node_put(from, &back, s->scratch, NULL);
        }
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
        count[i] = s->node[i].rows;
}

const strips_node *heat_strips_strip(const heat_strips *s, int i)
{
    return &s->node[i];
}

void heat_strips_gather(const heat_strips *s, double *u)
{
    size_t row = (size_t)s->p.nx;
    for (int i = 0; i < s->P; i++) {
        const strips_node *t = &s->node[i];
        if (t->rows > 0)
            memcpy(u + (size_t)t->first * row, t->data, (size_t)t->rows * row * sizeof *u);
    }
}
