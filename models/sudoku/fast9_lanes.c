/* fast9_lanes.c - the fast 9 x 9 kernel's propagation on AVX-512: a band's
 * nine digit words in one vector of 16 lanes (lane d: digit d + 1, lanes
 * 9..15 empty), the three bands in three vectors, every rule of fast9.c's
 * scalar fixpoint applied to all of them at once, in registers, until
 * nothing changes.
 *
 * The rules: a digit keeps the band cells on a rows x boxes permutation (a
 * minirow lies on one when the other two rows can take the other two boxes,
 * a 2 x 2 match found by rotating minirow bits), and the stack columns on a
 * bands x columns one (the same match, the bands being the three vectors);
 * a row or a column with one cell left for a digit, or an open cell with one
 * digit left, is placed.  Across a band's lanes (a butterfly of shuffles)
 * come the cells' digit counts and the cells placed.  The rules only take
 * candidates away, so the fixpoint is the scalar path's, whatever the order:
 * the same tree.  A placement that clashes (two digits in a cell, a digit
 * twice in a row, box or column, a cell the digit has lost) is a
 * contradiction, as the scalar path finds it one placement at a time.
 */
#include "sudoku/fast9_impl.h"

#if SDK_F9_LANES
#include <immintrin.h>

#define LANES_TARGET __attribute__((target("avx512f")))
#define LANES_INLINE LANES_TARGET __attribute__((always_inline)) static inline

/* 16 words; the operators act lane by lane, a scalar operand on every lane */
typedef uint32_t lanes __attribute__((vector_size(64)));

#define DIGITS 0x1ff      /* the lanes that hold digits */
#define SPREAD 0x1249249u /* bit 9r + 3k: minirow (r, k) */
#define BOX0 0x40201u     /* the minirow bits of box 0 */
#define ROW0 0x1ffu

LANES_INLINE __mmask16 nonzero(lanes x)
{
    return _mm512_test_epi32_mask((__m512i)x, (__m512i)x);
}

LANES_INLINE lanes keep_where(__mmask16 k, lanes x)
{
    return (lanes)_mm512_maskz_mov_epi32(k, (__m512i)x);
}

/* Lane i of x moved to lane i ^ 1, i ^ 2, i ^ 4, i ^ 8. */
LANES_INLINE lanes swap1(lanes x)
{
    return (lanes)_mm512_shuffle_epi32((__m512i)x, _MM_PERM_CDAB);
}
LANES_INLINE lanes swap2(lanes x)
{
    return (lanes)_mm512_shuffle_epi32((__m512i)x, _MM_PERM_BADC);
}
LANES_INLINE lanes swap4(lanes x)
{
    return (lanes)_mm512_shuffle_i32x4((__m512i)x, (__m512i)x,
                                       _MM_SHUFFLE(2, 3, 0, 1));
}
LANES_INLINE lanes swap8(lanes x)
{
    return (lanes)_mm512_shuffle_i32x4((__m512i)x, (__m512i)x,
                                       _MM_SHUFFLE(1, 0, 3, 2));
}

/* In every lane: the bits set in some lane of x, and (*twice) in two or
 * more. */
LANES_INLINE lanes across(lanes x, lanes *twice)
{
    lanes s = swap1(x), t = x & s;
    x |= s;
    s = swap2(x);
    t |= swap2(t) | (x & s);
    x |= s;
    s = swap4(x);
    t |= swap4(t) | (x & s);
    x |= s;
    s = swap8(x);
    t |= swap8(t) | (x & s);
    *twice = t;
    return x | s;
}

/* Band cells -> bit 9r + 3k where minirow (r, k) holds one. */
LANES_INLINE lanes minirows(lanes a)
{
    return (a | a >> 1 | a >> 2) & SPREAD;
}

/* Minirow bits -> bit (r, k) from (r + 1, k), (r + 2, k), (r, k + 1),
 * (r, k + 2), rows and boxes counted mod 3. */
LANES_INLINE lanes next_row(lanes m)
{
    return (m >> 9 | m << 18) & SPREAD;
}
LANES_INLINE lanes row_after_next(lanes m)
{
    return (m >> 18 | m << 9) & SPREAD;
}
LANES_INLINE lanes next_box(lanes m)
{
    return (m >> 3 & (BOX0 | BOX0 << 3)) | (m << 6 & BOX0 << 6);
}
LANES_INLINE lanes box_after_next(lanes m)
{
    return (m >> 6 & BOX0) | (m << 3 & (BOX0 << 3 | BOX0 << 6));
}

/* A digit's band cells on a rows x boxes permutation. */
LANES_INLINE lanes band_keep(lanes a)
{
    lanes m = minirows(a), k1 = next_box(m), k2 = box_after_next(m);
    lanes keep = m & ((next_row(k1) & row_after_next(k2)) |
                      (next_row(k2) & row_after_next(k1)));
    return a & (keep | keep << 1 | keep << 2);
}

/* A digit's band cells alone in their row (a has a cell in every row, or
 * none: the lowest cell of each row taken away leaves a lone row empty). */
LANES_INLINE lanes row_singles(lanes a)
{
    lanes t = a & (a - COLUMN), single = {0};
    for (int r = 0; r < 3; r++) {
        const uint32_t row = ROW0 << 9 * r;
        single |= keep_where(
            _mm512_testn_epi32_mask((__m512i)t, _mm512_set1_epi32((int)row)),
            a & row);
    }
    return single;
}

/* Columns (9 bits) -> the band cells in them. */
LANES_INLINE lanes down(lanes c)
{
    return c | c << 9 | c << 18;
}

