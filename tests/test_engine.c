/* test_engine.c - the engine on a toy model of its own, so every mechanism is
 * checked apart from N-Queens: selection, copy vs undo, goal, prune, weights,
 * limits, interrupts, and a tree far deeper than any C stack would allow.
 *
 * The toy: binary strings of length L with no two adjacent 1s.  There are
 * F(L + 2) of them (Fibonacci, F(1) = F(2) = 1), and the search tree has
 * no dead ends, so nodes and fails can be derived by hand.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "csearch/dfs.h"

struct toy_problem {
    int len;
    int max_ones;    /* prune: more ones than this is a dead end; 0 = off */
    bool need_one;   /* goal: at least one 1 */
    bool double_one; /* weight: a 1 at position 0 counts twice */
    bool zero_one;   /* weight: a 1 at position 0 counts nothing */
};

struct toy {
    const struct toy_problem *p;
    int set, ones;
    uint64_t checks;
    signed char bit[]; /* -1 = open */
};

static void toy_init(void *state, const void *problem)
{
    struct toy *s = state;
    s->p = problem;
    memset(s->bit, -1, (size_t)s->p->len);
}

static int toy_select(const void *state)
{
    const struct toy *s = state;
    return s->set < s->p->len ? s->set : CS_NONE;
}

/* 1 is allowed unless a neighbour holds a 1. */
static bool toy_one_ok(const struct toy *s, int var)
{
    return !(var > 0 && s->bit[var - 1] == 1) &&
           !(var + 1 < s->p->len && s->bit[var + 1] == 1);
}

static int toy_domain_size(void *state, int var)
{
    struct toy *s = state;
    if (s->bit[var] >= 0)
        return -1;
    s->checks++;
    return 1 + toy_one_ok(s, var);
}

static void toy_first(void *state, int var, uint64_t *cursor)
{
    (void)state;
    (void)var;
    *cursor = 0;
}

static bool toy_next(void *state, int var, uint64_t *cursor, int *value)
{
    struct toy *s = state;
    while (*cursor < 2) {
        int v = (int)(*cursor)++;
        s->checks++;
        if (v == 0 || toy_one_ok(s, var)) {
            *value = v;
            return true;
        }
    }
    return false;
}

static void toy_apply(void *state, int var, int value)
{
    struct toy *s = state;
    s->bit[var] = (signed char)value;
    s->set++;
    s->ones += value;
}

static void toy_undo(void *state, int var, int value)
{
    struct toy *s = state;
    s->bit[var] = -1;
    s->set--;
    s->ones -= value;
}

static bool toy_prune(void *state)
{
    struct toy *s = state;
    return s->p->max_ones && s->ones > s->p->max_ones;
}

static bool toy_goal(void *state)
{
    const struct toy *s = state;
    return !s->p->need_one || s->ones > 0;
}

static uint64_t toy_weight(const void *state, int var, int value)
{
    const struct toy *s = state;
    if (var == 0 && value == 1)
        return s->p->double_one ? 2 : s->p->zero_one ? 0 : 1;
    return 1;
}

static void toy_collect(void *state, struct cs_stats *into)
{
    struct toy *s = state;
    into->checks += s->checks;
    s->checks = 0;
}

static const struct cs_hooks toy_hooks = {
    .init = toy_init,
    .select = toy_select,
    .domain_size = toy_domain_size,
    .first = toy_first,
    .next = toy_next,
    .apply = toy_apply,
    .undo = toy_undo,
    .prune = toy_prune,
    .goal = toy_goal,
    .weight = toy_weight,
    .collect = toy_collect,
};

/* The same model copying its state instead of undoing. */
static const struct cs_hooks toy_copy_hooks = {
    .init = toy_init,
    .select = toy_select,
    .domain_size = toy_domain_size,
    .first = toy_first,
    .next = toy_next,
    .apply = toy_apply,
    .prune = toy_prune,
    .goal = toy_goal,
    .weight = toy_weight,
    .collect = toy_collect,
};

/* And with a copy hook of its own, which leaves the counters alone. */
static void toy_copy(void *dst, const void *src)
{
    struct toy *d = dst;
    const struct toy *s = src;
    d->p = s->p;
    d->set = s->set;
    d->ones = s->ones;
    memcpy(d->bit, s->bit, (size_t)s->p->len);
}

