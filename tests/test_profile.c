/* test_profile.c - the per-level profile (cs_spec.profile): its rows sum to
 * the run's nodes, fails and solutions; N-Queens' rows are those of an
 * independent count of the partial placements by depth, with and without
 * mirror pruning; the same tree searched through other hooks (N-Queens'
 * states, Sudoku's fast kernel and general path) gives the same table; the
 * N-Queens counting kernels profile their own trees (the fast kernel's
 * rows against an independent walk of its borders' interiors, the halves
 * kernel's against its totals), on one thread or two, with the counts of a
 * run without a profile; what cannot be profiled is refused.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "nqueens/d4.h"
#include "support.h"

#define MAX_LEVELS 1024

/* A profiled run of the config made of sets. */
struct profiled {
    struct cs_result run;
    struct cs_level levels[MAX_LEVELS];
    int count;          /* nvars + 1 */
    const char *kernel; /* the counting path that ran */
};

/* Set up the job (told whether it is profiled) and search it, with a
 * profile when profiling; split_threads > 1 asks for threads.  Returns the
 * search's status: 0, or -1 with its message in *why (setup failures fail
 * the test). */
static int search_run(const char *const *sets, bool profiling,
                      int split_threads, struct profiled *out, char *why,
                      size_t why_size)
{
    struct cs_error err;
    struct cs_job job;
    struct cs_spec spec;
    struct cs_split split;
    const struct cs_job_request req = {.profiling = profiling};
    memset(out, 0, sizeof *out);
    struct cs_registry *reg = cs_registry_new();
    assert_int_equal(cs_register_builtin_models(reg, &err), 0);
    struct cs_config *cfg = config_of(sets);
    if (cs_job_setup(&job, cfg, reg, &req, &err))
        fail_msg("setup: %s", err.msg);
    assert_true(job.problem.nvars + 1 <= MAX_LEVELS);
    out->count = job.problem.nvars + 1;
    out->kernel = job.problem.kernel; /* a literal */
    cs_job_spec(&job, &spec, &split);
    spec.profile = profiling ? out->levels : NULL;
    split.threads = split_threads;
    int rc = cs_search(&spec, &split, &out->run, &err);
    if (rc && why)
        snprintf(why, why_size, "%s", err.msg);
    cs_job_free(&job);
    cs_config_free(cfg);
    cs_registry_free(reg);
    return rc;
}

static int profile_run(const char *const *sets, int split_threads,
                       struct profiled *out, char *why, size_t why_size)
{
    return search_run(sets, true, split_threads, out, why, why_size);
}

static void profile_threads(const char *const *sets, int threads,
                            struct profiled *out)
{
    char why[512];
    if (profile_run(sets, threads, out, why, sizeof why))
        fail_msg("search: %s", why);
}

static void profile_of(const char *const *sets, struct profiled *out)
{
    profile_threads(sets, 1, out);
}

