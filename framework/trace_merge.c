/* trace_merge.c - two recorded searches of one problem as one tree.
 *
 * A node of either search is named by its path: the moves (variable,
 * value) from the root.  The merged tree has a node for every path either
 * search entered, marked with the searches that entered it (1: the first,
 * 2: the second, 3: both) and how each ended there.  Where the two chose
 * differently (another variable, another order of values, a prune one of
 * them made) the paths part: a subtree that only one search has hangs from
 * a node both have, and the page marks where that happens.  The per-level
 * counts are each search's recorded nodes by depth, which are the run's own
 * when neither was cut at its max_nodes.
 *
 * Merging walks the first search's nodes in the order they were entered
 * (a parent always before its children), then the second's, looking each
 * node up among its merged parent's children (first-child / next-sibling
 * lists: a node has at most as many children as a variable has values).
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "trace_impl.h"

extern const unsigned char cs_merge_page[];
extern const size_t cs_merge_page_size;

struct mnode {
    int64_t parent, child, sibling; /* -1: none */
    int depth, var, value;
    const char *move;      /* the recording's */
    int sides;             /* 1, 2 or 3 */
    enum trace_end end[2]; /* how each side ended here */
};

struct merge {
    struct mnode *n;
    size_t count, cap;
};

static int64_t add_node(struct merge *m, int64_t parent,
                        const struct trace_node *t)
{
    if (m->count == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 256;
        m->n = cs_xrealloc(m->n, m->cap * sizeof *m->n);
    }
    int64_t id = (int64_t)m->count++;
    m->n[id] = (struct mnode){.parent = parent,
                              .child = -1,
                              .sibling = -1,
                              .depth = t->depth,
                              .var = t->var,
                              .value = t->value,
                              .move = t->move};
    if (parent >= 0) { /* appended: children stay in the order entered */
        int64_t *at = &m->n[parent].child;
        while (*at >= 0)
            at = &m->n[*at].sibling;
        *at = id;
    }
    return id;
}

/* Side s's recorded nodes into the merged tree. */
static void merge_side(struct merge *m, const struct cs_tracer *t, int s)
{
    int64_t *map = cs_xcalloc(t->nnodes ? t->nnodes : 1, sizeof *map);
    for (uint64_t i = 0; i < t->nnodes; i++) {
        const struct trace_node *tn = &t->nodes[i];
        int64_t id = -1;
        if (tn->parent < 0) {
            id = m->count ? 0 : add_node(m, -1, tn);
        } else {
            int64_t parent = map[tn->parent];
            for (int64_t c = m->n[parent].child; c >= 0; c = m->n[c].sibling)
                if (m->n[c].var == tn->var && m->n[c].value == tn->value) {
                    id = c;
                    break;
                }
            if (id < 0)
                id = add_node(m, parent, tn);
        }
        map[i] = id;
        m->n[id].sides |= 1 << s;
        m->n[id].end[s] = tn->end;
    }
    free(map);
}

static const char *const end_word[] = {
    [END_INNER] = "inner",       [END_DEAD] = "dead",
    [END_PRUNED] = "pruned",     [END_SOLUTION] = "solution",
    [END_REJECTED] = "rejected",
};

static void write_stats(FILE *out, const struct cs_tracer *t, const char *name)
{
    fputs("{\"name\": ", out);
    trace_json_string(out, name);
    fprintf(out,
            ", \"status\": \"%s\", \"nodes\": %" PRIu64 ", \"fails\": %" PRIu64
            ", \"solutions\": %" PRIu64 ", \"recorded\": %" PRIu64
            ", \"cut\": %s, \"levels\": [",
            t->status, t->stats.nodes, t->stats.fails, t->stats.solutions,
            t->nnodes, t->cut ? "true" : "false");
    int deepest = -1;
    for (uint64_t i = 0; i < t->nnodes; i++)
        if (t->nodes[i].depth > deepest)
            deepest = t->nodes[i].depth;
    uint64_t *per = cs_xcalloc((size_t)deepest + 2, sizeof *per);
    for (uint64_t i = 0; i < t->nnodes; i++)
        per[t->nodes[i].depth]++;
    for (int d = 0; d <= deepest; d++)
        fprintf(out, "%s%" PRIu64, d ? ", " : "", per[d]);
    free(per);
    fputs("]}", out);
}

static void write_data(FILE *out, const struct merge *m,
                       const struct cs_tracer *const t[2],
                       const char *const names[2], const char *title)
{
    fputs("{\"title\": ", out);
    trace_json_string(out, title);
    fputs(", \"runs\": [", out);
    write_stats(out, t[0], names[0]);
    fputs(", ", out);
    write_stats(out, t[1], names[1]);
    fputs("],\n\"nodes\": [", out);
    for (size_t i = 0; i < m->count; i++) {
        const struct mnode *n = &m->n[i];
        fprintf(out, "%s{\"p\": %" PRId64 ", \"d\": %d, \"s\": %d, \"m\": ",
                i ? ",\n" : "\n", n->parent, n->depth, n->sides);
        trace_json_string(out, n->move);
        fprintf(out, ", \"e\": [\"%s\", \"%s\"]}",
                n->sides & 1 ? end_word[n->end[0]] : "",
                n->sides & 2 ? end_word[n->end[1]] : "");
    }
    fputs("]}", out);
}

struct merge_data {
    const struct merge *m;
    const struct cs_tracer *const *t;
    const char *const *names;
    const char *title;
};

static void merge_data(FILE *out, const void *ud)
{
    const struct merge_data *d = ud;
    write_data(out, d->m, d->t, d->names, d->title);
}

int cs_tracer_write_merged_html(const struct cs_tracer *a, const char *name_a,
                                const struct cs_tracer *b, const char *name_b,
                                FILE *out, const char *title)
{
    const struct cs_tracer *const t[2] = {a, b};
    const char *const names[2] = {name_a, name_b};
    struct merge m = {0};
    merge_side(&m, a, 0);
    merge_side(&m, b, 1);
    struct merge_data d = {&m, t, names, title};
    trace_fill(out, (const char *)cs_merge_page,
               (const char *)cs_merge_page + cs_merge_page_size, title,
               merge_data, &d);
    free(m.n);
    return fflush(out) || ferror(out) ? -1 : 0;
}
