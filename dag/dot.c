/* dot.c: reading task graphs in DOT (Graphviz), the subset a task graph
 * needs:
 *
 *     digraph g {
 *         graph [processors=3];  optional: else the first task's cost count
 *         n1 [cost="14,16,9"];   costs, separated by commas or spaces
 *         n1 -> n2 [comm=18];    chains a -> b -> c take the attributes too
 *         edge [comm=0];         defaults for the statements that follow
 *     }
 *
 * Other attributes (label, shape, ...) are ignored, so a drawing's file reads
 * as is; subgraphs, ports and undirected graphs are refused. Comments are C
 * and C++ style, and lines starting with '#' (C preprocessor output). Tasks
 * are numbered in the order they first appear. Every error names the file,
 * the line and the bad value. DOT is not line-oriented (strings and comments
 * span lines), so the file is read whole (through the line reader) and then
 * tokenized. io.c builds the graph and writes DOT.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "dag_impl.h"

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
static int lex(dag_reader *r, lexer *L)
{
    free(L->id);
    L->id = NULL;
    if (skip(L) != 0)
        return dag_reader_fail(r, L->line, "unclosed /* comment");
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
            return dag_reader_nomem(r);
        int start = L->line;
        for (p++; *p != '"'; p++) {
            if (!*p) {
                free(s);
                return dag_reader_fail(r, start, "unclosed string");
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
                if (!t) { free(s); return dag_reader_nomem(r); }
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
        return dag_reader_fail(r, L->line, "HTML strings (<...>) are not supported");
    size_t n = 0;
    if (isalpha((unsigned char)*p) || *p == '_' || (unsigned char)*p >= 0x80)
        while (isalnum((unsigned char)p[n]) || p[n] == '_' || (unsigned char)p[n] >= 0x80)
            n++;
    else if (isdigit((unsigned char)*p) || *p == '.' || *p == '-')
        for (n = *p == '-'; isdigit((unsigned char)p[n]) || p[n] == '.'; n++)
            ;
    if (n == 0 || (n == 1 && *p == '-'))
        return dag_reader_fail(r, L->line, "unexpected character '%s'", quote_mem(p, 1));
    if (!(L->id = strndup(p, n)))
        return dag_reader_nomem(r);
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
static int read_attrs(dag_reader *r, lexer *L, attrs *a)
{
    int rc;
    while (is_punct(L, '[')) {
        if ((rc = lex(r, L)) != DAG_OK)
            return rc;
        while (!is_punct(L, ']')) {
            if (L->kind != T_ID)
                return dag_reader_fail(r, L->line, "expected an attribute name, found '%s'",
                             quote(tok_text(L)));
            char *key = L->id;
            L->id = NULL;
            if ((rc = lex(r, L)) != DAG_OK || !is_punct(L, '=') ||
                (rc = lex(r, L)) != DAG_OK || L->kind != T_ID) {
                if (rc == DAG_OK)
                    rc = dag_reader_fail(r, L->line, "attribute '%s' needs a value (%s=...)",
                               quote(key), quote(key));
                free(key);
                return rc;
            }
            char **slot = strcmp(key, "cost") == 0 ? &a->cost :
                          strcmp(key, "comm") == 0 ? &a->comm :
                          strcmp(key, "processors") == 0 ? &a->processors : NULL;
            free(key);
            if (slot && set_attr(slot, L->id) != 0)
                return dag_reader_nomem(r);
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

/* dag_reader_task for DOT: a task new here takes the node defaults of this
 * moment (node [cost=...] before it). */
static int dot_ref(dag_reader *r, const char *name, int line, const attrs *node_def)
{
    int n = r->n, i = dag_reader_task(r, name, line);
    if (i >= 0 && r->n > n && node_def->cost && !(r->cost[i] = strdup(node_def->cost)))
        return -1;
    return i;
}

