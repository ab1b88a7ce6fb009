/* compare.h - csearch compare as a module: strategies run side by side over
 * values of n, reported as a table (or one JSON object), a CSV file and an
 * SVG plot (docs/compare.md).
 *
 * The module reads the compare: section and sets up every run itself; the
 * front end says how one job is searched (its stop flag, its MPI ranks)
 * and which keys of its own a config may hold.
 */
#ifndef CSEARCH_COMPARE_H
#define CSEARCH_COMPARE_H

#include "csearch/job.h"
#include "csearch/trace.h"

struct compare_request {
    const char *path;        /* the config, read again for each run */
    const char *const *sets; /* KEY=VALUE overrides of every run */
    int nsets;
    const struct cs_option *const *options; /* the front end's keys */
    /* Search job once, stopping when the front end is interrupted, traced
     * by tracer unless it is NULL; 0, or -1 with err; r even on failure. */
    int (*search)(void *ud, const struct cs_job *job, struct cs_tracer *tracer,
                  struct cs_result *r, struct cs_error *err);
    void *ud;
};

/* cfg is the config read from req->path with req->sets applied; each run
 * reads the file again and applies the sets, its strategy's keys, then n.
 * -1 with err (at the offending key, nothing printed) when the comparison
 * cannot start or a file cannot be written; else 0 with the results
 * printed on stdout and *status CS_COMPLETE, CS_LIMIT (a run stopped by a
 * limit) or CS_INTERRUPTED. */
int compare_run(const struct compare_request *req, struct cs_config *cfg,
                const struct cs_registry *reg, enum cs_status *status,
                struct cs_error *err);

#endif
