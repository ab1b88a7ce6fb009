/* shifts/explain.c - why a spec has no roster.
 *
 * Cover and requests are soft, and every hard rule but the pairs kept
 * apart belongs to one staff member's row, so a spec whose rows each have
 * a legal assignment has a roster unless pairs kept apart forbid it.  Here
 * the rows are looked at one by one.  For a row with none, its rules are
 * items (a limit on minutes, runs, weekends or a shift type, a missing
 * skill, a forbidden succession, a fixed day off): each group of items is
 * dropped in turn, and stays dropped while the row still has no legal
 * assignment, then each item left the same way (a deletion filter).  What
 * remains cannot all hold, and without any one of it the row has an
 * assignment: the sentence names it.
 *
 * Whether a row has a legal assignment: a depth-first search over its days
 * with every rule exact (the per-shift limits too, which the Lagrangian
 * rows of rows.c leave out), failed states remembered.  A budget of nodes
 * bounds each search, and one more all the searches of a spec; a search
 * past its budget counts as "has one", so a set named cannot hold, though
 * on a huge row it may not be the smallest.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shifts/shifts.h"
/* uthash allocates through the project's wrapper (which aborts when out
 * of memory) */
#define uthash_malloc(size) cs_xmalloc(size)
#define uthash_free(ptr, size) free(ptr)

#include <uthash.h>

/* nodes per search: at set-up, for each row (a row with an assignment
 * takes about one node a day), and for each question of the filter; and
 * for all of a spec's searches together, so that no spec takes more than
 * a second or two to explain (a node costs up to a microsecond) */
#define DETECT_NODES 5000
#define FILTER_NODES 250000
#define EXPLAIN_NODES 2000000

/* The kinds of item, in the order the groups are dropped and named. */
enum kind {
    MIN_MINUTES,
    MAX_MINUTES,
    MAX_CONS,
    MIN_CONS,
    MIN_OFF,
    MAX_WEEKENDS,
    MAX_COUNT,
    SKILL,
    ROTATION,
    DAY_OFF,
    KINDS
};

struct item {
    enum kind kind;
    int a, b; /* the shift, or the two of a succession, or the day */
    bool on, was;
};

/* One staff member's rules, as the items on make them. */
struct rules {
    int min_minutes, max_minutes, max_cons, min_cons, min_off, max_weekends;
    int max_count[SHF_MAX_SHIFTS];
    uint64_t no_next[SHF_MAX_SHIFTS];
    unsigned char day_off[SHF_MAX_DAYS];
};

static void make_rules(const struct shf_problem *p, int s,
                       const struct item *items, int n, struct rules *r)
{
    *r = (struct rules){.max_minutes = SHF_UNLIMITED,
                        .max_cons = SHF_UNLIMITED,
                        .min_cons = 1,
                        .min_off = 1,
                        .max_weekends = SHF_UNLIMITED};
    for (int t = 0; t < p->nshifts; t++)
        r->max_count[t] = SHF_UNLIMITED;
    for (int i = 0; i < n; i++) {
        const struct item *it = &items[i];
        if (!it->on)
            continue;
        switch (it->kind) {
        case MIN_MINUTES:
            r->min_minutes = p->min_minutes[s];
            break;
        case MAX_MINUTES:
            r->max_minutes = p->max_minutes[s];
            break;
        case MAX_CONS:
            r->max_cons = p->max_cons[s];
            break;
        case MIN_CONS:
            r->min_cons = p->min_cons[s];
            break;
        case MIN_OFF:
            r->min_off = p->min_off[s];
            break;
        case MAX_WEEKENDS:
            r->max_weekends = p->max_weekends[s];
            break;
        case MAX_COUNT:
            if (p->max_count[s * p->nshifts + it->a] < r->max_count[it->a])
                r->max_count[it->a] = p->max_count[s * p->nshifts + it->a];
            break;
        case SKILL:
            r->max_count[it->a] = 0;
            break;
        case ROTATION:
            r->no_next[it->a] |= UINT64_C(1) << it->b;
            break;
        case DAY_OFF:
        case KINDS:
            r->day_off[it->a] = 1;
            break;
        }
    }
}

/* ---- does a row have a legal assignment? -------------------------------- */

struct failed {
    UT_hash_handle hh;
    size_t len;
    unsigned char key[];
};

