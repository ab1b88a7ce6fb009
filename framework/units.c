/* units.c - a count split into work units: threads, checkpoints, progress.
 *
 * A unit is either a unit of the model's own counting kernel
 * (problem->count_unit) or, for any model, a node at a split depth: the
 * body (dfs.h) walks the tree down to that depth, counting the nodes above
 * it exactly as the plain search would, and hands every node there to
 * record_node; each unit then runs the body again from a fresh state, which
 * replays the unit's prefix and searches below it.  This file applies and
 * undoes no move itself, so totals are identical to the unsplit search,
 * whatever the number of threads or the order units finish in.
 *
 * Workers pull unit numbers from an atomic counter (within the run's slice)
 * and log each unit they finish to the checkpoint at once (one write per
 * line, under a lock), so a crash loses only the units in flight.  The
 * calling thread controls: it watches Ctrl-C and the time limit and reports
 * progress, waking every 50 ms -- every 1 ms under MPI, where it also serves
 * the other ranks (mpi.c).  On those ranks the pool is fed by its
 * controller instead of the counter (units.h).
 *
 * Progress counts work, not units: units differ in size by orders of
 * magnitude (the first of a split are often the largest), so while the
 * workers start the controller estimates each unit's size -- random probes
 * below a generic unit's prefix (estimate.c), the model's unit_size for a
 * kernel's, equal sizes without one -- and reports the share of the
 * estimated sizes finished.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/dist.h"
#include "engine_impl.h"
#include "dist_impl.h"
#include "estimate.h"
#include "pool.h"
#include "units.h"

#define TARGET_UNITS 1024 /* generic split: at least this many units */
#define MAX_SPLIT_DEPTH 24
#define TICK_NS 50000000L       /* controller wake-up: 50 ms */
#define REMOTE_TICK_NS 1000000L /* with other ranks to serve: 1 ms */
#define REPORT_EVERY 0.25       /* progress: at most 4 lines a second */
#define SIZE_PROBES 16          /* probes per generic unit sized */

bool cs_split_wanted(const struct cs_split *split)
{
    return split &&
           (split->threads > 1 || split->checkpoint || split->distribute);
}

int cs_units_validate(const struct cs_spec *spec, const struct cs_split *split,
                      struct cs_error *err, const char **key)
{
    static const struct cs_split none;
    const struct cs_split *s = split ? split : &none;
    bool splits = cs_split_wanted(split);
    bool slice = s->slice_end || s->slice_parts;
    bool counting = spec->task == CS_TASK_COUNT;
    if (slice && !s->checkpoint)
        return cs_error_set(err, NULL,
                            "a slice of units needs a log: --checkpoint "
                            "FILE or --resume FILE");
    if (s->slice_end && s->slice_first >= s->slice_end)
        return cs_error_set(err, NULL,
                            "units %" PRIu64 ":%" PRIu64 " is an empty slice",
                            s->slice_first, s->slice_end);
    if (s->slice_parts && s->slice_part >= s->slice_parts)
        return cs_error_set(err, NULL,
                            "units %" PRIu64 "/%" PRIu64 ": parts are "
                            "numbered from 0 to %" PRIu64,
                            s->slice_part, s->slice_parts, s->slice_parts - 1);
    /* threads for solve and optimize are a portfolio (layers.h) */
    bool portfolio =
        !counting && s->threads > 1 &&
        (spec->task == CS_TASK_SOLVE || spec->task == CS_TASK_OPTIMIZE);
    /* threads alone: the config's strategy.threads is to blame */
    const bool threads_only =
        !s->checkpoint && !slice && !s->distribute && s->threads > 1;
    if (!counting && splits &&
        (!portfolio || s->checkpoint || slice || s->distribute)) {
        if (threads_only) {
            *key = "strategy.threads";
            return cs_error_set(err, NULL,
                                "threads need task count, solve or "
                                "optimize, or a batch");
        }
        return cs_error_set(err, NULL, "%s need task count",
                            slice ? "slices of units"
                                  : "threads and checkpoints");
    }
    const char *by = s->distribute ? "MPI ranks"
                     : slice       ? "slices of units"
                     : portfolio   ? "a portfolio of threads"
                                   : NULL;
    if (splits && (spec->limits.nodes || spec->limits.solutions)) {
        if (threads_only || portfolio)
            *key = "strategy.threads";
        return cs_error_set(err, NULL,
                            "%s cannot honour limits.nodes or "
                            "limits.solutions exactly%s",
                            by             ? by
                            : threads_only ? "threads"
                                           : "threads and checkpoints",
                            threads_only ? "; use one thread" : "");
    }
    /* a kernel with levels sums its units' rows in memory: threads are
     * fine, a log that keeps no rows is not */
    bool kernel_levels = counting && spec->problem->count_unit &&
                         spec->problem->profile_unit && !spec->on_trace;
    if (spec->profile && kernel_levels && (s->checkpoint || by))
        return cs_error_set(err, NULL,
                            "a per-level profile is summed in memory, "
                            "not logged: it cannot be split across %s; "
                            "profile a run without --checkpoint",
                            by ? by : "checkpoints");
    if ((spec->on_trace || spec->profile) && !kernel_levels &&
        (splits || (counting && spec->problem->count_unit)))
        return cs_error_set(
            err, NULL, "a %s one search: it cannot be split %s%s",
            spec->on_trace ? "trace follows" : "per-level profile counts",
            by && splits ? "across " : "",
            by && splits ? by
                         : "by threads, checkpoints or a "
                           "counting kernel");
    return 0;
}

