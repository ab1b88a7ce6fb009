/* config_tree.c - YAML configs as a positioned tree, and --set overrides.
 *
 * A pass over libyaml's events refuses deep nesting early; then libyaml's
 * document is copied at once into cs_node trees and freed, so the config
 * owns every string it hands out; aliases are copied out and merge keys
 * (`<<`) resolved on the way.  The representation and its invariants:
 * config_impl.h; option checks and typed values: options.c.
 */
#include "config_impl.h"

#include <assert.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

#include "csearch/file.h"

/* Deeper trees are refused so copying, checking and freeing can recurse. */
#define MAX_DEPTH 1000
/* A config holds settings, not bulk data: more nodes (in the text, or as
 * aliases expand) are refused, which bounds the memory and time a file under
 * CS_CONFIG_MAX_BYTES can take (a node costs about 300 bytes while read). */
#define MAX_NODES 250000
/* libyaml's loader keeps anchors in a list that each new anchor and each
 * alias scans, so their cost grows as their count squared. */
#define MAX_ANCHORS 10000
/* Smaller maps are scanned; from this width on they are hashed. */
#define MAP_INDEX_MIN 16

static const char SET_FILE[] = "--set";

/* ---- nodes -------------------------------------------------------------- */

static struct cs_node *node_new(enum cs_node_kind kind, struct cs_pos pos)
{
    struct cs_node *node = cs_xcalloc(1, sizeof *node);
    node->kind = kind;
    node->pos = pos;
    return node;
}

static void node_free(struct cs_node *node)
{
    if (!node)
        return;
    for (size_t i = 0; i < node->len; i++) {
        node_free(node->items[i]);
        if (node->keys)
            free(node->keys[i]);
    }
    free(node->items);
    free(node->keys);
    free(node->key_pos);
    free(node->slots);
    free(node->text);
    free(node);
}

static size_t key_hash(const char *key, size_t len)
{
    uint64_t h = 14695981039346656037u; /* FNV-1a */
    for (size_t i = 0; i < len; i++)
        h = (h ^ (unsigned char)key[i]) * 1099511628211u;
    return (size_t)h;
}

static bool key_is(const char *stored, const char *key, size_t len)
{
    return strncmp(stored, key, len) == 0 && stored[len] == '\0';
}

static void index_add(struct cs_node *map, size_t i)
{
    size_t mask = map->nslots - 1;
    size_t h = key_hash(map->keys[i], strlen(map->keys[i])) & mask;
    while (map->slots[h])
        h = (h + 1) & mask;
    map->slots[h] = (uint32_t)(i + 1);
}

/* After map gained its len-th key: index the key, first building (or
 * doubling) the table when the map has grown wide enough. */
static void index_update(struct cs_node *map)
{
    if (map->len < MAP_INDEX_MIN)
        return;
    if (2 * map->len > map->nslots) {
        free(map->slots);
        map->nslots = 4 * MAP_INDEX_MIN;
        while (map->nslots < 4 * map->len)
            map->nslots *= 2;
        map->slots = cs_xcalloc(map->nslots, sizeof *map->slots);
        for (size_t i = 0; i < map->len; i++)
            index_add(map, i);
    } else {
        index_add(map, map->len - 1);
    }
}

/* Takes ownership of key (NULL for sequences) and child. */
static void node_append(struct cs_node *node, char *key, struct cs_pos key_pos,
                        struct cs_node *child)
{
    if (node->len == node->cap) {
        node->cap = node->cap ? 2 * node->cap : 4;
        node->items = cs_xrealloc(node->items, node->cap * sizeof *node->items);
        if (node->kind == CS_NODE_MAP) {
            node->keys =
                cs_xrealloc(node->keys, node->cap * sizeof *node->keys);
            node->key_pos =
                cs_xrealloc(node->key_pos, node->cap * sizeof *node->key_pos);
        }
    }
    node->items[node->len++] = child;
    if (node->kind == CS_NODE_MAP) {
        node->keys[node->len - 1] = key;
        node->key_pos[node->len - 1] = key_pos;
        index_update(node);
    }
}

