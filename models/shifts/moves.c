/* shifts/moves.c - local moves on a full roster: the ls_* hooks that serve
 * task optimize as an improvement search (the framework's moves layer).
 *
 * The layer hands in a copy of the incumbent, a full roster whose counters
 * (cover, shifts of each type, minutes, weekends, requests, day penalties)
 * are exact; every allowed move keeps them exact, so each state is a goal
 * state whose cost is ls_conflicts.  Hard rules are checked on the rows a
 * move changes only, around its days; a move that would break one has
 * delta INT64_MAX.
 */
#include <string.h>

#include "shifts/search.h"

/* A local variable names a cell (s, d), as the tree numbers it, and a
 * kind of move: below ncells, a new value v for the cell (0 off,
 * 1..nshifts), and for the next days up to SHF_LS_BLOCK in all (move v +
 * (nshifts + 1) x (len - 1): a run of a shift, or of days off, where a
 * rule on run lengths bars changing one day); from ncells on, cell var -
 * ncells swapped with another staff member's, together with the next days
 * up to SHF_LS_BLOCK in all (move staff + nstaff x (len - 1)); from
 * 2 ncells on, cover line k = var - 2 ncells (day k / nshifts, shift k %
 * nshifts + 1), below nlines = ndays x nshifts: taken by staff t from its
 * day on, for len days (move t + nstaff x (len - 1), below SHF_LS_BLOCK
 * nstaff), or by staff t exchanging its day with the nearest day after
 * (move SHF_LS_BLOCK nstaff + t) or before (+ nstaff more) within
 * SHF_LS_SPAN that has the shift, or, on 84 days or more, by a far
 * exchange from (SHF_LS_BLOCK + 2) nstaff on (exchange_far); from 2
 * ncells + nlines on, cell var -
 * 2 ncells - nlines exchanged with its own row's days dd later, together
 * with the next days up to SHF_LS_BLOCK in all (move dd - 1 + (SHF_LS_SPAN
 * - 1) x (len - 1)), the two blocks apart.  Swaps leave every day's cover
 * as it is and change requests and rows only; exchanges in a row leave its
 * minutes and shift counts as they are, which the tight workloads of the
 * benchmark bar a new value from.  Whether a changed row keeps the hard
 * rules is keeps.c's (shf_row_keeps). */

/* an exchange's second block starts less than this many days after its
 * first */
#define SHF_LS_SPAN 28

/* Days copied and compared by hand: a move's windows are a few days long
 * (at most SHF_LS_WINDOW but for the row move), where a call to the C
 * library's memcpy or memcmp cost more than the loop (they took 14% of
 * an annealing run's time on Instance24). */
static void copy_days(signed char *to, const signed char *from, size_t len)
{
    for (size_t i = 0; i < len; i++)
        to[i] = from[i];
}

static bool same_days(const signed char *a, const signed char *b, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (a[i] != b[i])
            return false;
    return true;
}

/* Row s after its windows sp[0..n-1] changed: the counters, and the
 * change in its request penalties (returned); with params.fairness, its
 * nights and weekends before and their change, into *fair. */
static int64_t row_count(struct shf_state *st, int s, const struct shf_span *sp,
                         int n, bool apply, struct shf_fair_row *fair)
{
    const struct shf_problem *p = st->p;
    const signed char *row =
        SHF_CAT(st, p->o_val, signed char) + (size_t)s * p->ndays;
    int32_t *count = SHF_AT(st, p->o_count, int32_t) + s * p->nshifts;
    int32_t *minutes = SHF_AT(st, p->o_minutes, int32_t) + s;
    int32_t *worked = SHF_AT(st, p->o_weekends, int32_t) + s;
    const bool fairness = shf_fair_on(p);
    if (fairness)
        *fair =
            (struct shf_fair_row){s, shf_state_nights(st, s), *worked, 0, 0};
    int64_t delta = 0;
    for (int i = 0; i < n; i++) {
        for (int d = sp[i].lo; d <= sp[i].hi; d++) {
            int v = row[d], o = sp[i].old[d - sp[i].lo];
            if (v == o)
                continue;
            const size_t c = (size_t)shf_cell(p, s, d);
            delta += shf_req_cost(p, c, v) - shf_req_cost(p, c, o);
            if (fairness)
                fair->dnights += shf_night(p, v) - shf_night(p, o);
            if (!apply)
                continue;
            if (o)
                count[o - 1]--, *minutes -= p->minutes[o - 1];
            if (v)
                count[v - 1]++, *minutes += p->minutes[v - 1];
        }
        int weekends = fairness || apply
                           ? shf_weekends_in(p, row, sp[i].lo, sp[i].hi + 1) -
                                 sp[i].weekends
                           : 0;
        if (fairness)
            fair->dweekends += weekends;
        if (apply)
            *worked += weekends;
    }
    if (apply)
        st->requests += delta;
    return delta;
}

