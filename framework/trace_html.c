/* trace_html.c - the recorded search as one self-contained HTML page.
 *
 * The page is trace_page.html (embedded in the library at build time by
 * embed.cmake) with @TITLE@ replaced by the search's name and @DATA@ by the
 * record as JSON: the nodes (parent, depth, move, how it ended, the board
 * and the named parts of its state, the steps that entered and ended it)
 * and the frames (the node each step shows, and the step in words).  The
 * JSON sits inside a <script> element, so every '<' in it is written as
 * \u003c and no string can close the element early.  A local search has no
 * tree: its frames are its starts and steps, each with its board.  Every
 * kept node of a tree is also in "big", as parallel arrays (depth, how it
 * ended as one digit of a string, the move's variable and value), which
 * the page's icicle, collapsed tree and jumps read.  Lines of
 * the template that are exactly "@tree@", "@local@" or "@end@" are never
 * written: they open a block written only for a search with a tree (or only
 * for a local search), which runs to the next such line, so that the page
 * of a tree is the template without the local blocks, byte for byte.
 */
#include <inttypes.h>
#include <string.h>

#include "trace_impl.h"

extern const unsigned char cs_trace_page[];
extern const size_t cs_trace_page_size;

void trace_json_string(FILE *out, const char *s)
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

void trace_html_text(FILE *out, const char *s)
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
        trace_json_string(out, b->lines[i]);
    }
    fputc(']', out);
}

/* The named parts of a state: [["queens", "0123"], ...] */
static void json_fields(FILE *out, const struct cs_view *v)
{
    fputc('[', out);
    for (size_t k = 0; k < v->names.count; k++) {
        fputs(k ? ", [" : "[", out);
        trace_json_string(out, v->names.lines[k]);
        fputs(", ", out);
        trace_json_string(out, v->values.lines[k]);
        fputc(']', out);
    }
    fputc(']', out);
}

/* The frames of a local search: the step in words, the board after it. */
static void write_local(const struct cs_tracer *t, FILE *out)
{
    fprintf(out,
            ", \"local\": true, \"stats\": {\"solutions\": %" PRIu64
            ", \"steps\": %" PRIu64 ", \"restarts\": %" PRIu64 "}"
            ", \"frames_seen\": %" PRIu64 ", \"cut\": %s"
            ", \"max_frames\": %" PRIu64 ",\n\"nodes\": [],\n\"frames\": [",
            t->stats.solutions, t->steps, t->restarts, t->nodes_seen,
            t->cut ? "true" : "false", t->full_max);
    for (uint64_t i = 0; i < t->nframes; i++) {
        const struct trace_node *n = &t->nodes[t->frames[i].node];
        fputs(i ? ",\n{\"t\": " : "\n{\"t\": ", out);
        trace_json_string(out, t->frames[i].text);
        fputs(", \"b\": ", out);
        json_lines(out, &n->view.board);
        fputs(", \"f\": ", out);
        json_fields(out, &n->view);
        fputc('}', out);
    }
    fputs("]}", out);
}

/* The domain matrix's rows and columns ("domains"), or why there is none
 * ("domains_off"); each node's matrix is its "dm" (trace_domains.c). */
static void write_domains(const struct trace_domains *m, FILE *out)
{
    if (!m->nvars) {
        fputs(", \"domains_off\": ", out);
        trace_json_string(out, m->why);
        return;
    }
    fputs(", \"domains\": {\"vars\": [", out);
    for (int v = 0; v < m->nvars; v++) {
        fputs(v ? ", " : "", out);
        trace_json_string(out, m->names[v]);
    }
    fprintf(out, "], \"lo\": %d, \"width\": %d}", m->lo, m->width);
}

/* The run's per-level profile, whole (it counts every node of the run,
 * not the recorded ones only): [[nodes, fails, solutions], ...] by depth,
 * up to the deepest one entered; null without a profile. */
static void write_profile(const struct cs_tracer *t, FILE *out)
{
    const struct cs_level *l = t->opts.profile;
    int count = l ? t->opts.levels : 0;
    while (count > 0 && !l[count - 1].nodes)
        count--;
    fputs(",\n\"profile\": ", out);
    if (!l) {
        fputs("null", out);
        return;
    }
    fputc('[', out);
    for (int d = 0; d < count; d++)
        fprintf(out, "%s[%" PRIu64 ", %" PRIu64 ", %" PRIu64 "]", d ? ", " : "",
                l[d].nodes, l[d].fails, l[d].solutions);
    fputc(']', out);
}

/* The compact record of every kept node: "d" depths, "e" ends (a digit
 * each, enum trace_end), "v" and "x" the move's variable and value. */
