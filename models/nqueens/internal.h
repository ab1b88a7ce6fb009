/* nqueens/internal.h - what the files of the N-Queens model share, and no
 * one else: the option tables, the hooks every row state has alike, the
 * boards and traces (board.c), each representation's tables, the set state's
 * lines (set.c), the other formulations, and the fast kernel's two files.
 * Whatever a hook calls on the search's hot path is static inline here, so
 * each file's inlined search (cs_dfs on its own table) inlines it too.
 */
#ifndef CSEARCH_NQUEENS_INTERNAL_H
#define CSEARCH_NQUEENS_INTERNAL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "csearch/model.h"
#include "nqueens/d4.h"
#include "nqueens/nqueens.h"

/* ---- the enumeration options: constant and name, one table each --------
 *
 * Each table lists X(constant, name) in the order of the option's choices,
 * so cs_config_enum's index is the constant: the enums below and the names
 * arrays of the options table (nqueens.c) are both expanded from it. */
/* clang-format off */
#define NQ_STATE_CHOICES(X)                                                    \
    X(NQ_STATE_ARRAY, "array") X(NQ_STATE_BITMASK, "bitmask")                  \
    X(NQ_STATE_SET, "set")
#define NQ_FORMULATION_CHOICES(X) X(NQ_FORM_ROW, "row") X(NQ_FORM_CELL, "cell")
#define NQ_SEARCH_CHOICES(X)                                                   \
    X(NQ_SEARCH_BACKTRACK, "backtrack") X(NQ_SEARCH_BRUTE, "brute-force")
#define NQ_SYMMETRY_CHOICES(X)                                                 \
    X(NQ_SYM_NONE, "none") X(NQ_SYM_MIRROR, "mirror") X(NQ_SYM_D4, "d4")
#define NQ_PRUNE_CHOICES(X)                                                    \
    X(NQ_PRUNE_NONE, "none") X(NQ_PRUNE_FORWARD, "forward")
#define NQ_KERNEL_CHOICES(X)                                                   \
    X(NQ_KERNEL_AUTO, "auto") X(NQ_KERNEL_FAST, "fast")                        \
    X(NQ_KERNEL_GENERIC, "generic") X(NQ_KERNEL_HALVES, "halves")
/* clang-format on */

#define NQ_CHOICE_CONSTANT(constant, name) constant,
#define NQ_CHOICE_NAME(constant, name) name,

enum nq_state_choice { NQ_STATE_CHOICES(NQ_CHOICE_CONSTANT) };
enum nq_formulation { NQ_FORMULATION_CHOICES(NQ_CHOICE_CONSTANT) };
enum nq_search { NQ_SEARCH_CHOICES(NQ_CHOICE_CONSTANT) };
enum nq_symmetry { NQ_SYMMETRY_CHOICES(NQ_CHOICE_CONSTANT) };
enum nq_prune { NQ_PRUNE_CHOICES(NQ_CHOICE_CONSTANT) };
enum nq_kernel { NQ_KERNEL_CHOICES(NQ_CHOICE_CONSTANT) };

/* ---- small helpers of the hot path ------------------------------------ */

static inline uint64_t nq_low_bits(int count)
{
    return count >= 64 ? ~UINT64_C(0) : (UINT64_C(1) << count) - 1;
}

/* Columns the first row may take under mirror symmetry. */
static inline int nq_mirror_limit(int n)
{
    return (n + 1) / 2;
}

/* Under mirror symmetry a first-row queen left of the middle counts twice:
 * the board's mirror image is a different solution. */
static inline uint64_t nq_mirror_weight(bool at_root, bool mirror, int n,
                                        int col)
{
    return at_root && mirror && 2 * col + 1 < n ? 2 : 1;
}

/* The next hook of the mask states: the cursor is the mask of candidates
 * left, taken lowest bit first. */