/* Cover line k's place in the list of lines short of staff, after its
 * cover changed: in it while short (with a weight on it), else out. */
static void short_line(struct shf_state *st, int k)
{
    const struct shf_problem *p = st->p;
    int32_t *list = SHF_AT(st, p->o_short, int32_t);
    int32_t *at = SHF_AT(st, p->o_short_at, int32_t);
    bool is_short =
        SHF_CAT(st, p->o_have, int32_t)[k] < p->need[k] && p->under[k];
    if (is_short && at[k] < 0) {
        at[k] = st->nshort;
        list[st->nshort++] = k;
    } else if (!is_short && at[k] >= 0) {
        int last = list[--st->nshort];
        list[at[k]] = last;
        at[last] = at[k];
        at[k] = -1;
    }
}

/* What have staff on shift k cost in cover. */
static int64_t cover_cost(const struct shf_problem *p, int k, int have)
{
    return have < p->need[k] ? (int64_t)(p->need[k] - have) * p->under[k]
                             : (int64_t)(have - p->need[k]) * p->over[k];
}

/* Staff s's windows sp[0..n-1] (lo and hi given) set to nv[i][0..hi-lo]
 * (0 off): the change in cost, or INT64_MAX (a hard rule broken, or
 * nothing changed); made when apply (and allowed). */
static int64_t set_spans(struct shf_state *st, int s, struct shf_span *sp,
                         int n, const signed char *const *nv, bool apply)
{
    const struct shf_problem *p = st->p;
    signed char *row = SHF_AT(st, p->o_val, signed char) + shf_cell(p, s, 0);
    bool same = true;
    for (int i = 0; i < n; i++) {
        size_t len = (size_t)(sp[i].hi - sp[i].lo + 1);
        if (!sp[i].old)
            sp[i].old = sp[i].buf;
        same = same && same_days(row + sp[i].lo, nv[i], len);
        copy_days(sp[i].old, row + sp[i].lo, len);
        sp[i].weekends = shf_weekends_in(p, row, sp[i].lo, sp[i].hi + 1);
    }
    if (same)
        return INT64_MAX;
    for (int i = 0; i < n; i++)
        copy_days(row + sp[i].lo, nv[i], (size_t)(sp[i].hi - sp[i].lo + 1));
    int64_t delta = INT64_MAX;
    if (shf_row_keeps(st, s, sp, n)) {
        struct shf_fair_row fair;
        delta = row_count(st, s, sp, n, apply, &fair);
        delta += shf_fair_change(st, 1, &fair, apply);
        for (int i = 0; i < n; i++)
            for (int e = sp[i].lo; e <= sp[i].hi; e++) {
                int o = sp[i].old[e - sp[i].lo], v = row[e];
                if (o == v)
                    continue;
                int32_t *have = SHF_AT(st, p->o_have, int32_t) + e * p->nshifts;
                int k = e * p->nshifts;
                if (o)
                    delta += cover_cost(p, k + o - 1, have[o - 1] - 1) -
                             cover_cost(p, k + o - 1, have[o - 1]);
                if (v)
                    delta += cover_cost(p, k + v - 1, have[v - 1] + 1) -
                             cover_cost(p, k + v - 1, have[v - 1]);
                if (!apply)
                    continue;
                if (o) {
                    have[o - 1]--;
                    short_line(st, k + o - 1);
                }
                if (v) {
                    have[v - 1]++;
                    short_line(st, k + v - 1);
                }
                shf_refresh_day(st, e);
            }
    }
    if (delta == INT64_MAX || !apply)
        for (int i = 0; i < n; i++)
            copy_days(row + sp[i].lo, sp[i].old,
                      (size_t)(sp[i].hi - sp[i].lo + 1));
    return delta;
}

