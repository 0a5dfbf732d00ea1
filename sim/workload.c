/* workload.c: the cost of each iteration of the loop (Xu & Chronopoulos
 * Fig. 1: uniform, linearly increasing / decreasing, conditional, irregular;
 * Díaz et al. Sec. 4: products of random matrices of size 300-1000; the
 * Mandelbrot rows -- or columns, loop=columns -- of bin/mandel --costs).
 *
 * Iteration costs are kept as prefix sums in the scheduled order (after
 * pseudo-uniform sampling), so the cost of any chunk is one subtraction, and
 * the linear kinds in closed form, so a loop of 10^8 iterations costs nothing
 * to hold: a simulation's time grows with its chunks, not its iterations.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_rng.h>

#include "cost/cost.h"
#include "sched/util/conv.h"
#include "sched/util/lines.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"
#include "sim/sim.h"

#define MAXKEYS 8

typedef struct kv { const char *k, *v; int used; } kv;

/* The value of key k, or NULL; marks it used. */
static const char *get(kv *kvs, int n, const char *k)
{
    for (int i = 0; i < n; i++)
        if (strcmp(kvs[i].k, k) == 0) {
            kvs[i].used = 1;
            return kvs[i].v;
        }
    return NULL;
}

static int num(kv *kvs, int n, const char *k, double dflt, int required, double *out,
               char *msg, size_t len)
{
    const char *v = get(kvs, n, k);
    if (!v) {
        if (required) {
            snprintf(msg, len, "workload needs %s=", k);
            return -1;
        }
        *out = dflt;
        return 0;
    }
    if (parse_double(v, out) != 0) {
        snprintf(msg, len, "workload: %s=%s is not a number", k, quote(v));
        return -1;
    }
    return 0;
}

static int count(kv *kvs, int n, long *out, char *msg, size_t len)
{
    double d;
    if (num(kvs, n, "n", 0, 1, &d, msg, len) != 0)
        return -1;
    if (parse_whole(d, 1, 4000000000000000000L, out) != 0) {
        snprintf(msg, len, "workload: n=%s must be an integer in [1, 4e18]",
                 conv_g(d, (char[CONV_G]){0}));
        return -1;
    }
    return 0;
}

/* Makes w an array workload of n costs (filled by the caller). */
#define MAX_ARRAY 200000000L

static double *make_array(sim_workload *w, long n, char *msg, size_t len)
{
    if (n > MAX_ARRAY) {
        snprintf(msg, len, "workload: n=%ld is too many iterations for a cost "
                 "array (at most 2e8; uniform and linear kinds have no limit)", n);
        return NULL;
    }
    w->kind = SIM_ARRAY;
    w->n = n;
    w->prefix = calloc((size_t)n + 1, sizeof *w->prefix);
    if (!w->prefix)
        snprintf(msg, len, "workload: out of memory for %ld costs", n);
    return w->prefix;
}

/* costs[] (original order) -> prefix sums in place (w->prefix[1..n]). */
static void finish_array(sim_workload *w)
{
    double s = 0;
    for (long i = 1; i <= w->n; i++) {
        s += w->prefix[i];
        w->prefix[i] = s;
    }
    w->prefix[0] = 0;
    w->total = s;
}

/* A field that reads as a number, finite or not ("nan", "inf", "1e999"):
 * never a header's word. */
static int numberlike(const char *v)
{
    char *end;
    if (!*v)
        return 0;
    (void)strtod(v, &end);
    return *end == '\0';
}

/* Splits a cost file's line in place: at commas when it has one (empty
 * fields kept, blanks around a field dropped), else at runs of blanks.
 * Keeps at most max fields; returns how many there are (at most max + 1). */
