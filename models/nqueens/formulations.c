/* formulations.c - N-Queens modelled other ways, for comparing strategies.
 *
 * Beside the row-by-row states, on the generic engine: the cell formulation
 * (the k-th queen on a later square than the (k-1)-th's) and brute force
 * (every permutation of the columns, tested at the leaf).  Each counts its
 * own checks; what a node and a check are for each is in
 * docs/architecture.md, section 12.7.
 */
#include <stdio.h>
#include <stdlib.h>

#include "csearch/dfs.h"
#include "nqueens/internal.h"

#define NQ_BRUTE_MAX 12 /* 12! = 479001600 leaves; 13! would take minutes */

struct nq_form {
    int n;
    bool d4;
};

/* ---- cell: the k-th queen on a square after the (k-1)-th's ------------- */

/* Variables are queens 0..n-1, values squares r * n + c.  Queen k may take
 * any square after queen k-1's that no queen attacks (one check per square
 * tried, against rows, columns and both diagonals), so each set of
 * non-attacking squares is reached once, in increasing order.  Without
 * pruning the search wanders through every such set; with skipped-row
 * pruning a node whose queen stands below a row left empty is cut: the
 * rows above the last queen are all passed and can take no queen again. */
struct nq_cell {
    struct cs_counters counters; /* the engine's: checks, unique */
    int n, placed;
    bool d4;
    int square[NQ_ARRAY_MAX]; /* square of queen k */
    int pos[NQ_ARRAY_MAX];    /* column of row r's queen, -1 if none */
    bool col[NQ_ARRAY_MAX];
    bool d1[2 * NQ_ARRAY_MAX - 1]; /* r + c */
    bool d2[2 * NQ_ARRAY_MAX - 1]; /* r - c + n - 1 */
};

static void cell_init(void *state, const void *problem)
{
    struct nq_cell *s = state;
    const struct nq_form *p = problem;
    s->n = p->n;
    s->d4 = p->d4;
    for (int r = 0; r < s->n; r++)
        s->pos[r] = -1;
}

static int cell_select(const void *state)
{
    const struct nq_cell *s = state;
    return s->placed < s->n ? s->placed : CS_NONE;
}

static void cell_first(void *state, int k, uint64_t *cursor)
{
    struct nq_cell *s = state;
    *cursor = k ? (uint64_t)s->square[k - 1] + 1 : 0;
}

static bool cell_next(void *state, int k, uint64_t *cursor, int *value)
{
    struct nq_cell *s = state;
    int squares = s->n * s->n;
    (void)k;
    for (int sq = (int)*cursor; sq < squares; sq++) {
        int r = sq / s->n, c = sq % s->n;
        s->counters.checks++;
        if (s->pos[r] < 0 && !s->col[c] && !s->d1[r + c] &&
            !s->d2[r - c + s->n - 1]) {
            *value = sq;
            *cursor = (uint64_t)sq + 1;
            return true;
        }
    }
    *cursor = (uint64_t)squares;
    return false;
}

static void cell_mark(struct nq_cell *s, int sq, bool on)
{
    int r = sq / s->n, c = sq % s->n;
    s->pos[r] = on ? c : -1;
    s->col[c] = on;
    s->d1[r + c] = on;
    s->d2[r - c + s->n - 1] = on;
}

static void cell_apply(void *state, int k, int sq)
{
    struct nq_cell *s = state;
    cell_mark(s, sq, true);
    s->square[k] = sq;
    s->placed++;
}

static void cell_undo(void *state, int k, int sq)
{
    struct nq_cell *s = state;
    (void)k;
    cell_mark(s, sq, false);
    s->placed--;
}

/* Queens stand in increasing squares, one per row, so rows 0..r of the last
 * queen's row r all hold one exactly when r + 1 queens are placed. */
static bool cell_skipped_row(void *state)
{
    const struct nq_cell *s = state;
    return s->placed > 0 && s->square[s->placed - 1] / s->n != s->placed - 1;
}

NQ_GOAL_HOOK(cell, struct nq_cell)
NQ_EMIT_HOOK(cell, struct nq_cell)

/* For traces: "queen 1 = (0,2)" (row, column), the board and the arrays. */
static void cell_var_name(const void *state, int k, char *buf, size_t size)
{
    (void)state;
    snprintf(buf, size, "queen %d", k);
}