static inline bool nq_next_bit(void *state, int r, uint64_t *cursor, int *value)
{
    (void)state;
    (void)r;
    if (!*cursor)
        return false;
    *value = __builtin_ctzll(*cursor);
    *cursor &= *cursor - 1;
    return true;
}

/* d4 without the kernel: is the solution pos the smallest of its images
 * (rows compared in order)?  Counting only those counts each orbit once. */
static inline bool nq_is_canonical(const int *pos, int n)
{
    int img[NQ_ARRAY_MAX];
    for (int g = 1; g < 8; g++) {
        for (int r = 0; r < n; r++) {
            int gr, gc;
            nq_d4_map(n, g, r, pos[r], &gr, &gc);
            img[gr] = gc;
        }
        for (int r = 0; r < n; r++) {
            if (img[r] != pos[r]) {
                if (img[r] < pos[r])
                    return false;
                break;
            }
        }
    }
    return true;
}

/* ---- the hooks the states have alike --------------------------------------
 *
 * Each macro defines one hook, a static function of the file that uses it,
 * named prefix_goal and so on, for the state type given: its own hook among
 * the file's others, inlined into the file's search like them.  The fields
 * each one reads are named with it. */

/* goal (n, d4, pos, unique): with d4 and no kernel, each solution is tested
 * and the canonical ones counted as unique. */
#define NQ_GOAL_HOOK(prefix, type)                                             \
    static bool prefix##_goal(void *state)                                     \
    {                                                                          \
        type *s = state;                                                       \
        if (s->d4)                                                             \
            s->counters.unique += nq_is_canonical(s->pos, s->n);               \
        return true;                                                           \
    }

/* emit (n, pos): the board, k = 1 its mirror image. */
#define NQ_EMIT_HOOK(prefix, type)                                             \
    static void prefix##_emit(const void *state, uint64_t k,                   \
                              struct cs_board *out)                            \
    {                                                                          \
        const type *s = state;                                                 \
        nq_emit_board(s->pos, s->n, k, out);                                   \
    }

/* weight (n, mirror): mirror symmetry's weight of a queen, 2 left of the
 * middle in the first row placed, else 1; at_root, an expression in s (the
 * state) and r (the row), says the queen is the first. */
#define NQ_WEIGHT_HOOK(prefix, type, at_root)                                  \
    static uint64_t prefix##_weight(const void *state, int r, int c)           \
    {                                                                          \
        const type *s = state;                                                 \
        (void)r;                                                               \
        return nq_mirror_weight(at_root, s->mirror, s->n, c);                  \
    }

/* value (pos): the column of row r, for output.format columns. */
#define NQ_VALUE_HOOK(prefix, type)                                            \
    static int prefix##_value(const void *state, int r)                        \
    {                                                                          \
        const type *s = state;                                                 \
        return s->pos[r];                                                      \
    }

/* All four, for a state that keeps the queens' positions and both
 * symmetries (array, bitmask, absolute). */
#define NQ_ROW_HOOKS(prefix, type, at_root)                                    \
    NQ_GOAL_HOOK(prefix, type)                                                 \
    NQ_EMIT_HOOK(prefix, type)                                                 \
    NQ_VALUE_HOOK(prefix, type)                                                \
    NQ_WEIGHT_HOOK(prefix, type, at_root)

/* ---- boards and traces (board.c), for every state ------------------------ */

/* One board row per line; k = 1 is the mirror image. */
void nq_emit_board(const int *pos, int n, uint64_t k, struct cs_board *out);

/* Traces: "row 2" and "col 3"; the board (Q, x where attacked(r, c) in an
 * open row, .); the queens' columns row by row ('.' for an open row); a
 * mask in binary, highest bit first; flags, index 0 first.  A row is open
 * unless its bit is in rows (rows beyond 64: unless pos[r] >= 0). */