/* Days lo..hi of staff s set to nv[0..hi-lo] (0 off). */
static int64_t set_row(struct shf_state *st, int s, int lo, int hi,
                       const signed char *nv, bool apply)
{
    struct shf_span sp = {.lo = lo, .hi = hi};
    return set_spans(st, s, &sp, 1, &nv, apply);
}

/* Days d..d+len-1 of staff s all set to value v (0 off). */
static int64_t set_block(struct shf_state *st, int s, int d, int len, int v,
                         bool apply)
{
    const struct shf_problem *p = st->p;
    if (v > p->nshifts || len > SHF_LS_BLOCK || d + len > p->ndays)
        return INT64_MAX;
    signed char nv[SHF_LS_BLOCK];
    memset(nv, v, (size_t)len);
    return set_row(st, s, d, d + len - 1, nv, apply);
}

/* Days d..d+len-1 of staff s exchanged with its days e..e+len-1 (e >=
 * d + len: less than SHF_LS_SPAN days after them, or anywhere for a far
 * exchange), in one window when the blocks touch, else in two (only the
 * days that change are looked at). */
static int64_t exchange(struct shf_state *st, int s, int d, int e, int len,
                        bool apply)
{
    const struct shf_problem *p = st->p;
    if (len > SHF_LS_BLOCK || e < d + len || e + len > p->ndays)
        return INT64_MAX;
    const signed char *row =
        SHF_CAT(st, p->o_val, signed char) + (size_t)s * p->ndays;
    signed char a[2 * SHF_LS_BLOCK], b[SHF_LS_BLOCK];
    copy_days(a, row + e, (size_t)len);
    if (e == d + len) {
        copy_days(a + len, row + d, (size_t)len);
        return set_row(st, s, d, e + len - 1, a, apply);
    }
    copy_days(b, row + d, (size_t)len);
    struct shf_span sp[2] = {{.lo = d, .hi = d + len - 1},
                             {.lo = e, .hi = e + len - 1}};
    const signed char *nv[2] = {a, b};
    return set_spans(st, s, sp, 2, nv, apply);
}

/* Staff t's row, for cover line k (day *d, shift *v) to be taken by an
 * exchange in it; NULL when t works the shift that day already. */
static const signed char *line_row(const struct shf_state *st, int t, int k,
                                   int *d, int *v)
{
    const struct shf_problem *p = st->p;
    const signed char *row =
        SHF_CAT(st, p->o_val, signed char) + (size_t)t * p->ndays;
    *d = k / p->nshifts, *v = k % p->nshifts + 1;
    return row[*d] == *v ? NULL : row;
}

/* Cover line k taken by staff t, which gives the nearest day within
 * SHF_LS_SPAN after (or before) its day that has the shift in exchange. */
static int64_t exchange_to(struct shf_state *st, int t, int k, bool after,
                           bool apply)
{
    const struct shf_problem *p = st->p;
    int d, v;
    const signed char *row = line_row(st, t, k, &d, &v);
    for (int dd = 1; row && dd < SHF_LS_SPAN; dd++) {
        int e = after ? d + dd : d - dd;
        if (e < 0 || e >= p->ndays)
            break;
        if (row[e] == v)
            return after ? exchange(st, t, d, e, 1, apply)
                         : exchange(st, t, e, d, 1, apply);
    }
    return INT64_MAX;
}

