/* generate.c - new 9 x 9 puzzles (task generate): a random full grid, then
 * its clues taken away in a random order (a cell and its mirror through the
 * centre together under symmetry rotational) while the puzzle keeps one
 * solution, down to params.clues or until no clue can go.
 *
 * A difficulty takes clues away while the puzzle stays within its level's
 * techniques (expert: one solution by the fast kernel, fast9.h), and keeps
 * a result only if task rate's level is its own.  Puzzle i depends on
 * params.seed and i alone, so threads and MPI ranks make the same puzzles in
 * the same order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/engine.h"
#include "csearch/random.h"
#include "sudoku/fast9.h"
#include "sudoku/rate.h"

/* Tries for one puzzle before it is reported as not found. */
#define GEN_ATTEMPTS 10000

const char *const sdk_difficulty_names[] = {"any",          "simple", "easy",
                                            "intermediate", "expert", NULL};
const char *const sdk_symmetry_names[] = {"none", "rotational", NULL};

struct gen_batch {
    uint64_t seed;
    int clues;            /* 0: as few as the removal reaches */
    enum sdk_level level; /* SDK_LEVEL_NONE: any */
    bool rotational;
    char *file;    /* the config, for the messages */
    int line, col; /* of the target not met: params.clues, else
                      params.difficulty (else params.count) */
};

static void free_gen_batch(void *data)
{
    struct gen_batch *b = data;
    if (b)
        free(b->file);
    free(b);
}

/* A number in [0, n) (n small: the bias is below 2^-50). */
static int below(uint64_t *s, int n)
{
    return (int)cs_random_below(s, (uint64_t)n);
}

static void shuffle(uint64_t *s, int *a, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = below(s, i + 1), t = a[i];
        a[i] = a[j];
        a[j] = t;
    }
}

/* on_solution: the grid of the first solution, from the kernel's board. */
static bool take_grid(void *ud, const struct cs_hooks *hooks, const void *state,
                      uint64_t weight)
{
    unsigned char *grid = ud;
    struct cs_board board = {0};
    (void)weight;
    hooks->emit(state, 0, &board);
    for (size_t r = 0; r < board.count && r < 9; r++)
        for (int c = 0; c < 9; c++)
            grid[9 * r + (size_t)c] = (unsigned char)(board.lines[r][c] - '0');
    cs_board_free(&board);
    return false;
}

/* The fast kernel on the givens: solutions counted up to `limit` (task
 * count), or the first one written to `grid` (grid not NULL). */
static uint64_t kernel_search(const unsigned char givens[81], uint64_t limit,
                              unsigned char *grid)
{
    struct sdk_fast9 f;
    memcpy(f.givens, givens, sizeof f.givens);
    struct cs_problem p = {.hooks = sdk_fast9_hooks,
                           .data = &f,
                           .nvars = 81,
                           .state_size = sdk_fast9_hooks->state_size};
    struct cs_spec spec = {
        .problem = &p, .task = CS_TASK_COUNT, .select = CS_SELECT_IN_ORDER};
    spec.limits.solutions = limit;
    if (grid) {
        spec.task = CS_TASK_SOLVE;
        spec.on_solution = take_grid;
        spec.ud = grid;
    }
    struct cs_result r;
    struct cs_error err;
    if (cs_search(&spec, NULL, &r, &err))
        return 0;
    return r.stats.solutions;
}

/* A random full grid: boxes 1, 5 and 9 share no row or column, so any
 * digits fill them; the kernel completes the rest. */
