/* units.c - a count split into work units: threads, checkpoints, progress.
 *
 * A unit is either a unit of the model's own counting kernel
 * (problem->count_unit) or, for any model, a prefix of decisions from the
 * root: the engine walks the tree down to a split depth (counting the nodes
 * above it exactly as the plain search would), records every node it
 * reaches there, and each unit replays its prefix and searches the subtree
 * with the same engine body.  Totals are therefore identical to the unsplit
 * search, whatever the number of threads or the order units finish in.
 *
 * Workers pull unit numbers from an atomic counter (within the run's slice)
 * and log each unit they finish to the checkpoint at once (one write per
 * line, under a lock), so a crash loses only the units in flight.  The
 * calling thread controls: it watches Ctrl-C and the time limit and reports
 * progress, waking every 50 ms -- every 1 ms under MPI, where it also serves
 * the other ranks (mpi.c).  On those ranks the pool is fed by its
 * controller instead of the counter (units.h).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "csearch/dfs.h"
#include "csearch/dist.h"
#include "units.h"

#define TARGET_UNITS 1024 /* generic split: at least this many units */
#define MAX_SPLIT_DEPTH 24
#define TICK_NS 50000000L /* controller wake-up: 50 ms */
#define REMOTE_TICK_NS 1000000L /* with other ranks to serve: 1 ms */
#define REPORT_EVERY 0.25 /* progress: at most 4 lines a second */

/* ---- the frontier: prefixes at the split depth ------------------------- */

static void frontier_leaf(struct frontier *fr, int depth)
{
    if (depth > fr->stats.max_depth)
        fr->stats.max_depth = depth;
}

/* Copy mode: as in cs_dfs, the live state's counters are harvested before
 * a copy is taken or put back, so none is lost or counted twice. */
static void copy_state(struct frontier *fr, void *live, void *dst,
                       const void *src)
{
    if (fr->h->collect && !fr->h->copy)
        fr->h->collect(live, &fr->stats);
    if (fr->h->copy)
        fr->h->copy(dst, src);
    else
        memcpy(dst, src, fr->state_size);
}

static void frontier_walk(struct frontier *fr, void *state, int depth,
                          uint64_t weight)
{
    const struct cs_hooks *h = fr->h;
    if (depth == fr->depth) {
        if (fr->record) {
            if (fr->count == fr->cap) {
                fr->cap = fr->cap ? 2 * fr->cap : 1024;
                fr->prefixes = cs_xrealloc(
                    fr->prefixes, fr->cap * (size_t)fr->depth * 2 * sizeof(int));
                fr->weights =
                    cs_xrealloc(fr->weights, fr->cap * sizeof(uint64_t));
            }
            memcpy(fr->prefixes + fr->count * (size_t)fr->depth * 2, fr->path,
                   (size_t)fr->depth * 2 * sizeof(int));
            fr->weights[fr->count] = weight;
        }
        fr->count++;
        return;
    }
    fr->stats.nodes++;
    if (h->prune && h->prune(state)) {
        fr->stats.fails++;
        frontier_leaf(fr, depth);
        return;
    }
    int var = fr->mrv ? cs_mrv(h, state, fr->nvars) : h->select(state);
    if (var == CS_NONE) {
        if (h->goal && !h->goal(state))
            fr->stats.fails++;
        else
            fr->stats.solutions += weight;
        frontier_leaf(fr, depth);
        return;
    }
    uint64_t cursor;
    int value;
    bool any = false;
    unsigned char *copy =
        fr->saved + (size_t)depth * cs_state_stride(fr->state_size);
    h->first(state, var, &cursor);
    while (h->next(state, var, &cursor, &value)) {
        any = true;
        uint64_t w = h->weight ? weight * h->weight(state, var, value) : weight;
        if (!h->undo)
            copy_state(fr, state, copy, state);
        h->apply(state, var, value);
        fr->path[2 * depth] = var;
        fr->path[2 * depth + 1] = value;
        frontier_walk(fr, state, depth + 1, w);
        if (h->undo)
            h->undo(state, var, value);
        else
            copy_state(fr, state, state, copy);
    }
    if (!any) {
        fr->stats.fails++;
        frontier_leaf(fr, depth);
    }
}

