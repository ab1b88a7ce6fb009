/* output.c - what the CLI prints: boards, results and statistics, as text or
 * as exactly one JSON object.
 *
 * Boards stream as the search finds them (an enumeration can be larger than
 * memory would like), so the JSON object is written in three parts: the head
 * (model, task, params, strategy) with the first board or the result, the
 * boards during the search, the results after it.  Nothing here is written
 * to stderr.
 */
#include <ctype.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

void out_json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p == '\n')
            fputs("\\n", out);
        else if (*p == '\t')
            fputs("\\t", out);
        else if (*p < 0x20)
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

/* Is text a JSON literal as it stands: a number in JSON's own syntax
 * (so 007 or 0x10 stay strings and keep their digits), true, false or
 * null?  Only a plain scalar is asked: a quoted one is a string.  The text
 * is copied, never converted, so nothing the user wrote changes. */
static bool is_json_literal(const char *text)
{
    if (!strcmp(text, "true") || !strcmp(text, "false") ||
        !strcmp(text, "null"))
        return true;
    const char *p = text + (*text == '-');
    if (*p == '0')
        p++;
    else if (*p >= '1' && *p <= '9')
        while (isdigit((unsigned char)*p))
            p++;
    else
        return false;
    if (*p == '.') {
        if (!isdigit((unsigned char)*++p))
            return false;
        while (isdigit((unsigned char)*p))
            p++;
    }
    if (*p == 'e' || *p == 'E') {
        p += p[1] == '+' || p[1] == '-';
        if (!isdigit((unsigned char)*++p))
            return false;
        while (isdigit((unsigned char)*p))
            p++;
    }
    return !*p;
}

/* A config subtree (a CS_OPT_NODE param) as JSON: a mapping as an object
 * (keys in file order), a sequence as an array, a scalar as a JSON literal
 * or a string. */
static void json_node(FILE *out, const struct cs_node *node)
{
    if (cs_node_kind(node) == CS_NODE_SCALAR) {
        if (!cs_node_quoted(node) && is_json_literal(cs_node_text(node)))
            fputs(cs_node_text(node), out);
        else
            out_json_string(out, cs_node_text(node));
        return;
    }
    bool map = cs_node_kind(node) == CS_NODE_MAP;
    fputc(map ? '{' : '[', out);
    for (size_t i = 0; i < cs_node_len(node); i++) {
        fputs(i ? ", " : "", out);
        if (map) {
            out_json_string(out, cs_node_key(node, i));
            fputs(": ", out);
        }
        json_node(out, cs_node_at(node, i));
    }
    fputc(map ? '}' : ']', out);
}

/* One option's value as a JSON value of its type. */
static void json_option(FILE *out, const struct cs_config *cfg,
                        const struct cs_option *opt)
{
    switch (opt->type) {
    case CS_OPT_INT:
        fprintf(out, "%" PRId64, cs_config_int(cfg, opt->key));
        break;
    case CS_OPT_REAL:
        fprintf(out, "%.17g", cs_config_real(cfg, opt->key));
        break;
    case CS_OPT_BOOL:
        fputs(cs_config_bool(cfg, opt->key) ? "true" : "false", out);
        break;
    case CS_OPT_ENUM:
    case CS_OPT_STRING: {
        const char *s = cs_config_str(cfg, opt->key);
        if (s)
            out_json_string(out, s);
        else
            fputs("null", out);
        break;
    }
    case CS_OPT_NODE: {
        const struct cs_node *node = cs_config_node(cfg, opt->key);
        if (node)
            json_node(out, node);
        else
            fputs("null", out);
        break;
    }
    }
}

/* A strategy key whose value the job resolved ("auto" and the model's
 * proposals): what was chosen, or false when the config's value stands. */