static const struct cs_hooks toy_copy_hook_hooks = {
    .init = toy_init,
    .copy = toy_copy,
    .select = toy_select,
    .domain_size = toy_domain_size,
    .first = toy_first,
    .next = toy_next,
    .apply = toy_apply,
    .prune = toy_prune,
    .goal = toy_goal,
    .weight = toy_weight,
    .collect = toy_collect,
};

static uint64_t fib(int k)
{
    uint64_t a = 0, b = 1;
    while (k-- > 0) {
        uint64_t t = a + b;
        a = b;
        b = t;
    }
    return a;
}

static struct cs_run toy_run(const struct cs_hooks *hooks,
                             const struct toy_problem *tp, enum cs_select sel,
                             enum cs_task task)
{
    static struct cs_problem problem;
    problem = (struct cs_problem){
        .hooks = hooks,
        .data = (void *)tp,
        .nvars = tp->len,
        .state_size = sizeof(struct toy) + (size_t)tp->len,
    };
    struct cs_run run = {.problem = &problem, .task = task, .select = sel};
    return run;
}

static struct cs_run search(const struct cs_hooks *hooks,
                            const struct toy_problem *tp, enum cs_select sel)
{
    struct cs_run run = toy_run(hooks, tp, sel, CS_TASK_COUNT);
    struct cs_error err;
    assert_int_equal(cs_search(&run, &err), 0);
    return run;
}

static void test_engine_counts_fibonacci(void **ctx)
{
    (void)ctx;
    for (int len = 1; len <= 25; len++) {
        struct toy_problem tp = {.len = len};
        struct cs_run run = search(&toy_hooks, &tp, CS_SELECT_IN_ORDER);
        assert_int_equal(run.status, CS_COMPLETE);
        assert_int_equal(run.stats.solutions, fib(len + 2));
        /* no dead ends: every node is a solution or has children, and the
         * nodes are the valid prefixes: sum of F(k + 2) for k = 0..len */
        uint64_t nodes = 0;
        for (int k = 0; k <= len; k++)
            nodes += fib(k + 2);
        assert_int_equal(run.stats.nodes, nodes);
        assert_int_equal(run.stats.fails, 0);
        assert_int_equal(run.stats.max_depth, len);
    }
}

static void test_engine_copy_equals_undo(void **ctx)
{
    (void)ctx;
    struct toy_problem tp = {.len = 18, .max_ones = 5, .need_one = true};
    struct cs_run a = search(&toy_hooks, &tp, CS_SELECT_IN_ORDER);
    struct cs_run b = search(&toy_copy_hooks, &tp, CS_SELECT_IN_ORDER);
    assert_int_equal(a.stats.solutions, b.stats.solutions);
    assert_int_equal(a.stats.nodes, b.stats.nodes);
    assert_int_equal(a.stats.fails, b.stats.fails);
    /* the checks counted inside the state survive the copies */
    assert_int_equal(a.stats.checks, b.stats.checks);
    struct cs_run c = search(&toy_copy_hook_hooks, &tp, CS_SELECT_IN_ORDER);
    assert_int_equal(a.stats.nodes, c.stats.nodes);
    assert_int_equal(a.stats.solutions, c.stats.solutions);
    assert_int_equal(a.stats.checks, c.stats.checks);
}

static void test_engine_mrv_same_count(void **ctx)
{
    (void)ctx;
    struct toy_problem tp = {.len = 16};
    struct cs_run a = search(&toy_hooks, &tp, CS_SELECT_IN_ORDER);
    struct cs_run b = search(&toy_hooks, &tp, CS_SELECT_MRV);
    assert_int_equal(b.stats.solutions, fib(18));
    assert_int_equal(a.stats.solutions, b.stats.solutions);
    /* MRV asks every open variable for its domain size at every node */
    assert_true(b.stats.checks > a.stats.checks);
}

static void test_engine_goal_rejects_count_as_fails(void **ctx)
{
    (void)ctx;
    struct toy_problem tp = {.len = 10, .need_one = true};
    struct cs_run run = search(&toy_hooks, &tp, CS_SELECT_IN_ORDER);
    assert_int_equal(run.stats.solutions, fib(12) - 1); /* all zeros */
    assert_int_equal(run.stats.fails, 1);
}

