/* shifts_support.c - what the shift scheduling tests share: every roster a
 * search hands out checked by the independent checker (check.c), configs,
 * and the tiny spec whose rosters a brute force can list.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>

#include <cmocka.h>

#include "shifts_support.h"
#include "support.h"

bool shifts_check_each(void *ud, const struct cs_hooks *h, const void *state,
                       uint64_t weight)
{
    struct shifts_seen *seen = ud;
    struct shf_report r;
    (void)weight;
    const struct shf_problem *p = shf_state_problem(state);
    const signed char *roster = shf_state_roster(state);
    for (int c = 0; c < p->nstaff * p->ndays; c++)
        assert_true(roster[c] >= 0 && roster[c] <= p->nshifts);
    if (shf_check(p, roster, &r))
        fail_msg("a roster breaks a hard rule: %s", r.first);
    seen->rosters++;
    seen->last_total = r.total;
    seen->last_cost = h->cost(state);
    assert_int_equal(r.total, seen->last_cost);
    return true;
}

/* Optimize cfg with every roster checked: the status, and the cost, which
 * must be the checker's total of the last roster too. */
struct cs_result shifts_optimized(struct cs_config *cfg, enum cs_status status,
                                  int64_t cost)
{
    struct cs_result run;
    struct shifts_seen seen = {0};
    run_config(cfg, &run, shifts_check_each, &seen);
    assert_int_equal(run.status, status);
    assert_int_equal(run.cost, cost);
    assert_int_equal(seen.last_total, cost);
    return run;
}

struct cs_config *shifts_load(const char *path)
{
    struct cs_config *cfg;
    struct cs_error err;
    if (cs_config_load(&cfg, path, &err))
        fail_msg("%s: %s", path, err.msg);
    return cfg;
}

struct cs_config *shifts_parse(const char *text)
{
    struct cs_config *cfg;
    struct cs_error err;
    if (cs_config_parse(&cfg, "spec.yaml", text, strlen(text), &err))
        fail_msg("%s", err.msg);
    return cfg;
}

void shifts_set(struct cs_config *cfg, const char *assignment)
{
    struct cs_error err;
    if (cs_config_set(cfg, assignment, &err))
        fail_msg("%s: %s", assignment, err.msg);
}

const struct shf_problem *shifts_problem_of(struct cs_config *cfg,
                                            struct cs_job *job,
                                            struct cs_registry **reg)
{
    *reg = setup_job(cfg, job);
    return job->problem.data;
}

const char shifts_tiny_spec[] =
    "model: shifts\n"
    "params:\n"
    "  days: 4\n"
    "  first_day: friday\n"
    "  shifts:\n"
    "    - {id: E, minutes: 480}\n"
    "    - {id: N, minutes: 600, not_followed_by: [E], skill: senior}\n"
    "  staff:\n"
    "    - {id: Ann, min_minutes: 960, max_minutes: 1560, max_consecutive: 2,\n"
    "       skills: [senior], max_weekends: 1}\n"
    "    - {id: Bob, max_consecutive: 3, min_consecutive: 2, min_days_off: 2,\n"
    "       days_off: [3], max_shifts: {E: 2}}\n"
    "    - {id: Cat, max_minutes: 1440, skills: [senior], max_weekends: 0}\n"
    "  cover:\n"
    "    - {day: all, shift: E, need: 2, under: 10, over: 1}\n"
    "    - {day: 1, shift: N, need: 1, under: 20, over: 2}\n"
    "  shift_on:\n"
    "    - {staff: Cat, day: 3, shift: N, weight: 4}\n"
    "  shift_off:\n"
    "    - {staff: Ann, day: 0, weight: 3}\n"
    "  apart:\n"
    "    - [Ann, Cat]\n";
