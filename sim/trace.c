/* trace.c: the thinning's trace of task costs (sim/pool.h): one line per
 * iteration, one cost per part, '-' for a part with no task. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/util/lines.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"
#include "sim/pool.h"

#define HEADER "# thin trace: image "
#define HEADER_FORM "'# thin trace: image NAME, W x H, parts M, unit U'"

/* Cuts 'line' at its last ", " and returns what follows (NULL: none). */
static char *last_item(char *line)
{
    char *at = NULL;
    for (char *p = strstr(line, ", "); p; p = strstr(p + 1, ", "))
        at = p;
    if (!at)
        return NULL;
    *at = '\0';
    return at + 2;
}

/* "WORD VALUE" with WORD given: VALUE, or NULL. */
static const char *after_word(const char *item, const char *word)
{
    size_t n = strlen(word);
    return strncmp(item, word, n) == 0 && item[n] == ' ' ? item + n + 1 : NULL;
}

static int read_header(sim_trace *tr, char *line, const char *path, char *msg, size_t len)
{
    if (strncmp(line, HEADER, strlen(HEADER)) != 0) {
        snprintf(msg, len, "%s:1: not a thin trace: the first line must be %s", quote(path),
                 HEADER_FORM);
        return -1;
    }
    char *rest = line + strlen(HEADER);
    char *unit = last_item(rest), *parts = unit ? last_item(rest) : NULL;
    char *size = parts ? last_item(rest) : NULL;
    const char *u = unit ? after_word(unit, "unit") : NULL;
    const char *m = parts ? after_word(parts, "parts") : NULL;
    if (!u || !m || !size || !rest[0]) {
        snprintf(msg, len, "%s:1: the header must read %s", quote(path), HEADER_FORM);
        return -1;
    }
    if (strlen(rest) >= sizeof tr->image) {
        snprintf(msg, len, "%s:1: image name longer than %zu characters", quote(path),
                 sizeof tr->image - 1);
        return -1;
    }
    strcpy(tr->image, rest);
    char *f[4];
    int nf = lines_split(size, " \t", f, 4);
    if (nf != 3 || strcmp(f[1], "x") != 0 || parse_long_in(f[0], 1, 1000000000L, &tr->width) != 0 ||
        parse_long_in(f[2], 1, 1000000000L, &tr->height) != 0) {
        snprintf(msg, len, "%s:1: image size '%s' must be W x H, two integers in "
                 "1..1000000000", quote(path), quote(nf > 0 ? f[0] : ""));
        return -1;
    }
    if (parse_int_in(m, 1, SIM_TRACE_MAX_PARTS, &tr->parts) != 0) {
        snprintf(msg, len, "%s:1: parts '%s' must be an integer in 1..%d", quote(path), quote(m),
                 SIM_TRACE_MAX_PARTS);
        return -1;
    }
    if (strcmp(u, "pixels") == 0)
        tr->unit = SIM_UNIT_PIXELS;
    else if (strcmp(u, "seconds") == 0)
        tr->unit = SIM_UNIT_SECONDS;
    else {
        snprintf(msg, len, "%s:1: unit '%s' must be pixels or seconds", quote(path), quote(u));
        return -1;
    }
    return 0;
}