/* The index of key (len bytes, not NUL-terminated) in a map, or -1. */
static long map_find(const struct cs_node *map, const char *key, size_t len)
{
    if (!map || map->kind != CS_NODE_MAP)
        return -1;
    if (!map->slots) {
        for (size_t i = 0; i < map->len; i++)
            if (key_is(map->keys[i], key, len))
                return (long)i;
        return -1;
    }
    size_t mask = map->nslots - 1;
    for (size_t h = key_hash(key, len) & mask; map->slots[h];
         h = (h + 1) & mask)
        if (key_is(map->keys[map->slots[h] - 1], key, len))
            return (long)map->slots[h] - 1;
    return -1;
}

static char *copy_text(const char *text, size_t len)
{
    char *s = cs_xmalloc(len + 1);
    memcpy(s, text, len);
    s[len] = '\0';
    return s;
}

/* ---- reading YAML ------------------------------------------------------- */

static int clamp_int(size_t n)
{
    return n >= INT_MAX ? INT_MAX : (int)n;
}

static struct cs_pos mark_pos(const char *file, yaml_mark_t mark)
{
    return (struct cs_pos){file, clamp_int(mark.line + 1),
                           clamp_int(mark.column + 1)};
}

/* libyaml's reader errors carry a byte offset rather than a mark. */
static struct cs_pos offset_pos(const char *file, const char *text, size_t len,
                                size_t offset)
{
    size_t line = 1, col = 1;
    for (size_t i = 0; i < offset && i < len; i++) {
        if (text[i] == '\n') {
            line++;
            col = 1;
        } else if (((unsigned char)text[i] & 0xC0) != 0x80) {
            col++; /* count characters, not UTF-8 continuation bytes */
        }
    }
    return (struct cs_pos){file, clamp_int(line), clamp_int(col)};
}

static int yaml_failure(const yaml_parser_t *parser, const char *file,
                        const char *text, size_t len, struct cs_error *err)
{
    struct cs_pos pos =
        parser->error == YAML_READER_ERROR
            ? offset_pos(file, text, len, parser->problem_offset)
            : mark_pos(file, parser->problem_mark);
    const char *problem = parser->problem ? parser->problem : "cannot parse";
    if (parser->context)
        return cs_error_at(err, pos, "invalid YAML: %s %s", problem,
                           parser->context);
    return cs_error_at(err, pos, "invalid YAML: %s", problem);
}

struct loader {
    yaml_document_t *doc;
    const char *file;
    bool *on_path;    /* by node index - 1: being copied, so an alias cycle */
    size_t copied;    /* nodes made so far; aliases copy their target again */
    size_t max_nodes; /* bounds that copying ("billion laughs") */
    struct cs_error *err;
};

static int copy_node(struct loader *ld, int index, int depth,
                     struct cs_node **out);

/* "\0" in a quoted scalar is a NUL byte, which would cut every C string made
 * of it ("nqueens\0x" would run nqueens), so it is refused. */
static const char NUL_IN_VALUE[] = "a value cannot hold a NUL character (\\0)";
static const char NUL_IN_KEY[] = "a key cannot hold a NUL character (\\0)";

static bool has_nul(const yaml_node_t *scalar)
{
    return memchr(scalar->data.scalar.value, '\0',
                  scalar->data.scalar.length) != NULL;
}

/* YAML's merge key, plain `<<` (a quoted one is an ordinary key). */
static bool is_merge_key(const yaml_node_t *k)
{
    return k->type == YAML_SCALAR_NODE &&
           k->data.scalar.style == YAML_PLAIN_SCALAR_STYLE &&
           k->data.scalar.length == 2 &&
           memcmp(k->data.scalar.value, "<<", 2) == 0;
}

/* `<<: *defaults` or `<<: [*a, *b]`: the pairs of each mapping join map
 * after its own keys, which win, as do those of an earlier mapping in the
 * list; each key keeps the position where the merged mapping wrote it. */
