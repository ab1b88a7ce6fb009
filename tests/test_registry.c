/* test_registry.c - models by name, and models loaded from plugins.
 *
 * The two example models (examples/) are built in this tree as plugins and
 * loaded the way the csearch command loads them; the broken plugins of
 * plugins.c are refused with the exact message a user would see, and leave
 * nothing registered.  Counts are exact: the searches are deterministic.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <stdio.h>
#include <string.h>

#include "csearch/job.h"

#define AUSTRALIA_IN(colours)                                                  \
    "model: map\n"                                                             \
    "params:\n"                                                                \
    "  colours: " colours "\n"                                                 \
    "  map:\n"                                                                 \
    "    WA: [NT, SA]\n"                                                       \
    "    NT: [WA, SA, Q]\n"                                                    \
    "    SA: [WA, NT, Q, NSW, V]\n"                                            \
    "    Q: [NT, SA, NSW]\n"                                                   \
    "    NSW: [Q, SA, V]\n"                                                    \
    "    V: [SA, NSW]\n"                                                       \
    "    T: []\n"
#define AUSTRALIA AUSTRALIA_IN("[red, green, blue]")

static const struct cs_pos at = {"test.yaml", 1, 9};

/* The built-ins plus the plugin at path (loaded without an error). */
static struct cs_registry *registry_with(const char *path)
{
    struct cs_registry *reg = cs_registry_new();
    struct cs_error err;
    assert_int_equal(cs_register_builtin_models(reg, &err), 0);
    if (path && cs_registry_load_plugin(reg, path, at, &err))
        fail_msg("%s: %s", path, err.msg);
    return reg;
}

static const char *load_error(const char *path)
{
    static char msg[1024];
    struct cs_registry *reg = registry_with(NULL);
    struct cs_error err;
    assert_int_equal(cs_registry_load_plugin(reg, path, at, &err), -1);
    cs_error_format(&err, msg, sizeof msg);
    cs_registry_free(reg);
    return msg;
}

static struct cs_config *config(const char *text, const char *const *sets)
{
    struct cs_config *cfg = NULL;
    struct cs_error err;
    if (cs_config_parse(&cfg, "test.yaml", text, strlen(text), &err))
        fail_msg("%s", err.msg);
    for (; sets && *sets; sets++)
        if (cs_config_set(cfg, *sets, &err))
            fail_msg("%s: %s", *sets, err.msg);
    return cfg;
}

/* The first solution's lines, joined with '|'. */
static bool keep_first(void *ud, const struct cs_hooks *hooks,
                       const void *state, uint64_t weight)
{
    char *first = ud;
    struct cs_board board = {0};
    (void)weight;
    if (first[0])
        return true;
    hooks->emit(state, 0, &board);
    for (size_t i = 0; i < board.count; i++)
        snprintf(first + strlen(first), 1024 - strlen(first), "%s%s",
                 i ? "|" : "", board.lines[i]);
    cs_board_free(&board);
    return true;
}

/* Run text + sets with the plugin; *first gets the first solution. */
static struct cs_stats run_plugin(const char *plugin, const char *text,
                                  const char *const *sets, char *first)
{
    struct cs_registry *reg = registry_with(plugin);
    struct cs_config *cfg = config(text, sets);
    struct cs_error err;
    struct cs_job job;
    struct cs_result run;
    struct cs_spec spec;
    if (cs_job_setup(&job, cfg, reg, NULL, &err))
        fail_msg("setup: %s", err.msg);
    cs_job_spec(&job, &spec, NULL);
    spec.on_solution = keep_first;
    spec.ud = first;
    first[0] = '\0';
    assert_int_equal(cs_search(&spec, NULL, &run, &err), 0);
    assert_int_equal(run.status, CS_COMPLETE);
    cs_job_free(&job);
    cs_config_free(cfg);
    cs_registry_free(reg);
    return run.stats;
}

static const char *setup_error(const char *plugin, const char *text,
                               const char *const *sets)
{
    static char msg[1024];
    struct cs_registry *reg = registry_with(plugin);
    struct cs_config *cfg = config(text, sets);
    struct cs_error err;
    struct cs_job job;
    if (!cs_job_setup(&job, cfg, reg, NULL, &err))
        fail_msg("setup succeeded, an error was expected");
    cs_error_format(&err, msg, sizeof msg);
    cs_config_free(cfg);
    cs_registry_free(reg);
    return msg;
}

