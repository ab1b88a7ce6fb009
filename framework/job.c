/* job.c - config to job: the checks that stand between a file and a search.
 *
 * Order matters for the messages: the model must be known before its keys
 * can be checked, and the keys must be checked before the model reads them.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/job.h"
#include "layer_keys.h"
#include "search.h"

/* The framework's enumerations, each named once: X(constant, "name"). */
#define JOB_TASKS(X)                                                           \
    X(CS_TASK_COUNT, "count")                                                  \
    X(CS_TASK_SOLVE, "solve")                                                  \
    X(CS_TASK_ENUMERATE, "enumerate")                                          \
    X(CS_TASK_OPTIMIZE, "optimize")                                            \
    X(CS_TASK_ESTIMATE, "estimate")                                            \
    X(CS_TASK_GENERATE, "generate")                                            \
    X(CS_TASK_RATE, "rate")
#define JOB_NAME(constant, name) name,
#define JOB_CONSTANT(constant, name) constant,

static const char *const task_names[] = {JOB_TASKS(JOB_NAME) NULL};
static const enum cs_task task_values[] = {JOB_TASKS(JOB_CONSTANT)};

const struct cs_option cs_framework_options[] = {
    {.key = "model",
     .type = CS_OPT_STRING,
     .help = "the model to search (required; csearch --list shows them)"},
    {.key = "plugin",
     .type = CS_OPT_STRING,
     .help = "a shared library with more models, relative to the config "
             "(docs/own-model.md)"},
    {.key = "task",
     .type = CS_OPT_ENUM,
     .def = "count",
     .choices = task_names,
     .help = "count all solutions, solve (first one), enumerate (all), "
             "optimize (models with a cost), estimate (the size of a "
             "count's tree by random probes: any model that counts); "
             "generate, rate (sudoku: new puzzles, their difficulty); "
             "without it, count (shifts: optimize)"},
    {.key = "strategy.select",
     .type = CS_OPT_ENUM,
     .def = "in-order",
     .choices = cs_select_names,
     .help = "next variable: the model's order, or fewest values first "
             "(mrv: models that know domain sizes, else an error here)"},
    {.key = "strategy.threads",
     .type = CS_OPT_INT,
     .def = "1",
     .min = 1,
     .max = 1024,
     .help = "worker threads: a count is split into units, a batch shares "
             "out its instances, solve and optimize run a portfolio; one "
             "search: not with enumerate, limits.nodes or limits.solutions"},
    {.key = "strategy.seed",
     .type = CS_OPT_INT,
     .def = "0",
     .min = 0,
     .max = 9e18,
     .help = "randomness of restarts, shuffled orders and portfolios: the "
             "same seed, the same search"},
    LAYER_KNOBS(LAYER_OPTION){
        .key = "strategy.probes",
        .type = CS_OPT_INT,
        .def = "10000",
        .min = 1,
        .max = 9e18,
        .help = "task estimate: random root-to-leaf probes to make (a time "
                "limit may end it sooner)"},
    {.key = "limits.solutions",
     .type = CS_OPT_INT,
     .def = "0",
     .min = 0,
     .max = 9e18,
     .help = "stop after this many solutions as counted (a branch that "
             "counts twice may overshoot by one; 0 = no limit)"},
    {.key = "limits.nodes",
     .type = CS_OPT_INT,
     .def = "0",
     .min = 0,
     .max = 9e18,
     .help = "stop after this many nodes (0 = no limit)"},
    {.key = "limits.steps",
     .type = CS_OPT_INT,
     .def = "0",
     .min = 0,
     .max = 9e18,
     .help = "local search: stop after this many steps; local moves: "
             "after this many in all bursts (0 = no limit)"},
    {.key = "limits.seconds",
     .type = CS_OPT_REAL,
     .def = "0",
     .min = 0,
     .max = 1e9,
     .help = "stop after this many seconds of the whole run, the model's "
             "set-up counted (0 = no limit)"},
    {.key = NULL},
};

void cs_problem_chose(struct cs_problem *p, const char *key, const char *fmt,
                      ...)
{
    const size_t n = sizeof p->chosen / sizeof *p->chosen;
    size_t i = 0;
    while (i < n && p->chosen[i].key && strcmp(p->chosen[i].key, key))
        i++;
    if (i == n)
        return;
    p->chosen[i].key = key;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->chosen[i].value, sizeof p->chosen[i].value, fmt, ap);
    va_end(ap);
}

