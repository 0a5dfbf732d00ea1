/* io.c: reading and writing task graphs: the text format, what the text and
 * DOT readers share (the collected tasks and edges, the graph built from
 * them), and the writers of both formats. The DOT reader is dot.c.
 *
 * Text format (docs/dag.md), one statement a line, '#' to the end of a line a
 * comment:
 *
 *     processors 3               before the first task
 *     task n1 14 16 9            a name and one cost per processor
 *     edge n1 n2 18              parent, child, communication cost
 *
 * Lines are read whole (sched/util/lines.h), however long. Tasks are numbered
 * in the order they first appear. Every error names the file, the line and the
 * bad value.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dag_impl.h"

/* ---- what both readers collect (dag_impl.h) ------------------------------ */

int dag_reader_fail(dag_reader *r, int line, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        return dag_fail(r->err, DAG_EINVAL, "%s:%d: %s", quote(r->fname), line, msg);
    return dag_fail(r->err, DAG_EINVAL, "%s: %s", quote(r->fname), msg);
}

int dag_reader_nomem(dag_reader *r)
{
    return dag_fail(r->err, DAG_ENOMEM, "%s: out of memory", quote(r->fname));
}

int dag_reader_lines(dag_reader *r, const lines *in)
{
    if (!lines_error(in))
        return DAG_OK;
    return dag_fail(r->err, ferror(in->f) ? DAG_EIO : DAG_EINVAL, "%s", in->msg);
}

int dag_reader_processors(dag_reader *r, const char *v, int line)
{
    char *end;
    long q = strtol(v, &end, 10);
    if (end == v || *end || q < 1 || q > 1000000)
        return dag_reader_fail(r, line, "processors '%s': expected a number of "
                               "processors >= 1", quote(v));
    r->q = (int)q;
    r->q_line = line;
    return DAG_OK;
}

static void reader_free(dag_reader *r)
{
    for (int i = 0; i < r->n; i++) {
        free(r->name[i]);
        free(r->cost[i]);
    }
    for (int e = 0; e < r->m; e++)
        free(r->comm[e]);
    free(r->name); free(r->cost); free(r->line); free(r->defined);
    free(r->hash);
    free(r->ef); free(r->et); free(r->eline); free(r->comm);
}

static uint32_t fnv(const char *s)
{
    uint32_t h = 2166136261u;
    while (*s)
        h = (h ^ (unsigned char)*s++) * 16777619u;
    return h;
}

int dag_reader_task(dag_reader *r, const char *name, int line)
{
    if (r->hcap) {
        for (uint32_t k = fnv(name) & (uint32_t)(r->hcap - 1);; k = (k + 1) & (uint32_t)(r->hcap - 1)) {
            if (r->hash[k] < 0)
                break;
            if (strcmp(r->name[r->hash[k]], name) == 0)
                return r->hash[k];
        }
    }
    if (r->n == r->cap) {
        int cap = r->cap ? 2 * r->cap : 64;
        char **a = realloc(r->name, (size_t)cap * sizeof *a);
        if (a) r->name = a;
        char **b = realloc(r->cost, (size_t)cap * sizeof *b);
        if (b) r->cost = b;
        int *c = realloc(r->line, (size_t)cap * sizeof *c);
        if (c) r->line = c;
        int *d = realloc(r->defined, (size_t)cap * sizeof *d);
        if (d) r->defined = d;
        if (!a || !b || !c || !d)
            return -1;
        r->cap = cap;
    }
    if (2 * (r->n + 1) > r->hcap) {     /* rehash at half full */
        int hcap = r->hcap ? 2 * r->hcap : 128;
        int *h = malloc((size_t)hcap * sizeof *h);
        if (!h)
            return -1;
        for (int k = 0; k < hcap; k++)
            h[k] = -1;
        for (int i = 0; i < r->n; i++) {
            uint32_t k = fnv(r->name[i]) & (uint32_t)(hcap - 1);
            while (h[k] >= 0)
                k = (k + 1) & (uint32_t)(hcap - 1);
            h[k] = i;
        }
        free(r->hash);
        r->hash = h;
        r->hcap = hcap;
    }
    char *copy = strdup(name);
    if (!copy)
        return -1;
    int i = r->n++;
    r->name[i] = copy;
    r->cost[i] = NULL;
    r->line[i] = line;
    r->defined[i] = 0;
    uint32_t k = fnv(name) & (uint32_t)(r->hcap - 1);
    while (r->hash[k] >= 0)
        k = (k + 1) & (uint32_t)(r->hcap - 1);
    r->hash[k] = i;
    return i;
}

