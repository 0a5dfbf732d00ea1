/* model_options.c: fuzzes the option parsing of the other three models of
 * libdtss, through their public API (runtime/dtss.h), which needs no PVM
 * before a run starts: the pool (dtss_pool_set, dtss_pool_args;
 * runtime/pool/options.c), the migration model (dtss_lb_set, dtss_lb_args;
 * runtime/lb/master.c) and the row strips (dtss_strips_set,
 * dtss_strips_args; runtime/strips/master.c), the last two on the options
 * they share (runtime/core/lbopts.c), all three on the placement options
 * (runtime/core/place.c) and --late (sched/late/late.c). The loop's are the
 * options harness's.
 *
 * The input's first byte picks the model (mod 3: pool, lb, strips); the rest
 * is a command line, one argument per line (argv[0] added), taken by
 * dtss_X_args; then each line "NAME VALUE" (or "NAME") is given to
 * dtss_X_set on a fresh handle.
 *
 * Checked: what dtss_X_args leaves is argv's other arguments, in order,
 * NULL-terminated, and none of them (before a "--") is one of the model's
 * options; dtss_X_set refuses a name that is none of them as unknown
 * (DTSS_ENOENT) and a name without a value; every refusal says why, in one
 * line of printable text (quote.h's promise); nothing leaks. */
#include "tests/fuzz/fuzz.h"
#include "runtime/dtss.h"

#define MAXARGS 64

/* The options of each model, as its dtss_X_usage lists them. */
static const char *const pool_opts[] = {"strategy", "asp", "threshold", "efficiency", "delay",
                                        "late", "hosts", "local", "worker", NULL};
static const char *const lb_opts[] = {"strategy", "ct", "late", "period", "hosts", "local",
                                      "worker", NULL};
static const char *const strips_opts[] = {"strategy", "ct", "late", "every", "hosts", "local",
                                          "worker", NULL};

typedef struct model {
    const char *const *opts;
    void *(*make)(void);
    int (*set)(void *h, const char *name, const char *value);
    int (*args)(void *h, int *argc, char **argv);
    const char *(*errmsg)(const void *h);
    void (*release)(void *h);
} model;

static void *pool_make(void)
{
    dtss_pool *p = dtss_pool_new();
    FUZZ_CHECK(p != NULL);
    dtss_pool_log(p, NULL, NULL, 0);
    return p;
}
static int pool_set(void *h, const char *n, const char *v) { return dtss_pool_set(h, n, v); }
static int pool_args(void *h, int *c, char **v) { return dtss_pool_args(h, c, v); }
static const char *pool_err(const void *h) { return dtss_pool_errmsg(h); }
static void pool_free(void *h) { dtss_pool_free(h); }

static void *lb_make(void)
{
    dtss_lb *b = dtss_lb_new();
    FUZZ_CHECK(b != NULL);
    dtss_lb_log(b, NULL, NULL, 0);
    return b;
}
static int lb_set(void *h, const char *n, const char *v) { return dtss_lb_set(h, n, v); }
static int lb_args(void *h, int *c, char **v) { return dtss_lb_args(h, c, v); }
static const char *lb_err(const void *h) { return dtss_lb_errmsg(h); }
static void lb_free(void *h) { dtss_lb_free(h); }

static void *strips_make(void)
{
    dtss_strips *s = dtss_strips_new();
    FUZZ_CHECK(s != NULL);
    dtss_strips_log(s, NULL, NULL, 0);
    return s;
}
static int strips_set(void *h, const char *n, const char *v) { return dtss_strips_set(h, n, v); }
static int strips_args(void *h, int *c, char **v) { return dtss_strips_args(h, c, v); }
static const char *strips_err(const void *h) { return dtss_strips_errmsg(h); }
static void strips_free(void *h) { dtss_strips_free(h); }

static const model models[3] = {
    {pool_opts, pool_make, pool_set, pool_args, pool_err, pool_free},
    {lb_opts, lb_make, lb_set, lb_args, lb_err, lb_free},
    {strips_opts, strips_make, strips_set, strips_args, strips_err, strips_free},
};

static int is_option(const model *M, const char *name)
{
    for (int i = 0; M->opts[i]; i++)
        if (strcmp(M->opts[i], name) == 0)
            return 1;
    return 0;
}

/* A refusal says why: a message, printable text. */
static void says_why(const model *M, const void *h, int rc)
{
    FUZZ_CHECK(rc == DTSS_EINVAL || rc == DTSS_ENOENT || rc == DTSS_ENOMEM);
    const char *e = M->errmsg(h);
    FUZZ_CHECK(e[0] != '\0');
    for (const unsigned char *p = (const unsigned char *)e; *p; p++)
        FUZZ_CHECK(*p >= 0x20 && *p != 0x7f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const model *M = &models[data[0] % 3];
    char *s = fuzz_string(data + 1, size - 1), *copy = strdup(s);
    FUZZ_CHECK(copy != NULL);
    char *argv[MAXARGS + 2], *orig[MAXARGS + 2];
    int argc = 0;
    argv[argc++] = "prog";
    for (char *p = s; argc <= MAXARGS; ) {
        argv[argc++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    argv[argc] = NULL;
    memcpy(orig, argv, sizeof argv);
    int n = argc;

    void *h = M->make();
    int rc = M->args(h, &n, argv);
    if (rc == DTSS_OK) {
        FUZZ_CHECK(n >= 1 && n <= argc && argv[n] == NULL && argv[0] == orig[0]);
        /* what is left is a subsequence of the arguments, in order */
        for (int i = 0, j = 0; i < n; i++, j++) {
            while (j < argc && orig[j] != argv[i])
                j++;
            FUZZ_CHECK(j < argc);
        }
        /* and, up to the "--" that ends the options, none of the model's */
        for (int i = 1; i < n && strcmp(argv[i], "--") != 0; i++) {
            const char *a = argv[i];
            if (strncmp(a, "--", 2) != 0 || !a[2])
                continue;
            size_t len = strcspn(a + 2, "=");
            char name[64];
            if (len >= sizeof name)
                continue;
            memcpy(name, a + 2, len);
            name[len] = '\0';
            FUZZ_CHECK(!is_option(M, name));
        }
    } else {
        says_why(M, h, rc);
    }
    M->release(h);

    h = M->make();
    char *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *sp = strchr(line, ' ');
        if (sp)
            *sp++ = '\0';
        rc = M->set(h, line, sp);
        if (rc != DTSS_OK)
            says_why(M, h, rc);
        if (!is_option(M, line) && sp)
            FUZZ_CHECK(rc == DTSS_ENOENT);
        if (!sp)
            FUZZ_CHECK(rc != DTSS_OK);
    }
    M->release(h);
    free(copy);
    free(s);
    return 0;
}
