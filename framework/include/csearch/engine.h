/* csearch/engine.h - running a search: what to search, what came out.
 *
 * A search is three things kept apart, each its own struct:
 *   struct cs_spec    what to search: the problem, the task, the selection,
 *                     the limits, the seed and the layers around the tree
 *                     search (framework/layers.h; docs/architecture.md, 9), and
 * where results go; struct cs_split   how the work is split: threads, work
 * units, checkpoints, slices, MPI ranks (units.c owns it); struct cs_result
 * what came out: status, statistics, best cost and the units searched. The
 * engine's own context (stack, saved states, polls, caps, incumbent) is private
 * to the engine: a model sees it only as the opaque pointer its search instance
 * passes on (csearch/dfs.h).
 *
 * cs_search() never prints: solutions reach the caller through
 * spec->on_solution.  With every hook a pure function of the state, a run
 * without a portfolio is deterministic: the same spec gives the same counts.
 */
#ifndef CSEARCH_ENGINE_H
#define CSEARCH_ENGINE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "csearch/model.h"

/* what the headers declare is libcsearch's interface; the rest is hidden */
#pragma GCC visibility push(default)

enum cs_status {
    CS_COMPLETE,    /* the whole tree was searched (or solve found one) */
    CS_LIMIT,       /* stopped by limits.solutions, nodes or seconds */
    CS_INTERRUPTED, /* *stop was set (Ctrl-C, SIGTERM) */
    CS_INFEASIBLE,  /* proven that no solution exists */
    CS_OPTIMAL,     /* optimise: best cost proven */
    CS_UNVERIFIED,  /* a solution failed the model's verify hook: an
                       internal error, never printed */
    CS_CHECKED      /* the problem was one assignment given to check
                       (cs_problem.given), and it is a solution: nothing
                       was searched for, so nothing is proven optimal */
};

/* Called for each solution found, with how many it stands for (its weight);
 * return false to stop the search (status CS_LIMIT).  Only for a table with
 * emit, or under optimize for any table with a cost (hooks->emit may then
 * be NULL: test it before writing the solution).  In a portfolio the
 * calls come from worker threads, one at a time. */
typedef bool (*cs_solution_fn)(void *ud, const struct cs_hooks *hooks,
                               const void *state, uint64_t weight);

/* What a traced search reports, step by step, in the order it happens.  Every
 * node entered gets exactly one of NODE, PRUNED, SOLUTION or REJECTED; a NODE
 * whose variable turns out to have no value is followed by NO_VALUE; each
 * move taken back is an UNDO.  A complete state refused by goal, or under
 * optimize by a cost no better than the best so far, is REJECTED. */
enum cs_trace_kind {
    CS_TRACE_NODE,     /* passed prune; branches on `branch` */
    CS_TRACE_PRUNED,   /* prune (or the bound) found a dead end */
    CS_TRACE_SOLUTION, /* complete and accepted (counts `weight`) */
    CS_TRACE_REJECTED, /* complete, but goal or the cost refused it */
    CS_TRACE_NO_VALUE, /* `branch` has no value: a dead end */
    CS_TRACE_UNDO,     /* var = value taken back; the state is the parent's */
    /* local search (no tree: depth 0, branch CS_NONE, weight 1) */
    CS_TRACE_START, /* a (new) start assignment; `after` its conflicts */
    CS_TRACE_STEP   /* step `step` picked var and made move `value`
                       (CS_NONE: no move), conflicts before -> after */
};

struct cs_trace_event {
    enum cs_trace_kind kind;
    int depth;       /* of the node (UNDO: of the parent it returns to) */
    int var, value;  /* the move into the node; var is CS_NONE at the root */
    int branch;      /* NODE and NO_VALUE: the variable chosen; else CS_NONE */
    uint64_t weight; /* product of the branch weights from the root */
    /* local search only: */
    uint64_t step, before, after;
    bool walk; /* STEP: a random move, not the best */
};

/* Called for every step of a traced search with the live state, which it
 * may read (hooks->describe) but not change. */
typedef void (*cs_trace_fn)(void *ud, const struct cs_trace_event *event,
                            const struct cs_hooks *hooks, const void *state);

