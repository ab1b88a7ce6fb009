/* fzn.h - the FlatZinc model's own interface: the file as read, the
 * finite-domain store, propagators and how a constraint is posted.
 *
 * Three layers, each using only the ones above it:
 *   1. the reader (parse.c): FlatZinc text -> struct fzn_ast, every item
 *      with its line and column; nothing is resolved yet;
 *   2. the store (store.c): integer variables (Booleans are 0..1) with
 *      domains, a trail that fzn_pop() rolls back exactly, a queue of
 *      propagators run to a fixpoint;
 *   3. the propagators (prop_*.c), posted by name from the constraint
 *      table (post.c) with their arguments already resolved to store
 *      variables and constants (build.c).
 * Invariant every propagator keeps: once all its variables are fixed it
 * fails exactly when the constraint is violated, so a search that fixes
 * every variable and never fails has found a solution, whatever the
 * propagators' strength.
 */
#ifndef FZN_H
#define FZN_H

#include <stdbool.h>
#include <stddef.h>
#include <signal.h>
#include <stdint.h>

#include "csearch/error.h"

/* ---- 1. the file as read ------------------------------------------------ */

/* Values are 32-bit in the store; the reader keeps 64 bits so that the
 * builder can say which literal is out of range. */
#define FZN_INT_MIN (-1073741823) /* +-(2^30 - 1): sums of two stay 32-bit */
#define FZN_INT_MAX 1073741823

enum fzn_expr_kind {
    FZN_E_INT,    /* i */
    FZN_E_BOOL,   /* i: 0 or 1 */
    FZN_E_FLOAT,  /* f (read only to be refused with its position) */
    FZN_E_SET,    /* ranges: nranges sorted, disjoint [lo, hi] pairs */
    FZN_E_ID,     /* name */
    FZN_E_ACCESS, /* name[i] (1-based, as written) */
    FZN_E_ARRAY,  /* elems[n] */
    FZN_E_STRING, /* name holds the text, unescaped */
    FZN_E_CALL    /* annotation name(elems[n]) */
};

struct fzn_expr {
    enum fzn_expr_kind kind;
    int line, col;
    int64_t i;
    double f;
    char *name;
    struct fzn_expr *elems; /* ARRAY, CALL */
    size_t n;
    int64_t *ranges; /* SET: 2 * nranges values, lo then hi */
    size_t nranges;
};

enum fzn_type { FZN_T_INT, FZN_T_BOOL, FZN_T_SET, FZN_T_FLOAT };

/* A parameter or a variable, scalar or array:
 *   int: n = 3;                         par, no domain, init 3
 *   var 1..8: q :: output_var;          var, domain {1..8}
 *   array [1..2] of var int: a :: output_array([1..2]) = [x, y];
 * For a variable of a set type (var set of 1..3: s) is_var and type
 * FZN_T_SET: the builder refuses it.  A var whose domain was written as
 * `int` has no domain (ndomain 0). */
struct fzn_decl {
    char *name;
    int line, col;
    enum fzn_type type;
    bool is_var, is_array;
    int64_t array_len; /* from array [1..n]; 0 for a scalar */
    int64_t *domain;   /* ndomain [lo, hi] pairs, sorted, disjoint */
    size_t ndomain;
    struct fzn_expr *init; /* after '=', or NULL */
    struct fzn_expr *anns; /* annotations, each ID or CALL */
    size_t nanns;
};

struct fzn_constraint {
    char *name;
    int line, col;
    struct fzn_expr *args;
    size_t nargs;
    struct fzn_expr *anns;
    size_t nanns;
};

enum fzn_goal { FZN_SATISFY, FZN_MINIMIZE, FZN_MAXIMIZE };

struct fzn_ast {
    char *file;             /* the name positions carry */
    struct fzn_decl *decls; /* in file order */
    size_t ndecls;
    struct fzn_constraint *constraints;
    size_t nconstraints;
    enum fzn_goal goal;
    struct fzn_expr *objective;  /* MINIMIZE, MAXIMIZE: ID, ACCESS or
                                    INT */
    struct fzn_expr *solve_anns; /* the solve item's annotations */
    size_t nsolve_anns;
    int solve_line, solve_col;
};

