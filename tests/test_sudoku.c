/* test_sudoku.c - the Sudoku model through the engine, every answer checked
 * by a checker of its own: each row, column and box holds every digit once
 * and every given is kept.
 *
 * Puzzles: the first 20 of Norvig's top95 and the 20 of plb_hard20 (one
 * solution each), the first 20 of a multi-solution benchmark (two or more
 * each), small and large grids, and every bad-input message.
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

/* ---- the independent checker -------------------------------------------- */

static int digit_of(char ch)
{
    return ch >= '1' && ch <= '9' ? ch - '0' : ch >= 'A' ? ch - 'A' + 10 : 0;
}

/* grid: n*n characters; box br x bc; givens: the puzzle (. or 0 blank). */
static void check_grid(const char *grid, const char *givens, int n, int br,
                       int bc)
{
    assert_int_equal(strlen(grid), (size_t)(n * n));
    for (int u = 0; u < 3 * n; u++) {
        unsigned seen = 0;
        for (int j = 0; j < n; j++) {
            int i = u % n, r, c;
            if (u < n) {
                r = i;
                c = j;
            } else if (u < 2 * n) {
                r = j;
                c = i;
            } else {
                r = i / (n / bc) * br + j / bc;
                c = i % (n / bc) * bc + j % bc;
            }
            int d = digit_of(grid[r * n + c]);
            assert_true(d >= 1 && d <= n);
            seen |= 1u << d;
        }
        assert_int_equal(seen, ((1u << n) - 1) << 1);
    }
    for (int k = 0; k < n * n; k++)
        if (givens[k] != '.' && givens[k] != '0')
            assert_int_equal(givens[k], grid[k]);
}

/* ---- running the model --------------------------------------------------- */

struct grids {
    char first[626];
    uint64_t count;
};

static bool keep_grid(void *ud, const struct cs_hooks *hooks, const void *state,
                      uint64_t weight)
{
    struct grids *g = ud;
    struct cs_board board = {0};
    (void)weight;
    hooks->emit(state, 0, &board);
    if (!g->count++) {
        g->first[0] = '\0';
        for (size_t r = 0; r < board.count; r++)
            strcat(g->first, board.lines[r]);
    }
    cs_board_free(&board);
    return true;
}

/* kernel: auto, fast or generic */
static struct cs_result sudoku_on(const char *kernel, const char *puzzle,
                                  const char *task, const char *select,
                                  const char *propagate, const char *extra,
                                  struct grids *g)
{
    /* (extra may set any key: a variant, a limit or the boards shown) */
    char p[2048], t[64], s[64], pr[64], k[64];
    snprintf(p, sizeof p, "params.puzzle=%s", puzzle);
    snprintf(t, sizeof t, "task=%s", task);
    snprintf(s, sizeof s, "strategy.select=%s", select);
    snprintf(pr, sizeof pr, "strategy.propagate=%s", propagate);
    snprintf(k, sizeof k, "strategy.kernel=%s", kernel);
    const char *const sets[] = {"model=sudoku", p, t, s, pr, k, extra, NULL};
    struct cs_config *cfg = config_of(sets);
    struct cs_result run;
    memset(g, 0, sizeof *g);
    run_config(cfg, &run, keep_grid, g);
    cs_config_free(cfg);
    return run;
}

/* The general path: auto would send a plain 9 x 9 grid to the kernel. */
static struct cs_result sudoku(const char *puzzle, const char *task,
                               const char *select, const char *propagate,
                               const char *extra, struct grids *g)
{
    return sudoku_on("generic", puzzle, task, select, propagate, extra, g);
}

static int read_lines(const char *name, char lines[][82], int max)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", CSEARCH_TEST_DATA, name);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    int count = 0;
    while (count < max && fgets(lines[count], 82, f)) {
        if (strlen(lines[count]) == 81)
            count++;
    }
    fclose(f);
    return count;
}

static const char *const selects[] = {"in-order", "mrv"};
static const char *const propagations[] = {"none", "singles", "full"};

