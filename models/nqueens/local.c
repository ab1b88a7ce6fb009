/* local.c - N-Queens for the min-conflicts layer: a permutation state.
 *
 * pos[r] is the column of row r's queen and pos is a permutation, so rows
 * and columns never clash; only diagonals do.  d1[r + c] and d2[r - c + n -
 * 1] count the queens on each diagonal (8-bit: 8 bytes per queen in all,
 * 4 for pos and 2 x 2 for the counters); a move that would take a counter
 * past 255 is refused, so they never wrap.  collisions is the sum over the
 * diagonals of (count - 1) for the occupied ones.  cand holds rows that may
 * be attacked: every diagonal with two queens or more has one of its
 * queens in it (a queen that lands on an occupied diagonal is added), and
 * rows no longer attacked are dropped when a pick meets them.
 */
#define _DEFAULT_SOURCE /* madvise */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "csearch/random.h"
#include "nqueens/internal.h"

/* The start's tries for a free diagonal pair per row: with 128 the
 * start leaves some tens to a hundred conflicts at n = 10^6 .. 10^8 */
#define LS_TRIES 128
#define LS_FULL 255

struct nq_ls {
    uint32_t n;
    uint32_t *pos;
    uint8_t *d1, *d2;
    uint64_t collisions;
    uint32_t *cand;
    size_t ncand, cap;
};

/* A large array on 2 MB pages where the kernel grants them: the start
 * reads all three arrays at random, and with 4 kB pages a board of 10^8
 * queens misses the TLB on nearly every read. */
#define LS_HUGE ((size_t)2 << 20)
static void *ls_alloc(size_t size)
{
    if (size < 2 * LS_HUGE)
        return cs_xmalloc(size);
    void *p = NULL;
    size_t rounded = (size + LS_HUGE - 1) & ~(LS_HUGE - 1);
    if (posix_memalign(&p, LS_HUGE, rounded))
        return cs_xmalloc(size);
#ifdef MADV_HUGEPAGE
    madvise(p, rounded, MADV_HUGEPAGE); /* a hint: failure is fine */
#endif
    return p;
}

static void ls_init(void *state, const void *problem)
{
    struct nq_ls *s = state;
    const struct nq_problem *p = problem;
    s->n = (uint32_t)p->n;
    s->pos = ls_alloc((size_t)s->n * sizeof *s->pos);
    s->d1 = ls_alloc(2 * (size_t)s->n);
    s->d2 = ls_alloc(2 * (size_t)s->n);
    s->cap = 1024;
    s->cand = cs_xmalloc(s->cap * sizeof *s->cand);
}

size_t nq_local_bytes(uint32_t n)
{
    /* pos, d1 and d2; cand's first 1024 rows; 5n bits of nq_check_columns */
    return 8 * (size_t)n + 1024 * sizeof(uint32_t) + 5 * ((size_t)n + 63) / 8;
}

static void ls_fini(void *state)
{
    struct nq_ls *s = state;
    free(s->pos);
    free(s->d1);
    free(s->d2);
    free(s->cand);
}

/* A draw below n: the high half of a 64 x 32-bit product, no division. */
static inline uint32_t ls_below(uint64_t *rng, uint32_t n)
{
    return (uint32_t)(((cs_random(rng) >> 32) * (uint64_t)n) >> 32);
}

static inline size_t ls_d2(const struct nq_ls *s, uint32_t r, uint32_t c)
{
    return (size_t)r + s->n - 1 - c;
}

static void ls_note(struct nq_ls *s, uint32_t r)
{
    if (s->ncand == s->cap) {
        s->cap *= 2;
        s->cand = cs_xrealloc(s->cand, s->cap * sizeof *s->cand);
    }
    s->cand[s->ncand++] = r;
}

static inline bool ls_attacked(const struct nq_ls *s, uint32_t r)
{
    uint32_t c = s->pos[r];
    return s->d1[(size_t)r + c] > 1 || s->d2[ls_d2(s, r, c)] > 1;
}

/* Put the queen of row r (column pos[r]) on its diagonals. */
static inline void ls_place(struct nq_ls *s, uint32_t r)
{
    uint32_t c = s->pos[r];
    uint8_t *a = &s->d1[(size_t)r + c], *b = &s->d2[ls_d2(s, r, c)];
    s->collisions += (*a > 0) + (*b > 0);
    if (*a || *b)
        ls_note(s, r);
    ++*a;
    ++*b;
}

/* The greedy start: row by row, a column drawn from those not yet taken
 * (pos[i..n) holds them) whose two diagonals are free, within LS_TRIES
 * tries (ls_retry); else the last try whose counters have room.  Each
 * row's draw is made LS_AHEAD rows early and its memory prefetched (the
 * column at once, its diagonals half-way), so the cache misses of many
 * rows overlap. */
