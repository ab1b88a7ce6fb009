/* csearch/model.h - what a model gives the engine: a problem and its hooks.
 *
 * A model (N-Queens, Sudoku, shifts, or one of yours) owns the meaning of a
 * state; the engine owns the search.  The model turns a checked config into a
 * struct cs_problem: read-only problem data plus one `const struct cs_hooks`
 * table, the strategy it chose.  Variables are small integers 0..nvars-1 and
 * values are ints.  Invariants the engine relies on:
 *   - apply and undo never allocate; undo(var, value) is the exact inverse of
 *     apply(var, value) (or the table has no undo and a copy hook instead);
 *   - a state is plain memory of state_size bytes that init fills in;
 *   - hooks never print and never keep pointers into the engine.
 * Keep a hook table `static const`: a model that instantiates the engine body
 * (csearch/dfs.h) with its own constant table gets every hook inlined.
 */
#ifndef CSEARCH_MODEL_H
#define CSEARCH_MODEL_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "csearch/config.h"
#include "csearch/error.h"

/* what the headers declare is libcsearch's interface; the rest is hidden */
#pragma GCC visibility push(default)

/* Bumped whenever a public struct a model fills in or reads (cs_hooks,
 * cs_model, cs_problem, cs_layers, cs_bursts, cs_setup) changes shape.  The
 * registry refuses a model or a plugin built against any other version: there
 * is no compatibility across versions, so a new field needs no "zero in old
 * models" rule. */
#define CS_ABI_VERSION 18

/* select() and the engine's MRV return this when every variable is set. */
#define CS_NONE (-1)

enum cs_task {
    CS_TASK_COUNT,
    CS_TASK_SOLVE,
    CS_TASK_ENUMERATE,
    CS_TASK_OPTIMIZE,
    /* the framework's, for any model that counts: a model's
     * setup sees CS_TASK_COUNT, and its tasks bits never name
     * it (csearch/engine.h, cs_estimate) */
    CS_TASK_ESTIMATE,
    /* a model's batch of instances it makes or judges itself
     * (cs_problem.note): each is checked by a count stopped at
     * two, and its note is its result */
    CS_TASK_GENERATE,
    CS_TASK_RATE
};
#define CS_TASK_LAST CS_TASK_RATE
#define CS_TASK_BIT(t) (1u << (t))
/* What every tree search can do: count, solve and enumerate. */
#define CS_TASKS_TREE                                                          \
    (CS_TASK_BIT(CS_TASK_COUNT) | CS_TASK_BIT(CS_TASK_SOLVE) |                 \
     CS_TASK_BIT(CS_TASK_ENUMERATE))

/* How the next variable is chosen, one row a selection: its constant, its
 * name (strategy.select) and whether it needs the model's domain_size.
 * cs_choose (dfs.h) has a case for each; the search, estimate's probes and
 * everything else that picks a variable call it.  CSEARCH_TEST_RULE: the
 * test build of tests/test_select_rule.c adds a row (and its case) to
 * check that. */
#ifdef CSEARCH_TEST_RULE
#define CS_SELECTIONS_TEST(X) X(CS_SELECT_TEST_LARGEST, "test-largest", true)
#else
#define CS_SELECTIONS_TEST(X)
#endif
#define CS_SELECTIONS(X)                                                       \
    X(CS_SELECT_IN_ORDER, "in-order", false)                                   \
    X(CS_SELECT_MRV, "mrv", true)                                              \
    CS_SELECTIONS_TEST(X)

#define CS_SELECT_CONSTANT(constant, name, sizes) constant,
enum cs_select { CS_SELECTIONS(CS_SELECT_CONSTANT) CS_SELECT_COUNT };
#undef CS_SELECT_CONSTANT

struct cs_limits {
    uint64_t solutions; /* 0 = none */
    uint64_t nodes;     /* 0 = none */
    double seconds;     /* 0 = none */
    uint64_t steps;     /* local search: steps in all; 0 = none */
};

/* strategy.local: which search a solve runs (framework/layers.h;
 * docs/architecture.md, 9). */
