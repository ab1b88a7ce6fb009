/* config.c - YAML configs as a positioned tree, --set overrides, option checks.
 *
 * libyaml's document is copied at once into cs_node trees and then freed, so
 * the config owns every string it hands out.  Invariants: the root is always
 * a map; map keys are unique and kept in file order; every node's cs_pos
 * points at cfg->file (or, for an override, at its own "--set KEY=VALUE"
 * name in cfg->sets), which outlives it.
 */
#include "csearch/config.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <yaml.h>

/* Deeper trees are refused so copying, checking and freeing can recurse. */
#define MAX_DEPTH 1000

static const char SET_FILE[] = "--set";

struct cs_node {
    enum cs_node_kind kind;
    struct cs_pos pos;
    char *text;             /* scalars only */
    bool quoted;            /* a scalar written in quotes (or as a block) */
    size_t len, cap;        /* entries of a map or items of a sequence */
    struct cs_node **items; /* in file order; a map's values */
    char **keys;            /* maps only: keys[i] names items[i] */
    struct cs_pos *key_pos; /* maps only */
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
    free(node->text);
    free(node);
}

/* Takes ownership of key (NULL for sequences) and child. */
static void node_append(struct cs_node *node, char *key, struct cs_pos key_pos,
                        struct cs_node *child)
{
    if (node->len == node->cap) {
        node->cap = node->cap ? 2 * node->cap : 4;
        node->items = cs_xrealloc(node->items, node->cap * sizeof *node->items);
        if (node->kind == CS_NODE_MAP) {
            node->keys = cs_xrealloc(node->keys, node->cap * sizeof *node->keys);
            node->key_pos = cs_xrealloc(node->key_pos,
                                        node->cap * sizeof *node->key_pos);
        }
    }
    if (node->kind == CS_NODE_MAP) {
        node->keys[node->len] = key;
        node->key_pos[node->len] = key_pos;
    }
    node->items[node->len++] = child;
}

/* The index of key (len bytes, not NUL-terminated) in a map, or -1. */
static long map_find(const struct cs_node *map, const char *key, size_t len)
{
    if (!map || map->kind != CS_NODE_MAP)
        return -1;
    for (size_t i = 0; i < map->len; i++)
        if (strncmp(map->keys[i], key, len) == 0 && map->keys[i][len] == '\0')
            return (long)i;
    return -1;
}

static char *copy_text(const char *text, size_t len)
{
    char *s = cs_xmalloc(len + 1);
    memcpy(s, text, len);
    s[len] = '\0';
    return s;
}