/* One depth of a per-level profile (Knuth's profile of a backtrack
 * program): the nodes entered at that depth, the fails among them (pruned,
 * no value, rejected: dead ends) and the solutions found there (weighted,
 * as stats.solutions).  Summed over the depths they are the run's nodes,
 * fails and solutions. */
struct cs_level {
    uint64_t nodes, fails, solutions;
};

/* ---- what to search ----------------------------------------------------- */

struct cs_spec {
    const struct cs_problem *problem;
    enum cs_task task;
    enum cs_select select;
    struct cs_limits limits;
    struct cs_layers layers;
    uint64_t seed;               /* restarts' and portfolios' randomness */
    volatile sig_atomic_t *stop; /* polled; non-zero = interrupt */
    cs_solution_fn on_solution;  /* may be NULL */
    void *ud;
    /* Every step of the search (csearch/trace.h records them).  NULL: no
     * trace.  A traced run is one plain search in the generic instance: it
     * cannot be split (threads, checkpoints, count kernels) or layered. */
    cs_trace_fn on_trace;
    void *trace_ud;
    /* A per-level profile: problem->nvars + 1 levels, zeroed by the caller,
     * that the search adds to.  NULL: none.  Like a trace, a profiled tree
     * search runs in the generic instance and cannot be split (threads,
     * checkpoints) or run as a portfolio or local search; restarts and
     * neighbourhood rounds add their every search to it.  A count on a
     * kernel with levels (problem->profile_unit) adds its units' rows, on
     * any number of threads, but not across checkpoints, slices or ranks
     * (the log keeps no levels). */
    struct cs_level *profile;
    /* task estimate: the probes to make (0: CS_ESTIMATE_PROBES) */
    uint64_t probes;
};

/* ---- how the work is split --------------------------------------------- */

/* Where a split search stands, for a progress line. */
struct cs_progress {
    uint64_t units_done; /* finished, the resumed ones included */
    uint64_t units_total;
    uint64_t units_resumed; /* taken from the checkpoint */
    double elapsed;         /* seconds since the search started */
    /* local search (units all 0): steps so far, conflicts left now */
    uint64_t steps, conflicts;
    /* a split count: the share of its work done, by the units' estimated
     * sizes (units.c), and of it the resumed units'; negative while the
     * sizes are not known */
    double work, work_resumed;
    /* a search that is not split (units 0, steps 0): nodes entered so far
     * (at least one: it tells this kind apart); under optimize (optimizing)
     * the best cost so far, if has_cost, and the bound at the root */
    uint64_t nodes;
    bool optimizing, has_cost;
    int64_t cost, bound;
    /* task estimate: probes made, of probes_total */
    uint64_t probes, probes_total;
};
typedef void (*cs_progress_fn)(void *ud, const struct cs_progress *progress);

/* A count runs as work units when the model has a counting kernel, when
 * threads > 1, when a checkpoint is kept or when distribute is set.  For
 * solve and optimize, threads > 1 run a portfolio (framework/layers.h;
 * docs/architecture.md, 9). */
struct cs_split {
    int threads;            /* workers; 0 or 1 = one */
    const char *checkpoint; /* append each finished unit here */
    bool resume;            /* skip the units the checkpoint holds */
    bool distribute;        /* share the units out over the MPI
                               ranks (csearch/dist.h) */
    /* A slice of the units (needs a checkpoint: the slice's log): units
     * [first, end), end past the last unit meaning to it; or, with
     * slice_parts > 0, part slice_part (0-based) of slice_parts equal
     * parts.  slice_end = slice_parts = 0: every unit. */
    uint64_t slice_first, slice_end;
    uint64_t slice_part, slice_parts;
    uint64_t fingerprint;       /* of the config, kept in the checkpoint */
    cs_progress_fn on_progress; /* at most 4 times a second; may be NULL
                                   (local search: after each start and
                                   every 1024 steps at most that often;
                                   optimize on one thread: at the body's
                                   polls, at most that often) */
    void *progress_ud;
};

/* ---- what came out ----------------------------------------------------- */

