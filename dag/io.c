/* io.c: reading and writing task graphs: our text format and a DOT subset.
 *
 * Text format (docs/dag.md), one statement a line, '#' to the end of a line a
 * comment:
 *
 *     processors 3               before the first task
 *     task n1 14 16 9            a name and one cost per processor
 *     edge n1 n2 18              parent, child, communication cost
 *
 * DOT (Graphviz), the subset a task graph needs:
 *
 *     digraph g {
 *         graph [processors=3];  optional: else the first task's cost count
 *         n1 [cost="14,16,9"];   costs, separated by commas or spaces
 *         n1 -> n2 [comm=18];    chains a -> b -> c take the attributes too
 *         edge [comm=0];         defaults for the statements that follow
 *     }
 *
 * Other attributes (label, shape, ...) are ignored, so a drawing's file reads
 * as is; subgraphs, ports and undirected graphs are refused. Tasks are
 * numbered in the order they first appear. Every error names the file, the
 * line and the bad value.
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

/* ---- what both readers collect ------------------------------------------ */

typedef struct {
    const char *fname;
    dag_err *err;
    int q;                  /* 0 until known */
    int q_line;
    /* tasks in order of appearance; cost text NULL until given */
    char **name, **cost;
    int *line, *defined;
    int n, cap;
    int *hash;              /* open addressing, -1 empty */
    int hcap;
    /* edges; comm text NULL when none was given */
    int *ef, *et, *eline;
    char **comm;
    int m, mcap;
} reader;

