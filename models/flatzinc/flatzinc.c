/* flatzinc.c - the model `flatzinc`: any MiniZinc model, flattened.
 *
 * params.file names a FlatZinc file (minizinc -c, or what `minizinc
 * --solver csearch` hands fzn-csearch).  The search follows the solve
 * item's annotations, or free search: dom/wdeg on every variable, restarts
 * for a first solution and, under optimize with a limit, neighbourhood
 * rounds, all from the framework's layers.  strategy.search says which; auto
 * takes the annotations when the file has any.
 */
#include <stdlib.h>
#include <string.h>

#include "csearch/engine.h"
#include "flatzinc.h"

#define FZN_SEARCHES(X)                                                        \
    X(FZN_SEARCH_AUTO, "auto")                                                 \
    X(FZN_SEARCH_ANNOTATIONS, "annotations")                                   \
    X(FZN_SEARCH_FREE, "free")

#define FZN_ENUM_CONSTANT(constant, name) constant,
enum fzn_search { FZN_SEARCHES(FZN_ENUM_CONSTANT) };
#undef FZN_ENUM_CONSTANT
#define FZN_ENUM_NAME(constant, name) name,
static const char *const search_names[] = {FZN_SEARCHES(FZN_ENUM_NAME) NULL};
#undef FZN_ENUM_NAME

/* Free search's layers: the first restart budget (nodes, Luby-scaled) and
 * the nodes of a neighbourhood round. */
#define FZN_RESTART_NODES 100
#define FZN_LNS_NODES 1000

static const struct cs_option fzn_options[] = {
    {.key = "params.file",
     .type = CS_OPT_STRING,
     .help = "the FlatZinc file (required; minizinc -c model.mzn), "
             "relative to the config's folder"},
    {.key = "strategy.search",
     .type = CS_OPT_ENUM,
     .def = "auto",
     .choices = search_names,
     .help = "annotations: the solve item's int_search, bool_search and "
             "seq_search, then the other variables; free: dom/wdeg on every "
             "variable, restarts, and neighbourhood rounds under optimize with "
             "a limit; "
             "auto: annotations when the file has any"},
    {.key = NULL},
};

static int fzn_setup(const struct cs_config *cfg, const struct cs_setup *how,
                     struct cs_problem *out, struct cs_error *err)
{
    if (!cs_config_has(cfg, "params.file"))
        return cs_error_at(err, cs_config_missing_pos(cfg, "params.file"),
                           "missing key 'params.file' (a FlatZinc file)");
    char *path = cs_config_path(cfg, "params.file");
    struct fzn_problem *p;
    int rc = fzn_problem_read(path, &p, err);
    free(path);
    if (rc)
        return -1;
    if (how->task == CS_TASK_OPTIMIZE && p->goal == FZN_SATISFY) {
        fzn_problem_free(p);
        return cs_error_at(err, cs_config_pos(cfg, "task"),
                           "task optimize needs a file that minimizes or "
                           "maximizes (this one satisfies)");
    }
    enum fzn_search search =
        (enum fzn_search)cs_config_enum(cfg, "strategy.search");
    if (search == FZN_SEARCH_AUTO)
        search = p->ngroups ? FZN_SEARCH_ANNOTATIONS : FZN_SEARCH_FREE;
    p->free_search = search == FZN_SEARCH_FREE;
    p->cut_by_cost = how->task == CS_TASK_OPTIMIZE;
    /* a little after the engine's own limit, which starts counting later */
    if (how->limits.seconds > 0)
        p->store->deadline = cs_now() + how->limits.seconds + 0.05;
    *out = (struct cs_problem){
        .hooks = &fzn_hooks,
        .data = p,
        .free_data = fzn_problem_free,
        .nvars = p->store->nvars,
        .state_size = sizeof(struct fzn_state) +
                      (size_t)p->store->nvars * sizeof(int32_t),
        .max_values = p->max_values,
        .kernel = "propagation",
    };
    if (p->free_search) {
        /* restarts and rounds need something to learn from: dom/wdeg's
         * weights live in the state, which a restart keeps */
        out->layers.restarts = CS_RESTARTS_LUBY;
        out->layers.restart_nodes = FZN_RESTART_NODES;
        /* rounds never prove the optimum: only under a limit, where
         * the best found by the limit is what counts; without one the
         * branch and bound runs to its proof */
        if (how->task == CS_TASK_OPTIMIZE &&
            (how->limits.seconds > 0 || how->limits.nodes))
            out->layers.lns_nodes = FZN_LNS_NODES;
    }
    cs_problem_chose(out, "strategy.search", "%s",
                     search_names[p->free_search ? FZN_SEARCH_FREE
                                                 : FZN_SEARCH_ANNOTATIONS]);
    return 0;
}

const struct cs_model cs_flatzinc_model = {
    .abi_version = CS_ABI_VERSION,
    .name = "flatzinc",
    .summary = "any MiniZinc model, flattened to FlatZinc (minizinc -c, or "
               "minizinc --solver csearch)",
    .options = fzn_options,
    .tasks = CS_TASKS_TREE | CS_TASK_BIT(CS_TASK_OPTIMIZE),
    .setup = fzn_setup,
};
