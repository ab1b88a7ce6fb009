/* test_killer.c - Killer Sudoku (params.cages) through the engine, every
 * answer checked by a checker of this file's own: it reads the cages from
 * the config's tree itself and checks rows, columns, boxes, each cage's sum
 * and that no cage holds a digit twice.
 *
 * Puzzles: four published Killers (tests/data/killer, each with its known
 * solution), 4 x 4 cage layouts counted against a brute force over all 288
 * grids, a 16 x 16 grid under dominoes, and givens under cages.  Bad cages:
 * test_killer_input.c.
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

/* The digit of a grid character: 1-9, then A = 10 ... */
static int digit_of(char ch)
{
    return ch >= '1' && ch <= '9' ? ch - '0' : ch - 'A' + 10;
}

/* Cell index of "rRcC" in an n x n grid, or -1. */
static int cell_of(const char *name, int n)
{
    int r, c, used = 0;
    if (sscanf(name, "r%dc%d%n", &r, &c, &used) != 2 || name[used] || r < 1 ||
        c < 1 || r > n || c > n)
        return -1;
    return (r - 1) * n + c - 1;
}

/* The cages of the node (either form) as cage[cell] and sum[cage]; the
 * number of cages. */
static int cages_of(const struct cs_node *node, int n, int *cage, int *sum)
{
    for (int c = 0; c < n * n; c++)
        cage[c] = -1;
    int count = 0;
    if (cs_node_kind(node) == CS_NODE_SEQ) {
        for (size_t k = 0; k < cs_node_len(node); k++, count++) {
            const struct cs_node *item = cs_node_at(node, k);
            sum[k] = atoi(cs_node_text(cs_node_get(item, "sum")));
            const struct cs_node *cells = cs_node_get(item, "cells");
            for (size_t j = 0; j < cs_node_len(cells); j++) {
                int c = cell_of(cs_node_text(cs_node_at(cells, j)), n);
                assert_true(c >= 0);
                assert_int_equal(cage[c], -1);
                cage[c] = (int)k;
            }
        }
    } else {
        const struct cs_node *rows = cs_node_get(node, "grid");
        const struct cs_node *sums = cs_node_get(node, "sums");
        assert_int_equal(cs_node_len(rows), (size_t)n);
        char letters[64] = "";
        for (int r = 0; r < n; r++)
            for (int c = 0; c < n; c++) {
                char ch = cs_node_text(cs_node_at(rows, (size_t)r))[c];
                char *at = strchr(letters, ch);
                if (!at) {
                    letters[count] = ch;
                    char key[2] = {ch, '\0'};
                    sum[count] = atoi(cs_node_text(cs_node_get(sums, key)));
                    at = letters + count++;
                }
                cage[r * n + c] = (int)(at - letters);
            }
    }
    for (int c = 0; c < n * n; c++)
        assert_true(cage[c] >= 0);
    return count;
}

/* grid: n*n digits; boxes br x bc; cages from the config's params.cages. */
static void check_killer(const char *grid, const struct cs_node *cages, int n,
                         int br, int bc)
{
    assert_int_equal(strlen(grid), (size_t)(n * n));
    for (int u = 0; u < 3 * n; u++) {
        unsigned seen = 0;
        for (int j = 0; j < n; j++) {
            int i = u % n;
            int r = u < n ? i : u < 2 * n ? j : i / (n / bc) * br + j / bc;
            int c = u < n ? j : u < 2 * n ? i : i % (n / bc) * bc + j % bc;
            seen |= 1u << digit_of(grid[r * n + c]);
        }
        assert_int_equal(seen, ((1u << n) - 1) << 1);
    }
    int cage[256], sum[256], total[256] = {0};
    unsigned digits[256] = {0};
    int count = cages_of(cages, n, cage, sum);
    for (int c = 0; c < n * n; c++) {
        unsigned bit = 1u << digit_of(grid[c]);
        assert_false(digits[cage[c]] & bit); /* no digit twice in a cage */
        digits[cage[c]] |= bit;
        total[cage[c]] += digit_of(grid[c]);
    }
    for (int k = 0; k < count; k++)
        assert_int_equal(total[k], sum[k]);
}

/* ---- running the model --------------------------------------------------- */

struct grids {
    char first[257];
    uint64_t count;
    const struct cs_node *cages;
    int n;
};