#define EXPECT_STATS(s, sol, nod, chk, fal)                                    \
    do {                                                                       \
        assert_int_equal((s).solutions, sol);                                  \
        assert_int_equal((s).nodes, nod);                                      \
        assert_int_equal((s).checks, chk);                                     \
        assert_int_equal((s).fails, fal);                                      \
    } while (0)

/* ---- the example models, loaded as plugins ------------------------------ */

static void test_registry_map_plugin_counts(void **unused)
{
    (void)unused;
    char first[1024];
    struct cs_stats s = run_plugin(PLUGIN_MAP, AUSTRALIA, NULL, first);
    EXPECT_STATS(s, 18, 52, 102, 0);
    const char *mrv[] = {"strategy.select=mrv", NULL};
    s = run_plugin(PLUGIN_MAP, AUSTRALIA, mrv, first);
    EXPECT_STATS(s, 18, 52, 102, 0);
    const char *forward[] = {"strategy.select=mrv", "strategy.prune=forward",
                             NULL};
    s = run_plugin(PLUGIN_MAP, AUSTRALIA, forward, first);
    EXPECT_STATS(s, 18, 52, 156, 0);
    /* two colours cannot do: the triangle WA-NT-SA */
    s = run_plugin(PLUGIN_MAP, AUSTRALIA_IN("[red, green]"), NULL, first);
    EXPECT_STATS(s, 0, 5, 10, 2);
    const char *solve[] = {"task=solve", "strategy.select=mrv", NULL};
    s = run_plugin(PLUGIN_MAP, AUSTRALIA, solve, first);
    EXPECT_STATS(s, 1, 8, 11, 0);
    assert_string_equal(first, "WA   red|NT   green|SA   blue|Q    red|"
                               "NSW  green|V    red|T    red");
}

static void test_registry_knight_plugin_counts(void **unused)
{
    (void)unused;
    char first[1024];
    const char *text = "model: knight\nparams: {rows: 3, cols: 4}\n";
    struct cs_stats s = run_plugin(PLUGIN_KNIGHT, text, NULL, first);
    EXPECT_STATS(s, 2, 67, 150, 13);
    assert_string_equal(first, "  3  6 11  8| 12  9  2  5|  1  4  7 10");
    /* closed: the prune cuts paths that took every square next to a1
     * (b3, c2), the goal rejects open tours that end elsewhere */
    const char *closed[] = {"params.closed=true", NULL};
    s = run_plugin(PLUGIN_KNIGHT, text, closed, first);
    EXPECT_STATS(s, 0, 54, 110, 14);
    const char *closed5[] = {"params.closed=true", "params.rows=5",
                             "params.cols=5", NULL};
    s = run_plugin(PLUGIN_KNIGHT, text, closed5, first);
    EXPECT_STATS(s, 0, 322707, 924482, 129466);
    const char *closed6[] = {"params.closed=true",
                             "params.rows=6",
                             "params.cols=6",
                             "task=solve",
                             "strategy.order=warnsdorff",
                             NULL};
    s = run_plugin(PLUGIN_KNIGHT, text, closed6, first);
    EXPECT_STATS(s, 1, 38, 154, 2);
    assert_string_equal(first, " 18  9  6 25 16 31|  7 26 17 32  5 24|"
                               " 10 19  8 23 30 15| 27 36 29 14 33  4|"
                               " 20 11  2 35 22 13|  1 28 21 12  3 34");

    /* 5 x 5 from a corner: 304 tours, whatever the order of the values */
    const char *five[] = {"params.rows=5", "params.cols=5", NULL};
    s = run_plugin(PLUGIN_KNIGHT, text, five, first);
    EXPECT_STATS(s, 304, 1735079, 6191826, 625004);
    const char *five_w[] = {"params.rows=5", "params.cols=5",
                            "strategy.order=warnsdorff", NULL};
    s = run_plugin(PLUGIN_KNIGHT, text, five_w, first);
    EXPECT_STATS(s, 304, 1735079, 6191826, 625004);

    /* the first tour: 8840 nodes in board order, 25 with Warnsdorff */
    const char *solve[] = {"params.rows=5", "params.cols=5", "task=solve",
                           NULL};
    s = run_plugin(PLUGIN_KNIGHT, text, solve, first);
    EXPECT_STATS(s, 1, 8840, 31212, 3318);
    assert_string_equal(first,
                        " 21 16 11  4 23| 10  5 22 17 12| 15 20  7 24  3|"
                        "  6  9  2 13 18|  1 14 19  8 25");
    const char *eight_w[] = {"params.rows=8", "params.cols=8", "task=solve",
                             "strategy.order=warnsdorff", NULL};
    s = run_plugin(PLUGIN_KNIGHT, text, eight_w, first);
    EXPECT_STATS(s, 1, 64, 330, 0);
    assert_string_equal(first,
                        " 16 31 12 51 26 29 10 63| 13 50 15 30 11 64 25 28|"
                        " 32 17 52 47 54 27 62  9| 49 14 55 36 61 38 45 24|"
                        " 18 33 48 53 46 59  8 39|  3 56 35 60 37 42 23 44|"
                        " 34 19  2  5 58 21 40  7|  1  4 57 20 41  6 43 22");
}

