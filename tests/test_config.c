/* test_config.c - the config tree: reading YAML, files, --set overrides
 * and the node API.  Every bad input asserts the exact file, line, column
 * and message the user would see; option checks are test_options.c.
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

/* ---- reading ------------------------------------------------------------ */

static void test_config_malformed_yaml(void **state)
{
    (void)state;
    expect_parse_error("model: [1, 2\n", 2, 1,
                       "invalid YAML: did not find expected ',' or ']' while "
                       "parsing a flow sequence");
    expect_parse_error("a: b: c\n", 1, 5,
                       "invalid YAML: mapping values are not allowed in this "
                       "context");
    expect_parse_error("model: \"open\n", 2, 1,
                       "invalid YAML: found unexpected end of stream while "
                       "scanning a quoted scalar");
    expect_parse_error("model: *nowhere\n", 1, 8,
                       "invalid YAML: found undefined alias");
    /* libyaml's reader reports a byte offset, turned into line and column. */
    expect_parse_error("model: x\ntask: \x01\n", 2, 7,
                       "invalid YAML: control characters are not allowed");
}

static void test_config_top_level_not_mapping(void **state)
{
    (void)state;
    expect_parse_error("- a\n- b\n", 1, 1, "the top level must be a mapping");
    expect_parse_error("\n  42\n", 2, 3, "the top level must be a mapping");
    expect_parse_error("", 1, 1, "the top level must be a mapping");
    expect_parse_error("# only a comment\n", 1, 1,
                       "the top level must be a mapping");
}

static void test_config_duplicate_key(void **state)
{
    (void)state;
    expect_parse_error("model: a\ntask: count\nmodel: b\n", 3, 1,
                       "duplicate key 'model'");
    expect_parse_error("params:\n  n: 1\n  n: 2\n", 3, 3, "duplicate key 'n'");
}

static void test_config_yaml_structure_limits(void **state)
{
    (void)state;
    expect_parse_error("? [a, b]\n: 1\n", 1, 3, "a key must be a scalar");
    expect_parse_error("model: x\n---\ntask: count\n", 2, 1,
                       "only one YAML document is allowed");
    expect_parse_error("params: &p {grid: *p}\n", 1, 9,
                       "an alias refers to its own ancestor");
}

/* "\0" would cut the C string: "nqueens\0x" ran N-Queens. */
static void test_config_nul_refused(void **state)
{
    (void)state;
    expect_parse_error("model: \"nqueens\\0x\"\nparams: {n: 6}\n", 1, 8,
                       "a value cannot hold a NUL character (\\0)");
    expect_parse_error("model: nqueens\nparams: {\"n\\0x\": 6}\n", 2, 10,
                       "a key cannot hold a NUL character (\\0)");
    expect_parse_error("x: [a, \"\\x00\"]\n", 1, 8,
                       "a value cannot hold a NUL character (\\0)");
}

/* prefix, n times open, middle, n times close and a newline; free it. */
static char *nested(const char *prefix, const char *open, const char *middle,
                    const char *close, size_t n)
{
    size_t size = strlen(prefix) + n * (strlen(open) + strlen(close)) +
                  strlen(middle) + 2;
    char *text = malloc(size), *p = text;
    assert_non_null(text);
    p += sprintf(p, "%s", prefix);
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s", open);
    p += sprintf(p, "%s", middle);
    for (size_t i = 0; i < n; i++)
        p += sprintf(p, "%s", close);
    strcpy(p, "\n");
    return text;
}

static void test_config_deep_nesting_refused_early(void **state)
{
    (void)state;
    /* 100,000 unclosed '[' are refused at the 1001st level below the top,
     * without reading the rest (libyaml takes seconds over it) and so
     * without noticing the brackets are never closed. */
    char *text = nested("", "[", "", "", 100000);
    expect_parse_error(text, 1, 1002, "nested deeper than 1000 levels");
    free(text);
    text = nested("a: ", "[", "", "]", 100000);
    expect_parse_error(text, 1, 1004, "nested deeper than 1000 levels");
    free(text);
    /* A map's key is no level; its value 1000 maps down is one too many. */
    text = nested("a: ", "{k: ", "", "}", 1000);
    expect_parse_error(text, 1, 4004, "nested deeper than 1000 levels");
    free(text);
    text = nested("a: ", "[", "", "]", 1000);
    cs_config_free(parse_ok(text));
    free(text);
    /* Aliases count as they expand: y's 500 levels, then x's 600, refused
     * at x's 501st '['. */
    char *x = nested("x: &a ", "[", "", "]", 600);
    char *prefix = malloc(strlen(x) + sizeof "y: ");
    assert_non_null(prefix);
    sprintf(prefix, "%sy: ", x);
    text = nested(prefix, "[", "*a", "]", 500);
    expect_parse_error(text, 1, 507, "nested deeper than 1000 levels");
    free(text);
    free(prefix);
    free(x);
}

