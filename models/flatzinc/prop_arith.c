/* prop_arith.c - arithmetic: x + y = z, x * y = z, x div y = z, x mod y
 * = z (truncating, as MiniZinc and C), |x| = z, min, max (of two and of
 * arrays), pow.  Bounds propagation throughout (abs is domain consistent
 * on bit sets); products of two store values fit in 62 bits.  When x and
 * y are fixed, z is fixed to the exact result, which keeps the invariant.
 */
#include <stdlib.h>

#include "fzn.h"

static int64_t lo3(int64_t a, int64_t b)
{
    return a < b ? a : b;
}
static int64_t hi3(int64_t a, int64_t b)
{
    return a > b ? a : b;
}

static bool within(struct fzn_store *s, int x, int64_t lo, int64_t hi)
{
    return fzn_set_min(s, x, lo) && fzn_set_max(s, x, hi);
}

/* q * d = n: q within the quotients of n by d's non-zero values */
static bool quotient(struct fzn_store *s, int q, int n, int d)
{
    int64_t nmin = fzn_min(s, n), nmax = fzn_max(s, n);
    int64_t dmin = fzn_min(s, d), dmax = fzn_max(s, d);
    if (nmin <= 0 && nmax >= 0 && dmin <= 0 && dmax >= 0)
        return true; /* 0 * q = 0 for every q */
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    int64_t parts[2][2] = {{dmin, lo3(dmax, -1)}, {hi3(dmin, 1), dmax}};
    for (int p = 0; p < 2; p++) {
        if (parts[p][0] > parts[p][1])
            continue;
        for (int i = 0; i < 2; i++)
            for (int j = 0; j < 2; j++) {
                int64_t nv = i ? nmax : nmin, dv = parts[p][j];
                lo = lo3(lo, fzn_ceil_div(nv, dv));
                hi = hi3(hi, fzn_floor_div(nv, dv));
            }
    }
    return lo <= hi ? within(s, q, lo, hi) : fzn_set_min(s, q, INT64_MAX);
}

static bool run_times(struct fzn_store *s, struct fzn_prop *p)
{
    int x = p->x[0], y = p->x[1], z = p->x[2];
    int64_t c[4] = {(int64_t)fzn_min(s, x) * fzn_min(s, y),
                    (int64_t)fzn_min(s, x) * fzn_max(s, y),
                    (int64_t)fzn_max(s, x) * fzn_min(s, y),
                    (int64_t)fzn_max(s, x) * fzn_max(s, y)};
    if (!within(s, z, lo3(lo3(c[0], c[1]), lo3(c[2], c[3])),
                hi3(hi3(c[0], c[1]), hi3(c[2], c[3]))))
        return false;
    if (!fzn_contains(s, z, 0) &&
        (!fzn_remove(s, x, 0) || !fzn_remove(s, y, 0)))
        return false;
    return quotient(s, x, z, y) && quotient(s, y, z, x);
}

int fzn_post_int_times(struct fzn_store *s, const struct fzn_arg *a,
                       struct cs_error *err)
{
    (void)err;
    fzn_post(s, "int_times", run_times, 1,
             (int[]){a[0].x[0], a[1].x[0], a[2].x[0]}, 3, NULL, 0);
    return 0;
}

int fzn_post_int_plus(struct fzn_store *s, const struct fzn_arg *a,
                      struct cs_error *err)
{
    (void)err;
    fzn_post_linear(s, "int_plus", FZN_LIN_EQ, (int64_t[]){1, 1, -1},
                    (int[]){a[0].x[0], a[1].x[0], a[2].x[0]}, 3, 0, -1);
    return 0;
}

/* x div y = z: z within the truncated quotients at the corners of x and
 * of y's negative and positive parts; x within y * z +- (|y| - 1). */
static bool run_div(struct fzn_store *s, struct fzn_prop *p)
{
    int x = p->x[0], y = p->x[1], z = p->x[2];
    if (!fzn_remove(s, y, 0))
        return false;
    if (fzn_fixed(s, x) && fzn_fixed(s, y))
        return fzn_fix(s, z, fzn_value(s, x) / fzn_value(s, y));
    int64_t xmin = fzn_min(s, x), xmax = fzn_max(s, x);
    int64_t ymin = fzn_min(s, y), ymax = fzn_max(s, y);
    int64_t zmin = fzn_min(s, z), zmax = fzn_max(s, z);
    int64_t parts[2][2] = {{ymin, lo3(ymax, -1)}, {hi3(ymin, 1), ymax}};
    int64_t lo = INT64_MAX, hi = INT64_MIN, xlo = INT64_MAX, xhi = INT64_MIN;
    int64_t ybig = hi3(-ymin, ymax) - 1;
    for (int k = 0; k < 2; k++) {
        if (parts[k][0] > parts[k][1])
            continue;
        for (int j = 0; j < 2; j++) {
            int64_t yv = parts[k][j];
            for (int i = 0; i < 2; i++) {
                int64_t q = (i ? xmax : xmin) / yv, m = yv * (i ? zmax : zmin);
                lo = lo3(lo, q);
                hi = hi3(hi, q);
                xlo = lo3(xlo, m - ybig);
                xhi = hi3(xhi, m + ybig);
            }
        }
    }
    return within(s, z, lo, hi) && within(s, x, xlo, xhi);
}

