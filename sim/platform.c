/* platform.c: the simulator's platform file (hosts, speeds, loads, links).
 *
 *   # a comment
 *   master CLUSTER
 *   host NAME speed=S [cluster=C] [count=K] [load=T:N,T:N,...] [fail=T]
 *        [quota=Q,P]
 *   link CLUSTER CLUSTER latency=SECONDS bandwidth=BYTES_PER_SECOND
 *
 * count=K makes K hosts NAME1 .. NAMEK. load=0:3,10:0 means 3 other busy
 * processes from t = 0 and none from t = 10. quota=0.005,0.02: a CPU quota of
 * 5 ms every 20 ms period (sim.h, sim_cpu_run; speed stays the host's rate
 * over time, its core runs at speed x P / Q). A link line is symmetric; '*'
 * matches any cluster; the last matching line wins. Numbers take the usual
 * suffixes of nothing: seconds and bytes (1e8 is fine).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/util/lines.h"
#include "sched/util/parse.h"
#include "sched/util/quote.h"
#include "sim/sim.h"

#define FAIL(...) do { snprintf(msg, len, __VA_ARGS__); goto fail; } while (0)

/* Appends host h named name (a copy; h's load steps copied too); the array
 * grows geometrically (*cap: its room). */
static int add_host(sim_platform *p, int *cap, const sim_host *h, const char *name)
{
    if (p->nhosts == *cap) {
        int n = *cap ? 2 * *cap : 16;
        sim_host *hs = realloc(p->hosts, sizeof *hs * (size_t)n);
        if (!hs)
            return -1;
        p->hosts = hs;
        *cap = n;
    }
    sim_host *x = &p->hosts[p->nhosts];
    *x = *h;
    x->load = NULL;
    if (!(x->name = strdup(name)))
        return -1;
    p->nhosts++;            /* from here on sim_platform_free frees it */
    if (h->nload) {
        if (!(x->load = malloc(sizeof *h->load * (size_t)h->nload)))
            return -1;
        memcpy(x->load, h->load, sizeof *h->load * (size_t)h->nload);
    }
    return 0;
}

/* The platform's copy of cluster name c: the last one kept when it is the
 * same (the hosts of a line, of consecutive lines), else a new one. NULL out
 * of memory. */
static const char *cluster_name(sim_platform *p, const char *c)
{
    if (p->nclusters > 0 && strcmp(p->clusters[p->nclusters - 1], c) == 0)
        return p->clusters[p->nclusters - 1];
    if (p->nclusters == p->capclusters) {
        int n = p->capclusters ? 2 * p->capclusters : 4;
        char **cs = realloc(p->clusters, sizeof *cs * (size_t)n);
        if (!cs)
            return NULL;
        p->clusters = cs;
        p->capclusters = n;
    }
    char *copy = strdup(c);
    if (copy)
        p->clusters[p->nclusters++] = copy;
    return copy;
}

/* Copies a name into dst[64]; -1 when it does not fit (never truncated:
 * two long names sharing their first 63 characters stay two names). */
static int name_copy(char *dst, const char *src)
{
    return (size_t)snprintf(dst, 64, "%s", src) < 64 ? 0 : -1;
}

/* Host names sorted by name, then by definition order: a duplicate is next
 * to its first definition (O(n log n), for platforms of 10^6 hosts). */
static const sim_host *sort_hosts;
static int by_name(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    int c = strcmp(sort_hosts[x].name, sort_hosts[y].name);
    return c ? c : (x > y) - (x < y);
}

/* The first host (in file order) whose name an earlier host has, or -1;
 * -2 when out of memory. */
static int first_duplicate(const sim_platform *p)
{
    int *order = malloc(sizeof *order * (size_t)p->nhosts);
    if (!order)
        return -2;
    for (int i = 0; i < p->nhosts; i++)
        order[i] = i;
    sort_hosts = p->hosts;
    qsort(order, (size_t)p->nhosts, sizeof *order, by_name);
    int dup = -1;
    for (int i = 1; i < p->nhosts; i++)
        if (strcmp(p->hosts[order[i]].name, p->hosts[order[i - 1]].name) == 0 &&
            (dup < 0 || order[i] < dup))
            dup = order[i];
    free(order);
    return dup;
}

/* "T:N,T:N" into steps (at most max), by increasing T, 0 <= N <=
 * SIM_MAX_EXTRA; -1 when malformed or out of memory, -2 for more than max. */
static int parse_load(const char *v, sim_step *steps, int max)
{
    char *buf = strdup(v), *save = NULL;
    if (!buf)
        return -1;
    int n = 0;
    for (char *tok = strtok_r(buf, ",", &save); tok && n >= 0;
         tok = strtok_r(NULL, ",", &save)) {
        char *colon = strchr(tok, ':');
        double t;
        int x;
        if (!colon || n == max) {
            n = colon ? -2 : -1;
            break;
        }
        *colon = '\0';
        if (parse_double(tok, &t) != 0 || t < 0 || parse_int(colon + 1, &x) != 0 ||
            x < 0 || x > SIM_MAX_EXTRA || (n > 0 && t <= steps[n - 1].t))
            n = -1;
        else
            steps[n++] = (sim_step){t, x};
    }
    free(buf);
    return n;
}