enum cs_local {
    CS_LOCAL_AUTO,         /* the model's choice (cs_layers.local) */
    CS_LOCAL_NONE,         /* the tree search, always */
    CS_LOCAL_MIN_CONFLICTS /* the min-conflicts layer: the model must
                              supply the ls_* hooks */
};

/* Restart budgets (framework/layers.h; docs/architecture.md, 9). */
enum cs_restarts {
    CS_RESTARTS_NONE,      /* one search to the end */
    CS_RESTARTS_CONSTANT,  /* every budget restart_nodes */
    CS_RESTARTS_GEOMETRIC, /* restart_nodes, then doubled each time */
    CS_RESTARTS_LUBY       /* restart_nodes times 1 1 2 1 1 2 4 ... */
};

/* The layers wrapped around the tree search.  Zero: none, a plain search.
 * A model proposes them in cs_problem.layers; config keys override. */
struct cs_layers {
    enum cs_restarts restarts; /* for a first solution (solve, and the
                                  first round of neighbourhood rounds) */
    uint64_t restart_nodes;    /* the first budget; 0 = restarts off */
    bool shuffle;              /* randomise value orders by the seed (needs
                                  cs_problem.max_values) */
    uint64_t lns_nodes;        /* optimize: nodes per neighbourhood round
                                  (plus one descent); 0 = no rounds */
    /* Local search instead of the tree (task solve, the ls_* hooks):
     * min-conflicts steps, restarting from a new start after local_steps
     * steps (0: never), a random move instead of the best with
     * probability walk, and at most sample moves weighed per step (a
     * variable with more gets sample drawn at random; 0: all). */
    bool local;
    uint64_t local_steps;
    double walk;
    uint64_t sample;
    /* Optimize with neighbourhood rounds and the ls_* hooks: bursts of
     * local improvement moves from the incumbent between rounds (the
     * moves layer, framework/layers.h), each ending after local_steps steps
     * without a new best; walk and sample as above. */
    bool moves;
    /* With moves: a burst also after this many rounds in a row since the
     * last burst that found nothing better (0: bursts only after a round
     * that improved, and after the first solution). */
    uint64_t stall_rounds;
};

/* How the moves layer's bursts walk (cs_problem.bursts).  A model that
 * offers them reads them from keys of its own (the shifts model's
 * strategy.anneal_* and large_*); zero: each burst is a descent.
 * Simulated annealing when anneal_steps > 0: anneal_steps steps a burst,
 * every step a move drawn at random, made when it costs nothing or with
 * chance exp(-delta / T), T falling geometrically from anneal_t0 to
 * anneal_t1 (cost units, 0 < anneal_t1 <= anneal_t0) over the burst.  A
 * burst the time limit would cut short cools to anneal_t1 by the limit
 * instead; with anneal_fill (which needs a time limit) a burst goes on to
 * the limit, anneal_steps aside, so the first burst takes all the time
 * left.  With the model's ls_large hook: a large move after every
 * large_steps steps of a burst; or, with large_steps 0, as often as keeps
 * the large moves' time at large_share of a burst's (0: none).  In a
 * portfolio under a time limit, with adopt_seconds > 0: once adopt_after
 * (0-1) of the search's limit has passed (limits.seconds less the model's
 * set-up, from the search's start), an annealing burst whose lowest cost is
 * above the best any thread has found takes that best as its walk's state
 * and walks on from it at its temperature, at most once in adopt_seconds
 * (looked at every 65536 steps; adopt_seconds 0: never). */
struct cs_bursts {
    uint64_t anneal_steps;
    double anneal_t0, anneal_t1;
    bool anneal_fill;
    uint64_t large_steps;
    double large_share;
    double adopt_seconds, adopt_after;
};

/* What the run asks of a model's setup, besides its own keys: a model may
 * choose its strategy by them (a counting kernel for count, a state that
 * shows well in a trace), but never reads the framework's keys itself. */
