/* parts.c - the top-half placements of the halves kernel, met in the middle
 * themselves: rows 0..a-1 and rows a..t-1 listed once, by column set, and
 * joined per column set C of the top half.
 *
 * A top placement with columns C is an upper part (rows 0..a-1, columns S)
 * and a lower part (rows a..t-1, columns C \ S) with no diagonal in common,
 * for one a-subset S of C.  Both parts' lists are built once per kernel
 * (struct nq_parts, read-only while counting), grouped by column set in
 * colex order, so one split's placements are the compatible pairs of a few
 * hundred short lists: no partial placement is searched twice, where a
 * backtracking over C alone would redo each prefix for every C that holds
 * it.  On odd boards each part knows which middle-row columns attack it.
 */
#include <stdlib.h>
#include <string.h>

#include "nqueens/halves.h"
#include "nqueens/internal.h"

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NQ_X86 1
#include <immintrin.h>
#else
#define NQ_X86 0
#endif

static uint32_t binom[33][33];

#if NQ_X86
static void pack_index_init(void);
#endif

static void binom_init(void)
{
    if (binom[0][0])
        return; /* the same table whichever thread fills it */
    for (int i = 0; i <= 32; i++) {
        binom[i][0] = 1;
        for (int j = 1; j <= i; j++)
            binom[i][j] =
                binom[i - 1][j - 1] + (j <= i - 1 ? binom[i - 1][j] : 0);
    }
}

/* The colex rank of a column set among the sets of its size. */
static uint32_t rank_of(uint32_t set)
{
    uint32_t r = 0;
    for (int i = 1; set; i++) {
        r += binom[__builtin_ctz(set)][i];
        set &= set - 1;
    }
    return r;
}

/* ---- the part lists ---------------------------------------------------- */

/* A walk over the parts within `allowed`, by the rank of their columns'
 * positions there (at[c]: c's position; all n columns: at[c] = c).  The
 * counting pass adds up start[] (and, given attacked, the parts each
 * middle-row column attacks, per set); the filling pass places them. */
struct part_walk {
    struct nq_part *p;
    int n, t;
    uint32_t allowed;
    unsigned char at[32];
    uint32_t *attacked;
    bool fill;
};

static void part_visit(struct part_walk *w, int r, uint32_t cols, uint32_t pos,
                       uint64_t d1, uint64_t d2, uint32_t mid)
{
    struct nq_part *p = w->p;
    const int n = w->n;
    if (r == p->first + p->rows) {
        uint32_t set = rank_of(pos), at = p->start[set]++;
        if (w->fill) {
            p->d1[at] = d1;
            p->d2[at] = d2;
            p->mid[at] = mid;
        } else if (w->attacked) {
            for (uint32_t m = mid; m; m &= m - 1)
                w->attacked[(size_t)set * (size_t)n +
                            (size_t)__builtin_ctz(m)]++;
        }
        return;
    }
    uint32_t avail = w->allowed & ~(cols | (uint32_t)(d1 >> r) |
                                    (uint32_t)(d2 >> (n - 1 - r)));
    while (avail) {
        uint32_t bit = avail & -avail;
        avail ^= bit;
        int c = __builtin_ctz(bit);
        uint32_t m = 0;
        if (n % 2) { /* the middle queens at (t, c +- (t - r)) attack it */
            int d = w->t - r;
            if (c - d >= 0)
                m |= UINT32_C(1) << (c - d);
            if (c + d < n)
                m |= UINT32_C(1) << (c + d);
        }
        part_visit(w, r + 1, cols | bit, pos | UINT32_C(1) << w->at[c],
                   d1 | (uint64_t)bit << r, d2 | (uint64_t)bit << (n - 1 - r),
                   mid | m);
    }
}

static void walk_init(struct part_walk *w, struct nq_part *p, int n,
                      uint32_t allowed)
{
    memset(w, 0, sizeof *w);
    w->p = p;
    w->n = n;
    w->t = n / 2;
    w->allowed = allowed;
    int k = 0;
    for (int c = 0; c < n; c++)
        if (allowed >> c & 1)
            w->at[c] = (unsigned char)k++;
}

/* Counts per set into start[0..sets) (zeroed), then their prefix sums:
 * start[s] the first entry of set s; count and longest. */
