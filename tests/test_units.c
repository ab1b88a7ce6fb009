/* test_units.c - a count split into work units counts what the unsplit
 * search counts (nodes, checks, fails, solutions), for models whose prune
 * changes the state too; slices of the units, logged and merged, add up to
 * the whole. */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "csearch/dist.h"
#include "support.h"

/* Run sets (NULL-terminated) with an optional checkpoint and slice. */
static struct cs_result count(const char *const *sets, const char *log,
                              uint64_t part, uint64_t parts)
{
    struct cs_config *cfg = config_of(sets);
    struct cs_error err;
    struct cs_job job;
    struct cs_registry *reg = setup_job(cfg, &job);
    struct cs_result run;
    struct cs_spec spec;
    struct cs_split split;
    cs_job_spec(&job, &spec, &split);
    split.checkpoint = log;
    split.slice_part = part;
    split.slice_parts = parts;
    if (cs_search(&spec, &split, &run, &err))
        fail_msg("search: %s", err.msg);
    cs_job_free(&job);
    cs_registry_free(reg);
    cs_config_free(cfg);
    return run;
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
        const char *const one[] = {
            "model=sudoku", "task=count", "params.puzzle=................",
            prop,           sel,          NULL};
        const char *const two[] = {"model=sudoku",
                                   "task=count",
                                   "params.puzzle=................",
                                   prop,
                                   sel,
                                   "strategy.threads=2",
                                   NULL};
        struct cs_result a = count(one, NULL, 0, 0), b = count(two, NULL, 0, 0);
        assert_int_equal(a.units.total, 0); /* not split */
        assert_true(b.units.total > 0);
        assert_int_equal(b.stats.solutions, 288);
        assert_same_counts(&a.stats, &b.stats);
    }
    const char *const one[] = {"model=nqueens", "params.n=9",
                               "strategy.symmetry=mirror",
                               "strategy.prune=forward", NULL};
    const char *const two[] = {"model=nqueens",
                               "params.n=9",
                               "strategy.symmetry=mirror",
                               "strategy.prune=forward",
                               "strategy.threads=2",
                               NULL};
    struct cs_result a = count(one, NULL, 0, 0), b = count(two, NULL, 0, 0);
    assert_int_equal(b.stats.solutions, 352);
    assert_same_counts(&a.stats, &b.stats);
}

/* Three parts of 10-queens (generic split, mirror), each logged, merged:
 * the full count, the nodes above the split included once. */
static void test_units_parts_merge_to_the_whole(void **ctx)
{
    (void)ctx;
    const char *const sets[] = {"model=nqueens", "params.n=10",
                                "strategy.symmetry=mirror", NULL};
    struct cs_result full = count(sets, NULL, 0, 0);
    char logs[3][64];
    const char *paths[3];
    uint64_t first = 0, solutions = 0;
    for (int k = 0; k < 3; k++) {
        snprintf(logs[k], sizeof logs[k], "/tmp/csearch-units-%d-%d.log",
                 (int)getpid(), k);
        unlink(logs[k]);
        paths[k] = logs[k];
        struct cs_result part = count(sets, logs[k], (uint64_t)k, 3);
        assert_int_equal(part.status, CS_COMPLETE);
        assert_int_equal(part.units.first, first); /* parts abut */
        assert_int_equal(part.units.done, part.units.end - part.units.first);
        first = part.units.end;
        solutions += part.stats.solutions;
    }
    assert_int_equal(first, 1958); /* every unit in some part */
    assert_int_equal(solutions, 724);
    struct cs_merge m;
    struct cs_error err;
    assert_int_equal(cs_merge_logs(paths, 3, &m, &err), 0);
    assert_int_equal(m.units, 1958);
    assert_int_equal(m.present, 1958);
    assert_string_equal(m.missing, "");
    assert_same_counts(&m.total, &full.stats);
    for (int k = 0; k < 3; k++)
        unlink(logs[k]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_units_split_counts_as_unsplit),
        cmocka_unit_test(test_units_parts_merge_to_the_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