/* Text of count lines, each line(i) written by the caller's format with i;
 * after the fixed head.  Free it. */
static char *lines(const char *head, const char *format, int count,
                   const char *tail)
{
    size_t size =
        strlen(head) + (size_t)count * (strlen(format) + 24) + strlen(tail) + 1;
    char *text = malloc(size), *p = text;
    assert_non_null(text);
    p += sprintf(p, "%s", head);
    for (int i = 0; i < count; i++)
        p += sprintf(p, format, i, i);
    strcpy(p, tail);
    return text;
}

/* "x-list: [7, 7, ...]" of count items.  Free it. */
static char *flow_list(int count)
{
    char *text = malloc(12 + 2 * (size_t)count), *p = text;
    assert_non_null(text);
    p += sprintf(p, "x-list: [");
    for (int i = 0; i < count; i++)
        p += sprintf(p, i ? ",7" : "7");
    strcpy(p, "]\n");
    return text;
}

/* 100,000 keys in one mapping took 101 s when each key was found by a scan
 * of the map; hashed, they take a fraction of a second (the test's timeout
 * is the check), and duplicates are still found. */
static void test_config_wide_map_is_hashed(void **state)
{
    (void)state;
    char *text = lines("params:\n  n: 5\nx-wide:\n", "  k%d: %d\n", 100000, "");
    struct cs_config *cfg = parse_ok(text);
    const struct cs_node *wide = cs_config_node(cfg, "x-wide");
    assert_int_equal(cs_node_len(wide), 100000);
    assert_string_equal(cs_node_text(cs_node_get(wide, "k0")), "0");
    assert_string_equal(cs_node_text(cs_node_get(wide, "k99999")), "99999");
    assert_null(cs_node_get(wide, "k100000"));
    struct cs_error err;
    assert_int_equal(cs_config_set(cfg, "x-wide.k70000=seven", &err), 0);
    assert_int_equal(cs_config_set(cfg, "x-wide.new=one", &err), 0);
    assert_string_equal(cs_node_text(cs_config_node(cfg, "x-wide.k70000")),
                        "seven");
    assert_string_equal(cs_node_text(cs_config_node(cfg, "x-wide.new")), "one");
    assert_int_equal(cs_node_len(wide), 100001);
    cs_config_free(cfg);
    free(text);
    text = lines("x-wide:\n", "  k%d: %d\n", 40000, "  k39998: again\n");
    expect_parse_error(text, 40002, 3, "duplicate key 'k39998'");
    free(text);
}

/* libyaml's anchors cost their count squared (40,000 took 7.6 s), and
 * every node about 300 bytes (8.3 M took 2.45 GB): both are counted before
 * libyaml builds its document. */
static void test_config_counts_refused_early(void **state)
{
    (void)state;
    char *text = lines("x-anchors:\n", "  - &a%d %d\n", 40000, "");
    expect_parse_error(text, 10002, 5, "more than 10000 anchors and aliases");
    free(text);
    text = lines("x-anchors:\n", "  - &a%d %d\n", 5000, "x-aliases: [*a0]\n");
    cs_config_free(parse_ok(text));
    free(text);
    /* nodes: the top, the list, then its items; item k at column 8 + 2k */
    text = flow_list(300000);
    expect_parse_error(text, 1, 8 + 2 * 249999,
                       "more than 250000 nodes: a config holds settings, not "
                       "bulk data");
    free(text);
    text = flow_list(249998);
    cs_config_free(parse_ok(text));
    free(text);
}

static void test_config_aliases_are_copied(void **state)
{
    (void)state;
    struct cs_config *cfg =
        check_ok("params:\n  n: 5\n  grid: [&row [1, 2], *row]\n");
    const struct cs_node *grid = cs_config_node(cfg, "params.grid");
    assert_int_equal(cs_node_len(grid), 2);
    assert_string_equal(cs_node_text(cs_node_at(cs_node_at(grid, 1), 1)), "2");
    assert_int_equal(cs_config_int(cfg, "params.n"), 5);
    cs_config_free(cfg);
}

