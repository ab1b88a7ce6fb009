/* test_engine.c - the engine on its toy model (toy.h), so every mechanism
 * is checked apart from the real models: selection, copy vs undo, goal,
 * prune, weights, limits, interrupts, and a tree far deeper than any C
 * stack would allow.  The layers have test_layers.c.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "toy.h"

static void test_engine_counts_fibonacci(void **ctx)
{
    (void)ctx;
    for (int len = 1; len <= 25; len++) {
        struct toy_problem tp = {.len = len};
        struct cs_result run = search(&toy_hooks, &tp, CS_SELECT_IN_ORDER);
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
    struct cs_result a = search(&toy_hooks, &tp, CS_SELECT_IN_ORDER);
    struct cs_result b = search(&toy_copy_hooks, &tp, CS_SELECT_IN_ORDER);
    assert_int_equal(a.stats.solutions, b.stats.solutions);
    assert_int_equal(a.stats.nodes, b.stats.nodes);
    assert_int_equal(a.stats.fails, b.stats.fails);
    /* the checks counted inside the state survive the copies */
    assert_int_equal(a.stats.checks, b.stats.checks);
    struct cs_result c = search(&toy_copy_hook_hooks, &tp, CS_SELECT_IN_ORDER);
    assert_int_equal(a.stats.nodes, c.stats.nodes);
    assert_int_equal(a.stats.solutions, c.stats.solutions);
    assert_int_equal(a.stats.checks, c.stats.checks);
}

static void test_engine_mrv_same_count(void **ctx)
{
    (void)ctx;
    struct toy_problem tp = {.len = 16};
    struct cs_result a = search(&toy_hooks, &tp, CS_SELECT_IN_ORDER);
    struct cs_result b = search(&toy_hooks, &tp, CS_SELECT_MRV);
    assert_int_equal(b.stats.solutions, fib(18));
    assert_int_equal(a.stats.solutions, b.stats.solutions);
    /* MRV asks every open variable for its domain size at every node */
    assert_true(b.stats.checks > a.stats.checks);
}

static void test_engine_goal_rejects_count_as_fails(void **ctx)
{
    (void)ctx;
    struct toy_problem tp = {.len = 10, .need_one = true};
    struct cs_result run = search(&toy_hooks, &tp, CS_SELECT_IN_ORDER);
    assert_int_equal(run.stats.solutions, fib(12) - 1); /* all zeros */
    assert_int_equal(run.stats.fails, 1);
}

static void test_engine_prune_cuts(void **ctx)
{
    (void)ctx;
    /* strings of length 6 without adjacent ones and at most one 1: 1 + 6 */
    struct toy_problem tp = {.len = 6, .max_ones = 1};
    struct cs_result run = search(&toy_hooks, &tp, CS_SELECT_IN_ORDER);
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
    struct cs_result run = search(&toy_hooks, &tp, CS_SELECT_IN_ORDER);
    assert_int_equal(run.stats.solutions, fib(12) + fib(10));
}

static void test_engine_threads_keep_weights(void **ctx)
{
    (void)ctx;
    /* a zero weight is a weight: strings starting with 1 count nothing,
     * split into units or not */
    struct toy_problem tp = {.len = 14, .zero_one = true};
    for (int threads = 1; threads <= 3; threads++) {
        struct toy_run r;
        toy_run(&r, &toy_hooks, &tp, CS_SELECT_IN_ORDER, CS_TASK_COUNT);
        r.split.threads = threads;
        struct cs_result run = run_toy(&r);
        assert_int_equal(run.stats.solutions, fib(16) - fib(14));
        assert_int_equal(run.units.total > 0, threads > 1);
    }
}

static void test_engine_deep_tree_no_recursion(void **ctx)
{
    (void)ctx;
    struct toy_problem tp = {.len = 200000};
    struct toy_run r;
    toy_run(&r, &toy_hooks, &tp, CS_SELECT_IN_ORDER, CS_TASK_SOLVE);
    struct cs_result run = run_toy(&r);
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
    struct toy_run r;
    toy_run(&r, &toy_hooks, &tp, CS_SELECT_IN_ORDER, CS_TASK_COUNT);
    r.spec.stop = &stop;
    struct cs_result run = run_toy(&r);
    assert_int_equal(run.status, CS_INTERRUPTED);
    assert_int_equal(run.stats.nodes, CS_POLL_NODES);

    toy_run(&r, &toy_hooks, &tp, CS_SELECT_IN_ORDER, CS_TASK_COUNT);
    r.spec.limits.seconds = 1e-9;
    run = run_toy(&r);
    assert_int_equal(run.status, CS_LIMIT);
    assert_int_equal(run.stats.nodes, CS_POLL_NODES);
}

static void test_engine_refuses_mrv_without_domain_sizes(void **ctx)
{
    (void)ctx;
    static const struct cs_hooks no_sizes = {.init = toy_init,
                                             .select = toy_select,
                                             .next = toy_next,
                                             .apply = toy_apply,
                                             .undo = toy_undo};
    struct toy_problem tp = {.len = 4};
    struct toy_run r;
    toy_run(&r, &no_sizes, &tp, CS_SELECT_MRV, CS_TASK_COUNT);
    struct cs_result run;
    struct cs_error err;
    assert_int_equal(cs_search(&r.spec, NULL, &run, &err), -1);
    assert_string_equal(err.msg, "this model cannot select mrv with these "
                                 "settings");
}

/* cs_fastest: every variant runs the same piece, grown from size 1 by
 * doubling (each size timed twice); the one with 20 times less work per step
 * wins, the one twice as slow as the best in the first round runs no other. */
struct spin {
    int calls[3], sizes[3][16];
    volatile uint64_t sink;
};

static void spin_piece(void *ctx, int variant, int size)
{
    static const int work[3] = {20, 1, 60};
    struct spin *s = ctx;
    if (s->calls[variant] < 16)
        s->sizes[variant][s->calls[variant]] = size;
    s->calls[variant]++;
    for (long i = 0; i < (long)size * work[variant] * 2000; i++)
        s->sink += (uint64_t)i;
}

static void test_engine_fastest_variant(void **ctx)
{
    (void)ctx;
    struct spin s;
    memset(&s, 0, sizeof s);
    double seconds[3];
    assert_int_equal(cs_fastest(3, spin_piece, &s, 64, seconds), 1);
    int size = s.sizes[1][0];
    assert_true(size >= 1 && size <= 64);
    assert_true(s.calls[0] >= 3 && s.calls[0] <= 15 && s.calls[0] % 2);
    for (int i = 0; i + 1 < s.calls[0]; i++) /* grown: 1, 1, 2, 2, 4, .. */
        assert_int_equal(s.sizes[0][i], 1 << i / 2);
    assert_int_equal(s.calls[1], 3);                    /* three rounds */
    assert_int_equal(s.sizes[0][s.calls[0] - 1], size); /* its round */
    assert_int_equal(s.calls[2], 1); /* dropped after the first round */
    assert_int_equal(s.sizes[2][0], size);
    assert_int_equal(s.sizes[1][2], size);
    assert_true(seconds[1] > 0 && seconds[1] < seconds[0]);
    assert_true(seconds[2] > 0);
    assert_int_equal(cs_fastest(0, spin_piece, &s, 64, NULL), -1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_engine_counts_fibonacci),
        cmocka_unit_test(test_engine_fastest_variant),
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