int fzn_post_int_div(struct fzn_store *s, const struct fzn_arg *a,
                     struct cs_error *err)
{
    (void)err;
    fzn_post(s, "int_div", run_div, 1, (int[]){a[0].x[0], a[1].x[0], a[2].x[0]},
             3, NULL, 0);
    return 0;
}

/* x mod y = z: z has x's sign, |z| < |y| and |z| <= |x| */
static bool run_mod(struct fzn_store *s, struct fzn_prop *p)
{
    int x = p->x[0], y = p->x[1], z = p->x[2];
    if (!fzn_remove(s, y, 0))
        return false;
    if (fzn_fixed(s, x) && fzn_fixed(s, y))
        return fzn_fix(s, z, fzn_value(s, x) % fzn_value(s, y));
    int64_t m = hi3(-(int64_t)fzn_min(s, y), fzn_max(s, y)) - 1;
    if (!within(s, z, hi3(-m, lo3(0, fzn_min(s, x))),
                lo3(m, hi3(0, fzn_max(s, x)))))
        return false;
    if (fzn_min(s, z) > 0 && !fzn_set_min(s, x, fzn_min(s, z)))
        return false;
    return fzn_max(s, z) >= 0 || fzn_set_max(s, x, fzn_max(s, z));
}

int fzn_post_int_mod(struct fzn_store *s, const struct fzn_arg *a,
                     struct cs_error *err)
{
    (void)err;
    fzn_post(s, "int_mod", run_mod, 1, (int[]){a[0].x[0], a[1].x[0], a[2].x[0]},
             3, NULL, 0);
    return 0;
}

/* |x| = z: bounds, then on bit sets every value's support */
static bool run_abs(struct fzn_store *s, struct fzn_prop *p)
{
    int x = p->x[0], z = p->x[1];
    int64_t xmin = fzn_min(s, x), xmax = fzn_max(s, x);
    int64_t least = xmin >= 0 ? xmin : xmax <= 0 ? -xmax : 0;
    if (!within(s, z, least, hi3(-xmin, xmax)) ||
        !within(s, x, -(int64_t)fzn_max(s, z), fzn_max(s, z)))
        return false;
    int64_t zmin = fzn_min(s, z);
    if (fzn_min(s, x) > -zmin && !fzn_set_min(s, x, zmin))
        return false;
    if (fzn_max(s, x) < zmin && !fzn_set_max(s, x, -zmin))
        return false;
    if (fzn_is_bitset(s, x))
        for (int64_t v = fzn_min(s, x); v != INT64_MAX;
             v = fzn_next_above(s, x, v))
            if (!fzn_contains(s, z, v < 0 ? -v : v) && !fzn_remove(s, x, v))
                return false;
    if (fzn_is_bitset(s, z))
        for (int64_t v = fzn_min(s, z); v != INT64_MAX;
             v = fzn_next_above(s, z, v))
            if (!fzn_contains(s, x, v) && !fzn_contains(s, x, -v) &&
                !fzn_remove(s, z, v))
                return false;
    return true;
}

int fzn_post_int_abs(struct fzn_store *s, const struct fzn_arg *a,
                     struct cs_error *err)
{
    (void)err;
    fzn_post(s, "int_abs", run_abs, 0, (int[]){a[0].x[0], a[1].x[0]}, 2, NULL,
             0);
    return 0;
}

/* m = max(x[1..]) when k[0] is 1; with k[0] -1, m = min(x[1..]) seen
 * through negation: every bound read and written mirrored. */
static int64_t lb(const struct fzn_store *s, int x, int64_t sg)
{
    return sg > 0 ? fzn_min(s, x) : -(int64_t)fzn_max(s, x);
}

static int64_t ub(const struct fzn_store *s, int x, int64_t sg)
{
    return sg > 0 ? fzn_max(s, x) : -(int64_t)fzn_min(s, x);
}

static bool set_lb(struct fzn_store *s, int x, int64_t v, int64_t sg)
{
    return sg > 0 ? fzn_set_min(s, x, v) : fzn_set_max(s, x, -v);
}

static bool set_ub(struct fzn_store *s, int x, int64_t v, int64_t sg)
{
    return sg > 0 ? fzn_set_max(s, x, v) : fzn_set_min(s, x, -v);
}

