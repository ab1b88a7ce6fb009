/* problem.c - a roster problem: built item by item by a reader, then
 * finished: the checks that need the whole spec and the tables the search
 * reads (request cost per cell and value, fixed days off ahead, partners).
 */
#include <stdlib.h>
#include <string.h>

#include "shifts/shifts.h"

#define GROW(arr, n, cap)                                                      \
    do {                                                                       \
        if ((n) == (cap)) {                                                    \
            (cap) = (cap) ? 2 * (cap) : 16;                                    \
            (arr) = cs_xrealloc((arr), (size_t)(cap) * sizeof *(arr));         \
        }                                                                      \
    } while (0)

struct shf_problem *shf_problem_new(void)
{
    return cs_xcalloc(1, sizeof(struct shf_problem));
}

void shf_problem_free(void *problem)
{
    struct shf_problem *p = problem;
    if (!p)
        return;
    for (int t = 0; t < p->nshifts; t++)
        free(p->shift_id[t]);
    for (int s = 0; s < p->nstaff; s++)
        free(p->staff_id[s]);
    for (int k = 0; k < p->nskills; k++)
        free(p->skill_names[k]);
    free(p->hint);
    void *arrays[] = {p->source,
                      p->shift_id,
                      p->minutes,
                      p->no_next,
                      p->shift_skill,
                      p->staff_id,
                      p->max_count,
                      p->min_minutes,
                      p->max_minutes,
                      p->min_cons,
                      p->max_cons,
                      p->min_off,
                      p->max_weekends,
                      p->skills,
                      p->line,
                      p->day_off,
                      p->need,
                      p->under,
                      p->over,
                      p->on,
                      p->off,
                      p->apart,
                      p->skill_names,
                      p->covers,
                      p->offs,
                      p->req_cost,
                      p->req,
                      p->partner_start,
                      p->partners,
                      p->off_suffix,
                      p->min_under,
                      p->by_length,
                      p->pin,
                      p->pin_line,
                      p->pin_col,
                      p->fixed,
                      p->compare,
                      p->compare_source,
                      p->no_roster,
                      p->fair.group,
                      p->fair.night_group,
                      p->fair.size,
                      p->fair.night_size};
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++)
        free(arrays[i]);
    shf_lagrange_free(p->lagrange);
    if (p->reroster) {
        free(p->reroster->published);
        free(p->reroster->pinned);
        free(p->reroster);
    }
    free(p);
}

int shf_find(char *const *ids, int n, const char *id)
{
    for (int i = 0; i < n; i++)
        if (!strcmp(ids[i], id))
            return i;
    return -1;
}

int shf_add_shift(struct shf_problem *p, const char *id)
{
    if (p->nshifts == p->cap_shifts) {
        size_t cap = p->cap_shifts ? 2 * (size_t)p->cap_shifts : 8;
        p->cap_shifts = (int)cap;
        p->shift_id = cs_xrealloc(p->shift_id, cap * sizeof *p->shift_id);
        p->minutes = cs_xrealloc(p->minutes, cap * sizeof *p->minutes);
        p->no_next = cs_xrealloc(p->no_next, cap * sizeof *p->no_next);
        p->shift_skill =
            cs_xrealloc(p->shift_skill, cap * sizeof *p->shift_skill);
    }
    int t = p->nshifts++;
    p->shift_id[t] = cs_xstrdup(id);
    p->minutes[t] = 0;
    p->no_next[t] = 0;
    p->shift_skill[t] = -1;
    return t;
}

int shf_add_staff(struct shf_problem *p, const char *id, int line)
{
    int n = p->nstaff;
    if (n == p->cap_staff) {
        size_t cap = n ? 2 * (size_t)n : 16;
        p->cap_staff = (int)cap;
        p->staff_id = cs_xrealloc(p->staff_id, cap * sizeof *p->staff_id);
        p->max_count = cs_xrealloc(p->max_count, cap * (size_t)p->nshifts *
                                                     sizeof *p->max_count);
        int **ints[] = {&p->min_minutes, &p->max_minutes, &p->min_cons,
                        &p->max_cons,    &p->min_off,     &p->max_weekends,
                        &p->line};
        for (size_t i = 0; i < sizeof ints / sizeof *ints; i++)
            *ints[i] = cs_xrealloc(*ints[i], cap * sizeof(int));
        p->skills = cs_xrealloc(p->skills, cap * sizeof *p->skills);
    }
    p->staff_id[n] = cs_xstrdup(id);
    for (int t = 0; t < p->nshifts; t++)
        p->max_count[n * p->nshifts + t] = SHF_UNLIMITED;
    p->min_minutes[n] = 0;
    p->max_minutes[n] = SHF_UNLIMITED;
    p->min_cons[n] = 1;
    p->max_cons[n] = SHF_UNLIMITED;
    p->min_off[n] = 1;
    p->max_weekends[n] = SHF_UNLIMITED;
    p->skills[n] = 0;
    p->line[n] = line;
    return p->nstaff++;
}

