/* fnv.h: the 64-bit FNV-1a hash (Fowler, Noll and Vo: offset basis
 * 14695981039346656037, prime 1099511628211), the checksum the programs
 * print so that results computed by different programs, decompositions or
 * hosts can be compared byte for byte.
 *
 *     uint64_t h = fnv1a(FNV1A_BASIS, bytes, n);
 *     h = fnv1a(h, more, m);              (the hash of bytes then more)
 *
 * Header-only. The hash of no bytes is the offset basis. Known value
 * (tests/test_heat.c): "a" hashes to 0xaf63dc4c8601ec8c. mandel_checksum,
 * matrix_checksum and the journal's entries compute the same function over
 * their own byte layouts (each its own copy, older than this header). */
#ifndef FNV_H
#define FNV_H

#include <stddef.h>
#include <stdint.h>

#define FNV1A_BASIS 14695981039346656037ULL
#define FNV1A_PRIME 1099511628211ULL

/* h continued over the n bytes at p (p may be NULL when n is 0). */
static inline uint64_t fnv1a(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++) {
        h ^= b[i];
        h *= FNV1A_PRIME;
    }
    return h;
}

#endif