int dag_reader_edge(dag_reader *r, int from, int to, const char *comm, int line)
{
    if (r->m == r->mcap) {
        int cap = r->mcap ? 2 * r->mcap : 64;
        int *a = realloc(r->ef, (size_t)cap * sizeof *a);
        if (a) r->ef = a;
        int *b = realloc(r->et, (size_t)cap * sizeof *b);
        if (b) r->et = b;
        int *c = realloc(r->eline, (size_t)cap * sizeof *c);
        if (c) r->eline = c;
        char **d = realloc(r->comm, (size_t)cap * sizeof *d);
        if (d) r->comm = d;
        if (!a || !b || !c || !d)
            return -1;
        r->mcap = cap;
    }
    char *copy = comm ? strdup(comm) : NULL;
    if (comm && !copy)
        return -1;
    r->ef[r->m] = from;
    r->et[r->m] = to;
    r->eline[r->m] = line;
    r->comm[r->m++] = copy;
    return 0;
}

/* Parses up to max numbers separated by commas and/or white space; returns
 * how many (more than max counts on), or -1 with *bad pointing at the first
 * word that is not a finite number. */
static int parse_costs(const char *s, double *out, int max, const char **bad,
                       int *badlen)
{
    int n = 0;
    for (;;) {
        while (*s == ',' || isspace((unsigned char)*s))
            s++;
        if (!*s)
            return n;
        char *end;
        errno = 0;
        double v = strtod(s, &end);
        if (end == s || errno == ERANGE || !isfinite(v) ||
            (*end && *end != ',' && !isspace((unsigned char)*end))) {
            *bad = s;
            *badlen = (int)strcspn(s, ", \t\r\n");
            return -1;
        }
        if (n < max)
            out[n] = v;
        n++;
        s = end;
    }
}

/* Parses one number, the whole of s. */
static int parse_number(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    while (isspace((unsigned char)*end))
        end++;
    if (end == s || *end || errno == ERANGE || !isfinite(v))
        return -1;
    *out = v;
    return 0;
}

/* A library error met at 'line' of the file: out of memory stays so, any
 * other becomes a message naming the file and line. */
static int pass_on(dag_reader *r, int line, const dag_err *e)
{
    if (e->code == DAG_ENOMEM)
        return dag_reader_nomem(r);
    return dag_reader_fail(r, line, "%s", e->msg);
}

/* Builds the graph from what the reader collected. */
static dag *build(dag_reader *r, int dot)
{
    if (r->n == 0) {
        dag_reader_fail(r, 0, "no tasks");
        return NULL;
    }
    const char *bad = NULL;
    int badlen = 0;
    if (r->q == 0) {            /* DOT without processors=: the first task's */
        if (!r->cost[0]) {
            dag_reader_fail(r, r->line[0], "task '%s' has no cost attribute",
                            quote(r->name[0]));
            return NULL;
        }
        double dummy;
        int k = parse_costs(r->cost[0], &dummy, 1, &bad, &badlen);
        r->q = k > 0 ? k : 1;
    }
    dag *g = dag_new(r->q, r->err);
    double *w = malloc(((size_t)r->q + 1) * sizeof *w);
    if (!g || !w) {
        if (g) dag_reader_nomem(r);
        dag_free(g);
        free(w);
        return NULL;
    }
    int rc = DAG_OK;
    dag_err e;
    for (int i = 0; i < r->n && rc == DAG_OK; i++) {
        int line = r->line[i];
        const char *name = r->name[i];
        if (!r->cost[i]) {
            if (dot)
                rc = dag_reader_fail(r, line, "task '%s' has no cost attribute", quote(name));
            else
                rc = dag_reader_fail(r, line, "unknown task '%s' (no 'task %s ...' "
                                     "line)", quote(name), quote(name));
            break;
        }
        int k = parse_costs(r->cost[i], w, r->q, &bad, &badlen);
        if (k < 0)
            rc = dag_reader_fail(r, line, "task '%s': cost '%s' is not a number",
                                 quote(name), quote_mem(bad, (size_t)badlen));
        else if (k != r->q)
            rc = dag_reader_fail(r, line, "task '%s' has %d cost%s, expected %d "
                                 "(one per processor%s)", quote(name), k, k == 1 ? "" : "s",
                                 r->q, r->q_line ? "" : ", as many as the first task");
        else if (dag_add_task(g, name, w, &e) < 0)
            rc = pass_on(r, line, &e);
    }
    for (int j = 0; j < r->m && rc == DAG_OK; j++) {
        const char *a = r->name[r->ef[j]], *b = r->name[r->et[j]];
        double c;
        if (!r->comm[j])
            rc = dag_reader_fail(r, r->eline[j], "edge %s -> %s has no %s", quote(a), quote(b),
                                 dot ? "comm attribute" : "communication cost");
        else if (parse_number(r->comm[j], &c) != 0)
            rc = dag_reader_fail(r, r->eline[j], "edge %s -> %s: communication "
                                 "cost '%s' is not a number", quote(a), quote(b),
                                 quote(r->comm[j]));
        else if (dag_add_edge(g, r->ef[j], r->et[j], c, &e) != DAG_OK)
            rc = pass_on(r, r->eline[j], &e);
    }
    free(w);
    if (rc == DAG_OK && dag_finish(g, &e) != DAG_OK)
        rc = pass_on(r, 0, &e);
    if (rc != DAG_OK) {
        dag_free(g);
        return NULL;
    }
    return g;
}

