/* journal.c: the row strips' journal, for resuming a broken run
 * (dtss.h, options journal and resume; docs/runtime.md, "Resuming" under
 * the row strips).
 *
 * What it holds: the whole field at a barrier -- a step at which the master
 * holds every row's checkpoint of that same step (master.c, "Checkpoints":
 * every --checkpoint N-th report, and the last step). The FTCS steps are
 * deterministic and the field after step k depends on the job and k alone
 * (not on the strategy, the cut, --every, --checkpoint, C_t, the workers or
 * their number: tests/strips_pvm.sh checks bin/heat's field under each), so
 * a run resumed from a journaled barrier, with any of those, ends with the
 * field a run without a break gives, byte for byte.
 *
 * The file (runtime/core/jnl.h: u an unsigned 64-bit little-endian integer,
 * sum the FNV-1a 64 of the header's or the entry's bytes from its first on):
 *
 *   header   "DTSS-STR", u version (1), u rows, u row bytes, u steps,
 *            u job length, the job's bytes, sum
 *   entry F  'F', u step (1 .. steps), u bytes (rows x row bytes), the
 *            field's bytes after that step (row 0 first), sum
 *
 * An entry is written when a checkpoint is complete: every checkpoint is
 * journaled (--checkpoint N sets how often: every N-th report; the last
 * step's field too), with one fwrite and fflush, fsync'd at most once a
 * second and at the end. An entry cut short (a crash mid-write) or whose sum
 * is wrong ends the journal there: the barrier before it is the one resumed,
 * and what follows is cut off before the resumed run appends. A whole entry
 * whose sum holds but that is not this run's -- a step outside 1 .. steps,
 * not after the entry before it (barriers only move forward: a restore goes
 * back to the last checkpoint, and the next one journaled is after it), or
 * a field of another size -- is no crash's doing: the journal is refused,
 * naming the entry and its byte. So is a header of another run: rows, row
 * bytes, steps or job, each named.
 *
 * Its size. A resume needs the last barrier only, and a field may be large
 * (Table 1's: 128 MiB), so the file does not keep every barrier: it is
 * appended to while it holds fewer than two barriers or stays within SJ_SPAN
 * (32 MiB) bytes; past that, the next barrier begins it anew -- the header
 * and that barrier written to FILE.tmp, fsync'd, renamed over FILE (the
 * folder fsync'd): a crash leaves the old file or the new one, each whole.
 * So it holds at least the last barrier (the last two when they fit), and
 * at most max(2 barriers, 32 MiB) + one barrier. Each barrier is written
 * once: the cost is the field's bytes per checkpoint, and an fsync of one
 * field each time the file begins anew. Only a regular file begins anew (a
 * device or a pipe is appended to).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "runtime/dtss.h"
#include "runtime/core/wire.h"
#include "runtime/strips/journal.h"
#include "sched/strips/strips.h"
#include "sched/util/quote.h"

#define MAGIC "DTSS-STR"
#define VERSION 1

/* ---- writing ----------------------------------------------------------------- */

static void put_head(jnl_buf *o, const sj_run *run)
{
    jnl_put_head(o, MAGIC, VERSION);
    jnl_put_u(o, (uint64_t)run->rows);
    jnl_put_u(o, (uint64_t)run->row_bytes);
    jnl_put_u(o, (uint64_t)run->steps);
    jnl_put_bytes(o, run->job, run->job_len);
    jnl_put_sum(o, 0);
}

static size_t field_bytes(const sj_run *run)
{
    return (size_t)run->rows * run->row_bytes;
}

static void put_entry(jnl_buf *o, const sj_run *run, long step, const void *field)
{
    size_t at = o->n;
    jnl_put(o, "F", 1);
    jnl_put_u(o, (uint64_t)step);
    jnl_put_u(o, field_bytes(run));
    jnl_put(o, field, field_bytes(run));
    jnl_put_sum(o, at);
}

