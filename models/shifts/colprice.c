/* shifts/colprice.c - the column generation's pricing: one staff member's
 * cheapest legal row, over the whole horizon, under prices on the cover.
 *
 * A forward shortest path through the row's states, one step a day, as the
 * row move's (rowbest.c): the class of the last value, the length of the
 * run it ends (capped where the rules stop telling lengths apart), whether
 * that run began on day 0, the minutes worked (in levels; saturated at the
 * least once the most cannot bind), the weekends started, and the count of
 * each per-shift limit that can bind, up to PR_TRACK of them.  Every hard
 * rule of one row is then a rule of one step or of the end (runs touching
 * either end exempt from the minimums), so the path is the cheapest legal
 * row, exactly.  Pairs kept apart tie two rows and are left out; a staff
 * member with more binding limits than tracked keeps the tightest.  Both
 * admit more rows and only lower the bound; shf_pricer_exact says which.
 *
 * Of rows of the same value the pricer returns the one least by the sum of
 * value x days left (value 0 off, t + 1 shift t): days off and low shifts
 * first, early days weighing most.  A rule, not the order paths are met,
 * so the pruning below leaves the row as it is (short of equal keys), and the
 * branch and price's trees depend on it: Instance7's proof took 263 nodes with
 * it, 969 (not closed) with the order met (Zen 5, `shifts_lp 10 -i 10 -b 60 -t
 * 1`).
 *
 * Two passes, the answer the same: a narrow one (PR_BEAM paths a day, the
 * most promising) for a legal row, then the whole path, which drops every
 * path whose cost and completion bound (the larger of two tables, one over
 * minutes and weekends alone, one over the run rules alone) pass that row's
 * value or the last row's.  Instance8's LP on one thread, Zen 4: 3.73 s
 * against 8.04 s with the whole path alone.
 *
 * The per-shift limits multiply the states (Instance14: E and L at most 21
 * of 42 days, N 5, each count a factor of 6-22), and the cheapest row
 * seldom reaches them.  So the passes first leave every limit out: a row
 * within them all is the cheapest of the rows that keep them too, and is
 * the answer; else they run again counting the limits that row broke, and
 * so on.  The LP on one thread, Zen 5 (`shifts_lp 60 -t 1`): Instance14
 * 4.99 s against 26.62 s counting them all, Instance8 1.18 s against 4.02 s.
 * Which of equal rows comes out may differ (the key below is not one to
 * one), so the LP's rounds do too.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/engine.h"
#include "shifts/colgen.h"

/* per-shift limits a state counts, and its states a day at most */
#define PR_TRACK 4
#define PR_STATES (1u << 23)
/* entries of the completion bound's table at most (8 bytes each) */
#define PR_BACK ((size_t)1 << 18)
/* paths a day the narrow pass keeps */
#define PR_BEAM 256

struct node {
    double cost;
    int32_t pred; /* the node before, as an index into the day before */
    int32_t tie;  /* the tie rule's key: the sum of value x days left */
    int16_t minutes;
    signed char last, len, from0, weekends, v;
    unsigned char count[PR_TRACK];
};

struct shf_pricer {
    const struct shf_problem *p;
    int s, runs, need, lev, wk, ntrack;
    bool saturate, count_weekends, exact;
    int track[PR_TRACK], most[PR_TRACK]; /* the limits a pass counts */
    int limit[PR_TRACK], limit_most[PR_TRACK], nlimits; /* all it may */
    size_t size;           /* states a day, the table's index space */
    int *maxrest;          /* ndays + 1: most levels days d.. can add */
    double *cost;          /* ndays x (nshifts + 1); INFINITY: not allowed */
    const uint64_t *allow; /* ndays: the values a branch leaves (NULL: all) */
    double *back; /* (ndays + 1) x bw: the completion bound, NULL: too large */
    int bw;       /* (lev + 1) x (wk + 1) x 2 */
    double *runback; /* (ndays + 1) x rw: the run rules' completion bound */
    int rw;          /* (nclasses + 2) x runs x 2, with back only */
    signed char *last_row; /* ndays: the row last returned */
    bool have_last;
    signed char *cand; /* ndays x (nshifts + 1): values worth a try */
    int *ncand;
    size_t *first; /* ndays + 2: each day's first path in the tables */
};

