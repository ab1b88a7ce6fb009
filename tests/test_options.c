/* test_options.c - option checking and the typed getters: unknown keys
 * and their suggestions, types, ranges, defaults and positions, and the
 * one "did you mean" rule (cs_nearest).
 */
#define _POSIX_C_SOURCE 200809L /* mkstemp, write, close, unlink */

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config_cases.h"

static void test_options_unknown_top_level_key_suggests(void **state)
{
    (void)state;
    expect_check_error("modle: nqueens\n", 1, 1,
                       "unknown key 'modle'; did you mean 'model'?");
    expect_check_error("model: x\nstrategi:\n  select: mrv\n", 2, 1,
                       "unknown key 'strategi'; did you mean 'strategy'?");
    /* A dotted key in the file is not a path; the section is suggested. */
    expect_check_error("params.n: 3\n", 1, 1,
                       "unknown key 'params.n'; did you mean 'params'?");
    /* none near at its level: a key of that name elsewhere */
    expect_check_error("model: x\nn: 8\n", 2, 1,
                       "unknown key 'n'; did you mean 'params.n'?");
    expect_check_error("model: x\nstrategy: {n: 8}\n", 2, 12,
                       "unknown key 'strategy.n'; did you mean 'params.n'?");
}

static void test_options_unknown_section_key_suggests(void **state)
{
    (void)state;
    expect_check_error("strategy: {selct: mrv}\n", 1, 12,
                       "unknown key 'strategy.selct'; did you mean "
                       "'strategy.select'?");
    expect_check_error("output:\n  stats: true\n  shw: 3\n", 3, 3,
                       "unknown key 'output.shw'; did you mean 'output.show'?");
}

static void test_options_unknown_key_without_suggestion(void **state)
{
    (void)state;
    expect_check_error("model: x\ncolour: red\n", 2, 1, "unknown key 'colour'");
    expect_check_error("params:\n  n: 8\n  size: 3\n", 3, 3,
                       "unknown key 'params.size'");
}

static void test_options_first_error_in_file_order(void **state)
{
    (void)state;
    expect_check_error("params: {n: 0}\ncolour: red\n", 1, 13,
                       "'params.n' must be between 1 and 64, not 0");
    expect_check_error("colour: red\nparams: {n: 0}\n", 1, 1,
                       "unknown key 'colour'");
}

static void test_options_section_not_mapping(void **state)
{
    (void)state;
    expect_check_error("strategy: mrv\n", 1, 11,
                       "'strategy' must be a mapping");
    expect_check_error("limits:\n  - 1\n", 2, 3, "'limits' must be a mapping");
}

static void test_options_int_type_error(void **state)
{
    (void)state;
    expect_check_error("params:\n  n: 12abc\n", 2, 6,
                       "'params.n' must be an integer, not '12abc'");
    expect_check_error("params: {n: 1.5}\n", 1, 13,
                       "'params.n' must be an integer, not '1.5'");
    expect_check_error("params: {n: ''}\n", 1, 13,
                       "'params.n' must be an integer, not ''");
    expect_check_error("params: {n: ' 5'}\n", 1, 13,
                       "'params.n' must be an integer, not ' 5'");
    expect_check_error("params: {n: 0x10}\n", 1, 13,
                       "'params.n' must be an integer, not '0x10'");
    expect_check_error("params: {n: [1]}\n", 1, 13,
                       "'params.n' must be an integer, not a sequence");
    expect_check_error("params: {n: {a: 1}}\n", 1, 13,
                       "'params.n' must be an integer, not a mapping");
}

static void test_options_int_range_error(void **state)
{
    (void)state;
    expect_check_error("params: {n: 0}\n", 1, 13,
                       "'params.n' must be between 1 and 64, not 0");
    expect_check_error("params: {n: 65}\n", 1, 13,
                       "'params.n' must be between 1 and 64, not 65");
    expect_check_error("params: {n: -3}\n", 1, 13,
                       "'params.n' must be between 1 and 64, not -3");
    expect_check_error("params: {n: 99999999999999999999}\n", 1, 13,
                       "'params.n' must be between 1 and 64, not "
                       "99999999999999999999");
    expect_check_error("output: {show: -1}\n", 1, 16,
                       "'output.show' must be between 0 and "
                       "1000000000000000000, not -1");

    struct cs_config *cfg = check_ok("params: {n: +64}\n");
    assert_int_equal(cs_config_int(cfg, "params.n"), 64);
    cs_config_free(cfg);
}