static int merge_into(struct loader *ld, struct cs_node *map, int index,
                      int depth, bool in_list)
{
    yaml_node_t *y = yaml_document_get_node(ld->doc, index);
    if (y->type == YAML_SEQUENCE_NODE && !in_list) {
        for (yaml_node_item_t *it = y->data.sequence.items.start;
             it < y->data.sequence.items.top; it++)
            if (merge_into(ld, map, *it, depth, true))
                return -1;
        return 0;
    }
    if (y->type != YAML_MAPPING_NODE)
        return cs_error_at(ld->err, mark_pos(ld->file, y->start_mark),
                           "'<<' merges a mapping or a list of mappings: "
                           "write '<<: *name' with '&name' on a mapping, "
                           "such as 'x-name: &name {key: value}' at the top");
    struct cs_node *from;
    if (copy_node(ld, index, depth, &from))
        return -1;
    for (size_t i = 0; i < from->len; i++)
        if (map_find(map, from->keys[i], strlen(from->keys[i])) < 0) {
            node_append(map, from->keys[i], from->key_pos[i], from->items[i]);
            from->keys[i] = NULL;
            from->items[i] = NULL;
        }
    node_free(from);
    return 0;
}

static int copy_node(struct loader *ld, int index, int depth,
                     struct cs_node **out)
{
    yaml_node_t *y = yaml_document_get_node(ld->doc, index);
    struct cs_pos pos = mark_pos(ld->file, y->start_mark);
    *out = NULL;
    if (depth > MAX_DEPTH)
        return cs_error_at(ld->err, pos, "nested deeper than %d levels",
                           MAX_DEPTH);
    if (ld->on_path[index - 1])
        return cs_error_at(ld->err, pos, "an alias refers to its own ancestor");
    if (++ld->copied > ld->max_nodes)
        return cs_error_at(ld->err, pos, "aliases expand to too many nodes");

    if (y->type == YAML_SCALAR_NODE) {
        if (has_nul(y))
            return cs_error_at(ld->err, pos, "%s", NUL_IN_VALUE);
        *out = node_new(CS_NODE_SCALAR, pos);
        (*out)->text = copy_text((const char *)y->data.scalar.value,
                                 y->data.scalar.length);
        (*out)->quoted = y->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
        return 0;
    }

    struct cs_node *node =
        node_new(y->type == YAML_MAPPING_NODE ? CS_NODE_MAP : CS_NODE_SEQ, pos);
    int rc = 0;
    ld->on_path[index - 1] = true;
    if (y->type == YAML_SEQUENCE_NODE) {
        for (yaml_node_item_t *it = y->data.sequence.items.start;
             !rc && it < y->data.sequence.items.top; it++) {
            struct cs_node *child;
            rc = copy_node(ld, *it, depth + 1, &child);
            if (!rc)
                node_append(node, NULL, pos, child);
        }
    } else if (y->type == YAML_MAPPING_NODE) {
        yaml_node_pair_t *merge = NULL;
        for (yaml_node_pair_t *p = y->data.mapping.pairs.start;
             !rc && p < y->data.mapping.pairs.top; p++) {
            yaml_node_t *k = yaml_document_get_node(ld->doc, p->key);
            struct cs_pos key_pos = mark_pos(ld->file, k->start_mark);
            struct cs_node *child;
            if (k->type != YAML_SCALAR_NODE) {
                rc = cs_error_at(ld->err, key_pos, "a key must be a scalar");
                break;
            }
            if (is_merge_key(k)) {
                if (merge)
                    rc = cs_error_at(ld->err, key_pos,
                                     "duplicate key '<<': merge several "
                                     "mappings with one '<<: [*a, *b]'");
                merge = p;
                continue;
            }
            const char *key = (const char *)k->data.scalar.value;
            if (has_nul(k)) {
                rc = cs_error_at(ld->err, key_pos, "%s", NUL_IN_KEY);
                break;
            }
            if (map_find(node, key, strlen(key)) >= 0) {
                rc = cs_error_at(ld->err, key_pos, "duplicate key '%s'", key);
                break;
            }
            rc = copy_node(ld, p->value, depth + 1, &child);
            if (!rc)
                node_append(node, cs_xstrdup(key), key_pos, child);
        }
        if (!rc && merge)
            rc = merge_into(ld, node, merge->value, depth, false);
    }
    ld->on_path[index - 1] = false;
    if (rc) {
        node_free(node);
        return -1;
    }
    *out = node;
    return 0;
}