struct walk {
    const struct shf_problem *p;
    const struct rules *r;
    long nodes, budget;
    int cap;             /* run lengths the rules tell apart */
    int *free;           /* free[d]: days from d on not fixed off */
    bool minutes_capped; /* no upper limit: minutes past the least alike */
    int count[SHF_MAX_SHIFTS];
    struct failed *failed;
    unsigned char key[32 + 2 * SHF_MAX_SHIFTS];
};

static size_t put(unsigned char *at, size_t len, int value, size_t bytes)
{
    memcpy(at + len, &value, bytes); /* little and big endian alike: one
                                        program writes and reads them */
    return len + bytes;
}

/* The state before day d as bytes: what the rules still tell apart. */
static size_t state_key(struct walk *w, int d, int last, int len, int from0,
                        int minutes, int weekends)
{
    const struct rules *r = w->r;
    size_t n = 0;
    if (w->minutes_capped && minutes > r->min_minutes)
        minutes = r->min_minutes;
    n = put(w->key, n, d, sizeof(int));
    n = put(w->key, n, last, sizeof(int));
    n = put(w->key, n, len, sizeof(int));
    n = put(w->key, n, from0, sizeof(int));
    n = put(w->key, n, minutes, sizeof(int));
    n = put(w->key, n, r->max_weekends < SHF_UNLIMITED ? weekends : 0,
            sizeof(int));
    for (int t = 0; t < w->p->nshifts; t++) {
        int16_t c = r->max_count[t] < w->p->ndays ? (int16_t)w->count[t] : 0;
        memcpy(w->key + n, &c, sizeof c);
        n += sizeof c;
    }
    return n;
}

/* The most minutes the days from d on can add: the free days filled
 * longest shift first, each shift type up to its limit. */
static int64_t most_minutes(const struct walk *w, int d)
{
    const struct shf_problem *p = w->p;
    int64_t days = w->free[d], sum = 0;
    for (int i = 0; i < p->nshifts && days > 0; i++) {
        int t = p->by_length[i];
        int64_t k = w->r->max_count[t] - w->count[t];
        k = k < days ? k : days;
        sum += k * p->minutes[t];
        days -= k;
    }
    return sum;
}

/* 1: a legal rest of the row from this state; 0: none; -1: out of budget. */
static int walk_row(struct walk *w, int d, int last, int len, int from0,
                    int minutes, int weekends)
{
    const struct shf_problem *p = w->p;
    const struct rules *r = w->r;
    if (d == p->ndays)
        return minutes >= r->min_minutes;
    if (minutes + most_minutes(w, d) < r->min_minutes)
        return 0;
    if (++w->nodes > w->budget)
        return -1;
    size_t klen = state_key(w, d, last, len, from0, minutes, weekends);
    struct failed *seen;
    HASH_FIND(hh, w->failed, w->key, klen, seen);
    if (seen)
        return 0;
    /* short of the least minutes: the longest shifts first, else a day off */
    bool work_first = minutes < r->min_minutes;
    for (int i = 0; i <= p->nshifts; i++) {
        int v = work_first ? (i < p->nshifts ? p->by_length[i] + 1 : 0)
                           : (i ? p->by_length[i - 1] + 1 : 0);
        bool same = d > 0 && (last > 0) == (v > 0);
        int next_len = same ? (len < w->cap ? len + 1 : w->cap) : 1;
        int next_from0 = d == 0 || (same && from0);
        if (!v) {
            if (last > 0 && !from0 && len < r->min_cons)
                continue;
            int rc =
                walk_row(w, d + 1, 0, next_len, next_from0, minutes, weekends);
            if (rc)
                return rc;
            continue;
        }
        int t = v - 1;
        if (r->day_off[d] || w->count[t] >= r->max_count[t] ||
            minutes + p->minutes[t] > r->max_minutes)
            continue;
        if (last > 0 && ((r->no_next[last - 1] >> t & 1) || len >= r->max_cons))
            continue;
        if (last == 0 && !from0 && len < r->min_off)
            continue;
        int new_weekend = shf_weekend_day(p, d) &&
                          !((p->weekday0 + d) % 7 == SHF_SUNDAY && last > 0);
        if (weekends + new_weekend > r->max_weekends)
            continue;
        w->count[t]++;
        int rc = walk_row(w, d + 1, v, next_len, next_from0,
                          minutes + p->minutes[t], weekends + new_weekend);
        w->count[t]--;
        if (rc)
            return rc;
    }
    /* the children wrote their keys over this state's */
    klen = state_key(w, d, last, len, from0, minutes, weekends);
    seen = cs_xmalloc(sizeof *seen + klen);
    seen->len = klen;
    memcpy(seen->key, w->key, klen);
    HASH_ADD_KEYPTR(hh, w->failed, seen->key, klen, seen);
    return 0;
}

