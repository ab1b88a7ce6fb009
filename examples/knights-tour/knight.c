/* knight.c - knight's tours: a knight visits every square of a board once.
 *
 * A model written against the installed csearch headers only: built as a
 * plugin the csearch command loads (CS_PLUGIN at the end), and linked into
 * the program knights-tour (main.c).  Variable i is the square of move
 * i + 1 (the start square is move 0 and fixed), its value a square index,
 * row * cols + col with row 0 the first rank; a path of at most 64 squares
 * keeps the visited squares in one 64-bit mask.  Values come in the fixed
 * order of the eight knight moves (strategy.order: board) or fewest onward
 * moves first (warnsdorff: Warnsdorff's rule, which finds an 8 x 8 tour
 * with almost no backtracking).  params.closed asks for tours that end a
 * knight's move from the start: the goal test rejects the others, and a
 * prune cuts a path that has left no free square next to the start.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <csearch/dfs.h>
#include <csearch/plugin.h>

#include "knight.h"

#define KT_SIDE 8
#define KT_MAX (KT_SIDE * KT_SIDE)

struct kt_problem {
    int rows, cols, squares, start;
    bool closed;
    int nmoves[KT_MAX];
    int moves[KT_MAX][8];   /* squares a knight reaches, in move order */
    uint64_t reach[KT_MAX]; /* the same as a mask */
};

struct kt_state {
    struct cs_counters counters; /* checks: the engine sums them */
    const struct kt_problem *p;
    uint64_t visited;
    int steps; /* squares on the path, the start included */
    int path[KT_MAX];
};

/* ---- hooks ---- */

static void kt_init(void *state, const void *problem)
{
    struct kt_state *s = state; /* zeroed by the engine */
    s->p = problem;
    s->path[0] = s->p->start;
    s->steps = 1;
    s->visited = UINT64_C(1) << s->p->start;
}

static int kt_select(const void *state)
{
    const struct kt_state *s = state;
    return s->steps < s->p->squares ? s->steps - 1 : CS_NONE;
}

static void kt_first_board(void *state, int var, uint64_t *cursor)
{
    (void)state;
    (void)var;
    *cursor = 0; /* the next of the eight moves to try */
}

/* One check per move tried against the visited squares. */
static bool kt_next_board(void *state, int var, uint64_t *cursor, int *value)
{
    struct kt_state *s = state;
    int at = s->path[s->steps - 1];
    (void)var;
    for (int i = (int)*cursor; i < s->p->nmoves[at]; i++) {
        int to = s->p->moves[at][i];
        s->counters.checks++;
        if (!(s->visited >> to & 1)) {
            *value = to;
            *cursor = (uint64_t)i + 1;
            return true;
        }
    }
    *cursor = (uint64_t)s->p->nmoves[at];
    return false;
}

/* Warnsdorff: the free squares in order of how many free squares they
 * lead on to (ties in move order), packed into the cursor four bits a
 * move (move index + 1; 0 ends the list).  One check per move tried. */
static void kt_first_warnsdorff(void *state, int var, uint64_t *cursor)
{
    struct kt_state *s = state;
    int at = s->path[s->steps - 1], order[8], degree[8], n = 0;
    (void)var;
    for (int i = 0; i < s->p->nmoves[at]; i++) {
        int to = s->p->moves[at][i];
        s->counters.checks++;
        if (s->visited >> to & 1)
            continue;
        uint64_t onward = s->p->reach[to] & ~s->visited;
        int d = __builtin_popcountll(onward), j = n++;
        for (; j > 0 && degree[j - 1] > d; j--) {
            order[j] = order[j - 1];
            degree[j] = degree[j - 1];
        }
        order[j] = i;
        degree[j] = d;
    }
    *cursor = 0;
    while (n--)
        *cursor = *cursor << 4 | (uint64_t)(order[n] + 1);
}

static bool kt_next_warnsdorff(void *state, int var, uint64_t *cursor,
                               int *value)
{
    const struct kt_state *s = state;
    (void)var;
    if (!*cursor)
        return false;
    *value = s->p->moves[s->path[s->steps - 1]][(*cursor & 15) - 1];
    *cursor >>= 4;
    return true;
}

static void kt_apply(void *state, int var, int value)
{
    struct kt_state *s = state;
    (void)var;
    s->path[s->steps++] = value;
    s->visited |= UINT64_C(1) << value;
}

static void kt_undo(void *state, int var, int value)
{
    struct kt_state *s = state;
    (void)var;
    s->steps--;
    s->visited &= ~(UINT64_C(1) << value);
}

/* Closed tours: the last square is a knight's move from the start... */
static bool kt_goal(void *state)
{
    const struct kt_state *s = state;
    return s->p->squares == 1 ||
           (s->p->reach[s->path[s->steps - 1]] >> s->p->start & 1);
}

/* ...so until the last move one square next to the start must stay free:
 * a path that has taken them all is a dead end at once. */
static bool kt_prune(void *state)
{
    const struct kt_state *s = state;
    return s->steps < s->p->squares &&
           !(s->p->reach[s->p->start] & ~s->visited);
}

/* The board, last rank first, each square holding its move number (the
 * start is 1). */
