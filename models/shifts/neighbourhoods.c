/* shifts/neighbourhoods.c - the relax hook: which part of the best roster
 * a neighbourhood round frees.
 *
 * The engine's rounds (framework/layers.h) pin everything else to the best
 * roster and search the freed cells by branch and bound; with the
 * Lagrangian bound the freed rows are re-priced (shf_lagrange_pin).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/random.h"
#include "shifts/search.h"

/* Neighbourhoods (the engine's rounds call relax with the incumbent):
 * everything is pinned to the best roster but a part, freed.  The kinds
 * strategy.neighbourhoods names take turns, round by round:
 *
 *   staff    lns_staff staff members at random over a window of lns_days;
 *   rows     lns_rows whole rows (staff instead when lns_rows is 0);
 *   cover    the cover line the roster misses by most weight (one of the
 *            three worst, at random): a window of lns_days around its day,
 *            for lns_staff of the staff who may work its shift;
 *   shift    one shift type at random: the lns_staff staff members who
 *            work it most in a window of lns_days.
 *
 * Staff are drawn with repeats (a repeat frees fewer).  With lns_grow the
 * engine's round size (0.1 at first, times 1.25 after a round that
 * searched its neighbourhood out, divided after one cut short) scales the
 * staff and the days by its square root each. */
static int scaled(int n, double factor, int most)
{
    double v = n * factor;
    int k = v < 1 ? 1 : v > most ? most : (int)(v + 0.5);
    return k;
}

/* The (day, shift) whose cover costs the best roster most: one of the
 * three worst, by r. */
static int worst_cover(const struct shf_problem *p, const signed char *b,
                       uint64_t r)
{
    int top[3] = {-1, -1, -1};
    int64_t cost[3] = {0, 0, 0};
    for (int d = 0; d < p->ndays; d++)
        for (int t = 0; t < p->nshifts; t++) {
            int k = d * p->nshifts + t, have = 0;
            for (int s = 0; s < p->nstaff; s++)
                have += b[shf_cell(p, s, d)] == t + 1;
            int64_t c = have < p->need[k]
                            ? (int64_t)(p->need[k] - have) * p->under[k]
                            : (int64_t)(have - p->need[k]) * p->over[k];
            for (int i = 0; i < 3; i++)
                if (c > cost[i]) {
                    for (int j = 2; j > i; j--)
                        top[j] = top[j - 1], cost[j] = cost[j - 1];
                    top[i] = k;
                    cost[i] = c;
                    break;
                }
        }
    int n = top[2] >= 0 ? 3 : top[1] >= 0 ? 2 : top[0] >= 0 ? 1 : 0;
    return n ? top[r % (uint64_t)n] : -1;
}

static bool may_work(const struct shf_problem *p, int s, int t)
{
    int skill = p->shift_skill[t];
    return p->max_count[s * p->nshifts + t] &&
           (skill < 0 || (p->skills[s] >> skill & 1));
}

void shf_relax(void *state, const void *best, const struct cs_round *cs_round)
{
    struct shf_state *st = state;
    const struct shf_problem *p = st->p;
    const uint64_t round = cs_round->index;
    st->in_round = true;
    if (p->pin)
        return; /* a roster given to check stays as given */
    const signed char *b = SHF_CAT(best, p->o_val, signed char);
    signed char *fix = SHF_AT(st, p->o_fix, signed char);
    size_t cells = (size_t)p->nstaff * (size_t)p->ndays;
    memcpy(fix, b, cells);
    uint64_t r = cs_random_mix(round);
    int kind = p->nb_kinds[round % (uint64_t)p->nb_count];
    if (kind == SHF_NB_ROWS && !p->lns_rows)
        kind = SHF_NB_STAFF;
    double grow = p->lns_grow ? sqrt(cs_round->size / 0.1) : 1;
    int days =
        kind == SHF_NB_ROWS ? p->ndays : scaled(p->lns_days, grow, p->ndays);
    int want = kind == SHF_NB_ROWS ? p->lns_rows
                                   : scaled(p->lns_staff, grow, p->nstaff);
    int nfree = want < p->nstaff ? want : p->nstaff;
    int first = (int)(r % (uint64_t)(p->ndays - days + 1));
    int k = kind == SHF_NB_COVER ? worst_cover(p, b, r) : -1;
    int t = kind == SHF_NB_SHIFT ? (int)(r % (uint64_t)p->nshifts)
            : k >= 0             ? k % p->nshifts
                                 : -1;
    if (k >= 0) { /* the window around the cover line's day */
        int d = k / p->nshifts - days / 2;
        first = d < 0 ? 0 : d + days > p->ndays ? p->ndays - days : d;
    }
    /* the candidates: everyone, or who may work shift t (cover), or who
     * works t most in the window (shift); nfree of them at random */
    int *pool = cs_xmalloc((size_t)p->nstaff * sizeof *pool);
    int npool = 0;
    for (int s = 0; s < p->nstaff; s++)
        if (t < 0 || kind == SHF_NB_SHIFT || may_work(p, s, t))
            pool[npool++] = s;
    if (kind == SHF_NB_SHIFT) { /* most shifts t in the window first */
        int *worked = cs_xcalloc((size_t)p->nstaff, sizeof *worked);
        for (int s = 0; s < p->nstaff; s++)
            for (int d = first; d < first + days; d++)
                worked[s] += b[shf_cell(p, s, d)] == t + 1;
        for (int i = 1; i < npool; i++) /* insertion sort, stable */
            for (int j = i; j > 0 && worked[pool[j]] > worked[pool[j - 1]];
                 j--) {
                int x = pool[j];
                pool[j] = pool[j - 1];
                pool[j - 1] = x;
            }
        free(worked);
        npool = nfree < npool ? nfree : npool;
    }
    for (int i = 0; i < nfree && npool; i++) {
        r = cs_random_mix(r);
        int s = pool[kind == SHF_NB_SHIFT ? i : (int)(r % (uint64_t)npool)];
        for (int d = first; d < first + days; d++)
            fix[shf_cell(p, s, d)] = -1;
    }
    free(pool);
    for (size_t c = 0; p->fixed && c < cells; c++)
        if (p->fixed[c] >= 0)
            fix[c] = p->fixed[c]; /* pinned, or before from_day */
    shf_recount(st);
    if (p->lagrange) {
        struct shf_pins pins = shf_pins_of(st);
        shf_lagrange_pin(p->lagrange, p, fix, &pins);
    }
}