#define LS_AHEAD 16
static inline bool ls_free(const struct nq_ls *s, uint32_t r, uint32_t c)
{
    return !s->d1[(size_t)r + c] && !s->d2[ls_d2(s, r, c)];
}

/* Row i's tries after the first draw j missed: the columns next to it in
 * pos (wrapping within [i, n)).  Most of pos[i..n) still holds the columns
 * in order, so these tries read the same cache lines of pos, d1 and d2 as
 * the first: up to LS_TRIES tries for the misses of one.  The first free
 * one, else the last. */
static uint32_t ls_retry(const struct nq_ls *s, uint32_t i, uint32_t j)
{
    const uint32_t n = s->n;
    for (int t = 1; t < LS_TRIES; t++) {
        j = j + 1 < n ? j + 1 : i;
        if (ls_free(s, i, s->pos[j]))
            break;
    }
    return j;
}

static bool ls_start(void *state, uint64_t seed, volatile sig_atomic_t *stop)
{
    struct nq_ls *s = state;
    const uint32_t n = s->n;
    uint64_t rng = seed;
    uint32_t ahead[LS_AHEAD];
    for (uint32_t r = 0; r < n; r++)
        s->pos[r] = r;
    memset(s->d1, 0, 2 * (size_t)n);
    memset(s->d2, 0, 2 * (size_t)n);
    s->collisions = 0;
    s->ncand = 0;
    for (uint32_t k = 0; k < LS_AHEAD && k < n; k++)
        ahead[k] = k + ls_below(&rng, n - k);
    for (uint32_t i = 0; i < n; i++) {
        if (!(i & 0xfffff) && *stop)
            return false; /* every 2^20 rows: Ctrl-C within milliseconds */
        uint32_t j = ahead[i % LS_AHEAD];
        if (i + LS_AHEAD < n) {
            uint32_t later = i + LS_AHEAD;
            ahead[i % LS_AHEAD] = later + ls_below(&rng, n - later);
            __builtin_prefetch(&s->pos[ahead[i % LS_AHEAD]]);
        }
        if (i + LS_AHEAD / 2 < n) {
            uint32_t mid = i + LS_AHEAD / 2, c = s->pos[ahead[mid % LS_AHEAD]];
            __builtin_prefetch(&s->d1[(size_t)mid + c]);
            __builtin_prefetch(&s->d2[ls_d2(s, mid, c)]);
        }
        if (!ls_free(s, i, s->pos[j]))
            j = ls_retry(s, i, j);
        /* a counter that is full takes no queen: the next column does */
        while (s->d1[(size_t)i + s->pos[j]] == LS_FULL ||
               s->d2[ls_d2(s, i, s->pos[j])] == LS_FULL)
            j = j + 1 < n ? j + 1 : i;
        uint32_t c = s->pos[j];
        s->pos[j] = s->pos[i];
        s->pos[i] = c;
        ls_place(s, i);
    }
    return true;
}

static uint64_t ls_conflicts(const void *state)
{
    const struct nq_ls *s = state;
    return s->collisions;
}

/* A row in conflict: a draw from cand, dropping the rows met that are no
 * longer attacked.  The invariant guarantees one while collisions > 0;
 * should cand run dry anyway, one pass over the board refills it. */
static int ls_pick(void *state, uint64_t random)
{
    struct nq_ls *s = state;
    if (!s->collisions)
        return CS_NONE;
    for (;;) {
        if (!s->ncand) {
            for (uint32_t r = 0; r < s->n; r++)
                if (ls_attacked(s, r))
                    ls_note(s, r);
            if (!s->ncand)
                return CS_NONE;
        }
        size_t k = (size_t)(((random >> 32) * (uint64_t)s->ncand) >> 32);
        uint32_t r = s->cand[k];
        if (ls_attacked(s, r))
            return (int)r;
        s->cand[k] = s->cand[--s->ncand];
        random = random * UINT64_C(6364136223846793005) + 1442695040888963407u;
    }
}

static uint64_t ls_moves(const void *state, int var)
{
    const struct nq_ls *s = state;
    (void)var;
    return s->n; /* swap with row m (m = var: no move) */
}

/* Collisions taken away by removing two queens from lines x and y of one
 * family (the same line when x == y), and added by putting two on u and v;
 * the removed and added lines never meet (a swap moves both queens). */