/* A thread's scratch: every path of the forward pass (each day's after the
 * last), the narrow pass's keys and the index from a state to its path on
 * the day being built (clean between days).  Shared by the pricers one thread
 * runs and kept at its largest: memory grows with the threads, not the
 * staff (a table per staff member, each keeping a year's paths, took 7.7
 * GB on Instance13), and a row's paths go where the last row's were,
 * mapped and in cache.  Given back after each row, Instance14's grew anew
 * every time, a third of its LP in page faults and copies: 31.41-35.57 s
 * on two threads against 15.75-16.35 s (Zen 5). */
struct shf_price_tables {
    struct node *nodes;
    size_t nodes_cap;
    double *keys;
    size_t keys_cap;
    int32_t *pos; /* a state's node on the day being built, -1: none yet */
    size_t pos_cap;
};

struct shf_price_tables *shf_price_tables_new(void)
{
    struct shf_price_tables *tb = cs_xcalloc(1, sizeof *tb);
    tb->nodes_cap = 4096;
    tb->nodes = cs_xmalloc(tb->nodes_cap * sizeof *tb->nodes);
    return tb;
}

void shf_price_tables_free(struct shf_price_tables *tb)
{
    if (!tb)
        return;
    free(tb->nodes);
    free(tb->keys);
    free(tb->pos);
    free(tb);
}

/* May staff s take shift t on day d at all (day off, skill, limit 0)? */
static bool allowed(const struct shf_problem *p, int s, int d, int t)
{
    int skill = p->shift_skill[t];
    return !p->day_off[shf_cell(p, s, d)] && p->max_count[s * p->nshifts + t] &&
           (skill < 0 || (p->skills[s] >> skill & 1));
}

/* The limits on shift types that can bind, tightest first, as many as
 * fit PR_TRACK and the states' cap (base: the states without them). */
static void track_limits(struct shf_pricer *pr, size_t base)
{
    const struct shf_problem *p = pr->p;
    const int s = pr->s;
    int binding[SHF_MAX_SHIFTS], n = 0;
    for (int t = 0; t < p->nshifts; t++) {
        int most = p->max_count[s * p->nshifts + t], days = 0;
        for (int d = 0; d < p->ndays; d++)
            days += allowed(p, s, d, t);
        int by_minutes = p->max_minutes[s] / p->minutes[t];
        if (most > 0 && most < days && most < by_minutes)
            binding[n++] = t;
    }
    for (int i = 1; i < n; i++) /* insertion sort by limit */
        for (int j = i;
             j > 0 && p->max_count[s * p->nshifts + binding[j]] <
                          p->max_count[s * p->nshifts + binding[j - 1]];
             j--) {
            int t = binding[j];
            binding[j] = binding[j - 1];
            binding[j - 1] = t;
        }
    pr->ntrack = 0;
    pr->size = base;
    for (int i = 0; i < n && pr->ntrack < PR_TRACK; i++) {
        int most = p->max_count[s * p->nshifts + binding[i]];
        if (most > 255 || pr->size * (size_t)(most + 1) > PR_STATES)
            break;
        pr->limit[pr->ntrack] = binding[i];
        pr->limit_most[pr->ntrack++] = most;
        pr->size *= (size_t)(most + 1);
    }
    pr->nlimits = pr->ntrack;
    pr->exact = pr->exact && pr->ntrack == n;
}

