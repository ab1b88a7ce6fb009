/* trace.c - the tracer: each step of a search as a line of text, and the
 * record of its first nodes for the page and the tree (trace_impl.h).
 *
 * A text line per node entered (depth, the move indented by depth, what the
 * model's describe hook shows of the state), one for what happened at a
 * node that ended ("-> solution", "-> dead end: ..."), indented under its
 * move, and one per undo.  Outcomes take lines of their own and the move
 * column is as wide as the deepest move needs, so that a small problem's
 * trace (4-queens, with any state) fits 80 columns.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/job.h"
#include "trace_impl.h"

/* ---- views --------------------------------------------------------------- */

void cs_view_add(struct cs_view *view, const char *name, const char *value)
{
    cs_board_add(&view->names, name);
    cs_board_add(&view->values, value);
}

void cs_view_clear(struct cs_view *view)
{
    cs_board_clear(&view->board);
    cs_board_clear(&view->names);
    cs_board_clear(&view->values);
}

void cs_view_free(struct cs_view *view)
{
    if (!view)
        return;
    cs_board_free(&view->board);
    cs_board_free(&view->names);
    cs_board_free(&view->values);
}

/* ---- names --------------------------------------------------------------- */

void trace_var_name(const struct cs_hooks *h, const void *state, int var,
                    char *buf, size_t size)
{
    if (h->names && h->names->var_name)
        h->names->var_name(state, var, buf, size);
    else
        snprintf(buf, size, "x%d", var);
}

void trace_move_name(const struct cs_hooks *h, const void *state, int var,
                     int value, char *buf, size_t size)
{
    char name[64], val[64];
    if (var == CS_NONE) {
        snprintf(buf, size, "root");
        return;
    }
    trace_var_name(h, state, var, name, sizeof name);
    if (h->names && h->names->value_name)
        h->names->value_name(state, var, value, val, sizeof val);
    else
        snprintf(val, sizeof val, "%d", value);
    snprintf(buf, size, "%s = %s", name, val);
}

/* ---- the tracer ---------------------------------------------------------- */

struct cs_tracer *cs_tracer_new(const struct cs_problem *problem,
                                const struct cs_trace_options *options)
{
    struct cs_tracer *t = cs_xcalloc(1, sizeof *t);
    t->problem = problem;
    t->opts = *options;
    if (!t->opts.max_nodes)
        t->opts.max_nodes = CS_TRACE_MAX_NODES;
    t->full_max = t->opts.max_nodes < CS_TRACE_FULL_NODES ? t->opts.max_nodes
                                                          : CS_TRACE_FULL_NODES;
    /* the deepest move's indent, and room for "queen 3 = (3,2)" */
    int deepest = problem->nvars > 0 ? 2 * (problem->nvars - 1) : 0;
    t->move_width = (deepest < 16 ? deepest : 16) + 15;
    t->path = cs_xcalloc((size_t)problem->nvars + 1, sizeof *t->path);
    snprintf(t->status, sizeof t->status, "running");
    return t;
}

void cs_tracer_free(struct cs_tracer *t)
{
    if (!t)
        return;
    for (uint64_t i = 0; i < t->nnodes; i++) {
        free(t->nodes[i].move);
        free(t->nodes[i].outcome);
        cs_view_free(&t->nodes[i].view);
        free(t->nodes[i].domains);
    }
    trace_domains_free(&t->domains);
    for (uint64_t i = 0; i < t->nframes; i++)
        free(t->frames[i].text);
    free(t->nodes);
    free(t->kdepth);
    free(t->kend);
    free(t->kvar);
    free(t->kvalue);
    free(t->frames);
    free(t->path);
    free(t);
}

uint64_t cs_tracer_nodes(const struct cs_tracer *t)
{
    return t->nodes_seen;
}
uint64_t cs_tracer_recorded(const struct cs_tracer *t)
{
    return t->local ? t->nnodes : t->kept;
}
uint64_t cs_tracer_detailed(const struct cs_tracer *t)
{
    return t->nnodes;
}

static bool enters_node(enum cs_trace_kind kind)
{
    return kind != CS_TRACE_NO_VALUE && kind != CS_TRACE_UNDO;
}

/* What happened at a node, in words; empty for one that branches. */
static void outcome(const struct cs_trace_event *ev, const char *branch,
                    char *buf, size_t size)
{
    buf[0] = '\0';
    switch (ev->kind) {
    case CS_TRACE_PRUNED:
        snprintf(buf, size, "pruned");
        break;
    case CS_TRACE_SOLUTION:
        if (ev->weight == 1)
            snprintf(buf, size, "solution");
        else
            snprintf(buf, size, "solution (counts %" PRIu64 ")", ev->weight);
        break;
    case CS_TRACE_REJECTED:
        snprintf(buf, size, "rejected by the goal test");
        break;
    case CS_TRACE_NO_VALUE:
        snprintf(buf, size, "dead end: %s has no value", branch);
        break;
    case CS_TRACE_NODE:
    case CS_TRACE_UNDO:
    case CS_TRACE_START:
    case CS_TRACE_STEP:
        break;
    }
}

