/* traces.c - the CLI's side of --trace, --trace-html, --tree, --profiler.
 *
 * The files are opened and tried with a byte before the search, so a path
 * that cannot be written (a missing folder, /dev/full, a full disk) is a
 * config error (exit 2, nothing searched); the text trace goes to
 * stdout ahead of the results, as it is what the user asked to see.  A tree
 * larger than output.tree_max_nodes is written up to the cap, and one line
 * on stderr says so; a local search has no tree (--tree is refused), and its
 * page replays its first starts and steps up to the same cap.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "output.h"

static int open_out(FILE **f, const struct cs_config *cfg, const char *key,
                    struct cs_error *err)
{
    return out_file_open(f, cs_config_str(cfg, key), cs_config_pos(cfg, key),
                         true, err);
}

/* "nqueens n=5, count, symmetry mirror, prune forward": the model, its
 * integer params, the task and the strategies that differ from the default
 * (but the kernel: a trace always runs on the engine). */
static void title_of(const struct cs_job *job, const struct cs_config *cfg,
                     char *buf, size_t size)
{
    const struct cs_option *const tables[] = {job->model->options,
                                              cs_framework_options, NULL};
    size_t used = (size_t)snprintf(buf, size, "%s", job->model->name);
    for (const struct cs_option *o = job->model->options; o->key; o++)
        if (o->type == CS_OPT_INT && !strncmp(o->key, "params.", 7) &&
            used < size)
            used += (size_t)snprintf(buf + used, size - used, " %s=%" PRId64,
                                     o->key + 7, cs_config_int(cfg, o->key));
    if (used < size)
        used += (size_t)snprintf(buf + used, size - used, ", %s",
                                 cs_task_name(job->task));
    for (int t = 0; tables[t]; t++)
        for (const struct cs_option *o = tables[t]; o->key; o++) {
            const char *v =
                o->type == CS_OPT_ENUM ? cs_config_str(cfg, o->key) : NULL;
            if (!v || strncmp(o->key, "strategy.", 9) ||
                !strcmp(o->key, "strategy.kernel") ||
                (o->def && !strcmp(v, o->def)) || used >= size)
                continue;
            used += (size_t)snprintf(buf + used, size - used, ", %s %s",
                                     o->key + 9, v);
        }
}

/* Remove what open_out() created at key, if it is a regular file: never a
 * device (--tree /dev/full run as root would delete the device node). */
static void remove_output(FILE *f, const struct cs_config *cfg, const char *key)
{
    struct stat st;
    if (f && !fstat(fileno(f), &st) && S_ISREG(st.st_mode))
        remove(cs_config_str(cfg, key));
}

void traces_close(struct traces *tr, bool remove_files)
{
    if (remove_files) {
        remove_output(tr->html, tr->cfg, "output.trace_html");
        remove_output(tr->dot, tr->cfg, "output.tree");
    }
    if (tr->html)
        fclose(tr->html);
    if (tr->dot)
        fclose(tr->dot);
    cs_tracer_free(tr->tracer);
    cs_profiler_free(tr->profiler);
    memset(tr, 0, sizeof *tr);
}

/* Whether the config asks for any trace (output.trace, trace_html or
 * tree); before the config is checked, by its raw nodes: the job is told,
 * and a model then sets up a state its describe hook can show. */
bool cli_traced(const struct cs_config *cfg)
{
    bool on = false;
    struct cs_error ignored;
    const struct cs_node *trace = cs_config_node(cfg, "output.trace");
    if (trace && cs_node_bool(trace, "output.trace", &on, &ignored))
        on = false; /* the check reports it */
    return on || cs_config_node(cfg, "output.trace_html") ||
           cs_config_node(cfg, "output.profiler") ||
           cs_config_node(cfg, "output.tree");
}

/* ---- output.profile (--profile) ------------------------------------------ */

bool cli_profiled(const struct cs_config *cfg)
{
    bool on = false;
    struct cs_error ignored;
    const struct cs_node *node = cs_config_node(cfg, "output.profile");
    if (node && cs_node_bool(node, "output.profile", &on, &ignored))
        on = false; /* the check reports it */
    return on;
}

/* A profile counts the nodes of one tree search, or of a counting kernel
 * that has levels (cs_problem.profile_unit, whose units threads may share),
 * printed as text or JSON.  A kernel without levels is given up for it (the
 * model was told: cli_profiled). */
static int profile_open(struct traces *tr, const struct cs_job *job,
                        const struct cs_config *cfg, struct cs_error *err)
{
    if (!cs_config_bool(cfg, "output.profile"))
        return 0;
    struct cs_pos pos = cs_config_pos(cfg, "output.profile");
    enum cs_format format = cs_config_enum(cfg, "output.format");
    if (format != CS_FORMAT_TEXT && format != CS_FORMAT_JSON)
        return cs_error_at(err, pos,
                           "output.profile prints with output.format text "
                           "or json");
    if (job->problem.setup_instance)
        return cs_error_at(err, pos,
                           "a per-level profile counts one search, not a "
                           "batch of instances");
    bool kernel = job->problem.profile_unit && job->task == CS_TASK_COUNT;
    if (job->threads > 1 && !kernel)
        return cs_error_at(err, cs_config_pos(cfg, "strategy.threads"),
                           "a per-level profile counts one search: use one "
                           "thread");
    if (job->layers.local || job->task == CS_TASK_ESTIMATE)
        return cs_error_at(err, pos,
                           "%s has no levels to profile: the profile counts "
                           "the nodes of a tree search",
                           job->layers.local ? "local search"
                                             : "task estimate");
    tr->levels = job->problem.nvars + 1;
    tr->profile = cs_xcalloc((size_t)tr->levels, sizeof *tr->profile);
    return 0;
}

