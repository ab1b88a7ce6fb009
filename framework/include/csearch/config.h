/* csearch/config.h - YAML configs: a positioned tree, option tables, checks.
 *
 * A config is read with libyaml into a tree whose every node keeps its line
 * and column, and --set KEY=VALUE overrides edit that tree.  Option tables
 * (the framework's and each model's) say which keys a config may hold;
 * cs_config_check() validates the tree against them for the typed getters.
 */
#ifndef CSEARCH_CONFIG_H
#define CSEARCH_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "csearch/error.h"

/* what the headers declare is libcsearch's interface; the rest is hidden */
#pragma GCC visibility push(default)

/* Order of calls: cs_config_load() (or cs_config_parse(), cs_config_new()),
 * then any number of cs_config_set(), then cs_config_check(), then the
 * getters.  The tree can be read with cs_config_node() and cs_node_* at any
 * time.
 *
 * Ownership: the config owns the tree and every string and cs_pos it hands
 * out (strings are copied out of libyaml).  They stay valid until
 * cs_config_free(), except that cs_config_set() frees the node it replaces
 * and everything under it.  Every error is reported through the caller's
 * struct cs_error (csearch/error.h); nothing here prints. */

/* ---- reading a config --------------------------------------------------- */

enum cs_node_kind { CS_NODE_SCALAR, CS_NODE_MAP, CS_NODE_SEQ };

struct cs_node;   /* opaque: one mapping, sequence or scalar of the tree */
struct cs_config; /* opaque: the tree and the file name */

/* Read the file at path and parse it as cs_config_parse() does, with path as
 * the file name in positions; path "-" is standard input, named "<stdin>"
 * (CS_STDIN_NAME).  A pipe is read as a stream; a device or a directory is
 * refused before anything is read.  Returns 0 and sets *out to a new config
 * (free it with cs_config_free()), or returns -1 with *out NULL and err set.
 * Besides cs_config_parse()'s errors, without a line (csearch/file.h):
 *   cannot open: <strerror>                 (at PATH)
 *   cannot read: Is a directory             (at PATH)
 *   cannot read: not a regular file or a pipe       (/dev/zero, say)
 *   cannot read: larger than 16 MiB         (CS_CONFIG_MAX_BYTES)
 *   cannot read: <strerror> */
#define CS_CONFIG_MAX_BYTES ((size_t)16 << 20)
#define CS_STDIN_NAME "<stdin>"
int cs_config_load(struct cs_config **out, const char *path,
                   struct cs_error *err);

/* Parse len bytes of YAML at text (no NUL needed) into a new config named
 * name (copied; the file name of every position).  Returns 0 and sets *out,
 * or -1 with *out NULL and err set.  The text must hold one YAML document
 * whose top level is a mapping.  Aliases are expanded, each into a copy of
 * its anchor's subtree; scalars are kept as text (nothing is converted until
 * asked).  Errors, at FILE:LINE:COL of the offending node or key:
 *   nested deeper than 1000 levels
 *   more than 250000 nodes: a config holds settings, not bulk data
 *   more than 10000 anchors and aliases
 *   invalid YAML: <libyaml's problem>[ <its context>]
 *   the top level must be a mapping       (at 1:1 for an empty file)
 *   a key must be a scalar
 *   a key cannot hold a NUL character (\0)    (a quoted "\0" or "\x00")
 *   a value cannot hold a NUL character (\0)
 *   duplicate key 'KEY'
 *   an alias refers to its own ancestor
 *   aliases expand to too many nodes      (to over 100 copies per node of
 *                                          the document, plus 10000, or
 *                                          over 250000 nodes)
 *   only one YAML document is allowed     (at the second document)
 *   cannot start the YAML parser          (at name, without a line)
 * A node inside more than 1000 mappings and sequences (the top level is
 * inside none; a scalar key is no node), the 250001st node and the 10001st
 * anchor or alias (&name, *name) are refused there as soon as libyaml
 * reaches them, before anything else is checked and without reading
 * further, so only a syntax error earlier in the text is reported instead.
 * Otherwise libyaml reads the whole document, so a syntax error anywhere in
 * it is the one reported; then the top level is checked, then the nodes in
 * file order, aliases expanded (and counted in the depth as they expand),
 * up to the first problem; then what follows the document. */
int cs_config_parse(struct cs_config **out, const char *name, const char *text,
                    size_t len, struct cs_error *err);

/* A new config named name (copied) holding an empty top-level mapping,
 * positioned at name, line 0.  Never NULL; free it with cs_config_free(). */
struct cs_config *cs_config_new(const char *name);

/* Apply one override "a.b.c=VALUE".  KEY is everything before the first '=',
 * a dotted path whose every component is non-empty; VALUE is everything after
 * it, taken as scalar text, not parsed as YAML: one pair of matching single
 * or double quotes around it is stripped, nothing else (the node still is a
 * plain scalar: cs_node_quoted() is false).  The scalar replaces the node at
 * that path (freeing it and everything under it; its key keeps its place and
 * position) or is appended as a new key, and missing mappings on the way are
 * appended too.  New nodes and keys are positioned at the file
 * "--set a.b.c=VALUE", line 0, a name the config keeps.  Returns 0, or -1
 * with err set and the tree unchanged:
 *   --set: expected KEY=VALUE, got 'ASSIGNMENT'
 *   --set a.b.c=VALUE: 'a.b' is not a mapping   (a path through a scalar or
 *                                                a sequence) */
