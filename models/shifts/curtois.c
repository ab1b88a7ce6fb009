/* curtois.c - text readers: the Shift Scheduling Benchmark's instance
 * format, and rosters as CSV.
 *
 * An instance is a list of sections (SECTION_HORIZON, SECTION_SHIFTS,
 * SECTION_STAFF, SECTION_DAYS_OFF, SECTION_SHIFT_ON_REQUESTS,
 * SECTION_SHIFT_OFF_REQUESTS, SECTION_COVER), each a header line and
 * comma-separated records; '#' starts a comment line, lines may end in CRLF.
 * Every complaint names the file, the line and the column of the field.
 * The horizon starts on a Monday.
 */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csearch/file.h"
#include "shifts/shifts.h"

/* A line cut into fields at a separator, each with its 1-based column. */
#define MAX_FIELDS 4096
#define SHF_MAX_FILE_BYTES ((size_t)64 << 20)
#define SHF_MAX_LINE 65536
struct fields {
    char *f[MAX_FIELDS];
    int col[MAX_FIELDS];
    int n;
};

static void split(char *line, char sep, struct fields *out)
{
    out->n = 0;
    char *start = line;
    for (char *c = line;; c++)
        if (*c == sep || !*c) {
            bool end = !*c;
            *c = '\0';
            if (out->n < MAX_FIELDS) {
                out->f[out->n] = start;
                out->col[out->n++] = (int)(start - line) + 1;
            }
            if (end)
                break;
            start = c + 1;
        }
}

/* The whole file, lines cut in place; NULL with err (no position).  A pipe
 * is read as a stream; a device, a directory or a file over the cap is
 * refused before it is read. */
static char *slurp(const char *path, struct cs_error *err)
{
    struct cs_file f;
    int rc = cs_file_read(path, SHF_MAX_FILE_BYTES, CS_FILE_STREAM, &f);
    if (rc)
        cs_error_set(err, NULL, "cannot %s '%s': %s",
                     rc == CS_FILE_CANNOT_OPEN ? "open" : "read", path, f.why);
    return f.text;
}

/* Next line of *text (CR and LF stripped), or NULL at the end. */
static char *next_line(char **text)
{
    char *line = *text;
    if (!*line)
        return NULL;
    char *nl = strchr(line, '\n');
    *text = nl ? nl + 1 : line + strlen(line);
    if (nl)
        *nl = '\0';
    size_t len = strlen(line);
    while (len && (line[len - 1] == '\r' || line[len - 1] == ' ' ||
                   line[len - 1] == '\t'))
        line[--len] = '\0';
    return line;
}

struct reader {
    struct shf_problem *p;
    const char *path;
    int line;
    struct cs_error *err;
};

static int bad(struct reader *r, int col, const char *fmt, ...) CS_PRINTF(3, 4);

static int bad(struct reader *r, int col, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return cs_error_at(r->err, (struct cs_pos){r->path, r->line, col}, "%s",
                       msg);
}

/* A line over SHF_MAX_LINE characters: refused (no field is that long). */
static int too_long(struct reader *r, const char *line)
{
    size_t len = strlen(line);
    return len > SHF_MAX_LINE
               ? bad(r, SHF_MAX_LINE + 1, "line longer than %d characters",
                     SHF_MAX_LINE)
               : 0;
}

/* A whole non-negative integer field up to max. */
static int number(struct reader *r, const struct fields *f, int i,
                  const char *what, int max, int *out)
{
    if (i >= f->n || !f->f[i][0])
        return bad(r, i < f->n ? f->col[i] : 1, "missing %s", what);
    char *end;
    errno = 0;
    long v = strtol(f->f[i], &end, 10);
    /* "-0" is zero (Instance15 writes it); other signs are refused */
    if (*end || (f->f[i][0] == '-' && v) || f->f[i][0] == '+')
        return bad(r, f->col[i], "%s must be a whole number, not '%s'", what,
                   f->f[i]);
    if (errno) /* beyond a long: beyond max too */
        return bad(r, f->col[i], "%s %s is more than %d", what, f->f[i], max);
    if (v > max)
        return bad(r, f->col[i], "%s %ld is more than %d", what, v, max);
    *out = (int)v;
    return 0;
}

static int want_fields(struct reader *r, const struct fields *f, int n,
                       const char *what)
{
    if (f->n != n)
        return bad(r, 1, "%s needs %d fields, not %d", what, n, f->n);
    return 0;
}