struct shf_pricer *shf_pricer_new(const struct shf_problem *p, int s)
{
    struct shf_pricer *pr = cs_xcalloc(1, sizeof *pr);
    const int n = p->ndays, nv = p->nshifts + 1;
    pr->p = p;
    pr->s = s;
    pr->exact = p->partner_start[s] == p->partner_start[s + 1];
    pr->maxrest = cs_xcalloc((size_t)n + 1, sizeof *pr->maxrest);
    for (int d = n - 1; d >= 0; d--) {
        int most = 0;
        for (int t = 0; t < p->nshifts; t++)
            if (allowed(p, s, d, t) && p->level[t] > most)
                most = p->level[t];
        pr->maxrest[d] = pr->maxrest[d + 1] + most;
    }
    /* runs: tracked up to the longest limit that can matter */
    int runs = p->min_cons[s] > p->min_off[s] ? p->min_cons[s] : p->min_off[s];
    if (p->max_cons[s] < SHF_UNLIMITED && p->max_cons[s] > runs)
        runs = p->max_cons[s];
    pr->runs = runs < 1 ? 1 : runs > n ? n : runs;
    const int unit = p->level_unit;
    int64_t least = p->min_minutes[s] > 0 ? p->min_minutes[s] : 0;
    pr->need = (int)((least + unit - 1) / unit);
    int64_t most = p->max_minutes[s] / unit;
    pr->saturate = most >= pr->maxrest[0];
    pr->lev = pr->saturate ? pr->need : (int)most;
    int weekends = 0;
    for (int d = 0; d < n; d++)
        weekends += shf_weekend_day(p, d) &&
                    (d == 0 || (p->weekday0 + d) % 7 == SHF_SATURDAY);
    pr->count_weekends = p->max_weekends[s] < weekends;
    pr->wk = pr->count_weekends ? p->max_weekends[s] : 0;
    double base =
        (double)(p->nclasses + 2) * pr->runs * 2 * (pr->lev + 1) * (pr->wk + 1);
    if (base > PR_STATES || pr->lev > INT16_MAX) {
        shf_pricer_free(pr);
        return NULL;
    }
    track_limits(pr, (size_t)base);
    pr->cost = cs_xmalloc((size_t)n * nv * sizeof *pr->cost);
    pr->cand = cs_xmalloc((size_t)n * nv);
    pr->ncand = cs_xmalloc((size_t)n * sizeof *pr->ncand);
    pr->first = cs_xmalloc(((size_t)n + 2) * sizeof *pr->first);
    const size_t bw = ((size_t)pr->lev + 1) * ((size_t)pr->wk + 1) * 2;
    if (((size_t)n + 1) * bw <= PR_BACK) {
        pr->bw = (int)bw;
        pr->back = cs_xmalloc(((size_t)n + 1) * bw * sizeof *pr->back);
        pr->rw = (p->nclasses + 2) * pr->runs * 2;
        pr->runback =
            cs_xmalloc(((size_t)n + 1) * (size_t)pr->rw * sizeof *pr->runback);
    }
    pr->last_row = cs_xmalloc((size_t)n);
    return pr;
}

void shf_pricer_free(struct shf_pricer *pr)
{
    if (!pr)
        return;
    free(pr->maxrest);
    free(pr->cost);
    free(pr->cand);
    free(pr->ncand);
    free(pr->first);
    free(pr->back);
    free(pr->runback);
    free(pr->last_row);
    free(pr);
}

bool shf_pricer_exact(const struct shf_pricer *pr)
{
    return pr->exact;
}

void shf_pricer_plain(struct shf_pricer *pr)
{
    free(pr->back);
    free(pr->runback);
    pr->back = NULL;
    pr->runback = NULL;
}

void shf_pricer_allow(struct shf_pricer *pr, const uint64_t *allow)
{
    pr->allow = allow;
}

/* Does the state count shift t? */
static bool is_tracked(const struct shf_pricer *pr, int t)
{
    for (int j = 0; j < pr->ntrack; j++)
        if (pr->track[j] == t)
            return true;
    return false;
}

/* Each day's cost of each value under lambda, and the values worth trying:
 * of shifts that follow the same classes, lead to the same state and are
 * not counted, only the cheapest. */
