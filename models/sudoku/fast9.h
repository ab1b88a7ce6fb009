/* sudoku/fast9.h - the fast kernel for plain 9 x 9 Sudoku (3 x 3 boxes, no
 * variants), private to the Sudoku model.
 *
 * The same engine searches it (csearch/dfs.h with its own constant hook
 * table, copy mode): only the state and its hooks differ from the general
 * path.  Its problem data is the puzzle's givens; puzzle.c checks them
 * (characters, duplicates) before it hands them over.
 */
#ifndef CSEARCH_SUDOKU_FAST9_H
#define CSEARCH_SUDOKU_FAST9_H

#include <stdbool.h>
#include <stdint.h>

#include "csearch/model.h"

/* Problem data: givens[c] is the digit of cell c (row-major), 0 = blank. */
struct sdk_fast9 {
    unsigned char givens[81];
};

/* How many variables the kernel branches on: the 81 cells, then 54 digit
 * configurations of a band or stack.  A problem on sdk_fast9_hooks sets
 * its nvars to this (its own order branches on configurations, numbered
 * from 81; select: mrv on cells). */
#define SDK_FAST9_VARS (81 + 54)

/* Its hook table (the engine body inlined with it: csearch/dfs.h). */
extern const struct cs_hooks *const sdk_fast9_hooks;

/* The next hook of both paths: values are the set bits of the cursor, the
 * cell's candidate digits, lowest first. */
static inline bool sdk_next_candidate(void *state, int var, uint64_t *cursor,
                                      int *value)
{
    (void)state;
    (void)var;
    if (!*cursor)
        return false;
    *value = __builtin_ctzll(*cursor);
    *cursor &= *cursor - 1;
    return true;
}

/* Build the lookup tables and choose the instruction set propagation runs
 * on (once per process; safe from any thread): AVX-512 where the processor
 * has it, unless CSEARCH_ISA (avx512, avx2, scalar) caps it.  NULL, or
 * what is wrong with CSEARCH_ISA (the kernel then runs what it can). */
const char *sdk_fast9_prepare(void);

/* Name that instruction set in a problem the kernel runs (isa and
 * isa_reason: "measured", "only" or "CSEARCH_ISA"), after prepare. */
void sdk_fast9_name_isa(struct cs_problem *out);

#endif
