/* shifts/page.c - a roster as one self-contained HTML page.
 *
 * Like the text roster (check.c) the page reads only the problem as written
 * and the roster, and its penalties and verdict are the independent
 * checker's: it shares nothing with the search.  It loads nothing from
 * outside itself; its one script runs only under ?selftest, where it writes
 * what the browser drew (rows, colours, marks, the penalty) for the tests.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "shifts/shifts.h"

static const char *const weekday_short[] = {"Mo", "Tu", "We", "Th",
                                            "Fr", "Sa", "Su"};

/* s with &, <, >, " and ' escaped: safe in text and in attributes. */
void shf_put_text(struct shf_line *l, const char *s)
{
    for (; *s; s++)
        switch (*s) {
        case '&':
            shf_put(l, "&amp;");
            break;
        case '<':
            shf_put(l, "&lt;");
            break;
        case '>':
            shf_put(l, "&gt;");
            break;
        case '"':
            shf_put(l, "&quot;");
            break;
        case '\'':
            shf_put(l, "&#39;");
            break;
        default:
            shf_put(l, "%c", *s);
        }
}

static const char style[] =
    "<style>\n"
    "body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}\n"
    "h1{font-size:1.3em;margin:0 0 .3em}\n"
    "table{border-collapse:collapse}\n"
    "#roster th,#roster td{border:1px solid #bbb;padding:2px 4px;"
    "text-align:center;min-width:1.8em}\n"
    "#roster thead th.we{background:#eee}\n"
    "#roster tbody th,#roster tfoot th{text-align:left;white-space:nowrap}\n"
    ".off{background:#fff}\n"
    ".fixed{background:repeating-linear-gradient(45deg,#fff 0 3px,"
    "#ccc 3px 5px)}\n"
    ".unmet{box-shadow:inset 0 0 0 2px #d00;font-weight:bold}\n"
    "tfoot td{font-size:.85em}\n"
    ".under{background:#f66;color:#fff;font-weight:bold}\n"
    ".over{background:#fc6;font-weight:bold}\n"
    ".pinned{outline:2px solid #06c;outline-offset:-4px}\n"
    ".past{opacity:.55}\n"
    ".changed{box-shadow:inset 0 0 0 3px #090;font-style:italic}\n"
    "#status{font-weight:bold}\n"
    "#penalties{margin:.8em 0}\n"
    "#penalties th{text-align:left;padding:1px 1em 1px 0;font-weight:normal}"
    "\n#penalties td{text-align:right}\n"
    "#penalties tr.total th,#penalties tr.total td{font-weight:bold;"
    "border-top:1px solid #888}\n"
    "#legend span{display:inline-block;border:1px solid #bbb;"
    "padding:0 .4em;margin:0 .6em .3em 0}\n"
    ".verdict.broken{color:#c00;font-weight:bold}\n"
    "#roster .tally{background:#f6f6f6;min-width:3em}\n"
    "#compare{margin:.8em 0}#compare caption{text-align:left}\n"
    "#compare th,#compare td{padding:1px .6em;text-align:right}\n"
    "#compare th:first-child{text-align:left;font-weight:normal}";

/* One colour per shift type: hues a golden angle apart, in three
 * lightnesses, light enough for dark text. */
static void put_colours(struct shf_line *l, const struct shf_problem *p,
                        struct cs_board *out)
{
    for (int t = 0; t < p->nshifts; t++) {
        int hue = (int)((200000 + 137508 * (int64_t)t) / 1000 % 360);
        shf_put(l, ".s%d{background:hsl(%d,70%%,%d%%)}", t, hue,
                82 - 9 * (t % 3));
        shf_flush(l, out);
    }
}

/* Requests a cell's value leaves unmet, each cell's as a list: first[c]
 * then next[i]; i < non is an on request, else off request i - non. */
static int *unmet_requests(const struct shf_problem *p,
                           const signed char *roster, int **next_out)
{
    size_t cells = (size_t)p->nstaff * (size_t)p->ndays;
    int *first = cs_xmalloc(cells * sizeof *first);
    int *next =
        cs_xmalloc(((size_t)p->non + (size_t)p->noff + 1) * sizeof *next);
    for (size_t c = 0; c < cells; c++)
        first[c] = -1;
    for (int i = 0; i < p->non + p->noff; i++) {
        bool on = i < p->non;
        const struct shf_request *q = on ? &p->on[i] : &p->off[i - p->non];
        int c = shf_cell(p, q->staff, q->day), v = roster[c];
        bool unmet =
            on ? v != q->shift + 1 : (q->shift < 0 ? v > 0 : v == q->shift + 1);
        if (unmet) {
            next[i] = first[c];
            first[c] = i;
        }
    }
    *next_out = next;
    return first;
}

