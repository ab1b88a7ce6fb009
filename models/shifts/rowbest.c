/* shifts/rowbest.c - the cheapest window of one staff member's row, with
 * every other cell of the roster as it is: the exact re-solve behind the
 * local moves' row move (moves.c).
 *
 * With the rest fixed, what a value costs on a day is its request penalty
 * plus what it changes in that day's cover (-under while the line is
 * short without this staff member, +over once it is met), so the best
 * window is a shortest path through the row's states, one step a day.  A
 * state is what the rules need to judge the next day: the class of the
 * last value (shifts that may be followed by the same shifts share one),
 * the length of the run of worked or free days it ends (capped where the
 * rules stop caring), whether that run began on day 0 (exempt from the
 * minimums), the minutes the window has worked and the weekends it has
 * started.  The runs into the fixed days on either side, the row's minutes
 * and weekends outside the window, fixed days off, skills and pairs kept
 * apart are all exact, and so is the tightest per-shift limit that binds
 * (its count is in the states); a window over another is priced again
 * with that shift dearer, a few times.  Each day only the cheapest of the
 * shifts that lead from the same states to the same states is tried.
 * The window found is handed back for moves.c to check against every rule
 * and to cost exactly, as any move is.
 *
 * Unlike rows.c (the Lagrangian bound's tables, built once for whole rows
 * under prices), this runs on a live roster many times a second, so it
 * keeps only the states a window reaches, in lists, and its tables live in
 * a per-thread workspace that grows to the largest window asked for.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "shifts/search.h"

/* Rounds of pricing again when a window breaks a per-shift limit. */
#define ROWBEST_TRIES 6
/* A window with more states a day than this is not re-solved (its table
 * from state to list place takes 4 bytes a state). */
#define ROWBEST_STATES ((size_t)1 << 24)

/* A reached state of the path before a day, with its cheapest cost and
 * how it was reached (pred: the index in the day before's list; v: the
 * value of the day before). */
struct node {
    int64_t cost;
    int32_t pred;
    int32_t minutes;  /* levels worked in the window (saturated at need
                         when no most binds) */
    int16_t count;    /* shifts of the tracked type in the window */
    signed char last; /* -1: before day 0; 0 off; else a class */
    signed char len, from0, weekends, v;
};

struct workspace {
    struct node *nodes; /* every day's list, one after the other */
    size_t nodes_cap;
    int32_t *pos; /* a state's index -> its place in the day's list */
    size_t pos_cap;
    size_t *first; /* day i's list starts at first[i] */
    int first_cap;
};

static pthread_key_t ws_key;
static pthread_once_t ws_once = PTHREAD_ONCE_INIT;

static void ws_free(void *p)
{
    struct workspace *ws = p;
    free(ws->nodes);
    free(ws->pos);
    free(ws->first);
    free(ws);
}

static void ws_make_key(void)
{
    (void)pthread_key_create(&ws_key, ws_free);
}

static struct workspace *workspace(void)
{
    pthread_once(&ws_once, ws_make_key);
    struct workspace *ws = pthread_getspecific(ws_key);
    if (!ws) {
        ws = cs_xcalloc(1, sizeof *ws);
        pthread_setspecific(ws_key, ws);
    }
    return ws;
}

/* What one window's search knows: the row's limits as they bear on the
 * window (outside it fixed), and each day's allowed values and costs. */
struct window {
    const struct shf_problem *p;
    const signed char *row;
    int s, lo, hi, n;       /* days lo..hi, n of them */
    int runs;               /* run lengths tracked 1..runs */
    int need, levels;       /* levels the window must / may work */
    bool saturate;          /* levels never reach the most: count them up
                               to need only */
    int weekends;           /* weekends the window may start */
    bool count_weekends;    /* else the limit cannot bind */
    int tracked, most;      /* the shift type whose limit the states keep
                               (-1: none), and how many the window may
                               have */
    int sunday_after;       /* the day after is a worked Sunday */
    int after_v, after_len; /* the fixed run after the window: its first
                               value and length (0: none) */
    bool after_end;         /* ... reaching the last day */
    struct node start;
    int64_t *cost;     /* n x (nshifts + 1); INT64_MAX: not allowed */
    signed char *cand; /* n x (nshifts + 1): day i's values worth
                          trying, ncand[i] of them */
    int *ncand;
    int *maxrest; /* n + 1: most levels days i.. can add */
};