static void test_sudoku_solves_hard_sets_every_strategy(void **ctx)
{
    (void)ctx;
    static char lines[40][82];
    int count = read_lines("sudoku_top95_head20.txt", lines, 20);
    count += read_lines("sudoku_plb_hard20.txt", lines + count, 20);
    assert_int_equal(count, 40);
    for (int k = 0; k < count; k++)
        for (int combo = 1; combo < 6; combo++) { /* in-order without
                                                    propagation: see below */
            struct grids g;
            struct cs_result run =
                sudoku_on("generic", lines[k], "count", selects[combo & 1],
                          propagations[combo >> 1], "limits.solutions=2", &g);
            /* unique: the search ends on its own with one solution */
            assert_int_equal(run.status, CS_COMPLETE);
            assert_int_equal(run.stats.solutions, 1);
            check_grid(g.first, lines[k], 9, 3, 3);
        }
}

/* Propagation reaches the same fixpoint however it is scheduled: the node
 * counts over plb_hard20 are pinned (a weaker propagation needs more). */
static void test_sudoku_propagation_node_counts(void **ctx)
{
    (void)ctx;
    static char lines[20][82];
    assert_int_equal(read_lines("sudoku_plb_hard20.txt", lines, 20), 20);
    static const uint64_t want[3] = {0, 11037, 8604};
    for (int p = 1; p < 3; p++) {
        uint64_t nodes = 0;
        for (int k = 0; k < 20; k++) {
            struct grids g;
            struct cs_result run =
                sudoku_on("generic", lines[k], "count", "mrv", propagations[p],
                          "limits.solutions=2", &g);
            nodes += run.stats.nodes;
        }
        assert_int_equal(nodes, want[p]);
    }
}

static void test_sudoku_plain_search_agrees(void **ctx)
{
    (void)ctx;
    /* in-order without propagation is slow on the hardest; 5 of top95 */
    static char lines[5][82];
    assert_int_equal(read_lines("sudoku_top95_head20.txt", lines, 5), 5);
    for (int k = 0; k < 5; k++) {
        struct grids g, h;
        sudoku(lines[k], "solve", "in-order", "none", "limits.nodes=0", &g);
        sudoku(lines[k], "solve", "mrv", "singles", "limits.nodes=0", &h);
        assert_string_equal(g.first, h.first);
        check_grid(g.first, lines[k], 9, 3, 3);
    }
}

static void test_sudoku_multiple_solutions_reported(void **ctx)
{
    (void)ctx;
    static char lines[20][82];
    assert_int_equal(read_lines("sudoku_multisol_head20.txt", lines, 20), 20);
    for (int k = 0; k < 20; k++) {
        struct grids g;
        struct cs_result run = sudoku(lines[k], "count", "mrv", "singles",
                                      "limits.solutions=2", &g);
        assert_int_equal(run.status, CS_LIMIT); /* "2 or more" */
        assert_int_equal(run.stats.solutions, 2);
        check_grid(g.first, lines[k], 9, 3, 3);
    }
}

static void test_sudoku_no_solution(void **ctx)
{
    (void)ctx;
    /* cell (1,9) must be 9, but column 9 already has one */
    const char *puzzle = "12345678.........9"
                         "..............................................."
                         "................";
    for (int combo = 0; combo < 4; combo++) {
        struct grids g;
        struct cs_result run =
            sudoku(puzzle, "solve", selects[combo & 1],
                   propagations[combo >> 1], "output.show=1", &g);
        assert_int_equal(run.status, CS_INFEASIBLE);
        assert_int_equal(run.stats.solutions, 0);
    }
}

static void test_sudoku_4x4_grids_counted(void **ctx)
{
    (void)ctx;
    /* there are 288 4x4 Sudoku grids */
    for (int combo = 0; combo < 4; combo++) {
        struct grids g;
        struct cs_result run =
            sudoku("................", "count", selects[combo & 1],
                   propagations[combo >> 1], "output.show=1", &g);
        assert_int_equal(run.stats.solutions, 288);
        assert_int_equal(g.count, 288); /* each handed to on_solution */
    }
    struct grids g;
    struct cs_result run = sudoku("................", "enumerate", "mrv",
                                  "singles", "output.show=all", &g);
    assert_int_equal(run.stats.solutions, 288);
    assert_int_equal(g.count, 288);
    check_grid(g.first, "................", 4, 2, 2);
}

