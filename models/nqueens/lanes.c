/* lanes.c - the fast kernel's interior search on 8-lane vectors (AVX-512),
 * for d4.c's count of one border: the same tree as its scalar interior().
 *
 * The tree of d4.c's interior(), walked by 16 searches at once: two groups of
 * eight 64-bit lanes (AVX-512), each lane a depth-first search of its own
 * subtree.  A scalar walk (struct prefix_walk) fills the first NQ_LANE_PREFIX
 * rows or more; every node it reaches there with candidates left is one
 * subtree, handed to the next idle lane.  A step moves every lane by one
 * node at once: a lane with no candidate left backs up a row, then a lane
 * with a candidate places it, counts a solution if the row below it was the
 * last, and goes down if that row has candidates.  Lanes that differ are
 * masked, not branched on, so the mispredicted branch per node of the scalar
 * search is gone; two groups per step give the processor two independent
 * chains to overlap.
 *
 * To back up without a stack, diagonals are absolute (d1 bit r + c, d2 bit
 * c - r + n - 1, at most 2n - 1 <= 55 bits: the border queens are in them
 * from the start, no attack table), so a queen is removed by clearing its
 * bits, and each lane keeps the columns of its queens, 5 bits per row, in one
 * word: at most NQ_LANE_ROWS rows per lane (the last row is never entered).
 * Row candidates after backing up are recomputed, above the queen removed.
 * Nodes, fails and solutions are those of interior(), to the unit.
 */
#include "nqueens/internal.h"

#if NQ_LANES
#include <immintrin.h>
#endif

#define MAXN NQ_D4_MAX

bool nq_d4_lanes_supported(void)
{
#if NQ_LANES
    __builtin_cpu_init();
    return __builtin_cpu_supports("avx512f") &&
           __builtin_cpu_supports("avx512cd");
#else
    return false;
#endif
}

#if NQ_LANES

#define LANE_GROUPS 2

/* The scalar walk over the first `depth_end` rows, one subtree at a time. */
struct prefix_walk {
    const struct nq_plan *pl;
    int depth, depth_end;
    uint64_t nodes, expanded;
    uint64_t cols[MAXN], d1[MAXN], d2[MAXN], avail[MAXN];
};

static void walk_begin(struct prefix_walk *w, const struct nq_plan *pl,
                       int depth_end)
{
    const int n = pl->n;
    uint64_t cols = 0, d1 = 0, d2 = 0;
    for (int i = 0; i < pl->border.count; i++) {
        int r = pl->border.r[i], c = pl->border.c[i];
        cols |= UINT64_C(1) << c;
        d1 |= UINT64_C(1) << (r + c);
        d2 |= UINT64_C(1) << (c - r + n - 1);
    }
    const int r0 = pl->rows[0];
    w->pl = pl;
    w->depth = 0;
    w->depth_end = depth_end;
    w->cols[0] = cols;
    w->d1[0] = d1;
    w->d2[0] = d2;
    w->avail[0] = ~(cols | d1 >> r0 | d2 >> (n - 1 - r0)) & pl->full;
    w->nodes = 1; /* the root, as in interior() */
    w->expanded = w->avail[0] != 0;
}

/* The masks of the next subtree's root (row rows[depth_end], with its
 * candidates in out[3]); false when the walk is over. */
static bool walk_next(struct prefix_walk *w, uint64_t out[4])
{
    const struct nq_plan *pl = w->pl;
    const int n = pl->n;
    for (;;) {
        const int i = w->depth;
        if (!w->avail[i]) {
            if (i == 0)
                return false;
            w->depth--;
            continue;
        }
        const int r = pl->rows[i], r1 = pl->rows[i + 1];
        uint64_t bit = w->avail[i] & -w->avail[i];
        w->avail[i] ^= bit;
        uint64_t nc = w->cols[i] | bit, nd1 = w->d1[i] | bit << r,
                 nd2 = w->d2[i] | bit << (n - 1 - r);
        uint64_t next = ~(nc | nd1 >> r1 | nd2 >> (n - 1 - r1)) & pl->full;
        w->nodes++;
        if (!next)
            continue;
        w->expanded++; /* depth_end < m - 1: never the last row */
        if (i + 1 == w->depth_end) {
            out[0] = nc;
            out[1] = nd1;
            out[2] = nd2;
            out[3] = next;
            return true;
        }
        w->depth = i + 1;
        w->cols[i + 1] = nc;
        w->d1[i + 1] = nd1;
        w->d2[i + 1] = nd2;
        w->avail[i + 1] = next;
    }
}