/* Anchors live under a top-level "x-..." key, which the checker skips. */
static void test_config_scratch_keys_hold_anchors(void **state)
{
    (void)state;
    struct cs_config *cfg = check_ok("x-fast: &fast {select: mrv}\n"
                                     "model: m\nstrategy: *fast\n");
    assert_int_equal(cs_config_enum(cfg, "strategy.select"), 1);
    cs_config_free(cfg);
    /* only at the top: below it an x- key is as unknown as any other */
    expect_check_error("params:\n  x-n: 3\n", 2, 3,
                       "unknown key 'params.x-n'; did you mean 'params.n'?");
}

/* "<<" merges mappings in: the mapping's own keys win, then the earlier
 * mapping of a list; a merged key keeps its position in the anchor. */
static void test_config_merge_keys(void **state)
{
    (void)state;
    struct cs_config *cfg = check_ok("x-base: &base {n: 5, grid: [1]}\n"
                                     "x-more: &more {n: 7, grid: [2]}\n"
                                     "model: m\n"
                                     "params:\n"
                                     "  <<: [*base, *more]\n"
                                     "  grid: [3]\n"
                                     "strategy:\n  <<: {select: mrv}\n");
    assert_int_equal(cs_config_int(cfg, "params.n"), 5);
    assert_pos(cs_node_pos(cs_config_node(cfg, "params.n")), NAME, 1, 19);
    const struct cs_node *grid = cs_config_node(cfg, "params.grid");
    assert_string_equal(cs_node_text(cs_node_at(grid, 0)), "3");
    assert_int_equal(cs_config_enum(cfg, "strategy.select"), 1);
    cs_config_free(cfg);

    /* a quoted '<<' is an ordinary key */
    expect_check_error("params:\n  '<<': {n: 3}\n", 2, 3,
                       "unknown key 'params.<<'; did you mean 'params.n'?");
    expect_parse_error("params:\n  <<: 3\n", 2, 7,
                       "'<<' merges a mapping or a list of mappings: write "
                       "'<<: *name' with '&name' on a mapping, such as "
                       "'x-name: &name {key: value}' at the top");
    expect_parse_error("params:\n  <<: [{n: 3}, [1]]\n", 2, 16,
                       "'<<' merges a mapping or a list of mappings: write "
                       "'<<: *name' with '&name' on a mapping, such as "
                       "'x-name: &name {key: value}' at the top");
    expect_parse_error("x-a: &a {n: 3}\nparams:\n  <<: *a\n  <<: *a\n", 4, 3,
                       "duplicate key '<<': merge several mappings with one "
                       "'<<: [*a, *b]'");
    expect_parse_error("params: &p\n  <<: *p\n", 1, 9,
                       "an alias refers to its own ancestor");
}

static void test_config_load_missing_file(void **state)
{
    (void)state;
    struct cs_config *cfg = (struct cs_config *)&cfg;
    struct cs_error err = {0};
    const char *path = "/nonexistent/csearch/missing.yaml";
    assert_int_equal(cs_config_load(&cfg, path, &err), -1);
    assert_null(cfg);
    assert_error(&err, path, 0, 0, "cannot open: No such file or directory");
}

static void test_config_load_directory(void **state)
{
    (void)state;
    struct cs_config *cfg = NULL;
    struct cs_error err = {0};
    assert_int_equal(cs_config_load(&cfg, "/", &err), -1);
    assert_null(cfg);
    assert_error(&err, "/", 0, 0, "cannot read: Is a directory");
}

/* a device has no end: refused by its type before a byte is read */
static void test_config_load_device(void **state)
{
    (void)state;
    struct cs_config *cfg = NULL;
    struct cs_error err = {0};
    assert_int_equal(cs_config_load(&cfg, "/dev/zero", &err), -1);
    assert_null(cfg);
    assert_error(&err, "/dev/zero", 0, 0,
                 "cannot read: not a regular file or a pipe");
}