int sj_create(sj_file *j, const char *path, const sj_run *run, char *why, size_t len)
{
    struct stat st;
    *j = (sj_file){.path = path};
    j->regular = stat(path, &st) != 0 || S_ISREG(st.st_mode);
    if (jnl_create(&j->w, path) != 0) {
        int e = errno;
        snprintf(why, len, "cannot create it: %s", strerror(e));
        errno = e;
        return -1;
    }
    jnl_buf o = {0};
    put_head(&o, run);
    size_t n = o.n;
    const char *what = jnl_emit(&j->w, &o, 1);
    if (what) {
        snprintf(why, len, "%s", what);
        fclose(j->w.f);
        j->w.f = NULL;
        return -2;
    }
    j->size = (long)n;
    return 0;
}

int sj_reopen(sj_file *j, const char *path, long good_end, int held, long last)
{
    *j = (sj_file){.path = path, .regular = 1, .size = good_end, .held = held, .last = last};
    return jnl_reopen(&j->w, path, good_end);
}

/* Syncs the folder of path (a rename in it made durable); errors ignored. */
static void sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
    if (!dir)
        return;
    int fd = open(dir, O_RDONLY | O_DIRECTORY);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
    free(dir);
}

/* The file begun anew with the header and this barrier: FILE.tmp, fsync'd,
 * renamed over FILE. */
static const char *anew(sj_file *j, const sj_run *run, long step, const void *field)
{
    static char why[300];
    size_t n = strlen(j->path);
    char *tmp = malloc(n + 5);
    if (!tmp)
        return "out of memory";
    memcpy(tmp, j->path, n);
    memcpy(tmp + n, ".tmp", 5);
    jnl_w nw;
    if (jnl_create(&nw, tmp) != 0) {
        snprintf(why, sizeof why, "creating %s: %s", quote(tmp), strerror(errno));
        free(tmp);
        return why;
    }
    jnl_buf o = {0};
    put_head(&o, run);
    put_entry(&o, run, step, field);
    size_t bytes = o.n;
    const char *what = jnl_emit(&nw, &o, 1);
    if (!what && rename(tmp, j->path) != 0)
        what = strerror(errno);
    if (what) {
        fclose(nw.f);
        unlink(tmp);
        free(tmp);
        return what;
    }
    free(tmp);
    sync_dir(j->path);
    fclose(j->w.f);             /* the old file's inode, now unlinked */
    j->w = nw;
    j->size = (long)bytes;
    j->held = 1;
    j->anew++;
    return NULL;
}

const char *sj_barrier(sj_file *j, const sj_run *run, long step, const void *field)
{
    if (!j->w.f)
        return NULL;
    long e = 25 + (long)field_bytes(run);
    const char *what;
    if (j->regular && j->held >= 2 && j->size + e > SJ_SPAN) {
        what = anew(j, run, step, field);
    } else {
        jnl_buf o = {0};
        put_entry(&o, run, step, field);
        what = jnl_emit(&j->w, &o, 0);
        if (!what) {
            j->size += e;
            j->held++;
        }
    }
    if (what) {
        fclose(j->w.f);
        j->w.f = NULL;
        return what;
    }
    j->last = step;
    return NULL;
}

void sj_close(sj_file *j)
{
    jnl_close(&j->w);
}

/* ---- reading ----------------------------------------------------------------- */

/* Reads n bytes into dst, or (dst NULL) through a small buffer: 0 or -1. */
static int get_bytes(jnl_rd *r, unsigned char *dst, uint64_t n)
{
    if (dst)
        return jnl_get(r, dst, (size_t)n);
    unsigned char b[65536];
    while (n > 0) {
        size_t k = n < sizeof b ? (size_t)n : sizeof b;
        if (jnl_get(r, b, k) != 0)
            return -1;
        n -= k;
    }
    return 0;
}

/* why = the formatted text: DTSS_EINVAL. */
__attribute__((format(printf, 3, 4)))
static int bad(char *why, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
    return DTSS_EINVAL;
}