static void test_sudoku_6x6_and_16x16(void **ctx)
{
    (void)ctx;
    /* 6x6 with 2x3 boxes, a puzzle with one solution */
    const char *six = "1....."
                      "..3.2."
                      "..6..4"
                      "5..1.."
                      "4.5..."
                      "......";
    struct grids g;
    struct cs_result run =
        sudoku(six, "count", "mrv", "singles", "limits.solutions=2", &g);
    assert_int_equal(run.stats.solutions > 0, 1);
    check_grid(g.first, six, 6, 2, 3);

    /* 16x16 with 4x4 boxes: a few givens, first solution checked */
    char sixteen[257];
    memset(sixteen, '.', 256);
    sixteen[256] = '\0';
    memcpy(sixteen, "123456789ABCDEFG", 16);
    run = sudoku(sixteen, "solve", "mrv", "singles", "output.show=1", &g);
    assert_int_equal(run.stats.solutions, 1);
    check_grid(g.first, sixteen, 16, 4, 4);
}

/* ---- variants: the checker's own brute force on 4 x 4 ------------------- */

/* Count 4 x 4 grids whose rows are permutations and whose columns, regions
 * (region[c] = letter of cell c) and, with diag, diagonals hold 1..4 once. */
static uint64_t brute_4x4(const char *region, bool diag)
{
    static int perms[24][4];
    int np = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            for (int c = 0; c < 4; c++)
                for (int d = 0; d < 4; d++)
                    if (a != b && a != c && a != d && b != c && b != d &&
                        c != d) {
                        perms[np][0] = a;
                        perms[np][1] = b;
                        perms[np][2] = c;
                        perms[np][3] = d;
                        np++;
                    }
    uint64_t count = 0;
    int g[16];
    for (int r0 = 0; r0 < 24; r0++)
        for (int r1 = 0; r1 < 24; r1++)
            for (int r2 = 0; r2 < 24; r2++)
                for (int r3 = 0; r3 < 24; r3++) {
                    const int rows[4] = {r0, r1, r2, r3};
                    for (int r = 0; r < 4; r++)
                        for (int c = 0; c < 4; c++)
                            g[r * 4 + c] = perms[rows[r]][c];
                    bool ok = true;
                    for (int i = 0; i < 16 && ok; i++)
                        for (int j = i + 1; j < 16 && ok; j++) {
                            bool same_col = i % 4 == j % 4;
                            bool same_reg = region[i] == region[j];
                            bool same_diag =
                                diag &&
                                ((i / 4 == i % 4 && j / 4 == j % 4) ||
                                 (i / 4 + i % 4 == 3 && j / 4 + j % 4 == 3));
                            if ((same_col || same_reg || same_diag) &&
                                g[i] == g[j])
                                ok = false;
                        }
                    count += ok;
                }
    return count;
}