static void price(struct shf_pricer *pr, const double *lambda)
{
    const struct shf_problem *p = pr->p;
    const int s = pr->s, nv = p->nshifts + 1;
    for (int d = 0; d < p->ndays; d++) {
        const size_t c = (size_t)shf_cell(p, s, d);
        double *cost = pr->cost + (size_t)d * nv;
        const uint64_t allow = pr->allow ? pr->allow[d] : ~(uint64_t)0;
        cost[0] = allow & 1 ? shf_req_cost(p, c, 0) : INFINITY;
        for (int t = 0; t < p->nshifts; t++)
            cost[t + 1] =
                allowed(p, s, d, t) && (allow >> (t + 1) & 1)
                    ? shf_req_cost(p, c, t + 1) - lambda[d * p->nshifts + t]
                    : INFINITY;
        signed char *cand = pr->cand + (size_t)d * nv;
        int n = 0;
        if (cost[0] < INFINITY)
            cand[n++] = 0;
        for (int v = 1; v < nv; v++) {
            if (cost[v] == INFINITY)
                continue;
            bool counted = is_tracked(pr, v - 1);
            int j = cost[0] < INFINITY; /* past the day off */
            while (!counted && j < n &&
                   !(p->shift_class[cand[j] - 1] == p->shift_class[v - 1] &&
                     p->level[cand[j] - 1] == p->level[v - 1] &&
                     p->banned_after[cand[j] - 1] == p->banned_after[v - 1] &&
                     !is_tracked(pr, cand[j] - 1)))
                j++;
            if (counted || j == n)
                cand[n++] = (signed char)v;
            else if (cost[v] < cost[cand[j]])
                cand[j] = (signed char)v;
        }
        pr->ncand[d] = n;
    }
}

/* The state after value v on day d from state r; false if a rule forbids
 * it (the same rules as rowbest.c's step, over the whole row). */
static bool step(const struct shf_pricer *pr, int d, const struct node *r,
                 int v, struct node *out)
{
    const struct shf_problem *p = pr->p;
    const int s = pr->s;
    bool same = d > 0 && (r->last > 0) == (v > 0);
    *out = *r;
    out->len =
        (signed char)(same ? (r->len < pr->runs ? r->len + 1 : pr->runs) : 1);
    out->from0 = d == 0 || (same && r->from0);
    out->last = (signed char)(v ? p->shift_class[v - 1] : 0);
    if (!v)
        return !(r->last > 0 && !r->from0 && r->len < p->min_cons[s]);
    if (r->last > 0 && ((p->class_no_next[r->last] >> (v - 1) & 1) ||
                        r->len >= p->max_cons[s]))
        return false;
    if (r->last == 0 && !r->from0 && r->len < p->min_off[s])
        return false;
    for (int j = 0; j < pr->ntrack; j++)
        if (pr->track[j] == v - 1 && ++out->count[j] > pr->most[j])
            return false;
    int minutes = r->minutes + p->level[v - 1];
    if (minutes + pr->maxrest[d + 1] < pr->need)
        return false;
    if (minutes > pr->lev) {
        if (!pr->saturate)
            return false;
        minutes = pr->lev;
    }
    out->minutes = (int16_t)minutes;
    if (!pr->count_weekends)
        return true;
    out->weekends += shf_weekend_day(p, d) &&
                     !((p->weekday0 + d) % 7 == SHF_SUNDAY && r->last > 0);
    return out->weekends <= pr->wk;
}

/* A state's index in the day's table. */
static size_t index_of(const struct shf_pricer *pr, const struct node *r)
{
    size_t i = (size_t)(r->last + 1) * (size_t)pr->runs + (size_t)(r->len - 1);
    i = (i * 2 + (size_t)r->from0) * (size_t)(pr->lev + 1) + (size_t)r->minutes;
    i = i * (size_t)(pr->wk + 1) + (size_t)r->weekends;
    for (int j = 0; j < pr->ntrack; j++)
        i = i * (size_t)(pr->most[j] + 1) + r->count[j];
    return i;
}

/* The completion bound: back[d][m][k][y] is the least cost of days d..
 * from m levels of minutes, k weekends started and yesterday worked (y)
 * so that the row ends with at least pr->need minutes (and, not
 * saturated, at most pr->lev) and at most pr->wk weekends, the run rules,
 * rotation and per-shift limits left out.  A path whose cost plus its
 * bound passes a legal row's value cannot be the cheapest.  The bound to
 * beat: the row last returned, priced anew (+inf if a branch has since
 * barred one of its values). */
