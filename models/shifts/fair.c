/* shifts/fair.c - params.fairness: nights and weekends balanced within
 * each contract group, as soft rules.
 *
 * A contract group is the staff with the same limits on minutes, runs,
 * days off and weekends (the benchmark's format names no contracts; the
 * limits per shift type say what one may work, not the contract).  A
 * group's penalty for a count n_s (nights, or weekends worked) is the
 * weight times sum (n_s - mean)^2 = (k sum n^2 - (sum n)^2) / k, rounded
 * down: a function of k, sum n and sum n^2, so a move that changes two
 * rows' counts changes it in O(1).  Nights are balanced only among the
 * members who may work a night shift at all.
 */
#include <ctype.h>
#include <stdlib.h>

#include "shifts/search.h"

/* Night shifts: those whose id begins with N or n (the benchmark's N, n1,
 * n2 ...); without one, the latest shifts, after which the most shift
 * types are barred the next day (L in Instance7); none when no shift bars
 * any. */
static uint64_t night_shifts(const struct shf_problem *p)
{
    uint64_t named = 0, latest = 0;
    int most = 0;
    for (int t = 0; t < p->nshifts; t++) {
        if (toupper((unsigned char)p->shift_id[t][0]) == 'N')
            named |= UINT64_C(1) << t;
        int barred = __builtin_popcountll(p->no_next[t]);
        if (barred > most) {
            most = barred;
            latest = 0;
        }
        if (barred && barred == most)
            latest |= UINT64_C(1) << t;
    }
    return named ? named : latest;
}

static bool same_contract(const struct shf_problem *p, int a, int b)
{
    return p->min_minutes[a] == p->min_minutes[b] &&
           p->max_minutes[a] == p->max_minutes[b] &&
           p->min_cons[a] == p->min_cons[b] &&
           p->max_cons[a] == p->max_cons[b] && p->min_off[a] == p->min_off[b] &&
           p->max_weekends[a] == p->max_weekends[b];
}

static bool may_work_nights(const struct shf_problem *p, int s)
{
    for (int t = 0; t < p->nshifts; t++) {
        int skill = p->shift_skill[t];
        if ((p->fair.nights >> t & 1) && p->max_count[s * p->nshifts + t] &&
            (skill < 0 || (p->skills[s] >> skill & 1)))
            return true;
    }
    return false;
}

void shf_fair_setup(struct shf_problem *p)
{
    struct shf_fair *f = &p->fair;
    size_t n = (size_t)p->nstaff;
    f->nights = night_shifts(p);
    f->group = cs_xmalloc(n * sizeof *f->group);
    f->night_group = cs_xmalloc(n * sizeof *f->night_group);
    f->size = cs_xcalloc(n, sizeof *f->size);
    f->night_size = cs_xcalloc(n, sizeof *f->night_size);
    int *first = cs_xmalloc(n * sizeof *first); /* a member of each group */
    f->ngroups = 0;
    for (int s = 0; s < p->nstaff; s++) {
        int g = 0;
        while (g < f->ngroups && !same_contract(p, first[g], s))
            g++;
        if (g == f->ngroups)
            first[f->ngroups++] = s;
        f->group[s] = g;
        f->size[g]++;
        f->night_group[s] = may_work_nights(p, s) ? g : -1;
        f->night_size[g] += f->night_group[s] >= 0;
    }
    free(first);
}

void shf_tallies(const struct shf_problem *p, const signed char *roster,
                 int *nights, int *weekends)
{
    for (int s = 0; s < p->nstaff; s++) {
        const signed char *row = roster + (size_t)s * (size_t)p->ndays;
        nights[s] = weekends[s] = 0;
        for (int d = 0; d < p->ndays; d++) {
            if (row[d] <= 0)
                continue;
            nights[s] += shf_night(p, row[d]);
            bool sunday_after_saturday =
                (p->weekday0 + d) % 7 == SHF_SUNDAY && d > 0 && row[d - 1] > 0;
            weekends[s] += shf_weekend_day(p, d) && !sunday_after_saturday;
        }
    }
}