/* One iteration's line into row[0 .. parts-1]. */
static int read_iteration(sim_trace *tr, char *line, char **f, double *row,
                          const char *path, long lineno, char *msg, size_t len)
{
    int M = tr->parts;
    int nf = lines_split(line, " \t", f, M + 2);
    if (nf != M + 1) {
        if (nf < 0)
            snprintf(msg, len, "%s:%ld: more than %d fields, expected %d (the iteration, "
                     "then a cost for each of the %d parts)", quote(path), lineno, M + 2, M + 1, M);
        else
            snprintf(msg, len, "%s:%ld: %d fields, expected %d (the iteration, then a "
                     "cost for each of the %d parts)", quote(path), lineno, nf, M + 1, M);
        return -1;
    }
    long k;
    if (parse_long_in(f[0], 0, 1000000000000L, &k) != 0) {
        snprintf(msg, len, "%s:%ld: field 1: iteration '%s' must be an integer >= 0",
                 quote(path), lineno, quote(f[0]));
        return -1;
    }
    if (tr->n > 0 && k != tr->first + tr->n) {
        snprintf(msg, len, "%s:%ld: field 1: iteration %ld after %ld (expected %ld)",
                 quote(path), lineno, k, tr->first + tr->n - 1, tr->first + tr->n);
        return -1;
    }
    if (tr->n == 0)
        tr->first = k;
    int tasks = 0;
    for (int i = 0; i < M; i++) {
        const char *s = f[i + 1];
        if (strcmp(s, "-") == 0) {
            row[i] = NAN;
            continue;
        }
        if (parse_double(s, &row[i]) != 0 || !(row[i] >= 0)) {
            snprintf(msg, len, "%s:%ld: field %d '%s' (part %d): a cost must be a "
                     "number >= 0 or '-'", quote(path), lineno, i + 2, quote(s), i + 1);
            return -1;
        }
        tasks++;
    }
    if (tasks == 0) {
        snprintf(msg, len, "%s:%ld: iteration %ld has no task (every part '-')", quote(path),
                 lineno, k);
        return -1;
    }
    return 0;
}

int sim_trace_read(sim_trace *tr, const char *path, char *msg, size_t len)
{
    memset(tr, 0, sizeof *tr);
    lines in;
    if (lines_open(&in, path, msg, len) != 0)
        return -1;
    char *line, **f = NULL;
    long cap = 0;
    int rc = -1;
    if (!(line = lines_next(&in))) {
        if (lines_error(&in))
            snprintf(msg, len, "%s", in.msg);
        else
            snprintf(msg, len, "%s: empty: a thin trace starts with %s", quote(in.path),
                     HEADER_FORM);
        goto out;
    }
    if (read_header(tr, line, in.path, msg, len) != 0)
        goto out;
    if (!(f = malloc(sizeof *f * (size_t)(tr->parts + 2)))) {
        snprintf(msg, len, "%s: out of memory", quote(in.path));
        goto out;
    }
    while ((line = lines_next(&in))) {
        if (lines_blank(line))
            continue;
        if (tr->n == SIM_TRACE_MAX_ITERATIONS) {
            snprintf(msg, len, "%s:%ld: more than %ld iterations", quote(in.path), in.lineno,
                     SIM_TRACE_MAX_ITERATIONS);
            goto out;
        }
        if (tr->n == cap) {
            long ncap = cap ? 2 * cap : 64;
            if (ncap > SIM_TRACE_MAX_ITERATIONS)
                ncap = SIM_TRACE_MAX_ITERATIONS;
            double *c = realloc(tr->cost, sizeof *c * (size_t)ncap * (size_t)tr->parts);
            if (!c) {
                snprintf(msg, len, "%s:%ld: out of memory for %ld iterations", quote(in.path),
                         in.lineno, ncap);
                goto out;
            }
            tr->cost = c;
            cap = ncap;
        }
        if (read_iteration(tr, line, f, tr->cost + tr->n * tr->parts, in.path, in.lineno,
                           msg, len) != 0)
            goto out;
        tr->n++;
    }
    if (lines_error(&in)) {
        snprintf(msg, len, "%s", in.msg);
        goto out;
    }
    if (tr->n == 0) {
        snprintf(msg, len, "%s: no iteration lines after the header", quote(in.path));
        goto out;
    }
    rc = 0;
out:
    free(f);
    lines_close(&in);
    return rc;
}

void sim_trace_free(sim_trace *tr)
{
    free(tr->cost);
    tr->cost = NULL;
    tr->n = 0;
}

double sim_trace_scale(const sim_trace *tr)
{
    if (tr->unit == SIM_UNIT_SECONDS)
        return 1;
    double group[8] = {0}, largest = 0;
    for (int i = 0; i < tr->parts; i++) {
        double c = sim_trace_cost(tr, 0, i);
        if (!isnan(c))
            group[(long)8 * i / tr->parts] += c;
    }
    for (int g = 0; g < 8; g++)
        largest = fmax(largest, group[g]);
    double scale = SIM_TRACE_LARGEST_8 / largest;
    return scale > 0 && isfinite(scale) ? scale : NAN;
}