int sj_scan(const char *path, const sj_run *run, unsigned char *buf[2], sj_found *f,
            char *why, size_t len)
{
    jnl_rd r;
    char w[200];
    *f = (sj_found){.which = -1};
    if (jnl_open(&r, path, MAGIC, VERSION, w, sizeof w) != 0) {
        int code = errno == ENOENT ? DTSS_ENOENT : DTSS_EINVAL;
        snprintf(why, len, "%s", w);
        return code;
    }
    uint64_t rows, rb, steps, jl = 0;
    unsigned char *job = NULL;
    int rc = DTSS_OK;
    if (jnl_get_u(&r, &rows) != 0 || rows < 1 || rows > STRIPS_MAX_ROWS ||
        jnl_get_u(&r, &rb) != 0 || rb < 1 || rb > WIRE_MAX_JOB ||
        jnl_get_u(&r, &steps) != 0 || steps > 1000000000 ||
        jnl_get_len(&r, WIRE_MAX_JOB, &jl) != 0 || !(job = malloc(jl ? jl : 1)) ||
        jnl_get(&r, job, jl) != 0)
        rc = bad(why, len, "its header is damaged");
    else if (jnl_get_sum(&r) != 0)
        rc = bad(why, len, "its header is damaged (checksum)");
    else if (rows != (uint64_t)run->rows)
        rc = bad(why, len, "the journal's run has %llu rows, this one %ld",
                (unsigned long long)rows, run->rows);
    else if (rb != run->row_bytes)
        rc = bad(why, len, "the journal's run has rows of %llu bytes, this one's %zu",
                (unsigned long long)rb, run->row_bytes);
    else if (steps != (uint64_t)run->steps)
        rc = bad(why, len, "the journal's run has %llu steps, this one %ld",
                (unsigned long long)steps, run->steps);
    else if (jl != run->job_len)
        rc = bad(why, len, "the journal's run has a job of %llu bytes, this one %zu",
                (unsigned long long)jl, run->job_len);
    else {
        size_t k = 0;
        while (k < jl && job[k] == ((const unsigned char *)run->job)[k])
            k++;
        if (k < jl)
            rc = bad(why, len, "the journal's run has another job (its %llu bytes "
                 "differ from byte %zu on)", (unsigned long long)jl, k);
    }
    free(job);
    if (rc != DTSS_OK) {
        fclose(r.f);
        return rc;
    }
    f->good_end = jnl_tell(&r);
    uint64_t want = (uint64_t)run->rows * run->row_bytes;
    int cur = 0;
    long entry = 0;
    for (;;) {
        unsigned char k;
        uint64_t step, n;
        jnl_begin(&r);
        if (jnl_get(&r, &k, 1) != 0 || k != 'F' || jnl_get_u(&r, &step) != 0 ||
            jnl_get_len(&r, (uint64_t)r.left, &n) != 0 ||
            get_bytes(&r, n == want ? buf[cur] : NULL, n) != 0 || jnl_get_sum(&r) != 0)
            break;                      /* the end, or torn, or damaged */
        entry++;
        const char *bad = NULL;
        char m[120];
        if (step < 1 || step > (uint64_t)run->steps) {
            snprintf(m, sizeof m, "its step %llu is outside the run's 1 .. %ld",
                     (unsigned long long)step, run->steps);
            bad = m;
        } else if ((long)step <= f->step) {
            snprintf(m, sizeof m, "its step %llu is not after entry %ld's %ld",
                     (unsigned long long)step, entry - 1, f->step);
            bad = m;
        } else if (n != want) {
            snprintf(m, sizeof m, "its field is %llu bytes, not the run's %ld rows x %zu",
                     (unsigned long long)n, run->rows, run->row_bytes);
            bad = m;
        }
        if (bad) {
            snprintf(why, len, "entry %ld (at byte %ld): %s: a damaged journal, or another "
                     "run's", entry, f->good_end, bad);
            fclose(r.f);
            return DTSS_EINVAL;
        }
        f->step = (long)step;
        f->which = cur;
        f->held++;
        cur ^= 1;
        f->good_end = jnl_tell(&r);
    }
    f->torn = jnl_torn(&r, f->good_end);
    fclose(r.f);
    return DTSS_OK;
}
