/* job.c - config to job: the checks that stand between a file and a search.
 *
 * Order matters for the messages: the model must be known before its keys
 * can be checked, and the keys must be checked before the model reads them.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/job.h"

static const char *const task_names[] = {"count", "solve", "enumerate",
                                         "optimize", NULL};
static const char *const select_names[] = {"in-order", "mrv", NULL};
static const char *const format_names[] = {"text", "json", "csv", NULL};

const struct cs_option cs_framework_options[] = {
    {.key = "model", .type = CS_OPT_STRING,
     .help = "the model to search (csearch --list shows them)"},
    {.key = "plugin", .type = CS_OPT_STRING,
     .help = "a shared library with more models, relative to the config "
             "(docs/own-model.md)"},
    {.key = "task", .type = CS_OPT_ENUM, .def = "count",
     .choices = task_names,
     .help = "count all solutions, solve (first one), enumerate (all), "
             "optimize (models with a cost)"},
    {.key = "strategy.select", .type = CS_OPT_ENUM, .def = "in-order",
     .choices = select_names,
     .help = "next variable: the model's order, or fewest values first"},
    {.key = "strategy.threads", .type = CS_OPT_INT, .def = "1", .min = 1,
     .max = 1024,
     .help = "worker threads for a count (the search is split into units)"},
    {.key = "limits.solutions", .type = CS_OPT_INT, .def = "0", .min = 0,
     .max = 9e18, .help = "stop after this many solutions (0 = no limit)"},
    {.key = "limits.nodes", .type = CS_OPT_INT, .def = "0", .min = 0,
     .max = 9e18, .help = "stop after this many nodes (0 = no limit)"},
    {.key = "limits.seconds", .type = CS_OPT_REAL, .def = "0", .min = 0,
     .max = 1e9, .help = "stop after this many seconds (0 = no limit)"},
    {.key = "output.format", .type = CS_OPT_ENUM, .def = "text",
     .choices = format_names,
     .help = "text, one JSON object (--json), or csv (the solutions' "
             "lines alone, as the model writes them)"},
    {.key = "output.show", .type = CS_OPT_INT, .def = "all", .min = 0,
     .max = 9e18, .all_word = "all",
     .help = "solutions to print for solve/enumerate (a number or all)"},
    {.key = "output.trace", .type = CS_OPT_BOOL, .def = "false",
     .help = "print every step of the search (--trace)"},
    {.key = "output.trace_html", .type = CS_OPT_STRING,
     .help = "write a step-through HTML page of the search to this file "
             "(--trace-html)"},
    {.key = "output.tree", .type = CS_OPT_STRING,
     .help = "write the search tree to this file as Graphviz DOT (--tree)"},
    {.key = NULL},
};

static const struct cs_model *find_model(const struct cs_config *cfg,
                                         const struct cs_registry *reg,
                                         struct cs_error *err)
{
    const struct cs_node *node = cs_config_node(cfg, "model");
    if (!node)
        return cs_error_at(err, cs_config_missing_pos(cfg, "model"),
                           "missing key 'model'"),
               NULL;
    const char *name = cs_node_text(node);
    if (!name)
        return cs_error_at(err, cs_node_pos(node),
                           "'model' must be a model name"),
               NULL;
    const struct cs_model *model = cs_registry_find(reg, name);
    if (model)
        return model;

    const struct cs_model *nearest = NULL;
    size_t best = (size_t)-1;
    for (size_t i = 0; i < cs_registry_count(reg); i++) {
        const struct cs_model *m = cs_registry_at(reg, i);
        size_t d = cs_edit_distance(name, m->name);
        if (d < best) {
            best = d;
            nearest = m;
        }
    }
    size_t len = strlen(name);
    if (nearest && best <= (len / 3 > 2 ? len / 3 : 2))
        cs_error_at(err, cs_node_pos(node),
                    "unknown model '%s'; did you mean '%s'?", name,
                    nearest->name);
    else
        cs_error_at(err, cs_node_pos(node),
                    "unknown model '%s' (csearch --list shows the models)",
                    name);
    return NULL;
}

static uint64_t hash_text(uint64_t h, const char *s)
{
    for (const unsigned char *c = (const unsigned char *)s; *c; c++) {
        h ^= *c;
        h *= UINT64_C(1099511628211);
    }
    return h;
}

/* A subtree's keys and scalars in order, brackets marking its shape. */
static uint64_t hash_node(uint64_t h, const struct cs_node *node)
{
    if (!node)
        return h;
    if (cs_node_kind(node) == CS_NODE_SCALAR)
        return hash_text(hash_text(h, cs_node_text(node)), "\x1f");
    h = hash_text(h, "[");
    for (size_t i = 0; i < cs_node_len(node); i++) {
        if (cs_node_kind(node) == CS_NODE_MAP)
            h = hash_text(hash_text(h, cs_node_key(node, i)), ":");
        h = hash_node(h, cs_node_at(node, i));
    }
    return hash_text(h, "]");
}

/* FNV-1a over every key that shapes the search tree and its split: the
 * model, its params and strategy, the task.  Threads, limits and output do
 * not change which units exist or what they count, so they are left out; so
 * are the caller's own keys and where the plugin lies (the model's name
 * stands for it). */