/* ---- the frontier: the nodes at the split depth -------------------------- */

static void record_node(struct cs_dfs *d, uint64_t weight)
{
    struct frontier *fr = d->ud;
    if (fr->record) {
        if (fr->count == fr->cap) {
            fr->cap = fr->cap ? 2 * fr->cap : 1024;
            fr->prefixes = cs_xrealloc(
                fr->prefixes, fr->cap * (size_t)fr->depth * 2 * sizeof(int));
            fr->weights = cs_xrealloc(fr->weights, fr->cap * sizeof(uint64_t));
        }
        int *prefix = fr->prefixes + fr->count * (size_t)fr->depth * 2;
        for (int k = 0; k < fr->depth; k++) {
            prefix[2 * k] = d->frames[k].var;
            prefix[2 * k + 1] = d->frames[k].value;
        }
        fr->weights[fr->count] = weight;
    }
    fr->count++;
}

/* Walk to depth; with record, keep the prefixes and the stats above. */
static void frontier_run(struct frontier *fr, const struct cs_spec *spec,
                         int depth, bool record)
{
    fr->count = 0;
    fr->depth = depth;
    fr->record = record;
    struct cs_spec walk = *spec;
    walk.stop = NULL;
    walk.on_solution = NULL;
    walk.limits = (struct cs_limits){0};
    struct cs_engine e;
    eng_init(&e, &walk, NULL);
    e.dfs.split_at = depth;
    e.dfs.on_frontier = record_node;
    e.dfs.ud = fr;
    void *state = eng_state_new(&e);
    eng_dfs(&e, state, UINT64_MAX);
    eng_harvest(&e, state);
    fr->stats = e.dfs.stats;
    eng_state_free(&e, state);
    eng_free(&e);
}

/* The shallowest depth with at least TARGET_UNITS nodes (or the deepest the
 * tree allows), independent of the thread count so that unit numbers, and
 * so checkpoints, do not depend on it. */
static void split_tree(struct frontier *fr, const struct cs_spec *spec)
{
    int nvars = spec->problem->nvars;
    int limit = nvars < MAX_SPLIT_DEPTH ? nvars : MAX_SPLIT_DEPTH;
    int best = 1;
    uint64_t best_count = 0;
    memset(fr, 0, sizeof *fr);
    for (int depth = 1; depth <= limit; depth++) {
        frontier_run(fr, spec, depth, false);
        if (fr->count > best_count) {
            best = depth;
            best_count = fr->count;
        }
        if (fr->count >= TARGET_UNITS || fr->count == 0)
            break;
    }
    frontier_run(fr, spec, best_count ? best : 1, true);
}

static void frontier_free(struct frontier *fr)
{
    free(fr->prefixes);
    free(fr->weights);
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
    pthread_mutex_lock(&pool->w.lock);
    if (pool->olen == pool->ocap) {
        pool->ocap = pool->ocap ? 2 * pool->ocap : 16;
        pool->outbox =
            cs_xrealloc(pool->outbox, pool->ocap * sizeof *pool->outbox);
    }
    pool->outbox[pool->olen++] = (struct unit_result){unit, end, *s};
    pthread_cond_broadcast(&pool->w.wake);
    pthread_mutex_unlock(&pool->w.lock);
}

