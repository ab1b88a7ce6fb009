/* d4.c - N-Queens counting by canonical border placements.
 *
 * Counting.  Let K be a placement of the border queens and count(K) the
 * number of solutions that extend it.  Symmetries map solutions with border K
 * one-to-one onto solutions with border g(K), so the total is the sum over
 * canonical K of count(K) * |orbit(K)| = count(K) * 8 / |Stab(K)|.
 *
 * Unique solutions.  A solution S with border K meets, within its own orbit,
 * exactly |Stab(K)| / |Stab(S)| solutions with border K (those g(S) with g in
 * Stab(K)).  Giving each of them the weight |Stab(S)| / |Stab(K)| counts every
 * orbit once.  No solution for n > 1 is symmetric under a reflection, so
 * Stab(S) is 1 unless K itself is symmetric under the half or quarter turn;
 * only those rare borders are searched with the positions recorded, to test
 * each solution's rotations.
 *
 * The interior search.  Rows n-2..1 that hold no border queen are searched
 * bottom-up with three masks, as in the plain counter, with two changes: the
 * squares the border queens attack in each row are precomputed (attack[i]),
 * so nothing is injected on the way down, and the shift between two searched
 * rows is their distance (skipping the rows of the side queens).  The last
 * searched row has at most one free square: a solution iff it is free.
 * On AVX-512 processors the same tree is walked 16 subtrees at a time on
 * vector lanes (interior_lanes, below): same nodes, same counts.
 */
#include <stdlib.h>
#include <string.h>

#include "nqueens/d4.h"

/* The 8-lane interior search: x86-64 compilers that take per-function
 * targets; used when the processor has AVX-512 F and CD. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NQ_LANES 1
#include <immintrin.h>
#else
#define NQ_LANES 0
#endif

#define MAXN NQ_D4_MAX

void nq_d4_map(int n, int g, int r, int c, int *gr, int *gc)
{
    int m = n - 1;
    switch (g) {
    case 0: *gr = r;     *gc = c;     break;
    case 1: *gr = c;     *gc = m - r; break;
    case 2: *gr = m - r; *gc = m - c; break;
    case 3: *gr = m - c; *gc = r;     break;
    case 4: *gr = r;     *gc = m - c; break;
    case 5: *gr = m - r; *gc = c;     break;
    case 6: *gr = c;     *gc = r;     break;
    default: *gr = m - c; *gc = m - r; break;
    }
}

/* ---- border placements --------------------------------------------------- */

struct queens {
    int count;
    int r[4], c[4];
};

static void add_queen(struct queens *q, int r, int c)
{
    for (int i = 0; i < q->count; i++)
        if (q->r[i] == r && q->c[i] == c)
            return;
    q->r[q->count] = r;
    q->c[q->count] = c;
    q->count++;
}

static struct queens border_queens(int n, const struct nq_border *b)
{
    struct queens q = {0};
    add_queen(&q, 0, b->top);
    add_queen(&q, n - 1, b->bottom);
    add_queen(&q, b->left, 0);
    add_queen(&q, b->right, n - 1);
    return q;
}

/* A border is consistent when a queen in a corner is the same queen for
 * both of its lines, and no two of its queens attack each other. */
static bool border_valid(int n, const struct nq_border *b)
{
    int m = n - 1;
    if ((b->top == 0) != (b->left == 0) || (b->top == m) != (b->right == 0) ||
        (b->bottom == 0) != (b->left == m) ||
        (b->bottom == m) != (b->right == m))
        return false;
    struct queens q = border_queens(n, b);
    for (int i = 0; i < q.count; i++)
        for (int j = i + 1; j < q.count; j++)
            if (q.r[i] == q.r[j] || q.c[i] == q.c[j] ||
                abs(q.r[i] - q.r[j]) == abs(q.c[i] - q.c[j]))
                return false;
    return true;
}

static struct nq_border border_image(int n, const struct nq_border *b, int g)
{
    struct queens q = border_queens(n, b);
    struct nq_border out = {0};
    for (int i = 0; i < q.count; i++) {
        int r, c;
        nq_d4_map(n, g, q.r[i], q.c[i], &r, &c);
        if (r == 0)
            out.top = (signed char)c;
        if (r == n - 1)
            out.bottom = (signed char)c;
        if (c == 0)
            out.left = (signed char)r;
        if (c == n - 1)
            out.right = (signed char)r;
    }
    return out;
}

static int border_key(int n, const struct nq_border *b)
{
    return ((b->top * n + b->bottom) * n + b->left) * n + b->right;
}

