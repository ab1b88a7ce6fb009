/* prop_linear.c - sum a[i] * x[i] = c, <= c, != c, and r <-> each of
 * them, on integers and Booleans alike: bounds propagation for = and <=,
 * value removal for != once one variable is left.  Sums are taken in 128
 * bits: n terms of up to 2^61 each cannot overflow.  A propagator's k is
 * c, then a[0..n-1] (then, reified, the polarity); its x is the n
 * variables (then r).
 */
#include <stdlib.h>
#include <string.h>

#include "fzn.h"

__extension__ typedef __int128 wide;

static wide wfloor(wide a, wide b)
{
    wide q = a / b;
    return a % b != 0 && (a < 0) != (b < 0) ? q - 1 : q;
}

static wide wceil(wide a, wide b)
{
    wide q = a / b;
    return a % b != 0 && (a < 0) == (b < 0) ? q + 1 : q;
}

static int64_t narrow64(wide v)
{
    return v < INT64_MIN / 2   ? INT64_MIN / 2
           : v > INT64_MAX / 2 ? INT64_MAX / 2
                               : (int64_t)v;
}

static wide term_min(const struct fzn_store *s, int x, int64_t a)
{
    return (wide)a * (a > 0 ? fzn_min(s, x) : fzn_max(s, x));
}

static wide term_max(const struct fzn_store *s, int x, int64_t a)
{
    return (wide)a * (a > 0 ? fzn_max(s, x) : fzn_min(s, x));
}

/* a * x within [lo, hi] */
static bool term_within(struct fzn_store *s, int x, int64_t a, wide lo, wide hi)
{
    if (a == 1) /* the common case, without 128-bit division */
        return fzn_set_min(s, x, narrow64(lo)) &&
               fzn_set_max(s, x, narrow64(hi));
    if (a == -1)
        return fzn_set_min(s, x, narrow64(-hi)) &&
               fzn_set_max(s, x, narrow64(-lo));
    if (a > 0)
        return fzn_set_min(s, x, narrow64(wceil(lo, a))) &&
               fzn_set_max(s, x, narrow64(wfloor(hi, a)));
    return fzn_set_min(s, x, narrow64(wceil(hi, a))) &&
           fzn_set_max(s, x, narrow64(wfloor(lo, a)));
}

/* sign * sum a[i] * x[i] <= sign * c  (sign 1 or -1) */
static bool le(struct fzn_store *s, const int *x, const int64_t *a, int n,
               wide c, int sign)
{
    wide smin = 0;
    for (int i = 0; i < n; i++)
        smin += sign > 0 ? term_min(s, x[i], a[i]) : -term_max(s, x[i], a[i]);
    if (smin > sign * c)
        return false;
    for (int i = 0; i < n; i++) {
        if (sign > 0) {
            wide rest = smin - term_min(s, x[i], a[i]);
            if (!fzn_set_max(s, x[i],
                             a[i] > 0 ? narrow64(wfloor(c - rest, a[i]))
                                      : INT64_MAX) ||
                !fzn_set_min(s, x[i],
                             a[i] < 0 ? narrow64(wceil(c - rest, a[i]))
                                      : INT64_MIN))
                return false;
        } else { /* sum >= c: a[i] x[i] >= c - (smax - its max) */
            wide rest = -smin - term_max(s, x[i], a[i]);
            if (!fzn_set_min(s, x[i],
                             a[i] > 0 ? narrow64(wceil(c - rest, a[i]))
                                      : INT64_MIN) ||
                !fzn_set_max(s, x[i],
                             a[i] < 0 ? narrow64(wfloor(c - rest, a[i]))
                                      : INT64_MAX))
                return false;
        }
    }
    return true;
}

static void sum_bounds(const struct fzn_store *s, const int *x,
                       const int64_t *a, int n, wide *smin, wide *smax)
{
    *smin = *smax = 0;
    for (int i = 0; i < n; i++) {
        *smin += term_min(s, x[i], a[i]);
        *smax += term_max(s, x[i], a[i]);
    }
}

static bool eq(struct fzn_store *s, const int *x, const int64_t *a, int n,
               wide c)
{
    wide smin, smax;
    sum_bounds(s, x, a, n, &smin, &smax);
    if (smin > c || smax < c)
        return false;
    for (int i = 0; i < n; i++) {
        wide lo = c - (smax - term_max(s, x[i], a[i]));
        wide hi = c - (smin - term_min(s, x[i], a[i]));
        if (!term_within(s, x[i], a[i], lo, hi))
            return false;
    }
    return true;
}

