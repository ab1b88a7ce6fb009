/* csearch/dfs.h - the engine body, for models that want their hooks inlined.
 *
 * This is the backtracking template with an explicit stack:
 *
 *   enter:  count the node; if prune(): fail.  var = select (or MRV);
 *           none open -> goal check, count weighted solution, backtrack.
 *   next:   next value of var?  apply it, go down (enter).
 *           none left -> backtrack: go up one level, undo, next.
 *
 * It is the only search in csearch.  Every run goes through it: a plain
 * search, each work unit of a split count (the body first replays the
 * unit's prefix, then searches below it), the walk that finds those units
 * (the body stops at the split depth and hands each node there out), each
 * restart and each neighbourhood round of a layer.
 *
 * cs_dfs() is `static inline` and always inlined: the engine's generic
 * instance (engine.c) calls it with a run-time table, while a model that
 * calls it with a pointer to its own `static const` table gets each hook
 * inlined at its call site and the NULL tests folded away.  CS_HOOKS below
 * declares such a table and its instance in one go.  Tracing, per-level
 * profiles, the split walk, a unit's replay and shuffled value orders happen
 * in the generic instance only: for a
 * table whose search slot is set the tests fold to false, so the fast
 * instances pay nothing for them (the engine runs the generic instance when
 * a run needs one of them).
 *
 * struct cs_dfs is the engine's: it fills it, the body runs on it, and a
 * model only passes the pointer it was given on to cs_dfs().  Its fields are
 * here so that the body can inline; nothing outside framework/ reads them.
 */
#ifndef CSEARCH_DFS_H
#define CSEARCH_DFS_H

#include <limits.h>
#include <string.h>

#include "csearch/engine.h"

/* what the headers declare is libcsearch's interface; the rest is hidden */
#pragma GCC visibility push(default)

#if defined(__GNUC__)
#define CS_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define CS_ALWAYS_INLINE inline
#endif

#define CS_POLL_NODES 4096u

/* One level of the explicit stack. */
struct cs_frame {
    int var;         /* variable being branched on */
    int value;       /* value applied last */
    uint64_t cursor; /* the model's value iterator (in a shuffled order,
                        once the values are drawn: how many are left) */
    uint64_t weight; /* product of branch weights from the root */
};

/* One depth-first search: the engine's context of the body (see above). */
struct cs_dfs {
    const struct cs_problem *problem;
    enum cs_task task;
    enum cs_select select;
    struct cs_frame *frames; /* nvars + 1 */
    unsigned char *saved;    /* state copies when hooks->undo is NULL */
    int base;                /* the search starts at this depth: the
                                moves frames[0, base) are fixed */
    const int *replay;       /* NULL, or base (var, value) pairs the body
                                applies first, from a fresh state
                                (generic instance only) */
    bool replay_only;        /* return once the replay is done */
    uint64_t base_weight;    /* weight of the start node */
    uint64_t next_poll;      /* node count of the next cs_poll */
    uint64_t solution_cap;   /* stop at this many solutions */
    int64_t incumbent;       /* optimize: best cost so far, or
                                INT64_MAX; the body prunes by it */
    cs_solution_fn on_solution;
    void *ud;
    cs_trace_fn on_trace; /* generic instance only */
    void *trace_ud;
    struct cs_level *profile; /* per-level counts (generic instance only):
                                 nvars + 1 levels, or NULL */
    /* the split walk (generic instance only): at depth split_at each node
     * goes to on_frontier instead of being searched */
    int split_at;
    void (*on_frontier)(struct cs_dfs *dfs, uint64_t weight);
    /* shuffled value orders (generic instance only) */
    bool shuffle;
    int max_values;
    int *values; /* (nvars + 1) * max_values */
    uint64_t rng;
    /* out: sums over the body's calls, and where the last one stopped */
    struct cs_stats stats;
    int depth;
    struct cs_engine *engine; /* the rest of the engine's context */
};

/* Out of line (engine.c): called when nodes reaches dfs->next_poll.
 * Returns the status to stop with, or -1 to go on (and moves next_poll). */
