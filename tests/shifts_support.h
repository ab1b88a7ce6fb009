/* shifts_support.h - helpers of the shift scheduling tests (shifts_support.c).
 */
#ifndef CSEARCH_TEST_SHIFTS_SUPPORT_H
#define CSEARCH_TEST_SHIFTS_SUPPORT_H

#include <stdbool.h>
#include <stdint.h>

#include "csearch/job.h"
#include "shifts/shifts.h"

#define DATA CSEARCH_TEST_DATA "/shifts/"

/* What on_solution saw: each roster checked as it comes. */
struct shifts_seen {
    uint64_t rosters;
    int64_t last_total; /* the checker's total of the last roster */
    int64_t last_cost;  /* the search's bound (= cost) at that roster */
};

/* on_solution (ud: a struct shifts_seen): the roster passes the checker
 * with the cost the search gives it, or the test fails. */
bool shifts_check_each(void *ud, const struct cs_hooks *h, const void *state,
                       uint64_t weight);
/* Optimize cfg with every roster checked: the status, and the cost, which
 * must be the checker's total of the last roster too. */
struct cs_result shifts_optimized(struct cs_config *cfg, enum cs_status status,
                                  int64_t cost);
/* A config from a file or from text, and a key=value set on it; a
 * failure fails the test. */
struct cs_config *shifts_load(const char *path);
struct cs_config *shifts_parse(const char *text);
void shifts_set(struct cs_config *cfg, const char *assignment);
/* The job set up from cfg and its problem (free the job, then *reg). */
const struct shf_problem *shifts_problem_of(struct cs_config *cfg,
                                            struct cs_job *job,
                                            struct cs_registry **reg);

/* Three staff over four days: small enough to list every roster. */
extern const char shifts_tiny_spec[];

#endif
