/* check.c - the independent roster checker, and the roster as text.
 *
 * shf_check reads only the problem as written (rules, the request lists, the
 * cover table) and a roster; it shares no counter and no table with the
 * search, so a bug in the search's incremental bookkeeping cannot hide here.
 * Every roster the tests produce goes through it, and so does every roster
 * the CLI prints (the penalty lines come from it).
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shifts/shifts.h"

static void violation(struct shf_report *r, int staff, int day, const char *fmt,
                      ...) CS_PRINTF(4, 5);

static void violation(struct shf_report *r, int staff, int day, const char *fmt,
                      ...)
{
    if (!r->violations++) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(r->first, sizeof r->first, fmt, ap);
        va_end(ap);
        r->staff = staff;
        r->day = day;
    }
}

/* Runs of worked (work = 1) or free days, and their limits. */
static void check_runs(const struct shf_problem *p, const signed char *row,
                       int s, struct shf_report *r)
{
    const char *who = p->staff_id[s];
    int start = 0;
    for (int d = 1; d <= p->ndays; d++) {
        if (d < p->ndays && (row[d] > 0) == (row[start] > 0))
            continue;
        int len = d - start;
        bool inner = start > 0 && d < p->ndays; /* touches neither end */
        if (row[start] > 0 && len > p->max_cons[s])
            violation(r, s, start,
                      "staff %s works %d days in a row from day %d (max %d)",
                      who, len, start, p->max_cons[s]);
        if (row[start] > 0 && inner && len < p->min_cons[s])
            violation(r, s, start,
                      "staff %s works %d days in a row from day %d (min %d)",
                      who, len, start, p->min_cons[s]);
        if (row[start] == 0 && inner && len < p->min_off[s])
            violation(r, s, start,
                      "staff %s has %d days off in a row from day %d "
                      "(min %d)",
                      who, len, start, p->min_off[s]);
        start = d;
    }
}

static void check_staff(const struct shf_problem *p, const signed char *row,
                        int s, struct shf_report *r)
{
    const char *who = p->staff_id[s];
    int minutes = 0, weekends = 0;
    int *count = calloc((size_t)p->nshifts, sizeof *count);
    for (int d = 0; d < p->ndays; d++) {
        int v = row[d];
        if (v < 0 || v > p->nshifts) {
            violation(r, s, d, "staff %s has no shift or day off on day %d",
                      who, d);
            continue;
        }
        if (!v)
            continue;
        int t = v - 1;
        count[t]++;
        minutes += p->minutes[t];
        if (p->day_off[shf_cell(p, s, d)])
            violation(r, s, d, "staff %s works on day %d, a fixed day off", who,
                      d);
        if (p->shift_skill[t] >= 0 && !(p->skills[s] >> p->shift_skill[t] & 1))
            violation(r, s, d,
                      "staff %s works shift %s on day %d without skill %s", who,
                      p->shift_id[t], d, p->skill_names[p->shift_skill[t]]);
        if (d > 0 && row[d - 1] > 0 && (p->no_next[row[d - 1] - 1] >> t & 1))
            violation(r, s, d,
                      "staff %s works shift %s on day %d after shift %s", who,
                      p->shift_id[t], d, p->shift_id[row[d - 1] - 1]);
        /* a weekend counts once, on its first worked day */
        bool weekend = shf_weekend_day(p, d);
        bool sunday_after_saturday =
            (p->weekday0 + d) % 7 == 6 && d > 0 && row[d - 1] > 0;
        if (weekend && !sunday_after_saturday)
            weekends++;
    }
    for (int t = 0; t < p->nshifts; t++)
        if (count[t] > p->max_count[s * p->nshifts + t])
            violation(r, s, -1, "staff %s works shift %s %d times (max %d)",
                      who, p->shift_id[t], count[t],
                      p->max_count[s * p->nshifts + t]);
    free(count);
    if (minutes > p->max_minutes[s] || minutes < p->min_minutes[s])
        violation(r, s, -1, "staff %s works %d minutes (allowed %d to %d)", who,
                  minutes, p->min_minutes[s], p->max_minutes[s]);
    if (weekends > p->max_weekends[s])
        violation(r, s, -1, "staff %s works %d weekends (max %d)", who,
                  weekends, p->max_weekends[s]);
    check_runs(p, row, s, r);
}

