/* place.h: one option table type for every master, and the options every
 * master shares for where its workers run -- --hosts, --local, --worker
 * (and, for the loop, --include-self) -- their rows, checks and messages
 * written once. Not installed. */
#ifndef PLACE_H
#define PLACE_H

#include <stdio.h>

#include "runtime/core/handle.h"

/* A row of a master's options: its name, whether it takes a value, and its
 * --help text ("VALUE      what it does"). Tables end with a NULL name. */
typedef struct rt_option {
    const char *name;
    int has_value;
    const char *help;
} rt_option;

const rt_option *rt_option_find(const rt_option *table, const char *name);
void rt_option_usage(const rt_option *table, FILE *f);

/* Where a master's workers run: NULL / 0 for the defaults (every host of
 * the virtual machine but the master's; this program). */
typedef struct rt_place {
    char *hosts, *worker_path, *speeds;
    int local, include_self;
} rt_place;

enum {
    RT_PLACE_SELF = 1,          /* the master takes --include-self too */
    RT_PLACE_SPEEDS = 2         /* and --speeds FILE (the hosts' V_i) */
};

/* -1: not a placement option (of a master with these flags), else 0/1 as
 * rt_option.has_value. */
int rt_place_opt(const char *name, int flags);
/* Sets one: DTSS_OK, DTSS_EINVAL / DTSS_ENOMEM with h's text naming the
 * value, or DTSS_ENOENT (not one of them, with these flags; h untouched). */
int rt_place_set(rt_handle *h, rt_place *p, int flags, const char *name, const char *value);
void rt_place_usage(FILE *f, int flags);
void rt_place_free(rt_place *p);

#endif
