/* test_nqueens_local.c - N-Queens under the min-conflicts layer: every
 * solution for n = 4..200 checked here by a test of its own, the seed,
 * the independent checker (check.c) refusing corrupted boards, the choice
 * that strategy.local auto makes, and the refusals.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nqueens/nqueens.h"
#include "support.h"

/* The columns of the solution handed out, read through the value hook. */
struct columns {
    int n, calls;
    uint32_t *pos;
};

static bool take(void *ud, const struct cs_hooks *h, const void *state,
                 uint64_t weight)
{
    struct columns *c = ud;
    assert_int_equal(weight, 1);
    assert_non_null(h->value);
    c->calls++;
    for (int r = 0; r < c->n; r++)
        c->pos[r] = (uint32_t)h->value(state, r);
    return true;
}

static void solve(int n, const char *seed, struct cs_result *r,
                  struct columns *c)
{
    char nset[32], sset[48];
    snprintf(nset, sizeof nset, "params.n=%d", n);
    snprintf(sset, sizeof sset, "strategy.seed=%s", seed);
    const char *const sets[] = {"model=nqueens",
                                "task=solve",
                                nset,
                                sset,
                                "strategy.local=min-conflicts",
                                NULL};
    struct cs_config *cfg = config_of(sets);
    c->n = n;
    c->calls = 0;
    run_config(cfg, r, take, c);
    cs_config_free(cfg);
}

static void test_nqueens_local_every_n_checked(void **ctx)
{
    (void)ctx;
    struct columns c = {.pos = calloc(200, sizeof(uint32_t))};
    int pos[200];
    for (int n = 4; n <= 200; n++) {
        struct cs_result r;
        solve(n, "1", &r, &c);
        assert_int_equal(r.status, CS_COMPLETE);
        assert_int_equal(r.stats.solutions, 1);
        assert_int_equal(c.calls, 1);
        assert_int_equal(r.conflicts, 0);
        for (int i = 0; i < n; i++)
            pos[i] = (int)c.pos[i];
        assert_true(nq_board_valid(pos, n)); /* the tests' own O(n^2) */
        assert_int_equal(nq_check_columns(c.pos, (uint32_t)n), -1);
    }
    free(c.pos);
}

static void test_nqueens_local_same_seed_same_run(void **ctx)
{
    (void)ctx;
    int n = 20000;
    struct columns a = {.pos = calloc((size_t)n, sizeof(uint32_t))};
    struct columns b = {.pos = calloc((size_t)n, sizeof(uint32_t))};
    struct cs_result ra, rb;
    solve(n, "42", &ra, &a);
    solve(n, "42", &rb, &b);
    assert_int_equal(ra.steps, rb.steps);
    assert_int_equal(ra.restarts, rb.restarts);
    assert_memory_equal(a.pos, b.pos, (size_t)n * sizeof(uint32_t));
    solve(n, "43", &rb, &b);
    assert_true(memcmp(a.pos, b.pos, (size_t)n * sizeof(uint32_t)));
    free(a.pos);
    free(b.pos);
}

static void test_nqueens_local_checker_rejects_corruption(void **ctx)
{
    (void)ctx;
    int n = 1000;
    struct columns c = {.pos = calloc((size_t)n, sizeof(uint32_t))};
    struct cs_result r;
    solve(n, "5", &r, &c);
    assert_int_equal(nq_check_columns(c.pos, (uint32_t)n), -1);
    /* two queens swapped (still a permutation) */
    uint32_t t = c.pos[10];
    c.pos[10] = c.pos[11];
    c.pos[11] = t;
    assert_true(nq_check_columns(c.pos, (uint32_t)n) >= 0);
    c.pos[11] = c.pos[10];
    c.pos[10] = t;
    assert_int_equal(nq_check_columns(c.pos, (uint32_t)n), -1);
    /* a column twice, a column off the board */
    uint32_t keep = c.pos[500];
    c.pos[500] = c.pos[0];
    assert_int_equal(nq_check_columns(c.pos, (uint32_t)n), 500);
    c.pos[500] = (uint32_t)n;
    assert_int_equal(nq_check_columns(c.pos, (uint32_t)n), 500);
    c.pos[500] = keep;
    /* the same diagonal: rows 0 and 1 one column apart */
    uint32_t board[4] = {0, 1, 3, 2};
    assert_int_equal(nq_check_columns(board, 4), 1);
    uint32_t good[4] = {1, 3, 0, 2};
    assert_int_equal(nq_check_columns(good, 4), -1);
    free(c.pos);
}