static bool json_chosen(FILE *out, const struct cs_job *job, const char *key)
{
    const struct cs_problem *p = &job->problem;
    char text[64];
    for (size_t i = 0;
         i < sizeof p->chosen / sizeof *p->chosen && p->chosen[i].key; i++)
        if (!strcmp(key, p->chosen[i].key)) {
            const char *v = p->chosen[i].value;
            char *end;
            strtod(v, &end);
            if (*v && !*end)
                fputs(v, out); /* a number */
            else
                out_json_string(out, v);
            return true;
        }
    if (!strcmp(key, "strategy.kernel") && p->kernel)
        out_json_string(out, p->kernel); /* what "auto" became */
    else if (!strcmp(key, "strategy.state") && p->state)
        out_json_string(out, p->state); /* what the run kept */
    else if (cs_job_layer_value(job, key, text, sizeof text))
        fputs(text, out); /* what the layers settled on */
    else
        return false;
    return true;
}

/* The keys of one section ("params") from every table, as a JSON object. */
static void json_section(FILE *out, const struct cs_config *cfg,
                         const struct cs_option *const *tables,
                         const char *section, const struct cs_job *job)
{
    size_t len = strlen(section);
    int first = 1;
    fputc('{', out);
    for (; *tables; tables++)
        for (const struct cs_option *opt = *tables; opt->key; opt++) {
            if (strncmp(opt->key, section, len) || opt->key[len] != '.')
                continue;
            if (opt->type == CS_OPT_NODE && !cs_config_has(cfg, opt->key))
                continue;
            fputs(first ? "" : ", ", out);
            out_json_string(out, opt->key + len + 1);
            fputs(": ", out);
            if (!job || !json_chosen(out, job, opt->key))
                json_option(out, cfg, opt);
            first = 0;
        }
    fputc('}', out);
}

void out_init(struct out *o, const struct cs_job *job,
              const struct cs_config *cfg)
{
    *o = (struct out){.out = stdout,
                      .sol = stdout,
                      .job = job,
                      .cfg = cfg,
                      .format =
                          (enum cs_format)cs_config_enum(cfg, "output.format"),
                      .show = cs_config_int(cfg, "output.show"),
                      .stats = cs_config_bool(cfg, "output.stats")};
    o->board.csv = o->format == CS_FORMAT_CSV;   /* a model may honour it */
    o->board.html = o->format == CS_FORMAT_HTML; /* likewise */
    if (o->format == CS_FORMAT_HTML && (o->show < 0 || o->show > 1))
        o->show = 1; /* a page holds one solution */
}

void out_free(struct out *o)
{
    cs_board_free(&o->board);
    free(o->best);
}

/* The head of the JSON object, written when the first board or the result
 * is: a run that fails before either leaves stdout empty. */
void out_head(struct out *o)
{
    if (o->format != CS_FORMAT_JSON || o->head_done)
        return;
    o->head_done = true;
    const struct cs_option *const tables[] = {cs_framework_options,
                                              o->job->model->options, NULL};
    fputs("{\"model\": ", o->out);
    out_json_string(o->out, o->job->model->name);
    fputs(", \"task\": ", o->out);
    out_json_string(o->out, cs_task_name(o->job->task));
    fputs(", \"params\": ", o->out);
    json_section(o->out, o->cfg, tables, "params", NULL);
    fputs(", \"strategy\": ", o->out);
    json_section(o->out, o->cfg, tables, "strategy", o->job);
    if (o->job->problem.isa) {
        fputs(", \"isa\": ", o->out);
        out_json_string(o->out, o->job->problem.isa);
    }
    fputs(", \"limits\": ", o->out);
    json_section(o->out, o->cfg, tables, "limits", NULL);
    fputs(o->job->problem.setup_instance ? ", \"results\": ["
                                         : ", \"boards\": [",
          o->out);
}

/* The board in o->board: a JSON list of lines, or the lines and a blank
 * line (text), or a CSV row (output_csv.c). */