/* Re-rostering: pinned cells and days before from_day hold what they must;
 * each cell from from_day on unlike the published roster is a change. */
static void check_changes(const struct shf_problem *p,
                          const signed char *roster, struct shf_report *r)
{
    const struct shf_reroster *rr = p->reroster;
    for (int s = 0; s < p->nstaff; s++)
        for (int d = 0; d < p->ndays; d++) {
            int c = shf_cell(p, s, d), v = roster[c], pub = rr->published[c];
            int must = rr->pinned[c] >= 0 ? rr->pinned[c]
                       : d < rr->from_day ? pub
                                          : -1;
            if (must >= 0 && v != must)
                violation(r, s, d, "staff %s has %s on day %d, %s %s",
                          p->staff_id[s], v > 0 ? p->shift_id[v - 1] : "off", d,
                          rr->pinned[c] >= 0 ? "pinned to"
                                             : "before from_day: published",
                          must > 0 ? p->shift_id[must - 1] : "off");
            if (d >= rr->from_day && v != pub) {
                r->changed++;
                r->change += rr->change_weight;
            }
        }
}

int shf_check(const struct shf_problem *p, const signed char *roster,
              struct shf_report *r)
{
    memset(r, 0, sizeof *r);
    r->staff = r->day = -1;
    for (int s = 0; s < p->nstaff; s++)
        check_staff(p, roster + (size_t)s * (size_t)p->ndays, s, r);
    for (int i = 0; i < p->napart; i++) {
        int a = p->apart[i][0], b = p->apart[i][1];
        for (int d = 0; d < p->ndays; d++) {
            int v = roster[shf_cell(p, a, d)];
            if (v > 0 && v == roster[shf_cell(p, b, d)])
                violation(
                    r, a, d, "staff %s and %s both work shift %s on day %d",
                    p->staff_id[a], p->staff_id[b], p->shift_id[v - 1], d);
        }
    }

    for (int i = 0; i < p->non; i++) {
        const struct shf_request *q = &p->on[i];
        if (roster[shf_cell(p, q->staff, q->day)] != q->shift + 1)
            r->on += q->weight;
    }
    for (int i = 0; i < p->noff; i++) {
        const struct shf_request *q = &p->off[i];
        int v = roster[shf_cell(p, q->staff, q->day)];
        if (q->shift < 0 ? v > 0 : v == q->shift + 1)
            r->off += q->weight;
    }
    for (int d = 0; d < p->ndays; d++)
        for (int t = 0; t < p->nshifts; t++) {
            int have = 0;
            for (int s = 0; s < p->nstaff; s++)
                have += roster[shf_cell(p, s, d)] == t + 1;
            int k = d * p->nshifts + t;
            if (have < p->need[k])
                r->under += (int64_t)(p->need[k] - have) * p->under[k];
            else
                r->over += (int64_t)(have - p->need[k]) * p->over[k];
        }
    if (p->reroster)
        check_changes(p, roster, r);
    if (shf_fair_on(p)) {
        int *nights = cs_xmalloc(2 * (size_t)p->nstaff * sizeof *nights);
        shf_tallies(p, roster, nights, nights + p->nstaff);
        shf_fair_penalties(p, nights, nights + p->nstaff, &r->nights,
                           &r->weekends);
        free(nights);
    }
    r->total = r->under + r->over + r->on + r->off + r->nights + r->weekends +
               r->change;
    return r->violations;
}

/* ---- writing a roster --------------------------------------------------- */