/* Search generic unit i: the body replays its prefix on a fresh state and
 * searches below it.  True if it ran to the end. */
static bool search_unit(struct pool *pool, struct cs_engine *e, uint64_t i,
                        struct cs_stats *out)
{
    struct cs_dfs *d = &e->dfs;
    const int depth = pool->fr.depth;
    void *state = eng_state_new(e);
    memset(&d->stats, 0, sizeof d->stats);
    d->base = depth;
    d->replay = pool->fr.prefixes + i * (size_t)depth * 2;
    d->base_weight = pool->fr.weights[i];
    int status = eng_dfs(e, state, UINT64_MAX);
    eng_harvest(e, state);
    eng_state_free(e, state);
    *out = d->stats;
    return status == CS_COMPLETE;
}

static void worker(void *arg, int t)
{
    struct pool *pool = arg;
    (void)t;
    const struct cs_problem *p = pool->problem;
    struct cs_spec unit_spec = *pool->spec;
    unit_spec.on_solution = NULL;
    unit_spec.limits.seconds = 0; /* the controller's to watch */
    struct cs_engine e;
    if (!p->count_unit)
        eng_init(&e, &unit_spec, &pool->stop);
    /* a profiled kernel's rows: this thread's, added to the run's at the
     * end (cs_units_validate lets no other count_unit be profiled) */
    struct cs_level *levels = NULL;
    const size_t nlevels = (size_t)p->nvars + 1;
    if (pool->spec->profile && p->count_unit)
        levels = cs_xcalloc(nlevels, sizeof *levels);
    uint64_t i;
    while (pool_take(pool, &i)) {
        struct cs_stats s = {0};
        bool whole =
            levels ? p->profile_unit(p->data, i, &pool->stop, &s, levels)
            : p->count_unit ? p->count_unit(p->data, i, &pool->stop, &s)
                            : search_unit(pool, &e, i, &s);
        finish_unit(pool, i, whole ? UNIT_WHOLE : UNIT_PARTIAL, &s);
        if (!whole)
            break;
    }
    if (levels) {
        pthread_mutex_lock(&pool->w.lock);
        for (size_t d = 0; d < nlevels; d++) {
            pool->spec->profile[d].nodes += levels[d].nodes;
            pool->spec->profile[d].fails += levels[d].fails;
            pool->spec->profile[d].solutions += levels[d].solutions;
        }
        pthread_mutex_unlock(&pool->w.lock);
        free(levels);
    }
    if (!p->count_unit)
        eng_free(&e);
}

/* Size the slice's units (pool->size) until the clock reaches until; true
 * once all are. */
static bool size_units(struct pool *pool, struct prober *pr, double until)
{
    const struct cs_problem *p = pool->problem;
    uint64_t count = pool->end - pool->first;
    while (pool->sized < count) {
        uint64_t i = pool->first + pool->sized++;
        if (p->count_unit)
            pool->size[i] = p->unit_size ? p->unit_size(p->data, i) : 1;
        else
            pool->size[i] = probe_size(
                pr, pool->fr.prefixes + i * (size_t)pool->fr.depth * 2,
                pool->fr.depth, SIZE_PROBES);
        if (!p->count_unit || p->unit_size)
            if ((pool->sized & 15) == 0 && cs_now() >= until)
                break;
    }
    return pool->sized == count;
}

/* The share of the slice's estimated work finished (*resumed: of it,
 * taken from the checkpoint; *units: the units finished, read in the same
 * pass so that the two agree while workers finish more); -1 until every
 * unit is sized. */
static double work_done(const struct pool *pool, double *resumed,
                        uint64_t *units)
{
    *resumed = -1;
    if (!pool->size || pool->sized < pool->end - pool->first)
        return -1;
    double all = 0, done = 0, old = 0;
    *units = 0;
    for (uint64_t i = pool->first; i < pool->end; i++) {
        all += pool->size[i];
        if (atomic_load(&pool->done[i])) {
            done += pool->size[i];
            ++*units;
        }
        if (pool->resumed && pool->resumed[i])
            old += pool->size[i];
    }
    if (all <= 0)
        return -1;
    *resumed = old / all;
    return done / all;
}

