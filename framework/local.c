/* local.c - the min-conflicts layer: local search on a complete assignment;
 * and the moves layer, the same hooks improving an optimize's incumbent.
 *
 * Instead of a tree, one state the model fills with a complete start and
 * the layer repairs: each step takes a variable in conflict (ls_pick) and
 * makes its best move (least ls_delta, ties broken at random), or with
 * probability walk a random one.  After local_steps steps without a
 * solution it starts anew from a fresh start.  Invariants: every random
 * number comes from the spec's seed through one splitmix64 stream, so the
 * same spec gives the same steps and solution; a solution leaves the layer
 * only after the model's verify hook approved it.  The moves layer starts
 * from a copy of the incumbent and hands out only states whose cost (the
 * model's ls_conflicts) beats it, through the body's on_solution path.
 */
#define _POSIX_C_SOURCE 200809L
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "csearch/random.h"
#include "layers.h"

#define POLL_STEPS 1024u

/* The best move of var: every move when it has at most sample of them,
 * else sample drawn at random; ties go to each with equal chance
 * (reservoir sampling over the best).  false: no allowed move. */
static bool best_move(const struct cs_hooks *h, void *state, int var,
                      uint64_t moves, uint64_t sample, uint64_t *rng,
                      uint64_t *move, int64_t *delta)
{
    bool all = !sample || moves <= sample;
    uint64_t tries = all ? moves : sample, ties = 0;
    int64_t best = INT64_MAX;
    for (uint64_t k = 0; k < tries; k++) {
        uint64_t m = all ? k : cs_random_below(rng, moves);
        int64_t d = h->local->ls_delta(state, var, m);
        if (d == INT64_MAX || d > best)
            continue;
        if (d < best) {
            best = d;
            ties = 0;
        }
        if (cs_random_below(rng, ++ties) == 0)
            *move = m;
    }
    *delta = best;
    return best != INT64_MAX;
}

/* The move one step makes for var, if any: with probability walk a random
 * allowed one (*walk set), else its best when that adds no conflicts --
 * sideways moves (delta 0) keep a plateau from trapping the run; a move
 * that only adds conflicts waits for the walk.  false: no move. */
static bool step_move(const struct cs_hooks *h, const struct cs_layers *l,
                      void *state, int var, uint64_t *rng, uint64_t *move,
                      int64_t *delta, bool *walk)
{
    uint64_t moves = h->local->ls_moves(state, var);
    *walk = false;
    if (!moves)
        return false;
    if (l->walk > 0 && cs_random_unit(rng) < l->walk) {
        *walk = true;
        *move = cs_random_below(rng, moves);
        *delta = h->local->ls_delta(state, var, *move);
        return *delta != INT64_MAX;
    }
    return best_move(h, state, var, moves, l->sample, rng, move, delta) &&
           *delta <= 0;
}

static uint64_t peak_bytes(void)
{
    struct rusage ru;
    if (getrusage(RUSAGE_SELF, &ru))
        return 0;
    return (uint64_t)ru.ru_maxrss * 1024u; /* Linux: kilobytes */
}

struct run {
    const struct cs_spec *spec;
    const struct cs_split *split; /* its on_progress, or NULL */
    double shown;                 /* when progress was last shown */
    const struct cs_hooks *h;
    void *state;
    uint64_t rng, steps, restarts;
    double started;
    bool unstarted; /* stopped while making a start */
};

/* Tell a traced run what a step (or a start) did. */
static void trace(const struct run *r, enum cs_trace_kind kind, int var,
                  int64_t move, uint64_t before, bool walk)
{
    const struct cs_spec *s = r->spec;
    struct cs_trace_event ev = {.kind = kind,
                                .var = var,
                                .value = move < 0 ? CS_NONE : (int)move,
                                .branch = CS_NONE,
                                .weight = 1,
                                .step = r->steps,
                                .before = before,
                                .after = r->h->local->ls_conflicts(r->state),
                                .walk = walk};
    s->on_trace(s->trace_ud, &ev, r->h, r->state);
}

