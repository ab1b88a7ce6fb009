/* toy.c - the engine's own toy model, shared by test_engine.c and
 * test_layers.c: binary strings of length L with no two adjacent 1s, with
 * every hook the engine and its layers call (toy.h says what each does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "toy.h"

void toy_init(void *state, const void *problem)
{
    struct toy *s = state;
    s->p = problem;
    memset(s->bit, -1, (size_t)s->p->len);
}

int toy_select(const void *state)
{
    const struct toy *s = state;
    return s->set < s->p->len ? s->set : CS_NONE;
}

/* 1 is allowed unless a neighbour holds a 1. */
static bool toy_one_ok(const struct toy *s, int var)
{
    return !(var > 0 && s->bit[var - 1] == 1) &&
           !(var + 1 < s->p->len && s->bit[var + 1] == 1);
}

static int toy_domain_size(void *state, int var)
{
    struct toy *s = state;
    if (s->bit[var] >= 0)
        return -1;
    s->counters.checks++;
    return 1 + toy_one_ok(s, var);
}

bool toy_next(void *state, int var, uint64_t *cursor, int *value)
{
    struct toy *s = state;
    while (*cursor < 2) {
        int v = (int)(*cursor)++;
        s->counters.checks++;
        if (v == 0 || toy_one_ok(s, var)) {
            *value = v;
            return true;
        }
    }
    return false;
}

void toy_apply(void *state, int var, int value)
{
    struct toy *s = state;
    s->bit[var] = (signed char)value;
    s->set++;
    s->ones += value;
}

void toy_undo(void *state, int var, int value)
{
    struct toy *s = state;
    s->bit[var] = -1;
    s->set--;
    s->ones -= value;
}

static bool toy_prune(void *state)
{
    struct toy *s = state;
    return s->p->max_ones && s->ones > s->p->max_ones;
}

static bool toy_goal(void *state)
{
    const struct toy *s = state;
    return (!s->p->need_one || s->ones > 0) && s->ones >= s->p->min_ones;
}

static uint64_t toy_weight(const void *state, int var, int value)
{
    const struct toy *s = state;
    if (var == 0 && value == 1)
        return s->p->double_one ? 2 : s->p->zero_one ? 0 : 1;
    return 1;
}

/* ---- optimising: the 0s are the cost ---- */

static int64_t toy_cost(const void *state)
{
    const struct toy *s = state;
    return s->set - s->ones;
}

/* Weak: half the 0s set so far.  Else the 0s set so far plus floor(k / 2) for
 * the k open positions: k positions in a row hold at most ceil(k / 2) ones.
 * Positions are set left to right, except by relax, which may leave open runs
 * anywhere; each open run of k still needs floor(k / 2) zeros. */
static int64_t toy_bound(const void *state)
{
    const struct toy *s = state;
    int64_t zeros = s->set - s->ones;
    if (s->p->weak_bound)
        return zeros / 2;
    for (int i = 0; i < s->p->len;) {
        int k = 0;
        while (i < s->p->len && s->bit[i] < 0)
            k++, i++;
        zeros += k / 2;
        i += k == 0;
    }
    return zeros;
}

/* A neighbourhood: the incumbent everywhere but a window whose place the
 * round picks and whose length is the share the layer asks for. */
static void toy_relax(void *state, const void *best,
                      const struct cs_round *round)
{
    struct toy *s = state;
    const struct toy *b = best;
    int len = s->p->len;
    int free_len = (int)(round->size * len);
    if (free_len < 2)
        free_len = 2;
    int start = (int)(round->index * 7 % (uint64_t)len);
    for (int i = 0; i < len; i++) {
        int from_start = (i - start + len) % len;
        if (from_start >= free_len)
            toy_apply(s, i, b->bit[i]);
    }
}

static void toy_emit(const void *state, uint64_t k, struct cs_board *out)
{
    const struct toy *s = state;
    char line[64];
    int n = s->p->len < 63 ? s->p->len : 63;
    (void)k;
    for (int i = 0; i < n; i++)
        line[i] = (char)('0' + s->bit[i]);
    line[n] = '\0';
    cs_board_add(out, line);
}

/* select when relax may have set any positions: the first open one */
static int toy_select_open(const void *state)
{
    const struct toy *s = state;
    for (int i = 0; i < s->p->len; i++)
        if (s->bit[i] < 0)
            return i;
    return CS_NONE;
}

/* Restarts resume half-way up the path, the budget always growing. */
static int toy_restart(void *state, int depth, bool *grow)
{
    (void)state;
    (void)grow;
    return depth / 2;
}

/* The slots every counting table of the toy has: first is left out (the
 * engine starts every cursor at 0). */
#define TOY_TREE                                                               \
    .init = toy_init, .select = toy_select, .domain_size = toy_domain_size,    \
    .next = toy_next, .apply = toy_apply, .prune = toy_prune,                  \
    .goal = toy_goal, .weight = toy_weight, .counters = true

const struct cs_hooks toy_hooks = {
    TOY_TREE,
    .undo = toy_undo,
    .cost = toy_cost,
    .bound = toy_bound,
};

/* With neighbourhoods and restarts. */
const struct cs_hooks toy_layer_hooks = {
    .init = toy_init,
    .select = toy_select_open,
    .next = toy_next,
    .apply = toy_apply,
    .undo = toy_undo,
    .goal = toy_goal,
    .counters = true,
    .cost = toy_cost,
    .bound = toy_bound,
    .relax = toy_relax,
    .restart = toy_restart,
    .emit = toy_emit,
};

/* The same model copying its state instead of undoing. */
const struct cs_hooks toy_copy_hooks = {TOY_TREE};

/* And with a copy hook of its own, which leaves the counters alone. */
static void toy_copy(void *dst, const void *src)
{
    struct toy *d = dst;
    const struct toy *s = src;
    d->p = s->p;
    d->set = s->set;
    d->ones = s->ones;
    memcpy(d->bit, s->bit, (size_t)s->p->len);
}

const struct cs_hooks toy_copy_hook_hooks = {TOY_TREE, .copy = toy_copy};

uint64_t fib(int k)
{
    uint64_t a = 0, b = 1;
    while (k-- > 0) {
        uint64_t t = a + b;
        a = b;
        b = t;
    }
    return a;
}

void toy_run(struct toy_run *r, const struct cs_hooks *hooks,
             const struct toy_problem *tp, enum cs_select sel,
             enum cs_task task)
{
    memset(r, 0, sizeof *r);
    r->problem = (struct cs_problem){
        .hooks = hooks,
        .data = (void *)tp,
        .nvars = tp->len,
        .state_size = sizeof(struct toy) + (size_t)tp->len,
        .max_values = 2,
    };
    r->spec =
        (struct cs_spec){.problem = &r->problem, .task = task, .select = sel};
}

/* Run r, which must not fail. */
struct cs_result run_toy(struct toy_run *r)
{
    struct cs_result out;
    struct cs_error err;
    if (cs_search(&r->spec, &r->split, &out, &err))
        fail_msg("search: %s", err.msg);
    return out;
}

struct cs_result search(const struct cs_hooks *hooks,
                        const struct toy_problem *tp, enum cs_select sel)
{
    struct toy_run r;
    toy_run(&r, hooks, tp, sel, CS_TASK_COUNT);
    return run_toy(&r);
}
