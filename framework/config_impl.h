/* config_impl.h - the representation behind csearch/config.h (internal).
 *
 * Shared by config_tree.c (the tree) and options.c (checks, typed values).
 * Invariants: the root is always a map; map keys are unique and kept in file
 * order (a wide map also indexes them by hash); every node's cs_pos points at
 * cfg->file (or, for an override, at its own "--set KEY=VALUE" name in
 * cfg->sets), which outlives it.
 */
#ifndef CSEARCH_CONFIG_IMPL_H
#define CSEARCH_CONFIG_IMPL_H

#include "csearch/config.h"

struct cs_node {
    enum cs_node_kind kind;
    struct cs_pos pos;
    char *text;             /* scalars only */
    bool quoted;            /* a scalar written in quotes (or as a block) */
    size_t len, cap;        /* entries of a map or items of a sequence */
    struct cs_node **items; /* in file order; a map's values */
    char **keys;            /* maps only: keys[i] names items[i] */
    struct cs_pos *key_pos; /* maps only */
    /* maps of MAP_INDEX_MIN keys or more: an open-addressing hash of keys,
     * slots[h] = index + 1 (0 = empty), nslots a power of two at least
     * twice len, so finding a key does not scan the map (config_tree.c) */
    uint32_t *slots;
    size_t nslots;
};

struct cs_config {
    char *file;
    struct cs_node *root;
    /* The options of the last successful check, flattened; the getters look
     * keys up here.  The cs_option records themselves are borrowed. */
    const struct cs_option **opts;
    size_t nopts;
    /* "--set KEY=VALUE" for each override: the file name of its nodes, so a
     * complaint about an overridden value names the override. */
    char **sets;
    size_t nsets;
};

#endif
