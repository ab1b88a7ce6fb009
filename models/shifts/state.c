/* shifts/state.c - the search state: its layout, and init.
 *
 * A state is a struct shf_state and then its arrays, at the offsets
 * shf_layout() picks once per problem (each aligned to its type, the size
 * rounded up by cs_state_stride), so the engine copies and saves it as one
 * block.  The cover counters (able, open, day bounds) follow from the cells set
 * and pinned: shf_recount() makes them from scratch, apply and undo keep them.
 */
#include <string.h>

#include "shifts/search.h"

void shf_layout(struct shf_problem *p)
{
    size_t at = sizeof(struct shf_state), cells = (size_t)p->nstaff * p->ndays;
    size_t ns = (size_t)p->nstaff, nd = (size_t)p->ndays,
           nt = (size_t)p->nshifts;
#define FIELD(o, n, type)                                                      \
    do {                                                                       \
        at = (at + sizeof(type) - 1) / sizeof(type) * sizeof(type);            \
        p->o = at;                                                             \
        at += (n) * sizeof(type);                                              \
    } while (0)
    FIELD(o_daylb, nd, int64_t);
    FIELD(o_run, ns, int32_t);
    FIELD(o_minutes, ns, int32_t);
    FIELD(o_weekends, ns, int32_t);
    FIELD(o_pos, ns, int32_t);
    FIELD(o_count, ns * nt, int32_t);
    FIELD(o_have, nd * nt, int32_t);
    FIELD(o_open, nd, int32_t);
    FIELD(o_able, nd * nt, int32_t);
    FIELD(o_prev, cells, int32_t);
    FIELD(o_val, cells, signed char);
    FIELD(o_fix, cells, signed char);
    FIELD(o_tight, ns, signed char);
    FIELD(o_calm, ns, signed char);
    /* local moves: the cover lines short of staff, and where each is in
     * that list (-1: not short) */
    FIELD(o_short, nd * nt, int32_t);
    FIELD(o_short_at, nd * nt, int32_t);
    /* params.fairness: each contract group's sums (fair.c) */
    FIELD(o_fair, shf_fair_on(p) ? 4 * (size_t)p->fair.ngroups : 0, int64_t);
    /* strategy.bound lagrange: rows pinned whole (struct shf_pins) */
    size_t np = p->lagrange ? ns + 1 : 0;
    FIELD(o_pcover, np * nd * nt, int32_t);
    FIELD(o_preach, np * nd * nt, int32_t);
    FIELD(o_preq, np, int64_t);
    FIELD(o_prest, np, double);
    FIELD(o_plambda, np ? nd * nt : 0, double);
    FIELD(o_ptogo,
          p->lagrange ? shf_lagrange_round_size(p->lagrange, p->lagrange_slots)
                      : 0,
          double);
    FIELD(o_pslot, ns, int32_t);
    FIELD(o_pany, 1, int32_t);
    FIELD(o_pscratch, p->lagrange ? shf_lagrange_scratch(p) : 0, double);
    /* scratch for the look-ahead programs: two layers of states x weekends */
    {
        size_t kmax = 1, omax = 1;
        for (int s = 0; s < p->nstaff; s++) {
            size_t k = (size_t)p->max_cons[s] <= 2 * nd ? (size_t)p->max_cons[s]
                                                        : nd + 1;
            size_t mc = (size_t)p->min_cons[s] <= nd + 1
                            ? (size_t)p->min_cons[s]
                            : nd + 1;
            k = k > mc ? k : mc;
            size_t o = (size_t)p->min_off[s] <= nd + 1 ? (size_t)p->min_off[s]
                                                       : nd + 1;
            kmax = k > kmax ? k : kmax;
            omax = o > omax ? o : omax;
        }
        size_t states = 2 * kmax + omax + 1, weekends = (nd + 8) / 7 + 2;
        size_t by_days = 2 * states * weekends * sizeof(int32_t);
        size_t by_shift = 2 * (2 * kmax * nt + omax) * sizeof(int64_t);
        FIELD(o_dp, (by_days > by_shift ? by_days : by_shift) / 8 + 1, int64_t);
    }
#undef FIELD
    p->state_size = cs_state_stride(at);
}

void shf_recount(struct shf_state *st)
{
    const struct shf_problem *p = st->p;
    int32_t *ablen = SHF_AT(st, p->o_able, int32_t);
    int32_t *open = SHF_AT(st, p->o_open, int32_t);
    memset(ablen, 0, (size_t)p->ndays * (size_t)p->nshifts * sizeof *ablen);
    for (int d = 0; d < p->ndays; d++) {
        open[d] = 0;
        for (int s = 0; s < p->nstaff; s++) {
            bool any = false;
            for (int t = 0; t < p->nshifts; t++)
                if (shf_able(st, s, d, t + 1)) {
                    ablen[d * p->nshifts + t]++;
                    any = true;
                }
            open[d] += any;
        }
    }
    for (int d = 0; d < p->ndays; d++)
        shf_refresh_day(st, d);
}

void shf_init(void *state, const void *problem)
{
    struct shf_state *st = state;
    const struct shf_problem *p = problem;
    size_t cells = (size_t)p->nstaff * (size_t)p->ndays;
    st->p = p;
    st->last_staff = -1;
    memset(SHF_AT(st, p->o_val, signed char), -1, cells);
    if (p->pin || p->fixed)
        memcpy(SHF_AT(st, p->o_fix, signed char), p->pin ? p->pin : p->fixed,
               cells);
    else
        memset(SHF_AT(st, p->o_fix, signed char), -1, cells);
    if (p->reroster && p->reroster->clash[0])
        SHF_AT(st, p->o_fix, signed char)[0] = SHF_NO_VALUE;
    shf_recount(st);
}

const struct shf_problem *shf_state_problem(const void *state)
{
    return ((const struct shf_state *)state)->p;
}

const signed char *shf_state_roster(const void *state)
{
    const struct shf_state *st = state;
    return SHF_CAT(st, st->p->o_val, signed char);
}