/* Read len bytes of FlatZinc at text (no NUL needed), naming positions
 * `file`.  Returns 0 with *out set (free with fzn_ast_free), or -1 with
 * *out NULL and err at FILE:LINE:COL of the first problem:
 *   syntax error: expected X, found 'TOKEN'
 *   integer literal out of range
 *   nested deeper than 200 levels            (arrays, annotations)
 *   unterminated string
 *   missing solve item                       (at the end of the file)
 * Predicate declarations are skipped; a second solve item is an error. */
int fzn_parse(const char *file, const char *text, size_t len,
              struct fzn_ast **out, struct cs_error *err);
void fzn_ast_free(struct fzn_ast *ast);

/* ---- 2. the store ------------------------------------------------------- */

/* A domain: the values in [min, max] that its bit set holds.  A domain with
 * words 0 is the whole interval (a large domain: removing a value from its
 * inside is not recorded, a weaker but sound propagation); otherwise bit
 * (v - base) of the store's bits[off ...] says whether v can still be
 * taken, and bits outside [min, max] are ignored.  size counts the values. */
struct fzn_dom {
    int32_t min, max;
    uint32_t size;
    int32_t base;
    uint32_t words;
    uint32_t off;
};

/* One change the trail can undo: the domain's bounds and size before it,
 * and the bit-set word it changed (word -1: none). */
struct fzn_trail {
    int32_t var, word;
    int32_t min, max;
    uint32_t size;
    uint64_t bits;
};

struct fzn_prop;
struct fzn_store;
typedef bool (*fzn_run_fn)(struct fzn_store *s, struct fzn_prop *p);

/* What a change to a domain was: a value gone, a bound moved, the
 * variable fixed (a fix is all three; a bound moved is also a value gone). */
#define FZN_EV_DOM 1u
#define FZN_EV_BND 2u
#define FZN_EV_FIX 4u
#define FZN_EV_ANY (FZN_EV_DOM | FZN_EV_BND | FZN_EV_FIX)

/* A propagator: its variables (x) and constants (k) are copies it owns.
 * run() narrows domains with the fzn_set_* calls and returns false on a
 * failure (a domain wiped out, or the constraint violated).  It is woken
 * when a domain of one of its variables changes in a way its events name
 * (FZN_EV_ANY, fzn_post's default: every change; FZN_EV_FIX: only when
 * one is fixed, for a propagator that can do nothing before). */
struct fzn_prop {
    fzn_run_fn run;
    int *x;
    int nx;
    int64_t *k;
    int nk;
    int prio;        /* 0 cheap (binary), 1 linear, 2 global */
    unsigned events; /* FZN_EV_*: the changes that wake it */
    bool queued;
    bool entailed;    /* holds whatever follows, until the level that
                         found it is popped (fzn_entail) */
    uint32_t weight;  /* failures it caused (dom/wdeg), never trailed */
    void *aux;        /* scratch the propagator owns, freed with it;
                         never relied on across calls (not trailed) */
    const char *name; /* the constraint's name, for errors and traces */
};

#define FZN_PRIOS 3

struct fzn_store {
    int nvars;
    struct fzn_dom *dom;
    uint64_t *bits;
    size_t nbits_words;
    /* propagators, and for each variable those it wakes (CSR: the
     * indices of var v's are watch[watch_start[v] .. watch_start[v+1]),
     * those woken only by a fix from watch_fix[v] on) */
    struct fzn_prop *props;
    int nprops;
    int *watch_start, *watch, *watch_fix;
    /* the queue: a FIFO ring per priority */
    int *queue[FZN_PRIOS];
    int qhead[FZN_PRIOS], qlen[FZN_PRIOS];
    /* the trail, and where each open level began */
    struct fzn_trail *trail;
    size_t trail_len, trail_cap;
    size_t *level_start;
    int level, level_cap;
    /* the propagators entailed since the root, and where each level began */
    int *entailed;
    size_t nentailed, entailed_cap;
    size_t *level_entailed;
    bool failed;
    struct fzn_prop *culprit; /* the propagator that failed last */
    uint64_t propagations;    /* run() calls: the store's checks */
    uint64_t *failures;       /* per variable: the failures of the
                                 propagators watching it (dom/wdeg), never
                                 trailed; NULL until the first */
    /* building: capacities, the constant variables (value -> variable, a
     * uthash table store.c owns; NULL in a clone) */
    int vars_cap, props_cap;
    size_t bits_cap;
    void *consts;
    bool frozen;
    bool is_clone; /* props' x and k and the watch lists are the original's */
    /* A fixpoint can take long (bounds creeping over a huge domain), so
     * fzn_propagate looks at the clock and the stop flag now and then.
     * Past the deadline (0: none) or once *stop is set, it gives up: the
     * node fails and gave_up says the failure proves nothing.  The
     * deadline lies after the engine's own, so the engine's end of the run
     * (layer_run) sees its limit passed and claims no proof. */
    double deadline;
    volatile sig_atomic_t *stop;
    bool gave_up;
};

