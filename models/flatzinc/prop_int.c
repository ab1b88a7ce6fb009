/* prop_int.c - the binary relations a = b, a != b, a + c <= b, their
 * reified forms, and set membership with constant sets.  All of them are
 * domain consistent on bit-set domains (an interval domain keeps no
 * holes, so there they narrow bounds only).  k holds the constants: the
 * offset c of a + c <= b, the polarity p of r <-> (a = b) = p.
 */
#include "fzn.h"

bool fzn_intersects(const struct fzn_store *s, int a, int b)
{
    if (fzn_max(s, a) < fzn_min(s, b) || fzn_max(s, b) < fzn_min(s, a))
        return false;
    if (!fzn_is_bitset(s, a) && !fzn_is_bitset(s, b))
        return true;
    if (!fzn_is_bitset(s, a) ||
        (fzn_is_bitset(s, b) && fzn_size(s, b) < fzn_size(s, a))) {
        int t = a;
        a = b;
        b = t;
    }
    for (int64_t v = fzn_min(s, a); v != INT64_MAX; v = fzn_next_above(s, a, v))
        if (fzn_contains(s, b, v))
            return true;
    return false;
}

/* the values of x (a bit set) that y lacks leave x */
static bool keep_common(struct fzn_store *s, int x, int y)
{
    if (!fzn_is_bitset(s, x))
        return true;
    for (int64_t v = fzn_min(s, x); v != INT64_MAX; v = fzn_next_above(s, x, v))
        if (!fzn_contains(s, y, v) && !fzn_remove(s, x, v))
            return false;
    return true;
}

bool fzn_eq_dom(struct fzn_store *s, int a, int b)
{
    return fzn_set_min(s, a, fzn_min(s, b)) &&
           fzn_set_min(s, b, fzn_min(s, a)) &&
           fzn_set_max(s, a, fzn_max(s, b)) &&
           fzn_set_max(s, b, fzn_max(s, a)) && keep_common(s, a, b) &&
           keep_common(s, b, a);
}

static bool ne(struct fzn_store *s, int a, int b)
{
    if (fzn_fixed(s, a) && !fzn_remove(s, b, fzn_value(s, a)))
        return false;
    return !fzn_fixed(s, b) || fzn_remove(s, a, fzn_value(s, b));
}

/* a + c <= b */
static bool le(struct fzn_store *s, int a, int b, int64_t c)
{
    return fzn_set_max(s, a, (int64_t)fzn_max(s, b) - c) &&
           fzn_set_min(s, b, (int64_t)fzn_min(s, a) + c);
}

static bool run_eq(struct fzn_store *s, struct fzn_prop *p)
{
    return fzn_eq_dom(s, p->x[0], p->x[1]);
}

/* One side fixed and its value gone from the other: nothing left to do
 * below (a value inside an interval domain cannot go: then it stays). */
static bool run_ne(struct fzn_store *s, struct fzn_prop *p)
{
    int a = p->x[0], b = p->x[1];
    if (fzn_fixed(s, b)) {
        a = b;
        b = p->x[0];
    }
    if (!fzn_fixed(s, a))
        return true;
    if (!fzn_remove(s, b, fzn_value(s, a)))
        return false;
    if (!fzn_contains(s, b, fzn_value(s, a)))
        fzn_entail(s, p);
    return true;
}

static bool run_le(struct fzn_store *s, struct fzn_prop *p)
{
    return le(s, p->x[0], p->x[1], p->k[0]);
}

/* r <-> ((a = b) = k[0]) */
static bool run_eq_reif(struct fzn_store *s, struct fzn_prop *p)
{
    int a = p->x[0], b = p->x[1], r = p->x[2];
    int64_t pol = p->k[0];
    if (fzn_fixed(s, r))
        return fzn_value(s, r) == pol ? fzn_eq_dom(s, a, b) : ne(s, a, b);
    if (fzn_fixed(s, a) && fzn_fixed(s, b))
        return fzn_fix(s, r, (fzn_value(s, a) == fzn_value(s, b)) == pol);
    if (!fzn_intersects(s, a, b))
        return fzn_fix(s, r, !pol);
    return true;
}