static const char *kind_phrase(const struct cs_node *node)
{
    return node->kind == CS_NODE_MAP ? "a mapping" : "a sequence";
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
    struct cs_pos pos = parser->error == YAML_READER_ERROR
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
        *out = node_new(CS_NODE_SCALAR, pos);
        (*out)->text = copy_text((const char *)y->data.scalar.value,
                                 y->data.scalar.length);
        (*out)->quoted = y->data.scalar.style != YAML_PLAIN_SCALAR_STYLE;
        return 0;
    }

    struct cs_node *node = node_new(
        y->type == YAML_MAPPING_NODE ? CS_NODE_MAP : CS_NODE_SEQ, pos);
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
        for (yaml_node_pair_t *p = y->data.mapping.pairs.start;
             !rc && p < y->data.mapping.pairs.top; p++) {
            yaml_node_t *k = yaml_document_get_node(ld->doc, p->key);
            struct cs_pos key_pos = mark_pos(ld->file, k->start_mark);
            struct cs_node *child;
            if (k->type != YAML_SCALAR_NODE) {
                rc = cs_error_at(ld->err, key_pos, "a key must be a scalar");
                break;
            }
            const char *key = (const char *)k->data.scalar.value;
            if (map_find(node, key, strlen(key)) >= 0) {
                rc = cs_error_at(ld->err, key_pos, "duplicate key '%s'", key);
                break;
            }
            rc = copy_node(ld, p->value, depth + 1, &child);
            if (!rc)
                node_append(node, cs_xstrdup(key), key_pos, child);
        }
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
        .max_nodes = 100 * count + 10000,
        .err = err,
    };
    int rc = copy_node(&ld, 1, 0, &cfg->root);
    free(ld.on_path);
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
    int rc;
    if (!yaml_parser_load(&parser, &doc)) {
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
    FILE *f = fopen(path, "rb");
    if (!f)
        return cs_error_set(err, path, "cannot open: %s", strerror(errno));
    char *buf = NULL;
    size_t len = 0, cap = 0, got;
    do {
        if (len == cap) {
            cap = cap ? 2 * cap : 4096;
            buf = cs_xrealloc(buf, cap);
        }
        got = fread(buf + len, 1, cap - len, f);
        len += got;
    } while (got > 0);
    int failed = ferror(f), saved = errno;
    fclose(f);
    int rc = failed ? cs_error_set(err, path, "cannot read: %s", strerror(saved))
                    : cs_config_parse(out, path, buf, len, err);
    free(buf);
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
        size_t part_len = dot ? (size_t)(dot - part)
                              : key_len - (size_t)(part - key);
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
                /* The key stays where the file wrote it; only the value moves. */
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

/* ---- scalar conversions ------------------------------------------------- */

enum number { NUMBER_OK, NUMBER_BAD, NUMBER_RANGE };

/* Decimal only, optional sign, nothing else: YAML's 0x and 1_000 forms are
 * not accepted because a typo should not silently become another number. */
static enum number parse_int(const char *s, int64_t *out)
{
    bool negative = *s == '-';
    if (*s == '-' || *s == '+')
        s++;
    if (!*s)
        return NUMBER_BAD;
    uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
    uint64_t v = 0;
    bool overflow = false;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return NUMBER_BAD; /* even after an overflow: "9...9x" is bad */
        unsigned digit = (unsigned)(*s - '0');
        if (v > (limit - digit) / 10)
            overflow = true;
        else
            v = 10 * v + digit;
    }
    if (overflow)
        return NUMBER_RANGE;
    if (negative)
        *out = v > (uint64_t)INT64_MAX ? INT64_MIN : -(int64_t)v;
    else
        *out = (int64_t)v;
    return NUMBER_OK;
}

static bool parse_real(const char *s, double *out)
{
    char *end;
    if (!*s || isspace((unsigned char)*s))
        return false; /* strtod would skip the blanks */
    double v = strtod(s, &end);
    if (*end || !isfinite(v))
        return false; /* NaN would slip through every range check */
    *out = v;
    return true;
}

static bool same_word(const char *a, const char *b)
{
    for (; *a && *b; a++, b++)
        if (tolower((unsigned char)*a) != tolower((unsigned char)*b))
            return false;
    return *a == *b;
}

static bool parse_bool(const char *s, bool *out)
{
    static const char *const yes[] = {"true", "yes", "on"};
    static const char *const no[] = {"false", "no", "off"};
    for (size_t i = 0; i < sizeof yes / sizeof *yes; i++) {
        if (same_word(s, yes[i]) || same_word(s, no[i])) {
            *out = same_word(s, yes[i]);
            return true;
        }
    }
    return false;
}

static int int_type_error(const struct cs_node *node, const char *name,
                          struct cs_error *err)
{
    if (node->kind != CS_NODE_SCALAR)
        return cs_error_at(err, node->pos, "'%s' must be an integer, not %s",
                           name, kind_phrase(node));
    return cs_error_at(err, node->pos, "'%s' must be an integer, not '%s'",
                       name, node->text);
}

static int real_type_error(const struct cs_node *node, const char *name,
                           struct cs_error *err)
{
    if (node->kind != CS_NODE_SCALAR)
        return cs_error_at(err, node->pos, "'%s' must be a number, not %s",
                           name, kind_phrase(node));
    return cs_error_at(err, node->pos, "'%s' must be a number, not '%s'", name,
                       node->text);
}

static int bool_type_error(const struct cs_node *node, const char *name,
                           struct cs_error *err)
{
    if (node->kind != CS_NODE_SCALAR)
        return cs_error_at(err, node->pos, "'%s' must be true or false, not %s",
                           name, kind_phrase(node));
    return cs_error_at(err, node->pos, "'%s' must be true or false, not '%s'",
                       name, node->text);
}

