/* registry.c - a uthash table of models keyed by name.
 *
 * Lookups are by name (the config's model: key); listing is in name order
 * so --list and "did you mean" are stable whatever the registration order.
 */
#include <stdlib.h>
#include <string.h>

#include <uthash.h>

#include "csearch/registry.h"

struct entry {
    const struct cs_model *model;
    UT_hash_handle hh;
};

struct cs_registry {
    struct entry *by_name;
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
    HASH_ITER(hh, reg->by_name, e, tmp) {
        HASH_DEL(reg->by_name, e);
        free(e);
    }
    free(reg);
}

static int by_name(struct entry *a, struct entry *b)
{
    return strcmp(a->model->name, b->model->name);
}

int cs_registry_add(struct cs_registry *reg, const struct cs_model *model,
                    struct cs_error *err)
{
    if (model->abi_version != CS_ABI_VERSION)
        return cs_error_set(err, NULL,
                            "model '%s' was built for ABI version %d, "
                            "this csearch has %d",
                            model->name, model->abi_version, CS_ABI_VERSION);
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
