/* closeout.c: a program's standard output checked (closeout.h).
 *
 * A write error's reason (errno) is lost by the time the program exits when
 * the failed flush happened earlier, inside a library (libpvm flushes
 * standard output as a task ends): so standard output becomes a stream of
 * our own (glibc's fopencookie) over file descriptor 1, whose write function
 * keeps the first failure's errno. Everything written to stdout goes
 * through it, buffered as before (by line on a terminal). */
#define _GNU_SOURCE             /* fopencookie */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "sched/util/closeout.h"
#include "sched/util/outfile.h"
#include "sched/util/quote.h"

static const char *prog = "?";
static int first_errno;         /* the first failed write's, 0: none yet */

const char *closeout_prog(void)
{
    return prog;
}

/* Writes all n bytes to descriptor 1; -1 on a failure (its errno kept). */
static ssize_t out_write(void *cookie, const char *buf, size_t n)
{
    (void)cookie;
    size_t done = 0;
    while (done < n) {
        ssize_t w = write(STDOUT_FILENO, buf + done, n - done);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0) {
            if (!first_errno)
                first_errno = w < 0 ? errno : EIO;
            errno = first_errno;
            return -1;
        }
        done += (size_t)w;
    }
    return (ssize_t)n;
}

static int out_close(void *cookie)
{
    (void)cookie;
    return 0;                   /* descriptor 1 stays open for the exit */
}

/* Says that standard output failed (errno e; 0: unknown) and ends the
 * program with status 1. */
static void failed(int e)
{
    if (e)
        fprintf(stderr, "%s: writing standard output: %s\n", prog, strerror(e));
    else
        fprintf(stderr, "%s: writing standard output: a write failed\n", prog);
    fflush(stderr);
    outfile_cleanup();
    _exit(1);
}

/* errno after a failed write, when it is a write's error (an earlier call
 * may have changed it since): 0 otherwise. */
static int write_errno(int e)
{
    return e == ENOSPC || e == EPIPE || e == EIO || e == EFBIG || e == EDQUOT ? e : 0;
}

void closeout_check(void)
{
    int e = errno;
    if (!ferror(stdout))
        return;
    errno = 0;
    int flushed = fflush(stdout) == 0;
    failed(first_errno ? first_errno : !flushed && errno ? errno : write_errno(e));
}

static void at_exit(void)
{
    int bad = ferror(stdout), e = 0;
    errno = 0;
    if (fflush(stdout) != 0) {
        bad = 1;
        e = errno;
    }
    /* A close can fail too (a file on NFS); a standard output closed by the
     * caller (>&-) that was never written is no error. */
    errno = 0;
    if (close(STDOUT_FILENO) != 0 && !(errno == EBADF && !bad)) {
        bad = 1;
        if (!e)
            e = errno;
    }
    if (bad)
        failed(first_errno ? first_errno : e);
}

int closeout_output(const char *opt, const char *path, int none_ok)
{
    if (!path || strcmp(path, "-") == 0 || (none_ok && strcmp(path, "none") == 0) ||
        outfile_check(path) == 0)
        return 0;
    fprintf(stderr, "%s: %s %s: cannot write there: %s\n", prog, opt, quote(path),
            strerror(errno));
    return 1;
}

void closeout_init(const char *name)
{
    prog = name;
    signal(SIGPIPE, SIG_IGN);
    fflush(stdout);
    cookie_io_functions_t io = {.write = out_write, .close = out_close};
    FILE *f = fopencookie(NULL, "w", io);
    if (f) {
        if (isatty(STDOUT_FILENO))
            setvbuf(f, NULL, _IOLBF, BUFSIZ);
        stdout = f;
    }
    atexit(at_exit);
}