int cs_node_int(const struct cs_node *node, const char *name, int64_t *out,
                struct cs_error *err)
{
    assert(node);
    if (node->kind != CS_NODE_SCALAR)
        return int_type_error(node, name, err);
    switch (parse_int(node->text, out)) {
    case NUMBER_OK:
        return 0;
    case NUMBER_RANGE:
        return cs_error_at(err, node->pos,
                           "'%s' must be between %" PRId64 " and %" PRId64
                           ", not %s",
                           name, INT64_MIN, INT64_MAX, node->text);
    default:
        return int_type_error(node, name, err);
    }
}

int cs_node_real(const struct cs_node *node, const char *name, double *out,
                 struct cs_error *err)
{
    assert(node);
    if (node->kind != CS_NODE_SCALAR || !parse_real(node->text, out))
        return real_type_error(node, name, err);
    return 0;
}

int cs_node_bool(const struct cs_node *node, const char *name, bool *out,
                 struct cs_error *err)
{
    assert(node);
    if (node->kind != CS_NODE_SCALAR || !parse_bool(node->text, out))
        return bool_type_error(node, name, err);
    return 0;
}

/* ---- checking against option tables ------------------------------------- */

struct checker {
    const struct cs_option **opts;
    size_t nopts;
    struct cs_error *err;
};

static const struct cs_option *find_option(const struct cs_option *const *opts,
                                           size_t nopts, const char *key)
{
    for (size_t i = 0; i < nopts; i++)
        if (strcmp(opts[i]->key, key) == 0)
            return opts[i];
    return NULL;
}

/* Whether some option lives under "key.". */
static bool is_section(const struct checker *ck, const char *key)
{
    size_t len = strlen(key);
    for (size_t i = 0; i < ck->nopts; i++)
        if (strncmp(ck->opts[i]->key, key, len) == 0 &&
            ck->opts[i]->key[len] == '.')
            return true;
    return false;
}

static char *join_key(const char *prefix, const char *key)
{
    size_t plen = strlen(prefix), klen = strlen(key);
    char *full = cs_xmalloc(plen + klen + 2);
    memcpy(full, prefix, plen);
    if (plen)
        full[plen++] = '.';
    memcpy(full + plen, key, klen + 1);
    return full;
}

/* Suggest among the options and sections one level below prefix, comparing
 * whole dotted keys so the suggestion can be pasted as it is. */
static int unknown_key(const struct checker *ck, const char *prefix,
                       const char *full, struct cs_pos pos)
{
    size_t plen = strlen(prefix);
    char *best = NULL;
    size_t best_distance = SIZE_MAX;
    for (size_t i = 0; i < ck->nopts; i++) {
        const char *key = ck->opts[i]->key;
        if (plen && (strncmp(key, prefix, plen) != 0 || key[plen] != '.'))
            continue;
        const char *rest = key + plen + (plen ? 1 : 0);
        const char *dot = strchr(rest, '.');
        char *candidate = copy_text(key, dot ? (size_t)(dot - key) : strlen(key));
        size_t d = cs_edit_distance(full, candidate);
        if (d < best_distance) {
            free(best);
            best = candidate;
            best_distance = d;
        } else {
            free(candidate);
        }
    }
    size_t len = strlen(full), threshold = len / 3 > 2 ? len / 3 : 2;
    int rc;
    if (best && best_distance <= threshold)
        rc = cs_error_at(ck->err, pos, "unknown key '%s'; did you mean '%s'?",
                         full, best);
    else
        rc = cs_error_at(ck->err, pos, "unknown key '%s'", full);
    free(best);
    return rc;
}

static int enum_error(const struct cs_option *opt, const struct cs_node *node,
                      const char *key, struct cs_error *err)
{
    size_t size = 1;
    for (const char *const *c = opt->choices; c && *c; c++)
        size += strlen(*c) + 2;
    char *list = cs_xmalloc(size), *p = list;
    *p = '\0';
    for (const char *const *c = opt->choices; c && *c; c++)
        p += sprintf(p, "%s%s", c == opt->choices ? "" : ", ", *c);
    int rc = cs_error_at(err, node->pos,
                         "unknown value '%s' for '%s'; expected one of: %s",
                         node->text, key, list);
    free(list);
    return rc;
}

static int choice_index(const struct cs_option *opt, const char *text)
{
    for (int i = 0; opt->choices && opt->choices[i]; i++)
        if (strcmp(opt->choices[i], text) == 0)
            return i;
    return -1;
}

