/* d4.c - N-Queens counting by canonical border placements: the symmetries,
 * the canonical borders (the kernel's units), the interior search of one,
 * and its weight.  The same search on vector lanes is lanes.c's.
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
 * vector lanes (nq_interior_lanes, lanes.c): same nodes, same counts.
 */
#include <stdlib.h>
#include <string.h>

#include "csearch/engine.h"
#include "csearch/random.h"
#include "nqueens/internal.h"

#define MAXN NQ_D4_MAX

void nq_d4_map(int n, int g, int r, int c, int *gr, int *gc)
{
    int m = n - 1;
    switch (g) {
    case 0:
        *gr = r;
        *gc = c;
        break;
    case 1:
        *gr = c;
        *gc = m - r;
        break;
    case 2:
        *gr = m - r;
        *gc = m - c;
        break;
    case 3:
        *gr = m - c;
        *gc = r;
        break;
    case 4:
        *gr = r;
        *gc = m - c;
        break;
    case 5:
        *gr = m - r;
        *gc = c;
        break;
    case 6:
        *gr = c;
        *gc = r;
        break;
    default:
        *gr = m - c;
        *gc = m - r;
        break;
    }
}

/* ---- border placements --------------------------------------------------- */

static void add_queen(struct nq_queens *q, int r, int c)
{
    for (int i = 0; i < q->count; i++)
        if (q->r[i] == r && q->c[i] == c)
            return;
    q->r[q->count] = r;
    q->c[q->count] = c;
    q->count++;
}

static struct nq_queens border_queens(int n, const struct nq_border *b)
{
    struct nq_queens q = {0};
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
    struct nq_queens q = border_queens(n, b);
    for (int i = 0; i < q.count; i++)
        for (int j = i + 1; j < q.count; j++)
            if (q.r[i] == q.r[j] || q.c[i] == q.c[j] ||
                abs(q.r[i] - q.r[j]) == abs(q.c[i] - q.c[j]))
                return false;
    return true;
}

static struct nq_border border_image(int n, const struct nq_border *b, int g)
{
    struct nq_queens q = border_queens(n, b);
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
                        k->units =
                            cs_xrealloc(k->units, cap * sizeof *k->units);
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

/* ---- the interior search ------------------------------------------------- */

static void plan_border(struct nq_plan *pl, int n, const struct nq_border *b)
{
    memset(pl, 0, sizeof *pl);
    pl->n = n;
    pl->full = (UINT64_C(1) << n) - 1;
    struct nq_queens q = border_queens(n, b);
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
 * down a column per row, d2 (r + c) up, by the distance to the next row.
 *
 * A template: lv NULL (a constant in interior()) folds every profile line
 * away; interior_profiled() passes the unit's levels, lv[i] the nodes with
 * i interior queens, and pays for them alone. */
static inline __attribute__((always_inline)) uint64_t
interior_body(struct nq_plan *pl, volatile sig_atomic_t *stop,
              struct cs_level *lv)
{
    const uint64_t full = pl->full;
    const int last = pl->m - 1;
    uint64_t cols_at[MAXN], d1_at[MAXN], d2_at[MAXN], avail_at[MAXN];
    uint64_t nodes = 1, expanded = 0, count = 0;
    uint64_t cols = pl->cols, d1 = 0, d2 = 0;
    uint64_t avail = ~(cols | pl->attack[0]) & full;
    int i = 0;
    if (lv) {
        lv[0].nodes++;
        if (last == 0)
            lv[0].solutions += avail != 0;
        lv[0].fails += !avail;
    }
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
            if (lv) {
                lv[i + 1].nodes++;
                if (i + 1 == last)
                    lv[i + 1].solutions += next != 0;
                lv[i + 1].fails += !next;
            }
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

static uint64_t interior(struct nq_plan *pl, volatile sig_atomic_t *stop)
{
    return interior_body(pl, stop, NULL);
}

static uint64_t interior_profiled(struct nq_plan *pl,
                                  volatile sig_atomic_t *stop,
                                  struct cs_level *lv)
{
    return interior_body(pl, stop, lv);
}

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

/* The same search recording positions, summing |Stab(S)| per solution
 * (rare borders: lv, the levels as in interior_body or NULL, is tested at
 * run time). */
static uint64_t interior_tracked(struct nq_plan *pl, int i, uint64_t cols,
                                 uint64_t d1, uint64_t d2, struct cs_level *lv)
{
    uint64_t avail = ~(cols | d1 | d2 | pl->attack[i]) & pl->full;
    pl->nodes++;
    if (lv) {
        lv[i].nodes++;
        lv[i].fails += !avail;
        lv[i].solutions += i == pl->m - 1 && avail;
    }
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
                                  (d2 | bit) << s, lv);
    } while (avail);
    return count;
}

/* interior() on vectors where the processor and the unit allow it. */
static uint64_t interior_fastest(const struct nq_d4 *k, struct nq_plan *pl,
                                 volatile sig_atomic_t *stop)
{
#if NQ_LANES
    int depth_end = pl->m - NQ_LANE_ROWS > NQ_LANE_PREFIX ? pl->m - NQ_LANE_ROWS
                                                          : NQ_LANE_PREFIX;
    if (k->lanes && pl->m - depth_end >= 2)
        return nq_interior_lanes(pl, depth_end, stop);
#else
    (void)k;
#endif
    return interior(pl, stop);
}

/* Count unit; lv (NULL: no profile) gets the unit's rows by interior
 * depth, its solutions unweighted. */
static bool count_border(const struct nq_d4 *k, uint64_t unit,
                         volatile sig_atomic_t *stop, struct cs_stats *out,
                         struct cs_level *lv)
{
    const struct nq_border *b = &k->units[unit];
    struct nq_plan pl;
    plan_border(&pl, k->n, b);

