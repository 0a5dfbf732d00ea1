/* fuzz.h: what the libFuzzer harnesses share (tests/fuzz/README.md): the
 * input as a C string, and as a file for the parsers that take a path.
 *
 * Every harness defines LLVMFuzzerTestOneInput, feeds the bytes to one
 * parser, checks what the parser promises of what it accepts (FUZZ_CHECK:
 * abort, so libFuzzer reports it as a crash), frees everything, and prints
 * nothing. */
#ifndef FUZZ_H
#define FUZZ_H

#define _GNU_SOURCE             /* memfd_create */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A property the parser promises does not hold: report it (stderr) and
 * abort, which libFuzzer saves as a crash. */
#define FUZZ_CHECK(cond) do {                                                  \
        if (!(cond)) {                                                         \
            fprintf(stderr, "%s:%d: FUZZ_CHECK failed: %s\n", __FILE__,        \
                    __LINE__, #cond);                                          \
            abort();                                                           \
        }                                                                      \
    } while (0)

/* The input as a NUL-terminated string (malloc'd: the caller frees it; a
 * NUL byte in the input ends it early). Aborts out of memory. */
static inline char *fuzz_string(const uint8_t *data, size_t size)
{
    char *s = malloc(size + 1);
    if (!s)
        abort();
    memcpy(s, data, size);
    s[size] = '\0';
    return s;
}

/* The input as a file: the path of an in-memory file (memfd) holding exactly
 * these bytes, valid until the next call (slot 0 or 1: two files at once).
 * Opening the path opens the file afresh, at offset 0. */
static inline const char *fuzz_file_slot(int slot, const uint8_t *data, size_t size)
{
    static int fd[2] = {-1, -1};
    static char path[2][64];
    if (fd[slot] < 0) {
        fd[slot] = memfd_create("fuzz-input", 0);
        if (fd[slot] < 0) {
            perror("memfd_create");
            abort();
        }
        snprintf(path[slot], sizeof path[slot], "/proc/self/fd/%d", fd[slot]);
    }
    if (ftruncate(fd[slot], 0) != 0)
        abort();
    for (size_t off = 0; off < size;) {
        ssize_t n = pwrite(fd[slot], data + off, size - off, (off_t)off);
        if (n <= 0)
            abort();
        off += (size_t)n;
    }
    return path[slot];
}

static inline const char *fuzz_file(const uint8_t *data, size_t size)
{
    return fuzz_file_slot(0, data, size);
}

/* Whether some word KEY=V of s (KEY at its start or after a blank) has
 * V > limit or V not a number: the harnesses skip inputs that only ask for
 * much work (a legal "count=1000000"), which -timeout would call a hang. */
static inline int fuzz_over(const char *s, const char *key, double limit)
{
    size_t k = strlen(key);
    for (const char *p = s; (p = strstr(p, key)); p += k) {
        if (p != s && !strchr(" \t\r\n", p[-1]))
            continue;
        char *end;
        double v = strtod(p + k, &end);
        if (!(v <= limit))
            return 1;
    }
    return 0;
}

/* Whether to step around the parser bugs already found and reported
 * (tests/fuzz/crashes/), so fuzzing goes on past them: yes, unless
 * FUZZ_UNGUARDED=1 is in the environment (to check a fix on the saved
 * reproducer: FUZZ_UNGUARDED=1 build/fuzz/NAME tests/fuzz/crashes/NAME-N). */
static inline int fuzz_guarded(void)
{
    static int g = -1;
    if (g < 0) {
        const char *e = getenv("FUZZ_UNGUARDED");
        g = !(e && strcmp(e, "1") == 0);
    }
    return g;
}

#endif
