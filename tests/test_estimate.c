/* test_estimate.c - task estimate and the sizes behind the progress line.
 * No test here asks whether an estimate is near the truth in general (that
 * would be a statistical test); each checks arithmetic a probe must get
 * exactly: trees where every probe gives the same figures, a tree of two
 * paths whose estimates are known, the figures a fixed seed gives, and the
 * work shares a split count reports on a tree of equal units.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "nqueens/d4.h"
#include "support.h"
#include "toy.h"

/* ---- a complete tree: nvars variables of `width` values each ----------- */

struct full {
    int set;
    int width;
    int nvars;
};

static void full_init(void *state, const void *problem)
{
    const int *shape = problem;
    struct full *f = state;
    f->width = shape[0];
    f->nvars = shape[1];
}
static int full_select(const void *state)
{
    const struct full *f = state;
    return f->set < f->nvars ? f->set : CS_NONE;
}
static bool full_next(void *state, int var, uint64_t *cursor, int *value)
{
    const struct full *f = state;
    (void)var;
    if (*cursor >= (uint64_t)f->width)
        return false;
    *value = (int)(*cursor)++;
    return true;
}
static void full_apply(void *state, int var, int value)
{
    (void)var;
    (void)value;
    ((struct full *)state)->set++;
}
static void full_undo(void *state, int var, int value)
{
    (void)var;
    (void)value;
    ((struct full *)state)->set--;
}
static const struct cs_hooks full_hooks = {.state_size = sizeof(struct full),
                                           .init = full_init,
                                           .select = full_select,
                                           .next = full_next,
                                           .apply = full_apply,
                                           .undo = full_undo};

static struct cs_result estimate(const struct cs_problem *p, uint64_t seed,
                                 uint64_t probes, double seconds,
                                 volatile sig_atomic_t *stop)
{
    struct cs_spec spec = {.problem = p,
                           .task = CS_TASK_ESTIMATE,
                           .seed = seed,
                           .probes = probes,
                           .stop = stop};
    spec.limits.seconds = seconds;
    struct cs_result r;
    struct cs_error err;
    if (cs_search(&spec, NULL, &r, &err))
        fail_msg("estimate: %s", err.msg);
    return r;
}

/* Every probe of a complete tree sees the same branching: each estimate is
 * the true size, whatever the seed, with no error. */
static void test_estimate_complete_tree_is_exact(void **ctx)
{
    (void)ctx;
    static const int shape[2] = {3, 4}; /* 3 values, 4 levels */
    struct cs_problem p = {
        .hooks = &full_hooks, .data = (void *)shape, .nvars = 4};
    for (uint64_t seed = 0; seed < 5; seed++) {
        struct cs_result r = estimate(&p, seed, 100, 0, NULL);
        assert_int_equal(r.status, CS_COMPLETE);
        assert_int_equal(r.estimate.probes, 100);
        assert_true(r.estimate.nodes == 1 + 3 + 9 + 27 + 81);
        assert_true(r.estimate.solutions == 81);
        assert_true(r.estimate.nodes_error == 0);
        assert_true(r.estimate.solutions_error == 0);
        assert_int_equal(r.stats.nodes, 100 * 5); /* 5 nodes a probe */
        assert_int_equal(r.stats.solutions, 100);
        assert_int_equal(r.stats.fails, 0);
    }
}

/* Binary strings of length 2 with no "11": 00, 01, 10, six nodes.  A probe
 * through 0 sees 2 then 2 values (1 + 2 + 4 = 7 nodes, 4 solutions), one
 * through 1 sees 2 then 1 (5 nodes, 2 solutions).  So one probe says 7 or
 * 5, and any mean of k probes says nodes - solutions = 3 exactly.  Seed
 * 0 takes 450 of 1000 probes through 0: 5 + 2 * 0.45 = 5.9 nodes, and a
 * standard error of 2 * sqrt(0.45 * 0.55 / 999) = 0.031480. */
