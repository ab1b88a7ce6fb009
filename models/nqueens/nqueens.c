/* nqueens.c - the N-Queens model: its options, the set-up that picks a
 * formulation, a state representation and the kernel from them, and
 * nq_hooks, which hands out a representation's table.
 *
 * The representations are array.c, bitmask.c, absolute.c and count.c (set.c
 * holds the set state's lines); formulations.c the cell formulation and
 * brute force; d4.c and lanes.c the fast counting kernel; halves.c,
 * parts.c and match.c the meet-in-the-middle kernel (halves.h).
 */
#include <stdlib.h>

#include "csearch/engine.h"
#include "csearch/trace.h"
#include "nqueens/halves.h"
#include "nqueens/internal.h"

/* ---- the model: options and set-up -------------------------------------- */

/* An option's choices, NULL-terminated, from its table in internal.h. */
#define CHOICE_NAMES(table)                                                    \
    {                                                                          \
        table(NQ_CHOICE_NAME) NULL                                             \
    }

static const char *const state_names[] = CHOICE_NAMES(NQ_STATE_CHOICES);
static const char *const formulation_names[] =
    CHOICE_NAMES(NQ_FORMULATION_CHOICES);
static const char *const search_names[] = CHOICE_NAMES(NQ_SEARCH_CHOICES);
static const char *const symmetry_names[] = CHOICE_NAMES(NQ_SYMMETRY_CHOICES);
static const char *const prune_names[] = CHOICE_NAMES(NQ_PRUNE_CHOICES);
static const char *const kernel_names[] = CHOICE_NAMES(NQ_KERNEL_CHOICES);

static const struct cs_option nq_options[] = {
    {.key = "params.n",
     .type = CS_OPT_INT,
     .def = "8",
     .min = 1,
     .max = NQ_LOCAL_MAX,
     .help = "board size (queens, rows, columns): up to 128 for the tree "
             "searches (64 for bitmask), 28 for counts, 10^9 for local "
             "search"},
    {.key = "strategy.state",
     .type = CS_OPT_ENUM,
     .def = "bitmask",
     .choices = state_names,
     .help = "array: three boolean arrays; bitmask: three integer masks; "
             "set: a hash set of occupied lines (formulation row only: "
             "cell and brute-force keep their own)"},
    {.key = "strategy.formulation",
     .type = CS_OPT_ENUM,
     .def = "row",
     .choices = formulation_names,
     .help = "row: a queen per row; cell: each queen on a later square "
             "(select in-order, prune none, symmetry none or d4)"},
    {.key = "strategy.prune_skipped_rows",
     .type = CS_OPT_BOOL,
     .def = "false",
     .help = "formulation cell: cut a branch once a row is passed empty"},
    {.key = "strategy.search",
     .type = CS_OPT_ENUM,
     .def = "backtrack",
     .choices = search_names,
     .help = "brute-force: all n! permutations, each tested at the leaf "
             "(n up to 12)"},
    {.key = "strategy.symmetry",
     .type = CS_OPT_ENUM,
     .def = "d4",
     .choices = symmetry_names,
     .help = "mirror: first row searches the left half, counted twice; "
             "d4: all 8 symmetries, also counts unique solutions"},
    {.key = "strategy.prune",
     .type = CS_OPT_ENUM,
     .def = "none",
     .choices = prune_names,
     .help = "forward: after each queen every open row keeps a free column"},
    {.key = "strategy.kernel",
     .type = CS_OPT_ENUM,
     .def = "auto",
     .choices = kernel_names,
     .help = "count with the fast border-constellation kernel, the "
             "halves kernel (meet in the middle: totals only, no unique), "
             "or the generic engine; auto: with symmetry d4, halves from "
             "n = 16, else fast, where they apply (a count on the bitmask "
             "state, in-order, prune none, no node or solution limit, no "
             "trace), else generic"},
    {.key = "strategy.halves_memory",
     .type = CS_OPT_INT,
     .def = "6144",
     .min = 1,
     .max = 1048576,
     .help = "kernel halves: MiB the kernel may take, all threads "
             "together: part lists whole where they fit (else listed per "
             "split), pattern buffers up to 64 MiB a thread (a larger set "
             "is joined in blocks, listed again per block)"},
    {.key = NULL},
};

