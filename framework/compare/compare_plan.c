/* compare_plan.c - csearch compare: the section (checked against compare's
 * option table), then a config and a job for every (n, strategy) pair, all
 * set up (the largest n first) and the files opened before anything runs,
 * so a mistake costs no search time.  Runs go in rounds (A B A B) so repeated
 * timings alternate; seconds are the median over the rounds, counts those of
 * the first.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "compare_impl.h"
#include "output.h"

#define MAX_NS 1000
#define MAX_STRATEGIES 32

/* The section's keys (docs/config.md says what they mean); compare.n is a
 * number or a list of them, or else a range. */
static const char *const clocks[] = {"wall", "cpu", NULL};
static const struct cs_option compare_keys[] = {
    {.key = "compare.strategies", .type = CS_OPT_NODE},
    {.key = "compare.repeat",
     .type = CS_OPT_INT,
     .def = "1",
     .min = 1,
     .max = 100},
    {.key = "compare.clock",
     .type = CS_OPT_ENUM,
     .def = "wall",
     .choices = clocks},
    {.key = "compare.csv", .type = CS_OPT_STRING},
    {.key = "compare.plot", .type = CS_OPT_STRING},
    {.key = "compare.title", .type = CS_OPT_STRING},
    {.key = "compare.tree_html", .type = CS_OPT_STRING},
    {.key = NULL},
};
static const struct cs_option n_values[] = {
    {.key = "compare.n", .type = CS_OPT_NODE}, {.key = NULL}};
static const struct cs_option n_range[] = {
    {.key = "compare.n.from",
     .type = CS_OPT_INT,
     .min = -0x1p63,
     .max = 0x1p63},
    {.key = "compare.n.to", .type = CS_OPT_INT, .min = -0x1p63, .max = 0x1p63},
    {.key = "compare.n.step",
     .type = CS_OPT_INT,
     .def = "1",
     .min = 1,
     .max = 9e18},
    {.key = NULL},
};

static void add_n(struct plan *p, int64_t n, struct cs_pos pos)
{
    p->ns = cs_xrealloc(p->ns, (p->nn + 1) * sizeof *p->ns);
    p->n_pos = cs_xrealloc(p->n_pos, (p->nn + 1) * sizeof *p->n_pos);
    p->ns[p->nn] = n;
    p->n_pos[p->nn++] = pos;
}

/* n: 10 | n: [6, 8, 10] | n: {from: 1, to: 11, step: 1} */
static int read_n(struct plan *p, const struct cs_config *cfg,
                  const struct cs_node *node, struct cs_error *err)
{
    bool list = cs_node_kind(node) == CS_NODE_SEQ;
    if (list || cs_node_kind(node) == CS_NODE_SCALAR) {
        size_t count = list ? cs_node_len(node) : 1;
        if (!count || count > MAX_NS)
            return cs_error_at(err, cs_node_pos(node),
                               count ? "'compare.n' lists more than %d values"
                                     : "'compare.n' is an empty list",
                               MAX_NS);
        for (size_t i = 0; i < count; i++) {
            const struct cs_node *item = list ? cs_node_at(node, i) : node;
            int64_t v;
            if (cs_node_int(item, "compare.n", &v, err))
                return -1;
            if (p->nn && v <= p->ns[p->nn - 1])
                return cs_error_at(err, cs_node_pos(item),
                                   "'compare.n' must increase: %" PRId64
                                   " after %" PRId64,
                                   v, p->ns[p->nn - 1]);
            add_n(p, v, cs_node_pos(item));
        }
        return 0;
    }
    if (!cs_config_has(cfg, "compare.n.from") ||
        !cs_config_has(cfg, "compare.n.to"))
        return cs_error_at(err, cs_node_pos(node), "missing key 'compare.n.%s'",
                           cs_config_has(cfg, "compare.n.from") ? "to"
                                                                : "from");
    int64_t lo = cs_config_int(cfg, "compare.n.from");
    int64_t hi = cs_config_int(cfg, "compare.n.to");
    int64_t by = cs_config_int(cfg, "compare.n.step");
    if (hi < lo)
        return cs_error_at(err, cs_config_pos(cfg, "compare.n.to"),
                           "'compare.n.to' must not be below compare.n.from "
                           "(%" PRId64 "), not %" PRId64,
                           lo, hi);
    if ((hi - lo) / by >= MAX_NS)
        return cs_error_at(err, cs_node_pos(node),
                           "'compare.n' spans more than %d values", MAX_NS);
    for (int64_t n = lo; n <= hi; n += by)
        add_n(p, n, cs_config_pos(cfg, "compare.n.from"));
    return 0;
}

