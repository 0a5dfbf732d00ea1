/* progress.c: a progress line on a terminal and a clean Ctrl-C
 * (progress.h). */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "sched/util/outfile.h"
#include "sched/util/conv.h"
#include "sched/util/progress.h"

/* Whether a progress line is on the screen, for the handler's message. */
static volatile sig_atomic_t line_open;
static const char *int_prog = "", *int_what = "";

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

void progress_start(progress *p, const char *prog, int want)
{
    p->prog = prog;
    p->on = want && isatty(STDERR_FILENO);
    p->shown = 0;
    p->t0 = now();
    p->last = p->t0;        /* the first line after half a second: short work shows none */
}

int progress_due(progress *p)
{
    if (!p->on)
        return 0;
    double t = now();
    if (t - p->last < 0.5)
        return 0;
    p->last = t;
    return 1;
}

double progress_elapsed(const progress *p)
{
    return now() - p->t0;
}

void progress_show(progress *p, const char *fmt, ...)
{
    if (!p->on)
        return;
    char text[300];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    /* "\033[K" clears what a longer earlier line left on the right. */
    fprintf(stderr, "\r%s: %s, %.0f s\033[K", p->prog, text, now() - p->t0);
    fflush(stderr);
    p->shown = 1;
    line_open = 1;
}

void progress_clear(progress *p)
{
    progress_tick_stop(p);
    if (p->on && p->shown) {
        fputs("\r\033[K", stderr);
        fflush(stderr);
    }
    p->shown = 0;
    line_open = 0;
}

void progress_end(progress *p)
{
    progress_tick_stop(p);
    if (p->on && p->shown) {
        fputc('\n', stderr);
        fflush(stderr);
    }
    p->shown = 0;
    line_open = 0;
}

static void say(const char *s)
{
    if (write(STDERR_FILENO, s, strlen(s)) < 0)
        return;
}

/* ---- the ticker: a line drawn by SIGALRM ---------------------------------- */

static char tick_text[2][208];
static const char *volatile tick_what;      /* one of tick_text, or NULL */
static const char *tick_prog = "";
static double tick_t0;
static int tick_next;

static void ticked(int sig)
{
    (void)sig;
    const char *what = tick_what;
    if (!what)
        return;
    int e = errno;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    long secs = conv_clamp((double)ts.tv_sec + (double)ts.tv_nsec * 1e-9 - tick_t0, 0, LONG_MAX);
    char num[24], *q = num + sizeof num;
    *--q = '\0';
    do
        *--q = (char)('0' + secs % 10);
    while ((secs /= 10) > 0);
    say("\r");
    say(tick_prog);
    say(": ");
    say(what);
    say(", ");
    say(q);
    say(" s\033[K");
    line_open = 1;
    errno = e;
}

void progress_tick(progress *p, const char *fmt, ...)
{
    if (!p->on)
        return;
    char *buf = tick_text[tick_next];   /* not the one the handler may read */
    tick_next ^= 1;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof tick_text[0], fmt, ap);
    va_end(ap);
    int first = !tick_what;
    tick_prog = p->prog;
    tick_t0 = p->t0;
    tick_what = buf;
    p->shown = 1;
    if (!first)
        return;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = ticked;
    sa.sa_flags = SA_RESTART;           /* the work's reads and writes go on */
    sigemptyset(&sa.sa_mask);
    sigaction(SIGALRM, &sa, NULL);
    struct itimerval it = {{1, 0}, {0, 500000}};
    setitimer(ITIMER_REAL, &it, NULL);
}

void progress_tick_stop(progress *p)
{
    if (!tick_what)
        return;
    struct itimerval off = {{0, 0}, {0, 0}};
    setitimer(ITIMER_REAL, &off, NULL);
    tick_what = NULL;
    (void)p;
}

/* progress_remove_on_interrupt's paths: a slot is in use when its flag is
 * set, which is done after the name is written and undone before. */
#define TOREMOVE 8
static char remove_path[TOREMOVE][4096];
static volatile sig_atomic_t remove_used[TOREMOVE];

void progress_remove_on_interrupt(const char *path)
{
    for (int i = 0; i < TOREMOVE; i++)
        if (!remove_used[i] && strlen(path) < sizeof remove_path[i]) {
            strcpy(remove_path[i], path);
            remove_used[i] = 1;
            return;
        }
}

void progress_forget(const char *path)
{
    for (int i = 0; i < TOREMOVE; i++)
        if (remove_used[i] && strcmp(remove_path[i], path) == 0)
            remove_used[i] = 0;
}

/* Deferred: the first signal is kept here for progress_stop. */
static volatile sig_atomic_t deferred, pending;

static void die(int sig);

static void interrupted(int sig)
{
    if (deferred && !pending) {
        pending = sig;
        if (line_open)
            say("\n");
        line_open = 0;
        say(int_prog);
        say(": stopping at the next whole line of output (Ctrl-C again: at once)\n");
        return;
    }
    die(sig);
}

int progress_stopping(void)
{
    return pending != 0;
}

void progress_stop(void)
{
    fflush(stdout);
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGHUP);
    sigprocmask(SIG_BLOCK, &s, NULL);   /* no second signal half way */
    die(pending ? pending : SIGINT);
}

/* Ends the program by sig, leaving no output in the making. */
static void die(int sig)
{
    outfile_remove_made();
    for (int i = TOREMOVE - 1; i >= 0; i--)
        if (remove_used[i] && unlink(remove_path[i]) != 0)
            rmdir(remove_path[i]);
    if (line_open)
        say("\n");
    say(int_prog);
    say(": interrupted (");
    say(sig == SIGINT ? "SIGINT" : sig == SIGTERM ? "SIGTERM" : "SIGHUP");
    say("): ");
    say(int_what);
    say("\n");
    /* End by the signal itself, so that a shell or a make sees it. */
    signal(sig, SIG_DFL);
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, sig);
    sigprocmask(SIG_UNBLOCK, &s, NULL);
    raise(sig);
    _exit(128 + sig);
}

void progress_interrupt_deferred(const char *prog, const char *what)
{
    deferred = 1;
    progress_interrupt(prog, what);
}

void progress_interrupt(const char *prog, const char *what)
{
    int_prog = prog;
    int_what = what;
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = interrupted;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaddset(&sa.sa_mask, SIGHUP);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    /* A hangup stays ignored under nohup. */
    struct sigaction old;
    if (sigaction(SIGHUP, NULL, &old) == 0 && old.sa_handler != SIG_IGN)
        sigaction(SIGHUP, &sa, NULL);
}