/* The progress line, at most 4 times a second. */
static void progress(struct run *r)
{
    if (!r->split || !r->split->on_progress)
        return;
    double now = cs_now();
    if (now - r->shown < 0.25)
        return;
    r->shown = now;
    struct cs_progress p = {.elapsed = now - r->started,
                            .steps = r->steps,
                            .conflicts = r->h->local->ls_conflicts(r->state)};
    r->split->on_progress(r->split->progress_ud, &p);
}

/* The limit or stop that has come, or -1. */
static int must_stop(struct run *r)
{
    const struct cs_spec *s = r->spec;
    if (s->stop && *s->stop)
        return CS_INTERRUPTED;
    if (s->limits.seconds > 0 && cs_now() - r->started >= s->limits.seconds)
        return CS_LIMIT;
    return -1;
}

/* Steps from a start until a solution (CS_COMPLETE), the try's budget
 * (-1: restart) or a limit. */
static int repair(struct run *r)
{
    const struct cs_hooks *h = r->h;
    const struct cs_layers *l = &r->spec->layers;
    uint64_t limit = r->spec->limits.steps, taken = 0;
    const bool tracing = r->spec->on_trace != NULL;
    for (;;) {
        int var = h->local->ls_pick(r->state, cs_random(&r->rng));
        if (var == CS_NONE)
            return CS_COMPLETE;
        if (limit && r->steps >= limit)
            return CS_LIMIT;
        if (l->local_steps && taken >= l->local_steps)
            return -1;
        if (r->steps % POLL_STEPS == 0) {
            int stop = must_stop(r);
            if (stop >= 0)
                return stop;
            progress(r);
        }
        r->steps++;
        taken++;
        uint64_t before = tracing ? h->local->ls_conflicts(r->state) : 0;
        uint64_t move;
        int64_t delta, made = -1;
        bool walk;
        if (step_move(h, l, r->state, var, &r->rng, &move, &delta, &walk)) {
            h->local->ls_apply(r->state, var, move);
            made = (int64_t)move;
        }
        if (tracing)
            trace(r, CS_TRACE_STEP, var, made, before, walk);
    }
}

int layer_local(const struct cs_spec *spec, const struct cs_split *split,
                struct cs_result *out, struct cs_error *err)
{
    (void)err;
    const struct cs_problem *p = spec->problem;
    struct run r = {.spec = spec,
                    .split = split,
                    .h = p->hooks,
                    .rng = spec->seed,
                    .started = cs_now()};
    r.state = cs_xcalloc(1, cs_problem_state_size(p));
    r.h->init(r.state, p->data);
    int status;
    for (;;) {
        static volatile sig_atomic_t never;
        if (!r.h->local->ls_start(r.state, cs_random(&r.rng),
                                  r.spec->stop ? r.spec->stop : &never)) {
            status = CS_INTERRUPTED;
            r.unstarted = true; /* no whole start: no conflicts to count */
            break;
        }
        if (spec->on_trace)
            trace(&r, CS_TRACE_START, CS_NONE, -1, 0, false);
        progress(&r);
        status = repair(&r);
        if (status >= 0)
            break;
        r.restarts++;
    }
    out->conflicts =
        r.unstarted ? CS_CONFLICTS_NONE : r.h->local->ls_conflicts(r.state);
    if (status == CS_COMPLETE) {
        if (r.h->verify && !r.h->verify(r.state))
            status = CS_UNVERIFIED;
        else {
            out->stats.solutions = 1;
            if (spec->on_solution)
                spec->on_solution(spec->ud, r.h, r.state, 1);
        }
    }
    out->status = (enum cs_status)status;
    out->steps = r.steps;
    out->restarts = r.restarts;
    out->peak_bytes = peak_bytes();
    if (r.h->fini)
        r.h->fini(r.state);
    free(r.state);
    return 0;
}

/* ---- the moves layer: improvement bursts under optimize ----------------- */

/* A new best in the burst: the incumbent, handed out as the body hands out
 * a branch and bound's (so keep_best, a portfolio's shared best and the
 * caller see it alike).  false: on_solution asked to stop. */
