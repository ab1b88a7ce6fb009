/* sudoku/rate.h - rating 9 x 9 puzzles by the techniques a solver by hand
 * needs (rate.c) and generating puzzles of a clue count or a level
 * (generate.c): tasks rate and generate, private to the Sudoku model.
 *
 * Both hand the engine a batch whose instances are plain 9 x 9 problems on
 * the fast kernel (fast9.h) with a note (cs_problem.note): the rating, or
 * the generated puzzle; the batch checks each by a count stopped at two.
 */
#ifndef CSEARCH_SUDOKU_RATE_H
#define CSEARCH_SUDOKU_RATE_H

#include <stdbool.h>
#include <stdint.h>

#include "sudoku/sudoku_impl.h"

/* The techniques, easiest first; each is tried only when all the easier
 * ones make no progress.  X(CONSTANT, "name", level) */
#define SDK_TECHNIQUES(X)                                                      \
    X(NAKED_SINGLE, "naked singles", 1)                                        \
    X(HIDDEN_SINGLE, "hidden singles", 2)                                      \
    X(LOCKED, "locked candidates", 3)                                          \
    X(NAKED_PAIR, "naked pairs", 3)                                            \
    X(HIDDEN_PAIR, "hidden pairs", 3)
#define SDK_TECH_CONSTANT(name, text, level) SDK_TECH_##name,
enum sdk_technique { SDK_TECHNIQUES(SDK_TECH_CONSTANT) SDK_TECH_COUNT };
#undef SDK_TECH_CONSTANT

/* The levels of the scale (docs/config.md): 1-3 by the hardest technique
 * the puzzle needs, 4 when those techniques stall and it takes guesses.
 * 0: no solution (or two equal givens in a unit). */
#define SDK_LEVELS(X)                                                          \
    X(NONE, "none")                                                            \
    X(SIMPLE, "simple")                                                        \
    X(EASY, "easy")                                                            \
    X(INTERMEDIATE, "intermediate")                                            \
    X(EXPERT, "expert")
#define SDK_LEVEL_CONSTANT(name, text) SDK_LEVEL_##name,
enum sdk_level { SDK_LEVELS(SDK_LEVEL_CONSTANT) SDK_LEVEL_COUNT };
#undef SDK_LEVEL_CONSTANT

extern const char *const sdk_level_names[]; /* NULL-terminated */
/* params.difficulty ("any", then the levels) and params.symmetry */
extern const char *const sdk_difficulty_names[];
extern const char *const sdk_symmetry_names[];

struct sdk_rating {
    enum sdk_level level;
    /* steps of each technique before the first guess: cells placed by a
     * single, applications that removed a candidate for the others */
    uint32_t uses[SDK_TECH_COUNT];
    /* trial placements until the first solution: cell with the fewest
     * candidates first (lowest index on a tie), digits in increasing
     * order, every technique after each */
    uint64_t guesses;
};

/* Rate the givens (81 cells, 0 blank): the same answer every run. */
void sdk_rate(const unsigned char givens[81], struct sdk_rating *out);

/* Do the techniques up to and including `hardest` solve the givens
 * without a guess?  (Then the puzzle has one solution.) */
bool sdk_logic_solves(const unsigned char givens[81],
                      enum sdk_technique hardest);

/* The same, stopping as soon as they place cells a and b (a == b: one
 * cell): for givens that lost a and b from a puzzle those techniques
 * solve, the same answer sooner (placed again, they solve the rest). */
bool sdk_logic_places(const unsigned char givens[81],
                      enum sdk_technique hardest, int a, int b);

/* "expert 4: naked singles 31, hidden singles 12, ..., guesses 3" */
void sdk_rating_text(const struct sdk_rating *r, char *buf, size_t size);

/* *out zeroed, then a problem on the fast kernel's hooks with data (a
 * struct sdk_fast9, or a batch's) that free_data frees. */
void sdk_fast_fill(struct cs_problem *out, void *data,
                   void (*free_data)(void *));
/* A problem for the fast kernel on the givens, data malloc'ed with `extra`
 * bytes after the struct sdk_fast9 (for a note); returns the data. */
void *sdk_fast_problem(const unsigned char givens[81], size_t extra,
                       struct cs_problem *out);

/* The tasks' setups (sudoku.c calls them for task rate and generate). */
int sdk_setup_rate(const struct cs_config *cfg, const struct sdk_settings *set,
                   struct cs_problem *out, struct cs_error *err);
int sdk_setup_generate(const struct cs_config *cfg,
                       const struct sdk_settings *set, struct cs_problem *out,
                       struct cs_error *err);

#endif
