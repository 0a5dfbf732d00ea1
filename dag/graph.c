/* graph.c: building and closing a task graph, its ranks, critical path and
 * the bounds behind SLR and speedup.
 *
 *   wbar(i)  = sum_p w(i,p) / q
 *   ru(i)    = wbar(i) + max_{j in succ(i)} (c(i,j) + ru(j))       (eq. 5)
 *   rd(i)    = max_{k in pred(i)} (rd(k) + wbar(k) + c(k,i))       (eq. 6)
 *   CP_MIN   = the path maximising sum min_p w(i,p)
 *   SLR      = makespan / sum_{i in CP_MIN} min_p w(i,p)
 *   speedup  = min_p sum_i w(i,p) / makespan
 *
 * Topcuoglu, Hariri & Wu, IEEE TPDS 13(3) 2002, Sec. 3-4; Singh et al. Sec. 3.
 * Known value: on Topcuoglu's Fig. 2 graph ru(n1) = 108 and the critical path
 * is n1 n2 n9 n10 with P2 its processor (tests/test_dag.c).
 *
 * The mean communication cost cbar(i,j) of Topcuoglu (mean startup plus data
 * over mean bandwidth) is the edge's cost c(i,j) itself: our network has no
 * startup and one transfer rate (Singh Sec. 2, "Resource Model").
 */
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "dag_impl.h"
#include "sched/util/conv.h"

int dag_fail(dag_err *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
        for (char *c = err->msg; *c; c++)   /* one line, whatever names hold */
            if (*c == '\n' || *c == '\r' || *c == '\t')
                *c = ' ';
        err->code = code;
    }
    return code;
}

dag *dag_new(int q, dag_err *err)
{
    if (q < 1) {
        dag_fail(err, DAG_EINVAL, "processors %d: must be >= 1", q);
        return NULL;
    }
    dag *g = calloc(1, sizeof *g);
    if (!g) {
        dag_fail(err, DAG_ENOMEM, "out of memory");
        return NULL;
    }
    g->q = q;
    g->entry = g->exit = -1;
    return g;
}

void dag_free(dag *g)
{
    if (!g)
        return;
    for (int i = 0; i < g->n; i++)
        free(g->name[i]);
    free(g->name);
    free(g->w);
    free(g->succ_at); free(g->succ); free(g->succ_c);
    free(g->pred_at); free(g->pred); free(g->pred_c);
    free(g->topo);
    free(g->from); free(g->to); free(g->c);
    free(g);
}

/* Adds a task without checks; -1 when out of memory. */
static int add_task(dag *g, const char *name, const double *w)
{
    if (g->n == g->cap_n) {
        int cap = g->cap_n ? 2 * g->cap_n : 16;
        char **nn = realloc(g->name, (size_t)cap * sizeof *nn);
        if (!nn)
            return -1;
        g->name = nn;
        double *nw = realloc(g->w, (size_t)cap * (size_t)g->q * sizeof *nw);
        if (!nw)
            return -1;
        g->w = nw;
        g->cap_n = cap;
    }
    char *copy = strdup(name);
    if (!copy)
        return -1;
    g->name[g->n] = copy;
    memcpy(&DAG_W(g, g->n, 0), w, (size_t)g->q * sizeof *w);
    return g->n++;
}

int dag_add_task(dag *g, const char *name, const double *w, dag_err *err)
{
    if (g->finished) {
        dag_fail(err, DAG_EINVAL, "task '%s': the graph is already finished", quote(name));
        return -1;
    }
    /* A name is printed as one field of one line (the schedule, errors):
     * no line breaks or other control characters, and not empty. */
    for (const char *c = name; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7f) {
            dag_fail(err, DAG_EINVAL, "task '%s': a task name may not hold a control "
                     "character (a line break, a tab: byte %d)", quote(name), (unsigned char)*c);
            return -1;
        }
    if (!*name) {
        dag_fail(err, DAG_EINVAL, "task '': a task name may not be empty");
        return -1;
    }
    for (int p = 0; p < g->q; p++)
        if (!isfinite(w[p]) || w[p] < 0) {
            dag_fail(err, DAG_EINVAL, "task '%s': cost %g on processor %d is %s",
                     quote(name), w[p], p + 1, isfinite(w[p]) ? "negative" : "not finite");
            return -1;
        }
    int i = add_task(g, name, w);
    if (i < 0)
        dag_fail(err, DAG_ENOMEM, "task '%s': out of memory", quote(name));
    return i;
}

