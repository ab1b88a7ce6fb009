/* sudoku/sudoku.h - the Sudoku model: cells are the variables, digits the
 * values, candidates kept as bitmasks.
 *
 * Grids of N = r x c digits with boxes of r rows and c columns (4x4, 6x6,
 * 9x9, 12x12, 16x16, 25x25).  A state holds each cell's digit and candidate
 * mask; placing a digit removes it from the cell's peers (the cells sharing a
 * row, column or box).  Propagation runs in the prune hook and assigns
 * cells of its own (naked and hidden singles), so the state is copied rather
 * than undone.  The state's size depends on the grid: cs_problem.state_size.
 * Plain 9 x 9 grids may take a fast digit-major kernel (fast9.h).
 */
#ifndef CSEARCH_SUDOKU_H
#define CSEARCH_SUDOKU_H

#include "csearch/model.h"

#define SDK_MAX_N 25

extern const struct cs_model cs_sudoku_model;

#endif
