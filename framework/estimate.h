/* estimate.h - random probes of a tree (internal to libcsearch).
 *
 * A prober owns one state of a problem and walks it from the root (or from
 * a unit's prefix) to a leaf at random, through the hooks alone: the same
 * seed, the same walks.  estimate.c says why a probe's figures are unbiased
 * estimates of the nodes and the weighted solutions below its start.
 */
#ifndef CSEARCH_ESTIMATE_H
#define CSEARCH_ESTIMATE_H

#include "csearch/engine.h"

struct prober {
    const struct cs_problem *problem;
    enum cs_select select;
    uint64_t rng;
    void *state;
    bool fresh;  /* state holds an initialised state */
    int *values; /* the values of the level probed */
    uint64_t cap;
    uint64_t entered; /* nodes the probes entered */
    uint64_t checks;  /* the model's checks of finished probes */
};

/* What one probe says of the tree below its start. */
struct probe {
    double nodes;     /* sum over its levels of D_k (the start: 1) */
    double solutions; /* D times the branch weights at a solution, else 0 */
    bool solution;    /* it ended in a solution */
};

void probe_init(struct prober *pr, const struct cs_problem *p,
                enum cs_select select, uint64_t seed);
void probe_free(struct prober *pr);
/* One probe from a fresh state with the depth moves of prefix (pairs of
 * var, value; NULL with depth 0: the root) applied. */
struct probe probe_run(struct prober *pr, const int *prefix, int depth);

/* The mean of probes probes' node estimates from prefix: the estimated
 * size of the subtree below it (units.c sizes its units by it). */
double probe_size(struct prober *pr, const int *prefix, int depth, int probes);

/* Task estimate: spec->probes probes from the root (or fewer, stopped by
 * the time limit or *spec->stop), progress to split->on_progress (split
 * may be NULL).  Fills out->estimate, out->status and out->stats (nodes and
 * checks: the probes' own; solutions: probes that ended in one). */
int estimate_search(const struct cs_spec *spec, const struct cs_split *split,
                    struct cs_result *out);

#endif
