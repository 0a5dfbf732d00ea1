/* outfile.h: an output file written whole or not at all (the run record,
 * images): a full disk, a crash or a failed write never leaves part of a
 * file where a whole one was expected.
 *
 *     outfile o;
 *     if (outfile_open(&o, path, "w") != 0) ... errno says why ...
 *     fprintf(o.f, ...);
 *     const char *call;
 *     if (outfile_close(&o, &call) != 0) ... call ("write", "rename") and errno ...
 *
 * The data go to a new file beside path (path.XXXXXX, mkstemp) with the mode
 * path has (or the one a new file gets under the umask), flushed to disk and
 * renamed over path at the end; on any failure the new file is removed and
 * path is as it was. "-" is standard output; an existing path that is not a
 * regular file (/dev/null, a pipe) is written directly; a directory or a
 * read-only file is refused. A symbolic link at path is replaced by the file
 * (rename), not followed. The new files of the outputs still open when the
 * program exits (exit() from anywhere: an error met half way) are removed
 * then (atexit), and by outfile_cleanup.
 */
#ifndef OUTFILE_H
#define OUTFILE_H

#include <stdio.h>

typedef struct outfile {
    FILE *f;            /* write here */
    char tmp[4096];     /* the new file ("": path written directly) */
    const char *path;   /* the caller's; must stay valid until the close */
} outfile;

/* Opens o for path with fopen mode "w" or "wb". Returns 0, or -1 with errno
 * set (EISDIR, EACCES, ENAMETOOLONG, ENOENT, ...). */
int outfile_open(outfile *o, const char *path, const char *mode);
/* Flushes, syncs, closes and renames over path. Returns 0, or -1 with errno
 * set and the failing step in *call ("write" or "rename"): the new file is
 * removed, path as it was. Standard output ("-") is flushed, and its error
 * cleared once reported here (closeout.h does not say it again). */
int outfile_close(outfile *o, const char **call);
/* Gives up: closes o and removes the new file, path as it was (a run that
 * failed half way; nothing half made is kept). Harmless on a closed o. */
void outfile_abort(outfile *o);
/* Removes every new file of an outfile open now (not yet renamed over its
 * path), for a signal handler that ends the program (sched/util/progress.h):
 * async-signal-safe. */
void outfile_remove_made(void);
/* Could path be written so? Checked before a long run, so that no run is lost
 * to a path it cannot write: creates and removes a file beside it. Returns
 * 0, or -1 with errno set. */
int outfile_check(const char *path);
/* Removes the new files of every output still open (their paths as they
 * were): at exit, and before a program ends itself with _exit. */
void outfile_cleanup(void);
/* How a message names the output at path: "standard output" for "-", else
 * the path quoted (quote.h). */
const char *outfile_name(const char *path);
/* The message of a failed outfile_open (call NULL) or outfile_close (call
 * as it set it), errno e, into msg: "cannot write PATH: REASON", "writing
 * PATH: REASON", "writing PATH: rename: REASON". Returns msg. */
char *outfile_msg(char *msg, size_t len, const char *path, const char *call, int e);

#endif
