/* jwalk.h: walking a journal's bytes in a fuzz harness (runtime/core/jnl.h's
 * encoding: u = 64-bit little-endian, entries sealed by an FNV-1a 64 sum),
 * so that a harness can make the sums right and the fuzzer reach the
 * entries' numbers. Header-only; every journal harness (journal, pool_journal,
 * lb_journal, strips_journal) uses it.
 *
 *     jwalk w = {bytes, n, 0, 1};
 *     jwalk_skip(&w, 16);                      (magic, version)
 *     uint64_t len = jwalk_u64(&w);
 *     jwalk_seal(&w, from, repair);            (the sum of bytes from 'from')
 *
 * Each step past the end sets ok to 0; later steps do nothing. */
#ifndef JWALK_H
#define JWALK_H

#include <stddef.h>
#include <stdint.h>

#include "sched/util/fnv.h"

typedef struct jwalk {
    uint8_t *b;
    size_t n, at;
    int ok;
} jwalk;

static inline void jwalk_skip(jwalk *w, uint64_t k)
{
    if (w->ok && k <= w->n - w->at)
        w->at += (size_t)k;
    else
        w->ok = 0;
}

static inline uint64_t jwalk_u64(jwalk *w)
{
    uint64_t v = 0;
    if (!w->ok || 8 > w->n - w->at) {
        w->ok = 0;
        return 0;
    }
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)w->b[w->at + (size_t)i] << (8 * i);
    w->at += 8;
    return v;
}

/* The sum of the bytes from 'from' at the walk's place: written there when
 * 'repair', else stepped over. */
static inline void jwalk_seal(jwalk *w, size_t from, int repair)
{
    if (!w->ok || 8 > w->n - w->at) {
        w->ok = 0;
        return;
    }
    if (repair) {
        uint64_t h = fnv1a(FNV1A_BASIS, w->b + from, w->at - from);
        for (int i = 0; i < 8; i++)
            w->b[w->at + (size_t)i] = (uint8_t)(h >> (8 * i));
    }
    w->at += 8;
}

#endif