static int copy_document(struct cs_config *cfg, yaml_document_t *doc,
                         struct cs_error *err)
{
    yaml_node_t *root = yaml_document_get_root_node(doc);
    if (!root)
        return cs_error_at(err, (struct cs_pos){cfg->file, 1, 1},
                           "the top level must be a mapping");
    if (root->type != YAML_MAPPING_NODE)
        return cs_error_at(err, mark_pos(cfg->file, root->start_mark),
                           "the top level must be a mapping");
    size_t count = (size_t)(doc->nodes.top - doc->nodes.start);
    struct loader ld = {
        .doc = doc,
        .file = cfg->file,
        .on_path = cs_xcalloc(count, sizeof(bool)),
        .max_nodes =
            100 * count + 10000 < MAX_NODES ? 100 * count + 10000 : MAX_NODES,
        .err = err,
    };
    int rc = copy_node(&ld, 1, 0, &cfg->root);
    free(ld.on_path);
    return rc;
}

/* ---- nesting depth and size -------------------------------------------- */

/* libyaml's scanner checks every possible simple key at each token, and
 * there is one per open flow collection, so reading a file nested N deep
 * costs about N * N: a line of 100,000 '[' takes many seconds.  Its event
 * parser reads only as far as it is asked, so this pass refuses deep
 * nesting after a few thousand bytes, before yaml_parser_load() reads the
 * whole text.  It counts depth as copy_node() does (a node inside more than
 * MAX_DEPTH collections, in every document of the text), leaving aliases to
 * copy_node(), which sees them expanded, and every other problem, syntax
 * errors too, to the loader.  Scalar keys are not nodes of the tree, so
 * they are not counted; a key that is a collection is.  In the same way it
 * refuses the node after MAX_NODES and the anchor or alias after
 * MAX_ANCHORS, before libyaml's document takes their memory and time. */
static int check_shape(const char *file, const char *text, size_t len,
                       struct cs_error *err)
{
    yaml_parser_t parser;
    if (!yaml_parser_initialize(&parser))
        return 0; /* the loader says so */
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);
    /* For each open collection: a mapping, and is its next node a value? */
    struct level {
        bool map, value_next;
    } open[MAX_DEPTH + 1];
    int depth = 0, rc = 0;
    size_t nodes = 0, anchors = 0;
    for (bool done = false; !done && !rc;) {
        yaml_event_t event;
        if (!yaml_parser_parse(&parser, &event))
            break;
        yaml_event_type_t type = event.type;
        struct cs_pos pos = mark_pos(file, event.start_mark);
        bool opens = type == YAML_SEQUENCE_START_EVENT ||
                     type == YAML_MAPPING_START_EVENT;
        if (opens || type == YAML_SCALAR_EVENT || type == YAML_ALIAS_EVENT) {
            struct level *parent = depth ? &open[depth - 1] : NULL;
            bool key = parent && parent->map && !parent->value_next;
            if (parent && parent->map)
                parent->value_next = key;
            bool counted = opens || (type == YAML_SCALAR_EVENT && !key);
            bool anchored =
                type == YAML_ALIAS_EVENT ||
                (type == YAML_SCALAR_EVENT && event.data.scalar.anchor) ||
                (type == YAML_SEQUENCE_START_EVENT &&
                 event.data.sequence_start.anchor) ||
                (type == YAML_MAPPING_START_EVENT &&
                 event.data.mapping_start.anchor);
            if (counted && depth > MAX_DEPTH)
                rc = cs_error_at(err, pos, "nested deeper than %d levels",
                                 MAX_DEPTH);
            else if (counted && ++nodes > MAX_NODES)
                rc = cs_error_at(err, pos,
                                 "more than %d nodes: a config holds "
                                 "settings, not bulk data",
                                 MAX_NODES);
            else if (anchored && ++anchors > MAX_ANCHORS)
                rc = cs_error_at(err, pos, "more than %d anchors and aliases",
                                 MAX_ANCHORS);
            else if (opens)
                open[depth++] =
                    (struct level){type == YAML_MAPPING_START_EVENT, false};
        } else if (type == YAML_SEQUENCE_END_EVENT ||
                   type == YAML_MAPPING_END_EVENT) {
            depth--;
        }
        done = type == YAML_STREAM_END_EVENT;
        yaml_event_delete(&event);
    }
    yaml_parser_delete(&parser);
    return rc;
}