/* Far exchanges for a cover line, on a horizon of SHF_LS_FAR_DAYS or more:
 * from one start for every SHF_LS_SPAN days past the first (2 on 84 days,
 * 12 on 364), a block of 1..SHF_LS_FAR_BLOCK days at each place of the
 * line's day in it (SHF_LS_FAR_MOVES in all).  On 42 and 56 days they
 * cost (30 s: Instance14 1415 -> 1482, 16 3560 -> 3764). */
#define SHF_LS_FAR_DAYS (3 * SHF_LS_SPAN)
#define SHF_LS_FAR_BLOCK 3
#define SHF_LS_FAR_MOVES (SHF_LS_FAR_BLOCK * (SHF_LS_FAR_BLOCK + 1) / 2)

static int far_starts(const struct shf_problem *p)
{
    return p->ndays < SHF_LS_FAR_DAYS ? 0 : (p->ndays - 1) / SHF_LS_SPAN;
}

/* Cover line k taken by staff t, which gives in exchange the first day
 * that has the shift from day r x ndays / far_starts on (round the row's
 * end), with the days around both (move m = r x SHF_LS_FAR_MOVES + c: c
 * names the block's length and the line's day's place in it).  Workloads
 * are over the whole horizon, and a roster built day by day spends them
 * early; and a rule on shortest runs bars moving one day into a long run
 * of days off. */
static int64_t exchange_far(struct shf_state *st, int t, int k, int m,
                            bool apply)
{
    const struct shf_problem *p = st->p;
    const int start = m / SHF_LS_FAR_MOVES * p->ndays / far_starts(p);
    int d, v;
    const signed char *row = line_row(st, t, k, &d, &v), *at = NULL;
    if (row && !(at = memchr(row + start, v, (size_t)(p->ndays - start))))
        at = memchr(row, v, (size_t)start);
    if (!at)
        return INT64_MAX;
    int e = (int)(at - row), len = 1, c = m % SHF_LS_FAR_MOVES;
    while (c >= len)
        c -= len++;
    int a = d - c, b = e - c; /* the blocks' first days */
    if (a > b) {
        int x = a;
        a = b;
        b = x;
    }
    if (a < 0 || b < a + len)
        return INT64_MAX;
    return exchange(st, t, a, b, len, apply);
}

static void swap_days(signed char *a, signed char *b, int len)
{
    for (int i = 0; i < len; i++) {
        signed char x = a[i];
        a[i] = b[i];
        b[i] = x;
    }
}

/* Days d..d+len-1 of staff s and t swapped: the change in cost, or
 * INT64_MAX; made when apply (and allowed). */
static int64_t swap_block(struct shf_state *st, int s, int t, int d, int len,
                          bool apply)
{
    const struct shf_problem *p = st->p;
    if (s == t || d + len > p->ndays)
        return INT64_MAX;
    signed char *val = SHF_AT(st, p->o_val, signed char);
    signed char *a = val + shf_cell(p, s, d), *b = val + shf_cell(p, t, d);
    if (same_days(a, b, (size_t)len))
        return INT64_MAX;
    struct shf_span sa = {.lo = d, .hi = d + len - 1, .old = sa.buf},
                    sb = {.lo = d, .hi = d + len - 1, .old = sb.buf};
    sa.weekends = shf_weekends_in(p, a - d, d, d + len);
    sb.weekends = shf_weekends_in(p, b - d, d, d + len);
    copy_days(sa.old, a, (size_t)len);
    copy_days(sb.old, b, (size_t)len);
    swap_days(a, b, len);
    if (!shf_row_keeps(st, s, &sa, 1) || !shf_row_keeps(st, t, &sb, 1)) {
        swap_days(a, b, len);
        return INT64_MAX;
    }
    struct shf_fair_row fair[2];
    int64_t delta = row_count(st, s, &sa, 1, apply, &fair[0]) +
                    row_count(st, t, &sb, 1, apply, &fair[1]);
    delta += shf_fair_change(st, 2, fair, apply);
    if (!apply)
        swap_days(a, b, len);
    return delta;
}

/* The kinds of local variable, in the order of their numbers (above). */
enum ls_kind { LS_VALUE, LS_SWAP, LS_LINE, LS_EXCHANGE, LS_KINDS };

/* How many variables of each kind come before var's (the kinds'
 * starts). */