LANES_INLINE lanes columns(lanes a)
{
    return (a | a >> 9 | a >> 18) & ROW0;
}

/* The columns where a band holds two cells or three. */
LANES_INLINE lanes twice_in_columns(lanes a)
{
    lanes r0 = a & ROW0, r1 = a >> 9 & ROW0, r2 = a >> 18;
    return (r0 & r1) | (r2 & (r0 | r1));
}

/* Column bits -> bit c from column c + 1, c + 2 of its stack. */
LANES_INLINE lanes next_column(lanes c)
{
    return (c >> 1 & 0333) | (c << 2 & 0444);
}
LANES_INLINE lanes column_after_next(lanes c)
{
    return (c >> 2 & 0111) | (c << 1 & 0666);
}

/* The columns of band 0 on a bands x columns permutation of their stack,
 * bands 1 and 2 the other two. */
LANES_INLINE lanes stack_keep(lanes c0, lanes c1, lanes c2)
{
    return c0 & ((next_column(c1) & column_after_next(c2)) |
                 (column_after_next(c1) & next_column(c2)));
}

/* Does a digit's set of cells to place in a band hold two in a row or a
 * box? */
LANES_INLINE __mmask16 clash_in_band(lanes p)
{
    lanes m = minirows(p);
    return nonzero((p & p >> 1 & 0x36db6db) | (p & p >> 2 & SPREAD) |
                   (m & m >> 3 & (BOX0 | BOX0 << 3)) | (m & m >> 6 & BOX0) |
                   (m & m >> 9) | (m & m >> 18));
}

/* Place put[b] (lane d: cells of band b for digit d + 1, open, at most one
 * per row and box).  False on a clash. */
LANES_INLINE bool place(lanes a[3], lanes open[3], const lanes put[3])
{
    lanes cols[3], band[3];
    __mmask16 clash = 0;
    for (int b = 0; b < 3; b++) {
        lanes twice;
        band[b] = across(put[b], &twice);
        clash |=
            nonzero(twice) | nonzero(put[b] & ~a[b]) | clash_in_band(put[b]);
        cols[b] = columns(put[b]);
    }
    clash |= nonzero((cols[0] & cols[1]) | (cols[2] & (cols[0] | cols[1])));
    if (clash)
        return false;
    const lanes taken = down(cols[0] | cols[1] | cols[2]);
    for (int b = 0; b < 3; b++) {
        lanes rows = {0}, p = put[b];
        for (int r = 0; r < 3; r++) {
            const __m512i row = _mm512_set1_epi32((int)(ROW0 << 9 * r));
            rows |=
                keep_where(_mm512_test_epi32_mask((__m512i)p, row), (lanes)row);
        }
        lanes boxes = (cols[b] | cols[b] >> 1 | cols[b] >> 2) & 0111;
        boxes = down(boxes | boxes << 1 | boxes << 2);
        a[b] = (a[b] & ~(rows | boxes | taken | band[b])) | p;
        open[b] &= ~band[b];
    }
    return true;
}

LANES_TARGET int sdk_f9_propagate_lanes(struct f9_state *s)
{
    lanes a[3], open[3];
    for (int b = 0; b < 3; b++) {
        a[b] = (lanes)_mm512_maskz_loadu_epi32(DIGITS, s->cand + IX(0, b));
        open[b] = (lanes)_mm512_set1_epi32((int)s->open[b]);
    }
    for (bool changed = true; changed;) {
        s->counters.checks += 3;
        lanes was[3] = {a[0], a[1], a[2]}, put[3], cols[3], stacked[3];
        __mmask16 dead = 0, any = 0;
        for (int b = 0; b < 3; b++) {
            a[b] = band_keep(a[b]);
            dead |= _mm512_testn_epi32_mask((__m512i)a[b], (__m512i)a[b]);
            lanes twice, once = across(a[b], &twice);
            dead |= nonzero(open[b] & ~once);
            put[b] = row_singles(a[b]) | (a[b] & ~twice);
            cols[b] = columns(a[b]);
            stacked[b] = twice_in_columns(a[b]);
        }
        lanes twice = (cols[0] & cols[1]) | (cols[2] & (cols[0] | cols[1])) |
                      stacked[0] | stacked[1] | stacked[2];
        lanes once = cols[0] | cols[1] | cols[2];
        dead |=
            _mm512_cmpneq_epi32_mask((__m512i)once, _mm512_set1_epi32(ROW0));
        if (dead & DIGITS)
            return -1;
        const lanes alone = down(once & ~twice);
        const lanes keep[3] = {stack_keep(cols[0], cols[1], cols[2]),
                               stack_keep(cols[1], cols[2], cols[0]),
                               stack_keep(cols[2], cols[0], cols[1])};
        for (int b = 0; b < 3; b++) {
            put[b] = (put[b] | (a[b] & alone)) & open[b];
            a[b] &= down(keep[b]);
            any |= nonzero(put[b]);
        }
        if (any && !place(a, open, put))
            return -1;
        changed = false;
        for (int b = 0; b < 3; b++)
            changed |=
                _mm512_cmpneq_epi32_mask((__m512i)a[b], (__m512i)was[b]) != 0;
    }
    for (int b = 0; b < 3; b++) {
        _mm512_mask_storeu_epi32(s->cand + IX(0, b), DIGITS, (__m512i)a[b]);
        s->open[b] = open[b][0];
    }
    s->todo = 0;
    s->columns_todo = 0;
    return 0;
}
#endif