/* The kernels count over the plain bitmask tree (fast with d4); anything that
 * changes the tree, or needs to stop inside it, is the engine's. */
static const char *kernel_conflict(const struct cs_config *cfg,
                                   const struct cs_setup *how, bool d4)
{
    if (how->task != CS_TASK_COUNT)
        return "task count";
    if (how->limits.nodes || how->limits.solutions)
        return "no node or solution limit";
    if (cs_config_enum(cfg, "strategy.state") != NQ_STATE_BITMASK)
        return "state bitmask";
    if (how->select != CS_SELECT_IN_ORDER)
        return "select in-order";
    if (cs_config_enum(cfg, "strategy.prune") != NQ_PRUNE_NONE)
        return "prune none";
    if (d4 && cs_config_enum(cfg, "strategy.symmetry") != NQ_SYM_D4)
        return "symmetry d4";
    if (how->tracing)
        return "a run without traces (output.trace, trace_html, tree)";
    return NULL;
}

static void free_problem(void *data)
{
    struct nq_problem *p = data;
    if (p) {
        nq_d4_free(p->kernel);
        nq_halves_free(p->halves);
    }
    free(p);
}

static bool count_unit(const void *data, uint64_t unit,
                       volatile sig_atomic_t *stop, struct cs_stats *out)
{
    const struct nq_problem *p = data;
    return nq_d4_count_unit(p->kernel, unit, stop, out);
}

static bool profile_unit(const void *data, uint64_t unit,
                         volatile sig_atomic_t *stop, struct cs_stats *out,
                         struct cs_level *levels)
{
    const struct nq_problem *p = data;
    return nq_d4_profile_unit(p->kernel, unit, stop, out, levels);
}

static double unit_size(const void *data, uint64_t unit)
{
    const struct nq_problem *p = data;
    return nq_d4_unit_size(p->kernel, unit);
}

static bool halves_unit(const void *data, uint64_t unit,
                        volatile sig_atomic_t *stop, struct cs_stats *out)
{
    const struct nq_problem *p = data;
    return nq_halves_count_unit(p->halves, unit, stop, out);
}

static bool halves_profile(const void *data, uint64_t unit,
                           volatile sig_atomic_t *stop, struct cs_stats *out,
                           struct cs_level *levels)
{
    const struct nq_problem *p = data;
    return nq_halves_profile_unit(p->halves, unit, stop, out, levels);
}

static double halves_size(const void *data, uint64_t unit)
{
    const struct nq_problem *p = data;
    return nq_halves_unit_size(p->halves, unit);
}

/* The halves kernel counts totals whatever the symmetry key says, so only
 * the keys that change the tree or stop inside it rule it out. */
static const char *halves_conflict(const struct cs_config *cfg,
                                   const struct cs_setup *how)
{
    return kernel_conflict(cfg, how, false);
}

/* Local search: asked for, or under auto a solve where backtracking in
 * order would stall (n >= NQ_LOCAL_FROM) or cannot go (beyond the state's
 * limit).  A trace or a profile shows the tree, so it keeps the tree. */
static bool wants_local(const struct cs_setup *how, int n, int limit)
{
    if (how->local == CS_LOCAL_MIN_CONFLICTS)
        return true;
    if (how->local != CS_LOCAL_AUTO || how->task != CS_TASK_SOLVE ||
        how->tracing || how->profiling)
        return false;
    return n > limit ||
           (n >= NQ_LOCAL_FROM && how->select == CS_SELECT_IN_ORDER);
}