static void test_config_load_file(void **state)
{
    (void)state;
    const char *dir = getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
    char path[512];
    snprintf(path, sizeof path, "%s/test_config_XXXXXX", dir);
    int fd = mkstemp(path);
    assert_true(fd >= 0);
    const char text[] = "model: nqueens\nparams:\n  n: 70\n";
    assert_int_equal(write(fd, text, sizeof text - 1),
                     (ssize_t)(sizeof text - 1));
    close(fd);

    struct cs_config *cfg = NULL;
    struct cs_error err = {0};
    int rc = cs_config_load(&cfg, path, &err);
    unlink(path);
    assert_int_equal(rc, 0);
    assert_string_equal(cs_config_file(cfg), path);
    assert_pos(cs_node_pos(cs_config_node(cfg, "model")), path, 1, 8);
    assert_int_equal(cs_config_check(cfg, tables, &err), -1);
    assert_error(&err, path, 3, 6,
                 "'params.n' must be between 1 and 64, not 70");
    cs_config_free(cfg);
}

/* ---- checking ----------------------------------------------------------- */

/* ---- overrides ---------------------------------------------------------- */

static void test_config_set_replaces_value(void **state)
{
    (void)state;
    struct cs_config *cfg = parse_ok("params:\n  n: 8\nmodel: nqueens\n");
    struct cs_error err = {0};
    assert_int_equal(cs_config_set(cfg, "params.n=12", &err), 0);
    assert_int_equal(cs_config_set(cfg, "model='my model'", &err), 0);
    assert_int_equal(cs_config_check(cfg, tables, &err), 0);
    assert_int_equal(cs_config_int(cfg, "params.n"), 12);
    assert_string_equal(cs_config_str(cfg, "model"), "my model");
    assert_pos(cs_config_pos(cfg, "params.n"), "--set params.n=12", 0, 0);
    /* The key keeps its place in the file; only the value is overridden. */
    const struct cs_node *params = cs_config_node(cfg, "params");
    assert_int_equal(cs_node_len(params), 1);
    assert_pos(cs_node_key_pos(params, 0), NAME, 2, 3);

    assert_int_equal(cs_config_set(cfg, "model=\"x\"", &err), 0);
    assert_string_equal(cs_config_str(cfg, "model"), "x");
    /* Unmatched quotes are kept as they are. */
    assert_int_equal(cs_config_set(cfg, "model=\"x'", &err), 0);
    assert_string_equal(cs_config_str(cfg, "model"), "\"x'");
    cs_config_free(cfg);
}

static void test_config_set_replaces_any_kind(void **state)
{
    (void)state;
    struct cs_config *cfg = parse_ok("params:\n  n: 8\n");
    struct cs_error err = {0};
    assert_int_equal(cs_config_set(cfg, "params=3", &err), 0);
    assert_int_equal(cs_config_check(cfg, tables, &err), -1);
    assert_error(&err, "--set params=3", 0, 0, "'params' must be a mapping");
    cs_config_free(cfg);
}

static void test_config_set_inserts_section(void **state)
{
    (void)state;
    struct cs_config *cfg = parse_ok("model: nqueens\n");
    struct cs_error err = {0};
    assert_int_equal(cs_config_set(cfg, "strategy.select=mrv", &err), 0);
    assert_int_equal(cs_config_set(cfg, "params.n=", &err), 0);
    const struct cs_node *root = cs_config_root(cfg);
    assert_int_equal(cs_node_len(root), 3);
    assert_string_equal(cs_node_key(root, 1), "strategy");
    assert_pos(cs_node_key_pos(root, 1), "--set strategy.select=mrv", 0, 0);
    assert_int_equal(cs_node_kind(cs_node_at(root, 1)), CS_NODE_MAP);
    assert_pos(cs_node_pos(cs_node_at(root, 1)), "--set strategy.select=mrv", 0,
               0);
    /* An empty value is an empty string, which params.n then refuses. */
    assert_int_equal(cs_config_check(cfg, tables, &err), -1);
    assert_error(&err, "--set params.n=", 0, 0,
                 "'params.n' must be an integer, not ''");
    assert_int_equal(cs_config_set(cfg, "params.n=10", &err), 0);
    assert_int_equal(cs_config_check(cfg, tables, &err), 0);
    assert_int_equal(cs_config_enum(cfg, "strategy.select"), 1);
    assert_int_equal(cs_config_int(cfg, "params.n"), 10);
    cs_config_free(cfg);

    /* Into an empty config too, and the value may itself contain '='. */
    cfg = cs_config_new("empty");
    assert_string_equal(cs_config_file(cfg), "empty");
    assert_int_equal(cs_node_kind(cs_config_root(cfg)), CS_NODE_MAP);
    assert_int_equal(cs_node_len(cs_config_root(cfg)), 0);
    assert_int_equal(cs_config_set(cfg, "model=a=b", &err), 0);
    assert_int_equal(cs_config_check(cfg, tables, &err), 0);
    assert_string_equal(cs_config_str(cfg, "model"), "a=b");
    assert_pos(cs_config_pos(cfg, "task"), "empty", 0, 0);
    cs_config_free(cfg);
}

