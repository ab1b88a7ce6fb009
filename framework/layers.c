/* layers.c - restarts and neighbourhood rounds around the body.
 *
 * Both run the body (eng_dfs) repeatedly on one state under node budgets;
 * layers.h says what each does.  Invariant between calls: the state is the
 * node at depth dfs.base, reached by the moves frames[0, base); a call that
 * stops early leaves the state at dfs.depth, and eng_undo_to takes it back.
 */
#include <stdlib.h>
#include <string.h>

#include "layers.h"

/* ---- restarts ------------------------------------------------------------ */

/* Luby's sequence, 1-based: 1 1 2 1 1 2 4 1 1 2 1 1 2 4 8 ... */
static uint64_t luby(uint64_t i)
{
    for (;;) {
        uint64_t k = 1;
        while ((UINT64_C(1) << k) - 1 < i)
            k++;
        if ((UINT64_C(1) << k) - 1 == i)
            return UINT64_C(1) << (k - 1);
        i -= (UINT64_C(1) << (k - 1)) - 1;
    }
}

struct budget {
    enum cs_restarts kind;
    uint64_t first, now, index;
};

static uint64_t doubled(uint64_t n)
{
    return n < UINT64_MAX / 2 ? 2 * n : UINT64_MAX;
}

/* The budget after one ran out: the policy's next, or its first again. */
static void budget_next(struct budget *b, bool grow)
{
    if (!grow) {
        b->index = 1;
        b->now = b->first;
        return;
    }
    b->index++;
    if (b->kind == CS_RESTARTS_GEOMETRIC)
        b->now = doubled(b->now);
    else if (b->kind == CS_RESTARTS_LUBY)
        b->now = luby(b->index) <= UINT64_MAX / b->first
                     ? b->first * luby(b->index)
                     : UINT64_MAX;
}

static int restarting(struct cs_engine *e, void *state)
{
    struct cs_dfs *d = &e->dfs;
    const struct cs_hooks *h = e->problem->hooks;
    struct budget b = {e->layers.restarts, e->layers.restart_nodes,
                       e->layers.restart_nodes, 1};
    int status;
    d->base = 0;
    for (;;) {
        uint64_t left = eng_nodes_left(e);
        uint64_t cap = b.now < left ? b.now : left;
        uint64_t before = d->stats.nodes;
        status = eng_dfs(e, state, cap);
        bool spent = d->stats.nodes - before >= cap;
        if (status == CS_COMPLETE && !d->stats.solutions && d->base > 0) {
            /* the moves kept are a dead end: from the root */
            eng_undo_to(e, state, d->base, 0);
            d->base = 0;
            b.now = doubled(b.now);
            e->restarts++;
            continue;
        }
        if (status != CS_LIMIT || d->stats.solutions || !spent || cap == left)
            break; /* done, or stopped by the caller's own limits */
        bool grow = true;
        int at = d->depth;
        int to = h->restart ? h->restart(state, at, &grow) : 0;
        if (to < d->base)
            to = d->base;
        if (to > at)
            to = at;
        eng_undo_to(e, state, at, to);
        /* the same node again, in the same order, would stop at the same
         * place: without shuffled orders such a restart needs more, unless
         * the model changed its own order (grow false) */
        if (grow && to == d->base && !d->shuffle)
            b.now = doubled(b.now), b.index++;
        else
            budget_next(&b, grow);
        d->base = to;
        e->restarts++;
    }
    d->base = 0;
    return status;
}

int layer_first_solution(struct cs_engine *e, void *state)
{
    const struct cs_dfs *d = &e->dfs;
    bool first_only = d->task == CS_TASK_SOLVE || d->solution_cap == 1;
    if (first_only && e->layers.restarts != CS_RESTARTS_NONE &&
        e->layers.restart_nodes && !d->on_trace)
        return restarting(e, state);
    return eng_dfs(e, state, eng_nodes_left(e));
}

/* ---- neighbourhood rounds ------------------------------------------------ */

/* on_solution while in rounds: keep a copy of the new incumbent, then tell
 * the caller. */
static bool keep_best(void *ud, const struct cs_hooks *h, const void *state,
                      uint64_t weight)
{
    struct cs_engine *e = ud;
    memcpy(e->best, state, cs_problem_state_size(e->problem));
    return e->on_solution ? e->on_solution(e->ud, h, state, weight) : true;
}

#define SIZE_START 0.1
#define SIZE_STEP 1.25

