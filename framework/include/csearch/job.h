/* csearch/job.h - from a config to a search ready to run.
 *
 * A job is what a config asks for: the model and its problem, the task, the
 * engine's strategy and limits.  cs_job_setup() performs every check a
 * config needs (known model, known keys with the right types, a task and
 * selection the model can do) so that anything that runs afterwards runs on
 * valid input.  The CLI, the tests and programs of your own all start here;
 * each declares the keys it reads itself (how it prints, say) in option
 * tables of its own, checked with the library's and the model's.
 */
#ifndef CSEARCH_JOB_H
#define CSEARCH_JOB_H

#include "csearch/config.h"
#include "csearch/engine.h"
#include "csearch/registry.h"

/* The values of output.format, in the order of its choices. */
enum cs_format { CS_FORMAT_TEXT, CS_FORMAT_JSON, CS_FORMAT_CSV };

struct cs_job {
    const struct cs_model *model;
    struct cs_problem problem;
    enum cs_task task;
    enum cs_select select;
    struct cs_limits limits;
    int threads;      /* strategy.threads */
    uint64_t fingerprint; /* of what shapes the search; see checkpoints */
};

/* The keys every config may use whatever the model (task, strategy.select,
 * limits.*, and the output keys that models and the tracer read:
 * output.format, output.show, output.trace, output.trace_html,
 * output.tree), NULL-key-terminated. */
extern const struct cs_option cs_framework_options[];

/* Check cfg and set up job (zeroed by the caller or not: it is overwritten).
 * caller_options: a NULL-terminated list of the caller's own option tables
 * (NULL: none), checked with cs_framework_options and the model's, so the
 * caller can read its keys with the cs_config_* getters afterwards.
 * Errors are positioned at the offending key:
 *   missing key 'model'                       (at the document, or 1:1)
 *   unknown model 'X'[; did you mean 'Y'?]    (at the model value)
 *   model M cannot do task 'T' (it can: count, solve)
 *   model M cannot select mrv with these settings
 * plus everything cs_config_check and the model's setup report. */
int cs_job_setup(struct cs_job *job, struct cs_config *cfg,
                 const struct cs_registry *reg,
                 const struct cs_option *const *caller_options,
                 struct cs_error *err);

/* A run for the job: problem, task, selection and limits filled in. */
void cs_job_run(const struct cs_job *job, struct cs_run *run);

void cs_job_free(struct cs_job *job);

#endif