/* Has row s a legal assignment under the items on?  1 yes, 0 no, -1 the
 * search ran past its budget (at most `most` nodes, taken from *left). */
static int row_legal(const struct shf_problem *p, int s,
                     const struct item *items, int n, long most, long *left)
{
    struct rules *r = cs_xmalloc(sizeof *r);
    make_rules(p, s, items, n, r);
    struct walk *w = cs_xcalloc(1, sizeof *w);
    w->p = p;
    w->r = r;
    w->budget = most < *left ? most : *left;
    w->free = cs_xmalloc(((size_t)p->ndays + 1) * sizeof *w->free);
    w->free[p->ndays] = 0;
    for (int d = p->ndays - 1; d >= 0; d--)
        w->free[d] = w->free[d + 1] + !r->day_off[d];
    int cap = r->max_cons > r->min_cons ? r->max_cons : r->min_cons;
    cap = cap > r->min_off ? cap : r->min_off;
    w->cap = cap < p->ndays + 1 ? cap : p->ndays + 1;
    w->minutes_capped =
        r->max_minutes >= (int64_t)p->ndays * p->max_minutes_shift;
    int rc = walk_row(w, 0, -1, 1, 1, 0, 0);
    *left -= w->nodes < w->budget ? w->nodes : w->budget;
    struct failed *f, *tmp;
    HASH_ITER(hh, w->failed, f, tmp)
    {
        HASH_DEL(w->failed, f);
        free(f);
    }
    free(w->free);
    free(w);
    free(r);
    return rc;
}

/* ---- the items of a row, and the filter ---------------------------------- */

static int row_items(const struct shf_problem *p, int s, struct item *items)
{
    int n = 0, weekends = (p->ndays + 7) / 7 + 1;
#define ADD(k, x, y)                                                           \
    items[n++] = (struct item)                                                 \
    {                                                                          \
        (k), (x), (y), true, true                                              \
    }
    if (p->min_minutes[s] > 0)
        ADD(MIN_MINUTES, 0, 0);
    if (p->max_minutes[s] < (int64_t)p->ndays * p->max_minutes_shift)
        ADD(MAX_MINUTES, 0, 0);
    if (p->max_cons[s] < p->ndays)
        ADD(MAX_CONS, 0, 0);
    if (p->min_cons[s] > 1)
        ADD(MIN_CONS, 0, 0);
    if (p->min_off[s] > 1)
        ADD(MIN_OFF, 0, 0);
    if (p->max_weekends[s] < weekends)
        ADD(MAX_WEEKENDS, 0, 0);
    for (int t = 0; t < p->nshifts; t++)
        if (p->max_count[s * p->nshifts + t] < p->ndays)
            ADD(MAX_COUNT, t, 0);
    for (int t = 0; t < p->nshifts; t++)
        if (p->shift_skill[t] >= 0 && !(p->skills[s] >> p->shift_skill[t] & 1))
            ADD(SKILL, t, 0);
    for (int u = 0; u < p->nshifts; u++)
        for (int t = 0; t < p->nshifts; t++)
            if (p->no_next[u] >> t & 1)
                ADD(ROTATION, u, t);
    for (int d = 0; d < p->ndays; d++)
        if (p->day_off[shf_cell(p, s, d)])
            ADD(DAY_OFF, d, 0);
#undef ADD
    return n;
}

/* Turn items [lo, hi) off for good if the row still has no legal
 * assignment without them (none is, once the spec's budget is spent). */
static void drop(const struct shf_problem *p, int s, struct item *items, int n,
                 int lo, int hi, long *left)
{
    bool any = false;
    for (int i = lo; i < hi; i++)
        any |= items[i].on;
    if (!any || *left <= 0)
        return;
    for (int i = lo; i < hi; i++) {
        items[i].was = items[i].on;
        items[i].on = false;
    }
    if (row_legal(p, s, items, n, FILTER_NODES, left) != 0)
        for (int i = lo; i < hi; i++)
            items[i].on = items[i].was;
}

/* ---- the sentence -------------------------------------------------------- */

