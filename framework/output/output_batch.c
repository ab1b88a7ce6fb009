/* output_batch.c - a batch's results: one line, CSV row or JSON element per
 * instance in input order, counted into a summary printed at the end.  An
 * invalid instance is one line on stderr and "invalid" in the results.
 */
#include <inttypes.h>
#include <string.h>

#include "output_impl.h"

/* v in decimal at p; returns the end.  A batch prints a few numbers per
 * instance, tens of thousands a second: printf's format parsing was a
 * tenth of a batch of easy Sudokus. */
static char *put_u64(char *p, uint64_t v)
{
    char tmp[20];
    int n = 0;
    do
        tmp[n++] = (char)('0' + v % 10);
    while ((v /= 10));
    while (n)
        *p++ = tmp[--n];
    return p;
}

/* s at p; returns the end. */
static char *put_str(char *p, const char *s)
{
    size_t len = strlen(s);
    memcpy(p, s, len);
    return p + len;
}

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
    else if (size > 20)
        *put_u64(buf, r->stats.solutions) = '\0';
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
        if (o->format != CS_FORMAT_JSON)
            batch_outcome(o->job, r, outcome, sizeof outcome);
    }
    if (o->format == CS_FORMAT_JSON) {
        out_head(o);
        char line[160], *p = line;
        p = put_str(p, sum->instances > 1 ? ", {\"index\": " : "{\"index\": ");
        p = put_u64(p, r->index);
        if (r->invalid) {
            fwrite(line, 1, (size_t)(p - line), o->out);
            fputs(", \"invalid\": ", o->out);
            out_json_string(o->out, r->err.msg);
        } else {
            p = put_str(p, ", \"status\": \"");
            p = put_str(p, cs_status_name(r->status));
            p = put_str(p, "\", \"solutions\": ");
            p = put_u64(p, r->stats.solutions);
            p = put_str(p, ", \"nodes\": ");
            p = put_u64(p, r->stats.nodes);
            fwrite(line, 1, (size_t)(p - line), o->out);
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
        fputs(outcome, o->sol);
        fputc('\n', o->sol);
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
                cs_status_name(s->ended), s->instances, s->solved, s->unique,
                s->multiple, s->none, s->invalid, s->limited, s->nodes,
                s->seconds, rate, guesses);
    } else if (o->stats && o->format != CS_FORMAT_CSV) {
        /* a blank line after the results, when they are on stdout too */
        fprintf(o->out,
                "%sinstances    %" PRIu64 "\nsolved       %" PRIu64
                "\nunique       %" PRIu64 "\nmultiple     %" PRIu64
                "\nno solution  %" PRIu64 "\ninvalid      %" PRIu64
                "\nlimited      %" PRIu64
                "\nstatus       %s\nseconds      %.6f\nper second   %.1f"
                "\nguesses      %.2f per instance\n",
                o->sol == o->out ? "\n" : "", s->instances, s->solved,
                s->unique, s->multiple, s->none, s->invalid, s->limited,
                cs_status_name(s->ended), s->seconds, rate, guesses);
    }
    fflush(o->out);
}