static void test_engine_prune_cuts(void **ctx)
{
    (void)ctx;
    /* strings of length 6 without adjacent ones and at most one 1: 1 + 6 */
    struct toy_problem tp = {.len = 6, .max_ones = 1};
    struct cs_run run = search(&toy_hooks, &tp, CS_SELECT_IN_ORDER);
    assert_int_equal(run.stats.solutions, 7);
    /* each pruned node is a second 1 placed: pairs i < j with j > i + 1
     * that are the first two ones of a prefix: C(6,2) - 5 = 10 */
    assert_int_equal(run.stats.fails, 10);
}

static void test_engine_weights_multiply(void **ctx)
{
    (void)ctx;
    /* strings starting with 1 count twice: F(L+2) + F(L) for L >= 2 */
    struct toy_problem tp = {.len = 10, .double_one = true};
    struct cs_run run = search(&toy_hooks, &tp, CS_SELECT_IN_ORDER);
    assert_int_equal(run.stats.solutions, fib(12) + fib(10));
}

static void test_engine_threads_keep_weights(void **ctx)
{
    (void)ctx;
    /* a zero weight is a weight: strings starting with 1 count nothing,
     * split into units or not */
    struct toy_problem tp = {.len = 14, .zero_one = true};
    for (int threads = 1; threads <= 3; threads++) {
        struct cs_run run = toy_run(&toy_hooks, &tp, CS_SELECT_IN_ORDER,
                                    CS_TASK_COUNT);
        run.threads = threads;
        struct cs_error err;
        assert_int_equal(cs_search(&run, &err), 0);
        assert_int_equal(run.stats.solutions, fib(16) - fib(14));
        assert_int_equal(run.units_total > 0, threads > 1);
    }
}

static void test_engine_deep_tree_no_recursion(void **ctx)
{
    (void)ctx;
    struct toy_problem tp = {.len = 200000};
    struct cs_run run = toy_run(&toy_hooks, &tp, CS_SELECT_IN_ORDER,
                                CS_TASK_SOLVE);
    struct cs_error err;
    assert_int_equal(cs_search(&run, &err), 0);
    assert_int_equal(run.status, CS_COMPLETE);
    assert_int_equal(run.stats.solutions, 1);
    assert_int_equal(run.stats.max_depth, 200000);
    assert_int_equal(run.stats.nodes, 200001);
}

static void test_engine_interrupt_and_time_limit(void **ctx)
{
    (void)ctx;
    struct toy_problem tp = {.len = 40};
    volatile sig_atomic_t stop = 1;
    struct cs_run run = toy_run(&toy_hooks, &tp, CS_SELECT_IN_ORDER,
                                CS_TASK_COUNT);
    run.stop = &stop;
    struct cs_error err;
    assert_int_equal(cs_search(&run, &err), 0);
    assert_int_equal(run.status, CS_INTERRUPTED);
    assert_int_equal(run.stats.nodes, CS_POLL_NODES);

    run = toy_run(&toy_hooks, &tp, CS_SELECT_IN_ORDER, CS_TASK_COUNT);
    run.limits.seconds = 1e-9;
    assert_int_equal(cs_search(&run, &err), 0);
    assert_int_equal(run.status, CS_LIMIT);
    assert_int_equal(run.stats.nodes, CS_POLL_NODES);
}

static void test_engine_refuses_mrv_without_domain_sizes(void **ctx)
{
    (void)ctx;
    static const struct cs_hooks no_sizes = {
        .init = toy_init, .select = toy_select, .first = toy_first,
        .next = toy_next, .apply = toy_apply, .undo = toy_undo};
    struct toy_problem tp = {.len = 4};
    struct cs_run run = toy_run(&no_sizes, &tp, CS_SELECT_MRV, CS_TASK_COUNT);
    struct cs_error err;
    assert_int_equal(cs_search(&run, &err), -1);
    assert_string_equal(err.msg, "this model cannot select mrv: it reports "
                                 "no domain sizes");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_counts_fibonacci),
        cmocka_unit_test(test_engine_copy_equals_undo),
        cmocka_unit_test(test_engine_mrv_same_count),
        cmocka_unit_test(test_engine_goal_rejects_count_as_fails),
        cmocka_unit_test(test_engine_prune_cuts),
        cmocka_unit_test(test_engine_weights_multiply),
        cmocka_unit_test(test_engine_threads_keep_weights),
        cmocka_unit_test(test_engine_deep_tree_no_recursion),
        cmocka_unit_test(test_engine_interrupt_and_time_limit),
        cmocka_unit_test(test_engine_refuses_mrv_without_domain_sizes),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