static int shift_of(struct reader *r, const struct fields *f, int i)
{
    int t = shf_find(r->p->shift_id, r->p->nshifts, f->f[i]);
    if (t < 0)
        bad(r, f->col[i], "unknown shift '%s'", f->f[i]);
    return t;
}

static int staff_of(struct reader *r, const struct fields *f, int i)
{
    int s = shf_find(r->p->staff_id, r->p->nstaff, f->f[i]);
    if (s < 0)
        bad(r, f->col[i], "unknown staff '%s'", f->f[i]);
    return s;
}

static int day_of(struct reader *r, const struct fields *f, int i, int *day)
{
    if (number(r, f, i, "day", INT_MAX, day))
        return -1;
    if (*day >= r->p->ndays)
        return bad(r, f->col[i], "day %d is outside the horizon (0 to %d)",
                   *day, r->p->ndays - 1);
    return 0;
}

static int read_shift(struct reader *r, struct fields *f)
{
    struct shf_problem *p = r->p;
    if (want_fields(r, f, 3,
                    "a shift (ID, minutes, shifts that cannot "
                    "follow)"))
        return -1;
    if (!f->f[0][0])
        return bad(r, 1, "missing shift id");
    if (shf_find(p->shift_id, p->nshifts, f->f[0]) >= 0)
        return bad(r, 1, "shift '%s' is defined twice", f->f[0]);
    if (p->nshifts == SHF_MAX_SHIFTS)
        return bad(r, 1, "more than %d shift types", SHF_MAX_SHIFTS);
    int t = shf_add_shift(p, f->f[0]);
    return number(r, f, 1, "shift length", 24 * 60 * 7, &p->minutes[t]);
}

/* The shifts that cannot follow: after every shift is known. */
static int read_no_next(struct reader *r, struct fields *f)
{
    struct shf_problem *p = r->p;
    int t = shf_find(p->shift_id, p->nshifts, f->f[0]);
    if (!f->f[2][0])
        return 0;
    char *list = f->f[2];
    int base = f->col[2];
    struct fields g;
    split(list, '|', &g);
    for (int i = 0; i < g.n; i++) {
        int u = shf_find(p->shift_id, p->nshifts, g.f[i]);
        if (u < 0)
            return bad(r, base + g.col[i] - 1, "unknown shift '%s'", g.f[i]);
        p->no_next[t] |= UINT64_C(1) << u;
    }
    return 0;
}

static int read_staff(struct reader *r, struct fields *f)
{
    struct shf_problem *p = r->p;
    if (want_fields(r, f, 8,
                    "a staff line (ID, MaxShifts, MaxTotalMinutes, "
                    "MinTotalMinutes, MaxConsecutiveShifts, "
                    "MinConsecutiveShifts, MinConsecutiveDaysOff, "
                    "MaxWeekends)"))
        return -1;
    if (!f->f[0][0])
        return bad(r, 1, "missing staff id");
    if (shf_find(p->staff_id, p->nstaff, f->f[0]) >= 0)
        return bad(r, 1, "staff '%s' is defined twice", f->f[0]);
    if (p->nstaff == SHF_MAX_STAFF)
        return bad(r, 1, "more than %d staff", SHF_MAX_STAFF);
    int s = shf_add_staff(p, f->f[0], r->line);
    /* MaxShifts: D=14|E=3 */
    int base = f->col[1];
    struct fields g;
    split(f->f[1], '|', &g);
    for (int i = 0; i < g.n && f->f[1][0]; i++) {
        char *eq = strchr(g.f[i], '=');
        int col = base + g.col[i] - 1;
        if (!eq)
            return bad(r, col, "max shifts must be SHIFT=NUMBER, not '%s'",
                       g.f[i]);
        *eq = '\0';
        int t = shf_find(p->shift_id, p->nshifts, g.f[i]);
        if (t < 0)
            return bad(r, col, "unknown shift '%s'", g.f[i]);
        struct fields one = {
            .f = {eq + 1}, .col = {col + (int)(eq - g.f[i]) + 1}, .n = 1};
        if (number(r, &one, 0, "max shifts", INT_MAX,
                   &p->max_count[s * p->nshifts + t]))
            return -1;
    }
    return number(r, f, 2, "MaxTotalMinutes", INT_MAX, &p->max_minutes[s]) ||
                   number(r, f, 3, "MinTotalMinutes", INT_MAX,
                          &p->min_minutes[s]) ||
                   number(r, f, 4, "MaxConsecutiveShifts", INT_MAX,
                          &p->max_cons[s]) ||
                   number(r, f, 5, "MinConsecutiveShifts", INT_MAX,
                          &p->min_cons[s]) ||
                   number(r, f, 6, "MinConsecutiveDaysOff", INT_MAX,
                          &p->min_off[s]) ||
                   number(r, f, 7, "MaxWeekends", INT_MAX, &p->max_weekends[s])
               ? -1
               : 0;
}

