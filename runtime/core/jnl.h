/* jnl.h: the bytes of a journal -- an append-only file of checksummed
 * entries that a master writes as its run goes and a resumed run reads back
 * (docs/runtime.md, "The journal"). Every model's journal is made of them
 * (runtime/loop/journal.c, runtime/pool/journal.c, ...); each says what its
 * header and its entries hold.
 *
 *   u      an unsigned 64-bit integer, little-endian
 *   text   u length, then the bytes (no NUL)
 *   sum    u FNV-1a 64 (sched/util/fnv.h) of the header's, or the entry's,
 *          bytes from its first on
 *
 * A file is a header (8 magic bytes, u version, the model's fields, sum)
 * then entries (a kind byte, the kind's fields, sum). An entry cut short by
 * a crash mid-write, or whose sum is wrong, ends the journal there: what
 * follows is ignored, and cut off (jnl_reopen) before a resumed run appends.
 *
 * Writing: each entry is built in a jnl_buf (never fails midway: out of
 * memory is kept and reported by jnl_emit), written with one fwrite and
 * flushed -- in the kernel, it survives the master's or the pvmd's crash --
 * and fsync'd at most once a second and at the end (a crash of the machine
 * itself loses at most the last second's).
 *
 * Reading: a jnl_rd knows how many bytes are left in the file and checks
 * every length against them, so a damaged length never allocates more than
 * the file holds.
 *
 * No PVM here. */
#ifndef JNL_H
#define JNL_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* ---- writing ----------------------------------------------------------- */

/* keep: jnl_emit empties the buffer but keeps its memory for the next
 * entries (its owner frees b); 0: jnl_emit frees it. */
typedef struct jnl_buf { unsigned char *b; size_t n, cap; int oom, keep; } jnl_buf;

void jnl_put(jnl_buf *o, const void *p, size_t n);
void jnl_put_u(jnl_buf *o, uint64_t v);
/* A header's start: the 8 bytes of magic and the version (what jnl_open
 * checks). */
void jnl_put_head(jnl_buf *o, const char *magic, uint64_t version);
/* n, then the n bytes at p; jnl_put_text: a string's without its NUL. */
void jnl_put_bytes(jnl_buf *o, const void *p, size_t n);
void jnl_put_text(jnl_buf *o, const char *s);
/* Appends the sum of o's bytes from 'from' on (0: an entry's or a header's). */
void jnl_put_sum(jnl_buf *o, size_t from);

typedef struct jnl_w { FILE *f; double synced; } jnl_w;

/* A new file at path (truncated): 0, or -1 with errno set. */
int jnl_create(jnl_w *w, const char *path);
/* The journal at path, cut to its first 'good_end' bytes, opened to append. */
int jnl_reopen(jnl_w *w, const char *path, long good_end);
/* Writes o's bytes (and frees them, or with o->keep empties o): fwrite,
 * fflush, then fsync when 'sync' or the last was a second ago. NULL, or why it failed (a static string or
 * strerror's): the caller closes the journal and says so. */
const char *jnl_emit(jnl_w *w, jnl_buf *o, int sync);
/* jnl_emit, and on failure jnl_give_up: 0 written (or no journal: w->f
 * NULL, o freed), 1 given up with msg the sentence to log. */
int jnl_write(jnl_w *w, jnl_buf *o, int sync, const char *path, int keep, char *msg,
              size_t len);
/* fflush, fsync and close (no-op if closed). */
void jnl_close(jnl_w *w);
/* A write failed (why: jnl_emit's answer): every model gives its journal up
 * alike -- closed, and removed (a full disk: room for the outputs) unless
 * 'keep' (a resumed journal: its earlier entries stay, its torn end is cut
 * when resumed) or path is not a regular file (a device, a pipe: never
 * removed). The run goes on without it. msg: the sentence to log. Returns 1
 * when the file was removed. */
int jnl_give_up(jnl_w *w, const char *path, int keep, const char *why, char *msg,
                size_t len);

/* ---- reading ----------------------------------------------------------- */

/* What a resumed run says of the bytes after its journal's last whole entry
 * (torn of them, from byte good_end on): "" when none, else "; the last N
 * bytes (from byte B on) ignored and cut: an entry cut short or damaged, and
 * any after it" -- every model's log in the same words. */
void jnl_torn_text(long torn, long good_end, char *buf, size_t len);

typedef struct jnl_rd {
    FILE *f;
    long left;          /* bytes to the end of the file */
    long size;          /* the file's bytes when opened */
    uint64_t sum;       /* of the bytes read since the last jnl_begin */
} jnl_rd;

/* Opens path, checks it is a regular file beginning with 'magic' (8 bytes)
 * and 'version', and begins the header's sum with them: 0; or -1 with why
 * it is not (in why[len]; errno is ENOENT when the file is not there). */
int jnl_open(jnl_rd *r, const char *path, const char *magic, uint64_t version,
             char *why, size_t len);
/* The next entry's sum starts here. */
void jnl_begin(jnl_rd *r);
/* Each: 0, or -1 when the file ends first (or a check fails). */
int jnl_get(jnl_rd *r, void *p, size_t n);
int jnl_get_u(jnl_rd *r, uint64_t *v);
/* A length of at most max and of the bytes left. */
int jnl_get_len(jnl_rd *r, uint64_t max, uint64_t *v);
/* The sum, equal to the sum of the bytes since jnl_begin. */
int jnl_get_sum(jnl_rd *r);
/* A text of at most max bytes, without NULs (malloc'd; NULL: damaged). */
char *jnl_get_text(jnl_rd *r, size_t max);
/* Where r is in the file (the end of the last whole entry, after one). */
long jnl_tell(const jnl_rd *r);
/* The bytes after good_end (the end of the last whole entry): the torn or
 * damaged tail a resumed run ignores and cuts. */
long jnl_torn(const jnl_rd *r, long good_end);

#endif