/* Adds an edge without checks; -1 when out of memory. */
static int add_edge(dag *g, int from, int to, double c)
{
    if (g->m == g->cap_m) {
        int cap = g->cap_m ? 2 * g->cap_m : 16;
        int *nf = realloc(g->from, (size_t)cap * sizeof *nf);
        if (!nf)
            return -1;
        g->from = nf;
        int *nt = realloc(g->to, (size_t)cap * sizeof *nt);
        if (!nt)
            return -1;
        g->to = nt;
        double *nc = realloc(g->c, (size_t)cap * sizeof *nc);
        if (!nc)
            return -1;
        g->c = nc;
        g->cap_m = cap;
    }
    g->from[g->m] = from;
    g->to[g->m] = to;
    g->c[g->m] = c;
    g->m++;
    return 0;
}

int dag_add_edge(dag *g, int from, int to, double c, dag_err *err)
{
    if (g->finished)
        return dag_fail(err, DAG_EINVAL, "edge: the graph is already finished");
    if (from < 0 || from >= g->n || to < 0 || to >= g->n)
        return dag_fail(err, DAG_EINVAL, "edge %d -> %d: no such task (0 to %d)",
                        from, to, g->n - 1);
    if (from == to)
        return dag_fail(err, DAG_EINVAL, "edge %s -> %s is a cycle (a task "
                        "cannot depend on itself)", quote(g->name[from]), quote(g->name[to]));
    if (!isfinite(c) || c < 0)
        return dag_fail(err, DAG_EINVAL, "edge %s -> %s: communication cost %g "
                        "is %s", quote(g->name[from]), quote(g->name[to]), c,
                        isfinite(c) ? "negative" : "not finite");
    if (add_edge(g, from, to, c) != 0)
        return dag_fail(err, DAG_ENOMEM, "edge %s -> %s: out of memory",
                        quote(g->name[from]), quote(g->name[to]));
    return DAG_OK;
}

/* An edge for sorting by (from, to): finds duplicates and orders each
 * task's children and parents by index. */
typedef struct { int from, to, e; } edge_key;

static int cmp_edge(const void *a, const void *b)
{
    const edge_key *x = a, *y = b;
    if (x->from != y->from)
        return x->from < y->from ? -1 : 1;
    if (x->to != y->to)
        return x->to < y->to ? -1 : 1;
    return (x->e > y->e) - (x->e < y->e);
}

/* The edges of g sorted by (from, to), or NULL when out of memory. */
static edge_key *sorted_edges(const dag *g)
{
    edge_key *k = malloc(((size_t)g->m + 1) * sizeof *k);
    if (!k)
        return NULL;
    for (int e = 0; e < g->m; e++)
        k[e] = (edge_key){g->from[e], g->to[e], e};
    qsort(k, (size_t)g->m, sizeof *k, cmp_edge);
    return k;
}

/* Fills at[0 .. n] and adj/cost from the edges visited in the order of
 * 'edges', keyed by key[e], listing other[e]; 0, or -1 when out of memory. */
static int adjacency(int n, int m, const int *key, const int *other,
                     const double *c, const edge_key *edges, int *at, int *adj,
                     double *cost)
{
    for (int i = 0; i <= n; i++)
        at[i] = 0;
    for (int e = 0; e < m; e++)
        at[key[e] + 1]++;
    for (int i = 0; i < n; i++)
        at[i + 1] += at[i];
    int *fill = malloc(((size_t)n + 1) * sizeof *fill);
    if (!fill)
        return -1;
    memcpy(fill, at, (size_t)n * sizeof *fill);
    for (int k = 0; k < m; k++) {
        int e = edges[k].e;
        adj[fill[key[e]]] = other[e];
        cost[fill[key[e]]++] = c[e];
    }
    free(fill);
    return 0;
}

/* Spells out a cycle among the tasks Kahn's algorithm could not order (each
 * has an unordered parent): walk up parents until a task repeats. */
static int report_cycle(const dag *g, const int *indeg, dag_err *err)
{
    int start = 0;
    while (indeg[start] == 0)
        start++;
    int *seen = calloc((size_t)g->n, sizeof *seen);  /* position on the walk + 1 */
    int *walk = malloc((size_t)g->n * sizeof *walk);
    if (!seen || !walk) {
        free(seen); free(walk);
        return dag_fail(err, DAG_EINVAL, "the graph has a cycle through '%s'",
                        quote(g->name[start]));
    }
    int len = 0, t = start;
    while (!seen[t]) {
        seen[t] = ++len;
        walk[len - 1] = t;
        int k = g->pred_at[t];
        while (indeg[g->pred[k]] == 0)
            k++;
        t = g->pred[k];
    }
    /* walk[seen[t]-1 .. len) climbs the cycle against the edges. */
    char msg[sizeof err->msg];
    size_t used = (size_t)snprintf(msg, sizeof msg, "cycle: %s", quote(g->name[t]));
    for (int k = len - 1; k >= seen[t] - 1 && used < sizeof msg; k--)
        used += (size_t)snprintf(msg + used, sizeof msg - used, " -> %s",
                                 quote(g->name[walk[k]]));
    free(seen);
    free(walk);
    return dag_fail(err, DAG_EINVAL, "%s", msg);
}

