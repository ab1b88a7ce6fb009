/* shifts.c - rostering on the engine: staff-day cells are the variables.
 *
 * Cells are assigned in a fixed order, day by day (every staff member's day
 * 0, then day 1, ...) or staff by staff, so each staff member's row fills
 * from left to right.  That makes every hard rule a check of the one new
 * cell against counters kept per staff member (shifts of each type, minutes,
 * weekends, the current run of worked or free days), with no re-check of
 * the row: first() offers only the values that keep every rule, prune()
 * looks ahead at whether the minimum minutes can still be reached.  Per day
 * and shift the state keeps the cover assigned and the staff still able to
 * take it; from those, a lower bound on the day's cover penalty that is
 * exact once the day is full.  bound() = request penalties so far + the sum
 * of the day bounds; cost() is the same number on a full roster.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/dfs.h"
#include "csearch/job.h"
#include "shifts/shifts.h"

struct shf_state {
    const struct shf_problem *p;
    uint64_t checks;
    int64_t requests; /* request penalties of the cells set */
    int64_t cover;    /* sum of the day bounds */
    int depth;        /* cells set */
    int last_staff;   /* whose cell was set last, for prune */
};

#define AT(s, off, type) ((type *)((char *)(s) + (off)))
#define CAT(s, off, type) ((const type *)((const char *)(s) + (off)))