/* A second document would be silently ignored; refuse it instead. */
static int expect_stream_end(const struct cs_config *cfg, yaml_parser_t *parser,
                             const char *text, size_t len, struct cs_error *err)
{
    yaml_document_t doc;
    if (!yaml_parser_load(parser, &doc))
        return yaml_failure(parser, cfg->file, text, len, err);
    int rc = 0;
    if (yaml_document_get_root_node(&doc))
        rc = cs_error_at(err, mark_pos(cfg->file, doc.start_mark),
                         "only one YAML document is allowed");
    yaml_document_delete(&doc);
    return rc;
}

int cs_config_parse(struct cs_config **out, const char *name, const char *text,
                    size_t len, struct cs_error *err)
{
    yaml_parser_t parser;
    yaml_document_t doc;
    *out = NULL;
    if (!yaml_parser_initialize(&parser))
        return cs_error_set(err, name, "cannot start the YAML parser");
    yaml_parser_set_input_string(&parser, (const unsigned char *)text, len);

    struct cs_config *cfg = cs_xcalloc(1, sizeof *cfg);
    cfg->file = cs_xstrdup(name);
    int rc = check_shape(cfg->file, text, len, err);
    if (rc) {
        /* refused before libyaml read the rest */
    } else if (!yaml_parser_load(&parser, &doc)) {
        /* libyaml has already freed the half-built document. */
        rc = yaml_failure(&parser, cfg->file, text, len, err);
    } else {
        rc = copy_document(cfg, &doc, err);
        yaml_document_delete(&doc);
        if (!rc)
            rc = expect_stream_end(cfg, &parser, text, len, err);
    }
    yaml_parser_delete(&parser);
    if (rc) {
        cs_config_free(cfg);
        return -1;
    }
    *out = cfg;
    return 0;
}

int cs_config_load(struct cs_config **out, const char *path,
                   struct cs_error *err)
{
    *out = NULL;
    struct cs_file f;
    switch (cs_file_read(path, CS_CONFIG_MAX_BYTES, CS_FILE_STREAM, &f)) {
    case CS_FILE_CANNOT_OPEN:
        return cs_error_set(err, path, "cannot open: %s", f.why);
    case CS_FILE_CANNOT_READ:
        return cs_error_set(err, path, "cannot read: %s", f.why);
    }
    int rc = cs_config_parse(out, strcmp(path, "-") ? path : CS_STDIN_NAME,
                             f.text, f.len, err);
    free(f.text);
    return rc;
}

struct cs_config *cs_config_new(const char *name)
{
    struct cs_config *cfg = cs_xcalloc(1, sizeof *cfg);
    cfg->file = cs_xstrdup(name);
    cfg->root = node_new(CS_NODE_MAP, (struct cs_pos){cfg->file, 0, 0});
    return cfg;
}

void cs_config_free(struct cs_config *cfg)
{
    if (!cfg)
        return;
    node_free(cfg->root);
    for (size_t i = 0; i < cfg->nsets; i++)
        free(cfg->sets[i]);
    free(cfg->sets);
    free(cfg->opts);
    free(cfg->file);
    free(cfg);
}

/* ---- overrides ---------------------------------------------------------- */

int cs_config_set(struct cs_config *cfg, const char *assignment,
                  struct cs_error *err)
{
    const char *eq = strchr(assignment, '=');
    const char *key = assignment;
    size_t key_len = eq ? (size_t)(eq - key) : 0;
    /* Every dotted component must be non-empty: "a..b" names nothing. */
    bool ok = key_len > 0 && key[0] != '.' && key[key_len - 1] != '.';
    for (size_t i = 1; ok && i < key_len; i++)
        ok = !(key[i] == '.' && key[i - 1] == '.');
    if (!ok)
        return cs_error_set(err, SET_FILE, "expected KEY=VALUE, got '%s'",
                            assignment);

