/* compare.h - `csearch compare CONFIG`: a matrix of strategies over n.
 *
 * The config's `compare:` section lists values of n and strategies (each a
 * set of key overrides); every pair is run on the config, and the results
 * come out as a table with ratios to the first strategy, a CSV file and an
 * SVG plot (docs/compare.md).
 */
#ifndef CSEARCH_CLI_COMPARE_H
#define CSEARCH_CLI_COMPARE_H

#include <signal.h>

#include "csearch/job.h"

/* Run the comparison cfg describes.  cfg is the config read from path with
 * the command line's overrides `sets` applied (in that order); each run
 * reads path again and applies sets, then its strategy's keys, then n.
 * stop is polled (Ctrl-C).  Returns -1 with err set (at the offending key)
 * when the comparison cannot start -- nothing has been printed then --
 * else the exit status: 0 all complete, 3 a run stopped by a limit, 130
 * interrupted. */
int compare_run(const struct cs_config *cfg, const char *path,
                const char *const *sets, int nsets,
                const struct cs_registry *reg, volatile sig_atomic_t *stop,
                struct cs_error *err);

#endif
