/* engine.c - running a search: set-up, the generic instance, polling.
 *
 * cs_search() allocates the stack and the state, hands them to the model's
 * own instance of the engine body (hooks->search) or to the generic one
 * below, and gathers the statistics.  Everything that is not per node (the
 * clock, limits, the interrupt flag) lives in cs_poll, called every
 * CS_POLL_NODES nodes, so the hot loop stays small.
 */
#define _POSIX_C_SOURCE 200809L
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "csearch/dfs.h"
#include "csearch/dist.h"
#include "csearch/engine.h"
#include "units.h"

double cs_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static uint64_t next_poll_after(const struct cs_run *run, uint64_t nodes)
{
    uint64_t next = nodes + CS_POLL_NODES;
    return next < run->node_cap ? next : run->node_cap;
}

int cs_poll(struct cs_run *run, uint64_t nodes)
{
    if (nodes >= run->node_cap)
        return CS_LIMIT;
    if (run->stop && *run->stop)
        return CS_INTERRUPTED;
    if (run->limits.seconds > 0 &&
        cs_now() - run->started >= run->limits.seconds)
        return CS_LIMIT;
    run->next_poll = next_poll_after(run, nodes);
    return -1;
}

/* The engine body with a table known only at run time. */
static int generic_search(struct cs_run *run, void *state)
{
    return cs_dfs(run, state, run->problem->hooks);
}

/* A trace runs the generic instance even for a table that has its own, with
 * the table's search slot cleared: cs_dfs traces only such a table. */
static int traced_search(struct cs_run *run, void *state)
{
    struct cs_hooks hooks = *run->problem->hooks;
    hooks.search = NULL;
    return cs_dfs(run, state, &hooks);
}

/* ---- branch and bound ---------------------------------------------------
 *
 * The DFS itself prunes every node whose bound reaches run->incumbent and
 * takes each cheaper goal as the new incumbent (dfs.h).  Around it: the root
 * bound, the final status (a finished tree proves the incumbent optimal, or
 * that there is no solution at all) and, for a model with a relax hook,
 * large-neighbourhood rounds: fix most of the incumbent, search the rest by
 * branch and bound under a node budget, keep what improves, repeat. */

static int run_dfs(struct cs_run *run, void *state)
{
    const struct cs_hooks *h = run->problem->hooks;
    return run->on_trace ? traced_search(run, state)
           : h->search   ? h->search(run, state)
                         : generic_search(run, state);
}

/* on_solution while relaxing: keep a copy of the new incumbent, then tell
 * the caller. */
struct keeper {
    cs_solution_fn on_solution;
    void *ud;
};

static bool keep_best(void *ud, const struct cs_hooks *h, const void *state,
                      uint64_t weight)
{
    struct cs_run *run = ud;
    const struct keeper *k = (const struct keeper *)run->best;
    memcpy(run->best + sizeof *k, state, cs_problem_state_size(run->problem));
    return k->on_solution ? k->on_solution(k->ud, h, state, weight) : true;
}

static bool out_of_time(const struct cs_run *run)
{
    return (run->stop && *run->stop) ||
           (run->limits.seconds > 0 &&
            cs_now() - run->started >= run->limits.seconds) ||
           (run->limits.nodes && run->stats.nodes >= run->limits.nodes);
}

static int relax_rounds(struct cs_run *run, void *state)
{
    const struct cs_problem *p = run->problem;
    const struct cs_hooks *h = p->hooks;
    size_t size = cs_problem_state_size(p);
    struct keeper k = {run->on_solution, run->ud};
    run->best = cs_xcalloc(1, sizeof k + size);
    memcpy(run->best, &k, sizeof k);
    run->on_solution = keep_best;
    run->ud = run;

    /* round 0: the plain search, up to its first solution */
    run->solution_cap = 1;
    int status = run_dfs(run, state);
    run->solution_cap = UINT64_MAX;
    for (uint64_t round = 1; status == CS_LIMIT && run->stats.solutions &&
                             run->incumbent > run->bound && !out_of_time(run);
         round++) {
        if (h->collect)
            h->collect(state, &run->stats);
        if (h->fini)
            h->fini(state);
        memset(state, 0, size);
        h->init(state, p->data);
        h->relax(state, run->best + sizeof k, round);
        uint64_t left = run->limits.nodes ? run->limits.nodes -
                                                run->stats.nodes
                                          : UINT64_MAX;
        run->node_cap = left < p->relax_nodes ? left : p->relax_nodes;
        run->next_poll = next_poll_after(run, 0);
        status = run_dfs(run, state);
        if (status == CS_COMPLETE)
            status = CS_LIMIT; /* a neighbourhood done proves nothing */
    }
    if (run->stop && *run->stop)
        status = CS_INTERRUPTED;
    run->on_solution = k.on_solution;
    run->ud = k.ud;
    free(run->best);
    run->best = NULL;
    return status;
}

static int optimize(struct cs_run *run, void *state)
{
    const struct cs_hooks *h = run->problem->hooks;
    run->incumbent = INT64_MAX;
    run->bound = h->bound(state);
    int status = h->relax && run->problem->relax_nodes
                     ? relax_rounds(run, state)
                     : run_dfs(run, state);
    bool found = run->stats.solutions > 0;
    run->cost = found ? run->incumbent : 0;
    if (status == CS_COMPLETE || (found && run->incumbent <= run->bound)) {
        run->bound = found ? run->incumbent : run->bound;
        return found ? CS_OPTIMAL : CS_INFEASIBLE;
    }
    return status;
}

