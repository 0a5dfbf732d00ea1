/* outfile.c: an output written whole or not at all (outfile.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sched/util/outfile.h"
#include "sched/util/quote.h"

/* The new files of the outputs open now, removed at exit (copies of their
 * names: the caller's outfile may be gone by then). */
#define OPEN_MAX 64
static char *open_tmp[OPEN_MAX];

static void forget(const char *tmp)
{
    for (int i = 0; i < OPEN_MAX; i++)
        if (open_tmp[i] && strcmp(open_tmp[i], tmp) == 0) {
            free(open_tmp[i]);
            open_tmp[i] = NULL;
            return;
        }
}

static void remember(const char *tmp)
{
    static int registered;
    if (!registered && atexit(outfile_cleanup) == 0)
        registered = 1;
    for (int i = 0; i < OPEN_MAX; i++)
        if (!open_tmp[i]) {
            open_tmp[i] = strdup(tmp);      /* NULL: not removed at exit */
            return;
        }
}

void outfile_cleanup(void)
{
    for (int i = 0; i < OPEN_MAX; i++)
        if (open_tmp[i]) {
            unlink(open_tmp[i]);
            free(open_tmp[i]);
            open_tmp[i] = NULL;
        }
}

const char *outfile_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "standard output" : quote(path);
}

char *outfile_msg(char *msg, size_t len, const char *path, const char *call, int e)
{
    if (!call)
        snprintf(msg, len, "cannot write %s: %s", outfile_name(path), strerror(e));
    else
        snprintf(msg, len, "writing %s: %s%s%s", outfile_name(path),
                 strcmp(call, "write") == 0 ? "" : call, strcmp(call, "write") == 0 ? "" : ": ",
                 strerror(e));
    return msg;
}

/* Where path would be written: 1 directly (not a regular file), 0 through a
 * new file beside it (its name in tmp, not yet created; *mode the mode it
 * gets), -1 with errno set when it cannot be. */
static int where(const char *path, char *tmp, size_t tmplen, mode_t *mode)
{
    struct stat st;
    int exists = stat(path, &st) == 0;
    if (exists && S_ISDIR(st.st_mode))
        return errno = EISDIR, -1;
    if (exists && access(path, W_OK) != 0)
        return -1;                              /* errno: EACCES, EROFS */
    if (exists && !S_ISREG(st.st_mode))
        return 1;
    if ((size_t)snprintf(tmp, tmplen, "%s.XXXXXX", path) >= tmplen)
        return errno = ENAMETOOLONG, -1;
    if (exists)
        *mode = st.st_mode & 07777;
    else {
        mode_t mask = umask(0);
        umask(mask);
        *mode = 0666 & ~mask;
    }
    return 0;
}

int outfile_open(outfile *o, const char *path, const char *mode)
{
    mode_t m = 0;
    o->f = NULL;
    o->tmp[0] = '\0';
    o->path = path;
    errno = 0;
    if (strcmp(path, "-") == 0) {
        o->f = stdout;
        return 0;
    }
    int direct = where(path, o->tmp, sizeof o->tmp, &m);
    if (direct != 0) {
        o->tmp[0] = '\0';
        if (direct < 0 || !(o->f = fopen(path, mode)))
            return -1;
        errno = 0;
        return 0;
    }
    int fd = mkstemp(o->tmp);
    if (fd >= 0 && fchmod(fd, m) == 0 && (o->f = fdopen(fd, mode))) {
        remember(o->tmp);
        errno = 0;
        return 0;
    }
    int e = errno;
    if (fd >= 0) {
        close(fd);
        unlink(o->tmp);
    }
    o->tmp[0] = '\0';
    errno = e;
    return -1;
}

int outfile_close(outfile *o, const char **call)
{
    int e = 0;
    *call = "write";                /* errno: a failed write's (outfile_open cleared it) */
    if (fflush(o->f) != 0 || ferror(o->f))
        e = errno ? errno : EIO;
    else if (o->tmp[0] && fsync(fileno(o->f)) != 0)
        e = errno;
    if (o->f != stdout && fclose(o->f) != 0 && !e)
        e = errno;
    if (o->f == stdout && e)
        clearerr(stdout);           /* said by the caller: not again at exit */
    o->f = NULL;
    if (!e && o->tmp[0] && rename(o->tmp, o->path) != 0) {
        *call = "rename";
        e = errno;
    }
    if (e && o->tmp[0])
        unlink(o->tmp);
    if (o->tmp[0])
        forget(o->tmp);
    errno = e;
    return e ? -1 : 0;
}

int outfile_check(const char *path)
{
    char tmp[4096];
    mode_t m;
    int direct = where(path, tmp, sizeof tmp, &m);
    if (direct != 0)
        return direct > 0 ? 0 : -1;
    int fd = mkstemp(tmp);
    if (fd < 0)
        return -1;
    close(fd);
    unlink(tmp);
    return 0;
}

void outfile_abort(outfile *o)
{
    if (!o->f)
        return;
    if (o->f != stdout)
        fclose(o->f);
    o->f = NULL;
    if (o->tmp[0]) {
        unlink(o->tmp);
        forget(o->tmp);
    }
}