static void part_count(struct part_walk *w, uint32_t sets)
{
    struct nq_part *p = w->p;
    memset(p->start, 0, ((size_t)sets + 1) * sizeof *p->start);
    w->fill = false;
    part_visit(w, p->first, 0, 0, 0, 0, 0);
    uint32_t sum = 0;
    p->longest = 0;
    for (uint32_t s = 0; s <= sets; s++) {
        uint32_t c = p->start[s];
        p->start[s] = sum;
        sum += c;
        if (c > p->longest)
            p->longest = c;
    }
    p->count = sum;
}

/* Place the parts counted (d1, d2, mid hold count entries, mid 8 more). */
static void part_fill(struct part_walk *w, uint32_t sets)
{
    struct nq_part *p = w->p;
    w->fill = true;
    w->attacked = NULL;
    part_visit(w, p->first, 0, 0, 0, 0, 0); /* start[s]: the next set's */
    for (uint32_t s = sets; s > 0; s--)
        p->start[s] = p->start[s - 1];
    p->start[0] = 0;
}

/* Count the parts of rows first..first+rows-1 by column set, and on odd
 * boards how many each middle-row column leaves alone; list none. */
static void part_build(struct nq_part *p, int n, int first, int rows)
{
    struct part_walk w;
    uint32_t sets = binom[n][rows];
    memset(p, 0, sizeof *p);
    p->first = first;
    p->rows = rows;
    p->start = cs_xcalloc((size_t)sets + 1, sizeof *p->start);
    walk_init(&w, p, n, (uint32_t)nq_low_bits(n));
    if (n % 2)
        w.attacked = p->free_of =
            cs_xcalloc((size_t)sets * (size_t)n, sizeof *p->free_of);
    part_count(&w, sets);
    for (uint32_t s = 0; w.attacked && s < sets; s++)
        for (size_t m = 0; m < (size_t)n; m++)
            p->free_of[(size_t)s * (size_t)n + m] =
                p->start[s + 1] - p->start[s] -
                p->free_of[(size_t)s * (size_t)n + m];
}

/* The entries of a part counted by part_build, all n columns. */
static void part_list(struct nq_part *p, int n)
{
    if (p->listed)
        return;
    struct part_walk w;
    walk_init(&w, p, n, (uint32_t)nq_low_bits(n));
    p->d1 = cs_xmalloc(((size_t)p->count + 1) * sizeof *p->d1);
    p->d2 = cs_xmalloc(((size_t)p->count + 1) * sizeof *p->d2);
    p->mid = cs_xcalloc((size_t)p->count + 8, sizeof *p->mid);
    part_fill(&w, binom[n][p->rows]);
    p->listed = true;
}

void nq_parts_init(struct nq_parts *ps, int n)
{
    binom_init();
#if NQ_X86
    pack_index_init();
#endif
    int t = n / 2, a = t / 2;
    part_build(&ps->upper, n, 0, a);
    part_build(&ps->lower, n, a, t - a);
}

void nq_parts_list(struct nq_parts *ps, int n, bool upper, bool lower)
{
    if (upper)
        part_list(&ps->upper, n);
    if (lower)
        part_list(&ps->lower, n);
}

size_t nq_part_bytes(const struct nq_part *p)
{
    return (size_t)p->count * NQ_PART_BYTES;
}

size_t nq_parts_counted_bytes(const struct nq_parts *ps, int n)
{
    const struct nq_part *part[2] = {&ps->upper, &ps->lower};
    size_t bytes = 0;
    for (int i = 0; i < 2; i++) {
        size_t sets = binom[n][part[i]->rows];
        bytes += (sets + 1) * sizeof *part[i]->start;
        if (n % 2)
            bytes += sets * (size_t)n * sizeof *part[i]->free_of;
    }
    return bytes;
}

size_t nq_part_near_bytes(const struct nq_part *p, int n)
{
    /* the average set's share, with room to grow and twice that margin */
    double share = (double)binom[n / 2][p->rows] / binom[n][p->rows];
    return (size_t)(2.5 * share * (double)nq_part_bytes(p));
}

static void part_free(struct nq_part *p)
{
    free(p->free_of);
    free(p->start);
    free(p->d1);
    free(p->d2);
    free(p->mid);
}

