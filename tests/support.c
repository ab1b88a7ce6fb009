/* support.c - see support.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include <cmocka.h>

#include "cli.h" /* cli_options: the keys the shipped configs carry */
#include "support.h"

struct nq_answer nq_answers[28];

void load_nq_answers(void)
{
    FILE *f = fopen(CSEARCH_TEST_DATA "/nqueens_answers.tsv", "r");
    assert_non_null(f);
    char line[256];
    int rows = 0;
    while (fgets(line, sizeof line, f)) {
        unsigned n;
        unsigned long long total, unique;
        if (sscanf(line, "%u %llu %llu", &n, &total, &unique) == 3 && n < 28) {
            nq_answers[n].total = total;
            nq_answers[n].unique = unique;
            rows++;
        }
    }
    fclose(f);
    assert_int_equal(rows, 27);
}

bool nq_board_valid(const int *pos, int n)
{
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            if (pos[a] == pos[b] || abs(pos[a] - pos[b]) == b - a)
                return false;
    return true;
}

struct cs_config *config_of(const char *const *sets)
{
    struct cs_config *cfg = cs_config_new("test");
    struct cs_error err;
    for (; *sets; sets++) {
        int rc = cs_config_set(cfg, *sets, &err);
        if (rc)
            fail_msg("--set %s: %s", *sets, err.msg);
    }
    return cfg;
}

struct cs_config *load_config(const char *path)
{
    struct cs_config *cfg;
    struct cs_error err;
    if (cs_config_load(&cfg, path, &err))
        fail_msg("%s: %s", path, err.msg);
    return cfg;
}

struct cs_registry *setup_job(struct cs_config *cfg, struct cs_job *job)
{
    struct cs_registry *reg = cs_registry_new();
    struct cs_error err;
    assert_int_equal(cs_register_builtin_models(reg, &err), 0);
    const struct cs_job_request req = {.options = cli_options};
    if (cs_job_setup(job, cfg, reg, &req, &err))
        fail_msg("setup: %s", err.msg);
    return reg;
}

void run_config(struct cs_config *cfg, struct cs_result *run, cs_solution_fn fn,
                void *ud)
{
    struct cs_error err;
    struct cs_job job;
    struct cs_registry *reg = setup_job(cfg, &job);
    struct cs_spec spec;
    struct cs_split split;
    cs_job_spec(&job, &spec, &split);
    spec.on_solution = fn;
    spec.ud = ud;
    if (cs_search(&spec, &split, run, &err))
        fail_msg("search: %s", err.msg);
    cs_job_free(&job);
    cs_registry_free(reg);
}

void assert_same_counts(const struct cs_stats *a, const struct cs_stats *b)
{
    assert_int_equal(a->solutions, b->solutions);
    assert_int_equal(a->unique, b->unique);
    assert_int_equal(a->nodes, b->nodes);
    assert_int_equal(a->checks, b->checks);
    assert_int_equal(a->fails, b->fails);
    assert_int_equal(a->max_depth, b->max_depth);
}

const char *setup_error(struct cs_config *cfg)
{
    static char msg[1024];
    struct cs_registry *reg = cs_registry_new();
    struct cs_error err;
    assert_int_equal(cs_register_builtin_models(reg, &err), 0);
    struct cs_job job;
    const struct cs_job_request req = {.options = cli_options};
    int rc = cs_job_setup(&job, cfg, reg, &req, &err);
    if (rc == 0) {
        cs_job_free(&job);
        cs_registry_free(reg);
        fail_msg("setup succeeded, an error was expected");
    }
    cs_error_format(&err, msg, sizeof msg);
    cs_registry_free(reg);
    return msg;
}
