/* support.h - helpers shared by the unit tests: known answers, configs built
 * from KEY=VALUE lines, and running a job to the end. */
#ifndef CSEARCH_TEST_SUPPORT_H
#define CSEARCH_TEST_SUPPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "csearch/job.h"

/* OEIS A000170 (total) and A002562 (unique) for n = 1..27. */
struct nq_answer {
    uint64_t total, unique;
};
extern struct nq_answer nq_answers[28];
void load_nq_answers(void);

/* Do queens at (r, pos[r]), r < n, leave each other alone? */
bool nq_board_valid(const int *pos, int n);

/* A config named "test" from "key=value" strings (NULL-terminated); fails
 * the test if one does not apply. */
struct cs_config *config_of(const char *const *sets);

/* The config file at path (a failure fails the test); the caller frees it
 * with cs_config_free(). */
struct cs_config *load_config(const char *path);

/* Set up the job for cfg (failing the test on error), run it with on_solution
 * and ud, and leave the statistics in *run. */
void run_config(struct cs_config *cfg, struct cs_result *run, cs_solution_fn fn,
                void *ud);

/* Builtin models registered and the job set up from cfg (a failure fails
 * the test); the registry, to free after the job. */
struct cs_registry *setup_job(struct cs_config *cfg, struct cs_job *job);

/* Two runs' statistics agree on every count (not the seconds). */
void assert_same_counts(const struct cs_stats *a, const struct cs_stats *b);

/* Set up a job expecting an error; returns the formatted message. */
const char *setup_error(struct cs_config *cfg);

#endif