/* The largest span (max - min + 1) a domain keeps as a bit set. */
#define FZN_BITSET_LIMIT 4096

/* Building: variables first (fzn_new_var), then propagators (fzn_post),
 * then fzn_freeze, which lays out the watch lists and queues; after that
 * no variable or propagator may be added. */
struct fzn_store *fzn_store_new(void);
void fzn_store_free(struct fzn_store *s);
/* A new variable whose domain is the nranges sorted, disjoint [lo, hi]
 * pairs of ranges, within FZN_INT_MIN..FZN_INT_MAX; its index. */
int fzn_new_var(struct fzn_store *s, const int64_t *ranges, size_t nranges);
int fzn_new_const(struct fzn_store *s, int64_t value); /* shared per value */
/* A propagator on copies of x and k; returns it (to set aux). */
struct fzn_prop *fzn_post(struct fzn_store *s, const char *name, fzn_run_fn run,
                          int prio, const int *x, int nx, const int64_t *k,
                          int nk);
void fzn_freeze(struct fzn_store *s);
/* A copy of a frozen store at level 0 (each search state owns one): the
 * propagators' x and k arrays are shared with s (read-only after
 * fzn_freeze), everything that changes is the copy's own.  Free it with
 * fzn_store_free as any store. */
struct fzn_store *fzn_store_clone(const struct fzn_store *s);

/* Reading a domain. */
static inline int32_t fzn_min(const struct fzn_store *s, int x)
{
    return s->dom[x].min;
}
static inline int32_t fzn_max(const struct fzn_store *s, int x)
{
    return s->dom[x].max;
}
static inline uint32_t fzn_size(const struct fzn_store *s, int x)
{
    return s->dom[x].size;
}
static inline bool fzn_fixed(const struct fzn_store *s, int x)
{
    return s->dom[x].min == s->dom[x].max;
}
static inline int32_t fzn_value(const struct fzn_store *s, int x)
{
    return s->dom[x].min; /* of a fixed variable */
}
static inline bool fzn_is_bitset(const struct fzn_store *s, int x)
{
    return s->dom[x].words != 0; /* else an interval: holes not kept */
}
bool fzn_contains(const struct fzn_store *s, int x, int64_t v);
/* The smallest value of x above v (INT64_MAX: none), the largest below v
 * (INT64_MIN: none). */
int64_t fzn_next_above(const struct fzn_store *s, int x, int64_t v);
int64_t fzn_next_below(const struct fzn_store *s, int x, int64_t v);

/* Narrowing: each returns false, and sets s->failed, when the domain is
 * wiped out; true otherwise (changed or not).  Values may lie anywhere in
 * int64_t. */
bool fzn_set_min(struct fzn_store *s, int x, int64_t v);
bool fzn_set_max(struct fzn_store *s, int x, int64_t v);
bool fzn_fix(struct fzn_store *s, int x, int64_t v);
bool fzn_remove(struct fzn_store *s, int x, int64_t v);
/* Narrow x to the values of the nranges sorted, disjoint [lo, hi] pairs of
 * ranges.  On an interval domain that leaves holes this keeps the bounds
 * on values of ranges and, before fzn_freeze, posts a propagator that
 * keeps them there (so the holes are never taken). */
