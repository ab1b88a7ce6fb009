/* test_layers.c - branch and bound and the search layers (layers.h) on
 * the engine's toy model (toy.h): optimal costs against floor(L / 2), the
 * infeasible status, REJECTED leaves in a trace, neighbourhood rounds,
 * restarts of every kind and portfolios.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "toy.h"

/* A string without adjacent 1s, of the length and with at most the 0s
 * given: an independent check of what an optimum claims. */
static int zeros_of(const struct toy *s)
{
    int zeros = 0;
    for (int i = 0; i < s->p->len; i++) {
        assert_true(s->bit[i] == 0 || s->bit[i] == 1);
        if (i > 0)
            assert_false(s->bit[i] == 1 && s->bit[i - 1] == 1);
        zeros += s->bit[i] == 0;
    }
    return zeros;
}

/* on_solution: the cost of the last solution, checked from its bits. */
static bool keep_zeros(void *ud, const struct cs_hooks *h, const void *state,
                       uint64_t weight)
{
    (void)h;
    (void)weight;
    *(int *)ud = zeros_of(state);
    return true;
}

static void test_layers_branch_and_bound_optimal(void **ctx)
{
    (void)ctx;
    for (int len = 1; len <= 16; len++) {
        struct toy_problem tp = {.len = len};
        struct toy_run r;
        int last = -1;
        toy_run(&r, &toy_hooks, &tp, CS_SELECT_IN_ORDER, CS_TASK_OPTIMIZE);
        r.spec.on_solution = keep_zeros;
        r.spec.ud = &last;
        struct cs_result run = run_toy(&r);
        assert_int_equal(run.status, CS_OPTIMAL);
        assert_int_equal(run.cost, len / 2);
        assert_int_equal(run.bound, len / 2);
        assert_int_equal(last, len / 2);
    }
    /* the weak bound proves the same optimum over a larger tree */
    struct toy_problem strong = {.len = 12},
                       weak = {.len = 12, .weak_bound = true};
    struct toy_run r;
    toy_run(&r, &toy_hooks, &strong, CS_SELECT_IN_ORDER, CS_TASK_OPTIMIZE);
    struct cs_result a = run_toy(&r);
    toy_run(&r, &toy_hooks, &weak, CS_SELECT_IN_ORDER, CS_TASK_OPTIMIZE);
    struct cs_result b = run_toy(&r);
    assert_int_equal(a.cost, 6);
    assert_int_equal(b.cost, 6);
    assert_int_equal(b.status, CS_OPTIMAL);
    assert_int_equal(a.stats.nodes, 76);
    assert_int_equal(b.stats.nodes, 985);
}

static void test_layers_infeasible(void **ctx)
{
    (void)ctx;
    /* 10 positions hold at most 5 ones without two adjacent */
    struct toy_problem tp = {.len = 10, .min_ones = 6};
    enum cs_task tasks[] = {CS_TASK_SOLVE, CS_TASK_OPTIMIZE};
    for (int t = 0; t < 2; t++) {
        struct toy_run r;
        toy_run(&r, &toy_hooks, &tp, CS_SELECT_IN_ORDER, tasks[t]);
        struct cs_result run = run_toy(&r);
        assert_int_equal(run.status, CS_INFEASIBLE);
        assert_int_equal(run.stats.solutions, 0);
    }
}

struct kinds {
    uint64_t rejected, solutions;
};

static void count_kinds(void *ud, const struct cs_trace_event *ev,
                        const struct cs_hooks *h, const void *state)
{
    struct kinds *k = ud;
    (void)h;
    const struct toy *s = state;
    if (ev->kind == CS_TRACE_REJECTED) {
        k->rejected++;
        /* complete, and no better than a solution found before it */
        assert_int_equal(s->set, s->p->len);
        assert_true(k->solutions > 0);
    }
    k->solutions += ev->kind == CS_TRACE_SOLUTION;
}

/* A bound weaker than the cost lets complete states through that the cost
 * then refuses: the trace reports each of them as REJECTED. */
static void test_layers_trace_rejects_by_cost(void **ctx)
{
    (void)ctx;
    struct toy_problem tp = {.len = 6, .weak_bound = true};
    struct toy_run r;
    struct kinds k = {0};
    toy_run(&r, &toy_hooks, &tp, CS_SELECT_IN_ORDER, CS_TASK_OPTIMIZE);
    r.spec.on_trace = count_kinds;
    r.spec.trace_ud = &k;
    struct cs_result run = run_toy(&r);
    assert_int_equal(run.cost, 3);
    assert_int_equal(k.solutions, 4);
    assert_int_equal(k.rejected, 17);
}