static void put_request(struct shf_line *l, const struct shf_problem *p, int i)
{
    bool on = i < p->non;
    const struct shf_request *q = on ? &p->on[i] : &p->off[i - p->non];
    if (on || q->shift >= 0) {
        shf_put(l, on ? "asked for shift " : "asked not for shift ");
        shf_put_text(l, p->shift_id[q->shift]);
    } else {
        shf_put(l, "asked for a day off");
    }
    shf_put(l, " (weight %d)", q->weight);
}

/* A re-roster's marks of cell (s, d): pinned, past (before from_day),
 * changed; the published value of a changed cell, else -1. */
static int put_change(struct shf_line *l, const struct shf_problem *p,
                      const signed char *roster, int s, int d)
{
    const struct shf_reroster *rr = p->reroster;
    if (!rr)
        return -1;
    int c = shf_cell(p, s, d), was = rr->published[c];
    bool changed = d >= rr->from_day && roster[c] != was;
    shf_put(l, "%s%s%s", rr->pinned[c] >= 0 ? " pinned" : "",
            d < rr->from_day ? " past" : "", changed ? " changed" : "");
    return changed ? was : -1;
}

/* The instance's name: its file's, without directories and extension. */
static void instance_name(const struct shf_problem *p, char *name, size_t size)
{
    const char *path = p->source ? p->source : "shifts";
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    const char *dot = strrchr(base, '.');
    size_t len = dot && dot > base ? (size_t)(dot - base) : strlen(base);
    snprintf(name, size, "%.*s", (int)(len < size ? len : size - 1), base);
}

static void put_grid(struct shf_line *l, const struct shf_problem *p,
                     const signed char *roster, struct cs_board *out)
{
    shf_put(l, "<table id=\"roster\"><thead><tr><th>staff</th>");
    for (int d = 0; d < p->ndays; d++)
        shf_put(
            l,
            "<th class=\"day%s\" title=\"day %d in the files\">%d<br>%s</th>",
            shf_weekend_day(p, d) ? " we" : "", d, d + 1,
            weekday_short[(p->weekday0 + d) % 7]);
    shf_put(l, "<th class=\"tally\">nights</th><th class=\"tally\">weekends"
               "</th></tr></thead><tbody>");
    shf_flush(l, out);
    int *next, *first = unmet_requests(p, roster, &next);
    int *nights = cs_xmalloc(2 * (size_t)p->nstaff * sizeof *nights);
    shf_tallies(p, roster, nights, nights + p->nstaff);
    for (int s = 0; s < p->nstaff; s++) {
        shf_put(l, "<tr><th>");
        shf_put_text(l, p->staff_id[s]);
        shf_put(l, "</th>");
        for (int d = 0; d < p->ndays; d++) {
            int c = shf_cell(p, s, d), v = roster[c];
            if (v > 0)
                shf_put(l, "<td class=\"s%d", v - 1);
            else
                shf_put(l, "<td class=\"off");
            shf_put(l, "%s%s", p->day_off[c] ? " fixed" : "",
                    first[c] >= 0 ? " unmet" : "");
            int was = put_change(l, p, roster, s, d);
            shf_put(l, "\"");
            if (p->day_off[c] || first[c] >= 0 || was >= 0) {
                shf_put(l, " title=\"%s", p->day_off[c] ? "fixed day off" : "");
                for (int i = first[c]; i >= 0; i = next[i]) {
                    shf_put(l, "%s",
                            i != first[c] || p->day_off[c] ? "; " : "");
                    put_request(l, p, i);
                }
                if (was >= 0) {
                    shf_put(l, "%swas ",
                            p->day_off[c] || first[c] >= 0 ? "; " : "");
                    shf_put_text(l, was ? p->shift_id[was - 1] : "off");
                }
                shf_put(l, "\"");
            }
            shf_put(l, ">");
            if (v > 0)
                shf_put_text(l, p->shift_id[v - 1]);
            shf_put(l, "</td>");
        }
        shf_put(l,
                "<td class=\"tally\">%d</td><td class=\"tally\">%d</td></tr>",
                nights[s], nights[p->nstaff + s]);
        shf_flush(l, out);
    }
    free(nights);
    free(first);
    free(next);
    /* cover: assigned/needed per shift, short and over marked */
    shf_put(l, "</tbody><tfoot>");
    shf_flush(l, out);
    for (int t = 0; t < p->nshifts; t++) {
        shf_put(l, "<tr><th>cover ");
        shf_put_text(l, p->shift_id[t]);
        shf_put(l, "</th>");
        for (int d = 0; d < p->ndays; d++) {
            int have = 0, k = d * p->nshifts + t;
            for (int s = 0; s < p->nstaff; s++)
                have += roster[shf_cell(p, s, d)] == t + 1;
            int gap = have - p->need[k];
            int64_t cost = gap < 0 ? (int64_t)-gap * p->under[k]
                                   : (int64_t)gap * p->over[k];
            if (gap < 0 || (gap > 0 && p->over[k]))
                shf_put(
                    l, "<td class=\"%s\" title=\"%d %s: penalty %" PRId64 "\">",
                    gap < 0 ? "under" : "over", gap < 0 ? -gap : gap,
                    gap < 0 ? "short" : "over", cost);
            else
                shf_put(l, "<td>");
            shf_put(l, "%d/%d</td>", have, p->need[k]);
        }
        shf_put(l, "<td class=\"tally\" colspan=\"2\"></td></tr>");
        shf_flush(l, out);
    }
    shf_put(l, "</tfoot></table>");
    shf_flush(l, out);
}

