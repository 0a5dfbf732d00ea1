/* heap.h: one binary min-heap of fixed-size elements, for the simulator's
 * events and the DAG schedulers' ready lists.
 *
 *     heap h;
 *     heap_init(&h, sizeof(event), event_before, NULL);
 *     heap_push(&h, &ev);                   (-1: out of memory)
 *     while (heap_pop(&h, &ev)) ...         (smallest first by 'less')
 *     heap_free(&h);
 *
 * 'less(a, b, ctx)' is a strict order; elements that compare equal come out
 * in no particular order, so a caller that needs determinism breaks ties
 * itself (the simulator numbers its events).
 */
#ifndef HEAP_H
#define HEAP_H

#include <stddef.h>

typedef int (*heap_less)(const void *a, const void *b, void *ctx);

typedef struct heap {
    unsigned char *e;
    size_t n, cap, size;
    heap_less less;
    void *ctx;
} heap;

void heap_init(heap *h, size_t elem_size, heap_less less, void *ctx);
void heap_free(heap *h);
/* Copies *x in; returns 0, or -1 out of memory (the heap is unchanged). */
int heap_push(heap *h, const void *x);
/* Copies the smallest element to *out and removes it; returns 0 when empty. */
int heap_pop(heap *h, void *out);
/* The smallest element (valid until the next push or pop), or NULL. */
const void *heap_top(const heap *h);
static inline size_t heap_size(const heap *h) { return h->n; }

#endif
