/* registry.c - a uthash table of models keyed by name, and plugins.
 *
 * Lookups are by name (the config's model: key); listing is in name order
 * so --list and "did you mean" are stable whatever the registration order.
 * A plugin's models point into its library, so the registry keeps every
 * library it dlopen()ed and closes them only when it is freed.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "csearch/plugin.h"
#include "csearch/registry.h"

struct entry {
    const struct cs_model *model;
    UT_hash_handle hh;
};

struct cs_registry {
    struct entry *by_name;
    void **libs; /* dlopen() handles, closed by cs_registry_free */
    size_t nlibs;
};

struct cs_registry *cs_registry_new(void)
{
    return cs_xcalloc(1, sizeof(struct cs_registry));
}

void cs_registry_free(struct cs_registry *reg)
{
    if (!reg)
        return;
    struct entry *e, *tmp;
    HASH_ITER(hh, reg->by_name, e, tmp)
    {
        HASH_DEL(reg->by_name, e);
        free(e);
    }
    for (size_t i = 0; i < reg->nlibs; i++)
        dlclose(reg->libs[i]);
    free(reg->libs);
    free(reg);
}

static int by_name(struct entry *a, struct entry *b)
{
    return strcmp(a->model->name, b->model->name);
}

/* What a model lacks that the CLI and engine rely on, or NULL when it is
 * whole.  Checked here, at registration, so that a broken plugin is refused
 * at its plugin: key instead of crashing (a NULL name) or failing later
 * with a puzzling message (no setup: "it can: "). */
static const char *missing_part(const struct cs_model *model)
{
    if (!model->summary)
        return "summary";
    if (!model->options)
        return "options table";
    if (!(model->tasks & (CS_TASK_BIT(CS_TASK_LAST + 1) - 1)))
        return "task";
    if (!model->setup)
        return "setup";
    return NULL;
}

int cs_registry_add(struct cs_registry *reg, const struct cs_model *model,
                    struct cs_error *err)
{
    /* the ABI version first: the rest of an older model may lie elsewhere */
    if (model->abi_version != CS_ABI_VERSION)
        return cs_error_set(err, NULL,
                            "model '%s' was built for ABI version %d, "
                            "this csearch has %d",
                            model->name ? model->name : "?", model->abi_version,
                            CS_ABI_VERSION);
    if (!model->name || !model->name[0])
        return cs_error_set(err, NULL, "a model has no name");
    const char *missing = missing_part(model);
    if (missing)
        return cs_error_set(err, NULL, "model '%s' has no %s", model->name,
                            missing);
    if (cs_registry_find(reg, model->name))
        return cs_error_set(err, NULL, "model '%s' is registered twice",
                            model->name);
    struct entry *e = cs_xcalloc(1, sizeof *e);
    e->model = model;
    HASH_ADD_KEYPTR(hh, reg->by_name, model->name, strlen(model->name), e);
    HASH_SORT(reg->by_name, by_name);
    return 0;
}

const struct cs_model *cs_registry_find(const struct cs_registry *reg,
                                        const char *name)
{
    struct entry *e;
    HASH_FIND_STR(reg->by_name, name, e);
    return e ? e->model : NULL;
}

size_t cs_registry_count(const struct cs_registry *reg)
{
    return HASH_COUNT(reg->by_name);
}

const struct cs_model *cs_registry_at(const struct cs_registry *reg, size_t i)
{
    struct entry *e = reg->by_name;
    while (e && i--)
        e = e->hh.next;
    return e ? e->model : NULL;
}

static void remove_model(struct cs_registry *reg, const struct cs_model *model)
{
    struct entry *e;
    HASH_FIND_STR(reg->by_name, model->name, e);
    if (e && e->model == model) {
        HASH_DEL(reg->by_name, e);
        free(e);
    }
}

/* The plugin's exported table, checked; NULL with err set otherwise.  The
 * ABI version is read before anything else of it. */
static const struct cs_plugin *plugin_table(void *lib, const char *path,
                                            struct cs_pos pos,
                                            struct cs_error *err)
{
    const struct cs_plugin *plugin = dlsym(lib, CS_PLUGIN_SYMBOL);
    if (!plugin)
        return cs_error_at(err, pos,
                           "'%s' is not a csearch plugin: it has no "
                           "symbol " CS_PLUGIN_SYMBOL,
                           path),
               NULL;
    if (plugin->abi_version != CS_ABI_VERSION)
        return cs_error_at(err, pos,
                           "plugin '%s' was built for ABI version %d, this "
                           "csearch has %d",
                           path, plugin->abi_version, CS_ABI_VERSION),
               NULL;
    if (!plugin->models || !plugin->models[0])
        return cs_error_at(err, pos, "plugin '%s' holds no model", path), NULL;
    return plugin;
}

int cs_registry_load_plugin(struct cs_registry *reg, const char *path,
                            struct cs_pos pos, struct cs_error *err)
{
    void *lib = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        return cs_error_at(err, pos, "cannot load plugin: %s", dlerror());
    const struct cs_plugin *plugin = plugin_table(lib, path, pos, err);
    int rc = plugin ? 0 : -1;
    size_t added = 0;
    /* added counts the models registered: the refused one is not */
    for (; !rc && plugin->models[added]; added++) {
        if (cs_registry_add(reg, plugin->models[added], err)) {
            char why[sizeof err->msg] = "";
            if (err)
                memcpy(why, err->msg, sizeof why);
            rc = cs_error_at(err, pos, "plugin '%s': %s", path, why);
            break;
        }
    }
    if (rc) {
        /* all or nothing: the library is about to go */
        while (added--)
            remove_model(reg, plugin->models[added]);
        dlclose(lib);
        return -1;
    }
    reg->libs = cs_xrealloc(reg->libs, (reg->nlibs + 1) * sizeof *reg->libs);
    reg->libs[reg->nlibs++] = lib;
    return 0;
}

int cs_registry_load_config_plugin(struct cs_registry *reg,
                                   const struct cs_config *cfg,
                                   struct cs_error *err)
{
    const struct cs_node *node = cs_config_node(cfg, "plugin");
    if (!node)
        return 0;
    const char *text = cs_node_text(node);
    struct cs_pos pos = cs_node_pos(node);
    if (!text || !text[0])
        return cs_error_at(err, pos,
                           "'plugin' must be the path of a shared library");

    /* the folder of the config file, when the key is in that file */
    size_t dir = 0;
    if (text[0] != '/' && pos.file && !strcmp(pos.file, cs_config_file(cfg))) {
        const char *slash = strrchr(pos.file, '/');
        dir = slash ? (size_t)(slash - pos.file) + 1 : 0;
    }
    /* a name without '/' would send dlopen() searching the system's
     * library path: it is a path here, so say "./" */
    const char *here = !dir && !strchr(text, '/') ? "./" : "";
    size_t len = strlen(here) + dir + strlen(text) + 1;
    char *path = cs_xmalloc(len);
    snprintf(path, len, "%s%.*s%s", here, (int)dir, pos.file, text);
    int rc = cs_registry_load_plugin(reg, path, pos, err);
    free(path);
    return rc;
}