/* One strategy: {name: NAME, set: {dotted.key: value, ...}} */
static int read_strategy(struct plan *p, const struct cs_node *node,
                         size_t index, struct cs_error *err)
{
    char where[64];
    snprintf(where, sizeof where, "compare.strategies[%zu]", index + 1);
    if (cs_node_kind(node) != CS_NODE_MAP)
        return cs_error_at(err, cs_node_pos(node),
                           "'%s' must be a mapping {name, set}", where);
    for (size_t i = 0; i < cs_node_len(node); i++) {
        /* cs_config_check reaches mappings, not the items of a list */
        const char *key = cs_node_key(node, i);
        if (strcmp(key, "name") && strcmp(key, "set"))
            return cs_error_at(err, cs_node_key_pos(node, i),
                               "unknown key '%s.%s'; a strategy has a name "
                               "and a set",
                               where, key);
    }
    struct strategy *st = &p->st[p->nst];
    const struct cs_node *name = cs_node_get(node, "name");
    if (!name)
        return cs_error_at(err, cs_node_pos(node), "missing key '%s.name'",
                           where);
    if (!(st->name = cs_node_text(name)))
        return cs_error_at(err, cs_node_pos(name), "'name' must be a string");
    for (size_t s = 0; s < p->nst; s++)
        if (!strcmp(p->st[s].name, st->name))
            return cs_error_at(err, cs_node_pos(name),
                               "strategy name '%s' is used twice", st->name);
    p->nst++;
    const struct cs_node *set = cs_node_get(node, "set");
    if (!set)
        return 0; /* the config as it is */
    if (cs_node_kind(set) != CS_NODE_MAP)
        return cs_error_at(err, cs_node_pos(set),
                           "'%s.set' must be a mapping of keys to values "
                           "(strategy.state: set)",
                           where);
    st->sets = cs_xcalloc(cs_node_len(set) + 1, sizeof *st->sets);
    for (size_t i = 0; i < cs_node_len(set); i++) {
        const char *key = cs_node_key(set, i);
        const char *value = cs_node_text(cs_node_at(set, i));
        struct cs_pos key_pos = cs_node_key_pos(set, i);
        if (!value)
            return cs_error_at(err, cs_node_pos(cs_node_at(set, i)),
                               "'%s' in %s.set needs a single value; write "
                               "dotted keys (strategy.state: set)",
                               key, where);
        if (!strncmp(key, "compare", 7) && (!key[7] || key[7] == '.'))
            return cs_error_at(err, key_pos, "a strategy cannot set '%s'", key);
        if (p->nn && !strcmp(key, "params.n"))
            return cs_error_at(err, key_pos,
                               "a strategy cannot set 'params.n': "
                               "compare.n gives it");
        struct overlay *ov = &st->sets[st->nsets++];
        ov->assign = cs_xmalloc(strlen(key) + strlen(value) + 2);
        sprintf(ov->assign, "%s=%s", key, value);
        ov->pos = cs_node_pos(cs_node_at(set, i));
    }
    return 0;
}

/* The section against compare's table; every other top-level key passes
 * here as it is, for each run's cs_job_setup to check. */
static int check_section(struct plan *p, struct cs_config *cfg,
                         struct cs_error *err)
{
    const struct cs_node *root = cs_config_root(cfg);
    p->others = cs_xcalloc(cs_node_len(root) + 1, sizeof *p->others);
    for (size_t i = 0, k = 0; i < cs_node_len(root); i++)
        if (strcmp(cs_node_key(root, i), "compare"))
            p->others[k++] = (struct cs_option){.key = cs_node_key(root, i),
                                                .type = CS_OPT_NODE};
    const struct cs_node *n = cs_config_node(cfg, "compare.n");
    const struct cs_option *const tables[] = {
        compare_keys, n && cs_node_kind(n) == CS_NODE_MAP ? n_range : n_values,
        p->others, NULL};
    return cs_config_check(cfg, tables, err);
}