static void test_estimate_two_paths_arithmetic(void **ctx)
{
    (void)ctx;
    struct toy_problem tp = {.len = 2};
    struct cs_problem p = {.hooks = &toy_hooks,
                           .data = &tp,
                           .nvars = 2,
                           .state_size = sizeof(struct toy) + 2};
    int sevens = 0;
    for (uint64_t seed = 0; seed < 20; seed++) {
        struct cs_result one = estimate(&p, seed, 1, 0, NULL);
        assert_true(one.estimate.nodes == 7 || one.estimate.nodes == 5);
        assert_true(one.estimate.solutions == one.estimate.nodes - 3);
        sevens += one.estimate.nodes == 7;
        struct cs_result many = estimate(&p, seed, 1000, 0, NULL);
        assert_true(fabs(many.estimate.nodes - many.estimate.solutions - 3) <
                    1e-9);
    }
    assert_int_equal(sevens, 10);
    /* seed 0, 1000 probes: the figures as printed (exact for this seed) */
    struct cs_result r = estimate(&p, 0, 1000, 0, NULL);
    char text[128];
    snprintf(text, sizeof text, "%.4f %.6f %.4f %.6f", r.estimate.nodes,
             r.estimate.nodes_error, r.estimate.solutions,
             r.estimate.solutions_error);
    assert_string_equal(text, "5.9000 0.031480 2.9000 0.031480");
}

/* Weights multiply in: the toy's 1 at position 0 counting twice makes the
 * probe through it say 2 * 2 = 4 solutions, like the one through 0. */
static void test_estimate_weights_multiply(void **ctx)
{
    (void)ctx;
    struct toy_problem tp = {.len = 2, .double_one = true};
    struct cs_problem p = {.hooks = &toy_hooks,
                           .data = &tp,
                           .nvars = 2,
                           .state_size = sizeof(struct toy) + 2};
    struct cs_result r = estimate(&p, 3, 500, 0, NULL);
    assert_true(r.estimate.solutions == 4); /* 2 + 2 counted twice */
    assert_true(r.estimate.solutions_error == 0);
}

/* The same seed, the same estimate; another seed, another. */
static void test_estimate_seeded(void **ctx)
{
    (void)ctx;
    struct toy_problem tp = {.len = 12};
    struct cs_problem p = {.hooks = &toy_hooks,
                           .data = &tp,
                           .nvars = 12,
                           .state_size = sizeof(struct toy) + 12};
    struct cs_result a = estimate(&p, 7, 300, 0, NULL);
    struct cs_result b = estimate(&p, 7, 300, 0, NULL);
    struct cs_result c = estimate(&p, 8, 300, 0, NULL);
    assert_true(a.estimate.nodes == b.estimate.nodes);
    assert_true(a.estimate.solutions == b.estimate.solutions);
    assert_true(a.estimate.nodes != c.estimate.nodes);
}

/* A time limit (or a stop) ends the probes at the next look at the clock,
 * every 16 probes: status limit (interrupted), 16 probes made. */
static void test_estimate_limit_and_stop(void **ctx)
{
    (void)ctx;
    struct toy_problem tp = {.len = 10};
    struct cs_problem p = {.hooks = &toy_hooks,
                           .data = &tp,
                           .nvars = 10,
                           .state_size = sizeof(struct toy) + 10};
    struct cs_result r = estimate(&p, 1, 1000000, 1e-9, NULL);
    assert_int_equal(r.status, CS_LIMIT);
    assert_int_equal(r.estimate.probes, 16);
    volatile sig_atomic_t stop = 1;
    r = estimate(&p, 1, 1000000, 0, &stop);
    assert_int_equal(r.status, CS_INTERRUPTED);
    assert_int_equal(r.estimate.probes, 16);
}

/* N-Queens n = 8 (92 solutions, 2057 nodes in the generic d4 tree), seed
 * 0: the figures the CLI prints (tests/cli_test.sh shows them too). */
static void test_estimate_nqueens_seed(void **ctx)
{
    (void)ctx;
    const char *const sets[] = {"model=nqueens", "params.n=8", "task=estimate",
                                "strategy.probes=2000", NULL};
    struct cs_config *cfg = config_of(sets);
    struct cs_result r;
    run_config(cfg, &r, NULL, NULL);
    cs_config_free(cfg);
    char text[128];
    snprintf(text, sizeof text, "%.0f %.0f %" PRIu64, r.estimate.nodes,
             r.estimate.solutions, r.estimate.probes);
    assert_string_equal(text, "2054 96 2000");
}

/* N-Queens' kernel sizes a unit by probing its interior, a pure function
 * of the unit: at n = 12 the 730 units' sizes add up to 165682.9 of the
 * 166019 nodes the kernel enters (this seed-free figure is exact). */