int cs_run_validate(const struct cs_run *run, struct cs_error *err)
{
    const struct cs_hooks *h = run->problem->hooks;
    if (!h->init || !h->select || !h->first || !h->next || !h->apply)
        return cs_error_set(err, NULL,
                            "model hooks lack init, select, first, next or "
                            "apply");
    if (run->select == CS_SELECT_MRV && !h->domain_size)
        return cs_error_set(err, NULL,
                            "this model cannot select mrv: it reports no "
                            "domain sizes");
    if (run->task == CS_TASK_OPTIMIZE && (!h->cost || !h->bound))
        return cs_error_set(err, NULL,
                            "this model cannot optimize: it has no cost");
    if (run->task == CS_TASK_OPTIMIZE && h->relax &&
        run->problem->relax_nodes && !run->limits.seconds &&
        !run->limits.nodes)
        return cs_error_set(err, NULL,
                            "neighbourhood rounds run until a limit: set "
                            "limits.seconds or limits.nodes");
    bool split = run->threads > 1 || run->checkpoint;
    bool slice = run->slice_end || run->slice_parts;
    if (slice && !run->checkpoint)
        return cs_error_set(err, NULL,
                            "a slice of units needs a log: --checkpoint "
                            "FILE or --resume FILE");
    if (run->slice_end && run->slice_first >= run->slice_end)
        return cs_error_set(err, NULL,
                            "units %" PRIu64 ":%" PRIu64 " is an empty slice",
                            run->slice_first, run->slice_end);
    if (run->slice_parts && run->slice_part >= run->slice_parts)
        return cs_error_set(err, NULL,
                            "units %" PRIu64 "/%" PRIu64 ": parts are "
                            "numbered from 0 to %" PRIu64,
                            run->slice_part, run->slice_parts,
                            run->slice_parts - 1);
    if (split && run->task != CS_TASK_COUNT)
        return cs_error_set(err, NULL,
                            "%s need task count",
                            slice ? "slices of units"
                                  : "threads and checkpoints");
    if (run->task == CS_TASK_COUNT && cs_dist_size() > 1)
        split = true; /* every count is shared out under mpirun */
    /* name what splits this run when it is more than threads */
    const char *by = cs_dist_size() > 1 ? "MPI ranks"
                     : slice            ? "slices of units"
                                        : NULL;
    if (split && (run->limits.nodes || run->limits.solutions))
        return cs_error_set(err, NULL,
                            "%s cannot honour limits.nodes or "
                            "limits.solutions exactly",
                            by ? by : "threads and checkpoints");
    if (run->on_trace && (split || (run->task == CS_TASK_COUNT &&
                                    run->problem->count_unit)))
        return cs_error_set(err, NULL,
                            "a trace follows one search: it cannot be split "
                            "%s%s",
                            by && split ? "across " : "",
                            by && split ? by
                                        : "by threads, checkpoints or a "
                                          "counting kernel");
    if (run->problem->nvars < 0)
        return cs_error_set(err, NULL, "model reports %d variables",
                            run->problem->nvars);
    return 0;
}

int cs_search(struct cs_run *run, struct cs_error *err)
{
    if (cs_run_validate(run, err))
        return -1;
    const struct cs_problem *p = run->problem;
    const struct cs_hooks *h = p->hooks;
    bool split = run->threads > 1 || run->checkpoint || cs_dist_size() > 1;

    memset(&run->stats, 0, sizeof run->stats);
    run->units_total = run->units_done = run->units_resumed = 0;
    run->checkpoint_torn = false;
    run->base_weight = 1;
    if (run->task == CS_TASK_COUNT && (p->count_unit || split)) {
        run->started = cs_now();
        int rc = cs_search_units(run, err);
        run->stats.seconds = cs_now() - run->started;
        return rc;
    }

    run->frames = cs_xcalloc((size_t)p->nvars + 1, sizeof *run->frames);
    size_t state_size = cs_problem_state_size(p);
    run->saved = h->undo ? NULL
                         : cs_xmalloc(((size_t)p->nvars + 1) *
                                      cs_state_stride(state_size));
    run->node_cap = run->limits.nodes ? run->limits.nodes : UINT64_MAX;
    run->solution_cap =
        run->limits.solutions ? run->limits.solutions : UINT64_MAX;
    void *state = cs_xcalloc(1, state_size);

    run->started = cs_now();
    run->next_poll = next_poll_after(run, 0);
    h->init(state, p->data);
    int status = run->task == CS_TASK_OPTIMIZE ? optimize(run, state)
                                               : run_dfs(run, state);
    run->stats.seconds = cs_now() - run->started;
    if (h->collect)
        h->collect(state, &run->stats);
    /* a solve that searched its whole tree and found nothing proved that
     * there is no solution */
    if (run->task == CS_TASK_SOLVE && status == CS_COMPLETE &&
        !run->stats.solutions)
        status = CS_INFEASIBLE;
    run->status = (enum cs_status)status;

    if (h->fini)
        h->fini(state);
    free(state);
    free(run->frames);
    free(run->saved);
    run->frames = NULL;
    run->saved = NULL;
    return 0;
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
    static const char *const names[] = {"complete", "limit", "interrupted",
                                        "infeasible", "optimal"};
    return (unsigned)status < sizeof names / sizeof *names ? names[status]
                                                           : "unknown";
}

const char *cs_task_name(enum cs_task task)
{
    static const char *const names[] = {"count", "solve", "enumerate",
                                        "optimize"};
    return (unsigned)task < sizeof names / sizeof *names ? names[task]
                                                         : "unknown";
}
