/* heap.c: a binary min-heap of fixed-size elements (heap.h). */
#include <stdlib.h>
#include <string.h>

#include "sched/util/heap.h"

#define AT(h, i) ((h)->e + (size_t)(i) * (h)->size)

void heap_init(heap *h, size_t elem_size, heap_less less, void *ctx)
{
    memset(h, 0, sizeof *h);
    h->size = elem_size;
    h->less = less;
    h->ctx = ctx;
}

void heap_free(heap *h)
{
    free(h->e);
    h->e = NULL;
    h->n = h->cap = 0;
}

int heap_push(heap *h, const void *x)
{
    if (h->n == h->cap) {
        size_t cap = h->cap ? 2 * h->cap : 64;
        unsigned char *e = realloc(h->e, cap * h->size);
        if (!e)
            return -1;
        h->e = e;
        h->cap = cap;
    }
    size_t i = h->n++;
    while (i > 0 && h->less(x, AT(h, (i - 1) / 2), h->ctx)) {
        memcpy(AT(h, i), AT(h, (i - 1) / 2), h->size);
        i = (i - 1) / 2;
    }
    memcpy(AT(h, i), x, h->size);
    return 0;
}

int heap_pop(heap *h, void *out)
{
    if (h->n == 0)
        return 0;
    memcpy(out, AT(h, 0), h->size);
    const unsigned char *last = AT(h, --h->n);
    size_t i = 0;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && h->less(AT(h, c + 1), AT(h, c), h->ctx))
            c++;
        if (!h->less(AT(h, c), last, h->ctx))
            break;
        memcpy(AT(h, i), AT(h, c), h->size);
        i = c;
    }
    if (h->n > 0)
        memmove(AT(h, i), last, h->size);
    return 1;
}

const void *heap_top(const heap *h)
{
    return h->n ? h->e : NULL;
}
