/* main.c: bin/worker (probe mode only, for now). */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "worker/probe.h"

int main(int argc, char **argv)
{
    probe_backend b = PROBE_AUTO;
    int probe_only = 0;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--probe") == 0)
            probe_only = 1;
        else if (strcmp(argv[i], "--backend") == 0 && i + 1 < argc &&
                 probe_backend_parse(argv[i + 1], &b) == 0)
            i++;
        else {
            fprintf(stderr, "worker: bad argument '%s'\n", argv[i]);
            return 2;
        }
    }
    if (!probe_only)
        return 2;
    probe p;
    char msg[256], host[256];
    if (probe_init(&p, b, msg, sizeof msg) != 0) {
        fprintf(stderr, "worker: %s\n", msg);
        return 1;
    }
    int q = probe_queue(&p, msg, sizeof msg);
    if (q < 0) {
        fprintf(stderr, "worker: %s\n", msg);
        return 1;
    }
    gethostname(host, sizeof host);
    printf("host=%s backend=%s cgroup=%s Q=%d\n", host, probe_backend_name(p.backend),
           p.cgroup, q);
    return 0;
}