/* The first trace key the config gives, for the position of an error. */
static const char *trace_key(const struct cs_config *cfg)
{
    static const char *const keys[] = {"output.trace", "output.trace_html",
                                       "output.profiler", "output.tree"};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (cs_config_has(cfg, keys[i]))
            return keys[i];
    return keys[0];
}

/* The checks a traced config needs beyond the job's: text output, one
 * thread, no batch. */
static int trace_check(const struct cs_job *job, const struct cs_config *cfg,
                       struct cs_error *err)
{
    if (cs_config_bool(cfg, "output.trace") &&
        cs_config_enum(cfg, "output.format") == CS_FORMAT_JSON)
        return cs_error_at(err, cs_config_pos(cfg, "output.trace"),
                           "output.trace prints text lines; it cannot go "
                           "with output.format json");
    if (job->problem.setup_instance)
        return cs_error_at(err, cs_config_pos(cfg, trace_key(cfg)),
                           "a trace follows one search, not a batch of "
                           "instances");
    if (job->threads > 1)
        return cs_error_at(err, cs_config_pos(cfg, "strategy.threads"),
                           "a trace follows one search: use one thread");
    if (job->layers.local && cs_config_str(cfg, "output.tree"))
        return cs_error_at(err, cs_config_pos(cfg, "output.tree"),
                           "local search has no tree to draw: --trace "
                           "and --trace-html show its steps");
    if (job->layers.local && cs_config_str(cfg, "output.profiler"))
        return cs_error_at(err, cs_config_pos(cfg, "output.profiler"),
                           "local search has no tree to profile: --trace "
                           "and --trace-html show its steps");
    return 0;
}

int traces_open(struct traces *tr, const struct cs_job *job,
                const struct cs_config *cfg, struct cs_error *err)
{
    memset(tr, 0, sizeof *tr);
    tr->cfg = cfg;
    if (profile_open(tr, job, cfg, err))
        return -1;
    if (!cli_traced(cfg))
        return 0;
    if (trace_check(job, cfg, err) ||
        open_out(&tr->html, cfg, "output.trace_html", err) ||
        open_out(&tr->dot, cfg, "output.tree", err)) {
        traces_close(tr, true);
        return -1;
    }
    struct cs_trace_options opts = {
        .text = cs_config_bool(cfg, "output.trace") ? stdout : NULL,
        .record = tr->html || tr->dot,
        .max_nodes = (uint64_t)cs_config_int(cfg, "output.tree_max_nodes"),
        .profile = tr->profile,
        .levels = tr->levels,
    };
    tr->tracer = cs_tracer_new(&job->problem, &opts);
    tr->local = job->layers.local;
    title_of(job, cfg, tr->title, sizeof tr->title);
    const char *where = cs_config_str(cfg, "output.profiler");
    if (where) {
        char msg[512];
        /* the process id tells runs apart; neighbourhood rounds (a traced
         * run has no restarts) search a tree each */
        const struct cs_profiler_start start = {
            .name = tr->title,
            .execution_id = (long)getpid(),
            .restarts = job->task == CS_TASK_OPTIMIZE &&
                        job->layers.lns_nodes && job->problem.hooks->relax,
        };
        tr->profiler = cs_profiler_connect(where, &start, msg, sizeof msg);
        if (!tr->profiler) {
            cs_error_set(err, NULL, "--profiler: %s", msg);
            traces_close(tr, true);
            return -1;
        }
    }
    return 0;
}

static int finish(struct traces *tr, FILE *f, const char *key, bool html)
{
    const char *path = cs_config_str(tr->cfg, key);
    int rc = html ? cs_tracer_write_html(tr->tracer, f, tr->title)
                  : cs_tracer_write_dot(tr->tracer, f, tr->title);
    if (rc) {
        fprintf(stderr, "csearch: %s: cannot write: %s\n", path,
                strerror(errno));
        return -1;
    }
    uint64_t seen = cs_tracer_nodes(tr->tracer);
    uint64_t kept = cs_tracer_recorded(tr->tracer);
    if (kept < seen && tr->local)
        fprintf(stderr,
                "csearch: %s: the search made %" PRIu64 " starts and steps; "
                "the page replays the first %" PRIu64 " (%s)\n",
                path, seen, kept,
                kept < (uint64_t)cs_config_int(tr->cfg, "output.tree_max_nodes")
                    ? "a local search's page holds 2000 at most"
                    : "output.tree_max_nodes");
    else if (!html && cs_tracer_detailed(tr->tracer) < seen &&
             cs_tracer_detailed(tr->tracer) < kept)
        fprintf(stderr,
                "csearch: %s: the search entered %" PRIu64 " nodes; the tree "
                "shows the first %" PRIu64 " (--tree draws at most %d)\n",
                path, seen, cs_tracer_detailed(tr->tracer),
                CS_TRACE_FULL_NODES);
    else if (kept < seen)
        fprintf(stderr,
                "csearch: %s: the search entered %" PRIu64 " nodes; %s "
                "the first %" PRIu64 " (output.tree_max_nodes)\n",
                path, seen, html ? "the page holds" : "the tree shows", kept);
    return 0;
}

int traces_end(struct traces *tr)
{
    int rc = 0;
    cs_profiler_done(tr->profiler);
    if (cs_profiler_lost(tr->profiler))
        fprintf(stderr,
                "csearch: --profiler: the profiler went away after %llu "
                "nodes; the search went on without it\n",
                cs_profiler_sent(tr->profiler));
    if (tr->html && finish(tr, tr->html, "output.trace_html", true))
        rc = -1;
    if (tr->dot && finish(tr, tr->dot, "output.tree", false))
        rc = -1;
    return rc;
}