static double completion(struct shf_pricer *pr)
{
    const struct shf_problem *p = pr->p;
    const int n = p->ndays, nv = p->nshifts + 1, wk = pr->wk + 1;
    double *b = pr->back + (size_t)n * pr->bw;
    for (int i = 0; i < pr->bw; i++)
        b[i] = i / (2 * wk) >= pr->need ? 0 : INFINITY;
    for (int d = n - 1; d >= 0; d--) {
        const double *cost = pr->cost + (size_t)d * nv, *next = b;
        const bool weekend = pr->count_weekends && shf_weekend_day(p, d),
                   sunday = (p->weekday0 + d) % 7 == SHF_SUNDAY;
        b -= pr->bw;
        for (int i = 0; i < pr->bw; i++) {
            const int m = i / (2 * wk), k = i / 2 % wk, y = i % 2;
            const int k1 = k + (weekend && !(sunday && y));
            double best = cost[0] + next[(m * wk + k) * 2];
            for (int v = 1; v < nv && k1 < wk; v++) {
                if (cost[v] == INFINITY)
                    continue;
                int to = m + p->level[v - 1];
                if (to > pr->lev) {
                    if (!pr->saturate)
                        continue;
                    to = pr->lev;
                }
                const double c = cost[v] + next[(to * wk + k1) * 2 + 1];
                if (c < best)
                    best = c;
            }
            b[i] = best;
        }
    }
    if (!pr->have_last)
        return INFINITY;
    double ub = 0;
    for (int d = 0; d < n; d++)
        ub += pr->cost[(size_t)d * nv + pr->last_row[d]];
    /* a hair above: sums in another order may differ in the last bits */
    return ub + 1e-9 * (1 + fabs(ub));
}

/* The run rules' completion bound: runback[d][i] is the least cost of
 * days d.. from state i of index_of's first part (yesterday's class, the
 * length of the run, whether it began on day 0), the minutes, weekends and
 * per-shift limits left out: the rules back leaves out, so each bounds
 * the same rest of the row and the larger is the sharper. */
static void run_completion(struct shf_pricer *pr)
{
    const struct shf_problem *p = pr->p;
    const int n = p->ndays, nv = p->nshifts + 1, runs = pr->runs, s = pr->s;
    double *b = pr->runback + (size_t)n * pr->rw;
    for (int i = 0; i < pr->rw; i++)
        b[i] = 0;
    for (int d = n - 1; d >= 0; d--) {
        const double *cost = pr->cost + (size_t)d * nv, *next = b;
        b -= pr->rw;
        for (int i = 0; i < pr->rw; i++) {
            const int from0 = i % 2, len = i / 2 % runs + 1;
            const int last = i / 2 / runs - 1;
            double best = INFINITY;
            for (int v = 0; v < nv; v++) { /* step's run rules */
                if (cost[v] == INFINITY)
                    continue;
                if (!v ? last > 0 && !from0 && len < p->min_cons[s]
                       : (last > 0 &&
                          ((p->class_no_next[last] >> (v - 1) & 1) ||
                           len >= p->max_cons[s])) ||
                             (last == 0 && !from0 && len < p->min_off[s]))
                    continue;
                const bool same = d > 0 && (last > 0) == (v > 0);
                const int len1 = same ? (len < runs ? len + 1 : runs) : 1;
                const int from1 = d == 0 || (same && from0);
                const int last1 = v ? p->shift_class[v - 1] : 0;
                const double c =
                    cost[v] + next[((last1 + 1) * runs + len1 - 1) * 2 + from1];
                if (c < best)
                    best = c;
            }
            b[i] = best;
        }
    }
}

/* A path's completion bound after day d (its last node r): the larger
 * of the two tables'.  With both, Instance15's LP on one thread took
 * 19.98 s and 21.82 s against 23.59 s and 23.97 s with back alone, 18's
 * 5.37 s and 5.42 s against 6.49 s and 6.63 s; 8, 12 and 14 as before
 * (Intel Xeon, family 6 model 167, `shifts_lp 35 -t 1`, two rounds
 * interleaved).  The run table in the exact pass alone cut the steps it
 * tried by 8-28% on 12, 15 and 18. */
