/* engine.c - the engine's primitives (engine_impl.h): a run's context, its
 * states, calls of the body (dfs.h) -- the model's own instance or the
 * generic one below -- and polling.  Everything that is not per node (the
 * clock, limits, the interrupt flag, a portfolio's news through e->peers)
 * lives in cs_poll, called every CS_POLL_NODES nodes, so the hot loop stays
 * small.  The layers (layers.c) and the entry point (search.c) are above;
 * nothing here calls up into them.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "csearch/random.h"
#include "engine_impl.h"

double cs_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t next_poll_after(const struct cs_engine *e, uint64_t nodes)
{
    uint64_t next = nodes + CS_POLL_NODES;
    return next < e->node_cap ? next : e->node_cap;
}

/* Why the whole search must stop now: CS_INTERRUPTED, CS_LIMIT (the time
 * limit, or another thread of a portfolio is done), or -1. */
int eng_stop_reason(const struct cs_engine *e)
{
    if (e->stop && *e->stop)
        return CS_INTERRUPTED;
    if (e->seconds > 0 && cs_now() - e->started >= e->seconds)
        return CS_LIMIT;
    if (e->peers.share && e->peers.share->done(e))
        return CS_LIMIT;
    return -1;
}

/* The progress line of a search that is not split, at most 4 times a
 * second (and once at the end: force): nodes so far (those of the body's
 * call under way too), and under optimize the best cost and the
 * root's bound. */
static void progress(struct cs_engine *e, const struct cs_dfs *d,
                     uint64_t nodes, bool force)
{
    double now = cs_now();
    if (now - e->progress.shown < 0.25 && !force)
        return;
    e->progress.shown = now;
    struct cs_progress p = {.elapsed = now - e->started,
                            .nodes = d->stats.nodes + nodes,
                            .optimizing = e->spec->task == CS_TASK_OPTIMIZE,
                            .has_cost = d->incumbent != INT64_MAX,
                            .cost = d->incumbent,
                            .bound = e->progress.bound};
    e->progress.fn(e->progress.ud, &p);
}

void eng_progress(struct cs_engine *e, bool force)
{
    if (e->progress.fn)
        progress(e, &e->dfs, 0, force);
}

int cs_poll(struct cs_dfs *d, uint64_t nodes)
{
    struct cs_engine *e = d->engine;
    if (e->progress.fn)
        progress(e, d, nodes, false);
    if (nodes >= e->node_cap)
        return CS_LIMIT;
    if (e->peers.share)
        e->peers.share->poll(e); /* prune by the portfolio's best cost */
    int stop = eng_stop_reason(e);
    if (stop >= 0)
        return stop;
    d->next_poll = next_poll_after(e, nodes);
    return -1;
}

uint64_t cs_dfs_random(struct cs_dfs *d, uint64_t n)
{
    return cs_random_below(&d->rng, n);
}

/* ---- the engine's context ------------------------------------------------ */

/* the memory this thread lends its engines (eng_lend), or NULL */
static _Thread_local struct eng_memory *lent;

void eng_lend(struct eng_memory *m)
{
    lent = m;
}

void eng_memory_free(struct eng_memory *m)
{
    free(m->frames);
    free(m->saved);
    free(m->state);
    memset(m, 0, sizeof *m);
}

/* Room for n bytes at *buf (its capacity *cap): the old contents are not
 * kept. */
static void *room(void *buf, size_t *cap, size_t n)
{
    if (n <= *cap)
        return buf;
    free(buf);
    *cap = n;
    return cs_xmalloc(n);
}

/* The stack (zeroed) and the saved states of e's search, from the lent
 * memory when the thread has it free. */