int dag_finish(dag *g, dag_err *err)
{
    if (g->finished)
        return DAG_OK;
    if (g->n == 0)
        return dag_fail(err, DAG_EINVAL, "the graph has no tasks");
    g->n_user = g->n;
    g->m_user = g->m;

    /* Duplicate edges. */
    edge_key *order = sorted_edges(g);
    if (!order)
        return dag_fail(err, DAG_ENOMEM, "out of memory");
    for (int k = 1; k < g->m; k++)
        if (order[k - 1].from == order[k].from && order[k - 1].to == order[k].to) {
            int a = order[k].from, b = order[k].to;
            free(order);
            return dag_fail(err, DAG_EINVAL, "edge %s -> %s is given twice",
                            quote(g->name[a]), quote(g->name[b]));
        }
    free(order);

    /* The costs' total (dag.h, DAG_MAX_TOTAL): compared as it grows, so the
     * task or edge that passes the limit is named. */
    double total = 0;
    for (int i = 0; i < g->n; i++) {
        double most = 0;
        for (int p = 0; p < g->q; p++)
            most = fmax(most, DAG_W(g, i, p));
        total += most;
        if (!(total <= DAG_MAX_TOTAL))
            return dag_fail(err, DAG_EINVAL, "task '%s' (largest cost %s): the costs "
                            "add up to more than %g, past which a schedule's times "
                            "are not finite", g->name[i], conv_g(most, (char[CONV_G]){0}),
                            DAG_MAX_TOTAL);
    }
    for (int e = 0; e < g->m; e++) {
        total += g->c[e];
        if (!(total <= DAG_MAX_TOTAL))
            return dag_fail(err, DAG_EINVAL, "edge %s -> %s (communication cost %s): the "
                            "costs add up to more than %g, past which a schedule's "
                            "times are not finite", g->name[g->from[e]],
                            g->name[g->to[e]], conv_g(g->c[e], (char[CONV_G]){0}),
                            DAG_MAX_TOTAL);
    }

    /* Entry and exit tasks; pseudo ones when there are several. */
    int *indeg = calloc((size_t)g->n, sizeof *indeg);
    int *outdeg = calloc((size_t)g->n, sizeof *outdeg);
    if (!indeg || !outdeg) {
        free(indeg); free(outdeg);
        return dag_fail(err, DAG_ENOMEM, "out of memory");
    }
    for (int e = 0; e < g->m; e++) {
        outdeg[g->from[e]]++;
        indeg[g->to[e]]++;
    }
    int nentry = 0, nexit = 0, n0 = g->n, m0 = g->m;
    for (int i = 0; i < n0; i++) {
        nentry += indeg[i] == 0;
        nexit += outdeg[i] == 0;
    }
    double *zero = calloc((size_t)g->q, sizeof *zero);
    int rc = zero ? DAG_OK : DAG_ENOMEM;
    if (rc == DAG_OK && nentry > 1) {
        int e = add_task(g, "(entry)", zero);
        rc = e < 0 ? DAG_ENOMEM : DAG_OK;
        for (int i = 0; rc == DAG_OK && i < n0; i++)
            if (indeg[i] == 0 && add_edge(g, e, i, 0) != 0)
                rc = DAG_ENOMEM;
    }
    if (rc == DAG_OK && nexit > 1) {
        int x = add_task(g, "(exit)", zero);
        rc = x < 0 ? DAG_ENOMEM : DAG_OK;
        for (int i = 0; rc == DAG_OK && i < n0; i++)
            if (outdeg[i] == 0 && add_edge(g, i, x, 0) != 0)
                rc = DAG_ENOMEM;
    }
    free(zero);
    free(indeg);
    free(outdeg);
    if (rc != DAG_OK) {
        /* Back to the graph as given, so that dag_free stays correct. */
        while (g->n > n0)
            free(g->name[--g->n]);
        g->m = m0;
        return dag_fail(err, DAG_ENOMEM, "out of memory");
    }

    /* Adjacency lists. Visiting the edges by (from, to) lists each task's
     * children, and also its parents, by increasing index. */
    size_t n = (size_t)g->n, m = (size_t)g->m;
    order = sorted_edges(g);
    g->succ_at = malloc((n + 1) * sizeof *g->succ_at);
    g->pred_at = malloc((n + 1) * sizeof *g->pred_at);
    g->succ = malloc((m + 1) * sizeof *g->succ);
    g->pred = malloc((m + 1) * sizeof *g->pred);
    g->succ_c = malloc((m + 1) * sizeof *g->succ_c);
    g->pred_c = malloc((m + 1) * sizeof *g->pred_c);
    g->topo = malloc(n * sizeof *g->topo);
    indeg = calloc(n, sizeof *indeg);
    if (!order || !g->succ_at || !g->pred_at || !g->succ || !g->pred ||
        !g->succ_c || !g->pred_c || !g->topo || !indeg ||
        adjacency(g->n, g->m, g->from, g->to, g->c, order, g->succ_at, g->succ,
                  g->succ_c) != 0 ||
        adjacency(g->n, g->m, g->to, g->from, g->c, order, g->pred_at, g->pred,
                  g->pred_c) != 0) {
        free(order);
        free(indeg);
        return dag_fail(err, DAG_ENOMEM, "out of memory");
    }
    free(order);

    /* Kahn's algorithm, first in first out: a topological order. */
    int head = 0, tail = 0;
    for (int i = 0; i < g->n; i++) {
        indeg[i] = g->pred_at[i + 1] - g->pred_at[i];
        if (indeg[i] == 0)
            g->topo[tail++] = i;
    }
    while (head < tail) {
        int i = g->topo[head++];
        for (int k = g->succ_at[i]; k < g->succ_at[i + 1]; k++)
            if (--indeg[g->succ[k]] == 0)
                g->topo[tail++] = g->succ[k];
    }
    if (tail < g->n) {
        rc = report_cycle(g, indeg, err);
        free(indeg);
        return rc;
    }
    free(indeg);
    g->entry = g->topo[0];
    g->exit = g->topo[g->n - 1];
    g->finished = 1;
    return DAG_OK;
}

