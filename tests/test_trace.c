/* test_trace.c - the trace as the engine reports it and the tracer keeps it:
 * the exact sequence of steps of the 4-queens search, counts that do not
 * change when a search is traced, the default names of a model without
 * naming hooks, the node cap, the compact record past the full ones, and
 * the refusal to trace a split search.
 */
#define _POSIX_C_SOURCE 200809L
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "csearch/trace.h"
#include "support.h"

/* A job set up from key=value strings, with its registry. */
struct fixture {
    struct cs_registry *reg;
    struct cs_config *cfg;
    struct cs_job job;
    struct cs_spec spec;
    struct cs_split split;
    struct cs_result run;
};

/* sets' output.* keys are the CLI's: here they only say that the run is
 * traced, which the job is told instead of reading them. */
static void setup(struct fixture *f, const char *const *sets)
{
    struct cs_error err;
    const char *kept[16];
    struct cs_job_request req = {0};
    size_t n = 0;
    for (; *sets; sets++)
        if (strncmp(*sets, "output.", 7))
            kept[n++] = *sets;
        else
            req.tracing = true;
    kept[n] = NULL;
    f->reg = cs_registry_new();
    assert_int_equal(cs_register_builtin_models(f->reg, &err), 0);
    f->cfg = config_of(kept);
    if (cs_job_setup(&f->job, f->cfg, f->reg, &req, &err))
        fail_msg("setup: %s", err.msg);
    cs_job_spec(&f->job, &f->spec, &f->split);
}

static void search(struct fixture *f)
{
    struct cs_error err;
    if (cs_search(&f->spec, &f->split, &f->run, &err))
        fail_msg("search: %s", err.msg);
}

/* A tracer following f's run. */
static struct cs_tracer *attach(struct fixture *f,
                                const struct cs_trace_options *opts)
{
    struct cs_tracer *t = cs_tracer_new(&f->job.problem, opts);
    f->spec.on_trace = cs_tracer_step;
    f->spec.trace_ud = t;
    return t;
}

static void teardown(struct fixture *f)
{
    cs_job_free(&f->job);
    cs_config_free(f->cfg);
    cs_registry_free(f->reg);
}

/* Steps as letters: Node, Pruned, Solution, Rejected, Dead end, Undo. */
struct steps {
    char kinds[256];
    size_t count;
    struct cs_trace_event first_solution;
};

static void on_step(void *ud, const struct cs_trace_event *ev,
                    const struct cs_hooks *hooks, const void *state)
{
    struct steps *s = ud;
    (void)hooks;
    (void)state;
    if (ev->kind == CS_TRACE_SOLUTION && !strchr(s->kinds, 'S'))
        s->first_solution = *ev;
    if (s->count + 1 < sizeof s->kinds)
        s->kinds[s->count++] = "NPSRDU"[ev->kind];
}

static void test_trace_4queens_steps(void **unused)
{
    (void)unused;
    static const char *const sets[] = {"model=nqueens", "params.n=4",
                                       "strategy.symmetry=none",
                                       "output.trace=true", NULL};
    struct fixture f;
    struct steps steps = {0};
    setup(&f, sets);
    f.spec.on_trace = on_step;
    f.spec.trace_ud = &steps;
    search(&f);
    /* row 0 = col 0: both rows 1 lead to dead ends; col 1 and col 2: one
     * solution each; col 3: two dead ends.  17 nodes, 16 undos. */
    assert_string_equal(steps.kinds, "NNNDUNNDUUU"
                                     "NNNSUUUU"
                                     "NNNSUUUU"
                                     "NNNDUUNDUU");
    assert_int_equal(steps.first_solution.depth, 4);
    assert_int_equal(steps.first_solution.var, 3);
    assert_int_equal(steps.first_solution.value, 2);
    assert_int_equal(steps.first_solution.branch, CS_NONE);
    assert_int_equal(f.run.stats.nodes, 17);
    assert_int_equal(f.run.stats.solutions, 2);
    teardown(&f);
}

/* The same settings traced and untraced: every count equal. */
static void test_trace_counts_unchanged(void **unused)
{
    (void)unused;
    static const char *const strategies[][3] = {
        {"strategy.symmetry=none", "strategy.state=bitmask", NULL},
        {"strategy.symmetry=mirror", "strategy.prune=forward", NULL},
        {"strategy.state=array", "strategy.select=mrv", NULL},
        {"strategy.symmetry=d4", "strategy.kernel=generic", NULL},
    };
    for (size_t i = 0; i < sizeof strategies / sizeof *strategies; i++) {
        const char *sets[] = {"model=nqueens",  "params.n=7", strategies[i][0],
                              strategies[i][1], NULL,         NULL};
        struct fixture plain, traced;
        setup(&plain, sets);
        search(&plain);
        sets[4] = "output.tree=unused.dot"; /* only to pick the state */
        setup(&traced, sets);
        struct cs_trace_options opts = {.record = true};
        struct cs_tracer *t = attach(&traced, &opts);
        search(&traced);
        const struct cs_stats *a = &plain.run.stats, *b = &traced.run.stats;
        assert_same_counts(a, b);
        assert_int_equal(cs_tracer_nodes(t), b->nodes);
        assert_int_equal(cs_tracer_recorded(t), b->nodes);
        cs_tracer_free(t);
        teardown(&plain);
        teardown(&traced);
    }
}

