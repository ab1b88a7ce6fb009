/* output_csv.c - output.format csv: tables a spreadsheet reads as they are.
 *
 * count: a header row and one row of results.  solve/enumerate: a header
 * "solution,line_1,...,line_K" and a row per solution, its number and its
 * board's lines as the columns; a model with a table of its own (a roster)
 * sets board.table and its rows are printed as they are.  A batch: a row
 * per instance.  Fields holding a comma, a quote or a line break are quoted.
 */
#include <inttypes.h>
#include <string.h>

#include "output_impl.h"

void out_csv_field(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\r\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

void out_csv_board(struct out *o)
{
    const struct cs_board *b = &o->board;
    if (b->table) { /* the model's own rows, header and all */
        for (size_t i = 0; i < b->count; i++)
            fprintf(o->sol, "%s\n", b->lines[i]);
        return;
    }
    if (!o->shown) {
        fputs("solution", o->sol);
        for (size_t i = 0; i < b->count; i++)
            fprintf(o->sol, ",line_%zu", i + 1);
        fputc('\n', o->sol);
    }
    fprintf(o->sol, "%" PRIu64, o->shown + 1);
    for (size_t i = 0; i < b->count; i++) {
        fputc(',', o->sol);
        out_csv_field(o->sol, b->lines[i]);
    }
    fputc('\n', o->sol);
}

void out_csv_end(struct out *o, const struct cs_result *r)
{
    if (o->job->task != CS_TASK_COUNT)
        return; /* the solutions' rows are the table */
    const struct cs_stats *s = &r->stats;
    bool unique = o->job->problem.reports_unique;
    fprintf(o->out, "status,solutions%s,nodes,checks,fails,max_depth,seconds\n",
            unique ? ",unique" : "");
    fprintf(o->out, "%s,%" PRIu64, cs_status_name(r->status), s->solutions);
    if (unique)
        fprintf(o->out, ",%" PRIu64, s->unique);
    fprintf(o->out, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%d,%.6f\n", s->nodes,
            s->checks, s->fails, s->max_depth, s->seconds);
}

void out_csv_batch_result(struct out *o, const struct cs_batch_result *r,
                          const char *outcome, uint64_t rows)
{
    if (!rows)
        fputs("index,status,solutions,nodes,result\n", o->sol);
    fprintf(o->sol, "%" PRIu64 ",%s,%" PRIu64 ",%" PRIu64 ",", r->index,
            r->invalid ? "invalid" : cs_status_name(r->status),
            r->stats.solutions, r->stats.nodes);
    out_csv_field(o->sol, outcome);
    fputc('\n', o->sol);
}
