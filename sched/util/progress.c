/* progress.c: a progress line on a terminal and a clean Ctrl-C
 * (progress.h). */
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sched/util/outfile.h"
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

void progress_end(progress *p)
{
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

static void interrupted(int sig)
{
    outfile_remove_made();
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
