/* csearch/dfs.h - the engine body, for models that want their hooks inlined.
 *
 * This is the backtracking template with an explicit stack:
 *
 *   enter:  count the node; if prune(): fail.  var = select (or MRV);
 *           none open -> goal check, count weighted solution, backtrack.
 *   next:   next value of var?  apply it, go down (enter).
 *           none left -> backtrack: go up one level, undo, next.
 *
 * cs_dfs() is `static inline` and always inlined: the engine's generic
 * instance (engine.c) calls it with a run-time table, while a model that
 * calls it with a pointer to its own `static const` table gets each hook
 * inlined at its call site and the NULL tests folded away.  Statistics live
 * in locals and go back to run->stats at the end; the clock, the node limit
 * and the interrupt flag are polled every CS_POLL_NODES nodes.
 *
 * Tracing (run->on_trace) happens in the generic instance only: for a table
 * whose search slot is set (a model's own instance) the test folds to false
 * and the trace calls vanish, so the fast instances pay nothing for it.
 */
#ifndef CSEARCH_DFS_H
#define CSEARCH_DFS_H

#include <limits.h>
#include <string.h>

#include "csearch/engine.h"

#if defined(__GNUC__)
#define CS_ALWAYS_INLINE inline __attribute__((always_inline))
#else
#define CS_ALWAYS_INLINE inline
#endif

#define CS_POLL_NODES 4096u

/* Out of line (engine.c): called when nodes reaches run->next_poll.  Returns
 * the status to stop with, or -1 to go on (and moves run->next_poll). */
int cs_poll(struct cs_run *run, uint64_t nodes);

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

/* Hand one step of a traced search to run->on_trace.  The move is the one
 * into the node at depth (UNDO: the one taken back, below depth). */
static inline void cs_trace_step(struct cs_run *run, const struct cs_hooks *h,
                                 const void *state, enum cs_trace_kind kind,
                                 int depth, int branch, uint64_t weight)
{
    const struct cs_frame *move =
        kind == CS_TRACE_UNDO ? &run->frames[depth]
                              : depth ? &run->frames[depth - 1] : NULL;
    struct cs_trace_event ev = {.kind = kind, .depth = depth,
                                .var = move ? move->var : CS_NONE,
                                .value = move ? move->value : 0,
                                .branch = branch, .weight = weight};
    run->on_trace(run->trace_ud, &ev, h, state);
}

static CS_ALWAYS_INLINE int cs_dfs(struct cs_run *run, void *state,
                                   const struct cs_hooks *h)
{
    struct cs_frame *const frames = run->frames;
    unsigned char *const saved = run->saved;
    /* a constant for a table that states its size: copies fold too */
    const size_t state_size =
        h->state_size ? h->state_size : run->problem->state_size;
    const size_t stride = cs_state_stride(state_size);
    const int nvars = run->problem->nvars;
    /* folds to false for a table without domain sizes */
    const bool mrv = h->domain_size && run->select == CS_SELECT_MRV;
    const bool solving = run->task == CS_TASK_SOLVE;
    const bool tracing = !h->search && run->on_trace;
    /* branch and bound; folds to false for a table without a cost */
    const bool optimizing =
        h->cost && h->bound && run->task == CS_TASK_OPTIMIZE;
    uint64_t nodes = 0, fails = 0, solutions = 0;
    uint64_t weight = run->base_weight;
    uint64_t poll_at = run->next_poll; /* a local: stores to the state
                                          cannot alias it */
    int depth = 0, max_depth = 0, var, value, status = CS_COMPLETE;
    struct cs_frame *f;

enter:
    if (nodes >= poll_at) {
        int stop = cs_poll(run, nodes);
        if (stop >= 0) {
            status = stop;
            goto out;
        }
        poll_at = run->next_poll;
    }
    nodes++;
    if (h->prune && h->prune(state)) {
        if (tracing)
            cs_trace_step(run, h, state, CS_TRACE_PRUNED, depth, CS_NONE,
                          weight);
        goto fail;
    }
    if (optimizing && h->bound(state) >= run->incumbent) {
        if (tracing)
            cs_trace_step(run, h, state, CS_TRACE_PRUNED, depth, CS_NONE,
                          weight);
        goto fail; /* no completion can beat the best so far */
    }
    var = mrv ? cs_mrv(h, state, nvars) : h->select(state);
    if (var == CS_NONE) {
        if (h->goal && !h->goal(state)) {
            if (tracing)
                cs_trace_step(run, h, state, CS_TRACE_REJECTED, depth,
                              CS_NONE, weight);
            goto fail;
        }
        if (optimizing) {
            int64_t cost = h->cost(state);
            if (cost >= run->incumbent)
                goto fail;
            run->incumbent = cost; /* a better solution: a new bound */
        }
        if (tracing)
            cs_trace_step(run, h, state, CS_TRACE_SOLUTION, depth, CS_NONE,
                          weight);
        /* the deepest node is always a leaf: track depth at leaves only */
        if (depth > max_depth)
            max_depth = depth;
        solutions += solving ? 1 : weight;
        /* only a table that can show a solution hands it out: a counting
         * table's state then never escapes, and may live in registers */
        if (h->emit && run->on_solution &&
            !run->on_solution(run->ud, h, state, weight)) {
            status = CS_LIMIT;
            goto out;
        }
        if (solving)
            goto out;
        if (solutions >= run->solution_cap) {
            status = CS_LIMIT;
            goto out;
        }
        goto backtrack;
    }
    f = &frames[depth];
    f->var = var;
    f->weight = weight;
    if (tracing)
        cs_trace_step(run, h, state, CS_TRACE_NODE, depth, var, weight);
    h->first(state, var, &f->cursor);
    if (!h->next(state, var, &f->cursor, &value)) {
        if (tracing)
            cs_trace_step(run, h, state, CS_TRACE_NO_VALUE, depth, var,
                          weight);
        goto fail; /* no child at all */
    }
descend:
    f->value = value;
    weight = h->weight ? f->weight * h->weight(state, f->var, value)
                       : f->weight;
    if (!h->undo) {
        /* memcpy would roll the model's counters back with the state:
         * harvest them first (a copy hook leaves them alone instead) */
        if (h->collect && !h->copy)
            h->collect(state, &run->stats);
        if (h->copy)
            h->copy(saved + (size_t)depth * stride, state);
        else
            memcpy(saved + (size_t)depth * stride, state, state_size);
    }
    h->apply(state, f->var, value);
    depth++;
    goto enter;

fail:
    fails++;
    if (depth > max_depth)
        max_depth = depth;
backtrack:
    if (depth == 0)
        goto out;
    depth--;
    f = &frames[depth];
    if (h->undo) {
        h->undo(state, f->var, f->value);
    } else {
        if (h->collect && !h->copy)
            h->collect(state, &run->stats);
        if (h->copy)
            h->copy(state, saved + (size_t)depth * stride);
        else
            memcpy(state, saved + (size_t)depth * stride, state_size);
    }
    if (tracing)
        cs_trace_step(run, h, state, CS_TRACE_UNDO, depth, CS_NONE,
                      f->weight);
    if (h->next(state, f->var, &f->cursor, &value))
        goto descend;
    goto backtrack;

out:
    run->stats.nodes += nodes;
    run->stats.fails += fails;
    run->stats.solutions += solutions;
    if (max_depth > run->stats.max_depth)
        run->stats.max_depth = max_depth;
    return status;
}

#endif
