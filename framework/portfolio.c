/* portfolio.c - threads running differently seeded searches (a layer).
 *
 * Thread t of T runs the very search one thread would (layer_run: restarts,
 * rounds, branch and bound) with seed + t, shuffled value orders for t > 0
 * where the model allows them, neighbourhood rounds t + 1, t + 1 + T, ...,
 * and on odd t the model's second way of walking bursts where it offers
 * one (cs_problem.bursts_alt).  What the threads share sits behind one lock:
 * the best cost so far (each thread's body takes it at its next poll and prunes
 * by it), under neighbourhood rounds the best solution itself (each round frees
 * part of the best any thread has found, not of its own), and whether the
 * portfolio is done (a first solution for solve; a proof, for
 * any task).  Solutions reach the caller one at a time, and under optimize
 * only those that improve on every thread's best.
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "layers.h"
#include "workers.h"

struct cs_shared {
    pthread_mutex_t lock;
    _Atomic int_fast64_t incumbent; /* INT64_MAX: none yet */
    atomic_int done;
    bool found;            /* under lock: a solution delivered */
    unsigned char *best;   /* under lock: the best state, rounds */
    uint64_t best_version; /* under lock: bumped with each best */
    uint64_t delivered;    /* under lock: how many */
    bool stopped;          /* under lock: on_solution said stop */
};

struct member {
    struct cs_spec spec;
    struct cs_engine e;
    struct cs_shared *shared;
    int status;
    struct cs_result result; /* what layer_run reports */
};

struct portfolio {
    const struct cs_spec *spec;
    struct member *members;
    int threads;
    struct cs_shared shared;
};

static void shared_poll(struct cs_engine *e)
{
    int64_t best = atomic_load(&e->peers.shared->incumbent);
    if (best < e->dfs.incumbent)
        e->dfs.incumbent = best;
}

static bool shared_done(const struct cs_engine *e)
{
    return atomic_load(&e->peers.shared->done);
}

/* A thread found a solution of this cost: share it (optimize), or end the
 * portfolio (solve); then the caller's on_solution, one thread at a time.
 * Returns what on_solution returned. */
static bool share_solution(struct cs_engine *e, const void *state,
                           uint64_t weight)
{
    struct cs_shared *sh = e->peers.shared;
    bool go_on = true;
    pthread_mutex_lock(&sh->lock);
    bool deliver;
    if (e->spec->task == CS_TASK_OPTIMIZE) {
        deliver = e->dfs.incumbent < atomic_load(&sh->incumbent);
        if (deliver) {
            atomic_store(&sh->incumbent, e->dfs.incumbent);
            size_t size = cs_problem_state_size(e->problem);
            if (!sh->best)
                sh->best = cs_xmalloc(size);
            memcpy(sh->best, state, size);
            sh->best_version++;
        }
    } else {
        deliver = !sh->found;
        atomic_store(&sh->done, 1);
    }
    if (deliver && !sh->stopped) {
        sh->found = true;
        sh->delivered++;
        if (e->spec->on_solution &&
            !e->spec->on_solution(e->spec->ud, e->problem->hooks, state,
                                  weight)) {
            sh->stopped = true;
            atomic_store(&sh->done, 1);
        }
    }
    go_on = !sh->stopped;
    pthread_mutex_unlock(&sh->lock);
    return go_on;
}

static void shared_best(struct cs_engine *e, void *best, uint64_t *version)
{
    struct cs_shared *sh = e->peers.shared;
    pthread_mutex_lock(&sh->lock);
    if (sh->best && sh->best_version != *version) {
        memcpy(best, sh->best, cs_problem_state_size(e->problem));
        *version = sh->best_version;
    }
    pthread_mutex_unlock(&sh->lock);
}

static bool shared_solution(void *ud, const struct cs_hooks *h,
                            const void *state, uint64_t weight)
{
    (void)h;
    return share_solution(ud, state, weight);
}

static const struct eng_share portfolio_share = {
    .poll = shared_poll, .done = shared_done, .best = shared_best};

