/* config_cases.c - what test_config.c and test_options.c share: two option
 * tables as the CLI passes them, and helpers that parse inline YAML under
 * the name "test.yaml" and assert exact errors and positions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "config_cases.h"

static const char *const tasks[] = {"count", "solve", "enumerate", "optimize",
                                    NULL};
static const char *const selects[] = {"in-order", "mrv", NULL};

/* Two tables, as the CLI passes them: the framework's and a model's. */
static const struct cs_option framework_options[] = {
    {"model", CS_OPT_STRING, NULL, 0, 0, NULL, NULL, "the model"},
    {"task", CS_OPT_ENUM, "count", 0, 0, tasks, NULL, "what to do"},
    {"strategy.select", CS_OPT_ENUM, "in-order", 0, 0, selects, NULL, "order"},
    {"limits.seconds", CS_OPT_REAL, "0", 0, 1e9, NULL, NULL, "time limit"},
    {"output.show", CS_OPT_INT, "all", 0, 1e18, NULL, "all", "solutions"},
    {"output.stats", CS_OPT_BOOL, "true", 0, 0, NULL, NULL, "statistics"},
    {NULL, CS_OPT_INT, NULL, 0, 0, NULL, NULL, NULL},
};

static const struct cs_option model_options[] = {
    {"params.n", CS_OPT_INT, "8", 1, 64, NULL, NULL, "board size"},
    {"params.grid", CS_OPT_NODE, NULL, 0, 0, NULL, NULL, "any subtree"},
    {NULL, CS_OPT_INT, NULL, 0, 0, NULL, NULL, NULL},
};

const struct cs_option *const tables[] = {framework_options, model_options,
                                          NULL};

/* ---- helpers ------------------------------------------------------------ */

struct cs_config *parse_ok(const char *text)
{
    struct cs_config *cfg = NULL;
    struct cs_error err = {0};
    int rc = cs_config_parse(&cfg, NAME, text, strlen(text), &err);
    if (rc != 0)
        fail_msg("unexpected error: %s:%d:%d: %s", err.file, err.line, err.col,
                 err.msg);
    assert_non_null(cfg);
    return cfg;
}

struct cs_config *check_ok(const char *text)
{
    struct cs_config *cfg = parse_ok(text);
    struct cs_error err = {0};
    if (cs_config_check(cfg, tables, &err) != 0)
        fail_msg("unexpected error: %s:%d:%d: %s", err.file, err.line, err.col,
                 err.msg);
    return cfg;
}

void assert_error(const struct cs_error *err, const char *file, int line,
                  int col, const char *msg)
{
    assert_string_equal(err->msg, msg);
    assert_string_equal(err->file, file);
    assert_int_equal(err->line, line);
    assert_int_equal(err->col, col);
}

void expect_parse_error(const char *text, int line, int col, const char *msg)
{
    struct cs_config *cfg = (struct cs_config *)&cfg; /* must become NULL */
    struct cs_error err = {0};
    assert_int_equal(cs_config_parse(&cfg, NAME, text, strlen(text), &err), -1);
    assert_null(cfg);
    assert_error(&err, NAME, line, col, msg);
}

void expect_check_error(const char *text, int line, int col, const char *msg)
{
    struct cs_config *cfg = parse_ok(text);
    struct cs_error err = {0};
    assert_int_equal(cs_config_check(cfg, tables, &err), -1);
    assert_error(&err, NAME, line, col, msg);
    cs_config_free(cfg);
}

void assert_pos(struct cs_pos pos, const char *file, int line, int col)
{
    assert_string_equal(pos.file, file);
    assert_int_equal(pos.line, line);
    assert_int_equal(pos.col, col);
}