struct cs_setup {
    enum cs_task task;
    enum cs_select select;
    struct cs_limits limits;
    bool tracing;        /* the run is traced (csearch/trace.h) */
    enum cs_local local; /* strategy.local: a model with local search picks
                            it under auto where the tree would stall, and
                            says so in cs_problem.layers.local */
    bool profiling;      /* the run counts a per-level profile
                            (cs_spec.profile): a tree search that enters
                            its nodes one by one, or a counting kernel
                            with profile_unit (cs_problem) */
    int threads;         /* strategy.threads: the set-up's own work may
                            use as many (the search runs after it) */
};

/* A solution as text: lines the CLI prints one per line (text) or as a list
 * of strings (JSON).  The caller sets csv when it wants comma-separated
 * rows (output.format csv); a model with a table of its own honours it and
 * sets table: its lines are then CSV rows, a header first, printed as they
 * are (otherwise each line becomes a column of the solution's one row). */
struct cs_board {
    char **lines;
    size_t count, cap;
    bool csv;
    bool table; /* set by the model: the lines are a CSV table of its own */
    /* Likewise html (output.format html): a model with a page of its own
     * honours it and sets page: its lines are then one self-contained HTML
     * document, written as they are (otherwise the CLI puts the lines in a
     * page of its own). */
    bool html;
    bool page;
    /* The run's outcome when the board is the final one (the best of an
     * optimize, a roster checked): "optimal: cost 607, bound 607, gap
     * 0.00%, 1.2 s"; NULL otherwise.  Set by the framework, for a page. */
    const char *result;
};
void cs_board_add(struct cs_board *board, const char *line); /* copies */
void cs_board_clear(struct cs_board *board);
void cs_board_free(struct cs_board *board);

/* A state as a trace shows it (csearch/trace.h): the board, if the model
 * has one, and named parts of the state (masks, arrays, counters) as text. */
struct cs_view {
    struct cs_board board;  /* a line per board row; may stay empty */
    struct cs_board names;  /* "cols", "avail" ... */
    struct cs_board values; /* values[i] belongs to names[i] */
};
void cs_view_add(struct cs_view *view, const char *name, const char *value);
void cs_view_clear(struct cs_view *view);
void cs_view_free(struct cs_view *view);

struct cs_dfs; /* csearch/dfs.h: the engine's, opaque to models */

/* Counters a model keeps in its state, owned by the engine: a table with
 * `counters` set starts its state with this struct; the engine never copies
 * it with the rest of a state (so no count is lost or counted twice when a
 * search copies states instead of undoing) and sums it into the statistics
 * itself.  A model only adds to it. */
struct cs_counters {
    uint64_t checks; /* candidate tests the model made */
    uint64_t unique; /* classes under the model's symmetry, if it says */
};

/* A neighbourhood round of the LNS layer (framework/layers.h;
 * docs/architecture.md, 9). */
struct cs_round {
    uint64_t index; /* 1, 2, ...: which neighbourhood (a portfolio's
                       threads take different ones) */
    uint64_t seed;  /* for a model that draws its neighbourhood */
    double size;    /* share of the variables the layer would free,
                       0 < size <= 1: grows after a round that searched
                       its neighbourhood through without improving, and
                       shrinks after one its budget cut short */
};

/* What a search (or one work unit of it) found.  Counts are 64-bit and
 * deterministic: the same settings give the same numbers every run. */
struct cs_stats {
    uint64_t nodes;     /* nodes entered, the root included */
    uint64_t checks;    /* candidate tests the model made */
    uint64_t fails;     /* nodes that ended with no solution and no child */
    uint64_t solutions; /* weighted: a mirrored branch counts twice */
    uint64_t unique;    /* classes under the model's symmetry, if it says */
    int max_depth;      /* deepest level entered (root = 0) */
    double seconds;     /* wall-clock time of the search */
};

/* into += s (seconds aside; max_depth the larger): the counts of two
 * searches as one.  True if solutions or unique overflowed 64 bits. */
bool cs_stats_add(struct cs_stats *into, const struct cs_stats *s);

