/* csearch/trace.h - watching a search: step-by-step traces, a step-through
 * HTML page and a picture of the search tree.
 *
 * A tracer is an observer of the engine: it is the run's on_trace callback
 * (csearch/engine.h) and never changes the search.  It prints each step as
 * a line of text as it happens, and it can record the first max_nodes nodes
 * with what the model's describe hook shows of each, to write them out after
 * the search as one self-contained HTML page or as a Graphviz DOT graph.
 * Every node up to max_nodes is kept in a compact record (depth, how it
 * ended, the move's variable and value: a few bytes); only the first
 * CS_TRACE_FULL_NODES also keep their words, view and domains, and only
 * those are steps of the page's replay and boxes of the DOT tree.
 * Order of calls: cs_tracer_new, set run.on_trace = cs_tracer_step and
 * run.trace_ud = the tracer, cs_search, cs_tracer_end, the writers,
 * cs_tracer_free.
 */
#ifndef CSEARCH_TRACE_H
#define CSEARCH_TRACE_H

#include <stdio.h>

#include "csearch/engine.h"

/* what the headers declare is libcsearch's interface; the rest is hidden */
#pragma GCC visibility push(default)

/* Nodes kept (compactly) for the page when the caller gives 0. */
#define CS_TRACE_MAX_NODES 1000000
/* Nodes kept in full (move, view, domains): the page's step-through and
 * the DOT tree, which Graphviz could not lay out much larger. */
#define CS_TRACE_FULL_NODES 2000
/* The page's domain matrix (every variable's values at every node, for a
 * model with a domain_size hook) up to this many cells: variables x the
 * values between the smallest and the largest at the root. */
#define CS_TRACE_DOMAIN_CELLS 4096

struct cs_trace_options {
    FILE *text;         /* print every step here as it happens; NULL: no */
    bool record;        /* keep the nodes for the page and the tree */
    uint64_t max_nodes; /* keep at most this many (0: the default) */
    /* The run's per-level profile (cs_spec.profile; levels of it, filled by
     * the search), which the page shows whole, whatever it recorded; NULL:
     * none. */
    const struct cs_level *profile;
    int levels;
};

struct cs_tracer;

/* A tracer for searches of problem (which must outlive it). */
struct cs_tracer *cs_tracer_new(const struct cs_problem *problem,
                                const struct cs_trace_options *options);
/* The run's on_trace: ud is the tracer. */
void cs_tracer_step(void *ud, const struct cs_trace_event *event,
                    const struct cs_hooks *hooks, const void *state);
/* After cs_search: finish the text and note how the run ended. */
void cs_tracer_end(struct cs_tracer *tracer, const struct cs_result *run);
/* Nodes the search entered while traced, and how many were kept (fewer
 * when the tree is larger than max_nodes); of a local search, its starts
 * and steps, each a frame of the page (there is no tree to write as DOT).
 * cs_tracer_detailed: how many of the kept nodes have full records (at
 * most CS_TRACE_FULL_NODES): the nodes the DOT tree draws. */
uint64_t cs_tracer_nodes(const struct cs_tracer *tracer);
uint64_t cs_tracer_recorded(const struct cs_tracer *tracer);
uint64_t cs_tracer_detailed(const struct cs_tracer *tracer);
/* The recorded search as one HTML page (inline script and style, the steps
 * as inline JSON: no network, no other file) or as a DOT digraph.  title
 * names the search on the page and in the graph.  Return 0, or -1 if
 * writing failed (errno says why). */
int cs_tracer_write_html(const struct cs_tracer *tracer, FILE *out,
                         const char *title);
int cs_tracer_write_dot(const struct cs_tracer *tracer, FILE *out,
                        const char *title);
/* Two recorded searches of one problem as one tree, in one HTML page: a
 * node for every path of moves either entered, marked with the searches
 * that entered it, each one's nodes per depth beside it (csearch compare's
 * compare.tree_html).  a and b must be tree searches (no local search);
 * name_a and name_b name them on the page.  Return 0, or -1 if writing
 * failed (errno says why). */
int cs_tracer_write_merged_html(const struct cs_tracer *a, const char *name_a,
                                const struct cs_tracer *b, const char *name_b,
                                FILE *out, const char *title);
void cs_tracer_free(struct cs_tracer *tracer);

#pragma GCC visibility pop

#endif