static void test_options_all_word(void **state)
{
    (void)state;
    struct cs_config *cfg = check_ok("output: {show: all}\n");
    assert_int_equal(cs_config_int(cfg, "output.show"), -1);
    cs_config_free(cfg);

    cfg = check_ok("output: {show: 5}\n");
    assert_int_equal(cs_config_int(cfg, "output.show"), 5);
    cs_config_free(cfg);

    /* The default is the word too. */
    cfg = check_ok("model: x\n");
    assert_int_equal(cs_config_int(cfg, "output.show"), -1);
    cs_config_free(cfg);

    expect_check_error("output: {show: ALL}\n", 1, 16,
                       "'output.show' must be an integer, not 'ALL'");
}

static void test_options_real_parse(void **state)
{
    (void)state;
    struct cs_config *cfg = check_ok("limits: {seconds: 2.5}\n");
    assert_true(cs_config_real(cfg, "limits.seconds") == 2.5);
    cs_config_free(cfg);

    cfg = check_ok("limits: {seconds: 1e3}\n");
    assert_true(cs_config_real(cfg, "limits.seconds") == 1000.0);
    cs_config_free(cfg);

    expect_check_error("limits: {seconds: abc}\n", 1, 19,
                       "'limits.seconds' must be a number, not 'abc'");
    expect_check_error("limits: {seconds: 3s}\n", 1, 19,
                       "'limits.seconds' must be a number, not '3s'");
    expect_check_error("limits: {seconds: nan}\n", 1, 19,
                       "'limits.seconds' must be a number, not 'nan'");
    expect_check_error("limits: {seconds: [1]}\n", 1, 19,
                       "'limits.seconds' must be a number, not a sequence");
    expect_check_error("limits: {seconds: -1}\n", 1, 19,
                       "'limits.seconds' must be between 0 and 1e+09, not -1");
}