static int check_value(const struct cs_option *opt, const struct cs_node *node,
                       const char *key, struct cs_error *err)
{
    if (opt->type == CS_OPT_NODE)
        return 0;
    if (opt->type == CS_OPT_INT) {
        int64_t v;
        if (node->kind != CS_NODE_SCALAR)
            return int_type_error(node, key, err);
        if (opt->all_word && strcmp(node->text, opt->all_word) == 0)
            return 0;
        enum number r = parse_int(node->text, &v);
        if (r == NUMBER_BAD)
            return int_type_error(node, key, err);
        if (r == NUMBER_RANGE || (double)v < opt->min || (double)v > opt->max)
            return cs_error_at(err, node->pos,
                               "'%s' must be between %.0f and %.0f, not %s", key,
                               opt->min, opt->max, node->text);
        return 0;
    }
    if (opt->type == CS_OPT_REAL) {
        double v;
        if (node->kind != CS_NODE_SCALAR || !parse_real(node->text, &v))
            return real_type_error(node, key, err);
        if (v < opt->min || v > opt->max)
            return cs_error_at(err, node->pos,
                               "'%s' must be between %g and %g, not %s", key,
                               opt->min, opt->max, node->text);
        return 0;
    }
    if (opt->type == CS_OPT_BOOL) {
        bool v;
        if (node->kind != CS_NODE_SCALAR || !parse_bool(node->text, &v))
            return bool_type_error(node, key, err);
        return 0;
    }
    /* CS_OPT_ENUM and CS_OPT_STRING take one scalar. */
    if (node->kind != CS_NODE_SCALAR)
        return cs_error_at(err, node->pos, "'%s' must be a string, not %s", key,
                           kind_phrase(node));
    if (opt->type == CS_OPT_ENUM && choice_index(opt, node->text) < 0)
        return enum_error(opt, node, key, err);
    return 0;
}

static int check_map(const struct checker *ck, const struct cs_node *map,
                     const char *prefix)
{
    for (size_t i = 0; i < map->len; i++) {
        const struct cs_node *value = map->items[i];
        char *full = join_key(prefix, map->keys[i]);
        /* A dotted key in the file ("params.n: 3" at the top) would pass the
         * lookup here but never be found by the getters, so it is unknown. */
        bool plain = !strchr(map->keys[i], '.');
        const struct cs_option *opt =
            plain ? find_option(ck->opts, ck->nopts, full) : NULL;
        int rc;
        if (opt)
            rc = check_value(opt, value, full, ck->err);
        else if (plain && is_section(ck, full))
            rc = value->kind == CS_NODE_MAP
                     ? check_map(ck, value, full)
                     : cs_error_at(ck->err, value->pos, "'%s' must be a mapping",
                                   full);
        else
            rc = unknown_key(ck, prefix, full, map->key_pos[i]);
        free(full);
        if (rc)
            return -1;
    }
    return 0;
}

int cs_config_check(struct cs_config *cfg, const struct cs_option *const *tables,
                    struct cs_error *err)
{
    size_t n = 0;
    for (size_t t = 0; tables && tables[t]; t++)
        for (const struct cs_option *o = tables[t]; o->key; o++)
            n++;
    struct checker ck = {cs_xmalloc((n ? n : 1) * sizeof *ck.opts), 0, err};
    for (size_t t = 0; tables && tables[t]; t++)
        for (const struct cs_option *o = tables[t]; o->key; o++)
            ck.opts[ck.nopts++] = o;
    if (check_map(&ck, cfg->root, "")) {
        free(ck.opts);
        return -1;
    }
    free(cfg->opts);
    cfg->opts = ck.opts;
    cfg->nopts = ck.nopts;
    return 0;
}

/* ---- typed getters ------------------------------------------------------ */

static const struct cs_option *declared(const struct cs_config *cfg,
                                        const char *key)
{
    const struct cs_option *opt = find_option(cfg->opts, cfg->nopts, key);
    assert(opt && "the key is not declared by any checked option table");
    return opt;
}

/* The text the getters convert: the tree's scalar, else the default. */
static const char *value_text(const struct cs_config *cfg,
                              const struct cs_option *opt)
{
    const struct cs_node *node = cs_config_node(cfg, opt->key);
    return node ? cs_node_text(node) : opt->def;
}