void nq_d4_init(struct nq_d4 *k, int n)
{
    k->n = n;
    k->count = 0;
    k->units = NULL;
    const char *lanes = getenv("CSEARCH_NQ_LANES");
    k->lanes = nq_d4_lanes_supported() && !(lanes && !strcmp(lanes, "0"));
    size_t cap = 0;
    struct nq_border b = {0};
    for (b.top = 0; b.top < n; b.top++)
        for (b.bottom = 0; b.bottom < n; b.bottom++)
            for (b.left = 0; b.left < n; b.left++)
                for (b.right = 0; b.right < n; b.right++) {
                    if (!border_valid(n, &b))
                        continue;
                    int key = border_key(n, &b), stab = 0;
                    bool canonical = true;
                    for (int g = 0; g < 8 && canonical; g++) {
                        struct nq_border img = border_image(n, &b, g);
                        int other = border_key(n, &img);
                        canonical = other >= key;
                        stab += other == key;
                    }
                    if (!canonical)
                        continue;
                    if (k->count == cap) {
                        cap = cap ? 2 * cap : 256;
                        k->units = cs_xrealloc(k->units, cap * sizeof *k->units);
                    }
                    b.stab = (unsigned char)stab;
                    k->units[k->count++] = b;
                }
}

void nq_d4_free(void *data)
{
    struct nq_d4 *k = data;
    if (!k)
        return;
    free(k->units);
    free(k);
}

/* ---- the interior search -------------------------------------------------- */

struct plan {
    int n, m;               /* board size, interior rows to search */
    uint64_t full;
    uint64_t cols;          /* columns the border queens hold, and 0, n-1 */
    uint64_t attack[MAXN];  /* squares border queens attack in row rows[i] */
    int shift[MAXN];        /* rows[i + 1] - rows[i] */
    int rows[MAXN];
    int pos[MAXN];          /* tracked search: the queen of each row */
    uint64_t nodes, fails, stab_sum;
    bool stopped;           /* interior() gave up on *stop */
    struct queens border;   /* where the lanes' absolute masks start */
};

static void plan_border(struct plan *pl, int n, const struct nq_border *b)
{
    memset(pl, 0, sizeof *pl);
    pl->n = n;
    pl->full = (UINT64_C(1) << n) - 1;
    struct queens q = border_queens(n, b);
    pl->cols = UINT64_C(1) | UINT64_C(1) << (n - 1) | UINT64_C(1) << b->top |
               UINT64_C(1) << b->bottom;
    /* bottom-up: with the canonical border (smallest top first) the rows
     * near the bottom are the more constrained; starting there visits
     * about 40% fewer nodes than top-down */
    for (int r = n - 2; r >= 1; r--) {
        if (r == b->left || r == b->right)
            continue;
        uint64_t attack = 0;
        for (int i = 0; i < q.count; i++) {
            int d = abs(r - q.r[i]);
            if (q.c[i] - d >= 0)
                attack |= UINT64_C(1) << (q.c[i] - d);
            if (q.c[i] + d < n)
                attack |= UINT64_C(1) << (q.c[i] + d);
        }
        pl->rows[pl->m] = r;
        pl->attack[pl->m] = attack;
        pl->m++;
    }
    for (int i = 0; i + 1 < pl->m; i++)
        pl->shift[i] = pl->rows[i] - pl->rows[i + 1];
    for (int i = 0; i < q.count; i++)
        pl->pos[q.r[i]] = q.c[i];
    pl->border = q;
}

/* Solutions of the plan's interior: the hot loop of the kernel.  An
 * explicit stack of masks per level, counters in registers, and each child's
 * candidates computed before it is entered, so a dead end or a last row is
 * settled without a push.  Rows go upwards: d1 (the c - r diagonals) shifts
 * down a column per row, d2 (r + c) up, by the distance to the next row. */
static uint64_t interior(struct plan *pl, volatile sig_atomic_t *stop)
{
    const uint64_t full = pl->full;
    const int last = pl->m - 1;
    uint64_t cols_at[MAXN], d1_at[MAXN], d2_at[MAXN], avail_at[MAXN];
    uint64_t nodes = 1, expanded = 0, count = 0;
    uint64_t cols = pl->cols, d1 = 0, d2 = 0;
    uint64_t avail = ~(cols | pl->attack[0]) & full;
    int i = 0;
    if (last == 0) {
        count = avail != 0;
        goto done;
    }
    if (avail)
        expanded++;
    for (;;) {
        while (avail) {
            uint64_t bit = avail & -avail;
            avail ^= bit;
            const int s = pl->shift[i];
            uint64_t nc = cols | bit, nd1 = (d1 | bit) >> s,
                     nd2 = (d2 | bit) << s;
            uint64_t next = ~(nc | nd1 | nd2 | pl->attack[i + 1]) & full;
            nodes++;
            if (i + 1 == last) {
                count += next != 0;
                continue;
            }
            if (!next)
                continue;
            expanded++;
            cols_at[i] = cols;
            d1_at[i] = d1;
            d2_at[i] = d2;
            avail_at[i] = avail;
            i++;
            cols = nc;
            d1 = nd1;
            d2 = nd2;
            avail = next;
        }
        if (i == 0)
            break;
        /* between two subtrees of the first row: a cheap place to listen */
        if (i == 1 && stop && *stop) {
            pl->stopped = true;
            break;
        }
        i--;
        cols = cols_at[i];
        d1 = d1_at[i];
        d2 = d2_at[i];
        avail = avail_at[i];
    }
done:
    pl->nodes += nodes;
    pl->fails += nodes - expanded - count;
    return count;
}

