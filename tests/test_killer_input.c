/* test_killer_input.c - Killer Sudoku's cages as a user may get them
 * wrong: every message, exact, at the config node it is about (a cage's
 * sum, a cell, the cages, a letter grid's row or sum), and the fast kernel
 * refusing cages.  (test_killer.c checks the answers.)
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

/* A 4 x 4 Killer (two solutions: 1234341221434321, 2134431212433421). */
static const char k4[] = "model: sudoku\n"
                         "params:\n"
                         "  cages:\n"
                         "    - {sum: 3, cells: [r1c1, r1c2]}\n"
                         "    - {sum: 8, cells: [r1c3, r1c4, r2c3]}\n"
                         "    - {sum: 5, cells: [r2c1, r3c1]}\n"
                         "    - {sum: 5, cells: [r2c2, r3c2]}\n"
                         "    - {sum: 5, cells: [r2c4, r3c4]}\n"
                         "    - {sum: 6, cells: [r3c3, r4c3]}\n"
                         "    - {sum: 7, cells: [r4c1, r4c2]}\n"
                         "    - {sum: 1, cells: [r4c4]}\n";

/* The setup's message for k4 with `from` replaced by `to` and `tail`
 * appended (NULL: nothing). */
static const char *k4_error(const char *from, const char *to, const char *tail)
{
    char yaml[2048];
    const char *at = strstr(k4, from);
    assert_non_null(at);
    snprintf(yaml, sizeof yaml, "%.*s%s%s%s", (int)(at - k4), k4, to,
             at + strlen(from), tail ? tail : "");
    struct cs_config *cfg;
    struct cs_error err;
    assert_int_equal(cs_config_parse(&cfg, "k.yaml", yaml, strlen(yaml), &err),
                     0);
    const char *msg = setup_error(cfg);
    cs_config_free(cfg);
    return msg;
}

