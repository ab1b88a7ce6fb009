/* test_formulations.c - N-Queens' other formulations (formulations.c): the
 * set state, the cell formulation with and without skipped-row pruning, and
 * brute force over permutations.
 *
 * Totals and unique counts against OEIS; boards valid and distinct; nodes,
 * checks and fails against recursions written here from the definitions in
 * docs/architecture.md 12.7 (not from the model's code), and the n = 10
 * figures of docs/compare.md as exact numbers; the set state against the
 * array state, which walks the same tree with the same tests; threads; and
 * every refused combination with its message.
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

/* A config from a formulation's settings plus n, task and more keys. */
static struct cs_config *formulation_config(const char *const *keys, int n,
                                            const char *task)
{
    char size[32], job[32];
    const char *list[16] = {"model=nqueens", size, job};
    size_t k = 3;
    snprintf(size, sizeof size, "params.n=%d", n);
    snprintf(job, sizeof job, "task=%s", task);
    for (; *keys && k < 15; keys++)
        list[k++] = *keys;
    list[k] = NULL;
    return config_of(list);
}

static void run_keys(const char *const *keys, int n, const char *task,
                     struct cs_result *run, cs_solution_fn fn, void *ud)
{
    struct cs_config *cfg = formulation_config(keys, n, task);
    run_config(cfg, run, fn, ud);
    cs_config_free(cfg);
}

/* The formulations with every symmetry each accepts. */
static const char *const cell[] = {"strategy.formulation=cell",
                                   "strategy.symmetry=none", NULL};
static const char *const cell_d4[] = {"strategy.formulation=cell",
                                      "strategy.symmetry=d4", NULL};
static const char *const cell_prune[] = {"strategy.formulation=cell",
                                         "strategy.prune_skipped_rows=true",
                                         "strategy.symmetry=none", NULL};
static const char *const cell_prune_d4[] = {"strategy.formulation=cell",
                                            "strategy.prune_skipped_rows=true",
                                            "strategy.symmetry=d4", NULL};
static const char *const brute[] = {"strategy.search=brute-force",
                                    "strategy.symmetry=none", NULL};
static const char *const brute_d4[] = {"strategy.search=brute-force",
                                       "strategy.symmetry=d4", NULL};
static const char *const set[] = {"strategy.state=set",
                                  "strategy.symmetry=none", NULL};

/* ---- totals ------------------------------------------------------------- */

static void check_totals(const char *const *keys, int max_n, bool d4)
{
    load_nq_answers();
    for (int n = 1; n <= max_n; n++) {
        struct cs_result run;
        run_keys(keys, n, "count", &run, NULL, NULL);
        assert_int_equal(run.status, CS_COMPLETE);
        if (run.stats.solutions != nq_answers[n].total)
            fail_msg("%s n=%d: %llu solutions, expected %llu", keys[0], n,
                     (unsigned long long)run.stats.solutions,
                     (unsigned long long)nq_answers[n].total);
        if (d4)
            assert_int_equal(run.stats.unique, nq_answers[n].unique);
    }
}

static void test_formulations_cell_totals(void **ctx)
{
    (void)ctx;
    check_totals(cell, 8, false);
    check_totals(cell_d4, 8, true);
    check_totals(cell_prune, 10, false);
    check_totals(cell_prune_d4, 10, true);
}

static void test_formulations_brute_force_totals(void **ctx)
{
    (void)ctx;
    check_totals(brute, 9, false);
    check_totals(brute_d4, 9, true);
}

/* The set state takes every strategy the array state takes. */
static void test_formulations_set_totals_every_strategy(void **ctx)
{
    (void)ctx;
    static const char *const selects[] = {"strategy.select=in-order",
                                          "strategy.select=mrv"};
    static const char *const symmetries[] = {"strategy.symmetry=none",
                                             "strategy.symmetry=mirror",
                                             "strategy.symmetry=d4"};
    static const char *const prunes[] = {"strategy.prune=none",
                                         "strategy.prune=forward"};
    for (int combo = 0; combo < 12; combo++) {
        const char *const keys[] = {"strategy.state=set", selects[combo & 1],
                                    symmetries[(combo >> 1) % 3],
                                    prunes[combo / 6], NULL};
        check_totals(keys, 10, (combo >> 1) % 3 == 2);
    }
}