static void cell_value_name(const void *state, int k, int sq, char *buf,
                            size_t size)
{
    const struct nq_cell *s = state;
    (void)k;
    snprintf(buf, size, "(%d,%d)", sq / s->n, sq % s->n);
}

static bool cell_attacked(const void *state, int r, int c)
{
    const struct nq_cell *s = state;
    return s->col[c] || s->d1[r + c] || s->d2[r - c + s->n - 1];
}

static void cell_describe(const void *state, struct cs_view *out)
{
    const struct nq_cell *s = state;
    uint64_t rows = 0;
    for (int r = 0; r < s->n && r < 64; r++)
        rows |= (uint64_t)(s->pos[r] >= 0) << r;
    nq_view_board(out, s->pos, s->n, rows, s, cell_attacked);
    nq_view_queens(out, s->pos, s->n, rows);
    nq_view_flags(out, "col", s->col, s->n);
    nq_view_flags(out, "d1", s->d1, 2 * s->n - 1);
    nq_view_flags(out, "d2", s->d2, 2 * s->n - 1);
}

static const struct cs_name_hooks cell_names = {.describe = cell_describe,
                                                .var_name = cell_var_name,
                                                .value_name = cell_value_name};

#define CELL_HOOKS                                                             \
    .state_size = sizeof(struct nq_cell), .init = cell_init,                   \
    .select = cell_select, .first = cell_first, .next = cell_next,             \
    .apply = cell_apply, .undo = cell_undo, .goal = cell_goal,                 \
    .counters = true, .emit = cell_emit, .names = &cell_names

static const struct cs_hooks cell_hooks = {CELL_HOOKS};

static const struct cs_hooks cell_skipped_rows_hooks = {
    CELL_HOOKS,
    .prune = cell_skipped_row,
};

/* ---- brute force: every permutation, tested at the leaf ---------------- */

/* Rows are variables and row r takes every column no row above took, with
 * no other test: the leaves are the n! permutations.  The goal hook then
 * compares queen pairs for a shared diagonal (one check per pair, stopping
 * at the first pair that attacks); a rejected permutation is a fail. */
struct nq_brute {
    struct cs_counters counters; /* the engine's: checks, unique */
    int n, row;
    bool d4;
    uint64_t used; /* the columns taken */
    int pos[NQ_BRUTE_MAX];
};

static void brute_init(void *state, const void *problem)
{
    struct nq_brute *s = state;
    const struct nq_form *p = problem;
    s->n = p->n;
    s->d4 = p->d4;
}

static int brute_select(const void *state)
{
    const struct nq_brute *s = state;
    return s->row < s->n ? s->row : CS_NONE;
}

static void brute_first(void *state, int r, uint64_t *cursor)
{
    struct nq_brute *s = state;
    (void)r;
    *cursor = ((UINT64_C(1) << s->n) - 1) & ~s->used;
}

static void brute_apply(void *state, int r, int c)
{
    struct nq_brute *s = state;
    s->used |= UINT64_C(1) << c;
    s->pos[r] = c;
    s->row = r + 1;
}

static void brute_undo(void *state, int r, int c)
{
    struct nq_brute *s = state;
    s->used &= ~(UINT64_C(1) << c);
    s->row = r;
}

static bool brute_goal(void *state)
{
    struct nq_brute *s = state;
    for (int a = 0; a < s->n; a++)
        for (int b = a + 1; b < s->n; b++) {
            s->counters.checks++;
            if (abs(s->pos[a] - s->pos[b]) == b - a)
                return false;
        }
    if (s->d4)
        s->counters.unique += nq_is_canonical(s->pos, s->n);
    return true;
}

NQ_EMIT_HOOK(brute, struct nq_brute)

/* For traces: the board with x on the columns taken, and those columns. */
static bool brute_taken(const void *state, int r, int c)
{
    const struct nq_brute *s = state;
    (void)r;
    return s->used >> c & 1;
}

static void brute_describe(const void *state, struct cs_view *out)
{
    const struct nq_brute *s = state;
    uint64_t rows = (UINT64_C(1) << s->row) - 1;
    nq_view_board(out, s->pos, s->n, rows, s, brute_taken);
    nq_view_queens(out, s->pos, s->n, rows);
    nq_view_bits(out, "used", 0, s->used, s->n);
}

static int brute_search(struct cs_dfs *dfs, void *state);