static int rfail(reader *r, int line, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static int rfail(reader *r, int line, const char *fmt, ...)
{
    char msg[200];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    if (line > 0)
        return dag_fail(r->err, DAG_EINVAL, "%s:%d: %s", r->fname, line, msg);
    return dag_fail(r->err, DAG_EINVAL, "%s: %s", r->fname, msg);
}

static int rnomem(reader *r)
{
    return dag_fail(r->err, DAG_ENOMEM, "%s: out of memory", r->fname);
}

static void reader_free(reader *r)
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

/* The index of task 'name', created (undefined, at 'line') if new; -1 when
 * out of memory. */
static int task_ref(reader *r, const char *name, int line)
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

/* Records the edge from -> to with communication text comm (copied; may be
 * NULL); -1 when out of memory. */
static int edge_ref(reader *r, int from, int to, const char *comm, int line)
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

/* Builds the graph from what the reader collected. */
static dag *build(reader *r, int dot)
{
    if (r->n == 0) {
        rfail(r, 0, "no tasks");
        return NULL;
    }
    const char *bad = NULL;
    int badlen = 0;
    if (r->q == 0) {            /* DOT without processors=: the first task's */
        if (!r->cost[0]) {
            rfail(r, r->line[0], "task '%s' has no cost attribute", r->name[0]);
            return NULL;
        }
        double dummy;
        int k = parse_costs(r->cost[0], &dummy, 1, &bad, &badlen);
        r->q = k > 0 ? k : 1;
    }
    dag *g = dag_new(r->q, r->err);
    double *w = malloc(((size_t)r->q + 1) * sizeof *w);
    if (!g || !w) {
        if (g) rnomem(r);
        dag_free(g);
        free(w);
        return NULL;
    }
    int rc = DAG_OK;
    for (int i = 0; i < r->n && rc == DAG_OK; i++) {
        if (!r->cost[i]) {
            if (dot)
                rc = rfail(r, r->line[i], "task '%s' has no cost attribute", r->name[i]);
            else
                rc = rfail(r, r->line[i], "unknown task '%s' (no 'task %s ...' line)",
                           r->name[i], r->name[i]);
            break;
        }
        int k = parse_costs(r->cost[i], w, r->q, &bad, &badlen);
        if (k < 0)
            rc = rfail(r, r->line[i], "task '%s': cost '%.*s' is not a number",
                       r->name[i], badlen, bad);
        else if (k != r->q)
            rc = rfail(r, r->line[i], "task '%s' has %d cost%s, expected %d (one "
                       "per processor%s)", r->name[i], k, k == 1 ? "" : "s",
                       r->q, r->q_line ? "" : ", as many as the first task");
        else {
            dag_err e;
            if (dag_add_task(g, r->name[i], w, &e) < 0)
                rc = e.code == DAG_ENOMEM ? rnomem(r) : rfail(r, r->line[i], "%s", e.msg);
        }
    }
    for (int e = 0; e < r->m && rc == DAG_OK; e++) {
        const char *a = r->name[r->ef[e]], *b = r->name[r->et[e]];
        double c;
        if (!r->comm[e])
            rc = rfail(r, r->eline[e], "edge %s -> %s has no %s", a, b,
                       dot ? "comm attribute" : "communication cost");
        else if (parse_number(r->comm[e], &c) != 0)
            rc = rfail(r, r->eline[e], "edge %s -> %s: communication cost '%s' "
                       "is not a number", a, b, r->comm[e]);
        else {
            dag_err er;
            if (dag_add_edge(g, r->ef[e], r->et[e], c, &er) != DAG_OK)
                rc = er.code == DAG_ENOMEM ? rnomem(r) : rfail(r, r->eline[e], "%s", er.msg);
        }
    }
    free(w);
    if (rc == DAG_OK) {
        dag_err e;
        if (dag_finish(g, &e) != DAG_OK)
            rc = e.code == DAG_ENOMEM ? rnomem(r) : rfail(r, 0, "%s", e.msg);
    }
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

static int read_text(reader *r, char *text)
{
    int lineno = 0;
    char *next = text;
    while (next) {
        char *line = next;
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        lineno++;
        line[strcspn(line, "#")] = '\0';        /* comments */
        char *s = line, *kw = word(&s);
        if (!kw)
            continue;
        if (strcmp(kw, "processors") == 0) {
            char *v = word(&s), *end;
            long q = v ? strtol(v, &end, 10) : 0;
            if (!v || *end || q < 1 || q > 1000000)
                return rfail(r, lineno, "processors '%s': expected a number of "
                             "processors >= 1", v ? v : "");
            if (r->q_line)
                return rfail(r, lineno, "a second 'processors' line (the first "
                             "is line %d)", r->q_line);
            if (r->n > 0)
                return rfail(r, lineno, "'processors' must come before the "
                             "first task or edge");
            if ((v = word(&s)))
                return rfail(r, lineno, "unexpected '%s' after processors", v);
            r->q = (int)q;
            r->q_line = lineno;
        } else if (strcmp(kw, "task") == 0) {
            char *name = word(&s);
            if (!name)
                return rfail(r, lineno, "task without a name");
            if (!r->q_line)
                return rfail(r, lineno, "task '%s' before the 'processors' line",
                             name);
            int i = task_ref(r, name, lineno);
            if (i < 0)
                return rnomem(r);
            if (r->defined[i])
                return rfail(r, lineno, "task '%s' is defined twice (first on "
                             "line %d)", name, r->line[i]);
            r->defined[i] = 1;
            r->line[i] = lineno;
            if (!(r->cost[i] = strdup(s)))
                return rnomem(r);
        } else if (strcmp(kw, "edge") == 0) {
            char *a = word(&s), *b = word(&s), *c = word(&s), *x = word(&s);
            if (!a || !b)
                return rfail(r, lineno, "edge needs a parent and a child: "
                             "edge FROM TO COST");
            if (x)
                return rfail(r, lineno, "edge %s -> %s: unexpected '%s' after "
                             "the cost", a, b, x);
            int i = task_ref(r, a, lineno), j = task_ref(r, b, lineno);
            if (i < 0 || j < 0 || edge_ref(r, i, j, c, lineno) != 0)
                return rnomem(r);
        } else
            return rfail(r, lineno, "unknown statement '%s' (expected "
                         "processors, task or edge)", kw);
    }
    /* A name only ever seen in edges is an unknown task: say so at the
     * first edge naming it. */
    for (int e = 0; e < r->m; e++) {
        int bad = !r->defined[r->ef[e]] ? r->ef[e] : !r->defined[r->et[e]] ? r->et[e] : -1;
        if (bad >= 0)
            return rfail(r, r->eline[e], "edge %s -> %s: unknown task '%s'",
                         r->name[r->ef[e]], r->name[r->et[e]], r->name[bad]);
    }
    return DAG_OK;
}

/* ---- DOT ------------------------------------------------------------------ */

enum { T_END, T_ID, T_ARROW, T_UNDIRECTED, T_PUNCT };

typedef struct {
    const char *p;
    int line;
    int kind;               /* T_* */
    char punct;             /* for T_PUNCT: { } [ ] = ; , : */
    char *id;               /* for T_ID, owned */
    int quoted;
} lexer;

/* Skips white space and comments; returns 0, or -1 for an unclosed comment. */
static int skip(lexer *L)
{
    for (;;) {
        int bol = L->p[-1] == '\n';
        while (isspace((unsigned char)*L->p)) {
            if (*L->p == '\n') { L->line++; bol = 1; }
            else bol = 0;
            L->p++;
        }
        if (L->p[0] == '/' && L->p[1] == '/')
            L->p += strcspn(L->p, "\n");
        else if (L->p[0] == '#' && bol)       /* C preprocessor line */
            L->p += strcspn(L->p, "\n");
        else if (L->p[0] == '/' && L->p[1] == '*') {
            const char *end = strstr(L->p + 2, "*/");
            if (!end)
                return -1;
            for (const char *c = L->p; c < end; c++)
                L->line += *c == '\n';
            L->p = end + 2;
        } else
            return 0;
    }
}

/* Reads the next token into L; DAG_OK or an error. */
static int lex(reader *r, lexer *L)
{
    free(L->id);
    L->id = NULL;
    if (skip(L) != 0)
        return rfail(r, L->line, "unclosed /* comment");
    const char *p = L->p;
    L->quoted = 0;
    if (!*p) {
        L->kind = T_END;
        return DAG_OK;
    }
    if (p[0] == '-' && (p[1] == '>' || p[1] == '-')) {
        L->kind = p[1] == '>' ? T_ARROW : T_UNDIRECTED;
        L->p += 2;
        return DAG_OK;
    }
    if (strchr("{}[]=;,:", *p)) {
        L->kind = T_PUNCT;
        L->punct = *p;
        L->p++;
        return DAG_OK;
    }
    if (*p == '"') {
        size_t cap = 32, n = 0;
        char *s = malloc(cap);
        if (!s)
            return rnomem(r);
        int start = L->line;
        for (p++; *p != '"'; p++) {
            if (!*p) {
                free(s);
                return rfail(r, start, "unclosed string");
            }
            if (*p == '\\' && p[1] == '\n') {     /* line continuation */
                p++;
                L->line++;
                continue;
            }
            if (*p == '\\' && p[1] == '"')
                p++;
            if (*p == '\n')
                L->line++;
            if (n + 2 > cap) {
                char *t = realloc(s, cap *= 2);
                if (!t) { free(s); return rnomem(r); }
                s = t;
            }
            s[n++] = *p;
        }
        s[n] = '\0';
        L->p = p + 1;
        L->kind = T_ID;
        L->id = s;
        L->quoted = 1;
        return DAG_OK;
    }
    if (*p == '<')
        return rfail(r, L->line, "HTML strings (<...>) are not supported");
    size_t n = 0;
    if (isalpha((unsigned char)*p) || *p == '_' || (unsigned char)*p >= 0x80)
        while (isalnum((unsigned char)p[n]) || p[n] == '_' || (unsigned char)p[n] >= 0x80)
            n++;
    else if (isdigit((unsigned char)*p) || *p == '.' || *p == '-')
        for (n = *p == '-'; isdigit((unsigned char)p[n]) || p[n] == '.'; n++)
            ;
    if (n == 0 || (n == 1 && *p == '-'))
        return rfail(r, L->line, "unexpected character '%c'", *p);
    if (!(L->id = strndup(p, n)))
        return rnomem(r);
    L->kind = T_ID;
    L->p += n;
    return DAG_OK;
}

static int is_kw(const lexer *L, const char *kw)
{
    return L->kind == T_ID && !L->quoted && strcasecmp(L->id, kw) == 0;
}

static int is_punct(const lexer *L, char c)
{
    return L->kind == T_PUNCT && L->punct == c;
}

static const char *tok_text(const lexer *L)
{
    static char buf[4];
    switch (L->kind) {
    case T_END: return "the end of the file";
    case T_ID: return L->id;
    case T_ARROW: return "->";
    case T_UNDIRECTED: return "--";
    default: buf[0] = L->punct; buf[1] = '\0'; return buf;
    }
}

/* The attributes we use, from one or more [a=b, ...] lists. */
typedef struct { char *cost, *comm, *processors; } attrs;

static void attrs_free(attrs *a)
{
    free(a->cost); free(a->comm); free(a->processors);
    *a = (attrs){NULL, NULL, NULL};
}

static int set_attr(char **slot, const char *v)
{
    free(*slot);
    return (*slot = strdup(v)) ? 0 : -1;
}

/* Reads attribute lists at the current token (none is fine) into a. */
static int read_attrs(reader *r, lexer *L, attrs *a)
{
    int rc;
    while (is_punct(L, '[')) {
        if ((rc = lex(r, L)) != DAG_OK)
            return rc;
        while (!is_punct(L, ']')) {
            if (L->kind != T_ID)
                return rfail(r, L->line, "expected an attribute name, found '%s'",
                             tok_text(L));
            char *key = L->id;
            L->id = NULL;
            if ((rc = lex(r, L)) != DAG_OK || !is_punct(L, '=') ||
                (rc = lex(r, L)) != DAG_OK || L->kind != T_ID) {
                if (rc == DAG_OK)
                    rc = rfail(r, L->line, "attribute '%s' needs a value (%s=...)",
                               key, key);
                free(key);
                return rc;
            }
            char **slot = strcmp(key, "cost") == 0 ? &a->cost :
                          strcmp(key, "comm") == 0 ? &a->comm :
                          strcmp(key, "processors") == 0 ? &a->processors : NULL;
            free(key);
            if (slot && set_attr(slot, L->id) != 0)
                return rnomem(r);
            if ((rc = lex(r, L)) != DAG_OK)
                return rc;
            if ((is_punct(L, ',') || is_punct(L, ';')) && (rc = lex(r, L)) != DAG_OK)
                return rc;
        }
        if ((rc = lex(r, L)) != DAG_OK)
            return rc;
    }
    return DAG_OK;
}

static int set_processors(reader *r, const char *v, int line)
{
    char *end;
    long q = strtol(v, &end, 10);
    if (end == v || *end || q < 1 || q > 1000000)
        return rfail(r, line, "processors '%s': expected a number of processors "
                     ">= 1", v);
    r->q = (int)q;
    r->q_line = line;
    return DAG_OK;
}

/* task_ref for DOT: a task new here takes the node defaults of this moment
 * (node [cost=...] before it). */
static int dot_ref(reader *r, const char *name, int line, const attrs *node_def)
{
    int n = r->n, i = task_ref(r, name, line);
    if (i >= 0 && r->n > n && node_def->cost && !(r->cost[i] = strdup(node_def->cost)))
        return -1;
    return i;
}

static int read_dot(reader *r, const char *text)
{
    lexer L = {text + 1, 1, T_END, 0, NULL, 0};  /* text[0] is a '\n' guard */
    attrs node_def = {0}, edge_def = {0}, a = {0};
    char *first = NULL;         /* a statement's first ID */
    int rc;
#define NEXT() do { if ((rc = lex(r, &L)) != DAG_OK) goto out; } while (0)
#define FAIL(...) do { rc = rfail(r, __VA_ARGS__); goto out; } while (0)
    NEXT();
    if (is_kw(&L, "strict"))
        NEXT();
    if (is_kw(&L, "graph"))
        FAIL(L.line, "an undirected graph: a task graph is a 'digraph'");
    if (!is_kw(&L, "digraph"))
        FAIL(L.line, "expected 'digraph', found '%s'", tok_text(&L));
    NEXT();
    if (L.kind == T_ID)
        NEXT();
    if (!is_punct(&L, '{'))
        FAIL(L.line, "expected '{', found '%s'", tok_text(&L));
    NEXT();
    while (!is_punct(&L, '}')) {
        int line = L.line;
        if (L.kind == T_END)
            FAIL(line, "missing '}' at the end of the graph");
        if (is_punct(&L, ';')) {
            NEXT();
            continue;
        }
        if (is_kw(&L, "subgraph") || is_punct(&L, '{'))
            FAIL(line, "subgraphs are not supported");
        if (is_kw(&L, "graph") || is_kw(&L, "node") || is_kw(&L, "edge")) {
            char kind = (char)tolower((unsigned char)L.id[0]);
            NEXT();
            if (!is_punct(&L, '['))
                FAIL(L.line, "expected '[' after '%s'",
                     kind == 'g' ? "graph" : kind == 'n' ? "node" : "edge");
            if ((rc = read_attrs(r, &L, &a)) != DAG_OK)
                goto out;
            if (kind == 'g' && a.processors &&
                (rc = set_processors(r, a.processors, line)) != DAG_OK)
                goto out;
            if ((kind == 'n' && a.cost && set_attr(&node_def.cost, a.cost) != 0) ||
                (kind == 'e' && a.comm && set_attr(&edge_def.comm, a.comm) != 0)) {
                rc = rnomem(r);
                goto out;
            }
            attrs_free(&a);
            continue;
        }
        if (L.kind != T_ID)
            FAIL(line, "expected a statement, found '%s'", tok_text(&L));
        free(first);
        first = L.id;
        L.id = NULL;
        NEXT();
        if (is_punct(&L, '=')) {                /* graph attribute a = b */
            NEXT();
            if (L.kind != T_ID)
                FAIL(L.line, "'%s =' needs a value", first);
            if (strcmp(first, "processors") == 0 &&
                (rc = set_processors(r, L.id, line)) != DAG_OK)
                goto out;
            NEXT();
            continue;
        }
        if (is_punct(&L, ':'))
            FAIL(L.line, "ports (node:port) are not supported");
        /* A node, or a chain of edges. */
        int chain[2] = {dot_ref(r, first, line, &node_def), -1};
        if (chain[0] < 0) {
            rc = rnomem(r);
            goto out;
        }
        int edges_from = r->m;
        while (L.kind == T_ARROW || L.kind == T_UNDIRECTED) {
            if (L.kind == T_UNDIRECTED)
                FAIL(L.line, "'--' is an undirected edge: use '->'");
            NEXT();
            if (is_punct(&L, '{') || is_kw(&L, "subgraph"))
                FAIL(L.line, "subgraphs are not supported");
            if (L.kind != T_ID)
                FAIL(L.line, "expected a task after '->', found '%s'", tok_text(&L));
            chain[1] = dot_ref(r, L.id, L.line, &node_def);
            if (chain[1] < 0 || edge_ref(r, chain[0], chain[1], NULL, L.line) != 0) {
                rc = rnomem(r);
                goto out;
            }
            chain[0] = chain[1];
            NEXT();
        }
        if ((rc = read_attrs(r, &L, &a)) != DAG_OK)
            goto out;
        if (r->m > edges_from) {                /* edge statement */
            const char *comm = a.comm ? a.comm : edge_def.comm;
            for (int e = edges_from; e < r->m; e++)
                if (comm && !(r->comm[e] = strdup(comm))) {
                    rc = rnomem(r);
                    goto out;
                }
        } else {                                /* node statement */
            int i = chain[0];
            if (a.cost && set_attr(&r->cost[i], a.cost) != 0) {
                rc = rnomem(r);
                goto out;
            }
            if (!r->defined[i]) {
                r->defined[i] = 1;
                r->line[i] = line;
            }
        }
        attrs_free(&a);
    }
    NEXT();
    if (L.kind != T_END)
        FAIL(L.line, "unexpected '%s' after the graph's closing '}'", tok_text(&L));
    rc = DAG_OK;
out:
    free(L.id);
    free(first);
    attrs_free(&node_def);
    attrs_free(&edge_def);
    attrs_free(&a);
    return rc;
#undef NEXT
#undef FAIL
}

/* ---- entry points ---------------------------------------------------------- */

/* The whole of f, after a '\n' guard byte; NULL on error (err set). */
static char *slurp(FILE *f, const char *fname, dag_err *err)
{
    size_t cap = 1 << 16, n = 1;
    char *buf = malloc(cap);
    if (!buf) {
        dag_fail(err, DAG_ENOMEM, "%s: out of memory", fname);
        return NULL;
    }
    buf[0] = '\n';
    for (;;) {
        if (cap - n < 4096) {
            char *b = realloc(buf, cap *= 2);
            if (!b) {
                free(buf);
                dag_fail(err, DAG_ENOMEM, "%s: out of memory", fname);
                return NULL;
            }
            buf = b;
        }
        size_t got = fread(buf + n, 1, cap - n - 1, f);
        n += got;
        if (got == 0)
            break;
    }
    if (ferror(f)) {
        dag_fail(err, DAG_EIO, "%s: read error: %s", fname, strerror(errno));
        free(buf);
        return NULL;
    }
    buf[n] = '\0';
    if (strlen(buf) != n) {
        dag_fail(err, DAG_EINVAL, "%s: a NUL byte: not a text file", fname);
        free(buf);
        return NULL;
    }
    return buf;
}

dag *dag_read(FILE *f, const char *fname, int format, dag_err *err)
{
    char *text = slurp(f, fname, err);
    if (!text)
        return NULL;
    if (format == DAG_FORMAT_AUTO) {
        /* DOT when the first word (after comments) is digraph, strict or
         * graph. */
        lexer L = {text + 1, 1, T_END, 0, NULL, 0};
        format = DAG_FORMAT_TEXT;
        if (skip(&L) == 0) {
            size_t n = strspn(L.p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ");
            if ((n == 7 && strncasecmp(L.p, "digraph", 7) == 0) ||
                (n == 6 && strncasecmp(L.p, "strict", 6) == 0) ||
                (n == 5 && strncasecmp(L.p, "graph", 5) == 0))
                format = DAG_FORMAT_DOT;
        }
    }
    reader r = {0};
    r.fname = fname;
    r.err = err;
    int dot = format == DAG_FORMAT_DOT;
    int rc = dot ? read_dot(&r, text) : read_text(&r, text + 1);
    free(text);
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
        dag_fail(err, errno == ENOENT ? DAG_ENOENT : DAG_EIO, "fopen(%s): %s",
                 path, strerror(errno));
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

int dag_write(FILE *f, const dag *g, int format, dag_err *err)
{
    int dot = format == DAG_FORMAT_DOT;
    int n = g->finished ? g->n_user : g->n, m = g->finished ? g->m_user : g->m;
    if (!dot)
        for (int i = 0; i < n; i++)
            if (!*g->name[i] || g->name[i][strcspn(g->name[i], " \t\r\n\v\f#")])
                return dag_fail(err, DAG_EINVAL, "task name '%s' cannot be "
                                "written in the text format (empty, white space "
                                "or '#'): write DOT", g->name[i]);
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
            fprintf(f, " [comm=%.15g];\n", g->c[e]);
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
