/* args.c: a library's options out of argv (args.h). */
#include <stdio.h>
#include <string.h>

#include "runtime/core/args.h"
#include "runtime/dtss.h"
#include "sched/util/quote.h"

int args_take(int *argc, char **argv, const args_ops *ops, void *ctx)
{
    int out = 1, i = 1;
    while (i < *argc) {
        char *a = argv[i];
        if (strcmp(a, "--") == 0)
            break;
        if (strncmp(a, "--", 2) != 0 || !a[2]) {
            argv[out++] = argv[i++];
            continue;
        }
        char name[64], msg[128];
        const char *eq = strchr(a + 2, '=');
        size_t n = eq ? (size_t)(eq - (a + 2)) : strlen(a + 2);
        int kind = -1;
        if (n < sizeof name) {
            memcpy(name, a + 2, n);
            name[n] = '\0';
            kind = ops->kind(ctx, name);
        }
        if (kind < 0) {
            argv[out++] = argv[i++];        /* the application's */
            continue;
        }
        const char *value = NULL;
        if (kind) {
            if (eq)
                value = eq + 1;
            else if (i + 1 < *argc)
                value = argv[++i];
            else {
                snprintf(msg, sizeof msg, "option '--%s' needs a value", quote(name));
                return ops->fail(ctx, msg);
            }
        } else if (eq) {
            snprintf(msg, sizeof msg, "option '--%s' takes no value", quote(name));
            return ops->fail(ctx, msg);
        }
        int rc = ops->set(ctx, name, value);
        if (rc != DTSS_OK)
            return rc;
        i++;
    }
    while (i < *argc)
        argv[out++] = argv[i++];
    argv[out] = NULL;
    *argc = out;
    return DTSS_OK;
}