/* ---- boards ------------------------------------------------------------- */

struct boards {
    char items[800][8 * 8 + 1]; /* n <= 8: at most 92 solutions */
    size_t count;
};

/* on_solution: every board a solution stands for, checked and kept. */
static bool keep_board(void *ud, const struct cs_hooks *hooks,
                       const void *state, uint64_t weight)
{
    struct boards *b = ud;
    struct cs_board board = {0};
    for (uint64_t k = 0; k < weight; k++) {
        cs_board_clear(&board);
        hooks->emit(state, k, &board);
        int pos[8], n = (int)board.count;
        char *s = b->items[b->count++];
        s[0] = '\0';
        for (int r = 0; r < n; r++) {
            assert_int_equal(strlen(board.lines[r]), n);
            strcat(s, board.lines[r]);
            pos[r] = (int)(strchr(board.lines[r], 'Q') - board.lines[r]);
        }
        assert_true(nq_board_valid(pos, n));
    }
    cs_board_free(&board);
    return true;
}

static int cmp_board(const void *a, const void *b)
{
    return strcmp(a, b);
}

/* Valid, distinct and as many as OEIS says: exactly the solutions. */
static void test_formulations_boards_valid_and_distinct(void **ctx)
{
    (void)ctx;
    static const char *const set_mirror[] = {"strategy.state=set",
                                             "strategy.symmetry=mirror", NULL};
    const char *const *all[] = {cell, cell_prune, brute, set, set_mirror};
    static struct boards got;
    load_nq_answers();
    for (size_t f = 0; f < sizeof all / sizeof *all; f++)
        for (int n = 1; n <= 8; n++) {
            struct cs_result run;
            got.count = 0;
            run_keys(all[f], n, "enumerate", &run, keep_board, &got);
            assert_int_equal(got.count, nq_answers[n].total);
            assert_int_equal(run.stats.solutions, got.count);
            qsort(got.items, got.count, sizeof *got.items, cmp_board);
            for (size_t i = 1; i < got.count; i++)
                assert_true(strcmp(got.items[i - 1], got.items[i]) < 0);
        }
}

/* ---- nodes, checks, fails from the definitions --------------------------- */

struct tree {
    uint64_t nodes, checks, fails, solutions;
};

static bool attacks(int a, int b, int n)
{
    int ra = a / n, ca = a % n, rb = b / n, cb = b % n;
    return ra == rb || ca == cb || abs(ra - rb) == abs(ca - cb);
}

/* Cell: a node per set of non-attacking squares (taken in increasing
 * order); at each node one check per square after the last queen's.  With
 * pruning a node whose last queen's row is not `placed - 1` is cut. */
static void cell_walk(int n, bool prune, int *squares, int placed,
                      struct tree *t)
{
    t->nodes++;
    int last = placed ? squares[placed - 1] : -1;
    if (prune && placed && last / n != placed - 1) {
        t->fails++;
        return;
    }
    if (placed == n) {
        t->solutions++;
        return;
    }
    bool child = false;
    for (int sq = last + 1; sq < n * n; sq++) {
        t->checks++;
        bool safe = true;
        for (int q = 0; q < placed && safe; q++)
            safe = !attacks(squares[q], sq, n);
        if (!safe)
            continue;
        child = true;
        squares[placed] = sq;
        cell_walk(n, prune, squares, placed + 1, t);
    }
    if (!child)
        t->fails++;
}

/* Brute force: a node per arrangement of k distinct columns in the first k
 * rows; each permutation then compared pair by pair (rows a < b, b running
 * fastest) up to the first pair on a diagonal. */
static void brute_walk(int n, int *pos, int row, unsigned used, struct tree *t)
{
    t->nodes++;
    if (row == n) {
        for (int a = 0; a < n; a++)
            for (int b = a + 1; b < n; b++) {
                t->checks++;
                if (abs(pos[a] - pos[b]) == b - a) {
                    t->fails++;
                    return;
                }
            }
        t->solutions++;
        return;
    }
    for (int c = 0; c < n; c++)
        if (!(used >> c & 1)) {
            pos[row] = c;
            brute_walk(n, pos, row + 1, used | 1u << c, t);
        }
}

