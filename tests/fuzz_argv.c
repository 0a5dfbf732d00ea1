/* fuzz_argv.c: the options of every program, fuzzed: each program of BINDIR
 * run RUNS times with a random command line made of its own options (read
 * from its --help) and hostile values (huge, negative, not numbers, empty,
 * quotes, $(...), '%n', very long, a NUL-free 5000-byte word). A run fails
 * when the program dies by a signal (a crash, an abort), exits with a status
 * other than 0, 1 or 2, or prints a sanitizer report; a run still going
 * after TIMEOUT seconds is ended (by its PID) and counted as long, not
 * failed (a legal command line may ask for much work). Every failing
 * command line is printed, quoted, to run again by hand.
 *
 * Each run starts in a fresh private folder (its cwd, HOME and TMPDIR), with
 * PVM_TMP pointing at an empty folder, so a program that needs PVM finds no
 * pvmd (and none of anyone's), and its output files (relative names only)
 * stay there; files are capped at 64 MiB, CPU at TIMEOUT seconds.
 *
 *   fuzz_argv BINDIR RUNS [SEED [TIMEOUT [PROGRAM...]]]
 *
 * Exit status 0 when no run failed, 1 otherwise, 2 for bad usage; 130 when
 * interrupted (SIGINT, SIGTERM: the run in progress is ended by its PID and
 * the folder removed).
 */
#define _XOPEN_SOURCE 700         /* nftw */
#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <signal.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <gsl/gsl_rng.h>

#include "sched/util/parse.h"

static const char *const programs[] = {
    "chunks", "mandel", "coordinator", "worker", "integral", "loop", "tabulate", "record",
    "sim", "stats", "dagsched", "daggen", "dagexp", "matrix", "pooltrace", "thin",
    "thin-images", "thin-pool", "yoon-plan", "netpipe", "heat", "yoon-tasks",
    "yoon-sim", "jacobi", "heat-pvm", "readings", NULL
};

static char longword[5001];
static const char *const values[] = {
    "0", "1", "2", "-1", "3.5", "1e308", "-1e308", "1e-320", "nan", "inf", "-0",
    "2147483647", "2147483648", "4294967297", "9223372036854775807",
    "9223372036854775808", "-9223372036854775809", "0x10", "1,2,3", "1,,2", ",",
    "", " ", "abc", "a b", "x,y", "dtss", "tss", "tree", "adjust", "static", "dot",
    "out.pgm", "rec.csv", "g.dag", "x.pbm", "-", "--", "%s%n%x", "$(id)", "`id`",
    "'", "\"", ";", "a\nb", "w1", "w1:3", "0:1,1:0", longword, NULL
};

#define MAXOPT 256
#define MAXARG 12

/* The options a program's --help names ("-x", "--word"), into opt[]: the
 * program run with --help, its output read through a pipe. */