/* Once one variable is left, its value making the sum c goes. */
static bool ne(struct fzn_store *s, const int *x, const int64_t *a, int n,
               wide c)
{
    int open = -1;
    wide sum = 0;
    for (int i = 0; i < n; i++) {
        if (!fzn_fixed(s, x[i])) {
            if (open >= 0)
                return true;
            open = i;
        } else {
            sum += (wide)a[i] * fzn_value(s, x[i]);
        }
    }
    if (open < 0)
        return sum != c;
    wide rest = c - sum;
    if (rest % a[open])
        return true;
    return fzn_remove(s, x[open], narrow64(rest / a[open]));
}

static bool run_le(struct fzn_store *s, struct fzn_prop *p)
{
    return le(s, p->x, p->k + 1, p->nx, p->k[0], 1);
}

static bool run_eq(struct fzn_store *s, struct fzn_prop *p)
{
    return eq(s, p->x, p->k + 1, p->nx, p->k[0]);
}

static bool run_ne(struct fzn_store *s, struct fzn_prop *p)
{
    return ne(s, p->x, p->k + 1, p->nx, p->k[0]);
}

/* x = d - s*y (s = 1 or -1; k = {d, s}): MiniZinc's commonest definition
 * (q[r] + r).  Bounds, then on bit sets every value without a partner goes
 * (domain consistent, as its `:: domain` asks); asleep once one is fixed. */
/* The y of x = v (of_x), or the x of y = v. */
static int64_t partner(int64_t v, int64_t d, int64_t sgn, bool of_x)
{
    return sgn > 0 ? d - v : of_x ? v - d : v + d;
}

static bool run_eq_offset(struct fzn_store *s, struct fzn_prop *p)
{
    int x = p->x[0], y = p->x[1];
    int64_t d = p->k[0], sgn = p->k[1];
    for (int round = 0; round < 2; round++, x = p->x[1], y = p->x[0]) {
        /* x's bounds from y's: the partner of y's extremes */
        int64_t a = partner(fzn_min(s, y), d, sgn, round == 1);
        int64_t b = partner(fzn_max(s, y), d, sgn, round == 1);
        if (!fzn_set_min(s, x, a < b ? a : b) ||
            !fzn_set_max(s, x, a < b ? b : a))
            return false;
    }
    x = p->x[0];
    y = p->x[1];
    if (fzn_fixed(s, x) || fzn_fixed(s, y)) {
        bool ok = fzn_fixed(s, x)
                      ? fzn_fix(s, y, partner(fzn_value(s, x), d, sgn, true))
                      : fzn_fix(s, x, partner(fzn_value(s, y), d, sgn, false));
        if (ok)
            fzn_entail(s, p);
        return ok;
    }
    if (!fzn_is_bitset(s, x) || !fzn_is_bitset(s, y))
        return true;
    for (int round = 0; round < 2; round++, x = p->x[1], y = p->x[0])
        for (int64_t v = fzn_min(s, x); v != INT64_MAX;
             v = fzn_next_above(s, x, v))
            if (!fzn_contains(s, y, partner(v, d, sgn, round == 0)) &&
                !fzn_remove(s, x, v))
                return false;
    return true;
}

/* x - y != c: the commonest != of all (a diagonal of N-Queens). */
static bool run_ne_diff(struct fzn_store *s, struct fzn_prop *p)
{
    int x = p->x[0], y = p->x[1], other;
    int64_t v;
    if (fzn_fixed(s, x)) {
        other = y;
        v = (int64_t)fzn_value(s, x) - p->k[0];
    } else if (fzn_fixed(s, y)) {
        other = x;
        v = (int64_t)fzn_value(s, y) + p->k[0];
    } else {
        return true;
    }
    if (!fzn_remove(s, other, v))
        return false;
    if (!fzn_contains(s, other, v))
        fzn_entail(s, p); /* as int_ne's run_ne */
    return true;
}

/* r <-> (sum <= c) */
static bool run_le_reif(struct fzn_store *s, struct fzn_prop *p)
{
    int n = p->nx - 1, r = p->x[n];
    const int64_t *a = p->k + 1;
    wide c = p->k[0];
    if (fzn_fixed(s, r))
        return fzn_value(s, r) ? le(s, p->x, a, n, c, 1)
                               : le(s, p->x, a, n, c + 1, -1);
    wide smin, smax;
    sum_bounds(s, p->x, a, n, &smin, &smax);
    if (smax <= c)
        return fzn_fix(s, r, 1);
    if (smin > c)
        return fzn_fix(s, r, 0);
    return true;
}

