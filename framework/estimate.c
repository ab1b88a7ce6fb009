/* estimate.c - Knuth's estimate of a tree's size by random probes (task
 * estimate, and the sizes of a split count's units for honest progress).
 * A probe only applies moves, never undoes them: the state is initialised
 * afresh for every probe.  Everything random comes from the seed, so the
 * same seed gives the same estimate.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/random.h"
#include "engine_impl.h"
#include "estimate.h"

#define PROBE_CHECK 16 /* probes between two looks at the clock */

void probe_init(struct prober *pr, const struct cs_problem *p,
                enum cs_select select, uint64_t seed)
{
    memset(pr, 0, sizeof *pr);
    pr->problem = p;
    pr->select = select;
    pr->rng = seed;
    pr->state = cs_xcalloc(1, cs_problem_state_size(p));
}

void probe_free(struct prober *pr)
{
    const struct cs_hooks *h = pr->problem->hooks;
    if (pr->fresh && h->fini)
        h->fini(pr->state);
    free(pr->state);
    free(pr->values);
    memset(pr, 0, sizeof *pr);
}

/* A fresh state, with the moves of prefix (depth pairs) applied as the
 * engine's replay applies them. */
static void probe_start(struct prober *pr, const int *prefix, int depth)
{
    const struct cs_problem *p = pr->problem;
    const struct cs_hooks *h = p->hooks;
    if (pr->fresh && h->counters)
        pr->checks += ((struct cs_counters *)pr->state)->checks;
    if (pr->fresh && h->fini)
        h->fini(pr->state);
    memset(pr->state, 0, cs_problem_state_size(p));
    h->init(pr->state, p->data);
    pr->fresh = true;
    for (int k = 0; k < depth; k++) {
        if (h->prune)
            h->prune(pr->state);
        h->apply(pr->state, prefix[2 * k], prefix[2 * k + 1]);
    }
}

/* The values of var, into pr->values; how many. */
static uint64_t probe_values(struct prober *pr, int var)
{
    const struct cs_hooks *h = pr->problem->hooks;
    uint64_t cursor = 0, count = 0;
    int value;
    if (h->first)
        h->first(pr->state, var, &cursor);
    while (h->next(pr->state, var, &cursor, &value)) {
        if (count == pr->cap) {
            pr->cap = pr->cap ? 2 * pr->cap : 64;
            pr->values = cs_xrealloc(pr->values, pr->cap * sizeof *pr->values);
        }
        pr->values[count++] = value;
    }
    return count;
}

/* A probe walks from a node to a leaf through the model's hooks, taking one
 * value uniformly at random at each level.  With d_1, d_2, ... the numbers
 * of values met on the way, a node at depth k stands for D_k = d_1 * ... *
 * d_k nodes of the tree, so sum_k D_k is an unbiased estimate of the nodes
 * (the engine's: every child entered, pruned ones too) and, when the leaf is
 * a solution, D times the product of the branch weights one of the weighted
 * solutions (Knuth 1975). */
struct probe probe_run(struct prober *pr, const int *prefix, int depth)
{
    const struct cs_problem *p = pr->problem;
    const struct cs_hooks *h = p->hooks;
    struct probe out = {.nodes = 1};
    double paths = 1; /* D_k: the nodes this one stands for */
    uint64_t weight = 1;
    probe_start(pr, prefix, depth);
    for (;;) {
        pr->entered++;
        if (h->prune && h->prune(pr->state))
            break;
        int var = cs_choose(pr->select, h, pr->state, p->nvars);
        if (var == CS_NONE) {
            if (!h->goal || h->goal(pr->state)) {
                out.solutions = paths * (double)weight;
                out.solution = true;
            }
            break;
        }
        uint64_t d = probe_values(pr, var);
        if (!d)
            break;
        int value = pr->values[cs_random_below(&pr->rng, d)];
        if (h->weight)
            weight *= h->weight(pr->state, var, value);
        h->apply(pr->state, var, value);
        paths *= (double)d;
        out.nodes += paths;
    }
    return out;
}

