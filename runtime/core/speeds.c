/* speeds.c: a PVM hostfile's sp= values (speeds.h). */
#include <stdlib.h>
#include <string.h>

#include "runtime/core/speeds.h"
#include "sched/util/lines.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

#define MAX_FIELDS 64

int rt_speeds_read(const char *path, rt_speed **out, char *msg, size_t len)
{
    lines in;
    if (lines_open(&in, path, msg, len) != 0)
        return -1;
    rt_speed *s = NULL;
    int n = 0, cap = 0, dflt = 1000, bad = 0;
    char *line;
    while (!bad && (line = lines_next(&in))) {
        char *field[MAX_FIELDS];
        if (lines_blank(line))
            continue;
        int k = lines_split(line, " \t", field, MAX_FIELDS);
        if (k < 0) {
            snprintf(msg, len, "%s line %ld: more than %d fields", path, in.lineno, MAX_FIELDS);
            bad = 1;
            break;
        }
        const char *name = field[0][0] == '&' ? field[0] + 1 : field[0];
        int sp = dflt;
        for (int i = 1; i < k && !bad; i++)
            if (strncmp(field[i], "sp=", 3) == 0 && parse_int_in(field[i] + 3, 1, 1000000, &sp) != 0) {
                snprintf(msg, len, "%s line %ld: '%s' is not sp=N with N an integer in "
                         "[1, 1000000]", path, in.lineno, quote(field[i]));
                bad = 1;
            }
        if (bad)
            break;
        if (strcmp(name, "*") == 0) {
            dflt = sp;
            continue;
        }
        if (!*name || strlen(name) >= sizeof s->name) {
            snprintf(msg, len, "%s line %ld: a host name of 1 to %zu characters, not '%s'",
                     path, in.lineno, sizeof s->name - 1, quote(name));
            bad = 1;
            break;
        }
        if (n == cap) {
            int c = cap ? 2 * cap : 16;
            rt_speed *p = realloc(s, sizeof *p * (size_t)c);
            if (!p) {
                snprintf(msg, len, "out of memory");
                bad = 1;
                break;
            }
            s = p;
            cap = c;
        }
        strcpy(s[n].name, name);
        s[n++].sp = sp;
    }
    if (!bad && lines_error(&in)) {
        snprintf(msg, len, "%s", in.msg);
        bad = 1;
    }
    lines_close(&in);
    if (!bad && n == 0) {
        snprintf(msg, len, "%s: no hosts (a line per host: NAME [sp=SPEED] ...)", path);
        bad = 1;
    }
    if (bad) {
        free(s);
        return -1;
    }
    *out = s;
    return n;
}

int rt_speeds_find(const rt_speed *s, int n, const char *name)
{
    for (int i = 0; i < n; i++)
        if (strcmp(s[i].name, name) == 0)
            return s[i].sp;
    return 0;
}