static void run_member(void *arg, int t)
{
    struct portfolio *pf = arg;
    struct member *m = &pf->members[t];
    struct cs_engine *e = &m->e;
    m->spec = *pf->spec;
    m->spec.seed = pf->spec->seed + (uint64_t)t;
    if (t > 0 && m->spec.problem->max_values > 0)
        m->spec.layers.shuffle = true;
    eng_init(e, &m->spec, NULL);
    if (t % 2 && m->spec.problem->bursts_alt_set)
        e->bursts = &m->spec.problem->bursts_alt;
    e->peers = (struct eng_peers){.share = &portfolio_share,
                                  .shared = &pf->shared,
                                  .round_offset = (uint64_t)t << 32};
    e->dfs.on_solution = shared_solution;
    e->dfs.ud = e;
    void *state = eng_state_new(e);
    m->status = layer_run(e, state, &m->result);
    /* a search that ended by itself proved something: the others stop */
    if (m->status == CS_COMPLETE || m->status == CS_OPTIMAL ||
        m->status == CS_INFEASIBLE)
        atomic_store(&pf->shared.done, 1);
    eng_state_free(e, state);
}

/* The threads' statuses as one: a proof or a solution first. */
static enum cs_status merged_status(const struct portfolio *pf,
                                    struct cs_result *out)
{
    const struct cs_shared *sh = &pf->shared;
    bool optimizing = pf->spec->task == CS_TASK_OPTIMIZE;
    bool proof = false, interrupted = false;
    for (int t = 0; t < pf->threads; t++) {
        int s = pf->members[t].status;
        proof |= s == CS_COMPLETE || s == CS_OPTIMAL || s == CS_INFEASIBLE;
        interrupted |= s == CS_INTERRUPTED;
        if (pf->members[t].result.bound > out->bound)
            out->bound = pf->members[t].result.bound;
    }
    if (optimizing && sh->found) {
        out->cost = atomic_load(&sh->incumbent);
        /* a tree searched through, pruned by the shared best, proves it */
        if (proof || out->cost <= out->bound) {
            out->bound = out->cost;
            return CS_OPTIMAL;
        }
    } else if (!optimizing && sh->found && !sh->stopped) {
        return CS_COMPLETE;
    } else if (proof && !sh->found) {
        return CS_INFEASIBLE;
    }
    /* a limit, or a stop on_solution asked for */
    return interrupted && !sh->stopped ? CS_INTERRUPTED : CS_LIMIT;
}

int layer_portfolio(const struct cs_spec *spec, int threads,
                    struct cs_result *out, struct cs_error *err)
{
    struct portfolio pf = {.spec = spec, .threads = threads};
    pf.members = cs_xcalloc((size_t)threads, sizeof *pf.members);
    pthread_mutex_init(&pf.shared.lock, NULL);
    atomic_init(&pf.shared.incumbent, INT64_MAX);
    atomic_init(&pf.shared.done, 0);
    struct workers w;
    int started = workers_run(&w, threads, run_member, &pf);
    workers_join(&w);
    pf.threads = started;
    int rc = 0;
    if (started < threads)
        rc = cs_error_set(err, NULL, "cannot start a worker thread");
    out->bound = INT64_MIN;
    out->first_seconds = -1;
    for (int t = 0; t < started; t++) {
        const struct cs_stats *s = &pf.members[t].e.dfs.stats;
        const struct cs_result *r = &pf.members[t].result;
        if (!t || r->root_bound > out->root_bound)
            out->root_bound = r->root_bound;
        if (r->first_seconds >= 0 &&
            (out->first_seconds < 0 || r->first_seconds < out->first_seconds))
            out->first_seconds = r->first_seconds;
        cs_stats_add(&out->stats, s); /* solutions: the delivered, below */
        out->restarts += r->restarts;
        out->rounds += r->rounds;
        out->steps += r->steps;
        out->large_moves += r->large_moves;
        out->adoptions += r->adoptions;
        eng_free(&pf.members[t].e);
    }
    out->stats.solutions = pf.shared.delivered;
    out->status = started ? merged_status(&pf, out) : CS_INTERRUPTED;
    if (out->bound == INT64_MIN)
        out->bound = 0;
    out->portfolio = threads;
    free(pf.shared.best);
    pthread_mutex_destroy(&pf.shared.lock);
    free(pf.members);
    return rc;
}