static void test_sudoku_variants_match_brute_force(void **ctx)
{
    (void)ctx;
    struct grids g;
    /* plain 4 x 4 (2 x 2 boxes), Sudoku X, and a jigsaw */
    const char *boxes = "AABBAABBCCDDCCDD";
    const char *jigsaw = "AAABCABBCCDBCDDD";
    assert_int_equal(brute_4x4(boxes, false), 288);
    assert_int_equal(brute_4x4(boxes, true), 48);
    assert_int_equal(brute_4x4(jigsaw, false), 96);
    for (int p = 0; p < 3; p++) {
        struct cs_result run =
            sudoku("................", "count", "mrv", propagations[p],
                   "params.diagonals=true", &g);
        assert_int_equal(run.stats.solutions, brute_4x4(boxes, true));
    }
    char regions[4][64];
    for (int r = 0; r < 4; r++)
        snprintf(regions[r], sizeof regions[r], "%.4s", jigsaw + 4 * r);
    /* regions go in as a YAML list: build the config from text */
    char yaml[512];
    snprintf(yaml, sizeof yaml,
             "model: sudoku\nparams:\n  puzzle: \"................\"\n"
             "  regions: [%s, %s, %s, %s]\ntask: count\n",
             regions[0], regions[1], regions[2], regions[3]);
    for (int p = 0; p < 3; p++) {
        struct cs_config *cfg;
        struct cs_error err;
        assert_int_equal(
            cs_config_parse(&cfg, "jigsaw", yaml, strlen(yaml), &err), 0);
        char prop[64];
        snprintf(prop, sizeof prop, "strategy.propagate=%s", propagations[p]);
        assert_int_equal(cs_config_set(cfg, prop, &err), 0);
        struct cs_result run;
        run_config(cfg, &run, NULL, NULL);
        assert_int_equal(run.stats.solutions, brute_4x4(jigsaw, false));
        cs_config_free(cfg);
    }
}

static void test_sudoku_windoku_solution_checked(void **ctx)
{
    (void)ctx;
    struct grids g;
    const char *empty = "................................................."
                        "................................";
    struct cs_result run =
        sudoku(empty, "solve", "mrv", "full", "params.windoku=true", &g);
    assert_int_equal(run.stats.solutions, 1);
    check_grid(g.first, empty, 9, 3, 3);
    for (int w = 0; w < 4; w++) { /* the four windows hold 1..9 once */
        unsigned seen = 0;
        int r0 = w / 2 * 4 + 1, c0 = w % 2 * 4 + 1;
        for (int j = 0; j < 9; j++)
            seen |= 1u << digit_of(g.first[(r0 + j / 3) * 9 + c0 + j % 3]);
        assert_int_equal(seen, 0x3feu);
    }
}

static const char *bad(const char *puzzle, const char *box)
{
    char p[2048];
    snprintf(p, sizeof p, "params.puzzle=%s", puzzle);
    const char *const sets[] = {"model=sudoku", p, box, NULL};
    struct cs_config *cfg = config_of(sets);
    static char msg[1024];
    snprintf(msg, sizeof msg, "%s", setup_error(cfg));
    cs_config_free(cfg);
    return msg;
}

/* ---- the fast 9 x 9 kernel against the general path ---------------------- */

/* Every puzzle of the test sets counted to two on both paths: the same
 * answer, the same grid when it is unique, checked grids when there are
 * two.  The kernel grows its own tree (triads on top of the general path's
 * full fixpoint, and a branch on a digit's configuration in a band or
 * stack), so its nodes are pinned on their own: with its own order and
 * with the engine's MRV over the cells. */
static void test_sudoku_fast_kernel_agrees_on_test_sets(void **ctx)
{
    (void)ctx;
    static char lines[60][82];
    int count = read_lines("sudoku_top95_head20.txt", lines, 20);
    count += read_lines("sudoku_plb_hard20.txt", lines + count, 20);
    count += read_lines("sudoku_multisol_head20.txt", lines + count, 20);
    assert_int_equal(count, 60);
    uint64_t own_nodes = 0, mrv_nodes = 0;
    for (int k = 0; k < count; k++) {
        struct grids gen, fast, fast_mrv;
        struct cs_result a = sudoku_on("generic", lines[k], "count", "mrv",
                                       "full", "limits.solutions=2", &gen);
        struct cs_result b = sudoku_on("fast", lines[k], "count", "in-order",
                                       "full", "limits.solutions=2", &fast);
        struct cs_result c = sudoku_on("fast", lines[k], "count", "mrv", "full",
                                       "limits.solutions=2", &fast_mrv);
        assert_int_equal(b.status, a.status);
        assert_int_equal(c.status, a.status);
        assert_int_equal(b.stats.solutions, a.stats.solutions);
        assert_int_equal(c.stats.solutions, a.stats.solutions);
        assert_int_equal(b.stats.solutions, k < 40 ? 1 : 2);
        own_nodes += b.stats.nodes;
        mrv_nodes += c.stats.nodes;
        check_grid(fast.first, lines[k], 9, 3, 3);
        check_grid(fast_mrv.first, lines[k], 9, 3, 3);
        if (k < 40) {
            assert_string_equal(fast.first, gen.first);
            assert_string_equal(fast_mrv.first, gen.first);
        }
    }
    /* the general path (full, MRV) takes 9871 */
    assert_int_equal(own_nodes, 3952);
    assert_int_equal(mrv_nodes, 8535);
}