static void kt_emit(const void *state, uint64_t k, struct cs_board *out)
{
    const struct kt_state *s = state;
    int step[KT_MAX];
    (void)k; /* every branch weighs 1 */
    for (int i = 0; i < s->steps; i++)
        step[s->path[i]] = i + 1;
    for (int row = s->p->rows - 1; row >= 0; row--) {
        char line[KT_SIDE * 3 + 1];
        for (int col = 0; col < s->p->cols; col++)
            snprintf(line + 3 * col, 4, "%3d", step[row * s->p->cols + col]);
        cs_board_add(out, line);
    }
}

/* One constant table per strategy.order and params.closed, each with the
 * engine body instantiated for it (csearch/dfs.h) so that its hooks
 * inline; tables[closed][order].  No domain_size: the variables come in
 * path order, so MRV is refused. */
#define KT_TABLE(name, first_hook, next_hook, prune_hook, goal_hook)           \
    CS_HOOKS(name, .state_size = sizeof(struct kt_state), .init = kt_init,     \
             .select = kt_select, .first = first_hook, .next = next_hook,      \
             .apply = kt_apply, .undo = kt_undo, .prune = prune_hook,          \
             .goal = goal_hook, .counters = true, .emit = kt_emit)

KT_TABLE(kt_open_board, kt_first_board, kt_next_board, NULL, NULL)
KT_TABLE(kt_open_warnsdorff, kt_first_warnsdorff, kt_next_warnsdorff, NULL,
         NULL)
KT_TABLE(kt_closed_board, kt_first_board, kt_next_board, kt_prune, kt_goal)
KT_TABLE(kt_closed_warnsdorff, kt_first_warnsdorff, kt_next_warnsdorff,
         kt_prune, kt_goal)

static const struct cs_hooks *const kt_tables[2][2] = {
    {&kt_open_board, &kt_open_warnsdorff},
    {&kt_closed_board, &kt_closed_warnsdorff},
};

/* ---- setup ---- */

static const char *const order_names[] = {"board", "warnsdorff", NULL};

static const struct cs_option kt_options[] = {
    {.key = "params.rows",
     .type = CS_OPT_INT,
     .def = "5",
     .min = 1,
     .max = KT_SIDE,
     .help = "ranks of the board"},
    {.key = "params.cols",
     .type = CS_OPT_INT,
     .def = "5",
     .min = 1,
     .max = KT_SIDE,
     .help = "files of the board"},
    {.key = "params.start",
     .type = CS_OPT_STRING,
     .def = "a1",
     .help = "the start square: file letter and rank number, as a1"},
    {.key = "params.closed",
     .type = CS_OPT_BOOL,
     .def = "false",
     .help = "only tours that end a knight's move from the start"},
    {.key = "strategy.order",
     .type = CS_OPT_ENUM,
     .def = "board",
     .choices = order_names,
     .help = "board: the eight moves in a fixed order; warnsdorff: fewest "
             "onward moves first"},
    {.key = NULL},
};

static void kt_moves(struct kt_problem *p)
{
    static const int dr[8] = {1, 2, 2, 1, -1, -2, -2, -1};
    static const int dc[8] = {2, 1, -1, -2, -2, -1, 1, 2};
    for (int sq = 0; sq < p->squares; sq++)
        for (int m = 0; m < 8; m++) {
            int r = sq / p->cols + dr[m], c = sq % p->cols + dc[m];
            if (r < 0 || r >= p->rows || c < 0 || c >= p->cols)
                continue;
            p->moves[sq][p->nmoves[sq]++] = r * p->cols + c;
            p->reach[sq] |= UINT64_C(1) << (r * p->cols + c);
        }
}

static int kt_setup(const struct cs_config *cfg, const struct cs_setup *how,
                    struct cs_problem *out, struct cs_error *err)
{
    (void)how;
    int rows = (int)cs_config_int(cfg, "params.rows");
    int cols = (int)cs_config_int(cfg, "params.cols");
    const char *start = cs_config_str(cfg, "params.start");
    char file;
    int rank, used = 0;
    if (sscanf(start, "%c%d%n", &file, &rank, &used) != 2 || start[used] ||
        file < 'a' || file >= 'a' + cols || rank < 1 || rank > rows)
        return cs_error_at(err, cs_config_pos(cfg, "params.start"),
                           "'params.start' must be a square of the %d x %d "
                           "board, a1 to %c%d, not '%s'",
                           rows, cols, 'a' + cols - 1, rows, start);
    struct kt_problem *p = cs_xcalloc(1, sizeof *p);
    p->rows = rows;
    p->cols = cols;
    p->squares = rows * cols;
    p->start = (rank - 1) * cols + (file - 'a');
    p->closed = cs_config_bool(cfg, "params.closed");
    kt_moves(p);
    out->hooks = kt_tables[p->closed][cs_config_enum(cfg, "strategy.order")];
    out->data = p;
    out->free_data = free;
    out->nvars = p->squares - 1;
    return 0;
}

const struct cs_model knight_model = {
    .abi_version = CS_ABI_VERSION,
    .name = "knight",
    .summary = "knight's tours: visit every square of a board once",
    .options = kt_options,
    .tasks = CS_TASK_BIT(CS_TASK_COUNT) | CS_TASK_BIT(CS_TASK_SOLVE) |
             CS_TASK_BIT(CS_TASK_ENUMERATE),
    .setup = kt_setup,
};

/* What the csearch command finds when a config says plugin: libknight.so. */
CS_PLUGIN(&knight_model);