static void test_killer_bad_cages(void **ctx)
{
    (void)ctx;
    static const struct {
        const char *from, *to, *tail, *msg;
    } cases[] = {
        {"sum: 3,", "sum: 8,", NULL,
         "k.yaml:4:13: cage 1: 2 cells add up to 3 to 7 in a 4 x 4 grid, "
         "not 8"},
        {"[r4c1, r4c2]", "[r4c1, r4c2, r1c1]", NULL,
         "k.yaml:10:36: r1c1 is in cage 1 and cage 7"},
        {"[r4c1, r4c2]", "[r4c1, r4c2, r4c1]", NULL,
         "k.yaml:10:36: cage 7 names r4c1 twice"},
        {"    - {sum: 1, cells: [r4c4]}\n", "", NULL,
         "k.yaml:4:5: r4c4 is in no cage: the cages must cover the 4 x 4 "
         "grid"},
        {"r2c1,", "r2x1,", NULL,
         "k.yaml:6:24: cage 3: 'r2x1' is not a cell; write rROWcCOLUMN, like "
         "r1c1"},
        {"r2c1,", "r0c1,", NULL,
         "k.yaml:6:24: cage 3: r0c1: rows and columns count from 1"},
        {"r2c1,", "{r: 2},", NULL,
         "k.yaml:6:24: cage 3: a cell is a string rROWcCOLUMN, like r1c1, "
         "not a list or mapping"},
        {"r2c1,", "r26c1,", NULL,
         "k.yaml:6:24: cage 3: r26c1 is outside the largest grid (25 x 25)"},
        /* 16 cells make a 4 x 4 grid; one more, a 4-column one */
        {"[r4c4]", "[r5c4]", NULL,
         "k.yaml:11:24: cage 8: r5c4 is outside the 4 x 4 grid"},
        {"[r4c1, r4c2]", "[r4c1, r4c2, r5c2]", NULL,
         "k.yaml:10:36: cage 7: r5c2 is outside the 4 x 4 grid"},
        {"sum: 1,", "sum: 5,", NULL,
         "k.yaml:11:13: cage 8: 1 cell adds up to 1 to 4 in a 4 x 4 grid, "
         "not 5"},
        {"sum: 5, cells: [r2c1", "sum: 6, cells: [r2c1", NULL,
         "k.yaml:4:5: the cage sums add up to 41; the digits of a 4 x 4 grid "
         "add up to 40"},
        {"{sum: 3, cells", "{sum: 3, cels", NULL,
         "k.yaml:4:16: unknown key 'cels' in cage 1; a cage has sum and "
         "cells"},
        {"{sum: 3, cells: [r1c1, r1c2]}", "{cells: [r1c1, r1c2]}", NULL,
         "k.yaml:4:7: cage 1 has no sum"},
        {"{sum: 3, cells: [r1c1, r1c2]}", "{sum: 3, cells: []}", NULL,
         "k.yaml:4:23: cage 1: 'cells' must be a list of cells like [r1c1, "
         "r1c2]"},
        {"sum: 3,", "sum: three,", NULL,
         "k.yaml:4:13: 'sum' must be an integer, not 'three'"},
        {"model", "model", "  puzzle: \"1...1...........\"\n",
         "k.yaml:12:11: puzzle column 1 holds 1 twice: row 1 column 1 and "
         "row 2 column 1"},
        {"model", "model",
         "  puzzle: \".........1..............................................."
         "......................2.\"\n",
         "k.yaml:4:5: the cages cover a 4 x 4 grid, the puzzle is 9 x 9"},
        {"model", "model", "strategy: {kernel: fast}\n",
         "k.yaml:12:20: kernel fast needs a grid without cages"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        assert_string_equal(k4_error(cases[i].from, cases[i].to, cases[i].tail),
                            cases[i].msg);
    /* whole configs: the letter grid's own mistakes, and a cage's */
    static const struct {
        const char *yaml, *msg;
    } whole[] = {
        {"model: sudoku\nparams:\n  cages: 15\n",
         "k.yaml:3:10: 'params.cages' must be a list of cages like {sum: 15, "
         "cells: [r1c1, r1c2]}, or a letter grid {grid: [rows], sums: {a: "
         "15}}"},
        {"model: sudoku\nparams:\n  cages:\n    grid: [aabb, aabb, ccdd, "
         "ccdd]\n    sums: {a: 10, b: 10, c: 10}\n",
         "k.yaml:5:11: cage 'd' has no sum in 'params.cages.sums'"},
        {"model: sudoku\nparams:\n  cages:\n    grid: [aabb, aabb, ccdd, "
         "ccdd]\n    sums: {a: 10, b: 10, c: 10, d: 10, e: 3}\n",
         "k.yaml:5:40: 'params.cages.sums' gives a sum for 'e', which is no "
         "cage of the grid"},
        {"model: sudoku\nparams:\n  cages:\n    grid: [aabb, aabb, ccdd, "
         "ccda]\n    sums: {a: 14, b: 10, c: 10, d: 6}\n",
         "k.yaml:4:11: cage 'a' is in pieces that do not touch; give each "
         "cage its own letter"},
        {"model: sudoku\nparams:\n  cages:\n    grid: [aabb, aabb, cc.d, "
         "ccdd]\n    sums: {a: 10, b: 10, c: 10, d: 10}\n",
         "k.yaml:4:24: cage row 3, column 3: '.' is not a cage letter "
         "(letters and digits)"},
        {"model: sudoku\nparams:\n  cages:\n    grid: [aaab, aabb, ccdd, "
         "ccdd]\n    sums: {a: 15, b: 5, c: 10, d: 10}\n",
         "k.yaml:4:11: cage 'a' has 5 cells, more than the 4 digits (no digit "
         "twice in a cage)"},
        {"model: sudoku\nparams:\n  cages:\n    grid: [aabb, aabb, ccdd]\n"
         "    sums: {a: 10, b: 10, c: 10, d: 10}\n",
         "k.yaml:4:11: 'params.cages.grid' must be a list of 4 to 25 row "
         "strings"},
        {"model: sudoku\nparams:\n  cages:\n    grid: [aabb, aabb, ccdd, "
         "ccdd]\n    sums: {a: 10, b: 10, c: 10, d: 10}\n    sum: 3\n",
         "k.yaml:6:5: unknown key 'params.cages.sum'; a letter grid has grid "
         "and sums"},
        {"model: sudoku\nparams:\n  cages:\n    grid: [aabb, aabb, ccdd, "
         "ccdd]\n    sums: {a: 10, b: 10, c: 10, d: 11}\n",
         "k.yaml:5:36: cage 'd': 4 cells add up to 10 to 10 in a 4 x 4 grid, "
         "not 11"},
    };
    for (size_t i = 0; i < sizeof whole / sizeof *whole; i++) {
        struct cs_config *cfg;
        struct cs_error err;
        assert_int_equal(cs_config_parse(&cfg, "k.yaml", whole[i].yaml,
                                         strlen(whole[i].yaml), &err),
                         0);
        assert_string_equal(setup_error(cfg), whole[i].msg);
        cs_config_free(cfg);
    }
    /* a given twice in a cage whose cells share no row, column or box:
     * Wikipedia's cage 11 is r3c7, r3c8 and r4c7 */
    struct cs_config *cfg =
        load_config(CSEARCH_SOURCE_DIR "/configs/sudoku-killer.yaml");
    char puzzle[128] = "params.puzzle=";
    size_t at = strlen(puzzle);
    memset(puzzle + at, '.', 81);
    puzzle[at + 81] = '\0';
    puzzle[at + 2 * 9 + 7] = '5';
    puzzle[at + 3 * 9 + 6] = '5';
    struct cs_error err;
    assert_int_equal(cs_config_set(cfg, puzzle, &err), 0);
    assert_string_equal(
        setup_error(cfg),
        "--set params.puzzle=.........................5.......5..............."
        "................................: puzzle cage 11 holds 5 twice: "
        "row 3 column 8 and row 4 column 7");
    cs_config_free(cfg);
}

/* 25 x 25, rows as cages but row 1 split into 12 + 13 cells: 12 digits of
 * 25 adding up to 150 come in too many sets to list; refused at the cage,
 * before any is built. */
static void test_killer_loose_cage_refused(void **ctx)
{
    (void)ctx;
    static char yaml[65536];
    size_t len = (size_t)snprintf(yaml, sizeof yaml,
                                  "model: sudoku\nparams:\n  cages:\n");
    for (int k = 0; k < 26; k++) {
        /* cells [from, to) of the grid, row-major */
        int from = k < 2 ? 12 * k : 25 * (k - 1), to = k ? from + 25 : 12;
        if (k == 1)
            to = 25;
        int sum = k == 0 ? 150 : k == 1 ? 175 : 325;
        len += (size_t)snprintf(yaml + len, sizeof yaml - len,
                                "    - {sum: %d, cells: [", sum);
        for (int c = from; c < to; c++)
            len +=
                (size_t)snprintf(yaml + len, sizeof yaml - len, "%sr%dc%d",
                                 c > from ? ", " : "", c / 25 + 1, c % 25 + 1);
        len += (size_t)snprintf(yaml + len, sizeof yaml - len, "]}\n");
    }
    struct cs_config *cfg;
    struct cs_error err;
    assert_int_equal(cs_config_parse(&cfg, "k25.yaml", yaml, len, &err), 0);
    assert_string_equal(setup_error(cfg),
                        "k25.yaml:4:25: cage 1: 12 cells adding up to 150 have "
                        "more than 65536 sets of digits; split it");
    cs_config_free(cfg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_killer_bad_cages),
        cmocka_unit_test(test_killer_loose_cage_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
