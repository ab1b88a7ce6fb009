/* spec.c - the native roster spec, read from the config's params.
 *
 * Everything is named: shifts, staff and skills by id, days by number.
 * Each entry is a mapping whose keys are checked (an unknown key is an
 * error at it); every complaint points at the offending node.  Limits left
 * out are unlimited; cover left out is no cover.
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "shifts/shifts.h"

struct spec {
    struct shf_problem *p;
    struct cs_error *err;
};

/* Is every key of map among keys (NULL-terminated)? */
static int known_keys(struct spec *sp, const struct cs_node *map,
                      const char *what, const char *const *keys)
{
    for (size_t i = 0; i < cs_node_len(map); i++) {
        const char *k = cs_node_key(map, i);
        int j = 0;
        while (keys[j] && strcmp(keys[j], k))
            j++;
        if (!keys[j]) {
            char list[256] = "";
            for (j = 0; keys[j]; j++)
                snprintf(list + strlen(list), sizeof list - strlen(list),
                         "%s%s", j ? ", " : "", keys[j]);
            return cs_error_at(sp->err, cs_node_key_pos(map, i),
                               "unknown key '%s' in %s (expected: %s)", k, what,
                               list);
        }
    }
    return 0;
}

static int entry(struct spec *sp, const struct cs_node *node, const char *what,
                 const char *const *keys)
{
    if (cs_node_kind(node) != CS_NODE_MAP)
        return cs_error_at(sp->err, cs_node_pos(node), "%s must be a mapping",
                           what);
    return known_keys(sp, node, what, keys);
}

static int list(struct spec *sp, const struct cs_node *node, const char *key)
{
    if (node && cs_node_kind(node) != CS_NODE_SEQ)
        return cs_error_at(sp->err, cs_node_pos(node), "'%s' must be a list",
                           key);
    return 0;
}

/* Digits with an optional sign: a number, however large. */
static bool whole_number(const char *t)
{
    if (!t)
        return false;
    t += *t == '-' || *t == '+';
    return *t && strspn(t, "0123456789") == strlen(t);
}

/* An integer in [min, max] at map[key]; absent: *out unchanged. */
static int integer(struct spec *sp, const struct cs_node *map, const char *key,
                   int64_t min, int64_t max, int *out)
{
    const struct cs_node *n = cs_node_get(map, key);
    int64_t v;
    if (!n)
        return 0;
    if (cs_node_int_in(n, key, min, max, &v, sp->err))
        return -1;
    *out = (int)v;
    return 0;
}

static const char *text(struct spec *sp, const struct cs_node *map,
                        const char *key, const char *what)
{
    const struct cs_node *n = cs_node_get(map, key);
    const char *s = n ? cs_node_text(n) : NULL;
    if (!n)
        cs_error_at(sp->err, cs_node_pos(map), "%s needs '%s'", what, key);
    else if (!s || !s[0])
        cs_error_at(sp->err, cs_node_pos(n), "'%s' must be a name", key);
    return s && s[0] ? s : NULL;
}

/* The index of the name at node among ids, or -1 with an error. */
static int name_of(struct spec *sp, const struct cs_node *node,
                   char *const *ids, int n, const char *kind)
{
    const char *s = cs_node_text(node);
    int i = s ? shf_find(ids, n, s) : -1;
    if (i < 0)
        cs_error_at(sp->err, cs_node_pos(node), "unknown %s '%s'", kind,
                    s ? s : "(not a name)");
    return i;
}

static int shift_at(struct spec *sp, const struct cs_node *map, const char *key)
{
    const struct cs_node *n = cs_node_get(map, key);
    if (!n)
        return cs_error_at(sp->err, cs_node_pos(map), "needs '%s'", key);
    return name_of(sp, n, sp->p->shift_id, sp->p->nshifts, "shift");
}

static int staff_at(struct spec *sp, const struct cs_node *map, const char *key)
{
    const struct cs_node *n = cs_node_get(map, key);
    if (!n)
        return cs_error_at(sp->err, cs_node_pos(map), "needs '%s'", key);
    return name_of(sp, n, sp->p->staff_id, sp->p->nstaff, "staff");
}

static int skill(struct spec *sp, const char *name)
{
    struct shf_problem *p = sp->p;
    int k = shf_find(p->skill_names, p->nskills, name);
    if (k >= 0 || p->nskills == 64)
        return k;
    p->skill_names =
        cs_xrealloc(p->skill_names, (size_t)(p->nskills + 1) * sizeof(char *));
    p->skill_names[p->nskills] = cs_xstrdup(name);
    return p->nskills++;
}