/* May a work run of staff s be len long? Or a free run? (inner: neither
 * end touches the horizon's first or last day.) */
static bool run_ok(const struct shf_problem *p, int s, bool work, int len,
                   bool inner)
{
    if (work)
        return len <= p->max_cons[s] && (!inner || len >= p->min_cons[s]);
    return !inner || len >= p->min_off[s];
}

/* The state after value v on window day i (the roster's day lo + i) from
 * state r; false if a rule forbids it. */
static bool step(const struct window *w, int i, const struct node *r, int v,
                 struct node *out)
{
    const struct shf_problem *p = w->p;
    const int s = w->s, d = w->lo + i;
    bool same = d > 0 && (r->last > 0) == (v > 0);
    *out = *r;
    out->len = same ? (r->len < w->runs ? r->len + 1 : w->runs) : 1;
    out->from0 = d == 0 || (same && r->from0);
    out->last = (signed char)(v ? p->shift_class[v - 1] : 0);
    if (!v)
        return !(r->last > 0 && !r->from0 && r->len < p->min_cons[s]);
    if (r->last > 0 && ((p->class_no_next[r->last] >> (v - 1) & 1) ||
                        r->len >= p->max_cons[s]))
        return false;
    if (r->last == 0 && !r->from0 && r->len < p->min_off[s])
        return false;
    if (v - 1 == w->tracked && ++out->count > w->most)
        return false;
    out->minutes = r->minutes + p->level[v - 1];
    if (out->minutes + w->maxrest[i + 1] < w->need)
        return false;
    if (w->saturate) {
        if (out->minutes > w->need)
            out->minutes = w->need;
    } else if (out->minutes > w->levels) {
        return false;
    }
    if (!w->count_weekends)
        return true;
    out->weekends += shf_weekend_day(p, d) &&
                     !((p->weekday0 + d) % 7 == SHF_SUNDAY && r->last > 0);
    return out->weekends <= w->weekends;
}

/* Does a path ending in state r join the fixed days after the window, and
 * work its least minutes? */
static bool join_ok(const struct window *w, const struct node *r)
{
    const struct shf_problem *p = w->p;
    if (r->minutes < w->need)
        return false;
    if (w->count_weekends &&
        r->weekends + (w->sunday_after && r->last == 0) > w->weekends)
        return false;
    if (!w->after_len) /* the window ends the horizon: no minimums there */
        return true;
    bool work = r->last > 0, next_work = w->after_v > 0;
    if (work == next_work) {
        if (work && (p->class_no_next[r->last] >> (w->after_v - 1) & 1))
            return false;
        /* one run: r's part is at least r.len (exact below runs) */
        if (r->len >= w->runs && work && p->max_cons[w->s] < SHF_UNLIMITED)
            return false;
        return run_ok(p, w->s, work, r->len + w->after_len,
                      !r->from0 && !w->after_end);
    }
    return run_ok(p, w->s, work, r->len, !r->from0) &&
           run_ok(p, w->s, next_work, w->after_len, !w->after_end);
}