static void *new_state(const struct cs_problem *p)
{
    void *state = cs_xcalloc(1, cs_problem_state_size(p));
    p->hooks->init(state, p->data);
    return state;
}

static void free_state(const struct cs_problem *p, void *state)
{
    if (p->hooks->fini)
        p->hooks->fini(state);
    free(state);
}

/* Walk to depth; with record, keep the prefixes and the stats above. */
static void frontier_run(struct frontier *fr, const struct cs_run *run,
                         int depth, bool record)
{
    const struct cs_problem *p = run->problem;
    free(fr->prefixes);
    free(fr->weights);
    fr->prefixes = NULL;
    fr->weights = NULL;
    fr->count = fr->cap = 0;
    memset(&fr->stats, 0, sizeof fr->stats);
    fr->depth = depth;
    fr->record = record;
    void *state = new_state(p);
    frontier_walk(fr, state, 0, 1);
    if (p->hooks->collect)
        p->hooks->collect(state, &fr->stats);
    free_state(p, state);
}

/* The shallowest depth with at least TARGET_UNITS nodes (or the deepest the
 * tree allows), independent of the thread count so that unit numbers, and
 * so checkpoints, do not depend on it. */
static void split(struct frontier *fr, const struct cs_run *run)
{
    const struct cs_problem *p = run->problem;
    memset(fr, 0, sizeof *fr);
    fr->h = p->hooks;
    fr->nvars = p->nvars;
    fr->mrv = run->select == CS_SELECT_MRV;
    fr->state_size = cs_problem_state_size(p);
    int limit = p->nvars < MAX_SPLIT_DEPTH ? p->nvars : MAX_SPLIT_DEPTH;
    fr->saved =
        cs_xmalloc((size_t)(limit + 1) * cs_state_stride(fr->state_size));
    fr->path = cs_xcalloc((size_t)limit * 2 + 2, sizeof(int));
    int depth = 1, best = 1;
    uint64_t best_count = 0;
    for (; depth <= limit; depth++) {
        frontier_run(fr, run, depth, false);
        if (fr->count > best_count) {
            best = depth;
            best_count = fr->count;
        }
        if (fr->count >= TARGET_UNITS || fr->count == 0)
            break;
    }
    frontier_run(fr, run, best_count ? best : 1, true);
}

static void frontier_free(struct frontier *fr)
{
    free(fr->saved);
    free(fr->path);
    free(fr->prefixes);
    free(fr->weights);
}

/* ---- the pool of workers ------------------------------------------------ */

bool pool_take(struct pool *pool, uint64_t *unit)
{
    if (pool->fed) {
        pthread_mutex_lock(&pool->lock);
        while (!pool->qlen && !pool->ended && !pool->stop)
            pthread_cond_wait(&pool->work, &pool->lock);
        bool got = pool->qlen && !pool->stop;
        if (got) {
            *unit = pool->queue[pool->qhead];
            pool->qhead = (pool->qhead + 1) % pool->qcap;
            pool->qlen--;
        }
        pthread_mutex_unlock(&pool->lock);
        return got;
    }
    while (!pool->stop) {
        uint64_t i = atomic_fetch_add(&pool->next, 1);
        if (i >= pool->end)
            return false;
        if (!atomic_load(&pool->done[i])) {
            *unit = i;
            return true;
        }
    }
    return false;
}

void pool_queue(struct pool *pool, uint64_t unit)
{
    if (pool->qlen == pool->qcap) {
        size_t cap = pool->qcap ? 2 * pool->qcap : 16;
        uint64_t *q = cs_xmalloc(cap * sizeof *q);
        for (size_t k = 0; k < pool->qlen; k++)
            q[k] = pool->queue[(pool->qhead + k) % pool->qcap];
        free(pool->queue);
        pool->queue = q;
        pool->qcap = cap;
        pool->qhead = 0;
    }
    pool->queue[(pool->qhead + pool->qlen++) % pool->qcap] = unit;
    pthread_cond_signal(&pool->work);
}

void pool_record(struct pool *pool, uint64_t unit, const struct cs_stats *s)
{
    pool->results[unit] = *s;
    atomic_store(&pool->done[unit], 1);
    atomic_fetch_add(&pool->finished, 1);
    /* logged at once, one write per unit: a crash loses only the units
     * still in flight */
    pthread_mutex_lock(&pool->lock);
    if (pool->cp && !pool->io_failed) {
        checkpoint_add(pool->cp, unit, s);
        if (checkpoint_flush(pool->cp, &pool->io_err)) {
            pool->io_failed = true;
            pool->stop = 1;
        }
    }
    pthread_mutex_unlock(&pool->lock);
}

