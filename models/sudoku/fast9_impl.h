/* sudoku/fast9_impl.h - the fast 9 x 9 kernel's state and shared pieces,
 * private to fast9.c (propagation, the engine's hooks) and fast9_triads.c
 * (triads, the choice of a branch).
 *
 * cand[IX(d, b)] holds band b's cells still open to digit d + 1, bit 9r + c
 * for the band's row r and column c, band by band (a band's nine digits
 * side by side, for the vector strikes); strike() is the one way cells
 * leave it outside init and place, and it marks what it changed.
 */
#ifndef CSEARCH_SUDOKU_FAST9_IMPL_H
#define CSEARCH_SUDOKU_FAST9_IMPL_H

#include <stdbool.h>
#include <stdint.h>

#include "csearch/model.h"

#define BAND_CELLS UINT32_C(0x7ffffff)
#define COLUMN UINT32_C(0x40201) /* column 0 of a band: bits 0, 9, 18 */
/* Variables: cells 0..80, then F9_CELLS + 6d + g: digit d + 1's
 * configuration in band g (g < 3) or in stack g - 3 (sdk_f9_triads). */
#define F9_CELLS 81
/* where digit d + 1's cells of band b are kept: cand[IX(d, b)], todo bit
 * IX(d, b) */
#define IX(d, b) (9 * (b) + (d))

struct f9_state {
    struct cs_counters counters; /* the engine's: never copied */
    uint32_t cand[27]; /* cand[IX(d, b)]: band b's cells open to digit d + 1 */
    uint32_t open[3];  /* band cells not placed yet */
    uint32_t todo;     /* bit IX(d, b): cand[IX(d, b)] lost cells since it
                          was last reduced */
    uint32_t columns_todo; /* bit d: digit d was reduced since its last
                              column pass */
    uint32_t dead;         /* a digit was placed where it had no place (a
                              safety net: values come from the candidates) */
    int branch;            /* at a fixpoint: the variable to branch on, or
                              CS_NONE when every configuration is settled */
};

/* the six ways to give three rows three boxes (or three bands three
 * columns): row r gets box sdk_f9_perms[p][r] */
extern const int sdk_f9_perms[6][3];
/* 9 bits of a band row -> 3 bits: the boxes it reaches. */
extern uint8_t sdk_f9_boxes_of_row[512];

/* Take cells from cand[x]; if that changed it, x is to be reduced. */
static inline void strike(struct f9_state *s, int x, uint32_t cells)
{
    uint32_t old = s->cand[x];
    s->cand[x] = old & ~cells;
    s->todo |= (uint32_t)((old & cells) != 0) << x;
}

/* A digit's rows x boxes pattern in a band (bit 3r + k: row r reaches box
 * k), from its cells there. */
static inline unsigned band_pattern(uint32_t a)
{
    return sdk_f9_boxes_of_row[a & 511] |
           (unsigned)sdk_f9_boxes_of_row[a >> 9 & 511] << 3 |
           (unsigned)sdk_f9_boxes_of_row[a >> 18] << 6;
}

/* The columns a digit's cells in a band reach (bit c). */
static inline uint32_t columns_of(uint32_t a)
{
    return (a | a >> 9 | a >> 18) & 511;
}

/* A digit's bands x columns pattern in stack j (bit 3b + c), from its
 * columns band by band. */
static inline unsigned stack_pattern(const uint32_t cols[3], int j)
{
    return (cols[0] >> 3 * j & 7) | (cols[1] >> 3 * j & 7) << 3 |
           (cols[2] >> 3 * j & 7) << 6;
}

/* The propagation on AVX-512 (fast9_lanes.c): x86-64 compilers that take
 * per-function targets. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define SDK_F9_LANES 1
#else
#define SDK_F9_LANES 0
#endif
/* The scalar path's fixpoint (bands, naked singles, columns; not the
 * triads), on a processor with AVX-512 F: -1 on a contradiction (the state
 * is then partly done), else 0, with todo and columns_todo empty. */
int sdk_f9_propagate_lanes(struct f9_state *s);

/* Build fast9_triads.c's tables (under sdk_fast9_prepare's once). */
void sdk_f9_build_triad_tables(void);
/* At a fixpoint of the other rules (s->todo empty): the triads of every
 * band and stack.  -1 on a contradiction, 1 if cells were struck (s->todo
 * says where), 0 if none: then s->branch is set. */
int sdk_f9_triads(struct f9_state *s);
/* The configurations (bit p) digit d + 1 has left in band or stack g. */
unsigned sdk_f9_configs_of(const struct f9_state *s, int d, int g);
/* Keep digit d + 1 to configuration p of band or stack g. */
void sdk_f9_fix_config(struct f9_state *s, int d, int g, int p);

#endif
