/* test_profile.c - the per-level profile (cs_spec.profile): its rows sum to
 * the run's nodes, fails and solutions; N-Queens' rows are those of an
 * independent count of the partial placements by depth, with and without
 * mirror pruning; the same tree searched through other hooks (N-Queens'
 * states, Sudoku's fast kernel and general path) gives the same table; what
 * cannot be profiled is refused, and a kernel given up for it is named.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "support.h"

#define MAX_LEVELS 1024

/* A profiled run of the config made of sets. */
struct profiled {
    struct cs_result run;
    struct cs_level levels[MAX_LEVELS];
    int count; /* nvars + 1 */
    const char *unprofiled;
};

/* Set up the job (told it is profiled) and search it with a profile;
 * split_threads > 1 asks for threads.  Returns the search's status: 0, or
 * -1 with its message in *why (setup failures fail the test). */
static int profile_run(const char *const *sets, int split_threads,
                       struct profiled *out, char *why, size_t why_size)
{
    struct cs_error err;
    struct cs_job job;
    struct cs_spec spec;
    struct cs_split split;
    const struct cs_job_request req = {.profiling = true};
    memset(out, 0, sizeof *out);
    struct cs_registry *reg = cs_registry_new();
    assert_int_equal(cs_register_builtin_models(reg, &err), 0);
    struct cs_config *cfg = config_of(sets);
    if (cs_job_setup(&job, cfg, reg, &req, &err))
        fail_msg("setup: %s", err.msg);
    assert_true(job.problem.nvars + 1 <= MAX_LEVELS);
    out->count = job.problem.nvars + 1;
    out->unprofiled = job.problem.unprofiled;
    cs_job_spec(&job, &spec, &split);
    spec.profile = out->levels;
    split.threads = split_threads;
    int rc = cs_search(&spec, &split, &out->run, &err);
    if (rc && why)
        snprintf(why, why_size, "%s", err.msg);
    cs_job_free(&job);
    cs_config_free(cfg);
    cs_registry_free(reg);
    return rc;
}

static void profile_of(const char *const *sets, struct profiled *out)
{
    char why[512];
    if (profile_run(sets, 1, out, why, sizeof why))
        fail_msg("search: %s", why);
}

/* The rows add up to the run's totals, and no level past nvars is used. */
static void assert_sums(const struct profiled *p)
{
    struct cs_level sum = {0};
    for (int d = 0; d < p->count; d++) {
        sum.nodes += p->levels[d].nodes;
        sum.fails += p->levels[d].fails;
        sum.solutions += p->levels[d].solutions;
    }
    for (int d = p->count; d < MAX_LEVELS; d++)
        assert_int_equal(p->levels[d].nodes, 0);
    assert_int_equal(sum.nodes, p->run.stats.nodes);
    assert_int_equal(sum.fails, p->run.stats.fails);
    assert_int_equal(sum.solutions, p->run.stats.solutions);
    assert_true(p->run.stats.nodes > 0);
}

/* The same rows (two models may have different numbers of variables: the
 * levels below the deepest entered are zero in both). */
static void assert_same_table(const struct profiled *a,
                              const struct profiled *b)
{
    for (int d = 0; d < MAX_LEVELS; d++) {
        assert_int_equal(a->levels[d].nodes, b->levels[d].nodes);
        assert_int_equal(a->levels[d].fails, b->levels[d].fails);
        assert_int_equal(a->levels[d].solutions, b->levels[d].solutions);
    }
}

/* ---- an independent N-Queens profile ------------------------------------- */

/* Knuth's profile by hand: every placement of queens in rows 0..row-1 that
 * attack no other is a node at depth row; one whose next row has no free
 * column is a fail; a full one a solution.  Under mirror the first row
 * takes the left half and the middle column of an odd board, the left
 * half's solutions counting twice. */