static void random_grid(uint64_t *s, unsigned char grid[81])
{
    unsigned char seedgrid[81] = {0};
    for (int b = 0; b < 9; b += 4) {
        int digits[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
        shuffle(s, digits, 9);
        for (int i = 0; i < 9; i++)
            seedgrid[(b / 3 * 3 + i / 3) * 9 + b % 3 * 3 + i % 3] =
                (unsigned char)digits[i];
    }
    memset(grid, 0, 81); /* were the kernel to fail: a grid the check refuses */
    kernel_search(seedgrid, 1, grid);
}

/* What a puzzle that lost clues must still be: solved by the techniques
 * up to one (which implies one solution), or one solution by the kernel. */
#define BY_KERNEL SDK_TECH_COUNT
static const int checks[SDK_LEVEL_COUNT] = {
    [SDK_LEVEL_NONE] = BY_KERNEL,
    [SDK_LEVEL_SIMPLE] = SDK_TECH_NAKED_SINGLE,
    [SDK_LEVEL_EASY] = SDK_TECH_HIDDEN_SINGLE,
    [SDK_LEVEL_INTERMEDIATE] = SDK_TECH_COUNT - 1,
    [SDK_LEVEL_EXPERT] = BY_KERNEL,
};

/* p passed the check with cells a and b given, and has lost them: does it
 * still?  The techniques stop early once they place a and b again: p is
 * then back where it was. */
static bool still_good(const unsigned char p[81], int check, int a, int b)
{
    if (check == BY_KERNEL)
        return kernel_search(p, 2, NULL) == 1;
    return sdk_logic_places(p, (enum sdk_technique)check, a, b);
}

/* Take away the clues of p that it can lose and pass check, in a random
 * order (cells, or cells and their mirrors); *clues counts them. */
static void take_away(const struct gen_batch *b, uint64_t *s,
                      unsigned char p[81], int check, int *clues)
{
    int order[81], n = b->rotational ? 41 : 81;
    for (int i = 0; i < n; i++)
        order[i] = i;
    shuffle(s, order, n);
    for (int i = 0; i<n && * clues> b->clues; i++) {
        int c = order[i], m = 80 - c;
        bool pair = b->rotational && m != c;
        if (pair && *clues - 2 < b->clues)
            continue;
        unsigned char dc = p[c], dm = p[m];
        p[c] = 0;
        if (pair)
            p[m] = 0;
        if (still_good(p, check, c, m)) {
            *clues -= pair ? 2 : 1;
            continue;
        }
        p[c] = dc;
        p[m] = dm;
    }
}

/* One try at a puzzle from the random stream s: true when it meets the
 * clue target and the level. */
static bool try_puzzle(const struct gen_batch *b, uint64_t *s,
                       unsigned char p[81])
{
    random_grid(s, p);
    int clues = 81;
    take_away(b, s, p, checks[b->level], &clues);
    if (b->clues && clues != b->clues)
        return false;
    if (b->level == SDK_LEVEL_NONE)
        return true;
    struct sdk_rating rating;
    sdk_rate(p, &rating);
    return rating.level == b->level;
}

static int gen_instance(const void *data, uint64_t index,
                        struct cs_problem *out, struct cs_error *err)
{
    const struct gen_batch *b = data;
    unsigned char p[81];
    /* a stream of its own for each puzzle: splitmix64 of seed and index */
    uint64_t s = b->seed;
    s = cs_random(&s) ^ index;
    for (int attempt = 0; attempt < GEN_ATTEMPTS; attempt++) {
        if (!try_puzzle(b, &s, p))
            continue;
        char *note =
            (char *)sdk_fast_problem(p, 82, out) + sizeof(struct sdk_fast9);
        for (int c = 0; c < 81; c++)
            note[c] = p[c] ? (char)('0' + p[c]) : '.';
        note[81] = '\0';
        out->note = note;
        return 0;
    }
    struct cs_pos pos = {b->file, b->line, b->col};
    char target[64] = "";
    if (b->clues)
        snprintf(target, sizeof target, " of %d clues", b->clues);
    return cs_error_at(
        err, pos, "puzzle %llu: none%s%s%s found in %d tries",
        (unsigned long long)index + 1, target, b->level ? ", difficulty " : "",
        b->level ? sdk_difficulty_names[b->level] : "", GEN_ATTEMPTS);
}

int sdk_setup_generate(const struct cs_config *cfg,
                       const struct sdk_settings *set, struct cs_problem *out,
                       struct cs_error *err)
{
    static const char *const sources[] = {"params.puzzle", "params.file"};
    for (int i = 0; i < 2; i++)
        if (cs_config_has(cfg, sources[i]))
            return cs_error_at(err, cs_config_pos(cfg, sources[i]),
                               "task generate makes its own puzzles: drop "
                               "'%s'",
                               sources[i]);
    if (!set->fast)
        return cs_error_at(err, cs_config_pos(cfg, "task"),
                           "task generate makes plain 9 x 9 puzzles (no "
                           "variants, kernel auto or fast)");
    if (!cs_config_has(cfg, "params.count"))
        return cs_error_at(err, cs_config_missing_pos(cfg, "params.count"),
                           "missing key 'params.count' (how many puzzles "
                           "to generate)");
    struct gen_batch *b = cs_xcalloc(1, sizeof *b);
    b->seed = (uint64_t)cs_config_int(cfg, "params.seed");
    b->clues = (int)cs_config_int(cfg, "params.clues");
    b->level = (enum sdk_level)cs_config_enum(cfg, "params.difficulty");
    b->rotational = cs_config_enum(cfg, "params.symmetry") == 1;
    const char *blamed = b->clues                     ? "params.clues"
                         : b->level != SDK_LEVEL_NONE ? "params.difficulty"
                                                      : "params.count";
    struct cs_pos pos = cs_config_pos(cfg, blamed);
    b->file = cs_xstrdup(pos.file ? pos.file : "");
    b->line = pos.line;
    b->col = pos.col;
    (void)sdk_fast9_prepare(); /* set->fast: its error was reported */
    sdk_fast_fill(out, b, free_gen_batch);
    out->instances = (uint64_t)cs_config_int(cfg, "params.count");
    out->setup_instance = gen_instance;
    return 0;
}