/* The window's limits from the row outside it. */
static void frame(struct window *w, const struct shf_state *st)
{
    const struct shf_problem *p = w->p;
    const int s = w->s, lo = w->lo, hi = w->hi;
    const signed char *row = w->row;
    /* minutes and weekends outside the window */
    int64_t out_min = SHF_CAT(st, p->o_minutes, int32_t)[s];
    for (int d = lo; d <= hi; d++)
        if (row[d])
            out_min -= p->minutes[row[d] - 1];
    int64_t most = p->max_minutes[s] - out_min;
    int64_t least = p->min_minutes[s] - out_min;
    const int unit = p->level_unit;
    w->levels =
        most / unit > INT32_MAX / 2 ? INT32_MAX / 2 : (int)(most / unit);
    w->need = least > 0 ? (int)((least + unit - 1) / unit) : 0;
    int out_w = SHF_CAT(st, p->o_weekends, int32_t)[s];
    /* the weekends the window's days start, as the row counts them */
    int in_w = 0;
    for (int d = lo; d <= hi; d++)
        in_w +=
            row[d] > 0 && shf_weekend_day(p, d) &&
            !((p->weekday0 + d) % 7 == SHF_SUNDAY && d > 0 && row[d - 1] > 0);
    w->sunday_after = hi + 1 < p->ndays &&
                      (p->weekday0 + hi + 1) % 7 == SHF_SUNDAY &&
                      row[hi + 1] > 0;
    if (w->sunday_after && !row[hi])
        in_w++; /* that Sunday's weekend, started after a free Saturday */
    w->weekends = p->max_weekends[s] >= SHF_UNLIMITED
                      ? INT8_MAX
                      : p->max_weekends[s] - (out_w - in_w);
    /* runs: tracked up to the longest limit that matters */
    int runs = p->min_cons[s] > p->min_off[s] ? p->min_cons[s] : p->min_off[s];
    if (p->max_cons[s] < SHF_UNLIMITED && p->max_cons[s] > runs)
        runs = p->max_cons[s];
    w->runs = runs < 1 ? 1 : runs > 100 ? 100 : runs;
    /* the state before the window */
    struct node st0 = {.last = -1, .len = 1, .from0 = 1, .pred = -1, .v = -1};
    if (lo > 0) {
        int a = lo - 1;
        while (a > 0 && (row[a - 1] > 0) == (row[lo - 1] > 0))
            a--;
        int len = lo - a;
        st0.last =
            (signed char)(row[lo - 1] ? p->shift_class[row[lo - 1] - 1] : 0);
        st0.len = (signed char)(len < w->runs ? len : w->runs);
        st0.from0 = a == 0;
    }
    w->start = st0;
    /* the fixed run after it */
    w->after_len = 0;
    if (hi + 1 < p->ndays) {
        int b = hi + 1;
        while (b + 1 < p->ndays && (row[b + 1] > 0) == (row[hi + 1] > 0))
            b++;
        w->after_v = row[hi + 1];
        w->after_len = b - hi;
        w->after_end = b == p->ndays - 1;
    }
}

/* Each window day's cost of each value (INT64_MAX: not allowed), with
 * penalty[t] more for shift t. */
static void price(struct window *w, const struct shf_state *st,
                  const int64_t *penalty)
{
    const struct shf_problem *p = w->p;
    const int s = w->s, nv = p->nshifts + 1;
    const int32_t *have = SHF_CAT(st, p->o_have, int32_t);
    const signed char *val = SHF_CAT(st, p->o_val, signed char);
    w->maxrest[w->n] = 0;
    for (int i = w->n - 1; i >= 0; i--) {
        const int d = w->lo + i;
        const size_t c = (size_t)shf_cell(p, s, d);
        int64_t *cost = w->cost + (size_t)i * nv;
        int most = 0, fix = p->fixed ? p->fixed[c] : -1;
        cost[0] = fix > 0 ? INT64_MAX : shf_req_cost(p, c, 0);
        for (int v = 1; v < nv; v++) {
            int k = d * p->nshifts + v - 1, skill = p->shift_skill[v - 1];
            cost[v] = INT64_MAX;
            if (p->day_off[c] || !p->max_count[s * p->nshifts + v - 1] ||
                (skill >= 0 && !(p->skills[s] >> skill & 1)) ||
                (fix >= 0 && v != fix))
                continue;
            bool apart = false;
            for (int j = p->partner_start[s]; j < p->partner_start[s + 1]; j++)
                apart = apart || val[shf_cell(p, p->partners[j], d)] == v;
            if (apart)
                continue;
            int h = have[k] - (w->row[d] == v);
            int64_t cover =
                h < p->need[k] ? -(int64_t)p->under[k] : (int64_t)p->over[k];
            cost[v] = shf_req_cost(p, c, v) + cover + penalty[v - 1];
            if (p->level[v - 1] > most)
                most = p->level[v - 1];
        }
        w->maxrest[i] = w->maxrest[i + 1] + most;
        /* of shifts that follow the same classes and lead to the same
         * state (same class, length, and not the tracked type) only the
         * cheapest is worth a try */
        signed char *cand = w->cand + (size_t)i * nv;
        int n = 0;
        for (int v = 0; v < nv; v++) {
            if (cost[v] == INT64_MAX)
                continue;
            int j = 0;
            while (v && j < n &&
                   !(cand[j] &&
                     p->shift_class[cand[j] - 1] == p->shift_class[v - 1] &&
                     p->level[cand[j] - 1] == p->level[v - 1] &&
                     p->banned_after[cand[j] - 1] == p->banned_after[v - 1] &&
                     cand[j] - 1 != w->tracked && v - 1 != w->tracked))
                j++;
            if (!v || j == n)
                cand[n++] = (signed char)v;
            else if (cost[v] < cost[cand[j]])
                cand[j] = (signed char)v;
        }
        w->ncand[i] = n;
    }
}