/* The trace and profile keys, asked for in the config or with --set; an
 * output.trace or output.profile that is no boolean is left to each run's
 * setup to report. */
static int refuse_traces(const struct cs_config *cfg, struct cs_error *err)
{
    static const char *const keys[] = {"output.trace", "output.profile",
                                       "output.trace_html", "output.tree",
                                       "output.profiler"};
    for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
        const struct cs_node *node = cs_config_node(cfg, keys[i]);
        bool on = true;
        if (node && (i > 1 || (!cs_node_bool(node, keys[i], &on, err) && on)))
            return cs_error_at(err, cs_node_pos(node),
                               "compare cannot take '%s': %s one config, "
                               "not a comparison",
                               keys[i], i == 1 ? "profile" : "trace");
    }
    return 0;
}

static int read_plan(struct plan *p, struct cs_config *cfg,
                     struct cs_error *err)
{
    const struct cs_node *section = cs_config_node(cfg, "compare");
    if (refuse_traces(cfg, err))
        return -1;
    if (!section)
        return cs_error_at(err, cs_config_missing_pos(cfg, "compare"),
                           "no 'compare' section: nothing to compare "
                           "(docs/compare.md)");
    if (check_section(p, cfg, err))
        return -1;
    /* n first: a strategy may not set params.n when it is given */
    const struct cs_node *n = cs_config_node(cfg, "compare.n");
    if (n && read_n(p, cfg, n, err))
        return -1;
    const struct cs_node *list = cs_config_node(cfg, "compare.strategies");
    if (!list)
        return cs_error_at(err, cs_node_pos(section),
                           "missing key 'compare.strategies'");
    if (cs_node_kind(list) != CS_NODE_SEQ || cs_node_len(list) == 0)
        return cs_error_at(err, cs_node_pos(list),
                           "'compare.strategies' must be a non-empty list of "
                           "{name, set} mappings");
    if (cs_node_len(list) > MAX_STRATEGIES)
        return cs_error_at(err, cs_node_pos(list),
                           "'compare.strategies' lists more than %d "
                           "strategies",
                           MAX_STRATEGIES);
    p->st = cs_xcalloc(cs_node_len(list), sizeof *p->st);
    for (size_t i = 0; i < cs_node_len(list); i++)
        if (read_strategy(p, cs_node_at(list, i), i, err))
            return -1;
    p->repeat = (int)cs_config_int(cfg, "compare.repeat");
    p->cpu = cs_config_enum(cfg, "compare.clock") == 1;
    p->csv = cs_config_str(cfg, "compare.csv");
    p->csv_pos = cs_config_pos(cfg, "compare.csv");
    p->plot = cs_config_str(cfg, "compare.plot");
    p->plot_pos = cs_config_pos(cfg, "compare.plot");
    if (p->plot && !p->nn)
        return cs_error_at(err, p->plot_pos,
                           "a plot needs compare.n (its x axis)");
    p->tree = cs_config_str(cfg, "compare.tree_html");
    p->tree_pos = cs_config_pos(cfg, "compare.tree_html");
    if (p->tree && (p->nst != 2 || p->nn > 1))
        return cs_error_at(err, p->tree_pos,
                           "compare.tree_html merges the trees of two "
                           "strategies on one problem: give two strategies "
                           "and at most one n");
    p->title = cs_config_has(cfg, "compare.title")
                   ? cs_config_str(cfg, "compare.title")
                   : p->req->path;
    return 0;
}

/* An error of run (i, s) said where the strategy's key or n stands in the
 * compare section (the run's config received them as --set overrides), and
 * which run it was. */