/* The units a split count searched (all zero when it was not split). */
struct cs_units {
    uint64_t total;         /* units of the split */
    uint64_t first, end;    /* the units searched: a slice, or 0, total */
    uint64_t done;          /* of those, finished, resumed ones included */
    uint64_t resumed;       /* taken from the checkpoint */
    uint64_t resumed_nodes; /* their nodes: in stats, not searched now */
    bool torn;              /* resume dropped a torn last line */
};

/* Task estimate: Knuth's estimate of the tree a count of the problem would
 * search through the hooks (a model's counting kernel is not that tree),
 * from random root-to-leaf probes (framework/estimate.c).  The means are
 * unbiased; their errors are the standard errors of the probes' values, so
 * mean +- 1.96 errors is a 95% interval when the probes are many enough
 * for the mean to be near normal (a heavy tail needs many). */
#define CS_ESTIMATE_PROBES 10000
struct cs_estimate {
    uint64_t probes;                   /* probes made */
    double nodes, nodes_error;         /* nodes, the root included */
    double solutions, solutions_error; /* weighted, as a count's */
    /* A model with a counting kernel that sizes its units (cs_problem's
     * unit_size): the units, the sum of their sizes (the kernel's work,
     * N-Queens': its nodes) and the largest, which no split can shorten.
     * units 0: no such kernel (or the run stopped before it was sized). */
    uint64_t units, largest_unit;
    double unit_work, largest_work;
};

/* cs_result.conflicts of a local search stopped before it had a start */
#define CS_CONFLICTS_NONE UINT64_MAX

struct cs_result {
    enum cs_status status;
    struct cs_stats stats;
    /* task optimize: the best cost found (valid when stats.solutions > 0)
     * and a lower bound on every solution's cost; equal when optimal */
    int64_t cost, bound;
    uint64_t restarts; /* searches the restart layer began anew
                          (local search: new starts) */
    uint64_t rounds;   /* neighbourhood rounds searched */
    /* local search: steps taken, conflicts left at the end (0 when
     * solved; CS_CONFLICTS_NONE when it was stopped before its first start
     * assignment was whole), the peak resident memory of the process in
     * bytes */
    uint64_t steps, conflicts, peak_bytes;
    /* the moves layer's, all threads together: the model's large moves
     * tried (ls_large), and the times a burst took the portfolio's best
     * as its walk's state (cs_bursts.adopt_seconds) */
    uint64_t large_moves, adoptions;
    int portfolio; /* threads of a portfolio; 0: none */
    struct cs_units units;
    /* optimize: the bound at the root, and the seconds from the search's
     * start to its first solution (< 0: none) */
    int64_t root_bound;
    double first_seconds;
    struct cs_estimate estimate; /* task estimate */
};

/* Check that spec and split suit the problem (MRV needs domain_size, a task
 * the hooks can do, a split only for counts).  split may be NULL (no
 * split).  Returns 0, or -1 with a message in err. */
int cs_spec_validate(const struct cs_spec *spec, const struct cs_split *split,
                     struct cs_error *err);

/* Run the search; split may be NULL.  Fills *out.  Returns 0, or -1 if the
 * settings are invalid, a checkpoint cannot be used, or the sum of work
 * units' counts overflowed 64 bits (err says why).  Within one search or one
 * unit the counts are not checked: a model must bound its sizes (N-Queens
 * refuses to count n > 28). */
int cs_search(const struct cs_spec *spec, const struct cs_split *split,
              struct cs_result *out, struct cs_error *err);

/* Monotonic wall clock in seconds. */
double cs_now(void);

const char *cs_status_name(enum cs_status status);
const char *cs_restarts_name(enum cs_restarts restarts);

/* The selections' names in enum order, NULL-terminated ("in-order",
 * "mrv"): strategy.select's choices. */
extern const char *const cs_select_names[];
/* Whether hooks can do the selection (MRV needs domain_size). */
bool cs_select_possible(enum cs_select select, const struct cs_hooks *hooks);
const char *cs_task_name(enum cs_task task);

#pragma GCC visibility pop

#endif