double dag_wbar(const dag *g, int i)
{
    double s = 0;
    for (int p = 0; p < g->q; p++)
        s += DAG_W(g, i, p);
    return s / g->q;
}

void dag_rank_up(const dag *g, double *ru)
{
    for (int t = g->n - 1; t >= 0; t--) {
        int i = g->topo[t];
        double best = 0;
        for (int k = g->succ_at[i]; k < g->succ_at[i + 1]; k++) {
            double r = g->succ_c[k] + ru[g->succ[k]];
            if (r > best)
                best = r;
        }
        ru[i] = dag_wbar(g, i) + best;
    }
}

void dag_rank_down(const dag *g, double *rd)
{
    for (int t = 0; t < g->n; t++) {
        int i = g->topo[t];
        double best = 0;
        for (int k = g->pred_at[i]; k < g->pred_at[i + 1]; k++) {
            int j = g->pred[k];
            double r = rd[j] + dag_wbar(g, j) + g->pred_c[k];
            if (r > best)
                best = r;
        }
        rd[i] = best;
    }
}

int dag_critical_path(const dag *g, const double *ru, const double *rd,
                      int *path, int *pcp)
{
    /* Step 9 asks for the child with priority == |CP|. Every task's priority
     * is at most |CP| and a critical task has a critical child, so we take
     * the child of greatest priority, equal within rounding (1e-9 |CP|)
     * counting as equal and the lowest index winning. */
    double cp = ru[g->entry] + rd[g->entry], tol = 1e-9 * fabs(cp);
    int len = 0, k = g->entry;
    path[len++] = k;
    while (k != g->exit) {
        int best = -1;
        for (int e = g->succ_at[k]; e < g->succ_at[k + 1]; e++) {
            int j = g->succ[e];
            if (best < 0 || ru[j] + rd[j] > ru[best] + rd[best] + tol)
                best = j;
        }
        path[len++] = k = best;
    }
    double least = 0;
    for (int p = 0; p < g->q; p++) {
        double sum = 0;
        for (int t = 0; t < len; t++)
            sum += DAG_W(g, path[t], p);
        if (p == 0 || sum < least) {
            least = sum;
            *pcp = p;
        }
    }
    return len;
}

/* The least cost of task i over the processors. */
static double wmin(const dag *g, int i)
{
    double m = DAG_W(g, i, 0);
    for (int p = 1; p < g->q; p++)
        if (DAG_W(g, i, p) < m)
            m = DAG_W(g, i, p);
    return m;
}

double dag_cp_min(const dag *g)
{
    double *len = malloc((size_t)g->n * sizeof *len), best = 0;
    if (!len)
        return NAN;
    for (int t = 0; t < g->n; t++) {
        int i = g->topo[t];
        double before = 0;
        for (int k = g->pred_at[i]; k < g->pred_at[i + 1]; k++)
            if (len[g->pred[k]] > before)
                before = len[g->pred[k]];
        len[i] = before + wmin(g, i);
        if (len[i] > best)
            best = len[i];
    }
    free(len);
    return best;
}

double dag_sequential(const dag *g)
{
    double best = 0;
    for (int p = 0; p < g->q; p++) {
        double sum = 0;
        for (int i = 0; i < g->n; i++)
            sum += DAG_W(g, i, p);
        if (p == 0 || sum < best)
            best = sum;
    }
    return best;
}
