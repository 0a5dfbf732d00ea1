/* platform.c: the simulator's platform file (hosts, speeds, loads, links).
 *
 *   # a comment
 *   master CLUSTER
 *   host NAME speed=S [cluster=C] [count=K] [load=T:N,T:N,...] [fail=T]
 *   link CLUSTER CLUSTER latency=SECONDS bandwidth=BYTES_PER_SECOND
 *
 * count=K makes K hosts NAME1 .. NAMEK. load=0:3,10:0 means 3 other busy
 * processes from t = 0 and none from t = 10. A link line is symmetric; '*'
 * matches any cluster; the last matching line wins. Numbers take the usual
 * suffixes of nothing: seconds and bytes (1e8 is fine).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sched/lines.h"
#include "sched/parse.h"
#include "sim/sim.h"

#define FAIL(...) do { snprintf(msg, len, __VA_ARGS__); goto fail; } while (0)

static int add_host(sim_platform *p, const sim_host *h)
{
    sim_host *hs = realloc(p->hosts, sizeof *hs * (size_t)(p->nhosts + 1));
    if (!hs)
        return -1;
    p->hosts = hs;
    p->hosts[p->nhosts] = *h;
    if (h->nload) {
        p->hosts[p->nhosts].load = malloc(sizeof *h->load * (size_t)h->nload);
        if (!p->hosts[p->nhosts].load)
            return -1;
        memcpy(p->hosts[p->nhosts].load, h->load, sizeof *h->load * (size_t)h->nload);
    }
    p->nhosts++;
    return 0;
}

/* "T:N,T:N" into steps (at most max), by increasing T; -1 when malformed or
 * out of memory. */
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
            n = -1;
            break;
        }
        *colon = '\0';
        if (parse_double(tok, &t) != 0 || t < 0 || parse_int(colon + 1, &x) != 0 ||
            x < 0 || (n > 0 && t <= steps[n - 1].t))
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
    while ((line = lines_next(&in))) {
        int lineno = (int)in.lineno;
        line[strcspn(line, "#")] = '\0';
        char *tok[64];
        int nt = lines_split(line, " \t", tok, 64);
        if (nt < 0)
            FAIL("%s:%d: more than 64 words", path, lineno);
        if (nt == 0)
            continue;
        if (strcmp(tok[0], "master") == 0) {
            if (nt != 2)
                FAIL("%s:%d: 'master CLUSTER' takes one cluster name", path, lineno);
            snprintf(p->master, sizeof p->master, "%s", tok[1]);
        } else if (strcmp(tok[0], "host") == 0) {
            if (nt < 2)
                FAIL("%s:%d: 'host' needs a name", path, lineno);
            sim_host h = {.speed = -1, .fail = -1};
            sim_step steps[256];
            int count = 1;
            snprintf(h.name, sizeof h.name, "%s", tok[1]);
            snprintf(h.cluster, sizeof h.cluster, "default");
            for (int i = 2; i < nt; i++) {
                char *eq = strchr(tok[i], '=');
                if (!eq)
                    FAIL("%s:%d: '%s' is not key=value", path, lineno, tok[i]);
                *eq = '\0';
                const char *k = tok[i], *v = eq + 1;
                if (strcmp(k, "speed") == 0) {
                    if (parse_double(v, &h.speed) != 0 || !(h.speed > 0))
                        FAIL("%s:%d: speed=%s must be a number > 0", path, lineno, v);
                } else if (strcmp(k, "cluster") == 0) {
                    snprintf(h.cluster, sizeof h.cluster, "%s", v);
                } else if (strcmp(k, "count") == 0) {
                    if (parse_int(v, &count) != 0 || count < 1 || count > 1000000)
                        FAIL("%s:%d: count=%s must be an integer >= 1", path, lineno, v);
                } else if (strcmp(k, "load") == 0) {
                    h.nload = parse_load(v, steps, 256);
                    if (h.nload < 0)
                        FAIL("%s:%d: load=%s must be T:N,T:N,... with increasing "
                             "times T >= 0 and N >= 0", path, lineno, v);
                    h.load = steps;
                } else if (strcmp(k, "fail") == 0) {
                    if (parse_double(v, &h.fail) != 0 || h.fail < 0)
                        FAIL("%s:%d: fail=%s must be a time >= 0", path, lineno, v);
                } else
                    FAIL("%s:%d: unknown host option '%s' (speed, cluster, count, "
                         "load, fail)", path, lineno, k);
            }
            if (h.speed < 0)
                FAIL("%s:%d: host %s needs speed=", path, lineno, h.name);
            for (int c = 1; c <= count; c++) {
                sim_host one = h;
                if (count > 1)
                    snprintf(one.name, sizeof one.name, "%.50s%d", h.name, c);
                for (int j = 0; j < p->nhosts; j++)
                    if (strcmp(p->hosts[j].name, one.name) == 0)
                        FAIL("%s:%d: host %s is defined twice", path, lineno, one.name);
                if (add_host(p, &one) != 0)
                    FAIL("%s:%d: out of memory", path, lineno);
            }
        } else if (strcmp(tok[0], "link") == 0) {
            sim_link l = {.latency = 0, .bandwidth = 0};
            if (nt < 3)
                FAIL("%s:%d: 'link CLUSTER CLUSTER latency= bandwidth='", path, lineno);
            snprintf(l.a, sizeof l.a, "%s", tok[1]);
            snprintf(l.b, sizeof l.b, "%s", tok[2]);
            for (int i = 3; i < nt; i++) {
                char *eq = strchr(tok[i], '=');
                if (!eq)
                    FAIL("%s:%d: '%s' is not key=value", path, lineno, tok[i]);
                *eq = '\0';
                const char *k = tok[i], *v = eq + 1;
                if (strcmp(k, "latency") == 0) {
                    if (parse_double(v, &l.latency) != 0 || l.latency < 0)
                        FAIL("%s:%d: latency=%s must be seconds >= 0", path, lineno, v);
                } else if (strcmp(k, "bandwidth") == 0) {
                    if (parse_double(v, &l.bandwidth) != 0 || !(l.bandwidth > 0))
                        FAIL("%s:%d: bandwidth=%s must be bytes/s > 0", path, lineno, v);
                } else
                    FAIL("%s:%d: unknown link option '%s' (latency, bandwidth)",
                         path, lineno, k);
            }
            sim_link *ls = realloc(p->links, sizeof *ls * (size_t)(p->nlinks + 1));
            if (!ls)
                FAIL("%s:%d: out of memory", path, lineno);
            p->links = ls;
            p->links[p->nlinks++] = l;
        } else
            FAIL("%s:%d: unknown line '%s' (master, host, link)", path, lineno, tok[0]);
    }
    if (lines_error(&in))
        FAIL("%s", in.msg);
    lines_close(&in);
    if (p->nhosts == 0) {
        snprintf(msg, len, "%s: no host lines", path);
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
    for (int i = 0; i < p->nhosts; i++)
        free(p->hosts[i].load);
    free(p->hosts);
    free(p->links);
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