    size_t name_len = strlen(SET_FILE) + 1 + strlen(assignment) + 1;
    char *name = cs_xmalloc(name_len);
    snprintf(name, name_len, "%s %s", SET_FILE, assignment);
    cfg->sets = cs_xrealloc(cfg->sets, (cfg->nsets + 1) * sizeof *cfg->sets);
    cfg->sets[cfg->nsets++] = name;
    const struct cs_pos set_pos = {name, 0, 0};
    struct cs_node *map = cfg->root;
    const char *part = key;
    for (;;) {
        const char *dot = memchr(part, '.', key_len - (size_t)(part - key));
        size_t part_len =
            dot ? (size_t)(dot - part) : key_len - (size_t)(part - key);
        long i = map_find(map, part, part_len);
        if (!dot) {
            const char *value = eq + 1;
            size_t value_len = strlen(value);
            if (value_len >= 2 && (value[0] == '"' || value[0] == '\'') &&
                value[value_len - 1] == value[0]) {
                value++;
                value_len -= 2;
            }
            struct cs_node *leaf = node_new(CS_NODE_SCALAR, set_pos);
            leaf->text = copy_text(value, value_len);
            if (i >= 0) {
                /* The key stays where the file wrote it; only the value moves.
                 */
                node_free(map->items[i]);
                map->items[i] = leaf;
            } else {
                node_append(map, copy_text(part, part_len), set_pos, leaf);
            }
            return 0;
        }
        if (i < 0) {
            struct cs_node *child = node_new(CS_NODE_MAP, set_pos);
            node_append(map, copy_text(part, part_len), set_pos, child);
            map = child;
        } else if (map->items[i]->kind != CS_NODE_MAP) {
            return cs_error_set(err, name, "'%.*s' is not a mapping",
                                (int)(dot - key), key);
        } else {
            map = map->items[i];
        }
        part = dot + 1;
    }
}

/* ---- the tree ----------------------------------------------------------- */

const char *cs_config_file(const struct cs_config *cfg)
{
    return cfg->file;
}

const struct cs_node *cs_config_root(const struct cs_config *cfg)
{
    return cfg->root;
}

const struct cs_node *cs_config_node(const struct cs_config *cfg,
                                     const char *path)
{
    const struct cs_node *node = cfg->root;
    for (;;) {
        const char *dot = strchr(path, '.');
        size_t len = dot ? (size_t)(dot - path) : strlen(path);
        long i = map_find(node, path, len);
        if (i < 0)
            return NULL;
        node = node->items[i];
        if (!dot)
            return node;
        path = dot + 1;
    }
}

enum cs_node_kind cs_node_kind(const struct cs_node *node)
{
    assert(node);
    return node->kind;
}

struct cs_pos cs_node_pos(const struct cs_node *node)
{
    assert(node);
    return node->pos;
}

const char *cs_node_text(const struct cs_node *node)
{
    return node && node->kind == CS_NODE_SCALAR ? node->text : NULL;
}

bool cs_node_quoted(const struct cs_node *node)
{
    return node && node->kind == CS_NODE_SCALAR && node->quoted;
}

size_t cs_node_len(const struct cs_node *node)
{
    return node ? node->len : 0;
}

const struct cs_node *cs_node_at(const struct cs_node *node, size_t i)
{
    return node && i < node->len ? node->items[i] : NULL;
}

const char *cs_node_key(const struct cs_node *node, size_t i)
{
    return node && node->kind == CS_NODE_MAP && i < node->len ? node->keys[i]
                                                              : NULL;
}

struct cs_pos cs_node_key_pos(const struct cs_node *node, size_t i)
{
    if (node && node->kind == CS_NODE_MAP && i < node->len)
        return node->key_pos[i];
    return (struct cs_pos){NULL, 0, 0};
}

const struct cs_node *cs_node_get(const struct cs_node *node, const char *key)
{
    long i = map_find(node, key, strlen(key));
    return i < 0 ? NULL : node->items[i];
}
