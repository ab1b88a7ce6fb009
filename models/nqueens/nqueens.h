/* nqueens/nqueens.h - the N-Queens model: one queen per row, rows are the
 * variables, columns the values.
 *
 * The state representations, each its own hook tables:
 *   array     three boolean arrays (columns, both diagonals): the textbook
 *             version, one check per column tried; any selection; n <= 128.
 *   bitmask   three shifting masks, one word per row on a stack: candidates
 *             are full & ~(cols|d1|d2), lowest bit first; in-order; n <= 64.
 *   absolute  bitmask with absolute diagonal masks (bit r+c and c-r+n-1, in
 *             128-bit words), so any row's candidates can be read off: what
 *             MRV needs; n <= 64.
 *   count     the bitmask state without positions, copied instead of undone,
 *             for counts that show no board; n <= 64.
 *   set       the array hooks with the lines in a hash set (set.c).
 * One file each (array.c, bitmask.c, absolute.c, count.c, set.c); nqueens.c
 * holds the options and the set-up, formulations.c the cell formulation and
 * brute force, d4.c and lanes.c the fast kernel, internal.h what they
 * share.  The tables are exposed for the tests; users reach them through
 * configs.
 */
#ifndef CSEARCH_NQUEENS_H
#define CSEARCH_NQUEENS_H

#include <stdbool.h>
#include <stdint.h>

#include "csearch/model.h"

#define NQ_ARRAY_MAX 128
#define NQ_BITMASK_MAX 64

struct nq_d4;
struct nq_halves;

struct nq_problem {
    int n;
    bool mirror;  /* first row: left half counted twice, odd middle once */
    bool d4;      /* count unique solutions (each solution tested) */
    bool forward; /* forward checking: every open row keeps a free column */
    bool hashed;  /* state set: the array hooks on a hash set of lines */
    struct nq_d4 *kernel; /* the fast count's border constellations, or NULL */
    struct nq_halves *halves; /* the halves kernel's splits, or NULL */
};

/* Local search (local.c, strategy.local): any n up to NQ_LOCAL_MAX;
 * under strategy.local auto, task solve takes it from n = NQ_LOCAL_FROM,
 * where backtracking in order starts to need tens of millions of nodes. */
#define NQ_LOCAL_MAX 1000000000
#define NQ_LOCAL_FROM 30

extern const struct cs_model cs_nqueens_model;

/* The independent check of a solution (check.c): -1 when pos[0..n) places
 * n queens none of which attacks another, else the first row at fault (0
 * also when memory for the check ran out). */
long long nq_check_columns(const uint32_t *pos, uint32_t n);

enum nq_state { NQ_ARRAY, NQ_BITMASK, NQ_ABSOLUTE, NQ_COUNT };

/* The hook table of a representation for problem p (the bitmask tables
 * differ by pruning and d4; the others read p's flags at run time). */
const struct cs_hooks *nq_hooks(enum nq_state state,
                                const struct nq_problem *p);

#endif