/* Item i in words (the days off all at once, at the first). */
static void phrase(const struct shf_problem *p, int s, const struct item *items,
                   int n, int i, struct shf_line *t)
{
    const struct item *it = &items[i];
    /* a is a shift only for these kinds (a day for DAY_OFF, 0 for the rest) */
    const bool by_shift =
        it->kind == MAX_COUNT || it->kind == SKILL || it->kind == ROTATION;
    const char *shift =
        by_shift && it->a >= 0 && it->a < p->nshifts ? p->shift_id[it->a] : "";
    switch (it->kind) {
    case MIN_MINUTES:
        shf_put(t, "at least %d minutes of work", p->min_minutes[s]);
        break;
    case MAX_MINUTES:
        shf_put(t, "at most %d minutes of work", p->max_minutes[s]);
        break;
    case MAX_CONS:
        shf_put(t, "at most %d shift%s in a row", p->max_cons[s],
                p->max_cons[s] == 1 ? "" : "s");
        break;
    case MIN_CONS:
        shf_put(t, "at least %d shifts in a row", p->min_cons[s]);
        break;
    case MIN_OFF:
        shf_put(t, "at least %d days off in a row", p->min_off[s]);
        break;
    case MAX_WEEKENDS:
        shf_put(t, "at most %d weekend%s worked", p->max_weekends[s],
                p->max_weekends[s] == 1 ? "" : "s");
        break;
    case MAX_COUNT:
        if (p->max_count[s * p->nshifts + it->a])
            shf_put(t, "at most %d shifts %s",
                    p->max_count[s * p->nshifts + it->a], shift);
        else
            shf_put(t, "no shift %s", shift);
        break;
    case SKILL:
        shf_put(t, "no shift %s (it needs skill %s)", shift,
                p->skill_names[p->shift_skill[it->a]]);
        break;
    case ROTATION:
        shf_put(t, "no %s the day after %s", p->shift_id[it->b], shift);
        break;
    case DAY_OFF:
    case KINDS: {
        int days = 0, k = 0;
        for (int j = i; j < n; j++)
            days += items[j].on && items[j].kind == DAY_OFF;
        shf_put(t, "the day%s off on day%s ", days > 1 ? "s" : "",
                days > 1 ? "s" : "");
        for (int j = i; j < n; j++)
            if (items[j].on && items[j].kind == DAY_OFF)
                shf_put(t, "%s%d",
                        !k++       ? ""
                        : k < days ? ", "
                                   : " and ",
                        items[j].a);
        break;
    }
    }
}

/* Row s has no legal assignment: its rules that cannot all hold. */
static void explain_row(const struct shf_problem *p, int s, struct shf_line *t,
                        long *left)
{
    struct item *items = cs_xmalloc(
        ((size_t)p->ndays + (size_t)p->nshifts * (p->nshifts + 2) + KINDS) *
        sizeof *items);
    int n = row_items(p, s, items);
    for (int lo = 0, hi; lo < n; lo = hi) { /* a group: one kind */
        for (hi = lo; hi < n && items[hi].kind == items[lo].kind; hi++)
            ;
        drop(p, s, items, n, lo, hi, left);
    }
    for (int i = 0; i < n; i++)
        drop(p, s, items, n, i, i + 1, left);
    int phrases = 0, k = 0;
    bool days_said = false;
    for (int i = 0; i < n; i++)
        if (items[i].on && (items[i].kind != DAY_OFF || !days_said)) {
            phrases++;
            days_said |= items[i].kind == DAY_OFF;
        }
    shf_put(t, "%sstaff %s, days 0-%d: ", t->len ? "\n" : "", p->staff_id[s],
            p->ndays - 1);
    days_said = false;
    for (int i = 0; i < n; i++) {
        if (!items[i].on || (items[i].kind == DAY_OFF && days_said))
            continue;
        days_said |= items[i].kind == DAY_OFF;
        shf_put(t, "%s", !k++ ? "" : k < phrases ? ", " : " and ");
        phrase(p, s, items, n, i, t);
    }
    shf_put(t, " %s",
            phrases == 1   ? "cannot hold"
            : phrases == 2 ? "cannot both hold"
                           : "cannot all hold");
    free(items);
}

char *shf_explain(const struct shf_problem *p)
{
    struct shf_line t = {0};
    struct item *items = cs_xmalloc(
        ((size_t)p->ndays + (size_t)p->nshifts * (p->nshifts + 2) + KINDS) *
        sizeof *items);
    long left = EXPLAIN_NODES;
    for (int s = 0; s < p->nstaff; s++) {
        int n = row_items(p, s, items);
        if (!row_legal(p, s, items, n, DETECT_NODES, &left))
            explain_row(p, s, &t, &left);
    }
    free(items);
    return t.buf;
}