static void print_board(struct out *o)
{
    if (o->format == CS_FORMAT_JSON) {
        fputs(o->shown ? ", [" : "[", o->out);
        for (size_t i = 0; i < o->board.count; i++) {
            fputs(i ? ", " : "", o->out);
            out_json_string(o->out, o->board.lines[i]);
        }
        fputc(']', o->out);
    } else if (o->format == CS_FORMAT_CSV) {
        out_csv_board(o);
    } else if (o->format == CS_FORMAT_HTML) {
        out_html_board(o);
    } else {
        for (size_t i = 0; i < o->board.count; i++)
            fprintf(o->sol, "%s\n", o->board.lines[i]);
        if (o->format == CS_FORMAT_TEXT)
            fputc('\n', o->sol);
    }
    o->shown++;
}

bool out_solution(void *ud, const struct cs_hooks *hooks, const void *state,
                  uint64_t weight)
{
    struct out *o = ud;
    if (o->job->task == CS_TASK_COUNT || !hooks->emit)
        return true;
    if (o->job->task == CS_TASK_OPTIMIZE) {
        /* each solution beats the last: keep it, print the best at the
         * end -- drawn now if the model frees what its states own (fini),
         * since the engine's states are gone by then */
        if (hooks->fini) {
            cs_board_clear(&o->board);
            hooks->emit(state, 0, &o->board);
            o->drawn = true;
            return true;
        }
        size_t size = cs_problem_state_size(&o->job->problem);
        if (!o->best)
            o->best = cs_xmalloc(size);
        memcpy(o->best, state, size);
        o->best_hooks = hooks;
        return true;
    }
    /* solve shows the solution found, not the others its weight stands for */
    uint64_t boards = o->job->task == CS_TASK_SOLVE ? 1 : weight;
    out_head(o);
    if (o->format == CS_FORMAT_COLUMNS || out_board_too_large(o, hooks)) {
        /* one line a variable: the solution found, not its images */
        if (o->show >= 0 && o->shown >= (uint64_t)o->show)
            return true;
        if (o->format == CS_FORMAT_COLUMNS)
            out_columns(o, hooks, state);
        else
            o->board_hidden = true;
        return true;
    }
    for (uint64_t k = 0; k < boards; k++) {
        if (o->show >= 0 && o->shown >= (uint64_t)o->show)
            return true;
        cs_board_clear(&o->board);
        hooks->emit(state, k, &o->board);
        print_board(o);
    }
    return true;
}

/* What the local-search layer did: steps, restarts, conflicts left, the
 * process's peak memory. */
static void local_stats(struct out *o, const struct cs_result *r)
{
    double rate =
        r->stats.seconds > 0 ? (double)r->steps / r->stats.seconds : 0;
    if (o->format == CS_FORMAT_JSON)
        fprintf(o->out,
                ", \"search\": \"min-conflicts\", \"steps\": %" PRIu64
                ", \"steps_per_second\": %.0f, \"restarts\": %" PRIu64
                ", \"conflicts\": %" PRIu64 ", \"peak_bytes\": %" PRIu64,
                r->steps, rate, r->restarts, r->conflicts, r->peak_bytes);
    else if (o->stats)
        fprintf(o->out,
                "search     min-conflicts\nsteps      %" PRIu64
                "\nsteps/s    %.0f\nrestarts   %" PRIu64 "\nconflicts  %" PRIu64
                "\nseconds    %.6f\n"
                "peak       %.1f MB\n",
                r->steps, rate, r->restarts, r->conflicts, r->stats.seconds,
                (double)r->peak_bytes / 1e6);
}

/* optimize: cost, bound and the gap between them, as a fraction of the
 * cost (0 when optimal). */
static double gap(const struct cs_result *r)
{
    return r->cost ? (double)(r->cost - r->bound) / (double)r->cost : 0.0;
}