static void report(struct pool *pool)
{
    uint64_t finished = atomic_load(&pool->finished);
    pool->out->units.done = finished;
    if (!pool->split->on_progress)
        return;
    struct cs_progress pr = {.units_done = finished,
                             .units_total = pool->end - pool->first,
                             .units_resumed = pool->out->units.resumed,
                             .elapsed = cs_now() - pool->started};
    pr.work = work_done(pool, &pr.work_resumed, &pr.units_done);
    pool->split->on_progress(pool->split->progress_ud, &pr);
}

/* Wait for the workers (and the other ranks), stopping them on Ctrl-C or
 * the time limit.  With other ranks the controller wakes every millisecond
 * to serve them. */
static enum cs_status control(struct pool *pool)
{
    const struct cs_spec *spec = pool->spec;
    const bool remote = pool->split->distribute && cs_dist_size() > 1;
    const long tick = remote ? REMOTE_TICK_NS : TICK_NS;
    enum cs_status status = CS_COMPLETE;
    double last_report = cs_now();
    /* the units' sizes, for progress only: in the controller's idle time */
    bool sizing = pool->split->on_progress != NULL;
    struct prober pr;
    if (sizing) {
        pool->size =
            cs_xcalloc(pool->total ? pool->total : 1, sizeof *pool->size);
        probe_init(&pr, pool->problem, spec->select, spec->seed);
    }
    for (;;) {
        bool wait =
            !sizing || size_units(pool, &pr, cs_now() + (double)tick * 1e-9);
        pthread_mutex_lock(&pool->w.lock);
        if (pool->w.running > 0 && wait)
            workers_wait(&pool->w, tick);
        int running = pool->w.running;
        pthread_mutex_unlock(&pool->w.lock);
        bool remote_busy = remote && dist_master_serve(pool);
        if (!running && !remote_busy)
            break;
        if (!running)
            workers_sleep(tick);
        double now = cs_now();
        if (!pool->stop && spec->stop && *spec->stop) {
            status = CS_INTERRUPTED;
            pool->stop = 1;
        } else if (!pool->stop && spec->limits.seconds > 0 &&
                   now - pool->started >= spec->limits.seconds) {
            status = CS_LIMIT;
            pool->stop = 1;
        }
        if (now - last_report >= REPORT_EVERY) {
            last_report = now;
            report(pool);
        }
    }
    if (sizing) {
        /* a run shorter than its sizing still ends on a full line */
        if (status == CS_COMPLETE)
            size_units(pool, &pr, HUGE_VAL);
        probe_free(&pr);
    }
    return status;
}

/* [first, end) of the run's slice, checked against the split's units. */
static int slice(struct pool *pool, struct cs_error *err)
{
    const struct cs_split *s = pool->split;
    pool->first = 0;
    pool->end = pool->total;
    if (s->slice_parts) {
        /* part k of m: the first N % m parts take one unit more */
        uint64_t k = s->slice_part, m = s->slice_parts;
        uint64_t base = pool->total / m, more = pool->total % m;
        pool->first = k * base + (k < more ? k : more);
        pool->end = pool->first + base + (k < more);
        return 0;
    }
    if (!s->slice_end)
        return 0;
    if (s->slice_first >= pool->total)
        return cs_error_set(
            err, NULL,
            "units %" PRIu64 ":%" PRIu64 " start beyond the "
            "last unit: this count has %" PRIu64 " units (0:%" PRIu64 ")",
            s->slice_first, s->slice_end, pool->total, pool->total);
    pool->first = s->slice_first;
    if (s->slice_end < pool->total)
        pool->end = s->slice_end; /* a job array's last slice may
                                     overshoot */
    return 0;
}

/* The sum of the slice's units (and the nodes above the split when the
 * slice is the whole count) into out->stats and its status. */