static int place_error(const struct plan *p, size_t i, size_t s,
                       struct cs_error *err)
{
    const struct strategy *st = &p->st[s];
    char origin[300], msg[sizeof err->msg];
    const struct cs_pos *pos = NULL;
    for (size_t k = 0; k < st->nsets; k++) {
        snprintf(origin, sizeof origin, "--set %s", st->sets[k].assign);
        if (!strcmp(err->file, origin))
            pos = &st->sets[k].pos;
    }
    if (p->nn) {
        snprintf(origin, sizeof origin, "--set params.n=%" PRId64, p->ns[i]);
        if (!strcmp(err->file, origin))
            pos = &p->n_pos[i];
    }
    memcpy(msg, err->msg, sizeof msg);
    struct cs_pos at = {err->file, err->line, err->col};
    char file[sizeof err->file];
    if (!pos) { /* a key of the file or the command line: keep its place */
        memcpy(file, err->file, sizeof file);
        at.file = file;
        pos = &at;
    }
    if (p->nn)
        return cs_error_at(err, *pos, "strategy '%s', n = %" PRId64 ": %s",
                           st->name, p->ns[i], msg);
    return cs_error_at(err, *pos, "strategy '%s': %s", st->name, msg);
}

static int setup_cell(struct plan *p, size_t i, size_t s,
                      const struct cs_registry *reg, struct cs_error *err)
{
    struct cell *c = plan_cell(p, i, s);
    const struct strategy *st = &p->st[s];
    if (cs_config_load(&c->cfg, p->req->path, err))
        return -1;
    for (int k = 0; k < p->req->nsets; k++)
        if (cs_config_set(c->cfg, p->req->sets[k], err))
            return -1;
    for (size_t k = 0; k < st->nsets; k++)
        if (cs_config_set(c->cfg, st->sets[k].assign, err))
            return place_error(p, i, s, err);
    if (p->nn) {
        char n[64];
        snprintf(n, sizeof n, "params.n=%" PRId64, p->ns[i]);
        if (cs_config_set(c->cfg, n, err))
            return place_error(p, i, s, err);
    }
    const struct cs_job_request req = {.options = p->req->options,
                                       .tracing = p->tree != NULL};
    if (cs_job_setup(&c->job, c->cfg, reg, &req, err))
        return place_error(p, i, s, err);
    c->ready = true;
    if (c->job.problem.setup_instance) { /* its runs are per instance */
        cs_error_set(err, p->req->path,
                     "a batch (a file of instances) cannot be "
                     "compared");
        return place_error(p, i, s, err);
    }
    if (p->tree && (c->job.threads > 1 || c->job.layers.local)) {
        cs_error_set(err, p->req->path,
                     c->job.layers.local
                         ? "a local search has no tree to merge "
                           "(compare.tree_html)"
                         : "compare.tree_html follows one search per "
                           "strategy: use one thread");
        return place_error(p, i, s, err);
    }
    c->seconds = cs_xcalloc((size_t)p->repeat, sizeof *c->seconds);
    return 0;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v, int count)
{
    qsort(v, (size_t)count, sizeof *v, compare_doubles);
    return count % 2 ? v[count / 2] : (v[count / 2 - 1] + v[count / 2]) / 2;
}

/* CPU time of the process: on a loaded machine it moves far less than the
 * wall clock, and for a run on one thread it is the search's own. */
static double cpu_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Every round in full unless Ctrl-C stops a run; -1 if the engine refuses
 * a run (err set), else whether it was interrupted. */
static int run_rounds(struct plan *p, struct cs_error *err)
{
    for (int r = 0; r < p->repeat; r++)
        for (size_t i = 0; i < plan_columns(p); i++)
            for (size_t s = 0; s < p->nst; s++) {
                struct cell *c = plan_cell(p, i, s);
                struct cs_result res;
                double cpu = p->cpu ? cpu_seconds() : 0;
                if (p->req->search(p->req->ud, &c->job, NULL, &res, err))
                    return place_error(p, i, s, err);
                if (p->cpu)
                    res.stats.seconds = cpu_seconds() - cpu;
                if (r == 0) {
                    c->stats = res.stats;
                    c->status = res.status;
                }
                c->seconds[c->runs++] = res.stats.seconds;
                c->median = median(c->seconds, c->runs);
                if (res.status == CS_INTERRUPTED) {
                    c->status = CS_INTERRUPTED;
                    return 1;
                }
            }
    return 0;
}

/* compare.tree_html: each strategy once more, traced (not timed), and the
 * two recorded trees merged into one page.  -1 with err if a run or the
 * writing failed, 1 if interrupted. */
