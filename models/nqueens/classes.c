/* classes.c - the pairs of one split of the halves kernel, sorted into
 * classes by the diagonals they share most, and weighed by the symmetry of
 * the two long diagonals.
 *
 * Classes.  A pattern's bits on the w diagonals of each direction around
 * the long ones (the diagonals both halves meet most often) make its class,
 * 2w bits; the rest, 2 (L - w) bits, its key.  Two patterns share no bit
 * iff their classes share none and their keys share none: class pairs that
 * meet are never counted, and the keys need fewer 7-bit chunks (n = 20: 32
 * bits, 5 chunks instead of 6).  The tables come from the larger half, one
 * class at a time, and count every class of the other half it can meet.
 *
 * The long-diagonal symmetry (after Kluev's counter, our own derivation).
 * A solution has at most one queen on each long diagonal outside the
 * middle row.  Reflection in the main diagonal moves a queen on the
 * anti-diagonal between the halves and keeps the main diagonal's queen
 * where it is; reflection in the anti-diagonal does the converse.  So the
 * solutions whose top half has neither long diagonal, each weighed 2 per
 * long diagonal the bottom half holds, add up to all solutions (R_top),
 * and so do those whose bottom half has neither (R_bot).  Mirror image
 * keeps R_top of a split, the upside-down turn maps R_top of (C, m) to
 * R_bot of (D, m); a split orbit of size k therefore holds
 * k/2 (R_top(C) + R_bot(C)) of the sum.  A pair with top long-diagonal
 * classes s and bottom u counts in R_top with [s = 0] 2^|u| and in R_bot
 * with [u = 0] 2^|s|: half of that, h(s, u) in {0, 1, 2}, times the orbit
 * size is what the kernel adds, and the pairs with one long diagonal in
 * each half (h = 0) are never counted.  Only totals are preserved: a split
 * alone is no longer its own count (tests compare totals).
 */
#include <stdlib.h>

#include "csearch/error.h"
#include "nqueens/halves.h"

#define GROUP 512
#define DIRECT_PATS 32 /* fewer patterns in a class: pairs one by one */

void nq_layout_init(struct nq_layout *y, int n, bool symmetry)
{
    const int t = n / 2;
    y->L = n - 1 - n % 2;
    y->symmetry = symmetry;
    /* the smaller half's size from which w classes pay (measured at
     * n = 17..21; with the symmetry w is at least 1) */
    static const size_t with[NQ_CLASS_WMAX + 1] = {0, 0, 4000, 8000},
                                             without[NQ_CLASS_WMAX + 1] = {
                                                 0, 3000, 8000, 16000};
    for (int w = 0; w <= NQ_CLASS_WMAX; w++) {
        y->lo[w] = w ? t - 1 - (w - 1) / 2 : 0; /* bit t - 1: a long diagonal */
        y->bits[w] = 2 * (y->L - w);
        /* the anti-diagonal in the first direction, the main in the second */
        y->am[w] = w && symmetry ? (UINT32_C(1) << (t - 1 - y->lo[w])) |
                                       (UINT32_C(1) << (w + t - 1 - y->lo[w]))
                                 : 0;
        y->at_least[w] = symmetry ? with[w] : without[w];
    }
}

void nq_pairing_free(struct nq_pairing *pg)
{
    free(pg->top.data);
    free(pg->bottom.data);
    free(pg->table);
}

static uint32_t class_of(int L, int lo, int w, uint64_t x)
{
    const uint64_t wm = (UINT64_C(1) << w) - 1;
    return (uint32_t)((x >> lo & wm) | (x >> (L + lo) & wm) << w);
}

/* The pattern without its class bits: each direction's bits above the
 * class moved down over them. */
static uint64_t key_of(int L, int lo, int w, uint64_t x)
{
    const int kept = L - w;
    const uint64_t maskL = (UINT64_C(1) << L) - 1;
    const uint64_t low = (UINT64_C(1) << lo) - 1;
    uint64_t x1 = x & maskL, x2 = x >> L;
    uint64_t k1 = (x1 & low) | (x1 >> (lo + w)) << lo;
    uint64_t k2 = (x2 & low) | (x2 >> (lo + w)) << lo;
    return k1 | k2 << kept;
}

