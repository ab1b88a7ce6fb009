/* shifts/restart.c - the restart loop of a first-solution search.
 *
 * Only restarting_search and the search hook that picks it live here: the
 * loop drives the engine's run itself (node_cap, next_poll, frames), which a
 * framework restart layer is to take over.  To drop it, delete this file and
 * set the hook table's search slot to shf_dfs (rules.c).
 */
#include <stdlib.h>
#include <string.h>

#include "csearch/dfs.h"
#include "shifts/search.h"

/* A first-solution search restarts rows.  Rows are filled by a value order
 * that chases cover, and a row led by it into a corner its look-ahead cannot
 * see thrashes over every arrangement of its earlier days.  So the search
 * runs under a node budget; when the budget runs out, the staff member whose
 * row the search is in stops chasing cover (its values then go by its
 * requests alone, as if it were rostered by itself), the cells of its row
 * are undone, and the search goes on from the start of that row, with twice
 * the budget if the row was calm already.  Should the rows before prove a
 * dead end, the search starts again at the root with twice the budget, so a
 * tree with no solution is still searched to its end and proven infeasible.
 * Staff order only; deterministic, like the plain search. */
static int restarting_search(struct cs_run *run, void *state)
{
    struct shf_state *st = state;
    const struct shf_problem *p = st->p;
    const int nvars = p->nstaff * p->ndays;
    void *root = cs_xmalloc(p->state_size);
    memcpy(root, state, p->state_size);
    const uint64_t cap = run->node_cap, at_start = run->stats.nodes;
    uint64_t budget = p->restart_nodes;
    int base = 0, status, deepest = run->stats.max_depth;
    for (;;) {
        uint64_t used = run->stats.nodes - at_start;
        uint64_t left = cap > used ? cap - used : 0;
        run->node_cap = budget < left ? budget : left;
        run->next_poll =
            CS_POLL_NODES < run->node_cap ? CS_POLL_NODES : run->node_cap;
        uint64_t before = run->stats.nodes;
        run->stats.max_depth = 0;
        status = shf_dfs(run, state);
        if (run->stats.max_depth + base > deepest)
            deepest = run->stats.max_depth + base;
        bool spent = run->stats.nodes - before >= run->node_cap;
        if (status == CS_COMPLETE && !run->stats.solutions && base > 0) {
            /* the rows before are a dead end: from the root */
            shf_collect(state, &run->stats);
            memcpy(state, root, p->state_size);
            base = 0;
            budget = budget < UINT64_MAX / 2 ? 2 * budget : UINT64_MAX;
            continue;
        }
        if (status != CS_LIMIT || run->stats.solutions || !spent ||
            run->node_cap == left)
            break; /* done, or stopped by the caller's own limits */
        int s = (st->depth < nvars ? st->depth : nvars - 1) / p->ndays;
        signed char *calm = SHF_AT(root, p->o_calm, signed char) + s;
        /* a row calm already needs more; a new one starts small again
         * (at most nstaff times, so the budgets still grow without end) */
        if (*calm)
            budget = budget < UINT64_MAX / 2 ? 2 * budget : UINT64_MAX;
        else
            budget = p->restart_nodes;
        *calm = 1;
        SHF_AT(st, p->o_calm, signed char)[s] = 1;
        int target = s * p->ndays > base ? s * p->ndays : base;
        for (int k = st->depth - base - 1; k >= target - base; k--)
            shf_undo(state, run->frames[k].var, run->frames[k].value);
        base = target;
    }
    run->stats.max_depth = deepest;
    run->node_cap = cap;
    free(root);
    return status;
}

int shf_search(struct cs_run *run, void *state)
{
    const struct shf_state *st = state;
    bool first_only = run->task == CS_TASK_SOLVE || run->solution_cap == 1;
    if (first_only && st->p->restart_nodes && st->p->by_staff &&
        !st->p->pin)
        return restarting_search(run, state);
    return shf_dfs(run, state);
}