/* The penalty by rule; re-rostering, beside the published roster's and the
 * difference. */
static void put_penalties(struct shf_line *l, const struct shf_problem *p,
                          const struct shf_report *r)
{
    const char *names[SHF_RULES + 1], *ids[SHF_RULES + 1];
    int64_t now[SHF_RULES + 1], then[SHF_RULES + 1];
    int n = shf_report_rules(p, r, names, ids, now);
    names[n] = "penalty";
    now[n] = r->total;
    if (p->reroster) {
        struct shf_report b;
        shf_check(p, p->reroster->published, &b);
        shf_report_rules(p, &b, names, ids, then);
        then[n] = b.total;
    }
    shf_put(l, "<table id=\"penalties\">");
    if (p->reroster)
        shf_put(l, "<tr><th></th><th>now</th><th>published</th>"
                   "<th>difference</th></tr>");
    for (int i = 0; i <= n; i++) {
        char id[32];
        snprintf(id, sizeof id, "%s%s", i < n ? "p-" : "penalty",
                 i < n ? ids[i] : "");
        shf_put(l, "<tr%s><th>%s</th><td id=\"%s\">%" PRId64 "</td>",
                i == n ? " class=\"total\"" : "", names[i], id, now[i]);
        if (p->reroster)
            shf_put(l,
                    "<td id=\"b-%s\">%" PRId64 "</td><td id=\"d-%s\">%+" PRId64
                    "</td>",
                    id, then[i], id, now[i] - then[i]);
        shf_put(l, "</tr>");
    }
    shf_put(l, "</table>");
}

static const char selftest[] =
    "<pre id=\"selftest\" hidden></pre>\n"
    "<script>\n"
    "if (location.search === '?selftest') {\n"
    "  const all = s => Array.from(document.querySelectorAll(s));\n"
    "  const rows = all('#roster tbody tr'), out = [];\n"
    "  const cells = rows.map(r => r.querySelectorAll('td:not(.tally)')"
    ".length);\n"
    "  out.push('staff rows ' + rows.length + ', days ' +\n"
    "           all('#roster thead th.day').length + ', cells per row ' +\n"
    "           Array.from(new Set(cells)).join(' '));\n"
    "  const colour = new Map();\n"
    "  for (const td of all('#roster tbody td')) {\n"
    "    const k = Array.from(td.classList).find(c => /^s\\d+$/.test(c));\n"
    "    if (!k) continue;\n"
    "    if (!colour.has(k)) colour.set(k, new Set());\n"
    "    colour.get(k).add(getComputedStyle(td).backgroundColor);\n"
    "  }\n"
    "  const each = Array.from(colour.values());\n"
    "  const distinct = new Set(each.flatMap(c => Array.from(c)));\n"
    "  out.push('shift types ' + colour.size + ', colours ' + distinct.size +\n"
    "           (each.every(c => c.size === 1) ? ', one each' : ', mixed'));\n"
    "  out.push('fixed days off ' + all('#roster td.fixed').length +\n"
    "           ', unmet requests ' + all('#roster td.unmet').length);\n"
    "  out.push('under ' + all('#roster tfoot td.under').length +\n"
    "           ', over ' + all('#roster tfoot td.over').length);\n"
    "  const num = id => document.getElementById(id).textContent;\n"
    "  const rules = all('#penalties td[id^=\"p-\"]').map(td => td.id);\n"
    "  const re = document.getElementById('p-change') !== null;\n"
    "  out.push('penalty ' + num('penalty') + ' = ' +\n"
    "           rules.map(num).join(' + '));\n"
    "  if (re) {\n"
    "    out.push('pinned ' + all('#roster td.pinned').length +\n"
    "             ', changed ' + all('#roster td.changed').length +\n"
    "             ', past ' + all('#roster td.past').length);\n"
    "    out.push('published ' + num('b-penalty') + ' = ' +\n"
    "             rules.map(r => num('b-' + r)).join(' + ') +\n"
    "             ', difference ' + num('d-penalty'));\n"
    "  }\n"
    "  document.getElementById('selftest').textContent = out.join('\\n');\n"
    "}\n"
    "</script>";

