/* args.h: taking a library's options out of a program's argv (not
 * installed): "--name value", "--name=value", flags alone; stops at "--";
 * what is not the library's stays, in order. dtss_master_args and
 * dtss_pool_args both go through it. */
#ifndef ARGS_H
#define ARGS_H

typedef struct args_ops {
    /* -1: not an option of the library; 0: a flag; 1: takes a value */
    int (*kind)(void *ctx, const char *name);
    /* sets it: DTSS_OK or an error code (the message set in ctx) */
    int (*set)(void *ctx, const char *name, const char *value);
    /* a syntax error: sets the message in ctx, returns DTSS_EINVAL */
    int (*fail)(void *ctx, const char *msg);
} args_ops;

/* *argc shrinks to what stays; argv[*argc] is NULL. Returns DTSS_OK or
 * the first error. */
int args_take(int *argc, char **argv, const args_ops *ops, void *ctx);

#endif