/* Local search (the min-conflicts layer and the moves layer,
 * framework/layers.h): a sub-table of struct cs_hooks (its `local`), so
 * that a new local-search hook changes neither the core table nor the tree
 * search.  A complete assignment that the layer repairs step by step.  All
 * six of ls_start .. ls_apply, or no table.  The layer owns the loop and
 * all its randomness: a model draws only from the numbers it is handed, so
 * one seed gives one run.  The core table's init, fini and state_size serve
 * these states as they serve the tree's; its select, next and apply may
 * stay NULL in a table that is only searched locally.
 * Under task optimize (cs_layers.moves) the same six serve an improvement
 * search: the layer copies the incumbent (a goal state of the tree) into a
 * state and calls ls_start, which keeps that assignment and readies its
 * own bookkeeping; ls_conflicts is then the cost, ls_pick a variable whose
 * moves may pay (CS_NONE: none can), and a move that would break a hard
 * rule has delta INT64_MAX.  The state after any allowed move must still be
 * a goal state whose cost hook gives ls_conflicts, since the layer hands it
 * out as the incumbent. */
struct cs_local_hooks {
    /* Put a complete start assignment into an initialised state (again on
     * each restart, replacing the last); seed is for the model's draws.
     * A start that takes long (a billion queens) polls *stop now and then
     * and returns false, the state unfinished, once it is set; else true. */
    bool (*ls_start)(void *state, uint64_t seed, volatile sig_atomic_t *stop);
    /* The conflicts of the state: 0 exactly when it is a solution. */
    uint64_t (*ls_conflicts)(const void *state);
    /* A variable in conflict, chosen with random (uniform over 64 bits);
     * CS_NONE when there is none. */
    int (*ls_pick)(void *state, uint64_t random);
    /* How many moves var has now (moves are 0 .. count-1: a new value, or
     * a swap with another variable, as the model defines them). */
    uint64_t (*ls_moves)(const void *state, int var);
    /* The change in ls_conflicts that move would make, state unchanged
     * on return (it may change it in between).  INT64_MAX: the move is not
     * allowed now. */
    int64_t (*ls_delta)(void *state, int var, uint64_t move);
    /* Make the move. */
    void (*ls_apply)(void *state, int var, uint64_t move);
    /* Optional, for the moves layer: a large move -- a part of the state
     * drawn with random (uniform over 64 bits) re-solved whole, the rest
     * as it is -- made only when it costs no more: the change in
     * ls_conflicts (<= 0), or INT64_MAX when none was made.  The layer
     * calls it every cs_bursts.large_steps steps of a burst, or at
     * cs_bursts.large_share of its time. */
    int64_t (*ls_large)(void *state, uint64_t random);
};

/* Traces and pictures (csearch/trace.h); all three optional. */
struct cs_name_hooks {
    /* Fill *out (cleared by the caller) with what a trace shows of a state.
     * NULL: the trace shows the moves only. */
    void (*describe)(const void *state, struct cs_view *out);
    /* Write the name of variable var ("row 2") or of its value ("col 3")
     * into buf of size bytes.  NULL: "x2", and the value as a number. */
    void (*var_name)(const void *state, int var, char *buf, size_t size);
    void (*value_name)(const void *state, int var, int value, char *buf,
                       size_t size);
};

struct cs_hooks {
    /* ---- the state ---- */
    size_t state_size; /* bytes; 0: the problem says (cs_problem) */
    /* Fill a zeroed state for problem data `problem`.  Required. */
    void (*init)(void *state, const void *problem);
    /* Release what init acquired.  NULL: nothing to release. */
    void (*fini)(void *state);
    /* Copy the search state of src to dst.  Used instead of undo when undo
     * is NULL (a model may find copying cheaper than undoing).  It must leave
     * dst's counters alone.  NULL: memcpy of all but the counters. */
    void (*copy)(void *dst, const void *src);
    /* The state begins with a struct cs_counters (see above).  false: the
     * model counts no checks of its own (the engine reports 0). */
    bool counters;

    /* ---- choose ---- */
    /* The next open variable in the model's own order, CS_NONE when all are
     * set.  Required (it is the `in-order` selection). */
    int (*select)(const void *state);
    /* The number of values var still has, or -1 if var is already set.
     * NULL: the model cannot be searched with `mrv`. */
    int (*domain_size)(void *state, int var);