void pool_partial(struct pool *pool, const struct cs_stats *s)
{
    pthread_mutex_lock(&pool->lock);
    stats_add(&pool->partial, s);
    pthread_mutex_unlock(&pool->lock);
}

/* A worker is done with a unit: record it, or (fed) hand it to the
 * controller to send. */
static void finish_unit(struct pool *pool, uint64_t unit, enum unit_end end,
                        const struct cs_stats *s)
{
    if (!pool->fed) {
        if (end == UNIT_WHOLE)
            pool_record(pool, unit, s);
        else
            pool_partial(pool, s);
        return;
    }
    pthread_mutex_lock(&pool->lock);
    if (pool->olen == pool->ocap) {
        pool->ocap = pool->ocap ? 2 * pool->ocap : 16;
        pool->outbox =
            cs_xrealloc(pool->outbox, pool->ocap * sizeof *pool->outbox);
    }
    pool->outbox[pool->olen++] = (struct unit_result){unit, end, *s};
    pthread_cond_signal(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
}

/* Search generic unit i on a fresh state; true if it ran to the end. */
static bool search_prefix(struct pool *pool, struct cs_run *wr, void *state,
                          uint64_t i, struct cs_stats *out)
{
    const struct cs_problem *p = pool->problem;
    const struct cs_hooks *h = p->hooks;
    const int depth = pool->fr.depth;
    const int *prefix = pool->fr.prefixes + i * (size_t)depth * 2;
    memset(state, 0, cs_problem_state_size(p));
    h->init(state, p->data);
    /* the very steps of the split's walk: a prune that propagates (Sudoku)
     * changes the state, and a unit must start from the state the walk
     * reached; on this path every prune said "go on" */
    for (int d = 0; d < depth; d++) {
        if (h->prune)
            h->prune(state);
        h->apply(state, prefix[2 * d], prefix[2 * d + 1]);
    }
    if (h->collect) {
        /* the split counted the prefix's checks once already: a replay
         * per unit must not count them again */
        struct cs_stats replay = {0};
        h->collect(state, &replay);
    }
    memset(&wr->stats, 0, sizeof wr->stats);
    wr->base_weight = pool->fr.weights[i];
    wr->next_poll = CS_POLL_NODES;
    int status = h->search ? h->search(wr, state) : cs_dfs(wr, state, h);
    if (h->collect)
        h->collect(state, &wr->stats);
    if (h->fini)
        h->fini(state);
    *out = wr->stats;
    out->max_depth += depth;
    return status == CS_COMPLETE;
}

static void *worker(void *arg)
{
    struct pool *pool = arg;
    /* Ctrl-C is the controller's to notice: keep it off the workers */
    sigset_t block;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigaddset(&block, SIGTERM); /* mpirun's Ctrl-C */
    pthread_sigmask(SIG_BLOCK, &block, NULL);
    const struct cs_problem *p = pool->problem;
    struct cs_run wr = *pool->run;
    void *state = NULL;
    if (!p->count_unit) {
        wr.frames = cs_xcalloc((size_t)p->nvars + 1, sizeof *wr.frames);
        wr.saved = p->hooks->undo ? NULL
                                  : cs_xmalloc(((size_t)p->nvars + 1) *
                                               cs_state_stride(
                                                   cs_problem_state_size(p)));
        wr.stop = &pool->stop;
        wr.on_solution = NULL;
        wr.node_cap = UINT64_MAX;
        wr.solution_cap = UINT64_MAX;
        wr.limits.seconds = 0;
        state = cs_xcalloc(1, cs_problem_state_size(p));
    }
    uint64_t i;
    while (pool_take(pool, &i)) {
        struct cs_stats s = {0};
        bool whole = p->count_unit
                         ? p->count_unit(p->data, i, &pool->stop, &s)
                         : search_prefix(pool, &wr, state, i, &s);
        finish_unit(pool, i, whole ? UNIT_WHOLE : UNIT_PARTIAL, &s);
        if (!whole)
            break;
    }
    free(state);
    free(wr.frames);
    free(wr.saved);
    pthread_mutex_lock(&pool->lock);
    pool->running--;
    pthread_cond_signal(&pool->wake);
    pthread_mutex_unlock(&pool->lock);
    return NULL;
}

static void report(struct pool *pool)
{
    struct cs_run *run = pool->run;
    uint64_t finished = atomic_load(&pool->finished);
    run->units_done = finished;
    if (!run->on_progress)
        return;
    struct cs_progress pr = {.units_done = finished,
                             .units_total = pool->end - pool->first,
                             .units_resumed = run->units_resumed,
                             .elapsed = cs_now() - run->started};
    run->on_progress(run->progress_ud, &pr);
}

void sleep_ns(long ns)
{
    struct timespec ts = {0, ns};
    while (nanosleep(&ts, &ts) && errno == EINTR)
        ;
}

void pool_wait(struct pool *pool, long ns)
{
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until); /* the condvar's clock */
    until.tv_nsec += ns;
    if (until.tv_nsec >= 1000000000L) {
        until.tv_sec++;
        until.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&pool->wake, &pool->lock, &until);
}