static void reference(int n, bool mirror, int row, int *cols, uint64_t weight,
                      struct cs_level *levels)
{
    levels[row].nodes++;
    if (row == n) {
        levels[row].solutions += weight;
        return;
    }
    int children = 0;
    int end = mirror && row == 0 ? (n + 1) / 2 : n;
    for (int c = 0; c < end; c++) {
        bool free = true;
        for (int k = 0; k < row && free; k++)
            free = cols[k] != c && abs(cols[k] - c) != row - k;
        if (!free)
            continue;
        children++;
        cols[row] = c;
        bool middle = n % 2 && c == n / 2;
        reference(n, mirror, row + 1, cols,
                  mirror && row == 0 && !middle ? 2 * weight : weight, levels);
    }
    if (!children)
        levels[row].fails++;
}

static void check_queens(int n, const char *symmetry, const char *state)
{
    char nset[32], symset[64], stateset[64];
    snprintf(nset, sizeof nset, "params.n=%d", n);
    snprintf(symset, sizeof symset, "strategy.symmetry=%s", symmetry);
    snprintf(stateset, sizeof stateset, "strategy.state=%s", state);
    const char *sets[] = {
        "model=nqueens",           nset, "task=count", symset, stateset,
        "strategy.kernel=generic", NULL};
    struct profiled got;
    profile_of(sets, &got);
    assert_sums(&got);

    struct profiled want = {.count = n + 1};
    int cols[32];
    reference(n, !strcmp(symmetry, "mirror"), 0, cols, 1, want.levels);
    assert_same_table(&got, &want);
    /* the known count, as a check on the reference itself */
    assert_int_equal(want.levels[n].solutions, nq_answers[n].total);
}

static void test_profile_nqueens_levels(void **ctx)
{
    (void)ctx;
    load_nq_answers();
    check_queens(6, "none", "bitmask");
    check_queens(6, "mirror", "bitmask");
    check_queens(8, "none", "bitmask");
    check_queens(8, "mirror", "bitmask");
    check_queens(7, "mirror", "bitmask"); /* an odd middle column */
    /* the same trees through the array state's hooks */
    check_queens(8, "none", "array");
    check_queens(8, "mirror", "array");
}

/* Knuth's 8-queens profile (TAOCP 7.2.2, Table 1), written out. */
static void test_profile_nqueens_knuth(void **ctx)
{
    (void)ctx;
    static const uint64_t nodes[] = {1, 8, 42, 140, 344, 568, 550, 312, 92};
    const char *sets[] = {"model=nqueens", "params.n=8", "task=count",
                          "strategy.symmetry=none", NULL};
    struct profiled p;
    profile_of(sets, &p);
    assert_sums(&p);
    for (int d = 0; d <= 8; d++)
        assert_int_equal(p.levels[d].nodes, nodes[d]);
}

/* Counting kernels and the engine's tree: the N-Queens kernel given up
 * under auto is named, the same table as kernel generic's; a kernel named
 * by key is refused. */
static void test_profile_nqueens_kernels(void **ctx)
{
    (void)ctx;
    const char *autos[] = {"model=nqueens", "params.n=8", "task=count",
                           "strategy.symmetry=d4", NULL};
    const char *generic[] = {"model=nqueens",
                             "params.n=8",
                             "task=count",
                             "strategy.symmetry=d4",
                             "strategy.kernel=generic",
                             NULL};
    struct profiled a, g;
    profile_of(autos, &a);
    profile_of(generic, &g);
    assert_non_null(a.unprofiled);
    assert_string_equal(a.unprofiled, "fast");
    assert_null(g.unprofiled);
    assert_sums(&a);
    assert_same_table(&a, &g);
    assert_int_equal(a.run.stats.solutions, 92);
    assert_int_equal(a.run.stats.unique, 12);

    struct cs_config *cfg = config_of((const char *const[]){
        "model=nqueens", "params.n=8", "task=count", "strategy.symmetry=d4",
        "strategy.kernel=fast", NULL});
    struct cs_registry *reg = cs_registry_new();
    struct cs_error err;
    struct cs_job job;
    assert_int_equal(cs_register_builtin_models(reg, &err), 0);
    const struct cs_job_request req = {.profiling = true};
    assert_int_equal(cs_job_setup(&job, cfg, reg, &req, &err), -1);
    assert_string_equal(err.msg, "kernel fast needs a run without a per-level "
                                 "profile (output.profile)");
    cs_config_free(cfg);
    cs_registry_free(reg);
}

