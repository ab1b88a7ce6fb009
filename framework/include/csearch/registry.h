/* csearch/registry.h - models by name.
 *
 * The CLI registers the built-in models at start-up, and the models of the
 * plugin a config names (csearch/plugin.h); a config's `model:` key is
 * looked up here.  The registry holds borrowed pointers to `const struct
 * cs_model`s, which must outlive it; the plugins it loaded stay loaded until
 * it is freed.
 */
#ifndef CSEARCH_REGISTRY_H
#define CSEARCH_REGISTRY_H

#include <stddef.h>

#include "csearch/model.h"

/* what the headers declare is libcsearch's interface; the rest is hidden */
#pragma GCC visibility push(default)

struct cs_registry; /* opaque */

struct cs_registry *cs_registry_new(void);
void cs_registry_free(struct cs_registry *reg);

/* Add a model.  Fails (err) if its ABI version is not CS_ABI_VERSION, if
 * it lacks a part ("a model has no name", "model 'NAME' has no summary",
 * "... no options table", "... no task", "... no setup") or if its name is
 * taken. */
int cs_registry_add(struct cs_registry *reg, const struct cs_model *model,
                    struct cs_error *err);

/* The model called name, or NULL. */
const struct cs_model *cs_registry_find(const struct cs_registry *reg,
                                        const char *name);

/* Models in name order: the i-th, or NULL past the end. */
size_t cs_registry_count(const struct cs_registry *reg);
const struct cs_model *cs_registry_at(const struct cs_registry *reg, size_t i);

/* Load the plugin library at path with dlopen() and register its models.
 * Errors, positioned at pos (the config's plugin: value):
 *   cannot load plugin: <dlerror text>
 *   'PATH' is not a csearch plugin: it has no symbol csearch_plugin
 *   plugin 'PATH' was built for ABI version A, this csearch has B
 *   plugin 'PATH' holds no model
 *   plugin 'PATH': <what cs_registry_add says> (a part missing, a name
 *                  taken twice)
 * On an error no model of the plugin stays registered. */
int cs_registry_load_plugin(struct cs_registry *reg, const char *path,
                            struct cs_pos pos, struct cs_error *err);

/* The plugin that cfg's top-level key `plugin:` names, if any (0 and
 * nothing loaded when there is none).  A relative path is taken from the
 * config file's folder, or from the working directory when the key comes
 * from --set.  A value that is not a non-empty scalar is
 * "'plugin' must be the path of a shared library". */
int cs_registry_load_config_plugin(struct cs_registry *reg,
                                   const struct cs_config *cfg,
                                   struct cs_error *err);

/* Register the models that ship with csearch (models/builtin.c: part of
 * the csearch command and the tests, not of the installed library). */
int cs_register_builtin_models(struct cs_registry *reg, struct cs_error *err);

#pragma GCC visibility pop

#endif
