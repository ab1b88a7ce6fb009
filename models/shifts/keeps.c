/* shifts/keeps.c - does a row a local move changed keep every hard rule?
 * Checked around the move's windows only (search.h, struct shf_span), from
 * the row's counters and the windows' old values, so that a move costs
 * what its days do, not what the row does.
 */
#include "shifts/search.h"

static bool same_kind(int a, int b)
{
    return (a > 0) == (b > 0);
}

/* Do the runs of worked and free days around days lo..hi of row s keep
 * their limits?  (Runs touching the first or last day are exempt from the
 * minimums, as in the checker.) */
static bool runs_keep(const struct shf_problem *p, const signed char *row,
                      int s, int lo, int hi)
{
    int a = lo > 0 ? lo - 1 : 0, b = hi + 1 < p->ndays ? hi + 1 : hi;
    while (a > 0 && same_kind(row[a - 1], row[a]))
        a--;
    while (b + 1 < p->ndays && same_kind(row[b + 1], row[b]))
        b++;
    int start = a;
    for (int d = a + 1; d <= b + 1; d++) {
        if (d <= b && same_kind(row[d], row[start]))
            continue;
        int len = d - start;
        bool inner = start > 0 && d < p->ndays;
        if (row[start] > 0 &&
            (len > p->max_cons[s] || (inner && len < p->min_cons[s])))
            return false;
        if (row[start] == 0 && inner && len < p->min_off[s])
            return false;
        start = d;
    }
    return true;
}

/* Row s, its windows sp[0..n-1] now new: does it keep every hard rule?
 * The partners' rows must hold their new values already. */
bool shf_row_keeps(const struct shf_state *st, int s, const struct shf_span *sp,
                   int n)
{
    const struct shf_problem *p = st->p;
    const signed char *val = SHF_CAT(st, p->o_val, signed char);
    const signed char *row = val + (size_t)s * p->ndays;
    const int32_t *count = SHF_CAT(st, p->o_count, int32_t) + s * p->nshifts;
    int minutes = SHF_CAT(st, p->o_minutes, int32_t)[s];
    int w = SHF_CAT(st, p->o_weekends, int32_t)[s];
    for (int i = 0; i < n; i++)
        w += shf_weekends_in(p, row, sp[i].lo, sp[i].hi + 1) - sp[i].weekends;
    if (w > p->max_weekends[s])
        return false;
    /* shifts of each type gained (index v: shift v; 0 unused), set for
     * the values the windows hold only (a whole array's zeroing cost more
     * than the windows' look) */
    int gain[SHF_MAX_SHIFTS + 1];
    bool gained = false;
    for (int i = 0; i < n; i++)
        for (int d = sp[i].lo; d <= sp[i].hi; d++)
            gain[row[d]] = gain[sp[i].old[d - sp[i].lo]] = 0;
    for (int i = 0; i < n; i++)
        for (int d = sp[i].lo; d <= sp[i].hi; d++) {
            int v = row[d], o = sp[i].old[d - sp[i].lo];
            if (v == o)
                continue;
            minutes +=
                (v ? p->minutes[v - 1] : 0) - (o ? p->minutes[o - 1] : 0);
            gain[o]--;
            if (!shf_able(st, s, d, v)) /* a fixed cell: not even off */
                return false;
            if (!v)
                continue;
            if (++gain[v] > 0)
                gained = true;
            for (int k = p->partner_start[s]; k < p->partner_start[s + 1]; k++)
                if (val[shf_cell(p, p->partners[k], d)] == v)
                    return false;
        }
    if (minutes < p->min_minutes[s] || minutes > p->max_minutes[s])
        return false;
    /* an exchange gains none */
    for (int i = 0; gained && i < n; i++)
        for (int d = sp[i].lo; d <= sp[i].hi; d++) {
            int v = row[d];
            if (v && gain[v] > 0 &&
                count[v - 1] + gain[v] > p->max_count[s * p->nshifts + v - 1])
                return false;
        }
    for (int i = 0; i < n; i++) {
        int lo = sp[i].lo, hi = sp[i].hi;
        int last = hi + 1 < p->ndays ? hi + 1 : hi;
        for (int d = lo > 0 ? lo : 1; d <= last; d++)
            if (row[d - 1] > 0 && row[d] > 0 &&
                (p->no_next[row[d - 1] - 1] >> (row[d] - 1) & 1))
                return false;
        if (!runs_keep(p, row, s, lo, hi))
            return false;
    }
    return true;
}