static void add_frame(struct cs_tracer *t, uint64_t node, bool undo,
                      const char *text)
{
    if (t->nframes == t->cap_frames) {
        t->cap_frames = t->cap_frames ? 2 * t->cap_frames : 64;
        t->frames = cs_xrealloc(t->frames, t->cap_frames * sizeof *t->frames);
    }
    t->frames[t->nframes++] = (struct trace_frame){
        .node = node, .undo = undo, .text = cs_xstrdup(text)};
}

/* The state after the move column: one space between fields, so that a
 * state of five fields still fits 80 columns beside a 4-queens move. */
static void print_view(FILE *out, const struct cs_view *v)
{
    for (size_t i = 0; i < v->names.count; i++)
        fprintf(out, " %s %s", v->names.lines[i], v->values.lines[i]);
}

/* What happened at the node at depth, under its move (where a child's move
 * would stand). */
static void print_outcome(FILE *out, int depth, const char *what)
{
    fprintf(out, "    %*s-> %s\n", 2 * depth, "", what);
}

/* Keep a node entered in the compact record: its number, or -1 once the
 * record is full (then the recording stops for good). */
static int64_t keep_node(struct cs_tracer *t, const struct cs_trace_event *ev)
{
    if (t->kept == t->opts.max_nodes) {
        t->cut = true;
        return -1;
    }
    if (t->kept == t->cap_kept) {
        t->cap_kept = t->cap_kept ? 2 * t->cap_kept : 1024;
        t->kdepth = cs_xrealloc(t->kdepth, t->cap_kept * sizeof *t->kdepth);
        t->kend = cs_xrealloc(t->kend, t->cap_kept * sizeof *t->kend);
        t->kvar = cs_xrealloc(t->kvar, t->cap_kept * sizeof *t->kvar);
        t->kvalue = cs_xrealloc(t->kvalue, t->cap_kept * sizeof *t->kvalue);
    }
    uint64_t id = t->kept++;
    t->kdepth[id] = ev->depth;
    t->kend[id] = END_INNER;
    t->kvar[id] = ev->depth ? ev->var : CS_NONE;
    t->kvalue[id] = ev->value;
    t->path[ev->depth] = id;
    return (int64_t)id;
}

/* Steps are kept while every node entered has a full record. */
static bool replaying(const struct cs_tracer *t)
{
    return t->kept <= t->full_max;
}

/* Record a node entered in full (a tree's node, just kept, or a local
 * search's step); NULL past the full records. */
static struct trace_node *record_node(struct cs_tracer *t,
                                      const struct cs_trace_event *ev,
                                      const char *move)
{
    if (t->nnodes == t->full_max) {
        if (t->local)
            t->cut = true;
        return NULL;
    }
    if (t->nnodes == t->cap_nodes) {
        t->cap_nodes = t->cap_nodes ? 2 * t->cap_nodes : 64;
        t->nodes = cs_xrealloc(t->nodes, t->cap_nodes * sizeof *t->nodes);
    }
    uint64_t id = t->nnodes++;
    struct trace_node *n = &t->nodes[id];
    memset(n, 0, sizeof *n);
    n->parent = ev->depth ? (int64_t)t->path[ev->depth - 1] : -1;
    n->depth = ev->depth;
    n->move = cs_xstrdup(move);
    n->var = ev->depth ? ev->var : CS_NONE;
    n->value = ev->value;
    n->weight = ev->weight;
    n->born = n->ended = t->nframes;
    if (t->local)
        t->path[ev->depth] = id;
    return n;
}

static const enum trace_end end_of[] = {
    [CS_TRACE_NODE] = END_INNER,        [CS_TRACE_PRUNED] = END_PRUNED,
    [CS_TRACE_SOLUTION] = END_SOLUTION, [CS_TRACE_REJECTED] = END_REJECTED,
    [CS_TRACE_NO_VALUE] = END_DEAD,     [CS_TRACE_UNDO] = END_INNER,
};

/* Local search: a line per start and step, the state's view after it, and
 * for the page a frame each (its board and fields on a node of its own,
 * with no parent: there is no tree). */
static void local_step(struct cs_tracer *t, const struct cs_trace_event *ev,
                       const struct cs_hooks *h, const void *state)
{
    FILE *text = t->opts.text;
    char var[64], move[160], line[320];
    t->local = true;
    t->nodes_seen++;
    bool record = t->opts.record && !t->cut;
    if (!text && !record)
        return;
    if (ev->kind == CS_TRACE_START) {
        snprintf(line, sizeof line, "a start with %" PRIu64 " conflicts",
                 ev->after);
    } else {
        trace_var_name(h, state, ev->var, var, sizeof var);
        if (ev->value == CS_NONE)
            snprintf(move, sizeof move, "stays: no move lowers its conflicts");
        else if (h->names && h->names->value_name)
            h->names->value_name(state, ev->var, ev->value, move, sizeof move);
        else
            snprintf(move, sizeof move, "makes move %d", ev->value);
        snprintf(line, sizeof line,
                 "step %" PRIu64 ": %s %s%s: conflicts %" PRIu64 " -> %" PRIu64,
                 ev->step, var, move, ev->walk ? " (random walk)" : "",
                 ev->before, ev->after);
    }
    struct trace_node *n = record ? record_node(t, ev, line) : NULL;
    struct cs_view scratch = {0};
    struct cs_view *view = n ? &n->view : &scratch;
    if (h->names && h->names->describe)
        h->names->describe(state, view);
    if (n)
        add_frame(t, t->nnodes - 1, false, line);
    if (text) {
        fprintf(text, "%s\n", line);
        for (size_t i = 0; i < view->board.count; i++)
            fprintf(text, "    %s\n", view->board.lines[i]);
        if (view->names.count) {
            fputs("   ", text);
            print_view(text, view);
            fputc('\n', text);
        }
    }
    cs_view_free(&scratch);
}