static int split_fields(char *line, char **field, int max)
{
    int n = 0;
    if (!strchr(line, ',')) {
        for (char *p = line + strspn(line, " \t"); *p; p += strspn(p, " \t")) {
            char *e = p + strcspn(p, " \t");
            if (n < max)
                field[n] = p;
            n += n <= max;
            if (!*e)
                break;
            *e = '\0';
            p = e + 1;
        }
        return n;
    }
    for (char *p = line;;) {
        char *e = strchr(p, ',');
        if (e)
            *e = '\0';
        p += strspn(p, " \t");
        size_t l = strlen(p);
        while (l > 0 && (p[l - 1] == ' ' || p[l - 1] == '\t'))
            p[--l] = '\0';
        if (n < max)
            field[n] = p;
        n += n <= max;
        if (!e)
            return n;
        p = e + 1;
    }
}

/* Reads costs from a file: the 'column'-th field (comma- or blank-separated)
 * of every line; blank lines and '#' comments aside, only the first line may
 * be a header (its cost field not a number). Every other line must hold a
 * finite cost >= 0 there, or it is refused with its file and line. With
 * index_column > 0 the cost goes to the iteration named in that column: an
 * integer, each of 0..n-1 exactly once. */
static int read_costs(sim_workload *w, const char *path, int column, int index_column,
                      char *msg, size_t len)
{
    lines in;
    char why[320];
    if (lines_open(&in, path, why, sizeof why) != 0) {
        snprintf(msg, len, "workload: %s", why);
        return -1;
    }
    double *vals = NULL;
    long *idx = NULL, *lineof = NULL, *at = NULL, n = 0, cap = 0;
    int need = column > index_column ? column : index_column, first = 1;
    char *line;
#define BAD(...) do { snprintf(msg, len, __VA_ARGS__); goto fail; } while (0)
    while ((line = lines_next(&in))) {
        if (lines_blank(line))
            continue;
        char *field[32];
        int nf = split_fields(line, field, 32);
        if (first && (nf < column || !numberlike(field[column - 1]))) {
            first = 0;
            continue;                       /* the header */
        }
        first = 0;
        if (nf < need)
            BAD("workload: %s:%ld: %d field%s, the cost is in column %d%s", quote(path),
                in.lineno, nf, nf == 1 ? "" : "s", column,
                index_column ? ", the iteration in column 2" : "");
        const char *cv = field[column - 1];
        double v;
        long iv = n;
        if (parse_double(cv, &v) != 0)
            BAD("workload: %s:%ld: cost '%s' is not a %snumber", quote(path), in.lineno, quote(cv),
                numberlike(cv) ? "finite " : "");
        if (v < 0)
            BAD("workload: %s:%ld: negative cost %g", quote(path), in.lineno, v);
        if (index_column > 0) {
            const char *ix = field[index_column - 1];
            if (parse_long(ix, &iv) != 0 || iv < 0 || iv >= MAX_ARRAY)
                BAD("workload: %s:%ld: iteration '%s' is not an integer in 0..%ld",
                    quote(path), in.lineno, quote(ix), MAX_ARRAY - 1);
        }
        if (n == MAX_ARRAY)
            BAD("workload: %s:%ld: more than %ld costs", quote(path), in.lineno, MAX_ARRAY);
        if (n == cap) {
            cap = cap ? 2 * cap : 1024;
            double *nv = realloc(vals, sizeof *vals * (size_t)cap);
            if (nv)
                vals = nv;
            long *ni = realloc(idx, sizeof *idx * (size_t)cap);
            if (ni)
                idx = ni;
            long *nl = realloc(lineof, sizeof *lineof * (size_t)cap);
            if (nl)
                lineof = nl;
            if (!nv || !ni || !nl)
                BAD("workload: out of memory reading %s", quote(path));
        }
        vals[n] = v;
        idx[n] = iv;
        lineof[n] = in.lineno;
        n++;
    }
    if (lines_error(&in))
        BAD("workload: %s", in.msg);
    lines_close(&in);
    if (n == 0)
        BAD("workload: %s has no costs (column %d)", quote(path), column);
    if (!make_array(w, n, msg, len) || !(at = malloc(sizeof *at * (size_t)n)))
        BAD("workload: out of memory for %ld costs", n);
    for (long i = 0; i < n; i++)
        at[i] = -1;
    for (long i = 0; i < n; i++) {
        if (idx[i] >= n)
            BAD("workload: %s:%ld: iteration %ld out of 0..%ld (the file has %ld costs)",
                quote(path), lineof[i], idx[i], n - 1, n);
        if (at[idx[i]] >= 0)
            BAD("workload: %s:%ld: iteration %ld again (first on line %ld)", quote(path),
                lineof[i], idx[i], lineof[at[idx[i]]]);
        at[idx[i]] = i;
        w->prefix[idx[i] + 1] = vals[i];
    }
#undef BAD
    free(vals);
    free(idx);
    free(lineof);
    free(at);
    finish_array(w);
    return 0;
fail:
    lines_close(&in);
    free(vals);
    free(idx);
    free(lineof);
    free(at);
    return -1;
}