void nq_var_name(const void *state, int r, char *buf, size_t size);
void nq_value_name(const void *state, int r, int c, char *buf, size_t size);
void nq_view_board(struct cs_view *v, const int *pos, int n, uint64_t rows,
                   const void *s,
                   bool (*attacked)(const void *s, int r, int c));
void nq_view_queens(struct cs_view *v, const int *pos, int n, uint64_t rows);
void nq_view_bits(struct cs_view *v, const char *name, uint64_t hi, uint64_t lo,
                  int bits);
void nq_view_flags(struct cs_view *v, const char *name, const bool *a, int len);

/* ---- the representations' tables, for nq_hooks (nqueens.c) --------------- */

/* array.c: any selection; forward and d4 are read at run time. */
const struct cs_hooks *nq_array_hooks(const struct nq_problem *p);
/* bitmask.c: one table per forward x d4. */
const struct cs_hooks *nq_bitmask_hooks(const struct nq_problem *p);
/* count.c: one table per forward. */
const struct cs_hooks *nq_count_hooks(const struct nq_problem *p);
/* absolute.c: forward and d4 read at run time. */
const struct cs_hooks *nq_absolute_hooks(const struct nq_problem *p);

/* local.c: the permutation state of the min-conflicts layer, any n. */
const struct cs_hooks *nq_local_hooks(void);
/* The bytes a local search of n queens allocates at its start (its state,
 * then its check's bitmaps), to be refused at set-up if they cannot be. */
size_t nq_local_bytes(uint32_t n);

/* ---- the set state's lines (set.c) ---------------------------------------
 *
 * A uthash set of the columns and diagonals queens occupy, behind the array
 * hooks.  new allocates everything the set will need, so mark never
 * allocates; free(NULL) is fine. */
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

/* ---- the other formulations (formulations.c) -------------------------- */

/* Formulation cell and search brute-force.  Returns 0 with *out set up, -1
 * with err positioned, or 1 when cfg asks for neither (the row model takes
 * it). */
int nq_formulation_setup(const struct cs_config *cfg,
                         const struct cs_setup *how, struct cs_problem *out,
                         struct cs_error *err);

/* ---- the fast kernel: d4.c, and its search on vector lanes, lanes.c ---- */

/* The 8-lane interior search: x86-64 compilers that take per-function
 * targets; used when the processor has AVX-512 F and CD. */
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#define NQ_LANES 1
#else
#define NQ_LANES 0
#endif

/* rows a lane searches: 12 columns in 60 bits + the last */
#define NQ_LANE_ROWS 13
#define NQ_LANE_PREFIX 3 /* rows the scalar walk fills at least */

/* The border queens, a corner queen once: at most four. */
struct nq_queens {
    int count;
    int r[4], c[4];
};

/* One border's interior search, set up by d4.c: the rows to search
 * bottom-up, what the border queens attack in each, and the counters. */
struct nq_plan {
    int n, m; /* board size, interior rows to search */
    uint64_t full;
    uint64_t cols;              /* columns the border queens hold, 0, n-1 */
    uint64_t attack[NQ_D4_MAX]; /* squares border queens attack, row rows[i] */
    int shift[NQ_D4_MAX];       /* rows[i + 1] - rows[i] */
    int rows[NQ_D4_MAX];
    int pos[NQ_D4_MAX]; /* tracked search: the queen of each row */
    uint64_t nodes, fails, stab_sum;
    bool stopped;            /* the search gave up on *stop */
    struct nq_queens border; /* where the lanes' absolute masks start */
};

/* The solutions of pl's interior, as d4.c's interior() counts them (nodes,
 * fails and all), with rows[0..depth_end) walked in scalar and the rest on
 * vector lanes; sets pl->stopped and returns 0 if *stop ended it.  Only
 * where NQ_LANES is 1, on a processor nq_d4_lanes_supported() approves. */
uint64_t nq_interior_lanes(struct nq_plan *pl, int depth_end,
                           volatile sig_atomic_t *stop);

#endif