static void assert_tree(const char *const *keys, int n, const struct tree *t)
{
    struct cs_result run;
    run_keys(keys, n, "count", &run, NULL, NULL);
    assert_int_equal(run.stats.solutions, t->solutions);
    assert_int_equal(run.stats.nodes, t->nodes);
    assert_int_equal(run.stats.checks, t->checks);
    assert_int_equal(run.stats.fails, t->fails);
}

static void test_formulations_cell_tree_matches_definition(void **ctx)
{
    (void)ctx;
    for (int n = 1; n <= 7; n++)
        for (int prune = 0; prune < 2; prune++) {
            struct tree t = {0};
            int squares[8];
            cell_walk(n, prune, squares, 0, &t);
            assert_tree(prune ? cell_prune : cell, n, &t);
            assert_tree(prune ? cell_prune_d4 : cell_d4, n, &t);
        }
}

static void test_formulations_brute_force_tree_matches_definition(void **ctx)
{
    (void)ctx;
    uint64_t factorial = 1;
    for (int n = 1; n <= 8; n++) {
        struct tree t = {0};
        int pos[8];
        factorial *= (uint64_t)n;
        brute_walk(n, pos, 0, 0, &t);
        assert_int_equal(t.solutions + t.fails, factorial);
        assert_tree(brute, n, &t);
        assert_tree(brute_d4, n, &t);
    }
}

/* The set state walks the array state's tree with the same tests: equal
 * nodes, checks and fails for every strategy. */
static void test_formulations_set_walks_the_array_tree(void **ctx)
{
    (void)ctx;
    static const char *const strategies[][3] = {
        {"strategy.select=in-order", "strategy.symmetry=none",
         "strategy.prune=none"},
        {"strategy.select=in-order", "strategy.symmetry=mirror",
         "strategy.prune=forward"},
        {"strategy.select=mrv", "strategy.symmetry=none",
         "strategy.prune=none"},
        {"strategy.select=mrv", "strategy.symmetry=d4",
         "strategy.prune=forward"},
    };
    for (size_t s = 0; s < sizeof strategies / sizeof *strategies; s++)
        for (int n = 1; n <= 9; n++) {
            struct cs_result a, b;
            const char *const arr[] = {
                "strategy.state=array",    strategies[s][0],
                strategies[s][1],          strategies[s][2],
                "strategy.kernel=generic", NULL};
            const char *const hashed[] = {"strategy.state=set",
                                          strategies[s][0], strategies[s][1],
                                          strategies[s][2], NULL};
            run_keys(arr, n, "count", &a, NULL, NULL);
            run_keys(hashed, n, "count", &b, NULL, NULL);
            assert_int_equal(b.stats.solutions, a.stats.solutions);
            assert_int_equal(b.stats.unique, a.stats.unique);
            assert_int_equal(b.stats.nodes, a.stats.nodes);
            assert_int_equal(b.stats.checks, a.stats.checks);
            assert_int_equal(b.stats.fails, a.stats.fails);
        }
}

/* n = 10, the comparisons of docs/compare.md: solutions, nodes, checks,
 * fails.  Exact, since the search is deterministic; a change here is a
 * change of a search tree or of what counts as a check. */
static void test_formulations_counts_n10(void **ctx)
{
    (void)ctx;
    static const char *const row[] = {"strategy.symmetry=none", NULL};
    static const char *const array[] = {"strategy.state=array",
                                        "strategy.symmetry=none", NULL};
    static const struct {
        const char *const *keys;
        uint64_t nodes, checks, fails;
    } want[] = {
        {row, 35539, 34815, 12050},
        {array, 35539, 348150, 12050},
        {set, 35539, 348150, 12050},
        {cell, 7535369, 70450278, 5227644},
        {cell_prune, 185489, 1256703, 155270},
        {brute, 9864101, 27170346, 3628076},
    };
    for (size_t i = 0; i < sizeof want / sizeof *want; i++) {
        struct cs_result run;
        run_keys(want[i].keys, 10, "count", &run, NULL, NULL);
        assert_int_equal(run.stats.solutions, 724);
        assert_int_equal(run.stats.nodes, want[i].nodes);
        assert_int_equal(run.stats.checks, want[i].checks);
        assert_int_equal(run.stats.fails, want[i].fails);
    }
}

/* Work units replay prefixes with apply and undo on each worker's state:
 * the same totals and counts as one thread. */
