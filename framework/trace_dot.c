/* trace_dot.c - the recorded search tree as a Graphviz DOT digraph.
 *
 * One box per node entered, labelled with the move that made it, children
 * left to right in the order they were tried.  How a node ended sets its
 * style: solutions green with a double border, dead ends (a variable with no
 * value) red, pruned nodes grey and dashed, complete states the goal refused
 * yellow.  Graphviz cannot lay out a million nodes: the tree draws the
 * full records only (the first CS_TRACE_FULL_NODES, or max_nodes if fewer)
 * and ends in a note saying how many nodes were left out and by which cap.
 */
#include <errno.h>
#include <inttypes.h>

#include "trace_impl.h"

static void dot_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fputc('\\', out);
        if (*s == '\n')
            fputs("\\n", out);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

static const char *const style_of[] = {
    [END_INNER] = "",
    [END_DEAD] = ", fillcolor=\"#f4c7c3\"",
    [END_PRUNED] = ", fillcolor=\"#e0e0e0\", style=\"rounded,filled,dashed\"",
    [END_SOLUTION] = ", fillcolor=\"#b7e1cd\", peripheries=2",
    [END_REJECTED] = ", fillcolor=\"#fce8b2\"",
};

static const char *const word_of[] = {
    [END_INNER] = NULL,          [END_DEAD] = "dead end",
    [END_PRUNED] = "pruned",     [END_SOLUTION] = "solution",
    [END_REJECTED] = "rejected",
};

int cs_tracer_write_dot(const struct cs_tracer *t, FILE *out, const char *title)
{
    char label[512];
    fputs("digraph search {\n  graph [labelloc=t, fontname=\"Helvetica\", "
          "label=",
          out);
    snprintf(label, sizeof label,
             "%s\n%" PRIu64 " nodes; green: solution, red: dead end, grey: "
             "pruned, yellow: rejected by the goal test",
             title, t->nodes_seen);
    dot_string(out, label);
    fputs("];\n  node [shape=box, style=\"rounded,filled\", "
          "fillcolor=\"#ffffff\", fontname=\"Helvetica\", fontsize=10];\n"
          "  edge [arrowsize=0.6];\n",
          out);
    for (uint64_t i = 0; i < t->nnodes; i++) {
        const struct trace_node *n = &t->nodes[i];
        const char *word = word_of[n->end];
        if (n->end == END_SOLUTION && n->weight > 1)
            snprintf(label, sizeof label, "%s\nsolution x%" PRIu64, n->move,
                     n->weight);
        else if (word)
            snprintf(label, sizeof label, "%s\n%s", n->move, word);
        else
            snprintf(label, sizeof label, "%s", n->move);
        fprintf(out, "  n%" PRIu64 " [label=", i);
        dot_string(out, label);
        fprintf(out, "%s];\n", style_of[n->end]);
        if (n->parent >= 0)
            fprintf(out, "  n%" PRId64 " -> n%" PRIu64 ";\n", n->parent, i);
    }
    if (t->nnodes < t->nodes_seen) {
        if (t->full_max < t->opts.max_nodes)
            snprintf(label, sizeof label,
                     "... %" PRIu64 " more nodes not drawn "
                     "(--tree draws at most %d nodes)",
                     t->nodes_seen - t->nnodes, CS_TRACE_FULL_NODES);
        else
            snprintf(label, sizeof label,
                     "... %" PRIu64 " more nodes not drawn "
                     "(output.tree_max_nodes = %" PRIu64 ")",
                     t->nodes_seen - t->nnodes, t->opts.max_nodes);
        fputs("  cut [shape=plaintext, style=\"\", label=", out);
        dot_string(out, label);
        fputs("];\n", out);
    }
    fputs("}\n", out);
    return fflush(out) || ferror(out) ? -1 : 0;
}