bool fzn_intersect(struct fzn_store *s, int x, const int64_t *ranges,
                   size_t nranges);
bool fzn_ranges_contain(const int64_t *ranges, size_t nranges, int64_t v);

/* Levels: fzn_push opens one, fzn_pop undoes every change since the
 * matching push (and clears failed). */
void fzn_push(struct fzn_store *s);
void fzn_pop(struct fzn_store *s);
/* Run the queued propagators to a fixpoint (or a failure: false). */
bool fzn_propagate(struct fzn_store *s);
/* p holds in every state below this one: it sleeps until the level that
 * found it is popped (a binary != once one side is fixed). */
void fzn_entail(struct fzn_store *s, struct fzn_prop *p);
/* Queue every propagator (the root's first propagation). */
void fzn_schedule_all(struct fzn_store *s);
/* Empty the queues, their propagators no longer queued (propagate.c; a
 * pop after a failure, and the end of a fixpoint). */
void fzn_queue_clear(struct fzn_store *s);

/* ---- 3. constraints ----------------------------------------------------- */

/* A constraint's argument, resolved: a scalar is an array of one.  Every
 * element has a store variable (a literal gets a constant variable); when
 * every element is known at build time (literals, parameters) fixed is
 * true and v holds the values.  A set literal or set parameter has set
 * true and its ranges (x and v then empty). */
struct fzn_arg {
    int n;
    int *x;
    int64_t *v;
    bool fixed;
    bool set;
    int64_t *ranges;
    size_t nranges;
};

/* Post the constraint `name` on its resolved arguments.  Returns 0, 1 when
 * the name is unknown, or -1 with err set (a wrong number or kind of
 * arguments: "'NAME' expects N arguments").  The builder positions err. */
typedef int (*fzn_post_fn)(struct fzn_store *s, const struct fzn_arg *a,
                           struct cs_error *err);
struct fzn_builtin {
    const char *name;
    int nargs;
    fzn_post_fn post;
};
/* The table of every constraint csearch posts, sorted by name. */
extern const struct fzn_builtin fzn_builtins[];
extern const size_t fzn_nbuiltins;
const struct fzn_builtin *fzn_builtin_find(const char *name);

/* The constraints, sorted by name (strcmp), each with the kinds of its
 * arguments, a letter each:
 *   v  a scalar, variable or constant     V  an array of those
 *   c  a constant scalar                  C  an array of constants
 *   S  a constant set
 * post.c checks the kinds (else "'NAME' expects argument I to be ...")
 * and then calls fzn_post_NAME, which the propagators' files define; a
 * post function checks what the kinds cannot say (equal lengths).  A
 * constraint violated at the root sets s->failed and still returns 0. */