static void test_config_set_bad_syntax(void **state)
{
    (void)state;
    static const char *const bad[] = {"params.n", "=3",   "a..b=1",
                                      ".a=1",     "a.=1", ""};
    struct cs_config *cfg = parse_ok("model: x\n");
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        struct cs_error err = {0};
        char msg[128];
        snprintf(msg, sizeof msg, "expected KEY=VALUE, got '%s'", bad[i]);
        assert_int_equal(cs_config_set(cfg, bad[i], &err), -1);
        assert_error(&err, "--set", 0, 0, msg);
    }
    assert_int_equal(cs_node_len(cs_config_root(cfg)), 1);
    cs_config_free(cfg);
}

static void test_config_set_into_non_map(void **state)
{
    (void)state;
    struct cs_config *cfg = parse_ok("model: nqueens\nparams: {n: 3}\n");
    struct cs_error err = {0};
    assert_int_equal(cs_config_set(cfg, "model.x=1", &err), -1);
    assert_error(&err, "--set model.x=1", 0, 0, "'model' is not a mapping");
    assert_int_equal(cs_config_set(cfg, "params.n.deep.x=1", &err), -1);
    assert_error(&err, "--set params.n.deep.x=1", 0, 0,
                 "'params.n' is not a mapping");
    /* Nothing was created on the way. */
    assert_int_equal(cs_node_len(cs_config_node(cfg, "params")), 1);
    assert_string_equal(cs_node_text(cs_config_node(cfg, "params.n")), "3");
    cs_config_free(cfg);
}

/* ---- the tree ----------------------------------------------------------- */

static void test_config_node_accessors(void **state)
{
    (void)state;
    struct cs_config *cfg = parse_ok("params:\n"
                                     "  grid:\n"
                                     "    - [1, 2]\n"
                                     "    - {a: x, b: 'y z'}\n");
    const struct cs_node *params = cs_config_node(cfg, "params");
    assert_int_equal(cs_node_kind(params), CS_NODE_MAP);
    assert_null(cs_node_text(params));
    assert_int_equal(cs_node_len(params), 1);
    assert_string_equal(cs_node_key(params, 0), "grid");
    assert_pos(cs_node_key_pos(params, 0), NAME, 2, 3);
    assert_null(cs_node_key(params, 1));

    const struct cs_node *grid = cs_node_get(params, "grid");
    assert_ptr_equal(grid, cs_node_at(params, 0));
    assert_ptr_equal(grid, cs_config_node(cfg, "params.grid"));
    assert_int_equal(cs_node_kind(grid), CS_NODE_SEQ);
    assert_pos(cs_node_pos(grid), NAME, 3, 5);
    assert_int_equal(cs_node_len(grid), 2);
    assert_null(cs_node_at(grid, 2));
    assert_null(cs_node_key(grid, 0));
    assert_null(cs_node_get(grid, "a"));

    const struct cs_node *row = cs_node_at(grid, 0);
    assert_int_equal(cs_node_kind(row), CS_NODE_SEQ);
    assert_pos(cs_node_pos(row), NAME, 3, 7);
    assert_string_equal(cs_node_text(cs_node_at(row, 1)), "2");
    assert_pos(cs_node_pos(cs_node_at(row, 1)), NAME, 3, 11);

    const struct cs_node *cell = cs_node_at(grid, 1);
    assert_int_equal(cs_node_kind(cell), CS_NODE_MAP);
    assert_pos(cs_node_pos(cell), NAME, 4, 7);
    assert_string_equal(cs_node_key(cell, 1), "b");
    assert_pos(cs_node_key_pos(cell, 1), NAME, 4, 14);
    const struct cs_node *b = cs_node_get(cell, "b");
    assert_int_equal(cs_node_kind(b), CS_NODE_SCALAR);
    assert_string_equal(cs_node_text(b), "y z");
    assert_pos(cs_node_pos(b), NAME, 4, 17);
    assert_int_equal(cs_node_len(b), 0);
    assert_null(cs_node_at(b, 0));
    assert_null(cs_node_get(cell, "c"));

    assert_null(cs_config_node(cfg, "params.grid.x"));
    assert_null(cs_config_node(cfg, "nothing"));
    cs_config_free(cfg);
}

