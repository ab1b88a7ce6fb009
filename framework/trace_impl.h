/* trace_impl.h - what a tracer records, shared by trace.c (the recorder and
 * the text trace) and the writers of the page (trace_html.c) and the tree
 * (trace_dot.c).
 *
 * Nodes are numbered in the order the search entered them, so a node's
 * parent always has a smaller number and the nodes up to any step form the
 * tree "so far".  Frames are the steps: one per node event and one per undo,
 * each naming the node it shows (an undo shows the parent it returns to).
 * A local search has no tree: each start and step is a frame and a node of
 * its own at depth 0, which holds the board after it.
 *
 * A tree search keeps two records: the compact one (kdepth, kend, kvar,
 * kvalue) of every node up to opts.max_nodes, and the full one (nodes) of
 * the first full_max of them, with the same numbers.  Frames are kept while
 * no node beyond the full records has been entered, so each step shows a
 * fully recorded node.  In entry order a node's parent is the last node
 * before it one level up, so the compact record needs no parent.
 */
#ifndef CSEARCH_TRACE_IMPL_H
#define CSEARCH_TRACE_IMPL_H

#include "csearch/trace.h"

/* How a node ended; INNER: it had children. */
enum trace_end { END_INNER, END_DEAD, END_PRUNED, END_SOLUTION, END_REJECTED };

struct trace_node {
    int64_t parent; /* -1 at the root */
    int depth;
    char *move;    /* "row 0 = col 2"; "root" */
    char *outcome; /* "no value for row 2" ...; NULL for an inner node */
    enum trace_end end;
    uint64_t weight;
    struct cs_view view; /* the state after the move (and after prune) */
    uint64_t born;       /* the frame that entered it */
    uint64_t ended;      /* the frame that decided its end (born if inner) */
    int var, value;      /* the move into it (var CS_NONE at the root) */
    char *domains;       /* trace_domains.c: the matrix here, or NULL */
};

struct trace_frame {
    uint64_t node; /* the node shown */
    bool undo;     /* an undo back to it (else: it was entered) */
    char *text;    /* the step in words */
};

/* The domain matrix (trace_domains.c): nvars 0 when there is none. */
struct trace_domains {
    bool started;         /* the root was seen */
    int nvars, lo, width; /* the rows; the values lo .. lo + width - 1 */
    char *root;           /* nvars x width: 1 where the value was at the root */
    int *path;            /* scratch: each variable's value on the path */
    void *scratch;        /* the copy of the state the hooks are called on */
    size_t state_size;
    char **names;  /* the variables' names, nvars of them (trace.c's) */
    char why[120]; /* why there is none, once started */
};

struct cs_tracer {
    const struct cs_problem *problem;
    struct cs_trace_options opts;
    uint64_t nodes_seen;
    bool cut;       /* the recording stopped at max_nodes */
    int move_width; /* the move column of the text trace */

    struct trace_node *nodes; /* the full records */
    uint64_t nnodes, cap_nodes, full_max;
    int32_t *kdepth; /* the compact records, kept of them */
    uint8_t *kend;   /* enum trace_end */
    int32_t *kvar, *kvalue;
    uint64_t kept, cap_kept;
    struct trace_frame *frames;
    uint64_t nframes, cap_frames;
    uint64_t *path; /* path[d]: the kept node at depth d */

    bool local;      /* a local search: starts and steps, no tree */
    char status[32]; /* how the run ended, for the page */
    struct cs_stats stats;
    uint64_t steps, restarts; /* of a local search */
    struct trace_domains domains;
};

/* Fill n->domains (the node just recorded, state the state there); the
 * first call, at the root, decides whether there is a matrix. */
void trace_domains_node(struct cs_tracer *t, struct trace_node *n,
                        const struct cs_hooks *h, const void *state);
void trace_domains_free(struct trace_domains *m);

/* trace_html.c: s as a JSON string (every '<' escaped, so the JSON can sit
 * in a <script> element), and as HTML text. */
void trace_json_string(FILE *out, const char *s);
void trace_html_text(FILE *out, const char *s);
/* Write the template page .. end with @TITLE@ replaced by title (as HTML
 * text) and @DATA@ by what data(out, ud) writes. */
void trace_fill(FILE *out, const char *page, const char *end, const char *title,
                void (*data)(FILE *out, const void *ud), const void *ud);

/* "row 2" and "row 2 = col 3" with the model's names or the defaults. */
void trace_var_name(const struct cs_hooks *h, const void *state, int var,
                    char *buf, size_t size);
void trace_move_name(const struct cs_hooks *h, const void *state, int var,
                     int value, char *buf, size_t size);

#endif