/* A state's index in a day's table of size (see search()). */
static size_t index_of(const struct window *w, const struct node *r, int lev,
                       int wk)
{
    size_t i = (size_t)(r->last + 1) * (size_t)w->runs + (size_t)(r->len - 1);
    i = i * 2 + (size_t)r->from0;
    i = i * (size_t)(lev + 1) + (size_t)r->minutes;
    i = i * (size_t)(wk + 1) + (size_t)r->weekends;
    return w->tracked < 0 ? i : i * (size_t)(w->most + 1) + (size_t)r->count;
}

/* The cheapest path through the window into out (n values); false: none.
 * Levels and weekends above what the window can reach are never indexed. */
static bool search(struct window *w, struct workspace *ws, signed char *out)
{
    const int nv = w->p->nshifts + 1;
    if (w->levels < 0 || w->weekends < 0 || w->need > w->maxrest[0])
        return false;
    /* minutes: up to the most when it can bind, else up to the least */
    w->saturate = w->levels >= w->maxrest[0];
    int lev = w->saturate ? w->need : w->levels;
    /* weekends: counted only when the window could start too many */
    int span = (w->n + 6) / 7 + 1;
    w->count_weekends = w->weekends < span;
    int wk = w->count_weekends ? w->weekends : 0;
    size_t size = (size_t)(w->p->nclasses + 2) * (size_t)w->runs * 2 *
                  (size_t)(lev + 1) * (size_t)(wk + 1) *
                  (size_t)(w->tracked < 0 ? 1 : w->most + 1);
    if (size > ROWBEST_STATES)
        return false; /* beyond what a move should spend */
    if (ws->pos_cap < size) {
        free(ws->pos);
        ws->pos = cs_xmalloc(size * sizeof *ws->pos);
        ws->pos_cap = size;
        memset(ws->pos, 0xff, size * sizeof *ws->pos);
    }
    if (ws->first_cap < w->n + 2) {
        ws->first =
            cs_xrealloc(ws->first, (size_t)(w->n + 2) * sizeof *ws->first);
        ws->first_cap = w->n + 2;
    }
    if (!ws->nodes_cap) {
        ws->nodes_cap = 4096;
        ws->nodes = cs_xmalloc(ws->nodes_cap * sizeof *ws->nodes);
    }
    size_t n = 0;
    ws->nodes[n++] = w->start;
    ws->nodes[0].cost = 0;
    ws->first[0] = 0;
    ws->first[1] = 1;
    for (int i = 0; i < w->n; i++) {
        const int64_t *cost = w->cost + (size_t)i * nv;
        const signed char *cand = w->cand + (size_t)i * nv;
        const size_t from = ws->first[i], to = ws->first[i + 1];
        for (size_t j = from; j < to; j++)
            for (int c = 0; c < w->ncand[i]; c++) {
                const int v = cand[c];
                struct node next;
                if (!step(w, i, &ws->nodes[j], v, &next))
                    continue;
                next.cost = ws->nodes[j].cost + cost[v];
                next.pred = (int32_t)(j - from);
                next.v = (signed char)v;
                size_t k = index_of(w, &next, lev, wk);
                int32_t at = ws->pos[k];
                if (at >= 0) {
                    struct node *old = &ws->nodes[to + (size_t)at];
                    if (next.cost < old->cost)
                        *old = next;
                    continue;
                }
                if (n == ws->nodes_cap) {
                    ws->nodes_cap *= 2;
                    ws->nodes = cs_xrealloc(ws->nodes,
                                            ws->nodes_cap * sizeof *ws->nodes);
                }
                ws->pos[k] = (int32_t)(n - to);
                ws->nodes[n++] = next;
            }
        ws->first[i + 2] = n;
        for (size_t j = to; j < n; j++) /* the table clean for the next day */
            ws->pos[index_of(w, &ws->nodes[j], lev, wk)] = -1;
    }
    size_t best = SIZE_MAX;
    for (size_t j = ws->first[w->n]; j < n; j++)
        if (join_ok(w, &ws->nodes[j]) &&
            (best == SIZE_MAX || ws->nodes[j].cost < ws->nodes[best].cost))
            best = j;
    if (best == SIZE_MAX)
        return false;
    for (int i = w->n - 1; i >= 0; i--) {
        const struct node *r = &ws->nodes[best];
        out[i] = r->v;
        best = ws->first[i] + (size_t)r->pred;
    }
    return true;
}

