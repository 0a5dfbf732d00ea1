/* journal.h: the row strips' journal -- the whole field at a barrier, for
 * resuming a broken run (journal.c has the file's format; not installed).
 * No PVM here: master.c writes it and reads it back. */
#ifndef STRIPS_JOURNAL_H
#define STRIPS_JOURNAL_H

#include <stddef.h>

#include "runtime/core/jnl.h"

/* A journaled run: what its header holds and a resumed run must equal. */
typedef struct sj_run {
    long rows;
    size_t row_bytes;
    long steps;
    const void *job;
    size_t job_len;
} sj_run;

/* The file begins anew (journal.c) once it holds two barriers or more and
 * the next would take it past this many bytes. */
#define SJ_SPAN (32L << 20)

/* A journal being written. */
typedef struct sj_file {
    jnl_w w;                    /* w.f NULL: none (closed) */
    const char *path;           /* (the caller's) */
    int regular;                /* a regular file: may begin anew; removable */
    long size;                  /* its bytes */
    int held;                   /* the barriers it holds */
    long last;                  /* the step of its last (0: none) */
    long anew;                  /* times it began anew */
} sj_file;

/* A new journal at path (an earlier file there replaced): its header
 * written and fsync'd. 0; -1 with why: not created (nothing is open); -2
 * with why: created, its header not written (closed; the caller removes it
 * if j->regular). */
int sj_create(sj_file *j, const char *path, const sj_run *run, char *why, size_t len);
/* The resumed journal at path, cut to good_end bytes (its whole entries:
 * sj_scan), opened to append; held, last: sj_scan's. 0, or -1 (errno). */
int sj_reopen(sj_file *j, const char *path, long good_end, int held, long last);
/* Appends the field after 'step' steps (rows x row_bytes bytes) as one
 * entry; or, when the file holds two barriers or more and would pass
 * SJ_SPAN, writes a new one (header and this entry) beside it, fsync'd, and
 * renames it over the file. NULL; or why it failed (the journal is then
 * closed: the caller says so). */
const char *sj_barrier(sj_file *j, const sj_run *run, long step, const void *field);
/* fflush, fsync and close (no-op if closed). */
void sj_close(sj_file *j);

/* What sj_scan found. */
typedef struct sj_found {
    long step;                  /* the last whole barrier's step (0: none) */
    int which;                  /* the buffer holding its field (-1: none) */
    int held;                   /* the barriers (whole entries) */
    long good_end;              /* the bytes up to the end of the last */
    long torn;                  /* the bytes after it (a torn or damaged tail) */
} sj_found;

/* Reads the journal at path for the run 'run' into buf[0] and buf[1] (each
 * rows x row_bytes bytes; either may be overwritten): DTSS_OK with *f; or
 * DTSS_ENOENT (no such file), DTSS_EINVAL (not a journal of row strips, its
 * header damaged, another run's -- naming the field that differs --, a
 * whole entry that is not this run's -- naming the entry and its byte),
 * DTSS_ENOMEM, with why. */
int sj_scan(const char *path, const sj_run *run, unsigned char *buf[2], sj_found *f,
            char *why, size_t len);

#endif
