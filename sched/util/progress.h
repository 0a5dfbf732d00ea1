/* progress.h: long work a user can see and stop, for the programs (the
 * decisions in sched/ never call it): a progress line on a terminal, and
 * Ctrl-C that leaves no output half made.
 *
 *     progress_interrupt("sim", "no run record written");
 *     progress p;
 *     progress_start(&p, "sim", !quiet);
 *     while (... work ...)
 *         if (progress_due(&p))
 *             progress_show(&p, "%ld of %ld chunks", k, n);
 *     progress_end(&p);
 *
 * The line goes to standard error only when it is a terminal (never into a
 * log or a pipe), redrawn in place ("\r") at most twice a second, as
 * bin/coordinator's; progress_end ends it with a line break.
 *
 * progress_interrupt catches SIGINT (Ctrl-C), SIGTERM and SIGHUP (unless
 * ignored, as under nohup): the
 * handler removes every output file in the making (sched/util/outfile.h:
 * the new files beside their paths; an earlier run's file at the path stays
 * as it was), writes "PROG: interrupted (SIGINT): WHAT" on standard error,
 * and ends the process by that signal, with its default action: a shell
 * sees the status 128 + the signal's number (130 for Ctrl-C). Call it
 * before the work; the handler uses only async-signal-safe calls.
 */
#ifndef PROGRESS_H
#define PROGRESS_H

typedef struct progress {
    const char *prog;
    int on;             /* drawing: stderr is a terminal and it was wanted */
    int shown;          /* a line is on the screen */
    double t0, last;    /* when it started, when the line was last drawn (s) */
} progress;

/* Starts p for program prog; on when 'want' and stderr is a terminal. */
void progress_start(progress *p, const char *prog, int want);
/* 1 when the line should be drawn now: on, and half a second since the last
 * time (cheap: one clock reading). */
int progress_due(progress *p);
/* Draws "PROG: TEXT" in place (printf-style), with the seconds since
 * progress_start after it. Nothing when off. */
void progress_show(progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Erases the line (when one is drawn), for other output on the terminal;
 * the next progress_show draws it again. */
void progress_clear(progress *p);
/* Ends the line (a line break, when one was drawn). */
void progress_end(progress *p);
/* Seconds since progress_start. */
double progress_elapsed(const progress *p);

/* Work done in one long call (a library's, which has no place to show
 * progress): from progress_tick on, every second (SIGALRM), "PROG: WHAT,
 * N s" is drawn in place, until progress_tick_stop; a new progress_tick
 * changes WHAT (printf-style, cut to 200 characters). Only when on. */
void progress_tick(progress *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void progress_tick_stop(progress *p);

/* Files the handler removes too (unlink, then rmdir for a folder; at most 8,
 * removed last registered first): outputs written by another program (a
 * picture gnuplot draws) or a temporary folder. The path is copied;
 * progress_forget takes it off the list again (the file is complete). */
void progress_remove_on_interrupt(const char *path);
void progress_forget(const char *path);

/* Installs the handlers described above; 'what' says what the interrupted
 * run does not leave ("no run record written"); both strings must live on. */
void progress_interrupt(const char *prog, const char *what);

/* The same for a program that prints its results as it goes (a sweep's
 * lines on standard output, which a signal would cut in the middle of a
 * line): the first signal only asks to stop ("PROG: stopping at the next
 * whole line of output (Ctrl-C again: at once)"); the program looks at
 * progress_stopping() where its output is whole (after a line) and calls
 * progress_stop() there, which flushes standard output, says
 * "PROG: interrupted (SIGINT): WHAT" and ends by the signal. A second
 * signal ends it at once, as progress_interrupt's. */
void progress_interrupt_deferred(const char *prog, const char *what);
int progress_stopping(void);
void progress_stop(void);

#endif
