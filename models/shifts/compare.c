/* shifts/compare.c - penalties by rule, and two rosters side by side.
 *
 * params.compare names a second roster (CSV, as params.roster reads it):
 * the roster printed, checked or found, gets the independent checker's
 * penalty by rule beside the other's and the change, in the text and on
 * the page.  Both reports are the checker's; nothing here counts.
 */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "shifts/shifts.h"

int shf_report_rules(const struct shf_problem *p, const struct shf_report *r,
                     const char **names, const char **ids, int64_t *values)
{
    static const char *const id[SHF_RULES] = {
        "under", "over", "on", "off", "nights", "weekends", "change"};
    const char *all[SHF_RULES] = {"cover under",
                                  "cover over",
                                  "shift-on requests",
                                  "shift-off requests",
                                  "fair nights",
                                  "fair weekends",
                                  "changes"};
    const int64_t of[SHF_RULES] = {r->under,  r->over,     r->on,    r->off,
                                   r->nights, r->weekends, r->change};
    int n = 0;
    for (int i = 0; i < SHF_RULES; i++) {
        if ((i == 4 && !p->fair.nights_weight) ||
            (i == 5 && !p->fair.weekends_weight) || (i == 6 && !p->reroster))
            continue;
        names[n] = all[i];
        if (ids)
            ids[n] = id[i];
        values[n++] = of[i];
    }
    return n;
}

/* The reader fills p->pin: take what it reads aside, keep p's own. */
int shf_read_compare(struct shf_problem *p, const char *path,
                     const char *as_given, struct cs_error *err)
{
    signed char *pin = p->pin;
    int *line = p->pin_line, *col = p->pin_col;
    p->pin = NULL;
    int rc = shf_read_roster(p, path, err);
    free(p->pin_line);
    free(p->pin_col);
    p->compare = p->pin;
    p->pin = pin;
    p->pin_line = line;
    p->pin_col = col;
    if (!rc)
        p->compare_source = cs_xstrdup(as_given);
    return rc;
}

/* Both reports' rules (the same names: one problem), the total last; and
 * the cells and rows that differ. */
struct side_by_side {
    const char *names[SHF_RULES + 1];
    int64_t here[SHF_RULES + 1], there[SHF_RULES + 1];
    int n, cells, rows;
};

static void compare(const struct shf_problem *p, const signed char *roster,
                    struct side_by_side *c)
{
    struct shf_report a, b;
    shf_check(p, roster, &a);
    shf_check(p, p->compare, &b);
    c->n = shf_report_rules(p, &a, c->names, NULL, c->here);
    shf_report_rules(p, &b, c->names, NULL, c->there);
    c->names[c->n] = "penalty";
    c->here[c->n] = a.total;
    c->there[c->n++] = b.total;
    c->cells = c->rows = 0;
    for (int s = 0; s < p->nstaff; s++) {
        int differ = 0;
        for (int d = 0; d < p->ndays; d++)
            differ +=
                roster[shf_cell(p, s, d)] != p->compare[shf_cell(p, s, d)];
        c->cells += differ;
        c->rows += differ > 0;
    }
}

void shf_write_compare(const struct shf_problem *p, const signed char *roster,
                       struct cs_board *out)
{
    struct side_by_side c;
    compare(p, roster, &c);
    struct shf_line l = {0};
    shf_put(&l, "compared with %s: %d cells differ, in %d of %d staff rows",
            p->compare_source, c.cells, c.rows, p->nstaff);
    shf_flush(&l, out);
    shf_put(&l, "%-18s %10s %10s %10s", "rule", "this", "that", "change");
    shf_flush(&l, out);
    for (int i = 0; i < c.n; i++) {
        shf_put(&l, "%-18s %10" PRId64 " %10" PRId64 " %+10" PRId64, c.names[i],
                c.here[i], c.there[i], c.here[i] - c.there[i]);
        shf_flush(&l, out);
    }
    free(l.buf);
}

void shf_compare_page(const struct shf_problem *p, const signed char *roster,
                      struct shf_line *l, struct cs_board *out)
{
    struct side_by_side c;
    compare(p, roster, &c);
    shf_put(l, "<table id=\"compare\"><caption>compared with ");
    shf_put_text(l, p->compare_source);
    shf_put(l, ": %d cells differ, in %d of %d staff rows</caption>", c.cells,
            c.rows, p->nstaff);
    shf_put(l, "<tr><th>rule</th><th>this</th><th>that</th><th>change</th>"
               "</tr>");
    for (int i = 0; i < c.n; i++)
        shf_put(l,
                "<tr%s><th>%s</th><td>%" PRId64 "</td><td>%" PRId64
                "</td><td class=\"change\">%+" PRId64 "</td></tr>",
                i == c.n - 1 ? " class=\"total\"" : "", c.names[i], c.here[i],
                c.there[i], c.here[i] - c.there[i]);
    shf_put(l, "</table>");
    shf_flush(l, out);
}
