/* shifts/reroster.c - re-rostering: the published roster (params.roster)
 * optimised again after a change, with a penalty per changed cell.
 *
 * The change and the pins become the problem's own structures, so the
 * search needs no mode of its own: an unavailable day is a fixed day off,
 * a changed cover line is the cover table, pinned cells and days before
 * from_day are p->fixed (which init, relax and the moves hold), and a cell
 * from from_day on that differs from the published roster costs
 * change_weight through the request tables, as a request would.  Fixed
 * cells that break a hard rule on their own are found here, in words.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shifts/shifts.h"

static const char *const keys[] = {"params.from_day", "params.change_weight",
                                   "params.change", "params.pinned", NULL};

struct reading {
    struct shf_problem *p;
    struct shf_reroster *rr;
};

/* Day field i: "D" or "D-E" (a range), inside the horizon and from
 * from_day on: 0 with *first and *last, or -1 with the error. */
static int days_of(struct shf_record *rec, const struct reading *rd, int i,
                   int *first, int *last)
{
    const char *text = shf_record_text(rec, i);
    char *end;
    errno = 0;
    long a = strtol(text, &end, 10), b = a;
    if (end != text && *end == '-' && end[1] >= '0' && end[1] <= '9')
        b = strtol(end + 1, &end, 10);
    if (!text[0] || *end || text[0] < '0' || text[0] > '9' || errno || b < a)
        return shf_record_bad(
            rec, i, "a day must be D or D-E (D <= E), not '%s'", text);
    int ndays = rd->p->ndays;
    if (b >= ndays)
        return shf_record_bad(
            rec, i, "day %ld is outside the horizon (0 to %d)", b, ndays - 1);
    if (a < rd->rr->from_day)
        return shf_record_bad(rec, i,
                              "day %ld is before params.from_day %d: those "
                              "days keep the published roster",
                              a, rd->rr->from_day);
    *first = (int)a;
    *last = (int)b;
    return 0;
}

/* unavailable,STAFF,DAY...: fixed days off; the minutes the published
 * roster gave those days count towards the minimum (a sick day is paid).
 * cover,DAY,SHIFT,NEED[,UNDER,OVER]: the cover line from now on. */
static int take_change(struct shf_record *rec, void *ud)
{
    struct reading *rd = ud;
    struct shf_problem *p = rd->p;
    const char *kind = shf_record_text(rec, 0);
    int n = shf_record_fields(rec), first, last;
    if (!strcmp(kind, "unavailable")) {
        if (n < 3)
            return shf_record_bad(rec, n,
                                  "unavailable needs a staff member and days");
        int s = shf_record_staff(rec, 1);
        if (s < 0)
            return -1;
        for (int i = 2; i < n; i++) {
            if (days_of(rec, rd, i, &first, &last))
                return -1;
            for (int d = first; d <= last; d++) {
                int c = shf_cell(p, s, d), v = rd->rr->published[c];
                if (p->day_off[c])
                    continue;
                p->day_off[c] = 1;
                if (v > 0)
                    p->min_minutes[s] -= p->minutes[v - 1];
            }
        }
        if (p->min_minutes[s] < 0)
            p->min_minutes[s] = 0;
        return 0;
    }
    if (strcmp(kind, "cover"))
        return shf_record_bad(
            rec, 0, "unknown change '%s' (unavailable or cover)", kind);
    if (n != 4 && n != 6)
        return shf_record_bad(rec, n < 4 ? n : 4,
                              "cover needs DAY,SHIFT,NEED[,UNDER,OVER]: "
                              "4 or 6 fields, not %d",
                              n);
    int t, need;
    if (days_of(rec, rd, 1, &first, &last) ||
        (t = shf_record_shift(rec, 2)) < 0 ||
        shf_record_number(rec, 3, "need", SHF_MAX_STAFF, &need))
        return -1;
    int under = -1, over = -1;
    if (n == 6 && (shf_record_number(rec, 4, "under weight", 1000000, &under) ||
                   shf_record_number(rec, 5, "over weight", 1000000, &over)))
        return -1;
    for (int d = first; d <= last; d++) {
        int k = d * p->nshifts + t;
        if (under < 0 && need && !p->under[k] && !p->over[k])
            return shf_record_bad(rec, 3,
                                  "day %d, shift %s has no cover weights: "
                                  "give UNDER and OVER",
                                  d, p->shift_id[t]);
        p->need[k] = need;
        if (under >= 0) {
            p->under[k] = under;
            p->over[k] = over;
        }
    }
    return 0;
}