void out_end(struct out *o, const struct cs_result *r)
{
    const struct cs_stats *s = &r->stats;
    const struct cs_problem *p = &o->job->problem;
    /* this run's nodes: not those taken from a checkpoint or merged logs */
    double rate = s->seconds > 0
                      ? (double)(s->nodes - r->units.resumed_nodes) / s->seconds
                      : 0;
    /* a bound and a gap for a search that optimised; a given assignment
     * checked has its cost alone (whatever the task) */
    bool checked = r->status == CS_CHECKED && p->hooks->cost;
    bool costs = o->job->task == CS_TASK_OPTIMIZE && !checked;
    bool cost = (costs || checked) && s->solutions;
    if (o->job->task == CS_TASK_ESTIMATE) {
        out_estimate_end(o, r); /* output_estimate.c */
        return;
    }
    out_head(o);
    if ((o->best || o->drawn) && (o->show < 0 || o->show > 0)) {
        if (o->best) {
            cs_board_clear(&o->board);
            o->best_hooks->emit(o->best, 0, &o->board);
        }
        print_board(o);
    }
    if (o->board_hidden)
        fprintf(stderr,
                "csearch: the board is not drawn: %d rows are more than the "
                "%d of a Q/. board; output.format: columns writes it "
                "(output.file: PATH sends it to a file)\n",
                p->nvars, CLI_BOARD_MAX);
    fflush(o->sol);
    if (o->format == CS_FORMAT_CSV) {
        out_csv_end(o, r); /* a table alone, ready for a spreadsheet */
        fflush(o->out);
        return;
    }
    if (o->format == CS_FORMAT_HTML) {
        out_html_end(o, r);
        fflush(o->sol);
        if (o->sol == o->out)
            return; /* the page alone on stdout; else the results follow */
    }
    if (o->format == CS_FORMAT_JSON && o->job->layers.local) {
        fprintf(o->out,
                "], \"status\": \"%s\", \"solutions\": %" PRIu64
                ", \"seconds\": %.6f",
                cs_status_name(r->status), s->solutions, s->seconds);
        local_stats(o, r);
        fputs("}\n", o->out);
    } else if (o->format == CS_FORMAT_JSON) {
        fprintf(o->out, "], \"status\": \"%s\", \"solutions\": %" PRIu64,
                cs_status_name(r->status), s->solutions);
        if (cost)
            fprintf(o->out, ", \"cost\": %" PRId64, r->cost);
        if (costs && r->status != CS_INFEASIBLE) /* nothing to bound */
            fprintf(o->out, ", \"bound\": %" PRId64, r->bound);
        if (costs && s->solutions)
            fprintf(o->out, ", \"gap\": %.6f", gap(r));
        if (costs && r->status != CS_INFEASIBLE)
            fprintf(o->out, ", \"root_bound\": %" PRId64, r->root_bound);
        if (costs && r->first_seconds >= 0)
            fprintf(o->out, ", \"first_seconds\": %.6f", r->first_seconds);
        if (p->reports_unique)
            fprintf(o->out, ", \"unique\": %" PRIu64, s->unique);
        fprintf(o->out,
                ", \"nodes\": %" PRIu64 ", \"checks\": %" PRIu64
                ", \"fails\": %" PRIu64 ", \"max_depth\": %d, \"seconds\": %.6f"
                ", \"nodes_per_second\": %.0f",
                s->nodes, s->checks, s->fails, s->max_depth, s->seconds, rate);
        if (r->units.total)
            fprintf(o->out,
                    ", \"units\": {\"total\": %" PRIu64 ", \"done\": %" PRIu64
                    ", \"resumed\": %" PRIu64 ", \"first\": %" PRIu64
                    ", \"end\": %" PRIu64 "}",
                    r->units.total, r->units.done, r->units.resumed,
                    r->units.first, r->units.end);
        /* what the layers did, when they did something */
        if (r->restarts)
            fprintf(o->out, ", \"restarts\": %" PRIu64, r->restarts);
        if (r->rounds)
            fprintf(o->out, ", \"rounds\": %" PRIu64, r->rounds);
        if (r->steps) /* the moves layer's */
            fprintf(o->out, ", \"steps\": %" PRIu64, r->steps);
        if (r->portfolio)
            fprintf(o->out, ", \"portfolio\": %d", r->portfolio);
        fputs("}\n", o->out);
    } else {
        fprintf(o->out, "solutions  %" PRIu64 "\n", s->solutions);
        if (p->reports_unique)
            fprintf(o->out, "unique     %" PRIu64 "\n", s->unique);
        if (cost)
            fprintf(o->out, "cost       %" PRId64 "\n", r->cost);
        if (costs && r->status != CS_INFEASIBLE)
            fprintf(o->out, "bound      %" PRId64 "\n", r->bound);
        if (costs && s->solutions)
            fprintf(o->out, "gap        %.2f%%\n", 100.0 * gap(r));
        if (!o->quiet)
            fprintf(o->out, "status     %s\n", cs_status_name(r->status));
        if (o->job->layers.local && !o->quiet)
            local_stats(o, r);
        else if (o->stats) {
            fprintf(o->out,
                    "nodes      %" PRIu64 "\nchecks     %" PRIu64
                    "\nfails      %" PRIu64 "\nmax depth  %d\n"
                    "seconds    %.6f\nnodes/s    %.0f\n",
                    s->nodes, s->checks, s->fails, s->max_depth, s->seconds,
                    rate);
            if (p->kernel)
                fprintf(o->out, "kernel     %s\n", p->kernel);
            if (p->isa)
                fprintf(o->out, "isa        %s\n", p->isa);
            if (r->units.total &&
                r->units.end - r->units.first < r->units.total)
                fprintf(o->out,
                        "units      %" PRIu64 "/%" PRIu64 " of slice %" PRIu64
                        ":%" PRIu64 " (%" PRIu64 " resumed, %" PRIu64
                        " in all)\n",
                        r->units.done, r->units.end - r->units.first,
                        r->units.first, r->units.end, r->units.resumed,
                        r->units.total);
            else if (r->units.total)
                fprintf(o->out,
                        "units      %" PRIu64 "/%" PRIu64 " (%" PRIu64
                        " resumed)\n",
                        r->units.done, r->units.total, r->units.resumed);
        }
    }
    fflush(o->out);
}

