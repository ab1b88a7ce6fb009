/* bitmask.c - the bitmask state: three shifting masks, one level per row,
 * rows in order; a row's candidates are full & ~(cols | d1 | d2).
 *
 * Four tables, by forward checking and d4 (which tests each solution); the
 * two without d4 run their own instance of the engine (csearch/dfs.h) on
 * their constant table, so every hook inlines into the search.
 */
#include "csearch/dfs.h"
#include "nqueens/internal.h"

/* Level r holds the masks row r sees: columns taken, and the squares the
 * queens above attack along each diagonal (d1 shifts left a column per row,
 * d2 right).  apply writes level r + 1, undo just steps back. */
struct nq_bits {
    struct cs_counters counters; /* the engine's: checks, unique */
    int n, row;
    bool mirror, d4;
    uint64_t full, half;
    uint64_t cols[NQ_BITMASK_MAX + 1];
    uint64_t d1[NQ_BITMASK_MAX + 1];
    uint64_t d2[NQ_BITMASK_MAX + 1];
    int pos[NQ_BITMASK_MAX];
};

static void bits_init(void *state, const void *problem)
{
    struct nq_bits *s = state;
    const struct nq_problem *p = problem;
    s->n = p->n;
    s->mirror = p->mirror;
    s->d4 = p->d4;
    s->full = nq_low_bits(p->n);
    s->half = nq_low_bits(nq_mirror_limit(p->n));
}

static int bits_select(const void *state)
{
    const struct nq_bits *s = state;
    return s->row < s->n ? s->row : CS_NONE;
}

static void bits_first(void *state, int r, uint64_t *cursor)
{
    struct nq_bits *s = state;
    uint64_t avail = s->full & ~(s->cols[r] | s->d1[r] | s->d2[r]);
    if (r == 0 && s->mirror)
        avail &= s->half;
    s->counters.checks++;
    *cursor = avail;
}

static void bits_apply(void *state, int r, int c)
{
    struct nq_bits *s = state;
    uint64_t bit = UINT64_C(1) << c;
    s->cols[r + 1] = s->cols[r] | bit;
    s->d1[r + 1] = (s->d1[r] | bit) << 1;
    s->d2[r + 1] = (s->d2[r] | bit) >> 1;
    s->pos[r] = c;
    s->row = r + 1;
}

static void bits_undo(void *state, int r, int c)
{
    struct nq_bits *s = state;
    (void)c;
    s->row = r;
}

/* Forward checking: row row + k sees the diagonals shifted k more times. */
static bool bits_prune(void *state)
{
    struct nq_bits *s = state;
    int r = s->row;
    for (int k = 0; k < s->n - r; k++) {
        s->counters.checks++;
        if (!(s->full & ~(s->cols[r] | s->d1[r] << k | s->d2[r] >> k)))
            return true;
    }
    return false;
}

NQ_ROW_HOOKS(bits, struct nq_bits, r == 0)

/* Row row + k sees the diagonals shifted k more times (as in prune). */
static uint64_t bits_taken(const struct nq_bits *s, int r)
{
    int k = r - s->row;
    return s->cols[s->row] | s->d1[s->row] << k | s->d2[s->row] >> k;
}

static bool bits_attacked(const void *state, int r, int c)
{
    return bits_taken(state, r) >> c & 1;
}

static void bits_describe(const void *state, struct cs_view *out)
{
    const struct nq_bits *s = state;
    int r = s->row;
    uint64_t rows = nq_low_bits(r < 64 ? r : 64);
    uint64_t avail = s->full & ~(s->cols[r] | s->d1[r] | s->d2[r]);
    if (r == 0 && s->mirror)
        avail &= s->half;
    nq_view_board(out, s->pos, s->n, rows, s, bits_attacked);
    nq_view_queens(out, s->pos, s->n, rows);
    nq_view_bits(out, "cols", 0, s->cols[r] & s->full, s->n);
    nq_view_bits(out, "d1", 0, s->d1[r] & s->full, s->n);
    nq_view_bits(out, "d2", 0, s->d2[r] & s->full, s->n);
    nq_view_bits(out, "avail", 0, r < s->n ? avail : 0, s->n);
}

static int bits_search(struct cs_dfs *dfs, void *state);
static int bits_forward_search(struct cs_dfs *dfs, void *state);

static const struct cs_name_hooks bits_names = {.describe = bits_describe,
                                                .var_name = nq_var_name,
                                                .value_name = nq_value_name};

#define BITS_HOOKS                                                             \
    .state_size = sizeof(struct nq_bits), .init = bits_init,                   \
    .select = bits_select, .first = bits_first, .next = nq_next_bit,           \
    .apply = bits_apply, .undo = bits_undo, .weight = bits_weight,             \
    .counters = true, .emit = bits_emit, .value = bits_value,                  \
    .names = &bits_names

static const struct cs_hooks bitmask_hooks = {
    BITS_HOOKS,
    .search = bits_search,
};

/* d4 without the kernel: the plain tree, each solution tested at the goal. */
static const struct cs_hooks bitmask_d4_hooks = {
    BITS_HOOKS,
    .goal = bits_goal,
};

static const struct cs_hooks bitmask_forward_d4_hooks = {
    BITS_HOOKS,
    .prune = bits_prune,
    .goal = bits_goal,
};

static const struct cs_hooks bitmask_forward_hooks = {
    BITS_HOOKS,
    .prune = bits_prune,
    .search = bits_forward_search,
};

static int bits_search(struct cs_dfs *dfs, void *state)
{
    return cs_dfs(dfs, state, &bitmask_hooks);
}

static int bits_forward_search(struct cs_dfs *dfs, void *state)
{
    return cs_dfs(dfs, state, &bitmask_forward_hooks);
}

const struct cs_hooks *nq_bitmask_hooks(const struct nq_problem *p)
{
    if (p->d4)
        return p->forward ? &bitmask_forward_d4_hooks : &bitmask_d4_hooks;
    return p->forward ? &bitmask_forward_hooks : &bitmask_hooks;
}
