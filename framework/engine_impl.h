/* engine_impl.h - the engine's private context (internal to libcsearch).
 *
 * A struct cs_engine is one search in progress: the body's context (struct
 * cs_dfs, dfs.h), the spec it runs, the clock, the node cap of the body's
 * next call, the progress line and the searches beside it.  The layers
 * (layers.h), the work units (units.c) and the portfolio drive the body
 * only through the functions below; no model ever sees this struct.
 */
#ifndef CSEARCH_ENGINE_IMPL_H
#define CSEARCH_ENGINE_IMPL_H

#include "csearch/dfs.h"
#include "csearch/engine.h"

struct cs_engine;
struct cs_shared; /* a portfolio's shared incumbent (portfolio.c) */

/* How a search learns from others running beside it (a portfolio's
 * threads, portfolio.c), so that the engine never calls up into them.
 * poll: from cs_poll, take a better cost another thread found (to prune
 * by); done: another thread ended the run; best: rounds copy the newest
 * best state any thread found into best when it is newer than *version
 * (then updated). */
struct eng_share {
    void (*poll)(struct cs_engine *e);
    bool (*done)(const struct cs_engine *e);
    void (*best)(struct cs_engine *e, void *best, uint64_t *version);
};

/* A search among others (a portfolio's thread t; all zero alone): how it
 * learns from them, and its rounds' numbers, t * 2^32 + 1, + 2, ... (their
 * parity, which a model may use, still alternates). */
struct eng_peers {
    const struct eng_share *share;
    struct cs_shared *shared; /* what share's functions share */
    uint64_t round_offset;
};

/* The progress line of a search on one thread (the split's on_progress, or
 * fn NULL): when it was shown last, and under optimize the root's bound it
 * shows. */
struct eng_progress {
    cs_progress_fn fn;
    void *ud;
    double shown;
    int64_t bound;
};

/* Memory a thread lends to the engines it runs one after another (a
 * batch's instances, thousands a second): the stack, the saved states and
 * one state, grown as needed and reused instead of allocated and freed per
 * search.  An engine takes it only when no other engine of the thread
 * holds it (a layer's inner search allocates its own); the lender frees it
 * once it lends no more. */
struct eng_memory {
    struct cs_frame *frames;
    size_t frames_cap; /* frames */
    unsigned char *saved;
    size_t saved_cap; /* bytes */
    void *state;
    size_t state_cap; /* bytes */
    bool busy, state_busy;
};

/* Lend m to the engines this thread sets up from now on (NULL: none). */
void eng_lend(struct eng_memory *m);
/* Free what m holds (lent no more). */
void eng_memory_free(struct eng_memory *m);

/* What the body and the layers share; each layer keeps its own state in
 * its own struct (layers.c, local.c). */
struct cs_engine {
    const struct cs_spec *spec;
    const struct cs_problem *problem;
    struct cs_dfs dfs;
    struct cs_layers layers; /* the layers this search runs under */
    /* how its moves bursts walk: the problem's bursts or bursts_alt */
    const struct cs_bursts *bursts;
    volatile sig_atomic_t *stop; /* the spec's, or the pool's */
    double seconds;              /* time limit; 0 = none */
    double started;              /* monotonic seconds at start */
    uint64_t node_cap;           /* nodes of the body's current call */
    uint64_t node_limit;         /* of the whole search: limits.nodes or
                                    UINT64_MAX */
    struct eng_progress progress;
    struct eng_peers peers;
    struct eng_memory *memory; /* lent by the thread, or NULL */
};

/* Set e up to run spec (whose problem it searches): stack, saved states,
 * caps, clock.  stop: what the body polls (NULL: spec->stop). */
void eng_init(struct cs_engine *e, const struct cs_spec *spec,
              volatile sig_atomic_t *stop);
void eng_free(struct cs_engine *e);

/* A fresh state of the problem (init called) and its end. */
void *eng_state_new(const struct cs_engine *e);
void eng_state_free(const struct cs_engine *e, void *state);
/* Re-initialise state in place; its counters are harvested first. */
void eng_state_reset(struct cs_engine *e, void *state);
/* Add the state's engine-owned counters to the statistics, zero them. */
void eng_harvest(struct cs_engine *e, void *state);

/* One call of the body on state, from dfs.base, under cap nodes: the
 * model's own instance, or the generic one when the run needs it (a trace,
 * the split walk, shuffled orders). */
int eng_dfs(struct cs_engine *e, void *state, uint64_t cap);
/* Take back the moves frames[to, from) of the last call, deepest first. */
void eng_undo_to(struct cs_engine *e, void *state, int from, int to);
/* Nodes the whole search may still take. */
uint64_t eng_nodes_left(const struct cs_engine *e);
/* The progress line, if the run shows one (at most 4 times a second): for
 * the layers that run no tree between polls (a moves burst). */
void eng_progress(struct cs_engine *e, bool force);
/* A stop, the time limit or the node limit has come. */
bool eng_must_stop(const struct cs_engine *e);
/* Why the whole search must stop now: CS_INTERRUPTED, CS_LIMIT (the time
 * limit, or another thread of a portfolio is done), or -1. */
int eng_stop_reason(const struct cs_engine *e);

#endif