void shf_write_page(const struct shf_problem *p, const signed char *roster,
                    struct cs_board *out)
{
    struct shf_report r;
    shf_check(p, roster, &r);
    struct shf_line l = {0};
    shf_put(&l, "<!DOCTYPE html>");
    shf_flush(&l, out);
    char name[128];
    instance_name(p, name, sizeof name);
    shf_put(&l, "<html lang=\"en\"><head><meta charset=\"utf-8\"><title>"
                "roster: ");
    shf_put_text(&l, name);
    shf_put(&l, ", penalty %" PRId64 "</title>", r.total);
    shf_flush(&l, out);
    shf_put(&l, "%s", style);
    shf_flush(&l, out);
    put_colours(&l, p, out);
    shf_put(&l, "</style></head><body>");
    shf_flush(&l, out);
    shf_put(&l, "<h1>Roster: ");
    shf_put_text(&l, name);
    shf_put(&l, "</h1><p>%d staff, %d days from %s, %d shift type%s (",
            p->nstaff, p->ndays,
            (const char *const[]){"Monday", "Tuesday", "Wednesday", "Thursday",
                                  "Friday", "Saturday", "Sunday"}[p->weekday0],
            p->nshifts, p->nshifts == 1 ? "" : "s");
    shf_put_text(&l, p->source ? p->source : "shifts");
    shf_put(&l, ").</p>");
    if (out->result) {
        shf_put(&l, "<p id=\"status\">");
        shf_put_text(&l, out->result);
        shf_put(&l, "</p>");
    }
    shf_flush(&l, out);
    put_penalties(&l, p, &r);
    shf_flush(&l, out);
    if (p->compare)
        shf_compare_page(p, roster, &l, out);
    if (r.violations) {
        shf_put(&l,
                "<p class=\"verdict broken\">hard rules: %d broken; "
                "first: ",
                r.violations);
        shf_put_text(&l, r.first);
        shf_put(&l, "</p>");
    } else {
        shf_put(&l, "<p class=\"verdict\">hard rules: all kept (independent "
                    "check)</p>");
    }
    shf_flush(&l, out);
    shf_put(&l, "<p id=\"legend\">");
    for (int t = 0; t < p->nshifts; t++) {
        shf_put(&l, "<span class=\"s%d\">", t);
        shf_put_text(&l, p->shift_id[t]);
        shf_put(&l, " %d min (%d:%02d h)</span>", p->minutes[t],
                p->minutes[t] / 60, p->minutes[t] % 60);
    }
    shf_put(&l, "<span class=\"off\">off</span><span class=\"fixed\">fixed "
                "day off</span><span class=\"unmet\">request not met</span>"
                "<span class=\"under\">under cover</span><span "
                "class=\"over\">over cover</span>");
    if (p->reroster)
        shf_put(&l,
                "<span class=\"pinned\">pinned</span><span "
                "class=\"past\">before day %d</span><span "
                "class=\"changed\">changed</span>",
                p->reroster->from_day);
    shf_put(&l, "</p>");
    shf_flush(&l, out);
    put_grid(&l, p, roster, out);
    shf_put(&l, "%s", selftest);
    shf_flush(&l, out);
    shf_put(&l, "</body></html>");
    shf_flush(&l, out);
    free(l.buf);
}
