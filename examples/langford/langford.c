/* langford.c - Langford pairs: two of each of 1..n in 2n places, the two ks
 * k places apart.  Variable i places the pair of k = n - i, the largest first
 * (they have the fewest places); value p puts the ks at places p and p + k + 1
 * of one 64-bit mask (n <= 32).  A sequence and its reversal are two
 * solutions: the ns keep to the left half, and a pair there weighs 2. */
#include <stdio.h>
#include <stdlib.h>
#include <csearch/dfs.h>
#include <csearch/plugin.h>

struct lf_state {
    struct cs_counters counters; /* checks: the places tried */
    uint64_t taken;              /* bit p: place p holds a number */
    int n, seq[64];              /* seq[p]: the number at place p */
};

static void lf_init(void *state, const void *problem)
{
    struct lf_state *s = state; /* zeroed by the engine */
    s->n = *(const int *)problem;
}

static int lf_select(const void *state)
{
    const struct lf_state *s = state;
    int placed = __builtin_popcountll(s->taken) / 2; /* two places a pair */
    return placed < s->n ? placed : CS_NONE;
}

/* The places of pair var (of k = n - var) from place p: p and p + k + 1. */
#define LF_PAIR(s, var, p) ((UINT64_C(1) << ((s)->n - (var) + 1) | 1) << (p))

/* The next p from *cursor with both places free, a check per p tried. */
static bool lf_next(void *state, int var, uint64_t *cursor, int *value)
{
    struct lf_state *s = state;
    int last = var ? s->n + var - 2 : s->n / 2 - 1; /* ns: the left half */
    for (int p = (int)*cursor; p <= last; p++) {
        s->counters.checks++;
        if (!(s->taken & LF_PAIR(s, var, p))) {
            *value = p;
            *cursor = (uint64_t)p + 1;
            return true;
        }
    }
    return false;
}

/* The ns left of the middle stand for their reversal (right of it) too. */
static uint64_t lf_weight(const void *state, int var, int value)
{
    const struct lf_state *s = state;
    return var == 0 && 2 * value < s->n - 2 ? 2 : 1;
}

static void lf_apply(void *state, int var, int value)
{
    struct lf_state *s = state;
    s->taken |= LF_PAIR(s, var, value);
    s->seq[value] = s->seq[value + s->n - var + 1] = s->n - var;
}

static void lf_undo(void *state, int var, int value)
{
    struct lf_state *s = state;
    s->taken &= ~LF_PAIR(s, var, value); /* seq[] is read at goals only */
}

/* Solution k of a goal state on one line, "3 1 2 1 3 2"; k = 1 reversed. */
static void lf_emit(const void *state, uint64_t k, struct cs_board *out)
{
    const struct lf_state *s = state;
    char line[64 * 3];
    int len = 0, last = 2 * s->n - 1;
    for (int p = 0; p <= last; p++)
        len += sprintf(line + len, p ? " %d" : "%d", s->seq[k ? last - p : p]);
    cs_board_add(out, line);
}

/* Moves in a trace: "3s = places 1, 5" (places counted from 1). */
static void lf_var_name(const void *state, int var, char *buf, size_t size)
{
    snprintf(buf, size, "%ds", ((const struct lf_state *)state)->n - var);
}

static void lf_value_name(const void *state, int var, int value, char *buf,
                          size_t size)
{
    const struct lf_state *s = state;
    snprintf(buf, size, "places %d, %d", value + 1, value + s->n - var + 2);
}

static const struct cs_name_hooks lf_names = {.var_name = lf_var_name,
                                              .value_name = lf_value_name};

CS_HOOKS(lf_hooks, .state_size = sizeof(struct lf_state), .init = lf_init,
         .counters = true, .select = lf_select, .next = lf_next,
         .weight = lf_weight, .apply = lf_apply, .undo = lf_undo,
         .emit = lf_emit, .names = &lf_names)

static const struct cs_option lf_options[] = {
    {.key = "params.n",
     .type = CS_OPT_INT,
     .def = "4",
     .min = 1,
     .max = 32,
     .help = "the pairs: two of each of 1..n"},
    {.key = NULL},
};

static int lf_setup(const struct cs_config *cfg, const struct cs_setup *how,
                    struct cs_problem *out, struct cs_error *err)
{
    int *n = cs_xmalloc(sizeof *n);
    (void)how, (void)err; /* the option table has checked params.n */
    *n = (int)cs_config_int(cfg, "params.n");
    *out = (struct cs_problem){
        .hooks = &lf_hooks, .data = n, .free_data = free, .nvars = *n};
    return 0;
}

CS_PLUGIN_MODEL(
    langford_model, .name = "langford", .setup = lf_setup,
    .summary = "Langford pairs: two of each of 1..n, the ks k places apart",
    .options = lf_options, .tasks = CS_TASKS_TREE);