struct shf_request *shf_add_request(struct shf_problem *p, bool on)
{
    struct shf_request **list = on ? &p->on : &p->off;
    int *n = on ? &p->non : &p->noff, *cap = on ? &p->cap_on : &p->cap_off;
    GROW(*list, *n, *cap);
    struct shf_request *q = &(*list)[(*n)++];
    memset(q, 0, sizeof *q);
    return q;
}

struct shf_cover_line *shf_add_cover(struct shf_problem *p)
{
    GROW(p->covers, p->ncovers, p->cap_covers);
    return memset(&p->covers[p->ncovers++], 0, sizeof *p->covers);
}

struct shf_day_off *shf_add_day_off(struct shf_problem *p)
{
    GROW(p->offs, p->noffs, p->cap_offs);
    return memset(&p->offs[p->noffs++], 0, sizeof *p->offs);
}

void shf_add_apart(struct shf_problem *p, int a, int b)
{
    GROW(p->apart, p->napart, p->cap_apart);
    p->apart[p->napart][0] = a;
    p->apart[p->napart][1] = b;
    p->napart++;
}

static int staff_rules(const struct shf_problem *p, struct cs_error *err)
{
    for (int s = 0; s < p->nstaff; s++) {
        struct cs_pos at = {p->source, p->line[s], 1};
        const char *id = p->staff_id[s];
        if (p->min_minutes[s] > p->max_minutes[s])
            return cs_error_at(err, at,
                               "staff %s: minimum minutes %d exceed the "
                               "maximum %d",
                               id, p->min_minutes[s], p->max_minutes[s]);
        if (p->min_cons[s] > p->max_cons[s])
            return cs_error_at(err, at,
                               "staff %s: minimum consecutive shifts %d "
                               "exceed the maximum %d",
                               id, p->min_cons[s], p->max_cons[s]);
        if (p->max_cons[s] < 1)
            return cs_error_at(err, at,
                               "staff %s: maximum consecutive shifts must be "
                               "at least 1",
                               id);
    }
    return 0;
}

static int build_cover(struct shf_problem *p, struct cs_error *err)
{
    size_t slots = (size_t)p->ndays * (size_t)p->nshifts;
    p->need = cs_xcalloc(slots, sizeof *p->need);
    p->under = cs_xcalloc(slots, sizeof *p->under);
    p->over = cs_xcalloc(slots, sizeof *p->over);
    unsigned char *seen = cs_xcalloc(slots, 1);
    for (int i = 0; i < p->ncovers; i++) {
        const struct shf_cover_line *c = &p->covers[i];
        int k = c->day * p->nshifts + c->shift;
        if (seen[k]) {
            free(seen);
            return cs_error_at(err, (struct cs_pos){p->source, c->line, c->col},
                               "cover for day %d, shift %s given twice", c->day,
                               p->shift_id[c->shift]);
        }
        seen[k] = 1;
        p->need[k] = c->need;
        p->under[k] = c->under;
        p->over[k] = c->over;
    }
    free(seen);
    return 0;
}

void shf_problem_days(struct shf_problem *p)
{
    if (!p->min_under)
        p->min_under = cs_xcalloc((size_t)p->ndays, sizeof *p->min_under);
    for (int d = 0; d < p->ndays; d++) {
        int least = 0;
        for (int t = 0; t < p->nshifts; t++) {
            int k = d * p->nshifts + t;
            if (p->need[k] > 0 && (!least || p->under[k] < least))
                least = p->under[k];
        }
        p->min_under[d] = least;
    }
    if (!p->off_suffix)
        p->off_suffix = cs_xcalloc((size_t)p->nstaff * (size_t)(p->ndays + 1),
                                   sizeof *p->off_suffix);
    for (int s = 0; s < p->nstaff; s++)
        for (int d = p->ndays - 1; d >= 0; d--)
            p->off_suffix[s * (p->ndays + 1) + d] =
                p->off_suffix[s * (p->ndays + 1) + d + 1] +
                p->day_off[shf_cell(p, s, d)];
}

/* Cell c's short record takes request q (on: a shift-on request), or
 * gives way to the table when it holds one of that kind already. */
static void take_request(struct shf_req *r, const struct shf_request *q,
                         bool on)
{
    if (r->on == SHF_REQ_TABLE)
        return;
    signed char shift =
        (signed char)(q->shift < 0 ? SHF_REQ_ANY : q->shift + 1);
    if ((on ? r->on : r->off) || (on && q->shift < 0) ||
        q->weight > UINT16_MAX || q->weight < 0) {
        r->on = SHF_REQ_TABLE;
    } else if (on) {
        r->on = shift;
        r->on_weight = (uint16_t)q->weight;
    } else {
        r->off = shift;
        r->off_weight = (uint16_t)q->weight;
    }
}

