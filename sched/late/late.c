/* late.c: the late rule (late.h): limit = max(F x (u / rate + extra), MIN). */
#include <math.h>
#include <stdlib.h>

#include "sched/late/late.h"
#include "sched/util/quote.h"

late_rule late_default(void)
{
    return (late_rule){.factor = LATE_FACTOR, .min = LATE_MIN};
}

int late_parse(const char *text, late_rule *r, sched_err *err)
{
    char *end;
    double f = strtod(text, &end), min = LATE_MIN;
    int bad = end == text;
    if (!bad && *end == ',') {
        const char *s = end + 1;
        min = strtod(s, &end);
        bad = end == s;
    }
    if (bad || *end || !(f == 0 || (f >= 1 && f <= 1000)) || !(min >= 0 && min <= 1e6))
        return sched_fail(err, SCHED_EINVAL, "--late '%s' must be FACTOR[,MIN]: FACTOR "
                          "0 (off) or in [1, 1000], MIN seconds in [0, 1000000]", quote(text));
    *r = (late_rule){.factor = f, .min = min};
    return SCHED_OK;
}

void late_add(late_rate *r, late_rate *run, double units, double secs)
{
    if (!(units >= 0) || !(secs >= 0) || !isfinite(units) || !isfinite(secs))
        return;
    r->units += units;
    r->secs += secs;
    if (run) {
        run->units += units;
        run->secs += secs;
    }
}

double late_limit_with(const late_rule *r, const late_rate *own, const late_rate *run,
                       double units, double extra)
{
    if (!(r->factor > 0))
        return INFINITY;
    const late_rate *x = own && own->units > 0 ? own : run;
    if (!x || !(x->units > 0))
        return INFINITY;
    double expect = units * (x->secs / x->units) + (extra > 0 && isfinite(extra) ? extra : 0);
    double limit = r->factor * expect;
    return limit > r->min ? limit : r->min;
}

double late_limit(const late_rule *r, const late_rate *own, const late_rate *run, double units)
{
    return late_limit_with(r, own, run, units, 0);
}

int late_is(const late_rule *r, const late_rate *own, const late_rate *run, double units,
            double sent, double now)
{
    return now - sent > late_limit(r, own, run, units);
}

double late_over_with(const late_rule *r, const late_rate *own, const late_rate *run,
                      double units, double extra, double sent, double now)
{
    double limit = late_limit_with(r, own, run, units, extra);
    return now - sent > limit ? (now - sent) / limit : 0;
}

double late_over(const late_rule *r, const late_rate *own, const late_rate *run, double units,
                 double sent, double now)
{
    return late_over_with(r, own, run, units, 0, sent, now);
}

double late_poll(const late_rule *r)
{
    if (!(r->factor > 0))
        return -1;
    double t = r->min / 8;
    return t < 0.05 ? 0.05 : t > 1 ? 1 : t;
}

void late_watch_start(late_watch *w, const late_rule *r, double now)
{
    *w = (late_watch){.poll = late_poll(r), .looked = now};
}

double late_watch_wait(const late_watch *w, double wait, double now)
{
    if (w->poll < 0)
        return wait;
    if (w->draining)
        return 0;
    double left = w->looked + w->poll - now;
    left = left > 0 ? left : 0;
    return wait < 0 || left < wait ? left : wait;
}

int late_watch_look(late_watch *w, int empty, double now)
{
    if (w->poll < 0)
        return 0;
    int due = w->draining || now - w->looked >= w->poll;
    if (due && empty) {
        w->draining = 0;
        w->looked = now;
        return 1;
    }
    w->draining = due;
    return 0;
}