/* A plugin's model is checked like a built-in one: its option table, its
 * own messages at the right place, what it cannot do. */
static void test_registry_plugin_models_check_their_config(void **unused)
{
    (void)unused;
    const char *knight = "model: knight\nstrategy: {ordr: board}\n";
    assert_string_equal(setup_error(PLUGIN_KNIGHT, knight, NULL),
                        "test.yaml:2:12: unknown key 'strategy.ordr'; did you "
                        "mean 'strategy.order'?");
    knight = "model: knight\n";
    const char *mrv[] = {"strategy.select=mrv", NULL};
    assert_string_equal(setup_error(PLUGIN_KNIGHT, knight, mrv),
                        "--set strategy.select=mrv: model knight cannot "
                        "select mrv with these settings");
    const char *start[] = {"params.start=f1", NULL};
    assert_string_equal(setup_error(PLUGIN_KNIGHT, knight, start),
                        "--set params.start=f1: 'params.start' must be a "
                        "square of the 5 x 5 board, a1 to e5, not 'f1'");
    const char *rows[] = {"params.rows=9", NULL};
    assert_string_equal(setup_error(PLUGIN_KNIGHT, knight, rows),
                        "--set params.rows=9: 'params.rows' must be between 1 "
                        "and 8, not 9");

    assert_string_equal(
        setup_error(PLUGIN_MAP,
                    "model: map\nparams:\n  colours: [red, red]\n"
                    "  map: {A: [B], B: []}\n",
                    NULL),
        "test.yaml:3:18: colour 'red' is listed twice");
    assert_string_equal(setup_error(PLUGIN_MAP,
                                    "model: map\nparams:\n  colours: [red]\n"
                                    "  map: {A: [B], B: [C]}\n",
                                    NULL),
                        "test.yaml:4:21: 'C' is not a region of params.map");
    assert_string_equal(setup_error(PLUGIN_MAP,
                                    "model: map\nparams:\n  colours: [red]\n"
                                    "  map: {A: [A]}\n",
                                    NULL),
                        "test.yaml:4:13: region 'A' cannot border itself");
    assert_string_equal(
        setup_error(PLUGIN_MAP,
                    "model: map\nparams:\n  colours: [red]\n"
                    "  map: {A: B}\n",
                    NULL),
        "test.yaml:4:12: the borders of 'A' must be a list of regions ([] "
        "for none)");
    assert_string_equal(
        setup_error(PLUGIN_MAP, "model: map\nparams:\n  map: {A: []}\n", NULL),
        "test.yaml:3:3: missing key 'params.colours'");
    assert_string_equal(setup_error(PLUGIN_MAP,
                                    "# no map\nmodel: map\nparams:\n"
                                    "  colours: [red]\n",
                                    NULL),
                        "test.yaml:4:3: missing key 'params.map'");
    assert_string_equal(setup_error(PLUGIN_MAP, "model: map\n", NULL),
                        "test.yaml:1:1: missing key 'params.map'");
    assert_string_equal(
        setup_error(PLUGIN_MAP,
                    "model: map\nparams:\n  colours: red\n"
                    "  map: {A: []}\n",
                    NULL),
        "test.yaml:3:12: 'params.colours' must be a list of 1 to 16 colour "
        "names");
}

