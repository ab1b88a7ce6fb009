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

static int restarting(struct cs_engine *e, void *state, uint64_t *restarts)
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
            ++*restarts;
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
        ++*restarts;
    }
    d->base = 0;
    return status;
}

int layer_first_solution(struct cs_engine *e, void *state, uint64_t *restarts)
{
    const struct cs_dfs *d = &e->dfs;
    bool first_only = d->task == CS_TASK_SOLVE || d->solution_cap == 1;
    if (first_only && e->layers.restarts != CS_RESTARTS_NONE &&
        e->layers.restart_nodes && !d->on_trace)
        return restarting(e, state, restarts);
    return eng_dfs(e, state, eng_nodes_left(e));
}

/* ---- neighbourhood rounds ------------------------------------------------ */

/* The rounds' own: the incumbent, and where solutions go on to. */
struct keeper {
    unsigned char *best;
    size_t size;
    cs_solution_fn next;
    void *next_ud;
};

/* on_solution while in rounds: keep a copy of the new incumbent, then tell
 * the caller. */
static bool keep_best(void *ud, const struct cs_hooks *h, const void *state,
                      uint64_t weight)
{
    struct keeper *k = ud;
    memcpy(k->best, state, k->size);
    return k->next ? k->next(k->next_ud, h, state, weight) : true;
}

#define SIZE_START 0.1
#define SIZE_STEP 1.25

static int rounds(struct cs_engine *e, void *state, int64_t bound,
                  struct cs_result *out)
{
    struct cs_dfs *d = &e->dfs;
    const struct cs_problem *p = e->problem;
    struct keeper keep = {.size = cs_problem_state_size(p),
                          .next = d->on_solution,
                          .next_ud = d->ud};
    keep.best = cs_xcalloc(1, keep.size);
    d->on_solution = keep_best;
    d->ud = &keep;
    struct layer_moves moves = {.bound = bound};

    /* round 0: a first solution, by the plain search or restarts */
    d->solution_cap = 1;
    int status = layer_first_solution(e, state, &out->restarts);
    d->solution_cap = UINT64_MAX;
    struct cs_round round = {.index = 1 + e->peers.round_offset,
                             .size = SIZE_START};
    uint64_t version = 0;
    int64_t polished = INT64_MAX; /* the incumbent the last burst began at */
    uint64_t stalled = 0;         /* rounds since the last burst */
    while (status == CS_LIMIT && d->incumbent < INT64_MAX &&
           d->incumbent > bound && !eng_must_stop(e)) {
        if (e->peers.share) /* the portfolio's best */
            e->peers.share->best(e, keep.best, &version);
        const uint64_t stall = e->layers.stall_rounds;
        if (e->layers.moves &&
            (d->incumbent != polished || (stall && stalled >= stall))) {
            /* local moves polish what the last round (or the first
             * solution) found; or, the rounds stalled, try again from the
             * same incumbent with another draw */
            bool go_on = layer_moves(e, keep.best, &moves);
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
            p->hooks->relax(state, keep.best, &round);
        uint64_t left = eng_nodes_left(e);
        uint64_t budget = e->layers.lns_nodes + (uint64_t)p->nvars;
        int64_t before = d->incumbent;
        status = eng_dfs(e, state, left < budget ? left : budget);
        out->rounds++;
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
    d->on_solution = keep.next;
    d->ud = keep.next_ud;
    out->steps = moves.steps;
    out->large_moves = moves.large;
    out->adoptions = moves.adoptions;
    layer_moves_free(&moves);
    free(keep.best);
    return status;
}

/* One branch and bound over the whole tree.  With restarts, a first
 * solution comes from them (so a limit that stops the branch and bound
 * still leaves one where the first descent would stall); then the tree is
 * searched from the root under its cost, which keeps the proof whole. */
static int branch_and_bound(struct cs_engine *e, void *state,
                            uint64_t *restarts)
{
    struct cs_dfs *d = &e->dfs;
    if (e->layers.restarts != CS_RESTARTS_NONE && e->layers.restart_nodes &&
        !d->on_trace) {
        d->solution_cap = 1;
        int status = layer_first_solution(e, state, restarts);
        d->solution_cap = UINT64_MAX;
        if (status != CS_LIMIT || !d->stats.solutions || eng_must_stop(e))
            return status;
        eng_state_reset(e, state);
    }
    return eng_dfs(e, state, eng_nodes_left(e));
}

/* The optimize layer's own: when the first solution came (0: not yet),
 * and where solutions go on to. */
struct first_note {
    double at;
    cs_solution_fn next;
    void *next_ud;
};

/* on_solution under optimize: note when the first came, pass it on. */
static bool note_first(void *ud, const struct cs_hooks *h, const void *state,
                       uint64_t weight)
{
    struct first_note *f = ud;
    if (!f->at)
        f->at = cs_now();
    return f->next ? f->next(f->next_ud, h, state, weight) : true;
}

/* optimize: the root bound, branch and bound or neighbourhood rounds, and
 * the final status (optimal, infeasible or the limit's). */
static int layer_optimize(struct cs_engine *e, void *state,
                          struct cs_result *out)
{
    struct cs_dfs *d = &e->dfs;
    const struct cs_hooks *h = e->problem->hooks;
    out->bound = out->root_bound = h->bound(state);
    struct first_note first = {.next = d->on_solution, .next_ud = d->ud};
    d->on_solution = note_first;
    d->ud = &first;
    int status = h->relax && e->layers.lns_nodes
                     ? rounds(e, state, out->bound, out)
                     : branch_and_bound(e, state, &out->restarts);
    d->on_solution = first.next;
    d->ud = first.next_ud;
    out->first_seconds = first.at ? first.at - e->started : -1;
    bool found = d->stats.solutions > 0;
    out->cost = found ? d->incumbent : 0;
    if (status == CS_COMPLETE || (found && d->incumbent <= out->bound)) {
        out->bound = found ? d->incumbent : out->bound;
        return found ? CS_OPTIMAL : CS_INFEASIBLE;
    }
    return status;
}

int layer_run(struct cs_engine *e, void *state, struct cs_result *out)
{
    int status;
    out->first_seconds = -1;
    if (e->spec->task == CS_TASK_OPTIMIZE)
        status = layer_optimize(e, state, out);
    else
        status = layer_first_solution(e, state, &out->restarts);
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