/* STAFF,DAY,SHIFT (empty or '-': a day off) must hold. */
static int take_pin(struct shf_record *rec, void *ud)
{
    struct reading *rd = ud;
    struct shf_problem *p = rd->p;
    int n = shf_record_fields(rec), first, last, s;
    if (n != 3)
        return shf_record_bad(rec, n < 3 ? n : 3,
                              "a pinned cell needs STAFF,DAY,SHIFT: 3 fields, "
                              "not %d",
                              n);
    if ((s = shf_record_staff(rec, 0)) < 0 ||
        days_of(rec, rd, 1, &first, &last))
        return -1;
    const char *id = shf_record_text(rec, 2);
    int v = 0;
    if (id[0] && strcmp(id, "-")) {
        int t = shf_record_shift(rec, 2);
        if (t < 0)
            return -1;
        int skill = p->shift_skill[t];
        if (!p->max_count[s * p->nshifts + t] ||
            (skill >= 0 && !(p->skills[s] >> skill & 1)))
            return shf_record_bad(rec, 2, "staff %s may not work shift %s",
                                  p->staff_id[s], id);
        v = t + 1;
    }
    for (int d = first; d <= last; d++) {
        signed char *pin = &rd->rr->pinned[shf_cell(p, s, d)];
        if (*pin >= 0 && *pin != v)
            return shf_record_bad(rec, 2, "staff %s, day %d is pinned twice",
                                  p->staff_id[s], d);
        *pin = (signed char)v;
    }
    return 0;
}

/* ---- fixed cells that break a hard rule on their own ---- */

/* What the roster must hold in cell (s, d): a fixed value, 0 on a fixed
 * day off, -1 where the search decides. */
static int known(const struct shf_problem *p, int s, int d)
{
    int c = shf_cell(p, s, d);
    return p->fixed[c] >= 0 ? p->fixed[c] : p->day_off[c] ? 0 : -1;
}

/* Cell (s, d) in words: "A day 12 (pinned E)", "(published off)". */
static void cell_words(const struct shf_problem *p, int s, int d, char *buf,
                       size_t size)
{
    int c = shf_cell(p, s, d), v = p->fixed[c];
    snprintf(buf, size, "%s day %d (%s %s)", p->staff_id[s], d,
             v < 0                         ? "a fixed day"
             : p->reroster->pinned[c] >= 0 ? "pinned"
                                           : "published",
             v > 0 ? p->shift_id[v - 1] : "off");
}

static bool clash(struct shf_reroster *rr, const char *fmt, ...)
    CS_PRINTF(2, 3);

static bool clash(struct shf_reroster *rr, const char *fmt, ...)
{
    int n = snprintf(rr->clash, sizeof rr->clash,
                     "fixed cells break a hard rule: ");
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(rr->clash + n, sizeof rr->clash - (size_t)n, fmt, ap);
    va_end(ap);
    return true;
}

/* Runs of known worked or free days bounded by known days of the other
 * kind (or a horizon's end): each too long or too short for staff s. */
static bool runs_clash(const struct shf_problem *p, int s,
                       struct shf_reroster *rr)
{
    char a[96], b[96];
    for (int d = 0; d < p->ndays;) {
        int v = known(p, s, d), e = d;
        if (v < 0) {
            d++;
            continue;
        }
        while (e + 1 < p->ndays && known(p, s, e + 1) >= 0 &&
               (known(p, s, e + 1) > 0) == (v > 0))
            e++;
        int len = e - d + 1, before = d ? known(p, s, d - 1) : -2,
            after = e + 1 < p->ndays ? known(p, s, e + 1) : -2;
        /* bounded: the other kind on both sides, not a horizon's end */
        bool bounded = before >= 0 && after >= 0;
        cell_words(p, s, d, a, sizeof a);
        cell_words(p, s, e, b, sizeof b);
        if (v > 0 && len > p->max_cons[s])
            return clash(rr, "%s to %s work %d days in a row (max %d)", a, b,
                         len, p->max_cons[s]);
        if (v > 0 && bounded && len < p->min_cons[s])
            return clash(rr,
                         "%s to %s work %d days in a row between days off "
                         "(min %d)",
                         a, b, len, p->min_cons[s]);
        if (!v && bounded && len < p->min_off[s])
            return clash(rr,
                         "%s to %s are %d days off between worked days "
                         "(min %d)",
                         a, b, len, p->min_off[s]);
        d = e + 1;
    }
    return false;
}