void cs_problem_chose_real(struct cs_problem *p, const char *key, double v)
{
    char text[32];
    layer_real_text(text, sizeof text, v);
    cs_problem_chose(p, key, "%s", text);
}

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

    size_t count = cs_registry_count(reg);
    const char **names = cs_xmalloc((count ? count : 1) * sizeof *names);
    for (size_t i = 0; i < count; i++)
        names[i] = cs_registry_at(reg, i)->name;
    const char *nearest = cs_nearest(name, names, count);
    if (nearest)
        cs_error_at(err, cs_node_pos(node),
                    "unknown model '%s'; did you mean '%s'?", name, nearest);
    else
        cs_error_at(err, cs_node_pos(node),
                    "unknown model '%s' (csearch --list shows the models)",
                    name);
    free(names);
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

/* Keys that came to the shifts model's table from the framework's: logs
 * written before hash the large-move keys after strategy.shuffle (as their
 * value, or "auto" (-1) where the model has no such key) and the annealing
 * keys not at all.  So they are hashed there still, and never with the
 * model's keys, and those logs still resume. */
static const struct {
    const char *key;
    bool hashed;
} moved_keys[] = {
    {"strategy.large_steps", true},   {"strategy.large_share", true},
    {"strategy.anneal_steps", false}, {"strategy.anneal_fill", false},
    {"strategy.anneal_t0", false},    {"strategy.anneal_t1", false},
};

static bool moved(const char *key)
{
    for (size_t i = 0; i < sizeof moved_keys / sizeof *moved_keys; i++)
        if (!strcmp(key, moved_keys[i].key))
            return true;
    return false;
}

static uint64_t hash_value(uint64_t h, const struct cs_config *cfg,
                           const struct cs_option *opt)
{
    /* values as typed, so "08" and "8" are the same config */
    char value[64] = "";
    if (opt->type == CS_OPT_INT)
        snprintf(value, sizeof value, "%" PRId64, cs_config_int(cfg, opt->key));
    else if (opt->type == CS_OPT_REAL)
        snprintf(value, sizeof value, "%.17g", cs_config_real(cfg, opt->key));
    else if (opt->type == CS_OPT_BOOL)
        snprintf(value, sizeof value, "%d", cs_config_bool(cfg, opt->key));
    h = hash_text(hash_text(h, opt->key), "=");
    if (opt->type == CS_OPT_ENUM || opt->type == CS_OPT_STRING) {
        const char *text = cs_config_str(cfg, opt->key);
        h = hash_text(h, text ? text : "");
    }
    h = hash_text(h, value);
    if (opt->type == CS_OPT_NODE)
        h = hash_node(h, cs_config_node(cfg, opt->key));
    return hash_text(h, "\n");
}

static uint64_t hash_moved(uint64_t h, const struct cs_config *cfg,
                           const struct cs_option *const *tables)
{
    for (size_t i = 0; i < sizeof moved_keys / sizeof *moved_keys; i++) {
        if (!moved_keys[i].hashed)
            continue;
        const struct cs_option *found = NULL;
        for (const struct cs_option *const *t = tables; *t && !found; t++)
            for (const struct cs_option *opt = *t; opt->key && !found; opt++)
                if (!strcmp(opt->key, moved_keys[i].key))
                    found = opt;
        if (found) {
            h = hash_value(h, cfg, found);
            continue;
        }
        h = hash_text(hash_text(h, moved_keys[i].key), "=");
        h = hash_text(hash_text(h, "-1"), "\n");
    }
    return h;
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
    for (const struct cs_option *const *t = tables; *t; t++)
        for (const struct cs_option *opt = *t; opt->key; opt++) {
            /* the layers' keys say whether they shape a count (most came
             * after the logs of earlier versions, which must still
             * resume: layer_keys.h) */
            const struct layer_knob *knob = layer_knob(opt->key);
            bool skip = (knob && (knob->hash == HASH_NEVER ||
                                  (knob->hash == HASH_WHEN_TRUE &&
                                   !cs_config_bool(cfg, opt->key)))) ||
                        moved(opt->key) || !strncmp(opt->key, "limits.", 7) ||
                        !strncmp(opt->key, "output.", 7) ||
                        !strcmp(opt->key, "strategy.threads") ||
                        /* a portfolio's, as threads */
                        !strncmp(opt->key, "strategy.anneal_adopt", 21) ||
                        !strcmp(opt->key, "strategy.seed") ||
                        !strcmp(opt->key, "strategy.probes") ||
                        !strcmp(opt->key, "plugin");
            if (!skip)
                h = hash_value(h, cfg, opt);
            if (!strcmp(opt->key, "strategy.shuffle"))
                h = hash_moved(h, cfg, tables);
        }
    return h;
}