static bool new_best(struct cs_engine *e, const void *state, int64_t cost)
{
    struct cs_dfs *d = &e->dfs;
    d->incumbent = cost;
    d->stats.solutions++;
    return !d->on_solution ||
           d->on_solution(d->ud, e->problem->hooks, state, 1);
}

/* The move an annealing step makes for var: one drawn at random, made when
 * it costs nothing, or with Metropolis' chance exp(-delta / t).  false: no
 * move (none allowed, or refused). */
static bool anneal_move(const struct cs_hooks *h, void *state, int var,
                        double t, uint64_t *rng, uint64_t *move, int64_t *delta)
{
    uint64_t moves = h->local->ls_moves(state, var);
    if (!moves)
        return false;
    *move = cs_random_below(rng, moves);
    *delta = h->local->ls_delta(state, var, *move);
    if (*delta == INT64_MAX)
        return false;
    return *delta <= 0 || cs_random_unit(rng) < exp(-(double)*delta / t);
}

/* Steps between two new bests handed out: from a poor start a burst
 * reaches one at nearly every step, and each hand-out copies the state
 * (twice: the incumbent and the caller's), which on Instance24 of the
 * rosters is 15 MB.  So at least 256 steps, and one step for every 64
 * bytes of the state (the copies then cost about what the steps do). */
static uint64_t hand_gap(size_t size)
{
    return size / 64 > 256 ? size / 64 : 256;
}

/* An annealing burst that found nothing better makes the next start twice
 * as hot, up to this many times anneal_t0 (one that did: back to it).  On
 * the rosters' Instances 10, 11, 14-17 and 19 that paid (30 s: 5281 ->
 * 4792 on 10, 4155 -> 3561 on 11, 1892 -> 1428 on 14), on 9 and 13 it cost
 * (479 -> 497, 1956 -> 2622): docs/shifts.md. */
#define ANNEAL_HEAT_MAX 8

/* Steps between two looks at the clock for fit_cooling. */
#define FIT_STEPS 65536u

/* An annealing burst at step k (temperature t now, begun at `began`):
 * when the time limit will come before step *end, at the steps per second
 * it has gone so far, the temperature falls from t to anneal_t1 by the
 * limit (*cool), and the burst ends there (*end; under anneal_fill it runs
 * on until the limit stops it).  Without it the last burst of a run is cut
 * short while still hot: on the rosters' Instance24 a burst of 100000000
 * steps takes about 30 s, and the one under way at the limit was cut half
 * way. */
static void fit_cooling(const struct cs_engine *e, double began, uint64_t k,
                        double t, uint64_t *end, double *cool)
{
    double now = cs_now(), left = e->seconds - (now - e->started);
    if (now <= began)
        return;
    double reach = (double)k + left * ((double)k / (now - began));
    if (reach >= (double)*end)
        return;
    double steps = reach > (double)k + 1 ? reach - (double)k : 1;
    const double t1 = e->bursts->anneal_t1;
    *cool = t > t1 ? pow(t1 / t, 1 / steps) : 1;
    if (!e->bursts->anneal_fill)
        *end = k + (uint64_t)steps;
}

/* The step of a burst's next large move, after one at step k that began
 * at t_in (the burst at `began`; *spent: the seconds large moves have
 * taken, this one added): large_steps later, or, by large_share, when the
 * steps at their own pace so far will have taken the time that keeps the
 * large moves at that share of the burst's. */
static uint64_t large_next(const struct cs_bursts *b, uint64_t k, double t_in,
                           double began, double *spent)
{
    double now = cs_now();
    *spent += now - t_in;
    if (b->large_steps)
        return k + b->large_steps;
    double stepping = now - began - *spent;
    double rate = stepping > 0 ? (double)k / stepping : 1e6;
    double gap = (now - t_in) * (1 - b->large_share) / b->large_share * rate;
    return k + (gap < 1 ? 1 : gap > 1e12 ? (uint64_t)1e12 : (uint64_t)gap);
}

