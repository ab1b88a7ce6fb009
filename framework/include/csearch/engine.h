/* csearch/engine.h - the depth-first search over a model's hooks.
 *
 * One struct cs_run carries a search: its settings going in and its
 * statistics coming out.  cs_search() runs it to the end, to a limit or to an
 * interrupt, and never prints: solutions reach the caller through
 * on_solution.  The search keeps an explicit stack (no recursion-depth
 * limit); with every hook a pure function of the state the run is
 * deterministic, so the same settings give the same node counts every time.
 */
#ifndef CSEARCH_ENGINE_H
#define CSEARCH_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "csearch/model.h"

enum cs_select { CS_SELECT_IN_ORDER, CS_SELECT_MRV };

enum cs_status {
    CS_COMPLETE,    /* the whole tree was searched (or solve found one) */
    CS_LIMIT,       /* stopped by limits.solutions, nodes or seconds */
    CS_INTERRUPTED, /* *stop was set (Ctrl-C) */
    CS_INFEASIBLE,  /* optimise: proven that no solution exists */
    CS_OPTIMAL      /* optimise: best cost proven */
};

struct cs_limits {
    uint64_t solutions; /* 0 = none */
    uint64_t nodes;     /* 0 = none */
    double seconds;     /* 0 = none */
};

/* Called for each solution found, with how many it stands for (its weight);
 * return false to stop the search (status CS_LIMIT). */
typedef bool (*cs_solution_fn)(void *ud, const struct cs_hooks *hooks,
                               const void *state, uint64_t weight);

/* What a traced search reports, step by step, in the order it happens.  Every
 * node entered gets exactly one of NODE, PRUNED, SOLUTION or REJECTED; a NODE
 * whose variable turns out to have no value is followed by NO_VALUE; each
 * move taken back is an UNDO. */
enum cs_trace_kind {
    CS_TRACE_NODE,     /* passed prune; branches on `branch` */
    CS_TRACE_PRUNED,   /* prune found a dead end */
    CS_TRACE_SOLUTION, /* complete and accepted by goal (counts `weight`) */
    CS_TRACE_REJECTED, /* complete, but goal refused it */
    CS_TRACE_NO_VALUE, /* `branch` has no value: a dead end */
    CS_TRACE_UNDO      /* var = value taken back; the state is the parent's */
};

struct cs_trace_event {
    enum cs_trace_kind kind;
    int depth;       /* of the node (UNDO: of the parent it returns to) */
    int var, value;  /* the move into the node; var is CS_NONE at the root */
    int branch;      /* NODE and NO_VALUE: the variable chosen; else CS_NONE */
    uint64_t weight; /* product of the branch weights from the root */
};

/* Called for every step of a traced search with the live state, which it
 * may read (hooks->describe) but not change. */
typedef void (*cs_trace_fn)(void *ud, const struct cs_trace_event *event,
                            const struct cs_hooks *hooks, const void *state);

/* Where a split search stands, for a progress line. */
struct cs_progress {
    uint64_t units_done;    /* finished, the resumed ones included */
    uint64_t units_total;
    uint64_t units_resumed; /* taken from the checkpoint */
    double elapsed;         /* seconds since the search started */
};
typedef void (*cs_progress_fn)(void *ud, const struct cs_progress *progress);

struct cs_run {
    /* ---- in ---- */
    const struct cs_problem *problem;
    enum cs_task task;
    enum cs_select select;
    struct cs_limits limits;
    volatile sig_atomic_t *stop;  /* polled; non-zero = interrupt */
    cs_solution_fn on_solution;   /* may be NULL */
    void *ud;
    /* Every step of the search (csearch/trace.h records them).  NULL: no
     * trace.  A traced run is one search in the generic instance, so it
     * cannot be split into units (threads, checkpoints, count kernels). */
    cs_trace_fn on_trace;
    void *trace_ud;

    /* Work units (count tasks only).  A count runs as units when the model
     * has a kernel, when threads > 1, when a checkpoint is kept or under
     * mpirun (csearch/dist.h). */
    int threads;                  /* workers; 0 or 1 = one */
    const char *checkpoint;       /* append each finished unit here */
    bool resume;                  /* skip the units the checkpoint holds */
    /* A slice of the units (needs a checkpoint: the slice's log): units
     * [first, end), end past the last unit meaning to it; or, with
     * slice_parts > 0, part slice_part (0-based) of slice_parts equal
     * parts.  slice_end = slice_parts = 0: every unit. */
    uint64_t slice_first, slice_end;
    uint64_t slice_part, slice_parts;
    uint64_t fingerprint;         /* of the config, kept in the checkpoint */
    cs_progress_fn on_progress;   /* at most 4 times a second; may be NULL */
    void *progress_ud;

    /* ---- out ---- */
    enum cs_status status;
    struct cs_stats stats;
    uint64_t units_total;         /* 0 when the search was not split */
    uint64_t units_first, units_end; /* the units searched: a slice, or
                                        0 and units_total */
    uint64_t units_done;          /* of those, finished, resumed ones
                                     included */
    uint64_t units_resumed;
    bool checkpoint_torn;         /* resume dropped a torn last line */
    /* task optimize: the best cost found (valid when stats.solutions > 0)
     * and a lower bound on every solution's cost; equal when optimal */
    int64_t cost, bound;

    /* ---- the engine's own ---- */
    struct cs_frame *frames;      /* nvars + 1 of them */
    unsigned char *saved;         /* state copies when hooks->undo is NULL */
    double started;               /* monotonic seconds at start */
    uint64_t next_poll;           /* node count of the next clock/stop poll */
    uint64_t node_cap;            /* limits.nodes or UINT64_MAX */
    uint64_t solution_cap;        /* limits.solutions or UINT64_MAX */
    uint64_t base_weight;         /* weight of the root: 1, or a unit's
                                     prefix (which may be 0) */
    int64_t incumbent;            /* optimize: best cost so far, or
                                     INT64_MAX; the DFS prunes by it */
    unsigned char *best;          /* optimize with relax: the incumbent */
};

/* One level of the explicit stack. */
struct cs_frame {
    int var;           /* variable being branched on */
    int value;         /* value applied last */
    uint64_t cursor;   /* the model's value iterator */
    uint64_t weight;   /* product of branch weights from the root */
};

/* Check that run's settings suit its problem (MRV needs domain_size, a task
 * the hooks can do).  Returns 0, or -1 with a message in err. */
int cs_run_validate(const struct cs_run *run, struct cs_error *err);

/* Run the search: fills run->status and run->stats.  Returns 0, or -1 if the
 * settings are invalid, a checkpoint cannot be used, or the sum of work
 * units' counts overflowed 64 bits (err says why).  Within one search or one
 * unit the counts are not checked: a model must bound its sizes (N-Queens
 * refuses to count n > 28). */
int cs_search(struct cs_run *run, struct cs_error *err);

/* Monotonic wall clock in seconds. */
double cs_now(void);

const char *cs_status_name(enum cs_status status);
const char *cs_task_name(enum cs_task task);

#endif