/* r <-> (a + k[0] <= b) */
static bool run_le_reif(struct fzn_store *s, struct fzn_prop *p)
{
    int a = p->x[0], b = p->x[1], r = p->x[2];
    int64_t c = p->k[0];
    if (fzn_fixed(s, r)) /* not: b + 1 - c <= a */
        return fzn_value(s, r) ? le(s, a, b, c) : le(s, b, a, 1 - c);
    if ((int64_t)fzn_max(s, a) + c <= fzn_min(s, b))
        return fzn_fix(s, r, 1);
    if ((int64_t)fzn_min(s, a) + c > fzn_max(s, b))
        return fzn_fix(s, r, 0);
    return true;
}

static void post_le(struct fzn_store *s, const char *name, int a, int b,
                    int64_t c)
{
    if (a == b) {
        if (c > 0)
            fzn_post_false(s);
        return;
    }
    if (le(s, a, b, c) && !(fzn_fixed(s, a) && fzn_fixed(s, b)))
        fzn_post(s, name, run_le, 0, (int[]){a, b}, 2, &c, 1)->events =
            FZN_EV_BND;
}

static void post_eq(struct fzn_store *s, const char *name, int a, int b)
{
    if (a == b || !fzn_eq_dom(s, a, b))
        return;
    if (!fzn_fixed(s, a))
        fzn_post(s, name, run_eq, 0, (int[]){a, b}, 2, NULL, 0);
}

void fzn_post_ne(struct fzn_store *s, const char *name, int a, int b)
{
    if (a == b)
        fzn_post_false(s);
    else if (ne(s, a, b) && !(fzn_fixed(s, a) && fzn_fixed(s, b)))
        fzn_post(s, name, run_ne, 0, (int[]){a, b}, 2, NULL, 0)->events =
            FZN_EV_FIX;
}

static void post_reif(struct fzn_store *s, const char *name, fzn_run_fn run,
                      const struct fzn_arg *a, int64_t k)
{
    fzn_post(s, name, run, 0, (int[]){a[0].x[0], a[1].x[0], a[2].x[0]}, 3, &k,
             1);
}

int fzn_post_int_eq(struct fzn_store *s, const struct fzn_arg *a,
                    struct cs_error *err)
{
    (void)err;
    post_eq(s, "int_eq", a[0].x[0], a[1].x[0]);
    return 0;
}

int fzn_post_int_ne(struct fzn_store *s, const struct fzn_arg *a,
                    struct cs_error *err)
{
    (void)err;
    fzn_post_ne(s, "int_ne", a[0].x[0], a[1].x[0]);
    return 0;
}

int fzn_post_int_le(struct fzn_store *s, const struct fzn_arg *a,
                    struct cs_error *err)
{
    (void)err;
    post_le(s, "int_le", a[0].x[0], a[1].x[0], 0);
    return 0;
}

int fzn_post_int_lt(struct fzn_store *s, const struct fzn_arg *a,
                    struct cs_error *err)
{
    (void)err;
    post_le(s, "int_lt", a[0].x[0], a[1].x[0], 1);
    return 0;
}

int fzn_post_int_eq_reif(struct fzn_store *s, const struct fzn_arg *a,
                         struct cs_error *err)
{
    (void)err;
    post_reif(s, "int_eq_reif", run_eq_reif, a, 1);
    return 0;
}

int fzn_post_int_ne_reif(struct fzn_store *s, const struct fzn_arg *a,
                         struct cs_error *err)
{
    (void)err;
    post_reif(s, "int_ne_reif", run_eq_reif, a, 0);
    return 0;
}

int fzn_post_int_le_reif(struct fzn_store *s, const struct fzn_arg *a,
                         struct cs_error *err)
{
    (void)err;
    post_reif(s, "int_le_reif", run_le_reif, a, 0);
    return 0;
}

int fzn_post_int_lt_reif(struct fzn_store *s, const struct fzn_arg *a,
                         struct cs_error *err)
{
    (void)err;
    post_reif(s, "int_lt_reif", run_le_reif, a, 1);
    return 0;
}

/* Booleans are 0..1 integers: their relations are the integers'. */
int fzn_post_bool_eq(struct fzn_store *s, const struct fzn_arg *a,
                     struct cs_error *err)
{
    (void)err;
    post_eq(s, "bool_eq", a[0].x[0], a[1].x[0]);
    return 0;
}

int fzn_post_bool2int(struct fzn_store *s, const struct fzn_arg *a,
                      struct cs_error *err)
{
    (void)err;
    post_eq(s, "bool2int", a[0].x[0], a[1].x[0]);
    return 0;
}

int fzn_post_bool_not(struct fzn_store *s, const struct fzn_arg *a,
                      struct cs_error *err)
{
    (void)err;
    fzn_post_ne(s, "bool_not", a[0].x[0], a[1].x[0]);
    return 0;
}

