/* output_html.c - output.format html: one self-contained page of a solution.
 *
 * A model with a page of its own (the shifts model's roster) writes the
 * whole document into the board and sets board.page; this module writes it
 * as it is and knows nothing of what it shows.  For any other model the board's
 * lines go into a page of this module's, in a <pre>.  The page goes to
 * output.file or stdout; it refers to nothing outside itself.
 */
#include <inttypes.h>

#include "output_impl.h"

void out_html_text(FILE *f, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&':
            fputs("&amp;", f);
            break;
        case '<':
            fputs("&lt;", f);
            break;
        case '>':
            fputs("&gt;", f);
            break;
        case '"':
            fputs("&quot;", f);
            break;
        default:
            fputc(*s, f);
        }
}

/* The head and the title of the module's page: "csearch: nqueens, solve". */
static void page_head(struct out *o)
{
    FILE *f = o->sol;
    fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
          "<title>csearch: ",
          f);
    out_html_text(f, o->job->model->name);
    fprintf(f,
            ", %s</title>\n<style>body{font:14px/1.4 system-ui,"
            "sans-serif;margin:1.5em}pre{font-size:16px;line-height:1.1}"
            "</style></head><body>\n<h1>csearch: ",
            cs_task_name(o->job->task));
    out_html_text(f, o->job->model->name);
    fprintf(f, ", %s</h1>\n", cs_task_name(o->job->task));
}

void out_html_board(struct out *o)
{
    const struct cs_board *b = &o->board;
    if (o->shown)
        return; /* one page, one solution */
    if (b->page) {
        for (size_t i = 0; i < b->count; i++)
            fprintf(o->sol, "%s\n", b->lines[i]);
        return;
    }
    page_head(o);
    fputs("<pre id=\"board\">", o->sol);
    for (size_t i = 0; i < b->count; i++) {
        out_html_text(o->sol, b->lines[i]);
        fputc('\n', o->sol);
    }
    fputs("</pre>\n</body></html>\n", o->sol);
}

void out_html_end(struct out *o, const struct cs_result *r)
{
    if (o->shown)
        return;
    page_head(o);
    fprintf(o->sol,
            "<p id=\"status\">no solution shown: status %s, %" PRIu64
            " solutions</p>\n</body></html>\n",
            cs_status_name(r->status), r->stats.solutions);
}
