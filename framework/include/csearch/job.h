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

/* what the headers declare is libcsearch's interface; the rest is hidden */
#pragma GCC visibility push(default)

struct cs_job {
    const struct cs_model *model;
    struct cs_problem problem;
    enum cs_task task;
    enum cs_select select;
    struct cs_limits limits;
    int threads;             /* strategy.threads */
    struct cs_layers layers; /* the model's proposal and the keys' */
    uint64_t seed;           /* strategy.seed */
    uint64_t fingerprint;    /* of what shapes the search; see checkpoints */
    uint64_t probes;         /* strategy.probes (task estimate) */
};

/* The keys the engine and its layers read, whatever the model: model,
 * plugin, task, strategy.select, threads, seed, restarts, restart_nodes,
 * shuffle, lns_nodes and limits.*; NULL-key-terminated. */
extern const struct cs_option cs_framework_options[];

/* What the caller of cs_job_setup brings besides the config. */
struct cs_job_request {
    /* A NULL-terminated list of the caller's own option tables (how it
     * prints, say), checked with cs_framework_options and the model's, so
     * the caller can read its keys with the cs_config_* getters afterwards.
     * NULL: none. */
    const struct cs_option *const *options;
    /* The search will be traced: the model may choose a state that shows
     * well (struct cs_setup). */
    bool tracing;
    /* The search will count a per-level profile (cs_spec.profile): the
     * model sets up a tree the engine can count level by level. */
    bool profiling;
};

/* The time limit a search gets out of limits.seconds `seconds` (0: none)
 * when the model's set-up took `spent` of it: the rest, and at least an
 * instant (a search with none left stops at its first look at the clock).
 * cs_job_setup sets job->limits.seconds so: the limit is the whole run's. */
double cs_limit_left(double seconds, double spent);

/* Check cfg and set up job (zeroed by the caller or not: it is overwritten).
 * req may be NULL (no keys of the caller's, no trace).
 * Errors are positioned at the offending key:
 *   missing key 'model'                       (at the document, or 1:1)
 *   unknown model 'X'[; did you mean 'Y'?]    (at the model value)
 *   model M cannot do task 'T' (it can: count, solve)
 *   model M cannot select mrv with these settings
 * plus everything cs_config_check and the model's setup report. */
int cs_job_setup(struct cs_job *job, struct cs_config *cfg,
                 const struct cs_registry *reg,
                 const struct cs_job_request *req, struct cs_error *err);

/* The search the job asks for: spec's problem, task, selection, limits,
 * layers and seed filled in (the rest zero), and split's threads and
 * fingerprint (split may be NULL). */
void cs_job_spec(const struct cs_job *job, struct cs_spec *spec,
                 struct cs_split *split);

/* What a layer key ("strategy.restarts") came to in this job -- the
 * model's proposal and the config's value settled -- as JSON text
 * ("geometric", 2000, true) into buf, for --json; false for a key that is
 * no layer's, or one whose config value stands as written. */
bool cs_job_layer_value(const struct cs_job *job, const char *key, char *buf,
                        size_t size);

void cs_job_free(struct cs_job *job);

#pragma GCC visibility pop

#endif