/* The tasks a model's bits allow, by name; estimate probes the count's
 * tree, so a model that counts can estimate. */
static void list_tasks(unsigned tasks, char *buf, size_t size)
{
    if (tasks & CS_TASK_BIT(CS_TASK_COUNT))
        tasks |= CS_TASK_BIT(CS_TASK_ESTIMATE);
    buf[0] = '\0';
    for (int t = 0; task_names[t]; t++) {
        if (!(tasks & CS_TASK_BIT(t)))
            continue;
        size_t used = strlen(buf);
        snprintf(buf + used, size - used, "%s%s", used ? ", " : "",
                 task_names[t]);
    }
}

/* The least time limit a search gets after a set-up that took all of
 * limits.seconds: it stops at its first look at the clock. */
#define SETUP_LEFT_LEAST 1e-9

double cs_limit_left(double seconds, double spent)
{
    if (seconds <= 0)
        return 0; /* no limit */
    double least = seconds < SETUP_LEFT_LEAST ? seconds : SETUP_LEFT_LEAST;
    return seconds - spent > least ? seconds - spent : least;
}

/* The checks cs_search will make of the job's spec, made now where a key
 * is to blame, so that the error points at it and names the model; the
 * rest cs_search reports (a caller may still set limits, say). */
static int check_search(struct cs_job *job, const struct cs_config *cfg,
                        struct cs_error *err)
{
    struct cs_spec spec;
    struct cs_split split;
    cs_job_spec(job, &spec, &split);
    const char *key;
    if (!spec_validate_key(&spec, &split, err, &key) || !key)
        return 0;
    char msg[sizeof err->msg];
    if (!strncmp(err->msg, "this model ", 11))
        snprintf(msg, sizeof msg, "model %s %s", job->model->name,
                 err->msg + 11);
    else
        snprintf(msg, sizeof msg, "%s", err->msg);
    cs_problem_free(&job->problem);
    return cs_error_at(err, cs_config_pos(cfg, key), "%s", msg);
}