static bool run_max(struct fzn_store *s, struct fzn_prop *p)
{
    int64_t sg = p->k[0];
    int m = p->x[0], n = p->nx - 1;
    const int *x = p->x + 1;
    int64_t lo = INT64_MIN, hi = INT64_MIN;
    for (int i = 0; i < n; i++) {
        lo = hi3(lo, lb(s, x[i], sg));
        hi = hi3(hi, ub(s, x[i], sg));
    }
    if (!set_lb(s, m, lo, sg) || !set_ub(s, m, hi, sg))
        return false;
    int64_t mlo = lb(s, m, sg), mhi = ub(s, m, sg);
    int reach = -1, nreach = 0;
    for (int i = 0; i < n; i++) {
        if (!set_ub(s, x[i], mhi, sg))
            return false;
        if (ub(s, x[i], sg) >= mlo) {
            reach = i;
            nreach++;
        }
    }
    return nreach != 1 || set_lb(s, x[reach], mlo, sg);
}

static void post_max(struct fzn_store *s, const char *name, int m, const int *x,
                     int n, int64_t sg)
{
    if (n == 0) {
        fzn_post_false(s); /* the maximum of nothing */
        return;
    }
    int *xs = cs_xmalloc((size_t)(n + 1) * sizeof *xs);
    xs[0] = m;
    for (int i = 0; i < n; i++)
        xs[i + 1] = x[i];
    fzn_post(s, name, run_max, 1, xs, n + 1, &sg, 1);
    free(xs);
}

int fzn_post_int_max(struct fzn_store *s, const struct fzn_arg *a,
                     struct cs_error *err)
{
    (void)err;
    post_max(s, "int_max", a[2].x[0], (int[]){a[0].x[0], a[1].x[0]}, 2, 1);
    return 0;
}

int fzn_post_int_min(struct fzn_store *s, const struct fzn_arg *a,
                     struct cs_error *err)
{
    (void)err;
    post_max(s, "int_min", a[2].x[0], (int[]){a[0].x[0], a[1].x[0]}, 2, -1);
    return 0;
}

int fzn_post_array_int_maximum(struct fzn_store *s, const struct fzn_arg *a,
                               struct cs_error *err)
{
    (void)err;
    post_max(s, "array_int_maximum", a[0].x[0], a[1].x, a[1].n, 1);
    return 0;
}

int fzn_post_array_int_minimum(struct fzn_store *s, const struct fzn_arg *a,
                               struct cs_error *err)
{
    (void)err;
    post_max(s, "array_int_minimum", a[0].x[0], a[1].x, a[1].n, -1);
    return 0;
}

/* x ^ y as MiniZinc has it (y < 0: 1 div x ^ -y); false when undefined
 * (0 ^ negative) or beyond the store's range. */
static bool power(int64_t x, int64_t y, int64_t *out)
{
    if (y < 0) {
        if (x == 0)
            return false;
        *out = x == 1 ? 1 : x == -1 ? (y % 2 ? -1 : 1) : 0;
        return true;
    }
    if (x == 0 || x == 1 || (x == -1)) {
        *out = y == 0 ? 1 : x == -1 && y % 2 ? -1 : x == -1 ? 1 : x;
        return true;
    }
    int64_t r = 1;
    for (int64_t i = 0; i < y; i++) { /* |x| >= 2: at most 31 rounds */
        r *= x;
        if (r > FZN_INT_MAX || r < FZN_INT_MIN)
            return false;
    }
    *out = r;
    return true;
}

#define POW_ENUMERATE 4096 /* pairs of x and y values tried at most */

/* x ^ y = z: with few pairs of x and y, each variable within the bounds
 * of its supported values; else only once x and y are fixed. */
static bool run_pow(struct fzn_store *s, struct fzn_prop *p)
{
    int x = p->x[0], y = p->x[1], z = p->x[2];
    if ((uint64_t)fzn_size(s, x) * fzn_size(s, y) > POW_ENUMERATE)
        return true;
    int64_t lo[3] = {INT64_MAX, INT64_MAX, INT64_MAX};
    int64_t hi[3] = {INT64_MIN, INT64_MIN, INT64_MIN};
    for (int64_t a = fzn_min(s, x); a != INT64_MAX; a = fzn_next_above(s, x, a))
        for (int64_t b = fzn_min(s, y); b != INT64_MAX;
             b = fzn_next_above(s, y, b)) {
            int64_t c;
            if (!power(a, b, &c) || !fzn_contains(s, z, c))
                continue;
            int64_t v[3] = {a, b, c};
            for (int i = 0; i < 3; i++) {
                lo[i] = lo3(lo[i], v[i]);
                hi[i] = hi3(hi[i], v[i]);
            }
        }
    if (lo[0] > hi[0])
        return fzn_set_min(s, x, INT64_MAX);
    return within(s, x, lo[0], hi[0]) && within(s, y, lo[1], hi[1]) &&
           within(s, z, lo[2], hi[2]);
}

int fzn_post_int_pow(struct fzn_store *s, const struct fzn_arg *a,
                     struct cs_error *err)
{
    (void)err;
    fzn_post(s, "int_pow", run_pow, 1, (int[]){a[0].x[0], a[1].x[0], a[2].x[0]},
             3, NULL, 0);
    return 0;
}
