/* nqueens/d4.h - the fast counting kernel: border constellations under the
 * eight symmetries of the board.
 *
 * Every solution has exactly one queen on each border line (row 0, row n-1,
 * column 0, column n-1), and at most one queen in a corner.  The kernel lists
 * the placements of those border queens that are canonical (smallest of
 * their images under the 8 rotations and reflections), counts the interior
 * completions of each with a bitmask search (on AVX-512 vector lanes where
 * the processor has them), and weighs each count by the size of the
 * border's orbit.  Each border placement is one work unit.
 * Unique counts are exact orbit counts (see d4.c).  Used for n >= 6.
 */
#ifndef CSEARCH_NQUEENS_D4_H
#define CSEARCH_NQUEENS_D4_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "csearch/model.h"

#define NQ_D4_MIN 6
#define NQ_D4_MAX 28 /* a(29) would not fit in 64 bits */

struct nq_border {
    signed char top, bottom; /* columns of the queens in rows 0 and n-1 */
    signed char left, right; /* rows of the queens in columns 0 and n-1 */
    unsigned char stab;      /* symmetries that map the border to itself */
};

struct nq_d4 {
    int n;
    uint64_t count;
    struct nq_border *units; /* canonical borders, in enumeration order */
    bool lanes;              /* search on 8-lane vectors (AVX-512): same
                                tree, same counts, about twice as fast */
};

/* Can this processor run the 8-lane search? */
bool nq_d4_lanes_supported(void);

/* List the canonical borders of an n x n board (NQ_D4_MIN <= n).  Sets
 * lanes when they are supported, unless the environment variable
 * CSEARCH_NQ_LANES is 0; a caller may clear it. */
void nq_d4_init(struct nq_d4 *k, int n);
void nq_d4_free(void *k);

/* Count the solutions with border `unit`: solutions (all images included),
 * unique (orbits), nodes and fails of the interior search.  cs_problem's
 * count_unit; data is a struct nq_d4. */
bool nq_d4_count_unit(const void *data, uint64_t unit,
                      volatile sig_atomic_t *stop, struct cs_stats *out);

/* The same count on the scalar path, its rows added to levels (n + 1 of
 * them; cs_problem's profile_unit): depth = queens on the board, so a
 * unit's root (its 3 or 4 border queens) is at depth 3 or 4, each interior
 * queen one deeper, and its solutions (weighted by the border's orbit, as
 * out->solutions) at depth n - 1, where the last row's one free square
 * completes them without a node of its own. */
struct cs_level;
bool nq_d4_profile_unit(const void *data, uint64_t unit,
                        volatile sig_atomic_t *stop, struct cs_stats *out,
                        struct cs_level *levels);

/* An estimate of the interior nodes of `unit`, a pure function of it
 * (cs_problem's unit_size: random probes, d4.c). */
double nq_d4_unit_size(const void *data, uint64_t unit);

/* The image of square (r, c) under symmetry g (0 = identity, 1..3 the
 * rotations by 90, 180, 270 degrees, 4..7 the reflections). */
void nq_d4_map(int n, int g, int r, int c, int *gr, int *gc);

#endif
