/* map.c - colour the regions of a map so that neighbours differ.
 *
 * A model written against the installed csearch headers only: built as a
 * plugin the csearch command loads (CS_PLUGIN at the end), and linked into
 * the program map-colour (main.c).  The map is YAML: params.map maps each
 * region to the regions it borders (a border listed once is enough), and
 * params.colours lists the colour names.  Region r is variable r (in the
 * order of params.map), its colour index the value.  A region's free colours
 * are those no coloured neighbour has, so the model can report domain sizes
 * and be searched with MRV; strategy.prune: forward cuts a branch as soon as
 * an uncoloured region has no colour left.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <csearch/dfs.h>
#include <csearch/plugin.h>

#include "map.h"

#define MAP_MAX 64     /* regions: a region's neighbours are a 64-bit mask */
#define MAP_COLOURS 16 /* colours: a region's free colours are a mask */

struct map_problem {
    int regions, colours;
    uint64_t borders[MAP_MAX]; /* bit j of borders[i]: i and j touch */
    char *region[MAP_MAX];     /* names, for emit */
    char *colour[MAP_COLOURS];
};

struct map_state {
    struct cs_counters counters; /* checks: the engine sums them */
    const struct map_problem *p;
    uint64_t coloured; /* bit r: region r has a colour */
    int colour[MAP_MAX];
};

static void map_free_problem(void *data)
{
    struct map_problem *p = data;
    if (!p)
        return;
    for (int i = 0; i < p->regions; i++)
        free(p->region[i]);
    for (int c = 0; c < p->colours; c++)
        free(p->colour[c]);
    free(p);
}

/* ---- hooks ---- */

static void map_init(void *state, const void *problem)
{
    struct map_state *s = state; /* zeroed by the engine */
    s->p = problem;
}

/* The colours region r's coloured neighbours already use. */
static unsigned map_used(const struct map_state *s, int r)
{
    unsigned used = 0;
    for (uint64_t m = s->p->borders[r] & s->coloured; m; m &= m - 1)
        used |= 1u << s->colour[__builtin_ctzll(m)];
    return used;
}

static unsigned map_all(const struct map_state *s)
{
    return (1u << s->p->colours) - 1;
}

static int map_select(const void *state)
{
    const struct map_state *s = state;
    uint64_t open = ~s->coloured;
    if (s->p->regions < 64)
        open &= (UINT64_C(1) << s->p->regions) - 1;
    return open ? __builtin_ctzll(open) : CS_NONE;
}

static int map_domain_size(void *state, int var)
{
    const struct map_state *s = state;
    if (s->coloured >> var & 1)
        return -1;
    return __builtin_popcount(map_all(s) & ~map_used(s, var));
}

static void map_first(void *state, int var, uint64_t *cursor)
{
    (void)state;
    (void)var;
    *cursor = 0; /* the next colour to try */
}

/* One check per colour tried against the neighbours. */
static bool map_next(void *state, int var, uint64_t *cursor, int *value)
{
    struct map_state *s = state;
    unsigned used = map_used(s, var);
    for (int c = (int)*cursor; c < s->p->colours; c++) {
        s->counters.checks++;
        if (!(used >> c & 1)) {
            *value = c;
            *cursor = (uint64_t)c + 1;
            return true;
        }
    }
    *cursor = (uint64_t)s->p->colours;
    return false;
}

static void map_apply(void *state, int var, int value)
{
    struct map_state *s = state;
    s->colour[var] = value;
    s->coloured |= UINT64_C(1) << var;
}

static void map_undo(void *state, int var, int value)
{
    struct map_state *s = state;
    (void)value;
    s->coloured &= ~(UINT64_C(1) << var);
}

/* Forward checking: an uncoloured neighbour of a coloured region with no
 * free colour left is a dead end now, not some levels further down.  Only
 * neighbours of coloured regions can have lost a colour. */
static bool map_prune(void *state)
{
    struct map_state *s = state;
    uint64_t touched = 0;
    for (uint64_t m = s->coloured; m; m &= m - 1)
        touched |= s->p->borders[__builtin_ctzll(m)];
    for (uint64_t m = touched & ~s->coloured; m; m &= m - 1) {
        s->counters.checks++;
        if (!(map_all(s) & ~map_used(s, __builtin_ctzll(m))))
            return true;
    }
    return false;
}

/* One line per region: "WA   red". */
static void map_emit(const void *state, uint64_t k, struct cs_board *out)
{
    const struct map_state *s = state;
    (void)k; /* every branch weighs 1 */
    int width = 0;
    for (int r = 0; r < s->p->regions; r++) {
        int len = (int)strlen(s->p->region[r]);
        width = len > width ? len : width;
    }
    for (int r = 0; r < s->p->regions; r++) {
        char line[256];
        snprintf(line, sizeof line, "%-*s  %s", width, s->p->region[r],
                 s->p->colour[s->colour[r]]);
        cs_board_add(out, line);
    }
}

/* Two constant tables, one per strategy.prune, each declared with the
 * engine body instantiated for it (CS_HOOKS, csearch/dfs.h) so that its
 * hooks inline. */
#define MAP_HOOKS(name, prune_hook)                                            \
    CS_HOOKS(name, .state_size = sizeof(struct map_state), .init = map_init,   \
             .select = map_select, .domain_size = map_domain_size,             \
             .first = map_first, .next = map_next, .apply = map_apply,         \
             .undo = map_undo, .prune = prune_hook, .counters = true,          \
             .emit = map_emit)