int cs_poll(struct cs_dfs *dfs, uint64_t nodes);
/* Out of line (engine.c): a uniform random number below n (n > 0). */
uint64_t cs_dfs_random(struct cs_dfs *dfs, uint64_t n);

/* MRV: the open variable with the fewest values, the first on ties;
 * CS_NONE when all are set.  A variable with no value wins at once. */
static CS_ALWAYS_INLINE int cs_mrv(const struct cs_hooks *h, void *state,
                                   int nvars)
{
    int best = CS_NONE, best_size = INT_MAX;
    for (int v = 0; v < nvars; v++) {
        int size = h->domain_size(state, v);
        if (size >= 0 && size < best_size) {
            best = v;
            best_size = size;
            if (size == 0)
                break;
        }
    }
    return best;
}

#ifdef CSEARCH_TEST_RULE
/* The test build's rule: the open variable with the most values. */
static inline int cs_largest(const struct cs_hooks *h, void *state, int nvars)
{
    int best = CS_NONE, best_size = -1;
    for (int v = 0; v < nvars; v++) {
        int size = h->domain_size(state, v);
        if (size > best_size) {
            best = v;
            best_size = size;
        }
    }
    return best;
}
#endif

/* The next variable to branch on by the rule select (enum cs_select);
 * CS_NONE when every variable is set.  A case per selection: the search
 * body and estimate's probes both choose here. */
static CS_ALWAYS_INLINE int cs_choose(enum cs_select select,
                                      const struct cs_hooks *h, void *state,
                                      int nvars)
{
    /* folds to the model's order for a table without domain sizes */
    if (h->domain_size && select == CS_SELECT_MRV)
        return cs_mrv(h, state, nvars);
#ifdef CSEARCH_TEST_RULE
    if (h->domain_size && select == CS_SELECT_TEST_LARGEST)
        return cs_largest(h, state, nvars);
#endif
    return h->select(state);
}

/* Hand one step of a traced search to on_trace.  The move is the one into
 * the node at depth (UNDO: the one taken back, below depth). */
static inline void cs_trace_step(struct cs_dfs *d, const struct cs_hooks *h,
                                 const void *state, enum cs_trace_kind kind,
                                 int depth, int branch, uint64_t weight)
{
    const struct cs_frame *move = kind == CS_TRACE_UNDO ? &d->frames[depth]
                                  : depth               ? &d->frames[depth - 1]
                                                        : NULL;
    struct cs_trace_event ev = {.kind = kind,
                                .depth = depth,
                                .var = move ? move->var : CS_NONE,
                                .value = move ? move->value : 0,
                                .branch = branch,
                                .weight = weight};
    d->on_trace(d->trace_ud, &ev, h, state);
}

/* The bytes of a state the engine copies: all of it but the counters it
 * owns at the front (model.h). */
static CS_ALWAYS_INLINE size_t cs_copy_from(const struct cs_hooks *h)
{
    return h->counters ? sizeof(struct cs_counters) : 0;
}

/* Keep a copy of the state at depth (or put it back: restore). */
static CS_ALWAYS_INLINE void cs_dfs_save(const struct cs_hooks *h,
                                         unsigned char *copy, void *state,
                                         size_t size, bool restore)
{
    unsigned char *live = state;
    const size_t skip = cs_copy_from(h);
    if (h->copy)
        restore ? h->copy(live, copy) : h->copy(copy, live);
    else if (restore)
        memcpy(live + skip, copy + skip, size - skip);
    else
        memcpy(copy + skip, live + skip, size - skip);
}

/* The next value of frame f: the model's order, or the shuffled one. */
static CS_ALWAYS_INLINE bool cs_dfs_next(struct cs_dfs *d,
                                         const struct cs_hooks *h, void *state,
                                         struct cs_frame *f, bool shuffled,
                                         int depth, int *value)
{
    if (!shuffled)
        return h->next(state, f->var, &f->cursor, value);
    if (f->cursor == 0)
        return false;
    *value = d->values[(size_t)depth * (size_t)d->max_values + --f->cursor];
    return true;
}