/* ---- the text format ------------------------------------------------------ */

/* The next white-space separated word of *s, NUL-terminated in place; NULL
 * at the end of the line. */
static char *word(char **s)
{
    char *p = *s;
    while (isspace((unsigned char)*p))
        p++;
    if (!*p)
        return NULL;
    char *w = p;
    while (*p && !isspace((unsigned char)*p))
        p++;
    if (*p)
        *p++ = '\0';
    *s = p;
    return w;
}

/* Reads the statements of 'in', from 'line' (the line just read; NULL: none
 * yet) on. */
static int read_text(dag_reader *r, lines *in, char *line)
{
    for (; line; line = lines_next(in)) {
        int lineno = (int)in->lineno;
        line[strcspn(line, "#")] = '\0';        /* comments */
        char *s = line, *kw = word(&s);
        if (!kw)
            continue;
        if (strcmp(kw, "processors") == 0) {
            char *v = word(&s);
            int first = r->q_line, rc = dag_reader_processors(r, v ? v : "", lineno);
            if (rc != DAG_OK)
                return rc;
            if (first)
                return dag_reader_fail(r, lineno, "a second 'processors' line "
                                       "(the first is line %d)", first);
            if (r->n > 0)
                return dag_reader_fail(r, lineno, "'processors' must come before "
                                       "the first task or edge");
            if ((v = word(&s)))
                return dag_reader_fail(r, lineno, "unexpected '%s' after "
                                       "processors", quote(v));
        } else if (strcmp(kw, "task") == 0) {
            char *name = word(&s);
            if (!name)
                return dag_reader_fail(r, lineno, "task without a name");
            if (!r->q_line)
                return dag_reader_fail(r, lineno, "task '%s' before the "
                                       "'processors' line", quote(name));
            int i = dag_reader_task(r, name, lineno);
            if (i < 0)
                return dag_reader_nomem(r);
            if (r->defined[i])
                return dag_reader_fail(r, lineno, "task '%s' is defined twice "
                                       "(first on line %d)", quote(name), r->line[i]);
            r->defined[i] = 1;
            r->line[i] = lineno;
            if (!(r->cost[i] = strdup(s)))
                return dag_reader_nomem(r);
        } else if (strcmp(kw, "edge") == 0) {
            char *a = word(&s), *b = word(&s), *c = word(&s), *x = word(&s);
            if (!a || !b)
                return dag_reader_fail(r, lineno, "edge needs a parent and a "
                                       "child: edge FROM TO COST");
            if (x)
                return dag_reader_fail(r, lineno, "edge %s -> %s: unexpected '%s' "
                                       "after the cost", quote(a), quote(b), quote(x));
            int i = dag_reader_task(r, a, lineno), j = dag_reader_task(r, b, lineno);
            if (i < 0 || j < 0 || dag_reader_edge(r, i, j, c, lineno) != 0)
                return dag_reader_nomem(r);
        } else
            return dag_reader_fail(r, lineno, "unknown statement '%s' (expected "
                                   "processors, task or edge)", quote(kw));
    }
    int rc = dag_reader_lines(r, in);
    if (rc != DAG_OK)
        return rc;
    /* A name only ever seen in edges is an unknown task: say so at the
     * first edge naming it. */
    for (int e = 0; e < r->m; e++) {
        int bad = !r->defined[r->ef[e]] ? r->ef[e] : !r->defined[r->et[e]] ? r->et[e] : -1;
        if (bad >= 0)
            return dag_reader_fail(r, r->eline[e], "edge %s -> %s: unknown "
                                   "task '%s'", quote(r->name[r->ef[e]]),
                                   quote(r->name[r->et[e]]), quote(r->name[bad]));
    }
    return DAG_OK;
}

/* ---- entry points ---------------------------------------------------------- */

/* A line both formats skip: blank, or a comment from the first column on
 * (DOT's '#' lines, C preprocessor output, must start there). */
