/* shifts/lookahead.c - prune's look-ahead: can a row still reach its minutes?
 *
 * Two dynamic programs over the days left of one staff member's row, in the
 * state's scratch (o_dp): the most days it can still work, by the rules of
 * runs and weekends, and the most minutes, by runs and rotation.  Each
 * leaves rules out, so each is an upper bound: pruning on it is safe.
 */
#include "shifts/search.h"

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
    int run = SHF_CAT(st, p->o_run, int32_t)[s];
    r.left = p->ndays - from;
    r.len = run & ~SHF_RUN_FROM0;
    r.from0 = run & SHF_RUN_FROM0;
    r.last = SHF_CAT(st, p->o_val, signed char)[shf_cell(p, s, from - 1)];
    r.capped = p->max_cons[s] <= r.len + r.left;
    r.kcap = r.capped                      ? p->max_cons[s]
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

/* A program's step into state i of the next layer: keep the most. */
static inline void keep_max_days(int *nxt, int n, int w, int i, int v)
{
    int *slot = &nxt[w * n + i];
    if (v > *slot)
        *slot = v;
}

static inline void keep_max_minutes(int64_t *nxt, int i, int64_t v)
{
    if (v > nxt[i])
        nxt[i] = v;
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
int shf_max_days_left(struct shf_state *st, int s, int from)
{
    const struct shf_problem *p = st->p;
    struct row r = row_at(st, s, from);
    const int left = r.left, len = r.len, kcap = r.kcap, mcons = r.mcons,
              ocap = r.ocap, max_cons = p->max_cons[s];
    const bool from0 = r.from0, capped = r.capped, working = r.last > 0;
    /* weekends still allowed, no more than there are left */
    int wk = p->max_weekends[s] - SHF_CAT(st, p->o_weekends, int32_t)[s];
    int wk_ahead = (left + 8) / 7 + 1;
    if (wk > wk_ahead)
        wk = wk_ahead;
    if (wk < 0)
        wk = 0;
    /* states: 1..kcap worked (W), kcap+1..2kcap exempt (E), then free (O) */
    int n = 2 * kcap + ocap + 1, span = n * (wk + 1);
    int *cur = SHF_AT(st, p->o_dp, int32_t), *nxt = cur + span;
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
        for (int w = 0; w <= wk; w++) {
            const int *c = cur + w * n;
            for (int i = 1; i < n; i++) {
                int v = c[i];
                if (v < 0)
                    continue;
                bool worked = i <= 2 * kcap;
                /* working a Saturday, or a Sunday after a free Saturday
                 * (yesterday's state says), opens a weekend */
                int cost = wday == SHF_SATURDAY ? 1
                           : wday == SHF_SUNDAY ? !worked
                                                : 0;
                bool can_work = may_work && w >= cost;
                if (worked) {
                    int k = i <= kcap ? i : i - E, base = i <= kcap ? 0 : E;
                    bool exempt = i > kcap;
                    if (can_work && (!capped || k < max_cons))
                        keep_max_days(nxt, n, w - cost,
                                      base + (k < kcap ? k + 1 : kcap), v + 1);
                    if (exempt || k >= mcons)
                        keep_max_days(nxt, n, w, O + (1 < ocap ? 1 : ocap), v);
                } else {
                    int j = i - O;
                    keep_max_days(nxt, n, w, O + (j < ocap ? j + 1 : ocap), v);
                    if (can_work && j == ocap)
                        keep_max_days(nxt, n, w - cost, 1, v + 1);
                }
            }
        }
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
int64_t shf_max_minutes_left(struct shf_state *st, int s, int from)
{
    const struct shf_problem *p = st->p;
    struct row r = row_at(st, s, from);
    const int T = p->nshifts, len = r.len, kcap = r.kcap, mcons = r.mcons,
              ocap = r.ocap, max_cons = p->max_cons[s], last = r.last;
    const bool from0 = r.from0, capped = r.capped;
    /* worked states (k, t, exempt) at ((x * kcap + k - 1) * T + t), then
     * free states j at 2 * kcap * T + j - 1 */
    const int O = 2 * kcap * T, n = O + ocap;
    int64_t *cur = SHF_AT(st, p->o_dp, int64_t), *nxt = cur + n;
    uint64_t usable = 0;
    const int32_t *count = SHF_CAT(st, p->o_count, int32_t) + s * T;
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
        for (int x = 0; x < 2; x++)
            for (int k = 1; k <= kcap; k++) {
                int nk = k < kcap ? k + 1 : kcap;
                bool more = may_work && (!capped || k < max_cons);
                for (int t = 0; t < T; t++) {
                    int64_t v = cur[((x * kcap) + k - 1) * T + t];
                    if (v < 0)
                        continue;
                    if (x || k >= mcons)
                        keep_max_minutes(nxt, O + (1 < ocap ? 1 : ocap) - 1, v);
                    if (!more)
                        continue;
                    for (uint64_t m = usable & ~p->no_next[t]; m; m &= m - 1) {
                        int u = __builtin_ctzll(m);
                        keep_max_minutes(nxt, ((x * kcap) + nk - 1) * T + u,
                                         v + p->minutes[u]);
                    }
                }
            }
        for (int j = 1; j <= ocap; j++) {
            int64_t v = cur[O + j - 1];
            if (v < 0)
                continue;
            keep_max_minutes(nxt, O + (j < ocap ? j + 1 : ocap) - 1, v);
            if (may_work && j == ocap)
                for (uint64_t m = usable; m; m &= m - 1) {
                    int u = __builtin_ctzll(m);
                    keep_max_minutes(nxt, u, v + p->minutes[u]);
                }
        }
        int64_t *t = cur;
        cur = nxt;
        nxt = t;
    }
    int64_t best = -1;
    for (int i = 0; i < n; i++)
        best = cur[i] > best ? cur[i] : best;
    return best;
}