MAP_HOOKS(map_plain, NULL)
MAP_HOOKS(map_forward, map_prune)

/* ---- setup: the YAML map ---- */

static const char *const prune_names[] = {"none", "forward", NULL};

static const struct cs_option map_options[] = {
    {.key = "params.map",
     .type = CS_OPT_NODE,
     .choices = (const char *const[]){"mapping", NULL},
     .help = "each region mapped to the list of regions it borders"},
    {.key = "params.colours",
     .type = CS_OPT_NODE,
     .choices = (const char *const[]){"list", NULL},
     .help = "the list of colour names (1 to 16)"},
    {.key = "strategy.prune",
     .type = CS_OPT_ENUM,
     .def = "none",
     .choices = prune_names,
     .help = "forward: cut a branch when a region has no colour left"},
    {.key = NULL},
};

static int map_region(const struct map_problem *p, const char *name)
{
    for (int r = 0; r < p->regions; r++)
        if (!strcmp(p->region[r], name))
            return r;
    return -1;
}

static int map_read_colours(const struct cs_config *cfg, struct map_problem *p,
                            struct cs_error *err)
{
    const struct cs_node *list = cs_config_node(cfg, "params.colours");
    if (!list)
        return cs_error_at(err, cs_config_missing_pos(cfg, "params.colours"),
                           "missing key 'params.colours'");
    if (cs_node_kind(list) != CS_NODE_SEQ || !cs_node_len(list) ||
        cs_node_len(list) > MAP_COLOURS)
        return cs_error_at(err, cs_node_pos(list),
                           "'params.colours' must be a list of 1 to %d "
                           "colour names",
                           MAP_COLOURS);
    for (size_t i = 0; i < cs_node_len(list); i++) {
        const struct cs_node *item = cs_node_at(list, i);
        const char *name = cs_node_text(item);
        if (!name || !name[0])
            return cs_error_at(err, cs_node_pos(item),
                               "a colour must be a name");
        for (int c = 0; c < p->colours; c++)
            if (!strcmp(p->colour[c], name))
                return cs_error_at(err, cs_node_pos(item),
                                   "colour '%s' is listed twice", name);
        p->colour[p->colours++] = cs_xstrdup(name);
    }
    return 0;
}

static int map_read_map(const struct cs_config *cfg, struct map_problem *p,
                        struct cs_error *err)
{
    const struct cs_node *map = cs_config_node(cfg, "params.map");
    if (!map)
        return cs_error_at(err, cs_config_missing_pos(cfg, "params.map"),
                           "missing key 'params.map'");
    if (cs_node_kind(map) != CS_NODE_MAP || !cs_node_len(map) ||
        cs_node_len(map) > MAP_MAX)
        return cs_error_at(err, cs_node_pos(map),
                           "'params.map' must map 1 to %d regions to the "
                           "regions they border",
                           MAP_MAX);
    /* names first: a border may name a region listed further down */
    for (size_t i = 0; i < cs_node_len(map); i++)
        p->region[p->regions++] = cs_xstrdup(cs_node_key(map, i));
    for (int r = 0; r < p->regions; r++) {
        const struct cs_node *list = cs_node_at(map, (size_t)r);
        if (cs_node_kind(list) != CS_NODE_SEQ)
            return cs_error_at(err, cs_node_pos(list),
                               "the borders of '%s' must be a list of "
                               "regions ([] for none)",
                               p->region[r]);
        for (size_t i = 0; i < cs_node_len(list); i++) {
            const struct cs_node *item = cs_node_at(list, i);
            const char *name = cs_node_text(item);
            int other = name ? map_region(p, name) : -1;
            if (other < 0)
                return cs_error_at(err, cs_node_pos(item),
                                   "'%s' is not a region of params.map",
                                   name ? name : "(a list)");
            if (other == r)
                return cs_error_at(err, cs_node_pos(item),
                                   "region '%s' cannot border itself", name);
            p->borders[r] |= UINT64_C(1) << other;
            p->borders[other] |= UINT64_C(1) << r;
        }
    }
    return 0;
}

static int map_setup(const struct cs_config *cfg, const struct cs_setup *how,
                     struct cs_problem *out, struct cs_error *err)
{
    (void)how;
    struct map_problem *p = cs_xcalloc(1, sizeof *p);
    if (map_read_map(cfg, p, err) || map_read_colours(cfg, p, err)) {
        map_free_problem(p);
        return -1;
    }
    bool forward = cs_config_enum(cfg, "strategy.prune") == 1;
    out->hooks = forward ? &map_forward : &map_plain;
    out->data = p;
    out->free_data = map_free_problem;
    out->nvars = p->regions;
    return 0;
}

const struct cs_model map_model = {
    .abi_version = CS_ABI_VERSION,
    .name = "map",
    .summary = "colour a map (given in YAML) so that neighbours differ",
    .options = map_options,
    .tasks = CS_TASK_BIT(CS_TASK_COUNT) | CS_TASK_BIT(CS_TASK_SOLVE) |
             CS_TASK_BIT(CS_TASK_ENUMERATE),
    .setup = map_setup,
};

/* What the csearch command finds when a config says plugin: libmap.so. */
CS_PLUGIN(&map_model);