    /* ---- values, apply, undo ---- */
    /* Start enumerating var's values: *cursor is the model's to use.
     * NULL: *cursor starts at 0. */
    void (*first)(void *state, int var, uint64_t *cursor);
    /* The next value of var, or false when there are no more.  The values
     * depend on the state alone (a restart layer may draw them all at once
     * and try them in a shuffled order). */
    bool (*next)(void *state, int var, uint64_t *cursor, int *value);
    void (*apply)(void *state, int var, int value);
    /* NULL: the engine keeps a copy of the state per level instead. */
    void (*undo)(void *state, int var, int value);

    /* ---- cut ---- */
    /* After a move: true if the state is a dead end.  NULL: never. */
    bool (*prune)(void *state);
    /* With no open variable left: is it a solution?  NULL: yes.  It may
     * add to the model's counters. */
    bool (*goal)(void *state);
    /* How many solutions the branch var=value stands for (2 when it also
     * stands for its mirror image).  Called before apply.  NULL: 1. */
    uint64_t (*weight)(const void *state, int var, int value);

    /* ---- output ---- */
    /* Write solution k (0 <= k < its weight) of a goal state.  NULL: the
     * model has nothing to show, and the engine does not call on_solution
     * for it (the state never leaves the search: see dfs.h). */
    void (*emit)(const void *state, uint64_t k, struct cs_board *out);

    /* ---- optimising (branch and bound) ---- */
    /* Cost of a complete state and a lower bound for any completion of a
     * partial one.  NULL: the model cannot optimise. */
    int64_t (*cost)(const void *state);
    int64_t (*bound)(const void *state);
    /* Neighbourhood rounds (the LNS layer, framework/layers.h): in a freshly
     * initialised state, fix most variables to their values in `best` (the
     * incumbent, a byte copy of a goal state) and leave a neighbourhood
     * open; round says which and how large.  The layer then searches it by
     * branch and bound for a better cost under its budget, round after
     * round until a limit.  NULL: the model has no neighbourhoods. */
    void (*relax)(void *state, const void *best, const struct cs_round *round);
    /* True: once a round's share has grown to 1, the layer searches the
     * whole tree under the incumbent instead of calling relax, and such a
     * round searched through proves the optimum (a model whose share is
     * the share of variables freed; one that reads the share otherwise
     * leaves this false). */
    bool rounds_whole;

    /* ---- restarts (framework/layers.h; docs/architecture.md, 9) ---- */
    /* The restart layer's budget ran out in a state at depth: return the
     * depth to resume from (0: the root; the layer never goes above the
     * moves it kept already), and set *grow to false when the next budget
     * should start again from the first (true on entry).  The model may
     * change its own strategy in the state (a value order), which undo
     * must then leave alone; it should ask for the first budget again only
     * when it did, or the same search repeats (framework/layers.h).  NULL:
     * every restart is from the root. */
    int (*restart)(void *state, int depth, bool *grow);

    /* ---- speed ---- */
    /* The engine body instantiated with this very table (CS_HOOKS in
     * dfs.h), so the hooks inline; it passes dfs on to cs_dfs() untouched.
     * NULL: the engine's generic, out-of-line instance.  A traced run, the
     * split walk and shuffled value orders take the generic instance: this
     * one has them compiled out. */
    int (*search)(struct cs_dfs *dfs, void *state);

    /* ---- the sub-tables; each optional ---- */
    const struct cs_local_hooks *local; /* local search; NULL: none */
    const struct cs_name_hooks *names;  /* traces and pictures; NULL: none */

    /* ---- checking and showing a complete assignment; both optional ---- */
    /* An independent check that a state the search calls a solution is one:
     * its own code, not the counters the search keeps.  The local-search
     * layer calls it before it hands a solution out; false there is an
     * internal error (status CS_UNVERIFIED).  NULL: no check. */
    bool (*verify)(const void *state);
    /* The value of var in a complete state, for output that writes one
     * value per variable (output.format columns).  NULL: not offered. */
    int (*value)(const void *state, int var);
};