/* ---- plugins that are refused ------------------------------------------ */

static void test_registry_plugin_refusals(void **unused)
{
    (void)unused;
    char want[1024];
    snprintf(want, sizeof want,
             "test.yaml:1:9: plugin '%s' was built for ABI version %d, this "
             "csearch has %d",
             PLUGIN_CASE_1, CS_ABI_VERSION + 1, CS_ABI_VERSION);
    assert_string_equal(load_error(PLUGIN_CASE_1), want);
    snprintf(want, sizeof want, "test.yaml:1:9: plugin '%s' holds no model",
             PLUGIN_CASE_2);
    assert_string_equal(load_error(PLUGIN_CASE_2), want);
    snprintf(want, sizeof want,
             "test.yaml:1:9: plugin '%s': model 'nqueens' is registered "
             "twice",
             PLUGIN_CASE_3);
    assert_string_equal(load_error(PLUGIN_CASE_3), want);
    snprintf(want, sizeof want,
             "test.yaml:1:9: plugin '%s': model 'old' was built for ABI "
             "version %d, this csearch has %d",
             PLUGIN_CASE_4, CS_ABI_VERSION - 1, CS_ABI_VERSION);
    assert_string_equal(load_error(PLUGIN_CASE_4), want);
    snprintf(want, sizeof want,
             "test.yaml:1:9: '%s' is not a csearch plugin: it has no symbol "
             "csearch_plugin",
             PLUGIN_CASE_5);
    assert_string_equal(load_error(PLUGIN_CASE_5), want);
    /* a model lacking a part the CLI or the engine relies on */
    static const struct {
        const char *path, *what;
    } lacking[] = {
        {PLUGIN_CASE_6, "a model has no name"},
        {PLUGIN_CASE_7, "model 'idle' has no setup"},
        {PLUGIN_CASE_8, "model 'bare' has no options table"},
        {PLUGIN_CASE_9, "model 'lazy' has no task"},
        {PLUGIN_CASE_10, "model 'mute' has no summary"},
    };
    for (size_t i = 0; i < sizeof lacking / sizeof lacking[0]; i++) {
        snprintf(want, sizeof want, "test.yaml:1:9: plugin '%s': %s",
                 lacking[i].path, lacking[i].what);
        assert_string_equal(load_error(lacking[i].path), want);
    }
    assert_string_equal(load_error("/nonexistent/libnothing.so"),
                        "test.yaml:1:9: cannot load plugin: "
                        "/nonexistent/libnothing.so: cannot open shared "
                        "object file: No such file or directory");
}

/* A plugin refused half-way leaves none of its models behind. */
static void test_registry_plugin_all_or_nothing(void **unused)
{
    (void)unused;
    struct cs_registry *reg = registry_with(NULL);
    struct cs_error err;
    size_t before = cs_registry_count(reg);
    assert_int_equal(cs_registry_load_plugin(reg, PLUGIN_CASE_3, at, &err), -1);
    assert_null(cs_registry_find(reg, "fresh"));
    assert_int_equal(cs_registry_count(reg), before);
    assert_string_equal(cs_registry_find(reg, "nqueens")->summary,
                        "place n queens on an n x n board, none attacking "
                        "another");
    /* the registry goes on working: a good plugin after a bad one */
    assert_int_equal(cs_registry_load_plugin(reg, PLUGIN_MAP, at, &err), 0);
    assert_int_equal(cs_registry_count(reg), before + 1);
    assert_non_null(cs_registry_find(reg, "map"));
    cs_registry_free(reg);
}

/* plugin: in a config is relative to the config's folder; from --set, to
 * the working directory; a bare name is a path, not a library search. */
