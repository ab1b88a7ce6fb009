/* layer_keys.h - the layers' keys (internal to libcsearch): one row per
 * knob of struct cs_layers (model.h), and everything made of the rows.
 *
 * A row is X(name, key, hash, kind, read, echo, OPTION...): the knob's
 * field of struct cs_layers and its key, whether it shapes a count (then the
 * checkpoint's fingerprint hashes it), the field's kind, which says how a
 * config's value goes over the model's proposal and how --json says what ran, a
 * reader and an echo for a knob its kind does not cover (NULL: the kind's), and
 * the rest of its option row (the fields of struct cs_option). job.c expands
 * the option rows into cs_framework_options; layer_keys.c the table the readers
 * and echoes work from.  A new knob is a row, a field of struct cs_layers, and
 * what the layer does with it.
 */
#ifndef CSEARCH_LAYER_KEYS_H
#define CSEARCH_LAYER_KEYS_H

#include <stdbool.h>
#include <stddef.h>

#include "csearch/job.h"

/* What a knob's value does to the checkpoint's fingerprint. */
enum layer_hash {
    HASH_NEVER,     /* it shapes no count */
    HASH_WHEN_TRUE, /* a boolean hashed only when true (shuffle) */
};

/* How a knob's field takes a config's value, and says it in --json. */
enum layer_kind {
    KIND_COUNT,  /* uint64_t: an integer, or "auto" (-1) keeps the model's */
    KIND_SWITCH, /* bool: auto keeps the model's, on, off */
    KIND_REAL,   /* double: a number >= 0, or "auto" (-1) keeps the model's */
    KIND_FLAG,   /* bool: true turns it on, false keeps the model's */
    KIND_OTHER,  /* an enum: its row's reader and echo say */
};

/* The names of the choices the rows name, and what they stand for (-1:
 * "auto", the model's proposal). */
extern const char *const layer_restart_names[];
extern const int layer_restart_values[];
extern const char *const layer_local_names[];
extern const enum cs_local layer_local_values[];
extern const char *const layer_switch_names[]; /* auto, on, off */

/* clang-format off */
#define LAYER_KNOBS(X)                                                         \
    X(restarts, "strategy.restarts", HASH_NEVER,                               \
      KIND_OTHER, read_restarts, echo_restarts,                                \
      .type = CS_OPT_ENUM, .def = "auto",                                      \
      .choices = layer_restart_names,                                          \
      .help = "restart a search for a first solution under node budgets: "     \
              "constant, geometric (doubling), luby, none, or the model's "    \
              "choice")                                                        \
    X(restart_nodes, "strategy.restart_nodes", HASH_NEVER,                     \
      KIND_COUNT, read_restart_nodes, NULL,                                    \
      CS_OPT_AUTO_INT("the first restart budget in nodes, 0 = never restart "  \
                     "(auto: the model's)"))                                   \
    X(shuffle, "strategy.shuffle", HASH_WHEN_TRUE, KIND_FLAG, NULL, NULL,      \
      .type = CS_OPT_BOOL, .def = "false",                                     \
      .help = "try values in an order drawn from strategy.seed (models "       \
              "that allow it)")                                                \
    X(lns_nodes, "strategy.lns_nodes", HASH_NEVER, KIND_COUNT, NULL, NULL,     \
      CS_OPT_AUTO_INT("optimize: nodes per neighbourhood round after a first " \
                     "solution, 0 = one branch and bound (auto: the "          \
                     "model's)"))                                              \
    X(local, "strategy.local", HASH_NEVER,                                     \
      KIND_OTHER, read_local, echo_local,                                      \
      .type = CS_OPT_ENUM, .def = "auto",                                      \
      .choices = layer_local_names,                                            \
      .help = "task solve: min-conflicts local search on a complete "          \
              "assignment instead of the tree, none, or auto (the model's "    \
              "choice: local where backtracking would stall)")                 \
    X(moves, "strategy.local_moves", HASH_NEVER, KIND_SWITCH, NULL, NULL,      \
      .type = CS_OPT_ENUM, .def = "auto",                                      \
      .choices = layer_switch_names,                                           \
      .help = "task optimize: bursts of local improvement moves (the "         \
              "model's ls_* hooks) between neighbourhood rounds; auto: the "   \
              "model's choice; on where the model has none is an error")       \
    X(stall_rounds, "strategy.local_stall", HASH_NEVER,                        \
      KIND_COUNT, NULL, NULL,                                                  \
      CS_OPT_AUTO_INT("task optimize with local moves: a burst also after "    \
                     "this many rounds without a new best since the last "     \
                     "burst, 0 = only after a round that improved (auto: the " \
                     "model's)"))                                              \
    X(local_steps, "strategy.local_steps", HASH_NEVER,                         \
      KIND_COUNT, NULL, NULL,                                                  \
      CS_OPT_AUTO_INT("local search: steps before a restart from a new "       \
                      "start, 0 = never; local moves: steps without a new "    \
                      "best that end a burst (auto: the model's)"))            \
    X(walk, "strategy.walk", HASH_NEVER, KIND_REAL, NULL, echo_none,           \
      .type = CS_OPT_REAL, .def = "0.02", .min = 0,                            \
      .max = 1,                                                                \
      .help = "local search: the chance that a step makes a random move "      \
              "instead of the best")                                           \
    X(sample, "strategy.sample", HASH_NEVER, KIND_COUNT, NULL, NULL,           \
      CS_OPT_AUTO_INT("local search: moves weighed per step, drawn at random " \
                     "when a variable has more, 0 = all (auto: the model's)"))
/* clang-format on */

/* The option rows, for cs_framework_options (job.c). */
#define LAYER_OPTION(name, knob_key, hash, kind, read, echo, ...)              \
    {.key = knob_key, __VA_ARGS__},

/* The knob of a key, or NULL for a key that is no layer's. */
struct layer_knob {
    const char *key;
    enum layer_hash hash;
    enum layer_kind kind;
    size_t field; /* its offset in struct cs_layers */
    /* the config's value over l (the model's proposal, p's); NULL: by kind */
    void (*read)(const struct cs_config *cfg, const char *key,
                 const struct cs_problem *p, struct cs_layers *l);
    /* what ran, as JSON text into buf, or false: the config's value
     * stands; NULL: by kind */
    bool (*echo)(const struct cs_layers *l, char *buf, size_t size);
};
const struct layer_knob *layer_knob(const char *key);

/* The shortest text that reads back as v, into buf. */
void layer_real_text(char *buf, size_t size, double v);

/* The layers: the model's proposal, with the keys given on top. */
struct cs_layers layers_of(const struct cs_config *cfg,
                           const struct cs_problem *p);

#endif
