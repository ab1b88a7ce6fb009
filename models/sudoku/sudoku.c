/* sudoku.c - the Sudoku model: its options, the settings they make and its
 * setup, which hands a puzzle or a batch to puzzle.c.
 *
 * Plain 9 x 9 puzzles go to the fast kernel (fast9.c, strategy.kernel auto
 * or fast) whatever propagate and select say, unless the run is traced or
 * kernel is generic: same engine, its own state and hooks; the rest to the
 * general path (search.c) on a grid's geometry (geometry.c).  Killer
 * cages (cages.c) always take the general path.
 */
#include <stdio.h>
#include <string.h>

#include "sudoku/fast9.h"
#include "sudoku/rate.h"
#include "sudoku/sudoku_impl.h"

#define SDK_NAME(name, text) text,
static const char *const propagate_names[] = {SDK_PROPAGATE(SDK_NAME) NULL};
static const char *const kernel_names[] = {SDK_KERNEL(SDK_NAME) NULL};
#undef SDK_NAME

static const struct cs_option sdk_options[] = {
    {.key = "params.puzzle",
     .type = CS_OPT_NODE,
     .choices = (const char *const[]){"string", "list", NULL},
     .help = "the grid: one string of N*N cells, or a list of N row strings; "
             "'.' or '0' blank, digits 1-9 then A-P (required unless "
             "params.file or params.cages)"},
    {.key = "params.file",
     .type = CS_OPT_STRING,
     .help = "a file of puzzles, one a line (a batch); relative to the "
             "config's folder"},
    {.key = "params.box",
     .type = CS_OPT_STRING,
     .help = "box shape RxC (rows x columns, R*C = N); default: the "
             "squarest with R <= C"},
    {.key = "params.regions",
     .type = CS_OPT_NODE,
     .choices = (const char *const[]){"list", NULL},
     .help = "jigsaw: N row strings of region letters, replacing the boxes"},
    {.key = "params.cages",
     .type = CS_OPT_NODE,
     .choices = (const char *const[]){"list", "mapping", NULL},
     .help = "Killer: cages covering the grid, each a sum its cells add up "
             "to with no digit twice: a list of {sum: 15, cells: [r1c1, "
             "r1c2]}, or {grid: [N rows of cage letters], sums: {a: 15}}; "
             "params.puzzle may then be left out (an empty grid)"},
    {.key = "params.diagonals",
     .type = CS_OPT_BOOL,
     .def = "false",
     .help = "Sudoku X: both main diagonals hold every digit once"},
    {.key = "params.windoku",
     .type = CS_OPT_BOOL,
     .def = "false",
     .help = "windoku (9 x 9): four more 3 x 3 boxes, at rows and columns "
             "2-4 and 6-8"},
    {.key = "strategy.propagate",
     .type = CS_OPT_ENUM,
     .def = "singles",
     .choices = propagate_names,
     .help = "the general path's: none; singles: naked and hidden singles "
             "after every move; full: and locked candidates (the fast "
             "kernel always propagates in full)"},
    {.key = "strategy.kernel",
     .type = CS_OPT_ENUM,
     .def = "auto",
     .choices = kernel_names,
     .help = "fast: the 9 x 9 digit-major kernel (3 x 3 boxes, no variant, "
             "propagate full); generic: the general grids; auto: fast for "
             "every plain 9 x 9 grid unless the run is traced"},
    /* task generate (generate.c) */
    {.key = "params.count",
     .type = CS_OPT_INT,
     .min = 1,
     .max = 1e9,
     .help = "task generate (required there): how many puzzles, one a "
             "line"},
    {.key = "params.seed",
     .type = CS_OPT_INT,
     .def = "0",
     .min = 0,
     .max = 9e18,
     .help = "task generate: the same seed, the same puzzles"},
    {.key = "params.clues",
     .type = CS_OPT_INT,
     .min = 17,
     .max = 81,
     .help = "task generate: exactly this many clues (default: as few as "
             "taking clues away one by one reaches)"},
    {.key = "params.difficulty",
     .type = CS_OPT_ENUM,
     .def = "any",
     .choices = sdk_difficulty_names,
     .help = "task generate: only puzzles of this level of the scale of "
             "task rate (docs/config.md)"},
    {.key = "params.symmetry",
     .type = CS_OPT_ENUM,
     .def = "none",
     .choices = sdk_symmetry_names,
     .help = "task generate: rotational: the clues look the same turned "
             "half a turn"},
    {.key = NULL},
};

/* What keeps the grid from the fast kernel: NULL, or what it needs.  (The
 * grid's size is known only with the puzzle: puzzle.c checks it.) */
static const char *grid_conflict(const struct sdk_settings *set)
{
    if (set->cages_n)
        return "a grid without cages";
    if (set->diagonals || set->windoku || set->regions_n)
        return "a grid without variants (diagonals, windoku, regions)";
    if (set->box_r && (set->box_r != 3 || set->box_c != 3))
        return "3x3 boxes";
    return NULL;
}