static void test_config_node_conversions(void **state)
{
    (void)state;
    struct cs_config *cfg =
        parse_ok("v: [-42, 9223372036854775808, 0.25, On, x, [1]]\n");
    const struct cs_node *v = cs_config_node(cfg, "v");
    struct cs_error err = {0};
    int64_t i = 0;
    double r = 0;
    bool b = false;

    assert_int_equal(cs_node_int(cs_node_at(v, 0), "v[0]", &i, &err), 0);
    assert_int_equal(i, -42);
    assert_int_equal(cs_node_int(cs_node_at(v, 1), "v[1]", &i, &err), -1);
    assert_error(&err, NAME, 1, 10,
                 "'v[1]' must be between -9223372036854775808 and "
                 "9223372036854775807, not 9223372036854775808");
    assert_int_equal(cs_node_int(cs_node_at(v, 4), "v[4]", &i, &err), -1);
    assert_error(&err, NAME, 1, 41, "'v[4]' must be an integer, not 'x'");
    /* with a range of its own, beyond 64 bits says that range */
    assert_int_equal(cs_node_int_in(cs_node_at(v, 1), "v[1]", 0, 10, &i, &err),
                     -1);
    assert_error(&err, NAME, 1, 10,
                 "'v[1]' must be between 0 and 10, not 9223372036854775808");
    assert_int_equal(cs_node_int_in(cs_node_at(v, 0), "v[0]", 0, 10, &i, &err),
                     -1);
    assert_error(&err, NAME, 1, 5, "'v[0]' must be between 0 and 10, not -42");
    assert_int_equal(cs_node_int_in(cs_node_at(v, 0), "v[0]", -50, 0, &i, &err),
                     0);
    assert_int_equal(i, -42);
    assert_int_equal(cs_node_int(cs_node_at(v, 5), "v[5]", &i, &err), -1);
    assert_error(&err, NAME, 1, 44,
                 "'v[5]' must be an integer, not a sequence");

    assert_int_equal(cs_node_real(cs_node_at(v, 2), "v[2]", &r, &err), 0);
    assert_true(r == 0.25);
    assert_int_equal(cs_node_real(cs_node_at(v, 4), "v[4]", &r, &err), -1);
    assert_error(&err, NAME, 1, 41, "'v[4]' must be a number, not 'x'");

    assert_int_equal(cs_node_bool(cs_node_at(v, 3), "v[3]", &b, &err), 0);
    assert_true(b);
    assert_int_equal(cs_node_bool(cs_node_at(v, 0), "v[0]", &b, &err), -1);
    assert_error(&err, NAME, 1, 5, "'v[0]' must be true or false, not '-42'");
    cs_config_free(cfg);
}

static void test_config_free_null(void **state)
{
    (void)state;
    cs_config_free(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_config_malformed_yaml),
        cmocka_unit_test(test_config_top_level_not_mapping),
        cmocka_unit_test(test_config_duplicate_key),
        cmocka_unit_test(test_config_yaml_structure_limits),
        cmocka_unit_test(test_config_nul_refused),
        cmocka_unit_test(test_config_deep_nesting_refused_early),
        cmocka_unit_test(test_config_wide_map_is_hashed),
        cmocka_unit_test(test_config_counts_refused_early),
        cmocka_unit_test(test_config_aliases_are_copied),
        cmocka_unit_test(test_config_scratch_keys_hold_anchors),
        cmocka_unit_test(test_config_merge_keys),
        cmocka_unit_test(test_config_load_missing_file),
        cmocka_unit_test(test_config_load_directory),
        cmocka_unit_test(test_config_load_device),
        cmocka_unit_test(test_config_load_file),
        cmocka_unit_test(test_config_set_replaces_value),
        cmocka_unit_test(test_config_set_replaces_any_kind),
        cmocka_unit_test(test_config_set_inserts_section),
        cmocka_unit_test(test_config_set_bad_syntax),
        cmocka_unit_test(test_config_set_into_non_map),
        cmocka_unit_test(test_config_node_accessors),
        cmocka_unit_test(test_config_node_conversions),
        cmocka_unit_test(test_config_free_null),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