/* The first hard rule the fixed cells break whatever the rest holds. */
static bool find_clash(const struct shf_problem *p, struct shf_reroster *rr)
{
    char a[96], b[96];
    for (int s = 0; s < p->nstaff; s++) {
        int64_t minutes = 0;
        int weekends = 0, count[SHF_MAX_SHIFTS] = {0};
        for (int d = 0; d < p->ndays; d++) {
            int c = shf_cell(p, s, d), v = p->fixed[c];
            if (v <= 0)
                continue;
            cell_words(p, s, d, a, sizeof a);
            if (p->day_off[c])
                return clash(rr, "%s falls on a fixed day off", a);
            int u = d ? p->fixed[c - 1] : -1;
            if (u > 0 && (p->no_next[u - 1] >> (v - 1) & 1)) {
                cell_words(p, s, d - 1, b, sizeof b);
                return clash(rr, "%s and %s: shift %s may not follow %s", b, a,
                             p->shift_id[v - 1], p->shift_id[u - 1]);
            }
            for (int k = p->partner_start[s]; k < p->partner_start[s + 1]; k++)
                if (p->fixed[shf_cell(p, p->partners[k], d)] == v) {
                    cell_words(p, p->partners[k], d, b, sizeof b);
                    return clash(rr,
                                 "%s and %s: the two may not work the "
                                 "same shift",
                                 a, b);
                }
            count[v - 1]++;
            minutes += p->minutes[v - 1];
            weekends += shf_weekend_day(p, d) &&
                        !((p->weekday0 + d) % 7 == SHF_SUNDAY && u > 0);
        }
        const char *who = p->staff_id[s];
        for (int t = 0; t < p->nshifts; t++)
            if (count[t] > p->max_count[s * p->nshifts + t])
                return clash(rr,
                             "staff %s's fixed cells work shift %s %d "
                             "times (max %d)",
                             who, p->shift_id[t], count[t],
                             p->max_count[s * p->nshifts + t]);
        if (minutes > p->max_minutes[s])
            return clash(
                rr, "staff %s's fixed cells work %" PRId64 " minutes (max %d)",
                who, minutes, p->max_minutes[s]);
        if (weekends > p->max_weekends[s])
            return clash(rr, "staff %s's fixed cells work %d weekends (max %d)",
                         who, weekends, p->max_weekends[s]);
        if (runs_clash(p, s, rr))
            return true;
    }
    return false;
}

/* A file key's value relative to the config, read record by record. */
static int read_file(struct reading *rd, const struct cs_config *cfg,
                     const char *key, const char *header,
                     int (*take)(struct shf_record *, void *),
                     struct cs_error *err)
{
    if (!cs_config_has(cfg, key))
        return 0;
    char *path = cs_config_path(cfg, key);
    int rc = shf_read_records(rd->p, path, header, take, rd, err);
    free(path);
    if (rc && !err->line) { /* the file itself: the key's fault */
        char msg[sizeof err->msg];
        memcpy(msg, err->msg, sizeof msg);
        cs_error_at(err, cs_config_pos(cfg, key), "%s", msg);
    }
    return rc;
}

