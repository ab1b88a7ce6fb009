/* csearch/plugin.h - models in a shared library of their own.
 *
 * A plugin is a shared library built against the installed headers and
 * libcsearch (find_package(csearch), docs/own-model.md) that exports one
 * object, `csearch_plugin`: the ABI version it was compiled for and its
 * models.  A config names the library with the top-level key `plugin:`; the
 * csearch command loads it with dlopen() before it looks the model up, so a
 * model of your own runs without rebuilding csearch.  abi_version comes
 * first and keeps its place in every version, so a csearch of any version
 * can read it and refuse a plugin built for another one.
 *
 * In the plugin's source, after its models:
 *
 *     CS_PLUGIN(&map_model);            (one or more, comma-separated)
 *
 * or, for a plugin of one model, its definition and the export in one go:
 *
 *     CS_PLUGIN_MODEL(map_model, .name = "map", .setup = map_setup, ...);
 */
#ifndef CSEARCH_PLUGIN_H
#define CSEARCH_PLUGIN_H

#include "csearch/model.h"

/* what the headers declare is libcsearch's interface; the rest is hidden */
#pragma GCC visibility push(default)

/* The name of the object a plugin exports (for dlsym). */
#define CS_PLUGIN_SYMBOL "csearch_plugin"

struct cs_plugin {
    int abi_version;                      /* CS_ABI_VERSION; stays first */
    const struct cs_model *const *models; /* NULL-terminated */
};

#if defined(__GNUC__)
#define CS_PLUGIN_EXPORT __attribute__((visibility("default")))
#else
#define CS_PLUGIN_EXPORT
#endif

/* Define the exported csearch_plugin for the models given (pointers to
 * const struct cs_model). */
#define CS_PLUGIN(...)                                                         \
    static const struct cs_model *const cs_plugin_models[] = {__VA_ARGS__,     \
                                                              NULL};           \
    extern CS_PLUGIN_EXPORT const struct cs_plugin csearch_plugin;             \
    CS_PLUGIN_EXPORT const struct cs_plugin csearch_plugin = {                 \
        CS_ABI_VERSION, cs_plugin_models}

/* Define `const struct cs_model var` (this ABI version, the fields given)
 * and export it as the plugin's one model. */
#define CS_PLUGIN_MODEL(var, ...)                                              \
    const struct cs_model var = {.abi_version = CS_ABI_VERSION, __VA_ARGS__};  \
    CS_PLUGIN(&var)

#pragma GCC visibility pop

#endif