/* Every solution goes through the checker; the first is kept. */
static bool keep_grid(void *ud, const struct cs_hooks *hooks, const void *state,
                      uint64_t weight)
{
    struct grids *g = ud;
    struct cs_board board = {0};
    char grid[257] = "";
    (void)weight;
    hooks->emit(state, 0, &board);
    for (size_t r = 0; r < board.count; r++)
        strcat(grid, board.lines[r]);
    cs_board_free(&board);
    int box = g->n == 16 ? 4 : g->n == 9 ? 3 : 2;
    check_killer(grid, g->cages, g->n, box, box);
    if (!g->count++)
        strcpy(g->first, grid);
    return true;
}

static const char *const selects[] = {"in-order", "mrv"};
static const char *const propagations[] = {"none", "singles", "full"};

/* Run cfg under select and propagate (and any extra KEY=VALUE). */
static struct cs_result run_killer(struct cs_config *cfg, int n,
                                   const char *select, const char *propagate,
                                   const char *extra, struct grids *g)
{
    char s[64], p[64];
    struct cs_error err;
    snprintf(s, sizeof s, "strategy.select=%s", select);
    snprintf(p, sizeof p, "strategy.propagate=%s", propagate);
    assert_int_equal(cs_config_set(cfg, s, &err), 0);
    assert_int_equal(cs_config_set(cfg, p, &err), 0);
    if (extra)
        assert_int_equal(cs_config_set(cfg, extra, &err), 0);
    memset(g, 0, sizeof *g);
    g->cages = cs_config_node(cfg, "params.cages");
    g->n = n;
    struct cs_result run;
    run_config(cfg, &run, keep_grid, g);
    return run;
}

static void test_killer_published_puzzles_every_strategy(void **ctx)
{
    (void)ctx;
    static const char *const files[] = {
        CSEARCH_SOURCE_DIR "/configs/sudoku-killer.yaml",
        CSEARCH_TEST_DATA "/killer/wikipedia-grid.yaml",
        CSEARCH_TEST_DATA "/killer/ukpa-2022.yaml",
        CSEARCH_TEST_DATA "/killer/killersudokuonline-tips.yaml",
        CSEARCH_TEST_DATA "/killer/janko-116.yaml",
    };
    /* configs/sudoku-killer.yaml is wikipedia-grid.yaml as a list */
    const struct cs_node *known = NULL;
    struct cs_config *wiki = load_config(files[1]);
    for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
        struct cs_config *cfg = load_config(files[f]);
        known = cs_config_node(f ? cfg : wiki, "x-solution");
        char solution[82] = "";
        for (size_t r = 0; r < cs_node_len(known); r++)
            strcat(solution, cs_node_text(cs_node_at(known, r)));
        assert_int_equal(strlen(solution), 81);
        for (int combo = 0; combo < 6; combo++) {
            struct grids g;
            struct cs_result run =
                run_killer(cfg, 9, selects[combo & 1], propagations[combo >> 1],
                           "limits.solutions=2", &g);
            assert_int_equal(run.status, CS_COMPLETE); /* unique */
            assert_int_equal(run.stats.solutions, 1);
            assert_string_equal(g.first, solution);
        }
        cs_config_free(cfg);
    }
    cs_config_free(wiki);
}

/* The node counts of the published puzzles, pinned per propagation (MRV):
 * the cage propagation may get stronger, never silently different. */
static void test_killer_node_counts(void **ctx)
{
    (void)ctx;
    static const uint64_t nodes[3] = {321, 7, 3};
    for (int p = 0; p < 3; p++) {
        struct cs_config *cfg =
            load_config(CSEARCH_SOURCE_DIR "/configs/sudoku-killer.yaml");
        struct grids g;
        struct cs_result run =
            run_killer(cfg, 9, "mrv", propagations[p], "task=count", &g);
        assert_int_equal(run.stats.solutions, 1);
        assert_int_equal(run.stats.nodes, nodes[p]);
        cs_config_free(cfg);
    }
}

/* ---- 4 x 4 layouts against a brute force --------------------------------- */

static char all4[288][17];

static int fill4(char *g, int at, int count)
{
    if (at == 16) {
        memcpy(all4[count], g, 17);
        return count + 1;
    }
    int r = at / 4, c = at % 4;
    for (char d = '1'; d <= '4'; d++) {
        bool ok = true;
        for (int j = 0; j < at && ok; j++) {
            int rj = j / 4, cj = j % 4;
            bool peer =
                rj == r || cj == c || (rj / 2 == r / 2 && cj / 2 == c / 2);
            ok = !(peer && g[j] == d);
        }
        if (ok) {
            g[at] = d;
            count = fill4(g, at + 1, count);
        }
    }
    return count;
}