static int read_days_off(struct reader *r, struct fields *f)
{
    int s = staff_of(r, f, 0);
    if (s < 0)
        return -1;
    for (int i = 1; i < f->n; i++) {
        struct shf_day_off *o = shf_add_day_off(r->p);
        o->staff = s;
        o->line = r->line;
        o->col = f->col[i];
        if (day_of(r, f, i, &o->day))
            return -1;
    }
    return 0;
}

static int read_request(struct reader *r, struct fields *f, bool on)
{
    if (want_fields(r, f, 4, "a request (staff, day, shift, weight)"))
        return -1;
    struct shf_request *q = shf_add_request(r->p, on);
    q->line = r->line;
    q->col = 1;
    if ((q->staff = staff_of(r, f, 0)) < 0 || day_of(r, f, 1, &q->day) ||
        (q->shift = shift_of(r, f, 2)) < 0 ||
        number(r, f, 3, "weight", INT_MAX / 64, &q->weight))
        return -1;
    return 0;
}

static int read_cover(struct reader *r, struct fields *f)
{
    if (want_fields(r, f, 5,
                    "a cover line (day, shift, requirement, "
                    "under weight, over weight)"))
        return -1;
    struct shf_cover_line *c = shf_add_cover(r->p);
    c->line = r->line;
    c->col = 1;
    if (day_of(r, f, 0, &c->day) || (c->shift = shift_of(r, f, 1)) < 0 ||
        number(r, f, 2, "requirement", SHF_MAX_STAFF, &c->need) ||
        number(r, f, 3, "under weight", INT_MAX / 64 / SHF_MAX_STAFF,
               &c->under) ||
        number(r, f, 4, "over weight", INT_MAX / 64 / SHF_MAX_STAFF, &c->over))
        return -1;
    return 0;
}

enum section {
    S_NONE,
    S_HORIZON,
    S_SHIFTS,
    S_STAFF,
    S_DAYS_OFF,
    S_ON,
    S_OFF,
    S_COVER
};
static const char *const section_names[] = {"",
                                            "SECTION_HORIZON",
                                            "SECTION_SHIFTS",
                                            "SECTION_STAFF",
                                            "SECTION_DAYS_OFF",
                                            "SECTION_SHIFT_ON_REQUESTS",
                                            "SECTION_SHIFT_OFF_REQUESTS",
                                            "SECTION_COVER"};

static int read_line(struct reader *r, enum section sec, struct fields *f,
                     int *pass)
{
    struct shf_problem *p = r->p;
    switch (sec) {
    case S_NONE:
        return bad(r, 1, "a record before any SECTION_ line");
    case S_HORIZON:
        if (p->ndays)
            return bad(r, 1, "the horizon is given twice");
        if (want_fields(r, f, 1, "the horizon (a number of days)") ||
            number(r, f, 0, "horizon", SHF_MAX_DAYS, &p->ndays))
            return -1;
        if (!p->ndays)
            return bad(r, 1, "the horizon must be at least one day");
        return 0;
    case S_SHIFTS:
        return *pass ? read_no_next(r, f) : read_shift(r, f);
    case S_STAFF:
        return read_staff(r, f);
    case S_DAYS_OFF:
        return read_days_off(r, f);
    case S_ON:
    case S_OFF:
        return read_request(r, f, sec == S_ON);
    case S_COVER:
        return read_cover(r, f);
    }
    return 0;
}

/* A section missing: the error at the end of the file (its last line's
 * end, or the line after it when the file ends with a line break). */
static int at_end(struct reader *r, const char *whole, const char *section)
{
    const char *nl = strrchr(whole, '\n');
    size_t tail = strlen(nl ? nl + 1 : whole);
    int line = r->line, col = (int)tail + 1;
    if (whole[0] && !tail) {
        line++;
        col = 1;
    }
    return cs_error_at(r->err, (struct cs_pos){r->path, line ? line : 1, col},
                       "the file ends without %s", section);
}

/* Two passes: the first reads the shifts (so that "cannot follow" may name
 * a shift defined further down), the second everything else. */