static int write_tree(struct plan *p, struct cs_error *err)
{
    struct cs_tracer *tracer[2] = {NULL, NULL};
    int rc = 0;
    for (size_t s = 0; s < 2 && !rc; s++) {
        struct cell *c = plan_cell(p, 0, s);
        struct cs_trace_options opts = {
            .record = true,
            /* the merged page draws full records only */
            .max_nodes =
                (uint64_t)cs_config_int(c->cfg, "output.tree_max_nodes")};
        if (!opts.max_nodes || opts.max_nodes > CS_TRACE_FULL_NODES)
            opts.max_nodes = CS_TRACE_FULL_NODES;
        tracer[s] = cs_tracer_new(&c->job.problem, &opts);
        struct cs_result res;
        if (p->req->search(p->req->ud, &c->job, tracer[s], &res, err))
            rc = place_error(p, 0, s, err);
        else if (res.status == CS_INTERRUPTED)
            rc = 1;
    }
    if (!rc &&
        cs_tracer_write_merged_html(tracer[0], p->st[0].name, tracer[1],
                                    p->st[1].name, p->tree_file, p->title))
        rc = cs_error_at(err, p->tree_pos, "cannot write '%s': %s", p->tree,
                         strerror(errno));
    for (size_t s = 0; s < 2 && !rc; s++)
        if (cs_tracer_recorded(tracer[s]) < cs_tracer_nodes(tracer[s]))
            fprintf(stderr,
                    "csearch: %s: strategy '%s' entered %" PRIu64
                    " nodes; the page holds the first %" PRIu64
                    " (output.tree_max_nodes)\n",
                    p->tree, p->st[s].name, cs_tracer_nodes(tracer[s]),
                    cs_tracer_recorded(tracer[s]));
    cs_tracer_free(tracer[0]);
    cs_tracer_free(tracer[1]);
    return rc;
}

static void plan_free(struct plan *p)
{
    for (size_t k = 0; p->cells && k < plan_columns(p) * p->nst; k++) {
        struct cell *c = &p->cells[k];
        if (c->ready)
            cs_job_free(&c->job);
        cs_config_free(c->cfg);
        free(c->seconds);
    }
    for (size_t s = 0; s < p->nst; s++) {
        for (size_t k = 0; k < p->st[s].nsets; k++)
            free(p->st[s].sets[k].assign);
        free(p->st[s].sets);
    }
    if (p->csv_file)
        fclose(p->csv_file);
    if (p->plot_file)
        fclose(p->plot_file);
    if (p->tree_file)
        fclose(p->tree_file);
    free(p->others);
    free(p->st);
    free(p->cells);
    free(p->ns);
    free(p->n_pos);
}

int compare_run(const struct compare_request *req, struct cs_config *cfg,
                const struct cs_registry *reg, enum cs_status *status,
                struct cs_error *err)
{
    struct plan p = {.req = req};
    int rc = read_plan(&p, cfg, err);
    if (!rc) {
        /* the largest n first: it is the one a model refuses (beyond a
         * limit) and the dearest to set up, so a refusal comes before the
         * smaller n have taken their time and memory */
        p.cells = cs_xcalloc(plan_columns(&p) * p.nst, sizeof *p.cells);
        for (size_t i = plan_columns(&p); !rc && i-- > 0;)
            for (size_t s = 0; !rc && s < p.nst; s++)
                rc = setup_cell(&p, i, s, reg, err);
    }
    if (!rc)
        rc = out_file_open(&p.csv_file, p.csv, p.csv_pos, false, err);
    if (!rc)
        rc = out_file_open(&p.plot_file, p.plot, p.plot_pos, false, err);
    if (!rc)
        rc = out_file_open(&p.tree_file, p.tree, p.tree_pos, true, err);
    int ran = rc ? -1 : run_rounds(&p, err);
    /* the page after the timed rounds; should it fail, the results are
     * still printed, then its error */
    struct cs_error tree_err;
    int tree = ran == 0 && p.tree_file ? write_tree(&p, &tree_err) : 0;
    if (ran >= 0)
        rc = compare_report(&p, err);
    else
        rc = -1;
    if (!rc && tree < 0) {
        *err = tree_err;
        rc = -1;
    }
    *status = rc ? CS_COMPLETE : plan_status(&p);
    plan_free(&p);
    return rc ? -1 : 0;
}