static inline int64_t ls_family(const uint8_t *d, size_t x, size_t y, size_t u,
                                size_t v)
{
    int64_t delta;
    if (x == y)
        delta = -(d[x] >= 3 ? 2 : 1);
    else
        delta = -(int64_t)(d[x] >= 2) - (d[y] >= 2);
    if (u == v)
        return d[u] > LS_FULL - 2 ? INT64_MAX : delta + (d[u] ? 2 : 1);
    if (d[u] == LS_FULL || d[v] == LS_FULL)
        return INT64_MAX;
    return delta + (d[u] > 0) + (d[v] > 0);
}

static int64_t ls_delta(void *state, int var, uint64_t move)
{
    const struct nq_ls *s = state;
    uint32_t a = (uint32_t)var, b = (uint32_t)move;
    if (a == b)
        return INT64_MAX; /* no move: not one to weigh */
    uint32_t ca = s->pos[a], cb = s->pos[b];
    int64_t one = ls_family(s->d1, (size_t)a + ca, (size_t)b + cb,
                            (size_t)a + cb, (size_t)b + ca);
    if (one == INT64_MAX)
        return INT64_MAX;
    int64_t two = ls_family(s->d2, ls_d2(s, a, ca), ls_d2(s, b, cb),
                            ls_d2(s, a, cb), ls_d2(s, b, ca));
    return two == INT64_MAX ? INT64_MAX : one + two;
}

static void ls_apply(void *state, int var, uint64_t move)
{
    struct nq_ls *s = state;
    uint32_t a = (uint32_t)var, b = (uint32_t)move;
    if (a == b)
        return;
    uint32_t ca = s->pos[a], cb = s->pos[b];
    s->collisions = (uint64_t)((int64_t)s->collisions + ls_delta(s, var, move));
    s->d1[(size_t)a + ca]--;
    s->d2[ls_d2(s, a, ca)]--;
    s->d1[(size_t)b + cb]--;
    s->d2[ls_d2(s, b, cb)]--;
    s->pos[a] = cb;
    s->pos[b] = ca;
    s->d1[(size_t)a + cb]++;
    s->d2[ls_d2(s, a, cb)]++;
    s->d1[(size_t)b + ca]++;
    s->d2[ls_d2(s, b, ca)]++;
    if (ls_attacked(s, a))
        ls_note(s, a);
    if (ls_attacked(s, b))
        ls_note(s, b);
}

static bool ls_verify(const void *state)
{
    const struct nq_ls *s = state;
    return nq_check_columns(s->pos, s->n) < 0;
}

static int ls_value(const void *state, int var)
{
    const struct nq_ls *s = state;
    return (int)s->pos[var];
}

/* The Q/. board, for boards the CLI still prints that way (n <= 64). */
static void ls_emit(const void *state, uint64_t k, struct cs_board *out)
{
    const struct nq_ls *s = state;
    int pos[NQ_BITMASK_MAX];
    (void)k;
    if (s->n > NQ_BITMASK_MAX)
        return;
    for (uint32_t r = 0; r < s->n; r++)
        pos[r] = (int)s->pos[r];
    nq_emit_board(pos, (int)s->n, 0, out);
}

/* Traces: a move is a swap with another row. */
static void ls_move_name(const void *state, int var, int move, char *buf,
                         size_t size)
{
    const struct nq_ls *s = state;
    snprintf(buf, size, "swaps with row %d, to col %u", move,
             (unsigned)s->pos[var]);
}

/* Traces of small boards (n <= 16): Q a queen, X one attacked. */
static void ls_describe(const void *state, struct cs_view *out)
{
    const struct nq_ls *s = state;
    char line[17];
    if (s->n > 16)
        return;
    for (uint32_t r = 0; r < s->n; r++) {
        memset(line, '.', s->n);
        line[s->n] = '\0';
        line[s->pos[r]] = ls_attacked(s, r) ? 'X' : 'Q';
        cs_board_add(&out->board, line);
    }
}

static const struct cs_local_hooks ls_local = {
    .ls_start = ls_start,
    .ls_conflicts = ls_conflicts,
    .ls_pick = ls_pick,
    .ls_moves = ls_moves,
    .ls_delta = ls_delta,
    .ls_apply = ls_apply,
};

static const struct cs_name_hooks ls_names = {
    .describe = ls_describe,
    .var_name = nq_var_name,
    .value_name = ls_move_name,
};

static const struct cs_hooks ls_hooks = {
    .state_size = sizeof(struct nq_ls),
    .init = ls_init,
    .fini = ls_fini,
    .emit = ls_emit,
    .names = &ls_names,
    .local = &ls_local,
    .verify = ls_verify,
    .value = ls_value,
};

const struct cs_hooks *nq_local_hooks(void)
{
    return &ls_hooks;
}