/* A table without names or describe: "x0 = 0" and the moves only. */
static void test_trace_default_names(void **unused)
{
    (void)unused;
    static const char *const sets[] = {"model=nqueens", "params.n=4",
                                       "strategy.symmetry=none",
                                       "output.trace=true", NULL};
    struct fixture f;
    setup(&f, sets);
    struct cs_hooks bare = *f.job.problem.hooks;
    bare.names = NULL;
    f.job.problem.hooks = &bare;
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_non_null(out);
    struct cs_trace_options opts = {.text = out};
    struct cs_tracer *t = attach(&f, &opts);
    search(&f);
    cs_tracer_end(t, &f.run);
    fclose(out);
    /* no state to show: no padding after the move */
    const char *expected = " 0  root\n"
                           " 1  x0 = 0\n"
                           " 2    x1 = 2\n"
                           "        -> dead end: x2 has no value\n"
                           "      undo x1 = 2\n";
    assert_memory_equal(text, expected, strlen(expected));
    cs_tracer_free(t);
    free(text);
    teardown(&f);
}

/* Five nodes kept of 17; the tree says how many it left out. */
static void test_trace_cap(void **unused)
{
    (void)unused;
    static const char *const sets[] = {"model=nqueens", "params.n=4",
                                       "strategy.symmetry=none",
                                       "output.tree=unused.dot", NULL};
    struct fixture f;
    setup(&f, sets);
    struct cs_trace_options opts = {.record = true, .max_nodes = 5};
    struct cs_tracer *t = attach(&f, &opts);
    search(&f);
    cs_tracer_end(t, &f.run);
    assert_int_equal(cs_tracer_nodes(t), 17);
    assert_int_equal(cs_tracer_recorded(t), 5);
    char *dot = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&dot, &size);
    assert_int_equal(cs_tracer_write_dot(t, out, "four"), 0);
    fclose(out);
    assert_non_null(strstr(dot, "n4 [label=\"row 2 = col 1\\ndead end\", "
                                "fillcolor=\"#f4c7c3\"];\n  n3 -> n4;\n"));
    assert_null(strstr(dot, "n5 ["));
    assert_non_null(strstr(dot, "label=\"... 12 more nodes not drawn "
                                "(output.tree_max_nodes = 5)\""));
    free(dot);
    cs_tracer_free(t);
    teardown(&f);
}

/* 9-queens, 8394 nodes: every one kept compactly, the first 2000 in full;
 * the DOT tree draws those and says by which cap it stopped. */
static void test_trace_compact_past_full(void **unused)
{
    (void)unused;
    static const char *const sets[] = {"model=nqueens", "params.n=9",
                                       "strategy.symmetry=none",
                                       "output.tree=unused.dot", NULL};
    struct fixture f;
    setup(&f, sets);
    struct cs_trace_options opts = {.record = true};
    struct cs_tracer *t = attach(&f, &opts);
    search(&f);
    cs_tracer_end(t, &f.run);
    assert_int_equal(cs_tracer_nodes(t), 8394);
    assert_int_equal(cs_tracer_recorded(t), 8394);
    assert_int_equal(cs_tracer_detailed(t), CS_TRACE_FULL_NODES);
    char *text = NULL;
    size_t size = 0;
    FILE *out = open_memstream(&text, &size);
    assert_int_equal(cs_tracer_write_dot(t, out, "nine"), 0);
    fclose(out);
    assert_non_null(strstr(text, "\n  n1999 [label="));
    assert_null(strstr(text, "n2000 ["));
    assert_non_null(strstr(text, "label=\"... 6394 more nodes not drawn "
                                 "(--tree draws at most 2000 nodes)\""));
    free(text);
    out = open_memstream(&text, &size);
    assert_int_equal(cs_tracer_write_html(t, out, "nine"), 0);
    fclose(out);
    assert_non_null(strstr(text, "\"big\": {\"kept\": 8394, \"full\": 2000,"));
    free(text);
    cs_tracer_free(t);
    teardown(&f);
}

/* Threads split the search into units: nothing to follow step by step. */
static void test_trace_refuses_split(void **unused)
{
    (void)unused;
    static const char *const sets[] = {"model=nqueens", "params.n=6",
                                       "strategy.symmetry=mirror",
                                       "strategy.threads=2", NULL};
    struct fixture f;
    struct steps steps = {0};
    struct cs_error err;
    setup(&f, sets);
    f.spec.on_trace = on_step;
    f.spec.trace_ud = &steps;
    assert_int_equal(cs_search(&f.spec, &f.split, &f.run, &err), -1);
    assert_string_equal(err.msg, "a trace follows one search: it cannot be "
                                 "split by threads, checkpoints or a "
                                 "counting kernel");
    assert_int_equal(steps.count, 0);
    teardown(&f);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_trace_4queens_steps),
        cmocka_unit_test(test_trace_counts_unchanged),
        cmocka_unit_test(test_trace_default_names),
        cmocka_unit_test(test_trace_cap),
        cmocka_unit_test(test_trace_compact_past_full),
        cmocka_unit_test(test_trace_refuses_split),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
