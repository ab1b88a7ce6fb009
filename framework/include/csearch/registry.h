/* csearch/registry.h - models by name.
 *
 * The CLI registers the built-in models at start-up (and, later, models
 * loaded from plugins); a config's `model:` key is looked up here.  The
 * registry holds borrowed pointers to `const struct cs_model`s, which must
 * outlive it.
 */
#ifndef CSEARCH_REGISTRY_H
#define CSEARCH_REGISTRY_H

#include <stddef.h>

#include "csearch/model.h"

struct cs_registry; /* opaque */

struct cs_registry *cs_registry_new(void);
void cs_registry_free(struct cs_registry *reg);

/* Add a model.  Fails (err) if its ABI version is not CS_ABI_VERSION or its
 * name is taken. */
int cs_registry_add(struct cs_registry *reg, const struct cs_model *model,
                    struct cs_error *err);

/* The model called name, or NULL. */
const struct cs_model *cs_registry_find(const struct cs_registry *reg,
                                        const char *name);

/* Models in name order: the i-th, or NULL past the end. */
size_t cs_registry_count(const struct cs_registry *reg);
const struct cs_model *cs_registry_at(const struct cs_registry *reg, size_t i);

/* Register the models that ship with csearch (models/builtin.c). */
int cs_register_builtin_models(struct cs_registry *reg, struct cs_error *err);

#endif