/* r <-> (sum = c) when k[n + 1] is 1, r <-> (sum != c) when 0 */
static bool run_eq_reif(struct fzn_store *s, struct fzn_prop *p)
{
    int n = p->nx - 1, r = p->x[n];
    const int64_t *a = p->k + 1;
    wide c = p->k[0];
    int64_t pol = p->k[n + 1];
    if (fzn_fixed(s, r))
        return fzn_value(s, r) == pol ? eq(s, p->x, a, n, c)
                                      : ne(s, p->x, a, n, c);
    wide smin, smax;
    sum_bounds(s, p->x, a, n, &smin, &smax);
    if (smin > c || smax < c)
        return fzn_fix(s, r, !pol);
    if (smin == smax)
        return fzn_fix(s, r, pol);
    return true;
}

struct term {
    int x;
    int64_t a;
};

static int by_var(const void *l, const void *r)
{
    const struct term *a = l, *b = r;
    return (a->x > b->x) - (a->x < b->x);
}

/* Whether sum KIND c holds, the sum being known. */
static bool holds(enum fzn_lin_kind kind, wide sum, wide c)
{
    return kind == FZN_LIN_EQ   ? sum == c
           : kind == FZN_LIN_LE ? sum <= c
                                : sum != c;
}

/* A single variable's constraint is a bound or a value; a value inside
 * an interval domain cannot be removed, so != then keeps a propagator. */
static bool decided_alone(struct fzn_store *s, enum fzn_lin_kind kind,
                          const struct term *t, wide c)
{
    int64_t a = t->a;
    if (kind == FZN_LIN_LE) {
        term_within(s, t->x, a, -((wide)1 << 100), c);
        return true;
    }
    if (c % a) {
        if (kind == FZN_LIN_EQ)
            fzn_post_false(s);
        return true;
    }
    int64_t v = narrow64(c / a);
    if (kind == FZN_LIN_EQ) {
        fzn_fix(s, t->x, v);
        return true;
    }
    return !fzn_remove(s, t->x, v) || !fzn_contains(s, t->x, v);
}

static void post_unreified(struct fzn_store *s, const char *name,
                           enum fzn_lin_kind kind, struct term *t, int m,
                           wide c, int *x, int64_t *k)
{
    if (m == 0) {
        if (!holds(kind, 0, c))
            fzn_post_false(s);
        return;
    }
    if (m == 1 && decided_alone(s, kind, t, c))
        return;
    if (kind == FZN_LIN_EQ && m == 2 && (t[0].a == 1 || t[0].a == -1) &&
        (t[1].a == 1 || t[1].a == -1) && c >= INT32_MIN && c <= INT32_MAX) {
        /* a0 x + a1 y = c, times a0: x + a0 a1 y = a0 c */
        int64_t k2[2] = {t[0].a * (int64_t)c, t[0].a * t[1].a};
        fzn_post(s, name, run_eq_offset, 0, (int[]){t[0].x, t[1].x}, 2, k2, 2);
        return;
    }
    if (kind == FZN_LIN_NE && m == 2 && t[0].a == -t[1].a &&
        (t[0].a == 1 || t[0].a == -1) && c >= INT32_MIN && c <= INT32_MAX) {
        /* x - y != c, or y - x != c */
        int64_t d = t[0].a == 1 ? (int64_t)c : -(int64_t)c;
        fzn_post(s, name, run_ne_diff, 0, (int[]){t[0].x, t[1].x}, 2, &d, 1)
            ->events = FZN_EV_FIX;
        return;
    }
    k[0] = (int64_t)c;
    for (int i = 0; i < m; i++) {
        x[i] = t[i].x;
        k[i + 1] = t[i].a;
    }
    /* = and <= read bounds only; != acts once one variable is left */
    fzn_post(s, name,
             kind == FZN_LIN_EQ   ? run_eq
             : kind == FZN_LIN_LE ? run_le
                                  : run_ne,
             1, x, m, k, m + 1)
        ->events = kind == FZN_LIN_NE ? FZN_EV_FIX : FZN_EV_BND;
}