static int read_dot(dag_reader *r, const char *text)
{
    lexer L = {text + 1, 1, T_END, 0, NULL, 0};  /* text[0] is a '\n' guard */
    attrs node_def = {0}, edge_def = {0}, a = {0};
    char *first = NULL;         /* a statement's first ID */
    int rc;
#define NEXT() do { if ((rc = lex(r, &L)) != DAG_OK) goto out; } while (0)
#define FAIL(...) do { rc = dag_reader_fail(r, __VA_ARGS__); goto out; } while (0)
    NEXT();
    if (is_kw(&L, "strict"))
        NEXT();
    if (is_kw(&L, "graph"))
        FAIL(L.line, "an undirected graph: a task graph is a 'digraph'");
    if (!is_kw(&L, "digraph"))
        FAIL(L.line, "expected 'digraph', found '%s'", quote(tok_text(&L)));
    NEXT();
    if (L.kind == T_ID)
        NEXT();
    if (!is_punct(&L, '{'))
        FAIL(L.line, "expected '{', found '%s'", quote(tok_text(&L)));
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
                (rc = dag_reader_processors(r, a.processors, line)) != DAG_OK)
                goto out;
            if ((kind == 'n' && a.cost && set_attr(&node_def.cost, a.cost) != 0) ||
                (kind == 'e' && a.comm && set_attr(&edge_def.comm, a.comm) != 0)) {
                rc = dag_reader_nomem(r);
                goto out;
            }
            attrs_free(&a);
            continue;
        }
        if (L.kind != T_ID)
            FAIL(line, "expected a statement, found '%s'", quote(tok_text(&L)));
        free(first);
        first = L.id;
        L.id = NULL;
        NEXT();
        if (is_punct(&L, '=')) {                /* graph attribute a = b */
            NEXT();
            if (L.kind != T_ID)
                FAIL(L.line, "'%s =' needs a value", quote(first));
            if (strcmp(first, "processors") == 0 &&
                (rc = dag_reader_processors(r, L.id, line)) != DAG_OK)
                goto out;
            NEXT();
            continue;
        }
        if (is_punct(&L, ':'))
            FAIL(L.line, "ports (node:port) are not supported");
        /* A node, or a chain of edges. */
        int chain[2] = {dot_ref(r, first, line, &node_def), -1};
        if (chain[0] < 0) {
            rc = dag_reader_nomem(r);
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
                FAIL(L.line, "expected a task after '->', found '%s'", quote(tok_text(&L)));
            chain[1] = dot_ref(r, L.id, L.line, &node_def);
            if (chain[1] < 0 || dag_reader_edge(r, chain[0], chain[1], NULL, L.line) != 0) {
                rc = dag_reader_nomem(r);
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
                    rc = dag_reader_nomem(r);
                    goto out;
                }
        } else {                                /* node statement */
            int i = chain[0];
            if (a.cost && set_attr(&r->cost[i], a.cost) != 0) {
                rc = dag_reader_nomem(r);
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
        FAIL(L.line, "unexpected '%s' after the graph's closing '}'", quote(tok_text(&L)));
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


/* The text of 'in' from where it stands into *text: a '\n' guard (skip
 * looks one character back), an empty line for each line before 'first'
 * (they were blank or '#' comments), 'first', then every line left. */
static int whole(dag_reader *r, lines *in, const char *first, char **text)
{
    size_t len = 0;
    FILE *m = open_memstream(text, &len);
    if (!m)
        return dag_reader_nomem(r);
    fputc('\n', m);
    if (first) {
        for (long k = 1; k < in->lineno; k++)
            fputc('\n', m);
        fprintf(m, "%s\n", first);
    }
    const char *line;
    while ((line = lines_next(in)))
        fprintf(m, "%s\n", line);
    int bad = ferror(m);
    int rc = fclose(m) != 0 || bad ? dag_reader_nomem(r) : dag_reader_lines(r, in);
    if (rc != DAG_OK) {
        free(*text);
        *text = NULL;
    }
    return rc;
}

int dag_dot_read(dag_reader *r, lines *in, const char *first)
{
    char *text = NULL;
    int rc = whole(r, in, first, &text);
    if (rc == DAG_OK)
        rc = read_dot(r, text);
    free(text);
    return rc;
}

int dag_dot_begins(const char *line)
{
    while (isspace((unsigned char)*line))
        line++;
    if (line[0] == '/' && (line[1] == '/' || line[1] == '*'))
        return 1;
    size_t n = 0;
    while (isalpha((unsigned char)line[n]))
        n++;
    return (n == 7 && strncasecmp(line, "digraph", 7) == 0) ||
           (n == 6 && strncasecmp(line, "strict", 6) == 0) ||
           (n == 5 && strncasecmp(line, "graph", 5) == 0);
}
