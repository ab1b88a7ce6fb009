/* layers.h - search layers: strategies that wrap a search (internal).
 *
 * A layer does not change how one tree is searched but how searches are
 * run: it calls the body (eng_dfs) again and again under budgets and keeps
 * what the calls found.  Which layers run is the spec's choice
 * (struct cs_layers, proposed by the model, overridden by the keys
 * strategy.restarts, restart_nodes, shuffle, lns_nodes and seed):
 *
 *   restarts   a search for a first solution (solve, and the first round
 *              of neighbourhood rounds) runs under a node budget; when it
 *              runs out the search begins anew -- from the root, or from
 *              the depth the model's restart hook names, keeping the moves
 *              above -- with the next budget: constant, geometric (doubled)
 *              or Luby's sequence (1 1 2 1 1 2 4 ... times restart_nodes).
 *              With shuffle, each search tries values in an order drawn
 *              from the seed.  Without it, a search that would begin at
 *              the very node the last one began at gets a doubled budget
 *              whatever the policy (unless the model's hook asked for the
 *              first budget again, having changed its own value order),
 *              so it cannot repeat itself for ever
 *              (with shuffle, constant budgets on a tree without a
 *              solution end only at a limit).  Should the moves kept prove a
 * dead end, the search goes back to the root, so a tree with no solution is
 *              still searched to its end and proven infeasible.
 *   rounds     optimize with a relax hook and lns_nodes: after a first
 *              solution, each round frees part of the incumbent (relax),
 *              searches the rest by branch and bound under lns_nodes plus
 *              one descent, and keeps what improves; the share it frees
 *              grows after a round that exhausted its neighbourhood and
 *              shrinks after one cut short.  With the hooks' rounds_whole, a
 *              round grown to the whole problem (share 1) searches the
 *              whole tree instead, under the same budget: searched to its
 *              end, it proves the incumbent optimal.  Otherwise rounds
 *              prove nothing: they end at a limit, or when the incumbent
 *              meets the root bound.
 *   local      task solve with layers.local (the model's ls_* hooks,
 *              csearch/model.h): no tree at all.  Min-conflicts on one
 *              complete assignment: each step picks a variable in conflict
 *              and makes its best move (every move, or `sample` drawn at
 *              random; ties at random), or with probability `walk` a random
 *              one; moves that only add conflicts are not made.  After
 *              local_steps steps it restarts from a fresh start (0: never).
 *              Ends at a verified solution, limits.steps, limits.seconds or
 *              *stop; result.steps, restarts, conflicts and peak_bytes say
 *              what it did.  One thread; a trace gets each start and
 *              step (CS_TRACE_START, CS_TRACE_STEP), no tree (local.c).
 *   moves      optimize with rounds and layers.moves (the model's ls_*
 *              hooks as an improvement search, csearch/model.h): after the
 *              first solution, and after each round that improved the
 *              incumbent, a burst of local steps from a copy of it; and
 *              with stall_rounds, also once that many rounds in a row
 *              since the last burst found nothing better (a new draw from
 *              the same incumbent), so a stalled run keeps alternating
 *              rounds and bursts (0: only after improvement).  Each
 *              step picks a variable (ls_pick).  How a burst walks is the
 *              model's (cs_problem.bursts, from keys of its own; on a
 *              portfolio's odd threads bursts_alt, when set).  With
 *              anneal_steps it anneals: that many steps, each a random
 *              move of the variable made when it costs nothing or with chance
 *              exp(-delta / T), T falling geometrically from anneal_t0
 *              (times the heat: doubled after a burst that found nothing
 *              better, up to 8, back to 1 after one that did) to
 *              anneal_t1.  Under a time limit a burst that the limit
 *              would stop first (at its steps per second so far, looked
 *              at every 65536 steps) cools to anneal_t1 by the limit
 *              instead and ends there; with anneal_fill a burst runs on
 *              to the limit, anneal_steps aside, so the first burst takes
 *              all the time left.  With the model's ls_large hook a burst
 *              also makes a large move (a part re-solved whole, made when
 *              it costs no more) after every large_steps steps, or, with
 *              large_steps 0 and large_share, whenever the steps since
 *              the last one have taken the time that keeps the large
 *              moves at that share of the burst's (large_next).  Else
 *              a burst descends: the variable's best move (sample as
 *              above) when that lowers the cost or keeps
 *              it, or with probability walk a random allowed move, until
 *              local_steps steps without a new best.  Every new best cost
 *              goes out as a branch and bound's incumbent would, when the
 *              walk leaves it or at a poll, at most once per
 *              max(256, state bytes / 64) steps (a hand-out copies the
 *              state), and the burst's end state if it beats the
 *              incumbent.  A burst also ends at limits.steps (all bursts'
 *              steps together), a limit or a stop; result.steps counts
 *              its steps (local.c).  In a portfolio, with adopt_seconds,
 *              once adopt_after of the time limit has passed, an
 *              annealing burst whose lowest cost is above the portfolio's
 *              best takes that best as its walk's state, at most once in
 *              adopt_seconds (result.adoptions).
 *   portfolio  threads > 1 for solve or optimize: each thread runs the
 *              layers above with its own seed (thread t: seed + t, and
 *              rounds t * 2^32 + 1, + 2, ...).  Solve: the first solution
 *              ends every thread.  Optimize: the incumbent is shared, so
 *              every thread prunes by the best cost any has found, and
 *              each round frees part of the best solution any has found.
 *
 * Statistics: nodes, checks and fails are summed over every call (and
 * thread); result.restarts and result.rounds count what the layers did.
 */
#ifndef CSEARCH_LAYERS_H
#define CSEARCH_LAYERS_H

#include "engine_impl.h"

/* solve, count and enumerate: the plain search, or restarts when the
 * search wants a first solution and the layers ask for them; restarts
 * counted into *restarts. */
int layer_first_solution(struct cs_engine *e, void *state, uint64_t *restarts);

/* The search e->spec asks for, layers included, on a fresh state: the
 * status it ends with; out gets cost, bound, restarts, rounds, steps,
 * root_bound and first_seconds (the body's statistics are in
 * e->dfs.stats). */
int layer_run(struct cs_engine *e, void *state, struct cs_result *out);

/* Local search for a first solution (local.c); fills *out but for the
 * seconds; split (may be NULL) only for its progress callback.  Returns
 * 0. */
int layer_local(const struct cs_spec *spec, const struct cs_split *split,
                struct cs_result *out, struct cs_error *err);

/* The moves layer's own state across the bursts of one run of rounds
 * (local.c); zero before the first. */
struct layer_moves {
    void *walker;    /* the state a burst walks, or NULL */
    uint64_t bursts; /* so far: each draws its own seed */
    uint64_t steps;  /* so far, all bursts together */
    uint64_t large;  /* large moves tried (ls_large), all bursts together */
    /* a portfolio's best taken as the walk's state (cs_bursts.
     * adopt_seconds): how often, the version of the last, and when */
    uint64_t adoptions, adopted;
    double adopted_at;
    double heat;   /* annealing: the next start temperature's factor */
    int64_t bound; /* a burst ends at a cost this low: none is lower */
};

/* One burst of the moves layer from the incumbent best; false: stop the
 * search (a limit, a stop, or on_solution said so). */
bool layer_moves(struct cs_engine *e, const void *best, struct layer_moves *m);
void layer_moves_free(struct layer_moves *m);

/* Threads running differently seeded searches (portfolio.c). */
int layer_portfolio(const struct cs_spec *spec, int threads,
                    struct cs_result *out, struct cs_error *err);

#endif
