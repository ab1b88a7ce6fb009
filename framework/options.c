/* options.c - checking a config tree against option tables; typed values.
 *
 * Scalars are read as numbers and booleans here, by one set of rules shared
 * by the cs_node_* conversions, cs_config_check() and the getters, so a value
 * that passed the check always converts.  The getters read the tables the
 * last successful check remembered in the config.
 */
#include "config_impl.h"

#include <assert.h>
#include <ctype.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *kind_phrase(const struct cs_node *node)
{
    return node->kind == CS_NODE_MAP ? "a mapping" : "a sequence";
}

static char *copy_text(const char *text, size_t len)
{
    char *s = cs_xmalloc(len + 1);
    memcpy(s, text, len);
    s[len] = '\0';
    return s;
}

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

int cs_node_int_in(const struct cs_node *node, const char *name, int64_t min,
                   int64_t max, int64_t *out, struct cs_error *err)
{
    assert(node);
    int64_t v = 0;
    if (node->kind != CS_NODE_SCALAR)
        return int_type_error(node, name, err);
    enum number got = parse_int(node->text, &v);
    if (got == NUMBER_BAD)
        return int_type_error(node, name, err);
    if (got == NUMBER_RANGE || v < min || v > max) /* the key's own range */
        return cs_error_at(err, node->pos,
                           "'%s' must be between %" PRId64 " and %" PRId64
                           ", not %s",
                           name, min, max, node->text);
    *out = v;
    return 0;
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
    size_t plen = strlen(prefix), n = 0;
    char **candidates =
        cs_xmalloc((ck->nopts ? ck->nopts : 1) * sizeof *candidates);
    for (size_t i = 0; i < ck->nopts; i++) {
        const char *key = ck->opts[i]->key;
        if (plen && (strncmp(key, prefix, plen) != 0 || key[plen] != '.'))
            continue;
        const char *rest = key + plen + (plen ? 1 : 0);
        const char *dot = strchr(rest, '.');
        candidates[n++] =
            copy_text(key, dot ? (size_t)(dot - key) : strlen(key));
    }
    const char *best = cs_nearest(full, (const char *const *)candidates, n);
    /* none near at this level: a key of that name in another section
     * (`--set n=12` for params.n) */
    const char *name = strrchr(full, '.') ? strrchr(full, '.') + 1 : full;
    for (size_t i = 0; !best && i < ck->nopts; i++) {
        const char *dot = strrchr(ck->opts[i]->key, '.');
        if (dot && strcmp(dot + 1, name) == 0)
            best = ck->opts[i]->key;
    }
    int rc;
    if (best)
        rc = cs_error_at(ck->err, pos, "unknown key '%s'; did you mean '%s'?",
                         full, best);
    else
        rc = cs_error_at(ck->err, pos, "unknown key '%s'", full);
    for (size_t i = 0; i < n; i++)
        free(candidates[i]);
    free(candidates);
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
                               "'%s' must be between %.0f and %.0f, not %s",
                               key, opt->min, opt->max, node->text);
        return 0;
    }
    if (opt->type == CS_OPT_REAL) {
        double v;
        if (node->kind == CS_NODE_SCALAR && opt->all_word &&
            strcmp(node->text, opt->all_word) == 0)
            return 0;
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
        /* "x-..." at the top: the user's own, such as anchors to reuse. */
        if (!*prefix && strncmp(map->keys[i], "x-", 2) == 0) {
            free(full);
            continue;
        }
        const struct cs_option *opt =
            plain ? find_option(ck->opts, ck->nopts, full) : NULL;
        int rc;
        if (opt)
            rc = check_value(opt, value, full, ck->err);
        else if (plain && is_section(ck, full))
            rc = value->kind == CS_NODE_MAP
                     ? check_map(ck, value, full)
                     : cs_error_at(ck->err, value->pos,
                                   "'%s' must be a mapping", full);
        else
            rc = unknown_key(ck, prefix, full, map->key_pos[i]);
        free(full);
        if (rc)
            return -1;
    }
    return 0;
}

int cs_config_check(struct cs_config *cfg,
                    const struct cs_option *const *tables, struct cs_error *err)
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
    if (text && opt->all_word && strcmp(text, opt->all_word) == 0)
        return -1;
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
    if (file[0] == '/' || !slash || !strncmp(pos.file, "--set", 5) ||
        !strcmp(file, "-")) /* standard input */
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

/* ---- did you mean ------------------------------------------------------- */

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

const char *cs_nearest(const char *word, const char *const *candidates,
                       size_t n)
{
    const char *best = NULL;
    size_t best_distance = SIZE_MAX;
    for (size_t i = 0; i < n; i++) {
        size_t d = cs_edit_distance(word, candidates[i]);
        if (d < best_distance) {
            best = candidates[i];
            best_distance = d;
        }
    }
    /* A third of the word, but at least 2: short keys get one typo and a
     * swap of two letters, long ones proportionally more. */
    size_t len = strlen(word), threshold = len / 3 > 2 ? len / 3 : 2;
    return best && best_distance <= threshold ? best : NULL;
}