double probe_size(struct prober *pr, const int *prefix, int depth, int probes)
{
    double sum = 0;
    for (int k = 0; k < probes; k++)
        sum += probe_run(pr, prefix, depth).nodes;
    return probes > 0 ? sum / probes : 0;
}

/* ---- task estimate ------------------------------------------------------- */

/* Running mean and sum of squared deviations (Welford): no cancellation
 * when the probes' values are huge and close. */
static void welford(double x, uint64_t k, double *mean, double *m2)
{
    double delta = x - *mean;
    *mean += delta / (double)k;
    *m2 += delta * (x - *mean);
}

static double std_error(double m2, uint64_t k)
{
    return k > 1 ? sqrt(m2 / (double)(k - 1) / (double)k) : 0.0;
}

/* The kernel's units, sized one by one (false: stopped). */
static bool size_kernel(const struct cs_spec *spec, struct cs_estimate *est)
{
    const struct cs_problem *p = spec->problem;
    double started = cs_now(), sum = 0;
    for (uint64_t i = 0; i < p->units; i++) {
        double size = p->unit_size(p->data, i);
        sum += size;
        if (size > est->largest_work) {
            est->largest_work = size;
            est->largest_unit = i;
        }
        if (i % 64 == 63 && ((spec->stop && *spec->stop) ||
                             (spec->limits.seconds > 0 &&
                              cs_now() - started >= spec->limits.seconds)))
            return false;
    }
    est->units = p->units;
    est->unit_work = sum;
    return true;
}

int estimate_search(const struct cs_spec *spec, const struct cs_split *split,
                    struct cs_result *out)
{
    struct prober pr;
    probe_init(&pr, spec->problem, spec->select, spec->seed);
    struct cs_estimate *est = &out->estimate;
    double started = cs_now(), shown = started;
    double m2_nodes = 0, m2_solutions = 0;
    uint64_t want = spec->probes ? spec->probes : CS_ESTIMATE_PROBES;
    cs_progress_fn on_progress = split ? split->on_progress : NULL;
    out->status = CS_COMPLETE;
    while (est->probes < want) {
        struct probe one = probe_run(&pr, NULL, 0);
        uint64_t k = ++est->probes;
        welford(one.nodes, k, &est->nodes, &m2_nodes);
        welford(one.solutions, k, &est->solutions, &m2_solutions);
        out->stats.solutions += one.solution;
        if (k % PROBE_CHECK && k != want)
            continue;
        if (spec->stop && *spec->stop) {
            out->status = CS_INTERRUPTED;
            break;
        }
        double now = cs_now();
        if (spec->limits.seconds > 0 && now - started >= spec->limits.seconds) {
            out->status = k < want ? CS_LIMIT : CS_COMPLETE;
            break;
        }
        if (on_progress && now - shown >= 0.25) {
            shown = now;
            struct cs_progress prog = {
                .elapsed = now - started, .probes = k, .probes_total = want};
            on_progress(split->progress_ud, &prog);
        }
    }
    if (on_progress) { /* once more at the end */
        struct cs_progress prog = {.elapsed = cs_now() - started,
                                   .probes = est->probes,
                                   .probes_total = want};
        on_progress(split->progress_ud, &prog);
    }
    if (out->status == CS_COMPLETE && spec->problem->count_unit &&
        spec->problem->unit_size && !size_kernel(spec, est))
        out->status = spec->stop && *spec->stop ? CS_INTERRUPTED : CS_LIMIT;
    est->nodes_error = std_error(m2_nodes, est->probes);
    est->solutions_error = std_error(m2_solutions, est->probes);
    out->stats.nodes = pr.entered;
    out->stats.fails = est->probes - out->stats.solutions;
    out->stats.checks = pr.checks;
    if (pr.fresh && spec->problem->hooks->counters)
        out->stats.checks += ((struct cs_counters *)pr.state)->checks;
    probe_free(&pr);
    return 0;
}