/* Puzzles of the test sets with one given taken away, counted to the end:
 * the plain search (no propagation), the general path and the fast kernel
 * agree on every count, and every grid enumerated is a solution. */
static void test_sudoku_fast_kernel_counts_exactly(void **ctx)
{
    (void)ctx;
    static const uint64_t want[5] = {376, 528, 138, 1133, 7465};
    static char lines[5][82];
    assert_int_equal(read_lines("sudoku_few_solutions.txt", lines, 5), 5);
    for (int k = 0; k < 5; k++) {
        struct grids g;
        struct cs_result run = sudoku_on("generic", lines[k], "count", "mrv",
                                         "none", "output.show=0", &g);
        assert_int_equal(run.stats.solutions, want[k]);
        run = sudoku_on("generic", lines[k], "count", "mrv", "full",
                        "output.show=0", &g);
        assert_int_equal(run.stats.solutions, want[k]);
        run = sudoku_on("fast", lines[k], "count", "in-order", "full",
                        "output.show=0", &g);
        assert_int_equal(run.stats.solutions, want[k]);
        assert_int_equal(run.status, CS_COMPLETE);
    }
    struct grids g;
    struct cs_result run = sudoku_on("fast", lines[2], "enumerate", "mrv",
                                     "full", "output.show=all", &g);
    assert_int_equal(run.stats.solutions, 138);
    assert_int_equal(g.count, 138);
    check_grid(g.first, lines[2], 9, 3, 3);
}

/* Every grid the fast kernel hands out passes the checker. */
static bool check_each(void *ud, const struct cs_hooks *hooks,
                       const void *state, uint64_t weight)
{
    const char *givens = ud;
    struct cs_board board = {0};
    char grid[82] = "";
    (void)weight;
    hooks->emit(state, 0, &board);
    assert_int_equal(board.count, 9);
    for (size_t r = 0; r < board.count; r++)
        strcat(grid, board.lines[r]);
    cs_board_free(&board);
    check_grid(grid, givens, 9, 3, 3);
    return true;
}

static void test_sudoku_fast_kernel_enumerates_checked_grids(void **ctx)
{
    (void)ctx;
    static char lines[5][82];
    assert_int_equal(read_lines("sudoku_few_solutions.txt", lines, 5), 5);
    char p[128];
    snprintf(p, sizeof p, "params.puzzle=%s", lines[4]);
    const char *const sets[] = {"model=sudoku",
                                p,
                                "task=enumerate",
                                "strategy.propagate=full",
                                "strategy.kernel=fast",
                                "output.show=all",
                                NULL};
    struct cs_config *cfg = config_of(sets);
    struct cs_result run;
    run_config(cfg, &run, check_each, lines[4]);
    cs_config_free(cfg);
    assert_int_equal(run.stats.solutions, 7465);
    assert_int_equal(run.status, CS_COMPLETE);
}