static void eng_alloc(struct cs_engine *e, size_t nframes, size_t saved)
{
    struct cs_dfs *d = &e->dfs;
    struct eng_memory *m = lent;
    if (!m || m->busy) {
        d->frames = cs_xcalloc(nframes, sizeof *d->frames);
        d->saved = saved ? cs_xmalloc(saved) : NULL;
        return;
    }
    m->busy = true;
    e->memory = m;
    size_t bytes = m->frames_cap * sizeof *m->frames;
    m->frames = room(m->frames, &bytes, nframes * sizeof *d->frames);
    m->frames_cap = bytes / sizeof *m->frames;
    memset(m->frames, 0, nframes * sizeof *d->frames);
    d->frames = m->frames;
    if (saved)
        m->saved = room(m->saved, &m->saved_cap, saved);
    d->saved = saved ? m->saved : NULL;
}

void eng_init(struct cs_engine *e, const struct cs_spec *spec,
              volatile sig_atomic_t *stop)
{
    const struct cs_problem *p = spec->problem;
    memset(e, 0, sizeof *e);
    e->spec = spec;
    e->problem = p;
    e->layers = spec->layers;
    e->bursts = &p->bursts;
    e->stop = stop ? stop : spec->stop;
    e->seconds = spec->limits.seconds;
    e->node_limit = spec->limits.nodes ? spec->limits.nodes : UINT64_MAX;
    e->node_cap = e->node_limit;
    struct cs_dfs *d = &e->dfs;
    d->problem = p;
    d->task = spec->task;
    d->select = spec->select;
    eng_alloc(e, (size_t)p->nvars + 1,
              p->hooks->undo ? 0
                             : ((size_t)p->nvars + 1) *
                                   cs_state_stride(cs_problem_state_size(p)));
    d->base_weight = 1;
    d->solution_cap =
        spec->limits.solutions ? spec->limits.solutions : UINT64_MAX;
    d->incumbent = INT64_MAX;
    d->on_solution = spec->on_solution;
    d->ud = spec->ud;
    d->on_trace = spec->on_trace;
    d->trace_ud = spec->trace_ud;
    d->profile = spec->profile;
    d->rng = spec->seed;
    d->engine = e;
    d->shuffle = e->layers.shuffle && p->max_values > 0 && !spec->on_trace;
    if (d->shuffle) {
        d->max_values = p->max_values;
        d->values = cs_xcalloc(((size_t)p->nvars + 1) * (size_t)p->max_values,
                               sizeof *d->values);
    }
    e->started = cs_now();
}

void eng_free(struct cs_engine *e)
{
    if (e->memory) {
        e->memory->busy = false;
        e->memory = NULL;
    } else {
        free(e->dfs.frames);
        free(e->dfs.saved);
    }
    free(e->dfs.values);
    memset(&e->dfs, 0, sizeof e->dfs);
}

void *eng_state_new(const struct cs_engine *e)
{
    const struct cs_problem *p = e->problem;
    struct eng_memory *m = e->memory;
    void *state;
    if (m && !m->state_busy) {
        const size_t size = cs_problem_state_size(p);
        m->state_busy = true;
        m->state = room(m->state, &m->state_cap, size);
        state = memset(m->state, 0, size);
    } else {
        state = cs_xcalloc(1, cs_problem_state_size(p));
    }
    p->hooks->init(state, p->data);
    return state;
}

void eng_harvest(struct cs_engine *e, void *state)
{
    if (!e->problem->hooks->counters)
        return;
    struct cs_counters *c = state;
    e->dfs.stats.checks += c->checks;
    e->dfs.stats.unique += c->unique;
    memset(c, 0, sizeof *c);
}

void eng_state_free(const struct cs_engine *e, void *state)
{
    if (state && e->problem->hooks->fini)
        e->problem->hooks->fini(state);
    struct eng_memory *m = e->memory ? e->memory : lent;
    if (m && state && state == m->state)
        m->state_busy = false;
    else
        free(state);
}

void eng_state_reset(struct cs_engine *e, void *state)
{
    const struct cs_problem *p = e->problem;
    eng_harvest(e, state);
    if (p->hooks->fini)
        p->hooks->fini(state);
    memset(state, 0, cs_problem_state_size(p));
    p->hooks->init(state, p->data);
}