/* What a burst's walk knows of where it is: its cost now, its best (a new
 * one below the incumbent waits to go out while pending), the lowest it
 * has seen, what it began at, and the steps since seen fell (a descent's
 * idle count). */
struct walk {
    int64_t now, best, seen, start;
    bool pending;
    uint64_t idle;
};

/* A burst's cost after a move of delta: below the best, a new best to
 * hand out (pending); below the lowest it has seen, idle counts anew. */
static void walked(struct walk *w, int64_t delta)
{
    w->now += delta;
    if (w->now < w->best) {
        w->best = w->now;
        w->pending = true;
    }
    if (w->now < w->seen) {
        w->seen = w->now;
        w->idle = 0;
    }
}

/* In a portfolio, once adopt_after of the time limit has passed: when the
 * best cost any thread has found is below the lowest this burst has seen,
 * and adopt_seconds have passed since the last time (or it is the first),
 * take that best as the walk's state, so that the thread cools on from it
 * at its own temperature and with its own moves instead of where its own
 * walk has stalled.  The state is the
 * model's again (ls_start rebuilds what the moves keep); its cost is no
 * find of this burst's, so nothing goes out.  false: ls_start stopped. */
static bool adopt(struct cs_engine *e, void *state, struct layer_moves *m,
                  uint64_t *rng, struct walk *w)
{
    const struct cs_hooks *h = e->problem->hooks;
    e->peers.share->poll(e); /* the portfolio's best cost */
    if (e->dfs.incumbent < w->best) {
        w->best = e->dfs.incumbent; /* a best waiting to go out is none */
        w->pending = false;
    }
    if (e->dfs.incumbent >= w->seen)
        return true;
    const struct cs_bursts *b = e->bursts;
    double at = cs_now();
    if (at - e->started < b->adopt_after * e->seconds ||
        (m->adoptions && at - m->adopted_at < b->adopt_seconds))
        return true;
    uint64_t version = m->adopted;
    eng_harvest(e, state); /* the walk's counters, before they go */
    e->peers.share->best(e, state, &m->adopted);
    if (m->adopted == version)
        return true; /* nothing newer than the last taken (not copied) */
    if (h->counters)
        memset(state, 0, sizeof(struct cs_counters)); /* the other's */
    m->adoptions++;
    m->adopted_at = at;
    static volatile sig_atomic_t never;
    if (!h->local->ls_start(state, cs_random(rng), e->stop ? e->stop : &never))
        return false;
    w->now = w->seen = w->start = (int64_t)h->local->ls_conflicts(state);
    w->best = e->dfs.incumbent;
    w->pending = false;
    w->idle = 0;
    return true;
}

void layer_moves_free(struct layer_moves *m)
{
    free(m->walker);
    m->walker = NULL;
}