static int local_setup(const struct cs_config *cfg, int n,
                       struct cs_problem *out, struct cs_error *err)
{
    if (n == 2 || n == 3)
        return cs_error_at(err, cs_config_pos(cfg, "params.n"),
                           "n = %d has no solution: local search would never "
                           "end (strategy.local: none proves it)",
                           n);
    /* the state is allocated when the search starts, by a hook that cannot
     * fail: what it needs is tried now (an address-space limit, more than
     * the memory and swap), so a board too large is a config error */
    size_t bytes = nq_local_bytes((uint32_t)n);
    void *room = malloc(bytes);
    if (!room)
        return cs_error_at(err, cs_config_pos(cfg, "params.n"),
                           "n = %d needs %.1f GB for local search, more "
                           "than this process can allocate",
                           n, (double)bytes / 1e9);
    free(room);
    struct nq_problem *p = cs_xcalloc(1, sizeof *p);
    p->n = n;
    out->hooks = nq_local_hooks();
    out->data = p;
    out->free_data = free;
    out->nvars = n;
    out->state = "permutation";
    out->layers.local = true;
    /* steps per start: a generous multiple of what a run takes (about
     * the conflicts of the greedy start), so restarts are rare */
    out->layers.local_steps = 100000 + 20 * (uint64_t)n;
    out->layers.sample = 16;
    return 0;
}

static int nq_setup(const struct cs_config *cfg, const struct cs_setup *how,
                    struct cs_problem *out, struct cs_error *err)
{
    int formulation = nq_formulation_setup(cfg, how, out, err);
    if (formulation <= 0)
        return formulation; /* cell or brute force: formulations.c */
    int n = (int)cs_config_int(cfg, "params.n");
    bool mrv = how->select == CS_SELECT_MRV;
    int choice = cs_config_enum(cfg, "strategy.state");
    bool hashed = choice == NQ_STATE_SET;
    enum nq_state state = choice == NQ_STATE_ARRAY || hashed ? NQ_ARRAY
                          : mrv                              ? NQ_ABSOLUTE
                                                             : NQ_BITMASK;
    /* a count with nothing to test at the leaves runs on the slim state,
     * unless traced: the trace shows the queens, which it does not keep */
    if (state == NQ_BITMASK && how->task == CS_TASK_COUNT &&
        cs_config_enum(cfg, "strategy.symmetry") != NQ_SYM_D4 && !how->tracing)
        state = NQ_COUNT;
    int limit = state == NQ_ARRAY ? NQ_ARRAY_MAX : NQ_BITMASK_MAX;
    if (how->task == CS_TASK_SOLVE && wants_local(how, n, limit))
        return local_setup(cfg, n, out, err);
    if (n > limit && how->task == CS_TASK_SOLVE)
        return cs_error_at(err, cs_config_pos(cfg, "params.n"),
                           "n = %d is beyond the limit of the %s state "
                           "(at most %d); strategy.local: min-conflicts "
                           "solves up to %d",
                           n, state == NQ_ARRAY ? "array" : "bitmask", limit,
                           NQ_LOCAL_MAX);
    if (n > limit)
        return cs_error_at(err, cs_config_pos(cfg, "params.n"),
                           "n = %d is beyond the limit of the %s state "
                           "(at most %d)",
                           n, state == NQ_ARRAY ? "array" : "bitmask", limit);
    if (how->task == CS_TASK_COUNT && n > NQ_D4_MAX)
        return cs_error_at(err, cs_config_pos(cfg, "params.n"),
                           "counting n = %d could overflow 64-bit counts "
                           "(at most %d); task solve finds one solution up "
                           "to n = %d",
                           n, NQ_D4_MAX, NQ_LOCAL_MAX);
    enum nq_isa cap;
    bool capped;
    char isa_msg[160];
    if (nq_isa_env(&cap, &capped, isa_msg, sizeof isa_msg))
        return cs_error_set(err, NULL, "%s", isa_msg);
    int kernel = cs_config_enum(cfg, "strategy.kernel");
    const char *conflict = kernel_conflict(cfg, how, true);
    if (kernel == NQ_KERNEL_FAST && conflict)
        return cs_error_at(err, cs_config_pos(cfg, "strategy.kernel"),
                           "kernel fast needs %s", conflict);
    const char *halves_no = halves_conflict(cfg, how);
    if (kernel == NQ_KERNEL_HALVES && halves_no)
        return cs_error_at(err, cs_config_pos(cfg, "strategy.kernel"),
                           "kernel halves needs %s", halves_no);
    if (kernel == NQ_KERNEL_HALVES && n > NQ_HALVES_MAX)
        return cs_error_at(err, cs_config_pos(cfg, "params.n"),
                           "n = %d is beyond the halves kernel (n = %d..%d); "
                           "kernel fast counts up to n = %d",
                           n, NQ_HALVES_MIN, NQ_HALVES_MAX, NQ_D4_MAX);
    /* auto: where the fast kernel would run (symmetry d4), from the size
     * on which the halves kernel is quicker; it counts no unique.  Smaller
     * boards than it takes (n < 12) go to the others, as under auto. */
    bool halves =
        !halves_no && n >= NQ_HALVES_MIN && n <= NQ_HALVES_MAX &&
        (kernel == NQ_KERNEL_HALVES ||
         (kernel == NQ_KERNEL_AUTO && !conflict && n >= NQ_HALVES_AUTO));
    bool fast =
        !halves && kernel != NQ_KERNEL_GENERIC && !conflict && n >= NQ_D4_MIN;