static int ls_start(const struct shf_problem *p, enum ls_kind kind)
{
    const int ncells = p->nstaff * p->ndays;
    return kind <= LS_LINE ? (int)kind * ncells
                           : 2 * ncells + p->ndays * p->nshifts;
}

/* var's kind, and its number among that kind's variables in *index. */
static enum ls_kind ls_kind(const struct shf_problem *p, int var, int *index)
{
    enum ls_kind kind = LS_VALUE;
    while (kind + 1 < LS_KINDS && var >= ls_start(p, kind + 1))
        kind++;
    *index = var - ls_start(p, kind);
    return kind;
}

static int64_t shf_move(struct shf_state *st, int var, uint64_t move,
                        bool apply)
{
    const struct shf_problem *p = st->p;
    const uint64_t nstaff = (uint64_t)p->nstaff;
    int index, s, d;
    enum ls_kind kind = ls_kind(p, var, &index);
    if (kind == LS_LINE) { /* staff t takes the line's shift */
        int t = (int)(move % nstaff), m = (int)(move / nstaff);
        if (m >= SHF_LS_BLOCK + 2)
            return exchange_far(st, t, index, m - SHF_LS_BLOCK - 2, apply);
        if (m >= SHF_LS_BLOCK)
            return exchange_to(st, t, index, m == SHF_LS_BLOCK, apply);
        return set_block(st, t, index / p->nshifts, m + 1,
                         index % p->nshifts + 1, apply);
    }
    shf_var_cell(p, index, &s, &d);
    if (kind == LS_EXCHANGE) {
        int dd = 1 + (int)(move % (SHF_LS_SPAN - 1));
        int len = 1 + (int)(move / (SHF_LS_SPAN - 1));
        return exchange(st, s, d, d + dd, len, apply);
    }
    if (kind == LS_VALUE)
        return set_block(st, s, d, 1 + (int)(move / (uint64_t)(p->nshifts + 1)),
                         (int)(move % (uint64_t)(p->nshifts + 1)), apply);
    int t = (int)(move % nstaff);
    int len = 1 + (int)(move / nstaff);
    return swap_block(st, s, t, d, len, apply);
}

/* The incumbent as the layer copied it: pins gone but a re-roster's fixed
 * cells (fixed days off and skills are the hooks' own checks), and every
 * counter from the cells. */
bool shf_ls_start(void *state, uint64_t seed, volatile sig_atomic_t *stop)
{
    (void)seed;
    (void)stop;
    struct shf_state *st = state;
    const struct shf_problem *p = st->p;
    const size_t nd = (size_t)p->ndays, nt = (size_t)p->nshifts;
    const signed char *val = SHF_CAT(st, p->o_val, signed char);
    if (p->fixed)
        memcpy(SHF_AT(st, p->o_fix, signed char), p->fixed,
               (size_t)p->nstaff * nd);
    else
        memset(SHF_AT(st, p->o_fix, signed char), -1, (size_t)p->nstaff * nd);
    memset(SHF_AT(st, p->o_have, int32_t), 0, nd * nt * sizeof(int32_t));
    memset(SHF_AT(st, p->o_able, int32_t), 0, nd * nt * sizeof(int32_t));
    memset(SHF_AT(st, p->o_open, int32_t), 0, nd * sizeof(int32_t));
    memset(SHF_AT(st, p->o_daylb, int64_t), 0, nd * sizeof(int64_t));
    memset(SHF_AT(st, p->o_count, int32_t), 0,
           (size_t)p->nstaff * nt * sizeof(int32_t));
    st->requests = st->cover = 0;
    for (int s = 0; s < p->nstaff; s++) {
        const signed char *row = val + (size_t)s * nd;
        int32_t minutes = 0;
        for (int d = 0; d < p->ndays; d++) {
            int v = row[d];
            st->requests += shf_req_cost(p, (size_t)shf_cell(p, s, d), v);
            if (!v)
                continue;
            SHF_AT(st, p->o_have, int32_t)[d * p->nshifts + v - 1]++;
            SHF_AT(st, p->o_count, int32_t)[s * p->nshifts + v - 1]++;
            minutes += p->minutes[v - 1];
        }
        SHF_AT(st, p->o_minutes, int32_t)[s] = minutes;
        int32_t *worked = SHF_AT(st, p->o_weekends, int32_t) + s;
        *worked = shf_weekends_in(p, row, 0, p->ndays - 1);
    }
    for (int d = 0; d < p->ndays; d++)
        shf_refresh_day(st, d);
    memset(SHF_AT(st, p->o_short_at, int32_t), -1, nd * nt * sizeof(int32_t));
    st->nshort = 0;
    for (int k = 0; k < p->ndays * p->nshifts; k++)
        short_line(st, k);
    shf_fair_recount(st);
    return true;
}

