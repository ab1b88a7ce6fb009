/* output.c - a run's boards, results and statistics, as text or as exactly
 * one JSON object; the other formats are a file each (output_impl.h).
 *
 * Boards stream as the search finds them (an enumeration can be larger than
 * memory would like), so the JSON object is written in three parts: the head
 * (model, task, params, strategy; output_json.c) with the first board or the
 * result, the boards during the search, the results after it.  Only a board
 * too large to draw is said on stderr.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "output_impl.h"

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
        o->best_hooks = *hooks; /* a traced or profiled run's table is a
                                   copy on the engine's stack */
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
    /* stopped before its start was whole: no conflicts to count */
    char conflicts[24] = "none";
    if (r->conflicts != CS_CONFLICTS_NONE)
        snprintf(conflicts, sizeof conflicts, "%" PRIu64, r->conflicts);
    if (o->format == CS_FORMAT_JSON)
        fprintf(o->out,
                ", \"search\": \"min-conflicts\", \"steps\": %" PRIu64
                ", \"steps_per_second\": %.0f, \"restarts\": %" PRIu64
                ", \"conflicts\": %s, \"peak_bytes\": %" PRIu64,
                r->steps, rate, r->restarts,
                r->conflicts == CS_CONFLICTS_NONE ? "null" : conflicts,
                r->peak_bytes);
    else if (o->stats)
        fprintf(o->out,
                "search     min-conflicts\nsteps      %" PRIu64
                "\nsteps/s    %.0f\nrestarts   %" PRIu64 "\nconflicts  %s"
                "\nseconds    %.6f\n"
                "peak       %.1f MB\n",
                r->steps, rate, r->restarts, conflicts, r->stats.seconds,
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
            char result[160];
            if (costs)
                snprintf(result, sizeof result,
                         "%s: cost %" PRId64 ", bound %" PRId64
                         ", gap %.2f%%, %.1f s",
                         cs_status_name(r->status), r->cost, r->bound,
                         100.0 * gap(r), s->seconds);
            else
                snprintf(result, sizeof result, "%s, %.1f s",
                         cs_status_name(r->status), s->seconds);
            cs_board_clear(&o->board);
            o->board.result = result;
            o->best_hooks.emit(o->best, 0, &o->board);
            o->board.result = NULL;
        }
        print_board(o);
    }
    if (o->board_hidden)
        fprintf(stderr,
                "csearch: the board is not drawn: %d rows are more than the "
                "%d of a Q/. board; output.format: columns writes it "
                "(output.file: PATH sends it to a file)\n",
                p->nvars, OUT_BOARD_MAX);
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
        if (p->note && !p->instances) {
            fputs(", \"note\": ", o->out);
            out_json_string(o->out, p->note);
        }
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
        if (r->large_moves)
            fprintf(o->out, ", \"large_moves\": %" PRIu64, r->large_moves);
        if (r->adoptions)
            fprintf(o->out, ", \"adoptions\": %" PRIu64, r->adoptions);
        if (r->portfolio)
            fprintf(o->out, ", \"portfolio\": %d", r->portfolio);
        if (o->profile)
            out_profile_json(o->out, o->profile, o->levels, p->profile_rows);
        fputs("}\n", o->out);
    } else {
        if (p->note && !p->instances) /* the model's word on the result */
            fprintf(o->out, "%s\n\n", p->note);
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
                fprintf(o->out, "isa        %s%s%s%s\n", p->isa,
                        p->isa_reason ? " (" : "",
                        p->isa_reason ? p->isa_reason : "",
                        p->isa_reason ? ")" : "");
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
        if (o->profile)
            out_profile_text(o->out, o->profile, o->levels, p->profile_rows);
    }
    fflush(o->out);
}