static void test_options_bool_variants(void **state)
{
    (void)state;
    static const struct {
        const char *text;
        bool value;
    } cases[] = {
        {"true", true},   {"True", true},   {"YES", true}, {"on", true},
        {"false", false}, {"FALSE", false}, {"no", false}, {"Off", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[64];
        snprintf(text, sizeof text, "output: {stats: %s}\n", cases[i].text);
        struct cs_config *cfg = check_ok(text);
        assert_int_equal(cs_config_bool(cfg, "output.stats"), cases[i].value);
        cs_config_free(cfg);
    }
    expect_check_error("output: {stats: maybe}\n", 1, 17,
                       "'output.stats' must be true or false, not 'maybe'");
    expect_check_error("output: {stats: 1}\n", 1, 17,
                       "'output.stats' must be true or false, not '1'");
    expect_check_error("output: {stats: {a: b}}\n", 1, 17,
                       "'output.stats' must be true or false, not a mapping");
}

static void test_options_enum_error(void **state)
{
    (void)state;
    expect_check_error("strategy: {select: mvr}\n", 1, 20,
                       "unknown value 'mvr' for 'strategy.select'; expected "
                       "one of: in-order, mrv");
    expect_check_error("task: Count\n", 1, 7,
                       "unknown value 'Count' for 'task'; expected one of: "
                       "count, solve, enumerate, optimize");
    expect_check_error("task: [count]\n", 1, 7,
                       "'task' must be a string, not a sequence");
    expect_check_error("model: {name: x}\n", 1, 8,
                       "'model' must be a string, not a mapping");

    struct cs_config *cfg =
        check_ok("task: optimize\nstrategy: {select: mrv}\n");
    assert_int_equal(cs_config_enum(cfg, "task"), 3);
    assert_string_equal(cs_config_str(cfg, "task"), "optimize");
    assert_int_equal(cs_config_enum(cfg, "strategy.select"), 1);
    cs_config_free(cfg);
}

static void test_options_node_option_not_inspected(void **state)
{
    (void)state;
    struct cs_config *cfg =
        check_ok("params:\n  grid:\n    anything: [goes, {here: 1}]\n");
    assert_true(cs_config_has(cfg, "params.grid"));
    assert_true(cs_config_has(cfg, "params.grid.anything"));
    cs_config_free(cfg);
}

static void test_options_getters_defaults_and_positions(void **state)
{
    (void)state;
    struct cs_config *cfg = check_ok("model: nqueens\nparams:\n  n: 12\n");
    assert_string_equal(cs_config_str(cfg, "model"), "nqueens");
    assert_int_equal(cs_config_int(cfg, "params.n"), 12);
    assert_true(cs_config_has(cfg, "model"));
    assert_pos(cs_config_pos(cfg, "model"), NAME, 1, 8);
    assert_pos(cs_config_pos(cfg, "params.n"), NAME, 3, 6);

    /* Absent keys: the table's default, and the file with line 0. */
    assert_false(cs_config_has(cfg, "task"));
    assert_int_equal(cs_config_enum(cfg, "task"), 0);
    assert_string_equal(cs_config_str(cfg, "task"), "count");
    assert_int_equal(cs_config_enum(cfg, "strategy.select"), 0);
    assert_true(cs_config_real(cfg, "limits.seconds") == 0.0);
    assert_int_equal(cs_config_int(cfg, "output.show"), -1);
    assert_true(cs_config_bool(cfg, "output.stats"));
    assert_null(cs_config_str(cfg, "params.grid"));
    assert_pos(cs_config_pos(cfg, "strategy.select"), NAME, 0, 0);
    assert_pos(cs_config_pos(cfg, "params.grid"), NAME, 0, 0);
    cs_config_free(cfg);

    /* No default at all: NULL. */
    cfg = check_ok("task: solve\n");
    assert_null(cs_config_str(cfg, "model"));
    cs_config_free(cfg);
}

static void test_options_edit_distance(void **state)
{
    (void)state;
    assert_int_equal(cs_edit_distance("", ""), 0);
    assert_int_equal(cs_edit_distance("", "abc"), 3);
    assert_int_equal(cs_edit_distance("abc", ""), 3);
    assert_int_equal(cs_edit_distance("model", "model"), 0);
    assert_int_equal(cs_edit_distance("modle", "model"), 2);
    assert_int_equal(cs_edit_distance("kitten", "sitting"), 3);
    assert_int_equal(cs_edit_distance("flaw", "lawn"), 2);
}

static void test_options_nearest(void **state)
{
    (void)state;
    static const char *const models[] = {"nqueens", "sudoku", "shifts"};
    assert_ptr_equal(cs_nearest("nqeens", models, 3), models[0]);
    assert_ptr_equal(cs_nearest("sudok", models, 3), models[1]);
    assert_null(cs_nearest("knights", models, 3));
    assert_null(cs_nearest("x", NULL, 0));
    /* At least 2 edits, however short the word: "ab" reaches "ba". */
    static const char *const two[] = {"ba", "xyz"};
    assert_ptr_equal(cs_nearest("ab", two, 2), two[0]);
    assert_null(cs_nearest("a", &two[1], 1));
    /* A third of a long word: 12 letters allow 4 edits, not 5. */
    static const char *const long_keys[] = {"output.trace", "limits.nodes"};
    assert_ptr_equal(cs_nearest("outpXX.trXXe", long_keys, 2), long_keys[0]);
    assert_null(cs_nearest("outXXX.trXXe", long_keys, 2));
    /* On a tie the first candidate wins. */
    static const char *const tie[] = {"cat", "bat"};
    assert_ptr_equal(cs_nearest("hat", tie, 2), tie[0]);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_options_unknown_top_level_key_suggests),
        cmocka_unit_test(test_options_unknown_section_key_suggests),
        cmocka_unit_test(test_options_unknown_key_without_suggestion),
        cmocka_unit_test(test_options_first_error_in_file_order),
        cmocka_unit_test(test_options_section_not_mapping),
        cmocka_unit_test(test_options_int_type_error),
        cmocka_unit_test(test_options_int_range_error),
        cmocka_unit_test(test_options_all_word),
        cmocka_unit_test(test_options_real_parse),
        cmocka_unit_test(test_options_bool_variants),
        cmocka_unit_test(test_options_enum_error),
        cmocka_unit_test(test_options_node_option_not_inspected),
        cmocka_unit_test(test_options_getters_defaults_and_positions),
        cmocka_unit_test(test_options_edit_distance),
        cmocka_unit_test(test_options_nearest),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