int sim_platform_read(sim_platform *p, const char *path, char *msg, size_t len)
{
    memset(p, 0, sizeof *p);
    lines in;
    if (lines_open(&in, path, msg, len) != 0)
        return -1;
    char *line;
    int cap = 0;
    while ((line = lines_next(&in))) {
        int lineno = (int)in.lineno;
        line[strcspn(line, "#")] = '\0';
        char *tok[64];
        int nt = lines_split(line, " \t", tok, 64);
        if (nt < 0)
            FAIL("%s:%d: more than 64 words", quote(path), lineno);
        if (nt == 0)
            continue;
        if (strcmp(tok[0], "master") == 0) {
            if (nt != 2)
                FAIL("%s:%d: 'master CLUSTER' takes one cluster name", quote(path), lineno);
            if (name_copy(p->master, tok[1]) != 0)
                FAIL("%s:%d: cluster name '%s' is longer than 63 characters", quote(path),
                     lineno, quote(tok[1]));
        } else if (strcmp(tok[0], "host") == 0) {
            if (nt < 2)
                FAIL("%s:%d: 'host' needs a name", quote(path), lineno);
            sim_host h = {.speed = -1, .fail = -1, .line = lineno};
            sim_step steps[256];
            char name[64], cluster[64] = "default";
            int count = 1;
            if (name_copy(name, tok[1]) != 0)
                FAIL("%s:%d: host name '%s' is longer than 63 characters", quote(path),
                     lineno, quote(tok[1]));
            for (int i = 2; i < nt; i++) {
                char *eq = strchr(tok[i], '=');
                if (!eq)
                    FAIL("%s:%d: '%s' is not key=value", quote(path), lineno, quote(tok[i]));
                *eq = '\0';
                const char *k = tok[i], *v = eq + 1;
                if (strcmp(k, "speed") == 0) {
                    if (parse_double(v, &h.speed) != 0 || !(h.speed > 0))
                        FAIL("%s:%d: speed=%s must be a number > 0", quote(path), lineno, quote(v));
                } else if (strcmp(k, "cluster") == 0) {
                    if (!*v)
                        FAIL("%s:%d: cluster= needs a name", quote(path), lineno);
                    if (name_copy(cluster, v) != 0)
                        FAIL("%s:%d: cluster name '%s' is longer than 63 characters",
                             quote(path), lineno, quote(v));
                } else if (strcmp(k, "count") == 0) {
                    if (parse_int(v, &count) != 0 || count < 1 || count > SIM_MAX_HOSTS)
                        FAIL("%s:%d: count=%s must be an integer in 1..%d", quote(path), lineno,
                             quote(v), SIM_MAX_HOSTS);
                } else if (strcmp(k, "load") == 0) {
                    h.nload = parse_load(v, steps, 256);
                    if (h.nload == -2)
                        FAIL("%s:%d: load= has more than 256 steps", quote(path), lineno);
                    if (h.nload < 0)
                        FAIL("%s:%d: load=%s must be T:N,T:N,... with increasing "
                             "times T >= 0 and 0 <= N <= %d", quote(path), lineno, quote(v),
                             SIM_MAX_EXTRA);
                    h.load = steps;
                } else if (strcmp(k, "fail") == 0) {
                    if (parse_double(v, &h.fail) != 0 || h.fail < 0 ||
                        h.fail > SIM_TIME_MAX)
                        FAIL("%s:%d: fail=%s must be a time in 0..%g s", quote(path), lineno,
                             quote(v), SIM_TIME_MAX);
                } else if (strcmp(k, "quota") == 0) {
                    double qp[2];
                    if (parse_double_list(v, qp, 2) != 2 || !(qp[0] > 0) || !(qp[1] >= qp[0]) ||
                        qp[1] > SIM_TIME_MAX)
                        FAIL("%s:%d: quota=%s must be Q,P: seconds, 0 < Q <= P <= %g",
                             quote(path), lineno, quote(v), SIM_TIME_MAX);
                    h.quota = qp[0];
                    h.period = qp[1];
                } else
                    FAIL("%s:%d: unknown host option '%s' (speed, cluster, count, "
                         "load, fail, quota)", quote(path), lineno, quote(k));
            }
            if (h.speed < 0)
                FAIL("%s:%d: host %s needs speed=", quote(path), lineno, quote(name));
            if (count > SIM_MAX_HOSTS - p->nhosts)
                FAIL("%s:%d: more than %d hosts in all", quote(path), lineno, SIM_MAX_HOSTS);
            if (count > 1) {
                char last[32];
                int digits = snprintf(last, sizeof last, "%d", count);
                if (strlen(name) + (size_t)digits > 63)
                    FAIL("%s:%d: host names '%s' 1..%d would be longer than 63 "
                         "characters", quote(path), lineno, quote(name), count);
            }
            if (!(h.cluster = cluster_name(p, cluster)))
                FAIL("%s:%d: out of memory", quote(path), lineno);
            for (int c = 1; c <= count; c++) {
                char one[64];
                if (count > 1 && (size_t)snprintf(one, sizeof one, "%s%d", quote(name), c) >=
                                 sizeof one)
                    FAIL("%s:%d: host name %s%d is too long", quote(path), lineno, quote(name), c);
                if (add_host(p, &cap, &h, count > 1 ? one : name) != 0)
                    FAIL("%s:%d: out of memory", quote(path), lineno);
            }
        } else if (strcmp(tok[0], "link") == 0) {
            sim_link l = {.latency = 0, .bandwidth = 0};
            if (nt < 3)
                FAIL("%s:%d: 'link CLUSTER CLUSTER latency= bandwidth='", quote(path), lineno);
            if (name_copy(l.a, tok[1]) != 0 || name_copy(l.b, tok[2]) != 0)
                FAIL("%s:%d: a cluster name is longer than 63 characters", quote(path), lineno);
            for (int i = 3; i < nt; i++) {
                char *eq = strchr(tok[i], '=');
                if (!eq)
                    FAIL("%s:%d: '%s' is not key=value", quote(path), lineno, quote(tok[i]));
                *eq = '\0';
                const char *k = tok[i], *v = eq + 1;
                if (strcmp(k, "latency") == 0) {
                    if (parse_double(v, &l.latency) != 0 || l.latency < 0 ||
                        l.latency > SIM_TIME_MAX)
                        FAIL("%s:%d: latency=%s must be seconds in 0..%g", quote(path), lineno,
                             quote(v), SIM_TIME_MAX);
                } else if (strcmp(k, "bandwidth") == 0) {
                    if (parse_double(v, &l.bandwidth) != 0 || !(l.bandwidth > 0))
                        FAIL("%s:%d: bandwidth=%s must be bytes/s > 0", quote(path), lineno,
                             quote(v));
                } else
                    FAIL("%s:%d: unknown link option '%s' (latency, bandwidth)",
                         quote(path), lineno, quote(k));
            }
            sim_link *ls = realloc(p->links, sizeof *ls * (size_t)(p->nlinks + 1));
            if (!ls)
                FAIL("%s:%d: out of memory", quote(path), lineno);
            p->links = ls;
            p->links[p->nlinks++] = l;
        } else
            FAIL("%s:%d: unknown line '%s' (master, host, link)", quote(path), lineno,
                 quote(tok[0]));
    }
    if (lines_error(&in))
        FAIL("%s", in.msg);
    lines_close(&in);
    if (p->nhosts == 0) {
        snprintf(msg, len, "%s: no host lines", quote(path));
        sim_platform_free(p);
        return -1;
    }
    int dup = first_duplicate(p);
    if (dup != -1) {
        if (dup == -2)
            snprintf(msg, len, "%s: out of memory", quote(path));
        else
            snprintf(msg, len, "%s:%d: host %s is defined twice", quote(path), p->hosts[dup].line,
                     quote(p->hosts[dup].name));
        sim_platform_free(p);
        return -1;
    }
    /* V_i = speed / the slowest's, and their sum, must stay finite. */
    double slow = p->hosts[0].speed, fast = slow;
    for (int i = 1; i < p->nhosts; i++) {
        if (p->hosts[i].speed < slow)
            slow = p->hosts[i].speed;
        if (p->hosts[i].speed > fast)
            fast = p->hosts[i].speed;
    }
    if (!(fast / slow * p->nhosts <= SIM_COST_MAX)) {
        snprintf(msg, len, "%s: speeds from %g to %g: the fastest host's V_i = %g "
                 "(times %d hosts) is out of range", quote(path), slow, fast, fast / slow,
                 p->nhosts);
        sim_platform_free(p);
        return -1;
    }
    if (!p->master[0])
        snprintf(p->master, sizeof p->master, "%s", p->hosts[0].cluster);
    return 0;
fail:
    lines_close(&in);
    sim_platform_free(p);
    return -1;
}

void sim_platform_free(sim_platform *p)
{
    for (int i = 0; i < p->nhosts; i++) {
        free(p->hosts[i].name);
        free(p->hosts[i].load);
    }
    free(p->hosts);
    free(p->links);
    for (int i = 0; i < p->nclusters; i++)
        free(p->clusters[i]);
    free(p->clusters);
    memset(p, 0, sizeof *p);
}

static int matches(const char *pattern, const char *name)
{
    return strcmp(pattern, "*") == 0 || strcmp(pattern, name) == 0;
}

const sim_link *sim_link_between(const sim_platform *p, const char *a, const char *b)
{
    static const sim_link none = {"*", "*", 0, 0};
    for (int i = p->nlinks - 1; i >= 0; i--) {
        const sim_link *l = &p->links[i];
        if ((matches(l->a, a) && matches(l->b, b)) || (matches(l->a, b) && matches(l->b, a)))
            return l;
    }
    return &none;
}
