/* dagfuzz.h: the DAG harnesses' one body (dag_text.c, dag_dot.c): reads the
 * input as a graph in one format (dag_read, dag/io.c and dag/dot.c); a graph
 * it accepts writes back in that format (dag_write) as a graph that reads
 * back with the same tasks and edges, the same costs to the 15 significant
 * digits dag_write keeps, and writes the same bytes again; a small one is
 * scheduled by every algorithm into a schedule that dag_schedule_check
 * accepts. */
#ifndef FUZZ_DAGFUZZ_H
#define FUZZ_DAGFUZZ_H

#include "tests/fuzz/fuzz.h"
#include <math.h>

#include "dag/dag.h"

/* g written in 'format' into a malloc'd buffer (*len bytes). */
static char *written(const dag *g, int format, size_t *len)
{
    char *buf = NULL;
    dag_err err;
    FILE *out = open_memstream(&buf, len);
    FUZZ_CHECK(out != NULL);
    FUZZ_CHECK(dag_write(out, g, format, &err) == DAG_OK);
    FUZZ_CHECK(fclose(out) == 0);
    return buf;
}

/* x and y agree to 15 significant digits (what dag_write keeps). */
static int close15(double x, double y)
{
    return x == y || fabs(x - y) <= 1e-14 * fmax(fabs(x), fabs(y));
}

static void same_graph(const dag *a, const dag *b)
{
    FUZZ_CHECK(a->n_user == b->n_user && a->m_user == b->m_user && a->q == b->q);
    for (int i = 0; i < a->n_user; i++) {
        FUZZ_CHECK(strcmp(a->name[i], b->name[i]) == 0);
        for (int p = 0; p < a->q; p++)
            FUZZ_CHECK(close15(DAG_W(a, i, p), DAG_W(b, i, p)));
    }
    for (int e = 0; e < a->m_user; e++)
        FUZZ_CHECK(a->from[e] == b->from[e] && a->to[e] == b->to[e] &&
                   close15(a->c[e], b->c[e]));
}

/* g written, read back, written again (see the top). */
static void round_trip(const dag *g, int format)
{
    dag_err err;
    size_t len, len2;
    char *buf = written(g, format, &len);
    FILE *in = fmemopen(buf, len, "r");
    FUZZ_CHECK(in != NULL);
    dag *h = dag_read(in, "written", format, &err);
    fclose(in);
    if (!h) {
        fprintf(stderr, "what dag_write wrote does not read back: %s\n", err.msg);
        FUZZ_CHECK(!"written graph reads back");
    }
    same_graph(g, h);
    char *again = written(h, format, &len2);
    FUZZ_CHECK(len == len2 && memcmp(buf, again, len) == 0);
    free(again);
    dag_free(h);
    free(buf);
}

static int fuzz_dag(const uint8_t *data, size_t size, int format)
{
    FILE *f = fmemopen((void *)data, size, "r");
    if (!f)
        return 0;                           /* fmemopen of 0 bytes: EINVAL */
    dag_err err;
    dag *g = dag_read(f, "fuzz", format, &err);
    fclose(f);
    if (!g) {
        FUZZ_CHECK(err.code != DAG_OK && err.msg[0]);
        return 0;
    }
    round_trip(g, format);
    if (g->n <= 64 && g->q <= 8)
        for (int a = 0; dag_algos[a]; a++) {
            dag_schedule *s = dag_schedule_new(dag_algos[a], g, &err);
            if (!s)
                continue;
            if (dag_schedule_check(s, &err) != DAG_OK) {
                fprintf(stderr, "%s: %s\n", dag_algos[a]->name, err.msg);
                FUZZ_CHECK(!"a valid schedule");
            }
            dag_schedule_free(s);
        }
    dag_free(g);
    return 0;
}

#endif