/* Grids of all4 whose cages (letters of layout) add up to sums and hold no
 * digit twice; on the diagonals too if asked. */
static uint64_t brute_killer(const char *layout, const int *sums,
                             bool diagonals)
{
    uint64_t count = 0;
    for (int k = 0; k < 288; k++) {
        const char *g = all4[k];
        int total[128] = {0};
        unsigned seen[128] = {0}, twice = 0, diag[2] = {0, 0};
        for (int c = 0; c < 16; c++) {
            unsigned char ch = (unsigned char)layout[c];
            unsigned bit = 1u << (g[c] - '0');
            twice |= seen[ch] & bit;
            seen[ch] |= bit;
            total[ch] += g[c] - '0';
        }
        for (int i = 0; i < 4; i++) {
            diag[0] |= 1u << (g[i * 5] - '0');
            diag[1] |= 1u << (g[i * 4 + 3 - i] - '0');
        }
        bool ok = !twice && (!diagonals || (diag[0] == 30 && diag[1] == 30));
        for (int c = 0; c < 16 && ok; c++)
            ok = total[(unsigned char)layout[c]] ==
                 sums[(unsigned char)layout[c]];
        count += ok;
    }
    return count;
}

/* The YAML of a 4 x 4 killer: layout's cages with the sums base gives
 * them, as a letter grid or as a list. */
static void killer_yaml(char *out, size_t size, const char *layout,
                        const char *base, bool as_list, int *sums)
{
    memset(sums, 0, 128 * sizeof *sums);
    for (int c = 0; c < 16; c++)
        sums[(unsigned char)layout[c]] += base[c] - '0';
    size_t len =
        (size_t)snprintf(out, size, "model: sudoku\nparams:\n  cages:\n");
    if (!as_list)
        len +=
            (size_t)snprintf(out + len, size - len,
                             "    grid: [%.4s, %.4s, %.4s, %.4s]\n    sums: {",
                             layout, layout + 4, layout + 8, layout + 12);
    char done[17] = "";
    for (int c = 0; c < 16; c++) {
        char ch = layout[c];
        if (strchr(done, ch))
            continue;
        strncat(done, &ch, 1);
        if (!as_list) {
            len += (size_t)snprintf(out + len, size - len, "%s%c: %d",
                                    strlen(done) > 1 ? ", " : "", ch,
                                    sums[(unsigned char)ch]);
            continue;
        }
        len +=
            (size_t)snprintf(out + len, size - len, "    - {sum: %d, cells: [",
                             sums[(unsigned char)ch]);
        for (int j = c; j < 16; j++)
            if (layout[j] == ch)
                len +=
                    (size_t)snprintf(out + len, size - len, "%sr%dc%d",
                                     j > c ? ", " : "", j / 4 + 1, j % 4 + 1);
        len += (size_t)snprintf(out + len, size - len, "]}\n");
    }
    if (!as_list)
        snprintf(out + len, size - len, "}\n");
}

/* The solved grid whose digits give the 4 x 4 layouts their sums. */
static const char base4[] = "1234341221434321";

static void test_killer_4x4_counts_match_brute_force(void **ctx)
{
    (void)ctx;
    char g[17] = "";
    assert_int_equal(fill4(g, 0, 0), 288);
    static const char *const layouts[] = {
        "aabbcdbecdfeggfh", /* dominoes and a single */
        "aabbaabbccddccdd", /* the boxes: every grid fits */
        "aaabcddbcedbceff", /* cage d holds 4 twice in base: none */
        "abcdabcdefghefgh", /* column pairs */
    };
    static const uint64_t expected[][2] = {
        /* plain, with diagonals: the brute force's counts, pinned */
        {2, 1},
        {288, 48},
        {0, 0},
        {16, 4}};
    const char *base = base4;
    for (size_t l = 0; l < sizeof layouts / sizeof *layouts; l++)
        for (int diagonals = 0; diagonals < 2; diagonals++)
            for (int form = 0; form < 2; form++)
                for (int combo = 0; combo < 6; combo++) {
                    char yaml[1024];
                    int sums[128];
                    killer_yaml(yaml, sizeof yaml, layouts[l], base, form,
                                sums);
                    uint64_t want = brute_killer(layouts[l], sums, diagonals);
                    assert_int_equal(want, expected[l][diagonals]);
                    struct cs_config *cfg;
                    struct cs_error err;
                    assert_int_equal(cs_config_parse(&cfg, "k4.yaml", yaml,
                                                     strlen(yaml), &err),
                                     0);
                    struct grids out;
                    struct cs_result run = run_killer(
                        cfg, 4, selects[combo & 1], propagations[combo >> 1],
                        diagonals ? "params.diagonals=true" : "task=count",
                        &out);
                    assert_int_equal(run.stats.solutions, want);
                    assert_int_equal(out.count, want);
                    cs_config_free(cfg);
                }
}