int cs_config_set(struct cs_config *cfg, const char *assignment,
                  struct cs_error *err);

/* Free the config, its tree and every string and name it handed out.
 * cfg may be NULL. */
void cs_config_free(struct cs_config *cfg);

/* The file name the config was made with (its copy). */
const char *cs_config_file(const struct cs_config *cfg);

/* The top-level mapping; never NULL. */
const struct cs_node *cs_config_root(const struct cs_config *cfg);

/* The node at a dotted path ("strategy.select") from the top level, or NULL
 * when some component is missing or the path runs through a non-mapping.
 * Keys are compared whole: a key written with a dot in the file is not
 * reached by a path. */
const struct cs_node *cs_config_node(const struct cs_config *cfg,
                                     const char *path);

/* ---- nodes -------------------------------------------------------------- */

/* The node's kind and position (where its text starts); node must not be
 * NULL.  An overridden node's position is its "--set ..." name, line 0. */
enum cs_node_kind cs_node_kind(const struct cs_node *node);
struct cs_pos cs_node_pos(const struct cs_node *node);

/* The remaining accessors accept NULL and then return NULL, 0 or false. */

/* A scalar's text (an empty scalar is ""); NULL for maps and sequences. */
const char *cs_node_text(const struct cs_node *node);

/* Was the scalar written in quotes (or as a block)?  Then it is a string
 * whatever its text looks like; false for plain scalars and non-scalars. */
bool cs_node_quoted(const struct cs_node *node);

/* Entries of a map or items of a sequence (0 for a scalar). */
size_t cs_node_len(const struct cs_node *node);

/* The i-th item of a sequence or the i-th value of a map, in file order
 * (overrides that add keys come after); NULL past the end. */
const struct cs_node *cs_node_at(const struct cs_node *node, size_t i);

/* The i-th key of a map and the key's position; NULL (and a position with
 * a NULL file, line 0) for a sequence, a scalar or past the end. */
const char *cs_node_key(const struct cs_node *node, size_t i);
struct cs_pos cs_node_key_pos(const struct cs_node *node, size_t i);

/* A map's value for key (compared whole), or NULL. */
const struct cs_node *cs_node_get(const struct cs_node *node, const char *key);

/* ---- scalar conversions ------------------------------------------------- */

/* Read a node as a value.  node must not be NULL; name is the key the
 * messages call it.  Returns 0 with *out set, or -1 with err set at the node
 * and *out unchanged.  These are the rules cs_config_check() and the getters
 * apply too.
 *
 * cs_node_int: decimal digits with an optional sign, nothing else (no 0x,
 * no 1_000, no blanks), within int64_t.  Errors:
 *   'NAME' must be an integer, not 'TEXT'      (or: not a mapping / a sequence)
 *   'NAME' must be between -9223372036854775808 and 9223372036854775807,
 *   not TEXT */
int cs_node_int(const struct cs_node *node, const char *name, int64_t *out,
                struct cs_error *err);
/* cs_node_int_in: the same within [min, max]; a value outside it, even one
 * beyond 64 bits, gives the key's own range:
 *   'NAME' must be between MIN and MAX, not TEXT */
int cs_node_int_in(const struct cs_node *node, const char *name, int64_t min,
                   int64_t max, int64_t *out, struct cs_error *err);

/* cs_node_real: the whole text as C's strtod() reads it, finite (no inf or
 * nan), not starting with a blank.  Errors:
 *   'NAME' must be a number, not 'TEXT'        (or: not a mapping / ...) */
int cs_node_real(const struct cs_node *node, const char *name, double *out,
                 struct cs_error *err);

/* cs_node_bool: true, yes, on / false, no, off, in any letter case.
 * Errors:
 *   'NAME' must be true or false, not 'TEXT'   (or: not a mapping / ...) */
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

/* One key a config may hold.  A table is an array of these ended by one
 * whose key is NULL; tables are static data that must outlive every config
 * checked against them (the config keeps pointers to the records). */
struct cs_option {
    const char *key; /* dotted: "model", "params.n" */
    enum cs_option_type type;
    const char *def;            /* default as YAML text; NULL = none */
    double min, max;            /* CS_OPT_INT / CS_OPT_REAL bounds */
    const char *const *choices; /* CS_OPT_ENUM: NULL-terminated; for
                                 * CS_OPT_NODE the shapes it takes, as
                                 * csearch --list names them ("mapping",
                                 * "list", "string"; NULL: any) */
    const char *all_word;       /* CS_OPT_INT, CS_OPT_REAL: a word the
                                 * getters return as -1 ("all", "auto") */
    const char *help;
};

/* The fields after .key of an option whose default "auto" leaves the value
 * to the model (the getters return -1 for it): a count of 0 or more, or a
 * real number in [lo, hi]. */
