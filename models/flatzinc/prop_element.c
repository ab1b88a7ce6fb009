/* prop_element.c - c = a[b] with b 1-based: a of constants (k holds a; x
 * is b, c) or of variables (x is b, c, a...).  Both are domain consistent
 * on bit sets: an index stays while its entry can equal c, a value of c
 * while some index's entry can take it (for variable arrays only while
 * |b| * |c| is at most ELEMENT_PAIRS; beyond that c gets bounds).
 */
#include <stdlib.h>
#include <string.h>

#include "fzn.h"

#define ELEMENT_PAIRS 65536

/* scratch: a bit per value of c's span, all clear */
static uint64_t *marks(struct fzn_prop *p, const struct fzn_dom *d)
{
    if (!p->aux)
        p->aux = cs_xmalloc(d->words * sizeof(uint64_t));
    memset(p->aux, 0, d->words * sizeof(uint64_t));
    return p->aux;
}

static void mark(uint64_t *m, const struct fzn_dom *d, int64_t v)
{
    uint64_t i = (uint64_t)(v - d->base);
    m[i >> 6] |= UINT64_C(1) << (i & 63);
}

static bool marked(const uint64_t *m, const struct fzn_dom *d, int64_t v)
{
    uint64_t i = (uint64_t)(v - d->base);
    return m[i >> 6] >> (i & 63) & 1;
}

/* c keeps the marked values of [lo, hi] */
static bool keep_marked(struct fzn_store *s, int c, const uint64_t *m,
                        int64_t lo, int64_t hi)
{
    if (lo > hi || !fzn_set_min(s, c, lo) || !fzn_set_max(s, c, hi))
        return fzn_set_min(s, c, INT64_MAX); /* fails */
    if (!m)
        return true;
    const struct fzn_dom *d = &s->dom[c];
    for (int64_t v = fzn_min(s, c); v != INT64_MAX; v = fzn_next_above(s, c, v))
        if (!marked(m, d, v) && !fzn_remove(s, c, v))
            return false;
    return true;
}

static bool run_const(struct fzn_store *s, struct fzn_prop *p)
{
    int b = p->x[0], c = p->x[1];
    const struct fzn_dom *d = &s->dom[c];
    uint64_t *m = fzn_is_bitset(s, c) ? marks(p, d) : NULL;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    if (!fzn_set_min(s, b, 1) || !fzn_set_max(s, b, p->nk))
        return false;
    for (int64_t v = fzn_min(s, b); v != INT64_MAX;
         v = fzn_next_above(s, b, v)) {
        int64_t e = p->k[v - 1];
        if (!fzn_contains(s, c, e)) {
            if (!fzn_remove(s, b, v))
                return false;
            continue;
        }
        lo = e < lo ? e : lo;
        hi = e > hi ? e : hi;
        if (m)
            mark(m, d, e);
    }
    return keep_marked(s, c, m, lo, hi);
}

static void post_const(struct fzn_store *s, const char *name,
                       const struct fzn_arg *a)
{
    int b = a[0].x[0], c = a[2].x[0];
    if (!fzn_set_min(s, b, 1) || !fzn_set_max(s, b, a[1].n))
        return;
    if (fzn_fixed(s, b))
        fzn_fix(s, c, a[1].v[fzn_value(s, b) - 1]);
    else
        fzn_post(s, name, run_const, 0, (int[]){b, c}, 2, a[1].v, a[1].n);
}

int fzn_post_array_int_element(struct fzn_store *s, const struct fzn_arg *a,
                               struct cs_error *err)
{
    (void)err;
    post_const(s, "array_int_element", a);
    return 0;
}

int fzn_post_array_bool_element(struct fzn_store *s, const struct fzn_arg *a,
                                struct cs_error *err)
{
    (void)err;
    post_const(s, "array_bool_element", a);
    return 0;
}

static bool run_var(struct fzn_store *s, struct fzn_prop *p)
{
    int b = p->x[0], c = p->x[1], n = p->nx - 2;
    const int *x = p->x + 2;
    if (!fzn_set_min(s, b, 1) || !fzn_set_max(s, b, n))
        return false;
    int64_t lo = INT64_MAX, hi = INT64_MIN;
    for (int64_t v = fzn_min(s, b); v != INT64_MAX;
         v = fzn_next_above(s, b, v)) {
        int xi = x[v - 1];
        if (!fzn_intersects(s, xi, c)) {
            if (!fzn_remove(s, b, v))
                return false;
            continue;
        }
        int64_t l = fzn_min(s, xi), h = fzn_max(s, xi);
        lo = l < lo ? l : lo;
        hi = h > hi ? h : hi;
    }
    if (fzn_fixed(s, b))
        return fzn_eq_dom(s, x[fzn_value(s, b) - 1], c);
    if (!fzn_set_min(s, c, lo) || !fzn_set_max(s, c, hi))
        return false;
    if (!fzn_is_bitset(s, c) ||
        (uint64_t)fzn_size(s, b) * fzn_size(s, c) > ELEMENT_PAIRS)
        return true;
    for (int64_t w = fzn_min(s, c); w != INT64_MAX;
         w = fzn_next_above(s, c, w)) {
        bool some = false;
        for (int64_t v = fzn_min(s, b); v != INT64_MAX && !some;
             v = fzn_next_above(s, b, v))
            some = fzn_contains(s, x[v - 1], w);
        if (!some && !fzn_remove(s, c, w))
            return false;
    }
    return true;
}

static void post_var(struct fzn_store *s, const char *name,
                     const struct fzn_arg *a)
{
    int b = a[0].x[0], c = a[2].x[0], n = a[1].n;
    if (!fzn_set_min(s, b, 1) || !fzn_set_max(s, b, n))
        return;
    int *x = cs_xmalloc((size_t)(n + 2) * sizeof *x);
    x[0] = b;
    x[1] = c;
    memcpy(x + 2, a[1].x, (size_t)n * sizeof *x);
    fzn_post(s, name, run_var, 1, x, n + 2, NULL, 0);
    free(x);
}

int fzn_post_array_var_int_element(struct fzn_store *s, const struct fzn_arg *a,
                                   struct cs_error *err)
{
    (void)err;
    post_var(s, "array_var_int_element", a);
    return 0;
}

int fzn_post_array_var_bool_element(struct fzn_store *s,
                                    const struct fzn_arg *a,
                                    struct cs_error *err)
{
    (void)err;
    post_var(s, "array_var_bool_element", a);
    return 0;
}
