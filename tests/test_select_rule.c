/* test_select_rule.c - a selection rule added the way architecture.md says
 * (a row in CS_SELECTIONS, a case in cs_choose) reaches every place that
 * picks a variable.  This program is built with CSEARCH_TEST_RULE, which
 * adds the row "test-largest" (the open variable with the most values), and
 * compiles the library's sources itself.  On a tree whose shape depends on
 * the order and is the same along every path, Knuth's estimate is exact:
 * estimate must report the very node count the search counts, rule by rule.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "csearch/dfs.h"
#include "csearch/engine.h"

/* Three variables of 2, 3 and 4 values, no constraint: in order (and by
 * MRV) 1 + 2 + 6 + 24 = 33 nodes; largest first 1 + 4 + 12 + 24 = 41. */
#define STEPS 3
static const int sizes[STEPS] = {2, 3, 4};

struct steps {
    int value[STEPS]; /* -1: open */
};

static void steps_init(void *state, const void *problem)
{
    (void)problem;
    struct steps *s = state;
    for (int v = 0; v < STEPS; v++)
        s->value[v] = -1;
}
static int steps_select(const void *state)
{
    const struct steps *s = state;
    for (int v = 0; v < STEPS; v++)
        if (s->value[v] < 0)
            return v;
    return CS_NONE;
}
static int steps_size(void *state, int var)
{
    const struct steps *s = state;
    return s->value[var] < 0 ? sizes[var] : -1;
}
static bool steps_next(void *state, int var, uint64_t *cursor, int *value)
{
    (void)state;
    if (*cursor >= (uint64_t)sizes[var])
        return false;
    *value = (int)(*cursor)++;
    return true;
}
static void steps_apply(void *state, int var, int value)
{
    ((struct steps *)state)->value[var] = value;
}
static void steps_undo(void *state, int var, int value)
{
    (void)value;
    ((struct steps *)state)->value[var] = -1;
}
static const struct cs_hooks steps_hooks = {.state_size = sizeof(struct steps),
                                            .init = steps_init,
                                            .select = steps_select,
                                            .domain_size = steps_size,
                                            .next = steps_next,
                                            .apply = steps_apply,
                                            .undo = steps_undo};

static struct cs_result run(enum cs_task task, enum cs_select select)
{
    static const struct cs_problem p = {.hooks = &steps_hooks, .nvars = STEPS};
    struct cs_spec spec = {
        .problem = &p, .task = task, .select = select, .probes = 50};
    struct cs_result r;
    struct cs_error err;
    if (cs_search(&spec, NULL, &r, &err))
        fail_msg("%s: %s", cs_select_names[select], err.msg);
    return r;
}

static void test_select_rule_estimate_follows_every_rule(void **ctx)
{
    (void)ctx;
    static const uint64_t expect[CS_SELECT_COUNT] = {[CS_SELECT_IN_ORDER] = 33,
                                                     [CS_SELECT_MRV] = 33,
                                                     [CS_SELECT_TEST_LARGEST] =
                                                         41};
    for (int sel = 0; sel < CS_SELECT_COUNT; sel++) {
        struct cs_result count = run(CS_TASK_COUNT, (enum cs_select)sel);
        struct cs_result est = run(CS_TASK_ESTIMATE, (enum cs_select)sel);
        assert_int_equal(count.stats.nodes, expect[sel]);
        assert_int_equal(count.stats.solutions, 24);
        assert_true(est.estimate.nodes == (double)expect[sel]);
        assert_true(est.estimate.solutions == 24.0);
    }
}

/* The row is a real choice: its name is one of strategy.select's. */
static void test_select_rule_name_is_listed(void **ctx)
{
    (void)ctx;
    assert_string_equal(cs_select_names[CS_SELECT_TEST_LARGEST],
                        "test-largest");
    assert_null(cs_select_names[CS_SELECT_COUNT]);
    assert_true(cs_select_possible(CS_SELECT_TEST_LARGEST, &steps_hooks));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_select_rule_estimate_follows_every_rule),
        cmocka_unit_test(test_select_rule_name_is_listed),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
