/* parse.c: fuzzes the programs' number helpers (sched/util/parse.c):
 * parse_long, parse_int, parse_double and parse_double_list on the input as a
 * string. What they accept is the whole string, finite, and consistent: an int
 * is a long in range, a long prints back to a string that parses to it, a list
 * has at most max finite values and one value parses as a double too. */
#include "tests/fuzz/fuzz.h"
#include <limits.h>
#include <math.h>

#include "sched/util/parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_string(data, size);
    long l = 0;
    int i = 0;
    double d = 0, list[8];
    int okl = parse_long(s, &l) == 0;
    int oki = parse_int(s, &i) == 0;
    int okd = parse_double(s, &d) == 0;
    FUZZ_CHECK(!oki || (okl && l == i));
    FUZZ_CHECK(oki || !okl || l < INT_MIN || l > INT_MAX);
    FUZZ_CHECK(!okl || okd);            /* a decimal integer is a number */
    FUZZ_CHECK(!okd || isfinite(d));
    if (okl) {
        char back[32];
        long again;
        snprintf(back, sizeof back, "%ld", l);
        FUZZ_CHECK(parse_long(back, &again) == 0 && again == l);
    }
    int n = parse_double_list(s, list, 8);
    FUZZ_CHECK(n == -1 || (n >= 1 && n <= 8));
    for (int k = 0; k < n; k++)
        FUZZ_CHECK(isfinite(list[k]));
    if (okd)
        FUZZ_CHECK(n == 1 && list[0] == d);
    if (n == 1 && !strchr(s, ','))
        FUZZ_CHECK(okd);
    free(s);
    return 0;
}