/* No solution, a node limit, and the settings the kernel cannot take. */
static void test_sudoku_fast_kernel_limits_and_refusals(void **ctx)
{
    (void)ctx;
    const char *none = "12345678.........9"
                       "..............................................."
                       "................";
    struct grids g;
    struct cs_result run = sudoku_on("fast", none, "solve", "in-order", "full",
                                     "output.show=1", &g);
    assert_int_equal(run.status, CS_INFEASIBLE);
    assert_int_equal(run.stats.solutions, 0);
    assert_int_equal(run.stats.nodes, 1); /* the root's propagation sees it */

    static char lines[20][82];
    assert_int_equal(read_lines("sudoku_plb_hard20.txt", lines, 20), 20);
    run = sudoku_on("fast", lines[1], "count", "in-order", "full",
                    "limits.nodes=5", &g);
    assert_int_equal(run.status, CS_LIMIT);
    assert_int_equal(run.stats.nodes, 5);

    char p[128];
    snprintf(p, sizeof p, "params.puzzle=%s", lines[0]);
    const char *const x[] = {"model=sudoku",
                             p,
                             "strategy.propagate=full",
                             "strategy.kernel=fast",
                             "params.diagonals=true",
                             NULL};
    struct cs_config *cfg = config_of(x);
    assert_string_equal(setup_error(cfg),
                        "--set strategy.kernel=fast: kernel fast needs a grid "
                        "without variants (diagonals, windoku, regions)");
    cs_config_free(cfg);
    const char *const singles[] = {"model=sudoku", p, "strategy.kernel=fast",
                                   "strategy.propagate=singles", NULL};
    cfg = config_of(singles);
    assert_string_equal(setup_error(cfg),
                        "--set strategy.kernel=fast: kernel fast needs "
                        "propagate full");
    cs_config_free(cfg);
    const char *const four[] = {
        "model=sudoku", "params.puzzle=................",
        "strategy.propagate=full", "strategy.kernel=fast", NULL};
    cfg = config_of(four);
    assert_string_equal(setup_error(cfg),
                        "--set strategy.kernel=fast: kernel fast needs a 9 x 9 "
                        "grid, not 4 x 4");
    cs_config_free(cfg);
}

static void test_sudoku_bad_input_messages(void **ctx)
{
    (void)ctx;
    char p[100];
    memset(p, '.', 80);
    p[80] = '\0';
    assert_string_equal(strstr(bad(p, NULL), ": ") + 2,
                        "puzzle has 80 cells: not a square grid from 4 x 4 to "
                        "25 x 25 (81 for 9 x 9)");
    memset(p, '.', 81);
    p[81] = '\0';
    p[11] = 'x';
    assert_string_equal(strstr(bad(p, NULL), ": ") + 2,
                        "puzzle cell 12 (row 2, column 3): 'x' is not a digit "
                        "of a 9 x 9 grid");
    p[11] = '.';
    p[2] = '5';
    p[74] = '5'; /* row 9, column 3 */
    assert_string_equal(strstr(bad(p, NULL), ": ") + 2,
                        "puzzle column 3 holds 5 twice: row 1 column 3 and "
                        "row 9 column 3");
    memset(p, '.', 36);
    p[36] = '\0';
    assert_string_equal(strstr(bad(p, "params.box=3x3"), ": ") + 2,
                        "a 3x3 box holds 9 cells, the grid has 6 digits");
    assert_string_equal(strstr(bad(p, "params.box=2by3"), ": ") + 2,
                        "'params.box' must be ROWSxCOLUMNS, like 2x3, not "
                        "'2by3'");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_sudoku_solves_hard_sets_every_strategy),
        cmocka_unit_test(test_sudoku_propagation_node_counts),
        cmocka_unit_test(test_sudoku_plain_search_agrees),
        cmocka_unit_test(test_sudoku_multiple_solutions_reported),
        cmocka_unit_test(test_sudoku_no_solution),
        cmocka_unit_test(test_sudoku_4x4_grids_counted),
        cmocka_unit_test(test_sudoku_6x6_and_16x16),
        cmocka_unit_test(test_sudoku_variants_match_brute_force),
        cmocka_unit_test(test_sudoku_windoku_solution_checked),
        cmocka_unit_test(test_sudoku_fast_kernel_agrees_on_test_sets),
        cmocka_unit_test(test_sudoku_fast_kernel_counts_exactly),
        cmocka_unit_test(test_sudoku_fast_kernel_enumerates_checked_grids),
        cmocka_unit_test(test_sudoku_fast_kernel_limits_and_refusals),
        cmocka_unit_test(test_sudoku_bad_input_messages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