/* The body with a table known only at run time.  A table that has its own
 * instance gets a copy with the search slot cleared: the body keeps traces,
 * the split walk and shuffled orders to such a table (dfs.h). */
static int generic_search(struct cs_dfs *d, void *state)
{
    const struct cs_hooks *h = d->problem->hooks;
    if (!h->search)
        return cs_dfs(d, state, h);
    struct cs_hooks plain = *h;
    plain.search = NULL;
    return cs_dfs(d, state, &plain);
}

int eng_dfs(struct cs_engine *e, void *state, uint64_t cap)
{
    struct cs_dfs *d = &e->dfs;
    const struct cs_hooks *h = e->problem->hooks;
    e->node_cap = cap;
    d->next_poll = next_poll_after(e, 0);
    bool generic =
        !h->search || d->on_trace || d->profile || d->split_at || d->shuffle;
    if (generic)
        return generic_search(d, state);
    if (d->replay) {
        /* a unit: the generic instance replays its prefix, the table's own
         * searches below it */
        d->replay_only = true;
        generic_search(d, state);
        d->replay_only = false;
        d->replay = NULL;
    }
    return h->search(d, state);
}

void eng_undo_to(struct cs_engine *e, void *state, int from, int to)
{
    const struct cs_problem *p = e->problem;
    const struct cs_hooks *h = p->hooks;
    const struct cs_frame *frames = e->dfs.frames;
    if (from <= to)
        return;
    if (h->undo) {
        for (int k = from - 1; k >= to; k--)
            h->undo(state, frames[k].var, frames[k].value);
        return;
    }
    size_t size = cs_problem_state_size(p);
    cs_dfs_save(h, e->dfs.saved + (size_t)to * cs_state_stride(size), state,
                size, true);
}

uint64_t eng_nodes_left(const struct cs_engine *e)
{
    uint64_t used = e->dfs.stats.nodes;
    return e->node_limit > used ? e->node_limit - used : 0;
}

bool eng_must_stop(const struct cs_engine *e)
{
    return eng_stop_reason(e) >= 0 || eng_nodes_left(e) == 0;
}

void cs_problem_free(struct cs_problem *problem)
{
    if (problem && problem->free_data)
        problem->free_data(problem->data);
    if (problem)
        problem->data = NULL;
}

const char *cs_status_name(enum cs_status status)
{
    static const char *const names[] = {"complete",   "limit",   "interrupted",
                                        "infeasible", "optimal", "unverified",
                                        "checked"};
    return (unsigned)status < sizeof names / sizeof *names ? names[status]
                                                           : "unknown";
}

/* ---- names --------------------------------------------------------------- */

/* The selections' rows (CS_SELECTIONS, model.h), by enum cs_select. */
#define SELECT_NAME(constant, name, sizes) [constant] = name,
#define SELECT_SIZES(constant, name, sizes) [constant] = sizes,
const char *const cs_select_names[CS_SELECT_COUNT + 1] = {
    CS_SELECTIONS(SELECT_NAME)};
static const bool select_needs_sizes[CS_SELECT_COUNT] = {
    CS_SELECTIONS(SELECT_SIZES)};

bool cs_select_possible(enum cs_select select, const struct cs_hooks *hooks)
{
    return (unsigned)select < CS_SELECT_COUNT &&
           (!select_needs_sizes[select] || hooks->domain_size);
}

const char *cs_restarts_name(enum cs_restarts restarts)
{
    static const char *const names[] = {"none", "constant", "geometric",
                                        "luby"};
    return (unsigned)restarts < sizeof names / sizeof *names ? names[restarts]
                                                             : "unknown";
}

const char *cs_task_name(enum cs_task task)
{
    static const char *const names[] = {"count",    "solve",    "enumerate",
                                        "optimize", "estimate", "generate",
                                        "rate"};
    return (unsigned)task < sizeof names / sizeof *names ? names[task]
                                                         : "unknown";
}