static int sum_up(struct pool *pool, struct cs_error *err)
{
    struct cs_result *out = pool->out;
    bool overflow = false;
    struct cs_stats total = {0};
    if (pool->first == 0 && pool->end == pool->total)
        total = pool->fr.stats; /* the nodes above the split */
    for (uint64_t i = pool->first; i < pool->end; i++)
        if (atomic_load(&pool->done[i]))
            overflow |= cs_stats_add(&total, &pool->results[i]);
    overflow |= cs_stats_add(&total, &pool->partial);
    out->stats = total;
    if (out->units.done == pool->end - pool->first)
        out->status = CS_COMPLETE; /* a late Ctrl-C stopped nothing */
    else if (out->status == CS_COMPLETE)
        out->status = CS_INTERRUPTED; /* a worker gave up without a reason */
    if (pool->io_failed) {
        *err = pool->io_err;
        return -1;
    }
    if (overflow)
        return cs_error_set(err, NULL,
                            "the count overflowed 64 bits; no total printed");
    return 0;
}

/* Open (or resume) the checkpoint: the units it holds count as done. */
static int open_log(struct pool *pool, struct checkpoint *cp,
                    struct cs_error *err)
{
    const struct cs_split *s = pool->split;
    struct cs_units *u = &pool->out->units;
    struct checkpoint_head head = {s->fingerprint, pool->total,
                                   pool->problem->reports_unique,
                                   pool->fr.stats};
    head.top.seconds = 0;
    if (checkpoint_open(cp, s->checkpoint, s->resume, &head,
                        (unsigned char *)pool->done, pool->results, &u->resumed,
                        &u->torn, err))
        return -1;
    pool->cp = cp;
    u->resumed = 0; /* those of the slice */
    for (uint64_t i = pool->first; i < pool->end; i++)
        if (pool->done[i]) {
            u->resumed++;
            u->resumed_nodes += pool->results[i].nodes;
        }
    atomic_store(&pool->finished, u->resumed);
    if (u->resumed) {
        pool->resumed = cs_xcalloc(pool->total, 1);
        for (uint64_t i = pool->first; i < pool->end; i++)
            pool->resumed[i] = pool->done[i];
    }
    return 0;
}

int cs_search_units(const struct cs_spec *spec, const struct cs_split *split,
                    struct cs_result *out, struct cs_error *err)
{
    static const struct cs_split alone = {.threads = 1};
    const struct cs_problem *p = spec->problem;
    struct pool *pool = cs_xcalloc(1, sizeof *pool);
    pool->spec = spec;
    pool->split = split ? split : &alone;
    pool->out = out;
    pool->problem = p;
    pool->started = cs_now();
    if (p->count_unit) {
        pool->total = p->units;
    } else {
        split_tree(&pool->fr, spec);
        pool->total = pool->fr.count;
    }
    pool->results =
        cs_xcalloc(pool->total ? pool->total : 1, sizeof *pool->results);
    pool->done = cs_xcalloc(pool->total ? pool->total : 1, 1);
    pthread_cond_init(&pool->work, NULL);
    out->units.total = pool->total;
    atomic_init(&pool->finished, 0);
    int threads = pool->split->threads > 1 ? pool->split->threads : 1;
    bool remote = pool->split->distribute && cs_dist_size() > 1;
    struct checkpoint cp;
    int rc = slice(pool, err), started = 0;
    atomic_init(&pool->next, pool->first);
    out->units.first = pool->first;
    out->units.end = pool->end;

    if (!rc && remote && dist_rank() > 0) {
        /* another rank: search what rank 0 sends, report nothing */
        pool->fed = true;
        started = workers_start(&pool->w, threads, worker, pool);
        rc = dist_worker(pool, err);
        workers_join(&pool->w);
        goto out;
    }
    if (!rc && pool->split->checkpoint)
        rc = open_log(pool, &cp, err);
    if (!rc && remote)
        rc = dist_master_start(pool, err);
    if (rc) {
        if (remote)
            dist_master_end(pool, rc);
        goto out;
    }

    started = workers_start(&pool->w, threads, worker, pool);
    out->status = started ? control(pool) : CS_INTERRUPTED;
    workers_join(&pool->w);
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
    if (remote)
        dist_master_end(pool, rc);
out:
    if (pool->cp && checkpoint_close(&cp, rc ? NULL : err))
        rc = -1;
    pthread_cond_destroy(&pool->work);
    if (!p->count_unit)
        frontier_free(&pool->fr);
    free(pool->queue);
    free(pool->outbox);
    free(pool->results);
    free(pool->size);
    free(pool->resumed);
    free((void *)pool->done);
    free(pool);
    return rc;
}
