/* csearch/config.h - YAML configs: a positioned tree, option tables, checks.
 *
 * A config is read with libyaml's document API into a tree whose every node
 * keeps its line and column, so any later complaint can point at the exact
 * spot.  Command-line overrides (--set KEY=VALUE) edit the same tree.  The
 * framework and each model describe the keys they accept in option tables;
 * cs_config_check() validates the whole tree against them (unknown keys get
 * the nearest valid key suggested) and the typed getters then return the
 * value or the table's default.  Strings are copied out of libyaml, so the
 * tree owns everything it points to.
 */
#ifndef CSEARCH_CONFIG_H
#define CSEARCH_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "csearch/error.h"

/* ---- the tree ----------------------------------------------------------- */

enum cs_node_kind { CS_NODE_SCALAR, CS_NODE_MAP, CS_NODE_SEQ };

struct cs_node; /* opaque */
struct cs_config; /* opaque: the tree and the file name */

/* Read FILE.  A missing file is "FILE: cannot open: <strerror>"; malformed
 * YAML is "FILE:LINE:COL: invalid YAML: <problem>".  The top level must be a
 * mapping.  On failure *out is NULL. */
int cs_config_load(struct cs_config **out, const char *path,
                   struct cs_error *err);

/* The same from a string; name stands in for the file name in positions. */
int cs_config_parse(struct cs_config **out, const char *name, const char *text,
                    size_t len, struct cs_error *err);

/* An empty config (a map with no keys) named name. */
struct cs_config *cs_config_new(const char *name);

/* Apply one override "a.b.c=VALUE": VALUE is taken as scalar text (one pair
 * of matching single or double quotes around it is stripped) and replaces or
 * inserts the node at that path, creating maps on the way.  Its position is
 * the file "--set a.b.c=VALUE", line 0; a malformed assignment is reported
 * against "--set". */
int cs_config_set(struct cs_config *cfg, const char *assignment,
                  struct cs_error *err);

void cs_config_free(struct cs_config *cfg);

const char *cs_config_file(const struct cs_config *cfg);
const struct cs_node *cs_config_root(const struct cs_config *cfg);

/* The node at a dotted path ("strategy.select"), or NULL. */
const struct cs_node *cs_config_node(const struct cs_config *cfg,
                                     const char *path);

enum cs_node_kind cs_node_kind(const struct cs_node *node);
struct cs_pos cs_node_pos(const struct cs_node *node);
/* A scalar's text; NULL for maps and sequences. */
const char *cs_node_text(const struct cs_node *node);
/* Was the scalar written in quotes (or as a block)?  Then it is a string
 * whatever its text looks like; false for plain scalars and non-scalars. */
bool cs_node_quoted(const struct cs_node *node);
/* Entries of a map or items of a sequence (0 for a scalar). */
size_t cs_node_len(const struct cs_node *node);
/* The i-th item of a sequence or the i-th value of a map, in file order. */
const struct cs_node *cs_node_at(const struct cs_node *node, size_t i);
/* The i-th key of a map (NULL otherwise) and the key node's position. */
const char *cs_node_key(const struct cs_node *node, size_t i);
struct cs_pos cs_node_key_pos(const struct cs_node *node, size_t i);
/* A map's value for key, or NULL. */
const struct cs_node *cs_node_get(const struct cs_node *node, const char *key);

/* Scalar conversions: 0 on success; -1 with err set at the node otherwise
 * ("'NAME' must be an integer, not 'x'", where NAME is what the caller passes
 * as the key to name in messages). */
int cs_node_int(const struct cs_node *node, const char *name, int64_t *out,
                struct cs_error *err);
int cs_node_real(const struct cs_node *node, const char *name, double *out,
                 struct cs_error *err);
int cs_node_bool(const struct cs_node *node, const char *name, bool *out,
                 struct cs_error *err);

/* ---- option tables ------------------------------------------------------ */

enum cs_option_type {
    CS_OPT_INT,    /* integer in [min, max] */
    CS_OPT_REAL,   /* number in [min, max] */
    CS_OPT_BOOL,   /* true/false, yes/no, on/off */
    CS_OPT_ENUM,   /* one of choices */
    CS_OPT_STRING, /* any scalar */
    CS_OPT_NODE    /* any subtree; the model reads it through cs_node_* */
};

struct cs_option {
    const char *key;              /* dotted: "model", "params.n" */
    enum cs_option_type type;
    const char *def;              /* default as YAML text; NULL = none */
    double min, max;              /* CS_OPT_INT / CS_OPT_REAL bounds */
    const char *const *choices;   /* CS_OPT_ENUM: NULL-terminated */
    const char *all_word;         /* CS_OPT_INT: a word meaning -1 ("all") */
    const char *help;
};

/* Validate every key in the tree against the NULL-terminated list of
 * NULL-key-terminated option tables.  A top-level key is either an option
 * ("model") or a section that some option's key starts with ("params.").
 * Errors, at the offending node:
 *   unknown key 'KEY'[; did you mean 'KEY2'?]        (KEY dotted, in full)
 *   'KEY' must be a mapping
 *   'KEY' must be an integer, not 'TEXT'     (a number / true or false)
 *   'KEY' must be between MIN and MAX, not TEXT
 *   unknown value 'TEXT' for 'KEY'; expected one of: a, b, c
 * On success the tables are remembered for the getters below. */
int cs_config_check(struct cs_config *cfg, const struct cs_option *const *tables,
                    struct cs_error *err);

/* Typed getters after a successful check: the value in the tree or the
 * option's default.  Asking for a key no table declares is a programming
 * error (assert). */
int64_t cs_config_int(const struct cs_config *cfg, const char *key);
double cs_config_real(const struct cs_config *cfg, const char *key);
bool cs_config_bool(const struct cs_config *cfg, const char *key);
const char *cs_config_str(const struct cs_config *cfg, const char *key);
/* A file a string key names, as a path to open: relative to the config
 * file's folder unless absolute, or as given when it came from --set (then
 * relative to where csearch runs).  Returns a malloc'ed string. */
char *cs_config_path(const struct cs_config *cfg, const char *key);
/* CS_OPT_ENUM: the index of the value in choices. */
int cs_config_enum(const struct cs_config *cfg, const char *key);
/* Whether the tree gives the key explicitly. */
bool cs_config_has(const struct cs_config *cfg, const char *key);
/* Where the value is (the node's position), or the file with line 0 when
 * the key is absent and the default applies. */
struct cs_pos cs_config_pos(const struct cs_config *cfg, const char *key);
/* Where to report that key is missing: the mapping that should hold it
 * ("params" for "params.puzzle", the document for "model"), or the start
 * of the file (line 1, column 1) when that mapping is absent too. */
struct cs_pos cs_config_missing_pos(const struct cs_config *cfg,
                                    const char *key);

/* Levenshtein distance, used for "did you mean". */
size_t cs_edit_distance(const char *a, const char *b);

#endif