static double back_of(const struct shf_pricer *pr, int d, const struct node *r)
{
    const double b =
        pr->back[(size_t)(d + 1) * pr->bw +
                 (size_t)((r->minutes * (pr->wk + 1) + r->weekends) * 2 +
                          (r->last > 0))];
    const double q =
        pr->runback[(size_t)(d + 1) * (size_t)pr->rw +
                    (size_t)(((r->last + 1) * pr->runs + r->len - 1) * 2 +
                             r->from0)];
    return q > b ? q : b;
}

/* The k-th smallest (from 0) of a[0..n), a reordered. */
static double select_kth(double *a, size_t n, size_t k)
{
    ptrdiff_t lo = 0, hi = (ptrdiff_t)n - 1;
    const ptrdiff_t want = (ptrdiff_t)k;
    while (lo < hi) {
        const double pivot = a[lo + (hi - lo) / 2];
        ptrdiff_t i = lo, j = hi;
        while (i <= j) {
            while (a[i] < pivot)
                i++;
            while (a[j] > pivot)
                j--;
            if (i <= j) {
                double t = a[i];
                a[i++] = a[j];
                a[j--] = t;
            }
        }
        if (want <= j)
            hi = j;
        else if (want >= i)
            lo = i;
        else
            return a[want];
    }
    return a[want];
}

/* Day d's paths past beam, the most promising (cost and completion bound)
 * kept.  The day's table is clean already; the kept keep their order. */
static size_t narrow(const struct shf_pricer *pr, struct shf_price_tables *tb,
                     int d, size_t to, size_t m, size_t beam)
{
    struct node *nodes = tb->nodes;
    if (tb->keys_cap < m - to) {
        free(tb->keys);
        tb->keys_cap = m - to;
        tb->keys = cs_xmalloc(tb->keys_cap * sizeof *tb->keys);
    }
    for (size_t j = to; j < m; j++)
        tb->keys[j - to] = nodes[j].cost + back_of(pr, d, &nodes[j]);
    const double cut = select_kth(tb->keys, m - to, beam - 1);
    size_t kept = to;
    for (size_t j = to; j < m && kept - to < beam; j++)
        if (nodes[j].cost + back_of(pr, d, &nodes[j]) <= cut)
            nodes[kept++] = nodes[j];
    return kept;
}

/* Is path a before path b: cheaper, or as cheap with the lesser tie key? */
static bool before(const struct node *a, const struct node *b)
{
    return a->cost < b->cost || (a->cost == b->cost && a->tie < b->tie);
}

/* One forward pass: paths whose cost and completion bound pass ub left
 * out, and with beam > 0 only that many a day (a heuristic).  1 and the
 * cheapest path's last node into *best; 0: none; -1: the deadline. */
static int sweep(struct shf_pricer *pr, struct shf_price_tables *tb,
                 double deadline, double ub, size_t beam, size_t *best)
{
    const struct shf_problem *p = pr->p;
    const int n = p->ndays, nv = p->nshifts + 1;
    if (tb->pos_cap < pr->size) { /* every entry -1 between days */
        tb->pos = cs_xrealloc(tb->pos, pr->size * sizeof *tb->pos);
        memset(tb->pos + tb->pos_cap, 0xff,
               (pr->size - tb->pos_cap) * sizeof *tb->pos);
        tb->pos_cap = pr->size;
    }
    int32_t *const pos = tb->pos;
    size_t m = 0;
    tb->nodes[m++] =
        (struct node){.last = -1, .len = 1, .from0 = 1, .pred = -1, .v = -1};
    pr->first[0] = 0;
    pr->first[1] = 1;
    for (int d = 0; d < n; d++) {
        if (deadline > 0 && cs_now() >= deadline)
            return -1;
        const double *cost = pr->cost + (size_t)d * nv;
        const signed char *cand = pr->cand + (size_t)d * nv;
        const size_t from = pr->first[d], to = pr->first[d + 1];
        for (size_t j = from; j < to; j++)
            for (int c = 0; c < pr->ncand[d]; c++) {
                const int v = cand[c];
                struct node next;
                if (!step(pr, d, &tb->nodes[j], v, &next))
                    continue;
                next.cost = tb->nodes[j].cost + cost[v];
                next.tie = tb->nodes[j].tie + v * (n - d);
                if (pr->back && next.cost + back_of(pr, d, &next) > ub)
                    continue;
                next.pred = (int32_t)(j - from);
                next.v = (signed char)v;
                size_t k = index_of(pr, &next);
                int32_t at = pos[k];
                if (at >= 0) {
                    struct node *old = &tb->nodes[to + (size_t)at];
                    if (before(&next, old))
                        *old = next;
                    continue;
                }
                if (m == tb->nodes_cap) {
                    tb->nodes_cap *= 2;
                    tb->nodes = cs_xrealloc(tb->nodes,
                                            tb->nodes_cap * sizeof *tb->nodes);
                }
                pos[k] = (int32_t)(m - to);
                tb->nodes[m++] = next;
            }
        for (size_t j = to; j < m; j++) /* the table clean for the next day */
            pos[index_of(pr, &tb->nodes[j])] = -1;
        if (beam && m - to > beam)
            m = narrow(pr, tb, d, to, m, beam);
        pr->first[d + 2] = m;
    }
    /* the end: minutes at least the least (runs touching it are exempt) */
    *best = SIZE_MAX;
    for (size_t j = pr->first[n]; j < m; j++)
        if (tb->nodes[j].minutes >= pr->need &&
            (*best == SIZE_MAX || before(&tb->nodes[j], &tb->nodes[*best])))
            *best = j;
    return *best != SIZE_MAX;
}

