/* closeout.h: a program's standard output checked, as gnulib's close_stdout:
 * a write that failed (a full disk, a closed pipe) ends the program with
 * exit status 1 and "PROG: writing standard output: REASON" on standard
 * error, never with 0 and a silently cut output.
 *
 *     int main(int argc, char **argv)
 *     {
 *         closeout_init("chunks");
 *         ...
 *
 * closeout_init ignores SIGPIPE (a reader that went away is then the error
 * EPIPE, said, not a silent death by a signal), makes stdout a stream of its
 * own over descriptor 1 that keeps the first failed write's reason (a
 * library may flush stdout, and lose the error, before the exit), and checks
 * standard output when the program exits (atexit): flushed and closed; on a
 * failure the message, the output files still open removed (outfile.h: none
 * half written is left) and _exit(1). Call it first in main, before
 * anything is written to stdout. prog must stay valid.
 */
#ifndef CLOSEOUT_H
#define CLOSEOUT_H

void closeout_init(const char *prog);
/* The same check now, the program going on when it passes: for a long
 * program's loop, to stop at the first failed line rather than compute for
 * nothing (standard output to a closed pipe or a full disk). */
void closeout_check(void);
/* The program's name given to closeout_init ("?" before). */
const char *closeout_prog(void);
/* Can the output of option opt be written at path (outfile_check)? Checked
 * before a run, so that no run is lost to an output it cannot write: 0, or
 * 1 (the exit status: a run that cannot be done) after "PROG: OPT PATH:
 * cannot write there: REASON". NULL, "-" (standard output) and "none" (no
 * output, when none_ok) pass. */
int closeout_output(const char *opt, const char *path, int none_ok);

#endif