void shf_fair_penalties(const struct shf_problem *p, const int *nights,
                        const int *weekends, int64_t *pn, int64_t *pw)
{
    const struct shf_fair *f = &p->fair;
    *pn = *pw = 0;
    for (int g = 0; g < f->ngroups; g++) {
        int64_t sn = 0, qn = 0, sw = 0, qw = 0;
        for (int s = 0; s < p->nstaff; s++) {
            if (f->group[s] != g)
                continue;
            sw += weekends[s];
            qw += (int64_t)weekends[s] * weekends[s];
            if (f->night_group[s] < 0)
                continue;
            sn += nights[s];
            qn += (int64_t)nights[s] * nights[s];
        }
        *pn += shf_fair_group(f->night_size[g], sn, qn, f->nights_weight);
        *pw += shf_fair_group(f->size[g], sw, qw, f->weekends_weight);
    }
}

/* ---- in the search state ------------------------------------------------ */

int shf_state_nights(const struct shf_state *st, int s)
{
    const struct shf_problem *p = st->p;
    const int32_t *count = SHF_CAT(st, p->o_count, int32_t) + s * p->nshifts;
    int n = 0;
    for (uint64_t m = p->fair.nights; m; m &= m - 1)
        n += count[__builtin_ctzll(m)];
    return n;
}

/* The sums of group g (o_fair: n, sum and sum of squares, for nights and
 * then weekends, four int64 a group). */
static int64_t *sums(struct shf_state *st, int g)
{
    return SHF_AT(st, st->p->o_fair, int64_t) + 4 * (size_t)g;
}

static int64_t group_cost(const struct shf_problem *p, const int64_t *sum,
                          int g)
{
    return shf_fair_group(p->fair.night_size[g], sum[0], sum[1],
                          p->fair.nights_weight) +
           shf_fair_group(p->fair.size[g], sum[2], sum[3],
                          p->fair.weekends_weight);
}

void shf_fair_recount(struct shf_state *st)
{
    const struct shf_problem *p = st->p;
    st->fair = 0;
    if (!shf_fair_on(p))
        return;
    for (int g = 0; g < p->fair.ngroups; g++)
        for (int i = 0; i < 4; i++)
            sums(st, g)[i] = 0;
    for (int s = 0; s < p->nstaff; s++) {
        int64_t *sum = sums(st, p->fair.group[s]);
        int64_t n = shf_state_nights(st, s),
                w = SHF_CAT(st, p->o_weekends, int32_t)[s];
        if (p->fair.night_group[s] >= 0) {
            sum[0] += n;
            sum[1] += n * n;
        }
        sum[2] += w;
        sum[3] += w * w;
    }
    for (int g = 0; g < p->fair.ngroups; g++)
        st->fair += group_cost(p, sums(st, g), g);
}

/* The tree keeps no sums: at a full roster the cost hook makes them from
 * the counters, which a local search state keeps too (so they come out as
 * that state has them already). */
int64_t shf_fair_of(const struct shf_state *st)
{
    if (!shf_fair_on(st->p))
        return 0;
    struct shf_state *scratch = (struct shf_state *)st;
    shf_fair_recount(scratch);
    return st->fair;
}

int64_t shf_fair_change(struct shf_state *st, int n,
                        const struct shf_fair_row *rows, bool apply)
{
    const struct shf_problem *p = st->p;
    if (!shf_fair_on(p))
        return 0;
    int64_t delta = 0;
    int64_t new_sums[2][4];
    for (int i = 0; i < n; i++) {
        int g = p->fair.group[rows[i].staff];
        if (i == 1 && g == p->fair.group[rows[0].staff])
            continue; /* both rows in one group: done with the first */
        int64_t *now = new_sums[i];
        for (int j = 0; j < 4; j++)
            now[j] = sums(st, g)[j];
        for (int k = i; k < n; k++) {
            int s = rows[k].staff;
            if (p->fair.group[s] != g)
                continue;
            int64_t w = rows[k].weekends, dw = rows[k].dweekends;
            now[2] += dw;
            now[3] += (w + dw) * (w + dw) - w * w;
            if (p->fair.night_group[s] < 0)
                continue;
            int64_t m = rows[k].nights, dm = rows[k].dnights;
            now[0] += dm;
            now[1] += (m + dm) * (m + dm) - m * m;
        }
        delta += group_cost(p, now, g) - group_cost(p, sums(st, g), g);
        if (apply)
            for (int j = 0; j < 4; j++)
                sums(st, g)[j] = now[j];
    }
    if (apply)
        st->fair += delta;
    return delta;
}
