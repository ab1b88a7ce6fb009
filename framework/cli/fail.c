/* fail.c - how the csearch command fails: one line on stderr, exit status
 * 2, and the error remembered, for main() hands it to the other MPI ranks
 * (cs_dist_finish) when the process ends.
 */
#include <stdarg.h>

#include "cli.h"

static struct cs_error failure; /* the error this process ends with */
static bool failed;

int cli_fail(const struct cs_error *err)
{
    char line[1024];
    cs_error_format(err, line, sizeof line);
    fprintf(stderr, "csearch: %s\n", line);
    failure = *err;
    failed = true;
    return CLI_EXIT_USAGE;
}

int cli_usage_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("csearch: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputs("; try 'csearch --help'\n", stderr);
    va_end(ap);
    cs_error_set(&failure, NULL, "usage error");
    failed = true;
    return CLI_EXIT_USAGE;
}

const struct cs_error *cli_failure(void)
{
    return failed ? &failure : NULL;
}
