/* toy.h - the engine's own toy model for the engine's and the layers'
 * tests: binary strings of length L with no two adjacent 1s.  There are
 * F(L + 2) of them (Fibonacci, F(1) = F(2) = 1), and the search tree has no
 * dead ends, so nodes and fails can be derived by hand.  Optimising, its
 * cost is the number of 0s: at best floor(L / 2), by alternating.
 */
#ifndef CSEARCH_TEST_TOY_H
#define CSEARCH_TEST_TOY_H

#include "csearch/dfs.h"

struct toy_problem {
    int len;
    int max_ones;    /* prune: more ones than this is a dead end; 0 = off */
    bool need_one;   /* goal: at least one 1 */
    bool double_one; /* weight: a 1 at position 0 counts twice */
    bool zero_one;   /* weight: a 1 at position 0 counts nothing */
    int min_ones;    /* goal: at least this many 1s */
    bool weak_bound; /* bound: half the 0s set so far */
};

struct toy {
    struct cs_counters counters; /* the engine's */
    const struct toy_problem *p;
    int set, ones;
    signed char bit[]; /* -1 = open */
};

/* A toy search: its problem, spec and split, filled in by toy_run. */
struct toy_run {
    struct cs_problem problem;
    struct cs_spec spec;
    struct cs_split split;
};

/* The hooks, for tables of a test's own. */
void toy_init(void *state, const void *problem);
int toy_select(const void *state);
bool toy_next(void *state, int var, uint64_t *cursor, int *value);
void toy_apply(void *state, int var, int value);
void toy_undo(void *state, int var, int value);

/* Undo; copy by memcpy; copy by a hook of its own: the same model. */
extern const struct cs_hooks toy_hooks, toy_copy_hooks, toy_copy_hook_hooks;
/* With relax, restart and emit, and select taking the first open bit. */
extern const struct cs_hooks toy_layer_hooks;

/* F(k). */
uint64_t fib(int k);
/* Fill r for hooks on tp (the rest of spec and split zero). */
void toy_run(struct toy_run *r, const struct cs_hooks *hooks,
             const struct toy_problem *tp, enum cs_select sel,
             enum cs_task task);
/* Run r, which must not fail. */
struct cs_result run_toy(struct toy_run *r);
/* A count of tp with hooks and sel. */
struct cs_result search(const struct cs_hooks *hooks,
                        const struct toy_problem *tp, enum cs_select sel);

#endif