/* The passes count the limits in mask (bits of pr->limit) only. */
static void count_limits(struct shf_pricer *pr, unsigned mask)
{
    pr->ntrack = 0;
    for (int i = 0; i < pr->nlimits; i++)
        if (mask >> i & 1) {
            pr->track[pr->ntrack] = pr->limit[i];
            pr->most[pr->ntrack++] = pr->limit_most[i];
        }
}

/* The limits row breaks, as bits of pr->limit. */
static unsigned broken_limits(const struct shf_pricer *pr,
                              const signed char *row)
{
    unsigned broken = 0;
    for (int i = 0; i < pr->nlimits; i++) {
        int count = 0;
        for (int d = 0; d < pr->p->ndays; d++)
            count += row[d] == pr->limit[i] + 1;
        if (count > pr->limit_most[i])
            broken |= 1u << i;
    }
    return broken;
}

int shf_price_row(struct shf_pricer *pr, struct shf_price_tables *tb,
                  const double *lambda, double deadline, signed char *row,
                  double *value, int64_t *requests)
{
    const struct shf_problem *p = pr->p;
    const int n = p->ndays;
    if (pr->need > pr->maxrest[0])
        return 0;
    /* the limits first left out: a row within them is the answer, else the
     * passes again counting the ones it broke */
    double last = INFINITY; /* the last row's value, priced anew */
    for (unsigned counted = 0, again = 0;; again = 1) {
        count_limits(pr, counted);
        price(pr, lambda);
        double ub = INFINITY;
        size_t best;
        int rc;
        if (pr->back) {
            /* the two tables hang on the prices alone, not on the limits
             * counted: made once a row */
            if (!again) {
                last = completion(pr);
                run_completion(pr);
            }
            ub = last;
            /* a narrow pass first: its row, legal under the limits
             * counted, is a bound to beat */
            if (sweep(pr, tb, deadline, ub, PR_BEAM, &best) > 0 &&
                tb->nodes[best].cost < ub)
                ub = tb->nodes[best].cost +
                     1e-9 * (1 + fabs(tb->nodes[best].cost));
        }
        rc = sweep(pr, tb, deadline, ub, 0, &best);
        if (rc <= 0)
            return rc;
        *value = tb->nodes[best].cost;
        *requests = 0;
        for (int d = n - 1; d >= 0; d--) {
            const struct node *r = &tb->nodes[best];
            row[d] = r->v;
            *requests += shf_req_cost(p, (size_t)shf_cell(p, pr->s, d), r->v);
            best = pr->first[d] + (size_t)r->pred;
        }
        unsigned broken = broken_limits(pr, row);
        if (!broken)
            break;
        counted |= broken;
    }
    memcpy(pr->last_row, row, (size_t)n);
    pr->have_last = true;
    return 1;
}