static int rounds(struct cs_engine *e, void *state, int64_t bound)
{
    struct cs_dfs *d = &e->dfs;
    const struct cs_problem *p = e->problem;
    e->best = cs_xcalloc(1, cs_problem_state_size(p));
    e->on_solution = d->on_solution; /* what keep_best passes solutions on to */
    e->ud = d->ud;
    d->on_solution = keep_best;
    d->ud = e;

    /* round 0: a first solution, by the plain search or restarts */
    d->solution_cap = 1;
    int status = layer_first_solution(e, state);
    d->solution_cap = UINT64_MAX;
    struct cs_round round = {.index = 1 + e->lns_offset, .size = SIZE_START};
    uint64_t version = 0;
    int64_t polished = INT64_MAX; /* the incumbent the last burst began at */
    uint64_t stalled = 0;         /* rounds since the last burst */
    while (status == CS_LIMIT && d->incumbent < INT64_MAX &&
           d->incumbent > bound && !eng_must_stop(e)) {
        if (e->share)
            e->share->best(e, &version); /* the portfolio's best */
        const uint64_t stall = e->layers.stall_rounds;
        if (e->layers.moves &&
            (d->incumbent != polished || (stall && stalled >= stall))) {
            /* local moves polish what the last round (or the first
             * solution) found; or, the rounds stalled, try again from the
             * same incumbent with another draw */
            bool go_on = layer_moves(e);
            polished = d->incumbent;
            stalled = 0;
            if (!go_on || d->incumbent <= bound)
                break;
        }
        eng_state_reset(e, state);
        round.seed =
            e->spec->seed ^ (round.index * UINT64_C(0x9e3779b97f4a7c15));
        /* grown to the whole problem: the round is the whole tree */
        const bool whole = p->hooks->rounds_whole && round.size >= 1;
        if (!whole)
            p->hooks->relax(state, e->best, &round);
        uint64_t left = eng_nodes_left(e);
        uint64_t budget = e->layers.lns_nodes + (uint64_t)p->nvars;
        int64_t before = d->incumbent;
        status = eng_dfs(e, state, left < budget ? left : budget);
        e->rounds++;
        stalled++;
        if (whole && status == CS_COMPLETE)
            break; /* the whole tree searched under the incumbent: proof */
        if (d->incumbent == before)
            round.size = status == CS_COMPLETE ? round.size * SIZE_STEP
                                               : round.size / SIZE_STEP;
        if (round.size > 1)
            round.size = 1;
        if (status == CS_COMPLETE)
            status = CS_LIMIT; /* a neighbourhood done proves nothing */
        round.index++;
    }
    if (e->stop && *e->stop)
        status = CS_INTERRUPTED;
    d->on_solution = e->on_solution;
    d->ud = e->ud;
    return status;
}

/* One branch and bound over the whole tree.  With restarts, a first
 * solution comes from them (so a limit that stops the branch and bound
 * still leaves one where the first descent would stall); then the tree is
 * searched from the root under its cost, which keeps the proof whole. */
static int branch_and_bound(struct cs_engine *e, void *state)
{
    struct cs_dfs *d = &e->dfs;
    if (e->layers.restarts != CS_RESTARTS_NONE && e->layers.restart_nodes &&
        !d->on_trace) {
        d->solution_cap = 1;
        int status = layer_first_solution(e, state);
        d->solution_cap = UINT64_MAX;
        if (status != CS_LIMIT || !d->stats.solutions || eng_must_stop(e))
            return status;
        eng_state_reset(e, state);
    }
    return eng_dfs(e, state, eng_nodes_left(e));
}

/* on_solution under optimize: note when the first came, pass it on. */
static bool note_first(void *ud, const struct cs_hooks *h, const void *state,
                       uint64_t weight)
{
    struct cs_engine *e = ud;
    if (!e->first_at)
        e->first_at = cs_now();
    return e->first_on_solution
               ? e->first_on_solution(e->first_ud, h, state, weight)
               : true;
}

int layer_optimize(struct cs_engine *e, void *state, int64_t *cost,
                   int64_t *bound)
{
    struct cs_dfs *d = &e->dfs;
    const struct cs_hooks *h = e->problem->hooks;
    *bound = e->root_bound = h->bound(state);
    e->first_on_solution = d->on_solution;
    e->first_ud = d->ud;
    d->on_solution = note_first;
    d->ud = e;
    int status = h->relax && e->layers.lns_nodes ? rounds(e, state, *bound)
                                                 : branch_and_bound(e, state);
    d->on_solution = e->first_on_solution;
    d->ud = e->first_ud;
    bool found = d->stats.solutions > 0;
    *cost = found ? d->incumbent : 0;
    if (status == CS_COMPLETE || (found && d->incumbent <= *bound)) {
        *bound = found ? d->incumbent : *bound;
        return found ? CS_OPTIMAL : CS_INFEASIBLE;
    }
    return status;
}

int layer_run(struct cs_engine *e, void *state, int64_t *cost, int64_t *bound)
{
    int status;
    if (e->spec->task == CS_TASK_OPTIMIZE)
        status = layer_optimize(e, state, cost, bound);
    else
        status = layer_first_solution(e, state);
    eng_harvest(e, state);
    /* a solve that searched its whole tree and found nothing proved that
     * there is no solution */
    if (e->spec->task == CS_TASK_SOLVE && status == CS_COMPLETE &&
        !e->dfs.stats.solutions)
        status = CS_INFEASIBLE;
    /* A search that ends past its limit or after an interrupt proves
     * nothing: a model may have given up a node there (the FlatZinc
     * model's propagation does).  What it found is kept. */
    int stop = eng_stop_reason(e);
    bool proof = status == CS_OPTIMAL || status == CS_INFEASIBLE ||
                 (status == CS_COMPLETE &&
                  !(e->spec->task == CS_TASK_SOLVE && e->dfs.stats.solutions));
    if (proof && stop >= 0)
        status = stop;
    return status;
}