/* The domain matrix's row names, at the root. */
static void name_domains(struct cs_tracer *t, const struct cs_hooks *h,
                         const void *state)
{
    struct trace_domains *m = &t->domains;
    char name[64];
    m->names = cs_xcalloc((size_t)m->nvars, sizeof *m->names);
    for (int v = 0; v < m->nvars; v++) {
        trace_var_name(h, state, v, name, sizeof name);
        m->names[v] = cs_xstrdup(name);
    }
}

void cs_tracer_step(void *ud, const struct cs_trace_event *ev,
                    const struct cs_hooks *h, const void *state)
{
    struct cs_tracer *t = ud;
    if (ev->kind == CS_TRACE_START || ev->kind == CS_TRACE_STEP) {
        local_step(t, ev, h, state);
        return;
    }
    FILE *text = t->opts.text;
    bool record = t->opts.record && !t->cut;
    char move[160], branch[64] = "", what[160], words[400];

    trace_move_name(h, state, ev->var, ev->value, move, sizeof move);
    if (ev->branch != CS_NONE)
        trace_var_name(h, state, ev->branch, branch, sizeof branch);
    outcome(ev, branch, what, sizeof what);

    if (enters_node(ev->kind)) {
        t->nodes_seen++;
        int64_t id = record ? keep_node(t, ev) : -1;
        if (id >= 0)
            t->kend[id] = (uint8_t)end_of[ev->kind];
        struct trace_node *n = id >= 0 ? record_node(t, ev, move) : NULL;
        struct cs_view scratch = {0};
        struct cs_view *view = n ? &n->view : &scratch;
        if (h->names && h->names->describe && (n || text))
            h->names->describe(state, view);
        /* a model whose view has no board (a roster's is too large for
         * every step) shows its solution as it prints it, on the page */
        if (n && ev->kind == CS_TRACE_SOLUTION && !view->board.count && h->emit)
            h->emit(state, 0, &view->board);
        if (n) {
            trace_domains_node(t, n, h, state);
            if (t->domains.nvars && !t->domains.names)
                name_domains(t, h, state);
            n->end = end_of[ev->kind];
            if (what[0])
                n->outcome = cs_xstrdup(what);
            if (ev->kind == CS_TRACE_NODE && ev->depth == 0)
                snprintf(words, sizeof words, "start at the root; next: %s",
                         branch);
            else if (ev->kind == CS_TRACE_NODE)
                snprintf(words, sizeof words, "try %s: accepted; next: %s",
                         move, branch);
            else
                snprintf(words, sizeof words, "try %s: %s", move, what);
            add_frame(t, t->nnodes - 1, false, words);
        }
        if (text) {
            char col[200];
            snprintf(col, sizeof col, "%*s%s",
                     2 * (ev->depth ? ev->depth - 1 : 0), "", move);
            if (!view->names.count)
                fprintf(text, "%2d  %s\n", ev->depth, col);
            else {
                fprintf(text, "%2d  %-*s", ev->depth, t->move_width, col);
                print_view(text, view);
                fputc('\n', text);
            }
            if (what[0])
                print_outcome(text, ev->depth, what);
        }
        cs_view_free(&scratch);
        return;
    }

    if (ev->kind == CS_TRACE_NO_VALUE) {
        if (text)
            print_outcome(text, ev->depth, what);
        if (record)
            t->kend[t->path[ev->depth]] = END_DEAD;
        if (record && replaying(t)) {
            struct trace_node *n = &t->nodes[t->path[ev->depth]];
            n->end = END_DEAD;
            n->outcome = cs_xstrdup(what);
            n->ended = t->nframes;
            snprintf(words, sizeof words, "%s", what);
            add_frame(t, t->path[ev->depth], false, words);
        }
        return;
    }

    /* CS_TRACE_UNDO */
    if (text)
        fprintf(text, "    %*sundo %s\n", 2 * ev->depth, "", move);
    if (record && replaying(t)) {
        snprintf(words, sizeof words, "undo %s: back at depth %d", move,
                 ev->depth);
        add_frame(t, t->path[ev->depth], true, words);
    }
}

void cs_tracer_end(struct cs_tracer *t, const struct cs_result *run)
{
    if (t->opts.text)
        fflush(t->opts.text);
    snprintf(t->status, sizeof t->status, "%s", cs_status_name(run->status));
    t->stats = run->stats;
    t->steps = run->steps;
    t->restarts = run->restarts;
}
