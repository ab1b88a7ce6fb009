/* shifts/rules.c - the hooks: rostering on the engine, staff-day cells are
 * the variables.
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
 * of the day bounds; cost() is the same number on a full roster.  The hook
 * table is here, with the search instance that inlines the hot hooks.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "csearch/dfs.h"
#include "shifts/search.h"

/* a row is tight (work first) with less room than this many shifts */
#define SHF_SLACK 8

static int shf_select(const void *state)
{
    const struct shf_state *st = state;
    return st->depth < st->p->nstaff * st->p->ndays ? st->depth : CS_NONE;
}

/* Does value v on day d keep staff s's rules, given the row so far? */
static bool legal(const struct shf_state *st, int s, int d, int v)
{
    const struct shf_problem *p = st->p;
    if (!shf_able(st, s, d, v))
        return false;
    const signed char *val = SHF_CAT(st, p->o_val, signed char);
    int run = SHF_CAT(st, p->o_run, int32_t)[s];
    int len = run & ~SHF_RUN_FROM0;
    bool from0 = run & SHF_RUN_FROM0;
    int prev = d > 0 ? val[shf_cell(p, s, d - 1)] : -1;
    int minutes = SHF_CAT(st, p->o_minutes, int32_t)[s];
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
    if (SHF_CAT(st, p->o_count, int32_t)[s * p->nshifts + t] >=
        p->max_count[s * p->nshifts + t])
        return false;
    minutes += p->minutes[t];
    if (minutes > p->max_minutes[s] ||
        (d == p->ndays - 1 && minutes < p->min_minutes[s]))
        return false;
    if (shf_weekend_day(p, d) &&
        !((p->weekday0 + d) % 7 == SHF_SUNDAY && prev > 0) &&
        SHF_CAT(st, p->o_weekends, int32_t)[s] >= p->max_weekends[s])
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
    shf_var_cell(st->p, var, &s, &d);
    uint64_t legal_values = 0;
    for (int v = 0; v <= st->p->nshifts; v++)
        if (legal(st, s, d, v))
            legal_values |= UINT64_C(1) << v;
    st->counters.checks += (uint64_t)st->p->nshifts + 1;
    *cursor = legal_values;
}

/* What value v costs at once: its requests, and cover short (a gain) or
 * over.  Values are tried cheapest first. */
static int64_t score(const struct shf_state *st, int s, int d, int v)
{
    const struct shf_problem *p = st->p;
    int64_t cost = shf_req_cost(p, (size_t)shf_cell(p, s, d), v);
    if (!v && SHF_CAT(st, p->o_tight, signed char)[s])
        return INT64_MAX; /* short of minutes: a day off comes last */
    if (v) {
        /* a calm row (shf_restart) sees the cover as if it were
         * rostered alone */
        int k = d * p->nshifts + v - 1;
        int have = SHF_CAT(st, p->o_calm, signed char)[s]
                       ? 0
                       : SHF_CAT(st, p->o_have, int32_t)[k];
        cost += have < p->need[k] ? -p->under[k] : p->over[k];
    }
    return cost;
}

/* strategy.bound lagrange: the value whose best priced row is cheapest
 * (cells go staff by staff, so days 0..d-1 of the row are set), under the
 * set-up prices also in a round: the round's prices see only the cover the
 * pinned rows give and order the rows worse (Instances 5 and 7, 10 s:
 * 1351 and 1284 against 1650 and 1377). */