/* The Sudoku fast kernel (a hook table of its own, profiled through the
 * generic instance) and the general path, both under propagate full and
 * MRV, solve "Platinum Blonde" (configs/sudoku.yaml) by the same 13-node
 * tree: the same table.  (Not every tree: past the solution, a count's
 * trees part, as the kernel's triads propagate further.) */
static void test_profile_sudoku_fast_and_general(void **ctx)
{
    (void)ctx;
    const char *puzzle = "params.puzzle=.......12........3..23..4....18....5.6"
                         "..7.8.......9.....85.....9...4.5..47...6...";
    const char *fast[] = {"model=sudoku",
                          puzzle,
                          "task=solve",
                          "strategy.kernel=fast",
                          "strategy.select=mrv",
                          "strategy.propagate=full",
                          NULL};
    const char *general[] = {"model=sudoku",
                             puzzle,
                             "task=solve",
                             "strategy.kernel=generic",
                             "strategy.select=mrv",
                             "strategy.propagate=full",
                             NULL};
    struct profiled f, g;
    profile_of(fast, &f);
    profile_of(general, &g);
    assert_sums(&f);
    assert_sums(&g);
    assert_same_table(&f, &g);
    assert_int_equal(f.run.stats.nodes, 13);
    assert_int_equal(f.run.stats.solutions, 1);
}

/* Sums hold for other selections, prunes, tasks and layers: MRV, forward
 * checking, a solve that stops at its first solution, restarts that search
 * the tree again and again (every search counted), and Sudoku in order. */
static void test_profile_sums(void **ctx)
{
    (void)ctx;
    static const char *const runs[][8] = {
        {"model=nqueens", "params.n=9", "task=count", "strategy.select=mrv",
         NULL},
        {"model=nqueens", "params.n=9", "task=count", "strategy.state=array",
         "strategy.prune=forward", "strategy.symmetry=mirror", NULL},
        {"model=nqueens", "params.n=9", "task=count", "strategy.symmetry=d4",
         NULL},
        {"model=nqueens", "params.n=12", "task=solve", NULL},
        {"model=nqueens", "params.n=24", "task=solve",
         "strategy.restarts=geometric", "strategy.restart_nodes=50",
         "strategy.shuffle=true", "strategy.local=none", NULL},
        {"model=sudoku",
         "params.puzzle=53..7....6..195....98....6.8...6...34..8.3..17..."
         "2...6.6....28....419..5....8..79",
         "task=count", NULL},
    };
    for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
        struct profiled p;
        profile_of(runs[i], &p);
        assert_sums(&p);
    }
}

/* One search only: threads, local search and estimate are refused. */
static void test_profile_refused(void **ctx)
{
    (void)ctx;
    char why[512];
    struct profiled p;
    const char *count[] = {"model=nqueens", "params.n=8", "task=count", NULL};
    assert_int_equal(profile_run(count, 2, &p, why, sizeof why), -1);
    assert_non_null(strstr(why, "per-level profile counts one search"));
    const char *local[] = {"model=nqueens", "params.n=40", "task=solve",
                           "strategy.local=min-conflicts", NULL};
    assert_int_equal(profile_run(local, 1, &p, why, sizeof why), -1);
    assert_string_equal(why, "local search has no levels to profile: the "
                             "profile counts the nodes of a tree search");
    const char *estimate[] = {"model=nqueens", "params.n=8", "task=estimate",
                              NULL};
    assert_int_equal(profile_run(estimate, 1, &p, why, sizeof why), -1);
    assert_string_equal(why, "task estimate has no levels to profile: the "
                             "profile counts the nodes of a tree search");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_profile_nqueens_levels),
        cmocka_unit_test(test_profile_nqueens_knuth),
        cmocka_unit_test(test_profile_nqueens_kernels),
        cmocka_unit_test(test_profile_sudoku_fast_and_general),
        cmocka_unit_test(test_profile_sums),
        cmocka_unit_test(test_profile_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
