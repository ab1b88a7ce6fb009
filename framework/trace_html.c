/* trace_html.c - the recorded search as one self-contained HTML page.
 *
 * The page is trace_page.html (embedded in the library at build time by
 * embed.cmake) with @TITLE@ replaced by the search's name and @DATA@ by the
 * record as JSON: the nodes (parent, depth, move, how it ended, the board
 * and the named parts of its state, the steps that entered and ended it)
 * and the frames (the node each step shows, and the step in words).  The
 * JSON sits inside a <script> element, so every '<' in it is written as
 * \u003c and no string can close the element early.
 */
#include <inttypes.h>
#include <string.h>

#include "trace_impl.h"

extern const unsigned char cs_trace_page[];
extern const size_t cs_trace_page_size;

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            fprintf(out, "\\%c", *p);
        else if (*p < 0x20 || *p == '<' || *p == '>' || *p == '&')
            fprintf(out, "\\u%04x", *p);
        else
            fputc(*p, out);
    }
    fputc('"', out);
}

static void html_text(FILE *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '<')
            fputs("&lt;", out);
        else if (*s == '>')
            fputs("&gt;", out);
        else if (*s == '&')
            fputs("&amp;", out);
        else
            fputc(*s, out);
    }
}

static const char *const end_name[] = {
    [END_INNER] = "inner",       [END_DEAD] = "dead",
    [END_PRUNED] = "pruned",     [END_SOLUTION] = "solution",
    [END_REJECTED] = "rejected",
};

static void json_lines(FILE *out, const struct cs_board *b)
{
    fputc('[', out);
    for (size_t i = 0; i < b->count; i++) {
        fputs(i ? ", " : "", out);
        json_string(out, b->lines[i]);
    }
    fputc(']', out);
}

static void write_data(const struct cs_tracer *t, FILE *out, const char *title)
{
    const struct cs_stats *s = &t->stats;
    fputs("{\"title\": ", out);
    json_string(out, title);
    fputs(", \"status\": ", out);
    json_string(out, t->status);
    fprintf(out,
            ", \"stats\": {\"solutions\": %" PRIu64 ", \"nodes\": %" PRIu64
            ", \"checks\": %" PRIu64 ", \"fails\": %" PRIu64 "}"
            ", \"nodes_seen\": %" PRIu64 ", \"cut\": %s"
            ", \"max_nodes\": %" PRIu64 ",\n\"nodes\": [",
            s->solutions, s->nodes, s->checks, s->fails, t->nodes_seen,
            t->cut ? "true" : "false", t->opts.max_nodes);
    for (uint64_t i = 0; i < t->nnodes; i++) {
        const struct trace_node *n = &t->nodes[i];
        fprintf(out, "%s{\"p\": %" PRId64 ", \"d\": %d, \"m\": ",
                i ? ",\n" : "\n", n->parent, n->depth);
        json_string(out, n->move);
        fprintf(out, ", \"e\": \"%s\", \"o\": ", end_name[n->end]);
        if (n->outcome)
            json_string(out, n->outcome);
        else
            fputs("null", out);
        fprintf(out, ", \"w\": %" PRIu64 ", \"t0\": %" PRIu64
                     ", \"t1\": %" PRIu64 ", \"b\": ",
                n->weight, n->born, n->ended);
        json_lines(out, &n->view.board);
        fputs(", \"f\": [", out);
        for (size_t k = 0; k < n->view.names.count; k++) {
            fputs(k ? ", [" : "[", out);
            json_string(out, n->view.names.lines[k]);
            fputs(", ", out);
            json_string(out, n->view.values.lines[k]);
            fputc(']', out);
        }
        fputs("]}", out);
    }
    fputs("],\n\"frames\": [", out);
    for (uint64_t i = 0; i < t->nframes; i++) {
        const struct trace_frame *f = &t->frames[i];
        fprintf(out, "%s{\"n\": %" PRIu64 ", \"u\": %s, \"t\": ",
                i ? ",\n" : "\n", f->node, f->undo ? "true" : "false");
        json_string(out, f->text);
        fputc('}', out);
    }
    fputs("]}", out);
}

int cs_tracer_write_html(const struct cs_tracer *t, FILE *out,
                         const char *title)
{
    const char *page = (const char *)cs_trace_page;
    const char *end = page + cs_trace_page_size;
    while (page < end) {
        const char *at = memchr(page, '@', (size_t)(end - page));
        if (!at) {
            fwrite(page, 1, (size_t)(end - page), out);
            break;
        }
        fwrite(page, 1, (size_t)(at - page), out);
        if ((size_t)(end - at) >= 7 && !memcmp(at, "@TITLE@", 7)) {
            html_text(out, title);
            page = at + 7;
        } else if ((size_t)(end - at) >= 6 && !memcmp(at, "@DATA@", 6)) {
            write_data(t, out, title);
            page = at + 6;
        } else {
            fputc('@', out);
            page = at + 1;
        }
    }
    return fflush(out) || ferror(out) ? -1 : 0;
}