static const struct cs_name_hooks brute_names = {.describe = brute_describe,
                                                 .var_name = nq_var_name,
                                                 .value_name = nq_value_name};

static const struct cs_hooks brute_hooks = {
    .state_size = sizeof(struct nq_brute),
    .init = brute_init,
    .select = brute_select,
    .first = brute_first,
    .next = nq_next_bit,
    .apply = brute_apply,
    .undo = brute_undo,
    .goal = brute_goal,
    .counters = true,
    .emit = brute_emit,
    .names = &brute_names,
    .search = brute_search, /* n! leaves: worth inlining the hooks */
};

static int brute_search(struct cs_dfs *dfs, void *state)
{
    return cs_dfs(dfs, state, &brute_hooks);
}

/* ---- set-up ------------------------------------------------------------- */

/* A strategy key that cell or brute force cannot honour: the complaint, with
 * *key set to it, or NULL.  (strategy.state is not among them: both keep a
 * state of their own, and the key chooses among the row model's.) */
static const char *conflict(const struct cs_config *cfg, const char **key)
{
    if (cs_config_enum(cfg, "strategy.symmetry") == NQ_SYM_MIRROR) {
        *key = "strategy.symmetry";
        return "cannot use symmetry mirror (none or d4)";
    }
    if (cs_config_enum(cfg, "strategy.prune") != NQ_PRUNE_NONE) {
        *key = "strategy.prune";
        return "cannot use prune forward";
    }
    if (cs_config_enum(cfg, "strategy.kernel") == NQ_KERNEL_FAST) {
        *key = "strategy.kernel";
        return "cannot use kernel fast";
    }
    return NULL;
}

int nq_formulation_setup(const struct cs_config *cfg,
                         const struct cs_setup *how, struct cs_problem *out,
                         struct cs_error *err)
{
    int n = (int)cs_config_int(cfg, "params.n");
    bool brute = cs_config_enum(cfg, "strategy.search") == NQ_SEARCH_BRUTE;
    bool cell = cs_config_enum(cfg, "strategy.formulation") == NQ_FORM_CELL;
    bool skipped_rows = cs_config_bool(cfg, "strategy.prune_skipped_rows");
    if (skipped_rows && !cell)
        return cs_error_at(err,
                           cs_config_pos(cfg, "strategy.prune_skipped_rows"),
                           "prune_skipped_rows needs formulation cell");
    if (brute && cell)
        return cs_error_at(err, cs_config_pos(cfg, "strategy.search"),
                           "search brute-force needs formulation row");
    if (!brute && !cell)
        return 1; /* the row model (nqueens.c) */

    const char *key = NULL, *why = conflict(cfg, &key);
    const char *what = brute ? "search brute-force" : "formulation cell";
    if (why)
        return cs_error_at(err, cs_config_pos(cfg, key), "%s %s", what, why);
    if (brute && n > NQ_BRUTE_MAX)
        return cs_error_at(err, cs_config_pos(cfg, "params.n"),
                           "search brute-force tries all n! permutations; "
                           "n = %d is refused (at most %d)",
                           n, NQ_BRUTE_MAX);
    if (how->task == CS_TASK_COUNT && n > NQ_D4_MAX)
        return cs_error_at(err, cs_config_pos(cfg, "params.n"),
                           "counting n = %d could overflow 64-bit counts "
                           "(at most %d); task solve finds one solution up "
                           "to n = %d",
                           n, NQ_D4_MAX, NQ_LOCAL_MAX);
    if (n > NQ_ARRAY_MAX)
        return cs_error_at(err, cs_config_pos(cfg, "params.n"),
                           "formulation cell works up to n = %d", NQ_ARRAY_MAX);

    struct nq_form *p = cs_xcalloc(1, sizeof *p);
    int symmetry = cs_config_enum(cfg, "strategy.symmetry");
    p->n = n;
    p->d4 = symmetry == NQ_SYM_D4;
    out->hooks = brute          ? &brute_hooks
                 : skipped_rows ? &cell_skipped_rows_hooks
                                : &cell_hooks;
    out->data = p;
    out->free_data = free;
    out->nvars = n;
    out->reports_unique = p->d4;
    out->kernel = "generic";
    /* strategy.state is not theirs: the cell formulation keeps the array
     * state's three tables, brute force a mask of the columns taken */
    out->state = brute ? "bitmask" : "array";
    return 0;
}