static void test_layers_neighbourhood_rounds(void **ctx)
{
    (void)ctx;
    /* the first solution is all zeros (cost 40); rounds of 20 nodes each
     * improve it window by window up to the root bound, which proves it */
    struct toy_problem tp = {.len = 40};
    struct toy_run r;
    int last = -1;
    toy_run(&r, &toy_layer_hooks, &tp, CS_SELECT_IN_ORDER, CS_TASK_OPTIMIZE);
    r.spec.layers.lns_nodes = 20;
    r.spec.limits.nodes = 1000000;
    r.spec.on_solution = keep_zeros;
    r.spec.ud = &last;
    struct cs_result run = run_toy(&r);
    assert_int_equal(run.status, CS_OPTIMAL);
    assert_int_equal(run.cost, 20);
    assert_int_equal(last, 20);
    assert_int_equal(run.rounds, 19);
    assert_int_equal(run.stats.nodes, 267);

    /* rounds need a limit to stop at */
    r.spec.limits.nodes = 0;
    struct cs_error err;
    assert_int_equal(cs_search(&r.spec, NULL, &run, &err), -1);
    assert_string_equal(err.msg, "neighbourhood rounds run until a limit: "
                                 "set limits.seconds or limits.nodes");
}

/* solve with at least 10 ones in 20 positions (11 such strings, all far
 * from the zeros tried first) */
static struct cs_result restarted(enum cs_restarts kind, bool shuffle,
                                  uint64_t seed, int min_ones)
{
    static struct toy_problem tp;
    tp = (struct toy_problem){.len = 20, .min_ones = min_ones};
    struct toy_run r;
    int last = -1;
    toy_run(&r, &toy_layer_hooks, &tp, CS_SELECT_IN_ORDER, CS_TASK_SOLVE);
    r.spec.layers = (struct cs_layers){
        .restarts = kind, .restart_nodes = 64, .shuffle = shuffle};
    r.spec.seed = seed;
    r.spec.on_solution = keep_zeros;
    r.spec.ud = &last;
    struct cs_result run = run_toy(&r);
    if (run.status == CS_COMPLETE)
        assert_int_equal(last, 10);
    return run;
}

static void test_layers_restarts(void **ctx)
{
    (void)ctx;
    struct cs_result plain = restarted(CS_RESTARTS_NONE, false, 0, 10);
    assert_int_equal(plain.status, CS_COMPLETE);
    assert_int_equal(plain.restarts, 0);
    assert_int_equal(plain.stats.nodes, 28656);

    /* resuming half-way up under doubling budgets: the same first
     * solution, found over the restarts' extra nodes */
    struct cs_result geo = restarted(CS_RESTARTS_GEOMETRIC, false, 0, 10);
    assert_int_equal(geo.status, CS_COMPLETE);
    assert_int_equal(geo.restarts, 10);
    assert_int_equal(geo.stats.nodes, 53329);

    /* Luby budgets and shuffled orders: the same seed, the same search */
    struct cs_result a = restarted(CS_RESTARTS_LUBY, true, 7, 10);
    struct cs_result b = restarted(CS_RESTARTS_LUBY, true, 7, 10);
    assert_int_equal(a.status, CS_COMPLETE);
    assert_int_equal(a.stats.nodes, b.stats.nodes);
    assert_int_equal(a.restarts, b.restarts);

    /* no solution: the moves kept prove dead ends, and the search goes
     * back to the root until the whole tree is searched */
    struct cs_result none = restarted(CS_RESTARTS_CONSTANT, false, 0, 11);
    assert_int_equal(none.status, CS_INFEASIBLE);
    assert_int_equal(none.stats.solutions, 0);
}

static void test_layers_portfolio(void **ctx)
{
    (void)ctx;
    struct toy_problem tp = {.len = 14};
    struct toy_run r;
    int last = -1;
    toy_run(&r, &toy_hooks, &tp, CS_SELECT_IN_ORDER, CS_TASK_OPTIMIZE);
    r.split.threads = 2;
    r.spec.on_solution = keep_zeros;
    r.spec.ud = &last;
    struct cs_result run = run_toy(&r);
    assert_int_equal(run.status, CS_OPTIMAL);
    assert_int_equal(run.cost, 7);
    assert_int_equal(last, 7);
    assert_int_equal(run.portfolio, 2);

    struct toy_problem hard = {.len = 20, .min_ones = 10};
    toy_run(&r, &toy_layer_hooks, &hard, CS_SELECT_IN_ORDER, CS_TASK_SOLVE);
    r.split.threads = 2;
    r.spec.on_solution = keep_zeros;
    r.spec.ud = &last;
    run = run_toy(&r);
    assert_int_equal(run.status, CS_COMPLETE);
    assert_int_equal(run.stats.solutions, 1);
    assert_int_equal(last, 10);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_layers_branch_and_bound_optimal),
        cmocka_unit_test(test_layers_infeasible),
        cmocka_unit_test(test_layers_trace_rejects_by_cost),
        cmocka_unit_test(test_layers_neighbourhood_rounds),
        cmocka_unit_test(test_layers_restarts),
        cmocka_unit_test(test_layers_portfolio),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
