/* options.c: fuzzes the runtime's option parsing (runtime/loop/options.c), the
 * C option parser of bin/coordinator, bin/matrix and users' programs, through
 * its public API (runtime/dtss.h), which needs no PVM: the input is a
 * command line, one argument per line (argv[0] added), taken by
 * dtss_master_args and checked by dtss_master_check; then each line
 * "NAME VALUE" (or "NAME") is given to dtss_master_set on a fresh master.
 * dtss_master_args leaves argv NULL-terminated with the arguments it did not
 * take, in order.
 *
 * There is no C hostfile parser to fuzz: scripts/cluster reads hostfiles
 * with awk, and runtime/loop/hosts.c only asks PVM (pvm_config) for its hosts;
 * --hosts H1,H2 is this harness's. */
#include "tests/fuzz/fuzz.h"
#include "runtime/dtss.h"

#define MAXARGS 64

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *s = fuzz_string(data, size), *copy = strdup(s);
    FUZZ_CHECK(copy != NULL);
    char *argv[MAXARGS + 2], *orig[MAXARGS + 2];
    int argc = 0;
    argv[argc++] = "prog";
    for (char *p = s; argc <= MAXARGS; ) {
        argv[argc++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = '\0';
        p = nl + 1;
    }
    argv[argc] = NULL;
    memcpy(orig, argv, sizeof argv);
    int n = argc;

    dtss_master *m = dtss_master_new();
    FUZZ_CHECK(m != NULL);
    dtss_master_log(m, NULL, NULL, 0);
    if (dtss_master_args(m, &n, argv) == DTSS_OK) {
        FUZZ_CHECK(n >= 1 && n <= argc && argv[n] == NULL);
        /* what is left is a subsequence of the arguments, in order */
        for (int i = 0, j = 0; i < n; i++, j++) {
            while (j < argc && orig[j] != argv[i])
                j++;
            FUZZ_CHECK(j < argc);
        }
        (void)dtss_master_check(m);
    } else {
        FUZZ_CHECK(dtss_master_errmsg(m)[0] != '\0');
    }
    dtss_master_free(m);

    m = dtss_master_new();
    FUZZ_CHECK(m != NULL);
    dtss_master_log(m, NULL, NULL, 0);
    char *save = NULL;
    for (char *line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        char *sp = strchr(line, ' ');
        if (sp)
            *sp++ = '\0';
        int rc = dtss_master_set(m, line, sp);
        FUZZ_CHECK(rc == DTSS_OK || dtss_master_errmsg(m)[0] != '\0');
    }
    (void)dtss_master_check(m);
    dtss_master_free(m);
    free(copy);
    free(s);
    return 0;
}