    bool rotational = false;
    for (int g = 1; g <= 3; g++) {
        struct nq_border img = border_image(k->n, b, g);
        rotational |= border_key(k->n, &img) == border_key(k->n, b);
    }
    uint64_t count, unique;
    if (rotational) {
        count = interior_tracked(&pl, 0, pl.cols, 0, 0, lv);
        unique = pl.stab_sum / b->stab;
    } else {
        count = lv ? interior_profiled(&pl, stop, lv)
                   : interior_fastest(k, &pl, stop);
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

bool nq_d4_count_unit(const void *data, uint64_t unit,
                      volatile sig_atomic_t *stop, struct cs_stats *out)
{
    return count_border(data, unit, stop, out, NULL);
}

bool nq_d4_profile_unit(const void *data, uint64_t unit,
                        volatile sig_atomic_t *stop, struct cs_stats *out,
                        struct cs_level *levels)
{
    const struct nq_d4 *k = data;
    struct cs_level lv[MAXN] = {{0}};
    if (!count_border(k, unit, stop, out, lv))
        return false;
    /* the unit's root holds its border queens, 3 or 4 of them */
    const struct nq_border *b = &k->units[unit];
    const int queens = border_queens(k->n, b).count;
    const uint64_t weight = 8u / b->stab;
    for (int i = 0; i + queens < k->n; i++) {
        levels[queens + i].nodes += lv[i].nodes;
        levels[queens + i].fails += lv[i].fails;
        levels[queens + i].solutions += lv[i].solutions * weight;
    }
    return true;
}

/* ---- a unit's size, for the progress line ---------------------------------
 *
 * Knuth's estimate of interior()'s nodes: probes down the rows, each taking
 * a random free square; a level reached with D choices above it stands for
 * D nodes.  The random numbers come from the unit's number alone. */
#define NQ_SIZE_PROBES 32

double nq_d4_unit_size(const void *data, uint64_t unit)
{
    const struct nq_d4 *k = data;
    struct nq_plan pl;
    plan_border(&pl, k->n, &k->units[unit]);
    uint64_t rng = unit;
    double sum = 0;
    for (int probe = 0; probe < NQ_SIZE_PROBES; probe++) {
        uint64_t cols = pl.cols, d1 = 0, d2 = 0;
        double paths = 1, nodes = 1;
        for (int i = 0; i < pl.m; i++) {
            uint64_t avail = ~(cols | d1 | d2 | pl.attack[i]) & pl.full;
            int free = __builtin_popcountll(avail);
            if (!free || i + 1 == pl.m)
                break;
            /* the chosen free square */
            for (int skip = (int)cs_random_below(&rng, (uint64_t)free); skip;
                 skip--)
                avail &= avail - 1;
            uint64_t bit = avail & -avail;
            paths *= free;
            nodes += paths;
            cols |= bit;
            d1 = (d1 | bit) >> pl.shift[i];
            d2 = (d2 | bit) << pl.shift[i];
        }
        sum += nodes;
    }
    return sum / NQ_SIZE_PROBES;
}