static const char *config_plugin_error(const char *name, const char *text,
                                       const char *set)
{
    static char msg[1024];
    struct cs_registry *reg = registry_with(NULL);
    struct cs_config *cfg = NULL;
    struct cs_error err;
    assert_int_equal(cs_config_parse(&cfg, name, text, strlen(text), &err), 0);
    if (set)
        assert_int_equal(cs_config_set(cfg, set, &err), 0);
    assert_int_equal(cs_registry_load_config_plugin(reg, cfg, &err), -1);
    cs_error_format(&err, msg, sizeof msg);
    cs_config_free(cfg);
    cs_registry_free(reg);
    return msg;
}

static void test_registry_config_plugin_paths(void **unused)
{
    (void)unused;
    const char *text = "model: map\nplugin: build/libnone.so\n";
    assert_string_equal(config_plugin_error("maps/x.yaml", text, NULL),
                        "maps/x.yaml:2:9: cannot load plugin: "
                        "maps/build/libnone.so: cannot open shared object "
                        "file: No such file or directory");
    assert_string_equal(
        config_plugin_error("x.yaml", "plugin: libnone.so\n", NULL),
        "x.yaml:1:9: cannot load plugin: ./libnone.so: cannot "
        "open shared object file: No such file or directory");
    assert_string_equal(
        config_plugin_error("maps/x.yaml", text, "plugin=lib/libnone.so"),
        "--set plugin=lib/libnone.so: cannot load plugin: "
        "lib/libnone.so: cannot open shared object file: No "
        "such file or directory");
    assert_string_equal(
        config_plugin_error("maps/x.yaml", "plugin: /no/libnone.so\n", NULL),
        "maps/x.yaml:1:9: cannot load plugin: /no/libnone.so: "
        "cannot open shared object file: No such file or "
        "directory");
    assert_string_equal(config_plugin_error("x.yaml", "plugin: [a, b]\n", NULL),
                        "x.yaml:1:9: 'plugin' must be the path of a shared "
                        "library");
    assert_string_equal(config_plugin_error("x.yaml", "plugin: ''\n", NULL),
                        "x.yaml:1:9: 'plugin' must be the path of a shared "
                        "library");

    /* no plugin key: nothing to do; an absolute path loads */
    struct cs_registry *reg = registry_with(NULL);
    struct cs_config *cfg = config("model: nqueens\n", NULL);
    struct cs_error err;
    assert_int_equal(cs_registry_load_config_plugin(reg, cfg, &err), 0);
    assert_int_equal(cs_config_set(cfg, "plugin=" PLUGIN_MAP, &err), 0);
    assert_int_equal(cs_registry_load_config_plugin(reg, cfg, &err), 0);
    assert_non_null(cs_registry_find(reg, "map"));
    cs_config_free(cfg);
    cs_registry_free(reg);
}

/* limits.seconds is the whole run's: the model's set-up is spent from it
 * (cs_job_setup), the search gets the rest, and at least an instant. */
static void test_registry_limit_counts_the_setup(void **unused)
{
    (void)unused;
    assert_true(cs_limit_left(60, 4.5) == 55.5);
    assert_true(cs_limit_left(60, 0) == 60);
    assert_true(cs_limit_left(2, 3) == 1e-9); /* set-up took it all */
    assert_true(cs_limit_left(2, 2) == 1e-9);
    assert_true(cs_limit_left(1e-12, 1) == 1e-12);
    assert_true(cs_limit_left(0, 5) == 0); /* no limit stays none */
    struct cs_registry *reg = registry_with(PLUGIN_MAP);
    const char *sets[] = {"limits.seconds=60", NULL};
    struct cs_config *cfg = config(AUSTRALIA, sets);
    struct cs_error err;
    struct cs_job job;
    if (cs_job_setup(&job, cfg, reg, NULL, &err))
        fail_msg("setup: %s", err.msg);
    assert_true(job.limits.seconds < 60 && job.limits.seconds > 0);
    cs_job_free(&job);
    cs_config_free(cfg);
    cs_registry_free(reg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_registry_map_plugin_counts),
        cmocka_unit_test(test_registry_knight_plugin_counts),
        cmocka_unit_test(test_registry_plugin_models_check_their_config),
        cmocka_unit_test(test_registry_plugin_refusals),
        cmocka_unit_test(test_registry_plugin_all_or_nothing),
        cmocka_unit_test(test_registry_config_plugin_paths),
        cmocka_unit_test(test_registry_limit_counts_the_setup),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