static void layout(struct shf_problem *p)
{
    size_t at = sizeof(struct shf_state), cells = (size_t)p->nstaff * p->ndays;
    size_t ns = (size_t)p->nstaff, nd = (size_t)p->ndays,
           nt = (size_t)p->nshifts;
#define FIELD(o, n, type)                                                     \
    do {                                                                      \
        at = (at + sizeof(type) - 1) / sizeof(type) * sizeof(type);           \
        p->o = at;                                                            \
        at += (n) * sizeof(type);                                             \
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
    /* scratch for max_days_left: two layers of states x weekends */
    {
        size_t kmax = 1, omax = 1;
        for (int s = 0; s < p->nstaff; s++) {
            size_t k = (size_t)p->max_cons[s] <= 2 * nd ? (size_t)p->max_cons[s]
                                                         : nd + 1;
            size_t mc = (size_t)p->min_cons[s] <= nd + 1 ? (size_t)p->min_cons[s]
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
        FIELD(o_dp, (by_days > by_shift ? by_days : by_shift) / 8 + 1,
              int64_t);
    }
#undef FIELD
    p->state_size = cs_state_stride(at);
}

/* The cell a variable stands for. */
static void var_cell(const struct shf_problem *p, int var, int *s, int *d)
{
    if (p->by_staff) {
        *s = var / p->ndays;
        *d = var % p->ndays;
    } else {
        *d = var / p->nstaff;
        *s = var % p->nstaff;
    }
}

/* May staff s take value v (0 off) on day d, rules of the row aside? */
static bool able(const struct shf_state *st, int s, int d, int v)
{
    const struct shf_problem *p = st->p;
    int c = shf_cell(p, s, d), fix = CAT(st, p->o_fix, signed char)[c];
    if (fix >= 0)
        return v == fix;
    if (!v)
        return true;
    if (p->day_off[c])
        return false;
    int skill = p->shift_skill[v - 1];
    return skill < 0 || (p->skills[s] >> skill & 1);
}

/* The run field: length of the current run of worked or free days, and
 * whether it began on day 0 (such runs are exempt from the minimums). */
#define RUN_FROM0 (1 << 30)

/* a row is tight (work first) with less room than this many shifts */
#define SHF_SLACK 8

static int64_t day_bound(const struct shf_state *st, int d)
{
    const struct shf_problem *p = st->p;
    const int32_t *have = CAT(st, p->o_have, int32_t) + d * p->nshifts;
    const int32_t *ablen = CAT(st, p->o_able, int32_t) + d * p->nshifts;
    const int *need = p->need + d * p->nshifts;
    const int *under = p->under + d * p->nshifts;
    const int *over = p->over + d * p->nshifts;
    int64_t over_cost = 0, short_cost = 0;
    int64_t missing = 0;
    for (int t = 0; t < p->nshifts; t++) {
        int lack = need[t] - have[t];
        if (lack < 0)
            over_cost += (int64_t)-lack * over[t];
        else if (lack > 0) {
            missing += lack;
            if (lack > ablen[t])
                short_cost += (int64_t)(lack - ablen[t]) * under[t];
        }
    }
    /* each staff member still free to work covers one shift at most */
    int64_t open = CAT(st, p->o_open, int32_t)[d];
    int64_t pooled = missing > open ? (missing - open) * p->min_under[d] : 0;
    return over_cost + (short_cost > pooled ? short_cost : pooled);
}

static void refresh_day(struct shf_state *st, int d)
{
    int64_t *lb = AT(st, st->p->o_daylb, int64_t) + d;
    int64_t now = day_bound(st, d);
    st->cover += now - *lb;
    *lb = now;
}

/* Cover counters from scratch: after init and after relax pins cells. */
static void recount(struct shf_state *st)
{
    const struct shf_problem *p = st->p;
    int32_t *ablen = AT(st, p->o_able, int32_t);
    int32_t *open = AT(st, p->o_open, int32_t);
    memset(ablen, 0, (size_t)p->ndays * (size_t)p->nshifts * sizeof *ablen);
    for (int d = 0; d < p->ndays; d++) {
        open[d] = 0;
        for (int s = 0; s < p->nstaff; s++) {
            bool any = false;
            for (int t = 0; t < p->nshifts; t++)
                if (able(st, s, d, t + 1)) {
                    ablen[d * p->nshifts + t]++;
                    any = true;
                }
            open[d] += any;
        }
    }
    for (int d = 0; d < p->ndays; d++)
        refresh_day(st, d);
}

static void shf_init(void *state, const void *problem)
{
    struct shf_state *st = state;
    const struct shf_problem *p = problem;
    size_t cells = (size_t)p->nstaff * (size_t)p->ndays;
    st->p = p;
    st->last_staff = -1;
    memset(AT(st, p->o_val, signed char), -1, cells);
    if (p->pin)
        memcpy(AT(st, p->o_fix, signed char), p->pin, cells);
    else
        memset(AT(st, p->o_fix, signed char), -1, cells);
    recount(st);
}

static int shf_select(const void *state)
{
    const struct shf_state *st = state;
    return st->depth < st->p->nstaff * st->p->ndays ? st->depth : CS_NONE;
}

/* Does value v on day d keep staff s's rules, given the row so far? */
static bool legal(const struct shf_state *st, int s, int d, int v)
{
    const struct shf_problem *p = st->p;
    if (!able(st, s, d, v))
        return false;
    const signed char *val = CAT(st, p->o_val, signed char);
    int run = CAT(st, p->o_run, int32_t)[s];
    int len = run & ~RUN_FROM0;
    bool from0 = run & RUN_FROM0;
    int prev = d > 0 ? val[shf_cell(p, s, d - 1)] : -1;
    int minutes = CAT(st, p->o_minutes, int32_t)[s];
    if (!v) {
        /* a worked run may end only once long enough (or from day 0) */
        return !(prev > 0 && !from0 && len < p->min_cons[s]) &&
               (d < p->ndays - 1 || minutes >= p->min_minutes[s]);
    }
    int t = v - 1;
    if (prev > 0 && ((p->no_next[prev - 1] >> t & 1) || len >= p->max_cons[s]))
        return false;
    if (prev == 0 && !from0 && len < p->min_off[s])
        return false;
    if (CAT(st, p->o_count, int32_t)[s * p->nshifts + t] >=
        p->max_count[s * p->nshifts + t])
        return false;
    minutes += p->minutes[t];
    if (minutes > p->max_minutes[s] ||
        (d == p->ndays - 1 && minutes < p->min_minutes[s]))
        return false;
    if (shf_weekend_day(p, d) && !((p->weekday0 + d) % 7 == 6 && prev > 0) &&
        CAT(st, p->o_weekends, int32_t)[s] >= p->max_weekends[s])
        return false;
    for (int k = p->partner_start[s]; k < p->partner_start[s + 1]; k++)
        if (val[shf_cell(p, p->partners[k], d)] == v)
            return false;
    return true;
}

static void shf_first(void *state, int var, uint64_t *cursor)
{
    struct shf_state *st = state;
    int s, d;
    var_cell(st->p, var, &s, &d);
    uint64_t legal_values = 0;
    for (int v = 0; v <= st->p->nshifts; v++)
        if (legal(st, s, d, v))
            legal_values |= UINT64_C(1) << v;
    st->checks += (uint64_t)st->p->nshifts + 1;
    *cursor = legal_values;
}

/* What value v costs at once: its requests, and cover short (a gain) or
 * over.  Values are tried cheapest first. */
static int64_t score(const struct shf_state *st, int s, int d, int v)
{
    const struct shf_problem *p = st->p;
    int64_t cost = p->req_cost[(size_t)shf_cell(p, s, d) * (p->nshifts + 1) +
                               v];
    if (!v && CAT(st, p->o_tight, signed char)[s])
        return INT64_MAX; /* short of minutes: a day off comes last */
    if (v) {
        /* a calm row (restarting_search) sees the cover as if it were
         * rostered alone */
        int k = d * p->nshifts + v - 1;
        int have = CAT(st, p->o_calm, signed char)[s]
                       ? 0
                       : CAT(st, p->o_have, int32_t)[k];
        cost += have < p->need[k] ? -p->under[k] : p->over[k];
    }
    return cost;
}

static struct shf_pins pins_of(const struct shf_state *st)
{
    const struct shf_problem *p = st->p;
    void *base = (void *)st; /* bound() reads them, relax() writes them */
    return (struct shf_pins){AT(base, p->o_pcover, int32_t),
                             AT(base, p->o_preach, int32_t),
                             AT(base, p->o_preq, int64_t),
                             AT(base, p->o_prest, double),
                             AT(base, p->o_plambda, double),
                             AT(base, p->o_ptogo, double),
                             AT(base, p->o_pslot, int32_t),
                             p->lagrange_slots,
                             AT(base, p->o_pany, int32_t),
                             AT(base, p->o_pscratch, void)};
}

/* strategy.bound lagrange: the value whose best priced row is cheapest
 * (cells go staff by staff, so days 0..d-1 of the row are set), under the
 * set-up prices also in a round: the round's prices see only the cover the
 * pinned rows give and order the rows worse (Instances 5 and 7, 10 s:
 * 1351 and 1284 against 1650 and 1377). */
static int priced_next(struct shf_state *st, int s, int d, uint64_t cursor)
{
    const struct shf_problem *p = st->p;
    struct shf_pins pins = pins_of(st);
    int best = __builtin_ctzll(cursor);
    double best_cost = INFINITY;
    for (uint64_t m = cursor; m; m &= m - 1) {
        int v = __builtin_ctzll(m);
        double c = shf_lagrange_try(p->lagrange, p, &pins, s, d, v);
        if (c < best_cost) {
            best = v;
            best_cost = c;
        }
    }
    return best;
}

static bool shf_next(void *state, int var, uint64_t *cursor, int *value)
{
    struct shf_state *st = state;
    if (!*cursor)
        return false;
    int s, d, best = -1;
    int64_t best_score = 0;
    var_cell(st->p, var, &s, &d);
    if (st->p->lagrange) {
        *value = priced_next(st, s, d, *cursor);
        *cursor &= ~(UINT64_C(1) << *value);
        return true;
    }
    for (uint64_t m = *cursor; m; m &= m - 1) {
        int v = __builtin_ctzll(m);
        int64_t sc = score(st, s, d, v);
        if (best < 0 || sc < best_score) {
            best = v;
            best_score = sc;
        }
    }
    *cursor &= ~(UINT64_C(1) << best);
    *value = best;
    return true;
}

/* Add (+1) or take back (-1) value v of cell (s, d) in every counter. */
static void count_cell(struct shf_state *st, int s, int d, int v, int sign)
{
    const struct shf_problem *p = st->p;
    int c = shf_cell(p, s, d);
    int32_t *ablen = AT(st, p->o_able, int32_t) + d * p->nshifts;
    bool any = false;
    for (int t = 0; t < p->nshifts; t++)
        if (able(st, s, d, t + 1)) {
            ablen[t] -= sign;
            any = true;
        }
    AT(st, p->o_open, int32_t)[d] -= sign * any;
    st->requests += sign * p->req_cost[(size_t)c * (p->nshifts + 1) + v];
    if (v) {
        const signed char *val = CAT(st, p->o_val, signed char);
        AT(st, p->o_have, int32_t)[d * p->nshifts + v - 1] += sign;
        AT(st, p->o_count, int32_t)[s * p->nshifts + v - 1] += sign;
        AT(st, p->o_minutes, int32_t)[s] += sign * p->minutes[v - 1];
        if (shf_weekend_day(p, d) &&
            !((p->weekday0 + d) % 7 == 6 && d > 0 &&
              val[shf_cell(p, s, d - 1)] > 0))
            AT(st, p->o_weekends, int32_t)[s] += sign;
    }
    refresh_day(st, d);
}

static void shf_apply(void *state, int var, int v)
{
    struct shf_state *st = state;
    const struct shf_problem *p = st->p;
    int s, d;
    var_cell(p, var, &s, &d);
    int c = shf_cell(p, s, d);
    signed char *val = AT(st, p->o_val, signed char);
    int32_t *run = AT(st, p->o_run, int32_t) + s;
    AT(st, p->o_prev, int32_t)[c] = *run;
    if (d == 0)
        *run = 1 | RUN_FROM0;
    else if ((val[c - 1] > 0) == (v > 0))
        (*run)++;
    else
        *run = 1;
    count_cell(st, s, d, v, +1);
    val[c] = (signed char)v;
    AT(st, p->o_pos, int32_t)[s] = d + 1;
    st->depth++;
    st->last_staff = s;
}

static void shf_undo(void *state, int var, int v)
{
    struct shf_state *st = state;
    const struct shf_problem *p = st->p;
    int s, d;
    var_cell(p, var, &s, &d);
    int c = shf_cell(p, s, d);
    AT(st, p->o_val, signed char)[c] = -1;
    count_cell(st, s, d, v, -1);
    AT(st, p->o_run, int32_t)[s] = AT(st, p->o_prev, int32_t)[c];
    AT(st, p->o_pos, int32_t)[s] = d;
    st->depth--;
    st->last_staff = -1;
}

/* Where staff s's row stands before day `from` (>= 1), as the look-ahead
 * dynamic programs below see it: the run so far, and how far run lengths
 * need telling apart (kcap worked, ocap free; with no room to reach
 * max_cons, lengths from min_cons on are alike). */
struct row {
    int left, len, last, kcap, mcons, ocap;
    bool from0, capped;
};

static struct row row_at(const struct shf_state *st, int s, int from)
{
    const struct shf_problem *p = st->p;
    struct row r;
    int run = CAT(st, p->o_run, int32_t)[s];
    r.left = p->ndays - from;
    r.len = run & ~RUN_FROM0;
    r.from0 = run & RUN_FROM0;
    r.last = CAT(st, p->o_val, signed char)[shf_cell(p, s, from - 1)];
    r.capped = p->max_cons[s] <= r.len + r.left;
    r.kcap = r.capped                       ? p->max_cons[s]
             : p->min_cons[s] < r.left + 1 ? p->min_cons[s]
                                           : r.left + 1;
    if (r.kcap < 1)
        r.kcap = 1;
    r.mcons = p->min_cons[s] < r.kcap ? p->min_cons[s] : r.kcap;
    r.ocap = p->min_off[s] < r.left + 1 ? p->min_off[s] : r.left + 1;
    if (r.ocap < 1)
        r.ocap = 1;
    return r;
}

/* The most days staff s can still work from day `from` on (from >= 1),
 * by dynamic programming over the rules of runs and weekends: fixed days
 * off, at most max_cons worked days in a row, a worked run ends only after
 * min_cons days (or if it began on day 0), a free run lasts min_off days (or
 * ends the horizon), at most max_weekends weekends.  Shift counts and
 * rotation are left out, so it is an upper bound.  A state is a run and the
 * weekends still allowed: w[k] a worked run of length k, e[k] the same for
 * the exempt run that began on day 0, o[j] a free run of length j (j = ocap:
 * long enough).  -1: the row cannot be finished at all. */
static int max_days_left(struct shf_state *st, int s, int from)
{
    const struct shf_problem *p = st->p;
    struct row r = row_at(st, s, from);
    const int left = r.left, len = r.len, kcap = r.kcap, mcons = r.mcons,
              ocap = r.ocap, max_cons = p->max_cons[s];
    const bool from0 = r.from0, capped = r.capped, working = r.last > 0;
    /* weekends still allowed, no more than there are left */
    int wk = p->max_weekends[s] - CAT(st, p->o_weekends, int32_t)[s];
    int wk_ahead = (left + 8) / 7 + 1;
    if (wk > wk_ahead)
        wk = wk_ahead;
    if (wk < 0)
        wk = 0;
    /* states: 1..kcap worked (W), kcap+1..2kcap exempt (E), then free (O) */
    int n = 2 * kcap + ocap + 1, span = n * (wk + 1);
    int *cur = AT(st, p->o_dp, int32_t), *nxt = cur + span;
    const int E = kcap, O = 2 * kcap;
    for (int i = 0; i < span; i++)
        cur[i] = -1;
    int k0 = len < kcap ? len : kcap;
    int start = working && from0 ? E + k0
                : working        ? k0
                                 : O + (from0 || len >= ocap ? ocap : len);
    cur[wk * n + start] = 0;
    for (int d = from; d < p->ndays; d++) {
        bool may_work = !p->day_off[shf_cell(p, s, d)];
        int wday = (p->weekday0 + d) % 7;
        for (int i = 0; i < span; i++)
            nxt[i] = -1;
#define BEST(w, i, v)                                                             do {                                                                              int *slot_ = &nxt[(w) * n + (i)];                                             if ((v) > *slot_)                                                                 *slot_ = (v);                                                         } while (0)
        for (int w = 0; w <= wk; w++) {
            const int *c = cur + w * n;
            for (int i = 1; i < n; i++) {
                int v = c[i];
                if (v < 0)
                    continue;
                bool worked = i <= 2 * kcap;
                /* working a Saturday, or a Sunday after a free Saturday
                 * (yesterday's state says), opens a weekend */
                int cost = wday == 5 ? 1 : wday == 6 ? !worked : 0;
                bool can_work = may_work && w >= cost;
                if (worked) {
                    int k = i <= kcap ? i : i - E, base = i <= kcap ? 0 : E;
                    bool exempt = i > kcap;
                    if (can_work && (!capped || k < max_cons))
                        BEST(w - cost, base + (k < kcap ? k + 1 : kcap),
                             v + 1);
                    if (exempt || k >= mcons)
                        BEST(w, O + (1 < ocap ? 1 : ocap), v);
                } else {
                    int j = i - O;
                    BEST(w, O + (j < ocap ? j + 1 : ocap), v);
                    if (can_work && j == ocap)
                        BEST(w - cost, 1, v + 1);
                }
            }
        }
#undef BEST
        int *t = cur;
        cur = nxt;
        nxt = t;
    }
    int best = -1;
    for (int i = 0; i < span; i++)
        best = cur[i] > best ? cur[i] : best;
    return best;
}

/* The most minutes staff s can still add from day `from` on, by dynamic
 * programming over runs and rotation: a state is the current run and, when
 * working, the last shift; shifts whose limit is used up are left out,
 * weekends and the other limits are not (an upper bound again).  Run only
 * when the cheaper bounds leave little room.  -1: no way to finish. */
static int64_t max_minutes_left(struct shf_state *st, int s, int from)
{
    const struct shf_problem *p = st->p;
    struct row r = row_at(st, s, from);
    const int T = p->nshifts, len = r.len, kcap = r.kcap, mcons = r.mcons,
              ocap = r.ocap, max_cons = p->max_cons[s], last = r.last;
    const bool from0 = r.from0, capped = r.capped;
    /* worked states (k, t, exempt) at ((x * kcap + k - 1) * T + t), then
     * free states j at 2 * kcap * T + j - 1 */
    const int O = 2 * kcap * T, n = O + ocap;
    int64_t *cur = AT(st, p->o_dp, int64_t), *nxt = cur + n;
    uint64_t usable = 0;
    const int32_t *count = CAT(st, p->o_count, int32_t) + s * T;
    for (int t = 0; t < T; t++) {
        int skill = p->shift_skill[t];
        if (count[t] < p->max_count[s * T + t] &&
            (skill < 0 || (p->skills[s] >> skill & 1)))
            usable |= UINT64_C(1) << t;
    }
    for (int i = 0; i < n; i++)
        cur[i] = -1;
    int k0 = len < kcap ? len : kcap;
    if (last > 0)
        cur[((from0 ? kcap : 0) + k0 - 1) * T + last - 1] = 0;
    else
        cur[O + (from0 || len >= ocap ? ocap : len) - 1] = 0;
    for (int d = from; d < p->ndays; d++) {
        bool may_work = !p->day_off[shf_cell(p, s, d)];
        for (int i = 0; i < n; i++)
            nxt[i] = -1;
#define BEST(i, v)                                                                do {                                                                              if ((v) > nxt[i])                                                                 nxt[i] = (v);                                                         } while (0)
        for (int x = 0; x < 2; x++)
            for (int k = 1; k <= kcap; k++) {
                int nk = k < kcap ? k + 1 : kcap;
                bool more = may_work && (!capped || k < max_cons);
                for (int t = 0; t < T; t++) {
                    int64_t v = cur[((x * kcap) + k - 1) * T + t];
                    if (v < 0)
                        continue;
                    if (x || k >= mcons)
                        BEST(O + (1 < ocap ? 1 : ocap) - 1, v);
                    if (!more)
                        continue;
                    for (uint64_t m = usable & ~p->no_next[t]; m; m &= m - 1) {
                        int u = __builtin_ctzll(m);
                        BEST(((x * kcap) + nk - 1) * T + u, v + p->minutes[u]);
                    }
                }
            }
        for (int j = 1; j <= ocap; j++) {
            int64_t v = cur[O + j - 1];
            if (v < 0)
                continue;
            BEST(O + (j < ocap ? j + 1 : ocap) - 1, v);
            if (may_work && j == ocap)
                for (uint64_t m = usable; m; m &= m - 1) {
                    int u = __builtin_ctzll(m);
                    BEST(u, v + p->minutes[u]);
                }
        }
#undef BEST
        int64_t *t = cur;
        cur = nxt;
        nxt = t;
    }
    int64_t best = -1;
    for (int i = 0; i < n; i++)
        best = cur[i] > best ? cur[i] : best;
    return best;
}

/* The most minutes staff s can add in `days` worked days: the longest
 * shifts first, as many of each as the limits allow. */
static int64_t fill(const struct shf_state *st, int s, int days)
{
    const struct shf_problem *p = st->p;
    const int32_t *count = CAT(st, p->o_count, int32_t) + s * p->nshifts;
    int64_t minutes = 0;
    for (int i = 0; i < p->nshifts && days > 0; i++) {
        int t = p->by_length[i];
        int skill = p->shift_skill[t];
        if (skill >= 0 && !(p->skills[s] >> skill & 1))
            continue;
        int left = p->max_count[s * p->nshifts + t] - count[t];
        int take = left < days ? left : days;
        if (take > 0) {
            minutes += (int64_t)take * p->minutes[t];
            days -= take;
        }
    }
    return minutes;
}

/* Can the staff member set last still reach the minimum minutes? */
static bool shf_prune(void *state)
{
    struct shf_state *st = state;
    const struct shf_problem *p = st->p;
    int s = st->last_staff;
    /* with the Lagrangian bound, a row that cannot reach its minimum has no
     * cheapest completion: the bound prunes it (and this look-ahead took
     * half of the time on Instance7) */
    if (s < 0 || (p->lagrange && p->by_staff))
        return false;
    int from = CAT(st, p->o_pos, int32_t)[s];
    int need = p->min_minutes[s] - CAT(st, p->o_minutes, int32_t)[s];
    AT(st, p->o_tight, signed char)[s] = 0;
    if (need <= 0 || from >= p->ndays)
        return false;
    int free_days = p->ndays - from - p->off_suffix[s * (p->ndays + 1) + from];
    st->checks++;
    if (fill(st, s, free_days) < need)
        return true;
    /* plenty of room, even resting min_off days after every max_cons:
     * skip the exact look below (not pruning is always allowed) */
    int rests = (free_days + p->max_cons[s]) / (p->max_cons[s] + 1) *
                p->min_off[s];
    if (fill(st, s, free_days - rests - SHF_SLACK) >= need)
        return false;
    int days = max_days_left(st, s, from);
    if (days < 0)
        return true;
    int64_t most = fill(st, s, days);
    if (most >= need && most < need + SHF_SLACK * (int64_t)p->max_minutes_shift) {
        int64_t by_rotation = max_minutes_left(st, s, from);
        most = by_rotation < most ? by_rotation : most;
    }
    /* little room left: the value order puts work first (see next) */
    AT(st, p->o_tight, signed char)[s] =
        most < need + SHF_SLACK * (int64_t)p->max_minutes_shift;
    return most < need;
}

/* strategy.bound: weekends.  Across the weekend days still open, each staff
 * member can fill at most two days per weekend still allowed (one more on
 * the Sunday of a weekend already counted): a shortfall beyond that is
 * certain, at the smallest weekend under weight.  It replaces the weekend
 * days' own bounds when larger.  O(days x shifts + staff) per node. */
static int64_t weekend_bound(const struct shf_state *st)
{
    const struct shf_problem *p = st->p;
    const int32_t *have = CAT(st, p->o_have, int32_t);
    const int64_t *daylb = CAT(st, p->o_daylb, int64_t);
    int64_t days_sum = 0, over = 0, missing = 0, least = 0;
    for (int d = 0; d < p->ndays; d++) {
        if (!shf_weekend_day(p, d))
            continue;
        days_sum += daylb[d];
        for (int t = 0; t < p->nshifts; t++) {
            int k = d * p->nshifts + t, lack = p->need[k] - have[k];
            if (lack < 0)
                over += (int64_t)-lack * p->over[k];
            else if (lack > 0) {
                missing += lack;
                if (!least || p->under[k] < least)
                    least = p->under[k];
            }
        }
    }
    int64_t capacity = 0;
    const int32_t *pos = CAT(st, p->o_pos, int32_t);
    const signed char *val = CAT(st, p->o_val, signed char);
    for (int s = 0; s < p->nstaff && capacity < missing; s++) {
        int64_t days = 0, bonus = 0;
        for (int d = pos[s]; d < p->ndays; d++)
            days += shf_weekend_day(p, d) && !p->day_off[shf_cell(p, s, d)];
        if (pos[s] > 0 && pos[s] < p->ndays &&
            (p->weekday0 + pos[s]) % 7 == 6 &&
            val[shf_cell(p, s, pos[s] - 1)] > 0)
            bonus = 1;
        int64_t left = p->max_weekends[s] -
                       (int64_t)CAT(st, p->o_weekends, int32_t)[s];
        int64_t most = 2 * (left > 0 ? left : 0) + bonus;
        capacity += days < most ? days : most;
    }
    int64_t pooled = over + (missing > capacity ? (missing - capacity) * least
                                                : 0);
    return pooled > days_sum ? pooled - days_sum : 0;
}

/* On a full roster: its cost. */
static int64_t shf_cost(const void *state)
{
    const struct shf_state *st = state;
    return st->requests + st->cover;
}

static int64_t shf_bound(const void *state)
{
    const struct shf_state *st = state;
    const struct shf_problem *p = st->p;
    int64_t b = st->requests + st->cover;
    if (p->weekend_bound)
        return b + weekend_bound(st);
    if (p->lagrange && st->depth < p->nstaff * p->ndays) {
        struct shf_pins pins = pins_of(st);
        int64_t lb = shf_lagrange_bound(
            p->lagrange, p, &pins, CAT(st, p->o_val, signed char),
            CAT(st, p->o_have, int32_t), st->depth / p->ndays,
            st->depth % p->ndays, st->requests);
        b = lb > b ? lb : b;
    }
    return b;
}

static void shf_collect(void *state, struct cs_stats *into)
{
    struct shf_state *st = state;
    into->checks += st->checks;
    st->checks = 0;
}

const struct shf_problem *shf_state_problem(const void *state)
{
    return ((const struct shf_state *)state)->p;
}

const signed char *shf_state_roster(const void *state)
{
    const struct shf_state *st = state;
    return CAT(st, st->p->o_val, signed char);
}

static void shf_emit(const void *state, uint64_t k, struct cs_board *out)
{
    const struct shf_state *st = state;
    (void)k;
    shf_write_roster(st->p, CAT(st, st->p->o_val, signed char), out);
}

/* ---- traces: a cell as "Ann day 3", a value as its shift id ------------ */

static void shf_var_name(const void *state, int var, char *buf, size_t size)
{
    const struct shf_problem *p = ((const struct shf_state *)state)->p;
    int s, d;
    var_cell(p, var, &s, &d);
    snprintf(buf, size, "%s day %d", p->staff_id[s], d);
}

static void shf_value_name(const void *state, int var, int v, char *buf,
                           size_t size)
{
    const struct shf_problem *p = ((const struct shf_state *)state)->p;
    (void)var;
    snprintf(buf, size, "%s", v > 0 ? p->shift_id[v - 1] : "-");
}

/* Compact: cells set, request penalties so far, the bound of the state. */
static void shf_describe(const void *state, struct cs_view *out)
{
    const struct shf_state *st = state;
    char buf[64];
    snprintf(buf, sizeof buf, "%d/%d", st->depth,
             st->p->nstaff * st->p->ndays);
    cs_view_add(out, "set", buf);
    snprintf(buf, sizeof buf, "%" PRId64, st->requests);
    cs_view_add(out, "requests", buf);
    snprintf(buf, sizeof buf, "%" PRId64, shf_bound(state));
    cs_view_add(out, "bound", buf);
}

/* A neighbourhood: lns_staff staff members (round-robin from a varying
 * start) over a window of lns_days days, everything else pinned. */
static uint64_t mix(uint64_t x)
{
    x += UINT64_C(0x9e3779b97f4a7c15);
    x = (x ^ (x >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
    x = (x ^ (x >> 27)) * UINT64_C(0x94d049bb133111eb);
    return x ^ (x >> 31);
}

static void shf_relax(void *state, const void *best, uint64_t round)
{
    struct shf_state *st = state;
    const struct shf_problem *p = st->p;
    const signed char *b = CAT(best, p->o_val, signed char);
    signed char *fix = AT(st, p->o_fix, signed char);
    size_t cells = (size_t)p->nstaff * (size_t)p->ndays;
    memcpy(fix, b, cells);
    uint64_t r = mix(round);
    bool rows = p->lns_rows && round % 2 == 0;
    int days = rows || p->lns_days > p->ndays ? p->ndays : p->lns_days;
    int first = (int)(r % (uint64_t)(p->ndays - days + 1));
    int want = rows ? p->lns_rows : p->lns_staff;
    int nfree = want < p->nstaff ? want : p->nstaff;
    for (int i = 0; i < nfree; i++) {
        r = mix(r);
        int s = (int)(r % (uint64_t)p->nstaff);
        for (int d = first; d < first + days; d++)
            fix[shf_cell(p, s, d)] = -1;
    }
    recount(st);
    if (p->lagrange) {
        struct shf_pins pins = pins_of(st);
        shf_lagrange_pin(p->lagrange, p, fix, &pins);
    }
}

static int shf_search(struct cs_run *run, void *state);

static const struct cs_hooks shf_hooks = {
    .init = shf_init,
    .select = shf_select,
    .first = shf_first,
    .next = shf_next,
    .apply = shf_apply,
    .undo = shf_undo,
    .prune = shf_prune,
    .collect = shf_collect,
    .emit = shf_emit,
    .cost = shf_cost,
    .bound = shf_bound,
    .relax = shf_relax,
    .describe = shf_describe,
    .var_name = shf_var_name,
    .value_name = shf_value_name,
    .search = shf_search,
};

/* A first-solution search restarts rows.  Rows are filled by a value order
 * that chases cover, and a row led by it into a corner its look-ahead cannot
 * see thrashes over every arrangement of its earlier days.  So the search
 * runs under a node budget; when the budget runs out, the staff member whose
 * row the search is in stops chasing cover (its values then go by its
 * requests alone, as if it were rostered by itself), the cells of its row
 * are undone, and the search goes on from the start of that row, with twice
 * the budget if the row was calm already.  Should the rows before prove a
 * dead end, the search starts again at the root with twice the budget, so a
 * tree with no solution is still searched to its end and proven infeasible.
 * Staff order only; deterministic, like the plain search. */
static int restarting_search(struct cs_run *run, void *state)
{
    struct shf_state *st = state;
    const struct shf_problem *p = st->p;
    const int nvars = p->nstaff * p->ndays;
    void *root = cs_xmalloc(p->state_size);
    memcpy(root, state, p->state_size);
    const uint64_t cap = run->node_cap, at_start = run->stats.nodes;
    uint64_t budget = p->restart_nodes;
    int base = 0, status, deepest = run->stats.max_depth;
    for (;;) {
        uint64_t used = run->stats.nodes - at_start;
        uint64_t left = cap > used ? cap - used : 0;
        run->node_cap = budget < left ? budget : left;
        run->next_poll =
            CS_POLL_NODES < run->node_cap ? CS_POLL_NODES : run->node_cap;
        uint64_t before = run->stats.nodes;
        run->stats.max_depth = 0;
        status = cs_dfs(run, state, &shf_hooks);
        if (run->stats.max_depth + base > deepest)
            deepest = run->stats.max_depth + base;
        bool spent = run->stats.nodes - before >= run->node_cap;
        if (status == CS_COMPLETE && !run->stats.solutions && base > 0) {
            /* the rows before are a dead end: from the root */
            shf_collect(state, &run->stats);
            memcpy(state, root, p->state_size);
            base = 0;
            budget = budget < UINT64_MAX / 2 ? 2 * budget : UINT64_MAX;
            continue;
        }
        if (status != CS_LIMIT || run->stats.solutions || !spent ||
            run->node_cap == left)
            break; /* done, or stopped by the caller's own limits */
        int s = (st->depth < nvars ? st->depth : nvars - 1) / p->ndays;
        signed char *calm = AT(root, p->o_calm, signed char) + s;
        /* a row calm already needs more; a new one starts small again
         * (at most nstaff times, so the budgets still grow without end) */
        if (*calm)
            budget = budget < UINT64_MAX / 2 ? 2 * budget : UINT64_MAX;
        else
            budget = p->restart_nodes;
        *calm = 1;
        AT(st, p->o_calm, signed char)[s] = 1;
        int target = s * p->ndays > base ? s * p->ndays : base;
        for (int k = st->depth - base - 1; k >= target - base; k--)
            shf_undo(state, run->frames[k].var, run->frames[k].value);
        base = target;
    }
    run->stats.max_depth = deepest;
    run->node_cap = cap;
    free(root);
    return status;
}

static int shf_search(struct cs_run *run, void *state)
{
    const struct shf_state *st = state;
    bool first_only = run->task == CS_TASK_SOLVE || run->solution_cap == 1;
    if (first_only && st->p->restart_nodes && st->p->by_staff &&
        !st->p->pin)
        return restarting_search(run, state);
    return cs_dfs(run, state, &shf_hooks);
}

/* ---- the model ---------------------------------------------------------- */

static const char *const format_names[] = {"curtois", NULL};
static const char *const order_names[] = {"day", "staff", NULL};
static const char *const bound_names[] = {"days", "weekends", "lagrange",
                                          NULL};
static const char *const weekday_names[] = {
    "monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
    "sunday", NULL};

static const struct cs_option shf_options[] = {
    {.key = "params.instance", .type = CS_OPT_STRING,
     .help = "a benchmark file (params.format), instead of the spec below; "
             "relative to the config's folder"},
    {.key = "params.format", .type = CS_OPT_ENUM, .def = "curtois",
     .choices = format_names,
     .help = "format of params.instance: the Shift Scheduling Benchmark's"},
    {.key = "params.days", .type = CS_OPT_INT, .min = 1, .max = SHF_MAX_DAYS,
     .help = "the horizon in days"},
    {.key = "params.first_day", .type = CS_OPT_ENUM, .def = "monday",
     .choices = weekday_names, .help = "weekday of day 0"},
    {.key = "params.shifts", .type = CS_OPT_NODE,
     .help = "shift types: id, minutes, not_followed_by, skill"},
    {.key = "params.staff", .type = CS_OPT_NODE,
     .help = "staff: id, max_shifts, min/max_minutes, min/max_consecutive, "
             "min_days_off, max_weekends, days_off, skills"},
    {.key = "params.cover", .type = CS_OPT_NODE,
     .help = "cover: day (or all), shift, need, under, over weights"},
    {.key = "params.shift_on", .type = CS_OPT_NODE,
     .help = "requests to work: staff, day, shift, weight"},
    {.key = "params.shift_off", .type = CS_OPT_NODE,
     .help = "requests not to work: staff, day, shift (none: any), weight"},
    {.key = "params.apart", .type = CS_OPT_NODE,
     .help = "pairs of staff who may not work the same shift on a day"},
    {.key = "params.roster", .type = CS_OPT_STRING,
     .help = "check this roster (CSV as output.format csv writes it) "
             "instead of searching for one"},
    {.key = "strategy.order", .type = CS_OPT_ENUM, .def = "staff",
     .choices = order_names,
     .help = "cells day by day (every staff member's day 0 first) or staff "
             "by staff"},
    {.key = "strategy.bound", .type = CS_OPT_ENUM, .def = "days",
     .choices = bound_names,
     .help = "optimize: the cover bound day by day; weekends: also the "
             "weekend places the staff's weekend limits leave empty; "
             "lagrange: every staff member's cheapest legal row under cover "
             "prices (needs order staff)"},
    {.key = "strategy.lagrange_states", .type = CS_OPT_INT,
     .def = "8000000", .min = 1, .max = 1e10,
     .help = "bound lagrange: most row states (8 bytes each), all staff and "
             "days together"},
    {.key = "strategy.lagrange_steps", .type = CS_OPT_INT, .def = "500",
     .min = 0, .max = 1e9,
     .help = "bound lagrange: subgradient steps improving the cover prices"},
    {.key = "strategy.restart_nodes", .type = CS_OPT_INT, .def = "20000",
     .min = 0, .max = 1e12,
     .help = "solve (and optimize's first roster): nodes before the search "
             "restarts with the row it was stuck in ordered by its requests "
             "alone, doubled at each restart (0 = never restart)"},
    {.key = "strategy.lns_nodes", .type = CS_OPT_INT, .def = "0", .min = 0,
     .max = 1e12,
     .help = "optimize: search nodes per large-neighbourhood round (0 = one "
             "branch and bound over the whole roster)"},
    {.key = "strategy.lns_days", .type = CS_OPT_INT, .def = "14", .min = 1,
     .max = SHF_MAX_DAYS, .help = "days a neighbourhood frees"},
    {.key = "strategy.lns_staff", .type = CS_OPT_INT, .def = "3", .min = 1,
     .max = SHF_MAX_STAFF, .help = "staff members a neighbourhood frees"},
    {.key = "strategy.lns_rows", .type = CS_OPT_INT, .def = "0", .min = 0,
     .max = SHF_MAX_STAFF,
     .help = "every other round frees this many whole rows instead (0 = "
             "never)"},
    {.key = NULL},
};

/* A file that cannot be read at all is the config key's fault: point there
 * (errors inside the file keep their own line). */
static int repoint(int rc, const struct cs_config *cfg, const char *key,
                   struct cs_error *err)
{
    if (rc && !err->line) {
        char msg[sizeof err->msg];
        memcpy(msg, err->msg, sizeof msg);
        cs_error_at(err, cs_config_pos(cfg, key), "%s", msg);
    }
    return rc;
}

static int shf_setup(const struct cs_config *cfg, struct cs_problem *out,
                     struct cs_error *err)
{
    struct shf_problem *p = shf_problem_new();
    int rc;
    if (cs_config_has(cfg, "params.instance")) {
        static const char *const spec_keys[] = {
            "params.days", "params.shifts", "params.staff", "params.cover",
            "params.shift_on", "params.shift_off", "params.apart", NULL};
        for (int i = 0; spec_keys[i]; i++)
            if (cs_config_has(cfg, spec_keys[i])) {
                shf_problem_free(p);
                return cs_error_at(err, cs_config_pos(cfg, spec_keys[i]),
                                   "give params.instance or the roster spec "
                                   "(%s), not both",
                                   spec_keys[i]);
            }
        char *path = cs_config_path(cfg, "params.instance");
        rc = repoint(shf_read_curtois(p, path, err), cfg, "params.instance",
                     err);
        free(path);
    } else {
        rc = shf_read_yaml(p, cfg, err);
    }
    if (!rc && cs_config_has(cfg, "params.roster")) {
        char *path = cs_config_path(cfg, "params.roster");
        rc = repoint(shf_read_roster(p, path, err), cfg, "params.roster",
                     err);
        free(path);
    }
    if (rc) {
        shf_problem_free(p);
        return -1;
    }
    p->by_staff = cs_config_enum(cfg, "strategy.order") == 1;
    int bound = cs_config_enum(cfg, "strategy.bound");
    p->weekend_bound = bound == 1;
    if (bound == 2 && !p->by_staff) {
        shf_problem_free(p);
        return cs_error_at(err, cs_config_pos(cfg, "strategy.bound"),
                           "bound lagrange needs order staff");
    }
    if (bound == 2 && cs_config_enum(cfg, "task") == (int)CS_TASK_OPTIMIZE) {
        p->lagrange = shf_lagrange_new(
            p, (size_t)cs_config_int(cfg, "strategy.lagrange_states"),
            (int)cs_config_int(cfg, "strategy.lagrange_steps"), err);
        if (!p->lagrange) {
            shf_problem_free(p);
            return repoint(-1, cfg, "strategy.bound", err);
        }
    }
    p->lns_days = (int)cs_config_int(cfg, "strategy.lns_days");
    p->lns_staff = (int)cs_config_int(cfg, "strategy.lns_staff");
    p->lns_rows = (int)cs_config_int(cfg, "strategy.lns_rows");
    p->lagrange_slots = p->lns_staff > p->lns_rows ? p->lns_staff : p->lns_rows;
    p->restart_nodes = (uint64_t)cs_config_int(cfg, "strategy.restart_nodes");
    p->csv = cs_config_enum(cfg, "output.format") == (int)CS_FORMAT_CSV;
    layout(p);
    out->hooks = &shf_hooks;
    out->data = p;
    out->free_data = shf_problem_free;
    out->nvars = p->nstaff * p->ndays;
    out->state_size = p->state_size;
    int64_t lns = cs_config_int(cfg, "strategy.lns_nodes");
    /* a round walks every pinned cell too */
    out->relax_nodes = lns && !p->pin ? (uint64_t)lns + (uint64_t)out->nvars
                                      : 0;
    return 0;
}

const struct cs_model cs_shifts_model = {
    .abi_version = CS_ABI_VERSION,
    .name = "shifts",
    .summary = "staff rosters: hard staff rules, weighted cover and requests",
    .options = shf_options,
    .tasks = CS_TASK_BIT(CS_TASK_COUNT) | CS_TASK_BIT(CS_TASK_SOLVE) |
             CS_TASK_BIT(CS_TASK_ENUMERATE) | CS_TASK_BIT(CS_TASK_OPTIMIZE),
    .setup = shf_setup,
};