static int read_shifts(struct spec *sp, const struct cs_node *shifts)
{
    static const char *const keys[] = {"id", "minutes", "not_followed_by",
                                       "skill", NULL};
    struct shf_problem *p = sp->p;
    if (!shifts || !cs_node_len(shifts))
        return cs_error_at(sp->err,
                           shifts ? cs_node_pos(shifts)
                                  : (struct cs_pos){p->source, 0, 0},
                           "params.shifts must list the shift types");
    for (size_t i = 0; i < cs_node_len(shifts); i++) {
        const struct cs_node *e = cs_node_at(shifts, i);
        const char *id;
        if (entry(sp, e, "a shift", keys) ||
            !(id = text(sp, e, "id", "a shift")))
            return -1;
        if (shf_find(p->shift_id, p->nshifts, id) >= 0)
            return cs_error_at(sp->err, cs_node_pos(cs_node_get(e, "id")),
                               "shift '%s' is defined twice", id);
        if (p->nshifts == SHF_MAX_SHIFTS)
            return cs_error_at(sp->err, cs_node_pos(e),
                               "more than %d shift types", SHF_MAX_SHIFTS);
        int t = shf_add_shift(p, id);
        p->minutes[t] = -1;
        if (integer(sp, e, "minutes", 1, 7 * 24 * 60, &p->minutes[t]))
            return -1;
        if (p->minutes[t] < 0)
            return cs_error_at(sp->err, cs_node_pos(e),
                               "shift %s needs 'minutes'", id);
        const char *sk =
            cs_node_get(e, "skill") ? text(sp, e, "skill", "a shift") : NULL;
        if (cs_node_get(e, "skill") && !sk)
            return -1;
        if (sk && (p->shift_skill[t] = skill(sp, sk)) < 0)
            return cs_error_at(sp->err, cs_node_pos(cs_node_get(e, "skill")),
                               "more than 64 skills");
    }
    for (size_t i = 0; i < cs_node_len(shifts); i++) {
        const struct cs_node *next =
            cs_node_get(cs_node_at(shifts, i), "not_followed_by");
        if (list(sp, next, "not_followed_by"))
            return -1;
        for (size_t j = 0; next && j < cs_node_len(next); j++) {
            int u = name_of(sp, cs_node_at(next, j), p->shift_id, p->nshifts,
                            "shift");
            if (u < 0)
                return -1;
            p->no_next[i] |= UINT64_C(1) << u;
        }
    }
    return 0;
}