#define LANES_TARGET __attribute__((target("avx512f,avx512cd")))
#define LANES_INLINE                                                           \
    __attribute__((target("avx512f,avx512cd"), always_inline)) static inline

/* Eight searches.  d: the lane's row index (rows[depth_end + d]); sh: 5 d,
 * where its queen's column goes in pos; av: candidates of that row not yet
 * tried; cols, d1, d2: every queen above row d. */
struct lane_group {
    __m512i cols, d1, d2, av, d, sh, pos, solutions, nodes, expanded;
    __mmask8 busy;
};

/* What every lane of a unit shares. */
struct lane_consts {
    __m512i rows_lo, rows_hi; /* rows[depth_end + d], d = 0..15 */
    __m512i full, n1, one, five, last, m31, c63, zero;
};

/* Hand subtrees to the idle lanes of g; false when the walk has none left. */
LANES_INLINE bool lanes_fill(struct lane_group *g, struct prefix_walk *w,
                             const struct lane_consts *k)
{
    uint64_t in[4][8];
    __mmask8 got = 0;
    bool more = true;
    for (int lane = 0; lane < 8 && more; lane++) {
        if (g->busy & 1u << lane)
            continue;
        uint64_t root[4];
        more = walk_next(w, root);
        if (!more)
            break;
        for (int j = 0; j < 4; j++)
            in[j][__builtin_popcount(got)] = root[j];
        got |= (__mmask8)(1u << lane);
    }
    if (got) {
        g->cols = _mm512_mask_expandloadu_epi64(g->cols, got, in[0]);
        g->d1 = _mm512_mask_expandloadu_epi64(g->d1, got, in[1]);
        g->d2 = _mm512_mask_expandloadu_epi64(g->d2, got, in[2]);
        g->av = _mm512_mask_expandloadu_epi64(g->av, got, in[3]);
        g->d = _mm512_mask_mov_epi64(g->d, got, k->zero);
        g->sh = _mm512_mask_mov_epi64(g->sh, got, k->zero);
        g->busy |= got;
    }
    return more;
}

/* One node for each busy lane of g. */
LANES_INLINE void lanes_step(struct lane_group *g, const struct lane_consts *k)
{
    const __m512i one = k->one, zero = k->zero;
    __m512i cols = g->cols, d1 = g->d1, d2 = g->d2, av = g->av, d = g->d,
            sh = g->sh, pos = g->pos;

    /* back up the lanes with no candidate left; a lane above its first
     * row has finished its subtree and goes idle */
    __mmask8 up = _mm512_mask_cmpeq_epi64_mask(g->busy, av, zero);
    d = _mm512_mask_sub_epi64(d, up, d, one);
    sh = _mm512_mask_sub_epi64(sh, up, sh, k->five);
    __mmask8 done = _mm512_mask_cmplt_epi64_mask(up, d, zero);
    __mmask8 lift = up & (__mmask8)~done;
    __m512i r = _mm512_permutex2var_epi64(k->rows_lo, d, k->rows_hi);
    __m512i rr = _mm512_sub_epi64(k->n1, r);
    __m512i col = _mm512_and_si512(_mm512_srlv_epi64(pos, sh), k->m31);
    __m512i bit = _mm512_sllv_epi64(one, col);
    cols = _mm512_mask_xor_epi64(cols, lift, cols, bit);
    d1 = _mm512_mask_xor_epi64(d1, lift, d1, _mm512_sllv_epi64(bit, r));
    d2 = _mm512_mask_xor_epi64(d2, lift, d2, _mm512_sllv_epi64(bit, rr));
    __m512i above = _mm512_sub_epi64(zero, _mm512_slli_epi64(bit, 1));
    __m512i taken = _mm512_ternarylogic_epi64(cols, _mm512_srlv_epi64(d1, r),
                                              _mm512_srlv_epi64(d2, rr), 0xFE);
    av = _mm512_mask_and_epi64(av, lift, _mm512_andnot_si512(taken, k->full),
                               above);
    g->busy &= (__mmask8)~done;

    /* place the lowest candidate; look at the row below */
    __mmask8 place = _mm512_mask_cmpneq_epi64_mask(g->busy, av, zero);
    bit = _mm512_and_si512(av, _mm512_sub_epi64(zero, av));
    av = _mm512_xor_si512(av, bit);
    __m512i nc = _mm512_or_si512(cols, bit);
    __m512i nd1 = _mm512_or_si512(d1, _mm512_sllv_epi64(bit, r));
    __m512i nd2 = _mm512_or_si512(d2, _mm512_sllv_epi64(bit, rr));
    __m512i dn = _mm512_add_epi64(d, one);
    __m512i r1 = _mm512_permutex2var_epi64(k->rows_lo, dn, k->rows_hi);
    __m512i rr1 = _mm512_sub_epi64(k->n1, r1);
    taken = _mm512_ternarylogic_epi64(nc, _mm512_srlv_epi64(nd1, r1),
                                      _mm512_srlv_epi64(nd2, rr1), 0xFE);
    __m512i below = _mm512_andnot_si512(taken, k->full);
    g->nodes = _mm512_mask_add_epi64(g->nodes, place, g->nodes, one);
    __mmask8 open = _mm512_mask_cmpneq_epi64_mask(place, below, zero);
    __mmask8 solved = _mm512_mask_cmpeq_epi64_mask(open, dn, k->last);
    g->solutions =
        _mm512_mask_add_epi64(g->solutions, solved, g->solutions, one);

    /* go down where the row below has candidates and is not the last */
    __mmask8 down = open & (__mmask8)~solved;
    g->expanded = _mm512_mask_add_epi64(g->expanded, down, g->expanded, one);
    col = _mm512_sub_epi64(k->c63, _mm512_lzcnt_epi64(bit));
    __m512i kept = _mm512_sub_epi64(_mm512_sllv_epi64(one, sh), one);
    g->pos = _mm512_mask_ternarylogic_epi64(pos, down, kept,
                                            _mm512_sllv_epi64(col, sh), 0xEA);
    g->d = _mm512_mask_mov_epi64(d, down, dn);
    g->sh = _mm512_mask_add_epi64(sh, down, sh, k->five);
    g->cols = _mm512_mask_mov_epi64(cols, down, nc);
    g->d1 = _mm512_mask_mov_epi64(d1, down, nd1);
    g->d2 = _mm512_mask_mov_epi64(d2, down, nd2);
    g->av = _mm512_mask_mov_epi64(av, down, below);
}