bool layer_moves(struct cs_engine *e, const void *incumbent,
                 struct layer_moves *m)
{
    const struct cs_problem *p = e->problem;
    const struct cs_hooks *h = p->hooks;
    const struct cs_layers *l = &e->layers;
    const struct cs_bursts *b = e->bursts;
    const uint64_t step_limit = e->spec->limits.steps;
    size_t size = cs_problem_state_size(p);
    if (!m->walker)
        m->walker = cs_xmalloc(size);
    void *state = m->walker;
    memcpy(state, incumbent, size);
    if (h->counters)
        memset(state, 0, sizeof(struct cs_counters));
    uint64_t rng = e->spec->seed ^ e->peers.round_offset ^
                   (++m->bursts * UINT64_C(0xd1b54a32d192ed03));
    static volatile sig_atomic_t never;
    if (!h->local->ls_start(state, cs_random(&rng), e->stop ? e->stop : &never))
        return false;
    struct walk w = {.now = (int64_t)h->local->ls_conflicts(state),
                     .best = e->dfs.incumbent};
    /* the lowest cost this burst has seen (a descent's idle count restarts
     * only below it), and what it began at (a portfolio's shared best
     * may be below the incumbent, and is no find of this burst's) */
    w.seen = w.start = w.now < w.best ? w.now : w.best;
    /* annealing: anneal_steps steps, the temperature falling by the same
     * factor at each from anneal_t0 to anneal_t1; else a descent that ends
     * after local_steps steps without a new best */
    const bool anneal = b->anneal_steps > 0;
    if (!m->heat)
        m->heat = 1;
    double t = b->anneal_t0 * m->heat;
    /* the step the burst ends at: anneal_steps (with anneal_fill and a
     * time limit, none), or sooner, so that a burst the time limit would
     * cut short still cools to anneal_t1 by then (fit_cooling) */
    uint64_t end =
        b->anneal_fill && e->seconds > 0 ? UINT64_MAX : b->anneal_steps;
    double cool = anneal ? pow(b->anneal_t1 / t, 1 / (double)end) : 1;
    const double began = cs_now();
    /* the model's large moves: the first after this many steps, then as
     * large_next says; the seconds they have taken */
    uint64_t next_large =
        h->local->ls_large && (b->large_steps || b->large_share > 0)
            ? (b->large_steps ? b->large_steps : 4096)
            : UINT64_MAX;
    double large_time = 0;
    /* a new best goes out before the state leaves it (a sideways, walk or
     * uphill move), at each poll and at the end, not at every step of a
     * descent: handing out a state costs a copy of it.  So at most once in
     * gap steps: a best the walk leaves sooner is dropped (the next one
     * below the incumbent goes out), and the burst's end state goes out
     * if it beats the incumbent */
    bool go_on = true;
    const uint64_t gap = hand_gap(size);
    uint64_t handed = m->steps;
    const bool adopting = anneal && e->peers.share && b->adopt_seconds > 0;
    for (uint64_t k = 0; go_on; k++, w.idle++, t *= cool) {
        if (anneal ? k >= end : w.idle >= l->local_steps)
            break;
        if (w.now <= m->bound)
            break; /* the bound met: optimal, handed out below */
        if (anneal && e->seconds > 0 && k && k % FIT_STEPS == 0) {
            fit_cooling(e, began, k, t, &end, &cool);
            if (adopting && !adopt(e, state, m, &rng, &w)) {
                eng_harvest(e, state);
                return false; /* stopped while starting from it */
            }
        }
        if (step_limit && m->steps >= step_limit)
            break;
        if (m->steps % 256 == 0) {
            eng_progress(e, false); /* a burst may take all the time left */
            if (w.pending && m->steps - handed >= gap) {
                go_on = new_best(e, state, w.now);
                handed = m->steps;
                w.pending = false;
            }
            if (!go_on || eng_must_stop(e))
                break;
        }
        if (k == next_large) {
            double t_in = cs_now();
            int64_t delta = h->local->ls_large(state, cs_random(&rng));
            m->large++;
            next_large = large_next(b, k, t_in, began, &large_time);
            if (delta != INT64_MAX && delta < 0)
                walked(&w, delta);
        }
        int var = h->local->ls_pick(state, cs_random(&rng));
        if (var == CS_NONE)
            break; /* no move can pay */
        m->steps++;
        uint64_t move;
        int64_t delta;
        bool walk;
        if (!(anneal ? anneal_move(h, state, var, t, &rng, &move, &delta)
                     : step_move(h, l, state, var, &rng, &move, &delta, &walk)))
            continue;
        if (delta >= 0 && w.pending) {
            if (m->steps - handed >= gap) {
                go_on = new_best(e, state, w.now);
                handed = m->steps;
            } else {
                w.best = e->dfs.incumbent; /* let it go: the next counts */
            }
            w.pending = false;
        }
        h->local->ls_apply(state, var, move);
        walked(&w, delta);
    }
    if (go_on && w.now < e->dfs.incumbent)
        go_on = new_best(e, state, w.now); /* the burst's end, if better */
    if (anneal)
        m->heat = w.seen < w.start                ? 1
                  : m->heat * 2 > ANNEAL_HEAT_MAX ? ANNEAL_HEAT_MAX
                                                  : m->heat * 2;
    eng_harvest(e, state);
    return go_on && !eng_must_stop(e);
}