static int read_one_staff(struct spec *sp, const struct cs_node *e)
{
    static const char *const keys[] = {"id",
                                       "max_shifts",
                                       "min_minutes",
                                       "max_minutes",
                                       "min_consecutive",
                                       "max_consecutive",
                                       "min_days_off",
                                       "max_weekends",
                                       "days_off",
                                       "skills",
                                       NULL};
    struct shf_problem *p = sp->p;
    const char *id;
    if (entry(sp, e, "a staff member", keys) ||
        !(id = text(sp, e, "id", "a staff member")))
        return -1;
    if (shf_find(p->staff_id, p->nstaff, id) >= 0)
        return cs_error_at(sp->err, cs_node_pos(cs_node_get(e, "id")),
                           "staff '%s' is defined twice", id);
    if (p->nstaff == SHF_MAX_STAFF)
        return cs_error_at(sp->err, cs_node_pos(e), "more than %d staff",
                           SHF_MAX_STAFF);
    int s = shf_add_staff(p, id, cs_node_pos(e).line);
    if (integer(sp, e, "min_minutes", 0, INT_MAX, &p->min_minutes[s]) ||
        integer(sp, e, "max_minutes", 0, INT_MAX, &p->max_minutes[s]) ||
        integer(sp, e, "min_consecutive", 1, INT_MAX, &p->min_cons[s]) ||
        integer(sp, e, "max_consecutive", 1, INT_MAX, &p->max_cons[s]) ||
        integer(sp, e, "min_days_off", 1, INT_MAX, &p->min_off[s]) ||
        integer(sp, e, "max_weekends", 0, INT_MAX, &p->max_weekends[s]))
        return -1;
    const struct cs_node *max = cs_node_get(e, "max_shifts");
    if (max && cs_node_kind(max) != CS_NODE_MAP)
        return cs_error_at(sp->err, cs_node_pos(max),
                           "'max_shifts' must map shift ids to numbers");
    for (size_t i = 0; max && i < cs_node_len(max); i++) {
        int t = shf_find(p->shift_id, p->nshifts, cs_node_key(max, i));
        if (t < 0)
            return cs_error_at(sp->err, cs_node_key_pos(max, i),
                               "unknown shift '%s'", cs_node_key(max, i));
        if (integer(sp, max, cs_node_key(max, i), 0, INT_MAX,
                    &p->max_count[s * p->nshifts + t]))
            return -1;
    }
    const struct cs_node *off = cs_node_get(e, "days_off");
    if (list(sp, off, "days_off"))
        return -1;
    for (size_t i = 0; off && i < cs_node_len(off); i++) {
        const struct cs_node *n = cs_node_at(off, i);
        int64_t d;
        if (cs_node_int_in(n, "days_off", 0, p->ndays - 1, &d, sp->err)) {
            if (!whole_number(cs_node_text(n)))
                return -1; /* not a number: err says so */
            /* a number of any size outside the horizon, in its words */
            return cs_error_at(sp->err, cs_node_pos(n),
                               "day %s is outside the horizon (0 to %d)",
                               cs_node_text(n), p->ndays - 1);
        }
        struct shf_day_off *o = shf_add_day_off(p);
        *o = (struct shf_day_off){s, (int)d, cs_node_pos(n).line,
                                  cs_node_pos(n).col};
    }
    const struct cs_node *skills = cs_node_get(e, "skills");
    if (list(sp, skills, "skills"))
        return -1;
    for (size_t i = 0; skills && i < cs_node_len(skills); i++) {
        const char *name = cs_node_text(cs_node_at(skills, i));
        int k = name ? skill(sp, name) : -1;
        if (k < 0)
            return cs_error_at(sp->err, cs_node_pos(cs_node_at(skills, i)),
                               "a skill must be a name (64 at most)");
        p->skills[s] |= UINT64_C(1) << k;
    }
    return 0;
}

/* day: N or all */
static int days_of(struct spec *sp, const struct cs_node *e, int *from, int *to)
{
    const struct cs_node *n = cs_node_get(e, "day");
    if (!n)
        return cs_error_at(sp->err, cs_node_pos(e), "needs 'day'");
    const char *s = cs_node_text(n);
    if (s && !strcmp(s, "all")) {
        *from = 0;
        *to = sp->p->ndays - 1;
        return 0;
    }
    if (integer(sp, e, "day", 0, sp->p->ndays - 1, from))
        return -1;
    *to = *from;
    return 0;
}

static int read_cover(struct spec *sp, const struct cs_node *cover)
{
    static const char *const keys[] = {"day",   "shift", "need",
                                       "under", "over",  NULL};
    for (size_t i = 0; cover && i < cs_node_len(cover); i++) {
        const struct cs_node *e = cs_node_at(cover, i);
        int from = 0, to = -1, t, need = -1, under = 100, over = 1;
        if (entry(sp, e, "a cover entry", keys) || days_of(sp, e, &from, &to) ||
            (t = shift_at(sp, e, "shift")) < 0 ||
            integer(sp, e, "need", 0, SHF_MAX_STAFF, &need) ||
            integer(sp, e, "under", 0, INT_MAX / 64 / SHF_MAX_STAFF, &under) ||
            integer(sp, e, "over", 0, INT_MAX / 64 / SHF_MAX_STAFF, &over))
            return -1;
        if (need < 0)
            return cs_error_at(sp->err, cs_node_pos(e), "needs 'need'");
        for (int d = from; d <= to; d++)
            *shf_add_cover(sp->p) = (struct shf_cover_line){d,
                                                            t,
                                                            need,
                                                            under,
                                                            over,
                                                            cs_node_pos(e).line,
                                                            cs_node_pos(e).col};
    }
    return 0;
}