int64_t cs_config_int(const struct cs_config *cfg, const char *key)
{
    const struct cs_option *opt = declared(cfg, key);
    if (!opt)
        return 0;
    assert(opt->type == CS_OPT_INT);
    const char *text = value_text(cfg, opt);
    int64_t v = 0;
    if (!text)
        return 0;
    if (opt->all_word && strcmp(text, opt->all_word) == 0)
        return -1;
    enum number r = parse_int(text, &v);
    assert(r == NUMBER_OK && "unchecked value or bad default");
    return r == NUMBER_OK ? v : 0;
}

double cs_config_real(const struct cs_config *cfg, const char *key)
{
    const struct cs_option *opt = declared(cfg, key);
    if (!opt)
        return 0;
    assert(opt->type == CS_OPT_REAL);
    const char *text = value_text(cfg, opt);
    double v = 0;
    if (text && !parse_real(text, &v))
        assert(!"unchecked value or bad default");
    return v;
}

bool cs_config_bool(const struct cs_config *cfg, const char *key)
{
    const struct cs_option *opt = declared(cfg, key);
    if (!opt)
        return false;
    assert(opt->type == CS_OPT_BOOL);
    const char *text = value_text(cfg, opt);
    bool v = false;
    if (text && !parse_bool(text, &v))
        assert(!"unchecked value or bad default");
    return v;
}

const char *cs_config_str(const struct cs_config *cfg, const char *key)
{
    const struct cs_option *opt = declared(cfg, key);
    return opt ? value_text(cfg, opt) : NULL;
}

char *cs_config_path(const struct cs_config *cfg, const char *key)
{
    const char *file = cs_config_str(cfg, key);
    struct cs_pos pos = cs_config_pos(cfg, key);
    const char *slash = strrchr(pos.file, '/');
    if (file[0] == '/' || !slash || !strncmp(pos.file, "--set", 5))
        return cs_xstrdup(file);
    size_t dir = (size_t)(slash - pos.file) + 1, len = dir + strlen(file) + 1;
    char *path = cs_xmalloc(len);
    memcpy(path, pos.file, dir);
    strcpy(path + dir, file);
    return path;
}

int cs_config_enum(const struct cs_config *cfg, const char *key)
{
    const struct cs_option *opt = declared(cfg, key);
    if (!opt)
        return -1;
    assert(opt->type == CS_OPT_ENUM);
    const char *text = value_text(cfg, opt);
    if (!text)
        return -1;
    int i = choice_index(opt, text);
    assert(i >= 0 && "unchecked value or bad default");
    return i;
}

bool cs_config_has(const struct cs_config *cfg, const char *key)
{
    return cs_config_node(cfg, key) != NULL;
}

struct cs_pos cs_config_pos(const struct cs_config *cfg, const char *key)
{
    const struct cs_node *node = cs_config_node(cfg, key);
    return node ? node->pos : (struct cs_pos){cfg->file, 0, 0};
}

struct cs_pos cs_config_missing_pos(const struct cs_config *cfg,
                                    const char *key)
{
    const struct cs_node *parent = cfg->root;
    const char *dot = strrchr(key, '.');
    if (dot) {
        size_t len = (size_t)(dot - key);
        char *path = cs_xmalloc(len + 1);
        memcpy(path, key, len);
        path[len] = '\0';
        parent = cs_config_node(cfg, path);
        free(path);
    }
    if (parent && parent->kind == CS_NODE_MAP)
        return parent->pos;
    return (struct cs_pos){cfg->file, 1, 1};
}

/* ---- suggestions -------------------------------------------------------- */

size_t cs_edit_distance(const char *a, const char *b)
{
    size_t m = strlen(a), n = strlen(b);
    size_t *row = cs_xmalloc((n + 1) * sizeof *row);
    for (size_t j = 0; j <= n; j++)
        row[j] = j;
    for (size_t i = 1; i <= m; i++) {
        size_t diagonal = row[0]; /* row[i-1][j-1] */
        row[0] = i;
        for (size_t j = 1; j <= n; j++) {
            size_t above = row[j];
            size_t best = diagonal + (a[i - 1] != b[j - 1]);
            if (above + 1 < best)
                best = above + 1;
            if (row[j - 1] + 1 < best)
                best = row[j - 1] + 1;
            row[j] = best;
            diagonal = above;
        }
    }
    size_t d = row[n];
    free(row);
    return d;
}
