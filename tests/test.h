/* test.h: the whole test framework (after Redis's testhelp.h).
 *
 *   test_cond("what is checked", condition);
 *   return test_report();
 *
 * Prints one line per failure (and per pass when TEST_VERBOSE is set in the
 * environment), then "N passed, N failed"; test_report() returns the exit
 * status: non-zero on any failure. Assertions stay on in every build. */
#ifndef TEST_H
#define TEST_H

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int test_passed, test_failed;

#define test_cond(descr, cond) do {                                          \
    if (cond) {                                                              \
        test_passed++;                                                       \
        if (getenv("TEST_VERBOSE")) printf("ok   %s\n", (descr));           \
    } else {                                                                 \
        test_failed++;                                                       \
        printf("FAIL %s  (%s:%d)\n", (descr), __FILE__, __LINE__);           \
    }                                                                        \
} while (0)

/* Like test_cond, with a printf-style description. */
#define test_condf(cond, ...) do {                                           \
    char test_descr_[512];                                                   \
    snprintf(test_descr_, sizeof test_descr_, __VA_ARGS__);                  \
    test_cond(test_descr_, cond);                                            \
} while (0)

/* A test's scratch folder and the files in it (flat: no subfolder),
 * removed without a shell. */
static inline void test_remove_dir(const char *d)
{
    DIR *dp = opendir(d);
    struct dirent *e;
    char p[PATH_MAX];
    while (dp && (e = readdir(dp)) != NULL)
        if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0 &&
            snprintf(p, sizeof p, "%s/%s", d, e->d_name) < (int)sizeof p)
            unlink(p);
    if (dp)
        closedir(dp);
    if (rmdir(d) != 0)
        printf("note: could not remove %s\n", d);
}

static inline int test_report(void)
{
    printf("%d passed, %d failed\n", test_passed, test_failed);
    return test_failed ? 1 : 0;
}

#endif
