/* absolute.c - the absolute state: the bitmask state with absolute
 * diagonal masks (bit r + c and c - r + n - 1), so any open row's
 * candidates can be read off at once: what MRV needs (domain_size).
 *
 * One table (forward and d4 read at run time) with its own inlined search.
 */
#include "csearch/dfs.h"
#include "nqueens/internal.h"

/* 2n - 1 diagonals need up to 127 bits for n = 64. */
__extension__ typedef unsigned __int128 nq_diag;

struct nq_abs {
    struct cs_counters counters; /* the engine's: checks, unique */
    int n, placed;
    bool mirror, forward, d4;
    uint64_t full, half;
    uint64_t cols, rows; /* rows: the rows that have a queen */
    nq_diag d1, d2;      /* bit r + c, bit c - r + n - 1 */
    int pos[NQ_BITMASK_MAX];
};

static uint64_t abs_avail(const struct nq_abs *s, int r)
{
    uint64_t taken =
        s->cols | (uint64_t)(s->d1 >> r) | (uint64_t)(s->d2 >> (s->n - 1 - r));
    uint64_t avail = s->full & ~taken;
    return s->placed == 0 && s->mirror ? avail & s->half : avail;
}

static void abs_init(void *state, const void *problem)
{
    struct nq_abs *s = state;
    const struct nq_problem *p = problem;
    s->n = p->n;
    s->mirror = p->mirror;
    s->forward = p->forward;
    s->d4 = p->d4;
    s->full = nq_low_bits(p->n);
    s->half = nq_low_bits(nq_mirror_limit(p->n));
}

static int abs_select(const void *state)
{
    const struct nq_abs *s = state;
    return s->placed < s->n ? __builtin_ctzll(~s->rows) : CS_NONE;
}

static int abs_domain_size(void *state, int r)
{
    struct nq_abs *s = state;
    if (s->rows >> r & 1)
        return -1;
    s->counters.checks++;
    return __builtin_popcountll(abs_avail(s, r));
}

static void abs_first(void *state, int r, uint64_t *cursor)
{
    struct nq_abs *s = state;
    s->counters.checks++;
    *cursor = abs_avail(s, r);
}

static void abs_apply(void *state, int r, int c)
{
    struct nq_abs *s = state;
    s->cols |= UINT64_C(1) << c;
    s->d1 |= (nq_diag)1 << (r + c);
    s->d2 |= (nq_diag)1 << (c - r + s->n - 1);
    s->rows |= UINT64_C(1) << r;
    s->pos[r] = c;
    s->placed++;
}

static void abs_undo(void *state, int r, int c)
{
    struct nq_abs *s = state;
    s->cols &= ~(UINT64_C(1) << c);
    s->d1 &= ~((nq_diag)1 << (r + c));
    s->d2 &= ~((nq_diag)1 << (c - r + s->n - 1));
    s->rows &= ~(UINT64_C(1) << r);
    s->pos[r] = 0;
    s->placed--;
}

static bool abs_prune(void *state)
{
    struct nq_abs *s = state;
    if (!s->forward)
        return false;
    for (int r = 0; r < s->n; r++) {
        if (s->rows >> r & 1)
            continue;
        s->counters.checks++;
        if (!abs_avail(s, r))
            return true;
    }
    return false;
}

NQ_ROW_HOOKS(abs, struct nq_abs, s->placed == 0)

static bool abs_attacked(const void *state, int r, int c)
{
    const struct nq_abs *s = state;
    return !(s->full &
             ~(s->cols | (uint64_t)(s->d1 >> r) |
               (uint64_t)(s->d2 >> (s->n - 1 - r))) >>
                 c &
             1);
}

static void abs_describe(const void *state, struct cs_view *out)
{
    const struct nq_abs *s = state;
    nq_view_board(out, s->pos, s->n, s->rows, s, abs_attacked);
    nq_view_queens(out, s->pos, s->n, s->rows);
    nq_view_bits(out, "rows", 0, s->rows, s->n);
    nq_view_bits(out, "cols", 0, s->cols, s->n);
    nq_view_bits(out, "d1", (uint64_t)(s->d1 >> 64), (uint64_t)s->d1,
                 2 * s->n - 1);
    nq_view_bits(out, "d2", (uint64_t)(s->d2 >> 64), (uint64_t)s->d2,
                 2 * s->n - 1);
}

static int abs_search(struct cs_dfs *dfs, void *state);

static const struct cs_name_hooks abs_names = {.describe = abs_describe,
                                               .var_name = nq_var_name,
                                               .value_name = nq_value_name};

static const struct cs_hooks absolute_hooks = {
    .state_size = sizeof(struct nq_abs),
    .init = abs_init,
    .select = abs_select,
    .domain_size = abs_domain_size,
    .first = abs_first,
    .next = nq_next_bit,
    .apply = abs_apply,
    .undo = abs_undo,
    .prune = abs_prune,
    .counters = true,
    .goal = abs_goal,
    .weight = abs_weight,
    .emit = abs_emit,
    .value = abs_value,
    .names = &abs_names,
    .search = abs_search,
};

static int abs_search(struct cs_dfs *dfs, void *state)
{
    return cs_dfs(dfs, state, &absolute_hooks);
}

const struct cs_hooks *nq_absolute_hooks(const struct nq_problem *p)
{
    (void)p;
    return &absolute_hooks;
}