void shf_add_request_cost(struct shf_problem *p, const struct shf_request *q,
                          bool on)
{
    int values = p->nshifts + 1;
    size_t cell = (size_t)shf_cell(p, q->staff, q->day);
    take_request(&p->req[cell], q, on);
    int32_t *c = p->req_cost + cell * (size_t)values;
    for (int v = on ? 0 : 1; v < values; v++)
        if (on ? v != q->shift + 1 : q->shift < 0 || v == q->shift + 1)
            c[v] += q->weight;
}

/* What each value of each cell costs in requests: the table, and each
 * cell's short record (struct shf_req). */
static void build_requests(struct shf_problem *p)
{
    size_t cells = (size_t)p->nstaff * (size_t)p->ndays;
    p->req_cost =
        cs_xcalloc(cells * (size_t)(p->nshifts + 1), sizeof *p->req_cost);
    p->req = cs_xcalloc(cells, sizeof *p->req);
    for (int i = 0; i < p->non; i++)
        shf_add_request_cost(p, &p->on[i], true);
    for (int i = 0; i < p->noff; i++)
        shf_add_request_cost(p, &p->off[i], false);
}

static int gcd(int a, int b)
{
    while (b) {
        int t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* The shifts' classes and levels (shf_problem: nclasses .. level). */
static void shift_classes(struct shf_problem *p)
{
    p->nclasses = 0;
    p->class_no_next[0] = 0;
    p->level_unit = 0;
    for (int t = 0; t < p->nshifts; t++) {
        int c = 1;
        while (c <= p->nclasses && p->class_no_next[c] != p->no_next[t])
            c++;
        if (c > p->nclasses)
            p->class_no_next[++p->nclasses] = p->no_next[t];
        p->shift_class[t] = c;
        p->level_unit = gcd(p->level_unit, p->minutes[t]);
    }
    p->level_unit = p->level_unit ? p->level_unit : 1;
    for (int t = 0; t < p->nshifts; t++) {
        p->level[t] = p->minutes[t] / p->level_unit;
        p->banned_after[t] = 0;
        for (int c = 1; c <= p->nclasses; c++)
            if (p->class_no_next[c] >> t & 1)
                p->banned_after[t] |= UINT64_C(1) << (c - 1);
    }
}

int shf_problem_finish(struct shf_problem *p, struct cs_error *err)
{
    struct cs_pos file = {p->source, 0, 0};
    if (p->ndays < 1)
        return cs_error_at(err, file, "the horizon has no days");
    if (!p->nshifts)
        return cs_error_at(err, file, "no shift types are given");
    if (!p->nstaff)
        return cs_error_at(err, file, "no staff are given");
    if (staff_rules(p, err) || build_cover(p, err))
        return -1;

    size_t cells = (size_t)p->nstaff * (size_t)p->ndays;
    p->day_off = cs_xcalloc(cells, 1);
    for (int i = 0; i < p->noffs; i++)
        p->day_off[shf_cell(p, p->offs[i].staff, p->offs[i].day)] = 1;
    shf_problem_days(p);
    build_requests(p);
    p->by_length = cs_xcalloc((size_t)p->nshifts, sizeof *p->by_length);
    for (int t = 0; t < p->nshifts; t++) {
        int i = t;
        while (i > 0 && p->minutes[p->by_length[i - 1]] < p->minutes[t]) {
            p->by_length[i] = p->by_length[i - 1];
            i--;
        }
        p->by_length[i] = t;
    }
    p->max_minutes_shift = p->minutes[p->by_length[0]];
    shift_classes(p);
    shf_fair_setup(p); /* nights and contract groups; no weights yet */

    p->partner_start = cs_xcalloc((size_t)p->nstaff + 1, sizeof(int));
    p->partners = cs_xcalloc(2 * (size_t)p->napart + 1, sizeof(int));
    for (int i = 0; i < p->napart; i++) {
        p->partner_start[p->apart[i][0] + 1]++;
        p->partner_start[p->apart[i][1] + 1]++;
    }
    for (int s = 0; s < p->nstaff; s++)
        p->partner_start[s + 1] += p->partner_start[s];
    int *fill = cs_xcalloc((size_t)p->nstaff, sizeof *fill);
    for (int i = 0; i < p->napart; i++)
        for (int j = 0; j < 2; j++) {
            int s = p->apart[i][j];
            p->partners[p->partner_start[s] + fill[s]++] = p->apart[i][1 - j];
        }
    free(fill);
    return 0;
}