#define CS_OPT_AUTO_INT(text)                                                  \
    .type = CS_OPT_INT, .def = "auto", .min = 0, .max = 9e18,                  \
    .all_word = "auto", .help = text
#define CS_OPT_AUTO_REAL(lo, hi, text)                                         \
    .type = CS_OPT_REAL, .def = "auto", .min = lo, .max = hi,                  \
    .all_word = "auto", .help = text

/* Validate every key in the tree against the NULL-terminated list of
 * option tables.  A key is either an option ("model", "params.n") or a
 * section that some option's key continues ("params" for "params.n"); a
 * section must be a mapping and its keys are checked the same way.  The
 * checks go through the tree in file order and stop at the first error, at
 * the offending key or value:
 *   unknown key 'KEY'[; did you mean 'KEY2'?]  (KEY dotted, in full, and
 *       KEY2 the nearest option or section at that level by cs_nearest();
 *       a key written with a dot in the file is unknown)
 *   'KEY' must be a mapping                    (a section)
 *   'KEY' must be an integer, not 'TEXT'       (CS_OPT_INT; all_word passes)
 *   'KEY' must be a number, not 'TEXT'         (CS_OPT_REAL)
 *   'KEY' must be true or false, not 'TEXT'    (CS_OPT_BOOL)
 *   'KEY' must be a string, not a mapping      (CS_OPT_STRING, CS_OPT_ENUM)
 *   'KEY' must be between MIN and MAX, not TEXT
 *       (MIN and MAX printed with %.0f for CS_OPT_INT, %g for CS_OPT_REAL)
 *   unknown value 'TEXT' for 'KEY'; expected one of: a, b, c
 * A mapping or sequence where a scalar belongs reads "not a mapping" or
 * "not a sequence" in place of "not 'TEXT'".
 * Neither missing keys nor defaults are checked.  Returns 0 and remembers
 * the tables for the getters below (replacing those of an earlier check),
 * or -1 with err set, keeping what an earlier check remembered. */
int cs_config_check(struct cs_config *cfg,
                    const struct cs_option *const *tables,
                    struct cs_error *err);

/* ---- typed getters ------------------------------------------------------ */

/* After a successful cs_config_check(): the key's value in the tree, else
 * its option's default, converted by the option's type.  key must be
 * declared by a checked table with that type (assert); a value that was
 * checked always converts, and so must a default.  With neither a value nor
 * a default: 0, 0.0, false, NULL, -1.
 *
 * cs_config_int and cs_config_real return -1 for the option's all_word
 * (so a real option with one has min >= 0). */
int64_t cs_config_int(const struct cs_config *cfg, const char *key);
double cs_config_real(const struct cs_config *cfg, const char *key);
bool cs_config_bool(const struct cs_config *cfg, const char *key);

/* The scalar text, borrowed from the config (or the table's default); NULL
 * for a value that is not a scalar (CS_OPT_NODE) or with neither. */
const char *cs_config_str(const struct cs_config *cfg, const char *key);

/* A file a string key names, as a path to open: relative to the config
 * file's folder unless absolute, or as given when it came from --set (then
 * relative to where csearch runs) or the config's name has no folder; "-"
 * (standard input, csearch/file.h) stays "-".  The key must have a value or
 * a default.  Returns a malloc'ed string the caller
 * frees. */
char *cs_config_path(const struct cs_config *cfg, const char *key);

/* CS_OPT_ENUM: the index of the value in the option's choices. */
int cs_config_enum(const struct cs_config *cfg, const char *key);

/* The next three need no check and no declaration: they look at the tree.
 *
 * cs_config_has: whether the tree has a node at the dotted key (of any kind;
 * an explicit value, as opposed to a default). */
bool cs_config_has(const struct cs_config *cfg, const char *key);

/* Where the key's value is (its node's position), or the config's file with
 * line 0 when the tree lacks it and the default applies. */
struct cs_pos cs_config_pos(const struct cs_config *cfg, const char *key);

/* Where to report that key is missing: the mapping that should hold it
 * ("params" for "params.puzzle", the top level for "model"), or the start
 * of the file (line 1, column 1) when that mapping is absent too. */
struct cs_pos cs_config_missing_pos(const struct cs_config *cfg,
                                    const char *key);

/* ---- did you mean ------------------------------------------------------- */

/* The Levenshtein distance between two strings: the fewest one-byte
 * insertions, deletions and substitutions that turn a into b. */
size_t cs_edit_distance(const char *a, const char *b);

/* The one "did you mean" rule of csearch: of the n candidates (candidates
 * may be NULL when n is 0), the one nearest to word by cs_edit_distance(),
 * the first of those on a tie, if it is at most max(2, strlen(word) / 3)
 * edits away; else NULL.  Returns one of the candidates' pointers, so the
 * result lives as long as they do.  Callers compare like with like: a full
 * dotted key against full dotted keys, a model name against model names. */
const char *cs_nearest(const char *word, const char *const *candidates,
                       size_t n);

#pragma GCC visibility pop

#endif
