/* test_nqueens_limits.c - the N-Queens model under limits and at its size
 * bounds: node and solution limits stop a count at the exact figure, solve
 * with MRV reaches large n, sizes past each state's bound and task optimize
 * are refused with their messages.  (Split from test_nqueens.c.)
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nqueens/nqueens.h"
#include "support.h"

static void test_nqueens_node_limit_stops(void **ctx)
{
    (void)ctx;
    const char *const sets[] = {"model=nqueens", "params.n=10",
                                "limits.nodes=1000", NULL};
    struct cs_config *cfg = config_of(sets);
    struct cs_result run;
    run_config(cfg, &run, NULL, NULL);
    assert_int_equal(run.status, CS_LIMIT);
    assert_int_equal(run.stats.nodes, 1000);
    cs_config_free(cfg);
}

static void test_nqueens_solution_limit_stops(void **ctx)
{
    (void)ctx;
    const char *const sets[] = {"model=nqueens", "params.n=8",
                                "strategy.symmetry=none", "limits.solutions=5",
                                NULL};
    struct cs_config *cfg = config_of(sets);
    struct cs_result run;
    run_config(cfg, &run, NULL, NULL);
    assert_int_equal(run.status, CS_LIMIT);
    assert_int_equal(run.stats.solutions, 5);
    cs_config_free(cfg);
}

static void test_nqueens_solve_large_n_with_mrv(void **ctx)
{
    (void)ctx;
    const char *const sets[] = {"model=nqueens",
                                "params.n=64",
                                "task=solve",
                                "strategy.select=mrv",
                                "strategy.prune=forward",
                                NULL};
    struct cs_config *cfg = config_of(sets);
    struct cs_result run;
    run_config(cfg, &run, NULL, NULL);
    assert_int_equal(run.status, CS_COMPLETE);
    assert_int_equal(run.stats.solutions, 1);
    cs_config_free(cfg);
}

static void test_nqueens_size_limits(void **ctx)
{
    (void)ctx;
    const char *const bitmask[] = {"model=nqueens", "params.n=65", NULL};
    const char *const absolute[] = {"model=nqueens", "params.n=65",
                                    "strategy.select=mrv", NULL};
    const char *const array[] = {"model=nqueens", "params.n=129",
                                 "strategy.state=array", NULL};
    const char *const zero[] = {"model=nqueens", "params.n=0", NULL};
    struct cs_config *cfg = config_of(bitmask);
    assert_string_equal(
        setup_error(cfg),
        "--set params.n=65: n = 65 is beyond the limit of the bitmask "
        "state (at most 64)");
    cs_config_free(cfg);
    cfg = config_of(absolute);
    assert_string_equal(setup_error(cfg),
                        "--set params.n=65: n = 65 is beyond the limit of the "
                        "bitmask state (at most 64)");
    cs_config_free(cfg);
    cfg = config_of(array);
    assert_string_equal(
        setup_error(cfg),
        "--set params.n=129: n = 129 is beyond the limit of the "
        "array state (at most 128)");
    cs_config_free(cfg);
    cfg = config_of(zero);
    assert_string_equal(setup_error(cfg),
                        "--set params.n=0: 'params.n' must be between 1 and "
                        "1000000000, not 0");
    cs_config_free(cfg);
}

static void test_nqueens_task_optimize_refused(void **ctx)
{
    (void)ctx;
    const char *const sets[] = {"model=nqueens", "task=optimize", NULL};
    struct cs_config *cfg = config_of(sets);
    assert_string_equal(
        setup_error(cfg),
        "--set task=optimize: model nqueens cannot do task 'optimize' (it "
        "can: count, solve, enumerate, estimate)");
    cs_config_free(cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nqueens_node_limit_stops),
        cmocka_unit_test(test_nqueens_solution_limit_stops),
        cmocka_unit_test(test_nqueens_solve_large_n_with_mrv),
        cmocka_unit_test(test_nqueens_size_limits),
        cmocka_unit_test(test_nqueens_task_optimize_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