/* ---- batches ------------------------------------------------------------ */

/* Tasks generate and rate: the model's note is the result of an instance
 * its count to two found unique. */
static bool noted(const struct cs_job *job)
{
    return job->task == CS_TASK_GENERATE || job->task == CS_TASK_RATE;
}

/* The solutions an instance's search stops at (batch.c: 2 for a note). */
static uint64_t solution_limit(const struct cs_job *job)
{
    return noted(job) ? 2 : job->limits.solutions;
}

/* What an instance's search found, in a word or a number. */
static void batch_outcome(const struct cs_job *job,
                          const struct cs_batch_result *r, char *buf,
                          size_t size)
{
    uint64_t limit = solution_limit(job);
    bool enough = limit && r->stats.solutions >= limit;
    if (r->status == CS_INTERRUPTED)
        snprintf(buf, size, "interrupted");
    else if (r->note && r->status == CS_COMPLETE && r->stats.solutions == 1)
        snprintf(buf, size, "%s", r->note);
    else if (r->solution)
        snprintf(buf, size, "%s", r->solution);
    else if (r->status == CS_LIMIT && enough)
        snprintf(buf, size, "%" PRIu64 " or more", r->stats.solutions);
    else if (r->status == CS_LIMIT)
        snprintf(buf, size, "stopped by a limit (%" PRIu64 " found)",
                 r->stats.solutions);
    else if (!r->stats.solutions)
        snprintf(buf, size, "no solution");
    else
        snprintf(buf, size, "%" PRIu64, r->stats.solutions);
}

