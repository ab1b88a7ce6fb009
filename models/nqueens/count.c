/* count.c - the count state: the bitmask state slimmed down for counts that
 * show no board (task count, no d4, no trace).
 *
 * No positions and a handful of scalars, copied rather than undone; two
 * tables, by forward checking, each with its own inlined search that keeps
 * the state in a local the compiler can hold in registers.
 */
#include "csearch/dfs.h"
#include "nqueens/internal.h"

/* For a count nothing is shown, so no positions are kept and the state is a
 * handful of scalars.  It is copied rather than undone (its copy hook moves
 * four words and leaves the checks counter alone), and the search function
 * below keeps it in a local, so the compiler can hold it in registers: the
 * engine then walks the tree with no memory round trip between a queen's
 * placement and the next row's candidates, as a hand-written recursion does. */
struct nq_count {
    struct cs_counters counters; /* the engine's: checks, unique */
    int n, row;
    bool mirror;
    uint64_t full, half, cols, d1, d2;
};

static void count_init(void *state, const void *problem)
{
    struct nq_count *s = state;
    const struct nq_problem *p = problem;
    s->n = p->n;
    s->mirror = p->mirror;
    s->full = nq_low_bits(p->n);
    s->half = nq_low_bits(nq_mirror_limit(p->n));
}

static int count_select(const void *state)
{
    const struct nq_count *s = state;
    return s->row < s->n ? s->row : CS_NONE;
}

static void count_first(void *state, int r, uint64_t *cursor)
{
    struct nq_count *s = state;
    uint64_t avail = s->full & ~(s->cols | s->d1 | s->d2);
    if (r == 0 && s->mirror)
        avail &= s->half;
    s->counters.checks++;
    *cursor = avail;
}

static void count_apply(void *state, int r, int c)
{
    struct nq_count *s = state;
    uint64_t bit = UINT64_C(1) << c;
    s->cols |= bit;
    s->d1 = (s->d1 | bit) << 1;
    s->d2 = (s->d2 | bit) >> 1;
    s->row = (r + 1);
}

static void count_copy(void *dst, const void *src)
{
    struct nq_count *d = dst;
    const struct nq_count *s = src;
    d->row = s->row;
    d->cols = s->cols;
    d->d1 = s->d1;
    d->d2 = s->d2;
}

static bool count_prune(void *state)
{
    struct nq_count *s = state;
    for (int k = 0; k < s->n - s->row; k++) {
        s->counters.checks++;
        if (!(s->full & ~(s->cols | s->d1 << k | s->d2 >> k)))
            return true;
    }
    return false;
}

NQ_WEIGHT_HOOK(count, struct nq_count, r == 0)

static int count_search(struct cs_dfs *dfs, void *state);
static int count_forward_search(struct cs_dfs *dfs, void *state);

#define COUNT_HOOKS                                                            \
    .state_size = sizeof(struct nq_count), .init = count_init,                 \
    .copy = count_copy, .select = count_select, .first = count_first,          \
    .next = nq_next_bit, .apply = count_apply, .weight = count_weight,         \
    .counters = true

static const struct cs_hooks count_hooks = {
    COUNT_HOOKS,
    .search = count_search,
};

static const struct cs_hooks count_forward_hooks = {
    COUNT_HOOKS,
    .prune = count_prune,
    .search = count_forward_search,
};

/* The state in a local whose address never escapes the inlined engine. */
static int count_search(struct cs_dfs *dfs, void *state)
{
    struct nq_count local = *(struct nq_count *)state;
    int status = cs_dfs(dfs, &local, &count_hooks);
    *(struct nq_count *)state = local;
    return status;
}

static int count_forward_search(struct cs_dfs *dfs, void *state)
{
    struct nq_count local = *(struct nq_count *)state;
    int status = cs_dfs(dfs, &local, &count_forward_hooks);
    *(struct nq_count *)state = local;
    return status;
}

const struct cs_hooks *nq_count_hooks(const struct nq_problem *p)
{
    return p->forward ? &count_forward_hooks : &count_hooks;
}
