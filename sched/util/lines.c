/* lines.c: the line reader (lines.h). */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>

#include "sched/util/lines.h"
#include "sched/util/quote.h"

void lines_from(lines *l, FILE *f, const char *path)
{
    memset(l, 0, sizeof *l);
    l->f = f;
    l->path = path;
}

int lines_open(lines *l, const char *path, char *msg, size_t len)
{
    if (strcmp(path, "-") == 0) {
        lines_from(l, stdin, "(standard input)");
        return 0;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        snprintf(msg, len, "%s: %s", quote(path), strerror(errno));
        return -1;
    }
    lines_from(l, f, path);
    l->owned = 1;
    return 0;
}

char *lines_next(lines *l)
{
    if (!l->f || l->failed)
        return NULL;
    errno = 0;
    ssize_t n = getline(&l->buf, &l->cap, l->f);
    if (n < 0) {
        if (ferror(l->f) || errno == ENOMEM) {
            l->failed = 1;
            snprintf(l->msg, sizeof l->msg, "%s: reading line %ld: %s", quote(l->path),
                     l->lineno + 1, strerror(errno ? errno : EIO));
        }
        return NULL;
    }
    l->lineno++;
    if (memchr(l->buf, '\0', (size_t)n)) {
        l->failed = 1;
        snprintf(l->msg, sizeof l->msg, "%s:%ld: a NUL byte in the line", quote(l->path),
                 l->lineno);
        return NULL;
    }
    if (n > 0 && l->buf[n - 1] == '\n')
        l->buf[--n] = '\0';
    if (n > 0 && l->buf[n - 1] == '\r')
        l->buf[--n] = '\0';
    return l->buf;
}

int lines_error(const lines *l)
{
    return l->failed;
}

void lines_close(lines *l)
{
    if (l->owned && l->f)
        fclose(l->f);
    free(l->buf);
    l->buf = NULL;
    l->f = NULL;
    l->owned = 0;
}

int lines_split(char *line, const char *seps, char **field, int max)
{
    int blanks = strspn(seps, " \t") == strlen(seps);
    int n = 0;
    char *p = line;
    if (blanks) {
        for (;;) {
            p += strspn(p, seps);
            if (*p == '\0')
                return n;
            if (n == max)
                return -1;
            field[n++] = p;
            p += strcspn(p, seps);
            if (*p == '\0')
                return n;
            *p++ = '\0';
        }
    }
    for (;;) {
        if (n == max)
            return -1;
        field[n++] = p;
        p += strcspn(p, seps);
        if (*p == '\0')
            return n;
        *p++ = '\0';
    }
}

int lines_blank(const char *line)
{
    while (isspace((unsigned char)*line))
        line++;
    return *line == '\0' || *line == '#';
}