/* ---- a larger grid ------------------------------------------------------- */

/* A solved 16 x 16 grid (csearch's first for the empty grid, MRV). */
static const char grid16[] =
    "123456789ABCDEFG5678DEFG12349ABC9ABC1234DEFG5678DEFG9ABC56781234"
    "241389A5EBC6GFD7FBCEG4162D57839A7DG9EB2F83A164C585A637CDFG49B12E"
    "31826597B4GDACEFC74DBFE1398A2G56EG9A4CD2651F378B6F5BA8G37C2E491D"
    "4861C35BA7E2FDG9A3DF7G89C165EB42BCE52D4AGF937861G927F16E48DBC5A3";

/* 16 x 16 under dominoes (two cells side by side in each row), sums from
 * grid16: the solution found is checked. */
static void test_killer_16x16_dominoes(void **ctx)
{
    (void)ctx;
    static char yaml[65536];
    size_t len = (size_t)snprintf(yaml, sizeof yaml,
                                  "model: sudoku\nparams:\n  cages:\n");
    for (int c = 0; c < 256; c += 2)
        len += (size_t)snprintf(yaml + len, sizeof yaml - len,
                                "    - {sum: %d, cells: [r%dc%d, r%dc%d]}\n",
                                digit_of(grid16[c]) + digit_of(grid16[c + 1]),
                                c / 16 + 1, c % 16 + 1, c / 16 + 1, c % 16 + 2);
    for (int p = 1; p < 3; p++) {
        struct cs_config *cfg;
        struct cs_error err;
        assert_int_equal(cs_config_parse(&cfg, "k16.yaml", yaml, len, &err), 0);
        assert_int_equal(cs_config_set(cfg, "task=solve", &err), 0);
        struct grids g;
        struct cs_result run = run_killer(cfg, 16, "mrv", propagations[p],
                                          "limits.nodes=100000", &g);
        assert_int_equal(run.stats.solutions, 1);
        cs_config_free(cfg);
    }
}

/* ---- givens under cages -------------------------------------------------- */

static void test_killer_givens_under_cages(void **ctx)
{
    (void)ctx;
    /* layout 1 has 2 solutions, 1234341221434321 and 2134431212433421: a
     * given picks one, or both, or none */
    static const struct {
        const char *puzzle;
        uint64_t solutions;
    } cases[] = {{"................", 2},
                 {"1...............", 1},
                 {".1..............", 1},
                 {"..3.............", 2},
                 {"4...............", 0}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char yaml[2048];
        int sums[128];
        killer_yaml(yaml, sizeof yaml, "aabbcdbecdfeggfh", base4, true, sums);
        snprintf(yaml + strlen(yaml), sizeof yaml - strlen(yaml),
                 "  puzzle: \"%s\"\n", cases[i].puzzle);
        for (int combo = 0; combo < 6; combo++) {
            struct cs_config *cfg;
            struct cs_error err;
            assert_int_equal(
                cs_config_parse(&cfg, "k.yaml", yaml, strlen(yaml), &err), 0);
            struct grids g;
            struct cs_result run =
                run_killer(cfg, 4, selects[combo & 1], propagations[combo >> 1],
                           "task=count", &g);
            assert_int_equal(run.stats.solutions, cases[i].solutions);
            cs_config_free(cfg);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_killer_published_puzzles_every_strategy),
        cmocka_unit_test(test_killer_node_counts),
        cmocka_unit_test(test_killer_4x4_counts_match_brute_force),
        cmocka_unit_test(test_killer_16x16_dominoes),
        cmocka_unit_test(test_killer_givens_under_cages),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