/* The same job searched without a profile (told so at setup). */
static void plain_of(const char *const *sets, struct profiled *out)
{
    char why[512];
    if (search_run(sets, false, 1, out, why, sizeof why))
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

/* ---- the N-Queens counting kernels -------------------------------------- */

/* The fast kernel's tree by hand, as d4.h describes it: for each canonical
 * border, its queens (3 or 4) at the root, then the interior rows n-2..1
 * bottom-up, skipping the side queens' rows; a node per placement of the
 * rows before row rows[i] that attacks nothing, at depth = queens on the
 * board; a fail where row rows[i] has no free square; at the last interior
 * row, a solution (weighted by the border's orbit, 8 / |Stab|) where its
 * one square is free.  Attacks are tested square by square, not by masks. */
struct board {
    int r[32], c[32], count;
};

static bool square_free(const struct board *b, int r, int c)
{
    for (int i = 0; i < b->count; i++)
        if (b->r[i] == r || b->c[i] == c ||
            abs(b->r[i] - r) == abs(b->c[i] - c))
            return false;
    return true;
}

static void place(struct board *b, int r, int c)
{
    for (int i = 0; i < b->count; i++)
        if (b->r[i] == r && b->c[i] == c)
            return; /* a corner queen holds two border lines */
    b->r[b->count] = r;
    b->c[b->count] = c;
    b->count++;
}

static void interior_reference(struct board *b, const int *rows, int i, int m,
                               int n, uint64_t weight, struct cs_level *levels)
{
    struct cs_level *l = &levels[b->count];
    int free = 0;
    for (int c = 0; c < n; c++)
        free += square_free(b, rows[i], c);
    l->nodes++;
    if (i == m - 1) {
        if (free)
            l->solutions += weight;
        else
            l->fails++;
        return;
    }
    if (!free) {
        l->fails++;
        return;
    }
    for (int c = 0; c < n; c++)
        if (square_free(b, rows[i], c)) {
            b->r[b->count] = rows[i];
            b->c[b->count++] = c;
            interior_reference(b, rows, i + 1, m, n, weight, levels);
            b->count--;
        }
}

static void fast_reference(int n, struct cs_level *levels)
{
    struct nq_d4 k;
    nq_d4_init(&k, n);
    for (uint64_t u = 0; u < k.count; u++) {
        const struct nq_border *bd = &k.units[u];
        struct board b = {.count = 0};
        place(&b, 0, bd->top);
        place(&b, n - 1, bd->bottom);
        place(&b, bd->left, 0);
        place(&b, bd->right, n - 1);
        int rows[32], m = 0;
        for (int r = n - 2; r >= 1; r--)
            if (r != bd->left && r != bd->right)
                rows[m++] = r;
        assert_int_equal(b.count + m, n);
        interior_reference(&b, rows, 0, m, n, 8u / bd->stab, levels);
    }
    free(k.units);
}

/* An n-queens count with `set` on kernel `kernel`: profiled (got), without
 * a profile (plain) and profiled on two threads (two), each profile's rows
 * summing to its run's totals, and the same nodes with and without it. */
static void kernel_runs(int n, const char *set, const char *kernel,
                        struct profiled *got, struct profiled *plain,
                        struct profiled *two)
{
    char nset[32];
    snprintf(nset, sizeof nset, "params.n=%d", n);
    const char *sets[] = {"model=nqueens", nset, "task=count", set, NULL};
    profile_of(sets, got);
    plain_of(sets, plain);
    profile_threads(sets, 2, two);
    assert_string_equal(got->kernel, kernel);
    assert_string_equal(plain->kernel, kernel);
    assert_sums(got);
    assert_sums(two);
    assert_int_equal(got->run.stats.nodes, plain->run.stats.nodes);
}

/* The fast kernel under auto (symmetry d4) profiles its own tree: the
 * reference's rows, the totals of the run without a profile (unique too),
 * the same rows on two threads. */
static void check_fast(int n)
{
    struct profiled got, plain, two;
    kernel_runs(n, "strategy.symmetry=d4", "fast", &got, &plain, &two);
    assert_int_equal(got.run.stats.fails, plain.run.stats.fails);
    assert_int_equal(got.run.stats.solutions, plain.run.stats.solutions);
    assert_int_equal(got.run.stats.unique, plain.run.stats.unique);
    assert_int_equal(got.run.stats.solutions, nq_answers[n].total);
    assert_int_equal(got.run.stats.unique, nq_answers[n].unique);
    struct profiled want = {.count = n + 1};
    fast_reference(n, want.levels);
    assert_same_table(&got, &want);
    assert_same_table(&two, &want);
}

static void test_profile_nqueens_fast_kernel(void **ctx)
{
    (void)ctx;
    load_nq_answers();
    check_fast(8);
    check_fast(12);
    check_fast(13);
    /* n = 12 written out: 45 canonical borders of 3 or 4 queens, all the
     * solutions at depth 11 (the last queen completes them unentered) */
    static const struct cs_level n12[] = {
        {0, 0, 0},         {0, 0, 0},         {0, 0, 0},
        {45, 0, 0},        {932, 0, 0},       {4353, 4, 0},
        {13111, 275, 0},   {28043, 3167, 0},  {41115, 11184, 0},
        {40858, 18628, 0}, {27092, 17390, 0}, {10470, 8658, 14200},
        {0, 0, 0},
    };
    const char *sets[] = {"model=nqueens", "params.n=12", "task=count", NULL};
    struct profiled got;
    profile_of(sets, &got);
    for (int d = 0; d <= 12; d++) {
        assert_int_equal(got.levels[d].nodes, n12[d].nodes);
        assert_int_equal(got.levels[d].fails, n12[d].fails);
        assert_int_equal(got.levels[d].solutions, n12[d].solutions);
    }
    assert_int_equal(got.run.stats.nodes, 166019);
    assert_int_equal(got.run.stats.fails, 59306);
}

/* Symmetry none or mirror under auto: the count state's own search, which
 * the profile runs as the generic instance over the same tree: the rows of
 * the reference by hand, and the totals of the run without a profile. */
static void test_profile_nqueens_count_state(void **ctx)
{
    (void)ctx;
    load_nq_answers();
    static const char *const symmetries[] = {"none", "mirror"};
    for (int i = 0; i < 2; i++) {
        char symset[64];
        snprintf(symset, sizeof symset, "strategy.symmetry=%s", symmetries[i]);
        const char *sets[] = {"model=nqueens", "params.n=8", "task=count",
                              symset, NULL};
        struct profiled got, plain;
        profile_of(sets, &got);
        plain_of(sets, &plain);
        assert_sums(&got);
        assert_int_equal(got.run.stats.nodes, plain.run.stats.nodes);
        assert_int_equal(got.run.stats.fails, plain.run.stats.fails);
        assert_int_equal(got.run.stats.solutions, plain.run.stats.solutions);
        struct profiled want = {.count = 9};
        int cols[32];
        reference(8, i == 1, 0, cols, 1, want.levels);
        assert_same_table(&got, &want);
    }
}

/* The halves kernel: its half placements at depth n / 2 (as many as the
 * run's nodes without a profile), its solutions at depth n (the known
 * total), nothing else; on two threads the same.  An odd board (13, a
 * middle queen per split) and the default kernel of n = 16. */
static void check_halves(int n, const char *kernel_set)
{
    struct profiled got, plain, two;
    kernel_runs(n, kernel_set, "halves", &got, &plain, &two);
    assert_int_equal(got.run.stats.solutions, nq_answers[n].total);
    assert_int_equal(got.run.stats.fails, 0);
    struct profiled want = {.count = n + 1};
    want.levels[n / 2].nodes = plain.run.stats.nodes;
    want.levels[n].solutions = nq_answers[n].total;
    assert_same_table(&got, &want);
    assert_same_table(&two, &want);
}

static void test_profile_nqueens_halves_kernel(void **ctx)
{
    (void)ctx;
    load_nq_answers();
    check_halves(12, "strategy.kernel=halves");
    check_halves(13, "strategy.kernel=halves");
    check_halves(16, "strategy.kernel=auto");
    /* n = 16 written out (the half placements: a constant of the kernel's
     * splits and buffers, which a change to either moves) */
    const char *sets[] = {"model=nqueens", "params.n=16", "task=count", NULL};
    struct profiled got;
    profile_of(sets, &got);
    assert_int_equal(got.levels[8].nodes, 7851480);
    assert_int_equal(got.levels[16].solutions, 14772512);
}

/* A count kernel without levels cannot be profiled, nor a kernel's profile
 * logged: the checkpoint keeps no levels. */
static void test_profile_nqueens_checkpoint_refused(void **ctx)
{
    (void)ctx;
    struct cs_error err;
    struct cs_job job;
    struct cs_spec spec;
    struct cs_split split;
    struct cs_result r;
    struct cs_level levels[16] = {{0}};
    const struct cs_job_request req = {.profiling = true};
    struct cs_registry *reg = cs_registry_new();
    assert_int_equal(cs_register_builtin_models(reg, &err), 0);
    struct cs_config *cfg = config_of((const char *const[]){
        "model=nqueens", "params.n=8", "task=count", NULL});
    assert_int_equal(cs_job_setup(&job, cfg, reg, &req, &err), 0);
    cs_job_spec(&job, &spec, &split);
    spec.profile = levels;
    split.checkpoint = "unused.log"; /* refused before it is opened */
    assert_int_equal(cs_search(&spec, &split, &r, &err), -1);
    assert_string_equal(err.msg,
                        "a per-level profile is summed in memory, not "
                        "logged: it cannot be split across checkpoints; "
                        "profile a run without --checkpoint");
    cs_job_free(&job);
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

/* One search only: threads (on the engine's tree), local search and
 * estimate are refused. */
static void test_profile_refused(void **ctx)
{
    (void)ctx;
    char why[512];
    struct profiled p;
    const char *count[] = {"model=nqueens", "params.n=8", "task=count",
                           "strategy.kernel=generic", NULL};
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
        cmocka_unit_test(test_profile_nqueens_fast_kernel),
        cmocka_unit_test(test_profile_nqueens_count_state),
        cmocka_unit_test(test_profile_nqueens_halves_kernel),
        cmocka_unit_test(test_profile_nqueens_checkpoint_refused),
        cmocka_unit_test(test_profile_sudoku_fast_and_general),
        cmocka_unit_test(test_profile_sums),
        cmocka_unit_test(test_profile_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