static int options_of(const char *path, char **opt)
{
    int fd[2];
    if (pipe(fd) != 0)
        return 0;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        dup2(fd[1], 2);
        close(fd[0]);
        close(fd[1]);
        execl(path, path, "--help", (char *)NULL);
        _exit(127);
    }
    close(fd[1]);
    FILE *p = pid > 0 ? fdopen(fd[0], "r") : NULL;
    if (!p) {
        close(fd[0]);
        if (pid > 0)
            waitpid(pid, NULL, 0);
        return 0;
    }
    int n = 0;
    char word[128];
    int c, len = 0;
    while ((c = fgetc(p)) != EOF) {
        if (c == '-' || (len > 0 && (c == '-' || (c >= 'a' && c <= 'z') ||
                                     (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')))) {
            if (len < (int)sizeof word - 1)
                word[len++] = (char)c;
            continue;
        }
        word[len] = '\0';
        if (len >= 2 && word[0] == '-' && word[1] != '-' && len == 2 && n < MAXOPT) {
            opt[n++] = strdup(word);
        } else if (len >= 3 && word[0] == '-' && word[1] == '-' && word[2] != '-' &&
                   n < MAXOPT) {
            int seen = 0;
            for (int i = 0; i < n && !seen; i++)
                seen = strcmp(opt[i], word) == 0;
            if (!seen)
                opt[n++] = strdup(word);
        }
        len = 0;
    }
    fclose(p);
    waitpid(pid, NULL, 0);
    return n;
}

static int remove_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
    (void)st;
    (void)flag;
    (void)ftw;
    return remove(path) == 0 || errno == ENOENT ? 0 : -1;
}

/* rm -rf dir (no symbolic link followed). 0, or -1. */
static int remove_tree(const char *dir)
{
    return nftw(dir, remove_one, 16, FTW_DEPTH | FTW_PHYS) == 0 || errno == ENOENT ? 0 : -1;
}

/* Prints argv quoted for a shell (to run a failing case again by hand). */
static void print_quoted(FILE *f, char **argv)
{
    for (int i = 0; argv[i]; i++) {
        if (argv[i] == longword) {
            fprintf(f, " \"$(head -c %zu /dev/zero | tr '\\0' a)\"", sizeof longword - 1);
            continue;
        }
        fputs(i ? " '" : "'", f);
        for (const char *s = argv[i]; *s; s++) {
            if (*s == '\'')
                fputs("'\\''", f);
            else if (*s == '\n')
                fputs("'\"\\n\"'", f);
            else
                fputc(*s, f);
        }
        fputc('\'', f);
    }
    fputc('\n', f);
}

static int sanitizer_report(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char line[1024];
    int found = 0;
    while (!found && fgets(line, sizeof line, f))
        found = strstr(line, "runtime error:") || strstr(line, "ERROR: AddressSanitizer") ||
                strstr(line, "ERROR: LeakSanitizer");
    fclose(f);
    return found;
}

/* The run in progress and the folder of the runs: an interrupted fuzz_argv
 * ends its child (by its PID) and removes the folder. */
static volatile pid_t child = -1;
static volatile sig_atomic_t stop;
static void interrupted(int sig)
{
    (void)sig;
    stop = 1;
    if (child > 0)
        kill(child, SIGKILL);
}

/* Runs argv in dir; 0 fine, 1 failed (why printed), 2 long (ended). */
static int run_one(char **argv, const char *dir, int timeout)
{
    char err[PATH_MAX + 16];
    snprintf(err, sizeof err, "%s/.stderr", dir);
    fflush(stdout);
    pid_t pid = fork();
    if (pid < 0)
        return perror("fork"), 1;
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        signal(SIGTERM, SIG_DFL);
        if (chdir(dir) != 0)
            _exit(126);
        char pvm[PATH_MAX + 16];
        snprintf(pvm, sizeof pvm, "%s/.pvm", dir);
        setenv("HOME", dir, 1);
        setenv("TMPDIR", dir, 1);
        setenv("PVM_TMP", pvm, 1);
        setenv("ASAN_OPTIONS", "detect_leaks=1:abort_on_error=0", 0);
        /* CPU: SIGXCPU at the soft limit (a long run); the hard one, later,
         * would be a SIGKILL that could not be told from a crash's. */
        struct rlimit fs = {64 << 20, 64 << 20}, cpu = {(rlim_t)timeout, (rlim_t)timeout + 5};
        setrlimit(RLIMIT_FSIZE, &fs);
        setrlimit(RLIMIT_CPU, &cpu);
        if (!freopen("/dev/null", "r", stdin) || !freopen("/dev/null", "w", stdout) ||
            !freopen(err, "w", stderr))
            _exit(126);
        execv(argv[0], argv);
        _exit(127);
    }
    child = pid;
    int st = 0, waited = 0;
    for (int tick = 0; tick < timeout * 20; tick++) {
        pid_t r = waitpid(pid, &st, WNOHANG);
        if (r == pid) {
            waited = 1;
            break;
        }
        struct timespec ts = {0, 50000000};
        nanosleep(&ts, NULL);
    }
    if (!waited) {
        kill(pid, SIGKILL);
        waitpid(pid, &st, 0);
        child = -1;
        return 2;
    }
    child = -1;
    if (stop)
        return 2;               /* ended by us, interrupted */
    const char *why = NULL;
    char buf[64];
    if (WIFSIGNALED(st) && WTERMSIG(st) == SIGXCPU)
        return 2;
    if (WIFSIGNALED(st)) {
        snprintf(buf, sizeof buf, "killed by signal %d", WTERMSIG(st));
        why = buf;
    } else if (WEXITSTATUS(st) > 2) {
        snprintf(buf, sizeof buf, "exit status %d", WEXITSTATUS(st));
        why = buf;
    } else if (sanitizer_report(err))
        why = "a sanitizer report";
    if (!why)
        return 0;
    printf("FAIL (%s): ", why);
    print_quoted(stdout, argv);
    return 1;
}

