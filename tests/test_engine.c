/* test_engine.c - the engine on a toy model of its own, so every mechanism is
 * checked apart from the real models: selection, copy vs undo, goal, prune,
 * weights, limits, interrupts, a tree far deeper than any C stack would
 * allow, and the layers: branch and bound, neighbourhood rounds, restarts,
 * portfolios and the infeasible status.
 *
 * The toy: binary strings of length L with no two adjacent 1s.  There are
 * F(L + 2) of them (Fibonacci, F(1) = F(2) = 1), and the search tree has
 * no dead ends, so nodes and fails can be derived by hand.  Optimising, its
 * cost is the number of 0s: at best floor(L / 2), by alternating.
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
    int min_ones;    /* goal: at least this many 1s */
    bool weak_bound; /* bound: half the 0s set so far */
};

struct toy {
    struct cs_counters counters; /* the engine's */
    const struct toy_problem *p;
    int set, ones;
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
    s->counters.checks++;
    return 1 + toy_one_ok(s, var);
}

static bool toy_next(void *state, int var, uint64_t *cursor, int *value)
{
    struct toy *s = state;
    while (*cursor < 2) {
        int v = (int)(*cursor)++;
        s->counters.checks++;
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
    return (!s->p->need_one || s->ones > 0) && s->ones >= s->p->min_ones;
}

static uint64_t toy_weight(const void *state, int var, int value)
{
    const struct toy *s = state;
    if (var == 0 && value == 1)
        return s->p->double_one ? 2 : s->p->zero_one ? 0 : 1;
    return 1;
}

/* ---- optimising: the 0s are the cost ---- */

static int64_t toy_cost(const void *state)
{
    const struct toy *s = state;
    return s->set - s->ones;
}

/* Weak: half the 0s set so far.  Else the 0s set so far plus floor(k / 2) for the k open
 * positions: k positions in a row hold at most ceil(k / 2) ones.  Positions
 * are set left to right, except by relax, which may leave open runs
 * anywhere; each open run of k still needs floor(k / 2) zeros. */
static int64_t toy_bound(const void *state)
{
    const struct toy *s = state;
    int64_t zeros = s->set - s->ones;
    if (s->p->weak_bound)
        return zeros / 2;
    for (int i = 0; i < s->p->len;) {
        int k = 0;
        while (i < s->p->len && s->bit[i] < 0)
            k++, i++;
        zeros += k / 2;
        i += k == 0;
    }
    return zeros;
}

/* A neighbourhood: the incumbent everywhere but a window whose place the
 * round picks and whose length is the share the layer asks for. */
static void toy_relax(void *state, const void *best,
                      const struct cs_round *round)
{
    struct toy *s = state;
    const struct toy *b = best;
    int len = s->p->len;
    int free_len = (int)(round->size * len);
    if (free_len < 2)
        free_len = 2;
    int start = (int)(round->index * 7 % (uint64_t)len);
    for (int i = 0; i < len; i++) {
        int from_start = (i - start + len) % len;
        if (from_start >= free_len)
            toy_apply(s, i, b->bit[i]);
    }
}

static void toy_emit(const void *state, uint64_t k, struct cs_board *out)
{
    const struct toy *s = state;
    char line[64];
    int n = s->p->len < 63 ? s->p->len : 63;
    (void)k;
    for (int i = 0; i < n; i++)
        line[i] = (char)('0' + s->bit[i]);
    line[n] = '\0';
    cs_board_add(out, line);
}

/* select when relax may have set any positions: the first open one */
static int toy_select_open(const void *state)
{
    const struct toy *s = state;
    for (int i = 0; i < s->p->len; i++)
        if (s->bit[i] < 0)
            return i;
    return CS_NONE;
}

/* Restarts resume half-way up the path, the budget always growing. */
static int toy_restart(void *state, int depth, bool *grow)
{
    (void)state;
    (void)grow;
    return depth / 2;
}

/* first is left out: the engine starts every cursor at 0 */
static const struct cs_hooks toy_hooks = {
    .init = toy_init,
    .select = toy_select,
    .domain_size = toy_domain_size,
    .next = toy_next,
    .apply = toy_apply,
    .undo = toy_undo,
    .prune = toy_prune,
    .goal = toy_goal,
    .weight = toy_weight,
    .counters = true,
    .cost = toy_cost,
    .bound = toy_bound,
};

/* With neighbourhoods and restarts. */
static const struct cs_hooks toy_layer_hooks = {
    .init = toy_init,
    .select = toy_select_open,
    .next = toy_next,
    .apply = toy_apply,
    .undo = toy_undo,
    .goal = toy_goal,
    .counters = true,
    .cost = toy_cost,
    .bound = toy_bound,
    .relax = toy_relax,
    .restart = toy_restart,
    .emit = toy_emit,
};

/* The same model copying its state instead of undoing. */
static const struct cs_hooks toy_copy_hooks = {
    .init = toy_init,
    .select = toy_select,
    .domain_size = toy_domain_size,
    .next = toy_next,
    .apply = toy_apply,
    .prune = toy_prune,
    .goal = toy_goal,
    .weight = toy_weight,
    .counters = true,
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
    .next = toy_next,
    .apply = toy_apply,
    .prune = toy_prune,
    .goal = toy_goal,
    .weight = toy_weight,
    .counters = true,
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

/* A toy search: its problem, spec and split, filled in by toy_run. */
struct toy_run {
    struct cs_problem problem;
    struct cs_spec spec;
    struct cs_split split;
};

static void toy_run(struct toy_run *r, const struct cs_hooks *hooks,
                    const struct toy_problem *tp, enum cs_select sel,
                    enum cs_task task)
{
    memset(r, 0, sizeof *r);
    r->problem = (struct cs_problem){
        .hooks = hooks,
        .data = (void *)tp,
        .nvars = tp->len,
        .state_size = sizeof(struct toy) + (size_t)tp->len,
        .max_values = 2,
    };
    r->spec = (struct cs_spec){.problem = &r->problem, .task = task,
                               .select = sel};
}

/* Run r, which must not fail. */
static struct cs_result run_toy(struct toy_run *r)
{
    struct cs_result out;
    struct cs_error err;
    if (cs_search(&r->spec, &r->split, &out, &err))
        fail_msg("search: %s", err.msg);
    return out;
}

static struct cs_result search(const struct cs_hooks *hooks,
                               const struct toy_problem *tp,
                               enum cs_select sel)
{
    struct toy_run r;
    toy_run(&r, hooks, tp, sel, CS_TASK_COUNT);
    return run_toy(&r);
}

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
    static const struct cs_hooks no_sizes = {
        .init = toy_init, .select = toy_select, .next = toy_next,
        .apply = toy_apply, .undo = toy_undo};
    struct toy_problem tp = {.len = 4};
    struct toy_run r;
    toy_run(&r, &no_sizes, &tp, CS_SELECT_MRV, CS_TASK_COUNT);
    struct cs_result run;
    struct cs_error err;
    assert_int_equal(cs_search(&r.spec, NULL, &run, &err), -1);
    assert_string_equal(err.msg, "this model cannot select mrv: it reports "
                                 "no domain sizes");
}

/* ---- branch and bound and the layers ------------------------------------ */

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

static void test_engine_branch_and_bound_optimal(void **ctx)
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
    struct toy_problem strong = {.len = 12}, weak = {.len = 12,
                                                     .weak_bound = true};
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

static void test_engine_infeasible(void **ctx)
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
static void test_engine_trace_rejects_by_cost(void **ctx)
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

static void test_engine_neighbourhood_rounds(void **ctx)
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
    r.spec.layers = (struct cs_layers){.restarts = kind, .restart_nodes = 64,
                                       .shuffle = shuffle};
    r.spec.seed = seed;
    r.spec.on_solution = keep_zeros;
    r.spec.ud = &last;
    struct cs_result run = run_toy(&r);
    if (run.status == CS_COMPLETE)
        assert_int_equal(last, 10);
    return run;
}

static void test_engine_restarts(void **ctx)
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

static void test_engine_portfolio(void **ctx)
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
        cmocka_unit_test(test_engine_branch_and_bound_optimal),
        cmocka_unit_test(test_engine_infeasible),
        cmocka_unit_test(test_engine_trace_rejects_by_cost),
        cmocka_unit_test(test_engine_neighbourhood_rounds),
        cmocka_unit_test(test_engine_restarts),
        cmocka_unit_test(test_engine_portfolio),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