int shf_read_curtois(struct shf_problem *p, const char *path,
                     struct cs_error *err)
{
    p->source = cs_xstrdup(cs_file_name(path));
    struct reader r = {p, p->source, 0, err};
    struct fields *f = cs_xmalloc(sizeof *f);
    int rc = 0;
    /* read once (it may be a pipe), cut in place by each pass's copy */
    char *whole = slurp(path, err);
    size_t size = whole ? strlen(whole) + 1 : 0;
    for (int pass = 0; pass < 2 && !rc; pass++) {
        char *buf = whole ? memcpy(cs_xmalloc(size), whole, size) : NULL;
        if (!buf) {
            rc = -1;
            break;
        }
        char *text = buf, *line;
        enum section sec = S_NONE;
        bool seen[8] = {false};
        r.line = 0;
        while (!rc && (line = next_line(&text))) {
            r.line++;
            if ((rc = too_long(&r, line)))
                break;
            if (!line[0] || line[0] == '#')
                continue;
            if (!strncmp(line, "SECTION_", 8)) {
                int k = 1;
                while (k <= S_COVER && strcmp(line, section_names[k]))
                    k++;
                if (k > S_COVER)
                    rc = bad(&r, 1, "unknown section '%s'", line);
                else if (seen[k])
                    rc = bad(&r, 1, "section %s is given twice", line);
                else if (k > S_SHIFTS && !p->ndays)
                    rc = bad(&r, 1, "%s before SECTION_HORIZON", line);
                else if (k > S_STAFF && !p->nstaff && pass)
                    rc = bad(&r, 1, "%s before SECTION_STAFF", line);
                else
                    seen[k] = true;
                sec = (enum section)k;
                continue;
            }
            if (pass == 0 && sec != S_SHIFTS && sec != S_HORIZON)
                continue;
            if (pass == 1 && sec == S_HORIZON)
                continue;
            split(line, ',', f);
            int second = pass;
            rc = read_line(&r, sec, f, &second);
        }
        /* every section is needed (an empty one says "none"): a file cut
         * at a line boundary is refused where it ends */
        for (int k = 1; !rc && k <= S_COVER; k++)
            if (!seen[k] && (pass || k == S_HORIZON))
                rc = at_end(&r, whole, section_names[k]);
        free(buf);
    }
    free(f);
    free(whole);
    return rc ? -1 : shf_problem_finish(p, err);
}

/* A roster line cut at its commas as RFC 4180 has it: a field in double
 * quotes may hold commas, and two quotes in it stand for one (unquoted in
 * place).  A record ends with its line: ids hold no line breaks.  0, or -1
 * with err at the quote that is wrong. */
static int split_quoted(struct reader *r, char *line, struct fields *out)
{
    out->n = 0;
    for (char *c = line;; c++) {
        char *start = c, *to = c;
        int col = (int)(c - line) + 1;
        if (*c == '"') {
            for (c++; *c != '"' || c[1] == '"'; c++) {
                if (!*c)
                    return bad(r, col,
                               "a quoted field must end on its "
                               "line: no closing quote");
                c += *c == '"'; /* a doubled quote: one */
                *to++ = *c;
            }
            c++;
            if (*c && *c != ',')
                return bad(r, (int)(c - line) + 1,
                           "a comma or the end of the line must follow a "
                           "quoted field");
        } else {
            for (; *c && *c != ','; c++)
                if (*c == '"')
                    return bad(r, (int)(c - line) + 1,
                               "a quote in a field needs the field in "
                               "quotes and the quote doubled");
            to = c;
        }
        bool end = !*c;
        *to = '\0';
        if (out->n < MAX_FIELDS) {
            out->f[out->n] = start;
            out->col[out->n++] = col;
        }
        if (end)
            return 0;
    }
}

/* A roster as CSV: "staff,0,1,..." then one row per staff member, its id
 * and per day the shift id or nothing for a day off.  Every staff member
 * once, every day; fields may be quoted (split_quoted), and a UTF-8 byte
 * order mark (a spreadsheet's) is skipped. */