/* Wait for the workers (and the other ranks), stopping them on Ctrl-C or
 * the time limit.  With other ranks the controller wakes every millisecond
 * to serve them. */
static enum cs_status control(struct pool *pool)
{
    struct cs_run *run = pool->run;
    const bool remote = cs_dist_size() > 1;
    const long tick = remote ? REMOTE_TICK_NS : TICK_NS;
    enum cs_status status = CS_COMPLETE;
    double last_report = cs_now();
    for (;;) {
        pthread_mutex_lock(&pool->lock);
        if (pool->running > 0)
            pool_wait(pool, tick);
        int running = pool->running;
        pthread_mutex_unlock(&pool->lock);
        bool remote_busy = remote && dist_master_serve(pool);
        if (!running && !remote_busy)
            break;
        if (!running)
            sleep_ns(tick);
        double now = cs_now();
        if (!pool->stop && run->stop && *run->stop) {
            status = CS_INTERRUPTED;
            pool->stop = 1;
        } else if (!pool->stop && run->limits.seconds > 0 &&
                   now - run->started >= run->limits.seconds) {
            status = CS_LIMIT;
            pool->stop = 1;
        }
        if (now - last_report >= REPORT_EVERY) {
            last_report = now;
            report(pool);
        }
    }
    return status;
}

/* [first, end) of the run's slice, checked against the split's units. */
static int slice(struct pool *pool, const struct cs_run *run,
                 struct cs_error *err)
{
    pool->first = 0;
    pool->end = pool->total;
    if (run->slice_parts) {
        /* part k of m: the first N % m parts take one unit more */
        uint64_t k = run->slice_part, m = run->slice_parts;
        uint64_t base = pool->total / m, more = pool->total % m;
        pool->first = k * base + (k < more ? k : more);
        pool->end = pool->first + base + (k < more);
        return 0;
    }
    if (!run->slice_end)
        return 0;
    if (run->slice_first >= pool->total)
        return cs_error_set(err, NULL,
                            "units %" PRIu64 ":%" PRIu64 " start beyond the "
                            "last unit: this count has %" PRIu64
                            " units (0:%" PRIu64 ")",
                            run->slice_first, run->slice_end, pool->total,
                            pool->total);
    pool->first = run->slice_first;
    if (run->slice_end < pool->total)
        pool->end = run->slice_end; /* a job array's last slice may
                                       overshoot */
    return 0;
}

static int start_workers(struct pool *pool, pthread_t *tids, int threads)
{
    pool->running = threads;
    int started = 0;
    for (; started < threads; started++)
        if (pthread_create(&tids[started], NULL, worker, pool))
            break;
    if (started < threads) {
        pthread_mutex_lock(&pool->lock);
        pool->running -= threads - started;
        pthread_mutex_unlock(&pool->lock);
    }
    return started;
}

/* The sum of the slice's units (and the nodes above the split when the
 * slice is the whole count) into run->stats and its status. */