static uint64_t fingerprint(const struct cs_config *cfg,
                            const struct cs_option *const *tables)
{
    uint64_t h = UINT64_C(14695981039346656037);
    for (; *tables; tables++)
        for (const struct cs_option *opt = *tables; opt->key; opt++) {
            if (!strncmp(opt->key, "limits.", 7) ||
                !strncmp(opt->key, "output.", 7) ||
                !strcmp(opt->key, "strategy.threads") ||
                !strcmp(opt->key, "plugin"))
                continue;
            /* values as typed, so "08" and "8" are the same config */
            char value[64] = "";
            if (opt->type == CS_OPT_INT)
                snprintf(value, sizeof value, "%" PRId64,
                         cs_config_int(cfg, opt->key));
            else if (opt->type == CS_OPT_REAL)
                snprintf(value, sizeof value, "%.17g",
                         cs_config_real(cfg, opt->key));
            else if (opt->type == CS_OPT_BOOL)
                snprintf(value, sizeof value, "%d",
                         cs_config_bool(cfg, opt->key));
            h = hash_text(hash_text(h, opt->key), "=");
            if (opt->type == CS_OPT_ENUM || opt->type == CS_OPT_STRING) {
                const char *text = cs_config_str(cfg, opt->key);
                h = hash_text(h, text ? text : "");
            }
            h = hash_text(h, value);
            if (opt->type == CS_OPT_NODE)
                h = hash_node(h, cs_config_node(cfg, opt->key));
            h = hash_text(h, "\n");
        }
    return h;
}

static void list_tasks(unsigned tasks, char *buf, size_t size)
{
    buf[0] = '\0';
    for (int t = 0; task_names[t]; t++) {
        if (!(tasks & CS_TASK_BIT(t)))
            continue;
        size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
                 task_names[t]);
    }
}

int cs_job_setup(struct cs_job *job, struct cs_config *cfg,
                 const struct cs_registry *reg,
                 const struct cs_option *const *caller_options,
                 struct cs_error *err)
{
    memset(job, 0, sizeof *job);
    job->model = find_model(cfg, reg, err);
    if (!job->model)
        return -1;
    const struct cs_option *const tables[] = {cs_framework_options,
                                              job->model->options, NULL};
    size_t ncaller = 0;
    while (caller_options && caller_options[ncaller])
        ncaller++;
    const struct cs_option **checked =
        cs_xcalloc(ncaller + 3, sizeof *checked);
    checked[0] = cs_framework_options;
    for (size_t i = 0; i < ncaller; i++)
        checked[i + 1] = caller_options[i];
    checked[ncaller + 1] = job->model->options;
    int rc = cs_config_check(cfg, checked, err);
    free(checked);
    if (rc)
        return -1;

    job->task = (enum cs_task)cs_config_enum(cfg, "task");
    if (!(job->model->tasks & CS_TASK_BIT(job->task))) {
        char can[128];
        list_tasks(job->model->tasks, can, sizeof can);
        return cs_error_at(err, cs_config_pos(cfg, "task"),
                           "model %s cannot do task '%s' (it can: %s)",
                           job->model->name, task_names[job->task], can);
    }
    job->select = (enum cs_select)cs_config_enum(cfg, "strategy.select");
    job->limits.solutions = (uint64_t)cs_config_int(cfg, "limits.solutions");
    job->limits.nodes = (uint64_t)cs_config_int(cfg, "limits.nodes");
    job->limits.seconds = cs_config_real(cfg, "limits.seconds");
    job->threads = (int)cs_config_int(cfg, "strategy.threads");
    job->fingerprint = fingerprint(cfg, tables);

    if (job->model->setup(cfg, &job->problem, err))
        return -1;
    /* threads split one count into units, or share out a batch's
     * instances (each then searched to the limits on its own) */
    const char *why = NULL;
    if (job->threads > 1 && !job->problem.setup_instance) {
        if (job->task != CS_TASK_COUNT)
            why = "threads need task count or a batch";
        else if (job->limits.nodes || job->limits.solutions)
            why = "threads cannot honour limits.nodes or limits.solutions "
                  "exactly; use one thread";
    }
    if (why) {
        cs_problem_free(&job->problem);
        return cs_error_at(err, cs_config_pos(cfg, "strategy.threads"), "%s",
                           why);
    }
    if (job->select == CS_SELECT_MRV && !job->problem.hooks->domain_size) {
        cs_problem_free(&job->problem);
        return cs_error_at(err, cs_config_pos(cfg, "strategy.select"),
                           "model %s cannot select mrv with these settings",
                           job->model->name);
    }
    return 0;
}

void cs_job_run(const struct cs_job *job, struct cs_run *run)
{
    memset(run, 0, sizeof *run);
    run->problem = &job->problem;
    run->task = job->task;
    run->select = job->select;
    run->limits = job->limits;
    run->threads = job->threads;
    run->fingerprint = job->fingerprint;
}

void cs_job_free(struct cs_job *job)
{
    if (job)
        cs_problem_free(&job->problem);
}