static void test_formulations_threads_same_counts(void **ctx)
{
    (void)ctx;
    const char *const *all[] = {set, cell_prune, brute};
    for (size_t f = 0; f < sizeof all / sizeof *all; f++) {
        struct cs_result one, two;
        const char *keys[16];
        size_t k = 0;
        for (const char *const *p = all[f]; *p; p++)
            keys[k++] = *p;
        run_keys(all[f], 8, "count", &one, NULL, NULL);
        keys[k++] = "strategy.threads=2";
        keys[k] = NULL;
        run_keys(keys, 8, "count", &two, NULL, NULL);
        assert_true(two.units.total > 0);
        assert_int_equal(two.stats.solutions, 92);
        assert_int_equal(two.stats.solutions, one.stats.solutions);
        assert_int_equal(two.stats.nodes, one.stats.nodes);
        assert_int_equal(two.stats.checks, one.stats.checks);
        assert_int_equal(two.stats.fails, one.stats.fails);
    }
}

/* ---- refused combinations ----------------------------------------------- */

static void test_formulations_conflicts_refused(void **ctx)
{
    (void)ctx;
    static const struct {
        const char *keys[4];
        const char *message;
    } cases[] = {
        {{"strategy.prune_skipped_rows=true"},
         "--set strategy.prune_skipped_rows=true: prune_skipped_rows needs "
         "formulation cell"},
        {{"strategy.formulation=cell", "strategy.search=brute-force"},
         "--set strategy.search=brute-force: search brute-force needs "
         "formulation row"},
        {{"strategy.formulation=cell", "strategy.symmetry=mirror"},
         "--set strategy.symmetry=mirror: formulation cell cannot use "
         "symmetry mirror (none or d4)"},
        {{"strategy.search=brute-force", "strategy.prune=forward"},
         "--set strategy.prune=forward: search brute-force cannot use prune "
         "forward"},
        {{"strategy.formulation=cell", "strategy.kernel=fast"},
         "--set strategy.kernel=fast: formulation cell cannot use kernel "
         "fast"},
        {{"strategy.state=set", "strategy.kernel=fast"},
         "--set strategy.kernel=fast: kernel fast needs state bitmask"},
        {{"strategy.formulation=cell", "strategy.select=mrv"},
         "--set strategy.select=mrv: model nqueens cannot select mrv with "
         "these settings"},
        {{"strategy.search=brute-force", "params.n=13"},
         "--set params.n=13: search brute-force tries all n! permutations; "
         "n = 13 is refused (at most 12)"},
        {{"strategy.state=set", "params.n=29"},
         "--set params.n=29: counting n = 29 could overflow 64-bit counts "
         "(at most 28); task solve finds one solution up to n = "
         "1000000000"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        const char *list[6] = {"model=nqueens"};
        for (int k = 0; k < 4 && cases[i].keys[k]; k++)
            list[k + 1] = cases[i].keys[k];
        struct cs_config *cfg = config_of(list);
        assert_string_equal(setup_error(cfg), cases[i].message);
        cs_config_free(cfg);
    }
}

/* The set state is not limited by a word's bits: solve n = 100. */
static void test_formulations_set_solves_large_n(void **ctx)
{
    (void)ctx;
    static const char *const keys[] = {"strategy.state=set",
                                       "strategy.select=mrv",
                                       "strategy.symmetry=none", NULL};
    struct cs_result run;
    run_keys(keys, 100, "solve", &run, NULL, NULL);
    assert_int_equal(run.status, CS_COMPLETE);
    assert_int_equal(run.stats.solutions, 1);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_formulations_cell_totals),
        cmocka_unit_test(test_formulations_brute_force_totals),
        cmocka_unit_test(test_formulations_set_totals_every_strategy),
        cmocka_unit_test(test_formulations_boards_valid_and_distinct),
        cmocka_unit_test(test_formulations_cell_tree_matches_definition),
        cmocka_unit_test(test_formulations_brute_force_tree_matches_definition),
        cmocka_unit_test(test_formulations_set_walks_the_array_tree),
        cmocka_unit_test(test_formulations_counts_n10),
        cmocka_unit_test(test_formulations_threads_same_counts),
        cmocka_unit_test(test_formulations_conflicts_refused),
        cmocka_unit_test(test_formulations_set_solves_large_n),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