void out_batch_result(struct out *o, const struct cs_batch_result *r,
                      struct batch_summary *sum)
{
    char outcome[1024];
    sum->instances++;
    if (r->invalid) {
        char line[1024];
        sum->invalid++;
        cs_error_format(&r->err, line, sizeof line);
        fprintf(stderr, "csearch: %s\n", line);
        snprintf(outcome, sizeof outcome, "invalid");
    } else {
        sum->nodes += r->stats.nodes;
        /* a search that ran out (limit) with two solutions or more, or
         * completed with them, found the puzzle ambiguous */
        bool complete = r->status == CS_COMPLETE;
        if (r->stats.solutions)
            sum->solved++;
        uint64_t limit = solution_limit(o->job);
        if (r->status == CS_LIMIT && !(limit && r->stats.solutions >= limit))
            sum->limited++; /* a node or time limit, not an answer */
        if (complete && !r->stats.solutions)
            sum->none++;
        else if (r->stats.solutions == 1 && complete &&
                 (o->job->task == CS_TASK_COUNT || noted(o->job)))
            sum->unique++;
        else if (r->stats.solutions >= 2)
            sum->multiple++;
        batch_outcome(o->job, r, outcome, sizeof outcome);
    }
    if (o->format == CS_FORMAT_JSON) {
        out_head(o);
        fputs(sum->instances > 1 ? ", {" : "{", o->out);
        fprintf(o->out, "\"index\": %" PRIu64, r->index);
        if (r->invalid) {
            fputs(", \"invalid\": ", o->out);
            out_json_string(o->out, r->err.msg);
        } else {
            fprintf(o->out,
                    ", \"status\": \"%s\", \"solutions\": %" PRIu64
                    ", \"nodes\": %" PRIu64,
                    cs_status_name(r->status), r->stats.solutions,
                    r->stats.nodes);
            if (r->solution) {
                fputs(", \"solution\": ", o->out);
                out_json_string(o->out, r->solution);
            }
            if (r->note) {
                fprintf(o->out, ", \"%s\": ",
                        o->job->task == CS_TASK_GENERATE ? "puzzle" : "rating");
                out_json_string(o->out, r->note);
            }
        }
        fputc('}', o->out);
    } else if (o->format == CS_FORMAT_CSV) {
        out_csv_batch_result(o, r, outcome, sum->instances - 1);
    } else {
        fprintf(o->out, "%s\n", outcome);
    }
}

void out_batch_end(struct out *o, const struct batch_summary *s)
{
    double rate = s->seconds > 0 ? (double)s->instances / s->seconds : 0;
    double guesses = s->instances > s->invalid
                         ? (double)(s->nodes - (s->instances - s->invalid)) /
                               (double)(s->instances - s->invalid)
                         : 0;
    out_head(o);
    if (o->format == CS_FORMAT_JSON) {
        fprintf(o->out,
                "], \"status\": \"%s\", \"summary\": {\"instances\": %" PRIu64
                ", \"solved\": %" PRIu64 ", \"unique\": %" PRIu64
                ", \"multiple\": %" PRIu64 ", \"no_solution\": %" PRIu64
                ", \"invalid\": %" PRIu64 ", \"limited\": %" PRIu64
                ", \"nodes\": %" PRIu64
                ", \"seconds\": %.6f, \"per_second\": %.1f"
                ", \"guesses_per_instance\": %.2f}}\n",
                s->stopped ? "interrupted" : "complete", s->instances,
                s->solved, s->unique, s->multiple, s->none, s->invalid,
                s->limited, s->nodes, s->seconds, rate, guesses);
    } else if (o->stats && o->format != CS_FORMAT_CSV) {
        fprintf(o->out,
                "\ninstances    %" PRIu64 "\nsolved       %" PRIu64
                "\nunique       %" PRIu64 "\nmultiple     %" PRIu64
                "\nno solution  %" PRIu64 "\ninvalid      %" PRIu64
                "\nlimited      %" PRIu64
                "\nstatus       %s\nseconds      %.6f\nper second   %.1f"
                "\nguesses      %.2f per instance\n",
                s->instances, s->solved, s->unique, s->multiple, s->none,
                s->invalid, s->limited, s->stopped ? "interrupted" : "complete",
                s->seconds, rate, guesses);
    }
    fflush(o->out);
}