int fzn_post_bool_le(struct fzn_store *s, const struct fzn_arg *a,
                     struct cs_error *err)
{
    (void)err;
    post_le(s, "bool_le", a[0].x[0], a[1].x[0], 0);
    return 0;
}

int fzn_post_bool_lt(struct fzn_store *s, const struct fzn_arg *a,
                     struct cs_error *err)
{
    (void)err;
    post_le(s, "bool_lt", a[0].x[0], a[1].x[0], 1);
    return 0;
}

int fzn_post_bool_eq_reif(struct fzn_store *s, const struct fzn_arg *a,
                          struct cs_error *err)
{
    (void)err;
    post_reif(s, "bool_eq_reif", run_eq_reif, a, 1);
    return 0;
}

int fzn_post_bool_le_reif(struct fzn_store *s, const struct fzn_arg *a,
                          struct cs_error *err)
{
    (void)err;
    post_reif(s, "bool_le_reif", run_le_reif, a, 0);
    return 0;
}

int fzn_post_bool_lt_reif(struct fzn_store *s, const struct fzn_arg *a,
                          struct cs_error *err)
{
    (void)err;
    post_reif(s, "bool_lt_reif", run_le_reif, a, 1);
    return 0;
}

/* ---- x in S ------------------------------------------------------------- */

/* the values of S leave x (an interval loses them at its ends only) */
static bool remove_ranges(struct fzn_store *s, int x, const int64_t *r,
                          size_t n)
{
    if (fzn_is_bitset(s, x)) {
        for (int64_t v = fzn_min(s, x); v != INT64_MAX;
             v = fzn_next_above(s, x, v))
            if (fzn_ranges_contain(r, n, v) && !fzn_remove(s, x, v))
                return false;
        return true;
    }
    for (size_t i = 0; i < n; i++) {
        if (r[2 * i] <= fzn_min(s, x) && fzn_min(s, x) <= r[2 * i + 1] &&
            !fzn_set_min(s, x, r[2 * i + 1] + 1))
            return false;
    }
    for (size_t i = n; i-- > 0;) {
        if (r[2 * i] <= fzn_max(s, x) && fzn_max(s, x) <= r[2 * i + 1] &&
            !fzn_set_max(s, x, r[2 * i] - 1))
            return false;
    }
    return true;
}

/* 1: every value of x is in S, 0: none is, -1: some are */
static int inside(const struct fzn_store *s, int x, const int64_t *r, size_t n)
{
    bool in = false, out = false;
    if (fzn_is_bitset(s, x)) {
        for (int64_t v = fzn_min(s, x); v != INT64_MAX && !(in && out);
             v = fzn_next_above(s, x, v))
            *(fzn_ranges_contain(r, n, v) ? &in : &out) = true;
    } else {
        for (size_t i = 0; i < n; i++) {
            int64_t lo = r[2 * i] > fzn_min(s, x) ? r[2 * i] : fzn_min(s, x);
            int64_t hi =
                r[2 * i + 1] < fzn_max(s, x) ? r[2 * i + 1] : fzn_max(s, x);
            if (lo <= hi) {
                in = true;
                out = out || lo > fzn_min(s, x) || hi < fzn_max(s, x);
            }
        }
        out = out || !in;
    }
    return in && !out ? 1 : !in ? 0 : -1;
}

/* r <-> x in S; k holds S's ranges */
static bool run_in_reif(struct fzn_store *s, struct fzn_prop *p)
{
    int x = p->x[0], r = p->x[1];
    size_t n = (size_t)p->nk / 2;
    if (fzn_fixed(s, r))
        return fzn_value(s, r) ? fzn_intersect(s, x, p->k, n)
                               : remove_ranges(s, x, p->k, n);
    int in = inside(s, x, p->k, n);
    return in < 0 || fzn_fix(s, r, in);
}

int fzn_post_set_in(struct fzn_store *s, const struct fzn_arg *a,
                    struct cs_error *err)
{
    (void)err;
    fzn_intersect(s, a[0].x[0], a[1].ranges, a[1].nranges);
    return 0;
}

int fzn_post_set_in_reif(struct fzn_store *s, const struct fzn_arg *a,
                         struct cs_error *err)
{
    (void)err;
    fzn_post(s, "set_in_reif", run_in_reif, 0, (int[]){a[0].x[0], a[2].x[0]}, 2,
             a[1].ranges, (int)(2 * a[1].nranges));
    return 0;
}
