/* spool.h: a temporary file of fixed-size entries, for a run record too long
 * to keep in memory (record.h, record_stream): entries are appended in order
 * and numbered 0, 1, 2, ...; any of them can be read or rewritten later.
 * Memory: one buffer of SPOOL_BUFFER bytes, however many entries.
 *
 * The file is made in a given folder and removed from it at once (it lives
 * on while open): nothing is left behind, however the program ends (a
 * crash, Ctrl-C, a kill). Private to sched/records/.
 *
 *     spool *s = spool_open(dir, sizeof(entry), msg, len);
 *     spool_append(s, &e);  spool_get(s, i, &e);  spool_put(s, i, &e);
 *     spool_read(s, first, buf, max);      (many at once, for the writer)
 *     spool_close(s);
 *
 * Every call returns 0 (spool_read: the entries read), or -1 with the
 * failing call and the folder in spool_error(s).
 */
#ifndef SPOOL_H
#define SPOOL_H

#include <stddef.h>

#define SPOOL_BUFFER 65536

typedef struct spool spool;

/* A new, empty spool of entries of 'size' bytes (1 .. SPOOL_BUFFER) in
 * folder dir. NULL with the reason in msg. */
spool *spool_open(const char *dir, size_t size, char *msg, size_t len);
void spool_close(spool *s);
/* Entries so far. */
long spool_count(const spool *s);
int spool_append(spool *s, const void *entry);
/* Entry i (< spool_count) into out; entry i replaced by in. */
int spool_get(spool *s, long i, void *out);
int spool_put(spool *s, long i, const void *in);
/* Up to max entries from 'first' on into buf (room for max): how many were
 * read (0 at the end), or -1. */
long spool_read(spool *s, long first, void *buf, long max);
/* What the last failure was ("writing a spool file in DIR: No space left
 * on device"). */
const char *spool_error(const spool *s);

#endif
