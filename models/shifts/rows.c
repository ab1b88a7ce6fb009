/* shifts/rows.c - strategy.bound lagrange: one staff member's cheapest rows.
 *
 * A row is a walk through states (struct shf_rowstate, search.h), one step
 * a day.  Every rule of the row but the per-shift limits is a rule of one
 * step, so the cheapest row from a state is a dynamic program over days
 * (togo).  Leaving the per-shift limits out lets in more rows, which only
 * lowers the bound (a limit of 0 is kept: such a shift is never offered).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "shifts/search.h"

/* The states a row of staff s can be in before each day, day by day from
 * the state before day 0 (which is state 0 of day 0). */
void shf_row_reachable(struct shf_lagrange *lg, const struct shf_problem *p,
                       int s)
{
    struct shf_rowspace *sp = &lg->space[s];
    unsigned char *seen = cs_xcalloc(sp->size, 1);
    size_t n = 1, cap = 1024;
    sp->first = cs_xcalloc((size_t)p->ndays + 2, sizeof *sp->first);
    sp->reach = cs_xmalloc(cap * sizeof *sp->reach);
    sp->at = cs_xmalloc(cap * sizeof *sp->at);
    sp->reach[0] = SHF_BEFORE_DAY0;
    sp->at[0] = 0;
    sp->first[1] = 1;
    for (int d = 0; d < p->ndays; d++) {
        memset(seen, 0, sp->size);
        for (size_t i = sp->first[d]; i < sp->first[d + 1]; i++)
            for (int v = 0; v <= p->nshifts; v++) {
                struct shf_rowstate to;
                if (!shf_row_step(lg, p, s, d, sp->reach[i], v, &to))
                    continue;
                size_t k = shf_row_index(sp, to);
                if (seen[k])
                    continue;
                seen[k] = 1;
                if (n == cap) {
                    cap *= 2;
                    sp->reach = cs_xrealloc(sp->reach, cap * sizeof *sp->reach);
                    sp->at = cs_xrealloc(sp->at, cap * sizeof *sp->at);
                }
                sp->reach[n] = to;
                sp->at[n++] = k;
            }
        sp->first[d + 2] = n;
    }
    free(seen);
}

/* What each value costs staff s on day d under prices lambda (with fix:
 * only the pinned value of a pinned cell, the others INFINITY). */
static void day_costs(const struct shf_lagrange *lg,
                      const struct shf_problem *p, const double *lambda, int s,
                      int d, const signed char *fix, double *cost)
{
    int pin = fix ? fix[shf_cell(p, s, d)] : -1;
    for (int v = 0; v <= p->nshifts; v++)
        cost[v] = pin < 0 || v == pin ? shf_value_cost(lg, p, lambda, s, d, v)
                                      : INFINITY;
}

/* The cheapest way on from state r on day d: its cost plus the rest from
 * the state it leads to (next: day d + 1's table; INFINITY: no way), and,
 * if asked, the value (-1: none) and that state. */
static inline double cheapest(const struct shf_lagrange *lg,
                              const struct shf_problem *p, int s, int d,
                              struct shf_rowstate r, const double *cost,
                              const double *next, int *arg,
                              struct shf_rowstate *to)
{
    const struct shf_rowspace *sp = &lg->space[s];
    double best = INFINITY;
    int best_v = -1;
    struct shf_rowstate best_to = r;
    for (int v = 0; v <= p->nshifts; v++) {
        struct shf_rowstate t;
        if (cost[v] == INFINITY || !shf_row_step(lg, p, s, d, r, v, &t))
            continue;
        double c = cost[v] + shf_step_extra(lg, p, s, d, r, v) +
                   next[shf_row_index(sp, t)];
        if (c < best) {
            best = c;
            best_v = v;
            best_to = t;
        }
    }
    if (arg) {
        *arg = best_v;
        *to = best_to;
    }
    return best;
}

/* The cheapest rest of staff s's row from every reachable state (the
 * others are never read) under prices lambda, into togo, from the last day
 * back; with fix, only the pinned value of a pinned cell. */
void shf_price_rows(const struct shf_lagrange *lg, const struct shf_problem *p,
                    const double *lambda, int s, const signed char *fix,
                    double *togo)
{
    const struct shf_rowspace *sp = &lg->space[s];
    double *end = togo + (size_t)p->ndays * sp->size;
    /* the end: a tracked row must have worked its least minutes; a priced
     * one has its multipliers' constant */
    for (size_t i = sp->first[p->ndays]; i < sp->first[p->ndays + 1]; i++)
        end[sp->at[i]] =
            lg->priced ? lg->row_const[s]
            : sp->reach[i].minutes * p->level_unit >= p->min_minutes[s]
                ? 0
                : INFINITY;
    for (int d = p->ndays - 1; d >= 0; d--) {
        double *here = togo + (size_t)d * sp->size, *next = here + sp->size;
        double cost[SHF_MAX_SHIFTS + 1];
        day_costs(lg, p, lambda, s, d, fix, cost);
        for (size_t i = sp->first[d]; i < sp->first[d + 1]; i++)
            here[sp->at[i]] =
                cheapest(lg, p, s, d, sp->reach[i], cost, next, NULL, NULL);
    }
}

/* Follow the cheapest row of staff s from day 0; add its cover to g, and
 * give its minutes and weekends worked. */
void shf_add_best_row(const struct shf_lagrange *lg,
                      const struct shf_problem *p, const double *lambda, int s,
                      double *g, int64_t *minutes, int *weekends)
{
    const struct shf_rowspace *sp = &lg->space[s];
    struct shf_rowstate r = SHF_BEFORE_DAY0;
    *minutes = 0;
    *weekends = 0;
    for (int d = 0; d < p->ndays; d++) {
        double cost[SHF_MAX_SHIFTS + 1];
        int v;
        struct shf_rowstate from = r;
        day_costs(lg, p, lambda, s, d, NULL, cost);
        cheapest(lg, p, s, d, r, cost, sp->togo + (size_t)(d + 1) * sp->size,
                 &v, &r);
        if (v < 0)
            return;
        *weekends += shf_new_weekend(p, d, from, v);
        if (v) {
            g[d * p->nshifts + v - 1] += 1;
            *minutes += p->minutes[v - 1];
        }
    }
}