int shf_read_roster(struct shf_problem *p, const char *path,
                    struct cs_error *err)
{
    char *buf = slurp(path, err);
    if (!buf)
        return -1;
    struct reader r = {p, cs_file_name(path), 0, err};
    struct fields *f = cs_xmalloc(sizeof *f);
    size_t cells = (size_t)p->nstaff * (size_t)p->ndays;
    p->pin = cs_xmalloc(cells);
    memset(p->pin, -1, cells);
    p->pin_line = cs_xcalloc((size_t)p->nstaff, sizeof(int));
    p->pin_col = cs_xcalloc((size_t)p->nstaff * (size_t)p->ndays, sizeof(int));
    char *text = buf, *line;
    if (!strncmp(text, "\xef\xbb\xbf", 3))
        text += 3;
    int rc = 0, rows = 0;
    while (!rc && (line = next_line(&text))) {
        r.line++;
        if ((rc = too_long(&r, line)))
            break;
        if (!line[0])
            continue;
        if ((rc = split_quoted(&r, line, f)))
            break;
        if (f->n != p->ndays + 1) {
            rc = bad(&r, 1,
                     "a roster line needs %d fields (staff and %d "
                     "days), not %d",
                     p->ndays + 1, p->ndays, f->n);
            break;
        }
        if (r.line == 1 && !strcmp(f->f[0], "staff"))
            continue; /* the header */
        int s = staff_of(&r, f, 0);
        if (s < 0) {
            rc = -1;
            break;
        }
        if (p->pin_line[s]) {
            rc = bad(&r, 1, "staff '%s' is in the roster twice", f->f[0]);
            break;
        }
        p->pin_line[s] = r.line;
        rows++;
        for (int d = 0; d < p->ndays && !rc; d++) {
            int v = 0;
            p->pin_col[shf_cell(p, s, d)] = f->col[d + 1];
            if (f->f[d + 1][0] && (v = shift_of(&r, f, d + 1) + 1) == 0)
                rc = -1;
            p->pin[shf_cell(p, s, d)] = (signed char)v;
        }
    }
    free(f);
    free(buf);
    if (!rc && rows != p->nstaff)
        for (int s = 0; s < p->nstaff; s++)
            if (!p->pin_line[s])
                return cs_error_at(err, (struct cs_pos){path, 0, 0},
                                   "staff '%s' is missing from the roster",
                                   p->staff_id[s]);
    if (rc)
        return -1;
    struct shf_report rep;
    if (shf_check(p, p->pin, &rep)) {
        int s = rep.staff, d = rep.day;
        struct cs_pos at = {path, s >= 0 ? p->pin_line[s] : 0,
                            s >= 0 && d >= 0 ? p->pin_col[shf_cell(p, s, d)]
                            : s >= 0         ? 1
                                             : 0};
        return cs_error_at(err, at, "%s", rep.first);
    }
    return 0;
}

/* ---- small CSV files of records, for other readers (reroster.c) ---- */

struct shf_record {
    struct reader r;
    struct fields *f;
};

int shf_read_records(struct shf_problem *p, const char *path,
                     const char *header,
                     int (*take)(struct shf_record *rec, void *ud), void *ud,
                     struct cs_error *err)
{
    char *buf = slurp(path, err);
    if (!buf)
        return -1;
    struct shf_record rec = {{p, path, 0, err}, cs_xmalloc(sizeof *rec.f)};
    char *text = buf, *line;
    if (!strncmp(text, "\xef\xbb\xbf", 3))
        text += 3;
    int rc = 0;
    while (!rc && (line = next_line(&text))) {
        rec.r.line++;
        if ((rc = too_long(&rec.r, line)) || !line[0] || line[0] == '#' ||
            (rc = split_quoted(&rec.r, line, rec.f)))
            continue;
        if (rec.r.line > 1 || strcmp(rec.f->f[0], header))
            rc = take(&rec, ud);
    }
    free(rec.f);
    free(buf);
    return rc ? -1 : 0;
}

int shf_record_fields(const struct shf_record *rec)
{
    return rec->f->n;
}

const char *shf_record_text(const struct shf_record *rec, int i)
{
    return i < rec->f->n ? rec->f->f[i] : "";
}

int shf_record_staff(struct shf_record *rec, int i)
{
    return staff_of(&rec->r, rec->f, i);
}

int shf_record_shift(struct shf_record *rec, int i)
{
    return shift_of(&rec->r, rec->f, i);
}

int shf_record_number(struct shf_record *rec, int i, const char *what, int max,
                      int *out)
{
    return number(&rec->r, rec->f, i, what, max, out);
}

int shf_record_bad(struct shf_record *rec, int i, const char *fmt, ...)
{
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return bad(&rec->r, i < rec->f->n ? rec->f->col[i] : 1, "%s", msg);
}
