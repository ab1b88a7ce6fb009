/* plugins.c - broken plugins for test_registry, one per PLUGIN_CASE:
 *   1  built for another ABI version
 *   2  holds no model
 *   3  a fresh model, then one called nqueens (taken by the built-ins)
 *   4  a model built for another ABI version in a plugin of this one
 *   5  no csearch_plugin at all
 *   6  a model with no name          7  a model with no setup
 *   8  a model with no options table 9  a model that can do no task
 *  10  a model with no summary
 */
#include "csearch/plugin.h"

/* A model that is never searched: the registry only reads its header. */
#if PLUGIN_CASE != 2 && PLUGIN_CASE != 5 && PLUGIN_CASE != 7
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

#define MODEL_WITH(var, abi, name_, summary_, options_, tasks_, setup_)      \
    static const struct cs_model var = {.abi_version = abi,                  \
                                        .name = name_,                       \
                                        .summary = summary_,                 \
                                        .options = options_,                 \
                                        .tasks = tasks_,                     \
                                        .setup = setup_}
#define MODEL(var, abi, name_)                                               \
    MODEL_WITH(var, abi, name_, name_, no_options,                           \
               CS_TASK_BIT(CS_TASK_COUNT), never_set_up)
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
MODEL_WITH(mute, CS_ABI_VERSION, "mute", NULL, no_options, COUNT,
           never_set_up);
CS_PLUGIN(&mute);
#else
int not_a_plugin = 5;
#endif
