/* flatzinc.h - the FlatZinc model: csearch's hooks on a FlatZinc problem.
 *
 * cs_flatzinc_model reads params.file (a .fzn) and searches it as the
 * solve item says; fzn_hooks is its hook table (search.c).  A state is a
 * struct fzn_state followed by a value per store variable.
 */
#ifndef FZN_FLATZINC_H
#define FZN_FLATZINC_H

#include "csearch/model.h"
#include "problem.h"

struct fzn_state {
    struct cs_counters counters; /* checks: propagator runs */
    const struct fzn_problem *p;
    struct fzn_store *s; /* this state's own clone */
    int64_t cut;         /* under optimize: a solution must cost
                            less (INT64_MAX: none yet) */
    uint64_t seen;       /* propagations counted into checks */
    bool failed;
    int32_t sol[]; /* each variable's value at the last goal */
};

extern const struct cs_hooks fzn_hooks;
extern const struct cs_model cs_flatzinc_model;

#endif
