/* layer_keys.c - the layers' keys (layer_keys.h): each knob's reader, which
 * puts a config's value over the model's proposal, and its echo, which
 * says in --json what ran, by the knob's kind or its own function where the
 * kind does not say it all.  layers_of() reads them all in the rows' order,
 * then settles what one knob means for another.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/engine.h"
#include "layer_keys.h"

/* -1, "auto": the model's proposal (cs_problem.layers) */
#define LAYER_RESTARTS(X)                                                      \
    X(-1, "auto")                                                              \
    X(CS_RESTARTS_NONE, "none")                                                \
    X(CS_RESTARTS_CONSTANT, "constant")                                        \
    X(CS_RESTARTS_GEOMETRIC, "geometric")                                      \
    X(CS_RESTARTS_LUBY, "luby")
#define LAYER_LOCALS(X)                                                        \
    X(CS_LOCAL_AUTO, "auto")                                                   \
    X(CS_LOCAL_NONE, "none")                                                   \
    X(CS_LOCAL_MIN_CONFLICTS, "min-conflicts")
#define LAYER_NAME(constant, name) name,
#define LAYER_CONSTANT(constant, name) constant,

const char *const layer_restart_names[] = {LAYER_RESTARTS(LAYER_NAME) NULL};
const int layer_restart_values[] = {LAYER_RESTARTS(LAYER_CONSTANT)};
const char *const layer_local_names[] = {LAYER_LOCALS(LAYER_NAME) NULL};
const enum cs_local layer_local_values[] = {LAYER_LOCALS(LAYER_CONSTANT)};
const char *const layer_switch_names[] = {"auto", "on", "off", NULL};

/* ---- readers and echoes that a knob's kind does not cover -------------- */

static void read_restarts(const struct cs_config *cfg, const char *key,
                          const struct cs_problem *p, struct cs_layers *l)
{
    (void)p;
    int v = layer_restart_values[cs_config_enum(cfg, key)];
    if (v >= 0)
        l->restarts = (enum cs_restarts)v;
}

static void read_restart_nodes(const struct cs_config *cfg, const char *key,
                               const struct cs_problem *p, struct cs_layers *l)
{
    (void)p;
    int64_t v = cs_config_int(cfg, key);
    if (v >= 0)
        l->restart_nodes = (uint64_t)v;
    else if (l->restarts != CS_RESTARTS_NONE && !l->restart_nodes)
        l->restart_nodes = 1000; /* asked for by key, none proposed */
}

static void read_local(const struct cs_config *cfg, const char *key,
                       const struct cs_problem *p, struct cs_layers *l)
{
    enum cs_local v = layer_local_values[cs_config_enum(cfg, key)];
    if (v == CS_LOCAL_NONE)
        l->local = false;
    else if (v == CS_LOCAL_MIN_CONFLICTS && cs_hooks_local(p->hooks))
        l->local = true;
}

static bool echo_u64(char *buf, size_t size, uint64_t v)
{
    snprintf(buf, size, "%" PRIu64, v);
    return true;
}

static bool echo_name(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "\"%s\"", name);
    return true;
}

void layer_real_text(char *buf, size_t size, double v)
{
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, size, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            break;
    }
}

static bool echo_real(char *buf, size_t size, double v)
{
    layer_real_text(buf, size, v);
    return true;
}

static bool echo_none(const struct cs_layers *l, char *buf, size_t size)
{
    (void)l, (void)buf, (void)size;
    return false;
}

static bool echo_restarts(const struct cs_layers *l, char *buf, size_t size)
{
    return echo_name(
        buf, size,
        cs_restarts_name(l->restart_nodes ? l->restarts : CS_RESTARTS_NONE));
}

/* the search that ran */
static bool echo_local(const struct cs_layers *l, char *buf, size_t size)
{
    return echo_name(buf, size, l->local ? "min-conflicts" : "none");
}

/* ---- the table ---------------------------------------------------------- */

#define LAYER_ROW(name, key, hash, kind, read, echo, ...)                      \
    {key, hash, kind, offsetof(struct cs_layers, name), read, echo},

static const struct layer_knob knobs[] = {LAYER_KNOBS(LAYER_ROW)};

/* The config's value of k over l, as k's kind reads it. */
static void read_by_kind(const struct layer_knob *k,
                         const struct cs_config *cfg, struct cs_layers *l)
{
    void *field = (char *)l + k->field;
    switch (k->kind) {
    case KIND_COUNT: {
        int64_t v = cs_config_int(cfg, k->key);
        if (v >= 0)
            *(uint64_t *)field = (uint64_t)v;
        break;
    }
    case KIND_SWITCH: { /* auto, on, off */
        int v = cs_config_enum(cfg, k->key);
        if (v)
            *(bool *)field = v == 1;
        break;
    }
    case KIND_REAL: {
        double v = cs_config_real(cfg, k->key);
        if (v >= 0)
            *(double *)field = v;
        break;
    }
    case KIND_FLAG:
        if (cs_config_bool(cfg, k->key))
            *(bool *)field = true;
        break;
    case KIND_OTHER: /* its row has a reader */
        break;
    }
}

/* What ran for k, as JSON text, as k's kind says it. */
static bool echo_by_kind(const struct layer_knob *k, const struct cs_layers *l,
                         char *buf, size_t size)
{
    const void *field = (const char *)l + k->field;
    switch (k->kind) {
    case KIND_COUNT:
        return echo_u64(buf, size, *(const uint64_t *)field);
    case KIND_SWITCH:
        return echo_name(buf, size, *(const bool *)field ? "on" : "off");
    case KIND_REAL:
        return echo_real(buf, size, *(const double *)field);
    case KIND_FLAG:
        snprintf(buf, size, "%s", *(const bool *)field ? "true" : "false");
        return true;
    case KIND_OTHER: /* its row has an echo */
        break;
    }
    return false;
}

const struct layer_knob *layer_knob(const char *key)
{
    for (size_t i = 0; i < sizeof knobs / sizeof *knobs; i++)
        if (!strcmp(knobs[i].key, key))
            return &knobs[i];
    return NULL;
}

struct cs_layers layers_of(const struct cs_config *cfg,
                           const struct cs_problem *p)
{
    struct cs_layers l = p->layers;
    for (size_t i = 0; i < sizeof knobs / sizeof *knobs; i++)
        if (knobs[i].read)
            knobs[i].read(cfg, knobs[i].key, p, &l);
        else
            read_by_kind(&knobs[i], cfg, &l);
    return l;
}

bool cs_job_layer_value(const struct cs_job *job, const char *key, char *buf,
                        size_t size)
{
    const struct layer_knob *k = layer_knob(key);
    if (!k)
        return false;
    return k->echo ? k->echo(&job->layers, buf, size)
                   : echo_by_kind(k, &job->layers, buf, size);
}
