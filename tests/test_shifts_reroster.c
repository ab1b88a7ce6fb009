/* test_shifts_reroster.c - re-rostering (models/shifts/reroster.c): the
 * published Instance7 roster after A's sick week, optimised by every part
 * of the search (rounds, annealing, descent, the row move) under node and
 * step limits, so each cost is exact.  Every roster a search hands out goes
 * through the independent checker, which counts the changes and breaks a
 * hard rule for any pinned cell or day before from_day that moved.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "shifts/search.h"
#include "shifts_support.h"
#include "support.h"

#define CONFIG CSEARCH_TEST_DATA "/../../configs/shifts-instance7-reroster.yaml"

static struct cs_config *sick_week(void)
{
    struct cs_config *cfg = shifts_load(CONFIG);
    shifts_set(cfg, "limits.seconds=0");
    shifts_set(cfg, "limits.nodes=200000");
    shifts_set(cfg, "strategy.anneal_steps=100000");
    return cfg;
}

/* Each part of the optimiser keeps the fixed cells and pays for changes:
 * the default (rounds and annealing), rounds alone, descending bursts,
 * and bursts with a row move every 50 steps.  All end at 1504 (the root
 * bound is 1503), in 131 rounds; the steps each made. */
static void test_reroster_every_search(void **ctx)
{
    (void)ctx;
    static const struct {
        const char *set;
        uint64_t steps;
    } cases[] = {{"strategy.large_steps=auto", 300000},
                 {"strategy.local_moves=off", 0},
                 {"strategy.anneal_steps=0", 60000},
                 {"strategy.large_steps=50", 300000}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        struct cs_config *cfg = sick_week();
        shifts_set(cfg, cases[i].set);
        struct cs_result run = shifts_optimized(cfg, CS_LIMIT, 1504);
        assert_int_equal(run.steps, cases[i].steps);
        assert_int_equal(run.rounds, 131);
        cs_config_free(cfg);
    }
}

/* The problem the keys make: A's sick days are fixed days off with the
 * published minutes taken off A's minimum, day 12's early cover is 5, and
 * days before 10 are fixed to the published roster. */
static void test_reroster_problem(void **ctx)
{
    (void)ctx;
    struct cs_config *cfg = sick_week();
    struct cs_job job;
    struct cs_registry *reg;
    const struct shf_problem *p = shifts_problem_of(cfg, &job, &reg);
    const struct shf_reroster *rr = p->reroster;
    assert_non_null(rr);
    assert_int_equal(rr->from_day, 10);
    assert_int_equal(rr->change_weight, 10);
    int a = shf_find(p->staff_id, p->nstaff, "A");
    int early = shf_find(p->shift_id, p->nshifts, "E");
    int missed = 0; /* minutes the published roster gave A on days 10-16 */
    for (int d = 10; d <= 16; d++) {
        int v = rr->published[shf_cell(p, a, d)];
        assert_true(p->day_off[shf_cell(p, a, d)]);
        missed += v > 0 ? p->minutes[v - 1] : 0;
    }
    assert_int_equal(missed, 4 * 480);
    assert_int_equal(p->min_minutes[a], 7560 - 4 * 480);
    assert_int_equal(p->need[12 * p->nshifts + early], 5);
    for (int s = 0; s < p->nstaff; s++)
        for (int d = 0; d < p->ndays; d++) {
            int c = shf_cell(p, s, d);
            assert_int_equal(p->fixed[c], d < 10 ? rr->published[c] : -1);
        }
    /* the published roster, checked under the change: A's four shifts are
     * on fixed days off now, and no cell is a change */
    struct shf_report r;
    assert_int_equal(shf_check(p, rr->published, &r), 4);
    assert_int_equal(r.changed, 0);
    assert_int_equal(r.total, 1169);
    cs_job_free(&job);
    cs_registry_free(reg);
    cs_config_free(cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reroster_every_search),
        cmocka_unit_test(test_reroster_problem),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
