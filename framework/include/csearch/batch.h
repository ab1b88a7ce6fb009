/* csearch/batch.h - many instances of one model in one run.
 *
 * A model whose config names many instances (a file of Sudoku puzzles, one
 * a line) sets cs_problem.instances and setup_instance; the job is then a
 * batch: every instance is set up on its own and searched with the job's
 * task, selection and limits, on as many threads as asked.  Results come
 * back in input order whatever the thread that found them, and an instance
 * the model refuses is reported with its position and skipped: the others
 * are still searched.  Under tasks generate and rate each instance is
 * counted to two solutions (its limits.solutions is 2) and its note kept.
 */
#ifndef CSEARCH_BATCH_H
#define CSEARCH_BATCH_H

#include "csearch/job.h"

/* what the headers declare is libcsearch's interface; the rest is hidden */
#pragma GCC visibility push(default)

struct cs_batch_result {
    uint64_t index; /* 0-based, in input order */
    bool invalid;   /* setup_instance refused it; err says why */
    struct cs_error err;
    enum cs_status status;
    struct cs_stats stats;
    char *solution; /* the first solution's lines joined; NULL if
                       none was found or the task is count */
    char *note;     /* tasks generate and rate: the instance's
                       cs_problem.note, copied; else NULL */
};

/* Called from the calling thread, once per instance, in input order. */
typedef void (*cs_batch_fn)(void *ud, const struct cs_batch_result *result);

/* Run every instance of job's problem.  stop (Ctrl-C) ends the batch after
 * the instances in flight, and so does job->limits.seconds, the whole
 * batch's time (each instance is searched with the time left); *ended is
 * CS_COMPLETE, CS_INTERRUPTED (stop) or CS_LIMIT (time ran out before
 * every instance was delivered).  Returns 0, or -1 with err if the batch
 * could not run at all. */
int cs_batch_run(const struct cs_job *job, volatile sig_atomic_t *stop,
                 cs_batch_fn on_result, void *ud, enum cs_status *ended,
                 struct cs_error *err);

/* The same over the ranks of an MPI job (csearch/dist.h; every rank calls
 * it): rank 0 hands the instances out and searches some, the others search
 * the rest, one at a time each; on_result is called on rank 0 alone, in
 * input order, with the results a serial run gives.  Alone (or without
 * MPI): cs_batch_run.  -1 with err when a rank cannot join (rank 0 says
 * which) or rank 0 ended the batch on an error. */
int cs_batch_run_ranks(const struct cs_job *job, volatile sig_atomic_t *stop,
                       cs_batch_fn on_result, void *ud, enum cs_status *ended,
                       struct cs_error *err);

#pragma GCC visibility pop

#endif