/* Do annealing bursts have temperatures that are above 0 and fall (or
 * anneal not at all)? */
static inline bool cs_bursts_cooling(const struct cs_bursts *b)
{
    return !b->anneal_steps || (b->anneal_t0 > 0 && b->anneal_t1 > 0 &&
                                b->anneal_t1 <= b->anneal_t0);
}

/* Does the table carry the local-search hooks? */
static inline bool cs_hooks_local(const struct cs_hooks *h)
{
    const struct cs_local_hooks *l = h->local;
    return l && l->ls_start && l->ls_conflicts && l->ls_pick && l->ls_moves &&
           l->ls_delta && l->ls_apply;
}

struct cs_level; /* one depth of a profile (csearch/engine.h) */

/* A model's answer to a config: which hooks, and the data they share. */
struct cs_problem {
    const struct cs_hooks *hooks;
    void *data; /* passed to hooks->init; the model's */
    void (*free_data)(void *data);
    int nvars;           /* number of variables = max depth */
    size_t state_size;   /* bytes of state when hooks->state_size
                            is 0 (states sized by the problem) */
    bool reports_unique; /* stats.unique means something */
    const char *kernel;  /* name of the counting path, for output */
    /* The layers the model proposes for this problem (csearch/engine.h);
     * the framework's strategy keys override them.  Zero: none. */
    struct cs_layers layers;
    /* How the moves layer's bursts walk, where the model's keys say. */
    struct cs_bursts bursts;
    /* And how they walk on a portfolio's odd threads (thread 1, 3, ...)
     * when bursts_alt_set: another neighbourhood mix or acceptance, so that
     * a second thread searches differently, not only from another seed.
     * Unset: every thread walks by bursts. */
    bool bursts_alt_set;
    struct cs_bursts bursts_alt;
    /* The most values a variable can have; > 0 lets a layer shuffle value
     * orders (0: unknown, no shuffling). */
    int max_values;

    /* A specialised counting kernel (optional): the count split into
     * `units` independent pieces, each counted from scratch.  When set, a
     * count task runs these units (threads, checkpoints, progress) instead
     * of the DFS.  count_unit returns false if *stop made it give up. */
    uint64_t units;
    bool (*count_unit)(const void *data, uint64_t unit,
                       volatile sig_atomic_t *stop, struct cs_stats *out);

    /* A batch (optional, csearch/batch.h): the config names `instances`
     * separate problems (a file of puzzles), each set up on its own by
     * setup_instance (-1 with err positioned in the instance's file when it
     * is invalid).  The batch problem's own hooks serve the checks of the
     * job (MRV needs domain sizes) and are never searched. */
    uint64_t instances;
    int (*setup_instance)(const void *data, uint64_t index,
                          struct cs_problem *out, struct cs_error *err);

    /* The state the run keeps, for output, when it is not the one
     * strategy.state names (a formulation with a state of its own ignores
     * that key).  NULL: strategy.state as configured. */
    const char *state;
    /* Strategy keys the model resolved itself ("auto", and defaults it
     * chose by the instance's size), for --json: the key ("strategy.bound")
     * and the value chosen, as the config would spell it; the first entry
     * with a NULL key ends the list (cs_problem_chose adds one); empty:
     * nothing chosen. */
    struct cs_choice {
        const char *key;
        char value[32];
    } chosen[16];
    /* Every variable is given (a solution to check, say a roster file),
     * and the hooks' state comes out of init with each of them fixed to
     * one value.  The engine then runs one plain search, without layers or
     * threads, whatever the task: status CS_CHECKED when the assignment is
     * a solution (with its cost, under optimize), never CS_OPTIMAL. */
    bool given;
    /* With count_unit (optional): an estimate of unit's work, in any unit
     * proportional to its counting time (nodes, say), cheap next to
     * counting it and a pure function of data and unit.  The progress line
     * measures work done by it.  NULL: all units count alike. */
    double (*unit_size)(const void *data, uint64_t unit);

