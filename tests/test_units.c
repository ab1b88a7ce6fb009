/* test_units.c - a count split into work units counts what the unsplit
 * search counts (nodes, checks, fails, solutions), for models whose prune
 * changes the state too. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

/* Run sets (NULL-terminated). */
static struct cs_run count(const char *const *sets)
{
    struct cs_config *cfg = config_of(sets);
    struct cs_registry *reg = cs_registry_new();
    struct cs_error err;
    assert_int_equal(cs_register_builtin_models(reg, &err), 0);
    struct cs_job job;
    if (cs_job_setup(&job, cfg, reg, &err))
        fail_msg("setup: %s", err.msg);
    struct cs_run run;
    cs_job_run(&job, &run);
    if (cs_search(&run, &err))
        fail_msg("search: %s", err.msg);
    cs_job_free(&job);
    cs_registry_free(reg);
    cs_config_free(cfg);
    return run;
}

static void assert_same_counts(const struct cs_stats *a,
                               const struct cs_stats *b)
{
    assert_int_equal(a->solutions, b->solutions);
    assert_int_equal(a->unique, b->unique);
    assert_int_equal(a->nodes, b->nodes);
    assert_int_equal(a->checks, b->checks);
    assert_int_equal(a->fails, b->fails);
    assert_int_equal(a->max_depth, b->max_depth);
}

/* Sudoku propagates in prune: each unit must replay the split's prunes to
 * start from the state the split reached, and not count their checks
 * twice.  288 fillings of the empty 4 x 4 grid. */
static void test_units_split_counts_as_unsplit(void **ctx)
{
    (void)ctx;
    static const char *const props[] = {"none", "singles", "full"};
    static const char *const selects[] = {"in-order", "mrv"};
    for (int i = 0; i < 6; i++) {
        char prop[64], sel[64];
        snprintf(prop, sizeof prop, "strategy.propagate=%s", props[i / 2]);
        snprintf(sel, sizeof sel, "strategy.select=%s", selects[i % 2]);
        const char *const one[] = {"model=sudoku", "task=count",
                                   "params.puzzle=................", prop,
                                   sel, NULL};
        const char *const two[] = {"model=sudoku", "task=count",
                                   "params.puzzle=................", prop,
                                   sel, "strategy.threads=2", NULL};
        struct cs_run a = count(one), b = count(two);
        assert_int_equal(a.units_total, 0); /* not split */
        assert_true(b.units_total > 0);
        assert_int_equal(b.stats.solutions, 288);
        assert_same_counts(&a.stats, &b.stats);
    }
    const char *const one[] = {"model=nqueens", "params.n=9",
                               "strategy.symmetry=mirror",
                               "strategy.prune=forward", NULL};
    const char *const two[] = {"model=nqueens", "params.n=9",
                               "strategy.symmetry=mirror",
                               "strategy.prune=forward", "strategy.threads=2",
                               NULL};
    struct cs_run a = count(one), b = count(two);
    assert_int_equal(b.stats.solutions, 352);
    assert_same_counts(&a.stats, &b.stats);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units_split_counts_as_unsplit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