void nq_parts_free(struct nq_parts *ps)
{
    part_free(&ps->upper);
    part_free(&ps->lower);
}

/* ---- the parts within one column set ----------------------------------- */

/* The parts of `of` within cols, into near (grown as needed): the same
 * walk, its sets ranked among the t-subsets' positions. */
static void near_part(struct nq_part *np, size_t *room,
                      const struct nq_part *of, int n, uint32_t cols)
{
    const uint32_t sets = binom[n / 2][of->rows];
    struct part_walk w;
    np->first = of->first;
    np->rows = of->rows;
    if (!np->start)
        np->start = cs_xmalloc(((size_t)binom[16][8] + 1) * sizeof *np->start);
    walk_init(&w, np, n, cols);
    part_count(&w, sets);
    if (np->count + (size_t)1 > *room) {
        *room = (size_t)np->count + np->count / 4 + 1;
        np->d1 = cs_xrealloc(np->d1, *room * sizeof *np->d1);
        np->d2 = cs_xrealloc(np->d2, *room * sizeof *np->d2);
        np->mid = cs_xrealloc(np->mid, (*room + 8) * sizeof *np->mid);
        memset(np->mid, 0, (*room + 8) * sizeof *np->mid);
    }
    part_fill(&w, sets);
    np->listed = true;
}

static void near_make(struct nq_near *nr, const struct nq_parts *ps, int n,
                      uint32_t cols)
{
    if (nr->of == ps && nr->cols == cols)
        return;
    if (!ps->upper.listed)
        near_part(&nr->upper, &nr->room[0], &ps->upper, n, cols);
    if (!ps->lower.listed)
        near_part(&nr->lower, &nr->room[1], &ps->lower, n, cols);
    nr->of = ps;
    nr->cols = cols;
}

void nq_near_free(struct nq_near *nr)
{
    part_free(&nr->upper);
    part_free(&nr->lower);
    memset(nr, 0, sizeof *nr);
}

/* ---- how many top placements a column set may have ---------------------- */

/* The parts of set s (colex rank r) the middle queen at mid leaves alone
 * (mid < 0: no middle row, all of them). */
static double alone(const struct nq_part *p, uint32_t r, int n, int mid)
{
    return mid < 0 ? (double)(p->start[r + 1] - p->start[r])
                   : (double)p->free_of[(size_t)r * (size_t)n + (size_t)mid];
}

double nq_parts_estimate(const struct nq_parts *ps, int n, uint32_t cols,
                         int mid)
{
    const struct nq_part *up = &ps->upper, *lo = &ps->lower;
    int pos[32], np = 0;
    for (uint32_t c = cols; c; c &= c - 1)
        pos[np++] = __builtin_ctz(c);
    double sum = 0;
    /* every upper.rows-subset of the set's columns, by Gosper's step */
    for (uint32_t comb = (UINT32_C(1) << up->rows) - 1; !(comb >> np);) {
        uint32_t s = 0;
        for (uint32_t c = comb; c; c &= c - 1)
            s |= UINT32_C(1) << pos[__builtin_ctz(c)];
        sum += alone(up, rank_of(s), n, mid) *
               alone(lo, rank_of(cols ^ s), n, mid);
        uint32_t low = comb & -comb, ripple = comb + low;
        comb = ripple | (((comb ^ ripple) >> 2) / low);
    }
    return sum;
}

/* ---- joining the parts of one column set ------------------------------- */

void nq_join_start(struct nq_join *j, const struct nq_parts *ps, int n,
                   uint32_t cols, int mid, struct nq_near *near)
{
    if (!ps->upper.listed || !ps->lower.listed)
        near_make(near, ps, n, cols);
    j->up_near = !ps->upper.listed;
    j->lo_near = !ps->lower.listed;
    j->up = j->up_near ? &near->upper : &ps->upper;
    j->lo = j->lo_near ? &near->lower : &ps->lower;
    j->n = n;
    j->cols = cols;
    j->midbit = mid >= 0 ? UINT32_C(1) << mid : 0;
    j->npos = 0;
    for (uint32_t c = cols; c; c &= c - 1)
        j->pos[j->npos++] = __builtin_ctz(c);
    j->comb = (UINT32_C(1) << ps->upper.rows) - 1;
    j->next_u = 0;
    j->done = false;
}