/* ---- the interior search on 8-lane vectors --------------------------------
 *
 * The same tree as interior(), walked by 16 searches at once: two groups of
 * eight 64-bit lanes (AVX-512), each lane a depth-first search of its own
 * subtree.  A scalar walk (struct prefix_walk) fills the first LANE_PREFIX
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
 * word: at most LANE_ROWS rows per lane (the last row is never entered).
 * Row candidates after backing up are recomputed, above the queen removed.
 * Nodes, fails and solutions are those of interior(), to the unit.
 */
#if NQ_LANES

#define LANE_ROWS 13   /* rows a lane searches: 12 columns in 60 bits + last */
#define LANE_PREFIX 3  /* rows the scalar walk fills at least */
#define LANE_GROUPS 2

/* The scalar walk over the first `depth_end` rows, one subtree at a time. */
struct prefix_walk {
    const struct plan *pl;
    int depth, depth_end;
    uint64_t nodes, expanded;
    uint64_t cols[MAXN], d1[MAXN], d2[MAXN], avail[MAXN];
};

static void walk_begin(struct prefix_walk *w, const struct plan *pl,
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
    const struct plan *pl = w->pl;
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
#define LANES_INLINE __attribute__((target("avx512f,avx512cd"), always_inline)) static inline

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
    g->solutions = _mm512_mask_add_epi64(g->solutions, solved, g->solutions,
                                         one);

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

LANES_TARGET static uint64_t interior_lanes(struct plan *pl, int depth_end,
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
        g[i] = (struct lane_group){k.zero, k.zero, k.zero, k.zero, k.zero,
                                   k.zero, k.zero, k.zero, k.zero, k.zero, 0};
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

/* |Stab(S)| of a full board: 4 if the quarter turn keeps it, 2 if only the
 * half turn does, else 1 (reflections never do for n > 1). */
static int solution_stab(const int *pos, int n)
{
    bool half = true, quarter = true;
    for (int r = 0; r < n; r++) {
        half &= pos[n - 1 - r] == n - 1 - pos[r];
        quarter &= pos[pos[r]] == n - 1 - r;
    }
    return quarter ? 4 : half ? 2 : 1;
}

/* The same search recording positions, summing |Stab(S)| per solution. */
static uint64_t interior_tracked(struct plan *pl, int i, uint64_t cols,
                                 uint64_t d1, uint64_t d2)
{
    uint64_t avail = ~(cols | d1 | d2 | pl->attack[i]) & pl->full;
    pl->nodes++;
    if (i == pl->m - 1) {
        if (!avail) {
            pl->fails++;
            return 0;
        }
        pl->pos[pl->rows[i]] = __builtin_ctzll(avail);
        pl->stab_sum += (uint64_t)solution_stab(pl->pos, pl->n);
        return 1;
    }
    if (!avail) {
        pl->fails++;
        return 0;
    }
    uint64_t count = 0;
    int s = pl->shift[i];
    do {
        uint64_t bit = avail & -avail;
        avail ^= bit;
        pl->pos[pl->rows[i]] = __builtin_ctzll(bit);
        count += interior_tracked(pl, i + 1, cols | bit, (d1 | bit) >> s,
                                  (d2 | bit) << s);
    } while (avail);
    return count;
}

/* interior() on vectors where the processor and the unit allow it. */
static uint64_t interior_fastest(const struct nq_d4 *k, struct plan *pl,
                                 volatile sig_atomic_t *stop)
{
#if NQ_LANES
    int depth_end = pl->m - LANE_ROWS > LANE_PREFIX ? pl->m - LANE_ROWS
                                                    : LANE_PREFIX;
    if (k->lanes && pl->m - depth_end >= 2)
        return interior_lanes(pl, depth_end, stop);
#else
    (void)k;
#endif
    return interior(pl, stop);
}

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

bool nq_d4_count_unit(const void *data, uint64_t unit,
                      volatile sig_atomic_t *stop, struct cs_stats *out)
{
    const struct nq_d4 *k = data;
    const struct nq_border *b = &k->units[unit];
    struct plan pl;
    plan_border(&pl, k->n, b);

    bool rotational = false;
    for (int g = 1; g <= 3; g++) {
        struct nq_border img = border_image(k->n, b, g);
        rotational |= border_key(k->n, &img) == border_key(k->n, b);
    }
    uint64_t count, unique;
    if (rotational) {
        count = interior_tracked(&pl, 0, pl.cols, 0, 0);
        unique = pl.stab_sum / b->stab;
    } else {
        count = interior_fastest(k, &pl, stop);
        if (pl.stopped)
            return false; /* a unit is counted whole or not at all */
        unique = count / b->stab;
    }
    memset(out, 0, sizeof *out);
    out->solutions = count * (8u / b->stab);
    out->unique = unique;
    out->nodes = pl.nodes;
    out->checks = pl.nodes;
    out->fails = pl.fails;
    out->max_depth = pl.m;
    return true;
}
