/* plugins.c - broken plugins for test_registry, one per PLUGIN_CASE:
 *   1  built for another ABI version
 *   2  holds no model
 *   3  a fresh model, then one called nqueens (taken by the built-ins)
 *   4  a model built for another ABI version in a plugin of this one
 *   5  no csearch_plugin at all
 *   6  a model with no name          7  a model with no setup
 *   8  a model with no options table 9  a model that can do no task
 *  10  a model with no summary
 *  11  a model whose local search reports a solution its verify refuses
 *      (the CLI's internal error, exit status 70)
 */
#include "csearch/plugin.h"

/* A model that is never searched: the registry only reads its header. */
#if PLUGIN_CASE != 2 && PLUGIN_CASE != 5 && PLUGIN_CASE != 7 &&                \
    PLUGIN_CASE != 11
static int never_set_up(const struct cs_config *cfg, const struct cs_setup *how,
                        struct cs_problem *out, struct cs_error *err)
{
    (void)cfg, (void)how, (void)out;
    return cs_error_set(err, NULL, "never set up");
}
#endif

#if PLUGIN_CASE != 2 && PLUGIN_CASE != 5 && PLUGIN_CASE != 8
static const struct cs_option no_options[] = {{.key = NULL}};
#endif

#define MODEL_WITH(var, abi, name_, summary_, options_, tasks_, setup_)        \
    static const struct cs_model var = {.abi_version = abi,                    \
                                        .name = name_,                         \
                                        .summary = summary_,                   \
                                        .options = options_,                   \
                                        .tasks = tasks_,                       \
                                        .setup = setup_}
#define MODEL(var, abi, name_)                                                 \
    MODEL_WITH(var, abi, name_, name_, no_options, CS_TASK_BIT(CS_TASK_COUNT), \
               never_set_up)
#define COUNT CS_TASK_BIT(CS_TASK_COUNT)

#if PLUGIN_CASE == 1
MODEL(fresh, CS_ABI_VERSION, "fresh");
static const struct cs_model *const models[] = {&fresh, NULL};
CS_PLUGIN_EXPORT const struct cs_plugin csearch_plugin = {CS_ABI_VERSION + 1,
                                                          models};
#elif PLUGIN_CASE == 2
static const struct cs_model *const models[] = {NULL};
CS_PLUGIN_EXPORT const struct cs_plugin csearch_plugin = {CS_ABI_VERSION,
                                                          models};
#elif PLUGIN_CASE == 3
MODEL(fresh, CS_ABI_VERSION, "fresh");
MODEL(clash, CS_ABI_VERSION, "nqueens");
CS_PLUGIN(&fresh, &clash);
#elif PLUGIN_CASE == 4
MODEL(old, CS_ABI_VERSION - 1, "old");
CS_PLUGIN(&old);
#elif PLUGIN_CASE == 6
MODEL_WITH(nameless, CS_ABI_VERSION, NULL, "x", no_options, COUNT,
           never_set_up);
CS_PLUGIN(&nameless);
#elif PLUGIN_CASE == 7
MODEL_WITH(idle, CS_ABI_VERSION, "idle", "x", no_options, COUNT, NULL);
CS_PLUGIN(&idle);
#elif PLUGIN_CASE == 8
MODEL_WITH(bare, CS_ABI_VERSION, "bare", "x", NULL, COUNT, never_set_up);
CS_PLUGIN(&bare);
#elif PLUGIN_CASE == 9
MODEL_WITH(lazy, CS_ABI_VERSION, "lazy", "x", no_options, 0, never_set_up);
CS_PLUGIN(&lazy);
#elif PLUGIN_CASE == 10
MODEL_WITH(mute, CS_ABI_VERSION, "mute", NULL, no_options, COUNT, never_set_up);
CS_PLUGIN(&mute);
#elif PLUGIN_CASE == 11
static void liar_init(void *state, const void *problem)
{
    (void)state, (void)problem;
}
static bool liar_start(void *state, uint64_t seed, volatile sig_atomic_t *stop)
{
    return (void)state, (void)seed, (void)stop, true;
}
static uint64_t liar_conflicts(const void *state)
{
    return (void)state, 0;
}
static int liar_pick(void *state, uint64_t random)
{
    return (void)state, (void)random, CS_NONE;
}
static uint64_t liar_moves(const void *state, int var)
{
    return (void)state, (void)var, 0;
}
static int64_t liar_delta(void *state, int var, uint64_t move)
{
    return (void)state, (void)var, (void)move, 0;
}
static void liar_apply(void *state, int var, uint64_t move)
{
    (void)state, (void)var, (void)move;
}
static bool liar_verify(const void *state)
{
    return (void)state, false;
}
static const struct cs_local_hooks liar_local = {.ls_start = liar_start,
                                                 .ls_conflicts = liar_conflicts,
                                                 .ls_pick = liar_pick,
                                                 .ls_moves = liar_moves,
                                                 .ls_delta = liar_delta,
                                                 .ls_apply = liar_apply};

static const struct cs_hooks liar_hooks = {.local = &liar_local,
                                           .state_size = 16,
                                           .init = liar_init,
                                           .verify = liar_verify};
static int liar_setup(const struct cs_config *cfg, const struct cs_setup *how,
                      struct cs_problem *out, struct cs_error *err)
{
    (void)cfg, (void)how, (void)err;
    out->hooks = &liar_hooks;
    out->nvars = 1;
    out->layers.local = true;
    return 0;
}
MODEL_WITH(liar, CS_ABI_VERSION, "liar", "x", no_options,
           CS_TASK_BIT(CS_TASK_SOLVE), liar_setup);
CS_PLUGIN(&liar);
#else
int not_a_plugin = 5;
#endif