/* One upper part against a lower list: the patterns of the pairs that
 * share no diagonal (and that the middle queen leaves alone). */
static size_t join_plain(uint64_t ud1, uint64_t ud2, const struct nq_part *lo,
                         uint32_t lb, uint32_t le, uint32_t midbit, int shift,
                         int L, uint64_t *out)
{
    const uint64_t maskL = (UINT64_C(1) << L) - 1;
    size_t k = 0;
    for (uint32_t l = lb; l < le; l++) {
        uint64_t e1 = lo->d1[l], e2 = lo->d2[l];
        bool ok = !((e1 & ud1) | (e2 & ud2)) && !(lo->mid[l] & midbit);
        out[k] = ((e1 | ud1) >> shift & maskL) | ((e2 | ud2) >> shift & maskL)
                                                     << L;
        k += ok;
    }
    return k;
}

#if NQ_X86
/* For each 4-bit mask of kept lanes, the 32-bit indices that pack them low. */
static int32_t pack_index[16][8];

static void pack_index_init(void)
{
    for (int m = 0; m < 16; m++) {
        int k = 0;
        for (int lane = 0; lane < 4; lane++)
            if (m >> lane & 1) {
                pack_index[m][2 * k] = 2 * lane;
                pack_index[m][2 * k + 1] = 2 * lane + 1;
                k++;
            }
        for (; k < 4; k++)
            pack_index[m][2 * k] = pack_index[m][2 * k + 1] = 0;
    }
}

/* join_plain four pairs at a time: the kept patterns packed by a lane
 * permutation, all four stored (out needs 3 entries of slack). */
__attribute__((target("avx2,popcnt"))) static size_t
join_avx2(uint64_t ud1, uint64_t ud2, const struct nq_part *lo, uint32_t lb,
          uint32_t le, uint32_t midbit, int shift, int L, uint64_t *out)
{
    const __m256i u1 = _mm256_set1_epi64x((long long)ud1),
                  u2 = _mm256_set1_epi64x((long long)ud2),
                  mb = _mm256_set1_epi64x((long long)midbit),
                  mask =
                      _mm256_set1_epi64x((long long)((UINT64_C(1) << L) - 1)),
                  zero = _mm256_setzero_si256();
    const __m128i sh = _mm_cvtsi32_si128(shift), sl = _mm_cvtsi32_si128(L);
    size_t k = 0;
    uint32_t l = lb;
    for (; l + 4 <= le; l += 4) {
        __m256i e1 = _mm256_loadu_si256((const __m256i *)(lo->d1 + l));
        __m256i e2 = _mm256_loadu_si256((const __m256i *)(lo->d2 + l));
        __m256i em = _mm256_cvtepu32_epi64(
            _mm_loadu_si128((const __m128i *)(lo->mid + l)));
        __m256i conf = _mm256_or_si256(
            _mm256_or_si256(_mm256_and_si256(e1, u1), _mm256_and_si256(e2, u2)),
            _mm256_and_si256(em, mb));
        int ok = _mm256_movemask_pd(
            _mm256_castsi256_pd(_mm256_cmpeq_epi64(conf, zero)));
        __m256i p1 = _mm256_and_si256(
            _mm256_srl_epi64(_mm256_or_si256(e1, u1), sh), mask);
        __m256i p2 = _mm256_and_si256(
            _mm256_srl_epi64(_mm256_or_si256(e2, u2), sh), mask);
        __m256i p = _mm256_or_si256(p1, _mm256_sll_epi64(p2, sl));
        p = _mm256_permutevar8x32_epi32(
            p, _mm256_loadu_si256((const __m256i *)pack_index[ok]));
        _mm256_storeu_si256((__m256i *)(out + k), p);
        k += (size_t)__builtin_popcount((unsigned)ok);
    }
    return k + join_plain(ud1, ud2, lo, l, le, midbit, shift, L, out + k);
}

