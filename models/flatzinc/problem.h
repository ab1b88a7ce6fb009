/* problem.h - a FlatZinc file made ready to search: the frozen store, the
 * names and outputs, and the branching the solve item asks for.
 *
 * build.c makes it from the file as read (fzn.h); search.c is the hook
 * table that searches it; flatzinc.c is the csearch model around both.
 * The store here is never searched itself: each search state owns a clone.
 */
#ifndef FZN_PROBLEM_H
#define FZN_PROBLEM_H

#include "fzn.h"

/* How the next variable of a group is chosen (MiniZinc's names). */
#define FZN_VARSELS(X)                                                         \
    X(FZN_VAR_INPUT, "input_order")                                            \
    X(FZN_VAR_FIRST_FAIL, "first_fail")                                        \
    X(FZN_VAR_ANTI_FIRST_FAIL, "anti_first_fail")                              \
    X(FZN_VAR_SMALLEST, "smallest")                                            \
    X(FZN_VAR_LARGEST, "largest")                                              \
    X(FZN_VAR_DOM_W_DEG, "dom_w_deg")                                          \
    X(FZN_VAR_MOST_CONSTRAINED, "most_constrained")                            \
    X(FZN_VAR_OCCURRENCE, "occurrence")                                        \
    X(FZN_VAR_MAX_REGRET, "max_regret")

/* Which value a branch tries first, then the rest in that order. */
#define FZN_VALSELS(X)                                                         \
    X(FZN_VAL_MIN, "indomain_min")                                             \
    X(FZN_VAL_MAX, "indomain_max")                                             \
    X(FZN_VAL_MEDIAN, "indomain_median")                                       \
    X(FZN_VAL_MIDDLE, "indomain_middle")                                       \
    X(FZN_VAL_SPLIT, "indomain_split")                                         \
    X(FZN_VAL_REVERSE_SPLIT, "indomain_reverse_split")                         \
    X(FZN_VAL_RANDOM, "indomain_random")                                       \
    X(FZN_VAL_INDOMAIN, "indomain")

#define FZN_ENUM_CONSTANT(constant, name) constant,
enum fzn_varsel { FZN_VARSELS(FZN_ENUM_CONSTANT) FZN_VARSEL_COUNT };
enum fzn_valsel { FZN_VALSELS(FZN_ENUM_CONSTANT) FZN_VALSEL_COUNT };
#undef FZN_ENUM_CONSTANT

/* One int_search or bool_search: its variables in the order written. */
struct fzn_group {
    int *vars;
    int n;
    enum fzn_varsel varsel;
    enum fzn_valsel valsel;
};

/* An output item: `name = v;` for a variable, `name = arrayNd(...);` for
 * an array (dims ranges [lo, hi] from output_array). */
struct fzn_output {
    char *name;
    bool is_array, is_bool;
    int *vars;
    int n;
    int64_t *dims; /* 2 * ndims */
    int ndims;
};

struct fzn_problem {
    char *file;
    struct fzn_store *store; /* frozen, at level 0, never searched */
    char **names;            /* a name per store variable, for traces */
    bool *is_bool;           /* per store variable */
    struct fzn_output *outputs;
    size_t noutputs;
    /* the solve item's branching (groups, in order), then `rest`: every
     * other primary variable, the model's own before those MiniZinc
     * introduced, and those defined by a constraint last.  Primary: in a
     * group, the model's own, in the output or the objective.  With those
     * fixed, the secondary variables (the rest MiniZinc introduced) are
     * completed by a search of their own that stops at the first
     * completion, so that a solution is found once, not once per
     * completion. */
    struct fzn_group *groups;
    size_t ngroups;
    int *rest;
    int nrest;
    bool *primary; /* per store variable */
    int *secondary;
    int nsecondary;
    unsigned char *valsel; /* per store variable: its group's order */
    /* what a neighbourhood round keeps or frees: the groups' variables
     * (or, with none, the model's own) */
    int *decisions;
    int ndecisions;
    enum fzn_goal goal;
    int objective;      /* store variable, -1 when satisfying */
    int max_values;     /* the largest domain, if at most 4096; or 0 */
    bool free_search;   /* ignore the groups: dom/wdeg on everything */
    bool cut_by_cost;   /* task optimize: each solution tightens the
                           objective (never under count or enumerate) */
    bool has_start_cut; /* with cut_by_cost: every state starts with the */
    int64_t start_cut;  /* cut `cost < start_cut` (what an earlier search
                           of fzn-csearch's phases found, fzn_main.c) */
    /* what the builder met and left out, for --json and -v */
    uint64_t annotations_ignored;
};

/* Read and build the FlatZinc file at path ("-": standard input).  Returns
 * 0 with *out set, or -1 with err at FILE:LINE:COL:
 *   unknown constraint 'NAME'
 *   'NAME' expects N arguments, not M
 *   undefined identifier 'X'
 *   index I out of range for array 'A' of length N
 *   float variables are not supported (the MiniZinc Challenge has none)
 *   set variables are not supported (flatten with csearch's mznlib)
 *   value V is out of range (csearch's integers are within +-1073741823)
 * and the reader's errors (fzn.h). */
int fzn_problem_read(const char *path, struct fzn_problem **out,
                     struct cs_error *err);
int fzn_problem_build(const struct fzn_ast *ast, struct fzn_problem **out,
                      struct cs_error *err);
void fzn_problem_free(void *problem);

extern const char *const fzn_varsel_names[];
extern const char *const fzn_valsel_names[];

#endif
