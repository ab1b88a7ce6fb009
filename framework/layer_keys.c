/* layer_keys.c - the layers' keys (layer_keys.h): each knob's reader, which
 * puts a config's value over the model's proposal, and its echo, which
 * says in --json what ran.  layers_of() reads them all in the rows' order,
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

/* ---- readers: the config's value over the model's proposal ------------- */

/* An integer or "auto" (-1: the model's stands). */
static void auto_int(const struct cs_config *cfg, const char *key,
                     uint64_t *field)
{
    int64_t v = cs_config_int(cfg, key);
    if (v >= 0)
        *field = (uint64_t)v;
}

/* auto, on, off: 0 keeps the model's. */
static void auto_switch(const struct cs_config *cfg, const char *key,
                        bool *field)
{
    int v = cs_config_enum(cfg, key);
    if (v)
        *field = v == 1;
}

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

static void read_shuffle(const struct cs_config *cfg, const char *key,
                         const struct cs_problem *p, struct cs_layers *l)
{
    (void)p;
    if (cs_config_bool(cfg, key))
        l->shuffle = true;
}

static void read_lns_nodes(const struct cs_config *cfg, const char *key,
                           const struct cs_problem *p, struct cs_layers *l)
{
    (void)p;
    auto_int(cfg, key, &l->lns_nodes);
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

static void read_moves(const struct cs_config *cfg, const char *key,
                       const struct cs_problem *p, struct cs_layers *l)
{
    (void)p;
    auto_switch(cfg, key, &l->moves);
}

static void read_stall_rounds(const struct cs_config *cfg, const char *key,
                              const struct cs_problem *p, struct cs_layers *l)
{
    (void)p;
    auto_int(cfg, key, &l->stall_rounds);
}

static void read_anneal_steps(const struct cs_config *cfg, const char *key,
                              const struct cs_problem *p, struct cs_layers *l)
{
    (void)p;
    int64_t v = cs_config_int(cfg, key);
    if (v >= 0) /* steps given: bursts of them, unless fill says on */
        l->anneal_steps = (uint64_t)v, l->anneal_fill = false;
}

static void read_anneal_fill(const struct cs_config *cfg, const char *key,
                             const struct cs_problem *p, struct cs_layers *l)
{
    (void)p;
    auto_switch(cfg, key, &l->anneal_fill);
}

static void read_large_steps(const struct cs_config *cfg, const char *key,
                             const struct cs_problem *p, struct cs_layers *l)
{
    (void)p;
    auto_int(cfg, key, &l->large_steps);
}

static void read_large_share(const struct cs_config *cfg, const char *key,
                             const struct cs_problem *p, struct cs_layers *l)
{
    (void)p;
    double v = cs_config_real(cfg, key);
    if (v >= 0)
        l->large_share = v;
    else if (!cs_config_real(cfg, "limits.seconds"))
        l->large_share = 0; /* auto times nothing without a time limit, so
                               the same spec keeps giving the same run */
}

static void read_anneal_t0(const struct cs_config *cfg, const char *key,
                           const struct cs_problem *p, struct cs_layers *l)
{
    (void)p;
    double v = cs_config_real(cfg, key);
    if (v > 0)
        l->anneal_t0 = v;
}

static void read_anneal_t1(const struct cs_config *cfg, const char *key,
                           const struct cs_problem *p, struct cs_layers *l)
{
    (void)p;
    double v = cs_config_real(cfg, key);
    if (v > 0)
        l->anneal_t1 = v;
}

static void read_local_steps(const struct cs_config *cfg, const char *key,
                             const struct cs_problem *p, struct cs_layers *l)
{
    (void)p;
    auto_int(cfg, key, &l->local_steps);
}

static void read_walk(const struct cs_config *cfg, const char *key,
                      const struct cs_problem *p, struct cs_layers *l)
{
    (void)p;
    l->walk = cs_config_real(cfg, key);
}

static void read_sample(const struct cs_config *cfg, const char *key,
                        const struct cs_problem *p, struct cs_layers *l)
{
    (void)p;
    auto_int(cfg, key, &l->sample);
}

/* ---- echoes: what ran, as JSON text ------------------------------------ */

static void echo_u64(char *buf, size_t size, uint64_t v)
{
    snprintf(buf, size, "%" PRIu64, v);
}

static void echo_name(char *buf, size_t size, const char *name)
{
    snprintf(buf, size, "\"%s\"", name);
}

/* The shortest text that reads back as v. */
static void echo_real(char *buf, size_t size, double v)
{
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(buf, size, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            break;
    }
}

static void echo_restarts(const struct cs_layers *l, char *buf, size_t size)
{
    echo_name(
        buf, size,
        cs_restarts_name(l->restart_nodes ? l->restarts : CS_RESTARTS_NONE));
}

static void echo_restart_nodes(const struct cs_layers *l, char *buf,
                               size_t size)
{
    echo_u64(buf, size, l->restart_nodes);
}

static void echo_shuffle(const struct cs_layers *l, char *buf, size_t size)
{
    snprintf(buf, size, "%s", l->shuffle ? "true" : "false");
}

static void echo_lns_nodes(const struct cs_layers *l, char *buf, size_t size)
{
    echo_u64(buf, size, l->lns_nodes);
}

/* the search that ran */
static void echo_local(const struct cs_layers *l, char *buf, size_t size)
{
    echo_name(buf, size, l->local ? "min-conflicts" : "none");
}

static void echo_moves(const struct cs_layers *l, char *buf, size_t size)
{
    echo_name(buf, size, l->moves ? "on" : "off");
}

static void echo_stall_rounds(const struct cs_layers *l, char *buf, size_t size)
{
    echo_u64(buf, size, l->stall_rounds);
}

static void echo_anneal_steps(const struct cs_layers *l, char *buf, size_t size)
{
    echo_u64(buf, size, l->anneal_steps);
}

static void echo_anneal_fill(const struct cs_layers *l, char *buf, size_t size)
{
    echo_name(buf, size,
              l->moves && l->anneal_steps && l->anneal_fill ? "on" : "off");
}

static void echo_large_steps(const struct cs_layers *l, char *buf, size_t size)
{
    echo_u64(buf, size, l->moves ? l->large_steps : 0);
}

static void echo_large_share(const struct cs_layers *l, char *buf, size_t size)
{
    echo_real(buf, size, l->moves && !l->large_steps ? l->large_share : 0);
}

static void echo_anneal_t0(const struct cs_layers *l, char *buf, size_t size)
{
    echo_real(buf, size, l->anneal_t0);
}

static void echo_anneal_t1(const struct cs_layers *l, char *buf, size_t size)
{
    echo_real(buf, size, l->anneal_t1);
}

static void echo_local_steps(const struct cs_layers *l, char *buf, size_t size)
{
    echo_u64(buf, size, l->local_steps);
}

static void echo_sample(const struct cs_layers *l, char *buf, size_t size)
{
    echo_u64(buf, size, l->sample);
}

/* ---- the table ---------------------------------------------------------- */

#define LAYER_ROW(name, key, hash, read, echo, ...) {key, hash, read, echo},

static const struct layer_knob knobs[] = {LAYER_KNOBS(LAYER_ROW)};

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
        knobs[i].read(cfg, knobs[i].key, p, &l);
    if (!cs_config_real(cfg, "limits.seconds"))
        l.anneal_fill = false; /* no limit to fill */
    if (!p->hooks->local || !p->hooks->local->ls_large)
        l.large_steps = 0, l.large_share = 0; /* no large move to make */
    return l;
}

bool cs_job_layer_value(const struct cs_job *job, const char *key, char *buf,
                        size_t size)
{
    const struct layer_knob *k = layer_knob(key);
    if (!k || !k->echo)
        return false;
    k->echo(&job->layers, buf, size);
    return true;
}
