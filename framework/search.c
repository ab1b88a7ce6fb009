/* search.c - the entry point: cs_spec_validate() checks a spec, and
 * cs_search() hands the run to task estimate's probes (estimate.c), to local
 * search (local.c), to the work units of a count that splits (units.c), to
 * a portfolio of threads for solve or optimize (portfolio.c), or to one
 * engine running the layers the spec asks for (layers.c).  The top of the
 * engine: it calls down into those files, none of them calls up into it.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdint.h>
#include <string.h>

#include "engine_impl.h"
#include "estimate.h"
#include "layers.h"
#include "search.h"
#include "units.h"

/* A given assignment (cs_problem.given) has one path to search: no layer,
 * thread or split can add to it, so it runs as one plain search; as
 * optimize when the hooks have a cost, so the result carries it. */
static const struct cs_spec *given_spec(const struct cs_spec *spec,
                                        struct cs_spec *plain)
{
    const struct cs_hooks *h = spec->problem->hooks;
    *plain = *spec;
    plain->layers = (struct cs_layers){0};
    if (h->cost && h->bound)
        plain->task = CS_TASK_OPTIMIZE;
    return plain;
}

/* The checks of spec (cs_spec_validate); *key: the config key the failed
 * check concerns (the setting to blame), or NULL. */
int spec_validate_key(const struct cs_spec *spec, const struct cs_split *split,
                      struct cs_error *err, const char **key)
{
    struct cs_spec plain;
    *key = NULL;
    if (spec->problem->given) { /* searched as cs_search searches it */
        spec = given_spec(spec, &plain);
        split = NULL;
    }
    const struct cs_problem *p = spec->problem;
    const struct cs_hooks *h = p->hooks;
    const bool threads = split && split->threads > 1;
    if (spec->layers.moves && spec->task == CS_TASK_OPTIMIZE &&
        !cs_hooks_local(h)) {
        *key = "strategy.local_moves";
        return cs_error_set(err, NULL,
                            "this model has no local moves (the ls_* "
                            "hooks)");
    }
    if (spec->layers.moves &&
        (!cs_bursts_cooling(&p->bursts) ||
         (p->bursts_alt_set && !cs_bursts_cooling(&p->bursts_alt))))
        return cs_error_set(err, NULL,
                            "annealing needs temperatures 0 < anneal_t1 <= "
                            "anneal_t0");
    if (spec->profile && (spec->layers.local || spec->task == CS_TASK_ESTIMATE))
        return cs_error_set(err, NULL,
                            "%s has no levels to profile: the profile counts "
                            "the nodes of a tree search",
                            spec->layers.local ? "local search"
                                               : "task estimate");
    if (spec->layers.local) {
        if (!h->init || !cs_hooks_local(h))
            return cs_error_set(err, NULL,
                                "this model has no local search (the ls_* "
                                "hooks)");
        if (spec->task != CS_TASK_SOLVE)
            return cs_error_set(err, NULL, "local search needs task solve");
        if (cs_split_wanted(split)) {
            *key = threads ? "strategy.threads" : NULL;
            return cs_error_set(err, NULL, "local search runs on one thread%s",
                                threads ? "" : ", without checkpoints");
        }
        return 0;
    }
    if (!h->init || !h->select || !h->next || !h->apply)
        return cs_error_set(err, NULL,
                            "model hooks lack init, select, next or apply");
    if (!cs_select_possible(spec->select, h)) {
        *key = "strategy.select";
        return cs_error_set(err, NULL,
                            "this model cannot select %s with these settings",
                            cs_select_names[spec->select]);
    }
    if (spec->task == CS_TASK_OPTIMIZE && (!h->cost || !h->bound))
        return cs_error_set(err, NULL,
                            "this model cannot optimize: it has no cost");
    if (spec->task == CS_TASK_OPTIMIZE && h->relax && spec->layers.lns_nodes &&
        !spec->limits.seconds && !spec->limits.nodes)
        return cs_error_set(err, NULL,
                            "neighbourhood rounds run until a limit: set "
                            "limits.seconds or limits.nodes");
    if (p->nvars < 0)
        return cs_error_set(err, NULL, "model reports %d variables", p->nvars);
    if (spec->task == CS_TASK_ESTIMATE && cs_split_wanted(split)) {
        *key = threads ? "strategy.threads" : NULL;
        return cs_error_set(err, NULL, "task estimate runs on one thread%s",
                            threads ? "" : ", without checkpoints");
    }
    if (spec->task == CS_TASK_ESTIMATE && spec->on_trace)
        return cs_error_set(err, NULL, "task estimate cannot be traced");
    if (spec->task == CS_TASK_COUNT || cs_split_wanted(split))
        return cs_units_validate(spec, split, err, key);
    return 0;
}

int cs_spec_validate(const struct cs_spec *spec, const struct cs_split *split,
                     struct cs_error *err)
{
    const char *key;
    return spec_validate_key(spec, split, err, &key);
}

/* A search that is not split: the split's progress line, and under
 * optimize the bound it shows (asked of the root state, as the branch and
 * bound asks it). */
static void progress_from(struct cs_engine *e, const struct cs_split *split,
                          void *state)
{
    if (!split || !split->on_progress)
        return;
    e->progress = (struct eng_progress){.fn = split->on_progress,
                                        .ud = split->progress_ud,
                                        .shown = e->started};
    if (e->spec->task == CS_TASK_OPTIMIZE)
        e->progress.bound = e->problem->hooks->bound(state);
}

/* The bound of one assignment proves nothing about others: a solution
 * found is checked, never optimal, and has no bound. */
static void mark_checked(struct cs_result *out)
{
    if (out->stats.solutions &&
        (out->status == CS_OPTIMAL || out->status == CS_COMPLETE)) {
        out->status = CS_CHECKED;
        out->bound = 0;
    }
}

int cs_search(const struct cs_spec *spec, const struct cs_split *split,
              struct cs_result *out, struct cs_error *err)
{
    memset(out, 0, sizeof *out);
    struct cs_spec plain;
    const bool given = spec->problem->given;
    if (given) {
        spec = given_spec(spec, &plain);
        split = NULL;
    }
    if (cs_spec_validate(spec, split, err))
        return -1;
    const struct cs_problem *p = spec->problem;
    double started = cs_now();
    int rc = 0;
    if (spec->task == CS_TASK_ESTIMATE)
        rc = estimate_search(spec, split, out);
    else if (spec->layers.local)
        rc = layer_local(spec, split, out, err);
    else if (spec->task == CS_TASK_COUNT &&
             (p->count_unit || cs_split_wanted(split)))
        rc = cs_search_units(spec, split, out, err);
    else if (split && split->threads > 1)
        rc = layer_portfolio(spec, split->threads, out, err);
    else {
        struct cs_engine e;
        eng_init(&e, spec, NULL);
        void *state = eng_state_new(&e);
        progress_from(&e, split, state);
        out->status = (enum cs_status)layer_run(&e, state, out);
        eng_progress(&e, true);
        out->stats = e.dfs.stats;
        eng_state_free(&e, state);
        eng_free(&e);
    }
    if (given)
        mark_checked(out);
    out->stats.seconds = cs_now() - started;
    return rc;
}
