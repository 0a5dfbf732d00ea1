/* closeout.c: a program's standard output checked (closeout.h). */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sched/util/closeout.h"
#include "sched/util/outfile.h"
#include "sched/util/quote.h"

static const char *prog = "?";

const char *closeout_prog(void)
{
    return prog;
}

/* Says that standard output failed (errno e; 0: an earlier write failed and
 * its reason is gone) and ends the program with status 1. */
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
    /* Called just after a write: errno is the failed write's. A failed
     * flush drops its data; what is left is flushed here and fails alike. */
    int e = errno;
    if (!ferror(stdout))
        return;
    errno = 0;
    failed(fflush(stdout) != 0 ? errno : write_errno(e));
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
    if (fclose(stdout) != 0 && !(errno == EBADF && !bad)) {
        bad = 1;
        if (!e)
            e = errno;
    }
    if (bad)
        failed(e);
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
    atexit(at_exit);
}
