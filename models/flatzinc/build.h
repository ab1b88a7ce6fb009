/* build.h - what the builder's files share (internal to the flatzinc
 * model): build.c resolves the declarations and posts the constraints,
 * solve.c turns the solve item into the search's groups and orders.
 */
#ifndef CSEARCH_FZN_BUILD_H
#define CSEARCH_FZN_BUILD_H

#include <uthash.h>

#include "problem.h"

/* A name as the builder knows it. */
struct sym {
    const char *name; /* the declaration's */
    enum { SYM_VALUE, SYM_SET, SYM_VAR, SYM_ARRAY, SYM_SET_ARRAY } kind;
    bool is_bool;
    int var;         /* SYM_VAR */
    int64_t value;   /* SYM_VALUE */
    int *vars;       /* SYM_ARRAY: a store variable each */
    int64_t *values; /* SYM_ARRAY of parameters: their values, else NULL */
    int n;
    const int64_t *ranges; /* SYM_SET, borrowed from the tree */
    size_t nranges;
    UT_hash_handle hh;
};

struct builder {
    const struct fzn_ast *ast;
    struct fzn_problem *p;
    struct sym *syms;
    /* per store variable: a name, and how the default order ranks it */
    char **names;
    unsigned char *rank; /* 0 the model's, 1 introduced, 2 defined */
    bool *is_bool;
    int cap;
    struct cs_error *err;
};

/* err at (line, col) of the file: fmt with a string and two integers;
 * returns -1. */
int build_fail_at(struct builder *b, int line, int col, const char *fmt,
                  const char *a, long long x, long long y);
#define FAIL(b, e, fmt, ...)                                                   \
    build_fail_at(b, (e)->line, (e)->col, fmt, __VA_ARGS__)

/* An argument: a scalar, an array literal, an array name or a set
 * (build.c); -1 with the builder's err. */
int build_argument(struct builder *b, const struct fzn_expr *e,
                   struct fzn_arg *a);

/* ---- the solve item (solve.c) ---- */

/* int_search(vars, varsel, valsel, strategy), bool_search likewise, and
 * seq_search([...]) of them, in order, become branching groups; others
 * are counted and left.  -1 with err on an unknown selection. */
int solve_annotation(struct builder *b, const struct fzn_expr *e, int depth);
/* The output's names on their variables, then the search's orders: the
 * variables after the groups, each one's value order, the decisions a
 * neighbourhood round keeps or frees. */
void solve_order(struct builder *b);

#endif