/* Each kind's keys, checked before anything is built (a cost array of 10^8
 * entries, a Mandelbrot image): an unknown or repeated key is refused at
 * once. A kind not listed is refused later, by name. */
static const struct { const char *kind, *keys[7]; } kind_keys[] = {
    {"uniform", {"n", "cost"}},
    {"increasing", {"n", "from", "to"}},
    {"decreasing", {"n", "from", "to"}},
    {"conditional", {"n", "lo", "hi", "p"}},
    {"matrix", {"n", "min", "max", "scale"}},
    {"mandel", {"costs", "size", "maxiter", "loop"}},
    {"costs", {"file", "column"}},
};

static int check_keys(const char *kind, const kv *kvs, int n, char *msg, size_t len)
{
    for (size_t k = 0; k < sizeof kind_keys / sizeof kind_keys[0]; k++) {
        if (strcmp(kind, kind_keys[k].kind) != 0)
            continue;
        const char *const *keys = kind_keys[k].keys;
        for (int i = 0; i < n; i++) {
            int known = 0;
            for (int j = 0; j < 7 && keys[j] && !known; j++)
                known = strcmp(kvs[i].k, keys[j]) == 0;
            for (int j = 0; j < i && known; j++)
                if (strcmp(kvs[i].k, kvs[j].k) == 0) {
                    snprintf(msg, len, "workload %s: key '%.40s' given twice", kind,
                             kvs[i].k);
                    return -1;
                }
            if (!known) {
                char list[100] = "";
                for (int j = 0; j < 7 && keys[j]; j++)
                    snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s=",
                             j ? ", " : "", keys[j]);
                snprintf(msg, len, "workload %s: unknown key '%.40s' (%s takes %s)", kind,
                         kvs[i].k, kind, list);
                return -1;
            }
        }
        return 0;
    }
    return 0;
}

/* dir/file (file alone when it is absolute or dir is NULL), malloc'ed:
 * however long, never cut short. */
static char *join(const char *dir, const char *file)
{
    int rel = file[0] != '/' && dir;
    size_t n = (rel ? strlen(dir) + 1 : 0) + strlen(file) + 1;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s%s%s", rel ? dir : "", rel ? "/" : "", file);
    return p;
}