uint64_t shf_ls_cost(const void *state)
{
    const struct shf_state *st = state;
    return (uint64_t)(st->requests + st->cover + st->fair);
}

/* A cell at random, for a new value, a swap or an exchange in its row (one
 * in three each); or, one pick in three, a cover line short of staff, at
 * random from the list of them (o_short), for one of them to take its
 * shift.  None once the roster costs nothing. */
int shf_ls_pick(void *state, uint64_t random)
{
    const struct shf_state *st = state;
    const struct shf_problem *p = st->p;
    const uint64_t ncells = (uint64_t)p->nstaff * (uint64_t)p->ndays;
    if (!shf_ls_cost(state))
        return CS_NONE;
    if (random % 3 == 0 && st->nshort) {
        uint64_t i = (random >> 32) * (uint64_t)st->nshort >> 32;
        return ls_start(p, LS_LINE) + SHF_CAT(st, p->o_short, int32_t)[i];
    }
    random /= 3;
    static const enum ls_kind cell_kinds[] = {LS_VALUE, LS_SWAP, LS_EXCHANGE};
    return ls_start(p, cell_kinds[random % 3]) + (int)((random / 3) % ncells);
}

uint64_t shf_ls_moves(const void *state, int var)
{
    const struct shf_problem *p = ((const struct shf_state *)state)->p;
    int index;
    switch (ls_kind(p, var, &index)) {
    case LS_VALUE:
        return ((uint64_t)p->nshifts + 1) * SHF_LS_BLOCK;
    case LS_SWAP:
        return (uint64_t)p->nstaff * SHF_LS_BLOCK;
    case LS_LINE:
        return (uint64_t)p->nstaff *
               (SHF_LS_BLOCK + 2 + SHF_LS_FAR_MOVES * far_starts(p));
    default:
        return (SHF_LS_SPAN - 1) * SHF_LS_BLOCK;
    }
}

int64_t shf_ls_delta(void *state, int var, uint64_t move)
{
    return shf_move(state, var, move, false);
}

void shf_ls_apply(void *state, int var, uint64_t move)
{
    shf_move(state, var, move, true);
}

/* The row move: a window of SHF_ROW_DAYS days (the whole row on shorter
 * horizons) of a staff member's row, both drawn from random, re-solved as
 * a whole (rowbest.c) and made when it costs no more. */
int64_t shf_ls_large(void *state, uint64_t random)
{
    struct shf_state *st = state;
    const struct shf_problem *p = st->p;
    int s = (int)(random % (uint64_t)p->nstaff);
    int len = p->ndays < SHF_ROW_DAYS ? p->ndays : SHF_ROW_DAYS;
    int lo =
        (int)(random / (uint64_t)p->nstaff % (uint64_t)(p->ndays - len + 1));
    signed char nv[SHF_MAX_DAYS], old[SHF_MAX_DAYS];
    if (!shf_row_best(st, s, lo, lo + len - 1, nv))
        return INT64_MAX;
    struct shf_span sp = {.lo = lo, .hi = lo + len - 1, .old = old};
    const signed char *v = nv;
    int64_t delta = set_spans(st, s, &sp, 1, &v, false);
    if (delta == INT64_MAX || delta > 0)
        return INT64_MAX;
    return set_spans(st, s, &sp, 1, &v, true);
}