/* in[0..n) into out by class (a counting sort), as keys. */
static void sort_half(int L, int lo, int w, const uint64_t *in, size_t n,
                      struct nq_sorted *out)
{
    const uint32_t classes = UINT32_C(1) << 2 * w;
    if (out->room < n) {
        free(out->data);
        out->room = n;
        out->data = cs_xmalloc(n * sizeof *out->data);
    }
    uint32_t *at = out->start;
    for (uint32_t c = 0; c <= classes; c++)
        at[c] = 0;
    for (size_t i = 0; i < n; i++)
        at[class_of(L, lo, w, in[i]) + 1]++;
    for (uint32_t c = 1; c <= classes; c++)
        at[c] += at[c - 1];
    /* at[c] is now class c's first slot; next[c] walks through class c */
    uint32_t next[(1 << 2 * NQ_CLASS_WMAX) + 1];
    for (uint32_t c = 0; c <= classes; c++)
        next[c] = at[c];
    for (size_t i = 0; i < n; i++)
        out->data[next[class_of(L, lo, w, in[i])]++] = key_of(L, lo, w, in[i]);
}

/* Half of a pair's weight in R_top + R_bot, by its long-diagonal classes
 * (at most two bits each). */
static uint64_t weight(uint32_t s, uint32_t u, uint32_t am)
{
    s &= am;
    u &= am;
    int ns = (s != 0) + ((s & (s - 1)) != 0),
        nu = (u != 0) + ((u & (u - 1)) != 0);
    uint32_t top = s ? 0 : UINT32_C(1) << nu;
    uint32_t bot = u ? 0 : UINT32_C(1) << ns;
    return (top + bot) / 2;
}

/* The weighed pairs of pats (of class s) with every class of I it can
 * meet: on table tb when given, else one by one. */
static uint64_t against(const struct nq_sorted *I, uint32_t s, uint32_t all,
                        uint32_t am, enum nq_isa isa, const uint64_t *pats,
                        size_t np, const struct nq_table *tb, int bits)
{
    const uint32_t free_bits = all & ~s;
    uint64_t total = 0;
    for (uint32_t u = free_bits;; u = (u - 1) & free_bits) {
        uint64_t h = weight(s, u, am);
        uint32_t ib = I->start[u], ie = I->start[u + 1];
        if (h && ib < ie)
            total +=
                h * (tb ? nq_table_count(isa, tb, I->data + ib, ie - ib, bits)
                        : nq_direct_count(pats, np, I->data + ib, ie - ib));
        if (!u)
            return total;
    }
}

uint64_t nq_pairs(const struct nq_layout *y, enum nq_isa isa,
                  struct nq_pairing *pg, const uint64_t *top, size_t nt,
                  const uint64_t *bottom, size_t nb)
{
    if (!nt || !nb)
        return 0;
    const size_t least = nt < nb ? nt : nb;
    int w = y->symmetry ? 1 : 0;
    while (w < NQ_CLASS_WMAX && least >= y->at_least[w + 1])
        w++;
    if (!w) /* no classes: the plain join */
        return nq_match_count(isa, top, nt, bottom, nb, y->bits[0]);
    const int lo = y->lo[w], bits = y->bits[w];
    if (pg->table && nq_table_bits(pg->table) < bits) {
        free(pg->table); /* another kernel's, too narrow for ours */
        pg->table = NULL;
    }
    if (!pg->table)
        pg->table = nq_table_new(bits);
    sort_half(y->L, lo, w, top, nt, &pg->top);
    sort_half(y->L, lo, w, bottom, nb, &pg->bottom);
    /* tables from the larger half; the weights are symmetric in s, u */
    const struct nq_sorted *P = nt >= nb ? &pg->top : &pg->bottom;
    const struct nq_sorted *I = nt >= nb ? &pg->bottom : &pg->top;
    const uint32_t all = (UINT32_C(1) << 2 * w) - 1;
    uint64_t total = 0;
    for (uint32_t s = 0; s <= all; s++) {
        const uint32_t pb = P->start[s], pe = P->start[s + 1];
        if (pe - pb < DIRECT_PATS) {
            if (pb < pe)
                total += against(I, s, all, y->am[w], isa, P->data + pb,
                                 pe - pb, NULL, bits);
            continue;
        }
        for (uint32_t g = pb; g < pe; g += GROUP) {
            size_t np = pe - g < GROUP ? pe - g : GROUP;
            nq_table_build(isa, pg->table, P->data + g, np, bits);
            total +=
                against(I, s, all, y->am[w], isa, NULL, 0, pg->table, bits);
        }
    }
    return total;
}