bool shf_row_best(const struct shf_state *st, int s, int lo, int hi,
                  signed char *out)
{
    const struct shf_problem *p = st->p;
    struct workspace *ws = workspace();
    struct window w = {.p = p,
                       .s = s,
                       .lo = lo,
                       .hi = hi,
                       .n = hi - lo + 1,
                       .row = SHF_CAT(st, p->o_val, signed char) +
                              (size_t)s * p->ndays};
    w.cost =
        cs_xmalloc((size_t)w.n * (size_t)(p->nshifts + 1) * sizeof *w.cost);
    w.maxrest = cs_xmalloc((size_t)(w.n + 1) * sizeof *w.maxrest);
    w.cand = cs_xmalloc((size_t)w.n * (size_t)(p->nshifts + 1));
    w.ncand = cs_xmalloc((size_t)w.n * sizeof *w.ncand);
    frame(&w, st);
    int64_t penalty[SHF_MAX_SHIFTS] = {0};
    /* shifts of each type outside the window */
    int outside[SHF_MAX_SHIFTS];
    for (int t = 0; t < p->nshifts; t++)
        outside[t] = SHF_CAT(st, p->o_count, int32_t)[s * p->nshifts + t];
    for (int d = lo; d <= hi; d++)
        if (w.row[d])
            outside[w.row[d] - 1]--;
    /* the tightest per-shift limit, if one binds: kept in the states */
    w.tracked = -1;
    for (int t = 0; t < p->nshifts; t++) {
        int most = p->max_count[s * p->nshifts + t] - outside[t];
        if (most < w.n && (w.tracked < 0 || most < w.most))
            w.tracked = t, w.most = most < 0 ? 0 : most;
    }
    const int levels = w.levels, weekends = w.weekends;
    bool found = false;
    for (int try = 0; try < ROWBEST_TRIES && !found; try++) {
        w.levels = levels;
        w.weekends = weekends;
        price(&w, st, penalty);
        if (!search(&w, ws, out))
            break;
        int used[SHF_MAX_SHIFTS] = {0};
        for (int i = 0; i < w.n; i++)
            if (out[i])
                used[out[i] - 1]++;
        found = true;
        for (int t = 0; t < p->nshifts; t++)
            if (outside[t] + used[t] > p->max_count[s * p->nshifts + t]) {
                penalty[t] += penalty[t] ? penalty[t] : 8;
                found = false;
            }
    }
    free(w.cost);
    free(w.maxrest);
    free(w.cand);
    free(w.ncand);
    return found;
}