/* Which path the settings take.  kernel fast propagates in full, so it
 * refuses a propagate given as anything else (the default is the general
 * path's, measured in docs/performance.md); auto takes the kernel for a
 * plain grid whatever propagate and select say (it is the faster at every
 * setting), but not under a trace, whose steps need the general path's cell
 * names and boards. */
static int choose_kernel(const struct cs_config *cfg, bool tracing,
                         struct sdk_settings *set, struct cs_error *err)
{
    set->kernel = cs_config_enum(cfg, "strategy.kernel");
    const char *conflict = grid_conflict(set);
    if (set->kernel == SDK_KERNEL_FAST && !conflict &&
        set->propagate != SDK_PROPAGATE_FULL &&
        cs_config_has(cfg, "strategy.propagate"))
        conflict = "propagate full";
    if (set->kernel == SDK_KERNEL_FAST && conflict)
        return cs_error_at(err, cs_config_pos(cfg, "strategy.kernel"),
                           "kernel fast needs %s", conflict);
    set->fast = !conflict && (set->kernel == SDK_KERNEL_FAST ||
                              (set->kernel == SDK_KERNEL_AUTO && !tracing));
    const char *isa = set->fast ? sdk_fast9_prepare() : NULL;
    if (isa)
        return cs_error_set(err, NULL, "%s", isa);
    return 0;
}

/* params.regions: N strings of N region letters. */
static int read_regions(const struct cs_config *cfg, struct sdk_settings *set,
                        struct cs_error *err)
{
    const struct cs_node *node = cs_config_node(cfg, "params.regions");
    if (!node)
        return 0;
    set->regions_n =
        sdk_read_rows(node, "params.regions", "region", set->regions, err);
    return set->regions_n < 0 ? -1 : 0;
}

static int read_settings(const struct cs_config *cfg, bool tracing,
                         struct sdk_settings *set, struct cs_error *err)
{
    memset(set, 0, sizeof *set);
    set->propagate = cs_config_enum(cfg, "strategy.propagate");
    set->diagonals = cs_config_bool(cfg, "params.diagonals");
    set->windoku = cs_config_bool(cfg, "params.windoku");
    const char *box = cs_config_str(cfg, "params.box");
    char tail;
    if (box && (sscanf(box, "%dx%d%c", &set->box_r, &set->box_c, &tail) != 2 ||
                set->box_r < 1 || set->box_c < 1 || set->box_r > SDK_MAX_N ||
                set->box_c > SDK_MAX_N))
        return cs_error_at(err, cs_config_pos(cfg, "params.box"),
                           "'params.box' must be ROWSxCOLUMNS, like 2x3, "
                           "not '%s'",
                           box);
    if (box && cs_config_has(cfg, "params.regions"))
        return cs_error_at(err, cs_config_pos(cfg, "params.regions"),
                           "give params.box or params.regions, not both");
    if (read_regions(cfg, set, err) || sdk_read_cages(cfg, set, err))
        return -1;
    return choose_kernel(cfg, tracing, set, err);
}

static int sdk_setup(const struct cs_config *cfg, const struct cs_setup *how,
                     struct cs_problem *out, struct cs_error *err)
{
    /* the grid and a trace decide the kernel; the task does not */
    struct sdk_settings set;
    if (read_settings(cfg, how->tracing, &set, err))
        return -1;
    if (how->task == CS_TASK_GENERATE)
        return sdk_setup_generate(cfg, &set, out, err);
    static const char *const generating[] = {
        "params.count",      "params.seed",     "params.clues",
        "params.difficulty", "params.symmetry", NULL};
    for (int i = 0; generating[i]; i++)
        if (cs_config_has(cfg, generating[i]))
            return cs_error_at(err, cs_config_pos(cfg, generating[i]),
                               "'%s' is for task generate", generating[i]);
    bool puzzle = cs_config_has(cfg, "params.puzzle");
    bool file = cs_config_has(cfg, "params.file");
    if (puzzle && file)
        return cs_error_at(err, cs_config_pos(cfg, "params.file"),
                           "give params.puzzle or params.file, not both");
    if (file)
        return how->task == CS_TASK_RATE ? sdk_setup_rate(cfg, &set, out, err)
                                         : sdk_setup_batch(cfg, &set, out, err);
    if (!puzzle && !set.cages_n)
        return cs_error_at(err, cs_config_missing_pos(cfg, "params.puzzle"),
                           "missing key 'params.puzzle' (or params.file)");
    if (how->task == CS_TASK_RATE)
        return sdk_setup_rate(cfg, &set, out, err);
    return sdk_setup_puzzle(cfg, &set, out, err);
}

const struct cs_model cs_sudoku_model = {
    .abi_version = CS_ABI_VERSION,
    .name = "sudoku",
    .summary = "fill an N x N grid so every row, column and box holds each "
               "digit once",
    .options = sdk_options,
    .tasks = CS_TASK_BIT(CS_TASK_COUNT) | CS_TASK_BIT(CS_TASK_SOLVE) |
             CS_TASK_BIT(CS_TASK_ENUMERATE) | CS_TASK_BIT(CS_TASK_GENERATE) |
             CS_TASK_BIT(CS_TASK_RATE),
    .setup = sdk_setup,
};