#define FZN_BUILTINS(X)                                                        \
    X(array_bool_and, "Vv")                                                    \
    X(array_bool_element, "vCv")                                               \
    X(array_bool_or, "Vv")                                                     \
    X(array_bool_xor, "V")                                                     \
    X(array_int_element, "vCv")                                                \
    X(array_int_maximum, "vV")                                                 \
    X(array_int_minimum, "vV")                                                 \
    X(array_var_bool_element, "vVv")                                           \
    X(array_var_int_element, "vVv")                                            \
    X(bool2int, "vv")                                                          \
    X(bool_and, "vvv")                                                         \
    X(bool_clause, "VV")                                                       \
    X(bool_clause_reif, "VVv")                                                 \
    X(bool_eq, "vv")                                                           \
    X(bool_eq_reif, "vvv")                                                     \
    X(bool_le, "vv")                                                           \
    X(bool_le_reif, "vvv")                                                     \
    X(bool_lin_eq, "CVv")                                                      \
    X(bool_lin_le, "CVc")                                                      \
    X(bool_lt, "vv")                                                           \
    X(bool_lt_reif, "vvv")                                                     \
    X(bool_not, "vv")                                                          \
    X(bool_or, "vvv")                                                          \
    X(bool_xor, "vvv")                                                         \
    X(csearch_circuit, "Vc")                                                   \
    X(csearch_inverse, "VcVc")                                                 \
    X(fzn_all_different_int, "V")                                              \
    X(fzn_circuit, "V")                                                        \
    X(fzn_count_eq, "Vvv")                                                     \
    X(fzn_cumulative, "VVVv")                                                  \
    X(fzn_global_cardinality, "VCV")                                           \
    X(fzn_inverse, "VV")                                                       \
    X(fzn_lex_lesseq_int, "VV")                                                \
    X(fzn_table_int, "VC")                                                     \
    X(int_abs, "vv")                                                           \
    X(int_div, "vvv")                                                          \
    X(int_eq, "vv")                                                            \
    X(int_eq_reif, "vvv")                                                      \
    X(int_le, "vv")                                                            \
    X(int_le_reif, "vvv")                                                      \
    X(int_lin_eq, "CVc")                                                       \
    X(int_lin_eq_reif, "CVcv")                                                 \
    X(int_lin_le, "CVc")                                                       \
    X(int_lin_le_reif, "CVcv")                                                 \
    X(int_lin_ne, "CVc")                                                       \
    X(int_lin_ne_reif, "CVcv")                                                 \
    X(int_lt, "vv")                                                            \
    X(int_lt_reif, "vvv")                                                      \
    X(int_max, "vvv")                                                          \
    X(int_min, "vvv")                                                          \
    X(int_mod, "vvv")                                                          \
    X(int_ne, "vv")                                                            \
    X(int_ne_reif, "vvv")                                                      \
    X(int_plus, "vvv")                                                         \
    X(int_pow, "vvv")                                                          \
    X(int_times, "vvv")                                                        \
    X(set_in, "vS")                                                            \
    X(set_in_reif, "vSv")

#define FZN_DECLARE_POST(name, kinds)                                          \
    int fzn_post_##name(struct fzn_store *s, const struct fzn_arg *a,          \
                        struct cs_error *err);
FZN_BUILTINS(FZN_DECLARE_POST)
#undef FZN_DECLARE_POST

/* What the propagators share. */
static inline int64_t fzn_floor_div(int64_t a, int64_t b) /* b != 0 */
{
    int64_t q = a / b;
    return a % b != 0 && (a < 0) != (b < 0) ? q - 1 : q;
}
static inline int64_t fzn_ceil_div(int64_t a, int64_t b) /* b != 0 */
{
    int64_t q = a / b;
    return a % b != 0 && (a < 0) == (b < 0) ? q + 1 : q;
}
/* a != b: a value gone once the other side is fixed (prop_int.c). */
void fzn_post_ne(struct fzn_store *s, const char *name, int a, int b);
/* Whether a and b share a value (prop_int.c). */
bool fzn_intersects(const struct fzn_store *s, int a, int b);
/* a = b: bounds, and on bit sets the values (prop_int.c). */
bool fzn_eq_dom(struct fzn_store *s, int a, int b);
/* "'NAME' expects WHAT" into err; returns -1. */
int fzn_expects(struct cs_error *err, const char *name, const char *what);
/* A constraint found violated while posting: fails the store. */
int fzn_post_false(struct fzn_store *s);

/* sum a[i] * x[i] KIND c, or with r >= 0 the Boolean r <-> (that):
 * fixed variables are folded into c, a repeated variable's coefficients
 * added, and a constraint left with no variable (or one, unreified) is
 * decided or turned into bounds at once (prop_linear.c). */
enum fzn_lin_kind { FZN_LIN_EQ, FZN_LIN_LE, FZN_LIN_NE };
void fzn_post_linear(struct fzn_store *s, const char *name,
                     enum fzn_lin_kind kind, const int64_t *a, const int *x,
                     int n, int64_t c, int r);
/* r <-> (lit[0] or lit[1] or ...), lit[i] being x[i] when pos[i] and
 * not x[i] otherwise; r < 0: the clause alone (prop_bool.c). */
void fzn_post_or(struct fzn_store *s, const char *name, const int *x,
                 const bool *pos, int n, int r, bool rpos);
/* all_different on x (prop_alldiff.c), posted by the globals that imply it. */
void fzn_post_alldiff(struct fzn_store *s, const char *name, const int *x,
                      int n);

#endif
