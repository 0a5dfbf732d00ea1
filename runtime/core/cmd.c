/* cmd.c: a command run with its arguments as arguments (no shell), its
 * output read back (cmd.h). */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "runtime/core/cmd.h"

extern char **environ;

int rt_cmd(char *const argv[], char *out, size_t len, char *err, size_t elen)
{
    int po[2], pe[2];
    out[0] = err[0] = '\0';
    if (pipe(po) != 0)
        return snprintf(err, elen, "pipe: %s", strerror(errno)), -1;
    if (pipe(pe) != 0) {
        close(po[0]);
        close(po[1]);
        return snprintf(err, elen, "pipe: %s", strerror(errno)), -1;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, po[1], 1);
    posix_spawn_file_actions_adddup2(&fa, pe[1], 2);
    posix_spawn_file_actions_addclose(&fa, po[0]);
    posix_spawn_file_actions_addclose(&fa, pe[0]);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    close(po[1]);
    close(pe[1]);
    if (rc != 0) {
        close(po[0]);
        close(pe[0]);
        snprintf(err, elen, "%s: %s", argv[0], strerror(rc));
        return -1;
    }
    size_t no = 0, ne = 0;
    struct pollfd fd[2] = {{.fd = po[0], .events = POLLIN}, {.fd = pe[0], .events = POLLIN}};
    while (fd[0].fd >= 0 || fd[1].fd >= 0) {
        if (poll(fd, 2, -1) < 0) {
            if (errno == EINTR)
                continue;
            break;
        }
        for (int k = 0; k < 2; k++) {
            if (fd[k].fd < 0 || !fd[k].revents)
                continue;
            char buf[1024];
            ssize_t n = read(fd[k].fd, buf, sizeof buf);
            if (n <= 0) {
                close(fd[k].fd);
                fd[k].fd = -1;
                continue;
            }
            char *to = k ? err : out;
            size_t *at = k ? &ne : &no, cap = k ? elen : len;
            size_t m = (size_t)n < cap - 1 - *at ? (size_t)n : cap - 1 - *at;
            memcpy(to + *at, buf, m);
            *at += m;
            to[*at] = '\0';
        }
    }
    int st;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    err[strcspn(err, "\n")] = '\0';
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + (WIFSIGNALED(st) ? WTERMSIG(st) : 0);
}