    /* An instance's result as the model words it, under tasks generate
     * and rate (the puzzle made, its rating); in a single run, what the
     * model says of the result, printed before it (the shifts model: why
     * there is no roster, printed as `why`); owned by data.  NULL: none. */
    const char *note;
    /* The instruction set the counting path runs on ("avx512", "avx2",
     * "scalar"), for output; NULL: not said. */
    const char *isa;
    /* What unit_size measures, for output ("nodes" of a search tree, or a
     * kernel's own measure, proportional to its time); NULL: nodes. */
    const char *unit_measure;
    /* Why that instruction set (or kernel variant) ran, for output:
     * "measured" (timed on this machine at setup), "only" (the one this
     * processor runs), "CSEARCH_ISA" (capped by the environment); NULL:
     * not said. */
    const char *isa_reason;
    /* With count_unit, for a profiled run (cs_setup.profiling, optional):
     * count unit as count_unit does and, only when it returns true, add the
     * unit's nodes, fails and solutions per depth to levels (nvars + 1 of
     * them; they sum to what it puts in *out).  The levels are those of the
     * kernel's own tree, which profile_rows names; the units' rows add up,
     * whichever thread counted them.  A model sets it at setup when told
     * the run is profiled, and may run a slower, level-counting variant
     * then, so that count_unit pays nothing for it.  NULL: the kernel has
     * no levels, and a profile is refused with it. */
    bool (*profile_unit)(const void *data, uint64_t unit,
                         volatile sig_atomic_t *stop, struct cs_stats *out,
                         struct cs_level *levels);
    /* What a depth of the profile is in profile_unit's tree, for output
     * ("queens on the board, ..."); NULL: the search tree's depth. */
    const char *profile_rows;
};

/* Calibration: the fastest of `count` variants of a kernel on this machine
 * (at most CS_FASTEST_MAX; framework/calibrate.c says how).  piece(ctx, v,
 * size) does `size` steps (1..max_size) of a piece of the real work with
 * variant v, the same steps for every v; the piece grows until variant 0
 * takes half a millisecond (the lesser of two timings).  Returns the variant
 * with the least CPU time (-1 when count <= 0); seconds[v] (when not NULL):
 * its time, -1 where it did not run.  A model that calls it at setup says
 * "measured" in cs_problem.isa_reason. */
#define CS_FASTEST_MAX 8
int cs_fastest(int count, void (*piece)(void *ctx, int variant, int size),
               void *ctx, int max_size, double *seconds);

/* Record that the model chose `value` (printf format) for strategy key
 * `key` (a string that outlives the problem); past the 16th, ignored. */
void cs_problem_chose(struct cs_problem *p, const char *key, const char *fmt,
                      ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The same for a real number, in the shortest text that reads back as v. */
void cs_problem_chose_real(struct cs_problem *p, const char *key, double v);

/* The bytes a state of this problem takes. */
static inline size_t cs_problem_state_size(const struct cs_problem *p)
{
    return p->hooks->state_size ? p->hooks->state_size : p->state_size;
}

/* Saved copies of states lie this far apart, so each is aligned for any
 * type a state may hold. */
#define CS_STATE_ALIGN 16
static inline size_t cs_state_stride(size_t state_size)
{
    return (state_size + CS_STATE_ALIGN - 1) & ~(size_t)(CS_STATE_ALIGN - 1);
}

struct cs_model {
    int abi_version;     /* CS_ABI_VERSION */
    const char *name;    /* "nqueens": the config's model: value */
    const char *summary; /* one line for --list */
    /* The keys this model adds (params.*, strategy.*), NULL-key-terminated. */
    const struct cs_option *options;
    unsigned tasks; /* CS_TASK_BIT() of what it can do */
    /* Build a problem from a checked config.  On a bad combination return
     * -1 with err at the offending key (cs_config_pos). */
    int (*setup)(const struct cs_config *cfg, const struct cs_setup *how,
                 struct cs_problem *out, struct cs_error *err);
    /* The task of a config that names none (0: CS_TASK_COUNT); one of
     * tasks.  The shifts model's is optimize: counting rosters is for
     * tiny wards only. */
    enum cs_task default_task;
};

void cs_problem_free(struct cs_problem *problem);

#pragma GCC visibility pop

#endif
