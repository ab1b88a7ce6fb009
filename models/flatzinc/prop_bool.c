/* prop_bool.c - clauses and parity: r <-> (l1 or l2 or ...) over literals
 * (a Boolean or its negation) gives and, or, clause and their reified
 * forms; xor is the parity of a sum.  Both are domain consistent.  An or
 * propagator's k holds a polarity per x (1: x, 0: not x), then whether
 * its last x is r; a parity propagator's k[0] is the parity wanted.
 */
#include <stdlib.h>

#include "fzn.h"

/* the literal's value: 1 true, 0 false, -1 open */
static int lit(const struct fzn_store *s, int x, int64_t pos)
{
    return fzn_fixed(s, x) ? (fzn_value(s, x) == pos) : -1;
}

static bool make(struct fzn_store *s, int x, int64_t pos, bool value)
{
    return fzn_fix(s, x, value ? pos : !pos);
}

static bool run_or(struct fzn_store *s, struct fzn_prop *p)
{
    bool has_r = p->k[p->nx];
    int n = has_r ? p->nx - 1 : p->nx, open = -1, nopen = 0;
    for (int i = 0; i < n; i++) {
        int v = lit(s, p->x[i], p->k[i]);
        if (v == 1)
            return !has_r || make(s, p->x[n], p->k[n], true);
        if (v < 0) {
            open = i;
            nopen++;
        }
    }
    int r = has_r ? lit(s, p->x[n], p->k[n]) : 1;
    if (nopen == 0)
        return has_r ? make(s, p->x[n], p->k[n], false) : false;
    if (r == 1 && nopen == 1)
        return make(s, p->x[open], p->k[open], true);
    if (r == 0)
        for (int i = 0; i < n; i++)
            if (!make(s, p->x[i], p->k[i], false))
                return false;
    return true;
}

void fzn_post_or(struct fzn_store *s, const char *name, const int *x,
                 const bool *pos, int n, int r, bool rpos)
{
    int *xs = cs_xmalloc((size_t)(n + 1) * sizeof *xs);
    int64_t *k = cs_xmalloc((size_t)(n + 2) * sizeof *k);
    int m = 0;
    bool yes = false;
    for (int i = 0; i < n && !yes; i++) {
        int v = lit(s, x[i], pos[i]);
        yes = v == 1;
        if (v < 0) {
            xs[m] = x[i];
            k[m++] = pos[i];
        }
    }
    if (yes || m == 0) { /* decided now */
        if (r >= 0)
            make(s, r, rpos, yes);
        else if (!yes)
            fzn_post_false(s);
    } else if (r < 0 && m == 1) {
        make(s, xs[0], k[0], true);
    } else {
        if (r >= 0) {
            xs[m] = r;
            k[m++] = rpos;
        }
        k[m] = r >= 0;
        fzn_post(s, name, run_or, 0, xs, m, k, m + 1);
    }
    free(xs);
    free(k);
}

/* r <-> (all of x) is (not r) <-> (some not x) */
static void post_and(struct fzn_store *s, const char *name, const int *x, int n,
                     int r)
{
    bool *pos = cs_xcalloc((size_t)(n ? n : 1), sizeof *pos);
    fzn_post_or(s, name, x, pos, n, r, false);
    free(pos);
}

static void post_any(struct fzn_store *s, const char *name, const int *x, int n,
                     int r)
{
    bool *pos = cs_xmalloc((size_t)(n ? n : 1) * sizeof *pos);
    for (int i = 0; i < n; i++)
        pos[i] = true;
    fzn_post_or(s, name, x, pos, n, r, true);
    free(pos);
}

static void post_clause(struct fzn_store *s, const char *name,
                        const struct fzn_arg *as, const struct fzn_arg *bs,
                        int r)
{
    int n = as->n + bs->n;
    int *x = cs_xmalloc((size_t)(n ? n : 1) * sizeof *x);
    bool *pos = cs_xmalloc((size_t)(n ? n : 1) * sizeof *pos);
    for (int i = 0; i < n; i++) {
        x[i] = i < as->n ? as->x[i] : bs->x[i - as->n];
        pos[i] = i < as->n;
    }
    fzn_post_or(s, name, x, pos, n, r, true);
    free(x);
    free(pos);
}

int fzn_post_array_bool_and(struct fzn_store *s, const struct fzn_arg *a,
                            struct cs_error *err)
{
    (void)err;
    post_and(s, "array_bool_and", a[0].x, a[0].n, a[1].x[0]);
    return 0;
}

int fzn_post_array_bool_or(struct fzn_store *s, const struct fzn_arg *a,
                           struct cs_error *err)
{
    (void)err;
    post_any(s, "array_bool_or", a[0].x, a[0].n, a[1].x[0]);
    return 0;
}

int fzn_post_bool_and(struct fzn_store *s, const struct fzn_arg *a,
                      struct cs_error *err)
{
    (void)err;
    post_and(s, "bool_and", (int[]){a[0].x[0], a[1].x[0]}, 2, a[2].x[0]);
    return 0;
}

int fzn_post_bool_or(struct fzn_store *s, const struct fzn_arg *a,
                     struct cs_error *err)
{
    (void)err;
    post_any(s, "bool_or", (int[]){a[0].x[0], a[1].x[0]}, 2, a[2].x[0]);
    return 0;
}

int fzn_post_bool_clause(struct fzn_store *s, const struct fzn_arg *a,
                         struct cs_error *err)
{
    (void)err;
    post_clause(s, "bool_clause", &a[0], &a[1], -1);
    return 0;
}

int fzn_post_bool_clause_reif(struct fzn_store *s, const struct fzn_arg *a,
                              struct cs_error *err)
{
    (void)err;
    post_clause(s, "bool_clause_reif", &a[0], &a[1], a[2].x[0]);
    return 0;
}

/* ---- parity ------------------------------------------------------------- */

static bool run_parity(struct fzn_store *s, struct fzn_prop *p)
{
    int open = -1;
    int64_t sum = 0;
    for (int i = 0; i < p->nx; i++) {
        if (!fzn_fixed(s, p->x[i])) {
            if (open >= 0)
                return true;
            open = p->x[i];
        } else {
            sum += fzn_value(s, p->x[i]);
        }
    }
    if (open < 0)
        return (sum & 1) == p->k[0];
    return fzn_fix(s, open, (p->k[0] + sum) & 1);
}

/* the sum of x has parity odd (a variable twice counts twice) */
static void post_parity(struct fzn_store *s, const char *name, const int *x,
                        int n, int64_t odd)
{
    if (n == 0) {
        if (odd)
            fzn_post_false(s);
        return;
    }
    fzn_post(s, name, run_parity, 0, x, n, &odd, 1);
}

int fzn_post_array_bool_xor(struct fzn_store *s, const struct fzn_arg *a,
                            struct cs_error *err)
{
    (void)err;
    post_parity(s, "array_bool_xor", a[0].x, a[0].n, 1);
    return 0;
}

/* r <-> (a xor b): a + b + r is even */
int fzn_post_bool_xor(struct fzn_store *s, const struct fzn_arg *a,
                      struct cs_error *err)
{
    (void)err;
    post_parity(s, "bool_xor", (int[]){a[0].x[0], a[1].x[0], a[2].x[0]}, 3, 0);
    return 0;
}