static int read_requests(struct spec *sp, const struct cs_node *reqs, bool on)
{
    static const char *const keys[] = {"staff", "day", "shift", "weight", NULL};
    for (size_t i = 0; reqs && i < cs_node_len(reqs); i++) {
        const struct cs_node *e = cs_node_at(reqs, i);
        struct shf_request q = {.weight = 1,
                                .shift = -1,
                                .line = cs_node_pos(e).line,
                                .col = cs_node_pos(e).col};
        if (entry(sp, e, on ? "a shift-on request" : "a shift-off request",
                  keys) ||
            (q.staff = staff_at(sp, e, "staff")) < 0 ||
            integer(sp, e, "day", 0, sp->p->ndays - 1, &q.day) ||
            integer(sp, e, "weight", 0, INT_MAX / 64, &q.weight))
            return -1;
        if (!cs_node_get(e, "day"))
            return cs_error_at(sp->err, cs_node_pos(e), "needs 'day'");
        if ((on || cs_node_get(e, "shift")) &&
            (q.shift = shift_at(sp, e, "shift")) < 0)
            return -1;
        *shf_add_request(sp->p, on) = q;
    }
    return 0;
}

static int read_apart(struct spec *sp, const struct cs_node *apart)
{
    struct shf_problem *p = sp->p;
    for (size_t i = 0; apart && i < cs_node_len(apart); i++) {
        const struct cs_node *e = cs_node_at(apart, i);
        if (cs_node_kind(e) != CS_NODE_SEQ || cs_node_len(e) != 2)
            return cs_error_at(sp->err, cs_node_pos(e),
                               "a pair kept apart must be a list of two "
                               "staff ids");
        int a = name_of(sp, cs_node_at(e, 0), p->staff_id, p->nstaff, "staff");
        int b = a < 0 ? -1
                      : name_of(sp, cs_node_at(e, 1), p->staff_id, p->nstaff,
                                "staff");
        if (b < 0)
            return -1;
        if (a == b)
            return cs_error_at(sp->err, cs_node_pos(e),
                               "staff %s cannot be kept apart from "
                               "themselves",
                               p->staff_id[a]);
        shf_add_apart(p, a, b);
    }
    return 0;
}

/* A shift's skill that no staff member has (a misspelt skill, most
 * likely): the shift could never be worked, its cover never met. */
static int skills_held(struct spec *sp, const struct cs_node *shifts)
{
    const struct shf_problem *p = sp->p;
    uint64_t held = 0;
    for (int s = 0; s < p->nstaff; s++)
        held |= p->skills[s];
    for (int t = 0; t < p->nshifts; t++) {
        int k = p->shift_skill[t];
        if (k >= 0 && !(held >> k & 1))
            return cs_error_at(
                sp->err,
                cs_node_pos(
                    cs_node_get(cs_node_at(shifts, (size_t)t), "skill")),
                "no staff member has skill '%s', so shift %s could never be "
                "worked",
                p->skill_names[k], p->shift_id[t]);
    }
    return 0;
}

int shf_read_yaml(struct shf_problem *p, const struct cs_config *cfg,
                  struct cs_error *err)
{
    struct spec sp = {p, err};
    p->source = cs_xstrdup(cs_config_file(cfg));
    if (!cs_config_has(cfg, "params.days"))
        return cs_error_set(err, cs_config_file(cfg),
                            "missing key 'params.days' (or params.instance)");
    p->ndays = (int)cs_config_int(cfg, "params.days");
    /* an enum shf_weekday: SHF_WEEKDAYS names the choices */
    p->weekday0 = cs_config_enum(cfg, "params.first_day");
    const struct cs_node *staff = cs_config_node(cfg, "params.staff");
    static const char *const lists[] = {"params.shifts",
                                        "params.staff",
                                        "params.cover",
                                        "params.shift_on",
                                        "params.shift_off",
                                        "params.apart",
                                        NULL};
    for (int i = 0; lists[i]; i++)
        if (list(&sp, cs_config_node(cfg, lists[i]), lists[i]))
            return -1;
    if (read_shifts(&sp, cs_config_node(cfg, "params.shifts")))
        return -1;
    if (!staff || !cs_node_len(staff))
        return cs_error_at(
            err, staff ? cs_node_pos(staff) : (struct cs_pos){p->source, 0, 0},
            "params.staff must list the staff");
    for (size_t i = 0; i < cs_node_len(staff); i++)
        if (read_one_staff(&sp, cs_node_at(staff, i)))
            return -1;
    if (skills_held(&sp, cs_config_node(cfg, "params.shifts")))
        return -1;
    if (read_cover(&sp, cs_config_node(cfg, "params.cover")) ||
        read_requests(&sp, cs_config_node(cfg, "params.shift_on"), true) ||
        read_requests(&sp, cs_config_node(cfg, "params.shift_off"), false) ||
        read_apart(&sp, cs_config_node(cfg, "params.apart")))
        return -1;
    return shf_problem_finish(p, err);
}