int main(int argc, char **argv)
{
    long runs, seed = 1, timeout = 10;
    if (argc < 3 || parse_long_in(argv[2], 1, 100000000, &runs) != 0 ||
        (argc > 3 && parse_long_in(argv[3], 0, 4294967295L, &seed) != 0) ||
        (argc > 4 && parse_long_in(argv[4], 1, 3600, &timeout) != 0)) {
        fprintf(stderr, "usage: fuzz_argv BINDIR RUNS [SEED [TIMEOUT [PROGRAM...]]]\n");
        return 2;
    }
    char bindir[PATH_MAX];      /* absolute: the runs start in their own folder */
    if (!realpath(argv[1], bindir)) {
        fprintf(stderr, "fuzz_argv: %s: %s\n", argv[1], strerror(errno));
        return 2;
    }
    memset(longword, 'a', sizeof longword - 1);
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, (unsigned long)seed);
    char root[] = "/tmp/dtss-fuzz-argv.XXXXXX";
    if (!r || !mkdtemp(root)) {
        perror("fuzz_argv");
        return 2;
    }
    struct sigaction sa = {.sa_handler = interrupted};
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGTERM, &sa, NULL);
    int failed = 0;
    long nvalues = 0;
    while (values[nvalues])
        nvalues++;
    const char *const *list = argc > 5 ? (const char *const *)argv + 5 : programs;
    int nprog = 0;
    while (list[nprog])
        nprog++;
    printf("%-12s %6s %6s %6s %6s\n", "program", "opts", "runs", "long", "failed");
    for (int k = 0; k < nprog && !stop; k++) {
        char *opt[MAXOPT];
        char path[PATH_MAX + 64];
        snprintf(path, sizeof path, "%s/%s", bindir, list[k]);
        int nopt = access(path, X_OK) == 0 ? options_of(path, opt) : 0;
        if (access(path, X_OK) != 0 || nopt == 0) {
            printf("%-12s: no program or no options in its --help\n", list[k]);
            failed++;
            continue;
        }
        long nlong = 0, nfail = 0;
        for (long i = 0; i < runs && !stop; i++) {
            char dir[64];
            snprintf(dir, sizeof dir, "%s/run", root);
            char pvm[96];
            snprintf(pvm, sizeof pvm, "%s/.pvm", dir);
            if (remove_tree(dir) != 0 || mkdir(dir, 0700) != 0 || mkdir(pvm, 0700) != 0) {
                fprintf(stderr, "fuzz_argv: cannot make %s: %s\n", dir, strerror(errno));
                return 2;
            }
            char *av[2 * MAXARG + 2];
            int n = 0;
            av[n++] = path;
            int words = (int)gsl_rng_uniform_int(r, MAXARG);
            for (int w = 0; w < words; w++) {
                unsigned long pick = gsl_rng_uniform_int(r, 10);
                if (pick < 6)
                    av[n++] = opt[gsl_rng_uniform_int(r, (unsigned long)nopt)];
                if (pick >= 3)
                    av[n++] = (char *)values[gsl_rng_uniform_int(r, (unsigned long)nvalues)];
            }
            av[n] = NULL;
            int rc = run_one(av, dir, (int)timeout);
            nlong += rc == 2;
            nfail += rc == 1;
        }
        printf("%-12s %6d %6ld %6ld %6ld\n", list[k], nopt, runs, nlong, nfail);
        fflush(stdout);
        failed += nfail > 0;
        for (int i = 0; i < nopt; i++)
            free(opt[i]);
    }
    if (remove_tree(root) != 0)
        fprintf(stderr, "fuzz_argv: could not remove %s\n", root);
    gsl_rng_free(r);
    if (stop) {
        fprintf(stderr, "fuzz_argv: interrupted\n");
        return 130;
    }
    return failed ? 1 : 0;
}