/* auto: backtracking below NQ_LOCAL_FROM and under mrv, local above. */
static void test_nqueens_local_auto_choice(void **ctx)
{
    (void)ctx;
    struct {
        const char *n, *select;
        bool local;
    } cases[] = {{"params.n=8", "strategy.select=in-order", false},
                 {"params.n=29", "strategy.select=in-order", false},
                 {"params.n=30", "strategy.select=in-order", true},
                 {"params.n=64", "strategy.select=mrv", false},
                 {"params.n=65", "strategy.select=mrv", true},
                 {"params.n=1000000", "strategy.select=in-order", true}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *const sets[] = {"model=nqueens", "task=solve", cases[i].n,
                                    cases[i].select, NULL};
        struct cs_config *cfg = config_of(sets);
        struct cs_job job;
        struct cs_registry *reg = setup_job(cfg, &job);
        assert_int_equal(job.layers.local, cases[i].local);
        cs_job_free(&job);
        cs_registry_free(reg);
        cs_config_free(cfg);
    }
}

static void test_nqueens_local_refusals(void **ctx)
{
    (void)ctx;
    struct {
        const char *sets[5];
        const char *msg;
    } cases[] = {
        {{"params.n=3", "task=solve", "strategy.local=min-conflicts"},
         "--set params.n=3: n = 3 has no solution: local search would never "
         "end (strategy.local: none proves it)"},
        {{"params.n=30", "strategy.local=min-conflicts"},
         "--set strategy.local=min-conflicts: local search finds one "
         "solution: it needs task solve"},
        {{"params.n=200", "task=solve", "strategy.local=none"},
         "--set params.n=200: n = 200 is beyond the limit of the bitmask "
         "state (at most 64); strategy.local: min-conflicts solves up to "
         "1000000000"},
        {{"params.n=100", "task=solve", "strategy.threads=2"},
         "--set strategy.threads=2: local search runs on one thread"},
        {{"params.n=200", "task=solve", "strategy.formulation=cell"},
         "--set params.n=200: formulation cell works up to n = 128"},
        {{"params.n=1000000001", "task=solve"},
         "--set params.n=1000000001: 'params.n' must be between 1 and "
         "1000000000, not 1000000001"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *list[7] = {"model=nqueens"};
        for (int k = 0; k < 5 && cases[i].sets[k]; k++)
            list[k + 1] = cases[i].sets[k];
        struct cs_config *cfg = config_of(list);
        assert_string_equal(setup_error(cfg), cases[i].msg);
        cs_config_free(cfg);
    }
}

/* Backtracking for teaching: MRV with restarts and a seeded shuffled
 * order finds a board for every n up to the array state's 128, each in a
 * few thousand nodes. */
static void test_nqueens_backtrack_restarts_every_n(void **ctx)
{
    (void)ctx;
    struct columns c = {.pos = calloc(128, sizeof(uint32_t))};
    int pos[128];
    for (int n = 4; n <= 128; n++) {
        char nset[32];
        snprintf(nset, sizeof nset, "params.n=%d", n);
        const char *const sets[] = {"model=nqueens",
                                    "task=solve",
                                    nset,
                                    "strategy.local=none",
                                    "strategy.select=mrv",
                                    "strategy.state=array",
                                    "strategy.restarts=luby",
                                    "strategy.shuffle=true",
                                    "limits.nodes=1000000",
                                    NULL};
        struct cs_config *cfg = config_of(sets);
        struct cs_result r;
        c.n = n;
        c.calls = 0;
        run_config(cfg, &r, take, &c);
        cs_config_free(cfg);
        assert_int_equal(r.status, CS_COMPLETE);
        assert_int_equal(c.calls, 1);
        for (int i = 0; i < n; i++)
            pos[i] = (int)c.pos[i];
        assert_true(nq_board_valid(pos, n));
    }
    free(c.pos);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_nqueens_local_every_n_checked),
        cmocka_unit_test(test_nqueens_local_same_seed_same_run),
        cmocka_unit_test(test_nqueens_local_checker_rejects_corruption),
        cmocka_unit_test(test_nqueens_local_auto_choice),
        cmocka_unit_test(test_nqueens_local_refusals),
        cmocka_unit_test(test_nqueens_backtrack_restarts_every_n),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
