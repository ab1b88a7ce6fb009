/* sudoku/sudoku_impl.h - what the files of the Sudoku model share, private
 * to it: the strategy tables, the geometry of a grid, a puzzle's problem
 * data and the settings of a config.
 *
 * sudoku.c reads the config, puzzle.c turns puzzles into problems,
 * geometry.c builds the units and peers, cages.c reads Killer cages and
 * their digit sets, search.c holds the hooks.
 */
#ifndef CSEARCH_SUDOKU_IMPL_H
#define CSEARCH_SUDOKU_IMPL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "csearch/model.h"
#include "sudoku/sudoku.h"

#define SDK_MAX_CELLS (SDK_MAX_N * SDK_MAX_N)

/* strategy.propagate and strategy.kernel: each X(CONSTANT, "name") makes
 * enum constant SDK_PROPAGATE_CONSTANT (or SDK_KERNEL_...) and the name at
 * the same index of the option's choices (sudoku.c). */
#define SDK_PROPAGATE(X)                                                       \
    X(NONE, "none")                                                            \
    X(SINGLES, "singles")                                                      \
    X(FULL, "full")
#define SDK_KERNEL(X)                                                          \
    X(AUTO, "auto")                                                            \
    X(FAST, "fast")                                                            \
    X(GENERIC, "generic")

#define SDK_PROPAGATE_CONSTANT(name, text) SDK_PROPAGATE_##name,
#define SDK_KERNEL_CONSTANT(name, text) SDK_KERNEL_##name,
enum sdk_propagate { SDK_PROPAGATE(SDK_PROPAGATE_CONSTANT) };
enum sdk_kernel { SDK_KERNEL(SDK_KERNEL_CONSTANT) };
#undef SDK_PROPAGATE_CONSTANT
#undef SDK_KERNEL_CONSTANT

/* Where two units meet in two cells or more: the cells of a (in the meet,
 * and outside it) and the cells of b outside it. */
struct sdk_meet {
    int in[SDK_MAX_N], a_only[SDK_MAX_N], b_only[SDK_MAX_N];
    int nin, na, nb;
};

/* The shape of a grid, shared by every puzzle of that size in a config. */
struct sdk_geometry {
    int n, cells, nunits;
    int *units;             /* nunits rows of n cell indices */
    char (*names)[16];      /* "row 3", "box 2", "diagonal 1", "region C" */
    int *peer_start;        /* cells + 1 offsets into peers */
    int *peers;             /* the cells sharing a unit with each cell */
    int *unit_start;        /* cells + 1 offsets into cell_units */
    int *cell_units;        /* the units of each cell */
    struct sdk_meet *meets; /* for locked candidates */
    int nmeets;
    /* Killer cages (none: ncages 0): each cage's cells, its sum, and the
     * sets of digits (bit d = digit d + 1) of its size and sum. */
    int ncages;
    int *cage_start; /* ncages + 1 offsets into cage_cells */
    int *cage_cells;
    int *cage_sum;
    char (*cage_names)[16]; /* "cage 3", or "cage 'a'" from a letter grid */
    int *combo_start;       /* ncages + 1 offsets into combos */
    uint32_t *combos;
};

struct sdk_problem {
    const struct sdk_geometry *g;
    struct sdk_geometry *own; /* freed with the problem; NULL: a batch's */
    int n, cells, propagate;
    unsigned char givens[SDK_MAX_CELLS]; /* 0 = blank, else the digit */
};

/* What every puzzle of a config shares: how to build its geometry. */
struct sdk_settings {
    int box_r, box_c; /* 0: the squarest shape for the grid */
    bool diagonals, windoku;
    int regions_n; /* jigsaw side, 0 = boxes */
    char regions[SDK_MAX_CELLS];
    int cages_n; /* Killer: the grid side the cages cover, 0 =
                    no cages (cages.c) */
    int ncages;
    short cage_of[SDK_MAX_CELLS];    /* each cell's cage, config order */
    short cage_sum[SDK_MAX_CELLS];   /* each cage's sum */
    char cage_letter[SDK_MAX_CELLS]; /* its letter in a grid; 0: a list */
    enum sdk_propagate propagate;
    enum sdk_kernel kernel; /* as given */
    bool fast;              /* 9 x 9 puzzles go to the fast kernel */
};

/* Why a grid is refused: a message, the 1-based cell it is about (0: the
 * grid as a whole), and the config key at fault (NULL: the puzzle). */
struct sdk_grid_error {
    char msg[256];
    int cell;
    const char *key;
};

/* The character of digit d (1-9, then A-P). */
static inline char sdk_digit_char(int d)
{
    return (char)(d <= 9 ? '0' + d : 'A' + d - 10);
}

/* search.c: the hooks of the general path, and the state size they need
 * for problem p. */
extern const struct cs_hooks *const sdk_generic_hooks;
size_t sdk_state_size(const struct sdk_problem *p);

/* geometry.c */
/* Fill e with the message, cell and key; returns -1. */
int sdk_grid_fail(struct sdk_grid_error *e, int cell, const char *key,
                  const char *fmt, ...) CS_PRINTF(4, 5);
/* A grid of letters at node: a list of N strings of N characters, 4 <= N
 * <= SDK_MAX_N, copied row after row into out.  N, or -1 with err at the
 * node at fault; key and noun name them ("params.regions", "region"). */
int sdk_read_rows(const struct cs_node *node, const char *key, const char *noun,
                  char *out, struct cs_error *err);
/* The units, peers and meets of an n x n grid under the settings, or NULL
 * with e filled when the shape does not fit n. */
struct sdk_geometry *sdk_geometry_new(int n, const struct sdk_settings *set,
                                      struct sdk_grid_error *e);
void sdk_geometry_free(struct sdk_geometry *g);

/* cages.c: params.cages into the settings (cages_n 0 without it); the
 * cages of the geometry g (before its peers, which count cage mates), or
 * -1 with e filled. */
int sdk_read_cages(const struct cs_config *cfg, struct sdk_settings *set,
                   struct cs_error *err);
int sdk_cages_build(struct sdk_geometry *g, const struct sdk_settings *set,
                    struct sdk_grid_error *e);

/* puzzle.c: the problem of params.puzzle, or a batch of params.file. */
int sdk_setup_puzzle(const struct cs_config *cfg,
                     const struct sdk_settings *set, struct cs_problem *out,
                     struct cs_error *err);
int sdk_setup_batch(const struct cs_config *cfg, const struct sdk_settings *set,
                    struct cs_problem *out, struct cs_error *err);
/* The line of params.file that holds puzzle index of a batch. */
int sdk_batch_lineno(const struct cs_problem *batch, uint64_t index);

#endif
