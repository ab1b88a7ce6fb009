/* nqueens/nqueens.h - the N-Queens model: one queen per row, rows are the
 * variables, columns the values.
 *
 * Three state representations, each its own hook table:
 *   array     three boolean arrays (columns, both diagonals): the textbook
 *             version, one check per column tried; any selection; n <= 128.
 *   bitmask   three shifting masks, one word per row on a stack: candidates
 *             are full & ~(cols|d1|d2), lowest bit first; in-order; n <= 64.
 *   absolute  bitmask with absolute diagonal masks (bit r+c and c-r+n-1, in
 *             128-bit words), so any row's candidates can be read off: what
 *             MRV needs; n <= 64.
 *   count     the bitmask state without positions, copied instead of undone,
 *             for counts that show no board; n <= 64.
 *   set       the array hooks with the lines in a hash set (formulations.c).
 * formulations.c also holds the cell formulation and brute force.
 * The tables are exposed for the tests; users reach them through configs.
 */
#ifndef CSEARCH_NQUEENS_H
#define CSEARCH_NQUEENS_H

#include <stdbool.h>

#include "csearch/model.h"

#define NQ_ARRAY_MAX 128
#define NQ_BITMASK_MAX 64

struct nq_d4;

struct nq_problem {
    int n;
    bool mirror;  /* first row: left half counted twice, odd middle once */
    bool d4;      /* count unique solutions (each solution tested) */
    bool forward; /* forward checking: every open row keeps a free column */
    bool hashed;  /* state set: the array hooks on a hash set of lines */
    struct nq_d4 *kernel; /* the fast count's border constellations, or NULL */
};

extern const struct cs_model cs_nqueens_model;

enum nq_state { NQ_ARRAY, NQ_BITMASK, NQ_ABSOLUTE, NQ_COUNT };

/* The other formulations (formulations.c): formulation cell and search
 * brute-force.  Returns 0 with *out set up, -1 with err positioned, or 1
 * when cfg asks for neither (the row model takes it). */
int nq_formulation_setup(const struct cs_config *cfg, struct cs_problem *out,
                         struct cs_error *err);

/* Shared with formulations.c: is the solution pos the least of its 8
 * images; one board (k = 1: its mirror image). */
bool nq_is_canonical(const int *pos, int n);
void nq_emit_board(const int *pos, int n, uint64_t k, struct cs_board *out);

/* Traces (nqueens.c), shared with formulations.c: "row 2" and "col 3";
 * the board (Q, x where attacked(r, c) in an open row, .); the queens'
 * columns row by row ('.' for an open row); a mask in binary, highest bit
 * first; flags, index 0 first.  A row is open unless its bit is in rows
 * (rows beyond 64: unless pos[r] >= 0). */
void nq_var_name(const void *state, int r, char *buf, size_t size);
void nq_value_name(const void *state, int r, int c, char *buf, size_t size);
void nq_view_board(struct cs_view *v, const int *pos, int n, uint64_t rows,
                   const void *s, bool (*attacked)(const void *s, int r, int c));
void nq_view_queens(struct cs_view *v, const int *pos, int n, uint64_t rows);
void nq_view_bits(struct cs_view *v, const char *name, uint64_t hi,
                  uint64_t lo, int bits);
void nq_view_flags(struct cs_view *v, const char *name, const bool *a,
                   int len);

/* The set state's lines (formulations.c): a uthash set of the columns and
 * diagonals queens occupy.  new allocates everything the set will need, so
 * mark never allocates; free(NULL) is fine. */
struct nq_lineset;
struct nq_lineset *nq_lineset_new(int n);
void nq_lineset_free(struct nq_lineset *set);
/* Is (r, c) on an occupied column or diagonal? */
bool nq_lineset_attacks(struct nq_lineset *set, int r, int c);
/* Does the set hold key (column c, n + r + c, or 3n - 1 + r - c + n - 1)?
 * For traces, which show the set's lines as the array state's arrays. */
bool nq_lineset_has(struct nq_lineset *set, int key);
/* Occupy (on) or free the three lines through (r, c). */
void nq_lineset_mark(struct nq_lineset *set, int r, int c, bool on);

/* The hook table of a representation for problem p (the bitmask tables
 * differ by pruning and d4; the others read p's flags at run time). */
const struct cs_hooks *nq_hooks(enum nq_state state,
                                const struct nq_problem *p);

#endif