static int sum_up(struct pool *pool, struct cs_error *err)
{
    struct cs_run *run = pool->run;
    bool overflow = false;
    struct cs_stats total = {0};
    if (pool->first == 0 && pool->end == pool->total)
        total = pool->fr.stats; /* the nodes above the split */
    for (uint64_t i = pool->first; i < pool->end; i++)
        if (atomic_load(&pool->done[i]))
            overflow |= stats_add(&total, &pool->results[i]);
    overflow |= stats_add(&total, &pool->partial);
    total.seconds = run->stats.seconds;
    run->stats = total;
    if (run->units_done == pool->end - pool->first)
        run->status = CS_COMPLETE; /* a late Ctrl-C stopped nothing */
    else if (run->status == CS_COMPLETE)
        run->status = CS_INTERRUPTED; /* a worker gave up without a reason */
    if (pool->io_failed) {
        *err = pool->io_err;
        return -1;
    }
    if (overflow)
        return cs_error_set(err, NULL,
                            "the count overflowed 64 bits; no total printed");
    return 0;
}

int cs_search_units(struct cs_run *run, struct cs_error *err)
{
    const struct cs_problem *p = run->problem;
    struct pool *pool = cs_xcalloc(1, sizeof *pool);
    pool->run = run;
    pool->problem = p;
    if (p->count_unit) {
        pool->total = p->units;
    } else {
        split(&pool->fr, run);
        pool->total = pool->fr.count;
    }
    pool->results = cs_xcalloc(pool->total ? pool->total : 1,
                               sizeof *pool->results);
    pool->done = cs_xcalloc(pool->total ? pool->total : 1, 1);
    pthread_mutex_init(&pool->lock, NULL);
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC); /* immune to clock
                                                          jumps */
    pthread_cond_init(&pool->wake, &attr);
    pthread_condattr_destroy(&attr);
    pthread_cond_init(&pool->work, NULL);
    run->units_total = pool->total;
    atomic_init(&pool->finished, 0);
    int threads = run->threads > 1 ? run->threads : 1;
    pthread_t *tids = cs_xcalloc((size_t)threads, sizeof *tids);
    struct checkpoint cp;
    int rc = slice(pool, run, err), started = 0;
    atomic_init(&pool->next, pool->first);
    run->units_first = pool->first;
    run->units_end = pool->end;

    if (!rc && dist_rank() > 0) {
        /* another rank: search what rank 0 sends, report nothing */
        pool->fed = true;
        started = start_workers(pool, tids, threads);
        rc = dist_worker(pool, err);
        for (int t = 0; t < started; t++)
            pthread_join(tids[t], NULL);
        goto out;
    }
    if (!rc && run->checkpoint) {
        struct checkpoint_head head = {run->fingerprint, pool->total,
                                       p->reports_unique, pool->fr.stats};
        head.top.seconds = 0;
        rc = checkpoint_open(&cp, run->checkpoint, run->resume, &head,
                             (unsigned char *)pool->done, pool->results,
                             &run->units_resumed, &run->checkpoint_torn, err);
        if (!rc) {
            pool->cp = &cp;
            run->units_resumed = 0; /* those of the slice */
            for (uint64_t i = pool->first; i < pool->end; i++)
                run->units_resumed += pool->done[i];
            atomic_store(&pool->finished, run->units_resumed);
        }
    }
    if (!rc && cs_dist_size() > 1)
        rc = dist_master_start(pool, err);
    if (rc) {
        dist_master_end(pool, rc);
        goto out;
    }

    started = start_workers(pool, tids, threads);
    run->status = started ? control(pool) : CS_INTERRUPTED;
    for (int t = 0; t < started; t++)
        pthread_join(tids[t], NULL);
    if (!started) {
        /* the end below stops any rank still holding units */
        rc = cs_error_set(err, NULL, "cannot start a worker thread");
    } else {
        report(pool);
        rc = sum_up(pool, err);
    }
    if (pool->cp && checkpoint_close(&cp, rc ? NULL : err))
        rc = -1;
    pool->cp = NULL;
    dist_master_end(pool, rc);
out:
    if (pool->cp && checkpoint_close(&cp, rc ? NULL : err))
        rc = -1;
    free(tids);
    pthread_cond_destroy(&pool->work);
    pthread_cond_destroy(&pool->wake);
    pthread_mutex_destroy(&pool->lock);
    if (!p->count_unit)
        frontier_free(&pool->fr);
    free(pool->queue);
    free(pool->outbox);
    free(pool->results);
    free((void *)pool->done);
    free(pool);
    return rc;
}