int cs_job_setup(struct cs_job *job, struct cs_config *cfg,
                 const struct cs_registry *reg,
                 const struct cs_job_request *req, struct cs_error *err)
{
    const struct cs_option *const *caller_options = req ? req->options : NULL;
    memset(job, 0, sizeof *job);
    job->model = find_model(cfg, reg, err);
    if (!job->model)
        return -1;
    const struct cs_option *const tables[] = {cs_framework_options,
                                              job->model->options, NULL};
    size_t ncaller = 0;
    while (caller_options && caller_options[ncaller])
        ncaller++;
    const struct cs_option **checked = cs_xcalloc(ncaller + 3, sizeof *checked);
    checked[0] = cs_framework_options;
    for (size_t i = 0; i < ncaller; i++)
        checked[i + 1] = caller_options[i];
    checked[ncaller + 1] = job->model->options;
    int rc = cs_config_check(cfg, checked, err);
    free(checked);
    if (rc)
        return -1;

    job->task = cs_config_has(cfg, "task")
                    ? task_values[cs_config_enum(cfg, "task")]
                    : job->model->default_task;
    /* an estimate probes the tree of the model's count */
    enum cs_task model_task =
        job->task == CS_TASK_ESTIMATE ? CS_TASK_COUNT : job->task;
    if (!(job->model->tasks & CS_TASK_BIT(model_task))) {
        char can[128];
        list_tasks(job->model->tasks, can, sizeof can);
        return cs_error_at(err, cs_config_pos(cfg, "task"),
                           "model %s cannot do task '%s' (it can: %s)",
                           job->model->name, task_names[job->task], can);
    }
    /* the choices are cs_select_names, in enum order by construction */
    job->select = (enum cs_select)cs_config_enum(cfg, "strategy.select");
    job->limits.solutions = (uint64_t)cs_config_int(cfg, "limits.solutions");
    job->limits.nodes = (uint64_t)cs_config_int(cfg, "limits.nodes");
    job->limits.seconds = cs_config_real(cfg, "limits.seconds");
    job->limits.steps = (uint64_t)cs_config_int(cfg, "limits.steps");
    enum cs_local local =
        layer_local_values[cs_config_enum(cfg, "strategy.local")];
    if (local == CS_LOCAL_MIN_CONFLICTS && job->task != CS_TASK_SOLVE)
        return cs_error_at(err, cs_config_pos(cfg, "strategy.local"),
                           "local search finds one solution: it needs task "
                           "solve");
    job->threads = (int)cs_config_int(cfg, "strategy.threads");
    job->fingerprint = fingerprint(cfg, tables);
    job->seed = (uint64_t)cs_config_int(cfg, "strategy.seed");

    job->probes = (uint64_t)cs_config_int(cfg, "strategy.probes");
    const struct cs_setup how = {.task = model_task,
                                 .select = job->select,
                                 .limits = job->limits,
                                 .tracing = req && req->tracing,
                                 .local = local,
                                 .profiling = req && req->profiling,
                                 .threads = job->threads};
    const double set_up = cs_now();
    if (job->model->setup(cfg, &how, &job->problem, err))
        return -1;
    /* limits.seconds is the whole run's: what the model's set-up took
     * (reading the instance, a bound's tables) is spent from it, and the
     * search gets the rest (at least an instant: 0 would mean none) */
    job->limits.seconds = cs_limit_left(job->limits.seconds, cs_now() - set_up);
    job->layers = layers_of(cfg, &job->problem);
    const char *why = NULL;
    if ((job->task == CS_TASK_GENERATE || job->task == CS_TASK_RATE) &&
        !job->problem.setup_instance) {
        cs_problem_free(&job->problem);
        return cs_error_at(err, cs_config_pos(cfg, "task"),
                           "model %s set up no batch for task %s",
                           job->model->name, task_names[job->task]);
    }
    if (local == CS_LOCAL_MIN_CONFLICTS && !job->layers.local)
        why = "has no local search with these settings";
    if (why) {
        cs_problem_free(&job->problem);
        return cs_error_at(err, cs_config_pos(cfg, "strategy.local"),
                           "model %s %s", job->model->name, why);
    }
    /* local moves polish the incumbent between neighbourhood rounds */
    bool asked = cs_config_enum(cfg, "strategy.local_moves") == 1;
    if (job->task != CS_TASK_OPTIMIZE)
        why = "needs task optimize for local moves";
    else if (!cs_hooks_local(job->problem.hooks))
        why = "has no local moves (the ls_* hooks) with these settings";
    else if (!job->problem.hooks->relax || !job->layers.lns_nodes)
        why = "runs local moves between neighbourhood rounds only, and "
              "strategy.lns_nodes is 0";
    if (why)
        job->layers.moves = false; /* auto: quietly none */
    if (why && asked) {
        cs_problem_free(&job->problem);
        return cs_error_at(err, cs_config_pos(cfg, "strategy.local_moves"),
                           "model %s %s", job->model->name, why);
    }
    if (job->task == CS_TASK_ESTIMATE && job->problem.setup_instance) {
        cs_problem_free(&job->problem);
        return cs_error_at(err, cs_config_pos(cfg, "task"),
                           "task estimate probes one tree, not a batch of "
                           "instances");
    }
    /* the search's own checks (search.c), at the key each concerns; a
     * batch's instances are set up and searched one by one */
    if (!job->problem.setup_instance)
        return check_search(job, cfg, err);
    return 0;
}

void cs_job_spec(const struct cs_job *job, struct cs_spec *spec,
                 struct cs_split *split)
{
    memset(spec, 0, sizeof *spec);
    spec->problem = &job->problem;
    spec->task = job->task;
    spec->select = job->select;
    spec->limits = job->limits;
    spec->layers = job->layers;
    spec->seed = job->seed;
    spec->probes = job->probes;
    if (split) {
        memset(split, 0, sizeof *split);
        split->threads = job->threads;
        split->fingerprint = job->fingerprint;
    }
}

void cs_job_free(struct cs_job *job)
{
    if (job)
        cs_problem_free(&job->problem);
}
