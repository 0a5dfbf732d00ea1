/* place.c: the option table type and the placement options (place.h). */
#include <stdlib.h>
#include <string.h>

#include "runtime/dtss.h"
#include "runtime/core/place.h"
#include "runtime/core/wire.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"

static const rt_option place_rows[] = {
    {"hosts", 1, "H1,H2      a worker on each host named, in this order (a host may\n"
                 "                       repeat; default: every host of the virtual machine\n"
                 "                       but the master's)"},
    {"include-self", 0, "    also a worker on the master's host"},
    {"local", 1, "N          N workers on the master's host (a one-host virtual machine)"},
    {"speeds", 1, "FILE      the hosts' relative speeds from FILE's sp= values (a PVM\n"
                  "                       hostfile; default: the virtual machine's, or under\n"
                  "                       MPI measured by timing one kernel on each host)"},
    {"worker", 1, "PATH      the worker program (default: this program; a name is\n"
                  "                       found through the hostfile's ep= path)"},
    {NULL, 0, NULL}
};

const rt_option *rt_option_find(const rt_option *table, const char *name)
{
    for (int i = 0; table[i].name; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}

void rt_option_usage(const rt_option *table, FILE *f)
{
    for (int i = 0; table[i].name; i++)
        fprintf(f, "  --%s %s\n", table[i].name, table[i].help);
}

/* Is row 'name' one of a master's with these flags? (--include-self and
 * --speeds: the loop's only) */
static int taken(const char *name, int flags)
{
    return (strcmp(name, "include-self") != 0 || (flags & RT_PLACE_SELF)) &&
           (strcmp(name, "speeds") != 0 || (flags & RT_PLACE_SPEEDS));
}

int rt_place_opt(const char *name, int flags)
{
    const rt_option *o = rt_option_find(place_rows, name);
    if (!o || !taken(name, flags))
        return -1;
    return o->has_value;
}

void rt_place_usage(FILE *f, int flags)
{
    for (int i = 0; place_rows[i].name; i++)
        if (taken(place_rows[i].name, flags))
            fprintf(f, "  --%s %s\n", place_rows[i].name, place_rows[i].help);
}

int rt_place_set(rt_handle *h, rt_place *p, int flags, const char *name, const char *value)
{
    int n;
    if (rt_place_opt(name, flags) < 0)
        return DTSS_ENOENT;
    if (strcmp(name, "include-self") == 0) {
        p->include_self = 1;
        return DTSS_OK;
    }
    if (!value)
        return rt_fail(h, DTSS_EINVAL, "--%s needs a value", quote(name));
    if (strcmp(name, "local") == 0) {
        int max = tr_max_peers() < WIRE_MAX_WORKERS ? tr_max_peers() : WIRE_MAX_WORKERS;
        if (parse_int_in(value, 1, max, &n) != 0)
            return rt_fail(h, DTSS_EINVAL, "--local '%s' must be an integer in [1, %d] (the "
                           "most workers the %s transport carries)", quote(value), max, tr_name());
        p->local = n;
        return DTSS_OK;
    }
    if (strcmp(name, "hosts") == 0 && strspn(value, ",") == strlen(value))
        return rt_fail(h, DTSS_EINVAL, "--hosts '%s': name at least one host", quote(value));
    if (!*value)
        return rt_fail(h, DTSS_EINVAL, name[0] == 's' ? "--speeds '': name a file"
                                                      : "--worker '': name a program");
    return rt_set_text(h, name[0] == 'h' ? &p->hosts : name[0] == 's' ? &p->speeds
                                                        : &p->worker_path, value);
}

void rt_place_free(rt_place *p)
{
    free(p->hosts);
    free(p->worker_path);
    free(p->speeds);
    p->hosts = p->worker_path = p->speeds = NULL;
}