static void write_big(const struct cs_tracer *t, FILE *out)
{
    fprintf(out, ",\n\"big\": {\"kept\": %" PRIu64 ", \"full\": %" PRIu64,
            t->kept, t->nnodes);
    fputs(",\n\"d\": [", out);
    for (uint64_t i = 0; i < t->kept; i++)
        fprintf(out, i ? ",%d" : "%d", (int)t->kdepth[i]);
    fputs("],\n\"e\": \"", out);
    for (uint64_t i = 0; i < t->kept; i++)
        fputc('0' + t->kend[i], out);
    fputs("\",\n\"v\": [", out);
    for (uint64_t i = 0; i < t->kept; i++)
        fprintf(out, i ? ",%d" : "%d", (int)t->kvar[i]);
    fputs("],\n\"x\": [", out);
    for (uint64_t i = 0; i < t->kept; i++)
        fprintf(out, i ? ",%d" : "%d", (int)t->kvalue[i]);
    fputs("]}", out);
}

static void write_data(const struct cs_tracer *t, FILE *out, const char *title)
{
    const struct cs_stats *s = &t->stats;
    fputs("{\"title\": ", out);
    trace_json_string(out, title);
    fputs(", \"status\": ", out);
    trace_json_string(out, t->status);
    if (t->local) {
        write_local(t, out);
        return;
    }
    fprintf(out,
            ", \"stats\": {\"solutions\": %" PRIu64 ", \"nodes\": %" PRIu64
            ", \"checks\": %" PRIu64 ", \"fails\": %" PRIu64 "}"
            ", \"nodes_seen\": %" PRIu64 ", \"cut\": %s"
            ", \"max_nodes\": %" PRIu64,
            s->solutions, s->nodes, s->checks, s->fails, t->nodes_seen,
            t->cut ? "true" : "false", t->opts.max_nodes);
    write_domains(&t->domains, out);
    fputs(",\n\"nodes\": [", out);
    for (uint64_t i = 0; i < t->nnodes; i++) {
        const struct trace_node *n = &t->nodes[i];
        fprintf(out,
                "%s{\"p\": %" PRId64 ", \"d\": %d, \"m\": ", i ? ",\n" : "\n",
                n->parent, n->depth);
        trace_json_string(out, n->move);
        fprintf(out, ", \"e\": \"%s\", \"o\": ", end_name[n->end]);
        if (n->outcome)
            trace_json_string(out, n->outcome);
        else
            fputs("null", out);
        fprintf(out,
                ", \"w\": %" PRIu64 ", \"t0\": %" PRIu64 ", \"t1\": %" PRIu64
                ", \"b\": ",
                n->weight, n->born, n->ended);
        json_lines(out, &n->view.board);
        fputs(", \"f\": ", out);
        json_fields(out, &n->view);
        if (n->domains) {
            fputs(", \"dm\": ", out);
            trace_json_string(out, n->domains);
        }
        fputc('}', out);
    }
    fputs("],\n\"frames\": [", out);
    for (uint64_t i = 0; i < t->nframes; i++) {
        const struct trace_frame *f = &t->frames[i];
        fprintf(out,
                "%s{\"n\": %" PRIu64 ", \"u\": %s, \"t\": ", i ? ",\n" : "\n",
                f->node, f->undo ? "true" : "false");
        trace_json_string(out, f->text);
        fputc('}', out);
    }
    fputs("]", out);
    write_big(t, out);
    write_profile(t, out);
    fputs("}", out);
}

void trace_fill(FILE *out, const char *page, const char *end, const char *title,
                void (*data)(FILE *out, const void *ud), const void *ud)
{
    while (page < end) {
        const char *at = memchr(page, '@', (size_t)(end - page));
        if (!at) {
            fwrite(page, 1, (size_t)(end - page), out);
            break;
        }
        fwrite(page, 1, (size_t)(at - page), out);
        if ((size_t)(end - at) >= 7 && !memcmp(at, "@TITLE@", 7)) {
            trace_html_text(out, title);
            page = at + 7;
        } else if ((size_t)(end - at) >= 6 && !memcmp(at, "@DATA@", 6)) {
            data(out, ud);
            page = at + 6;
        } else {
            fputc('@', out);
            page = at + 1;
        }
    }
}

struct page_data {
    const struct cs_tracer *tracer;
    const char *title;
};

static void page_data(FILE *out, const void *ud)
{
    const struct page_data *d = ud;
    write_data(d->tracer, out, d->title);
}

static bool is_line(const char *line, size_t len, const char *word)
{
    return len == strlen(word) + 1 && !memcmp(line, word, len - 1) &&
           line[len - 1] == '\n';
}

int cs_tracer_write_html(const struct cs_tracer *t, FILE *out,
                         const char *title)
{
    const char *page = (const char *)cs_trace_page;
    const char *end = page + cs_trace_page_size;
    bool on = true; /* in no block, or in one for this kind of search */
    while (page < end) {
        const char *nl = memchr(page, '\n', (size_t)(end - page));
        const char *next = nl ? nl + 1 : end;
        size_t len = (size_t)(next - page);
        if (is_line(page, len, "@tree@"))
            on = !t->local;
        else if (is_line(page, len, "@local@"))
            on = t->local;
        else if (is_line(page, len, "@end@"))
            on = true;
        else if (on)
            trace_fill(out, page, next, title, page_data,
                       &(struct page_data){t, title});
        page = next;
    }
    return fflush(out) || ferror(out) ? -1 : 0;
}