static void test_estimate_nqueens_unit_sizes(void **ctx)
{
    (void)ctx;
    struct nq_d4 *k = cs_xcalloc(1, sizeof *k);
    nq_d4_init(k, 12);
    assert_int_equal(k->count, 730);
    double sum = 0;
    for (uint64_t u = 0; u < k->count; u++)
        sum += nq_d4_unit_size(k, u);
    assert_true(nq_d4_unit_size(k, 5) == nq_d4_unit_size(k, 5));
    char text[64];
    snprintf(text, sizeof text, "%.1f", sum);
    assert_string_equal(text, "165682.9");
    nq_d4_free(k);
}

/* ---- the work shares of a split count ------------------------------------ */

struct shares {
    int reports;
    bool wrong;
    double last;
};

static void on_progress(void *ud, const struct cs_progress *p)
{
    struct shares *s = ud;
    s->reports++;
    if (p->work < 0)
        return; /* not sized yet */
    /* equal units: the share of the work is the share of the units */
    double want = (double)p->units_done / (double)p->units_total;
    if (fabs(p->work - want) > 1e-12 || p->work_resumed != 0)
        s->wrong = true;
    s->last = p->work;
}

/* A complete binary tree of 11 levels splits into 1024 units of equal
 * size, and every probe below a unit says its size exactly. */
static void test_estimate_unit_shares(void **ctx)
{
    (void)ctx;
    static const int shape[2] = {2, 11};
    struct cs_problem p = {
        .hooks = &full_hooks, .data = (void *)shape, .nvars = 11};
    struct shares s = {0};
    struct cs_spec spec = {.problem = &p, .task = CS_TASK_COUNT};
    struct cs_split split = {
        .threads = 2, .on_progress = on_progress, .progress_ud = &s};
    struct cs_result r;
    struct cs_error err;
    if (cs_search(&spec, &split, &r, &err))
        fail_msg("count: %s", err.msg);
    assert_int_equal(r.stats.solutions, 1 << 11);
    assert_int_equal(r.units.total, 1024);
    assert_true(s.reports >= 1); /* the last, at the end */
    assert_false(s.wrong);
    assert_true(s.last == 1.0);
}

/* After a resume the work already logged is reported apart, so that the
 * ETA counts this run's pace alone: half the units of a tree of equal
 * units logged by part 0 of 2, then the whole count resumed from its log. */
struct resumed {
    bool seen, wrong;
};

static void on_resumed(void *ud, const struct cs_progress *p)
{
    struct resumed *r = ud;
    if (p->work < 0)
        return;
    r->seen = true;
    if (p->work_resumed != 0.5 || p->units_resumed != 512 || p->work < 0.5)
        r->wrong = true;
}

static void test_estimate_resumed_share(void **ctx)
{
    (void)ctx;
    static const int shape[2] = {2, 11};
    struct cs_problem p = {
        .hooks = &full_hooks, .data = (void *)shape, .nvars = 11};
    char log[] = "/tmp/csearch-estimate-XXXXXX";
    int fd = mkstemp(log);
    assert_true(fd >= 0);
    close(fd);
    unlink(log);
    struct cs_spec spec = {.problem = &p, .task = CS_TASK_COUNT};
    struct cs_split half = {
        .threads = 1, .checkpoint = log, .slice_part = 0, .slice_parts = 2};
    struct cs_result r;
    struct cs_error err;
    if (cs_search(&spec, &half, &r, &err))
        fail_msg("part 0: %s", err.msg);
    struct resumed seen = {0};
    struct cs_split rest = {.threads = 2,
                            .checkpoint = log,
                            .resume = true,
                            .on_progress = on_resumed,
                            .progress_ud = &seen};
    if (cs_search(&spec, &rest, &r, &err))
        fail_msg("resume: %s", err.msg);
    unlink(log);
    assert_int_equal(r.units.resumed, 512);
    assert_int_equal(r.stats.solutions, 1 << 11);
    assert_true(seen.seen);
    assert_false(seen.wrong);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_estimate_complete_tree_is_exact),
        cmocka_unit_test(test_estimate_two_paths_arithmetic),
        cmocka_unit_test(test_estimate_weights_multiply),
        cmocka_unit_test(test_estimate_seeded),
        cmocka_unit_test(test_estimate_limit_and_stop),
        cmocka_unit_test(test_estimate_nqueens_seed),
        cmocka_unit_test(test_estimate_nqueens_unit_sizes),
        cmocka_unit_test(test_estimate_unit_shares),
        cmocka_unit_test(test_estimate_resumed_share),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