static int skipped(const char *line)
{
    return line[0] == '#' || (lines_blank(line) && !strchr(line, '#'));
}

dag *dag_read(FILE *f, const char *fname, int format, dag_err *err)
{
    lines in;
    lines_from(&in, f, fname);
    /* The first line that both formats would not skip tells the format. */
    char *line = NULL;
    if (format != DAG_FORMAT_DOT)
        while ((line = lines_next(&in)) && skipped(line))
            ;
    if (format == DAG_FORMAT_AUTO)
        format = line && dag_dot_begins(line) ? DAG_FORMAT_DOT : DAG_FORMAT_TEXT;
    dag_reader r = {0};
    r.fname = fname;
    r.err = err;
    int dot = format == DAG_FORMAT_DOT;
    int rc = dot ? dag_dot_read(&r, &in, line) : read_text(&r, &in, line);
    lines_close(&in);
    dag *g = rc == DAG_OK ? build(&r, dot) : NULL;
    reader_free(&r);
    return g;
}

dag *dag_read_file(const char *path, int format, dag_err *err)
{
    if (strcmp(path, "-") == 0)
        return dag_read(stdin, "(stdin)", format, err);
    FILE *f = fopen(path, "r");
    if (!f) {
        dag_fail(err, errno == ENOENT ? DAG_ENOENT : DAG_EIO, "%s: %s",
                 quote(path), strerror(errno));
        return NULL;
    }
    dag *g = dag_read(f, path, format, err);
    fclose(f);
    return g;
}

/* Writes s as a DOT ID: bare when it is a plain word, else quoted. */
static void dot_id(FILE *f, const char *s)
{
    int plain = (isalpha((unsigned char)*s) || *s == '_') &&
                strcasecmp(s, "node") && strcasecmp(s, "edge") &&
                strcasecmp(s, "graph") && strcasecmp(s, "digraph") &&
                strcasecmp(s, "subgraph") && strcasecmp(s, "strict");
    for (const char *c = s; plain && *c; c++)
        plain = isalnum((unsigned char)*c) || *c == '_';
    if (plain) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (const char *c = s; *c; c++) {
        if (*c == '"')
            fputc('\\', f);
        fputc(*c, f);
    }
    fputc('"', f);
}

const char *dag_num(char *buf, double x)
{
    for (int digits = 6; digits <= 17; digits++) {
        snprintf(buf, 32, "%.*g", digits, x);
        if (strtod(buf, NULL) == x)
            break;
    }
    return buf;
}

int dag_write(FILE *f, const dag *g, int format, dag_err *err)
{
    int dot = format == DAG_FORMAT_DOT;
    int n = g->finished ? g->n_user : g->n, m = g->finished ? g->m_user : g->m;
    if (!dot)
        for (int i = 0; i < n; i++)
            if (!*g->name[i] || g->name[i][strcspn(g->name[i], " \t\r\n\v\f#")])
                return dag_fail(err, DAG_EINVAL, "task name '%s' cannot be "
                                "written in the text format (empty, white space "
                                "or '#'): write DOT", quote(g->name[i]));
    if (dot)
        fprintf(f, "digraph dag {\n    graph [processors=%d];\n", g->q);
    else
        fprintf(f, "processors %d\n", g->q);
    for (int i = 0; i < n; i++) {
        if (dot) {
            fputs("    ", f);
            dot_id(f, g->name[i]);
            fputs(" [cost=\"", f);
        } else
            fprintf(f, "task %s", g->name[i]);
        for (int p = 0; p < g->q; p++)
            fprintf(f, dot ? (p ? ",%.15g" : "%.15g") : " %.15g", DAG_W(g, i, p));
        fputs(dot ? "\"];\n" : "\n", f);
    }
    for (int e = 0; e < m; e++) {
        if (dot) {
            fputs("    ", f);
            dot_id(f, g->name[g->from[e]]);
            fputs(" -> ", f);
            dot_id(f, g->name[g->to[e]]);
            /* A DOT numeral has no exponent: one that needs it is quoted. */
            char num[40];
            snprintf(num, sizeof num, "%.15g", g->c[e]);
            fprintf(f, strpbrk(num, "eE") ? " [comm=\"%s\"];\n" : " [comm=%s];\n", num);
        } else
            fprintf(f, "edge %s %s %.15g\n", g->name[g->from[e]],
                    g->name[g->to[e]], g->c[e]);
    }
    if (dot)
        fputs("}\n", f);
    if (fflush(f) != 0 || ferror(f))
        return dag_fail(err, DAG_EIO, "write error: %s", strerror(errno));
    return DAG_OK;
}
