/* gsl_errors.c: GSL's errors as the program's own (parse_gsl_errors,
 * parse.h). A file apart from parse.c: libdtss holds parse.c, and its users
 * link no GSL. */
#include <stdio.h>
#include <stdlib.h>

#include <gsl/gsl_errno.h>

#include "sched/util/parse.h"

static const char *gsl_prog = "dtss";
static int gsl_status = 1;

static void gsl_handler(const char *reason, const char *file, int line, int gsl_errno)
{
    fprintf(stderr, "%s: GSL error: %s (%s:%d, %s)\n", gsl_prog, reason, file, line,
            gsl_strerror(gsl_errno));
    exit(gsl_status);
}

void parse_gsl_errors(const char *prog, int status)
{
    gsl_prog = prog;
    gsl_status = status;
    gsl_set_error_handler(gsl_handler);
}