LANES_TARGET uint64_t nq_interior_lanes(struct nq_plan *pl, int depth_end,
                                        volatile sig_atomic_t *stop)
{
    struct prefix_walk w;
    walk_begin(&w, pl, depth_end);
    long long rows[16] = {0};
    for (int j = 0; depth_end + j < pl->m; j++)
        rows[j] = pl->rows[depth_end + j];
    struct lane_consts k = {
        .rows_lo = _mm512_loadu_si512(rows),
        .rows_hi = _mm512_loadu_si512(rows + 8),
        .full = _mm512_set1_epi64((long long)pl->full),
        .n1 = _mm512_set1_epi64(pl->n - 1),
        .one = _mm512_set1_epi64(1),
        .five = _mm512_set1_epi64(5),
        .last = _mm512_set1_epi64(pl->m - 1 - depth_end),
        .m31 = _mm512_set1_epi64(31),
        .c63 = _mm512_set1_epi64(63),
        .zero = _mm512_setzero_si512(),
    };
    struct lane_group g[LANE_GROUPS];
    for (int i = 0; i < LANE_GROUPS; i++)
        g[i] =
            (struct lane_group){k.zero, k.zero, k.zero, k.zero, k.zero, k.zero,
                                k.zero, k.zero, k.zero, k.zero, 0};
    bool more = true;
    for (;;) {
        __mmask8 busy = 0;
        for (int i = 0; i < LANE_GROUPS; i++) {
            if (more && g[i].busy != 0xff) {
                /* a subtree ends every few hundred nodes: listen here */
                if (stop && *stop) {
                    pl->stopped = true;
                    return 0;
                }
                more = lanes_fill(&g[i], &w, &k);
            }
            busy |= g[i].busy;
        }
        if (!busy)
            break;
        for (int i = 0; i < LANE_GROUPS; i++)
            lanes_step(&g[i], &k);
    }
    uint64_t count = 0, nodes = w.nodes, expanded = w.expanded;
    for (int i = 0; i < LANE_GROUPS; i++) {
        count += (uint64_t)_mm512_reduce_add_epi64(g[i].solutions);
        nodes += (uint64_t)_mm512_reduce_add_epi64(g[i].nodes);
        expanded += (uint64_t)_mm512_reduce_add_epi64(g[i].expanded);
    }
    pl->nodes += nodes;
    pl->fails += nodes - expanded - count;
    return count;
}

#endif /* NQ_LANES */