/* Start on frame f's values: first(), and in a shuffled order all of them
 * drawn at once and permuted (first and next depend on the state only, and
 * the state is the same each time the body comes back to this frame). */
static CS_ALWAYS_INLINE void cs_dfs_first(struct cs_dfs *d,
                                          const struct cs_hooks *h, void *state,
                                          struct cs_frame *f, bool shuffled,
                                          int depth)
{
    if (h->first)
        h->first(state, f->var, &f->cursor);
    else
        f->cursor = 0;
    if (!shuffled)
        return;
    int *vals = d->values + (size_t)depth * (size_t)d->max_values;
    int n = 0, v;
    while (n < d->max_values && h->next(state, f->var, &f->cursor, &v))
        vals[n++] = v;
    for (int i = n - 1; i > 0; i--) {
        int j = (int)cs_dfs_random(d, (uint64_t)i + 1), t = vals[i];
        vals[i] = vals[j];
        vals[j] = t;
    }
    /* taken from the back: reverse so that an unshuffled draw would keep
     * the model's order */
    for (int i = 0; i < n / 2; i++) {
        int t = vals[i];
        vals[i] = vals[n - 1 - i];
        vals[n - 1 - i] = t;
    }
    f->cursor = (uint64_t)n;
}

static CS_ALWAYS_INLINE int cs_dfs(struct cs_dfs *d, void *state,
                                   const struct cs_hooks *h)
{
    struct cs_frame *const frames = d->frames;
    unsigned char *const saved = d->saved;
    /* a constant for a table that states its size: copies fold too */
    const size_t state_size =
        h->state_size ? h->state_size : d->problem->state_size;
    const size_t stride = cs_state_stride(state_size);
    const int nvars = d->problem->nvars;
    const int base = d->base;
    const bool solving = d->task == CS_TASK_SOLVE;
    /* the generic instance's extras; fold to false in a model's own */
    const bool tracing = !h->search && d->on_trace;
    const bool splitting = !h->search && d->split_at > 0;
    const bool shuffled = !h->search && d->shuffle;
    struct cs_level *const levels = h->search ? NULL : d->profile;
    /* branch and bound; folds to false for a table without a cost */
    const bool optimizing = h->cost && h->bound && d->task == CS_TASK_OPTIMIZE;
    uint64_t nodes = 0, fails = 0, solutions = 0;
    uint64_t weight = d->base_weight;
    uint64_t poll_at = d->next_poll; /* a local: stores to the state
                                        cannot alias it */
    int depth = base, max_depth = 0, var, value, status = CS_COMPLETE;
    struct cs_frame *f;

    /* a work unit: the split walk's very steps from a fresh state (a prune
     * that propagates changes the state; on this path each said "go on");
     * the walk counted their checks once already.  Generic instance only:
     * for a table with its own, the engine has this instance replay and
     * return, then runs the table's own from the base (a loop over the
     * state here would keep it out of registers in the hot loop below) */
    if (!h->search && d->replay) {
        for (int k = 0; k < base; k++) {
            if (h->prune)
                h->prune(state);
            frames[k].var = d->replay[2 * k];
            frames[k].value = d->replay[2 * k + 1];
            if (!h->undo)
                cs_dfs_save(h, saved + (size_t)k * stride, state, state_size,
                            false);
            h->apply(state, frames[k].var, frames[k].value);
        }
        if (h->counters)
            memset(state, 0, sizeof(struct cs_counters));
        if (d->replay_only)
            return CS_COMPLETE;
    }

enter:
    if (splitting && depth == d->split_at) {
        d->on_frontier(d, weight);
        goto backtrack;
    }
    if (nodes >= poll_at) {
        int stop = cs_poll(d, nodes);
        if (stop >= 0) {
            status = stop;
            goto out;
        }
        poll_at = d->next_poll;
    }
    nodes++;
    if (levels)
        levels[depth].nodes++;
    if (h->prune && h->prune(state)) {
        if (tracing)
            cs_trace_step(d, h, state, CS_TRACE_PRUNED, depth, CS_NONE, weight);
        goto fail;
    }
    if (optimizing && h->bound(state) >= d->incumbent) {
        if (tracing)
            cs_trace_step(d, h, state, CS_TRACE_PRUNED, depth, CS_NONE, weight);
        goto fail; /* no completion can beat the best so far */
    }
    var = cs_choose(d->select, h, state, nvars);
    if (var == CS_NONE) {
        if (h->goal && !h->goal(state))
            goto rejected;
        if (optimizing) {
            int64_t cost = h->cost(state);
            if (cost >= d->incumbent)
                goto rejected;   /* complete, but no better than the best */
            d->incumbent = cost; /* a better solution: a new bound */
        }
        if (tracing)
            cs_trace_step(d, h, state, CS_TRACE_SOLUTION, depth, CS_NONE,
                          weight);
        /* the deepest node is always a leaf: track depth at leaves only */
        if (depth > max_depth)
            max_depth = depth;
        solutions += solving ? 1 : weight;
        if (levels)
            levels[depth].solutions += solving ? 1 : weight;
        /* only a table that can show a solution (or has a cost) hands it
         * out: a counting table's state then never escapes, and may live
         * in registers */
        if ((h->emit || optimizing) && d->on_solution &&
            !d->on_solution(d->ud, h, state, weight)) {
            status = CS_LIMIT;
            goto out;
        }
        if (solving)
            goto out;
        if (solutions >= d->solution_cap) {
            status = CS_LIMIT;
            goto out;
        }
        goto backtrack;
    }
    f = &frames[depth];
    f->var = var;
    f->weight = weight;
    if (tracing)
        cs_trace_step(d, h, state, CS_TRACE_NODE, depth, var, weight);
    cs_dfs_first(d, h, state, f, shuffled, depth);
    if (!cs_dfs_next(d, h, state, f, shuffled, depth, &value)) {
        if (tracing)
            cs_trace_step(d, h, state, CS_TRACE_NO_VALUE, depth, var, weight);
        goto fail; /* no child at all */
    }
descend:
    f->value = value;
    weight =
        h->weight ? f->weight * h->weight(state, f->var, value) : f->weight;
    if (!h->undo)
        cs_dfs_save(h, saved + (size_t)depth * stride, state, state_size,
                    false);
    h->apply(state, f->var, value);
    depth++;
    goto enter;

rejected:
    if (tracing)
        cs_trace_step(d, h, state, CS_TRACE_REJECTED, depth, CS_NONE, weight);
fail:
    fails++;
    if (levels)
        levels[depth].fails++;
    if (depth > max_depth)
        max_depth = depth;
backtrack:
    if (depth == base)
        goto out;
    depth--;
    f = &frames[depth];
    if (h->undo)
        h->undo(state, f->var, f->value);
    else
        cs_dfs_save(h, saved + (size_t)depth * stride, state, state_size, true);
    if (tracing)
        cs_trace_step(d, h, state, CS_TRACE_UNDO, depth, CS_NONE, f->weight);
    if (cs_dfs_next(d, h, state, f, shuffled, depth, &value))
        goto descend;
    goto backtrack;

out:
    d->depth = depth;
    d->stats.nodes += nodes;
    d->stats.fails += fails;
    d->stats.solutions += solutions;
    if (max_depth > d->stats.max_depth)
        d->stats.max_depth = max_depth;
    return status;
}

/* Declare a model's constant hook table `name` together with its own
 * instance of the engine body (name_search, in its search slot):
 *
 *     CS_HOOKS(queen_hooks, .init = q_init, .select = q_select, ...);
 */
#define CS_HOOKS(name, ...)                                                    \
    static int name##_search(struct cs_dfs *dfs, void *state);                 \
    static const struct cs_hooks name = {__VA_ARGS__,                          \
                                         .search = name##_search};             \
    static int name##_search(struct cs_dfs *dfs, void *state)                  \
    {                                                                          \
        return cs_dfs(dfs, state, &name);                                      \
    }

#pragma GCC visibility pop

#endif