int shf_setup_reroster(struct shf_problem *p, const struct cs_config *cfg,
                       struct cs_error *err)
{
    int given = 0;
    while (keys[given] && !cs_config_has(cfg, keys[given]))
        given++;
    if (!keys[given])
        return 0;
    if (!p->pin)
        return cs_error_at(err, cs_config_pos(cfg, keys[given]),
                           "'%s' re-rosters: it needs params.roster, the "
                           "published roster",
                           keys[given]);
    size_t cells = (size_t)p->nstaff * (size_t)p->ndays;
    struct shf_reroster *rr = p->reroster = cs_xcalloc(1, sizeof *rr);
    rr->published = p->pin;
    p->pin = NULL;
    rr->pinned = cs_xmalloc(cells);
    memset(rr->pinned, -1, cells);
    rr->from_day = (int)cs_config_int(cfg, "params.from_day");
    rr->change_weight = (int)cs_config_int(cfg, "params.change_weight");
    if (rr->from_day >= p->ndays)
        return cs_error_at(err, cs_config_pos(cfg, "params.from_day"),
                           "params.from_day %d is outside the horizon (0 to "
                           "%d)",
                           rr->from_day, p->ndays - 1);
    struct reading rd = {p, rr};
    if (read_file(&rd, cfg, "params.change", "", take_change, err) ||
        read_file(&rd, cfg, "params.pinned", "staff", take_pin, err))
        return -1;
    shf_problem_days(p);
    p->fixed = cs_xmalloc(cells);
    for (int s = 0; s < p->nstaff; s++)
        for (int d = 0; d < p->ndays; d++) {
            int c = shf_cell(p, s, d);
            p->fixed[c] = rr->pinned[c] >= 0 ? rr->pinned[c]
                          : d < rr->from_day ? rr->published[c]
                                             : -1;
            if (d < rr->from_day || !rr->change_weight)
                continue;
            /* a change costs what a request for the published value does */
            int v = rr->published[c];
            struct shf_request q = {.staff = s,
                                    .day = d,
                                    .shift = v - 1,
                                    .weight = rr->change_weight};
            shf_add_request_cost(p, &q, v > 0);
        }
    find_clash(p, rr);
    return 0;
}

/* ---- the text lines of a re-roster (check.c's roster writer) ---- */

/* A penalty by rule; with sign, each amount with its sign (a difference). */
static void put_rules(struct shf_line *l, const char *head,
                      const struct shf_report *r, bool sign)
{
    const char *const names[] = {": cover under ", ", cover over ",
                                 ", shift-on requests ",
                                 ", shift-off requests ", ", changes "};
    const int64_t amounts[] = {r->total, r->under, r->over,
                               r->on,    r->off,   r->change};
    shf_put(l, "%spenalty ", head);
    for (int i = 0; i < 6; i++)
        shf_put(l, sign ? "%s%+" PRId64 : "%s%" PRId64, i ? names[i - 1] : "",
                amounts[i]);
}

void shf_write_changes(const struct shf_problem *p, const signed char *roster,
                       struct cs_board *out)
{
    const struct shf_reroster *rr = p->reroster;
    struct shf_report now, then;
    shf_check(p, roster, &now);
    shf_check(p, rr->published, &then);
    struct shf_line l = {0};
    put_rules(&l, "published: ", &then, false);
    shf_flush(&l, out);
    if (then.violations)
        shf_put(&l, "published, hard rules: %d broken; first: %s",
                then.violations, then.first);
    else
        shf_put(&l, "published, hard rules: all kept");
    shf_flush(&l, out);
    struct shf_report diff = {.total = now.total - then.total,
                              .under = now.under - then.under,
                              .over = now.over - then.over,
                              .on = now.on - then.on,
                              .off = now.off - then.off,
                              .change = now.change - then.change};
    put_rules(&l, "difference: ", &diff, true);
    shf_flush(&l, out);
    shf_put(&l, "changed %d cell%s from day %d (weight %d each)%s", now.changed,
            now.changed == 1 ? "" : "s", rr->from_day, rr->change_weight,
            now.changed ? ":" : "");
    for (int s = 0; s < p->nstaff; s++)
        for (int d = rr->from_day; d < p->ndays; d++) {
            int c = shf_cell(p, s, d), a = rr->published[c], b = roster[c];
            if (a != b)
                shf_put(&l, " %s day %d %s to %s;", p->staff_id[s], d,
                        a > 0 ? p->shift_id[a - 1] : "off",
                        b > 0 ? p->shift_id[b - 1] : "off");
        }
    if (l.len && l.buf[l.len - 1] == ';')
        l.buf[--l.len] = '\0';
    shf_flush(&l, out);
    free(l.buf);
}
