/* outfile.c: an output written whole or not at all (outfile.h). */
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "sched/util/outfile.h"
#include "sched/util/quote.h"

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

/* The new files being written now, removed at exit (atexit), by
 * outfile_cleanup and by outfile_remove_made (a signal handler): slots
 * holding copies of their names (the caller's outfile may be gone by then),
 * listed from the file's making to its rename. Signals are held while a slot
 * changes, so the handler never misses a file nor reads half a name. More
 * than MADE at once are written all the same, unlisted. */
#define MADE 16
static char made[MADE][4096];
static volatile sig_atomic_t used[MADE];

static void hold(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGHUP);
    sigprocmask(SIG_BLOCK, &s, old);
}

/* Lists tmp (signals held by the caller). */
static void list(const char *tmp)
{
    static int registered;
    if (!registered && atexit(outfile_cleanup) == 0)
        registered = 1;
    for (int i = 0; i < MADE; i++)
        if (!used[i] && strlen(tmp) < sizeof made[i]) {
            strcpy(made[i], tmp);
            used[i] = 1;
            return;
        }
}

static void unlist(const char *tmp)
{
    sigset_t old;
    hold(&old);
    for (int i = 0; i < MADE; i++)
        if (used[i] && strcmp(made[i], tmp) == 0)
            used[i] = 0;
    sigprocmask(SIG_SETMASK, &old, NULL);
}

void outfile_remove_made(void)
{
    for (int i = 0; i < MADE; i++)
        if (used[i])
            unlink(made[i]);
}

void outfile_cleanup(void)
{
    sigset_t old;
    hold(&old);
    outfile_remove_made();
    for (int i = 0; i < MADE; i++)
        used[i] = 0;
    sigprocmask(SIG_SETMASK, &old, NULL);
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
    sigset_t old;
    hold(&old);
    int fd = mkstemp(o->tmp);
    if (fd >= 0)
        list(o->tmp);
    sigprocmask(SIG_SETMASK, &old, NULL);
    if (fd >= 0 && fchmod(fd, m) == 0 && (o->f = fdopen(fd, mode))) {
        errno = 0;
        return 0;
    }
    int e = errno;
    if (fd >= 0) {
        close(fd);
        unlink(o->tmp);
        unlist(o->tmp);
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
        unlist(o->tmp);             /* renamed or removed: no longer made */
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
    sigset_t old;
    hold(&old);
    int fd = mkstemp(tmp);
    if (fd >= 0) {
        close(fd);
        unlink(tmp);
    }
    int e = errno;
    sigprocmask(SIG_SETMASK, &old, NULL);
    errno = e;
    return fd < 0 ? -1 : 0;
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
        unlist(o->tmp);
    }
}