__attribute__((target("avx512f"))) static size_t
join_avx512(uint64_t ud1, uint64_t ud2, const struct nq_part *lo, uint32_t lb,
            uint32_t le, uint32_t midbit, int shift, int L, uint64_t *out)
{
    const __m512i u1 = _mm512_set1_epi64((long long)ud1),
                  u2 = _mm512_set1_epi64((long long)ud2),
                  mask = _mm512_set1_epi64((long long)((UINT64_C(1) << L) - 1));
    const __m512i mb = _mm512_set1_epi64((long long)midbit);
    size_t k = 0;
    for (uint32_t l = lb; l < le; l += 8) {
        __mmask8 in = le - l >= 8 ? 0xff : (__mmask8)((1u << (le - l)) - 1);
        __m512i e1 = _mm512_maskz_loadu_epi64(in, lo->d1 + l);
        __m512i e2 = _mm512_maskz_loadu_epi64(in, lo->d2 + l);
        /* mid has 8 entries of slack: a whole load is always in bounds */
        __m512i em = _mm512_cvtepu32_epi64(
            _mm256_loadu_si256((const __m256i *)(lo->mid + l)));
        __mmask8 ok = _mm512_mask_testn_epi64_mask(
            in,
            _mm512_or_si512(_mm512_and_si512(e1, u1), _mm512_and_si512(e2, u2)),
            _mm512_set1_epi64(-1));
        ok &= _mm512_testn_epi64_mask(em, mb);
        __m512i p1 = _mm512_and_si512(
            _mm512_srli_epi64(_mm512_or_si512(e1, u1), (unsigned)shift), mask);
        __m512i p2 = _mm512_and_si512(
            _mm512_srli_epi64(_mm512_or_si512(e2, u2), (unsigned)shift), mask);
        __m512i p = _mm512_or_si512(p1, _mm512_slli_epi64(p2, (unsigned)L));
        /* compressed in a register, then a masked store: the compress
         * to memory is microcoded on Zen 4 (join took 63% of n = 18) */
        int kept = __builtin_popcount(ok);
        _mm512_mask_storeu_epi64(out + k, (__mmask8)((1u << kept) - 1),
                                 _mm512_maskz_compress_epi64(ok, p));
        k += (size_t)kept;
    }
    return k;
}
#endif

size_t nq_join_fill(struct nq_join *j, enum nq_isa isa, uint64_t *out,
                    size_t room)
{
    const struct nq_part *up = j->up, *lo = j->lo;
    const int n = j->n, t = n / 2, L = n - 1 - n % 2, shift = n - t;
    const uint32_t all = (UINT32_C(1) << t) - 1;
    size_t k = 0;
    while (!j->done) {
        uint32_t s = 0;
        for (uint32_t c = j->comb; c; c &= c - 1)
            s |= UINT32_C(1) << j->pos[__builtin_ctz(c)];
        /* a near list ranks positions within the set, a whole one columns */
        uint32_t ur = rank_of(j->up_near ? j->comb : s),
                 lr = rank_of(j->lo_near ? all ^ j->comb : j->cols ^ s);
        uint32_t ub = up->start[ur], ue = up->start[ur + 1];
        uint32_t lb = lo->start[lr], le = lo->start[lr + 1];
        if (lb < le)
            for (uint32_t u = ub + j->next_u; u < ue; u++) {
                if (room - k < le - lb + NQ_JOIN_SLACK) {
                    j->next_u = u - ub; /* full: go on from here next time */
                    return k;
                }
                if (up->mid[u] & j->midbit)
                    continue;
#if NQ_X86
                if (isa == NQ_ISA_AVX512) {
                    k += join_avx512(up->d1[u], up->d2[u], lo, lb, le,
                                     j->midbit, shift, L, out + k);
                    continue;
                }
                if (isa == NQ_ISA_AVX2) {
                    k += join_avx2(up->d1[u], up->d2[u], lo, lb, le, j->midbit,
                                   shift, L, out + k);
                    continue;
                }
#endif
                k += join_plain(up->d1[u], up->d2[u], lo, lb, le, j->midbit,
                                shift, L, out + k);
            }
        j->next_u = 0;
        /* the next a-subset of C's t columns, by Gosper's step */
        uint32_t c = j->comb, low = c & -c, ripple = c + low;
        c = ripple | (((c ^ ripple) >> 2) / low);
        if (c >> t)
            j->done = true;
        else
            j->comb = c;
    }
    (void)isa;
    return k;
}