void fzn_post_linear(struct fzn_store *s, const char *name,
                     enum fzn_lin_kind kind, const int64_t *a, const int *x,
                     int n, int64_t c0, int r)
{
    struct term *t = cs_xmalloc((size_t)(n ? n : 1) * sizeof *t);
    int *xs = cs_xmalloc((size_t)(n + 1) * sizeof *xs);
    int64_t *k = cs_xmalloc((size_t)(n + 2) * sizeof *k);
    wide c = c0, folded = c0;
    int m = 0;
    for (int i = 0; i < n; i++) { /* fold what is known, if c stays 64-bit */
        if (fzn_fixed(s, x[i]))
            folded -= (wide)a[i] * fzn_value(s, x[i]);
        t[i] = (struct term){x[i], a[i]};
    }
    bool fold = folded >= INT64_MIN / 2 && folded <= INT64_MAX / 2;
    if (fold)
        c = folded;
    qsort(t, (size_t)n, sizeof *t, by_var);
    for (int i = 0; i < n; i++) {
        if (fold && fzn_fixed(s, t[i].x))
            continue;
        if (m > 0 && t[m - 1].x == t[i].x)
            t[m - 1].a += t[i].a;
        else
            t[m++] = t[i];
        if (t[m - 1].a == 0)
            m--;
    }
    if (r >= 0 && fzn_fixed(s, r)) { /* decided: the constraint or its
                                        negation */
        bool yes = fzn_value(s, r) == 1;
        if (!yes && kind == FZN_LIN_LE) {
            for (int i = 0; i < m; i++)
                t[i].a = -t[i].a;
            c = -c - 1;
        } else if (!yes) {
            kind = kind == FZN_LIN_EQ ? FZN_LIN_NE : FZN_LIN_EQ;
        }
        r = -1;
    }
    if (r < 0) {
        post_unreified(s, name, kind, t, m, c, xs, k);
    } else if (m == 0) {
        fzn_fix(s, r, holds(kind, 0, c));
    } else {
        k[0] = (int64_t)c;
        for (int i = 0; i < m; i++) {
            xs[i] = t[i].x;
            k[i + 1] = t[i].a;
        }
        xs[m] = r;
        k[m + 1] = kind != FZN_LIN_NE; /* the polarity, for = and != */
        fzn_post(s, name, kind == FZN_LIN_LE ? run_le_reif : run_eq_reif, 1, xs,
                 m + 1, k, kind == FZN_LIN_LE ? m + 1 : m + 2);
    }
    free(t);
    free(xs);
    free(k);
}

static int lin(struct fzn_store *s, const struct fzn_arg *a,
               struct cs_error *err, const char *name, enum fzn_lin_kind kind,
               bool reif)
{
    if (a[0].n != a[1].n)
        return fzn_expects(err, name, "as many coefficients as variables");
    fzn_post_linear(s, name, kind, a[0].v, a[1].x, a[1].n, a[2].v[0],
                    reif ? a[3].x[0] : -1);
    return 0;
}

int fzn_post_int_lin_eq(struct fzn_store *s, const struct fzn_arg *a,
                        struct cs_error *err)
{
    return lin(s, a, err, "int_lin_eq", FZN_LIN_EQ, false);
}

int fzn_post_int_lin_le(struct fzn_store *s, const struct fzn_arg *a,
                        struct cs_error *err)
{
    return lin(s, a, err, "int_lin_le", FZN_LIN_LE, false);
}

int fzn_post_int_lin_ne(struct fzn_store *s, const struct fzn_arg *a,
                        struct cs_error *err)
{
    return lin(s, a, err, "int_lin_ne", FZN_LIN_NE, false);
}

int fzn_post_int_lin_eq_reif(struct fzn_store *s, const struct fzn_arg *a,
                             struct cs_error *err)
{
    return lin(s, a, err, "int_lin_eq_reif", FZN_LIN_EQ, true);
}

int fzn_post_int_lin_le_reif(struct fzn_store *s, const struct fzn_arg *a,
                             struct cs_error *err)
{
    return lin(s, a, err, "int_lin_le_reif", FZN_LIN_LE, true);
}

int fzn_post_int_lin_ne_reif(struct fzn_store *s, const struct fzn_arg *a,
                             struct cs_error *err)
{
    return lin(s, a, err, "int_lin_ne_reif", FZN_LIN_NE, true);
}

int fzn_post_bool_lin_le(struct fzn_store *s, const struct fzn_arg *a,
                         struct cs_error *err)
{
    return lin(s, a, err, "bool_lin_le", FZN_LIN_LE, false);
}

/* sum a[i] * b[i] = c with c a variable: c joins the sum with -1 */
int fzn_post_bool_lin_eq(struct fzn_store *s, const struct fzn_arg *a,
                         struct cs_error *err)
{
    int n = a[1].n;
    if (a[0].n != n)
        return fzn_expects(err, "bool_lin_eq",
                           "as many coefficients as variables");
    int *x = cs_xmalloc((size_t)(n + 1) * sizeof *x);
    int64_t *k = cs_xmalloc((size_t)(n + 1) * sizeof *k);
    memcpy(x, a[1].x, (size_t)n * sizeof *x);
    memcpy(k, a[0].v, (size_t)n * sizeof *k);
    x[n] = a[2].x[0];
    k[n] = -1;
    fzn_post_linear(s, "bool_lin_eq", FZN_LIN_EQ, k, x, n + 1, 0, -1);
    free(x);
    free(k);
    return 0;
}