void shf_put(struct shf_line *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (l->len + (size_t)n + 1 > l->cap) {
        l->cap = 2 * (l->len + (size_t)n + 1);
        l->buf = cs_xrealloc(l->buf, l->cap);
    }
    va_start(ap, fmt);
    vsnprintf(l->buf + l->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    l->len += (size_t)n;
}

void shf_flush(struct shf_line *l, struct cs_board *out)
{
    while (l->len && l->buf[l->len - 1] == ' ')
        l->buf[--l->len] = '\0';
    cs_board_add(out, l->len ? l->buf : "");
    l->len = 0;
    if (l->buf)
        l->buf[0] = '\0';
}

/* An id as a CSV field (RFC 4180, as the roster reader takes it back): in
 * double quotes, each quote doubled, when it holds a comma or a quote. */
static void put_field(struct shf_line *l, const char *id)
{
    if (!strpbrk(id, ",\"")) {
        shf_put(l, "%s", id);
        return;
    }
    shf_put(l, "\"");
    for (const char *c = id; *c; c++)
        shf_put(l, "%s%c", *c == '"' ? "\"" : "", *c);
    shf_put(l, "\"");
}

static void write_csv(const struct shf_problem *p, const signed char *roster,
                      struct cs_board *out)
{
    struct shf_line l = {0};
    shf_put(&l, "staff");
    for (int d = 0; d < p->ndays; d++)
        shf_put(&l, ",%d", d);
    cs_board_add(out, l.buf);
    for (int s = 0; s < p->nstaff; s++) {
        l.len = 0;
        put_field(&l, p->staff_id[s]);
        for (int d = 0; d < p->ndays; d++) {
            int v = roster[shf_cell(p, s, d)];
            shf_put(&l, ",");
            put_field(&l, v > 0 ? p->shift_id[v - 1] : "");
        }
        cs_board_add(out, l.buf);
    }
    free(l.buf);
}

void shf_write_roster(const struct shf_problem *p, const signed char *roster,
                      struct cs_board *out)
{
    if (out->csv) {
        out->table = true;
        write_csv(p, roster, out);
        return;
    }
    if (out->html) {
        out->page = true;
        shf_write_page(p, roster, out);
        return;
    }
    /* column width: the longest shift id, a day number, a cover count */
    int name = 5, cell = 1;
    for (int s = 0; s < p->nstaff; s++)
        if ((int)strlen(p->staff_id[s]) > name)
            name = (int)strlen(p->staff_id[s]);
    for (int t = 0; t < p->nshifts; t++) {
        if ((int)strlen(p->shift_id[t]) > cell)
            cell = (int)strlen(p->shift_id[t]);
        if ((int)strlen(p->shift_id[t]) + 6 > name)
            name = (int)strlen(p->shift_id[t]) + 6;
    }
    char num[32];
    int w = snprintf(num, sizeof num, "%d", p->ndays - 1);
    cell = cell > w ? cell : w;
    for (int k = 0; k < p->ndays * p->nshifts; k++) {
        w = snprintf(num, sizeof num, "%d/%d", p->nstaff, p->need[k]);
        cell = cell > w ? cell : w;
    }

    struct shf_line l = {0};
    shf_put(&l, "%-*s", name, "");
    for (int d = 0; d < p->ndays; d++)
        shf_put(&l, " %*d", cell, d);
    shf_flush(&l, out);
    for (int s = 0; s < p->nstaff; s++) {
        shf_put(&l, "%-*s", name, p->staff_id[s]);
        for (int d = 0; d < p->ndays; d++) {
            int v = roster[shf_cell(p, s, d)];
            shf_put(&l, " %*s", cell, v > 0 ? p->shift_id[v - 1] : "-");
        }
        shf_flush(&l, out);
    }
    /* cover: assigned/needed, per shift */
    for (int t = 0; t < p->nshifts; t++) {
        snprintf(num, sizeof num, "cover %s", p->shift_id[t]);
        shf_put(&l, "%-*s", name, num);
        for (int d = 0; d < p->ndays; d++) {
            int have = 0;
            for (int s = 0; s < p->nstaff; s++)
                have += roster[shf_cell(p, s, d)] == t + 1;
            snprintf(num, sizeof num, "%d/%d", have,
                     p->need[d * p->nshifts + t]);
            shf_put(&l, " %*s", cell, num);
        }
        shf_flush(&l, out);
    }
    struct shf_report r;
    shf_check(p, roster, &r);
    const char *names[SHF_RULES];
    int64_t values[SHF_RULES];
    int n = shf_report_rules(p, &r, names, NULL, values);
    shf_put(&l, "penalty %" PRId64 ":", r.total);
    for (int i = 0; i < n; i++)
        shf_put(&l, "%s %s %" PRId64, i ? "," : "", names[i], values[i]);
    shf_flush(&l, out);
    if (r.violations)
        shf_put(&l, "hard rules: %d broken; first: %s", r.violations, r.first);
    else
        shf_put(&l, "hard rules: all kept (independent check)");
    shf_flush(&l, out);
    free(l.buf);
    if (p->reroster)
        shf_write_changes(p, roster, out);
    if (p->compare)
        shf_write_compare(p, roster, out);
}