static int priced_next(struct shf_state *st, int s, int d, uint64_t cursor)
{
    const struct shf_problem *p = st->p;
    struct shf_pins pins = shf_pins_of(st);
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
    shf_var_cell(st->p, var, &s, &d);
    /* the dives' roster first, outside rounds (setup.c) */
    if (st->p->hint && !st->in_round) {
        int h = st->p->hint[shf_cell(st->p, s, d)];
        if (*cursor >> h & 1) {
            *cursor &= ~(UINT64_C(1) << h);
            *value = h;
            return true;
        }
    }
    /* priced order, but for a row the restarts calmed: the plain order
     * finds a first roster where chasing the priced rows stalls
     * (Instance14: none in 20 million nodes); and with plain_first, in
     * the whole search for the first roster (setup.c) */
    if (st->p->lagrange && !SHF_CAT(st, st->p->o_calm, signed char)[s] &&
        (st->in_round || !st->p->plain_first)) {
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
    int32_t *ablen = SHF_AT(st, p->o_able, int32_t) + d * p->nshifts;
    bool any = false;
    for (int t = 0; t < p->nshifts; t++)
        if (shf_able(st, s, d, t + 1)) {
            ablen[t] -= sign;
            any = true;
        }
    SHF_AT(st, p->o_open, int32_t)[d] -= sign * any;
    st->requests += sign * shf_req_cost(p, (size_t)c, v);
    if (v) {
        const signed char *val = SHF_CAT(st, p->o_val, signed char);
        SHF_AT(st, p->o_have, int32_t)[d * p->nshifts + v - 1] += sign;
        SHF_AT(st, p->o_count, int32_t)[s * p->nshifts + v - 1] += sign;
        SHF_AT(st, p->o_minutes, int32_t)[s] += sign * p->minutes[v - 1];
        if (shf_weekend_day(p, d) && !((p->weekday0 + d) % 7 == SHF_SUNDAY &&
                                       d > 0 && val[shf_cell(p, s, d - 1)] > 0))
            SHF_AT(st, p->o_weekends, int32_t)[s] += sign;
    }
    shf_refresh_day(st, d);
}

static void shf_apply(void *state, int var, int v)
{
    struct shf_state *st = state;
    const struct shf_problem *p = st->p;
    int s, d;
    shf_var_cell(p, var, &s, &d);
    int c = shf_cell(p, s, d);
    signed char *val = SHF_AT(st, p->o_val, signed char);
    int32_t *run = SHF_AT(st, p->o_run, int32_t) + s;
    SHF_AT(st, p->o_prev, int32_t)[c] = *run;
    if (d == 0)
        *run = 1 | SHF_RUN_FROM0;
    else if ((val[c - 1] > 0) == (v > 0))
        (*run)++;
    else
        *run = 1;
    count_cell(st, s, d, v, +1);
    val[c] = (signed char)v;
    SHF_AT(st, p->o_pos, int32_t)[s] = d + 1;
    st->depth++;
    st->last_staff = s;
}

static void shf_undo(void *state, int var, int v)
{
    struct shf_state *st = state;
    const struct shf_problem *p = st->p;
    int s, d;
    shf_var_cell(p, var, &s, &d);
    int c = shf_cell(p, s, d);
    SHF_AT(st, p->o_val, signed char)[c] = -1;
    count_cell(st, s, d, v, -1);
    SHF_AT(st, p->o_run, int32_t)[s] = SHF_AT(st, p->o_prev, int32_t)[c];
    SHF_AT(st, p->o_pos, int32_t)[s] = d;
    st->depth--;
    st->last_staff = -1;
}

/* The most minutes staff s can add in `days` worked days: the longest
 * shifts first, as many of each as the limits allow. */
static int64_t fill(const struct shf_state *st, int s, int days)
{
    const struct shf_problem *p = st->p;
    const int32_t *count = SHF_CAT(st, p->o_count, int32_t) + s * p->nshifts;
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
    if (p->no_roster)
        return true; /* some row has no legal assignment (explain.c) */
    /* with the Lagrangian bound's tracked rows, a row that cannot reach its
     * minimum has no cheapest completion: the bound prunes it (and this
     * look-ahead took half of the time on Instance7); priced rows track no
     * minutes, so the look-ahead stays for the first roster (without it
     * Instance20 found none in 58 s), not in the rounds, whose few free
     * cells it slowed by more than it cut (Instances 16-19, 60 s: 4982,
     * 10328, 12839, 18760 with it, 4467, 8817, 7061, 8365 without) */
    if (s < 0 || (p->lagrange && p->by_staff &&
                  (!p->lagrange->priced || *SHF_CAT(st, p->o_pany, int32_t))))
        return false;
    int from = SHF_CAT(st, p->o_pos, int32_t)[s];
    int need = p->min_minutes[s] - SHF_CAT(st, p->o_minutes, int32_t)[s];
    SHF_AT(st, p->o_tight, signed char)[s] = 0;
    if (need <= 0 || from >= p->ndays)
        return false;
    int free_days = p->ndays - from - p->off_suffix[s * (p->ndays + 1) + from];
    st->counters.checks++;
    if (fill(st, s, free_days) < need)
        return true;
    /* plenty of room, even resting min_off days after every max_cons:
     * skip the exact look below (not pruning is always allowed) */
    int rests =
        (free_days + p->max_cons[s]) / (p->max_cons[s] + 1) * p->min_off[s];
    if (fill(st, s, free_days - rests - SHF_SLACK) >= need)
        return false;
    int days = shf_max_days_left(st, s, from);
    if (days < 0)
        return true;
    int64_t most = fill(st, s, days);
    if (most >= need &&
        most < need + SHF_SLACK * (int64_t)p->max_minutes_shift) {
        int64_t by_rotation = shf_max_minutes_left(st, s, from);
        most = by_rotation < most ? by_rotation : most;
    }
    /* little room left: the value order puts work first (see next) */
    SHF_AT(st, p->o_tight, signed char)
    [s] = most < need + SHF_SLACK * (int64_t)p->max_minutes_shift;
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
    const int32_t *have = SHF_CAT(st, p->o_have, int32_t);
    const int64_t *daylb = SHF_CAT(st, p->o_daylb, int64_t);
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
    const int32_t *pos = SHF_CAT(st, p->o_pos, int32_t);
    const signed char *val = SHF_CAT(st, p->o_val, signed char);
    for (int s = 0; s < p->nstaff && capacity < missing; s++) {
        int64_t days = 0, bonus = 0;
        for (int d = pos[s]; d < p->ndays; d++)
            days += shf_weekend_day(p, d) && !p->day_off[shf_cell(p, s, d)];
        if (pos[s] > 0 && pos[s] < p->ndays &&
            (p->weekday0 + pos[s]) % 7 == SHF_SUNDAY &&
            val[shf_cell(p, s, pos[s] - 1)] > 0)
            bonus = 1;
        int64_t left = p->max_weekends[s] -
                       (int64_t)SHF_CAT(st, p->o_weekends, int32_t)[s];
        int64_t most = 2 * (left > 0 ? left : 0) + bonus;
        capacity += days < most ? days : most;
    }
    int64_t pooled =
        over + (missing > capacity ? (missing - capacity) * least : 0);
    return pooled > days_sum ? pooled - days_sum : 0;
}

/* On a full roster: its cost (params.fairness's part from the counters:
 * the tree keeps no sums for it). */
static int64_t shf_cost(const void *state)
{
    const struct shf_state *st = state;
    return st->requests + st->cover + shf_fair_of(st);
}

static int64_t node_bound(const struct shf_state *st)
{
    const struct shf_problem *p = st->p;
    int64_t b = st->requests + st->cover;
    if (st->depth == p->nstaff * p->ndays)
        return shf_cost(st); /* fairness, 0 before, counts at the end */
    if (p->weekend_bound)
        return b + weekend_bound(st);
    if (p->lagrange && st->depth < p->nstaff * p->ndays) {
        struct shf_pins pins = shf_pins_of(st);
        int64_t lb = shf_lagrange_bound(
            p->lagrange, p, &pins, SHF_CAT(st, p->o_val, signed char),
            SHF_CAT(st, p->o_have, int32_t), st->depth / p->ndays,
            st->depth % p->ndays, st->requests);
        b = lb > b ? lb : b;
    }
    return b;
}

/* The node's own bound, and below a full roster the LP bound's floor,
 * which holds for every roster (colgen.c). */
static int64_t shf_bound(const void *state)
{
    const struct shf_state *st = state;
    int64_t b = node_bound(st);
    return st->depth < st->p->nstaff * st->p->ndays && st->p->lp_floor > b
               ? st->p->lp_floor
               : b;
}

static void shf_emit(const void *state, uint64_t k, struct cs_board *out)
{
    const struct shf_state *st = state;
    (void)k;
    shf_write_roster(st->p, SHF_CAT(st, st->p->o_val, signed char), out);
}

/* ---- traces: a cell as "Ann day 3", a value as its shift id ------------ */

static void shf_var_name(const void *state, int var, char *buf, size_t size)
{
    const struct shf_problem *p = ((const struct shf_state *)state)->p;
    int s, d;
    shf_var_cell(p, var, &s, &d);
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
    snprintf(buf, sizeof buf, "%d/%d", st->depth, st->p->nstaff * st->p->ndays);
    cs_view_add(out, "set", buf);
    snprintf(buf, sizeof buf, "%" PRId64, st->requests);
    cs_view_add(out, "requests", buf);
    snprintf(buf, sizeof buf, "%" PRId64, shf_bound(state));
    cs_view_add(out, "bound", buf);
}

/* A first-solution search restarts rows (the framework's restart layer,
 * which calls this when a budget runs out).  Rows are filled by a value
 * order that chases cover, and a row led by it into a corner its look-ahead
 * cannot see thrashes over every arrangement of its earlier days.  So the
 * staff member whose row the search is in stops chasing cover (its values
 * then go by its requests alone, as if it were rostered by itself: the calm
 * flag, which undo leaves alone), and the search goes on from the start of
 * that row, with a doubled budget if the row was calm already.  Staff order
 * only; under day order every restart is from the root. */
static int shf_restart(void *state, int depth, bool *grow)
{
    struct shf_state *st = state;
    const struct shf_problem *p = st->p;
    const int nvars = p->nstaff * p->ndays;
    if (!p->by_staff)
        return 0;
    int s = (depth < nvars ? depth : nvars - 1) / p->ndays;
    signed char *calm = SHF_AT(st, p->o_calm, signed char) + s;
    /* a row calm already needs more; a new one starts small again (at most
     * nstaff times, so the budgets still grow without end) */
    *grow = *calm != 0;
    *calm = 1;
    return s * p->ndays;
}

static const struct cs_name_hooks shf_names = {.describe = shf_describe,
                                               .var_name = shf_var_name,
                                               .value_name = shf_value_name};

/* The slots the tree needs; under optimize also the local moves. */
#define SHF_TREE_HOOKS                                                         \
    .init = shf_init, .select = shf_select, .first = shf_first,                \
    .next = shf_next, .apply = shf_apply, .undo = shf_undo,                    \
    .prune = shf_prune, .counters = true, .emit = shf_emit, .cost = shf_cost,  \
    .bound = shf_bound, .relax = shf_relax, .restart = shf_restart,            \
    .names = &shf_names

CS_HOOKS(shf_hooks, SHF_TREE_HOOKS)
static const struct cs_local_hooks shf_local = {.ls_start = shf_ls_start,
                                                .ls_conflicts = shf_ls_cost,
                                                .ls_pick = shf_ls_pick,
                                                .ls_moves = shf_ls_moves,
                                                .ls_delta = shf_ls_delta,
                                                .ls_apply = shf_ls_apply,
                                                .ls_large = shf_ls_large};
CS_HOOKS(shf_local_hooks, SHF_TREE_HOOKS, .local = &shf_local)

/* The tables, for setup. */
const struct cs_hooks *const shf_model_hooks = &shf_hooks;
const struct cs_hooks *const shf_moves_hooks = &shf_local_hooks;
