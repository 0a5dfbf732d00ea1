/* probe.c: run-queue length from /proc, for the host or for one cpu cgroup. */
#define _GNU_SOURCE            /* sched_getaffinity, CPU_COUNT */
#include <ctype.h>
#include <sched.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "probe.h"

/* The cpu cgroup path in a /proc/PID/cgroup file: the cgroup v1 line whose
 * controller list holds "cpu", else the v2 line "0::PATH". Returns 0 or -1. */
static int read_cpu_cgroup(const char *file, char *out, size_t len)
{
    FILE *f = fopen(file, "r");
    if (!f)
        return -1;
    char line[1024], v2[512] = "";
    int found = 0;
    while (!found && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\n")] = '\0';
        char *c1 = strchr(line, ':');
        char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2)
            continue;
        *c2 = '\0';
        const char *ctrls = c1 + 1, *path = c2 + 1;
        if (*ctrls == '\0') {                      /* cgroup v2 */
            snprintf(v2, sizeof v2, "%s", path);
            continue;
        }
        char buf[256];
        snprintf(buf, sizeof buf, "%s", ctrls);
        for (char *tok = strtok(buf, ","); tok; tok = strtok(NULL, ","))
            if (strcmp(tok, "cpu") == 0) {
                snprintf(out, len, "%s", path);
                found = 1;
            }
    }
    fclose(f);
    if (!found && v2[0]) {
        snprintf(out, len, "%s", v2);
        found = 1;
    }
    return found ? 0 : -1;
}

int probe_init(probe *p, probe_backend b, char *msg, size_t len)
{
    p->loadavg = -1;
    if (read_cpu_cgroup("/proc/self/cgroup", p->cgroup, sizeof p->cgroup) != 0) {
        if (b == PROBE_CGROUP) {
            snprintf(msg, len, "reading /proc/self/cgroup: %s",
                     errno ? strerror(errno) : "no cpu cgroup line");
            return -1;
        }
        snprintf(p->cgroup, sizeof p->cgroup, "/");
    }
    if (b == PROBE_AUTO)
        b = strncmp(p->cgroup, "/dtss/", 6) == 0 ? PROBE_CGROUP : PROBE_PROC;
    p->backend = b;
    p->cpus = 1;
    cpu_set_t set;
    if (b == PROBE_PROC && sched_getaffinity(0, sizeof set, &set) == 0 && CPU_COUNT(&set) > 1)
        p->cpus = CPU_COUNT(&set);
    /* Kept open: each measure is then one pread, not open-read-close (the
     * worker measures before every request). */
    p->loadavg = b == PROBE_PROC ? open("/proc/loadavg", O_RDONLY | O_CLOEXEC) : -1;
    if (b == PROBE_PROC && p->loadavg < 0) {
        snprintf(msg, len, "open(/proc/loadavg): %s", strerror(errno));
        return -1;
    }
    return 0;
}

/* The host's runnable tasks: the fourth field of /proc/loadavg, "R/T", whose
 * R is the kernel's nr_running(), as procs_running in /proc/stat (which is
 * larger and twice as slow to read). */
static int queue_proc(const probe *p, char *msg, size_t len)
{
    char buf[128];
    ssize_t n = pread(p->loadavg, buf, sizeof buf - 1, 0);
    if (n <= 0) {
        snprintf(msg, len, "read(/proc/loadavg): %s", n < 0 ? strerror(errno) : "empty");
        return -1;
    }
    buf[n] = '\0';
    double l1, l5, l15;
    int q, total;
    if (sscanf(buf, "%lf %lf %lf %d/%d", &l1, &l5, &l15, &q, &total) != 5 || q < 0) {
        snprintf(msg, len, "/proc/loadavg: no running/total field");
        return -1;
    }
    return q;
}

/* Is the task of this stat file runnable (state R, the field after the
 * last ')'), and not a pvmd? The emulated host's pvmd lives in the host's
 * cgroup (so that what it spawns does too) but is no load: it runs only to
 * relay a message, often just when the worker probes, which would read an
 * idle host as Q = 2. On a real host the proc back-end counts it, as
 * /proc/loadavg does. */
static int task_runs(const char *statfile)
{
    FILE *f = fopen(statfile, "r");
    if (!f)
        return 0;
    char buf[512];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *lp = strchr(buf, '('), *rp = strrchr(buf, ')');
    if (!lp || !rp || rp < lp || rp[1] != ' ' || rp[2] != 'R')
        return 0;
    return !(rp - lp - 1 == 4 && strncmp(lp + 1, "pvmd", 4) == 0);
}

static int all_digits(const char *s)
{
    for (; *s; s++)
        if (!isdigit((unsigned char)*s))
            return 0;
    return 1;
}

static int queue_cgroup(const probe *p, char *msg, size_t len)
{
    DIR *proc = opendir("/proc");
    if (!proc) {
        snprintf(msg, len, "opendir(/proc): %s", strerror(errno));
        return -1;
    }
    int q = 0;
    struct dirent *de;
    char path[600], cg[512];
    while ((de = readdir(proc))) {
        if (!all_digits(de->d_name))
            continue;
        snprintf(path, sizeof path, "/proc/%s/task", de->d_name);
        DIR *tasks = opendir(path);
        if (!tasks)
            continue;                       /* exited meanwhile */
        int running = 0;
        struct dirent *te;
        while ((te = readdir(tasks))) {
            if (!all_digits(te->d_name))
                continue;
            snprintf(path, sizeof path, "/proc/%s/task/%s/stat", de->d_name,
                     te->d_name);
            running += task_runs(path);
        }
        closedir(tasks);
        if (!running)
            continue;
        snprintf(path, sizeof path, "/proc/%s/cgroup", de->d_name);
        if (read_cpu_cgroup(path, cg, sizeof cg) == 0 && strcmp(cg, p->cgroup) == 0)
            q += running;
    }
    closedir(proc);
    return q;
}

int probe_queue(const probe *p, char *msg, size_t len)
{
    int q = p->backend == PROBE_CGROUP ? queue_cgroup(p, msg, len)
                                       : queue_proc(p, msg, len);
    return q < 0 ? -1 : q < 1 ? 1 : q;
}

void probe_close(probe *p)
{
    if (p->loadavg >= 0)
        close(p->loadavg);
    p->loadavg = -1;
}
