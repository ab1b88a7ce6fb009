/* plugins.c - broken plugins for test_registry, one per PLUGIN_CASE:
 *   1  built for another ABI version
 *   2  holds no model
 *   3  a fresh model, then one called nqueens (taken by the built-ins)
 *   4  a model built for another ABI version in a plugin of this one
 *   5  no csearch_plugin at all
 */
#include "csearch/plugin.h"

/* A model that is never searched: the registry only reads its header. */
#define MODEL(var, abi, name_)                                               \
    static const struct cs_option var##_options[] = {{.key = NULL}};        \
    static const struct cs_model var = {.abi_version = abi,                  \
                                        .name = name_,                       \
                                        .summary = name_,                    \
                                        .options = var##_options,            \
                                        .tasks = CS_TASK_BIT(CS_TASK_COUNT)}

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
#else
int not_a_plugin = 5;
#endif