    struct nq_problem *p = cs_xcalloc(1, sizeof *p);
    int symmetry = cs_config_enum(cfg, "strategy.symmetry");
    p->n = n;
    p->mirror = symmetry == NQ_SYM_MIRROR;
    p->d4 = symmetry == NQ_SYM_D4;
    p->forward = cs_config_enum(cfg, "strategy.prune") == NQ_PRUNE_FORWARD;
    p->hashed = hashed;
    out->hooks = nq_hooks(state, p);
    out->data = p;
    out->free_data = free_problem;
    out->nvars = n;
    out->reports_unique = p->d4;
    out->kernel = "generic"; /* baseline code: no isa to name */
    out->max_values = n; /* a row has at most n columns: orders can shuffle */
    if (fast) {
        /* small boards (n < 6) have no border constellations worth the
         * name: they stay with the generic search */
        p->kernel = cs_xcalloc(1, sizeof *p->kernel);
        nq_d4_init(p->kernel, n);
        /* a profile counts its levels on the scalar path (same tree) */
        if (how->profiling)
            p->kernel->lanes = false;
        out->isa_reason =
            how->profiling ? "profile" : nq_d4_choose(p->kernel, cap, capped);
        out->kernel = "fast";
        out->isa =
            nq_isa_name(p->kernel->lanes ? NQ_ISA_AVX512 : NQ_ISA_SCALAR);
        out->units = p->kernel->count;
        out->count_unit = count_unit;
        out->unit_size = unit_size;
        out->profile_unit = profile_unit;
        out->profile_rows = "queens on the board in the fast kernel's "
                            "tree: canonical borders (d4-reduced, 3 or 4 "
                            "queens) filled in row by row, solutions "
                            "weighted by orbit at n - 1";
    }
    if (halves) {
        p->halves = nq_halves_new(
            n, nq_match_isa(cap),
            (uint64_t)cs_config_int(cfg, "strategy.halves_memory"),
            (int)cs_config_int(cfg, "strategy.threads"));
        out->isa_reason = nq_halves_choose(p->halves, cap, capped);
        out->reports_unique = false;
        out->kernel = "halves";
        out->isa = nq_isa_name(p->halves->isa);
        out->units = p->halves->units;
        out->count_unit = halves_unit;
        out->unit_size = halves_size;
        out->profile_unit = halves_profile;
        out->profile_rows = "queens on the board in the halves kernel: "
                            "half placements listed at n / 2, matched "
                            "solutions (weighted by split orbit) at n";
        out->unit_measure = "work (the kernel's own measure, not nodes)";
    }
    return 0;
}

const struct cs_hooks *nq_hooks(enum nq_state state, const struct nq_problem *p)
{
    switch (state) {
    case NQ_ARRAY:
        return nq_array_hooks(p);
    case NQ_COUNT:
        return nq_count_hooks(p);
    case NQ_BITMASK:
        return nq_bitmask_hooks(p);
    case NQ_ABSOLUTE:
        return nq_absolute_hooks(p);
    }
    return NULL;
}

const struct cs_model cs_nqueens_model = {
    .abi_version = CS_ABI_VERSION,
    .name = "nqueens",
    .summary = "place n queens on an n x n board, none attacking another",
    .options = nq_options,
    .tasks = CS_TASK_BIT(CS_TASK_COUNT) | CS_TASK_BIT(CS_TASK_SOLVE) |
             CS_TASK_BIT(CS_TASK_ENUMERATE),
    .setup = nq_setup,
};