int sim_workload_parse(sim_workload *w, const char *line, unsigned long seed,
                       const char *dir, char *msg, size_t len)
{
    memset(w, 0, sizeof *w);
    w->sample = 1;
    char *buf = strdup(line), *path = NULL;     /* read whole, however long */
    gsl_rng *rng = NULL;
    int rc = -1;
    if (!buf) {
        snprintf(msg, len, "workload: out of memory");
        return -1;
    }
    char *save = NULL, *kind = strtok_r(buf, " \t\r\n", &save);
    kv kvs[MAXKEYS];
    int n = 0;
    for (char *t = strtok_r(NULL, " \t\r\n", &save); t; t = strtok_r(NULL, " \t\r\n", &save)) {
        char *eq = strchr(t, '=');
        if (!eq) {
            snprintf(msg, len, "workload: '%s' is not key=value", quote(t));
            goto out;
        }
        if (n == MAXKEYS) {
            snprintf(msg, len, "workload: more than %d key=value pairs", MAXKEYS);
            goto out;
        }
        *eq = '\0';
        kvs[n++] = (kv){t, eq + 1, 0};
    }
    if (!kind) {
        snprintf(msg, len, "workload: no kind (uniform, increasing, decreasing, "
                 "conditional, matrix, mandel, costs)");
        goto out;
    }
    if (check_keys(kind, kvs, n, msg, len) != 0)
        goto out;                       /* before anything is built */
    if (strcmp(kind, "uniform") == 0) {
        double c;
        if (count(kvs, n, &w->n, msg, len) || num(kvs, n, "cost", 1, 0, &c, msg, len))
            goto out;
        if (!(c > 0)) {
            snprintf(msg, len, "workload: cost=%g must be > 0", c);
            goto out;
        }
        if (!(c * (double)w->n <= SIM_COST_MAX)) {
            snprintf(msg, len, "workload uniform: n=%ld times cost=%g is more than %g",
                     w->n, c, SIM_COST_MAX);
            goto out;
        }
        w->kind = SIM_LINEAR;
        w->a = c;
        w->total = c * (double)w->n;
        snprintf(w->desc, sizeof w->desc, "uniform n=%ld cost=%g", w->n, c);
    } else if (strcmp(kind, "increasing") == 0 || strcmp(kind, "decreasing") == 0) {
        double from, to;
        int inc = kind[0] == 'i';
        if (count(kvs, n, &w->n, msg, len) ||
            num(kvs, n, "from", inc ? 1 : 100, 0, &from, msg, len) ||
            num(kvs, n, "to", inc ? 100 : 1, 0, &to, msg, len))
            goto out;
        if (!(from > 0) || !(to > 0) || (inc ? to < from : to > from)) {
            snprintf(msg, len, "workload %s: from=%g to=%g must be > 0 and %s", quote(kind),
                     from, to, inc ? "from <= to" : "from >= to");
            goto out;
        }
        if (!((from / 2 + to / 2) * (double)w->n <= SIM_COST_MAX)) {
            snprintf(msg, len, "workload %s: n=%ld iterations from=%g to=%g cost more "
                     "than %g in all", quote(kind), w->n, from, to, SIM_COST_MAX);
            goto out;
        }
        w->kind = SIM_LINEAR;
        w->a = from;
        w->b = w->n > 1 ? (to - from) / (double)(w->n - 1) : 0;
        w->total = (from + to) / 2 * (double)w->n;
        snprintf(w->desc, sizeof w->desc, "%s n=%ld from=%g to=%g", quote(kind), w->n, from, to);
    } else if (strcmp(kind, "conditional") == 0 || strcmp(kind, "matrix") == 0) {
        int cond = kind[0] == 'c';
        double lo, hi, p, scale;
        long ilo = 0, ihi = 0;          /* matrix: min, max as integers */
        if (count(kvs, n, &w->n, msg, len))
            goto out;
        if (cond) {
            if (num(kvs, n, "lo", 1, 0, &lo, msg, len) || num(kvs, n, "hi", 10, 0, &hi, msg, len) ||
                num(kvs, n, "p", 0.5, 0, &p, msg, len))
                goto out;
            if (!(lo > 0) || !(hi > 0) || !(p >= 0 && p <= 1)) {
                snprintf(msg, len, "workload conditional: lo=%g hi=%g must be > 0, p=%g "
                         "in [0, 1]", lo, hi, p);
                goto out;
            }
        } else {
            if (num(kvs, n, "min", MATRIX_PAPER_MIN, 0, &lo, msg, len) ||
                num(kvs, n, "max", MATRIX_PAPER_MAX, 0, &hi, msg, len) ||
                num(kvs, n, "scale", 1, 0, &scale, msg, len))
                goto out;
            if (parse_whole(lo, 1, INT_MAX, &ilo) != 0 ||
                parse_whole(hi, ilo, INT_MAX, &ihi) != 0 || !(scale > 0)) {
                snprintf(msg, len, "workload matrix: min=%s max=%s must be integers, "
                         "1 <= min <= max <= %d; scale=%g > 0", conv_g(lo, (char[CONV_G]){0}),
                         conv_g(hi, (char[CONV_G]){0}), INT_MAX, scale);
                goto out;
            }
        }
        double most = cond ? (lo > hi ? lo : hi) : scale * pow(hi / 1000, 3);
        if (!(most * (double)w->n <= SIM_COST_MAX)) {
            snprintf(msg, len, "workload %s: n=%ld iterations of cost up to %g may cost "
                     "more than %g in all", quote(kind), w->n, most, SIM_COST_MAX);
            goto out;
        }
        if (!make_array(w, w->n, msg, len))
            goto out;
        rng = gsl_rng_alloc(gsl_rng_mt19937);
        if (!rng) {
            snprintf(msg, len, "workload: out of memory");
            goto out;
        }
        gsl_rng_set(rng, seed);
        for (long i = 0; i < w->n; i++) {
            if (cond)
                w->prefix[i + 1] = gsl_rng_uniform(rng) < p ? hi : lo;
            else {
                /* bin/matrix's sizes (matrix_size: the stream of (seed, i)),
                 * costing scale per 1000 x 1000 product: 2 s^3 flops */
                matrix_params mp = {seed, (int)ilo, (int)ihi};
                int s = matrix_size(&mp, i);
                if (s < 0) {
                    snprintf(msg, len, "workload: out of memory");
                    goto out;
                }
                w->prefix[i + 1] = scale * matrix_flops(s) / matrix_flops(1000);
            }
        }
        finish_array(w);
        if (cond)
            snprintf(w->desc, sizeof w->desc, "conditional n=%ld lo=%g hi=%g p=%g seed=%lu",
                     w->n, lo, hi, p, seed);
        else
            snprintf(w->desc, sizeof w->desc, "matrix n=%ld min=%g max=%g scale=%g seed=%lu",
                     w->n, lo, hi, scale, seed);
    } else if (strcmp(kind, "mandel") == 0) {
        const char *file = get(kvs, n, "costs");
        double size, maxiter;
        if (file && (get(kvs, n, "size") || get(kvs, n, "maxiter") || get(kvs, n, "loop"))) {
            snprintf(msg, len, "workload mandel: costs= takes no size=, maxiter= or loop= "
                     "(the costs file has them)");
            goto out;
        }
        if (file) {
            if (!(path = join(dir, file))) {
                snprintf(msg, len, "workload: out of memory");
                goto out;
            }
            /* bin/mandel --costs: index,row,cost,...: cost of each row
             * (index,column,cost,...: each column's, with --columns) */
            if (read_costs(w, path, 3, 2, msg, len) != 0)
                goto out;
            snprintf(w->desc, sizeof w->desc, "mandel costs=%s", file);
        } else {
            const char *loop = get(kvs, n, "loop");
            if (num(kvs, n, "size", 0, 1, &size, msg, len) ||
                num(kvs, n, "maxiter", MANDEL_DEFAULT_MAXITER, 0, &maxiter, msg, len))
                goto out;
            if (loop && strcmp(loop, "rows") != 0 && strcmp(loop, "columns") != 0) {
                snprintf(msg, len, "workload mandel: loop=%.60s must be rows or columns",
                         quote(loop));
                goto out;
            }
            long isize, imaxiter;
            if (parse_whole(size, 1, INT_MAX, &isize) != 0 ||
                parse_whole(maxiter, 1, UINT32_MAX, &imaxiter) != 0) {
                snprintf(msg, len, "workload mandel: size=%s maxiter=%s must be "
                         "integers, size in 1..%d, maxiter in 1..%lu",
                         conv_g(size, (char[CONV_G]){0}), conv_g(maxiter, (char[CONV_G]){0}),
                         INT_MAX, (unsigned long)UINT32_MAX);
                goto out;
            }
            mandel_params mp;
            mandel_defaults(&mp);
            mp.width = mp.height = (int)isize;
            mp.maxiter = (uint32_t)imaxiter;
            mp.columns = loop && strcmp(loop, "columns") == 0;
            if (mandel_check(&mp, msg, len) != 0)
                goto out;
            if (!make_array(w, mandel_lines(&mp), msg, len))
                goto out;
            uint32_t *counts = malloc(sizeof *counts * (size_t)mandel_line_len(&mp));
            if (!counts) {
                snprintf(msg, len, "workload: out of memory");
                goto out;
            }
            for (long k = 0; k < mandel_lines(&mp); k++)
                w->prefix[k + 1] = (double)mandel_line(&mp, k, counts);
            free(counts);
            finish_array(w);
            w->width = mp.width;
            w->height = mp.height;
            w->maxiter = mp.maxiter;
            w->columns = mp.columns;
            snprintf(w->desc, sizeof w->desc, "mandel size=%d maxiter=%u%s", mp.width,
                     mp.maxiter, mp.columns ? " loop=columns" : "");
        }
    } else if (strcmp(kind, "costs") == 0) {
        const char *file = get(kvs, n, "file");
        double col;
        if (!file) {
            snprintf(msg, len, "workload costs needs file=");
            goto out;
        }
        if (num(kvs, n, "column", 1, 0, &col, msg, len))
            goto out;
        long icol;
        if (parse_whole(col, 1, 32, &icol) != 0) {
            snprintf(msg, len, "workload costs: column=%s must be 1..32",
                     conv_g(col, (char[CONV_G]){0}));
            goto out;
        }
        if (!(path = join(dir, file))) {
            snprintf(msg, len, "workload: out of memory");
            goto out;
        }
        if (read_costs(w, path, (int)icol, 0, msg, len) != 0)
            goto out;
        snprintf(w->desc, sizeof w->desc, "costs file=%s", file);
    } else {
        snprintf(msg, len, "workload: unknown kind '%s' (uniform, increasing, decreasing, "
                 "conditional, matrix, mandel, costs)", quote(kind));
        goto out;
    }
    for (int i = 0; i < n; i++)
        if (!kvs[i].used) {
            snprintf(msg, len, "workload %s: unknown key '%s'", quote(kind), quote(kvs[i].k));
            goto out;
        }
    if (!(w->total <= SIM_COST_MAX)) {
        snprintf(msg, len, "workload %s: the costs add up to %g, more than %g", quote(kind),
                 w->total, SIM_COST_MAX);
        goto out;
    }
    rc = 0;
out:
    free(buf);
    free(path);
    gsl_rng_free(rng);
    if (rc != 0)
        sim_workload_free(w);
    return rc;
}

int sim_workload_sample(sim_workload *w, int R, char *msg, size_t len)
{
    if (R < 1) {
        snprintf(msg, len, "sample %d: the frequency must be >= 1", R);
        return -1;
    }
    w->sample = R;
    if (w->kind != SIM_ARRAY || R == 1)
        return 0;                           /* closed forms sample on the fly */
    double *p = malloc(sizeof *p * ((size_t)w->n + 1));
    if (!p) {
        snprintf(msg, len, "sample: out of memory");
        return -1;
    }
    p[0] = 0;
    for (long k = 0; k < w->n; k++) {
        long i = sched_sample(k, w->n, R);
        p[k + 1] = p[k] + (w->prefix[i + 1] - w->prefix[i]);
    }
    free(w->prefix);
    w->prefix = p;
    return 0;
}
